//! Each die's Monte Carlo frequencies pass a chi-square test against its exact
//! Pmf at alpha = 1e-6 on 10^7 draws, and the dice scenarios agree with their
//! exact solvers.

use volley_kernel::catalogue::ruleset;
use volley_kernel::check::{CHI_SQUARE_ALPHA, assert_agrees, chi_square, chi_square_p_value};
use volley_kernel::dice::Dice;
use volley_kernel::pmf::Pmf;

const DRAWS: u64 = 10_000_000;

/// Draws `DRAWS` values of `draw` (with values in min..=max) and tests them
/// against `pmf`.
fn check_frequencies(name: &str, pmf: &Pmf, seed: u64, mut draw: impl FnMut(&mut Dice) -> i64) {
    let mut dice = Dice::seed_from_u64(seed);
    let mut counts = vec![0u64; (pmf.max() - pmf.min() + 1) as usize];
    for _ in 0..DRAWS {
        let value = draw(&mut dice);
        counts[(value - pmf.min()) as usize] += 1;
    }
    let expected: Vec<f64> = pmf.iter().map(|(_, p)| p).collect();
    let (statistic, dof) = chi_square(&counts, &expected);
    let p = chi_square_p_value(statistic, dof);
    assert!(p > CHI_SQUARE_ALPHA, "{name}: chi-square {statistic:.1} on {dof} dof, p = {p:e}");
}

#[test]
fn every_batched_die_is_uniform() {
    for (sides, seed) in [(4u32, 1u64), (6, 2), (8, 3), (10, 4), (12, 5), (20, 6)] {
        check_frequencies(&format!("d{sides}"), &Pmf::die(sides), seed, |d| i64::from(d.die(sides)));
    }
}

#[test]
fn single_word_dice_are_uniform() {
    for (sides, seed) in [(6u32, 7u64), (10, 8), (7, 9), (100, 10)] {
        check_frequencies(&format!("single d{sides}"), &Pmf::die(sides), seed, |d| i64::from(d.roll_single(sides)));
    }
}

#[test]
fn sums_of_dice_follow_their_convolutions() {
    check_frequencies("2d6 pair", &Pmf::dice(2, 6), 11, |d| {
        let (a, b) = d.two_d6();
        i64::from(a + b)
    });
    check_frequencies("2d6 sum", &Pmf::dice(2, 6), 12, |d| i64::from(d.sum(2, 6)));
    check_frequencies("3d20", &Pmf::dice(3, 20), 13, |d| i64::from(d.sum(3, 20)));
    check_frequencies("2d10", &Pmf::dice(2, 10), 14, |d| i64::from(d.sum(2, 10)));
}

#[test]
fn the_pair_index_covers_all_36_pairs_evenly() {
    check_frequencies("2d6 index", &Pmf::from_weights((0..36).map(|i| (i, 1.0))), 15, |d| i64::from(d.two_d6_index()));
}

#[test]
fn dice_scenarios_agree_with_their_exact_solvers() {
    let dice = ruleset("dice").unwrap();
    let rules = (dice.default_rules)();
    for (scenario, pairs) in [
        ("sum", vec![("dice", "3d20")]),
        ("sum", vec![("dice", "2d6")]),
        ("at_least", vec![("dice", "4d6"), ("target", "5")]),
    ] {
        let built = dice.scenario(scenario).unwrap().build_from_text(rules.as_ref(), pairs).unwrap();
        assert_agrees(built.as_ref(), 2_000_000, 99);
    }
}

#[test]
fn three_d20_exact_matches_the_hand_count() {
    let dice = ruleset("dice").unwrap();
    let rules = (dice.default_rules)();
    let sum = dice.scenario("sum").unwrap().build_from_text(rules.as_ref(), [("dice", "3d20")]).unwrap();
    let exact = sum.exact_distribution().unwrap();
    let at_least_31: f64 = (31..=60).map(|t| exact.probability("total", t)).sum();
    assert!((at_least_31 - 4300.0 / 8000.0).abs() < 1e-12);
}
