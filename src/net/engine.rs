//! The network-scale engine: builds a network of `NetNode`s from a topology, a routing algorithm
//! and a traffic description, and clocks it, on one thread or several.
//!
//! Time advances in windows of `window` cycles, no longer than the PHY lane's latency (the
//! shortest path from one node's registers to another's: the lookahead of SST's and OMNeT++'s
//! parallel engines). Within a window the nodes do not see each other: what a lane presents in
//! the next `window` cycles is already in its delay line (a beat accepted in cycle `c` is
//! presented in `c + latency`). So each node is stepped through the whole window before the
//! next node, its state staying in the cache for the window (a network of 1024 nodes is far
//! larger than the cache), reading the beats its neighbours' lanes present in the window.
//!
//! The nodes are split into partitions, contiguous blocks of nodes each keeping its own
//! statistics, and the partitions into threads, contiguous blocks of partitions. A thread steps
//! its nodes through a window, then waits at the window's barrier: the one synchronisation a
//! window. A neighbour of the same thread is read from its lane directly: one stepped earlier
//! in the window kept the beats it presented (`PhyLane::keep_presented`). A lane that crosses to
//! another thread is double-buffered: at the end of each window its node copies the beats it
//! will present in the next window into an *outbox*, one of two alternating by window parity,
//! so that while one window is stepped the outboxes read are the ones written before it. A
//! thread writes only its own nodes, their outboxes of the next window and its partitions'
//! statistics.
//!
//! Every random draw is an endpoint's own generator and statistics are merged in partition
//! order, each merge order-independent, so the results depend neither on the number of
//! threads, nor on the partitioning, nor on the order in which nodes are stepped (a test holds
//! the statistics hash equal over all of them).
//!
//! A packet log or a register observer (one object seeing every node) runs the partitions one
//! after the other on the calling thread, in node order.
//!
//! Several processes (MPI ranks, `net/dist/`, decisions 0027 and 0029) each build and step only
//! their own nodes (`Network::new_share`, `Network::distribute`), knowing every node's wires: a
//! lane into another process's node is a boundary lane like one into another thread's, and the
//! outboxes of the other processes' nodes are filled once a window by [`Peers::exchange`],
//! between two barriers.
//!
//! Faults (`faults.rs`): a run with a fault schedule is split at every fault event and every
//! pass of the fault manager (`run`), which are applied between windows, when every thread
//! has stopped: the same cycles whatever the window, the threads or the processes.
//!
//! Idle skipping (`idle_skip`): blocks whose next cycle changes nothing are not evaluated
//! (`NetNode::step`), and a node with nothing to do and no beat arriving in a window is not
//! stepped in it; the results are identical either way (a test).

use super::account::{lane_books, link_losses, loss_words, PacketAccount, Raw};
use super::adapter::NodeRouting;
use super::ber_model::{hop_distribution, predict, BerPrediction};
use super::faults::{Action, DownSet, Event, FaultView, Faulty, Split};
use super::hop_times::NodeHops;
use super::nic::Nic;
use super::node::{NetNode, NetPort, NodeEnv, NodeEvents};
use super::observe::NodeObserver;
use super::packet_log::PacketLog;
use super::routing::Routing;
use super::stats::{Stats, Summary, Window};
use super::topology::{PortClass, Topology};
use super::traffic::{Injector, Pattern, SizeDist};
use super::window_books::{book_words, WindowBooks, WindowLosses};
use crate::config::Config;
use crate::link::errors::{BitErrorInjector, ErrorPlan};
use crate::link::LinkParams;
use crate::node::datapath::{DataPath, NodeLink};
use crate::packet::wire::MAGIC;
use crate::pktfifo::PktFifoParams;
use crate::router::params::{Dir, InterPort, RouterCfg, RouterParams, MAX_INTER, MAX_INTRA};
use crate::router::Router;
use std::ops::Range;
use std::sync::{Arc, Barrier, Mutex};

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
    /// Partitions of the nodes (at least `threads`; at most the nodes, fewer are made).
    pub partitions: usize,
    /// Threads stepping the partitions (`resolve_threads`).
    pub threads: usize,
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
    /// The nodes this process holds: node `base + i` is `nodes[i]` (every node, `base` 0,
    /// unless built as a share or `distribute`d).
    pub nodes: Vec<NetNode>,
    base: usize,
    /// For every node and port: the neighbour and its port.
    wires: Vec<[Option<(u32, u8)>; MAX_INTER]>,
    /// Partitions: contiguous ranges of node indices.
    parts: Vec<Range<usize>>,
    /// Threads: contiguous ranges of partitions.
    threads: Vec<Range<usize>>,
    /// The order in which the nodes are stepped in a window: each partition's nodes, in node
    /// order unless `shuffle_visits` changed it.
    visit: Vec<usize>,
    /// Per node, per window parity: the beats its lanes to another thread's nodes present in
    /// that window.
    outbox: Vec<Outbox>,
    /// Per node: its ports whose neighbour another thread (or process) steps (bit q: port q).
    boundary: Vec<u16>,
    /// The nodes this process steps (all of them unless `distribute`d).
    owned: Range<usize>,
    /// The other processes, when the network is spread over several (`distribute`).
    peers: Option<Box<dyn Peers>>,
    window: u64,
    pub cycle: u64,
    /// Per partition.
    pub stats: Vec<Stats>,
    pub measure: Window,
    check_order: bool,
    clock_ns: f64,
    idle_skip: bool,
    /// Per node: the first cycle it needs stepping again, as far as the node knows (a beat
    /// arriving from a neighbour is found in the neighbour's outbox).
    wake: Vec<u64>,
    /// The per-packet observer, when one is attached (`log_packets`).
    packet_log: Option<PacketLog>,
    /// The register observer, when one is attached (`observe`).
    observer: Option<Box<dyn NodeObserver>>,
    /// Windows run so far, and what the threads waited at their barriers.
    pub sync: SyncStats,
    /// What the codes predict at the links' bit-error rate (`ber_model.rs`).
    ber_prediction: BerPrediction,
    /// The run's faults, when it has any (`faults.rs`).
    faults: Option<Box<FaultRun>>,
    /// Cycles without a credit after which a port is marked down (0: no faults).
    detect_cycles: u64,
    /// `net.saturation_margin`.
    saturation_margin: f64,
}

/// A run's faults: the physical events still to come, and the fault manager's state.
struct FaultRun {
    /// Faults planted (scheduled and random).
    planted: usize,
    events: Vec<Event>,
    /// The next event to apply.
    next: usize,
    /// Cycles between the manager's passes, and the cycle of its last.
    period: u64,
    last_poll: Option<u64>,
    /// What the manager knows now.
    view: Arc<FaultView>,
    /// The intervals of the schedule that split the network.
    splits: Vec<Split>,
    /// Times the manager found the ports marked down changed (and recomputed the tables).
    reroutes: u64,
}

/// What the faults of a run did (`Summary::faults`).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FaultSummary {
    /// Faults planted (scheduled and random), and the physical events they made.
    pub planted: usize,
    pub events: usize,
    /// Ports marked down by their credit watchdogs, over the run.
    pub ports_marked_down: u64,
    /// Passes of the fault manager that found the ports marked down changed.
    pub reroutes: u64,
    /// Intervals of the schedule that split the network: the endpoints of one group cannot
    /// reach those of another.
    pub splits: Vec<Split>,
}

/// What the window barriers cost (`exanet bench network`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SyncStats {
    /// Windows run on several threads.
    pub windows: u64,
    /// Seconds the threads spent at the barriers, summed over the threads: the synchronisation
    /// itself and the wait for the slowest thread of each window.
    pub wait_seconds: f64,
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

/// The run-time configuration of node `id`'s router, as its Target Controller would hold it:
/// its coordinates and the lattice (tori wrapped in every dimension), dimension order X, Y, Z,
/// every intra-tile port and every wired inter-tile port enabled, the arbiter and the link's
/// credit mode and TRED.
pub fn router_cfg(cfg: &Config, t: &dyn Topology, id: usize, link: &LinkParams) -> RouterCfg {
    let mut inter_en = 0u16;
    for q in 0..t.ports() {
        if t.link(id, q).is_some() {
            inter_en |= 1 << q;
        }
    }
    RouterCfg {
        coord: t.addr(id),
        size: t.shape().map_or([255; 3], |sh| {
            let mut z = [1u8; 3];
            z[..sh.size.len()].copy_from_slice(&sh.size);
            z
        }),
        torus: t.shape().map_or(0, |sh| if sh.wrap { 0b111 } else { 0 }),
        order: [0, 1, 2],
        intra_en: ((1u32 << t.terminals()) - 1) as u8,
        inter_en,
        arb_fixed: cfg.node.arbiter == crate::config::Arbiter::Fixed,
        usedword: link.cfg.usedword,
        tred: link.cfg.tred,
    }
}

/// What every node's step shares; `(skip, detect_cycles)` as `NodeEnv`'s.
fn node_env<'a>(
    topo: &'a dyn Topology,
    pattern: &'a dyn Pattern,
    sizes: &'a SizeDist,
    link: &'a LinkParams,
    (skip, detect_cycles): (bool, u64),
) -> NodeEnv<'a> {
    NodeEnv {
        topo,
        pattern,
        sizes,
        link,
        tcl_cfg: link.cfg,
        phy_cfg: link.phy_cfg,
        skip,
        detect_cycles,
    }
}

/// The bit errors of the lane node `id` sends on through port `q`: at its `net.link_ber`
/// rate (`bers`) or `link.phy.ber`, seeded from `sim.seed` and the lane (each lane its own
/// sequence, whatever the threads and processes); None at a rate of 0.
fn lane_errors(
    cfg: &Config,
    bers: &std::collections::HashMap<(usize, usize), f64>,
    id: usize,
    q: usize,
) -> Option<Box<BitErrorInjector>> {
    let ber = bers.get(&(id, q)).copied().unwrap_or(cfg.link.phy.ber);
    let lane = (id * MAX_INTER + q) as u64;
    (ber > 0.0).then(|| {
        Box::new(BitErrorInjector::new(ErrorPlan::at_rate(
            ber,
            cfg.sim.seed,
            lane,
        )))
    })
}

impl Network {
    pub fn new(cfg: &Config, s: NetSetup, measure: Window) -> Result<Network, String> {
        let n = s.topo.nodes();
        Network::new_share(cfg, s, measure, 0..n)
    }

    /// [`Network::new`] holding the nodes `share` only (decision 0029): of the others it knows
    /// the wires, and their endpoints' injectors go unused. The others are another process's:
    /// [`Network::distribute`] this share before running.
    pub fn new_share(
        cfg: &Config,
        s: NetSetup,
        measure: Window,
        share: Range<usize>,
    ) -> Result<Network, String> {
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
        if share.is_empty() || share.end > n {
            return Err(format!("nodes {share:?}: not a share of the {n} nodes"));
        }
        // the lanes whose bit-error rate `net.link_ber` sets: (sender node, port) -> rate
        let mut bers = std::collections::HashMap::new();
        for l in &cfg.net.link_ber {
            for lane in super::setup::lanes_between(t.as_ref(), l.a, l.b) {
                bers.insert(lane, l.ber);
            }
        }
        let planted = super::faults::resolve(
            t.as_ref(),
            &cfg.net.faults,
            cfg.net.random_faults,
            cfg.sim.seed,
        )?;
        let faults = (!planted.is_empty()).then(|| {
            let events = super::faults::events(t.as_ref(), &planted);
            Box::new(FaultRun {
                planted: planted.len(),
                splits: super::faults::splits(t.as_ref(), &events),
                events,
                next: 0,
                period: cfg.net.fault_manager_period_cycles,
                last_poll: None,
                view: Arc::new(FaultView::new(t.as_ref(), DownSet::none(n))),
                reroutes: 0,
            })
        });
        let detect_cycles = if faults.is_some() {
            cfg.net.fault_detect_credit_periods as u64 * link.cfg.credit_period as u64
        } else {
            0
        };
        // a run that can lose packets keeps the window's books (`window_books.rs`); every
        // process decides alike, from the configuration
        let lossy = faults.is_some()
            || cfg.link.phy.ber > 0.0
            || cfg.net.link_ber.iter().any(|l| l.ber > 0.0);
        let mut nodes = Vec::with_capacity(share.len());
        let mut wires = Vec::with_capacity(n);
        let mut inj = injectors.into_iter();
        for id in 0..n {
            if !share.contains(&id) {
                // another process's node: its wires only
                let mut w = [None; MAX_INTER];
                for (q, wq) in w.iter_mut().enumerate().take(t.ports()) {
                    *wq = t.link(id, q).map(|(m, r)| (m as u32, r as u8));
                }
                wires.push(w);
                inj.by_ref().take(t.terminals()).for_each(drop);
                continue;
            }
            let rf = Arc::new(NodeRouting::new(t.clone(), s.routing.clone(), id, &p));
            let mut router = Router::with_routing(p.clone(), rf.clone());
            router.set_skip_quiet(s.idle_skip);
            if cfg.net.live_fifo_words {
                for sl in router.ins.iter_mut() {
                    sl.fifo.hf.keep_live_words_only();
                    sl.fifo.pay.keep_live_words_only();
                }
                for o in router.outs.iter_mut().flatten() {
                    o.fifo.hf.keep_live_words_only();
                    o.fifo.pay.keep_live_words_only();
                }
            }
            let cfg_r = router_cfg(cfg, t.as_ref(), id, &link);
            let mut w = [None; MAX_INTER];
            let mut ports = Vec::with_capacity(t.ports());
            for (q, wq) in w.iter_mut().enumerate().take(t.ports()) {
                match t.link(id, q) {
                    Some((m, r)) => {
                        *wq = Some((m as u32, r as u8));
                        ports.push(Some(NetPort::new(lane_errors(cfg, &bers, id, q))));
                        if faults.is_some() {
                            // the watchdog counts from the lanes' start-up: the first credit
                            // comes once the partner's lane is up and its beats have crossed
                            let f = &mut ports
                                .last_mut()
                                .and_then(|p| p.as_mut())
                                .expect("pushed")
                                .fault;
                            f.armed = true;
                            f.last_credit = (link.phy.lane_up_cycles + link.phy.latency) as u64;
                        }
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
            let mut dp = DataPath {
                router,
                links: Vec::with_capacity(t.ports()),
            };
            for p in &ports {
                dp.links.push(p.as_ref().map(|_| {
                    let mut l = NodeLink::reset(&link);
                    l.lane.keep_presented(s.window);
                    l
                }));
            }
            let mut node = NetNode::new(id, dp, cfg_r, ports, nics);
            node.routing = Some(rf);
            if lossy {
                node.books = Some(Box::new(WindowBooks::new(
                    measure,
                    &node.dp.router,
                    link.phy.latency as u64,
                )));
            }
            nodes.push(node);
            wires.push(w);
        }
        let (parts, threads, boundary) = layout(&wires, share.clone(), s.partitions, s.threads)?;
        let np = parts.len();
        // the formula's assumptions: uniform traffic, one rate on every link
        let ber_prediction = if cfg.net.pattern == crate::spec::traffic::PatternSpec::Uniform
            && cfg.net.link_ber.is_empty()
        {
            predict(cfg.link.phy.ber, &s.sizes, &hop_distribution(t.as_ref()))
        } else {
            BerPrediction {
                ber: f64::NAN,
                intact: f64::NAN,
                crc_failed: f64::NAN,
                discarded: f64::NAN,
                mean_hops: f64::NAN,
            }
        };
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
            threads,
            outbox: (0..n).map(|_| Default::default()).collect(),
            boundary,
            visit: (0..n).collect(),
            base: share.start,
            owned: share,
            peers: None,
            window: s.window,
            cycle: 0,
            stats: vec![Stats::default(); np],
            measure,
            clock_ns: cfg.clock().ns(1.0),
            saturation_margin: cfg.net.saturation_margin,
            idle_skip: s.idle_skip,
            wake: vec![0; n],
            packet_log: None,
            observer: None,
            sync: SyncStats::default(),
            ber_prediction,
            faults,
            detect_cycles,
        })
    }

    /// Attach a packet log: from now on every delivered packet is recorded with the links it
    /// crossed and its latency split into routers and links (`hop_times.rs`; counts only the
    /// hops of packets that crossed links after this call, and splits only the latency of
    /// packets injected after it: attach it before running).
    pub fn log_packets(&mut self, log: PacketLog) {
        self.packet_log = Some(log);
        for n in &mut self.nodes {
            n.hops = Some(Box::new(NodeHops::new(&n.dp.router)));
        }
    }

    /// Detach the packet log.
    pub fn take_packet_log(&mut self) -> Option<PacketLog> {
        for n in &mut self.nodes {
            n.hops = None;
        }
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

    /// Step each partition's nodes in a random order from now on (`seed`), instead of node
    /// order, and each node's sub-blocks and router slots in a random order every cycle
    /// (`NetNode::shuffle_sub_blocks`). Nothing simulated may change: a node reads only
    /// registers of the window's start from its neighbours, a sub-block only registers of the
    /// cycle's start from its siblings (a test holds the statistics hash equal).
    pub fn shuffle_visits(&mut self, seed: u64) {
        let mut rng = rand_mt::Mt64::new(seed);
        for n in &mut self.nodes {
            n.shuffle_sub_blocks(rng.next_u64());
        }
        for part in &self.parts {
            crate::block::shuffle(&mut self.visit[part.clone()], &mut rng);
        }
    }

    /// Step only the nodes `owned` from now on, split into `partitions` and `threads` as `new`
    /// splits them all; the other nodes are other processes', whose lanes into `owned` `peers`
    /// brings in once a window (decision 0027), and are no longer held (decision 0029). Before
    /// the first cycle, without a packet log or an observer (they see every node); `owned`
    /// within the nodes held.
    pub fn distribute(
        &mut self,
        owned: Range<usize>,
        partitions: usize,
        threads: usize,
        peers: Box<dyn Peers>,
    ) -> Result<(), String> {
        if self.cycle != 0 || self.packet_log.is_some() || self.observer.is_some() {
            return Err(
                "a network spread over processes starts at cycle 0, without a packet log or a \
                 register observer (they see every node)"
                    .into(),
            );
        }
        let held = self.base..self.base + self.nodes.len();
        if owned.is_empty() || owned.start < held.start || owned.end > held.end {
            return Err(format!(
                "nodes {owned:?}: not a share of the nodes held, {held:?}"
            ));
        }
        let (parts, threads, boundary) = layout(&self.wires, owned.clone(), partitions, threads)?;
        self.nodes.truncate(owned.end - self.base);
        self.nodes.drain(..owned.start - self.base);
        self.nodes.shrink_to_fit();
        self.base = owned.start;
        self.stats = vec![Stats::default(); parts.len()];
        self.parts = parts;
        self.threads = threads;
        self.boundary = boundary;
        self.owned = owned;
        self.peers = Some(peers);
        Ok(())
    }

    /// The nodes this process steps.
    pub fn owned(&self) -> Range<usize> {
        self.owned.clone()
    }

    /// Threads stepping the partitions.
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Partitions of the nodes.
    pub fn partitions(&self) -> usize {
        self.parts.len()
    }

    /// Cycles of a window (the last window of a `run` may be shorter).
    pub fn window(&self) -> u64 {
        self.window
    }

    /// Advance `cycles` cycles (whole windows; the last one may be shorter). With faults, the
    /// run is split at every fault event and every pass of the fault manager, each applied
    /// before the cycle it falls on is stepped (every thread at the same point, so the results
    /// do not depend on the window or the threads).
    pub fn run(&mut self, cycles: u64) {
        let end = self.cycle + cycles;
        if self.faults.is_none() {
            return self.run_plain(cycles);
        }
        while self.cycle < end {
            self.apply_faults();
            let f = self.faults.as_ref().expect("a run with faults");
            let next_event = f.events.get(f.next).map_or(u64::MAX, |e| e.at);
            let next_poll = (self.cycle / f.period + 1) * f.period;
            let until = next_event.min(next_poll).min(end);
            self.run_plain(until - self.cycle);
        }
    }

    /// The fault events of this cycle, and the fault manager's pass when one falls on it.
    fn apply_faults(&mut self) {
        let now = self.cycle;
        let Some(mut f) = self.faults.take() else {
            return;
        };
        while let Some(e) = f.events.get(f.next).filter(|e| e.at <= now).copied() {
            f.next += 1;
            self.apply(e.action);
        }
        if now.is_multiple_of(f.period) && f.last_poll != Some(now) {
            f.last_poll = Some(now);
            self.manage(&mut f);
        }
        self.faults = Some(f);
    }

    /// The node this process holds, if it does.
    fn held_mut(&mut self, id: usize) -> Option<&mut NetNode> {
        id.checked_sub(self.base)
            .and_then(|i| self.nodes.get_mut(i))
            .filter(|_| self.owned.contains(&id))
    }

    /// One physical fault event, on the nodes this process holds.
    fn apply(&mut self, a: Action) {
        let now = self.cycle;
        // a port comes back when neither of its lanes is cut: the watchdog starts again
        let revive = |node: &mut NetNode, q: usize| {
            let Some(p) = node.ports[q].as_mut() else {
                return;
            };
            let f = &mut p.fault;
            if f.cut == 0 && f.in_cut == 0 && f.down {
                f.down = false;
                f.armed = true;
                f.last_credit = now;
                if let Some(r) = &node.routing {
                    r.set_down(q, false);
                }
            }
        };
        match a {
            Action::Cut { node, port } | Action::Heal { node, port } => {
                let cut = matches!(a, Action::Cut { .. });
                let far = self.wires[node][port];
                if let Some(n) = self.held_mut(node) {
                    let (l, p) = n.wired_mut(port).expect("a fault on a wired port");
                    if cut {
                        p.fault.cut += 1;
                        if p.fault.cut == 1 {
                            p.fault.beats_lost += l.lane.cut_from(now);
                        }
                    } else {
                        p.fault.cut -= 1;
                        revive(n, port);
                    }
                }
                if let Some((m, r)) = far {
                    if let Some(n) = self.held_mut(m as usize) {
                        let p = n.ports[r as usize].as_mut().expect("a wired port");
                        if cut {
                            p.fault.in_cut += 1;
                        } else {
                            p.fault.in_cut -= 1;
                            revive(n, r as usize);
                        }
                    }
                }
            }
            Action::NodeDown(x) | Action::NodeUp(x) => {
                let down = matches!(a, Action::NodeDown(_));
                if let Some(n) = self.held_mut(x) {
                    if down {
                        n.dead += 1;
                    } else {
                        n.dead -= 1;
                    }
                    let muted = n.dead > 0;
                    for nic in &mut n.nics {
                        nic.mute(muted);
                    }
                }
            }
        }
        // the nodes whose state changed outside their own step are stepped from now on
        let touched = match a {
            Action::Cut { node, port } | Action::Heal { node, port } => {
                [Some(node), self.wires[node][port].map(|(m, _)| m as usize)]
            }
            Action::NodeDown(x) | Action::NodeUp(x) => [Some(x), None],
        };
        for id in touched.into_iter().flatten() {
            self.wake[id] = self.wake[id].min(now);
        }
    }

    /// The fault manager's pass: the ports marked down over the whole network; when they
    /// changed, the new components and, for a table-based routing, new tables on the links
    /// still live, given to every router.
    fn manage(&mut self, f: &mut FaultRun) {
        let n = self.topo.nodes();
        let mut words = vec![0u64; n];
        for node in &self.nodes[self.owned.start - self.base..self.owned.end - self.base] {
            for (q, p) in node.ports.iter().enumerate() {
                if p.as_ref().is_some_and(|p| p.fault.down) {
                    words[node.id] |= 1 << q;
                }
            }
        }
        if let Some(p) = &self.peers {
            p.sum(&mut words);
        }
        let down = DownSet {
            ports: words.iter().map(|&w| w as u16).collect(),
            dead: vec![false; n],
        };
        if down == f.view.down {
            return;
        }
        f.reroutes += 1;
        let view = Arc::new(FaultView::new(self.topo.as_ref(), down));
        let routing = self
            .routing
            .rebuilt(&Faulty {
                base: self.topo.clone(),
                view: view.clone(),
            })
            .unwrap_or_else(|| self.routing.clone());
        for node in &mut self.nodes {
            if let Some(old) = node.routing.take() {
                let r = Arc::new(old.renewed(routing.clone(), view.clone()));
                node.dp.router.set_routing(r.clone());
                node.routing = Some(r);
            }
        }
        f.view = view;
    }

    /// What the faults did so far (None: the run has none). The counts are this process's.
    pub fn fault_summary(&self) -> Option<FaultSummary> {
        let f = self.faults.as_ref()?;
        Some(FaultSummary {
            planted: f.planted,
            events: f.events.len(),
            ports_marked_down: self
                .nodes
                .iter()
                .flat_map(|n| n.ports.iter().flatten())
                .map(|p| p.fault.downs as u64)
                .sum(),
            reroutes: f.reroutes,
            splits: f.splits.clone(),
        })
    }

    /// What every node's step shares (field by field: `run_plain` borrows the nodes besides).
    fn env(&self) -> NodeEnv<'_> {
        node_env(
            self.topo.as_ref(),
            self.pattern.as_ref(),
            &self.sizes,
            &self.link,
            (self.idle_skip, self.detect_cycles),
        )
    }

    /// Node `id`'s data path under the RTL names of `exanet_node` (`NetNode::probe`), with what
    /// its neighbours' lanes present in this cycle (neighbours this process holds; a port to
    /// another process's node shows nothing arriving).
    pub fn probe_node(&self, id: usize, v: &mut dyn crate::probe::Visitor) {
        let mut link_in = [(false, 0u64); MAX_INTER];
        for (q, w) in self.wires[id].iter().enumerate() {
            let Some((m, r)) = *w else { continue };
            let Some(nb) = (m as usize)
                .checked_sub(self.base)
                .and_then(|k| self.nodes.get(k))
            else {
                continue;
            };
            if let Some(l) = &nb.dp.links[r as usize] {
                // (a lane its sleeping node left behind, as the next step would bring it)
                let mut lane = l.lane.clone();
                lane.catch_up(self.cycle, self.link.phy_cfg);
                link_in[q] = (lane.rx_valid(), lane.rx_data());
            }
        }
        self.nodes[id - self.base].probe(&self.env(), &link_in, self.cycle, v);
    }

    /// Advance `cycles` cycles, no fault event or manager pass falling inside.
    fn run_plain(&mut self, cycles: u64) {
        let end = self.cycle + cycles;
        let mut windows = Vec::new();
        let mut t = self.cycle;
        while t < end {
            let w = self.window.min(end - t);
            windows.push((t, t + w));
            t += w;
        }
        if windows.is_empty() {
            return;
        }
        let ctx = Ctx {
            env: node_env(
                self.topo.as_ref(),
                self.pattern.as_ref(),
                &self.sizes,
                &self.link,
                (self.idle_skip, self.detect_cycles),
            ),
            wires: &self.wires,
            outbox: &self.outbox,
            boundary: &self.boundary,
            peers: self.peers.as_deref(),
            measure: self.measure,
            check_order: self.check_order,
            window: self.window,
            windows: &windows,
        };
        let sequential =
            self.threads.len() == 1 || self.packet_log.is_some() || self.observer.is_some();
        if sequential {
            let mut hooks = Hooks {
                log: self.packet_log.as_mut(),
                observer: self.observer.as_deref_mut(),
            };
            let own = self.owned.clone();
            Worker {
                nodes: &mut self.nodes[own.start - self.base..own.end - self.base],
                first: own.start,
                wake: &mut self.wake[own],
                stats: &mut self.stats,
                parts: &self.parts,
                visit: &self.visit[self.owned.clone()],
                lead: true,
            }
            .run(&ctx, &mut hooks, None);
        } else {
            let barrier = Barrier::new(self.threads.len());
            let mut waited = Vec::with_capacity(self.threads.len());
            let own = self.owned.clone();
            let (mut nodes, mut wake, mut stats) = (
                &mut self.nodes[own.start - self.base..own.end - self.base],
                &mut self.wake[own],
                &mut self.stats[..],
            );
            std::thread::scope(|sc| {
                let mut handles = Vec::with_capacity(self.threads.len());
                for (k, th) in self.threads.iter().enumerate() {
                    let first = self.parts[th.start].start;
                    let count = self.parts[th.end - 1].end - first;
                    let (n, rest) = std::mem::take(&mut nodes).split_at_mut(count);
                    nodes = rest;
                    let (wk, rest) = std::mem::take(&mut wake).split_at_mut(count);
                    wake = rest;
                    let (st, rest) = std::mem::take(&mut stats).split_at_mut(th.len());
                    stats = rest;
                    let w = Worker {
                        nodes: n,
                        first,
                        wake: wk,
                        stats: st,
                        parts: &self.parts[th.clone()],
                        visit: &self.visit[first..first + count],
                        lead: k == 0,
                    };
                    let (ctx, barrier) = (&ctx, &barrier);
                    handles.push(sc.spawn(move || {
                        let mut hooks = Hooks {
                            log: None,
                            observer: None,
                        };
                        w.run(ctx, &mut hooks, Some(barrier))
                    }));
                }
                for h in handles {
                    // a worker that panicked is a bug in the model: pass the panic on
                    waited.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
                }
            });
            self.sync.windows += windows.len() as u64;
            self.sync.wait_seconds += waited.iter().sum::<f64>();
        }
        self.cycle = end;
    }

    /// The statistics of every partition of this process, merged.
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
        self.run_phases_hooked(
            drain_max,
            offered,
            bytes_per_cycle,
            PROGRESS_STEP,
            &mut |n| at(n.cycle),
        )
    }

    /// [`Network::run_phases`], showing `at` the network every `every` cycles or so (rounded
    /// to whole windows) before the drain and every [`DRAIN_STEP`] cycles in it (a report's
    /// snapshots); the run and its summary are the same.
    pub fn run_phases_hooked(
        &mut self,
        drain_max: u64,
        offered: f64,
        bytes_per_cycle: f64,
        every: u64,
        at: &mut dyn FnMut(&Network),
    ) -> Summary {
        let w = self.measure;
        // whole windows at a time, as one `run` of it all would take them
        let step = self.window * (every / self.window).max(1);
        let mut left = w.end.saturating_sub(self.cycle);
        while left > 0 {
            let n = left.min(step);
            self.run(n);
            left -= n;
            at(self);
        }
        let limit = self.cycle + drain_max;
        loop {
            let m = self.merged();
            // every process stops at the same cycle: the counts of them all
            let mut c = [m.delivered_window, m.injected_window];
            let mut books = self.book_words();
            if let Some(p) = &self.peers {
                p.sum(&mut c);
                p.sum(&mut books);
            }
            let lost = WindowLosses::of(&books, &self.wires).total();
            if c[0] + lost >= c[1] || self.cycle >= limit {
                break;
            }
            // a fixed step, so that where the run stops does not depend on the window
            self.run(DRAIN_STEP);
            at(self);
        }
        let mut m = self.merged();
        // this process's counts of what only it steps (the other nodes' are all 0)
        let mut local = [self.fifo_errors(), self.self_addressed()];
        let mut raw = Raw::of(&self.nodes).to_words();
        let mut losses = loss_words(&self.nodes, self.base, self.wires.len());
        let mut books = self.book_words();
        if let Some(p) = &self.peers {
            m = p.merge(m);
            p.sum(&mut local);
            p.sum(&mut raw);
            p.sum(&mut losses);
            p.sum(&mut books);
        }
        let mut s = m.summary(
            offered,
            self.topo.endpoints(),
            &w,
            bytes_per_cycle,
            self.clock_ns,
            self.cycle,
            self.saturation_margin,
        );
        [s.fifo_errors, s.self_addressed] = local;
        s.set_losses(&WindowLosses::of(&books, &self.wires));
        s.accounting = PacketAccount::new(
            m.injected,
            m.delivered,
            m.crc_bad,
            &Raw::from_words(&raw),
            lane_books(&losses, &self.wires),
        );
        s.link_losses = link_losses(&losses, &self.wires);
        s.ber_prediction = self.ber_prediction;
        s.faults = self.fault_summary().map(|mut f| {
            let mut k = [f.ports_marked_down];
            if let Some(p) = &self.peers {
                p.sum(&mut k);
            }
            f.ports_marked_down = k[0];
            f
        });
        s
    }

    /// This process's window books now (`window_books.rs`; empty when the run keeps none).
    fn book_words(&mut self) -> Vec<u64> {
        let n = self.wires.len();
        book_words(&mut self.nodes, self.base, n, self.cycle)
    }

    /// The window's packets lost so far (this process's nodes only; `run_phases` sums the
    /// processes). All 0 in a run that cannot lose packets.
    pub fn window_losses(&mut self) -> WindowLosses {
        WindowLosses::of(&self.book_words(), &self.wires)
    }

    /// Where every packet is now (this process's nodes only; `run_phases` sums the processes).
    pub fn account(&self) -> PacketAccount {
        let m = self.merged();
        let w = loss_words(&self.nodes, self.base, self.wires.len());
        PacketAccount::new(
            m.injected,
            m.delivered,
            m.crc_bad,
            &Raw::of(&self.nodes),
            lane_books(&w, &self.wires),
        )
    }

    /// No packet is anywhere in this process's nodes: every router FIFO is empty, no TCL TX is
    /// sending one and no TCL RX is inside one, no lane carries a MAGIC (a packet's first beat;
    /// credits between packets go without), no NIC is writing or reading one. Credits may
    /// still flow.
    pub fn holds_no_packet(&self) -> bool {
        let mut beats = Vec::new();
        self.nodes.iter().all(|n| {
            let fifos_empty =
                n.dp.router
                    .ins
                    .iter()
                    .map(|s| &s.fifo)
                    .chain(n.dp.router.outs.iter().flatten().map(|o| &o.fifo))
                    .all(|f| f.hf.usedw() == 0 && f.pay.usedw() == 0);
            fifos_empty
                && n.dp.links.iter().flatten().all(|l| {
                    beats.clear();
                    let now = l.lane.now();
                    l.lane.beats_between(now, u64::MAX, &mut beats);
                    let tx = &l.tcl.tx;
                    let sending = tx.pkt || (tx.out_valid && tx.out_data == MAGIC);
                    !sending && !l.tcl.rx.in_packet() && beats.iter().all(|b| b.1 != MAGIC)
                })
                && n.nics.iter().all(|x| x.idle())
        })
    }

    /// Packets the pattern addressed to their own source so far, over every NIC (never sent).
    pub fn self_addressed(&self) -> u64 {
        self.nodes
            .iter()
            .flat_map(|n| &n.nics)
            .map(|x| x.self_addressed)
            .sum()
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
            for s in &n.dp.router.ins {
                add(&s.fifo);
            }
            for o in n.dp.router.outs.iter().flatten() {
                add(&o.fifo);
            }
        }
        (held, depth)
    }

    /// Overflows and underflows of every router FIFO so far.
    pub fn fifo_errors(&self) -> u64 {
        let mut e = 0u64;
        for n in &self.nodes {
            for s in &n.dp.router.ins {
                e += s.fifo.errors() as u64;
            }
            for o in n.dp.router.outs.iter().flatten() {
                e += o.fifo.errors() as u64;
            }
        }
        e
    }
}

/// `n` items in `k` contiguous ranges, as equal as they come.
fn split(n: usize, k: usize) -> Vec<Range<usize>> {
    (0..k).map(|i| i * n / k..(i + 1) * n / k).collect()
}

/// The partitions of the nodes `owned` (at most `partitions`, at most one a node), the threads
/// over them, and every node's boundary ports (to a node another thread, or a node outside
/// `owned`, steps).
#[allow(clippy::type_complexity)]
fn layout(
    wires: &[[Option<(u32, u8)>; MAX_INTER]],
    owned: Range<usize>,
    partitions: usize,
    threads: usize,
) -> Result<(Vec<Range<usize>>, Vec<Range<usize>>, Vec<u16>), String> {
    let n = owned.len();
    let np = partitions.clamp(1, n.max(1));
    if threads == 0 || threads > np {
        return Err(format!(
            "threads: {threads}: must be between 1 and the partitions ({np} for {n} nodes)"
        ));
    }
    let parts: Vec<Range<usize>> = split(n, np)
        .into_iter()
        .map(|r| r.start + owned.start..r.end + owned.start)
        .collect();
    let threads = split(np, threads);
    // nodes outside `owned`: another process's, a thread of their own
    let mut thread_of = vec![usize::MAX; wires.len()];
    for (k, th) in threads.iter().enumerate() {
        thread_of[parts[th.start].start..parts[th.end - 1].end].fill(k);
    }
    let boundary = wires
        .iter()
        .enumerate()
        .map(|(id, w)| {
            w.iter().enumerate().fold(0u16, |b, (q, wq)| match wq {
                Some((m, _)) if thread_of[*m as usize] != thread_of[id] => b | 1 << q,
                _ => b,
            })
        })
        .collect();
    Ok((parts, threads, boundary))
}

/// A beat a node's lane presents: its port, the cycle and the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Beat {
    pub port: u8,
    pub at: u64,
    pub data: u64,
}

/// A node's outboxes, one per window parity: the beats its boundary lanes present in the
/// window.
pub type Outbox = [Mutex<Vec<Beat>>; 2];

/// The other processes of a network spread over several (`Network::distribute`; MPI ranks,
/// `net/dist.rs`). Every process calls each method at the same points of the run, in the same
/// order: they are collective.
pub trait Peers: Send + Sync {
    /// After every thread has filled the outboxes of parity `par` of its nodes: send the beats
    /// of this process's lanes into other processes' nodes, and fill the outboxes (parity
    /// `par`) of the other processes' nodes whose lanes come into this process's.
    fn exchange(&self, outbox: &[Outbox], par: usize);
    /// `x`, summed element by element over every process (every process gets the sums).
    fn sum(&self, x: &mut [u64]);
    /// Every process's statistics merged in process order (every process gets them).
    fn merge(&self, s: Stats) -> Stats;
}

/// What every thread of a `run` reads.
struct Ctx<'a> {
    env: NodeEnv<'a>,
    wires: &'a [[Option<(u32, u8)>; MAX_INTER]],
    outbox: &'a [Outbox],
    boundary: &'a [u16],
    peers: Option<&'a dyn Peers>,
    measure: Window,
    check_order: bool,
    /// The configured window (an outbox holds this many cycles of beats).
    window: u64,
    /// The windows of this run: [t0, t1) each.
    windows: &'a [(u64, u64)],
}

/// The observers that see every node: only on a sequential run.
struct Hooks<'a> {
    log: Option<&'a mut PacketLog>,
    observer: Option<&'a mut (dyn NodeObserver + 'static)>,
}

/// One thread's share of the network: whole partitions, their nodes from `first` on.
struct Worker<'a> {
    nodes: &'a mut [NetNode],
    first: usize,
    wake: &'a mut [u64],
    stats: &'a mut [Stats],
    /// This thread's partitions (node ranges of the whole network).
    parts: &'a [Range<usize>],
    /// This thread's nodes in the order they are stepped, partition by partition.
    visit: &'a [usize],
    /// The first thread: it runs the exchange with the other processes.
    lead: bool,
}

impl Worker<'_> {
    /// Step every window of `ctx.windows`; with a barrier, wait at it after each window and
    /// after filling the outboxes of the first; with other processes, exchange the outboxes
    /// with them there, then wait again. Returns the seconds spent waiting.
    fn run(mut self, ctx: &Ctx, hooks: &mut Hooks, barrier: Option<&Barrier>) -> f64 {
        let mut waited = std::time::Duration::ZERO;
        let mut wait = |b: Option<&Barrier>| {
            if let Some(b) = b {
                let t = std::time::Instant::now();
                b.wait();
                waited += t.elapsed();
            }
        };
        let mut ev = NodeEvents::default();
        // Per port of the node being stepped: the beats its neighbour's lane presents in the
        // window, and the next one not yet taken.
        let mut incoming: [Vec<(u64, u64)>; MAX_INTER] = Default::default();
        let lead = self.lead;
        let mut sync = |par: usize| {
            wait(barrier);
            if let Some(peers) = ctx.peers {
                if lead {
                    peers.exchange(ctx.outbox, par);
                }
                wait(barrier);
            }
        };
        let (t0, _) = ctx.windows[0];
        self.export(ctx, 0, t0);
        sync(0);
        for (k, &(t0, t1)) in ctx.windows.iter().enumerate() {
            for (p, part) in self.parts.iter().enumerate() {
                for &id in &self.visit[part.start - self.first..part.end - self.first] {
                    self.step_node(ctx, hooks, id, p, k & 1, (t0, t1), &mut incoming, &mut ev);
                }
            }
            self.export(ctx, (k + 1) & 1, t1);
            sync((k + 1) & 1);
        }
        waited.as_secs_f64()
    }

    /// Fill the outboxes of parity `par` of this thread's nodes with the beats their lanes to
    /// another thread's nodes present in the window from `t0` on: every one of them is in a
    /// delay line by now.
    fn export(&self, ctx: &Ctx, par: usize, t0: u64) {
        let t1 = t0 + ctx.window;
        let mut beats = Vec::new();
        for (i, node) in self.nodes.iter().enumerate() {
            let b = ctx.boundary[self.first + i];
            if b == 0 {
                continue;
            }
            let mut out = ctx.outbox[self.first + i][par].lock().expect("outbox");
            out.clear();
            for q in (0..node.ports.len()).filter(|q| b >> q & 1 != 0) {
                beats.clear();
                node.beats_out(q, t0, t1, &mut beats);
                out.extend(beats.iter().map(|&(at, data)| Beat {
                    port: q as u8,
                    at,
                    data,
                }));
            }
        }
    }

    /// Step node `id` (of partition `p` of this thread) through the window [t0, t1), reading
    /// its neighbours' outboxes of parity `par`.
    #[allow(clippy::too_many_arguments)]
    fn step_node(
        &mut self,
        ctx: &Ctx,
        hooks: &mut Hooks,
        id: usize,
        p: usize,
        par: usize,
        (t0, t1): (u64, u64),
        incoming: &mut [Vec<(u64, u64)>; MAX_INTER],
        ev: &mut NodeEvents,
    ) {
        let i = id - self.first;
        let wires = &ctx.wires[id];
        let mut first_in = u64::MAX;
        let own = self.first..self.first + self.nodes.len();
        for (q, wq) in wires.iter().enumerate() {
            incoming[q].clear();
            let Some((m, r)) = *wq else { continue };
            let m = m as usize;
            if own.contains(&m) {
                // Every beat arriving in the window is already in the neighbour's delay line; a
                // neighbour stepped earlier in this window kept it (`PhyLane::keep_presented`).
                self.nodes[m - self.first].beats_out(r as usize, t0, t1, &mut incoming[q]);
            } else {
                let out = ctx.outbox[m][par].lock().expect("outbox");
                incoming[q].extend(
                    out.iter()
                        .filter(|b| b.port == r && b.at >= t0 && b.at < t1)
                        .map(|b| (b.at, b.data)),
                );
            }
            if let Some(&(at, _)) = incoming[q].first() {
                first_in = first_in.min(at);
            }
        }
        let mut c = self.wake[i].max(t0).min(first_in);
        if c >= t1 {
            return;
        }
        let node = &mut self.nodes[i];
        let st = &mut self.stats[p];
        let mut taken = [0usize; MAX_INTER];
        // the cycle of the next beat arriving from a neighbour in the window
        let mut next_in = first_in;
        while c < t1 {
            let mut link_in = [(false, 0u64); MAX_INTER];
            debug_assert!(next_in >= c, "a node sleeps through no beat");
            if next_in == c {
                next_in = u64::MAX;
                for (q, li) in link_in.iter_mut().enumerate() {
                    if let Some(&(at, d)) = incoming[q].get(taken[q]) {
                        if at == c {
                            *li = (true, d);
                            taken[q] += 1;
                        }
                    }
                    if let Some(&(at, _)) = incoming[q].get(taken[q]) {
                        next_in = next_in.min(at);
                    }
                }
            }
            let next = node.step(&ctx.env, &link_in, c, ev).min(next_in);
            if let Some(o) = hooks.observer.as_mut() {
                o.stepped(node, c);
            }
            if let Some(log) = hooks.log.as_mut() {
                for s in ev.hop_sent.drain(..) {
                    log.sent(ctx.env.topo, &s);
                }
                for h in ev.hop_in.drain(..) {
                    log.hop(ctx.env.topo, &h);
                }
                for (k, a) in ev.arrived.iter().enumerate() {
                    if node.dead > 0 {
                        // lost at a dead node (below), not delivered: no record
                        log.forget(a);
                    } else {
                        log.arrive(a, ev.ejected.get(k).copied().flatten(), &ctx.measure);
                    }
                }
                ev.ejected.clear();
            }
            for size in ev.generated.drain(..) {
                st.generate(c, size, &ctx.measure);
            }
            for x in ev.injected.drain(..) {
                st.inject(&x, &ctx.measure);
            }
            for a in ev.arrived.drain(..) {
                if node.dead > 0 {
                    // a dead node's host takes nothing: the packet is lost there, counted
                    node.dead_arrivals += 1;
                    if let Some(b) = node.books.as_deref_mut() {
                        b.dead_arrival(&a);
                    }
                } else {
                    st.arrive(a.dst, &a, &ctx.measure, ctx.check_order);
                }
            }
            c = next;
        }
        // a beat arriving after the window is found in the neighbour's outbox then
        self.wake[i] = c;
    }
}
