//! The `fire` scenario: one unit's fire (3.1-3.5). Each D10 hits on the
//! shooting table's score after modifiers; a natural 1 always misses and a
//! natural 10 always hits (1.12), except where the table says NIL.

use super::{RangeBand, Rules, Target, Weapon, artillery_dice, dice_from_figures, invalid};
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

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        // Each die hits independently with the chance of its faces: a binomial.
        Some(Pmf::binomial(self.dice, self.chance).iter().map(|(v, p)| (v as u64, p)).collect())
    }
}

/// The keys of `counterbattery`.
pub fn counterbattery_params() -> Vec<Param> {
    vec![
        Param::choice("weapon", "the type of fire (3.2)", Weapon::FieldGun),
        Param::choice("range", "close or far for small arms, canister or ballshot for guns (3.2)", RangeBand::Ballshot),
        Param::choice("target", "the guns' target type (3.2)", Target::Normal),
        Param::int("figures", "firing figures, for small arms (3.1)", 24, 0, 200),
        Param::int("guns", "firing actual guns, for artillery (3.1)", 6, 0, 40),
        Param::int("crew", "crew figures per firing gun model (3.1)", 4, 0, 12),
        Param::int("modifier", "net of the shooting modifiers (3.3)", 0, -20, 20),
        Param::boolean("limbered", "the target guns are limbered (3.4: +2 to the effect roll of ballshot)", false),
    ]
}

/// Fire at a battery (3.4): each hit rolls again for its effect: 1-4 miss;
/// 5-7 miss from ballshot, else a gunner; 8-9 a gunner; 10 an actual gun and
/// a gunner from ballshot, else a gunner; +2 to the roll for ballshot at
/// limbered guns.
#[derive(Clone, Debug)]
pub struct Counterbattery {
    fire: Fire,
    /// The effect of each effect-roll face: 0 miss, 1 gunner, 2 gun and gunner.
    effects: [u8; 10],
    layout: Layout,
}

impl Counterbattery {
    /// From the catalogue's settings.
    pub fn from_settings(rules: &Rules, settings: &Settings) -> Result<Counterbattery, ParamError> {
        let band: RangeBand = settings.choice("range");
        let fire = Fire::new(
            rules,
            settings.choice("weapon"),
            band,
            settings.choice("target"),
            settings.int("figures") as u32,
            settings.int("guns") as u32,
            settings.int("crew") as u32,
            settings.int("modifier") as i32,
            false,
            false,
        )?;
        Ok(Counterbattery::new(rules, fire, band == RangeBand::Ballshot, settings.bool("limbered")))
    }

    /// A volley at guns; `ballshot` says what the effect table reads.
    pub fn new(rules: &Rules, fire: Fire, ballshot: bool, limbered: bool) -> Counterbattery {
        let bonus = if ballshot && limbered { rules.counterbattery_limbered } else { 0 };
        let mut effects = [0u8; 10];
        for (index, effect) in effects.iter_mut().enumerate() {
            let roll = index as i32 + 1 + bonus;
            *effect = if roll <= rules.counterbattery_miss_max as i32 {
                0
            } else if roll <= rules.counterbattery_ballshot_miss_max as i32 {
                u8::from(!ballshot)
            } else if roll < rules.counterbattery_gun_min as i32 {
                1
            } else if ballshot {
                2
            } else {
                1
            };
        }
        let n = i64::from(fire.dice);
        let layout = Layout::new(vec![
            Metric::integer("hits", "dice that hit the guns", 0, n),
            Metric::integer("gunners", "gunner figures lost", 0, n),
            Metric::integer("guns", "actual guns destroyed", 0, n),
        ]);
        Counterbattery { fire, effects, layout }
    }

    /// The chance of each effect of a hit: (miss, gunner, gun and gunner).
    pub fn effect_chances(&self) -> [f64; 3] {
        let mut chances = [0.0; 3];
        for &e in &self.effects {
            chances[usize::from(e)] += 0.1;
        }
        chances
    }
}

impl Scenario for Counterbattery {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    #[inline]
    fn sample(&self, dice: &mut Dice) -> u64 {
        let (mut hits, mut gunners, mut guns) = (0, 0, 0);
        for _ in 0..self.fire.dice {
            if self.fire.faces[dice.d10() as usize - 1] {
                hits += 1;
                // 3.4: roll again for each hit.
                match self.effects[dice.d10() as usize - 1] {
                    0 => {}
                    1 => gunners += 1,
                    _ => {
                        gunners += 1;
                        guns += 1;
                    }
                }
            }
        }
        self.layout.encode(&[hits, gunners, guns])
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        // Each die: no hit, or a hit with one of three effects; add up die by die.
        let [miss, gunner, gun] = self.effect_chances();
        let p = self.fire.chance;
        let per_die = [((0, 0, 0), 1.0 - p), ((1, 0, 0), p * miss), ((1, 1, 0), p * gunner), ((1, 1, 1), p * gun)];
        let mut law: Vec<((i64, i64, i64), f64)> = vec![((0, 0, 0), 1.0)];
        for _ in 0..self.fire.dice {
            let mut next: std::collections::BTreeMap<(i64, i64, i64), f64> = std::collections::BTreeMap::new();
            for &((h, g, k), q) in &law {
                for &((dh, dg, dk), r) in &per_die {
                    if r > 0.0 {
                        *next.entry((h + dh, g + dg, k + dk)).or_insert(0.0) += q * r;
                    }
                }
            }
            law = next.into_iter().collect();
        }
        Some(law.into_iter().map(|((h, g, k), q)| (self.layout.encode(&[h, g, k]), q)).collect())
    }
}
