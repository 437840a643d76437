//! Hot-spot traffic, `hotspot:node=K,frac=F`: a packet goes to endpoint `K` with probability
//! `F`, and otherwise to an endpoint drawn as `uniform` draws it (uniformly among the
//! endpoints other than the source, `K` included). From any source other than `K` the share
//! of packets to `K` is therefore `F + (1 - F) / (N - 1)`; endpoint `K` itself never sends to
//! itself and its packets are uniform. `F = 0` is `uniform`, `F = 1` sends everything
//! (but `K`'s own packets) to `K`.
//!
//! BookSim's `HotSpotTrafficPattern` (`src/traffic.cpp`) sends *every* packet to one of a list
//! of hot spots, chosen with integer weights; the usual hot-spot experiment mixes it with
//! uniform traffic through two traffic classes. Here one pattern does the mix, with the
//! fraction as a parameter. `K` is an endpoint index (`Topology::endpoint`).
//!
//! Draws: one uniform float a packet (from every source, `K` too, so the sequence of draws
//! does not depend on which endpoint is hot), then one uniform draw if the packet is not for
//! `K`.

use super::draws::unit;
use super::uniform::{check_two, other_than};
use super::Pattern;
use crate::net::topology::Topology;
use rand_mt::Mt64;

/// `hotspot:node=K,frac=F`: probability `F` to endpoint `K`, uniform otherwise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hotspot {
    node: usize,
    frac: f64,
}

impl Hotspot {
    /// A hot spot at endpoint `node` taking the fraction `frac` (0..=1) of the packets. The
    /// endpoint's range is checked against the topology by `check`.
    pub fn new(node: usize, frac: f64) -> Result<Hotspot, String> {
        crate::spec::traffic::check_hotspot_frac(frac)?;
        Ok(Hotspot { node, frac })
    }

    /// The hot endpoint.
    pub fn node(&self) -> usize {
        self.node
    }

    /// The fraction of packets sent to it directly.
    pub fn frac(&self) -> f64 {
        self.frac
    }
}

impl Pattern for Hotspot {
    fn name(&self) -> String {
        format!("hotspot:node={},frac={}", self.node, self.frac)
    }
    fn check(&self, t: &dyn Topology) -> Result<(), String> {
        check_two(t, "hotspot")?;
        if self.node >= t.endpoints() {
            return Err(format!(
                "hotspot: node={} is not an endpoint of topology '{}' (0..{})",
                self.node,
                t.name(),
                t.endpoints()
            ));
        }
        Ok(())
    }
    fn dest(&self, t: &dyn Topology, src: usize, rng: &mut Mt64) -> usize {
        let hot = unit(rng) < self.frac;
        if hot && src != self.node && self.node < t.endpoints() {
            self.node
        } else {
            other_than(t, src, rng)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::traffic::testing::{TestRing, TestTorus};

    #[test]
    fn fraction_to_the_hot_spot() {
        // 16 endpoints, hot spot 3, F = 0.2: expected share 0.2 + 0.8 / 15 = 0.25333 from any
        // other source. 100k draws: standard deviation 0.0014; tolerance 5 of them.
        let seed = 0x407;
        let t = TestTorus::new(&[4, 4], 1);
        let h = Hotspot::new(3, 0.2).unwrap();
        h.check(&t).unwrap();
        let mut rng = Mt64::new(seed);
        let draws = 100_000;
        let mut counts = [0u32; 16];
        for _ in 0..draws {
            let d = h.dest(&t, 0, &mut rng);
            assert_ne!(d, 0);
            counts[d] += 1;
        }
        let share = counts[3] as f64 / draws as f64;
        let want = 0.2 + 0.8 / 15.0;
        assert!(
            (share - want).abs() < 0.007,
            "share {share}, want {want} (seed {seed})"
        );
        // The rest is uniform: every other destination near 0.8 / 15 = 0.0533.
        for (d, &c) in counts.iter().enumerate() {
            if d != 0 && d != 3 {
                let s = c as f64 / draws as f64;
                assert!(
                    (s - 0.8 / 15.0).abs() < 0.004,
                    "dest {d}: {s} (seed {seed})"
                );
            }
        }
    }

    #[test]
    fn extremes_and_the_hot_spot_itself() {
        let t = TestRing::new(8);
        let mut rng = Mt64::new(9);
        let all = Hotspot::new(5, 1.0).unwrap();
        let none = Hotspot::new(5, 0.0).unwrap();
        let mut none_hits = 0;
        for _ in 0..10_000 {
            assert_eq!(all.dest(&t, 2, &mut rng), 5);
            let d = all.dest(&t, 5, &mut rng);
            assert!(d != 5 && d < 8);
            none_hits += (none.dest(&t, 2, &mut rng) == 5) as u32;
        }
        // F = 0: uniform, 1/7 of the packets to endpoint 5.
        assert!((none_hits as f64 / 10_000.0 - 1.0 / 7.0).abs() < 0.02);
    }

    #[test]
    fn bad_parameters() {
        for f in [-0.1, 1.5, f64::NAN, f64::INFINITY] {
            let e = Hotspot::new(0, f).unwrap_err();
            assert!(e.contains("frac=") && e.contains("0..=1"), "{e}");
        }
        let e = Hotspot::new(8, 0.5)
            .unwrap()
            .check(&TestRing::new(8))
            .unwrap_err();
        assert!(e.contains("node=8") && e.contains("0..8"), "{e}");
        assert!(Hotspot::new(7, 0.5)
            .unwrap()
            .check(&TestRing::new(8))
            .is_ok());
    }

    #[test]
    fn name_round_trips() {
        assert_eq!(
            Hotspot::new(3, 0.25).unwrap().name(),
            "hotspot:node=3,frac=0.25"
        );
    }
}
