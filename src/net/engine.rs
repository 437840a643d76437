//! The network-scale engine: builds a network of `NetNode`s from a topology, a routing algorithm
//! and a traffic description, and clocks it.
//!
//! Time advances in windows of `window` cycles, no longer than the PHY lane's latency (the
//! shortest path from one node's registers to another's). Within a window the nodes do not
//! see each other: what a lane presents in the next `window` cycles is already in its delay
//! line (`PhyLane::ahead`). So the engine steps one node through the whole window before the
//! next node, reading its neighbours' beats for the window from their lanes, which keep the
//! beats presented in the last window (`PhyLane::keep_presented`) for a neighbour stepped
//! earlier. A node's state then stays in the cache for the window instead of being fetched
//! again every cycle (a network of 1024 nodes is far larger than the cache).
//!
//! The nodes are split into partitions, contiguous blocks of nodes each keeping its own
//! statistics; they are stepped one after the other. (Stepping them on threads between
//! window boundaries would need the lanes that cross a partition boundary double-buffered: a
//! neighbour stepped on another thread writes its lane while this node reads it.) Every random
//! draw is an endpoint's own generator and statistics are merged order-independently, so the
//! results depend neither on the partitioning nor on the order in which nodes are stepped (the
//! statistics hash is the same for any partitioning and window, and with the cycle-by-cycle
//! order of earlier versions).
//!
//! Idle skipping (`idle_skip`): router slots whose next cycle changes nothing are not evaluated
//! (`Router::step`); the results are identical either way (a test).

use super::adapter::NodeRouting;
use super::nic::Nic;
use super::node::{NetNode, NetPort, NodeEnv, NodeEvents};
use super::observe::NodeObserver;
use super::packet_log::PacketLog;
use super::routing::Routing;
use super::stats::{Stats, Summary, Window};
use super::topology::{PortClass, Topology};
use super::traffic::{Injector, Pattern, SizeDist};
use crate::config::Config;
use crate::link::phy::PhyLane;
use crate::link::tcl_rx::TclRx;
use crate::link::tcl_tx::TclTx;
use crate::link::LinkParams;
use crate::pktfifo::PktFifoParams;
use crate::router::params::{Dir, InterPort, RouterCfg, RouterParams, MAX_INTER, MAX_INTRA};
use crate::router::Router;
use std::sync::Arc;

/// Cycles between two checks of the drain for undelivered window packets.
pub const DRAIN_STEP: u64 = 256;

/// Cycles between two reports to a progress observer before the drain (rounded down to whole
/// partition windows).
pub const PROGRESS_STEP: u64 = 4096;

/// How a run is set up (resolved from the configuration and the command line).
pub struct NetSetup {
    pub topo: Arc<dyn Topology>,
    pub routing: Arc<dyn Routing>,
    pub pattern: Box<dyn Pattern>,
    pub sizes: SizeDist,
    /// One injector per endpoint (None: the endpoint does not generate).
    pub injectors: Vec<Option<Box<dyn Injector>>>,
    /// The ping probe: (source endpoint, sink endpoint, its injector).
    pub probe: Option<(usize, usize, Box<dyn Injector>)>,
    pub seed: u64,
    pub partitions: usize,
    /// Cycles between partition exchanges (1..=PHY latency).
    pub window: u64,
    pub idle_skip: bool,
    /// Check every payload and, when the routing keeps pairs in order, the order.
    pub check: bool,
    /// Credit threshold TRED of every link, credit units (`tred::network_tred`).
    pub tred: u32,
}

pub struct Network {
    pub topo: Arc<dyn Topology>,
    pub routing: Arc<dyn Routing>,
    pattern: Box<dyn Pattern>,
    sizes: SizeDist,
    link: LinkParams,
    pub nodes: Vec<NetNode>,
    /// For every node and port: the neighbour and its port.
    wires: Vec<[Option<(u32, u8)>; MAX_INTER]>,
    parts: Vec<Vec<usize>>,
    window: u64,
    pub cycle: u64,
    /// Per partition.
    pub stats: Vec<Stats>,
    pub measure: Window,
    check_order: bool,
    events: NodeEvents,
    clock_ns: f64,
    idle_skip: bool,
    /// Per node: the first cycle it needs stepping again.
    wake: Vec<u64>,
    /// The per-packet observer, when one is attached (`log_packets`).
    packet_log: Option<PacketLog>,
    /// The register observer, when one is attached (`observe`).
    observer: Option<Box<dyn NodeObserver>>,
}

/// The router of every node of `t`: one intra-tile port per terminal, its inter-tile ports,
/// `vcs` VCs, the configuration's FIFO sizes.
pub fn router_params(cfg: &Config, t: &dyn Topology, vcs: u32) -> RouterParams {
    let inter = (0..t.ports())
        .map(|q| match t.port_class(0, q) {
            PortClass::Dim { dim, plus } => InterPort {
                dim,
                dir: if plus { Dir::Plus } else { Dir::Minus },
            },
            // ports the APErouter's own routing never uses (a network routing function does)
            _ => InterPort {
                dim: 0,
                dir: Dir::Plus,
            },
        })
        .collect();
    let l = &cfg.link;
    let inter_fifo = |hf, pay| PktFifoParams {
        hf_depth: hf,
        pay_depth: pay,
        latency: l.fifo_latency_cycles,
    };
    RouterParams {
        n_intra: t.terminals() as u32,
        intra_rx: ((1u32 << t.terminals()) - 1) as u8,
        inter,
        dims: t.shape().map_or(3, |s| s.size.len() as u32),
        num_vcs: vcs,
        intra_fifo: PktFifoParams {
            hf_depth: cfg.router.intra_hf_fifo_depth_words,
            pay_depth: cfg.router.intra_fifo_depth_words,
            latency: l.fifo_latency_cycles,
        },
        inter_rx_fifo: inter_fifo(l.rx_hf_fifo_depth_words, l.rx_fifo_depth_words),
        inter_tx_fifo: inter_fifo(l.tx_hf_fifo_depth_words, l.tx_fifo_depth_words),
        size_in_words: l.size_in_words,
    }
}

impl Network {
    pub fn new(cfg: &Config, s: NetSetup, measure: Window) -> Result<Network, String> {
        let t = s.topo.clone();
        s.routing.check(t.as_ref())?;
        s.pattern.check(t.as_ref())?;
        if t.ports() > MAX_INTER || t.terminals() > MAX_INTRA {
            return Err(format!(
                "{}: {} inter-tile and {} intra-tile ports a node; the router takes at most {MAX_INTER} and {MAX_INTRA}",
                t.name(),
                t.ports(),
                t.terminals()
            ));
        }
        let vcs = s.routing.vcs();
        if vcs == 0 || vcs > 8 {
            return Err(format!(
                "{}: {vcs} VCs; the link carries 1 to 8",
                s.routing.name()
            ));
        }
        let mut lc = cfg.link.clone();
        lc.num_vcs = vcs;
        lc.credit.tred_words = s.tred;
        let mut c2 = cfg.clone();
        c2.link = lc.clone();
        c2.validate()
            .map_err(|e| format!("{} needs {vcs} VCs on every link: {e}", s.routing.name()))?;
        // (after the check: the network's TRED covers its own longest packet, `tred.rs`)
        lc.credit.whole_packet = cfg.net.whole_packet_credit;
        let link = LinkParams::from_config(&lc);
        if s.window == 0 || s.window > link.phy.latency as u64 {
            return Err(format!(
                "window: {} cycles: must be between 1 and the PHY latency ({} cycles)",
                s.window, link.phy.latency
            ));
        }
        let n = t.nodes();
        let p = router_params(cfg, t.as_ref(), vcs);
        if p.slots() > 64 {
            return Err(format!(
                "{}: a router of {} slots ({} intra-tile ports, {} inter-tile ports x {vcs} VCs); \
                 the router's slot masks hold 64",
                t.name(),
                p.slots(),
                p.n_intra,
                p.inter.len()
            ));
        }
        let mut injectors = s.injectors;
        injectors.resize_with(t.endpoints(), || None);
        let mut probe = s.probe;
        let mut nodes = Vec::with_capacity(n);
        let mut wires = Vec::with_capacity(n);
        let mut inj = injectors.into_iter();
        for id in 0..n {
            let rf = Arc::new(NodeRouting::new(t.clone(), s.routing.clone(), id, &p));
            let mut router = Router::with_routing(p.clone(), rf);
            router.skip_quiet = s.idle_skip;
            for sl in router.ins.iter_mut() {
                sl.fifo.hf.keep_live_words_only();
                sl.fifo.pay.keep_live_words_only();
            }
            for o in router.outs.iter_mut().flatten() {
                o.fifo.hf.keep_live_words_only();
                o.fifo.pay.keep_live_words_only();
            }
            let a = t.addr(id);
            let cfg_r = RouterCfg {
                coord: a,
                size: t.shape().map_or([255; 3], |sh| {
                    let mut z = [1u8; 3];
                    z[..sh.size.len()].copy_from_slice(&sh.size);
                    z
                }),
                torus: t.shape().map_or(0, |sh| if sh.wrap { 0b111 } else { 0 }),
                order: [0, 1, 2],
                intra_en: ((1u32 << t.terminals()) - 1) as u8,
                inter_en: 0,
                arb_fixed: cfg.node.arbiter == crate::config::Arbiter::Fixed,
                usedword: link.cfg.usedword,
                tred: link.cfg.tred,
            };
            let mut w = [None; MAX_INTER];
            let mut ports = Vec::with_capacity(t.ports());
            let mut inter_en = 0u16;
            for (q, wq) in w.iter_mut().enumerate().take(t.ports()) {
                match t.link(id, q) {
                    Some((m, r)) => {
                        *wq = Some((m as u32, r as u8));
                        inter_en |= 1 << q;
                        ports.push(Some(NetPort::new(TclTx::new(&link.tcl), TclRx::new(), {
                            let mut lane = PhyLane::new(link.phy);
                            lane.keep_presented(s.window);
                            lane
                        })));
                    }
                    None => ports.push(None),
                }
            }
            let mut nics = Vec::with_capacity(t.terminals());
            for term in 0..t.terminals() {
                let e = t.endpoint_index(id, term);
                let pr = match &probe {
                    Some((src, _, _)) if *src == e => probe.take().map(|(_, dst, i)| (dst, i)),
                    _ => None,
                };
                nics.push(Nic::new(
                    t.as_ref(),
                    e,
                    s.seed,
                    inj.next().flatten(),
                    pr,
                    s.check,
                ));
            }
            nodes.push(NetNode::new(
                id,
                router,
                RouterCfg { inter_en, ..cfg_r },
                ports,
                nics,
            ));
            wires.push(w);
        }
        // partitions: contiguous blocks of node indices
        let np = s.partitions.clamp(1, n.max(1));
        let mut parts = vec![Vec::new(); np];
        for id in 0..n {
            parts[id * np / n.max(1)].push(id);
        }
        Ok(Network {
            check_order: s.check && s.routing.in_order(),
            topo: t,
            routing: s.routing,
            pattern: s.pattern,
            sizes: s.sizes,
            link,
            nodes,
            wires,
            parts,
            window: s.window,
            cycle: 0,
            stats: vec![Stats::default(); np],
            measure,
            events: NodeEvents::default(),
            clock_ns: cfg.clock().ns(1.0),
            idle_skip: s.idle_skip,
            wake: vec![0; n],
            packet_log: None,
            observer: None,
        })
    }

    /// Attach a packet log: from now on every delivered packet is recorded with the links it
    /// crossed (count only the hops of packets that crossed links after this call: attach it
    /// before running).
    pub fn log_packets(&mut self, log: PacketLog) {
        self.packet_log = Some(log);
    }

    /// Detach the packet log.
    pub fn take_packet_log(&mut self) -> Option<PacketLog> {
        self.packet_log.take()
    }

    /// Attach a register observer (`observe.rs`): from now on it sees every node after every
    /// cycle the node is stepped. Nothing simulated changes.
    pub fn observe(&mut self, o: Box<dyn NodeObserver>) {
        self.observer = Some(o);
    }

    /// Detach the register observer.
    pub fn take_observer(&mut self) -> Option<Box<dyn NodeObserver>> {
        self.observer.take()
    }

    /// The links' parameters and configuration (every link of the network has the same).
    pub fn link_params(&self) -> &LinkParams {
        &self.link
    }

    /// Advance `cycles` cycles (whole windows; the last one may be shorter).
    pub fn run(&mut self, cycles: u64) {
        let end = self.cycle + cycles;
        while self.cycle < end {
            let w = self.window.min(end - self.cycle);
            self.run_window(w);
        }
    }

    fn run_window(&mut self, w: u64) {
        let (t0, t1) = (self.cycle, self.cycle + w);
        let env = NodeEnv {
            topo: self.topo.as_ref(),
            pattern: self.pattern.as_ref(),
            sizes: &self.sizes,
            link: &self.link,
            tcl_cfg: self.link.cfg,
            phy_cfg: self.link.phy_cfg,
            skip: self.idle_skip,
            log_hops: self.packet_log.is_some(),
        };
        // Per port of the node being stepped: the beats its neighbour's lane presents in the
        // window, and the next one not yet taken.
        let mut incoming: [Vec<(u64, u64)>; MAX_INTER] = Default::default();
        for (k, part) in self.parts.iter().enumerate() {
            for &id in part {
                if self.wake[id] >= t1 {
                    continue;
                }
                // Every beat arriving in the window is already in the neighbour's delay line;
                // a neighbour stepped earlier in this window kept it (`keep_presented`).
                let wires = &self.wires[id];
                for (q, wq) in wires.iter().enumerate() {
                    incoming[q].clear();
                    if let Some((m, r)) = *wq {
                        self.nodes[m as usize].beats_out(r as usize, t0, t1, &mut incoming[q]);
                    }
                }
                let mut taken = [0usize; MAX_INTER];
                let mut c = self.wake[id].max(t0);
                while c < t1 {
                    let mut link_in = [(false, 0u64); MAX_INTER];
                    for (q, li) in link_in.iter_mut().enumerate() {
                        if let Some(&(at, d)) = incoming[q].get(taken[q]) {
                            debug_assert!(at >= c, "a node sleeps through no beat");
                            if at == c {
                                *li = (true, d);
                                taken[q] += 1;
                            }
                        }
                    }
                    let mut next = self.nodes[id].step(&env, &link_in, c, &mut self.events);
                    if let Some(o) = self.observer.as_mut() {
                        o.stepped(&self.nodes[id], c);
                    }
                    // and the next beat arriving from a neighbour in the window
                    for (q, inc) in incoming.iter().enumerate() {
                        if let Some(&(at, _)) = inc.get(taken[q]) {
                            next = next.min(at);
                        }
                    }
                    for (q, arrival) in self.events.sent.drain(..) {
                        // (after this window: the neighbour is not stepped again before it)
                        let (m, _) = wires[q].expect("a lane sends on a wired port");
                        let wm = &mut self.wake[m as usize];
                        *wm = (*wm).min(arrival);
                    }
                    if let Some(log) = self.packet_log.as_mut() {
                        for f in self.events.hop_footers.drain(..) {
                            log.hop(self.topo.as_ref(), f);
                        }
                        for a in &self.events.arrived {
                            log.arrive(a, &self.measure);
                        }
                    }
                    let st = &mut self.stats[k];
                    for x in self.events.injected.drain(..) {
                        st.inject(&x, &self.measure);
                    }
                    for a in self.events.arrived.drain(..) {
                        st.arrive(a.dst, &a, &self.measure, self.check_order);
                    }
                    c = next;
                }
                // and the first beat arriving after the window: a neighbour stepped earlier in
                // this window holds those it sent; one stepped later tells (`events.sent`).
                if c > t1 {
                    for wq in wires.iter() {
                        if let Some((m, r)) = *wq {
                            c = c.min(self.nodes[m as usize].next_out(r as usize, t1));
                        }
                    }
                }
                self.wake[id] = c;
            }
        }
        self.cycle = t1;
    }

    /// The statistics of every partition, merged.
    pub fn merged(&self) -> Stats {
        let mut s = Stats::default();
        for p in &self.stats {
            s.merge(p);
        }
        s
    }

    /// Warm-up, measurement window, then drain until every window packet is delivered or
    /// `drain_max` cycles have passed; the summary at `offered` load.
    pub fn run_phases(&mut self, drain_max: u64, offered: f64, bytes_per_cycle: f64) -> Summary {
        self.run_phases_observed(drain_max, offered, bytes_per_cycle, &mut |_| {})
    }

    /// [`Network::run_phases`], telling `at` the cycle reached every [`PROGRESS_STEP`] cycles
    /// or so (a progress line); the run and its summary are the same.
    pub fn run_phases_observed(
        &mut self,
        drain_max: u64,
        offered: f64,
        bytes_per_cycle: f64,
        at: &mut dyn FnMut(u64),
    ) -> Summary {
        let w = self.measure;
        // whole windows at a time, as one `run` of it all would take them
        let step = self.window * (PROGRESS_STEP / self.window).max(1);
        let mut left = w.end.saturating_sub(self.cycle);
        while left > 0 {
            let n = left.min(step);
            self.run(n);
            left -= n;
            at(self.cycle);
        }
        let limit = self.cycle + drain_max;
        loop {
            let m = self.merged();
            if m.delivered_window >= m.injected_window || self.cycle >= limit {
                break;
            }
            // a fixed step, so that where the run stops does not depend on the window
            self.run(DRAIN_STEP);
            at(self.cycle);
        }
        let m = self.merged();
        let mut s = m.summary(
            offered,
            self.topo.endpoints(),
            &w,
            bytes_per_cycle,
            self.clock_ns,
            self.cycle,
        );
        s.fifo_errors = self.fifo_errors();
        s.self_addressed = self
            .nodes
            .iter()
            .flat_map(|n| &n.nics)
            .map(|x| x.self_addressed)
            .sum();
        s
    }

    /// Stop injecting at every endpoint (`Nic::stop_injecting`; returns the packets discarded
    /// from the software queues, which never entered the network). A network that then does not
    /// deliver every packet it holds is deadlocked (Pisani 2016 §2.6.2: stop the injection and
    /// wait for the delivery of all the non-blocked packets).
    pub fn stop_injecting(&mut self) -> usize {
        let mut n = 0;
        for node in &mut self.nodes {
            for nic in &mut node.nics {
                n += nic.stop_injecting();
            }
        }
        n
    }

    /// Router FIFO memory over every node, in 128-bit words: (held now, the configured
    /// depths). A FIFO that keeps only its live words holds at most its depth, so
    /// `16 x (depths - held)` bytes is what the network could still grow by with every FIFO
    /// full (`exanet bench network`).
    pub fn fifo_words(&self) -> (u64, u64) {
        let (mut held, mut depth) = (0u64, 0u64);
        let mut add = |f: &crate::pktfifo::PktFifo| {
            for x in [&f.hf, &f.pay] {
                held += x.words_held() as u64;
                depth += x.params().depth as u64;
            }
        };
        for n in &self.nodes {
            for s in &n.router.ins {
                add(&s.fifo);
            }
            for o in n.router.outs.iter().flatten() {
                add(&o.fifo);
            }
        }
        (held, depth)
    }

    /// Overflows and underflows of every router FIFO so far.
    pub fn fifo_errors(&self) -> u64 {
        let mut e = 0u64;
        for n in &self.nodes {
            for s in &n.router.ins {
                e += s.fifo.errors() as u64;
            }
            for o in n.router.outs.iter().flatten() {
                e += o.fifo.errors() as u64;
            }
        }
        e
    }
}
