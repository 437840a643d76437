//! Star-channel routing for tori and meshes (Pisani 2016 §2.7.2): minimal and fully adaptive, with
//! e-cube as its escape ("exhaust valve").
//!
//! Every link carries three VCs: VCs 0 and 1 are the e-cube subnet with the dateline rule
//! (`ecube-dateline`, `ecube.rs`; model-only, as this algorithm is: VC 0 up to and
//! across a ring's dateline, VC 1 after it), VC 2 is the "*" subnet. At each router the
//! admissible hops are, most preferred first:
//!
//! 1. the "*" VC towards the destination along every dimension still to correct, in dimension
//!    order, each in every minimal direction (`+` first; both `+` and `-` when the destination
//!    is exactly half way round an even ring);
//! 2. last, the e-cube hop on its VC (0 or 1): the one the packet waits for when every "*"
//!    channel is busy.
//!
//! Every hop is minimal, so there is no livelock, and packets between two endpoints may take
//! different paths (`in_order()` is false). Deadlock freedom rests on the escape sub-function
//! (Pisani 2016 §2.7.2, Theorem 1 with a connected sub-function; Duato's condition for
//! virtual-cut-through, where a blocked packet holds one channel): e-cube's dependency graph is
//! acyclic and a packet can always ask for its e-cube channel, so `cdg_hops` gives the e-cube
//! hop alone. The analysis (`cdg.rs`) asks for it from every state the full relation reaches,
//! "*" hops included.
//!
//! `route` state: the e-cube subnet needs to know whether the packet has crossed the dateline of
//! the dimension it takes, including crossings made on "*" channels, so no bit is ever reset:
//!
//! ```text
//!   bit d (d = 0, 1, 2): the packet has crossed the dateline of dimension d (on any VC)
//! ```
//!
//! A crossed dimension is past its dateline for good: the rest of a minimal path along it is
//! shorter than half the ring, so it cannot cross again, and its e-cube hops on VC 1 never reach
//! the dateline: no chain of VC 1 dependencies closes around a ring, as in e-cube. The escape
//! does use a few channels e-cube alone never does: a packet half way round an even ring may
//! take the "*" hop the `-` way across the dateline (e-cube would go `+`), and then escapes on
//! `(d-, VC 1)`; on a 4x4 torus these are the 8 channels leaving coordinate 3 going `-` on VC 1.
//! The analysis includes them (`cdg.rs`).
//!
//! `min-adapt` (`StarChannel::min_adapt(V)`, as BookSim2's `min_adapt_torus`) is the same
//! algorithm over V VCs, 3 to 8: VCs 0 and 1 the e-cube escape, VCs 2 to V - 1 adaptive, each
//! "*" hop offered on every adaptive VC in turn (`net.adaptive_vcs`; Safaei et al.'s fully
//! adaptive routing over V VCs, decision 0033). Star-channel is `min-adapt` over 3.

use super::ecube::{self, crosses, minimal, port, torus_shape, CROSSED_ALL};
use super::{Hop, Port, RouteIn, Routing};
use crate::net::topology::Topology;

/// The "*" VC.
pub const STAR_VC: u8 = 2;

/// Star-channel routing (`StarChannel::default()`), or min-adapt over more VCs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StarChannel {
    /// VCs a link: the escape's 2 and the adaptive ones.
    vcs: u32,
    /// Named `min-adapt`.
    min_adapt: bool,
}

impl Default for StarChannel {
    fn default() -> StarChannel {
        StarChannel {
            vcs: 3,
            min_adapt: false,
        }
    }
}

/// The VCs min-adapt may have.
pub const MIN_ADAPT_VCS: std::ops::RangeInclusive<u32> = 3..=8;

impl StarChannel {
    /// Minimal fully adaptive routing over `vcs` VCs (3 to 8; checked by `check`).
    pub fn min_adapt(vcs: u32) -> StarChannel {
        StarChannel {
            vcs,
            min_adapt: true,
        }
    }
}

impl Routing for StarChannel {
    fn name(&self) -> &'static str {
        if self.min_adapt {
            "min-adapt"
        } else {
            "star-channel"
        }
    }

    fn vcs(&self) -> u32 {
        self.vcs
    }

    /// Any torus or mesh.
    fn check(&self, t: &dyn Topology) -> Result<(), String> {
        if !MIN_ADAPT_VCS.contains(&self.vcs) {
            return Err(format!(
                "{} VCs: min-adapt takes 3 to 8 (the escape's 2 and at least one adaptive)",
                self.vcs
            ));
        }
        torus_shape(self.name(), t).map(|_| ())
    }

    fn route(&self, t: &dyn Topology, r: &RouteIn, out: &mut Vec<Hop>) {
        let Some(s) = t.shape() else { return };
        let cur = t.addr(r.node);
        for (d, (&c, &to)) in cur.iter().zip(&r.dst).enumerate().take(s.size.len()) {
            let (up, down) = minimal(s, d, c, to);
            for plus in [true, false] {
                if (plus && up) || (!plus && down) {
                    let wrap = if crosses(s, d, c, plus) {
                        ecube::crossed(d)
                    } else {
                        0
                    };
                    for vc in STAR_VC..self.vcs as u8 {
                        out.push(Hop {
                            port: Port::Inter(port(d, plus)),
                            vc,
                            state: r.state | wrap,
                        });
                    }
                }
            }
        }
        out.push(ecube::hop(s, cur, r, CROSSED_ALL, true));
    }

    fn in_order(&self) -> bool {
        false
    }

    fn adapts(&self) -> bool {
        true
    }

    /// The escape sub-function: the e-cube hop alone.
    fn cdg_hops(&self, t: &dyn Topology, r: &RouteIn, out: &mut Vec<Hop>) {
        let Some(s) = t.shape() else { return };
        out.push(ecube::hop(s, t.addr(r.node), r, CROSSED_ALL, true));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::topology::{parse, Torus};

    fn at(t: &dyn Topology, cur: [u8; 3], dst: [u8; 3], state: u8) -> Vec<Hop> {
        let r = RouteIn {
            node: t.node_at(cur).unwrap(),
            from: Port::Inter(0),
            vc: 0,
            dst,
            dst_terminal: 0,
            state,
        };
        let mut out = Vec::new();
        StarChannel::default().route(t, &r, &mut out);
        out
    }

    fn h(q: u8, vc: u8, state: u8) -> Hop {
        Hop {
            port: Port::Inter(q),
            vc,
            state,
        }
    }

    #[test]
    fn star_hops_in_dimension_order_then_the_escape() {
        let t = Torus::torus_of(&[4, 4]).unwrap();
        // (3,1) -> (0,0): X+ across the dateline, Y-; the escape is e-cube's X+ on VC 0.
        assert_eq!(
            at(&t, [3, 1, 0], [0, 0, 0], 0),
            vec![h(0, 2, 0b01), h(3, 2, 0), h(0, 0, 0b01)]
        );
        // half way round in Y from (0,0) to (0,2): both Y directions; e-cube goes Y+.
        assert_eq!(
            at(&t, [0, 0, 0], [0, 2, 0], 0),
            vec![h(2, 2, 0), h(3, 2, 0b10), h(2, 0, 0)]
        );
        // a crossing made on "*" in X puts the later e-cube X hop on VC 1, and Y keeps its bit
        assert_eq!(
            at(&t, [0, 1, 0], [1, 2, 0], 0b11),
            vec![h(0, 2, 0b11), h(2, 2, 0b11), h(0, 1, 0b11)]
        );
        // at the destination: the terminal alone
        assert_eq!(
            at(&t, [1, 2, 0], [1, 2, 0], 0b11),
            vec![Hop {
                port: Port::Intra(0),
                vc: 0,
                state: 0b11
            }]
        );
    }

    #[test]
    fn escape_is_the_ecube_hop_alone() {
        let t = Torus::mesh_of(&[4, 4]).unwrap();
        let r = RouteIn {
            node: 0,
            from: Port::Intra(0),
            vc: 0,
            dst: [2, 3, 0],
            dst_terminal: 0,
            state: 0,
        };
        let mut out = Vec::new();
        StarChannel::default().cdg_hops(&t, &r, &mut out);
        assert_eq!(out, vec![h(0, 0, 0)]);
        assert!(!StarChannel::default().in_order());
        assert_eq!(StarChannel::default().vcs(), 3);
        // min-adapt: every "*" hop on each adaptive VC, then the same escape
        let m = StarChannel::min_adapt(5);
        let t4 = Torus::torus_of(&[4, 4]).unwrap();
        let r4 = RouteIn {
            node: t4.node_at([3, 1, 0]).unwrap(),
            from: Port::Inter(0),
            vc: 0,
            dst: [0, 0, 0],
            dst_terminal: 0,
            state: 0,
        };
        let mut hops = Vec::new();
        m.route(&t4, &r4, &mut hops);
        assert_eq!(
            hops,
            vec![
                h(0, 2, 0b01),
                h(0, 3, 0b01),
                h(0, 4, 0b01),
                h(3, 2, 0),
                h(3, 3, 0),
                h(3, 4, 0),
                h(0, 0, 0b01)
            ]
        );
        assert_eq!((m.name(), m.vcs()), ("min-adapt", 5));
        assert!(StarChannel::min_adapt(2)
            .check(&t4)
            .unwrap_err()
            .contains("3 to 8"));
    }

    #[test]
    fn min_adapt_is_deadlock_free_through_its_escape_over_every_vc_count() {
        for vcs in MIN_ADAPT_VCS {
            for topo in ["torus:6x6", "torus:4x4x4", "mesh:5x3"] {
                let t = parse(topo).unwrap();
                let rep =
                    crate::net::routing::cdg::analyse(t.as_ref(), &StarChannel::min_adapt(vcs))
                        .unwrap();
                assert!(rep.acyclic, "{topo}, {vcs} VCs: {:?}", rep.cycle);
                assert_eq!(rep.vcs, vcs);
            }
        }
    }

    #[test]
    fn refuses_a_dragonfly() {
        let d = parse("exanest:dragonfly").unwrap();
        let e = StarChannel::default().check(d.as_ref()).unwrap_err();
        assert!(e.contains("'star-channel'") && e.contains("tori"), "{e}");
    }
}
