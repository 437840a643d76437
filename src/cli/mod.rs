//! The subcommands behind `command.rs` (the `exanet` command line). Each returns an exit code,
//! or a [`CliError`] whose status is 2 for bad input and 1 for a failed run.

use crate::config::{Config, CreditFlavour, MAX_PAYLOAD_BYTES};
use crate::cosim;
use crate::cosim::lockstep::Simulator;
use crate::measure::{efficiency, latency};
use crate::wave::{diff_files, DiffOptions, WaveFormat};
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
    /// Exit with `code` and say nothing: another MPI rank says why (`rank0_says`).
    pub fn silent(code: u8) -> CliError {
        CliError {
            code,
            message: String::new(),
        }
    }
    pub fn exit_code(&self) -> u8 {
        self.code
    }
}

/// Bad input every process an MPI launcher started finds alike: said once, by rank 0; the
/// others exit 2 silently, a moment later: Open MPI's `mpirun` stops the job when a process
/// exits with an error, and rank 0 must have said why by then.
pub fn rank0_says(m: impl Into<String>) -> CliError {
    match crate::net::dist::launcher_rank() {
        Some(r) if r != 0 => {
            std::thread::sleep(std::time::Duration::from_secs(2));
            CliError::silent(2)
        }
        _ => CliError::input(m),
    }
}

/// Refuses a command that runs in one process when an MPI launcher started several
/// (`spreads`: the command shares its work among them: `network run`, decision 0027).
pub fn in_one_process(spreads: bool) -> Result<(), CliError> {
    match crate::net::dist::launcher_world_size() {
        Some(n) if n > 1 && !spreads => Err(rank0_says(format!(
            "started as one of {n} MPI processes: this command runs in one process; of the \
             commands only `exanet network run`, `exanet network sweep` and `exanet bench \
             network --case` share their work among MPI ranks (docs/network.md)"
        ))),
        _ => Ok(()),
    }
}

/// Whether a command that shares its work among MPI ranks runs over MPI: `Ok(true)` when a
/// launcher started this process (`world`, its count) and the binary has MPI (`with_mpi`, the
/// feature `mpi`); `Ok(false)` when it runs as one process: no launcher, or a launcher of one
/// process and no MPI; an error for a launcher of more than one process and no MPI, where each
/// process would run the whole of it alone.
pub fn over_mpi(world: Option<u32>, with_mpi: bool) -> Result<bool, String> {
    match world {
        None => Ok(false),
        Some(_) if with_mpi => Ok(true),
        Some(n) if n > 1 => Err(format!(
            "started as one of {n} MPI processes, but this exanet was built without the \
             feature mpi: each would run the whole network alone. Build it with \
             `cargo build --release --features mpi` (docs/network.md, \"On a cluster\")"
        )),
        Some(_) => Ok(false),
    }
}

/// [`over_mpi`] for this process: its launcher's count and this binary's feature; the error
/// said by rank 0 alone.
pub fn this_process_over_mpi() -> Result<bool, CliError> {
    over_mpi(
        crate::net::dist::launcher_world_size(),
        cfg!(feature = "mpi"),
    )
    .map_err(rank0_says)
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

pub mod app;
pub mod bench_ab;
pub mod command;
pub mod coverage;
pub mod embed;
pub mod karma;
pub mod model;
pub mod netfaults;
#[cfg(feature = "mpi")]
pub mod netmpi;
pub mod netrun;
pub mod netsat;
pub mod netsweep;
pub mod network;
pub mod output;
pub mod sweep_parts;

pub use output::{check_out, json_out, write_csv};

pub(crate) type R = Result<ExitCode, CliError>;

/// The `--set section.key=value` assignments of this process's command line, applied by
/// every [`load_config`] on top of the file (or the defaults). Set once by `main` before the
/// subcommand runs: they are the command line's, like the program name.
static OVERRIDES: std::sync::Mutex<Vec<crate::config_set::Assignment>> =
    std::sync::Mutex::new(Vec::new());

/// Records the command line's `--set` assignments (see [`load_config`]).
pub fn set_overrides(sets: &[crate::config_set::Assignment]) {
    *OVERRIDES.lock().unwrap_or_else(|p| p.into_inner()) = sets.to_vec();
}

/// The command line's `--set` assignments (see [`set_overrides`]), for a command that starts
/// this program again and must hand them on (`exanet bench network`'s children).
pub fn overrides() -> Vec<crate::config_set::Assignment> {
    OVERRIDES.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

/// The bench case named `name` (`--case`), or an error listing the cases.
pub(crate) fn find_case<'a, C>(
    cases: &'a [C],
    name: &str,
    name_of: impl Fn(&C) -> &str,
) -> Result<&'a C, CliError> {
    cases.iter().find(|c| name_of(c) == name).ok_or_else(|| {
        let names: Vec<&str> = cases.iter().map(&name_of).collect();
        CliError::input(format!(
            "--case {name}: unknown; the cases are {}",
            names.join(", ")
        ))
    })
}

/// Runs a bench case's child process (`cmd`, this program again) and returns what it printed;
/// a child that cannot start or fails is an error naming the case.
pub(crate) fn bench_child(
    cmd: &mut std::process::Command,
    case: &str,
) -> Result<Vec<u8>, CliError> {
    let out = cmd
        .output()
        .map_err(|e| CliError::failed(format!("case {case}: cannot start: {e}")))?;
    if !out.status.success() {
        return Err(CliError::failed(format!(
            "case {case} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(out.stdout)
}

/// Refuses a bit error rate for a run that has no link (the router alone): the rate would be
/// silently ignored.
fn no_links(cfg: &Config, what: &str) -> Result<(), CliError> {
    if cfg.link.phy.ber > 0.0 {
        return Err(CliError::input(format!(
            "link.phy.ber = {}: {what} has no link for bit errors to hit; set it to 0",
            cfg.link.phy.ber
        )));
    }
    Ok(())
}

/// The configuration of a run: the file (or the configuration the calling program gave,
/// `embed::base_config`, or the defaults) with the command line's `--set` assignments
/// applied, validated exactly as a file is, and recorded as the run's effective configuration
/// for the JSON `run` object (a command that changes it afterwards records it again with
/// [`output::record_config`]).
pub fn load_config(path: Option<&Path>) -> Result<Config, CliError> {
    let base = match path {
        Some(p) => Config::from_file_unvalidated(p)?,
        None => embed::base_config().unwrap_or_default(),
    };
    let sets = OVERRIDES.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let cfg = crate::config_set::apply(&base, &sets)?;
    cfg.validate()?;
    output::record_config(&cfg);
    Ok(cfg)
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

pub fn link_latency(config: Option<&Path>, json: bool, csv: Option<&Path>) -> R {
    let cfg = load_config(config)?;
    check_out("--csv", csv, "csv")?;
    let r = latency::measure(&cfg).map_err(|e| {
        if cfg.link.phy.ber > 0.0 {
            // each stage is recognised by the header's exact words, which a bit error changes
            CliError::input(format!(
                "link.phy.ber = {:e}: the bit errors hit the timed header ({e}); link latency \
                 times a lone packet, give a rate that leaves it intact or 0 (bit errors are \
                 measured by karma pingpong --ber, cosim --ber and network run)",
                cfg.link.phy.ber
            ))
        } else {
            CliError::failed(e)
        }
    })?;
    if let Some(p) = csv {
        write_csv(p, std::slice::from_ref(&r))?;
    }
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
    csv: Option<&Path>,
    credit: Option<CreditFlavour>,
    payloads: &[String],
) -> R {
    let mut cfg = load_config(config)?;
    if let Some(c) = credit {
        cfg.link.credit.flavour = c;
    }
    cfg.validate()?;
    output::record_config(&cfg);
    check_out("--csv", csv, "csv")?;
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
    if let Some(p) = csv {
        write_csv(p, &rows)?;
    }
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

pub fn link_bandwidth(config: Option<&Path>, json: bool, csv: Option<&Path>, payload: &str) -> R {
    let cfg = load_config(config)?;
    check_out("--csv", csv, "csv")?;
    let p = parse_payload("--payload", payload)?;
    let r = efficiency::bandwidth(&cfg, p).map_err(CliError::failed)?;
    if let Some(p) = csv {
        write_csv(p, std::slice::from_ref(&r))?;
    }
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

/// The main job until the KARMA test bed lands: hop latency, the efficiency table, a VCD (or
/// FST) of a few packets, at `vcd` or `waves/out/demo.<vcd|fst>`.
pub fn demo(config: Option<&Path>, json: bool, vcd: Option<&Path>, format: WaveFormat) -> R {
    let default = std::path::PathBuf::from(format!("waves/out/demo.{}", format.extension()));
    match vcd {
        Some(p) => output::check_out("--vcd", Some(p), format.extension())?,
        // the project's own folder for waves (git-ignored): made on a fresh clone
        None => std::fs::create_dir_all("waves/out")
            .map_err(|e| CliError::input(format!("waves/out: cannot create: {e}")))?,
    }
    let vcd = vcd.unwrap_or(&default);
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
    let packets =
        crate::link::demo::write_demo_wave(&cfg, vcd, format).map_err(CliError::failed)?;
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
    seed: Option<u64>,
    ber: Option<f64>,
    credit: Option<CreditFlavour>,
    vcd_dir: Option<&Path>,
    (wave_format, from, to, scopes): (WaveFormat, Option<u64>, Option<u64>, &[String]),
    simulator: Simulator,
    shape: Option<&str>,
    app: Option<(crate::app::programs::Example, u64)>,
    coverage: Option<&Path>,
    stimulus: cosim::lockstep::Stimulus,
) -> R {
    let mut cfg = load_config(config)?;
    if app.is_some() && design != "network" {
        return Err(CliError::input(
            "--app: only the network co-simulation (--design network) runs a program",
        ));
    }
    if let Some(name) = shape {
        if design == "network" {
            return Err(CliError::input(
                "--shape: a network's nodes have its topology's shape; give the network with \
                 --set net.topology (the Verilated ones: torus:4x4, torus:4x2x2, mesh:2x2)",
            ));
        }
        if design == "link" {
            return Err(CliError::input(
                "--shape: the link has one structure; give it with --design router or node",
            ));
        }
        cfg = cosim::shapes::apply(&cfg, cosim::shapes::by_name(name).map_err(CliError::input)?);
    }
    if let Some(b) = ber {
        cfg.link.phy.ber = b;
    }
    if let Some(c) = credit {
        cfg.link.credit.flavour = c;
    }
    if let Some(s) = seed {
        cfg.sim.seed = s;
    }
    cfg.validate()?;
    output::record_config(&cfg);
    if !["link", "router", "node", "network"].contains(&design) {
        return Err(CliError::input(format!(
            "--design: unknown design '{design}' (available: link, router, node, network)"
        )));
    }
    let max = cosim::lockstep::MAX_CYCLES;
    if cycles == 0 || cycles > max {
        return Err(CliError::input(format!(
            "--cycles: {cycles}: must be between 1 and {max}"
        )));
    }
    if design == "router" {
        no_links(&cfg, "the router co-simulation (--ber or link.phy.ber)")?;
    }
    if design == "network" {
        if cfg.link.phy.ber > 0.0 || !cfg.net.link_ber.is_empty() {
            return Err(CliError::input(
                "--ber, link.phy.ber, net.link_ber: the Verilated networks' lanes are error-free \
                 (bit errors are co-simulated by --design link and node)",
            ));
        }
        if !cfg.net.faults.0.is_empty() || cfg.net.random_faults.is_some() {
            return Err(CliError::input(
                "net.faults, net.random_faults: the Verilated networks have no fault injection",
            ));
        }
        if simulator == Simulator::Icarus {
            return Err(CliError::input(
                "--simulator icarus: the network co-simulation runs under Verilator only",
            ));
        }
    }
    if simulator == Simulator::Icarus && vcd_dir.is_some() {
        return Err(CliError::input(
            "--vcd-dir: the Icarus Verilog co-simulation writes no waves (use --simulator \
             verilator for model.vcd and rtl.vcd)",
        ));
    }
    output::check_out_dir("--vcd-dir", vcd_dir)?;
    let wave_window = wave_window(from, to, cycles)?;
    let wave_scopes = match scopes {
        [] => None,
        s => Some(
            crate::wave::ScopeFilter::new(s)
                .map_err(|e| CliError::input(format!("--scope: {e}")))?,
        ),
    };
    // the cycles whose waves are written
    let wave_cycles = wave_window.map_or(cycles, |(f, t)| t - f);
    if let Some(path) = coverage {
        if simulator == Simulator::Icarus {
            return Err(CliError::input(
                "--coverage: measured on the Verilated RTL only (use --simulator verilator)",
            ));
        }
        check_out("--coverage", Some(path), "json")?;
    }
    let run_design = |opts: &cosim::lockstep::Options| match design {
        "network" => match app {
            None => cosim::net_design::run_network(&cfg, opts),
            Some((example, bytes)) => cosim::net_design::run_app(&cfg, example, bytes, opts),
        },
        "router" => cosim::router_design::run_router(&cfg, opts, simulator),
        "node" => cosim::node_design::run_node(&cfg, opts, simulator),
        _ => cosim::link_design::run_link(&cfg, opts, simulator),
    };
    if let Some(dir) = vcd_dir {
        if wave_cycles > 2 * WAVE_PILOT_CYCLES {
            // the waves' size per cycle, measured on the run's own first cycles
            let pilot = |format: WaveFormat| -> Option<u64> {
                let tmp = dir.join(".exanet-size-pilot");
                let o = cosim::lockstep::Options {
                    cycles: WAVE_PILOT_CYCLES,
                    vcd_dir: Some(tmp.clone()),
                    wave_format: format,
                    wave_window: None,
                    wave_scopes: wave_scopes.clone(),
                    fault_at: None,
                    period_ps: cfg.clock().period_ps(),
                    progress: crate::progress::Progress::hidden(),
                    stimulus,
                    coverage: false,
                };
                let ok = run_design(&o).is_ok();
                let bytes: u64 = ["model", "rtl"]
                    .iter()
                    .filter_map(|n| {
                        std::fs::metadata(tmp.join(format!("{n}.{}", format.extension()))).ok()
                    })
                    .map(|m| m.len())
                    .sum();
                let _ = std::fs::remove_dir_all(&tmp);
                ok.then(|| bytes.div_ceil(WAVE_PILOT_CYCLES))
            };
            if let Some(per) = pilot(wave_format) {
                let fst = if wave_format == WaveFormat::Vcd
                    && wave_cycles.saturating_mul(per) > WAVE_WARN_BYTES
                {
                    pilot(WaveFormat::Fst)
                } else {
                    None
                };
                if let Some(w) = wave_size_warning(design, wave_cycles, wave_format, per, fst, dir)
                {
                    eprintln!("{w}");
                }
            }
        }
    }
    let opts = cosim::lockstep::Options {
        cycles,
        vcd_dir: vcd_dir.map(|p| p.to_path_buf()),
        wave_format,
        wave_window,
        wave_scopes,
        fault_at: None,
        period_ps: cfg.clock().period_ps(),
        progress: crate::progress::Progress::new(cycles, format!("cosim {design}")),
        stimulus,
        coverage: coverage.is_some(),
    };
    let result = run_design(&opts);
    opts.progress.finish();
    match result {
        Ok(rep) => {
            if let (Some(path), Some(c)) = (coverage, &rep.coverage) {
                c.write(path).map_err(CliError::failed)?;
            }
            if json {
                return json_out(&rep);
            }
            match simulator {
                Simulator::Verilator => println!("{} cycles identical", rep.cycles),
                Simulator::Icarus => {
                    println!("{} cycles identical (Icarus Verilog)", rep.cycles)
                }
            }
            println!("  {}", rep.summary());
            if let Some(v) = &rep.view {
                println!("  GTKWave save file on the run's first packet: {v}");
            }
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

/// Cycles of the pilot co-simulation that measures the waves' bytes per cycle before a long
/// run with waves (the run's own design, configuration and seed; its files are removed). Its
/// files carry the header and every signal's initial value, so the estimate errs high (12.5
/// GB for 500,000 link cycles whose VCD takes about 9 GB).
pub const WAVE_PILOT_CYCLES: u64 = 4000;

/// Estimated waves above which `cosim` warns before it starts.
pub const WAVE_WARN_BYTES: u64 = 2_000_000_000;

/// The warning `cosim --vcd-dir` prints before a run whose waves would exceed
/// [`WAVE_WARN_BYTES`]: the estimate and how to write less.
/// `per` and `fst_per`: bytes a cycle of both files, measured by a pilot run in the run's
/// format and (when it is VCD) in FST.
/// `--from` and `--to` of `cosim`: the cycles `[from, to)` whose waves are written, within
/// the run's `cycles` (None: all of them).
pub fn wave_window(
    from: Option<u64>,
    to: Option<u64>,
    cycles: u64,
) -> Result<Option<(u64, u64)>, CliError> {
    if from.is_none() && to.is_none() {
        return Ok(None);
    }
    let (f, t) = (from.unwrap_or(0), to.unwrap_or(cycles));
    if t > cycles {
        return Err(CliError::input(format!(
            "--to {t}: past the run's end (--cycles {cycles})"
        )));
    }
    if f >= t {
        return Err(CliError::input(format!(
            "--from {f} --to {t}: an empty window of cycles (--from must be below --to)"
        )));
    }
    Ok(Some((f, t)))
}

pub fn wave_size_warning(
    design: &str,
    cycles: u64,
    format: WaveFormat,
    per: u64,
    fst_per: Option<u64>,
    dir: &Path,
) -> Option<String> {
    let total = cycles.saturating_mul(per);
    if total <= WAVE_WARN_BYTES {
        return None;
    }
    let gb = |b: u64| b as f64 / 1e9;
    let ext = format.extension();
    let mut w = format!(
        "warning: the waves of this run will take about {:.1} GB in {} ({cycles} cycles x about {} bytes a cycle for model.{ext} and rtl.{ext} of the {design}, measured on its first {WAVE_PILOT_CYCLES} cycles); to write less, write a window of cycles with --from and --to, or run fewer --cycles (the first difference of a failing run is usually early)",
        gb(total),
        dir.display(),
        per
    );
    if format == WaveFormat::Vcd {
        match fst_per {
            Some(f) => w.push_str(&format!(
                " or write --wave-format fst (about {:.1} GB)",
                gb(cycles.saturating_mul(f))
            )),
            None => w.push_str(" or write --wave-format fst"),
        }
    }
    Some(w)
}

pub fn router_latency(config: Option<&Path>, json: bool, csv: Option<&Path>) -> R {
    let cfg = load_config(config)?;
    no_links(&cfg, "router latency (an idle router's four paths)")?;
    check_out("--csv", csv, "csv")?;
    crate::measure::router::check_paths(&cfg).map_err(CliError::input)?;
    let paths = crate::measure::router::PATHS
        .iter()
        .map(|&p| crate::measure::router::path_latency(&cfg, p))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliError::failed)?;
    if let Some(p) = csv {
        write_csv(p, &paths)?;
    }
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
    csv: Option<&Path>,
    payloads: &[String],
    intra_ports: Option<&str>,
) -> R {
    let cfg = load_config(config)?;
    no_links(
        &cfg,
        "router bandwidth (one node's self-test between its intra-tile ports)",
    )?;
    check_out("--csv", csv, "csv")?;
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
    if let Some(p) = csv {
        write_csv(p, &rows)?;
    }
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

pub fn router_cdg(
    config: Option<&Path>,
    json: bool,
    topology: &crate::spec::TopologySpec,
    no_vc_rule: bool,
) -> R {
    let _ = load_config(config)?;
    let shape = crate::router::cdg::admit(topology)
        .map_err(|e| CliError::input(format!("--topology: {e}")))?;
    let r = crate::router::cdg::analyse(shape, !no_vc_rule, &topology.to_string())
        .map_err(CliError::failed)?;
    // a cyclic graph is a finding a script must see: exit 1, its cycle printed
    let code = if r.cycle.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    if json {
        json_out(&r)?;
        return Ok(code);
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
            println!(
                "acyclic: the routing function is deadlock-free (Pisani 2016 §2.6.2, Theorem 1)"
            )
        }
        Some(c) => {
            println!("cyclic: a cycle of {} channels:", c.len() - 1);
            for ch in c {
                println!("  {ch}");
            }
        }
    }
    Ok(code)
}

/// Set in the child process `wave_diff` runs an FST comparison in.
const WAVE_DIFF_CHILD: &str = "EXANET_WAVE_DIFF_CHILD";

pub fn wave_diff(a: &Path, b: &Path, strict: bool, verbose: bool) -> R {
    // `fst-reader` trusts the lengths an FST file stores and aborts the process (an
    // allocation of a corrupt length fails) on some corrupt files, which no `catch_unwind`
    // stops. So a comparison that reads an FST runs in a child process of this same binary:
    // its output is passed on as it is, and its death by a signal becomes a clear error
    // (exit 2) instead of a crash. `src/wave/fst.rs` checks the block structure first, which
    // catches truncated files and most corrupt headers without this.
    let fst: Vec<String> = [a, b]
        .into_iter()
        .filter(|p| crate::wave::is_fst_file(p).unwrap_or(false))
        .map(|p| p.display().to_string())
        .collect();
    if !fst.is_empty() && std::env::var_os(WAVE_DIFF_CHILD).is_none() {
        if let Ok(exe) = std::env::current_exe() {
            use std::io::Write;
            let mut cmd = std::process::Command::new(exe);
            cmd.arg("wave-diff").arg(a).arg(b).env(WAVE_DIFF_CHILD, "1");
            if strict {
                cmd.arg("--strict");
            }
            if verbose {
                cmd.arg("--verbose");
            }
            let out = cmd
                .output()
                .map_err(|e| CliError::failed(format!("cannot run the comparison: {e}")))?;
            return match out.status.code() {
                Some(code) => {
                    let _ = std::io::stdout().write_all(&out.stdout);
                    let _ = std::io::stderr().write_all(&out.stderr);
                    Ok(ExitCode::from(u8::try_from(code).unwrap_or(1)))
                }
                None => Err(CliError::input(format!(
                    "{}: corrupt FST file: the FST reader crashed on it",
                    fst.join(" or ")
                ))),
            };
        }
    }
    let rep =
        diff_files(a, b, &DiffOptions { strict }).map_err(|e| CliError::input(e.to_string()))?;
    println!("{}", rep.render(verbose));
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

/// Writes one GTKWave translate filter file per enumerated register (`src/wave/states.rs`)
/// into `out`.
pub fn wave_translate(out: &Path) -> R {
    std::fs::create_dir_all(out)
        .map_err(|e| CliError::input(format!("--out: {}: {e}", out.display())))?;
    for t in crate::wave::states::TABLES {
        let p = out.join(format!("{}.txt", t.name));
        std::fs::write(&p, t.translate_file())
            .map_err(|e| CliError::input(format!("--out: {}: {e}", p.display())))?;
        println!("{}", p.display());
    }
    Ok(ExitCode::SUCCESS)
}

pub fn config(print: bool, path: Option<&Path>) -> R {
    if !print {
        return Err(CliError::input(
            "config: nothing to do (use --print to write the defaults)",
        ));
    }
    let cfg = load_config(path)?;
    print!("{}", crate::config_doc::annotated_toml(&cfg));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_launcher_of_several_processes_needs_mpi_and_one_without_it_runs_alone() {
        // no launcher: one process, MPI or not
        assert_eq!(over_mpi(None, true), Ok(false));
        assert_eq!(over_mpi(None, false), Ok(false));
        // a launcher: over MPI when there is one (a wrong mpirun is `Mpi::init`'s to find)
        assert_eq!(over_mpi(Some(1), true), Ok(true));
        assert_eq!(over_mpi(Some(4), true), Ok(true));
        // without MPI: one process runs alone; several would each run the whole network
        assert_eq!(over_mpi(Some(1), false), Ok(false));
        let e = over_mpi(Some(3), false).unwrap_err();
        assert!(
            e.starts_with("started as one of 3 MPI processes, but this exanet was built without the feature mpi"),
            "{e}"
        );
        assert!(e.contains("--features mpi"), "{e}");
    }

    #[test]
    fn the_size_warning_gives_the_estimate_and_the_ways_to_write_less() {
        let dir = Path::new("waves/out/run");
        // 500,000 cycles at 18,100 bytes a cycle of VCD, 2,000 of FST
        let w =
            wave_size_warning("link", 500_000, WaveFormat::Vcd, 18_100, Some(2_000), dir).unwrap();
        assert!(
            w.starts_with("warning: the waves of this run will take about 9.1 GB in waves/out/run"),
            "{w}"
        );
        assert!(
            w.contains("fewer --cycles") && w.contains("--wave-format fst (about 1.0 GB)"),
            "{w}"
        );
        // Below the threshold: nothing.
        assert_eq!(
            wave_size_warning("link", 100_000, WaveFormat::Vcd, 18_100, None, dir),
            None
        );
        // FST itself warns on a long enough run, without suggesting FST
        let w = wave_size_warning("node", 1_000_000, WaveFormat::Fst, 4_600, None, dir).unwrap();
        assert!(w.contains("4.6 GB") && !w.contains("--wave-format"), "{w}");
        // The threshold is where the estimate crosses it.
        let per = 5_900;
        let edge = WAVE_WARN_BYTES / per;
        assert_eq!(
            wave_size_warning("router", edge, WaveFormat::Vcd, per, None, dir),
            None
        );
        assert!(wave_size_warning("router", edge + 1, WaveFormat::Vcd, per, None, dir).is_some());
    }
}
