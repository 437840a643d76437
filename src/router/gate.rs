//! APErouter switch gate: one per crossbar input (an intra-tile port, or an inter-tile port's
//! VC), with the packet FIFO it reads (Biagioni 2017 §5.3.3, "Switch Gate ... manages the data flow
//! preventing FIFOs overflow and guarantees proper transmission of the packet").
//!
//! ```text
//!   writer --> u_fifo (header/footer + payload) --> gate: IDLE -> ROUTE -> REQ -> WAIT -> XFER -> EOP -> IDLE
//!                                                         hdr_q   route_q  req_q  grant   xin_q (to the crossbar)
//! ```
//!
//! One packet at a time, in these named stages (cycle numbers for a header written into the
//! FIFO in cycle 0 of an idle router; `docs/router.md`):
//! - 3 HDR: the header at the FIFO head (show-ahead, L_F = 3) is copied into `hdr_q`;
//! - 4 ROUTE: dimension-order routing of `hdr_q` (`route.rs`) into `out_q`, `ovc_q`, `words_q`;
//! - 5 REQ: `req_q` raised towards the output's arbiter;
//! - 6 ARB: (the output's arbiter grants, `output.rs`);
//! - 7 ACCEPT: the gate sees the grant and goes to XFER;
//!   (network runs only, no RTL twin: with a routing function that adapts, ROUTE picks among
//!   the outputs that are free and have room for the packet, and a gate waiting for such an
//!   adaptive choice goes back to ROUTE in a cycle its output has no room for it, so that a
//!   packet waits only for its last-resort hop, `src/net/adapter.rs`;)
//! - 8 READ: the header is popped, its VC rewritten for an inter-tile output (ECC re-encoded),
//!   and put in the crossbar input register `xin_q`; then one word a cycle (payload from the
//!   payload FIFO as it arrives, then the footer) until the footer;
//! - EOP: the gate waits until its footer has been written into the output FIFO (it sees the
//!   output's write register) before it looks at the next header: the APErouter's pipeline is not
//!   overlapped across packets of one gate (Biagioni 2017 §5.4.2, "the not optimized pipeline").
//!
//! A packet that cannot be routed is read out of the FIFO and discarded, counted in
//! `stat_drops_q` with its reason in `drop_reason_q`. The FIFO's read strobes are driven by the
//! gate within the cycle (the FIFO is part of the gate's block), so the gate streams one word a
//! cycle.
//!
//! RTL twin: `rtl/exanet_rt_in.sv`.

use super::params::{RouterCfg, RouterParams, Slot};
use super::route::{route, Route, RouteFn};
use crate::block::{self, Block};
use crate::packet::layout::HDR_ROUTE;
use crate::packet::{payload_words, secded_encode};
use crate::pktfifo::{PktFifo, PktFifoIn, PktFifoNext, PktFifoParams};
use crate::probe::{b, clk_rst, Visitor};

/// Gate states (`state_q`, `S_*`) and word kinds (`kind_q`, `K_*`), from the one table shared
/// with the RTL and the waves.
pub use crate::wave::states::gate_kind::*;
pub use crate::wave::states::gate_state::*;

crate::registers! {
    /// The gate's registers (`exanet_rt_in`'s `_q`).
    pub struct Gate(s: &SlotSpec) {
        state: u8 [3],
        hdr: u128 [128],
        out: u32 [8],
        ovc: u8 [3],
        words: u32 [13],
        req: bool [1],
        kind: u8 [2],
        left: u32 [13],
        xin_valid: bool [1],
        xin_data: u128 [128],
        xin_hf: bool [1],
        xin_last: bool [1],
        xin_out: u32 [8],
        drop_reason: u8 [2],
        stat_pkts: u32 [32],
        stat_words: u32 [32],
        stat_drops: u32 [32],
    }
    model {
        /// Network routing only, no RTL twin (the RTL routes by the APErouter's DOR): the
        /// output was an adaptive choice, so the gate routes the packet again if it has no
        /// room there while the gate waits (`GateIn::no_room`).
        retry: bool,
    }
}

/// An input slot: the gate and the packet FIFO it reads.
#[derive(Debug, Clone)]
pub struct InSlot {
    pub index: u32,
    pub gate: Gate,
    pub fifo: PktFifo,
}

/// What the gate sees this cycle besides its own registers (all register outputs).
#[derive(Debug, Clone, Copy, Default)]
pub struct GateIn {
    /// The FIFO's write side (from the port's writer).
    pub wr_hf: bool,
    pub wr_pay: bool,
    pub wdata: u128,
    /// The port this slot belongs to is enabled.
    pub enabled: bool,
    /// An output's arbiter grants this slot this cycle.
    pub granted: bool,
    /// This slot's footer is in an output's write register this cycle.
    pub eop: bool,
    /// Bit s: output slot s is free this cycle (not owned, no grant pending) and, for a routing
    /// function that adapts, has room for this gate's packet; only such functions look at it.
    pub free: u64,
    /// The output this gate requests has no room for its packet this cycle, so its arbiter
    /// cannot grant it (computed only for a gate waiting with `retry`).
    pub no_room: bool,
}

pub struct InSlotNext {
    gate: Gate,
    fifo: PktFifoNext,
}

/// The gate's output ports every output slot reads (`exanet_rt_in`'s `req_o` ... `xin_out_o`,
/// the router's `gate_*` buses): functions of its registers, so an output reads them as they
/// are in this cycle whatever has committed since.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GatePorts {
    pub req: bool,
    pub out: u32,
    pub words: u32,
    pub xin_valid: bool,
    pub xin_data: u128,
    pub xin_hf: bool,
    pub xin_last: bool,
    pub xin_out: u32,
}

/// What a router slot (input or output) is built from: its crossbar index and its FIFO.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotSpec {
    pub index: u32,
    pub fifo: PktFifoParams,
}

/// An input slot's inputs in a cycle: the router's parameters and configuration, the network's
/// routing function (None: the APErouter's dimension-order routing, `route.rs`), its ports.
#[derive(Clone, Copy)]
pub struct InSlotIn<'a> {
    pub p: &'a RouterParams,
    pub cfg: &'a RouterCfg,
    pub routing: Option<&'a dyn RouteFn>,
    pub port: GateIn,
}

/// The header as it leaves through `out`: an inter-tile output carries the VC of the route and
/// the `route` field the routing function left in the gate's header register (the word's own
/// with the APErouter's DOR), with its SECDED code computed again.
pub fn rewrite_header(hdr: u128, p: &RouterParams, out: u32, ovc: u8, routed: u128) -> u128 {
    match p.slot(out) {
        Slot::Inter(..) => {
            let keep = !(0x7 | HDR_ROUTE.mask());
            secded_encode((hdr & keep) | ovc as u128 | (routed & HDR_ROUTE.mask()))
        }
        Slot::Intra(_) => hdr,
    }
}

impl InSlot {
    pub fn new(index: u32, p: &RouterParams) -> InSlot {
        InSlot::reset(&SlotSpec {
            index,
            fifo: p.fifo_in(index),
        })
    }

    /// What the slot was built from.
    pub fn spec(&self) -> SlotSpec {
        SlotSpec {
            index: self.index,
            fifo: self.fifo.params(),
        }
    }

    /// The gate's output ports towards the outputs (`GatePorts`).
    #[inline]
    pub fn ports(&self) -> GatePorts {
        let g = &self.gate;
        GatePorts {
            req: g.req,
            out: g.out,
            words: g.words,
            xin_valid: g.xin_valid,
            xin_data: g.xin_data,
            xin_hf: g.xin_hf,
            xin_last: g.xin_last,
            xin_out: g.xin_out,
        }
    }

    /// Nothing in flight and no header to take: with no write into the FIFO, the next cycle
    /// changes nothing (`Block::quiet` adds the write).
    pub fn quiet_but_writes(&self, enabled: bool) -> bool {
        let g = &self.gate;
        g.state == S_IDLE
            && !g.xin_valid
            && !g.xin_last
            && (!enabled || self.fifo.hf.empty())
            && self.fifo.settled()
    }

    /// The gate's next registers written into `n` (a copy of `g`), from this cycle's: slot
    /// `index`'s gate registers `g` and FIFO `f`; and the FIFO's strobes.
    #[inline]
    fn next(
        (index, g, f): (u32, &Gate, &PktFifo),
        p: &RouterParams,
        cfg: &RouterCfg,
        routing: Option<&dyn RouteFn>,
        i: &GateIn,
        n: &mut Gate,
    ) -> PktFifoIn {
        let hf_avail = !f.hf.empty();
        let fi = Self::fifo_in_of(g, f, i);
        n.xin_valid = false;
        n.xin_last = false;
        match g.state {
            S_IDLE => {
                if i.enabled && hf_avail {
                    n.hdr = f.hf.rdata();
                    n.state = S_ROUTE;
                }
            }
            S_ROUTE => match routing.map_or_else(
                || (route(g.hdr, p, cfg, true), None, false),
                |f| f.route(g.hdr, index, i.free),
            ) {
                (Route::Out { slot, vc }, state, retry) => {
                    if let Some(st) = state {
                        n.hdr = HDR_ROUTE.set(g.hdr, st as u64);
                    }
                    n.retry = retry;
                    n.out = slot;
                    n.ovc = vc;
                    n.words = payload_words(g.hdr, p.size_in_words);
                    n.state = S_REQ;
                }
                (Route::Drop(r), _, _) => {
                    n.drop_reason = r as u8;
                    n.kind = K_HDR;
                    n.left = payload_words(g.hdr, p.size_in_words);
                    n.stat_drops = g.stat_drops.wrapping_add(1);
                    n.state = S_DROP;
                }
            },
            S_REQ => {
                n.req = true;
                n.state = S_WAIT;
            }
            S_WAIT => {
                if i.granted {
                    n.req = false;
                    n.retry = false;
                    n.kind = K_HDR;
                    n.left = g.words;
                    n.state = S_XFER;
                } else if g.retry && i.no_room {
                    // An adaptive choice without room: route again (the arbiter cannot grant
                    // this cycle, it sees the same room). The header, still at the FIFO head,
                    // brings back the route field it arrived with.
                    n.req = false;
                    n.retry = false;
                    n.hdr = f.hf.rdata();
                    n.state = S_ROUTE;
                }
            }
            S_XFER | S_DROP => {
                let xfer = g.state == S_XFER;
                let (word, hf) = match g.kind {
                    K_HDR => (rewrite_header(f.hf.rdata(), p, g.out, g.ovc, g.hdr), true),
                    K_PAY => (f.pay.rdata(), false),
                    _ => (f.hf.rdata(), true),
                };
                if fi.rd_hf || fi.rd_pay {
                    let last = g.kind == K_FTR;
                    match g.kind {
                        K_HDR => n.kind = if g.left > 0 { K_PAY } else { K_FTR },
                        K_PAY => {
                            n.left = g.left - 1;
                            if g.left == 1 {
                                n.kind = K_FTR;
                            }
                        }
                        _ => n.kind = K_HDR,
                    }
                    if xfer {
                        n.xin_valid = true;
                        n.xin_data = word;
                        n.xin_hf = hf;
                        n.xin_last = last;
                        n.xin_out = g.out;
                        n.stat_words = g.stat_words.wrapping_add(1);
                        if last {
                            n.stat_pkts = g.stat_pkts.wrapping_add(1);
                            n.state = S_EOP;
                        }
                    } else if last {
                        n.state = S_IDLE;
                    }
                }
            }
            S_EOP => {
                if i.eop {
                    n.state = S_IDLE;
                }
            }
            _ => unreachable!("gate state is one of the seven"),
        }
        fi
    }

    /// The FIFO's strobes this cycle: the writer's write port, and the gate's pop of the word
    /// its stage needs (header, payload or footer) when the FIFO shows one (XFER and DROP).
    #[inline]
    fn fifo_in(&self, i: &GateIn) -> PktFifoIn {
        Self::fifo_in_of(&self.gate, &self.fifo, i)
    }

    #[inline]
    fn fifo_in_of(g: &Gate, f: &PktFifo, i: &GateIn) -> PktFifoIn {
        let popping = g.state == S_XFER || g.state == S_DROP;
        let (rd_hf, rd_pay) = match g.kind {
            K_PAY => (false, popping && !f.pay.empty()),
            _ => (popping && !f.hf.empty(), false),
        };
        PktFifoIn {
            wr_hf: i.wr_hf,
            wr_pay: i.wr_pay,
            wdata: i.wdata,
            rd_hf,
            rd_pay,
        }
    }
}

impl Block for InSlot {
    type Spec = SlotSpec;
    type In<'a> = InSlotIn<'a>;
    type Next = InSlotNext;
    type Events = ();

    fn reset(s: &SlotSpec) -> InSlot {
        InSlot {
            index: s.index,
            gate: Gate::reset_regs(s),
            fifo: PktFifo::reset(&s.fifo),
        }
    }

    #[inline]
    fn eval(&self, i: &InSlotIn) -> InSlotNext {
        let (gate, fi) = block::eval_by_copy(&self.gate, |now, n| {
            Self::next(
                (self.index, now, &self.fifo),
                i.p,
                i.cfg,
                i.routing,
                &i.port,
                n,
            )
        });
        InSlotNext {
            gate,
            fifo: self.fifo.eval(&fi),
        }
    }

    #[inline]
    fn commit(&mut self, n: InSlotNext) {
        self.gate = n.gate;
        self.fifo.commit(n.fifo);
    }

    /// The same `next` as `eval`, written into the registers in place, and each FIFO half
    /// stepped on its own (`PktFifo::step`): one copy of the registers instead of three.
    #[inline]
    fn step_in_place(&mut self, i: &InSlotIn) {
        let (index, fifo) = (self.index, &self.fifo);
        let fi = block::step_by_copy(&mut self.gate, |now, n| {
            Self::next((index, now, fifo), i.p, i.cfg, i.routing, &i.port, n)
        });
        self.fifo.step(&fi);
    }

    #[inline]
    fn quiet(&self, i: &InSlotIn) -> bool {
        self.quiet_but_writes(i.port.enabled) && !i.port.wr_hf && !i.port.wr_pay
    }

    fn probe(&self, i: &InSlotIn, v: &mut dyn Visitor) {
        let (g, port) = (&self.gate, &i.port);
        clk_rst(v);
        v.sig("wr_hf_i", 1, b(port.wr_hf));
        v.sig("wr_pay_i", 1, b(port.wr_pay));
        v.sig("wdata_i", 128, port.wdata);
        v.sig("enabled_i", 1, b(port.enabled));
        v.sig("granted_i", 1, b(port.granted));
        v.sig("eop_i", 1, b(port.eop));
        g.probe_regs(&self.spec(), v);
        v.enter("u_fifo");
        self.fifo.probe(&self.fifo_in(port), v);
        v.leave();
    }
}

impl crate::counters::Counters for InSlot {
    fn counters(&mut self, v: &mut dyn crate::counters::CounterVisitor) {
        v.counter("stat_pkts_q", &mut self.gate.stat_pkts);
        v.counter("stat_words_q", &mut self.gate.stat_words);
        v.counter("stat_drops_q", &mut self.gate.stat_drops);
    }
}
