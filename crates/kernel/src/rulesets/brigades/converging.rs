//! The `converging_fire` scenario: one or two units fire at one target in
//! the same shooting phase (2.1 phase 5), and the target takes its one
//! morale test of the phase on the hits of both (5.4 (1) "if it suffers at
//! least two shooting hits in one phase"; 5.6 "each 2 hits suffered this
//! phase"; 2.1 "a unit never takes more than one morale test during this
//! phase"). On failure it rolls on the rout table (5.7) and takes its rout
//! hits; at three quarters losses it is shattered (5.3) and does not test.
//!
//! Each firer's volley is [`Fire`]'s (3.1-3.5): its dice, each hitting on the
//! shooting table's score after its modifiers, natural results applied
//! (1.12). The two volleys are independent, so the exact law of the hits is
//! the convolution of two binomials. Which hits the test counts is an
//! interpretation (`converging_hits`): `summed`, the default, counts every
//! shooting hit the target suffered in the phase, as 5.4 (1) and 5.6 say
//! ("it suffers"; neither names a firer); `per_firer` tests the target only
//! if one volley alone hit it twice, and counts "each 2 hits" volley by
//! volley, as a table resolving each unit's fire on its own would.

use super::fire::Fire;
use super::{Grade, RangeBand, RoutRow, Rules, Target, TestResult, Weapon, grade_param, invalid, roll_test};
use super::{morale::OUTCOMES, test_distribution};
use crate::choice_enum;
use crate::dice::Dice;
use crate::outcome::{Layout, Metric};
use crate::params::{Param, ParamError, Settings};
use crate::pmf::Pmf;
use crate::scenario::Scenario;

choice_enum! {
    /// Interpretation: which shooting hits of a phase count for the target's
    /// test when two units fire at it (5.4 (1), 5.6).
    pub enum ConvergingHits {
        /// Every hit it suffered in the phase, from all firers. Default: 5.4
        /// (1) and 5.6 count the hits the unit "suffers" in one phase and
        /// name no firer.
        Summed = "summed",
        /// Volley by volley: it tests only if one volley hit it twice, and
        /// "each 2 hits" counts each volley's pairs.
        PerFirer = "per_firer",
    }
}

/// The labels of the `outcome` metric, in code order: untested, then
/// `morale`'s (pass, the rout rows, shattered by a rout score of 0 or less),
/// then shattered by losses (5.3).
pub const OUTCOMES_CONVERGING: &[&str] =
    &["untested", "pass", "rout_18", "rout_12", "rout_8", "rout_6", "rout_4", "shattered", "shattered_by_losses"];

const _: () = assert!(OUTCOMES_CONVERGING.len() == OUTCOMES.len() + 2);

fn firer_params(params: &mut Vec<Param>, side: &str) {
    params.push(Param::choice(format!("{side}.weapon"), "the type of fire (3.2)", Weapon::Musket));
    params.push(Param::choice(
        format!("{side}.range"),
        "close or far for small arms, canister or ballshot for guns (3.2)",
        RangeBand::Close,
    ));
    params.push(Param::int(format!("{side}.figures"), "firing figures, for small arms (3.1)", 12, 0, 60));
    params.push(Param::int(format!("{side}.guns"), "actual guns, for artillery (3.1)", 6, 0, 40));
    params.push(Param::int(format!("{side}.crew"), "crew figures per gun model (3.1)", 4, 0, 12));
    params.push(Param::int(
        format!("{side}.modifier"),
        "net of its shooting modifiers (3.3), grade included",
        0,
        -20,
        20,
    ));
}

/// The keys of `converging_fire`.
pub fn params() -> Vec<Param> {
    let mut params = vec![Param::int("units", "firing units: 1, or 2 (the second has the `second` keys)", 2, 1, 2)];
    firer_params(&mut params, "first");
    firer_params(&mut params, "second");
    params.push(grade_param("target.quality", "the target's morale grade (5.5, 5.7.2)"));
    params.push(Param::int("target.figures", "the target's figures before the fire", 24, 1, 60));
    params.push(Param::int("target.lost", "figures it had lost before this phase (5.3, 5.6: of its start)", 0, 0, 60));
    params.push(Param::choice(
        "target.type",
        "the target type (3.2); hard cover also gives +1 on the test (5.6)",
        Target::Normal,
    ));
    params.push(Param::boolean("target.dense", "the target is dense (3.5: +2 for ballshot only)", false));
    params.push(Param::boolean("target.shaken", "the target is shaken (5.6: -2)", false));
    params.push(Param::int("target.modifier", "net of its other morale modifiers (5.6)", 0, -20, 20));
    params.push(Param::int("target.rout_modifier", "net of its rout modifiers other than grade (5.7.2)", 0, -20, 20));
    params
}

/// Fire from one or two units at one target, and its test.
#[derive(Clone, Debug)]
pub struct ConvergingFire {
    rules: Rules,
    volleys: Vec<Fire>,
    grade: Grade,
    figures: u32,
    start: u32,
    hard: bool,
    shaken: bool,
    modifier: i32,
    rout_modifier: i32,
    layout: Layout,
}

impl ConvergingFire {
    /// From the catalogue's settings.
    pub fn from_settings(rules: &Rules, settings: &Settings) -> Result<ConvergingFire, ParamError> {
        let target: Target = settings.choice("target.type");
        let dense = settings.bool("target.dense");
        let units = settings.int("units") as usize;
        let mut volleys = Vec::new();
        for side in ["first", "second"].into_iter().take(units) {
            let key = |name: &str| format!("{side}.{name}");
            volleys.push(Fire::new(
                rules,
                settings.choice(&key("weapon")),
                settings.choice(&key("range")),
                target,
                settings.int(&key("figures")) as u32,
                settings.int(&key("guns")) as u32,
                settings.int(&key("crew")) as u32,
                settings.int(&key("modifier")) as i32,
                dense,
                false,
            )?);
        }
        let figures = settings.int("target.figures") as u32;
        let lost = settings.int("target.lost") as u32;
        let start = figures + lost;
        if rules.is_shattered(start, lost) {
            return Err(invalid("target.lost", "a unit at three quarters losses is already shattered (5.3)"));
        }
        let dice: u32 = volleys.iter().map(Fire::dice).sum();
        let layout = Layout::new(vec![
            Metric::integer("hits", "shooting hits on the target, all firers", 0, i64::from(dice)),
            Metric::boolean("tested", "whether the target took a morale test (5.4 (1))"),
            Metric::categories(
                "outcome",
                "untested, pass, the rout row, shattered (a rout score of 0 or less), or shattered by losses (5.3)",
                OUTCOMES_CONVERGING,
            ),
            Metric::integer("figures_left", "the target's figures after hits and rout hits", 0, i64::from(figures)),
        ]);
        Ok(ConvergingFire {
            rules: rules.clone(),
            volleys,
            grade: settings.choice("target.quality"),
            figures,
            start,
            hard: target == Target::Hard,
            shaken: settings.bool("target.shaken"),
            modifier: settings.int("target.modifier") as i32,
            rout_modifier: settings.int("target.rout_modifier") as i32,
            layout,
        })
    }

    /// Whether the target tests on these volleys' hits, and the 5.6 pairs
    /// of hits it counts (`converging_hits`).
    fn counted(&self, hits: &[u32]) -> Option<u32> {
        let rules = &self.rules;
        let total: u32 = hits.iter().sum();
        match rules.converging_hits {
            ConvergingHits::Summed => (total >= rules.morale_test_shooting_hits).then_some(total / 2),
            ConvergingHits::PerFirer => {
                hits.iter().any(|&h| h >= rules.morale_test_shooting_hits).then(|| hits.iter().map(|h| h / 2).sum())
            }
        }
    }

    /// (pass, modifier, rout modifier) of the target's test after `pairs`
    /// pairs of hits, with `left` figures.
    fn test_numbers(&self, pairs: u32, left: u32) -> (i32, i32, i32) {
        let rules = &self.rules;
        // 5.6: each 2 hits this phase, each 25% total losses, shaken, hard cover.
        let mut modifier = self.modifier + pairs as i32 * rules.morale_per_two_hits;
        modifier += Rules::quarters_lost(self.start, self.start - left) * rules.morale_per_quarter_losses;
        if self.shaken {
            modifier += rules.morale_shaken;
        }
        if self.hard {
            modifier += rules.morale_square_or_hard_cover;
        }
        let mut rout = rules.rout_grade(self.grade) + self.rout_modifier;
        if left * 2 <= self.start {
            // 5.7.2: at or below half strength.
            rout += rules.rout_half_strength;
        }
        (rules.morale_pass(self.grade), modifier, rout)
    }

    /// The outcome code of `hits` and the test's `result` (`None` untested).
    fn code(&self, total: u32, left: u32, result: Option<TestResult>) -> u64 {
        let shattered_by_losses = OUTCOMES.len() as i64 + 1;
        let (outcome, left) = match result {
            None if self.rules.is_shattered(self.start, self.start - left) => (shattered_by_losses, left),
            None => (0, left),
            Some(TestResult::Pass) => (1, left),
            Some(TestResult::Rout(RoutRow::Shattered)) => {
                (1 + super::morale::outcome_code(TestResult::Rout(RoutRow::Shattered)), left)
            }
            Some(TestResult::Rout(row)) => {
                let after = left.saturating_sub(self.rules.rout_hits(row, left));
                let code = if self.rules.is_shattered(self.start, self.start - after) {
                    shattered_by_losses
                } else {
                    1 + super::morale::outcome_code(TestResult::Rout(row))
                };
                (code, after)
            }
        };
        self.layout.encode(&[i64::from(total), i64::from(result.is_some()), outcome, i64::from(left)])
    }

    /// The figures left after `total` hits.
    fn left(&self, total: u32) -> u32 {
        self.figures.saturating_sub(total)
    }
}

impl Scenario for ConvergingFire {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let hits: Vec<u32> = self
            .volleys
            .iter()
            .map(|fire| {
                let faces = fire.faces();
                (0..fire.dice()).filter(|_| faces[dice.d10() as usize - 1]).count() as u32
            })
            .collect();
        let total = hits.iter().sum();
        let left = self.left(total);
        if self.rules.is_shattered(self.start, self.start - left) {
            return self.code(total, left, None);
        }
        let result = self.counted(&hits).map(|pairs| {
            let (pass, modifier, rout) = self.test_numbers(pairs, left);
            roll_test(&self.rules, dice, pass, modifier, rout)
        });
        self.code(total, left, result)
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        let laws: Vec<Vec<(u32, f64)>> = self
            .volleys
            .iter()
            .map(|fire| {
                Pmf::binomial(fire.dice(), fire.chance())
                    .iter()
                    .filter(|&(_, p)| p > 0.0)
                    .map(|(h, p)| (h as u32, p))
                    .collect()
            })
            .collect();
        // Every combination of the volleys' hits (one or two volleys).
        let mut combos: Vec<(Vec<u32>, f64)> = vec![(Vec::new(), 1.0)];
        for law in &laws {
            combos = combos
                .iter()
                .flat_map(|(hits, p)| {
                    law.iter().map(move |&(h, q)| {
                        let mut more = hits.clone();
                        more.push(h);
                        (more, p * q)
                    })
                })
                .collect();
        }
        let mut out = Vec::new();
        for (hits, p) in combos {
            let total = hits.iter().sum();
            let left = self.left(total);
            if self.rules.is_shattered(self.start, self.start - left) {
                out.push((self.code(total, left, None), p));
                continue;
            }
            match self.counted(&hits) {
                None => out.push((self.code(total, left, None), p)),
                Some(pairs) => {
                    let (pass, modifier, rout) = self.test_numbers(pairs, left);
                    for (result, q) in test_distribution(&self.rules, pass, modifier, rout) {
                        out.push((self.code(total, left, Some(result)), p * q));
                    }
                }
            }
        }
        Some(out)
    }
}
