//! Tests of Brigades and Batteries: hand-worked values from the tables, exact
//! solvers against Monte Carlo, and the catalogue's keys.

mod assault;
mod combat;
mod contract;
mod converging;
mod crossing;
mod decisions;
mod fire;
mod firefight;
mod firegame;
mod morale;

use volley_kernel::outcome::Distribution;
use volley_kernel::rulesets::brigades::Rules;
use volley_kernel::scenario::DynScenario;

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
