//! The keys users type, through the catalogue, and the rule book's reflection.

use expect_test::expect;
use volley_kernel::catalogue::ruleset;
use volley_kernel::params::RuleBook;
use volley_kernel::rulesets::one_hour::Rules;

#[test]
fn shoot_and_charge_build_from_the_keys_users_type() {
    let one_hour = ruleset("one_hour").unwrap();
    let rules = (one_hour.default_rules)();
    let shoot = one_hour
        .scenario("shoot")
        .unwrap()
        .build_from_text(
            rules.as_ref(),
            [
                ("shooter", "artillery"),
                ("range", "3"),
                ("double", "true"),
                ("target", "light_infantry"),
                ("reroll_miss", "false"),
            ],
        )
        .unwrap();
    // 4D6 at 5+ (light infantry halves artillery fire by the five_plus reading): mean 4/3.
    let exact = shoot.exact_distribution().unwrap();
    assert!((exact.mean("hits") - 4.0 / 3.0).abs() < 1e-12);
    let charge = one_hour
        .scenario("charge")
        .unwrap()
        .build_from_text(
            rules.as_ref(),
            [("charger", "heavy_cavalry"), ("target", "artillery"), ("target_in_cover", "true"), ("shock", "true")],
        )
        .unwrap();
    // 3D6 + 1 shock die at 3+: mean 8/3.
    assert!((charge.exact_distribution().unwrap().mean("hits") - 8.0 / 3.0).abs() < 1e-12);
    let error =
        one_hour.scenario("shoot").unwrap().build_from_text(rules.as_ref(), [("shooter", "cavalry")]).err().unwrap();
    assert!(error.to_string().contains("shooter"), "{error}");
}

#[test]
fn every_interpretation_is_a_documented_field() {
    let fields = Rules::default().fields();
    for name in [
        "light_infantry_half_hits",
        "light_infantry_charged",
        "charge_scores",
        "line_infantry_pivot",
        "leader_loss",
        "leader_risk",
        "doubling",
        "column_exit",
        "surviving_leader",
        "commander_leads",
        "square_after_fire",
        "leader_morale_bonus",
        "single_source",
        "leader_leaves",
    ] {
        let field = fields.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no field {name}"));
        assert!(field.doc.starts_with("Interpretation:"), "{name}: {}", field.doc);
    }
    // Printed numbers at their printed values.
    let rules = Rules::default();
    assert_eq!((rules.score_full, rules.score_half, rules.score_quarter), (3, 5, 6));
    assert_eq!((rules.hits_excellent, rules.hits_good, rules.hits_poor, rules.hits_old_guard), (7, 6, 5, 8));
    assert_eq!((rules.retreat_hits, rules.conscript_retreat_hits), (3, 2));
    assert_eq!((rules.leader_risk_rout_roll, rules.leader_retire_boxes), (1, 1));
}

#[test]
fn duels_build_from_the_keys_users_type() {
    let one_hour = ruleset("one_hour").unwrap();
    let rules = (one_hour.default_rules)();
    for (name, pairs) in [
        (
            "firefight",
            vec![
                ("attacker.quality", "old_guard"),
                ("defender.type", "rifles"),
                ("range", "2"),
                ("attacker.leader", "true"),
                ("attacker.policy", "cautious"),
            ],
        ),
        (
            "cavalry_charge",
            vec![
                ("attacker.type", "heavy_cavalry"),
                ("attacker.impetuous", "true"),
                ("defender.hits", "4"),
                ("first", "defender"),
            ],
        ),
        (
            "grand_battery",
            vec![("attacker.type", "cavalry"), ("range", "8"), ("defender.commander", "reille"), ("turns", "10")],
        ),
    ] {
        let scenario = one_hour.scenario(name).unwrap().build_from_text(rules.as_ref(), pairs).unwrap();
        let names: Vec<&str> = scenario.metrics().iter().map(|m| m.name).collect();
        assert_eq!(names[..4], ["winner", "turns", "attacker_remaining", "defender_remaining"], "{name}");
        let exact = scenario.exact_distribution().unwrap();
        let total: f64 = exact.joint.iter().map(|j| j.probability).sum();
        assert!((total - 1.0).abs() < 1e-9, "{name}: {total}");
    }
    // Every quality the analysis crate sweeps, and the strength override.
    let firefight = one_hour.scenario("firefight").unwrap();
    for quality in ["excellent", "good", "poor", "old_guard"] {
        assert!(firefight.build_from_text(rules.as_ref(), [("defender.quality", quality)]).is_ok());
    }
    let error = firefight.build_from_text(rules.as_ref(), [("attacker.type", "cavalry")]).err().unwrap();
    assert!(error.to_string().contains("attacker.type"), "{error}");
    let error = one_hour
        .scenario("grand_battery")
        .unwrap()
        .build_from_text(rules.as_ref(), [("defender.type", "rifles")])
        .err()
        .unwrap();
    assert!(error.to_string().contains("defender.type"), "{error}");
    // A one-hit Old Guard override: hits 1, so 100% or 0% remaining only.
    let dist = firefight
        .build_from_text(rules.as_ref(), [("attacker.hits", "1"), ("defender.hits", "1"), ("range", "2")])
        .unwrap()
        .exact_distribution()
        .unwrap();
    assert!(
        (dist.probability("attacker_remaining", 100) + dist.probability("attacker_remaining", 0) - 1.0).abs() < 1e-12
    );
}

#[test]
fn second_line_builds_from_the_keys_users_type() {
    let one_hour = ruleset("one_hour").unwrap();
    let rules = (one_hour.default_rules)();
    let entry = one_hour.scenario("second_line").unwrap();
    let scenario = entry
        .build_from_text(
            rules.as_ref(),
            [
                ("attacker.type", "heavy_cavalry"),
                ("attacker.leader", "true"),
                ("depth", "3"),
                ("second.column", "true"),
                ("second.type", "artillery"),
                ("defender.policy", "bold"),
                ("turns", "10"),
            ],
        )
        .unwrap();
    let names: Vec<&str> = scenario.metrics().iter().map(|m| m.name).collect();
    assert_eq!(
        names,
        [
            "winner",
            "turns",
            "attacker_remaining",
            "defender_remaining",
            "lines_broken",
            "attacker_leader_lost",
            "defender_leader",
            "ended"
        ]
    );
    let exact = scenario.exact_distribution().unwrap();
    let total: f64 = exact.joint.iter().map(|j| j.probability).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    // Without a first-line leader there is no leader metric; the second line has no leader key.
    let scenario = entry.build_from_text(rules.as_ref(), [("defender.leader", "false")]).unwrap();
    assert_eq!(scenario.metrics().len(), 6);
    let error = entry.build_from_text(rules.as_ref(), [("second.leader", "true")]).err().unwrap();
    assert!(error.to_string().contains("unknown key `second.leader`"), "{error}");
    let error = entry.build_from_text(rules.as_ref(), [("depth", "9")]).err().unwrap();
    assert!(error.to_string().contains("depth"), "{error}");
}

#[test]
fn brigade_fire_builds_from_the_keys_users_type() {
    let one_hour = ruleset("one_hour").unwrap();
    let rules = (one_hour.default_rules)();
    let entry = one_hour.scenario("brigade_fire").unwrap();
    let scenario = entry
        .build_from_text(
            rules.as_ref(),
            [
                ("support.type", "line_infantry"),
                ("support.range", "3"),
                ("support.leader", "true"),
                ("defender.conscript", "true"),
                ("defender.leader", "true"),
                ("attacker.policy", "bold"),
                ("turns", "10"),
            ],
        )
        .unwrap();
    let names: Vec<&str> = scenario.metrics().iter().map(|m| m.name).collect();
    assert_eq!(
        names,
        [
            "winner",
            "turns",
            "attacker_remaining",
            "defender_remaining",
            "attackers_routed",
            "support_leader_lost",
            "defender_leader_lost",
            "ended"
        ]
    );
    let exact = scenario.exact_distribution().unwrap();
    let total: f64 = exact.joint.iter().map(|j| j.probability).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    let decisions: Vec<&str> = scenario.decisions().iter().map(|d| d.name).collect();
    assert_eq!(decisions, ["volley", "target", "move", "square", "leader"]);
}

/// The exact answers of the multi-turn scenarios at their defaults, pinned:
/// a change to any rule's code shows up here (Monte Carlo agreement with the
/// same solver is checked in `duel`).
#[test]
fn default_duels_are_pinned() {
    let one_hour = ruleset("one_hour").unwrap();
    let rules = (one_hour.default_rules)();
    let mut lines = Vec::new();
    for name in ["firefight", "cavalry_charge", "grand_battery", "second_line", "brigade_fire"] {
        let scenario = one_hour.scenario(name).unwrap().build_from_text(rules.as_ref(), []).unwrap();
        let exact = scenario.exact_distribution().unwrap();
        lines.push(format!(
            "{name}: attacker {:.6} defender {:.6} none {:.6}; turns {:.4}; remaining {:.3} / {:.3}",
            exact.probability("winner", 0),
            exact.probability("winner", 1),
            exact.probability("winner", 2),
            exact.mean("turns"),
            exact.mean("attacker_remaining"),
            exact.mean("defender_remaining"),
        ));
    }
    let second_line = one_hour.scenario("second_line").unwrap().build_from_text(rules.as_ref(), []).unwrap();
    let exact = second_line.exact_distribution().unwrap();
    let shares = |metric: &str, values: std::ops::Range<i64>| -> String {
        values.map(|v| format!("{:.6}", exact.probability(metric, v))).collect::<Vec<_>>().join(" ")
    };
    lines.push(format!(
        "second_line: lines_broken {}; defender_leader {}",
        shares("lines_broken", 0..3),
        shares("defender_leader", 0..4)
    ));
    let brigade = one_hour.scenario("brigade_fire").unwrap().build_from_text(rules.as_ref(), []).unwrap();
    let exact = brigade.exact_distribution().unwrap();
    let routed: Vec<String> = (0..4).map(|v| format!("{:.9}", exact.probability("attackers_routed", v))).collect();
    lines.push(format!("brigade_fire: attackers_routed {}", routed.join(" ")));
    expect![[r#"
        firefight: attacker 0.668534 defender 0.331466 none 0.000000; turns 4.5439; remaining 30.523 / 10.343
        cavalry_charge: attacker 0.000000 defender 1.000000 none 0.000000; turns 1.0000; remaining 100.000 / 100.000
        grand_battery: attacker 0.002595 defender 0.997405 none 0.000000; turns 5.0002; remaining 0.052 / 92.302
        second_line: attacker 0.074811 defender 0.925189 none 0.000000; turns 12.9814; remaining 1.447 / 33.214
        brigade_fire: attacker 1.000000 defender 0.000000 none 0.000000; turns 2.3997; remaining 94.801 / 0.000
        second_line: lines_broken 0.125537 0.799652 0.074811; defender_leader 0.097231 0.202098 0.672884 0.027786
        brigade_fire: attackers_routed 0.999966372 0.000033567 0.000000001 0.000000060"#]]
    .assert_eq(&lines.join("\n"));
}

/// The same seed gives the same samples: pinned Monte Carlo counts, so a
/// change to how the scenarios draw their dice shows up.
#[test]
fn monte_carlo_counts_are_pinned_for_a_seed() {
    use volley_kernel::runner::RunOptions;
    let one_hour = ruleset("one_hour").unwrap();
    let rules = (one_hour.default_rules)();
    let mut lines = Vec::new();
    for (name, metric) in [("shoot", "hits"), ("charge", "hits"), ("firefight", "winner"), ("cavalry_charge", "winner")]
    {
        let scenario = one_hour.scenario(name).unwrap().build_from_text(rules.as_ref(), []).unwrap();
        let dist = scenario.simulate(&RunOptions::new(10_000, 2024).with_threads(2)).unwrap();
        let index = dist.metric_index(metric).unwrap();
        let counts: Vec<String> =
            dist.marginal(index).iter().map(|row| format!("{}={}", row.value, row.count)).collect();
        lines.push(format!("{name} {metric}: {}", counts.join(" ")));
    }
    expect![[r#"
        shoot hits: 0=374 1=2188 2=4465 3=2973
        charge hits: 0=374 1=2188 2=4465 3=2973
        firefight winner: 0=6706 1=3294 2=0
        cavalry_charge winner: 0=0 1=10000 2=0"#]]
    .assert_eq(&lines.join("\n"));
}

/// Keys a scenario accepts but does not read at its settings are named,
/// with why (the outputs print them as not read here), and each one named
/// truly changes nothing: set otherwise, the exact law is the same.
#[test]
fn keys_not_read_at_their_settings_are_named() {
    let one_hour = ruleset("one_hour").unwrap();
    let rules = (one_hour.default_rules)();
    let build = |scenario: &str, pairs: &[(&str, &str)]| {
        one_hour.scenario(scenario).unwrap().build_from_text(rules.as_ref(), pairs.iter().copied()).unwrap()
    };
    // (scenario, keys set, keys named as not read, keys read)
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a [&'a str], &'a [&'a str]);
    let cases: &[Case] = &[
        // Two lines: nobody charges, nobody is charged, infantry fire never
        // doubles against a flank.
        (
            "firefight",
            &[("turns", "3")],
            &[
                "attacker.shock",
                "attacker.impetuous",
                "attacker.in_cover",
                "attacker.flank",
                "defender.shock",
                "defender.impetuous",
                "defender.flank",
            ],
            &["attacker.conscript", "attacker.quality", "defender.steadfast"],
        ),
        // Cavalry never shoots, so the line never retreats; line infantry
        // pivots to face a flank charge (line_infantry_pivot = always).
        (
            "cavalry_charge",
            &[("turns", "3")],
            &["defender.conscript", "defender.steadfast", "attacker.flank", "defender.shock", "defender.in_cover"],
            &["attacker.shock", "attacker.impetuous", "attacker.conscript"],
        ),
        // Guns are spared by cover only against cavalry; they double against a
        // line's flank.
        ("grand_battery", &[("turns", "3")], &["defender.in_cover", "attacker.flank"], &["defender.flank"]),
        (
            "grand_battery",
            &[("turns", "3"), ("attacker.type", "cavalry")],
            &["attacker.in_cover", "defender.conscript"],
            &["defender.in_cover", "attacker.flank", "defender.flank", "attacker.shock"],
        ),
        (
            "second_line",
            &[("turns", "3"), ("attacker.hits", "5")],
            &["attacker.quality", "attacker.shock", "second.impetuous", "second.flank"],
            &["defender.quality", "second.quality", "second.conscript"],
        ),
        (
            "brigade_fire",
            &[("turns", "3"), ("defender.steadfast", "true")],
            &["defender.conscript", "support.shock", "support.in_cover", "attacker.flank", "defender.impetuous"],
            &["support.flank", "attacker.conscript", "defender.steadfast"],
        ),
        ("shoot", &[("shooter", "artillery")], &["target_in_town"], &["target_conscript", "double"]),
        ("shoot", &[("target_steadfast", "true")], &["target_conscript"], &["target_in_town"]),
        (
            "charge",
            &[("target", "light_infantry")],
            &["flank", "target_column", "target_in_cover", "target_shock"],
            &["shock", "effect"],
        ),
        (
            "charge",
            &[("target", "artillery"), ("target_in_cover", "true")],
            &["target_shock"],
            &["flank", "target_column", "target_in_cover"],
        ),
        ("charge", &[("target", "line_infantry"), ("target_in_town", "true")], &["effect", "flank"], &["shock"]),
    ];
    for &(scenario, pairs, unread, read) in cases {
        let base = build(scenario, pairs);
        let named = base.unread_keys();
        let keys: Vec<&str> = named.iter().map(|(key, _)| key.as_str()).collect();
        for key in unread {
            assert!(keys.contains(key), "{scenario} {pairs:?}: {key} not named in {keys:?}");
        }
        for key in read {
            assert!(!keys.contains(key), "{scenario} {pairs:?}: {key} named in {keys:?}");
        }
        assert!(named.iter().all(|(_, why)| !why.is_empty()));
        // Each key named, set otherwise, changes nothing.
        let law = base.exact_distribution().unwrap();
        for key in keys {
            let now = pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
            let other = match key.rsplit('.').next().unwrap() {
                "quality" => "excellent",
                "effect" => "half",
                _ if now == Some("true") => "false",
                _ => "true",
            };
            let mut changed: Vec<(&str, &str)> = pairs.iter().copied().filter(|(k, _)| *k != key).collect();
            changed.push((key, other));
            // A setting the rules forbid here is refused, naming the key.
            match one_hour.scenario(scenario).unwrap().build_from_text(rules.as_ref(), changed.iter().copied()) {
                Ok(changed) => {
                    let changed_law = changed.exact_distribution().unwrap();
                    assert_eq!(changed_law, law, "{scenario} {pairs:?}: {key} = {other} changed the law");
                }
                Err(error) => assert!(error.to_string().contains(key), "{scenario}: {key} = {other}: {error}"),
            }
        }
    }
}
