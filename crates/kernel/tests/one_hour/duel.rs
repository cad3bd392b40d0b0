//! The multi-turn scenarios: one or two turns worked by hand (retreats,
//! advances, charges, leaders, rallies, commanders), and Monte Carlo against
//! the Markov solver.

use volley_kernel::check::assert_agrees;
use volley_kernel::outcome::Distribution;
use volley_kernel::rulesets::one_hour::duel::{Duel, DuelKind, SideSetup};
use volley_kernel::rulesets::one_hour::{
    ChargeScores, ColumnExit, Commander, Doubling, HalfHits, LeaderLoss, LeaderRisk, LightInfantryCharged, Quality,
    Rules, UnitType,
};
use volley_kernel::scenario::DynScenario;

const TOLERANCE: f64 = 1e-12;
const ATTACKER: i64 = 0;
const DEFENDER: i64 = 1;
const NONE: i64 = 2;

fn side(unit: UnitType, hits: u32) -> SideSetup {
    SideSetup { hits, ..SideSetup::new(unit) }
}

fn exact(kind: DuelKind, attacker: SideSetup, defender: SideSetup, range: u32, turns: u32) -> Distribution {
    exact_with(&Rules::default(), kind, attacker, defender, range, turns)
}

fn exact_with(
    rules: &Rules,
    kind: DuelKind,
    attacker: SideSetup,
    defender: SideSetup,
    range: u32,
    turns: u32,
) -> Distribution {
    Duel::new(rules, kind, attacker, defender, range, turns).unwrap().exact_distribution().unwrap()
}

#[track_caller]
fn assert_p(dist: &Distribution, metric: &str, value: i64, expected: f64) {
    let got = dist.probability(metric, value);
    assert!((got - expected).abs() < TOLERANCE, "P({metric} = {value}) = {got}, expected {expected}");
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
    // The defender first: the same with the sides' roles swapped.
    let first = Duel::new(&Rules::default(), DuelKind::Firefight, attacker, defender, 2, 1).unwrap().defender_first();
    let first = first.exact_distribution().unwrap();
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
    // Line infantry (6 hits, holding) shoots 3D6 at a 4-hit line at 1 box. Three
    // hits (8/27) push the target back to 2 boxes, whence it shoots only 1D6.
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
fn a_town_halves_line_infantry_fire() {
    // 3D6 at 5+ on a one-hit line holding a town: it survives only if all miss (8/27).
    let town = SideSetup { in_town: true, ..side(UnitType::LineInfantry, 1) };
    let dist = exact(DuelKind::Firefight, SideSetup::new(UnitType::LineInfantry), town, 1, 1);
    assert_p(&dist, "winner", ATTACKER, 19.0 / 27.0);
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
fn a_unit_out_of_range_advances_instead_of_shooting() {
    // At 3 boxes line infantry cannot shoot: the attacker moves one box (its 1.5
    // moves one box straight) to 2 boxes; the defender then shoots 1D6.
    let attacker = SideSetup { advances: true, ..SideSetup::new(UnitType::LineInfantry) };
    let dist = exact(DuelKind::Firefight, attacker, SideSetup::new(UnitType::LineInfantry), 3, 1);
    assert_p(&dist, "attacker_remaining", 83, 2.0 / 3.0);
    assert_p(&dist, "defender_remaining", 100, 1.0);
    // Closing to one box: from 2 boxes it advances to 1 (no fire), then takes 3D6.
    let closing = SideSetup { close_to: 1, ..attacker };
    let dist = exact(DuelKind::Firefight, closing, SideSetup::new(UnitType::LineInfantry), 2, 1);
    assert_p(&dist, "attacker_remaining", 50, 8.0 / 27.0);
    assert_p(&dist, "defender_remaining", 100, 1.0);
    // Holding, neither can shoot: nothing happens until the turn limit.
    let dist = exact(
        DuelKind::Firefight,
        SideSetup::new(UnitType::LineInfantry),
        SideSetup::new(UnitType::LineInfantry),
        3,
        5,
    );
    assert_p(&dist, "winner", NONE, 1.0);
    assert_p(&dist, "turns", 5, 1.0);
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
    // Not impetuous, at its break-off strength: it breaks off at once.
    let worn = SideSetup { break_off: 2, ..side(UnitType::Cavalry, 1) };
    let dist = exact(DuelKind::CavalryCharge, worn, side(UnitType::LineInfantry, 2), 2, 1);
    assert_p(&dist, "winner", NONE, 1.0);
    // Out of reach (4 boxes), it moves 3 boxes and the infantry shoots 3D6 at one box.
    let moving = SideSetup { advances: true, ..cavalry };
    let far = exact(DuelKind::CavalryCharge, moving, side(UnitType::LineInfantry, 2), 4, 1);
    assert_p(&far, "winner", DEFENDER, 26.0 / 27.0);
}

#[test]
fn charges_double_against_light_infantry_and_never_reach_a_square() {
    // 6D6 against two-hit light infantry: rout unless 0 or 1 hit: 1/729 + 12/729.
    let cavalry = SideSetup { impetuous: true, ..side(UnitType::Cavalry, 6) };
    let dist = exact(DuelKind::CavalryCharge, cavalry, side(UnitType::LightInfantry, 2), 1, 1);
    assert_p(&dist, "winner", ATTACKER, 1.0 - 13.0 / 729.0);
    // A square cannot be charged and does not shoot: nothing ever happens.
    let square = SideSetup { square: true, ..SideSetup::new(UnitType::LineInfantry) };
    let dist = exact(DuelKind::CavalryCharge, cavalry, square, 1, 3);
    assert_p(&dist, "winner", NONE, 1.0);
    assert_p(&dist, "defender_remaining", 100, 1.0);
}

#[test]
fn reluctant_units_need_a_die_under_their_hits_to_charge() {
    // Six hits: a D6 under 6 (5/6), then 3D6 needs one hit (26/27).
    let reluctant = SideSetup { reluctant: true, ..SideSetup::new(UnitType::Cavalry) };
    let dist = exact(DuelKind::CavalryCharge, reluctant, side(UnitType::LineInfantry, 1), 2, 1);
    assert_p(&dist, "winner", ATTACKER, 5.0 / 6.0 * 26.0 / 27.0);
}

#[test]
fn an_attached_leader_adds_a_hit_and_may_fall() {
    // One-hit line infantry with a leader (two hits) against one hit, 1D6 each.
    // Turn 1: the attacker wins 2/3. Else the defender hits (2/3): the leader
    // falls on snake eyes (1/36), taking his extra hit, and the unit routs.
    let led = SideSetup { leader: true, ..side(UnitType::LineInfantry, 1) };
    let dist = exact(DuelKind::Firefight, led, side(UnitType::LineInfantry, 1), 2, 1);
    assert_p(&dist, "winner", ATTACKER, 2.0 / 3.0);
    assert_p(&dist, "winner", DEFENDER, 1.0 / 3.0 * 2.0 / 3.0 / 36.0);
    assert_p(&dist, "attacker_leader_lost", 1, 1.0 / 162.0);
    assert_p(&dist, "attacker_remaining", 50, 1.0 / 3.0 * 2.0 / 3.0 * 35.0 / 36.0);
    // Keeping the hits, the leader's fall routs nobody.
    let keep = Rules { leader_loss: LeaderLoss::KeepHits, ..Rules::default() };
    let dist = exact_with(&keep, DuelKind::Firefight, led, side(UnitType::LineInfantry, 1), 2, 1);
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
    let dist = exact_with(&per_hit, DuelKind::Firefight, battery, led, 3, 1);
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
    // Three-hit line infantry holds at 3 boxes (out of its range) under 2D6 of
    // artillery fire. After turn 1 it has 3 (1/9), 2 (4/9) or 1 (4/9) hits. A
    // rally at 1 hit gives back a hit on 2-6 (5/6): the first hit stays off, so
    // the cap is 2. Before turn 2's fire: 3 with 3/27, 2 with 22/27, 1 with 2/27.
    // It routs in turn 2 from 2 hits on 2 hits (4/9), from 1 on any (8/9):
    // 22/27 * 4/9 + 2/27 * 8/9 = 104/243. Without a rally: 4/9*4/9 + 4/9*8/9 = 144/243.
    let battery = SideSetup::new(UnitType::Artillery);
    for commander in [Commander::Napoleon, Commander::Wellington] {
        let infantry = SideSetup { commander, ..side(UnitType::LineInfantry, 3) };
        let dist = exact(DuelKind::Firefight, infantry, battery, 3, 2);
        assert_p(&dist, "winner", DEFENDER, 104.0 / 243.0);
    }
    let dist = exact(DuelKind::Firefight, side(UnitType::LineInfantry, 3), battery, 3, 2);
    assert_p(&dist, "winner", DEFENDER, 144.0 / 243.0);
}

#[test]
fn the_waterloo_commanders_change_the_dice() {
    let one_hit = side(UnitType::LineInfantry, 1);
    // Picton: 4D6 at one box; all four hit a four-hit target: (2/3)^4 = 16/81.
    let picton = SideSetup { commander: Commander::Picton, ..SideSetup::new(UnitType::LineInfantry) };
    let dist = exact(DuelKind::Firefight, picton, side(UnitType::LineInfantry, 4), 1, 1);
    assert_p(&dist, "winner", ATTACKER, 16.0 / 81.0);
    // Hill: 1D6 with one re-roll of a miss: 2/3 + 1/3 * 2/3 = 8/9.
    let hill = SideSetup { commander: Commander::Hill, ..one_hit };
    assert_p(&exact(DuelKind::Firefight, hill, one_hit, 2, 1), "winner", ATTACKER, 8.0 / 9.0);
    // Orange and Reille: the attacker's hit is re-rolled: 2/3 * 2/3 = 4/9.
    for commander in [Commander::Orange, Commander::Reille] {
        let defender = SideSetup { commander, ..one_hit };
        assert_p(&exact(DuelKind::Firefight, one_hit, defender, 2, 1), "winner", ATTACKER, 4.0 / 9.0);
    }
    // Ney attached: 5D6 in melee; five hits on five: (2/3)^5 = 32/243.
    let ney = SideSetup { commander: Commander::Ney, impetuous: true, ..SideSetup::new(UnitType::Cavalry) };
    let five = SideSetup { quality: Quality::Poor, ..SideSetup::new(UnitType::LineInfantry) };
    assert_p(&exact(DuelKind::CavalryCharge, ney, five, 2, 1), "winner", ATTACKER, 32.0 / 243.0);
    // D'Erlon: 4D6; four hits on four: 16/81. Lobau: 3D6 with a re-roll: all
    // three hit with 8/27 + 3 * 4/27 * 2/3 = 16/27, on a three-hit target.
    let d_erlon = SideSetup { commander: Commander::DErlon, ..ney };
    assert_p(
        &exact(DuelKind::CavalryCharge, d_erlon, side(UnitType::LineInfantry, 4), 2, 1),
        "winner",
        ATTACKER,
        16.0 / 81.0,
    );
    let lobau = SideSetup { commander: Commander::Lobau, ..ney };
    assert_p(
        &exact(DuelKind::CavalryCharge, lobau, side(UnitType::LineInfantry, 3), 2, 1),
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
    assert_p(&exact(DuelKind::CavalryCharge, cavalry, reille, 2, 1), "winner", ATTACKER, 26.0 / 27.0);
    assert_p(&exact(DuelKind::CavalryCharge, cavalry, orange, 2, 1), "winner", ATTACKER, 24.0 / 27.0);
}

#[test]
fn a_grand_battery_fires_as_the_infantry_closes() {
    // Line infantry from 3 boxes: turn 1 it advances to 2 boxes and takes 2D6;
    // turn 2 it advances to 1 box and takes 3D6. Five hits of the six
    // (one left, 16%) need both volleys full: 4/9 * 8/27 = 32/243.
    let attacker = SideSetup { advances: true, ..SideSetup::new(UnitType::LineInfantry) };
    let dist = exact(DuelKind::GrandBattery, attacker, SideSetup::new(UnitType::Artillery), 3, 2);
    assert_p(&dist, "attacker_remaining", 16, 32.0 / 243.0);
    assert_p(&dist, "attacker_remaining", 100, 1.0 / 243.0);
    assert_p(&dist, "defender_remaining", 100, 1.0);
    // In column of route it moves two boxes (1.5 + 1 cross country) to one box
    // and, treated as flanked, takes doubled fire: 6D6, all six rout it.
    let column = SideSetup { column: true, ..attacker };
    let dist = exact(DuelKind::GrandBattery, column, SideSetup::new(UnitType::Artillery), 3, 1);
    assert_p(&dist, "winner", DEFENDER, 64.0 / 729.0);
    // Guns are not doubled against in column: artillery doubles only against
    // "flanks of infantry or cavalry". 3D6 at one box on a one-hit limber: 26/27.
    let limbered = SideSetup { column: true, advances: true, ..side(UnitType::Artillery, 1) };
    let dist = exact(DuelKind::Firefight, limbered, SideSetup::new(UnitType::Artillery), 1, 1);
    assert_p(&dist, "winner", DEFENDER, 26.0 / 27.0);
    // A line holding its ground in column of route spends its first side turn
    // leaving it: fired on first, it is still in column (6D6); fired on after
    // its side turn, it is deployed (3D6 cannot rout six hits).
    let column_line = SideSetup { column: true, ..side(UnitType::LineInfantry, 6) };
    let battery = SideSetup::new(UnitType::Artillery);
    let duel = Duel::new(&Rules::default(), DuelKind::Firefight, column_line, battery, 1, 1).unwrap();
    let dist = duel.defender_first().exact_distribution().unwrap();
    assert_p(&dist, "winner", DEFENDER, 64.0 / 729.0);
    let dist = exact(DuelKind::Firefight, column_line, battery, 1, 1);
    assert_p(&dist, "winner", DEFENDER, 0.0);
    assert_p(&dist, "defender_remaining", 100, 1.0);
    // Cavalry from 6 boxes: moves 3 and takes 2D6; then charges guns not in
    // cover with 6D6: a one-hit battery routs unless all six miss.
    let cavalry = SideSetup { advances: true, ..SideSetup::new(UnitType::Cavalry) };
    let dist = exact(DuelKind::GrandBattery, cavalry, side(UnitType::Artillery, 1), 6, 2);
    assert_p(&dist, "winner", ATTACKER, 1.0 - 1.0 / 729.0);
    assert_p(&dist, "winner", NONE, 1.0 / 729.0);
}

#[test]
fn monte_carlo_agrees_with_the_markov_solver() {
    let rules = Rules::default();
    let line = SideSetup::new(UnitType::LineInfantry);
    let advancing = SideSetup { advances: true, ..line };
    let cases = [
        (DuelKind::Firefight, advancing, line, 1),
        (
            DuelKind::Firefight,
            SideSetup { leader: true, commander: Commander::Napoleon, quality: Quality::OldGuard, ..advancing },
            SideSetup {
                leader: true,
                conscript: true,
                in_town: true,
                commander: Commander::Picton,
                ..SideSetup::new(UnitType::Rifles)
            },
            3,
        ),
        (
            DuelKind::CavalryCharge,
            SideSetup { advances: true, break_off: 2, ..SideSetup::new(UnitType::Cavalry) },
            line,
            2,
        ),
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
        ),
        (DuelKind::GrandBattery, advancing, SideSetup::new(UnitType::Artillery), 6),
        (
            DuelKind::GrandBattery,
            SideSetup {
                advances: true,
                leader: true,
                quality: Quality::Poor,
                ..SideSetup::new(UnitType::HeavyCavalry)
            },
            SideSetup {
                in_cover: true,
                leader: true,
                commander: Commander::Orange,
                ..SideSetup::new(UnitType::Artillery)
            },
            8,
        ),
    ];
    for (seed, (kind, attacker, defender, range)) in cases.into_iter().enumerate() {
        // A limit of 12 turns keeps every value of `turns` likely enough to be
        // seen: the check counts one sample of a 4e-8 value (turn 17 of the
        // first case) as 5 standard errors out.
        let duel = Duel::new(&rules, kind, attacker, defender, range, 12).unwrap();
        assert_agrees(&duel, 1_000_000, 500 + seed as u64);
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
        ..Rules::default()
    };
    let cavalry = SideSetup {
        advances: true,
        leader: true,
        shock: true,
        commander: Commander::Ney,
        break_off: 3,
        ..SideSetup::new(UnitType::Cavalry)
    };
    let light = SideSetup { leader: true, commander: Commander::Napoleon, ..SideSetup::new(UnitType::LightInfantry) };
    let duel = Duel::new(&rules, DuelKind::CavalryCharge, cavalry, light, 5, 12).unwrap();
    assert_agrees(&duel, 1_000_000, 900);
    let battery = SideSetup { leader: true, ..SideSetup::new(UnitType::Artillery) };
    let duel = Duel::new(&rules, DuelKind::Firefight, battery, light, 4, 12).unwrap().defender_first();
    assert_agrees(&duel, 1_000_000, 901);
}

#[test]
fn a_unit_holding_a_town_does_not_advance() {
    // Out of range at 3 boxes, told to advance, it holds the town: nothing happens.
    let town = SideSetup { in_town: true, advances: true, ..SideSetup::new(UnitType::LineInfantry) };
    let dist = exact(DuelKind::Firefight, town, SideSetup::new(UnitType::LineInfantry), 3, 2);
    assert_p(&dist, "winner", NONE, 1.0);
}

#[test]
fn a_unit_leaves_column_of_route_with_a_move_before_it_shoots() {
    // Steadfast line infantry in column of route, 6 hits, advancing on a battery
    // from 3 boxes; two game turns.
    let column = SideSetup { column: true, advances: true, steadfast: true, ..SideSetup::new(UnitType::LineInfantry) };
    let battery = SideSetup::new(UnitType::Artillery);
    // spend_move: turn 1 it marches in column (1 box + 1 cross country) to 2
    // boxes and takes 2D6 doubled against a column (4D6); turn 2 it spends its
    // move leaving column (no fire) and takes 2D6. No hit in six dice: 1/729;
    // all six rout it in turn 2: 64/729; the battery is never hit.
    let dist = exact(DuelKind::Firefight, column, battery, 3, 2);
    assert_p(&dist, "attacker_remaining", 100, 1.0 / 729.0);
    assert_p(&dist, "winner", DEFENDER, 64.0 / 729.0);
    assert_p(&dist, "defender_remaining", 100, 1.0);
    // normal_move: turn 1 it deploys while moving its normal box to 2 boxes
    // and takes 2D6 undoubled; turn 2 it shoots 1D6 (2/3 to hit the battery,
    // 5 of 6 hits left: 83%) and takes 2D6. No hit in four dice: 1/81.
    let normal = Rules { column_exit: ColumnExit::NormalMove, ..Rules::default() };
    let dist = exact_with(&normal, DuelKind::Firefight, column, battery, 3, 2);
    assert_p(&dist, "attacker_remaining", 100, 1.0 / 81.0);
    assert_p(&dist, "winner", DEFENDER, 0.0);
    assert_p(&dist, "defender_remaining", 83, 2.0 / 3.0);
    // Cavalry may fight in column of route: it stays in it and charges at half
    // effect (5+): 3D6 on a one-hit line routs it unless all miss, (2/3)^3.
    let cavalry = SideSetup { column: true, impetuous: true, ..SideSetup::new(UnitType::Cavalry) };
    let dist = exact(DuelKind::CavalryCharge, cavalry, side(UnitType::LineInfantry, 1), 2, 1);
    assert_p(&dist, "winner", ATTACKER, 1.0 - 8.0 / 27.0);
}

#[test]
fn monte_carlo_agrees_when_units_leave_column_of_route() {
    for (seed, column_exit) in [ColumnExit::SpendMove, ColumnExit::NormalMove].into_iter().enumerate() {
        let rules = Rules { column_exit, ..Rules::default() };
        let attacker = SideSetup { column: true, advances: true, ..SideSetup::new(UnitType::LineInfantry) };
        let defender = SideSetup { column: true, leader: true, ..SideSetup::new(UnitType::Artillery) };
        let duel = Duel::new(&rules, DuelKind::Firefight, attacker, defender, 5, 12).unwrap();
        assert_agrees(&duel, 1_000_000, 950 + seed as u64);
    }
}
