//! `exanet cosim --design network`: the network engine (`src/net/engine.rs`) in lockstep with a
//! Verilated network of `exanet_node`s wired as the engine wires its nodes (issue 28 §3,
//! `testbench/networks.rs`, decision 0038).
//!
//! The engine runs as a network run runs it: its threads, partitions, windows and idle skipping
//! as configured, its NICs drawing the configured traffic (or an application's ranks, with
//! `--app`), stepped one cycle at a time. The NICs' registers drive both sides: every cycle each
//! NIC's write and read strobes and write data go to the engine's node and, as the Verilated
//! network's inputs, to the RTL node at the same place. After every rising edge every register
//! (`_q`) of every router, TCL and lane of every node (what `NetNode::probe` shows: the data
//! path) is compared with the RTL's by its full name, `TOP.<top>.gen_node[n].u_node.<path>`; the
//! first difference names the node, the register, the cycle and both values.
//!
//! The engine keeps the FIFOs' whole memory for the comparison (`net.live_fifo_words = false`:
//! with live words an empty FIFO's read register shows 0 where the RTL's memory holds a stale
//! word; `tests/net_node_equiv.rs` holds both modes to the same statistics), and runs at the
//! Verilated Target Controllers' TRED ([`super::networks::TRED`]). Before the first cycle every
//! node's Target Controller registers, as the RTL resets them, are compared with those of the
//! co-simulated node (`src/node`) configured as the engine configures that node, and that node's
//! router and TCL settings with the engine's: a setting the Verilated network was not built with
//! is refused naming the node, the register and both values.

use super::lockstep::{self, CosimError, CosimReport, Design, Options};
use super::networks::{self, RtlNetwork};
use super::rtl::{RtlModel, RtlTop};
use crate::block::Block;
use crate::config::{Config, InterPortConfig};
use crate::net::engine::{router_cfg, Network};
use crate::net::topology::{PortClass, Topology};
use crate::node::Node;
use crate::probe::Visitor;
use crate::router::params::Dir;
use std::collections::BTreeMap;

/// The configuration of network node `id` as a stand-alone co-simulated node: its router
/// structure (one intra-tile port a terminal, the topology's ports), its place in the lattice,
/// and what the engine gives every link (`link`, the engine's: its VCs, the network's TRED, its
/// whole-packet credits). Only for tori and meshes (every port leads along a dimension).
pub fn node_config(
    cfg: &Config,
    t: &dyn Topology,
    id: usize,
    link: &crate::link::LinkParams,
) -> Result<Config, String> {
    let shape = t
        .shape()
        .ok_or_else(|| format!("{}: not a torus or a mesh", cfg.net.topology))?;
    let mut c = cfg.clone();
    c.router.intra_ports = t.terminals() as u32;
    c.router.tx_only_ports.clear();
    c.router.inter_ports = (0..t.ports())
        .map(|q| match t.port_class(id, q) {
            PortClass::Dim { dim, plus } => Ok(InterPortConfig {
                dim,
                dir: if plus { Dir::Plus } else { Dir::Minus },
            }),
            other => Err(format!(
                "{}: node {id} port {q} is {other:?}, not a dimension's",
                cfg.net.topology
            )),
        })
        .collect::<Result<_, _>>()?;
    c.router.dims = shape.size.len() as u32;
    c.link.num_vcs = link.tcl.num_vcs;
    c.link.credit.tred_words = link.cfg.tred;
    c.link.credit.whole_packet = cfg.net.whole_packet_credit;
    let rc = router_cfg(cfg, t, id, &crate::link::LinkParams::from_config(&c.link));
    c.node.coord = rc.coord;
    c.node.lattice = rc.size;
    c.node.torus = [shape.wrap; 3];
    c.node.dim_order = rc.order;
    Ok(c)
}

/// Forwards only registers (`..._q`, `..._q[k]`).
struct Registers<'a> {
    inner: &'a mut dyn Visitor,
}

impl Visitor for Registers<'_> {
    fn enter(&mut self, scope: &str) {
        self.inner.enter(scope);
    }
    fn leave(&mut self) {
        self.inner.leave();
    }
    fn sig(&mut self, name: &str, width: u32, value: u128) {
        if name.ends_with("_q") {
            self.inner.sig(name, width, value);
        }
    }
    fn sig_idx(&mut self, name: &str, idx: usize, width: u32, value: u128) {
        if name.ends_with("_q") {
            self.inner.sig_idx(name, idx, width, value);
        }
    }
    fn clk(&self) -> bool {
        self.inner.clk()
    }
}

/// Collects the registers under the Target Controller (`u_tc`), by name.
#[derive(Default)]
struct TcRegs {
    scope: Vec<String>,
    regs: BTreeMap<String, u128>,
}

impl Visitor for TcRegs {
    fn enter(&mut self, scope: &str) {
        self.scope.push(scope.to_string());
    }
    fn leave(&mut self) {
        self.scope.pop();
    }
    fn sig(&mut self, name: &str, _w: u32, value: u128) {
        if self.scope.first().is_some_and(|s| s == "u_tc") && name.ends_with("_q") {
            self.regs
                .insert(format!("{}.{name}", self.scope.join(".")), value);
        }
    }
    fn sig_idx(&mut self, name: &str, idx: usize, _w: u32, value: u128) {
        if self.scope.first().is_some_and(|s| s == "u_tc") && name.ends_with("_q") {
            self.regs
                .insert(format!("{}.{name}[{idx}]", self.scope.join(".")), value);
        }
    }
}

/// The network engine beside a Verilated network.
pub struct NetDesign {
    pub net: Network,
    spec: &'static RtlNetwork,
    top: RtlTop,
    /// Every node as a co-simulated node configured as the engine configures it (for the
    /// Target Controller check).
    nodes: Vec<Node>,
    /// The TRED the engine runs at.
    tred: u32,
}

/// `cfg` as the network lockstep runs it: the Verilated network's TRED (unless
/// `net.tred_units` asks for another, which the Target Controller check then refuses), the
/// FIFOs' whole memory. Refuses a topology without a Verilated network and a routing function
/// without an RTL twin.
pub fn prepare(cfg: &Config) -> Result<Config, String> {
    networks::of(cfg)?;
    if !cfg.net.routing.rtl_twin() {
        return Err(format!(
            "net.routing = {}: model-only routing, which the APErouter's RTL does not have; the \
             network co-simulation runs the RTL's routing function (net.routing = ecube)",
            cfg.net.routing
        ));
    }
    let mut c = cfg.clone();
    if c.net.tred_units == 0 {
        c.net.tred_units = networks::TRED;
    }
    c.net.live_fifo_words = false;
    Ok(c)
}

impl NetDesign {
    /// The design for `cfg` (already [`prepare`]d) and the engine network `net` built from it
    /// (with its traffic, or with an application's ranks attached).
    pub fn new(cfg: &Config, net: Network) -> Result<NetDesign, String> {
        let (spec, top) = networks::of(cfg)?;
        let tred = net.link_params().cfg.tred;
        let t = net.topo.clone();
        let shape = super::shapes::by_name(spec.shape)?.expect("a network shape");
        let mut nodes = Vec::with_capacity(t.nodes());
        for id in 0..t.nodes() {
            let nc = node_config(cfg, t.as_ref(), id, net.link_params())?;
            // the node's structure: the shape's, with the default FIFOs, latencies and PHY
            let (found, _, _) = super::shapes::of(&nc)?;
            if found.map(|s| s.name) != Some(shape.name) {
                return Err(format!(
                    "node {id}: its structure is not the {} shape the network {} is Verilated at",
                    shape.name, spec.name
                ));
            }
            // (its run-time settings, which the Target Controllers reset to, are compared
            // register by register after the RTL's reset: `check_reset`)
            let d = Config::default();
            let mut structural = nc.clone();
            structural.node = d.node.clone();
            let (c, dc) = (&mut structural.link.credit, &d.link.credit);
            c.flavour = dc.flavour;
            c.period_cycles = dc.period_cycles;
            c.max_interval_cycles = dc.max_interval_cycles;
            c.tred_words = dc.tred_words;
            c.after_every_packet = dc.after_every_packet;
            c.whole_packet = dc.whole_packet;
            structural.link.phy.gearbox_pause = d.link.phy.gearbox_pause;
            structural.link.phy.clock_compensation = d.link.phy.clock_compensation;
            let structural = super::shapes::apply(&structural, Some(shape));
            super::node_design::check_structural(&structural)
                .map_err(|e| format!("node {id}: {e}"))?;
            let node = Node::reset(&nc);
            // the co-simulated node's settings are the engine's (the RTL's Target Controller
            // enables every port; the engine disables those it leaves unwired, which no packet
            // reaches or leaves)
            let mut engine = router_cfg(cfg, t.as_ref(), id, net.link_params());
            let mut model = node.router_cfg();
            let unwired: u16 = (0..t.ports())
                .filter(|&q| t.link(id, q).is_none())
                .fold(0, |m, q| m | 1 << q);
            engine.inter_en |= unwired;
            model.inter_en |= unwired;
            if engine != model {
                return Err(format!(
                    "node {id}: the engine configures its router as {engine:?}, the co-simulated \
                     node as {model:?}"
                ));
            }
            if node.tcl_cfg() != net.link_params().cfg {
                return Err(format!(
                    "node {id}: the engine configures its TCLs as {:?}, the co-simulated node as \
                     {:?}",
                    net.link_params().cfg,
                    node.tcl_cfg()
                ));
            }
            nodes.push(node);
        }
        Ok(NetDesign {
            net,
            spec,
            top,
            nodes,
            tred,
        })
    }

    fn prefix(&self, v: &mut dyn Visitor, id: usize) {
        v.enter("TOP");
        v.enter(&self.spec.module());
        v.enter(&format!("gen_node[{id}]"));
        v.enter("u_node");
    }
}

impl Design for NetDesign {
    fn top(&self) -> RtlTop {
        self.top
    }

    fn input_names(&self) -> Vec<String> {
        let mut n: Vec<String> = ["ps_wr_hf_i", "ps_wr_pay_i", "ps_rd_hf_i", "ps_rd_pay_i"]
            .iter()
            .map(|s| format!("TOP.{s}"))
            .collect();
        n.extend((0..self.spec.nodes()).map(|i| format!("TOP.ps_wdata_i[{i}]")));
        n
    }

    fn input_values(&self) -> Vec<u128> {
        let outs: Vec<_> = self.net.nodes.iter().map(|n| n.nics[0].outputs()).collect();
        let mask = |f: &dyn Fn(&crate::router::IntraIn) -> bool| {
            outs.iter()
                .enumerate()
                .fold(0u128, |m, (i, o)| m | (f(o) as u128) << i)
        };
        let mut v = vec![
            mask(&|o| o.wr_hf),
            mask(&|o| o.wr_pay),
            mask(&|o| o.rd_hf),
            mask(&|o| o.rd_pay),
        ];
        v.extend(outs.iter().map(|o| o.wdata));
        v
    }

    fn step(&mut self) {
        self.net.run(1);
    }

    fn probe(&self, _after_edge: bool, v: &mut dyn Visitor) {
        for id in 0..self.net.nodes.len() {
            self.prefix(v, id);
            self.net.probe_node(id, &mut Registers { inner: v });
            for _ in 0..4 {
                v.leave();
            }
        }
    }

    fn rtl_traced(&self) -> bool {
        false
    }

    fn check_reset(&self, rtl: &RtlModel) -> Result<(), String> {
        for (id, node) in self.nodes.iter().enumerate() {
            let mut want = TcRegs::default();
            node.probe(&Default::default(), &mut want);
            for (name, value) in &want.regs {
                let full = format!("TOP.{}.gen_node[{id}].u_node.{name}", self.spec.module());
                let Some(sig) = rtl.find(&full) else {
                    return Err(format!("the Verilated network has no register {full}"));
                };
                let got = rtl.get(sig);
                if got != *value {
                    return Err(format!(
                        "node {id}: {name}: this run configures {value:#x}, the Verilated \
                         network's Target Controller resets to {got:#x} (it is built with the \
                         default link settings, TRED {} and whole-packet credits: \
                         testbench/networks.rs)",
                        networks::TRED
                    ));
                }
            }
        }
        Ok(())
    }

    fn check(&self) -> Result<(), String> {
        Ok(())
    }

    fn stats(&self) -> BTreeMap<String, u64> {
        let s = self.net.merged();
        let mut m = BTreeMap::from([
            ("nodes".into(), self.net.nodes.len() as u64),
            ("packets_injected".into(), s.injected),
            ("packets_delivered".into(), s.delivered),
            ("crc_errors".into(), s.crc_bad),
            ("tred_units".into(), self.tred as u64),
        ]);
        // a program's ranks, and those that have returned from it
        let apps: Vec<_> = self
            .net
            .nodes
            .iter()
            .flat_map(|n| &n.nics)
            .filter_map(|x| x.app())
            .collect();
        if !apps.is_empty() {
            let ranks = apps.iter().flat_map(|a| a.finished());
            let (n, done) = ranks.fold((0, 0), |(n, d), (_, f)| (n + 1, d + f.is_some() as u64));
            m.insert("ranks".into(), n);
            m.insert("ranks_finished".into(), done);
        }
        m
    }

    fn inject_fault(&mut self) {
        self.net.nodes[0].dp.router.ins[0].gate.stat_words ^= 1;
    }

    fn fault_signal(&self) -> String {
        format!(
            "TOP.{}.gen_node[0].u_node.u_router.gen_in[0].u_in.stat_words_q",
            self.spec.module()
        )
    }
}

/// Run the network engine of `cfg` (its traffic) against its Verilated network.
pub fn run_network(cfg: &Config, opts: &Options) -> Result<CosimReport, CosimError> {
    let cfg = prepare(cfg).map_err(CosimError::Setup)?;
    let p = crate::net::setup::plan(&cfg).map_err(CosimError::Setup)?;
    let net = crate::net::setup::build(&cfg, &p, cfg.net.load).map_err(CosimError::Setup)?;
    let mut d = NetDesign::new(&cfg, net).map_err(CosimError::Setup)?;
    lockstep::run_config_on(&mut d, &cfg, opts, lockstep::Simulator::Verilator)
}

/// Run SPMD program `example` (messages of `bytes` bytes, one rank on every node, placed
/// linearly as `app run` places them) on the network engine of `cfg` against its Verilated
/// network. Its packets are the only traffic.
pub fn run_app(
    cfg: &Config,
    example: crate::app::programs::Example,
    bytes: u64,
    opts: &Options,
) -> Result<CosimReport, CosimError> {
    let cfg = prepare(cfg).map_err(CosimError::Setup)?;
    let (spec, _) = networks::of(&cfg).map_err(CosimError::Setup)?;
    let (program, _, min) = example.program(crate::app::programs::Params {
        bytes,
        iterations: 1,
    });
    let ranks = spec.nodes();
    if ranks < min as usize {
        return Err(CosimError::Setup(format!(
            "--app: the program needs at least {min} ranks; {} has {ranks} nodes",
            spec.topology
        )));
    }
    let net = crate::app::run::prepare(&cfg, (0..ranks).collect(), program, 0)
        .map_err(|e| CosimError::Setup(e.to_string()))?;
    let mut d = NetDesign::new(&cfg, net).map_err(CosimError::Setup)?;
    lockstep::run_config_on(&mut d, &cfg, opts, lockstep::Simulator::Verilator)
}
