//! Mean and 95 % confidence interval of a figure repeated over seeds (`exanet network sweep
//! --seeds`): the runs of one sweep point with different `sim.seed` are independent samples,
//! so the interval is the Student t one, `mean ± t(0.975, n - 1) s / sqrt(n)` with `s` the
//! sample standard deviation (n - 1 in the denominator).
//!
//! The t quantile: a table for 1 to 30 degrees of freedom (computed to 10 digits from the
//! regularised incomplete beta function) and beyond it the Cornish-Fisher expansion of the t
//! quantile in powers of 1/ν around the normal quantile (Abramowitz and Stegun 26.7.5), whose
//! error from 30 degrees of freedom on is below 1e-7.

use serde::Serialize;

/// t(0.975, ν) for ν = 1..=30.
const T975: [f64; 30] = [
    12.70620474,
    4.30265273,
    3.182446305,
    2.776445105,
    2.570581836,
    2.446911851,
    2.364624252,
    2.306004135,
    2.262157163,
    2.228138852,
    2.20098516,
    2.17881283,
    2.160368656,
    2.144786688,
    2.131449546,
    2.119905299,
    2.109815578,
    2.10092204,
    2.093024054,
    2.085963447,
    2.079613845,
    2.073873068,
    2.06865761,
    2.063898562,
    2.059538553,
    2.055529439,
    2.051830516,
    2.048407142,
    2.045229642,
    2.042272456,
];

/// The standard normal quantile at 0.975.
pub const Z975: f64 = 1.959_963_984_540_054;

/// The 0.975 quantile of Student's t distribution with `dof` degrees of freedom (at least 1):
/// the factor of a two-sided 95 % interval.
pub fn t975(dof: u32) -> f64 {
    match dof {
        0 => f64::INFINITY,
        1..=30 => T975[dof as usize - 1],
        _ => {
            let (z, v) = (Z975, f64::from(dof));
            let (z2, z3) = (z * z, z * z * z);
            let (z5, z7, z9) = (z3 * z2, z3 * z2 * z2, z3 * z3 * z3);
            let g1 = (z3 + z) / 4.0;
            let g2 = (5.0 * z5 + 16.0 * z3 + 3.0 * z) / 96.0;
            let g3 = (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / 384.0;
            let g4 = (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / 92160.0;
            z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v)
        }
    }
}

/// A figure over the runs of a point.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MeanCi {
    pub mean: f64,
    /// Sample standard deviation (n - 1); `None` for a single run.
    pub std: Option<f64>,
    /// Half-width of the 95 % confidence interval of the mean: the interval is
    /// `mean ± ci95`; `None` for a single run.
    pub ci95: Option<f64>,
}

impl MeanCi {
    /// The mean and interval of `xs` (not empty).
    pub fn of(xs: &[f64]) -> MeanCi {
        let n = xs.len();
        let mean = xs.iter().sum::<f64>() / n.max(1) as f64;
        if n < 2 {
            return MeanCi {
                mean,
                std: None,
                ci95: None,
            };
        }
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let std = var.sqrt();
        MeanCi {
            mean,
            std: Some(std),
            ci95: Some(t975(n as u32 - 1) * std / (n as f64).sqrt()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_match_the_published_values() {
        // Student's table (and R's qt(0.975, df)) to the digits it prints
        for (dof, want) in [
            (1, 12.706),
            (2, 4.303),
            (4, 2.776),
            (9, 2.262),
            (10, 2.228),
            (29, 2.045),
            (30, 2.042),
            (40, 2.021),
            (60, 2.000),
            (120, 1.980),
        ] {
            assert!((t975(dof) - want).abs() < 5e-4, "{dof}: {}", t975(dof));
        }
        // exact values (mpmath, 30 digits) past the table: the expansion's error
        for (dof, want) in [
            (31, 2.039_513_446_4),
            (45, 2.014_103_389),
            (40, 2.021_075_390),
            (60, 2.000_297_822),
            (120, 1.979_930_405),
            (1000, 1.962_339_081),
        ] {
            assert!((t975(dof) - want).abs() < 1e-7, "{dof}: {}", t975(dof));
        }
        // the table and the expansion join without a step
        assert!((t975(31) - T975[29]).abs() < 3e-3);
        // decreasing towards the normal quantile
        for d in 1..500 {
            assert!(t975(d + 1) < t975(d), "{d}");
            assert!(t975(d) > Z975);
        }
        assert!((t975(1_000_000) - Z975).abs() < 1e-5);
    }

    #[test]
    fn mean_and_interval_by_hand() {
        // 1, 2, 3, 4: mean 2.5, s^2 = 5/3, half-width t(0.975, 3) s / 2
        let m = MeanCi::of(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(m.mean, 2.5);
        let s = (5.0f64 / 3.0).sqrt();
        assert!((m.std.unwrap() - s).abs() < 1e-12);
        assert!((m.ci95.unwrap() - 3.182446305 * s / 2.0).abs() < 1e-12);
        // one run: no spread to speak of
        let one = MeanCi::of(&[7.0]);
        assert_eq!((one.mean, one.std, one.ci95), (7.0, None, None));
        // identical runs: a zero interval
        assert_eq!(MeanCi::of(&[3.0, 3.0, 3.0]).ci95, Some(0.0));
    }
}
