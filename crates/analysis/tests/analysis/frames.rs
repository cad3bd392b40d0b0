//! Long frames from small deterministic runs of the `dice` ruleset, pinned as
//! CSV snapshots, and the Parquet round trip.

use expect_test::{Expect, expect};
use std::path::PathBuf;
use volley_analysis::frame::{Run, csv_string, long_frame, read_parquet, write_csv, write_parquet};
use volley_kernel::catalogue;
use volley_kernel::runner::RunOptions;

/// A run of a `dice` scenario: Monte Carlo with `samples` (seed 7, one thread),
/// or exact when `samples` is 0. The keys become the run's swept keys.
pub fn dice_run(scenario: &str, keys: &[(&str, &str)], samples: u64) -> Run {
    let ruleset = catalogue::ruleset("dice").unwrap();
    let entry = ruleset.scenario(scenario).unwrap();
    let rules = (ruleset.default_rules)();
    let built = entry.build_from_text(rules.as_ref(), keys.iter().copied()).unwrap();
    let distribution = if samples == 0 {
        built.exact_distribution().unwrap()
    } else {
        built.simulate(&RunOptions::new(samples, 7).with_threads(1)).unwrap()
    };
    Run {
        ruleset: "dice".into(),
        scenario: scenario.into(),
        keys: keys.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        distribution,
        policies: built.policies(),
        unread: built.unread_keys(),
    }
}

fn check(runs: &[Run], expected: Expect) {
    let frame = long_frame(runs, 0.95).unwrap();
    expected.assert_eq(&csv_string(&frame).unwrap());
}

#[test]
fn exact_rows_have_no_count_and_a_point_interval() {
    check(
        &[dice_run("sum", &[("dice", "1d4")], 0)],
        expect![[r#"
            ruleset,scenario,dice,metric,value,count,probability,ci_low,ci_high,exact
            dice,sum,1d4,total,1,,0.25,0.25,0.25,true
            dice,sum,1d4,total,2,,0.25,0.25,0.25,true
            dice,sum,1d4,total,3,,0.25,0.25,0.25,true
            dice,sum,1d4,total,4,,0.25,0.25,0.25,true
        "#]],
    );
}

#[test]
fn a_sweep_gets_one_column_per_key_with_nulls_where_a_run_lacks_it() {
    check(
        &[
            dice_run("at_least", &[("dice", "2d6"), ("target", "5")], 400),
            dice_run("at_least", &[("dice", "2d6"), ("target", "6")], 400),
            dice_run("sum", &[("dice", "1d2")], 400),
        ],
        expect![[r#"
            ruleset,scenario,dice,target,metric,value,count,probability,ci_low,ci_high,exact
            dice,at_least,2d6,5,successes,0,185,0.4625,0.414227253273,0.511486168802,false
            dice,at_least,2d6,5,successes,1,172,0.43,0.382376040644,0.478955680562,false
            dice,at_least,2d6,5,successes,2,43,0.1075,0.0807937204716,0.141673430581,false
            dice,at_least,2d6,6,successes,0,290,0.725,0.679258192261,0.766461275289,false
            dice,at_least,2d6,6,successes,1,95,0.2375,0.198417511807,0.281576442718,false
            dice,at_least,2d6,6,successes,2,15,0.0375,0.0228550298147,0.0609438424445,false
            dice,sum,1d2,,total,1,204,0.51,0.461149042508,0.558660711605,false
            dice,sum,1d2,,total,2,196,0.49,0.441339288395,0.538850957492,false
        "#]],
    );
}

#[test]
fn parquet_and_csv_round_trip() {
    let runs = [
        dice_run("at_least", &[("dice", "3d6"), ("target", "4")], 1000),
        dice_run("at_least", &[("dice", "3d6"), ("target", "4")], 0),
        dice_run("sum", &[], 1000),
    ];
    let frame = long_frame(&runs, 0.9).unwrap();
    let dir = scratch_dir("frames");
    let parquet = dir.join("data.parquet");
    write_parquet(&frame, &parquet).unwrap();
    let back = read_parquet(&parquet).unwrap();
    assert!(back.equals_missing(&frame), "read back:\n{back}\nwritten:\n{frame}");
    let csv = dir.join("data.csv");
    write_csv(&frame, &csv).unwrap();
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), csv_string(&frame).unwrap());
    // Only the two files remain: the temporary names were renamed away.
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["data.csv", "data.parquet"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_key_named_like_a_column_is_refused() {
    let run = dice_run("sum", &[("dice", "1d2")], 0);
    let clash = Run { keys: vec![("metric".into(), "x".into())], ..run };
    assert!(long_frame(&[clash], 0.95).is_err());
}

/// A fresh directory for one test's files.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("volley-analysis-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn means_carry_standard_errors_and_agreements_make_a_frame() {
    let runs = [dice_run("sum", &[("dice", "1d6")], 0), dice_run("at_least", &[("dice", "2d6"), ("target", "4")], 400)];
    let means = volley_analysis::frame::means_frame(&runs, 0.95).unwrap();
    expect![[r#"
        ruleset,scenario,dice,target,metric,mean,standard_error,ci_low,ci_high,exact
        dice,sum,1d6,,total,3.5,0.0,3.5,3.5,true
        dice,at_least,2d6,4,successes,0.9875,0.03458829644007589,0.9197081846908564,1.0552918153091437,false
    "#]]
    .assert_eq(&csv_string(&means).unwrap());

    let exact = dice_run("at_least", &[("dice", "2d6"), ("target", "4")], 0).distribution;
    let verdict = volley_analysis::stats::agreement(&runs[1].distribution, &exact);
    let frame = volley_analysis::frame::agreement_frame(&[("dice".into(), "at_least".into(), verdict)]).unwrap();
    assert_eq!(frame.height(), 1);
    assert_eq!(
        frame.get_column_names().iter().map(|n| n.as_str()).collect::<Vec<_>>(),
        ["ruleset", "scenario", "chi_square", "dof", "p_value", "max_z"]
    );
}
