//! From a configuration (`[net]` and the hardware sections) to a ready network: builds the
//! topology, routing and pattern that `cfg.net` names (each read and checked where the
//! configuration was read, `src/spec/`), checks that they fit together (the one place that
//! does), and builds the `Network`.

use super::engine::{NetSetup, Network, PROGRESS_STEP};
use super::packet_log::PacketLog;
use super::routing::Routing;
use super::stats::{Summary, Window};
use super::topology::Topology;
use super::traffic::{
    bernoulli_rate, Bernoulli, ConstantPacketNumber, Injector, PatternSpec, Probe, SizeDist,
};
use crate::config::Config;
use crate::progress::Progress;
pub use crate::spec::Injection;
use std::sync::Arc;

/// Everything a run needs besides the load.
pub struct Plan {
    pub topo: Arc<dyn Topology>,
    pub routing: Arc<dyn Routing>,
    pub pattern: PatternSpec,
    pub sizes: SizeDist,
    pub injection: Injection,
    pub probe: Option<Probe>,
}

/// The largest network a run builds: 256x256 or 40x40x40; a node takes about 30 KB at light
/// load and up to about 450 KB with every FIFO full (`exanet bench network`).
pub const MAX_NET_NODES: usize = 65_536;

/// Build `cfg.net`'s topology and routing and check that its routing, pattern and probe fit
/// the topology, and that `cfg.link` asks for nothing a network run does not model.
pub fn plan(cfg: &Config) -> Result<Plan, String> {
    let n = &cfg.net;
    let topo: Arc<dyn Topology> = n.topology.build()?.into();
    if topo.nodes() > MAX_NET_NODES {
        return Err(format!(
            "topology {}: {} nodes; network runs build at most {MAX_NET_NODES} (about 30 KB a \
             node at light load, up to 450 KB with every FIFO full)",
            n.topology,
            topo.nodes()
        ));
    }
    for (k, l) in n.link_ber.iter().enumerate() {
        let nodes = topo.nodes();
        for end in [l.a, l.b] {
            if end >= nodes {
                return Err(format!(
                    "net.link_ber entry {k}: node {end} does not exist (the topology {} has nodes \
                     0 to {})",
                    n.topology,
                    nodes - 1
                ));
            }
        }
        if lanes_between(topo.as_ref(), l.a, l.b).next().is_none() {
            return Err(format!(
                "net.link_ber entry {k}: nodes {} and {} are not linked in the topology {}",
                l.a, l.b, n.topology
            ));
        }
    }
    if cfg.link.size_in_words {
        return Err(
            "link.size_in_words = true: network runs size packets in bytes (the NIC writes \
             payload bytes into the header); set it to false"
                .into(),
        );
    }
    let routing: Arc<dyn Routing> = n.routing.build_with(n.adaptive_vcs).into();
    routing
        .check(topo.as_ref())
        .map_err(|e| format!("routing {} on {}: {e}", n.routing, n.topology))?;
    let planted = super::faults::resolve(topo.as_ref(), &n.faults, n.random_faults, cfg.sim.seed)?;
    let events = super::faults::events(topo.as_ref(), &planted);
    if let Some(s) = super::faults::splits(topo.as_ref(), &events).first() {
        if !routing.tolerates_faults() {
            return Err(format!(
                "net.faults: from cycle {} the faults split the network ({}): routing {} cannot \
                 route a split network; use net.routing = updown, which drops the packets for \
                 the other side as unreachable and reports the split",
                s.at,
                s.describe(),
                n.routing
            ));
        }
    }
    n.pattern
        .build()?
        .check(topo.as_ref())
        .map_err(|e| format!("pattern {} on {}: {e}", n.pattern, n.topology))?;
    if let Some(p) = &n.probe {
        p.validate(topo.as_ref())
            .map_err(|e| format!("probe: {e}"))?;
    }
    Ok(Plan {
        topo,
        routing,
        pattern: n.pattern,
        sizes: n.sizes,
        injection: n.injection,
        probe: n.probe,
    })
}

/// The measurement window of `cfg.net`.
pub fn window(cfg: &Config) -> Window {
    let n = &cfg.net;
    Window {
        start: n.warmup_cycles,
        end: n.warmup_cycles + n.measure_cycles,
    }
}

/// The network of `plan` at `load`.
pub fn build(cfg: &Config, p: &Plan, load: f64) -> Result<Network, String> {
    let (partitions, threads) = resolve_threads(cfg, p.topo.nodes());
    Network::new(cfg, setup(cfg, p, load, partitions, threads)?, window(cfg))
}

/// The nodes `share` of the network of `plan` at `load`, split into partitions and threads
/// as a network of those nodes would be (a process's share, `Network::new_share`).
pub fn build_share(
    cfg: &Config,
    p: &Plan,
    load: f64,
    share: std::ops::Range<usize>,
) -> Result<Network, String> {
    let (partitions, threads) = resolve_threads(cfg, share.len());
    let s = setup(cfg, p, load, partitions, threads)?;
    Network::new_share(cfg, s, window(cfg), share)
}

fn setup(
    cfg: &Config,
    p: &Plan,
    load: f64,
    partitions: usize,
    threads: usize,
) -> Result<NetSetup, String> {
    let n = &cfg.net;
    let injectors: Vec<Option<Box<dyn Injector>>> = match p.injection {
        Injection::Bernoulli => {
            let rate = bernoulli_rate(load, n.injection_bytes_per_cycle, &p.sizes)?;
            (0..p.topo.endpoints())
                .map(|_| Bernoulli::new(rate).map(|b| Some(Box::new(b) as Box<dyn Injector>)))
                .collect::<Result<_, _>>()?
        }
        Injection::Constant(k) => (0..p.topo.endpoints())
            .map(|_| Some(Box::new(ConstantPacketNumber::new(k)) as Box<dyn Injector>))
            .collect(),
    };
    let probe = p
        .probe
        .map(|pr| (pr.src, pr.dst, Box::new(pr.injector()) as Box<dyn Injector>));
    let min_payload = if p.probe.is_none() {
        p.sizes.min()
    } else {
        p.sizes.min().min(super::traffic::MIN_SIZE)
    };
    let tred = super::tred::network_tred(cfg, min_payload, p.sizes.max())?;
    Ok(NetSetup {
        topo: p.topo.clone(),
        routing: p.routing.clone(),
        pattern: p.pattern.build()?,
        sizes: p.sizes,
        injectors,
        probe,
        seed: cfg.sim.seed,
        partitions,
        threads,
        window: if n.window_cycles == 0 {
            cfg.link.phy.latency_cycles as u64
        } else {
            n.window_cycles
        },
        idle_skip: n.idle_skip,
        check: n.check,
        tred,
    })
}

/// Nodes a thread takes at least when `net.threads` is 0 (more threads for fewer nodes cost
/// more in window barriers than they gain).
pub const MIN_NODES_PER_THREAD: usize = 16;

/// The partitions and threads of a network of `nodes` nodes: `net.partitions` and
/// `net.threads`, 0 resolved (threads: the cores available, at most one per
/// [`MIN_NODES_PER_THREAD`] nodes and one per partition; partitions: one per thread).
/// `Config::validate` refused more threads than partitions; `Network::new` refuses more
/// threads than nodes.
pub fn resolve_threads(cfg: &Config, nodes: usize) -> (usize, usize) {
    let n = &cfg.net;
    let threads = match n.threads {
        0 => {
            let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
            let mut t = cores.min(nodes / MIN_NODES_PER_THREAD).max(1);
            if n.partitions != 0 {
                t = t.min(n.partitions as usize);
            }
            t
        }
        t => t as usize,
    };
    let partitions = match n.partitions {
        0 => threads,
        p => p as usize,
    };
    (partitions, threads)
}

/// One run of `cfg` at `load`: warm-up, measurement, drain.
pub fn run(cfg: &Config, p: &Plan, load: f64) -> Result<Summary, String> {
    run_logged(cfg, p, load, None, &Progress::hidden()).map(|(s, _)| s)
}

/// The cycles a run of `cfg` simulates at most: warm-up, window, the longest drain.
pub fn max_cycles(cfg: &Config) -> u64 {
    let n = &cfg.net;
    n.warmup_cycles + n.measure_cycles + n.drain_cycles
}

/// [`run`], showing the cycle reached on `progress` (out of [`max_cycles`]; the drain usually
/// ends early). The summary is the same.
pub fn run_with_progress(
    cfg: &Config,
    p: &Plan,
    load: f64,
    progress: &Progress,
) -> Result<Summary, String> {
    run_logged(cfg, p, load, None, progress).map(|(s, _)| s)
}

/// [`run`] with a packet log attached from the first cycle, showing the cycle reached on
/// `progress`; the log comes back with the summary (its sink not yet finished).
pub fn run_logged(
    cfg: &Config,
    p: &Plan,
    load: f64,
    log: Option<PacketLog>,
    progress: &Progress,
) -> Result<(Summary, Option<PacketLog>), String> {
    let mut at = |n: &Network| progress.set_position(n.cycle);
    let (s, log, _) = run_logged_with(cfg, p, load, log, PROGRESS_STEP, &mut at)?;
    Ok((s, log))
}

/// [`run_logged`], showing `at` the network once before the run, then every `every` cycles or
/// so (`Network::run_phases_hooked`: a report's snapshots); also gives the network at the end.
pub fn run_logged_with(
    cfg: &Config,
    p: &Plan,
    load: f64,
    log: Option<PacketLog>,
    every: u64,
    at: &mut dyn FnMut(&Network),
) -> Result<(Summary, Option<PacketLog>, Network), String> {
    let mut net = build(cfg, p, load)?;
    if let Some(l) = log {
        net.log_packets(l);
    }
    at(&net);
    let s = net.run_phases_hooked(
        cfg.net.drain_cycles,
        load,
        cfg.net.injection_bytes_per_cycle,
        every,
        at,
    );
    let log = net.take_packet_log();
    Ok((s, log, net))
}

/// The lanes between nodes `a` and `b`, either way: (node, port) of each lane's sender.
pub fn lanes_between(
    t: &dyn Topology,
    a: usize,
    b: usize,
) -> impl Iterator<Item = (usize, usize)> + '_ {
    [(a, b), (b, a)].into_iter().flat_map(move |(x, y)| {
        (0..t.ports()).filter_map(move |q| match t.link(x, q) {
            Some((m, _)) if m == y => Some((x, q)),
            _ => None,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_holds_its_nodes_only_and_one_outside_the_network_is_refused() {
        let mut cfg = Config::default();
        cfg.net.topology = "torus:4x4".parse().unwrap();
        cfg.net.threads = 1;
        let p = plan(&cfg).unwrap();
        let net = build_share(&cfg, &p, 0.1, 4..12).unwrap();
        assert_eq!(net.nodes.len(), 8);
        assert_eq!(net.owned(), 4..12);
        assert_eq!(build(&cfg, &p, 0.1).unwrap().nodes.len(), 16);
        for bad in [0..0, 12..17, 16..17] {
            match build_share(&cfg, &p, 0.1, bad.clone()) {
                Err(e) => assert!(e.contains("not a share of the 16 nodes"), "{bad:?}: {e}"),
                Ok(_) => panic!("{bad:?} accepted"),
            }
        }
    }
}
