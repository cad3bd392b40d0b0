//! `volley bench`: samples per second of each scenario beside the raw
//! generator's words per second, measured in the same run, so ratios survive a
//! noisy shared machine.

use super::find_ruleset;
use crate::args::BenchFormat;
use crate::error::bad_input;
use serde_json::json;
use std::hint::black_box;
use std::time::{Duration, Instant};
use volley_kernel::catalogue::{RulesetEntry, catalogue};
use volley_kernel::dice::Dice;
use volley_kernel::runner::RunOptions;
use volley_kernel::scenario::DynScenario;

struct Measurement {
    ruleset: &'static str,
    scenario: &'static str,
    /// Seconds to solve the scenario exactly at its defaults (best play
    /// included), where it has a solver.
    exact_seconds: Option<f64>,
    one_thread: f64,
    all_threads: f64,
}

/// Runs the benchmark.
pub fn run(
    seconds: f64,
    only_ruleset: Option<&str>,
    only_scenario: Option<&str>,
    format: BenchFormat,
) -> anyhow::Result<()> {
    if !(seconds > 0.0 && seconds <= 600.0) {
        return Err(bad_input(format!("--seconds {seconds} must be above 0 and at most 600")));
    }
    let budget = Duration::from_secs_f64(seconds);
    let rulesets: Vec<RulesetEntry> = match only_ruleset {
        Some(name) => vec![find_ruleset(name)?],
        None => catalogue(),
    };
    // A filter that matches nothing would measure nothing and look like a
    // result: refused before anything runs, with the names it could match.
    if let Some(wanted) = only_scenario {
        let names: Vec<&str> = rulesets.iter().flat_map(|r| r.scenarios.iter().map(|s| s.name)).collect();
        if !names.iter().any(|name| name.contains(wanted)) {
            let mut unique = names.clone();
            unique.sort_unstable();
            unique.dedup();
            return Err(bad_input(format!(
                "--scenario {}: no scenario's name contains it; the scenarios are {}",
                crate::error::cut(wanted),
                unique.join(", ")
            )));
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let raw_before = raw_words_per_second(budget);
    let mut measurements = Vec::new();
    for ruleset in &rulesets {
        let rules = (ruleset.default_rules)();
        for entry in &ruleset.scenarios {
            if only_scenario.is_some_and(|s| !entry.name.contains(s)) {
                continue;
            }
            let scenario = entry
                .build_from_text(rules.as_ref(), [])
                .map_err(|e| anyhow::anyhow!("{} {} does not build at its defaults: {e}", ruleset.name, entry.name))?;
            // The exact solve first, on a scenario built afresh: a scenario with
            // decisions solves best play once and then samples from its table,
            // so solving first also keeps that one-off cost out of the rates.
            let exact_seconds = scenario.has_exact().then(|| {
                let start = Instant::now();
                black_box(scenario.exact_distribution());
                start.elapsed().as_secs_f64()
            });
            measurements.push(Measurement {
                ruleset: ruleset.name,
                scenario: entry.name,
                exact_seconds,
                one_thread: samples_per_second(scenario.as_ref(), 1, budget)?,
                all_threads: samples_per_second(scenario.as_ref(), threads, budget)?,
            });
        }
    }
    let raw_after = raw_words_per_second(budget);
    // The generator measured before and after: their mean is the yardstick,
    // and their spread says how steady the machine was.
    let raw = (raw_before + raw_after) / 2.0;
    match format {
        BenchFormat::Json => {
            let rows: Vec<serde_json::Value> = measurements
                .iter()
                .map(|m| {
                    json!({
                        "ruleset": m.ruleset, "scenario": m.scenario,
                        "samples_per_second_1_thread": m.one_thread,
                        "samples_per_second_all_threads": m.all_threads,
                        "words_per_sample": raw / m.one_thread,
                        "speedup": m.all_threads / m.one_thread,
                        "exact_seconds": m.exact_seconds,
                    })
                })
                .collect();
            let doc = json!({
                "threads": threads,
                "raw_u64_per_second": raw,
                "raw_u64_per_second_before": raw_before,
                "raw_u64_per_second_after": raw_after,
                "scenarios": rows,
            });
            println!("{}", serde_json::to_string_pretty(&doc)?);
        }
        _ => {
            println!(
                "raw generator (Xoshiro256++): {} u64/s (before {}, after)",
                human(raw),
                human(raw_before) + ", " + &human(raw_after)
            );
            println!(
                "\n{:<11} {:<16} {:>14} {:>14} {:>8} {:>14} {:>10}",
                "ruleset",
                "scenario",
                "1 thread /s",
                format!("{threads} threads /s"),
                "speedup",
                "u64 per sample",
                "exact s"
            );
            for m in &measurements {
                println!(
                    "{:<11} {:<16} {:>14} {:>14} {:>7.2}x {:>14.2} {:>10}",
                    m.ruleset,
                    m.scenario,
                    human(m.one_thread),
                    human(m.all_threads),
                    m.all_threads / m.one_thread,
                    raw / m.one_thread,
                    m.exact_seconds.map_or_else(|| "-".to_string(), |s| format!("{s:.3}"))
                );
            }
            println!("\n`u64 per sample`: one sample's time in raw generator words, measured in this run.");
            println!(
                "`exact s`: wall seconds to solve the scenario exactly at its defaults, best play included (- : no \
                 exact solver)."
            );
        }
    }
    Ok(())
}

fn human(rate: f64) -> String {
    if rate >= 1e9 {
        format!("{:.2} G", rate / 1e9)
    } else if rate >= 1e6 {
        format!("{:.1} M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.1} k", rate / 1e3)
    } else {
        format!("{rate:.0}")
    }
}

fn raw_words_per_second(budget: Duration) -> f64 {
    let mut dice = Dice::seed_from_u64(1);
    let mut words: u64 = 1 << 20;
    loop {
        let start = Instant::now();
        let mut acc = 0u64;
        for _ in 0..words {
            acc = acc.wrapping_add(dice.word());
        }
        black_box(acc);
        let elapsed = start.elapsed();
        if elapsed >= budget {
            return words as f64 / elapsed.as_secs_f64();
        }
        words = grow(words, elapsed, budget);
    }
}

fn samples_per_second(scenario: &dyn DynScenario, threads: usize, budget: Duration) -> anyhow::Result<f64> {
    let mut samples: u64 = 1 << 16;
    loop {
        let options = RunOptions::new(samples, 1).with_threads(threads);
        let start = Instant::now();
        black_box(scenario.simulate(&options)?);
        let elapsed = start.elapsed();
        if elapsed >= budget {
            return Ok(samples as f64 / elapsed.as_secs_f64());
        }
        samples = grow(samples, elapsed, budget);
    }
}

/// The next trial size: aim a little past the budget, at most 16 times larger.
fn grow(n: u64, elapsed: Duration, budget: Duration) -> u64 {
    let factor = (budget.as_secs_f64() * 1.2 / elapsed.as_secs_f64().max(1e-6)).clamp(2.0, 16.0);
    ((n as f64) * factor) as u64
}
