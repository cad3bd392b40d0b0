//! assault and farm_assault on the decision model: small fights worked by
//! hand under each policy, best play's choice of where to halt, the start
//! distance swept under best play, and Monte Carlo following the solver.

use super::{build, build_with, close, exact};
use volley_kernel::check::assert_agrees;
use volley_kernel::rulesets::hougoumont::{
    AssaultLimit, AttackerFire, BothBreak, BurningBuilding, ClosingVolley, DefenderFailure, FlankedTest, FlankedWhen,
    Handover, Rules,
};

/// The attacker's exact win chance.
fn attacker_wins(rules: &Rules, scenario: &str, pairs: &[(&str, &str)]) -> f64 {
    exact(build_with(rules, scenario, pairs).as_ref()).probability("winner", 0)
}

#[test]
fn a_bold_charge_from_charge_reach_goes_straight_to_melee() {
    // 10 inches is within infantry's 8 plus the 2-inch charge: contact in turn
    // 1, so no fire under `closing_volley = none` (artillery never fires into
    // melee). One melee round: each side kills the other's only figure with
    // 81/400 (a total at least twice the other's); otherwise no one lost
    // anything and no one tests.
    let none = Rules { closing_volley: ClosingVolley::None, ..Rules::default() };
    let pairs = [
        ("attacker.figures", "1"),
        ("defender.figures", "1"),
        ("distance", "10"),
        ("defender.guns", "2"),
        ("turns", "1"),
        ("attacker.policy", "bold"),
    ];
    let dist = exact(build_with(&none, "assault", &pairs).as_ref());
    close(dist.probability("winner", 0), 81.0 / 400.0);
    close(dist.probability("winner", 1), 81.0 / 400.0);
    close(dist.probability("winner", 2), 238.0 / 400.0);
    assert_agrees(build_with(&none, "assault", &pairs).as_ref(), 400_000, 45);
    // At 11 inches the bold charge falls short: the attacker moves its full 8
    // to 3 inches and takes canister (a D8, at least 1, kills its figure).
    let short = [
        ("attacker.figures", "1"),
        ("defender.figures", "1"),
        ("distance", "11"),
        ("defender.guns", "1"),
        ("turns", "1"),
        ("attacker.policy", "bold"),
    ];
    close(exact(build("assault", &short).as_ref()).probability("winner", 1), 1.0);
}

#[test]
fn attackers_fire_back_in_the_firing_phase() {
    // Issue 16, item 2. One figure each, 10 inches apart in woods: infantry
    // moves half (4) and charges 2, so the bold attacker stops at 6. Both fire
    // at once: the defender needs 6 + 2 (woods) = 8, 13/20; the attacker needs
    // 6 (the defender stands in the open), 15/20. Attacker alone hits: 7/20 *
    // 15/20; defender alone: 13/20 * 5/20; both die together (none) 13/20 *
    // 15/20, and no hit at all leaves the fight at its one-turn limit (none).
    let pairs = [
        ("ground", "woods"),
        ("attacker.figures", "1"),
        ("defender.figures", "1"),
        ("distance", "10"),
        ("defender.guns", "0"),
        ("turns", "1"),
        ("attacker.policy", "bold"),
    ];
    let dist = exact(build("assault", &pairs).as_ref());
    close(dist.probability("winner", 0), 105.0 / 400.0);
    close(dist.probability("winner", 1), 65.0 / 400.0);
    close(dist.probability("winner", 2), 230.0 / 400.0);
    assert_agrees(build("assault", &pairs).as_ref(), 400_000, 55);
    // The old reading, attackers who only close: the defender's 13/20 alone.
    let never = Rules { attacker_fire: AttackerFire::Never, ..Rules::default() };
    let dist = exact(build_with(&never, "assault", &pairs).as_ref());
    close(dist.probability("winner", 1), 13.0 / 20.0);
    close(dist.probability("winner", 0), 0.0);
    // Cavalry does not fire by default: cavalry in the open 30 inches away
    // (16 + 4 short) stops at 14 and takes the volley, 7/20, unanswered.
    let cavalry = [
        ("attacker.arm", "cavalry"),
        ("attacker.figures", "1"),
        ("defender.figures", "1"),
        ("distance", "30"),
        ("defender.guns", "0"),
        ("turns", "1"),
        ("attacker.policy", "bold"),
    ];
    let dist = exact(build("assault", &cavalry).as_ref());
    close(dist.probability("winner", 1), 7.0 / 20.0);
    close(dist.probability("winner", 0), 0.0);
    // Light infantry has no penalty in woods: 8 + 2 reaches contact. The
    // closing volley (the default `at_charge_start`) meets it at 10 inches
    // plus 2 for the woods: the defender's musket misses with 11/20, then
    // the melee as in `a_bold_charge_from_charge_reach_goes_straight_to_melee`.
    let mut light = pairs.to_vec();
    light.push(("attacker.arm", "light_infantry"));
    close(exact(build("assault", &light).as_ref()).probability("winner", 0), 11.0 / 20.0 * 81.0 / 400.0);
}

#[test]
fn a_closing_volley_brings_canister_as_well_as_muskets() {
    // Issue 16, item 8; the default since issue 34. Under `closing_volley =
    // at_charge_start` the charge from 10 inches meets the defenders' fire at
    // 10: muskets kill the one attacker with 11/20, and a gun's canister (D8,
    // at least 1) always does.
    let rules = Rules::default();
    assert_eq!(rules.closing_volley, ClosingVolley::AtChargeStart);
    let one = |guns: &'static str| {
        [
            ("attacker.figures", "1"),
            ("defender.figures", "1"),
            ("distance", "10"),
            ("defender.guns", guns),
            ("turns", "1"),
            ("attacker.policy", "bold"),
        ]
    };
    let muskets = exact(build_with(&rules, "assault", &one("0")).as_ref());
    close(muskets.probability("winner", 1), 11.0 / 20.0 + 9.0 / 20.0 * 81.0 / 400.0);
    close(muskets.probability("winner", 0), 9.0 / 20.0 * 81.0 / 400.0);
    let canister = exact(build_with(&rules, "assault", &one("1")).as_ref());
    close(canister.probability("winner", 1), 1.0);
    // Under `none` the charge goes straight in, guns or not.
    let none = Rules { closing_volley: ClosingVolley::None, ..Rules::default() };
    close(exact(build_with(&none, "assault", &one("1")).as_ref()).probability("winner", 0), 81.0 / 400.0);
}

#[test]
fn an_attacker_nineteen_inches_away_stops_at_its_charge_reach() {
    // Issue 13's hand-worked game. One attacker figure against one defender,
    // no guns, attackers that only close (`attacker_fire = never`), three
    // turns, the attacker maximising its win chance. A volley at d inches
    // misses with (d - 1)/20; the charge must start within 10 (8 + 2) by turn
    // 3, and the defender's closing volley (`at_charge_start`, the default)
    // meets it at the distance it starts from. From 19 it ends turn 1 at x
    // (11..=18 to reach 10 or less next) and turn 2 at y (x - 8..=10), then
    // charges from y: it survives with (x - 1)(y - 1)(y - 1)/8000, most at x
    // = 18, y = 10, its charge reach: 17 * 9 * 9 = 1377. Then the melee,
    // 81/400. Bold (full moves: 11, then 3, then the charge from 3) survives
    // 10 * 2 * 2; cautious (11, then charge reach 10) 10 * 9 * 9. Under
    // `closing_volley = none` the charge takes no fire: 17 * 9, 10 * 2 and
    // 10 * 9 out of 400.
    let never = Rules { attacker_fire: AttackerFire::Never, ..Rules::default() };
    let pairs = |policy: &'static str| {
        [
            ("attacker.figures", "1"),
            ("defender.figures", "1"),
            ("distance", "19"),
            ("defender.guns", "0"),
            ("turns", "3"),
            ("attacker.objective", "win"),
            ("attacker.policy", policy),
        ]
    };
    let melee = 81.0 / 400.0;
    close(attacker_wins(&never, "assault", &pairs("best")), 1377.0 / 8000.0 * melee);
    close(attacker_wins(&never, "assault", &pairs("bold")), 40.0 / 8000.0 * melee);
    close(attacker_wins(&never, "assault", &pairs("cautious")), 810.0 / 8000.0 * melee);
    let quiet = Rules { closing_volley: ClosingVolley::None, ..never.clone() };
    close(attacker_wins(&quiet, "assault", &pairs("best")), 153.0 / 400.0 * melee);
    close(attacker_wins(&quiet, "assault", &pairs("bold")), 20.0 / 400.0 * melee);
    close(attacker_wins(&quiet, "assault", &pairs("cautious")), 90.0 / 400.0 * melee);
    // --explain: the first move is the 1 inch to 18, every option valued.
    // The defender's only decision is whether to counter-charge an attacker
    // that ends its move within its reach (issue 34); in this fight staying
    // is worth as much (an even melee against its closing volley).
    let best = build_with(&never, "assault", &pairs("best"));
    let explained = best.explain().expect("solved");
    assert!(explained.iter().filter(|e| e.side == "defender").all(|e| e.decision == "counter_charge"));
    let first = explained.iter().find(|e| e.side == "attacker").expect("the attacker decides");
    assert_eq!(first.situation, "1 attackers 19 inches from the defenders (1 defenders; charge reach 10 inches)");
    let chosen: Vec<&str> = first.options.iter().filter(|o| o.chosen).map(|o| o.option.as_str()).collect();
    assert_eq!(chosen, ["advance 1 inch to 18 inches"]);
    let full = first.options.iter().find(|o| o.option == "advance 8 inches to 11 inches").unwrap();
    close(full.attacker_wins, 810.0 / 8000.0 * melee);
    assert_agrees(best.as_ref(), 400_000, 64);
}

#[test]
fn issue_13_forty_elite_attackers_no_longer_fall_off_a_cliff_at_nineteen_inches() {
    // Issue 13 measured 88.8% at 18 inches, 6.0% at 19, 18% at 20 and 84% at
    // 26 with the forced full move and attackers who never fire. Under best
    // play 40 elite attackers firing back outshoot 20 defenders from where
    // they stand (a figure hits on the distance, so 40 muskets against 20
    // win the exchange at any range both can reach), and the start no longer
    // matters: every distance wins at least 99%.
    let rules = Rules::default();
    let at = |distance: &'static str| {
        let pairs =
            [("attacker.figures", "40"), ("attacker.quality", "elite"), ("defender.guns", "0"), ("distance", distance)];
        attacker_wins(&rules, "assault", &pairs)
    };
    let wins: Vec<f64> = ["18", "19", "20", "26"].into_iter().map(at).collect();
    for (distance, win) in ["18", "19", "20", "26"].iter().zip(&wins) {
        assert!(*win > 0.99, "{distance} inches: {win}");
    }
}

/// The attacker's win chance under best play at each start distance.
fn sweep(rules: &Rules, pairs: &[(&str, &str)], distances: std::ops::RangeInclusive<u32>) -> Vec<(u32, f64)> {
    distances
        .map(|d| {
            let text = d.to_string();
            let mut all = pairs.to_vec();
            all.push(("distance", &text));
            (d, attacker_wins(rules, "assault", &all))
        })
        .collect()
}

#[test]
fn the_start_distance_sweep_under_best_play_has_no_jump() {
    // The default assault under its default purpose (attack), 12 turns, 6 to
    // 30 inches. Under `closing_volley = none` a charge from within reach (10
    // inches) met no fire, so 10 inches was about even and 11 far worse (one
    // approach turn under canister): the jump issue 34 found. With the
    // default volley at the charge's start the charge from 10 takes the fire
    // it would have taken one turn nearer, and neighbours differ by at most
    // 10 points; under `none` the jump is still there.
    // Measured: 11.0% at 6 inches, 12.8 at 8, 15.4 at 10, 15.9 at 11, 16.0
    // to 17.9 from 12 to 17, 19.8 at 19, 16.2 from 22 to 29, 14.8 at 30.
    let pairs = [("purpose", "attack"), ("turns", "12")];
    let wins = sweep(&Rules::default(), &pairs, 6..=30);
    for pair in wins.windows(2) {
        let ((d, a), (_, b)) = (pair[0], pair[1]);
        assert!((a - b).abs() <= 0.10, "{d} to {} inches: {a} to {b}", d + 1);
    }
    let none = Rules { closing_volley: ClosingVolley::None, ..Rules::default() };
    let old = sweep(&none, &pairs, 10..=11);
    assert!(old[0].1 - old[1].1 > 0.25, "the old charge-reach jump: {old:?}");
}

#[test]
fn a_better_attacker_never_lowers_its_chance_nor_a_better_defender_raises_it() {
    // Issue 34's quality sweep, under the default purpose (attack) at the
    // assault's defaults: each grade up the
    // ladder (inexperienced, experienced, veteran, elite: melee +0, +2, +3,
    // +5; morale -2, 0, +2, +4) helps the side that has it, and no step
    // moves the result by more than the grades' worth explains (every step
    // is checked to stay within 25 points). Measured: the attacker wins
    // 16.0, 16.2, 16.3 and 16.5% from inexperienced to elite: the defenders'
    // gun and the closing volley decide the default assault, not the grade,
    // but every grade still helps.
    let grades = ["inexperienced", "experienced", "veteran", "elite"];
    let at = |side: &'static str, grade: &'static str| {
        attacker_wins(&Rules::default(), "assault", &[("purpose", "attack"), (side, grade)])
    };
    let attackers: Vec<f64> = grades.iter().map(|g| at("attacker.quality", g)).collect();
    let defenders: Vec<f64> = grades.iter().map(|g| at("defender.quality", g)).collect();
    for pair in attackers.windows(2) {
        assert!(pair[1] > pair[0] && pair[1] - pair[0] < 0.25, "attacker grades: {attackers:?}");
    }
    for pair in defenders.windows(2) {
        assert!(pair[1] <= pair[0] + 1e-12 && pair[0] - pair[1] < 0.25, "defender grades: {defenders:?}");
    }
}

#[test]
fn monte_carlo_follows_best_play_and_each_heuristic() {
    let pairs = [("attacker.figures", "6"), ("defender.figures", "5"), ("distance", "20"), ("turns", "10")];
    for (seed, policy) in [(58, "best"), (65, "bold"), (66, "cautious")] {
        let mut all = pairs.to_vec();
        all.push(("attacker.policy", policy));
        assert_agrees(build("assault", &all).as_ref(), 1_000_000, seed);
    }
    // Howitzers defending, beyond canister range: a stationary target draws
    // the consecutive bonus.
    let howitzers = [
        ("attacker.figures", "8"),
        ("attacker.arm", "light_infantry"),
        ("attacker.quality", "elite"),
        ("defender.figures", "4"),
        ("defender.artillery", "howitzer"),
        ("defender.guns", "2"),
        ("distance", "30"),
        ("edge", "16"),
        ("turns", "8"),
    ];
    assert_agrees(build("assault", &howitzers).as_ref(), 1_000_000, 59);
}

#[test]
fn farm_assault_one_turn_of_bombardment_by_hand() {
    // One flat gun 1 inch from the farm penetrates on 3D20 >= 10: all but the
    // C(9, 3) = 84 of 8000 rolls summing to 9 or less. A penetration removes one
    // of the 2 defenders and sets the building alight on 5-6 (1/3). The bold
    // attacker (1 figure) moves from 30 to 22 inches; the light infantry
    // defenders fire at 22 needing a 20 (22 - 2) per figure, and the attacker
    // cannot hit men behind walls (22 + 10). If the attacker survives and the
    // building burns, the defenders evacuate (attacker wins); if it does not
    // burn, the defenders, having lost 50%, test morale as Veterans (need 8:
    // fail 7/20) and a failure gives up the farm.
    let pairs = |policy: &'static str| {
        [
            ("attacker.figures", "1"),
            ("defender.figures", "2"),
            ("attacker.guns", "1"),
            ("attacker.artillery", "flat"),
            ("gun_distance", "1"),
            ("distance", "30"),
            ("turns", "1"),
            ("attacker.policy", policy),
        ]
    };
    let pen = 7916.0 / 8000.0;
    let fails = pen * (19.0 / 20.0) * (2.0 / 3.0) * (7.0 / 20.0);
    // Read `defender_failure = attacker_wins` (before issue 16), a failed test
    // gives up the farm and the fight.
    let ends = Rules { defender_failure: DefenderFailure::AttackerWins, ..Rules::default() };
    let dist = exact(build_with(&ends, "farm_assault", &pairs("bold")).as_ref());
    close(dist.probability("winner", 0), pen * (19.0 / 20.0) / 3.0 + fails);
    close(dist.probability("winner", 1), pen / 20.0 + (1.0 - pen) * (1.0 - (19.0f64 / 20.0).powi(2)));
    close(dist.probability("fire", 1), pen / 3.0);
    close(dist.probability("roof", 1), 0.0);
    // By default (`retreat_and_rally`) the defenders who fail retreat 8 inches
    // and the attackers take the farm, but the defenders may rally and come
    // back: at the one-turn limit the fight is undecided, unless the holder
    // of the position wins there (`assault_limit = holder`).
    let dist = exact(build("farm_assault", &pairs("bold")).as_ref());
    close(dist.probability("winner", 0), pen * (19.0 / 20.0) / 3.0);
    let holder = Rules { assault_limit: AssaultLimit::Holder, ..Rules::default() };
    let dist = exact(build_with(&holder, "farm_assault", &pairs("bold")).as_ref());
    close(dist.probability("winner", 0), pen * (19.0 / 20.0) / 3.0 + fails);
    // Best play holds out of musket range while the gun works: the defenders
    // cannot hit it at 30 (28 needed), so it never loses.
    let best = exact(build_with(&ends, "farm_assault", &pairs("best")).as_ref());
    close(best.probability("winner", 0), pen * (1.0 / 3.0 + 2.0 / 3.0 * 7.0 / 20.0));
    close(best.probability("winner", 1), 0.0);
}

/// One attacker figure (Experienced) 60 inches from one Veteran defender
/// figure attacked in the flank, no guns: nothing can hit at 60, so only the
/// flank test and what follows decide. 60 inches, not 30: best play's
/// secondary aims (end the fight sooner where it has nothing to lose) bring
/// an attacker 30 inches off into musket range within two turns, where the
/// figures trade fire; from 60 nothing reaches in two turns.
fn flanked_pairs(turns: &'static str, policy: &'static str) -> [(&'static str, &'static str); 8] {
    [
        ("attacker.figures", "1"),
        ("defender.figures", "1"),
        ("defender.quality", "veteran"),
        ("defender.flanked", "true"),
        ("defender.guns", "0"),
        ("distance", "60"),
        ("turns", turns),
        ("defender.policy", policy),
    ]
}

#[test]
fn a_flanked_defender_tests_at_the_first_morale_check() {
    // Issue 16, "a flanked unit in an assault". 5 lists "Unit is flanked"
    // among the triggers and gives a flanked unit nothing else (no fire or
    // melee modifier). Veterans pass on 8 (threshold 10, +2): they fail the
    // flank test with 7/20. Read `defender_failure = attacker_wins`, that is
    // the attackers' win, 7/20 in one turn, and still 7/20 in two under
    // `flanked_test = first_check`; under `every_check` they test again in
    // turn 2: 7/20 + 13/20 * 7/20. Unflanked, nothing happens.
    let ends = Rules { defender_failure: DefenderFailure::AttackerWins, ..Rules::default() };
    close(attacker_wins(&ends, "assault", &flanked_pairs("1", "best")), 7.0 / 20.0);
    close(attacker_wins(&ends, "assault", &flanked_pairs("2", "best")), 7.0 / 20.0);
    let every = Rules { flanked_test: FlankedTest::EveryCheck, ..ends.clone() };
    close(attacker_wins(&every, "assault", &flanked_pairs("2", "best")), 7.0 / 20.0 + 13.0 / 20.0 * 7.0 / 20.0);
    let mut front = flanked_pairs("2", "best").to_vec();
    front.retain(|&(key, _)| key != "defender.flanked");
    close(attacker_wins(&ends, "assault", &front), 0.0);
    // The farm's walls do not spare it the test.
    let mut farm = flanked_pairs("1", "best").to_vec();
    farm.push(("attacker.guns", "0"));
    close(attacker_wins(&ends, "farm_assault", &farm), 7.0 / 20.0);
}

#[test]
fn flanked_defenders_test_when_the_charge_reaches_them_under_contact() {
    // Issue 34, item 6: `flanked_when = contact`. From 60 inches nothing
    // reaches the flanked Veterans in two turns, so they never test (0, where
    // `start` gives 7/20). One turn from 10 inches (no closing volley, the
    // first turn's failure the attackers' win): the charge goes in, a melee
    // round kills the defender's figure with 64/400, the attacker's with
    // 90/400 (see `defenders_who_fail_morale_rally_and_charge_back_to_retake_the_position`);
    // in the other 246/400 no one fell, and the defenders test for the
    // flank: 7/20 fail. Under `start` the same (the first check is this turn's).
    let contact = Rules {
        defender_failure: DefenderFailure::AttackerWins,
        flanked_when: FlankedWhen::Contact,
        closing_volley: ClosingVolley::None,
        ..Rules::default()
    };
    close(attacker_wins(&contact, "assault", &flanked_pairs("2", "best")), 0.0);
    let mut near = flanked_pairs("1", "bold").to_vec();
    near.retain(|&(key, _)| key != "distance");
    near.extend([("distance", "10"), ("attacker.policy", "bold")]);
    let expected = 64.0 / 400.0 + 246.0 / 400.0 * 7.0 / 20.0;
    close(attacker_wins(&contact, "assault", &near), expected);
    let start = Rules { flanked_when: FlankedWhen::Start, ..contact.clone() };
    close(attacker_wins(&start, "assault", &near), expected);
    assert_agrees(build_with(&contact, "assault", &near).as_ref(), 400_000, 68);
}

#[test]
fn defenders_who_fail_morale_rally_and_charge_back_to_retake_the_position() {
    // Issue 16, item 9: rule 5 played. Turn 1 (as above): the flanked
    // Veterans fail with 7/20, retreat 8 inches, and the attackers take the
    // position. Turn 2, Give Orders: they rally on 8 or more (13/20), or
    // retreat 8 more, to 16, past their edge 8 inches behind the position:
    // they leave the field and the attackers win. Rallied at 8 inches, they
    // "act normally" (the `retake` decision): stay off, come back part way,
    // or charge (8 is within 8 + 2). Standing off or coming part way, both
    // sides' muskets need the same D20, an even exchange (margin 0); the
    // charge brings a melee in which Veterans (+3) beat Experienced (+2): a
    // figure dies when the other's total is at least twice its own (loser's
    // average divisor), the defender's killing with 90/400 (y + 3 >= 2(x +
    // 2): 18 + 16 + ... + 2 pairs) and the attacker's with 64/400 (x + 2 >=
    // 2(y + 3): 15 + 13 + ... + 1). So best play charges back. (Under
    // `closing_volley = none`: the default's volley at the charge, 13/20 at
    // 8 inches, would make standing off the better choice.)
    let none = Rules { closing_volley: ClosingVolley::None, ..Rules::default() };
    let fail = 7.0 / 20.0;
    let rally = 13.0 / 20.0;
    let dist = exact(build_with(&none, "assault", &flanked_pairs("2", "best")).as_ref());
    close(dist.probability("winner", 0), fail * ((1.0 - rally) + rally * 64.0 / 400.0));
    close(dist.probability("winner", 1), fail * rally * 90.0 / 400.0);
    // The explanation names the defenders' decision and values its options.
    let best = build_with(&none, "assault", &flanked_pairs("2", "best"));
    let explained = best.explain().expect("solved");
    let retake = explained.iter().find(|e| e.side == "defender").expect("the defenders decide");
    assert_eq!(retake.decision, "retake");
    assert_eq!(
        retake.situation,
        "1 rallied defenders 8 inches from the position (1 attackers hold it; charge reach 10 inches)"
    );
    let chosen: Vec<&str> = retake.options.iter().filter(|o| o.chosen).map(|o| o.option.as_str()).collect();
    assert_eq!(chosen, ["charge 8 inches to retake the position"]);
    let stay = retake.options.iter().find(|o| o.option == "stay off at 8 inches").unwrap();
    close(stay.defender_wins - stay.attacker_wins, 0.0);
    assert_agrees(best.as_ref(), 400_000, 67);
    // With the turn limit going to the holder of the position, a melee that
    // kills no one (246/400) leaves the attackers holding it at the limit, and
    // standing off leaves them there when both miss. Coming back to 1 inch,
    // where every musket hits, destroys both (none): the defenders' best,
    // unless the attackers holding the position may counter-charge them
    // there (issue 34), which this count leaves out.
    let holder = Rules { assault_limit: AssaultLimit::Holder, ..none.clone() };
    let mut no_counter = flanked_pairs("2", "best").to_vec();
    no_counter.push(("counter_charge", "false"));
    let explained = build_with(&holder, "assault", &no_counter).explain().expect("solved");
    let retake = explained.iter().find(|e| e.side == "defender").expect("the defenders decide");
    let chosen: Vec<&str> = retake.options.iter().filter(|o| o.chosen).map(|o| o.option.as_str()).collect();
    assert_eq!(chosen, ["come back 7 inches to 1 inch"]);
    let charge = retake.options.iter().find(|o| o.option == "charge 8 inches to retake the position").unwrap();
    close(charge.attacker_wins, 310.0 / 400.0);
    close(charge.defender_wins, 90.0 / 400.0);
}

#[test]
fn both_sides_break_and_the_holders_walk_back_in() {
    // Issue 34, item 2. Four Experienced attackers who only close
    // (`attacker_fire = never`, so only the defenders shoot) against one
    // flanked Veteran defender, no guns, 12 inches, two turns, the attackers
    // cautious: they stop at their charge reach, 10 inches. The defender's
    // musket hits at 10 with 11/20 and takes one of the four (25%): the
    // attackers test and fail with 9/20 (need 10); the flanked Veteran tests
    // at the first Morale Check and fails with 7/20 (need 8). Both break with
    // q = 11/20 * 9/20 * 7/20. Under `both_break = no_one` that ends the
    // fight (none); played on, the attackers retreat to 18 inches and the
    // defenders 8 inches behind the position. Turn 2, Give Orders: the
    // attackers rally with 11/20 or retreat to 26, past their edge (12 + 8);
    // the defenders rally with 13/20 or retreat to 16, past theirs (8). One
    // side left: the other wins; both left: none. Both rallied: the
    // defenders, 8 inches behind, walk back in with their 8-inch move, while
    // the attackers, 18 inches out, cannot reach it (cautious, they come to
    // 10): at the limit the defenders hold the position (a win under
    // `assault_limit = holder`, undecided by default). Every other branch is
    // the same under both readings, so the differences are q times these.
    let pairs = [
        ("attacker.figures", "4"),
        ("defender.figures", "1"),
        ("defender.quality", "veteran"),
        ("defender.flanked", "true"),
        ("defender.guns", "0"),
        ("distance", "12"),
        ("turns", "2"),
        ("attacker.policy", "cautious"),
    ];
    let q = 11.0 / 20.0 * 9.0 / 20.0 * 7.0 / 20.0;
    let (rally_a, rally_d) = (11.0 / 20.0, 13.0 / 20.0);
    let never = Rules { attacker_fire: AttackerFire::Never, ..Rules::default() };
    for (limit, walked_in) in [(AssaultLimit::Undecided, 0.0), (AssaultLimit::Holder, rally_a * rally_d)] {
        let on = Rules { assault_limit: limit, ..never.clone() };
        let off = Rules { both_break: BothBreak::NoOne, ..on.clone() };
        let on = exact(build_with(&on, "assault", &pairs).as_ref());
        let off = exact(build_with(&off, "assault", &pairs).as_ref());
        let gain = |winner: i64| on.probability("winner", winner) - off.probability("winner", winner);
        close(gain(0), q * rally_a * (1.0 - rally_d));
        close(gain(1), q * ((1.0 - rally_a) * rally_d + walked_in));
        close(gain(2), q * ((1.0 - rally_a) * (1.0 - rally_d) - 1.0) + q * (rally_a * rally_d - walked_in));
    }
    // The defenders walk in and the attackers, rallied, come on: Monte Carlo agrees.
    let holder = Rules { assault_limit: AssaultLimit::Holder, ..never };
    let mut longer = pairs.to_vec();
    longer.retain(|&(key, _)| key != "turns" && key != "attacker.policy");
    longer.push(("turns", "6"));
    assert_agrees(build_with(&holder, "assault", &longer).as_ref(), 400_000, 71);
}

#[test]
fn broken_holders_hand_over_at_once_or_the_side_outside_walks_in() {
    // Issue 34, item 6 (`handover`). Four Experienced attackers who only
    // close (`attacker_fire = never`) 30 inches from one flanked Veteran
    // defender, no guns, the attackers cautious: they move their full 8 to
    // 22 inches, beyond any musket (a D20 never reaches 22), so no one fires.
    // The flanked Veteran tests at the first Morale Check and fails with 7/20
    // (need 8), the attackers 22 inches away. One turn, the limit going to
    // the side holding the position (`assault_limit = holder`):
    // - `at_once`: the attackers take the position at once and hold it at
    //   the limit: attacker 7/20, defender 13/20.
    // - `walk_in`: the position stays empty, 22 inches from the attackers:
    //   no one holds it at the limit: none 7/20, defender 13/20.
    // Two turns under `walk_in`: in the second Give Orders the broken
    // defenders, 8 inches behind the position, rally with 13/20 and walk
    // back in with their 8-inch move before the attackers (22 inches out)
    // can get there, or retreat to 16 inches, past their edge (8), leaving
    // the field to the attackers. Nothing else can break a holder (no one
    // hits it, and the flanked test is only at the first check): defender
    // 13/20 + 7/20 * 13/20, attacker 7/20 * 7/20.
    let holder = Rules { attacker_fire: AttackerFire::Never, assault_limit: AssaultLimit::Holder, ..Rules::default() };
    let walk_in = Rules { handover: Handover::WalkIn, ..holder.clone() };
    let pairs = |turns: &'static str| {
        [
            ("attacker.figures", "4"),
            ("defender.figures", "1"),
            ("defender.quality", "veteran"),
            ("defender.flanked", "true"),
            ("defender.guns", "0"),
            ("distance", "30"),
            ("turns", turns),
            ("attacker.policy", "cautious"),
        ]
    };
    let (fail, pass) = (7.0 / 20.0, 13.0 / 20.0);
    let at_once = exact(build_with(&holder, "assault", &pairs("1")).as_ref());
    close(at_once.probability("winner", 0), fail);
    close(at_once.probability("winner", 1), pass);
    close(at_once.probability("winner", 2), 0.0);
    let empty = exact(build_with(&walk_in, "assault", &pairs("1")).as_ref());
    close(empty.probability("winner", 0), 0.0);
    close(empty.probability("winner", 1), pass);
    close(empty.probability("winner", 2), fail);
    let back = exact(build_with(&walk_in, "assault", &pairs("2")).as_ref());
    close(back.probability("winner", 0), fail * fail);
    close(back.probability("winner", 1), pass + fail * pass);
    close(back.probability("winner", 2), 0.0);
    // Played longer, both sides may walk in and come on: Monte Carlo agrees.
    let mut longer = pairs("6").to_vec();
    longer.retain(|&(key, _)| key != "attacker.policy" && key != "distance");
    longer.push(("distance", "14"));
    assert_agrees(build_with(&walk_in, "assault", &longer).as_ref(), 400_000, 83);
}

#[test]
fn an_attacker_falls_back_out_of_canister_range() {
    // Issue 34, item 3. One attacker figure 20 inches from one defender
    // figure and its gun, one turn. Within 20 inches the gun fires canister,
    // a D8 of casualties, at least 1: certain death for a lone figure before
    // it can fire (artillery comes off before small arms, 3.2 note). Beyond
    // 20 it fires flat shot, here one D20 against the distance
    // (`flat_dice = 1`), which never reaches 21; nor does a musket. Holding
    // or advancing, the attacker dies (the defender's win, 1); falling back
    // one inch to 21, nothing can hit it and the turn limit comes (none).
    let rules = Rules { flat_dice: 1, ..Rules::default() };
    let pairs = [
        ("attacker.figures", "1"),
        ("defender.figures", "1"),
        ("defender.guns", "1"),
        ("distance", "20"),
        ("turns", "1"),
    ];
    let best = build_with(&rules, "assault", &pairs);
    let dist = exact(best.as_ref());
    close(dist.probability("winner", 1), 0.0);
    close(dist.probability("winner", 2), 1.0);
    let explained = best.explain().expect("solved");
    let first = &explained[0];
    let chosen: Vec<&str> = first.options.iter().filter(|o| o.chosen).map(|o| o.option.as_str()).collect();
    assert_eq!(chosen, ["fall back 1 inch to 21 inches"]);
    let hold = first.options.iter().find(|o| o.option == "hold at 20 inches").unwrap();
    close(hold.defender_wins, 1.0);
    // The fall-back goes no farther than the move (8 inches, to 28) and
    // stays on the table (the edge, 8 inches behind the start, is at 28).
    assert!(first.options.iter().any(|o| o.option == "fall back 8 inches to 28 inches"));
    assert!(!first.options.iter().any(|o| o.option.contains("to 29 inches")));
    // The bold heuristic marches in and dies.
    let mut bold = pairs.to_vec();
    bold.push(("attacker.policy", "bold"));
    close(exact(build_with(&rules, "assault", &bold).as_ref()).probability("winner", 1), 1.0);
}

#[test]
fn thrown_out_attackers_and_returning_defenders_agree_with_monte_carlo() {
    // Both sides may lose and retake the position several times: Monte Carlo
    // under best play and under each heuristic follows the solver.
    let pairs = [("attacker.figures", "6"), ("defender.figures", "6"), ("distance", "12"), ("turns", "10")];
    for (seed, policy) in [(68, "best"), (69, "bold"), (70, "cautious")] {
        let mut all = pairs.to_vec();
        all.extend([("attacker.policy", policy), ("defender.policy", policy)]);
        assert_agrees(build("assault", &all).as_ref(), 1_000_000, seed);
    }
}

#[test]
fn farm_assault_fire_ends_it_sooner() {
    // Issue 16, item 3: under `burning_building = evacuate` a fire ends the
    // farm assault at once. Ten attackers against six veterans (measured:
    // the attackers win 99.98% under every fire reading, for they also
    // outfight the defenders hand to hand) finish in 3.09 turns on average
    // when fire evacuates the farm, 3.99 when it does nothing.
    let pairs = [("attacker.figures", "10"), ("defender.figures", "6"), ("turns", "10")];
    let evacuate = exact(build("farm_assault", &pairs).as_ref());
    assert!(evacuate.probability("fire", 1) > 0.05, "{}", evacuate.probability("fire", 1));
    // Buildings that never burn (a D6 of 7 needed) hold out longer.
    let fireproof = Rules { fire_at_least: 7, ..Rules::default() };
    let fireproof = exact(build_with(&fireproof, "farm_assault", &pairs).as_ref());
    close(fireproof.probability("fire", 1), 0.0);
    assert!(fireproof.mean("turns") > evacuate.mean("turns") + 0.5);
    // When fire does nothing, the fire metric still counts it but the fight lasts longer.
    let no_effect = Rules { burning_building: BurningBuilding::NoEffect, ..Rules::default() };
    let no_effect = exact(build_with(&no_effect, "farm_assault", &pairs).as_ref());
    assert!(no_effect.mean("turns") > evacuate.mean("turns") + 0.5);
    // With no guns nothing burns and no roof comes off.
    let mut no_guns = pairs.to_vec();
    no_guns.push(("attacker.guns", "0"));
    let no_guns = exact(build("farm_assault", &no_guns).as_ref());
    close(no_guns.probability("fire", 1), 0.0);
    close(no_guns.probability("roof", 1), 0.0);
}

#[test]
fn farm_assault_monte_carlo_agrees_with_the_solver() {
    let pairs = [
        ("attacker.figures", "8"),
        ("defender.figures", "4"),
        ("attacker.guns", "2"),
        ("attacker.crew", "veteran"),
        ("distance", "20"),
        ("turns", "8"),
    ];
    assert_agrees(build("farm_assault", &pairs).as_ref(), 1_000_000, 60);
    // Guns inside the farm, and fire read as a morale test.
    let rules = Rules { burning_building: BurningBuilding::MoraleTest, ..Rules::default() };
    let mut flat = pairs.to_vec();
    flat.extend([("attacker.artillery", "flat"), ("gun_distance", "12"), ("defender.guns", "1")]);
    assert_agrees(build_with(&rules, "farm_assault", &flat).as_ref(), 1_000_000, 61);
}

#[test]
fn farm_assault_refuses_canister_and_close_howitzers() {
    let entry = volley_kernel::catalogue::ruleset("hougoumont").unwrap();
    let farm = entry.scenario("farm_assault").unwrap();
    let error = farm.build_from_text(&Rules::default(), [("attacker.artillery", "canister")]).err().unwrap();
    assert!(error.to_string().starts_with("`attacker.artillery`"), "{error}");
    let error = farm.build_from_text(&Rules::default(), [("gun_distance", "5")]).err().unwrap();
    assert!(error.to_string().contains("minimum range is 7"), "{error}");
    // Cavalry cannot enter woods.
    let error = entry
        .scenario("assault")
        .unwrap()
        .build_from_text(&Rules::default(), [("ground", "woods"), ("attacker.arm", "cavalry")])
        .err()
        .unwrap();
    assert!(error.to_string().contains("cavalry cannot enter woods"), "{error}");
}

#[test]
fn the_defaults_solve_and_are_a_fight() {
    // Issue 16: the default assault was a certain loss for the attacker
    // (0.0%) because it marched its full 8 inches into canister and musketry
    // (16 inches, then 8) without firing back. Under best play, firing back,
    // it won about a fifth of the time (19.2%) when the defenders' first
    // failed test ended the fight; once they might rally and retake the
    // position (rule 5) it won 9.0%, 15.9% of fights ending with both sides
    // broken; played on (issue 34, `both_break`), it wins 16.3% and 0.4%
    // end with both sides leaving the field at once (measured, purpose
    // `attack`, the scenario's default).
    let defaults = [("purpose", "attack")];
    let assault = exact(build("assault", &defaults).as_ref());
    let win = assault.probability("winner", 0);
    assert!((0.05..0.3).contains(&win), "{win}");
    assert!(assault.probability("ended", 3) < 0.01, "{}", assault.probability("ended", 3));
    let ends = Rules { defender_failure: DefenderFailure::AttackerWins, ..Rules::default() };
    let old = exact(build_with(&ends, "assault", &defaults).as_ref()).probability("winner", 0);
    assert!(old > win + 0.02, "the old reading {old}, the new {win}");
    let no_one = Rules { both_break: BothBreak::NoOne, ..Rules::default() };
    let ended = exact(build_with(&no_one, "assault", &defaults).as_ref());
    assert!(ended.probability("ended", 3) > 0.1, "{}", ended.probability("ended", 3));
    assert!(ended.probability("winner", 0) < win - 0.05, "no_one {}, play_on {win}", ended.probability("winner", 0));
    let mut bold = defaults.to_vec();
    bold.push(("attacker.policy", "bold"));
    let bold = exact(build("assault", &bold).as_ref()).probability("winner", 0);
    assert!(bold < win, "best {win} must beat bold {bold}");
}

#[test]
fn the_turn_limit_is_undecided_unless_the_holder_wins() {
    // One figure each 30 inches apart, one turn, no guns: nothing can reach or
    // hit (a D20 never reaches 22 or more), so the fight meets its limit.
    let pairs = [
        ("attacker.figures", "1"),
        ("defender.figures", "1"),
        ("distance", "30"),
        ("defender.guns", "0"),
        ("turns", "1"),
    ];
    close(exact(build("assault", &pairs).as_ref()).probability("winner", 2), 1.0);
    let holds = Rules { assault_limit: AssaultLimit::Holder, ..Rules::default() };
    close(exact(build_with(&holds, "assault", &pairs).as_ref()).probability("winner", 1), 1.0);
}
