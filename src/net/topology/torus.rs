//! N-dimensional torus and mesh (Pisani 2016 §2.2.1, §3.4.3): 1 to 3 dimensions, each 1..=255
//! nodes, every dimension wrapping (torus) or none (mesh). One router a node with one
//! intra-tile port (terminal 0) and two inter-tile ports a dimension:
//!
//! ```text
//!                 port 3 (y-)
//!                     |
//!   port 1 (x-) -- node (x,y) -- port 0 (x+)        port 2d: d+, port 2d+1: d-
//!                     |
//!                 port 2 (y+)
//! ```
//!
//! Port `2d` of a node is wired to port `2d + 1` of its `d+` neighbour, as `gate[2d] <-->
//! gate[2d+1]` in Pisani 2016 Listings 3.1-3.2. Every dimension has its two ports even when
//! small, so a port's number never depends on the shape:
//! - size 1: both ports of the dimension are unwired (a node is not its own neighbour);
//! - size 2, torus: `d+` and `d-` both lead to the one neighbour, over two parallel links
//!   (node 0's `d+` to node 1's `d-`, node 0's `d-` to node 1's `d+`);
//! - mesh: the `d+` port of the last node and the `d-` port of the first are unwired.
//!
//! Node index = endpoint index = `x + y X + z X Y` (eq. 3.4, [`Lattice`]); the address is the
//! coordinates, 0 in the dimensions the shape does not have. Nothing is tabulated: a query is
//! a few integer operations whatever the size.

use super::lattice::Lattice;
use super::{Addr, PortClass, Shape, Topology};

/// A torus or mesh.
#[derive(Debug, Clone)]
pub struct Torus {
    shape: Shape,
    lattice: Lattice,
}

impl Torus {
    /// A torus (`shape.wrap`) or mesh of `shape.size` (1..=3 dimensions, sizes 1..=255).
    pub fn new(shape: Shape) -> Result<Self, String> {
        let lattice = Lattice::new(&shape.size)?;
        Ok(Torus { shape, lattice })
    }

    /// A torus of the given sizes.
    pub fn torus_of(size: &[u8]) -> Result<Self, String> {
        Self::new(Shape {
            size: size.to_vec(),
            wrap: true,
        })
    }

    /// A mesh of the given sizes.
    pub fn mesh_of(size: &[u8]) -> Result<Self, String> {
        Self::new(Shape {
            size: size.to_vec(),
            wrap: false,
        })
    }

    fn check_node(&self, node: usize) {
        assert!(
            node < self.nodes(),
            "{}: node {node} of {}",
            self.name(),
            self.nodes()
        );
    }
}

impl Topology for Torus {
    /// `torus:10x10`, `mesh:4x4x4`, `torus:8`.
    fn name(&self) -> String {
        let kind = if self.shape.wrap { "torus" } else { "mesh" };
        let dims: Vec<String> = self.shape.size.iter().map(|n| n.to_string()).collect();
        format!("{kind}:{}", dims.join("x"))
    }

    fn nodes(&self) -> usize {
        self.lattice.points()
    }

    fn terminals(&self) -> usize {
        1
    }

    fn ports(&self) -> usize {
        2 * self.lattice.dims()
    }

    /// Panics when `node` or `q` is out of range (a bug in the caller, like an index).
    fn port_class(&self, node: usize, q: usize) -> PortClass {
        self.check_node(node);
        assert!(
            q < self.ports(),
            "{}: port {q} of {}",
            self.name(),
            self.ports()
        );
        PortClass::Dim {
            dim: (q / 2) as u8,
            plus: q.is_multiple_of(2),
        }
    }

    /// None for an unwired port, and for a node or port out of range.
    fn link(&self, node: usize, q: usize) -> Option<(usize, usize)> {
        if node >= self.nodes() || q >= self.ports() {
            return None;
        }
        let far = self
            .lattice
            .step(node, q / 2, q.is_multiple_of(2), self.shape.wrap)?;
        // The far end of a d+ port is the neighbour's d- port and vice versa.
        Some((far, q ^ 1))
    }

    fn addr(&self, node: usize) -> Addr {
        self.check_node(node);
        self.lattice.coord(node)
    }

    fn node_at(&self, a: Addr) -> Option<usize> {
        self.lattice.index(a)
    }

    /// Endpoint `index` is node `index`, terminal 0.
    fn endpoint(&self, index: usize) -> (usize, usize) {
        self.check_node(index);
        (index, 0)
    }

    fn endpoint_index(&self, node: usize, terminal: usize) -> usize {
        self.check_node(node);
        assert_eq!(terminal, 0, "{}: one terminal a node", self.name());
        node
    }

    fn shape(&self) -> Option<&Shape> {
        Some(&self.shape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::topology::check::verify;

    #[test]
    fn shapes_verify() {
        for size in [
            &[1u8][..],
            &[2],
            &[3],
            &[8],
            &[2, 2],
            &[4, 4],
            &[3, 5],
            &[10, 10],
        ] {
            verify(&Torus::torus_of(size).unwrap()).unwrap();
            verify(&Torus::mesh_of(size).unwrap()).unwrap();
        }
        for size in [[2u8, 2, 2], [4, 3, 2], [1, 1, 1], [1, 5, 1], [3, 3, 4]] {
            verify(&Torus::torus_of(&size).unwrap()).unwrap();
            verify(&Torus::mesh_of(&size).unwrap()).unwrap();
        }
    }

    #[test]
    fn listing_3_1_ports() {
        // gate[0] of node (x, y) <--> gate[1] of node (x+1, y); gate[2] <--> gate[3] of (x, y+1).
        let t = Torus::torus_of(&[4, 3]).unwrap();
        let at = |x: u8, y: u8| t.node_at([x, y, 0]).unwrap();
        assert_eq!(t.link(at(3, 1), 0), Some((at(0, 1), 1)));
        assert_eq!(t.link(at(0, 1), 1), Some((at(3, 1), 0)));
        assert_eq!(t.link(at(2, 2), 2), Some((at(2, 0), 3)));
        assert_eq!(t.link(at(2, 0), 3), Some((at(2, 2), 2)));
        assert_eq!(
            t.port_class(0, 3),
            PortClass::Dim {
                dim: 1,
                plus: false
            }
        );
        assert_eq!(t.addr(7), [3, 1, 0]);
    }

    #[test]
    fn size_two_is_two_parallel_links() {
        let t = Torus::torus_of(&[2]).unwrap();
        assert_eq!(t.link(0, 0), Some((1, 1)));
        assert_eq!(t.link(0, 1), Some((1, 0)));
        assert_eq!(t.link(1, 0), Some((0, 1)));
        assert_eq!(t.link(1, 1), Some((0, 0)));
        let m = Torus::mesh_of(&[2]).unwrap();
        assert_eq!(m.link(0, 0), Some((1, 1)));
        assert_eq!(m.link(0, 1), None);
        assert_eq!(m.link(1, 0), None);
    }

    #[test]
    fn size_one_and_mesh_borders_unwired() {
        let t = Torus::torus_of(&[1, 4]).unwrap();
        assert_eq!(t.ports(), 4);
        for n in 0..4 {
            assert_eq!(t.link(n, 0), None);
            assert_eq!(t.link(n, 1), None);
            assert!(t.link(n, 2).is_some() && t.link(n, 3).is_some());
        }
        let m = Torus::mesh_of(&[3, 3]).unwrap();
        let wired: usize = (0..9)
            .map(|n| (0..4).filter(|&q| m.link(n, q).is_some()).count())
            .sum();
        assert_eq!(wired, 2 * 12, "a 3x3 mesh has 12 links");
        assert_eq!(m.link(4, 0), Some((5, 1)));
        assert_eq!(m.link(99, 0), None, "node out of range");
        assert_eq!(m.link(0, 4), None, "port out of range");
    }

    #[test]
    fn names_and_addresses() {
        let t = Torus::torus_of(&[10, 10, 10]).unwrap();
        assert_eq!(t.name(), "torus:10x10x10");
        assert_eq!(
            (t.nodes(), t.ports(), t.terminals(), t.endpoints()),
            (1000, 6, 1, 1000)
        );
        assert_eq!(t.addr(999), [9, 9, 9]);
        assert_eq!(t.node_at([9, 9, 10]), None);
        assert_eq!(Torus::mesh_of(&[4, 4]).unwrap().name(), "mesh:4x4");
        assert_eq!(Torus::torus_of(&[8]).unwrap().name(), "torus:8");
        assert_eq!(Torus::torus_of(&[8]).unwrap().node_at([0, 1, 0]), None);
    }

    #[test]
    fn bad_shapes_are_errors() {
        assert!(Torus::torus_of(&[]).is_err());
        assert!(Torus::torus_of(&[2, 2, 2, 2]).is_err());
        assert!(Torus::mesh_of(&[4, 0]).is_err());
    }
}
