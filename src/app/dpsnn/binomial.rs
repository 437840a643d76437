//! The binomial draw behind the spike-trace generator (`generate.rs`): how many of a column's
//! neurons fire in an iteration, and how many of those reach a given process.
//!
//! Inversion (Kachitvichyanukul and Schmeiser's BINV, "Binomial random variate generation",
//! Commun. ACM 31(2), 1988): walk the probability mass function from 0 with the recurrence
//! `P(x) = P(x - 1) * ((n + 1) p / x - p) / q`, subtracting each term from one uniform draw
//! until it is used up. One uniform a draw and `n * min(p, q)` steps on average, which is what
//! the generator's draws need (tens of fired neurons, mostly small probabilities). For
//! `p > 1/2` the draw is `n` minus a draw with `p` and `q` swapped, so the walk stays short.
//! The caller gives `q = 1 - p` as well as `p`: a probability within 1e-16 of 1 (a neuron's
//! chance of reaching its own process) has its complement computed exactly there, not as
//! `1 - p`, which would round it to 0. `P(0) = q^n` underflows for large `n`
//! (`n ln q < -708`), so `n` is cut into chunks that do not underflow and their draws summed
//! (a sum of binomials with the same `p` is binomial).

use rand_mt::Mt64;

/// `n ln q` above this keeps `q^n` well inside the normal doubles.
const MIN_LOG_P0: f64 = -600.0;

/// A uniform double in [0, 1), 53 random bits.
pub fn unit(rng: &mut Mt64) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Successes in `n` independent trials of probability `p`; `q` is `1 - p`, computed by the
/// caller as accurately as it can. `p <= 0` (or NaN) gives 0, `q <= 0` gives `n`.
pub fn binomial(rng: &mut Mt64, n: u64, p: f64, q: f64) -> u64 {
    if n == 0 || p.is_nan() || p <= 0.0 {
        return 0;
    }
    if q.is_nan() || q <= 0.0 {
        return n;
    }
    if p > q {
        return n - binomial(rng, n, q, p);
    }
    // p <= 1/2: ln q from p, exact for tiny p
    let ln_q = (-p).ln_1p();
    let chunk = ((MIN_LOG_P0 / ln_q).floor() as u64).clamp(1, n);
    let mut left = n;
    let mut total = 0;
    while left > 0 {
        let m = chunk.min(left);
        total += inversion(rng, m, p, q, ln_q);
        left -= m;
    }
    total
}

/// BINV for `n` trials, `q^n` representable.
fn inversion(rng: &mut Mt64, n: u64, p: f64, q: f64, ln_q: f64) -> u64 {
    let s = p / q;
    let a = (n as f64 + 1.0) * s;
    let mut r = (n as f64 * ln_q).exp();
    let mut u = unit(rng);
    let mut x = 0;
    while u >= r {
        u -= r;
        x += 1;
        if x >= n {
            // rounding left a sliver of u past the last term: the last value
            return n;
        }
        r *= a / x as f64 - s;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mean and variance of `draws` draws against `n p` and `n p q`, within 6 standard
    /// errors.
    fn moments(seed: u64, n: u64, p: f64, draws: usize) {
        let mut rng = Mt64::new(seed);
        let q = 1.0 - p;
        let xs: Vec<f64> = (0..draws)
            .map(|_| binomial(&mut rng, n, p, q) as f64)
            .collect();
        assert!(xs.iter().all(|&x| x <= n as f64), "seed {seed}: above n");
        let mean = xs.iter().sum::<f64>() / draws as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (draws - 1) as f64;
        let (want_mean, want_var) = (n as f64 * p, n as f64 * p * q);
        let se_mean = (want_var / draws as f64).sqrt();
        assert!(
            (mean - want_mean).abs() <= 6.0 * se_mean + 1e-12,
            "seed {seed}, n {n}, p {p}: mean {mean} against {want_mean}"
        );
        // the variance of a sample variance is about 2 var^2 / draws for these shapes
        let se_var = want_var * (2.0 / draws as f64).sqrt() * 1.5;
        assert!(
            (var - want_var).abs() <= 6.0 * se_var + 1e-12,
            "seed {seed}, n {n}, p {p}: variance {var} against {want_var}"
        );
    }

    #[test]
    fn mean_and_variance_are_n_p_and_n_p_q() {
        // draws: a walk costs n min(p, q) steps, so fewer for the large n
        for (i, (n, p, draws)) in [
            (1240, 0.0075, 20_000),
            (43, 0.02, 20_000),
            (43, 0.5, 20_000),
            (43, 0.93, 20_000),
            (1, 0.3, 20_000),
            (5000, 0.2, 2_000),
            (100_000, 0.5, 200),
        ]
        .into_iter()
        .enumerate()
        {
            moments(11 + i as u64, n, p, draws);
        }
    }

    #[test]
    fn small_n_follows_the_mass_function() {
        // n = 4, p = 0.3: frequencies against the exact probabilities, 6 standard errors
        let (n, p, draws) = (4u64, 0.3, 200_000);
        let mut rng = Mt64::new(5);
        let mut freq = [0usize; 5];
        for _ in 0..draws {
            freq[binomial(&mut rng, n, p, 1.0 - p) as usize] += 1;
        }
        let choose = [1.0, 4.0, 6.0, 4.0, 1.0];
        for (k, &f) in freq.iter().enumerate() {
            let pk = choose[k] * p.powi(k as i32) * (1.0 - p).powi(4 - k as i32);
            let se = (pk * (1.0 - pk) / draws as f64).sqrt();
            let got = f as f64 / draws as f64;
            assert!((got - pk).abs() < 6.0 * se, "k {k}: {got} against {pk}");
        }
    }

    #[test]
    fn edges_and_an_exact_complement() {
        let mut rng = Mt64::new(1);
        assert_eq!(binomial(&mut rng, 0, 0.5, 0.5), 0);
        assert_eq!(binomial(&mut rng, 10, 0.0, 1.0), 0);
        assert_eq!(binomial(&mut rng, 10, f64::NAN, f64::NAN), 0);
        assert_eq!(binomial(&mut rng, 10, 1.0, 0.0), 10);
        // p rounds to 1, q = 1e-300 given exactly: all but (almost never) one
        assert_eq!(binomial(&mut rng, 1000, 1.0, 1e-300), 1000);
        // a chunked draw (q^n underflows in one piece) still centres on n p
        let x = binomial(&mut rng, 10_000_000, 0.5, 0.5);
        assert!((x as f64 - 5e6).abs() < 6.0 * 1581.2, "{x}");
    }

    #[test]
    fn the_same_seed_gives_the_same_draws() {
        let draw = |seed| {
            let mut rng = Mt64::new(seed);
            (0..100)
                .map(|_| binomial(&mut rng, 50, 0.1, 0.9))
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3), draw(4));
    }
}
