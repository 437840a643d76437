//! e-cube (dimension-order) routing for tori and meshes (Pisani 2016 §2.7.1, §3.4.3): minimal and
//! deterministic. The first dimension, in the order 0, 1, 2, whose coordinate differs from the
//! destination's decides the hop; it goes the shorter way round a torus ring (a tie, possible
//! on an even ring, goes `+`) and towards the destination on a mesh.
//!
//! Shortest direction: Pisani 2016 eq. 3.5 as printed gives `+` when the destination is *behind*
//! the node by at most half the ring (`x_p <= x_n`), the mirror image of the shortest way (from
//! x = 0 to x = 1 on a ring of 4 it would go 0 -> 3 -> 2 -> 1); the text around it means the
//! shortest way, which is what is implemented: `+` when `(dst - cur) mod n <= (cur - dst) mod n`,
//! as the APErouter's own DOR does (`src/router/route.rs`).
//!
//! Virtual channels: three rules, one a variant.
//!
//! - `ecube` (`VcRule::Rtl`): the APErouter's own rule (Biagioni 2017 §5.3.3, Pisani 2016
//!   §2.7.1; `src/router/route.rs`, the `route` function of `rtl/exanet_base_router_pkg.sv`):
//!   VC 1 when the destination coordinate of the dimension travelled is above the current one,
//!   VC 0 otherwise, on tori and meshes alike. Going `+` round the wrap-around link a packet
//!   travels on VC 0 up to and across it and on VC 1 after; going `-` round it, on VC 1 up to
//!   and across it and on VC 0 after; a packet that does not wrap keeps one VC along the
//!   dimension. No chain of dependencies on one VC closes around a ring (`cdg.rs` checks
//!   it). The header's `route` field is left as it arrived, as the RTL leaves it. This is the
//!   routing with an RTL twin: a test holds it equal to `router::route::route_to` at every node
//!   of every shape, and the network lockstep runs it against the RTL.
//! - `ecube-dateline` (`VcRule::Dateline`, model-only): VC 0 up to and across the ring's
//!   wrap-around link (the dateline: from coordinate n - 1 to 0 going `+`, from 0 to n - 1
//!   going `-`) and VC 1 after it, until the packet turns into the next dimension, where it
//!   starts again on VC 0; VC 0 only on a mesh. The rule of Pisani 2016's simulator, and the
//!   escape of `star_channel` and the deterministic hop of `smart_dor`, which build on it.
//! - `ecube-1vc` (`VcRule::Single`, model-only): every hop on VC 0; one VC, deadlock-prone on
//!   a torus with a ring of 4 or more; it exists to show the cyclic dependency graph
//!   (`cdg.rs`, `exanet network cdg --no-extra-vc`).
//!
//! A mesh uses VC 1 under `ecube` (every `+` hop), under the other two rules only VC 0; `vcs()`
//! is 2 all the same (but for `ecube-1vc`) so that every torus and mesh node is the same router.
//!
//! `route` state (the header's 8-bit `route` field, zero from the source), under the dateline
//! rules:
//!
//! ```text
//!   bit d (d = 0, 1, 2): the packet has crossed the dateline of dimension d
//!   e-cube keeps only the bit of the dimension it is travelling in (the bits reset when the
//!   dimension changes); the other bits are 0
//! ```
//!
//! The torus helpers here (`step`, `minimal`, `crosses`, `hop`) are shared by `star_channel`
//! and `smart_dor`, which build on e-cube with the dateline rule.

use super::{Hop, Port, RouteIn, Routing};
use crate::net::topology::{Addr, Shape, Topology};

/// State bit of dimension `d`: the dateline of `d` has been crossed.
pub const fn crossed(d: usize) -> u8 {
    1 << d
}

/// The state bits of the three dimensions' datelines.
pub const CROSSED_ALL: u8 = 0b111;

/// The inter-tile port along dimension `dim`, towards increasing coordinates when `plus`.
pub fn port(dim: usize, plus: bool) -> u8 {
    (2 * dim + usize::from(!plus)) as u8
}

/// Whether a hop from coordinate `cur` of dimension `d`, `+` when `plus`, crosses the
/// wrap-around link (the dateline) of a torus ring.
pub fn crosses(s: &Shape, d: usize, cur: u8, plus: bool) -> bool {
    let n = s.size[d];
    s.wrap && if plus { cur == n - 1 } else { cur == 0 }
}

/// The minimal directions along dimension `d` from `cur` to `dst`: (`+` is minimal, `-` is
/// minimal). Both on a torus ring when the destination is exactly half way round; neither when
/// `cur == dst`.
pub fn minimal(s: &Shape, d: usize, cur: u8, dst: u8) -> (bool, bool) {
    if cur == dst {
        return (false, false);
    }
    if !s.wrap {
        return (dst > cur, dst < cur);
    }
    let n = u32::from(s.size[d]);
    let up = (u32::from(dst) + n - u32::from(cur)) % n;
    let down = (u32::from(cur) + n - u32::from(dst)) % n;
    (up <= down, down <= up)
}

/// One e-cube step from `cur` towards `dst`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub dim: usize,
    pub plus: bool,
    /// The hop crosses the dimension's dateline.
    pub wraps: bool,
}

/// The e-cube step from `cur` to `dst`: the first dimension that differs, the shorter way (a
/// tie goes `+`). None when `cur == dst`.
pub fn step(s: &Shape, cur: Addr, dst: Addr) -> Option<Step> {
    let dim = (0..s.size.len()).find(|&d| cur[d] != dst[d])?;
    let plus = minimal(s, dim, cur[dim], dst[dim]).0;
    Some(Step {
        dim,
        plus,
        wraps: crosses(s, dim, cur[dim], plus),
    })
}

/// The e-cube hop of a packet at `cur` with state `state`, or the hop to the destination
/// terminal at the destination node. `keep`: the state bits carried through unchanged (besides
/// the bit of the step's dimension); the crossing bit of the step's dimension is set when the
/// packet has crossed or this hop crosses. `vc1`: use VC 1 after the dateline (false: VC 0
/// always).
pub fn hop(s: &Shape, cur: Addr, r: &RouteIn, keep: u8, vc1: bool) -> Hop {
    match step(s, cur, r.dst) {
        None => Hop {
            port: Port::Intra(r.dst_terminal),
            vc: 0,
            state: r.state,
        },
        Some(st) => {
            let bit = crossed(st.dim);
            let after = r.state & bit != 0;
            Hop {
                port: Port::Inter(port(st.dim, st.plus)),
                vc: u8::from(vc1 && after),
                state: (r.state & keep & !bit) | if after || st.wraps { bit } else { 0 },
            }
        }
    }
}

/// The shape of a torus or mesh, or an error naming the routing and the topology.
pub fn torus_shape<'a>(name: &str, t: &'a dyn Topology) -> Result<&'a Shape, String> {
    t.shape().ok_or_else(|| {
        format!(
            "routing '{name}' routes tori and meshes; '{}' is not one",
            t.name()
        )
    })
}

/// How e-cube picks a hop's VC (file header).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VcRule {
    /// The APErouter's: VC 1 when the destination coordinate is above the current one.
    Rtl,
    /// VC 1 after the dimension's dateline (model-only).
    Dateline,
    /// VC 0 always (model-only, deadlock-prone on tori).
    Single,
}

/// The APErouter's VC rule: VC 1 when the destination coordinate `dst` of the dimension
/// travelled is above the current one `cur` (`router::route::route_to`).
pub fn rtl_vc(cur: u8, dst: u8) -> u8 {
    u8::from(dst > cur)
}

/// e-cube, with one of its VC rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ecube {
    rule: VcRule,
}

impl Ecube {
    /// e-cube as the APErouter routes: the RTL's VC rule.
    pub fn new() -> Self {
        Ecube { rule: VcRule::Rtl }
    }

    /// e-cube with the dateline VC (`ecube-dateline`, model-only).
    pub fn dateline() -> Self {
        Ecube {
            rule: VcRule::Dateline,
        }
    }

    /// e-cube on VC 0 only (`ecube-1vc`): deadlock-prone on tori, for the analysis.
    pub fn single_vc() -> Self {
        Ecube {
            rule: VcRule::Single,
        }
    }

    pub fn rule(&self) -> VcRule {
        self.rule
    }
}

impl Default for Ecube {
    fn default() -> Self {
        Self::new()
    }
}

impl Routing for Ecube {
    fn name(&self) -> &'static str {
        match self.rule {
            VcRule::Rtl => "ecube",
            VcRule::Dateline => "ecube-dateline",
            VcRule::Single => "ecube-1vc",
        }
    }

    fn vcs(&self) -> u32 {
        match self.rule {
            VcRule::Rtl | VcRule::Dateline => 2,
            VcRule::Single => 1,
        }
    }

    /// Any torus or mesh (a ring of 2, whose `+` and `-` are parallel links, included).
    fn check(&self, t: &dyn Topology) -> Result<(), String> {
        torus_shape(self.name(), t).map(|_| ())
    }

    fn route(&self, t: &dyn Topology, r: &RouteIn, out: &mut Vec<Hop>) {
        let Some(s) = t.shape() else { return };
        let cur = t.addr(r.node);
        match self.rule {
            VcRule::Rtl => out.push(match step(s, cur, r.dst) {
                None => Hop {
                    port: Port::Intra(r.dst_terminal),
                    vc: 0,
                    state: r.state,
                },
                Some(st) => Hop {
                    port: Port::Inter(port(st.dim, st.plus)),
                    vc: rtl_vc(cur[st.dim], r.dst[st.dim]),
                    state: r.state,
                },
            }),
            VcRule::Dateline => out.push(hop(s, cur, r, 0, true)),
            VcRule::Single => out.push(hop(s, cur, r, 0, false)),
        }
    }

    fn rtl_twin(&self) -> bool {
        self.rule == VcRule::Rtl
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::topology::{parse, Torus};

    fn inject(t: &dyn Topology, src: Addr, dst: Addr) -> RouteIn {
        RouteIn {
            node: t.node_at(src).unwrap(),
            from: Port::Intra(0),
            vc: 0,
            dst,
            dst_terminal: 0,
            state: 0,
        }
    }

    #[test]
    fn shortest_direction_ties_go_plus() {
        let ring = |n: u8, wrap: bool| Shape {
            size: vec![n],
            wrap,
        };
        let s = ring(4, true);
        assert_eq!(minimal(&s, 0, 0, 1), (true, false));
        assert_eq!(minimal(&s, 0, 0, 3), (false, true));
        assert_eq!(minimal(&s, 0, 1, 3), (true, true), "half way round: both");
        assert!(step(&s, [1, 0, 0], [3, 0, 0]).unwrap().plus);
        assert_eq!(minimal(&ring(5, true), 0, 0, 3), (false, true));
        assert_eq!(minimal(&ring(5, true), 0, 0, 2), (true, false));
        assert_eq!(minimal(&ring(4, false), 0, 0, 3), (true, false), "mesh");
        assert_eq!(minimal(&ring(2, true), 0, 1, 0), (true, true));
        assert_eq!(minimal(&s, 0, 2, 2), (false, false));
    }

    #[test]
    fn datelines() {
        let s = Shape {
            size: vec![4, 3],
            wrap: true,
        };
        assert!(crosses(&s, 0, 3, true) && crosses(&s, 1, 0, false));
        assert!(!crosses(&s, 0, 3, false) && !crosses(&s, 1, 2, false));
        let m = Shape {
            size: vec![4],
            wrap: false,
        };
        assert!(!crosses(&m, 0, 3, true));
    }

    #[test]
    fn vc_0_up_to_and_across_the_dateline_then_vc_1_then_reset() {
        let t = Torus::torus_of(&[4, 4]).unwrap();
        let e = Ecube::dateline();
        // (3,0) -> (1,1): X+ across the dateline on VC 0, then VC 1, then Y on VC 0.
        assert_eq!(
            walk(&t, &e, [3, 0, 0], [1, 1, 0]),
            vec![
                ([3, 0, 0], Port::Inter(0), 0, 0b01),
                ([0, 0, 0], Port::Inter(0), 1, 0b01),
                ([1, 0, 0], Port::Inter(2), 0, 0b00),
                ([1, 1, 0], Port::Intra(0), 0, 0b00),
            ]
        );
    }

    #[test]
    fn single_vc_variant_stays_on_vc_0() {
        let t = Torus::torus_of(&[4]).unwrap();
        let mut out = Vec::new();
        let r = RouteIn {
            state: crossed(0),
            ..inject(&t, [0, 0, 0], [1, 0, 0])
        };
        Ecube::single_vc().route(&t, &r, &mut out);
        assert_eq!(
            out,
            vec![Hop {
                port: Port::Inter(0),
                vc: 0,
                state: 1
            }]
        );
        assert_eq!(
            (Ecube::single_vc().vcs(), Ecube::single_vc().name()),
            (1, "ecube-1vc")
        );
        out.clear();
        Ecube::dateline().route(&t, &r, &mut out);
        assert_eq!(out[0].vc, 1);
    }

    #[test]
    fn mesh_goes_straight_on_vc_0_down_and_vc_1_up() {
        let t = Torus::mesh_of(&[4, 4]).unwrap();
        let mut out = Vec::new();
        Ecube::new().route(&t, &inject(&t, [3, 2, 0], [0, 2, 0]), &mut out);
        assert_eq!(
            out,
            vec![Hop {
                port: Port::Inter(1),
                vc: 0,
                state: 0
            }]
        );
        out.clear();
        Ecube::new().route(&t, &inject(&t, [0, 2, 0], [3, 2, 0]), &mut out);
        assert_eq!(
            out[0],
            Hop {
                port: Port::Inter(0),
                vc: 1,
                state: 0
            }
        );
        out.clear();
        Ecube::dateline().route(&t, &inject(&t, [0, 2, 0], [3, 2, 0]), &mut out);
        assert_eq!(
            out[0],
            Hop {
                port: Port::Inter(0),
                vc: 0,
                state: 0
            }
        );
    }

    /// A path under `e` from `src` to `dst`: (node address, port, VC, `route` state) at every
    /// hop.
    fn walk(t: &Torus, e: &Ecube, src: Addr, dst: Addr) -> Vec<(Addr, Port, u8, u8)> {
        let mut r = inject(t, src, dst);
        let mut seen = Vec::new();
        loop {
            let mut out = Vec::new();
            e.route(t, &r, &mut out);
            assert_eq!(out.len(), 1);
            let h = out[0];
            seen.push((t.addr(r.node), h.port, h.vc, h.state));
            let Port::Inter(q) = h.port else { break };
            let (m, back) = t.link(r.node, q as usize).unwrap();
            r = RouteIn {
                node: m,
                from: Port::Inter(back as u8),
                vc: h.vc,
                state: h.state,
                ..r
            };
        }
        seen
    }

    #[test]
    fn rtl_rule_vc_1_towards_higher_coordinates_the_wrap_switches() {
        let t = Torus::torus_of(&[4, 4]).unwrap();
        // (3,0) -> (1,1): X+ across the wrap on VC 0 (1 < 3), then VC 1 (1 > 0), Y+ on VC 1;
        // the route field is never written
        assert_eq!(
            walk(&t, &Ecube::new(), [3, 0, 0], [1, 1, 0]),
            vec![
                ([3, 0, 0], Port::Inter(0), 0, 0),
                ([0, 0, 0], Port::Inter(0), 1, 0),
                ([1, 0, 0], Port::Inter(2), 1, 0),
                ([1, 1, 0], Port::Intra(0), 0, 0),
            ]
        );
        // ring of 5, 0 -> 3 goes X- round the wrap: VC 1 (3 > 0) up to and across it, then VC 0
        let t = Torus::torus_of(&[5]).unwrap();
        assert_eq!(
            walk(&t, &Ecube::new(), [0, 0, 0], [3, 0, 0]),
            vec![
                ([0, 0, 0], Port::Inter(1), 1, 0),
                ([4, 0, 0], Port::Inter(1), 0, 0),
                ([3, 0, 0], Port::Intra(0), 0, 0),
            ]
        );
        assert!(Ecube::new().rtl_twin());
        assert!(!Ecube::dateline().rtl_twin() && !Ecube::single_vc().rtl_twin());
        assert_eq!(Ecube::dateline().name(), "ecube-dateline");
    }

    #[test]
    fn refuses_a_dragonfly() {
        let d = parse("dragonfly:p=2,a=4,h=2").unwrap();
        let e = Ecube::new().check(d.as_ref()).unwrap_err();
        assert!(
            e.contains("'ecube'") && e.contains("dragonfly:p=2,a=4,h=2,g=9"),
            "{e}"
        );
        Ecube::new()
            .check(parse("torus:2x2").unwrap().as_ref())
            .unwrap();
        Ecube::new()
            .check(parse("exanest:torus3x3x2").unwrap().as_ref())
            .unwrap();
    }
}
