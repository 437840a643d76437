//! Lockstep co-simulation: a Rust model and its Verilated RTL top are driven with the same
//! test-bench inputs every cycle, and after every rising edge every signal the model probes (all
//! ports and all registers, by their RTL names) is compared with the RTL's value.
//!
//! Per cycle `c` (docs/architecture.md, "Time in waves and in lockstep"):
//! 1. the test bench's registers give the inputs of cycle `c`; they are set on the RTL's top
//!    ports and the clock is low; both sides dump waves at `P c`;
//! 2. the model steps; the RTL's clock rises; both dump waves at `P c + P/2`;
//! 3. every probed signal is compared; the first difference stops the run.
//!
//! A design (the link, the router, the node) implements [`Design`]; this driver is the same for
//! all of them.

use crate::cosim::coverage::{self, CoverageData};
use crate::cosim::rtl::{RtlModel, RtlTop, SignalId};
use crate::probe::{Declarer, Sampler, Visitor};
use crate::wave::{ProbedWave, WaveFormat};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

/// A model with its test bench, as the lockstep driver sees it.
pub trait Design {
    /// The Verilated top this design runs against.
    fn top(&self) -> RtlTop;
    /// Full names (`TOP.x_i`, `TOP.y_i[2]`) of the top's inputs the test bench drives, clock
    /// and reset excluded, in the order of [`Design::input_values`].
    fn input_names(&self) -> Vec<String>;
    /// Their values in this cycle (from the test bench's registers).
    fn input_values(&self) -> Vec<u128>;
    /// One clock cycle of the test bench and the model.
    fn step(&mut self);
    /// Every model signal under its RTL name. `after_edge`: the registers have just been
    /// committed and the inputs are still those of the cycle that ended.
    fn probe(&self, after_edge: bool, v: &mut dyn Visitor);
    /// What the test bench found wrong so far, checked every cycle: an inconsistency of its
    /// own, or a broken invariant (the links' packet accounting). Silent corruptions are
    /// counted in `stats`, not reported here.
    fn check(&self) -> Result<(), String>;
    /// Named counts describing the run, for the report.
    fn stats(&self) -> BTreeMap<String, u64>;
    /// Test hook: change one register of the model only.
    fn inject_fault(&mut self);
    /// The name of the register `inject_fault` changes.
    fn fault_signal(&self) -> String;
    /// Verilator traces every signal of the top (false: only its ports, a network top's; the
    /// RTL's wave then holds the compared signals, read from the Verilated model by name every half
    /// cycle, under the same names as the model's wave).
    fn rtl_traced(&self) -> bool {
        true
    }
    /// The design's GTKWave save file, to write one for the run that follows its first
    /// packet (`views.rs`); None: no save file.
    fn view_kind(&self) -> Option<super::views::ViewKind> {
        None
    }
    /// Checked once, after the RTL's reset and before the first cycle: what the RTL resets to
    /// that the comparison does not cover (a network's Target Controllers).
    fn check_reset(&self, _rtl: &RtlModel) -> Result<(), String> {
        Ok(())
    }
    /// After a cycle's comparison and before the next cycle's inputs are read: where a test
    /// bench changes a setting that is an input of the top but a parameter of the model's
    /// blocks (the link's credit and PHY settings), so both sides see it from the same cycle.
    fn between_cycles(&mut self) {}
    /// After [`Design::between_cycles`]: `true` asserts the top's asynchronous reset before the
    /// next cycle (the constrained stimulus's reset during traffic). The design has then
    /// already reset its model as the RTL's reset does (every register to its reset value, the
    /// FIFOs' block RAMs keeping their contents) and its test bench (packets cut short are
    /// counted, never silently lost); the driver pulses `rst_ni` on the RTL with the clock low.
    /// The pulse falls between two samples of the waves: both show the reset values from the
    /// next sample on.
    fn reset_now(&mut self) -> bool {
        false
    }
    /// After [`Design::reset_now`]: the deposits the test bench has just made into the model's
    /// event counters (decision 0044), by full RTL name; the driver makes the same ones in the
    /// RTL before the next cycle. A deposit changes only counters, whose value feeds no
    /// hardware decision; the design's own accounting takes the deposits off
    /// (`crate::counters::Deposits::counted`).
    fn deposits(&mut self) -> Vec<(String, u32)> {
        Vec::new()
    }
    /// The top's register map for its coverage (`src/cosim/coverage.rs`): `(slots, links)` of a
    /// top with a Target Controller on `TOP.reg_*`.
    fn register_map(&self) -> Option<(u32, u32)> {
        None
    }
}

/// The simulator the RTL runs on beside the model.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Simulator {
    /// Verilator, linked into this binary: in true lockstep, with waves (the default).
    #[default]
    Verilator,
    /// Icarus Verilog (`iverilog`, `vvp` on PATH), replaying the same inputs in a generated
    /// test bench and compared after the run (`src/cosim/icarus.rs`).
    Icarus,
}

/// Run `d` against its RTL top on `sim`.
pub fn run_on<D: Design>(
    d: &mut D,
    opts: &Options,
    sim: Simulator,
) -> Result<CosimReport, CosimError> {
    match sim {
        Simulator::Verilator => run(d, opts),
        Simulator::Icarus => crate::cosim::icarus::run(d, opts),
    }
}

/// Run `d`, built from `cfg`, against its RTL top on `sim`, with the waves' clock period
/// taken from `cfg` (what every design's `run_*_on` does after its structural check).
pub fn run_config_on<D: Design>(
    d: &mut D,
    cfg: &crate::config::Config,
    opts: &Options,
    sim: Simulator,
) -> Result<CosimReport, CosimError> {
    let opts = Options {
        period_ps: cfg.clock().period_ps(),
        ..opts.clone()
    };
    run_on(d, &opts, sim)
}

/// The test bench's stimulus (issue 30, decision 0042).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Stimulus {
    /// Constrained-random (the default): every packet type, header and footer fields at their
    /// corners, payload halves equal to MAGIC and START, sources pausing mid-packet; the
    /// link's credit and PHY settings changed under traffic; the router moved through other
    /// lattices in torus mode, ports disabled; the node's whole register map written and read;
    /// every design reset during traffic now and then (`Design::reset_now`).
    #[default]
    Constrained,
    /// The narrower stimulus of earlier versions: RDMA packets with plain fields, fixed
    /// settings, the node's software writing a few registers.
    Plain,
}

#[derive(Debug, Clone, Default)]
pub struct Options {
    pub cycles: u64,
    /// Write `model.vcd` and `rtl.vcd` (or `.fst`, see `wave_format`) here.
    pub vcd_dir: Option<PathBuf>,
    /// The format of the waves written into `vcd_dir`.
    pub wave_format: WaveFormat,
    /// Write the waves of cycles `[from, to)` only (None: every cycle). The comparison runs
    /// on every cycle regardless.
    pub wave_window: Option<(u64, u64)>,
    /// Write only the signals of these scopes, on both sides (None: every signal;
    /// `wave/scopes.rs`).
    pub wave_scopes: Option<crate::wave::ScopeFilter>,
    /// Test hook: after this cycle's rising edge, change one model register only, to show that
    /// the comparison catches a difference.
    pub fault_at: Option<u64>,
    /// Clock period in ps (VCD time).
    pub period_ps: u64,
    /// Counts the cycles run (a line on a terminal; nothing otherwise, the default).
    pub progress: crate::progress::Progress,
    /// The test bench's stimulus.
    pub stimulus: Stimulus,
    /// Measure the RTL's coverage (in [`CosimReport::coverage`]); also measured, and written
    /// into the directory, when [`coverage::DIR_ENV`] is set.
    pub coverage: bool,
}

/// The most cycles `exanet cosim` runs (`--cycles`): 10^8, some hours for the node at the
/// lockstep's speed on the development machine (about 10,000 cycles a second; the link is about
/// three times faster). A longer soak is several runs with other seeds.
pub const MAX_CYCLES: u64 = 100_000_000;

/// Cycles between two counts into a progress line ([`Options::progress`], the benches').
pub(crate) const PROGRESS_BATCH: u64 = 1024;

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
    /// Something failed during the run (a file could not be written, a scoreboard error...).
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
    /// The Verilated top compared against (`node`, `node_torus2d`, ...: its shape, decision
    /// 0037).
    pub rtl_top: &'static str,
    pub cycles: u64,
    pub signals_compared: usize,
    /// The design's counts (packets delivered, errors injected and found...).
    pub stats: BTreeMap<String, u64>,
    /// The model's and the RTL's wave files (VCD or FST), when written.
    pub vcd: Option<(String, String)>,
    /// The run's GTKWave save file (`views.rs`), when its first packet is in its waves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub view: Option<String>,
    /// The RTL's coverage, when measured ([`Options::coverage`]).
    #[serde(skip)]
    pub coverage: Option<Box<CoverageData>>,
}

impl CosimReport {
    pub fn stat(&self, name: &str) -> u64 {
        self.stats.get(name).copied().unwrap_or(0)
    }

    pub fn summary(&self) -> String {
        let s: Vec<String> = self.stats.iter().map(|(k, v)| format!("{k} {v}")).collect();
        format!(
            "RTL top {}: {} signals compared each cycle; {}",
            self.rtl_top,
            self.signals_compared,
            s.join(", ")
        )
    }
}

/// The RTL's inputs a design drives, by name.
pub struct TopInputs {
    ids: Vec<SignalId>,
    clk: SignalId,
    rst_n: SignalId,
}

impl TopInputs {
    pub fn new(rtl: &RtlModel, names: &[String]) -> Result<TopInputs, String> {
        let find = |n: &str| {
            rtl.find(n)
                .ok_or_else(|| format!("the Verilated top has no input {n}"))
        };
        Ok(TopInputs {
            ids: names.iter().map(|n| find(n)).collect::<Result<_, _>>()?,
            clk: find("TOP.clk_i")?,
            rst_n: find("TOP.rst_ni")?,
        })
    }

    pub fn set(&self, rtl: &mut RtlModel, values: &[u128]) -> Result<(), String> {
        for (id, v) in self.ids.iter().zip(values) {
            rtl.set(*id, *v).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    pub fn clk(&self, rtl: &mut RtlModel, level: bool) -> Result<(), String> {
        rtl.set(self.clk, level as u128).map_err(|e| e.to_string())
    }

    /// Apply the asynchronous reset: `rst_ni` high, low (the falling edge resets every
    /// register), high again, with the clock low. Verilator starts every signal at zero, so
    /// driving `rst_ni` low at the first evaluation would not be an edge.
    pub fn reset(&self, rtl: &mut RtlModel) -> Result<(), String> {
        self.reset_seen(rtl, |_| {})
    }

    /// [`TopInputs::reset`], with `seen` called after each evaluation (the coverage collector
    /// sees `rst_ni` low).
    pub fn reset_seen(
        &self,
        rtl: &mut RtlModel,
        mut seen: impl FnMut(&RtlModel),
    ) -> Result<(), String> {
        self.clk(rtl, false)?;
        for level in [true, false, true] {
            rtl.set(self.rst_n, level as u128)
                .map_err(|e| e.to_string())?;
            rtl.eval();
            seen(rtl);
        }
        Ok(())
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

fn hex(v: u128) -> String {
    format!("0x{v:x}")
}

/// Run `d` in lockstep with its Verilated top for `opts.cycles` cycles.
pub fn run<D: Design>(d: &mut D, opts: &Options) -> Result<CosimReport, CosimError> {
    let setup = CosimError::Setup;
    let run_err = CosimError::Run;
    let mut rtl = RtlModel::new(d.top()).map_err(|e| setup(e.to_string()))?;
    let inputs = TopInputs::new(&rtl, &d.input_names()).map_err(setup)?;
    let mut decl = Declarer::default();
    d.probe(false, &mut decl);
    let ids = map_signals(&decl.names, &rtl).map_err(setup)?;
    let period = opts.period_ps.max(2);
    let mut wave = None;
    // the RTL's wave when Verilator does not trace the compared signals
    let mut rtl_wave: Option<crate::wave::WaveSink> = None;
    let mut vcd = None;
    if let Some(dir) = &opts.vcd_dir {
        std::fs::create_dir_all(dir).map_err(|e| run_err(format!("{}: {e}", dir.display())))?;
        let ext = opts.wave_format.extension();
        let (m, r) = (
            dir.join(format!("model.{ext}")),
            dir.join(format!("rtl.{ext}")),
        );
        let scopes = opts.wave_scopes.as_ref();
        if let Some(f) = scopes {
            if !f.matches_any(decl.names.iter().map(|(n, _)| n.as_str())) {
                return Err(setup(format!(
                    "--scope: no signal of {} lies in the scopes given (the top's ports only)",
                    d.top().name()
                )));
            }
        }
        wave = Some(
            ProbedWave::create_filtered(&m, opts.wave_format, |v| d.probe(false, v), scopes)
                .map_err(run_err)?,
        );
        if d.rtl_traced() {
            rtl.trace_open_scoped(&r, opts.wave_format, opts.wave_scopes.clone())
                .map_err(|e| run_err(e.to_string()))?;
        } else {
            let decls: Vec<crate::wave::SignalDecl> = decl
                .names
                .iter()
                .filter(|(n, _)| scopes.is_none_or(|f| f.keeps(n)))
                .map(|(n, w)| crate::wave::SignalDecl::new(n.clone(), *w))
                .collect();
            rtl_wave = Some(
                crate::wave::WaveSink::create(&r, opts.wave_format, 1, &decls)
                    .map_err(|e| run_err(format!("{}: {e}", r.display())))?,
            );
        }
        vcd = Some((m.display().to_string(), r.display().to_string()));
    }
    inputs.set(&mut rtl, &d.input_values()).map_err(run_err)?;
    inputs.reset(&mut rtl).map_err(run_err)?;
    d.check_reset(&rtl).map_err(setup)?;
    let env_cov = coverage::env_file(d.top().name());
    let mut cov = if opts.coverage || env_cov.is_some() {
        let mut c = coverage::Collector::new(&rtl, d.register_map()).map_err(setup)?;
        c.sample(&rtl);
        Some(c)
    } else {
        None
    };
    // the compared signals the RTL's own wave holds (those the scope filter keeps)
    let wave_ids: Vec<_> = (ids.iter().zip(&decl.names))
        .filter(|(_, (n, _))| opts.wave_scopes.as_ref().is_none_or(|f| f.keeps(n)))
        .map(|(id, _)| *id)
        .collect();
    let rtl_values = |rtl: &RtlModel| wave_ids.iter().map(|id| rtl.get(*id)).collect::<Vec<_>>();
    let rtl_sample = |w: &mut crate::wave::WaveSink, t: u64, rtl: &RtlModel| {
        w.sample(t, &rtl_values(rtl))
            .map_err(|e| run_err(format!("the RTL's wave: {e}")))
    };

    let mut watch = opts
        .vcd_dir
        .as_ref()
        .and_then(|_| d.view_kind())
        .and_then(|k| super::views::Watch::new(k, &decl.names));
    let mut sampler = Sampler::default();
    let dumped = |c: u64| {
        opts.wave_window
            .is_none_or(|(from, to)| (from..to).contains(&c))
    };
    let result = (|| {
        for c in 0..opts.cycles {
            let dump = dumped(c);
            inputs.set(&mut rtl, &d.input_values()).map_err(run_err)?;
            inputs.clk(&mut rtl, false).map_err(run_err)?;
            rtl.eval();
            if let Some(c) = cov.as_mut() {
                c.sample(&rtl);
            }
            if let Some(w) = wave.as_mut().filter(|_| dump) {
                rtl.trace_dump(period * c);
                w.sample(period * c, false, |v| d.probe(false, v))
                    .map_err(run_err)?;
            }
            if let Some(w) = rtl_wave.as_mut().filter(|_| dump) {
                rtl_sample(w, period * c, &rtl)?;
            }
            d.step();
            if opts.fault_at == Some(c) {
                d.inject_fault();
            }
            inputs.clk(&mut rtl, true).map_err(run_err)?;
            rtl.eval();
            if let Some(c) = cov.as_mut() {
                c.after_edge(&rtl);
            }
            if let Some(w) = wave.as_mut().filter(|_| dump) {
                rtl.trace_dump(period * c + period / 2);
                w.sample(period * c + period / 2, true, |v| d.probe(true, v))
                    .map_err(run_err)?;
            }
            if let Some(w) = rtl_wave.as_mut().filter(|_| dump) {
                rtl_sample(w, period * c + period / 2, &rtl)?;
            }
            sampler.clear();
            sampler.clk = true;
            d.probe(true, &mut sampler);
            if let Some(w) = watch.as_mut() {
                w.see(c, &sampler.values, dump);
            }
            for (k, id) in ids.iter().enumerate() {
                let want = sampler.values[k];
                let got = rtl.get(*id);
                if want != got {
                    return Err(CosimError::Mismatch(Mismatch {
                        cycle: c,
                        signal: decl.names[k].0.clone(),
                        model: hex(want),
                        rtl: hex(got),
                    }));
                }
            }
            if rtl.got_error() {
                return Err(run_err(format!("cycle {c}: an RTL assertion failed")));
            }
            d.check()
                .map_err(|e| run_err(format!("cycle {c}: the test bench's check failed: {e}")))?;
            d.between_cycles();
            if d.reset_now() {
                inputs.set(&mut rtl, &d.input_values()).map_err(run_err)?;
                inputs
                    .reset_seen(&mut rtl, |r| {
                        if let Some(c) = cov.as_mut() {
                            c.sample(r);
                        }
                    })
                    .map_err(run_err)?;
                if let Some(c) = cov.as_mut() {
                    c.after_reset();
                }
            }
            let deposits = d.deposits();
            if !deposits.is_empty() {
                for (name, v) in &deposits {
                    let id = rtl.find(name).ok_or_else(|| {
                        run_err(format!(
                            "cycle {c}: a deposit into {name}: the RTL has no such signal"
                        ))
                    })?;
                    rtl.deposit(id, u128::from(*v));
                }
                // (the clock still high, the inputs those of the cycle that ended: only the
                // logic the counters feed changes)
                rtl.eval();
                if let Some(c) = cov.as_mut() {
                    c.rebase(&rtl);
                }
            }
            opts.progress.every(c, PROGRESS_BATCH);
        }
        Ok(())
    })();
    let waves_done = (|| {
        if let Some(w) = rtl_wave.take() {
            w.finish()
                .map_err(|e| run_err(format!("the RTL's wave: {e}")))?;
        }
        if let Some(w) = wave.take() {
            let rtl_done = rtl.trace_finish().map_err(|e| run_err(e.to_string()));
            w.finish().map_err(run_err)?;
            rtl_done?;
        }
        Ok(())
    })();
    // the run's save file, written for a run that failed too (its waves show why)
    let view = match (
        &opts.vcd_dir,
        watch.as_ref().and_then(|w| Some((w.kind(), w.found()?))),
    ) {
        (Some(dir), Some((kind, first))) => {
            let abs = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.clone());
            let ext = opts.wave_format.extension();
            let first_ps = opts.wave_window.map_or(0, |(from, _)| from * period);
            let text = super::views::save_file(
                kind,
                first,
                &abs,
                &abs.join(format!("rtl.{ext}")),
                first_ps,
                period,
            );
            Some(
                super::views::write(dir, &text)
                    .map(|_| abs.join("view.gtkw").display().to_string())
                    .map_err(run_err),
            )
        }
        _ => None,
    };
    // the run's own error first: a wave that failed during the run (a full disk) names its
    // cause there, and only "failed earlier" when finished
    result?;
    waves_done?;
    let view = view.transpose()?;
    let coverage = cov.map(|c| Box::new(c.data(&rtl)));
    if let (Some(path), Some(c)) = (env_cov, &coverage) {
        c.write(&path).map_err(run_err)?;
    }
    Ok(CosimReport {
        rtl_top: d.top().name(),
        cycles: opts.cycles,
        signals_compared: ids.len(),
        stats: d.stats(),
        vcd,
        view,
        coverage: if opts.coverage { coverage } else { None },
    })
}
