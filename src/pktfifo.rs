//! Packet FIFO: the pair of show-ahead FIFOs every APErouter switch port buffer is made of, a
//! header/footer FIFO and a payload FIFO (Biagioni 2017 §5.3.3: "the header/footer FIFOs are
//! 128x128 bit, while the intra-tile and inter-tile payload FIFO are 4096x128 bit and 1024x128
//! bit"; Table 5.2's 16 BRAM per inter-tile port are exactly four such pairs of 1024 + 128 words).
//!
//! ```text
//!   wr_hf_i / wr_pay_i, wdata_i --> u_hf  (header/footer, HF_DEPTH words)  --> hf_*_o,  rd_hf_i
//!                               --> u_pay (payload, PAY_DEPTH words)       --> pay_*_o, rd_pay_i
//!   units_o = max(pay usedw, hf usedw x SCALE), SCALE = PAY_DEPTH / HF_DEPTH
//! ```
//!
//! Cycle contract: each half is an [`crate::fifo::Fifo`] (write-to-not-empty L_F).
//!
//! `units_o` is the occupancy a credit reports for this buffer, in payload words: a buffer of
//! PAY_DEPTH units, where a payload word takes one unit and a header or footer word takes SCALE
//! (the header/footer FIFO is SCALE times smaller). Its free space, `PAY_DEPTH - units_o`, is
//! the smaller of the two FIFOs' free space in those units, so a sender that charges each word
//! its cost never overflows either FIFO (docs/decisions/0006-split-fifos-and-credit-units.md).
//!
//! RTL twin: `rtl/exanet_pkt_fifo.sv` (instances `u_hf`, `u_pay`).

use crate::block::{self, Block};
use crate::fifo::{Fifo, FifoIn, FifoNext, FifoParams};
use crate::probe::{b, clk_rst, Visitor};

/// Structural parameters of a packet FIFO.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PktFifoParams {
    /// Header/footer FIFO depth, words (power of two, at most `pay_depth`).
    pub hf_depth: u32,
    /// Payload FIFO depth, words (power of two).
    pub pay_depth: u32,
    /// Write-to-not-empty delay of both FIFOs, cycles.
    pub latency: u32,
}

impl PktFifoParams {
    /// What a [`PktFifo`] resets to ([`Block::reset`](crate::block::Block::reset)): the depths
    /// as [`PktFifoParams::check_depths`] says and the latency as [`crate::fifo::check_latency`]
    /// says.
    pub fn check(&self) -> Result<(), String> {
        Self::check_depths(self.hf_depth, self.pay_depth)?;
        crate::fifo::check_latency(self.latency)
    }

    /// Both depths as [`crate::fifo::check_depth`] says, and the header/footer FIFO no deeper
    /// than the payload FIFO (a header or footer word's credit cost is their ratio). The message
    /// names the half at fault (`header/footer FIFO` or `payload FIFO`).
    pub fn check_depths(hf_depth: u32, pay_depth: u32) -> Result<(), String> {
        crate::fifo::check_depth(pay_depth).map_err(|e| format!("payload FIFO: {e}"))?;
        crate::fifo::check_depth(hf_depth).map_err(|e| format!("header/footer FIFO: {e}"))?;
        if hf_depth > pay_depth {
            return Err(format!(
                "header/footer FIFO: {hf_depth} words: at most the payload FIFO's {pay_depth} words"
            ));
        }
        Ok(())
    }

    /// Units a header or footer word takes in the credit count.
    pub fn scale(&self) -> u32 {
        // both depths are powers of two (`Fifo::reset`): a shift, not a division, on the hot path
        self.pay_depth >> self.hf_depth.trailing_zeros()
    }
}

/// Inputs of one cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PktFifoIn {
    pub wr_hf: bool,
    pub wr_pay: bool,
    pub wdata: u128,
    pub rd_hf: bool,
    pub rd_pay: bool,
}

#[derive(Debug, Clone, Copy)]
pub struct PktFifoNext {
    hf: FifoNext,
    pay: FifoNext,
}

#[derive(Debug, Clone)]
pub struct PktFifo {
    p: PktFifoParams,
    pub hf: Fifo,
    pub pay: Fifo,
}

impl PktFifo {
    pub fn params(&self) -> PktFifoParams {
        self.p
    }

    /// Occupancy in credit units.
    pub fn units(&self) -> u32 {
        self.pay.usedw().max(self.hf.usedw() * self.p.scale())
    }

    fn split(i: &PktFifoIn) -> (FifoIn, FifoIn) {
        (
            FifoIn {
                wr: i.wr_hf,
                wdata: i.wdata,
                rd: i.rd_hf,
            },
            FifoIn {
                wr: i.wr_pay,
                wdata: i.wdata,
                rd: i.rd_pay,
            },
        )
    }

    /// Both FIFOs settled (`Fifo::settled`).
    pub fn settled(&self) -> bool {
        self.hf.settled() && self.pay.settled()
    }

    /// The asynchronous reset of both halves ([`Fifo::async_reset`]).
    pub fn async_reset(&mut self) {
        self.hf.async_reset();
        self.pay.async_reset();
    }

    /// Writes while full plus reads while empty, both halves (zero in a correct design).
    pub fn errors(&self) -> u32 {
        self.hf.overflow_cnt()
            + self.hf.underflow_cnt()
            + self.pay.overflow_cnt()
            + self.pay.underflow_cnt()
    }
}

impl Block for PktFifo {
    type Spec = PktFifoParams;
    type In<'a> = PktFifoIn;
    type Next = PktFifoNext;
    type Events = ();

    /// Parameters must have been validated ([`PktFifoParams::check`]).
    fn reset(p: &PktFifoParams) -> PktFifo {
        if let Err(e) = p.check() {
            panic!("packet FIFO parameters must be validated before construction: {e}");
        }
        PktFifo {
            p: *p,
            hf: Fifo::reset(&FifoParams {
                depth: p.hf_depth,
                latency: p.latency,
            }),
            pay: Fifo::reset(&FifoParams {
                depth: p.pay_depth,
                latency: p.latency,
            }),
        }
    }

    #[inline]
    fn eval(&self, i: &PktFifoIn) -> PktFifoNext {
        let (h, p) = Self::split(i);
        PktFifoNext {
            hf: self.hf.eval(&h),
            pay: self.pay.eval(&p),
        }
    }

    /// Each half steps on its own when it is not quiet (`block::step`); the pair is never
    /// skipped as a whole.
    #[inline]
    fn commit(&mut self, n: PktFifoNext) {
        self.hf.commit(n.hf);
        self.pay.commit(n.pay);
    }

    fn probe(&self, i: &PktFifoIn, v: &mut dyn Visitor) {
        clk_rst(v);
        v.sig("wr_hf_i", 1, b(i.wr_hf));
        v.sig("wr_pay_i", 1, b(i.wr_pay));
        v.sig("wdata_i", 128, i.wdata);
        v.sig("rd_hf_i", 1, b(i.rd_hf));
        v.sig("rd_pay_i", 1, b(i.rd_pay));
        let (hw, pw) = (self.hf.ptr_width(), self.pay.ptr_width());
        v.sig("hf_full_o", 1, b(self.hf.full()));
        v.sig("hf_empty_o", 1, b(self.hf.empty()));
        v.sig("hf_usedw_o", hw, self.hf.usedw() as u128);
        v.sig("hf_rdusedw_o", hw, self.hf.rdusedw() as u128);
        v.sig("hf_rdata_o", 128, self.hf.rdata());
        v.sig("pay_full_o", 1, b(self.pay.full()));
        v.sig("pay_empty_o", 1, b(self.pay.empty()));
        v.sig("pay_usedw_o", pw, self.pay.usedw() as u128);
        v.sig("pay_rdusedw_o", pw, self.pay.rdusedw() as u128);
        v.sig("pay_rdata_o", 128, self.pay.rdata());
        v.sig("units_o", 16, self.units() as u128);
        let (h, p) = Self::split(i);
        v.enter("u_hf");
        self.hf.probe(&h, v);
        v.leave();
        v.enter("u_pay");
        self.pay.probe(&p, v);
        v.leave();
    }
}

impl PktFifo {
    /// One cycle in place: each half as `block::step` steps it (a quiet half is passed over).
    #[inline]
    pub fn step(&mut self, i: &PktFifoIn) {
        let (h, p) = Self::split(i);
        block::step(&mut self.hf, &h);
        block::step(&mut self.pay, &p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_are_the_scarcer_fifo_in_payload_words() {
        let mut f = PktFifo::reset(&PktFifoParams {
            hf_depth: 8,
            pay_depth: 64,
            latency: 3,
        });
        assert_eq!(f.params().scale(), 8);
        // a header and a footer: 2 of 8 header/footer words = 16 of 64 units
        for w in [true, false, false, false, true] {
            let n = f.eval(&PktFifoIn {
                wr_hf: w,
                wr_pay: !w,
                wdata: 1,
                ..Default::default()
            });
            f.commit(n);
        }
        assert_eq!((f.hf.usedw(), f.pay.usedw()), (2, 3));
        assert_eq!(f.units(), 16);
        for _ in 0..20 {
            let n = f.eval(&PktFifoIn {
                wr_pay: true,
                ..Default::default()
            });
            f.commit(n);
        }
        assert_eq!(f.units(), 23, "now the payload FIFO is the scarcer");
    }
}
