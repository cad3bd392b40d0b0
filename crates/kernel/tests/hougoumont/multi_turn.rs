//! firefight (Markov exact solver): hand-worked small cases, Monte Carlo
//! against the chain, and directions of effect (the assaults are in `assault`).

use super::{build, build_with, close, exact};
use volley_kernel::check::assert_agrees;
use volley_kernel::outcome::Distribution;
use volley_kernel::rulesets::hougoumont::Rules;
use volley_kernel::runner::RunOptions;
use volley_kernel::scenario::DynScenario;

fn simulate(scenario: &dyn DynScenario, samples: u64, seed: u64) -> Distribution {
    scenario.simulate(&RunOptions::new(samples, seed)).unwrap()
}

#[test]
fn firefight_one_figure_each_trades_shots_at_twenty_inches() {
    // At 20 inches each figure hits on a 20 (1/20). No losses bring no test, so
    // each turn the attacker alone hits with 19/400, the defender alone 19/400,
    // both (destroyed together, none) 1/400, neither 361/400. Over 3 turns:
    // P(attacker) = 19/400 * (1 + 361/400 + (361/400)^2).
    let fight =
        build("firefight", &[("attacker.figures", "1"), ("defender.figures", "1"), ("distance", "20"), ("turns", "3")]);
    let dist = exact(fight.as_ref());
    let carry = 361.0 / 400.0;
    let attacker = 19.0 / 400.0 * (1.0 + carry + carry * carry);
    close(dist.probability("winner", 0), attacker);
    close(dist.probability("winner", 1), attacker);
    close(dist.probability("turns", 3), carry * carry);
    // The attacker keeps its figure when it wins or no one hits for 3 turns:
    // 19/39 (1 - c^3) + c^3 = 1 - 20/39 (1 - c^3), with c = 361/400.
    close(dist.probability("attacker_remaining", 100), 1.0 - (1.0 - carry.powi(3)) * (20.0 / 39.0));
    assert_agrees(fight.as_ref(), 1_000_000, 41);
}

#[test]
fn firefight_a_quarter_lost_tests_and_a_failure_past_the_edge_leaves() {
    // Attacker 1 figure, defender 4, 20 inches, edge 0 (one retreat leaves),
    // one turn. The defender's 4 shots destroy the attacker with 1 - (19/20)^4;
    // otherwise an attacker hit (1/20) costs the defender 1 of 4, 25%: it tests
    // and fails on 1-9 (9/20), retreats past its edge, and the attacker wins.
    let fight = build(
        "firefight",
        &[("attacker.figures", "1"), ("defender.figures", "4"), ("distance", "20"), ("edge", "0"), ("turns", "1")],
    );
    let dist = exact(fight.as_ref());
    let survive = (19.0f64 / 20.0).powi(4);
    close(dist.probability("winner", 1), 1.0 - survive);
    close(dist.probability("winner", 0), survive * (1.0 / 20.0) * (9.0 / 20.0));
    // The attacker's shot lands (1/20) whether or not it is destroyed too: both fire at once.
    close(dist.probability("defender_remaining", 75), 1.0 / 20.0);
    // With an 8-inch edge the first retreat stays on the table: no winner in one turn.
    let stays = build(
        "firefight",
        &[("attacker.figures", "1"), ("defender.figures", "4"), ("distance", "20"), ("edge", "8"), ("turns", "1")],
    );
    close(exact(stays.as_ref()).probability("winner", 0), 0.0);
}

#[test]
fn firefight_monte_carlo_agrees_with_the_markov_chain() {
    assert_agrees(
        build("firefight", &[("attacker.figures", "6"), ("defender.figures", "6"), ("distance", "12")]).as_ref(),
        1_000_000,
        42,
    );
    assert_agrees(
        build(
            "firefight",
            &[
                ("attacker.figures", "8"),
                ("attacker.troops", "rifles"),
                ("attacker.quality", "elite"),
                ("defender.figures", "10"),
                ("defender.cover", "woods"),
                ("defender.quality", "inexperienced"),
                ("distance", "16"),
                ("edge", "24"),
                ("turns", "12"),
            ],
        )
        .as_ref(),
        1_000_000,
        43,
    );
}

#[test]
fn firefight_exact_solver_stops_at_large_units() {
    assert!(
        build("firefight", &[("attacker.figures", "30"), ("defender.figures", "30")]).exact_distribution().is_none()
    );
    let dist = simulate(build("firefight", &[]).as_ref(), 100_000, 44);
    let total: f64 = (0..3).map(|w| dist.probability("winner", w)).sum();
    close(total, 1.0);
}

#[test]
fn firefight_interpretations_agree_with_their_chains_and_matter() {
    use volley_kernel::rulesets::hougoumont::{HalfStrengthTest, RalliedUnits};
    let pairs = [("attacker.figures", "6"), ("defender.figures", "5"), ("distance", "10"), ("turns", "15")];
    let every = Rules { half_strength_test: HalfStrengthTest::EveryTurn, ..Rules::default() };
    let stand = Rules { rallied_units: RalliedUnits::Stand, ..Rules::default() };
    assert_agrees(build_with(&every, "firefight", &pairs).as_ref(), 1_000_000, 52);
    assert_agrees(build_with(&stand, "firefight", &pairs).as_ref(), 1_000_000, 53);
    let none = |rules: &Rules| exact(build_with(rules, "firefight", &pairs).as_ref()).probability("winner", 2);
    // Rallied units that stand drift out of range: more fights reach the limit.
    assert!(none(&stand) > none(&Rules::default()) + 0.01, "{} {}", none(&stand), none(&Rules::default()));
    // Testing every turn below half breaks units sooner: fewer undecided fights.
    assert!(none(&every) < none(&Rules::default()), "{} {}", none(&every), none(&Rules::default()));
}

#[test]
fn changed_rule_numbers_keep_monte_carlo_and_chains_in_step() {
    use volley_kernel::rulesets::hougoumont::{HalfStrengthTest, MeleeCasualties};
    let rules = Rules {
        figures_per_hit: 2,
        morale_threshold: 12,
        half_strength_test: HalfStrengthTest::EveryTurn,
        melee_casualties: MeleeCasualties::WinnerAverage,
        retreat_distance: 6,
        ..Rules::default()
    };
    let assault = [("attacker.figures", "9"), ("defender.figures", "6"), ("distance", "14"), ("turns", "8")];
    assert_agrees(build_with(&rules, "assault", &assault).as_ref(), 1_000_000, 62);
    let firefight = [("attacker.figures", "7"), ("defender.figures", "6"), ("distance", "12"), ("turns", "10")];
    assert_agrees(build_with(&rules, "firefight", &firefight).as_ref(), 1_000_000, 63);
}
