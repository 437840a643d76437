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

use crate::pktfifo::PktFifo;
use crate::probe::{b, clk_rst, Visitor};
use gate::{GateIn, InSlot, InSlotNext, S_ROUTE, S_WAIT};
use output::{OutIn, OutSlot, OutSlotNext};
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
    /// A network routing function replacing the APErouter's dimension-order routing
    /// (`with_routing`).
    routing: Option<std::sync::Arc<dyn route::RouteFn>>,
    /// `routing` adapts (`RouteFn::adapts`), kept so that `step` does not ask every cycle.
    adapts: bool,
    /// Skip slots whose next cycle changes nothing (`step` only; results are identical).
    pub skip_quiet: bool,
    /// What `step` needs of every slot's registers, kept up to date as slots commit.
    marks: Marks,
    /// `step`'s scratch: per gate, `adaptive_in` of this cycle (kept to reuse its memory).
    adaptive: Vec<(u64, bool)>,
}

/// A slot index that names none.
const NONE: u8 = u8::MAX;

/// What `step` keeps of every slot's registers between cycles, so that it decides which slots
/// to evaluate, and computes the arbiters' grants and the free outputs, without touching the
/// quiet slots. Updated whenever a slot commits; code that changes slots directly calls
/// `Router::refresh_marks`.
#[derive(Debug, Clone, Default)]
struct Marks {
    /// Bit s: gate s is idle with nothing in its crossbar registers, its FIFO settled.
    in_idle: u64,
    /// Bit s: input FIFO s shows no header.
    in_hf_empty: u64,
    /// Per input: the output its gate requests (`NONE`: no request).
    req_out: Vec<u8>,
    /// Per output: bit s is set when gate s requests it (`req_out` the other way round).
    req_to: Vec<u64>,
    /// Bit s: some gate requests output s.
    wanted: u64,
    /// Per input: its FIFO's occupancy in credit units (`PktFifo::units`).
    in_units: Vec<u32>,
    /// Bit s: output s exists.
    out_exists: u64,
    /// Bit s: output s is quiet (`OutSlot::quiet`).
    out_quiet: u64,
    /// Bit s: output s is free (not owned, no grant pending).
    out_free: u64,
    /// Bit s: output FIFO s shows a header; shows a payload word; is settled.
    out_hf_ready: u64,
    out_pay_ready: u64,
    out_settled: u64,
    /// Per output: the input it grants this cycle, and the input whose footer is in its write
    /// register (`NONE`: none).
    grant_in: Vec<u8>,
    eop_src: Vec<u8>,
    /// Bit s: an output grants input s this cycle; input s's footer is in an output's write
    /// register (`grant_in` and `eop_src` as masks).
    granted: u64,
    eop: u64,
}

/// Entry `s` of `of` changed from `old` to `new` (`NONE`: none): bring `mask`, whose bit k
/// says that some entry is k, up to date. (Only a change costs a look at the other entries.)
fn remap(of: &[u8], mask: &mut u64, old: u8, new: u8) {
    if old != NONE && !of.contains(&old) {
        *mask &= !(1 << old);
    }
    if new != NONE {
        *mask |= 1 << new;
    }
}

pub struct RouterNext {
    ins: Vec<InSlotNext>,
    outs: Vec<Option<OutSlotNext>>,
}

/// Generated scope names (static: probing is on the hot path).
const GEN_IN: [&str; 64] = crate::gen_names!("gen_in");
const GEN_OUT: [&str; 64] = crate::gen_names!("gen_out");

impl Router {
    pub fn new(p: RouterParams) -> Router {
        let n = p.slots();
        let ins = (0..n).map(|s| InSlot::new(s, &p)).collect();
        let outs = (0..n)
            .map(|s| p.has_output(s).then(|| OutSlot::new(s, &p)))
            .collect();
        let mut r = Router {
            p,
            ins,
            outs,
            routing: None,
            adapts: false,
            skip_quiet: true,
            marks: Marks::default(),
            adaptive: Vec::new(),
        };
        r.refresh_marks();
        r
    }

    /// Bring `step`'s view of every slot up to date (after changing slots directly).
    pub fn refresh_marks(&mut self) {
        let n = self.p.slots() as usize;
        let m = &mut self.marks;
        for v in [&mut m.req_out, &mut m.grant_in, &mut m.eop_src] {
            v.clear();
            v.resize(n, NONE);
        }
        m.in_units.clear();
        m.in_units.resize(n, 0);
        m.req_to.clear();
        m.req_to.resize(n, 0);
        (m.wanted, m.granted, m.eop) = (0, 0, 0);
        m.out_exists = 0;
        for s in 0..n {
            self.mark_in(s);
            if self.outs[s].is_some() {
                self.marks.out_exists |= 1 << s;
                self.mark_out(s);
            }
        }
    }

    fn mark_in(&mut self, s: usize) {
        let (m, x) = (&mut self.marks, &self.ins[s]);
        let g = &x.gate;
        let bit = 1u64 << s;
        let idle = g.state == gate::S_IDLE && !g.xin_valid && !g.xin_last && x.fifo.settled();
        m.in_idle = (m.in_idle & !bit) | if idle { bit } else { 0 };
        m.in_hf_empty = (m.in_hf_empty & !bit) | if x.fifo.hf.empty() { bit } else { 0 };
        let req = if g.req { g.out as u8 } else { NONE };
        if req != m.req_out[s] {
            for (o, on) in [(m.req_out[s], false), (req, true)] {
                if o != NONE {
                    let o = o as usize;
                    m.req_to[o] = (m.req_to[o] & !bit) | if on { bit } else { 0 };
                    m.wanted = (m.wanted & !(1 << o)) | ((m.req_to[o] != 0) as u64) << o;
                }
            }
            m.req_out[s] = req;
        }
        m.in_units[s] = x.fifo.units();
    }

    fn mark_out(&mut self, s: usize) {
        let m = &mut self.marks;
        let Some(o) = &self.outs[s] else { return };
        let r = &o.r;
        let bit = 1u64 << s;
        let set = |mask: &mut u64, on: bool| *mask = (*mask & !bit) | if on { bit } else { 0 };
        set(&mut m.out_quiet, o.quiet());
        set(&mut m.out_free, !r.busy && !r.grant_valid);
        set(&mut m.out_hf_ready, !o.fifo.hf.empty());
        set(&mut m.out_pay_ready, !o.fifo.pay.empty());
        set(&mut m.out_settled, o.fifo.settled());
        let grant = if r.grant_valid {
            r.grant_in as u8
        } else {
            NONE
        };
        if grant != m.grant_in[s] {
            let old = std::mem::replace(&mut m.grant_in[s], grant);
            remap(&m.grant_in, &mut m.granted, old, grant);
        }
        let eop = if r.owr_valid && r.owr_last {
            r.owr_src as u8
        } else {
            NONE
        };
        if eop != m.eop_src[s] {
            let old = std::mem::replace(&mut m.eop_src[s], eop);
            remap(&m.eop_src, &mut m.eop, old, eop);
        }
    }

    /// Output slot `s`'s FIFO, from `step`'s marks: (a header shows, a payload word shows, it
    /// is settled).
    pub fn out_fifo_state(&self, s: u32) -> (bool, bool, bool) {
        let m = &self.marks;
        (
            m.out_hf_ready >> s & 1 != 0,
            m.out_pay_ready >> s & 1 != 0,
            m.out_settled >> s & 1 != 0,
        )
    }

    /// A header shows at the head of one of inter-tile port `q`'s TX FIFOs (what the TCL TX
    /// looks for between packets), from `step`'s marks.
    pub fn inter_tx_header_waiting(&self, q: u32) -> bool {
        let nv = self.p.num_vcs;
        let first = self.p.inter_slot(q, 0);
        (self.marks.out_hf_ready >> first) & ((1u64 << nv) - 1) != 0
    }

    /// A router whose ROUTE stage asks `f` instead of the APErouter's dimension-order routing.
    pub fn with_routing(p: RouterParams, f: std::sync::Arc<dyn route::RouteFn>) -> Router {
        let mut r = Router::new(p);
        r.adapts = f.adapts();
        r.routing = Some(f);
        r
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

    /// Next state of every slot. Pure.
    pub fn eval(&self, i: &RouterIn) -> RouterNext {
        let free = self.free_outputs();
        let ge = self.grant_eop();
        let rf = self.routing.as_deref();
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
                    s.eval(&self.p, &i.cfg, rf, &gi)
                })
                .collect(),
            outs: self
                .outs
                .iter()
                .map(|o| {
                    o.as_ref().map(|o| {
                        let req = OutSlot::requests(&self.ins, o.index);
                        o.eval(&self.p, &i.cfg, &self.ins, req, &self.out_in(o.index, i))
                    })
                })
                .collect(),
        }
    }

    pub fn commit(&mut self, n: RouterNext) {
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

    /// One cycle, in place: the same next state as `eval` then `commit` (a test holds them
    /// equal), without building the whole next state, and skipping the slots whose next cycle
    /// changes nothing when `skip_quiet` is set. Returns whether some slot is not quiet after
    /// the cycle (always true without `skip_quiet`).
    pub fn step(&mut self, i: &RouterIn) -> bool {
        let n = self.p.slots() as usize;
        let adapts = self.adapts;
        let mut adaptive = if adapts {
            std::mem::take(&mut self.adaptive)
        } else {
            Vec::new()
        };
        let skip = self.skip_quiet;
        let m = &self.marks;
        let free = if self.routing.is_some() {
            m.out_free
        } else {
            0
        };
        // grants and footers in the outputs' registers, requests in the gates' (this cycle)
        let (granted, eop, wanted) = (m.granted, m.eop, m.wanted);
        // Per slot, from the ports: a write into the input FIFO, a pop from the output FIFO,
        // the port enabled (as `gate_in_with` and `out_in` see them), so that the quiet slots
        // are passed over without building their inputs.
        let all = u64::MAX >> (64 - n);
        let (written, read, enabled) = if skip {
            self.port_masks(i)
        } else {
            (all, all, all)
        };
        let quiet_in = |m: &Marks| m.in_idle & (!enabled | m.in_hf_empty);
        // An adaptive routing function's view of room, from this cycle's output registers
        // (before the outputs below commit): for the gates routing or waiting with `retry`.
        if adapts {
            adaptive.resize(n, (0, false));
            let mut busy = all & !m.in_idle;
            while busy != 0 {
                let s = busy.trailing_zeros() as usize;
                busy &= busy - 1;
                adaptive[s] = self.adaptive_in(s, i, free);
            }
        }
        // Outputs: they read the gates' registers of this cycle, which change only below, and
        // the gates read nothing of the outputs but the masks above, so each output commits at
        // once. A quiet output nobody requests and nobody pops changes nothing.
        let mut todo = m.out_exists & !(m.out_quiet & !wanted & !read);
        while todo != 0 {
            let s = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let oi = self.out_in(s as u32, i);
            let o = self.outs[s].as_mut().expect("marked as existing");
            o.step(&self.p, &i.cfg, &self.ins, self.marks.req_to[s], &oi);
            self.mark_out(s);
        }
        // Gates: a quiet gate with no write into its FIFO changes nothing.
        let mut todo = all & !(quiet_in(&self.marks) & !written);
        while todo != 0 {
            let s = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let (free, no_room) = if adapts { adaptive[s] } else { (free, false) };
            let gi = GateIn {
                free,
                no_room,
                ..self.gate_in_with(s as u32, i, (granted, eop))
            };
            self.ins[s].step(&self.p, &i.cfg, self.routing.as_deref(), &gi);
            self.mark_in(s);
        }
        if adapts {
            self.adaptive = adaptive;
        }
        // (the slots passed over were quiet and still are)
        let m = &self.marks;
        !skip || m.out_exists & !m.out_quiet != 0 || all & !quiet_in(m) != 0
    }

    /// Bit s of each: input slot s is written this cycle; output slot s is popped; slot s's
    /// port is enabled.
    fn port_masks(&self, i: &RouterIn) -> (u64, u64, u64) {
        let p = &self.p;
        let (mut written, mut read, mut enabled) = (0u64, 0u64, 0u64);
        for (k, x) in i.intra.iter().enumerate().take(p.n_intra as usize) {
            let bit = 1u64 << p.intra_slot(k as u32);
            if x.wr_hf || x.wr_pay {
                written |= bit;
            }
            if x.rd_hf || x.rd_pay {
                read |= bit;
            }
            if i.cfg.intra_en & (1 << k) != 0 {
                enabled |= bit;
            }
        }
        let vcs = (1u64 << p.num_vcs) - 1;
        for (q, x) in i.inter.iter().enumerate().take(p.inter.len()) {
            let first = p.inter_slot(q as u32, 0);
            if x.wr_valid && (x.wr_vc as u32) < p.num_vcs {
                written |= 1 << (first + x.wr_vc as u32);
            }
            read |= ((x.hf_rd | x.pay_rd) as u64 & vcs) << first;
            if i.cfg.inter_en & (1 << q) != 0 {
                enabled |= vcs << first;
            }
        }
        (written, read, enabled)
    }

    /// The inter-tile RX FIFOs' occupancies of port `q` in credit units, packed for the TCL TX.
    pub fn inter_rx_units(&self, q: u32) -> u128 {
        let first = self.p.inter_slot(q, 0) as usize;
        crate::link::tcl_tx::pack16(&self.marks.in_units[first..first + self.p.num_vcs as usize])
    }

    /// Every port and register of `exanet_router`, under its RTL names (scope entered by the caller).
    pub fn probe(&self, i: &RouterIn, v: &mut dyn Visitor) {
        clk_rst(v);
        probe_cfg(&i.cfg, v);
        self.probe_ports(i, v);
        for s in 0..self.p.slots() {
            v.enter(GEN_IN[s as usize]);
            v.enter("u_in");
            self.ins[s as usize].probe(&self.gate_in(s, i), v);
            v.leave();
            v.leave();
        }
        for s in 0..self.p.slots() {
            if let Some(o) = &self.outs[s as usize] {
                v.enter(GEN_OUT[s as usize]);
                v.enter("u_out");
                o.probe(&self.out_in(s, i), v);
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
