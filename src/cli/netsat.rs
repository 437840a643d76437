//! `network sweep --saturation`: each curve's saturation throughput, found by bisection on the
//! offered load (issue 32 §1; docs/network.md, "Saturation throughput"), as BookSim users find
//! it by hand: the highest load whose point keeps up (`Summary::saturated` false, decision 0048)
//! and the accepted load there.
//!
//! Loads are multiples of `--resolution` (default 0.01) in (0, 1]. The search runs every seed at
//! 1 first; a curve that keeps up there has its throughput at 1. Otherwise it halves the
//! interval between the highest load known to keep up (0 to begin with) and the lowest known to
//! saturate, until they are one resolution step apart. A load is saturated when more than half
//! its runs are (a tie counts as saturated: the search never claims more than the runs show).
//! The answer carries its confidence: the bracket (the load below saturates in no majority of
//! runs, the load above in a majority), every load tried with its saturated runs, and the
//! accepted load at the load below as a mean and its 95 % interval over the seeds. Every
//! curve's probe of a step runs at once (`--jobs`), so the output does not depend on the jobs.

use super::netrun::{label, run_one, set_up_curves, CurveSetup, PointRow, SweepArgs};
use super::netsweep::{parse_seeds, run_pool};
use super::output::{json_out, record_seeds, write_csv};
use super::{CliError, R};
use crate::net::confidence::MeanCi;
use serde::Serialize;
use serde_json::{Map, Value};
use std::process::ExitCode;

/// The resolution when `--resolution` is not given.
pub const DEFAULT_RESOLUTION: f64 = 0.01;

/// One load tried.
#[derive(Debug, Clone, Serialize)]
pub struct Probe {
    pub offered_load: f64,
    pub runs: usize,
    pub saturated_runs: usize,
    /// A majority of the runs saturated.
    pub saturated: bool,
    pub accepted_load: MeanCi,
}

/// One curve's answer.
#[derive(Debug, Serialize)]
pub struct Saturation {
    pub topology: String,
    pub routing: String,
    pub routing_rtl_twin: bool,
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub vary: Map<String, Value>,
    /// The highest load tried that kept up (None: even one resolution step saturated).
    pub load_below: Option<f64>,
    /// The lowest load tried that saturated (None: the network kept up at 1).
    pub load_above: Option<f64>,
    /// The accepted load at `load_below`, over the seeds: the saturation throughput.
    pub throughput: Option<MeanCi>,
    /// Every load tried, in the order tried.
    pub probes: Vec<Probe>,
}

/// The bisection of one curve, on load steps of the resolution.
struct Search {
    /// Steps: the highest known to keep up (0: none tried yet), the lowest known to saturate.
    lo: u32,
    hi: u32,
    /// Whether the top step (1) has been tried, and whether it saturated.
    top: Option<bool>,
    probes: Vec<(u32, Probe, Vec<PointRow>)>,
}

impl Search {
    fn new(steps: u32) -> Search {
        Search {
            lo: 0,
            hi: steps,
            top: None,
            probes: Vec::new(),
        }
    }

    /// The next step to try, None when done.
    fn next(&self) -> Option<u32> {
        match self.top {
            None => Some(self.hi),
            Some(true) if self.hi - self.lo > 1 => Some((self.lo + self.hi) / 2),
            _ => None,
        }
    }

    /// Step `step` saturated or kept up.
    fn outcome(&mut self, step: u32, saturated: bool) {
        if self.top.is_none() {
            self.top = Some(saturated);
        }
        if saturated {
            self.hi = step;
        } else {
            self.lo = step;
        }
    }

    /// Step `step`'s runs at `load`.
    fn record(&mut self, step: u32, rows: Vec<PointRow>, load: f64) {
        let saturated_runs = rows.iter().filter(|r| r.summary.saturated).count();
        let saturated = 2 * saturated_runs >= rows.len();
        let acc: Vec<f64> = rows.iter().map(|r| r.summary.accepted_load).collect();
        let p = Probe {
            offered_load: load,
            runs: rows.len(),
            saturated_runs,
            saturated,
            accepted_load: MeanCi::of(&acc),
        };
        self.outcome(step, saturated);
        self.probes.push((step, p, rows));
    }
}

/// Checks the options the search cannot take with it.
fn check_options(a: &SweepArgs, resolution: f64) -> Result<u32, CliError> {
    for (given, what) in [
        (a.loads.is_some(), "--loads"),
        (a.plot.is_some(), "--plot"),
        (a.packets.is_some(), "--packets"),
        (
            a.vary
                .iter()
                .any(|v| v.trim_start().starts_with("net.load=")),
            "--vary net.load",
        ),
    ] {
        if given {
            return Err(CliError::input(format!(
                "--saturation chooses the loads itself: {what} cannot go with it"
            )));
        }
    }
    if !(resolution > 0.0 && resolution <= 0.5) {
        return Err(CliError::input(format!(
            "--resolution {resolution}: must be above 0 and at most 0.5"
        )));
    }
    let steps = (1.0 / resolution).round();
    if ((1.0 / resolution) - steps).abs() > 1e-9 * steps {
        return Err(CliError::input(format!(
            "--resolution {resolution}: must divide 1 into whole steps (0.01, 0.02, 0.05, ...)"
        )));
    }
    Ok(steps as u32)
}

/// `network sweep --saturation [--resolution R]`.
pub fn search(a: &SweepArgs, resolution: f64, jobs: usize, seeds: Vec<u64>) -> R {
    let steps = check_options(a, resolution)?;
    let base = super::netrun::sweep_base(a)?;
    let (varies, _) = super::netrun::read_varies(a)?;
    let setups: Vec<CurveSetup> = set_up_curves(&base, a, &varies)?;
    record_seeds(&seeds);
    let ns = seeds.len();
    let load_of = |k: u32| crate::cli::output::round_sig(k as f64 * resolution, 12);
    let mut searches: Vec<Search> = setups.iter().map(|_| Search::new(steps)).collect();
    let bar = crate::progress::Progress::new(0, "network sweep --saturation (runs)");
    loop {
        // this step of every curve still searching, all seeds at once
        let todo: Vec<(usize, u32)> = searches
            .iter()
            .enumerate()
            .filter_map(|(c, s)| s.next().map(|k| (c, k)))
            .collect();
        if todo.is_empty() {
            break;
        }
        let n = todo.len() * ns;
        bar.inc_length(n as u64);
        let work = |i: usize| {
            let (c, k) = todo[i / ns];
            let point = searches[c].probes.len();
            run_one(&setups[c], (c, point), load_of(k), seeds[i % ns], None)
        };
        let mut done = |i: usize, _: &Result<PointRow, CliError>| {
            if bar.is_shown() {
                let (c, k) = todo[i / ns];
                let x = &setups[c];
                bar.set_message(format!(
                    "{}, load {:.3}, seed {}",
                    label(&x.topology, &x.routing, &x.vary),
                    load_of(k),
                    seeds[i % ns]
                ));
            }
            bar.inc(1);
        };
        let rows = run_pool(n, jobs, &work, &mut done)?;
        let mut rows = rows.into_iter();
        for &(c, k) in &todo {
            searches[c].record(k, rows.by_ref().take(ns).collect(), load_of(k));
        }
    }
    bar.finish();
    let out: Vec<Saturation> = setups
        .iter()
        .zip(&searches)
        .map(|(x, s)| {
            let at = |k: u32| s.probes.iter().find(|(j, _, _)| *j == k).map(|(_, p, _)| p);
            let below = (s.lo > 0).then_some(s.lo);
            let above = at(s.hi).filter(|p| p.saturated).map(|_| s.hi);
            Saturation {
                topology: x.topology.clone(),
                routing: x.routing.clone(),
                routing_rtl_twin: x.cfg.net.routing.rtl_twin(),
                vary: x.vary.clone(),
                load_below: below.map(load_of),
                load_above: above.map(load_of),
                throughput: below.and_then(at).map(|p| p.accepted_load),
                probes: s.probes.iter().map(|(_, p, _)| p.clone()).collect(),
            }
        })
        .collect();
    if let Some(path) = a.csv {
        let all: Vec<&PointRow> = searches
            .iter()
            .flat_map(|s| s.probes.iter().flat_map(|(_, _, r)| r))
            .collect();
        write_csv(path, &all)?;
    }
    if a.json {
        #[derive(Serialize)]
        struct Out<'a> {
            resolution: f64,
            saturation: &'a [Saturation],
        }
        return json_out(&Out {
            resolution,
            saturation: &out,
        });
    }
    print_search(&out, resolution, ns);
    Ok(ExitCode::SUCCESS)
}

fn print_search(out: &[Saturation], resolution: f64, seeds: usize) {
    for (i, s) in out.iter().enumerate() {
        if i > 0 {
            println!();
        }
        println!(
            "{}: saturation throughput by bisection on the load (resolution {resolution}, \
             {seeds} seed{})",
            label(&s.topology, &s.routing, &s.vary),
            if seeds == 1 { "" } else { "s" }
        );
        let ci = |m: &MeanCi| match m.ci95 {
            Some(h) => format!("{:.4} ± {h:.4}", m.mean),
            None => format!("{:.4}", m.mean),
        };
        match (&s.throughput, s.load_below, s.load_above) {
            (Some(t), Some(b), Some(a)) => println!(
                "  throughput {} (accepted at offered {b}, which keeps up; offered {a} saturates)",
                ci(t)
            ),
            (Some(t), Some(b), None) => {
                println!(
                    "  throughput {} at offered {b}: it keeps up at every load",
                    ci(t)
                )
            }
            _ => println!(
                "  saturated at every load tried, down to offered {}",
                s.load_above.unwrap_or(resolution)
            ),
        }
        println!("  {:>7} {:>21} {:>9}", "offered", "accepted", "saturated");
        println!("  {:>7} {:>21} {:>9}", "(load)", "(load)", "(runs)");
        let mut probes: Vec<&Probe> = s.probes.iter().collect();
        probes.sort_by(|x, y| x.offered_load.total_cmp(&y.offered_load));
        for p in probes {
            println!(
                "  {:>7.3} {:>21} {:>9}",
                p.offered_load,
                ci(&p.accepted_load),
                format!("{}/{}", p.saturated_runs, p.runs)
            );
        }
    }
}

/// The seeds of a sweep or a search: `--seeds`, `--seed`, or the configuration's.
pub fn seeds_of(a: &SweepArgs, default: u64) -> Result<Vec<u64>, CliError> {
    match (a.seeds, a.seed) {
        (Some(_), Some(_)) => Err(CliError::input(
            "--seed and --seeds both give the seed: give one of them",
        )),
        (Some(s), None) => parse_seeds(s),
        (None, Some(s)) => Ok(vec![s]),
        (None, None) => Ok(vec![default]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Saturation from step `first` of 100 on: the steps tried and the bracket.
    fn bisect(first: u32) -> (Vec<u32>, u32, u32) {
        let mut s = Search::new(100);
        let mut tried = Vec::new();
        while let Some(k) = s.next() {
            tried.push(k);
            s.outcome(k, k >= first);
        }
        (tried, s.lo, s.hi)
    }

    #[test]
    fn the_bisection_brackets_the_first_saturated_step() {
        assert_eq!(bisect(37), (vec![100, 50, 25, 37, 31, 34, 35, 36], 36, 37));
        // keeps up everywhere: one run, at 1
        assert_eq!(bisect(101), (vec![100], 100, 100));
        // saturates everywhere: down to the first step
        let (tried, lo, hi) = bisect(0);
        assert_eq!((lo, hi), (0, 1));
        assert_eq!(tried.last(), Some(&1));
    }
}
