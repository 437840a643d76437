//! A full-duplex APElink between two ends, as the co-simulation top `exanet_link_top` has it:
//!
//! ```text
//!            u_a (exanet_link_end)                                  u_b (exanet_link_end)
//!  tx_wr --> u_tx_fifo --> u_tcl.u_tx --> u_lane_ab (PHY) --> u_tcl.u_rx --> gen_rx_fifo[v].u_fifo --> rx_rd
//!  rx_rd <-- gen_rx_fifo[v].u_fifo <-- u_tcl.u_rx <-- u_lane_ba (PHY) <-- u_tcl.u_tx <-- u_tx_fifo <-- tx_wr
//! ```
//!
//! Each end stands for the inter-tile port of a router: its TX FIFO is written by the test
//! bench (the router's side), its per-VC RX FIFOs are read by the test bench. The TCL inside
//! an end passes the credits its RX receives to its TX (`cred_upd_*`) and reports the
//! occupancy of its RX FIFOs to its TX (`rxf_usedw`), which sends them to the peer.
//!
//! `step` evaluates every block from the registers of this cycle, then commits them all.

use super::phy::{PhyCfg, PhyIn, PhyLane, PhyNext, PhyParams};
use super::tcl_rx::{RxEvents, RxIn, TclRx};
use super::tcl_tx::{TclCfg, TclParams, TclTx, TxEvents, TxIn};
use crate::config::{CreditFlavour, LinkConfig};
use crate::fifo::{Fifo, FifoIn, FifoNext, FifoParams};
use crate::probe::{b, clk_rst, Visitor};

/// Everything the link is built from, resolved from the configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinkParams {
    pub tcl: TclParams,
    pub cfg: TclCfg,
    pub phy: PhyParams,
    pub phy_cfg: PhyCfg,
    pub tx_fifo: FifoParams,
    pub rx_fifo: FifoParams,
}

impl LinkParams {
    /// From a validated configuration.
    pub fn from_config(c: &LinkConfig) -> LinkParams {
        LinkParams {
            tcl: TclParams {
                num_vcs: c.num_vcs,
                rx_depth: c.rx_fifo_depth_words,
                uw_beats: c.credit.usedword_beats,
                size_in_words: c.size_in_words,
            },
            cfg: TclCfg {
                credit_period: c.credit.period_cycles,
                max_interval: c.credit.max_interval_cycles,
                tred: c.credit.tred_words,
                usedword: c.credit.flavour == CreditFlavour::Usedword,
                after_pkt: c.credit.after_every_packet,
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
            tx_fifo: FifoParams {
                depth: c.tx_fifo_depth_words,
                latency: c.fifo_latency_cycles,
            },
            rx_fifo: FifoParams {
                depth: c.rx_fifo_depth_words,
                latency: c.fifo_latency_cycles,
            },
        }
    }
}

/// Test-bench inputs of one end for one cycle (registers of the test bench).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EndTbIn {
    pub tx_wr: bool,
    pub tx_wdata: u128,
    /// Bit v: pop the RX FIFO of VC v.
    pub rx_rd: u8,
}

/// Test-bench inputs of the whole link for one cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LinkTbIn {
    pub a: EndTbIn,
    pub b: EndTbIn,
    pub ab_err_mask: u64,
    pub ba_err_mask: u64,
}

/// One end: the inter-tile TX FIFO, the TCL (TX + RX), the per-VC RX FIFOs.
#[derive(Debug, Clone)]
pub struct LinkEnd {
    pub tx_fifo: Fifo,
    pub tx: TclTx,
    pub rx: TclRx,
    pub rx_fifos: Vec<Fifo>,
}

/// The inputs every block of an end sees this cycle.
#[derive(Debug, Clone, Copy)]
pub struct EndInputs {
    pub tx_fifo: FifoIn,
    pub tx: TxIn,
    pub rx: RxIn,
    pub rx_fifo: [FifoIn; 8],
}

/// Block identifiers, for evaluating in an arbitrary order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockId {
    TxFifo(End),
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
    Fifo(FifoNext),
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

impl LinkEnd {
    fn new(p: &LinkParams) -> LinkEnd {
        LinkEnd {
            tx_fifo: Fifo::new(p.tx_fifo),
            tx: TclTx::new(&p.tcl),
            rx: TclRx::new(),
            rx_fifos: (0..p.tcl.num_vcs).map(|_| Fifo::new(p.rx_fifo)).collect(),
        }
    }

    /// Occupancies of the RX FIFOs, packed as the TX's `rxf_usedw_i`.
    fn rxf_usedw(&self, p: &LinkParams) -> u128 {
        let w = p.tcl.usedw_bits();
        let mut u = 0u128;
        for (v, f) in self.rx_fifos.iter().enumerate() {
            u |= (f.usedw() as u128) << (w * v as u32);
        }
        u
    }

    fn inputs(
        &self,
        p: &LinkParams,
        tb: &EndTbIn,
        lane_in: &PhyLane,
        lane_out: &PhyLane,
    ) -> EndInputs {
        let mut rx_fifo = [FifoIn::default(); 8];
        for (v, slot) in rx_fifo.iter_mut().enumerate().take(p.tcl.num_vcs as usize) {
            *slot = FifoIn {
                wr: self.rx.wr_valid && self.rx.wr_vc as usize == v,
                wdata: self.rx.wr_data,
                rd: tb.rx_rd & (1 << v) != 0,
            };
        }
        EndInputs {
            tx_fifo: FifoIn {
                wr: tb.tx_wr,
                wdata: tb.tx_wdata,
                rd: self.tx.fifo_rd,
            },
            tx: TxIn {
                fifo_empty: self.tx_fifo.empty(),
                fifo_rdata: self.tx_fifo.rdata(),
                tx_ready: lane_out.tx_ready(),
                cred_upd_valid: self.rx.cred_upd_valid,
                cred_upd_stop: self.rx.cred_upd_stop,
                cred_upd_usedw: self.rx.cred_upd_usedw,
                rxf_usedw: self.rxf_usedw(p),
            },
            rx: RxIn {
                rx_valid: lane_in.rx_valid(),
                rx_data: lane_in.rx_data(),
            },
            rx_fifo,
        }
    }

    /// Empty flags of the RX FIFOs, bit v for VC v.
    pub fn rx_empty_mask(&self) -> u8 {
        let mut m = 0;
        for (v, f) in self.rx_fifos.iter().enumerate() {
            m |= (f.empty() as u8) << v;
        }
        m
    }

    fn probe(
        &self,
        p: &LinkParams,
        tb: &EndTbIn,
        ins: &EndInputs,
        lane_out: &PhyLane,
        v: &mut dyn Visitor,
    ) {
        let nv = p.tcl.num_vcs;
        clk_rst(v);
        super::tcl_tx::probe_cfg(&p.cfg, v);
        probe_end_ports(p, tb, self, lane_out, ins, v);
        v.enter("u_tx_fifo");
        self.tx_fifo.probe(&ins.tx_fifo, v);
        v.leave();
        v.enter("u_tcl");
        clk_rst(v);
        super::tcl_tx::probe_cfg(&p.cfg, v);
        v.sig("fifo_empty_i", 1, b(ins.tx.fifo_empty));
        v.sig("fifo_rdata_i", 128, ins.tx.fifo_rdata);
        v.sig("fifo_rd_o", 1, b(self.tx.fifo_rd));
        v.sig("tx_ready_i", 1, b(ins.tx.tx_ready));
        v.sig("tx_valid_o", 1, b(self.tx.out_valid));
        v.sig("tx_data_o", 64, self.tx.out_data as u128);
        v.sig("rx_valid_i", 1, b(ins.rx.rx_valid));
        v.sig("rx_data_i", 64, ins.rx.rx_data as u128);
        v.sig("wr_valid_o", 1, b(self.rx.wr_valid));
        v.sig("wr_vc_o", 3, self.rx.wr_vc as u128);
        v.sig("wr_data_o", 128, self.rx.wr_data);
        v.sig("rxf_usedw_i", nv * p.tcl.usedw_bits(), ins.tx.rxf_usedw);
        v.enter("u_tx");
        self.tx.probe(&p.tcl, &p.cfg, &ins.tx, v);
        v.leave();
        v.enter("u_rx");
        self.rx.probe(&p.cfg, &ins.rx, v);
        v.leave();
        v.leave();
        for (k, f) in self.rx_fifos.iter().enumerate() {
            v.enter(GEN_RX_FIFO[k]);
            v.enter("u_fifo");
            f.probe(&ins.rx_fifo[k], v);
            v.leave();
            v.leave();
        }
    }
}

/// Scope names of the generated RX FIFOs (static: probing is on the hot path).
const GEN_RX_FIFO: [&str; 8] = [
    "gen_rx_fifo[0]",
    "gen_rx_fifo[1]",
    "gen_rx_fifo[2]",
    "gen_rx_fifo[3]",
    "gen_rx_fifo[4]",
    "gen_rx_fifo[5]",
    "gen_rx_fifo[6]",
    "gen_rx_fifo[7]",
];

/// Per-end ports of `exanet_link_top`.
const TOP_PORTS: [[&str; 6]; 2] = [
    [
        "a_tx_wr_i",
        "a_tx_wdata_i",
        "a_rx_rd_i",
        "a_tx_full_o",
        "a_tx_usedw_o",
        "a_rx_empty_o",
    ],
    [
        "b_tx_wr_i",
        "b_tx_wdata_i",
        "b_rx_rd_i",
        "b_tx_full_o",
        "b_tx_usedw_o",
        "b_rx_empty_o",
    ],
];

/// Ports of `exanet_link_end` (also the per-end ports of the top, with a prefix).
fn probe_end_ports(
    p: &LinkParams,
    tb: &EndTbIn,
    e: &LinkEnd,
    lane_out: &PhyLane,
    ins: &EndInputs,
    v: &mut dyn Visitor,
) {
    let nv = p.tcl.num_vcs;
    v.sig("tx_wr_i", 1, b(tb.tx_wr));
    v.sig("tx_wdata_i", 128, tb.tx_wdata);
    v.sig("rx_rd_i", nv, tb.rx_rd as u128);
    v.sig("phy_tx_ready_i", 1, b(lane_out.tx_ready()));
    v.sig("phy_tx_valid_o", 1, b(e.tx.out_valid));
    v.sig("phy_tx_data_o", 64, e.tx.out_data as u128);
    v.sig("phy_rx_valid_i", 1, b(ins.rx.rx_valid));
    v.sig("phy_rx_data_i", 64, ins.rx.rx_data as u128);
    v.sig("tx_full_o", 1, b(e.tx_fifo.full()));
    v.sig(
        "tx_usedw_o",
        e.tx_fifo.ptr_width(),
        e.tx_fifo.usedw() as u128,
    );
    v.sig("rx_empty_o", nv, e.rx_empty_mask() as u128);
}

impl Link {
    pub fn new(p: LinkParams) -> Link {
        Link {
            a: LinkEnd::new(&p),
            b: LinkEnd::new(&p),
            lane_ab: PhyLane::new(p.phy),
            lane_ba: PhyLane::new(p.phy),
            p,
        }
    }

    /// Every block's inputs for this cycle (from registers and the test bench's inputs).
    pub fn inputs(&self, tb: &LinkTbIn) -> (EndInputs, EndInputs, PhyIn, PhyIn) {
        let ia = self.a.inputs(&self.p, &tb.a, &self.lane_ba, &self.lane_ab);
        let ib = self.b.inputs(&self.p, &tb.b, &self.lane_ab, &self.lane_ba);
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

    /// All blocks in the default visiting order.
    pub fn blocks(&self) -> Vec<BlockId> {
        let mut v = Vec::new();
        for e in [End::A, End::B] {
            v.push(BlockId::TxFifo(e));
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
            BlockId::TxFifo(e) => BlockNext::Fifo(self.end(e).tx_fifo.eval(&ei(e).tx_fifo)),
            BlockId::Tx(e) => {
                let (n, ev) = self.end(e).tx.eval(&self.p.tcl, &self.p.cfg, &ei(e).tx);
                BlockNext::Tx(Box::new(n), ev)
            }
            BlockId::Rx(e) => {
                let (n, ev) = self.end(e).rx.eval(&self.p.tcl, &self.p.cfg, &ei(e).rx);
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
            (BlockId::TxFifo(e), BlockNext::Fifo(f)) => self.end_mut(e).tx_fifo.commit(f),
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

    /// One clock cycle, evaluating and then committing the blocks in `order` (which must name
    /// every block once). The result does not depend on the order.
    pub fn step_in_order(&mut self, tb: &LinkTbIn, order: &[BlockId]) -> LinkEvents {
        let ins = self.inputs(tb);
        let nexts: Vec<(BlockId, BlockNext)> = order
            .iter()
            .map(|&id| (id, self.eval_block(id, &ins)))
            .collect();
        let mut ev = LinkEvents::default();
        for (id, n) in nexts {
            self.commit_block(id, n, &mut ev);
        }
        ev
    }

    /// Every named signal of `exanet_link_top`, under its RTL name.
    pub fn probe(&self, tb: &LinkTbIn, v: &mut dyn Visitor) {
        let (ia, ib, lab, lba) = self.inputs(tb);
        v.enter("TOP");
        self.probe_top_ports(tb, v);
        v.enter("exanet_link_top");
        self.probe_top_ports(tb, v);
        v.enter("u_a");
        self.a.probe(&self.p, &tb.a, &ia, &self.lane_ab, v);
        v.leave();
        v.enter("u_b");
        self.b.probe(&self.p, &tb.b, &ib, &self.lane_ba, v);
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
            v.sig(n[0], 1, b(t.tx_wr));
            v.sig(n[1], 128, t.tx_wdata);
            v.sig(n[2], nv, t.rx_rd as u128);
            v.sig(n[3], 1, b(e.tx_fifo.full()));
            v.sig(n[4], e.tx_fifo.ptr_width(), e.tx_fifo.usedw() as u128);
            v.sig(n[5], nv, e.rx_empty_mask() as u128);
        }
        v.sig("ab_err_mask_i", 64, tb.ab_err_mask as u128);
        v.sig("ba_err_mask_i", 64, tb.ba_err_mask as u128);
    }
}
