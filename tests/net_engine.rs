//! The network engine end to end: small networks deliver every packet intact and in order, the
//! zero-load latency is the sum of the blocks' pipeline latencies, results do not depend on the
//! partitioning or on idle skipping, and the commands refuse bad input with exit 2.

mod common;
use common::exanet;
use exanet::config::Config;
use exanet::net::engine::{NetSetup, Network};
use exanet::net::routing::parse_routing;
use exanet::net::setup::{plan, run};
use exanet::net::stats::{Summary, Window};
use exanet::net::topology::parse;
use exanet::net::traffic::{parse_pattern, parse_probe, Injector, SizeDist};
use std::sync::Arc;

/// One probe packet stream from endpoint `src` to `dst` on an otherwise silent network: the
/// summary after every probe packet injected in cycles 2000..12000 arrived.
fn probe_only(topology: &str, routing: &str, src: usize, dst: usize) -> Summary {
    let cfg = Config::default();
    let topo: Arc<dyn exanet::net::topology::Topology> = parse(topology).unwrap().into();
    let pr = parse_probe(&format!("src={src},dst={dst},period=3000")).unwrap();
    let setup = NetSetup {
        topo: topo.clone(),
        routing: parse_routing(routing).unwrap().into(),
        pattern: parse_pattern("uniform").unwrap(),
        sizes: SizeDist::Fixed(64),
        injectors: Vec::new(),
        probe: Some((pr.src, pr.dst, Box::new(pr.injector()) as Box<dyn Injector>)),
        seed: 1,
        partitions: 1,
        threads: 1,
        window: 42,
        idle_skip: true,
        check: true,
        tred: exanet::net::tred::network_tred(&cfg, 1, 4096).unwrap(),
    };
    let mut net = Network::new(
        &cfg,
        setup,
        Window {
            start: 2000,
            end: 12_000,
        },
    )
    .unwrap();
    net.run_phases(20_000, 0.0, 8.0)
}

/// Endpoint 0 of `topology` alone sends a packet of `payload` bytes every 2000 cycles to the
/// destination `pattern` gives it; the other endpoints are silent. The latencies of the
/// packets injected in cycles 2000..12000 (after the lanes came up).
fn lone_sender(topology: &str, routing: &str, pattern: &str, payload: u32, skip: bool) -> Summary {
    let cfg = Config::default();
    let topo: Arc<dyn exanet::net::topology::Topology> = parse(topology).unwrap().into();
    let injectors: Vec<Option<Box<dyn Injector>>> = vec![Some(Box::new(
        exanet::net::traffic::Periodic::new(2000, 0).unwrap(),
    ))];
    let setup = NetSetup {
        topo,
        routing: parse_routing(routing).unwrap().into(),
        pattern: parse_pattern(pattern).unwrap(),
        sizes: SizeDist::Fixed(payload),
        injectors,
        probe: None,
        seed: 1,
        partitions: 1,
        threads: 1,
        window: 42,
        idle_skip: skip,
        check: true,
        tred: exanet::net::tred::network_tred(&cfg, 1, 4096).unwrap(),
    };
    let mut net = Network::new(
        &cfg,
        setup,
        Window {
            start: 2000,
            end: 12_000,
        },
    )
    .unwrap();
    net.run_phases(20_000, 0.0, 8.0)
}

/// Words of a packet with `payload` bytes: header, payload words of 16 bytes, footer.
fn words(payload: u32) -> u64 {
    payload.div_ceil(16) as u64 + 2
}

/// The zero-load latency the blocks' pipelines give a packet of `w` words over `h` hops, from
/// the cycle its header is written into the source router's TX FIFO to the cycle the
/// destination NIC pops its footer:
/// - 11 cycles a router and 51 a link from header to header (`exanet router latency`,
///   `exanet link latency`): 62 a hop, and the last router's 11;
/// - behind its header, the footer leaves the last router either one word a cycle (the
///   crossbar) or as the last link delivered the words, two 64-bit beats a 128-bit word, plus
///   the 6 cycles a payload word takes from the RX FIFO to the output FIFO (FIFO latency 3,
///   READ, XBAR, WRITE), whichever is later;
/// - 4 cycles to the pop: the FIFO latency (3) and the NIC's registered read strobe (1).
fn pipeline_latency(h: u64, w: u64) -> u64 {
    62 * h + (11 + (w - 1)).max(6 + 2 * (w - 1)) + 4
}

#[test]
fn zero_load_latency_is_the_sum_of_the_pipelines() {
    // rings of 4, 6, 8, 10 nodes: tornado sends k/2 - 1 hops
    for (ring, h) in [(4, 1), (6, 2), (8, 3), (10, 4)] {
        for payload in [16, 64, 256] {
            let s = lone_sender(&format!("torus:{ring}"), "ecube", "tornado", payload, true);
            assert_eq!(s.packets_delivered, 5, "ring {ring}, {payload} B");
            assert_eq!(s.latency_std_cycles, 0.0, "ring {ring}, {payload} B");
            assert_eq!(
                s.latency_mean_cycles,
                pipeline_latency(h, words(payload)) as f64,
                "ring {ring} ({h} hops), {payload} B"
            );
        }
    }
    // two dimensions: a torus (3 + 3 hops) and a mesh (neighbour: 1 + 1 hops)
    for (topo, pattern, h) in [("torus:8x8", "tornado", 6), ("mesh:4x4", "neighbour", 2)] {
        let s = lone_sender(topo, "ecube", pattern, 64, true);
        assert_eq!(
            s.latency_mean_cycles,
            pipeline_latency(h, words(64)) as f64,
            "{topo} {pattern}"
        );
    }
    // a long packet: the TCL's credit beats share the lane with the payload, at most one a
    // credit period
    let w = words(1024);
    let base = pipeline_latency(1, w);
    let beats = 2 * (w - 1);
    let extra = beats.div_ceil(Config::default().link.credit.period_cycles as u64);
    let s = lone_sender("torus:4", "ecube", "tornado", 1024, true);
    let l = s.latency_mean_cycles as u64;
    assert!(
        (base..=base + extra).contains(&l),
        "1024 B: {l} cycles, expected {base}..={}",
        base + extra
    );
}

#[test]
fn probe_latency_is_the_zero_load_latency_of_its_packet() {
    use exanet::net::traffic::MIN_SIZE;
    let s = probe_only("torus:8x8", "ecube", 0, 1);
    assert_eq!(s.probe_packets, 3);
    assert_eq!(
        s.probe_latency_mean_cycles,
        Some(pipeline_latency(1, words(MIN_SIZE)) as f64)
    );
    // two hops more: 2 x 62 cycles more
    let s2 = probe_only("torus:8x8", "ecube", 0, 3);
    assert_eq!(
        s2.probe_latency_mean_cycles,
        Some(pipeline_latency(3, words(MIN_SIZE)) as f64)
    );
}

/// The configuration of a small run with checking on.
fn small(topology: &str, routing: &str, load: f64) -> Config {
    let mut c = Config::default();
    c.net.topology = topology.parse().unwrap();
    c.net.routing = routing.parse().unwrap();
    c.net.load = load;
    c.net.sizes = "16:160".parse().unwrap();
    c.net.warmup_cycles = 1500;
    c.net.measure_cycles = 3000;
    c.net.drain_cycles = 40_000;
    c.net.check = true;
    c
}

fn run_cfg(c: &Config) -> Summary {
    let p = plan(c).unwrap_or_else(|e| panic!("{e}"));
    run(c, &p, c.net.load).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn small_networks_deliver_every_packet_intact_and_in_order() {
    for (topo, routing) in [
        ("torus:4x4", "ecube"),
        ("mesh:4x4", "ecube"),
        ("torus:4x4", "star-channel"),
        ("torus:4x4", "smart-dor"),
        ("dragonfly:p=2,a=2,h=1,g=2", "min"),
    ] {
        let c = small(topo, routing, 0.3);
        let s = run_cfg(&c);
        let what = format!("{topo} {routing}");
        assert!(
            s.packets_injected > 500,
            "{what}: {} packets",
            s.packets_injected
        );
        assert_eq!(s.packets_in_flight, 0, "{what}: not all delivered");
        assert_eq!(s.packets_delivered, s.packets_injected, "{what}");
        assert_eq!(s.crc_errors, 0, "{what}");
        assert_eq!(s.payload_errors, 0, "{what}: payload changed on the way");
        // checked for the algorithms that keep a pair's packets in order (all but the
        // adaptive star-channel)
        assert_eq!(s.order_errors, 0, "{what}: out of order");
        // below saturation the network takes what is offered
        assert!(
            (s.accepted_load - s.injected_load).abs() < 0.03,
            "{what}: accepted {} injected {}",
            s.accepted_load,
            s.injected_load
        );
    }
}

/// The networks the invariance tests run: e-cube and star-channel on a torus, min routing on a
/// dragonfly.
const INVARIANCE_CASES: [(&str, &str); 3] = [
    ("torus:6x6", "ecube"),
    ("torus:6x6", "star-channel"),
    ("dragonfly:p=2,a=2,h=1,g=3", "min"),
];

#[test]
fn results_do_not_depend_on_threads_partitioning_window_or_idle_skipping() {
    for (topo, routing) in INVARIANCE_CASES {
        let mut c = small(topo, routing, 0.35);
        c.net.check = false;
        // the reference: one thread, one partition, the cycle-by-cycle window, every block
        // evaluated every cycle
        c.net.threads = 1;
        c.net.partitions = 1;
        c.net.window_cycles = 1;
        c.net.idle_skip = false;
        let reference = run_cfg(&c);
        assert!(reference.packets_delivered > 1000);
        for (threads, parts, window, skip) in [
            (1, 1, 0, true),
            (1, 3, 17, true),
            (2, 2, 0, true),
            (2, 5, 0, false),
            (3, 3, 17, true),
            (3, 7, 1, false),
            (4, 4, 5, true),
            (4, 9, 0, false),
            (7, 7, 0, true),
            (7, 12, 3, true),
        ] {
            // (the dragonfly has 6 nodes: at most a thread and a partition each)
            let nodes = plan(&c).unwrap().topo.nodes() as u32;
            let (threads, parts) = (threads.min(nodes), parts.min(nodes).max(threads.min(nodes)));
            let mut c2 = c.clone();
            c2.net.threads = threads;
            c2.net.partitions = parts;
            c2.net.window_cycles = window;
            c2.net.idle_skip = skip;
            let s = run_cfg(&c2);
            assert_eq!(
                s.stats_hash, reference.stats_hash,
                "{topo} {routing}: threads {threads}, partitions {parts}, window {window}, idle skip {skip}"
            );
            assert_eq!(s.latency_mean_cycles, reference.latency_mean_cycles);
            assert_eq!(s.cycles, reference.cycles);
        }
    }
}

/// A TCL TX holding a beat its lane does not take (before lane up, in a gearbox or
/// clock-compensation pause) sleeps with its lane until the lane is ready: the same statistics
/// as every block evaluated every cycle, with the gearbox's pause on and clock compensation
/// frequent enough to fall in the middle of packets; at a low load, so that the nodes do sleep.
#[test]
fn lanes_pausing_give_the_same_results_with_idle_skipping() {
    for (topo, routing) in [INVARIANCE_CASES[0], INVARIANCE_CASES[2]] {
        let mut c = small(topo, routing, 0.05);
        c.net.check = false;
        c.net.threads = 1;
        c.link.phy.gearbox_pause = true;
        c.link.phy.gearbox_period_cycles = 17;
        c.link.phy.cc_period_cycles = 301;
        c.link.phy.cc_len_cycles = 9;
        c.net.idle_skip = false;
        let reference = run_cfg(&c);
        assert!(reference.packets_delivered > 100, "{topo}");
        c.net.idle_skip = true;
        let s = run_cfg(&c);
        assert_eq!(s.stats_hash, reference.stats_hash, "{topo} {routing}");
        assert_eq!(s.latency_mean_cycles, reference.latency_mean_cycles);
    }
}

/// The clock rule at the network's level: each partition's nodes in a random order, and in each
/// node its NICs, TCLs, lanes and router (and the router's slots) in a random order every cycle
/// (`Network::shuffle_visits`), give the statistics of node order.
#[test]
fn the_order_in_which_nodes_and_their_sub_blocks_are_stepped_changes_nothing() {
    use exanet::net::setup::build;
    for (topo, routing) in INVARIANCE_CASES {
        let mut c = small(topo, routing, 0.35);
        c.net.check = false;
        let p = plan(&c).unwrap();
        for (threads, parts) in [(1, 1), (1, 3), (2, 4)] {
            c.net.threads = threads;
            c.net.partitions = parts;
            let summary = |shuffle: Option<u64>| {
                let mut net = build(&c, &p, c.net.load).unwrap();
                if let Some(seed) = shuffle {
                    net.shuffle_visits(seed);
                }
                net.run_phases(c.net.drain_cycles, c.net.load, 8.0)
            };
            let plain = summary(None);
            assert!(plain.packets_delivered > 1000);
            for seed in [1, 2, 3] {
                let s = summary(Some(seed));
                assert_eq!(
                    (&s.stats_hash, s.cycles),
                    (&plain.stats_hash, plain.cycles),
                    "{topo} {routing}, {threads} threads, {parts} partitions, visiting order {seed}"
                );
            }
        }
    }
}

#[test]
fn threads_are_checked_against_partitions_and_nodes() {
    // more threads than partitions: refused when the configuration is read
    let mut c = small("torus:4x4", "ecube", 0.1);
    c.net.threads = 3;
    c.net.partitions = 2;
    let e = c.validate().unwrap_err().to_string();
    assert!(
        e.contains("net.threads") && e.contains("more than the partitions"),
        "{e}"
    );
    // more threads than nodes (and so than partitions): refused when the network is built
    c.net.threads = 5;
    c.net.partitions = 0;
    c.validate().unwrap();
    c.net.topology = "torus:2x2".parse().unwrap();
    let p = plan(&c).unwrap();
    let e = exanet::net::setup::build(&c, &p, 0.1).err().unwrap();
    assert!(e.contains("threads: 5") && e.contains("4 nodes"), "{e}");
    // the defaults resolve to a thread per partition, at least one
    c.net.threads = 0;
    let (parts, threads) = exanet::net::setup::resolve_threads(&c, 4);
    assert_eq!((parts, threads), (1, 1), "4 nodes: below a thread's share");
    let (parts, threads) = exanet::net::setup::resolve_threads(&c, 1 << 16);
    let cores = std::thread::available_parallelism().unwrap().get();
    assert_eq!((parts, threads), (cores, cores));
}

#[test]
fn a_progress_observer_sees_the_cycles_and_changes_nothing() {
    let mut c = small("torus:4x4", "ecube", 0.3);
    c.net.warmup_cycles = 6000; // past one progress step
    c.net.window_cycles = 17; // steps of whole windows that do not divide 4096
    let p = plan(&c).unwrap();
    let mut seen = Vec::new();
    let observed = exanet::net::setup::build(&c, &p, c.net.load)
        .unwrap()
        .run_phases_observed(c.net.drain_cycles, c.net.load, 8.0, &mut |k| seen.push(k));
    // as before progress lines: the window's end in one run, then the drain
    let mut net = exanet::net::setup::build(&c, &p, c.net.load).unwrap();
    net.run(c.net.warmup_cycles + c.net.measure_cycles);
    let plain = net.run_phases(c.net.drain_cycles, c.net.load, 8.0);
    assert_eq!(observed.stats_hash, plain.stats_hash);
    assert_eq!(observed.cycles, plain.cycles);
    assert!(seen.len() > 3, "{seen:?}");
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    assert_eq!(seen.last(), Some(&observed.cycles));
}

#[test]
fn the_same_seed_repeats_and_another_seed_differs() {
    let c = small("torus:4x4", "ecube", 0.3);
    let a = run_cfg(&c);
    let b = run_cfg(&c);
    assert_eq!(a.stats_hash, b.stats_hash);
    let mut c2 = c.clone();
    c2.sim.seed += 1;
    let d = run_cfg(&c2);
    assert_ne!(
        a.stats_hash, d.stats_hash,
        "the seed must reach the generators"
    );
}

#[test]
fn constant_packet_number_keeps_n_packets_in_flight() {
    let mut c = small("torus:4x4", "ecube", 0.5);
    c.net.injection = "constant:2".parse().unwrap();
    let s = run_cfg(&c);
    assert!(s.packets_delivered > 200);
    assert_eq!(s.packets_in_flight, 0);
    // with 2 packets per endpoint in flight, the latency bounds the injected load: each
    // endpoint sends at most 2 packets per mean latency
    let per_cycle = s.packets_injected as f64 / 16.0 / c.net.measure_cycles as f64;
    assert!(
        per_cycle <= 2.0 / s.latency_mean_cycles * 1.2,
        "{per_cycle} packets a cycle, latency {}",
        s.latency_mean_cycles
    );
    // every delivery is answered by one new packet: generated (injected or still queued at
    // its source) minus delivered stays 2 per endpoint, give or take one an endpoint (a
    // delivery of the last cycle is answered at the next; a packet being written counts both
    // as injected and as queued); a drift either way would leave the band
    use exanet::net::setup::build;
    let p = plan(&c).unwrap_or_else(|e| panic!("{e}"));
    let mut net = build(&c, &p, c.net.load).unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..20 {
        net.run(97);
        let m = net.merged();
        let queued: u64 = net
            .nodes
            .iter()
            .flat_map(|n| &n.nics)
            .map(|x| x.queued())
            .sum();
        let held = (m.injected + queued) as i64 - m.delivered as i64;
        assert!((16..=48).contains(&held), "{held} packets, not 2 x 16");
    }
}

// ---- the command line ----

fn refused(args: &[&str], needle: &str) {
    let o = exanet(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: '{needle}' not in: {err}");
}

#[test]
fn bad_input_is_refused_with_exit_2() {
    let sweep = |topo: &str, routing: &str, loads: &str| -> Vec<String> {
        [
            "network",
            "sweep",
            "--topology",
            topo,
            "--routing",
            routing,
            "--loads",
            loads,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    // each needle is the reason, not only the value the user gave
    let cases: [(Vec<String>, &str); 8] = [
        (
            sweep("torus:4x4x", "ecube", "0.1"),
            "size '' is not a number",
        ),
        (sweep("ring:8", "ecube", "0.1"), "unknown kind 'ring'"),
        (
            sweep("torus:4x4", "xy-adaptive", "0.1"),
            "invalid value 'xy-adaptive' for '--routing",
        ),
        (
            sweep("dragonfly:p=2,a=4,h=2,g=4", "min", "0.1"),
            "g - 1 = 3 must divide a h = 8",
        ),
        (sweep("torus:4x4", "min", "0.1"), "'min' routes dragonflies"),
        (
            sweep("torus:4x4", "ecube", "1.5"),
            "load 1.5 is outside (0, 1]",
        ),
        (
            sweep("torus:4x4", "ecube", "0.5:0.1:0.1"),
            "start 0.5 is above stop 0.1",
        ),
        (
            sweep("torus:255x255x255", "ecube", "0.1"),
            "16581375 nodes; network runs build at most 65536",
        ),
    ];
    for (args, needle) in &cases {
        let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        refused(&a, needle);
    }
    // threads: none, more than the partitions, more than the nodes
    let mut s = sweep("torus:4x4", "ecube", "0.1");
    s.extend(["--threads".to_string(), "0".to_string()]);
    refused(
        &s.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        "invalid value '0' for '--threads <N>'",
    );
    refused(
        &[
            "network",
            "run",
            "--threads",
            "4",
            "--set",
            "net.partitions=2",
        ],
        "4 threads: more than the partitions (net.partitions = 2)",
    );
    refused(
        &[
            "network",
            "run",
            "--threads",
            "5",
            "--set",
            "net.topology=torus:2x2",
        ],
        "threads: 5: must be between 1 and the partitions (4 for 4 nodes)",
    );
    let dir = std::env::temp_dir().join(format!("exanet-net-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text, needle) in [
        ("malformed.toml", "[net\ntopology = 1", "malformed.toml"),
        (
            "badkey.toml",
            "[net]\ntopologie = \"torus:4x4\"\n",
            "topologie",
        ),
        ("badload.toml", "[net]\nload = 2.0\n", "load"),
        (
            "badtopo.toml",
            "[net]\ntopology = \"torus:0x4\"\n",
            "torus:0x4",
        ),
        (
            "linkber.toml",
            "[net]\nlink_ber = [{ a = 0, b = 99, ber = 1e-6 }]\n",
            "node 99 does not exist",
        ),
        (
            "words.toml",
            "[link]\nsize_in_words = true\n",
            "network runs size packets in bytes",
        ),
    ] {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        refused(&["network", "run", "--config", f.to_str().unwrap()], needle);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sweep_prints_the_cnf_fields_and_writes_csv_and_plot() {
    let dir = std::env::temp_dir().join(format!("exanet-net-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, svg) = (dir.join("cnf.csv"), dir.join("cnf.svg"));
    let o = exanet(&[
        "network",
        "sweep",
        "--topology",
        "torus:4x4",
        "--routing",
        "ecube",
        "--topology",
        "mesh:4x4",
        "--routing",
        "ecube",
        "--loads",
        "0.05,0.2",
        "--seed",
        "3",
        "--json",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let curves = v["curves"].as_array().expect("curves");
    assert_eq!(curves.len(), 2);
    for c in curves {
        let pts = c["points"].as_array().expect("points");
        assert_eq!(pts.len(), 2);
        for p in pts {
            for k in [
                "offered_load",
                "accepted_load",
                "latency_mean_cycles",
                "latency_std_cycles",
                "packets_delivered",
                "packets_in_flight",
            ] {
                assert!(p[k].is_number(), "{k} missing: {p}");
            }
            let (off, acc) = (
                p["offered_load"].as_f64().unwrap(),
                p["accepted_load"].as_f64().unwrap(),
            );
            assert!((off - acc).abs() < 0.03, "{off} offered, {acc} accepted");
        }
    }
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.lines().next().unwrap().contains("accepted_load"));
    assert_eq!(text.lines().count(), 1 + 4);
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.contains("<svg") && plot.contains("mesh:4x4"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn run_prints_its_statistics_as_json() {
    let dir = std::env::temp_dir().join(format!("exanet-net-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("run.toml");
    std::fs::write(
        &f,
        "[net]\ntopology = \"exanest:torus3x3\"\nload = 0.2\nprobe = \"src=0,dst=4,period=500\"\nmeasure_cycles = 3000\n",
    )
    .unwrap();
    let o = exanet(&["network", "run", "--config", f.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert!(v["packets_delivered"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(v["packets_in_flight"].as_u64(), Some(0));
    assert!(v["probe_latency_mean_cycles"].as_f64().unwrap() > 62.0);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_congested_network_overflows_no_fifo_and_loses_no_packet() {
    // short packets past saturation: the receive FIFOs fill and the credit threshold must hold
    let mut c = small("torus:4x4", "ecube", 1.0);
    c.net.sizes = "1:32".parse().unwrap();
    c.net.measure_cycles = 2000;
    c.net.drain_cycles = 100_000;
    let s = run_cfg(&c);
    assert!(s.accepted_load < 0.9, "not congested: {}", s.accepted_load);
    assert_eq!(s.fifo_errors, 0, "a FIFO overflowed");
    assert_eq!(s.packets_in_flight, 0);
    assert_eq!((s.crc_errors, s.payload_errors, s.order_errors), (0, 0, 0));
    // the thesis's TRED of 128 units is refused for these packets, with the reason
    c.net.tred_units = 128;
    let e = plan(&c)
        .and_then(|p| run(&c, &p, 1.0).map(|_| ()))
        .unwrap_err();
    assert!(e.contains("net.tred_units = 128"), "{e}");
}

// ---- memory bound and the benchmark command ----

#[test]
fn fifo_memory_is_held_only_for_live_words_and_bounded_by_the_depths() {
    use exanet::net::setup::build;
    let c = small("torus:4x4", "ecube", 0.35);
    let p = plan(&c).unwrap_or_else(|e| panic!("{e}"));
    let mut net = build(&c, &p, c.net.load).unwrap_or_else(|e| panic!("{e}"));
    let (held0, depth) = net.fifo_words();
    assert_eq!(held0, 0, "an empty network holds no FIFO word");
    // at least the link FIFOs: 4 ports x 2 VCs, an RX and a TX packet FIFO each
    let l = &c.link;
    let per_node = 4
        * 2
        * (l.rx_hf_fifo_depth_words
            + l.rx_fifo_depth_words
            + l.tx_hf_fifo_depth_words
            + l.tx_fifo_depth_words) as u64;
    assert!(depth >= 16 * per_node, "{depth} < 16 x {per_node}");
    net.run(3000);
    let (held, depth2) = net.fifo_words();
    assert_eq!(depth2, depth);
    assert!(held > 0, "traffic flowed but no FIFO holds a word");
    assert!(
        held <= depth,
        "held {held} words, more than the depths {depth}"
    );
}

#[test]
fn bench_network_runs_a_case_and_refuses_bad_values() {
    // one case of `bench network`, here, with `extra` options
    let case = |cycles: &str, extra: &[&str]| -> serde_json::Value {
        let mut a = vec![
            "bench",
            "network",
            "--case",
            "torus32-10",
            "--cycles",
            cycles,
        ];
        a.extend_from_slice(extra);
        a.push("--json");
        let o = exanet(&a);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).expect("JSON")
    };
    let v = case("20", &[]);
    assert_eq!(v["nodes"], 1024);
    assert_eq!(v["timed_cycles"], 20);
    assert!(v["node_cycles_per_cpu_second"].as_f64().unwrap() > 0.0);
    assert!(v["packets_delivered"].as_u64().unwrap() > 0);
    let (held, depth) = (
        v["fifo_words_held"].as_u64().unwrap(),
        v["fifo_words_depth"].as_u64().unwrap(),
    );
    assert!(0 < held && held < depth, "{held} of {depth}");
    let (b, full) = (
        v["bytes_per_node"].as_f64().unwrap(),
        v["full_buffers_bytes_per_node"].as_f64().unwrap(),
    );
    // JSON floats carry 12 significant digits (docs/cli.md)
    let want = b + ((depth - held) * 16) as f64 / 1024.0;
    assert!((full - want).abs() <= want * 1e-11, "{full} against {want}");
    // on two threads: the windows of the timed cycles, each with its barrier
    let v2 = case("100", &["--set", "net.threads=2"]);
    assert_eq!(
        (v2["threads"].as_u64(), v2["partitions"].as_u64()),
        (Some(2), Some(2))
    );
    let latency = exanet::config::Config::default().link.phy.latency_cycles as u64;
    assert_eq!(v2["windows"].as_u64().unwrap(), 100u64.div_ceil(latency));
    // a thread waits at the barriers for part of the timed wall-clock time, never more
    let (wait, wall) = (
        v2["barrier_seconds_per_window"].as_f64().unwrap() * v2["windows"].as_f64().unwrap(),
        v2["wall_seconds"].as_f64().unwrap(),
    );
    assert!((0.0..=wall).contains(&wait), "waited {wait} s of {wall} s");
    assert_eq!(
        (v["threads"].as_u64(), v["windows"].as_u64()),
        (Some(1), Some(0))
    );
    refused(
        &["bench", "network", "--threads", "2", "--case", "torus32-10"],
        "cannot be used with",
    );
    refused(
        &["bench", "network", "--case", "torus7"],
        "invalid value 'torus7' for '--case",
    );
    // (clap's range: "invalid value '0' for '--cycles <CYCLES>': 0 is not in 1..=1000000")
    let range = format!("1..={}", exanet::net::bench::MAX_CYCLES);
    refused(&["bench", "network", "--cycles", "0"], &range);
    let over = (exanet::net::bench::MAX_CYCLES + 1).to_string();
    refused(&["bench", "network", "--cycles", &over], &range);
    let range = format!("0..={}", exanet::net::bench::MAX_CYCLES);
    refused(&["bench", "network", "--warmup", &over], &range);
}

#[test]
fn a_bench_case_s_statistics_hash_is_network_run_s_of_its_configuration() {
    // the dragonfly case, short: its warm-up, timed cycles and no drain as `network run`'s
    // window; `network run` on its default threads, the case on one
    let json = |args: &[&str]| -> serde_json::Value {
        let o = exanet(args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).expect("JSON")
    };
    // the bench's arguments, once: with --json, then without for the text
    const CASE: [&str; 8] = [
        "bench",
        "network",
        "--case",
        "dragonfly1056-30",
        "--warmup",
        "300",
        "--cycles",
        "300",
    ];
    let b = json(&[&CASE[..], &["--json"]].concat());
    assert_eq!(
        (
            b["nodes"].as_u64(),
            b["routing"].as_str(),
            b["warmup_cycles"].as_u64()
        ),
        (Some(264), Some("min"), Some(300))
    );
    assert!(b["packets_delivered"].as_u64().unwrap() > 100, "{b}");
    let r = json(&[
        "network",
        "run",
        "--set",
        "net.topology=dragonfly:p=4,a=8,h=4",
        "--set",
        "net.routing=min",
        "--set",
        "net.load=0.3",
        "--set",
        "net.warmup_cycles=300",
        "--set",
        "net.measure_cycles=300",
        "--set",
        "net.drain_cycles=0",
        "--json",
    ]);
    assert_eq!(r["stats_hash"], b["stats_hash"]);
    assert_eq!(r["packets_delivered_total"], b["packets_delivered"]);
    // the text gives the hash too
    let o = exanet(&CASE);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains(b["stats_hash"].as_str().unwrap()), "{text}");
    assert!(
        text.contains("dragonfly1056-30 dragonfly:p=4,a=8,h=4"),
        "{text}"
    );
}

#[test]
fn against_another_build_compares_the_same_runs_alternately_and_names_a_bad_binary() {
    // this build against itself: the same statistics, a ratio a round, each run costed
    let me = env!("CARGO_BIN_EXE_exanet");
    let o = exanet(&[
        "bench",
        "network",
        "--against",
        me,
        "--case",
        "dragonfly1056-30",
        "--warmup",
        "100",
        "--cycles",
        "200",
        "--rounds",
        "2",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let c = &v["cases"][0];
    assert_eq!(
        (c["case"].as_str(), c["nodes"].as_u64()),
        (Some("dragonfly1056-30"), Some(264))
    );
    assert_eq!(c["cycles"].as_u64(), Some(300));
    assert_eq!(c["same_statistics"], true, "{c}");
    // the hash is the bench case's, which is `network run`'s of its configuration
    let b = exanet(&[
        "bench",
        "network",
        "--case",
        "dragonfly1056-30",
        "--warmup",
        "100",
        "--cycles",
        "200",
        "--json",
    ]);
    let b: serde_json::Value = serde_json::from_slice(&b.stdout).expect("JSON");
    assert_eq!(c["this_stats_hash"], b["stats_hash"]);
    let ratios = c["ratios"].as_array().unwrap();
    assert_eq!(ratios.len(), 2);
    for (k, r) in ratios.iter().enumerate() {
        let (a, o) = (
            c["this"][k]["cpu_seconds"].as_f64().unwrap(),
            c["other"][k]["cpu_seconds"].as_f64().unwrap(),
        );
        assert!(a > 0.0 && o > 0.0, "{c}");
        assert!((r.as_f64().unwrap() - o / a).abs() < 1e-9, "{c}");
        assert!(c["this"][k]["peak_resident_bytes"].as_u64().unwrap() > 1 << 20);
    }
    refused(
        &["bench", "network", "--against", "/nonexistent/exanet"],
        "--against /nonexistent/exanet: no such file",
    );
    refused(
        &[
            "bench",
            "network",
            "--against",
            "/bin/true",
            "--case",
            "torus32-10",
        ],
        "is it an exanet binary?",
    );
    refused(&["bench", "network", "--rounds", "2"], "--against");
}

// ---- deadlock freedom past saturation (docs/decisions/0013) ----

#[test]
fn every_routing_drains_completely_after_an_overload() {
    use exanet::net::setup::build;
    // Pisani 2016 §2.6.2: stop the injection and wait; a packet that never arrives is deadlocked
    for (topo, routing) in [
        ("torus:8x8", "ecube"),
        ("torus:8x8", "star-channel"),
        ("torus:8x8", "smart-dor"),
        ("mesh:6x6", "star-channel"),
        ("dragonfly:p=2,a=4,h=2", "min"),
    ] {
        let mut c = small(topo, routing, 0.9);
        c.net.sizes = "16:256".parse().unwrap();
        let p = plan(&c).unwrap_or_else(|e| panic!("{e}"));
        let mut net = build(&c, &p, c.net.load).unwrap_or_else(|e| panic!("{e}"));
        net.run(15_000);
        let held = |n: &Network| {
            let m = n.merged();
            m.injected - m.delivered
        };
        assert!(held(&net) > 500, "{topo} {routing}: not overloaded");
        net.stop_injecting();
        let mut waited = 0;
        while held(&net) > 0 && waited < 60_000 {
            net.run(1000);
            waited += 1000;
        }
        let m = net.merged();
        assert_eq!(held(&net), 0, "{topo} {routing}: packets never delivered");
        assert_eq!(m.payload_errors + m.crc_bad + m.order_errors, 0);
        assert_eq!(net.fifo_errors(), 0, "{topo} {routing}");
    }
}

/// Packets delivered by a 16x16 torus at load 0.9 (64-byte packets) in cycles 32000..36000.
fn delivered_late(routing: &str, whole_packet: bool) -> u64 {
    use exanet::net::setup::build;
    let mut c = Config::default();
    c.net.topology = "torus:16x16".parse().unwrap();
    c.net.routing = routing.parse().unwrap();
    c.net.load = 0.9;
    c.net.sizes = "64".parse().unwrap();
    c.net.whole_packet_credit = whole_packet;
    let p = plan(&c).unwrap_or_else(|e| panic!("{e}"));
    let mut net = build(&c, &p, c.net.load).unwrap_or_else(|e| panic!("{e}"));
    net.run(32_000);
    let before = net.merged().delivered;
    net.run(4000);
    assert_eq!(
        net.fifo_errors(),
        0,
        "{routing}, whole packet {whole_packet}"
    );
    net.merged().delivered - before
}

#[test]
fn a_packet_stopped_inside_by_credit_deadlocks_a_saturated_torus_whole_packets_do_not() {
    // Seed 002's TCL checks the credit before every word: a packet stopped half way holds its
    // link, so the other VCs of that link wait behind it and the escape VCs are no longer
    // independent. Past saturation the torus then locks up (no packet delivered at all).
    assert_eq!(delivered_late("star-channel", false), 0);
    // With the credit checked only before a packet, the VCs stay independent and the same
    // network keeps delivering, for the adaptive algorithm and for e-cube.
    for routing in ["star-channel", "ecube"] {
        let n = delivered_late(routing, true);
        assert!(n > 5000, "{routing}: {n} packets in 4000 cycles");
    }
}

#[test]
fn packets_a_pattern_sends_to_their_own_source_are_counted() {
    // transpose maps the diagonal of a 4x4 torus onto itself: those packets are never sent,
    // and the summary says how many; uniform traffic never picks its own source
    let mut c = small("torus:4x4", "ecube", 0.2);
    c.net.pattern = "transpose".parse().unwrap();
    let t = run_cfg(&c);
    assert!(t.self_addressed > 0, "{t:?}");
    assert_eq!(t.packets_in_flight, 0);
    c.net.pattern = "uniform".parse().unwrap();
    assert_eq!(run_cfg(&c).self_addressed, 0);
}

/// Issue 32 §1, as BookSim reports a point: packet latency (made to delivered, the source's
/// software queue included) beside network latency, percentiles and a histogram of the network
/// latencies, and a saturation flag that marks the points past the peak. 10x10 e-cube peaks
/// near 0.35: at 0.2 it keeps up, at 0.5 (injected 0.42, accepted 0.33) it does not.
#[test]
fn a_point_reports_packet_latency_percentiles_a_histogram_and_whether_it_saturated() {
    let point = |load: f64| {
        let mut cfg = Config::default();
        cfg.net.topology = "torus:10x10".parse().unwrap();
        cfg.net.load = load;
        cfg.net.measure_cycles = 5000;
        cfg.net.drain_cycles = 20_000;
        let p = plan(&cfg).unwrap();
        run(&cfg, &p, load).unwrap()
    };
    let s = point(0.2);
    assert!(!s.saturated, "{s:?}");
    assert!(s.stable);
    assert!(
        (s.generated_load - 0.2).abs() < 0.01,
        "{}",
        s.generated_load
    );
    // every window packet carries its source's timestamp: packet = queue + network, packet
    // by packet, so the means add up
    assert!(s.source_queue_mean_cycles >= 0.0);
    assert!(
        (s.packet_latency_mean_cycles - s.source_queue_mean_cycles - s.latency_mean_cycles).abs()
            < 1e-6,
        "{s:?}"
    );
    assert!(s.packet_latency_max_cycles >= s.latency_max_cycles);
    let l = [
        s.latency_p50_cycles,
        s.latency_p90_cycles,
        s.latency_p99_cycles,
        s.latency_p999_cycles,
        s.latency_max_cycles,
    ];
    assert!(l.windows(2).all(|w| w[0] <= w[1]), "{l:?}");
    let h = &s.latency_histogram;
    assert_eq!(h.counts.iter().sum::<u64>(), s.packets_delivered);
    assert!(h.counts.len() as u32 <= exanet::net::stats::Histogram::MAX_BINS);
    assert_eq!(
        h.counts.len() as u32 - 1,
        s.latency_max_cycles / h.bin_cycles
    );
    assert!(h.counts[(s.latency_p50_cycles / h.bin_cycles) as usize] > 0);
    let s = point(0.5);
    assert!(s.saturated, "{s:?}");
    assert!(s.accepted_load < 0.9 * s.generated_load, "{s:?}");
    // (a 5,000-cycle window: the network is still filling up, the queues begin to grow)
    assert!(s.source_queue_growth_packets > 0, "{s:?}");
}
