//! The ping probe (Pisani 2016 §3.4.5 "ping traffic injector"): endpoint `src` sends
//! minimum-size packets to endpoint `dst` every `period` cycles, from cycle 0, on top of
//! whatever other traffic runs; the engine tags them so that the sink can measure their
//! latency apart from the rest (the latency between two chosen points, a local observable
//! that shows how other traffic affects a critical path).
//!
//! `Probe` (`spec/traffic.rs`, written `src=S,dst=D,period=P`) only describes the probe; its
//! injector is a `Periodic` and its packets have the fixed size `PROBE_SIZE`.

use super::periodic::Periodic;
use super::Probe;
use super::SizeDist;
use super::MIN_SIZE;
use crate::net::topology::Topology;

/// The probe packets' payload, bytes: the smallest allowed (one payload word on the wire).
pub const PROBE_SIZE: SizeDist = SizeDist::Fixed(MIN_SIZE);

impl Probe {
    /// Both endpoints exist on `t` and differ, and the period is at least 1.
    pub fn validate(&self, t: &dyn Topology) -> Result<(), String> {
        let n = t.endpoints();
        for (what, e) in [("src", self.src), ("dst", self.dst)] {
            if e >= n {
                return Err(format!(
                    "probe: {what}={e} is not an endpoint of topology '{}' (0..{n})",
                    t.name()
                ));
            }
        }
        if self.src == self.dst {
            return Err(format!(
                "probe: src and dst are both endpoint {} (the probe measures a path between two \
                 endpoints)",
                self.src
            ));
        }
        if self.period == 0 {
            return Err("probe: period=0 cycles (at least 1)".into());
        }
        Ok(())
    }

    /// The probe source's injector: one packet every `period` cycles from cycle 0.
    pub fn injector(&self) -> Periodic {
        Periodic {
            period: self.period,
            phase: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::traffic::testing::TestRing;
    use crate::net::traffic::Injector;
    use rand_mt::Mt64;

    #[test]
    fn probe_injects_every_period() {
        let p = Probe {
            src: 1,
            dst: 6,
            period: 100,
        };
        p.validate(&TestRing::new(8)).unwrap();
        let mut inj = p.injector();
        let mut rng = Mt64::new(0);
        let cycles: Vec<u64> = (0..1000).filter(|&c| inj.tick(c, &mut rng) == 1).collect();
        assert_eq!(cycles, (0..10).map(|i| i * 100).collect::<Vec<_>>());
        assert_eq!(PROBE_SIZE, SizeDist::Fixed(1));
    }

    #[test]
    fn bad_probes() {
        let t = TestRing::new(8);
        for (src, dst, period, want) in [
            (8, 1, 10, "src=8 is not an endpoint"),
            (0, 9, 10, "dst=9 is not an endpoint"),
            (3, 3, 10, "both endpoint 3"),
            (0, 1, 0, "period=0"),
        ] {
            let e = Probe { src, dst, period }.validate(&t).unwrap_err();
            assert!(e.contains(want), "{e}");
        }
    }
}
