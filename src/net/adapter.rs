//! A network routing algorithm (`routing/`) seen by one router: the `RouteFn` its ROUTE stage
//! calls. It turns the header and the input slot into a `RouteIn`, asks the algorithm for its
//! admissible hops, and takes the first whose output slot is free this cycle, or else the last
//! (the deterministic or escape choice), which the gate then requests and waits for.

use super::routing::{Hop, Port, RouteIn, Routing};
use super::topology::Topology;
use crate::packet::layout::{HDR_DST_PORT, HDR_DST_X, HDR_DST_Y, HDR_DST_Z, HDR_ROUTE, HDR_VC};
use crate::router::params::RouterParams;
use crate::router::route::{DropReason, Route, RouteFn};
use std::sync::Arc;

pub struct NodeRouting {
    pub topo: Arc<dyn Topology>,
    pub routing: Arc<dyn Routing>,
    pub node: usize,
    pub n_intra: u32,
    pub num_vcs: u32,
    pub inter: u32,
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
        }
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
    fn route(&self, hdr: u128, from: u32, free: u64) -> (Route, Option<u8>) {
        let dst = [
            HDR_DST_X.get(hdr) as u8,
            HDR_DST_Y.get(hdr) as u8,
            HDR_DST_Z.get(hdr) as u8,
        ];
        let dst_terminal = HDR_DST_PORT.get(hdr) as u8;
        if self.topo.node_at(dst).is_none() {
            return (Route::Drop(DropReason::OutsideLattice), None);
        }
        if dst_terminal as usize >= self.topo.terminals() {
            return (Route::Drop(DropReason::BadDstPort), None);
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
        let mut hops = Vec::with_capacity(4);
        self.routing.route(self.topo.as_ref(), &r, &mut hops);
        let pick = hops
            .iter()
            .find(|h| self.slot(h).is_some_and(|s| free >> s & 1 == 1))
            .or(hops.last());
        match pick.and_then(|h| self.slot(h).map(|s| (s, h))) {
            Some((slot, h)) => (Route::Out { slot, vc: h.vc }, Some(h.state)),
            None => (Route::Drop(DropReason::NoPort), None),
        }
    }
}
