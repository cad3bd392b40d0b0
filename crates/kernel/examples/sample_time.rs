//! Times one scenario's Monte Carlo sample at the given keys and prints the
//! winner's law with 95% Wilson intervals:
//! `cargo run --release -p volley-kernel --example sample_time -- RULESET SCENARIO SAMPLES SEED [KEY=VALUE]...`
//! (the policies played are printed too, so a fallback is seen).
use volley_kernel::catalogue::ruleset;
use volley_kernel::runner::RunOptions;

/// The 95% Wilson interval of `k` successes in `n`.
fn wilson(k: f64, n: f64) -> (f64, f64) {
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (centre - half, centre + half)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        eprintln!("usage: sample_time RULESET SCENARIO SAMPLES SEED [KEY=VALUE]...");
        std::process::exit(2);
    }
    let samples: u64 = args[2].parse().expect("SAMPLES is a count");
    let seed: u64 = args[3].parse().expect("SEED is a number");
    let settings: Vec<(&str, &str)> =
        args[4..].iter().map(|arg| arg.split_once('=').expect("settings are KEY=VALUE")).collect();
    let entry = ruleset(&args[0]).expect("a ruleset");
    let rules = (entry.default_rules)();
    let scenario = entry
        .scenario(&args[1])
        .expect("a scenario")
        .build_from_text(rules.as_ref(), settings.iter().copied())
        .expect("valid keys");
    let start = std::time::Instant::now();
    let dist = scenario.simulate(&RunOptions::new(samples, seed)).expect("a sample");
    let elapsed = start.elapsed().as_secs_f64();
    if let Some(policies) = scenario.policies() {
        println!("played: attacker {}, defender {}", policies[0], policies[1]);
    }
    let n = samples as f64;
    for (value, side) in ["attacker", "defender", "none"].iter().enumerate() {
        let p = dist.probability("winner", value as i64);
        let (low, high) = wilson(p * n, n);
        println!("winner {side}: {:.4} [{low:.4}, {high:.4}]", p);
    }
    println!("{samples} samples, seed {seed}: {elapsed:.1} s");
}
