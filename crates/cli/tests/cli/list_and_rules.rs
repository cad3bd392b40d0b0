//! `volley list` documents every scenario; `volley rules` prints TOML that
//! `--rules` reads back; bad rules files name file, line and column.

use super::{volley_bad_input, volley_ok};
use volley_kernel::catalogue::catalogue;

#[test]
fn list_shows_every_ruleset_scenario_key_and_metric() {
    let all = volley_ok(&["list"]);
    for ruleset in catalogue() {
        assert!(all.contains(ruleset.name), "{}", ruleset.name);
        let detail = volley_ok(&["list", ruleset.name]);
        let rules = (ruleset.default_rules)();
        for scenario in &ruleset.scenarios {
            assert!(detail.contains(&format!("{} {}:", ruleset.name, scenario.name)));
            for param in &scenario.params {
                assert!(detail.contains(&param.name), "{} {} key {}", ruleset.name, scenario.name, param.name);
            }
            let built = scenario.build_from_text(rules.as_ref(), []).unwrap();
            for metric in built.metrics() {
                assert!(detail.contains(metric.name), "{} {} metric {}", ruleset.name, scenario.name, metric.name);
            }
        }
    }
    let one = volley_ok(&["list", "dice", "sum"]);
    assert!(one.contains("dice sum: The total of some dice. (exact and Monte Carlo)"), "{one}");
    assert!(one.contains("total"), "{one}");
    volley_bad_input(&["list", "dice", "nope"]);
}

#[test]
fn rules_round_trip_through_a_file_for_every_ruleset() {
    let dir = std::env::temp_dir().join(format!("volley-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for ruleset in catalogue() {
        let printed = volley_ok(&["rules", ruleset.name]);
        let file = dir.join(format!("{}.toml", ruleset.name));
        std::fs::write(&file, &printed).unwrap();
        let again = volley_ok(&["rules", ruleset.name, "--rules", file.to_str().unwrap()]);
        assert_eq!(printed, again, "{}", ruleset.name);
        for field in (ruleset.default_rules)().fields() {
            assert!(printed.contains(&format!("\n{} = ", field.name)), "{} {}", ruleset.name, field.name);
        }
    }
    let broken = dir.join("broken.toml");
    std::fs::write(&broken, "[dice]\nthis is = not toml\n").unwrap();
    let e = volley_bad_input(&["dist", "dice", "sum", "--rules", broken.to_str().unwrap()]);
    assert!(e.contains("broken.toml:2:"), "{e}");
    let e = volley_bad_input(&["dist", "dice", "sum", "--rules", dir.join("missing.toml").to_str().unwrap()]);
    assert!(e.contains("cannot read rules file"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The lines of `volley list RULESET SCENARIO` from its decisions header on:
/// the header, a line per decision, and the default play.
fn decisions_section(ruleset: &str, scenario: &str) -> Vec<String> {
    let text = volley_ok(&["list", ruleset, scenario]);
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let header = lines.iter().position(|l| l.starts_with("  decisions (")).unwrap_or_else(|| panic!("{text}"));
    lines[header..].iter().take_while(|l| !l.is_empty()).cloned().collect()
}

#[test]
fn list_shows_each_decision_who_takes_it_its_options_and_the_default_play() {
    // A multi-turn duel: four decisions, any of them either side's, under
    // both sides' policy keys; both sides play their best by default.
    let duel = decisions_section("one_hour", "cavalry_charge");
    assert_eq!(duel[0], "  decisions (made by each side's policy: attacker.policy, defender.policy):");
    let expected = [
        (
            "fire",
            "fire; fire, then form square; halt at R boxes (least movement first); retire to R boxes (`retire = pivot`); leave column, halt at R boxes; form square",
        ),
        (
            "charge",
            "charge; halt at R boxes (least movement first); retire to R boxes (`retire = pivot`); leave column, halt at R boxes; break off",
        ),
        (
            "move",
            "halt at R boxes (least movement first); retire to R boxes (`retire = pivot`); leave column, halt at R boxes; form square; break off",
        ),
        ("square", "stay in square; leave square"),
    ];
    assert_eq!(duel.len(), expected.len() + 2, "{duel:#?}");
    for (line, (name, options)) in duel[1..].iter().zip(expected) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!((fields[0], fields[1], fields[2]), (name, "either", "side"), "{line}");
        assert!(line.ends_with(&format!("; options: {options}")), "{line}");
    }
    assert_eq!(duel[5], "  default play: attacker best, defender best");
    // One side's decisions: the assault's battery decides only `bombard`
    // and the column only `advance` and `pursue`; beyond the solver, the
    // default play names the heuristic played.
    let brigade = decisions_section("huzzah", "brigade_assault");
    let who: Vec<(&str, &str)> = brigade[1..brigade.len() - 1]
        .iter()
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            (fields[0], fields[1])
        })
        .collect();
    assert_eq!(
        who,
        [
            ("advance", "attacker"),
            ("pursue", "attacker"),
            ("bombard", "defender"),
            ("target", "defender"),
            ("command", "attacker"),
            ("group_order", "attacker"),
            ("act", "attacker"),
        ]
    );
    assert_eq!(
        brigade.last().unwrap(),
        "  default play: attacker bold (best play is beyond the solver here), defender bold (best play is beyond the \
         solver here)"
    );
    // A game one player plays alone names only that player's key.
    let reorganise = decisions_section("huzzah", "reorganise");
    assert_eq!(reorganise[0], "  decisions (made by its player's policy: attacker.policy):");
    assert!(reorganise[1].starts_with("    attempt                  attacker "), "{}", reorganise[1]);
    assert!(reorganise[1].ends_with("; options: wait (Up 1 next turn); attempt now"), "{}", reorganise[1]);
    assert_eq!(reorganise[2], "  default play: attacker best");
    // A scenario with nobody choosing lists no decisions.
    assert!(!volley_ok(&["list", "huzzah", "engagement"]).contains("decisions ("));
}
