//! APElink protocol efficiency and bandwidth under saturating traffic (Biagioni 2017 §5.3.4,
//! Table 5.4; §5.4.2, Figure 5.20).
//!
//! End A sends packets of one payload size back to back (its TX FIFO never runs dry), end B
//! drains its RX FIFOs every cycle and sends only credits. Over a measurement window after a
//! warm-up, the beats A's TCL puts on the wire are classified as it loads them:
//! `simulated = payload beats / all beats`. The same run yields the n credits between packets
//! and k credits inside packets per packet, and the formula of §5.3.4 is evaluated with them:
//!
//! `P = S/W + M/W + H/W + F/W + n C/W + k (C + M)/W`, `E = (D/W) / (P + D/W)`,
//! with S = M = W = 8 bytes, H = F = 16 bytes and C the credit size of the flavour.
//! Escaped data beats (a payload beat equal to MAGIC) are counted apart; the formula has none.

use crate::config::{Config, CreditFlavour};
use crate::link::bench::{EndStimulus, LinkBench};
use crate::link::errors::ErrorPlan;
use crate::link::tcl_tx::BeatKind;
use crate::link::LinkParams;
use crate::stimulus::{BackPressure, SizeDist, SourceMode, TrafficSpec};
use serde::Serialize;

/// Table 5.4 of Biagioni 2017 (W = 8 bytes): the thesis's estimate, shown next to the simulation.
pub const TABLE_5_4: [(u32, f64, f64); 9] = [
    (16, 0.22, 0.17),
    (32, 0.36, 0.29),
    (64, 0.53, 0.44),
    (128, 0.70, 0.62),
    (256, 0.82, 0.76),
    (512, 0.90, 0.86),
    (1024, 0.94, 0.90),
    (2048, 0.96, 0.92),
    (4096, 0.97, 0.93),
];

/// Table 5.4's value for a payload size and flavour, if the table has that size.
pub fn thesis_value(payload: u32, flavour: CreditFlavour) -> Option<f64> {
    TABLE_5_4
        .iter()
        .find(|r| r.0 == payload)
        .map(|r| match flavour {
            CreditFlavour::StartStop => r.1,
            CreditFlavour::Usedword => r.2,
        })
}

/// Beats counted on A's side of the link over the window.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct BeatCounts {
    pub magic: u64,
    pub start: u64,
    pub header: u64,
    pub payload: u64,
    pub footer: u64,
    pub credit: u64,
    pub credit_magic: u64,
    pub credit_inner: u64,
    pub escape: u64,
    pub credits_between: u64,
    pub credits_inside: u64,
    pub packets: u64,
    pub cycles: u64,
}

impl BeatCounts {
    pub fn all(&self) -> u64 {
        self.magic
            + self.start
            + self.header
            + self.payload
            + self.footer
            + self.credit
            + self.credit_magic
            + self.credit_inner
            + self.escape
    }
}

/// One row of `exanet link efficiency`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EfficiencyRow {
    pub payload_bytes: u32,
    pub credit: &'static str,
    pub simulated: f64,
    pub formula: f64,
    pub thesis: Option<f64>,
    /// Credits between packets, per packet.
    pub n: f64,
    /// Credits inside packets, per packet.
    pub k: f64,
    pub packets: u64,
    pub beats: BeatCounts,
}

/// The formula of Biagioni 2017 §5.3.4 with W = 8 bytes; `credit_beats` = C/W.
pub fn formula(payload_bytes: u32, credit_beats: f64, n: f64, k: f64) -> f64 {
    let d = payload_bytes.div_ceil(8) as f64;
    let p = 1.0 + 1.0 + 2.0 + 2.0 + n * credit_beats + k * (credit_beats + 1.0);
    d / (p + d)
}

/// Saturating traffic of `payload` bytes from A to B; `window` cycles measured after `warmup`.
pub fn saturate(
    cfg: &Config,
    payload: u32,
    warmup: u64,
    window: u64,
) -> Result<(BeatCounts, u64, LinkBench), String> {
    let p = LinkParams::from_config(&cfg.link);
    let traffic = TrafficSpec {
        // the header's size field counts words with `link.size_in_words` (whole words sent)
        sizes: SizeDist::Fixed(if p.tcl.size_in_words {
            payload.div_ceil(16)
        } else {
            payload
        }),
        num_vcs: p.tcl.num_vcs,
        size_in_words: p.tcl.size_in_words,
        dests: Vec::new(),
    };
    let a = EndStimulus {
        traffic: traffic.clone(),
        mode: SourceMode::Saturate,
        back_pressure: BackPressure::None,
        seed: cfg.sim.seed,
    };
    let b = EndStimulus {
        traffic,
        mode: SourceMode::Idle,
        back_pressure: BackPressure::None,
        seed: cfg.sim.seed.wrapping_add(1),
    };
    let mut bench = LinkBench::new(
        p,
        a,
        b,
        ErrorPlan::of_lane(cfg, 0),
        ErrorPlan::of_lane(cfg, 1),
    );
    bench.a.src.keep_packets = true;
    bench.run(warmup);
    let bytes0 = bench.a.board.payload_bytes;
    let mut c = BeatCounts::default();
    for _ in 0..window {
        let (ev, _) = bench.step();
        let tx = ev.a_tx;
        if let Some(kind) = tx.loaded {
            match kind {
                BeatKind::Magic => c.magic += 1,
                BeatKind::Start => c.start += 1,
                BeatKind::Header => c.header += 1,
                BeatKind::Payload => c.payload += 1,
                BeatKind::Footer => {
                    c.footer += 1;
                    if c.footer % 2 == 0 {
                        c.packets += 1;
                    }
                }
                BeatKind::Credit => c.credit += 1,
                BeatKind::CreditMagic => c.credit_magic += 1,
                BeatKind::CreditInner => c.credit_inner += 1,
                BeatKind::Escape => c.escape += 1,
            }
        }
        if tx.credit_loaded {
            if tx.credit_inner {
                c.credits_inside += 1;
            } else {
                c.credits_between += 1;
            }
        }
        c.cycles += 1;
    }
    // without bit errors a wrong or lost packet is the model's fault; with them, the cost of
    // the errors, which the caller reports
    let errs = &bench.a.board.errors;
    let lost = bench.a.board.lost + bench.b.board.lost;
    if cfg.link.phy.ber == 0.0 {
        if !errs.is_empty() {
            return Err(format!(
                "saturation run at {payload} bytes delivered wrong packets: {}",
                errs[0]
            ));
        }
        if lost > 0 {
            return Err(format!(
                "saturation run at {payload} bytes lost {lost} packets"
            ));
        }
    }
    let delivered = bench.a.board.payload_bytes - bytes0;
    Ok((c, delivered, bench))
}

/// Warm-up and window long enough for `payload`: at least 200 packets in the window.
pub fn run_lengths(payload: u32) -> (u64, u64) {
    let beats = 6 + payload.div_ceil(8) as u64 + 1;
    (20_000, (200 * beats).max(50_000))
}

/// One row of the efficiency table.
pub fn efficiency(cfg: &Config, payload: u32) -> Result<EfficiencyRow, String> {
    let (warmup, window) = run_lengths(payload);
    let (c, _, _) = saturate(cfg, payload, warmup, window)?;
    if c.packets == 0 {
        return Err(format!(
            "no packet completed in {window} cycles at {payload} bytes"
        ));
    }
    let flavour = cfg.link.credit.flavour;
    let credit_beats = crate::link::tcl_tx::credit_beats(
        flavour == CreditFlavour::Usedword,
        cfg.link.credit.usedword_beats,
    ) as f64;
    let n = c.credits_between as f64 / c.packets as f64;
    let k = c.credits_inside as f64 / c.packets as f64;
    Ok(EfficiencyRow {
        payload_bytes: payload,
        credit: flavour.name(),
        simulated: c.payload as f64 / c.all() as f64,
        formula: formula(payload, credit_beats, n, k),
        thesis: thesis_value(payload, flavour),
        n,
        k,
        packets: c.packets,
        beats: c,
    })
}

/// The `exanet link bandwidth` result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BandwidthReport {
    pub payload_bytes: u32,
    /// Payload delivered at the receiver's RX FIFOs, Gb/s.
    pub gbps: f64,
    /// `gbps` over the PHY user interface rate (64 bits x clock).
    pub efficiency: f64,
    pub line_gbps: f64,
    pub gearbox_pause: bool,
    pub clock_compensation: bool,
    pub cycles: u64,
    /// The configuration's bit error rate on both lanes (`link.phy.ber`).
    pub ber: f64,
    /// Packets the scoreboards found missing (lost to bit errors), over the whole run.
    pub packets_lost: u64,
    /// Packets delivered different from what was sent (a bad CRC flagged or not), over the
    /// whole run.
    pub packets_wrong: u64,
}

pub fn bandwidth(cfg: &Config, payload: u32) -> Result<BandwidthReport, String> {
    let (warmup, window) = run_lengths(payload);
    let window = window.max(4 * cfg.link.phy.cc_period_cycles as u64);
    let (c, bytes, bench) = saturate(cfg, payload, warmup, window)?;
    let clock = cfg.clock();
    let seconds = clock.ns(c.cycles as f64) * 1e-9;
    let gbps = bytes as f64 * 8.0 / seconds / 1e9;
    let line = clock.bus_bps(64) / 1e9;
    Ok(BandwidthReport {
        payload_bytes: payload,
        gbps,
        efficiency: gbps / line,
        line_gbps: line,
        gearbox_pause: cfg.link.phy.gearbox_pause,
        clock_compensation: cfg.link.phy.clock_compensation,
        cycles: c.cycles,
        ber: cfg.link.phy.ber,
        packets_lost: bench.a.board.lost + bench.b.board.lost,
        packets_wrong: (bench.a.board.errors.len() + bench.b.board.errors.len()) as u64,
    })
}
