//! The `morale` scenario: one morale test (5.2: 1D10 plus modifiers against
//! the grade's pass score, 5.5) and, on failure, the rout roll (5.7: 1D10 plus
//! the grade's and other rout modifiers on the failure table). No natural
//! results apply to either roll (5.2).

use super::{Grade, RoutRow, Rules, TestResult, grade_param, roll_test, test_distribution};
use crate::dice::Dice;
use crate::outcome::{Layout, Metric};
use crate::params::{Param, ParamError, Settings};
use crate::scenario::Scenario;

/// The labels of the `outcome` metric, in code order.
pub const OUTCOMES: &[&str] = &["pass", "rout_18", "rout_12", "rout_8", "rout_6", "rout_4", "shattered"];

/// The keys of `morale`.
pub fn params() -> Vec<Param> {
    vec![
        grade_param("grade", "the unit's morale grade (5.5)"),
        Param::int("modifier", "net of the morale modifiers (5.6)", 0, -30, 30),
        Param::int("rout_modifier", "net of the rout modifiers other than grade (5.7.2)", 0, -30, 30),
        Param::int("figures", "the unit's figures when it tests (5.7.1: 17 or more use the large column)", 24, 1, 200),
    ]
}

/// The index of an outcome label.
pub fn outcome_code(result: TestResult) -> i64 {
    match result {
        TestResult::Pass => 0,
        TestResult::Rout(RoutRow::Rout18) => 1,
        TestResult::Rout(RoutRow::Rout12) => 2,
        TestResult::Rout(RoutRow::Rout8) => 3,
        TestResult::Rout(RoutRow::Rout6) => 4,
        TestResult::Rout(RoutRow::Rout4) => 5,
        TestResult::Rout(RoutRow::Shattered) => 6,
    }
}

/// One morale test and its rout.
#[derive(Clone, Debug)]
pub struct Morale {
    rules: Rules,
    pass: i32,
    modifier: i32,
    rout_modifier: i32,
    figures: u32,
    layout: Layout,
}

impl Morale {
    /// A unit of `grade` and `figures` testing with net `modifier`; on failure
    /// it rolls with its grade's rout modifier plus `rout_modifier`.
    pub fn new(
        rules: &Rules,
        grade: Grade,
        modifier: i32,
        rout_modifier: i32,
        figures: u32,
    ) -> Result<Morale, ParamError> {
        let max_hits = [
            rules.rout_hits_large_18,
            rules.rout_hits_large_12,
            rules.rout_hits_large_8,
            rules.rout_hits_large_6,
            rules.rout_hits_large_4,
            rules.rout_hits_small_18,
            rules.rout_hits_small_12,
            rules.rout_hits_small_8,
            rules.rout_hits_small_6,
            rules.rout_hits_small_4,
        ]
        .into_iter()
        .max()
        .unwrap_or(0);
        let layout = Layout::new(vec![
            Metric::boolean("passed", "whether the unit passed its morale test"),
            Metric::categories("outcome", "pass, the rout row by distance, or shattered (score 0 or less)", OUTCOMES),
            Metric::integer("rout_hits", "rout hits suffered (5.7.1)", 0, i64::from(max_hits)),
        ]);
        Ok(Morale {
            rules: rules.clone(),
            pass: rules.morale_pass(grade),
            modifier,
            rout_modifier: rules.rout_grade(grade) + rout_modifier,
            figures,
            layout,
        })
    }

    /// From the catalogue's settings.
    pub fn from_settings(rules: &Rules, settings: &Settings) -> Result<Morale, ParamError> {
        Morale::new(
            rules,
            settings.choice("grade"),
            settings.int("modifier") as i32,
            settings.int("rout_modifier") as i32,
            settings.int("figures") as u32,
        )
    }

    fn code(&self, result: TestResult) -> u64 {
        let hits = match result {
            TestResult::Pass => 0,
            TestResult::Rout(row) => self.rules.rout_hits(row, self.figures),
        };
        self.layout.encode(&[i64::from(result == TestResult::Pass), outcome_code(result), i64::from(hits)])
    }
}

impl Scenario for Morale {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    #[inline]
    fn sample(&self, dice: &mut Dice) -> u64 {
        self.code(roll_test(&self.rules, dice, self.pass, self.modifier, self.rout_modifier))
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        Some(
            test_distribution(&self.rules, self.pass, self.modifier, self.rout_modifier)
                .into_iter()
                .map(|(result, p)| (self.code(result), p))
                .collect(),
        )
    }
}
