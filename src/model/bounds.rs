//! The standard bounds beside the analytic model (issue 15 §1): the zero-load latency of the
//! ExaNet network, simulated, and the ideal uniform-traffic throughput of a k-ary n-cube.
//!
//! Zero load: the network's blocks are clocked with one lone sender, endpoint 0, sending eight
//! packets 2000 cycles apart (at eight phases of the credit schedule: a credit beat may fall
//! inside a long packet) to one destination at each distance its breadth-first search
//! finds (`hotspot` traffic with the whole fraction, e-cube: every minimal path of a torus takes
//! as long at zero load); the latency at each distance is weighed by the topology's hop
//! distribution for uniform traffic. Nothing is assumed of the pipeline: `tests/net_engine.rs`
//! holds the same lone packets to the documented sum of the pipelines (docs/network.md,
//! "Latency"), `62 h + max(11 + (W - 1), 6 + 2 (W - 1)) + 4` cycles, which long packets exceed
//! by the credit beats inside them (1024 bytes on an 8x8 torus: 393.9 cycles on average against
//! the sum's 391.9).
//!
//! Ideal throughput (Dally and Towles §3.3.1): under uniform traffic half the packets of a
//! k-ary n-cube cross its bisection, so a node can inject at most `8 b / k` (k even) on
//! channels of bandwidth `b`. Here `b` is the lane's 8 bytes a cycle times the link's framing
//! efficiency for the packet (Biagioni 2017 §5.3.4's formula without credits,
//! `measure::efficiency::formula`), as a fraction of the endpoint's injection bandwidth.

use crate::config::Config;
use crate::measure::efficiency::formula;
use crate::net::ber_model::hop_distribution;
use crate::net::engine::{NetSetup, Network};
use crate::net::stats::Window;
use crate::net::topology::Topology;
use crate::net::traffic::{Injector, Periodic, SizeDist};
use std::sync::Arc;

/// Cycles between the lone sender's packets (each one alone in the network).
const PERIOD: u64 = 2000;

/// The simulated latency of lone packets of `payload_bytes` from endpoint 0 of `t` to endpoint
/// `dst`: header into the source TX FIFO to the destination NIC's pop of the footer, cycles.
pub fn lone_packet_cycles(
    cfg: &Config,
    t: Arc<dyn Topology>,
    dst: usize,
    payload_bytes: u32,
) -> Result<f64, String> {
    // endpoint 0's; the engine gives the others none
    let injectors: Vec<Option<Box<dyn Injector>>> = vec![Some(Box::new(Periodic::new(PERIOD, 0)?))];
    let setup = NetSetup {
        routing: crate::spec::RoutingSpec::Ecube.build().into(),
        pattern: crate::net::traffic::parse_pattern(&format!("hotspot:node={dst},frac=1"))?,
        sizes: SizeDist::Fixed(payload_bytes),
        injectors,
        probe: None,
        seed: cfg.sim.seed,
        partitions: 1,
        threads: 1,
        window: cfg.link.phy.latency_cycles as u64,
        idle_skip: true,
        check: true,
        tred: crate::net::tred::network_tred(cfg, payload_bytes, payload_bytes)?,
        topo: t,
    };
    // after the lanes are up, eight packets: each meets the credit schedule at another phase
    // (a credit beat may fall inside a long packet), and the mean is over them
    let w = Window {
        start: PERIOD,
        end: 9 * PERIOD,
    };
    let s = Network::new(cfg, setup, w)?.run_phases(20 * PERIOD, 0.0, 8.0);
    if s.packets_delivered != 8 {
        return Err(format!(
            "lone packets to endpoint {dst}: {} of 8 delivered",
            s.packets_delivered
        ));
    }
    Ok(s.latency_mean_cycles)
}

/// The mean zero-load latency of uniform traffic on `t` (every other endpoint equally likely),
/// simulated at each distance from endpoint 0 and weighed by the hop distribution (`t` a
/// torus or mesh with one terminal a node, whose every node sees the same distances).
pub fn zero_load_uniform(
    cfg: &Config,
    t: Arc<dyn Topology>,
    payload_bytes: u32,
) -> Result<f64, String> {
    let dist = hop_distribution(t.as_ref());
    // a node at each distance from node 0
    let hops = crate::net::topology::hops_from(t.as_ref(), 0);
    let mut mean = 0.0;
    for (h, p) in dist.iter().enumerate().filter(|(_, p)| **p > 0.0) {
        let node = hops
            .iter()
            .position(|&d| d == h as u32)
            .ok_or_else(|| format!("no node {h} hops from node 0"))?;
        let dst = t.endpoint_index(node, 0);
        mean += p * lone_packet_cycles(cfg, t.clone(), dst, payload_bytes)?;
    }
    Ok(mean)
}

/// The ideal accepted load of uniform traffic on a k-ary n-cube (k even) with packets of
/// `payload_bytes`: `8 b / k` over the injection bandwidth (8 bytes a cycle), at most 1.
pub fn ideal_load(k: u32, payload_bytes: u32) -> f64 {
    (8.0 / k as f64 * formula(payload_bytes, 0.0, 0.0, 0.0)).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::topology::parse;

    #[test]
    fn lone_packets_take_the_documented_pipeline() {
        // docs/network.md: 62 h + max(11 + (W - 1), 6 + 2 (W - 1)) + 4; 64 bytes is 6 words
        let cfg = Config::default();
        let t: Arc<dyn Topology> = parse("torus:8x8").unwrap().into();
        // endpoint 1 is one hop away, endpoint 3 + 3 x 8 six
        assert_eq!(lone_packet_cycles(&cfg, t.clone(), 1, 64).unwrap(), 82.0);
        assert_eq!(lone_packet_cycles(&cfg, t.clone(), 27, 64).unwrap(), 392.0);
        // the uniform mean: 4 x 64 / 63 hops on average
        let z = zero_load_uniform(&cfg, t, 64).unwrap();
        let want = 20.0 + 62.0 * 256.0 / 63.0;
        assert!((z - want).abs() < 1e-9, "{z} {want}");
    }

    #[test]
    fn the_ideal_throughput_halves_with_the_radix() {
        // k = 8: the bisection allows a whole channel a node; the framing takes its share
        assert_eq!(ideal_load(8, 4096), formula(4096, 0.0, 0.0, 0.0));
        assert_eq!(ideal_load(4, 4096), 1.0);
        let a = ideal_load(16, 512);
        assert!((a - 0.5 * formula(512, 0.0, 0.0, 0.0)).abs() < 1e-12);
        assert!(ideal_load(32, 512) < a);
    }
}
