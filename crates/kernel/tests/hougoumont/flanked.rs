//! 5: the morale triggers: a flanked unit tests morale, whatever its losses
//! (the `SIDE.flanked` keys), and the 25% trigger's base (`loss_test_base`).

use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;

fn firefight(pairs: &[(&str, &str)]) -> Box<dyn volley_kernel::scenario::DynScenario> {
    let entry = ruleset("hougoumont").unwrap();
    let rules = (entry.default_rules)();
    {
        let entry = entry.scenario("firefight").unwrap();
        entry.build_from_text(rules.as_ref(), crate::manoeuvring(entry, pairs))
    }
    .unwrap()
}

#[test]
fn a_flanked_unit_tests_at_the_first_morale_check_even_without_losses() {
    // At 25 inches no line figure can hit (a D20 never reaches 25), so only
    // the flank test can decide. Experienced troops pass on a D20 of 10 or
    // more (threshold 10, modifier 0): they fail with 9/20, retreat 8 inches,
    // and with only 4 inches to their edge they leave the field. So the
    // defender wins in the first turn with exactly 9/20, and never otherwise.
    let base = [("distance", "25"), ("edge", "4"), ("turns", "1")];
    let flanked: Vec<(&str, &str)> = base.iter().copied().chain([("attacker.flanked", "true")]).collect();
    let exact = firefight(&flanked).exact_distribution().unwrap();
    assert!((exact.probability("winner", 1) - 9.0 / 20.0).abs() < 1e-12);
    assert!((exact.probability("winner", 2) - 11.0 / 20.0).abs() < 1e-12);
    let unflanked = firefight(&base).exact_distribution().unwrap();
    assert_eq!(unflanked.probability("winner", 1), 0.0, "no losses and no flank: no test");
}

#[test]
fn flanked_firefights_agree_with_their_exact_solver() {
    assert_agrees(firefight(&[("defender.flanked", "true"), ("distance", "12")]).as_ref(), 1_000_000, 15);
}

#[test]
fn a_unit_that_stays_flanked_tests_again_under_every_check() {
    // As above, out of musket range with an edge one retreat passes: each
    // test fails with 9/20 and the unit leaves. Read `first_check`, it tests
    // once in two turns: 9/20. Read `every_check`, it tests in both:
    // 9/20 + 11/20 * 9/20.
    use volley_kernel::rulesets::hougoumont::{FlankedTest, Rules};
    let pairs = [("distance", "25"), ("edge", "4"), ("turns", "2"), ("attacker.flanked", "true")];
    let once = firefight(&pairs).exact_distribution().unwrap();
    assert!((once.probability("winner", 1) - 9.0 / 20.0).abs() < 1e-12);
    let entry = ruleset("hougoumont").unwrap();
    let rules = Rules { flanked_test: FlankedTest::EveryCheck, ..Rules::default() };
    let every = {
        let entry = entry.scenario("firefight").unwrap();
        entry.build_from_text(&rules, crate::manoeuvring(entry, &pairs))
    }
    .unwrap();
    let every = every.exact_distribution().unwrap();
    assert!((every.probability("winner", 1) - (9.0 / 20.0 + 11.0 / 20.0 * 9.0 / 20.0)).abs() < 1e-12);
}

#[test]
fn the_quarter_loss_is_measured_against_the_phase_start_not_the_unit_start() {
    // Issue 16, item 6. One rifle figure behind walls at 20 inches fires at 5
    // line figures, which cannot hit it (20 + 10 needed); it hits on 15 (20
    // - 5): 6/20 a turn. The defenders stand at their table edge (edge 0), so
    // a failed test (Experienced: 9/20) takes them off the field. Turn 1: a
    // hit takes 1 of 5, 20%, no test either way (4 is not below half of 5).
    // Turn 2: a second hit takes 1 of the 4 left. Read `phase_start`, that is
    // 25% of the phase's 4 figures: a test, failed with 9/20, so the attacker
    // wins with (6/20)^2 * 9/20 = 324/8000. Read `unit_start`, it is 20% of
    // the unit's 5: no test, and the attacker never wins in two turns.
    use volley_kernel::rulesets::hougoumont::{LossTestBase, Rules};
    let pairs = [
        ("attacker.figures", "1"),
        ("attacker.troops", "rifles"),
        ("attacker.cover", "walls"),
        ("defender.figures", "5"),
        ("distance", "20"),
        ("edge", "0"),
        ("turns", "2"),
    ];
    let phase = firefight(&pairs).exact_distribution().unwrap();
    assert!((phase.probability("winner", 0) - 324.0 / 8000.0).abs() < 1e-12, "{}", phase.probability("winner", 0));
    let entry = ruleset("hougoumont").unwrap();
    let rules = Rules { loss_test_base: LossTestBase::UnitStart, ..Rules::default() };
    let unit = {
        let entry = entry.scenario("firefight").unwrap();
        entry.build_from_text(&rules, crate::manoeuvring(entry, &pairs))
    }
    .unwrap();
    let unit = unit.exact_distribution().unwrap();
    assert_eq!(unit.probability("winner", 0), 0.0);
    assert_agrees(firefight(&pairs).as_ref(), 400_000, 16);
}
