//! One-on-one engagements: the rules' worked example, hand-worked odds, and
//! each engagement rule caught by a case that a misreading would fail.

use super::assert_agrees;
use volley_kernel::catalogue;
use volley_kernel::rulesets::huzzah::engagement::{Engagement, Fate, Fighter, Victor, resolve};
use volley_kernel::rulesets::huzzah::{Arm, CavalryKind, Officer, Quality, Rules};
use volley_kernel::scenario::DynScenario;

/// The pair index of two dice (1-6 each).
fn pair(first: u32, second: u32) -> u32 {
    6 * (first - 1) + (second - 1)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn the_rules_worked_example_trained_french_against_experienced_british() {
    // "A French trained battalion attacks and engages an experienced British
    // line. The French unit has an effective morale of 8, the British, 9. The
    // French player rolls 10 (a failure); the British player rolls a 5. The
    // French unit takes 1 kill, 4 staggers and routs. The British unit is unharmed."
    let rules = Rules::default();
    let french = Fighter::new(Quality::Trained);
    let british = Fighter::new(Quality::Experienced);
    let r = resolve(&rules, &french, &british, pair(4, 6), pair(1, 4));
    assert_eq!((r.attacker.rating, r.defender.rating), (8, 9));
    assert_eq!(r.victor, Victor::Defender);
    assert_eq!((r.attacker.kills, r.attacker.staggers, r.attacker.fate), (1, 4, Fate::Routs));
    assert_eq!((r.defender.kills, r.defender.staggers, r.defender.fate), (0, 0, Fate::Holds));
    // The same through the scenario's table.
    let scenario = Engagement::new(&rules, french, british).unwrap();
    let mut values = [0i64; 13];
    volley_kernel::scenario::Scenario::decode(&scenario, Engagement::code(pair(4, 6), pair(1, 4)), &mut values);
    assert_eq!(values, [1, 4, 1, 0, 0, 0, 0, Fate::Routs as i64, Fate::Holds as i64, 0, 0, 0, 0]);
}

#[test]
fn trained_against_trained_ties_one_time_in_six() {
    let rules = Rules::default();
    let scenario = Engagement::new(&rules, Fighter::new(Quality::Trained), Fighter::new(Quality::Trained)).unwrap();
    let exact = scenario.exact_distribution().unwrap();
    // Both fail: (10/36)^2 = 100/1296. Equal margins: the ways of rolling
    // 2..8 are 1,2,3,4,5,6,5, squared and summed 116. Tie = 216/1296 = 1/6;
    // no fresh Trained winner can break, so the rest splits evenly.
    assert!(close(exact.probability("result", 2), 216.0 / 1296.0));
    assert!(close(exact.probability("result", 0), 540.0 / 1296.0));
    assert!(close(exact.probability("result", 1), 540.0 / 1296.0));
    // Kills: 1 for failing (10/36) and 1 for the enemy's Huzzah! (1/36), independent.
    assert!(close(exact.probability("attacker_kills", 2), 10.0 / 1296.0));
    assert!(close(exact.probability("attacker_kills", 0), 26.0 * 35.0 / 1296.0));
    // On a tie the attacker retires and the defender holds.
    assert!(close(exact.probability("attacker_fate", Fate::Retires as i64), 216.0 / 1296.0));
    assert!(close(exact.probability("defender_fate", Fate::Retires as i64), 0.0));
    // Staggers: the defender takes 6 only when the attacker rolls 2, which is
    // a Huzzah!, and the defender does not (35/36): 35/1296.
    assert!(close(exact.probability("defender_staggers", 6), 35.0 / 1296.0));
    assert_agrees(&scenario, 1_000_000, 41);
}

#[test]
fn a_huzzah_inflicts_a_kill_ignores_staggers_and_retires_when_it_loses() {
    let rules = Rules::default();
    // Trained rolls double one (success by 6); a Veteran rolls 3 (success by 7) and wins.
    let r = resolve(&rules, &Fighter::new(Quality::Trained), &Fighter::new(Quality::Veteran), pair(1, 1), pair(1, 2));
    assert_eq!(r.victor, Victor::Defender);
    assert_eq!((r.attacker.staggers, r.attacker.kills, r.attacker.fate), (0, 0, Fate::Retires));
    assert_eq!((r.defender.staggers, r.defender.kills, r.defender.fate), (6, 1, Fate::Holds));
    // A Huzzah! that wins: the opponent takes the margin and a kill.
    let r = resolve(&rules, &Fighter::new(Quality::Trained), &Fighter::new(Quality::Trained), pair(1, 1), pair(5, 6));
    assert_eq!(r.victor, Victor::Attacker);
    assert_eq!((r.defender.staggers, r.defender.kills, r.defender.fate), (6, 2, Fate::Broken));
}

#[test]
fn the_winner_breaking_makes_a_tie() {
    let rules = Rules::default();
    // A Veteran (full 10) with 6 staggers and 1 kill defends: more staggers and
    // more kills than the attacker, Down 2 to Trained (8). It rolls 3 (by 5);
    // the Trained attacker rolls 5 (by 3). The defender would win but takes 3
    // staggers: 6 + 1 + 3 = 10 breaks it, so the result is a tie.
    let mut veteran = Fighter::new(Quality::Veteran);
    veteran.staggers = 6;
    veteran.kills = 1;
    let r = resolve(&rules, &Fighter::new(Quality::Trained), &veteran, pair(2, 3), pair(1, 2));
    assert_eq!(r.defender.rating, 8);
    assert_eq!(r.victor, Victor::Tie);
    assert_eq!(r.defender.fate, Fate::Broken);
    assert_eq!(r.attacker.fate, Fate::Retires);
}

#[test]
fn both_failing_is_a_tie_with_a_kill_each() {
    let rules = Rules::default();
    let r = resolve(&rules, &Fighter::new(Quality::Trained), &Fighter::new(Quality::Trained), pair(5, 5), pair(6, 6));
    assert_eq!(r.victor, Victor::Tie);
    assert_eq!((r.attacker.kills, r.defender.kills), (1, 1));
    assert_eq!((r.attacker.staggers, r.defender.staggers), (0, 0));
    // Success by exactly 0 inflicts nothing but still wins against a failure.
    let r = resolve(&rules, &Fighter::new(Quality::Trained), &Fighter::new(Quality::Trained), pair(4, 4), pair(6, 6));
    assert_eq!(r.victor, Victor::Attacker);
    assert_eq!((r.defender.staggers, r.defender.kills, r.defender.fate), (0, 1, Fate::Routs));
}

#[test]
fn cavalry_breaks_unsquared_infantry_and_is_disadvantaged_against_squares() {
    let rules = Rules::default();
    let cavalry = Fighter::new(Quality::Trained).of_arm(Arm::Cavalry);
    let line = Fighter::new(Quality::Trained);
    // Cavalry rolls 4 (by 4), the line rolls 7 (by 1): the line loses and is broken.
    let r = resolve(&rules, &cavalry, &line, pair(2, 2), pair(3, 4));
    assert_eq!(r.victor, Victor::Attacker);
    assert_eq!(r.defender.fate, Fate::Broken);
    assert!(r.defender.broken);
    // The winning cavalry is blown.
    assert!(r.attacker.blown && r.attacker.fate == Fate::Holds);
    // Unless the line rolled Huzzah!: then it retires (and the cavalry holds, blown).
    let huzzah_line =
        resolve(&rules, &Fighter::new(Quality::Veteran).of_arm(Arm::Cavalry), &line, pair(1, 2), pair(1, 1));
    assert_eq!(huzzah_line.victor, Victor::Attacker);
    assert_eq!(huzzah_line.defender.fate, Fate::Retires);
    // A square makes the cavalry disadvantaged: Trained 4 against 8.
    let mut square = Fighter::new(Quality::Trained);
    square.square = true;
    let e = Engagement::new(&rules, cavalry, square).unwrap();
    assert_eq!(e.ratings(), [4, 8]);
    // Cavalry that routs is not blown: it rolls 9 (fails), the square 5.
    let r = resolve(&rules, &cavalry, &square, pair(4, 5), pair(2, 3));
    assert_eq!(r.attacker.fate, Fate::Routs);
    assert!(!r.attacker.blown);
    assert_agrees(&e, 1_000_000, 42);
}

#[test]
fn a_battery_is_a_small_unit_and_breaks_when_it_loses() {
    let rules = Rules::default();
    let battery = Fighter::new(Quality::Trained).of_arm(Arm::Artillery);
    let e = Engagement::new(&rules, Fighter::new(Quality::Trained), battery).unwrap();
    // Small unit: Down 1, Trained to Green (7).
    assert_eq!(e.ratings(), [8, 7]);
    let r = resolve(&rules, &Fighter::new(Quality::Trained), &battery, pair(1, 2), pair(2, 3));
    assert_eq!(r.victor, Victor::Attacker);
    assert_eq!(r.defender.fate, Fate::Broken);
    // Even a Huzzah! battery breaks when it loses, by default ...
    let veteran = Fighter::new(Quality::Veteran);
    let r = resolve(&rules, &veteran, &battery, pair(1, 2), pair(1, 1));
    assert_eq!(r.victor, Victor::Attacker);
    assert_eq!(r.defender.fate, Fate::Broken);
    // ... and retires under the other reading.
    let lenient = Rules {
        artillery_huzzah_loss: volley_kernel::rulesets::huzzah::ArtilleryHuzzahLoss::Retires,
        ..Rules::default()
    };
    assert_eq!(resolve(&lenient, &veteran, &battery, pair(1, 2), pair(1, 1)).defender.fate, Fate::Retires);
    assert_agrees(&e, 1_000_000, 43);
}

#[test]
fn small_units_take_their_down_only_against_standard_sized_units() {
    // "Engage the enemy", Small unit: small units "suffer this penalty in
    // engagements against standard-sized units". A small Trained unit (8)
    // against a standard one fights as Green (7); two small Trained units
    // fight each other at 8 apiece (the old reading gave 7 and 7); a small
    // unit against a battery (small by default) also meets an equal: 8, 8.
    let rules = Rules::default();
    let mut small = Fighter::new(Quality::Trained);
    small.small = true;
    let standard = Fighter::new(Quality::Trained);
    let battery = Fighter::new(Quality::Trained).of_arm(Arm::Artillery);
    let ratings = |a: Fighter, d: Fighter| Engagement::new(&rules, a, d).unwrap().ratings();
    assert_eq!(ratings(small, standard), [7, 8]);
    assert_eq!(ratings(small, small), [8, 8]);
    assert_eq!(ratings(small, battery), [8, 8]);
    // With batteries standard-sized, the small unit takes its Down again.
    let standard_guns = Rules {
        artillery_small_unit: volley_kernel::rulesets::huzzah::ArtillerySmallUnit::Standard,
        ..Rules::default()
    };
    assert_eq!(Engagement::new(&standard_guns, small, battery).unwrap().ratings(), [7, 8]);
}

#[test]
fn engagement_ups_and_downs() {
    let rules = Rules::default();
    let base = Fighter::new(Quality::Trained);
    let rating = |me: Fighter, enemy: Fighter| Engagement::new(&rules, me, enemy).unwrap().ratings()[0];
    // More kills, more staggers: Down 1 each (compared with the opponent, not counted).
    let mut worn = base;
    worn.kills = 2;
    worn.staggers = 1;
    let mut opponent = base;
    opponent.kills = 1;
    assert_eq!(rating(worn, opponent), 6);
    opponent.staggers = 1;
    assert_eq!(rating(worn, opponent), 7);
    // Officer Up 1, inspirational Up 2: Trained to Experienced, Veteran.
    let mut led = base;
    led.officer = Officer::Attached;
    assert_eq!(rating(led, base), 9);
    led.officer = Officer::Inspirational;
    assert_eq!(rating(led, base), 10);
    // Favourable position Up 1, but never when disadvantaged.
    let mut favoured = base;
    favoured.favourable = true;
    assert_eq!(rating(favoured, base), 9);
    favoured.disadvantaged = true;
    assert_eq!(rating(favoured, base), 4);
    // Battle cavalry Up 1; pursuit cavalry Up 1 only against a disadvantaged enemy.
    let mut battle = base.of_arm(Arm::Cavalry);
    battle.cavalry = CavalryKind::Battle;
    assert_eq!(rating(battle, base), 9);
    let mut pursuit = base.of_arm(Arm::Cavalry);
    pursuit.cavalry = CavalryKind::Pursuit;
    assert_eq!(rating(pursuit, base), 8);
    let mut flanked = base;
    flanked.disadvantaged = true;
    assert_eq!(rating(pursuit, flanked), 9);
    // Shifts add to the rest: Down 1 (renowned opponent) to Green.
    let mut shifted = base;
    shifted.shifts = -1;
    assert_eq!(rating(shifted, base), 7);
}

#[test]
fn an_attached_officer_dies_with_a_kill() {
    let rules = Rules::default();
    let mut led = Fighter::new(Quality::Trained);
    led.officer = Officer::Attached;
    // Experienced (9) rolls 11: a kill, so the officer dies.
    let r = resolve(&rules, &led, &Fighter::new(Quality::Trained), pair(5, 6), pair(3, 3));
    assert!(r.attacker.officer_killed);
    // A success that takes only staggers leaves him unharmed.
    let r = resolve(&rules, &led, &Fighter::new(Quality::Trained), pair(3, 4), pair(2, 2));
    assert_eq!((r.attacker.kills, r.attacker.staggers), (0, 4));
    assert!(!r.attacker.officer_killed);
}

#[test]
fn the_catalogue_builds_engagements_from_keys_and_rejects_broken_units() {
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let rules = (huzzah.default_rules)();
    let entry = huzzah.scenario("engagement").unwrap();
    let e = entry
        .build_from_text(
            rules.as_ref(),
            [("attacker.quality", "trained"), ("defender.quality", "experienced"), ("attacker.arm", "cavalry")],
        )
        .unwrap();
    let exact = e.exact_distribution().unwrap();
    let total: f64 = (0..3).map(|v| exact.probability("result", v)).sum();
    assert!(close(total, 1.0));
    assert!(entry.build_from_text(rules.as_ref(), [("defender.staggers", "5"), ("defender.kills", "3")]).is_err());
    assert!(entry.build_from_text(rules.as_ref(), [("attacker.square", "true"), ("attacker.arm", "cavalry")]).is_err());
    let with_state = entry
        .build_from_text(rules.as_ref(), [("defender.staggers", "2"), ("attacker.officer", "attached")])
        .unwrap()
        .exact_distribution()
        .unwrap();
    // The officer can only die when the attacker takes a kill: P <= P(kill).
    let killed = with_state.probability("attacker_officer_killed", 1);
    assert!(killed > 0.0 && killed <= 1.0 - with_state.probability("attacker_kills", 0) + 1e-12);
}

#[test]
fn the_rules_worked_example_two_french_columns_against_a_british_line() {
    // "Two trained French units in column attack and engage an experienced
    // British line. Each French unit has an effective morale rating of 8; the
    // British, 9. The French player rolls 10 and 6, respectively a failure and
    // a success by 2. The British player rolls 7, success by 2. The result is a
    // tie. The British unit holds its ground but takes 2 staggers. The French
    // units take 1 stagger each (two staggers divided evenly), and the unit that
    // failed also takes 1 kill. Both columns retire."
    use volley_kernel::rulesets::huzzah::engagement::resolve_multi;
    let rules = Rules::default();
    let french = [Fighter::new(Quality::Trained), Fighter::new(Quality::Trained)];
    let british = [Fighter::new(Quality::Experienced)];
    let r = resolve_multi(&rules, [&french, &british], [&[8, 8], &[9]], [&[pair(4, 6), pair(2, 4)], &[pair(3, 4)]]);
    assert_eq!(r.victor, Victor::Tie);
    assert_eq!((r.defenders[0].staggers, r.defenders[0].kills, r.defenders[0].fate), (2, 0, Fate::Holds));
    assert_eq!((r.attackers[0].staggers, r.attackers[0].kills, r.attackers[0].fate), (1, 1, Fate::Retires));
    assert_eq!((r.attackers[1].staggers, r.attackers[1].kills, r.attackers[1].fate), (1, 0, Fate::Retires));
    // Three staggers on two units: the odd one goes to the unit that took a kill.
    let r = resolve_multi(&rules, [&french, &british], [&[8, 8], &[9]], [&[pair(2, 4), pair(5, 5)], &[pair(3, 3)]]);
    assert_eq!(r.victor, Victor::Defender);
    assert_eq!((r.attackers[0].staggers, r.attackers[1].staggers), (1, 2));
    assert_eq!(r.attackers[1].kills, 1);
    assert!(r.attackers.iter().all(|a| a.fate == Fate::Routs));
    // One-on-one, the multi-unit resolver agrees with the one-on-one one on every roll.
    let (a, d) = (Fighter::new(Quality::Trained), Fighter::new(Quality::Veteran));
    for pa in 0..36 {
        for pd in 0..36 {
            let single = resolve(&rules, &a, &d, pa, pd);
            let multi = resolve_multi(&rules, [&[a], &[d]], [&[8], &[10]], [&[pa], &[pd]]);
            assert_eq!(multi.victor, single.victor);
            assert_eq!(
                (multi.attackers[0].staggers, multi.attackers[0].kills, multi.attackers[0].fate),
                (single.attacker.staggers, single.attacker.kills, single.attacker.fate)
            );
            assert_eq!(
                (multi.defenders[0].staggers, multi.defenders[0].kills, multi.defenders[0].fate),
                (single.defender.staggers, single.defender.kills, single.defender.fate)
            );
        }
    }
}

#[test]
fn every_roll_of_every_pairing_obeys_the_engagement_invariants() {
    let rules = Rules::default();
    let mut units = Vec::new();
    for quality in [Quality::Veteran, Quality::Trained, Quality::Unreliable] {
        for arm in [Arm::Infantry, Arm::Cavalry, Arm::Artillery] {
            let mut unit = Fighter::new(quality).of_arm(arm);
            unit.staggers = 1;
            units.push(unit);
        }
    }
    let mut square = Fighter::new(Quality::Green);
    square.square = true;
    units.push(square);
    for attacker in &units {
        for defender in &units {
            for pa in 0..36 {
                for pd in 0..36 {
                    let r = resolve(&rules, attacker, defender, pa, pd);
                    // A broken unit's fate is broken, and only then.
                    assert_eq!(r.attacker.broken, r.attacker.fate == Fate::Broken);
                    assert_eq!(r.defender.broken, r.defender.fate == Fate::Broken);
                    match r.victor {
                        // The winner never breaks (that would be a tie) and holds.
                        Victor::Attacker => {
                            assert_eq!(r.attacker.fate, Fate::Holds);
                            assert_ne!(r.defender.fate, Fate::Holds);
                        }
                        Victor::Defender => {
                            assert_eq!(r.defender.fate, Fate::Holds);
                            assert_ne!(r.attacker.fate, Fate::Holds);
                        }
                        // On a tie nobody routs; the attacker retires unless broken.
                        Victor::Tie => {
                            assert_ne!(r.attacker.fate, Fate::Routs);
                            assert_ne!(r.defender.fate, Fate::Routs);
                            assert!(matches!(r.attacker.fate, Fate::Retires | Fate::Broken));
                        }
                    }
                    // A Huzzah! takes no staggers and never routs.
                    if pa == 0 {
                        assert_eq!(r.attacker.staggers, 0);
                        assert_ne!(r.attacker.fate, Fate::Routs);
                    }
                    // Kills: one for failing, one for the enemy's Huzzah!.
                    let failed = u32::from(!rules.passes((pa / 6 + pa % 6 + 2) as i32, r.attacker.rating));
                    assert_eq!(r.attacker.kills as u32, failed + u32::from(pd == 0));
                }
            }
        }
    }
}
