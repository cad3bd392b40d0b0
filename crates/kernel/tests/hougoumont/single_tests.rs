//! small_arms, morale and artillery: single tests against hand-worked values
//! and Monte Carlo.

use super::{build, build_with, close, exact};
use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;
use volley_kernel::rulesets::hougoumont::{HowitzerAdjustment, HowitzerConsecutive, RoofHit, Rules};

#[test]
fn small_arms_hit_on_the_distance_or_more() {
    // 3.1: at 10 inches a line figure hits on 10-20: 11/20. Two figures:
    // P(0) = (9/20)^2 = 0.2025, P(1) = 2 * 11/20 * 9/20 = 0.495, P(2) = 0.3025.
    let two = exact(build("small_arms", &[("figures", "2"), ("distance", "10")]).as_ref());
    close(two.probability("hits", 0), 0.2025);
    close(two.probability("hits", 1), 0.495);
    close(two.probability("hits", 2), 0.3025);
}

#[test]
fn small_arms_bonuses_and_cover_move_the_need_the_right_way() {
    let one = |troops: &str, cover: &str, distance: &str| {
        exact(
            build("small_arms", &[("figures", "1"), ("distance", distance), ("troops", troops), ("cover", cover)])
                .as_ref(),
        )
        .probability("hits", 1)
    };
    // Light +2 to the roll: at 10 hits on 8+, 13/20. Rifles +5: 5+, 16/20.
    close(one("light", "open", "10"), 13.0 / 20.0);
    close(one("rifles", "open", "10"), 16.0 / 20.0);
    // Woods: 2 more needed, 12+: 9/20. Walls: 10 more, 20: 1/20; at 11 inches, never.
    close(one("line", "woods", "10"), 9.0 / 20.0);
    close(one("line", "walls", "10"), 1.0 / 20.0);
    close(one("line", "walls", "11"), 0.0);
    // A bonus with the wrong sign would make this impossible: light at 22 needs 20.
    close(one("light", "open", "22"), 1.0 / 20.0);
    // Rifles behind walls at 15: 15 + 10 - 5 = 20: 1/20.
    close(one("rifles", "walls", "15"), 1.0 / 20.0);
    // At 1 inch every figure hits.
    close(one("line", "open", "1"), 1.0);
}

#[test]
fn small_arms_monte_carlo_agrees() {
    assert_agrees(build("small_arms", &[]).as_ref(), 1_000_000, 11);
    assert_agrees(
        build("small_arms", &[("troops", "rifles"), ("cover", "woods"), ("distance", "14")]).as_ref(),
        1_000_000,
        12,
    );
}

#[test]
fn morale_passes_on_the_threshold_with_quality_modifiers() {
    let pass = |quality: &str, modifier: &str| {
        exact(build("morale", &[("quality", quality), ("modifier", modifier)]).as_ref()).probability("passed", 1)
    };
    // Threshold 10: Experienced passes on 10-20 (11/20); Inexperienced -2 needs
    // 12 (9/20); Veteran +2 needs 8 (13/20); Elite +4 needs 6 (15/20).
    close(pass("experienced", "0"), 11.0 / 20.0);
    close(pass("inexperienced", "0"), 9.0 / 20.0);
    close(pass("veteran", "0"), 13.0 / 20.0);
    close(pass("elite", "0"), 15.0 / 20.0);
    close(pass("experienced", "3"), 14.0 / 20.0);
    close(pass("elite", "-15"), 0.0);
    close(pass("inexperienced", "12"), 1.0);
    // The threshold is a rule: 15 makes Experienced pass on 15-20.
    let rules = Rules { morale_threshold: 15, ..Rules::default() };
    close(exact(build_with(&rules, "morale", &[]).as_ref()).probability("passed", 1), 6.0 / 20.0);
    assert_agrees(build("morale", &[("quality", "inexperienced")]).as_ref(), 1_000_000, 13);
}

/// Counts of 3D20 sums at least `target`, by enumerating all 8000 rolls.
fn three_d20_at_least(target: u32) -> f64 {
    let mut count = 0;
    for a in 1..=20 {
        for b in 1..=20 {
            for c in 1..=20 {
                count += u32::from(a + b + c >= target);
            }
        }
    }
    f64::from(count) / 8000.0
}

#[test]
fn flat_trajectory_hits_on_three_d20_and_penetrates_with_nine_more() {
    // 3.2: at 31 inches, P(3D20 >= 31) = 4300/8000 (stars and bars, see pmf.rs).
    let open = exact(build("artillery", &[("kind", "flat"), ("distance", "31")]).as_ref());
    close(open.probability("hits", 1), 4300.0 / 8000.0);
    close(open.probability("penetrated", 1), 0.0);
    close(open.probability("fire", 1), 0.0);
    // 6: at 22 inches a building is penetrated on 31 or more; only that hurts
    // those inside, and a D6 of 5-6 sets it alight: 4300/8000 / 3.
    let building = exact(build("artillery", &[("kind", "flat"), ("distance", "22"), ("target", "building")]).as_ref());
    close(building.probability("penetrated", 1), 4300.0 / 8000.0);
    close(building.probability("hits", 1), 4300.0 / 8000.0);
    close(building.probability("fire", 1), 4300.0 / 8000.0 / 3.0);
    // Independently enumerated: penetration at 40 inches needs 49.
    let far = exact(build("artillery", &[("kind", "flat"), ("distance", "40"), ("target", "building")]).as_ref());
    close(far.probability("penetrated", 1), three_d20_at_least(49));
    // With `building_hits = any_hit`, a non-penetrating hit also counts.
    let rules = Rules { building_hits: volley_kernel::rulesets::hougoumont::BuildingHits::AnyHit, ..Rules::default() };
    let any = exact(
        build_with(&rules, "artillery", &[("kind", "flat"), ("distance", "22"), ("target", "building")]).as_ref(),
    );
    close(any.probability("hits", 1), three_d20_at_least(22));
}

#[test]
fn howitzer_direct_hits_near_misses_and_crew_adjustment() {
    let howitzer = |crew: &str, consecutive: &str| {
        exact(
            build(
                "artillery",
                &[("kind", "howitzer"), ("distance", "12"), ("crew", crew), ("consecutive", consecutive)],
            )
            .as_ref(),
        )
    };
    // Regular: 7 (6/36) a direct hit for D4, each 1/24; 6 or 8 (10/36) one hit.
    let regular = howitzer("regular", "false");
    close(regular.probability("direct_hit", 1), 6.0 / 36.0);
    close(regular.probability("hits", 0), 20.0 / 36.0);
    close(regular.probability("hits", 1), 10.0 / 36.0 + 1.0 / 24.0);
    close(regular.probability("hits", 4), 1.0 / 24.0);
    // Veteran moves 1 towards 7: 6-8 direct (16/36), 5 or 9 one off (8/36).
    let veteran = howitzer("veteran", "false");
    close(veteran.probability("direct_hit", 1), 16.0 / 36.0);
    close(veteran.probability("hits", 1), 8.0 / 36.0 + 16.0 / 36.0 / 4.0);
    // Elite 2: 5-9 direct (24/36), 4 or 10 one off (6/36).
    close(howitzer("elite", "false").probability("direct_hit", 1), 24.0 / 36.0);
    close(howitzer("elite", "false").probability("hits", 0), 6.0 / 36.0);
    // Elite on a consecutive turn, 3: 4-10 direct (30/36); 3 or 11 one off
    // (4/36); only 2 and 12 (2/36) miss.
    let elite_again = howitzer("elite", "true");
    close(elite_again.probability("direct_hit", 1), 30.0 / 36.0);
    close(elite_again.probability("hits", 0), 2.0 / 36.0);
    // Regular on a consecutive turn is a veteran's adjustment.
    close(howitzer("regular", "true").probability("direct_hit", 1), 16.0 / 36.0);
    // The literal reading, +1 to the 2D6: a regular crew's direct hit is a
    // roll of 6 (5/36), its near misses 5 or 7 (4/36 + 6/36); a veteran moves
    // the shifted roll 1 towards 7, so 5-7 are direct (4 + 5 + 6 = 15/36).
    let literal = Rules { howitzer_consecutive: HowitzerConsecutive::RollPlusOne, ..Rules::default() };
    let shifted = |crew: &str| {
        let pairs = [("kind", "howitzer"), ("distance", "12"), ("crew", crew), ("consecutive", "true")];
        exact(build_with(&literal, "artillery", &pairs).as_ref())
    };
    close(shifted("regular").probability("direct_hit", 1), 5.0 / 36.0);
    close(shifted("regular").probability("hits", 0), 1.0 - 5.0 / 36.0 - 10.0 / 36.0);
    close(shifted("veteran").probability("direct_hit", 1), 15.0 / 36.0);
    // Not a consecutive turn: the readings agree.
    let first = [("kind", "howitzer"), ("distance", "12")];
    close(exact(build_with(&literal, "artillery", &first).as_ref()).probability("direct_hit", 1), 6.0 / 36.0);
    // With the adjustment ignored, an elite crew is a regular one.
    let rules = Rules { howitzer_adjustment: HowitzerAdjustment::Ignored, ..Rules::default() };
    let ignored =
        exact(build_with(&rules, "artillery", &[("kind", "howitzer"), ("distance", "12"), ("crew", "elite")]).as_ref());
    close(ignored.probability("direct_hit", 1), 6.0 / 36.0);
}

#[test]
fn howitzer_roof_and_fire() {
    // 6: the first direct hit blows the roof off without damage, then the fire
    // check: fire = 6/36 * 1/3 = 1/18. "Subsequent hits calculate regular
    // howitzer damage": under the intact roof a near miss (6 or 8, 10/36)
    // kills no one either (it killed one before issue 16, hits = 1 with 10/36).
    let roof = exact(build("artillery", &[("kind", "howitzer"), ("distance", "12"), ("target", "building")]).as_ref());
    close(roof.probability("fire", 1), 1.0 / 18.0);
    close(roof.probability("hits", 1), 0.0);
    close(roof.probability("hits", 0), 1.0);
    // Reading `roof_and_damage`, every hit does its damage: near misses hit once again.
    let rules = Rules { roof_hit: RoofHit::RoofAndDamage, ..Rules::default() };
    let damage = exact(
        build_with(&rules, "artillery", &[("kind", "howitzer"), ("distance", "12"), ("target", "building")]).as_ref(),
    );
    close(damage.probability("hits", 1), 10.0 / 36.0 + 6.0 / 36.0 / 4.0);
    // Roof already off: D4 damage, same fire chance.
    let open_roof = exact(
        build(
            "artillery",
            &[("kind", "howitzer"), ("distance", "12"), ("target", "building"), ("roof_intact", "false")],
        )
        .as_ref(),
    );
    close(open_roof.probability("hits", 3), 1.0 / 24.0);
    close(open_roof.probability("fire", 1), 1.0 / 18.0);
    // roof_and_damage: the first direct hit also does D4.
    let rules = Rules { roof_hit: RoofHit::RoofAndDamage, ..Rules::default() };
    let both = exact(
        build_with(&rules, "artillery", &[("kind", "howitzer"), ("distance", "12"), ("target", "building")]).as_ref(),
    );
    close(both.probability("hits", 4), 1.0 / 24.0);
}

#[test]
fn howitzer_minimum_range_is_a_clear_error() {
    let entry = ruleset("hougoumont").unwrap();
    let scenario = entry.scenario("artillery").unwrap();
    let error = scenario
        .build_from_text(&Rules::default(), [("kind", "howitzer"), ("distance", "6")])
        .err()
        .expect("6 inches is inside the minimum range");
    assert_eq!(
        error.to_string(),
        "`distance`: a howitzer cannot fire at 6 inches: its minimum range is 7 inches (3.2)"
    );
    assert!(scenario.build_from_text(&Rules::default(), [("kind", "howitzer"), ("distance", "7")]).is_ok());
    // Canister reaches 20 inches, no more.
    assert!(scenario.build_from_text(&Rules::default(), [("kind", "canister"), ("distance", "21")]).is_err());
    assert!(scenario.build_from_text(&Rules::default(), [("kind", "canister"), ("distance", "20")]).is_ok());
}

#[test]
fn canister_rolls_a_d8_or_a_d6_against_cover() {
    let canister = |target: &str| {
        exact(build("artillery", &[("kind", "canister"), ("distance", "10"), ("target", target)]).as_ref())
    };
    let open = canister("open");
    close(open.probability("hits", 8), 1.0 / 8.0);
    close(open.mean("hits"), 4.5);
    let woods = canister("woods");
    close(woods.probability("hits", 6), 1.0 / 6.0);
    close(woods.probability("hits", 7), 0.0);
    close(canister("building").mean("hits"), 3.5);
    close(open.probability("fire", 1), 0.0);
}

#[test]
fn artillery_monte_carlo_agrees() {
    for (seed, pairs) in [
        (21, vec![("kind", "flat"), ("distance", "25"), ("target", "building")]),
        (
            22,
            vec![
                ("kind", "howitzer"),
                ("distance", "10"),
                ("target", "building"),
                ("crew", "veteran"),
                ("consecutive", "true"),
            ],
        ),
        (23, vec![("kind", "howitzer"), ("distance", "10"), ("roof_intact", "false"), ("target", "building")]),
        (24, vec![("kind", "canister"), ("distance", "15"), ("target", "woods")]),
        (25, vec![("kind", "flat"), ("distance", "30")]),
    ] {
        assert_agrees(build("artillery", &pairs).as_ref(), 1_000_000, seed);
    }
}

#[test]
fn artillery_tables_are_pinned() {
    // Value stability: the exact tables of each kind at 12 inches (checked by
    // hand above for the howitzer and canister; flat at 12 hits unless 3D20 <= 11,
    // C(11, 3) = 165 of 8000: 0.979375; at a building it penetrates on 21+,
    // all but C(20, 3) = 1140: 0.8575, and burns a third of those). "+ 0.0"
    // turns the -0.0 of an empty sum into 0.
    let mut lines = Vec::new();
    for (kind, target) in
        [("flat", "open"), ("flat", "building"), ("howitzer", "open"), ("howitzer", "building"), ("canister", "woods")]
    {
        let dist = exact(build("artillery", &[("kind", kind), ("distance", "12"), ("target", target)]).as_ref());
        let hits: Vec<String> = dist.marginal(0).iter().map(|r| format!("{}:{:.6}", r.value, r.probability)).collect();
        lines.push(format!(
            "{kind} {target}: hits {} | penetrated {:.6} direct {:.6} fire {:.6}",
            hits.join(" "),
            dist.probability("penetrated", 1) + 0.0,
            dist.probability("direct_hit", 1) + 0.0,
            dist.probability("fire", 1) + 0.0
        ));
    }
    expect_test::expect![[r#"
        flat open: hits 0:0.020625 1:0.979375 | penetrated 0.000000 direct 0.000000 fire 0.000000
        flat building: hits 0:0.142500 1:0.857500 | penetrated 0.857500 direct 0.000000 fire 0.285833
        howitzer open: hits 0:0.555556 1:0.319444 2:0.041667 3:0.041667 4:0.041667 | penetrated 0.000000 direct 0.166667 fire 0.000000
        howitzer building: hits 0:1.000000 | penetrated 0.000000 direct 0.166667 fire 0.055556
        canister woods: hits 1:0.166667 2:0.166667 3:0.166667 4:0.166667 5:0.166667 6:0.166667 | penetrated 0.000000 direct 0.000000 fire 0.000000"#]].assert_eq(&lines.join("\n"));
}
