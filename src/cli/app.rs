//! `exanet app run` and `exanet app dpsnn` (docs/applications.md): SPMD programs on the network
//! of `[net]`, their ranks placed by a mapping.

use super::output::{check_out, write_csv};
use super::{json_out, load_config, CliError, R};
use crate::app::mapping::Mapping;
use crate::app::programs::{Example, Params};
use crate::app::run::{run as run_app, Report, RunError};
use crate::config::Config;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

/// A run's row: what ran where, what the run measured, what the program measured.
#[derive(Debug, Serialize)]
pub struct AppRow {
    pub program: String,
    pub topology: String,
    pub routing: String,
    pub mapping: String,
    #[serde(flatten)]
    pub report: Report,
    /// The program's own figures (round trips, iteration times), cycles unless named otherwise.
    pub figures: BTreeMap<String, f64>,
}

/// `--topology`/`--routing` go into the configuration; a `--set` of the same field is refused
/// (an option never silently replaces it).
pub fn apply_net_options(
    cfg: &mut Config,
    topology: Option<&str>,
    routing: Option<&str>,
) -> Result<(), CliError> {
    let sets = super::overrides();
    for (opt, field, v) in [
        ("--topology", "net.topology", topology),
        ("--routing", "net.routing", routing),
    ] {
        let Some(v) = v else { continue };
        if sets.iter().any(|a| a.key == field) {
            return Err(CliError::input(format!(
                "{opt} and --set {field} both given; give one"
            )));
        }
        match field {
            "net.topology" => cfg.net.topology = v.to_string(),
            _ => cfg.net.routing = v.to_string(),
        }
    }
    super::output::record_config(cfg);
    Ok(())
}

/// The endpoints of `cfg`'s topology (an error naming it when it does not parse).
pub fn endpoints(cfg: &Config) -> Result<usize, CliError> {
    let p = crate::net::setup::plan(cfg).map_err(CliError::input)?;
    Ok(p.topo.endpoints())
}

/// The exit of a run that did not finish: bad input 2, deadlock or time-out 1.
pub fn run_error(e: RunError) -> CliError {
    match e {
        RunError::Input(m) => CliError::input(m),
        e => CliError::failed(e.to_string()),
    }
}

pub struct RunArgs<'a> {
    pub config: Option<&'a Path>,
    pub json: bool,
    pub csv: Option<&'a Path>,
    pub example: Example,
    pub topology: Option<&'a str>,
    pub routing: Option<&'a str>,
    pub ranks: Option<u32>,
    pub mapping: &'a str,
    pub bytes: u64,
    pub iterations: u32,
}

pub fn run(a: &RunArgs) -> R {
    let mut cfg = load_config(a.config)?;
    check_out("--csv", a.csv, "csv")?;
    apply_net_options(&mut cfg, a.topology, a.routing)?;
    let endpoints = endpoints(&cfg)?;
    if a.iterations == 0 {
        return Err(CliError::input("--iterations 0: give at least 1"));
    }
    let (prog, figures, min) = a.example.program(Params {
        bytes: a.bytes,
        iterations: a.iterations,
    });
    let default_ranks = match a.example {
        Example::Pingpong => 2,
        Example::Ring => 4,
        _ => endpoints as u32,
    };
    let ranks = a.ranks.unwrap_or(default_ranks);
    if ranks < min {
        return Err(CliError::input(format!(
            "--ranks {ranks}: {} needs at least {min}",
            example_name(a.example)
        )));
    }
    let mapping = Mapping::parse(a.mapping, cfg.sim.seed).map_err(CliError::input)?;
    let placement = mapping
        .place(ranks as usize, endpoints)
        .map_err(CliError::input)?;
    let progress = crate::progress::Progress::new(cfg.app.max_cycles, "app run (cycles)");
    let report = run_app(&cfg, placement, prog, &progress).map_err(run_error)?;
    progress.finish();
    let row = AppRow {
        program: example_name(a.example),
        topology: cfg.net.topology.clone(),
        routing: cfg.net.routing.clone(),
        mapping: a.mapping.to_string(),
        report,
        figures: figures.all(),
    };
    if let Some(p) = a.csv {
        write_csv(p, std::slice::from_ref(&row))?;
    }
    if a.json {
        return json_out(&row);
    }
    print_row(&cfg, &row);
    Ok(ExitCode::SUCCESS)
}

fn print_row(cfg: &Config, row: &AppRow) {
    let r = &row.report;
    let clock = cfg.clock();
    println!(
        "{} on {} {} ({} ranks, mapping {})",
        row.program, row.topology, row.routing, r.ranks, row.mapping
    );
    println!(
        "  run time             {} cycles ({:.3} us)",
        r.cycles, r.time_us
    );
    println!(
        "  messages             {} sent, {} received, {} bytes sent, {} unreceived",
        r.messages_sent, r.messages_received, r.bytes_sent, r.messages_unreceived
    );
    println!(
        "  packets              {} through the network, latency mean {:.1} cycles, max {}",
        r.packets, r.packet_latency_mean_cycles, r.packet_latency_max_cycles
    );
    for (k, v) in &row.figures {
        if let Some(name) = k.strip_suffix("_cycles") {
            println!("  {:<20} {:.1} cycles ({:.3} us)", name, v, clock.us(*v));
        } else {
            println!("  {k:<20} {v}");
        }
    }
}

fn example_name(e: Example) -> String {
    clap::ValueEnum::to_possible_value(&e)
        .expect("no example is skipped")
        .get_name()
        .to_string()
}
