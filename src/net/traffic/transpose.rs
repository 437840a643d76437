//! Matrix-transpose traffic.
//!
//! - On a square 2-D torus or mesh (`shape()` with two equal sizes `k x k`): the endpoint on
//!   node `(x, y)`, terminal `p`, sends to the endpoint on node `(y, x)`, terminal `p`. Any
//!   `k` and any number of terminals.
//! - On any other topology: BookSim's bit transpose (`TransposeTrafficPattern::dest`,
//!   `src/traffic.cpp`): with `N = 2^(2h)` endpoints, the index's high `h` bits and low `h`
//!   bits swap, `dest = ((s >> h) & m) | ((s << h) & (m << h))` with `m = 2^h - 1`. Needs a
//!   power-of-two endpoint count with an even number of bits (4, 16, 64, ...).
//!
//! The two agree where both apply (a `2^h x 2^h` torus with one terminal, whose index is
//! `x + y 2^h`). Endpoints on the diagonal (`x = y`, or equal bit halves) map to themselves
//! and send nothing. No random draw.

use super::bits::{bits_of, index_bits, mask};
use super::coords;
use super::Pattern;
use crate::net::topology::Topology;
use rand_mt::Mt64;

/// `transpose`: (x, y) -> (y, x) on a square 2-D shape, index bit halves swapped otherwise.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Transpose;

/// Whether `t` is a square 2-D torus or mesh (without validating the shape's addresses).
fn square_2d(t: &dyn Topology) -> bool {
    t.shape()
        .is_some_and(|s| s.size.len() == 2 && s.size[0] == s.size[1])
}

impl Pattern for Transpose {
    fn name(&self) -> String {
        "transpose".into()
    }
    fn check(&self, t: &dyn Topology) -> Result<(), String> {
        if square_2d(t) {
            return coords::checked_shape(t, "transpose").map(|_| ());
        }
        let b = index_bits(t, "transpose").map_err(|_| {
            format!(
                "pattern 'transpose' needs a square 2-D torus or mesh, or a power-of-two number \
                 of endpoints with an even number of bits (4, 16, 64, ...); topology '{}' has \
                 {} endpoints",
                t.name(),
                t.endpoints()
            )
        })?;
        if b % 2 != 0 {
            return Err(format!(
                "pattern 'transpose' needs a square 2-D torus or mesh, or a power-of-two number \
                 of endpoints with an even number of bits (4, 16, 64, ...); topology '{}' has \
                 {} endpoints (2^{b}, an odd power)",
                t.name(),
                t.endpoints()
            ));
        }
        Ok(())
    }
    fn dest(&self, t: &dyn Topology, src: usize, _rng: &mut Mt64) -> usize {
        if square_2d(t) {
            return coords::map(t, src, |a, _| [a[1], a[0], a[2]]);
        }
        let h = bits_of(t) / 2;
        let m = mask(h);
        ((src >> h) & m) | ((src << h) & (m << h))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::traffic::testing::{table, TestRing, TestTorus};

    const T16: [usize; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];

    #[test]
    fn coordinate_and_bit_transpose_agree_on_4x4() {
        // Coordinates: (x, y) = (s % 4, s / 4) -> (y, x), index 4x + y.
        assert_eq!(table(&Transpose, &TestTorus::new(&[4, 4], 1)), T16);
        // Bit halves swapped on 16 endpoints without a shape: the same table.
        assert_eq!(table(&Transpose, &TestRing::new(16)), T16);
        assert_eq!(table(&Transpose, &TestRing::new(4)), [0, 2, 1, 3]);
    }

    #[test]
    fn square_shape_of_any_size_keeps_the_terminal() {
        // 3x3 torus, 2 terminals: endpoint = p + 2 (x + 3 y).
        let t = TestTorus::new(&[3, 3], 2);
        let got = table(&Transpose, &t);
        for (s, &d) in got.iter().enumerate() {
            let (p, node) = (s % 2, s / 2);
            let (x, y) = (node % 3, node / 3);
            assert_eq!(d, p + 2 * (y + 3 * x), "from endpoint {s}");
        }
        assert_eq!(
            table(&Transpose, &TestTorus::mesh(&[3, 3])),
            [0, 3, 6, 1, 4, 7, 2, 5, 8]
        );
    }

    #[test]
    fn other_shapes_fall_back_to_bits_or_fail() {
        // 8x2 torus, 16 endpoints: not square, bit transpose applies.
        assert_eq!(table(&Transpose, &TestTorus::new(&[8, 2], 1)), T16);
        for (t, n) in [
            (TestRing::new(8), "8 endpoints (2^3"),
            (TestRing::new(12), "12 endpoints"),
        ] {
            let e = Transpose.check(&t).unwrap_err();
            assert!(e.contains("square 2-D") && e.contains(n), "{e}");
        }
        let e = Transpose.check(&TestTorus::new(&[4, 2], 1)).unwrap_err();
        assert!(e.contains("8 endpoints"), "{e}");
    }
}
