//! firefight (Markov exact solver), assault and farm_assault: hand-worked
//! small cases, Monte Carlo against the chain, and directions of effect.

use super::{build, build_with, close, exact};
use volley_kernel::check::{Z_TOLERANCE, assert_agrees};
use volley_kernel::outcome::Distribution;
use volley_kernel::rulesets::hougoumont::{BurningBuilding, Rules};
use volley_kernel::runner::RunOptions;
use volley_kernel::scenario::DynScenario;

fn simulate(scenario: &dyn DynScenario, samples: u64, seed: u64) -> Distribution {
    scenario.simulate(&RunOptions::new(samples, seed)).unwrap()
}

/// Asserts a Monte Carlo probability is within the kernel's tolerance of `p`.
#[track_caller]
fn near(dist: &Distribution, metric: &str, value: i64, p: f64) {
    let n = dist.samples().unwrap() as f64;
    let q = dist.probability(metric, value);
    let sigma = (p * (1.0 - p) / n).sqrt().max(1e-12);
    assert!((q - p).abs() <= Z_TOLERANCE * sigma, "{metric} = {value}: Monte Carlo {q}, expected {p}");
}

#[test]
fn firefight_one_figure_each_trades_shots_at_twenty_inches() {
    // At 20 inches each figure hits on a 20 (1/20). No losses bring no test, so
    // each turn the attacker alone hits with 19/400, the defender alone 19/400,
    // both (destroyed together, none) 1/400, neither 361/400. Over 3 turns:
    // P(attacker) = 19/400 * (1 + 361/400 + (361/400)^2).
    let fight =
        build("firefight", &[("attacker.figures", "1"), ("defender.figures", "1"), ("distance", "20"), ("turns", "3")]);
    let dist = exact(fight.as_ref());
    let carry = 361.0 / 400.0;
    let attacker = 19.0 / 400.0 * (1.0 + carry + carry * carry);
    close(dist.probability("winner", 0), attacker);
    close(dist.probability("winner", 1), attacker);
    close(dist.probability("turns", 3), carry * carry);
    // The attacker keeps its figure when it wins or no one hits for 3 turns:
    // 19/39 (1 - c^3) + c^3 = 1 - 20/39 (1 - c^3), with c = 361/400.
    close(dist.probability("attacker_remaining", 100), 1.0 - (1.0 - carry.powi(3)) * (20.0 / 39.0));
    assert_agrees(fight.as_ref(), 1_000_000, 41);
}

#[test]
fn firefight_a_quarter_lost_tests_and_a_failure_past_the_edge_leaves() {
    // Attacker 1 figure, defender 4, 20 inches, edge 0 (one retreat leaves),
    // one turn. The defender's 4 shots destroy the attacker with 1 - (19/20)^4;
    // otherwise an attacker hit (1/20) costs the defender 1 of 4, 25%: it tests
    // and fails on 1-9 (9/20), retreats past its edge, and the attacker wins.
    let fight = build(
        "firefight",
        &[("attacker.figures", "1"), ("defender.figures", "4"), ("distance", "20"), ("edge", "0"), ("turns", "1")],
    );
    let dist = exact(fight.as_ref());
    let survive = (19.0f64 / 20.0).powi(4);
    close(dist.probability("winner", 1), 1.0 - survive);
    close(dist.probability("winner", 0), survive * (1.0 / 20.0) * (9.0 / 20.0));
    // The attacker's shot lands (1/20) whether or not it is destroyed too: both fire at once.
    close(dist.probability("defender_remaining", 75), 1.0 / 20.0);
    // With an 8-inch edge the first retreat stays on the table: no winner in one turn.
    let stays = build(
        "firefight",
        &[("attacker.figures", "1"), ("defender.figures", "4"), ("distance", "20"), ("edge", "8"), ("turns", "1")],
    );
    close(exact(stays.as_ref()).probability("winner", 0), 0.0);
}

#[test]
fn firefight_monte_carlo_agrees_with_the_markov_chain() {
    assert_agrees(
        build("firefight", &[("attacker.figures", "6"), ("defender.figures", "6"), ("distance", "12")]).as_ref(),
        1_000_000,
        42,
    );
    assert_agrees(
        build(
            "firefight",
            &[
                ("attacker.figures", "8"),
                ("attacker.troops", "rifles"),
                ("attacker.quality", "elite"),
                ("defender.figures", "10"),
                ("defender.cover", "woods"),
                ("defender.quality", "inexperienced"),
                ("distance", "16"),
                ("edge", "24"),
                ("turns", "12"),
            ],
        )
        .as_ref(),
        1_000_000,
        43,
    );
}

#[test]
fn firefight_exact_solver_stops_at_large_units() {
    assert!(
        build("firefight", &[("attacker.figures", "30"), ("defender.figures", "30")]).exact_distribution().is_none()
    );
    let dist = simulate(build("firefight", &[]).as_ref(), 100_000, 44);
    let total: f64 = (0..3).map(|w| dist.probability("winner", w)).sum();
    close(total, 1.0);
}

#[test]
fn assault_one_figure_each_charging_at_once() {
    // 10 inches is within infantry's 8 plus the 2-inch charge: contact in turn 1,
    // so no fire (artillery never fires into melee; no closing volley by default).
    // One melee round as in the melee tests: each side kills the other's only
    // figure with 81/400; otherwise the loser lost nothing and does not test.
    let assault = build(
        "assault",
        &[
            ("attacker.figures", "1"),
            ("defender.figures", "1"),
            ("distance", "10"),
            ("defender.guns", "2"),
            ("turns", "1"),
        ],
    );
    let dist = simulate(assault.as_ref(), 400_000, 45);
    near(&dist, "winner", 0, 81.0 / 400.0);
    near(&dist, "winner", 1, 81.0 / 400.0);
    near(&dist, "winner", 2, 238.0 / 400.0);
    // At 11 inches the charge falls short: the attacker moves to 3 inches and
    // takes canister (D8 >= 1 kills its figure): the defender always wins.
    let short = build(
        "assault",
        &[
            ("attacker.figures", "1"),
            ("defender.figures", "1"),
            ("distance", "11"),
            ("defender.guns", "1"),
            ("turns", "1"),
        ],
    );
    close(simulate(short.as_ref(), 10_000, 46).probability("winner", 1), 1.0);
}

#[test]
fn assault_better_attackers_win_more() {
    // Charging from 10 inches (no approach fire), quality decides the melee.
    let win = |quality: &str| {
        let pairs = [("attacker.quality", quality), ("distance", "10")];
        simulate(build("assault", &pairs).as_ref(), 100_000, 47).probability("winner", 0)
    };
    let (green, elite) = (win("inexperienced"), win("elite"));
    assert!(elite > green + 0.05, "elite {elite}, inexperienced {green}");
    // From 20 inches cavalry charges at once (16 + 4); infantry first walks
    // into two volleys at 12 inches and dies: small arms at 12 hit on 12+.
    let arm = |arm: &str| {
        let pairs = [("attacker.arm", arm), ("distance", "20"), ("defender.guns", "0")];
        simulate(build("assault", &pairs).as_ref(), 100_000, 48).probability("winner", 0)
    };
    let (cavalry, infantry) = (arm("cavalry"), arm("infantry"));
    assert!(cavalry > infantry + 0.2, "cavalry {cavalry}, infantry {infantry}");
}

#[test]
fn farm_assault_fire_drives_the_defenders_out() {
    let farm = simulate(build("farm_assault", &[]).as_ref(), 200_000, 49);
    let fire = farm.probability("fire", 1);
    assert!(fire > 0.05, "fire {fire}");
    // Buildings that never burn (a D6 of 7 needed) keep their defenders longer.
    let rules = Rules { fire_at_least: 7, ..Rules::default() };
    let fireproof = simulate(build_with(&rules, "farm_assault", &[]).as_ref(), 200_000, 49);
    close(fireproof.probability("fire", 1), 0.0);
    assert!(fireproof.probability("winner", 0) < farm.probability("winner", 0));
    // When fire does nothing, the fire metric still counts it but the win rate drops.
    let rules = Rules { burning_building: BurningBuilding::NoEffect, ..Rules::default() };
    let no_effect = simulate(build_with(&rules, "farm_assault", &[]).as_ref(), 200_000, 50);
    assert!(no_effect.probability("winner", 0) < farm.probability("winner", 0));
    // With no guns nothing burns and no roof comes off.
    let no_guns = simulate(build("farm_assault", &[("attacker.guns", "0")]).as_ref(), 50_000, 51);
    close(no_guns.probability("fire", 1), 0.0);
    close(no_guns.probability("roof", 1), 0.0);
}

#[test]
fn farm_assault_refuses_canister_and_close_howitzers() {
    let entry = volley_kernel::catalogue::ruleset("hougoumont").unwrap();
    let farm = entry.scenario("farm_assault").unwrap();
    let error = farm.build_from_text(&Rules::default(), [("attacker.artillery", "canister")]).err().unwrap();
    assert!(error.to_string().starts_with("`attacker.artillery`"), "{error}");
    let error = farm.build_from_text(&Rules::default(), [("gun_distance", "5")]).err().unwrap();
    assert!(error.to_string().contains("minimum range is 7"), "{error}");
}

#[test]
fn firefight_interpretations_agree_with_their_chains_and_matter() {
    use volley_kernel::rulesets::hougoumont::{HalfStrengthTest, RalliedUnits};
    let pairs = [("attacker.figures", "6"), ("defender.figures", "5"), ("distance", "10"), ("turns", "15")];
    let every = Rules { half_strength_test: HalfStrengthTest::EveryTurn, ..Rules::default() };
    let stand = Rules { rallied_units: RalliedUnits::Stand, ..Rules::default() };
    assert_agrees(build_with(&every, "firefight", &pairs).as_ref(), 1_000_000, 52);
    assert_agrees(build_with(&stand, "firefight", &pairs).as_ref(), 1_000_000, 53);
    let none = |rules: &Rules| exact(build_with(rules, "firefight", &pairs).as_ref()).probability("winner", 2);
    // Rallied units that stand drift out of range: more fights reach the limit.
    assert!(none(&stand) > none(&Rules::default()) + 0.01, "{} {}", none(&stand), none(&Rules::default()));
    // Testing every turn below half breaks units sooner: fewer undecided fights.
    assert!(none(&every) < none(&Rules::default()), "{} {}", none(&every), none(&Rules::default()));
}

#[test]
fn assault_closing_volley_and_woods() {
    use volley_kernel::rulesets::hougoumont::ClosingVolley;
    // One figure each, charge from 10 inches. With a closing volley the defender
    // fires first at 10 inches: it kills the attacker with 11/20; otherwise the
    // melee as before: P(defender) = 11/20 + 9/20 * 81/400, P(attacker) = 9/20 * 81/400.
    let one = [
        ("attacker.figures", "1"),
        ("defender.figures", "1"),
        ("distance", "10"),
        ("defender.guns", "0"),
        ("turns", "1"),
    ];
    let rules = Rules { closing_volley: ClosingVolley::AtChargeStart, ..Rules::default() };
    let volley = simulate(build_with(&rules, "assault", &one).as_ref(), 400_000, 54);
    near(&volley, "winner", 1, 11.0 / 20.0 + 9.0 / 20.0 * 81.0 / 400.0);
    near(&volley, "winner", 0, 9.0 / 20.0 * 81.0 / 400.0);
    // Through woods infantry moves half, 4 + 2 < 10: it stops at 6 inches and
    // takes the volley at 6 with 2 more needed, 8+: 13/20 kills it.
    let woods = [
        ("ground", "woods"),
        ("attacker.figures", "1"),
        ("defender.figures", "1"),
        ("distance", "10"),
        ("defender.guns", "0"),
        ("turns", "1"),
    ];
    let slowed = simulate(build("assault", &woods).as_ref(), 400_000, 55);
    near(&slowed, "winner", 1, 13.0 / 20.0);
    near(&slowed, "winner", 0, 0.0);
    // Light infantry has no penalty in woods: 8 + 2 reaches contact.
    let mut light = woods.to_vec();
    light.push(("attacker.arm", "light_infantry"));
    let light = simulate(build("assault", &light).as_ref(), 400_000, 56);
    near(&light, "winner", 0, 81.0 / 400.0);
    // Cavalry cannot enter woods.
    let entry = volley_kernel::catalogue::ruleset("hougoumont").unwrap();
    let error = entry
        .scenario("assault")
        .unwrap()
        .build_from_text(&Rules::default(), [("ground", "woods"), ("attacker.arm", "cavalry")])
        .err()
        .unwrap();
    assert!(error.to_string().contains("cavalry cannot enter woods"), "{error}");
}

#[test]
fn farm_assault_one_turn_of_bombardment_by_hand() {
    // One flat gun 1 inch from the farm penetrates on 3D20 >= 10: all but the
    // C(9, 3) = 84 of 8000 rolls summing to 9 or less. A penetration removes one
    // of the 2 defenders and sets the building alight on 5-6 (1/3). The attacker
    // (1 figure) moves from 30 to 22 inches; the light infantry defenders fire
    // at 22 needing a 20 (22 - 2) per figure. If the attacker survives and the
    // building burns, the defenders evacuate (attacker wins); if it does not
    // burn, the defenders, having lost 50%, test morale as Veterans (need 8:
    // fail 7/20) and a failure gives up the farm.
    let pairs = [
        ("attacker.figures", "1"),
        ("defender.figures", "2"),
        ("attacker.guns", "1"),
        ("attacker.artillery", "flat"),
        ("gun_distance", "1"),
        ("distance", "30"),
        ("turns", "1"),
    ];
    let dist = simulate(build("farm_assault", &pairs).as_ref(), 400_000, 57);
    let pen = 7916.0 / 8000.0;
    near(&dist, "winner", 0, pen * (19.0 / 20.0) * (1.0 / 3.0 + 2.0 / 3.0 * 7.0 / 20.0));
    near(&dist, "winner", 1, pen / 20.0 + (1.0 - pen) * (1.0 - (19.0f64 / 20.0).powi(2)));
    near(&dist, "fire", 1, pen / 3.0);
    near(&dist, "roof", 1, 0.0);
}

#[test]
fn assault_monte_carlo_agrees_with_the_markov_chain() {
    use volley_kernel::rulesets::hougoumont::ClosingVolley;
    let pairs = [("attacker.figures", "6"), ("defender.figures", "5"), ("distance", "20"), ("turns", "10")];
    assert_agrees(build("assault", &pairs).as_ref(), 1_000_000, 58);
    let rules = Rules { closing_volley: ClosingVolley::AtChargeStart, ..Rules::default() };
    let woods = [
        ("attacker.figures", "8"),
        ("attacker.arm", "light_infantry"),
        ("attacker.quality", "elite"),
        ("defender.figures", "4"),
        ("ground", "woods"),
        ("distance", "18"),
        ("edge", "16"),
        ("turns", "8"),
    ];
    assert_agrees(build_with(&rules, "assault", &woods).as_ref(), 1_000_000, 59);
    // The one-figure charge worked by hand above, now exactly.
    let one = [("attacker.figures", "1"), ("defender.figures", "1"), ("distance", "10"), ("turns", "1")];
    let dist = exact(build("assault", &one).as_ref());
    close(dist.probability("winner", 0), 81.0 / 400.0);
    close(dist.probability("winner", 2), 238.0 / 400.0);
}

#[test]
fn farm_assault_monte_carlo_agrees_with_the_markov_chain() {
    let pairs = [
        ("attacker.figures", "8"),
        ("defender.figures", "4"),
        ("attacker.guns", "2"),
        ("attacker.crew", "veteran"),
        ("distance", "20"),
        ("turns", "8"),
    ];
    assert_agrees(build("farm_assault", &pairs).as_ref(), 1_000_000, 60);
    let rules = Rules { burning_building: BurningBuilding::MoraleTest, ..Rules::default() };
    let mut flat = pairs.to_vec();
    flat.push(("attacker.artillery", "flat"));
    flat.push(("gun_distance", "12"));
    assert_agrees(build_with(&rules, "farm_assault", &flat).as_ref(), 1_000_000, 61);
    // The bombardment worked by hand above, now exactly.
    let by_hand = [
        ("attacker.figures", "1"),
        ("defender.figures", "2"),
        ("attacker.guns", "1"),
        ("attacker.artillery", "flat"),
        ("gun_distance", "1"),
        ("distance", "30"),
        ("turns", "1"),
    ];
    let dist = exact(build("farm_assault", &by_hand).as_ref());
    let pen = 7916.0 / 8000.0;
    close(dist.probability("winner", 0), pen * (19.0 / 20.0) * (1.0 / 3.0 + 2.0 / 3.0 * 7.0 / 20.0));
    close(dist.probability("fire", 1), pen / 3.0);
}
