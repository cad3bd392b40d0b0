//! Every result says how it was made: `dist` in each format, and the Method
//! section of every kind of report, including a changed rule; and the
//! user guide's spec runs as documented.

use super::{TempDir, path, volley_ok};

#[test]
fn dist_records_keys_rules_method_seed_and_version_in_every_format() {
    let dir = TempDir::new("dist-provenance");
    let rules = dir.write("r.toml", "[huzzah]\nrating_full_trained = 10\n");
    let args = |format: &'static str| {
        vec![
            "dist",
            "huzzah",
            "test",
            "--set",
            "quality=green",
            "--rules",
            path(&rules),
            "--samples",
            "5000",
            "--seed",
            "7",
            "--format",
            format,
        ]
    };
    let version = env!("CARGO_PKG_VERSION");
    let table = volley_ok(&args("table"));
    let csv = volley_ok(&args("csv"));
    for (text, prefix) in [(&table, ""), (&csv, "# ")] {
        for line in [
            "ruleset: huzzah".to_string(),
            "scenario: test".to_string(),
            "keys set: quality=green".to_string(),
            "rules: rating_full_trained=10 (printed 8)".to_string(),
            "computed: Monte Carlo, 5000 samples per point, seed 7".to_string(),
            "confidence: 95%".to_string(),
            format!("volley: {version}"),
        ] {
            let wanted = if prefix.is_empty() {
                // The table aligns its labels: `label   value`.
                let (label, value) = line.split_once(": ").unwrap();
                text.lines().any(|l| l.starts_with(label) && l.ends_with(value) && l.contains("  ")).then_some(())
            } else {
                text.lines().any(|l| l == format!("{prefix}{line}")).then_some(())
            };
            assert!(wanted.is_some(), "`{line}` missing from:\n{text}");
        }
    }
    let json: serde_json::Value = serde_json::from_str(&volley_ok(&args("json"))).unwrap();
    let record = &json["provenance"];
    assert_eq!(record["keys_set"]["quality"], "green");
    assert_eq!(record["rules_changed"][0]["field"], "rating_full_trained");
    assert_eq!(record["rules_changed"][0]["value"], "10");
    assert_eq!(record["rules_changed"][0]["printed"], "8");
    assert_eq!((record["seed"].as_u64(), record["samples"].as_u64()), (Some(7), Some(5000)));
    assert_eq!(record["exact"], false);
    assert_eq!(record["volley_version"], version);

    let exact = volley_ok(&["dist", "huzzah", "test", "--exact", "--format", "csv"]);
    assert!(exact.contains("# computed: exact"), "{exact}");
    assert!(exact.contains("# rules: the printed rules (no field changed)"), "{exact}");
    // Exact values print to 12 significant digits, sampled ones as one
    // division of their count: no float noise either way.
    assert!(exact.contains("passed,true,0.722222222222,"), "{exact}");
    assert!(csv.lines().filter(|l| !l.starts_with('#')).skip(1).all(|l| {
        let f: Vec<&str> = l.split(',').collect();
        let (p, count): (f64, f64) = (f[2].parse().unwrap(), f[5].parse().unwrap());
        p == count / 5000.0 && f[2].len() <= 8
    }));
}

/// One small spec per kind of analysis, each under a changed rule.
const KINDS: [(&str, &str); 6] = [
    ("distribution", "[[run]]\nruleset = \"huzzah\"\nscenario = \"engagement\"\n"),
    ("ladder", "[[run]]\nruleset = \"huzzah\"\nscenario = \"engagement\"\nqualities = [\"veteran\", \"green\"]\n"),
    (
        "sweep",
        "measure = \"result=attacker\"\n[[run]]\nruleset = \"huzzah\"\nscenario = \"engagement\"\nkey = \"attacker.shifts\"\nvalues = [0, 1]\n",
    ),
    (
        "equivalence",
        "[[run]]\nruleset = \"huzzah\"\nscenario = \"engagement\"\nkey = \"attacker.shifts\"\nrange = [-3, 3]\n",
    ),
    ("convergence", "[[run]]\nruleset = \"huzzah\"\nscenario = \"engagement\"\n"),
    ("sensitivity", "[[run]]\nruleset = \"huzzah\"\nscenario = \"test\"\nmeasure = \"passed=true\"\n"),
];

#[test]
fn every_kind_of_report_records_how_it_was_made_including_a_changed_rule() {
    let dir = TempDir::new("report-provenance");
    let out = dir.0.join("out");
    for (kind, runs) in KINDS {
        let text = format!(
            "title = \"{kind}\"\nquestion = \"q\"\nanalysis = \"{kind}\"\nsamples = 3000\nseed = 5\n{runs}\n\
             [rules.huzzah]\nrating_full_trained = 10\n"
        );
        let spec = dir.write(&format!("{kind}.toml"), &text);
        volley_ok(&["run", path(&spec), "--out", path(&out), "--quiet"]);
        let md = std::fs::read_to_string(out.join(kind).join("report.md")).unwrap();
        let method = md.split("## Method").nth(1).unwrap_or_else(|| panic!("{kind}: no Method section:\n{md}"));
        for wanted in [
            "ruleset: huzzah",
            "rules: rating_full_trained=10 (printed 8)",
            "seed 5",
            "confidence: 95%",
            concat!("volley: ", env!("CARGO_PKG_VERSION")),
        ] {
            assert!(method.contains(wanted), "{kind}: `{wanted}` missing from the method:\n{method}");
        }
        assert!(method.contains("Monte Carlo, ") || method.contains("exact"), "{kind}: {method}");
    }
}

#[test]
fn a_precision_run_records_its_precision_and_the_samples_it_used() {
    let dir = TempDir::new("precision-provenance");
    let spec = dir.write(
        "p.toml",
        "title = \"t\"\nquestion = \"q\"\nanalysis = \"distribution\"\nprecision = 0.02\n\
         [[run]]\nruleset = \"huzzah\"\nscenario = \"test\"\nset = { quality = \"raw\" }\n",
    );
    let out = dir.0.join("out");
    volley_ok(&["run", path(&spec), "--out", path(&out), "--quiet"]);
    let md = std::fs::read_to_string(out.join("p").join("report.md")).unwrap();
    assert!(md.contains("keys set: quality=raw"), "{md}");
    assert!(md.contains("within ±0.02"), "{md}");
    // The exact answer, computed to check the samples, is in the data too.
    let csv = std::fs::read_to_string(out.join("p").join("data.csv")).unwrap();
    assert!(csv.lines().any(|l| l.starts_with("huzzah,test,passed,true,,") && l.ends_with(",true")), "{csv}");
    assert!(csv.lines().any(|l| l.starts_with("huzzah,test,passed,true,") && l.ends_with(",false")), "{csv}");
}

/// The user's guide's example spec, which this test reads from docs/guide.md itself so
/// the two cannot drift apart.
fn readme_spec() -> String {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/guide.md")).unwrap();
    let start = readme.find("```toml\ntitle = ").expect("docs/guide.md has an example spec");
    let body = &readme[start + "```toml\n".len()..];
    body[..body.find("```").unwrap()].to_string()
}

#[test]
fn the_readmes_example_spec_runs_and_its_quality_map_applies() {
    let dir = TempDir::new("readme-spec");
    let text = readme_spec();
    assert!(text.contains("[quality_map.brigades]"), "the example shows a quality map:\n{text}");
    let spec = dir.write("readme.toml", &text);
    let out = dir.0.join("out");
    volley_ok(&["run", path(&spec), "--out", path(&out), "--samples", "4000", "--quiet"]);
    // The map reads canonical `elite` as Brigades' B, so an elite and a
    // veteran attacker (B by default) fight the same fight with the same
    // dice: their rows match count for count.
    let csv = std::fs::read_to_string(out.join("readme").join("data.csv")).unwrap();
    let rows = |quality: &str| -> Vec<String> {
        csv.lines()
            .filter(|l| l.contains(&format!(",{quality},winner,")))
            .map(|l| l.split_once(&format!(",{quality},")).unwrap().1.to_string())
            .collect()
    };
    assert!(!rows("elite").is_empty(), "{csv}");
    assert_eq!(rows("elite"), rows("veteran"));
    assert_ne!(rows("veteran"), rows("raw"));
    let md = std::fs::read_to_string(out.join("readme").join("report.md")).unwrap();
    assert!(md.contains("musket_close_normal=6 (printed"), "the guide's rule override is recorded:\n{md}");
}

#[test]
fn dist_csv_names_the_policy_played_where_best_play_is_beyond_the_solver() {
    // Cavalry's assault is solved up to 3 turns: over 80 both sides play
    // the game's fallback, bold, and the CSV says so under the keys.
    let csv = |set: &[&str]| {
        let mut args =
            vec!["dist", "huzzah", "assault", "--samples", "200", "--format", "csv", "--set", "attacker.arm=cavalry"];
        for pair in set {
            args.extend(["--set", pair]);
        }
        volley_ok(&args)
    };
    let comments =
        |text: &str| -> Vec<String> { text.lines().filter(|l| l.starts_with("# ")).map(str::to_string).collect() };
    let beyond = comments(&csv(&["turns=80"]));
    let policies = beyond.iter().position(|l| l == "# policies: attacker.policy=best, defender.policy=best").unwrap();
    assert_eq!(
        beyond[policies + 1],
        "# played: attacker bold (best asked; beyond the solver here), defender bold (best asked; beyond the solver \
         here)"
    );
    // A side that asked for bold played what it asked: only the other is named.
    let one = comments(&csv(&["turns=80", "defender.policy=bold"]));
    assert!(one.contains(&"# played: attacker bold (best asked; beyond the solver here)".to_string()), "{one:?}");
    // Within the solver's reach, best is played as asked and there is no such line.
    let solved = comments(&csv(&["turns=2"]));
    assert!(solved.iter().all(|l| !l.starts_with("# played")), "{solved:?}");
    // A column's assault on a line: the line has no decision to take (no
    // order of its own, no cavalry to form square against), and the CSV
    // says so rather than that it played its best.
    let column = volley_ok(&["dist", "huzzah", "assault", "--set", "turns=2", "--format", "csv"]);
    assert!(
        comments(&column)
            .contains(&"# played: defender takes no decision at these settings (its policy changes nothing)".into()),
        "{column}"
    );
    // The brigade's assault of two units is beyond the solver at its
    // defaults; the table shows the same line among its provenance.
    let table = volley_ok(&["dist", "huzzah", "brigade_assault", "--samples", "200"]);
    assert!(
        table.lines().any(|l| l.starts_with("played ")
            && l.ends_with(
                "attacker bold (best asked; beyond the solver here), defender bold (best asked; beyond the solver here)"
            )),
        "{table}"
    );
}

#[test]
fn a_changed_rule_the_scenario_does_not_read_is_named() {
    // Issue 34, item 7: Hougoumont's guns never move in its assaults, so a
    // changed `move_artillery` is named under "not read here" (and in JSON
    // under `not_read`), while a rule field the assault reads is not.
    let dir = TempDir::new("dist-unread-rule");
    let rules = dir.write("r.toml", "[hougoumont]\nmove_artillery = 6\nmorale_threshold = 11\n");
    let args = |format: &'static str| {
        vec![
            "dist",
            "hougoumont",
            "assault",
            "--set",
            "attacker.figures=4",
            "--set",
            "defender.figures=4",
            "--set",
            "turns=3",
            "--rules",
            path(&rules),
            "--exact",
            "--format",
            format,
        ]
    };
    let table = volley_ok(&args("table"));
    let line = table.lines().find(|l| l.starts_with("not read here")).unwrap_or_else(|| panic!("{table}"));
    assert!(line.contains("rules.move_artillery (a rule field this scenario does not read"), "{line}");
    assert!(!line.contains("morale_threshold"), "{line}");
    let json: serde_json::Value = serde_json::from_str(&volley_ok(&args("json"))).unwrap();
    let not_read = &json["provenance"]["not_read"];
    assert!(not_read.get("rules.move_artillery").is_some(), "{not_read}");
    assert!(not_read.get("rules.morale_threshold").is_none(), "{not_read}");
}
