//! volley-analysis's integration tests: one binary, one module per part.

#[path = "analysis/synthetic.rs"]
mod synthetic;

#[path = "analysis/balance.rs"]
mod balance;
#[path = "analysis/charts.rs"]
mod charts;
#[path = "analysis/even.rs"]
mod even;
#[path = "analysis/frames.rs"]
mod frames;
#[path = "analysis/points.rs"]
mod points;
#[path = "analysis/provenance.rs"]
mod provenance;
#[path = "analysis/reports.rs"]
mod reports;
#[path = "analysis/stats.rs"]
mod stats;

/// The bold rule of thumb for each side whose policy a scenario takes as a
/// key (none where nobody decides; the reorganising player's alone):
/// catalogue-wide tests check how analyses are made, and best play would
/// solve each game once per point.
pub fn heuristic_play(scenario: &volley_kernel::catalogue::ScenarioEntry) -> Vec<(&'static str, &'static str)> {
    ["attacker.policy", "defender.policy"]
        .into_iter()
        .filter(|key| scenario.params.iter().any(|p| p.name == *key))
        .map(|key| (key, "bold"))
        .collect()
}
