//! `volley dist`: the CSV contract, exact against Monte Carlo, threads, errors.

use super::{volley_bad_input, volley_ok};

/// (metric, value) -> (probability, ci_low, ci_high, count) from dist's CSV.
fn parse_csv(text: &str) -> Vec<(String, String, f64, f64, f64, String)> {
    // How the numbers were made comes first, as `# ` comment lines.
    let mut lines = text.lines().skip_while(|line| line.starts_with("# "));
    assert_eq!(lines.next(), Some("metric,value,probability,ci_low,ci_high,count"));
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 6, "{line}");
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
                f[4].parse().unwrap(),
                f[5].to_string(),
            )
        })
        .collect()
}

#[test]
fn three_d20_exact_and_monte_carlo_agree_within_their_intervals() {
    let exact = parse_csv(&volley_ok(&["dist", "dice", "sum", "--set", "dice=3d20", "--exact", "--format", "csv"]));
    assert_eq!(exact.len(), 58, "totals 3 to 60");
    for (_, _, p, lo, hi, count) in &exact {
        assert_eq!((p, p), (lo, hi), "exact rows have a point interval");
        assert!(count.is_empty(), "exact rows have no count");
    }
    let sampled = parse_csv(&volley_ok(&[
        "dist",
        "dice",
        "sum",
        "--set",
        "dice=3d20",
        "--samples",
        "1000000",
        "--seed",
        "1",
        "--format",
        "csv",
    ]));
    let mut outside = 0;
    for (metric, value, p, ..) in &exact {
        let row = sampled.iter().find(|r| &r.0 == metric && &r.1 == value);
        let (lo, hi) = row.map_or((0.0, 0.0), |r| (r.3, r.4));
        if !(lo..=hi).contains(p) {
            outside += 1;
        }
    }
    // 95% intervals: of 58 values, about 3 may miss; 12 or more would have
    // chance below 1e-5 if the sampler were right.
    assert!(outside < 12, "{outside} of 58 exact values fall outside their intervals");
    let total: u64 = sampled.iter().map(|r| r.5.parse::<u64>().unwrap()).sum();
    assert_eq!(total, 1_000_000);
}

#[test]
fn thread_count_does_not_change_the_output() {
    let args = |threads: &'static str| {
        vec![
            "dist",
            "dice",
            "sum",
            "--set",
            "dice=3d20",
            "--samples",
            "300000",
            "--seed",
            "9",
            "--format",
            "csv",
            "--threads",
            threads,
        ]
    };
    let one = volley_ok(&args("1"));
    assert_eq!(one, volley_ok(&args("2")));
    assert_eq!(one, volley_ok(&args("4")));
}

#[test]
fn json_and_table_carry_the_same_numbers() {
    let json: serde_json::Value =
        serde_json::from_str(&volley_ok(&["dist", "dice", "sum", "--set", "dice=2d6", "--exact", "--format", "json"]))
            .unwrap();
    assert_eq!(json["source"], "exact");
    let seven = &json["metrics"][0]["values"][5];
    assert_eq!(seven["value"], "7");
    assert!((seven["probability"].as_f64().unwrap() - 6.0 / 36.0).abs() < 1e-12);
    assert!((json["metrics"][0]["mean"].as_f64().unwrap() - 7.0).abs() < 1e-12);
    let table = volley_ok(&["dist", "dice", "sum", "--set", "dice=2d6", "--exact"]);
    assert!(table.contains("0.166667"), "{table}");
    assert!(table.contains("means: total 7.0000"), "{table}");
}

#[test]
fn bad_input_exits_2_naming_what_is_wrong() {
    let e = volley_bad_input(&["dist", "dice", "summ"]);
    assert!(e.contains("unknown scenario of dice `summ`; did you mean `sum`?"), "{e}");
    let e = volley_bad_input(&["dist", "hussah", "test"]);
    assert!(e.contains("unknown ruleset `hussah`"), "{e}");
    let e = volley_bad_input(&["dist", "dice", "sum", "--set", "die=2d6"]);
    assert!(e.contains("unknown key `die`; did you mean `dice`?"), "{e}");
    let e = volley_bad_input(&["dist", "dice", "sum", "--set", "dice=2x6"]);
    assert!(e.contains("`dice` cannot be `2x6`"), "{e}");
    let e = volley_bad_input(&["dist", "dice", "sum", "--set", "dice"]);
    assert!(e.contains("--set expects KEY=VALUE"), "{e}");
    let e = volley_bad_input(&["dist", "dice", "at_least", "--set", "dice=2d6", "--set", "target=7"]);
    assert!(e.contains("`target`: 7 is more than a d6 can roll"), "{e}");
    let e = volley_bad_input(&["dist", "dice", "sum", "--samples", "0"]);
    assert!(e.contains("expected a whole number of samples, at least 1"), "{e}");
    let e = volley_bad_input(&["dist", "dice", "sum", "--format", "xml"]);
    assert!(e.contains("xml"), "{e}");
}

#[test]
fn explain_values_each_option_of_the_first_decision_under_best_play() {
    // Impetuous cavalry 4 boxes from line infantry that keeps its formation:
    // halting out of reach and charging next turn wins 70.4%; advancing the
    // full move to 1 box, adjacent and uncharged under a 3D6 volley, 29.6%.
    let args = [
        "dist",
        "one_hour",
        "cavalry_charge",
        "--set",
        "range=4",
        "--set",
        "attacker.impetuous=true",
        "--set",
        "defender.policy=bold",
        "--exact",
        "--explain",
    ];
    let table = volley_ok(&args);
    assert!(table.contains("policies: attacker best, defender bold"), "{table}");
    assert!(table.contains("attacker decides `move` at step 1 (from the start)"), "{table}");
    let chosen = table.lines().find(|l| l.contains("<- chosen")).expect("a chosen option");
    assert!(chosen.contains("halt at 4 boxes") && chosen.contains("70.4%"), "{chosen}");
    let advance = table.lines().find(|l| l.contains("halt at 1 box")).expect("the full advance");
    assert!(advance.contains("attacker wins  29.6%"), "{advance}");
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let document: serde_json::Value = serde_json::from_str(&volley_ok(&json_args)).expect("JSON");
    assert_eq!(document["policies"]["defender"], "bold");
    let options = document["explain"][0]["options"].as_array().expect("options");
    let full_advance = options.iter().find(|o| o["option"] == "halt at 1 box").expect("the full advance");
    assert!((full_advance["attacker_wins"].as_f64().unwrap() - 0.296).abs() < 0.001);
}

#[test]
fn explain_is_refused_where_nobody_decides_and_for_csv() {
    let error = volley_bad_input(&["dist", "huzzah", "test", "--explain"]);
    assert!(error.contains("has no decisions to explain"), "{error}");
    let error = volley_bad_input(&["dist", "one_hour", "firefight", "--exact", "--explain", "--format", "csv"]);
    assert!(error.contains("--explain prints with --format table or json"), "{error}");
}

#[test]
fn precision_samples_enough_for_every_interval() {
    // Wilson at p = 1/2 needs 9,599 samples for a 95% half-width of 0.01,
    // the widest any probability can have.
    let rows = parse_csv(&volley_ok(&["dist", "huzzah", "test", "--precision", "0.01", "--format", "csv"]));
    let samples: u64 = rows.iter().filter(|r| r.0 == "passed").map(|r| r.5.parse::<u64>().unwrap()).sum();
    assert!((9_598..=9_602).contains(&samples), "{samples}");
    for (metric, value, _, low, high, _) in &rows {
        assert!((high - low) / 2.0 <= 0.01 + 1e-12, "{metric}={value}: [{low}, {high}]");
    }
    for flag in ["--exact", "--samples=5"] {
        let error = volley_bad_input(&["dist", "huzzah", "test", "--precision", "0.01", flag]);
        assert!(error.contains("--precision"), "{error}");
    }
    let error = volley_bad_input(&["dist", "huzzah", "test", "--precision", "0.7"]);
    assert!(error.contains("--precision 0.7 must be above 0 and below 0.5"), "{error}");
}
