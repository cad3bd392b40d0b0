//! `volley even`: the value that makes a fight even, from the command line
//! and from a spec, against exact laws worked out by hand; bad requests
//! refused with exit status 2.

use super::{TempDir, path, volley_bad_input, volley_ok};

#[test]
fn even_lists_every_crossing_of_a_measure_that_rises_and_falls() {
    // Three d6 with exactly one at or over t: 3p(1-p)^2 with p = (7-t)/6:
    // 37.5% at 4, 44.4% at 5, 34.7% at 6; 40% is crossed twice.
    let out = volley_ok(&[
        "even",
        "dice",
        "at_least",
        "--vary",
        "target",
        "--from",
        "1",
        "--to",
        "6",
        "--measure",
        "successes=1",
        "--target",
        "0.4",
    ]);
    assert!(out.contains("is not monotone in target: it crosses 40.0% 2 times"), "{out}");
    assert!(
        out.contains("between 4 (37.5%) and 5 (44.4%)") && out.contains("between 5 (44.4%) and 6 (34.7%)"),
        "{out}"
    );
    assert!(out.contains("5         0.444444                exact  above"), "{out}");
}

#[test]
fn even_answers_in_json_and_csv_and_a_second_key_gives_a_curve() {
    // One d100 with t or more succeeds (101 - t)/100 of the time: a half at
    // t = 51 exactly, and a third between 67 (34%) and 68 (33%).
    let json = volley_ok(&[
        "even",
        "dice",
        "at_least",
        "--vary",
        "target",
        "--from",
        "1",
        "--to",
        "100",
        "--measure",
        "successes=1",
        "--set",
        "dice=1d100",
        "--format",
        "json",
    ]);
    let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
    let search = &parsed["searches"][0];
    assert_eq!(search["crossings"][0]["at"], "51", "{json}");
    assert_eq!(search["grid_step"], 9);
    assert_eq!(parsed["provenance"]["keys_set"], "dice=1d100, target=1..100");
    assert_eq!(
        parsed["provenance"]["computed"],
        "exact at every value where that is quick; elsewhere Monte Carlo in rounds from 2000 samples, four times \
         more each round, until the 95% interval left the target out or was within ±0.005, seed 1"
    );
    let csv = volley_ok(&[
        "even",
        "dice",
        "at_least",
        "--vary",
        "target",
        "--from",
        "60",
        "--to",
        "70",
        "--measure",
        "successes=1",
        "--set",
        "dice=1d100",
        "--target",
        "0.335",
        "--format",
        "csv",
    ]);
    assert!(csv.starts_with("by,value,estimate,ci_low,ci_high,side,settled,samples\n"), "{csv}");
    assert!(csv.contains("\n,67,0.34,0.34,0.34,above,true,0\n,68,0.33,0.33,0.33,below,true,0\n"), "{csv}");
    // A second key: One Hour's firefight, the attacker's hits against each
    // defender quality; the row for Good (the default) is the single search's.
    let single = volley_ok(&[
        "even",
        "one_hour",
        "firefight",
        "--vary",
        "attacker.hits",
        "--from",
        "1",
        "--to",
        "11",
        "--quiet",
    ]);
    let curve = volley_ok(&[
        "even",
        "one_hour",
        "firefight",
        "--vary",
        "attacker.hits",
        "--from",
        "1",
        "--to",
        "11",
        "--by",
        "defender.quality",
        "--quiet",
    ]);
    let finding = |text: &str, after: &str| -> String {
        let from = text.find(after).unwrap_or_else(|| panic!("no `{after}` in {text}"));
        text[from..].lines().find(|l| l.starts_with("The attacker's chance")).unwrap().to_string()
    };
    assert!(single.contains("between 4 (38.4%) and 5 (54.5%)"), "{single}");
    assert_eq!(finding(&curve, "at defender.quality = good"), finding(&single, "attacker.hits"));
    for quality in ["excellent", "poor", "old_guard"] {
        assert!(curve.contains(&format!("at defender.quality = {quality}")), "{curve}");
    }
}

#[test]
fn even_refuses_bad_requests_naming_the_flag() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["even", "dice", "at_least", "--vary", "nosuch"],
            "--vary: scenario `at_least` of `dice` has no key `nosuch`",
        ),
        (&["even", "dice", "at_least", "--vary", "dice"], "--vary: dice: is dice (NdS), which has no order to search"),
        (&["even", "dice", "at_least", "--vary", "target"], "accepts 1 to 1000, too wide to search whole"),
        (&["even", "dice", "at_least", "--vary", "target", "--from", "5", "--to", "2"], "the range 5 to 2 must rise"),
        (
            &[
                "even",
                "dice",
                "at_least",
                "--vary",
                "target",
                "--from",
                "1",
                "--to",
                "6",
                "--measure",
                "successes=1",
                "--target",
                "2",
            ],
            "--target: target 2 must be a probability",
        ),
        (
            &[
                "even",
                "dice",
                "at_least",
                "--vary",
                "target",
                "--from",
                "1",
                "--to",
                "6",
                "--measure",
                "mean:successes",
            ],
            "give the target value",
        ),
        (
            &[
                "even",
                "dice",
                "at_least",
                "--vary",
                "target",
                "--from",
                "1",
                "--to",
                "6",
                "--measure",
                "successes=1",
                "--set",
                "target=3",
            ],
            "--set target: target is searched",
        ),
        (
            &["even", "dice", "at_least", "--vary", "target", "--from", "1", "--to", "6", "--measure", "hits=1"],
            "--measure: dice at_least: no metric `hits`",
        ),
    ];
    for (args, expected) in cases {
        let e = volley_bad_input(args);
        assert!(e.contains(expected), "{args:?}: {e}");
    }
}

#[test]
fn an_even_spec_writes_a_report_with_its_crossing() {
    let dir = TempDir::new("even-spec");
    let spec = dir.write(
        "even.toml",
        r#"title = "A third of the time"
question = "What target does one d100 meet a third of the time?"
analysis = "even"
measure = "successes=1"
target = 0.335

[[run]]
ruleset = "dice"
scenario = "at_least"
set = { dice = "1d100" }
key = "target"
range = [1, 100]
"#,
    );
    volley_ok(&["run", path(&spec), "--out", path(&dir.0), "--quiet"]);
    let markdown = std::fs::read_to_string(dir.0.join("even/report.md")).unwrap();
    assert!(markdown.contains("crosses 33.5% between 67 (34.0%) and 68 (33.0%)"), "{markdown}");
    assert!(dir.0.join("even/even.svg").is_file());
    let bad = dir.write("bad.toml", &std::fs::read_to_string(&spec).unwrap().replace("target = 0.335", "target = 3.0"));
    let e = volley_bad_input(&["run", path(&bad), "--out", path(&dir.0), "--quiet"]);
    assert!(e.contains("bad.toml:5:") && e.contains("must be a probability"), "{e}");
}

#[test]
fn a_points_spec_fits_every_pairing_and_refuses_a_key_a_side_lacks() {
    let dir = TempDir::new("points-spec");
    let spec = dir.write(
        "points.toml",
        r#"title = "Points"
question = "What is each quality worth?"
analysis = "points"

[[run]]
ruleset = "one_hour"
scenario = "firefight"
values = ["poor", "good", "excellent"]
"#,
    );
    volley_ok(&["run", path(&spec), "--out", path(&dir.0), "--quiet"]);
    let markdown = std::fs::read_to_string(dir.0.join("points/report.md")).unwrap();
    // Poor is the scale's 100; better troops are worth more, and every
    // pairing is in its table.
    assert!(markdown.contains("**Finding.** Points by quality: excellent "), "{markdown}");
    assert!(markdown.contains(", poor 100. The model fits every pairing within"), "{markdown}");
    assert!(markdown.contains("| poor | 100 | 0.000 | exact |"), "{markdown}");
    let pairings = markdown.split("## Pairings").nth(1).unwrap();
    let rows = pairings.lines().filter(|l| ["| poor |", "| good |", "| excellent |"].iter().any(|k| l.starts_with(k)));
    assert_eq!(rows.count(), 9, "{markdown}");
    let data = std::fs::read_to_string(dir.0.join("points/data.csv")).unwrap();
    assert_eq!(data.lines().filter(|l| l.contains(",winner,attacker,")).count(), 9, "{data}");
    let bad = dir.write(
        "bad.toml",
        &std::fs::read_to_string(&spec).unwrap().replace("values = [", "key = \"nosuch\"\nvalues = ["),
    );
    let e = volley_bad_input(&["run", path(&bad), "--out", path(&dir.0), "--quiet"]);
    assert!(e.contains("bad.toml:8:7: one_hour firefight has no key `attacker.nosuch` for points by nosuch"), "{e}");
    let few = dir.write(
        "few.toml",
        &std::fs::read_to_string(&spec).unwrap().replace("\"poor\", \"good\", \"excellent\"", "\"poor\""),
    );
    let e = volley_bad_input(&["run", path(&few), "--out", path(&dir.0), "--quiet"]);
    assert!(e.contains("few.toml:8:10: points need two kinds at least"), "{e}");
}
