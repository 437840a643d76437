//! The router's scheduler: model only, no RTL twin. It steps the router's slots (the blocks of
//! `gate.rs` and `output.rs`) as `Block::eval` then `Block::commit` do for the whole router,
//! passing over the slots whose next cycle changes nothing (`skip_quiet`), and without looking
//! at them: bit masks of every slot's state (`Marks`), kept up to date as slots commit, say
//! which slots to evaluate, and give the arbiters' requests, the grants and the footers the
//! gates see, and the outputs that are free.
//!
//! A slot reads no other slot's registers directly: an output reads the gates' output ports
//! (`Router::gate_ports`, the RTL's `gate_*` buses), which change only after every slot has
//! stepped, and a gate reads the grants, footers and room of this cycle, taken before any slot
//! steps. So each slot steps in place, in any order: `shuffle_visits` visits them in a seeded
//! random order, and a test holds the waves equal (tests/router.rs).

use super::gate::{GateIn, InSlotIn};
use super::output::OutSlotIn;
use super::{Router, RouterIn};
use crate::block::Block;

/// A slot index that names none.
const NONE: u8 = u8::MAX;

/// The scheduler's state, kept in the router.
pub(super) struct Sched {
    marks: Marks,
    /// Skip slots whose next cycle changes nothing (results are identical).
    skip_quiet: bool,
    /// Scratch: per gate, `adaptive_in` of this cycle (kept to reuse its memory).
    adaptive: Vec<(u64, bool)>,
    /// Visit the slots in a seeded random order (`shuffle_visits`; tests).
    shuffle: Option<Box<rand_mt::Mt64>>,
}

impl Default for Sched {
    fn default() -> Sched {
        Sched {
            marks: Marks::default(),
            skip_quiet: true,
            adaptive: Vec::new(),
            shuffle: None,
        }
    }
}

/// What the scheduler keeps of every slot's registers between cycles.
#[derive(Debug, Clone, Default)]
struct Marks {
    /// Bit s: gate s is idle with nothing in its crossbar registers, its FIFO settled.
    in_idle: u64,
    /// Bit s: input FIFO s shows no header.
    in_hf_empty: u64,
    /// Per input: the output its gate requests (`NONE`: no request).
    req_out: Vec<u8>,
    /// Per inter-tile port: its input FIFOs' occupancies in credit units (`PktFifo::units`),
    /// 16 bits a VC, VC 0 first, as the bytes of the little-endian word the TCL TX reads
    /// (`Router::inter_rx_units`, `pack16`).
    inter_units: Vec<[u8; 16]>,
    /// Per input: its inter-tile port and VC (`NONE` for an intra-tile input).
    in_port_vc: Vec<(u8, u8)>,
    /// Per output: bit s is set when gate s requests it (`req_out` the other way round).
    req_to: Vec<u64>,
    /// Bit s: some gate requests output s.
    wanted: u64,
    /// Bit s: output s exists.
    out_exists: u64,
    /// Bit s: output s is quiet (`OutSlot::quiet`).
    out_quiet: u64,
    /// Bit s: output s has no grant, nothing in its crossbar and write registers, its FIFO
    /// settled: it changes nothing in a cycle with no pop, if it is busy and no gate feeds it
    /// a word, or if it is free and no gate requests it.
    out_still: u64,
    /// Bit s: output s is owned by a packet (`busy`).
    out_busy: u64,
    /// Per input: the output its gate's crossbar register feeds (`NONE`: no word); and the
    /// same as a mask, bit s: some gate feeds output s.
    feeds: Vec<u8>,
    fed: u64,
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

/// Set entry `s` of `of` to `new` (`NONE`: none), keeping `mask`, whose bit k says that some
/// entry is k, up to date. (Only a change costs a look at the other entries.)
fn set_entry(of: &mut [u8], mask: &mut u64, s: usize, new: u8) {
    if of[s] == new {
        return;
    }
    let old = std::mem::replace(&mut of[s], new);
    if old != NONE && !of.contains(&old) {
        *mask &= !(1 << old);
    }
    if new != NONE {
        *mask |= 1 << new;
    }
}

/// The slots to step this cycle: outputs (`out`: bit s, output s) and inputs (`ins`), lowest
/// first, outputs first; or, with `rng`, all of them in a random order.
fn visits(
    outs: u64,
    ins: u64,
    rng: Option<&mut rand_mt::Mt64>,
) -> impl Iterator<Item = (bool, usize)> {
    let bits = |is_out: bool, mut m: u64| {
        std::iter::from_fn(move || {
            (m != 0).then(|| {
                let s = m.trailing_zeros() as usize;
                m &= m - 1;
                (is_out, s)
            })
        })
    };
    let mut shuffled = Vec::new();
    if let Some(rng) = rng {
        shuffled.extend(bits(true, outs).chain(bits(false, ins)));
        crate::block::shuffle(&mut shuffled, rng);
    }
    let ordered = shuffled.is_empty();
    let (outs, ins) = if ordered { (outs, ins) } else { (0, 0) };
    shuffled
        .into_iter()
        .chain(bits(true, outs).chain(bits(false, ins)))
}

impl Router {
    /// `inter_rx_units` from the marks (the same value, without reading the input slots).
    pub fn marked_inter_rx_units(&self, q: u32) -> u128 {
        u128::from_le_bytes(self.sched.marks.inter_units[q as usize])
    }

    /// Pass over quiet slots in `step` (the default; the results are the same either way).
    pub fn set_skip_quiet(&mut self, on: bool) {
        self.sched.skip_quiet = on;
    }

    /// Visit the slots in an order drawn from `seed` in every `step` (tests: the order must
    /// change nothing).
    pub fn shuffle_visits(&mut self, seed: u64) {
        self.sched.shuffle = Some(Box::new(rand_mt::Mt64::new(seed)));
    }

    /// Bring the scheduler's view of every slot up to date (after changing slots directly).
    pub fn refresh_marks(&mut self) {
        let n = self.p.slots() as usize;
        let m = &mut self.sched.marks;
        for v in [
            &mut m.req_out,
            &mut m.grant_in,
            &mut m.eop_src,
            &mut m.feeds,
        ] {
            v.clear();
            v.resize(n, NONE);
        }
        m.req_to.clear();
        m.req_to.resize(n, 0);
        m.inter_units.clear();
        m.inter_units.resize(self.p.inter.len(), [0; 16]);
        m.in_port_vc = (0..n as u32)
            .map(|s| match self.p.slot(s) {
                super::params::Slot::Intra(_) => (NONE, 0),
                super::params::Slot::Inter(q, v) => (q, v),
            })
            .collect();
        (m.wanted, m.granted, m.eop, m.fed) = (0, 0, 0, 0);
        m.out_exists = 0;
        for s in 0..n {
            self.mark_in(s);
            if self.outs[s].is_some() {
                self.sched.marks.out_exists |= 1 << s;
                self.mark_out(s);
            }
        }
    }

    /// After gate `s` committed: its output ports (the buses the outputs read) and its marks.
    fn mark_in(&mut self, s: usize) {
        self.gate_ports[s] = self.ins[s].ports();
        let (m, x) = (&mut self.sched.marks, &self.ins[s]);
        let g = &x.gate;
        let bit = 1u64 << s;
        let idle =
            g.state == super::gate::S_IDLE && !g.xin_valid && !g.xin_last && x.fifo.settled();
        m.in_idle = (m.in_idle & !bit) | if idle { bit } else { 0 };
        m.in_hf_empty = (m.in_hf_empty & !bit) | if x.fifo.hf.empty() { bit } else { 0 };
        let (q, v) = m.in_port_vc[s];
        if q != NONE {
            // the VC's 16 bits of its port's packed occupancies (as `pack16` packs them)
            let v = 2 * v as usize;
            m.inter_units[q as usize][v..v + 2]
                .copy_from_slice(&(x.fifo.units() as u16).to_le_bytes());
        }
        let ports = &self.gate_ports[s];
        let feeds = if ports.xin_valid {
            ports.xin_out as u8
        } else {
            NONE
        };
        set_entry(&mut m.feeds, &mut m.fed, s, feeds);
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
    }

    fn mark_out(&mut self, s: usize) {
        let m = &mut self.sched.marks;
        let Some(o) = &self.outs[s] else { return };
        let r = &o.r;
        let bit = 1u64 << s;
        let set = |mask: &mut u64, on: bool| *mask = (*mask & !bit) | if on { bit } else { 0 };
        set(&mut m.out_quiet, o.quiet());
        set(&mut m.out_still, o.still());
        set(&mut m.out_busy, r.busy);
        set(&mut m.out_free, !r.busy && !r.grant_valid);
        set(&mut m.out_hf_ready, !o.fifo.hf.empty());
        set(&mut m.out_pay_ready, !o.fifo.pay.empty());
        set(&mut m.out_settled, o.fifo.settled());
        let grant = if r.grant_valid {
            r.grant_in as u8
        } else {
            NONE
        };
        set_entry(&mut m.grant_in, &mut m.granted, s, grant);
        let eop = if r.owr_valid && r.owr_last {
            r.owr_src as u8
        } else {
            NONE
        };
        set_entry(&mut m.eop_src, &mut m.eop, s, eop);
    }

    /// Output slot `s`'s FIFO: (a header shows, a payload word shows, it is settled).
    pub fn out_fifo_state(&self, s: u32) -> (bool, bool, bool) {
        let m = &self.sched.marks;
        (
            m.out_hf_ready >> s & 1 != 0,
            m.out_pay_ready >> s & 1 != 0,
            m.out_settled >> s & 1 != 0,
        )
    }

    /// A header shows at the head of one of inter-tile port `q`'s TX FIFOs (what the TCL TX
    /// looks for between packets).
    pub fn inter_tx_header_waiting(&self, q: u32) -> bool {
        let nv = self.p.num_vcs;
        let first = self.p.inter_slot(q, 0);
        (self.sched.marks.out_hf_ready >> first) & ((1u64 << nv) - 1) != 0
    }

    /// One cycle: the same next state as `Block::eval` then `Block::commit` (a test holds them
    /// equal), evaluating only the slots whose next cycle may change something when
    /// `skip_quiet` is set. Returns whether some slot is not quiet after the cycle (always true
    /// without `skip_quiet`).
    pub fn step(&mut self, i: &RouterIn) -> bool {
        let n = self.p.slots() as usize;
        let adapts = self.adapts;
        let skip = self.sched.skip_quiet;
        let mut adaptive = std::mem::take(&mut self.sched.adaptive);
        let mut shuffle = self.sched.shuffle.take();
        let m = &self.sched.marks;
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
        // An adaptive routing function's view of room, from this cycle's output registers:
        // for the gates routing or waiting with `retry`.
        if adapts {
            adaptive.resize(n, (0, false));
            let mut busy = all & !m.in_idle;
            while busy != 0 {
                let s = busy.trailing_zeros() as usize;
                busy &= busy - 1;
                adaptive[s] = self.adaptive_in(s, i, free);
            }
        }
        // Step every slot that works, in place, in any order: an output reads the gates'
        // ports of this cycle (`gate_ports`, refreshed only below) and its own registers, a gate
        // the grants, footers and room of this cycle (taken above) and its own registers; no
        // slot reads another's registers directly. A still output nobody pops changes nothing
        // when it is free and nobody requests it, or when it is busy and no gate feeds it a
        // word (`OutSlot::still`); a quiet gate with no write into its FIFO changes nothing.
        let fed = m.fed;
        let still_out = m.out_still & !read & ((m.out_busy & !fed) | (!m.out_busy & !wanted));
        let outs_todo = m.out_exists & !still_out;
        let ins_todo = all & !(quiet_in(m) & !written);
        for (is_out, s) in visits(outs_todo, ins_todo, shuffle.as_deref_mut()) {
            if is_out {
                let req = self.sched.marks.req_to[s];
                let port = self.out_in(s as u32, i);
                let oi = OutSlotIn {
                    p: &self.p,
                    cfg: &i.cfg,
                    gates: &self.gate_ports,
                    requests: req,
                    port,
                };
                let o = self.outs[s].as_mut().expect("marked as existing");
                o.step_in_place(&oi);
                // its marks at once: no slot reads them in this cycle (a gate reads the
                // grants, footers and room taken above)
                self.mark_out(s);
            } else {
                let (free, no_room) = if adapts { adaptive[s] } else { (free, false) };
                let port = GateIn {
                    free,
                    no_room,
                    ..self.gate_in_with(s as u32, i, (granted, eop))
                };
                let gi = InSlotIn {
                    p: &self.p,
                    cfg: &i.cfg,
                    routing: self.routing.as_deref(),
                    port,
                };
                self.ins[s].step_in_place(&gi);
            }
        }
        // then the buses and marks of the gates that stepped, for the next cycle (the outputs
        // read the gates' buses of this cycle, so these wait until every slot has stepped)
        let mut m = ins_todo;
        while m != 0 {
            self.mark_in(m.trailing_zeros() as usize);
            m &= m - 1;
        }
        self.sched.adaptive = adaptive;
        self.sched.shuffle = shuffle;
        // (the slots passed over were quiet and still are)
        let m = &self.sched.marks;
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
}
