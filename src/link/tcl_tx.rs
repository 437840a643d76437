//! APElink TCL, TX CTRL (Biagioni 2017 §5.3.4, Figure 5.9; Pisani 2016 §2.8.2).
//!
//! ```text
//!   inter-tile TX packet FIFOs, one per VC --hf_*/pay_* --> +---------+ --tx_valid_o/tx_data_o--> PHY lane
//!                  <------------ hf_rd_o / pay_rd_o -------- | TCL TX  | <-------- tx_ready_i ----
//!   local TCL RX ------ cred_upd_* (the peer's credits) ---> |         |
//!   local RX packet FIFOs -- rxf_units_i (our buffers) ----> +---------+
//! ```
//!
//! Reads packets from the per-VC TX packet FIFOs (header and footer from the header/footer FIFO,
//! payload from the payload FIFO, `src/pktfifo.rs`) and sends their 128-bit words as 64-bit
//! beats, low half first, on a ready/valid interface, with the APElink word stuffing:
//! `MAGIC START H.lo H.hi P0.lo P0.hi ... F.lo F.hi`. A data beat equal to MAGIC is escaped by a
//! MAGIC in front of it. Between packets the next VC is chosen round robin among the VCs whose
//! header is at the head of their FIFO and whose credit lets it go, so a VC out of credit never
//! holds back another (the VCs of Biagioni 2017 §5.3.3 stay independent on the link).
//!
//! Credits (the status of *our* RX FIFOs, for the peer's TX):
//! - after every footer, a whole credit (no Magic) when `cfg.after_pkt` (Biagioni 2017 §5.3.4);
//! - between packets, whenever `credit_age_q >= cfg.credit_period` (default 35);
//! - inside a packet, at a 128-bit word boundary, behind a MAGIC, when the credit is older than
//!   `cfg.max_interval` (default 110 = L_T), or when the packet is suspended (next word missing
//!   or out of credit) and the credit is older than `cfg.credit_period`.
//!   See docs/decisions/0002-credit-schedule.md for why.
//!
//! Flow control on the peer's RX packet FIFO of each VC, in credit units (payload words; a
//! header or footer word costs `hf_scale` units, docs/decisions/0006):
//! - usedword: `credit_cnt_q[v]` estimates the peer's free units: reloaded with
//!   `rx_depth - units` from every credit received, decreased by the cost of every word sent;
//!   a word may go when `credit_cnt_q[v] > tred` (transmission stops when the credit reaches TRED);
//! - start/stop: `credit_stop_q[v]` mirrors the stop bit of the last credit received (the peer
//!   sets it when its free space is at or below TRED); a word may go when it is clear.
//!   The check for a header is made at its MAGIC, which starts the packet.
//! - `cfg.whole_pkt` (0 at reset, as Biagioni 2017): credit is checked only at a packet's MAGIC, and a
//!   started packet is sent to its footer whatever credits arrive (only a missing word suspends
//!   it), so that a VC out of credit never holds the link inside a packet either. The peer's TRED
//!   must then also cover one whole packet (docs/decisions/0013).
//!
//! Cycle contract: a header at the head of a VC's header/footer FIFO in cycle `c` with the link
//! idle gives MAGIC in `tx_data_o` in cycle `c + 1`, START in `c + 2`, the header halves in
//! `c + 3` and `c + 4` (one TX pipeline cycle plus three serialisation cycles before the
//! header's last beat). One beat per cycle while `tx_ready_i` is high. Pops are registered
//! (`hf_rd_q`, `pay_rd_q`): the word whose low half is loaded in cycle `c` is popped at the end
//! of `c + 1`, and the next word is at the head in `c + 2`, in time for its low half.
//!
//! Packet numbering (docs/decisions/0016): the footer's `lseq` field leaves with the number of
//! the packet on this link (`stat_pkts_q`, the packets sent before it, modulo 2^16) and its
//! CRC-15, so the peer's RX can count the packets it never saw. A packet counts as sent from
//! its MAGIC on: `stat_pkts_q + pkt_q` (`pkt_q` is set from its MAGIC to its last beat).
//!
//! RTL twin: `rtl/exanet_tcl_tx.sv`; every register here is `<name>_q` there.

use super::credit;
use super::tcl_rx::TclRx;
use crate::block::{self, Block};
use crate::packet::{payload_words, wire::MAGIC, wire::START};
use crate::pktfifo::PktFifo;
use crate::probe::{b, clk_rst, Visitor};

/// Structural parameters shared by TX and RX of a TCL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TclParams {
    /// Virtual channels, 1..=8.
    pub num_vcs: u32,
    /// Capacity of each RX packet FIFO in credit units (its payload FIFO depth), ours and the peer's.
    pub rx_depth: u32,
    /// Credit units a header or footer word takes in the peer's RX packet FIFO.
    pub hf_scale: u32,
    /// Beats of a usedword credit, 1..=4.
    pub uw_beats: u32,
    /// Header size in words rather than bytes.
    pub size_in_words: bool,
}

/// Run-time configuration registers (inputs `cfg_*_i` of the RTL).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TclCfg {
    pub credit_period: u32,
    pub max_interval: u32,
    pub tred: u32,
    pub usedword: bool,
    pub after_pkt: bool,
    /// Credit checked only before a packet starts (1) or before every word (0).
    pub whole_pkt: bool,
}

/// Kind of the 128-bit word being sent (`kind_q`): `K_HDR`, `K_PAY`, `K_FTR`, from the one
/// table shared with the RTL and the waves.
pub use crate::wave::states::tcl_tx_kind::*;

/// The credit age saturates here.
pub const AGE_MAX: u32 = 0xffff;

/// Beats one credit takes on the wire: one (start/stop), or `uw_beats` (usedword).
pub fn credit_beats(usedword: bool, uw_beats: u32) -> u32 {
    if usedword {
        uw_beats
    } else {
        1
    }
}

/// The credit periods a link can carry data with: longer than a credit's beats. The age
/// restarts when a credit starts, so with a period of at most its beats the next credit is due
/// before the last one has left, and the TX sends credits only (no packet ever crosses).
pub fn check_credit_period(period: u32, usedword: bool, uw_beats: u32) -> Result<(), String> {
    let beats = credit_beats(usedword, uw_beats);
    if period > beats {
        Ok(())
    } else {
        Err(format!(
            "{period} cycles: must exceed the {beats} beat(s) of a credit, or the link sends \
             nothing but credits"
        ))
    }
}

/// Inputs of one cycle, all register outputs of other blocks. Bit or element `v` is VC `v`.
#[derive(Debug, Clone, Copy, Default)]
pub struct TxIn {
    pub hf_empty: u8,
    pub hf_rdata: [u128; 8],
    pub pay_empty: u8,
    pub pay_rdata: [u128; 8],
    pub tx_ready: bool,
    pub cred_upd_valid: bool,
    pub cred_upd_stop: u8,
    /// Occupancies reported by the peer, 8 slots of 10 bits (slot v = bits 10v+9:10v).
    pub cred_upd_usedw: u128,
    /// Our RX packet FIFOs' occupancies in credit units, 16 bits per VC, VC 0 lowest.
    pub rxf_units: u128,
}

/// What the TX CTRL sees of one VC's TX packet FIFO: each half's empty flag and head word.
#[derive(Debug, Clone, Copy, Default)]
pub struct TxFifoView {
    pub hf_empty: bool,
    pub hf_rdata: u128,
    pub pay_empty: bool,
    pub pay_rdata: u128,
}

impl TxFifoView {
    /// The FIFO's ports as the RTL shows them.
    pub fn of(f: &PktFifo) -> TxFifoView {
        TxFifoView {
            hf_empty: f.hf.empty(),
            hf_rdata: f.hf.rdata(),
            pay_empty: f.pay.empty(),
            pay_rdata: f.pay.rdata(),
        }
    }
}

impl TxIn {
    /// The TX CTRL's inputs as every block holding a TCL wires them (the link end, the node,
    /// the network node; `rtl/exanet_tcl.sv`): the credit update from the RX CTRL beside it,
    /// TX ready from its outgoing lane, the occupancies of the RX packet FIFOs it reports
    /// (`rxf_units`, 16 bits a VC), and each VC's TX packet FIFO (`fifo(v)` for `v < vcs`).
    // (inline: a node builds one for every TX it steps, a few a cycle; inlined, the value is
    // written where the TX reads it, measured 1.8 % fewer instructions in a network run)
    #[inline(always)]
    pub fn wire(
        rx: &TclRx,
        tx_ready: bool,
        rxf_units: u128,
        vcs: usize,
        fifo: impl Fn(usize) -> TxFifoView,
    ) -> TxIn {
        let mut i = TxIn {
            tx_ready,
            cred_upd_valid: rx.cred_upd_valid,
            cred_upd_stop: rx.cred_upd_stop,
            cred_upd_usedw: rx.cred_upd_usedw,
            rxf_units,
            ..Default::default()
        };
        for v in 0..vcs {
            let f = fifo(v);
            i.hf_empty |= (f.hf_empty as u8) << v;
            i.pay_empty |= (f.pay_empty as u8) << v;
            i.hf_rdata[v] = f.hf_rdata;
            i.pay_rdata[v] = f.pay_rdata;
        }
        i
    }
}

crate::registers! {
    /// Registers of the TX CTRL: each field is the RTL register `<name>_q` (declared once here
    /// for reset, probing and the waves).
    pub struct TclTx(p: &TclParams) {
        out_valid: bool [1],
        out_data: u64 [64],
        hf_rd: u8 [p.num_vcs],
        pay_rd: u8 [p.num_vcs],
        pkt: bool [1],
        start: bool [1],
        kind: u8 [2] = K_HDR,
        half: bool [1],
        esc: bool [1],
        word_hi: u64 [64],
        words_left: u32 [13],
        vc: u8 [3],
        vc_rr: u8 [3],
        cred_magic: bool [1],
        cred_beat: u8 [2],
        cred_snap: u128 [80],
        cred_owed: bool [1],
        /// Starts saturated, so a credit goes out first.
        credit_age: u32 [16] = AGE_MAX,
        credit_cnt: [u32; 8] [16; p.num_vcs] = [p.rx_depth; 8],
        credit_stop: u8 [8],
        stat_pkts: u32 [32],
        stat_words: u32 [32],
        stat_credits: u32 [32],
        stat_stall: u32 [32],
    }
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
    /// Model-only, no RTL twin (the idle skipping of a network-scale run, `NetNode`): `cycles`
    /// cycles of a TX that is idle, between packets with nothing to send and no credit under
    /// way, owed, due or arriving (`net::node`'s `tx_idle`), in which its only register that
    /// changes is the credit age. The RTL counts them one by one; this brings `credit_age_q`
    /// to the value those cycles give, at once.
    pub fn idle_cycles(&mut self, cycles: u64) {
        self.credit_age = (self.credit_age as u64 + cycles).min(AGE_MAX as u64) as u32;
    }

    /// Packets sent: every packet whose MAGIC has gone out (the one being sent included).
    pub fn sent(&self) -> u32 {
        self.stat_pkts.wrapping_add(self.pkt as u32)
    }

    /// May a word of VC `vc` go?
    pub fn credit_ok(&self, cfg: &TclCfg, vc: u8) -> bool {
        if cfg.usedword {
            self.credit_cnt[vc as usize] > cfg.tred
        } else {
            self.credit_stop & (1 << vc) == 0
        }
    }

    /// Occupancy of our RX FIFO `v` in credit units, from the packed input.
    fn rxf_units(i: &TxIn, v: u32) -> u32 {
        ((i.rxf_units >> (16 * v)) & 0xffff) as u32
    }

    /// First beat of a credit, with the snapshot that the following beats will use.
    fn credit_beat0(p: &TclParams, cfg: &TclCfg, i: &TxIn) -> (u64, u128) {
        if cfg.usedword {
            let mut snap = 0u128;
            for v in 0..p.num_vcs {
                let u = Self::rxf_units(i, v).min(credit::USEDW_MAX);
                snap |= (u as u128) << (10 * v);
            }
            (
                credit::uw_beat(0, snap_get(snap, 0), snap_get(snap, 1)),
                snap,
            )
        } else {
            let mut stop = 0u8;
            for v in 0..p.num_vcs {
                let free = p.rx_depth.saturating_sub(Self::rxf_units(i, v));
                if free <= cfg.tred {
                    stop |= 1 << v;
                }
            }
            (credit::ss_beat(stop), 0)
        }
    }

    /// The next state, written into `n`, which holds a copy of `self`.
    // (inline into the step: measured 0.5 % fewer instructions in a network run)
    #[inline(always)]
    fn next(&self, p: &TclParams, cfg: &TclCfg, i: &TxIn, n: &mut TclTx) -> TxEvents {
        let mut ev = TxEvents::default();
        let nv = p.num_vcs as u8;
        let can_load = !self.out_valid || i.tx_ready;
        // Headers at the head of their VC's header/footer FIFO (a pop in flight hides the head).
        let mut waiting = 0u8;
        let mut ready = 0u8;
        for v in 0..nv {
            let bit = 1u8 << v;
            if i.hf_empty & bit == 0 && self.hf_rd & bit == 0 {
                waiting |= bit;
                if self.credit_ok(cfg, v) {
                    ready |= bit;
                }
            }
        }
        // The head word of the packet being sent: payload FIFO for payload, else header/footer.
        let cur = self.vc as usize;
        let cur_bit = 1u8 << self.vc;
        let (head, head_avail) = if self.kind == K_PAY {
            (
                i.pay_rdata[cur],
                i.pay_empty & cur_bit == 0 && self.pay_rd & cur_bit == 0,
            )
        } else {
            (
                i.hf_rdata[cur],
                i.hf_empty & cur_bit == 0 && self.hf_rd & cur_bit == 0,
            )
        };

        n.out_valid = self.out_valid && !i.tx_ready;
        n.hf_rd = 0;
        n.pay_rd = 0;
        n.credit_age = (self.credit_age + 1).min(AGE_MAX);

        // A word blocked by credit this cycle (statistic only).
        let blocked_between = !self.pkt && waiting != 0 && ready == 0;
        let at_boundary = self.pkt && !self.start && !self.half && !self.esc && self.kind != K_HDR;
        let blocked_inside =
            at_boundary && head_avail && !cfg.whole_pkt && !self.credit_ok(cfg, self.vc);
        if can_load && (blocked_between || blocked_inside) {
            n.stat_stall = self.stat_stall.wrapping_add(1);
        }

        let mut load_cost = 0u32; // credit units of the word whose low half is loaded
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
                } else if ready != 0 {
                    // round robin: the first ready VC at or after vc_rr
                    let v = (0..nv)
                        .map(|k| (self.vc_rr + k) % nv)
                        .find(|v| ready & (1 << v) != 0)
                        .expect("ready is not empty");
                    n.out_valid = true;
                    n.out_data = MAGIC;
                    ev.loaded = Some(BeatKind::Magic);
                    n.pkt = true;
                    n.start = true;
                    n.kind = K_HDR;
                    n.half = false;
                    n.esc = false;
                    n.vc = v;
                    n.vc_rr = (v + 1) % nv;
                    n.words_left = payload_words(i.hf_rdata[v as usize], p.size_in_words);
                }
            } else {
                // inside a packet, after START; a header's credit was checked at its MAGIC, an
                // escaped word's at its escape; with `whole_pkt` only at the MAGIC
                let data_ready = head_avail
                    && (self.kind == K_HDR
                        || self.esc
                        || cfg.whole_pkt
                        || self.credit_ok(cfg, self.vc));
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
                            // a footer leaves with this packet's link sequence number (the
                            // packets sent before it), outside the message CRC (decision 0016)
                            n.word_hi = if self.kind == K_FTR {
                                super::lseq::stamp((head >> 64) as u64, self.stat_pkts as u16)
                            } else {
                                (head >> 64) as u64
                            };
                            n.half = true;
                            n.stat_words = self.stat_words.wrapping_add(1);
                            if self.kind == K_PAY {
                                n.pay_rd = cur_bit;
                                n.words_left = self.words_left - 1;
                                load_cost = 1;
                            } else {
                                n.hf_rd = cur_bit;
                                load_cost = p.hf_scale;
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

        // Credit state: fresh credit from the peer, minus the word loaded this cycle.
        for v in 0..p.num_vcs as usize {
            if cfg.usedword {
                let base = if i.cred_upd_valid {
                    p.rx_depth - snap_get(i.cred_upd_usedw, v as u32).min(p.rx_depth)
                } else {
                    self.credit_cnt[v]
                };
                let used = if cur == v { load_cost } else { 0 };
                n.credit_cnt[v] = base.saturating_sub(used);
            }
        }
        if !cfg.usedword && i.cred_upd_valid {
            n.credit_stop = i.cred_upd_stop & vc_mask(p.num_vcs);
        }
        ev
    }
}

/// The TX CTRL's inputs in a cycle: the structural parameters and configuration registers it
/// shares with its RX and its peer, and its ports.
#[derive(Debug, Clone, Copy)]
pub struct TclTxIn<'a> {
    pub p: &'a TclParams,
    pub cfg: &'a TclCfg,
    pub port: &'a TxIn,
}

impl Block for TclTx {
    type Spec = TclParams;
    type In<'a> = TclTxIn<'a>;
    type Next = (TclTx, TxEvents);
    type Events = TxEvents;

    fn reset(p: &TclParams) -> TclTx {
        TclTx::reset_regs(p)
    }

    fn eval(&self, i: &TclTxIn) -> (TclTx, TxEvents) {
        block::eval_by_copy(self, |now, n| now.next(i.p, i.cfg, i.port, n))
    }

    fn commit(&mut self, (n, ev): (TclTx, TxEvents)) -> TxEvents {
        *self = n;
        ev
    }

    /// The next state built in `self` from a copy of this cycle's registers.
    #[inline]
    fn step_in_place(&mut self, i: &TclTxIn) -> TxEvents {
        block::step_by_copy(self, |now, n| now.next(i.p, i.cfg, i.port, n))
    }

    fn probe(&self, x: &TclTxIn, v: &mut dyn Visitor) {
        let (p, cfg, i) = (x.p, x.cfg, x.port);
        let nv = p.num_vcs;
        clk_rst(v);
        probe_cfg(cfg, v);
        v.sig("hf_empty_i", nv, i.hf_empty as u128);
        v.sig("pay_empty_i", nv, i.pay_empty as u128);
        for k in 0..nv as usize {
            v.sig_idx("hf_rdata_i", k, 128, i.hf_rdata[k]);
            v.sig_idx("pay_rdata_i", k, 128, i.pay_rdata[k]);
        }
        v.sig("hf_rd_o", nv, self.hf_rd as u128);
        v.sig("pay_rd_o", nv, self.pay_rd as u128);
        v.sig("tx_ready_i", 1, b(i.tx_ready));
        v.sig("tx_valid_o", 1, b(self.out_valid));
        v.sig("tx_data_o", 64, self.out_data as u128);
        v.sig("cred_upd_valid_i", 1, b(i.cred_upd_valid));
        v.sig("cred_upd_stop_i", 8, i.cred_upd_stop as u128);
        v.sig("cred_upd_usedw_i", 80, i.cred_upd_usedw);
        v.sig("rxf_units_i", nv * 16, i.rxf_units);
        v.sig(
            "credit_cnt_o",
            nv * 16,
            pack16(&self.credit_cnt[..nv as usize]),
        );
        v.sig("credit_stop_o", 8, self.credit_stop as u128);
        self.probe_regs(p, v);
    }
}

/// Run-time configuration inputs, as the RTL names them.
pub fn probe_cfg(cfg: &TclCfg, v: &mut dyn Visitor) {
    v.sig("cfg_credit_period_i", 16, cfg.credit_period as u128);
    v.sig("cfg_max_interval_i", 16, cfg.max_interval as u128);
    v.sig("cfg_tred_i", 16, cfg.tred as u128);
    v.sig("cfg_usedword_i", 1, b(cfg.usedword));
    v.sig("cfg_after_pkt_i", 1, b(cfg.after_pkt));
    v.sig("cfg_whole_pkt_i", 1, b(cfg.whole_pkt));
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

/// Values packed 16 bits each, element 0 lowest.
pub fn pack16(vals: &[u32]) -> u128 {
    vals.iter().enumerate().fold(0u128, |acc, (k, &x)| {
        acc | (((x & 0xffff) as u128) << (16 * k))
    })
}

impl crate::counters::Counters for TclTx {
    /// Not `stat_pkts`: its low 16 bits are the footer's link sequence number, which the peer RX
    /// checks (decision 0016), so it feeds the hardware.
    fn counters(&mut self, v: &mut dyn crate::counters::CounterVisitor) {
        v.counter("stat_words_q", &mut self.stat_words);
        v.counter("stat_credits_q", &mut self.stat_credits);
        v.counter("stat_stall_q", &mut self.stat_stall);
    }
}
