//! Every catalogued scenario says cheaply whether it has an exact solver, and
//! the answer holds: where it says yes, the solver answers and sums to 1.

use volley_kernel::catalogue::catalogue;

#[test]
fn every_scenario_that_claims_a_solver_has_one() {
    for ruleset in catalogue() {
        let rules = (ruleset.default_rules)();
        for entry in &ruleset.scenarios {
            // A short turn limit keeps multi-turn solvers quick; it does not
            // change whether they can solve.
            let short: Vec<(&str, &str)> =
                entry.params.iter().filter(|p| p.name == "turns").map(|_| ("turns", "3")).collect();
            let scenario = entry.build_from_text(rules.as_ref(), short).unwrap();
            let exact = scenario.exact_distribution();
            assert_eq!(scenario.has_exact(), exact.is_some(), "{} {}", ruleset.name, entry.name);
            if let Some(exact) = exact {
                let total: f64 = exact.joint.iter().map(|j| j.probability).sum();
                assert!((total - 1.0).abs() < 1e-9, "{} {}: {total}", ruleset.name, entry.name);
            }
        }
    }
}

#[test]
fn solvers_too_large_to_enumerate_say_so_before_trying() {
    for (ruleset, scenario, pairs) in [
        ("brigades", "firefight", vec![("attacker.figures", "40"), ("defender.figures", "40")]),
        ("hougoumont", "firefight", vec![("attacker.figures", "41"), ("defender.figures", "40")]),
        ("hougoumont", "assault", vec![("attacker.figures", "100"), ("defender.figures", "100")]),
    ] {
        let entry = volley_kernel::catalogue::ruleset(ruleset).unwrap();
        let rules = (entry.default_rules)();
        let built = entry.scenario(scenario).unwrap().build_from_text(rules.as_ref(), pairs).unwrap();
        assert!(!built.has_exact(), "{ruleset} {scenario}");
        assert!(built.exact_distribution().is_none());
    }
}
