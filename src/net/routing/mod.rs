//! Routing algorithms for network-scale simulation (Pisani 2016 §2.6-2.7, §3.4.3-3.4.4), one file
//! each. The router's ROUTE stage (`src/router/gate.rs`) asks the algorithm where a header goes
//! next; the algorithm answers with every admissible hop in its order of preference, and the
//! router takes the first whose output is free in that cycle, or else the last one (the
//! deterministic or escape choice), and waits for it. State a packet carries from hop to hop
//! (dateline crossings, a misroute taken, entry from another group) lives in the header's
//! `route` field (docs/packet.md), which each hop may rewrite.
//!
//! Files: `ecube` (e-cube / dimension order, and the torus helpers the others share),
//! `star_channel`, `smart_dor` (tori and meshes), `df_min` (dragonfly), `updown` (any
//! connected graph, tables recomputed around failed links), `parse`
//! (building a `RoutingSpec`, `parse_routing`), `path` (one packet's path under a fixed choice), `cdg` (the channel
//! dependency graph of any of them on any topology). docs/network.md, "Routing algorithms".

pub mod cdg;
pub mod df_min;
pub mod ecube;
pub mod parse;
pub mod path;
pub mod smart_dor;
pub mod star_channel;
pub mod updown;

pub use parse::parse_routing;

use super::topology::{Addr, Topology};

/// Where a header comes from and where it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouteIn {
    /// The node routing it.
    pub node: usize,
    /// The port it arrived on: an intra-tile port (injected here) or an inter-tile port, and the
    /// VC it arrived on.
    pub from: Port,
    pub vc: u8,
    /// Destination node address and intra-tile port (terminal).
    pub dst: Addr,
    pub dst_terminal: u8,
    /// The header's `route` field as it arrived.
    pub state: u8,
}

/// A port of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Port {
    Intra(u8),
    Inter(u8),
}

/// One admissible next hop: the output port, the VC on it (0 for an intra-tile port), and the
/// header's `route` field as it leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hop {
    pub port: Port,
    pub vc: u8,
    pub state: u8,
}

/// A routing algorithm.
pub trait Routing: Send + Sync + std::fmt::Debug {
    /// Command-line name (`ecube`, `star-channel`, `smart-dor`, `min`).
    fn name(&self) -> &'static str;
    /// VCs it needs on every inter-tile port.
    fn vcs(&self) -> u32;
    /// Whether it can route on `t` (a torus algorithm on a dragonfly, a size it cannot handle):
    /// an error naming the problem.
    fn check(&self, t: &dyn Topology) -> Result<(), String>;
    /// Every admissible next hop for `r`, most preferred first; the last is taken when none is
    /// free. At the destination node: the hop to the destination terminal.
    fn route(&self, t: &dyn Topology, r: &RouteIn, out: &mut Vec<Hop>);
    /// Whether every packet between two endpoints takes the same path, so they arrive in the
    /// order they left (deterministic algorithms); the engine's check mode then checks it.
    fn in_order(&self) -> bool {
        true
    }
    /// Whether `route` may give more than one hop, choosing by which outputs are free (the
    /// router then tells it which have room, and re-routes a packet waiting for an adaptive
    /// choice that has none). Deterministic algorithms: false.
    fn adapts(&self) -> bool {
        false
    }
    /// The hops the deadlock argument rests on, for the channel dependency graph: all of
    /// `route`'s for a deterministic or partly adaptive algorithm, only the escape sub-function
    /// for a fully adaptive one.
    fn cdg_hops(&self, t: &dyn Topology, r: &RouteIn, out: &mut Vec<Hop>) {
        self.route(t, r, out)
    }
    /// Whether the APErouter's RTL routes as it does (the `route` function of
    /// `rtl/exanet_base_router_pkg.sv`): only then is a network run's routing hardware-backed.
    /// Every other algorithm is model-only: its routers are the RTL's blocks, its routing
    /// function is not (docs/network.md, "What is RTL-backed").
    fn rtl_twin(&self) -> bool {
        false
    }
    /// Whether it routes around failed links and a split network (`net/faults.rs`): the fault
    /// manager recomputes it on the links it knows to be live (`rebuilt`).
    fn tolerates_faults(&self) -> bool {
        false
    }
    /// The algorithm recomputed on `t` (the topology without the links known to be down), for
    /// a table-based one; None: it keeps routing as it does.
    fn rebuilt(&self, _t: &dyn Topology) -> Option<std::sync::Arc<dyn Routing>> {
        None
    }
}
