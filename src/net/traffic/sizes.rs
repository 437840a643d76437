//! Packet payload sizes (Pisani 2016 §3.4.5: "all the packets have a random size ... generated
//! using the Mersenne Twister algorithm between the minimum and maximum values allowed"):
//! fixed, or uniform in `min..=max` bytes. Sizes are payload bytes, 1..=4096 (the APElink
//! maximum payload, `docs/packet.md`); on the wire a payload takes `ceil(size / 16)` words.
//!
//! Draws: none for `Fixed`, one uniform draw a packet for `Uniform` (also when `min == max`,
//! so the sequence does not depend on the bounds).

use super::draws::below;
use super::SizeDist;
use rand_mt::Mt64;

impl SizeDist {
    /// A payload size, bytes.
    pub fn sample(&self, rng: &mut Mt64) -> u32 {
        match *self {
            SizeDist::Fixed(s) => s,
            SizeDist::Uniform { min, max } => {
                min + below(rng, max.saturating_sub(min) as u64 + 1) as u32
            }
        }
    }

    /// The smallest payload size, bytes.
    pub fn min(&self) -> u32 {
        match *self {
            SizeDist::Fixed(s) => s,
            SizeDist::Uniform { min, .. } => min,
        }
    }

    /// The largest payload size, bytes.
    pub fn max(&self) -> u32 {
        match *self {
            SizeDist::Fixed(s) => s,
            SizeDist::Uniform { max, .. } => max,
        }
    }

    /// The mean payload size, bytes.
    pub fn mean(&self) -> f64 {
        match *self {
            SizeDist::Fixed(s) => s as f64,
            SizeDist::Uniform { min, max } => (min as f64 + max as f64) / 2.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_and_uniform() {
        let mut rng = Mt64::new(11);
        assert_eq!(SizeDist::Fixed(64).sample(&mut rng), 64);
        assert_eq!(SizeDist::Fixed(64).mean(), 64.0);
        let u = SizeDist::Uniform { min: 16, max: 256 };
        assert_eq!(u.mean(), 136.0);
        let n = 200_000;
        let mut sum = 0u64;
        let (mut lo, mut hi) = (u32::MAX, 0);
        for _ in 0..n {
            let s = u.sample(&mut rng);
            assert!((16..=256).contains(&s));
            sum += s as u64;
            lo = lo.min(s);
            hi = hi.max(s);
        }
        assert_eq!((lo, hi), (16, 256));
        // Standard deviation of the mean: 69.6 / sqrt(200k) = 0.16.
        assert!((sum as f64 / n as f64 - 136.0).abs() < 0.8);
        assert_eq!(SizeDist::Uniform { min: 7, max: 7 }.sample(&mut rng), 7);
    }

    #[test]
    fn validation() {
        assert!(SizeDist::Fixed(1).validate().is_ok());
        assert!(SizeDist::Fixed(4096).validate().is_ok());
        assert!(SizeDist::Uniform { min: 1, max: 4096 }.validate().is_ok());
        for (d, want) in [
            (SizeDist::Fixed(0), "0 bytes is outside 1..=4096"),
            (SizeDist::Fixed(4097), "4097 bytes"),
            (SizeDist::Uniform { min: 0, max: 8 }, "minimum 0 bytes"),
            (
                SizeDist::Uniform { min: 8, max: 5000 },
                "maximum 5000 bytes",
            ),
            (
                SizeDist::Uniform { min: 9, max: 8 },
                "minimum 9 is above maximum 8",
            ),
        ] {
            let e = d.validate().unwrap_err();
            assert!(e.contains(want), "{d:?}: {e}");
        }
        // An invalid distribution still samples without panicking.
        let mut rng = Mt64::new(0);
        assert_eq!(SizeDist::Uniform { min: 9, max: 8 }.sample(&mut rng), 9);
    }

    #[test]
    fn display() {
        assert_eq!(SizeDist::Fixed(64).to_string(), "64");
        assert_eq!(
            SizeDist::Uniform { min: 16, max: 256 }.to_string(),
            "16:256"
        );
    }
}
