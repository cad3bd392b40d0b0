//! The kernel's own dice as scenarios: plain sums and pools of successes, with
//! exact answers. They check the dice and the runner end to end, and answer
//! "what are the odds of 3D6 of 12 or more?" without a ruleset.

use crate::catalogue::{RulesetEntry, ScenarioEntry};
use crate::dice::Dice;
use crate::outcome::{Layout, Metric};
use crate::params::{Param, ParamError, RuleBook, Settings};
use crate::pmf::Pmf;
use crate::scenario::{DynScenario, Scenario};

crate::rule_book! {
    /// Dice have no rules of their own.
    pub struct Rules {}
}

/// The sum of some dice.
#[derive(Clone, Debug)]
pub struct Sum {
    count: u32,
    sides: u32,
    layout: Layout,
}

impl Sum {
    /// The sum of `count` dice of `sides` faces (1-100 dice, 2-1000 faces).
    pub fn new(count: u32, sides: u32) -> Result<Sum, ParamError> {
        if !(1..=100).contains(&count) || !(2..=1000).contains(&sides) {
            return Err(ParamError::Invalid {
                key: "dice".into(),
                reason: format!("{count}d{sides} is outside 1-100 dice of 2-1000 faces"),
            });
        }
        let layout = Layout::new(vec![Metric::integer(
            "total",
            "the sum of the dice",
            i64::from(count),
            i64::from(count * sides),
        )]);
        Ok(Sum { count, sides, layout })
    }
}

impl Scenario for Sum {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    #[inline]
    fn sample(&self, dice: &mut Dice) -> u64 {
        u64::from(dice.sum(self.count, self.sides) - self.count)
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        let pmf = Pmf::dice(self.count, self.sides);
        Some(pmf.iter().map(|(v, p)| ((v - i64::from(self.count)) as u64, p)).collect())
    }
}

/// How many dice of a pool roll a target or more.
#[derive(Clone, Debug)]
pub struct AtLeast {
    count: u32,
    sides: u32,
    target: u32,
    layout: Layout,
}

impl AtLeast {
    /// `count` dice of `sides` faces, each a success on `target` or more.
    pub fn new(count: u32, sides: u32, target: u32) -> Result<AtLeast, ParamError> {
        let sum = Sum::new(count, sides)?;
        if target > sides {
            return Err(ParamError::Invalid {
                key: "target".into(),
                reason: format!("{target} is more than a d{sides} can roll"),
            });
        }
        let layout =
            Layout::new(vec![Metric::integer("successes", "the dice at or over the target", 0, i64::from(count))]);
        Ok(AtLeast { count: sum.count, sides, target, layout })
    }
}

impl Scenario for AtLeast {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    #[inline]
    fn sample(&self, dice: &mut Dice) -> u64 {
        u64::from(dice.count_at_least(self.count, self.sides, self.target))
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        let chance = f64::from(self.sides - self.target.max(1) + 1) / f64::from(self.sides);
        Some(Pmf::binomial(self.count, chance).iter().map(|(v, p)| (v as u64, p)).collect())
    }
}

fn build_sum(_: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let (count, sides) = settings.dice("dice");
    Ok(Box::new(Sum::new(count, sides)?))
}

fn build_at_least(_: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let (count, sides) = settings.dice("dice");
    Ok(Box::new(AtLeast::new(count, sides, settings.int("target") as u32)?))
}

/// The `dice` pseudo-ruleset.
pub fn entry() -> RulesetEntry {
    RulesetEntry {
        name: "dice",
        title: "Plain dice",
        source: "no rules text: the kernel's own dice",
        default_rules: || Box::new(Rules::default()),
        scenarios: vec![
            ScenarioEntry {
                name: "sum",
                summary: "The total of some dice.",
                params: vec![Param::dice("dice", "the dice to roll, as NdS", 2, 6)],
                build: build_sum,
            },
            ScenarioEntry {
                name: "at_least",
                summary: "How many dice of a pool roll a target or more.",
                params: vec![
                    Param::dice("dice", "the dice to roll, as NdS", 3, 6),
                    Param::int("target", "the least face that counts as a success", 3, 1, 1000),
                ],
                build: build_at_least,
            },
        ],
    }
}
