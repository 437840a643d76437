//! `exanet model latency`: the analytic M/G/1 model of a 2-D torus (`model/torus_mg1.rs`) at a
//! range of generation rates, with the standard bounds beside it (`model/bounds.rs`).

use super::{json_out, load_config, CliError, R};
use crate::model::bounds::{ideal_load, zero_load_uniform};
use crate::model::torus_mg1::{ModelIn, ModelPoint};
use crate::spec::TopologySpec;
use serde::Serialize;

pub struct LatencyArgs<'a> {
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
    let t = a.topology.build().map_err(CliError::input)?;
    let payload_bytes = 16 * a.size;
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
            zero_load_cycles: zero_load_uniform(
                t.as_ref(),
                a.size as u64 + 2,
                cfg.link.phy.latency_cycles as u64,
            ),
            ideal_load: ideal_load(k, payload_bytes.min(4096)),
        },
    };
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
