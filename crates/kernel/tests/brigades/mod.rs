//! Tests of Brigades and Batteries: hand-worked values from the tables, exact
//! solvers against Monte Carlo, and the catalogue's keys.

mod approach;
mod assault;
mod combat;
mod contract;
mod converging;
mod crossing;
mod crossing_play;
mod decisions;
mod fire;
mod firefight;
mod firegame;
mod initiative;
mod morale;
mod shaken;

use volley_kernel::catalogue::ruleset;
use volley_kernel::outcome::Distribution;
use volley_kernel::params::RuleBook;
use volley_kernel::rulesets::brigades::Rules;
use volley_kernel::scenario::DynScenario;

/// A scenario of the catalogue built from `pairs` under `rules`.
pub fn build(scenario: &str, rules: &dyn RuleBook, pairs: &[(&str, &str)]) -> Box<dyn DynScenario> {
    let brigades = ruleset("brigades").unwrap();
    {
        let entry = brigades.scenario(scenario).unwrap();
        entry.build_from_text(rules, crate::manoeuvring(entry, pairs))
    }
    .unwrap()
}

/// `pairs` with the charger set to charge whenever it is within reach
/// (`bold`): the hand-worked charges, whose best play under `manoeuvre` may
/// hold (2.6: a charge is voluntary) where a charge's margin is negative.
pub fn charging<'a>(pairs: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut all = pairs.to_vec();
    all.push(("attacker.policy", "bold"));
    all
}

/// The chance of exactly `k` successes in `n` trials of chance `p`.
pub fn binomial(n: u32, p: f64, k: u32) -> f64 {
    let choose = (0..k).fold(1.0, |c, i| c * f64::from(n - i) / f64::from(i + 1));
    choose * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
}

/// The printed rules.
pub fn rules() -> Rules {
    Rules::default()
}

/// The exact distribution of a scenario.
pub fn exact(scenario: &dyn DynScenario) -> Distribution {
    scenario.exact_distribution().expect("an exact solver")
}

/// Asserts two probabilities agree to 1e-12.
#[track_caller]
pub fn close(actual: f64, expected: f64) {
    assert!((actual - expected).abs() < 1e-12, "{actual} != {expected}");
}
