//! `shoot` and `charge`: the binomials of the dice worked by hand, each rule's
//! effect checked in the direction the rules print it, Monte Carlo against exact.

use volley_kernel::check::assert_agrees;
use volley_kernel::outcome::Distribution;
use volley_kernel::rulesets::one_hour::attack::ChargeSituation;
use volley_kernel::rulesets::one_hour::single::{Charge, Charger, Shoot, ShootSetup, ShootTarget, Shooter};
use volley_kernel::rulesets::one_hour::{
    ChargeScores, Effect, HalfHits, LightInfantryCharged, PivotToFace, Rules, UnitType,
};
use volley_kernel::scenario::DynScenario;

const TOLERANCE: f64 = 1e-12;

fn setup(shooter: Shooter, range: u32) -> ShootSetup {
    ShootSetup {
        shooter,
        range,
        effect: Effect::Full,
        double: false,
        target: ShootTarget::Formed,
        extra_dice: 0,
        target_conscript: false,
        target_steadfast: false,
        target_in_town: false,
    }
}

fn shoot(rules: &Rules, setup: ShootSetup) -> Distribution {
    Shoot::new(rules, setup).unwrap().exact_distribution().unwrap()
}

/// Asserts P(hits = k) for k = 0, 1, ... and nothing beyond.
#[track_caller]
fn assert_hits(dist: &Distribution, expected: &[f64]) {
    for (hits, &p) in expected.iter().enumerate() {
        let got = dist.probability("hits", hits as i64);
        assert!((got - p).abs() < TOLERANCE, "P(hits = {hits}) = {got}, expected {p}");
    }
    let total: f64 = expected.iter().sum();
    assert!((total - 1.0).abs() < TOLERANCE, "the expected values sum to {total}");
}

fn situation() -> ChargeSituation {
    ChargeSituation {
        flank: false,
        target_column: false,
        shock: false,
        target_shock: false,
        target_in_cover: false,
        target_in_town: false,
        effect: Effect::Full,
        extra_dice: 0,
    }
}

fn charge(rules: &Rules, charger: Charger, target: UnitType, situation: ChargeSituation) -> Distribution {
    Charge::new(rules, charger, target, situation).unwrap().exact_distribution().unwrap()
}

/// (k successes of n dice hitting on a score of `score`+): C(n, k) p^k (1-p)^(n-k).
fn binomial(n: u32, k: u32, score: u32) -> f64 {
    let p = f64::from(7 - score) / 6.0;
    let choose = (0..k).fold(1.0, |c, i| c * f64::from(n - i) / f64::from(i + 1));
    choose * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
}

#[test]
fn line_infantry_at_one_box_rolls_three_dice_hitting_on_three_up() {
    // 3D6 at 3+ (p = 2/3): 0 hits 1/27, 1 hit 3*2/27 = 6/27, 2 hits 3*4/27 = 12/27, 3 hits 8/27.
    let dist = shoot(&Rules::default(), setup(Shooter::LineInfantry, 1));
    assert_hits(&dist, &[1.0 / 27.0, 6.0 / 27.0, 12.0 / 27.0, 8.0 / 27.0]);
    // Three hits from one source: the target retreats.
    assert!((dist.probability("retreats", 1) - 8.0 / 27.0).abs() < TOLERANCE);
    assert!((dist.mean("hits") - 2.0).abs() < TOLERANCE);
}

#[test]
fn dice_by_type_and_range_follow_the_unit_table() {
    let rules = Rules::default();
    // Line infantry at 2 boxes: 1D6, 2/3 to hit.
    assert_hits(&shoot(&rules, setup(Shooter::LineInfantry, 2)), &[1.0 / 3.0, 2.0 / 3.0]);
    // Artillery at 2-4 boxes: 2D6: 1/9, 4/9, 4/9.
    for range in 2..=4 {
        assert_hits(&shoot(&rules, setup(Shooter::Artillery, range)), &[1.0 / 9.0, 4.0 / 9.0, 4.0 / 9.0]);
    }
    // Artillery at 5-8 boxes: 1D6.
    for range in 5..=8 {
        assert_hits(&shoot(&rules, setup(Shooter::Artillery, range)), &[1.0 / 3.0, 2.0 / 3.0]);
    }
    // Artillery at 1 box: 3D6, mean 2.
    assert!((shoot(&rules, setup(Shooter::Artillery, 1)).mean("hits") - 2.0).abs() < TOLERANCE);
    // Light infantry 1D6 to 2 boxes, rifles to 3.
    assert_hits(&shoot(&rules, setup(Shooter::LightInfantry, 1)), &[1.0 / 3.0, 2.0 / 3.0]);
    assert_hits(&shoot(&rules, setup(Shooter::LightInfantry, 2)), &[1.0 / 3.0, 2.0 / 3.0]);
    assert_hits(&shoot(&rules, setup(Shooter::Rifles, 3)), &[1.0 / 3.0, 2.0 / 3.0]);
    // Out of range: an error naming the key.
    for (shooter, range) in [(Shooter::LightInfantry, 3), (Shooter::Rifles, 4), (Shooter::LineInfantry, 3), (Shooter::Artillery, 9)] {
        let error = Shoot::new(&rules, setup(shooter, range)).unwrap_err();
        assert!(error.to_string().starts_with("`range`"), "{error}");
    }
}

#[test]
fn half_and_quarter_effect_need_five_and_six() {
    let rules = Rules::default();
    // 3D6 at 5+ (p = 1/3): 8/27, 12/27, 6/27, 1/27.
    let half = ShootSetup { effect: Effect::Half, ..setup(Shooter::LineInfantry, 1) };
    assert_hits(&shoot(&rules, half), &[8.0 / 27.0, 12.0 / 27.0, 6.0 / 27.0, 1.0 / 27.0]);
    // 3D6 at 6 (p = 1/6): 125/216, 75/216, 15/216, 1/216.
    let quarter = ShootSetup { effect: Effect::Quarter, ..setup(Shooter::LineInfantry, 1) };
    assert_hits(&shoot(&rules, quarter), &[125.0 / 216.0, 75.0 / 216.0, 15.0 / 216.0, 1.0 / 216.0]);
}

#[test]
fn towns_halve_line_infantry_fire_and_charges() {
    let rules = Rules::default();
    // Line infantry at a town: 3D6 at 5+ (mean 1); artillery and light infantry as normal.
    let line = ShootSetup { target_in_town: true, ..setup(Shooter::LineInfantry, 1) };
    assert_hits(&shoot(&rules, line), &[8.0 / 27.0, 12.0 / 27.0, 6.0 / 27.0, 1.0 / 27.0]);
    let guns = ShootSetup { target_in_town: true, ..setup(Shooter::Artillery, 1) };
    assert!((shoot(&rules, guns).mean("hits") - 2.0).abs() < TOLERANCE);
    let light = ShootSetup { target_in_town: true, ..setup(Shooter::LightInfantry, 2) };
    assert_hits(&shoot(&rules, light), &[1.0 / 3.0, 2.0 / 3.0]);
    // Light infantry in a town, shot by line infantry: half effect, then half hits: quarter, 6.
    let both = ShootSetup { target: ShootTarget::LightInfantry, ..line };
    assert_hits(&shoot(&rules, both), &[125.0 / 216.0, 75.0 / 216.0, 15.0 / 216.0, 1.0 / 216.0]);
    // Charging infantry in a town: quarter effect (6), and no flank: 3D6 at 6.
    let town = ChargeSituation { target_in_town: true, flank: true, ..situation() };
    let line_never = Rules { line_infantry_pivot: PivotToFace::Never, ..Rules::default() };
    assert_hits(
        &charge(&line_never, Charger::Cavalry, UnitType::LineInfantry, town),
        &[125.0 / 216.0, 75.0 / 216.0, 15.0 / 216.0, 1.0 / 216.0],
    );
    // Guns in a town: half effect (5+), and the town is cover (not doubled): 3D6 at 5+.
    assert_hits(&charge(&rules, Charger::Cavalry, UnitType::Artillery, town), &[8.0 / 27.0, 12.0 / 27.0, 6.0 / 27.0, 1.0 / 27.0]);
}

#[test]
fn artillery_doubles_its_dice_against_flanks_and_squares() {
    // 6D6 at 3+: P(6 hits) = (2/3)^6 = 64/729; mean 4.
    let double = ShootSetup { double: true, ..setup(Shooter::Artillery, 1) };
    let dist = shoot(&Rules::default(), double);
    assert!((dist.probability("hits", 6) - 64.0 / 729.0).abs() < TOLERANCE);
    assert!((dist.mean("hits") - 4.0).abs() < TOLERANCE);
    // Extra dice add after the doubling: 2D6 doubled plus one is 5D6, mean 10/3.
    let extra = ShootSetup { double: true, extra_dice: 1, ..setup(Shooter::Artillery, 3) };
    assert!((shoot(&Rules::default(), extra).mean("hits") - 10.0 / 3.0).abs() < TOLERANCE);
}

#[test]
fn light_infantry_takes_half_hits_by_each_reading() {
    let at = ShootSetup { target: ShootTarget::LightInfantry, ..setup(Shooter::LineInfantry, 1) };
    // five_plus (default): 3D6 at 5+: 8/27, 12/27, 6/27, 1/27 (mean 1, half of 2).
    assert_hits(&shoot(&Rules::default(), at), &[8.0 / 27.0, 12.0 / 27.0, 6.0 / 27.0, 1.0 / 27.0]);
    // round_down: floor(k/2) of 3D6 at 3+: 0 for k <= 1 (7/27), 1 for k = 2, 3 (20/27).
    let down = Rules { light_infantry_half_hits: HalfHits::RoundDown, ..Rules::default() };
    assert_hits(&shoot(&down, at), &[7.0 / 27.0, 20.0 / 27.0]);
    // round_up: ceil(k/2): 0 for k = 0 (1/27), 1 for k = 1, 2 (18/27), 2 for k = 3 (8/27).
    let up = Rules { light_infantry_half_hits: HalfHits::RoundUp, ..Rules::default() };
    assert_hits(&shoot(&up, at), &[1.0 / 27.0, 18.0 / 27.0, 8.0 / 27.0]);
    // Half effect fire on light infantry becomes quarter effect: 1D6 at 6.
    let half = ShootSetup { effect: Effect::Half, ..ShootSetup { range: 2, ..at } };
    assert_hits(&shoot(&Rules::default(), half), &[5.0 / 6.0, 1.0 / 6.0]);
    // Cavalry targets take full hits.
    let cavalry = ShootSetup { target: ShootTarget::Cavalry, ..setup(Shooter::LineInfantry, 1) };
    assert!((shoot(&Rules::default(), cavalry).mean("hits") - 2.0).abs() < TOLERANCE);
}

#[test]
fn retreats_at_three_hits_two_for_conscripts_never_for_steadfast() {
    let rules = Rules::default();
    let base = setup(Shooter::LineInfantry, 1);
    // Conscripts: 2 or more hits of 3D6 at 3+: 12/27 + 8/27.
    let conscript = ShootSetup { target_conscript: true, ..base };
    assert!((shoot(&rules, conscript).probability("retreats", 1) - 20.0 / 27.0).abs() < TOLERANCE);
    let steadfast = ShootSetup { target_steadfast: true, ..base };
    assert_eq!(shoot(&rules, steadfast).probability("retreats", 1), 0.0);
    // Artillery's two dice at 3 boxes can never force a retreat; doubled, 4D6 at 3+ can:
    // P(>= 3 of 4) = 4 * 8/81 + 16/81 = 48/81.
    assert_eq!(shoot(&rules, setup(Shooter::Artillery, 3)).probability("retreats", 1), 0.0);
    let double = ShootSetup { double: true, ..setup(Shooter::Artillery, 3) };
    assert!((shoot(&rules, double).probability("retreats", 1) - 48.0 / 81.0).abs() < TOLERANCE);
}

#[test]
fn a_cavalry_charge_rolls_three_dice_and_doubles_where_the_table_says() {
    let rules = Rules::default();
    let three = [1.0 / 27.0, 6.0 / 27.0, 12.0 / 27.0, 8.0 / 27.0];
    let six: Vec<f64> = (0..=6).map(|k| binomial(6, k, 3)).collect();
    assert_hits(&charge(&rules, Charger::Cavalry, UnitType::LineInfantry, situation()), &three);
    assert_hits(&charge(&rules, Charger::HeavyCavalry, UnitType::Cavalry, situation()), &three);
    assert_hits(&charge(&rules, Charger::Cavalry, UnitType::Cavalry, situation()), &three);
    assert_hits(&charge(&rules, Charger::HeavyCavalry, UnitType::HeavyCavalry, situation()), &three);
    // Cavalry: "2D6 v Heavy Cavalry": 1/9, 4/9, 4/9.
    assert_hits(&charge(&rules, Charger::Cavalry, UnitType::HeavyCavalry, situation()), &[1.0 / 9.0, 4.0 / 9.0, 4.0 / 9.0]);
    // Double against light infantry and against guns not in cover; 3D6 against guns in cover.
    assert_hits(&charge(&rules, Charger::Cavalry, UnitType::LightInfantry, situation()), &six);
    assert_hits(&charge(&rules, Charger::Cavalry, UnitType::Artillery, situation()), &six);
    let cover = ChargeSituation { target_in_cover: true, ..situation() };
    assert_hits(&charge(&rules, Charger::Cavalry, UnitType::Artillery, cover), &three);
    // Flank: doubled against cavalry; against guns not in cover still only doubled once.
    let flank = ChargeSituation { flank: true, ..situation() };
    assert_hits(&charge(&rules, Charger::Cavalry, UnitType::Cavalry, flank), &six);
    assert_hits(&charge(&rules, Charger::HeavyCavalry, UnitType::Artillery, flank), &six);
    // Cavalry against heavy cavalry's flank: 2D6 doubled, 4D6.
    let four: Vec<f64> = (0..=4).map(|k| binomial(4, k, 3)).collect();
    assert_hits(&charge(&rules, Charger::Cavalry, UnitType::HeavyCavalry, flank), &four);
}

#[test]
fn line_infantry_pivots_to_face_a_flank_charge() {
    let flank = ChargeSituation { flank: true, ..situation() };
    let three = [1.0 / 27.0, 6.0 / 27.0, 12.0 / 27.0, 8.0 / 27.0];
    assert_hits(&charge(&Rules::default(), Charger::Cavalry, UnitType::LineInfantry, flank), &three);
    let never = Rules { line_infantry_pivot: PivotToFace::Never, ..Rules::default() };
    let six: Vec<f64> = (0..=6).map(|k| binomial(6, k, 3)).collect();
    assert_hits(&charge(&never, Charger::Cavalry, UnitType::LineInfantry, flank), &six);
}

#[test]
fn a_column_of_route_is_flanked_and_cannot_pivot() {
    let column = ChargeSituation { target_column: true, ..situation() };
    let six: Vec<f64> = (0..=6).map(|k| binomial(6, k, 3)).collect();
    assert_hits(&charge(&Rules::default(), Charger::Cavalry, UnitType::LineInfantry, column), &six);
    // Light infantry has no flanks: doubled once, as light infantry, not twice.
    assert_hits(&charge(&Rules::default(), Charger::Cavalry, UnitType::LightInfantry, column), &six);
}

#[test]
fn light_infantry_charged_by_each_reading() {
    // double_hits: 3D6 at 3+, hits doubled: 0, 2, 4, 6 with 1, 6, 12, 8 in 27.
    let hits = Rules { light_infantry_charged: LightInfantryCharged::DoubleHits, ..Rules::default() };
    assert_hits(
        &charge(&hits, Charger::Cavalry, UnitType::LightInfantry, situation()),
        &[1.0 / 27.0, 0.0, 6.0 / 27.0, 0.0, 12.0 / 27.0, 0.0, 8.0 / 27.0],
    );
    // both: 6D6 doubled: P(12 hits) = 64/729, mean 8.
    let both = Rules { light_infantry_charged: LightInfantryCharged::Both, ..Rules::default() };
    let dist = charge(&both, Charger::Cavalry, UnitType::Rifles, situation());
    assert!((dist.probability("hits", 12) - 64.0 / 729.0).abs() < TOLERANCE);
    assert!((dist.mean("hits") - 8.0).abs() < TOLERANCE);
    assert_eq!(dist.probability("hits", 11), 0.0);
}

#[test]
fn shock_adds_a_die_only_against_units_without_it() {
    let rules = Rules::default();
    let shock = ChargeSituation { shock: true, ..situation() };
    // 4D6 at 3+: mean 8/3.
    assert!((charge(&rules, Charger::HeavyCavalry, UnitType::LineInfantry, shock).mean("hits") - 8.0 / 3.0).abs() < TOLERANCE);
    let both_shock = ChargeSituation { target_shock: true, ..shock };
    assert!((charge(&rules, Charger::HeavyCavalry, UnitType::HeavyCavalry, both_shock).mean("hits") - 2.0).abs() < TOLERANCE);
    let error = Charge::new(&rules, Charger::Cavalry, UnitType::LineInfantry, both_shock).unwrap_err();
    assert!(error.to_string().contains("target_shock"), "{error}");
}

#[test]
fn charge_scores_like_shooting_or_four_up() {
    // Half effect into a town: 3D6 at 5+.
    let half = ChargeSituation { effect: Effect::Half, ..situation() };
    assert_hits(
        &charge(&Rules::default(), Charger::Cavalry, UnitType::LineInfantry, half),
        &[8.0 / 27.0, 12.0 / 27.0, 6.0 / 27.0, 1.0 / 27.0],
    );
    // four_up: 3D6 at 4+: 1, 3, 3, 1 in 8.
    let four_up = Rules { charge_scores: ChargeScores::FourUp, ..Rules::default() };
    assert_hits(&charge(&four_up, Charger::Cavalry, UnitType::LineInfantry, situation()), &[0.125, 0.375, 0.375, 0.125]);
}

#[test]
fn monte_carlo_agrees_with_the_exact_shots_and_charges() {
    let rules = Rules::default();
    let shots = [
        setup(Shooter::LineInfantry, 1),
        ShootSetup { double: true, target_conscript: true, ..setup(Shooter::Artillery, 2) },
        ShootSetup { target: ShootTarget::LightInfantry, extra_dice: 1, ..setup(Shooter::LineInfantry, 1) },
    ];
    for (seed, shot) in shots.into_iter().enumerate() {
        assert_agrees(&Shoot::new(&rules, shot).unwrap(), 1_000_000, 100 + seed as u64);
    }
    let down = Rules { light_infantry_half_hits: HalfHits::RoundDown, ..Rules::default() };
    let shot = ShootSetup { target: ShootTarget::LightInfantry, ..setup(Shooter::Artillery, 1) };
    assert_agrees(&Shoot::new(&down, shot).unwrap(), 1_000_000, 110);
    let both = Rules { light_infantry_charged: LightInfantryCharged::Both, ..Rules::default() };
    let shock = ChargeSituation { shock: true, ..situation() };
    assert_agrees(&Charge::new(&both, Charger::Cavalry, UnitType::LightInfantry, shock).unwrap(), 1_000_000, 120);
    assert_agrees(&Charge::new(&rules, Charger::Cavalry, UnitType::HeavyCavalry, situation()).unwrap(), 1_000_000, 121);
}
