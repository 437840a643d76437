//! APElink TCL, TX CTRL (seed 002 §5.3.4, Figure 5.9; seed 000 §2.8.2).
//!
//! ```text
//!   inter-tile TX FIFO --fifo_empty_i/fifo_rdata_i--> +---------+ --tx_valid_o/tx_data_o--> PHY lane
//!                      <------------ fifo_rd_o ------- | TCL TX  | <-------- tx_ready_i ----
//!   local TCL RX ---- cred_upd_* (peer's credits) ---> |         |
//!   local RX FIFOs -- rxf_usedw_i (our buffer) ------> +---------+
//! ```
//!
//! Reads 128-bit words (header, payload, footer) from the show-ahead TX FIFO and sends them as
//! 64-bit beats, low half first, on a ready/valid interface, with the APElink word stuffing:
//! `MAGIC START H.lo H.hi P0.lo P0.hi ... F.lo F.hi`. A data beat equal to MAGIC is escaped by a
//! MAGIC in front of it.
//!
//! Credits (the status of *our* RX FIFOs, for the peer's TX):
//! - after every footer, a whole credit (no Magic) when `cfg.after_pkt` (seed 002 §5.3.4);
//! - between packets, whenever `credit_age_q >= cfg.credit_period` (default 35);
//! - inside a packet, at a 128-bit word boundary, behind a MAGIC, when the credit is older than
//!   `cfg.max_interval` (default 110 = L_T), or when the packet is suspended (next word missing
//!   or out of credit) and the credit is older than `cfg.credit_period`.
//!   See docs/decisions/0002-credit-schedule.md for why.
//!
//! Flow control on the peer's RX FIFO of each VC, per 128-bit word:
//! - usedword: `credit_cnt_q[v]` estimates the peer's free words: reloaded with
//!   `rx_depth - usedw` from every credit received, decremented for every word sent; a word may
//!   go when `credit_cnt_q[v] > tred` (transmission stops when the credit reaches TRED);
//! - start/stop: `credit_stop_q[v]` mirrors the stop bit of the last credit received (the peer
//!   sets it when its free space is at or below TRED); a word may go when it is clear.
//!   The check for a header is made at its MAGIC, which starts the packet.
//!
//! Cycle contract: the header at the FIFO head in cycle `c` (not empty) with the link idle
//! gives MAGIC in `tx_data_o` in cycle `c + 1`, START in `c + 2`, the header halves in
//! `c + 3` and `c + 4` (one TX pipeline cycle plus three serialisation cycles before the
//! header's last beat). One beat per cycle while `tx_ready_i` is high. The FIFO pop is
//! registered (`fifo_rd_q`): the word whose low half is loaded in cycle `c` is popped at the
//! end of `c + 1`, and the next word is at the head in `c + 2`, in time for its low half.
//!
//! RTL twin: `rtl/exanet_tcl_tx.sv`; every register here is `<name>_q` there.

use super::credit;
use crate::packet::{payload_words, wire::MAGIC, wire::START};
use crate::probe::{b, clk_rst, Visitor};

/// Structural parameters shared by TX and RX of a TCL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TclParams {
    /// Virtual channels, 1..=8.
    pub num_vcs: u32,
    /// Depth of each RX FIFO (ours and the peer's), words, power of two.
    pub rx_depth: u32,
    /// Beats of a usedword credit, 1..=4.
    pub uw_beats: u32,
    /// Header size in words rather than bytes.
    pub size_in_words: bool,
}

impl TclParams {
    /// Bits of an RX FIFO occupancy (`usedw`), address bits + 1.
    pub fn usedw_bits(&self) -> u32 {
        self.rx_depth.trailing_zeros() + 1
    }
}

/// Run-time configuration registers (inputs `cfg_*_i` of the RTL).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TclCfg {
    pub credit_period: u32,
    pub max_interval: u32,
    pub tred: u32,
    pub usedword: bool,
    pub after_pkt: bool,
}

/// Kind of the 128-bit word being sent.
pub const K_HDR: u8 = 0;
pub const K_PAY: u8 = 1;
pub const K_FTR: u8 = 2;

const AGE_MAX: u32 = 0xffff;

/// Inputs of one cycle, all register outputs of other blocks.
#[derive(Debug, Clone, Copy, Default)]
pub struct TxIn {
    pub fifo_empty: bool,
    pub fifo_rdata: u128,
    pub tx_ready: bool,
    pub cred_upd_valid: bool,
    pub cred_upd_stop: u8,
    /// Occupancies reported by the peer, 8 slots of 10 bits (slot v = bits 10v+9:10v).
    pub cred_upd_usedw: u128,
    /// Our RX FIFOs' occupancies, `usedw_bits` bits per VC, VC 0 lowest.
    pub rxf_usedw: u128,
}

/// Registers of the TX CTRL. Field names are the RTL register names without `_q`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TclTx {
    pub out_valid: bool,
    pub out_data: u64,
    pub fifo_rd: bool,
    pub pkt: bool,
    pub start: bool,
    pub kind: u8,
    pub half: bool,
    pub esc: bool,
    pub word_hi: u64,
    pub words_left: u32,
    pub vc: u8,
    pub drop: bool,
    pub cred_magic: bool,
    pub cred_beat: u8,
    pub cred_snap: u128,
    pub cred_owed: bool,
    pub credit_age: u32,
    pub credit_cnt: [u32; 8],
    pub credit_stop: u8,
    pub stat_pkts: u32,
    pub stat_words: u32,
    pub stat_credits: u32,
    pub stat_stall: u32,
    pub stat_drops: u32,
}

/// What a beat loaded into the output register carries (for observers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BeatKind {
    /// A MAGIC opening a packet.
    Magic,
    Start,
    Header,
    Payload,
    Footer,
    /// A credit beat sent between packets.
    Credit,
    /// The MAGIC in front of a credit inside a packet.
    CreditMagic,
    /// A credit beat inside a packet.
    CreditInner,
    /// The MAGIC escaping a data beat equal to MAGIC.
    Escape,
}

/// What the TX did in a cycle, for observers (statistics, latency probes). Not registers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TxEvents {
    /// The kind of beat loaded into the output register this cycle, if any.
    pub loaded: Option<BeatKind>,
    /// A credit's first beat was loaded; `credit_inner`: inside a packet.
    pub credit_loaded: bool,
    pub credit_inner: bool,
}

impl TclTx {
    /// Reset state. The credit age starts saturated, so a credit goes out first.
    pub fn new(p: &TclParams) -> TclTx {
        TclTx {
            out_valid: false,
            out_data: 0,
            fifo_rd: false,
            pkt: false,
            start: false,
            kind: K_HDR,
            half: false,
            esc: false,
            word_hi: 0,
            words_left: 0,
            vc: 0,
            drop: false,
            cred_magic: false,
            cred_beat: 0,
            cred_snap: 0,
            cred_owed: false,
            credit_age: AGE_MAX,
            credit_cnt: [p.rx_depth; 8],
            credit_stop: 0,
            stat_pkts: 0,
            stat_words: 0,
            stat_credits: 0,
            stat_stall: 0,
            stat_drops: 0,
        }
    }

    fn credit_ok(&self, cfg: &TclCfg, vc: u8) -> bool {
        if cfg.usedword {
            self.credit_cnt[vc as usize] > cfg.tred
        } else {
            self.credit_stop & (1 << vc) == 0
        }
    }

    /// Occupancy of our RX FIFO `v` from the packed input.
    fn rxf_usedw(p: &TclParams, i: &TxIn, v: u32) -> u32 {
        let w = p.usedw_bits();
        ((i.rxf_usedw >> (w * v)) & ((1u128 << w) - 1)) as u32
    }

    /// First beat of a credit, with the snapshot that the following beats will use.
    fn credit_beat0(p: &TclParams, cfg: &TclCfg, i: &TxIn) -> (u64, u128) {
        if cfg.usedword {
            let mut snap = 0u128;
            for v in 0..p.num_vcs {
                let u = Self::rxf_usedw(p, i, v).min(credit::USEDW_MAX);
                snap |= (u as u128) << (10 * v);
            }
            (
                credit::uw_beat(0, snap_get(snap, 0), snap_get(snap, 1)),
                snap,
            )
        } else {
            let mut stop = 0u8;
            for v in 0..p.num_vcs {
                let free = p.rx_depth - Self::rxf_usedw(p, i, v);
                if free <= cfg.tred {
                    stop |= 1 << v;
                }
            }
            (credit::ss_beat(stop), 0)
        }
    }

    /// Next state and this cycle's events. Pure: reads `self` and `i` only.
    pub fn eval(&self, p: &TclParams, cfg: &TclCfg, i: &TxIn) -> (TclTx, TxEvents) {
        let mut n = self.clone();
        let mut ev = TxEvents::default();
        let can_load = !self.out_valid || i.tx_ready;
        let head = i.fifo_rdata;
        let head_avail = !i.fifo_empty && !self.fifo_rd;
        let hdr_vc = (head & 0x7) as u8;
        let hdr_vc_ok = (hdr_vc as u32) < p.num_vcs;

        n.out_valid = self.out_valid && !i.tx_ready;
        n.fifo_rd = false;
        n.credit_age = (self.credit_age + 1).min(AGE_MAX);

        // A word blocked by credit this cycle (statistic only).
        let blocked_between =
            !self.pkt && !self.drop && head_avail && hdr_vc_ok && !self.credit_ok(cfg, hdr_vc);
        let at_boundary = self.pkt && !self.start && !self.half && !self.esc && self.kind != K_HDR;
        let blocked_inside = at_boundary && head_avail && !self.credit_ok(cfg, self.vc);
        if can_load && (blocked_between || blocked_inside) {
            n.stat_stall = self.stat_stall.wrapping_add(1);
        }

        let mut load_word = false; // a word's low half is loaded: one credit word of `vc` used
        let mut credit0 = false; // the first beat of a credit is loaded

        if can_load {
            if self.cred_beat != 0 {
                // rest of a multi-beat usedword credit, from the snapshot
                let k = self.cred_beat as u32;
                n.out_valid = true;
                n.out_data = credit::uw_beat(
                    k,
                    snap_get(self.cred_snap, 2 * k),
                    snap_get(self.cred_snap, 2 * k + 1),
                );
                n.cred_beat = if k + 1 == p.uw_beats {
                    0
                } else {
                    self.cred_beat + 1
                };
                ev.loaded = Some(if self.pkt {
                    BeatKind::CreditInner
                } else {
                    BeatKind::Credit
                });
            } else if self.cred_magic {
                n.cred_magic = false;
                credit0 = true;
            } else if self.start {
                n.out_valid = true;
                n.out_data = START;
                n.start = false;
                ev.loaded = Some(BeatKind::Start);
            } else if !self.pkt {
                if self.cred_owed || self.credit_age >= cfg.credit_period {
                    n.cred_owed = false;
                    credit0 = true;
                } else if !self.drop && head_avail {
                    if !hdr_vc_ok {
                        // a header naming a VC this link does not have: drop the whole packet
                        n.drop = true;
                        n.kind = K_HDR;
                        n.words_left = payload_words(head, p.size_in_words);
                    } else if self.credit_ok(cfg, hdr_vc) {
                        n.out_valid = true;
                        n.out_data = MAGIC;
                        ev.loaded = Some(BeatKind::Magic);
                        n.pkt = true;
                        n.start = true;
                        n.kind = K_HDR;
                        n.half = false;
                        n.esc = false;
                        n.vc = hdr_vc;
                        n.words_left = payload_words(head, p.size_in_words);
                    }
                }
            } else {
                // inside a packet, after START
                // a header's credit was checked at its MAGIC; an escaped word's at its escape
                let data_ready =
                    head_avail && (self.kind == K_HDR || self.esc || self.credit_ok(cfg, self.vc));
                let inner_credit = at_boundary
                    && (self.credit_age >= cfg.max_interval
                        || (!data_ready && self.credit_age >= cfg.credit_period));
                if inner_credit {
                    n.out_valid = true;
                    n.out_data = MAGIC;
                    n.cred_magic = true;
                    ev.loaded = Some(BeatKind::CreditMagic);
                } else if self.half || data_ready {
                    let beat = if self.half { self.word_hi } else { head as u64 };
                    n.out_valid = true;
                    if beat == MAGIC && !self.esc {
                        n.out_data = MAGIC;
                        n.esc = true;
                        ev.loaded = Some(BeatKind::Escape);
                    } else {
                        n.out_data = beat;
                        n.esc = false;
                        ev.loaded = Some(match self.kind {
                            K_HDR => BeatKind::Header,
                            K_PAY => BeatKind::Payload,
                            _ => BeatKind::Footer,
                        });
                        if !self.half {
                            n.word_hi = (head >> 64) as u64;
                            n.fifo_rd = true;
                            n.half = true;
                            load_word = true;
                            n.stat_words = self.stat_words.wrapping_add(1);
                            if self.kind == K_PAY {
                                n.words_left = self.words_left - 1;
                            }
                        } else {
                            n.half = false;
                            match self.kind {
                                K_HDR => n.kind = if self.words_left > 0 { K_PAY } else { K_FTR },
                                K_PAY => {
                                    if self.words_left == 0 {
                                        n.kind = K_FTR;
                                    }
                                }
                                _ => {
                                    n.pkt = false;
                                    n.kind = K_HDR;
                                    n.stat_pkts = self.stat_pkts.wrapping_add(1);
                                    n.cred_owed = cfg.after_pkt;
                                }
                            }
                        }
                    }
                }
            }
        }

        if credit0 {
            let (beat, snap) = Self::credit_beat0(p, cfg, i);
            n.out_valid = true;
            n.out_data = beat;
            n.cred_snap = snap;
            n.cred_beat = if cfg.usedword && p.uw_beats > 1 { 1 } else { 0 };
            n.credit_age = 1;
            n.stat_credits = self.stat_credits.wrapping_add(1);
            ev.credit_loaded = true;
            ev.credit_inner = self.pkt;
            ev.loaded = Some(if self.pkt {
                BeatKind::CreditInner
            } else {
                BeatKind::Credit
            });
        }

        // Dropping a packet with an invalid VC: pop its words, send nothing.
        if self.drop && head_avail {
            n.fifo_rd = true;
            match self.kind {
                K_HDR => n.kind = if self.words_left > 0 { K_PAY } else { K_FTR },
                K_PAY => {
                    n.words_left = self.words_left - 1;
                    if self.words_left == 1 {
                        n.kind = K_FTR;
                    }
                }
                _ => {
                    n.drop = false;
                    n.kind = K_HDR;
                    n.stat_drops = self.stat_drops.wrapping_add(1);
                }
            }
        }

        // Credit state: fresh credit from the peer, minus the word loaded this cycle.
        for v in 0..p.num_vcs as usize {
            if cfg.usedword {
                let base = if i.cred_upd_valid {
                    p.rx_depth - snap_get(i.cred_upd_usedw, v as u32).min(p.rx_depth)
                } else {
                    self.credit_cnt[v]
                };
                let used = (load_word && self.vc as usize == v) as u32;
                n.credit_cnt[v] = base.saturating_sub(used);
            }
        }
        if !cfg.usedword && i.cred_upd_valid {
            n.credit_stop = i.cred_upd_stop & vc_mask(p.num_vcs);
        }
        (n, ev)
    }

    pub fn probe(&self, p: &TclParams, cfg: &TclCfg, i: &TxIn, v: &mut dyn Visitor) {
        clk_rst(v);
        probe_cfg(cfg, v);
        v.sig("fifo_empty_i", 1, b(i.fifo_empty));
        v.sig("fifo_rdata_i", 128, i.fifo_rdata);
        v.sig("fifo_rd_o", 1, b(self.fifo_rd));
        v.sig("tx_ready_i", 1, b(i.tx_ready));
        v.sig("tx_valid_o", 1, b(self.out_valid));
        v.sig("tx_data_o", 64, self.out_data as u128);
        v.sig("cred_upd_valid_i", 1, b(i.cred_upd_valid));
        v.sig("cred_upd_stop_i", 8, i.cred_upd_stop as u128);
        v.sig("cred_upd_usedw_i", 80, i.cred_upd_usedw);
        v.sig("rxf_usedw_i", p.num_vcs * p.usedw_bits(), i.rxf_usedw);
        v.sig("out_valid_q", 1, b(self.out_valid));
        v.sig("out_data_q", 64, self.out_data as u128);
        v.sig("fifo_rd_q", 1, b(self.fifo_rd));
        v.sig("pkt_q", 1, b(self.pkt));
        v.sig("start_q", 1, b(self.start));
        v.sig("kind_q", 2, self.kind as u128);
        v.sig("half_q", 1, b(self.half));
        v.sig("esc_q", 1, b(self.esc));
        v.sig("word_hi_q", 64, self.word_hi as u128);
        v.sig("words_left_q", 13, self.words_left as u128);
        v.sig("vc_q", 3, self.vc as u128);
        v.sig("drop_q", 1, b(self.drop));
        v.sig("cred_magic_q", 1, b(self.cred_magic));
        v.sig("cred_beat_q", 2, self.cred_beat as u128);
        v.sig("cred_snap_q", 80, self.cred_snap);
        v.sig("cred_owed_q", 1, b(self.cred_owed));
        v.sig("credit_age_q", 16, self.credit_age as u128);
        for k in 0..p.num_vcs as usize {
            v.sig_idx("credit_cnt_q", k, 16, self.credit_cnt[k] as u128);
        }
        v.sig("credit_stop_q", 8, self.credit_stop as u128);
        v.sig("stat_pkts_q", 32, self.stat_pkts as u128);
        v.sig("stat_words_q", 32, self.stat_words as u128);
        v.sig("stat_credits_q", 32, self.stat_credits as u128);
        v.sig("stat_stall_q", 32, self.stat_stall as u128);
        v.sig("stat_drops_q", 32, self.stat_drops as u128);
    }
}

/// Run-time configuration inputs, as the RTL names them.
pub fn probe_cfg(cfg: &TclCfg, v: &mut dyn Visitor) {
    v.sig("cfg_credit_period_i", 16, cfg.credit_period as u128);
    v.sig("cfg_max_interval_i", 16, cfg.max_interval as u128);
    v.sig("cfg_tred_i", 16, cfg.tred as u128);
    v.sig("cfg_usedword_i", 1, b(cfg.usedword));
    v.sig("cfg_after_pkt_i", 1, b(cfg.after_pkt));
}

/// 10-bit slot `k` of a packed occupancy vector.
pub fn snap_get(snap: u128, k: u32) -> u32 {
    if k >= 8 {
        return 0;
    }
    ((snap >> (10 * k)) & 0x3ff) as u32
}

/// Bits of the VCs that exist.
pub fn vc_mask(num_vcs: u32) -> u8 {
    ((1u32 << num_vcs) - 1) as u8
}
