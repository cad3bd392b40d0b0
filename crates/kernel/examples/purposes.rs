//! Every game scenario at its defaults under each purpose it offers: the
//! winner and why the fight ended (exact where quick, else 20,000 sampled
//! fights, seed 1):
//! `cargo run --release -p volley-kernel --example purposes [RULESET [SCENARIO [KEY=VALUE]...]]`
//! (with `EXPLAIN=1` in the environment it also prints each side's first
//! decision, every option valued). A key `rules.FIELD=VALUE` sets a rule
//! field instead (`rules.closing_volley=none`).
use volley_kernel::catalogue::catalogue;
use volley_kernel::params::ParamKind;
use volley_kernel::runner::RunOptions;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (rule_pairs, pairs): (Vec<(&str, &str)>, Vec<(&str, &str)>) = args
        .iter()
        .skip(2)
        .map(|arg| arg.split_once('=').expect("settings are KEY=VALUE"))
        .partition(|(key, _)| key.starts_with("rules."));
    for entry in catalogue() {
        if args.first().is_some_and(|name| name != entry.name) {
            continue;
        }
        let mut rules = (entry.default_rules)();
        for (key, text) in &rule_pairs {
            let name = &key["rules.".len()..];
            rules.set_text(name, text).unwrap_or_else(|e| panic!("rules.{name}: {e}"));
        }
        for scenario in &entry.scenarios {
            if args.get(1).is_some_and(|name| name != scenario.name) {
                continue;
            }
            let Some(purpose) = scenario.params.iter().find(|param| param.name == "purpose") else { continue };
            let ParamKind::Choice(offered) = &purpose.kind else { continue };
            for name in offered.iter() {
                let mut all = vec![("purpose", *name)];
                all.extend(pairs.iter().filter(|(key, _)| *key != "purpose"));
                let built = scenario.build_from_text(rules.as_ref(), all.iter().copied()).expect("valid keys");
                let start = std::time::Instant::now();
                let (how, dist) = if built.exact_is_cheap() {
                    ("exact", built.exact_distribution().expect("an exact solver"))
                } else {
                    ("20k", built.simulate(&RunOptions::new(20_000, 1)).expect("a run"))
                };
                if std::env::var_os("EXPLAIN").is_some() {
                    for explained in built.explain().unwrap_or_default() {
                        println!(
                            "  {} {} at step {} ({}): reached {:.4}",
                            explained.side, explained.decision, explained.step, explained.situation, explained.reached
                        );
                        for o in explained.options {
                            println!(
                                "    {:40} A {:.5} D {:.5} beats {:.5}/{:.5} turns {:.3} {}{:?}",
                                o.option,
                                o.attacker_wins,
                                o.defender_wins,
                                o.attacker_beats,
                                o.defender_beats,
                                o.turns,
                                if o.chosen { "* " } else { "" },
                                o.tie
                            );
                        }
                    }
                }
                let p = |metric: &str, value: i64| {
                    if dist.metric_index(metric).is_some() { 100.0 * dist.probability(metric, value) } else { f64::NAN }
                };
                println!(
                    "{:10} {:16} {:9} {:5} {:6.1}s  A {:5.1}  D {:5.1}  none {:5.1} | ended: won {:5.1} A-left {:5.1} D-left {:5.1} both {:5.1} limit {:5.1}",
                    entry.name,
                    scenario.name,
                    name,
                    how,
                    start.elapsed().as_secs_f64(),
                    p("winner", 0),
                    p("winner", 1),
                    p("winner", 2),
                    p("ended", 0),
                    p("ended", 1),
                    p("ended", 2),
                    p("ended", 3),
                    p("ended", 4),
                );
            }
        }
    }
}
