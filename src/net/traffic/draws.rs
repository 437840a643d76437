//! Random draws shared by the patterns, injectors and packet sizes: every one takes the
//! endpoint's Mersenne Twister (`rand_mt::Mt64`, Pisani 2016 §3.4.5 uses the same generator),
//! so a seed fixes the whole sequence.

use rand_mt::Mt64;

/// A uniform integer in `0..n` (0 when `n` is 0, without a draw). Unbiased: a plain
/// `next_u64() % n` would favour small values when `n` does not divide 2^64, so draws in the
/// incomplete last block of `n` values are rejected (at most one draw in two when `n` > 2^63;
/// for endpoint counts the rejection almost never happens).
pub(crate) fn below(rng: &mut Mt64, n: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    // 2^64 mod n: the size of the incomplete block at the top of the u64 range.
    let rem = (u64::MAX % n + 1) % n;
    loop {
        let x = rng.next_u64();
        if x <= u64::MAX - rem {
            return x % n;
        }
    }
}

/// A uniform float in [0, 1) with 53 random bits (BookSim's `RandomFloat`).
pub(crate) fn unit(rng: &mut Mt64) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Mt64::new(1);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let x = below(&mut rng, 7);
            assert!(x < 7);
            seen[x as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(below(&mut rng, 0), 0);
        assert_eq!(below(&mut rng, 1), 0);
        // The largest n: still in range (about half the draws are rejected).
        for _ in 0..100 {
            assert!(below(&mut rng, u64::MAX) < u64::MAX);
        }
    }

    #[test]
    fn unit_is_in_half_open_interval() {
        let mut rng = Mt64::new(2);
        for _ in 0..10_000 {
            let u = unit(&mut rng);
            assert!((0.0..1.0).contains(&u));
        }
    }
}
