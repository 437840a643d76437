//! The geometric draw behind every random gap: bit errors on a lane (`link/errors.rs`) and
//! Bernoulli packet injection (`net/traffic/bernoulli.rs`).
//!
//! Failures before the first success of independent trials with success probability `p`,
//! by inversion of a uniform `u` in (0, 1]: `floor(ln u / ln(1 - p))`. The denominator is
//! computed as `ln_1p(-p)`, exact for small `p`: `(1 - p).ln()` is 0 for `p` below about
//! 1.1e-16 (`1 - p` rounds to 1), which made the gap 0 and a rate of 1e-17 act as a rate of 1
//! (every bit flipped, every cycle a packet).

/// Failures before the first success, for a uniform `u` in (0, 1] and probability `p`;
/// saturates at `cap` (a gap that long means "never" to the caller). `p >= 1`: 0; `p <= 0`
/// (or NaN): `cap`.
pub fn failures(u: f64, p: f64, cap: u64) -> u64 {
    if p >= 1.0 {
        return 0;
    }
    if p.is_nan() || p <= 0.0 {
        return cap;
    }
    let g = (u.ln() / (-p).ln_1p()).floor();
    if g.is_nan() || g >= cap as f64 {
        cap
    } else {
        g.max(0.0) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_probabilities_give_long_gaps_not_zero() {
        for p in [1e-300, 1e-17, 1e-16, 1e-12] {
            // the median gap is ln 2 / p
            let g = failures(0.5, p, u64::MAX);
            let want = (std::f64::consts::LN_2 / p).min(u64::MAX as f64);
            assert!(g > 0, "p = {p}: gap 0");
            assert!(
                (g as f64 - want).abs() <= want * 1e-9 + 1.0,
                "p = {p}: {g} against {want}"
            );
            // the old form gave 0 here
        }
        assert_eq!(failures(0.5, 1e-300, 1000), 1000);
    }

    #[test]
    fn the_mean_is_one_over_p_minus_one() {
        // the inverse CDF integrated over a fine grid of u
        for p in [0.5, 0.1, 1e-3] {
            let n = 200_000;
            let mean = (0..n)
                .map(|i| failures((i as f64 + 0.5) / n as f64, p, u64::MAX) as f64)
                .sum::<f64>()
                / n as f64;
            let want = (1.0 - p) / p;
            assert!(
                (mean - want).abs() < want * 0.01 + 0.01,
                "p = {p}: {mean} vs {want}"
            );
        }
    }

    #[test]
    fn edges() {
        assert_eq!(failures(0.3, 1.0, 9), 0);
        assert_eq!(failures(0.3, 0.0, 9), 9);
        assert_eq!(failures(0.3, f64::NAN, 9), 9);
        assert_eq!(failures(1.0, 0.5, 9), 0);
    }
}
