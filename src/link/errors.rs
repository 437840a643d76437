//! Bit-error injector for one PHY lane (a test-bench block, not hardware).
//!
//! It produces the `err_mask_i` of a lane every cycle. The mask only matters in a cycle in which
//! the lane accepts a beat; the injector sees that from register outputs (the TCL's `tx_valid`,
//! the lane's `tx_ready`) and, in its `commit`, prepares the mask of the next accepted beat.
//! Random errors are independent bit flips at rate `ber`, drawn as geometric gaps between
//! errors from a Mersenne Twister (`rand_mt::Mt64`) seeded from the configuration, so a seed
//! gives the same errors in the model and in the RTL (which receives the same masks).
//! A plan can also place errors on chosen beats (tests of header, payload and credit faults).

use rand_mt::Mt64;

/// Where errors go.
#[derive(Debug, Clone)]
pub enum ErrorPlan {
    /// No errors.
    None,
    /// Independent bit flips with probability `ber` per transmitted bit.
    Random { ber: f64, seed: u64 },
    /// Explicit masks on accepted beats, by beat index (0 = first accepted beat), sorted.
    Beats(Vec<(u64, u64)>),
    /// The lockstep's targeted errors (issue 30): one accepted beat in `one_in` (on average) is
    /// hit by two bits anywhere (beyond a header's correction), one bit, or a burst of 2 to 16
    /// adjacent bits, a third of the time each, whatever the beat carries (header, payload,
    /// footer, credit, MAGIC, START). Besides, a header is aimed at: after a beat equal to START
    /// ([`BitErrorInjector::commit_beat`] sees the beats), one packet in
    /// [`HEADER_ONE_IN`] has a half of its header hit, by two bits (uncorrectable) half the
    /// time, else by one bit (corrected) or a burst. In a storm ([`BitErrorInjector::storm`],
    /// set by the test bench) one header in [`STORM_HEADER_ONE_IN`] is hit, and every
    /// uncorrectable one is followed by knock-outs: the beat after each of the next one to
    /// three MAGICs (a START, a credit beat or an escaped word) has one bit hit, so that while
    /// the receiver discards to the next MAGIC START it misses whole packets (its discards for
    /// resynchronisation, otherwise the rarest of its events).
    Targeted { one_in: u64, seed: u64 },
}

impl ErrorPlan {
    /// The errors of lane `lane` of a run configured by `cfg`: random at `link.phy.ber`, seeded
    /// from `sim.seed` and the lane (each lane its own sequence), or none at a rate of 0. Every
    /// run with links takes its errors from here, so the configuration's rate is never left out.
    pub fn of_lane(cfg: &crate::config::Config, lane: u64) -> ErrorPlan {
        ErrorPlan::at_rate(cfg.link.phy.ber, cfg.sim.seed, lane)
    }

    /// Random errors at `ber` on lane `lane` of a run seeded `seed` (none at 0): the one
    /// formula every multi-lane test bed seeds its lanes with.
    pub fn at_rate(ber: f64, seed: u64, lane: u64) -> ErrorPlan {
        if ber > 0.0 {
            ErrorPlan::Random {
                ber,
                seed: seed.wrapping_mul(0x9E37_79B9).wrapping_add(lane),
            }
        } else {
            ErrorPlan::None
        }
    }
}

/// Targeted errors: one packet in this many has its header hit ([`ErrorPlan::Targeted`]).
pub const HEADER_ONE_IN: u64 = 8;

/// Targeted errors in a storm: one packet in this many has its header hit.
pub const STORM_HEADER_ONE_IN: u64 = 2;

#[derive(Debug, Clone)]
pub struct BitErrorInjector {
    plan: ErrorPlan,
    rng: Option<Mt64>,
    /// Error-free bits still to go before the next random error (relative to the next beat).
    gap: u64,
    /// Mask applied to the next accepted beat (the block's output register).
    next_mask: u64,
    /// Accepted beats so far.
    beats: u64,
    plan_pos: usize,
    /// Statistics: beats hit and bits flipped so far.
    pub beats_hit: u64,
    pub bits_flipped: u64,
    /// Targeted errors: the next accepted beat is a header half (1: the low, 2: the high),
    /// as far as the beats seen tell (a beat equal to START went by).
    header_half: u8,
    /// The draw that decides a header's hit, made at its low half.
    header_plan: u64,
    /// Targeted errors: a storm (set by the test bench, between two cycles): headers hit more
    /// often, and knock-outs after the uncorrectable ones ([`ErrorPlan::Targeted`]).
    pub storm: bool,
    /// Targeted errors: the beats after MAGIC still to hit after an uncorrectable header.
    knock_outs: u8,
    /// Targeted errors: the last accepted beat was MAGIC.
    after_magic: bool,
}

impl BitErrorInjector {
    pub fn new(plan: ErrorPlan) -> BitErrorInjector {
        let mut inj = BitErrorInjector {
            rng: None,
            gap: u64::MAX,
            next_mask: 0,
            beats: 0,
            plan_pos: 0,
            beats_hit: 0,
            bits_flipped: 0,
            plan: ErrorPlan::None,
            header_half: 0,
            header_plan: 0,
            storm: false,
            knock_outs: 0,
            after_magic: false,
        };
        match plan {
            ErrorPlan::Random { ber, seed } if ber > 0.0 => {
                let mut rng = Mt64::new(seed);
                inj.gap = draw_gap(&mut rng, ber);
                inj.rng = Some(rng);
            }
            ErrorPlan::Targeted { seed, .. } => inj.rng = Some(Mt64::new(seed)),
            _ => {}
        }
        inj.plan = plan;
        inj.next_mask = inj.make_mask();
        inj
    }

    /// The mask for this cycle (applied if the lane accepts a beat).
    pub fn mask(&self) -> u64 {
        self.next_mask
    }

    pub fn beats(&self) -> u64 {
        self.beats
    }

    /// Called once per cycle with whether the lane accepted a beat in this cycle.
    pub fn commit(&mut self, accepted: bool) {
        self.commit_beat(accepted, None);
    }

    /// [`BitErrorInjector::commit`], with the beat the lane takes in this cycle (the TCL's
    /// output register), for the targeted errors that aim at headers.
    pub fn commit_beat(&mut self, accepted: bool, beat: Option<u64>) {
        if !accepted {
            return;
        }
        self.header_half = match (beat, self.header_half) {
            (Some(b), _) if b == crate::packet::wire::START => 1,
            (_, 1) => 2,
            _ => 0,
        };
        self.after_magic = beat == Some(crate::packet::wire::MAGIC);
        if self.next_mask != 0 {
            self.beats_hit += 1;
            self.bits_flipped += self.next_mask.count_ones() as u64;
        }
        self.beats += 1;
        self.next_mask = self.make_mask();
    }

    /// Mask of beat number `self.beats` (the next one to be accepted).
    fn make_mask(&mut self) -> u64 {
        match &self.plan {
            ErrorPlan::None => 0,
            ErrorPlan::Beats(list) => {
                let mut m = 0;
                while self.plan_pos < list.len() && list[self.plan_pos].0 <= self.beats {
                    if list[self.plan_pos].0 == self.beats {
                        m ^= list[self.plan_pos].1;
                    }
                    self.plan_pos += 1;
                }
                m
            }
            ErrorPlan::Targeted { one_in, .. } => {
                let one_in = (*one_in).max(1);
                let Some(rng) = self.rng.as_mut() else {
                    return 0;
                };
                let r = rng.next_u64();
                if self.header_half != 0 {
                    // a header half: one packet in HEADER_ONE_IN (the draw at its low half
                    // decides for both halves: which one, and how)
                    if self.header_half == 1 {
                        self.header_plan = r;
                    }
                    let p = self.header_plan;
                    let one_in = if self.storm {
                        STORM_HEADER_ONE_IN
                    } else {
                        HEADER_ONE_IN
                    };
                    if !(p >> 8).is_multiple_of(one_in)
                        || u64::from(self.header_half) != 1 + (p >> 4 & 1)
                    {
                        return 0;
                    }
                    let a = (p >> 16) % 64;
                    let b = (a + 1 + (p >> 24) % 63) % 64;
                    return match (p >> 32) % 4 {
                        0 | 1 => {
                            if self.storm {
                                self.knock_outs = 1 + ((p >> 48) % 3) as u8;
                            }
                            (1 << a) | (1 << b)
                        }
                        2 => 1 << a,
                        _ => ((1u64 << (2 + (p >> 40) % 15)) - 1).rotate_left(a as u32),
                    };
                }
                if self.after_magic && self.knock_outs > 0 {
                    self.knock_outs -= 1;
                    return 1 << (r % 64);
                }
                if !r.is_multiple_of(one_in) {
                    return 0;
                }
                let x = rng.next_u64();
                let at = |k: u32| 1u64 << ((x >> k) % 64);
                match (x >> 32) % 3 {
                    0 => {
                        // two distinct bits
                        let a = (x % 64) as u32;
                        let b = (a + 1 + ((x >> 8) % 63) as u32) % 64;
                        (1 << a) | (1 << b)
                    }
                    1 => at(0),
                    _ => {
                        let len = 2 + (x >> 16) % 15;
                        let burst = (1u64 << len) - 1;
                        burst.rotate_left((x % 64) as u32)
                    }
                }
            }
            ErrorPlan::Random { ber, .. } => {
                let ber = *ber;
                let Some(rng) = self.rng.as_mut() else {
                    return 0;
                };
                let mut m = 0u64;
                while self.gap < 64 {
                    m |= 1 << self.gap;
                    self.gap = self
                        .gap
                        .saturating_add(1)
                        .saturating_add(draw_gap(rng, ber));
                }
                self.gap -= 64;
                m
            }
        }
    }
}

/// Number of error-free bits before the next error: geometric with success probability `ber`.
fn draw_gap(rng: &mut Mt64, ber: f64) -> u64 {
    if ber >= 1.0 {
        return 0;
    }
    // u in (0, 1]
    let u = ((rng.next_u64() >> 11) as f64 + 1.0) / (1u64 << 53) as f64;
    crate::geometric::failures(u, ber, u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_too_small_for_1_minus_ber_flips_nothing() {
        // 1 - 1e-300 == 1.0: the gap was ln(u) / 0 = -inf, cast to 0, a flip on every bit
        for ber in [1e-300, 1e-17, f64::MIN_POSITIVE] {
            let mut inj = BitErrorInjector::new(ErrorPlan::Random { ber, seed: 1 });
            for _ in 0..10_000 {
                assert_eq!(inj.mask(), 0, "ber {ber:e}");
                inj.commit(true);
            }
        }
    }

    #[test]
    fn random_rate_is_close_to_ber_and_seeded() {
        let run = |seed| {
            let mut inj = BitErrorInjector::new(ErrorPlan::Random { ber: 1e-3, seed });
            let mut masks = Vec::new();
            for _ in 0..100_000 {
                masks.push(inj.mask());
                inj.commit(true);
            }
            (inj.bits_flipped, masks)
        };
        let (bits, m1) = run(7);
        let (_, m2) = run(7);
        let (_, m3) = run(8);
        assert_eq!(m1, m2, "same seed, same errors");
        assert_ne!(m1, m3, "another seed, other errors");
        let expected = 1e-3 * 64.0 * 100_000.0;
        assert!(
            (bits as f64 - expected).abs() < 5.0 * expected.sqrt(),
            "{bits} vs {expected}"
        );
    }

    #[test]
    fn targeted_errors_hit_one_beat_in_n_with_one_two_or_a_burst_of_bits() {
        let mut inj = BitErrorInjector::new(ErrorPlan::Targeted {
            one_in: 16,
            seed: 3,
        });
        let mut widths = [0u64; 65];
        let n = 160_000;
        for _ in 0..n {
            widths[inj.mask().count_ones() as usize] += 1;
            inj.commit(true);
        }
        let hit = n - widths[0];
        assert!((hit as f64 - 10_000.0).abs() < 500.0, "{hit} beats hit");
        assert!(widths[1] > hit / 4 && widths[2] > hit / 4, "{widths:?}");
        assert!(widths[3..=16].iter().sum::<u64>() > hit / 5, "{widths:?}");
        assert_eq!(widths[17..].iter().sum::<u64>(), 0, "{widths:?}");
    }

    /// Issue 30: in a storm, after an uncorrectable header (two bits in one half), the beat
    /// after each of the next one to three MAGICs is hit; never without such a header, never
    /// outside a storm.
    #[test]
    fn uncorrectable_headers_in_a_storm_are_followed_by_knock_outs_after_magic() {
        let calm = storm_run(false);
        let storm = storm_run(true);
        assert_eq!(calm.1, 0, "no knock-out outside a storm");
        assert!(calm.0 > 100, "{} uncorrectable headers", calm.0);
        assert!(storm.0 > 3 * calm.0, "{storm:?} against {calm:?}");
        let (uncorrectable, knocked, runs) = storm;
        assert!(knocked > uncorrectable, "{knocked} knock-outs");
        assert!(runs.iter().all(|&n| n <= 3), "{runs:?}");
        assert!(runs.contains(&3) && runs.contains(&1), "{runs:?}");
    }

    /// Packets through a targeted injector, storm or not: uncorrectable headers, knock-outs,
    /// and the knock-outs after each uncorrectable header.
    fn storm_run(storm: bool) -> (u64, u64, Vec<u64>) {
        use crate::packet::wire::{MAGIC, START};
        let mut inj = BitErrorInjector::new(ErrorPlan::Targeted {
            one_in: u64::MAX,
            seed: 5,
        });
        inj.storm = storm;
        // packets of MAGIC, START, two header halves, four payload words, a footer's two halves
        let packet = [MAGIC, START, 1, 2, 3, 4, 5, 6, 7, 8];
        let (mut uncorrectable, mut knocked, mut since_bad) = (0u64, 0u64, None::<u64>);
        let mut runs = Vec::new();
        for _ in 0..4000 {
            let mut header_bits = 0;
            for (i, &beat) in packet.iter().enumerate() {
                let m = inj.mask();
                if i == 1 && m != 0 {
                    knocked += 1;
                    *since_bad
                        .as_mut()
                        .expect("a knock-out follows a bad header") += 1;
                } else if i == 2 || i == 3 {
                    header_bits = header_bits.max(m.count_ones());
                } else {
                    assert_eq!(m, 0, "only headers and the beats after MAGIC are hit");
                }
                inj.commit_beat(true, Some(beat));
            }
            if header_bits == 2 {
                uncorrectable += 1;
                if let Some(n) = since_bad.replace(0) {
                    runs.push(n);
                }
            }
        }
        (uncorrectable, knocked, runs)
    }

    #[test]
    fn planned_masks_hit_their_beats_only() {
        let mut inj = BitErrorInjector::new(ErrorPlan::Beats(vec![(2, 0x10), (5, 0x3)]));
        let mut got = Vec::new();
        for k in 0..8 {
            // idle cycles in between do not advance the beat count
            inj.commit(false);
            got.push((k, inj.mask()));
            inj.commit(true);
        }
        assert_eq!(got[2].1, 0x10);
        assert_eq!(got[5].1, 0x3);
        assert_eq!(got.iter().filter(|(_, m)| *m != 0).count(), 2);
        assert_eq!(inj.bits_flipped, 3);
    }
}
