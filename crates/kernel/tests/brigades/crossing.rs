//! `crossing`: a unit marching across a stationary firer's front, with and
//! without pass-through fire (7.1), played bold (its full move every turn,
//! the scenario before its `move` decision): the volley schedule from the
//! path, a hand-worked single volley, the switches, the numbers of the
//! full-move crossing pinned, and the game against Monte Carlo. Its decision
//! is tested in `crossing_play`.

use super::{build, close, exact, rules};
use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;
use volley_kernel::game::{Objective, Plan, Played, Policy};
use volley_kernel::params::RuleBook;
use volley_kernel::rulesets::brigades::crossing::{Crossing, Firer, Mover, MoverType, Path};
use volley_kernel::rulesets::brigades::{
    Charisma, GeneralPlace, Grade, RangeBand, Rules, StationaryFireTargets, Target, Weapon,
};
use volley_kernel::runner::RunOptions;

/// A grade E line of 10 with its general attached, 3 inches from 14 inches
/// under a grade B rifle line's far fire: the pinned cases' line.
const LINE_UNDER_RIFLES: [(&str, &str); 10] = [
    ("mover.type", "line"),
    ("mover.quality", "e"),
    ("mover.figures", "10"),
    ("mover.general", "attached"),
    ("firer.weapon", "rifle"),
    ("firer.quality", "b"),
    ("firer.figures", "20"),
    ("range", "far"),
    ("start", "3"),
    ("exposed", "14"),
];

fn pass_through() -> Rules {
    Rules { optional_pass_through_fire: true, ..Rules::default() }
}

fn column(figures: u32) -> Mover {
    Mover::new(Grade::D, figures, MoverType::Column)
}

fn path(start: u32, exposed: u32) -> Path {
    Path { start, exposed, step: 0, across: 2 }
}

fn crossing(rules: &Rules, mover: Mover, path: Path) -> Crossing {
    Crossing::new(rules, Firer::new(Grade::D, 24), RangeBand::Close, mover, path).unwrap()
}

/// The crossing with the mover at `policy` (the firer has no decision).
pub fn played(crossing: Crossing, policy: Policy) -> Played<Crossing> {
    Played::new(crossing, Plan { policy: [policy, Policy::Best], objective: [Objective::Margin; 2] })
}

/// The crossing with the mover moving its full move every turn.
fn bold(crossing: Crossing) -> Played<Crossing> {
    played(crossing, Policy::Bold)
}

fn binomial(n: u32, p: f64, k: u32) -> f64 {
    let choose = (0..k).fold(1.0, |c, i| c * f64::from(n - i) / f64::from(i + 1));
    choose * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
}

#[test]
fn a_column_crossing_a_four_inch_stretch_in_one_move_by_hand() {
    // The stretch runs from 2" to 6" along the path; a column moves 8" (2.11),
    // so turn 1 takes it from 0" to 8": past the stretch at the end of the
    // move (no fire normally), but inside it for 4" of its 8", exactly half.
    let off = crossing(&rules(), column(24), path(2, 4));
    assert_eq!(off.step(), 8);
    assert!(off.volley_turns().is_empty());
    let dist = exact(&bold(off));
    close(dist.probability("volleys", 0), 1.0);
    close(dist.probability("arrived", 1), 1.0);
    close(dist.probability("remaining", 100), 1.0);
    close(dist.probability("turns", 1), 1.0);

    // With pass-through fire, one volley: 24 muskets roll 6 dice (3.1) at
    // close range, 7+ on a normal target (3.2): 0.4 a die.
    let on = crossing(&pass_through(), column(24), path(2, 4));
    assert_eq!(on.volley_turns(), vec![1]);
    assert_eq!(on.volley(), (6, 0.4));
    let dist = exact(&bold(on));
    close(dist.probability("volleys", 1), 1.0);
    let b = |k: u32| binomial(6, 0.4, k);
    for k in 0..=6 {
        close(dist.probability("hits", i64::from(k)), b(k));
    }
    // 2+ hits test (5.4 (1)); grade D passes on 3 (5.5). 2-3 hits: -1 (one
    // pair), no whole quarter of 24 lost: D10 4+ passes, 0.3 fails. 4-5
    // hits: -2: 0.4 fails. 6 hits: -3 and -2 for a quarter lost: 8+ passes,
    // 0.7 fails. Nothing shatters: 6 hits and 6 rout hits are 12 of 24.
    let routed = (b(2) + b(3)) * 0.3 + (b(4) + b(5)) * 0.4 + b(6) * 0.7;
    close(dist.probability("routed", 1), routed);
    close(dist.probability("arrived", 1), 1.0 - routed);
    close(dist.probability("shattered", 1), 0.0);
    // 87% left (21 of 24): 3 hits passed, or 2 hits failed with a rout roll
    // of 10 (D, +0; 22 figures: the large column's 4" row, 1 rout hit).
    close(dist.probability("remaining", 87), b(3) * 0.7 + b(2) * 0.3 * 0.1);
    // 75% (18 of 24): 6 hits passed; 4 hits and the 6" row (8-9, 2 rout
    // hits); 5 hits and the 4" row (10, 1); 3 hits and the 8" row (5-7, 3).
    let at_75 = b(6) * 0.3 + b(4) * 0.4 * 0.2 + b(5) * 0.4 * 0.1 + b(3) * 0.3 * 0.3;
    close(dist.probability("remaining", 75), at_75);
    // Rout hits of 6 (the 18" row, rolls 1-2) come only from a failed test.
    close(dist.probability("rout_hits", 6), routed * 0.2);
}

#[test]
fn exactly_half_counts_and_less_does_not() {
    let fires =
        |rules: &Rules, start: u32, exposed: u32| crossing(rules, column(24), path(start, exposed)).volley_turns();
    // 4" of an 8" move is "at least half"; 3" is not.
    assert_eq!(fires(&pass_through(), 2, 4), vec![1]);
    assert!(fires(&pass_through(), 2, 3).is_empty());
    // The fraction is a rule field: at 60%, 4.8" of 8" are needed.
    let sixty = Rules { pass_through_percent: 60, ..pass_through() };
    assert!(fires(&sixty, 2, 4).is_empty());
    assert_eq!(fires(&sixty, 2, 5), vec![1]);
    // 3.8 read literally: any move that touched the stretch, even a point.
    let literal = Rules { stationary_fire_targets: StationaryFireTargets::PassedThrough, ..Rules::default() };
    assert_eq!(fires(&literal, 2, 3), vec![1]);
    assert_eq!(fires(&literal, 2, 0), vec![1]);
    assert!(fires(&rules(), 2, 0).is_empty());
    assert!(fires(&pass_through(), 2, 0).is_empty());
    // A stretch ending exactly where a move ends is eligible at its end.
    assert_eq!(fires(&rules(), 2, 6), vec![1]);
}

#[test]
fn pass_through_fire_adds_the_volley_at_the_far_edge() {
    // Defaults: the stretch is 4" to 12"; the column ends turn 1 at 8" (in
    // it) and turn 2 at 16" (past it, after 4" of 8" inside it).
    let off = crossing(&rules(), column(24), path(4, 8));
    let on = crossing(&pass_through(), column(24), path(4, 8));
    assert_eq!(off.volley_turns(), vec![1]);
    assert_eq!(on.volley_turns(), vec![1, 2]);
    let (off, on) = (exact(&bold(off)), exact(&bold(on)));
    close(off.probability("volleys", 1), 1.0);
    assert!(on.mean("hits") > off.mean("hits") + 1.0, "{} {}", on.mean("hits"), off.mean("hits"));
    assert!(on.probability("routed", 1) > off.probability("routed", 1));
    assert!(on.mean("remaining") < off.mean("remaining"));
    // One volley of 6 dice at 0.4: 2.4 hits on average.
    close(off.mean("hits"), 2.4);
    // A routed mover leaves after the first volley: the second comes only
    // to those that passed.
    close(on.probability("volleys", 2), 1.0 - off.probability("routed", 1) - off.probability("shattered", 1));
}

#[test]
fn a_line_whose_moves_end_inside_gains_nothing() {
    // A line moves 4": it ends turns at 4", 8" and 12", all in the stretch;
    // turn 4's move (12" to 16") meets it only at 12", none of its length.
    let line = Mover::new(Grade::D, 24, MoverType::Line);
    let off = crossing(&rules(), line, path(4, 8));
    let on = crossing(&pass_through(), line, path(4, 8));
    assert_eq!(off.step(), 4);
    assert_eq!(off.volley_turns(), vec![1, 2, 3]);
    assert_eq!(on.volley_turns(), vec![1, 2, 3]);
    let (off, on) = (exact(&bold(off)), exact(&bold(on)));
    for k in 0..=24 {
        close(on.probability("hits", k), off.probability("hits", k));
    }
}

#[test]
fn a_moving_firer_is_not_stationary() {
    // 3.1, 3.3, 3.8: half a move and fire at -2 (7+ becomes 9+: 0.2 a die),
    // and only at targets eligible at the end of all movement.
    let mut firer = Firer::new(Grade::D, 24);
    firer.moving = true;
    let scenario = Crossing::new(&pass_through(), firer, RangeBand::Close, column(24), path(4, 8)).unwrap();
    assert_eq!(scenario.volley_turns(), vec![1]);
    assert_eq!(scenario.volley(), (6, 0.2));
    let battery = Firer { moving: true, ..Firer::battery(Grade::D, Weapon::FieldGun, 6, 24) };
    assert!(Crossing::new(&rules(), battery, RangeBand::Canister, column(24), path(4, 8)).is_err());
}

#[test]
fn a_battery_and_ballshot_at_a_dense_column() {
    // 6 field guns with 24 gunners: 8 crew a model, 2 dice each (3.1).
    // Canister at a normal target hits on 6+ (0.5); ballshot on 8+ (0.3),
    // +2 at a column of three ranks (24 figures, 8 wide: 3.5), 6+ again.
    let battery = Firer::battery(Grade::D, Weapon::FieldGun, 6, 24);
    let at =
        |band: RangeBand, mover: Mover| Crossing::new(&rules(), battery, band, mover, path(4, 8)).unwrap().volley();
    assert_eq!(at(RangeBand::Canister, column(24)), (6, 0.5));
    assert_eq!(at(RangeBand::Ballshot, column(24)), (6, 0.5));
    assert_eq!(at(RangeBand::Ballshot, column(16)), (6, 0.3));
    assert_eq!(at(RangeBand::Ballshot, Mover::new(Grade::D, 24, MoverType::HeavyCavalry)), (6, 0.3));
    // A battery has no close range, a musket no canister (3.2).
    assert!(Crossing::new(&rules(), battery, RangeBand::Close, column(24), path(4, 8)).is_err());
    let muskets = Firer::new(Grade::D, 24);
    assert!(Crossing::new(&rules(), muskets, RangeBand::Canister, column(24), path(4, 8)).is_err());
}

#[test]
fn the_solver_agrees_with_monte_carlo() {
    // The defaults with pass-through fire: two volleys.
    let scenario = crossing(&pass_through(), column(24), path(4, 8));
    assert_agrees(&bold(scenario), 1_000_000, 71);
    // A small, poor line under rifle fire for many turns, with an attached
    // general of rolled charisma: tests, routs and shatters.
    let mut mover = Mover::new(Grade::E, 10, MoverType::Line);
    mover.general = GeneralPlace::Attached;
    mover.charisma = Charisma::Rolled;
    let firer = Firer { weapon: Weapon::Rifle, ..Firer::new(Grade::B, 20) };
    let scenario = Crossing::new(
        &pass_through(),
        firer,
        RangeBand::Far,
        mover,
        Path { start: 3, exposed: 14, step: 0, across: 2 },
    )
    .unwrap();
    assert_agrees(&bold(scenario), 1_000_000, 72);
    // Light cavalry past a battery's canister, out of its general's radius,
    // with 3.8's literal reading.
    let rules = Rules { stationary_fire_targets: StationaryFireTargets::PassedThrough, ..Rules::default() };
    let mut mover = Mover::new(Grade::C, 12, MoverType::LightCavalry);
    mover.general = GeneralPlace::OutOfRadius;
    mover.target = Target::Soft;
    let battery = Firer::battery(Grade::C, Weapon::HeavyGun, 4, 12);
    let scenario = Crossing::new(&rules, battery, RangeBand::Canister, mover, path(5, 20)).unwrap();
    assert_eq!(scenario.volley_turns(), vec![1, 2, 3]);
    assert_agrees(&bold(scenario), 1_000_000, 73);
}

#[test]
fn a_line_crossing_the_front_is_dense_over_the_middle_of_its_path() {
    // A line marching along a path across the firer's front faces along the
    // path: straight ahead of the firer the line of sight runs down its flank,
    // and 3.5 makes a line enfiladed at 22.5 degrees or less dense. The
    // stretch 4"-12" is symmetric about the point straight ahead, 8"; 2" in
    // front of the firer (`across`), a line is enfiladed within 2 x tan 22.5
    // = 0.83" of it. A line moves 4" a turn (2.11): it ends its moves at 4",
    // 8" and 12" (the fourth, to 16", takes it past), dense only at 8".
    let battery = Firer::battery(Grade::D, Weapon::FieldGun, 6, 12);
    let line = Mover::new(Grade::D, 24, MoverType::Line);
    let near = Crossing::new(&rules(), battery, RangeBand::Ballshot, line, Path { across: 2, ..path(4, 8) }).unwrap();
    assert_eq!(near.volley_turns(), vec![1, 2, 3]);
    assert_eq!(near.dense_turns(), vec![2]);
    // 10" off the path, the enfiladed stretch is 4.14" either side of 8".
    let far = Crossing::new(&rules(), battery, RangeBand::Ballshot, line, Path { across: 10, ..path(4, 8) }).unwrap();
    assert_eq!(far.dense_turns(), vec![1, 2, 3]);
    // One volley, at 8": a field battery of 6 guns and 12 gunners rolls 6
    // dice (4 gunners a model, 2 dice each, 3.1); ballshot hits a normal
    // target on 8 (3.2), a dense one on 6 (+2, 3.3): 0.5 a die. No hit at all
    // comes 0.5^6 of the time; a line never dense (the reading before issue
    // 15) would go unhit 0.7^6 of the time.
    let one = Crossing::new(&rules(), battery, RangeBand::Ballshot, line, path(8, 0)).unwrap();
    assert_eq!((one.volley_turns(), one.dense_turns()), (vec![2], vec![2]));
    let dist = exact(&bold(one));
    close(dist.probability("hits", 0), 0.5f64.powi(6));
    close(dist.probability("hits", 1), binomial(6, 0.5, 1));
    close(dist.probability("volleys", 1), 1.0);
    // A column is dense (or not) wherever it is; cavalry never.
    let cavalry = Mover::new(Grade::D, 12, MoverType::HeavyCavalry);
    let ridden = Crossing::new(&rules(), battery, RangeBand::Ballshot, cavalry, path(8, 0)).unwrap();
    assert!(ridden.dense_turns().is_empty());
    assert_agrees(&bold(far), 400_000, 74);
}

#[test]
fn catalogue_keys_build_a_crossing() {
    let brigades = ruleset("brigades").unwrap();
    let rules = Rules { optional_pass_through_fire: true, ..Rules::default() };
    let scenario = brigades.scenario("crossing").unwrap();
    let built = scenario
        .build_from_text(
            &rules,
            [
                ("mover.type", "light_cavalry"),
                ("start", "6"),
                ("exposed", "4"),
                ("move", "0"),
                ("attacker.policy", "bold"),
            ],
        )
        .unwrap();
    // 12" a turn: the stretch 6"-10" holds 4" of turn 1's move, under half.
    let dist = built.exact_distribution().unwrap();
    close(dist.probability("volleys", 0), 1.0);
    let built =
        scenario.build_from_text(&rules, [("start", "2"), ("exposed", "4"), ("attacker.policy", "bold")]).unwrap();
    close(built.exact_distribution().unwrap().probability("volleys", 1), 1.0);
    assert!(scenario.build_from_text(&rules, [("range", "canister")]).is_err());
    let metrics: Vec<&str> = built.metrics().iter().map(|m| m.name).collect();
    for want in ["hits", "volleys", "arrived", "routed", "shattered", "remaining"] {
        assert!(metrics.contains(&want), "{want} in {metrics:?}");
    }
}

/// The printed rules with one field set by name.
fn with(field: &str, value: volley_kernel::params::Value) -> Rules {
    let mut rules = Rules::default();
    rules.set(field, &value).unwrap();
    rules
}

#[test]
fn bold_keeps_the_numbers_of_the_full_move_crossing() {
    // The exact laws of the scenario before its `move` decision (a chain over
    // the mover's figures, the mover moving its whole move every turn), to
    // the last digit: P(arrived), P(routed), P(shattered), and the means of
    // hits, rout hits, volleys, turns and remaining.
    use volley_kernel::params::Value;
    let pass_through = with("optional_pass_through_fire", Value::Bool(true));
    let literal = with("stationary_fire_targets", Value::Choice("passed_through".into()));
    let printed = Rules::default();
    let battery = [("firer.weapon", "field_gun"), ("firer.figures", "12"), ("range", "canister")];
    let line = LINE_UNDER_RIFLES;
    let cavalry = [
        ("mover.type", "light_cavalry"),
        ("mover.quality", "c"),
        ("mover.figures", "12"),
        ("mover.general", "out_of_radius"),
        ("mover.target", "soft"),
        ("firer.weapon", "heavy_gun"),
        ("firer.quality", "c"),
        ("firer.guns", "4"),
        ("firer.figures", "12"),
        ("range", "canister"),
        ("start", "5"),
        ("exposed", "20"),
    ];
    let cases = vec![
        (&printed, vec![], [0.7508352, 0.2491648, 0.0, 2.4, 0.89699328, 1.0, 1.7508352, 85.73333504]),
        (
            &pass_through,
            vec![],
            [
                0.52105994452992,
                0.47894005547008023,
                9.05969664000001e-7,
                4.202004480000002,
                1.6956916802519042,
                1.7508352000000003,
                1.7508352000000003,
                75.0357084988375,
            ],
        ),
        (
            &pass_through,
            [&battery[..], &[("exposed", "8")]].concat(),
            [
                0.40544921875,
                0.59455078125,
                1.318359375e-5,
                5.08125,
                2.0445261230468748,
                1.69375,
                1.69375,
                69.92487036132815,
            ],
        ),
        (
            &pass_through,
            [&battery[..], &[("exposed", "20")]].concat(),
            [
                0.20821892929077146,
                0.7917809562683107,
                0.005339380645751953,
                6.297597656250001,
                2.547980891036988,
                2.0991992187500004,
                2.307418148040771,
                62.73806617965698,
            ],
        ),
        (
            &pass_through,
            line.to_vec(),
            [
                0.2855342816755987,
                0.6738663342878237,
                0.28399914596457465,
                4.294253230220861,
                1.4200148754079538,
                2.863085569668509,
                3.1486198513441077,
                42.85731894371181,
            ],
        ),
        (
            &literal,
            cavalry.to_vec(),
            [
                0.7927106717614091,
                0.20727855248179222,
                0.006035355009024008,
                2.2461078732800024,
                0.4554864553951236,
                2.807634841600003,
                2.807634841600003,
                77.14238756447855,
            ],
        ),
    ];
    for (rules, keys, want) in cases {
        let mut keys = keys;
        keys.push(("attacker.policy", "bold"));
        let dist = exact(build("crossing", rules, &keys).as_ref());
        let have = [
            dist.probability("arrived", 1),
            dist.probability("routed", 1),
            dist.probability("shattered", 1),
            dist.mean("hits"),
            dist.mean("rout_hits"),
            dist.mean("volleys"),
            dist.mean("turns"),
            dist.mean("remaining"),
        ];
        for (h, w) in have.iter().zip(want) {
            assert!((h - w).abs() < 1e-12 * w.max(1.0), "{keys:?}: {have:?} != {want:?}");
        }
    }
}

#[test]
fn bold_samples_the_dice_of_the_full_move_crossing() {
    // Value stability: the seeded Monte Carlo counts of the scenario before
    // its `move` decision (100 000 samples, seed 7), which rolled the same
    // dice in the same order: an attached general's charisma, then each
    // volley die by die and each test.
    use volley_kernel::params::Value;
    let pass_through = with("optional_pass_through_fire", Value::Bool(true));
    let line = LINE_UNDER_RIFLES;
    for (keys, want) in
        [(vec![], [52221, 47779, 0, 217, 20178, 2436]), (line.to_vec(), [28794, 67148, 28400, 64, 21591, 18801])]
    {
        let mut keys = keys;
        keys.push(("attacker.policy", "bold"));
        let dist = build("crossing", &pass_through, &keys).simulate(&RunOptions::new(100_000, 7)).unwrap();
        let count = |metric: &str, value: i64| {
            let i = dist.metric_index(metric).unwrap();
            dist.joint.iter().filter(|j| j.values[i] == value).map(|j| j.count).sum::<u64>()
        };
        let have = [
            count("arrived", 1),
            count("routed", 1),
            count("shattered", 1),
            count("hits", 0),
            count("hits", 3),
            count("remaining", 50),
        ];
        assert_eq!(have, want, "{keys:?}");
    }
}
