//! `firefight`: hand-worked first turns, batteries, first rout off-table,
//! surrounded sides, the Markov solver against Monte Carlo, and the switches
//! that change it.

use super::{close, exact, rules};
use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;
use volley_kernel::rulesets::brigades::firefight::{FireSide, Firefight, battery_dice};
use volley_kernel::rulesets::brigades::{
    BatteryCrew, BatteryGunLoss, BatteryHits, Charisma, FirefightRout, GeneralPlace, Grade, Rules, ShakenPolicy,
    SurroundedHits, Target, Weapon,
};

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
                ("attacker.policy", "cautious"),
                ("defender.policy", "cautious"),
            ],
        )
        .unwrap();
    // At 10" muskets cannot reach (far is 8"); rifles fire at far range (9+).
    // Both holding (cautious), the attacker never hits: the defender never routs.
    // (Reworked for issue 15 item 1: the catalogue's firefight is now played
    // on the decision model, where under best play the units close.)
    let dist = exact(built.as_ref());
    close(dist.probability("defender_remaining", 100), 1.0);
    close(dist.probability("winner", ATTACKER), 0.0);
    assert!(dist.probability("winner", DEFENDER) > 0.0);
    assert!(scenario.build_from_text(rules.as_ref(), [("attacker.two_rank", "true")]).is_err());
    // A battery is never a skirmish target (3.5, 2.3).
    assert!(scenario.build_from_text(rules.as_ref(), [("attacker.weapon", "field_gun")]).is_ok());
    assert!(
        scenario
            .build_from_text(rules.as_ref(), [("attacker.weapon", "field_gun"), ("attacker.cover", "skirmish")])
            .is_err()
    );
}

#[test]
fn large_firefights_have_no_exact_solver_but_sample() {
    use volley_kernel::runner::RunOptions;
    use volley_kernel::scenario::DynScenario;
    let ff = Firefight::new(&rules(), side(Grade::D, 36), side(Grade::D, 25), 4, 30).unwrap();
    assert!(ff.exact_distribution().is_none());
    let dist = ff.simulate(&RunOptions::new(20_000, 3)).unwrap();
    // The bigger unit wins more often.
    assert!(dist.probability("winner", ATTACKER) > dist.probability("winner", DEFENDER));
    // Two batteries of 6 guns and 12 gunners: (7 * 13)^2 > 2100.
    let big = FireSide::battery(Grade::D, Weapon::FieldGun, 6, 12);
    let ff = Firefight::new(&rules(), big, big, 20, 30).unwrap();
    assert!(ff.exact_distribution().is_none());
    let dist = ff.simulate(&RunOptions::new(20_000, 3)).unwrap();
    assert!(dist.probability("attacker_guns_lost", 0) < 1.0);
    // 4 guns and 8 gunners a side: (5 * 9)^2 = 2025, exact.
    let small = FireSide::battery(Grade::D, Weapon::FieldGun, 4, 8);
    assert!(Firefight::new(&rules(), small, small, 20, 30).unwrap().has_exact());
}

fn battery(grade: Grade, weapon: Weapon, guns: u32, gunners: u32) -> FireSide {
    FireSide::battery(grade, weapon, guns, gunners)
}

#[test]
fn a_batterys_dice_follow_its_guns_and_crews() {
    let even = rules();
    let best = Rules { battery_crew: BatteryCrew::Best, ..rules() };
    let cap = Rules { battery_gun_loss: BatteryGunLoss::Cap, ..rules() };
    // 3.1: 6 guns on 3 models with 4 gunners each: a die per gun.
    assert_eq!(battery_dice(&even, 6, 6, 12), 6);
    // 8 gunners: 3, 3, 2 a model: 2 + 2 + 1.
    assert_eq!(battery_dice(&even, 6, 6, 8), 5);
    assert_eq!(battery_dice(&best, 6, 6, 8), 5);
    // 5 gunners: evenly 2, 2, 1 is 1 + 1 + 0; at best 3, 2, 0 is 2 + 1.
    assert_eq!(battery_dice(&even, 6, 6, 5), 2);
    assert_eq!(battery_dice(&best, 6, 6, 5), 3);
    // 5 guns are models of 2, 2, 1: 6 gunners evenly 2, 2, 2 serve 1 + 1 + 1;
    // at best 3, 3, 0 serve 2 + 2.
    assert_eq!(battery_dice(&even, 5, 5, 6), 3);
    assert_eq!(battery_dice(&best, 5, 5, 6), 4);
    // A destroyed gun: one die less (3.1), or the crews man the 5 guns left.
    assert_eq!(battery_dice(&even, 6, 5, 12), 5);
    assert_eq!(battery_dice(&cap, 6, 5, 12), 5);
    assert_eq!(battery_dice(&even, 6, 5, 8), 4);
    assert_eq!(battery_dice(&cap, 6, 5, 8), 5);
    assert_eq!(battery_dice(&cap, 6, 0, 12), 0);
    // One crewman a model serves nothing.
    assert_eq!(battery_dice(&even, 6, 6, 3), 0);
}

#[test]
fn one_turn_of_a_battery_against_infantry_by_hand() {
    // 4 field guns, 8 gunners (4 a model): 4 dice of canister at 4" (12"),
    // 6+ on a normal target: 0.5 each. 8 infantry: 2 dice at 7+, 0.4; each
    // hit on the guns takes a gunner on an effect roll of 5-10 (3.4, not
    // ballshot): 0.24 a die.
    let ff = Firefight::new(&rules(), battery(Grade::D, Weapon::FieldGun, 4, 8), side(Grade::D, 8), 4, 1).unwrap();
    let dist = exact(&ff);
    // The battery loses no gunner with 0.76^2, one with 2 * 0.24 * 0.76.
    close(dist.probability("attacker_remaining", 100), 0.76 * 0.76);
    close(dist.probability("attacker_remaining", 87), 2.0 * 0.24 * 0.76);
    // Two gunners lost: it tests at -1 (2 hits) -2 (a quarter): fails on 1-5.
    // Failing, 1-2 (18", 4 rout hits) leaves 2 of 8: shattered.
    close(dist.probability("attacker_routed", 1), 0.0576 * 0.5);
    close(dist.probability("attacker_shattered", 1), 0.0576 * 0.5 * 0.2);
    close(dist.probability("attacker_guns_lost", 0), 1.0);
    // The infantry takes 2 hits with 6/16, 3 with 4/16: fails on 1-5 (-1 or
    // -2 for hits, -2 for a quarter); 4 hits (-2, -4 for half): fails on 1-8.
    close(dist.probability("defender_routed", 1), 0.375 * 0.5 + 0.25 * 0.5 + 0.0625 * 0.8);
    // Counting every die that hit the guns (battery_hits = dice), two hits
    // (0.16) test whatever took a gunner: 0 or 1 gunner lost fails on 1-3,
    // 2 on 1-5: 0.16 * (0.64 * 0.3 + 0.36 * 0.5).
    let dice = Rules { battery_hits: BatteryHits::Dice, ..rules() };
    let ff = Firefight::new(&dice, battery(Grade::D, Weapon::FieldGun, 4, 8), side(Grade::D, 8), 4, 1).unwrap();
    close(exact(&ff).probability("attacker_routed", 1), 0.16 * (0.64 * 0.3 + 0.36 * 0.5));
}

#[test]
fn counterbattery_ballshot_destroys_guns() {
    // Two batteries at 20": field ballshot (32") hits on 8+, 0.3 a die; the
    // effect roll misses on 1-7, takes a gunner on 8-9 and a gun and a
    // gunner on 10: a gun with 0.03 a die, a gunner with 0.09.
    let a = battery(Grade::D, Weapon::FieldGun, 4, 8);
    let d = battery(Grade::D, Weapon::FieldGun, 4, 8);
    let ff = Firefight::new(&rules(), a, d, 20, 1).unwrap();
    let dist = exact(&ff);
    close(dist.probability("defender_guns_lost", 0), 0.97f64.powi(4));
    close(dist.probability("defender_guns_lost", 1), 4.0 * 0.03 * 0.97f64.powi(3));
    close(dist.probability("defender_remaining", 100), 0.91f64.powi(4));
    // At 24" light guns (ballshot to 24") still reach, 26" not at all.
    let light = battery(Grade::D, Weapon::LightGun, 4, 8);
    let ff = Firefight::new(&rules(), light, d, 26, 1).unwrap();
    close(exact(&ff).probability("defender_remaining", 100), 1.0);
}

#[test]
fn batteries_agree_with_monte_carlo() {
    // A battery against infantry, with rifles out-ranging nothing: canister at 6".
    let ff = Firefight::new(&rules(), battery(Grade::C, Weapon::FieldGun, 6, 12), side(Grade::D, 16), 6, 30).unwrap();
    assert_agrees(&ff, 1_000_000, 51);
    // Counterbattery with the other interpretations.
    let rules = Rules {
        battery_crew: BatteryCrew::Best,
        battery_gun_loss: BatteryGunLoss::Cap,
        battery_hits: BatteryHits::Dice,
        ..rules()
    };
    let ff = Firefight::new(
        &rules,
        battery(Grade::D, Weapon::HeavyGun, 2, 6),
        battery(Grade::B, Weapon::LightGun, 3, 7),
        14,
        30,
    )
    .unwrap();
    assert_agrees(&ff, 1_000_000, 52);
}

#[test]
fn a_first_rout_off_the_table_may_return_on_eight_to_ten() {
    // Muskets cannot reach rifles at 10": only the defender fires (far, 9+:
    // 0.2 a die). 8 attackers with 1" of room: 2 hits (0.04) test at -1 -2,
    // failing on 1-5; 1-2 shatters them (4 rout hits), 3-10 routs them off.
    let mut attacker = side(Grade::D, 8);
    attacker.room = 1;
    let mut defender = side(Grade::D, 8);
    defender.weapon = Weapon::Rifle;
    let plain = Firefight::new(&rules(), attacker, defender, 10, 2).unwrap();
    let dist = exact(&plain);
    close(dist.probability("turns", 1), 0.04 * 0.5);
    close(dist.probability("attacker_returned", 1), 0.0);
    let optional = Rules { optional_first_rout_off_table: true, ..rules() };
    let ff = Firefight::new(&optional, attacker, defender, 10, 2).unwrap();
    let dist = exact(&ff);
    // Now only the shatter ends turn 1; the routed unit returns on a D10 of
    // 8-10 at the start of turn 2: 0.016 * 3/10.
    close(dist.probability("turns", 1), 0.04 * 0.5 * 0.2);
    close(dist.probability("attacker_returned", 1), 0.016 * 0.3);
    // Off the table at the limit it counts as routed off: the defender wins.
    assert!(dist.probability("winner", DEFENDER) >= 0.004 + 0.016 * 0.7 - 1e-12);
    // With the rout ending the firefight (`ends`), there is nothing to return to.
    let ends = Rules { firefight_rout: FirefightRout::Ends, ..optional.clone() };
    let ff = Firefight::new(&ends, attacker, defender, 10, 2).unwrap();
    close(exact(&ff).probability("attacker_returned", 1), 0.0);
}

#[test]
fn returning_units_agree_with_monte_carlo() {
    let optional = Rules { optional_first_rout_off_table: true, ..rules() };
    let mut attacker = side(Grade::E, 12);
    attacker.room = 10;
    let mut defender = side(Grade::C, 12);
    defender.room = 8;
    let ff = Firefight::new(&optional, attacker, defender, 4, 30).unwrap();
    let dist = exact(&ff);
    assert!(dist.probability("attacker_returned", 1) > 0.01);
    assert_agrees(&ff, 1_000_000, 53);
}

#[test]
fn a_surrounded_unit_routing_past_its_centre_takes_two_more_rout_hits() {
    // 8 against 8 at 4" for a turn (see above); the attacker's centre point
    // is 4" behind it. Failing its test after 2 hits (0.16 * 0.5): a score of
    // 8-9 routs 6" (1 rout hit) past the centre point: 1 + 2 = 3, leaving 3
    // of 8 (37%); 10 routs 4", onto the point, not past it: no rout hit; 3-7
    // (12", 8": 3 or 2 rout hits, +2) shatter it, as does 1-2.
    let mut attacker = side(Grade::D, 8);
    attacker.surrounded = true;
    attacker.room = 4;
    let ff = Firefight::new(&rules(), attacker, side(Grade::D, 8), 4, 1).unwrap();
    let dist = exact(&ff);
    close(dist.probability("attacker_shattered", 1), 0.08 * 0.7);
    close(dist.probability("attacker_remaining", 37), 0.08 * 0.2);
    close(dist.probability("attacker_remaining", 75), 0.16 * (0.5 + 0.5 * 0.1));
    // A surrounded unit never routs off: only the shatter decides.
    close(dist.probability("winner", DEFENDER), 0.056 * (1.0 - 0.016));
    // With the enemy 2" beyond the centre point, the 6" rout surrenders.
    attacker.ring = 2;
    let ff = Firefight::new(&rules(), attacker, side(Grade::D, 8), 4, 1).unwrap();
    let dist = exact(&ff);
    close(dist.probability("attacker_surrendered", 1), 0.016);
    close(dist.probability("winner", DEFENDER), (0.056 + 0.016) * (1.0 - 0.016));
}

#[test]
fn surrounded_sides_agree_with_monte_carlo() {
    let mut attacker = side(Grade::C, 16);
    attacker.surrounded = true;
    attacker.room = 6;
    attacker.ring = 10;
    let mut defender = side(Grade::D, 16);
    defender.surrounded = true;
    defender.room = 12;
    let ff = Firefight::new(&rules(), attacker, defender, 4, 30).unwrap();
    assert_agrees(&ff, 1_000_000, 54);
    let beyond = Rules { surrounded_hits: SurroundedHits::Beyond, ..rules() };
    let ff = Firefight::new(&beyond, attacker, defender, 4, 30).unwrap();
    assert_agrees(&ff, 1_000_000, 55);
}

#[test]
fn pass_through_fire_changes_no_firefight() {
    // Only closing moves happen in a firefight's movement phases (see the
    // module docs): the switch adds no target, so the law is the same.
    let on = Rules { optional_pass_through_fire: true, optional_first_rout_off_table: true, ..rules() };
    let off = Rules { optional_first_rout_off_table: true, ..rules() };
    let law = |rules: &Rules| {
        let ff = Firefight::new(rules, side(Grade::D, 8), side(Grade::E, 8), 6, 10).unwrap();
        exact(&ff).probability("winner", ATTACKER)
    };
    close(law(&on), law(&off));
}
