//! Bernoulli injection (BookSim `BernoulliInjectionProcess::test`, `src/injection.cpp`; seed
//! 000 §3.4.5 uniform traffic injector "at a fixed bandwidth"; SPEC: Bernoulli injection at a
//! set load): in every cycle an endpoint generates one packet with probability `rate`,
//! independently of every other cycle. The process is drawn gap by gap: the number of cycles to
//! the next packet is geometric, `1 + floor(ln U / ln(1 - rate))` for one uniform draw U of the
//! endpoint's own generator, which is the same process as one Bernoulli trial a cycle and lets
//! the engine skip the cycles in between (`next_due`). Packets go to the endpoint's software
//! queue; under congestion the injected
//! bandwidth falls below the offered one, and the queue time is not part of the latency
//! (Pisani 2016 §4.1).
//!
//! `bernoulli_rate` turns a normalized load into that probability, as BookSim divides
//! `injection_rate` by the average packet size when `injection_rate_uses_flits` is set
//! (`TrafficManager` constructor, `src/trafficmanager.cpp`): a load of 1 offers
//! `bytes_per_cycle` payload bytes every cycle, so `rate = load * bytes_per_cycle / mean size`.

use super::draws::unit;
use super::{Injector, SizeDist};
use rand_mt::Mt64;

/// One packet a cycle with probability `rate` (0..=1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bernoulli {
    /// Packets a cycle, 0..=1.
    pub rate: f64,
    /// The cycle of the next packet, once drawn.
    next: Option<u64>,
}

impl Bernoulli {
    /// A Bernoulli process, or an error if `rate` is not in 0..=1.
    pub fn new(rate: f64) -> Result<Bernoulli, String> {
        let b = Bernoulli { rate, next: None };
        b.validate()?;
        Ok(b)
    }

    /// `rate` within 0..=1.
    pub fn validate(&self) -> Result<(), String> {
        if !(0.0..=1.0).contains(&self.rate) {
            return Err(format!(
                "Bernoulli injection rate {} is outside 0..=1 packets a cycle",
                self.rate
            ));
        }
        Ok(())
    }
}

impl Bernoulli {
    /// Cycles from one packet to the next (at least 1): geometric with parameter `rate`.
    fn gap(&self, rng: &mut Mt64) -> u64 {
        if self.rate >= 1.0 {
            return 1;
        }
        if self.rate <= 0.0 {
            return u64::MAX / 2;
        }
        // U in (0, 1]: ln U finite
        let u = 1.0 - unit(rng);
        1 + crate::geometric::failures(u, self.rate, u64::MAX / 4)
    }
}

impl Injector for Bernoulli {
    fn tick(&mut self, cycle: u64, rng: &mut Mt64) -> u32 {
        let next = match self.next {
            Some(n) => n,
            // the first trial is in the first cycle ticked
            None => cycle + self.gap(rng) - 1,
        };
        if next > cycle {
            self.next = Some(next);
            return 0;
        }
        // next == cycle (ticks never pass a due cycle)
        self.next = Some(cycle.saturating_add(self.gap(rng)));
        1
    }

    fn next_due(&self, now: u64) -> u64 {
        self.next.map_or(now, |n| n.max(now))
    }
}

/// The Bernoulli rate (packets a cycle) that offers `load` (a fraction of `bytes_per_cycle`,
/// 0..=1) with payloads drawn from `sizes`. An error if an argument is out of range or the
/// rate would exceed one packet a cycle (small packets at a high load: an endpoint generates
/// at most one packet a cycle).
pub fn bernoulli_rate(load: f64, bytes_per_cycle: f64, sizes: &SizeDist) -> Result<f64, String> {
    if !(0.0..=1.0).contains(&load) {
        return Err(format!("load {load} is outside 0..=1"));
    }
    if !(bytes_per_cycle.is_finite() && bytes_per_cycle > 0.0) {
        return Err(format!(
            "bandwidth {bytes_per_cycle} bytes a cycle must be a positive number"
        ));
    }
    sizes.validate()?;
    let rate = load * bytes_per_cycle / sizes.mean();
    if rate > 1.0 {
        return Err(format!(
            "load {load} with packet size {sizes} (mean {} bytes) needs {rate:.3} packets a \
             cycle at {bytes_per_cycle} bytes a cycle, but an endpoint injects at most one \
             packet a cycle: use larger packets or a lower load",
            sizes.mean()
        ));
    }
    Ok(rate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_within_tolerance() {
        let seed = 0xbe51;
        let mut rng = Mt64::new(seed);
        let cycles = 1_000_000u64;
        for rate in [0.05, 0.3, 0.9] {
            let mut b = Bernoulli::new(rate).unwrap();
            let n: u64 = (0..cycles).map(|c| b.tick(c, &mut rng) as u64).sum();
            let got = n as f64 / cycles as f64;
            // 5 standard deviations (at most 0.0025 here).
            let tol = 5.0 * (rate * (1.0 - rate) / cycles as f64).sqrt();
            assert!((got - rate).abs() < tol, "rate {rate}: {got} (seed {seed})");
        }
    }

    #[test]
    fn extremes() {
        let mut rng = Mt64::new(1);
        let mut zero = Bernoulli::new(0.0).unwrap();
        let mut one = Bernoulli::new(1.0).unwrap();
        for c in 0..10_000 {
            assert_eq!(zero.tick(c, &mut rng), 0);
            assert_eq!(one.tick(c, &mut rng), 1);
        }
    }

    #[test]
    fn bad_rates() {
        for r in [-0.1, 1.01, f64::NAN] {
            let e = Bernoulli::new(r).unwrap_err();
            assert!(e.contains("outside 0..=1"), "{e}");
        }
    }

    #[test]
    fn rate_from_load() {
        let f64b = SizeDist::Fixed(64);
        assert_eq!(bernoulli_rate(0.5, 16.0, &f64b).unwrap(), 0.125);
        let u = SizeDist::Uniform { min: 16, max: 256 };
        assert!((bernoulli_rate(1.0, 16.0, &u).unwrap() - 16.0 / 136.0).abs() < 1e-15);
        // Exactly one packet a cycle is allowed, more is not.
        assert_eq!(
            bernoulli_rate(1.0, 16.0, &SizeDist::Fixed(16)).unwrap(),
            1.0
        );
        let e = bernoulli_rate(0.9, 16.0, &SizeDist::Fixed(8)).unwrap_err();
        assert!(
            e.contains("load 0.9") && e.contains("packet size 8") && e.contains("1.800"),
            "{e}"
        );
        for (load, bpc, sizes, want) in [
            (1.5, 16.0, f64b, "load 1.5"),
            (-0.5, 16.0, f64b, "load -0.5"),
            (0.5, 0.0, f64b, "bandwidth 0"),
            (0.5, f64::NAN, f64b, "bandwidth NaN"),
            (0.5, 16.0, SizeDist::Fixed(0), "packet size"),
        ] {
            let e = bernoulli_rate(load, bpc, &sizes).unwrap_err();
            assert!(e.contains(want), "{e}");
        }
    }
}
