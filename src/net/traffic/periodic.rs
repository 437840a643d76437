//! Periodic injection (the rate of Pisani 2016 §3.4.5's ping traffic injector, "packets at a
//! fixed rate"): one packet in every cycle `phase + i period`, `i = 0, 1, ...`, nothing
//! before `phase`. No random draw: a probe's timing does not depend on the seed.

use super::Injector;
use rand_mt::Mt64;

/// One packet every `period` cycles from cycle `phase`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Periodic {
    /// Cycles between packets, at least 1.
    pub period: u64,
    /// The cycle of the first packet.
    pub phase: u64,
}

impl Periodic {
    /// A periodic process, or an error if `period` is 0.
    pub fn new(period: u64, phase: u64) -> Result<Periodic, String> {
        let p = Periodic { period, phase };
        p.validate()?;
        Ok(p)
    }

    /// `period` at least 1.
    pub fn validate(&self) -> Result<(), String> {
        if self.period == 0 {
            return Err("periodic injection: period 0 cycles (at least 1)".into());
        }
        Ok(())
    }
}

impl Injector for Periodic {
    fn tick(&mut self, cycle: u64, _rng: &mut Mt64) -> u32 {
        // A period of 0 (refused by `validate`) generates nothing rather than dividing by 0.
        let due = self.period > 0
            && cycle >= self.phase
            && (cycle - self.phase).is_multiple_of(self.period);
        due as u32
    }

    fn next_due(&self, now: u64) -> u64 {
        if self.period == 0 {
            return u64::MAX;
        }
        if now <= self.phase {
            return self.phase;
        }
        let k = (now - self.phase).div_ceil(self.period);
        self.phase + k * self.period
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_period_from_phase() {
        let mut rng = Mt64::new(0);
        let mut p = Periodic::new(4, 2).unwrap();
        let got: Vec<u32> = (0..12).map(|c| p.tick(c, &mut rng)).collect();
        assert_eq!(got, [0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0]);
        let mut every = Periodic::new(1, 0).unwrap();
        assert!((0..100).all(|c| every.tick(c, &mut rng) == 1));
    }

    #[test]
    fn period_zero() {
        let e = Periodic::new(0, 0).unwrap_err();
        assert!(e.contains("period 0"), "{e}");
        let mut p = Periodic {
            period: 0,
            phase: 0,
        };
        assert_eq!(p.tick(0, &mut Mt64::new(0)), 0);
    }
}
