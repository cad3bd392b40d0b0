//! Statistics of Monte Carlo estimates: confidence intervals and their z-values.
//!
//! Tolerances and confidence levels live here, in one place.

use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};
use std::collections::HashMap;
use volley_kernel::outcome::Distribution;

/// The confidence level used unless a caller asks otherwise.
pub const DEFAULT_CONFIDENCE: f64 = 0.95;

/// The two-sided standard normal quantile for a confidence level
/// (1.959964 for 95%).
pub fn z_for_confidence(confidence: f64) -> f64 {
    assert!(confidence > 0.0 && confidence < 1.0, "confidence must be strictly between 0 and 1");
    let normal = Normal::standard();
    normal.inverse_cdf(0.5 + confidence / 2.0)
}

/// The Wilson score interval for `successes` out of `trials` at confidence
/// level `confidence`. With no trials the interval is the whole of [0, 1].
pub fn wilson(successes: u64, trials: u64, confidence: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let z = z_for_confidence(confidence);
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The mean of a numeric metric and its standard error.
///
/// The standard error is the sample standard deviation over the square root of
/// the number of samples; an exact distribution has none (0). Panics if the
/// distribution has no metric of that name, as [`Distribution::mean`] does:
/// callers check names against the scenario's metrics first.
pub fn mean_with_standard_error(dist: &Distribution, metric: &str) -> (f64, f64) {
    let index = dist.metric_index(metric).unwrap_or_else(|| panic!("no metric {metric}"));
    let mean: f64 = dist.joint.iter().map(|o| o.values[index] as f64 * o.probability).sum();
    let Some(samples) = dist.samples() else {
        return (mean, 0.0);
    };
    if samples < 2 {
        return (mean, f64::INFINITY);
    }
    let second_moment: f64 = dist.joint.iter().map(|o| (o.values[index] as f64 - mean).powi(2) * o.probability).sum();
    // The counts give the population variance of the sample; Bessel's correction
    // makes it the unbiased estimate of the scenario's variance.
    let n = samples as f64;
    let variance = second_moment * n / (n - 1.0);
    (mean, (variance / n).sqrt())
}

/// How well a Monte Carlo distribution agrees with the exact one of the same
/// scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agreement {
    /// Pearson's chi-square statistic over the joint outcomes (cells expected
    /// to hold fewer than [`MIN_EXPECTED_COUNT`] samples pooled into one).
    pub chi_square: f64,
    /// Its degrees of freedom: cells less one.
    pub dof: usize,
    /// The chance of a statistic at least this large if the two agree.
    pub p_value: f64,
    /// The largest z-score of any metric's any value (marginal probabilities).
    pub max_z: f64,
}

/// Cells of a chi-square test expected to hold fewer samples than this are
/// pooled, since the chi-square approximation fails for nearly empty cells.
pub const MIN_EXPECTED_COUNT: f64 = 5.0;

/// Chi-square goodness of fit of Monte Carlo counts against exact
/// probabilities over the joint outcomes, and the largest z-score over every
/// metric's marginal values.
///
/// An outcome Monte Carlo saw but the exact solver gives no weight is an
/// outright contradiction: the statistic is infinite and the p-value 0.
/// Panics unless `monte_carlo` is Monte Carlo and the two share metrics.
pub fn agreement(monte_carlo: &Distribution, exact: &Distribution) -> Agreement {
    let samples = monte_carlo.samples().expect("the first distribution is Monte Carlo");
    assert_eq!(monte_carlo.metrics, exact.metrics, "the distributions report different metrics");
    let (max_z, _) = volley_kernel::check::compare(monte_carlo, exact);
    let n = samples as f64;

    // Both distributions list joint outcomes in code order, but codes are not
    // kept; match outcomes by their values instead.
    let mut cells: Vec<(f64, u64)> = exact.joint.iter().map(|j| (j.probability * n, 0)).collect();
    let index: HashMap<&[i64], usize> = exact.joint.iter().enumerate().map(|(i, j)| (j.values.as_slice(), i)).collect();
    let mut impossible = 0u64;
    for outcome in &monte_carlo.joint {
        match index.get(outcome.values.as_slice()).copied() {
            Some(i) => cells[i].1 += outcome.count,
            None => impossible += outcome.count,
        }
    }
    if impossible > 0 {
        return Agreement { chi_square: f64::INFINITY, dof: cells.len().saturating_sub(1), p_value: 0.0, max_z };
    }
    let mut pooled: Vec<(f64, u64)> = Vec::with_capacity(cells.len());
    let mut small = (0.0, 0u64);
    for (expected, observed) in cells {
        if expected < MIN_EXPECTED_COUNT {
            small.0 += expected;
            small.1 += observed;
        } else {
            pooled.push((expected, observed));
        }
    }
    if small.0 > 0.0 {
        pooled.push(small);
    }
    let chi_square: f64 = pooled.iter().map(|&(e, o)| (o as f64 - e).powi(2) / e).sum();
    let dof = pooled.len().saturating_sub(1);
    let p_value = if dof == 0 { 1.0 } else { ChiSquared::new(dof as f64).map_or(f64::NAN, |d| d.sf(chi_square)) };
    Agreement { chi_square, dof, p_value, max_z }
}

/// The half-width of the Wilson interval for a true probability `p` after `n`
/// samples, taking the observed proportion to be `p` itself.
pub fn wilson_half_width(p: f64, n: u64, confidence: f64) -> f64 {
    if n == 0 {
        return 0.5;
    }
    let z = z_for_confidence(confidence);
    let n = n as f64;
    z * (n * p * (1.0 - p) + z * z / 4.0).sqrt() / (n + z * z)
}

/// The fewest samples whose Wilson interval around a probability near `p` is
/// no wider than `half_width` either side, at `confidence`.
///
/// Wilson rather than the normal approximation, so `p` near 0 or 1 still asks
/// for enough samples to see the rare outcome. Panics unless `p` is in [0, 1]
/// and `half_width` in (0, 0.5].
pub fn samples_for_half_width(p: f64, half_width: f64, confidence: f64) -> u64 {
    assert!((0.0..=1.0).contains(&p), "p must be a probability");
    assert!(half_width > 0.0 && half_width <= 0.5, "half_width must be in (0, 0.5]");
    // The half-width falls as n grows, so bisect on n for the first that fits.
    let mut high: u64 = 1;
    while wilson_half_width(p, high, confidence) > half_width {
        high *= 2;
    }
    let mut low = high / 2;
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if wilson_half_width(p, mid, confidence) > half_width {
            low = mid;
        } else {
            high = mid;
        }
    }
    high
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z_of_95_percent() {
        assert!((z_for_confidence(0.95) - 1.959_963_984_540_054).abs() < 1e-9);
    }

    #[test]
    fn wilson_matches_published_values() {
        // Wilson (1927) as tabulated by Newcombe (1998), Table I, 95%:
        // 81/263 -> 0.2553 to 0.3662; 15/148 -> 0.0624 to 0.1605; 0/20 -> 0 to 0.1611.
        let cases = [((81, 263), (0.2553, 0.3662)), ((15, 148), (0.0624, 0.1605)), ((0, 20), (0.0, 0.1611))];
        for ((k, n), (lo, hi)) in cases {
            let (l, h) = wilson(k, n, 0.95);
            assert!((l - lo).abs() < 5e-5 && (h - hi).abs() < 5e-5, "{k}/{n}: {l} {h}");
        }
    }

    #[test]
    fn samples_for_half_width_matches_the_normal_rule_in_the_middle() {
        // The textbook n = z^2 p (1 - p) / h^2 gives 9604 for p = 0.5, h = 0.01; Wilson
        // subtracts about z^2 from that.
        let n = samples_for_half_width(0.5, 0.01, 0.95);
        assert!((9_598..=9_602).contains(&n), "{n}");
        assert!(wilson_half_width(0.5, n, 0.95) <= 0.01);
        assert!(wilson_half_width(0.5, n - 1, 0.95) > 0.01);
        // Near 0 the normal rule asks for no samples at all; Wilson still asks for
        // about z^2 / (2 h).
        let rare = samples_for_half_width(0.0, 0.01, 0.95);
        assert!((186..=196).contains(&rare), "{rare}");
    }
}

/// Significant digits an exact probability or an interval's end is printed
/// with: far beyond any use, and free of the last digits' float noise.
pub const PRINTED_DIGITS: usize = 12;

/// `value` rounded to `digits` significant digits, so that its shortest
/// printed form (what CSV writers and `{}` print) has at most that many.
pub fn round_significant(value: f64, digits: usize) -> f64 {
    if value == 0.0 || !value.is_finite() || digits == 0 {
        return value;
    }
    format!("{value:.*e}", digits - 1).parse().unwrap_or(value)
}
