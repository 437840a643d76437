//! A topology given as an explicit list of nodes and links (`graph:N:A-B,C-D,...`), as
//! BookSim's `anynet` reads one from a file and SST's Python graphs build one: any connected
//! graph of routers, one terminal a router, for the table-based routing (`updown`, which routes
//! any connected graph; the torus and dragonfly algorithms refuse it in their `check`).
//!
//! Ports: a node's links take its inter-tile ports in the order the list names them (the
//! first link that names node 3 is its port 0, the next its port 1, ...); every node has as many
//! ports as the node of most links, the rest unwired. A link joins two different nodes; two
//! nodes are joined at most once; a node has at most [`MAX_INTER`] links (the router's
//! inter-tile ports); the graph is connected (else a packet between its parts would have no
//! route). `TopologySpec`'s parser checks all of it, naming the link or node at fault.
//!
//! Address: node `i` is `(i mod 256, i / 256, 0)` (the header's `dst_x`, `dst_y`), so up to
//! 65,536 nodes; endpoint index = node.

use super::{Addr, PortClass, Topology};
pub use crate::spec::topology::GraphSpec;

/// Most nodes: two address bytes.
pub const MAX_NODES: usize = 1 << 16;

/// A graph topology.
#[derive(Debug, Clone)]
pub struct Graph {
    spec: GraphSpec,
    ports: usize,
    /// wire[node * ports + q]: the far node and port of port q of node (None: unwired).
    wire: Vec<Option<(u32, u32)>>,
}

impl Graph {
    /// The graph of `spec` (checked when it was parsed).
    pub fn new(spec: GraphSpec) -> Result<Graph, String> {
        spec.check()?;
        let n = spec.nodes as usize;
        let mut degree = vec![0usize; n];
        let mut ends = Vec::with_capacity(spec.links.len());
        for &(a, b) in &spec.links {
            let (pa, pb) = (degree[a as usize], degree[b as usize]);
            degree[a as usize] += 1;
            degree[b as usize] += 1;
            ends.push((a, pa, b, pb));
        }
        let ports = degree.iter().copied().max().unwrap_or(0);
        let mut wire = vec![None; n * ports];
        for (a, pa, b, pb) in ends {
            wire[a as usize * ports + pa] = Some((b, pb as u32));
            wire[b as usize * ports + pb] = Some((a, pa as u32));
        }
        Ok(Graph { spec, ports, wire })
    }

    fn check_node(&self, node: usize) {
        assert!(
            node < self.nodes(),
            "{}: node {node} of {}",
            self.name(),
            self.nodes()
        );
    }
}

impl Topology for Graph {
    fn name(&self) -> String {
        self.spec.to_string()
    }

    fn nodes(&self) -> usize {
        self.spec.nodes as usize
    }

    fn terminals(&self) -> usize {
        1
    }

    fn ports(&self) -> usize {
        self.ports
    }

    /// The node port `q` leads to (its own number when unwired).
    fn port_class(&self, node: usize, q: usize) -> PortClass {
        self.check_node(node);
        assert!(
            q < self.ports,
            "{}: port {q} of {}",
            self.name(),
            self.ports
        );
        let peer = self.wire[node * self.ports + q].map_or(node as u32, |(m, _)| m);
        PortClass::Link { peer }
    }

    fn link(&self, node: usize, q: usize) -> Option<(usize, usize)> {
        if node >= self.nodes() || q >= self.ports {
            return None;
        }
        self.wire[node * self.ports + q].map(|(m, r)| (m as usize, r as usize))
    }

    fn addr(&self, node: usize) -> Addr {
        self.check_node(node);
        [(node % 256) as u8, (node / 256) as u8, 0]
    }

    fn node_at(&self, a: Addr) -> Option<usize> {
        let node = a[0] as usize + 256 * a[1] as usize;
        (a[2] == 0 && node < self.nodes()).then_some(node)
    }

    fn endpoint(&self, index: usize) -> (usize, usize) {
        self.check_node(index);
        (index, 0)
    }

    fn endpoint_index(&self, node: usize, terminal: usize) -> usize {
        self.check_node(node);
        assert_eq!(terminal, 0, "{}: one terminal a node", self.name());
        node
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::topology::TopologySpec;

    fn graph(name: &str) -> Graph {
        match name.parse::<TopologySpec>().unwrap() {
            TopologySpec::Graph(g) => Graph::new(g).unwrap(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn links_take_their_nodes_ports_in_the_order_listed() {
        // a square with a diagonal
        let g = graph("graph:4:0-1,1-2,2-3,3-0,0-2");
        assert_eq!((g.nodes(), g.ports(), g.endpoints()), (4, 3, 4));
        assert_eq!(g.link(0, 0), Some((1, 0)));
        assert_eq!(g.link(0, 1), Some((3, 1)));
        assert_eq!(g.link(0, 2), Some((2, 2)));
        assert_eq!(g.link(1, 1), Some((2, 0)));
        assert_eq!(g.link(1, 2), None);
        assert_eq!(g.port_class(2, 2), PortClass::Link { peer: 0 });
        for n in 0..4 {
            for q in 0..3 {
                if let Some((m, r)) = g.link(n, q) {
                    assert_eq!(g.link(m, r), Some((n, q)), "the wire leads back");
                }
            }
            assert_eq!(g.node_at(g.addr(n)), Some(n));
        }
        assert_eq!(g.node_at([4, 0, 0]), None);
        assert_eq!(g.name(), "graph:4:0-1,1-2,2-3,3-0,0-2");
        // the consistency every topology has: wires lead back, addresses round-trip, the
        // unwired ports are the ones a graph may leave
        crate::net::topology::verify(&g).unwrap();
        let big = graph(&format!(
            "graph:300:{}",
            (0..299)
                .map(|i| format!("{i}-{}", i + 1))
                .collect::<Vec<_>>()
                .join(",")
        ));
        assert_eq!(big.addr(299), [43, 1, 0]);
        assert_eq!(big.node_at([43, 1, 0]), Some(299));
    }
}
