//! Skirmisher superiority and single bombardments: hand-worked odds, each
//! modifier's direction, and Monte Carlo against enumeration.

use super::assert_agrees;
use volley_kernel::catalogue;
use volley_kernel::rulesets::huzzah::assault::Guns;
use volley_kernel::rulesets::huzzah::bombardment::{Bombardment, Target};
use volley_kernel::rulesets::huzzah::skirmish::{Skirmish, SkirmishLine};
use volley_kernel::rulesets::huzzah::{BounceThrough, Officer, Quality, Rules};
use volley_kernel::scenario::DynScenario;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn equal_skirmish_lines_win_540_of_1296_each() {
    let rules = Rules::default();
    let skirmish = Skirmish::new(&rules, SkirmishLine::new(8), SkirmishLine::new(8)).unwrap();
    let exact = skirmish.exact_distribution().unwrap();
    // As an engagement of 8 against 8: both fail 100, equal margins 116 of 1296.
    assert!(close(exact.probability("result", 2), 216.0 / 1296.0));
    assert!(close(exact.probability("result", 0), 540.0 / 1296.0));
    assert!(close(exact.probability("attacker_huzzah", 1), 1.0 / 36.0));
    assert!(close(exact.probability("threat_zone_bonus", 1), 1080.0 / 1296.0));
    assert_agrees(&skirmish, 1_000_000, 71);
}

#[test]
fn skirmish_modifiers_move_the_rating_the_right_way() {
    let rules = Rules::default();
    let mut failed = SkirmishLine::new(8);
    failed.failed_previous = true;
    let mut winner = SkirmishLine::new(8);
    winner.won_previous = true;
    winner.reinforced = true;
    let skirmish = Skirmish::new(&rules, failed, winner).unwrap();
    assert_eq!(skirmish.ratings(), [7, 10]);
    let mut reduced = SkirmishLine::new(9);
    reduced.reductions = 2;
    assert_eq!(Skirmish::new(&rules, reduced, SkirmishLine::new(6)).unwrap().ratings(), [7, 6]);
    assert!(Skirmish::new(&rules, winner, winner).is_err());
    assert_agrees(&skirmish, 1_000_000, 72);
}

fn trained() -> Target {
    Target {
        quality: Quality::Trained,
        shifts: 0,
        disadvantaged: false,
        square: false,
        column: false,
        small: false,
        favourable: false,
        staggers: 0,
        kills: 0,
        officer: Officer::None,
    }
}

#[test]
fn bombardment_ranges_and_modifiers() {
    let rules = Rules::default();
    let passed = |target: Target, distance: i32| {
        let b = Bombardment::new(&rules, target, Guns::Medium, distance, false, 0).unwrap();
        b.exact_distribution().unwrap().probability("passed", 1)
    };
    // Medium guns: short 1-7, long 8-14, extreme 15-21 bands.
    // Long range, no modifiers: Trained 8, 26 of 36.
    assert!(close(passed(trained(), 10), 26.0 / 36.0));
    // Short range Down 1: Green 7, 21 of 36.
    assert!(close(passed(trained(), 7), 21.0 / 36.0));
    // Extreme range Up 1: Experienced 9, 30 of 36.
    assert!(close(passed(trained(), 15), 30.0 / 36.0));
    // A column at short range: Down 2, Raw 6, 15 of 36.
    let column = Target { column: true, ..trained() };
    assert!(close(passed(column, 3), 15.0 / 36.0));
    // A square is disadvantaged against artillery: 4, 6 of 36.
    let square = Target { square: true, ..trained() };
    assert!(close(passed(square, 10), 6.0 / 36.0));
    // A small unit gains Up 1 only at long or extreme range.
    let small = Target { small: true, ..trained() };
    assert!(close(passed(small, 10), 30.0 / 36.0));
    assert!(close(passed(small, 5), 21.0 / 36.0));
    // Beyond extreme range there is no bombardment.
    assert!(Bombardment::new(&rules, trained(), Guns::Medium, 22, false, 0).is_err());
    assert!(Bombardment::new(&rules, trained(), Guns::Heavy, 24, false, 0).is_ok());
    // Smoke on the battery: Up 1.
    let smoky = Bombardment::new(&rules, trained(), Guns::Medium, 10, true, 0).unwrap();
    assert_eq!(smoky.rating(), 9);
    assert_agrees(&Bombardment::new(&rules, column, Guns::Heavy, 8, false, 2).unwrap(), 1_000_000, 73);
}

#[test]
fn bounce_through_at_every_range_within_its_distance() {
    // "Bounce through": "Units that are beyond extreme range can be hit by
    // bounce through fire": a unit behind the target within the distance
    // (medium guns: 15cm, 3 bands) is hit whatever the target's range. The
    // issue's case, `behind=2 distance=10` (long range), bounces through;
    // the old reading (short range only) gave no bounce-through there.
    let bounce = |rules: &Rules, distance: i32, behind: i32| {
        let b = Bombardment::new(rules, trained(), Guns::Medium, distance, false, behind).unwrap();
        b.exact_distribution().unwrap().probability("bounce_through", 1)
    };
    let rules = Rules::default();
    assert!(close(bounce(&rules, 5, 3), 1.0));
    assert!(close(bounce(&rules, 5, 4), 0.0));
    assert!(close(bounce(&rules, 10, 2), 1.0));
    // Extreme range (15-21): the unit behind, at 21 + 3 = 24 bands, is
    // beyond extreme range and still hit.
    assert!(close(bounce(&rules, 21, 3), 1.0));
    assert!(close(bounce(&rules, 5, 0), 0.0));
    // The narrower reading: short range only.
    let short = Rules { bounce_through: BounceThrough::Short, ..Rules::default() };
    assert!(close(bounce(&short, 5, 3), 1.0));
    assert!(close(bounce(&short, 10, 2), 0.0));
    assert!(close(bounce(&short, 21, 3), 0.0));
}

#[test]
fn the_catalogue_builds_skirmish_and_bombardment() {
    let huzzah = catalogue::ruleset("huzzah").unwrap();
    let rules = (huzzah.default_rules)();
    let skirmish = huzzah
        .scenario("skirmish")
        .unwrap()
        .build_from_text(rules.as_ref(), [("attacker.rating", "10"), ("defender.rating", "6")])
        .unwrap();
    let exact = skirmish.exact_distribution().unwrap();
    assert!(exact.probability("result", 0) > exact.probability("result", 1));
    let bombardment = huzzah
        .scenario("bombardment")
        .unwrap()
        .build_from_text(rules.as_ref(), [("guns", "light"), ("distance", "18"), ("quality", "green")])
        .unwrap();
    // Light guns' extreme range reaches 18: Green Up 1 is Trained, 26 of 36.
    assert!(close(bombardment.exact_distribution().unwrap().probability("passed", 1), 26.0 / 36.0));
    assert!(
        huzzah
            .scenario("bombardment")
            .unwrap()
            .build_from_text(rules.as_ref(), [("guns", "light"), ("distance", "19")])
            .is_err()
    );
}
