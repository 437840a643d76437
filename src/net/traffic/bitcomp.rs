//! Bit-complement traffic (BookSim `BitCompTrafficPattern::dest`, `src/traffic.cpp`): with
//! `N = 2^b` endpoints, endpoint `s` sends to `!s & (N - 1)`, every index bit inverted. On a
//! torus or mesh of power-of-two sides this is the point reflection through the centre, a
//! permutation whose packets all cross the bisection. No endpoint maps to itself.
//!
//! Needs a power-of-two number of endpoints (`check` errors otherwise). No random draw.

use super::bits::{bits_of, index_bits, mask};
use super::Pattern;
use crate::net::topology::Topology;
use rand_mt::Mt64;

/// `bitcomp`: bit complement of the endpoint index.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BitComp;

impl Pattern for BitComp {
    fn name(&self) -> String {
        "bitcomp".into()
    }
    fn check(&self, t: &dyn Topology) -> Result<(), String> {
        index_bits(t, "bitcomp").map(|_| ())
    }
    fn dest(&self, t: &dyn Topology, src: usize, _rng: &mut Mt64) -> usize {
        !src & mask(bits_of(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::traffic::testing::{table, TestRing, TestTorus};

    #[test]
    fn tables() {
        assert_eq!(table(&BitComp, &TestRing::new(8)), [7, 6, 5, 4, 3, 2, 1, 0]);
        assert_eq!(
            table(&BitComp, &TestTorus::new(&[4, 4], 1)),
            [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
        );
    }

    #[test]
    fn needs_a_power_of_two() {
        for n in [1, 3, 6, 12] {
            let e = BitComp.check(&TestRing::new(n)).unwrap_err();
            assert!(
                e.contains("power-of-two") && e.contains(&format!("has {n}")),
                "{e}"
            );
        }
        // Unchecked, a result still names an endpoint.
        let t = TestRing::new(6);
        assert!((0..6).all(|s| BitComp.dest(&t, s, &mut Mt64::new(0)) < 6));
    }
}
