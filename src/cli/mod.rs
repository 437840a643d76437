//! The subcommands behind `src/main.rs`. Each returns an exit code, or a [`CliError`] whose
//! status is 2 for bad input and 1 for a failed run.

use crate::config::{Config, CreditFlavour, MAX_PAYLOAD_BYTES};
use crate::cosim;
use crate::measure::{efficiency, latency};
use crate::wave::{diff_files, DiffOptions};
use std::fmt;
use std::path::Path;
use std::process::ExitCode;

/// A command failure: `code` 2 for bad input, 1 for a run that failed.
#[derive(Debug)]
pub struct CliError {
    pub code: u8,
    pub message: String,
}

impl CliError {
    pub fn input(m: impl Into<String>) -> CliError {
        CliError {
            code: 2,
            message: m.into(),
        }
    }
    pub fn failed(m: impl Into<String>) -> CliError {
        CliError {
            code: 1,
            message: m.into(),
        }
    }
    pub fn exit_code(&self) -> u8 {
        self.code
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<crate::config::ConfigError> for CliError {
    fn from(e: crate::config::ConfigError) -> Self {
        CliError::input(e.to_string())
    }
}

pub mod karma;
pub mod netrun;
pub mod network;

pub(crate) type R = Result<ExitCode, CliError>;

/// The configuration of a run: the file, or the defaults, validated.
pub fn load_config(path: Option<&Path>) -> Result<Config, CliError> {
    let cfg = match path {
        Some(p) => Config::from_file(p)?,
        None => Config::default(),
    };
    cfg.validate()?;
    Ok(cfg)
}

fn parse_flavour(s: &str) -> Result<CreditFlavour, CliError> {
    s.parse::<CreditFlavour>()
        .map_err(|e| CliError::input(format!("--credit: {e}")))
}

/// A payload size from the command line: 1..=4096 bytes.
pub fn parse_payload(opt: &str, s: &str) -> Result<u32, CliError> {
    let v: u32 = s
        .trim()
        .parse()
        .map_err(|_| CliError::input(format!("{opt}: '{s}' is not a number of bytes")))?;
    if v == 0 || v > MAX_PAYLOAD_BYTES {
        return Err(CliError::input(format!(
            "{opt}: {v} bytes: a payload must be between 1 and {MAX_PAYLOAD_BYTES} bytes (the APElink maximum)"
        )));
    }
    Ok(v)
}

pub(crate) fn json_out<T: serde::Serialize>(v: &T) -> R {
    println!(
        "{}",
        serde_json::to_string_pretty(v).map_err(|e| CliError::failed(e.to_string()))?
    );
    Ok(ExitCode::SUCCESS)
}

fn print_latency(r: &latency::LatencyReport) {
    println!("APElink hop latency (header into the sender's TX FIFO -> header into the receiver's RX FIFO)");
    println!("  FIFO (L_F)        {:>3} cycles", r.fifo_cycles);
    println!(
        "  TCL TX + RX       {:>3} cycles  ({} TX + {} RX)",
        r.tcl_cycles, r.tcl_tx_cycles, r.tcl_rx_cycles
    );
    println!("  PHY (L_W)         {:>3} cycles", r.phy_cycles);
    println!(
        "  total (L_L)       {:>3} cycles  = {:.1} ns",
        r.total_cycles, r.total_ns
    );
    println!(
        "  over the {} phases of the credit period: {}..{} cycles; RX FIFO not empty after {} cycles",
        r.phases, r.min_total_cycles, r.max_total_cycles, r.rx_fifo_not_empty_cycles
    );
}

pub fn link_latency(config: Option<&Path>, json: bool) -> R {
    let cfg = load_config(config)?;
    let r = latency::measure(&cfg).map_err(CliError::failed)?;
    if json {
        return json_out(&r);
    }
    print_latency(&r);
    Ok(ExitCode::SUCCESS)
}

fn print_efficiency(rows: &[efficiency::EfficiencyRow]) {
    println!("APElink efficiency under saturating traffic (payload beats / all beats on the wire)");
    println!(
        "{:>8}  {:<10}  {:>9}  {:>8}  {:>7}  {:>6}  {:>6}",
        "payload", "credit", "simulated", "formula", "thesis", "n", "k"
    );
    for r in rows {
        let thesis = r
            .thesis
            .map(|t| format!("{t:.2}"))
            .unwrap_or_else(|| "-".into());
        println!(
            "{:>7}B  {:<10}  {:>9.4}  {:>8.4}  {:>7}  {:>6.3}  {:>6.3}",
            r.payload_bytes, r.credit, r.simulated, r.formula, thesis, r.n, r.k
        );
    }
}

pub fn link_efficiency(
    config: Option<&Path>,
    json: bool,
    credit: Option<&str>,
    payloads: &[String],
) -> R {
    let mut cfg = load_config(config)?;
    if let Some(c) = credit {
        cfg.link.credit.flavour = parse_flavour(c)?;
    }
    cfg.validate()?;
    let sizes = payloads
        .iter()
        .map(|s| parse_payload("--payload", s))
        .collect::<Result<Vec<_>, _>>()?;
    let progress = crate::progress::Progress::new(sizes.len() as u64, "link efficiency");
    let mut rows = Vec::new();
    for s in sizes {
        progress.set_message(format!("{s} B"));
        rows.push(efficiency::efficiency(&cfg, s).map_err(CliError::failed)?);
        progress.inc(1);
    }
    progress.finish();
    if json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            rows: &'a [efficiency::EfficiencyRow],
        }
        return json_out(&Out { rows: &rows });
    }
    print_efficiency(&rows);
    Ok(ExitCode::SUCCESS)
}

pub fn link_bandwidth(config: Option<&Path>, json: bool, payload: &str) -> R {
    let cfg = load_config(config)?;
    let p = parse_payload("--payload", payload)?;
    let r = efficiency::bandwidth(&cfg, p).map_err(CliError::failed)?;
    if json {
        return json_out(&r);
    }
    println!(
        "APElink bandwidth at {} B payload: {:.3} Gb/s delivered = {:.1} % of {:.2} Gb/s (gearbox pause {}, clock compensation {})",
        r.payload_bytes,
        r.gbps,
        100.0 * r.efficiency,
        r.line_gbps,
        if r.gearbox_pause { "on" } else { "off" },
        if r.clock_compensation { "on" } else { "off" }
    );
    Ok(ExitCode::SUCCESS)
}

/// The main job until the KARMA test bed lands: hop latency, the efficiency table, a VCD.
pub fn demo(config: Option<&Path>, json: bool, vcd: &Path) -> R {
    let cfg = load_config(config)?;
    let lat = latency::measure(&cfg).map_err(CliError::failed)?;
    let mut rows = Vec::new();
    for flavour in [CreditFlavour::StartStop, CreditFlavour::Usedword] {
        let mut c = cfg.clone();
        c.link.credit.flavour = flavour;
        for s in [16, 64, 256, 512, 1024, 4096] {
            rows.push(efficiency::efficiency(&c, s).map_err(CliError::failed)?);
        }
    }
    let packets = crate::link::demo::write_demo_vcd(&cfg, vcd).map_err(CliError::failed)?;
    if json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            latency: &'a latency::LatencyReport,
            efficiency: &'a [efficiency::EfficiencyRow],
            vcd: String,
            vcd_packets: u64,
        }
        return json_out(&Out {
            latency: &lat,
            efficiency: &rows,
            vcd: vcd.display().to_string(),
            vcd_packets: packets,
        });
    }
    print_latency(&lat);
    println!();
    print_efficiency(&rows);
    println!();
    println!(
        "waves of {packets} packets crossing the link: {} (open with gtkwave)",
        vcd.display()
    );
    Ok(ExitCode::SUCCESS)
}

#[allow(clippy::too_many_arguments)]
pub fn cosim(
    config: Option<&Path>,
    json: bool,
    design: &str,
    cycles: u64,
    seed: u64,
    ber: Option<f64>,
    credit: Option<&str>,
    vcd_dir: Option<&Path>,
) -> R {
    let mut cfg = load_config(config)?;
    if let Some(b) = ber {
        cfg.link.phy.ber = b;
    }
    if let Some(c) = credit {
        cfg.link.credit.flavour = parse_flavour(c)?;
    }
    cfg.sim.seed = seed;
    cfg.validate()?;
    if !["link", "router", "node"].contains(&design) {
        return Err(CliError::input(format!(
            "--design: unknown design '{design}' (available: link, router, node)"
        )));
    }
    let max = cosim::lockstep::MAX_CYCLES;
    if cycles == 0 || cycles > max {
        return Err(CliError::input(format!(
            "--cycles: {cycles}: must be between 1 and {max}"
        )));
    }
    let opts = cosim::lockstep::Options {
        cycles,
        vcd_dir: vcd_dir.map(|p| p.to_path_buf()),
        fault_at: None,
        period_ps: cfg.clock().period_ps(),
        progress: crate::progress::Progress::new(cycles, format!("cosim {design}")),
    };
    let result = match design {
        "router" => cosim::router_design::run_router(&cfg, &opts),
        "node" => cosim::node_design::run_node(&cfg, &opts),
        _ => cosim::link_design::run_link(&cfg, &opts),
    };
    opts.progress.finish();
    match result {
        Ok(rep) => {
            if json {
                return json_out(&rep);
            }
            println!("{} cycles identical", rep.cycles);
            println!("  {}", rep.summary());
            Ok(ExitCode::SUCCESS)
        }
        Err(cosim::lockstep::CosimError::Setup(m)) => Err(CliError::input(m)),
        Err(cosim::lockstep::CosimError::Run(m)) => Err(CliError::failed(m)),
        Err(cosim::lockstep::CosimError::Mismatch(m)) => {
            if json {
                json_out(&m)?;
            } else {
                eprintln!("{m}");
            }
            Ok(ExitCode::from(1))
        }
    }
}

pub fn router_latency(config: Option<&Path>, json: bool) -> R {
    let cfg = load_config(config)?;
    crate::measure::router::check_paths(&cfg).map_err(CliError::input)?;
    let paths = crate::measure::router::PATHS
        .iter()
        .map(|&p| crate::measure::router::path_latency(&cfg, p))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliError::failed)?;
    if json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            paths: &'a [crate::measure::router::PathLatency],
        }
        return json_out(&Out { paths: &paths });
    }
    println!("APErouter latency (header into the input FIFO -> header into the output FIFO)");
    for p in &paths {
        println!(
            "  {:<13} {:>3} cycles = {:>5.1} ns   (slot {} -> slot {})",
            format!("{:?}", p.path).to_lowercase(),
            p.cycles,
            p.ns,
            p.from_slot,
            p.to_slot
        );
    }
    Ok(ExitCode::SUCCESS)
}

pub fn router_bandwidth(
    config: Option<&Path>,
    json: bool,
    payloads: &[String],
    intra_ports: Option<&str>,
) -> R {
    let cfg = load_config(config)?;
    let sizes = payloads
        .iter()
        .map(|s| parse_payload("--payload", s))
        .collect::<Result<Vec<_>, _>>()?;
    let senders: Vec<u32> = match intra_ports {
        None => vec![1, 2],
        Some("1") => vec![1],
        Some("2") => vec![2],
        Some(x) => {
            return Err(CliError::input(format!(
                "--intra-ports: '{x}': 1 or 2 sending intra-tile ports"
            )))
        }
    };
    if cfg.router.intra_ports < senders.iter().max().copied().unwrap_or(1) + 1 {
        return Err(CliError::input(format!(
            "--intra-ports: the router has {} intra-tile ports; the self-test needs one more than the senders",
            cfg.router.intra_ports
        )));
    }
    let progress =
        crate::progress::Progress::new((senders.len() * sizes.len()) as u64, "router bandwidth");
    let mut rows = Vec::new();
    for &n in &senders {
        for &s in &sizes {
            progress.set_message(format!("{n} sender(s), {s} B"));
            rows.push(
                crate::measure::router::selftest_bandwidth(&cfg, s, n).map_err(CliError::failed)?,
            );
            progress.inc(1);
        }
    }
    progress.finish();
    if json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            rows: &'a [crate::measure::router::BandwidthRow],
        }
        return json_out(&Out { rows: &rows });
    }
    println!(
        "APErouter self-test bandwidth to one intra-tile port (128 bit x {} MHz = {:.1} Gb/s)",
        cfg.clock.freq_mhz,
        cfg.clock().bus_bps(128) / 1e9
    );
    println!(
        "{:>8}  {:>7}  {:>8}  {:>8}  {:>10}  {:>8}",
        "payload", "senders", "packets", "cycles", "efficiency", "Gb/s"
    );
    for r in &rows {
        println!(
            "{:>7}B  {:>7}  {:>8}  {:>8}  {:>9.1}%  {:>8.2}",
            r.payload_bytes,
            r.intra_ports,
            r.packets,
            r.cycles,
            100.0 * r.efficiency,
            r.gbps
        );
    }
    Ok(ExitCode::SUCCESS)
}

pub fn router_cdg(config: Option<&Path>, json: bool, topology: &str, no_vc_rule: bool) -> R {
    let _ = load_config(config)?;
    let lattice: crate::router::cdg::Lattice = topology
        .parse()
        .map_err(|e: String| CliError::input(format!("--topology: {e}")))?;
    let r =
        crate::router::cdg::analyse(&lattice, !no_vc_rule, topology).map_err(CliError::failed)?;
    if json {
        return json_out(&r);
    }
    println!(
        "{} ({} nodes), {} VC rule: {} channels used, {} dependencies",
        r.topology,
        r.nodes,
        if r.vc_rule { "with the" } else { "without the" },
        r.channels,
        r.dependencies
    );
    match &r.cycle {
        None => {
            println!("acyclic: the routing function is deadlock-free (seed 000 §2.6.2, Theorem 1)")
        }
        Some(c) => {
            println!("cyclic: a cycle of {} channels:", c.len() - 1);
            for ch in c {
                println!("  {ch}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn wave_diff(a: &Path, b: &Path, strict: bool) -> R {
    let rep =
        diff_files(a, b, &DiffOptions { strict }).map_err(|e| CliError::input(e.to_string()))?;
    print!("{rep}");
    Ok(if rep.identical(strict) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Serve annotations to GTKWave: one value per line in, one line of text out, flushed.
pub fn wave_filter(kind: &str) -> R {
    use std::io::{BufRead, Write};
    let kind: crate::packet::annotate::Annotate = kind.parse().map_err(CliError::input)?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| CliError::failed(format!("stdin: {e}")))?;
        let text = crate::packet::annotate::filter_line(kind, &line);
        if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
            break; // the viewer closed the pipe
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn config(print: bool) -> R {
    if !print {
        return Err(CliError::input(
            "config: nothing to do (use --print to write the defaults)",
        ));
    }
    print!("{}", Config::default().to_toml());
    Ok(ExitCode::SUCCESS)
}

pub fn bench(config: Option<&Path>, json: bool, cycles: u64, design: &str) -> R {
    use cosim::{bench, bench_node};
    let cfg = load_config(config)?;
    let (checked, total) = match design {
        "node" => (
            bench_node::check_node(&cfg, cycles),
            bench_node::node_total_cycles(cycles),
        ),
        _ => (
            bench::check_link(&cfg, cycles),
            bench::link_total_cycles(cycles),
        ),
    };
    checked.map_err(CliError::input)?;
    let progress = crate::progress::Progress::new(total, format!("bench {design}"));
    let r = match design {
        "node" => bench_node::bench_node(&cfg, cycles, &progress),
        _ => bench::bench_link(&cfg, cycles, &progress),
    }
    .map_err(CliError::failed)?;
    progress.finish();
    if json {
        return json_out(&r);
    }
    println!("{r}");
    Ok(ExitCode::SUCCESS)
}
