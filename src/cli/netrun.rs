//! `exanet network sweep` and `exanet network run` (docs/network.md, docs/cli.md).

use super::{json_out, load_config, CliError, R};
use crate::config::Config;
use crate::net::setup::{plan, run as run_point};
use crate::net::stats::Summary;
use crate::net::traffic::parse_loads;
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

/// One curve of a sweep: a topology and routing pair over the loads.
#[derive(Debug, Serialize)]
pub struct Curve {
    pub topology: String,
    pub routing: String,
    pub points: Vec<Summary>,
}

pub struct SweepArgs<'a> {
    pub config: Option<&'a Path>,
    pub json: bool,
    pub topologies: &'a [String],
    pub routings: &'a [String],
    pub loads: &'a str,
    pub size: Option<&'a str>,
    pub pattern: Option<&'a str>,
    pub seed: Option<u64>,
    pub csv: Option<&'a Path>,
    pub plot: Option<&'a Path>,
}

fn check_out(opt: &str, p: Option<&Path>, ext: &str) -> Result<(), CliError> {
    let Some(p) = p else { return Ok(()) };
    if p.extension().and_then(|e| e.to_str()) != Some(ext) {
        return Err(CliError::input(format!(
            "{opt}: {}: give a file name ending in .{ext}",
            p.display()
        )));
    }
    if let Some(d) = p
        .parent()
        .filter(|d| !d.as_os_str().is_empty() && !d.is_dir())
    {
        return Err(CliError::input(format!(
            "{opt}: {}: the directory {} does not exist",
            p.display(),
            d.display()
        )));
    }
    Ok(())
}

/// The configuration of curve (`topology`, `routing`).
fn curve_config(
    base: &Config,
    a: &SweepArgs,
    topology: &str,
    routing: &str,
) -> Result<Config, CliError> {
    let mut c = base.clone();
    c.net.topology = topology.to_string();
    c.net.routing = routing.to_string();
    if let Some(s) = a.size {
        c.net.sizes = s.to_string();
    }
    if let Some(p) = a.pattern {
        c.net.pattern = p.to_string();
    }
    if let Some(s) = a.seed {
        c.sim.seed = s;
    }
    c.validate()?;
    Ok(c)
}

pub fn sweep(a: &SweepArgs) -> R {
    let base = load_config(a.config)?;
    let loads = parse_loads(a.loads).map_err(|e| CliError::input(format!("--loads: {e}")))?;
    check_out("--csv", a.csv, "csv")?;
    check_out("--plot", a.plot, "svg")?;
    let topologies: Vec<String> = if a.topologies.is_empty() {
        vec![base.net.topology.clone()]
    } else {
        a.topologies.to_vec()
    };
    let routings: Vec<String> = if a.routings.is_empty() {
        vec![base.net.routing.clone()]
    } else {
        a.routings.to_vec()
    };
    // pairs by position; a single value goes with every one of the other list
    let n = topologies.len().max(routings.len());
    if !(topologies.len() == n || topologies.len() == 1)
        || !(routings.len() == n || routings.len() == 1)
    {
        return Err(CliError::input(format!(
            "--topology given {} times and --routing {} times: give them the same number of \
             times (pairs), or one of them once",
            topologies.len(),
            routings.len()
        )));
    }
    let pick = |v: &[String], i: usize| v[if v.len() == 1 { 0 } else { i }].clone();
    let mut cfgs = Vec::new();
    for i in 0..n {
        let (t, r) = (pick(&topologies, i), pick(&routings, i));
        let c = curve_config(&base, a, &t, &r)?;
        if crate::net::setup::parse_injection(&c.net.injection).map_err(CliError::input)?
            != crate::net::setup::Injection::Bernoulli
        {
            return Err(CliError::input(
                "a sweep varies the Bernoulli injection's load: set net.injection = \"bernoulli\"",
            ));
        }
        let p = plan(&c).map_err(CliError::input)?;
        cfgs.push((t, r, c, p));
    }
    let total = n * loads.len();
    let tty = std::io::stderr().is_terminal();
    let mut done = 0;
    let mut curves = Vec::new();
    for (t, r, c, p) in &cfgs {
        let mut points = Vec::new();
        for &load in &loads {
            if tty {
                progress(done, total, &format!("{t} {r}, load {load:.3}"));
            }
            points.push(run_point(c, p, load).map_err(CliError::input)?);
            done += 1;
        }
        curves.push(Curve {
            topology: t.clone(),
            routing: r.clone(),
            points,
        });
    }
    if tty {
        progress(done, total, "done");
        eprintln!();
    }
    if let Some(path) = a.csv {
        write_csv(path, &curves).map_err(CliError::failed)?;
    }
    if let Some(path) = a.plot {
        crate::plot::write_svg(path, &cnf_figure(&curves))
            .map_err(|e| CliError::failed(e.to_string()))?;
    }
    if a.json {
        #[derive(Serialize)]
        struct Out<'a> {
            curves: &'a [Curve],
        }
        return json_out(&Out { curves: &curves });
    }
    for c in &curves {
        println!(
            "{} {} ({} endpoints; load = fraction of {} payload bytes a cycle per endpoint)",
            c.topology,
            c.routing,
            cfgs.iter()
                .find(|x| x.0 == c.topology && x.1 == c.routing)
                .map_or(0, |x| x.3.topo.endpoints()),
            base.net.injection_bytes_per_cycle
        );
        println!(
            "{:>7} {:>8} {:>8} {:>10} {:>9} {:>8} {:>10} {:>9}",
            "offered",
            "injected",
            "accepted",
            "lat mean",
            "lat std",
            "lat p99",
            "delivered",
            "in flight"
        );
        for x in &c.points {
            println!(
                "{:>7.3} {:>8.3} {:>8.3} {:>10.1} {:>9.1} {:>8} {:>10} {:>9}",
                x.offered_load,
                x.injected_load,
                x.accepted_load,
                x.latency_mean_cycles,
                x.latency_std_cycles,
                x.latency_p99_cycles,
                x.packets_delivered,
                x.packets_in_flight
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn progress(done: usize, total: usize, what: &str) {
    let width = 30;
    let fill = (done * width).checked_div(total).unwrap_or(width);
    let bar: String = "=".repeat(fill) + &" ".repeat(width - fill);
    let mut e = std::io::stderr();
    // a closed terminal only loses the bar
    let _ = write!(e, "\r[{bar}] {done}/{total} {what:<40}");
    let _ = e.flush();
}

/// A CSV text field (RFC 4180): quoted when it holds a comma, a quote or a line break (a
/// dragonfly's name, `dragonfly:p=2,a=4,h=2`), its quotes doubled.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn write_csv(path: &Path, curves: &[Curve]) -> Result<(), String> {
    let mut s = String::from(
        "topology,routing,offered_load,injected_load,accepted_load,latency_mean_cycles,\
         latency_std_cycles,latency_p50_cycles,latency_p99_cycles,packets_injected,\
         packets_delivered,packets_in_flight\n",
    );
    for c in curves {
        for x in &c.points {
            s += &format!(
                "{},{},{},{},{},{},{},{},{},{},{},{}\n",
                csv_field(&c.topology),
                csv_field(&c.routing),
                x.offered_load,
                x.injected_load,
                x.accepted_load,
                x.latency_mean_cycles,
                x.latency_std_cycles,
                x.latency_p50_cycles,
                x.latency_p99_cycles,
                x.packets_injected,
                x.packets_delivered,
                x.packets_in_flight
            );
        }
    }
    std::fs::write(path, s).map_err(|e| format!("{}: {e}", path.display()))
}

/// The CNF pair (seed 000 §4.2): accepted traffic and mean latency against offered load, one
/// series per configuration.
pub fn cnf_figure(curves: &[Curve]) -> crate::plot::Figure {
    use crate::plot::{Axis, Figure, Panel, Scale, Series};
    let series = |f: &dyn Fn(&Summary) -> f64| -> Vec<Series> {
        curves
            .iter()
            .map(|c| {
                Series::new(
                    format!("{} {}", c.topology, c.routing),
                    c.points.iter().map(|x| (x.offered_load, f(x))).collect(),
                )
            })
            .collect()
    };
    Figure::new(
        "network: accepted traffic and latency against applied load",
        vec![
            Panel::new(
                "accepted traffic",
                Axis::new("applied load (normalised)", Scale::Linear),
                Axis::new("accepted traffic (normalised)", Scale::Linear),
                series(&|x| x.accepted_load),
            ),
            Panel::new(
                "latency",
                Axis::new("applied load (normalised)", Scale::Linear),
                Axis::new("mean latency (cycles)", Scale::Log10),
                series(&|x| x.latency_mean_cycles.max(1.0)),
            ),
        ],
    )
}

/// `exanet network run --config FILE`: one configuration's statistics.
pub fn run(config: Option<&Path>, json: bool) -> R {
    let cfg = load_config(config)?;
    let p = plan(&cfg).map_err(CliError::input)?;
    let s = run_point(&cfg, &p, cfg.net.load).map_err(CliError::input)?;
    if json {
        return json_out(&s);
    }
    println!(
        "{} {} {} {}, load {} ({} endpoints)",
        cfg.net.topology,
        cfg.net.routing,
        cfg.net.pattern,
        cfg.net.injection,
        cfg.net.load,
        p.topo.endpoints()
    );
    println!("  injected load        {:.4}", s.injected_load);
    println!("  accepted load        {:.4}", s.accepted_load);
    println!(
        "  latency              mean {:.1} cycles ({:.1} ns), std {:.1}, p50 {}, p99 {}, max {}",
        s.latency_mean_cycles,
        s.latency_mean_ns,
        s.latency_std_cycles,
        s.latency_p50_cycles,
        s.latency_p99_cycles,
        s.latency_max_cycles
    );
    println!(
        "  packets              {} injected in the window, {} delivered, {} still in flight",
        s.packets_injected, s.packets_delivered, s.packets_in_flight
    );
    if s.self_addressed > 0 {
        println!(
            "  not sent             {} packets the pattern addressed to their own source",
            s.self_addressed
        );
    }
    if let Some(m) = s.probe_latency_mean_cycles {
        println!(
            "  probe                {} packets, mean latency {m:.1} cycles",
            s.probe_packets
        );
    }
    println!(
        "  errors               {} bad CRC, {} payload, {} order, {} FIFO overflows/underflows",
        s.crc_errors, s.payload_errors, s.order_errors, s.fifo_errors
    );
    println!("  cycles {}, statistics hash {}", s.cycles, s.stats_hash);
    Ok(ExitCode::SUCCESS)
}

/// `exanet bench network`: every case in a child process of its own (`--case`), or one case
/// here.
pub fn bench_network(
    config: Option<&Path>,
    json: bool,
    cycles: Option<u64>,
    case: Option<&str>,
) -> R {
    use crate::net::bench::{run_case, CaseResult, NetBenchReport, CASES};
    let cfg = load_config(config)?;
    if cycles == Some(0) {
        return Err(CliError::input("--cycles: must be at least 1"));
    }
    let with_cycles = |c: &crate::net::bench::Case| crate::net::bench::Case {
        cycles: cycles.unwrap_or(c.cycles),
        ..*c
    };
    if let Some(name) = case {
        let c = CASES.iter().find(|c| c.name == name).ok_or_else(|| {
            let names: Vec<&str> = CASES.iter().map(|c| c.name).collect();
            CliError::input(format!(
                "--case {name}: unknown; the cases are {}",
                names.join(", ")
            ))
        })?;
        let r = run_case(&cfg, &with_cycles(c)).map_err(CliError::input)?;
        if json {
            return json_out(&r);
        }
        print!("{}", NetBenchReport::new(vec![r]));
        return Ok(ExitCode::SUCCESS);
    }
    let exe = std::env::current_exe()
        .map_err(|e| CliError::failed(format!("cannot find this program to rerun it: {e}")))?;
    let mut results: Vec<CaseResult> = Vec::new();
    for c in CASES.iter() {
        let c = with_cycles(c);
        if !json {
            eprintln!(
                "  running {} ({}, load {}, {} + {} cycles)...",
                c.name, c.topology, c.load, c.warmup, c.cycles
            );
        }
        let mut cmd = std::process::Command::new(&exe);
        cmd.args(["bench", "network", "--json", "--case", c.name]);
        cmd.args(["--cycles", &c.cycles.to_string()]);
        if let Some(p) = config {
            cmd.arg("--config").arg(p);
        }
        let out = cmd
            .output()
            .map_err(|e| CliError::failed(format!("case {}: cannot start: {e}", c.name)))?;
        if !out.status.success() {
            return Err(CliError::failed(format!(
                "case {} failed: {}",
                c.name,
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        let r: CaseResult = serde_json::from_slice(&out.stdout)
            .map_err(|e| CliError::failed(format!("case {}: unreadable result: {e}", c.name)))?;
        results.push(r);
    }
    let rep = NetBenchReport::new(results);
    if json {
        return json_out(&rep);
    }
    print!("{rep}");
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::csv_field;

    #[test]
    fn csv_fields_with_commas_or_quotes_are_quoted() {
        assert_eq!(csv_field("torus:10x10"), "torus:10x10");
        assert_eq!(
            csv_field("dragonfly:p=2,a=4,h=2"),
            "\"dragonfly:p=2,a=4,h=2\""
        );
        assert_eq!(csv_field("a\"b"), "\"a\"\"b\"");
    }
}
