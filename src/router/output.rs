//! APErouter output slot: the arbiter of one crossbar output (an intra-tile port's RX side, or an
//! inter-tile port's VC), the crossbar and write stages, and the output packet FIFO (Biagioni 2017
//! §5.3.3: "Arbiter ... Round Robin or Fixed Priority"; virtual cut-through).
//!
//! ```text
//!   gates' req_q --> arbiter (VCT room check, RR/fixed) --> grant_q --> the winning gate
//!   gates' xin_q --> xout_q (crossbar, selected by owner_q) --> owr_q (write port) --> u_fifo --> reader
//! ```
//!
//! Stages (cycle numbers of a header written into an input FIFO in cycle 0, `docs/router.md`):
//! 6 ARB (`grant_q`), 9 XBAR (`xout_q`), 10 WRITE (`owr_q`); the output FIFO sees `wr_*_i` in 11.
//!
//! Virtual cut-through: a request is granted only when the output is free and the whole packet
//! has room downstream:
//! - in the output packet FIFO: header/footer FIFO free space (minus words already granted and
//!   not yet written, `resv_hf_q`) of at least 2, payload FIFO free space (minus `resv_pay_q`) of
//!   at least the packet's payload words;
//! - for an inter-tile output, in the neighbour's RX packet FIFO of this VC, known through the
//!   link's credits: with usedword credits, the TCL's estimate of the neighbour's free units
//!   minus TRED, minus the units granted to this VC and not yet taken by the TCL (`inflight_q`),
//!   must cover the packet's cost (payload words + 2 x SCALE); with start/stop credits only the
//!   VC's stop bit is known, so it must be clear (docs/decisions/0007).
//!
//! The output is released in the cycle the owner's footer leaves its gate (`xin_q` holds the
//! footer), so another gate can be granted in that same cycle.
//!
//! RTL twin: `rtl/exanet_rt_out.sv`.

use super::gate::{GatePorts, SlotSpec};
use super::params::{RouterCfg, RouterParams, Slot};
use crate::block::{self, Block};
use crate::pktfifo::{PktFifo, PktFifoIn, PktFifoNext};
use crate::probe::{b, clk_rst, Visitor};

crate::registers! {
    /// The output slot's registers (`exanet_rt_out`'s `_q`).
    pub struct OutRegs(s: &SlotSpec) {
        busy: bool [1],
        owner: u32 [8],
        rr: u32 [8],
        grant_valid: bool [1],
        grant_in: u32 [8],
        resv_hf: u32 [16],
        resv_pay: u32 [16],
        inflight: u32 [16],
        xout_valid: bool [1],
        xout_data: u128 [128],
        xout_hf: bool [1],
        xout_last: bool [1],
        xout_src: u32 [8],
        owr_valid: bool [1],
        owr_data: u128 [128],
        owr_hf: bool [1],
        owr_last: bool [1],
        owr_src: u32 [8],
        stat_pkts: u32 [32],
        stat_words: u32 [32],
    }
}

#[derive(Debug, Clone)]
pub struct OutSlot {
    pub index: u32,
    pub r: OutRegs,
    pub fifo: PktFifo,
}

/// What an output slot sees besides the gates' registers.
#[derive(Debug, Clone, Copy, Default)]
pub struct OutIn {
    /// The reader's pops (the PS side or the self-test consumer; the TCL TX for inter-tile).
    pub rd_hf: bool,
    pub rd_pay: bool,
    /// Inter-tile only: the TCL's estimate of the neighbour's free units on this VC, and the
    /// VC's stop bit (start/stop credits).
    pub credit_cnt: u32,
    pub credit_stop: bool,
}

pub struct OutSlotNext {
    r: OutRegs,
    fifo: PktFifoNext,
}

/// An output slot's inputs in a cycle: the router's parameters and configuration, every gate's
/// output ports (the RTL's `gate_*_i`), which gates request this output (bit k: gate k's
/// `req_o` is high and its `out_o` is this output, a summary the caller keeps so that
/// arbitration looks only at the gates that request), and its own ports.
#[derive(Clone, Copy)]
pub struct OutSlotIn<'a> {
    pub p: &'a RouterParams,
    pub cfg: &'a RouterCfg,
    pub gates: &'a [GatePorts],
    pub requests: u64,
    pub port: OutIn,
}

impl OutSlot {
    pub fn new(index: u32, p: &RouterParams) -> OutSlot {
        OutSlot::reset(&SlotSpec {
            index,
            fifo: p.fifo_out(index),
        })
    }

    /// What the slot was built from.
    pub fn spec(&self) -> SlotSpec {
        SlotSpec {
            index: self.index,
            fifo: self.fifo.params(),
        }
    }

    /// Room downstream for a packet of `words` payload words, with output `index`'s registers
    /// `r` and FIFO `f`: the arbiter grants only a request with room (virtual cut-through).
    #[inline]
    fn room(
        (index, r, f): (u32, &OutRegs, &PktFifo),
        p: &RouterParams,
        cfg: &RouterCfg,
        i: &OutIn,
        words: u32,
    ) -> bool {
        let fp = f.params();
        let hf_free = fp.hf_depth as i64 - f.hf.usedw() as i64 - r.resv_hf as i64;
        let pay_free = fp.pay_depth as i64 - f.pay.usedw() as i64 - r.resv_pay as i64;
        let local = hf_free >= 2 && pay_free >= words as i64;
        local && Self::credit((index, r), p, cfg, i, words)
    }

    /// The downstream half of the room test: the link's credit covers a packet of `words`
    /// payload words (always, for an intra-tile output).
    #[inline]
    fn credit(
        (index, r): (u32, &OutRegs),
        p: &RouterParams,
        cfg: &RouterCfg,
        i: &OutIn,
        words: u32,
    ) -> bool {
        match p.slot(index) {
            Slot::Intra(_) => true,
            Slot::Inter(..) => {
                if cfg.usedword {
                    let cost = words + 2 * p.remote_scale();
                    i.credit_cnt as i64 >= cfg.tred as i64 + r.inflight as i64 + cost as i64
                } else {
                    !i.credit_stop
                }
            }
        }
    }

    /// Whether the link's credit covers a packet of `words` payload words this cycle (the
    /// downstream half of the arbiter's room test; observers ask, the network view's credit
    /// stop and go).
    pub fn credit_covers(&self, p: &RouterParams, cfg: &RouterCfg, i: &OutIn, words: u32) -> bool {
        Self::credit((self.index, &self.r), p, cfg, i, words)
    }

    /// Whether the arbiter would find room for a packet of `words` payload words this cycle
    /// (the network's adaptive routing asks before it picks an output, and while it waits).
    #[inline]
    pub fn room_for(&self, p: &RouterParams, cfg: &RouterCfg, i: &OutIn, words: u32) -> bool {
        Self::room((self.index, &self.r, &self.fifo), p, cfg, i, words)
    }

    /// The next registers written into `n` (a copy of `r`), from this cycle's: output `me`'s
    /// registers `r` and FIFO `f`; and the FIFO's strobes.
    #[inline]
    fn next(
        (me, r, f): (u32, &OutRegs, &PktFifo),
        p: &RouterParams,
        cfg: &RouterCfg,
        gates: &[GatePorts],
        requests: u64,
        i: &OutIn,
        n: &mut OutRegs,
    ) -> PktFifoIn {
        let is_inter = matches!(p.slot(me), Slot::Inter(..));

        // Crossbar: the owner's word, if it is one for this output.
        let o = &gates[r.owner as usize];
        let owner_word = r.busy && o.xin_valid && o.xin_out == me;
        n.xout_valid = owner_word;
        n.xout_data = if owner_word { o.xin_data } else { 0 };
        n.xout_hf = owner_word && o.xin_hf;
        n.xout_last = owner_word && o.xin_last;
        n.xout_src = if owner_word { r.owner } else { 0 };
        // Write stage.
        n.owr_valid = r.xout_valid;
        n.owr_data = r.xout_data;
        n.owr_hf = r.xout_hf;
        n.owr_last = r.xout_last;
        n.owr_src = r.xout_src;
        if r.owr_valid {
            n.stat_words = r.stat_words.wrapping_add(1);
            if r.owr_last {
                n.stat_pkts = r.stat_pkts.wrapping_add(1);
            }
        }
        // Reservations shrink as reserved words are written.
        let mut resv_hf = r.resv_hf - (r.owr_valid && r.owr_hf) as u32;
        let mut resv_pay = r.resv_pay - (r.owr_valid && !r.owr_hf) as u32;
        // Units granted to this VC leave as the TCL pops them.
        let mut inflight = r.inflight;
        if is_inter {
            let popped = if i.rd_hf { p.remote_scale() } else { 0 } + i.rd_pay as u32;
            inflight = inflight.saturating_sub(popped);
        }

        // Arbitration.
        let free = !r.busy || (o.xin_valid && o.xin_last && o.xin_out == me);
        let nin = gates.len() as u32;
        // The first requesting gate with room, in arbitration order: from `rr` on, wrapping
        // (round robin), or from gate 0 (fixed). Only the requesting gates are looked at.
        let start = if cfg.arb_fixed { 0 } else { r.rr % nin };
        let below = (1u64 << start) - 1;
        let first_with_room = |mut m: u64| {
            while m != 0 {
                let k = m.trailing_zeros();
                if Self::room((me, r, f), p, cfg, i, gates[k as usize].words) {
                    return Some(k);
                }
                m &= m - 1;
            }
            None
        };
        let winner = if free {
            first_with_room(requests & !below).or_else(|| first_with_room(requests & below))
        } else {
            None // (not used)
        };
        n.grant_valid = false;
        n.grant_in = 0;
        match (free, winner) {
            (true, Some(w)) => {
                let g = &gates[w as usize];
                n.grant_valid = true;
                n.grant_in = w;
                n.busy = true;
                n.owner = w;
                n.rr = if w + 1 == nin { 0 } else { w + 1 };
                resv_hf += 2;
                resv_pay += g.words;
                if is_inter {
                    inflight += g.words + 2 * p.remote_scale();
                }
            }
            (true, None) => n.busy = false,
            _ => {}
        }
        n.resv_hf = resv_hf;
        n.resv_pay = resv_pay;
        n.inflight = inflight;

        PktFifoIn {
            wr_hf: r.owr_valid && r.owr_hf,
            wr_pay: r.owr_valid && !r.owr_hf,
            wdata: r.owr_data,
            rd_hf: i.rd_hf,
            rd_pay: i.rd_pay,
        }
    }

    /// Bit k: gate k requests output `me` (the `requests` of `OutSlotIn`).
    pub fn requests(gates: &[GatePorts], me: u32) -> u64 {
        gates
            .iter()
            .enumerate()
            .fold(0, |m, (k, g)| m | (((g.req && g.out == me) as u64) << k))
    }

    /// Nothing in flight and nothing to arbitrate: with no request for this output and no pop
    /// by its reader, the next cycle changes nothing (the engine may skip it).
    /// No grant, nothing in the crossbar and write registers, the FIFO settled: with no pop,
    /// the next cycle changes nothing if the slot is busy and its owner presents no word for
    /// it, or if it is free and no gate requests it (model only: the scheduler's hint).
    pub fn still(&self) -> bool {
        let r = &self.r;
        !r.grant_valid && !r.xout_valid && !r.owr_valid && self.fifo.settled()
    }

    pub fn quiet(&self) -> bool {
        let r = &self.r;
        !r.busy
            && !r.grant_valid
            && !r.xout_valid
            && !r.owr_valid
            && r.resv_hf == 0
            && r.resv_pay == 0
            && r.inflight == 0
            && self.fifo.settled()
    }
}

impl Block for OutSlot {
    type Spec = SlotSpec;
    type In<'a> = OutSlotIn<'a>;
    type Next = OutSlotNext;
    type Events = ();

    fn reset(s: &SlotSpec) -> OutSlot {
        OutSlot {
            index: s.index,
            r: OutRegs::reset_regs(s),
            fifo: PktFifo::reset(&s.fifo),
        }
    }

    #[inline]
    fn eval(&self, i: &OutSlotIn) -> OutSlotNext {
        let (r, fi) = block::eval_by_copy(&self.r, |now, n| {
            let x = (self.index, now, &self.fifo);
            Self::next(x, i.p, i.cfg, i.gates, i.requests, &i.port, n)
        });
        OutSlotNext {
            r,
            fifo: self.fifo.eval(&fi),
        }
    }

    #[inline]
    fn commit(&mut self, n: OutSlotNext) {
        self.r = n.r;
        self.fifo.commit(n.fifo);
    }

    /// The same `next` as `eval`, written into the registers in place, and each FIFO half
    /// stepped on its own (`PktFifo::step`): one copy of the registers instead of three.
    #[inline]
    fn step_in_place(&mut self, i: &OutSlotIn) {
        let (index, fifo) = (self.index, &self.fifo);
        let fi = block::step_by_copy(&mut self.r, |now, n| {
            Self::next(
                (index, now, fifo),
                i.p,
                i.cfg,
                i.gates,
                i.requests,
                &i.port,
                n,
            )
        });
        self.fifo.step(&fi);
    }

    /// Quiet (`OutSlot::quiet`), no gate requests it and its reader pops nothing.
    #[inline]
    fn quiet(&self, i: &OutSlotIn) -> bool {
        self.quiet() && i.requests == 0 && !i.port.rd_hf && !i.port.rd_pay
    }

    fn probe(&self, i: &OutSlotIn, v: &mut dyn Visitor) {
        let (r, i) = (&self.r, &i.port);
        clk_rst(v);
        v.sig("rd_hf_i", 1, b(i.rd_hf));
        v.sig("rd_pay_i", 1, b(i.rd_pay));
        v.sig("credit_cnt_i", 16, i.credit_cnt as u128);
        v.sig("credit_stop_i", 1, b(i.credit_stop));
        r.probe_regs(&self.spec(), v);
        let fi = PktFifoIn {
            wr_hf: r.owr_valid && r.owr_hf,
            wr_pay: r.owr_valid && !r.owr_hf,
            wdata: r.owr_data,
            rd_hf: i.rd_hf,
            rd_pay: i.rd_pay,
        };
        v.enter("u_fifo");
        self.fifo.probe(&fi, v);
        v.leave();
    }
}

impl crate::counters::Counters for OutSlot {
    fn counters(&mut self, v: &mut dyn crate::counters::CounterVisitor) {
        v.counter("stat_pkts_q", &mut self.r.stat_pkts);
        v.counter("stat_words_q", &mut self.r.stat_words);
    }
}
