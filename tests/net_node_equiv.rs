//! The network engine's node (`src/net/node.rs`, `NetNode`) against the co-simulated node
//! (`src/node/`, `Node`, the composition `cosim --design node` holds equal to
//! `rtl/exanet_node.sv`), register by register (issue 28 §1: until the network is built from
//! `Node` itself, this test holds the two wirings equal).
//!
//! A network of `Node`s is wired as the engine wires its `NetNode`s (each port's lane into the
//! neighbour's RX), each node's Target Controller reset to the configuration the engine gives
//! that node (`engine::router_cfg`, the network's TRED and whole-packet credit), and driven by
//! NICs taken from a second engine network built from the same configuration (so both see the
//! same traffic, drawn from the same seeds). After every cycle every register (`_q`) of every
//! router, TCL and lane of every node is compared by its RTL name; the first difference names
//! the node, the register, the cycle and both values.

use exanet::block::Block;
use exanet::config::Config;
use exanet::net::nic::{Nic, NicFifoIn};
use exanet::net::setup::{build, plan, Plan};
use exanet::net::topology::Topology;
use exanet::node::{Node, NodeIn};
use exanet::probe::Visitor;
use std::collections::BTreeMap;

/// The registers (`..._q`, `..._q[k]`) under `u_router` and `gen_link[q]`, in visiting order
/// (the two probes visit them in the same order), with their full names when `named`.
#[derive(Default, Clone)]
struct Regs {
    scope: Vec<String>,
    named: bool,
    /// Every signal, ports as well as registers.
    ports: bool,
    values: Vec<u128>,
    names: Vec<String>,
}

impl Regs {
    fn new(ports: bool) -> Regs {
        Regs {
            ports,
            ..Default::default()
        }
    }

    fn named(&self) -> Regs {
        Regs {
            named: true,
            ports: self.ports,
            ..Default::default()
        }
    }

    fn wanted(&self, name: &str) -> bool {
        (self.ports || name.ends_with("_q")) && self.data_path()
    }

    fn data_path(&self) -> bool {
        self.scope
            .first()
            .is_some_and(|s| s == "u_router" || s.starts_with("gen_link"))
    }

    fn map(&self) -> BTreeMap<String, u128> {
        self.names
            .iter()
            .cloned()
            .zip(self.values.iter().copied())
            .collect()
    }
}

impl Visitor for Regs {
    fn enter(&mut self, s: &str) {
        self.scope.push(s.to_string());
    }
    fn leave(&mut self) {
        self.scope.pop();
    }
    fn sig(&mut self, name: &str, _w: u32, value: u128) {
        if self.wanted(name) {
            self.values.push(value);
            if self.named {
                self.names.push(format!("{}.{name}", self.scope.join(".")));
            }
        }
    }
    fn sig_idx(&mut self, name: &str, idx: usize, _w: u32, value: u128) {
        if self.wanted(name) {
            self.values.push(value);
            if self.named {
                self.names
                    .push(format!("{}.{name}[{idx}]", self.scope.join(".")));
            }
        }
    }
}

/// A small network run as the engine runs it, but cycle by cycle, without idle skipping (a
/// skipped TCL TX's credit age is brought up to date only when it is next evaluated) and with
/// the FIFOs' whole memory (`net.live_fifo_words` false: an empty live-word FIFO's read
/// register shows 0 where the RTL's memory holds a stale word). `the_model_machinery_changes_
/// no_result` holds both to the same statistics.
fn config(topology: &str, load: f64, sizes: &str, seed: u64) -> Config {
    let mut c = Config::default();
    c.net.topology = topology.parse().unwrap();
    c.net.routing = "ecube".parse().unwrap();
    c.net.load = load;
    c.net.sizes = sizes.parse().unwrap();
    c.net.threads = 1;
    c.net.partitions = 1;
    c.net.window_cycles = 1;
    c.net.idle_skip = false;
    c.net.live_fifo_words = false;
    c.net.warmup_cycles = 0;
    c.sim.seed = seed;
    c
}

/// The configuration of network node `id` as a stand-alone `Node` (the network lockstep's).
fn node_config(
    cfg: &Config,
    t: &dyn Topology,
    id: usize,
    link: &exanet::link::LinkParams,
) -> Config {
    exanet::cosim::net_design::node_config(cfg, t, id, link).unwrap()
}

struct Reference {
    nodes: Vec<Node>,
    nics: Vec<Vec<Nic>>,
}

impl Reference {
    /// Every node's and NIC's inputs, from the registers of this cycle.
    fn inputs(&self, t: &dyn Topology) -> (Vec<NodeIn>, Vec<Vec<NicFifoIn>>) {
        let n = self.nodes.len();
        let mut ins = vec![NodeIn::default(); n];
        let mut fis: Vec<Vec<NicFifoIn>> = Vec::with_capacity(n);
        for (i, x) in ins.iter_mut().enumerate() {
            let node = &self.nodes[i];
            for (k, nic) in self.nics[i].iter().enumerate() {
                x.ps[k] = nic.outputs();
            }
            for q in 0..t.ports() {
                if let Some((m, r)) = t.link(i, q) {
                    x.link_in[q] = self.nodes[m].link_out(r);
                }
            }
            fis.push(
                (0..self.nics[i].len())
                    .map(|k| {
                        self.nics[i][k].fifo_in(
                            node.dp.router.intra_tx(k as u32),
                            node.dp.router.intra_rx(k as u32),
                        )
                    })
                    .collect(),
            );
        }
        (ins, fis)
    }

    /// One cycle: every input taken from the registers of `cycle`, then every block steps.
    fn step(
        &mut self,
        t: &dyn Topology,
        p: &Plan,
        pattern: &dyn exanet::net::traffic::Pattern,
        cycle: u64,
    ) {
        let (ins, fis) = self.inputs(t);
        for i in 0..self.nodes.len() {
            for (k, nic) in self.nics[i].iter_mut().enumerate() {
                nic.step(t, pattern, &p.sizes, &fis[i][k], cycle, false);
            }
            let order = self.nodes[i].blocks();
            self.nodes[i].step_in_order(&ins[i], &order);
        }
    }

    /// Node `i` as `NetNode::probe` shows a network node: with the inputs its neighbours' and
    /// NICs' registers drive now.
    fn probe(&self, t: &dyn Topology, i: usize, r: &mut Regs) {
        let (ins, _) = self.inputs(t);
        self.nodes[i].probe(&ins[i], r);
    }
}

/// Run `cfg` for `cycles` on the engine and on the reference, comparing every data-path
/// register of every node after every cycle; the count of registers compared a cycle.
fn compare(cfg: &Config, cycles: u64, ports: bool) -> usize {
    let p = plan(cfg).unwrap();
    let t = p.topo.clone();
    let mut net = build(cfg, &p, cfg.net.load).unwrap();
    let mut twin = build(cfg, &p, cfg.net.load).unwrap();
    let link = *net.link_params();
    let mut reference = Reference {
        nodes: (0..t.nodes())
            .map(|i| Node::reset(&node_config(cfg, t.as_ref(), i, &link)))
            .collect(),
        nics: twin
            .nodes
            .iter_mut()
            .map(|n| std::mem::take(&mut n.nics))
            .collect(),
    };
    let pattern = p.pattern.build().unwrap();
    let mut compared = 0;
    for c in 0..cycles {
        net.run(1);
        reference.step(t.as_ref(), &p, pattern.as_ref(), c);
        for i in 0..t.nodes() {
            let (mut got, mut want) = (Regs::new(ports), Regs::new(ports));
            net.probe_node(i, &mut got);
            reference.probe(t.as_ref(), i, &mut want);
            if got.values != want.values {
                let (mut got, mut want) = (got.named(), want.named());
                net.probe_node(i, &mut got);
                reference.probe(t.as_ref(), i, &mut want);
                let (got, want) = (got.map(), want.map());
                let mut diffs = Vec::new();
                for (k, v) in &want {
                    match got.get(k) {
                        Some(g) if g == v => {}
                        g => diffs.push(format!(
                            "{k}: network {}, node {v:#x}",
                            g.map_or("absent".to_string(), |g| format!("{g:#x}"))
                        )),
                    }
                }
                for k in got.keys().filter(|k| !want.contains_key(*k)) {
                    diffs.push(format!("{k}: the network node only"));
                }
                panic!(
                    "{} node {i} after cycle {c} ({} differences), first: {}",
                    cfg.net.topology,
                    diffs.len(),
                    diffs.iter().take(5).cloned().collect::<Vec<_>>().join("; ")
                );
            }
            compared = want.values.len();
        }
    }
    let delivered = net.merged().delivered;
    assert!(delivered > 0, "{}: no packet delivered", cfg.net.topology);
    compared
}

#[test]
fn the_network_node_is_the_cosimulated_node_register_by_register() {
    let regs = compare(&config("torus:4x4", 0.4, "16:512", 7), 6000, false);
    assert!(regs > 1000, "{regs} registers a node");
    // saturated, long packets: credits stop links, FIFOs fill
    compare(&config("torus:4x4", 0.9, "16:4096", 3), 5000, false);
    // a 3-D torus (6 ports) with rings of 2 (two parallel links between a pair of nodes)
    compare(&config("torus:3x2x2", 0.5, "16:1024", 11), 4000, false);
    compare(&config("torus:2x3", 0.6, "64", 5), 4000, false);
}

/// The same comparison over every probed signal of the data path, ports as well as registers:
/// what a lockstep against the RTL compares.
#[test]
fn the_network_node_shows_the_cosimulated_node_s_ports_too() {
    let signals = compare(&config("torus:4x4", 0.9, "16:4096", 3), 3000, true);
    assert!(signals > 2000, "{signals} signals a node");
    compare(&config("torus:3x2x2", 0.5, "16:1024", 11), 2000, true);
}

/// What the comparison above turns off (idle skipping, one cycle a window, one thread, the
/// live-word FIFO memory) changes no result: the statistics hash is the same as the engine's
/// normal mode (2 threads, 4 partitions, windows of the PHY latency, skipping on, live words).
#[test]
fn the_model_machinery_changes_no_result() {
    for (topology, load, sizes, seed) in [
        ("torus:4x4", 0.9, "16:4096", 3),
        ("torus:3x2x2", 0.5, "16:1024", 11),
    ] {
        let exact = config(topology, load, sizes, seed);
        let mut normal = exact.clone();
        normal.net.threads = 2;
        normal.net.partitions = 4;
        normal.net.window_cycles = 0;
        normal.net.idle_skip = true;
        normal.net.live_fifo_words = true;
        let run = |c: &Config| {
            let mut c = c.clone();
            c.net.warmup_cycles = 500;
            c.net.measure_cycles = 3000;
            exanet::net::setup::run(&c, &plan(&c).unwrap(), c.net.load).unwrap()
        };
        let (a, b) = (run(&exact), run(&normal));
        assert!(
            a.packets_delivered > 100,
            "{topology}: {}",
            a.packets_delivered
        );
        assert_eq!(a.stats_hash, b.stats_hash, "{topology}");
    }
}

/// The engine in its normal mode (2 threads, 4 partitions, windows of the PHY latency, idle
/// skipping on), stepped a cycle at a time for the comparison: every probed signal still equal
/// (what idle skipping leaves behind shown brought up to date, `NetNode::probe`). Only the
/// FIFOs keep their whole memory (`net.live_fifo_words = false`).
#[test]
fn the_network_in_its_normal_mode_shows_the_cosimulated_nodes() {
    let mut c = config("torus:4x4", 0.7, "16:2048", 9);
    c.net.threads = 2;
    c.net.partitions = 4;
    c.net.window_cycles = 0;
    c.net.idle_skip = true;
    compare(&c, 3000, true);
}
