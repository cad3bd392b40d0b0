//! Means with standard errors and Monte Carlo against exact agreement, on the
//! `dice` ruleset.

use volley_analysis::stats::{agreement, mean_with_standard_error};
use volley_kernel::catalogue;
use volley_kernel::outcome::Distribution;
use volley_kernel::runner::RunOptions;

fn dice(scenario: &str, keys: &[(&str, &str)], samples: u64, seed: u64) -> (Distribution, Distribution) {
    let ruleset = catalogue::ruleset("dice").unwrap();
    let rules = (ruleset.default_rules)();
    let built = ruleset.scenario(scenario).unwrap().build_from_text(rules.as_ref(), keys.iter().copied()).unwrap();
    (built.simulate(&RunOptions::new(samples, seed)).unwrap(), built.exact_distribution().unwrap())
}

#[test]
fn the_mean_of_two_dice_is_seven_within_its_standard_error() {
    let samples = 200_000;
    let (monte_carlo, exact) = dice("sum", &[("dice", "2d6")], samples, 3);
    assert_eq!(mean_with_standard_error(&exact, "total"), (7.0, 0.0));
    let (mean, standard_error) = mean_with_standard_error(&monte_carlo, "total");
    // The variance of 2d6 is 35/6.
    let expected_error = (35.0 / 6.0 / samples as f64).sqrt();
    assert!((standard_error / expected_error - 1.0).abs() < 0.02, "{standard_error} vs {expected_error}");
    assert!((mean - 7.0).abs() < 4.5 * standard_error, "{mean} ± {standard_error}");
}

#[test]
fn agreement_accepts_the_same_dice_and_rejects_other_dice() {
    let (monte_carlo, exact) = dice("sum", &[("dice", "2d6")], 100_000, 11);
    let same = agreement(&monte_carlo, &exact);
    assert_eq!(same.dof, 10);
    assert!(same.p_value > 1e-6 && same.max_z < 4.5, "{same:?}");

    // Three dice hitting on 3+ against the exact answer for 4+: the same
    // metric, the wrong odds.
    let (three_up, _) = dice("at_least", &[("dice", "3d6"), ("target", "3")], 100_000, 11);
    let (_, four_up) = dice("at_least", &[("dice", "3d6"), ("target", "4")], 10, 11);
    let different = agreement(&three_up, &four_up);
    assert_eq!(different.dof, 3);
    assert!(different.p_value < 1e-12 && different.max_z > 20.0, "{different:?}");
}

#[test]
fn an_outcome_the_exact_solver_rules_out_is_total_disagreement() {
    let (two_dice, _) = dice("sum", &[("dice", "2d6")], 1_000, 5);
    let (_, other) = dice("sum", &[("dice", "2d6")], 10, 5);
    let mut impossible = other.clone();
    // Drop the double six from the exact answer: Monte Carlo has seen it.
    impossible.joint.retain(|j| j.values[0] != 12);
    let verdict = agreement(&two_dice, &impossible);
    assert_eq!(verdict.p_value, 0.0);
    assert!(verdict.chi_square.is_infinite());
}
