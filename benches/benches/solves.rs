//! Seconds to solve exactly, best play included, the fights whose solve the
//! issues give a budget (2 s and 1 GB on the project's two-core machine):
//! every multi-turn scenario at its defaults, and the non-default settings
//! a budget names (Hougoumont's firefight at 40 against 40 figures, the
//! farm with the garrison free to fire at the gunners, Huzzah!'s assault
//! with the Retire offered). Each iteration builds the scenario afresh, so
//! nothing solved is reused. `volley bench` gives the defaults' solves in
//! one run; this group times each with criterion's statistics. Memory is
//! not measured here: run `examples/solve_time` under `/usr/bin/time -v`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use volley_kernel::catalogue::{catalogue, ruleset};

/// Non-default settings whose solve a budget names: ruleset, scenario, keys
/// (a key `rules.FIELD` sets a rule field).
const NAMED: &[(&str, &str, &[(&str, &str)])] = &[
    ("hougoumont", "firefight", &[("attacker.figures", "40"), ("defender.figures", "40")]),
    ("hougoumont", "farm_assault", &[("rules.fire_at_gunners", "allowed")]),
    ("huzzah", "assault", &[("attacker.retire", "true")]),
];

fn solves(c: &mut Criterion) {
    let mut group = c.benchmark_group("solves");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    let mut cases: Vec<(String, &str, &str, Vec<(&str, &str)>)> = Vec::new();
    for set in catalogue() {
        for entry in &set.scenarios {
            let rules = (set.default_rules)();
            let built = entry.build_from_text(rules.as_ref(), []).expect("defaults build");
            // Multi-turn fights with an exact solver at their defaults.
            if built.has_exact() && built.purpose().is_some() {
                cases.push((format!("{}/{}", set.name, entry.name), set.name, entry.name, Vec::new()));
            }
        }
    }
    for &(set, scenario, keys) in NAMED {
        let label = keys.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",");
        cases.push((format!("{set}/{scenario}/{label}"), set, scenario, keys.to_vec()));
    }
    for (name, set_name, scenario, keys) in cases {
        let set = ruleset(set_name).expect("a catalogued ruleset");
        let entry = set.scenario(scenario).expect("a catalogued scenario");
        let mut rules = (set.default_rules)();
        let (fields, settings): (Vec<_>, Vec<_>) = keys.into_iter().partition(|(k, _)| k.starts_with("rules."));
        for (key, text) in fields {
            let name = &key["rules.".len()..];
            rules.set_text(name, text).unwrap_or_else(|e| panic!("rules.{name}: {e}"));
        }
        group.bench_function(name, |b| {
            b.iter(|| {
                let built = entry.build_from_text(rules.as_ref(), settings.iter().copied()).expect("valid keys");
                black_box(built.exact_distribution().expect("an exact solver at these keys"))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, solves);
criterion_main!(benches);
