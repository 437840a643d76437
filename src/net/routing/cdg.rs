//! Channel dependency graph of a routing algorithm on a topology (Pisani 2016 §2.6.2, Theorem 1:
//! a routing function is deadlock-free if it has a connected routing sub-function whose channel
//! dependency graph is acyclic; for a deterministic one, the function itself).
//!
//! Channels are the virtual channels of the links: (node, inter-tile port, VC). A packet is at
//! a *position*: (node, the port and VC it arrived on, its header's `route` state), which is
//! everything `Routing::route` sees besides the destination. For every destination endpoint,
//! every position a packet injected at any source endpoint can reach is visited, branching over
//! every hop `route` offers (every path the routing relation allows, adaptive choices and
//! misroutes included); at each, every hop of `cdg_hops` adds the dependency `a -> b` from the
//! channel `a` the packet holds (the one it arrived on) to the channel `b` it may ask for.
//!
//! For an algorithm whose `cdg_hops` is all of `route` (e-cube, smart-dor, min) this is the
//! full graph. For one whose `cdg_hops` is an escape sub-function (star-channel), the packet may
//! ask for an escape channel from any position the full relation reaches, "*" hops included, so
//! those are the positions visited; only dependencies between channels of the sub-function are
//! kept (a channel outside it, e.g. a "*" one, has no dependency into it, so it could not be on
//! a cycle anyway). With virtual cut-through a blocked packet holds only the channel it is in,
//! so these direct dependencies are the ones that matter (Duato's condition for VCT).
//!
//! Every hop is checked (`path::check_hop`): a hop the network does not have is an error, and
//! so is a position with no hop. A position reachable from itself (a packet that may circle
//! forever) or a path longer than 4 hops a node is reported as a livelock, naming a source and
//! the destination.
//!
//! Cost: each destination endpoint visits its reachable positions once, so `E x S` calls of
//! `route` and `cdg_hops` where `E` is the endpoint count and `S` the positions reachable per
//! destination, at most `nodes x (ports + terminals) x VCs x states` but in practice a few per
//! node and input port (e-cube: one state per input; star-channel: the crossing bits of the
//! dimensions a packet can have wrapped). Dependencies go into one ordered set per channel and
//! the cycle search (`Graph::find_cycle`) is linear in channels plus dependencies. A 10x10
//! torus (100 destinations, a few hundred positions each) takes milliseconds. Networks over
//! `MAX_NODES` nodes are refused.

use super::path::{check_hop, endpoint_name, node_name};
use super::{Hop, Port, RouteIn, Routing};
use crate::net::topology::{PortClass, Topology};
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};

/// Most nodes the analysis takes (every destination visits up to every position).
pub const MAX_NODES: usize = 4096;

/// The analysis of one routing algorithm on one topology.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CdgReport {
    /// Topology name (canonical).
    pub topology: String,
    /// Routing algorithm name.
    pub routing: String,
    /// VCs a link.
    pub vcs: u32,
    /// What the graph is of: `all hops` (`cdg_hops` is `route`) or `escape sub-function`.
    pub relation: &'static str,
    pub nodes: usize,
    pub endpoints: usize,
    /// Channels of the analysed relation (those some packet may ask for).
    pub channels: usize,
    /// Dependencies between them.
    pub dependencies: usize,
    pub acyclic: bool,
    /// A cycle of channels when the graph is not acyclic, as `(x,y) X+ vc0`, the first
    /// repeated at the end.
    pub cycle: Option<Vec<String>>,
}

/// Whether the analysis takes `r` on `t`: the routing accepts the topology and the network is
/// at most `MAX_NODES` nodes.
pub fn admit(t: &dyn Topology, r: &dyn Routing) -> Result<(), String> {
    r.check(t)?;
    if t.nodes() > MAX_NODES {
        return Err(format!(
            "{}: {} nodes; the dependency analysis takes at most {MAX_NODES}",
            t.name(),
            t.nodes()
        ));
    }
    Ok(())
}

/// A channel dependency graph: channels numbered from 0, those some packet asks for, and the
/// dependencies between them. Both analyses build one: this module's of a `Routing` on a
/// `Topology`, and `router::cdg`'s of the APErouter's own routing function.
#[derive(Debug, Clone)]
pub struct Graph {
    edges: Vec<BTreeSet<usize>>,
    asked: Vec<bool>,
}

impl Graph {
    /// `channels` channels, none asked for, no dependency.
    pub fn new(channels: usize) -> Graph {
        Graph {
            edges: vec![BTreeSet::new(); channels],
            asked: vec![false; channels],
        }
    }

    /// A packet asks for channel `b`, holding channel `a` (none when it is being injected).
    pub fn ask(&mut self, a: Option<usize>, b: usize) {
        self.asked[b] = true;
        if let Some(a) = a {
            self.edges[a].insert(b);
        }
    }

    /// Keep only the dependencies out of channels some packet asked for: those of the analysed
    /// relation (a channel outside it has no dependency into it, so it could not be on a cycle
    /// anyway).
    pub fn keep_asked(&mut self) {
        for (e, &kept) in self.edges.iter_mut().zip(&self.asked) {
            if !kept {
                e.clear();
            }
        }
    }

    /// Channels some packet asked for.
    pub fn channels(&self) -> usize {
        self.asked.iter().filter(|&&u| u).count()
    }

    /// Dependencies.
    pub fn dependencies(&self) -> usize {
        self.edges.iter().map(BTreeSet::len).sum()
    }

    /// A cycle of channels (the first repeated at the end), if any.
    pub fn find_cycle(&self) -> Option<Vec<usize>> {
        find_cycle(&self.edges)
    }
}

/// A cycle of the directed graph (vertices in order, the first repeated at the end), if any.
fn find_cycle(edges: &[BTreeSet<usize>]) -> Option<Vec<usize>> {
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

/// A position's key: node, input port (intra or inter), VC, state.
fn key(at: &RouteIn) -> u64 {
    let (kind, q) = match at.from {
        Port::Intra(q) => (0u64, q),
        Port::Inter(q) => (1u64, q),
    };
    (at.node as u64) << 32
        | kind << 24
        | u64::from(q) << 16
        | u64::from(at.vc) << 8
        | u64::from(at.state)
}

/// A channel as `(x,y) X+ vc0` (torus, mesh) or `(r,g) L3 vc1` / `(r,g) G7 vc0` (dragonfly
/// local channel to router 3, global channel to group 7; with several ports of the node to
/// the same place, `G7/p5` names the port), or `N5 vc0` (a graph's link to router 5).
pub fn channel_name(t: &dyn Topology, node: usize, q: usize, vc: u8) -> String {
    let class = t.port_class(node, q);
    let mut s = match class {
        PortClass::Dim { dim, plus } => format!(
            "{}{}",
            ["X", "Y", "Z"].get(dim as usize).unwrap_or(&"D"),
            if plus { "+" } else { "-" }
        ),
        PortClass::Local { router } => format!("L{router}"),
        PortClass::Global { group } => format!("G{group}"),
        PortClass::Link { peer } => format!("N{peer}"),
    };
    if (0..t.ports()).any(|p| p != q && t.port_class(node, p) == class) {
        s += &format!("/p{q}");
    }
    format!("{} {s} vc{vc}", node_name(t, node))
}

/// The graph as it is built: channel `(node, q, vc)` is index `(node ports + q) vcs + vc`.
struct Builder<'a> {
    t: &'a dyn Topology,
    r: &'a dyn Routing,
    ports: usize,
    vcs: usize,
    /// The channels some `cdg_hops` asks for and their dependencies.
    graph: Graph,
    /// `cdg_hops` gave fewer hops than `route` somewhere.
    partial: bool,
    hops: Vec<Hop>,
    deps: Vec<Hop>,
}

impl Builder<'_> {
    fn chan(&self, node: usize, q: usize, vc: u8) -> usize {
        (node * self.ports + q) * self.vcs + vc as usize
    }

    /// Records the dependencies of a packet at `at`, bound for endpoint `dst` at node `dn`,
    /// and returns the positions its hops lead to.
    fn visit(&mut self, at: &RouteIn, dn: usize, dst: usize) -> Result<Vec<RouteIn>, String> {
        let (t, r) = (self.t, self.r);
        let here = || {
            format!(
                "routing '{}' at {} for {}",
                r.name(),
                node_name(t, at.node),
                endpoint_name(t, dst)
            )
        };
        self.hops.clear();
        self.deps.clear();
        r.route(t, at, &mut self.hops);
        r.cdg_hops(t, at, &mut self.deps);
        if self.hops.is_empty() {
            return Err(format!("{}: no hop", here()));
        }
        // the channel the packet holds: the one it arrived on
        let held = match at.from {
            Port::Inter(q) => t
                .link(at.node, q as usize)
                .map(|(m, mq)| self.chan(m, mq, at.vc)),
            Port::Intra(_) => None,
        };
        for i in 0..self.deps.len() {
            let h = self.deps[i];
            if !self.hops.contains(&h) {
                return Err(format!(
                    "{}: cdg_hops gives {h:?}, which route does not",
                    here()
                ));
            }
            if let (Port::Inter(q), Some(_)) = (h.port, check_hop(t, r, at, dn, &h)?) {
                let b = self.chan(at.node, q as usize, h.vc);
                self.graph.ask(held, b);
            }
        }
        self.partial |= self.deps.len() != self.hops.len();
        let mut next = Vec::with_capacity(self.hops.len());
        for h in &self.hops {
            if let Some((m, back)) = check_hop(t, r, at, dn, h)? {
                next.push(RouteIn {
                    node: m,
                    from: Port::Inter(back as u8),
                    vc: h.vc,
                    state: h.state,
                    ..*at
                });
            }
        }
        Ok(next)
    }
}

/// Search colours of a position.
const ON_STACK: u8 = 1;
const DONE: u8 = 2;

/// Build the dependency graph of `r` on `t` and look for a cycle.
pub fn analyse(t: &dyn Topology, r: &dyn Routing) -> Result<CdgReport, String> {
    admit(t, r)?;
    let (ports, vcs) = (t.ports(), r.vcs() as usize);
    let nchan = t.nodes() * ports * vcs;
    let mut b = Builder {
        t,
        r,
        ports,
        vcs,
        graph: Graph::new(nchan),
        partial: false,
        hops: Vec::new(),
        deps: Vec::new(),
    };
    let mut seen: HashMap<u64, u8> = HashMap::new();
    let limit = 4 * t.nodes();
    for dst in 0..t.endpoints() {
        let (dn, dt) = t.endpoint(dst);
        seen.clear();
        for src in 0..t.endpoints() {
            let (sn, st) = t.endpoint(src);
            let root = RouteIn {
                node: sn,
                from: Port::Intra(st as u8),
                vc: 0,
                dst: t.addr(dn),
                dst_terminal: dt as u8,
                state: 0,
            };
            if seen.contains_key(&key(&root)) {
                continue;
            }
            let livelock = |at: &RouteIn, what: &str| {
                format!(
                    "routing '{}' from {} to {}: {what} at {} (livelock)",
                    r.name(),
                    endpoint_name(t, src),
                    endpoint_name(t, dst),
                    node_name(t, at.node)
                )
            };
            // Depth first; a frame is a position and the positions still to visit from it.
            seen.insert(key(&root), ON_STACK);
            let mut stack = vec![(root, b.visit(&root, dn, dst)?)];
            while let Some((at, next)) = stack.last_mut() {
                let at = *at;
                let Some(n) = next.pop() else {
                    seen.insert(key(&at), DONE);
                    stack.pop();
                    continue;
                };
                match seen.get(&key(&n)) {
                    None if stack.len() > limit => {
                        return Err(livelock(&n, &format!("more than {limit} hops")));
                    }
                    None => {
                        seen.insert(key(&n), ON_STACK);
                        let more = b.visit(&n, dn, dst)?;
                        stack.push((n, more));
                    }
                    Some(&ON_STACK) => {
                        return Err(livelock(&n, "a packet can come back to the same state"));
                    }
                    Some(_) => {}
                }
            }
        }
    }
    let Builder {
        mut graph, partial, ..
    } = b;
    graph.keep_asked();
    let name = |c: usize| {
        let vc = (c % vcs) as u8;
        let q = (c / vcs) % ports;
        channel_name(t, c / vcs / ports, q, vc)
    };
    let cycle = graph
        .find_cycle()
        .map(|c| c.into_iter().map(name).collect::<Vec<_>>());
    Ok(CdgReport {
        topology: t.name(),
        routing: r.name().to_string(),
        vcs: r.vcs(),
        relation: if partial {
            "escape sub-function"
        } else {
            "all hops"
        },
        nodes: t.nodes(),
        endpoints: t.endpoints(),
        channels: graph.channels(),
        dependencies: graph.dependencies(),
        acyclic: cycle.is_none(),
        cycle,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::routing::parse::parse_routing;
    use crate::net::topology::parse;

    fn run(topo: &str, routing: &str) -> CdgReport {
        let t = parse(topo).unwrap();
        let r = parse_routing(routing).unwrap();
        analyse(t.as_ref(), r.as_ref()).unwrap_or_else(|e| panic!("{e}"))
    }

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
    fn ecube_acyclic_and_its_single_vc_cyclic() {
        let r = run("torus:4x4", "ecube");
        assert!(r.acyclic, "{r:?}");
        assert_eq!(r.relation, "all hops");
        let r = run("torus:4x4", "ecube-1vc");
        let c = r.cycle.unwrap();
        assert_eq!(c.first(), c.last());
        assert!(c.len() >= 5, "a ring of 4: {c:?}");
        // rings of 3: a minimal path never takes two hops along one
        assert!(run("torus:3x3", "ecube-1vc").acyclic);
    }

    #[test]
    fn counts_on_a_ring() {
        // Ring of 4, e-cube with the dateline: 8 channels on VC 0 (every node, both ways), 1 on
        // VC 1 (leaving 0 going +: the run 3 -> 0 -> 1). Dependencies: + runs of 2 hops from
        // every node (4), - runs are 1 hop.
        let r = run("torus:4", "ecube-dateline");
        assert_eq!((r.channels, r.dependencies), (9, 4));
        assert_eq!(
            channel_name(parse("torus:4").unwrap().as_ref(), 3, 1, 0),
            "(3) X- vc0"
        );
        // The APErouter's rule: + on VC 1 towards a higher coordinate (0->1, 1->2, 2->3), on VC 0
        // up to and across the wrap (2->3, 3->0); - on VC 1 across the wrap (0->3), on VC 0
        // elsewhere (1->0, 2->1, 3->2): 9 channels. Dependencies: 0->1->2 and 1->2->3 on VC 1
        // (a tie goes +), 2->3->0 on VC 0, 3->0 (VC 0) -> 0->1 (VC 1); - runs are 1 hop.
        let r = run("torus:4", "ecube");
        assert_eq!((r.channels, r.dependencies), (9, 4));
        assert!(r.acyclic);
    }

    #[test]
    fn star_channel_is_analysed_through_its_escape() {
        let r = run("torus:4x4", "star-channel");
        assert!(r.acyclic);
        assert_eq!(r.relation, "escape sub-function");
        // e-cube's channels and the (d-, VC 1) ones after a "*" hop the - way half way round
        // (star_channel.rs): X- and Y- leaving coordinate 3, four of each
        assert_eq!(r.channels, run("torus:4x4", "ecube-dateline").channels + 8);
    }

    #[test]
    fn dragonfly_channel_names() {
        let t = parse("dragonfly:p=1,a=4,h=2,g=3").unwrap();
        // router 0 of group 0: global ports 3, 4 lead to groups 1 and 2; four links a pair
        assert_eq!(channel_name(t.as_ref(), 0, 0, 1), "(0,0) L1 vc1");
        assert_eq!(channel_name(t.as_ref(), 0, 3, 0), "(0,0) G1 vc0");
        let t = parse("dragonfly:p=1,a=4,h=2,g=2").unwrap();
        assert_eq!(channel_name(t.as_ref(), 0, 4, 0), "(0,0) G1/p4 vc0");
    }

    /// A broken routing for the error paths: `kind` 0 goes X+ forever, 1 offers nothing, 2
    /// counts hops in the state and goes X+ forever, 3 has a cdg hop route does not.
    #[derive(Debug)]
    struct Broken(u8);

    impl Routing for Broken {
        fn name(&self) -> &'static str {
            "broken"
        }
        fn vcs(&self) -> u32 {
            2
        }
        fn check(&self, _: &dyn Topology) -> Result<(), String> {
            Ok(())
        }
        fn route(&self, _: &dyn Topology, r: &RouteIn, out: &mut Vec<super::super::Hop>) {
            let state = if self.0 == 2 {
                r.state.wrapping_add(1)
            } else {
                0
            };
            if self.0 != 1 {
                out.push(super::super::Hop {
                    port: Port::Inter(0),
                    vc: 0,
                    state,
                });
            }
        }
        fn cdg_hops(&self, t: &dyn Topology, r: &RouteIn, out: &mut Vec<super::super::Hop>) {
            self.route(t, r, out);
            if self.0 == 3 {
                out[0].vc = 1;
            }
        }
    }

    #[test]
    fn broken_routings_are_errors() {
        let t = parse("torus:3").unwrap();
        let e = analyse(t.as_ref(), &Broken(0)).unwrap_err();
        assert!(
            e.contains("from (0) to (0)") && e.contains("same state") && e.contains("livelock"),
            "{e}"
        );
        let e = analyse(t.as_ref(), &Broken(1)).unwrap_err();
        assert!(e.contains("no hop"), "{e}");
        let e = analyse(t.as_ref(), &Broken(2)).unwrap_err();
        assert!(
            e.contains("more than 12 hops") && e.contains("livelock"),
            "{e}"
        );
        let e = analyse(t.as_ref(), &Broken(3)).unwrap_err();
        assert!(e.contains("which route does not"), "{e}");
    }

    #[test]
    fn refuses_mismatches_and_large_networks() {
        let t = parse("torus:65x65").unwrap();
        let e = analyse(t.as_ref(), &crate::net::routing::ecube::Ecube::new()).unwrap_err();
        assert!(e.contains("4225 nodes") && e.contains("4096"), "{e}");
        let t = parse("torus:4x4").unwrap();
        let e = analyse(t.as_ref(), parse_routing("min").unwrap().as_ref()).unwrap_err();
        assert!(e.contains("routes dragonflies"), "{e}");
    }
}
