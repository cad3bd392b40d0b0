//! Times one scenario's exact solve (best play included) at the given keys:
//! `cargo run --release -p volley-kernel --example solve_time -- RULESET SCENARIO [KEY=VALUE]...`,
//! under `/usr/bin/time -v` for its memory.
use volley_kernel::catalogue::ruleset;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(ruleset_name), Some(scenario_name)) = (args.next(), args.next()) else {
        eprintln!("usage: solve_time RULESET SCENARIO [KEY=VALUE]...");
        std::process::exit(2);
    };
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
    let exact = scenario.exact_distribution().expect("an exact solver at these keys");
    println!(
        "{ruleset_name} {scenario_name}: attacker wins {:.6}, defender {:.6} in {:.3} s",
        exact.probability("winner", 0),
        exact.probability("winner", 1),
        start.elapsed().as_secs_f64()
    );
}
