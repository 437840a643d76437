//! Synthetic traffic (seed 000 §3.4.5; the split of BookSim's `TrafficPattern` and
//! `InjectionProcess`): a destination pattern times an injection process, with packet sizes
//! fixed or uniformly random. Every random draw comes from a Mersenne Twister (`rand_mt`) that
//! the engine seeds from the configuration, one generator per endpoint, so results do not
//! depend on the order in which endpoints are visited.
//!
//! Endpoints are numbered as the topology numbers them (`Topology::endpoint`).

use super::topology::Topology;
use rand_mt::Mt64;

/// Where packets go.
pub trait Pattern: Send + Sync + std::fmt::Debug {
    /// Command-line name, as `parse_pattern` accepts it.
    fn name(&self) -> String;
    /// Whether the pattern is defined on `t` (bit patterns need a power-of-two number of
    /// endpoints, transpose a square 2-D shape...): an error naming the problem.
    fn check(&self, t: &dyn Topology) -> Result<(), String>;
    /// The destination endpoint of a packet from endpoint `src`. Never `src` itself for a
    /// pattern that can avoid it (uniform draws among the others); a permutation that maps an
    /// endpoint to itself returns `src`, and the engine does not send such packets.
    fn dest(&self, t: &dyn Topology, src: usize, rng: &mut Mt64) -> usize;
}

/// Payload sizes, bytes (1..=4096).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeDist {
    Fixed(u32),
    /// Uniform in `min..=max`.
    Uniform {
        min: u32,
        max: u32,
    },
}

/// When an endpoint generates packets. One instance per endpoint.
pub trait Injector: Send + std::fmt::Debug {
    /// Packets generated in `cycle` (they go to the endpoint's software queue).
    fn tick(&mut self, cycle: u64, rng: &mut Mt64) -> u32;
    /// A packet was delivered to this endpoint in `cycle` (constant packet number reacts).
    fn delivered(&mut self, _cycle: u64) {}
}
