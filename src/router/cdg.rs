//! Channel dependency graph of the APErouter's routing function on a torus or mesh of routers
//! (Pisani 2016 §2.6.2, Theorem 1: a deterministic routing function is deadlock-free if and
//! only if its channel dependency graph is acyclic).
//!
//! Channels are the virtual channels of the links: (node, inter-tile port, VC). For every pair of
//! nodes the route is followed hop by hop with [`route::route_to`] (the very function the router
//! model and, line for line, the RTL use); a packet holding channel `a` and asking for channel
//! `b` adds the edge `a -> b`. The graph and its cycle search are the network analysis's
//! (`net::routing::cdg::Graph`), the nodes numbered as the network's lattice numbers them
//! (`net::topology::Lattice`), the topology named as everywhere else (`TopologySpec`).

use super::params::{Dir, InterPort, RouterCfg, RouterParams, Slot, MAX_DIMS};
use super::route::{route_to, Route};
use crate::net::routing::cdg::{Graph, MAX_NODES};
use crate::net::topology::Lattice;
use crate::pktfifo::PktFifoParams;
use crate::spec::topology::{Shape, TopologySpec};
use serde::Serialize;

/// The torus or mesh `t` names, if the analysis takes it: at most `MAX_NODES` nodes.
pub fn admit(t: &TopologySpec) -> Result<&Shape, String> {
    let TopologySpec::Torus(shape) = t else {
        return Err(format!(
            "topology '{t}': the router's routing function runs on a torus or mesh \
             (torus:AxB[xC] or mesh:AxB[xC])"
        ));
    };
    let nodes: usize = shape.size.iter().map(|&n| n as usize).product();
    if nodes > MAX_NODES {
        return Err(format!(
            "topology '{t}': {nodes} nodes; the analysis takes at most {MAX_NODES}"
        ));
    }
    Ok(shape)
}

/// A virtual channel of a link: leaving `node` (coordinates) by `port`, on `vc`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Channel {
    pub node: Vec<u8>,
    pub dim: u8,
    pub dir: &'static str,
    pub vc: u8,
}

impl std::fmt::Display for Channel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c: Vec<String> = self.node.iter().map(|x| x.to_string()).collect();
        write!(
            f,
            "({}) {}{} vc{}",
            c.join(","),
            ["X", "Y", "Z"][self.dim as usize],
            self.dir,
            self.vc
        )
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct CdgReport {
    pub topology: String,
    pub vc_rule: bool,
    pub nodes: u32,
    pub channels: usize,
    pub dependencies: usize,
    pub acyclic: bool,
    /// A cycle of channels when the graph is not acyclic (the first repeats at the end).
    pub cycle: Option<Vec<String>>,
}

/// The router every node of `shape` has: one intra-tile port, and for each dimension of size 2
/// one `Both` port, of size 3 or more a Plus and a Minus port.
pub fn router(shape: &Shape) -> RouterParams {
    let mut inter = Vec::new();
    for (d, &n) in shape.size.iter().enumerate() {
        match n {
            1 => {}
            2 => inter.push(InterPort {
                dim: d as u8,
                dir: Dir::Both,
            }),
            _ => {
                inter.push(InterPort {
                    dim: d as u8,
                    dir: Dir::Plus,
                });
                inter.push(InterPort {
                    dim: d as u8,
                    dir: Dir::Minus,
                });
            }
        }
    }
    let f = PktFifoParams {
        hf_depth: 128,
        pay_depth: 1024,
        latency: 3,
    };
    RouterParams {
        n_intra: 1,
        intra_rx: 1,
        inter,
        dims: shape.size.len() as u32,
        num_vcs: 2,
        intra_fifo: f,
        inter_rx_fifo: f,
        inter_tx_fifo: f,
        size_in_words: false,
    }
}

/// The registers of `node`'s router.
fn cfg(shape: &Shape, lattice: &Lattice, node: usize, p: &RouterParams) -> RouterCfg {
    let mut size = [1u8; MAX_DIMS];
    size[..shape.size.len()].copy_from_slice(&shape.size);
    RouterCfg {
        coord: lattice.coord(node),
        size,
        torus: if shape.wrap { 0b111 } else { 0 },
        order: [0, 1, 2],
        intra_en: 1,
        inter_en: ((1u32 << p.inter.len()) - 1) as u16,
        ..Default::default()
    }
}

/// Build the graph of the router's routing on `shape` and look for a cycle.
pub fn analyse(shape: &Shape, vc_rule: bool, name: &str) -> Result<CdgReport, String> {
    let lattice = Lattice::new(&shape.size)?;
    let p = router(shape);
    let nodes = lattice.points();
    let nports = p.inter.len();
    let nv = p.num_vcs as usize;
    let chan_id = |node: usize, q: usize, v: usize| (node * nports + q) * nv + v;
    let mut g = Graph::new(nodes * nports * nv);
    for src in 0..nodes {
        for dst in 0..nodes {
            let target = lattice.coord(dst);
            let mut cur = src;
            let mut prev: Option<usize> = None;
            let mut hops = 0;
            loop {
                let cfg = cfg(shape, &lattice, cur, &p);
                match route_to(target, 0, &p, &cfg, vc_rule) {
                    Route::Out { slot, .. } => match p.slot(slot) {
                        Slot::Intra(_) => break,
                        Slot::Inter(q, v) => {
                            let c = chan_id(cur, q as usize, v as usize);
                            g.ask(prev, c);
                            prev = Some(c);
                            let port = p.inter[q as usize];
                            // a dimension of size 2 has one neighbour, both ways
                            cur = lattice
                                .step(cur, port.dim as usize, port.dir != Dir::Minus, true)
                                .ok_or_else(|| {
                                    format!("routing from node {src} leaves the lattice at {cur}")
                                })?;
                        }
                    },
                    Route::Drop(r) => {
                        return Err(format!(
                            "routing from node {src} to node {dst} drops the packet ({r:?})"
                        ))
                    }
                }
                hops += 1;
                if hops > 4 * 256 {
                    return Err(format!(
                        "routing from node {src} to node {dst} does not arrive (livelock)"
                    ));
                }
            }
        }
    }
    let describe = |c: usize| {
        let v = (c % nv) as u8;
        let q = (c / nv) % nports;
        let node = c / nv / nports;
        let port = p.inter[q];
        Channel {
            node: lattice.coord(node)[..lattice.dims()].to_vec(),
            dim: port.dim,
            dir: match port.dir {
                Dir::Plus => "+",
                Dir::Minus => "-",
                Dir::Both => "+-",
            },
            vc: v,
        }
        .to_string()
    };
    let cycle = g
        .find_cycle()
        .map(|c| c.into_iter().map(describe).collect());
    Ok(CdgReport {
        topology: name.to_string(),
        vc_rule,
        nodes: nodes as u32,
        channels: g.channels(),
        dependencies: g.dependencies(),
        acyclic: cycle.is_none(),
        cycle,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(t: &str) -> Shape {
        let spec: TopologySpec = t.parse().unwrap();
        admit(&spec).unwrap().clone()
    }

    #[test]
    fn the_vc_rule_makes_tori_acyclic_and_its_absence_cyclic() {
        for t in ["torus:4x4", "torus:5x3", "torus:4x4x4", "torus:8"] {
            let l = shape(t);
            assert!(
                analyse(&l, true, t).unwrap().acyclic,
                "{t} with the VC rule"
            );
            let r = analyse(&l, false, t).unwrap();
            assert!(!r.acyclic, "{t} without the VC rule");
            let cyc = r.cycle.unwrap();
            assert_eq!(cyc.first(), cyc.last());
        }
    }

    #[test]
    fn rings_of_three_have_no_dependencies_within_a_ring() {
        // minimal routing never takes two hops along a ring of 3
        assert!(
            analyse(&shape("torus:3x3x3"), false, "torus:3x3x3")
                .unwrap()
                .acyclic
        );
    }

    #[test]
    fn meshes_need_no_vc_rule() {
        for t in ["mesh:4x4", "mesh:2x2", "mesh:3x2x2"] {
            assert!(analyse(&shape(t), false, t).unwrap().acyclic, "{t}");
        }
    }

    #[test]
    fn other_topologies_and_large_lattices_are_refused() {
        for (t, want) in [
            ("dragonfly:p=2,a=4,h=2", "torus or mesh"),
            ("exanest:torus6x6", "torus or mesh"),
            ("torus:100x100", "10000 nodes"),
        ] {
            let e = admit(&t.parse().unwrap()).unwrap_err();
            assert!(e.contains(want), "{t}: {e}");
        }
    }
}
