//! The node as a lockstep [`Design`]: the Rust [`NodeTop`] (node plus neighbour link ends) with
//! its test bench against the Verilated `exanet_node_top`.
//!
//! The test bench plays the processing system on intra-tile ports 0 and 1 (packets of 0..4 KB to
//! random destinations, a few outside the lattice; draining with back-pressure), the neighbours
//! on every inter-tile port (packets into the node, draining what it sends), and the software on
//! the register interface: it rewrites the arbiter mode and the dimension order at run time (now
//! and then with an invalid order, which must be refused), reads status and unknown addresses,
//! writes a read-only register, and runs the self-test on intra-tile port 2 (generator and
//! consumer of that port). Every packet of the processing system and the neighbours is accounted
//! for by one scoreboard.

use super::lockstep::{
    run_config_on, CosimError, CosimReport, Design, Options, Simulator, Stimulus,
};
use super::rtl::RtlTop;
use crate::config::Config;
use crate::counters::DepositSchedule;
use crate::link::account::LinkAccount;
use crate::link::errors::{BitErrorInjector, ErrorPlan};
use crate::link::phy::PhyCfg;
use crate::link::system::EndTbIn;
use crate::link::tcl_rx::TclRx;
use crate::link::tcl_tx::{TclCfg, TclTx};
use crate::node::regs::*;
use crate::node::target::RegReq;
use crate::node::top::GEN_NB;
use crate::node::top::{NodeTop, NodeTopIn};
use crate::node::GEN_LINK;
use crate::pktfifo::PktFifo;
use crate::probe::Visitor;
use crate::router::IntraIn;
use crate::router::GEN_IN;
use crate::stimulus::{
    BackPressure, Consumer, PacketGen, RouteBoard, SizeDist, Source, SourceMode, TrafficSpec,
};
use rand_mt::Mt64;
use std::collections::{BTreeMap, VecDeque};

/// One software action in this many is a sweep of the whole register map.
const SWEEP_ONE_IN: u64 = 24;

/// The intra-tile port the self-test uses (the processing system leaves it alone).
const ST_PORT: u32 = 2;

pub struct NodeDesign {
    pub top: NodeTop,
    /// The Verilated top of the configuration's shape.
    rtl_top: RtlTop,
    ps_src: Vec<Source>,
    ps_con: Vec<Consumer>,
    nb_src: Vec<Source>,
    nb_con: Vec<Consumer>,
    inj_node: Vec<BitErrorInjector>,
    inj_nb: Vec<BitErrorInjector>,
    pub board: RouteBoard,
    rng: Mt64,
    req: RegReq,
    pending: VecDeque<RegReq>,
    wait: u64,
    cycle: u64,
    last: NodeTopIn,
    stats: BTreeMap<String, u64>,
    stimulus: Stimulus,
    /// The configuration's link, for the settings software may give a running link.
    link: crate::config::LinkConfig,
    /// The node's link settings the neighbours last followed.
    node_link: (TclCfg, PhyCfg),
    /// Writes at boot, one a cycle from cycle 0, before anything else the software does.
    boot: VecDeque<RegReq>,
    /// A self-test on a port the test bench writes and reads (constrained stimulus).
    port_test: Option<PortTest>,
    /// The ports self-tests have run on (a bit per port).
    tested_ports: u8,
    /// The configuration the node was built from (its reset values).
    cfg: Config,
    /// The constrained stimulus's resets during traffic (`link_design::next_reset`).
    next_reset: u64,
    reset_rng: Mt64,
    /// The node's counters (links' accounting, drops) before its last reset.
    counters_before: BTreeMap<String, u64>,
    /// Settings no traffic may run under, written while the node is empty (constrained).
    empty_phase: Option<EmptyPhase>,
    /// The deposits into the node's and its neighbours' counters (constrained stimulus,
    /// decision 0044).
    deposits: DepositSchedule,
}

/// The node's analogue of the link's settings-while-empty phase (`link_design::Quiet`), after
/// every other reset: the test bench's sources stay at packet boundaries and its consumers read
/// at full speed while no packet is in the node, its links or its neighbours (for 64 cycles in
/// a row, checked: a node under traffic takes longer to drain than the resets leave it); then
/// software writes, for 400 cycles, what no traffic may run under: the credit flavour and
/// whole-packet check flipped, credit period and interval at their largest or a high bit,
/// TRED up to the capacity less one; then safe settings in the new flavour, and after 600 more
/// cycles the sources send again.
#[derive(Debug, Clone, Copy, PartialEq)]
struct EmptyPhase {
    stage: EmptyStage,
    since: u64,
    /// Consecutive cycles the node has been empty.
    empty_for: u64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum EmptyStage {
    Drain,
    Corners,
    Settle,
}

/// A self-test on port `port`: the test bench's source and consumer on the port hand the
/// port's FIFOs over at packet boundaries (the node's multiplexers give them to the self-test
/// IPs while enabled: rtl/exanet_node.sv), the generator sends, then is disabled, the consumer
/// drains and is disabled at a packet boundary, and the bench takes the port back.
#[derive(Debug, Clone, Copy, PartialEq)]
struct PortTest {
    port: u32,
    phase: PortPhase,
    /// Cycle the phase began.
    since: u64,
    x: u64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum PortPhase {
    /// The bench's source and consumer finish their packets.
    Quiesce,
    /// The generator sends.
    Running,
    /// The generator disabled; the consumer drains.
    Draining,
    /// The consumer disabled; the bench waits for the write to take effect.
    Handback,
}

/// Cycles a port self-test phase waits at most before going on (a source writing a 4 KB packet
/// into a router input that shares a starved link with six others can take this long).
const PORT_TEST_PHASE_MAX: u64 = 20_000;

/// Full scope of the node's router in `exanet_node_top`.
const ROUTER_SCOPE: &str = "TOP.exanet_node_top.u_node.u_router";

/// Cycles after which a self-test still sending is stopped (ST_GEN_EN cleared): a run of any
/// ST_COUNT would otherwise hold the port, and the map writes that wait for it, for the rest of
/// the run.
const SELFTEST_RUN_MAX: u64 = 2_000;

/// The structure `exanet_node_top` is built with: the configuration's defaults. The reset values
/// of the node's Target Controller (coordinates, lattice, torus, dimension order, arbiter, credit
/// and PHY settings) are parameters of the Verilated node too, so they must be the defaults; the
/// neighbours' link settings are inputs of the top and may differ.
pub fn check_structural(cfg: &Config) -> Result<RtlTop, String> {
    let (shape, _, node_top) = super::shapes::of(cfg)?;
    // the node top's links are built at the shape's VCs (its NUM_VCS); the rest of the link's
    // structure is the defaults, as the link top's
    let mut as_link = cfg.clone();
    as_link.link.num_vcs = Config::default().link.num_vcs;
    super::link_design::check_structural(&as_link)?;
    // the shape's place in its lattice: the node top's RST_COORD, RST_LATTICE, RST_TORUS
    let d = super::shapes::apply(&Config::default(), shape);
    let (c, dc) = (&cfg.link.credit, &d.link.credit);
    let (p, dp) = (&cfg.link.phy, &d.link.phy);
    let mut diffs = Vec::new();
    if cfg.node != d.node {
        diffs.push(
            "node (coordinates, lattice, torus: the shape's; dimension order, arbiter: the \
             defaults)",
        );
    }
    if c.flavour != dc.flavour {
        diffs.push("link.credit.flavour");
    }
    if c.period_cycles != dc.period_cycles {
        diffs.push("link.credit.period_cycles");
    }
    if c.max_interval_cycles != dc.max_interval_cycles {
        diffs.push("link.credit.max_interval_cycles");
    }
    if c.tred_words != dc.tred_words {
        diffs.push("link.credit.tred_words");
    }
    if c.after_every_packet != dc.after_every_packet {
        diffs.push("link.credit.after_every_packet");
    }
    if c.whole_packet != dc.whole_packet {
        diffs.push("link.credit.whole_packet");
    }
    if p.gearbox_pause != dp.gearbox_pause {
        diffs.push("link.phy.gearbox_pause");
    }
    if p.clock_compensation != dp.clock_compensation {
        diffs.push("link.phy.clock_compensation");
    }
    if diffs.is_empty() {
        Ok(node_top)
    } else {
        Err(format!(
            "the Verilated node's Target Controller resets to the default run-time settings, \
             so the node co-simulation starts from them (it changes the arbiter mode and the \
             dimension order through the registers; the credit flavours are co-simulated by \
             --design link and --design router); this configuration changes {}",
            diffs.join(", ")
        ))
    }
}

impl NodeDesign {
    pub fn new(cfg: &Config) -> NodeDesign {
        NodeDesign::with_stimulus(cfg, Stimulus::Plain)
    }

    pub fn with_stimulus(cfg: &Config, stimulus: Stimulus) -> NodeDesign {
        let top = NodeTop::new(cfg);
        let rp = top.node.p.router.clone();
        let seed = cfg.sim.seed;
        let lat = cfg.node.lattice;
        // every node of the lattice, ports 0 and 1 (those there are), and one destination
        // outside the lattice
        let mut dests = Vec::new();
        for z in 0..lat[2] {
            for y in 0..lat[1] {
                for x in 0..lat[0] {
                    // (the constrained stimulus also to the self-test consumer's port: packets
                    // it drains from a link, words arriving with gaps)
                    let ports = match stimulus {
                        Stimulus::Plain => rp.n_intra.min(2),
                        Stimulus::Constrained => rp.n_intra,
                    };
                    for port in 0..ports as u8 {
                        dests.push(([x, y, z], port));
                    }
                }
            }
        }
        dests.push(([lat[0], 0, 0], 0));
        let traffic = TrafficSpec::new(
            SizeDist::Uniform { min: 0, max: 4096 },
            rp.num_vcs,
            rp.size_in_words,
        )
        .to(dests);
        let siw = rp.size_in_words;
        let mk_src = |k: u64, active: bool, per_vc: bool| {
            let mut gen = PacketGen::with_base(
                traffic.clone(),
                seed.wrapping_mul(0x9E37_79B9).wrapping_add(k),
                (k + 1) << 24,
            );
            gen.set_corners(stimulus == Stimulus::Constrained);
            let mode = if active {
                SourceMode::Saturate
            } else {
                SourceMode::Idle
            };
            Source::new(gen, mode, per_vc)
        };
        let bp = |k: u64| {
            BackPressure::alternating([0.1, 0.9], 15_000, seed.wrapping_mul(77).wrapping_add(k))
        };
        let nq = rp.inter.len();
        // (at a rate of 0, the constrained stimulus's targeted errors, as the link's: one beat
        // in `TARGETED_ONE_IN` and one header in `HEADER_ONE_IN`)
        let errs = |k: u64| {
            if cfg.link.phy.ber > 0.0 {
                ErrorPlan::Random {
                    ber: cfg.link.phy.ber,
                    seed: seed.wrapping_mul(0x51).wrapping_add(k),
                }
            } else if stimulus == Stimulus::Constrained {
                ErrorPlan::Targeted {
                    one_in: super::link_design::TARGETED_ONE_IN,
                    seed: seed.wrapping_mul(0x51).wrapping_add(k),
                }
            } else {
                ErrorPlan::None
            }
        };
        let node_link = (top.node.tcl_cfg(), top.node.phy_cfg());
        // the constrained software's first write, before any packet
        let boot = if stimulus == Stimulus::Constrained {
            Self::boot_writes(cfg, &node_link.0)
        } else {
            VecDeque::new()
        };
        let mut reset_rng = Mt64::new(seed ^ 0x7e5e7);
        NodeDesign {
            ps_src: (0..rp.n_intra)
                // (the constrained stimulus writes the self-test port too, and hands it to the
                // self-test IPs for a test: `PortTest`)
                .map(|p| {
                    let active = p != ST_PORT || stimulus == Stimulus::Constrained;
                    mk_src(p as u64, active, false)
                })
                .collect(),
            ps_con: (0..rp.n_intra)
                .map(|p| Consumer::new(1, siw, bp(p as u64)))
                .collect(),
            nb_src: (0..nq).map(|q| mk_src(16 + q as u64, true, true)).collect(),
            nb_con: (0..nq)
                .map(|q| Consumer::new(rp.num_vcs, siw, bp(16 + q as u64)))
                .collect(),
            inj_node: (0..nq)
                .map(|q| BitErrorInjector::new(errs(q as u64)))
                .collect(),
            inj_nb: (0..nq)
                .map(|q| BitErrorInjector::new(errs(32 + q as u64)))
                .collect(),
            board: RouteBoard::default(),
            rng: Mt64::new(seed ^ 0x7e9),
            req: RegReq::default(),
            boot,
            pending: VecDeque::new(),
            wait: 600,
            cycle: 0,
            last: NodeTopIn::default(),
            stats: BTreeMap::new(),
            rtl_top: check_structural(cfg).unwrap_or(RtlTop::Node),
            top,
            stimulus,
            link: cfg.link.clone(),
            node_link,
            port_test: None,
            tested_ports: 1 << ST_PORT,
            cfg: cfg.clone(),
            next_reset: super::link_design::next_reset(0, &mut reset_rng),
            reset_rng,
            counters_before: BTreeMap::new(),
            deposits: DepositSchedule::new(seed, super::link_design::DEPOSIT_GAP),
            empty_phase: None,
        }
    }

    /// No packet in the node's FIFOs, its links' or its neighbours', none on a wire, no TCL
    /// inside a packet, every consumer between packets and no self-test generator active.
    fn node_empty(&self) -> bool {
        let n = &self.top.node;
        let r = &n.dp.router;
        let fifo_empty = |f: &PktFifo| f.hf.usedw() == 0 && f.pay.usedw() == 0;
        let slots = r.ins.iter().all(|s| fifo_empty(&s.fifo))
            && r.outs.iter().flatten().all(|o| fifo_empty(&o.fifo));
        let links = (0..self.top.nbs.len()).all(|q| {
            let e = &self.top.nbs[q];
            !n.dp.link(q).tcl.tx.pkt
                && !e.tx.pkt
                && e.tx_fifos.iter().chain(&e.rx_fifos).all(fifo_empty)
        });
        let wires = self
            .link_accounts()
            .iter()
            .all(|(o, i)| o.in_flight == 0 && i.in_flight == 0);
        slots
            && links
            && wires
            && n.gens.iter().all(|g| !g.active)
            && self
                .ps_con
                .iter()
                .chain(&self.nb_con)
                .all(|c| c.at_boundary())
    }

    fn hold_traffic(&mut self, on: bool) {
        for s in self.ps_src.iter_mut().chain(self.nb_src.iter_mut()) {
            s.hold = on;
        }
        for c in self.ps_con.iter_mut().chain(self.nb_con.iter_mut()) {
            if on {
                c.drain_at_full_speed();
            } else {
                c.resume_back_pressure();
            }
        }
    }

    fn end_empty_phase(&mut self) {
        self.hold_traffic(false);
        self.empty_phase = None;
    }

    /// One cycle of an empty phase ([`EmptyPhase`]); its writes go through `pending`.
    fn empty_phase_step(&mut self) {
        let Some(mut e) = self.empty_phase else {
            return;
        };
        let now = self.cycle;
        let w = |addr, wdata| RegReq {
            wr: true,
            addr,
            wdata,
            ..Default::default()
        };
        match e.stage {
            EmptyStage::Drain => {
                e.empty_for = if self.node_empty() {
                    e.empty_for + 1
                } else {
                    0
                };
                if e.empty_for >= 64 {
                    self.count("settings_while_empty");
                    let c = super::link_design::settings_while_empty(
                        self.rng.next_u64(),
                        &self.top.node.tcl_cfg(),
                        self.link.rx_fifo_depth_words,
                    );
                    // (the interval first: a period above the interval is refused)
                    self.pending.extend([
                        w(CREDIT_MAX_INTERVAL, 0xffff),
                        w(CREDIT_PERIOD, c.credit_period),
                        w(CREDIT_MAX_INTERVAL, c.max_interval),
                        w(TRED, c.tred),
                        w(CREDIT_MODE, credit_mode(&c)),
                    ]);
                    e.stage = EmptyStage::Corners;
                    e.since = now;
                } else if now - e.since > PORT_TEST_PHASE_MAX {
                    self.count("empty_phases_abandoned");
                    self.end_empty_phase();
                    return;
                }
            }
            EmptyStage::Corners => {
                if now - e.since > 400 {
                    let now_cfg = self.top.node.tcl_cfg();
                    let (c, phy) = super::link_design::safe_settings(
                        self.rng.next_u64(),
                        &self.link,
                        &now_cfg,
                    );
                    self.pending.extend([
                        w(CREDIT_PERIOD, 8),
                        w(CREDIT_MAX_INTERVAL, c.max_interval),
                        w(CREDIT_PERIOD, c.credit_period),
                        w(TRED, c.tred),
                        w(PHY_CTRL, phy.gearbox_en as u32 | (phy.cc_en as u32) << 1),
                    ]);
                    e.stage = EmptyStage::Settle;
                    e.since = now;
                }
            }
            EmptyStage::Settle => {
                if now - e.since > 600 {
                    self.end_empty_phase();
                    return;
                }
            }
        }
        self.empty_phase = Some(e);
    }

    /// The writes the constrained software makes at boot, from cycle 0 and after every reset,
    /// while the lanes are still coming up (`link.phy.lane_up_cycles`, no credit on any wire
    /// yet): the links' credit flavour and whole-packet check, drawn from the seed (the
    /// software never changes them under traffic: decision 0042, finding 3), then a TRED
    /// within decision 0012's bound for them. The reset TRED (128 units, the thesis's) is
    /// below that bound for traffic of small packets, whose header/footer words cost SCALE
    /// units each, into a consumer that starves: the receive FIFOs' header/footer side would
    /// overflow (finding 5).
    fn boot_writes(cfg: &Config, node_tcl: &TclCfg) -> VecDeque<RegReq> {
        let x = Mt64::new(cfg.sim.seed ^ 0xb007).next_u64();
        let mut now = *node_tcl;
        now.usedword = x & 1 == 1;
        now.whole_pkt = x & 2 == 2;
        let (c, _) = super::link_design::safe_settings(cfg.sim.seed, &cfg.link, &now);
        let w = |addr, wdata| RegReq {
            wr: true,
            addr,
            wdata,
            ..Default::default()
        };
        VecDeque::from([w(CREDIT_MODE, credit_mode(&c)), w(TRED, c.tred)])
    }

    /// The node's counters that its reset clears: every link's packet accounting (both
    /// directions) and the packets it dropped.
    fn counters(&self) -> BTreeMap<String, u64> {
        let lat = self.cfg.link.phy.latency_cycles;
        let links = self
            .link_accounts()
            .iter()
            .fold(LinkAccount::default(), |a, (o, i)| {
                a.add(&o.bounded(lat)).add(&i.bounded(lat))
            });
        let mut s: BTreeMap<String, u64> = links.fields("link_").into_iter().collect();
        // (register DROPS, the gates' counters summed, as the hardware counted them)
        let r = &self.top.node.dp.router;
        let d = &self.deposits.deposits;
        let drops = r.ins.iter().enumerate().map(|(k, slot)| {
            let name = format!("{ROUTER_SCOPE}.{}.u_in.stat_drops_q", GEN_IN[k]);
            slot.gate.stat_drops.wrapping_sub(d.offset(&name))
        });
        s.insert(
            "packets_dropped".into(),
            u64::from(drops.fold(0u32, u32::wrapping_add)),
        );
        s
    }

    /// The test bench's registers as the top's inputs.
    pub fn inputs(&self) -> NodeTopIn {
        let mut i = NodeTopIn::default();
        i.node.reg = self.req;

        for (p, (s, c)) in self.ps_src.iter().zip(&self.ps_con).enumerate() {
            i.node.ps[p] = IntraIn {
                wr_hf: s.wr_hf != 0,
                wr_pay: s.wr_pay != 0,
                wdata: s.wdata,
                rd_hf: c.rd_hf != 0,
                rd_pay: c.rd_pay != 0,
            };
        }
        for q in 0..self.nb_src.len() {
            let (s, c) = (&self.nb_src[q], &self.nb_con[q]);
            i.nb[q] = EndTbIn {
                tx_wr_hf: s.wr_hf,
                tx_wr_pay: s.wr_pay,
                tx_wdata: s.wdata,
                rx_rd_hf: c.rd_hf,
                rx_rd_pay: c.rd_pay,
            };
            i.node.err_mask[q] = self.inj_node[q].mask();
            i.nb_err_mask[q] = self.inj_nb[q].mask();
        }
        i
    }

    fn count(&mut self, k: &str) {
        *self.stats.entry(k.to_string()).or_insert(0) += 1;
    }

    /// The software: the next register access, now and then.
    fn software(&mut self) {
        self.req = RegReq::default();
        if let Some(r) = self.boot.pop_front() {
            self.req = r;
            return;
        }
        if self.empty_phase.is_some() {
            // the phase's writes, one a cycle; nothing else meanwhile
            if let Some(r) = self.pending.pop_front() {
                self.req = r;
                return;
            }
            self.empty_phase_step();
            return;
        }
        let in_test = self.port_test.is_some();
        if in_test {
            // the test's writes first; meanwhile the software goes on with what leaves the
            // port's hand-over alone (no map writes, sweeps or other self-tests)
            if let Some(r) = self.pending.pop_front() {
                self.req = r;
                return;
            }
            self.port_test_step();
            if self.port_test.is_none() || !self.pending.is_empty() {
                return;
            }
        }
        if self.wait > 0 {
            self.wait -= 1;
            return;
        }
        if let Some(r) = self.pending.pop_front() {
            self.req = r;
            self.wait = 1;
            return;
        }
        let constrained = self.stimulus == Stimulus::Constrained;
        // (the constrained software is busier: an access every 10 to 109 cycles)
        self.wait = if constrained {
            10 + self.rng.next_u64() % 100
        } else {
            20 + self.rng.next_u64() % 200
        };
        if constrained && !in_test && self.rng.next_u64().is_multiple_of(SWEEP_ONE_IN) {
            // a sweep of the whole map: every register read, then written (a read-only one
            // answers with an error), then read back
            self.count("map_sweeps");
            let x = self.rng.next_u64();
            let map = self.map();
            let reads = map.iter().map(|&(a, _)| RegReq {
                rd: true,
                addr: a,
                ..Default::default()
            });
            let mut seq: Vec<RegReq> = reads.clone().collect();
            for (k, &(a, name)) in map.iter().enumerate() {
                if name != "ST_CTRL" {
                    if read_only(name) {
                        self.count("read_only_writes");
                    }
                    let v = self.value_for(name, x.rotate_left(k as u32) ^ k as u64);
                    seq.push(RegReq {
                        wr: true,
                        addr: a,
                        wdata: v,
                        ..Default::default()
                    });
                }
            }
            seq.extend(reads);
            self.pending.extend(seq);
            return;
        }
        let w = |addr, wdata| RegReq {
            wr: true,
            addr,
            wdata,
            ..Default::default()
        };
        let rd = |addr| RegReq {
            rd: true,
            addr,
            ..Default::default()
        };
        let dims = self.top.node.p.router.dims;
        let x = self.rng.next_u64();
        self.req = match x % 8 {
            0 => {
                self.count("arbiter_mode_writes");
                w(ARB_MODE, (x >> 8) as u32 & 1)
            }
            1 => {
                // a valid order (the dimensions rotated), or now and then an invalid one
                if (x >> 8).is_multiple_of(4) {
                    self.count("invalid_writes");
                    w(DIM_ORDER, 0)
                } else {
                    self.count("dimension_order_writes");
                    let o = crate::node::target::unpack_order(self.top.node.tc.order);
                    let mut n = o;
                    n[..dims as usize].rotate_left(1);
                    // (the entries beyond DIMS name no dimension: any value, ignored)
                    for e in n.iter_mut().skip(dims as usize) {
                        *e = (x >> 12) as u8 & 3;
                    }
                    w(
                        DIM_ORDER,
                        n[0] as u32 | (n[1] as u32) << 2 | (n[2] as u32) << 4,
                    )
                }
            }
            2 => {
                self.count("unknown_address_reads");
                // (in slot 55's block, which no node has; any of its 16 byte addresses)
                rd(if constrained {
                    0x7F0 | (x >> 16) as u16 & 0xF
                } else {
                    0x7F0
                })
            }
            3 if !constrained || in_test => {
                self.count("read_only_writes");
                w(ID, 0)
            }
            3 if constrained && (x >> 60).is_multiple_of(4) => {
                // software moves the node: a new lattice holding it, then a place in that
                // lattice (the high coordinate bits need both, one write each would rarely
                // meet)
                self.count("node_moves");
                let dims = dims as usize;
                let lattice = lattice_holding(self.top.node.tc.coord, dims, x >> 20);
                let coord = coord_in(lattice, dims, x >> 40);
                self.pending.extend([w(LATTICE, lattice), w(COORD, coord)]);
                RegReq::default()
            }
            3 => {
                // any register of the map, read-only and write-only ones included (a read-only
                // one answers with an error), with a value from the register's corners
                self.count("map_writes");
                let map = self.map();
                let (addr, name) = map[(x >> 8) as usize % map.len()];
                if read_only(name) {
                    self.count("read_only_writes");
                }
                let v = self.value_for(name, x >> 20);
                w(addr, v)
            }
            4 if constrained && in_test => self.status_read(x, constrained),
            4 if constrained => {
                // a self-test on any port, the ports the test bench uses included
                // (a port whose source and consumer are between packets, if one is)
                let ni = self.top.node.p.router.n_intra;
                let first = (x >> 8) as u32 % ni;
                let port = (0..ni)
                    .map(|k| (first + k) % ni)
                    .find(|&p| {
                        self.ps_src[p as usize].at_boundary()
                            && self.ps_con[p as usize].at_boundary()
                    })
                    .unwrap_or(first);
                self.count("selftest_runs");
                self.tested_ports |= 1 << port;
                self.ps_src[port as usize].hold = true;
                self.ps_con[port as usize].paused = true;
                // every port on first (a disabled gate would keep the port's packets from
                // draining)
                self.pending.push_back(w(PORT_EN, self.all_ports()));
                self.port_test = Some(PortTest {
                    port,
                    phase: PortPhase::Quiesce,
                    since: self.cycle,
                    x: x >> 16,
                });
                RegReq::default()
            }
            4 if self.top.node.p.router.n_intra > ST_PORT => {
                self.count("selftest_runs");
                let coord = self.top.node.tc.coord;
                let size = (x >> 8) as u32 % 4097;
                let n = 1 + (x >> 24) as u32 % 8;
                let bit = 1 << ST_PORT;
                // every packet type and VC; the consumer's port, or a port that does not exist
                let size = if constrained {
                    // (a VC beyond the node's now and then: refused)
                    let nv = self.top.node.p.router.num_vcs;
                    let (kind, vc) = ((x >> 40) as u32 % 4, (x >> 42) as u32 % (nv + 1));
                    size | kind << 13 | vc << 15
                } else {
                    size
                };
                self.pending.extend([
                    w(ST_PKT, size),
                    w(ST_DEST, coord & 0xff_ffff | ST_PORT << 24),
                    w(ST_COUNT, n),
                    w(ST_CONS_EN, bit),
                    w(ST_GEN_EN, bit),
                    w(ST_CTRL, 1),
                ]);
                RegReq::default()
            }
            _ => self.status_read(x, constrained),
        };
    }

    /// A read of a status register, a slot's or link's block (now and then one that does not
    /// exist, or unaligned: an error) or, under the constrained stimulus, any register of the map.
    fn status_read(&mut self, x: u64, constrained: bool) -> RegReq {
        let rd = |addr| RegReq {
            rd: true,
            addr,
            ..Default::default()
        };
        self.count("status_reads");
        let slots = self.top.node.p.router.slots();
        let links = self.top.node.p.router.inter.len() as u32;
        // any register of a slot or link block, now and then unaligned (an error)
        let off = |k: u32| ((x >> k) as u16 % 8) * 4 + u16::from((x >> (k + 3)).is_multiple_of(16));
        // the link block is twice a slot block: its offsets from two draws
        let off2 = |k: u32| off(k) + 0x20 * ((x >> (k + 7)) & 1) as u16;
        let choices = [
            DROPS,
            PERF_CYCLES,
            PERF_STATUS,
            ST_CONS_PKTS,
            ST_CONS_WORDS,
            ST_GEN_PKTS,
            IRQ_STATUS,
            CYCLE_LO,
            NUM_PORTS,
            ERR_STATUS,
            ERR_ADDR,
            ERR_COUNT,
            slot_reg((x >> 8) as u32 % slots, off(24)),
            // one slot or link beyond the node's (an error)
            slot_reg((x >> 8) as u32 % (slots + 1), off(32)),
            link_reg((x >> 40) as u32 % links.max(1), off2(48)),
            link_reg((x >> 40) as u32 % (links + 1), off2(56)),
        ];
        if constrained && (x >> 60).is_multiple_of(2) {
            // any register of the map
            let map = self.map();
            rd(map[(x >> 16) as usize % map.len()].0)
        } else {
            rd(choices[(x >> 16) as usize % choices.len()])
        }
    }

    /// PORT_EN with every port of the node on (its reset value: intra-tile ports from bit 0,
    /// links from bit 8).
    fn all_ports(&self) -> u32 {
        let rp = &self.top.node.p.router;
        ((1u32 << rp.n_intra) - 1) | ((1u32 << rp.inter.len()) - 1) << 8
    }

    /// One cycle of a port self-test ([`PortTest`]); the register writes go through `pending`.
    fn port_test_step(&mut self) {
        let Some(mut t) = self.port_test else { return };
        let (p, now) = (t.port as usize, self.cycle);
        let late = now - t.since > PORT_TEST_PHASE_MAX;
        let w = |addr, wdata| RegReq {
            wr: true,
            addr,
            wdata,
            ..Default::default()
        };
        let node = &self.top.node;
        // no header readable or on its way into the port's RX header/footer FIFO
        let hf_empty = node
            .dp
            .router
            .intra_rx(t.port)
            .is_none_or(|f| f.hf.usedw() == 0);
        match t.phase {
            PortPhase::Quiesce => {
                if self.ps_src[p].at_boundary() && self.ps_con[p].at_boundary() {
                    let x = t.x;
                    let coord = node.tc.coord & 0xff_ffff;
                    // to the port itself, to another port, to a neighbour one step along x, or
                    // anywhere (mostly outside the lattice: the router drops them)
                    let (dest, port) = match x % 8 {
                        0 => (coord, (x >> 3) as u32 % 8),
                        1 => ((coord & !0xff) | ((coord + 1) & 0xff), t.port),
                        2 => ((x >> 32) as u32 & 0xff_ffff, t.port),
                        _ => (coord, t.port),
                    };
                    let nv = node.p.router.num_vcs;
                    // (zero-length packets one in four: the consumer's header-to-footer arc;
                    // one in four the largest, ST_PKT_MAX_SIZE, else any size)
                    let size = match (x >> 18) % 8 {
                        0 | 1 => 0,
                        2 | 3 => ST_PKT_MAX_SIZE,
                        _ => (x >> 8) as u32 % (ST_PKT_MAX_SIZE + 1),
                    };
                    let (kind, vc) = ((x >> 20) as u32 % 4, (x >> 22) as u32 % nv);
                    let bit = 1u32 << t.port;
                    self.pending.extend([
                        w(ST_PKT, size | kind << 13 | vc << 15),
                        w(ST_DEST, dest | port << 24),
                        // (a few packets, or one run in eight any count, cut short below)
                        w(
                            ST_COUNT,
                            if (x >> 58).is_multiple_of(8) {
                                x.rotate_left(29) as u32 | 1
                            } else {
                                1 + (x >> 30) as u32 % 4
                            },
                        ),
                        w(ST_CONS_EN, bit),
                        w(ST_GEN_EN, bit),
                        w(ST_CTRL, 1),
                    ]);
                    t.phase = PortPhase::Running;
                    t.since = now;
                } else if late {
                    // the port never came free: give up
                    self.count("selftest_runs_abandoned");
                    t.phase = PortPhase::Handback;
                    t.since = now;
                }
            }
            PortPhase::Running => {
                let active = node.gens[p].active;
                let cut = now - t.since > SELFTEST_RUN_MAX && active;
                if cut {
                    self.count("selftest_runs_cut");
                }
                if (now - t.since > 16 && !active) || cut || late {
                    self.pending.push_back(w(ST_GEN_EN, 0));
                    t.phase = PortPhase::Draining;
                    t.since = now;
                }
            }
            PortPhase::Draining => {
                // the consumer between packets and no header in the port's RX header/footer
                // FIFO (one written now is readable after the FIFO's latency, later than the
                // write disabling the consumer takes effect): the bench's consumer takes over
                // at a packet boundary
                // (and the generator stopped: after ST_GEN_EN cleared it finishes its packet,
                // the port its own until then, decision 0043)
                let gen_done = !node.gens[p].active;
                if gen_done && ((now - t.since > 64 && node.cons[p].plan == 0 && hf_empty) || late)
                {
                    self.pending.push_back(w(ST_CONS_EN, 0));
                    t.phase = PortPhase::Handback;
                    t.since = now;
                }
            }
            PortPhase::Handback => {
                if now - t.since > 4 {
                    self.ps_src[p].hold = false;
                    self.ps_con[p].paused = false;
                    self.port_test = None;
                    return;
                }
            }
        }
        self.port_test = Some(t);
    }

    /// Every register address of this node's map, with the register's name.
    fn map(&self) -> Vec<(u16, &'static str)> {
        let rp = &self.top.node.p.router;
        all_addresses(rp.slots(), rp.inter.len() as u32)
            .into_iter()
            .map(|(r, addr, _)| (addr, r.name))
            .collect()
    }

    /// A value to write into register `name`: mostly one it accepts that keeps the node
    /// passing traffic (its place and lattice, the links' credit and PHY settings, which the
    /// hardware lets software change at run time), sometimes a corner it refuses.
    fn value_for(&self, name: &str, x: u64) -> u32 {
        let tc = &self.top.node.tc;
        let rp = &self.top.node.p.router;
        let dims = rp.dims as usize;
        let r = x >> 4;
        // (the links' settings, and the self-test IPs, which must stay on the self-test port:
        // a generator on a port the processing system writes interleaves their words)
        let link_setting = matches!(
            name,
            "TRED"
                | "CREDIT_MODE"
                | "PHY_CTRL"
                | "CREDIT_PERIOD"
                | "CREDIT_MAX_INTERVAL"
                | "ST_GEN_EN"
                | "ST_CONS_EN"
        );
        if x.is_multiple_of(16) {
            // a corner: all zeros, all ones, one bit (a link setting's only where refused; the
            // credit mode's flavour and whole-packet bits stay: finding 3 of decision 0042)
            return match r % 3 {
                0 if name == "CREDIT_MODE" => tc.credit_mode & 0b101,
                0 => 0,
                _ if link_setting => u32::MAX,
                1 => u32::MAX,
                _ => 1 << ((r >> 2) % 32),
            };
        }
        match name {
            "COORD" => coord_in(tc.lattice, dims, r),
            "LATTICE" => lattice_holding(tc.coord, dims, r),
            "TORUS" => r as u32 & ((1 << dims) - 1),
            "PORT_EN" => {
                // everything on, or (one write in two) one port off
                // (one of the ports that exist, so that a write off is a change)
                let all = self.all_ports();
                if r.is_multiple_of(2) {
                    let ports: Vec<u32> = (0..16).filter(|b| all >> b & 1 == 1).collect();
                    all & !(1 << ports[(r >> 1) as usize % ports.len()])
                } else {
                    all
                }
            }
            "ARB_MODE" => r as u32 & 1,
            // the links' credit and PHY settings, within the envelope that keeps every receive
            // FIFO from overflowing (`link_design::safe_settings`, decision 0042)
            "CREDIT_PERIOD" | "CREDIT_MAX_INTERVAL" | "TRED" | "CREDIT_MODE" | "PHY_CTRL" => {
                let now = self.top.node.tcl_cfg();
                let (c, phy) = super::link_design::safe_settings(r, &self.link, &now);
                match name {
                    "CREDIT_PERIOD" => c.credit_period,
                    "CREDIT_MAX_INTERVAL" => c.max_interval.max(tc.credit_period),
                    "TRED" => c.tred,
                    "CREDIT_MODE" => credit_mode(&c),
                    _ => phy.gearbox_en as u32 | (phy.cc_en as u32) << 1,
                }
            }
            "ERR_STATUS" => r as u32 & 7,
            "ST_GEN_EN" | "ST_CONS_EN" => 0,
            // (mostly a few packets; one write in four any count: the registers' high bits)
            "ST_COUNT" | "ST_EXPECT" if (r >> 40).is_multiple_of(4) => (r >> 8) as u32,
            "ST_COUNT" | "ST_EXPECT" => r as u32 % 6,
            "ST_DEST" => tc.coord & 0xff_ffff | ST_PORT << 24,
            "ST_PKT" => {
                (r as u32 % (ST_PKT_MAX_SIZE + 1))
                    | (((r >> 13) as u32 % 4) << 13)
                    | (((r >> 15) as u32 % 8) << 15)
            }
            _ => r as u32,
        }
    }
}

/// The CREDIT_MODE register's value for link settings `c` (`src/node/regs.rs`; the node's
/// `tcl_cfg` reads it back).
fn credit_mode(c: &TclCfg) -> u32 {
    c.usedword as u32 | (c.after_pkt as u32) << 1 | (c.whole_pkt as u32) << 2
}

/// A COORD value inside `lattice` (a LATTICE value) for a node of `dims` dimensions: anywhere,
/// or (one in two) near the lattice's far corner, where a large lattice's high coordinate bits
/// are.
fn coord_in(lattice: u32, dims: usize, r: u64) -> u32 {
    let mut c = 0;
    for d in 0..dims {
        let side = ((lattice >> (8 * d)) & 0xff).max(1);
        let x = if r.is_multiple_of(2) {
            side - 1 - (r >> (1 + 2 * d)) as u32 % side.min(4)
        } else {
            (r >> (8 + 8 * d)) as u32 % side
        };
        c |= x << (8 * d);
    }
    c
}

/// A LATTICE value holding the node at `coord` (a COORD value) for a node of `dims`
/// dimensions: a lattice just holding it, or (one in two) up to 255 places a side, where every
/// lattice and coordinate bit is.
fn lattice_holding(coord: u32, dims: usize, r: u64) -> u32 {
    let mut l = 0;
    for d in 0..3 {
        let c = (coord >> (8 * d)) & 0xff;
        let side = if d < dims && r.is_multiple_of(2) {
            c + 1 + (r >> (2 + 8 * d)) as u32 % (255 - c).max(1)
        } else if d < dims {
            c + 1 + (r >> (4 * d)) as u32 % 3
        } else {
            1
        };
        l |= side.min(255) << (8 * d);
    }
    l
}

/// Is register `name` read-only (a write answers with an error)?
fn read_only(name: &str) -> bool {
    REGS.iter()
        .any(|r| r.name == name && r.access == Access::Ro)
}

/// A packet of a self-test generator on one of `ports` (a bit per port: the ports self-tests
/// ran on; `src/node/selftest.rs`: its `dst_addr` names the port and the packet, every payload
/// word follows the generator's pattern), delivered to a test-bench consumer: the test sent it
/// to another port or node, or the constrained stimulus changed its destination or the
/// consumer under it. Counted apart, not as a corruption.
fn is_selftest_packet(words: &[u128], ports: u8) -> bool {
    use crate::packet::layout::HDR_DST_ADDR;
    let addr = HDR_DST_ADDR.get(words[0]);
    let (port, n) = ((addr >> 32) as u32, addr as u32);
    port < 8
        && (ports >> port) & 1 == 1
        && words.len() >= 2
        && words[1..words.len() - 1]
            .iter()
            .enumerate()
            .all(|(k, &w)| w == crate::node::selftest::GenCfg::payload(port, n, k as u32))
}

fn names(prefix: &str, n: usize) -> impl Iterator<Item = String> + '_ {
    (0..n).map(move |k| format!("TOP.{prefix}[{k}]"))
}

/// Full names of the inputs of `exanet_node_top` the test bench drives (clock and reset excluded),
/// in the order of [`node_input_values`].
pub fn node_input_names(top: &NodeTop) -> Vec<String> {
    let rp = &top.node.p.router;
    let (ni, nq) = (rp.n_intra as usize, rp.inter.len());
    let mut n: Vec<String> = [
        "reg_wr_i",
        "reg_rd_i",
        "reg_addr_i",
        "reg_wdata_i",
        "ps_wr_hf_i",
        "ps_wr_pay_i",
        "ps_rd_hf_i",
        "ps_rd_pay_i",
        "nb_cfg_credit_period_i",
        "nb_cfg_max_interval_i",
        "nb_cfg_tred_i",
        "nb_cfg_usedword_i",
        "nb_cfg_after_pkt_i",
        "nb_cfg_whole_pkt_i",
        "nb_cfg_gearbox_en_i",
        "nb_cfg_cc_en_i",
    ]
    .iter()
    .map(|s| format!("TOP.{s}"))
    .collect();
    n.extend(names("ps_wdata_i", ni));
    for s in [
        "link_err_mask_i",
        "nb_err_mask_i",
        "nb_tx_wr_hf_i",
        "nb_tx_wr_pay_i",
        "nb_tx_wdata_i",
        "nb_rx_rd_hf_i",
        "nb_rx_rd_pay_i",
    ] {
        n.extend(names(s, nq));
    }
    n
}

/// The values of [`node_input_names`] for the test bench's registers `i`, into `v`.
pub fn node_input_values(top: &NodeTop, i: &NodeTopIn, v: &mut Vec<u128>) {
    let rp = &top.node.p.router;
    let (ni, nq) = (rp.n_intra as usize, rp.inter.len());
    let ps = &i.node.ps;
    let mask = |f: &dyn Fn(usize) -> bool| (0..ni).fold(0u128, |m, k| m | ((f(k) as u128) << k));
    let c = &top.nb_p.cfg;
    let r = &i.node.reg;
    v.clear();
    v.extend([
        r.wr as u128,
        r.rd as u128,
        r.addr as u128,
        r.wdata as u128,
        mask(&|k| ps[k].wr_hf),
        mask(&|k| ps[k].wr_pay),
        mask(&|k| ps[k].rd_hf),
        mask(&|k| ps[k].rd_pay),
        c.credit_period as u128,
        c.max_interval as u128,
        c.tred as u128,
        c.usedword as u128,
        c.after_pkt as u128,
        c.whole_pkt as u128,
        top.nb_p.phy_cfg.gearbox_en as u128,
        top.nb_p.phy_cfg.cc_en as u128,
    ]);
    v.extend((0..ni).map(|k| ps[k].wdata));
    v.extend((0..nq).map(|q| i.node.err_mask[q] as u128));
    v.extend((0..nq).map(|q| i.nb_err_mask[q] as u128));
    v.extend((0..nq).map(|q| i.nb[q].tx_wr_hf as u128));
    v.extend((0..nq).map(|q| i.nb[q].tx_wr_pay as u128));
    v.extend((0..nq).map(|q| i.nb[q].tx_wdata));
    v.extend((0..nq).map(|q| i.nb[q].rx_rd_hf as u128));
    v.extend((0..nq).map(|q| i.nb[q].rx_rd_pay as u128));
}

impl Design for NodeDesign {
    fn top(&self) -> RtlTop {
        self.rtl_top
    }

    fn view_kind(&self) -> Option<super::views::ViewKind> {
        let p = &self.top.node.p.router;
        Some(super::views::ViewKind::Node {
            n_intra: p.n_intra,
            vcs: p.num_vcs,
        })
    }

    /// The neighbours' software keeps each link's two ends alike: a credit or PHY setting
    /// written into the node's Target Controller holds at the neighbours' ends from the cycle
    /// it holds in the node (decision 0042).
    /// (Only a change: until software changes them, the neighbours keep the configuration's
    /// settings, which may differ from the node's reset values.)
    fn between_cycles(&mut self) {
        if self.stimulus == Stimulus::Constrained {
            // the targeted errors' storms, as the link's (`link_design::STORM_PERIOD`, decision 0045), outside
            // the empty phases, which wait for every packet to be accounted for
            let storm = super::link_design::storm_window(self.cycle) && self.empty_phase.is_none();
            for inj in self.inj_node.iter_mut().chain(self.inj_nb.iter_mut()) {
                inj.storm = storm;
            }
            for s in self.ps_src.iter_mut().chain(self.nb_src.iter_mut()) {
                s.gen.small = storm;
            }
            if storm {
                self.count("storm_cycles");
            }
        }
        let now = (self.top.node.tcl_cfg(), self.top.node.phy_cfg());
        if self.stimulus == Stimulus::Constrained && now != self.node_link {
            (self.top.nb_p.cfg, self.top.nb_p.phy_cfg) = now;
            self.node_link = now;
        }
    }

    /// The constrained stimulus resets the node and its neighbours during traffic (as the
    /// link's, every `link_design::RESET_GAP` to twice that cycles). The neighbours' settings
    /// go back to the configuration's, as the node's go back to their reset values; the
    /// software's accesses in progress and a port self-test are cut short (counted:
    /// `register_accesses_cut_by_reset`, `selftest_runs_cut_by_reset`), and it boots again;
    /// the packets sent and not delivered are counted (`packets_outstanding_at_resets`: in
    /// flight, or dropped or discarded before the reset).
    fn reset_now(&mut self) -> bool {
        if self.stimulus != Stimulus::Constrained || self.cycle != self.next_reset {
            return false;
        }
        for (k, v) in self.counters() {
            *self.counters_before.entry(k).or_insert(0) += v;
        }
        self.top.async_reset(&self.cfg);
        self.deposits.reset();
        let nb = crate::link::LinkParams::from_config(&self.cfg.link);
        (self.top.nb_p.cfg, self.top.nb_p.phy_cfg) = (nb.cfg, nb.phy_cfg);
        self.node_link = (self.top.node.tcl_cfg(), self.top.node.phy_cfg());
        let mut outstanding = 0;
        for s in self.ps_src.iter_mut().chain(self.nb_src.iter_mut()) {
            s.reset();
            s.hold = false;
            outstanding += s.forget_sent();
        }
        for c in self.ps_con.iter_mut().chain(self.nb_con.iter_mut()) {
            c.reset();
            c.paused = false;
        }
        *self
            .stats
            .entry("packets_outstanding_at_resets".into())
            .or_insert(0) += outstanding;
        if self.port_test.take().is_some() {
            self.count("selftest_runs_cut_by_reset");
        }
        if self.empty_phase.take().is_some() {
            self.count("empty_phases_cut_by_reset");
            self.hold_traffic(false);
        }
        let cut = self.pending.len() as u64 + u64::from(self.req != RegReq::default());
        *self
            .stats
            .entry("register_accesses_cut_by_reset".into())
            .or_insert(0) += cut;
        self.pending.clear();
        self.req = RegReq::default();
        self.boot = Self::boot_writes(&self.cfg, &self.node_link.0);
        self.count("resets");
        if self.stats["resets"] % 2 == 1 {
            // every other reset, an empty phase from the boot on: the node is empty at once
            // (a node under traffic takes longer to drain than the resets leave it)
            self.count("empty_phases");
            self.hold_traffic(true);
            self.empty_phase = Some(EmptyPhase {
                stage: EmptyStage::Drain,
                since: self.cycle,
                empty_for: 0,
            });
        }
        self.last = self.inputs();
        self.next_reset = super::link_design::next_reset(self.cycle, &mut self.reset_rng);
        true
    }

    /// The constrained stimulus deposits into the node's counters (its Target Controller's,
    /// router's, TCLs' and performance counter's) and its neighbours' TCLs', as the link's
    /// (`LinkDesign::deposits`, decision 0044).
    fn deposits(&mut self) -> Vec<(String, u32)> {
        if self.stimulus != Stimulus::Constrained {
            return Vec::new();
        }
        self.deposits.step(self.cycle, "", &mut self.top)
    }

    fn register_map(&self) -> Option<(u32, u32)> {
        let rp = &self.top.node.p.router;
        Some((rp.slots(), rp.inter.len() as u32))
    }

    fn input_names(&self) -> Vec<String> {
        node_input_names(&self.top)
    }

    fn input_values(&self) -> Vec<u128> {
        let mut v = Vec::new();
        node_input_values(&self.top, &self.inputs(), &mut v);
        v
    }

    fn step(&mut self) {
        let i = self.inputs();
        let c = self.cycle;
        {
            let t = &self.top;
            let r = &t.node.dp.router;
            for (p, s) in self.ps_src.iter_mut().enumerate() {
                s.step(c, &[r.intra_tx(p as u32)]);
            }
            for (p, k) in self.ps_con.iter_mut().enumerate() {
                if let Some(f) = r.intra_rx(p as u32) {
                    if p as u32 != ST_PORT || self.stimulus == Stimulus::Constrained {
                        k.step(c, &[f]);
                    }
                }
            }
            for (q, s) in self.nb_src.iter_mut().enumerate() {
                let f: Vec<&PktFifo> = t.nbs[q].tx_fifos.iter().collect();
                s.step(c, &f);
            }
            for (q, k) in self.nb_con.iter_mut().enumerate() {
                let f: Vec<&PktFifo> = t.nbs[q].rx_fifos.iter().collect();
                k.step(c, &f);
            }
            for q in 0..self.inj_node.len() {
                let tx = &t.node.dp.link(q).tcl.tx;
                self.inj_node[q].commit_beat(
                    tx.out_valid && t.node.dp.link(q).lane.tx_ready(),
                    Some(tx.out_data),
                );
                self.inj_nb[q].commit_beat(
                    t.nbs[q].tx.out_valid && t.nb_lanes[q].tx_ready(),
                    Some(t.nbs[q].tx.out_data),
                );
            }
        }
        let (ack, _, err) = self.top.node.reg_response();
        if ack && err {
            self.count("register_errors");
        }
        self.software();
        self.top.step(&i);
        let mut srcs: Vec<&mut Source> = self
            .ps_src
            .iter_mut()
            .chain(self.nb_src.iter_mut())
            .collect();
        let mut selftest_elsewhere = 0;
        for (which, k) in self
            .ps_con
            .iter_mut()
            .chain(self.nb_con.iter_mut())
            .enumerate()
        {
            while let Some(r) = k.done.pop_front() {
                if is_selftest_packet(&r.words, self.tested_ports) {
                    // a self-test packet whose destination or consumer changed under it
                    selftest_elsewhere += 1;
                    continue;
                }
                let before = self.board.errors.len();
                self.board.check(&mut srcs, r);
                if self.board.errors.len() > before {
                    let e = self.board.errors.pop().expect("just pushed");
                    self.board.errors.push(format!("consumer {which}: {e}"));
                }
            }
        }
        if selftest_elsewhere > 0 {
            *self
                .stats
                .entry("selftest_packets_elsewhere".into())
                .or_insert(0) += selftest_elsewhere;
        }
        self.last = i;
        self.cycle += 1;
    }

    fn probe(&self, after_edge: bool, v: &mut dyn Visitor) {
        let i = if after_edge { self.last } else { self.inputs() };
        self.top.probe(&i, v);
    }

    /// Every cycle: the test bench found nothing inconsistent, and every link's packet
    /// accounting holds in both directions (docs/link.md).
    fn check(&self) -> Result<(), String> {
        if let Some(e) = self.board.errors.first() {
            return Err(e.clone());
        }
        for q in 0..self.top.nbs.len() {
            let (ntx, nrx, btx, brx) = self.counted_tcls(q);
            LinkAccount::of(&ntx, &brx)
                .check(&brx)
                .map_err(|e| format!("link {q}, node to neighbour: {e}"))?;
            LinkAccount::of(&btx, &nrx)
                .check(&nrx)
                .map_err(|e| format!("link {q}, neighbour to node: {e}"))?;
        }
        Ok(())
    }

    fn stats(&self) -> BTreeMap<String, u64> {
        let mut s = self.stats.clone();
        let n = &self.top.node;
        s.insert("packets_delivered".into(), self.board.delivered);
        s.insert("packets_crc_bad".into(), self.board.crc_bad);
        s.insert("packets_silent".into(), self.board.silent);
        // the counters the node's resets clear, with those of before them
        for (k, v) in self.counters() {
            s.insert(
                k.clone(),
                v + self.counters_before.get(&k).copied().unwrap_or(0),
            );
        }
        s.insert(
            "selftest_packets_last_run".into(),
            n.cons.iter().map(|c| c.pkts as u64).sum(),
        );
        s.insert(
            "bits_flipped".into(),
            self.inj_node
                .iter()
                .chain(&self.inj_nb)
                .map(|x| x.bits_flipped)
                .sum(),
        );
        if self.stimulus == Stimulus::Constrained {
            s.insert("counter_deposits".into(), self.deposits.made);
        }
        s
    }

    fn inject_fault(&mut self) {
        self.top.node.tc.err_count ^= 1;
    }

    fn fault_signal(&self) -> String {
        "TOP.exanet_node_top.u_node.u_tc.err_count_q".into()
    }
}

impl NodeDesign {
    /// Packet accounting of every link, (node to neighbour, neighbour to node).
    pub fn link_accounts(&self) -> Vec<(LinkAccount, LinkAccount)> {
        (0..self.top.nbs.len())
            .map(|q| {
                let (ntx, nrx, btx, brx) = self.counted_tcls(q);
                (LinkAccount::of(&ntx, &brx), LinkAccount::of(&btx, &nrx))
            })
            .collect()
    }

    /// Link `q`'s TCL halves as the hardware counted (the deposits' offsets taken off,
    /// `Deposits::counted`): the node's TX and RX, the neighbour's TX and RX.
    fn counted_tcls(&self, q: usize) -> (TclTx, TclRx, TclTx, TclRx) {
        let (n, nb, d) = (
            &self.top.node.dp.link(q).tcl,
            &self.top.nbs[q],
            &self.deposits.deposits,
        );
        let (node, end) = (
            format!("TOP.exanet_node_top.u_node.{}.u_tcl", GEN_LINK[q]),
            format!("TOP.exanet_node_top.{}.u_end.u_tcl", GEN_NB[q]),
        );
        (
            d.counted(&format!("{node}.u_tx"), &n.tx),
            d.counted(&format!("{node}.u_rx"), &n.rx),
            d.counted(&format!("{end}.u_tx"), &nb.tx),
            d.counted(&format!("{end}.u_rx"), &nb.rx),
        )
    }
}

/// Run the node against its RTL on `sim`: in lockstep under Verilator.
pub fn run_node(cfg: &Config, opts: &Options, sim: Simulator) -> Result<CosimReport, CosimError> {
    check_structural(cfg).map_err(CosimError::Setup)?;
    super::router_design::check_simulator(cfg, sim).map_err(CosimError::Setup)?;
    run_config_on(
        &mut NodeDesign::with_stimulus(cfg, opts.stimulus),
        cfg,
        opts,
        sim,
    )
}
