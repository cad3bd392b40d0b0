//! `brigade_fire`: several shooters at one target worked by hand (the single
//! source of the retreat test, retreats opening both ranges, the defender's
//! choice of target, a routed attacker's partner fighting on), the
//! start-distance sweep under best play, and Monte Carlo against the solver
//! under each policy and reading.

use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;
use volley_kernel::game::{Objective, Plan, Played, Policy, Purpose};
use volley_kernel::outcome::Distribution;
use volley_kernel::rulesets::one_hour::brigade::{BrigadeFire, BrigadeSetup};
use volley_kernel::rulesets::one_hour::duel::{FirstSide, SideSetup};
use volley_kernel::rulesets::one_hour::{
    Commander, LeaderLeaves, LeaderRisk, Quality, Retire, Rules, SingleSource, SurvivingLeader, UnitType,
};
use volley_kernel::runner::RunOptions;
use volley_kernel::scenario::DynScenario;

const TOLERANCE: f64 = 1e-12;
const ATTACKER: i64 = 0;
const DEFENDER: i64 = 1;
/// `attackers_routed` values.
const ROUTED_ATTACKER: i64 = 1;
const ROUTED_BOTH: i64 = 3;
/// `ended` values: a side left the fight of its own accord.
const ATTACKER_LEFT: i64 = 1;
const DEFENDER_LEFT: i64 = 2;

/// Both sides bold: they fire whenever they may, the nearer unit first and at
/// the nearer unit, and otherwise move their full move.
const BOLD: Plan = Plan { policy: [Policy::Bold, Policy::Bold], objective: [Objective::Margin; 2] };

fn side(unit: UnitType, hits: u32) -> SideSetup {
    SideSetup { hits, ..SideSetup::new(unit) }
}

fn setup(range: u32, support_range: u32, turns: u32) -> BrigadeSetup {
    BrigadeSetup { range, support_range, turns, first: FirstSide::Attacker }
}

fn exact(rules: &Rules, plan: Plan, units: [SideSetup; 3], setup: BrigadeSetup) -> Distribution {
    let fight = BrigadeFire::new(rules, units[0], units[1], units[2], setup).unwrap();
    Played::new(fight, plan).exact_distribution().unwrap()
}

#[track_caller]
fn assert_p(dist: &Distribution, metric: &str, value: i64, expected: f64) {
    let got = dist.probability(metric, value);
    assert!((got - expected).abs() < TOLERANCE, "P({metric} = {value}) = {got}, expected {expected}");
}

fn build(pairs: &[(&str, &str)]) -> Box<dyn DynScenario> {
    let one_hour = ruleset("one_hour").unwrap();
    let rules = (one_hour.default_rules)();
    {
        let entry = one_hour.scenario("brigade_fire").unwrap();
        entry.build_from_text(rules.as_ref(), crate::manoeuvring(entry, pairs))
    }
    .unwrap()
}

#[test]
fn a_conscript_hit_once_by_each_of_two_shooters_does_not_retreat() {
    // A battalion at 2 boxes (1D6) and a battery at 5 (1D6) fire on a
    // three-hit conscript line, which retreats at "2 (or more) hits from a
    // single shooter". Each unit's fire is a source (each_unit): one hit from
    // each is two sources of one hit, no retreat, and the line, still at 2
    // boxes, fires 1D6 back at the battalion: the attackers lose a hit (11 of
    // their 12 left: 91%) with 2/3. Read as one source (all_fire), both hitting
    // (4/9) makes it retreat a box, out of its own range of both: 5/9 * 2/3 =
    // 10/27. One turn, attacker first.
    let conscript = SideSetup { conscript: true, ..side(UnitType::LineInfantry, 3) };
    let units = [SideSetup::new(UnitType::LineInfantry), SideSetup::new(UnitType::Artillery), conscript];
    let dist = exact(&Rules::default(), BOLD, units, setup(2, 5, 1));
    assert_p(&dist, "attacker_remaining", 91, 2.0 / 3.0);
    let pooled = Rules { single_source: SingleSource::AllFire, ..Rules::default() };
    let dist = exact(&pooled, BOLD, units, setup(2, 5, 1));
    assert_p(&dist, "attacker_remaining", 91, 10.0 / 27.0);
    // Two hits from one shooter do make it retreat under either reading: the
    // battery at 3 boxes (2D6) hits twice with 4/9, and the line, pushed to 3
    // boxes from the battalion, cannot reply: 5/9 * 2/3 again.
    let dist = exact(&Rules::default(), BOLD, units, setup(3, 3, 1));
    // The battalion at 3 boxes cannot fire; it moves in the movement phase,
    // after the battery's fire: to 2 boxes, or to 3 after a retreat (4 boxes).
    assert_p(&dist, "attacker_remaining", 91, 5.0 / 9.0 * 2.0 / 3.0);
}

#[test]
fn a_retreat_from_one_source_opens_the_range_to_both() {
    // A battery at 1 box (3D6, fired first as the nearer unit) and a battalion
    // at 2 boxes (1D6) on an eleven-hit line. Three hits of the battery (8/27)
    // push the line back a box, straight along the files: the battalion is
    // then 3 boxes off, out of range, and moves instead of firing. So the line
    // loses exactly three hits (8 of 11 left: 72%) with 8/27 (the battery
    // alone) + 12/27 * 2/3 (two from the battery, one from the battalion) =
    // 16/27. Had the retreat opened only the battery's range, 32/81.
    let units =
        [side(UnitType::LineInfantry, 6), SideSetup::new(UnitType::Artillery), side(UnitType::LineInfantry, 11)];
    let dist = exact(&Rules::default(), BOLD, units, setup(2, 1, 1));
    assert_p(&dist, "defender_remaining", 72, 16.0 / 27.0);
}

#[test]
fn the_order_of_fire_is_the_attackers_decision() {
    // A battalion at 2 boxes (1D6) and a battery at 1 (3D6) on a four-hit
    // line, one turn. The battalion first: its hit (2/3) and the battery's
    // three (8/27) rout the line: 16/81. The battery first: three hits do
    // not rout it but push it back a box, the battalion is then out of range,
    // and less than three leave it standing: never. Best play fires the
    // battalion first; bold fires the nearer unit, the battery, first.
    let units =
        [SideSetup::new(UnitType::LineInfantry), SideSetup::new(UnitType::Artillery), side(UnitType::LineInfantry, 4)];
    let best = exact(&Rules::default(), Plan::BEST, units, setup(2, 1, 1));
    assert_p(&best, "winner", ATTACKER, 16.0 / 81.0);
    let bold = exact(&Rules::default(), BOLD, units, setup(2, 1, 1));
    assert_p(&bold, "winner", ATTACKER, 0.0);
}

#[test]
fn the_defender_chooses_whom_to_fire_at() {
    // One-hit battalion and battery, both 2 boxes from a one-hit line that
    // fires first: 1D6 (2/3) routs the one it fires at. Then whoever is left
    // fires back: the battalion 1D6 (2/3), the battery 2D6 (8/9), both
    // 1 - 1/3 * 1/9 = 26/27. Firing at the battery leaves the attacker
    // 2/3 * 2/3 + 1/3 * 26/27 = 62/81; at the battalion 2/3 * 8/9 + 1/3 * 26/27
    // = 74/81. Best play fires at the battery; bold at the nearer unit, the
    // attacking unit on a tie, the battalion.
    let units = [side(UnitType::LineInfantry, 1), side(UnitType::Artillery, 1), side(UnitType::LineInfantry, 1)];
    let first = BrigadeSetup { first: FirstSide::Defender, ..setup(2, 2, 1) };
    let best = exact(&Rules::default(), Plan::BEST, units, first);
    assert_p(&best, "winner", ATTACKER, 62.0 / 81.0);
    assert_p(&best, "attackers_routed", 2, 2.0 / 3.0);
    let bold = exact(&Rules::default(), BOLD, units, first);
    assert_p(&bold, "winner", ATTACKER, 74.0 / 81.0);
    assert_p(&bold, "attackers_routed", ROUTED_ATTACKER, 2.0 / 3.0);
    // The decision is named, with both targets among its options.
    let scenario =
        build(&[("first", "defender"), ("attacker.hits", "1"), ("support.hits", "1"), ("defender.hits", "1")]);
    let explained = scenario.explain().unwrap();
    let target = explained.iter().find(|e| e.decision == "target").unwrap();
    assert_eq!(target.side, "defender");
    let chosen: Vec<&str> = target.options.iter().filter(|o| o.chosen).map(|o| o.option.as_str()).collect();
    assert_eq!(chosen, ["fire at the supporting unit"]);
}

#[test]
fn the_fight_goes_on_when_one_attacker_routs() {
    // The line fires first, 3D6 at a one-hit battalion one box off (26/27 rout
    // it); the battery at 3 boxes fights on, 2D6 on the one-hit line (8/9).
    // If the battalion stands (1/27), both fire: 1 - 1/27 * 1/9 = 242/243.
    let units = [side(UnitType::LineInfantry, 1), SideSetup::new(UnitType::Artillery), side(UnitType::LineInfantry, 1)];
    let first = BrigadeSetup { first: FirstSide::Defender, ..setup(1, 3, 1) };
    let dist = exact(&Rules::default(), BOLD, units, first);
    assert_p(&dist, "winner", ATTACKER, 26.0 / 27.0 * 8.0 / 9.0 + 1.0 / 27.0 * 242.0 / 243.0);
    assert_p(&dist, "attackers_routed", ROUTED_ATTACKER, 26.0 / 27.0);
    // The defender wins only when both have routed. A steadfast battery of
    // eleven hits fires first on a one-hit battalion at 2 boxes and a one-hit
    // battery at 4, 2D6 each time at the nearer: the battalion routs with
    // 8/9 in turn 1, the battery with 8/9 in turn 2 (a battalion that stood
    // is fired on again instead). Their fire cannot rout eleven hits in two turns.
    let guns = SideSetup { steadfast: true, ..side(UnitType::Artillery, 11) };
    let units = [side(UnitType::LineInfantry, 1), side(UnitType::Artillery, 1), guns];
    let first = BrigadeSetup { first: FirstSide::Defender, ..setup(2, 4, 2) };
    let dist = exact(&Rules::default(), BOLD, units, first);
    assert_p(&dist, "winner", DEFENDER, 64.0 / 81.0);
    assert_p(&dist, "attackers_routed", ROUTED_BOTH, 64.0 / 81.0);
    assert_p(&dist, "attacker_remaining", 0, 64.0 / 81.0);
}

#[test]
fn errors_name_the_supporting_units_keys() {
    let one_hour = ruleset("one_hour").unwrap();
    let rules = (one_hour.default_rules)();
    let entry = one_hour.scenario("brigade_fire").unwrap();
    for (key, value) in [("support.type", "cavalry"), ("support.range", "16"), ("support.commander", "picton")] {
        let mut pairs = vec![(key, value)];
        if key == "support.commander" {
            pairs.push(("attacker.commander", "picton"));
        }
        let error = entry.build_from_text(rules.as_ref(), pairs).err().unwrap();
        assert!(error.to_string().contains(key), "{error}");
    }
    let error = entry.build_from_text(rules.as_ref(), [("defender.type", "heavy_cavalry")]).err().unwrap();
    assert!(error.to_string().contains("defender.type"), "{error}");
    let error = entry.build_from_text(rules.as_ref(), [("support.close_to", "2")]).err().unwrap();
    assert!(error.to_string().contains("did you mean `attacker.policy`?"), "{error}");
}

/// The start distance of both attackers (`range`, with `support.range` the
/// same) from 1 to 8 boxes under best play, at the defaults (the purpose
/// `attack`, retiring offered): no jump of more than 10 points of the
/// attacker's win probability between neighbours (the brigade module's
/// "Start distances").
#[test]
fn best_play_sweep_of_the_start_distance_is_flat() {
    let values: Vec<f64> = (1..=8)
        .map(|r| {
            let r = r.to_string();
            build(&[("range", &r), ("purpose", "attack")]).exact_distribution().unwrap().probability("winner", ATTACKER)
        })
        .collect();
    for (from, pair) in (1..).zip(values.windows(2)) {
        assert!((pair[0] - pair[1]).abs() <= 0.10, "{from} -> {}: {values:?}", from + 1);
    }
    // Two units against one win at every distance, given thirty turns.
    assert!(values.iter().all(|&v| v > 0.999), "{values:?}");
}

#[test]
fn monte_carlo_agrees_with_the_solver() {
    let default_rules = Rules::default();
    let other_rules =
        Rules { single_source: SingleSource::AllFire, leader_risk: LeaderRisk::PerHit, ..Rules::default() };
    let line = SideSetup::new(UnitType::LineInfantry);
    let battery = SideSetup::new(UnitType::Artillery);
    let plan = |attacker, defender| Plan { policy: [attacker, defender], objective: [Objective::Margin; 2] };
    let cases = [
        (
            &default_rules,
            Plan::BEST,
            [line, battery, SideSetup { quality: Quality::OldGuard, ..line }],
            setup(2, 4, 12),
        ),
        (
            &default_rules,
            plan(Policy::Bold, Policy::Best),
            [
                SideSetup { leader: true, conscript: true, ..line },
                SideSetup { commander: Commander::Napoleon, ..battery },
                SideSetup { in_town: true, leader: true, commander: Commander::Wellington, ..line },
            ],
            BrigadeSetup { first: FirstSide::Defender, ..setup(3, 5, 12) },
        ),
        (
            &other_rules,
            plan(Policy::Cautious, Policy::Cautious),
            [
                SideSetup { column: true, reluctant: true, ..line },
                SideSetup { quality: Quality::Poor, ..SideSetup::new(UnitType::Rifles) },
                SideSetup { conscript: true, leader: true, quality: Quality::Excellent, ..line },
            ],
            setup(4, 2, 12),
        ),
        (
            &other_rules,
            Plan::BEST,
            [SideSetup { quality: Quality::Poor, ..line }, SideSetup { quality: Quality::Poor, ..line }, line],
            setup(3, 0, 12),
        ),
    ];
    for (seed, (rules, plan, units, setup)) in cases.into_iter().enumerate() {
        let fight = BrigadeFire::new(rules, units[0], units[1], units[2], setup).unwrap();
        assert_agrees(&Played::new(fight, plan), 250_000, 1100 + seed as u64);
    }
}

/// A battalion with the brigade's one leader and its battery against a line.
fn led_brigade() -> [SideSetup; 3] {
    let line = SideSetup::new(UnitType::LineInfantry);
    [SideSetup { leader: true, ..line }, SideSetup::new(UnitType::Artillery), line]
}

#[test]
fn the_leader_rides_only_within_a_cavalry_move() {
    // Bold keeps the leader with the nearer unit, cautious takes him to the
    // one out of the line's reach or the farther: side by side (one box into
    // the neighbouring file, two half boxes of his six) the policies differ
    // in where he goes. Four boxes apart (a diagonal and three boxes, nine
    // half boxes) he cannot ride in one move, the decision is never offered,
    // and the policies' only other difference, the fire order, is the same
    // here (each unit fires when in range, nearer first under both).
    let plan = |attacker| Plan { policy: [attacker, Policy::Bold], objective: [Objective::Margin; 2] };
    let rules = Rules::default();
    let (units, near, far) = (led_brigade(), setup(2, 3, 6), setup(2, 6, 6));
    let bold_near = exact(&rules, plan(Policy::Bold), units, near);
    let cautious_near = exact(&rules, plan(Policy::Cautious), units, near);
    assert!((bold_near.mean("attacker_remaining") - cautious_near.mean("attacker_remaining")).abs() > 1e-6);
    let bold_far = exact(&rules, plan(Policy::Bold), units, far);
    let cautious_far = exact(&rules, plan(Policy::Cautious), units, far);
    for metric in ["winner", "attacker_remaining", "attacker_leader_lost"] {
        for value in 0..=100 {
            let (b, c) = (bold_far.probability(metric, value), cautious_far.probability(metric, value));
            assert!((b - c).abs() < TOLERANCE, "{metric} = {value}: {b} against {c}");
        }
    }
}

#[test]
fn a_ride_moves_the_extra_hit() {
    // One turn. A one-hit battalion with the leader (two hits) 2 boxes from a
    // steadfast eleven-hit line, its one-hit battery alongside at 3 boxes
    // (a diagonal into its file and a box, three half boxes of his six). Both
    // fire (the line cannot rout), then the leader decides: bold keeps him with
    // the nearer unit, the battalion; cautious takes him to the battery, out
    // of the line's 2-box range. The line's 1D6 at 2 boxes (bold: at the only
    // unit in range) hits the battalion with 2/3.
    //
    // He stays: the hit routs the battalion only if the 2D6 '2' (1/36) takes
    // him and his hit too: 2/3 * 1/36 = 1/54, and he is lost then.
    // He rides: his hit goes with him (leader_leaves), the battalion routs on
    // any hit (2/3), the battery keeps two hits, and he is never at risk: the
    // brigade keeps 2 of its 3 hits (66%) with 2/3 and all three with 1/3.
    // Under keep_hits the battalion keeps its two hits and never routs.
    let units = [
        SideSetup { leader: true, ..side(UnitType::LineInfantry, 1) },
        side(UnitType::Artillery, 1),
        SideSetup { steadfast: true, ..side(UnitType::LineInfantry, 11) },
    ];
    let plan = |attacker| Plan { policy: [attacker, Policy::Bold], objective: [Objective::Margin; 2] };
    let rules = Rules::default();
    let stays = exact(&rules, plan(Policy::Bold), units, setup(2, 3, 1));
    assert_p(&stays, "attackers_routed", ROUTED_ATTACKER, 1.0 / 54.0);
    assert_p(&stays, "attacker_leader_lost", 1, 1.0 / 54.0);
    let rides = exact(&rules, plan(Policy::Cautious), units, setup(2, 3, 1));
    assert_p(&rides, "attackers_routed", ROUTED_ATTACKER, 2.0 / 3.0);
    assert_p(&rides, "attacker_leader_lost", 1, 0.0);
    assert_p(&rides, "attacker_remaining", 66, 2.0 / 3.0);
    assert_p(&rides, "attacker_remaining", 100, 1.0 / 3.0);
    let keep = Rules { leader_leaves: LeaderLeaves::KeepHits, ..Rules::default() };
    let rides = exact(&keep, plan(Policy::Cautious), units, setup(2, 3, 1));
    assert_p(&rides, "attackers_routed", 0, 1.0);
    // Best play: nothing the attacker does in one turn changes whether it
    // wins or loses (it can do neither), so the tie keeps him where he is.
    let best = exact(&rules, plan(Policy::Best), units, setup(2, 3, 1));
    assert_p(&best, "attacker_leader_lost", 1, 1.0 / 54.0);
    let scenario = build(&[("attacker.leader", "true")]);
    let decisions: Vec<&str> = scenario.decisions().iter().map(|d| d.name).collect();
    assert_eq!(decisions, ["volley", "target", "move", "square", "leader"]);
}

#[test]
fn best_play_sweep_with_a_leader_is_flat() {
    let values: Vec<f64> = (1..=8)
        .map(|r| {
            let r = r.to_string();
            build(&[
                ("range", &r),
                ("support.leader", "true"),
                ("defender.quality", "excellent"),
                ("purpose", "attack"),
            ])
            .exact_distribution()
            .unwrap()
            .probability("winner", ATTACKER)
        })
        .collect();
    for (from, pair) in (1..).zip(values.windows(2)) {
        assert!((pair[0] - pair[1]).abs() <= 0.10, "{from} -> {}: {values:?}", from + 1);
    }
}

#[test]
fn monte_carlo_agrees_with_the_solver_under_each_leader_policy() {
    let readings = [Rules::default(), Rules { leader_leaves: LeaderLeaves::KeepHits, ..Rules::default() }];
    let mut units = led_brigade();
    units[2].quality = Quality::Excellent;
    for (seed, policy) in [Policy::Best, Policy::Bold, Policy::Cautious].into_iter().enumerate() {
        let plan = Plan { policy: [policy, Policy::Best], objective: [Objective::Margin; 2] };
        for (offset, rules) in readings.iter().enumerate() {
            let fight = BrigadeFire::new(rules, units[0], units[1], units[2], setup(2, 3, 12)).unwrap();
            assert_agrees(&Played::new(fight, plan), 200_000, 1200 + 10 * seed as u64 + offset as u64);
        }
    }
}

#[test]
fn a_leader_surviving_his_units_rout_joins_the_other_only_if_the_reading_says_so() {
    // The line (steadfast, eleven hits) fires first, 3D6 at one box on a
    // one-hit battalion with its leader (two hits): any hit risks him on 2D6
    // '2' (1/36), two or more rout the battalion (20/27 * 35/36, then the
    // rout's 1D6 '1' takes him with 1/6). A battery of one hit stands 8 boxes
    // off, beyond the line's fire. By default the survivor stays apart; under
    // always_joins he joins the battery, which ends with two hits: 66% of the
    // brigade's three instead of 33%. (66% is also a battalion that took one
    // hit and kept him: 6/27 * 35/36.)
    let units = [
        SideSetup { leader: true, ..side(UnitType::LineInfantry, 1) },
        side(UnitType::Artillery, 1),
        SideSetup { steadfast: true, ..side(UnitType::LineInfantry, 11) },
    ];
    let first = BrigadeSetup { first: FirstSide::Defender, ..setup(1, 8, 1) };
    let survives = 20.0 / 27.0 * 35.0 / 36.0 * 5.0 / 6.0;
    let dist = exact(&Rules::default(), BOLD, units, first);
    let hit_once = 6.0 / 27.0 * 35.0 / 36.0;
    assert_p(&dist, "attacker_remaining", 66, hit_once);
    assert_p(&dist, "attacker_leader_lost", 0, 1.0 - 26.0 / 27.0 / 36.0 - 20.0 / 27.0 * 35.0 / 36.0 / 6.0);
    let always = Rules { surviving_leader: SurvivingLeader::AlwaysJoins, ..Rules::default() };
    let dist = exact(&always, BOLD, units, first);
    assert_p(&dist, "attacker_remaining", 66, hit_once + survives);
}

/// The brigade under a purpose and a `retire` reading, one-hit units.
fn under(purpose: Purpose, retire: Retire, units: [SideSetup; 3], setup: BrigadeSetup) -> Distribution {
    let rules = Rules { retire, ..Rules::default() };
    let fight = BrigadeFire::new(&rules, units[0], units[1], units[2], setup).unwrap().with_purpose(purpose);
    Played::new(fight, Plan::BEST).exact_distribution().unwrap()
}

#[test]
fn the_defender_retires_from_close_range_only_where_its_purpose_lets_it() {
    // Movement: "May pivot at the start and end of their move only,
    // otherwise move forward" (rule `retire = pivot`). A one-hit line fires
    // first, one turn, at a one-hit battalion and a one-hit battery, both a
    // box off. Firing 3D6 at either routs it with 26/27; the other (or both,
    // 1/27) then fire 3D6 each at a box, and the line routs unless every die
    // misses: the attacker wins 26/27 * 26/27 + 1/27 * 728/729 = 18980/19683.
    // Staying, it takes both units' 3D6: 728/729. Retiring a box (its whole
    // move), it opens both ranges to 2 boxes (the files run straight): the
    // battalion's 1D6 and the battery's 2D6 miss it with 1/3 * 1/9, so the
    // attacker wins 26/27 (= 18954/19683), less than after firing. Playing
    // for the margin (`manoeuvre`) the line retires; under `attack` or
    // `stand` retiring gives up the ground it must hold, and it fires.
    let units = [side(UnitType::LineInfantry, 1), side(UnitType::Artillery, 1), side(UnitType::LineInfantry, 1)];
    let first = BrigadeSetup { first: FirstSide::Defender, ..setup(1, 1, 1) };
    let fired = 18980.0 / 19683.0;
    let retired = under(Purpose::Manoeuvre, Retire::Pivot, units, first);
    assert_p(&retired, "winner", ATTACKER, 26.0 / 27.0);
    assert_p(&retired, "attackers_routed", 0, 1.0);
    let never = under(Purpose::Manoeuvre, Retire::Never, units, first);
    assert_p(&never, "winner", ATTACKER, fired);
    for purpose in [Purpose::Attack, Purpose::Stand] {
        let held = under(purpose, Retire::Pivot, units, first);
        assert_p(&held, "winner", ATTACKER, fired);
        assert_p(&held, "ended", DEFENDER_LEFT, 0.0);
    }
    // The option is named in the defender's decision, and chosen.
    let scenario = build(&[
        ("first", "defender"),
        ("turns", "1"),
        ("range", "1"),
        ("attacker.hits", "1"),
        ("support.hits", "1"),
        ("defender.hits", "1"),
    ]);
    let explained = scenario.explain().unwrap();
    let target = explained.iter().find(|e| e.decision == "target").unwrap();
    let chosen: Vec<&str> = target.options.iter().filter(|o| o.chosen).map(|o| o.option.as_str()).collect();
    assert_eq!(chosen, ["retire to 2 boxes"], "{target:?}");
}

#[test]
fn an_attacking_unit_retires_out_of_the_defenders_range() {
    // Two turns, the defender first: a steadfast eleven-hit line (the
    // brigade's 1D6 and 2D6 cannot rout it in two turns) 2 boxes from a
    // one-hit battalion and a one-hit battery; it wins only by routing both,
    // one per side turn (its 1D6 at 2 boxes routs with 2/3). Without
    // retiring the survivor of its first volley stands within its range (or
    // closes) and is shot again: the line wins 2/3 * 2/3 = 4/9. Retiring,
    // the survivor pivots about, moves a box to 3, out of the line's range,
    // and faces it again; the line's move brings it back to 2 but it may not
    // shoot after moving: 0. Under `stand` the survivor must hold its ground
    // (retiring is leaving, and a loss), so it stays: 4/9 again.
    let line = SideSetup { steadfast: true, ..side(UnitType::LineInfantry, 11) };
    let units = [side(UnitType::LineInfantry, 1), side(UnitType::Artillery, 1), line];
    let first = BrigadeSetup { first: FirstSide::Defender, ..setup(2, 2, 2) };
    let retired = under(Purpose::Manoeuvre, Retire::Pivot, units, first);
    assert_p(&retired, "winner", DEFENDER, 0.0);
    assert_p(&retired, "attackers_routed", ROUTED_BOTH, 0.0);
    let never = under(Purpose::Manoeuvre, Retire::Never, units, first);
    assert_p(&never, "winner", DEFENDER, 4.0 / 9.0);
    let stand = under(Purpose::Stand, Retire::Pivot, units, first);
    assert_p(&stand, "winner", DEFENDER, 4.0 / 9.0);
    assert_p(&stand, "ended", ATTACKER_LEFT, 0.0);
}

#[test]
fn monte_carlo_agrees_with_the_solver_where_units_retire() {
    // Sampled fights follow best play's table, retirements included, under
    // each purpose and policy: the defender retiring out of reach playing
    // for the margin (the brigade wins 46.8% from 3 boxes), attacking units
    // drawing back under `attack`, and the stand-up fight.
    let line = SideSetup::new(UnitType::LineInfantry);
    let battery = SideSetup::new(UnitType::Artillery);
    let plan = |attacker, defender| Plan { policy: [attacker, defender], objective: [Objective::Margin; 2] };
    let cases = [
        (Purpose::Manoeuvre, Plan::BEST, setup(3, 3, 12)),
        (Purpose::Manoeuvre, plan(Policy::Bold, Policy::Best), setup(2, 4, 12)),
        (Purpose::Attack, Plan::BEST, setup(2, 4, 12)),
        (Purpose::Attack, plan(Policy::Best, Policy::Cautious), setup(1, 3, 12)),
        (Purpose::Stand, plan(Policy::Cautious, Policy::Best), setup(2, 2, 12)),
    ];
    for (seed, (purpose, plan, setup)) in cases.into_iter().enumerate() {
        let fight = BrigadeFire::new(&Rules::default(), line, battery, line, setup).unwrap().with_purpose(purpose);
        assert_agrees(&Played::new(fight, plan), 300_000, 1300 + seed as u64);
    }
    // The same seed gives the same counts on any thread count.
    let scenario = build(&[("range", "3"), ("turns", "12")]);
    let counts = |threads| scenario.simulate(&RunOptions::new(40_000, 17).with_threads(threads)).unwrap();
    let one = counts(1);
    assert!(one.probability("winner", 2) > 0.3, "the defender retires out of reach in many fights");
    for threads in [2, 3] {
        assert_eq!(one, counts(threads), "{threads} threads");
    }
}
