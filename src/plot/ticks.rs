//! Axis ranges, "nice" tick values and their labels.
//!
//! - Linear axes step by 1, 2 or 5 times a power of ten. A step is kept as an integer
//!   mantissa and a decimal exponent, and tick `i` is computed as `(i * mantissa)` scaled by the
//!   power of ten in one rounding, so ticks are the doubles nearest their decimal values
//!   (`0.6`, not `3 * 0.2 = 0.6000000000000001`) and a range derived from the data ends
//!   exactly on a tick.
//! - Log axes put ticks on integer powers of their base. When there are more powers than fit,
//!   every k-th one is kept, always the multiples of k in the exponent, so the choice does not
//!   depend on where the range starts. A log range that holds fewer than two powers falls back
//!   to linear ticks inside it (a Log10 axis over 2..8 is labelled 2, 4, 6, 8).
//! - A range derived from the data is widened to the ticks around it: linear to the multiples of
//!   the step below and above, log to the powers of the base below and above. A single value is
//!   padded (10 % either side, or +-1 around 0; one power either side on a log axis).
//!
//! Labels are short: integers when integral, otherwise up to 3 significant digits, with as
//! many decimals as the step needs so two ticks never share a label; `1e6` style from a
//! million up and below 0.001; never `-0`. On a Log2 axis an integral multiple of 1024 takes a
//! binary suffix (1024 is `1K`, 4096 `4K`, 2^20 `1M`): Log2 axes are mostly byte sizes.

use super::error::RangeProblem;
use super::Scale;

/// A tick: where it sits (in data units) and what it says.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Tick {
    pub value: f64,
    pub label: String,
}

/// One axis, ready to draw: its final range and ticks.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AxisLayout {
    pub scale: Scale,
    pub min: f64,
    pub max: f64,
    pub ticks: Vec<Tick>,
}

impl AxisLayout {
    /// Where `v` falls along the axis, in the scale's space: 0 at `min`, 1 at `max`. `v` must
    /// be finite (and positive on a log axis); the result is finite or +-infinity (a value
    /// far outside a given range can overflow), never NaN, because `layout_axis` checked that
    /// the transformed span is finite and above zero.
    pub fn fraction(&self, v: f64) -> f64 {
        let lo = self.scale.apply(self.min);
        let hi = self.scale.apply(self.max);
        (self.scale.apply(v) - lo) / (hi - lo)
    }
}

/// The tick budget for `length_px` pixels of axis, one tick per `px_per_tick`, 3 to 12.
pub(crate) fn max_ticks(length_px: f64, px_per_tick: f64) -> usize {
    let n = (length_px / px_per_tick).floor();
    if n.is_finite() && n >= 3.0 {
        (n as usize).min(12)
    } else {
        3
    }
}

/// The axis range and ticks: `fixed` if given (already validated), otherwise `data` widened to
/// nice ticks. `data` is the (min, max) of the values on this axis, finite (positive on a log
/// axis). Errors carry the offending range.
pub(crate) fn layout_axis(
    scale: Scale,
    fixed: Option<(f64, f64)>,
    data: (f64, f64),
    max_ticks: usize,
) -> Result<AxisLayout, (RangeProblem, f64, f64)> {
    // Three ticks always fit a range that straddles zero (-step, 0, +step).
    let max_ticks = max_ticks.max(3);
    let (min, max, ticks) = match (fixed, scale) {
        (Some((lo, hi)), _) => {
            check_span(scale, lo, hi).map_err(|p| (p, lo, hi))?;
            (lo, hi, ticks_within(scale, lo, hi, max_ticks))
        }
        (None, Scale::Linear) => {
            let (lo, hi, step) = linear_auto(data.0, data.1, max_ticks)?;
            (lo, hi, linear_ticks(lo, hi, step))
        }
        (None, Scale::Log2 | Scale::Log10) => {
            let (lo, hi) = log_auto(scale, data.0, data.1)?;
            (lo, hi, ticks_within(scale, lo, hi, max_ticks))
        }
    };
    let mut layout = AxisLayout {
        scale,
        min,
        max,
        ticks,
    };
    // At the ends of f64 a power of the base can round to 0 or overflow; such a tick has no
    // place on the axis, so it is dropped rather than drawn at an infinite coordinate.
    let fits = |t: &Tick| layout.fraction(t.value).is_finite();
    let kept: Vec<Tick> = layout.ticks.iter().filter(|t| fits(t)).cloned().collect();
    layout.ticks = kept;
    Ok(layout)
}

/// A range can be drawn only if its transformed span is a finite number above zero.
fn check_span(scale: Scale, lo: f64, hi: f64) -> Result<(), RangeProblem> {
    let span = scale.apply(hi) - scale.apply(lo);
    if span.is_finite() && span > 0.0 {
        Ok(())
    } else {
        Err(RangeProblem::OutOfScale)
    }
}

/// 10^e as the double nearest it: `powi` is exact up to 1e22; beyond that, and for every
/// negative exponent (1e-323 is subnormal, and `1 / 10^323` would be 1 / inf = 0), the decimal
/// text `1e<e>` parsed, which rounds once, correctly. Overflow parses to infinity.
pub(crate) fn pow10(e: i32) -> f64 {
    if (0..=22).contains(&e) {
        10f64.powi(e)
    } else {
        format!("1e{e}").parse().unwrap_or(f64::NAN)
    }
}

/// A linear tick step `mant * 10^exp`, `mant` in {1, 2, 5}.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Step {
    mant: i64,
    exp: i32,
}

impl Step {
    /// The smallest 1-2-5 step that cuts `span` into at most `intervals` pieces (give or take
    /// rounding: a step within 1e-9 of the exact quotient counts).
    pub fn for_span(span: f64, intervals: usize) -> Step {
        let raw = span / intervals.max(1) as f64;
        // A span that underflows gives log10 = -inf; the clamp keeps the exponent arithmetic
        // in range (pow10 of +-400 is inf or 0), and the step that results is not `usable`.
        let mut exp = (raw.log10().floor() as i32).clamp(-400, 400);
        // log10 can land one ulp off at a power of ten; put raw in [10^exp, 10^(exp+1)).
        if pow10(exp) > raw {
            exp -= 1;
        } else if pow10(exp + 1) <= raw {
            exp += 1;
        }
        let norm = raw / pow10(exp);
        let tol = 1e-9;
        if norm <= 1.0 + tol {
            Step { mant: 1, exp }
        } else if norm <= 2.0 + tol {
            Step { mant: 2, exp }
        } else if norm <= 5.0 + tol {
            Step { mant: 5, exp }
        } else {
            Step {
                mant: 1,
                exp: exp + 1,
            }
        }
    }

    fn next(self) -> Step {
        match self.mant {
            1 => Step { mant: 2, ..self },
            2 => Step { mant: 5, ..self },
            _ => Step {
                mant: 1,
                exp: self.exp + 1,
            },
        }
    }

    fn value(self) -> f64 {
        self.times(1)
    }

    /// `i` steps, in one rounding from the exact decimal value.
    fn times(self, i: i64) -> f64 {
        let n = i.saturating_mul(self.mant) as f64;
        if self.exp >= 0 {
            n * pow10(self.exp)
        } else {
            n / pow10(-self.exp)
        }
    }

    /// Decimals a label needs to tell two neighbouring ticks apart.
    fn decimals(self) -> usize {
        (-self.exp).max(0) as usize
    }

    /// A step that is 0, infinite or subnormal cannot place ticks.
    fn usable(self) -> bool {
        self.value().is_normal()
    }
}

/// Tick indices `i` with `i * step` in `[lo, hi]` (with a 1e-9 step tolerance), at most 1000.
fn tick_indices(lo: f64, hi: f64, step: Step) -> Option<(i64, i64)> {
    let s = step.value();
    let i0 = (lo / s - 1e-9).ceil();
    let i1 = (hi / s + 1e-9).floor();
    let ok = i0.is_finite() && i1.is_finite() && i1 >= i0 && i1 - i0 <= 1000.0;
    ok.then_some((i0 as i64, i1 as i64))
}

fn linear_ticks(lo: f64, hi: f64, step: Step) -> Vec<Tick> {
    let Some((i0, i1)) = tick_indices(lo, hi, step) else {
        return Vec::new();
    };
    (i0..=i1)
        .map(|i| {
            let value = step.times(i);
            Tick {
                value,
                label: format_label(value, Some(step)),
            }
        })
        .collect()
}

/// Linear ticks inside a fixed range: the finest 1-2-5 step giving at most `max_ticks` ticks.
fn linear_ticks_within(lo: f64, hi: f64, max_ticks: usize) -> Vec<Tick> {
    let mut step = Step::for_span(hi - lo, (max_ticks - 1).min(5));
    for _ in 0..8 {
        if !step.usable() {
            return Vec::new();
        }
        match tick_indices(lo, hi, step) {
            Some((i0, i1)) if ((i1 - i0 + 1) as usize) <= max_ticks => {
                return linear_ticks(lo, hi, step)
            }
            _ => step = step.next(),
        }
    }
    Vec::new()
}

/// The data range widened to multiples of a 1-2-5 step, and that step.
fn linear_auto(
    min: f64,
    max: f64,
    max_ticks: usize,
) -> Result<(f64, f64, Step), (RangeProblem, f64, f64)> {
    let (lo, hi) = if min == max {
        let pad = if min == 0.0 { 1.0 } else { min.abs() * 0.1 };
        (min - pad, max + pad)
    } else {
        (min, max)
    };
    let bad = |p| (p, lo, hi);
    if !(hi - lo).is_finite() {
        return Err(bad(RangeProblem::OutOfScale));
    }
    let mut step = Step::for_span(hi - lo, (max_ticks - 1).min(5));
    let mut found = None;
    // Widening adds up to two intervals; take a coarser step while the ticks do not fit. A
    // budget of 3 always fits eventually (at worst -step, 0, +step), so after 8 tries the
    // last candidate is used as it is.
    for _ in 0..8 {
        if !step.usable() {
            break;
        }
        let s = step.value();
        let i0 = (lo / s + 1e-9).floor();
        let i1 = (hi / s - 1e-9).ceil();
        if !(i0.is_finite() && i1.is_finite()) || i1 - i0 > 1000.0 {
            break;
        }
        // The tolerance may round an end a hair inside the data; the data wins.
        let nlo = step.times(i0 as i64).min(lo);
        let nhi = step.times(i1 as i64).max(hi);
        found = Some((nlo, nhi, step));
        if (i1 - i0 + 1.0) as usize <= max_ticks {
            break;
        }
        step = step.next();
    }
    let (nlo, nhi, step) = found.ok_or(bad(RangeProblem::OutOfScale))?;
    check_span(Scale::Linear, nlo, nhi).map_err(bad)?;
    Ok((nlo, nhi, step))
}

fn pow_base(scale: Scale, e: i64) -> f64 {
    let e = e.clamp(-2000, 2000) as i32;
    match scale {
        Scale::Log2 => 2f64.powi(e),
        _ => pow10(e),
    }
}

/// The data range widened to the powers of the base around it.
fn log_auto(scale: Scale, min: f64, max: f64) -> Result<(f64, f64), (RangeProblem, f64, f64)> {
    let mut e0 = (scale.apply(min) + 1e-9).floor() as i64;
    let mut e1 = (scale.apply(max) - 1e-9).ceil() as i64;
    if e0 >= e1 {
        e0 -= 1;
        e1 = e0 + 2;
    }
    let (lo, hi) = (pow_base(scale, e0).min(min), pow_base(scale, e1).max(max));
    let finite_positive = lo > 0.0 && hi.is_finite();
    if !finite_positive {
        return Err((RangeProblem::OutOfScale, lo, hi));
    }
    check_span(scale, lo, hi).map_err(|p| (p, lo, hi))?;
    Ok((lo, hi))
}

/// Ticks inside a range already known to be drawable.
fn ticks_within(scale: Scale, lo: f64, hi: f64, max_ticks: usize) -> Vec<Tick> {
    if scale == Scale::Linear {
        return linear_ticks_within(lo, hi, max_ticks);
    }
    let e0 = (scale.apply(lo) - 1e-9).ceil() as i64;
    let e1 = (scale.apply(hi) + 1e-9).floor() as i64;
    let powers = e1 - e0 + 1;
    if powers < 2 {
        return linear_ticks_within(lo, hi, max_ticks);
    }
    let mut stride = 1i64;
    let count = |k: i64| e1.div_euclid(k) - (e0 + k - 1).div_euclid(k) + 1;
    while count(stride) > max_ticks as i64 {
        stride += 1;
    }
    (e0..=e1)
        .filter(|e| e.rem_euclid(stride) == 0)
        .map(|e| {
            let value = pow_base(scale, e);
            Tick {
                value,
                label: format_power(scale, value),
            }
        })
        .collect()
}

/// Label of a power of the base: Log2 takes binary suffixes, Log10 the general format.
fn format_power(scale: Scale, v: f64) -> String {
    if scale == Scale::Log2 && (1024.0..9.2e18).contains(&v) && v.fract() == 0.0 {
        let mut n = v as u64;
        let mut unit = 0;
        const UNITS: [&str; 7] = ["", "K", "M", "G", "T", "P", "E"];
        while n.is_multiple_of(1024) && unit + 1 < UNITS.len() {
            n /= 1024;
            unit += 1;
        }
        return format!("{n}{}", UNITS[unit]);
    }
    format_label(v, None)
}

/// A compact label for `v`: see the module header. `step`, when given, adds the decimals that
/// step needs.
pub(crate) fn format_label(v: f64, step: Option<Step>) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    if v == 0.0 {
        return "0".to_string();
    }
    let a = v.abs();
    let mag = a.log10().floor() as i64;
    if !(1e-3..1e6).contains(&a) {
        // Significant digits: 3, or as many as the step needs below the leading digit.
        let sig = step.map_or(3, |s| (mag - i64::from(s.exp) + 1).clamp(3, 17)) as usize;
        let s = format!("{:.*e}", sig - 1, v);
        return match s.split_once('e') {
            Some((m, e)) => format!("{}e{e}", trim_zeros(m)),
            None => s,
        };
    }
    if v.fract() == 0.0 {
        return format!("{}", v as i64);
    }
    let sig_decimals = (2 - mag).max(0) as usize;
    let decimals = sig_decimals.max(step.map_or(0, Step::decimals)).min(17);
    let s = trim_zeros(&format!("{v:.decimals$}")).to_string();
    // A tiny negative value rounded to nothing must not read "-0".
    if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// Compact label with up to 3 significant digits, as tick labels are written.
pub fn format_tick(v: f64) -> String {
    format_label(v, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(l: &AxisLayout) -> Vec<f64> {
        l.ticks.iter().map(|t| t.value).collect()
    }
    fn labels(l: &AxisLayout) -> Vec<&str> {
        l.ticks.iter().map(|t| t.label.as_str()).collect()
    }

    #[test]
    fn linear_from_data_pads_to_a_nice_step() {
        let l = layout_axis(Scale::Linear, None, (0.0, 0.93), 8).unwrap();
        assert_eq!((l.min, l.max), (0.0, 1.0));
        assert_eq!(values(&l), [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(labels(&l), ["0", "0.2", "0.4", "0.6", "0.8", "1"]);

        let l = layout_axis(Scale::Linear, None, (1.23, 3.41), 8).unwrap();
        assert_eq!((l.min, l.max), (1.0, 3.5));
        assert_eq!(labels(&l), ["1", "1.5", "2", "2.5", "3", "3.5"]);

        let l = layout_axis(Scale::Linear, None, (-0.25, 0.25), 8).unwrap();
        assert_eq!(
            labels(&l),
            ["-0.3", "-0.2", "-0.1", "0", "0.1", "0.2", "0.3"]
        );
    }

    #[test]
    fn linear_ends_exactly_on_data_that_sits_on_a_tick() {
        let l = layout_axis(Scale::Linear, None, (0.6, 1.4), 8).unwrap();
        assert_eq!(l.min, 0.6);
        assert_eq!(l.max, 1.4);
        assert_eq!(l.ticks.first().unwrap().value, 0.6);
    }

    #[test]
    fn linear_single_value_is_padded() {
        let l = layout_axis(Scale::Linear, None, (0.0, 0.0), 8).unwrap();
        assert!(l.min < 0.0 && l.max > 0.0);
        let l = layout_axis(Scale::Linear, None, (5.0, 5.0), 8).unwrap();
        assert!(l.min <= 4.5 && l.max >= 5.5 && l.max < 6.0, "{l:?}");
    }

    #[test]
    fn linear_respects_the_tick_budget() {
        for n in 3..=12 {
            for &(a, b) in &[(0.0, 0.93), (0.0, 1.0), (-7.0, 1234.0), (1e-7, 3e-7)] {
                let l = layout_axis(Scale::Linear, None, (a, b), n).unwrap();
                assert!(
                    l.ticks.len() <= n && l.ticks.len() >= 2,
                    "{a}..{b} n={n}: {l:?}"
                );
                assert!(l.min <= a && l.max >= b);
            }
        }
    }

    #[test]
    fn fixed_linear_range_is_kept_and_ticked_inside() {
        let l = layout_axis(Scale::Linear, Some((0.05, 0.95)), (0.0, 0.0), 8).unwrap();
        assert_eq!((l.min, l.max), (0.05, 0.95));
        assert_eq!(labels(&l), ["0.2", "0.4", "0.6", "0.8"]);
        let l = layout_axis(Scale::Linear, Some((1000.0, 1001.0)), (0.0, 0.0), 3).unwrap();
        assert_eq!(labels(&l), ["1000", "1000.5", "1001"]);
    }

    #[test]
    fn log2_bytes_get_powers_of_two_and_binary_suffixes() {
        let l = layout_axis(Scale::Log2, None, (16.0, 4096.0), 10).unwrap();
        assert_eq!((l.min, l.max), (16.0, 4096.0));
        assert_eq!(
            values(&l),
            [16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0, 4096.0]
        );
        assert_eq!(
            labels(&l),
            ["16", "32", "64", "128", "256", "512", "1K", "2K", "4K"]
        );
        // A narrower budget keeps every other power (even exponents).
        let l = layout_axis(Scale::Log2, None, (16.0, 4096.0), 8).unwrap();
        assert_eq!(labels(&l), ["16", "64", "256", "1K", "4K"]);
        // Data between powers widens to the powers around it.
        let l = layout_axis(Scale::Log2, None, (20.0, 3000.0), 10).unwrap();
        assert_eq!((l.min, l.max), (16.0, 4096.0));
        let l = layout_axis(Scale::Log2, None, (0.25, 2.0), 10).unwrap();
        assert_eq!(labels(&l), ["0.25", "0.5", "1", "2"]);
    }

    #[test]
    fn log10_gets_decades() {
        let l = layout_axis(Scale::Log10, None, (3.0, 2500.0), 10).unwrap();
        assert_eq!((l.min, l.max), (1.0, 10000.0));
        assert_eq!(labels(&l), ["1", "10", "100", "1000", "10000"]);
        let l = layout_axis(Scale::Log10, None, (1e-5, 1e7), 13).unwrap();
        assert_eq!(l.ticks.len(), 13);
        assert_eq!(labels(&l).first(), Some(&"1e-5"));
        assert_eq!(labels(&l).last(), Some(&"1e7"));
        // 13 decades into at most 6 ticks: every second exponent; into 5, every third.
        let l = layout_axis(Scale::Log10, None, (1e-5, 1e7), 6).unwrap();
        assert_eq!(labels(&l), ["1e-4", "0.01", "1", "100", "10000", "1e6"]);
        let l = layout_axis(Scale::Log10, None, (1e-5, 1e7), 5).unwrap();
        assert_eq!(labels(&l), ["0.001", "1", "1000", "1e6"]);
        // A single value: one decade either side.
        let l = layout_axis(Scale::Log10, None, (100.0, 100.0), 10).unwrap();
        assert_eq!(labels(&l), ["10", "100", "1000"]);
    }

    #[test]
    fn log_range_inside_one_power_falls_back_to_linear_ticks() {
        let l = layout_axis(Scale::Log10, Some((2.0, 8.0)), (2.0, 8.0), 8).unwrap();
        assert_eq!(labels(&l), ["2", "4", "6", "8"]);
    }

    #[test]
    fn labels_are_compact() {
        let f = format_tick;
        assert_eq!(f(0.0), "0");
        assert_eq!(f(-0.0), "0");
        assert_eq!(f(42.0), "42");
        assert_eq!(f(-3.0), "-3");
        assert_eq!(f(999999.0), "999999");
        assert_eq!(f(1e6), "1e6");
        assert_eq!(f(2.5e6), "2.5e6");
        assert_eq!(f(0.1), "0.1");
        assert_eq!(f(0.30000000000000004), "0.3");
        assert_eq!(f(4.56789), "4.57");
        assert_eq!(f(123.456), "123");
        assert_eq!(f(0.0625), "0.0625");
        assert_eq!(f(0.001), "0.001");
        assert_eq!(f(0.00012), "1.2e-4");
        assert_eq!(f(-0.0004), "-4e-4");
        // A step finer than 3 digits gets its decimals; a tiny negative never reads -0.
        let fine = Step { mant: 5, exp: -1 };
        assert_eq!(format_label(1000.5, Some(fine)), "1000.5");
        assert_eq!(format_label(-1e-12, Some(fine)), "-1e-12");
        assert_eq!(
            format_label(-0.0001, Some(Step { mant: 1, exp: 0 })),
            "-1e-4"
        );
        assert_eq!(format_label(-0.004, None), "-0.004");
        assert_eq!(
            format_label(-0.0004, Some(Step { mant: 1, exp: -2 })),
            "-4e-4"
        );
        assert_eq!(format_power(Scale::Log2, 1024.0), "1K");
        assert_eq!(format_power(Scale::Log2, 3.0 * 1024.0), "3K");
        assert_eq!(format_power(Scale::Log2, 1536.0), "1536");
        assert_eq!(format_power(Scale::Log2, 1048576.0), "1M");
        assert_eq!(format_power(Scale::Log2, 2f64.powi(30)), "1G");
        assert_eq!(format_power(Scale::Log10, 1000.0), "1000");
    }

    #[test]
    fn no_minus_zero_label_from_a_rounded_value() {
        // 3 significant decimals would print -0.000 if the value were formatted naively.
        let s = format_label(-0.0000001, Some(Step { mant: 1, exp: 0 }));
        assert!(!s.starts_with("-0") || s.contains('e'), "{s}");
        for t in layout_axis(Scale::Linear, None, (-1.0, 1.0), 12)
            .unwrap()
            .ticks
        {
            assert_ne!(t.label, "-0");
        }
    }

    #[test]
    fn out_of_scale_ranges_are_errors() {
        let e = layout_axis(Scale::Linear, None, (-1e308, 1e308), 8).unwrap_err();
        assert_eq!(e.0, RangeProblem::OutOfScale);
        let e = layout_axis(Scale::Log10, None, (1.0, 1.5e308), 8).unwrap_err();
        assert_eq!(e.0, RangeProblem::OutOfScale);
        let e = layout_axis(
            Scale::Linear,
            Some((1.0, 1.0 + f64::EPSILON)),
            (0.0, 0.0),
            8,
        );
        assert!(e.is_ok(), "two ulps apart is still a range");
        let big = 1e300_f64;
        let next = f64::from_bits(big.to_bits() + 1);
        let e = layout_axis(Scale::Log10, Some((big, next)), (big, big), 8).unwrap_err();
        assert_eq!(e.0, RangeProblem::OutOfScale);
    }

    #[test]
    fn fraction_maps_the_range_to_unit_interval() {
        let l = layout_axis(Scale::Log2, None, (16.0, 4096.0), 10).unwrap();
        assert_eq!(l.fraction(16.0), 0.0);
        assert_eq!(l.fraction(4096.0), 1.0);
        assert_eq!(l.fraction(256.0), 0.5);
        let l = layout_axis(Scale::Linear, Some((0.0, 10.0)), (0.0, 0.0), 8).unwrap();
        assert_eq!(l.fraction(2.5), 0.25);
    }
}
