//! Lockstep co-simulation of the link: the Rust model and the Verilated `exanet_link_top` are
//! driven with the same test-bench inputs every cycle (random packets of 0..4 KB on random VCs
//! in both directions, random back-pressure at both receivers, optional bit errors whose masks
//! come from the model's injectors), and after every rising edge every signal the model probes
//! (all ports and all registers, by their RTL names) is compared with the RTL's value.
//!
//! Per cycle `c` (docs/architecture.md, "Time in waves and in lockstep"):
//! 1. the test bench's registers give the inputs of cycle `c`; they are set on the RTL's top
//!    ports and the clock is low; both sides dump waves at `P c`;
//! 2. the model steps; the RTL's clock rises; both dump waves at `P c + P/2`;
//! 3. every probed signal is compared; the first difference stops the run.

use crate::config::Config;
use crate::cosim::rtl::{RtlModel, RtlTop, SignalId};
use crate::link::bench::{EndStimulus, LinkBench};
use crate::link::errors::ErrorPlan;
use crate::link::{LinkParams, LinkTbIn};
use crate::probe::{Declarer, Sampler};
use crate::stimulus::{BackPressure, SizeDist, SourceMode, TrafficSpec};
use serde::Serialize;
use std::fmt;
use std::path::PathBuf;

#[derive(Debug, Clone, Default)]
pub struct Options {
    pub cycles: u64,
    /// Write `model.vcd` and `rtl.vcd` here.
    pub vcd_dir: Option<PathBuf>,
    /// Test hook: after this cycle's rising edge, flip bit 0 of end A's TX credit age in the
    /// model only, to show that the comparison catches a difference.
    pub fault_at: Option<u64>,
}

/// The first difference between model and RTL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    pub cycle: u64,
    pub signal: String,
    pub model: String,
    pub rtl: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "mismatch at cycle {} (after its rising edge): {}: model = {}, rtl = {}",
            self.cycle, self.signal, self.model, self.rtl
        )
    }
}

#[derive(Debug)]
pub enum CosimError {
    /// The run cannot start (no RTL in this binary, parameters the RTL was not built with...).
    Setup(String),
    /// Something failed during the run (a file could not be written...).
    Run(String),
    /// Model and RTL differ.
    Mismatch(Mismatch),
}

impl fmt::Display for CosimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CosimError::Setup(m) | CosimError::Run(m) => f.write_str(m),
            CosimError::Mismatch(m) => write!(f, "{m}"),
        }
    }
}

/// What an identical run did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CosimReport {
    pub cycles: u64,
    pub signals_compared: usize,
    pub packets_delivered: u64,
    pub packets_crc_bad: u64,
    pub packets_lost: u64,
    pub ecc_corrected: u64,
    pub ecc_uncorrectable: u64,
    pub crc_errors: u64,
    pub credit_stall_cycles: u64,
    pub bits_flipped: u64,
    pub vcd: Option<(String, String)>,
}

impl CosimReport {
    pub fn summary(&self) -> String {
        format!(
            "{} signals compared each cycle; packets delivered {}, delivered with crc_bad {}, lost {}; \
             ECC corrected {}, uncorrectable {}; CRC errors {}; credit stall cycles {}; bits flipped {}",
            self.signals_compared,
            self.packets_delivered,
            self.packets_crc_bad,
            self.packets_lost,
            self.ecc_corrected,
            self.ecc_uncorrectable,
            self.crc_errors,
            self.credit_stall_cycles,
            self.bits_flipped
        )
    }
}

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
    let traffic = TrafficSpec {
        sizes: SizeDist::Uniform { min: 0, max: 4096 },
        num_vcs: p.tcl.num_vcs,
        size_in_words: p.tcl.size_in_words,
    };
    let end = |k: u64| EndStimulus {
        traffic,
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

/// The RTL's top-level inputs, in the order they are set.
pub struct TopInputs {
    ids: Vec<SignalId>,
}

const TOP_INPUTS: [&str; 21] = [
    "TOP.cfg_credit_period_i",
    "TOP.cfg_max_interval_i",
    "TOP.cfg_tred_i",
    "TOP.cfg_usedword_i",
    "TOP.cfg_after_pkt_i",
    "TOP.cfg_gearbox_en_i",
    "TOP.cfg_cc_en_i",
    "TOP.a_tx_wr_hf_i",
    "TOP.a_tx_wr_pay_i",
    "TOP.a_tx_wdata_i",
    "TOP.a_rx_rd_hf_i",
    "TOP.a_rx_rd_pay_i",
    "TOP.b_tx_wr_hf_i",
    "TOP.b_tx_wr_pay_i",
    "TOP.b_tx_wdata_i",
    "TOP.b_rx_rd_hf_i",
    "TOP.b_rx_rd_pay_i",
    "TOP.ab_err_mask_i",
    "TOP.ba_err_mask_i",
    "TOP.clk_i",
    "TOP.rst_ni",
];

impl TopInputs {
    pub fn new(rtl: &RtlModel) -> Result<TopInputs, String> {
        let mut ids = Vec::new();
        for n in TOP_INPUTS {
            ids.push(
                rtl.find(n)
                    .ok_or_else(|| format!("the Verilated link has no input {n}"))?,
            );
        }
        Ok(TopInputs { ids })
    }

    /// Set every data input for a cycle (the clock is set separately).
    pub fn set(&self, rtl: &mut RtlModel, p: &LinkParams, tb: &LinkTbIn) -> Result<(), String> {
        let v: [u128; 19] = [
            p.cfg.credit_period as u128,
            p.cfg.max_interval as u128,
            p.cfg.tred as u128,
            p.cfg.usedword as u128,
            p.cfg.after_pkt as u128,
            p.phy_cfg.gearbox_en as u128,
            p.phy_cfg.cc_en as u128,
            tb.a.tx_wr_hf as u128,
            tb.a.tx_wr_pay as u128,
            tb.a.tx_wdata,
            tb.a.rx_rd_hf as u128,
            tb.a.rx_rd_pay as u128,
            tb.b.tx_wr_hf as u128,
            tb.b.tx_wr_pay as u128,
            tb.b.tx_wdata,
            tb.b.rx_rd_hf as u128,
            tb.b.rx_rd_pay as u128,
            tb.ab_err_mask as u128,
            tb.ba_err_mask as u128,
        ];
        for (k, val) in v.iter().enumerate() {
            rtl.set(self.ids[k], *val).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    pub fn clk(&self, rtl: &mut RtlModel, level: bool) -> Result<(), String> {
        rtl.set(self.ids[19], level as u128)
            .map_err(|e| e.to_string())
    }

    pub fn rst_n(&self, rtl: &mut RtlModel, level: bool) -> Result<(), String> {
        rtl.set(self.ids[20], level as u128)
            .map_err(|e| e.to_string())
    }
}

/// Pairs every probed model signal with its RTL twin; a model signal without a twin is an error.
pub fn map_signals(names: &[(String, u32)], rtl: &RtlModel) -> Result<Vec<SignalId>, String> {
    let mut ids = Vec::with_capacity(names.len());
    let mut missing = Vec::new();
    for (n, w) in names {
        match rtl.find(n) {
            Some(id) => {
                let rw = rtl.signals()[id.index()].width;
                if rw != *w {
                    missing.push(format!("{n} (model {w} bits, RTL {rw} bits)"));
                }
                ids.push(id);
            }
            None => missing.push(n.clone()),
        }
    }
    if missing.is_empty() {
        Ok(ids)
    } else {
        Err(format!(
            "{} model signals have no RTL twin of the same name and width: {}{}",
            missing.len(),
            missing
                .iter()
                .take(12)
                .cloned()
                .collect::<Vec<_>>()
                .join(", "),
            if missing.len() > 12 { ", ..." } else { "" }
        ))
    }
}

/// Apply the asynchronous reset: `rst_ni` high, low (the falling edge resets every register),
/// high again, with the clock low. Verilator starts every signal at zero, so driving `rst_ni`
/// low at the first evaluation would not be an edge.
pub fn reset(inputs: &TopInputs, rtl: &mut RtlModel) -> Result<(), String> {
    inputs.clk(rtl, false)?;
    for level in [true, false, true] {
        inputs.rst_n(rtl, level)?;
        rtl.eval();
    }
    Ok(())
}

fn hex(v: u128) -> String {
    format!("0x{v:x}")
}

/// Run the link in lockstep for `opts.cycles` cycles.
pub fn run_link(cfg: &Config, opts: &Options) -> Result<CosimReport, CosimError> {
    check_structural(cfg).map_err(CosimError::Setup)?;
    let mut bench = cosim_bench(cfg);
    let p = bench.link.p;
    let mut rtl = RtlModel::new(RtlTop::Link).map_err(|e| CosimError::Setup(e.to_string()))?;
    let inputs = TopInputs::new(&rtl).map_err(CosimError::Setup)?;
    let mut decl = Declarer::default();
    bench.link.probe(&bench.tb_inputs(), &mut decl);
    let ids = map_signals(&decl.names, &rtl).map_err(CosimError::Setup)?;
    let period = cfg.clock().period_ps();
    let mut vcd = None;
    if let Some(dir) = &opts.vcd_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| CosimError::Run(format!("{}: {e}", dir.display())))?;
        let m = dir.join("model.vcd");
        let r = dir.join("rtl.vcd");
        bench.open_wave(&m, period).map_err(CosimError::Run)?;
        rtl.trace_open(&r)
            .map_err(|e| CosimError::Run(e.to_string()))?;
        vcd = Some((m.display().to_string(), r.display().to_string()));
    }
    // Reset before time 0, released at time 0 (registers hold their reset values in cycle 0).
    let tb0 = bench.tb_inputs();
    let setup = |e: String| CosimError::Run(e);
    inputs.set(&mut rtl, &p, &tb0).map_err(setup)?;
    inputs.clk(&mut rtl, false).map_err(setup)?;
    reset(&inputs, &mut rtl).map_err(setup)?;

    let mut sampler = Sampler::default();
    for c in 0..opts.cycles {
        let tb = bench.tb_inputs();
        inputs.set(&mut rtl, &p, &tb).map_err(setup)?;
        inputs.clk(&mut rtl, false).map_err(setup)?;
        rtl.eval();
        if vcd.is_some() {
            rtl.trace_dump(period * c);
        }
        bench.step();
        if opts.fault_at == Some(c) {
            bench.link.a.tx.credit_age ^= 1;
        }
        inputs.clk(&mut rtl, true).map_err(setup)?;
        rtl.eval();
        if vcd.is_some() {
            rtl.trace_dump(period * c + period / 2);
        }
        sampler.clear();
        sampler.clk = true;
        bench.link.probe(&tb, &mut sampler);
        for (k, id) in ids.iter().enumerate() {
            let want = sampler.values[k];
            let got = rtl.get(*id);
            if want != got {
                if vcd.is_some() {
                    let _ = bench.close_wave();
                    rtl.trace_close();
                }
                return Err(CosimError::Mismatch(Mismatch {
                    cycle: c,
                    signal: decl.names[k].0.clone(),
                    model: hex(want),
                    rtl: hex(got),
                }));
            }
        }
        if let Some(e) = bench
            .a
            .board
            .errors
            .first()
            .or(bench.b.board.errors.first())
        {
            return Err(CosimError::Run(format!(
                "cycle {c}: the scoreboard found a silent corruption: {e}"
            )));
        }
    }
    if vcd.is_some() {
        bench.close_wave().map_err(CosimError::Run)?;
        rtl.trace_close();
    }
    let l = &bench.link;
    let boards = [&bench.a.board, &bench.b.board];
    Ok(CosimReport {
        cycles: opts.cycles,
        signals_compared: ids.len(),
        packets_delivered: boards.iter().map(|b| b.delivered).sum(),
        packets_crc_bad: boards.iter().map(|b| b.crc_bad).sum(),
        packets_lost: boards.iter().map(|b| b.lost).sum(),
        ecc_corrected: (l.a.rx.stat_ecc_corr + l.b.rx.stat_ecc_corr) as u64,
        ecc_uncorrectable: (l.a.rx.stat_ecc_uncorr + l.b.rx.stat_ecc_uncorr) as u64,
        crc_errors: (l.a.rx.stat_crc_err + l.b.rx.stat_crc_err) as u64,
        credit_stall_cycles: (l.a.tx.stat_stall + l.b.tx.stat_stall) as u64,
        bits_flipped: bench.inj_ab.bits_flipped + bench.inj_ba.bits_flipped,
        vcd,
    })
}
