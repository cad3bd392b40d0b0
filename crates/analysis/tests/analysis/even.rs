//! What makes a fight even: the search against exact laws worked out by
//! hand (the synthetic duel and shot, the kernel's dice), against a full
//! sweep, sampled sequentially, and across a non-monotone measure.

use crate::synthetic::{Duel, ShotRules, duel_entry, duel_rules, shot_entry};
use volley_analysis::balance::{Experiment, Measure, Solving, sweep};
use volley_analysis::even::{Axis, Crossing, curve, search, target_for};
use volley_analysis::report::even_report;
use volley_kernel::catalogue::catalogue;
use volley_kernel::runner::RunOptions;

fn duel() -> Experiment {
    Experiment::from_parts("synthetic", &duel_entry(), duel_rules(), RunOptions::new(10_000, 42).with_threads(2))
        .with_solving(Solving::Always)
}

fn wins() -> Measure {
    Measure::probability("winner", "attacker")
}

#[test]
fn an_exact_search_brackets_the_crossing_a_full_sweep_finds() {
    // A green attacker (worth 1 a figure) against four veterans (strength
    // 12) wins 2a / (2a + 25): 24/49 = 48.98% with 12 figures, 26/51 =
    // 50.98% with 13. The range has 60 values, so the search probes a grid
    // and bisects; a full sweep probes all 60.
    let experiment = duel().with_fixed([("attacker.quality", "green"), ("defender.quality", "veteran")]);
    let axis = Axis::of(&experiment, "attacker.figures", None, None).unwrap();
    assert_eq!(axis.values.len(), 60);
    let found = search(&experiment, &axis, &wins(), 0.5).unwrap();
    assert_eq!(found.grid_step, 5);
    assert!(found.points.len() < 20, "{} probes", found.points.len());
    let [Crossing::Between { below, above, at: Some(at) }] = found.crossings.as_slice() else {
        panic!("one crossing expected: {:?}", found.crossings)
    };
    let (b, a) = (&found.points[*below], &found.points[*above]);
    assert_eq!((b.value.as_str(), a.value.as_str()), ("12", "13"));
    assert!((b.estimate.value - 24.0 / 49.0).abs() < 1e-12 && (a.estimate.value - 26.0 / 51.0).abs() < 1e-12);
    let by_line = 12.0 + (0.5 - 24.0 / 49.0) / (26.0 / 51.0 - 24.0 / 49.0);
    assert!((at - by_line).abs() < 1e-9, "{at}");

    let values: Vec<String> = (1..=60).map(|v| v.to_string()).collect();
    let full = sweep(&experiment, "attacker.figures", &values, &wins()).unwrap();
    let first_over = full.points.iter().position(|(_, e)| e.value > 0.5).unwrap();
    assert_eq!(full.points[first_over].0, a.value);
    assert!((full.points[first_over].1.value - a.estimate.value).abs() < 1e-9);
    assert!((full.points[first_over - 1].1.value - b.estimate.value).abs() < 1e-9);
    assert!(found.samples_spent == 0 && found.points.iter().all(|p| p.settled(0.5)));
    let finding = found.finding();
    assert!(finding.contains("between 12 (49.0%) and 13 (51.0%)"), "{finding}");
    assert!(finding.contains("One value in every 5"), "{finding}");
}

#[test]
fn a_sampled_search_settles_both_bracketing_values_and_repeats_on_any_thread_count() {
    // The same crossing sampled to ±0.5 points: 48.98% and 50.98% are each
    // a point from even odds, so both intervals leave 50% out.
    let sampled = |threads: usize| {
        let mut experiment = duel()
            .with_solving(Solving::Never)
            .with_precision(Some(0.005))
            .with_fixed([("attacker.quality", "green"), ("defender.quality", "veteran")]);
        experiment.options.threads = threads;
        let axis = Axis::of(&experiment, "attacker.figures", Some("8"), Some("16")).unwrap();
        search(&experiment, &axis, &wins(), 0.5).unwrap()
    };
    let found = sampled(1);
    let [Crossing::Between { below, above, .. }] = found.crossings.as_slice() else {
        panic!("one crossing expected: {:?}", found.crossings)
    };
    let (b, a) = (&found.points[*below], &found.points[*above]);
    assert_eq!((b.value.as_str(), a.value.as_str()), ("12", "13"));
    assert!(b.settled(0.5) && a.settled(0.5), "{b:?} {a:?}");
    for (point, truth) in [(b, 24.0 / 49.0), (a, 26.0 / 51.0)] {
        assert!(point.estimate.ci_low <= truth && truth <= point.estimate.ci_high, "{point:?}");
        assert!(point.estimate.ci_high - point.estimate.ci_low <= 2.0 * 0.005 + 1e-9 || point.settled(0.5));
    }
    // Values far from even settle on the first round; the spent samples
    // are every round's.
    let far = found.points.iter().find(|p| p.value == "8").unwrap();
    assert_eq!(far.samples, volley_analysis::even::FIRST_ROUND);
    assert_eq!(found.samples_spent, found.points.iter().map(|p| p.samples).sum::<u64>());
    let again = sampled(4);
    assert_eq!(found.points, again.points);
    assert!(found.finding().contains("points"), "{}", found.finding());
    // The report's Method says how the search measured its values (rounds
    // from the first, fourfold, to the target left out or the precision),
    // not a fixed number of samples a point.
    let experiment = duel().with_solving(Solving::Never).with_precision(Some(0.005));
    let (report, _) = even_report(&experiment, &found).unwrap();
    let method = &report.sections.iter().find(|s| s.heading == "Method").unwrap().text;
    assert!(
        method.contains(
            "computed: Monte Carlo in rounds from 2000 samples, four times more each round, until the 95% interval \
             left the target out or was within ±0.005, seed 42;"
        ),
        "{method}"
    );
    assert!(!method.contains("samples per point"), "{method}");
    let exact = duel();
    let (report, _) = even_report(&exact, &found).unwrap();
    let method = &report.sections.iter().find(|s| s.heading == "Method").unwrap().text;
    assert!(method.contains("computed: exact at every value;"), "{method}");
}

#[test]
fn a_measure_that_rises_and_falls_lists_both_crossings() {
    // Three d6 with exactly one at or over t: 3p(1-p)^2 with p = (7-t)/6,
    // which rises to 4/9 at t = 5 and falls: 37.5% at 4, 44.4% at 5,
    // 34.7% at 6. A target of 40% is crossed twice.
    let dice = catalogue().into_iter().find(|r| r.name == "dice").unwrap();
    let experiment =
        Experiment::new(&dice, "at_least", RunOptions::new(1000, 1)).unwrap().with_solving(Solving::Always);
    let axis = Axis::of(&experiment, "target", Some("1"), Some("6")).unwrap();
    let measure = Measure::probability("successes", "1");
    let found = search(&experiment, &axis, &measure, 0.4).unwrap();
    let pairs: Vec<(String, String)> = found
        .crossings
        .iter()
        .map(|c| match c {
            Crossing::Between { below, above, .. } => {
                (found.points[*below].value.clone(), found.points[*above].value.clone())
            }
            Crossing::At { point } => panic!("no value is at 40% exactly: {}", found.points[*point].value),
        })
        .collect();
    assert_eq!(pairs, [("4".to_string(), "5".to_string()), ("5".to_string(), "6".to_string())]);
    assert!((found.points[4].estimate.value - 4.0 / 9.0).abs() < 1e-12);
    let finding = found.finding();
    assert!(finding.contains("not monotone") && finding.contains("2 times"), "{finding}");
}

#[test]
fn a_value_exactly_at_the_target_is_the_crossing() {
    // One d100 with t or more: (101 - t) / 100, exactly a half at t = 51;
    // 100 values, probed on a grid and bisected down to 51.
    let dice = catalogue().into_iter().find(|r| r.name == "dice").unwrap();
    let experiment = Experiment::new(&dice, "at_least", RunOptions::new(1000, 1))
        .unwrap()
        .with_solving(Solving::Always)
        .with_fixed([("dice", "1d100")]);
    let axis = Axis::of(&experiment, "target", Some("1"), Some("100")).unwrap();
    let found = search(&experiment, &axis, &Measure::probability("successes", "1"), 0.5).unwrap();
    let [Crossing::At { point }] = found.crossings.as_slice() else { panic!("{:?}", found.crossings) };
    assert_eq!(found.points[*point].value, "51");
    assert!(found.points.len() < 25, "{} probes", found.points.len());
    assert!(found.finding().contains("at 51 (50.0%)"), "{}", found.finding());
}

#[test]
fn an_ordinal_key_walks_its_listed_order_without_interpolating() {
    // Five attackers against twelve green figures: veteran 30/55 = 54.5%,
    // trained 20/45 = 44.4%, green 10/35 = 28.6%.
    let experiment =
        duel().with_fixed([("attacker.figures", "5"), ("defender.quality", "green"), ("defender.figures", "12")]);
    let axis = Axis::of(&experiment, "attacker.quality", None, None).unwrap();
    assert_eq!(axis.values, ["veteran", "trained", "green"]);
    let found = search(&experiment, &axis, &wins(), 0.5).unwrap();
    assert_eq!(found.crossings, [Crossing::Between { below: 0, above: 1, at: None }]);
    assert!((found.points[0].estimate.value - Duel::attacker_wins(15, 12)).abs() < 1e-12);
    // Backwards, from green up.
    let up = Axis::of(&experiment, "attacker.quality", Some("green"), Some("veteran")).unwrap();
    assert_eq!(up.values, ["green", "trained", "veteran"]);
    assert!(Axis::of(&experiment, "attacker.quality", Some("elite"), None).is_err());
}

#[test]
fn a_rule_field_is_searched_like_a_key() {
    // A d12 hits on hit_target - 2 (one step of bonus) or more: 9 gives a
    // target of 7, six faces in twelve, a half exactly.
    let experiment =
        Experiment::from_parts("synthetic", &shot_entry(), Box::new(ShotRules::default()), RunOptions::new(100, 1))
            .with_solving(Solving::Always);
    let axis = Axis::of(&experiment, "rules.hit_target", None, None).unwrap();
    assert_eq!(axis.numbers.as_ref().unwrap(), &(1..=13).collect::<Vec<i64>>());
    let found = search(&experiment, &axis, &Measure::probability("hit", "true"), 0.5).unwrap();
    let [Crossing::At { point }] = found.crossings.as_slice() else { panic!("{:?}", found.crossings) };
    assert_eq!(found.points[*point].value, "9");
    assert_eq!(found.runs[*point].keys, [("rules.hit_target".to_string(), "9".to_string())]);
    assert!(Axis::of(&experiment, "rules.nosuch", None, None).is_err());
}

#[test]
fn a_range_that_never_crosses_says_so_and_bad_requests_are_refused() {
    let experiment = duel().with_fixed([("attacker.quality", "green"), ("defender.quality", "veteran")]);
    let axis = Axis::of(&experiment, "attacker.figures", Some("1"), Some("6")).unwrap();
    let found = search(&experiment, &axis, &wins(), 0.5).unwrap();
    assert!(found.crossings.is_empty());
    let finding = found.finding();
    assert!(finding.contains("stays below 50.0%") && finding.contains("no value there makes it even"), "{finding}");
    assert!(Axis::of(&experiment, "attacker.figures", Some("6"), Some("6")).is_err());
    assert!(Axis::of(&experiment, "attacker.figures", Some("0"), Some("6")).is_err());
    assert!(Axis::of(&experiment, "nosuch", None, None).is_err());
    assert!(target_for(&Measure::mean("hits"), None).is_err());
    assert!(target_for(&wins(), Some(1.5)).is_err());
    assert_eq!(target_for(&Measure::mean("hits"), Some(3.0)).unwrap(), 3.0);
}

#[test]
fn a_curve_gives_the_even_value_of_one_key_at_each_value_of_another() {
    // Green attackers against four figures of each grade (strength 12, 8,
    // 4): even between 12 and 13, 8 and 9, 4 and 5 figures.
    let experiment = duel().with_fixed([("attacker.quality", "green")]);
    let by = Axis::of(&experiment, "defender.quality", None, None).unwrap();
    let axis = Axis::of(&experiment, "attacker.figures", Some("1"), Some("20")).unwrap();
    let found = curve(&experiment, &by, &axis, &wins(), 0.5).unwrap();
    let brackets: Vec<(String, String)> = found
        .iter()
        .map(|even| match even.crossings.as_slice() {
            [Crossing::Between { below, above, .. }] => {
                (even.points[*below].value.clone(), even.points[*above].value.clone())
            }
            other => panic!("{other:?}"),
        })
        .collect();
    let expected = [("12", "13"), ("8", "9"), ("4", "5")];
    assert_eq!(brackets, expected.map(|(b, a)| (b.to_string(), a.to_string())));
    assert_eq!(found[1].runs[0].keys[0], ("defender.quality".to_string(), "trained".to_string()));
}
