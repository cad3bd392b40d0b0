//! Every multi-turn scenario's purpose at its defaults (the `purpose` key):
//! the fight the scenario describes is decided, not left to the turn limit.

use volley_kernel::catalogue::catalogue;
use volley_kernel::game::Purpose;
use volley_kernel::runner::RunOptions;

/// Fights sampled where the exact answer is not quick.
const SAMPLES: u64 = 20_000;

/// The game scenarios (those with a `purpose` key), by ruleset.
fn game_scenarios() -> Vec<(String, volley_kernel::catalogue::ScenarioEntry, Box<dyn volley_kernel::params::RuleBook>)>
{
    let mut all = Vec::new();
    for entry in catalogue() {
        for scenario in entry.scenarios {
            if scenario.params.iter().any(|param| param.name == "purpose") {
                all.push((format!("{} {}", entry.name, scenario.name), scenario, (entry.default_rules)()));
            }
        }
    }
    all
}

#[test]
fn every_multi_turn_scenario_takes_a_purpose() {
    let names: Vec<String> = game_scenarios().into_iter().map(|(name, _, _)| name).collect();
    for expected in [
        "huzzah assault",
        "huzzah brigade_assault",
        "huzzah reorganise",
        "brigades firefight",
        "brigades crossing",
        "brigades assault",
        "brigades cavalry_charge",
        "one_hour firefight",
        "one_hour cavalry_charge",
        "one_hour grand_battery",
        "one_hour second_line",
        "one_hour brigade_fire",
        "hougoumont firefight",
        "hougoumont assault",
        "hougoumont farm_assault",
    ] {
        assert!(names.iter().any(|name| name == expected), "{expected} takes no purpose: {names:?}");
    }
}

#[test]
fn every_default_is_decided_under_its_purpose() {
    // At its defaults each scenario's winner is `none` less than 5% of the
    // time (exactly where the answer is quick, else the upper end of a
    // 99.9% interval from 20,000 fights), and its `purpose` says which
    // fight that is. Under `attack` nothing is left undecided at all.
    for (name, scenario, rules) in game_scenarios() {
        let built = scenario.build_from_text(rules.as_ref(), []).unwrap();
        let purpose = built.purpose().expect("a game says its purpose");
        let dist = if built.exact_is_cheap() {
            built.exact_distribution().expect("an exact solver")
        } else {
            built.simulate(&RunOptions::new(SAMPLES, 5)).unwrap()
        };
        let Some(_) = dist.metric_index("winner") else {
            // The crossing has no winner metric: the mover gets across or not.
            assert_eq!(purpose, Purpose::Attack, "{name}");
            continue;
        };
        let none = dist.probability("winner", 2);
        let spread = if built.exact_is_cheap() { 0.0 } else { 3.29 * (none.max(1e-4) / SAMPLES as f64).sqrt() };
        assert!(none + spread < 0.05, "{name}: none {none} under {purpose:?}");
        if purpose == Purpose::Attack {
            assert_eq!(none, 0.0, "{name}: an attack leaves nothing undecided");
        }
        // The ended metric says why: under `stand` what is undecided is the
        // limit or both breaking at once, nothing else.
        let ended = |value: i64| dist.probability("ended", value);
        if purpose == Purpose::Stand {
            assert!(
                (ended(3) + ended(4) - none).abs() < 1e-9,
                "{name}: {none} none against ended {:?}",
                [ended(3), ended(4)]
            );
        }
    }
}

#[test]
fn the_purpose_key_changes_who_wins_the_same_endings() {
    // Hougoumont's assault (exact, quick): the same play under `stand` and
    // `manoeuvre` (nobody may leave), and under `attack` every fight that
    // was not the attacker's is the defender's, both sides breaking at once
    // included (the attack did not carry).
    let hougoumont = volley_kernel::catalogue::ruleset("hougoumont").unwrap();
    let rules = (hougoumont.default_rules)();
    let assault = hougoumont.scenario("assault").unwrap();
    let law = |purpose: &str| {
        assault.build_from_text(rules.as_ref(), [("purpose", purpose)]).unwrap().exact_distribution().unwrap()
    };
    let (stand, manoeuvre, attack) = (law("stand"), law("manoeuvre"), law("attack"));
    for value in 0..3 {
        assert!((stand.probability("winner", value) - manoeuvre.probability("winner", value)).abs() < 1e-12);
    }
    assert!(manoeuvre.probability("winner", 2) > 0.10, "both sides breaking at once is common here");
    assert_eq!(attack.probability("winner", 2), 0.0);
    assert!(
        (attack.probability("winner", 0) + attack.probability("winner", 1) - 1.0).abs() < 1e-12,
        "an attack's fights are all decided"
    );
}

#[test]
fn monte_carlo_agrees_with_the_exact_law_under_each_default_purpose() {
    // Sampled fights follow the table best play solved under the purpose,
    // and code their winner under it: each winner's share of 200,000 fights
    // lies within 4.5 standard errors of the exact chance, and the same seed
    // gives the same counts on one thread and on four.
    for (ruleset, scenario, pairs) in [
        ("hougoumont", "firefight", vec![("attacker.figures", "8"), ("defender.figures", "8")]),
        ("one_hour", "second_line", vec![]),
        ("brigades", "assault", vec![]),
        ("one_hour", "cavalry_charge", vec![("defender.policy", "bold"), ("purpose", "stand")]),
    ] {
        let entry = volley_kernel::catalogue::ruleset(ruleset).unwrap();
        let rules = (entry.default_rules)();
        let built = entry.scenario(scenario).unwrap().build_from_text(rules.as_ref(), pairs.iter().copied()).unwrap();
        let exact = built.exact_distribution().unwrap();
        let sampled = built.simulate(&RunOptions::new(200_000, 11).with_threads(1)).unwrap();
        for value in 0..3 {
            let p = exact.probability("winner", value);
            let q = sampled.probability("winner", value);
            let se = (p * (1.0 - p) / 200_000.0).sqrt().max(1e-9);
            assert!((p - q).abs() <= 4.5 * se + 1e-12, "{ruleset} {scenario}: winner {value} exact {p}, sampled {q}");
        }
        let four = built.simulate(&RunOptions::new(200_000, 11).with_threads(4)).unwrap();
        assert_eq!(sampled, four, "{ruleset} {scenario}: the thread count changed the counts");
    }
}

#[test]
fn a_longer_turn_limit_never_costs_an_attacker_and_never_undoes_a_decision() {
    // Under an attack a longer limit only gives the attacker more time: best
    // play can play the shorter game's moves and then more, so its success
    // never falls as the limit grows (a reversal would mean the limit is
    // mishandled). In a stand-up fight the fights decided never fall either.
    // Steps of more than 10 points come only at short limits, where each
    // turn more decides many fights (One Hour's brigade_fire: 18.5% within 2
    // turns, 77.4% within 3; the firefights: 0 within 2, 10.8% and 22.5%
    // within 3), and flatten once the fights are decided.
    let cases: [(&str, &str, &[(&str, &str)]); 8] = [
        ("one_hour", "firefight", &[]),
        ("one_hour", "cavalry_charge", &[("defender.policy", "bold")]),
        ("one_hour", "grand_battery", &[]),
        ("one_hour", "second_line", &[]),
        ("one_hour", "brigade_fire", &[]),
        ("hougoumont", "firefight", &[("attacker.figures", "10"), ("defender.figures", "10")]),
        ("brigades", "assault", &[]),
        ("brigades", "cavalry_charge", &[]),
    ];
    for (ruleset, scenario, pairs) in cases {
        let entry = volley_kernel::catalogue::ruleset(ruleset).unwrap();
        let rules = (entry.default_rules)();
        let built = entry.scenario(scenario).unwrap();
        let mut last: Option<(f64, f64)> = None;
        for turns in 1..=10 {
            let t = turns.to_string();
            let mut all = pairs.to_vec();
            all.push(("turns", &t));
            let scenario_at = built.build_from_text(rules.as_ref(), all.iter().copied()).unwrap();
            let law = scenario_at.exact_distribution().unwrap();
            let attacker = law.probability("winner", 0);
            // Fights over before the limit.
            let decided = 1.0 - law.probability("ended", 4);
            let purpose = scenario_at.purpose().unwrap();
            if let Some((before, decided_before)) = last {
                if purpose == Purpose::Attack {
                    assert!(attacker >= before - 1e-9, "{ruleset} {scenario}, {turns} turns: {before} -> {attacker}");
                } else {
                    assert!(decided >= decided_before - 1e-9, "{ruleset} {scenario}, {turns} turns");
                }
            }
            last = Some((attacker, decided));
        }
    }
}

#[test]
fn a_side_playing_a_heuristic_names_its_objective_unread() {
    // No objective steers `bold` or `cautious`: every game scenario names
    // the objective of a side asked for a heuristic as not read, and of a
    // side at its best not.
    for (name, entry, rules) in game_scenarios() {
        let has = |key: &str| entry.params.iter().any(|param| param.name == key);
        for (side, other) in [("attacker", "defender"), ("defender", "attacker")] {
            if !has(&format!("{side}.policy")) {
                continue;
            }
            let policy = format!("{side}.policy");
            let scenario = entry.build_from_text(rules.as_ref(), [(policy.as_str(), "bold")]).unwrap();
            let named = scenario.unread_keys();
            let unread: Vec<String> = named.iter().map(|(key, _)| key.clone()).collect();
            assert!(unread.contains(&format!("{side}.objective")), "{name}: {unread:?}");
            // A side with no decision at these settings reads neither its
            // policy nor its objective, whatever it plays.
            let idle = |key: &str| named.iter().any(|(k, why)| k == key && why.contains("no decision"));
            // The other side, asked for `best` by default, plays it where the
            // game solves (`has_exact`, which must agree with the solve:
            // `catalogue_exact` holds it; asking the policies played would
            // solve every default game again here).
            let best_by_default = entry
                .params
                .iter()
                .any(|param| param.name == format!("{other}.policy") && param.default.to_string() == "best");
            let objective = format!("{other}.objective");
            if best_by_default && scenario.has_exact() && !idle(&objective) {
                assert!(!unread.contains(&objective), "{name}: {unread:?}");
            }
        }
    }
    // And it changes nothing: a bold attacker's objective, set either way.
    let one_hour = volley_kernel::catalogue::ruleset("one_hour").unwrap();
    let rules = (one_hour.default_rules)();
    let entry = one_hour.scenario("firefight").unwrap();
    let law = |objective: &str| {
        let pairs = [("attacker.policy", "bold"), ("attacker.objective", objective), ("purpose", "manoeuvre")];
        entry.build_from_text(rules.as_ref(), pairs).unwrap().exact_distribution().unwrap()
    };
    assert_eq!(law("win"), law("margin"));
}
