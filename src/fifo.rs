//! Show-ahead (first-word-fall-through) FIFO of 128-bit words, as used by the APErouter switch
//! ports and the APElink RX buffers (Biagioni 2017 §5.3.3, "the FIFOs are in show-ahead mode").
//!
//! ```text
//!            +---------------------------------------------+
//!  wr_i ---->| mem_q[DEPTH]     wr_ptr_q --> wr_ptr_vis_q[0] --> ... --> [LATENCY-2] |--> empty_o, rdusedw_o
//!  wdata_i ->|                  rd_ptr_q <--------------------------------- rd_i     |--> rdata_o = rdata_q = mem_q[rd_ptr_q]
//!            |  full_o, usedw_o = wr_ptr_q - rd_ptr_q  (write side, immediate)       |
//!            +---------------------------------------------+
//! ```
//!
//! Cycle contract (L_F = `latency`, 3 by default, Biagioni 2017 §5.3.4 "FIFO delay L_F"):
//! - `wr_i` high during cycle `c` writes at the end of `c`; `empty_o` is low from cycle
//!   `c + L_F` on. The delay is the write pointer travelling through `L_F - 1` visibility
//!   registers (`wr_ptr_vis_q`) towards the read side, as in a BRAM FIFO whose empty flag is
//!   computed from a registered copy of the write pointer.
//! - `rd_i` high during cycle `c` (while not empty) pops at the end of `c`; the next word is on
//!   `rdata_o` in cycle `c + 1` (show-ahead). `rdata_o` is the block RAM's read register
//!   `rdata_q`, loaded at every edge from the next read pointer, a write to that address passed
//!   through: in every cycle it is `mem_q[rd_ptr_q]`, as an asynchronous read would be.
//! - `usedw_o` and `full_o` are write-side views (words written and not yet popped, updated the
//!   cycle after each write or read); `rdusedw_o` is the read-side view (visible words).
//! - A write while full or a read while empty is ignored and counted (`overflow_cnt_q`,
//!   `underflow_cnt_q`): nothing is ever lost silently.
//!
//! The memory `mem_q` is not a register the waves show; its storage (`fifo_mem.rs`) is paged,
//! or, in network-scale runs, a ring of only the live words (`keep_live_words_only`); every
//! word read is the same in both modes (a test).
//!
//! RTL twin: `rtl/exanet_fifo.sv` (same register names with `_q`).

use crate::block::Block;
use crate::fifo_mem::FifoMem;
pub use crate::fifo_mem::PAGE;
use crate::probe::{b, clk_rst, Visitor};

/// Maximum write-to-not-empty latency supported.
pub const MAX_LATENCY: u32 = 16;

/// Smallest FIFO depth, words: a packet FIFO's header/footer half holds at least a header and
/// its footer with room for the next header (the configuration's lower bound since the start).
pub const MIN_DEPTH: u32 = 4;

/// Largest FIFO depth, words: a packet FIFO's credit count `units_o` is 16 bits wide, and
/// 32768 units is the most it shows.
pub const MAX_DEPTH: u32 = 32768;

/// The depths a [`Fifo`] resets to ([`Block::reset`](crate::block::Block::reset)): a power of
/// two from [`MIN_DEPTH`] to [`MAX_DEPTH`] words (the pointers wrap at twice the depth). The configuration's validation calls this too, so
/// what it lets through is exactly what the constructor takes.
pub fn check_depth(depth: u32) -> Result<(), String> {
    if depth.is_power_of_two() && (MIN_DEPTH..=MAX_DEPTH).contains(&depth) {
        Ok(())
    } else {
        Err(format!(
            "{depth} words: a FIFO depth must be a power of two between {MIN_DEPTH} and {MAX_DEPTH}"
        ))
    }
}

/// The write-to-not-empty latencies a [`Fifo`] resets to: 2 to [`MAX_LATENCY`] cycles.
pub fn check_latency(latency: u32) -> Result<(), String> {
    if (2..=MAX_LATENCY).contains(&latency) {
        Ok(())
    } else {
        Err(format!(
            "{latency} cycles: a FIFO latency must be between 2 and {MAX_LATENCY}"
        ))
    }
}

/// Structural parameters of one FIFO.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FifoParams {
    /// Capacity in 128-bit words; a power of two.
    pub depth: u32,
    /// Write-to-not-empty delay in cycles, 2..=16.
    pub latency: u32,
}

/// Inputs of one cycle (all driven by registers of the neighbouring blocks).
#[derive(Debug, Clone, Copy, Default)]
pub struct FifoIn {
    pub wr: bool,
    pub wdata: u128,
    pub rd: bool,
}

/// The registers of the next cycle (memory as a write command).
#[derive(Debug, Clone, Copy)]
pub struct FifoNext {
    /// Nothing changes: no write or read strobe, every write already on the read side.
    same: bool,
    wr_ptr: u32,
    rd_ptr: u32,
    vis_in: u32,
    write: Option<(u32, u128)>,
    overflow_cnt: u32,
    underflow_cnt: u32,
}

crate::registers! {
    /// The FIFO's pointer and counter registers (the memory is `mem`).
    pub struct FifoRegs(p: &FifoParams) {
        wr_ptr: u32 [p.ptr_width()],
        rd_ptr: u32 [p.ptr_width()],
        /// `wr_ptr_vis[0]` is the newest copy; `[latency - 2]` drives the read side.
        wr_ptr_vis: [u32; MAX_LATENCY as usize] [p.ptr_width(); p.latency - 1],
        overflow_cnt: u32 [32],
        underflow_cnt: u32 [32],
        /// The block RAM's registered read port: `mem[rd_ptr]`, loaded at every edge from the
        /// next read pointer, a write to that address passed through (write-first).
        rdata: u128 [128],
    }
}

impl FifoParams {
    /// Pointer width in bits (address bits + 1).
    pub fn ptr_width(&self) -> u32 {
        self.depth.trailing_zeros() + 1
    }
}

#[derive(Debug, Clone)]
pub struct Fifo {
    p: FifoParams,
    ptr_mask: u32,
    r: FifoRegs,
    mem: FifoMem,
    /// `rdata` may differ from the word at the read pointer: the pointers were reset under it
    /// ([`Fifo::async_reset`]); the next edge loads it, as the block RAM's read port does at
    /// every edge.
    reload_rdata: bool,
    /// Commits left until the last write's pointer has passed every visibility register
    /// (model-only bookkeeping, no register: 0 exactly when every `wr_ptr_vis` equals
    /// `wr_ptr`, as a write is the only change of `wr_ptr`), so that `settled` reads one byte
    /// instead of the stages.
    unsettled: u8,
}

impl Fifo {
    pub fn params(&self) -> FifoParams {
        self.p
    }

    /// Pointer width in bits (address bits + 1).
    pub fn ptr_width(&self) -> u32 {
        self.p.ptr_width()
    }

    fn vis(&self) -> u32 {
        // (the mask changes no index, as the latency is at most MAX_LATENCY, a power of two;
        // it lets the compiler drop the bounds check of a read the FIFO makes several times
        // a cycle)
        self.r.wr_ptr_vis[(self.p.latency as usize - 2) & (MAX_LATENCY as usize - 1)]
    }

    // ---- outputs (functions of the registers only) ----

    pub fn full(&self) -> bool {
        self.usedw() == self.p.depth
    }
    pub fn usedw(&self) -> u32 {
        self.r.wr_ptr.wrapping_sub(self.r.rd_ptr) & self.ptr_mask
    }
    pub fn empty(&self) -> bool {
        self.vis() == self.r.rd_ptr
    }
    pub fn rdusedw(&self) -> u32 {
        self.vis().wrapping_sub(self.r.rd_ptr) & self.ptr_mask
    }
    pub fn rdata(&self) -> u128 {
        self.r.rdata
    }

    /// Visible word `k` behind the head (`peek(0)` is `rdata`), or None when fewer than `k + 1`
    /// words show. Not a port of the hardware, which reads only its head: observers use it
    /// (the network view's head-of-line test looks at the packet behind the head).
    pub fn peek(&self, k: u32) -> Option<u128> {
        if k >= self.rdusedw() {
            return None;
        }
        let a = self.r.rd_ptr.wrapping_add(k) & (self.p.depth - 1);
        Some(self.mem.word(a, k))
    }

    /// The visibility registers move on by one stage (`wr_ptr_vis[0]` is then loaded).
    #[inline(always)]
    fn shift_vis(r: &mut FifoRegs, stages: usize) {
        // The shift is a stage or two: written out for those, as a loop over a length known
        // only at run time compiles to a call to memmove (measured: 13 % of the commit's
        // instructions in a network run), which costs more than the copy.
        match stages {
            1 => {}
            2 => r.wr_ptr_vis[1] = r.wr_ptr_vis[0],
            _ => {
                for k in (1..stages).rev() {
                    r.wr_ptr_vis[k] = r.wr_ptr_vis[k - 1];
                }
            }
        }
    }

    /// Keep only the words written and not yet popped (network-scale runs; `fifo_mem.rs`).
    /// Only on a FIFO that was never written.
    pub fn keep_live_words_only(&mut self) {
        assert!(
            self.r.wr_ptr == 0 && self.r.rd_ptr == 0,
            "a FIFO keeps live words only from its reset"
        );
        self.mem = FifoMem::live();
    }

    /// The asynchronous reset (`rst_ni` low between two edges): every register to its reset
    /// value except the block RAM's, which, as in `rtl/exanet_fifo.sv`, has no reset: the
    /// memory and its read register `rdata` keep their contents, so the head word shows again
    /// once the pointers have moved past it.
    pub fn async_reset(&mut self) {
        let rdata = self.r.rdata;
        self.r = FifoRegs::reset_regs(&self.p);
        self.r.rdata = rdata;
        self.reload_rdata = true;
        self.unsettled = 0;
    }

    /// Words of memory held now (pages, or the live ring's capacity).
    pub fn words_held(&self) -> usize {
        self.mem.words_held()
    }
    pub fn overflow_cnt(&self) -> u32 {
        self.r.overflow_cnt
    }
    pub fn underflow_cnt(&self) -> u32 {
        self.r.underflow_cnt
    }
    /// Every write has reached the read side: with no write or read, the next cycle changes
    /// nothing (the engine may skip it).
    pub fn settled(&self) -> bool {
        debug_assert_eq!(
            self.unsettled == 0,
            self.r.wr_ptr_vis[..self.p.latency as usize - 1]
                .iter()
                .all(|&v| v == self.r.wr_ptr)
        );
        !self.reload_rdata && self.unsettled == 0
    }
}

impl Block for Fifo {
    type Spec = FifoParams;
    type In<'a> = FifoIn;
    type Next = FifoNext;
    type Events = ();

    /// Parameters must have been validated ([`check_depth`], [`check_latency`]).
    fn reset(p: &FifoParams) -> Fifo {
        if let Err(e) = check_depth(p.depth).and_then(|_| check_latency(p.latency)) {
            panic!("FIFO parameters must be validated before construction: {e}");
        }
        Fifo {
            p: *p,
            ptr_mask: 2 * p.depth - 1,
            r: FifoRegs::reset_regs(p),
            mem: FifoMem::paged(p.depth),
            reload_rdata: false,
            unsettled: 0,
        }
    }

    #[inline]
    fn eval(&self, i: &FifoIn) -> FifoNext {
        let r = &self.r;
        let full = self.full();
        let empty = self.empty();
        let wr_ok = i.wr && !full;
        let rd_ok = i.rd && !empty;
        FifoNext {
            same: !i.wr && !i.rd && self.settled(),
            wr_ptr: r.wr_ptr.wrapping_add(wr_ok as u32) & self.ptr_mask,
            rd_ptr: r.rd_ptr.wrapping_add(rd_ok as u32) & self.ptr_mask,
            vis_in: r.wr_ptr,
            write: wr_ok.then_some((r.wr_ptr & (self.p.depth - 1), i.wdata)),
            overflow_cnt: r.overflow_cnt.wrapping_add((i.wr && full) as u32),
            underflow_cnt: r.underflow_cnt.wrapping_add((i.rd && empty) as u32),
        }
    }

    /// No strobe, and every write already on the read side.
    #[inline]
    fn quiet(&self, i: &FifoIn) -> bool {
        !i.wr && !i.rd && self.settled()
    }

    /// `commit(eval(i))` written as one, without building the `FifoNext` value: a network
    /// run steps the FIFOs more often than any other block. The same next state (a test
    /// compares the two over random strobes, resets and latencies). A quiet FIFO's step
    /// changes nothing; `block::step` has passed it over already, so it is not tested again.
    #[inline]
    fn step_in_place(&mut self, i: &FifoIn) {
        let (full, empty) = (self.full(), self.empty());
        let r = &mut self.r;
        let wr_ok = i.wr && !full;
        let rd_ok = i.rd && !empty;
        r.overflow_cnt = r.overflow_cnt.wrapping_add((i.wr && full) as u32);
        r.underflow_cnt = r.underflow_cnt.wrapping_add((i.rd && empty) as u32);
        let write = wr_ok.then_some((r.wr_ptr & (self.p.depth - 1), i.wdata));
        let stages = self.p.latency as usize - 1;
        Self::shift_vis(r, stages);
        r.wr_ptr_vis[0] = r.wr_ptr;
        // a write is the only change of the write pointer
        self.unsettled = if wr_ok {
            stages as u8
        } else {
            self.unsettled.saturating_sub(1)
        };
        r.wr_ptr = r.wr_ptr.wrapping_add(wr_ok as u32) & self.ptr_mask;
        r.rd_ptr = r.rd_ptr.wrapping_add(rd_ok as u32) & self.ptr_mask;
        let rd_a = r.rd_ptr & (self.p.depth - 1);
        if self.mem.apply(rd_ok, write, rd_a) || self.reload_rdata {
            r.rdata = self.mem.word(rd_a, 0);
            self.reload_rdata = false;
        }
    }

    #[inline]
    fn commit(&mut self, n: FifoNext) {
        if n.same {
            // (most FIFOs of a busy slot, most cycles: the other half of a packet FIFO)
            return;
        }
        let r = &mut self.r;
        let popped = n.rd_ptr != r.rd_ptr;
        let rd_a = n.rd_ptr & (self.p.depth - 1);
        let head_moved = self.mem.apply(popped, n.write, rd_a);
        let stages = self.p.latency as usize - 1;
        Self::shift_vis(r, stages);
        r.wr_ptr_vis[0] = n.vis_in;
        self.unsettled = if n.wr_ptr != r.wr_ptr {
            stages as u8
        } else {
            self.unsettled.saturating_sub(1)
        };
        r.wr_ptr = n.wr_ptr;
        r.rd_ptr = n.rd_ptr;
        if head_moved || self.reload_rdata {
            r.rdata = self.mem.word(rd_a, 0);
            self.reload_rdata = false;
        }
        r.overflow_cnt = n.overflow_cnt;
        r.underflow_cnt = n.underflow_cnt;
    }

    /// Ports and registers under their RTL names (the memory is not probed).
    fn probe(&self, i: &FifoIn, v: &mut dyn Visitor) {
        let pw = self.ptr_width();
        clk_rst(v);
        v.sig("wr_i", 1, b(i.wr));
        v.sig("wdata_i", 128, i.wdata);
        v.sig("rd_i", 1, b(i.rd));
        v.sig("full_o", 1, b(self.full()));
        v.sig("empty_o", 1, b(self.empty()));
        v.sig("usedw_o", pw, self.usedw() as u128);
        v.sig("rdusedw_o", pw, self.rdusedw() as u128);
        v.sig("rdata_o", 128, self.rdata());
        self.r.probe_regs(&self.p, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(f: &mut Fifo, i: FifoIn) {
        let n = f.eval(&i);
        f.commit(n);
    }

    #[test]
    fn an_asynchronous_reset_empties_the_fifo_and_keeps_its_block_ram() {
        let mut f = Fifo::reset(&FifoParams {
            depth: 8,
            latency: 3,
        });
        let wr = |w| FifoIn {
            wr: true,
            wdata: w,
            rd: false,
        };
        let idle = FifoIn::default();
        for w in [0x11, 0x22, 0x33] {
            step(&mut f, wr(w));
        }
        for _ in 0..4 {
            step(&mut f, idle);
        }
        // pop 0x11: 0x22 shows
        step(&mut f, FifoIn { rd: true, ..idle });
        assert_eq!(f.rdata(), 0x22);
        f.async_reset();
        // empty at once; the read register keeps its word until the next edge, which loads
        // the word at the reset read pointer (0x11, still in the block RAM), as the RTL does
        assert!(f.empty() && f.usedw() == 0 && f.rdusedw() == 0);
        assert_eq!(f.rdata(), 0x22);
        assert!(!f.quiet(&idle), "the next edge loads the read register");
        step(&mut f, idle);
        assert_eq!(f.rdata(), 0x11);
        assert!(f.quiet(&idle));
        // a write at the reset read pointer passes through at the first edge
        let mut g = f.clone();
        g.async_reset();
        step(&mut g, wr(0x44));
        assert_eq!(g.rdata(), 0x44);
    }

    #[test]
    fn settled_is_every_visibility_register_equal_to_the_write_pointer() {
        // the bookkeeping `settled` reads against the registers themselves, over random
        // strobes (writes, reads, idle stretches, an asynchronous reset) and every latency
        let mut rng = rand_mt::Mt64::new(11);
        for latency in 2..=MAX_LATENCY {
            let mut f = Fifo::reset(&FifoParams { depth: 8, latency });
            let stages = latency as usize - 1;
            for c in 0..3000 {
                let x = rng.next_u64();
                let i = FifoIn {
                    wr: x & 3 == 0,
                    wdata: c,
                    rd: x & 12 == 0,
                };
                if x.is_multiple_of(997) {
                    f.async_reset();
                }
                step(&mut f, i);
                let by_regs =
                    !f.reload_rdata && f.r.wr_ptr_vis[..stages].iter().all(|&v| v == f.r.wr_ptr);
                assert_eq!(f.settled(), by_regs, "latency {latency}, cycle {c}");
            }
        }
    }

    #[test]
    fn stepping_in_place_is_eval_then_commit() {
        // the one-piece step against the two halves, register for register and word for
        // word, over random strobes (into a full and from an empty FIFO too), asynchronous
        // resets, both memories and every latency
        let mut rng = rand_mt::Mt64::new(12);
        for latency in 2..=MAX_LATENCY {
            for live in [false, true] {
                let mut a = Fifo::reset(&FifoParams { depth: 4, latency });
                if live {
                    a.keep_live_words_only();
                }
                let mut b = a.clone();
                let (mut over, mut under) = (false, false);
                for c in 0..3000u128 {
                    let x = rng.next_u64();
                    let i = FifoIn {
                        wr: x & 3 != 0,
                        wdata: c,
                        rd: x & 12 == 0 || x & 0x300 == 0,
                    };
                    if x.is_multiple_of(499) {
                        a.async_reset();
                        b.async_reset();
                    }
                    a.step_in_place(&i);
                    step(&mut b, i);
                    let show = |f: &Fifo| {
                        let words: Vec<_> = (0..f.rdusedw()).map(|k| f.peek(k)).collect();
                        (f.r.clone(), f.unsettled, f.reload_rdata, words)
                    };
                    assert_eq!(
                        show(&a),
                        show(&b),
                        "latency {latency}, live {live}, cycle {c}"
                    );
                    (over, under) = (over || a.overflow_cnt() > 0, under || a.underflow_cnt() > 0);
                }
                assert!(
                    over && under,
                    "writes into a full and reads from an empty FIFO"
                );
            }
        }
    }

    #[test]
    fn not_empty_exactly_latency_cycles_after_write() {
        for lat in 2..=6 {
            let mut f = Fifo::reset(&FifoParams {
                depth: 8,
                latency: lat,
            });
            // cycle 0: write
            assert!(f.empty());
            step(
                &mut f,
                FifoIn {
                    wr: true,
                    wdata: 0xabc,
                    rd: false,
                },
            );
            // now in cycle 1
            for c in 1..lat {
                assert!(
                    f.empty(),
                    "latency {lat}: empty must still be high in cycle {c}"
                );
                assert_eq!(f.usedw(), 1, "write side sees the word at once");
                step(&mut f, FifoIn::default());
            }
            assert!(!f.empty(), "latency {lat}: not empty in cycle {lat}");
            assert_eq!(f.rdata(), 0xabc);
            assert_eq!(f.rdusedw(), 1);
        }
    }

    #[test]
    fn show_ahead_read_and_flags() {
        let mut f = Fifo::reset(&FifoParams {
            depth: 4,
            latency: 3,
        });
        for k in 0..4u128 {
            step(
                &mut f,
                FifoIn {
                    wr: true,
                    wdata: 100 + k,
                    rd: false,
                },
            );
        }
        assert!(f.full());
        assert_eq!(f.usedw(), 4);
        // write while full is refused and counted
        step(
            &mut f,
            FifoIn {
                wr: true,
                wdata: 999,
                rd: false,
            },
        );
        assert_eq!(f.overflow_cnt(), 1);
        assert_eq!(f.usedw(), 4);
        for _ in 0..3 {
            step(&mut f, FifoIn::default());
        }
        for k in 0..4u128 {
            assert!(!f.empty());
            assert_eq!(f.rdata(), 100 + k);
            step(
                &mut f,
                FifoIn {
                    wr: false,
                    wdata: 0,
                    rd: true,
                },
            );
        }
        assert!(f.empty());
        assert!(!f.full());
        step(
            &mut f,
            FifoIn {
                wr: false,
                wdata: 0,
                rd: true,
            },
        );
        assert_eq!(f.underflow_cnt(), 1);
    }

    #[test]
    fn simultaneous_read_and_write_keep_count() {
        let mut f = Fifo::reset(&FifoParams {
            depth: 8,
            latency: 3,
        });
        for k in 0..3u128 {
            step(
                &mut f,
                FifoIn {
                    wr: true,
                    wdata: k,
                    rd: false,
                },
            );
        }
        for _ in 0..3 {
            step(&mut f, FifoIn::default());
        }
        assert_eq!(f.usedw(), 3);
        step(
            &mut f,
            FifoIn {
                wr: true,
                wdata: 3,
                rd: true,
            },
        );
        assert_eq!(f.usedw(), 3);
        assert_eq!(f.rdata(), 1);
        assert_eq!(f.rdusedw(), 2, "the new word is not visible yet");
    }
}

#[cfg(test)]
mod memory_tests {
    use super::*;
    use crate::fifo_mem::LIVE_KEEP;

    /// A FIFO keeping live words only reads the same words as the paged one for any traffic,
    /// holds memory for no more than twice its peak occupancy, and shrinks once empty; the
    /// paged one holds every page it touched.
    #[test]
    fn live_words_only_reads_the_same_and_stays_bounded() {
        let p = FifoParams {
            depth: 256,
            latency: 3,
        };
        let (mut a, mut b) = (Fifo::reset(&p), Fifo::reset(&p));
        b.keep_live_words_only();
        let mut x = 12345u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut peak_used = 0;
        for c in 0..200_000u64 {
            // bursts of writes, then drains
            let phase = (c / 3000) % 2 == 0;
            let wr = next() % 100 < if phase { 70 } else { 20 };
            let rd = next() % 100 < if phase { 30 } else { 80 };
            let i = FifoIn {
                wr: wr && !a.full(),
                wdata: next() as u128,
                rd: rd && !a.empty(),
            };
            if !a.empty() {
                assert_eq!(a.rdata(), b.rdata(), "cycle {c}");
            }
            assert_eq!((a.usedw(), a.empty()), (b.usedw(), b.empty()));
            let (na, nb) = (a.eval(&i), b.eval(&i));
            a.commit(na);
            b.commit(nb);
            peak_used = peak_used.max(b.usedw() as usize);
            assert!(
                b.words_held() <= (2 * peak_used).max(4 * LIVE_KEEP),
                "cycle {c}: {} words held, peak occupancy {peak_used}",
                b.words_held()
            );
        }
        assert_eq!(a.words_held(), 256, "the paged FIFO touched every page");
        assert!(peak_used > PAGE, "the test never filled more than a page");
        // drain completely: the live ring shrinks
        while b.usedw() > 0 {
            let i = FifoIn {
                wr: false,
                wdata: 0,
                rd: !b.empty(),
            };
            let nb = b.eval(&i);
            b.commit(nb);
        }
        assert!(b.words_held() <= 4 * LIVE_KEEP, "{}", b.words_held());
        assert_eq!(b.rdata(), 0, "an empty live FIFO shows 0");
    }

    /// `peek(k)` is the k-th visible word in write order, in both memory modes, and None past
    /// the words that show (a word written but not yet visible, L_F, is not shown).
    #[test]
    fn peek_shows_the_visible_words_in_order() {
        let p = FifoParams {
            depth: 16,
            latency: 3,
        };
        let (mut a, mut b) = (Fifo::reset(&p), Fifo::reset(&p));
        b.keep_live_words_only();
        let mut model = std::collections::VecDeque::new();
        let mut next = 1u128;
        for c in 0..2000u32 {
            // write in bursts of 5 of every 7 cycles, pop every third cycle (the FIFO wraps)
            let wr = c % 7 < 5 && !a.full();
            let rd = c % 3 == 0 && !a.empty();
            let i = FifoIn {
                wr,
                wdata: next,
                rd,
            };
            for f in [&a, &b] {
                let shown = f.rdusedw();
                for k in 0..shown {
                    assert_eq!(
                        f.peek(k),
                        model.get(k as usize).copied(),
                        "cycle {c}, word {k}"
                    );
                }
                assert_eq!(f.peek(shown), None, "cycle {c}: only {shown} words show");
            }
            if rd {
                model.pop_front();
            }
            if wr {
                model.push_back(next);
                next += 1;
            }
            let (na, nb) = (a.eval(&i), b.eval(&i));
            a.commit(na);
            b.commit(nb);
        }
        assert!(next > 16 * 3, "the FIFO wrapped several times");
    }
}
