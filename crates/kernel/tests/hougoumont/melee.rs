//! melee: the casualty formula, one figure against one by hand, and Monte
//! Carlo against the convolution.

use super::{build, build_with, close, exact};
use volley_kernel::check::assert_agrees;
use volley_kernel::rulesets::hougoumont::{CasualtyRule, MeleeCasualties, MeleeRounding, Rules, melee_casualties};

#[test]
fn casualties_are_the_difference_over_the_losers_average() {
    // 4.2, default: winner 60, loser 40 from 4 figures (10 a figure): 20 / 10 = 2.
    assert_eq!(melee_casualties(MeleeCasualties::LoserAverage, 60, 5, 40, 4, 2), 2);
    // 19 / 10 rounds down to 1.
    assert_eq!(melee_casualties(MeleeCasualties::LoserAverage, 59, 5, 40, 4, 2), 1);
    // Never more than the loser has: 100 over 10 from 2 figures is 20, capped at 2.
    assert_eq!(melee_casualties(MeleeCasualties::LoserAverage, 110, 5, 10, 2, 0), 2);
    // Winner's average: 60 / 5 = 12 a figure: 20 / 12 = 1.
    assert_eq!(melee_casualties(MeleeCasualties::WinnerAverage, 60, 5, 40, 4, 2), 1);
    // Expected average of the loser, 10.5 + 2 = 12.5: 25 / 12.5 = 2.
    assert_eq!(melee_casualties(MeleeCasualties::ExpectedAverage, 65, 5, 40, 4, 2), 2);
    assert_eq!(melee_casualties(MeleeCasualties::ExpectedAverage, 64, 5, 40, 4, 2), 1);
}

#[test]
fn one_figure_against_one() {
    // Both Experienced: totals x + 2 and y + 2 of two D20s. Equal: 20/400 a tie.
    // The defender loses its figure when (x + 2) - (y + 2) >= y + 2, x >= 2y + 2:
    // y = 1..9 leaves 17, 15, ..., 1 values of x: 81 of 400.
    let one = exact(build("melee", &[("attacker.figures", "1"), ("defender.figures", "1")]).as_ref());
    close(one.probability("winner", 2), 20.0 / 400.0);
    close(one.probability("winner", 0), 190.0 / 400.0);
    close(one.probability("defender_casualties", 1), 81.0 / 400.0);
    close(one.probability("attacker_casualties", 1), 81.0 / 400.0);
    // Elite (+5) against Inexperienced (+0): the attacker wins when x + 5 > y:
    // y <= 5: 20 each (100), y = 6..20: 25 - y (180): 280/400; ties y = x + 5: 15.
    let elite = exact(
        build(
            "melee",
            &[
                ("attacker.figures", "1"),
                ("defender.figures", "1"),
                ("attacker.quality", "elite"),
                ("defender.quality", "inexperienced"),
            ],
        )
        .as_ref(),
    );
    close(elite.probability("winner", 0), 280.0 / 400.0);
    close(elite.probability("winner", 2), 15.0 / 400.0);
    close(elite.probability("winner", 1), 105.0 / 400.0);
}

#[test]
fn casualties_rounded_to_the_nearest_figure() {
    // Issue 34, item 6: `melee_rounding = nearest`. 55 against 40 from 4
    // figures: 15 / 10 = 1.5, a half, one figure up: 2 (down: 1); 54: 1.4,
    // 1 either way; 59 against 40 from 4: 1.9, 2 (down: 1).
    let nearest = CasualtyRule { divisor: MeleeCasualties::LoserAverage, rounding: MeleeRounding::Nearest };
    assert_eq!(melee_casualties(nearest, 55, 5, 40, 4, 2), 2);
    assert_eq!(melee_casualties(MeleeCasualties::LoserAverage, 55, 5, 40, 4, 2), 1);
    assert_eq!(melee_casualties(nearest, 54, 5, 40, 4, 2), 1);
    assert_eq!(melee_casualties(nearest, 59, 5, 40, 4, 2), 2);
    // One Experienced figure against one: the loser's figure goes when the
    // difference is at least half its total, (x + 2) - (y + 2) >= (y + 2)/2,
    // 2x >= 3y + 2: y = 1..12 leave 18, 17, 15, 14, 12, 11, 9, 8, 6, 5, 3, 2
    // values of x, 120 of 400 (rounded down: 81).
    let rules = Rules { melee_rounding: MeleeRounding::Nearest, ..Rules::default() };
    let one = exact(build_with(&rules, "melee", &[("attacker.figures", "1"), ("defender.figures", "1")]).as_ref());
    close(one.probability("defender_casualties", 1), 120.0 / 400.0);
    close(one.probability("attacker_casualties", 1), 120.0 / 400.0);
    // At 20 figures a side (the melee's defaults) a round costs more.
    let down = exact(build("melee", &[]).as_ref());
    let up = exact(build_with(&rules, "melee", &[]).as_ref());
    let (down, up) = (down.mean("defender_casualties"), up.mean("defender_casualties"));
    eprintln!("mean defender casualties: down {down}, nearest {up}");
    assert!(up > down * 1.1, "down {down}, nearest {up}");
    assert_agrees(
        build_with(&rules, "melee", &[("attacker.figures", "6"), ("defender.figures", "4")]).as_ref(),
        1_000_000,
        34,
    );
}

#[test]
fn two_figures_against_one_by_enumeration() {
    // Veteran pair (+3 each) against one Experienced (+2), enumerated here
    // independently over the 8000 rolls.
    let mut attacker_wins = 0;
    let mut defender_loses_figure = 0;
    let mut attacker_loses_two = 0;
    for a1 in 1..=20i64 {
        for a2 in 1..=20i64 {
            for b in 1..=20i64 {
                let a = a1 + a2 + 6;
                let d = b + 2;
                if a > d {
                    attacker_wins += 1;
                    // One loser figure: casualties = (a - d) / d, capped at 1.
                    if a - d >= d {
                        defender_loses_figure += 1;
                    }
                } else if d > a && (d - a) * 2 / a >= 2 {
                    attacker_loses_two += 1;
                }
            }
        }
    }
    let melee = exact(
        build("melee", &[("attacker.figures", "2"), ("defender.figures", "1"), ("attacker.quality", "veteran")])
            .as_ref(),
    );
    close(melee.probability("winner", 0), f64::from(attacker_wins) / 8000.0);
    close(melee.probability("defender_casualties", 1), f64::from(defender_loses_figure) / 8000.0);
    close(melee.probability("attacker_casualties", 2), f64::from(attacker_loses_two) / 8000.0);
}

#[test]
fn equal_sides_are_symmetric() {
    let melee = exact(build("melee", &[]).as_ref());
    close(melee.probability("winner", 0), melee.probability("winner", 1));
    close(melee.mean("attacker_casualties"), melee.mean("defender_casualties"));
}

#[test]
fn melee_monte_carlo_agrees() {
    assert_agrees(build("melee", &[]).as_ref(), 1_000_000, 31);
    assert_agrees(
        build(
            "melee",
            &[
                ("attacker.figures", "5"),
                ("attacker.quality", "elite"),
                ("defender.figures", "3"),
                ("defender.quality", "inexperienced"),
            ],
        )
        .as_ref(),
        1_000_000,
        32,
    );
    let rules = Rules { melee_casualties: MeleeCasualties::ExpectedAverage, ..Rules::default() };
    assert_agrees(
        build_with(&rules, "melee", &[("attacker.figures", "8"), ("defender.figures", "12")]).as_ref(),
        1_000_000,
        33,
    );
}
