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
