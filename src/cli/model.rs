//! `exanet model latency`: the analytic M/G/1 model of a 2-D torus (`model/torus_mg1.rs`) at a
//! range of generation rates, with the standard bounds beside it (`model/bounds.rs`).

use super::{json_out, load_config, CliError, R};
use crate::model::bounds::{ideal_load, zero_load_uniform};
use crate::model::torus_mg1::{ModelIn, ModelPoint};
use crate::net::confidence::MeanCi;
use crate::spec::TopologySpec;
use serde::Serialize;

/// `--against-sim`: the matching simulations.
pub struct AgainstSim<'a> {
    pub seeds: &'a str,
    pub jobs: usize,
    pub plot: Option<&'a std::path::Path>,
}

pub struct LatencyArgs<'a> {
    pub against: Option<AgainstSim<'a>>,
    /// Options of `--against-sim` given without it (`--plot`, `--seeds`, `--jobs`).
    pub stray: Option<&'static str>,
    pub config: Option<&'a std::path::Path>,
    pub json: bool,
    pub topology: &'a TopologySpec,
    pub vcs: u32,
    /// Message length, flits.
    pub size: u32,
    pub scouting: u32,
    /// Generation rates, messages a cycle a node: a list; None: 20 up to the saturation.
    pub rates: Option<&'a str>,
}

/// The bounds beside the model, for the ExaNet network of the same torus carrying messages of
/// `size` flits as packets of `size` 16-byte payload words (decision 0033).
#[derive(Debug, Serialize)]
struct Bounds {
    /// Payload bytes of the packet a message is mapped to, and its words with header and
    /// footer.
    payload_bytes: u32,
    packet_words: u32,
    /// Mean zero-load latency of uniform traffic, cycles of the ExaNet clock.
    zero_load_cycles: f64,
    /// The ideal accepted load (8 b / k), a fraction of the injection bandwidth.
    ideal_load: f64,
}

#[derive(Debug, Serialize)]
struct Report {
    topology: String,
    k: u32,
    vcs: u32,
    flits: u32,
    scouting: u32,
    /// The largest rate the model gives a latency for, and the channel bound 8 / (k M)
    /// (messages a cycle a node, flit cycles).
    saturation_rate: f64,
    channel_bound_rate: f64,
    points: Vec<ModelPoint>,
    exanet: Bounds,
}

fn parse_rates(s: &str) -> Result<Vec<f64>, CliError> {
    s.split(',')
        .map(|x| {
            let v: f64 = x.trim().parse().map_err(|_| {
                CliError::input(format!("--rates {s}: '{}' is not a number", x.trim()))
            })?;
            if !(v > 0.0 && v <= 1.0) {
                return Err(CliError::input(format!(
                    "--rates {s}: {v} is outside (0, 1] messages a cycle a node"
                )));
            }
            Ok(v)
        })
        .collect()
}

pub fn latency(a: &LatencyArgs) -> R {
    if let Some(opt) = a.stray {
        return Err(CliError::input(format!(
            "{opt}: an option of the comparison with the simulation; give --against-sim too"
        )));
    }
    let cfg = load_config(a.config)?;
    let k = match a.topology {
        TopologySpec::Torus(s) if s.wrap && s.size.len() == 2 && s.size[0] == s.size[1] => {
            s.size[0] as u32
        }
        t => {
            return Err(CliError::input(format!(
                "--topology {t}: the model is of a square 2-D torus, torus:KxK"
            )))
        }
    };
    let m = ModelIn {
        k,
        vcs: a.vcs,
        flits: a.size,
        scouting: a.scouting,
    };
    m.check()
        .map_err(|e| CliError::input(format!("model: {e}")))?;
    let sat = m.saturation();
    let rates = match a.rates {
        Some(s) => parse_rates(s)?,
        None => (1..=20).map(|i| sat * i as f64 / 20.0 * 0.99).collect(),
    };
    let t: std::sync::Arc<dyn crate::net::topology::Topology> =
        a.topology.build().map_err(CliError::input)?.into();
    let payload_bytes = 16 * a.size;
    if payload_bytes > 4096 {
        return Err(CliError::input(format!(
            "--size {}: the ExaNet packet of M 16-byte words carries at most 256 (4096 bytes)",
            a.size
        )));
    }
    let r = Report {
        topology: a.topology.to_string(),
        k,
        vcs: a.vcs,
        flits: a.size,
        scouting: a.scouting,
        saturation_rate: sat,
        channel_bound_rate: 8.0 / (k as f64 * a.size as f64),
        points: rates.iter().map(|&x| m.at(x)).collect(),
        exanet: Bounds {
            payload_bytes,
            packet_words: a.size + 2,
            zero_load_cycles: zero_load_uniform(&cfg, t.clone(), payload_bytes)
                .map_err(CliError::failed)?,
            ideal_load: ideal_load(k, payload_bytes),
        },
    };
    if let Some(sim) = &a.against {
        return against_sim(a, sim, &cfg, &m, r);
    }
    if a.json {
        return json_out(&r);
    }
    println!(
        "M/G/1 model (Safaei et al.), {} ({k}-ary 2-cube), V = {}, M = {} flits, K = {}",
        r.topology, r.vcs, r.flits, r.scouting
    );
    println!(
        "  saturation           {:.6} messages/cycle/node (channel bound 8/(kM) = {:.6})",
        r.saturation_rate, r.channel_bound_rate
    );
    println!(
        "  ExaNet bounds        {} B packets ({} words): zero-load latency {:.1} cycles (uniform), \
         ideal accepted load {:.4}",
        r.exanet.payload_bytes,
        r.exanet.packet_words,
        r.exanet.zero_load_cycles,
        r.exanet.ideal_load
    );
    println!("        rate (msg/cycle)   latency   network S   source wait W   VC mux V   channel rate   P(all VCs busy)");
    for p in &r.points {
        match p.latency {
            Some(l) => println!(
                "    {:>18.6} {:>9.1} {:>11.1} {:>14.2} {:>10.3} {:>14.6} {:>17.4}",
                p.rate,
                l,
                p.network_latency,
                p.source_wait,
                p.vc_multiplexing,
                p.channel_rate,
                p.all_vcs_busy
            ),
            None => println!("    {:>18.6}   saturated", p.rate),
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// Cycles a 16-byte word (the model's flit) takes on the lane: its bytes over the lane's 64-bit
/// beat, one beat a cycle.
pub const CYCLES_PER_WORD: f64 = (crate::units::WORD_BYTES / crate::units::BEAT_BYTES) as f64;

/// One utilisation of the comparison: the model and the simulation there.
#[derive(Debug, Serialize)]
struct VersusPoint {
    /// Channel utilisation: the fraction of a channel's bandwidth the traffic takes on
    /// average (uniform traffic spreads it evenly over the 4 channels of a node).
    utilisation: f64,
    /// The model's rate there and its latency, flit cycles, and over its zero-load latency.
    model_rate: f64,
    model_latency: Option<f64>,
    model_relative: Option<f64>,
    /// The model's latency above its zero-load latency, flit times.
    model_extra: Option<f64>,
    /// The simulation's offered load there (a fraction of the injection bandwidth), its
    /// accepted load, and its mean latency (ExaNet cycles) and over its zero-load latency,
    /// over the seeds; runs that delivered every window packet.
    sim_load: f64,
    sim_accepted: MeanCi,
    sim_latency: MeanCi,
    sim_relative: MeanCi,
    /// The simulation's latency above its zero-load latency, in flit times: a 16-byte word
    /// takes `CYCLES_PER_WORD` cycles on the 64-bit lane.
    sim_extra: MeanCi,
    sim_stable_runs: usize,
}

#[derive(Debug, Serialize)]
struct Versus {
    model: Report,
    /// The routing simulated, its VCs, the payload of its packets, and its zero-load latency.
    sim_routing: String,
    sim_vcs: u32,
    sim_payload_bytes: u32,
    sim_zero_load_cycles: f64,
    seeds: Vec<u64>,
    points: Vec<VersusPoint>,
}

/// The simulation of the model's case (decision 0033): the same torus, uniform traffic,
/// packets of M 16-byte payload words, minimal fully adaptive routing with an e-cube escape
/// over V VCs (`min-adapt`; e-cube, deterministic, for V < 3, which leaves no adaptive VC), at
/// the loads that give the channels the utilisations of the model's rates; both latencies
/// over their own zero-load latency.
fn against_sim(
    a: &LatencyArgs,
    sim: &AgainstSim,
    cfg: &crate::config::Config,
    m: &ModelIn,
    r: Report,
) -> R {
    use super::netsweep::{check_jobs, parse_seeds, run_pool};
    use crate::net::setup::{plan, run_logged};
    use crate::spec::RoutingSpec;
    super::output::check_plot_out("--plot", sim.plot)?;
    let seeds = parse_seeds(sim.seeds)?;
    let jobs = check_jobs(sim.jobs)?;
    use crate::net::routing::star_channel::MIN_ADAPT_VCS;
    let (routing, vcs) = if a.vcs >= *MIN_ADAPT_VCS.start() {
        (RoutingSpec::MinAdapt, a.vcs.min(*MIN_ADAPT_VCS.end()))
    } else {
        (RoutingSpec::Ecube, 2)
    };
    let payload = 16 * a.size;
    let t = a.topology.build().map_err(CliError::input)?;
    let hops =
        crate::net::ber_model::mean_hops(&crate::net::ber_model::hop_distribution(t.as_ref()));
    let eta = crate::measure::efficiency::formula(payload, 0.0, 0.0, 0.0);
    let z_sim = r.exanet.zero_load_cycles;
    // the model's zero-load latency, in its units
    let z_model = m.at(1e-12).latency.unwrap_or(f64::NAN);
    let d = (m.k / 2) as f64;
    // utilisation of the model at rate l: l M D / 4; of the simulation at load L: L D_sim / (4 eta)
    let rho_sat = r.saturation_rate * m.flits as f64 * d / 4.0;
    let fractions = [0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 0.95];
    let rhos: Vec<f64> = fractions.iter().map(|f| f * rho_sat).collect();
    let loads: Vec<f64> = rhos
        .iter()
        .map(|rho| (rho * 4.0 * eta / hops).min(1.0))
        .collect();
    let runs: Vec<(usize, u64)> = (0..loads.len())
        .flat_map(|i| seeds.iter().map(move |&s| (i, s)))
        .collect();
    let mut base = cfg.clone();
    base.net.topology = a.topology.clone();
    base.net.routing = routing;
    base.net.adaptive_vcs = vcs.max(*MIN_ADAPT_VCS.start());
    base.net.pattern = crate::spec::PatternSpec::Uniform;
    base.net.sizes = crate::spec::SizeDist::Fixed(payload);
    if jobs > 1 && base.net.threads == 0 {
        base.net.threads = 1;
    }
    let work = |i: usize| -> Result<crate::net::stats::Summary, CliError> {
        let (k, seed) = runs[i];
        let mut c = base.clone();
        c.net.load = loads[k];
        c.sim.seed = seed;
        c.validate()?;
        let p = plan(&c).map_err(CliError::input)?;
        run_logged(
            &c,
            &p,
            c.net.load,
            None,
            &crate::progress::Progress::hidden(),
        )
        .map(|x| x.0)
        .map_err(CliError::input)
    };
    let bar = crate::progress::Progress::new(runs.len() as u64, "model against simulation (runs)");
    let mut done = |_: usize, _: &Result<crate::net::stats::Summary, CliError>| bar.inc(1);
    let sums = run_pool(runs.len(), jobs, &work, &mut done)?;
    bar.finish();
    let n = seeds.len();
    let points: Vec<VersusPoint> = rhos
        .iter()
        .enumerate()
        .map(|(i, &rho)| {
            let s = &sums[i * n..(i + 1) * n];
            let of = |f: &dyn Fn(&crate::net::stats::Summary) -> f64| {
                MeanCi::of(&s.iter().map(f).collect::<Vec<_>>())
            };
            let rate = rho * 4.0 / (m.flits as f64 * d);
            let lat = m.at(rate).latency;
            VersusPoint {
                utilisation: rho,
                model_rate: rate,
                model_latency: lat,
                model_relative: lat.map(|l| l / z_model),
                model_extra: lat.map(|l| l - z_model),
                sim_load: loads[i],
                sim_accepted: of(&|x| x.accepted_load),
                sim_latency: of(&|x| x.latency_mean_cycles),
                sim_relative: of(&|x| x.latency_mean_cycles / z_sim),
                sim_extra: of(&|x| (x.latency_mean_cycles - z_sim) / CYCLES_PER_WORD),
                sim_stable_runs: s.iter().filter(|x| x.stable).count(),
            }
        })
        .collect();
    let v = Versus {
        sim_routing: routing.to_string(),
        sim_vcs: vcs,
        sim_payload_bytes: payload,
        sim_zero_load_cycles: z_sim,
        seeds,
        points,
        model: r,
    };
    if let Some(path) = sim.plot {
        crate::plot::write_plot(path, &versus_figure(&v))
            .map_err(|e| CliError::failed(format!("--plot: {e}")))?;
    }
    if a.json {
        return json_out(&v);
    }
    println!(
        "M/G/1 model (Safaei et al.) against simulation: {}, V = {}, M = {} flits; simulated: {} \
         over {} VCs, {} B packets, seeds {:?}",
        v.model.topology,
        v.model.vcs,
        v.model.flits,
        v.sim_routing,
        v.sim_vcs,
        v.sim_payload_bytes,
        v.seeds
    );
    println!(
        "  zero-load latency    model {:.1} flit cycles, simulation {:.1} cycles (the latencies below are over these)",
        z_model, z_sim
    );
    println!("    utilisation   model rate   model latency (x zero-load) [+flit times]   sim load   sim accepted   sim latency (x zero-load, ± 95 %) [+flit times ± 95 %]   stable");
    for p in &v.points {
        let ci = |m: &MeanCi, prec: usize| m.ci95.map_or("-".into(), |c| format!("{c:.prec$}"));
        println!(
            "    {:>11.3}   {:>10.6}   {:>13} {:>9} {:>9}   {:>8.4}   {:>12.4}   {:>9.1} ({:.3} ± {}) [{:+.1} ± {}]   {}/{}",
            p.utilisation,
            p.model_rate,
            p.model_latency.map_or("saturated".into(), |l| format!("{l:.1}")),
            p.model_relative.map_or(String::new(), |x| format!("({x:.3})")),
            p.model_extra.map_or(String::new(), |x| format!("[{x:+.1}]")),
            p.sim_load,
            p.sim_accepted.mean,
            p.sim_latency.mean,
            p.sim_relative.mean,
            ci(&p.sim_relative, 3),
            p.sim_extra.mean,
            ci(&p.sim_extra, 1),
            p.sim_stable_runs,
            v.seeds.len()
        );
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// Against channel utilisation: latency over zero-load latency, and latency above zero-load
/// latency in flit times; the model a line, the simulation's means and their 95 % intervals.
fn versus_figure(v: &Versus) -> crate::plot::Figure {
    use crate::plot::{Axis, Figure, Panel, Scale, Series};
    let panel = |title: &str,
                 y: &str,
                 model: &dyn Fn(&VersusPoint) -> Option<f64>,
                 sim: &dyn Fn(&VersusPoint) -> &MeanCi| {
        let m: Vec<(f64, f64)> = v
            .points
            .iter()
            .filter_map(|p| model(p).map(|y| (p.utilisation, y)))
            .collect();
        let s = |d: f64| {
            v.points
                .iter()
                .map(|p| {
                    let c = sim(p);
                    (p.utilisation, c.mean + d * c.ci95.unwrap_or(0.0))
                })
                .collect::<Vec<_>>()
        };
        Panel::new(
            title,
            Axis::new("channel utilisation", Scale::Linear),
            Axis::new(y, Scale::Linear),
            vec![
                Series::new("M/G/1 model", m),
                Series::new("simulation, mean", s(0.0)),
                Series::new("simulation, + 95 % interval", s(1.0)),
                Series::new("simulation, - 95 % interval", s(-1.0)),
            ],
        )
    };
    Figure::new(
        format!(
            "{}, V = {}, M = {} flits: model against {} ({} seeds)",
            v.model.topology,
            v.model.vcs,
            v.model.flits,
            v.sim_routing,
            v.seeds.len()
        ),
        vec![
            panel(
                "latency over zero-load latency",
                "latency / zero-load latency",
                &|p| p.model_relative,
                &|p| &p.sim_relative,
            ),
            panel(
                "latency above zero load",
                "flit times",
                &|p| p.model_extra,
                &|p| &p.sim_extra,
            ),
        ],
    )
}
