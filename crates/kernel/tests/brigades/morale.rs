//! `morale`: pass scores by grade, modifiers without natural results, the rout table.

use super::{close, exact, rules};
use volley_kernel::catalogue::ruleset;
use volley_kernel::check::assert_agrees;
use volley_kernel::rulesets::brigades::morale::Morale;
use volley_kernel::rulesets::brigades::{Grade, RoutRow};

// outcome codes: pass, rout_18, rout_12, rout_8, rout_6, rout_4, shattered.
const PASS: i64 = 0;
const ROUT_18: i64 = 1;
const ROUT_12: i64 = 2;
const ROUT_8: i64 = 3;
const ROUT_6: i64 = 4;
const ROUT_4: i64 = 5;
const SHATTERED: i64 = 6;

#[test]
fn grade_d_passes_on_three_and_routs_by_the_table() {
    // 5.5: D needs 3: 3-10 pass, 0.8. Failing (0.2), the rout D10 + 0:
    // 1-2 18" (0.2), 3-4 12" (0.2), 5-7 8" (0.3), 8-9 6" (0.2), 10 4" (0.1).
    let dist = exact(&Morale::new(&rules(), Grade::D, 0, 0, 24).unwrap());
    close(dist.probability("passed", 1), 0.8);
    close(dist.probability("outcome", ROUT_18), 0.04);
    close(dist.probability("outcome", ROUT_12), 0.04);
    close(dist.probability("outcome", ROUT_8), 0.06);
    close(dist.probability("outcome", ROUT_6), 0.04);
    close(dist.probability("outcome", ROUT_4), 0.02);
    close(dist.probability("outcome", SHATTERED), 0.0);
    // 24 figures: the large column, 6/5/3/2/1 rout hits; 0 on a pass.
    close(dist.probability("rout_hits", 6), 0.04);
    close(dist.probability("rout_hits", 5), 0.04);
    close(dist.probability("rout_hits", 3), 0.06);
    close(dist.probability("rout_hits", 2), 0.04);
    close(dist.probability("rout_hits", 1), 0.02);
    close(dist.probability("rout_hits", 0), 0.8);
}

#[test]
fn small_units_use_the_small_column() {
    // 16 figures: 4/3/2/1/0 rout hits. Grade D, modifier -10: always fails.
    let dist = exact(&Morale::new(&rules(), Grade::D, -10, 0, 16).unwrap());
    close(dist.probability("passed", 0), 1.0);
    close(dist.probability("rout_hits", 4), 0.2);
    close(dist.probability("rout_hits", 3), 0.2);
    close(dist.probability("rout_hits", 2), 0.3);
    close(dist.probability("rout_hits", 1), 0.2);
    close(dist.probability("rout_hits", 0), 0.1);
    // 17 figures is already large: 1 rout hit on a 10.
    let dist = exact(&Morale::new(&rules(), Grade::D, -10, 0, 17).unwrap());
    close(dist.probability("rout_hits", 0), 0.0);
    close(dist.probability("rout_hits", 1), 0.1);
}

#[test]
fn grade_f_fails_often_and_shatters_on_zero_or_less() {
    // F needs 5; with -3, a D10 of 8-10 passes: 0.3. The rout roll is D10 - 3
    // (grade F): 1-3 score 0 or less and shatter: 0.7 * 0.3 = 0.21.
    let dist = exact(&Morale::new(&rules(), Grade::F, -3, 0, 24).unwrap());
    close(dist.probability("passed", 1), 0.3);
    close(dist.probability("outcome", SHATTERED), 0.21);
    // Scores 1-2 (D10 4-5): 18"; 3-4 (6-7): 12"; 5-7 (8-10): 8".
    close(dist.probability("outcome", ROUT_18), 0.14);
    close(dist.probability("outcome", ROUT_12), 0.14);
    close(dist.probability("outcome", ROUT_8), 0.21);
    close(dist.probability("outcome", ROUT_4), 0.0);
    // A shattered unit takes no rout hits (it is removed).
    close(dist.probability("rout_hits", 0), 0.3 + 0.21);
}

#[test]
fn no_natural_results_in_morale() {
    // 5.2: grade A passes on 0 or more, so a D10 with no modifier always passes
    // (a natural 1 does not fail) ...
    close(exact(&Morale::new(&rules(), Grade::A, 0, 0, 24).unwrap()).probability("passed", 1), 1.0);
    // ... and with -11 it can never pass (a natural 10 does not pass).
    close(exact(&Morale::new(&rules(), Grade::A, -11, 0, 24).unwrap()).probability("passed", 1), 0.0);
    // A's +3 rout bonus: D10 + 3 is 4 or more, never 18" nor shattered.
    let dist = exact(&Morale::new(&rules(), Grade::A, -11, 0, 24).unwrap());
    close(dist.probability("outcome", ROUT_18), 0.0);
    close(dist.probability("outcome", ROUT_12), 0.1); // D10 = 1: score 4
    close(dist.probability("outcome", ROUT_4), 0.4); // D10 7-10
}

#[test]
fn the_rout_modifier_adds_to_the_grade() {
    // D with rout_modifier -2 (half strength): score D10 - 2; 1-2 shatter.
    let dist = exact(&Morale::new(&rules(), Grade::D, -10, -2, 24).unwrap());
    close(dist.probability("outcome", SHATTERED), 0.2);
    // With +2 instead (charisma 2): D10 + 2, 8-9 is 6" for D10 6-7.
    let dist = exact(&Morale::new(&rules(), Grade::D, -10, 2, 24).unwrap());
    close(dist.probability("outcome", SHATTERED), 0.0);
    close(dist.probability("outcome", ROUT_6), 0.2);
    close(dist.probability("outcome", ROUT_4), 0.3);
    close(dist.probability("outcome", PASS), 0.0);
}

#[test]
fn the_rout_table_rows_by_score() {
    let rules = rules();
    let rows: Vec<RoutRow> = (-1..=11).map(|s| rules.rout_row(s)).collect();
    use RoutRow::*;
    assert_eq!(rows, vec![Shattered, Shattered, Rout18, Rout18, Rout12, Rout12, Rout8, Rout8, Rout8, Rout6, Rout6, Rout4, Rout4]);
    assert_eq!(rules.rout_distance(Rout12), 12);
    assert_eq!(rules.rout_hits(Rout8, 17), 3);
    assert_eq!(rules.rout_hits(Rout8, 16), 2);
}

#[test]
fn catalogue_keys_and_monte_carlo() {
    let brigades = ruleset("brigades").unwrap();
    let rules = (brigades.default_rules)();
    let scenario = brigades.scenario("morale").unwrap();
    let built = scenario
        .build_from_text(rules.as_ref(), [("grade", "e"), ("modifier", "-2"), ("rout_modifier", "-1"), ("figures", "12")])
        .unwrap();
    // E needs 4; D10 - 2 >= 4 on 6-10: 0.5.
    close(exact(built.as_ref()).probability("passed", 1), 0.5);
    assert_agrees(built.as_ref(), 1_000_000, 21);
    assert_agrees(&Morale::new(&super::rules(), Grade::F, -3, 0, 24).unwrap(), 1_000_000, 22);
}
