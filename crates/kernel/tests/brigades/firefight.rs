//! `firefight`: hand-worked first turns, the Markov solver against Monte Carlo,
//! and the switches that change it.

use super::{close, exact, rules};
use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;
use volley_kernel::rulesets::brigades::firefight::{FireSide, Firefight};
use volley_kernel::rulesets::brigades::{Charisma, FirefightRout, GeneralPlace, Grade, Rules, ShakenPolicy, Target};

const ATTACKER: i64 = 0;
const DEFENDER: i64 = 1;
const NONE: i64 = 2;

fn side(grade: Grade, figures: u32) -> FireSide {
    FireSide::new(grade, figures)
}

#[test]
fn one_turn_of_eight_against_eight_by_hand() {
    // 8 figures: 2 dice at 4" (musket close, 7+: 0.4). Hits taken: 0 (0.36),
    // 1 (0.48), 2 (0.16). Two hits test morale: D needs 3, with -1 (2 hits)
    // and -2 (2 of 8 lost is one quarter): D10 6-10 passes, 0.5. Failing, the
    // rout roll D10 + 0 on the small column: 1-2 is 18" and 4 rout hits,
    // 6 of 8 lost = 3/4: shattered (0.16 * 0.5 * 0.2 = 0.016); 3-10 rout.
    let ff = Firefight::new(&rules(), side(Grade::D, 8), side(Grade::D, 8), 4, 1).unwrap();
    let dist = exact(&ff);
    close(dist.probability("turns", 1), 1.0);
    close(dist.probability("attacker_routed", 1), 0.08);
    close(dist.probability("attacker_shattered", 1), 0.016);
    // Only a shatter ends it in one turn (a 12" rout leaves 12" of room).
    close(dist.probability("winner", DEFENDER), 0.016 * (1.0 - 0.016));
    close(dist.probability("winner", ATTACKER), 0.016 * (1.0 - 0.016));
    close(dist.probability("winner", NONE), 1.0 - 2.0 * 0.016 * 0.984);
    // 100% (no hit) 0.36; 87% (7 of 8) 0.48; 75% (two hits, passed or a
    // rout of 4" with no rout hits): 0.16 * (0.5 + 0.5 * 0.1) = 0.088.
    close(dist.probability("attacker_remaining", 100), 0.36);
    close(dist.probability("attacker_remaining", 87), 0.48);
    close(dist.probability("attacker_remaining", 75), 0.088);
    // A 12" rout costs 3 hits (37%), an 8" rout 2 (50%), 6" 1 (62%).
    close(dist.probability("attacker_remaining", 37), 0.16 * 0.5 * 0.2);
    close(dist.probability("attacker_remaining", 50), 0.16 * 0.5 * 0.3);
    close(dist.probability("attacker_remaining", 62), 0.16 * 0.5 * 0.2);
}

#[test]
fn a_rout_past_the_room_routs_off() {
    // With 12" of room, a rout of 12" or 18" routs the unit off; 18" shatters
    // it anyway here, so the 12" row alone decides: 0.16 * 0.5 * 0.2 = 0.016
    // more ends for each side.
    let mut attacker = side(Grade::D, 8);
    attacker.room = 12;
    let ff = Firefight::new(&rules(), attacker, side(Grade::D, 8), 4, 1).unwrap();
    let dist = exact(&ff);
    let attacker_out = 0.032;
    let defender_out = 0.016;
    close(dist.probability("winner", DEFENDER), attacker_out * (1.0 - defender_out));
    close(dist.probability("winner", ATTACKER), defender_out * (1.0 - attacker_out));
}

#[test]
fn hard_cover_and_grades_move_the_first_test() {
    // Defender in hard cover: musket close needs 10 (0.1 a die) and its
    // morale gains +1. 24 figures fire 6 dice at it: P(2+ hits) =
    // 1 - 0.9^6 - 6 * 0.1 * 0.9^5 = 0.114265.
    let mut defender = side(Grade::D, 24);
    defender.cover = Target::Hard;
    let ff = Firefight::new(&rules(), side(Grade::D, 24), defender, 4, 1).unwrap();
    let dist = exact(&ff);
    let two_plus = 1.0 - 0.9f64.powi(6) - 6.0 * 0.1 * 0.9f64.powi(5);
    // 2 or 3 hits of 24 (no quarter lost): mod -1 + 1 = 0, D10 3+ passes, 0.2 fails;
    // 4-5 hits: -2 + 1 - 0 (4 of 24 < 6) = -1: 0.3 fails; 6 hits: -3 + 1 - 2 = -4: 0.6 fails.
    let b = |k: u32| binomial(6, 0.1, k);
    let fail = (b(2) + b(3)) * 0.2 + (b(4) + b(5)) * 0.3 + b(6) * 0.6;
    assert!(two_plus > fail);
    close(dist.probability("defender_routed", 1), fail);
}

fn binomial(n: u32, p: f64, k: u32) -> f64 {
    let choose = (0..k).fold(1.0, |c, i| c * f64::from(n - i) / f64::from(i + 1));
    choose * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
}

#[test]
fn the_markov_solver_agrees_with_monte_carlo() {
    let ff = Firefight::new(&rules(), side(Grade::C, 12), side(Grade::E, 16), 6, 30).unwrap();
    assert_agrees(&ff, 1_000_000, 41);
}

#[test]
fn the_switches_agree_with_monte_carlo_too() {
    let mut rules = rules();
    rules.firefight_rout = FirefightRout::Ends;
    rules.shaken_policy = ShakenPolicy::Fire;
    let ff = Firefight::new(&rules, side(Grade::B, 12), side(Grade::D, 12), 4, 20).unwrap();
    assert_agrees(&ff, 1_000_000, 42);
    let mut rules = Rules { optional_danger_to_generals: true, ..Rules::default() };
    rules.shaken_policy = ShakenPolicy::Recover;
    let mut attacker = side(Grade::D, 12);
    attacker.general = GeneralPlace::Attached;
    attacker.charisma = Charisma::Rolled;
    let mut defender = side(Grade::D, 12);
    defender.general = GeneralPlace::OutOfRadius;
    let ff = Firefight::new(&rules, attacker, defender, 4, 20).unwrap();
    assert_agrees(&ff, 1_000_000, 43);
}

#[test]
fn a_general_helps_and_his_absence_hurts() {
    let p_win = |general: GeneralPlace, charisma: Charisma| {
        let mut attacker = side(Grade::D, 12);
        attacker.general = general;
        attacker.charisma = charisma;
        let ff = Firefight::new(&rules(), attacker, side(Grade::D, 12), 4, 30).unwrap();
        exact(&ff).probability("winner", ATTACKER)
    };
    let alone = p_win(GeneralPlace::OutOfRadius, Charisma::Rolled);
    let near = p_win(GeneralPlace::InRadius, Charisma::Rolled);
    let attached = p_win(GeneralPlace::Attached, Charisma::Two);
    assert!(alone < near && near < attached, "{alone} {near} {attached}");
    // Charisma 0 attached is the same as being in radius.
    close(p_win(GeneralPlace::Attached, Charisma::Zero), near);
}

#[test]
fn catalogue_keys_build_a_firefight() {
    let brigades = ruleset("brigades").unwrap();
    let rules = (brigades.default_rules)();
    let scenario = brigades.scenario("firefight").unwrap();
    let built = scenario
        .build_from_text(
            rules.as_ref(),
            [
                ("attacker.quality", "b"),
                ("attacker.figures", "8"),
                ("defender.figures", "8"),
                ("defender.weapon", "rifle"),
                ("distance", "10"),
                ("turns", "12"),
            ],
        )
        .unwrap();
    // At 10" muskets cannot reach (far is 8"); rifles fire at far range (9+).
    // The attacker never hits: the defender never routs.
    let dist = exact(built.as_ref());
    close(dist.probability("defender_remaining", 100), 1.0);
    close(dist.probability("winner", ATTACKER), 0.0);
    assert!(dist.probability("winner", DEFENDER) > 0.0);
    assert!(scenario.build_from_text(rules.as_ref(), [("attacker.two_rank", "true")]).is_err());
    assert!(scenario.build_from_text(rules.as_ref(), [("attacker.weapon", "field_gun")]).is_err());
}

