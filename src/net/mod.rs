//! Network-scale simulation (Pisani 2016 Ch. 2-4, Biagioni 2017 §5.5): networks of ExaNet Network IP
//! nodes (the APErouter of `src/router/` with its APElinks, `src/link/`), wired by a topology
//! (`topology/`), routed by a routing algorithm (`routing/`), loaded by synthetic traffic
//! (`traffic/`). Every node and link is the cycle-accurate block the router and link issues
//! validated; the engine only wires and clocks them.
//!
//! Addressing: a node's address is the header's destination coordinates (X, Y, Z) and an
//! endpoint is a node plus an intra-tile port (the header's `dst_port`). Endpoints are also
//! numbered with a single index (Pisani 2016 §3.4.3-3.4.4), which traffic patterns use.

pub mod account;
pub mod adapter;
pub mod bench;
pub mod ber_model;
pub mod channel_load;
pub mod channels;
pub mod confidence;
pub mod dist;
pub mod engine;
pub mod faults;
pub mod hop_times;
pub mod latency_bins;
pub mod nic;
pub mod node;
pub mod observe;
pub mod packet_log;
pub mod report;
pub mod routing;
pub mod setup;
pub mod stats;
pub mod topology;
pub mod traffic;
pub mod tred;
pub mod window_books;
