//! Issue 14 §1: bit errors in network runs. Every packet injected is delivered intact,
//! delivered with a CRC error, discarded by a link, dropped by a router or still in flight, and
//! once the network holds no packet, what is still "in flight" is exactly what the links' own
//! books say was sent and never accounted for at the other end: nothing is lost uncounted.

mod common;
use common::{exanet, exanet_json as json};
use exanet::config::Config;
use exanet::net::account::PacketAccount;
use exanet::net::setup::{build, plan};

/// `in_flight` is what is left of the injected packets once the four places are taken, so the
/// sum holds by construction; what can fail is a place counted twice, which leaves a negative
/// remainder. (At the end of a drain the remainder must be what the links' books hold.)
fn sums(a: &PacketAccount) -> bool {
    a.in_flight >= 0
}

/// A 4x4 torus at `load` with every link at `ber`: run, checking the books every 500 cycles,
/// then stop injecting and run until no packet is left anywhere. The books at the end.
fn books(ber: f64, load: f64, seed: u64, routing: &str) -> PacketAccount {
    let mut cfg = Config::default();
    cfg.link.phy.ber = ber;
    cfg.sim.seed = seed;
    cfg.net.load = load;
    cfg.net.threads = 1;
    cfg.net.routing = routing.parse().unwrap();
    let p = plan(&cfg).unwrap();
    let mut net = build(&cfg, &p, load).unwrap();
    for _ in 0..8 {
        net.run(500);
        let a = net.account();
        assert!(
            sums(&a),
            "ber {ber:e}, load {load}, cycle {}: {a:?}",
            net.cycle
        );
        assert!(
            a.in_flight >= a.in_flight_on_links && a.in_flight_on_links >= 0,
            "ber {ber:e}, load {load}, cycle {}: {a:?}",
            net.cycle
        );
    }
    net.stop_injecting();
    let mut waited = 0;
    while !net.holds_no_packet() {
        net.run(250);
        waited += 250;
        assert!(
            waited <= 200_000,
            "ber {ber:e}, load {load}: the network still holds packets {waited} cycles after \
             the sources stopped: {:?}",
            net.account()
        );
    }
    let a = net.account();
    assert!(sums(&a), "ber {ber:e}, load {load}: {a:?}");
    assert_eq!(
        a.in_flight, a.in_flight_on_links,
        "ber {ber:e}, load {load}: with no packet left in the network, every packet not delivered, \
         discarded or dropped must be one a link sent and never accounted for: {a:?}"
    );
    a
}

#[test]
fn every_packet_is_accounted_for_at_every_rate_and_load() {
    let mut hurt = 0;
    for ber in [0.0, 1e-9, 1e-6, 1e-5, 1e-4, 1e-3] {
        for load in [0.1, 0.5] {
            let a = books(ber, load, 7, "ecube");
            assert!(a.injected > 100, "{a:?}");
            if ber == 0.0 {
                assert_eq!(
                    (
                        a.crc_failed,
                        a.discarded,
                        a.dropped,
                        a.in_flight,
                        a.beats_hit
                    ),
                    (0, 0, 0, 0, 0),
                    "an error-free run loses nothing: {a:?}"
                );
            }
            if ber >= 1e-4 {
                assert!(a.beats_hit > 0, "ber {ber:e}: {a:?}");
                hurt += (a.crc_failed + a.discarded > 0) as u32;
            }
        }
    }
    assert!(hurt >= 3, "high rates corrupt or discard packets");
}

#[test]
fn star_channel_and_a_dragonfly_keep_their_books_too() {
    books(1e-4, 0.3, 3, "star-channel");
    let mut cfg = Config::default();
    cfg.link.phy.ber = 1e-4;
    cfg.net.topology = "dragonfly:p=2,a=4,h=2".parse().unwrap();
    cfg.net.routing = "min".parse().unwrap();
    cfg.net.load = 0.2;
    cfg.net.threads = 1;
    let p = plan(&cfg).unwrap();
    let mut net = build(&cfg, &p, 0.2).unwrap();
    net.run(4000);
    net.stop_injecting();
    while !net.holds_no_packet() {
        net.run(250);
        assert!(net.cycle < 100_000, "{:?}", net.account());
    }
    let a = net.account();
    assert!(sums(&a) && a.in_flight == a.in_flight_on_links, "{a:?}");
    assert!(a.beats_hit > 0);
}

/// `network run --json` of a short 4x4 torus run, with `sets` (`--set` each).
fn run_with<'a>(sets: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec!["network", "run"];
    for s in [
        "net.topology=torus:4x4",
        "net.measure_cycles=3000",
        "net.warmup_cycles=1000",
        "net.drain_cycles=2000",
    ]
    .iter()
    .chain(sets)
    {
        a.extend(["--set", s]);
    }
    a.push("--json");
    a
}

#[test]
fn the_summary_shows_the_four_counts_and_the_same_seed_gives_the_same_errors() {
    let args = run_with(&["link.phy.ber=1e-4"]);
    let a = json(&args);
    let b = json(&args);
    assert_eq!(a["stats_hash"], b["stats_hash"], "seeded errors");
    let x = &a["accounting"];
    let n = |k: &str| x[k].as_i64().unwrap_or_else(|| panic!("{k} in {x}"));
    assert!(n("beats_hit") > 0, "{x}");
    assert_eq!(
        n("delivered_intact") + n("crc_failed") + n("discarded") + n("dropped") + n("in_flight"),
        n("injected"),
        "{x}"
    );
    let clean = json(&run_with(&[]));
    assert_ne!(clean["stats_hash"], a["stats_hash"]);
    assert_eq!(clean["accounting"]["beats_hit"], 0);
}

#[test]
fn a_per_link_rate_hits_that_link_only() {
    let one = run_with(&["net.link_ber=[{a = 0, b = 1, ber = 1e-3}]"]);
    let v = json(&one);
    let flips = v["accounting"]["bits_flipped"].as_u64().unwrap();
    assert!(flips > 0, "{}", v["accounting"]);
    // packets are discarded only where the errors are: on the two lanes between nodes 0 and 1
    let losses = v["link_losses"].as_array().unwrap();
    let mut discarding = 0;
    for l in losses {
        let n = |k: &str| l[k].as_u64().unwrap();
        if n("discarded_header") + n("discarded_framing") + n("discarded_resync") > 0 {
            discarding += 1;
            let ends = [n("from"), n("to")];
            assert!(ends == [0, 1] || ends == [1, 0], "{l}");
        }
    }
    assert!(discarding > 0, "{losses:?}");
    // the link 0-1 carries a few per cent of the traffic: far fewer flips than every link at
    // that rate
    let w = json(&run_with(&["link.phy.ber=1e-3"]));
    let every = w["accounting"]["bits_flipped"].as_u64().unwrap();
    assert!(flips * 4 < every, "{flips} on one link, {every} on all");
}

#[test]
fn bad_per_link_rates_are_refused_naming_the_entry() {
    for (set, want) in [
        (
            "net.link_ber=[{a = 0, b = 99, ber = 1e-3}]",
            "node 99 does not exist",
        ),
        ("net.link_ber=[{a = 0, b = 5, ber = 1e-3}]", "not linked"),
        (
            "net.link_ber=[{a = 0, b = 1, ber = 0.7}]",
            "between 0 and 0.5",
        ),
        ("net.link_ber=[{a = 0, b = 1}]", "ber"),
    ] {
        let o = exanet(&[
            "network",
            "run",
            "--set",
            "net.topology=torus:4x4",
            "--set",
            set,
        ]);
        assert_eq!(o.status.code(), Some(2), "{set}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("net.link_ber") && err.contains(want),
            "{set}: {err}"
        );
    }
}

#[test]
fn errors_do_not_depend_on_threads_partitioning_window_or_idle_skipping() {
    for (topo, routing) in [("torus:6x6", "ecube"), ("dragonfly:p=2,a=2,h=1,g=3", "min")] {
        let mut c = Config::default();
        c.link.phy.ber = 1e-4;
        c.net.topology = topo.parse().unwrap();
        c.net.routing = routing.parse().unwrap();
        c.net.load = 0.35;
        c.net.warmup_cycles = 1000;
        c.net.measure_cycles = 3000;
        c.net.drain_cycles = 2000;
        let nodes = plan(&c).unwrap().topo.nodes() as u32;
        let run = |threads: u32, parts: u32, window: u64, skip: bool| {
            let mut c2 = c.clone();
            (c2.net.threads, c2.net.partitions) = (threads.min(nodes), parts.min(nodes));
            (c2.net.window_cycles, c2.net.idle_skip) = (window, skip);
            exanet::net::setup::run(&c2, &plan(&c2).unwrap(), c2.net.load).unwrap()
        };
        let reference = run(1, 1, 1, false);
        assert!(reference.accounting.beats_hit > 0);
        for (threads, parts, window, skip) in [
            (1, 3, 17, true),
            (2, 2, 0, true),
            (3, 7, 1, false),
            (4, 6, 0, true),
        ] {
            let s = run(threads, parts, window, skip);
            let what = format!(
                "{topo}: threads {threads}, partitions {parts}, window {window}, skip {skip}"
            );
            assert_eq!(s.stats_hash, reference.stats_hash, "{what}");
            assert_eq!(s.accounting, reference.accounting, "{what}");
        }
    }
}

#[test]
fn application_runs_refuse_bit_errors_they_could_not_recover_from() {
    for set in [
        "link.phy.ber=1e-6",
        "net.link_ber=[{a = 0, b = 1, ber = 1e-6}]",
    ] {
        let o = exanet(&["app", "run", "alltoall", "--set", set]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{set}: {err}");
        assert!(err.contains("transport layer"), "{set}: {err}");
    }
}

#[test]
fn the_simulated_fractions_follow_what_secded_and_the_crc_predict() {
    // 6x6 torus, uniform traffic, 64-byte packets: the run's fractions of finished packets
    // against the formula (ber_model.rs), within four binomial standard deviations plus 10 %
    // of the predicted fraction (the formula leaves out credits and merged packets)
    for ber in [1e-5, 1e-4] {
        let v = json(&[
            "network",
            "run",
            "--set",
            "net.topology=torus:6x6",
            "--set",
            "net.measure_cycles=22000",
            "--set",
            "net.warmup_cycles=1000",
            "--set",
            "net.drain_cycles=2000",
            "--set",
            &format!("link.phy.ber={ber}"),
            "--json",
        ]);
        let a = &v["accounting"];
        let p = &v["ber_prediction"];
        let n = |k: &str| a[k].as_f64().unwrap();
        let done = n("injected") - n("in_flight");
        assert!(done > 10_000.0, "{a}");
        for (measured, predicted) in [
            (n("delivered_intact"), "intact"),
            (n("crc_failed"), "crc_failed"),
            (n("discarded") + n("dropped"), "discarded"),
        ] {
            let q = p[predicted].as_f64().unwrap();
            let sd = (done * q * (1.0 - q)).sqrt();
            assert!(
                (measured - done * q).abs() <= 4.0 * sd + 0.1 * done * q,
                "ber {ber:e}, {predicted}: measured {measured} of {done}, predicted {}",
                done * q
            );
        }
    }
}
