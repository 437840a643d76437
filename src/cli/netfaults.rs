//! `exanet network faults`: accepted traffic and latency against the number of failed links
//! (issue 14 §4; docs/validation.md, "Network with failed links"). For each count K of
//! `--links`, each seed of `--seeds` runs the configuration's network with K links drawn from
//! the seed failing at `--at` (`net.random_faults = links=K,from=AT,to=AT+1`), for good; the
//! points are the means over the seeds with their 95 % intervals. Every run is independent, so
//! they run on `--jobs` threads and the output does not depend on the count.

use super::netsweep::{check_jobs, parse_seeds, run_pool};
use super::output::{check_out, check_plot_out, write_csv};
use super::{json_out, load_config, CliError, R};
use crate::net::confidence::MeanCi;
use crate::net::setup::{plan, run_logged};
use crate::net::stats::Summary;
use crate::plot::{write_plot, Axis, Figure, Panel, Scale, Series};
use crate::spec::RandomFaults;
use serde::Serialize;
use std::path::Path;

pub struct FaultsArgs<'a> {
    pub config: Option<&'a Path>,
    pub json: bool,
    /// Counts of failed links: `0,1,2,4,8`.
    pub links: &'a str,
    pub seeds: &'a str,
    /// The cycle the links fail at.
    pub at: u64,
    pub jobs: usize,
    pub plot: Option<&'a Path>,
    /// The points as CSV.
    pub csv: Option<&'a Path>,
}

/// One count of failed links over the seeds.
#[derive(Debug, Clone, Serialize)]
pub struct FaultPoint {
    pub failed_links: usize,
    pub runs: usize,
    /// Runs that delivered every window packet before the drain ended.
    pub stable_runs: usize,
    pub accepted_load: MeanCi,
    pub latency_mean_cycles: MeanCi,
    /// Summed over the runs: packets dropped for want of a live hop or a reachable
    /// destination, lost on failed links, ports marked down; runs whose faults split the
    /// network.
    pub dropped: u64,
    pub lost_on_failed_links: i64,
    pub ports_marked_down: u64,
    pub split_runs: usize,
}

#[derive(Debug, Serialize)]
struct Report {
    topology: String,
    routing: String,
    /// The APErouter's RTL routes as `routing` does when no port is down (the fault manager
    /// and the drops around down ports are model-only in any case).
    routing_rtl_twin: bool,
    offered_load: f64,
    fail_at_cycle: u64,
    seeds: Vec<u64>,
    points: Vec<FaultPoint>,
}

fn parse_links(s: &str) -> Result<Vec<usize>, CliError> {
    let mut v: Vec<usize> = Vec::new();
    for item in s.split(',') {
        let k: usize = item.trim().parse().map_err(|_| {
            CliError::input(format!(
                "--links {s}: '{}' is not a count of links",
                item.trim()
            ))
        })?;
        if v.contains(&k) {
            return Err(CliError::input(format!("--links {s}: {k} is given twice")));
        }
        v.push(k);
    }
    Ok(v)
}

pub fn faults(a: &FaultsArgs) -> R {
    let mut base = load_config(a.config)?;
    if !base.net.faults.0.is_empty() || base.net.random_faults.is_some() {
        return Err(CliError::input(
            "net.faults, net.random_faults: `network faults` plants its own (--links); leave \
             them empty",
        ));
    }
    check_plot_out("--plot", a.plot)?;
    check_out("--csv", a.csv, "csv")?;
    super::output::record_routings(&[base.net.routing]);
    if a.at > crate::net::bench::MAX_CYCLES * 1000 {
        return Err(CliError::input(format!(
            "--at {}: give a cycle of at most {}",
            a.at,
            crate::net::bench::MAX_CYCLES * 1000
        )));
    }
    let links = parse_links(a.links)?;
    let seeds = parse_seeds(a.seeds)?;
    let jobs = check_jobs(a.jobs)?;
    if jobs > 1 && base.net.threads == 0 {
        base.net.threads = 1;
    }
    let runs: Vec<(usize, u64)> = links
        .iter()
        .flat_map(|&k| seeds.iter().map(move |&s| (k, s)))
        .collect();
    let config = |i: usize| -> Result<crate::config::Config, CliError> {
        let (k, seed) = runs[i];
        let mut cfg = base.clone();
        cfg.sim.seed = seed;
        cfg.net.random_faults = (k > 0).then_some(RandomFaults {
            links: k,
            nodes: 0,
            from: a.at,
            to: a.at + 1,
            duration: None,
        });
        cfg.validate()?;
        Ok(cfg)
    };
    // every run's faults planned before any is simulated: a count that splits the network
    // (which the routing cannot route) is refused at once, naming every seed it splits for
    let mut refused = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        if let Err(e) = plan(&config(i)?) {
            refused.push((*run, e));
        }
    }
    if let Some(((k, _), e)) = refused.first() {
        let which: Vec<String> = refused
            .iter()
            .map(|((k, s), _)| format!("{k} links with seed {s}"))
            .collect();
        return Err(CliError::input(format!(
            "--links {}: {} of the {} runs cannot run ({}); the first, {k} failed links: {e}. \
             Or give fewer links (--links)",
            a.links,
            refused.len(),
            runs.len(),
            which.join(", ")
        )));
    }
    let work = |i: usize| -> Result<Summary, CliError> {
        let (k, _) = runs[i];
        let cfg = config(i)?;
        let p = plan(&cfg).map_err(|e| CliError::input(format!("{k} failed links: {e}")))?;
        let (s, _) = run_logged(
            &cfg,
            &p,
            cfg.net.load,
            None,
            &crate::progress::Progress::hidden(),
        )
        .map_err(CliError::input)?;
        Ok(s)
    };
    let bar = crate::progress::Progress::new(runs.len() as u64, "network faults (runs)");
    let mut done = |_: usize, _: &Result<Summary, CliError>| bar.inc(1);
    let sums = run_pool(runs.len(), jobs, &work, &mut done)?;
    bar.finish();
    let points: Vec<FaultPoint> = links
        .iter()
        .enumerate()
        .map(|(i, &k)| {
            let s = &sums[i * seeds.len()..(i + 1) * seeds.len()];
            let of = |f: &dyn Fn(&Summary) -> f64| MeanCi::of(&s.iter().map(f).collect::<Vec<_>>());
            FaultPoint {
                failed_links: k,
                runs: s.len(),
                stable_runs: s.iter().filter(|x| x.stable).count(),
                accepted_load: of(&|x| x.accepted_load),
                latency_mean_cycles: of(&|x| x.latency_mean_cycles),
                dropped: s.iter().map(|x| x.accounting.dropped).sum(),
                lost_on_failed_links: s.iter().map(|x| x.accounting.lost_on_failed_links).sum(),
                ports_marked_down: s
                    .iter()
                    .filter_map(|x| x.faults.as_ref())
                    .map(|f| f.ports_marked_down)
                    .sum(),
                split_runs: s
                    .iter()
                    .filter(|x| x.faults.as_ref().is_some_and(|f| !f.splits.is_empty()))
                    .count(),
            }
        })
        .collect();
    let r = Report {
        topology: base.net.topology.to_string(),
        routing: base.net.routing.to_string(),
        routing_rtl_twin: base.net.routing.rtl_twin(),
        offered_load: base.net.load,
        fail_at_cycle: a.at,
        seeds,
        points,
    };
    if let Some(path) = a.plot {
        write_plot(path, &figure(&r)).map_err(|e| CliError::failed(format!("--plot: {e}")))?;
    }
    if let Some(path) = a.csv {
        write_csv(path, &r.points)?;
    }
    if a.json {
        return json_out(&r);
    }
    println!(
        "{} {}{} at load {}, links failing at cycle {}, seeds {:?}",
        r.topology,
        r.routing,
        super::netrun::model_only_mark(r.routing_rtl_twin),
        r.offered_load,
        r.fail_at_cycle,
        r.seeds
    );
    println!(
        "  failed links   accepted (± 95 %)      latency cycles (± 95 %)   stable   dropped   lost on failed links   ports down   split"
    );
    let ci = |m: &MeanCi| m.ci95.map_or("-".to_string(), |c| format!("{c:.5}"));
    for p in &r.points {
        println!(
            "  {:>12}   {:.5} ± {:<9}   {:>9.1} ± {:<9}   {:>3}/{:<3} {:>8}   {:>20}   {:>10}   {:>5}",
            p.failed_links,
            p.accepted_load.mean,
            ci(&p.accepted_load),
            p.latency_mean_cycles.mean,
            p.latency_mean_cycles
                .ci95
                .map_or("-".to_string(), |c| format!("{c:.1}")),
            p.stable_runs,
            p.runs,
            p.dropped,
            p.lost_on_failed_links,
            p.ports_marked_down,
            p.split_runs
        );
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// Accepted traffic and latency against the failed links: the means, and the means ± the 95 %
/// interval.
fn figure(r: &Report) -> Figure {
    let x = || Axis::new("failed links", Scale::Linear);
    let series = |f: &dyn Fn(&FaultPoint) -> &MeanCi| {
        let m = |d: f64| {
            r.points
                .iter()
                .map(|p| {
                    let v = f(p);
                    (p.failed_links as f64, v.mean + d * v.ci95.unwrap_or(0.0))
                })
                .collect::<Vec<_>>()
        };
        vec![
            Series::new("mean over the seeds", m(0.0)),
            Series::new("mean + 95 % interval", m(1.0)),
            Series::new("mean - 95 % interval", m(-1.0)),
        ]
    };
    Figure::new(
        format!(
            "{} {}{} at load {}, {} seeds",
            r.topology,
            r.routing,
            super::netrun::model_only_mark(r.routing_rtl_twin),
            r.offered_load,
            r.seeds.len()
        ),
        vec![
            Panel::new(
                "accepted traffic",
                x(),
                Axis::new("accepted load (fraction)", Scale::Linear),
                series(&|p| &p.accepted_load),
            ),
            Panel::new(
                "mean latency",
                x(),
                Axis::new("latency (cycles)", Scale::Linear),
                series(&|p| &p.latency_mean_cycles),
            ),
        ],
    )
}
