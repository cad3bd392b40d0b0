//! Nothing is silently ignored: every bad input below exits 2 with a message
//! naming the file, key or flag and what would be accepted, prints nothing on
//! stdout and writes nothing.

use super::{TempDir, path, volley, volley_bad_input, volley_ok};

/// A small sweep of a Huzzah! test; the cases below break one thing each.
const SPEC: &str = r#"title = "Passing a test"
question = "How often does a Trained unit pass, by net Ups and Downs?"
analysis = "sweep"
measure = "passed=true"
samples = 2000

[[run]]
ruleset = "huzzah"
scenario = "test"
label = "trained"
set = { quality = "trained" }
key = "shifts"
values = [-1, 0, 1]
"#;

/// A fight whose attacker's quality is given canonically, for the quality map.
const CANONICAL: &str = r#"title = "Canonical"
question = "q"
analysis = "distribution"
samples = 2000

[[run]]
ruleset = "huzzah"
scenario = "engagement"
set = { "canonical.attacker.quality" = "elite" }
"#;

/// A second run of the same fight, for the label cases.
const SECOND_RUN: &str = r#"
[[run]]
ruleset = "huzzah"
scenario = "test"
label = "trained"
set = { quality = "green" }
key = "shifts"
values = [-1, 0, 1]
"#;

#[test]
fn bad_rules_files_are_refused_naming_the_table_expected() {
    let dir = TempDir::new("bad-rules");
    let printed_brigades = volley_ok(&["rules", "brigades"]);
    let cases = [
        ("[rules.huzzah]\nrating_full_trained = 10\n", "r.toml:1:2: [rules.huzzah] is the form an analysis spec takes"),
        (printed_brigades.as_str(), "[brigades] is the rules of another ruleset"),
        ("[huzzah]\nrating_full_trained = 10\n[tables]\nx = 1\n", "r.toml:3:1: unknown table [tables]"),
        ("rating_full_trained = 9\n", "r.toml:1:23: `rating_full_trained` is outside any table"),
        ("# nothing\n", "r.toml: no [huzzah] table"),
        ("[huzzah]\nrating_full_trained = \"ten\"\n", "r.toml:2:23: [huzzah] `rating_full_trained` cannot be `ten`"),
    ];
    for (text, expected) in cases {
        let file = dir.write("r.toml", text);
        let e = volley_bad_input(&["dist", "huzzah", "test", "--rules", path(&file), "--exact"]);
        assert!(e.contains(expected), "expected `{expected}` in: {e}");
        assert!(e.contains("[huzzah], as `volley rules huzzah` prints") || text.contains("ten"), "{e}");
    }
}

#[test]
fn bad_specs_are_refused_with_file_line_key_and_fix_and_write_nothing() {
    let dir = TempDir::new("bad-specs");
    let out = dir.0.join("out");
    let cases = [
        (
            format!("{SPEC}\n[rules.brigades]\nmusket_close_normal = 5\n"),
            "bad.toml:15:1: [rules.brigades] applies to no run",
        ),
        (SPEC.replace("samples = 2000", "samples = 2000\nprecision = 0.01"), "bad.toml:5:11: give `samples`"),
        (SPEC.replace("values = [-1, 0, 1]", "values = []"), "bad.toml:13:10: `values` is empty"),
        (format!("{SPEC}{SECOND_RUN}"), "bad.toml:16:11: two runs are labelled `trained` (the other is at line 8)"),
        (SPEC.replace("values = [-1, 0, 1]", "values = [-1, 0, 11]"), "with shifts = 11"),
        (
            SPEC.replace("passed=true", "passed=maybe"),
            "bad.toml:4:11: huzzah test: metric `passed` has no value `maybe`",
        ),
        (SPEC.replace("measure = \"passed=true\"\n", ""), "has no winner or result metric to measure; set `measure`"),
        (
            SPEC.replace("passed=true", "staggers>=some"),
            "bad.toml:4:11: measure `staggers>=some`: after `>=` comes a whole number",
        ),
        (SPEC.replace("passed=true", "passed>=1"), "metric `passed` is not a count; `>=` needs an integer metric"),
        (SPEC.replace("passed=true", "staggers>=0"), "metric `staggers` is never below 0, so at least 0 is certain"),
        (
            format!("{SPEC}\n[quality_map.huzzah]\nelite = \"veteran\"\n"),
            "bad.toml:15:1: [quality_map.huzzah] is read by no run",
        ),
        (
            format!("{CANONICAL}\n[quality_map.huzzah]\nelite = \"superb\"\n"),
            "[quality_map.huzzah] elite: `attacker.quality` cannot be `superb`",
        ),
        (
            format!("{SPEC}\n[quality_map.huzzah]\nbest = \"veteran\"\n"),
            "[quality_map.huzzah] best: expected a canonical quality",
        ),
        (format!("{SPEC}\n[quality_map.one_hour]\nelite = \"good\"\n"), "[quality_map.one_hour] applies to no run"),
        (
            SPEC.replace("analysis = \"sweep\"", "analysis = \"sweep\"\ngroup = \"balanse\""),
            "group `balanse`: expected one of",
        ),
        (SPEC.replace("quality = \"trained\"", "quality = \"trained\", huzzah = \"yes\""), "unknown key `huzzah`"),
    ];
    for (text, expected) in cases {
        let spec = dir.write("bad.toml", &text);
        let e = volley_bad_input(&["run", path(&spec), "--out", path(&out), "--quiet"]);
        assert!(e.contains(expected), "expected `{expected}` in: {e}");
        assert!(!out.exists(), "nothing may be written: {expected}");
    }
    let ladder = r#"title = "t"
question = "q"
analysis = "ladder"
samples = 100

[[run]]
ruleset = "hougoumont"
scenario = "melee"
qualities = []
"#;
    for (text, expected) in [
        (ladder.to_string(), "bad.toml:9:13: `qualities` is empty"),
        (ladder.replace("[]", "[\"veteran\", \"superb\"]"), "quality `superb` is not one of melee's"),
    ] {
        let spec = dir.write("bad.toml", &text);
        let e = volley_bad_input(&["run", path(&spec), "--out", path(&out), "--quiet"]);
        assert!(e.contains(expected), "expected `{expected}` in: {e}");
    }
    let equivalence = r#"title = "t"
question = "q"
analysis = "equivalence"
samples = 100

[[run]]
ruleset = "hougoumont"
scenario = "melee"
key = "attacker.figures"
range = [12, 500]
"#;
    let spec = dir.write("bad.toml", equivalence);
    let e = volley_bad_input(&["run", path(&spec), "--out", path(&out), "--quiet"]);
    assert!(e.contains("bad.toml:10:9: attacker.figures: the range's end `500` must be an integer from 1 to"), "{e}");
    assert!(!out.exists());
}

#[test]
fn report_checks_every_spec_before_writing_any() {
    // The bad spec sorts last, and its mistake (a measure, a sweep value) is
    // one only a full check finds; the good one must not be written first.
    let dir = TempDir::new("report-checks");
    let specs = dir.0.join("analyses");
    std::fs::create_dir_all(&specs).unwrap();
    std::fs::write(specs.join("a-good.toml"), SPEC).unwrap();
    let out = dir.0.join("out");
    for (bad, expected) in [
        (SPEC.replace("passed=true", "passed=yes"), "z-bad.toml:4:11:"),
        (SPEC.replace("values = [-1, 0, 1]", "values = [-1, 0, 1, 12]"), "with shifts = 12"),
    ] {
        std::fs::write(specs.join("z-bad.toml"), bad).unwrap();
        let e = volley_bad_input(&["report", "--analyses", path(&specs), "--out", path(&out), "--quiet"]);
        assert!(e.contains(expected), "expected `{expected}` in: {e}");
        assert!(!out.exists(), "no report may be written when any spec is bad");
    }
}

#[test]
fn flags_take_one_documented_form() {
    let dir = TempDir::new("flags");
    let spec = dir.write("spec.toml", SPEC);
    let file = dir.write("a-file", "");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["dist", "huzzah", "engagement", "--set", "attacker.square=yes"], "`attacker.square` cannot be `yes`"),
        (vec!["dist", "huzzah", "engagement", "--set", "attacker.square=1"], "expected true or false"),
        (vec!["dist", "huzzah", "test", "--samples", "-5"], "invalid value '-5' for '--samples"),
        (vec!["dist", "huzzah", "test", "--samples", "-5"], "expected a whole number of samples, at least 1"),
        (
            vec!["dist", "huzzah", "test", "--threads", "10000"],
            "expected 0 (one thread per core) or a count from 1 to 256",
        ),
        (vec!["run", path(&spec), "--samples", "-5"], "expected a whole number of samples"),
        (vec!["run", path(&spec), "--threads", "10000"], "a count from 1 to 256"),
        (vec!["run", path(&spec), "--out", path(&file)], "a-file: this is a file, not a directory"),
        (vec!["bench", "--format", "csv"], "invalid value 'csv' for '--format"),
        // A key given twice, whichever value was meant.
        (
            vec!["dist", "huzzah", "test", "--set", "shifts=1", "--set", "shifts=2"],
            "--set shifts is given twice (1, then 2); give each key once",
        ),
        // A filter that matches nothing measures nothing.
        (vec!["bench", "--scenario", "nosuch"], "--scenario nosuch: no scenario's name contains it"),
    ];
    for (args, expected) in cases {
        let e = volley_bad_input(&args);
        assert!(e.contains(expected), "{args:?}: expected `{expected}` in: {e}");
    }
    let help = volley_ok(&["bench", "--help"]);
    assert!(help.contains("table") && help.contains("json") && !help.contains("csv"), "{help}");
    // A pasted value is cut in the message, not echoed whole.
    let long = format!("quality={}", "x".repeat(7000));
    let e = volley_bad_input(&["dist", "huzzah", "test", "--set", &long]);
    assert!(e.len() < 1000 && e.contains(" characters)"), "{} bytes: {}", e.len(), &e[..e.len().min(300)]);
    // `true` and `false` are the spelling.
    let ok = volley(&["dist", "huzzah", "engagement", "--set", "attacker.square=true", "--exact"]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
}

#[test]
fn dist_prints_only_the_metrics_asked_and_refuses_one_it_lacks() {
    let only = volley_ok(&["dist", "huzzah", "test", "--metric", "passed", "--format", "csv"]);
    let rows: Vec<&str> = only.lines().filter(|l| !l.starts_with('#')).skip(1).collect();
    assert_eq!(rows.len(), 2, "{only}");
    assert!(rows.iter().all(|row| row.starts_with("passed,")), "{only}");
    let message = volley_bad_input(&["dist", "huzzah", "test", "--metric", "winner"]);
    assert!(message.contains("--metric winner") && message.contains("passed, staggers"), "{message}");
}
