//! Co-simulation with the RTL: the Verilated tops ([`rtl`]), driven cycle by cycle beside
//! the Rust model (see `docs/architecture.md`, "Time in waves and in lockstep").

pub mod rtl;

pub use rtl::{built_tops, NotBuilt, RtlError, RtlModel, RtlSignal, RtlTop, SignalId};
pub mod bench;
pub mod bench_node;
pub mod coverage;
pub mod icarus;
pub mod link_design;
pub mod lockstep;
pub mod net_design;
pub mod networks;
pub mod node_design;
pub mod router_design;
pub mod shapes;
pub mod views;
