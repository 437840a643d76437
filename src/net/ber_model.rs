//! What the APElink's codes predict for packets crossing links at a bit-error rate `p`
//! (issue 14 §4; Biagioni 2017 §5.3.4): the formula a run under bit errors is compared with.
//!
//! A packet of `k` payload words crosses a link as 2 + 2 + 2k + 2 beats of 64 bits: MAGIC and
//! START, the header's two beats, the payload, the footer. Each bit flips independently with
//! probability `p`. Per link:
//! - `s_frame = (1-p)^128`: MAGIC and START arrive intact (a flip in either loses the packet:
//!   the parser never sees it start);
//! - `s_hdr = (1-p)^128 + 128 p (1-p)^127`: at most one error in the header's 128 bits, which
//!   SECDED corrects (two or more lose the packet; three or more may also make a valid wrong
//!   header, which the model below counts as lost);
//! - `s_body = (1-p)^(128 (k + 1))`: payload and footer intact (any flip fails the CRC check,
//!   which flags the packet and lets it go on).
//!
//! Over `h` links: kept = `(s_frame s_hdr)^h`, intact = `(s_frame s_hdr s_body)^h`; CRC-failed
//! = kept - intact; discarded = 1 - kept. The hop count `h` is the minimal distance between a
//! uniformly chosen pair of distinct endpoints (uniform traffic, minimal routing), averaged
//! over the topology's pairs, and `k` over the payload sizes. Credits between packets, and
//! packets merged or split by a corrupted size field, are left out: the formula is the
//! first-order expectation a designer checks a run against.

use super::topology::{bfs, Topology};
use crate::spec::traffic::SizeDist;
use serde::{Deserialize, Serialize};

/// Bytes a payload word carries.
const WORD_BYTES: u32 = 16;

/// Source nodes the hop distribution is taken from at most (evenly spread over the nodes;
/// every node of a smaller network).
const MAX_SOURCES: usize = 64;

/// The predicted fate of a packet, as fractions of the packets injected.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct BerPrediction {
    /// The bit-error rate the prediction is for.
    pub ber: f64,
    pub intact: f64,
    pub crc_failed: f64,
    pub discarded: f64,
    /// The mean number of links a packet crosses (uniform traffic, minimal paths).
    pub mean_hops: f64,
}

/// The mean distance of a hop distribution (`hop_distribution`), hops.
pub fn mean_hops(dist: &[f64]) -> f64 {
    dist.iter().enumerate().map(|(h, p)| h as f64 * p).sum()
}

/// `dist[h]`: the fraction of (source endpoint, other destination endpoint) pairs `h` links
/// apart on minimal paths (breadth-first search from up to [`MAX_SOURCES`] nodes).
pub fn hop_distribution(t: &dyn Topology) -> Vec<f64> {
    let n = t.nodes();
    let step = n.div_ceil(MAX_SOURCES).max(1);
    let term = t.terminals() as f64;
    let mut count: Vec<f64> = Vec::new();
    let mut dist = vec![u32::MAX; n];
    for src in (0..n).step_by(step) {
        dist.fill(u32::MAX);
        bfs(t.ports(), src, &mut dist, |x, q| t.link(x, q));
        for (m, &d) in dist.iter().enumerate() {
            if d == u32::MAX {
                continue;
            }
            // endpoint pairs: every terminal of src to every terminal of m, not to itself
            let pairs = if m == src {
                term * (term - 1.0)
            } else {
                term * term
            };
            if count.len() <= d as usize {
                count.resize(d as usize + 1, 0.0);
            }
            count[d as usize] += pairs;
        }
    }
    let total: f64 = count.iter().sum();
    count.iter().map(|c| c / total).collect()
}

/// The prediction at rate `p` for packets of `sizes` over the hop distribution `hops`.
pub fn predict(p: f64, sizes: &SizeDist, hops: &[f64]) -> BerPrediction {
    let (lo, hi) = match *sizes {
        SizeDist::Fixed(b) => (b, b),
        SizeDist::Uniform { min, max } => (min, max),
    };
    let ok = |bits: f64| (bits * (-p).ln_1p()).exp(); // (1-p)^bits, exact for tiny p
    let s_frame = ok(128.0);
    let s_hdr = ok(128.0) + 128.0 * p * ok(127.0);
    let kept1 = s_frame * s_hdr;
    let (mut intact, mut kept) = (0.0, 0.0);
    for bytes in lo..=hi {
        let k = bytes.div_ceil(WORD_BYTES) as f64;
        let s_body = ok(128.0 * (k + 1.0));
        for (h, w) in hops.iter().enumerate() {
            intact += w * (kept1 * s_body).powi(h as i32);
            kept += w * kept1.powi(h as i32);
        }
    }
    let sizes_n = (hi - lo + 1) as f64;
    let (intact, kept) = (intact / sizes_n, kept / sizes_n);
    BerPrediction {
        ber: p,
        intact,
        crc_failed: kept - intact,
        discarded: 1.0 - kept,
        mean_hops: mean_hops(hops),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::topology::parse;

    #[test]
    fn a_4x4_torus_has_the_hop_counts_of_its_shape() {
        let t = parse("torus:4x4").unwrap();
        let d = hop_distribution(t.as_ref());
        // from a node of a 4x4 torus: 4 nodes 1 hop away, 6 at 2, 4 at 3, 1 at 4 (of 15)
        let want = [0.0, 4.0 / 15.0, 6.0 / 15.0, 4.0 / 15.0, 1.0 / 15.0];
        assert_eq!(d.len(), want.len());
        for (a, b) in d.iter().zip(want) {
            assert!((a - b).abs() < 1e-12, "{d:?}");
        }
    }

    #[test]
    fn the_fractions_add_up_and_follow_the_rate() {
        let hops = [0.0, 0.5, 0.5];
        let sizes = SizeDist::Fixed(64);
        let zero = predict(0.0, &sizes, &hops);
        assert_eq!(
            (zero.intact, zero.crc_failed, zero.discarded),
            (1.0, 0.0, 0.0)
        );
        let mut last = zero;
        for p in [1e-9, 1e-6, 1e-4, 1e-3] {
            let x = predict(p, &sizes, &hops);
            assert!((x.intact + x.crc_failed + x.discarded - 1.0).abs() < 1e-12);
            assert!(
                x.intact < last.intact && x.discarded > last.discarded,
                "{p}"
            );
            last = x;
        }
        // first order at a small rate: each link corrupts 128 (k + 1) = 640 body bits and
        // loses the packet on 128 framing bits; 1.5 links on average
        let x = predict(1e-9, &sizes, &hops);
        assert!((x.crc_failed / 1e-9 - 640.0 * 1.5).abs() < 1.0, "{x:?}");
        assert!((x.discarded / 1e-9 - 128.0 * 1.5).abs() < 1.0, "{x:?}");
        assert!((x.mean_hops - 1.5).abs() < 1e-12);
    }
}
