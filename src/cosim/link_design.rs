//! The link as a lockstep [`Design`]: the Rust [`Link`](crate::link::Link) with its test bench
//! against the Verilated `exanet_link_top` (random packets of 0..4 KB on random VCs in both
//! directions, alternating back-pressure at both receivers, optional bit errors whose masks come
//! from the model's injectors).

use super::lockstep::{
    run_config_on, CosimError, CosimReport, Design, Options, Simulator, Stimulus,
};
use super::rtl::RtlTop;
use crate::config::{Config, CreditFlavour, LinkConfig, MAX_PAYLOAD_BYTES};
use crate::counters::DepositSchedule;
use crate::link::account::LinkAccount;
use crate::link::bench::{EndStimulus, LinkBench};
use crate::link::errors::ErrorPlan;
use crate::link::phy::PhyCfg;
use crate::link::tcl_rx::TclRx;
use crate::link::tcl_tx::{TclCfg, TclTx};
use crate::link::{LinkParams, LinkTbIn};
use crate::probe::Visitor;
use crate::stimulus::{BackPressure, SizeDist, SourceMode, TrafficSpec};
use rand_mt::Mt64;
use std::collections::BTreeMap;

/// The structural parameters `exanet_link_top` is built with: its SystemVerilog defaults, which
/// are the configuration's defaults. Run-time settings (credit period, TRED, flavour, PHY
/// options, bit errors) are inputs of the RTL and may differ.
pub fn check_structural(cfg: &Config) -> Result<(), String> {
    let d = Config::default().link;
    let l = &cfg.link;
    let mut diffs = Vec::new();
    let mut chk = |name: &str, a: u64, b: u64| {
        if a != b {
            diffs.push(format!("{name} = {a} (the RTL has {b})"));
        }
    };
    chk("link.num_vcs", l.num_vcs as u64, d.num_vcs as u64);
    chk(
        "link.tx_fifo_depth_words",
        l.tx_fifo_depth_words as u64,
        d.tx_fifo_depth_words as u64,
    );
    chk(
        "link.rx_fifo_depth_words",
        l.rx_fifo_depth_words as u64,
        d.rx_fifo_depth_words as u64,
    );
    chk(
        "link.fifo_latency_cycles",
        l.fifo_latency_cycles as u64,
        d.fifo_latency_cycles as u64,
    );
    chk(
        "link.size_in_words",
        l.size_in_words as u64,
        d.size_in_words as u64,
    );
    chk(
        "link.credit.usedword_beats",
        l.credit.usedword_beats as u64,
        d.credit.usedword_beats as u64,
    );
    chk(
        "link.phy.latency_cycles",
        l.phy.latency_cycles as u64,
        d.phy.latency_cycles as u64,
    );
    chk(
        "link.phy.gearbox_period_cycles",
        l.phy.gearbox_period_cycles as u64,
        d.phy.gearbox_period_cycles as u64,
    );
    chk(
        "link.phy.cc_period_cycles",
        l.phy.cc_period_cycles as u64,
        d.phy.cc_period_cycles as u64,
    );
    chk(
        "link.phy.cc_len_cycles",
        l.phy.cc_len_cycles as u64,
        d.phy.cc_len_cycles as u64,
    );
    chk(
        "link.phy.lane_up_cycles",
        l.phy.lane_up_cycles as u64,
        d.phy.lane_up_cycles as u64,
    );
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the Verilated link is built with the default structural parameters; this configuration changes {}",
            diffs.join(", ")
        ))
    }
}

/// The random stimulus of a co-simulation run, both directions.
pub fn cosim_bench(cfg: &Config) -> LinkBench {
    let p = LinkParams::from_config(&cfg.link);
    let seed = cfg.sim.seed;
    let traffic = TrafficSpec::new(
        SizeDist::Uniform { min: 0, max: 4096 },
        p.tcl.num_vcs,
        p.tcl.size_in_words,
    );
    let end = |k: u64| EndStimulus {
        traffic: traffic.clone(),
        mode: SourceMode::Saturate,
        back_pressure: BackPressure::alternating(
            [0.05, 0.9],
            20_000,
            seed.wrapping_mul(0x9E37_79B9).wrapping_add(10 + k),
        ),
        seed: seed.wrapping_mul(0x9E37_79B9).wrapping_add(k),
    };
    let errors = |k: u64| {
        if cfg.link.phy.ber > 0.0 {
            ErrorPlan::Random {
                ber: cfg.link.phy.ber,
                seed: seed.wrapping_mul(0x9E37_79B9).wrapping_add(20 + k),
            }
        } else {
            ErrorPlan::None
        }
    };
    let mut bench = LinkBench::new(p, end(0), end(1), errors(0), errors(1));
    bench.a.src.keep_packets = true;
    bench.b.src.keep_packets = true;
    bench
}

/// The link and its test bench, with the inputs of the cycle last stepped.
pub struct LinkDesign {
    pub bench: LinkBench,
    last: LinkTbIn,
    stimulus: Stimulus,
    /// The constrained stimulus's setting changes.
    rng: Mt64,
    setting_changes: u64,
    /// The configuration's link, for the settings the stimulus may give the running link.
    link: LinkConfig,
    /// The constrained stimulus's resets during traffic: the cycle of the next, the draws.
    next_reset: u64,
    reset_rng: Mt64,
    resets: u64,
    /// The link's counters before its last reset (they restart at zero), but for the packets
    /// then in flight, in `in_flight_at_resets`.
    counters_before: BTreeMap<String, u64>,
    in_flight_at_resets: u64,
    /// The directed phase under way, the cycle of the next, and what they did.
    quiet: Option<Quiet>,
    next_phase: u64,
    phase_stats: BTreeMap<&'static str, u64>,
    /// The deposits into the TCLs' counters (constrained stimulus, decision 0044).
    deposits: DepositSchedule,
}

/// Cycles from one deposit into the link's counters to the next (constrained stimulus): at
/// least this, at most twice this.
pub const DEPOSIT_GAP: u64 = 250;

/// Full scopes of the four TCL halves: A's TX and RX, B's TX and RX.
const TCL_SCOPES: [&str; 4] = [
    "TOP.exanet_link_top.u_a.u_tcl.u_tx",
    "TOP.exanet_link_top.u_a.u_tcl.u_rx",
    "TOP.exanet_link_top.u_b.u_tcl.u_tx",
    "TOP.exanet_link_top.u_b.u_tcl.u_rx",
];

/// The constrained stimulus's targeted errors, at a configured bit-error rate of 0: one beat in
/// this many is hit (`ErrorPlan::Targeted`).
pub const TARGETED_ONE_IN: u64 = 256;

/// The targeted errors' storms (`BitErrorInjector::storm`: more headers hit, whole packets
/// knocked out after the uncorrectable ones, the sources sending small packets only): the first
/// [`STORM_CYCLES`] of every [`STORM_PERIOD`] cycles, outside the directed phases. A directed
/// phase begins only [`STORM_MARGIN`] cycles or more after a storm's window: a packet lost
/// unseen is counted at the next footer, which a drain would wait for in vain. Without storms
/// the receiver's discards for resynchronisation are a handful a run, too few to carry its
/// deposited counter over its bits (decisions 0044 and 0045).
pub const STORM_PERIOD: u64 = 8192;
pub const STORM_CYCLES: u64 = 2048;
const STORM_MARGIN: u64 = 2000;

/// Whether cycle `cycle` is in a storm's window.
pub fn storm_window(cycle: u64) -> bool {
    cycle % STORM_PERIOD < STORM_CYCLES
}

/// Whether a directed phase may begin at cycle `cycle` (not in a storm's window, nor within
/// [`STORM_MARGIN`] cycles after one).
fn calm(cycle: u64) -> bool {
    cycle % STORM_PERIOD >= STORM_CYCLES + STORM_MARGIN
}

/// Cycles between two changes of the link's credit and PHY settings (constrained stimulus).
const SETTING_PERIOD: u64 = 2000;

/// Cycles from one reset during traffic to the next (constrained stimulus): at least this, at
/// most twice this, drawn.
pub const RESET_GAP: u64 = 8000;

/// The cycle of the next reset during traffic, `after` the last one.
pub fn next_reset(after: u64, rng: &mut Mt64) -> u64 {
    after + RESET_GAP + rng.next_u64() % RESET_GAP
}

/// The constrained stimulus's directed phases, one at a time, every [`PHASE_GAP`] to twice
/// that cycles (drawn).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quiet {
    /// Both consumers stop at a packet boundary for [`STARVE_CYCLES`]: the receive FIFOs fill
    /// to TRED, credits stop the senders, the sources fill the transmit FIFOs (header/footer
    /// side in a phase of small packets), credits sit at zero.
    Starve { until: u64 },
    /// The sources stop at a packet boundary, until the link is empty (no packet in any FIFO,
    /// on the wire or being read).
    Drain { since: u64 },
    /// Settings no traffic may run under: the credit flavour and whole-packet check flipped,
    /// and credit period, interval and TRED at corners beyond the bound that keeps the receive
    /// FIFOs from overflowing under traffic (decision 0042, finding 1).
    Corners { until: u64 },
    /// Safe settings in the new flavour; the sources wait for the credits of the old flavour
    /// still on the wire to have gone by (each costs a credit, finding 6), then send again.
    Settle { until: u64 },
}

/// Cycles between two directed phases (at least; at most twice this).
const PHASE_GAP: u64 = 6000;

/// How long a starve phase stops the consumers, and how long the corner settings and the
/// settling after them last, cycles.
const STARVE_CYCLES: u64 = 3000;
const CORNER_CYCLES: u64 = 400;
const SETTLE_CYCLES: u64 = 600;

/// A drain that has not emptied the link by then gives up (its settings are not changed).
const DRAIN_MAX: u64 = 20_000;

impl LinkDesign {
    pub fn new(cfg: &Config) -> LinkDesign {
        LinkDesign::with_stimulus(cfg, Stimulus::Plain)
    }

    pub fn with_stimulus(cfg: &Config, stimulus: Stimulus) -> LinkDesign {
        let mut bench = cosim_bench(cfg);
        let corners = stimulus == Stimulus::Constrained;
        bench.a.src.gen.set_corners(corners);
        bench.b.src.gen.set_corners(corners);
        if corners && cfg.link.phy.ber == 0.0 {
            // targeted errors: two-bit flips, single bits and bursts on one beat in
            // TARGETED_ONE_IN of each direction (headers beyond correction, credits, MAGIC)
            let seed = cfg.sim.seed.wrapping_mul(0x9E37_79B9);
            for (k, inj) in [&mut bench.inj_ab, &mut bench.inj_ba]
                .into_iter()
                .enumerate()
            {
                *inj = crate::link::errors::BitErrorInjector::new(ErrorPlan::Targeted {
                    one_in: TARGETED_ONE_IN,
                    seed: seed.wrapping_add(30 + k as u64),
                });
            }
        }
        let last = bench.tb_inputs();
        let mut reset_rng = Mt64::new(cfg.sim.seed ^ 0x7e5e7);
        LinkDesign {
            bench,
            last,
            stimulus,
            rng: Mt64::new(cfg.sim.seed ^ 0x11e5),
            setting_changes: 0,
            link: cfg.link.clone(),
            next_reset: next_reset(0, &mut reset_rng),
            reset_rng,
            resets: 0,
            counters_before: BTreeMap::new(),
            in_flight_at_resets: 0,
            quiet: None,
            next_phase: PHASE_GAP,
            phase_stats: BTreeMap::new(),
            deposits: DepositSchedule::new(cfg.sim.seed, DEPOSIT_GAP),
        }
    }
}

impl LinkDesign {
    /// No packet anywhere on the link: every FIFO empty, no TX inside a packet, nothing sent and
    /// unaccounted for at the RX, both consumers between packets.
    fn empty(&self) -> bool {
        let b = &self.bench;
        let l = &b.link;
        let fifos_empty = [&l.a, &l.b].iter().all(|e| {
            !e.tx.pkt
                && e.tx_fifos
                    .iter()
                    .chain(&e.rx_fifos)
                    .all(|f| f.hf.usedw() == 0 && f.pay.usedw() == 0)
        });
        let (atx, arx, btx, brx) = self.counted_tcls();
        fifos_empty
            && LinkAccount::of(&atx, &brx).in_flight == 0
            && LinkAccount::of(&btx, &arx).in_flight == 0
            && b.a.con.at_boundary()
            && b.b.con.at_boundary()
    }

    /// The TCL halves as the hardware counted (the deposits' offsets taken off,
    /// `Deposits::counted`): A's TX and RX, B's TX and RX.
    fn counted_tcls(&self) -> (TclTx, TclRx, TclTx, TclRx) {
        let (l, d) = (&self.bench.link, &self.deposits.deposits);
        (
            d.counted(TCL_SCOPES[0], &l.a.tx),
            d.counted(TCL_SCOPES[1], &l.a.rx),
            d.counted(TCL_SCOPES[2], &l.b.tx),
            d.counted(TCL_SCOPES[3], &l.b.rx),
        )
    }

    fn count_phase(&mut self, k: &'static str) {
        *self.phase_stats.entry(k).or_insert(0) += 1;
    }

    /// The directed phases ([`Quiet`]), between two cycles.
    fn phases(&mut self) {
        let now = self.bench.cycle;
        match self.quiet {
            None if now >= self.next_phase && calm(now) => {
                if self.rng_phase().is_multiple_of(2) {
                    self.count_phase("starve_phases");
                    self.bench.a.con.paused = true;
                    self.bench.b.con.paused = true;
                    self.quiet = Some(Quiet::Starve {
                        until: now + STARVE_CYCLES,
                    });
                } else {
                    // the sources stop at a packet boundary; the consumers read at full speed
                    // until the phase ends (their back-pressure, and its draws, set aside)
                    self.bench.a.src.hold = true;
                    self.bench.b.src.hold = true;
                    self.bench.a.con.drain_at_full_speed();
                    self.bench.b.con.drain_at_full_speed();
                    self.quiet = Some(Quiet::Drain { since: now });
                }
            }
            None => {}
            Some(Quiet::Starve { until }) if now >= until => {
                self.bench.a.con.paused = false;
                self.bench.b.con.paused = false;
                self.end_phase();
            }
            Some(Quiet::Drain { since }) => {
                if self.empty() {
                    self.count_phase("settings_while_empty");
                    let x = self.rng_phase();
                    let depth = self.link.rx_fifo_depth_words;
                    let c = &mut self.bench.link.p.cfg;
                    *c = settings_while_empty(x, c, depth);
                    self.quiet = Some(Quiet::Corners {
                        until: now + CORNER_CYCLES,
                    });
                } else if now - since > DRAIN_MAX {
                    self.count_phase("drains_abandoned");
                    self.release_sources();
                    self.end_phase();
                }
            }
            Some(Quiet::Corners { until }) if now >= until => {
                let cur = self.bench.link.p.cfg;
                let (cfg, phy) = safe_settings(self.rng_phase(), &self.link, &cur);
                self.bench.link.p.cfg = cfg;
                self.bench.link.p.phy_cfg = phy;
                self.quiet = Some(Quiet::Settle {
                    until: now + SETTLE_CYCLES,
                });
            }
            Some(Quiet::Settle { until }) if now >= until => {
                self.release_sources();
                self.end_phase();
            }
            Some(_) => {}
        }
    }

    fn release_sources(&mut self) {
        self.bench.a.src.hold = false;
        self.bench.b.src.hold = false;
        self.bench.a.con.resume_back_pressure();
        self.bench.b.con.resume_back_pressure();
    }

    fn end_phase(&mut self) {
        self.quiet = None;
        self.next_phase = self.bench.cycle + PHASE_GAP + self.rng_phase() % PHASE_GAP;
    }

    /// The phases' draws (the reset draws' generator).
    fn rng_phase(&mut self) -> u64 {
        self.reset_rng.next_u64()
    }
}

/// Settings no traffic may run under, for an empty link (the directed phases of the link and of
/// the node): the credit flavour and whole-packet check flipped as `x` draws, the credit period
/// and interval at their largest or at a single high bit, TRED up to the receive FIFO's
/// `capacity` less one (decision 0042, finding 1: under traffic they would let it overflow).
pub fn settings_while_empty(x: u64, now: &TclCfg, capacity: u32) -> TclCfg {
    let high = |k: u64| 1u32 << (6 + (x >> k) % 10);
    let (credit_period, max_interval) = match (x >> 2) % 3 {
        0 => (0xffff, 0xffff),
        1 => (high(4), 0xffff),
        _ => (8, high(8)),
    };
    TclCfg {
        credit_period,
        max_interval,
        tred: capacity - 1 - (x >> 12) as u32 % 64,
        usedword: now.usedword ^ (x & 1 == 1),
        after_pkt: now.after_pkt,
        whole_pkt: now.whole_pkt ^ (x & 2 == 2),
    }
}

/// The longest credit interval the constrained stimulus gives a link, cycles.
const MAX_INTERVAL: u32 = 127;

/// Credit and PHY settings a running link with configuration `l` and settings `now` may be
/// given without a receive FIFO overflowing: a credit interval up to 127 cycles and a TRED at
/// least the smallest safe one for it (`link::tred::safe_tred_units`, decision 0012: the words
/// the sender may send between the receiver's snapshot and its acting on the stop, for the
/// shortest and longest packets of the stimulus). The credit flavour and whole-packet checks stay
/// as they are: credits of the old flavour still on the wire would be read in the new one (a
/// usedword credit's beats taken for packet words). Decision 0042.
pub fn safe_settings(x: u64, l: &LinkConfig, now: &TclCfg) -> (TclCfg, PhyCfg) {
    let period = 8 + (x % 53) as u32;
    let max_interval = period.max(8 + ((x >> 8) % (MAX_INTERVAL - 7) as u64) as u32);
    // safe at the longest interval: each register is written on its own, so any interval
    // the stimulus writes may meet any TRED it wrote
    let mut at = l.clone();
    at.credit.max_interval_cycles = MAX_INTERVAL;
    at.credit.flavour = if now.usedword {
        CreditFlavour::Usedword
    } else {
        CreditFlavour::StartStop
    };
    let capacity = l.rx_fifo_depth_words;
    let safe = crate::link::tred::safe_tred_units(&at, 0, MAX_PAYLOAD_BYTES, now.whole_pkt);
    let tred = (safe + ((x >> 20) % 256) as u32).min(capacity - 1);
    (
        TclCfg {
            credit_period: period,
            max_interval,
            tred,
            usedword: now.usedword,
            after_pkt: (x >> 31) & 1 == 1,
            whole_pkt: now.whole_pkt,
        },
        PhyCfg {
            gearbox_en: (x >> 32) & 1 == 1,
            cc_en: (x >> 33) & 1 == 1,
        },
    )
}

const END_INPUTS: [&str; 5] = [
    "tx_wr_hf_i",
    "tx_wr_pay_i",
    "tx_wdata_i",
    "rx_rd_hf_i",
    "rx_rd_pay_i",
];

impl Design for LinkDesign {
    fn top(&self) -> RtlTop {
        RtlTop::Link
    }

    fn view_kind(&self) -> Option<super::views::ViewKind> {
        Some(super::views::ViewKind::Link)
    }

    fn input_names(&self) -> Vec<String> {
        let mut n: Vec<String> = [
            "cfg_credit_period_i",
            "cfg_max_interval_i",
            "cfg_tred_i",
            "cfg_usedword_i",
            "cfg_after_pkt_i",
            "cfg_whole_pkt_i",
            "cfg_gearbox_en_i",
            "cfg_cc_en_i",
            "ab_err_mask_i",
            "ba_err_mask_i",
        ]
        .iter()
        .map(|s| format!("TOP.{s}"))
        .collect();
        for e in ["a", "b"] {
            for s in END_INPUTS {
                n.push(format!("TOP.{e}_{s}"));
            }
        }
        n
    }

    fn input_values(&self) -> Vec<u128> {
        let mut v = Vec::with_capacity(19);
        link_input_values(&self.bench.link.p, &self.bench.tb_inputs(), &mut v);
        v
    }

    fn step(&mut self) {
        let (_, tb) = self.bench.step();
        self.last = tb;
    }

    fn between_cycles(&mut self) {
        if self.stimulus == Stimulus::Constrained {
            self.phases();
            let storm = self.quiet.is_none() && storm_window(self.bench.cycle);
            self.bench.inj_ab.storm = storm;
            self.bench.inj_ba.storm = storm;
            self.bench.a.src.gen.small = storm;
            self.bench.b.src.gen.small = storm;
            if storm {
                self.count_phase("storm_cycles");
            }
        }
        if self.stimulus == Stimulus::Constrained
            && self.bench.cycle.is_multiple_of(SETTING_PERIOD)
            && self.quiet.is_none()
        {
            let now = self.bench.link.p.cfg;
            let (cfg, phy) = safe_settings(self.rng.next_u64(), &self.link, &now);
            self.bench.link.p.cfg = cfg;
            self.bench.link.p.phy_cfg = phy;
            self.setting_changes += 1;
        }
    }

    /// The constrained stimulus resets the link during traffic every [`RESET_GAP`] to twice
    /// that cycles: its settings stay, the packets in flight are counted
    /// (`packets_reset_lost`, `link_in_flight_at_resets`).
    fn reset_now(&mut self) -> bool {
        if self.stimulus != Stimulus::Constrained || self.bench.cycle != self.next_reset {
            return false;
        }
        for (k, v) in self.link_counters() {
            if k == "link_in_flight" {
                self.in_flight_at_resets += v;
            } else {
                *self.counters_before.entry(k).or_insert(0) += v;
            }
        }
        self.bench.reset();
        self.deposits.reset();
        if self.quiet.take().is_some() {
            // (a phase under way ends with the reset; its settings stay until the next change)
            self.count_phase("phases_cut_by_reset");
            self.release_sources();
            for e in [&mut self.bench.a, &mut self.bench.b] {
                e.con.paused = false;
            }
            self.next_phase = self.bench.cycle + PHASE_GAP;
        }
        self.last = self.bench.tb_inputs();
        self.resets += 1;
        self.next_reset = next_reset(self.bench.cycle, &mut self.reset_rng);
        true
    }

    /// The constrained stimulus deposits into the TCLs' counters every [`DEPOSIT_GAP`] to twice
    /// that cycles (`DepositSchedule`): a value just below a power of two, so that the next
    /// event carries into a high bit or wraps the counter (decision 0044).
    fn deposits(&mut self) -> Vec<(String, u32)> {
        if self.stimulus != Stimulus::Constrained {
            return Vec::new();
        }
        self.deposits
            .step(self.bench.cycle, "", &mut self.bench.link)
    }

    fn probe(&self, after_edge: bool, v: &mut dyn Visitor) {
        let tb = if after_edge {
            self.last
        } else {
            self.bench.tb_inputs()
        };
        self.bench.link.probe(&tb, v);
    }

    /// Every cycle: the test bench found nothing inconsistent, and the link's packet
    /// accounting holds in both directions (sent = delivered + CRC-failed + discarded + in
    /// flight, in flight never negative; docs/link.md).
    fn check(&self) -> Result<(), String> {
        if let Some(e) = self
            .bench
            .a
            .board
            .errors
            .first()
            .or(self.bench.b.board.errors.first())
        {
            return Err(e.clone());
        }
        let (atx, arx, btx, brx) = self.counted_tcls();
        LinkAccount::check_both((&atx, &arx), (&btx, &brx))
    }

    fn stats(&self) -> BTreeMap<String, u64> {
        let b = &self.bench;
        let boards = [&b.a.board, &b.b.board];
        let mut s = BTreeMap::from([
            (
                "packets_delivered".into(),
                boards.iter().map(|x| x.delivered).sum(),
            ),
            (
                "packets_crc_bad".into(),
                boards.iter().map(|x| x.crc_bad).sum(),
            ),
            ("packets_lost".into(), boards.iter().map(|x| x.lost).sum()),
            (
                "packets_silent".into(),
                boards.iter().map(|x| x.silent).sum(),
            ),
            (
                "packets_outstanding".into(),
                boards.iter().map(|x| x.in_flight()).sum(),
            ),
            (
                "bits_flipped".into(),
                b.inj_ab.bits_flipped + b.inj_ba.bits_flipped,
            ),
        ]);
        // the link's own counters, with those of before its resets
        for (k, v) in self.link_counters() {
            let before = self.counters_before.get(&k).copied().unwrap_or(0);
            s.insert(k, before + v);
        }
        if self.stimulus == Stimulus::Constrained {
            s.insert("setting_changes".into(), self.setting_changes);
            s.insert("resets".into(), self.resets);
            s.insert(
                "packets_reset_lost".into(),
                boards.iter().map(|x| x.reset_lost).sum(),
            );
            s.insert("link_in_flight_at_resets".into(), self.in_flight_at_resets);
            s.insert("counter_deposits".into(), self.deposits.made);
            for (k, v) in &self.phase_stats {
                s.insert((*k).into(), *v);
            }
        }
        s
    }

    fn inject_fault(&mut self) {
        self.bench.link.a.tx.credit_age ^= 1;
    }

    fn fault_signal(&self) -> String {
        "TOP.exanet_link_top.u_a.u_tcl.u_tx.credit_age_q".into()
    }
}

impl LinkDesign {
    /// The link's counters of both directions (its TCLs' statistics and packet accounting) as
    /// the hardware counted them (the deposits taken off), which its reset clears.
    fn link_counters(&self) -> BTreeMap<String, u64> {
        let (atx, arx, btx, brx) = self.counted_tcls();
        let sum = |a: u32, b: u32| u64::from(a) + u64::from(b);
        let mut s = BTreeMap::from([
            (
                "ecc_corrected".into(),
                sum(arx.stat_ecc_corr, brx.stat_ecc_corr),
            ),
            (
                "ecc_uncorrectable".into(),
                sum(arx.stat_ecc_uncorr, brx.stat_ecc_uncorr),
            ),
            ("crc_errors".into(), sum(arx.stat_crc_err, brx.stat_crc_err)),
            (
                "credit_stall_cycles".into(),
                sum(atx.stat_stall, btx.stat_stall),
            ),
        ]);
        let lat = self.link.phy.latency_cycles;
        let ab = LinkAccount::of(&atx, &brx).bounded(lat);
        s.extend(
            ab.add(&LinkAccount::of(&btx, &arx).bounded(lat))
                .fields("link_"),
        );
        s
    }
}

/// The values of the link top's inputs (in the order of `LinkDesign::input_names`) for `tb`.
pub fn link_input_values(p: &LinkParams, tb: &LinkTbIn, v: &mut Vec<u128>) {
    v.clear();
    v.extend([
        p.cfg.credit_period as u128,
        p.cfg.max_interval as u128,
        p.cfg.tred as u128,
        p.cfg.usedword as u128,
        p.cfg.after_pkt as u128,
        p.cfg.whole_pkt as u128,
        p.phy_cfg.gearbox_en as u128,
        p.phy_cfg.cc_en as u128,
        tb.ab_err_mask as u128,
        tb.ba_err_mask as u128,
    ]);
    for e in [&tb.a, &tb.b] {
        v.extend([
            e.tx_wr_hf as u128,
            e.tx_wr_pay as u128,
            e.tx_wdata,
            e.rx_rd_hf as u128,
            e.rx_rd_pay as u128,
        ]);
    }
}

/// Run the link against its RTL on `sim`: in lockstep under Verilator.
pub fn run_link(cfg: &Config, opts: &Options, sim: Simulator) -> Result<CosimReport, CosimError> {
    check_structural(cfg).map_err(CosimError::Setup)?;
    run_config_on(
        &mut LinkDesign::with_stimulus(cfg, opts.stimulus),
        cfg,
        opts,
        sim,
    )
}
