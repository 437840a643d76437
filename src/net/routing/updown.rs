//! Up*/down* routing (Schroeder et al., Autonet, 1991; SWORDFISH's fault-tolerant routing,
//! Nüssle et al. "Router"), table-based, on any connected graph and so on any topology with failed links
//! (`net/faults.rs` recomputes it on the links the fault manager knows to be live).
//!
//! A breadth-first search from a root (the lowest node of each connected component) gives every
//! node a level. A link's direction is *up* when it leads to a lower level, or to the same
//! level and a lower node index; the other direction is *down*. A legal path takes zero or more
//! up links, then zero or more down links, never up after down. The channel dependency graph
//! of legal paths is acyclic (a cycle would need an up link after a down one), so one VC is
//! enough and the routing is deadlock-free on any graph; `cdg.rs` checks it on every topology
//! with random fault sets (a test).
//!
//! The tables: for every destination, the length of the shortest legal path from every
//! (node, phase) — phase 0 may still go up, phase 1 has gone down — by a breadth-first search
//! backwards over the legal moves. `route` offers every port, in port order, whose hop is
//! legal and one shorter: minimal among legal paths and adaptive (the router takes the first
//! free one, else waits for the last). Every legal move is in the acyclic graph, so waiting on
//! any of them is safe, and `cdg_hops` is the whole relation. A destination in another component has no hop (the router drops the packet,
//! counted as unreachable).
//!
//! `route` state: bit 0, the packet has taken a down link. Tables of up to `MAX_NODES` nodes
//! (4 bytes a node pair).

use super::{Hop, Port, RouteIn, Routing};
use crate::net::topology::Topology;
use std::sync::OnceLock;

/// Most nodes the tables are built for (64 MiB of tables).
pub const MAX_NODES: usize = 4096;

/// State bit: a down link was taken.
const WENT_DOWN: u8 = 1;

const FAR: u16 = u16::MAX;

#[derive(Debug)]
struct Tables {
    n: usize,
    /// Per node: the level, and the index of its component's root.
    level: Vec<u32>,
    /// dist[phase][x * n + d]: legal hops from x in `phase` to d (`FAR`: none).
    dist: [Vec<u16>; 2],
    /// link[x * ports + q]: the node port q of x leads to over a live link (`NONE`: none).
    ports: usize,
    link: Vec<u32>,
}

const NONE: u32 = u32::MAX;

/// Up*/down* routing; its tables are those of the first topology it is given (`check`,
/// `route`), or of `on`'s.
#[derive(Debug, Default)]
pub struct UpDown {
    tables: OnceLock<Tables>,
}

/// Whether the hop from `x` (level `lx`) to `y` (level `ly`) goes up.
fn up(lx: u32, x: usize, ly: u32, y: usize) -> bool {
    (ly, y) < (lx, x)
}

impl Tables {
    fn build(t: &dyn Topology) -> Tables {
        let n = t.nodes();
        let nbrs = |x: usize| (0..t.ports()).filter_map(move |q| t.link(x, q).map(|(m, _)| m));
        // levels: a breadth-first search from the lowest node of each component
        let mut level = vec![u32::MAX; n];
        for root in 0..n {
            if level[root] == u32::MAX {
                crate::net::topology::bfs(t.ports(), root, &mut level, |x, q| t.link(x, q));
            }
        }
        // predecessors of each state, for the backward search: (x, phase) -> (y, phase')
        // is legal when x -> y goes up and phase = phase' = 0, or goes down and phase' = 1
        let mut dist = [vec![FAR; n * n], vec![FAR; n * n]];
        let mut q = std::collections::VecDeque::new();
        for d in 0..n {
            for (ph, dp) in dist.iter_mut().enumerate() {
                dp[d * n + d] = 0;
                q.push_back((d, ph));
            }
            while let Some((y, ph)) = q.pop_front() {
                let dy = dist[ph][y * n + d];
                // the nodes x with a legal move (x, php) -> (y, ph)
                for x in nbrs(y) {
                    let x_to_y_up = up(level[x], x, level[y], y);
                    let from: &[usize] = match (x_to_y_up, ph) {
                        (true, 0) => &[0],
                        (false, 1) => &[0, 1],
                        _ => &[],
                    };
                    for &php in from {
                        let e = &mut dist[php][x * n + d];
                        if *e == FAR {
                            *e = dy + 1;
                            q.push_back((x, php));
                        }
                    }
                }
            }
        }
        let ports = t.ports();
        let link = (0..n * ports)
            .map(|i| t.link(i / ports, i % ports).map_or(NONE, |(m, _)| m as u32))
            .collect();
        Tables {
            n,
            level,
            dist,
            ports,
            link,
        }
    }
}

impl UpDown {
    pub fn new() -> UpDown {
        UpDown::default()
    }

    /// Up*/down* with its tables built on `t` now.
    pub fn on(t: &dyn Topology) -> UpDown {
        let u = UpDown::new();
        let _ = u.tables.set(Tables::build(t));
        u
    }

    fn tables(&self, t: &dyn Topology) -> &Tables {
        self.tables.get_or_init(|| Tables::build(t))
    }
}

impl Routing for UpDown {
    fn name(&self) -> &'static str {
        "updown"
    }

    fn vcs(&self) -> u32 {
        1
    }

    fn tolerates_faults(&self) -> bool {
        true
    }

    fn in_order(&self) -> bool {
        false
    }

    fn adapts(&self) -> bool {
        true
    }

    fn rebuilt(&self, t: &dyn Topology) -> Option<std::sync::Arc<dyn Routing>> {
        Some(std::sync::Arc::new(UpDown::on(t)))
    }

    fn check(&self, t: &dyn Topology) -> Result<(), String> {
        if t.nodes() > MAX_NODES {
            return Err(format!(
                "{} nodes: up*/down* builds its tables for at most {MAX_NODES}",
                t.nodes()
            ));
        }
        let tb = self.tables(t);
        if tb.n != t.nodes() {
            return Err("up*/down*: tables built for another topology".into());
        }
        Ok(())
    }

    fn route(&self, t: &dyn Topology, r: &RouteIn, out: &mut Vec<Hop>) {
        let tb = self.tables(t);
        let Some(d) = t.node_at(r.dst) else { return };
        let x = r.node;
        if x == d {
            out.push(Hop {
                port: Port::Intra(r.dst_terminal),
                vc: 0,
                state: r.state,
            });
            return;
        }
        let n = tb.n;
        let ph = (r.state & WENT_DOWN) as usize;
        let here = tb.dist[ph][x * n + d];
        if here == FAR {
            return;
        }
        for q in 0..tb.ports {
            // the tables' own links: a link the tables were built without is not taken
            let y = tb.link[x * tb.ports + q];
            if y == NONE {
                continue;
            }
            let y = y as usize;
            let goes_up = up(tb.level[x], x, tb.level[y], y);
            if goes_up && ph == 1 {
                continue;
            }
            let nph = if goes_up { 0 } else { 1 };
            if tb.dist[nph][y * n + d] == here - 1 {
                out.push(Hop {
                    port: Port::Inter(q as u8),
                    vc: 0,
                    state: (r.state & !WENT_DOWN) | nph as u8,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::faults::{DownSet, FaultView, Faulty};
    use crate::net::routing::cdg::analyse;
    use crate::net::topology::parse;
    use std::sync::Arc;

    /// Random sets of failed links on tori and a dragonfly: wherever the network stays
    /// connected, up*/down* built on it reaches every endpoint and its channel dependency
    /// graph is acyclic (`cdg.rs` also fails on a position without a hop).
    #[test]
    fn acyclic_and_complete_on_many_random_fault_sets() {
        let mut rng = rand_mt::Mt64::new(14);
        let mut analysed = 0;
        for name in ["torus:6x6", "torus:4x4x2", "dragonfly:p=2,a=4,h=2"] {
            let base: Arc<dyn Topology> = parse(name).unwrap().into();
            let links = crate::net::faults::links(base.as_ref());
            for k in [0usize, 1, 3, 6, 10] {
                for _ in 0..6 {
                    let mut down = DownSet::none(base.nodes());
                    for _ in 0..k {
                        let (a, b) = links[(rng.next_u64() % links.len() as u64) as usize];
                        for (x, q) in crate::net::setup::lanes_between(base.as_ref(), a, b) {
                            down.ports[x] |= 1 << q;
                        }
                    }
                    let view = Arc::new(FaultView::new(base.as_ref(), down));
                    if view.comp.iter().any(|&c| c != 0) {
                        continue; // split: reported by the fault manager, not routed
                    }
                    let f = Faulty {
                        base: base.clone(),
                        view,
                    };
                    let r = UpDown::on(&f);
                    let rep = analyse(&f, &r).unwrap_or_else(|e| panic!("{name}, {k}: {e}"));
                    assert!(rep.acyclic, "{name}, {k} failed links: {:?}", rep.cycle);
                    analysed += 1;
                }
            }
        }
        assert!(analysed >= 60, "only {analysed} connected fault sets");
    }

    #[test]
    fn a_destination_in_another_component_has_no_hop() {
        let base: Arc<dyn Topology> = parse("torus:4x4").unwrap().into();
        let mut down = DownSet::none(16);
        // cut node 5 off
        for q in 0..4 {
            let (m, r) = base.link(5, q).unwrap();
            down.ports[5] |= 1 << q;
            down.ports[m] |= 1 << r;
        }
        let f = Faulty {
            base: base.clone(),
            view: Arc::new(FaultView::new(base.as_ref(), down)),
        };
        let r = UpDown::on(&f);
        let mut out = Vec::new();
        let at = RouteIn {
            node: 0,
            from: Port::Intra(0),
            vc: 0,
            dst: base.addr(5),
            dst_terminal: 0,
            state: 0,
        };
        r.route(&f, &at, &mut out);
        assert!(out.is_empty(), "{out:?}");
        r.route(
            &f,
            &RouteIn {
                dst: base.addr(6),
                ..at
            },
            &mut out,
        );
        // every hop offered is legal and one shorter
        assert!(!out.is_empty() && out.len() <= 4, "{out:?}");
    }
}
