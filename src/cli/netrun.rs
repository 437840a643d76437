//! `exanet network sweep` and `exanet network run` (docs/network.md, docs/cli.md).
//!
//! A sweep is a set of curves (topology and routing pairs, times the combinations of the
//! `--vary` values), each over the loads, each load repeated over the seeds. Every run is
//! independent (its own network, its generators seeded from its own `sim.seed`), so they run on
//! `--jobs` threads and the output, assembled in a fixed order, is the same for any count.

use super::netsweep::{
    check_jobs, combinations, packets_part, parse_vary, run_pool, PacketsJoin, Vary, MAX_RUNS,
};
use super::output::{check_out, check_plot_out, record_routings, record_seeds, write_csv};
use super::sweep_parts::{self, Spread};
use super::{json_out, load_config, CliError, R};
use crate::config::Config;
use crate::config_set::{apply, Assignment};
use crate::net::bench::Case;
use crate::net::confidence::MeanCi;
use crate::net::latency_bins::{LatencyBin, LatencyBins, Tee};
use crate::net::packet_log::{CsvSink, PacketLog};
use crate::net::setup::{plan, run_logged, Injection};
use crate::net::stats::Summary;
use crate::net::traffic::parse_loads;
use crate::plot::{Axis, Figure, Panel, Scale, Series};
use crate::spec::{PatternSpec, RoutingSpec, SizeDist, TopologySpec};
use serde::Serialize;
use serde_json::{Map, Value};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;

/// The loads of a sweep that gives neither `--loads` nor `--vary net.load`.
pub const DEFAULT_LOADS: &str = "0.05:0.5:0.05";

/// One run: who it is (curve, varied values, seed) and its statistics. The JSON of a sweep
/// point and of `network run`, and a line of their CSV (the same fields, flattened).
#[derive(Debug, Clone, Serialize)]
pub struct PointRow {
    pub topology: String,
    pub routing: String,
    /// The APErouter's RTL routes as `routing` does: the run is hardware-backed end to end;
    /// false: its routing function is model-only (docs/network.md, "What is RTL-backed").
    pub routing_rtl_twin: bool,
    /// The `--vary` fields and their values, as the configuration holds them (left out when
    /// nothing is varied).
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub vary: Map<String, Value>,
    /// `sim.seed` of the run.
    pub seed: u64,
    #[serde(flatten)]
    pub summary: Summary,
}

/// One load of a curve over its seeds.
#[derive(Debug, Clone, Serialize)]
pub struct PointMeans {
    pub offered_load: f64,
    /// Runs (seeds) at this load.
    pub runs: usize,
    /// Every run stable.
    pub stable: bool,
    pub unstable_runs: usize,
    /// Runs whose network did not keep up with the offered load (`Summary::saturated`).
    pub saturated_runs: usize,
    /// Over the runs: mean, sample standard deviation and the half-width of the 95 %
    /// confidence interval of the mean (Student t, runs - 1 degrees of freedom).
    pub accepted_load: MeanCi,
    /// The runs' mean latencies, likewise (each run's mean weighs the same).
    pub latency_mean_cycles: MeanCi,
}

/// One curve of a sweep: a topology and routing pair and one combination of the varied values,
/// over the loads.
#[derive(Debug, Serialize)]
pub struct Curve {
    pub topology: String,
    pub routing: String,
    /// As `PointRow::routing_rtl_twin`.
    pub routing_rtl_twin: bool,
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub vary: Map<String, Value>,
    /// One per load and seed: the loads in order, and for each its seeds in order.
    pub points: Vec<PointRow>,
    /// One per load.
    pub means: Vec<PointMeans>,
    /// The channel-load bound of uniform traffic (`net/channel_load.rs`): the accepted load no
    /// run of this curve can exceed. Absent for another pattern, an adaptive routing off a torus
    /// or a network too large to walk.
    pub channel_load_bound: Option<crate::net::channel_load::ChannelLoadBound>,
    /// Payload bytes a cycle a load of 1 means (`net.injection_bytes_per_cycle`).
    #[serde(skip)]
    bytes_per_cycle: f64,
    #[serde(skip)]
    endpoints: usize,
}

impl Curve {
    /// `torus:4x4 ecube`, with the varied values: `torus:4x4 ecube link.credit.period_cycles=20`.
    pub fn label(&self) -> String {
        label(&self.topology, &self.routing, &self.vary)
    }

    /// The label as tables and plots show it: marked when the routing is model-only.
    pub fn shown_label(&self) -> String {
        format!("{}{}", self.label(), model_only_mark(self.routing_rtl_twin))
    }
}

/// What tables, plots and reports append to a routing with no RTL twin.
pub const MODEL_ONLY_MARK: &str = " [model-only routing]";

/// `MODEL_ONLY_MARK` unless the routing has an RTL twin.
pub fn model_only_mark(rtl_twin: bool) -> &'static str {
    if rtl_twin {
        ""
    } else {
        MODEL_ONLY_MARK
    }
}

pub(super) fn label(topology: &str, routing: &str, vary: &Map<String, Value>) -> String {
    let mut s = format!("{topology} {routing}");
    for (k, v) in vary {
        s += &format!(" {k}={}", value_text(v));
    }
    s
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        x => x.to_string(),
    }
}

pub struct SweepArgs<'a> {
    pub config: Option<&'a Path>,
    pub json: bool,
    pub topologies: &'a [TopologySpec],
    pub routings: &'a [RoutingSpec],
    /// `--loads`; `None`: `--vary net.load` or [`DEFAULT_LOADS`].
    pub loads: Option<&'a str>,
    pub size: Option<SizeDist>,
    pub pattern: Option<PatternSpec>,
    pub seed: Option<u64>,
    pub seeds: Option<&'a str>,
    pub vary: &'a [String],
    pub jobs: usize,
    pub csv: Option<&'a Path>,
    pub plot: Option<&'a Path>,
    pub packets: Option<&'a Path>,
    /// `--saturation`: search each curve's saturation throughput instead (`netsat.rs`).
    pub saturation: bool,
    /// `--resolution` of the search.
    pub resolution: Option<f64>,
    /// `--part K/N`: run only the points of part K of N and write what they gave into
    /// `parts_dir` (`sweep_parts.rs`).
    pub part: Option<&'a str>,
    pub parts_dir: Option<&'a Path>,
    /// `--join DIR`: the results of the parts in DIR.
    pub join: Option<&'a Path>,
    /// `--ranks-per-point G` under mpirun: each point on a group of G ranks (the MPI engine).
    pub ranks_per_point: Option<usize>,
}

/// The configuration of curve (`topology`, `routing`) before the varied values.
fn curve_config(
    base: &Config,
    a: &SweepArgs,
    topology: &TopologySpec,
    routing: RoutingSpec,
) -> Config {
    let mut c = base.clone();
    c.net.topology = topology.clone();
    c.net.routing = routing;
    if let Some(s) = a.size {
        c.net.sizes = s;
    }
    if let Some(p) = a.pattern {
        c.net.pattern = p;
    }
    c
}

/// Fields an option of the sweep sets: varying one as well would leave one of the two without
/// effect, so it is refused.
const OPTION_FIELDS: [(&str, &str); 4] = [
    ("net.topology", "--topology"),
    ("net.routing", "--routing"),
    ("net.sizes", "--size"),
    ("net.pattern", "--pattern"),
];

/// The value of dotted field `key` in `cfg`, as its JSON holds it.
fn field_value(cfg: &Config, key: &str) -> Value {
    let v = serde_json::to_value(cfg).unwrap_or(Value::Null);
    let ptr = format!("/{}", key.replace('.', "/"));
    v.pointer(&ptr).cloned().unwrap_or(Value::Null)
}

/// A curve set up and checked: its configuration (load and seed set per run).
pub(super) struct CurveSetup {
    pub(super) topology: String,
    pub(super) routing: String,
    pub(super) vary: Map<String, Value>,
    pub(super) cfg: Config,
    endpoints: usize,
    /// Computed before the runs, so that a failure loses none of them.
    bound: Option<crate::net::channel_load::ChannelLoadBound>,
}

/// The `--vary` options read: the load values (`net.load`) apart, the others checked against
/// each other and the sweep's own options.
pub(super) fn read_varies(a: &SweepArgs) -> Result<(Vec<Vary>, Option<Vec<f64>>), CliError> {
    let mut varies: Vec<Vary> = Vec::new();
    let mut loads = None;
    // a --set of a field the sweep's own options set would be silently replaced
    for s in crate::cli::overrides() {
        let by_option = match s.key.as_str() {
            "net.load" => Some("--loads (or --vary net.load)"),
            "sim.seed" if a.seed.is_some() || a.seeds.is_some() => Some("--seed or --seeds"),
            "net.topology" if !a.topologies.is_empty() => Some("--topology"),
            "net.routing" if !a.routings.is_empty() => Some("--routing"),
            "net.sizes" if a.size.is_some() => Some("--size"),
            "net.pattern" if a.pattern.is_some() => Some("--pattern"),
            _ => None,
        };
        if let Some(opt) = by_option {
            return Err(CliError::input(format!(
                "--set {}={}: a sweep sets {} from {opt}; give it there",
                s.key, s.value, s.key
            )));
        }
    }
    for text in a.vary {
        let v = parse_vary(text)?;
        if varies.iter().any(|x| x.key == v.key) || (v.key == "net.load" && loads.is_some()) {
            return Err(CliError::input(format!(
                "--vary {}: the field is varied twice; give its values in one --vary",
                v.key
            )));
        }
        if v.key == "sim.seed" {
            return Err(CliError::input(
                "--vary sim.seed: give the seeds with --seeds (1..5 or 1,2,7): each point is then \
                 repeated over them and reported with its mean and confidence interval",
            ));
        }
        if let Some((_, opt)) = OPTION_FIELDS.iter().find(|(f, _)| *f == v.key) {
            let given = match *opt {
                "--topology" => !a.topologies.is_empty(),
                "--routing" => !a.routings.is_empty(),
                "--size" => a.size.is_some(),
                _ => a.pattern.is_some(),
            };
            if given {
                return Err(CliError::input(format!(
                    "--vary {} and {opt} set the same field: give one of them",
                    v.key
                )));
            }
        }
        if v.key == "net.load" {
            if a.loads.is_some() {
                return Err(CliError::input(
                    "--vary net.load and --loads both give the loads: give one of them",
                ));
            }
            let l = parse_loads(&v.values.join(","))
                .map_err(|e| CliError::input(format!("--vary net.load: {e}")))?;
            loads = Some(l);
            continue;
        }
        varies.push(v);
    }
    Ok((varies, loads))
}

/// Every curve's configuration, applied and checked before anything runs.
pub(super) fn set_up_curves(
    base: &Config,
    a: &SweepArgs,
    varies: &[Vary],
) -> Result<Vec<CurveSetup>, CliError> {
    let topologies: Vec<TopologySpec> = if a.topologies.is_empty() {
        vec![base.net.topology.clone()]
    } else {
        a.topologies.to_vec()
    };
    let routings: Vec<RoutingSpec> = if a.routings.is_empty() {
        vec![base.net.routing]
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
    let at = |len: usize, i: usize| if len == 1 { 0 } else { i };
    let combos = combinations(varies);
    let mut curves = Vec::new();
    for i in 0..n {
        let pair = curve_config(
            base,
            a,
            &topologies[at(topologies.len(), i)],
            routings[at(routings.len(), i)],
        );
        for combo in &combos {
            let what = || {
                combo
                    .iter()
                    .map(|x| format!("{}={}", x.key, x.value))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let cfg = apply(&pair, combo)
                .map_err(|e| CliError::input(e.to_string().replacen("--set ", "--vary ", 1)))?;
            let context = |e: String| {
                if combo.is_empty() {
                    CliError::input(e)
                } else {
                    CliError::input(format!("--vary {}: {e}", what()))
                }
            };
            cfg.validate().map_err(|e| context(e.to_string()))?;
            if cfg.net.injection != Injection::Bernoulli {
                return Err(context(
                    "a sweep varies the Bernoulli injection's load: set net.injection = \
                     \"bernoulli\""
                        .into(),
                ));
            }
            let p = plan(&cfg).map_err(context)?;
            let vary: Map<String, Value> = combo
                .iter()
                .map(|x| (x.key.clone(), field_value(&cfg, &x.key)))
                .collect();
            curves.push(CurveSetup {
                topology: cfg.net.topology.to_string(),
                routing: cfg.net.routing.to_string(),
                vary,
                endpoints: p.topo.endpoints(),
                bound: channel_load_bound(&cfg)?,
                cfg,
            });
        }
    }
    Ok(curves)
}

/// The first columns of a packets file's lines: curve, point, offered load (rounded like the
/// JSON's), seed.
fn packets_point(curve: usize, point: usize, load: f64, seed: u64) -> String {
    let load = super::output::round_sig(load, super::output::SIGNIFICANT_DIGITS);
    format!("{curve},{point},{load},{seed}")
}

/// One run of a sweep: curve `c` at load `load` with `seed`; its packets into `part` (the
/// part file of point `point` of the curve).
pub(super) fn run_one(
    curve: &CurveSetup,
    (c, point): (usize, usize),
    load: f64,
    seed: u64,
    part: Option<&Path>,
) -> Result<PointRow, CliError> {
    let mut cfg = curve.cfg.clone();
    cfg.net.load = load;
    cfg.sim.seed = seed;
    cfg.validate()?;
    let p = plan(&cfg).map_err(CliError::input)?;
    let log = match part {
        Some(path) => Some(PacketLog::new(Box::new(
            CsvSink::create(path, false, &packets_point(c, point, load, seed))
                .map_err(|e| CliError::input(format!("--packets: {e}")))?,
        ))),
        None => None,
    };
    // a sweep shows its own line, point by point
    let (summary, log) = run_logged(&cfg, &p, load, log, &crate::progress::Progress::hidden())
        .map_err(CliError::input)?;
    if let Some(l) = log {
        l.finish()
            .map_err(|e| CliError::input(format!("--packets: {e}")))?;
    }
    Ok(point_row(curve, seed, summary))
}

/// The row of a point of curve `curve` run with `seed`.
fn point_row(curve: &CurveSetup, seed: u64, summary: Summary) -> PointRow {
    PointRow {
        topology: curve.topology.clone(),
        routing: curve.routing.clone(),
        routing_rtl_twin: curve.cfg.net.routing.rtl_twin(),
        vary: curve.vary.clone(),
        seed,
        summary,
    }
}

/// How this sweep's points are shared among processes (`sweep_parts.rs`).
fn spread_of(a: &SweepArgs) -> Result<Spread, CliError> {
    let over_mpi = super::this_process_over_mpi()?;
    let alone = |opt: &str| {
        if over_mpi {
            Err(super::rank0_says(format!(
                "{opt}: under mpirun the ranks are the parts: give neither --part nor --join"
            )))
        } else {
            Ok(())
        }
    };
    match (a.part, a.join) {
        (Some(_), Some(_)) => Err(CliError::input(
            "--part and --join: a part runs points, a join writes the results: give one",
        )),
        (Some(p), None) => {
            alone("--part")?;
            let (index, parts) = sweep_parts::parse_part(p)?;
            let dir = a
                .parts_dir
                .ok_or_else(|| CliError::input("--part: give --parts-dir DIR, where it goes"))?;
            if !dir.is_dir() {
                return Err(CliError::input(format!(
                    "--parts-dir {}: not a folder",
                    dir.display()
                )));
            }
            Ok(Spread::Part {
                index,
                parts,
                dir: dir.to_path_buf(),
            })
        }
        (None, Some(dir)) => {
            alone("--join")?;
            Ok(Spread::Join {
                dir: dir.to_path_buf(),
            })
        }
        (None, None) if a.parts_dir.is_some() => Err(CliError::input(
            "--parts-dir: the folder of --part K/N: give --part",
        )),
        #[cfg(feature = "mpi")]
        (None, None) if over_mpi => {
            let m = crate::net::dist::mpi::Mpi::init()
                .map_err(CliError::input)?
                .ok_or_else(|| CliError::input("no MPI launcher started this process"))?;
            let per = a.ranks_per_point.unwrap_or(1);
            if per == 0 || !m.size.is_multiple_of(per) {
                return Err(CliError::input(format!(
                    "--ranks-per-point {per}: the {} ranks go in groups of it: give a divisor \
                     of {}",
                    m.size, m.size
                )));
            }
            if per > 1 && a.packets.is_some() {
                return Err(CliError::input(
                    "--packets with --ranks-per-point: the packet log sees every node, in one \
                     process: give --ranks-per-point 1",
                ));
            }
            if per > 1 && a.jobs > 1 {
                return Err(CliError::input(
                    "--jobs with --ranks-per-point: a group of ranks runs its points one after \
                     another (each rank's threads: --threads)",
                ));
            }
            Ok(Spread::Mpi(m, per))
        }
        (None, None) if a.ranks_per_point.is_some() => Err(CliError::input(
            "--ranks-per-point: the ranks of each point under mpirun: start the sweep with \
             mpirun -n N",
        )),
        (None, None) => Ok(Spread::Whole),
    }
}

/// The sweep's base configuration (`--config`, or the defaults).
pub(super) fn sweep_base(a: &SweepArgs) -> Result<Config, CliError> {
    let mut base = load_config(a.config)?;
    if a.jobs > 1 && base.net.threads == 0 {
        // the points already share the cores: one thread each unless asked otherwise
        base.net.threads = 1;
    }
    Ok(base)
}

pub fn sweep(a: &SweepArgs) -> R {
    // under mpirun every rank finds bad input alike: rank 0 says it
    sweep_here(a).map_err(|e| {
        if e.code == 2 && !e.message.is_empty() {
            super::rank0_says(e.message)
        } else {
            e
        }
    })
}

fn sweep_here(a: &SweepArgs) -> R {
    if a.resolution.is_some() && !a.saturation {
        return Err(CliError::input(
            "--resolution is the saturation search's: give --saturation with it",
        ));
    }
    let base = sweep_base(a)?;
    check_out("--csv", a.csv, "csv")?;
    if a.saturation {
        if a.part.is_some() || a.join.is_some() || super::this_process_over_mpi()? {
            // (each load the search tries depends on the runs before it)
            return Err(super::rank0_says(
                "--saturation runs in one process: its search tries each load after the runs \
                 before it; spread its runs over threads with --jobs",
            ));
        }
        let jobs = check_jobs(a.jobs)?;
        let seeds = super::netsat::seeds_of(a, base.sim.seed)?;
        return super::netsat::search(
            a,
            a.resolution.unwrap_or(super::netsat::DEFAULT_RESOLUTION),
            jobs,
            seeds,
        );
    }
    check_plot_out("--plot", a.plot)?;
    check_out("--packets", a.packets, "csv")?;
    let jobs = check_jobs(a.jobs)?;
    let (varies, vary_loads) = read_varies(a)?;
    let loads = match vary_loads {
        Some(l) => l,
        None => parse_loads(a.loads.unwrap_or(DEFAULT_LOADS))
            .map_err(|e| CliError::input(format!("--loads: {e}")))?,
    };
    let seeds = super::netsat::seeds_of(a, base.sim.seed)?;
    // counted before the curves are set up, which takes time for every one
    let pairs = a.topologies.len().max(a.routings.len()).max(1);
    let (nl, ns) = (loads.len(), seeds.len());
    let curves_n = varies
        .iter()
        .fold(pairs, |n, v| n.saturating_mul(v.values.len()));
    let total = curves_n.saturating_mul(nl).saturating_mul(ns);
    if total > MAX_RUNS {
        return Err(CliError::input(format!(
            "{curves_n} curves x {nl} loads x {ns} seeds = {total} runs; a sweep makes at most \
             {MAX_RUNS}"
        )));
    }
    let setups = set_up_curves(&base, a, &varies)?;
    debug_assert_eq!(setups.len() * nl * ns, total);
    record_seeds(&seeds);
    // the run record's configuration (as loaded: how many jobs ran changes nothing) holds the
    // sweep's (first) seed, not the file's
    if let Some(mut recorded) = super::output::run_info().config {
        recorded.sim.seed = seeds[0];
        super::output::record_config(&recorded);
    }
    let routings: Vec<RoutingSpec> = setups.iter().map(|x| x.cfg.net.routing).collect();
    record_routings(&routings);
    let index = |k: usize| (k / (nl * ns), k / ns % nl, k % ns);
    let spread = spread_of(a)?;
    // the points this process runs (a join runs none)
    let mine: Vec<usize> = match &spread {
        Spread::Whole => (0..total).collect(),
        Spread::Part { index, parts, .. } => sweep_parts::points_of(*index, *parts, total),
        #[cfg(feature = "mpi")]
        Spread::Mpi(m, per) => sweep_parts::points_of(m.rank / per, m.size / per, total),
        Spread::Join { .. } => Vec::new(),
    };
    // the packets file is joined as the points finish when this process runs them all, else
    // from the parts once every process is done
    let join = match (a.packets, &spread) {
        (Some(p), Spread::Whole) => Some(PacketsJoin::create(p, total)?),
        _ => None,
    };
    let join = Mutex::new(join);
    // the shared progress line (src/progress.rs): a terminal only
    let bar = crate::progress::Progress::new(mine.len() as u64, "network sweep (points)");
    let work = |i: usize| {
        let k = mine[i];
        let (c, l, s) = index(k);
        let part = a.packets.map(|p| packets_part(p, k));
        run_one(
            &setups[c],
            (c, l * ns + s),
            loads[l],
            seeds[s],
            part.as_deref(),
        )
    };
    // the lowest point that failed (`run_pool` gives its error)
    let failed = Mutex::new(None::<usize>);
    let mut on_done = |i: usize, r: &Result<PointRow, CliError>| {
        let k = mine[i];
        if r.is_ok() {
            if let Some(j) = join.lock().unwrap_or_else(|p| p.into_inner()).as_mut() {
                j.finished(k);
            }
        } else {
            let mut f = failed.lock().unwrap_or_else(|p| p.into_inner());
            *f = Some(f.map_or(k, |x: usize| x.min(k)));
        }
        if bar.is_shown() {
            let (c, l, s) = index(k);
            let x = &setups[c];
            bar.set_message(format!(
                "{}, load {:.3}, seed {}",
                label(&x.topology, &x.routing, &x.vary),
                loads[l],
                seeds[s]
            ));
        }
        bar.inc(1);
    };
    // a group of ranks (`--ranks-per-point`) runs its points on the MPI engine, one after
    // another
    #[allow(unused_mut)]
    let mut on_group: Option<Result<Vec<PointRow>, CliError>> = None;
    #[cfg(feature = "mpi")]
    if let Spread::Mpi(m, per) = &spread {
        if *per > 1 {
            let group = m.group(*per);
            let mut rows = Vec::with_capacity(mine.len());
            let mut r = Ok(());
            for &k in &mine {
                let (c, l, s) = index(k);
                let mut cfg = setups[c].cfg.clone();
                cfg.net.load = loads[l];
                cfg.sim.seed = seeds[s];
                let summary = cfg
                    .validate()
                    .map_err(CliError::from)
                    .and_then(|()| super::netmpi::run_point(&group, cfg));
                match summary {
                    Ok(x) => rows.push(point_row(&setups[c], seeds[s], x)),
                    Err(e) => {
                        *failed.lock().unwrap_or_else(|p| p.into_inner()) = Some(k);
                        r = Err(e);
                        break;
                    }
                }
                bar.inc(1);
            }
            on_group = Some(r.map(|()| rows));
        }
    }
    let result = match on_group {
        Some(r) => r,
        None => run_pool(mine.len(), jobs, &work, &mut on_done),
    };
    bar.finish();
    let join = join.into_inner().unwrap_or_else(|p| p.into_inner());
    let failed = failed.into_inner().unwrap_or_else(|p| p.into_inner());
    // what this process's points gave, as a part of the sweep
    let key = {
        let configs: Vec<Config> = setups.iter().map(|x| x.cfg.clone()).collect();
        sweep_parts::sweep_key(&configs, &loads, &seeds)
    };
    let as_part =
        |index: usize, parts: usize, result: &Result<Vec<PointRow>, CliError>| sweep_parts::Part {
            sweep: key.clone(),
            index,
            parts,
            total,
            points: match result {
                Ok(rows) => mine
                    .iter()
                    .zip(rows)
                    .map(|(&k, r)| (k, r.summary.clone()))
                    .collect(),
                Err(_) => Vec::new(),
            },
            error: match result {
                Err(e) => Some((failed.unwrap_or(0), e.code, e.message.clone())),
                Ok(_) => None,
            },
        };
    // every point's row from the summaries the parts gave, and the packets file joined from
    // the points' part files
    let joined_rows = |summaries: &[Summary]| {
        sweep_parts::rows_and_packets(summaries, a.packets, total, &|k| {
            let (c, _, s) = index(k);
            point_row(&setups[c], seeds[s], summaries[k].clone())
        })
    };
    let rows: Vec<PointRow> = match spread {
        Spread::Whole => match result {
            Ok(rows) => {
                if let Some(j) = join {
                    j.finish()?;
                }
                rows
            }
            Err(e) => {
                if let (Some(j), Some(p)) = (join, a.packets) {
                    j.discard_parts();
                    let _ = std::fs::remove_file(p);
                }
                return Err(e);
            }
        },
        Spread::Part { index, parts, dir } => {
            let path = as_part(index, parts, &result).write(&dir)?;
            eprintln!(
                "part {index} of {parts}: {} of the sweep's {total} points, written to {} \
                 (the results: the same command with --join {})",
                mine.len(),
                path.display(),
                dir.display()
            );
            return result.map(|_| ExitCode::SUCCESS);
        }
        #[cfg(feature = "mpi")]
        Spread::Mpi(m, per) => {
            // a group's first rank speaks for it (its other ranks have the same summaries)
            let bytes = if m.rank.is_multiple_of(per) {
                as_part(m.rank / per, m.size / per, &result).to_bytes()
            } else {
                Vec::new()
            };
            let Some(all) = m.gather(&bytes) else {
                // rank 0 writes the results, and says a point's error
                return Ok(ExitCode::SUCCESS);
            };
            let parts = all
                .iter()
                .enumerate()
                .filter(|(r, _)| r.is_multiple_of(per))
                .map(|(r, b)| {
                    // (`gather` ends each part with a newline)
                    let from = format!("rank {r}");
                    sweep_parts::Part::from_bytes(b.strip_suffix(b"\n").unwrap_or(b), &from)
                        .map(|p| (from, p))
                })
                .collect::<Result<Vec<_>, _>>()?;
            joined_rows(&sweep_parts::join(parts, &key, total)?)?
        }
        Spread::Join { dir } => joined_rows(&sweep_parts::join(
            sweep_parts::read_parts(&dir)?,
            &key,
            total,
        )?)?,
    };
    let mut rows = rows.into_iter();
    let curves: Vec<Curve> = setups
        .iter()
        .map(|x| {
            let points: Vec<PointRow> = rows.by_ref().take(nl * ns).collect();
            let means = points.chunks(ns).map(means_of).collect();
            Curve {
                topology: x.topology.clone(),
                routing: x.routing.clone(),
                routing_rtl_twin: x.cfg.net.routing.rtl_twin(),
                vary: x.vary.clone(),
                points,
                means,
                channel_load_bound: x.bound,
                bytes_per_cycle: x.cfg.net.injection_bytes_per_cycle,
                endpoints: x.endpoints,
            }
        })
        .collect();
    if let Some(path) = a.csv {
        let all: Vec<&PointRow> = curves.iter().flat_map(|c| &c.points).collect();
        write_csv(path, &all)?;
    }
    if let Some(path) = a.plot {
        crate::plot::write_plot(path, &cnf_figure(&curves))
            .map_err(|e| CliError::failed(e.to_string()))?;
    }
    if a.json {
        #[derive(Serialize)]
        struct Out<'a> {
            /// The `--vary` fields (net.load is the curves' x).
            varied: Vec<&'a str>,
            curves: &'a [Curve],
        }
        return json_out(&Out {
            varied: varies.iter().map(|v| v.key.as_str()).collect(),
            curves: &curves,
        });
    }
    print_tables(&curves, ns);
    Ok(ExitCode::SUCCESS)
}

/// The channel-load bound of `cfg`'s network under uniform traffic (None for another pattern).
fn channel_load_bound(
    cfg: &Config,
) -> Result<Option<crate::net::channel_load::ChannelLoadBound>, CliError> {
    if cfg.net.pattern != PatternSpec::Uniform {
        return Ok(None);
    }
    let p = plan(cfg).map_err(CliError::input)?;
    crate::net::channel_load::uniform(
        p.topo.as_ref(),
        p.routing.as_ref(),
        &p.sizes,
        cfg.net.injection_bytes_per_cycle,
    )
    .map_err(CliError::failed)
}

/// The mean and interval of one load's runs.
fn means_of(runs: &[PointRow]) -> PointMeans {
    let pick =
        |f: fn(&Summary) -> f64| -> Vec<f64> { runs.iter().map(|r| f(&r.summary)).collect() };
    let unstable = runs.iter().filter(|r| !r.summary.stable).count();
    PointMeans {
        offered_load: runs.first().map_or(0.0, |r| r.summary.offered_load),
        runs: runs.len(),
        stable: unstable == 0,
        unstable_runs: unstable,
        saturated_runs: runs.iter().filter(|r| r.summary.saturated).count(),
        accepted_load: MeanCi::of(&pick(|s| s.accepted_load)),
        latency_mean_cycles: MeanCi::of(&pick(|s| s.latency_mean_cycles)),
    }
}

/// The line that explains the `*` of an unstable point.
const UNSTABLE_LEGEND: &str = "* unstable: window packets were still in flight when the drain \
                               ended (net.drain_cycles); their latency is missing from the mean, \
                               which is therefore too low";

fn print_tables(curves: &[Curve], seeds: usize) {
    let mut any_unstable = false;
    for (i, c) in curves.iter().enumerate() {
        if i > 0 {
            println!();
        }
        println!(
            "{} ({} endpoints; load = fraction of {} payload bytes a cycle per endpoint)",
            c.shown_label(),
            c.endpoints,
            c.bytes_per_cycle
        );
        if let Some(b) = &c.channel_load_bound {
            println!(
                "  channel-load bound {:.3} (busiest channel {:.3} units of an endpoint's \
                 injection on {} paths, a link carrying {:.3} payload bytes a cycle)",
                b.accepted_load,
                b.max_channel_load,
                if b.paths == "ideal" {
                    "ideally balanced minimal"
                } else {
                    "the routing's own"
                },
                b.link_payload_bytes_per_cycle
            );
        }
        if seeds == 1 {
            println!(
                "{:>7} {:>8} {:>8} {:>10} {:>9} {:>8} {:>10} {:>9} {:>9} {:>9}",
                "offered",
                "injected",
                "accepted",
                "lat mean",
                "lat std",
                "lat p99",
                "delivered",
                "lost",
                "in flight",
                "saturated"
            );
            // the units under the names: loads are fractions of the injection bandwidth (the
            // heading above says of how many bytes a cycle), latencies cycles, counts packets
            println!(
                "{:>7} {:>8} {:>8} {:>10} {:>9} {:>8} {:>10} {:>9} {:>9} {:>9}",
                "(load)",
                "(load)",
                "(load)",
                "(cycles)",
                "(cycles)",
                "(cycles)",
                "(packets)",
                "(packets)",
                "(packets)",
                "(yes/no)"
            );
            for p in &c.points {
                let x = &p.summary;
                any_unstable |= !x.stable;
                println!(
                    "{:>7.3} {:>8.3} {:>8.3} {:>10.1} {:>9.1} {:>8} {:>10} {:>9} {:>9} {:>9}{}",
                    x.offered_load,
                    x.injected_load,
                    x.accepted_load,
                    x.latency_mean_cycles,
                    x.latency_std_cycles,
                    x.latency_p99_cycles,
                    x.packets_delivered,
                    x.packets_lost,
                    x.packets_in_flight,
                    if x.saturated { "yes" } else { "no" },
                    if x.stable { "" } else { " *" }
                );
            }
        } else {
            println!(
                "{:>7} {:>21} {:>23} {:>9} {:>8}   ({seeds} seeds; mean ± half-width of the 95 % \
                 interval)",
                "offered", "accepted", "latency mean (cycles)", "saturated", "unstable"
            );
            println!(
                "{:>7} {:>21} {:>23} {:>9} {:>8}",
                "(load)", "(load)", "", "(runs)", "(runs)"
            );
            for m in &c.means {
                any_unstable |= !m.stable;
                let ci = |x: &MeanCi, prec: usize| {
                    format!("{:.*} ± {:.*}", prec, x.mean, prec, x.ci95.unwrap_or(0.0))
                };
                println!(
                    "{:>7.3} {:>21} {:>23} {:>9} {:>8}{}",
                    m.offered_load,
                    ci(&m.accepted_load, 4),
                    ci(&m.latency_mean_cycles, 1),
                    format!("{}/{}", m.saturated_runs, m.runs),
                    format!("{}/{}", m.unstable_runs, m.runs),
                    if m.stable { "" } else { " *" }
                );
            }
        }
    }
    if any_unstable {
        println!();
        println!("{UNSTABLE_LEGEND}");
    }
}

/// The x axis of the CNF plot: what a load of 1 is, from the curves' configuration.
fn load_axis_label(curves: &[Curve]) -> String {
    match curves.first().map(|c| c.bytes_per_cycle) {
        Some(b) if curves.iter().all(|c| c.bytes_per_cycle == b) => {
            format!("applied load (1 = {b} payload bytes/cycle per endpoint)")
        }
        _ => "applied load (1 = net.injection_bytes_per_cycle of the curve)".to_string(),
    }
}

/// The CNF pair (Pisani 2016 §4.2), as the field draws it: accepted traffic (from 0, beside
/// the accepted = offered diagonal and, when the curves share one, the channel-load bound) and
/// mean latency against offered load, one series per curve (over several seeds, their means
/// with the 95 % intervals as error bars). A point that saturated (in a majority of its runs)
/// or did not drain is drawn hollow, and the legend says so.
pub fn cnf_figure(curves: &[Curve]) -> crate::plot::Figure {
    use crate::plot::{Axis, Figure, Panel, Scale, Series};
    let doubtful = |m: &PointMeans| !m.stable || 2 * m.saturated_runs >= m.runs.max(1);
    let series = |f: &dyn Fn(&PointMeans) -> &MeanCi, floor: f64| -> Vec<Series> {
        curves
            .iter()
            .map(|c| {
                let s = Series::new(
                    c.shown_label(),
                    c.means
                        .iter()
                        .map(|m| (m.offered_load, f(m).mean.max(floor)))
                        .collect(),
                )
                .with_hollow(c.means.iter().map(doubtful).collect());
                if c.means.iter().all(|m| f(m).ci95.is_some()) {
                    s.with_bars(
                        c.means
                            .iter()
                            .map(|m| {
                                let (x, h) = (f(m).mean, f(m).ci95.unwrap_or(0.0));
                                ((x - h).max(floor), (x + h).max(floor))
                            })
                            .collect(),
                    )
                } else {
                    s
                }
            })
            .collect()
    };
    let top = curves
        .iter()
        .flat_map(|c| c.means.iter().map(|m| m.offered_load))
        .fold(0.0f64, f64::max);
    let mut accepted = series(&|m| &m.accepted_load, 0.0);
    accepted.push(Series::reference(
        "accepted = offered",
        vec![(0.0, 0.0), (top, top)],
    ));
    let bounds: Vec<f64> = curves
        .iter()
        .filter_map(|c| c.channel_load_bound.map(|b| b.accepted_load))
        .collect();
    if bounds.len() == curves.len() && bounds.windows(2).all(|w| w[0] == w[1]) {
        if let Some(&b) = bounds.first() {
            accepted.push(Series::reference(
                format!("channel-load bound {b:.3}"),
                vec![(0.0, b), (top, b)],
            ));
        }
    }
    let x = load_axis_label(curves);
    let note = "hollow: saturated or not drained";
    Figure::new(
        "network: accepted traffic and latency against applied load",
        vec![
            Panel::new(
                "accepted traffic",
                Axis::new(x.clone(), Scale::Linear).from_zero(),
                Axis::new("accepted traffic (same scale)", Scale::Linear).from_zero(),
                accepted,
            )
            .with_hollow_note(note),
            Panel::new(
                "latency",
                Axis::new(x, Scale::Linear).from_zero(),
                Axis::new("mean latency (cycles)", Scale::Log10),
                series(&|m| &m.latency_mean_cycles, 1.0),
            )
            .with_hollow_note(note),
        ],
    )
}

/// What `network run` writes besides its summary.
pub struct RunOut<'a> {
    pub csv: Option<&'a Path>,
    pub packets: Option<&'a Path>,
    /// Per-channel figures as CSV (`net/channels.rs`), and in the JSON.
    pub channels: Option<&'a Path>,
    /// Latency against time in bins of this many cycles (`latency_bins.rs`).
    pub latency_bin: Option<u64>,
    /// ... and its plot.
    pub latency_plot: Option<&'a Path>,
    /// The HTML report of the network's state (`net/report.rs`), with a snapshot every this
    /// many cycles.
    pub report: Option<&'a Path>,
    pub report_every: u64,
}

/// `exanet network run --config FILE`: one configuration's statistics. Started by `mpirun`
/// (a binary built with the feature `mpi`), the ranks share the network (`netmpi.rs`).
pub fn run(config: Option<&Path>, json: bool, o: &RunOut) -> R {
    let over_mpi = super::this_process_over_mpi()?;
    if over_mpi
        && (o.latency_bin.is_some()
            || o.latency_plot.is_some()
            || o.report.is_some()
            || o.channels.is_some())
    {
        return Err(CliError::input(
            "--latency-bin, --latency-plot, --report, --channels: not over MPI ranks (they see \
             every node)",
        ));
    }
    if over_mpi {
        #[cfg(feature = "mpi")]
        return super::netmpi::run(config, json, o.csv, o.packets);
    }
    let cfg = load_config(config)?;
    check_out("--csv", o.csv, "csv")?;
    check_out("--packets", o.packets, "csv")?;
    check_plot_out("--latency-plot", o.latency_plot)?;
    check_out("--report", o.report, "html")?;
    check_out("--channels", o.channels, "csv")?;
    if o.report_every == 0 {
        return Err(CliError::input("--report-every 0: give 1 cycle or more"));
    }
    let bins = match (o.latency_bin, o.latency_plot) {
        (Some(0), _) => return Err(CliError::input("--latency-bin 0: a bin is 1 cycle or more")),
        (Some(b), _) => Some(LatencyBins::new(b)),
        (None, Some(_)) => {
            return Err(CliError::input(
                "--latency-plot: give the bin with --latency-bin CYCLES",
            ))
        }
        (None, None) => None,
    };
    let p = plan(&cfg).map_err(CliError::input)?;
    let csv_sink: Option<Box<dyn crate::net::packet_log::PacketSink>> = match o.packets {
        Some(path) => Some(Box::new(
            CsvSink::create(path, true, &packets_point(0, 0, cfg.net.load, cfg.sim.seed))
                .map_err(|e| CliError::input(format!("--packets: {e}")))?,
        )),
        None => None,
    };
    let sink: Option<Box<dyn crate::net::packet_log::PacketSink>> = match (csv_sink, &bins) {
        (Some(c), Some(b)) => Some(Box::new(Tee(c, Box::new(b.clone())))),
        (Some(c), None) => Some(c),
        (None, Some(b)) => Some(Box::new(b.clone())),
        (None, None) => None,
    };
    let log = sink.map(PacketLog::new);
    let progress = crate::progress::Progress::new(
        crate::net::setup::max_cycles(&cfg),
        "network run (cycles; the drain usually ends early)",
    );
    // the outputs drawn from the run are written after its results are printed, so that one
    // that cannot be written loses nothing else
    let mut drawn: Vec<Drawn> = Vec::new();
    let mut channels = Vec::new();
    let (s, log) = match (o.report, o.channels) {
        (None, None) => {
            run_logged(&cfg, &p, cfg.net.load, log, &progress).map_err(CliError::input)?
        }
        (None, Some(_)) => {
            let (s, log, net) = crate::net::setup::run_logged_with(
                &cfg,
                &p,
                cfg.net.load,
                log,
                crate::net::engine::PROGRESS_STEP,
                &mut |n| progress.set_position(n.cycle),
            )
            .map_err(CliError::input)?;
            channels = crate::net::channels::channels(&net);
            (s, log)
        }
        (Some(path), _) => {
            let mut snaps: Vec<crate::net::report::Snapshot> = Vec::new();
            let every = o.report_every;
            let (s, log, net) =
                crate::net::setup::run_logged_with(&cfg, &p, cfg.net.load, log, every, &mut |n| {
                    progress.set_position(n.cycle);
                    if snaps.last().is_none_or(|x| n.cycle >= x.cycle + every) {
                        snaps.push(crate::net::report::Snapshot::of(n));
                    }
                })
                .map_err(CliError::input)?;
            if o.channels.is_some() {
                channels = crate::net::channels::channels(&net);
            }
            if snaps.last().map(|x| x.cycle) != Some(net.cycle) {
                snaps.push(crate::net::report::Snapshot::of(&net));
            }
            let w = crate::net::setup::window(&cfg);
            let window = (w.start, w.end);
            let title = format!(
                "{} {} {} at load {}, seed {}{}",
                cfg.net.topology,
                cfg.net.routing,
                cfg.net.pattern,
                cfg.net.load,
                cfg.sim.seed,
                model_only_mark(cfg.net.routing.rtl_twin())
            );
            let data = crate::net::report::report_data(&net, title, window, snaps);
            drawn.push((
                "--report",
                path,
                crate::net::report::render_html(&data)
                    .map(String::into_bytes)
                    .map_err(|e| e.to_string()),
            ));
            (s, log)
        }
    };
    progress.finish();
    let mut latency_split = None;
    if let Some(l) = log {
        if o.packets.is_some() {
            latency_split = Some(l.split_means());
        }
        l.finish()
            .map_err(|e| CliError::input(format!("--packets: {e}")))?;
    }
    let over_time = bins.map_or(Vec::new(), |b| b.bins(p.topo.endpoints()));
    if let Some(path) = o.latency_plot {
        // the faults as the run planted them: the scheduled ones and those drawn from the seed
        let faults = crate::net::faults::resolve(
            p.topo.as_ref(),
            &cfg.net.faults,
            cfg.net.random_faults,
            cfg.sim.seed,
        )
        .map_err(CliError::input)?;
        let fig = latency_figure(&cfg, &faults, &over_time, s.cycles);
        let plot = crate::plot::render_for(path, &fig);
        drawn.push(("--latency-plot", path, plot.map_err(|e| e.to_string())));
    }
    if let Some(path) = o.channels {
        let text = super::output::csv_text(&channels).map_err(CliError::failed)?;
        std::fs::write(path, text)
            .map_err(|e| CliError::input(format!("--channels: {}: {e}", path.display())))?;
    }
    let extra = RunExtras {
        channels: match o.channels {
            Some(_) => {
                Some(serde_json::to_value(&channels).map_err(|e| CliError::failed(e.to_string()))?)
            }
            None => None,
        },
        latency_split,
    };
    let done = report_run(
        &cfg,
        p.topo.endpoints(),
        s,
        json,
        o.csv,
        None,
        &over_time,
        extra,
    )?;
    write_drawn(drawn)?;
    Ok(done)
}

/// What a run reports besides its summary, when asked: the per-channel figures (`--channels`)
/// and the latency split of the window's packets (`--packets`, `hop_times.rs`).
#[derive(Default)]
pub(super) struct RunExtras {
    pub channels: Option<Value>,
    pub latency_split: Option<crate::net::hop_times::SplitMeans>,
}

/// An output drawn from a run: the option that asked for it, its path, and its bytes or why it
/// could not be drawn.
pub type Drawn<'a> = (&'a str, &'a Path, Result<Vec<u8>, String>);

/// Write each output drawn from a run whose results are printed: (option, path, its text or
/// why it could not be drawn), and say on standard error where each went (its absolute path,
/// so that a report can be opened from anywhere). One that fails is an error naming it
/// (exit 1), the others written all the same.
pub fn write_drawn(drawn: Vec<Drawn>) -> Result<(), CliError> {
    let mut errors = Vec::new();
    for (opt, path, text) in drawn {
        let r = text.and_then(|t| std::fs::write(path, t).map_err(|e| e.to_string()));
        match r {
            Ok(()) => {
                let at = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
                eprintln!("{opt}: wrote {}", at.display());
            }
            Err(e) => errors.push(format!("{opt}: {}: {e}", path.display())),
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(CliError::failed(format!(
            "{} (the run's results are printed above)",
            errors.join("; ")
        )))
    }
}

/// Latency and delivered traffic against time, over the run's phases shaded: the warm-up and
/// the drain grey, the measurement window blue, each of the run's `faults` red and named in the
/// title (scheduled, or drawn by `net.random_faults`; `end`: the run's last cycle).
fn latency_figure(
    cfg: &Config,
    faults: &[crate::spec::faults::Fault],
    bins: &[LatencyBin],
    end: u64,
) -> Figure {
    let x = || Axis::new("time (cycles)", Scale::Linear).from_zero();
    let pts = |f: &dyn Fn(&LatencyBin) -> f64| {
        bins.iter()
            .filter(|b| b.packets > 0)
            .map(|b| (b.from_cycle as f64, f(b)))
            .collect::<Vec<_>>()
    };
    let mut title = format!(
        "{} {} at load {}{}",
        cfg.net.topology,
        cfg.net.routing,
        cfg.net.load,
        model_only_mark(cfg.net.routing.rtl_twin())
    );
    if !faults.is_empty() {
        let names: Vec<String> = faults.iter().map(|f| f.to_string()).collect();
        title += &format!(", faults {}", names.join(","));
    }
    let (w0, w1) = (
        cfg.net.warmup_cycles,
        cfg.net.warmup_cycles + cfg.net.measure_cycles,
    );
    let shade = |p: Panel| {
        use crate::plot::Shade;
        let mut p = p
            .with_shade(0.0, w0 as f64, "warm-up", Shade::Phase)
            .with_shade(w0 as f64, w1 as f64, "window", Shade::Measured)
            .with_shade(w1 as f64, end as f64, "drain", Shade::Phase);
        for f in faults {
            let up = f.up.unwrap_or(end).min(end);
            p = p.with_shade(f.down as f64, up as f64, format!("fault {f}"), Shade::Fault);
        }
        p
    };
    Figure::new(
        title,
        vec![
            shade(Panel::new(
                "latency of the packets delivered in each bin",
                x(),
                Axis::new("latency (cycles)", Scale::Linear).from_zero(),
                vec![
                    Series::new("mean", pts(&|b| b.latency_mean_cycles)),
                    Series::new("max", pts(&|b| b.latency_max_cycles as f64)),
                ],
            )),
            shade(Panel::new(
                "delivered traffic",
                x(),
                Axis::new("payload bytes / cycle / endpoint", Scale::Linear).from_zero(),
                vec![Series::new(
                    "delivered",
                    pts(&|b| b.bytes_per_cycle_per_endpoint),
                )],
            )),
        ],
    )
}

/// The output of `network run`: its summary as JSON, CSV or text; `mpi_world_size`, the ranks
/// that ran it (JSON and text).
#[allow(clippy::too_many_arguments)]
pub(super) fn report_run(
    cfg: &Config,
    endpoints: usize,
    s: Summary,
    json: bool,
    csv: Option<&Path>,
    mpi_world_size: Option<usize>,
    over_time: &[LatencyBin],
    extra: RunExtras,
) -> R {
    record_routings(&[cfg.net.routing]);
    let row = PointRow {
        topology: cfg.net.topology.to_string(),
        routing: cfg.net.routing.to_string(),
        routing_rtl_twin: cfg.net.routing.rtl_twin(),
        vary: Map::new(),
        seed: cfg.sim.seed,
        summary: s,
    };
    if let Some(path) = csv {
        write_csv(path, std::slice::from_ref(&row))?;
    }
    if json {
        let mut v = serde_json::to_value(&row).map_err(|e| CliError::failed(e.to_string()))?;
        let losses = serde_json::to_value(&row.summary.link_losses)
            .map_err(|e| CliError::failed(e.to_string()))?;
        if let Value::Object(m) = &mut v {
            m.insert("link_losses".into(), losses);
            if !over_time.is_empty() {
                let v =
                    serde_json::to_value(over_time).map_err(|e| CliError::failed(e.to_string()))?;
                m.insert("latency_over_time".into(), v);
            }
            if let Some(n) = mpi_world_size {
                m.insert("mpi_world_size".into(), Value::from(n));
            }
            if let Some(c) = extra.channels {
                m.insert("channels".into(), c);
            }
            if let Some(x) = &extra.latency_split {
                let v = serde_json::to_value(x).map_err(|e| CliError::failed(e.to_string()))?;
                m.insert("latency_split".into(), v);
            }
        }
        return json_out(&v);
    }
    let s = &row.summary;
    println!(
        "{} {} {} {}, load {} ({} endpoints{})",
        cfg.net.topology,
        cfg.net.routing,
        cfg.net.pattern,
        cfg.net.injection,
        cfg.net.load,
        endpoints,
        mpi_world_size.map_or(String::new(), |n| format!(", {n} MPI ranks"))
    );
    println!("  routing              {}", cfg.net.routing.provenance());
    println!(
        "  offered load         {:.4} (as the sources drew it; {:.4} configured)",
        s.generated_load, s.offered_load
    );
    println!("  injected load        {:.4}", s.injected_load);
    println!(
        "  accepted load        {:.4}{}",
        s.accepted_load,
        if s.saturated {
            format!(
                "  saturated: short of the offered load, or the source queues grew by {} \
                 packets (net.saturation_margin)",
                s.source_queue_growth_packets
            )
        } else {
            String::new()
        }
    );
    println!(
        "  network latency      mean {:.1} cycles ({:.1} ns), std {:.1}, p50 {}, p99 {}, max {}",
        s.latency_mean_cycles,
        s.latency_mean_ns,
        s.latency_std_cycles,
        s.latency_p50_cycles,
        s.latency_p99_cycles,
        s.latency_max_cycles
    );
    if s.packet_latency_max_cycles > 0 {
        println!(
            "  packet latency       mean {:.1} cycles (source queue {:.1} + network {:.1}), p50 {}, \
             p99 {}, max {}",
            s.packet_latency_mean_cycles,
            s.source_queue_mean_cycles,
            s.packet_latency_mean_cycles - s.source_queue_mean_cycles,
            s.packet_latency_p50_cycles,
            s.packet_latency_p99_cycles,
            s.packet_latency_max_cycles
        );
    }
    if let Some(x) = &extra.latency_split {
        println!(
            "  latency split        mean {:.1} cycles in routers ({:.1} a router) + {:.1} on links \
             ({:.1} a link; {:.1} of the {:.1} before the TX started the packet) + {:.1} ejection, \
             over {} packets{}",
            x.router_mean_cycles,
            x.per_router_mean_cycles,
            x.link_mean_cycles,
            x.per_link_mean_cycles,
            x.link_wait_mean_cycles,
            x.link_mean_cycles,
            x.ejection_mean_cycles,
            x.packets,
            if x.packets_without_split > 0 {
                format!(" ({} more without: a hop not seen)", x.packets_without_split)
            } else {
                String::new()
            }
        );
    }
    println!(
        "  packets              {} injected in the window, {} delivered, {} lost{}, {} still in \
         flight{}",
        s.packets_injected,
        s.packets_delivered,
        s.packets_lost,
        lost_split(s),
        s.packets_in_flight,
        if s.stable { "" } else { " *" }
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
    print_accounting(&s.accounting);
    if let Some(f) = &s.faults {
        print_faults(&s.accounting, f);
    }
    print_prediction(&s.accounting, &s.ber_prediction);
    print_link_losses(&s.link_losses);
    if !over_time.is_empty() {
        println!("  latency against time (bins of the delivery cycle)");
        println!("      from cycle   packets   mean latency   max latency   bytes/cycle/endpoint");
        for b in over_time {
            println!(
                "    {:>12} {:>9} {:>14.1} {:>13} {:>22.4}",
                b.from_cycle,
                b.packets,
                b.latency_mean_cycles,
                b.latency_max_cycles,
                b.bytes_per_cycle_per_endpoint
            );
        }
    }
    println!("  cycles {}, statistics hash {}", s.cycles, s.stats_hash);
    if !s.stable {
        println!("{UNSTABLE_LEGEND}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Where the window's lost packets went, " (...)" when any was lost.
fn lost_split(s: &Summary) -> String {
    let parts: Vec<String> = [
        (s.packets_dropped, "dropped by routers"),
        (s.packets_lost_on_failed_links, "on failed links"),
        (s.packets_lost_to_bit_errors, "to bit errors"),
        (s.packets_lost_at_dead_nodes, "at dead nodes"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// Where every packet of the run is, and, when bit errors hit, what they did on the links.
fn print_accounting(a: &crate::net::account::PacketAccount) {
    println!(
        "  every packet         {} injected = {} delivered intact + {} CRC-failed + {} discarded \
         by links + {} dropped by routers{} + {} in flight ({} of them on links)",
        a.injected,
        a.delivered_intact,
        a.crc_failed,
        a.discarded,
        a.dropped,
        if a.lost_at_dead_nodes > 0 || a.lost_on_failed_links != 0 {
            format!(
                " + {} lost at dead nodes + {} lost on failed links",
                a.lost_at_dead_nodes, a.lost_on_failed_links
            )
        } else {
            String::new()
        },
        a.in_flight,
        a.in_flight_on_links
    );
    if a.beats_hit > 0 {
        println!(
            "  bit errors           {} bits in {} beats; headers {} corrected, {} uncorrectable; \
             discarded {} at a bad header, {} framing lost, {} to the next Start; {} link CRC \
             failures; {} credits rejected, {} cycles stalled for credit; {} stray beats",
            a.bits_flipped,
            a.beats_hit,
            a.headers_corrected,
            a.headers_uncorrectable,
            a.discarded_header,
            a.discarded_framing,
            a.discarded_resync,
            a.link_crc_errors,
            a.credits_rejected,
            a.credit_stall_cycles,
            a.beats_dropped
        );
    }
}

/// What the faults did (`net/faults.rs`): where the packets they cost went, and the splits.
fn print_faults(a: &crate::net::account::PacketAccount, f: &crate::net::engine::FaultSummary) {
    println!(
        "  faults               {} planted ({} events); {} ports marked down, {} routing \
         updates; dropped {} with no route, {} unreachable; {} lost on failed links ({} beats), \
         {} at dead nodes; {} not sent by dead nodes",
        f.planted,
        f.events,
        f.ports_marked_down,
        f.reroutes,
        a.dropped_no_route,
        a.dropped_unreachable,
        a.lost_on_failed_links,
        a.beats_lost_on_failed_links,
        a.lost_at_dead_nodes,
        a.not_sent_at_dead_nodes
    );
    for sp in &f.splits {
        println!(
            "  split network        from cycle {}: {} (endpoints of one group cannot reach the \
             other's)",
            sp.at,
            sp.describe()
        );
    }
}

/// The run's fractions of finished packets (not in flight) beside what SECDED and the CRC
/// predict (`ber_model.rs`), when the run has bit errors and the formula applies.
fn print_prediction(
    a: &crate::net::account::PacketAccount,
    p: &crate::net::ber_model::BerPrediction,
) {
    let done = a.injected as f64 - a.in_flight as f64;
    if a.beats_hit == 0 || p.ber.is_nan() || done <= 0.0 {
        return;
    }
    let pct = |x: f64| 100.0 * x;
    println!(
        "  vs SECDED and CRC    measured {:.4} % intact, {:.4} % CRC-failed, {:.4} % discarded or \
         dropped; predicted at ber {:e} over {:.2} links {:.4} %, {:.4} %, {:.4} %",
        pct(a.delivered_intact as f64 / done),
        pct(a.crc_failed as f64 / done),
        pct((a.discarded + a.dropped) as f64 / done),
        p.ber,
        p.mean_hops,
        pct(p.intact),
        pct(p.crc_failed),
        pct(p.discarded)
    );
}

/// The links that lost the most packets (all of them in the JSON).
fn print_link_losses(l: &[crate::net::account::LinkLoss]) {
    const SHOWN: usize = 5;
    if l.is_empty() {
        return;
    }
    let lost = |x: &crate::net::account::LinkLoss| {
        x.discarded_header + x.discarded_framing + x.discarded_resync
    };
    let mut worst: Vec<_> = l.iter().collect();
    worst.sort_by_key(|x| {
        (
            std::cmp::Reverse(lost(x)),
            std::cmp::Reverse(x.crc_failed),
            x.to,
            x.to_port,
        )
    });
    println!(
        "  links hit            {} links discarded packets or failed a CRC check; the worst{}:",
        l.len(),
        if l.len() > SHOWN {
            format!(" {SHOWN} (all in --json)")
        } else {
            String::new()
        }
    );
    for x in worst.iter().take(SHOWN) {
        println!(
            "                       node {} port {} -> node {} port {}: {} discarded, {} CRC checks failed",
            x.from,
            x.from_port,
            x.to,
            x.to_port,
            lost(x),
            x.crc_failed
        );
    }
}

/// `case` with the warm-up and timed cycles of `cycles` where given (`--warmup`, `--cycles`).
pub fn with_cycles(case: &Case, cycles: (Option<u64>, Option<u64>)) -> Case {
    Case {
        warmup: cycles.0.unwrap_or(case.warmup),
        cycles: cycles.1.unwrap_or(case.cycles),
        ..*case
    }
}

/// The command line of `bench network`'s child for one case: the case, its cycles, and the
/// parent's configuration (file and `--set`s), so that the child runs what the parent was
/// asked to.
fn bench_child_args(
    case: &Case,
    config: Option<&Path>,
    sets: &[Assignment],
    threads: u32,
) -> Vec<std::ffi::OsString> {
    let mut v: Vec<std::ffi::OsString> = ["bench", "network", "--json", "--case", case.name]
        .iter()
        .map(Into::into)
        .collect();
    v.push("--warmup".into());
    v.push(case.warmup.to_string().into());
    v.push("--cycles".into());
    v.push(case.cycles.to_string().into());
    push_config_args(&mut v, config, sets);
    v.push("--set".into());
    v.push(format!("net.threads={threads}").into());
    v
}

/// The caller's configuration, handed on to a child process: `--config FILE` and every
/// `--set`, in order.
pub(crate) fn push_config_args(
    v: &mut Vec<std::ffi::OsString>,
    config: Option<&Path>,
    sets: &[Assignment],
) {
    if let Some(p) = config {
        v.push("--config".into());
        v.push(p.into());
    }
    for a in sets {
        v.push("--set".into());
        v.push(format!("{}={}", a.key, a.value).into());
    }
}

/// `exanet bench network`: every case in a child process of its own (`--case`), or one case
/// here; started by `mpirun` (a binary built with the feature `mpi`), one case shared by the
/// ranks (`netmpi.rs`).
///
/// `cycles`: the warm-up and timed cycles of every case, when given (else the case's own).
pub fn bench_network(
    config: Option<&Path>,
    json: bool,
    cycles: (Option<u64>, Option<u64>),
    case: Option<&str>,
    threads: Option<u32>,
    repeat: u32,
) -> R {
    use crate::net::bench::{run_case, CaseResult, NetBenchReport, Speedup, CASES};
    if super::this_process_over_mpi()? {
        // (`--threads` conflicts with `--case`, which the ranks need)
        let _ = (threads, repeat);
        #[cfg(feature = "mpi")]
        return super::netmpi::bench(config, json, cycles, case);
    }
    let mut cfg = load_config(config)?;
    if cfg.net.threads == 0 {
        // the benchmark's figures are one thread's unless net.threads says otherwise
        cfg.net.threads = 1;
    }
    if cycles.1 == Some(0) {
        return Err(CliError::input("--cycles: must be at least 1"));
    }
    let with_cycles = |c: &Case| with_cycles(c, cycles);
    if let Some(name) = case {
        let c = super::find_case(&CASES, name, |c| c.name)?;
        let r = run_case(&cfg, &with_cycles(c)).map_err(CliError::input)?;
        if json {
            return json_out(&r);
        }
        print!("{}", NetBenchReport::new(vec![r], Vec::new()));
        return Ok(ExitCode::SUCCESS);
    }
    let sets = super::overrides();
    let exe = std::env::current_exe()
        .map_err(|e| CliError::failed(format!("cannot find this program to rerun it: {e}")))?;
    let child = |c: &Case, threads: u32| -> Result<CaseResult, CliError> {
        if !json {
            eprintln!(
                "  running {} ({}, load {}, {} + {} cycles, {threads} thread{})...",
                c.name,
                c.topology,
                c.load,
                c.warmup,
                c.cycles,
                if threads == 1 { "" } else { "s" }
            );
        }
        let mut cmd = std::process::Command::new(&exe);
        cmd.args(bench_child_args(c, config, &sets, threads));
        let out = super::bench_child(&mut cmd, c.name)?;
        serde_json::from_slice(&out)
            .map_err(|e| CliError::failed(format!("case {}: unreadable result: {e}", c.name)))
    };
    let mut results: Vec<CaseResult> = Vec::new();
    let mut speedups = Vec::new();
    for c in CASES.iter() {
        let c = with_cycles(c);
        match threads {
            None | Some(1) => results.push(child(&c, 1)?),
            Some(n) => {
                // alternately, so that a burst of the shared machine's load slows one sample
                let (mut one, mut many) = (Vec::new(), Vec::new());
                for _ in 0..repeat.max(1) {
                    one.push(child(&c, 1)?);
                    many.push(child(&c, n)?);
                }
                speedups.extend(Speedup::new(&one, &many));
                results.push(
                    one.into_iter()
                        .min_by(|a, b| a.cpu_seconds.total_cmp(&b.cpu_seconds))
                        .expect("one run at least"),
                );
            }
        }
    }
    let rep = NetBenchReport::new(results, speedups);
    if json {
        return json_out(&rep);
    }
    print!("{rep}");
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_children_get_the_configuration_file_and_the_sets() {
        let sets: Vec<Assignment> = ["net.sizes=16", "link.credit.period_cycles=20"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let case = Case {
            warmup: 3,
            cycles: 7,
            ..crate::net::bench::CASES[0]
        };
        let args = bench_child_args(&case, Some(Path::new("my.toml")), &sets, 1);
        let text: Vec<String> = args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            text,
            [
                "bench",
                "network",
                "--json",
                "--case",
                "torus32-10",
                "--warmup",
                "3",
                "--cycles",
                "7",
                "--config",
                "my.toml",
                "--set",
                "net.sizes=16",
                "--set",
                "link.credit.period_cycles=20",
                "--set",
                "net.threads=1"
            ]
        );
        // each passed-on assignment reads back as the one given
        let back: Vec<Assignment> = text
            .iter()
            .skip_while(|a| *a != "--set")
            .filter(|a| *a != "--set")
            .map(|a| a.parse().unwrap())
            .collect();
        assert_eq!(back[..2], sets[..]);
        assert_eq!(back[2], "net.threads=1".parse().unwrap());
        let bare = bench_child_args(&crate::net::bench::CASES[2], None, &[], 2);
        assert_eq!(bare.len(), 11);
        assert_eq!(bare[5..9], ["--warmup", "4000", "--cycles", "1000"]);
        assert_eq!(bare[10], "net.threads=2");
    }

    #[test]
    fn curve_labels_carry_the_varied_values() {
        let mut vary = Map::new();
        vary.insert("link.credit.period_cycles".into(), Value::from(20));
        vary.insert("net.pattern".into(), Value::from("transpose"));
        assert_eq!(
            label("torus:4x4", "ecube", &vary),
            "torus:4x4 ecube link.credit.period_cycles=20 net.pattern=transpose"
        );
        assert_eq!(label("mesh:4x4", "ecube", &Map::new()), "mesh:4x4 ecube");
    }

    #[test]
    fn a_field_value_is_read_typed_from_the_configuration() {
        let mut c = Config::default();
        c.link.credit.period_cycles = 35;
        assert_eq!(
            field_value(&c, "link.credit.period_cycles"),
            Value::from(35)
        );
        assert_eq!(field_value(&c, "net.topology"), Value::from("torus:4x4"));
        assert_eq!(field_value(&c, "net.load"), Value::from(0.1));
    }
}
