//! A network routing algorithm (`routing/`) seen by one router: the `RouteFn` its ROUTE stage
//! calls. It turns the header and the input slot into a `RouteIn`, asks the algorithm for its
//! admissible hops, and takes the first whose output slot is free this cycle with room for the
//! packet, or else the last (the deterministic or escape choice), which the gate then requests
//! and waits for. A packet that took an earlier (adaptive) hop is routed again if that output
//! has no room for it while it waits (`gate.rs`), so that no packet waits for an adaptive
//! channel: it waits only for the last hop, the one the deadlock argument rests on.

use super::faults::FaultView;
use super::routing::{Hop, Port, RouteIn, Routing};
use super::topology::Topology;
use crate::packet::layout::{HDR_DST_PORT, HDR_DST_X, HDR_DST_Y, HDR_DST_Z, HDR_ROUTE, HDR_VC};
use crate::router::params::RouterParams;
use crate::router::route::{DropReason, Route, RouteFn};
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// Under faults (`faults.rs`): a hop through a port marked down at this node is never taken;
/// a packet whose routing leaves no other, or whose deterministic or escape hop (the last,
/// the one the deadlock argument rests on) is through such a port, is dropped (the gate's
/// `DROP_NO_PORT`) and counted here as `no_route`, or as `unreachable` when the fault
/// manager's view puts its destination in another component (a dead node, a split network).
pub struct NodeRouting {
    pub topo: Arc<dyn Topology>,
    pub routing: Arc<dyn Routing>,
    pub node: usize,
    pub n_intra: u32,
    pub num_vcs: u32,
    pub inter: u32,
    /// Ports marked down at this node (bit q: port q), set by its credit watchdogs.
    down: AtomicU16,
    /// The fault manager's view, when the run has faults.
    view: Option<Arc<FaultView>>,
    /// Packets dropped: no hop through a live port; the destination in another component.
    pub no_route: AtomicU64,
    pub unreachable: AtomicU64,
}

impl NodeRouting {
    pub fn new(
        topo: Arc<dyn Topology>,
        routing: Arc<dyn Routing>,
        node: usize,
        p: &RouterParams,
    ) -> NodeRouting {
        NodeRouting {
            topo,
            routing,
            node,
            n_intra: p.n_intra,
            num_vcs: p.num_vcs,
            inter: p.inter.len() as u32,
            down: AtomicU16::new(0),
            view: None,
            no_route: AtomicU64::new(0),
            unreachable: AtomicU64::new(0),
        }
    }

    /// This adapter with `routing` (recomputed tables) and the manager's `view`; the ports
    /// marked down and the counts carried over.
    pub fn renewed(&self, routing: Arc<dyn Routing>, view: Arc<FaultView>) -> NodeRouting {
        NodeRouting {
            topo: self.topo.clone(),
            routing,
            node: self.node,
            n_intra: self.n_intra,
            num_vcs: self.num_vcs,
            inter: self.inter,
            down: AtomicU16::new(self.down.load(Relaxed)),
            view: Some(view),
            no_route: AtomicU64::new(self.no_route.load(Relaxed)),
            unreachable: AtomicU64::new(self.unreachable.load(Relaxed)),
        }
    }

    /// Port `q` marked down (or up again).
    pub fn set_down(&self, q: usize, down: bool) {
        let m = self.down.load(Relaxed);
        let bit = 1u16 << q;
        self.down
            .store(if down { m | bit } else { m & !bit }, Relaxed);
    }

    /// A packet dropped: to another component, or for want of a live hop.
    fn dropped(&self, dst: usize) -> (Route, Option<u8>, bool) {
        let other = self
            .view
            .as_ref()
            .is_some_and(|v| v.comp[dst] != v.comp[self.node]);
        let c = if other {
            &self.unreachable
        } else {
            &self.no_route
        };
        c.fetch_add(1, Relaxed);
        (Route::Drop(DropReason::NoPort), None, false)
    }

    fn slot(&self, h: &Hop) -> Option<u32> {
        match h.port {
            Port::Intra(t) => ((t as u32) < self.n_intra).then_some(t as u32),
            Port::Inter(q) => ((q as u32) < self.inter && (h.vc as u32) < self.num_vcs)
                .then(|| self.n_intra + q as u32 * self.num_vcs + h.vc as u32),
        }
    }
}

impl RouteFn for NodeRouting {
    fn adapts(&self) -> bool {
        self.routing.adapts()
    }

    fn route(&self, hdr: u128, from: u32, free: u64) -> (Route, Option<u8>, bool) {
        // the hops in a list kept by the thread, not allocated for every header routed
        HOPS.with_borrow_mut(|hops| {
            hops.clear();
            self.route_with(hdr, from, free, hops)
        })
    }
}

thread_local! {
    /// `NodeRouting::route`'s list of admissible hops, reused.
    static HOPS: std::cell::RefCell<Vec<Hop>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl NodeRouting {
    /// `route`, with the admissible hops gathered into `hops` (empty).
    fn route_with(
        &self,
        hdr: u128,
        from: u32,
        free: u64,
        hops: &mut Vec<Hop>,
    ) -> (Route, Option<u8>, bool) {
        let dst = [
            HDR_DST_X.get(hdr) as u8,
            HDR_DST_Y.get(hdr) as u8,
            HDR_DST_Z.get(hdr) as u8,
        ];
        let dst_terminal = HDR_DST_PORT.get(hdr) as u8;
        let Some(dst_node) = self.topo.node_at(dst) else {
            return (Route::Drop(DropReason::OutsideLattice), None, false);
        };
        if dst_terminal as usize >= self.topo.terminals() {
            return (Route::Drop(DropReason::BadDstPort), None, false);
        }
        let from_port = if from < self.n_intra {
            Port::Intra(from as u8)
        } else {
            Port::Inter(((from - self.n_intra) / self.num_vcs) as u8)
        };
        let r = RouteIn {
            node: self.node,
            from: from_port,
            vc: HDR_VC.get(hdr) as u8,
            dst,
            dst_terminal,
            state: HDR_ROUTE.get(hdr) as u8,
        };
        self.routing.route(self.topo.as_ref(), &r, hops);
        let down = self.down.load(Relaxed);
        if self.view.is_some() || down != 0 {
            let is_down = |h: &Hop| matches!(h.port, Port::Inter(q) if down >> q & 1 != 0);
            let other = self
                .view
                .as_ref()
                .is_some_and(|v| v.comp[dst_node] != v.comp[self.node]);
            if other || hops.is_empty() || hops.last().is_some_and(is_down) {
                return self.dropped(dst_node);
            }
            hops.retain(|h| !is_down(h));
        }
        let last = hops.len().saturating_sub(1);
        let pick = hops
            .iter()
            .take(last)
            .position(|h| self.slot(h).is_some_and(|s| free >> s & 1 == 1))
            .unwrap_or(last);
        match hops.get(pick).and_then(|h| self.slot(h).map(|s| (s, h))) {
            Some((slot, h)) => (Route::Out { slot, vc: h.vc }, Some(h.state), pick < last),
            None => (Route::Drop(DropReason::NoPort), None, false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::net::engine::router_params;
    use crate::net::routing::parse_routing;
    use crate::net::topology::parse;

    /// The adapter of node (0,0) of a 4x4 torus; a header from its intra-tile port to `dst`.
    fn at_origin(routing: &str, dst: [u8; 2]) -> (NodeRouting, u128) {
        let t: Arc<dyn Topology> = parse("torus:4x4").unwrap().into();
        let r: Arc<dyn Routing> = parse_routing(routing).unwrap().into();
        let p = router_params(&Config::default(), t.as_ref(), r.vcs());
        let hdr = HDR_DST_Y.set(HDR_DST_X.set(0, dst[0] as u64), dst[1] as u64);
        (NodeRouting::new(t, r, 0, &p), hdr)
    }

    #[test]
    fn an_adaptive_choice_may_be_retried_the_last_resort_may_not() {
        let (a, hdr) = at_origin("star-channel", [1, 1]);
        assert!(a.adapts());
        // every output free with room: the first "*" hop, which the gate may route again
        let (r, _, retry) = a.route(hdr, 0, u64::MAX);
        let Route::Out { vc, .. } = r else {
            panic!("{r:?}")
        };
        assert_eq!(vc, crate::net::routing::star_channel::STAR_VC);
        assert!(retry);
        // none free (or none with room): the e-cube escape, waited for
        let (r, _, retry) = a.route(hdr, 0, 0);
        let Route::Out { vc, .. } = r else {
            panic!("{r:?}")
        };
        assert_eq!(vc, 0);
        assert!(!retry);
        // deterministic e-cube: one hop, never retried, and no room asked for
        let (e, hdr) = at_origin("ecube", [1, 1]);
        assert!(!e.adapts());
        assert!(!e.route(hdr, 0, u64::MAX).2);
    }
}
