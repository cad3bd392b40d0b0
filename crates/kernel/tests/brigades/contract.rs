//! The names users and the analysis crate rely on: scenarios, keys, metrics,
//! and the rule fields' documentation.

use volley_kernel::catalogue::ruleset;
use volley_kernel::params::{RuleBook, Value};
use volley_kernel::rulesets::brigades::Rules;

fn keys(scenario: &str) -> Vec<String> {
    let brigades = ruleset("brigades").unwrap();
    brigades.scenario(scenario).unwrap().params.iter().map(|p| p.name.clone()).collect()
}

fn metrics(scenario: &str) -> Vec<&'static str> {
    let brigades = ruleset("brigades").unwrap();
    let rules = (brigades.default_rules)();
    let built = brigades.scenario(scenario).unwrap().build_from_text(rules.as_ref(), []).unwrap();
    built.metrics().iter().map(|m| m.name).collect()
}

#[track_caller]
fn has_all(have: &[impl AsRef<str>], want: &[&str]) {
    for w in want {
        assert!(
            have.iter().any(|h| h.as_ref() == *w),
            "missing {w} in {:?}",
            have.iter().map(|h| h.as_ref()).collect::<Vec<_>>()
        );
    }
}

#[test]
fn scenarios_keys_and_metrics_are_as_the_issue_lists() {
    has_all(&keys("fire"), &["weapon", "range", "target", "figures", "guns", "modifier", "dense", "two_rank"]);
    assert_eq!(metrics("fire"), vec!["hits", "rear_hits"]);
    has_all(&keys("morale"), &["grade", "modifier", "rout_modifier", "figures"]);
    assert_eq!(metrics("morale"), vec!["passed", "outcome", "rout_hits"]);
    has_all(
        &keys("combat"),
        &[
            "attacker.arm",
            "attacker.figures",
            "attacker.modifier",
            "attacker.quality",
            "defender.arm",
            "defender.figures",
            "defender.modifier",
            "defender.quality",
            "open_ground",
        ],
    );
    assert_eq!(metrics("combat"), vec!["hits_on_attacker", "hits_on_defender", "loser"]);
    for multi in ["firefight", "assault", "cavalry_charge"] {
        has_all(
            &keys(multi),
            &["attacker.quality", "attacker.figures", "defender.quality", "defender.figures", "turns"],
        );
        has_all(
            &metrics(multi),
            &["winner", "turns", "attacker_remaining", "defender_remaining", "attacker_routed", "defender_routed"],
        );
    }
    has_all(&keys("cavalry_charge"), &["defender.formation"]);
    has_all(
        &keys("crossing"),
        &[
            "firer.quality",
            "firer.figures",
            "firer.weapon",
            "firer.guns",
            "range",
            "mover.quality",
            "mover.figures",
            "mover.type",
            "move",
            "start",
            "exposed",
        ],
    );
    assert_eq!(
        metrics("crossing"),
        vec!["hits", "rout_hits", "volleys", "turns", "arrived", "routed", "shattered", "remaining", "ended"]
    );
}

#[test]
fn every_rule_field_cites_a_section_or_is_an_interpretation() {
    for field in Rules::default().fields() {
        let cites = field.doc.chars().next().is_some_and(|c| c.is_ascii_digit());
        assert!(cites || field.doc.starts_with("Interpretation:"), "{}: {}", field.name, field.doc);
    }
}

#[test]
fn rule_overrides_reach_the_scenarios() {
    // Setting musket close at a normal target to 5 makes 5-10 hit: 0.6 a die.
    let brigades = ruleset("brigades").unwrap();
    let mut rules = Rules::default();
    rules.set("musket_close_normal", &Value::Int(5)).unwrap();
    let fire = brigades.scenario("fire").unwrap().build_from_text(&rules, [("figures", "4")]).unwrap();
    let dist = fire.exact_distribution().unwrap();
    assert!((dist.probability("hits", 1) - 0.6).abs() < 1e-12);
    // Natural results off (miss face 0, hit face 11): a +10 modifier hits always.
    rules.set("natural_miss_face", &Value::Int(0)).unwrap();
    let fire =
        brigades.scenario("fire").unwrap().build_from_text(&rules, [("figures", "4"), ("modifier", "10")]).unwrap();
    assert!((fire.exact_distribution().unwrap().probability("hits", 1) - 1.0).abs() < 1e-12);
    // Grade D passing on 9 instead of 3: 0.2.
    rules.set("morale_pass_d", &Value::Int(9)).unwrap();
    let morale = brigades.scenario("morale").unwrap().build_from_text(&rules, []).unwrap();
    assert!((morale.exact_distribution().unwrap().probability("passed", 1) - 0.2).abs() < 1e-12);
}
