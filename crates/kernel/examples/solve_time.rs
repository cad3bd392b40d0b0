//! Times one scenario's exact solve (best play included) at the given keys:
//! `cargo run --release -p volley-kernel --example solve_time -- RULESET SCENARIO [KEY=VALUE]...`,
//! under `/usr/bin/time -v` for its memory. A key `rules.FIELD=VALUE` sets a
//! rule field instead, as a `volley dist --rules FILE` field does
//! (`rules.optional_first_rout_off_table=true`).
use volley_kernel::catalogue::ruleset;
use volley_kernel::outcome::Domain;

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
    let mut rules = (entry.default_rules)();
    let (rule_pairs, settings): (Vec<_>, Vec<_>) = settings.into_iter().partition(|(key, _)| key.starts_with("rules."));
    for (key, text) in &rule_pairs {
        let name = &key["rules.".len()..];
        rules.set_text(name, text).unwrap_or_else(|e| panic!("rules.{name}: {e}"));
    }
    let start = std::time::Instant::now();
    let scenario = entry
        .scenario(&scenario_name)
        .expect("a scenario")
        .build_from_text(rules.as_ref(), settings.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .expect("valid keys");
    let exact = scenario.exact_distribution().expect("an exact solver at these keys");
    let elapsed = start.elapsed().as_secs_f64();
    // A game without a `winner` metric (the crossing's mover wins by
    // arriving) reports its boolean metrics instead.
    let summary = if exact.metric_index("winner").is_some() {
        format!("attacker wins {:.6}, defender {:.6}", exact.probability("winner", 0), exact.probability("winner", 1))
    } else {
        let booleans: Vec<String> = exact
            .metrics
            .iter()
            .filter(|m| m.domain == Domain::Bool)
            .map(|m| format!("{} {:.6}", m.name, exact.probability(m.name, 1)))
            .collect();
        booleans.join(", ")
    };
    println!("{ruleset_name} {scenario_name}: {summary} in {elapsed:.3} s");
    // `SOLVE_TIME_JOINT=1`: every joint outcome too, to compare two builds' exact numbers.
    if std::env::var_os("SOLVE_TIME_JOINT").is_some() {
        for joint in &exact.joint {
            println!("{:?} {:.17e}", joint.values, joint.probability);
        }
    }
}
