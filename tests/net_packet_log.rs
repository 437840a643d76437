//! The packet log (`exanet::net::packet_log`, behind `--packets FILE`): an observer that
//! changes no result, whose hop counts and VCs are the routing's paths, and which keeps a count
//! only for the packets in the network.

use exanet::config::Config;
use exanet::net::packet_log::{PacketLog, VecSink};
use exanet::net::routing::parse_routing;
use exanet::net::routing::path::walk;
use exanet::net::routing::Port;
use exanet::net::setup::{plan, run, run_logged};
use exanet::net::topology::parse;

/// The configuration of a small run.
fn small(topology: &str, routing: &str, load: f64) -> Config {
    let mut c = Config::default();
    c.net.topology = topology.parse().unwrap();
    c.net.routing = routing.parse().unwrap();
    c.net.load = load;
    c.net.sizes = "16:160".parse().unwrap();
    c.net.warmup_cycles = 500;
    c.net.measure_cycles = 1500;
    c.net.drain_cycles = 20_000;
    c
}

/// `c` run with a packet log into memory: its summary, the log and the records.
fn logged(
    c: &Config,
) -> (
    exanet::net::stats::Summary,
    PacketLog,
    Vec<exanet::net::packet_log::PacketRecord>,
) {
    let p = plan(c).unwrap();
    let sink = VecSink::default();
    let (s, log) = run_logged(
        c,
        &p,
        c.net.load,
        Some(PacketLog::new(Box::new(sink.clone()))),
        &exanet::progress::Progress::hidden(),
    )
    .unwrap();
    let recs = sink.0.lock().unwrap().clone();
    (s, log.expect("the log comes back"), recs)
}

#[test]
fn logged_hops_and_vcs_are_the_routing_s_paths_and_the_log_changes_no_result() {
    for (topo, routing) in [
        ("torus:4x4", "ecube"),
        ("torus:5x3", "ecube"),
        ("dragonfly:p=2,a=2,h=1,g=3", "min"),
    ] {
        let c = small(topo, routing, 0.3);
        let p = plan(&c).unwrap();
        let plain = run(&c, &p, c.net.load).unwrap();
        let (logged, log, recs) = logged(&c);
        assert_eq!(
            logged.stats_hash, plain.stats_hash,
            "{topo}: the log changed the run"
        );
        assert_eq!(log.finish().unwrap(), logged.packets_delivered_total);
        assert_eq!(recs.len() as u64, plain.packets_delivered_total);
        // deterministic routings: the path is known; its inter-tile hops and its last VC
        let t = parse(topo).unwrap();
        let r = parse_routing(routing).unwrap();
        for x in &recs {
            let path = walk(
                t.as_ref(),
                r.as_ref(),
                x.src.expect("a lossless run names every source"),
                x.dst,
                &mut |_| 0,
            )
            .unwrap();
            let inter: Vec<_> = path
                .iter()
                .filter(|h| matches!(h.hop.port, Port::Inter(_)))
                .collect();
            assert_eq!(x.hops as usize, inter.len(), "{topo}: {x:?}");
            let vc = inter.last().map_or(0, |h| h.hop.vc);
            assert_eq!(x.vc, vc, "{topo}: {x:?}");
        }
        assert!(recs.iter().any(|x| x.vc == 1), "{topo}: no packet on VC 1");
    }
}

#[test]
fn the_log_keeps_hop_counts_only_for_packets_in_the_network() {
    use exanet::net::setup::build;
    let c = small("torus:4x4", "ecube", 0.4);
    let p = plan(&c).unwrap();
    let mut net = build(&c, &p, c.net.load).unwrap();
    let sink = VecSink::default();
    net.log_packets(PacketLog::new(Box::new(sink.clone())));
    net.run(3000);
    let held = |n: &exanet::net::engine::Network| {
        let m = n.merged();
        m.injected - m.delivered
    };
    let count = |n: &mut exanet::net::engine::Network| {
        let log = n.take_packet_log().unwrap();
        let k = log.in_network();
        n.log_packets(log);
        k
    };
    // packets under way: those that crossed a link at least, not those still at their source
    let (k, h) = (count(&mut net), held(&net));
    assert!(0 < k && k as u64 <= h, "{k} counted, {h} in the network");
    net.stop_injecting();
    while held(&net) > 0 {
        net.run(500);
    }
    assert_eq!(count(&mut net), 0, "a count outlived its packet");
    let m = net.merged();
    let recs = sink.0.lock().unwrap().clone();
    assert_eq!(recs.len() as u64, m.delivered);
    // the log was detached and attached again under way: a packet then in a FIFO gets no
    // split rather than another packet's cycles, so no router or link is quicker than its
    // pipeline (11 and 51 cycles, docs/network.md "Latency")
    for r in &recs {
        if let Some(s) = &r.split {
            assert!(s.router.iter().all(|&x| x >= 11), "{r:?}");
            assert!(s.link.iter().all(|&x| x >= 51), "{r:?}");
        }
    }
    assert!(recs.iter().any(|r| r.split.is_some()));
}

/// Issue 32 §1: each packet's latency split router by router and link by link
/// (`exanet::net::hop_times`). Lone packets show the documented pipelines (docs/network.md,
/// "Latency": 11 cycles a router, 51 a link of which 4 before the MAGIC, and for a 64-byte
/// payload, 6 words, an ejection of `max(W-1, 2(W-1)-5) + 4` = 9); under load the parts still
/// add up to the latency, every part at least its pipeline, and contention shows in them.
#[test]
fn a_packets_latency_splits_into_its_routers_and_links_as_the_pipelines_say() {
    use std::collections::HashMap;
    fn mode(v: impl Iterator<Item = u64>) -> u64 {
        let mut n: HashMap<u64, usize> = HashMap::new();
        for x in v {
            *n.entry(x).or_default() += 1;
        }
        n.into_iter()
            .max_by_key(|&(x, k)| (k, std::cmp::Reverse(x)))
            .unwrap()
            .0
    }
    for (topo, routing) in [("torus:4x4", "ecube"), ("dragonfly:p=2,a=2,h=1,g=3", "min")] {
        let mut means = Vec::new();
        for load in [0.02, 0.5] {
            let mut c = small(topo, routing, load);
            c.net.sizes = "64".parse().unwrap();
            let (s, log, recs) = logged(&c);
            let split = log.split_means();
            assert!(recs.len() > 50, "{topo} {load}");
            let mut all = Vec::new();
            for r in &recs {
                let x = r.split.clone().expect("a lossless run sees every hop");
                assert_eq!(x.router.len() as u32, r.hops + 1, "{r:?}");
                assert_eq!(x.link.len() as u32, r.hops, "{r:?}");
                assert_eq!(x.link_wait.len() as u32, r.hops, "{r:?}");
                let (rt, lk, _) = x.sums();
                assert_eq!(rt + lk + x.ejection, r.delivered - r.injected, "{r:?}");
                assert!(x.router.iter().all(|&v| v >= 11), "{r:?}");
                assert!(x.link.iter().all(|&v| v >= 51), "{r:?}");
                assert!(x.link_wait.iter().all(|&v| v >= 4), "{r:?}");
                assert!(x.ejection >= 9, "{r:?}");
                all.push(x);
            }
            if load < 0.1 {
                let m = |f: &dyn Fn(&exanet::net::hop_times::LatencySplit) -> Vec<u32>| {
                    mode(all.iter().flat_map(f).map(u64::from))
                };
                assert_eq!(m(&|x| x.router.clone()), 11, "{topo}");
                assert_eq!(m(&|x| x.link.clone()), 51, "{topo}");
                assert_eq!(m(&|x| x.link_wait.clone()), 4, "{topo}");
                assert_eq!(mode(all.iter().map(|x| x.ejection)), 9, "{topo}");
            }
            // the summary is over the window's packets, and adds up to their latency
            assert_eq!(split.packets, s.packets_delivered, "{topo} {load}");
            assert_eq!(split.packets_without_split, 0);
            let sum =
                split.router_mean_cycles + split.link_mean_cycles + split.ejection_mean_cycles;
            assert!(
                (sum - s.latency_mean_cycles).abs() < 1e-9 * s.latency_mean_cycles,
                "{topo} {load}: {sum} against {}",
                s.latency_mean_cycles
            );
            means.push((split.per_router_mean_cycles, split.per_link_mean_cycles));
        }
        // contention: at load a router or a link takes longer on average than alone
        let (lo, hi) = (means[0], means[1]);
        assert!(
            hi.0 + hi.1 > lo.0 + lo.1 + 1.0,
            "{topo}: {lo:?} then {hi:?}"
        );
    }
}

/// Statistics hashes of runs made before the packet log existed (the binary of the commit
/// this work started from): attaching the observer must leave every run as it was. (`ecube`'s
/// own hash is the one since issue 28 gave it the RTL's VC rule.)
#[test]
fn the_statistics_hashes_are_those_from_before_the_packet_log() {
    let mut a = small("torus:4x4", "ecube", 0.3);
    a.net.warmup_cycles = 1000;
    a.net.measure_cycles = 2000;
    a.net.drain_cycles = 50_000;
    let mut b = Config::default();
    b.net.topology = "dragonfly:p=2,a=2,h=1,g=3".parse().unwrap();
    b.net.routing = "min".parse().unwrap();
    b.net.load = 0.35;
    b.net.probe = Some("src=0,dst=5,period=300".parse().unwrap());
    b.net.warmup_cycles = 1000;
    b.net.measure_cycles = 2000;
    b.net.check = true;
    let mut c = Config::default();
    c.net.topology = "torus:5x5".parse().unwrap();
    c.net.routing = "smart-dor".parse().unwrap();
    c.net.load = 0.4;
    c.net.pattern = "transpose".parse().unwrap();
    c.net.warmup_cycles = 1000;
    c.net.measure_cycles = 2000;
    // e-cube with the dateline VC rule is what `ecube` was until issue 28 made it the
    // APErouter's rule: the same hash as before; `ecube` itself changed its hash then, once
    let mut a_dateline = a.clone();
    a_dateline.net.routing = "ecube-dateline".parse().unwrap();
    for (cfg, want) in [
        (a_dateline, "56981bad0c0b261f"),
        (a, "a6dc5d45360d6e2a"),
        (b, "bb8a4b592098fc46"),
        (c, "4ff74e24fbb28186"),
    ] {
        let p = plan(&cfg).unwrap();
        let sink = VecSink::default();
        let (s, _) = run_logged(
            &cfg,
            &p,
            cfg.net.load,
            Some(PacketLog::new(Box::new(sink))),
            &exanet::progress::Progress::hidden(),
        )
        .unwrap();
        assert_eq!(s.stats_hash, want, "{}", cfg.net.topology);
        assert_eq!(run(&cfg, &p, cfg.net.load).unwrap().stats_hash, want);
    }
}
