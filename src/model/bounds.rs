//! The standard bounds beside the analytic model (issue 15 §1): the zero-load latency of the
//! ExaNet network from its blocks' pipelines, and the ideal uniform-traffic throughput of a
//! k-ary n-cube.
//!
//! Zero load (docs/network.md, "Latency"; `tests/net_engine.rs` holds this formula to the
//! simulated latency of lone packets, to the cycle): a hop is the router's 11 cycles (header
//! in to header out, docs/router.md) and the link's 3 (TCL TX) + 6 (TCL RX) + the PHY lane's
//! latency (42 by default; Biagioni 2017 §5.3.4's 3 + 6 + 42); at the destination the last
//! router's 11, the footer's lag behind the header (one word a cycle through the crossbar, or
//! two 64-bit beats a word on the last link plus the 6 cycles a payload word takes through the
//! router, whichever is later), and 4 cycles to the NIC's pop (FIFO latency 3, a registered
//! strobe):
//!
//! ```text
//!   T0(h, W) = (11 + 3 + 6 + L_phy) h + max(11 + (W - 1), 6 + 2 (W - 1)) + 4
//! ```
//!
//! Ideal throughput (Dally and Towles §3.3.1): under uniform traffic half the packets of a
//! k-ary n-cube cross its bisection, so a node can inject at most `8 b / k` (k even) on
//! channels of bandwidth `b`. Here `b` is the lane's 8 bytes a cycle times the link's framing
//! efficiency for the packet (Biagioni 2017 §5.3.4's formula without credits,
//! `measure::efficiency::formula`), as a fraction of the endpoint's injection bandwidth.

use crate::measure::efficiency::formula;
use crate::net::ber_model::hop_distribution;
use crate::net::topology::Topology;

/// The router's latency, header in to header out, cycles (docs/router.md).
pub const ROUTER_CYCLES: u64 = 11;
/// The TCL TX's and TCL RX's share of a hop, cycles (docs/link.md).
pub const TCL_TX_CYCLES: u64 = 3;
pub const TCL_RX_CYCLES: u64 = 6;

/// A lone packet of `words` 128-bit words (header and footer included) over `hops` links,
/// with a PHY lane of `phy_latency` cycles: injection into the source TX FIFO to the
/// destination NIC's pop of the footer.
pub fn pipeline_cycles(hops: u64, words: u64, phy_latency: u64) -> u64 {
    let hop = ROUTER_CYCLES + TCL_TX_CYCLES + TCL_RX_CYCLES + phy_latency;
    let w = words.max(1);
    hop * hops + (ROUTER_CYCLES + (w - 1)).max(6 + 2 * (w - 1)) + 4
}

/// The mean zero-load latency of uniform traffic on `t` (every other endpoint equally likely),
/// over its minimal hop distribution.
pub fn zero_load_uniform(t: &dyn Topology, words: u64, phy_latency: u64) -> f64 {
    hop_distribution(t)
        .iter()
        .enumerate()
        .map(|(h, p)| p * pipeline_cycles(h as u64, words, phy_latency) as f64)
        .sum()
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
    fn the_pipeline_is_the_documented_one() {
        // docs/network.md: 206 cycles for 64 bytes (6 words) three hops away with 42-cycle lanes
        assert_eq!(pipeline_cycles(3, 6, 42), 206);
        assert_eq!(pipeline_cycles(1, 6, 42), 82);
    }

    #[test]
    fn uniform_zero_load_is_between_the_nearest_and_the_farthest() {
        let t = parse("torus:8x8").unwrap();
        let z = zero_load_uniform(t.as_ref(), 6, 42);
        assert!(z > pipeline_cycles(1, 6, 42) as f64 && z < pipeline_cycles(8, 6, 42) as f64);
        // mean distance of an 8x8 torus to the 63 others: 4 x 64 / 63 hops
        let want = pipeline_cycles(0, 6, 42) as f64 + 62.0 * 256.0 / 63.0;
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
