//! KARMA (Biagioni 2017 §5.4): the test framework that validated the ExaNet Network IP on four Trenz
//! boards in a 2x2 mesh, with the ARM Cortex-A53 of each board emulating the network interface
//! in software. Here the boards' hardware is simulated (the Rust node model or the Verilated
//! RTL) and their ARMs and software are emulated cycle by cycle with documented costs
//! (`docs/karma.md`, decision 0009).
//!
//! - `mesh.rs`: the four nodes and their links; `rtl_mesh.rs`: the same on Verilated RTL.
//! - `arm.rs`: the ARM's AXI accesses to its node; `software.rs`: the ping-pong software, user
//!   space and kernel space.
//! - `pingpong.rs`: the latency test; `selftest.rs`: the bandwidth tests with the self-test IPs.

pub mod arm;
pub mod mesh;
pub mod pingpong;
pub mod rtl_mesh;
pub mod selftest;
pub mod software;
