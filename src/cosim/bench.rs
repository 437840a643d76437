//! `exanet bench link`: simulated cycles per second of the link under saturating traffic, for
//! the Rust model, the Verilated RTL, and the two in lockstep.
//!
//! The test bench (packet generation, scoreboard) is not what is being measured, so one run of
//! it records the link's inputs for every cycle; that trace is then replayed into a fresh Rust
//! link and into the Verilated link, which therefore simulate exactly the same cycles. Lockstep
//! is timed as `exanet cosim` runs it (test bench, model, RTL and the comparison of every
//! probed signal each cycle).
//!
//! The recorded inputs are held in memory, [`TRACE_BUDGET_BYTES`] at most: a bench refuses more
//! cycles than fit ([`max_trace_cycles`]) instead of failing to allocate them.

use crate::config::Config;
use crate::cosim::link_design::{check_structural, link_input_values, run_link, LinkDesign};
use crate::cosim::lockstep::{Design, Options, Simulator, TopInputs, PROGRESS_BATCH};
use crate::cosim::rtl::{RtlModel, RtlTop};
use crate::link::bench::{EndStimulus, LinkBench};
use crate::link::errors::ErrorPlan;
use crate::link::{Link, LinkParams, LinkTbIn};
use crate::progress::Progress;
use crate::stimulus::{BackPressure, SizeDist, SourceMode, TrafficSpec};
use serde::Serialize;
use std::fmt;
use std::time::Instant;

/// Memory the recorded inputs of a bench may take, bytes (2 GiB: a tenth of the development
/// machine's memory, which other builds share).
pub const TRACE_BUDGET_BYTES: u64 = 2 << 30;

/// The most cycles a bench recording a `T` every cycle can run within [`TRACE_BUDGET_BYTES`].
pub const fn max_trace_cycles<T>() -> u64 {
    TRACE_BUDGET_BYTES / std::mem::size_of::<T>() as u64
}

/// `exanet bench link --cycles` at most: the link's recorded inputs within the budget.
pub const MAX_LINK_CYCLES: u64 = max_trace_cycles::<LinkTbIn>();

/// Cycles the lockstep part of `exanet bench link` runs at most (the rest of the cycles are
/// timed without it).
pub const LINK_LOCKSTEP_CYCLES: u64 = 300_000;

/// The refusal of a `--cycles` above `max` (what the recorded inputs of a cycle take).
pub(crate) fn too_many_cycles<T>(design: &str, cycles: u64, max: u64) -> String {
    format!(
        "--cycles: {cycles}: bench {design} runs at most {max} cycles (it holds the recorded \
         inputs of every cycle, {} bytes each, in {} GiB)",
        std::mem::size_of::<T>(),
        TRACE_BUDGET_BYTES >> 30
    )
}

#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    /// `link` or `node`.
    pub design: String,
    /// The traffic simulated, in words.
    pub traffic: String,
    pub cycles: u64,
    /// Rust link alone, replaying the recorded inputs.
    pub model_cycles_per_s: f64,
    /// Verilated link alone, replaying the same inputs.
    pub rtl_cycles_per_s: f64,
    /// Test bench + model + RTL + comparison of every probed signal.
    pub lockstep_cycles_per_s: f64,
    /// Test bench + model (what the measurements run).
    pub model_with_bench_cycles_per_s: f64,
    pub model_over_rtl: f64,
    pub goal_model_over_rtl: f64,
    /// Payload words delivered per cycle (link: payload beats the TX sent).
    pub payload_beats_per_cycle: f64,
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} simulation speed, {} cycles of {}",
            self.design, self.cycles, self.traffic
        )?;
        writeln!(
            f,
            "  Rust model              {:>12.0} cycles/s",
            self.model_cycles_per_s
        )?;
        writeln!(
            f,
            "  Verilated RTL           {:>12.0} cycles/s",
            self.rtl_cycles_per_s
        )?;
        writeln!(
            f,
            "  lockstep (with compare) {:>12.0} cycles/s",
            self.lockstep_cycles_per_s
        )?;
        writeln!(
            f,
            "  model + test bench      {:>12.0} cycles/s",
            self.model_with_bench_cycles_per_s
        )?;
        write!(
            f,
            "  model / RTL = {:.1}x (goal: at least {:.0}x) {}",
            self.model_over_rtl,
            self.goal_model_over_rtl,
            if self.model_over_rtl >= self.goal_model_over_rtl {
                "met"
            } else {
                "NOT MET"
            }
        )
    }
}

fn saturating_bench(cfg: &Config) -> LinkBench {
    let p = LinkParams::from_config(&cfg.link);
    let traffic = TrafficSpec {
        sizes: SizeDist::Uniform { min: 0, max: 4096 },
        num_vcs: p.tcl.num_vcs,
        size_in_words: false,
        dests: Vec::new(),
    };
    let end = |k: u64| EndStimulus {
        traffic: traffic.clone(),
        mode: SourceMode::Saturate,
        back_pressure: BackPressure::None,
        seed: cfg.sim.seed.wrapping_add(k),
    };
    let mut b = LinkBench::new(p, end(0), end(1), ErrorPlan::None, ErrorPlan::None);
    b.a.src.keep_packets = false;
    b.b.src.keep_packets = false;
    b
}

/// Reset a fresh Verilated `top` and clock it through `n` cycles, `values(k, v)` giving the
/// inputs `names` of cycle `k`; the model after the last cycle and the cycles per second. Every
/// cycle is counted into `progress`.
pub fn replay_rtl(
    top: RtlTop,
    names: &[String],
    n: usize,
    mut values: impl FnMut(usize, &mut Vec<u128>),
    progress: &Progress,
) -> Result<(RtlModel, f64), String> {
    let mut rtl = RtlModel::new(top).map_err(|e| e.to_string())?;
    let inputs = TopInputs::new(&rtl, names)?;
    let mut v = Vec::with_capacity(names.len());
    if n > 0 {
        values(0, &mut v);
        inputs.set(&mut rtl, &v)?;
    }
    inputs.reset(&mut rtl)?;
    let t = Instant::now();
    for k in 0..n {
        values(k, &mut v);
        inputs.set(&mut rtl, &v)?;
        inputs.clk(&mut rtl, false)?;
        rtl.eval();
        inputs.clk(&mut rtl, true)?;
        rtl.eval();
        progress.every(k as u64, PROGRESS_BATCH);
    }
    Ok((rtl, n as f64 / t.elapsed().as_secs_f64()))
}

/// The cycles every phase of `exanet bench link --cycles cycles` runs, in all (what its
/// progress line counts): recording, model, RTL, lockstep.
pub fn link_total_cycles(cycles: u64) -> u64 {
    3 * cycles + cycles.min(LINK_LOCKSTEP_CYCLES)
}

/// What `exanet bench link` can run: the Verilated link's structure, 1 to [`MAX_LINK_CYCLES`]
/// cycles.
pub fn check_link(cfg: &Config, cycles: u64) -> Result<(), String> {
    check_structural(cfg)?;
    if cfg.link.phy.ber > 0.0 {
        return Err(format!(
            "link.phy.ber = {}: the {} bench measures speed on error-free traffic (its recorded \
             test bench has no error injector); set it to 0",
            cfg.link.phy.ber, "link"
        ));
    }
    if cycles == 0 {
        return Err("--cycles: must be at least 1".into());
    }
    if cycles > MAX_LINK_CYCLES {
        return Err(too_many_cycles::<LinkTbIn>("link", cycles, MAX_LINK_CYCLES));
    }
    Ok(())
}

/// `cycles` as [`check_link`] says; `progress` counts [`link_total_cycles`].
pub fn bench_link(cfg: &Config, cycles: u64, progress: &Progress) -> Result<BenchReport, String> {
    check_link(cfg, cycles)?;
    // Record the inputs (and time the model with its test bench).
    let mut tb_run = saturating_bench(cfg);
    let mut trace: Vec<LinkTbIn> = Vec::with_capacity(cycles as usize);
    let t = Instant::now();
    let mut payload = 0u64;
    progress.set_message("recording the test bench's inputs");
    for k in 0..cycles {
        let (ev, tb) = tb_run.step();
        trace.push(tb);
        payload += (ev.a_tx.loaded == Some(crate::link::tcl_tx::BeatKind::Payload)) as u64;
        progress.every(k, PROGRESS_BATCH);
    }
    let with_bench = cycles as f64 / t.elapsed().as_secs_f64();
    let names = LinkDesign::new(cfg).input_names();

    // The Rust link alone.
    let p = tb_run.link.p;
    let mut link = Link::new(p);
    progress.set_position(cycles);
    progress.set_message("Rust model");
    let t = Instant::now();
    for (k, tb) in trace.iter().enumerate() {
        link.step(tb);
        progress.every(k as u64, PROGRESS_BATCH);
    }
    let model = cycles as f64 / t.elapsed().as_secs_f64();
    if link.a.rx.stat_pkts != tb_run.link.a.rx.stat_pkts
        || link.b.rx.stat_pkts != tb_run.link.b.rx.stat_pkts
    {
        return Err("the replayed link did not follow the recorded run".into());
    }

    // The Verilated link alone, same inputs.
    progress.set_position(2 * cycles);
    progress.set_message("Verilated RTL");
    let (rtl, rtl_cps) = replay_rtl(
        RtlTop::Link,
        &names,
        trace.len(),
        |k, v| link_input_values(&p, &trace[k], v),
        progress,
    )?;
    let pkts = rtl
        .find("TOP.exanet_link_top.u_b.u_tcl.u_rx.stat_pkts_q")
        .map(|id| rtl.get(id));
    if pkts != Some(link.b.rx.stat_pkts as u128) {
        return Err(format!(
            "the Verilated link did not follow the recorded run (B received {pkts:?} packets, model {})",
            link.b.rx.stat_pkts
        ));
    }
    drop(trace);

    // Lockstep, as `exanet cosim` runs it.
    let lock_cycles = cycles.min(LINK_LOCKSTEP_CYCLES);
    progress.set_position(3 * cycles);
    progress.set_message("lockstep");
    let t = Instant::now();
    run_link(
        cfg,
        &Options {
            cycles: lock_cycles,
            progress: progress.clone(),
            ..Default::default()
        },
        Simulator::Verilator,
    )
    .map_err(|e| e.to_string())?;
    let lockstep_cps = lock_cycles as f64 / t.elapsed().as_secs_f64();

    Ok(BenchReport {
        design: "link".into(),
        traffic: "saturating traffic both ways".into(),
        cycles,
        model_cycles_per_s: model,
        rtl_cycles_per_s: rtl_cps,
        lockstep_cycles_per_s: lockstep_cps,
        model_with_bench_cycles_per_s: with_bench,
        model_over_rtl: model / rtl_cps,
        goal_model_over_rtl: 5.0,
        payload_beats_per_cycle: payload as f64 / cycles as f64,
    })
}
