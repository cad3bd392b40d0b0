//! Reorganising a command off the table: the rules' example, the modifiers,
//! destroyed units, and Monte Carlo against the exact answer.

use super::assert_agrees;
use volley_kernel::catalogue;
use volley_kernel::rulesets::huzzah::reorganise::{CommandLevel, Reorganise, Retreated};
use volley_kernel::rulesets::huzzah::{Quality, Rules};
use volley_kernel::scenario::DynScenario;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// The rules' example: an Average brigade officer, one unit broke and one
/// routed (Down 2), three retired (Up 1), waiting one turn and then two.
fn example() -> Retreated {
    Retreated {
        rating: 8,
        broken: 2,
        level: CommandLevel::Brigade,
        more_retired: true,
        inspirational: false,
        first_wait: 1,
        wait: 2,
        unit_quality: Quality::Trained,
        unit_kills: 0,
    }
}

#[test]
fn the_rules_reorganise_example() {
    // "modified to 6 because two units broke or routed and then up to 7
    // because more units retired": waiting one turn, 8 (26/36, a Huzzah!
    // among them); after two more turns, 9 (30/36). The example's units take
    // two kills for two attempts, its officer enters on turn 4.
    let rules = Rules::default();
    let reorganise = Reorganise::new(&rules, example(), 12).unwrap();
    assert_eq!((reorganise.rating(0), reorganise.rating(1), reorganise.rating(2)), (7, 8, 9));
    let exact = reorganise.exact_distribution().unwrap();
    assert!(close(exact.probability("turns", 1), 26.0 / 36.0));
    assert!(close(exact.probability("turns", 3), (10.0 / 36.0) * (30.0 / 36.0)));
    // Attempts on turns 1, 3, 5, 7, 9 and 11: six failures in a row never reorganise.
    let never = (10.0 / 36.0) * (6.0f64 / 36.0).powi(5);
    assert!(close(exact.probability("reorganised", 0), never));
    assert!(close(exact.probability("attempts", 6), never + (10.0 / 36.0) * (6.0f64 / 36.0).powi(4) * 30.0 / 36.0));
    // One kill after one attempt, two after two; a Huzzah! (1/36 each time) costs none.
    assert!(close(exact.probability("kills", 1), 25.0 / 36.0));
    assert!(close(exact.probability("kills", 2), (10.0 / 36.0) * (29.0 / 36.0)));
    let huzzahs = 1.0 / 36.0 + (0..5).map(|k| (10.0 / 36.0) * (6.0f64 / 36.0).powi(k) / 36.0).sum::<f64>();
    assert!(close(exact.probability("kills", 0), huzzahs + never));
    // "If this were enough to break a battalion it would be removed": a
    // Trained unit (8) with 6 kills is destroyed by a second or later
    // attempt that succeeds without a Huzzah!.
    let worn = Reorganise::new(&rules, Retreated { unit_kills: 6, ..example() }, 12).unwrap();
    let later: f64 = (0..5).map(|k| (6.0f64 / 36.0).powi(k) * 29.0 / 36.0).sum();
    assert!(close(worn.exact_distribution().unwrap().probability("unit_destroyed", 1), (10.0 / 36.0) * later));
    assert_agrees(&reorganise, 1_000_000, 81);
    assert_agrees(&worn, 1_000_000, 82);
}

#[test]
fn reorganise_modifiers() {
    let rules = Rules::default();
    let rating = |command: Retreated| Reorganise::new(&rules, command, 12).unwrap().rating(0);
    assert_eq!(rating(example()), 7);
    assert_eq!(rating(Retreated { level: CommandLevel::Division, ..example() }), 6);
    assert_eq!(rating(Retreated { level: CommandLevel::Corps, ..example() }), 4);
    assert_eq!(rating(Retreated { more_retired: false, ..example() }), 6);
    assert_eq!(rating(Retreated { inspirational: true, ..example() }), 8);
    assert_eq!(rating(Retreated { broken: 5, ..example() }), 4);
    // An attempt on the turn it left (after a failed command check) waits no
    // turns: 7, 21/36; then each turn, Up 1: 8.
    let at_once = Reorganise::new(&rules, Retreated { first_wait: 0, wait: 1, ..example() }, 3).unwrap();
    let exact = at_once.exact_distribution().unwrap();
    assert!(close(exact.probability("turns", 0), 21.0 / 36.0));
    assert!(close(exact.probability("turns", 1), (15.0 / 36.0) * (26.0 / 36.0)));
    // Waiting past the limit means no attempt at all.
    let too_late = Reorganise::new(&rules, Retreated { first_wait: 5, ..example() }, 4).unwrap();
    assert!(close(too_late.exact_distribution().unwrap().probability("attempts", 0), 1.0));
    assert_agrees(&at_once, 1_000_000, 83);
}

#[test]
fn the_catalogue_builds_reorganise_and_rejects_bad_keys() {
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let rules = (huzzah.default_rules)();
    let entry = huzzah.scenario("reorganise").unwrap();
    let built = entry.build_from_text(rules.as_ref(), [("level", "corps"), ("turns", "6")]).unwrap();
    assert!(built.has_exact());
    assert!(entry.build_from_text(rules.as_ref(), [("wait", "0")]).is_err());
    assert!(entry.build_from_text(rules.as_ref(), [("unit_quality", "raw"), ("unit_kills", "6")]).is_err());
}
