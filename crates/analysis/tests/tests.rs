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
