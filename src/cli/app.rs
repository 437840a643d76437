//! `exanet app run` and `exanet app dpsnn` (docs/applications.md): SPMD programs on the network
//! of `[net]`, their ranks placed by a mapping.

use super::output::{check_out, check_plot_out, write_csv};
use super::{json_out, load_config, CliError, R};
use crate::app::endpoint::LatencyBin;
use crate::app::mapping::Mapping;
use crate::app::programs::{Example, Params};
use crate::app::record::Timeline;
use crate::app::run::{Report, RunError};
use crate::config::Config;
use crate::net::engine::Network;
use crate::spec::{RoutingSpec, TopologySpec};
use crate::timeline::hol_summary::{summarise, HolSummary};
use crate::timeline::network::{Backlog, NetView, NetViewParams};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

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
    topology: Option<&TopologySpec>,
    routing: Option<RoutingSpec>,
) -> Result<(), CliError> {
    let sets = super::overrides();
    for (opt, field, given) in [
        ("--topology", "net.topology", topology.is_some()),
        ("--routing", "net.routing", routing.is_some()),
    ] {
        if given && sets.iter().any(|a| a.key == field) {
            return Err(CliError::input(format!(
                "{opt} and --set {field} both given; give one"
            )));
        }
    }
    if let Some(t) = topology {
        cfg.net.topology = t.clone();
    }
    if let Some(r) = routing {
        cfg.net.routing = r;
    }
    super::output::record_config(cfg);
    super::output::record_routings(&[cfg.net.routing]);
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

/// The timelines a run writes (`--paraver DIR`, `--perfetto FILE.json`).
#[derive(Debug, Clone, Copy, Default)]
pub struct TimelineArgs<'a> {
    pub paraver: Option<&'a Path>,
    pub perfetto: Option<&'a Path>,
    /// The network view's quantum and backlog side (`--paraver-quantum`, `--paraver-backlog`).
    pub net_view: NetViewParams,
}

impl TimelineArgs<'_> {
    /// The paths given can be written to, as far as can be told before the run.
    fn check(&self) -> Result<(), CliError> {
        check_out("--perfetto", self.perfetto, "json")?;
        self.net_view.validate().map_err(CliError::input)?;
        if let Some(d) = self.paraver {
            if d.as_os_str().is_empty() {
                return Err(CliError::input("--paraver: give a directory"));
            }
            if d.exists() && !d.is_dir() {
                return Err(CliError::input(format!(
                    "--paraver: {}: not a directory",
                    d.display()
                )));
            }
        }
        Ok(())
    }
}

/// Run `program` on `placement` (bins of `latency_bin_cycles`), recording the ranks' timeline
/// and writing it when `tl` asks for one, and with `--paraver` the network view; the report is
/// the same either way. With the view, what it wrote and the HOL summary.
fn run_timed(
    cfg: &Config,
    placement: Vec<usize>,
    program: Arc<dyn crate::app::Program>,
    progress: &crate::progress::Progress,
    latency_bin_cycles: u64,
    tl: &TimelineArgs,
) -> Result<(Report, Vec<LatencyBin>, Option<NetViewOut>), CliError> {
    use crate::app::run;
    if tl.paraver.is_none() && tl.perfetto.is_none() {
        let (r, b) = run::run_with(cfg, placement, program, progress, latency_bin_cycles)
            .map_err(run_error)?;
        return Ok((r, b, None));
    }
    let mut net =
        run::prepare_recorded(cfg, placement, program, latency_bin_cycles).map_err(run_error)?;
    if tl.paraver.is_some() {
        NetView::attach(&mut net, tl.net_view, cfg.clock.freq_mhz).map_err(CliError::input)?;
    }
    let (report, bins) = run::drive(cfg, &mut net, progress).map_err(run_error)?;
    let t = run::timeline(cfg, &net).expect("a recorded run keeps a timeline");
    let view = write_timelines(&mut net, &t, tl)?;
    Ok((report, bins, view))
}

/// Write the timelines `tl` asks for: the ranks' (Paraver into `--paraver DIR`, Perfetto), then
/// the network's into the same DIR ([`network_view`]).
fn write_timelines(
    net: &mut Network,
    t: &Timeline,
    tl: &TimelineArgs,
) -> Result<Option<NetViewOut>, CliError> {
    use crate::timeline::ranks;
    let mut view = None;
    if let Some(d) = tl.paraver {
        ranks::write_paraver(t, d).map_err(|e| CliError::failed(format!("--paraver: {e}")))?;
        view = Some(network_view(net, d).map_err(|e| CliError::failed(format!("--paraver: {e}")))?);
    }
    if let Some(p) = tl.perfetto {
        crate::timeline::perfetto::write(&ranks::perfetto(t), p)
            .map_err(|e| CliError::failed(format!("--perfetto: {e}")))?;
    }
    Ok(view)
}

/// Input buffers the HOL summary lists, most blocked first.
pub const HOL_TOP: usize = 10;

/// What the network view wrote and where the run's head-of-line blocking was.
#[derive(Debug, Clone, Serialize)]
pub struct NetViewOut {
    /// The trace's stem: STEM.prv, STEM.pcf, STEM.row.
    pub files: String,
    pub quantum_words: u32,
    pub backlog: Backlog,
    pub states: usize,
    pub events: usize,
    pub communications: usize,
    pub hol: HolSummary,
}

/// The network's view of the run (Minkenberg and Rodriguez 2008 §4.2: a task an adapter or switch, a thread a port,
/// `timeline/network.rs`), attached before the run by [`run_timed`]: DIR/network.prv, .pcf,
/// .row, and the HOL summary read from its records.
fn network_view(net: &mut Network, dir: &Path) -> Result<NetViewOut, String> {
    let v = NetView::detach(net).ok_or("the network view was not attached")?;
    let t = v.trace(net.cycle);
    let stem = dir.join("network");
    crate::timeline::paraver::write(&t, &stem)?;
    let p = v.params();
    Ok(NetViewOut {
        files: stem.display().to_string(),
        quantum_words: p.quantum_words,
        backlog: p.backlog,
        states: t.states.len(),
        events: t.events.len(),
        communications: t.comms.len(),
        hol: summarise(&t, net.topo.as_ref(), HOL_TOP),
    })
}

/// The network view's lines of a run's table.
fn print_view(v: &NetViewOut) {
    println!(
        "  network view         {}.prv/.pcf/.row: {} states, {} events, {} communications \
         (backlog {}, quantum {} words)",
        v.files,
        v.states,
        v.events,
        v.communications,
        match v.backlog {
            Backlog::Input => "input",
            Backlog::Output => "output",
        },
        v.quantum_words
    );
    let h = &v.hol;
    match (h.first_cycle, h.last_cycle) {
        (Some(f), Some(l)) => println!(
            "  HOL blocking         {} episodes, {} buffer-cycles, in {} routers, cycles {f} to {l}",
            h.episodes, h.cycles, h.routers
        ),
        _ => println!("  HOL blocking         none"),
    }
    for c in &h.by_class {
        println!(
            "    input {:<14} {} buffers, {} episodes, {} cycles",
            c.class, c.buffers, c.episodes, c.cycles
        );
    }
    for c in &h.by_cause {
        println!(
            "    head waits for {:<9} behind could take {:<9} {} episodes, {} cycles",
            c.waits_for, c.could_go, c.episodes, c.cycles
        );
    }
    for p in &h.top {
        println!(
            "    {} VC {}: {} episodes, {} cycles, cycles {} to {}",
            p.port, p.vc, p.episodes, p.cycles, p.first_cycle, p.last_cycle
        );
    }
    if h.credit_stops.is_empty() {
        println!("  credit stops         none");
    }
    for c in &h.credit_stops {
        println!(
            "  credit stops {:<9} {} links (port, VC), {} stops, {} cycles",
            c.class, c.buffers, c.episodes, c.cycles
        );
    }
    for b in &h.backlog {
        let q = v.quantum_words as u64;
        println!(
            "  largest backlog {:<9} state {} ({} to {} words), {} from cycle {}",
            b.class,
            b.state,
            b.state as u64 * q,
            (b.state as u64 + 1) * q - 1,
            b.port,
            b.cycle
        );
    }
}

/// A run's JSON: its row and, with `--paraver`, the network view.
#[derive(Debug, Serialize)]
struct AppRowJson<'a> {
    #[serde(flatten)]
    row: &'a AppRow,
    #[serde(skip_serializing_if = "Option::is_none")]
    network_view: Option<&'a NetViewOut>,
}

pub struct RunArgs<'a> {
    pub config: Option<&'a Path>,
    pub json: bool,
    pub csv: Option<&'a Path>,
    pub example: Example,
    pub topology: Option<&'a TopologySpec>,
    pub routing: Option<RoutingSpec>,
    pub ranks: Option<u32>,
    pub mapping: &'a str,
    pub bytes: u64,
    pub iterations: u32,
    pub timeline: TimelineArgs<'a>,
}

/// Refuses `run` when its ranks and the messages it has in flight at once cannot fit the
/// machine (`footprint.rs`), before anything of it is built.
fn check_footprint(run: &str, ranks: u64, at_once: u64) -> Result<(), CliError> {
    use crate::app::endpoint::{bytes_per_message, bytes_per_rank};
    let mut f = crate::footprint::Footprint::new();
    f.add(format!("{ranks} ranks"), ranks, bytes_per_rank());
    f.add(
        format!("{at_once} messages in flight at once"),
        at_once,
        bytes_per_message(),
    );
    f.check(run).map_err(CliError::input)
}

pub fn run(a: &RunArgs) -> R {
    let mut cfg = load_config(a.config)?;
    check_out("--csv", a.csv, "csv")?;
    a.timeline.check()?;
    apply_net_options(&mut cfg, a.topology, a.routing)?;
    let endpoints = endpoints(&cfg)?;
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
    check_footprint(
        &format!("app run {} on {ranks} ranks", example_name(a.example)),
        ranks as u64,
        a.example.messages_at_once(ranks as u64),
    )?;
    let mapping = Mapping::parse(a.mapping, cfg.sim.seed).map_err(CliError::input)?;
    let placement = mapping
        .place(ranks as usize, endpoints)
        .map_err(CliError::input)?;
    let progress = crate::progress::Progress::new(cfg.app.max_cycles, "app run (cycles)");
    let (report, _, view) = run_timed(&cfg, placement, prog, &progress, 0, &a.timeline)?;
    progress.finish();
    let row = AppRow {
        program: example_name(a.example),
        topology: cfg.net.topology.to_string(),
        routing: cfg.net.routing.to_string(),
        mapping: a.mapping.to_string(),
        report,
        figures: figures.all(),
    };
    if let Some(p) = a.csv {
        write_csv(p, std::slice::from_ref(&row))?;
    }
    if a.json {
        return json_out(&AppRowJson {
            row: &row,
            network_view: view.as_ref(),
        });
    }
    print_row(&cfg, &row);
    if let Some(v) = &view {
        print_view(v);
    }
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

pub struct DpsnnArgs<'a> {
    pub config: Option<&'a Path>,
    pub json: bool,
    pub csv: Option<&'a Path>,
    pub plot: Option<&'a Path>,
    pub trace: Option<&'a Path>,
    pub write_trace: Option<&'a Path>,
    pub columns: Option<&'a str>,
    pub per_process: Option<usize>,
    pub rate_hz: Option<f64>,
    pub iterations: Option<usize>,
    pub topology: Option<&'a TopologySpec>,
    pub routing: Option<RoutingSpec>,
    pub mapping: &'a str,
    pub barrier: &'a str,
    pub calc_ns_per_spike: f64,
    pub latency_bin_cycles: u64,
    pub timeline: TimelineArgs<'a>,
}

/// One rank's profile (the CSV rows): cycles in each DPSNN state, summed over the iterations.
#[derive(Debug, Serialize)]
pub struct RankProfile {
    pub rank: u32,
    pub calc_cycles: u64,
    pub barrier_cycles: u64,
    pub counts_cycles: u64,
    pub spikes_cycles: u64,
    /// The two alltoallv: the spike send/receive time of Pisani 2016 Table 4.3.
    pub send_receive_cycles: u64,
}

/// A state over the ranks: mean and largest, cycles.
#[derive(Debug, Serialize)]
pub struct StateTime {
    pub state: &'static str,
    pub mean_cycles: f64,
    pub max_cycles: u64,
}

/// Packets that arrived in one stretch of time.
#[derive(Debug, Serialize)]
pub struct LatencyPoint {
    pub from_cycle: u64,
    pub packets: u32,
    pub latency_mean_cycles: f64,
    pub latency_max_cycles: u32,
}

#[derive(Debug, Serialize)]
pub struct DpsnnOut {
    pub topology: String,
    pub routing: String,
    pub mapping: String,
    pub barrier: String,
    /// Where the spikes came from: the trace file, or the generator's parameters.
    pub trace: String,
    pub processes: usize,
    pub iterations: usize,
    pub spikes: u64,
    pub calc_ns_per_spike: f64,
    #[serde(flatten)]
    pub report: Report,
    /// Mean over the ranks of the two alltoallv's cycles (Pisani 2016 Table 4.3's send/receive).
    pub send_receive_mean_cycles: f64,
    pub send_receive_mean_us: f64,
    pub states: Vec<StateTime>,
    pub ranks_profile: Vec<RankProfile>,
    pub latency_bin_cycles: u64,
    pub latency: Vec<LatencyPoint>,
    /// With `--paraver`: the network view's files and HOL summary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network_view: Option<NetViewOut>,
}

fn read_input(opt: &str, p: &Path) -> Result<String, CliError> {
    crate::input::read_text_bounded(p, crate::input::MAX_TRACE_BYTES)
        .map_err(|e| CliError::input(format!("{opt}: {e}")))
}

pub fn dpsnn(a: &DpsnnArgs) -> R {
    use crate::app::dpsnn::generate::{generate, parse_columns, GenParams};
    use crate::app::dpsnn::program::{program, Barrier, Params, Profile, STATE_NAMES};
    use crate::app::dpsnn::trace::SpikeTrace;
    let mut cfg = load_config(a.config)?;
    check_out("--csv", a.csv, "csv")?;
    check_plot_out("--plot", a.plot)?;
    a.timeline.check()?;
    apply_net_options(&mut cfg, a.topology, a.routing)?;
    let endpoints = endpoints(&cfg)?;
    let barrier: Barrier = a.barrier.parse().map_err(CliError::input)?;
    if !(a.calc_ns_per_spike.is_finite() && (0.0..=1e9).contains(&a.calc_ns_per_spike)) {
        return Err(CliError::input(format!(
            "--calc-ns-per-spike {}: must be 0 to 1e9 ns",
            a.calc_ns_per_spike
        )));
    }
    let (trace, source) = match (a.trace, a.columns) {
        (Some(_), Some(_)) => {
            return Err(CliError::input(
                "--trace and --columns both given; give one",
            ));
        }
        (Some(p), None) => {
            if a.per_process.is_some() || a.rate_hz.is_some() || a.iterations.is_some() {
                return Err(CliError::input(
                    "--per-process, --rate-hz and --iterations make a trace; a --trace file \
                     has its own",
                ));
            }
            let name = p.display().to_string();
            let t =
                SpikeTrace::parse(&name, &read_input("--trace", p)?).map_err(CliError::input)?;
            (t, name)
        }
        (None, Some(c)) => {
            let mut g = GenParams {
                columns: parse_columns(c).map_err(CliError::input)?,
                seed: cfg.sim.seed,
                ..GenParams::default()
            };
            if let Some(k) = a.per_process {
                g.per_process = k;
            }
            if let Some(r) = a.rate_hz {
                g.rate_hz = r;
            }
            if let Some(i) = a.iterations {
                g.iterations = i;
            }
            g.validate().map_err(CliError::input)?;
            let t = generate(&g).map_err(CliError::input)?;
            let src = format!(
                "generated: columns {}x{}, {} a process, {} Hz, {} iterations, seed {}",
                g.columns.0, g.columns.1, g.per_process, g.rate_hz, g.iterations, g.seed
            );
            (t, src)
        }
        (None, None) => return Err(CliError::input("give --trace FILE or --columns CxR")),
    };
    if let Some(p) = a.write_trace {
        std::fs::write(p, trace.to_text())
            .map_err(|e| CliError::input(format!("--write-trace: {}: {e}", p.display())))?;
    }
    let n = trace.processes;
    // every iteration's alltoallv of spike counts: every process to every other
    check_footprint(
        &format!("app dpsnn of {n} processes"),
        n as u64,
        (n as u64).saturating_mul((n as u64).saturating_sub(1)),
    )?;
    let mapping = Mapping::parse(a.mapping, cfg.sim.seed).map_err(CliError::input)?;
    let placement = mapping.place(n, endpoints).map_err(CliError::input)?;
    let prof = Profile::default();
    let trace = std::sync::Arc::new(trace);
    let prog = program(
        trace.clone(),
        Params {
            calc_ns_per_spike: a.calc_ns_per_spike,
            spike_bytes: 12,
            barrier,
        },
        prof.clone(),
    );
    let progress = crate::progress::Progress::new(cfg.app.max_cycles, "app dpsnn (cycles)");
    let (report, bins, view) = run_timed(
        &cfg,
        placement,
        prog,
        &progress,
        a.latency_bin_cycles,
        &a.timeline,
    )?;
    progress.finish();
    let ranks = prof.ranks();
    let ranks_profile: Vec<RankProfile> = ranks
        .iter()
        .enumerate()
        .map(|(r, v)| RankProfile {
            rank: r as u32,
            calc_cycles: v[0],
            barrier_cycles: v[1],
            counts_cycles: v[2],
            spikes_cycles: v[3],
            send_receive_cycles: v[2] + v[3],
        })
        .collect();
    let nr = ranks.len().max(1) as f64;
    let states = STATE_NAMES
        .iter()
        .enumerate()
        .map(|(k, name)| StateTime {
            state: name,
            mean_cycles: ranks.iter().map(|v| v[k] as f64).sum::<f64>() / nr,
            max_cycles: ranks.iter().map(|v| v[k]).max().unwrap_or(0),
        })
        .collect();
    let sr = ranks_profile
        .iter()
        .map(|r| r.send_receive_cycles as f64)
        .sum::<f64>()
        / nr;
    let spikes = (0..trace.iterations())
        .map(|it| (0..n).map(|p| trace.received(it, p)).sum::<u64>())
        .sum();
    let latency = bins
        .iter()
        .enumerate()
        .filter(|(_, b)| b.packets > 0)
        .map(|(k, b)| LatencyPoint {
            from_cycle: k as u64 * a.latency_bin_cycles,
            packets: b.packets,
            latency_mean_cycles: b.sum as f64 / b.packets as f64,
            latency_max_cycles: b.max,
        })
        .collect();
    let out = DpsnnOut {
        topology: cfg.net.topology.to_string(),
        routing: cfg.net.routing.to_string(),
        mapping: a.mapping.to_string(),
        barrier: a.barrier.to_string(),
        trace: source,
        processes: n,
        iterations: trace.iterations(),
        spikes,
        calc_ns_per_spike: a.calc_ns_per_spike,
        report,
        send_receive_mean_cycles: sr,
        send_receive_mean_us: cfg.clock().us(sr),
        states,
        ranks_profile,
        latency_bin_cycles: a.latency_bin_cycles,
        latency,
        network_view: view,
    };
    if let Some(p) = a.csv {
        write_csv(p, &out.ranks_profile)?;
    }
    // drawn after the results are printed, so that a plot that cannot be drawn (no packet
    // delivered) or written loses nothing else
    let drawn: Vec<_> = (a.plot.iter())
        .map(|&p| ("--plot", p, latency_plot(&out, &cfg, p)))
        .collect();
    let done = if a.json {
        json_out(&out)?
    } else {
        print_dpsnn(&out);
        ExitCode::SUCCESS
    };
    super::netrun::write_drawn(drawn)?;
    Ok(done)
}

/// The text report of a DPSNN run.
fn print_dpsnn(out: &DpsnnOut) {
    let r = &out.report;
    println!(
        "DPSNN on {} {} ({} processes, {} iterations, {} spikes; {})",
        out.topology, out.routing, out.processes, out.iterations, out.spikes, out.trace
    );
    println!(
        "  run time             {} cycles ({:.3} us)",
        r.cycles, r.time_us
    );
    for s in &out.states {
        println!(
            "  {:<20} mean {:.1} cycles a rank, max {}",
            s.state, s.mean_cycles, s.max_cycles
        );
    }
    println!(
        "  send/receive spikes  mean {:.1} cycles a rank ({:.3} us)",
        out.send_receive_mean_cycles, out.send_receive_mean_us
    );
    println!(
        "  messages             {} sent, {} received; packets {} through the network, latency \
         mean {:.1} cycles, max {}",
        r.messages_sent,
        r.messages_received,
        r.packets,
        r.packet_latency_mean_cycles,
        r.packet_latency_max_cycles
    );
    if let Some(v) = &out.network_view {
        print_view(v);
    }
}

/// Packet latency against arrival time (Pisani 2016 Figures 4.4-4.5): the mean and the largest of
/// each bin, in the format `path` names.
fn latency_plot(out: &DpsnnOut, cfg: &Config, path: &Path) -> Result<Vec<u8>, String> {
    use crate::plot::{render_for, Axis, Figure, Panel, Scale, Series};
    let us = |c: u64| cfg.clock().us(c as f64);
    let mean = out
        .latency
        .iter()
        .map(|p| (us(p.from_cycle), p.latency_mean_cycles))
        .collect();
    let max = out
        .latency
        .iter()
        .map(|p| (us(p.from_cycle), p.latency_max_cycles as f64))
        .collect();
    let fig = Figure::new(
        format!(
            "DPSNN packet latency, {} {} ({} processes)",
            out.topology, out.routing, out.processes
        ),
        vec![Panel::new(
            format!("bins of {} cycles", out.latency_bin_cycles),
            Axis::new("arrival time (us)", Scale::Linear),
            Axis::new("latency (cycles)", Scale::Linear),
            vec![Series::new("mean", mean), Series::new("max", max)],
        )],
    );
    render_for(path, &fig).map_err(|e| e.to_string())
}

/// `exanet bench app`: each case in a child process of its own (a clean resident set), or one
/// case (`--case`) in this process.
pub fn bench_app(config: Option<&Path>, json: bool, case: Option<&str>, repeat: u32) -> R {
    use crate::app::bench::{run_case, CaseResult, CASES};
    let cfg = load_config(config)?;
    if repeat == 0 {
        return Err(CliError::input("--repeat 0: give at least 1"));
    }
    let results: Vec<CaseResult> = match case {
        Some(name) => {
            let c = super::find_case(&CASES, name, |c| c.name)?;
            vec![run_case(&cfg, c, repeat).map_err(CliError::failed)?]
        }
        None => {
            let exe = std::env::current_exe().map_err(|e| {
                CliError::failed(format!("cannot find this program to rerun it: {e}"))
            })?;
            let mut v = Vec::new();
            for c in CASES.iter() {
                if !json {
                    eprintln!("  running {} ({}, {})...", c.name, c.topology, c.what);
                }
                let mut cmd = std::process::Command::new(&exe);
                cmd.args(["bench", "app", "--case", c.name, "--json", "--repeat"]);
                cmd.arg(repeat.to_string());
                if let Some(p) = config {
                    cmd.arg("--config").arg(p);
                }
                for a in super::overrides() {
                    cmd.arg("--set").arg(format!("{}={}", a.key, a.value));
                }
                let out = super::bench_child(&mut cmd, c.name)?;
                let mut val: serde_json::Value = serde_json::from_slice(&out)
                    .map_err(|e| CliError::failed(format!("case {}: unreadable: {e}", c.name)))?;
                let r = val["cases"][0].take();
                v.push(serde_json::from_value(r).map_err(|e| {
                    CliError::failed(format!("case {}: unreadable result: {e}", c.name))
                })?);
            }
            v
        }
    };
    #[derive(Serialize)]
    struct Out {
        cases: Vec<CaseResult>,
    }
    if json {
        return json_out(&Out { cases: results });
    }
    println!(
        "{:<14} {:>6} {:>7} {:>10} {:>9} {:>14} {:>14} {:>9} {:>11}",
        "case",
        "nodes",
        "ranks",
        "cycles",
        "packets",
        "app Mnc/s",
        "replay Mnc/s",
        "overhead",
        "B/rank"
    );
    for r in &results {
        println!(
            "{:<14} {:>6} {:>7} {:>10} {:>9} {:>14.3} {:>14.3} {:>8.1}% {:>11.0}",
            r.case,
            r.nodes,
            r.ranks,
            r.cycles,
            r.packets,
            r.app_node_cycles_per_second / 1e6,
            r.replay_node_cycles_per_second / 1e6,
            r.overhead * 100.0,
            r.bytes_per_rank
        );
    }
    Ok(ExitCode::SUCCESS)
}

pub struct BenchReplayArgs<'a> {
    pub config: Option<&'a Path>,
    pub json: bool,
    pub topology: &'a TopologySpec,
    pub routing: Option<RoutingSpec>,
    pub bytes: u64,
    pub repeat: u32,
    pub min_records: u64,
}

/// `exanet bench replay` (`src/app/replay/bench.rs`).
pub fn bench_replay(a: &BenchReplayArgs) -> R {
    use crate::app::replay::bench::{run, TARGET_RATIO};
    let mut cfg = load_config(a.config)?;
    apply_net_options(&mut cfg, Some(a.topology), a.routing)?;
    endpoints(&cfg)?;
    if !a.json {
        eprintln!(
            "  recording the all-to-all on {} and timing it against its replay ({} runs each)...",
            cfg.net.topology, a.repeat
        );
    }
    let r = run(&cfg, a.bytes, a.repeat, a.min_records).map_err(CliError::failed)?;
    if a.json {
        return json_out(&r);
    }
    println!(
        "all-to-all of {}-byte messages, {} ranks on {} {} ({} packets)",
        r.message_bytes, r.ranks, r.topology, r.routing, r.packets
    );
    println!(
        "  program              {:.3} CPU s, {} cycles",
        r.program_cpu_seconds, r.program_cycles
    );
    println!(
        "  replay of its trace  {:.3} CPU s, {} cycles ({} records)",
        r.replay_cpu_seconds, r.replay_cycles, r.trace_records
    );
    match r.ratio {
        Some(x) => println!(
            "  replay / program     {x:.3} (target at most {TARGET_RATIO}: {})",
            if x <= TARGET_RATIO { "met" } else { "missed" }
        ),
        None => println!(
            "  replay / program     not measured: the runs are too short for the CPU clock"
        ),
    }
    println!(
        "  SimGrid TI parser    {:.3} s a million records ({} records in {:.3} CPU s)",
        r.parse_seconds_per_million_records, r.parse_records, r.parse_cpu_seconds
    );
    match &r.otf2 {
        Some(o) => println!(
            "  OTF2 reader          {:.3} s a million events ({} events in {:.3} CPU s); into \
             actions {:.3} s a million",
            o.read_seconds_per_million_events,
            o.read_events,
            o.read_cpu_seconds,
            o.convert_seconds_per_million_events
        ),
        None => println!("  OTF2 reader          not in this binary (build with --features otf2)"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Trace formats `app replay` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceFormat {
    /// SimGrid's time-independent traces (`smpirun -trace-ti`): an index file of one file a
    /// rank, or one file.
    Simgrid,
    /// OTF2 (Score-P's traces): the anchor file. Needs a binary built with the feature `otf2`.
    Otf2,
}

impl TraceFormat {
    fn name(self) -> &'static str {
        match self {
            TraceFormat::Simgrid => "simgrid",
            TraceFormat::Otf2 => "otf2",
        }
    }
}

pub struct ReplayArgs<'a> {
    pub config: Option<&'a Path>,
    pub json: bool,
    pub csv: Option<&'a Path>,
    pub format: TraceFormat,
    pub trace: &'a Path,
    pub topology: Option<&'a TopologySpec>,
    pub routing: Option<RoutingSpec>,
    pub mapping: &'a str,
    pub flops_per_second: f64,
    pub timeline: TimelineArgs<'a>,
}

/// One rank's replayed time (the CSV rows).
#[derive(Debug, Serialize)]
pub struct RankTimes {
    pub rank: u32,
    pub compute_cycles: u64,
    pub communication_cycles: u64,
    pub wait_cycles: u64,
    pub finished_cycles: u64,
}

/// One kind of collective of a replay.
#[derive(Debug, Serialize)]
pub struct CollectiveCount {
    /// The MPI call (`MPI_Allreduce`).
    pub call: String,
    /// Calls (each rank makes each of them).
    pub calls: u64,
    /// Point-to-point messages the replay's collectives of this kind were made of, all ranks,
    /// and their bytes.
    pub messages: u64,
    pub bytes: u64,
}

#[derive(Debug, Serialize)]
pub struct ReplayOut {
    pub trace: String,
    pub format: String,
    pub topology: String,
    pub routing: String,
    pub mapping: String,
    pub flops_per_second: f64,
    /// Point-to-point messages and bytes the trace's sends carry (`simgrid::totals`).
    pub traced_messages: u64,
    pub traced_bytes: u64,
    /// Receives from `MPI_PROC_NULL` the pairing of all ranks' traces found (`resolve.rs`):
    /// SimGrid writes them with source -333, as it writes `MPI_ANY_SOURCE`.
    pub procnull_receives: u64,
    /// Collective calls each rank makes; in a SimGrid trace they run on MPI_COMM_WORLD.
    pub collectives_per_rank: u64,
    /// What the replay assumed that the trace does not say.
    pub notes: Vec<String>,
    /// Per collective, by its MPI call: calls, and the messages and bytes they were made of.
    pub collectives: Vec<CollectiveCount>,
    #[serde(flatten)]
    pub report: Report,
    pub ranks_times: Vec<RankTimes>,
    /// With `--paraver`: the network view's files and HOL summary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network_view: Option<NetViewOut>,
}

pub fn replay(a: &ReplayArgs) -> R {
    use crate::app::replay::program::{program, Times};
    use crate::app::replay::simgrid::totals;
    let mut cfg = load_config(a.config)?;
    check_out("--csv", a.csv, "csv")?;
    a.timeline.check()?;
    apply_net_options(&mut cfg, a.topology, a.routing)?;
    let f = a.flops_per_second;
    if !(f.is_finite() && f > 0.0 && f <= 1e18) {
        return Err(CliError::input(format!(
            "--flops-per-second {f}: must be positive and at most 1e18"
        )));
    }
    let endpoints = endpoints(&cfg)?;
    let trace = match a.format {
        TraceFormat::Simgrid => crate::app::replay::simgrid::load(a.trace),
        TraceFormat::Otf2 => crate::app::replay::otf2::load(a.trace),
    }
    .map_err(CliError::input)?;
    let n = trace.ranks.len();
    check_footprint(
        &format!("replaying {}", a.trace.display()),
        n as u64,
        trace.messages_at_once(),
    )?;
    let (traced_messages, traced_bytes) = totals(&trace);
    // pair every message with its receive from the traces of all ranks: what one rank's trace
    // leaves out, or a refusal naming the action that cannot be replayed as the program ran
    let resolution = crate::app::replay::resolve::resolve(&trace).map_err(CliError::input)?;
    let mut notes = Vec::new();
    if a.format == TraceFormat::Simgrid && resolution.collectives > 0 {
        notes.push(format!(
            "every rank makes the same {} collective call(s), replayed on MPI_COMM_WORLD: a \
             SimGrid TI trace writes no communicator, so collectives every rank makes on its \
             own sub-communicator (one per row, say) of one size cannot be told from world \
             ones (an OTF2 trace keeps communicators)",
            resolution.collectives
        ));
    }
    let procnull_receives = resolution.null_receive_count();
    let resolution_collectives = resolution.collectives;
    let mapping = Mapping::parse(a.mapping, cfg.sim.seed).map_err(CliError::input)?;
    let placement = mapping.place(n, endpoints).map_err(CliError::input)?;
    let times = Times::default();
    let trace_ref = std::sync::Arc::new(trace);
    let prog = program(
        trace_ref.clone(),
        std::sync::Arc::new(resolution),
        f,
        times.clone(),
    );
    let progress = crate::progress::Progress::new(cfg.app.max_cycles, "app replay (cycles)");
    let run = run_timed(&cfg, placement, prog, &progress, 0, &a.timeline);
    let (report, _, view) = run.map_err(|mut e| {
        if e.message.starts_with("deadlock") {
            // the call each blocked rank is in, from the trace
            for (r, at) in times.in_action().iter().enumerate() {
                if let Some((act, l)) = at.and_then(|i| trace_ref.ranks[r].get(i)) {
                    e.message += &format!(
                        "  rank {r} is in {} at {}:{}\n",
                        crate::app::replay::resolve::call_name(act),
                        l.file,
                        l.line
                    );
                }
            }
        }
        e
    })?;
    progress.finish();
    if report.messages_unreceived > 0 {
        return Err(CliError::input(format!(
            "{}: {} message(s) sent and never received when every rank had finished: the \
             traces pair every message with a receive (docs/applications.md), but a wildcard \
             receive took another message in the replay than in the traced run; the run's \
             figures would not be the program's",
            a.trace.display(),
            report.messages_unreceived
        )));
    }
    let ranks_times = times
        .ranks()
        .iter()
        .enumerate()
        .map(|(r, t)| RankTimes {
            rank: r as u32,
            compute_cycles: t[0],
            communication_cycles: t[1],
            wait_cycles: t[2],
            finished_cycles: report.finished.get(r).copied().unwrap_or(0),
        })
        .collect();
    let out = ReplayOut {
        trace: a.trace.display().to_string(),
        format: a.format.name().into(),
        topology: cfg.net.topology.to_string(),
        routing: cfg.net.routing.to_string(),
        mapping: a.mapping.to_string(),
        flops_per_second: f,
        traced_messages,
        traced_bytes,
        procnull_receives,
        collectives_per_rank: resolution_collectives,
        notes,
        collectives: times
            .collectives()
            .into_iter()
            .map(|(call, c)| CollectiveCount {
                call: call.to_string(),
                calls: c[0],
                messages: c[1],
                bytes: c[2],
            })
            .collect(),
        report,
        ranks_times,
        network_view: view,
    };
    if let Some(p) = a.csv {
        write_csv(p, &out.ranks_times)?;
    }
    if a.json {
        return json_out(&out);
    }
    let r = &out.report;
    println!(
        "{} ({} ranks) on {} {}, mapping {}",
        out.trace, r.ranks, out.topology, out.routing, out.mapping
    );
    println!(
        "  predicted run time   {} cycles ({:.3} us)",
        r.cycles, r.time_us
    );
    println!(
        "  messages             {} point-to-point ({} bytes; the trace sends {} of {} bytes), {} \
         in all with the collectives'",
        r.p2p_messages_sent,
        r.p2p_bytes_sent,
        out.traced_messages,
        out.traced_bytes,
        r.messages_sent
    );
    println!(
        "  packets              {} through the network, latency mean {:.1} cycles, max {}",
        r.packets, r.packet_latency_mean_cycles, r.packet_latency_max_cycles
    );
    if a.format == TraceFormat::Simgrid {
        println!(
            "  unreceived           {} message(s); {} receive(s) from MPI_PROC_NULL (source -333 \
             in the trace, no message for it)",
            r.messages_unreceived, out.procnull_receives
        );
    } else {
        // (an OTF2 trace records no event for a receive from MPI_PROC_NULL)
        println!(
            "  unreceived           {} message(s)",
            r.messages_unreceived
        );
    }
    for c in &out.collectives {
        println!(
            "  {:<20} {} call(s), {} messages ({} bytes)",
            c.call, c.calls, c.messages, c.bytes
        );
    }
    for n in &out.notes {
        println!("  note: {n}");
    }
    println!("  rank   compute (cycles)   communication   wait");
    for t in &out.ranks_times {
        println!(
            "  {:>4}   {:>16}   {:>13}   {:>4}",
            t.rank, t.compute_cycles, t.communication_cycles, t.wait_cycles
        );
    }
    if let Some(v) = &out.network_view {
        print_view(v);
    }
    Ok(ExitCode::SUCCESS)
}
