//! What makes it even and points, timed: `volley even` on exactly solved
//! and on sampled searches, and the points of a four-quality ladder
//! (issue 36's budgets: exact within 5 s, sampled to ±0.005 within 60 s,
//! points within a report's minute). Run with
//! `cargo bench -p volley-analysis --bench even`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::time::Duration;
use volley_analysis::balance::{Experiment, Measure, Solving};
use volley_analysis::even::{Axis, search};
use volley_analysis::points::points;
use volley_kernel::catalogue::catalogue;
use volley_kernel::runner::RunOptions;

fn experiment(ruleset: &str, scenario: &str) -> Experiment {
    let entry = catalogue().into_iter().find(|r| r.name == ruleset).expect("a catalogue ruleset");
    Experiment::new(&entry, scenario, RunOptions::new(1_000_000, 1)).expect("a catalogue scenario")
}

fn even(c: &mut Criterion) {
    let mut group = c.benchmark_group("even");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(5));
    let wins = Measure::probability("winner", "attacker");
    // Exact at every value: One Hour's firefight by the attacker's hits.
    let one_hour = experiment("one_hour", "firefight").with_solving(Solving::Always);
    let axis = Axis::of(&one_hour, "attacker.hits", Some("1"), Some("11")).unwrap();
    group.bench_function("exact/one_hour_firefight_hits_1_11", |b| b.iter(|| search(&one_hour, &axis, &wins, 0.5)));
    // Exact: Hougoumont's firefight by the attacker's figures, 5 to 40
    // (a grid of 13 and a bisection).
    let hougoumont = experiment("hougoumont", "firefight").with_solving(Solving::Always);
    let axis = Axis::of(&hougoumont, "attacker.figures", Some("5"), Some("40")).unwrap();
    group.bench_function("exact/hougoumont_firefight_figures_5_40", |b| {
        b.iter(|| search(&hougoumont, &axis, &wins, 0.5))
    });
    // Sampled in rounds to ±0.005: Brigades' bold firefight by figures.
    let brigades = experiment("brigades", "firefight")
        .with_fixed([
            ("attacker.quality", "d"),
            ("defender.quality", "b"),
            ("attacker.policy", "bold"),
            ("defender.policy", "bold"),
        ])
        .with_precision(Some(0.005));
    let axis = Axis::of(&brigades, "attacker.figures", Some("12"), Some("60")).unwrap();
    group.bench_function("sampled/brigades_firefight_figures_12_60", |b| {
        b.iter(|| search(&brigades, &axis, &wins, 0.5))
    });
    // Points: every Hougoumont quality against every other, exact.
    let ladder = experiment("hougoumont", "firefight").with_solving(Solving::Always);
    group.bench_function("points/hougoumont_firefight_quality", |b| b.iter(|| points(&ladder, "quality", None)));
    group.finish();
}

criterion_group!(benches, even);
criterion_main!(benches);
