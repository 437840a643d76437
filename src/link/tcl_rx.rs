//! APElink TCL, RX CTRL (Biagioni 2017 §5.3.4, Figure 5.9).
//!
//! ```text
//!   PHY lane --rx_valid_i/rx_data_i--> [in_q] --> parser --> wr_valid_o/wr_hf_o/wr_vc_o/wr_data_o --> RX packet FIFO[vc]
//!                                                  +------> cred_upd_* --> local TCL TX (peer's credits)
//! ```
//!
//! Two register stages: the input register (`in_valid_q`, `in_data_q`) takes the PHY's beat;
//! the parser works on it and loads the write port (`wr_*_q`) or the credit port
//! (`cred_upd_*_q`). A header's last beat out of the PHY in cycle `c` is written into its RX
//! FIFO (`wr_valid_o` high) in cycle `c + 2`.
//!
//! Parsing, one beat a cycle:
//! - MAGIC sets `magic_q`; the beat after a MAGIC is START (a header follows), the first beat
//!   of a credit, or MAGIC again (an escaped data beat equal to MAGIC); anything else there is
//!   a framing error.
//! - Between packets a credit comes without MAGIC; inside a packet only behind one.
//! - Header: SECDED decode of the two beats. A single error is corrected (and counted); an
//!   uncorrectable header loses the packet: the parser discards beats until the next
//!   MAGIC + START, so only that packet is lost (and counted).
//! - Payload words go to the RX FIFO of the header's VC; the CRC-32C of the header's covered
//!   bits, the payload and the footer low half is checked against the footer. A bad CRC is
//!   counted and the packet is delivered with `crc_bad` set in its footer (virtual cut-through
//!   has already forwarded the rest).
//! - One CRC engine, 64 bits wide, advances `crc_q` by each data beat as it arrives (a header
//!   beat masked by `HDR_CRC_MASK`). The bit the SECDED decoder corrects, if any, is added in
//!   at the header's second beat (`crc_correction`), so after the header `crc_q` is
//!   `crc_start` of the corrected header; at the footer's second beat it covers the footer's
//!   low half and is compared with its CRC field.
//! - Every packet the TX sent ends in exactly one of: delivered (`stat_pkts`, of which
//!   `stat_crc_err` with a bad CRC) or discarded (`stat_lost` = `stat_disc_hdr` +
//!   `stat_disc_framing` + `stat_disc_resync`). A packet whose header arrives bad is counted at
//!   its header. A packet the RX never saw a header of is counted when the next footer whose
//!   CRC and link sequence number (`lseq`, `src/link/lseq.rs`) both check arrives (or whose
//!   sequence number checks after a clean header, `hdr_clean_q`, for a gap below `LSEQ_NEAR`):
//!   the footer says how many packets the TX sent before it, `lseq_q` how many the RX has
//!   accounted for.
//!   They are counted as framing lost, or as discarded to the next Start when the first loss
//!   since the last accounted packet was a bad header (`gap_why_q`). docs/decisions/0016.
//! - A credit's status is taken by majority of its three copies (`credit::maj3`); a credit
//!   whose copies all differ, or whose beats are out of order, is rejected and counted.
//!
//! RTL twin: `rtl/exanet_tcl_rx.sv`.

use super::credit;
use super::lseq::{self, LSEQ_NEAR, LSEQ_WINDOW};
use super::tcl_tx::{vc_mask, TclCfg, TclParams};
use crate::block::{self, Block};
use crate::packet::crc::{crc32c_update64, crc_correction, CRC_INIT, CRC_XOROUT, HDR_CRC_MASK};
use crate::packet::layout::{FTR_LSEQ, FTR_LSEQ_CHK};
use crate::packet::wire::{MAGIC, START};
use crate::packet::{payload_words, secded_decode, EccStatus};
use crate::probe::{b, clk_rst, Visitor};

/// Parser modes (`mode_q`): `M_IDLE`, `M_HDR`, `M_PAY`, `M_FTR`, `M_DISCARD`, from the one table
/// shared with the RTL and the waves.
pub use crate::wave::states::tcl_rx_mode::*;

/// Bit of the footer set when its CRC check failed.
pub const FTR_CRC_BAD_BIT: u32 = 64;

/// `gap_why_q`: what started the packets lost since the last packet accounted for:
/// `GAP_NONE`, `GAP_FRAMING` (a beat the parser could not place), `GAP_RESYNC` (a bad header,
/// then discarding to the next Start), from the table shared with the RTL and the waves.
pub use crate::wave::states::tcl_rx_gap_why::*;

/// Inputs of one cycle.
#[derive(Debug, Clone, Copy, Default)]
pub struct RxIn {
    pub rx_valid: bool,
    pub rx_data: u64,
}

crate::registers! {
    /// Registers of the RX CTRL: each field is the RTL register `<name>_q`.
    pub struct TclRx(p: &TclParams) {
        in_valid: bool [1],
        in_data: u64 [64],
        mode: u8 [3],
        half: bool [1],
        magic: bool [1],
        cred_idx: u8 [2],
        cred_ok: bool [1],
        cred_acc: u128 [80],
        lo: u64 [64],
        words_left: u32 [13],
        vc: u8 [3],
        crc: u32 [32] = CRC_INIT,
        /// Link sequence number of the next packet to account for (decision 0016).
        lseq: u16 [16],
        gap_why: u8 [2],
        /// The header of the packet being received arrived without an error.
        hdr_clean: bool [1],
        wr_valid: bool [1],
        wr_hf: bool [1],
        wr_vc: u8 [3],
        wr_data: u128 [128],
        cred_upd_valid: bool [1],
        cred_upd_stop: u8 [8],
        cred_upd_usedw: u128 [80],
        stat_pkts: u32 [32],
        stat_words: u32 [32],
        stat_credits: u32 [32],
        stat_ecc_corr: u32 [32],
        stat_ecc_uncorr: u32 [32],
        stat_crc_err: u32 [32],
        /// Packets lost, every reason: `stat_disc_hdr + stat_disc_framing + stat_disc_resync`.
        stat_lost: u32 [32],
        /// Packets discarded at their header: uncorrectable, or naming a VC that does not exist.
        stat_disc_hdr: u32 [32],
        /// Packets never seen as a packet (Magic or Start hit), counted from the sequence gap.
        stat_disc_framing: u32 [32],
        /// Packets that went by while the parser discarded to the next Start after a bad header.
        stat_disc_resync: u32 [32],
        /// Beats dropped outside any packet.
        stat_dropped: u32 [32],
        stat_credit_err: u32 [32],
    }
}

/// What the RX did in a cycle, for observers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RxEvents {
    /// A header was loaded into the write port this cycle.
    pub header_written: bool,
}

fn inc(x: u32) -> u32 {
    x.wrapping_add(1)
}

fn in_packet(mode: u8) -> bool {
    mode == M_HDR || mode == M_PAY || mode == M_FTR
}

impl TclRx {
    /// The parser is inside a packet (its header taken, its footer not yet), or is writing a
    /// word into the RX FIFO.
    pub fn in_packet(&self) -> bool {
        in_packet(self.mode) || self.wr_valid
    }

    /// The link went down (`net/faults.rs`) between this packet's Start and the write of its
    /// header: the packet is lost, counted as framing lost, and the parser waits for the next
    /// MAGIC START. A model-only entry: the RTL twin has no link-down input (decision 0032).
    pub fn abandon_header(&mut self) {
        self.stat_lost = inc(self.stat_lost);
        self.stat_disc_framing = inc(self.stat_disc_framing);
        self.lseq = self.lseq.wrapping_add(1);
        self.mode = M_DISCARD;
        self.half = false;
        self.magic = false;
        self.cred_idx = 0;
    }

    /// Credit beat `k` of the credit being received. Beats are consumed by position: a
    /// credit has one beat (start/stop) or `uw_beats` beats (usedword) whatever they contain,
    /// so a corrupted credit never shifts the data that follows. Each beat is checked (tag,
    /// index, majority); a credit with any bad beat is rejected and counted at its last beat.
    fn credit_beat(&self, n: &mut TclRx, p: &TclParams, cfg: &TclCfg, beat: u64, k: u32) {
        let ok_before = k == 0 || self.cred_ok;
        if !cfg.usedword {
            match credit::ss_decode(beat).filter(|_| credit::is_ss(beat)) {
                Some(stop) => {
                    n.cred_upd_valid = true;
                    n.cred_upd_stop = stop & vc_mask(p.num_vcs);
                    n.stat_credits = inc(self.stat_credits);
                }
                None => n.stat_credit_err = inc(self.stat_credit_err),
            }
            n.cred_idx = 0;
            return;
        }
        let decoded = credit::uw_decode(beat).filter(|_| credit::is_uw(beat, k));
        let mut acc = if k == 0 { 0 } else { self.cred_acc };
        if let Some((lo, hi)) = decoded {
            let sh = 20 * k;
            acc &= !(0xfffffu128 << sh);
            acc |= ((lo as u128) | ((hi as u128) << 10)) << sh;
        }
        n.cred_acc = acc;
        let ok = ok_before && decoded.is_some();
        if k + 1 == p.uw_beats {
            n.cred_idx = 0;
            n.cred_ok = false;
            if ok {
                n.cred_upd_valid = true;
                // only the VCs that exist; the other slots report zero
                let keep = (1u128 << (10 * p.num_vcs)) - 1;
                n.cred_upd_usedw = acc & keep;
                n.stat_credits = inc(self.stat_credits);
            } else {
                n.stat_credit_err = inc(self.stat_credit_err);
            }
        } else {
            n.cred_idx = (k + 1) as u8;
            n.cred_ok = ok;
        }
    }

    fn is_credit0(cfg: &TclCfg, beat: u64) -> bool {
        if cfg.usedword {
            credit::is_uw(beat, 0)
        } else {
            credit::is_ss(beat)
        }
    }

    /// A data beat of the packet being received.
    fn data_beat(&self, n: &mut TclRx, p: &TclParams, beat: u64, ev: &mut RxEvents) {
        // The CRC engine: the running state after this beat (a header beat's covered bits).
        let covered = match (self.mode, self.half) {
            (M_HDR, false) => HDR_CRC_MASK as u64,
            (M_HDR, true) => (HDR_CRC_MASK >> 64) as u64,
            _ => u64::MAX,
        };
        let crc_beat = crc32c_update64(self.crc, beat & covered);
        if !self.half {
            n.lo = beat;
            n.half = true;
            n.crc = crc_beat;
            return;
        }
        n.half = false;
        let word = ((beat as u128) << 64) | self.lo as u128;
        match self.mode {
            M_HDR => {
                let (status, hdr) = secded_decode(word);
                match status {
                    EccStatus::Uncorrectable => {
                        n.stat_ecc_uncorr = inc(self.stat_ecc_uncorr);
                        self.discard_header(n);
                    }
                    _ => {
                        if status != EccStatus::Clean {
                            n.stat_ecc_corr = inc(self.stat_ecc_corr);
                        }
                        n.hdr_clean = status == EccStatus::Clean;
                        let vc = (hdr & 0x7) as u8;
                        if vc as u32 >= p.num_vcs {
                            self.discard_header(n);
                        } else {
                            let words = payload_words(hdr, p.size_in_words);
                            n.vc = vc;
                            n.words_left = words;
                            n.wr_valid = true;
                            n.wr_hf = true;
                            n.wr_vc = vc;
                            n.wr_data = hdr;
                            // crc_start(hdr), the corrected header's
                            n.crc = match status {
                                EccStatus::Corrected { bit } => {
                                    crc_beat ^ crc_correction(u32::from(bit))
                                }
                                _ => crc_beat,
                            };
                            n.stat_words = inc(self.stat_words);
                            n.mode = if words > 0 { M_PAY } else { M_FTR };
                            ev.header_written = true;
                        }
                    }
                }
            }
            M_PAY => {
                n.wr_valid = true;
                n.wr_hf = false;
                n.wr_vc = self.vc;
                n.wr_data = word;
                n.crc = crc_beat;
                n.words_left = self.words_left - 1;
                n.stat_words = inc(self.stat_words);
                if self.words_left == 1 {
                    n.mode = M_FTR;
                }
            }
            _ => {
                let crc = self.crc ^ CRC_XOROUT; // after the footer's low half
                let bad = crc != (word >> 96) as u32;
                n.wr_valid = true;
                n.wr_hf = true;
                n.wr_vc = self.vc;
                // The link sequence fields are this link's only: written as zero, so the
                // packet leaves as it entered. crc_bad set by an earlier hop is kept.
                let lseq_bits = FTR_LSEQ.mask() | FTR_LSEQ_CHK.mask();
                n.wr_data = (word & !lseq_bits) | ((bad as u128) << FTR_CRC_BAD_BIT);
                n.stat_words = inc(self.stat_words);
                n.stat_pkts = inc(self.stat_pkts);
                if bad {
                    n.stat_crc_err = inc(self.stat_crc_err);
                }
                // A footer whose CRC and sequence check both hold says how many packets the
                // TX sent before this one; those the RX has not accounted for were lost.
                // A footer whose CRC failed is believed for a small gap after a clean header.
                let gap = lseq::read(word)
                    .map(|s| s.wrapping_sub(self.lseq))
                    .filter(|&g| g < LSEQ_WINDOW && (!bad || (self.hdr_clean && g < LSEQ_NEAR)));
                match gap {
                    Some(g) => {
                        if g > 0 {
                            n.stat_lost = self.stat_lost.wrapping_add(g as u32);
                            if self.gap_why == GAP_RESYNC {
                                n.stat_disc_resync = self.stat_disc_resync.wrapping_add(g as u32);
                            } else {
                                n.stat_disc_framing = self.stat_disc_framing.wrapping_add(g as u32);
                            }
                        }
                        n.lseq = self.lseq.wrapping_add(g).wrapping_add(1);
                        n.gap_why = GAP_NONE;
                    }
                    None => n.lseq = self.lseq.wrapping_add(1),
                }
                n.mode = M_IDLE;
            }
        }
    }

    /// A header that cannot be used (uncorrectable, or a VC that does not exist): the packet
    /// is lost, counted, and the parser discards to the next MAGIC START.
    fn discard_header(&self, n: &mut TclRx) {
        n.stat_lost = inc(self.stat_lost);
        n.stat_disc_hdr = inc(self.stat_disc_hdr);
        n.lseq = self.lseq.wrapping_add(1);
        if self.gap_why == GAP_NONE {
            n.gap_why = GAP_RESYNC;
        }
        n.mode = M_DISCARD;
    }

    /// A beat the parser cannot place: dropped and counted; it may be the first sign of a
    /// packet whose framing was lost.
    fn drop_beat(&self, n: &mut TclRx) {
        n.stat_dropped = inc(self.stat_dropped);
        if self.gap_why == GAP_NONE {
            n.gap_why = GAP_FRAMING;
        }
    }

    /// The next state, written into `n`, which holds a copy of `self`.
    fn next(&self, p: &TclParams, cfg: &TclCfg, i: &RxIn, n: &mut TclRx) -> RxEvents {
        let mut ev = RxEvents::default();
        n.in_valid = i.rx_valid;
        n.in_data = i.rx_data;
        n.wr_valid = false;
        n.cred_upd_valid = false;
        if !self.in_valid {
            return ev;
        }
        let beat = self.in_data;
        if self.cred_idx != 0 {
            self.credit_beat(n, p, cfg, beat, self.cred_idx as u32);
        } else if self.magic {
            n.magic = false;
            if in_packet(self.mode) {
                // Inside a packet a MAGIC announces an escaped MAGIC or a credit, nothing else:
                // the packet keeps its length whatever the beat says (Biagioni 2017 §5.3.4,
                // "trusting the Size field stored in the header").
                if beat == MAGIC {
                    self.data_beat(n, p, beat, &mut ev);
                } else {
                    self.credit_beat(n, p, cfg, beat, 0);
                }
            } else if beat == START {
                n.mode = M_HDR;
                n.half = false;
                n.crc = CRC_INIT;
            } else if Self::is_credit0(cfg, beat) {
                self.credit_beat(n, p, cfg, beat, 0);
            } else if beat == MAGIC && self.mode == M_DISCARD {
                // an escaped MAGIC inside a discarded packet
            } else {
                self.drop_beat(n);
            }
        } else if beat == MAGIC {
            n.magic = true;
        } else if in_packet(self.mode) {
            self.data_beat(n, p, beat, &mut ev);
        } else if self.mode == M_IDLE && Self::is_credit0(cfg, beat) {
            self.credit_beat(n, p, cfg, beat, 0);
        } else {
            self.drop_beat(n);
        }
        ev
    }
}

/// The RX CTRL's inputs in a cycle: the parameters and configuration registers it shares with
/// its TX and its peer, and its ports.
#[derive(Debug, Clone, Copy)]
pub struct TclRxIn<'a> {
    pub p: &'a TclParams,
    pub cfg: &'a TclCfg,
    pub port: RxIn,
}

impl Block for TclRx {
    type Spec = TclParams;
    type In<'a> = TclRxIn<'a>;
    type Next = (TclRx, RxEvents);
    type Events = RxEvents;

    fn reset(p: &TclParams) -> TclRx {
        TclRx::reset_regs(p)
    }

    fn eval(&self, i: &TclRxIn) -> (TclRx, RxEvents) {
        block::eval_by_copy(self, |now, n| now.next(i.p, i.cfg, &i.port, n))
    }

    fn commit(&mut self, (n, ev): (TclRx, RxEvents)) -> RxEvents {
        *self = n;
        ev
    }

    /// The next state built in `self` from a copy of this cycle's registers.
    #[inline]
    fn step_in_place(&mut self, i: &TclRxIn) -> RxEvents {
        block::step_by_copy(self, |now, n| now.next(i.p, i.cfg, &i.port, n))
    }

    fn probe(&self, x: &TclRxIn, v: &mut dyn Visitor) {
        let (cfg, i) = (x.cfg, &x.port);
        clk_rst(v);
        v.sig("cfg_usedword_i", 1, b(cfg.usedword));
        v.sig("rx_valid_i", 1, b(i.rx_valid));
        v.sig("rx_data_i", 64, i.rx_data as u128);
        v.sig("wr_valid_o", 1, b(self.wr_valid));
        v.sig("wr_hf_o", 1, b(self.wr_hf));
        v.sig("wr_vc_o", 3, self.wr_vc as u128);
        v.sig("wr_data_o", 128, self.wr_data);
        v.sig("cred_upd_valid_o", 1, b(self.cred_upd_valid));
        v.sig("cred_upd_stop_o", 8, self.cred_upd_stop as u128);
        v.sig("cred_upd_usedw_o", 80, self.cred_upd_usedw);
        self.probe_regs(x.p, v);
    }
}

impl crate::counters::Counters for TclRx {
    fn counters(&mut self, v: &mut dyn crate::counters::CounterVisitor) {
        v.counter("stat_pkts_q", &mut self.stat_pkts);
        v.counter("stat_words_q", &mut self.stat_words);
        v.counter("stat_credits_q", &mut self.stat_credits);
        v.counter("stat_ecc_corr_q", &mut self.stat_ecc_corr);
        v.counter("stat_ecc_uncorr_q", &mut self.stat_ecc_uncorr);
        v.counter("stat_crc_err_q", &mut self.stat_crc_err);
        v.counter("stat_lost_q", &mut self.stat_lost);
        v.counter("stat_disc_hdr_q", &mut self.stat_disc_hdr);
        v.counter("stat_disc_framing_q", &mut self.stat_disc_framing);
        v.counter("stat_disc_resync_q", &mut self.stat_disc_resync);
        v.counter("stat_dropped_q", &mut self.stat_dropped);
        v.counter("stat_credit_err_q", &mut self.stat_credit_err);
    }
}
