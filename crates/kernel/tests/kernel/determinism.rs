//! Same seed, same counts: on any thread count, in any chunk order; and pinned
//! counts for one seed, so a change to the dice or the seeding shows up.

use expect_test::expect;
use volley_kernel::catalogue::ruleset;
use volley_kernel::outcome::Tally;
use volley_kernel::rulesets::dice::Sum;
use volley_kernel::runner::{self, RunOptions, chunk_count, chunk_len, run_chunk};
use volley_kernel::scenario::Scenario;

const SAMPLES: u64 = 1_000_003;

#[test]
fn thread_count_does_not_change_the_counts() {
    let scenario = Sum::new(3, 20).unwrap();
    let one = runner::run(&scenario, &RunOptions::new(SAMPLES, 42).with_threads(1)).unwrap();
    for threads in [2, 7] {
        let many = runner::run(&scenario, &RunOptions::new(SAMPLES, 42).with_threads(threads)).unwrap();
        assert_eq!(one, many, "{threads} threads");
    }
    assert_eq!(one.samples(), SAMPLES);
}

#[test]
fn chunk_order_does_not_change_the_counts() {
    let scenario = Sum::new(2, 6).unwrap();
    let parallel = runner::run(&scenario, &RunOptions::new(SAMPLES, 5).with_threads(3)).unwrap();
    // Serially, last chunk first, each into its own tally merged in reverse.
    let mut reversed = Tally::new(scenario.code_space());
    for index in (0..chunk_count(SAMPLES)).rev() {
        let mut tally = Tally::new(scenario.code_space());
        run_chunk(&scenario, 5, index, chunk_len(SAMPLES, index), &mut tally);
        let mut merged = tally;
        merged.merge(reversed);
        reversed = merged;
    }
    assert_eq!(parallel.counts(), reversed.counts());
}

#[test]
fn different_seeds_give_different_counts() {
    let scenario = Sum::new(2, 6).unwrap();
    let a = runner::run(&scenario, &RunOptions::new(100_000, 1)).unwrap();
    let b = runner::run(&scenario, &RunOptions::new(100_000, 2)).unwrap();
    assert_ne!(a.counts(), b.counts());
}

#[test]
fn counts_of_seed_one_are_pinned() {
    let dice = ruleset("dice").unwrap();
    let rules = (dice.default_rules)();
    let sum = dice.scenario("sum").unwrap().build_from_text(rules.as_ref(), [("dice", "2d6")]).unwrap();
    let dist = sum.simulate(&RunOptions::new(100_000, 1).with_threads(2)).unwrap();
    let counts: Vec<String> = dist.marginal(0).iter().map(|r| format!("{}:{}", r.value, r.count)).collect();
    expect!["2:2849 3:5480 4:8340 5:11276 6:13748 7:16597 8:13936 9:11141 10:8304 11:5598 12:2731"]
        .assert_eq(&counts.join(" "));
}

#[test]
fn progress_counts_every_sample_and_cancel_stops() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let scenario = Sum::new(1, 6).unwrap();
    let progress = Arc::new(AtomicU64::new(0));
    let options = RunOptions { progress: Some(progress.clone()), ..RunOptions::new(300_000, 3) };
    runner::run(&scenario, &options).unwrap();
    assert_eq!(progress.load(Ordering::Relaxed), 300_000);
    let cancel = Arc::new(AtomicBool::new(true));
    let options = RunOptions { cancel: Some(cancel), ..RunOptions::new(300_000, 3) };
    assert_eq!(runner::run(&scenario, &options), Err(runner::RunError::Cancelled));
}

#[test]
fn exact_solves_are_the_same_to_the_bit_on_any_thread_count() {
    // Exploration, backward induction and the forward walk all run in
    // parallel; each cuts its work into pieces that do not depend on the
    // threads, so the exact law of a game under best play is the same to
    // the last bit on one thread or three.
    for (ruleset_name, scenario_name, keys) in [
        ("huzzah", "assault", vec![("turns", "6")]),
        ("hougoumont", "assault", vec![]),
        ("one_hour", "second_line", vec![]),
        ("brigades", "assault", vec![]),
    ] {
        let entry = ruleset(ruleset_name).unwrap();
        let rules = (entry.default_rules)();
        let solve = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                let scenario =
                    entry.scenario(scenario_name).unwrap().build_from_text(rules.as_ref(), keys.clone()).unwrap();
                scenario.exact_distribution().expect("an exact solver at these keys")
            })
        };
        let one = solve(1);
        assert_eq!(one, solve(3), "{ruleset_name} {scenario_name}");
    }
}
