//! One morale test (5): a D20 plus the quality's modifier against the
//! threshold (an interpretation: 10 by default).

use super::{Quality, Rules, d20_at_least};
use crate::dice::Dice;
use crate::outcome::{Layout, Metric};
use crate::params::ParamError;
use crate::scenario::Scenario;

/// One morale test.
#[derive(Clone, Debug)]
pub struct Morale {
    need: i32,
    layout: Layout,
}

impl Morale {
    /// A unit of `quality` with a further `modifier` to its D20.
    pub fn new(rules: &Rules, quality: Quality, modifier: i32) -> Result<Morale, ParamError> {
        let layout = Layout::new(vec![Metric::boolean(
            "passed",
            "whether the unit passed (D20 + modifiers reached the threshold)",
        )]);
        Ok(Morale { need: rules.morale_need(quality, modifier), layout })
    }

    /// The chance of passing.
    pub fn pass_chance(&self) -> f64 {
        d20_at_least(self.need)
    }
}

impl Scenario for Morale {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    #[inline]
    fn sample(&self, dice: &mut Dice) -> u64 {
        // 5: pass when the D20 plus modifiers meets or exceeds the threshold.
        u64::from(dice.d20() as i32 >= self.need)
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        let p = self.pass_chance();
        Some(vec![(0, 1.0 - p), (1, p)])
    }
}
