//! A shaken unit's choice in the firefight (2.4, issue 32 item 5): it
//! holds and fires at -2 (3.3), staying shaken, or stands still a full turn
//! to recover, holding its fire. Best play decides it; `bold` and
//! `cautious` read `shaken_policy`. Hand-worked values on the dense table
//! and the generic solver, and Monte Carlo against the exact law.

use super::{close, exact};
use volley_kernel::check::assert_agrees;
use volley_kernel::game::{Explained, Objective, Plan, Played, Policy, Purpose};
use volley_kernel::rulesets::brigades::firefight::{FireGame, FirePlayed, FireSide};
use volley_kernel::rulesets::brigades::{FirefightInitiative, Grade, Rules, ShakenPolicy};
use volley_kernel::scenario::Scenario;

/// A stand-up fight from 4": an attacker of 2 figures (no dice: 3.1 rounds
/// up only a remainder of 3), which falls only to its 3/4 loss (5.3: both
/// figures; one hit is no test, 5.4), against 8 figures (2 dice) that start
/// shaken. The attacker is side A every turn, so that the defender's first
/// decision is its shaken choice, not the order.
fn game(rules: &Rules, turns: u32) -> FireGame {
    let rules = Rules { firefight_initiative: FirefightInitiative::AttackerFirst, ..rules.clone() };
    let mut shaken = FireSide::new(Grade::D, 8);
    shaken.shaken = true;
    FireGame::new(&rules, FireSide::new(Grade::D, 2), shaken, 4, turns).unwrap().with_purpose(Purpose::Stand)
}

const CAUTIOUS_ATTACKER: Plan = Plan { policy: [Policy::Cautious, Policy::Best], objective: [Objective::Margin; 2] };

/// The defender's first decision, explained alike by the dense table and
/// the generic solver: each option with the defender's chance of winning,
/// and the option taken.
fn shaken_choice(turns: u32) -> (Vec<(String, f64)>, String) {
    let game = game(&Rules::default(), turns);
    let dense: Vec<Explained> = Scenario::explain(&FirePlayed::new(game.clone(), CAUTIOUS_ATTACKER)).unwrap();
    let generic = Played::new(game, CAUTIOUS_ATTACKER).explain().unwrap();
    assert_eq!(dense.len(), 1, "{dense:?}");
    assert_eq!(generic.len(), 1, "{generic:?}");
    let (d, g) = (&dense[0], &generic[0]);
    assert_eq!((d.decision, d.step, d.situation.as_str()), (g.decision, g.step, g.situation.as_str()));
    close(d.reached, 1.0);
    assert_eq!(d.options.len(), g.options.len(), "{d:?} {g:?}");
    for (x, y) in d.options.iter().zip(&g.options) {
        assert_eq!((&x.option, x.chosen), (&y.option, y.chosen), "{d:?} {g:?}");
        assert!((x.defender_wins - y.defender_wins).abs() < 1e-12, "{d:?} {g:?}");
    }
    let chosen = d.options.iter().find(|o| o.chosen).unwrap().option.clone();
    (d.options.iter().map(|o| (o.option.clone(), o.defender_wins)).collect(), chosen)
}

fn check(got: &[(String, f64)], want: &[(&str, f64)]) {
    assert_eq!(got.len(), want.len(), "{got:?}");
    for ((option, p), (want_option, want_p)) in got.iter().zip(want) {
        assert_eq!(option, want_option, "{got:?}");
        assert!((p - want_p).abs() < 1e-12, "{option}: {p} against {want_p}");
    }
}

#[test]
fn a_shaken_unit_that_stands_to_recover_does_not_fire() {
    // One turn. Shaken, each die hits on 9 at close range (7, -2 shaken,
    // 3.3): 0.2, both 0.04. Standing to recover it holds its fire (2.4):
    // nothing. A shaken unit never moves, so these are its only options.
    let (options, chosen) = shaken_choice(1);
    check(&options, &[("hold", 0.04), ("stand to recover", 0.0)]);
    assert_eq!(chosen, "hold");
}

#[test]
fn a_shaken_unit_weighs_fire_now_against_recovering_for_next_turn() {
    // Two turns. Firing in both (it stays shaken, 0.2 a die): both hit in
    // the first, 0.04; one (0.32) leaves the attacker at 1 figure, which
    // any hit of the second shatters (1 - 0.8^2 = 0.36); none (0.64), both
    // in the second (0.04): 0.04 + 0.32 * 0.36 + 0.64 * 0.04 = 0.1808.
    // Standing first, it recovers at the turn's end and fires steady in
    // the second (7 to hit, 0.4 a die; closing would fire at -2): 0.16.
    // So it fires (under `shaken_policy = recover` the old fixed reading
    // stood, and gave the defender 0.16).
    let (options, chosen) = shaken_choice(2);
    check(&options, &[("hold", 0.1808), ("stand to recover", 0.16)]);
    assert_eq!(chosen, "hold");
}

#[test]
fn heuristics_read_shaken_policy() {
    // `bold` and `cautious` do what `shaken_policy` says (hand-worked in
    // the test above): standing to recover 0.16, firing 0.1808.
    for (policy, want) in [(ShakenPolicy::Recover, 0.16), (ShakenPolicy::Fire, 0.1808)] {
        let rules = Rules { shaken_policy: policy, ..Rules::default() };
        for heuristic in [Policy::Bold, Policy::Cautious] {
            let plan = Plan { policy: [Policy::Cautious, heuristic], objective: [Objective::Margin; 2] };
            let played = FirePlayed::new(game(&rules, 2), plan);
            close(exact(&played).probability("winner", 1), want);
        }
    }
}

#[test]
fn monte_carlo_agrees_with_the_shaken_choice() {
    // Three turns, both sides able to hit (6 figures against the shaken 8),
    // under best play and each heuristic.
    for (i, policy) in [Policy::Best, Policy::Bold, Policy::Cautious].into_iter().enumerate() {
        let rules = Rules { firefight_initiative: FirefightInitiative::AttackerFirst, ..Rules::default() };
        let mut shaken = FireSide::new(Grade::D, 8);
        shaken.shaken = true;
        let game =
            FireGame::new(&rules, FireSide::new(Grade::D, 6), shaken, 4, 3).unwrap().with_purpose(Purpose::Stand);
        let plan = Plan { policy: [policy; 2], objective: [Objective::Margin; 2] };
        assert_agrees(&FirePlayed::new(game, plan), 100_000, 320 + i as u64);
    }
}

#[test]
fn the_dense_table_matches_the_generic_solver_from_shaken_starts() {
    // Both units shaken at the start, and the attacker alone, from 6" over
    // 4 turns (the initiative rolled): the table's shaken classes (fired,
    // or stood to recover) against the generic solver's step, code by
    // code, under best play and each heuristic.
    for (i, both) in [true, false].into_iter().enumerate() {
        let mut attacker = FireSide::new(Grade::D, 6);
        attacker.shaken = true;
        let mut defender = FireSide::new(Grade::C, 6);
        defender.shaken = both;
        let game = FireGame::new(&Rules::default(), attacker, defender, 6, 4).unwrap();
        for policy in [Policy::Best, Policy::Bold, Policy::Cautious] {
            let plan = Plan { policy: [Policy::Best, policy], objective: [Objective::Margin; 2] };
            let dense = FirePlayed::new(game.clone(), plan).exact().unwrap();
            let generic = Scenario::exact(&Played::new(game.clone(), plan)).unwrap();
            let generic: std::collections::BTreeMap<u64, f64> = generic.into_iter().collect();
            assert_eq!(dense.len(), generic.len(), "case {i}, {policy:?}");
            for (code, p) in dense {
                let q = generic.get(&code).copied().unwrap_or(f64::NAN);
                assert!((p - q).abs() < 1e-12, "case {i}, {policy:?}: code {code}: dense {p}, generic {q}");
            }
        }
    }
}
