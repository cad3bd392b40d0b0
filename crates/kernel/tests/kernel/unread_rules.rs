//! The promise of [`reads_rule`](volley_kernel::scenario::Scenario::reads_rule),
//! held: a rule field a scenario says it does not read at its settings,
//! changed to each value the sensitivity study tries and to the ends of its
//! range, gives the same sampled counts from the same seed and the same exact
//! law, to the bit. The sensitivity study takes the baseline's run for such a
//! field without running it, so a false promise would hide a rule that
//! matters.

use volley_kernel::catalogue::{catalogue, ruleset};
use volley_kernel::params::{Param, ParamKind, Value};
use volley_kernel::runner::RunOptions;

/// The values to try for `field`: one step either side and the ends of its
/// range for a number, every other reading of a choice, a switch flipped.
fn alternatives(field: &Param) -> Vec<Value> {
    match (&field.kind, &field.default) {
        (ParamKind::Int { min, max }, Value::Int(current)) => {
            let mut values: Vec<i64> =
                [*min, current - 1, current + 1, *max].into_iter().filter(|v| v != current).collect();
            values.sort_unstable();
            values.dedup();
            values.into_iter().filter(|v| (min..=max).contains(&v)).map(Value::Int).collect()
        }
        (ParamKind::Choice(names), Value::Choice(current)) => {
            names.iter().filter(|&&name| name != current).map(|&name| Value::Choice(name.to_string())).collect()
        }
        (ParamKind::Bool, Value::Bool(current)) => vec![Value::Bool(!current)],
        _ => Vec::new(),
    }
}

/// Checks every promise `scenario` of `ruleset` makes at `settings`:
/// sampled counts (`samples` from one seed) always, the exact law too where
/// `exact` (at one step either side of a number, every other reading, a
/// switch flipped). Returns how many changed values were run.
fn hold_promises(ruleset_name: &str, scenario: &str, settings: &[(&str, &str)], samples: u64, exact: bool) -> usize {
    hold_promises_under(ruleset_name, scenario, &[], settings, samples, exact)
}

/// [`hold_promises`] under the printed rules with `changes` made (an
/// optional rule a setting needs, say): each field is then changed from
/// the value it has there.
fn hold_promises_under(
    ruleset_name: &str,
    scenario: &str,
    changes: &[(&str, &str)],
    settings: &[(&str, &str)],
    samples: u64,
    exact: bool,
) -> usize {
    let set = ruleset(ruleset_name).unwrap();
    let entry = set.scenario(scenario).unwrap();
    let mut rules = (set.default_rules)();
    for &(name, text) in changes {
        rules.set_text(name, text).unwrap_or_else(|e| panic!("rules.{name}: {e}"));
    }
    let base = entry.build_from_text(rules.as_ref(), settings.iter().copied()).unwrap();
    let options = RunOptions::new(samples, 11).with_threads(2);
    let sampled = base.simulate(&options).unwrap();
    let law = if exact { Some(base.exact_distribution().expect("an exact case must solve")) } else { None };
    let mut checked = 0;
    for field in rules.fields() {
        if base.reads_rule(&field.name) {
            continue;
        }
        for value in alternatives(&field) {
            let mut changed = rules.clone_box();
            if changed.set(&field.name, &value).is_err() {
                continue;
            }
            let Ok(other) = entry.build_from_text(changed.as_ref(), settings.iter().copied()) else { continue };
            let what = format!("{ruleset_name} {scenario} {settings:?}: {} = {value}", field.name);
            assert!(!other.reads_rule(&field.name), "{what}: whether the field is read moved with its own value");
            assert_eq!(other.simulate(&options).unwrap(), sampled, "{what}: sampled counts differ");
            // The exact law at the steps the sensitivity study takes (the
            // ends of a range, sampled only, keep the solves few).
            let step = match (&value, &field.default) {
                (Value::Int(v), Value::Int(current)) => v.abs_diff(*current) == 1,
                _ => true,
            };
            if let Some(law) = law.as_ref().filter(|_| step) {
                assert_eq!(other.exact_distribution().as_ref(), Some(law), "{what}: exact law differs");
            }
            checked += 1;
        }
    }
    checked
}

/// Every scenario of every ruleset at its defaults, sampled, with any side
/// that has a policy playing `bold` (best play is held by the exact cases
/// below, where solving stays quick).
#[test]
fn every_scenario_at_its_defaults_changes_nothing_for_a_rule_it_does_not_read() {
    for set in catalogue() {
        for entry in &set.scenarios {
            let bold: Vec<(&str, &str)> = entry
                .params
                .iter()
                .filter(|p| p.name.ends_with(".policy"))
                .map(|p| (p.name.as_str(), "bold"))
                .collect();
            hold_promises(set.name, entry.name, &bold, 2_000, false);
        }
    }
}

/// Hougoumont's assault, whose sensitivity study skips most of the rule
/// book: under best play (exact) at a size that solves quickly, and sampled
/// across the settings that switch its promises (guns of each kind, woods,
/// light troops and rifles, cavalry, a flanked defender, the farm's battery).
#[test]
fn hougoumont_assaults_change_nothing_for_a_rule_they_do_not_read() {
    let small = [("attacker.figures", "6"), ("defender.figures", "5"), ("distance", "14"), ("turns", "8")];
    let mut checked = hold_promises("hougoumont", "assault", &small, 2_000, true);
    let mut farm = small.to_vec();
    farm.push(("attacker.artillery", "flat"));
    checked += hold_promises("hougoumont", "farm_assault", &farm, 2_000, true);
    let bold = [("attacker.policy", "bold"), ("defender.policy", "bold")];
    for extra in [
        &[("defender.guns", "2"), ("defender.artillery", "howitzer")][..],
        &[("ground", "woods"), ("attacker.arm", "light_infantry"), ("defender.troops", "rifles")],
        &[("attacker.arm", "cavalry"), ("attacker.quality", "elite"), ("defender.quality", "inexperienced")],
        &[("defender.flanked", "true"), ("defender.troops", "light"), ("defender.guns", "1")],
    ] {
        let settings: Vec<_> = bold.iter().chain(extra).copied().collect();
        checked += hold_promises("hougoumont", "assault", &settings, 4_000, false);
    }
    for extra in [&[("attacker.crew", "veteran")][..], &[("attacker.crew", "elite"), ("attacker.artillery", "flat")]] {
        let settings: Vec<_> = bold.iter().chain(extra).copied().collect();
        checked += hold_promises("hougoumont", "farm_assault", &settings, 4_000, false);
    }
    // The promises are many: a change that made them all `true` would pass
    // the checks above vacuously.
    assert!(checked > 300, "only {checked} changed values checked");
}

/// Brigades and Batteries' firefight, which reads none of combat, cavalry or
/// the other formations: under best play (exact) at sizes that solve
/// quickly, two battalions on the dense table and a battery on the generic
/// solver, and sampled with both sides bold across the settings that switch
/// its promises (rifles, skirmishers and cover, every grade, the generals,
/// batteries of each weight against infantry and against each other, the
/// two-rank line and nations, surrounded sides, an extended line, shaken
/// units that fire, 7.13).
#[test]
fn brigades_firefights_change_nothing_for_a_rule_they_do_not_read() {
    // 10" from their baselines (24" in the catalogue): the dense table's
    // rooms are what its cost grows with, and a 12" or 18" rout now takes
    // a unit off, a branch the promises must hold on too.
    let small = [
        ("attacker.figures", "6"),
        ("defender.figures", "6"),
        ("attacker.room", "10"),
        ("defender.room", "10"),
        ("turns", "4"),
    ];
    let mut checked = hold_promises("brigades", "firefight", &small, 1_000, true);
    let battery = [
        ("attacker.figures", "5"),
        ("defender.weapon", "field_gun"),
        ("defender.guns", "2"),
        ("defender.figures", "3"),
        ("distance", "8"),
        ("turns", "3"),
    ];
    checked += hold_promises("brigades", "firefight", &battery, 1_000, true);
    // Ten turns of fire, long enough for routs, rallies and shattering.
    let bold = [("attacker.policy", "bold"), ("defender.policy", "bold"), ("turns", "10")];
    let under = |changes: &[(&str, &str)], extra: &[(&str, &str)]| {
        let settings: Vec<_> = bold.iter().chain(extra).copied().collect();
        // A battery's volleys are worked out as laws at every step (not
        // rolled die by die): fewer fights where one fires.
        let battery = extra.iter().any(|(key, value)| key.ends_with(".weapon") && value.ends_with("_gun"));
        hold_promises_under("brigades", "firefight", changes, &settings, if battery { 400 } else { 1_000 }, false)
    };
    for extra in [
        &[
            ("attacker.weapon", "rifle"),
            ("defender.cover", "skirmish"),
            ("attacker.quality", "a"),
            ("defender.quality", "e"),
        ][..],
        &[
            ("attacker.general", "attached"),
            ("defender.general", "attached"),
            ("defender.charisma", "2"),
            ("defender.cover", "hard"),
            ("attacker.quality", "b"),
            ("defender.quality", "f"),
            ("attacker.figures", "12"),
        ],
        &[("attacker.surrounded", "true"), ("defender.surrounded", "true"), ("defender.general", "out_of_radius")],
        &[
            ("attacker.surrounded", "true"),
            ("attacker.quality", "c"),
            ("attacker.figures", "16"),
            ("defender.figures", "12"),
        ],
        &[("attacker.figures", "30"), ("defender.figures", "16")],
        &[
            ("defender.weapon", "heavy_gun"),
            ("defender.guns", "4"),
            ("defender.figures", "8"),
            ("attacker.cover", "soft"),
            ("distance", "10"),
            ("turns", "5"),
        ],
        &[
            ("defender.weapon", "light_gun"),
            ("defender.guns", "2"),
            ("defender.figures", "6"),
            ("attacker.cover", "hard"),
            ("turns", "5"),
        ],
        &[
            ("attacker.weapon", "field_gun"),
            ("attacker.guns", "2"),
            ("attacker.figures", "6"),
            ("defender.weapon", "heavy_gun"),
            ("defender.guns", "2"),
            ("defender.figures", "6"),
            ("distance", "14"),
            ("turns", "5"),
        ],
    ] {
        checked += under(&[], extra);
    }
    let two_rank = [("attacker.two_rank", "true"), ("defender.nation", "britain"), ("defender.cover", "skirmish")];
    checked += under(&[("optional_two_rank_line", "true"), ("optional_national_modifiers", "true")], &two_rank);
    checked += under(&[("shaken_policy", "fire"), ("optional_first_rout_off_table", "true")], &[]);
    checked += under(&[("optional_danger_to_generals", "true")], &[("defender.general", "attached")]);
    // The promises are many: a change that made them all `true` would pass
    // the checks above vacuously.
    assert!(checked > 1_500, "only {checked} changed values checked");
}

/// Huzzah!'s assault, which reads none of the CinC, reorganising, the
/// skirmish rolls or the quality table, and an arm's, formation's, officer's
/// or battery's numbers only where the assault has them: under best play
/// (exact), a column on a line for one turn from inside its threat zone
/// (threat tests, orders, contact, the engagement and the rally, each side
/// phasing, at about a seventeenth of two turns' solves from 4 bands, which promise
/// the same fields), cavalry on a column that forms square over two turns,
/// and sampled with both sides bold across the settings that
/// switch its promises (cavalry of each kind and formation, batteries of
/// each weight, squares, small units, officers, favourable ground,
/// brigades and their checks, skirmisher superiority).
#[test]
fn huzzah_assaults_change_nothing_for_a_rule_they_do_not_read() {
    let small = [("turns", "1"), ("distance", "3")];
    let mut checked = hold_promises("huzzah", "assault", &small, 2_000, true);
    let cavalry = [
        ("attacker.arm", "cavalry"),
        ("attacker.formation", "column"),
        ("defender.formation", "column"),
        ("distance", "6"),
        ("turns", "2"),
    ];
    checked += hold_promises("huzzah", "assault", &cavalry, 2_000, true);
    let bold = [("attacker.policy", "bold"), ("defender.policy", "bold"), ("turns", "10")];
    for extra in [
        &[
            ("attacker.arm", "cavalry"),
            ("attacker.formation", "column"),
            ("attacker.cavalry", "battle"),
            ("attacker.officer", "inspirational"),
            ("defender.formation", "square"),
        ][..],
        &[
            ("defender.arm", "artillery"),
            ("defender.guns", "light"),
            ("attacker.small", "true"),
            ("attacker.formation", "line"),
            ("distance", "14"),
        ],
        &[
            ("defender.arm", "artillery"),
            ("defender.guns", "heavy"),
            ("attacker.arm", "cavalry"),
            ("attacker.formation", "line"),
            ("attacker.cavalry", "pursuit"),
            ("distance", "20"),
        ],
        &[("defender.arm", "artillery"), ("attacker.favourable", "true"), ("attacker.in_command", "false")],
        &[
            ("defender.arm", "cavalry"),
            ("defender.formation", "column"),
            ("attacker.formation", "line"),
            ("attacker.brigade", "1"),
            ("defender.favourable", "true"),
        ],
        &[
            ("skirmish", "attacker"),
            ("defender.formation", "column"),
            ("attacker.brigade", "3"),
            ("attacker.brigade_lost", "1"),
            ("attacker.favourable", "true"),
            ("defender.officer", "attached"),
        ],
        &[
            ("attacker.arm", "cavalry"),
            ("attacker.formation", "column"),
            ("defender.arm", "cavalry"),
            ("defender.cavalry", "battle"),
            ("defender.small", "true"),
            ("defender.brigade", "2"),
            ("defender.last_check", "failed"),
        ],
        // Without `defender.orders` the defender never orders an advance
        // (its inspirational officer's Up) nor re-forms line from square.
        &[
            ("attacker.arm", "cavalry"),
            ("attacker.formation", "column"),
            ("defender.formation", "square"),
            ("defender.officer", "inspirational"),
        ],
    ] {
        let settings: Vec<_> = bold.iter().chain(extra).copied().collect();
        checked += hold_promises("huzzah", "assault", &settings, 2_000, false);
    }
    // The promises are many: a change that made them all `true` would pass
    // the checks above vacuously.
    assert!(checked > 2_000, "only {checked} changed values checked");
}
