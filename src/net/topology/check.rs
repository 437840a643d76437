//! Consistency check of any [`Topology`]: what the network engine relies on when it wires one
//! cycle-accurate link per pair of ports, and what the tests hold every topology to.
//!
//! - Links are symmetric: `link(n, q) = Some((m, r))` implies `link(m, r) = Some((n, q))`, so
//!   every wired port is one end of exactly one bidirectional link, and no port is its own far
//!   end.
//! - `port_class` says where the link goes: `Dim { d, plus }` reaches the node one step along
//!   dimension `d` (+1 or -1 modulo the size, other coordinates equal) and is port `2d` or
//!   `2d + 1`; `Local { router }` reaches that router of the same group; `Global { group }` a
//!   router of that group. The far end's class points back.
//! - Unwired ports only where the shape has no neighbour (a mesh border, a dimension of size
//!   1); every port of a dragonfly is wired.
//! - Addresses and endpoint indices round-trip; addresses outside the network give None.
//! - A fully connected dragonfly links every pair of routers of a group by one local link and
//!   every pair of groups by `a h / (g - 1)` global links.
//!
//! The cost is one pass over every port plus one bit per port, O(nodes x ports).

use super::{PortClass, Topology};

/// Checks `t`; the first inconsistency found, named by node, port and what was expected.
pub fn verify(t: &dyn Topology) -> Result<(), String> {
    let name = t.name();
    let e = |m: String| format!("{name}: {m}");
    let (nodes, ports) = (t.nodes(), t.ports());
    if nodes == 0 || t.terminals() == 0 {
        return Err(e(format!("{nodes} nodes, {} terminals", t.terminals())));
    }
    for n in 0..nodes {
        let a = t.addr(n);
        if t.node_at(a) != Some(n) {
            return Err(e(format!(
                "node {n} at {a:?}, but node_at({a:?}) = {:?}",
                t.node_at(a)
            )));
        }
    }
    check_outside(t).map_err(e)?;
    let mut seen = vec![false; nodes * ports];
    for n in 0..nodes {
        for q in 0..ports {
            let class = t.port_class(n, q);
            let Some((m, r)) = t.link(n, q) else {
                unwired_allowed(t, n, q, class).map_err(e)?;
                continue;
            };
            let at = format!("node {n} port {q} ({class:?}) -> node {m} port {r}");
            if m >= nodes || r >= ports {
                return Err(e(format!("{at}: outside {nodes} nodes x {ports} ports")));
            }
            if (m, r) == (n, q) {
                return Err(e(format!("{at}: a port linked to itself")));
            }
            if t.link(m, r) != Some((n, q)) {
                return Err(e(format!("{at}, which leads back to {:?}", t.link(m, r))));
            }
            if std::mem::replace(&mut seen[m * ports + r], true) {
                return Err(e(format!("{at}: node {m} port {r} is linked twice")));
            }
            class_matches(t, n, q, class, m, r).map_err(|m| e(format!("{at}: {m}")))?;
        }
    }
    for i in 0..t.endpoints() {
        let (n, p) = t.endpoint(i);
        if n >= nodes || p >= t.terminals() || t.endpoint_index(n, p) != i {
            return Err(e(format!(
                "endpoint {i} = node {n} terminal {p}, whose index is {}",
                t.endpoint_index(n, p)
            )));
        }
    }
    if t.dragonfly().is_some() {
        check_dragonfly(t).map_err(e)?;
    }
    Ok(())
}

/// Addresses just outside the network must give None.
fn check_outside(t: &dyn Topology) -> Result<(), String> {
    let mut outside: Vec<[u8; 3]> = vec![[255, 255, 255]];
    if let Some(s) = t.shape() {
        for d in 0..3 {
            let mut a = [0u8; 3];
            match s.size.get(d) {
                Some(&255) => continue,
                Some(&n) => a[d] = n,
                None => a[d] = 1,
            }
            outside.push(a);
        }
    }
    if let Some(df) = t.dragonfly() {
        for a in [[df.a, 0, 0], [0, df.g, 0], [0, 0, 1]] {
            if a.iter().all(|&x| x <= 255) {
                outside.push(a.map(|x| x as u8));
            }
        }
    }
    match outside.iter().find(|a| t.node_at(**a).is_some()) {
        Some(a) => Err(format!(
            "address {a:?} is outside, but node_at gives {:?}",
            t.node_at(*a)
        )),
        None => Ok(()),
    }
}

/// An unwired port: only a mesh border or a dimension of size 1 may have one.
fn unwired_allowed(t: &dyn Topology, n: usize, q: usize, class: PortClass) -> Result<(), String> {
    let at = format!("node {n} port {q} ({class:?}) is unwired");
    match (class, t.shape()) {
        (PortClass::Dim { dim, plus }, Some(s)) => {
            let size = s.size.get(dim as usize).copied().unwrap_or(1);
            let x = t.addr(n)[dim as usize];
            let border = if plus { x + 1 == size } else { x == 0 };
            if size == 1 || (!s.wrap && border) {
                Ok(())
            } else {
                Err(format!(
                    "{at}, but it has a neighbour ({}, size {size})",
                    shape_kind(s.wrap)
                ))
            }
        }
        // a graph's routers have the ports of the busiest, the rest unwired
        (PortClass::Link { .. }, None) if t.dragonfly().is_none() => Ok(()),
        _ => Err(at),
    }
}

fn shape_kind(wrap: bool) -> &'static str {
    if wrap {
        "torus"
    } else {
        "mesh"
    }
}

/// The far node is where `class` says, and the far port's class points back.
fn class_matches(
    t: &dyn Topology,
    n: usize,
    q: usize,
    class: PortClass,
    m: usize,
    r: usize,
) -> Result<(), String> {
    let (an, am) = (t.addr(n), t.addr(m));
    let back = t.port_class(m, r);
    match class {
        PortClass::Dim { dim, plus } => {
            let s = t
                .shape()
                .ok_or("a Dim port on a topology without a shape")?;
            let d = dim as usize;
            let size = *s.size.get(d).ok_or("dimension outside the shape")? as u32;
            if q != 2 * d + usize::from(!plus) {
                return Err(format!(
                    "Dim {{ {d}, {plus} }} must be port {}",
                    2 * d + usize::from(!plus)
                ));
            }
            let want = if plus {
                (u32::from(an[d]) + 1) % size
            } else {
                (u32::from(an[d]) + size - 1) % size
            };
            let mut expect = an;
            expect[d] = want as u8;
            if am != expect {
                return Err(format!("far node at {am:?}, expected {expect:?}"));
            }
            if back != (PortClass::Dim { dim, plus: !plus }) {
                return Err(format!("far port is {back:?}"));
            }
        }
        PortClass::Local { router } => {
            if am[1] != an[1] || u16::from(am[0]) != router || am[0] == an[0] {
                return Err(format!(
                    "far node at {am:?}: not router {router} of group {}",
                    an[1]
                ));
            }
            if back
                != (PortClass::Local {
                    router: u16::from(an[0]),
                })
            {
                return Err(format!("far port is {back:?}"));
            }
        }
        PortClass::Global { group } => {
            if u16::from(am[1]) != group || am[1] == an[1] {
                return Err(format!("far node at {am:?}: not in group {group}"));
            }
            if back
                != (PortClass::Global {
                    group: u16::from(an[1]),
                })
            {
                return Err(format!("far port is {back:?}"));
            }
        }
        PortClass::Link { peer } => {
            if peer as usize != m || back != (PortClass::Link { peer: n as u32 }) {
                return Err(format!(
                    "leads to node {m}, class {class:?}, far port {back:?}"
                ));
            }
        }
    }
    Ok(())
}

/// One local link per pair of routers of a group; `a h / (g - 1)` global links per pair of
/// groups.
fn check_dragonfly(t: &dyn Topology) -> Result<(), String> {
    let df = t.dragonfly().ok_or("not a dragonfly")?;
    let (a, g) = (df.a as usize, df.g as usize);
    let per_pair = (df.a * df.h / (df.g - 1)) as usize;
    let mut pairs = vec![0usize; g * g];
    for n in 0..t.nodes() {
        let an = t.addr(n);
        let mut routers = vec![0usize; a];
        for q in 0..t.ports() {
            let Some((m, _)) = t.link(n, q) else {
                return Err(format!("node {n} port {q} is unwired"));
            };
            let am = t.addr(m);
            match t.port_class(n, q) {
                PortClass::Local { .. } => routers[am[0] as usize] += 1,
                PortClass::Global { .. } => pairs[an[1] as usize * g + am[1] as usize] += 1,
                c => return Err(format!("node {n} port {q} is {c:?}")),
            }
        }
        for (r, &c) in routers.iter().enumerate() {
            let want = usize::from(r != an[0] as usize);
            if c != want {
                return Err(format!("node {n} {an:?} has {c} local links to router {r}"));
            }
        }
    }
    for x in 0..g {
        for y in 0..g {
            let want = if x == y { 0 } else { per_pair };
            if pairs[x * g + y] != want {
                return Err(format!(
                    "groups {x} and {y} are linked by {} global links, not {want}",
                    pairs[x * g + y]
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::topology::{Addr, Shape};

    /// A 4-node ring with one fault planted at a time, to show the check catches it.
    #[derive(Debug)]
    struct Broken {
        shape: Shape,
        fault: u8,
    }

    impl Topology for Broken {
        fn name(&self) -> String {
            format!("broken{}", self.fault)
        }
        fn nodes(&self) -> usize {
            4
        }
        fn terminals(&self) -> usize {
            1
        }
        fn ports(&self) -> usize {
            2
        }
        fn port_class(&self, _n: usize, q: usize) -> PortClass {
            PortClass::Dim {
                dim: 0,
                plus: q == 0,
            }
        }
        fn link(&self, n: usize, q: usize) -> Option<(usize, usize)> {
            match (self.fault, n, q) {
                (1, 3, 0) => Some((1, 1)),           // one-way link
                (2, 2, 1) | (2, 1, 0) => None,       // a torus link missing
                (3, 0, 0) => Some((0, 0)),           // linked to itself
                (4, _, _) => Some(((n + 1) % 4, q)), // arrives on the wrong side
                _ if q == 0 => Some(((n + 1) % 4, 1)),
                _ => Some(((n + 3) % 4, 0)),
            }
        }
        fn addr(&self, n: usize) -> Addr {
            [n as u8, 0, 0]
        }
        fn node_at(&self, a: Addr) -> Option<usize> {
            let wrong = self.fault == 5 && a == [4, 0, 0];
            (a[0] < 4 && a[1] == 0 && a[2] == 0 || wrong).then_some(a[0] as usize % 4)
        }
        fn endpoint(&self, i: usize) -> (usize, usize) {
            (if self.fault == 6 { 0 } else { i }, 0)
        }
        fn endpoint_index(&self, n: usize, _t: usize) -> usize {
            n
        }
        fn shape(&self) -> Option<&Shape> {
            Some(&self.shape)
        }
    }

    #[test]
    fn catches_each_fault() {
        let expect = [
            (0, None),
            (1, Some("leads back")),
            (2, Some("is unwired")),
            (3, Some("linked to itself")),
            (4, Some("leads back")),
            (5, Some("outside")),
            (6, Some("endpoint 1")),
        ];
        for (fault, want) in expect {
            let t = Broken {
                shape: Shape {
                    size: vec![4],
                    wrap: true,
                },
                fault,
            };
            match (verify(&t), want) {
                (Ok(()), None) => {}
                (Err(m), Some(w)) => assert!(m.contains(w), "fault {fault}: {m}"),
                (r, w) => panic!("fault {fault}: {r:?}, expected {w:?}"),
            }
        }
    }
}
