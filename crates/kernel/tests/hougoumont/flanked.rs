//! 5: a flanked unit tests morale, whatever its losses (the firefight's
//! `SIDE.flanked` key).

use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;

fn firefight(pairs: &[(&str, &str)]) -> Box<dyn volley_kernel::scenario::DynScenario> {
    let entry = ruleset("hougoumont").unwrap();
    let rules = (entry.default_rules)();
    entry.scenario("firefight").unwrap().build_from_text(rules.as_ref(), pairs.iter().copied()).unwrap()
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
    let every = entry.scenario("firefight").unwrap().build_from_text(&rules, pairs.iter().copied()).unwrap();
    let every = every.exact_distribution().unwrap();
    assert!((every.probability("winner", 1) - (9.0 / 20.0 + 11.0 / 20.0 * 9.0 / 20.0)).abs() < 1e-12);
}
