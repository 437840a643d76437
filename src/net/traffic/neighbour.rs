//! Nearest-neighbour traffic (BookSim `NeighborTrafficPattern::dest`, `src/traffic.cpp`): on a
//! torus or mesh, every coordinate of the source node moves one step up its dimension,
//! `x -> (x + 1) mod k`, keeping the terminal: one hop a dimension on a torus (the last
//! coordinate wraps, which on a mesh is the long way back across the dimension). A dimension of
//! size 1 does not move.
//!
//! Here each dimension uses its own size from the topology's shape. Needs a torus or mesh
//! (`check` errors otherwise). No random draw.

use super::coords;
use super::Pattern;
use crate::net::topology::Topology;
use rand_mt::Mt64;

/// `neighbour`: every coordinate `x -> (x + 1) mod k`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Neighbour;

impl Pattern for Neighbour {
    fn name(&self) -> String {
        "neighbour".into()
    }
    fn check(&self, t: &dyn Topology) -> Result<(), String> {
        coords::checked_shape(t, "neighbour").map(|_| ())
    }
    fn dest(&self, t: &dyn Topology, src: usize, _rng: &mut Mt64) -> usize {
        coords::map(t, src, |a, size| coords::each(a, size, |x, k| (x + 1) % k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::traffic::testing::{table, TestRing, TestTorus};

    #[test]
    fn four_by_four() {
        assert_eq!(
            table(&Neighbour, &TestTorus::new(&[4, 4], 1)),
            [5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0]
        );
    }

    #[test]
    fn five_by_five_with_terminals() {
        let got = table(&Neighbour, &TestTorus::new(&[5, 5], 1));
        for (s, &d) in got.iter().enumerate() {
            assert_eq!(d, (s % 5 + 1) % 5 + 5 * ((s / 5 + 1) % 5));
        }
        assert_eq!(&got[20..], [1, 2, 3, 4, 0]);
        let t3 = table(&Neighbour, &TestTorus::new(&[5, 5], 3));
        for (s, &d) in t3.iter().enumerate() {
            assert_eq!(d, s % 3 + 3 * got[s / 3]);
        }
        // A 3-D shape with a dimension of size 1.
        let got = table(&Neighbour, &TestTorus::new(&[2, 1, 3], 1));
        assert_eq!(got, [3, 2, 5, 4, 1, 0]);
    }

    #[test]
    fn needs_a_shape() {
        let e = Neighbour.check(&TestRing::new(8)).unwrap_err();
        assert!(
            e.contains("'neighbour'") && e.contains("torus or mesh"),
            "{e}"
        );
    }
}
