//! The network engine's results do not depend on how it is run: idle skipping on or off, any
//! partitioning, any window (the order in which nodes and cycles are stepped) give the same
//! statistics, bit for bit.

use exanet::config::Config;
use exanet::net::setup::{plan, run};

/// A change to the configuration, named.
type Variant = (&'static str, fn(&mut Config));

fn hash(f: impl Fn(&mut Config)) -> (String, u64) {
    let mut cfg = Config::default();
    let n = &mut cfg.net;
    n.topology = "torus:6x6".into();
    n.routing = "ecube".into();
    n.load = 0.4;
    n.sizes = "16:256".into();
    n.warmup_cycles = 300;
    n.measure_cycles = 1200;
    n.drain_cycles = 0;
    n.check = true;
    f(&mut cfg);
    let p = plan(&cfg).unwrap_or_else(|e| panic!("{e}"));
    let s = run(&cfg, &p, cfg.net.load).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((s.crc_errors, s.payload_errors, s.order_errors), (0, 0, 0));
    (s.stats_hash, s.packets_delivered)
}

#[test]
fn same_statistics_however_the_engine_steps() {
    let base = hash(|_| {});
    assert!(base.1 > 100, "traffic flows: {} packets", base.1);
    let variants: [Variant; 4] = [
        ("no idle skipping", |c| c.net.idle_skip = false),
        ("3 partitions", |c| c.net.partitions = 3),
        ("7 partitions, window 13", |c| {
            c.net.partitions = 7;
            c.net.window_cycles = 13;
        }),
        ("window 1", |c| c.net.window_cycles = 1),
    ];
    for (name, f) in variants {
        assert_eq!(hash(f), base, "{name}");
    }
}
