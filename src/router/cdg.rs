//! Channel dependency graph of the APErouter's routing function on a lattice of routers (seed
//! 000 §2.6.2, Theorem 1: a deterministic routing function is deadlock-free if and only if its
//! channel dependency graph is acyclic).
//!
//! Channels are the virtual channels of the links: (node, inter-tile port, VC). For every pair of
//! nodes the route is followed hop by hop with [`route::route_to`] (the very function the router
//! model and, line for line, the RTL use); a packet holding channel `a` and asking for channel
//! `b` adds the edge `a -> b`. The graph is then searched for a cycle.

use super::params::{Dir, InterPort, RouterCfg, RouterParams, Slot, MAX_DIMS};
use super::route::{route_to, Route};
use crate::pktfifo::PktFifoParams;
use serde::Serialize;
use std::collections::BTreeSet;

/// A lattice of routers: torus or mesh, 1 to 3 dimensions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lattice {
    pub size: Vec<u8>,
    pub torus: bool,
}

impl std::str::FromStr for Lattice {
    type Err = String;
    /// `torus:4x4`, `mesh:2x2`, `torus:4x4x4`.
    fn from_str(s: &str) -> Result<Self, String> {
        let (kind, dims) = s
            .split_once(':')
            .ok_or_else(|| format!("topology '{s}': expected torus:AxB or mesh:AxB"))?;
        let torus = match kind {
            "torus" => true,
            "mesh" => false,
            _ => return Err(format!("topology '{s}': '{kind}' is not torus or mesh")),
        };
        let size: Vec<u8> = dims
            .split('x')
            .map(|d| d.parse::<u8>().ok().filter(|&n| n >= 1))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| format!("topology '{s}': sizes must be numbers from 1 to 255"))?;
        if size.is_empty() || size.len() > MAX_DIMS {
            return Err(format!(
                "topology '{s}': 1 to {MAX_DIMS} dimensions (the header has three coordinates)"
            ));
        }
        let nodes: u32 = size.iter().map(|&n| n as u32).product();
        if nodes > 4096 {
            return Err(format!(
                "topology '{s}': {nodes} nodes; the analysis takes at most 4096"
            ));
        }
        Ok(Lattice { size, torus })
    }
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

impl Lattice {
    fn dims(&self) -> usize {
        self.size.len()
    }

    fn nodes(&self) -> u32 {
        self.size.iter().map(|&n| n as u32).product()
    }

    fn coord(&self, mut idx: u32) -> [u8; MAX_DIMS] {
        let mut c = [0u8; MAX_DIMS];
        for (cd, &n) in c.iter_mut().zip(&self.size).take(self.dims()) {
            *cd = (idx % n as u32) as u8;
            idx /= n as u32;
        }
        c
    }

    fn index(&self, c: &[u8; MAX_DIMS]) -> u32 {
        let mut idx = 0u32;
        for d in (0..self.dims()).rev() {
            idx = idx * self.size[d] as u32 + c[d] as u32;
        }
        idx
    }

    /// The router every node of this lattice has: one intra-tile port, and for each dimension
    /// of size 2 one `Both` port, of size 3 or more a Plus and a Minus port.
    pub fn router(&self) -> RouterParams {
        let mut inter = Vec::new();
        for (d, &n) in self.size.iter().enumerate() {
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
            dims: self.dims() as u32,
            num_vcs: 2,
            intra_fifo: f,
            inter_rx_fifo: f,
            inter_tx_fifo: f,
            size_in_words: false,
        }
    }

    fn cfg(&self, node: u32, p: &RouterParams) -> RouterCfg {
        let mut size = [1u8; MAX_DIMS];
        size[..self.dims()].copy_from_slice(&self.size);
        RouterCfg {
            coord: self.coord(node),
            size,
            torus: if self.torus { 0b111 } else { 0 },
            order: [0, 1, 2],
            intra_en: 1,
            inter_en: ((1u32 << p.inter.len()) - 1) as u16,
            ..Default::default()
        }
    }

    fn neighbour(&self, c: &[u8; MAX_DIMS], port: InterPort) -> [u8; MAX_DIMS] {
        let d = port.dim as usize;
        let n = self.size[d];
        let mut to = *c;
        to[d] = match port.dir {
            Dir::Plus => (c[d] + 1) % n,
            Dir::Minus => (c[d] + n - 1) % n,
            Dir::Both => 1 - c[d],
        };
        to
    }
}

/// Build the graph of `lattice` and look for a cycle.
pub fn analyse(lattice: &Lattice, vc_rule: bool, name: &str) -> Result<CdgReport, String> {
    let p = lattice.router();
    let nodes = lattice.nodes();
    let nports = p.inter.len() as u32;
    let nv = p.num_vcs;
    let chan_id = |node: u32, q: u32, v: u32| ((node * nports + q) * nv + v) as usize;
    let nchan = (nodes * nports * nv) as usize;
    let mut edges: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); nchan];
    let mut used = vec![false; nchan];
    for src in 0..nodes {
        for dst in 0..nodes {
            let target = lattice.coord(dst);
            let mut cur = src;
            let mut prev: Option<usize> = None;
            let mut hops = 0;
            loop {
                let cfg = lattice.cfg(cur, &p);
                match route_to(target, 0, &p, &cfg, vc_rule) {
                    Route::Out { slot, .. } => match p.slot(slot) {
                        Slot::Intra(_) => break,
                        Slot::Inter(q, v) => {
                            let c = chan_id(cur, q as u32, v as u32);
                            used[c] = true;
                            if let Some(a) = prev {
                                edges[a].insert(c);
                            }
                            prev = Some(c);
                            cur = lattice.index(
                                &lattice.neighbour(&lattice.coord(cur), p.inter[q as usize]),
                            );
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
        let v = (c % nv as usize) as u8;
        let q = (c / nv as usize) % nports as usize;
        let node = (c / nv as usize / nports as usize) as u32;
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
    let cycle = find_cycle(&edges).map(|c| c.into_iter().map(describe).collect());
    Ok(CdgReport {
        topology: name.to_string(),
        vc_rule,
        nodes,
        channels: used.iter().filter(|&&u| u).count(),
        dependencies: edges.iter().map(|e| e.len()).sum(),
        acyclic: cycle.is_none(),
        cycle,
    })
}

/// A cycle of the directed graph (vertices in order, the first repeated at the end), if any.
pub fn find_cycle(edges: &[BTreeSet<usize>]) -> Option<Vec<usize>> {
    // Iterative depth-first search with colours: 0 unvisited, 1 on the stack, 2 done.
    let n = edges.len();
    let mut colour = vec![0u8; n];
    let mut parent = vec![usize::MAX; n];
    for root in 0..n {
        if colour[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, Vec<usize>)> =
            vec![(root, edges[root].iter().copied().collect())];
        colour[root] = 1;
        while let Some((v, next)) = stack.last_mut() {
            let v = *v;
            if let Some(w) = next.pop() {
                match colour[w] {
                    0 => {
                        colour[w] = 1;
                        parent[w] = v;
                        stack.push((w, edges[w].iter().copied().collect()));
                    }
                    1 => {
                        // back edge v -> w closes a cycle w ... v w
                        let mut cyc = vec![v];
                        let mut x = v;
                        while x != w {
                            x = parent[x];
                            cyc.push(x);
                        }
                        cyc.reverse();
                        cyc.push(w);
                        return Some(cyc);
                    }
                    _ => {}
                }
            } else {
                colour[v] = 2;
                stack.pop();
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_cycles_and_their_absence() {
        let g = vec![
            BTreeSet::from([1]),
            BTreeSet::from([2]),
            BTreeSet::from([0]),
        ];
        let c = find_cycle(&g).unwrap();
        assert_eq!(c.first(), c.last());
        assert_eq!(c.len(), 4);
        let g = vec![BTreeSet::from([1, 2]), BTreeSet::from([2]), BTreeSet::new()];
        assert_eq!(find_cycle(&g), None);
    }

    #[test]
    fn the_vc_rule_makes_tori_acyclic_and_its_absence_cyclic() {
        for t in ["torus:4x4", "torus:5x3", "torus:4x4x4", "torus:8"] {
            let l: Lattice = t.parse().unwrap();
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
        let l: Lattice = "torus:3x3x3".parse().unwrap();
        assert!(analyse(&l, false, "torus:3x3x3").unwrap().acyclic);
    }

    #[test]
    fn meshes_need_no_vc_rule() {
        for t in ["mesh:4x4", "mesh:2x2", "mesh:3x2x2"] {
            let l: Lattice = t.parse().unwrap();
            assert!(analyse(&l, false, t).unwrap().acyclic, "{t}");
        }
    }

    #[test]
    fn bad_topologies_are_errors() {
        for t in [
            "ring:4",
            "torus:",
            "torus:4x0",
            "torus:2x2x2x2",
            "torus:axb",
            "torus:100x100",
        ] {
            assert!(t.parse::<Lattice>().is_err(), "{t}");
        }
    }
}
