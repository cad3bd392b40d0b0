//! `fire`: dice from figures and guns, the shooting table, natural 1 and 10, NIL.

use super::{close, exact, rules};
use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;
use volley_kernel::rulesets::brigades::fire::Fire;
use volley_kernel::rulesets::brigades::{RangeBand, Target, Weapon, artillery_dice, dice_from_figures};

fn fire(weapon: Weapon, band: RangeBand, target: Target, figures: u32, modifier: i32, dense: bool) -> Fire {
    Fire::new(&rules(), weapon, band, target, figures, 6, 4, modifier, dense, false).unwrap()
}

#[test]
fn dice_from_figures_follow_the_printed_examples() {
    // 3.1: "an 11-figure unit would roll three dice, but a 10-figure unit only two".
    assert_eq!(dice_from_figures(11, 4, 3), 3);
    assert_eq!(dice_from_figures(10, 4, 3), 2);
    assert_eq!(dice_from_figures(24, 4, 3), 6);
    assert_eq!(dice_from_figures(3, 4, 3), 1);
    assert_eq!(dice_from_figures(2, 4, 3), 0);
    // 7.9: a two-rank line rolls one per three, a remainder of two rounds up.
    assert_eq!(dice_from_figures(11, 3, 2), 4);
    assert_eq!(dice_from_figures(10, 3, 2), 3);
    // 4.1: cavalry in combat, one per three, a remainder of two rounds up.
    assert_eq!(dice_from_figures(14, 3, 2), 5);
    assert_eq!(dice_from_figures(13, 3, 2), 4);
}

#[test]
fn artillery_dice_follow_guns_and_crew() {
    let rules = rules();
    // 3.1: one die per actual gun, with 3 crew a model shoots 2 dice.
    assert_eq!(artillery_dice(&rules, 6, 4), 6);
    assert_eq!(artillery_dice(&rules, 6, 3), 6);
    // 2 crew: 1 die per model; 1 crew: none.
    assert_eq!(artillery_dice(&rules, 6, 2), 3);
    assert_eq!(artillery_dice(&rules, 6, 1), 0);
    // A destroyed gun costs a die: 5 guns are 2 + 2 + 1.
    assert_eq!(artillery_dice(&rules, 5, 4), 5);
    assert_eq!(artillery_dice(&rules, 5, 2), 3);
}

#[test]
fn musket_close_at_a_normal_target_hits_on_seven() {
    // 24 figures: 6 dice; 7, 8, 9, 10 hit: 0.4 each.
    let volley = fire(Weapon::Musket, RangeBand::Close, Target::Normal, 24, 0, false);
    assert_eq!(volley.dice(), 6);
    let dist = exact(&volley);
    close(dist.probability("hits", 0), 0.6f64.powi(6)); // 0.046656
    close(dist.probability("hits", 6), 0.4f64.powi(6)); // 0.004096
    close(dist.probability("hits", 1), 6.0 * 0.4 * 0.6f64.powi(5));
    close(dist.mean("hits"), 2.4);
}

#[test]
fn modifiers_move_the_score_and_natural_results_cap_them() {
    // +1 (grade A-B): 6 or more, 0.5. A modifier the wrong way round gives 0.3.
    close(fire(Weapon::Musket, RangeBand::Close, Target::Normal, 4, 1, false).chance(), 0.5);
    close(fire(Weapon::Musket, RangeBand::Close, Target::Normal, 4, -2, false).chance(), 0.2);
    // 1.12: however large the bonus, a natural 1 misses: 0.9.
    close(fire(Weapon::Musket, RangeBand::Close, Target::Normal, 4, 10, false).chance(), 0.9);
    // However large the penalty, a natural 10 hits: 0.1.
    close(fire(Weapon::Musket, RangeBand::Far, Target::Soft, 4, -10, false).chance(), 0.1);
}

#[test]
fn nil_means_no_die_hits_not_even_a_natural_ten() {
    let far_hard = fire(Weapon::Musket, RangeBand::Far, Target::Hard, 24, 5, false);
    close(far_hard.chance(), 0.0);
    close(exact(&far_hard).probability("hits", 0), 1.0);
    // Ballshot at skirmishers is NIL too.
    close(fire(Weapon::FieldGun, RangeBand::Ballshot, Target::Skirmish, 0, 3, false).chance(), 0.0);
}

#[test]
fn the_damaged_table_reads_as_the_issue_says() {
    // Canister of every gun: 6/9/9/10; ballshot 8/NIL/8 with hard 10, 10, 9.
    for gun in [Weapon::LightGun, Weapon::FieldGun, Weapon::HeavyGun] {
        for (target, chance) in
            [(Target::Normal, 0.5), (Target::Skirmish, 0.2), (Target::Soft, 0.2), (Target::Hard, 0.1)]
        {
            close(fire(gun, RangeBand::Canister, target, 0, 0, false).chance(), chance);
        }
        close(fire(gun, RangeBand::Ballshot, Target::Normal, 0, 0, false).chance(), 0.3);
        close(fire(gun, RangeBand::Ballshot, Target::Soft, 0, 0, false).chance(), 0.3);
    }
    close(fire(Weapon::LightGun, RangeBand::Ballshot, Target::Hard, 0, 0, false).chance(), 0.1);
    close(fire(Weapon::FieldGun, RangeBand::Ballshot, Target::Hard, 0, 0, false).chance(), 0.1);
    close(fire(Weapon::HeavyGun, RangeBand::Ballshot, Target::Hard, 0, 0, false).chance(), 0.2);
    // Rifles: close 8/8/8/9, far 9/10/10/10.
    close(fire(Weapon::Rifle, RangeBand::Close, Target::Skirmish, 4, 0, false).chance(), 0.3);
    close(fire(Weapon::Rifle, RangeBand::Far, Target::Hard, 4, 0, false).chance(), 0.1);
}

#[test]
fn only_ballshot_gets_the_dense_bonus() {
    // Ballshot at a dense normal target: 8 - 2 = 6 or more, 0.5.
    close(fire(Weapon::FieldGun, RangeBand::Ballshot, Target::Normal, 0, 0, true).chance(), 0.5);
    // Canister at a dense soft target stays at 9: 0.2.
    close(fire(Weapon::FieldGun, RangeBand::Canister, Target::Soft, 0, 0, true).chance(), 0.2);
    // Musket at a dense target stays at 7: 0.4.
    close(fire(Weapon::Musket, RangeBand::Close, Target::Normal, 4, 0, true).chance(), 0.4);
}

#[test]
fn bad_combinations_are_refused() {
    let rules = rules();
    assert!(Fire::new(&rules, Weapon::Musket, RangeBand::Canister, Target::Normal, 24, 0, 4, 0, false, false).is_err());
    assert!(Fire::new(&rules, Weapon::HeavyGun, RangeBand::Close, Target::Normal, 0, 6, 4, 0, false, false).is_err());
    assert!(
        Fire::new(&rules, Weapon::FieldGun, RangeBand::Ballshot, Target::Skirmish, 0, 6, 4, 0, true, false).is_err()
    );
}

#[test]
fn catalogue_keys_build_the_same_fire() {
    let brigades = ruleset("brigades").unwrap();
    let rules = (brigades.default_rules)();
    let scenario = brigades.scenario("fire").unwrap();
    // 12 guns crewed by 2 per model: 6 dice of ballshot at a dense target, 6 or more.
    let built = scenario
        .build_from_text(
            rules.as_ref(),
            [
                ("weapon", "heavy_gun"),
                ("range", "ballshot"),
                ("target", "normal"),
                ("guns", "12"),
                ("crew", "2"),
                ("dense", "true"),
            ],
        )
        .unwrap();
    let dist = exact(built.as_ref());
    close(dist.probability("hits", 0), 0.5f64.powi(6));
    // A two-rank line of 24 rolls 8 dice.
    let two_rank = scenario.build_from_text(rules.as_ref(), [("two_rank", "true"), ("modifier", "-1")]).unwrap();
    let dist = exact(two_rank.as_ref());
    close(dist.probability("hits", 8), 0.3f64.powi(8));
    assert!(scenario.build_from_text(rules.as_ref(), [("range", "ballshot")]).is_err());
}

#[test]
fn monte_carlo_agrees_with_the_exact_fire() {
    assert_agrees(&fire(Weapon::Musket, RangeBand::Close, Target::Normal, 24, 0, false), 1_000_000, 11);
    assert_agrees(&fire(Weapon::Rifle, RangeBand::Far, Target::Skirmish, 13, 3, false), 1_000_000, 12);
    assert_agrees(&fire(Weapon::HeavyGun, RangeBand::Ballshot, Target::Normal, 0, -1, true), 1_000_000, 13);
}

#[test]
fn counterbattery_effects_by_hand() {
    let brigades = ruleset("brigades").unwrap();
    let rules = (brigades.default_rules)();
    let scenario = brigades.scenario("counterbattery").unwrap();
    // Ballshot, 1 field gun die (2 crew, one model of 2 guns: 1 die), 8+: 0.3.
    // Effect: 1-7 miss (0.7), 8-9 gunner (0.2), 10 gun and gunner (0.1).
    let one = scenario.build_from_text(rules.as_ref(), [("guns", "2"), ("crew", "2")]).unwrap();
    let dist = exact(one.as_ref());
    close(dist.probability("hits", 1), 0.3);
    close(dist.probability("gunners", 1), 0.3 * 0.3);
    close(dist.probability("guns", 1), 0.3 * 0.1);
    // Limbered: +2, so 3-7 (roll 5-9)... 1-2 miss, 3-5 miss (ballshot), 6-7 gunner, 8-10 gun.
    let limbered =
        scenario.build_from_text(rules.as_ref(), [("guns", "2"), ("crew", "2"), ("limbered", "true")]).unwrap();
    let dist = exact(limbered.as_ref());
    close(dist.probability("guns", 1), 0.3 * 0.3);
    close(dist.probability("gunners", 1), 0.3 * 0.5);
    // Canister (or musketry): 1-4 miss, 5-10 a gunner, never a gun; limbered adds nothing.
    let canister = scenario
        .build_from_text(rules.as_ref(), [("guns", "2"), ("crew", "2"), ("range", "canister"), ("limbered", "true")])
        .unwrap();
    let dist = exact(canister.as_ref());
    close(dist.probability("hits", 1), 0.5);
    close(dist.probability("gunners", 1), 0.5 * 0.6);
    close(dist.probability("guns", 0), 1.0);
    let volley = scenario.build_from_text(rules.as_ref(), [("modifier", "1"), ("limbered", "true")]).unwrap();
    assert_agrees(volley.as_ref(), 1_000_000, 14);
}

#[test]
fn multi_unit_combats_split_dice_evenly() {
    use volley_kernel::rulesets::brigades::split_dice;
    // 4.5: 7 dice on two targets, 3 and 4, the odd die toward the most figures.
    assert_eq!(split_dice(7, &[4, 9]), vec![3, 4]);
    assert_eq!(split_dice(7, &[9, 4]), vec![4, 3]);
    assert_eq!(split_dice(5, &[2, 6, 4]), vec![1, 2, 2]);
    assert_eq!(split_dice(6, &[2, 6, 4]), vec![2, 2, 2]);
}

fn carry_through() -> volley_kernel::rulesets::brigades::Rules {
    volley_kernel::rulesets::brigades::Rules { optional_carry_through: true, ..rules() }
}

fn build_fire(rules: &volley_kernel::rulesets::brigades::Rules, pairs: &[(&str, &str)]) -> Box<dyn DynScenario> {
    ruleset("brigades").unwrap().scenario("fire").unwrap().build_from_text(rules, pairs.iter().copied()).unwrap()
}

fn joint(dist: &volley_kernel::outcome::Distribution, values: &[i64]) -> f64 {
    dist.joint.iter().filter(|j| j.values == values).map(|j| j.probability).sum()
}

use volley_kernel::scenario::DynScenario;

#[test]
fn carry_through_rolls_the_misses_again_at_the_rear_target() {
    // 7.8: 24 muskets at close range, 6 dice, hit a normal target on 7-10
    // (0.4). The six missing faces 1-6 (0.6) roll again at a normal target
    // 2" behind, 0.4: each die hits the rear with 0.6 * 0.4 = 0.24.
    let rules = carry_through();
    let dist = exact(build_fire(&rules, &[("rear", "true")]).as_ref());
    close(dist.probability("hits", 0), 0.6f64.powi(6));
    close(dist.probability("rear_hits", 0), 0.76f64.powi(6));
    close(dist.mean("rear_hits"), 6.0 * 0.24);
    // Joint: 2 hits, 1 rear hit, 3 dice lost: 6! / (2! 1! 3!) = 60 ways.
    close(joint(&dist, &[2, 1]), 60.0 * 0.4f64.powi(2) * 0.24 * 0.36f64.powi(3));
    // A natural 1 spent: faces 2-6 carry, 0.5 * 0.4 = 0.2 a die.
    let spent = volley_kernel::rulesets::brigades::Rules {
        carry_through_natural_ones: volley_kernel::rulesets::brigades::fire::CarryNaturalOnes::Spent,
        ..carry_through()
    };
    let dist = exact(build_fire(&spent, &[("rear", "true"), ("figures", "4")]).as_ref());
    close(dist.probability("rear_hits", 1), 0.2);
    // A rear target in soft cover needs 9: 0.6 * 0.2.
    let dist = exact(build_fire(&rules, &[("rear", "true"), ("figures", "4"), ("rear.target", "soft")]).as_ref());
    close(dist.probability("rear_hits", 1), 0.12);
    // The shooter's modifier counts again: at +1, the first needs 6 (0.5),
    // the rear too: 0.5 * 0.5.
    let dist = exact(build_fire(&rules, &[("rear", "true"), ("figures", "4"), ("modifier", "1")]).as_ref());
    close(dist.probability("rear_hits", 1), 0.25);
}

#[test]
fn carry_through_reaches_only_its_range() {
    let carry = carry_through();
    let rear = |pairs: &[(&str, &str)]| {
        let mut all = vec![("rear", "true"), ("figures", "4")];
        all.extend_from_slice(pairs);
        exact(build_fire(&carry, &all).as_ref()).probability("rear_hits", 1)
    };
    // Small arms 4": 0.24 at 4", nothing at 5".
    close(rear(&[("rear.distance", "4")]), 0.24);
    close(rear(&[("rear.distance", "5")]), 0.0);
    // Field gun ballshot 8", one gun of a 2-gun model with 2 crew: 1 die at
    // 8+ (0.3); the misses 0.7, then a dense rear target at 6+ (0.5).
    let gun = [("weapon", "field_gun"), ("range", "ballshot"), ("guns", "2"), ("crew", "2"), ("rear.dense", "true")];
    let mut at = gun.to_vec();
    at.push(("rear.distance", "8"));
    close(rear(&at), 0.7 * 0.5);
    at.push(("rear.distance", "9"));
    close(rear(&at), 0.0);
    // Light gun ballshot 6", heavy 10", canister 4.
    close(
        rear(&[("weapon", "light_gun"), ("range", "ballshot"), ("guns", "2"), ("crew", "2"), ("rear.distance", "6")]),
        0.21,
    );
    close(
        rear(&[("weapon", "light_gun"), ("range", "ballshot"), ("guns", "2"), ("crew", "2"), ("rear.distance", "7")]),
        0.0,
    );
    close(
        rear(&[("weapon", "heavy_gun"), ("range", "ballshot"), ("guns", "2"), ("crew", "2"), ("rear.distance", "10")]),
        0.21,
    );
    close(
        rear(&[("weapon", "heavy_gun"), ("range", "canister"), ("guns", "2"), ("crew", "2"), ("rear.distance", "5")]),
        0.0,
    );
    // Without the optional rule, a rear target is refused.
    let brigades = ruleset("brigades").unwrap();
    assert!(brigades.scenario("fire").unwrap().build_from_text(&rules(), [("rear", "true")]).is_err());
    // Skirmishers are never dense.
    assert!(
        brigades
            .scenario("fire")
            .unwrap()
            .build_from_text(&carry, [("rear", "true"), ("rear.target", "skirmish"), ("rear.dense", "true")])
            .is_err()
    );
}

#[test]
fn carry_through_past_a_nil_target() {
    // Ballshot at skirmishers is NIL: every die misses them (3.12: "as if
    // they were not there"), and carries to a normal target 8" behind at 8+.
    let rules = carry_through();
    let pairs = [
        ("weapon", "field_gun"),
        ("range", "ballshot"),
        ("target", "skirmish"),
        ("rear", "true"),
        ("rear.distance", "8"),
    ];
    let dist = exact(build_fire(&rules, &pairs).as_ref());
    close(dist.probability("hits", 0), 1.0);
    close(dist.probability("rear_hits", 0), 0.7f64.powi(6));
    let stopped = volley_kernel::rulesets::brigades::Rules {
        carry_through_nil: volley_kernel::rulesets::brigades::fire::CarryThroughNil::Stopped,
        ..carry_through()
    };
    close(exact(build_fire(&stopped, &pairs).as_ref()).probability("rear_hits", 0), 1.0);
    // Monte Carlo agrees with the exact law, with natural 1s spent too.
    assert_agrees(build_fire(&rules, &pairs).as_ref(), 1_000_000, 15);
    let spent = volley_kernel::rulesets::brigades::Rules {
        carry_through_natural_ones: volley_kernel::rulesets::brigades::fire::CarryNaturalOnes::Spent,
        ..carry_through()
    };
    let musket = [("rear", "true"), ("modifier", "-1"), ("rear.target", "soft")];
    assert_agrees(build_fire(&spent, &musket).as_ref(), 1_000_000, 16);
    assert_agrees(build_fire(&rules, &[("rear", "true")]).as_ref(), 1_000_000, 17);
}
