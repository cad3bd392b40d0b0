//! The duels as games: turns worked by hand under named policies (retreats,
//! advances, charges, leaders, rallies, commanders, towns, columns), best play
//! worked by hand, the start-distance sweeps under best play, and Monte Carlo
//! against the solver under each policy.

use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;
use volley_kernel::game::{Objective, Plan, Played, Policy};
use volley_kernel::outcome::Distribution;
use volley_kernel::params::Choice;
use volley_kernel::rulesets::one_hour::duel::{Duel, DuelKind, SideSetup};
use volley_kernel::rulesets::one_hour::{
    ChargeScores, ColumnExit, Commander, CommanderLeads, Doubling, HalfHits, LeaderLoss, LeaderRisk,
    LightInfantryCharged, Quality, Rules, SquareAfterFire, UnitType,
};
use volley_kernel::scenario::DynScenario;

const TOLERANCE: f64 = 1e-12;
const ATTACKER: i64 = 0;
const DEFENDER: i64 = 1;
const NONE: i64 = 2;

/// Both sides bold: they fire or charge whenever they may and otherwise move their full move.
const BOLD: Plan = Plan { policy: [Policy::Bold, Policy::Bold], objective: [Objective::Margin; 2] };

fn plan(attacker: Policy, defender: Policy) -> Plan {
    Plan { policy: [attacker, defender], objective: [Objective::Margin; 2] }
}

fn side(unit: UnitType, hits: u32) -> SideSetup {
    SideSetup { hits, ..SideSetup::new(unit) }
}

fn exact(kind: DuelKind, attacker: SideSetup, defender: SideSetup, range: u32, turns: u32) -> Distribution {
    exact_with(&Rules::default(), BOLD, kind, attacker, defender, range, turns)
}

fn exact_with(
    rules: &Rules,
    plan: Plan,
    kind: DuelKind,
    attacker: SideSetup,
    defender: SideSetup,
    range: u32,
    turns: u32,
) -> Distribution {
    let duel = Duel::new(rules, kind, attacker, defender, range, turns).unwrap();
    Played::new(duel, plan).exact_distribution().unwrap()
}

#[track_caller]
fn assert_p(dist: &Distribution, metric: &str, value: i64, expected: f64) {
    let got = dist.probability(metric, value);
    assert!((got - expected).abs() < TOLERANCE, "P({metric} = {value}) = {got}, expected {expected}");
}

fn build(scenario: &str, pairs: &[(&str, &str)]) -> Box<dyn DynScenario> {
    let one_hour = ruleset("one_hour").unwrap();
    let rules = (one_hour.default_rules)();
    {
        let entry = one_hour.scenario(scenario).unwrap();
        entry.build_from_text(rules.as_ref(), crate::manoeuvring(entry, pairs))
    }
    .unwrap()
}

#[test]
fn single_dice_firefight_follows_the_geometric_series() {
    // Two one-hit line infantry at 2 boxes, 1D6 each at 3+, the attacker first.
    // Turn 1: the attacker wins 2/3; the defender 1/3 * 2/3 = 2/9; 1/9 goes on.
    let attacker = side(UnitType::LineInfantry, 1);
    let defender = side(UnitType::LineInfantry, 1);
    let one = exact(DuelKind::Firefight, attacker, defender, 2, 1);
    assert_p(&one, "winner", ATTACKER, 2.0 / 3.0);
    assert_p(&one, "winner", DEFENDER, 2.0 / 9.0);
    assert_p(&one, "winner", NONE, 1.0 / 9.0);
    // Best play is the same: closing to one box would take the defender's 3D6
    // (the attacker's margin -26/27 against firing's 2/3 - 2/9).
    let best = exact_with(&Rules::default(), Plan::BEST, DuelKind::Firefight, attacker, defender, 2, 1);
    assert_p(&best, "winner", ATTACKER, 2.0 / 3.0);
    assert_p(&best, "winner", DEFENDER, 2.0 / 9.0);
    // The defender first: the same with the sides' roles swapped.
    let duel = Duel::new(&Rules::default(), DuelKind::Firefight, attacker, defender, 2, 1).unwrap().defender_first();
    let first = Played::new(duel, BOLD).exact_distribution().unwrap();
    assert_p(&first, "winner", DEFENDER, 2.0 / 3.0);
    assert_p(&first, "winner", ATTACKER, 2.0 / 9.0);
    // Over 30 turns: 2/3 * (1 + 1/9 + ... + 1/9^29) -> 3/4 less 3/4 * 9^-30.
    let thirty = exact(DuelKind::Firefight, attacker, defender, 2, 30);
    assert_p(&thirty, "winner", ATTACKER, 0.75 * (1.0 - 9f64.powi(-30)));
    assert_p(&thirty, "turns", 2, 1.0 / 9.0 * 8.0 / 9.0);
    assert_p(&thirty, "attacker_remaining", 0, 0.25 * (1.0 - 9f64.powi(-30)));
}

#[test]
fn three_hits_make_the_target_retreat_out_of_volley_range() {
    // Line infantry (6 hits) shoots 3D6 at a 4-hit line at 1 box. Three hits
    // (8/27) push the target back to 2 boxes, whence it shoots only 1D6.
    // Attacker's hits after turn 1: 6 with 8/27*1/3 + 19/27*1/27 = 91/729,
    // 5 with 8/27*2/3 + 19/27*6/27 = 258/729, 4 with 19/27*12/27 = 228/729,
    // 3 with 19/27*8/27 = 152/729.
    let dist =
        exact(DuelKind::Firefight, SideSetup::new(UnitType::LineInfantry), side(UnitType::LineInfantry, 4), 1, 1);
    assert_p(&dist, "attacker_remaining", 100, 91.0 / 729.0);
    assert_p(&dist, "attacker_remaining", 83, 258.0 / 729.0);
    assert_p(&dist, "attacker_remaining", 66, 228.0 / 729.0);
    assert_p(&dist, "attacker_remaining", 50, 152.0 / 729.0);
    // A steadfast target does not retreat: 3D6 back always.
    let steadfast = SideSetup { steadfast: true, ..side(UnitType::LineInfantry, 4) };
    let dist = exact(DuelKind::Firefight, SideSetup::new(UnitType::LineInfantry), steadfast, 1, 1);
    assert_p(&dist, "attacker_remaining", 100, 1.0 / 27.0);
    assert_p(&dist, "attacker_remaining", 50, 8.0 / 27.0);
}

#[test]
fn a_town_halves_line_infantry_fire_until_the_unit_retreats_out_of_it() {
    // 3D6 at 5+ on a one-hit line holding a town: it survives only if all miss (8/27).
    let town = SideSetup { in_town: true, ..side(UnitType::LineInfantry, 1) };
    let dist = exact(DuelKind::Firefight, SideSetup::new(UnitType::LineInfantry), town, 1, 1);
    assert_p(&dist, "winner", ATTACKER, 19.0 / 27.0);
    // Towns fill a whole box: a unit that retreats leaves it. A four-hit line
    // in a town under 3D6 at 5+ (one box, two turns, both firing): turn 1 it
    // takes 0, 1, 2 or 3 hits (8, 12, 6, 1 in 27). Two hits left it routs in
    // turn 2 on 2+ hits of 3D6 at 5+ (7/27), one... three hits left on 3
    // (1/27). Three hits make it retreat to 2 boxes with one hit left, out of
    // the town: the attacker's 1D6 there hits on 3+ (2/3; 5+, 1/3, had it kept
    // the town). 6/27*7/27 + 12/27*1/27 + 1/27*2/3 = 72/729 (63/729 in the town).
    let attacker = SideSetup { steadfast: true, ..SideSetup::new(UnitType::LineInfantry) };
    let town = SideSetup { in_town: true, ..side(UnitType::LineInfantry, 4) };
    let dist = exact(DuelKind::Firefight, attacker, town, 1, 2);
    assert_p(&dist, "winner", ATTACKER, 72.0 / 729.0);
    // Only infantry can occupy a town.
    let error = Duel::new(
        &Rules::default(),
        DuelKind::Firefight,
        town,
        SideSetup { in_town: true, ..SideSetup::new(UnitType::Artillery) },
        1,
        1,
    );
    assert!(error.unwrap_err().to_string().contains("defender.in_town"));
}

#[test]
fn a_bold_unit_out_of_range_advances_instead_of_shooting() {
    // At 3 boxes line infantry cannot shoot: the attacker moves one box (its 1.5
    // moves one box straight) to 2 boxes; the defender then shoots 1D6.
    let dist = exact(
        DuelKind::Firefight,
        SideSetup::new(UnitType::LineInfantry),
        SideSetup::new(UnitType::LineInfantry),
        3,
        1,
    );
    assert_p(&dist, "attacker_remaining", 83, 2.0 / 3.0);
    assert_p(&dist, "defender_remaining", 100, 1.0);
}

#[test]
fn impetuous_cavalry_charges_and_stays_next_to_the_infantry() {
    // One-hit cavalry charges two-hit line infantry from 2 boxes: 3D6, two or
    // more hits (20/27) rout it. Otherwise the cavalry stays at one box and
    // takes 3D6 fire: it routs unless all miss.
    let cavalry = SideSetup { impetuous: true, ..side(UnitType::Cavalry, 1) };
    let dist = exact(DuelKind::CavalryCharge, cavalry, side(UnitType::LineInfantry, 2), 2, 1);
    assert_p(&dist, "winner", ATTACKER, 20.0 / 27.0);
    assert_p(&dist, "winner", DEFENDER, 7.0 / 27.0 * 26.0 / 27.0);
    assert_p(&dist, "winner", NONE, 7.0 / 729.0);
    // Not impetuous and cautious, at two hits or fewer it breaks off at once.
    let worn = side(UnitType::Cavalry, 1);
    let cautious = plan(Policy::Cautious, Policy::Bold);
    let dist =
        exact_with(&Rules::default(), cautious, DuelKind::CavalryCharge, worn, side(UnitType::LineInfantry, 2), 2, 1);
    assert_p(&dist, "winner", NONE, 1.0);
    // Bold and out of reach (4 boxes), it moves 3 boxes and the infantry shoots 3D6 at one box.
    let far = exact(DuelKind::CavalryCharge, cavalry, side(UnitType::LineInfantry, 2), 4, 1);
    assert_p(&far, "winner", DEFENDER, 26.0 / 27.0);
}

/// The acceptance test of issue 13: impetuous cavalry against line infantry
/// that fires whenever it may (bold). Charging first, the cavalry wins 70.4%;
/// ending its move next to the infantry, under its 3D6, 29.6% (the figures
/// the old fixed full move gave from 2, 3, 6 and from 4, 7 boxes). Under best
/// play it halts out of reach and charges next turn, so every start distance
/// is worth the charge-first value.
#[test]
fn cavalry_out_of_reach_halts_and_charges_next_turn() {
    let value = |range: u32, defender: Policy| {
        let r = range.to_string();
        // The scenario's purpose, an attack: the cavalry must rout the
        // infantry, and retiring buys it nothing.
        let scenario = build(
            "cavalry_charge",
            &[
                ("attacker.impetuous", "true"),
                ("range", &r),
                ("defender.policy", defender.name()),
                ("purpose", "attack"),
            ],
        );
        (scenario.exact_distribution().unwrap().probability("winner", ATTACKER), scenario)
    };
    let (from_two, _) = value(2, Policy::Bold);
    let (from_four, four) = value(4, Policy::Bold);
    assert!((from_two - 0.704).abs() < 5e-4, "{from_two}");
    assert!((from_four - from_two).abs() < 1e-9, "{from_four} != {from_two}");
    let explained = four.explain().unwrap();
    let first = &explained[0];
    assert_eq!((first.side, first.decision, first.step), ("attacker", "move", 1));
    assert_eq!(first.situation, "cavalry (6 hits) 4 boxes from line infantry (6 hits)");
    let option = |name: &str| first.options.iter().find(|o| o.option == name).unwrap();
    // Halting at 4 or 3 boxes are worth the same; the first listed (least movement) is taken.
    assert!(option("halt at 4 boxes").chosen);
    assert!((option("halt at 3 boxes").attacker_wins - from_two).abs() < 1e-9);
    assert!((option("halt at 1 box").attacker_wins - 0.296).abs() < 5e-4, "{:?}", option("halt at 1 box"));
    // The sweep over the start distance is flat under best play, against a
    // bold infantry and against one playing its best (forming square).
    for defender in [Policy::Bold, Policy::Best] {
        let values: Vec<f64> = (1..=8).map(|r| value(r, defender).0).collect();
        for pair in values.windows(2) {
            assert!((pair[0] - pair[1]).abs() <= 0.10, "{defender:?}: {values:?}");
        }
    }
}

/// Every duel at its defaults, start distance 1 to 8, under best play: no
/// jump of more than 10 points of the attacker's win probability between
/// neighbouring distances except those the duel module documents ("Start
/// distances"), asserted here: the firefight's stand-off from 3 boxes, and the
/// grand battery's volleys on the approach. Each under its default purpose
/// (the firefight a stand-up fight, the others attacks), retiring offered.
#[test]
fn best_play_sweeps_of_the_start_distance_are_flat() {
    let explained: &[(&str, u32)] = &[("firefight", 2), ("grand_battery", 1), ("grand_battery", 2)];
    for (scenario, purpose) in [
        ("firefight", "stand"),
        ("cavalry_charge", "attack"),
        ("grand_battery", "attack"),
        ("second_line", "attack"),
        ("brigade_fire", "attack"),
    ] {
        let values: Vec<f64> = (1..=8)
            .map(|r| {
                let r = r.to_string();
                build(scenario, &[("range", &r), ("purpose", purpose)])
                    .exact_distribution()
                    .unwrap()
                    .probability("winner", ATTACKER)
            })
            .collect();
        eprintln!("{scenario}: {values:?}");
        for (from, pair) in (1..).zip(values.windows(2)) {
            let jump = (pair[0] - pair[1]).abs();
            if explained.contains(&(scenario, from)) {
                assert!(jump > 0.10, "{scenario} {from} -> {}: {values:?}", from + 1);
            } else {
                assert!(jump <= 0.10, "{scenario} {from} -> {}: {values:?}", from + 1);
            }
        }
        // No reversal: the sweep runs one way (flat stretches aside).
        let steps: Vec<f64> = values.windows(2).map(|pair| pair[1] - pair[0]).filter(|d| d.abs() > 1e-12).collect();
        assert!(steps.iter().all(|&d| d > 0.0) || steps.iter().all(|&d| d < 0.0), "{scenario} reverses: {values:?}");
    }
    // The stand-off: from 3 boxes on, neither line steps into the other's
    // range first, and the fight is worth the same from any distance.
    let stand_off = |r: &str| build("firefight", &[("range", r), ("purpose", "stand")]).exact_distribution().unwrap();
    let (three, eight) = (stand_off("3"), stand_off("8"));
    assert!((three.probability("winner", ATTACKER) - eight.probability("winner", ATTACKER)).abs() < 1e-12);
}

#[test]
fn charges_double_against_light_infantry_and_never_reach_a_square() {
    // 6D6 against two-hit light infantry: rout unless 0 or 1 hit: 1/729 + 12/729.
    let cavalry = SideSetup { impetuous: true, ..side(UnitType::Cavalry, 6) };
    let dist = exact(DuelKind::CavalryCharge, cavalry, side(UnitType::LightInfantry, 2), 1, 1);
    assert_p(&dist, "winner", ATTACKER, 1.0 - 13.0 / 729.0);
    // A square cannot be charged and does not shoot: a cautious square stays
    // while the cavalry is in reach, and nothing ever happens.
    let square = SideSetup { square: true, ..SideSetup::new(UnitType::LineInfantry) };
    let dist = exact_with(
        &Rules::default(),
        plan(Policy::Bold, Policy::Cautious),
        DuelKind::CavalryCharge,
        cavalry,
        square,
        1,
        3,
    );
    assert_p(&dist, "winner", NONE, 1.0);
    assert_p(&dist, "defender_remaining", 100, 1.0);
}

#[test]
fn forming_square_after_firing_is_a_reading() {
    // Two-hit cavalry next to one-hit line infantry, the infantry first, one
    // turn. Forbidden (the default), the infantry fires 3D6 (26/27 rout the
    // cavalry) or forms square; firing is worth 26/27 - 1/27 * 26/27 to it.
    // Allowed, it fires and then forms square: the cavalry cannot charge.
    let cavalry = side(UnitType::Cavalry, 2);
    let line = side(UnitType::LineInfantry, 1);
    let duel = |square_after_fire| {
        let rules = Rules { square_after_fire, ..Rules::default() };
        let duel = Duel::new(&rules, DuelKind::CavalryCharge, cavalry, line, 1, 1).unwrap().defender_first();
        Played::new(duel, Plan::BEST).exact_distribution().unwrap()
    };
    // Two hits of 3D6 at 3+ (20/27) rout the cavalry; else its charge routs the line (26/27).
    let forbidden = duel(SquareAfterFire::Forbidden);
    assert_p(&forbidden, "winner", DEFENDER, 20.0 / 27.0);
    assert_p(&forbidden, "winner", ATTACKER, 7.0 / 27.0 * 26.0 / 27.0);
    let allowed = duel(SquareAfterFire::Allowed);
    assert_p(&allowed, "winner", DEFENDER, 20.0 / 27.0);
    assert_p(&allowed, "winner", ATTACKER, 0.0);
}

#[test]
fn reluctant_units_need_a_die_under_their_hits_to_charge_and_a_leader_helps() {
    // Six hits: a D6 under 6 (5/6), then 3D6 needs one hit (26/27).
    let reluctant = SideSetup { reluctant: true, ..SideSetup::new(UnitType::Cavalry) };
    let dist = exact(DuelKind::CavalryCharge, reluctant, side(UnitType::LineInfantry, 1), 2, 1);
    assert_p(&dist, "winner", ATTACKER, 5.0 / 6.0 * 26.0 / 27.0);
    // Four hits and a leader (five): the leader's morale bonus takes 1 off the
    // D6, so a D6 under 6 advances (5/6); without the bonus under 5 (4/6).
    let led = SideSetup { reluctant: true, leader: true, ..side(UnitType::Cavalry, 4) };
    let dist = exact(DuelKind::CavalryCharge, led, side(UnitType::LineInfantry, 1), 2, 1);
    assert_p(&dist, "winner", ATTACKER, 5.0 / 6.0 * 26.0 / 27.0);
    let no_bonus = Rules { leader_morale_bonus: 0, ..Rules::default() };
    let dist = exact_with(&no_bonus, BOLD, DuelKind::CavalryCharge, led, side(UnitType::LineInfantry, 1), 2, 1);
    assert_p(&dist, "winner", ATTACKER, 4.0 / 6.0 * 26.0 / 27.0);
}

#[test]
fn an_attached_leader_or_a_commander_adds_a_hit_and_may_fall() {
    // One-hit line infantry with a leader (two hits) against one hit, 1D6 each.
    // Turn 1: the attacker wins 2/3. Else the defender hits (2/3): the leader
    // falls on snake eyes (1/36), taking his extra hit, and the unit routs.
    let led = SideSetup { leader: true, ..side(UnitType::LineInfantry, 1) };
    // Ney in the unit's box leads it as an attached leader would (commander_leads = in_box).
    let ney = SideSetup { commander: Commander::Ney, ..side(UnitType::LineInfantry, 1) };
    for unit in [led, ney] {
        let dist = exact(DuelKind::Firefight, unit, side(UnitType::LineInfantry, 1), 2, 1);
        assert_p(&dist, "winner", ATTACKER, 2.0 / 3.0);
        assert_p(&dist, "winner", DEFENDER, 1.0 / 3.0 * 2.0 / 3.0 / 36.0);
        assert_p(&dist, "attacker_leader_lost", 1, 1.0 / 162.0);
        assert_p(&dist, "attacker_remaining", 50, 1.0 / 3.0 * 2.0 / 3.0 * 35.0 / 36.0);
    }
    // Commanders who never lead: Ney's one hit routs on the defender's hit (1/3 * 2/3).
    let never = Rules { commander_leads: CommanderLeads::Never, ..Rules::default() };
    let dist = exact_with(&never, BOLD, DuelKind::Firefight, ney, side(UnitType::LineInfantry, 1), 2, 1);
    assert_p(&dist, "winner", DEFENDER, 2.0 / 9.0);
    // Keeping the hits, the leader's fall routs nobody.
    let keep = Rules { leader_loss: LeaderLoss::KeepHits, ..Rules::default() };
    let dist = exact_with(&keep, BOLD, DuelKind::Firefight, led, side(UnitType::LineInfantry, 1), 2, 1);
    assert_p(&dist, "winner", DEFENDER, 0.0);
    assert_p(&dist, "attacker_leader_lost", 1, 1.0 / 162.0);
}

#[test]
fn leader_risk_per_attack_or_per_hit() {
    // A battery at 3 boxes (2D6) on a led line (5 hits + 1) that cannot reply.
    // Per attack: one roll when any die hits: 8/9 * 1/36 = 2/81. Per hit: one
    // roll for one hit (4/9), two for two (4/9): 4/9 * 1/36 + 4/9 * (1 - (35/36)^2)
    // = 144/11664 + 284/11664 = 107/2916.
    let led = SideSetup { leader: true, ..side(UnitType::LineInfantry, 5) };
    let battery = SideSetup::new(UnitType::Artillery);
    let dist = exact(DuelKind::Firefight, battery, led, 3, 1);
    assert_p(&dist, "defender_leader_lost", 1, 2.0 / 81.0);
    let per_hit = Rules { leader_risk: LeaderRisk::PerHit, ..Rules::default() };
    let dist = exact_with(&per_hit, BOLD, DuelKind::Firefight, battery, led, 3, 1);
    assert_p(&dist, "defender_leader_lost", 1, 107.0 / 2916.0);
    // A leader in a routing unit is lost on a 1 (1/6). A two-hit line with a
    // leader (3 hits) under 3D6 at one box routs only on 3 hits if he survives.
    let line = SideSetup::new(UnitType::LineInfantry);
    let dist = exact(DuelKind::Firefight, line, SideSetup { leader: true, ..side(UnitType::LineInfantry, 2) }, 1, 1);
    // Leader lost: the 2D6 on any hit (26/27 * 1/36) or, surviving it, the 1D6
    // when the unit routs (3 hits: 8/27 * 35/36 * 1/6).
    assert_p(&dist, "defender_leader_lost", 1, 26.0 / 27.0 / 36.0 + 8.0 / 27.0 * 35.0 / 36.0 / 6.0);
}

#[test]
fn napoleon_and_wellington_rally_all_but_the_first_hit() {
    // Three-hit line infantry (a commander who does not lead it) at 3 boxes,
    // out of its range, advances to 2 under 2D6 of artillery fire. After turn 1
    // it has 3 (1/9), 2 (4/9) or 1 (4/9) hits. A rally at 1 hit gives back a
    // hit on 2-6 (5/6): the first hit stays off, so the cap is 2. Before turn
    // 2's fire: 3 with 3/27, 2 with 22/27, 1 with 2/27. It routs in turn 2 from
    // 2 hits on 2 hits (4/9), from 1 on any (8/9): 22/27 * 4/9 + 2/27 * 8/9 =
    // 104/243. Without a rally: 4/9*4/9 + 4/9*8/9 = 144/243.
    let never = Rules { commander_leads: CommanderLeads::Never, ..Rules::default() };
    let battery = SideSetup::new(UnitType::Artillery);
    for commander in [Commander::Napoleon, Commander::Wellington] {
        let infantry = SideSetup { commander, ..side(UnitType::LineInfantry, 3) };
        let dist = exact_with(&never, BOLD, DuelKind::Firefight, infantry, battery, 3, 2);
        assert_p(&dist, "winner", DEFENDER, 104.0 / 243.0);
    }
    let dist = exact(DuelKind::Firefight, side(UnitType::LineInfantry, 3), battery, 3, 2);
    assert_p(&dist, "winner", DEFENDER, 144.0 / 243.0);
}

#[test]
fn the_waterloo_commanders_change_the_dice() {
    // Commanders apart from the unit (not leaders), so only their own effects count.
    let rules = Rules { commander_leads: CommanderLeads::Never, ..Rules::default() };
    let exact = |kind, attacker, defender, range| exact_with(&rules, BOLD, kind, attacker, defender, range, 1);
    let one_hit = side(UnitType::LineInfantry, 1);
    // Picton: 4D6 at one box; all four hit a four-hit target: (2/3)^4 = 16/81.
    let picton = SideSetup { commander: Commander::Picton, ..SideSetup::new(UnitType::LineInfantry) };
    let dist = exact(DuelKind::Firefight, picton, side(UnitType::LineInfantry, 4), 1);
    assert_p(&dist, "winner", ATTACKER, 16.0 / 81.0);
    // Hill: 1D6 with one re-roll of a miss: 2/3 + 1/3 * 2/3 = 8/9.
    let hill = SideSetup { commander: Commander::Hill, ..one_hit };
    assert_p(&exact(DuelKind::Firefight, hill, one_hit, 2), "winner", ATTACKER, 8.0 / 9.0);
    // Orange and Reille: the attacker's hit is re-rolled: 2/3 * 2/3 = 4/9.
    for commander in [Commander::Orange, Commander::Reille] {
        let defender = SideSetup { commander, ..one_hit };
        assert_p(&exact(DuelKind::Firefight, one_hit, defender, 2), "winner", ATTACKER, 4.0 / 9.0);
    }
    // Ney attached: 5D6 in melee; five hits on five: (2/3)^5 = 32/243.
    let ney = SideSetup { commander: Commander::Ney, impetuous: true, ..SideSetup::new(UnitType::Cavalry) };
    let five = SideSetup { quality: Quality::Poor, ..SideSetup::new(UnitType::LineInfantry) };
    assert_p(&exact(DuelKind::CavalryCharge, ney, five, 2), "winner", ATTACKER, 32.0 / 243.0);
    // D'Erlon: 4D6; four hits on four: 16/81. Lobau: 3D6 with a re-roll: all
    // three hit with 8/27 + 3 * 4/27 * 2/3 = 16/27, on a three-hit target.
    let d_erlon = SideSetup { commander: Commander::DErlon, ..ney };
    assert_p(
        &exact(DuelKind::CavalryCharge, d_erlon, side(UnitType::LineInfantry, 4), 2),
        "winner",
        ATTACKER,
        16.0 / 81.0,
    );
    let lobau = SideSetup { commander: Commander::Lobau, ..ney };
    assert_p(
        &exact(DuelKind::CavalryCharge, lobau, side(UnitType::LineInfantry, 3), 2),
        "winner",
        ATTACKER,
        16.0 / 27.0,
    );
    // Reille does not help against melee; Orange does: 3D6 on a one-hit target
    // routs unless every die misses (1/27), or with Orange unless the re-rolled
    // single success misses too: 1/27 + 6/27 * 1/3 = 3/27.
    let reille = SideSetup { commander: Commander::Reille, ..one_hit };
    let orange = SideSetup { commander: Commander::Orange, ..one_hit };
    let cavalry = SideSetup { impetuous: true, ..SideSetup::new(UnitType::Cavalry) };
    assert_p(&exact(DuelKind::CavalryCharge, cavalry, reille, 2), "winner", ATTACKER, 26.0 / 27.0);
    assert_p(&exact(DuelKind::CavalryCharge, cavalry, orange, 2), "winner", ATTACKER, 24.0 / 27.0);
}

#[test]
fn columns_deploy_with_a_normal_move_and_guns_are_not_doubled_in_column() {
    // Steadfast line infantry in column of route, 6 hits, on a battery 3 boxes
    // off, two turns, bold. normal_move (the default): turn 1 it deploys while
    // moving its normal box to 2 boxes and takes 2D6 undoubled; turn 2 it
    // shoots 1D6 (2/3 to hit the battery, 5 of 6 hits left: 83%) and takes
    // 2D6. No hit in four dice: 1/81.
    let column = SideSetup { column: true, steadfast: true, ..SideSetup::new(UnitType::LineInfantry) };
    let battery = SideSetup::new(UnitType::Artillery);
    let dist = exact(DuelKind::Firefight, column, battery, 3, 2);
    assert_p(&dist, "attacker_remaining", 100, 1.0 / 81.0);
    assert_p(&dist, "winner", DEFENDER, 0.0);
    assert_p(&dist, "defender_remaining", 83, 2.0 / 3.0);
    // spend_move: deploying takes the move where it stands, so the bold
    // column marches (1 box + 1 cross country) to one box and takes 3D6
    // doubled against a column (6D6): all six rout it (64/729).
    let spend = Rules { column_exit: ColumnExit::SpendMove, ..Rules::default() };
    let dist = exact_with(&spend, BOLD, DuelKind::Firefight, column, battery, 3, 1);
    assert_p(&dist, "winner", DEFENDER, 64.0 / 729.0);
    // Guns are not doubled against in column: artillery doubles only against
    // "flanks of infantry or cavalry". 3D6 at one box on a one-hit limber: 26/27.
    let limbered = SideSetup { column: true, ..side(UnitType::Artillery, 1) };
    let dist = exact(DuelKind::Firefight, limbered, SideSetup::new(UnitType::Artillery), 1, 1);
    assert_p(&dist, "winner", DEFENDER, 26.0 / 27.0);
    // Cavalry may charge in column of route at half effect (5+): 3D6 on a
    // one-hit line routs it unless all miss, (2/3)^3.
    let cavalry = SideSetup { column: true, impetuous: true, ..SideSetup::new(UnitType::Cavalry) };
    let dist = exact(DuelKind::CavalryCharge, cavalry, side(UnitType::LineInfantry, 1), 2, 1);
    assert_p(&dist, "winner", ATTACKER, 1.0 - 8.0 / 27.0);
    // Cavalry from 6 boxes: moves 3 and takes 2D6; then charges guns not in
    // cover with 6D6: a one-hit battery routs unless all six miss.
    let cavalry = SideSetup::new(UnitType::Cavalry);
    let dist = exact(DuelKind::GrandBattery, cavalry, side(UnitType::Artillery, 1), 6, 2);
    assert_p(&dist, "winner", ATTACKER, 1.0 - 1.0 / 729.0);
    assert_p(&dist, "winner", NONE, 1.0 / 729.0);
}

#[test]
fn light_infantry_half_hits_as_an_effect_or_as_halved_hits() {
    // 3D6 of line infantry at one box on light infantry with two hits, one turn.
    // five_plus: 3D6 at 5+, two or more hits: 7/27. round_down: 3D6 at 3+
    // halved down, so four successes would be needed: never (3 dice give at
    // most 1 hit). round_up: 3+ with 3 or 4 successes... 2 or 3 successes
    // give 1 or 2 hits: two hits need all three (8/27).
    let light = side(UnitType::LightInfantry, 2);
    let line = SideSetup::new(UnitType::LineInfantry);
    for (reading, expected) in
        [(HalfHits::FivePlus, 7.0 / 27.0), (HalfHits::RoundDown, 0.0), (HalfHits::RoundUp, 8.0 / 27.0)]
    {
        let rules = Rules { light_infantry_half_hits: reading, ..Rules::default() };
        let dist = exact_with(&rules, BOLD, DuelKind::Firefight, line, light, 1, 1);
        assert_p(&dist, "winner", ATTACKER, expected);
    }
}

#[test]
fn retired_keys_point_to_the_policy() {
    // The retired keys are not declared (`volley list` does not show them);
    // setting one is an unknown key whose suggestion is the side's policy,
    // whose doc names it and says what replaced it.
    let one_hour = ruleset("one_hour").unwrap();
    let rules = (one_hour.default_rules)();
    for (scenario, key, policy) in [
        ("cavalry_charge", "attacker.break_off", "attacker.policy"),
        ("firefight", "attacker.close_to", "attacker.policy"),
        ("grand_battery", "defender.advances", "defender.policy"),
        ("second_line", "bayonet_advance", "attacker.policy"),
        ("second_line", "second.close_to", "defender.policy"),
        ("brigade_fire", "support.advances", "attacker.policy"),
    ] {
        let entry = one_hour.scenario(scenario).unwrap();
        assert!(entry.params.iter().all(|p| p.name != key), "{scenario} still declares {key}");
        let value = if key.ends_with("advances") || key == "bayonet_advance" { "true" } else { "2" };
        let message = entry.build_from_text(rules.as_ref(), [(key, value)]).err().unwrap().to_string();
        assert!(message.starts_with(&format!("unknown key `{key}`; did you mean `{policy}`?")), "{message}");
        let doc = &entry.params.iter().find(|p| p.name == policy).unwrap().doc;
        assert!(doc.contains("replaces the retired") && doc.contains(&format!("`{key}`")), "{doc}");
    }
}

#[test]
fn monte_carlo_agrees_with_the_solver_under_each_policy() {
    let rules = Rules::default();
    let line = SideSetup::new(UnitType::LineInfantry);
    let cases = [
        (DuelKind::Firefight, line, line, 3, plan(Policy::Best, Policy::Best)),
        (
            DuelKind::Firefight,
            SideSetup { leader: true, commander: Commander::Napoleon, quality: Quality::OldGuard, ..line },
            SideSetup {
                leader: true,
                conscript: true,
                in_town: true,
                commander: Commander::Picton,
                ..SideSetup::new(UnitType::Rifles)
            },
            3,
            plan(Policy::Best, Policy::Cautious),
        ),
        (DuelKind::CavalryCharge, SideSetup::new(UnitType::Cavalry), line, 4, plan(Policy::Best, Policy::Best)),
        (
            DuelKind::CavalryCharge,
            SideSetup {
                impetuous: true,
                reluctant: true,
                shock: true,
                leader: true,
                ..SideSetup::new(UnitType::HeavyCavalry)
            },
            SideSetup { commander: Commander::Wellington, ..SideSetup::new(UnitType::LightInfantry) },
            3,
            plan(Policy::Cautious, Policy::Best),
        ),
        (
            DuelKind::GrandBattery,
            SideSetup { column: true, ..line },
            SideSetup::new(UnitType::Artillery),
            6,
            plan(Policy::Best, Policy::Bold),
        ),
        (
            DuelKind::GrandBattery,
            SideSetup { leader: true, quality: Quality::Poor, ..SideSetup::new(UnitType::HeavyCavalry) },
            SideSetup {
                in_cover: true,
                leader: true,
                commander: Commander::Orange,
                ..SideSetup::new(UnitType::Artillery)
            },
            8,
            plan(Policy::Bold, Policy::Best),
        ),
    ];
    for (seed, (kind, attacker, defender, range, plan)) in cases.into_iter().enumerate() {
        let duel = Duel::new(&rules, kind, attacker, defender, range, 12).unwrap();
        assert_agrees(&Played::new(duel, plan), 250_000, 500 + seed as u64);
    }
}

#[test]
fn monte_carlo_agrees_under_the_other_readings() {
    let rules = Rules {
        light_infantry_half_hits: HalfHits::RoundUp,
        light_infantry_charged: LightInfantryCharged::Both,
        charge_scores: ChargeScores::FourUp,
        leader_loss: LeaderLoss::KeepHits,
        leader_risk: LeaderRisk::PerHit,
        doubling: Doubling::AllDice,
        column_exit: ColumnExit::SpendMove,
        square_after_fire: SquareAfterFire::Allowed,
        ..Rules::default()
    };
    let cavalry =
        SideSetup { leader: true, shock: true, commander: Commander::Ney, ..SideSetup::new(UnitType::Cavalry) };
    let light = SideSetup { leader: true, commander: Commander::Napoleon, ..SideSetup::new(UnitType::LightInfantry) };
    let duel = Duel::new(&rules, DuelKind::CavalryCharge, cavalry, light, 5, 12).unwrap();
    assert_agrees(&Played::new(duel, Plan::BEST), 1_000_000, 900);
    let battery = SideSetup { leader: true, column: true, ..SideSetup::new(UnitType::Artillery) };
    let duel = Duel::new(&rules, DuelKind::Firefight, battery, light, 4, 12).unwrap().defender_first();
    assert_agrees(&Played::new(duel, Plan::BEST), 1_000_000, 901);
}

#[test]
fn a_square_is_not_pushed_back() {
    // A battery at one box fires 6D6 (doubled against a square) on an
    // 11-hit line in square, which leaves square in its side turn (bold); in
    // turn 2 the battery fires 3D6 and the line, still at one box, replies
    // with 3D6, or with 1D6 if those three hits (8/27) push it back to two
    // boxes. The battery keeps all its hits: 8/27 * 1/3 + 19/27 * 1/27 =
    // 91/729. Had the square been pushed back by turn 1's hits, the battery's
    // 2D6 at two boxes could never push the line again and its reply would be
    // 1D6.
    let battery = SideSetup::new(UnitType::Artillery);
    let square = SideSetup { square: true, ..side(UnitType::LineInfantry, 11) };
    let dist = exact(DuelKind::Firefight, battery, square, 1, 2);
    assert_p(&dist, "attacker_remaining", 100, 91.0 / 729.0);
}

#[test]
fn retiring_out_of_the_battery_s_close_range_is_worth_more_than_standing() {
    // Movement: "May pivot at the start and end of their move only,
    // otherwise move forward": a unit may turn about, move, and face the
    // enemy again (rule `retire = pivot`). One-hit line infantry 4 boxes
    // from a battery, one turn, the manoeuvring fight: it cannot shoot at 4
    // (its range is 2), so it holds, closes to 3 (its 1.5-box move is one
    // box) or retires to 5. The battery then fires 2D6 at 2-4 boxes and 1D6
    // at 5-8, hitting on 3+: standing or closing, the infantry is routed
    // with 1 - (1/3)^2 = 8/9; retired to 5, with 2/3. Best play retires.
    let pairs = [("range", "4"), ("turns", "1"), ("attacker.hits", "1")];
    let dist = build("grand_battery", &pairs).exact_distribution().unwrap();
    assert_p(&dist, "winner", DEFENDER, 2.0 / 3.0);
    let explained = build("grand_battery", &pairs).explain().unwrap();
    let first = explained.iter().find(|e| e.side == "attacker").unwrap();
    let value = |option: &str| first.options.iter().find(|o| o.option == option).expect(option).defender_wins;
    assert!((value("retire to 5 boxes") - 2.0 / 3.0).abs() < 1e-12);
    assert!((value("halt at 4 boxes") - 8.0 / 9.0).abs() < 1e-12);
    assert!(first.options.iter().any(|o| o.chosen && o.option == "retire to 5 boxes"), "{first:?}");
    // Without retiring (`retire = never`), the old play: 8/9.
    let mut rules = Rules::default();
    rules.retire = volley_kernel::rulesets::one_hour::Retire::Never;
    let one_hour = ruleset("one_hour").unwrap();
    let entry = one_hour.scenario("grand_battery").unwrap();
    let never = entry.build_from_text(&rules, crate::manoeuvring(entry, &pairs)).unwrap();
    assert_p(&never.exact_distribution().unwrap(), "winner", DEFENDER, 8.0 / 9.0);
}

#[test]
fn retiring_from_a_volley_that_may_rout_the_enemy_is_worth_less_than_firing() {
    // Two lines 1 box apart, one turn, the attacker first against a one-hit
    // defender: its 3D6 at 3+ routs the defender with 1 - (1/3)^3 = 26/27,
    // and the defender's answer cannot rout a six-hit attacker; retiring
    // (to 2 boxes, out of nobody's reach that matters in one turn) wins
    // nothing. Best play fires.
    let pairs = [("range", "1"), ("turns", "1"), ("defender.hits", "1")];
    let dist = build("firefight", &pairs).exact_distribution().unwrap();
    assert_p(&dist, "winner", ATTACKER, 26.0 / 27.0);
    let explained = build("firefight", &pairs).explain().unwrap();
    let first = explained.iter().find(|e| e.side == "attacker").unwrap();
    let retire = first.options.iter().find(|o| o.option == "retire to 2 boxes").expect("retiring is offered");
    assert_eq!(retire.attacker_wins, 0.0);
    assert!(first.options.iter().any(|o| o.chosen && o.option == "fire"), "{first:?}");
}

#[test]
fn retiring_gives_up_the_ground_a_stand_up_fight_asks_both_sides_to_hold() {
    // Under `stand` (the firefight's default) a unit that retires has left
    // the fight and lost it; under `manoeuvre` it is a move like any other.
    // So with retiring offered the default firefight is the fight it was,
    // while the manoeuvring fight is all stand-offs: whoever steps into
    // range is fired on first, and nobody has to.
    let one_hour = ruleset("one_hour").unwrap();
    let rules = (one_hour.default_rules)();
    let entry = one_hour.scenario("firefight").unwrap();
    let law = |purpose: &str| {
        entry.build_from_text(rules.as_ref(), [("purpose", purpose)]).unwrap().exact_distribution().unwrap()
    };
    let (stand, manoeuvre) = (law("stand"), law("manoeuvre"));
    assert!((stand.probability("winner", 0) - 0.668533737642).abs() < 1e-9);
    assert!(stand.probability("winner", 2) < 1e-12);
    assert!((manoeuvre.probability("winner", 2) - 1.0).abs() < 1e-12);
}

#[test]
fn charge_keys_of_a_unit_that_never_charges_are_named_unread() {
    // Infantry never charges (Cavalry Charges), so `shock` and `impetuous`
    // set on it change nothing (an independent review found the same
    // 0.668533737642 either way): the scenario names them, and the outputs
    // print them as not read here.
    let unread = build("firefight", &[]).unread_keys();
    for key in ["attacker.shock", "attacker.impetuous", "defender.shock", "defender.impetuous"] {
        assert!(unread.iter().any(|(k, _)| k == key), "{key}: {unread:?}");
    }
    let charge = build("cavalry_charge", &[]).unread_keys();
    // The charger's own charge keys are read (its flank and cover are not,
    // against a line that pivots to face it: see the catalogue's test).
    assert!(!charge.iter().any(|(k, _)| k == "attacker.shock" || k == "attacker.impetuous"), "{charge:?}");
    assert!(charge.iter().any(|(k, _)| k == "defender.shock"), "{charge:?}");
    let with = build("firefight", &[("attacker.shock", "true"), ("attacker.impetuous", "true")]);
    let without = build("firefight", &[]);
    assert_eq!(with.exact_distribution(), without.exact_distribution());
}
