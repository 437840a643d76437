//! APElink TCL, TX CTRL plus RX CTRL, as one block: the twin of `rtl/exanet_tcl.sv` (Biagioni
//! 2017 §5.3.4, Figure 5.9, Table 5.3).
//!
//! ```text
//!   router TX packet FIFOs --> u_tx --> PHY lane out     PHY lane in --> u_rx --> router RX packet FIFOs
//!                        ^-------- cred_upd_* ---------------------------'
//! ```
//!
//! The RX hands the peer's credits to the TX (`cred_upd_*`: registers of the RX, wired by
//! [`TxIn::wire`]); the TX reports the occupancy of our RX FIFOs to the peer (`rxf_units`).
//!
//! Cycle contract: that of its halves (`tcl_tx.rs`, `tcl_rx.rs`); the block adds nothing. TCL
//! latency on the hop path is 1 (TX) + 3 (Magic, Start, the header's low half ahead of its last
//! beat) + 2 (RX) = 6 cycles. Both halves are evaluated from this cycle's registers before
//! either commits, so stepping the block is stepping the two halves in any order.
//!
//! Used by the co-simulated node (`src/node/`, `exanet_node`'s `gen_link[q].u_tcl`). The link
//! end (`system.rs`) and the network node (`src/net/node.rs`) step the two halves themselves
//! (the network node skips an idle TX on its own) and probe them with [`probe_halves`], the
//! same walk as this block's.

use super::tcl_rx::{RxEvents, RxIn, TclRx, TclRxIn};
use super::tcl_tx::{pack16, probe_cfg, TclCfg, TclParams, TclTx, TclTxIn, TxEvents, TxIn};
use crate::block::Block;
use crate::probe::{b, clk_rst, Visitor};
use crate::router::InterIn;

/// `exanet_tcl`: the TX CTRL (`u_tx`) and the RX CTRL (`u_rx`) of one link end.
#[derive(Debug, Clone, PartialEq)]
pub struct Tcl {
    pub tx: TclTx,
    pub rx: TclRx,
}

/// The TCL's inputs in a cycle: its parameters and configuration registers, the TX's ports
/// (the router's TX packet FIFOs, the lane's ready, the RX FIFOs' occupancy and the credit
/// update from this TCL's RX: [`TxIn::wire`]) and the incoming lane.
#[derive(Debug, Clone, Copy)]
pub struct TclIn<'a> {
    pub p: &'a TclParams,
    pub cfg: &'a TclCfg,
    pub tx: &'a TxIn,
    pub rx: RxIn,
}

impl<'a> TclIn<'a> {
    fn tx_in(&self) -> TclTxIn<'a> {
        TclTxIn {
            p: self.p,
            cfg: self.cfg,
            port: self.tx,
        }
    }

    fn rx_in(&self) -> TclRxIn<'a> {
        TclRxIn {
            p: self.p,
            cfg: self.cfg,
            port: self.rx,
        }
    }
}

impl Block for Tcl {
    type Spec = TclParams;
    type In<'a> = TclIn<'a>;
    type Next = ((TclTx, TxEvents), (TclRx, RxEvents));
    type Events = (TxEvents, RxEvents);

    fn reset(p: &TclParams) -> Tcl {
        Tcl {
            tx: TclTx::reset(p),
            rx: TclRx::reset(p),
        }
    }

    fn eval(&self, i: &TclIn) -> Self::Next {
        (self.tx.eval(&i.tx_in()), self.rx.eval(&i.rx_in()))
    }

    fn commit(&mut self, (t, r): Self::Next) -> Self::Events {
        (self.tx.commit(t), self.rx.commit(r))
    }

    fn quiet(&self, i: &TclIn) -> bool {
        self.tx.quiet(&i.tx_in()) && self.rx.quiet(&i.rx_in())
    }

    /// Each half built in place: the TX's inputs were taken (`i`) before the RX steps, so the
    /// order is free.
    #[inline]
    fn step_in_place(&mut self, i: &TclIn) -> Self::Events {
        (
            self.tx.step_in_place(&i.tx_in()),
            self.rx.step_in_place(&i.rx_in()),
        )
    }

    fn probe(&self, i: &TclIn, v: &mut dyn Visitor) {
        probe_halves(i.p, i.cfg, &self.tx, &self.rx, i.tx, &i.rx, v);
    }
}

/// What a router's inter-tile port sees of the TCL beside it (`exanet_node`'s wiring, for the
/// node and the network node alike): the RX's writes into the router's RX packet FIFOs, the
/// TX's reads of its TX packet FIFOs, and the TX's credit counts (the router reads those of
/// the VCs there are) and stop bits for the VCT check.
pub fn router_side(tx: &TclTx, rx: &TclRx) -> InterIn {
    InterIn {
        wr_valid: rx.wr_valid,
        wr_hf: rx.wr_hf,
        wr_vc: rx.wr_vc,
        wr_data: rx.wr_data,
        hf_rd: tx.hf_rd,
        pay_rd: tx.pay_rd,
        credit_cnt: tx.credit_cnt,
        credit_stop: tx.credit_stop,
    }
}

/// The ports of `exanet_tcl` and its two halves, in the scope the caller opened: [`Tcl`]'s
/// probe, for a caller that holds the halves apart.
pub fn probe_halves(
    p: &TclParams,
    cfg: &TclCfg,
    tx: &TclTx,
    rx: &TclRx,
    txin: &TxIn,
    rxin: &RxIn,
    v: &mut dyn Visitor,
) {
    let nv = p.num_vcs;
    clk_rst(v);
    probe_cfg(cfg, v);
    v.sig("hf_empty_i", nv, txin.hf_empty as u128);
    v.sig("pay_empty_i", nv, txin.pay_empty as u128);
    for k in 0..nv as usize {
        v.sig_idx("hf_rdata_i", k, 128, txin.hf_rdata[k]);
        v.sig_idx("pay_rdata_i", k, 128, txin.pay_rdata[k]);
    }
    v.sig("hf_rd_o", nv, tx.hf_rd as u128);
    v.sig("pay_rd_o", nv, tx.pay_rd as u128);
    v.sig("tx_ready_i", 1, b(txin.tx_ready));
    v.sig("tx_valid_o", 1, b(tx.out_valid));
    v.sig("tx_data_o", 64, tx.out_data as u128);
    v.sig("rx_valid_i", 1, b(rxin.rx_valid));
    v.sig("rx_data_i", 64, rxin.rx_data as u128);
    v.sig("wr_valid_o", 1, b(rx.wr_valid));
    v.sig("wr_hf_o", 1, b(rx.wr_hf));
    v.sig("wr_vc_o", 3, rx.wr_vc as u128);
    v.sig("wr_data_o", 128, rx.wr_data);
    v.sig("rxf_units_i", nv * 16, txin.rxf_units);
    v.sig(
        "credit_cnt_o",
        nv * 16,
        pack16(&tx.credit_cnt[..nv as usize]),
    );
    v.sig("credit_stop_o", 8, tx.credit_stop as u128);
    v.enter("u_tx");
    tx.probe(&TclTxIn { p, cfg, port: txin }, v);
    v.leave();
    v.enter("u_rx");
    rx.probe(
        &TclRxIn {
            p,
            cfg,
            port: *rxin,
        },
        v,
    );
    v.leave();
}

/// The counters of a TCL's two halves, `u_tx` and `u_rx` (as [`probe_halves`]).
pub fn counters_halves(
    tx: &mut TclTx,
    rx: &mut TclRx,
    v: &mut dyn crate::counters::CounterVisitor,
) {
    use crate::counters::Counters;
    v.enter("u_tx");
    tx.counters(v);
    v.leave();
    v.enter("u_rx");
    rx.counters(v);
    v.leave();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::link::LinkParams;
    use crate::probe::Declarer;

    /// Two TCLs facing each other over wires (no lane): one as the block, one as its two halves
    /// stepped apart in the other order; the block's registers and probe equal the halves'
    /// every cycle, with packets both ways.
    #[test]
    fn the_block_is_its_two_halves_in_either_order() {
        let lp = LinkParams::from_config(&Config::default().link);
        let (p, cfg) = (&lp.tcl, &lp.cfg);
        let mut block = Tcl::reset(p);
        let (mut tx, mut rx) = (TclTx::reset(p), TclRx::reset(p));
        let mut peer = Tcl::reset(p);
        // a header, two payload words and a footer waiting on VC 1 of both TX FIFO views
        let mut sent = 0u32;
        let mut beats = 0u32;
        for c in 0..400u32 {
            let fifo = |v: usize| super::super::tcl_tx::TxFifoView {
                hf_empty: !(v == 1 && sent < 2),
                hf_rdata: 0x40 | (c as u128) << 64,
                pay_empty: !(v == 1 && sent < 2),
                pay_rdata: 0x1234_5678 ^ c as u128,
            };
            let mine = TxIn::wire(&block.rx, true, 0, 2, fifo);
            let theirs = TxIn::wire(&peer.rx, true, 0, 2, fifo);
            let to_me = RxIn {
                rx_valid: peer.tx.out_valid,
                rx_data: peer.tx.out_data,
            };
            let to_peer = RxIn {
                rx_valid: block.tx.out_valid,
                rx_data: block.tx.out_data,
            };
            let bi = TclIn {
                p,
                cfg,
                tx: &mine,
                rx: to_me,
            };
            let (mut d1, mut d2) = (Declarer::default(), Declarer::default());
            block.probe(&bi, &mut d1);
            probe_halves(p, cfg, &tx, &rx, &mine, &to_me, &mut d2);
            assert_eq!(d1.names, d2.names);
            // the halves, RX first
            rx.step_in_place(&TclRxIn {
                p,
                cfg,
                port: to_me,
            });
            tx.step_in_place(&TclTxIn {
                p,
                cfg,
                port: &mine,
            });
            let n = block.eval(&bi);
            block.commit(n);
            peer.step_in_place(&TclIn {
                p,
                cfg,
                tx: &theirs,
                rx: to_peer,
            });
            assert_eq!(block.tx, tx, "TX after cycle {c}");
            assert_eq!(block.rx, rx, "RX after cycle {c}");
            beats += block.tx.out_valid as u32;
            sent += (block.tx.hf_rd & 2 != 0) as u32;
        }
        assert!(beats > 8, "{beats} beats sent");
        assert!(sent >= 2, "{sent} header/footer words read");
    }
}
