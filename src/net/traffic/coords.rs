//! What the coordinate patterns (`tornado`, `neighbour`, 2-D `transpose`) share: they move an
//! endpoint's node to other torus / mesh coordinates and keep its terminal (BookSim's
//! `DigitPermutationTrafficPattern`, `src/traffic.cpp`, does the same on the digits of the
//! node index in radix k; here the coordinates come from the topology itself, `addr` and
//! `node_at`, so each dimension may have its own size).

use crate::net::topology::{Addr, Shape, Topology};

/// The shape of `t`, once it is known that every node's address lies inside the shape and
/// maps back to the node (so `map` below always lands on a node): an error naming `pattern`
/// otherwise.
pub(crate) fn checked_shape<'a>(t: &'a dyn Topology, pattern: &str) -> Result<&'a Shape, String> {
    let Some(shape) = t.shape() else {
        return Err(format!(
            "pattern '{pattern}' needs a torus or mesh; topology '{}' is neither",
            t.name()
        ));
    };
    let dims = shape.size.len();
    if !(1..=3).contains(&dims) || shape.size.contains(&0) {
        return Err(format!(
            "pattern '{pattern}': topology '{}' has a malformed shape {:?} (1 to 3 sizes of at \
             least 1 expected)",
            t.name(),
            shape.size
        ));
    }
    let nodes: usize = shape.size.iter().map(|&k| k as usize).product();
    if nodes != t.nodes() {
        return Err(format!(
            "pattern '{pattern}': topology '{}' has {} nodes but its shape {:?} holds {nodes}",
            t.name(),
            t.nodes(),
            shape.size
        ));
    }
    for node in 0..t.nodes() {
        let a = t.addr(node);
        let inside = (0..3).all(|d| a[d] < shape.size.get(d).copied().unwrap_or(1));
        if !inside || t.node_at(a) != Some(node) {
            return Err(format!(
                "pattern '{pattern}': topology '{}' gives node {node} the address {a:?}, which \
                 does not map back to it inside shape {:?}",
                t.name(),
                shape.size
            ));
        }
    }
    Ok(shape)
}

/// The endpoint on the node at `f(address, sizes)` with the same terminal as `src`. Falls back
/// to `src` (which the engine does not send to) if the topology has no shape or `f` leaves it,
/// which `checked_shape` rules out.
pub(crate) fn map(t: &dyn Topology, src: usize, f: impl Fn(Addr, &[u8]) -> Addr) -> usize {
    let Some(shape) = t.shape() else {
        return src;
    };
    let (node, terminal) = t.endpoint(src);
    match t.node_at(f(t.addr(node), &shape.size)) {
        Some(n) => t.endpoint_index(n, terminal),
        None => src,
    }
}

/// Applies `g(coordinate, size)` to every coordinate of the shape (`g` returns a value below
/// `size`; a dimension of size 0, which `checked_shape` refuses, is left alone).
pub(crate) fn each(a: Addr, size: &[u8], g: impl Fn(u32, u32) -> u32) -> Addr {
    let mut b = a;
    for (d, &k) in size.iter().enumerate().take(3) {
        if k > 0 {
            b[d] = g(a[d] as u32, k as u32) as u8;
        }
    }
    b
}
