//! A run of an SPMD program on a network: the network of `[net]` (topology, routing, the same
//! nodes and links as every network run) with the program's ranks on its endpoints' NICs
//! instead of synthetic traffic, clocked until every rank's program has returned.
//!
//! The run ends in one of three ways: every rank finished (the run time is the cycle the last
//! one did); a deadlock: the network holds no packet, no rank can run before one arrives, and
//! some rank still waits (the report says which ranks wait for what); or `app.max_cycles`
//! passed. The checks happen every [`CHECK_STEP`] cycles; where they happen does not change
//! what is simulated (the ranks' finishing cycles are their own).

use super::calls::CallLog;
use super::endpoint::{AppEndpoint, LatencyBin, Shared};
use super::envelope::{ENVELOPE_BYTES, MAX_RANKS};
use super::mpi::Proto;
use super::record::{collect, Timeline};
use super::Program;
use crate::config::Config;
use crate::net::engine::Network;
use crate::net::setup;
use crate::progress::Progress;
use crate::spec::{Injection, SizeDist};
use std::sync::Arc;

/// Cycles between two checks for the end of a run.
pub const CHECK_STEP: u64 = 1024;

/// Why a run did not finish.
#[derive(Debug, Clone, PartialEq)]
pub enum RunError {
    /// A bad configuration, placement or program (exit 2).
    Input(String),
    /// Every rank that has not finished waits for a message no rank will send (exit 1).
    Deadlock {
        /// The check that found it.
        cycle: u64,
        /// The last cycle a rank ran or a packet arrived: the ranks stopped progressing after it.
        stopped: u64,
        /// What each blocked rank waits for.
        waiting: Vec<(u32, String)>,
        /// Per rank, the messages that arrived and that no receive took: (source, tag, bytes).
        unreceived: Vec<(u32, Vec<crate::app::mpi::Unreceived>)>,
        /// Per waiting rank, the messages a wildcard receive took that what it waits for
        /// matches, and whether some takes were not kept (`mpi::WILDCARD_KEYS`).
        wildcards: Vec<(u32, Vec<crate::app::mpi::WildcardTake>, bool)>,
    },
    /// `app.max_cycles` passed (exit 1).
    Timeout(u64),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Input(e) => write!(f, "{e}"),
            RunError::Deadlock {
                cycle,
                stopped,
                waiting,
                unreceived,
                wildcards,
            } => {
                let n = waiting.len();
                writeln!(
                    f,
                    "deadlock: the ranks stopped progressing at cycle {stopped} (found at cycle \
                     {cycle}): the network is empty and {n} rank{} {} for a message no rank \
                     will send:",
                    if n == 1 { "" } else { "s" },
                    if n == 1 { "waits" } else { "wait" }
                )?;
                for (r, w) in waiting.iter().take(20) {
                    writeln!(f, "  rank {r} waits for {w}")?;
                    if let Some((_, q)) = unreceived.iter().find(|(u, _)| u == r) {
                        let list: Vec<String> = q
                            .iter()
                            .take(8)
                            .map(|(s, t, b)| format!("from rank {s} tag {t} ({b} bytes)"))
                            .collect();
                        let more = q.len().saturating_sub(8);
                        writeln!(
                            f,
                            "    unreceived in its queue: {}{}",
                            list.join(", "),
                            if more > 0 {
                                format!(" and {more} more")
                            } else {
                                String::new()
                            }
                        )?;
                    }
                    if let Some((_, takes, full)) = wildcards.iter().find(|(u, ..)| u == r) {
                        for w in takes.iter().take(8) {
                            writeln!(
                                f,
                                "    a wildcard receive took a message it waits for: the receive \
                                 (source {}, tag {}) posted at cycle {} took rank {}'s message \
                                 (tag {}, {} bytes) at cycle {}",
                                w.src.map_or("any".into(), |s| s.to_string()),
                                w.tag.map_or("any".into(), |t| t.to_string()),
                                w.posted,
                                w.msg_src,
                                w.msg_tag,
                                w.bytes,
                                w.taken
                            )?;
                        }
                        if takes.len() > 8 {
                            writeln!(f, "    ... and {} more such messages", takes.len() - 8)?;
                        }
                        if *full {
                            writeln!(
                                f,
                                "    (its wildcard receives took messages of more than {} \
                                 source and tag pairs; those of the first {0} are kept)",
                                crate::app::mpi::WILDCARD_KEYS
                            )?;
                        }
                    }
                }
                if n > 20 {
                    writeln!(f, "  ... and {} more ranks", n - 20)?;
                }
                Ok(())
            }
            RunError::Timeout(c) => write!(
                f,
                "the program had not finished after {c} cycles (app.max_cycles); raise it or look \
                 for a rank that never stops"
            ),
        }
    }
}

/// What a run measured.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    pub ranks: u32,
    /// The cycle the ranks started (the lanes up).
    pub start_cycle: u64,
    /// Cycles from the start to the last rank's finish.
    pub cycles: u64,
    pub time_us: f64,
    /// Per rank: cycles from the start to its program's return.
    #[serde(skip)]
    pub finished: Vec<u64>,
    pub messages_sent: u64,
    pub messages_received: u64,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    /// Messages that arrived and that no receive took.
    pub messages_unreceived: u64,
    /// Of the messages sent, the program's own point-to-point ones (collectives' left out).
    pub p2p_messages_sent: u64,
    pub p2p_bytes_sent: u64,
    /// Packets through the network (those between ranks of one endpoint go through memory).
    pub packets: u64,
    pub packet_latency_mean_cycles: f64,
    pub packet_latency_max_cycles: u32,
    /// Cycles the simulation ran (the last check point).
    pub simulated_cycles: u64,
}

/// The message protocol and software costs of `cfg.app` in cycles.
pub fn shared(
    cfg: &Config,
    placement: Vec<usize>,
    endpoints: usize,
    program: Arc<dyn Program>,
) -> Result<Shared, String> {
    if placement.is_empty() || placement.len() > MAX_RANKS {
        return Err(format!(
            "{} ranks: a run has 1 to {MAX_RANKS} ranks (the envelope's 20-bit rank fields)",
            placement.len()
        ));
    }
    let mut count = vec![0u32; endpoints];
    let mut local_of = Vec::with_capacity(placement.len());
    for (r, &e) in placement.iter().enumerate() {
        if e >= endpoints {
            return Err(format!(
                "rank {r} is placed on endpoint {e}; the network has {endpoints} endpoints"
            ));
        }
        local_of.push(count[e]);
        count[e] += 1;
    }
    let a = &cfg.app;
    let clock = cfg.clock();
    Ok(Shared {
        endpoint_of: placement.iter().map(|&e| e as u32).collect(),
        local_of,
        program,
        proto: Proto {
            chunk: a.max_payload_bytes - ENVELOPE_BYTES,
            eager_threshold: a.eager_threshold_bytes,
        },
        send_cycles: clock.cycles_for_ns(a.send_overhead_ns),
        recv_cycles: clock.cycles_for_ns(a.recv_overhead_ns),
        freq_mhz: cfg.clock.freq_mhz,
        start_cycle: cfg.link.phy.lane_up_cycles as u64,
        latency_bin_cycles: 0,
        record: false,
        log: None,
    })
}

/// Application runs (and the co-simulation server) need links that lose nothing: no bit
/// errors, no faults. An error naming the field otherwise.
pub fn reliable_links(cfg: &Config) -> Result<(), String> {
    // A link loses or corrupts packets under bit errors, and the APElink leaves recovery to a
    // transport layer (acknowledgements, retransmission: Biagioni 2017 §5.3.4) that the
    // application layer does not model: a message would wait forever for its lost packet.
    let hit = std::iter::once(("link.phy.ber", cfg.link.phy.ber))
        .chain(cfg.net.link_ber.iter().map(|l| ("net.link_ber", l.ber)))
        .find(|(_, ber)| *ber > 0.0);
    if let Some((field, ber)) = hit {
        return Err(format!(
            "{field}: a rate of {ber:e}: application runs need links without bit errors (a lost \
             packet's message would never complete: the transport layer that would resend it \
             is not modelled); set it to 0, or measure bit errors with `network run`"
        ));
    }
    // Likewise a packet a failed link loses (`net/faults.rs`).
    if !cfg.net.faults.0.is_empty() || cfg.net.random_faults.is_some() {
        return Err(
            "net.faults, net.random_faults: application runs need links that do not fail (a \
             packet a failed link loses would leave its message incomplete: the transport \
             layer that would resend it is not modelled); leave them empty, or measure faults \
             with `network run`"
                .into(),
        );
    }
    Ok(())
}

/// The network of `cfg.net` for an application: packets of 16 bytes (an envelope alone) to
/// `app.max_payload_bytes`, statistics over the whole run.
pub fn network(cfg: &Config) -> Result<Network, String> {
    reliable_links(cfg)?;
    let mut c = cfg.clone();
    c.net.sizes = SizeDist::Uniform {
        min: ENVELOPE_BYTES,
        max: cfg.app.max_payload_bytes,
    };
    c.net.probe = None;
    c.net.injection = Injection::Bernoulli;
    c.net.warmup_cycles = 0;
    c.net.measure_cycles = cfg.app.max_cycles.min(1_000_000_000_000);
    let plan = setup::plan(&c)?;
    setup::build(&c, &plan, c.net.load)
}

/// Run `program` with its ranks on `placement` (an endpoint per rank).
pub fn run(
    cfg: &Config,
    placement: Vec<usize>,
    program: Arc<dyn Program>,
    progress: &Progress,
) -> Result<Report, RunError> {
    run_with(cfg, placement, program, progress, 0).map(|(r, _)| r)
}

/// [`run`], keeping the packets' latency in bins of `latency_bin_cycles` of arrival time (0:
/// none): bin k holds the packets that arrived in cycles `k x latency_bin_cycles` on.
pub fn run_with(
    cfg: &Config,
    placement: Vec<usize>,
    program: Arc<dyn Program>,
    progress: &Progress,
    latency_bin_cycles: u64,
) -> Result<(Report, Vec<LatencyBin>), RunError> {
    let mut net = prepare(cfg, placement, program, latency_bin_cycles)?;
    drive(cfg, &mut net, progress)
}

/// [`run_with`], recording the run's timeline (`record.rs`): each rank's spans and every
/// delivered message's times. The report and bins are those of the same run unrecorded.
pub fn run_recorded(
    cfg: &Config,
    placement: Vec<usize>,
    program: Arc<dyn Program>,
    progress: &Progress,
    latency_bin_cycles: u64,
) -> Result<(Report, Vec<LatencyBin>, Timeline), RunError> {
    let mut net = prepare_recorded(cfg, placement, program, latency_bin_cycles)?;
    let (report, bins) = drive(cfg, &mut net, progress)?;
    let t = timeline(cfg, &net).expect("a recorded run keeps a timeline");
    Ok((report, bins, t))
}

/// The network of `cfg` with `program`'s ranks on its NICs (placed by `placement`), ready to
/// run from cycle 0.
pub fn prepare(
    cfg: &Config,
    placement: Vec<usize>,
    program: Arc<dyn Program>,
    latency_bin_cycles: u64,
) -> Result<Network, RunError> {
    let mut net = network(cfg).map_err(RunError::Input)?;
    attach(cfg, &mut net, placement, program, latency_bin_cycles)?;
    Ok(net)
}

/// [`prepare`], the ranks recording a timeline: after [`drive`], [`timeline`] gives it.
pub fn prepare_recorded(
    cfg: &Config,
    placement: Vec<usize>,
    program: Arc<dyn Program>,
    latency_bin_cycles: u64,
) -> Result<Network, RunError> {
    let mut net = network(cfg).map_err(RunError::Input)?;
    attach_to(
        cfg,
        &mut net,
        placement,
        program,
        latency_bin_cycles,
        true,
        None,
    )?;
    Ok(net)
}

/// The timeline of a network [`prepare_recorded`] and [`drive`]n (None when not recorded).
pub fn timeline(cfg: &Config, net: &Network) -> Option<Timeline> {
    let parts: Vec<_> = net
        .nodes
        .iter()
        .flat_map(|n| &n.nics)
        .filter_map(|x| x.app())
        .map(|a| a.recorded())
        .collect::<Option<Vec<_>>>()?;
    if parts.is_empty() {
        return None;
    }
    Some(collect(parts, cfg.clock.freq_mhz))
}

/// Put `program`'s ranks on the NICs of `net` (a [`network`] of `cfg` at cycle 0).
pub fn attach(
    cfg: &Config,
    net: &mut Network,
    placement: Vec<usize>,
    program: Arc<dyn Program>,
    latency_bin_cycles: u64,
) -> Result<(), RunError> {
    attach_to(
        cfg,
        net,
        placement,
        program,
        latency_bin_cycles,
        false,
        None,
    )
}

/// [`attach`], recording every rank's calls in `log` when there is one (`calls.rs`).
pub fn attach_recorded(
    cfg: &Config,
    net: &mut Network,
    placement: Vec<usize>,
    program: Arc<dyn Program>,
    latency_bin_cycles: u64,
    log: Option<CallLog>,
) -> Result<(), RunError> {
    attach_to(cfg, net, placement, program, latency_bin_cycles, false, log)
}

#[allow(clippy::too_many_arguments)]
fn attach_to(
    cfg: &Config,
    net: &mut Network,
    placement: Vec<usize>,
    program: Arc<dyn Program>,
    latency_bin_cycles: u64,
    record: bool,
    log: Option<CallLog>,
) -> Result<(), RunError> {
    let endpoints = net.topo.endpoints();
    let mut sh = shared(cfg, placement, endpoints, program).map_err(RunError::Input)?;
    sh.latency_bin_cycles = latency_bin_cycles;
    sh.record = record;
    sh.log = log;
    let shared = Arc::new(sh);
    // no synthetic traffic: only the program's packets
    net.stop_injecting();
    let mut on: Vec<Vec<u32>> = vec![Vec::new(); endpoints];
    for (r, &e) in shared.endpoint_of.iter().enumerate() {
        on[e as usize].push(r as u32);
    }
    for (e, ranks) in on.iter().enumerate() {
        if ranks.is_empty() {
            continue;
        }
        let (node, term) = net.topo.endpoint(e);
        net.nodes[node].nics[term].attach_app(Box::new(AppEndpoint::new(
            e as u32,
            ranks,
            shared.clone(),
        )));
    }
    Ok(())
}

/// Run a [`prepare`]d network until every rank has finished (or a deadlock, or the limit).
pub fn drive(
    cfg: &Config,
    net: &mut Network,
    progress: &Progress,
) -> Result<(Report, Vec<LatencyBin>), RunError> {
    let limit = cfg.app.max_cycles;
    loop {
        net.run(CHECK_STEP);
        progress.set_position(net.cycle.min(limit));
        let apps: Vec<&AppEndpoint> = net
            .nodes
            .iter()
            .flat_map(|n| &n.nics)
            .filter_map(|x| x.app())
            .collect();
        if let Some(e) = apps.iter().find_map(|a| a.error.clone()) {
            return Err(RunError::Input(e));
        }
        if apps.iter().all(|a| a.done()) {
            let mut bins: Vec<LatencyBin> = Vec::new();
            for a in &apps {
                if bins.len() < a.latency_bins.len() {
                    bins.resize(a.latency_bins.len(), LatencyBin::default());
                }
                for (b, x) in bins.iter_mut().zip(&a.latency_bins) {
                    b.add(x);
                }
            }
            return Ok((report(cfg, net, &apps), bins));
        }
        let handed: u64 = apps.iter().map(|a| a.handed).sum();
        let delivered: u64 = apps.iter().map(|a| a.delivered).sum();
        let in_flight = handed - delivered;
        let next = apps
            .iter()
            .map(|a| a.due(net.cycle))
            .min()
            .unwrap_or(u64::MAX);
        if in_flight == 0 && next >= limit && apps.iter().any(|a| a.computing()) {
            // only computing left, and it ends beyond the limit
            return Err(RunError::Timeout(limit));
        }
        if in_flight == 0 && next == u64::MAX {
            let mut waiting: Vec<(u32, String)> = apps.iter().flat_map(|a| a.blocked()).collect();
            waiting.sort();
            let mut unreceived: Vec<_> =
                apps.iter().flat_map(|a| a.unreceived_messages()).collect();
            unreceived.sort();
            let stopped = apps.iter().map(|a| a.last_progress).max().unwrap_or(0);
            let mut wildcards: Vec<_> = apps.iter().flat_map(|a| a.wildcard_takes()).collect();
            wildcards.sort();
            return Err(RunError::Deadlock {
                cycle: net.cycle,
                stopped,
                waiting,
                unreceived,
                wildcards,
            });
        }
        if net.cycle >= limit {
            return Err(RunError::Timeout(net.cycle));
        }
    }
}

fn report(cfg: &Config, net: &Network, apps: &[&AppEndpoint]) -> Report {
    let ranks = apps.iter().map(|a| a.finished().count()).sum::<usize>();
    let start = cfg.link.phy.lane_up_cycles as u64;
    let mut finished = vec![0u64; ranks];
    let mut c = [0u64; 7];
    for a in apps {
        for (r, f) in a.finished() {
            finished[r as usize] = f.expect("every rank finished") - start;
        }
        for (x, y) in c.iter_mut().zip(a.counters()) {
            *x += y;
        }
    }
    let cycles = finished.iter().copied().max().unwrap_or(0);
    let m = net.merged();
    let n = m.latencies.len().max(1) as f64;
    Report {
        ranks: ranks as u32,
        start_cycle: start,
        cycles,
        time_us: cfg.clock().us(cycles as f64),
        finished,
        messages_sent: c[0],
        messages_received: c[1],
        bytes_sent: c[2],
        bytes_received: c[3],
        messages_unreceived: c[4],
        p2p_messages_sent: c[5],
        p2p_bytes_sent: c[6],
        packets: m.delivered,
        packet_latency_mean_cycles: m.latencies.iter().map(|&l| l as f64).sum::<f64>() / n,
        packet_latency_max_cycles: m.latencies.iter().copied().max().unwrap_or(0),
        simulated_cycles: net.cycle,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::programs::{Example, Params};

    fn cfg(topology: &str) -> Config {
        let mut c = Config::default();
        c.net.topology = topology.parse().unwrap();
        c.net.routing = crate::spec::RoutingSpec::Ecube;
        c
    }

    #[test]
    fn pingpong_on_a_mesh_finishes_and_counts_its_messages() {
        let (prog, f, _) = Example::Pingpong.program(Params {
            bytes: 64,
            iterations: 4,
        });
        let r = run(&cfg("mesh:2x2"), vec![0, 3], prog, &Progress::hidden()).unwrap();
        assert_eq!(r.messages_sent, 8);
        assert_eq!(r.messages_received, 8);
        assert_eq!(r.packets, 8);
        assert!(
            f.get("half_round_trip_cycles").unwrap() > 62.0,
            "{:?}",
            f.all()
        );
    }
}
