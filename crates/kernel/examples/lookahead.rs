//! Times one scenario's sampled law at the given keys, for a policy that is
//! sampled only (`lookahead`):
//! `cargo run --release -p volley-kernel --example lookahead -- RULESET SCENARIO SAMPLES SEED THREADS [KEY=VALUE]...`,
//! under `/usr/bin/time -v` for its memory. Prints each side's win chance
//! with its 95% normal interval (the CLI's `volley dist --samples` gives
//! the same counts, with Wilson intervals) and the time taken, and where a
//! side looks ahead how often its decisions were found already worked out.
use volley_kernel::catalogue::ruleset;
use volley_kernel::runner::RunOptions;

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: lookahead RULESET SCENARIO SAMPLES SEED THREADS [KEY=VALUE]...";
    let (Some(ruleset_name), Some(scenario_name), Some(samples), Some(seed), Some(threads)) =
        (args.next(), args.next(), args.next(), args.next(), args.next())
    else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let samples: u64 = samples.parse().expect("SAMPLES is a number");
    let seed: u64 = seed.parse().expect("SEED is a number");
    let threads: usize = threads.parse().expect("THREADS is a number");
    let settings: Vec<(String, String)> = args
        .map(|arg| {
            let (key, value) = arg.split_once('=').expect("settings are KEY=VALUE");
            (key.to_string(), value.to_string())
        })
        .collect();
    let entry = ruleset(&ruleset_name).expect("a ruleset");
    let rules = (entry.default_rules)();
    let start = std::time::Instant::now();
    let scenario = entry
        .scenario(&scenario_name)
        .expect("a scenario")
        .build_from_text(rules.as_ref(), settings.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .expect("valid keys");
    let law = scenario.simulate(&RunOptions::new(samples, seed).with_threads(threads)).expect("a run");
    let elapsed = start.elapsed().as_secs_f64();
    let n = samples as f64;
    let shown: Vec<String> = [0, 1]
        .iter()
        .map(|&side| {
            let p = law.probability("winner", side);
            let half = 1.96 * (p * (1.0 - p) / n).sqrt();
            format!("{:.4} [{:.4}, {:.4}]", p, p - half, p + half)
        })
        .collect();
    let policies = scenario.policies().map(|p| format!("{}, {}", p[0], p[1])).unwrap_or_default();
    println!(
        "{ruleset_name} {scenario_name} ({policies}): attacker wins {}, defender {} ({samples} fights, seed {seed}, \
         {threads} threads) in {elapsed:.2} s",
        shown[0], shown[1]
    );
    if let Some(reuse) = scenario.lookahead_reuse() {
        let share = if reuse.asked > 0 { 100.0 * reuse.found as f64 / reuse.asked as f64 } else { 0.0 };
        println!(
            "look-ahead decisions: {} asked, {} found in the memo ({share:.1}%), {} kept",
            reuse.asked, reuse.found, reuse.kept
        );
    }
}
