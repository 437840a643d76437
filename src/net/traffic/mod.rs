//! Synthetic traffic (Pisani 2016 §3.4.5; the split of BookSim's `TrafficPattern` and
//! `InjectionProcess`): a destination pattern times an injection process, with packet sizes
//! fixed or uniformly random. Every random draw comes from a Mersenne Twister (`rand_mt`) that
//! the engine seeds from the configuration, one generator per endpoint, so results do not
//! depend on the order in which endpoints are visited.
//!
//! Endpoints are numbered as the topology numbers them (`Topology::endpoint`).
//!
//! One algorithm a file. Patterns (`Pattern`): `uniform`, `transpose`, `bitcomp`, `bitrev`,
//! `shuffle`, `tornado`, `neighbour`, `hotspot`; injection processes (`Injector`):
//! `bernoulli` (with `bernoulli_rate`, load to packets a cycle), `constant` (constant packet
//! number), `periodic`; the ping `probe`; packet `sizes`; the command-line forms in `parse`.

mod bernoulli;
mod bitcomp;
mod bitrev;
mod bits;
mod constant;
mod coords;
mod draws;
mod hotspot;
mod neighbour;
mod parse;
mod periodic;
mod probe;
mod shuffle;
mod sizes;
#[cfg(test)]
mod testing;
mod tornado;
mod transpose;
mod uniform;

pub use crate::spec::traffic::{PatternSpec, Probe, SizeDist, MAX_SIZE, MIN_SIZE, PATTERN_NAMES};
pub use bernoulli::{bernoulli_rate, Bernoulli};
pub use bitcomp::BitComp;
pub use bitrev::BitRev;
pub use constant::ConstantPacketNumber;
pub use hotspot::Hotspot;
pub use neighbour::Neighbour;
pub use parse::{parse_loads, parse_pattern, parse_probe, parse_sizes, MAX_LOADS};
pub use periodic::Periodic;
pub use probe::PROBE_SIZE;
pub use shuffle::Shuffle;
pub use tornado::Tornado;
pub use transpose::Transpose;
pub use uniform::Uniform;

use super::topology::Topology;
use rand_mt::Mt64;

/// Where packets go.
pub trait Pattern: Send + Sync + std::fmt::Debug {
    /// Command-line name, as `PatternSpec` reads it.
    fn name(&self) -> String;
    /// Whether the pattern is defined on `t` (bit patterns need a power-of-two number of
    /// endpoints, transpose a square 2-D shape...): an error naming the problem.
    fn check(&self, t: &dyn Topology) -> Result<(), String>;
    /// The destination endpoint of a packet from endpoint `src`. Never `src` itself for a
    /// pattern that can avoid it (uniform draws among the others); a permutation that maps an
    /// endpoint to itself returns `src`, and the engine does not send such packets.
    fn dest(&self, t: &dyn Topology, src: usize, rng: &mut Mt64) -> usize;
}

/// When an endpoint generates packets. One instance per endpoint.
pub trait Injector: Send + std::fmt::Debug {
    /// Packets generated in `cycle` (they go to the endpoint's software queue).
    fn tick(&mut self, cycle: u64, rng: &mut Mt64) -> u32;
    /// A packet was delivered to this endpoint in `cycle` (constant packet number reacts).
    fn delivered(&mut self, _cycle: u64) {}
    /// The first cycle at or after `now` whose `tick` may generate a packet or draw a random
    /// number; `tick` is a no-op in the cycles before it, which the engine may therefore skip
    /// (`u64::MAX`: none until a delivery). The default, `now`, asks for every cycle.
    fn next_due(&self, now: u64) -> u64 {
        now
    }
}

#[cfg(test)]
mod tests {
    use super::testing::TestTorus;
    use super::*;

    /// What endpoint `e` generates over `cycles` cycles with its own generator: (cycle,
    /// destination, size) for each packet.
    fn run(seed: u64, order: &[usize], cycles: u64) -> Vec<Vec<(u64, usize, u32)>> {
        let t = TestTorus::new(&[4, 4], 1);
        let patterns = [
            parse_pattern("uniform").unwrap(),
            parse_pattern("hotspot:node=3,frac=0.3").unwrap(),
        ];
        let sizes = parse_sizes("16:256").unwrap();
        let n = t.endpoints();
        let mut rngs: Vec<Mt64> = (0..n as u64).map(|e| Mt64::new(seed ^ (e << 32))).collect();
        let mut inj: Vec<Bernoulli> = (0..n).map(|_| Bernoulli::new(0.3).unwrap()).collect();
        let mut out = vec![vec![]; n];
        for cycle in 0..cycles {
            for &e in order {
                for _ in 0..inj[e].tick(cycle, &mut rngs[e]) {
                    let d = patterns[e % 2].dest(&t, e, &mut rngs[e]);
                    let s = sizes.sample(&mut rngs[e]);
                    out[e].push((cycle, d, s));
                }
            }
        }
        out
    }

    #[test]
    fn same_seed_same_traffic_whatever_the_visiting_order() {
        let seed = 0xdead_beef;
        let fwd: Vec<usize> = (0..16).collect();
        let rev: Vec<usize> = (0..16).rev().collect();
        let a = run(seed, &fwd, 2_000);
        assert_eq!(a, run(seed, &fwd, 2_000), "seed {seed}");
        assert_eq!(a, run(seed, &rev, 2_000), "seed {seed}");
        assert!(a.iter().all(|v| v.len() > 400), "seed {seed}");
        assert_ne!(a, run(seed + 1, &fwd, 2_000), "seed {seed}");
    }
}
