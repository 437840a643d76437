//! The APErouter (Biagioni 2017 §5.3.3, Figure 5.6; Pisani 2016 §2.3, §3.4.2): switch ports with packet
//! FIFOs, one switch gate per crossbar input, routing logic, one arbiter per crossbar output, the
//! crossbar. See `docs/router.md` for the pipeline, stage by stage.
//!
//! ```text
//!   intra-tile port p, TX side (from the PS) --> gen_in[p].u_in  (FIFO + gate) --+
//!   inter-tile port q VC v, RX side (TCL RX) --> gen_in[s].u_in  (FIFO + gate) --+--> crossbar
//!                                                                                 |
//!   intra-tile port p, RX side (to the PS)   <-- gen_out[p].u_out (arbiter + FIFO) <-+
//!   inter-tile port q VC v, TX side (TCL TX) <-- gen_out[s].u_out (arbiter + FIFO) <-+
//! ```
//!
//! Crossbar slots are numbered intra-tile ports first, then inter-tile port q VC v at
//! `n_intra + q * num_vcs + v`. The header of a packet written into an input FIFO in cycle 0 of an
//! idle router is written into its output FIFO in cycle 11, on every path.
//!
//! RTL twin: `rtl/exanet_router.sv` (with `exanet_rt_in`, `exanet_rt_out`).

pub mod bench;
pub mod cdg;
pub mod gate;
pub mod output;
pub mod params;
pub mod route;
pub mod sched;

use crate::block::Block;
use crate::pktfifo::PktFifo;
use crate::probe::{b, clk_rst, Visitor};
use gate::{GateIn, GatePorts, InSlot, InSlotIn, InSlotNext, S_ROUTE, S_WAIT};
use output::{OutIn, OutSlot, OutSlotIn, OutSlotNext};
use params::{RouterCfg, RouterParams, Slot, MAX_INTER, MAX_INTRA};

/// One intra-tile port's side of a cycle: its TX FIFO's write port (from the processing system
/// or a traffic generator) and its RX FIFO's read strobes (the PS or a consumer). Registers of
/// the driver.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IntraIn {
    pub wr_hf: bool,
    pub wr_pay: bool,
    pub wdata: u128,
    pub rd_hf: bool,
    pub rd_pay: bool,
}

/// One inter-tile port's side of a cycle: the TCL RX's write port into the RX FIFOs, the TCL TX's
/// pops of the TX FIFOs (bit v: VC v), and the TCL TX's credit state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InterIn {
    pub wr_valid: bool,
    pub wr_hf: bool,
    pub wr_vc: u8,
    pub wr_data: u128,
    pub hf_rd: u8,
    pub pay_rd: u8,
    pub credit_cnt: [u32; 8],
    pub credit_stop: u8,
}

/// Everything the router sees from outside in a cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RouterIn {
    pub cfg: RouterCfg,
    pub intra: [IntraIn; MAX_INTRA],
    pub inter: [InterIn; MAX_INTER],
}

pub struct Router {
    pub p: RouterParams,
    pub ins: Vec<InSlot>,
    /// `None` for the RX side of a TX-only intra-tile port.
    pub outs: Vec<Option<OutSlot>>,
    /// Every gate's output ports (`InSlot::ports`) as of this cycle: the RTL's `gate_*` buses
    /// every output reads. Brought up to date after gates commit (`refresh_marks`, `sched.rs`).
    gate_ports: Vec<GatePorts>,
    /// A network routing function replacing the APErouter's dimension-order routing
    /// (`with_routing`).
    routing: Option<std::sync::Arc<dyn route::RouteFn>>,
    /// `routing` adapts (`RouteFn::adapts`), kept so that the scheduler does not ask every cycle.
    adapts: bool,
    /// The scheduler's view of the slots (`sched.rs`: model only, no RTL twin), kept up to date
    /// as slots commit.
    sched: sched::Sched,
}

pub struct RouterNext {
    ins: Vec<InSlotNext>,
    outs: Vec<Option<OutSlotNext>>,
}

/// Generated scope names (static: probing is on the hot path).
pub const GEN_IN: [&str; 64] = crate::gen_names!("gen_in");
const GEN_OUT: [&str; 64] = crate::gen_names!("gen_out");

impl Router {
    pub fn new(p: RouterParams) -> Router {
        Router::reset(&p)
    }

    /// The asynchronous reset of `exanet_router` (`rst_ni` low between two edges): every slot's
    /// registers to their reset values, the FIFOs' block RAMs keeping their contents
    /// ([`PktFifo::async_reset`](crate::pktfifo::PktFifo::async_reset)); the parameters and a
    /// routing function stay.
    pub fn async_reset(&mut self) {
        let mut old = std::mem::replace(self, Router::reset(&self.p));
        self.routing = old.routing.take();
        self.adapts = old.adapts;
        for (s, o) in self.ins.iter_mut().zip(old.ins) {
            s.fifo = o.fifo;
            s.fifo.async_reset();
        }
        for (s, o) in self.outs.iter_mut().zip(old.outs) {
            if let (Some(s), Some(o)) = (s, o) {
                s.fifo = o.fifo;
                s.fifo.async_reset();
            }
        }
        self.refresh_marks();
    }

    /// A router whose ROUTE stage asks `f` instead of the APErouter's dimension-order routing.
    pub fn with_routing(p: RouterParams, f: std::sync::Arc<dyn route::RouteFn>) -> Router {
        let mut r = Router::new(p);
        r.adapts = f.adapts();
        r.routing = Some(f);
        r
    }

    /// Replace the routing function (a fault manager's recomputed tables, `net/faults.rs`);
    /// a header routed from the next cycle on asks `f`.
    pub fn set_routing(&mut self, f: std::sync::Arc<dyn route::RouteFn>) {
        self.adapts = f.adapts();
        self.routing = Some(f);
    }

    /// Bit s: output slot s is free (not owned, no grant pending). Only a routing function that
    /// adapts needs it.
    fn free_outputs(&self) -> u64 {
        if self.routing.is_none() {
            return 0;
        }
        self.outs
            .iter()
            .flatten()
            .filter(|o| !o.r.busy && !o.r.grant_valid)
            .fold(0u64, |m, o| m | 1 << o.index)
    }

    /// The RX packet FIFO of intra-tile port `p` (None if TX-only).
    pub fn intra_rx(&self, p: u32) -> Option<&PktFifo> {
        self.outs[self.p.intra_slot(p) as usize]
            .as_ref()
            .map(|o| &o.fifo)
    }

    /// The TX packet FIFO of intra-tile port `p`.
    pub fn intra_tx(&self, p: u32) -> &PktFifo {
        &self.ins[self.p.intra_slot(p) as usize].fifo
    }

    /// The TX packet FIFO of inter-tile port `q`, VC `v` (read by the TCL TX).
    pub fn inter_tx(&self, q: u32, v: u32) -> &PktFifo {
        &self.outs[self.p.inter_slot(q, v) as usize]
            .as_ref()
            .expect("inter-tile outputs exist")
            .fifo
    }

    /// The RX packet FIFO of inter-tile port `q`, VC `v` (written by the TCL RX).
    pub fn inter_rx(&self, q: u32, v: u32) -> &PktFifo {
        &self.ins[self.p.inter_slot(q, v) as usize].fifo
    }

    fn gate_in(&self, s: u32, i: &RouterIn) -> GateIn {
        self.gate_in_with(s, i, self.grant_eop())
    }

    /// Bit s of the first mask: an output grants slot s this cycle; of the second: slot s's
    /// footer is in an output's write register.
    fn grant_eop(&self) -> (u64, u64) {
        let (mut g, mut e) = (0u64, 0u64);
        for o in self.outs.iter().flatten() {
            if o.r.grant_valid {
                g |= 1 << o.r.grant_in;
            }
            if o.r.owr_valid && o.r.owr_last {
                e |= 1 << o.r.owr_src;
            }
        }
        (g, e)
    }

    // (inline: built for every gate stepped, a few a cycle, and read at once; as a call it cost
    // more than its body, measured)
    #[inline(always)]
    fn gate_in_with(&self, s: u32, i: &RouterIn, (granted, eop): (u64, u64)) -> GateIn {
        let (wr_hf, wr_pay, wdata, enabled) = match self.p.slot(s) {
            Slot::Intra(p) => {
                let x = &i.intra[p as usize];
                (x.wr_hf, x.wr_pay, x.wdata, i.cfg.intra_en & (1 << p) != 0)
            }
            Slot::Inter(q, v) => {
                let x = &i.inter[q as usize];
                let mine = x.wr_valid && x.wr_vc == v;
                (
                    mine && x.wr_hf,
                    mine && !x.wr_hf,
                    x.wr_data,
                    i.cfg.inter_en & (1 << q) != 0,
                )
            }
        };
        GateIn {
            wr_hf,
            wr_pay,
            wdata,
            enabled,
            granted: granted >> s & 1 == 1,
            eop: eop >> s & 1 == 1,
            free: 0,
            no_room: false,
        }
    }

    /// For gate `s` under a routing function that adapts, from this cycle's registers: the
    /// outputs among `free` with room for its packet (for ROUTE), and whether the output it
    /// waits for with `retry` has no room for it (for WAIT). Zero and false otherwise.
    fn adaptive_in(&self, s: usize, i: &RouterIn, free: u64) -> (u64, bool) {
        let g = &self.ins[s].gate;
        let room = |o: u32, words: u32| {
            self.outs[o as usize]
                .as_ref()
                .is_some_and(|x| x.room_for(&self.p, &i.cfg, &self.out_in(o, i), words))
        };
        match g.state {
            S_ROUTE => {
                let words = crate::packet::payload_words(g.hdr, self.p.size_in_words);
                let (mut m, mut with_room) = (free, 0u64);
                while m != 0 {
                    let o = m.trailing_zeros();
                    m &= m - 1;
                    if room(o, words) {
                        with_room |= 1 << o;
                    }
                }
                (with_room, false)
            }
            S_WAIT if g.retry => (0, !room(g.out, g.words)),
            _ => (0, false),
        }
    }

    // (inline, as `gate_in_with`)
    #[inline(always)]
    fn out_in(&self, s: u32, i: &RouterIn) -> OutIn {
        match self.p.slot(s) {
            Slot::Intra(p) => {
                let x = &i.intra[p as usize];
                OutIn {
                    rd_hf: x.rd_hf,
                    rd_pay: x.rd_pay,
                    ..Default::default()
                }
            }
            Slot::Inter(q, v) => {
                let x = &i.inter[q as usize];
                OutIn {
                    rd_hf: x.hf_rd & (1 << v) != 0,
                    rd_pay: x.pay_rd & (1 << v) != 0,
                    credit_cnt: x.credit_cnt[v as usize],
                    credit_stop: x.credit_stop & (1 << v) != 0,
                }
            }
        }
    }

    /// The inter-tile RX FIFOs' occupancies of port `q` in credit units, packed for the TCL TX
    /// (`inter_rx_units_o`).
    pub fn inter_rx_units(&self, q: u32) -> u128 {
        let first = self.p.inter_slot(q, 0) as usize;
        let mut units = [0u32; 8];
        let nv = self.p.num_vcs as usize;
        for (v, u) in units.iter_mut().enumerate().take(nv) {
            *u = self.ins[first + v].fifo.units();
        }
        crate::link::tcl_tx::pack16(&units[..nv])
    }
}

impl Router {
    /// An input slot's inputs this cycle, with its ports `port`.
    fn in_slot_in<'a>(&'a self, i: &'a RouterIn, port: GateIn) -> InSlotIn<'a> {
        InSlotIn {
            p: &self.p,
            cfg: &i.cfg,
            routing: self.routing.as_deref(),
            port,
        }
    }

    /// Output slot `s`'s inputs this cycle.
    fn out_slot_in<'a>(&'a self, s: u32, i: &'a RouterIn, requests: u64) -> OutSlotIn<'a> {
        OutSlotIn {
            p: &self.p,
            cfg: &i.cfg,
            gates: &self.gate_ports,
            requests,
            port: self.out_in(s, i),
        }
    }
}

/// The router is a block of blocks: its input slots (gate and FIFO) and output slots (arbiter,
/// crossbar, write stage and FIFO), each reading the others' registers of this cycle only
/// (`gate_in_with`, `out_in`, `OutSlot::requests`). `sched.rs` steps the same blocks passing
/// over the quiet ones.
impl Block for Router {
    type Spec = RouterParams;
    type In<'a> = RouterIn;
    type Next = RouterNext;
    type Events = ();

    fn reset(p: &RouterParams) -> Router {
        let n = p.slots();
        let ins = (0..n).map(|s| InSlot::new(s, p)).collect();
        let outs = (0..n)
            .map(|s| p.has_output(s).then(|| OutSlot::new(s, p)))
            .collect();
        let mut r = Router {
            p: p.clone(),
            ins,
            outs,
            gate_ports: vec![GatePorts::default(); n as usize],
            routing: None,
            adapts: false,
            sched: sched::Sched::default(),
        };
        r.refresh_marks();
        r
    }

    /// Next state of every slot. Pure.
    fn eval(&self, i: &RouterIn) -> RouterNext {
        let free = self.free_outputs();
        let ge = self.grant_eop();
        let adapts = self.adapts;
        RouterNext {
            ins: self
                .ins
                .iter()
                .map(|s| {
                    let (free, no_room) = if adapts {
                        self.adaptive_in(s.index as usize, i, free)
                    } else {
                        (free, false)
                    };
                    let gi = GateIn {
                        free,
                        no_room,
                        ..self.gate_in_with(s.index, i, ge)
                    };
                    s.eval(&self.in_slot_in(i, gi))
                })
                .collect(),
            outs: self
                .outs
                .iter()
                .map(|o| {
                    o.as_ref().map(|o| {
                        let req = OutSlot::requests(&self.gate_ports, o.index);
                        o.eval(&self.out_slot_in(o.index, i, req))
                    })
                })
                .collect(),
        }
    }

    fn commit(&mut self, n: RouterNext) {
        for (s, x) in self.ins.iter_mut().zip(n.ins) {
            s.commit(x);
        }
        for (o, x) in self.outs.iter_mut().zip(n.outs) {
            if let (Some(o), Some(x)) = (o.as_mut(), x) {
                o.commit(x);
            }
        }
        self.refresh_marks();
    }

    /// Every port and register of `exanet_router`, under its RTL names (scope entered by the caller).
    fn probe(&self, i: &RouterIn, v: &mut dyn Visitor) {
        clk_rst(v);
        probe_cfg(&i.cfg, v);
        self.probe_ports(i, v);
        for s in 0..self.p.slots() {
            v.enter(GEN_IN[s as usize]);
            v.enter("u_in");
            self.ins[s as usize].probe(&self.in_slot_in(i, self.gate_in(s, i)), v);
            v.leave();
            v.leave();
        }
        for s in 0..self.p.slots() {
            if let Some(o) = &self.outs[s as usize] {
                v.enter(GEN_OUT[s as usize]);
                v.enter("u_out");
                o.probe(&self.out_slot_in(s, i, 0), v);
                v.leave();
                v.leave();
            }
        }
    }
}

impl Router {
    /// The data ports of `exanet_router` (arrays element-wise, as Verilator traces them).
    pub fn probe_ports(&self, i: &RouterIn, v: &mut dyn Visitor) {
        let p = &self.p;
        let ni = p.n_intra as usize;
        let nq = p.inter.len();
        let nv = p.num_vcs as usize;
        let mask = |f: &dyn Fn(usize) -> bool, n: usize| {
            (0..n).fold(0u128, |m, k| m | ((f(k) as u128) << k))
        };
        v.sig("intra_wr_hf_i", ni as u32, mask(&|k| i.intra[k].wr_hf, ni));
        v.sig(
            "intra_wr_pay_i",
            ni as u32,
            mask(&|k| i.intra[k].wr_pay, ni),
        );
        for k in 0..ni {
            v.sig_idx("intra_wdata_i", k, 128, i.intra[k].wdata);
        }
        v.sig("intra_rd_hf_i", ni as u32, mask(&|k| i.intra[k].rd_hf, ni));
        v.sig(
            "intra_rd_pay_i",
            ni as u32,
            mask(&|k| i.intra[k].rd_pay, ni),
        );
        if nq > 0 {
            v.sig(
                "inter_wr_valid_i",
                nq as u32,
                mask(&|k| i.inter[k].wr_valid, nq),
            );
            v.sig("inter_wr_hf_i", nq as u32, mask(&|k| i.inter[k].wr_hf, nq));
        }
        for q in 0..nq {
            let x = &i.inter[q];
            v.sig_idx("inter_wr_vc_i", q, 3, x.wr_vc as u128);
            v.sig_idx("inter_wr_data_i", q, 128, x.wr_data);
            v.sig_idx("inter_hf_rd_i", q, nv as u32, x.hf_rd as u128);
            v.sig_idx("inter_pay_rd_i", q, nv as u32, x.pay_rd as u128);
            v.sig_idx(
                "inter_credit_cnt_i",
                q,
                16 * nv as u32,
                crate::link::tcl_tx::pack16(&x.credit_cnt[..nv]),
            );
            v.sig_idx("inter_credit_stop_i", q, 8, x.credit_stop as u128);
        }
        let hw = p.intra_fifo.hf_depth.trailing_zeros() + 1;
        let pw = p.intra_fifo.pay_depth.trailing_zeros() + 1;
        for k in 0..ni {
            let f = self.intra_tx(k as u32);
            v.sig_idx("intra_tx_hf_usedw_o", k, hw, f.hf.usedw() as u128);
            v.sig_idx("intra_tx_pay_usedw_o", k, pw, f.pay.usedw() as u128);
        }
        let rx = |k: usize| self.intra_rx(k as u32);
        v.sig(
            "intra_rx_hf_empty_o",
            ni as u32,
            mask(&|k| rx(k).is_none_or(|f| f.hf.empty()), ni),
        );
        v.sig(
            "intra_rx_pay_empty_o",
            ni as u32,
            mask(&|k| rx(k).is_none_or(|f| f.pay.empty()), ni),
        );
        for k in 0..ni {
            let f = rx(k);
            v.sig_idx(
                "intra_rx_hf_rdusedw_o",
                k,
                hw,
                f.map_or(0, |f| f.hf.rdusedw()) as u128,
            );
            v.sig_idx(
                "intra_rx_pay_rdusedw_o",
                k,
                pw,
                f.map_or(0, |f| f.pay.rdusedw()) as u128,
            );
            v.sig_idx("intra_rx_hf_rdata_o", k, 128, f.map_or(0, |f| f.hf.rdata()));
            v.sig_idx(
                "intra_rx_pay_rdata_o",
                k,
                128,
                f.map_or(0, |f| f.pay.rdata()),
            );
        }
        for q in 0..nq {
            let e = |pay: bool| {
                (0..nv).fold(0u128, |m, w| {
                    let f = self.inter_tx(q as u32, w as u32);
                    m | (((if pay { f.pay.empty() } else { f.hf.empty() }) as u128) << w)
                })
            };
            v.sig_idx("inter_tx_hf_empty_o", q, nv as u32, e(false));
            v.sig_idx("inter_tx_pay_empty_o", q, nv as u32, e(true));
        }
        for q in 0..nq {
            for w in 0..nv {
                let f = self.inter_tx(q as u32, w as u32);
                v.sig_idx("inter_tx_hf_rdata_o", q * nv + w, 128, f.hf.rdata());
                v.sig_idx("inter_tx_pay_rdata_o", q * nv + w, 128, f.pay.rdata());
            }
        }
        for q in 0..nq {
            v.sig_idx(
                "inter_rx_units_o",
                q,
                16 * nv as u32,
                self.inter_rx_units(q as u32),
            );
        }
    }
}

/// The run-time configuration inputs of the RTL router.
pub fn probe_cfg(c: &RouterCfg, v: &mut dyn Visitor) {
    let pack3 = |a: [u8; 3]| (a[0] as u128) | ((a[1] as u128) << 8) | ((a[2] as u128) << 16);
    v.sig("cfg_coord_i", 24, pack3(c.coord));
    v.sig("cfg_size_i", 24, pack3(c.size));
    v.sig("cfg_torus_i", 3, c.torus as u128);
    let order = (c.order[0] as u128) | ((c.order[1] as u128) << 2) | ((c.order[2] as u128) << 4);
    v.sig("cfg_order_i", 6, order);
    v.sig("cfg_intra_en_i", 8, c.intra_en as u128);
    v.sig("cfg_inter_en_i", 8, c.inter_en as u128);
    v.sig("cfg_arb_fixed_i", 1, b(c.arb_fixed));
    v.sig("cfg_usedword_i", 1, b(c.usedword));
    v.sig("cfg_tred_i", 16, c.tred as u128);
}

impl crate::counters::Counters for Router {
    /// Every gate's and output's counters, under `gen_in[s].u_in` and `gen_out[s].u_out` (as
    /// the router's probe).
    fn counters(&mut self, v: &mut dyn crate::counters::CounterVisitor) {
        for (s, slot) in self.ins.iter_mut().enumerate() {
            v.enter(GEN_IN[s]);
            v.enter("u_in");
            crate::counters::Counters::counters(slot, v);
            v.leave();
            v.leave();
        }
        for (s, o) in self.outs.iter_mut().enumerate() {
            if let Some(o) = o {
                v.enter(GEN_OUT[s]);
                v.enter("u_out");
                crate::counters::Counters::counters(o, v);
                v.leave();
                v.leave();
            }
        }
    }
}
