//! Index <-> coordinate conversion on a lattice of 1 to 3 dimensions (Pisani 2016 §3.4.3,
//! eq. 3.1-3.4): nodes declared as a one-dimensional array and addressed by Cartesian
//! coordinates.
//!
//! ```text
//!   x = index % X              index = x + y X + z X Y
//!   y = (index / X) % Y
//!   z = index / (X Y)
//! ```
//!
//! Dimensions a lattice does not have count as size 1, so their coordinate is always 0, as in
//! the header's unused `dst_y` / `dst_z`. Nothing is tabulated: every conversion is a few
//! integer operations, so a 96x96 torus costs as little to build as a 2x2 one.

use super::Addr;

pub use crate::spec::topology::MAX_DIMS;

/// A lattice of `X x Y x Z` points, each size 1..=255.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lattice {
    /// Size of each dimension; 1 for the dimensions the lattice does not have.
    size: [u32; MAX_DIMS],
    /// Dimensions the lattice has (1..=3).
    dims: usize,
}

impl Lattice {
    /// A lattice of `size.len()` dimensions (1..=3), each 1..=255 points.
    pub fn new(size: &[u8]) -> Result<Self, String> {
        if size.is_empty() || size.len() > MAX_DIMS {
            return Err(format!(
                "{} dimensions: 1 to {MAX_DIMS} are accepted (the header has three coordinates)",
                size.len()
            ));
        }
        if let Some(d) = size.iter().position(|&n| n == 0) {
            return Err(format!(
                "dimension {d} has size 0: sizes 1 to 255 are accepted"
            ));
        }
        let mut s = [1u32; MAX_DIMS];
        for (sd, &n) in s.iter_mut().zip(size) {
            *sd = u32::from(n);
        }
        Ok(Lattice {
            size: s,
            dims: size.len(),
        })
    }

    /// Dimensions (1..=3).
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// Size of dimension `d` (1 for a dimension the lattice does not have).
    pub fn size(&self, d: usize) -> u32 {
        self.size.get(d).copied().unwrap_or(1)
    }

    /// Points: `X Y Z`.
    pub fn points(&self) -> usize {
        self.size.iter().map(|&n| n as usize).product()
    }

    /// Coordinates of point `index` (eq. 3.1-3.3); unused dimensions are 0. `index` must be
    /// below `points()`.
    pub fn coord(&self, index: usize) -> Addr {
        debug_assert!(index < self.points(), "point {index} of {}", self.points());
        let [x_max, y_max, _] = self.size.map(|n| n as usize);
        [
            (index % x_max) as u8,
            ((index / x_max) % y_max) as u8,
            (index / (x_max * y_max)) as u8,
        ]
    }

    /// Index of the point at `c` (eq. 3.4); None when a coordinate is outside its dimension
    /// (including a non-zero coordinate of a dimension the lattice does not have).
    pub fn index(&self, c: Addr) -> Option<usize> {
        if c.iter().zip(&self.size).any(|(&x, &n)| u32::from(x) >= n) {
            return None;
        }
        let [x_max, y_max, _] = self.size.map(|n| n as usize);
        Some(c[0] as usize + c[1] as usize * x_max + c[2] as usize * x_max * y_max)
    }

    /// The neighbour of point `index` one step along dimension `d`, towards increasing
    /// coordinates when `plus`; across the border when `wrap`, else None at the border. None
    /// too for a dimension of size 1 (a point is not its own neighbour).
    pub fn step(&self, index: usize, d: usize, plus: bool, wrap: bool) -> Option<usize> {
        let n = self.size(d);
        if n == 1 {
            return None;
        }
        let mut c = self.coord(index);
        let x = u32::from(c[d]);
        let y = match (plus, x) {
            (true, x) if x + 1 < n => x + 1,
            (true, _) if wrap => 0,
            (false, 0) if wrap => n - 1,
            (false, x) if x > 0 => x - 1,
            _ => return None,
        };
        c[d] = y as u8;
        self.index(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_every_point() {
        for size in [
            &[1u8][..],
            &[7],
            &[255],
            &[3, 5],
            &[10, 10],
            &[4, 3, 2],
            &[1, 1, 9],
        ] {
            let l = Lattice::new(size).unwrap();
            for i in 0..l.points() {
                let c = l.coord(i);
                assert_eq!(l.index(c), Some(i), "{size:?} point {i} at {c:?}");
                assert!(
                    c[l.dims()..].iter().all(|&x| x == 0),
                    "{size:?}: point {i} at {c:?}"
                );
            }
        }
    }

    #[test]
    fn equations_3_1_to_3_4() {
        // 10x10x10: point 123 is x = 3, y = 2, z = 1.
        let l = Lattice::new(&[10, 10, 10]).unwrap();
        assert_eq!(l.coord(123), [3, 2, 1]);
        assert_eq!(l.index([3, 2, 1]), Some(123));
        // 4x3x2: index = x + 4 y + 12 z.
        let l = Lattice::new(&[4, 3, 2]).unwrap();
        assert_eq!(l.index([3, 2, 1]), Some(3 + 8 + 12));
        assert_eq!(l.coord(23), [3, 2, 1]);
    }

    #[test]
    fn outside_is_none() {
        let l = Lattice::new(&[4, 3]).unwrap();
        assert_eq!(l.index([4, 0, 0]), None);
        assert_eq!(l.index([0, 3, 0]), None);
        assert_eq!(l.index([0, 0, 1]), None, "unused dimension must be 0");
        assert_eq!(l.index([3, 2, 0]), Some(11));
    }

    #[test]
    fn steps() {
        let l = Lattice::new(&[4, 3]).unwrap();
        let at = |c: Addr| l.index(c).unwrap();
        assert_eq!(l.step(at([3, 1, 0]), 0, true, true), Some(at([0, 1, 0])));
        assert_eq!(l.step(at([3, 1, 0]), 0, true, false), None);
        assert_eq!(l.step(at([0, 1, 0]), 0, false, true), Some(at([3, 1, 0])));
        assert_eq!(l.step(at([0, 1, 0]), 0, false, false), None);
        assert_eq!(l.step(at([1, 2, 0]), 1, false, false), Some(at([1, 1, 0])));
        assert_eq!(
            l.step(at([1, 2, 0]), 2, true, true),
            None,
            "unused dimension"
        );
        let ring1 = Lattice::new(&[1]).unwrap();
        assert_eq!(ring1.step(0, 0, true, true), None);
    }

    #[test]
    fn bad_shapes_are_errors() {
        assert!(Lattice::new(&[]).unwrap_err().contains("1 to 3"));
        assert!(Lattice::new(&[2, 2, 2, 2])
            .unwrap_err()
            .contains("4 dimensions"));
        assert!(Lattice::new(&[4, 0])
            .unwrap_err()
            .contains("dimension 1 has size 0"));
    }
}
