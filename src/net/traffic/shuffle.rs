//! Perfect-shuffle traffic (BookSim `ShuffleTrafficPattern::dest`, `src/traffic.cpp`): with
//! `N = 2^b` endpoints, endpoint `s` sends to its index rotated left by one bit,
//! `((s << 1) & (N - 1)) | (s >> (b - 1))`. Indices made of one repeated bit (0 and N - 1)
//! map to themselves and send nothing.
//!
//! Needs a power-of-two number of endpoints (`check` errors otherwise). No random draw.

use super::bits::{bits_of, index_bits, mask};
use super::Pattern;
use crate::net::topology::Topology;
use rand_mt::Mt64;

/// `shuffle`: the endpoint index rotated left by one bit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shuffle;

impl Pattern for Shuffle {
    fn name(&self) -> String {
        "shuffle".into()
    }
    fn check(&self, t: &dyn Topology) -> Result<(), String> {
        index_bits(t, "shuffle").map(|_| ())
    }
    fn dest(&self, t: &dyn Topology, src: usize, _rng: &mut Mt64) -> usize {
        let b = bits_of(t);
        if b == 0 {
            return 0;
        }
        let s = src & mask(b);
        ((s << 1) & mask(b)) | (s >> (b - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::traffic::testing::{table, TestRing, TestTorus};

    #[test]
    fn tables() {
        assert_eq!(table(&Shuffle, &TestRing::new(8)), [0, 2, 4, 6, 1, 3, 5, 7]);
        assert_eq!(
            table(&Shuffle, &TestTorus::new(&[4, 4], 1)),
            [0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15]
        );
        assert_eq!(table(&Shuffle, &TestRing::new(2)), [0, 1]);
    }

    #[test]
    fn needs_a_power_of_two() {
        let e = Shuffle.check(&TestTorus::new(&[3, 3], 1)).unwrap_err();
        assert!(e.contains("'shuffle'") && e.contains("has 9"), "{e}");
        let t = TestRing::new(9);
        assert!((0..9).all(|s| Shuffle.dest(&t, s, &mut Mt64::new(0)) < 9));
    }
}
