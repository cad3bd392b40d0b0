//! Hougoumont 1815: exact values worked by hand or by independent enumeration,
//! Monte Carlo against every exact solver, and the catalogue's keys.

mod assault;
mod catalogue;
mod melee;
mod multi_turn;
mod single_tests;
mod sortie;

use volley_kernel::catalogue::ruleset;
use volley_kernel::outcome::Distribution;
use volley_kernel::rulesets::hougoumont::Rules;
use volley_kernel::scenario::DynScenario;

/// A scenario built through the catalogue from `key=value` pairs, default rules.
pub fn build(scenario: &str, pairs: &[(&str, &str)]) -> Box<dyn DynScenario> {
    build_with(&Rules::default(), scenario, pairs)
}

/// A scenario built through the catalogue with these rules.
pub fn build_with(rules: &Rules, scenario: &str, pairs: &[(&str, &str)]) -> Box<dyn DynScenario> {
    let entry = ruleset("hougoumont").unwrap();
    {
        let entry = entry.scenario(scenario).unwrap();
        entry.build_from_text(rules, crate::manoeuvring(entry, pairs))
    }
    .unwrap()
}

/// The exact distribution.
pub fn exact(scenario: &dyn DynScenario) -> Distribution {
    scenario.exact_distribution().expect("an exact solver")
}

/// Asserts two probabilities agree to 1e-12.
#[track_caller]
pub fn close(actual: f64, expected: f64) {
    assert!((actual - expected).abs() < 1e-12, "got {actual}, expected {expected}");
}
mod flanked;
