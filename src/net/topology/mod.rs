//! Topologies (Pisani 2016 §2.2, §3.4.3-3.4.4; Biagioni 2017 Ch. 2 for the ExaNeSt configurations): which
//! node's inter-tile port is wired to which, each node's address, and the numbering of
//! endpoints. One algorithm per file; `parse` turns a command-line name into one.
//!
//! Port numbering (every node of a topology has the same ports; some may be unconnected):
//! - torus / mesh of dimensions 0..N: inter-tile port `2d` leads along dimension `d` towards
//!   increasing coordinates (`d+`), port `2d + 1` towards decreasing ones (`d-`); one intra-tile
//!   port (terminal 0).
//! - dragonfly (p terminals, a routers a group, h global channels a router, g groups): intra-tile
//!   ports 0..p are the terminals; inter-tile ports `0..a-1` are the local channels (port `j`
//!   leads to router `j` of the group if `j` < this router's index, else to router `j + 1`, seed
//!   000 §3.4.4), ports `a-1 .. a-1+h` the global channels: global channel `t = r h + k` of a
//!   group (router `r`, its `k`-th global port) leads to group `t' = t mod (g - 1)` if `t'` <
//!   this group's index, else to group `t' + 1` (the fully connected arrangement of Pisani 2016
//!   Listings 3.3-3.4; `t' = t` with the default `g = a h + 1`), and arrives on the far group's
//!   channel of the same copy `t / (g - 1)` that leads back (`dragonfly.rs`,
//!   docs/decisions/0010-dragonfly-wiring.md).
//!
//! Files: `lattice` (index <-> coordinates, eq. 3.1-3.4), `torus` (torus and mesh),
//! `dragonfly`, `exanest` (the ExaNeSt Track-1 presets), `graph` (an explicit list of links), `parse` (building a `TopologySpec`, `parse`, `describe`),
//! `check` (`verify`: the consistency every topology must have).

pub mod check;
pub mod dragonfly;
pub mod exanest;
pub mod graph;
pub mod lattice;
pub mod parse;
pub mod torus;

pub use crate::spec::topology::{DragonflyParams, Shape, TopologySpec};
pub use check::verify;
pub use dragonfly::Dragonfly;
pub use exanest::{Exanest, Preset};
pub use lattice::Lattice;
pub use parse::{describe, parse};
pub use torus::Torus;

/// A node's address as the packet header carries it (`dst_x`, `dst_y`, `dst_z`): a torus or mesh
/// node's coordinates; a dragonfly router's (router index within its group, group, 0).
pub type Addr = [u8; 3];

/// What an inter-tile port leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PortClass {
    /// Torus / mesh: along dimension `dim`, towards increasing coordinates when `plus`.
    Dim { dim: u8, plus: bool },
    /// Dragonfly: a local channel to router `router` of the same group.
    Local { router: u16 },
    /// Dragonfly: a global channel to group `group`.
    Global { group: u16 },
    /// An explicit graph (`graph.rs`): a link to node `peer`.
    Link { peer: u32 },
}

/// Breadth-first search from `root` over the links `link(node, port)` (`ports` ports a node):
/// every node it reaches whose `level` is still `u32::MAX` gets its distance in links from
/// `root`; the nodes reached, `root` first, in the order found. The one search behind hop
/// distributions, the zero-load bound, up*/down*'s levels and the components a fault leaves.
pub fn bfs(
    ports: usize,
    root: usize,
    level: &mut [u32],
    link: impl Fn(usize, usize) -> Option<(usize, usize)>,
) -> Vec<usize> {
    level[root] = 0;
    let mut order = vec![root];
    let mut k = 0;
    while k < order.len() {
        let x = order[k];
        k += 1;
        for q in 0..ports {
            if let Some((m, _)) = link(x, q) {
                if level[m] == u32::MAX {
                    level[m] = level[x] + 1;
                    order.push(m);
                }
            }
        }
    }
    order
}

/// Distances in links from `root` to every node of `t` (`u32::MAX`: unreachable).
pub fn hops_from(t: &dyn Topology, root: usize) -> Vec<u32> {
    let mut level = vec![u32::MAX; t.nodes()];
    bfs(t.ports(), root, &mut level, |x, q| t.link(x, q));
    level
}

/// A network topology. Implementations are pure and cheap to query.
pub trait Topology: Send + Sync + std::fmt::Debug {
    /// Canonical name, as `parse` accepts it (`torus:10x10`, `dragonfly:p=2,a=4,h=2,g=9`).
    fn name(&self) -> String;
    /// Nodes (routers).
    fn nodes(&self) -> usize;
    /// Intra-tile ports (terminals) of every node.
    fn terminals(&self) -> usize;
    /// Inter-tile ports of every node.
    fn ports(&self) -> usize;
    /// What inter-tile port `q` of `node` leads to.
    fn port_class(&self, node: usize, q: usize) -> PortClass;
    /// The node and its port at the other end of inter-tile port `q` of `node`; None when the
    /// port is not wired (a mesh's border).
    fn link(&self, node: usize, q: usize) -> Option<(usize, usize)>;
    /// The header address of `node`.
    fn addr(&self, node: usize) -> Addr;
    /// The node at an address; None outside the network.
    fn node_at(&self, a: Addr) -> Option<usize>;
    /// Endpoints: nodes x terminals.
    fn endpoints(&self) -> usize {
        self.nodes() * self.terminals()
    }
    /// Endpoint `index` as (node, terminal): torus index = node = x + y X + z X Y (Pisani 2016
    /// eq. 3.1-3.4); dragonfly index = p + n P + g P A (eq. 3.6-3.9).
    fn endpoint(&self, index: usize) -> (usize, usize);
    /// The inverse of `endpoint`.
    fn endpoint_index(&self, node: usize, terminal: usize) -> usize;
    /// The torus / mesh shape, if the topology is one.
    fn shape(&self) -> Option<&Shape> {
        None
    }
    /// The dragonfly parameters, if the topology is one.
    fn dragonfly(&self) -> Option<DragonflyParams> {
        None
    }
}
