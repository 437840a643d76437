//! One packet's path through a network, hop by hop, as routers would route it when the choice
//! among the admissible hops is fixed: `first` (every output free: the router takes the most
//! preferred hop), `last` (every output busy: the router waits for the last, deterministic or
//! escape, hop), or any rule (`walk`). The engine is not involved: this is the routing
//! relation alone, for tests and for the dependency analysis (`cdg.rs`), which shares the
//! checks of every hop.

use super::{Hop, Port, RouteIn, Routing};
use crate::net::topology::Topology;

/// One hop of a path: the node and the hop it takes there (the last is the terminal's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathHop {
    pub node: usize,
    pub hop: Hop,
}

/// The address of `node` as `(x,y)`: the coordinates a torus or mesh has, a dragonfly router's
/// `(router,group)`.
pub fn node_name(t: &dyn Topology, node: usize) -> String {
    let a = t.addr(node);
    let n = match (t.shape(), t.dragonfly()) {
        (Some(s), _) => s.size.len(),
        (None, Some(_)) => 2,
        _ => 3,
    };
    let c: Vec<String> = a[..n].iter().map(|x| x.to_string()).collect();
    format!("({})", c.join(","))
}

/// Endpoint `e` as `(x,y)`, with its terminal when nodes have several.
pub fn endpoint_name(t: &dyn Topology, e: usize) -> String {
    let (n, term) = t.endpoint(e);
    if t.terminals() > 1 {
        format!("{} terminal {term}", node_name(t, n))
    } else {
        node_name(t, n)
    }
}

/// Whether hop `h`, offered by `r` for `at` on its way to endpoint (`dst_node`,
/// `at.dst_terminal`), is a hop the network has: an intra-tile hop only to the destination
/// terminal at the destination node on VC 0, an inter-tile hop on a wired port and a VC below
/// `vcs()`. The far node and port of an inter-tile hop.
pub fn check_hop(
    t: &dyn Topology,
    r: &dyn Routing,
    at: &RouteIn,
    dst_node: usize,
    h: &Hop,
) -> Result<Option<(usize, usize)>, String> {
    let here = || {
        format!(
            "routing '{}' at {} for {}",
            r.name(),
            node_name(t, at.node),
            node_name(t, dst_node)
        )
    };
    match h.port {
        Port::Intra(term) => {
            if at.node != dst_node || term != at.dst_terminal || h.vc != 0 {
                return Err(format!(
                    "{}: leaves by terminal {term} VC {} (the destination is terminal {})",
                    here(),
                    h.vc,
                    at.dst_terminal
                ));
            }
            Ok(None)
        }
        Port::Inter(q) => {
            if u32::from(h.vc) >= r.vcs() {
                return Err(format!(
                    "{}: VC {} of {} on port {q}",
                    here(),
                    h.vc,
                    r.vcs()
                ));
            }
            t.link(at.node, q as usize)
                .map(Some)
                .ok_or_else(|| format!("{}: port {q} is not wired", here()))
        }
    }
}

/// The path from endpoint `src` to endpoint `dst`, taking at each router the hop `pick`
/// chooses among the admissible ones (an index into them, past the end meaning the last). An
/// error when the routing offers no hop, a hop the network does not have, or more than 4 hops a
/// node (livelock).
pub fn walk(
    t: &dyn Topology,
    r: &dyn Routing,
    src: usize,
    dst: usize,
    pick: &mut dyn FnMut(&[Hop]) -> usize,
) -> Result<Vec<PathHop>, String> {
    let (sn, st) = t.endpoint(src);
    let (dn, dt) = t.endpoint(dst);
    let mut at = RouteIn {
        node: sn,
        from: Port::Intra(st as u8),
        vc: 0,
        dst: t.addr(dn),
        dst_terminal: dt as u8,
        state: 0,
    };
    let mut path = Vec::new();
    let mut hops = Vec::new();
    loop {
        hops.clear();
        r.route(t, &at, &mut hops);
        if hops.is_empty() {
            return Err(format!(
                "routing '{}' at {} for {}: no hop",
                r.name(),
                node_name(t, at.node),
                endpoint_name(t, dst)
            ));
        }
        let h = hops[pick(&hops).min(hops.len() - 1)];
        path.push(PathHop {
            node: at.node,
            hop: h,
        });
        let Some((m, back)) = check_hop(t, r, &at, dn, &h)? else {
            return Ok(path);
        };
        if path.len() > 4 * t.nodes() {
            return Err(format!(
                "routing '{}' from {} to {}: more than {} hops (livelock)",
                r.name(),
                endpoint_name(t, src),
                endpoint_name(t, dst),
                4 * t.nodes()
            ));
        }
        at = RouteIn {
            node: m,
            from: Port::Inter(back as u8),
            vc: h.vc,
            state: h.state,
            ..at
        };
    }
}

/// The path taking the most preferred hop everywhere (no contention).
pub fn first(
    t: &dyn Topology,
    r: &dyn Routing,
    src: usize,
    dst: usize,
) -> Result<Vec<PathHop>, String> {
    walk(t, r, src, dst, &mut |_| 0)
}

/// The path taking the last hop everywhere (all outputs busy: the deterministic or escape
/// choice).
pub fn last(
    t: &dyn Topology,
    r: &dyn Routing,
    src: usize,
    dst: usize,
) -> Result<Vec<PathHop>, String> {
    walk(t, r, src, dst, &mut |h| h.len() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::routing::ecube::Ecube;
    use crate::net::topology::parse;

    #[derive(Debug)]
    struct Bad(Hop);

    impl Routing for Bad {
        fn name(&self) -> &'static str {
            "bad"
        }
        fn vcs(&self) -> u32 {
            2
        }
        fn check(&self, _: &dyn Topology) -> Result<(), String> {
            Ok(())
        }
        fn route(&self, _: &dyn Topology, _: &RouteIn, out: &mut Vec<Hop>) {
            out.push(self.0)
        }
    }

    #[test]
    fn paths_and_names() {
        let t = parse("torus:4x4").unwrap();
        let p = first(t.as_ref(), &Ecube::new(), 0, 5).unwrap();
        let nodes: Vec<String> = p.iter().map(|h| node_name(t.as_ref(), h.node)).collect();
        assert_eq!(nodes, ["(0,0)", "(1,0)", "(1,1)"]);
        assert_eq!(p[2].hop.port, Port::Intra(0));
        let d = parse("dragonfly:p=2,a=4,h=2").unwrap();
        assert_eq!(endpoint_name(d.as_ref(), 27), "(1,3) terminal 1");
        assert_eq!(endpoint_name(t.as_ref(), 7), "(3,1)");
    }

    #[test]
    fn bad_hops_are_errors() {
        let t = parse("mesh:3").unwrap();
        let h = |port, vc| Bad(Hop { port, vc, state: 0 });
        let e = first(t.as_ref(), &h(Port::Inter(1), 0), 0, 2).unwrap_err();
        assert!(e.contains("port 1 is not wired"), "{e}");
        let e = first(t.as_ref(), &h(Port::Inter(0), 2), 0, 2).unwrap_err();
        assert!(e.contains("VC 2 of 2"), "{e}");
        let e = first(t.as_ref(), &h(Port::Intra(0), 0), 0, 2).unwrap_err();
        assert!(e.contains("leaves by terminal 0"), "{e}");
        let ring = parse("torus:3").unwrap();
        let e = first(ring.as_ref(), &h(Port::Inter(0), 0), 0, 2).unwrap_err();
        assert!(e.contains("livelock"), "{e}");
    }
}
