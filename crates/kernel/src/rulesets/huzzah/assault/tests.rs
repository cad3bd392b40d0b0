//! Single steps of the assault's turn, worked by hand: the readings that
//! a whole assault's distribution shows only among many other rolls.

use super::*;
use crate::rulesets::huzzah::standoff::Node;
use crate::rulesets::huzzah::{CommandCheckIsolated, ForcedOrderCounts};

/// A pair index of a 2D6 total (double one for 2).
fn pair_of(total: i32) -> u32 {
    let first = (total - 6).max(1) as u32;
    6 * (first - 1) + (total as u32 - first - 1)
}

fn live(node: Node<State>) -> State {
    match node {
        Node::Live(s) => s,
        Node::End(code) => panic!("the assault ended ({code})"),
    }
}

#[test]
fn what_each_side_takes_applied_once_is_the_engagements_two_steps() {
    // The game applies each distinct result of an engagement's 121 pairs
    // of totals once: for every pair, in both sides' Engagement phases,
    // fresh and worn units, cavalry (blown on a hold) and a routing
    // defender, it must leave the state the phase's two steps leave.
    let rules = Rules::default();
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let column = AssaultUnit::new(Quality::Veteran, Arm::Infantry, Formation::Column);
    let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
    let mut compared = 0;
    for attacker in [column, cavalry] {
        let assault = Assault::new(&rules, attacker, line, Guns::Medium, 0, 3, 1).unwrap();
        for (phase, strength, routing) in [
            (ENGAGE_ATTACKER_ROLL, [0, 0, 0, 0], false),
            (ENGAGE_ATTACKER_ROLL, [2, 1, 3, 0], false),
            (DEFENDER_ENGAGE_ROLL, [1, 0, 0, 2], false),
            (ENGAGE_ATTACKER_ROLL, [0, 0, 1, 1], true),
        ] {
            let mut s = assault.start();
            (s.phase, s.distance, s.strength, s.routing[1]) = (phase, 0, strength, routing);
            let (fighters, rating) = assault.fighters(&s);
            for first in 2..=12 {
                for second in 2..=12 {
                    let (first, second) = (pair_of(first), pair_of(second));
                    let once = assault.engage_taken(s, assault.taken_of_rolls(&s, &fighters, rating, first, second));
                    let stepped = match assault.step(s, Some(first)) {
                        Node::Live(t) => assault.step(t, Some(second)),
                        end => end,
                    };
                    assert_eq!(once, stepped, "phase {phase}, strengths {strength:?}, totals {first} {second}");
                    compared += 1;
                }
            }
        }
    }
    assert_eq!(compared, 2 * 4 * 121);
}

#[test]
fn a_forced_deploy_in_a_threat_zone_is_followed_by_a_threat_test() {
    // "Deploying": "A unit that deploys within or into a threat zone must
    // immediately take a threat test on completing the change of
    // formation". A Trained column 3 bands from a Trained line (inside its
    // 3-band zone) with a forced order: 8 + 1 in command - 1 threat zone
    // = 8, so a 5 deploys it into line. It then tests at Trained (8): a 10
    // gives 2 staggers. The old reading went straight on to its orders.
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let assault = Assault::new(&rules, column, line, Guns::Medium, 0, 3, 1).unwrap();
    let mut s = assault.start();
    (s.phase, s.forced[0]) = (ATTACKER_FORCED, true);
    let s = live(assault.step(s, Some(pair_of(5))));
    assert_eq!((s.phase, s.formation[0]), (ATTACKER_DEPLOY_THREAT, Formation::Line));
    assert!(assault.wants_roll(&s));
    let s = live(assault.step(s, Some(pair_of(10))));
    assert_eq!((s.phase, s.strength[0]), (ATTACKER_ORDERS, 2));
    // The defender too: a line 5 bands from cavalry in line (its 5-band
    // zone) forms square, then tests at Trained Up 2 (square against
    // cavalry), Veteran (10): only 11-12 fail, an 11 by 1 stagger.
    let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
    let assault = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 5, 1).unwrap();
    let mut s = assault.start();
    (s.phase, s.forced[1]) = (DEFENDER_FORCED, true);
    let s = live(assault.step(s, Some(pair_of(5))));
    assert_eq!((s.phase, s.formation[1]), (DEFENDER_DEPLOY_THREAT, Formation::Square));
    assert_eq!(assault.threat_rating(&s, 1, None), 10);
    let s = live(assault.step(s, Some(pair_of(11))));
    assert_eq!((s.phase, s.strength[2]), (DEFENDER_CHECK, 1));
}

#[test]
fn a_forced_order_is_the_units_first_order_unless_read_apart() {
    // "Forced orders are issued to that unit as the first order during the
    // Orders phase" (`forced_order_counts`). The Trained column 3 bands
    // from a Trained line, forced to deploy: 8 + 1 in command - 1 in the
    // zone = 8, so a 5 deploys it, and a 5 passes its threat test. Its
    // officer then orders an advance. Read `first` (the default) it is a
    // successive order to the unit: 8 + 1 - 1 - 1 = 7, passed by 21 rolls
    // in 36, and an 8 fails it (no further orders, the unit stays at 3
    // bands). Read `apart` it is rolled as a first order at 8 (26 in 36),
    // and an 8 takes the line on into contact.
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let ordered = |counts: ForcedOrderCounts| {
        let rules = Rules { forced_order_counts: counts, ..Rules::default() };
        let assault = Assault::new(&rules, column, line, Guns::Medium, 0, 3, 1).unwrap();
        let mut s = assault.start();
        (s.phase, s.forced[0]) = (ATTACKER_FORCED, true);
        let s = live(assault.step(s, Some(pair_of(5))));
        let s = live(assault.step(s, Some(pair_of(5))));
        assert_eq!((s.phase, s.formation[0], s.strength[0]), (ATTACKER_ORDERS, Formation::Line, 0));
        let rating = assault.order_rating(&s, true);
        let after = live(assault.step(s, Some(pair_of(8))));
        // The ways in 36 the advance is carried out.
        let advanced: u32 = crate::rulesets::huzzah::standoff::TOTALS
            .iter()
            .filter(|&&(total, _)| live(assault.step(s, Some(pair_of(total)))).distance < 3)
            .map(|&(_, ways)| ways)
            .sum();
        (rating, after.distance, after.phase, advanced)
    };
    assert_eq!(ordered(ForcedOrderCounts::First), (Some(7), 3, LAST_BOMBARD, 21));
    let (rating, distance, _, advanced) = ordered(ForcedOrderCounts::Apart);
    assert_eq!((rating, distance, advanced), (Some(8), 0, 26));
}

/// Both engagement rolls from `s` (in contact): the state after them.
fn engage_rolls(assault: &Assault, mut s: State, attacker: i32, defender: i32) -> Node<State> {
    (s.phase, s.distance) = (ENGAGE_ATTACKER_ROLL, 0);
    let s = live(assault.step(s, Some(pair_of(attacker))));
    assault.step(s, Some(pair_of(defender)))
}

#[test]
fn battle_cavalry_and_small_units_change_the_engagement() {
    // "Engage the enemy", Procedure: "Up 1 if battle cavalry". Trained
    // battle cavalry engages a Trained line at Experienced (9) against 8.
    // The cavalry rolls 9 and the line 8: both succeed by 0, a tie; the
    // attacker retires one move (5 bands in line) and is blown. As
    // regular cavalry (the old hard-coded kind) it rated 8, so its 9
    // failed: a kill, and it routed 6 bands at march column rate.
    let rules = Rules::default();
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let mut cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
    cavalry.cavalry = CavalryKind::Battle;
    let battle = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 5, 1).unwrap();
    let s = live(engage_rolls(&battle, battle.start(), 9, 8));
    assert_eq!((s.distance, s.strength, s.blown, s.routing), (5, [0; 4], [true, false], [false; 2]));
    cavalry.cavalry = CavalryKind::Regular;
    let regular = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 5, 1).unwrap();
    let s = live(engage_rolls(&regular, regular.start(), 9, 8));
    assert_eq!((s.distance, s.strength, s.routing), (6, [0, 1, 0, 0], [true, false]));
    // "Down 1 if blown battle cavalry" to rally: Trained, Up 1 in
    // command, Down 1 blown battle cavalry: 8, so a 9 leaves it blown,
    // where regular cavalry (9) reforms.
    let mut blown = battle.start();
    (blown.phase, blown.blown) = (ATTACKER_REFORM, [true, false]);
    assert!(live(battle.step(blown, Some(pair_of(9)))).blown[0]);
    assert!(!live(regular.step(blown, Some(pair_of(9)))).blown[0]);
    // Pursuit cavalry: "Up 1 if pursuit cavalry fighting a disadvantaged
    // enemy": against a routing line (a mob, disadvantaged: Trained's 4)
    // it fights at 9; against a line in good order at 8.
    cavalry.cavalry = CavalryKind::Pursuit;
    let pursuit = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 5, 1).unwrap();
    let mut s = pursuit.start();
    assert_eq!(pursuit.fighters(&s).1, [8, 8]);
    s.routing[1] = true;
    assert_eq!(pursuit.fighters(&s).1, [9, 4]);
    // "Down 1 if small unit" "in engagements against standard-sized
    // units": a small Trained column fights a Trained line at Green (7),
    // so its 8 fails (a kill, and it routs 4 bands); against a small line
    // the two meet as equals at 8 and its 8 ties the line's 8.
    let mut column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    column.small = true;
    let small = Assault::new(&rules, column, line, Guns::Medium, 0, 3, 1).unwrap();
    assert_eq!(small.fighters(&small.start()).1, [7, 8]);
    let s = live(engage_rolls(&small, small.start(), 8, 8));
    assert_eq!((s.distance, s.strength, s.routing), (4, [0, 1, 0, 0], [true, false]));
    let mut small_line = line;
    small_line.small = true;
    let both_small = Assault::new(&rules, column, small_line, Guns::Medium, 0, 3, 1).unwrap();
    let s = live(engage_rolls(&both_small, both_small.start(), 8, 8));
    assert_eq!((s.distance, s.strength, s.routing), (4, [0; 4], [false; 2]));
    // A small unit bombarded at long range takes "Up 1 if small unit
    // bombarded at long or extreme range": Trained 8, not 8 - 0.
    let battery = AssaultUnit::new(Quality::Trained, Arm::Artillery, Formation::Line);
    let guns = Assault::new(&rules, column, battery, Guns::Medium, 3, 10, 1).unwrap();
    column.small = false;
    let standard = Assault::new(&rules, column, battery, Guns::Medium, 3, 10, 1).unwrap();
    // A column bombarded at long range: Down 1 in column; Up 1 small.
    assert_eq!(guns.threat_rating(&guns.start(), 0, Some(1)), 8);
    assert_eq!(standard.threat_rating(&standard.start(), 0, Some(1)), 7);
    // Battle and pursuit are kinds of cavalry only.
    let mut infantry = line;
    infantry.cavalry = CavalryKind::Battle;
    assert!(Assault::new(&rules, infantry, line, Guns::Medium, 0, 5, 1).is_err());
}

#[test]
fn infantry_advancing_on_cavalry_is_down_2_on_advance_orders_only() {
    // "Down 2 if infantry ordered to advance on cavalry": within the
    // cavalry's threat zone (5 bands in line), or with the cavalry within
    // the infantry's move and threat zone (4 + 3 = 7 bands for a column).
    // A Trained column with an average officer (8, Up 1 in command): 9
    // from 8 bands, 8 + 1 - 2 = 7 from 7 bands, and from 5 bands, inside
    // the cavalry's zone, 8 + 1 - 1 - 2 = 6; a deploy there is no
    // advance: 8 + 1 - 1 = 8. Against an infantry line nothing changes.
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
    let assault = Assault::new(&rules, column, cavalry, Guns::Medium, 0, 8, 1).unwrap();
    let mut s = assault.start();
    let rating = |s: &State, advance: bool| assault.order_rating(s, advance);
    assert_eq!(rating(&s, true), Some(9));
    s.distance = 7;
    assert_eq!(rating(&s, true), Some(7));
    s.distance = 5;
    assert_eq!((rating(&s, true), rating(&s, false)), (Some(6), Some(8)));
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let against_line = Assault::new(&rules, column, line, Guns::Medium, 0, 7, 1).unwrap();
    assert_eq!(against_line.order_rating(&against_line.start(), true), Some(9));
    // The chain's first order from 7 bands is rolled at 7: a 8 fails it.
    let mut orders = assault.start();
    (orders.phase, orders.distance) = (ATTACKER_ORDERS, 7);
    let after = live(assault.step(orders, Some(pair_of(8))));
    assert_eq!((after.distance, after.phase), (7, LAST_BOMBARD));
}

#[test]
fn defending_cavalry_is_blown_recalled_and_may_engage_out_of_control() {
    // A Trained column engages Trained cavalry in line: the column rolls
    // 8 and the cavalry 8, both succeed by 0, a tie. The attacker retires
    // one move (4 bands in column); the cavalry holds and, not routed, is
    // blown ("Cavalry that does not rout after an engagement is blown"):
    // it has no threat zone.
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
    let assault = Assault::new(&rules, column, cavalry, Guns::Medium, 0, 3, 2).unwrap();
    let s = live(engage_rolls(&assault, assault.start(), 8, 8));
    assert_eq!((s.distance, s.blown, s.strength), (4, [false, true], [0; 4]));
    assert_eq!(assault.zone(&s, 1), 0);
    // It rallies in its own Rally phase that turn at 8 + 1 in command =
    // Experienced (9) (the column, 4 bands off, threatens 3): a 10 fails,
    // and it is recalled.
    let mut reform = s;
    reform.phase = DEFENDER_REFORM;
    assert!(assault.wants_roll(&reform));
    let failed = live(assault.step(reform, Some(pair_of(10))));
    assert_eq!((failed.blown, failed.rare.recall(0), failed.rare.recall(1)), ([false, true], false, true));
    assert_eq!(live(assault.step(reform, Some(pair_of(9)))).blown, [false; 2]);
    // Blown, it fights disadvantaged (Trained's 4) if engaged again.
    assert_eq!(assault.fighters(&failed).1, [8, 4]);
    // Its next Orders phase: the recall at 8 + 1 in command - 1 in the
    // column's threat zone (1 band off) = 8. A 9 fails it: it loses
    // control and advances 6 bands (march column), from inside the
    // column's zone into contact, and engages in its own turn.
    let mut recall = failed;
    (recall.phase, recall.distance) = (DEFENDER_FORCED, 1);
    assert!(assault.wants_roll(&recall));
    let obeyed = live(assault.step(recall, Some(pair_of(8))));
    assert_eq!((obeyed.distance, obeyed.phase, obeyed.blown[1]), (1, DEFENDER_CHECK, true));
    let wild = live(assault.step(recall, Some(pair_of(9))));
    assert_eq!((wild.distance, wild.phase, wild.out_of_control[1]), (0, DEFENDER_ENGAGE_ROLL, true));
    assert_eq!(wild.behind[1], DEFAULT_EDGE as i8 + 1);
    // Its engagement: the cavalry (the phasing unit) rolls 5 over its 4
    // and the column 9 over its 8: both fail, a kill each and a tie, so
    // the cavalry, attacking in its own turn, retires 5 bands and the
    // column holds. (With the column as the phasing unit it would have
    // retired 4 and the cavalry held.)
    let cavalry_rolls = live(assault.step(wild, Some(pair_of(5))));
    let tie = live(assault.step(cavalry_rolls, Some(pair_of(9))));
    assert_eq!((tie.distance, tie.strength, tie.phase), (5, [0, 1, 0, 1], DEFENDER_CHECK));
    assert_eq!((tie.blown, tie.routing), ([false, true], [false; 2]));
    // The column rolls 5 (by 3) and the cavalry 4 (by 0): the cavalry
    // takes 3 staggers and routs 6 bands.
    let cavalry_rolls = live(assault.step(wild, Some(pair_of(4))));
    let routed = live(assault.step(cavalry_rolls, Some(pair_of(5))));
    assert_eq!((routed.distance, routed.strength, routed.routing), (6, [0, 0, 3, 0], [false, true]));
    assert!(!routed.blown[1] && !routed.out_of_control[1] && !routed.rare.recall(1));
    // Cavalry against cavalry: on a tie both are blown, the attacker
    // retires a move (5 bands in line) and the defender holds.
    let horse = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
    let melee = Assault::new(&rules, horse, cavalry, Guns::Medium, 0, 3, 2).unwrap();
    let s = live(engage_rolls(&melee, melee.start(), 7, 7));
    assert_eq!((s.distance, s.blown, s.strength), (5, [true, true], [1, 0, 1, 0]));
}

#[test]
fn a_rout_makes_the_brigade_take_a_command_check() {
    // A Trained column in a brigade of two engages a Trained line: it
    // rolls 10 (over its 8: a kill) and the line 6 (by 2: 2 staggers), so
    // it loses and routs. "A command must take a command check if: Any
    // of its sub-commands broke or routed this turn", first in the Rally
    // phase. The officer's 8 is Down 1 for the routing unit and Down 2
    // for the isolated sub-command (the other unit is the only one not
    // broken or routing): 5.
    let rules = Rules::default();
    let mut column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    column.brigade = 2;
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let assault = Assault::new(&rules, column, line, Guns::Medium, 0, 3, 2).unwrap();
    let routed = live(engage_rolls(&assault, assault.start(), 10, 6));
    assert_eq!((routed.phase, routed.routing[0], routed.strength[..2].to_vec()), (ATTACKER_CHECK, true, vec![2, 1]));
    assert!(assault.wants_roll(&routed));
    assert_eq!(assault.check_rating(&routed, 0), 5);
    // A 6 fails: "every unit in the command takes a number of staggers
    // equal to the number of broken or routing sub-commands" (1); the
    // routing unit does not retire (only "non-routing units").
    let failed = live(assault.step(routed, Some(pair_of(6))));
    assert_eq!((failed.phase, failed.strength[0], failed.distance), (ATTACKER_REFORM, 3, 4));
    assert_eq!(failed.rare.last_check(0), LastCheck::Failed);
    let passed = live(assault.step(routed, Some(pair_of(5))));
    assert_eq!((passed.strength[0], passed.rare.last_check(0), passed.rare.exempt(0)), (2, LastCheck::Passed, false));
    let huzzah = live(assault.step(routed, Some(pair_of(2))));
    assert!(huzzah.rare.exempt(0));
    // Rallied, 4 bands off (outside the line's zone), the failed check
    // brings another check next turn ("It failed a command check last
    // turn"), at 8 - 1 failed last = 7 (no longer isolated: two units
    // stand); and advance orders are Down 1 ("failed last command
    // integrity check and ordered to advance"): 8 + 1 - 1 = 8, not 9.
    let mut rallied = failed;
    (rallied.routing[0], rallied.phase) = (false, ATTACKER_CHECK);
    assert!(assault.wants_roll(&rallied));
    assert_eq!(assault.check_rating(&rallied, 0), 7);
    assert_eq!((assault.order_rating(&rallied, true), assault.order_rating(&rallied, false)), (Some(8), Some(9)));
    // Failing it, the column takes no staggers (nothing broken or
    // routing) and retires one full move (4 bands in column).
    let retired = live(assault.step(rallied, Some(pair_of(8))));
    assert_eq!((retired.strength[0], retired.distance), (3, 8));
    // A pass after a Huzzah! spares it the check it would take in the
    // enemy's zone with a unit routing; the passed check does not.
    let mut spared = huzzah;
    (spared.phase, spared.distance) = (ATTACKER_CHECK, 2);
    assert!(!assault.wants_roll(&spared));
    let mut checked = passed;
    (checked.phase, checked.distance) = (ATTACKER_CHECK, 2);
    assert!(assault.wants_roll(&checked));

    // A lone unit (brigade 1) is isolated: Down 1 to its threat tests
    // ("Down 1 if unit is isolated") and its orders ("Down 1 if isolated
    // sub-command"), and Down 2 on its check: in the line's zone it
    // tests at Green (7), orders at 8 + 1 - 1 - 1 = 7, and routed
    // checks at 8 - 1 - 2 = 5. Under `command_check_isolated = command`
    // a brigade of two checks at 8 - 1 = 7 unless the brigade itself is
    // isolated in its division.
    column.brigade = 1;
    let lone = Assault::new(&rules, column, line, Guns::Medium, 0, 3, 2).unwrap();
    assert_eq!((lone.threat_rating(&lone.start(), 0, None), lone.order_rating(&lone.start(), true)), (7, Some(7)));
    assert_eq!(lone.check_rating(&live(engage_rolls(&lone, lone.start(), 10, 6)), 0), 5);
    let command = Rules { command_check_isolated: CommandCheckIsolated::Command, ..Rules::default() };
    column.brigade = 2;
    let by_command = Assault::new(&command, column, line, Guns::Medium, 0, 3, 2).unwrap();
    assert_eq!(by_command.check_rating(&routed, 0), 7);

    // The defender's brigade (three units, one already lost) checks in
    // its own Rally phase that turn when its line routs: 8 - 2 routing or
    // broken - 2 isolated = 4; a 5 fails, 2 staggers.
    let mut defender = line;
    (defender.brigade, defender.brigade_lost) = (3, 1);
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let assault = Assault::new(&rules, column, defender, Guns::Medium, 0, 3, 2).unwrap();
    let mut s = live(engage_rolls(&assault, assault.start(), 6, 10));
    assert_eq!((s.routing, s.rare.due(0), s.rare.due(1)), ([false, true], false, true));
    s.phase = DEFENDER_CHECK;
    assert_eq!(assault.check_rating(&s, 1), 4);
    let failed = live(assault.step(s, Some(pair_of(5))));
    assert_eq!((failed.strength[2], failed.rare.last_check(1), failed.phase), (4, LastCheck::Failed, DEFENDER_REFORM));
}

#[test]
fn skirmisher_superiority_deepens_the_winners_infantry_zones() {
    // "That side adds 5cm (1 band) to the threat zone of its infantry
    // units in open terrain against enemy infantry and artillery units."
    // A Trained column 6 bands from a line whose side holds superiority
    // (zone 4, not 3): its 4-band move stops on entering the zone, at 4
    // (at 3 without); from 4 bands it is in the zone and tests at the
    // start of its turn (without, it does not).
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let plain = Assault::new(&rules, column, line, Guns::Medium, 0, 6, 1).unwrap();
    let defended = plain.clone().with_superiority(Superiority::Defender);
    let s = plain.start();
    assert_eq!((plain.advance(&s), defended.advance(&s)), (3, 4));
    let mut at_four = s;
    at_four.distance = 4;
    assert!(!plain.wants_roll(&at_four) && defended.wants_roll(&at_four));
    // The attacker's side holding it: a column 4 bands from a battery
    // (inside its 7-band zone) may advance into contact, the battery
    // being within its 4-band zone; without, it stops 1 band short.
    let battery = AssaultUnit::new(Quality::Trained, Arm::Artillery, Formation::Line);
    let plain = Assault::new(&rules, column, battery, Guns::Medium, 0, 4, 1).unwrap();
    let attacked = plain.clone().with_superiority(Superiority::Attacker);
    assert_eq!((plain.advance(&plain.start()), attacked.advance(&attacked.start())), (1, 0));
    // Not against cavalry, and cavalry never gains a zone from it.
    let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
    let against_cavalry = Assault::new(&rules, column, cavalry, Guns::Medium, 0, 4, 1).unwrap();
    let horse = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 4, 1).unwrap();
    assert_eq!(against_cavalry.with_superiority(Superiority::Attacker).skirmish_bonus, [0, 0]);
    assert_eq!(horse.clone().with_superiority(Superiority::Attacker).skirmish_bonus, [0, 0]);
    assert_eq!(horse.with_superiority(Superiority::Defender).skirmish_bonus, [0, 0]);
    assert_eq!(defended.skirmish_bonus, [0, 1]);
}

#[test]
fn cavalry_out_of_control_advances_as_a_mob_at_march_column_rate() {
    // "Forced orders", Recall: "If the recall order fails, the cavalry loses
    // control and advances one move in mob formation", at march column
    // rate (6 bands, not the 5 of cavalry in line), "stopped by threat
    // zones", and "If it engages an enemy it fights using its
    // disadvantaged morale rating". Blown Trained cavalry 12 bands from a
    // line: recall at 8 + 1 in command = 9; a 12 fails it, and it moves 6
    // bands to 6, still outside the line's 3-band zone (the old reading
    // moved it 5, to 7).
    let rules = Rules::default();
    let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let assault = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 12, 1).unwrap();
    let mut s = assault.start();
    (s.phase, s.blown) = (ATTACKER_ORDERS, [true, false]);
    s.rare.set_recall(0, true);
    let after = live(assault.step(s, Some(pair_of(12))));
    assert_eq!((after.distance, after.out_of_control), (6, [true, false]));
    // A mob is disadvantaged when threatened: Trained's disadvantaged 4.
    assert_eq!(assault.threat_rating(&after, 0, None), 4);
    // From 3 bands, inside the line's zone, it makes contact (the old
    // reading stopped it at 1 band: its blown zone is none, and an advance
    // order engages from outside its zone only within 1 band).
    s.distance = 3;
    let after = live(assault.step(s, Some(pair_of(12))));
    assert_eq!(after.distance, 0);
    // It takes no further order (no battery fires), and engages disadvantaged.
    assert_eq!(after.phase, LAST_BOMBARD);
    assert!(!assault.wants_roll(&after));
    let (fighters, _) = assault.fighters(&after);
    assert!(fighters[0].disadvantaged);
    // Rallying puts it under control again.
    let mut reform = after;
    reform.phase = ATTACKER_REFORM;
    let rallied = live(assault.step(reform, Some(pair_of(5))));
    assert!(!rallied.blown[0] && !rallied.out_of_control[0] && !rallied.rare.recall(0));
}

#[test]
fn a_defender_retires_out_of_the_attackers_threat_zone_in_its_own_turn() {
    use super::game::{RETIRE, STAND};
    // A trained line defends against a trained column 3 bands off: inside
    // the column's 3-band threat zone (playsheet, Threat zones). In its own
    // Orders phase (no forced order pending) the defender may retire: half
    // its line move of 3 bands is 1 band in whole bands ("Retire": "up to
    // half its full movement allowance"), which takes it to 4 bands, out of
    // the zone. Its rating: 8, Up 1 in command, Down 1 in the enemy's
    // threat zone = 8, so the order passes on 2D6 <= 8, 26 in 36.
    let rules = Rules::default();
    let attacker = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let defender = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let assault = Assault::new(&rules, attacker, defender, Guns::Medium, 0, 3, 30).unwrap();
    let mut s = assault.start();
    s.phase = DEFENDER_FORCED;
    let game = AssaultGame::new(assault.clone());
    // Without the `defender.orders` key the line, facing no cavalry, stands.
    assert_eq!(game.defender_orders(&s), None);
    let game = game.with_defender_orders(true);
    let orders = game.defender_orders(&s).expect("the defender may order");
    // Stand, retire, and the advance to engage (the column is within the
    // line's 3-band zone); a line does not re-form line.
    assert_eq!(&orders.options[..orders.count], &[STAND, RETIRE, 4]);
    assert_eq!(orders.ratings[usize::from(RETIRE)], 8);
    assert_eq!((2..=12).filter(|&t| rules.passes(t, 8)).count(), 7, "totals 2 to 8 pass");
    let after = live(game.defender_ordered(s, RETIRE));
    assert_eq!((after.distance, after.behind[1]), (4, DEFAULT_EDGE as i8 - 1));
    assert!(!assault.in_zone_of(&after, 0), "out of the column's zone");
    // Once out of the zone, no retire is offered (nothing to retire from).
    let mut out = after;
    out.phase = DEFENDER_FORCED;
    assert_eq!(game.defender_orders(&out), None);
}

#[test]
fn a_partial_advance_halts_outside_the_lines_zone_within_the_cavalrys() {
    use super::game::{BACK, SHORT};
    // Trained cavalry in line 7 bands from a Trained line ("Advance": "up
    // to its full movement allowance"). Its full advance, 5 bands, is
    // stopped on entering the line's 3-band zone, at 3 ("Units must stop
    // moving the instant they enter or touch the threat zone"). Short of
    // it, 4 and 5 bands are outside the line's zone with the line inside
    // the cavalry's own 5-band zone, and 6 is where it stands already
    // (outside both): the nearest of the new stops, 4 (an advance of 3
    // bands), is offered. Its rating: 8, Up 1 in command = 9, out of the
    // line's zone: it passes on 2 to 9, 30 in 36.
    let rules = Rules::default();
    let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let assault = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 7, 30).unwrap();
    let mut s = assault.start();
    s.phase = ATTACKER_ORDERS;
    assert_eq!(assault.advance(&s), 3);
    let game = AssaultGame::new(assault.clone());
    let orders = game.order_options(&s);
    // Halt, the full advance, 3 bands short of it; cavalry in line has no
    // deploy offered by default, and a retire (half of 5: 1 or 2 bands, to
    // 8 or 9) stays where the unit stands now, outside both zones.
    assert_eq!(&orders.options[..orders.count], &[0, 1, SHORT + 3]);
    assert_eq!((orders.advance, orders.other), (Some(9), Some(9)));
    assert_eq!((2..=12).filter(|&t| rules.passes(t, 9)).map(|t| 6 - (t - 7).abs()).sum::<i32>(), 30);
    let after = live(game.ordered(s, SHORT + 3));
    assert_eq!((after.distance, after.behind[0], after.phase), (4, DEFAULT_EDGE as i8 + 3, ATTACKER_ORDERS));
    assert!(!assault.in_zone_of(&after, 1), "outside the line's zone");
    assert!(assault.in_zone_of(&after, 0), "the line inside the cavalry's");
    // Its next order is Down 1 (successive), and no longer a partial one:
    // from 4 the full advance stops at 3.
    let mut next = after;
    next.orders = 1;
    assert_eq!(assault.order_rating(&next, true), Some(8));
    // Every band is offered with `attacker.every_order`: 4, 5 and 6, the
    // retires of 1 and 2 bands, and the deploy to column.
    let every = AssaultGame::new(assault.clone()).with_every_order(true);
    let orders = every.order_options(&s);
    assert_eq!(&orders.options[..orders.count], &[0, 1, 3, SHORT + 3, SHORT + 2, SHORT + 1, BACK + 1, BACK + 2]);
}

#[test]
fn an_attacker_retires_out_of_the_defenders_threat_zone() {
    use super::game::BACK;
    // A Trained column 3 bands from a Trained line, inside its 3-band
    // zone, in column after a failed deploy. "Retire": "up to half its full
    // movement allowance" (a column's 4 bands: 1 or 2), straight back,
    // keeping its facing. A retire of 1 band takes it to 4, out of the
    // zone; 2 bands, to 5, is no different a place (outside both zones,
    // its next advance stopped at the zone's edge), so only 1 is offered.
    // Its rating: 8, Up 1 in command, Down 1 in the line's zone = 8 (26 in
    // 36), a retire being no advance.
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
    let assault = Assault::new(&rules, column, line, Guns::Medium, 0, 3, 30).unwrap();
    let mut s = assault.start();
    s.phase = ATTACKER_ORDERS;
    // The retire is the `attacker.retire` key's (off by default).
    assert_eq!(AssaultGame::new(assault.clone()).order_options(&s).count, 3);
    let game = AssaultGame::new(assault.clone()).with_retire(true);
    let orders = game.order_options(&s);
    // Halt, the advance into contact, the deploy to line, the retire.
    assert_eq!(&orders.options[..orders.count], &[0, 1, 2, BACK + 1]);
    assert_eq!(orders.other, Some(8));
    assert_eq!((2..=12).filter(|&t| rules.passes(t, 8)).map(|t| 6 - (t - 7).abs()).sum::<i32>(), 26);
    let after = live(game.ordered(s, BACK + 1));
    assert_eq!((after.distance, after.behind[0], after.formation[0]), (4, DEFAULT_EDGE as i8 - 1, Formation::Column));
    assert!(!assault.in_zone_of(&after, 1) && !assault.in_zone_of(&after, 0));
    // A line retires 1 band (half of 3); a retire never takes a unit off
    // the table: with no band behind it, none is offered.
    let mut edge = s;
    edge.behind[0] = 0;
    let orders = game.order_options(&edge);
    assert!(!orders.options[..orders.count].iter().any(|&o| o > BACK));
    // While the defender routs (the `pursue` decision) only holding and
    // pursuing are offered.
    let mut routed = s;
    routed.routing[1] = true;
    assert_eq!(&game.order_options(&routed).options[..2], &[0, 1]);
    assert_eq!(game.order_options(&routed).count, 2);
}

#[test]
fn a_square_re_forms_into_column_or_line() {
    // A Trained column attacking Trained cavalry in line, forced into
    // square 5 bands off (inside the cavalry's 5-band zone). "Deploy":
    // "Units can change from any allowable formation into another": line
    // or column. Its deploy rating: 8, Up 1 in command, Down 1 in the
    // cavalry's zone = 8 (26 in 36; not an advance, so no Down 2 for
    // infantry advancing on cavalry). Its advance (1 band in square, to
    // 4) is 8 - 2 = 6 (15 in 36). A square cannot retire (half of its 1
    // band is no whole band).
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
    let assault = Assault::new(&rules, column, cavalry, Guns::Medium, 0, 5, 4).unwrap();
    let mut s = assault.start();
    (s.phase, s.formation[0]) = (ATTACKER_ORDERS, Formation::Square);
    let game = AssaultGame::new(assault.clone());
    let orders = game.order_options(&s);
    assert_eq!(&orders.options[..orders.count], &[0, 1, 2, 3]);
    assert_eq!((orders.advance, orders.other), (Some(6), Some(8)));
    assert_eq!((2..=12).filter(|&t| rules.passes(t, 6)).map(|t| 6 - (t - 7).abs()).sum::<i32>(), 15);
    // Re-formed, the column tests at once in the cavalry's zone
    // ("Deploying"), at Trained 8 without the square's Up 2: a 9 fails by
    // 1, a stagger and a forced order to form square again.
    let column_again = live(game.ordered(s, 3));
    assert_eq!((column_again.formation[0], column_again.phase), (Formation::Column, ATTACKER_DEPLOY_THREAT));
    assert!(column_again.fire_ready);
    assert_eq!(assault.threat_rating(&column_again, 0, None), 8);
    let tested = live(assault.step(column_again, Some(pair_of(9))));
    assert_eq!((tested.strength[0], tested.forced[0], tested.phase), (1, true, ATTACKER_ORDERS));
    let line = live(game.ordered(s, 2));
    assert_eq!(line.formation[0], Formation::Line);
    // The column, in turn, may deploy to line, or (with `attacker.retire`)
    // retire 1 band, out of the cavalry's zone (2 bands, to 7, is no
    // different a place: still within the column's move and zone of the
    // cavalry, so Down 2 to advance). A square of its own accord is
    // `attacker.every_order`'s.
    let mut in_column = s;
    in_column.formation[0] = Formation::Column;
    let orders = game.order_options(&in_column);
    assert_eq!(&orders.options[..orders.count], &[0, 1, 2]);
    let orders = AssaultGame::new(assault.clone()).with_retire(true).order_options(&in_column);
    assert_eq!(&orders.options[..orders.count], &[0, 1, 2, game::BACK + 1]);
    let orders = game.with_every_order(true).order_options(&in_column);
    assert!(orders.options[..orders.count].contains(&4), "form square");
}

/// A fate that takes one scripted option at each decision, keeps the
/// options offered, and keeps the law of the step's last draw (taking its
/// first place): one step of the game, enumerated by hand.
struct Scripted {
    choice: u16,
    offered: Vec<u16>,
    law: Vec<((Option<crate::game::End>, Standing), f64)>,
}

impl crate::game::Fate for Scripted {
    fn die(&mut self, _: u32) -> u32 {
        unreachable!("the assault rolls 2D6 as grouped draws")
    }

    fn ways(&mut self, _: u32, _: u32) -> bool {
        unreachable!("the assault rolls 2D6 as grouped draws")
    }

    fn draw<L: crate::game::Law + ?Sized>(&mut self, _: &L) -> u32 {
        unreachable!("the assault rolls 2D6 as grouped draws")
    }

    fn draw_grouped<T: Clone + 'static>(
        &mut self,
        _sample: impl FnOnce(&mut crate::dice::Dice) -> T,
        law: impl FnOnce() -> Vec<(T, f64)>,
    ) -> T {
        let law = law();
        let kept: &dyn std::any::Any = &law;
        if let Some(places) = kept.downcast_ref::<Vec<((Option<crate::game::End>, Standing), f64)>>() {
            self.law = places.clone();
        }
        law[0].0.clone()
    }

    fn decide(
        &mut self,
        _side: u8,
        _decision: &'static crate::game::Decision,
        options: &[u16],
        _heuristic: &dyn Fn(crate::game::Policy) -> u16,
    ) -> u16 {
        self.offered = options.to_vec();
        assert!(options.contains(&self.choice), "{} offered among {options:?}", self.choice);
        self.choice
    }
}

/// The places one step of `game` from `s` leads to under option `choice`
/// (the live states, with their chances), and the options offered.
fn one_step(game: &AssaultGame, s: State, choice: u16) -> (Vec<(State, f64)>, Vec<u16>) {
    use crate::game::Game;
    let mut fate = Scripted { choice, offered: Vec::new(), law: Vec::new() };
    let mut standing = Standing::live(&s);
    game.step(&mut standing, &mut fate);
    let places = if fate.law.is_empty() {
        // No roll: the one place the step led to.
        vec![(standing.state().expect("goes on"), 1.0)]
    } else {
        fate.law.iter().map(|((_, place), p)| (place.state().expect("goes on"), *p)).collect()
    };
    (places, fate.offered)
}

#[test]
fn the_defenders_successive_orders_are_each_down_one_and_a_huzzah_gives_a_free_order() {
    use super::game::{ADVANCE_ON, FORM_LINE, RETIRE, STAND};
    // A Trained column defends against a Trained column 3 bands off, inside
    // each other's 3-band threat zones, with `defender.orders`. Its first
    // order of its own, re-forming line, is rolled at 8 (Trained 8, Up 1 in
    // command, Down 1 in the enemy's threat zone): 2 to 8 pass, 26 in 36, a
    // Huzzah! (double one) 1 of them. Passed, it re-forms and takes the
    // deploy's threat test in the column's zone ("Deploying").
    let rules = Rules::default();
    let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
    let assault = Assault::new(&rules, column, column, Guns::Medium, 0, 3, 30).unwrap();
    let game = AssaultGame::new(assault.clone()).with_defender_orders(true);
    let mut s = assault.start();
    s.phase = DEFENDER_FORCED;
    let orders = game.defender_orders(&s).expect("the defender may order");
    // Stand, retire (a column's 2 bands take it out of the zone), form
    // line, advance to engage.
    assert_eq!(&orders.options[..orders.count], &[STAND, RETIRE, FORM_LINE, ADVANCE_ON]);
    assert_eq!(orders.ratings[usize::from(FORM_LINE)], 8);
    let (places, _) = one_step(&game, s, FORM_LINE);
    let find = |places: &[(State, f64)], test: &dyn Fn(&State) -> bool| -> f64 {
        places.iter().filter(|(s, _)| test(s)).map(|(_, p)| p).sum()
    };
    let deployed = |s: &State| s.phase == DEFENDER_DEPLOY_THREAT && s.formation[1] == Formation::Line;
    let counted = find(&places, &|s| deployed(s) && s.orders == 1 && !s.free_order);
    let free = find(&places, &|s| deployed(s) && s.free_order);
    let failed = find(&places, &|s| s.phase == ATTACKER_THREAT && s.formation[1] == Formation::Column);
    assert!((counted - 25.0 / 36.0).abs() < 1e-15, "{counted}");
    assert!((free - 1.0 / 36.0).abs() < 1e-15, "{free}");
    assert!((failed - 10.0 / 36.0).abs() < 1e-15, "{failed}");
    // The threat test passed (a 5 against the line's rating), the defender
    // is back in its Orders phase for a successive order: retire, now 1
    // band (half a line's 3), or advance to engage, each Down 1 for the
    // order before it ("Down 1 for each successive order issued to the same
    // unit"): 7, so 2 to 7 pass, 21 in 36.
    let after = places.iter().find(|(s, _)| deployed(s) && s.orders == 1).unwrap().0;
    let next = live(assault.step(after, Some(pair_of(5))));
    assert_eq!((next.phase, next.orders), (DEFENDER_ORDERS, 1));
    let orders = game.defender_orders(&next).expect("a successive order");
    assert_eq!(&orders.options[..orders.count], &[STAND, RETIRE, ADVANCE_ON]);
    assert_eq!(orders.ratings[usize::from(RETIRE)], 7);
    let (places, _) = one_step(&game, next, RETIRE);
    // Passed, the line stands 4 bands off, out of the column's zone: no
    // further order is open (nothing to retire from, no enemy within its
    // zone or 1 band to engage), and the turn goes on to the next, as it
    // does after a Huzzah! (its free order has nothing to do) and, with
    // the line where it was, after a failure (no stagger: an order of its
    // own, not a forced one).
    assert_eq!(places.len(), 2, "{places:?}");
    let retired = find(&places, &|s| s.phase == ATTACKER_THREAT && s.distance == 4);
    let stayed = find(&places, &|s| s.phase == ATTACKER_THREAT && s.distance == 3 && s.strength[2] == 0);
    assert!((retired - 21.0 / 36.0).abs() < 1e-15, "{retired}");
    assert!((stayed - 15.0 / 36.0).abs() < 1e-15, "{stayed}");
    // A Huzzah! on the first order: the free order is any order, given
    // without a roll, and the last that turn. Retiring on it, the line
    // ends 4 bands off with certainty.
    let huzzah = places_of_free(&game, &assault, s);
    assert_eq!(huzzah.len(), 1);
    assert_eq!((huzzah[0].0.phase, huzzah[0].0.distance, huzzah[0].1), (ATTACKER_THREAT, 4, 1.0));
    // Without the key the column has no order of its own against infantry.
    assert_eq!(AssaultGame::new(assault.clone()).defender_orders(&s), None);
}

/// The free order after a Huzzah! on the defender's first order (re-forming
/// line from `s`): its deploy's threat test passed, the line retires on it.
fn places_of_free(game: &AssaultGame, assault: &Assault, s: State) -> Vec<(State, f64)> {
    use super::game::{ADVANCE_ON, FORM_LINE, RETIRE, STAND};
    let (places, _) = one_step(game, s, FORM_LINE);
    let free = places.iter().find(|(s, _)| s.free_order).expect("a Huzzah! place").0;
    let next = live(assault.step(free, Some(pair_of(5))));
    assert_eq!((next.phase, next.free_order), (DEFENDER_ORDERS, true));
    let orders = game.defender_orders(&next).expect("the free order");
    assert_eq!(&orders.options[..orders.count], &[STAND, RETIRE, ADVANCE_ON]);
    one_step(game, next, RETIRE).0
}
