//! Balance analytics on the synthetic duel and shot, whose answers are exact.

use crate::synthetic::{Duel, Shot, ShotRules, duel_entry, duel_rules, shot_entry};
use volley_analysis::balance::{
    Experiment, Measure, convergence, default_sample_counts, quality_ladder, sensitivity, sweep,
};
use volley_analysis::frame::long_frame;
use volley_kernel::params::{RuleBook, Value};
use volley_kernel::runner::RunOptions;

fn duel(samples: u64) -> Experiment {
    Experiment::from_parts("synthetic", &duel_entry(), duel_rules(), RunOptions::new(samples, 42).with_threads(2))
}

fn shot(samples: u64) -> Experiment {
    Experiment::from_parts("synthetic", &shot_entry(), Box::new(ShotRules::default()), RunOptions::new(samples, 9))
}

/// Whether an estimate is within 4.5 standard errors of the truth.
fn close(estimate: f64, standard_error: f64, truth: f64) -> bool {
    (estimate - truth).abs() <= 4.5 * standard_error.max(1e-12)
}

#[test]
fn the_ladder_matches_the_exact_duel_in_every_cell() {
    let ladder = quality_ladder(&duel(50_000), None, None).unwrap();
    assert_eq!(ladder.qualities, ["veteran", "trained", "green"]);
    assert_eq!(ladder.measure, Measure::probability("winner", "attacker"));
    assert_eq!(ladder.runs.len(), 9);
    let worth = [3, 2, 1];
    for (a, row) in ladder.cells.iter().enumerate() {
        for (d, cell) in row.iter().enumerate() {
            let truth = Duel::attacker_wins(4 * worth[a], 4 * worth[d]);
            assert!(close(cell.value, cell.standard_error, truth), "cell {a},{d}: {cell:?} vs {truth}");
            assert!(cell.ci_low < cell.value && cell.value < cell.ci_high);
        }
    }
    let frame = ladder.frame().unwrap();
    assert_eq!(frame.height(), 9);
    assert_eq!(long_frame(&ladder.runs, 0.95).unwrap().height(), 9 * 3);
}

#[test]
fn sensitivity_ranks_the_bonus_over_the_target_over_nothing() {
    let result = sensitivity(&shot(200_000), &Measure::probability("hit", "true")).unwrap();
    let baseline = Shot::hit_chance(&ShotRules::default());
    assert!(close(result.baseline.value, result.baseline.standard_error, baseline));
    let order: Vec<&str> = result.rows.iter().map(|r| r.field.as_str()).collect();
    assert_eq!(order, ["bonus", "hit_target", "irrelevant", "limit"]);
    for row in &result.rows {
        for change in [row.down, row.up].into_iter().flatten() {
            let mut rules = ShotRules::default();
            rules.set(&row.field, &Value::Int(change.value)).unwrap();
            let truth = Shot::hit_chance(&rules) - baseline;
            // The runs share their dice, so a change the rules do not make is
            // exactly zero, and a real one is well inside its (wide) interval.
            assert!(
                change.ci_low <= truth && truth <= change.ci_high,
                "{}={}: {change:?} vs {truth}",
                row.field,
                change.value
            );
        }
    }
    assert_eq!(result.rows[2].largest_change(), 0.0);
    // The switch is the one other reading: on, it is one more step of bonus.
    assert_eq!(result.alternatives.len(), 1);
    let switched = &result.alternatives[0];
    assert_eq!(
        (switched.field.as_str(), switched.baseline.as_str(), switched.value.as_str()),
        ("switch", "false", "true")
    );
    let mut rules = ShotRules::default();
    rules.set("switch", &Value::Bool(true)).unwrap();
    let truth = Shot::hit_chance(&rules) - baseline;
    assert!((truth - 2.0 / 12.0).abs() < 1e-12);
    assert!(switched.ci_low <= truth && truth <= switched.ci_high, "{switched:?} vs {truth}");
    assert_eq!(result.alternatives_frame().unwrap().height(), 1);
    let skipped: Vec<(&str, &str)> = result.skipped.iter().map(|s| (s.field.as_str(), s.value.as_str())).collect();
    assert_eq!(skipped, [("limit", "6")]);
    assert!(result.skipped[0].reason.contains("at most 5"), "{}", result.skipped[0].reason);
    assert_eq!(result.frame().unwrap().height(), 7);
    assert!(
        result.finding().starts_with("bonus moves the chance of a hit most: one step from its printed ")
            && result.finding().contains("moves it up to 16.7 percentage points"),
        "{}",
        result.finding()
    );
    assert!(result.finding().contains("; next is hit_target."), "{}", result.finding());
    assert!(
        result.finding().ends_with(
            "Of the interpretations and optional rules, switch = true (default false) moves it most: +16.7 percentage points."
        ),
        "{}",
        result.finding()
    );
}

#[test]
fn sensitivity_of_a_mean_and_refusals_of_bad_measures() {
    let result = sensitivity(&shot(50_000), &Measure::mean("hit")).unwrap();
    assert_eq!(result.rows[0].field, "bonus");
    let wrong = sensitivity(&shot(1_000), &Measure::probability("hit", "maybe")).unwrap_err();
    assert_eq!(wrong.to_string(), "metric `hit` has no value `maybe` (it takes true or false)");
    let missing = sensitivity(&shot(1_000), &Measure::mean("hits")).unwrap_err();
    assert_eq!(missing.to_string(), "no metric `hits` (valid metrics: hit)");
}

#[test]
fn convergence_narrows_towards_the_exact_value() {
    let counts = default_sample_counts(20_000);
    assert_eq!(counts, [100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000]);
    let result = convergence(&shot(0), &Measure::probability("hit", "true"), &counts).unwrap();
    assert_eq!(result.exact, Some(8.0 / 12.0));
    let widths: Vec<f64> = result.points.iter().map(|p| p.estimate.ci_high - p.estimate.ci_low).collect();
    assert!(widths.first() > widths.last(), "{widths:?}");
    assert_eq!(result.frame().unwrap().height(), counts.len());
}

#[test]
fn a_sweep_measures_each_value_in_order() {
    let values: Vec<String> = ["veteran", "green"].map(String::from).to_vec();
    let result =
        sweep(&duel(20_000), "defender.quality", &values, &Measure::probability("winner", "attacker")).unwrap();
    assert_eq!(result.points.len(), 2);
    assert!(result.points[0].1.value < result.points[1].1.value);
    assert_eq!(result.runs[1].keys, [("defender.quality".to_string(), "green".to_string())]);
}

/// Every integer rule field of every catalogue scenario is either stepped or
/// listed as skipped, and no step makes an analysis fail outright.
#[test]
fn sensitivity_steps_or_skips_every_field_of_every_catalogue_scenario() {
    use volley_kernel::params::ParamKind;
    for ruleset in volley_kernel::catalogue::catalogue() {
        for scenario in &ruleset.scenarios {
            // Every field is stepped under both sides' bold rule of thumb:
            // what is checked here is that each field is run or skipped, and
            // best play would solve each game once per field.
            let experiment = Experiment::new(&ruleset, scenario.name, RunOptions::new(300, 1))
                .unwrap()
                .with_fixed(crate::heuristic_play(scenario));
            let metrics = experiment.metrics().unwrap();
            let measure = Measure::attacker_wins(&metrics).unwrap_or_else(|| {
                let first = metrics[0];
                match first.domain.is_numeric() {
                    true => Measure::mean(first.name),
                    false => Measure::probability(first.name, first.domain.format(0)),
                }
            });
            let result = sensitivity(&experiment, &measure).unwrap();
            let rules = (ruleset.default_rules)();
            for field in rules.fields().iter().filter(|f| matches!(f.kind, ParamKind::Int { .. })) {
                let stepped = result
                    .rows
                    .iter()
                    .find(|r| r.field == field.name)
                    .map_or(0, |r| usize::from(r.down.is_some()) + usize::from(r.up.is_some()));
                let skipped = result.skipped.iter().filter(|s| s.field == field.name).count();
                assert_eq!(stepped + skipped, 2, "{} {} {}", ruleset.name, scenario.name, field.name);
            }
            // Every other reading of every interpretation and optional rule
            // is run or listed as skipped.
            for field in rules.fields() {
                let others = match field.kind {
                    ParamKind::Bool => 1,
                    ParamKind::Choice(names) => names.len() - 1,
                    _ => continue,
                };
                let run = result.alternatives.iter().filter(|a| a.field == field.name).count();
                let skipped = result.skipped.iter().filter(|s| s.field == field.name).count();
                assert_eq!(run + skipped, others, "{} {} {}", ruleset.name, scenario.name, field.name);
            }
        }
    }
}

#[test]
fn sensitivity_says_so_when_no_rule_matters() {
    // The duel reads none of the shot's rules: every step changes nothing.
    let result = sensitivity(&duel(5_000), &Measure::probability("winner", "attacker")).unwrap();
    assert!(result.rows.iter().all(|r| r.largest_change() == 0.0));
    assert!(
        result.finding().starts_with("No printed number moves the attacker's chance of winning by one step"),
        "{}",
        result.finding()
    );
}

#[test]
fn balance_frames_are_pinned() {
    use expect_test::expect;
    use volley_analysis::frame::csv_string;
    let ladder =
        quality_ladder(&duel(200).with_confidence(0.9), Some(&["veteran".into(), "green".into()]), None).unwrap();
    expect![[r#"
        attacker.quality,defender.quality,measure,estimate,ci_low,ci_high,samples
        veteran,veteran,P(winner = attacker),0.515,0.45706048937691185,0.5725390958034449,200
        veteran,green,P(winner = attacker),0.745,0.6912688705330079,0.792191020746152,200
        green,veteran,P(winner = attacker),0.3,0.24965971976232726,0.35567914449958293,200
        green,green,P(winner = attacker),0.51,0.45211297211941676,0.5676200846674877,200
    "#]]
    .assert_eq(&csv_string(&ladder.frame().unwrap()).unwrap());
    let ranked = sensitivity(&shot(120), &Measure::probability("hit", "true")).unwrap();
    expect![[r#"
        field,baseline_value,value,measure,estimate,ci_low,ci_high,samples,change,change_ci_low,change_ci_high
        bonus,1,0,P(hit = true),0.49166666666666664,0.4038757172769723,0.5799746021633394,120,-0.14166666666666666,-0.26590333735064176,-0.017429995982691557
        bonus,1,2,P(hit = true),0.7916666666666666,0.7105232156701865,0.8547156039189031,120,0.15833333333333333,0.045578213665473086,0.27108845300119355
        hit_target,7,6,P(hit = true),0.7416666666666667,0.6567146994175665,0.8116260368133936,120,0.10833333333333339,-0.008145740010436331,0.22481240667710312
        hit_target,7,8,P(hit = true),0.5333333333333333,0.4444278926967431,0.6201708295420101,120,-0.09999999999999998,-0.22410239460192163,0.02410239460192168
        irrelevant,3,2,P(hit = true),0.6333333333333333,0.5442242408550699,0.7141706480999424,120,0.0,-0.12193386895613721,0.12193386895613721
        irrelevant,3,4,P(hit = true),0.6333333333333333,0.5442242408550699,0.7141706480999424,120,0.0,-0.12193386895613721,0.12193386895613721
        limit,5,4,P(hit = true),0.6333333333333333,0.5442242408550699,0.7141706480999424,120,0.0,-0.12193386895613721,0.12193386895613721
    "#]]
    .assert_eq(&csv_string(&ranked.frame().unwrap()).unwrap());
}

#[test]
fn a_rule_that_matters_only_from_the_fixed_start_is_called_so() {
    use volley_analysis::balance::StartCheck;
    // (the change from the fixed start, the changes from its neighbours, start-driven?)
    let cases: [(f64, &[(i64, f64)], bool); 5] = [
        (0.20, &[(5, 0.01), (7, 0.05)], true),
        (0.20, &[(5, 0.15), (7, 0.01)], false),
        (-0.30, &[(7, 0.10)], true),
        (0.20, &[(5, -0.12), (7, 0.11)], false),
        (0.20, &[], false),
    ];
    for (change, elsewhere, driven) in cases {
        let check = StartCheck {
            field: "field".into(),
            value: 4,
            key: "distance".into(),
            start: 6,
            change,
            elsewhere: elsewhere.to_vec(),
        };
        assert_eq!(check.start_driven(), driven, "{change} {elsewhere:?}");
    }
}

#[test]
fn sensitivity_gives_the_same_numbers_on_one_thread_and_on_two() {
    // The study makes its runs side by side, one per thread: each run is
    // its own, from the experiment's seed, so the thread count changes no
    // number and no order.
    let measure = Measure::probability("hit", "true");
    let numbers = |threads: usize| {
        let mut experiment = shot(20_000);
        experiment.options.threads = threads;
        let result = sensitivity(&experiment, &measure).unwrap();
        let steps: Vec<(String, Vec<(i64, f64)>)> = result
            .rows
            .iter()
            .map(|row| {
                let taken = [row.down, row.up].into_iter().flatten().map(|c| (c.value, c.estimate.value));
                (row.field.clone(), taken.collect())
            })
            .collect();
        let readings: Vec<(String, String, f64)> =
            result.alternatives.iter().map(|a| (a.field.clone(), a.value.clone(), a.estimate.value)).collect();
        let skipped: Vec<(String, String)> =
            result.skipped.iter().map(|s| (s.field.clone(), s.value.clone())).collect();
        (steps, readings, skipped, result.runs.len())
    };
    let one = numbers(1);
    assert!(!one.0.is_empty(), "the shot has numbers to step");
    assert_eq!(one, numbers(2));
}

/// `METRIC>=N`: the chance of at least N, worked by hand on 2D6 (a total of
/// 10 or more is 3 + 2 + 1 = 6 ways in 36), exact and sampled, in words, and
/// refused where it means nothing.
#[test]
fn at_least_n_is_the_sum_of_the_values_from_n_up() {
    use crate::frames::dice_run;
    let measure = Measure::at_least("total", 10);
    let exact = dice_run("sum", &[("dice", "2d6")], 0);
    let e = measure.estimate(&exact.distribution, 0.95).unwrap();
    assert!((e.value - 6.0 / 36.0).abs() < 1e-12 && e.samples.is_none(), "{e:?}");
    let sampled = dice_run("sum", &[("dice", "2d6")], 40_000);
    let s = measure.estimate(&sampled.distribution, 0.95).unwrap();
    assert!(close(s.value, s.standard_error, 6.0 / 36.0), "{s:?}");
    assert!(s.ci_low < 6.0 / 36.0 && 6.0 / 36.0 < s.ci_high, "{s:?}");
    // A count past the metric's range is possible elsewhere in a sweep, and
    // impossible here: its chance is 0, not an error.
    assert_eq!(Measure::at_least("total", 13).estimate(&exact.distribution, 0.95).unwrap().value, 0.0);
    assert_eq!(Measure::at_least("hits", 1).plain(), "the chance of at least 1 hit");
    assert_eq!(Measure::at_least("hits", 3).plain(), "the chance of at least 3 hits");
    assert!(Measure::at_least("total", 10).is_probability());
    let metrics = &exact.distribution.metrics;
    assert!(Measure::at_least("total", 2).check(metrics).unwrap_err().to_string().contains("never below 2"));
}
