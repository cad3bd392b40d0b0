//! The `fire` scenario: one unit's fire (3.1-3.5). Each D10 hits on the
//! shooting table's score after modifiers; a natural 1 always misses and a
//! natural 10 always hits (1.12), except where the table says NIL.

use super::{Rules, RangeBand, Target, Weapon, artillery_dice, dice_from_figures, invalid};
use crate::dice::Dice;
use crate::outcome::{Layout, Metric};
use crate::params::{Param, ParamError, Settings};
use crate::pmf::Pmf;
use crate::scenario::Scenario;

/// The keys of `fire`.
pub fn params() -> Vec<Param> {
    vec![
        Param::choice("weapon", "the type of fire (3.2)", Weapon::Musket),
        Param::choice("range", "close or far for small arms, canister or ballshot for guns (3.2)", RangeBand::Close),
        Param::choice("target", "the target type (3.2)", Target::Normal),
        Param::int("figures", "firing figures, for small arms (3.1)", 24, 0, 200),
        Param::int("guns", "actual guns, for artillery (3.1: one die each; two to a model)", 6, 0, 40),
        Param::int("crew", "crew figures per gun model (3.1: 3 for 2 dice, 2 for 1, 1 for none)", 4, 0, 12),
        Param::int("modifier", "net of the shooting modifiers (3.3), grade included", 0, -20, 20),
        Param::boolean("dense", "the target is dense (3.5: +2 for ballshot only)", false),
        Param::boolean("two_rank", "the firers are a two-rank line (7.9: one die per 3 figures)", false),
    ]
}

/// One unit's fire: the number of hits.
#[derive(Clone, Debug)]
pub struct Fire {
    dice: u32,
    faces: [bool; 10],
    chance: f64,
    layout: Layout,
}

impl Fire {
    /// A volley of `dice` D10s needing `score` (0 = NIL) with a net `modifier`.
    pub fn from_dice(rules: &Rules, dice: u32, score: u32, modifier: i32) -> Fire {
        let layout = Layout::new(vec![Metric::integer("hits", "figures (or gun hits) hit", 0, i64::from(dice))]);
        Fire { dice, faces: rules.hit_faces(score, modifier), chance: rules.hit_chance(score, modifier), layout }
    }

    /// The fire of a unit, validated.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        rules: &Rules,
        weapon: Weapon,
        band: RangeBand,
        target: Target,
        figures: u32,
        guns: u32,
        crew: u32,
        modifier: i32,
        dense: bool,
        two_rank: bool,
    ) -> Result<Fire, ParamError> {
        let Some(score) = rules.score_to_hit(weapon, band, target) else {
            let expected = if weapon.is_gun() { "canister or ballshot" } else { "close or far" };
            return Err(invalid("range", format!("{} fires at {expected}", weapon_name(weapon))));
        };
        if dense && target == Target::Skirmish {
            return Err(invalid("dense", "skirmishers are never dense targets (3.5)"));
        }
        let dice = if weapon.is_gun() {
            // 3.1: one die per actual gun, limited by crew.
            artillery_dice(rules, guns, crew)
        } else if two_rank && target != Target::Skirmish {
            // 7.9: a two-rank line rolls one die per three figures.
            dice_from_figures(figures, rules.two_rank_figures_per_die, rules.two_rank_remainder_rounds_up)
        } else {
            // 3.1: one die per four firing figures, a remainder of three rounds up.
            dice_from_figures(figures, rules.fire_figures_per_die, rules.fire_remainder_rounds_up)
        };
        // 3.5: only ballshot gets the dense target bonus.
        let dense_bonus = if dense && band == RangeBand::Ballshot { rules.fire_ball_vs_dense } else { 0 };
        Ok(Fire::from_dice(rules, dice, score, modifier + dense_bonus))
    }

    /// From the catalogue's settings.
    pub fn from_settings(rules: &Rules, settings: &Settings) -> Result<Fire, ParamError> {
        Fire::new(
            rules,
            settings.choice("weapon"),
            settings.choice("range"),
            settings.choice("target"),
            settings.int("figures") as u32,
            settings.int("guns") as u32,
            settings.int("crew") as u32,
            settings.int("modifier") as i32,
            settings.bool("dense"),
            settings.bool("two_rank"),
        )
    }

    /// The number of dice rolled.
    pub fn dice(&self) -> u32 {
        self.dice
    }

    /// The chance one die hits.
    pub fn chance(&self) -> f64 {
        self.chance
    }
}

fn weapon_name(weapon: Weapon) -> &'static str {
    crate::params::Choice::name(weapon)
}

impl Scenario for Fire {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    #[inline]
    fn sample(&self, dice: &mut Dice) -> u64 {
        let mut hits = 0;
        for _ in 0..self.dice {
            hits += u64::from(self.faces[dice.d10() as usize - 1]);
        }
        hits
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        // Each die hits independently with the chance of its faces: a binomial.
        Some(Pmf::binomial(self.dice, self.chance).iter().map(|(v, p)| (v as u64, p)).collect())
    }
}
