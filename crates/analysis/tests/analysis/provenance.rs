//! The record of how a result was made names the policy each side played
//! where it is not the one its key asked (best play beyond the solver).

use volley_analysis::balance::{Experiment, Measure, sweep};
use volley_analysis::provenance::{Computation, Provenance};
use volley_analysis::report::{method_text, played};
use volley_kernel::catalogue;
use volley_kernel::game::{Objective, Policy, PolicyUse};
use volley_kernel::runner::RunOptions;

fn used(asked: Policy, played: Policy) -> PolicyUse {
    PolicyUse { asked, played, objective: Objective::Margin, decides: true }
}

/// The record of `huzzah SCENARIO` at its defaults, with `points` played.
fn record(scenario: &str, points: &[Option<[PolicyUse; 2]>]) -> Provenance {
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let rules = (huzzah.default_rules)();
    let entry = huzzah.scenario(scenario).unwrap();
    Provenance::new("huzzah", entry, rules.as_ref(), &[], Computation::Exact, 0.95).with_played(points)
}

/// The value of the record's line `label`, if it has one.
fn line(provenance: &Provenance, label: &str) -> Option<String> {
    provenance.lines().into_iter().find(|(l, _)| *l == label).map(|(_, value)| value)
}

#[test]
fn the_record_names_the_policy_played_where_best_play_is_beyond_the_solver() {
    let (best, bold) = (Policy::Best, Policy::Bold);
    // Played as asked: no line, and the record reads as it always did.
    let as_asked = record("assault", &[Some([used(best, best), used(bold, bold)])]);
    assert!(as_asked.played.is_empty());
    assert_eq!(line(&as_asked, "played").as_deref(), None);
    assert_eq!(line(&as_asked, "policies").as_deref(), Some("attacker.policy=best, defender.policy=best"));
    // One point, both sides beyond the solver: each plays the game's fallback.
    let fallback = Some([used(best, bold), used(best, bold)]);
    let beyond = record("assault", &[fallback]);
    assert_eq!(
        line(&beyond, "played").as_deref(),
        Some("attacker bold (best asked; beyond the solver here), defender bold (best asked; beyond the solver here)")
    );
    // The line follows the policies' in the paragraph of a report's Method.
    assert!(
        beyond.paragraph().contains(
            "policies: attacker.policy=best, defender.policy=best; played: attacker bold (best asked; beyond the \
             solver here), defender bold (best asked; beyond the solver here); rules: "
        ),
        "{}",
        beyond.paragraph()
    );
    // A sweep where some points fall back, and one side asked for bold.
    let some =
        record("assault", &[Some([used(best, best), used(bold, bold)]), Some([used(best, bold), used(bold, bold)])]);
    assert_eq!(
        line(&some, "played").as_deref(),
        Some("attacker bold at 1 of 2 points (best asked; beyond the solver there)")
    );
    let every = record("assault", &[fallback, fallback, None]);
    assert!(
        line(&every, "played").unwrap().starts_with("attacker bold (best asked; beyond the solver at every point)")
    );
    // A side with no policy key takes no decision and is not named: the
    // command reorganising has only its player's.
    let alone = record("reorganise", &[fallback]);
    assert_eq!(line(&alone, "played").as_deref(), Some("attacker bold (best asked; beyond the solver here)"));
}

#[test]
fn the_record_says_where_a_side_takes_no_decision() {
    // The Huzzah! assault's defender at the defaults: no order of its own,
    // no battery, no cavalry to form square against. Its policy key is
    // still listed (it was asked), and the played line says it changes
    // nothing, at every point or not at all.
    let best = Policy::Best;
    let idle = PolicyUse { decides: false, ..used(best, best) };
    let stands = record("assault", &[Some([used(best, best), idle]), Some([used(best, best), idle])]);
    assert_eq!(
        line(&stands, "played").as_deref(),
        Some("defender takes no decision at these settings (its policy changes nothing)")
    );
    let mixed = record("assault", &[Some([used(best, best), idle]), Some([used(best, best), used(best, best)])]);
    assert_eq!(line(&mixed, "played").as_deref(), None);
    assert_eq!(idle.to_string(), "best (no decision at these settings: its policy changes nothing)");
}

#[test]
fn a_report_records_the_policy_played_at_each_point_of_its_sweep() {
    // The brigade's assault by one unit solves best play up to 3 turns:
    // over 1 turn both sides play their best, over 4 the game's bold.
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let experiment = Experiment::new(&huzzah, "brigade_assault", RunOptions::new(400, 3))
        .unwrap()
        .with_fixed([("attacker.units", "1"), ("distance", "4")]);
    let values = ["1", "4"].map(String::from).to_vec();
    let found = sweep(&experiment, "turns", &values, &Measure::probability("winner", "attacker")).unwrap();
    let uses: Vec<[PolicyUse; 2]> = found.runs.iter().map(|run| run.policies.unwrap()).collect();
    assert_eq!(uses.iter().map(|u| u[0].played).collect::<Vec<_>>(), [Policy::Best, Policy::Bold]);
    let method = method_text(&experiment, &played(&found.runs));
    assert!(
        method.contains(
            "policies: attacker.policy=best, defender.policy=best; played: attacker bold at 1 of 2 points (best \
             asked; beyond the solver there), defender bold at 1 of 2 points (best asked; beyond the solver there); "
        ),
        "{method}"
    );
    // At 1 turn alone nothing fell back: the Method reads as before.
    let solved = sweep(&experiment, "turns", &values[..1], &Measure::probability("winner", "attacker")).unwrap();
    assert!(!method_text(&experiment, &played(&solved.runs)).contains("played:"));
}
