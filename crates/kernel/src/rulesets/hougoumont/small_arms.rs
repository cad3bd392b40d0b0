//! One volley of small arms (3.1): each figure rolls a D20 and hits on the
//! distance in inches or more, after the troops' bonus and the target's cover.

use super::{Cover, Rules, Troops, d20_at_least};
use crate::dice::Dice;
use crate::outcome::{Layout, Metric};
use crate::params::ParamError;
use crate::pmf::Pmf;
use crate::scenario::Scenario;

/// One volley of `figures` D20s.
#[derive(Clone, Debug)]
pub struct SmallArms {
    figures: u32,
    need: i32,
    layout: Layout,
}

impl SmallArms {
    /// `figures` of `troops` firing at a target `distance` inches away in `cover`.
    pub fn new(
        rules: &Rules,
        figures: u32,
        distance: u32,
        troops: Troops,
        cover: Cover,
    ) -> Result<SmallArms, ParamError> {
        if figures == 0 {
            return Err(ParamError::Invalid {
                key: "figures".into(),
                reason: "a volley needs at least one figure".into(),
            });
        }
        if distance == 0 {
            return Err(ParamError::Invalid {
                key: "distance".into(),
                reason: "the distance must be at least 1 inch".into(),
            });
        }
        let layout = Layout::new(vec![Metric::integer("hits", "figures that hit", 0, i64::from(figures))]);
        Ok(SmallArms { figures, need: rules.small_arms_need(troops, cover, distance), layout })
    }

    /// The chance one figure hits.
    pub fn hit_chance(&self) -> f64 {
        d20_at_least(self.need)
    }
}

impl Scenario for SmallArms {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    #[inline]
    fn sample(&self, dice: &mut Dice) -> u64 {
        // 3.1: hit if the D20 (plus the troops' bonus) reaches the distance (plus cover).
        let mut hits = 0;
        for _ in 0..self.figures {
            hits += u64::from(dice.d20() as i32 >= self.need);
        }
        hits
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        Some(Pmf::binomial(self.figures, self.hit_chance()).iter().map(|(v, p)| (v as u64, p)).collect())
    }
}
