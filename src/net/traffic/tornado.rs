//! Tornado traffic (BookSim `TornadoTrafficPattern::dest`, `src/traffic.cpp`): on a torus or
//! mesh, every coordinate of the source node moves nearly half-way round its dimension,
//! `x -> (x + ceil(k/2) - 1) mod k` for a dimension of size `k` (BookSim writes the offset
//! `(k + 1) / 2 - 1` in integer arithmetic), keeping the terminal. On a torus this is the
//! adversarial pattern for dimension-order routing: every packet takes the longest minimal
//! path in the same direction. The offset is 1 for k = 3 or 4, 2 for k = 5 or 6; for k <= 2 it
//! is 0 and the dimension does not move (a 2x2 torus maps every endpoint to itself).
//!
//! BookSim applies one radix `k` to `n` digits of the node index; here each dimension uses
//! its own size from the topology's shape. Needs a torus or mesh (`check` errors otherwise).
//! No random draw.

use super::coords;
use super::Pattern;
use crate::net::topology::Topology;
use rand_mt::Mt64;

/// `tornado`: every coordinate `x -> (x + ceil(k/2) - 1) mod k`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tornado;

impl Pattern for Tornado {
    fn name(&self) -> String {
        "tornado".into()
    }
    fn check(&self, t: &dyn Topology) -> Result<(), String> {
        coords::checked_shape(t, "tornado").map(|_| ())
    }
    fn dest(&self, t: &dyn Topology, src: usize, _rng: &mut Mt64) -> usize {
        coords::map(t, src, |a, size| {
            coords::each(a, size, |x, k| (x + k.div_ceil(2) - 1) % k)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::traffic::testing::{table, TestRing, TestTorus};

    #[test]
    fn four_by_four_moves_one_each_way() {
        // k = 4: offset 1 in x and y. Index x + 4 y.
        let want: Vec<usize> = (0..16)
            .map(|s| {
                let (x, y) = (s % 4, s / 4);
                (x + 1) % 4 + 4 * ((y + 1) % 4)
            })
            .collect();
        assert_eq!(table(&Tornado, &TestTorus::new(&[4, 4], 1)), want);
        assert_eq!(&want[..5], [5, 6, 7, 4, 9]);
    }

    #[test]
    fn five_by_five_moves_two_each_way() {
        // k = 5: offset 2.
        let got = table(&Tornado, &TestTorus::new(&[5, 5], 1));
        assert_eq!(&got[..6], [12, 13, 14, 10, 11, 17]);
        for (s, &d) in got.iter().enumerate() {
            assert_eq!(d, (s % 5 + 2) % 5 + 5 * ((s / 5 + 2) % 5));
        }
        // Same on a mesh, and with terminals the terminal is kept.
        assert_eq!(table(&Tornado, &TestTorus::mesh(&[5, 5])), got);
        let t2 = table(&Tornado, &TestTorus::new(&[5, 5], 2));
        for (s, &d) in t2.iter().enumerate() {
            assert_eq!(d, s % 2 + 2 * got[s / 2]);
        }
    }

    #[test]
    fn each_dimension_uses_its_own_size() {
        // 4 x 5 x 2: offsets 1, 2, 0.
        let got = table(&Tornado, &TestTorus::new(&[4, 5, 2], 1));
        for (s, &d) in got.iter().enumerate() {
            let (x, y, z) = (s % 4, (s / 4) % 5, s / 20);
            assert_eq!(d, (x + 1) % 4 + 4 * ((y + 2) % 5) + 20 * z);
        }
    }

    #[test]
    fn needs_a_shape() {
        let e = Tornado.check(&TestRing::new(8)).unwrap_err();
        assert!(
            e.contains("torus or mesh") && e.contains("testring:8"),
            "{e}"
        );
        // Unchecked on a ring: the source itself (never sent).
        assert_eq!(Tornado.dest(&TestRing::new(8), 3, &mut Mt64::new(0)), 3);
    }
}
