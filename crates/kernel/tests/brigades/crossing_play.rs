//! `crossing` on the decision model: the mover's `move` decision (how far to
//! move each turn, up to its move). Hand-worked cases where halting short
//! beats the full move, the French column's full-speed bonus, the switch for
//! what 7.1's "half of its movement" is half of, best play against bold and
//! cautious, the default turn limit, Monte Carlo under each policy, and the
//! sweeps over `start` and `move` whose jumps the module documents.

use super::crossing::played;
use super::{binomial, build, close, exact};
use volley_kernel::check::assert_agrees;
use volley_kernel::game::{Objective, Plan, Played, Policy};
use volley_kernel::outcome::Distribution;
use volley_kernel::rulesets::brigades::crossing::{Crossing, Firer, Mover, MoverType, Path};
use volley_kernel::rulesets::brigades::{
    Charisma, GeneralPlace, Grade, Nation, PassThroughMeasure, RangeBand, Rules, StationaryFireTargets, Weapon,
};
use volley_kernel::scenario::DynScenario;

fn pass_through() -> Rules {
    Rules { optional_pass_through_fire: true, ..Rules::default() }
}

fn column() -> Mover {
    Mover::new(Grade::D, 24, MoverType::Column)
}

/// 24 grade D muskets at close range against `mover` on `path`.
fn crossing(rules: &Rules, mover: Mover, start: u32, exposed: u32) -> Crossing {
    let path = Path { start, exposed, step: 0, across: 2 };
    Crossing::new(rules, Firer::new(Grade::D, 24), RangeBand::Close, mover, path).unwrap()
}

fn with_objective(crossing: Crossing, policy: Policy, objective: Objective) -> Played<Crossing> {
    Played::new(crossing, Plan { policy: [policy, Policy::Best], objective: [objective, Objective::Margin] })
}

/// The chance the mover is routed or shattered: its loss.
fn lost(dist: &Distribution) -> f64 {
    let (routed, shattered) = (dist.metric_index("routed").unwrap(), dist.metric_index("shattered").unwrap());
    dist.joint.iter().filter(|j| j.values[routed] == 1 || j.values[shattered] == 1).map(|j| j.probability).sum()
}

/// What the mover maximises under `objective`.
fn worth(dist: &Distribution, objective: Objective) -> f64 {
    match objective {
        Objective::Margin => dist.probability("arrived", 1) - lost(dist),
        Objective::Win => dist.probability("arrived", 1),
    }
}

/// The chance a 24-figure grade D column is routed by one volley of 6 dice
/// at 0.4 (24 muskets at close range, 3.1, 3.2), with `bonus` on its test:
/// 2-3 hits test at -1, 4-5 at -2, 6 at -3 and -2 for a quarter lost (5.6),
/// passing on 3 (5.5); no hits total shatters it (6 + 6 rout hits of 24).
fn routed_by_one_volley(bonus: i32) -> f64 {
    let fails = |modifier: i32| (1..=10).filter(|&roll| roll + modifier + bonus < 3).count() as f64 / 10.0;
    let b = |k: u32| binomial(6, 0.4, k);
    (b(2) + b(3)) * fails(-1) + (b(4) + b(5)) * fails(-2) + b(6) * fails(-5)
}

#[test]
fn halting_short_of_the_stretch_beats_the_full_move_by_hand() {
    // Basic rules, the stretch from 4" to 8", a column's 8" move. The full
    // move ends at 8", in the stretch: one volley, routing it 0.2491648 of
    // the time (0.58752 x 0.3 + 0.175104 x 0.4 + 0.004096 x 0.7, the
    // binomial of 6 dice at 0.4 for 2-3, 4-5 and 6 hits), so it arrives
    // 0.7508352. Halting at 3" first, its next full move ends at 11", past
    // the stretch without ending in it: no volley, and it arrives always.
    let routed = routed_by_one_volley(0);
    close(routed, 0.2491648);
    let short = crossing(&Rules::default(), column(), 4, 4);
    let bold = exact(&played(short.clone(), Policy::Bold));
    close(bold.probability("arrived", 1), 1.0 - routed);
    let best = exact(&played(short.clone(), Policy::Best));
    close(best.probability("arrived", 1), 1.0);
    close(best.probability("volleys", 0), 1.0);
    close(best.probability("turns", 2), 1.0);
    // The first decision: every move from 4" to 8" ends in the stretch; 3" or
    // less keeps out, and 3" (listed first of those) is taken.
    let explained = played(short, Policy::Best).explain().unwrap();
    let first = &explained[0];
    assert_eq!((first.side, first.decision, first.step), ("attacker", "move", 1));
    let chosen: Vec<&str> = first.options.iter().filter(|o| o.chosen).map(|o| o.option.as_str()).collect();
    assert_eq!(chosen, vec!["move 3\""]);
    for option in &first.options {
        let halts_short = ["move 3\"", "move 2\"", "move 1\"", "halt"].contains(&option.option.as_str());
        close(option.attacker_wins, if halts_short { 1.0 } else { 1.0 - routed });
    }

    // With pass-through fire at the defaults (4" to 12"): the full moves end
    // at 8" (a volley) and at 16", having spent 4" of the 8" in the stretch
    // (half: a volley under 7.1). Halting at 3", the mover ends at 11" (a
    // volley) and at 19", 1" of 8" inside: one volley where bold takes two.
    // Best play arrives 0.7508352 and is routed 0.2491648 (margin 0.5016704);
    // bold arrives 0.52105994452992 (margin 0.04211988905984).
    let defaults = crossing(&pass_through(), column(), 4, 8);
    let bold = exact(&played(defaults.clone(), Policy::Bold));
    close(bold.probability("volleys", 2), 1.0 - routed);
    close(bold.probability("arrived", 1), 0.52105994452992);
    let best = exact(&played(defaults.clone(), Policy::Best));
    close(best.probability("arrived", 1), 1.0 - routed);
    close(best.probability("routed", 1), routed);
    close(best.probability("volleys", 1), 1.0);
    close(worth(&best, Objective::Margin), 1.0 - 2.0 * routed);
    assert!(worth(&best, Objective::Margin) > worth(&bold, Objective::Margin) + 0.45);
    // Cautious closes to 3" and crosses in full moves: the same play here.
    let cautious = exact(&played(defaults, Policy::Cautious));
    close(cautious.probability("arrived", 1), 1.0 - routed);
    close(cautious.probability("turns", 3), 1.0 - routed);
}

#[test]
fn explain_names_the_situation_and_the_moves() {
    let explained = played(crossing(&pass_through(), column(), 4, 8), Policy::Best).explain().unwrap();
    assert_eq!(explained.len(), 1, "the firer has no decision");
    let first = &explained[0];
    assert_eq!(
        first.situation,
        "column of 24 figures at 0\" along its path, 4\" short of the firer's field of fire (the field of fire runs \
         from 4\" to 12\"), moving up to 8\" a turn"
    );
    let options: Vec<&str> = first.options.iter().map(|o| o.option.as_str()).collect();
    assert_eq!(
        options,
        vec![
            "move the full 8\"",
            "move 7\"",
            "move 6\"",
            "move 5\"",
            "move 4\"",
            "move 3\"",
            "move 2\"",
            "move 1\"",
            "halt"
        ]
    );
    close(first.options[0].attacker_wins, 0.52105994452992);
    assert!(first.options[5].chosen);
}

#[test]
fn a_french_column_keeps_its_full_speed_bonus_only_at_full_speed() {
    // 7.11: French infantry +2 on morale vs. shooting hits "if they are
    // advancing full speed in column". A column already in a long stretch
    // (0" to 40") with one turn left is shot wherever it ends, a halt
    // included; only the full move keeps the +2: 2-3 hits then fail on a 1
    // (0.1), 4-5 on 1-2 (0.2), 6 on 1-5 (0.5).
    let rules = Rules { optional_national_modifiers: true, ..Rules::default() };
    let french = Mover { nation: Nation::France, ..column() };
    let game = crossing(&rules, french, 0, 40).with_turns(1).unwrap();
    let explained = played(game, Policy::Best).explain().unwrap();
    let options = &explained[0].options;
    assert_eq!(options.len(), 9);
    let full_speed = routed_by_one_volley(2);
    close(
        full_speed,
        (binomial(6, 0.4, 2) + binomial(6, 0.4, 3)) * 0.1
            + (binomial(6, 0.4, 4) + binomial(6, 0.4, 5)) * 0.2
            + binomial(6, 0.4, 6) * 0.5,
    );
    close(options[0].defender_wins, full_speed);
    assert!(options[0].chosen);
    for option in &options[1..] {
        close(option.defender_wins, routed_by_one_volley(0));
        close(option.attacker_wins, 0.0);
    }
    // A Spanish column's +1 likewise; without the optional rule the nation is refused.
    let spanish = Mover { nation: Nation::Spain, ..column() };
    let game = crossing(&rules, spanish, 0, 40).with_turns(1).unwrap();
    let options = &played(game, Policy::Best).explain().unwrap()[0].options;
    close(options[0].defender_wins, routed_by_one_volley(1));
    close(options[1].defender_wins, routed_by_one_volley(0));
    let path = Path { start: 0, exposed: 40, step: 0, across: 2 };
    let refused = Crossing::new(&Rules::default(), Firer::new(Grade::D, 24), RangeBand::Close, french, path);
    assert!(refused.is_err());
    // 7.11: early Prussian infantry moves 1" slower.
    let prussian = Mover { nation: Nation::PrussiaEarly, ..column() };
    assert_eq!(crossing(&rules, prussian, 4, 8).step(), 7);
}

#[test]
fn what_half_of_its_movement_is_half_of() {
    // The stretch 4" to 12", a column's 8" move, pass-through fire.
    let moved = crossing(&pass_through(), column(), 4, 8);
    let full =
        crossing(&Rules { pass_through_measure: PassThroughMeasure::FullMove, ..pass_through() }, column(), 4, 8);
    for (from, to, by_moved, by_full_move) in [
        // A halt short of the stretch, and one in it (shot at the end of movement).
        (3, 3, false, false),
        (5, 5, true, true),
        // 11" to 13": 1" of 2" inside is half of that movement, an eighth of the move.
        (11, 13, true, false),
        // 11" to 19": 1" of 8".
        (11, 19, false, false),
        // 8" to 16": 4" of 8", half either way.
        (8, 16, true, true),
        // 9" to 14": 3" of 5" is over half of the movement, under half the move.
        (9, 14, true, false),
    ] {
        assert_eq!(moved.eligible(from, to), by_moved, "{from} to {to}");
        assert_eq!(full.eligible(from, to), by_full_move, "{from} to {to}");
    }
    // Without 7.1 only the end of movement counts; 3.8 read literally, any touch.
    let basic = crossing(&Rules::default(), column(), 4, 8);
    assert!(!basic.eligible(8, 16) && basic.eligible(5, 5) && !basic.eligible(3, 3));
    let literal = crossing(
        &Rules { stationary_fire_targets: StationaryFireTargets::PassedThrough, ..Rules::default() },
        column(),
        4,
        8,
    );
    assert!(literal.eligible(12, 20) && !literal.eligible(13, 21) && !literal.eligible(0, 3));
}

/// The rules of the grids: basic, pass-through fire, 3.8 read literally.
fn rule_sets() -> Vec<(&'static str, Rules)> {
    vec![
        ("basic", Rules::default()),
        ("pass_through", pass_through()),
        ("passed_through", Rules { stationary_fire_targets: StationaryFireTargets::PassedThrough, ..Rules::default() }),
    ]
}

#[test]
fn best_play_is_never_worse_for_the_mover_than_bold_or_cautious() {
    let mut strictly_better = [0; 2];
    for (name, rules) in rule_sets() {
        for kind in [MoverType::Column, MoverType::Line, MoverType::LightCavalry] {
            for start in [0, 2, 5] {
                for exposed in [0, 3, 8, 13] {
                    for objective in [Objective::Margin, Objective::Win] {
                        let game = crossing(&rules, Mover::new(Grade::D, 24, kind), start, exposed);
                        let value =
                            |policy: Policy| worth(&exact(&with_objective(game.clone(), policy, objective)), objective);
                        let best = value(Policy::Best);
                        for (i, policy) in [Policy::Bold, Policy::Cautious].into_iter().enumerate() {
                            let other = value(policy);
                            let case = format!("{name} {kind:?} start {start} exposed {exposed} {objective:?}");
                            assert!(best >= other - 1e-12, "{case}: best {best} < {policy:?} {other}");
                            strictly_better[i] += usize::from(best > other + 1e-9);
                        }
                    }
                }
            }
        }
    }
    // Best play gains on bold in many cases and on cautious in some (the
    // refusals under `margin`).
    assert!(strictly_better[0] > 20 && strictly_better[1] > 0, "{strictly_better:?}");
}

#[test]
fn the_default_turn_limit_never_stops_best_play() {
    // Two turns more than the full moves take: four more change nothing.
    for (name, rules) in rule_sets().into_iter().take(2) {
        for kind in [MoverType::Column, MoverType::Line, MoverType::LightCavalry] {
            for start in [0, 3, 4, 7] {
                for exposed in [0, 4, 8, 12, 16] {
                    let game = crossing(&rules, Mover::new(Grade::D, 24, kind), start, exposed);
                    assert_eq!(game.turns(), game.full_move_turns() + 2);
                    let longer = game.clone().with_turns(game.turns() + 4).unwrap();
                    let (short, long) = (exact(&played(game, Policy::Best)), exact(&played(longer, Policy::Best)));
                    for metric in ["arrived", "routed", "shattered"] {
                        let (a, b) = (short.probability(metric, 1), long.probability(metric, 1));
                        assert!((a - b).abs() < 1e-12, "{name} {kind:?} {start} {exposed} {metric}: {a} {b}");
                    }
                }
            }
        }
    }
}

#[test]
fn margin_refuses_a_crossing_that_routs_more_often_than_it_arrives() {
    // A field battery's canister (6 dice at 0.5) over a 20" stretch with
    // pass-through fire: crossing in full moves, the column arrives 0.208
    // and is routed or shattered 0.792, and no timing of its moves does
    // better than three volleys. Under `margin` it stays short of the
    // stretch to the turn limit (nobody wins); under `win` it crosses.
    let battery = Firer::battery(Grade::D, Weapon::FieldGun, 6, 12);
    let path = Path { start: 4, exposed: 20, step: 0, across: 2 };
    let game = Crossing::new(&pass_through(), battery, RangeBand::Canister, column(), path).unwrap();
    let margin = exact(&played(game.clone(), Policy::Best));
    close(margin.probability("arrived", 1), 0.0);
    close(lost(&margin), 0.0);
    close(margin.probability("volleys", 0), 1.0);
    close(margin.probability("turns", i64::from(game.turns())), 1.0);
    let win = exact(&with_objective(game.clone(), Policy::Best, Objective::Win));
    let bold = exact(&played(game, Policy::Bold));
    close(win.probability("arrived", 1), 0.20821892929077146);
    assert!(win.probability("arrived", 1) >= bold.probability("arrived", 1) - 1e-12);
}

#[test]
fn a_line_under_ballshot_steps_around_the_enfiladed_middle() {
    // A line on a path 2" in front of a battery is enfiladed (3.5: dense,
    // +2 for ballshot) within 0.83" of the stretch's middle. The stretch 0"
    // to 8" has its middle at 4": the full moves end at 4" (dense), 8" and
    // 12" (past). Best play moves 3" first, ending at 3" and 7", never at the
    // middle: two volleys at a target that is not dense, as the full moves
    // take over the stretch 2" to 10" (ending at 4" and 8", middle 6").
    let battery = Firer::battery(Grade::D, Weapon::FieldGun, 6, 12);
    let line = Mover::new(Grade::D, 24, MoverType::Line);
    let at = |start: u32| {
        let path = Path { start, exposed: 8, step: 0, across: 2 };
        Crossing::new(&Rules::default(), battery, RangeBand::Ballshot, line, path).unwrap()
    };
    let (best, bold) = (exact(&played(at(0), Policy::Best)), exact(&played(at(0), Policy::Bold)));
    let offset = exact(&played(at(2), Policy::Bold));
    close(best.probability("arrived", 1), offset.probability("arrived", 1));
    assert!(best.probability("arrived", 1) > bold.probability("arrived", 1) + 0.1);
    let first = &played(at(0), Policy::Best).explain().unwrap()[0];
    assert_eq!(first.options.iter().find(|o| o.chosen).unwrap().option, "move 3\"");
}

#[test]
fn monte_carlo_agrees_with_the_exact_law_under_each_policy() {
    let national = Rules { optional_national_modifiers: true, ..pass_through() };
    let mut line = Mover::new(Grade::E, 10, MoverType::Line);
    line.general = GeneralPlace::Attached;
    line.charisma = Charisma::Rolled;
    let rifles = Firer { weapon: Weapon::Rifle, ..Firer::new(Grade::B, 20) };
    let battery = Firer::battery(Grade::D, Weapon::FieldGun, 6, 12);
    let games = [
        // The defaults with pass-through fire.
        crossing(&pass_through(), column(), 4, 8),
        // A small, poor line under rifle fire for many turns, with an
        // attached general of rolled charisma: tests, routs and shatters.
        Crossing::new(
            &pass_through(),
            rifles,
            RangeBand::Far,
            line,
            Path { start: 3, exposed: 14, step: 0, across: 2 },
        )
        .unwrap(),
        // A line stepping around the enfiladed middle of a battery's ballshot.
        Crossing::new(
            &Rules::default(),
            battery,
            RangeBand::Ballshot,
            Mover::new(Grade::D, 24, MoverType::Line),
            Path { start: 0, exposed: 8, step: 0, across: 2 },
        )
        .unwrap(),
        // A French column over a long stretch.
        crossing(&national, Mover { nation: Nation::France, ..column() }, 2, 20),
    ];
    let mut seed = 80;
    for game in games {
        for (policy, objective) in [
            (Policy::Bold, Objective::Margin),
            (Policy::Cautious, Objective::Margin),
            (Policy::Best, Objective::Margin),
            (Policy::Best, Objective::Win),
        ] {
            seed += 1;
            assert_agrees(&with_objective(game.clone(), policy, objective), 300_000, seed);
        }
    }
}

/// P(arrived) under best play at the defaults (start 4", exposed 8", a
/// column against 24 muskets at close range) with `key` at each value.
fn sweep(rules: &Rules, objective: &str, key: &str, values: std::ops::RangeInclusive<u32>) -> Vec<f64> {
    values
        .map(|v| {
            let value = v.to_string();
            let scenario: Box<dyn DynScenario> =
                build("crossing", rules, &[(key, value.as_str()), ("attacker.objective", objective)]);
            exact(scenario.as_ref()).probability("arrived", 1)
        })
        .collect()
}

/// The steps of more than 10 points between neighbours: (from, to) values.
fn jumps(values: &[f64], first: u32) -> Vec<(u32, u32)> {
    (0..values.len() - 1)
        .filter(|&i| (values[i + 1] - values[i]).abs() > 0.10)
        .map(|i| (first + i as u32, first + i as u32 + 1))
        .collect()
}

#[test]
fn start_sweeps_under_best_play_are_flat() {
    // From any start the column takes exactly one volley over an 8" stretch
    // (it cannot jump it, and 7.1 never catches a bound leaving it), and
    // none over a 4" one without 7.1 (it halts an inch short and jumps it)
    // but one with it (4" of an 8" bound is half).
    for (rules, exposed, arrived) in [
        (Rules::default(), "8", 0.7508352),
        (pass_through(), "8", 0.7508352),
        (Rules::default(), "4", 1.0),
        (pass_through(), "4", 0.7508352),
    ] {
        for objective in ["margin", "win"] {
            for start in 0..=24 {
                let start = start.to_string();
                let keys = [("start", start.as_str()), ("exposed", exposed), ("attacker.objective", objective)];
                let dist = exact(build("crossing", &rules, &keys).as_ref());
                close(dist.probability("arrived", 1), arrived);
            }
        }
    }
}

#[test]
fn move_sweeps_under_best_play_jump_only_where_the_module_says() {
    // The defaults (the stretch 4" to 12") at each move from 1" to 20": the
    // values (to 4 places) and the steps of more than 10 points, each
    // explained in the module documentation.
    let refused = [0.0; 3];
    let lines = [1.0; 11];
    let cases = [
        (
            Rules::default(),
            "margin",
            [&refused[..], &[0.5211], &[0.7508; 5], &lines].concat(),
            vec![(3, 4), (4, 5), (9, 10)],
        ),
        (
            Rules::default(),
            "win",
            [&[0.0033, 0.1906, 0.3263, 0.5211][..], &[0.7508; 5], &lines].concat(),
            vec![(1, 2), (2, 3), (3, 4), (4, 5), (9, 10)],
        ),
        (
            pass_through(),
            "margin",
            [&refused[..], &[0.5211; 3], &[0.7508; 10], &[1.0; 4]].concat(),
            vec![(3, 4), (6, 7), (16, 17)],
        ),
        (
            pass_through(),
            "win",
            [&[0.0033, 0.1027, 0.3263][..], &[0.5211; 3], &[0.7508; 10], &[1.0; 4]].concat(),
            vec![(2, 3), (3, 4), (6, 7), (16, 17)],
        ),
    ];
    for (rules, objective, want, want_jumps) in cases {
        let have = sweep(&rules, objective, "move", 1..=20);
        for (m, (h, w)) in have.iter().zip(&want).enumerate() {
            assert!((h - w).abs() < 6e-5, "{objective} move {}: {h} != {w}", m + 1);
        }
        assert_eq!(jumps(&have, 1), want_jumps, "{objective}: {have:?}");
    }
}
