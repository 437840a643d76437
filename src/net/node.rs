//! A node of a network-scale run: the co-simulated node's data path (`crate::node::datapath`:
//! the APErouter, and per inter-tile port the link `gen_link[q]`, its TCL and its outgoing PHY
//! lane), the same struct with the same wiring, with one NIC (`nic.rs`) per intra-tile port
//! instead of the processing system. The Target Controller and the self-test IPs are not
//! instantiated: their registers hold the configuration, which a network run fixes at
//! construction. What this file adds is the network's: the NICs, which sub-blocks step in a
//! cycle (idle skipping), faults, and the order of the visits.
//!
//! Cycle contract: `step` is one clock cycle. Every sub-block's inputs are values taken from the
//! registers of this cycle (the router's FIFOs, the TCLs' strobes, the neighbours' lanes, read by
//! the caller into `link_in`) before any sub-block steps; then each steps in place, so the order
//! in which they are visited does not matter, as in `Node::step_in_order`
//! (`shuffle_sub_blocks` draws a random order every cycle, and a test holds the statistics hash
//! equal).
//!
//! Idle skipping (`skip`): a block whose next cycle would change nothing is not evaluated:
//! a router slot that is quiet (`Router::step`); a TCL RX with no beat in or out and no credit
//! update; a TCL TX whose only change would be its credit age (brought up to date when it
//! is next evaluated): between packets with no header waiting, no credit due or arriving and no
//! beat on its output, or holding a beat its lane does not take (TX ready low: before lane up,
//! in a gearbox or clock-compensation pause) with no pop under way and no credit arriving; a
//! lane that accepts nothing (nothing offered, or TX ready low: `PhyLane::catch_up`); a NIC with
//! nothing to write or read whose injector is not due. `step` then says from which cycle on the
//! node needs evaluating again (`wake`): the next cycle while anything is under way, else the
//! first credit due, injection due or lane ready for a held beat; a beat arriving from a
//! neighbour wakes it too (the engine finds it in the neighbour's outbox). The results are the
//! same with and without skipping (a test holds the statistics hash equal).
//!
//! Faults (`faults.rs`, only in a run with a fault schedule): each port's credit watchdog
//! marks it down after `NodeEnv::detect_cycles` without a credit (the node wakes for that
//! cycle); a port marked down or whose lane is cut launches no beat (counted lost), its TX is
//! shown empty partner buffers so it drains its FIFOs into the link, and its RX is fed PAD
//! beats to end the packet it was in. A port marked down keeps its node awake.

use super::adapter::NodeRouting;
use super::faults::PAD;
use super::hop_times::{HopIn, HopSent, NodeHops};
use super::nic::{Arrival, Injection, Nic, NicFifoIn};
use super::topology::Topology;
use super::traffic::{Pattern, SizeDist};
use super::window_books::WindowBooks;
use crate::block;
use crate::link::errors::BitErrorInjector;
use crate::link::phy::{PhyCfg, PhyIn};
use crate::link::tcl_rx::{TclRx, TclRxIn, M_FTR, M_HDR, M_PAY};
use crate::link::tcl_tx::{TclCfg, TclTx, TclTxIn, TxIn, AGE_MAX};
use crate::link::LinkParams;
use crate::node::datapath::{rx_in, DataPath, Heads, NodeLink};
use crate::probe::Visitor;
use crate::router::params::{RouterCfg, MAX_INTER, MAX_INTRA};
use crate::router::RouterIn;
use std::sync::Arc;

/// What the network adds to a wired inter-tile port's link (`NodeLink`, in `NetNode::dp`): the
/// bit errors its outgoing lane's beats take (the test bench's injector, as in the link and
/// node runs; None for an error-free lane), its faults, and how far its TCL TX was brought.
#[derive(Debug, Clone)]
pub struct NetPort {
    /// (boxed: an injector holds its Mersenne Twister's 2.5 KB, which an error-free lane
    /// should not carry)
    pub errs: Option<Box<BitErrorInjector>>,
    /// Whether the port works (`faults.rs`).
    pub fault: FaultState,
    /// The TX's registers are those of this cycle; it was left alone since (idle).
    tx_seen: u64,
}

/// A port under faults (`faults.rs`): its outgoing lane cut, the credit watchdog, the port
/// marked down.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FaultState {
    /// Faults cutting the outgoing lane now (it delivers nothing while any does).
    pub cut: u8,
    /// Faults cutting the incoming lane now.
    pub in_cut: u8,
    /// The port is marked down: the partner sent no credit for the detection time. It
    /// launches no beat, its TX empties its FIFOs into the link, its RX ends its packet.
    pub down: bool,
    /// The watchdog runs (from the lanes' start-up, and again from a recovery).
    pub armed: bool,
    /// The cycle in which the last credit was seen (at first, when the first one is due).
    pub last_credit: u64,
    /// Times the port was marked down.
    pub downs: u32,
    /// Beats the lane lost: in it when it was cut, or given to it while cut or down.
    pub beats_lost: u64,
}

impl FaultState {
    /// The port sends nothing its partner will see.
    pub fn silent(&self) -> bool {
        self.cut > 0 || self.down
    }
}

impl NetPort {
    pub fn new(errs: Option<Box<BitErrorInjector>>) -> NetPort {
        NetPort {
            errs,
            fault: FaultState::default(),
            tx_seen: 0,
        }
    }
}

/// What the run shares with every node.
pub struct NodeEnv<'a> {
    pub topo: &'a dyn Topology,
    pub pattern: &'a dyn Pattern,
    pub sizes: &'a SizeDist,
    pub link: &'a LinkParams,
    pub tcl_cfg: TclCfg,
    pub phy_cfg: PhyCfg,
    pub skip: bool,
    /// Cycles without a credit after which a port is marked down (`faults.rs`); 0: the run
    /// has no faults, and no watchdog runs.
    pub detect_cycles: u64,
}

pub struct NetNode {
    pub id: usize,
    /// Faults holding the node down now (`faults.rs`): its NICs inject nothing, and packets
    /// reaching them are counted in `dead_arrivals`, not delivered.
    pub dead: u8,
    pub dead_arrivals: u64,
    /// The routing adapter of the router, when a network routing drives it: the ports marked
    /// down are told to it.
    pub routing: Option<Arc<NodeRouting>>,
    /// The router and the links (`None`: a port the topology leaves unwired).
    pub dp: DataPath,
    /// What the network adds to each wired port (None where `dp` has no link).
    pub ports: Vec<Option<NetPort>>,
    pub nics: Vec<Nic>,
    /// A router slot was not quiet after the last step.
    router_busy: bool,
    /// The router's inputs (with its configuration, fixed), rebuilt in place every cycle the
    /// router steps: only the ports the node has are written (the router reads no others), so
    /// the rest of these 1.3 KB is not cleared every cycle.
    ri: RouterIn,
    /// Step the sub-blocks in a seeded random order every cycle (`shuffle_sub_blocks`; tests).
    shuffle: Option<Box<rand_mt::Mt64>>,
    /// Where the measurement window's packets went (`window_books.rs`): kept in runs that can
    /// lose packets.
    pub books: Option<Box<WindowBooks>>,
    /// The cycles of the headers in the node's FIFOs (`hop_times.rs`): kept while a packet log
    /// is attached, which then hears of every hop (`NodeEvents::hop_in`, `hop_sent`).
    pub hops: Option<Box<NodeHops>>,
}

/// A sub-block of a network node, in the visiting order of `NetNode::step`.
#[derive(Debug, Clone, Copy)]
enum Sub {
    Nic(usize),
    Tx(usize),
    Rx(usize),
    Lane(usize),
    Router,
}

/// Every sub-block's inputs, taken before any steps (when the visiting order is shuffled).
struct Inputs {
    nic: Vec<NicFifoIn>,
    /// None for a TX that does not step this cycle.
    tx: Vec<Option<TxIn>>,
    lane: Vec<Option<PhyIn>>,
}

/// Which sub-blocks work this cycle (from the registers of this cycle).
struct On {
    nic: [bool; MAX_INTRA],
    tx: [bool; MAX_INTER],
    rx: [bool; MAX_INTER],
    router: bool,
}

/// What port `q`'s outgoing lane takes this cycle: its TCL TX's output, and the bit errors
/// of the next beat it accepts.
#[inline(always)]
fn lane_input(dp: &DataPath, q: usize, port: &NetPort, env: &NodeEnv) -> PhyIn {
    dp.lane_in(q, env.phy_cfg, port.errs.as_ref().map_or(0, |e| e.mask()))
}

/// The most sub-blocks a node has: its NICs, a TCL TX, a TCL RX and a lane per inter-tile
/// port, the router.
const MAX_SUBS: usize = MAX_INTRA + 3 * MAX_INTER + 1;

/// What happened at a node in a cycle.
#[derive(Debug, Default)]
pub struct NodeEvents {
    /// Packets the NICs' software made (payload bytes), in this cycle.
    pub generated: Vec<u32>,
    pub injected: Vec<Injection>,
    pub arrived: Vec<Arrival>,
    /// Footers the TCL RXs wrote into the router this cycle: one packet crossed one link into
    /// this node (only with `NetNode::hops`).
    pub hop_in: Vec<HopIn>,
    /// Footers the TCL TXs sent this cycle (only with `NetNode::hops`).
    pub hop_sent: Vec<HopSent>,
    /// Per packet in `arrived`, in order: the cycle its header was written into the
    /// intra-tile RX FIFO (only with `NetNode::hops`).
    pub ejected: Vec<Option<u64>>,
}

/// The router's inputs from the registers of this cycle: the NICs' strobes and words on the
/// intra-tile ports, the TCLs on the wired inter-tile ports (`DataPath::router_in`).
#[inline(always)]
fn router_inputs(nics: &[Nic], dp: &DataPath, ri: &mut RouterIn) {
    dp.router_in(|t| nics[t].outputs(), ri);
}

/// A TCL RX that would not change: no beat in or out, no credit update.
fn rx_idle(r: &TclRx, beat_in: bool) -> bool {
    !beat_in && !r.in_valid && !r.wr_valid && !r.cred_upd_valid && r.in_data == 0
}

/// A TCL TX whose next cycle would only age its credit, nothing being popped and no credit
/// arriving: holding a beat on its output that its lane does not take (`lane_ready` low; it
/// loads nothing then), or between packets with nothing on its output, no credit under way,
/// owed or due and no header waiting.
fn tx_idle(
    t: &TclTx,
    cfg: &TclCfg,
    header_waiting: bool,
    credit_in: bool,
    lane_ready: bool,
) -> bool {
    if t.out_valid {
        return !lane_ready && t.hf_rd == 0 && t.pay_rd == 0 && !credit_in;
    }
    t.hf_rd == 0
        && t.pay_rd == 0
        && t.cred_beat == 0
        && !t.cred_magic
        && !t.start
        && !t.pkt
        && !t.cred_owed
        && t.credit_age < cfg.credit_period
        && t.credit_age < AGE_MAX
        && !header_waiting
        && !credit_in
}

impl NetNode {
    /// `dp.links[q]` and `ports[q]` are both Some for a wired port, both None for another.
    pub fn new(
        id: usize,
        dp: DataPath,
        cfg: RouterCfg,
        ports: Vec<Option<NetPort>>,
        nics: Vec<Nic>,
    ) -> NetNode {
        assert!(
            (dp.links.iter().map(Option::is_some)).eq(ports.iter().map(Option::is_some)),
            "a network port per wired link"
        );
        NetNode {
            id,
            dead: 0,
            dead_arrivals: 0,
            routing: None,
            dp,
            ports,
            nics,
            router_busy: true,
            ri: RouterIn {
                cfg,
                ..Default::default()
            },
            shuffle: None,
            books: None,
            hops: None,
        }
    }

    /// Every wired port: its number, its link and what the network adds to it.
    pub fn wired(&self) -> impl Iterator<Item = (usize, &NodeLink, &NetPort)> {
        (self.dp.links.iter().zip(&self.ports).enumerate())
            .filter_map(|(q, (l, p))| Some((q, l.as_ref()?, p.as_ref()?)))
    }

    /// Port `q`'s link and what the network adds to it, to change (None: an unwired port).
    pub fn wired_mut(&mut self, q: usize) -> Option<(&mut NodeLink, &mut NetPort)> {
        Some((self.dp.links[q].as_mut()?, self.ports[q].as_mut()?))
    }

    /// Step the sub-blocks (NICs, TCLs, lanes, the router) in a random order drawn every cycle
    /// from `seed`, and the router's slots too (`Router::shuffle_visits`). Nothing simulated may
    /// change (a test holds the statistics hash equal).
    pub fn shuffle_sub_blocks(&mut self, seed: u64) {
        self.shuffle = Some(Box::new(rand_mt::Mt64::new(seed)));
        self.dp.router.shuffle_visits(seed ^ 0x005e_ed0f_5107);
    }

    /// Append the beats port `q`'s outgoing lane presents in cycles `[t0, t1)` to `out`
    /// (`PhyLane::beats_between`).
    pub fn beats_out(&self, q: usize, t0: u64, t1: u64, out: &mut Vec<(u64, u64)>) {
        if let Some(l) = &self.dp.links[q] {
            l.lane.beats_between(t0, t1, out);
        }
    }

    /// A header at the head of one of port `q`'s TX FIFOs (as the TCL TX sees it).
    fn header_waiting(&self, q: usize) -> bool {
        self.dp.router.inter_tx_header_waiting(q as u32)
    }

    /// One clock cycle. `link_in[q]`: what the neighbour's lane delivers on port `q`. Returns
    /// the first cycle from which the node needs `step` again: the next one without `env.skip`.
    pub fn step(
        &mut self,
        env: &NodeEnv,
        link_in: &[(bool, u64); MAX_INTER],
        cycle: u64,
        ev: &mut NodeEvents,
    ) -> u64 {
        let skip = env.skip;
        let ni = self.dp.router.p.n_intra as usize;
        // ---- the state left alone while idle, brought to this cycle ----
        for (l, port) in self.dp.links.iter_mut().zip(self.ports.iter_mut()) {
            let (Some(l), Some(port)) = (l, port) else {
                continue;
            };
            if port.tx_seen < cycle {
                l.tcl.tx.idle_cycles(cycle - port.tx_seen);
                port.tx_seen = cycle;
            }
            l.lane.catch_up(cycle, env.phy_cfg);
        }
        // ---- faults: the credit watchdogs, and the beats a port marked down feeds its RX ----
        let mut padded;
        let link_in = if env.detect_cycles > 0 {
            padded = *link_in;
            self.watch(env, cycle, &mut padded);
            &padded
        } else {
            link_in
        };
        // ---- which blocks work this cycle (from the registers of this cycle) ----
        // (each TX's `tx_ready` input: its lane's register, brought to this cycle above)
        let mut ready = [false; MAX_INTER];
        for (q, l) in self.dp.links.iter().enumerate() {
            if let Some(l) = l {
                ready[q] = l.lane.tx_ready();
            }
        }
        let mut tx_on = [false; MAX_INTER];
        let mut rx_on = [false; MAX_INTER];
        let mut router_on = !skip || self.router_busy;
        for (q, (l, port)) in self.dp.links.iter().zip(&self.ports).enumerate() {
            let (Some(l), Some(port)) = (l, port) else {
                continue;
            };
            let (tx, rx) = (&l.tcl.tx, &l.tcl.rx);
            rx_on[q] = !skip || !rx_idle(rx, link_in[q].0);
            tx_on[q] = !skip
                || !tx_idle(
                    tx,
                    &env.tcl_cfg,
                    self.header_waiting(q),
                    rx.cred_upd_valid || port.fault.down,
                    ready[q],
                );
            router_on |= rx.wr_valid || tx.hf_rd != 0 || tx.pay_rd != 0;
        }
        let mut nic_on = [false; MAX_INTRA];
        for (t, n) in self.nics.iter().enumerate() {
            nic_on[t] = !skip || !self.nic_idle(t) || n.due(cycle) <= cycle;
            router_on |= n.wr_hf || n.wr_pay || n.rd_hf || n.rd_pay;
        }
        // ---- the router's inputs ----
        if router_on {
            router_inputs(&self.nics, &self.dp, &mut self.ri);
        }
        // ---- then every sub-block steps in place, in the visiting order ----
        // Each reads values of this cycle's registers: when the order is shuffled, all of them
        // are taken before the first sub-block steps (`Inputs`); in the default order each is
        // taken just before its reader steps, which is the same because every sibling it reads
        // steps later (NICs, then per port the lane, its TCL TX, its TCL RX, then the router),
        // but for the TX's `tx_ready`, read of every lane first (above). The shuffled-order
        // test compares the two.
        let on = On {
            nic: nic_on,
            tx: tx_on,
            rx: rx_on,
            router: router_on,
        };
        if self.shuffle.is_some() {
            self.step_shuffled(env, link_in, cycle, &on, &ready, ev);
        } else {
            // the visiting order, written out
            for t in 0..ni {
                if on.nic[t] {
                    let fi = self.nic_input(t);
                    self.step_nic(t, &fi, env, cycle, ev);
                }
            }
            for q in 0..self.ports.len() {
                if self.ports[q].is_none() {
                    continue;
                }
                let li = lane_input(&self.dp, q, self.ports[q].as_ref().expect("wired"), env);
                self.step_lane(q, li, skip);
                if on.tx[q] {
                    // built in place, not moved (a TxIn is some 300 bytes)
                    let x = self.tx_input(q, ready[q]);
                    self.step_tx(q, &x, env, cycle, ev);
                }
                if on.rx[q] {
                    self.step_rx(q, env, link_in[q], cycle, ev);
                }
            }
            if on.router {
                self.step_router(cycle);
            }
        }
        if !skip {
            return cycle + 1;
        }
        self.wake(env, cycle + 1)
    }

    /// The sub-blocks that work this cycle stepped in a random order (`shuffle_sub_blocks`):
    /// every input is taken before the first one steps.
    fn step_shuffled(
        &mut self,
        env: &NodeEnv,
        link_in: &[(bool, u64); MAX_INTER],
        cycle: u64,
        on: &On,
        ready: &[bool; MAX_INTER],
        ev: &mut NodeEvents,
    ) {
        let ni = self.dp.router.p.n_intra as usize;
        let mut order = [Sub::Router; MAX_SUBS];
        let mut n = 0;
        for (t, &nic_on) in on.nic.iter().enumerate().take(ni) {
            if nic_on {
                order[n] = Sub::Nic(t);
                n += 1;
            }
        }
        for (q, port) in self.ports.iter().enumerate() {
            if port.is_some() {
                order[n..n + 3].copy_from_slice(&[Sub::Lane(q), Sub::Tx(q), Sub::Rx(q)]);
                n += 3;
            }
        }
        if on.router {
            order[n] = Sub::Router;
            n += 1;
        }
        let rng = self.shuffle.as_deref_mut().expect("a shuffled node");
        block::shuffle(&mut order[..n], rng);
        let taken = Inputs {
            nic: (0..ni).map(|t| self.nic_input(t)).collect(),
            tx: (0..self.ports.len())
                .map(|q| on.tx[q].then(|| self.tx_input(q, ready[q])))
                .collect(),
            lane: (0..self.ports.len())
                .map(|q| {
                    let p = self.ports[q].as_ref();
                    p.map(|p| lane_input(&self.dp, q, p, env))
                })
                .collect(),
        };
        for &sub in &order[..n] {
            match sub {
                Sub::Nic(t) => self.step_nic(t, &taken.nic[t], env, cycle, ev),
                Sub::Tx(q) => {
                    if let Some(x) = &taken.tx[q] {
                        self.step_tx(q, x, env, cycle, ev);
                    }
                }
                Sub::Rx(q) => {
                    if on.rx[q] {
                        self.step_rx(q, env, link_in[q], cycle, ev);
                    }
                }
                Sub::Lane(q) => {
                    let li = taken.lane[q].expect("a wired port");
                    self.step_lane(q, li, env.skip);
                }
                Sub::Router => self.step_router(cycle),
            }
        }
    }

    /// The NIC of terminal `t` steps with inputs `fi`.
    #[inline(always)]
    fn step_nic(
        &mut self,
        t: usize,
        fi: &NicFifoIn,
        env: &NodeEnv,
        cycle: u64,
        ev: &mut NodeEvents,
    ) {
        let siw = self.dp.router.p.size_in_words;
        let (inj, arr) = self.nics[t].step(env.topo, env.pattern, env.sizes, fi, cycle, siw);
        if let Some(x) = inj {
            ev.injected.push(x);
        }
        if let Some(x) = arr {
            if let Some(h) = self.hops.as_deref_mut() {
                ev.ejected.push(h.ejected(t));
            }
            ev.arrived.push(x);
        }
        ev.generated.append(&mut self.nics[t].generated);
    }

    /// Port `q`'s outgoing lane steps with inputs `li` (without `skip`, also when it accepts
    /// nothing: no beat offered, or TX ready low; `catch_up` brings it on later).
    #[inline(always)]
    fn step_lane(&mut self, q: usize, mut li: PhyIn, skip: bool) {
        let lane = &mut self.dp.links[q].as_mut().expect("a wired port").lane;
        let mut accepted = li.tx_valid && lane.tx_ready();
        if !accepted && skip {
            return;
        }
        let port = self.ports[q].as_mut().expect("a wired port");
        // (the injector moves on by the beats accepted only)
        if port.fault.silent() {
            // the TX's beat goes nowhere: the lane launches nothing
            port.fault.beats_lost += accepted as u64;
            li.tx_valid = false;
            accepted = false;
        }
        block::step(lane, &li);
        if let Some(e) = &mut port.errs {
            e.commit(accepted);
        }
    }

    /// Port `q`'s TCL RX steps with the beat `beat_in` its neighbour's lane presents.
    #[inline(always)]
    fn step_rx(
        &mut self,
        q: usize,
        env: &NodeEnv,
        beat_in: (bool, u64),
        cycle: u64,
        ev: &mut NodeEvents,
    ) {
        let rx = &mut self.dp.link_mut(q).tcl.rx;
        let packets = rx.stat_pkts;
        block::step(
            rx,
            &TclRxIn {
                p: &env.link.tcl,
                cfg: &env.tcl_cfg,
                port: rx_in(beat_in),
            },
        );
        if let Some(h) = self.hops.as_deref_mut() {
            // the RX counts a packet as it writes its footer (`TclRx::data_beat`)
            let footer = rx.stat_pkts != packets;
            let header = rx.wr_valid && rx.wr_hf && !footer;
            if let Some(x) = h.rx(q, header, footer.then_some(rx.wr_data), cycle) {
                ev.hop_in.push(x);
            }
        }
        if let Some(b) = self.books.as_deref_mut() {
            // a header written: a header/footer word that is not the footer
            // (the RX counts a packet at its footer)
            if rx.wr_valid && rx.wr_hf && rx.stat_pkts == packets {
                b.forwarded(q, rx.wr_data);
            }
        }
    }

    /// The router steps with the inputs in `ri`.
    #[inline(always)]
    fn step_router(&mut self, cycle: u64) {
        self.router_busy = self.dp.router.step(&self.ri);
        if let Some(b) = self.books.as_deref_mut() {
            b.gates(&self.dp.router);
        }
        if let Some(h) = self.hops.as_deref_mut() {
            h.router(&self.dp.router, cycle);
        }
    }

    /// Port `q`'s TCL TX steps with inputs `x`.
    #[inline(always)]
    fn step_tx(&mut self, q: usize, x: &TxIn, env: &NodeEnv, cycle: u64, ev: &mut NodeEvents) {
        let tx = &mut self.dp.link_mut(q).tcl.tx;
        let was_in_packet = tx.pkt;
        block::step(
            tx,
            &TclTxIn {
                p: &env.link.tcl,
                cfg: &env.tcl_cfg,
                port: x,
            },
        );
        if let Some(b) = self.books.as_deref_mut() {
            // a MAGIC loaded: the header at the head of the VC it chose starts
            if tx.pkt && !was_in_packet {
                b.sent(q, x.hf_rdata[tx.vc as usize], cycle);
            }
        }
        if let Some(h) = self.hops.as_deref_mut() {
            if let Some(s) = h.tx(q, tx, was_in_packet, x.hf_rdata[tx.vc as usize], cycle) {
                ev.hop_sent.push(s);
            }
        }
        self.ports[q].as_mut().expect("a wired port").tx_seen = cycle + 1;
    }

    /// What the NIC of terminal `t` reads of the router this cycle.
    fn nic_input(&self, t: usize) -> NicFifoIn {
        let r = &self.dp.router;
        self.nics[t].fifo_in(r.intra_tx(t as u32), r.intra_rx(t as u32))
    }

    /// What port `q`'s TCL TX reads this cycle (`DataPath::tx_in`, reading only the FIFO
    /// heads that show a word), and a port marked down sees its partner's buffers empty.
    #[inline(always)]
    fn tx_input(&self, q: usize, ready: bool) -> TxIn {
        let mut x = self.dp.tx_in(q, ready, Heads::Shown);
        if self.ports[q].as_ref().expect("a wired port").fault.down {
            // a port marked down sends what its FIFOs hold into the dead link: every credit
            // it is shown says the partner's buffers are empty
            x.cred_upd_valid = true;
            x.cred_upd_stop = 0;
            x.cred_upd_usedw = 0;
        }
        x
    }

    /// The credit watchdog of every port (`faults.rs`): a port whose partner sent no credit
    /// for `env.detect_cycles` is marked down, and its routing adapter told. A port marked down
    /// ends the packet its RX is receiving: a PAD beat into `link_in` when no real one comes
    /// and the RX FIFO has room for the word, or, before the header was written, the packet
    /// is lost (`TclRx::abandon_header`).
    fn watch(&mut self, env: &NodeEnv, cycle: u64, link_in: &mut [(bool, u64); MAX_INTER]) {
        let DataPath { router, links } = &mut self.dp;
        let nv = router.p.num_vcs;
        for (q, (l, port)) in links.iter_mut().zip(self.ports.iter_mut()).enumerate() {
            let (Some(l), Some(port)) = (l, port) else {
                continue;
            };
            let f = &mut port.fault;
            let rx = &mut l.tcl.rx;
            if rx.cred_upd_valid {
                f.last_credit = cycle;
                f.armed = true;
            }
            if f.armed && !f.down && cycle >= f.last_credit + env.detect_cycles {
                f.down = true;
                f.downs += 1;
                if let Some(r) = &self.routing {
                    r.set_down(q, true);
                }
            }
            if !f.down || link_in[q].0 {
                continue;
            }
            if rx.mode == M_HDR && !rx.in_valid && !rx.wr_valid {
                rx.abandon_header();
            } else if rx.mode == M_PAY || rx.mode == M_FTR {
                let fifo = router.inter_rx(q as u32, (rx.vc as u32).min(nv - 1));
                let room = |x: &crate::fifo::Fifo| x.params().depth.saturating_sub(x.usedw()) >= 4;
                if room(&fifo.hf) && room(&fifo.pay) {
                    link_in[q] = (true, PAD);
                }
            }
        }
    }

    /// The data path's ports and registers under the RTL names of `exanet_node` (`u_router`,
    /// `gen_link[q].u_tcl`, `gen_link[q].u_lane`), walked as `Node::probe` walks them
    /// (`DataPath::probe_router`, `NodeLink::probe`), in the scope the caller opened: what a
    /// test or a lockstep compares with the co-simulated node or the RTL. The inputs shown are
    /// those this node's registers drive now (`link_in`: what the neighbours' lanes present);
    /// the Target Controller and the self-test IPs, which a network node does not instantiate,
    /// are not probed. `cycle`: the cycle whose registers the node holds; what idle skipping
    /// leaves behind (a TCL TX's credit age, a lane's clock) is shown brought up to it, as the
    /// next step would bring it.
    pub fn probe(
        &self,
        env: &NodeEnv,
        link_in: &[(bool, u64); MAX_INTER],
        cycle: u64,
        v: &mut dyn Visitor,
    ) {
        let mut ri = RouterIn {
            cfg: self.ri.cfg,
            ..Default::default()
        };
        router_inputs(&self.nics, &self.dp, &mut ri);
        self.dp.probe_router(&ri, v);
        for (q, (l, port)) in self.dp.links.iter().zip(&self.ports).enumerate() {
            let (Some(l), Some(port)) = (l, port) else {
                continue;
            };
            let mut now: NodeLink = l.clone();
            if port.tx_seen < cycle {
                now.tcl.tx.idle_cycles(cycle - port.tx_seen);
            }
            now.lane.catch_up(cycle, env.phy_cfg);
            // the TX's inputs as the RTL shows them: every FIFO head, empty ones too
            let mut txin = self.dp.tx_in(q, now.lane.tx_ready(), Heads::All);
            if port.fault.down {
                txin.cred_upd_valid = true;
                txin.cred_upd_stop = 0;
                txin.cred_upd_usedw = 0;
            }
            let lane_in = lane_input(&self.dp, q, port, env);
            v.enter(crate::node::GEN_LINK[q]);
            let (p, cfg) = (&env.link.tcl, &env.tcl_cfg);
            now.probe(p, cfg, &txin, &rx_in(link_in[q]), &lane_in, v);
            v.leave();
        }
    }

    /// The NIC of terminal `t` has nothing to write or read.
    fn nic_idle(&self, t: usize) -> bool {
        let r = &self.dp.router;
        let p = &r.p;
        self.nics[t].idle()
            && (!p.has_output(p.intra_slot(t as u32))
                || r.out_fifo_state(p.intra_slot(t as u32)) == (false, false, true))
    }

    /// The first cycle from `next` on in which some block of the node has work, as far as the
    /// node itself knows (a neighbour's beat arriving is the engine's to add: `Network`).
    fn wake(&self, env: &NodeEnv, next: u64) -> u64 {
        if self.router_busy {
            return next;
        }
        let mut wake = u64::MAX;
        for (q, (l, port)) in self.dp.links.iter().zip(&self.ports).enumerate() {
            let (Some(l), Some(port)) = (l, port) else {
                continue;
            };
            let (t, rx) = (&l.tcl.tx, &l.tcl.rx);
            if !rx_idle(rx, false) {
                return next;
            }
            if t.out_valid {
                // a beat held: the TX waits, its credit age growing, until the lane takes it
                let ready = l.lane.ready_from(next, env.phy_cfg);
                if ready == next || !tx_idle(t, &env.tcl_cfg, false, rx.cred_upd_valid, false) {
                    return next;
                }
                wake = wake.min(ready);
            } else {
                if !tx_idle(
                    t,
                    &env.tcl_cfg,
                    self.header_waiting(q),
                    rx.cred_upd_valid,
                    false,
                ) {
                    return next;
                }
                // idle: its credit age grows by one a cycle until a credit is due
                let age =
                    (t.credit_age as u64 + next.saturating_sub(port.tx_seen)).min(AGE_MAX as u64);
                wake = wake.min(next + (env.tcl_cfg.credit_period as u64).saturating_sub(age));
            }
            let f = &port.fault;
            if env.detect_cycles > 0 {
                if f.down && (rx.mode == M_PAY || rx.mode == M_FTR || rx.mode == M_HDR) {
                    // a packet still to end
                    return next;
                }
                if f.armed && !f.down {
                    wake = wake.min(f.last_credit + env.detect_cycles);
                }
            }
        }
        for t in 0..self.nics.len() {
            if !self.nic_idle(t) {
                return next;
            }
            wake = wake.min(self.nics[t].due(next));
        }
        wake.max(next)
    }
}
