//! volley-analysis's integration tests: one binary, one module per part.

#[path = "analysis/synthetic.rs"]
mod synthetic;

#[path = "analysis/balance.rs"]
mod balance;
#[path = "analysis/charts.rs"]
mod charts;
#[path = "analysis/frames.rs"]
mod frames;
#[path = "analysis/reports.rs"]
mod reports;
#[path = "analysis/stats.rs"]
mod stats;

/// Both sides' bold rule of thumb where a scenario has decisions (no keys
/// otherwise): catalogue-wide tests check how analyses are made, and best
/// play would solve each game once per point.
pub fn heuristic_play(scenario: &volley_kernel::catalogue::ScenarioEntry) -> Vec<(&'static str, &'static str)> {
    if scenario.params.iter().any(|p| p.name == "attacker.policy") {
        vec![("attacker.policy", "bold"), ("defender.policy", "bold")]
    } else {
        Vec::new()
    }
}
