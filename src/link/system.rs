//! A full-duplex APElink between two ends, as the co-simulation top `exanet_link_top` has it:
//!
//! ```text
//!            u_a (exanet_link_end)                                        u_b (exanet_link_end)
//!  tb --> gen_tx[v].u_fifo --> u_tcl.u_tx --> u_lane_ab (PHY) --> u_tcl.u_rx --> gen_rx[v].u_fifo --> tb
//!  tb <-- gen_rx[v].u_fifo <-- u_tcl.u_rx <-- u_lane_ba (PHY) <-- u_tcl.u_tx <-- gen_tx[v].u_fifo <-- tb
//! ```
//!
//! Each end stands for the inter-tile switch port of a router: one TX and one RX packet FIFO
//! (header/footer + payload, `src/pktfifo.rs`) per VC. Its TX FIFOs are written by the test
//! bench (the router's side), its RX FIFOs are read by the test bench. The TCL inside an end
//! passes the credits its RX receives to its TX (`cred_upd_*`) and reports the occupancy of its
//! RX FIFOs to its TX (`rxf_units`), which sends it to the peer.
//!
//! `step` evaluates every block from the registers of this cycle, then commits them all.

use super::account::LinkAccount;
use super::phy::{PhyCfg, PhyIn, PhyLane, PhyNext, PhyParams};
use super::tcl_rx::{RxEvents, RxIn, TclRx, TclRxIn};
use super::tcl_tx::{pack16, TclCfg, TclParams, TclTx, TclTxIn, TxEvents, TxFifoView, TxIn};
use crate::block::Block;
use crate::config::{CreditFlavour, LinkConfig};
use crate::pktfifo::{PktFifo, PktFifoIn, PktFifoNext, PktFifoParams};
use crate::probe::{b, clk_rst, Visitor};

/// Everything the link is built from, resolved from the configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinkParams {
    pub tcl: TclParams,
    pub cfg: TclCfg,
    pub phy: PhyParams,
    pub phy_cfg: PhyCfg,
    pub tx_fifo: PktFifoParams,
    pub rx_fifo: PktFifoParams,
}

impl LinkParams {
    /// From a validated configuration.
    pub fn from_config(c: &LinkConfig) -> LinkParams {
        let rx_fifo = PktFifoParams {
            hf_depth: c.rx_hf_fifo_depth_words,
            pay_depth: c.rx_fifo_depth_words,
            latency: c.fifo_latency_cycles,
        };
        LinkParams {
            tcl: TclParams {
                num_vcs: c.num_vcs,
                rx_depth: c.rx_fifo_depth_words,
                hf_scale: rx_fifo.scale(),
                uw_beats: c.credit.usedword_beats,
                size_in_words: c.size_in_words,
            },
            cfg: TclCfg {
                credit_period: c.credit.period_cycles,
                max_interval: c.credit.max_interval_cycles,
                tred: c.credit.tred_words,
                usedword: c.credit.flavour == CreditFlavour::Usedword,
                after_pkt: c.credit.after_every_packet,
                whole_pkt: c.credit.whole_packet,
            },
            phy: PhyParams {
                latency: c.phy.latency_cycles,
                gb_period: c.phy.gearbox_period_cycles,
                cc_period: c.phy.cc_period_cycles,
                cc_len: c.phy.cc_len_cycles,
                lane_up_cycles: c.phy.lane_up_cycles,
            },
            phy_cfg: PhyCfg {
                gearbox_en: c.phy.gearbox_pause,
                cc_en: c.phy.clock_compensation,
            },
            tx_fifo: PktFifoParams {
                hf_depth: c.tx_hf_fifo_depth_words,
                pay_depth: c.tx_fifo_depth_words,
                latency: c.fifo_latency_cycles,
            },
            rx_fifo,
        }
    }
}

/// Test-bench inputs of one end for one cycle (registers of the test bench). Bit v is VC v.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EndTbIn {
    pub tx_wr_hf: u8,
    pub tx_wr_pay: u8,
    pub tx_wdata: u128,
    pub rx_rd_hf: u8,
    pub rx_rd_pay: u8,
}

/// Test-bench inputs of the whole link for one cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LinkTbIn {
    pub a: EndTbIn,
    pub b: EndTbIn,
    pub ab_err_mask: u64,
    pub ba_err_mask: u64,
}

/// One end: the TX packet FIFOs, the TCL (TX + RX), the RX packet FIFOs, one of each per VC.
#[derive(Debug, Clone)]
pub struct LinkEnd {
    pub tx_fifos: Vec<PktFifo>,
    pub tx: TclTx,
    pub rx: TclRx,
    pub rx_fifos: Vec<PktFifo>,
}

/// The inputs every block of an end sees this cycle.
#[derive(Debug, Clone, Copy)]
pub struct EndInputs {
    pub tx_fifo: [PktFifoIn; 8],
    pub tx: TxIn,
    pub rx: RxIn,
    pub rx_fifo: [PktFifoIn; 8],
}

/// Block identifiers, for evaluating in an arbitrary order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockId {
    TxFifo(End, usize),
    Tx(End),
    Rx(End),
    RxFifo(End, usize),
    Lane(End),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    A,
    B,
}

/// Next state of one block.
enum BlockNext {
    Fifo(PktFifoNext),
    Tx(Box<TclTx>, TxEvents),
    Rx(Box<TclRx>, RxEvents),
    Lane(PhyNext),
}

/// Observations of one cycle (not registers): what each TCL did.
#[derive(Debug, Clone, Copy, Default)]
pub struct LinkEvents {
    pub a_tx: TxEvents,
    pub b_tx: TxEvents,
    pub a_rx: RxEvents,
    pub b_rx: RxEvents,
}

#[derive(Debug, Clone)]
pub struct Link {
    pub p: LinkParams,
    pub a: LinkEnd,
    pub b: LinkEnd,
    /// A's TX to B's RX.
    pub lane_ab: PhyLane,
    /// B's TX to A's RX.
    pub lane_ba: PhyLane,
}

/// Occupancies of RX packet FIFOs in credit units, packed as the TX's `rxf_units_i`.
pub fn rx_units(fifos: &[PktFifo]) -> u128 {
    let u: Vec<u32> = fifos.iter().map(|f| f.units()).collect();
    pack16(&u)
}

/// Inputs of RX packet FIFO `v` from the TCL RX's write port.
pub fn rx_fifo_write(rx: &TclRx, v: usize) -> PktFifoIn {
    let mine = rx.wr_valid && rx.wr_vc as usize == v;
    PktFifoIn {
        wr_hf: mine && rx.wr_hf,
        wr_pay: mine && !rx.wr_hf,
        wdata: rx.wr_data,
        ..Default::default()
    }
}

/// Next state of a whole link end.
pub struct LinkEndNext {
    tx_fifos: Vec<PktFifoNext>,
    tx: (TclTx, TxEvents),
    rx: (TclRx, RxEvents),
    rx_fifos: Vec<PktFifoNext>,
}

/// A link end's inputs in a cycle: the test bench's (the router side's) and its two lanes'.
#[derive(Debug, Clone, Copy)]
pub struct LinkEndIn<'a> {
    pub p: &'a LinkParams,
    pub tb: EndTbIn,
    /// The outgoing lane's `tx_ready_o`.
    pub phy_tx_ready: bool,
    /// The incoming lane's `rx_valid_o`, `rx_data_o`.
    pub phy_rx: RxIn,
}

impl LinkEndIn<'_> {
    /// The inputs of the end whose outgoing lane is `lane_out` and incoming lane `lane_in`.
    pub fn of<'a>(
        p: &'a LinkParams,
        tb: &EndTbIn,
        lane_in: &PhyLane,
        lane_out: &PhyLane,
    ) -> LinkEndIn<'a> {
        LinkEndIn {
            p,
            tb: *tb,
            phy_tx_ready: lane_out.tx_ready(),
            phy_rx: RxIn {
                rx_valid: lane_in.rx_valid(),
                rx_data: lane_in.rx_data(),
            },
        }
    }
}

impl LinkEnd {
    /// The asynchronous reset of `exanet_link_end` (`rst_ni` low between two edges): the TCL's
    /// registers and the FIFOs' pointers to their reset values; the FIFOs' block RAMs keep
    /// their contents ([`PktFifo::async_reset`]).
    pub fn async_reset(&mut self, p: &LinkParams) {
        self.tx = TclTx::reset(&p.tcl);
        self.rx = TclRx::reset(&p.tcl);
        for f in self.tx_fifos.iter_mut().chain(self.rx_fifos.iter_mut()) {
            f.async_reset();
        }
    }

    /// Every sub-block's inputs this cycle, from the end's inputs and its sub-blocks'
    /// registers: the wiring of `exanet_link_end`, in this one place.
    pub fn inputs(&self, i: &LinkEndIn) -> EndInputs {
        let (p, tb) = (i.p, &i.tb);
        let mut tx_fifo = [PktFifoIn::default(); 8];
        let mut rx_fifo = [PktFifoIn::default(); 8];
        for v in 0..p.tcl.num_vcs as usize {
            let bit = 1u8 << v;
            tx_fifo[v] = PktFifoIn {
                wr_hf: tb.tx_wr_hf & bit != 0,
                wr_pay: tb.tx_wr_pay & bit != 0,
                wdata: tb.tx_wdata,
                rd_hf: self.tx.hf_rd & bit != 0,
                rd_pay: self.tx.pay_rd & bit != 0,
            };
            rx_fifo[v] = PktFifoIn {
                rd_hf: tb.rx_rd_hf & bit != 0,
                rd_pay: tb.rx_rd_pay & bit != 0,
                ..rx_fifo_write(&self.rx, v)
            };
        }
        let tx = TxIn::wire(
            &self.rx,
            i.phy_tx_ready,
            rx_units(&self.rx_fifos),
            self.tx_fifos.len(),
            |v| TxFifoView::of(&self.tx_fifos[v]),
        );
        EndInputs {
            tx_fifo,
            tx,
            rx: i.phy_rx,
            rx_fifo,
        }
    }

    /// The TCL TX's inputs, with its parameters.
    pub fn tx_in<'a>(p: &'a LinkParams, ins: &'a EndInputs) -> TclTxIn<'a> {
        TclTxIn {
            p: &p.tcl,
            cfg: &p.cfg,
            port: &ins.tx,
        }
    }

    /// The TCL RX's inputs, with its parameters.
    pub fn rx_in<'a>(p: &'a LinkParams, ins: &EndInputs) -> TclRxIn<'a> {
        TclRxIn {
            p: &p.tcl,
            cfg: &p.cfg,
            port: ins.rx,
        }
    }

    /// Empty flags of the RX FIFOs (header/footer, payload), bit v for VC v.
    pub fn rx_empty_masks(&self) -> (u8, u8) {
        let mut h = 0;
        let mut p = 0;
        for (v, f) in self.rx_fifos.iter().enumerate() {
            h |= (f.hf.empty() as u8) << v;
            p |= (f.pay.empty() as u8) << v;
        }
        (h, p)
    }

    /// Full flags of the TX FIFOs (header/footer, payload), bit v for VC v.
    pub fn tx_full_masks(&self) -> (u8, u8) {
        let mut h = 0;
        let mut p = 0;
        for (v, f) in self.tx_fifos.iter().enumerate() {
            h |= (f.hf.full() as u8) << v;
            p |= (f.pay.full() as u8) << v;
        }
        (h, p)
    }
}

/// `exanet_link_end`: a block of blocks, every sub-block evaluated from this cycle's registers
/// before any commits.
impl Block for LinkEnd {
    type Spec = LinkParams;
    type In<'a> = LinkEndIn<'a>;
    type Next = LinkEndNext;
    /// What its TCL TX and RX did.
    type Events = (TxEvents, RxEvents);

    fn reset(p: &LinkParams) -> LinkEnd {
        LinkEnd {
            tx_fifos: (0..p.tcl.num_vcs)
                .map(|_| PktFifo::reset(&p.tx_fifo))
                .collect(),
            tx: TclTx::reset(&p.tcl),
            rx: TclRx::reset(&p.tcl),
            rx_fifos: (0..p.tcl.num_vcs)
                .map(|_| PktFifo::reset(&p.rx_fifo))
                .collect(),
        }
    }

    fn eval(&self, i: &LinkEndIn) -> LinkEndNext {
        let ins = self.inputs(i);
        LinkEndNext {
            tx_fifos: self
                .tx_fifos
                .iter()
                .enumerate()
                .map(|(k, f)| f.eval(&ins.tx_fifo[k]))
                .collect(),
            tx: self.tx.eval(&LinkEnd::tx_in(i.p, &ins)),
            rx: self.rx.eval(&LinkEnd::rx_in(i.p, &ins)),
            rx_fifos: self
                .rx_fifos
                .iter()
                .enumerate()
                .map(|(k, f)| f.eval(&ins.rx_fifo[k]))
                .collect(),
        }
    }

    fn commit(&mut self, n: LinkEndNext) -> (TxEvents, RxEvents) {
        for (f, x) in self.tx_fifos.iter_mut().zip(n.tx_fifos) {
            f.commit(x);
        }
        for (f, x) in self.rx_fifos.iter_mut().zip(n.rx_fifos) {
            f.commit(x);
        }
        (self.tx.commit(n.tx), self.rx.commit(n.rx))
    }

    fn probe(&self, i: &LinkEndIn, v: &mut dyn Visitor) {
        let ins = self.inputs(i);
        let p = i.p;
        clk_rst(v);
        super::tcl_tx::probe_cfg(&p.cfg, v);
        probe_end_ports(p, i, self, v);
        for (k, f) in self.tx_fifos.iter().enumerate() {
            v.enter(GEN_TX[k]);
            v.enter("u_fifo");
            f.probe(&ins.tx_fifo[k], v);
            v.leave();
            v.leave();
        }
        v.enter("u_tcl");
        super::tcl::probe_halves(&p.tcl, &p.cfg, &self.tx, &self.rx, &ins.tx, &ins.rx, v);
        v.leave();
        for (k, f) in self.rx_fifos.iter().enumerate() {
            v.enter(GEN_RX[k]);
            v.enter("u_fifo");
            f.probe(&ins.rx_fifo[k], v);
            v.leave();
            v.leave();
        }
    }
}

/// Scope names of generated blocks (static: probing is on the hot path).
pub const GEN_TX: [&str; 64] = crate::gen_names!("gen_tx");
pub const GEN_RX: [&str; 64] = crate::gen_names!("gen_rx");

/// Per-end ports of `exanet_link_top`.
const TOP_PORTS: [[&str; 9]; 2] = [
    [
        "a_tx_wr_hf_i",
        "a_tx_wr_pay_i",
        "a_tx_wdata_i",
        "a_rx_rd_hf_i",
        "a_rx_rd_pay_i",
        "a_tx_hf_full_o",
        "a_tx_pay_full_o",
        "a_rx_hf_empty_o",
        "a_rx_pay_empty_o",
    ],
    [
        "b_tx_wr_hf_i",
        "b_tx_wr_pay_i",
        "b_tx_wdata_i",
        "b_rx_rd_hf_i",
        "b_rx_rd_pay_i",
        "b_tx_hf_full_o",
        "b_tx_pay_full_o",
        "b_rx_hf_empty_o",
        "b_rx_pay_empty_o",
    ],
];

/// Ports of `exanet_link_end`.
fn probe_end_ports(p: &LinkParams, i: &LinkEndIn, e: &LinkEnd, v: &mut dyn Visitor) {
    let tb = &i.tb;
    let nv = p.tcl.num_vcs;
    let (txh, txp) = e.tx_full_masks();
    let (rxh, rxp) = e.rx_empty_masks();
    v.sig("tx_wr_hf_i", nv, tb.tx_wr_hf as u128);
    v.sig("tx_wr_pay_i", nv, tb.tx_wr_pay as u128);
    v.sig("tx_wdata_i", 128, tb.tx_wdata);
    v.sig("rx_rd_hf_i", nv, tb.rx_rd_hf as u128);
    v.sig("rx_rd_pay_i", nv, tb.rx_rd_pay as u128);
    v.sig("phy_tx_ready_i", 1, b(i.phy_tx_ready));
    v.sig("phy_tx_valid_o", 1, b(e.tx.out_valid));
    v.sig("phy_tx_data_o", 64, e.tx.out_data as u128);
    v.sig("phy_rx_valid_i", 1, b(i.phy_rx.rx_valid));
    v.sig("phy_rx_data_i", 64, i.phy_rx.rx_data as u128);
    v.sig("tx_hf_full_o", nv, txh as u128);
    v.sig("tx_pay_full_o", nv, txp as u128);
    v.sig("rx_hf_empty_o", nv, rxh as u128);
    v.sig("rx_pay_empty_o", nv, rxp as u128);
}

impl Link {
    pub fn new(p: LinkParams) -> Link {
        Link {
            a: LinkEnd::reset(&p),
            b: LinkEnd::reset(&p),
            lane_ab: PhyLane::reset(&p.phy),
            lane_ba: PhyLane::reset(&p.phy),
            p,
        }
    }

    /// The asynchronous reset of `exanet_link_top` (`rst_ni` low between two edges, the
    /// settings kept): both ends ([`LinkEnd::async_reset`]) and both lanes.
    pub fn async_reset(&mut self) {
        self.a.async_reset(&self.p);
        self.b.async_reset(&self.p);
        self.lane_ab = PhyLane::reset(&self.p.phy);
        self.lane_ba = PhyLane::reset(&self.p.phy);
    }

    /// Packet accounting of the direction A to B (A's TX, B's RX).
    pub fn account_ab(&self) -> LinkAccount {
        LinkAccount::of(&self.a.tx, &self.b.rx)
    }

    /// Packet accounting of the direction B to A.
    pub fn account_ba(&self) -> LinkAccount {
        LinkAccount::of(&self.b.tx, &self.a.rx)
    }

    /// Both directions' accounting holds (`LinkAccount::check`).
    pub fn check_accounts(&self) -> Result<(), String> {
        LinkAccount::check_both((&self.a.tx, &self.a.rx), (&self.b.tx, &self.b.rx))
    }

    /// Every block's inputs for this cycle (from registers and the test bench's inputs).
    pub fn inputs(&self, tb: &LinkTbIn) -> (EndInputs, EndInputs, PhyIn, PhyIn) {
        let ia = self.a.inputs(&self.end_in(End::A, tb));
        let ib = self.b.inputs(&self.end_in(End::B, tb));
        let lab = PhyIn {
            cfg: self.p.phy_cfg,
            tx_valid: self.a.tx.out_valid,
            tx_data: self.a.tx.out_data,
            err_mask: tb.ab_err_mask,
        };
        let lba = PhyIn {
            cfg: self.p.phy_cfg,
            tx_valid: self.b.tx.out_valid,
            tx_data: self.b.tx.out_data,
            err_mask: tb.ba_err_mask,
        };
        (ia, ib, lab, lba)
    }

    /// The inputs of end `e`.
    fn end_in(&self, e: End, tb: &LinkTbIn) -> LinkEndIn<'_> {
        match e {
            End::A => LinkEndIn::of(&self.p, &tb.a, &self.lane_ba, &self.lane_ab),
            End::B => LinkEndIn::of(&self.p, &tb.b, &self.lane_ab, &self.lane_ba),
        }
    }

    /// All blocks in the default visiting order.
    pub fn blocks(&self) -> Vec<BlockId> {
        let mut v = Vec::new();
        for e in [End::A, End::B] {
            for k in 0..self.p.tcl.num_vcs as usize {
                v.push(BlockId::TxFifo(e, k));
            }
            v.push(BlockId::Tx(e));
            v.push(BlockId::Rx(e));
            for k in 0..self.p.tcl.num_vcs as usize {
                v.push(BlockId::RxFifo(e, k));
            }
            v.push(BlockId::Lane(e));
        }
        v
    }

    fn end(&self, e: End) -> &LinkEnd {
        match e {
            End::A => &self.a,
            End::B => &self.b,
        }
    }

    fn end_mut(&mut self, e: End) -> &mut LinkEnd {
        match e {
            End::A => &mut self.a,
            End::B => &mut self.b,
        }
    }

    fn eval_block(&self, id: BlockId, ins: &(EndInputs, EndInputs, PhyIn, PhyIn)) -> BlockNext {
        let ei = |e: End| if e == End::A { &ins.0 } else { &ins.1 };
        match id {
            BlockId::TxFifo(e, k) => {
                BlockNext::Fifo(self.end(e).tx_fifos[k].eval(&ei(e).tx_fifo[k]))
            }
            BlockId::Tx(e) => {
                let (n, ev) = self.end(e).tx.eval(&LinkEnd::tx_in(&self.p, ei(e)));
                BlockNext::Tx(Box::new(n), ev)
            }
            BlockId::Rx(e) => {
                let (n, ev) = self.end(e).rx.eval(&LinkEnd::rx_in(&self.p, ei(e)));
                BlockNext::Rx(Box::new(n), ev)
            }
            BlockId::RxFifo(e, k) => {
                BlockNext::Fifo(self.end(e).rx_fifos[k].eval(&ei(e).rx_fifo[k]))
            }
            BlockId::Lane(End::A) => BlockNext::Lane(self.lane_ab.eval(&ins.2)),
            BlockId::Lane(End::B) => BlockNext::Lane(self.lane_ba.eval(&ins.3)),
        }
    }

    fn commit_block(&mut self, id: BlockId, n: BlockNext, ev: &mut LinkEvents) {
        match (id, n) {
            (BlockId::TxFifo(e, k), BlockNext::Fifo(f)) => self.end_mut(e).tx_fifos[k].commit(f),
            (BlockId::Tx(e), BlockNext::Tx(t, tev)) => {
                self.end_mut(e).tx = *t;
                match e {
                    End::A => ev.a_tx = tev,
                    End::B => ev.b_tx = tev,
                }
            }
            (BlockId::Rx(e), BlockNext::Rx(r, rev)) => {
                self.end_mut(e).rx = *r;
                match e {
                    End::A => ev.a_rx = rev,
                    End::B => ev.b_rx = rev,
                }
            }
            (BlockId::RxFifo(e, k), BlockNext::Fifo(f)) => self.end_mut(e).rx_fifos[k].commit(f),
            (BlockId::Lane(End::A), BlockNext::Lane(l)) => self.lane_ab.commit(l),
            (BlockId::Lane(End::B), BlockNext::Lane(l)) => self.lane_ba.commit(l),
            _ => unreachable!("block and next state kinds always match"),
        }
    }

    /// One clock cycle in the default order.
    pub fn step(&mut self, tb: &LinkTbIn) -> LinkEvents {
        let order = self.blocks();
        self.step_in_order(tb, &order)
    }

    /// One clock cycle, each block evaluated and committed in turn in `order` (which must name
    /// every block once): in place, from inputs all taken before the first block commits, so the
    /// result does not depend on the order (a test shuffles it).
    pub fn step_in_order(&mut self, tb: &LinkTbIn, order: &[BlockId]) -> LinkEvents {
        let ins = self.inputs(tb);
        let mut ev = LinkEvents::default();
        for &id in order {
            let n = self.eval_block(id, &ins);
            self.commit_block(id, n, &mut ev);
        }
        ev
    }

    /// Every named signal of `exanet_link_top`, under its RTL name.
    pub fn probe(&self, tb: &LinkTbIn, v: &mut dyn Visitor) {
        let (_, _, lab, lba) = self.inputs(tb);
        v.enter("TOP");
        self.probe_top_ports(tb, v);
        v.enter("exanet_link_top");
        self.probe_top_ports(tb, v);
        v.enter("u_a");
        self.a.probe(&self.end_in(End::A, tb), v);
        v.leave();
        v.enter("u_b");
        self.b.probe(&self.end_in(End::B, tb), v);
        v.leave();
        v.enter("u_lane_ab");
        self.lane_ab.probe(&lab, v);
        v.leave();
        v.enter("u_lane_ba");
        self.lane_ba.probe(&lba, v);
        v.leave();
        v.leave();
        v.leave();
    }

    fn probe_top_ports(&self, tb: &LinkTbIn, v: &mut dyn Visitor) {
        let nv = self.p.tcl.num_vcs;
        clk_rst(v);
        super::tcl_tx::probe_cfg(&self.p.cfg, v);
        v.sig("cfg_gearbox_en_i", 1, b(self.p.phy_cfg.gearbox_en));
        v.sig("cfg_cc_en_i", 1, b(self.p.phy_cfg.cc_en));
        for (n, e, t) in [
            (&TOP_PORTS[0], &self.a, &tb.a),
            (&TOP_PORTS[1], &self.b, &tb.b),
        ] {
            let (txh, txp) = e.tx_full_masks();
            let (rxh, rxp) = e.rx_empty_masks();
            v.sig(n[0], nv, t.tx_wr_hf as u128);
            v.sig(n[1], nv, t.tx_wr_pay as u128);
            v.sig(n[2], 128, t.tx_wdata);
            v.sig(n[3], nv, t.rx_rd_hf as u128);
            v.sig(n[4], nv, t.rx_rd_pay as u128);
            v.sig(n[5], nv, txh as u128);
            v.sig(n[6], nv, txp as u128);
            v.sig(n[7], nv, rxh as u128);
            v.sig(n[8], nv, rxp as u128);
        }
        v.sig("ab_err_mask_i", 64, tb.ab_err_mask as u128);
        v.sig("ba_err_mask_i", 64, tb.ba_err_mask as u128);
    }
}

impl crate::counters::Counters for LinkEnd {
    /// The TCL's counters, under `u_tcl` (as the end's probe).
    fn counters(&mut self, v: &mut dyn crate::counters::CounterVisitor) {
        v.enter("u_tcl");
        super::tcl::counters_halves(&mut self.tx, &mut self.rx, v);
        v.leave();
    }
}

impl crate::counters::Counters for Link {
    /// Both ends' counters, from `TOP` (as [`Link::probe`]).
    fn counters(&mut self, v: &mut dyn crate::counters::CounterVisitor) {
        v.enter("TOP");
        v.enter("exanet_link_top");
        v.enter("u_a");
        self.a.counters(v);
        v.leave();
        v.enter("u_b");
        self.b.counters(v);
        v.leave();
        v.leave();
        v.leave();
    }
}
