//! Bit-reversal traffic (BookSim `BitRevTrafficPattern::dest`, `src/traffic.cpp`): with
//! `N = 2^b` endpoints, endpoint `s = (s_{b-1} ... s_1 s_0)` sends to `(s_0 s_1 ... s_{b-1})`,
//! its index bits in reverse order. Palindromic indices (0, N - 1, ...) map to themselves and
//! send nothing.
//!
//! Needs a power-of-two number of endpoints (`check` errors otherwise). No random draw.

use super::bits::{bits_of, index_bits};
use super::Pattern;
use crate::net::topology::Topology;
use rand_mt::Mt64;

/// `bitrev`: bit reversal of the endpoint index.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BitRev;

impl Pattern for BitRev {
    fn name(&self) -> String {
        "bitrev".into()
    }
    fn check(&self, t: &dyn Topology) -> Result<(), String> {
        index_bits(t, "bitrev").map(|_| ())
    }
    fn dest(&self, t: &dyn Topology, src: usize, _rng: &mut Mt64) -> usize {
        let b = bits_of(t);
        if b == 0 {
            return 0;
        }
        src.reverse_bits() >> (usize::BITS - b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::traffic::testing::{table, TestRing, TestTorus};

    #[test]
    fn tables() {
        assert_eq!(table(&BitRev, &TestRing::new(8)), [0, 4, 2, 6, 1, 5, 3, 7]);
        assert_eq!(
            table(&BitRev, &TestTorus::new(&[4, 4], 1)),
            [0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15]
        );
        assert_eq!(table(&BitRev, &TestRing::new(2)), [0, 1]);
    }

    #[test]
    fn needs_a_power_of_two() {
        let e = BitRev.check(&TestRing::new(10)).unwrap_err();
        assert!(e.contains("'bitrev'") && e.contains("has 10"), "{e}");
        let t = TestRing::new(10);
        assert!((0..10).all(|s| BitRev.dest(&t, s, &mut Mt64::new(0)) < 10));
    }
}
