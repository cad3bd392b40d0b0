//! `volley run` and `volley report` on small specs: the files, their contents,
//! the same data on any thread count, and bad specs refused with nothing written.

use super::{TempDir, path, volley_bad_input, volley_ok};

const SWEEP: &str = r#"
title = "Pool successes by target"
question = "How likely is no success from 3D6 as the target rises?"
analysis = "sweep"
measure = "successes=0"
samples = 20000
seed = 3

[[run]]
ruleset = "dice"
scenario = "at_least"
set = { dice = "3d6" }
key = "target"
values = { from = 2, to = 6, step = 2 }
"#;

const DISTRIBUTION: &str = r#"
title = "Two dice"
question = "What does 2D6 total?"
analysis = "distribution"
samples = 30000

[[run]]
ruleset = "dice"
scenario = "sum"
"#;

#[test]
fn run_writes_a_report_folder_whose_data_is_right() {
    let dir = TempDir::new("run");
    let spec = dir.write("sweep.toml", SWEEP);
    let out = dir.0.join("out");
    volley_ok(&["run", path(&spec), "--out", path(&out), "--quiet"]);
    let folder = out.join("sweep");
    for file in ["report.md", "report.html", "data.csv", "data.parquet", "sweep.svg", "sweep.png"] {
        assert!(folder.join(file).is_file(), "{file}");
    }
    let md = std::fs::read_to_string(folder.join("report.md")).unwrap();
    assert!(md.starts_with("# Pool successes by target"), "{md}");
    assert!(md.contains("**Finding.**"), "{md}");
    // P(no success) from 3D6 at target t is ((t-1)/6)^3: 1/216, 1/8, 125/216.
    let csv = std::fs::read_to_string(folder.join("data.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert_eq!(header, "ruleset,scenario,target,metric,value,count,probability,ci_low,ci_high,exact");
    for (target, exact) in [("2", 1.0 / 216.0), ("4", 0.125), ("6", 125.0 / 216.0)] {
        let row = csv
            .lines()
            .find(|l| l.starts_with(&format!("dice,at_least,{target},successes,0,")))
            .unwrap_or_else(|| panic!("no row for target {target}:\n{csv}"));
        let fields: Vec<&str> = row.split(',').collect();
        let (low, high): (f64, f64) = (fields[7].parse().unwrap(), fields[8].parse().unwrap());
        // 99.99% would be wider; a 95% interval misses 1 time in 20, so check
        // against an interval three times as wide around the estimate.
        let (centre, half) = ((low + high) / 2.0, (high - low) / 2.0);
        assert!((centre - exact).abs() < 3.0 * half + 1e-3, "target {target}: [{low}, {high}] vs {exact}");
    }
}

#[test]
fn report_runs_every_spec_and_indexes_them_identically_on_any_thread_count() {
    let dir = TempDir::new("report");
    let specs = dir.0.join("analyses");
    std::fs::create_dir_all(&specs).unwrap();
    std::fs::write(specs.join("sweep.toml"), SWEEP).unwrap();
    std::fs::write(specs.join("two-dice.toml"), DISTRIBUTION).unwrap();
    let one = dir.0.join("one");
    let four = dir.0.join("four");
    volley_ok(&["report", "--analyses", path(&specs), "--out", path(&one), "--threads", "1", "--quiet"]);
    volley_ok(&["report", "--analyses", path(&specs), "--out", path(&four), "--threads", "4", "--quiet"]);
    for name in ["sweep", "two-dice"] {
        let a = std::fs::read(one.join(name).join("data.csv")).unwrap();
        let b = std::fs::read(four.join(name).join("data.csv")).unwrap();
        assert_eq!(a, b, "{name}: data.csv differs between 1 and 4 threads");
    }
    let index = std::fs::read_to_string(one.join("index.html")).unwrap();
    assert!(index.contains("sweep/report.html") && index.contains("two-dice/report.html"), "{index}");

    // A spec removed: its folder goes with the next report; a folder volley
    // did not write (no report.md and report.html) stays.
    std::fs::remove_file(specs.join("sweep.toml")).unwrap();
    std::fs::create_dir_all(one.join("notes")).unwrap();
    std::fs::write(one.join("notes/report.html"), "mine").unwrap();
    volley_ok(&["report", "--analyses", path(&specs), "--out", path(&one), "--threads", "1", "--quiet"]);
    assert!(!one.join("sweep").exists(), "the removed spec's report is gone");
    assert!(one.join("two-dice/report.html").is_file() && one.join("notes/report.html").is_file());
    let index = std::fs::read_to_string(one.join("index.html")).unwrap();
    assert!(!index.contains("sweep/report.html"), "{index}");
}

#[test]
fn a_bad_spec_exits_2_with_file_line_and_column_and_writes_nothing() {
    let dir = TempDir::new("bad");
    let specs = dir.0.join("analyses");
    std::fs::create_dir_all(&specs).unwrap();
    std::fs::write(specs.join("a-good.toml"), DISTRIBUTION).unwrap();
    std::fs::write(specs.join("b-bad.toml"), SWEEP.replace("scenario = \"at_least\"", "scenario = \"at_leest\""))
        .unwrap();
    let out = dir.0.join("out");
    let e = volley_bad_input(&["report", "--analyses", path(&specs), "--out", path(&out), "--quiet"]);
    assert!(e.contains("b-bad.toml:11:12: unknown scenario of dice `at_leest`; did you mean `at_least`?"), "{e}");
    assert!(!out.exists(), "nothing may be written when a spec is bad");

    let cases = [
        (SWEEP.replace("samples = 20000", "samples = \"many\""), "bad.toml:6:11:"),
        (SWEEP.replace("dice = \"3d6\"", "dice = \"3x6\""), "`dice` cannot be `3x6`"),
        (SWEEP.replace("key = \"target\"", "key = \"targett\""), "targett"),
        (SWEEP.replace("successes=0", "succeses=0"), "succeses"),
        (format!("{SWEEP}\n[rules.huzzahh]\nx = 1\n"), "unknown ruleset `huzzahh`"),
    ];
    for (text, expected) in cases {
        let spec = dir.write("bad.toml", &text);
        let e = volley_bad_input(&["run", path(&spec), "--out", path(&out), "--quiet"]);
        assert!(e.contains(expected), "expected `{expected}` in: {e}");
        assert!(!out.join("bad").exists());
    }
    let e = volley_bad_input(&["report", "--analyses", path(&dir.0.join("nowhere")), "--out", path(&out)]);
    assert!(e.contains("cannot read analyses directory"), "{e}");
}

#[test]
fn a_runs_own_measure_is_the_one_every_analysis_reports() {
    // The spec measures the attacker's win; the run asks for the defender's.
    let dir = TempDir::new("measure");
    let spec = dir.write(
        "ladder.toml",
        r#"
title = "Melee ladder"
question = "How often does the defender win a melee?"
analysis = "ladder"
measure = "winner=attacker"
samples = 2000

[[run]]
ruleset = "hougoumont"
scenario = "melee"
qualities = ["veteran", "experienced"]
measure = "winner=defender"
"#,
    );
    let out = dir.0.join("out");
    volley_ok(&["run", path(&spec), "--out", path(&out), "--quiet"]);
    let md = std::fs::read_to_string(out.join("ladder").join("report.md")).unwrap();
    assert!(md.contains("P(winner = defender)"), "{md}");
    assert!(!md.contains("P(winner = attacker)"), "{md}");
}

#[test]
fn a_runs_own_rules_apply_to_it_alone_and_its_rows_carry_its_label() {
    // An Excellent officer with two Ups: 12, so only the automatic failure
    // of 11-12 stops him (33/36). The second run moves the automatic
    // failure past 12 (13 disables it), so every order succeeds.
    let dir = TempDir::new("variant");
    let spec = dir.write(
        "variant.toml",
        r#"
title = "Automatic failure"
question = "What do 11 and 12 always failing cost an excellent officer?"
analysis = "distribution"
samples = 4000

[[run]]
ruleset = "huzzah"
scenario = "orders"
label = "printed"
set = { rating = 10, shifts = 2 }

[[run]]
ruleset = "huzzah"
scenario = "orders"
label = "no automatic failure"
set = { rating = 10, shifts = 2 }
rules = { automatic_failure_roll = 13 }
"#,
    );
    let out = dir.0.join("out");
    volley_ok(&["run", path(&spec), "--out", path(&out), "--quiet"]);
    let csv = std::fs::read_to_string(out.join("variant").join("data.csv")).unwrap();
    assert!(csv.starts_with("ruleset,scenario,run,metric,value,"), "{csv}");
    let succeeded = |label: &str| -> f64 {
        let row = csv
            .lines()
            .find(|l| l.starts_with(&format!("huzzah,orders,{label},succeeded,true,")))
            .unwrap_or_else(|| panic!("no row for {label}:\n{csv}"));
        row.split(',').nth(6).unwrap().parse().unwrap()
    };
    assert_eq!(succeeded("no automatic failure"), 1.0);
    let printed = succeeded("printed");
    assert!((printed - 33.0 / 36.0).abs() < 0.03, "{printed}");

    let bad = dir.write("bad.toml", &std::fs::read_to_string(&spec).unwrap().replace("= 13 }", "= 14 }"));
    let e = volley_bad_input(&["run", path(&bad), "--out", path(&out), "--quiet"]);
    assert!(e.contains("bad.toml:18:36: [[run]] rules `automatic_failure_roll` = 14 is out of range"), "{e}");
}

#[test]
fn an_exact_spec_prints_exact_probabilities() {
    // P(no success from 3D6 at target t) = ((t-1)/6)^3, solved exactly.
    let dir = TempDir::new("exact");
    let spec = dir.write("exact.toml", &SWEEP.replace("samples = 20000", "exact = true"));
    let out = dir.0.join("out");
    volley_ok(&["run", path(&spec), "--out", path(&out), "--quiet"]);
    let csv = std::fs::read_to_string(out.join("exact").join("data.csv")).unwrap();
    for (target, exact) in [("2", 1.0 / 216.0), ("4", 0.125), ("6", 125.0 / 216.0)] {
        let row = csv.lines().find(|l| l.starts_with(&format!("dice,at_least,{target},successes,0,"))).unwrap();
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields[5], "", "an exact row has no count: {row}");
        assert!((fields[6].parse::<f64>().unwrap() - exact).abs() < 1e-12, "{row}");
        assert_eq!(fields[9], "true", "{row}");
    }
    let md = std::fs::read_to_string(out.join("exact").join("report.md")).unwrap();
    assert!(md.contains("solved exactly"), "{md}");
}

/// Two runs of one fight (the explorer's A and B, downloaded as a spec) are
/// drawn side by side on one chart with a legend naming each, besides each
/// run's own section.
#[test]
fn a_comparison_spec_draws_a_and_b_on_one_chart() {
    let dir = TempDir::new("compare");
    let spec = dir.write(
        "compare.toml",
        r#"
title = "A Trained test and one Down 1"
question = "What does one Down cost a Trained unit's test?"
analysis = "distribution"
exact = true

[[run]]
ruleset = "huzzah"
scenario = "test"
label = "A"
set = { shifts = 0 }

[[run]]
ruleset = "huzzah"
scenario = "test"
label = "B"
set = { shifts = -1 }
"#,
    );
    let out = dir.0.join("out");
    volley_ok(&["run", path(&spec), "--out", path(&out), "--quiet"]);
    let folder = out.join("compare");
    let markdown = std::fs::read_to_string(folder.join("report.md")).unwrap();
    assert!(markdown.contains("## Side by side") && markdown.contains("(side-by-side.svg)"), "{markdown}");
    // Passing: 26 of 36 at Trained, 21 of 36 one step down.
    assert!(markdown.contains("A: passed: false 27.8%, true 72.2%"), "{markdown}");
    assert!(markdown.contains("B: passed: false 41.7%, true 58.3%"), "{markdown}");
    let svg = std::fs::read_to_string(folder.join("side-by-side.svg")).unwrap();
    let texts: Vec<&str> =
        svg.split("<text").skip(1).map(|t| t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].trim()).collect();
    assert!(texts.contains(&"A") && texts.contains(&"B"), "the legend names both runs: {texts:?}");
    // Both runs' bars, in the first two colours of the palette.
    assert!(svg.contains("#0072B2") && svg.contains("#E69F00"), "two colours of bars");
}
