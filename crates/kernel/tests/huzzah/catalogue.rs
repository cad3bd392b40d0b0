//! Every Huzzah! scenario builds from its defaults, lists its documented keys
//! and metrics, runs, and (where cheap) solves exactly.

use volley_kernel::catalogue;
use volley_kernel::runner::RunOptions;

#[test]
fn every_scenario_runs_from_its_defaults() {
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let rules = (huzzah.default_rules)();
    let names: Vec<&str> = huzzah.scenarios.iter().map(|s| s.name).collect();
    for required in ["test", "engagement", "orders", "quality_roll", "assault", "standoff", "skirmish", "bombardment"] {
        assert!(names.contains(&required), "missing scenario {required}");
    }
    for entry in &huzzah.scenarios {
        assert!(entry.params.iter().all(|p| !p.doc.is_empty()), "{}: an undocumented key", entry.name);
        let scenario = entry.build_from_text(rules.as_ref(), []).unwrap();
        assert!(scenario.metrics().iter().all(|m| !m.doc.is_empty()), "{}: an undocumented metric", entry.name);
        let estimate = scenario.simulate(&RunOptions::new(20_000, 5)).unwrap();
        assert_eq!(estimate.samples(), Some(20_000));
        // The brigade's assault at its default 30 turns (two units) is past
        // its solver's limits; its solver is tested on shorter assaults.
        // The assault itself solves its default 30 turns under best play.
        if entry.name == "brigade_assault" {
            assert!(!scenario.has_exact());
        } else {
            let exact = scenario.exact_distribution().unwrap();
            let total: f64 = exact.joint.iter().map(|j| j.probability).sum();
            assert!((total - 1.0).abs() < 1e-12, "{}: exact total {total}", entry.name);
        }
    }
    // Multi-turn scenarios offer the common metrics.
    for name in ["standoff", "assault", "brigade_assault"] {
        let scenario = huzzah.scenario(name).unwrap().build_from_text(rules.as_ref(), [("turns", "2")]).unwrap();
        let metrics: Vec<&str> = scenario.metrics().iter().map(|m| m.name).collect();
        for metric in [
            "winner",
            "turns",
            "attacker_staggers",
            "attacker_kills",
            "defender_staggers",
            "defender_kills",
            "attacker_remaining",
            "defender_remaining",
        ] {
            assert!(metrics.contains(&metric), "{name} lacks {metric}");
        }
    }
    // Every rule field is documented and the rule book accepts its own values back.
    let mut book = rules.clone();
    for field in rules.fields() {
        assert!(!field.doc.is_empty(), "rule {} is undocumented", field.name);
        book.set(&field.name, &field.default).unwrap();
    }
    let interpretations = rules.fields().into_iter().filter(|f| f.doc.starts_with("Interpretation:")).count();
    // Eight, `forced_order_counts` the latest.
    assert_eq!(interpretations, 8);
}
