//! The ruleset's random events as chances of the kernel's decision model: a
//! turn's logic calls them on its [`Fate`] (a law the solver enumerates and
//! the sampler rolls), beside the `Fate`'s own `decide` for its choices.

use super::{RoutRow, Rules, TestResult, roll_test, test_distribution};
use crate::dice::Dice;
use crate::game::{Fate, Law};
use crate::pmf::Pmf;
use std::cell::OnceCell;

/// The random events a turn needs, on any [`Fate`].
pub trait Roller: Fate {
    /// How many of `dice` D10s hit, each on `faces` (with the chance `chance`).
    fn hits(&mut self, dice: u32, faces: &[bool; 10], chance: f64) -> u32;
    /// One morale test and rout roll (5.2, 5.7).
    fn test(&mut self, rules: &Rules, pass: i32, modifier: i32, rout_modifier: i32) -> TestResult;
    /// True with chance `tenths` / 10 (one D10 at or under `tenths`).
    fn d10_at_most(&mut self, tenths: u32) -> bool;
}

/// The hits of `dice` D10s: rolled face by face, enumerated as a binomial.
struct HitsLaw<'a> {
    dice: u32,
    faces: &'a [bool; 10],
    chance: f64,
    table: OnceCell<Vec<(u32, f64)>>,
}

impl Law for HitsLaw<'_> {
    fn sample(&self, dice: &mut Dice) -> u32 {
        (0..self.dice).map(|_| u32::from(self.faces[dice.d10() as usize - 1])).sum()
    }

    fn outcomes(&self) -> &[(u32, f64)] {
        self.table.get_or_init(|| {
            Pmf::binomial(self.dice, self.chance).iter().filter(|&(_, p)| p > 0.0).map(|(v, p)| (v as u32, p)).collect()
        })
    }
}

/// A morale test and rout roll, coded 0 for a pass and 1 + the row's index
/// ([`RoutRow`] in table order) for a rout.
struct TestLaw<'a> {
    rules: &'a Rules,
    pass: i32,
    modifier: i32,
    rout_modifier: i32,
    table: OnceCell<Vec<(u32, f64)>>,
}

const ROWS: [RoutRow; 6] =
    [RoutRow::Shattered, RoutRow::Rout18, RoutRow::Rout12, RoutRow::Rout8, RoutRow::Rout6, RoutRow::Rout4];

/// A test's result as a law's value: 0 a pass, 1 + the rout row's index.
pub(super) fn test_code(result: TestResult) -> u32 {
    match result {
        TestResult::Pass => 0,
        TestResult::Rout(row) => 1 + ROWS.iter().position(|&r| r == row).expect("a row of the table") as u32,
    }
}

/// The test result of a law's value ([`test_code`]).
pub(super) fn test_of_code(code: u32) -> TestResult {
    if code == 0 { TestResult::Pass } else { TestResult::Rout(ROWS[code as usize - 1]) }
}

impl Law for TestLaw<'_> {
    fn sample(&self, dice: &mut Dice) -> u32 {
        test_code(roll_test(self.rules, dice, self.pass, self.modifier, self.rout_modifier))
    }

    fn outcomes(&self) -> &[(u32, f64)] {
        self.table.get_or_init(|| {
            let mut table: Vec<(u32, f64)> =
                test_distribution(self.rules, self.pass, self.modifier, self.rout_modifier)
                    .into_iter()
                    .map(|(r, p)| (test_code(r), p))
                    .collect();
            table.sort_by_key(|&(c, _)| c);
            table
        })
    }
}

impl<F: Fate> Roller for F {
    #[inline]
    fn hits(&mut self, dice: u32, faces: &[bool; 10], chance: f64) -> u32 {
        if dice == 0 || chance == 0.0 {
            return 0;
        }
        if chance >= 1.0 {
            return dice;
        }
        self.draw(&HitsLaw { dice, faces, chance, table: OnceCell::new() })
    }

    #[inline]
    fn test(&mut self, rules: &Rules, pass: i32, modifier: i32, rout_modifier: i32) -> TestResult {
        let law = TestLaw { rules, pass, modifier, rout_modifier, table: OnceCell::new() };
        test_of_code(self.draw(&law))
    }

    #[inline]
    fn d10_at_most(&mut self, tenths: u32) -> bool {
        self.ways(tenths.min(10), 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_codes_round_trip_in_table_order() {
        for code in 0..7 {
            assert_eq!(test_code(test_of_code(code)), code);
        }
        let rules = Rules::default();
        let law = TestLaw { rules: &rules, pass: 3, modifier: -2, rout_modifier: 0, table: OnceCell::new() };
        let total: f64 = law.outcomes().iter().map(|o| o.1).sum();
        assert!((total - 1.0).abs() < 1e-12);
        assert!(law.outcomes().windows(2).all(|w| w[0].0 < w[1].0));
    }
}
