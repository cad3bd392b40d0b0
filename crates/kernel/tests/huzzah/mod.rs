//! Huzzah!: hand-worked values, the rules' worked examples, and Monte Carlo
//! against every exact solver.

mod assault;
mod catalogue;
mod engagement;
mod single;
mod skirmish_and_bombardment;
mod standoff;

use volley_kernel::check::compare;
use volley_kernel::runner::RunOptions;
use volley_kernel::scenario::DynScenario;

/// `check::assert_agrees`, except for values whose exact probability is 0 or
/// 1 up to rounding: there `check::compare` divides by a zero standard error,
/// so adding up `count / samples` over many codes to 0.9999999999999999 reads
/// as infinitely many standard errors. Such values must instead match to 1e-9
/// (one stray sample in 10^6 is 1e-6, so a real disagreement still fails).
#[track_caller]
pub fn assert_agrees(scenario: &dyn DynScenario, samples: u64, seed: u64) {
    let exact = scenario.exact_distribution().expect("the scenario has an exact solver");
    let total: f64 = exact.joint.iter().map(|j| j.probability).sum();
    assert!((total - 1.0).abs() < 1e-9, "exact probabilities sum to {total}, not 1");
    let estimate = scenario.simulate(&RunOptions::new(samples, seed)).expect("not cancelled");
    let (_, bad) = compare(&estimate, &exact);
    let certain = |p: f64| !(1e-12..=1.0 - 1e-12).contains(&p);
    let real: Vec<String> = bad
        .iter()
        .filter(|d| !(certain(d.exact) && (d.exact - d.estimate).abs() < 1e-9))
        .map(ToString::to_string)
        .collect();
    assert!(real.is_empty(), "Monte Carlo disagrees with the exact solver:\n{}", real.join("\n"));
}
mod multi;
