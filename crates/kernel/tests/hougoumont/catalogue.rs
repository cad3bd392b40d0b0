//! The catalogue: scenario names, keys and metrics are the contract.

use volley_kernel::catalogue::ruleset;
use volley_kernel::params::{RuleBook, Value};
use volley_kernel::rulesets::hougoumont::Rules;

#[test]
fn scenarios_keys_and_metrics_are_the_contract() {
    let entry = ruleset("hougoumont").unwrap();
    let names: Vec<&str> = entry.scenarios.iter().map(|s| s.name).collect();
    assert_eq!(names, ["small_arms", "artillery", "melee", "morale", "firefight", "assault", "farm_assault"]);
    let keys =
        |name: &str| -> Vec<String> { entry.scenario(name).unwrap().params.iter().map(|p| p.name.clone()).collect() };
    assert_eq!(keys("small_arms"), ["figures", "distance", "troops", "cover"]);
    assert!(
        ["kind", "distance", "target", "crew", "consecutive"]
            .iter()
            .all(|k| keys("artillery").contains(&k.to_string()))
    );
    assert_eq!(keys("melee"), ["attacker.figures", "attacker.quality", "defender.figures", "defender.quality"]);
    assert_eq!(keys("morale"), ["quality", "modifier"]);
    for name in ["firefight", "assault", "farm_assault"] {
        let keys = keys(name);
        for key in ["attacker.figures", "attacker.quality", "defender.figures", "defender.quality", "turns"] {
            assert!(keys.contains(&key.to_string()), "{name} lacks {key}");
        }
    }
    let rules = Rules::default();
    let metrics = |name: &str| -> Vec<&str> {
        entry.scenario(name).unwrap().build_from_text(&rules, []).unwrap().metrics().iter().map(|m| m.name).collect()
    };
    assert_eq!(metrics("small_arms"), ["hits"]);
    assert_eq!(metrics("artillery"), ["hits", "penetrated", "direct_hit", "fire"]);
    assert_eq!(metrics("melee"), ["winner", "attacker_casualties", "defender_casualties"]);
    assert_eq!(metrics("morale"), ["passed"]);
    for name in ["firefight", "assault", "farm_assault"] {
        assert_eq!(metrics(name)[..4], ["winner", "turns", "attacker_remaining", "defender_remaining"], "{name}");
    }
    // Exact solvers where the issue asks for them.
    for name in ["small_arms", "artillery", "melee", "morale", "firefight"] {
        let scenario = entry
            .scenario(name)
            .unwrap()
            .build_from_text(&rules, [("attacker.figures", "4")].into_iter().filter(|_| name == "firefight"));
        assert!(scenario.unwrap().exact_distribution().is_some(), "{name}");
    }
}

#[test]
fn rules_print_every_number_and_interpretation() {
    let fields = Rules::default().fields();
    let field = |name: &str| fields.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no field {name}"));
    assert_eq!(field("morale_threshold").default, Value::Int(10));
    assert!(field("morale_threshold").doc.starts_with("Interpretation:"));
    assert_eq!(field("flat_penetration_extra").default, Value::Int(9));
    assert!(field("flat_penetration_extra").doc.starts_with("3.2"));
    assert_eq!(field("melee_elite").default, Value::Int(5));
    assert_eq!(field("melee_casualties").default, Value::Choice("loser_average".into()));
    for f in &fields {
        let cited = f.doc.starts_with("Interpretation") || f.doc.chars().next().is_some_and(|c| c.is_ascii_digit());
        assert!(cited, "{} cites neither a section nor an interpretation: {}", f.name, f.doc);
    }
    let interpretations = fields.iter().filter(|f| f.doc.starts_with("Interpretation")).count();
    assert!(interpretations >= 10, "{interpretations}");
}
