//! Statistical checks of Monte Carlo against exact answers, for tests: the
//! tolerances live here, in one place.
//!
//! These functions return a [`Disagreement`] rather than panicking, so a test
//! can print what differs; they never touch a file or a terminal.

use crate::outcome::Distribution;
use crate::runner::RunOptions;
use crate::scenario::DynScenario;
use std::fmt;

/// Monte Carlo and exact agree when every probability is within this many
/// standard errors (the issues' bar: 4.5).
pub const Z_TOLERANCE: f64 = 4.5;

/// Below this many expected occurrences a count is judged by its Poisson tail.
pub const POISSON_BELOW: f64 = 20.0;

/// The two-sided normal tail beyond [`Z_TOLERANCE`] (4.5 standard errors).
pub const TAIL_AT_TOLERANCE: f64 = 6.795e-6;

/// Twice the smaller Poisson tail of `observed` when `mean` is expected:
/// P(X >= observed) above the mean, P(X <= observed) below it.
pub fn poisson_two_sided_tail(mean: f64, observed: u64) -> f64 {
    let log_pmf = |k: u64| k as f64 * mean.ln() - mean - ln_gamma(k as f64 + 1.0);
    let below: f64 = (0..=observed).map(|k| log_pmf(k).exp()).sum();
    let above = 1.0 - below + log_pmf(observed).exp();
    let tail = if observed as f64 >= mean { above } else { below };
    (2.0 * tail).min(1.0)
}

/// Exact probabilities this close to 0 or 1 are rounding of a certainty.
pub const CERTAIN: f64 = 1e-12;

/// The significance level of the dice's chi-square tests.
pub const CHI_SQUARE_ALPHA: f64 = 1e-6;

/// A probability that Monte Carlo and the exact solver disagree on.
#[derive(Clone, Debug, PartialEq)]
pub struct Disagreement {
    /// The metric.
    pub metric: &'static str,
    /// The value, as printed.
    pub value: String,
    /// The exact probability.
    pub exact: f64,
    /// The Monte Carlo estimate.
    pub estimate: f64,
    /// How many standard errors apart.
    pub z: f64,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} = {}: exact {:.6}, Monte Carlo {:.6} ({:.1} standard errors)",
            self.metric, self.value, self.exact, self.estimate, self.z
        )
    }
}

/// The largest z-score over every metric's every value between a Monte Carlo
/// distribution and an exact one, and the values beyond [`Z_TOLERANCE`].
/// A value the exact solver gives probability 0 but Monte Carlo saw is always
/// a disagreement.
pub fn compare(estimate: &Distribution, exact: &Distribution) -> (f64, Vec<Disagreement>) {
    let samples = estimate.samples().expect("the first distribution is Monte Carlo") as f64;
    let mut worst: f64 = 0.0;
    let mut bad = Vec::new();
    for (index, metric) in exact.metrics.iter().enumerate() {
        let exact_rows = exact.marginal(index);
        let estimate_rows = estimate.marginal(index);
        let mut values: Vec<i64> = exact_rows.iter().chain(&estimate_rows).map(|r| r.value).collect();
        values.sort_unstable();
        values.dedup();
        for value in values {
            let p = exact_rows.iter().find(|r| r.value == value).map_or(0.0, |r| r.probability);
            let q = estimate_rows.iter().find(|r| r.value == value).map_or(0.0, |r| r.probability);
            // An exact probability within rounding of 0 or 1 is a certainty:
            // Monte Carlo must then match it exactly, or the solver is wrong.
            let z = if p <= CERTAIN || p >= 1.0 - CERTAIN {
                if (p - q).abs() > CERTAIN { f64::INFINITY } else { 0.0 }
            } else if p * samples < POISSON_BELOW {
                // Few expected occurrences: the normal approximation calls a
                // single sighting of a one-in-ten-million event five standard
                // errors, so judge the count by its exact Poisson tail at the
                // same level instead, and report a z only when it fails.
                let observed = (q * samples).round() as u64;
                if poisson_two_sided_tail(p * samples, observed) < TAIL_AT_TOLERANCE {
                    f64::INFINITY
                } else {
                    ((q - p).abs() / (p * (1.0 - p) / samples).sqrt()).min(Z_TOLERANCE)
                }
            } else {
                (q - p).abs() / (p * (1.0 - p) / samples).sqrt()
            };
            worst = worst.max(z);
            if z > Z_TOLERANCE {
                bad.push(Disagreement {
                    metric: metric.name,
                    value: metric.domain.format(value),
                    exact: p,
                    estimate: q,
                    z,
                });
            }
        }
    }
    (worst, bad)
}

/// Runs `samples` Monte Carlo samples of a scenario with an exact solver and
/// compares them; `Err` lists what disagrees.
pub fn agrees_with_exact(scenario: &dyn DynScenario, samples: u64, seed: u64) -> Result<f64, Vec<Disagreement>> {
    let exact = scenario.exact_distribution().expect("the scenario has an exact solver");
    let total: f64 = exact.joint.iter().map(|j| j.probability).sum();
    assert!((total - 1.0).abs() < 1e-9, "exact probabilities sum to {total}, not 1");
    let estimate = scenario.simulate(&RunOptions::new(samples, seed)).expect("not cancelled");
    let (worst, bad) = compare(&estimate, &exact);
    if bad.is_empty() { Ok(worst) } else { Err(bad) }
}

/// Panics with a readable list unless Monte Carlo agrees with the exact solver.
#[track_caller]
pub fn assert_agrees(scenario: &dyn DynScenario, samples: u64, seed: u64) {
    if let Err(bad) = agrees_with_exact(scenario, samples, seed) {
        let lines: Vec<String> = bad.iter().map(ToString::to_string).collect();
        panic!("Monte Carlo disagrees with the exact solver:\n{}", lines.join("\n"));
    }
}

/// Pearson's chi-square statistic of observed counts against expected
/// probabilities, and its degrees of freedom (categories less one).
pub fn chi_square(observed: &[u64], expected: &[f64]) -> (f64, usize) {
    assert_eq!(observed.len(), expected.len());
    let n: u64 = observed.iter().sum();
    let statistic = observed
        .iter()
        .zip(expected)
        .map(|(&o, &p)| {
            let e = p * n as f64;
            (o as f64 - e).powi(2) / e
        })
        .sum();
    (statistic, observed.len() - 1)
}

/// The chance that a chi-square variable with `dof` degrees of freedom reaches
/// `statistic`: Q(dof/2, statistic/2), the regularised upper incomplete gamma.
pub fn chi_square_p_value(statistic: f64, dof: usize) -> f64 {
    upper_regularized_gamma(dof as f64 / 2.0, statistic / 2.0)
}

/// Q(a, x) by the series for small x and Lentz's continued fraction otherwise
/// (Numerical Recipes, 6.2), accurate to about 1e-14.
fn upper_regularized_gamma(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let log_prefactor = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        let mut term = 1.0 / a;
        let mut sum = term;
        let mut n = a;
        for _ in 0..10_000 {
            n += 1.0;
            term *= x / n;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        1.0 - sum * log_prefactor.exp()
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        log_prefactor.exp() * h
    }
}

/// ln Gamma(x) for x > 0 (Lanczos, g = 7, nine coefficients).
fn ln_gamma(x: f64) -> f64 {
    const COEFFICIENTS: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let series: f64 =
        COEFFICIENTS[0] + COEFFICIENTS[1..].iter().enumerate().map(|(i, c)| c / (x + i as f64 + 1.0)).sum::<f64>();
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + series.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chi_square_p_values_match_tables() {
        // Published upper-tail critical values: chi2(0.05; 1) = 3.841459,
        // chi2(0.01; 5) = 15.086272, chi2(1e-6; 5) = 35.888, chi2(0.05; 100) = 124.342.
        assert!((chi_square_p_value(3.841_459, 1) - 0.05).abs() < 1e-6);
        assert!((chi_square_p_value(15.086_272, 5) - 0.01).abs() < 1e-6);
        assert!((chi_square_p_value(35.888, 5) / 1e-6 - 1.0).abs() < 1e-3);
        assert!((chi_square_p_value(124.342, 100) - 0.05).abs() < 1e-5);
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-13);
    }

    #[test]
    fn rare_events_are_judged_by_their_poisson_tail() {
        // Mean 0.04, seen once: P(X >= 1) = 1 - e^-0.04 = 0.0392; twice that.
        assert!((poisson_two_sided_tail(0.04, 1) - 2.0 * (1.0 - (-0.04f64).exp())).abs() < 1e-12);
        // Mean 2, seen 14 times: far beyond chance.
        assert!(poisson_two_sided_tail(2.0, 14) < TAIL_AT_TOLERANCE);
        use crate::outcome::{Distribution, Metric};
        let metrics = vec![Metric::integer("turns", "turns", 0, 2)];
        let decode = |code: u64, values: &mut [i64]| values[0] = code as i64;
        let exact = Distribution::from_exact(metrics.clone(), [(0, 0.6), (1, 0.4 - 4e-8), (2, 4e-8)], decode);
        let mut tally = crate::outcome::Tally::new(3);
        (0..600_000).for_each(|_| tally.record(0));
        (0..399_999).for_each(|_| tally.record(1));
        tally.record(2);
        let estimate = Distribution::from_tally(metrics.clone(), &tally, decode);
        let (worst, bad) = compare(&estimate, &exact);
        assert!(bad.is_empty(), "one sighting of a 4e-8 event is chance: {bad:?}");
        assert!(worst <= Z_TOLERANCE);
        (0..13).for_each(|_| tally.record(2));
        let estimate = Distribution::from_tally(metrics, &tally, decode);
        assert_eq!(compare(&estimate, &exact).1.len(), 1, "fourteen sightings are not");
    }
}
