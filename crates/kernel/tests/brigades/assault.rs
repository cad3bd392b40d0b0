//! `assault` and `cavalry_charge`: a hand-worked charge on a square, the exact
//! solver against Monte Carlo, and the catalogue's keys.

use super::{close, exact, rules};
use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;
use volley_kernel::params::RuleBook;
use volley_kernel::rulesets::brigades::SquareChargedTest;
use volley_kernel::scenario::DynScenario;

const ATTACKER: i64 = 0;
const DEFENDER: i64 = 1;

fn build(scenario: &str, rules: &dyn RuleBook, pairs: &[(&str, &str)]) -> Box<dyn DynScenario> {
    let brigades = ruleset("brigades").unwrap();
    brigades.scenario(scenario).unwrap().build_from_text(rules, pairs.iter().copied()).unwrap()
}

fn binomial(n: u32, p: f64, k: u32) -> f64 {
    let choose = (0..k).fold(1.0, |c, i| c * f64::from(n - i) / f64::from(i + 1));
    choose * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
}

#[test]
fn cavalry_on_a_square_by_hand() {
    // 18 grade D heavy cavalry charge a 24-figure grade D square from 12".
    // Fire: one face, 6 figures, 1 die, musket close 7 at -1 (square): 0.3;
    // one hit never makes a test nor a quarter. The cavalry tests to charge
    // home against a steady square at -4: D10 7-10 passes, 0.4. The square,
    // charged by steady cavalry, tests at -4: 0.4 passes, 0.6 routs.
    // Combat: cavalry 18 (or 17) figures, 6 dice, at -3 (vs square) and -2
    // (disordered vs steady): only the natural 10, 0.1; the square, all four
    // faces, 6 dice at +3: 3-10, 0.8. The square loses when d > a and then
    // tests at -3, -1 per 2 hits, -2 per quarter lost (6 of 24).
    let dist = exact(build("cavalry_charge", &rules(), &[("defender.formation", "square"), ("turns", "1")]).as_ref());
    let mut square_loses_and_routs = 0.0;
    for a in 0..=6 {
        for d in (a + 1)..=6 {
            let modifier = -3 - (d / 2) as i32 - 2 * (d * 4 / 24) as i32;
            let fail = (1..=10).filter(|&r| r + modifier < 3).count() as f64 / 10.0;
            square_loses_and_routs += binomial(6, 0.8, a) * binomial(6, 0.1, d) * fail;
        }
    }
    close(dist.probability("defender_routed", 1), 0.4 * 0.6 + 0.4 * 0.4 * square_loses_and_routs);
    // With squares exempt from the test, only combat can rout it.
    let exempt = volley_kernel::rulesets::brigades::Rules { square_charged_test: SquareChargedTest::Exempt, ..rules() };
    let dist = exact(build("cavalry_charge", &exempt, &[("defender.formation", "square"), ("turns", "1")]).as_ref());
    close(dist.probability("defender_routed", 1), 0.4 * square_loses_and_routs);
}

#[test]
fn a_line_fares_worse_than_a_square_against_cavalry() {
    let line = exact(build("cavalry_charge", &rules(), &[("attacker.figures", "12"), ("defender.figures", "16")]).as_ref());
    let square = exact(
        build("cavalry_charge", &rules(), &[("attacker.figures", "12"), ("defender.figures", "16"), ("defender.formation", "square")])
            .as_ref(),
    );
    assert!(line.probability("winner", ATTACKER) > square.probability("winner", ATTACKER));
}

#[test]
fn a_column_charges_home_against_a_line() {
    // Better grades win more often; hard cover helps the defender.
    let p = |pairs: &[(&str, &str)]| exact(build("assault", &rules(), pairs).as_ref()).probability("winner", ATTACKER);
    let even = p(&[("attacker.figures", "16"), ("defender.figures", "16")]);
    let better = p(&[("attacker.figures", "16"), ("defender.figures", "16"), ("attacker.quality", "b")]);
    let covered = p(&[("attacker.figures", "16"), ("defender.figures", "16"), ("defender.cover", "hard")]);
    assert!(better > even && even > covered, "{better} {even} {covered}");
}

#[test]
fn the_exact_assault_agrees_with_monte_carlo() {
    let column = build("assault", &rules(), &[("attacker.figures", "16"), ("defender.figures", "16"), ("distance", "14")]);
    assert_agrees(column.as_ref(), 1_000_000, 51);
    let cavalry = build(
        "assault",
        &rules(),
        &[("attacker.arm", "cavalry"), ("attacker.figures", "12"), ("defender.figures", "16"), ("attacker.lancers", "true")],
    );
    assert_agrees(cavalry.as_ref(), 1_000_000, 52);
}

#[test]
fn the_exact_cavalry_charge_agrees_with_monte_carlo() {
    let danger = volley_kernel::rulesets::brigades::Rules { optional_danger_to_generals: true, ..rules() };
    let square = build(
        "cavalry_charge",
        &danger,
        &[("defender.formation", "square"), ("defender.figures", "16"), ("attacker.general", "attached"), ("defender.quality", "c")],
    );
    assert_agrees(square.as_ref(), 1_000_000, 53);
}

#[test]
fn catalogue_keys_are_checked() {
    let brigades = ruleset("brigades").unwrap();
    let rules = rules();
    let assault = brigades.scenario("assault").unwrap();
    assert!(assault.build_from_text(&rules, [("attacker.arm", "gunners")]).is_err());
    assert!(assault.build_from_text(&rules, [("defender.weapon", "field_gun")]).is_err());
    assert!(assault.build_from_text(&rules, [("defender.formation", "square")]).is_err());
    let charge = brigades.scenario("cavalry_charge").unwrap();
    assert!(charge.build_from_text(&rules, [("attacker.arm", "infantry")]).is_err());
    // A defender that cannot be beaten by a shattered charger: the winner sums to 1.
    let dist = exact(charge.build_from_text(&rules, [("turns", "3")]).unwrap().as_ref());
    let total: f64 = (0..3).map(|w| dist.probability("winner", w)).sum();
    close(total, 1.0);
    assert!(dist.probability("winner", DEFENDER) > 0.0);
}
