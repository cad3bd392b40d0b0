//! Statistics of Monte Carlo estimates: confidence intervals and their z-values.
//!
//! Tolerances and confidence levels live here, in one place.

use statrs::distribution::{ContinuousCDF, Normal};

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
}
