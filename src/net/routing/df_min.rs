//! Minimal routing on a fully connected dragonfly (Pisani 2016 §2.7.4 pseudo code, §3.4.4):
//! deterministic, at most local - global - local hops.
//!
//! ```text
//!   if group != dst group:
//!       if this router has a global link to dst group: that global port  (the first, by port)
//!       else: the local port to the group's router that has one         (the first, by index)
//!   else if router != dst router: the local port to dst router
//!   else: the terminal (dst_port)
//! ```
//!
//! With `g < a h + 1` a pair of groups has several links (docs/decisions/0010): a router with
//! more than one link to the destination group takes its lowest-numbered port, and a router
//! without one goes to the lowest-indexed router of its group that has one, so the choice is
//! deterministic and `in_order()` holds.
//!
//! Virtual channels (deadlock, Pisani 2016 §2.7.4, Figure 2.11): with one VC the local channels
//! carry both packets on their way out of their group and packets that arrived from another
//! group, and local -> global -> local -> global ... dependencies close into cycles across
//! groups. An "extra virtual channel to the local network dedicated to packets coming from a
//! different group" breaks them: local hops of packets that have taken their global hop use
//! VC 1, every other hop (global ones included) VC 0. Dependencies then only go local VC 0 ->
//! global VC 0 -> local VC 1 (or to a terminal): acyclic. Two VCs on every port (`vcs()` = 2).
//!
//! `DfMin::single_vc()` (`min-1vc`) puts every hop on VC 0 with one VC: the cyclic graph of
//! Figure 2.11a, for the analysis (`cdg.rs`, `exanet network cdg --no-extra-vc`).
//!
//! `route` state:
//!
//! ```text
//!   bit 0 (FROM_GROUP): the packet has taken its global hop: it came from another group
//! ```

use super::{Hop, Port, RouteIn, Routing};
use crate::net::topology::{PortClass, Topology};

/// State bit: the packet has taken its global hop.
pub const FROM_GROUP: u8 = 1;

/// Minimal dragonfly routing, with the extra local VC (`new`) or without (`single_vc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DfMin {
    extra_vc: bool,
}

impl DfMin {
    /// Min-routing with its two VCs.
    pub fn new() -> Self {
        DfMin { extra_vc: true }
    }

    /// Min-routing on VC 0 only (`min-1vc`): deadlock-prone, for the analysis.
    pub fn single_vc() -> Self {
        DfMin { extra_vc: false }
    }
}

impl Default for DfMin {
    fn default() -> Self {
        Self::new()
    }
}

/// The first global port of `node` that leads to group `group`.
fn global_port(t: &dyn Topology, node: usize, locals: usize, group: u16) -> Option<usize> {
    (locals..t.ports()).find(|&q| t.port_class(node, q) == PortClass::Global { group })
}

impl Routing for DfMin {
    fn name(&self) -> &'static str {
        if self.extra_vc {
            "min"
        } else {
            "min-1vc"
        }
    }

    fn vcs(&self) -> u32 {
        if self.extra_vc {
            2
        } else {
            1
        }
    }

    /// Any dragonfly; nothing else.
    fn check(&self, t: &dyn Topology) -> Result<(), String> {
        match t.dragonfly() {
            Some(_) => Ok(()),
            None => Err(format!(
                "routing '{}' routes dragonflies; '{}' is not one",
                self.name(),
                t.name()
            )),
        }
    }

    fn route(&self, t: &dyn Topology, r: &RouteIn, out: &mut Vec<Hop>) {
        let Some(df) = t.dragonfly() else { return };
        let (a, locals) = (df.a as usize, df.a as usize - 1);
        let [router, group, _] = t.addr(r.node).map(usize::from);
        let [dst_router, dst_group, _] = r.dst.map(usize::from);
        let local = |to: usize| Hop {
            // local port j leads to router j if j < router, else j + 1
            port: Port::Inter(if to < router { to } else { to - 1 } as u8),
            vc: u8::from(self.extra_vc && r.state & FROM_GROUP != 0),
            state: r.state,
        };
        if group != dst_group {
            let g = dst_group as u16;
            if let Some(q) = global_port(t, r.node, locals, g) {
                out.push(Hop {
                    port: Port::Inter(q as u8),
                    vc: 0,
                    state: r.state | FROM_GROUP,
                });
            } else if let Some(gw) =
                (0..a).find(|&x| global_port(t, x + group * a, locals, g).is_some())
            {
                out.push(local(gw));
            }
        } else if router != dst_router {
            out.push(local(dst_router));
        } else {
            out.push(Hop {
                port: Port::Intra(r.dst_terminal),
                vc: 0,
                state: r.state,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::topology::{parse, Dragonfly, DragonflyParams};

    fn route(t: &dyn Topology, node: usize, dst: [u8; 3], state: u8) -> Hop {
        let r = RouteIn {
            node,
            from: Port::Intra(0),
            vc: 0,
            dst,
            dst_terminal: 1,
            state,
        };
        let mut out = Vec::new();
        DfMin::new().route(t, &r, &mut out);
        assert_eq!(out.len(), 1);
        out[0]
    }

    #[test]
    fn local_global_local_with_the_extra_vc_after_the_global_hop() {
        let t = Dragonfly::with_default_g(2, 4, 2).unwrap();
        // group 0's channel t = r h + k leads to group t + 1: router 0 -> groups 1, 2; router 1
        // -> 3, 4; ... From router 0 of group 0 to router 2 of group 4: local to router 1.
        let h = route(&t, 0, [2, 4, 0], 0);
        assert_eq!((h.port, h.vc, h.state), (Port::Inter(0), 0, 0));
        // router 1: its global port to group 4 (port a - 1 + 1 = 4)
        let h = route(&t, 1, [2, 4, 0], 0);
        assert_eq!((h.port, h.vc, h.state), (Port::Inter(4), 0, FROM_GROUP));
        let (far, _) = t.link(1, 4).unwrap();
        assert_eq!(t.addr(far)[1], 4);
        // in group 4, local to router 2 on VC 1, then the terminal
        let h = route(&t, far, [2, 4, 0], FROM_GROUP);
        assert_eq!(h.vc, 1);
        let Port::Inter(q) = h.port else { panic!() };
        let (last, _) = t.link(far, q as usize).unwrap();
        assert_eq!(t.addr(last), [2, 4, 0]);
        let h = route(&t, last, [2, 4, 0], FROM_GROUP);
        assert_eq!((h.port, h.vc), (Port::Intra(1), 0));
        // within one group: VC 0
        let h = route(&t, 0, [3, 0, 0], 0);
        assert_eq!((h.port, h.vc), (Port::Inter(2), 0));
    }

    #[test]
    fn several_links_pick_the_first() {
        // a h = 8 channels, g = 3: four links per pair of groups, two a router
        let t = Dragonfly::new(DragonflyParams {
            p: 1,
            a: 4,
            h: 2,
            g: 3,
        })
        .unwrap();
        for node in 0..4 {
            let h = route(&t, node, [0, 1, 0], 0);
            let Port::Inter(q) = h.port else { panic!() };
            assert_eq!(
                t.port_class(node, q as usize),
                PortClass::Global { group: 1 },
                "router {node}"
            );
            let first = (3..5)
                .find(|&q| t.port_class(node, q) == PortClass::Global { group: 1 })
                .unwrap();
            assert_eq!(q as usize, first);
        }
    }

    #[test]
    fn single_vc_variant() {
        let t = Dragonfly::with_default_g(1, 2, 1).unwrap();
        let r = RouteIn {
            node: 2,
            from: Port::Inter(1),
            vc: 0,
            dst: [1, 1, 0],
            dst_terminal: 0,
            state: FROM_GROUP,
        };
        let mut out = Vec::new();
        DfMin::single_vc().route(&t, &r, &mut out);
        assert_eq!(out[0].vc, 0);
        assert_eq!(
            (DfMin::single_vc().name(), DfMin::single_vc().vcs()),
            ("min-1vc", 1)
        );
    }

    #[test]
    fn refuses_tori() {
        for name in ["torus:4x4", "mesh:2x2", "exanest:torus6x6"] {
            let e = DfMin::new()
                .check(parse(name).unwrap().as_ref())
                .unwrap_err();
            assert!(e.contains("'min'") && e.contains("dragonflies"), "{e}");
        }
        DfMin::new()
            .check(parse("exanest:dragonfly").unwrap().as_ref())
            .unwrap();
    }
}
