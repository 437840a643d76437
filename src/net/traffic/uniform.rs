//! Uniform random traffic (Pisani 2016 §3.4.5 "uniform traffic injector"; SPEC: uniform random
//! destinations): every packet goes to an endpoint drawn uniformly among the `N - 1` endpoints
//! other than its source.
//!
//! BookSim's `UniformRandomTrafficPattern::dest` (`src/traffic.cpp`) draws among all `N`
//! endpoints, the source included, and delivers self-addressed packets without crossing the
//! network. Here the source is excluded, as in the thesis ("sent to randomly selected
//! nodes"), so every generated packet loads the network: draw `r` in `0..N-1` and skip the
//! source (`r >= src` becomes `r + 1`). One draw from the endpoint's generator a packet.

use super::draws::below;
use super::Pattern;
use crate::net::topology::Topology;
use rand_mt::Mt64;

/// `uniform`: uniformly among all other endpoints.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Uniform;

/// A uniform draw among the endpoints of `t` other than `src` (`src` itself when it is the
/// only endpoint). Shared with `hotspot`.
pub(crate) fn other_than(t: &dyn Topology, src: usize, rng: &mut Mt64) -> usize {
    let n = t.endpoints();
    if n < 2 {
        return src;
    }
    let r = below(rng, n as u64 - 1) as usize;
    if r >= src {
        r + 1
    } else {
        r
    }
}

/// Uniform traffic needs someone else to send to.
pub(crate) fn check_two(t: &dyn Topology, pattern: &str) -> Result<(), String> {
    if t.endpoints() < 2 {
        return Err(format!(
            "pattern '{pattern}' needs at least 2 endpoints; topology '{}' has {}",
            t.name(),
            t.endpoints()
        ));
    }
    Ok(())
}

impl Pattern for Uniform {
    fn name(&self) -> String {
        "uniform".into()
    }
    fn check(&self, t: &dyn Topology) -> Result<(), String> {
        check_two(t, "uniform")
    }
    fn dest(&self, t: &dyn Topology, src: usize, rng: &mut Mt64) -> usize {
        other_than(t, src, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::traffic::testing::{TestRing, TestTorus};

    /// Pearson's chi-square of `counts` against equal expected counts.
    fn chi_square(counts: &[u64]) -> f64 {
        let total: u64 = counts.iter().sum();
        let e = total as f64 / counts.len() as f64;
        counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum()
    }

    #[test]
    fn never_returns_the_source_and_is_uniform() {
        // 16 endpoints, 15 possible destinations: chi-square with 14 degrees of freedom, whose
        // 0.999 quantile is 36.12. The seed is fixed, so the test is deterministic.
        let seed = 0x5eed_0001;
        let t = TestTorus::new(&[4, 4], 1);
        let mut rng = Mt64::new(seed);
        for src in [0, 5, 15] {
            let mut counts = vec![0u64; 16];
            for _ in 0..150_000 {
                let d = Uniform.dest(&t, src, &mut rng);
                assert_ne!(d, src, "seed {seed}");
                counts[d] += 1;
            }
            assert_eq!(counts[src], 0);
            counts.remove(src);
            let chi2 = chi_square(&counts);
            assert!(chi2 < 36.12, "src {src}: chi-square {chi2} (seed {seed})");
        }
    }

    #[test]
    fn covers_every_other_endpoint_with_terminals() {
        // 5x5 torus, 2 terminals: 50 endpoints, the source's sibling terminal included.
        let t = TestTorus::new(&[5, 5], 2);
        let mut rng = Mt64::new(7);
        let mut seen = [false; 50];
        for _ in 0..5_000 {
            seen[Uniform.dest(&t, 10, &mut rng)] = true;
        }
        assert!(!seen[10]);
        assert_eq!(seen.iter().filter(|&&s| s).count(), 49);
    }

    #[test]
    fn needs_two_endpoints() {
        assert!(Uniform.check(&TestRing::new(2)).is_ok());
        let e = Uniform.check(&TestRing::new(1)).unwrap_err();
        assert!(e.contains("at least 2 endpoints"), "{e}");
        // No panic even unchecked: the only endpoint is returned.
        assert_eq!(Uniform.dest(&TestRing::new(1), 0, &mut Mt64::new(1)), 0);
    }
}
