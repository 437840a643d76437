//! Smart dimension-order routing for tori and meshes (Pisani 2016 §2.7.3): e-cube with the
//! dateline VC rule (`ecube-dateline`, `ecube.rs`; model-only, as this algorithm is)
//! plus, at the first hop only, one misroute into another dimension when the e-cube channel is
//! busy, on a VC that e-cube never uses there. Partly adaptive, non-minimal (at most two hops
//! over the distance), two VCs.
//!
//! Candidates, most preferred first, at the node where the packet was injected (`from` is an
//! intra-tile port) and has not been misrouted:
//!
//! 1. the e-cube hop;
//! 2. the misroute hops (below): first those along a dimension still to correct in a minimal
//!    direction (they cost no extra hop), then the others, each in dimension order, `+` first;
//! 3. the e-cube hop again, last: the one the packet waits for when all are busy.
//!
//! Everywhere else: the e-cube hop alone.
//!
//! # Which channels e-cube leaves unused (the 2N hypercube decomposition, Figure 2.10)
//!
//! e-cube travels along a torus ring on VC 0 up to and across the dateline and on VC 1 after
//! it. Take one ring of `n` nodes, coordinates `0..n`, `h = floor(n / 2)`:
//!
//! - Going `+`, a run is at most `h` hops (a tie goes `+`). A run of `k` hops from `s` crosses
//!   the dateline when `s + k >= n` and then uses VC 1 on the channels leaving coordinates
//!   `0 ..= s + k - n - 1`; the largest is `(n - 1) + h - n - 1 = h - 2` (the run of `h` hops
//!   from `n - 1`). So `(d+, VC 1)` is used leaving coordinates `0 ..= h - 2` and **unused
//!   leaving coordinates `h - 1 ..= n - 1`**.
//! - Going `-`, a run is at most `ceil(n / 2) - 1 = floor((n - 1) / 2)` hops (a tie goes `+`).
//!   After crossing from 0 to `n - 1` it uses VC 1 leaving `n - 1` down to `s - k + n + 1`,
//!   whose smallest is `n + 1 - floor((n - 1) / 2) = h + 2`. So `(d-, VC 1)` is **unused leaving
//!   coordinates `0 ..= h + 1`**.
//! - VC 0 is used on every channel of a ring of 3 or more (a one-hop run leaves every node each
//!   way); on a ring of 2 e-cube never goes `-` (a tie), so `(d-, VC 0)` is free there too, but
//!   VC 1 is free in both directions and is the one taken, as everywhere.
//! - A mesh has no dateline: e-cube uses VC 1 nowhere, so `(d±, VC 1)` is free at every node
//!   (where the port is wired).
//!
//! Splitting each dimension into a lower half `0 .. h` and an upper half `h .. n` gives the
//! thesis's `2^N` regions (Figure 2.10): in the upper half of dimension `d` the channel
//! `(d+, VC 1)` is free (`h >= h - 1`), in the lower half `(d-, VC 1)` (`h - 1 <= h + 1`), so
//! every node has `N` free channels, one per dimension, in the direction its region's label
//! gives. The exact sets above are larger (coordinates `h - 1 ..= h + 1` have both) and are what
//! is used. Nothing requires an even size: an odd ring's middle coordinate is in both sets, so
//! `check` accepts every torus and mesh (tests compare these sets with the channels e-cube's
//! paths actually use, for rings of 1 to 9).
//!
//! Admissible misroutes at the injection node: `(d', dir, VC 1)` for every dimension `d'` other
//! than the e-cube step's, every direction whose port is wired and whose VC 1 e-cube leaves
//! unused at this node's coordinate in `d'`.
//!
//! # Deadlock and livelock
//!
//! A misroute channel is never used by e-cube, and a packet takes it only as its first hop,
//! holding no channel (it waits in the injection buffer): no dependency leads into a misroute
//! channel, so none is on a cycle. After it the packet follows plain e-cube from the node it
//! reached, with its crossing bits clear, exactly as if injected there: no dependency between
//! e-cube channels is added. The full relation's channel dependency graph is e-cube's plus
//! edges out of misroute channels, hence acyclic (Pisani 2016 §2.7.3); `cdg_hops` is the full
//! relation and `cdg.rs` checks it. One non-minimal hop at most: no livelock, and a path is at
//! most the distance plus 2 hops.
//!
//! `route` state:
//!
//! ```text
//!   bit d (d = 0, 1, 2): the packet has crossed the dateline of dimension d, as in e-cube
//!                        (only the bit of the dimension it travels in)
//!   bit 7 (MISROUTED):   the packet took its misroute hop (it never takes another)
//! ```

use super::ecube::{self, minimal, port, torus_shape};
use super::{Hop, Port, RouteIn, Routing};
use crate::net::topology::{Shape, Topology};

/// State bit: the misroute has been taken.
pub const MISROUTED: u8 = 0x80;

/// The VC misroute hops take.
pub const MISROUTE_VC: u8 = 1;

/// Whether e-cube never uses VC 1 on the channel leaving coordinate `pos` of dimension `d`,
/// `+` when `plus` (the derivation in the file header).
pub fn vc1_unused(s: &Shape, d: usize, pos: u8, plus: bool) -> bool {
    if !s.wrap {
        return true;
    }
    let h = i32::from(s.size[d]) / 2;
    let pos = i32::from(pos);
    if plus {
        pos >= h - 1
    } else {
        pos <= h + 1
    }
}

/// Smart dimension-order routing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SmartDor;

impl Routing for SmartDor {
    fn name(&self) -> &'static str {
        "smart-dor"
    }

    fn vcs(&self) -> u32 {
        2
    }

    /// Any torus or mesh: the unused channels are derived for every ring size, odd ones
    /// included (file header).
    fn check(&self, t: &dyn Topology) -> Result<(), String> {
        torus_shape(self.name(), t).map(|_| ())
    }

    fn route(&self, t: &dyn Topology, r: &RouteIn, out: &mut Vec<Hop>) {
        let Some(s) = t.shape() else { return };
        let cur = t.addr(r.node);
        let e = ecube::hop(s, cur, r, MISROUTED, true);
        out.push(e);
        let Some(st) = ecube::step(s, cur, r.dst) else {
            return;
        };
        if !matches!(r.from, Port::Intra(_)) || r.state & MISROUTED != 0 {
            return;
        }
        let first = out.len();
        for productive in [true, false] {
            for d in (0..s.size.len()).filter(|&d| d != st.dim) {
                let (up, down) = minimal(s, d, cur[d], r.dst[d]);
                for plus in [true, false] {
                    let minimal_way = if plus { up } else { down };
                    if minimal_way != productive
                        || !vc1_unused(s, d, cur[d], plus)
                        || t.link(r.node, port(d, plus) as usize).is_none()
                    {
                        continue;
                    }
                    out.push(Hop {
                        port: Port::Inter(port(d, plus)),
                        vc: MISROUTE_VC,
                        state: MISROUTED,
                    });
                }
            }
        }
        if out.len() > first {
            out.push(e);
        }
    }

    fn in_order(&self) -> bool {
        false
    }

    fn adapts(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::routing::ecube::crossed;
    use crate::net::topology::{parse, Torus};
    use std::collections::BTreeSet;

    fn hops(t: &dyn Topology, cur: [u8; 3], dst: [u8; 3], from: Port, state: u8) -> Vec<Hop> {
        let r = RouteIn {
            node: t.node_at(cur).unwrap(),
            from,
            vc: 0,
            dst,
            dst_terminal: 0,
            state,
        };
        let mut out = Vec::new();
        SmartDor.route(t, &r, &mut out);
        out
    }

    fn h(q: u8, vc: u8, state: u8) -> Hop {
        Hop {
            port: Port::Inter(q),
            vc,
            state,
        }
    }

    /// (node coordinate, plus) of every channel e-cube's paths use on VC 1 in a ring, found by
    /// walking every e-cube path.
    fn ecube_vc1_use(n: u8, wrap: bool) -> BTreeSet<(u8, bool)> {
        let t = if wrap {
            Torus::torus_of(&[n]).unwrap()
        } else {
            Torus::mesh_of(&[n]).unwrap()
        };
        let mut used = BTreeSet::new();
        for src in 0..n {
            for dst in 0..n {
                let mut r = RouteIn {
                    node: src as usize,
                    from: Port::Intra(0),
                    vc: 0,
                    dst: [dst, 0, 0],
                    dst_terminal: 0,
                    state: 0,
                };
                loop {
                    let mut out = Vec::new();
                    ecube::Ecube::dateline().route(&t, &r, &mut out);
                    let Port::Inter(q) = out[0].port else { break };
                    if out[0].vc == 1 {
                        used.insert((r.node as u8, q == 0));
                    }
                    let (m, back) = t.link(r.node, q as usize).unwrap();
                    r = RouteIn {
                        node: m,
                        from: Port::Inter(back as u8),
                        vc: out[0].vc,
                        state: out[0].state,
                        ..r
                    };
                }
            }
        }
        used
    }

    #[test]
    fn unused_sets_are_exactly_what_ecube_leaves() {
        for n in 1..=9u8 {
            for wrap in [true, false] {
                let s = Shape {
                    size: vec![n],
                    wrap,
                };
                let used = ecube_vc1_use(n, wrap);
                for pos in 0..n {
                    for plus in [true, false] {
                        assert_eq!(
                            vc1_unused(&s, 0, pos, plus),
                            !used.contains(&(pos, plus)),
                            "ring of {n} (wrap {wrap}), coordinate {pos}, plus {plus}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_node_has_a_free_channel_in_every_dimension_as_figure_2_10() {
        for n in 2..=12u8 {
            let s = Shape {
                size: vec![n],
                wrap: true,
            };
            for pos in 0..n {
                let upper = pos >= n / 2;
                assert!(vc1_unused(&s, 0, pos, upper), "ring {n} at {pos}");
            }
        }
    }

    #[test]
    fn misroutes_at_the_first_hop_only() {
        let t = Torus::torus_of(&[4, 4]).unwrap();
        // (0,0) -> (1,1): e-cube X+. Y: (0,0) is in Y's lower half, Y+ is productive but its
        // VC 1 is e-cube's there (coordinate 0 <= h - 2 = 0); Y- (VC 1 free at 0) is not.
        assert_eq!(
            hops(&t, [0, 0, 0], [1, 1, 0], Port::Intra(0), 0),
            vec![h(0, 0, 0), h(3, 1, MISROUTED), h(0, 0, 0)]
        );
        // (2,2) -> (3,3): Y+ productive (free at 2 >= 1), Y- free at 2 <= 3 too.
        assert_eq!(
            hops(&t, [2, 2, 0], [3, 3, 0], Port::Intra(0), 0),
            vec![
                h(0, 0, 0),
                h(2, 1, MISROUTED),
                h(3, 1, MISROUTED),
                h(0, 0, 0)
            ]
        );
        // Not at a later hop, nor after a misroute.
        assert_eq!(
            hops(&t, [2, 2, 0], [3, 3, 0], Port::Inter(1), 0),
            vec![h(0, 0, 0)]
        );
        assert_eq!(
            hops(&t, [2, 2, 0], [3, 3, 0], Port::Intra(0), MISROUTED),
            vec![h(0, 0, MISROUTED)]
        );
        // After a misroute, e-cube keeps the flag with its crossing bit.
        assert_eq!(
            hops(&t, [3, 0, 0], [1, 0, 0], Port::Inter(2), MISROUTED),
            vec![h(0, 0, MISROUTED | crossed(0))]
        );
        // a 1-D ring has no other dimension to misroute in
        let ring = Torus::torus_of(&[5]).unwrap();
        assert_eq!(
            hops(&ring, [0, 0, 0], [2, 0, 0], Port::Intra(0), 0),
            vec![h(0, 0, 0)]
        );
    }

    #[test]
    fn mesh_misroutes_on_any_wired_port() {
        let t = Torus::mesh_of(&[4, 4]).unwrap();
        // (0,0) -> (2,0): Y+ (not productive: Y is right), Y- unwired.
        assert_eq!(
            hops(&t, [0, 0, 0], [2, 0, 0], Port::Intra(0), 0),
            vec![h(0, 0, 0), h(2, 1, MISROUTED), h(0, 0, 0)]
        );
    }

    #[test]
    fn accepts_every_torus_and_mesh_refuses_a_dragonfly() {
        for name in [
            "torus:5x5",
            "torus:3x7x5",
            "mesh:5",
            "torus:2x2",
            "exanest:torus6x6",
        ] {
            SmartDor.check(parse(name).unwrap().as_ref()).unwrap();
        }
        let e = SmartDor
            .check(parse("dragonfly:p=1,a=2,h=1").unwrap().as_ref())
            .unwrap_err();
        assert!(e.contains("'smart-dor'"), "{e}");
    }
}
