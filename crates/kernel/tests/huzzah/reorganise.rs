//! Reorganising a command off the table as a game: the rules' example and
//! modifiers, best play worked by hand, the old fixed schedules under the
//! heuristics that match them, Monte Carlo against the exact answer under
//! each policy, and `--explain`.

use super::assert_agrees;
use volley_kernel::catalogue;
use volley_kernel::game::{ATTACKER, DEFENDER, NONE, Objective, Plan, Played, Policy};
use volley_kernel::outcome::Distribution;
use volley_kernel::rulesets::huzzah::reorganise::{CommandLevel, Reorganise, Retreated};
use volley_kernel::rulesets::huzzah::{Quality, Rules};
use volley_kernel::scenario::DynScenario;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// The rules' example: an Average brigade officer, one unit broke and one
/// routed (Down 2), three retired (Up 1): 7 before any turn waited.
fn example() -> Retreated {
    Retreated {
        rating: 8,
        broken: 2,
        level: CommandLevel::Brigade,
        more_retired: true,
        inspirational: false,
        unit_quality: Quality::Trained,
        unit_kills: 0,
    }
}

/// The scenario from the catalogue with `pairs` set.
fn build(pairs: &[(&str, &str)]) -> Box<dyn DynScenario> {
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let rules = (huzzah.default_rules)();
    {
        let entry = huzzah.scenario("reorganise").unwrap();
        entry.build_from_text(rules.as_ref(), crate::manoeuvring(entry, pairs))
    }
    .unwrap()
}

fn exact(pairs: &[(&str, &str)]) -> Distribution {
    build(pairs).exact_distribution().unwrap()
}

/// The ways of 36 that 2D6 reorganise at `rating` without a Huzzah! (double
/// one): at or under the rating, 11 and 12 always failing.
fn plain_ways(rating: i32) -> f64 {
    let mut ways = 0.0;
    for a in 1..=6 {
        for b in 1..=6 {
            if !(a == 1 && b == 1) && a + b <= rating && a + b < 11 {
                ways += 1.0;
            }
        }
    }
    ways
}

/// A fixed schedule of attempts worked out afresh, as the retired
/// `first_wait`/`wait` keys played it (this reproduced the old scenario's
/// every joint outcome before it was replaced): attempts on `attempt_turns`,
/// each having waited the turns since the previous one (or since turn 0),
/// from an unmodified rating `base`; the joint law of (reorganised, turns,
/// attempts, kills, unit_destroyed) for a followed unit of `unit_kills`
/// kills and full rating `full`.
fn scheduled(base: i32, attempt_turns: &[u32], turns: u32, unit_kills: i64, full: i64) -> Vec<([i64; 5], f64)> {
    let mut ends = Vec::new();
    let mut going = 1.0;
    let mut previous = 0;
    for (attempts, &turn) in (1i64..).zip(attempt_turns) {
        let plain = plain_ways(base + (turn - previous) as i32) / 36.0;
        let huzzah = 1.0 / 36.0;
        let destroyed = i64::from(unit_kills + attempts >= full);
        ends.push(([1, i64::from(turn), attempts, attempts, destroyed], going * plain));
        ends.push(([1, i64::from(turn), attempts, 0, 0], going * huzzah));
        going *= 1.0 - plain - huzzah;
        previous = turn;
    }
    ends.push(([0, i64::from(turns), attempt_turns.len() as i64, 0, 0], going));
    ends.retain(|e| e.1 > 0.0);
    ends
}

/// The turns of the old schedule `first_wait`, then every `wait` turns, to `turns`.
fn fixed(first_wait: u32, wait: u32, turns: u32) -> Vec<u32> {
    (first_wait..=turns).step_by(wait as usize).collect()
}

/// Each joint outcome of `dist` projected on (reorganised, turns, attempts,
/// kills, unit_destroyed) equals `expected`, to rounding (an outcome missing
/// from either is one of probability 0).
fn assert_same_outcomes(dist: &Distribution, expected: &[([i64; 5], f64)]) {
    let names = ["reorganised", "turns", "attempts", "kills", "unit_destroyed"];
    let index: Vec<usize> = names.iter().map(|n| dist.metric_index(n).unwrap()).collect();
    let mut got: Vec<([i64; 5], f64)> = Vec::new();
    for joint in &dist.joint {
        let key: [i64; 5] = std::array::from_fn(|i| joint.values[index[i]]);
        match got.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 += joint.probability,
            None => got.push((key, joint.probability)),
        }
    }
    let keys = got.iter().chain(expected).map(|(k, _)| *k);
    for key in keys {
        let p = expected.iter().find(|(k, _)| *k == key).map_or(0.0, |e| e.1);
        let q = got.iter().find(|(k, _)| *k == key).map_or(0.0, |g| g.1);
        assert!(close(p, q), "{key:?}: expected {p}, got {q}");
    }
}

#[test]
fn the_rules_reorganise_example() {
    // "modified to 6 because two units broke or routed and then up to 7
    // because more units retired": waiting one turn, 8 (26/36, a Huzzah!
    // among them); after two more turns, 9 (30/36).
    let rules = Rules::default();
    let reorganise = Reorganise::new(&rules, example(), 12).unwrap();
    assert_eq!((reorganise.rating(0), reorganise.rating(1), reorganise.rating(2)), (7, 8, 9));
    assert_eq!((reorganise.success_ways(0), reorganise.success_ways(1), reorganise.success_ways(2)), (21, 26, 30));
    // A roll of 11 or 12 always fails: 33 in 36 however long it waits.
    assert_eq!((reorganise.success_ways(3), reorganise.success_ways(12)), (33, 33));
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
}

#[test]
fn bold_and_cautious_play_the_old_fixed_schedules() {
    // Bold attempts every turn from turn 0: the old `first_wait = 0`,
    // `wait = 1`. The old test's values: at 7 on turn 0 (21/36), then at 8
    // (Up 1 since the failure) on turn 1.
    let bold = exact(&[("attacker.policy", "bold"), ("turns", "3")]);
    assert!(close(bold.probability("turns", 0), 21.0 / 36.0));
    assert!(close(bold.probability("turns", 1), (15.0 / 36.0) * (26.0 / 36.0)));
    for turns in [1, 3, 12, 40] {
        for unit_kills in [0, 6] {
            let (t, k) = (turns.to_string(), unit_kills.to_string());
            let dist = exact(&[("attacker.policy", "bold"), ("turns", &t), ("unit_kills", &k)]);
            assert_same_outcomes(&dist, &scheduled(7, &fixed(0, 1, turns), turns, unit_kills, 8));
        }
    }
    // Cautious waits for 30 in 36: at 9 for the example's command, two
    // turns after it left and after each failure, the old `first_wait = 2`,
    // `wait = 2` where the limit falls on that schedule.
    let cautious = exact(&[("attacker.policy", "cautious"), ("unit_kills", "6")]);
    assert_same_outcomes(&cautious, &scheduled(7, &fixed(2, 2, 12), 12, 6, 8));
    // A corps (Down 3, 4 before waiting) waits five turns for 9; off the
    // schedule, it also attempts on the last turn (at 6, waiting two).
    let corps = exact(&[("attacker.policy", "cautious"), ("level", "corps")]);
    assert_same_outcomes(&corps, &scheduled(4, &[5, 10, 12], 12, 0, 8));
    // Where waiting cannot reach 30 in 36, cautious waits for the best
    // chance the turn limit allows: with no Up for turns waited it has
    // nothing to wait for and attempts every turn, as bold does.
    let flat = Rules { reorganise_turn_waited_up: 0, ..Rules::default() };
    let play = |policy: Policy| {
        let game = Reorganise::new(&flat, example(), 12).unwrap();
        let plan = Plan { policy: [policy, Policy::Best], objective: [Objective::Margin; 2] };
        Played::new(game, plan).exact_distribution().unwrap()
    };
    assert_eq!(play(Policy::Cautious), play(Policy::Bold));
    assert!(close(play(Policy::Cautious).probability("turns", 0), 21.0 / 36.0));
}

#[test]
fn best_play_worked_by_hand() {
    // The example's command (7, then Up 1 a turn waited), turns 0 to 2. The
    // followed Trained unit (8) with no kills cannot be destroyed by three
    // attempts: only coming back counts, and an attempt now never hurts
    // (failing leaves the same Up 1 as waiting), so best play is bold's.
    let p = |ways: f64| ways / 36.0;
    let whole = exact(&[("turns", "2")]);
    let bold = exact(&[("turns", "2"), ("attacker.policy", "bold")]);
    assert_eq!(whole, bold);
    assert!(close(whole.probability("winner", i64::from(DEFENDER)), p(15.0) * p(10.0) * p(10.0)));

    // With 6 kills it is destroyed by a second attempt that succeeds without
    // a Huzzah! (6 + 2 = 8). Values under margin: a whole command +1, one
    // back without the unit 0, none back by turn 2 -1. On turn 2 (the last)
    // an attempt is never worse than waiting (a failure is -1 either way).
    //   Turn 1, 1 turn waited, no attempt: attempt at 8: 26/36 whole,
    //   10/36 then turn 2 (Up 1, one attempt made): 1/36 whole, 25/36
    //   destroyed, 10/36 not back, worth -9/36: 26/36 - 90/1296 = 846/1296.
    //   Wait: turn 2 at 9: 30/36 whole, 6/36 not back: 24/36 = 864/1296.
    //   So it waits.
    //   Turn 0, no attempt: attempt at 7: 21/36 whole, 15/36 then turn 1
    //   with one attempt made, where attempting (1/36 whole, 25/36
    //   destroyed, 10/36 then -9/36 on turn 2: -54/1296) beats waiting
    //   (turn 2 at 9 with one attempt made: 1/36 - 6/36 = -180/1296); worth
    //   21/36 - 15/36 * 54/1296 = 26406/46656. Wait: 864/1296 = 31104/46656.
    //   So it waits again, and attempts at 9 on turn 2.
    let worn = exact(&[("turns", "2"), ("unit_kills", "6")]);
    assert!(close(worn.probability("winner", i64::from(ATTACKER)), p(30.0)));
    assert!(close(worn.probability("winner", i64::from(DEFENDER)), p(6.0)));
    assert!(close(worn.probability("turns", 2), 1.0));
    assert!(close(worn.probability("kills", 1), p(29.0)));
    // Bold plays the attempt's line throughout: whole 21/36 + 15/36 * (1/36
    // + 10/36 * 1/36), not back (15 * 10 * 10) / 36^3, destroyed the rest.
    let worn_bold = exact(&[("turns", "2"), ("unit_kills", "6"), ("attacker.policy", "bold")]);
    let bold_whole = p(21.0) + p(15.0) * (p(1.0) + p(10.0) * p(1.0));
    assert!(close(worn_bold.probability("winner", i64::from(ATTACKER)), bold_whole));
    assert!(close(worn_bold.probability("winner", i64::from(DEFENDER)), 1500.0 / 46656.0));
    assert!(close(worn_bold.probability("winner", i64::from(NONE)), 1.0 - bold_whole - 1500.0 / 46656.0));

    // The objective decides. Turns 0 and 1, 6 kills: attempting on turn 0
    // gives whole 21/36 + 15/36 * 1/36 = 771/1296, not back 15/36 * 10/36 =
    // 150/1296 (margin 621/1296); waiting gives whole 26/36 = 936/1296, not
    // back 10/36 (margin 576/1296). Margin, which ranks a command back
    // without the unit above none, attempts; win, which counts only a whole
    // command, waits.
    let margin = exact(&[("turns", "1"), ("unit_kills", "6")]);
    assert!(close(margin.probability("winner", i64::from(ATTACKER)), 771.0 / 1296.0));
    assert!(close(margin.probability("winner", i64::from(DEFENDER)), 150.0 / 1296.0));
    let win = exact(&[("turns", "1"), ("unit_kills", "6"), ("attacker.objective", "win")]);
    assert!(close(win.probability("winner", i64::from(ATTACKER)), 936.0 / 1296.0));
    assert!(close(win.probability("winner", i64::from(DEFENDER)), 360.0 / 1296.0));
}

#[test]
fn best_play_is_never_worse_than_a_heuristic() {
    let margin =
        |d: &Distribution| d.probability("winner", i64::from(ATTACKER)) - d.probability("winner", i64::from(DEFENDER));
    for case in [
        vec![],
        vec![("unit_kills", "6")],
        vec![("level", "corps"), ("unit_kills", "5")],
        vec![("broken", "4"), ("turns", "5"), ("unit_quality", "green"), ("unit_kills", "4")],
    ] {
        let best = margin(&exact(&case));
        for policy in ["bold", "cautious"] {
            let mut pairs = case.clone();
            pairs.push(("attacker.policy", policy));
            let heuristic = margin(&exact(&pairs));
            assert!(best >= heuristic - 1e-12, "{case:?}: best {best} < {policy} {heuristic}");
        }
    }
}

#[test]
fn monte_carlo_agrees_with_the_solver_under_each_policy() {
    for (seed, policy, objective) in
        [(81, "best", "margin"), (82, "best", "win"), (83, "bold", "margin"), (84, "cautious", "margin")]
    {
        for (k, pairs) in [vec![("unit_kills", "6")], vec![("level", "corps"), ("turns", "8")]].into_iter().enumerate()
        {
            let mut pairs = pairs;
            pairs.extend([("attacker.policy", policy), ("attacker.objective", objective)]);
            assert_agrees(build(&pairs).as_ref(), 200_000, seed * 10 + k as u64);
        }
    }
}

#[test]
fn explain_reads_as_a_player_would() {
    // The hand-worked case above: on turn 0 the worn command waits.
    let explained = build(&[("turns", "2"), ("unit_kills", "6")]).explain().unwrap();
    assert_eq!(explained.len(), 1, "the enemy decides nothing");
    let first = &explained[0];
    assert_eq!((first.side, first.decision, first.step), ("attacker", "attempt", 1));
    assert!(close(first.reached, 1.0));
    assert_eq!(
        first.situation,
        "turn 0 of 2, 0 turns waited: an attempt at rating 7 succeeds 21 in 36 (a Huzzah! 1 in 36); 0 attempts \
         made, so a success now costs each unit 1 kill (the followed trained unit then 7 of 8)"
    );
    let names: Vec<&str> = first.options.iter().map(|o| o.option.as_str()).collect();
    assert_eq!(names, ["wait (Up 1 next turn)", "attempt now"]);
    let (wait, attempt) = (&first.options[0], &first.options[1]);
    assert!(wait.chosen && !attempt.chosen);
    assert!(close(wait.attacker_wins, 30.0 / 36.0) && close(wait.defender_wins, 6.0 / 36.0));
    assert!(close(attempt.attacker_wins, 27906.0 / 46656.0) && close(attempt.defender_wins, 1500.0 / 46656.0));
}

#[test]
fn retired_keys_point_to_the_policy() {
    // `first_wait` and `wait` are no longer declared; setting one is an
    // unknown key whose suggestion is the player's policy, whose doc names it.
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let rules = (huzzah.default_rules)();
    let entry = huzzah.scenario("reorganise").unwrap();
    for key in ["first_wait", "wait"] {
        assert!(entry.params.iter().all(|p| p.name != key), "reorganise still declares {key}");
        let message = entry.build_from_text(rules.as_ref(), [(key, "1")]).err().unwrap().to_string();
        assert!(message.starts_with(&format!("unknown key `{key}`; did you mean `attacker.policy`?")), "{message}");
    }
    let doc = &entry.params.iter().find(|p| p.name == "attacker.policy").unwrap().doc;
    assert!(doc.contains("replaces the retired keys `first_wait`, `wait`"), "{doc}");
    // The enemy takes no decision, so it has no policy to set.
    assert!(entry.params.iter().all(|p| !p.name.starts_with("defender.")));
}

#[test]
fn the_catalogue_builds_reorganise_and_rejects_bad_keys() {
    let built = build(&[("level", "corps"), ("turns", "6")]);
    assert!(built.has_exact());
    assert_eq!(built.decisions().iter().map(|d| d.name).collect::<Vec<_>>(), ["attempt"]);
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let rules = (huzzah.default_rules)();
    let entry = huzzah.scenario("reorganise").unwrap();
    assert!(entry.build_from_text(rules.as_ref(), [("turns", "0")]).is_err());
    assert!(entry.build_from_text(rules.as_ref(), [("unit_quality", "raw"), ("unit_kills", "6")]).is_err());
}
