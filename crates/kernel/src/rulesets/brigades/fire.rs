//! The `fire` scenario: one unit's fire (3.1-3.5). Each D10 hits on the
//! shooting table's score after modifiers; a natural 1 always misses and a
//! natural 10 always hits (1.12), except where the table says NIL.
//!
//! With the optional carry-through (7.8) a rearward target may stand in the
//! line of fire behind the first: if it is within the fire's carry-through
//! range of the first target, the dice that missed the first target are
//! rolled again against it, on the same row of the shooting table with the
//! same modifiers and its own target type (`rear_hits`).

use super::{RangeBand, Rules, Target, Weapon, artillery_dice, dice_from_figures, invalid};
use crate::dice::Dice;
use crate::outcome::{Layout, Metric};
use crate::params::{Param, ParamError, Settings};
use crate::pmf::Pmf;
use crate::scenario::Scenario;

crate::choice_enum! {
    /// Interpretation: whether a natural 1 that missed the first target carries through (7.8).
    pub enum CarryNaturalOnes {
        /// It is a die that missed, and rolls again at the rearward target.
        /// Default: 7.8 rolls "dice that miss", and 1.12 makes a natural 1 a miss.
        Carry = "carry",
        /// A natural 1 is spent: it goes nowhere, like a dud.
        Spent = "spent",
    }
}

crate::choice_enum! {
    /// Interpretation: whether fire at a first target it cannot hit (NIL) carries through (7.8).
    pub enum CarryThroughNil {
        /// Every die misses the NIL target, so every die rolls at the rearward
        /// target. Default: the text's "dice that miss", and 3.12 lets
        /// ballshot pass skirmishers (its NIL target) "as if they were not there".
        Carry = "carry",
        /// A NIL target stops the fire: nothing carries through.
        Stopped = "stopped",
    }
}

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
        Param::boolean(
            "rear",
            "a rearward target in the line of fire behind the first (7.8 carry-through; needs optional_carry_through)",
            false,
        ),
        Param::int(
            "rear.distance",
            "inches from the first target back to the rearward one: hit only within the carry-through range (7.8)",
            2,
            0,
            60,
        ),
        Param::choice("rear.target", "the rearward target's type (3.2)", Target::Normal),
        Param::boolean("rear.dense", "the rearward target is dense (3.5: +2 for ballshot only)", false),
    ]
}

/// A rearward target in the line of fire (7.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RearTarget {
    /// Inches behind the first target.
    pub distance: u32,
    /// Its target type.
    pub target: Target,
    /// Whether it is dense (3.5).
    pub dense: bool,
}

/// 7.8 The carry-through range of a type of fire (inches behind the first target).
pub fn carry_through_range(rules: &Rules, weapon: Weapon, band: RangeBand) -> u32 {
    match (weapon, band) {
        (Weapon::LightGun, RangeBand::Ballshot) => rules.carry_through_light_ballshot,
        (Weapon::FieldGun, RangeBand::Ballshot) => rules.carry_through_field_ballshot,
        (Weapon::HeavyGun, RangeBand::Ballshot) => rules.carry_through_heavy_ballshot,
        // Small arms at either range, and canister.
        _ => rules.carry_through_small_arms_and_canister,
    }
}

/// One unit's fire: the number of hits, and with carry-through (7.8) the
/// hits on a rearward target.
#[derive(Clone, Debug)]
pub struct Fire {
    dice: u32,
    faces: [bool; 10],
    chance: f64,
    /// 7.8: the faces of a die that missed the first target and roll again at
    /// the rearward one (none without a rearward target in range).
    carries: [bool; 10],
    /// The faces of that second roll that hit the rearward target.
    rear_faces: [bool; 10],
    rear_chance: f64,
    layout: Layout,
}

impl Fire {
    /// A volley of `dice` D10s needing `score` (0 = NIL) with a net `modifier`.
    pub fn from_dice(rules: &Rules, dice: u32, score: u32, modifier: i32) -> Fire {
        let n = i64::from(dice);
        let layout = Layout::new(vec![
            Metric::integer("hits", "figures (or gun hits) hit", 0, n),
            Metric::integer(
                "rear_hits",
                "hits on the rearward target from dice that missed the first (7.8 carry-through; 0 without it)",
                0,
                n,
            ),
        ]);
        Fire {
            dice,
            faces: rules.hit_faces(score, modifier),
            chance: rules.hit_chance(score, modifier),
            carries: [false; 10],
            rear_faces: [false; 10],
            rear_chance: 0.0,
            layout,
        }
    }

    /// 7.8 Carry-through: the dice of this volley (of `weapon` at `band`, net
    /// `modifier` before any dense bonus) that miss the first target, a
    /// `first_score` target, roll again at `rear`, if it stands within the
    /// carry-through range behind the first target.
    #[allow(clippy::too_many_arguments)]
    pub fn with_rear(
        mut self,
        rules: &Rules,
        weapon: Weapon,
        band: RangeBand,
        first_score: u32,
        modifier: i32,
        rear: RearTarget,
    ) -> Result<Fire, ParamError> {
        if !rules.optional_carry_through {
            return Err(invalid("rear", "needs the optional rule optional_carry_through (7.8)"));
        }
        if rear.dense && rear.target == Target::Skirmish {
            return Err(invalid("rear.dense", "skirmishers are never dense targets (3.5)"));
        }
        if rear.distance > carry_through_range(rules, weapon, band) {
            // Beyond the carry-through range nothing reaches it.
            return Ok(self);
        }
        if first_score == 0 && rules.carry_through_nil == CarryThroughNil::Stopped {
            return Ok(self);
        }
        for (index, carries) in self.carries.iter_mut().enumerate() {
            let face = index as u32 + 1;
            let spent = face == rules.natural_miss_face && rules.carry_through_natural_ones == CarryNaturalOnes::Spent;
            *carries = !self.faces[index] && !spent;
        }
        let score = rules.score_to_hit(weapon, band, rear.target).unwrap_or(0);
        // 3.5: only ballshot gets the dense target bonus.
        let dense_bonus = if rear.dense && band == RangeBand::Ballshot { rules.fire_ball_vs_dense } else { 0 };
        self.rear_faces = rules.hit_faces(score, modifier + dense_bonus);
        self.rear_chance = rules.hit_chance(score, modifier + dense_bonus);
        Ok(self)
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
        let (weapon, band, target) = (settings.choice("weapon"), settings.choice("range"), settings.choice("target"));
        let modifier = settings.int("modifier") as i32;
        let fire = Fire::new(
            rules,
            weapon,
            band,
            target,
            settings.int("figures") as u32,
            settings.int("guns") as u32,
            settings.int("crew") as u32,
            modifier,
            settings.bool("dense"),
            settings.bool("two_rank"),
        )?;
        if !settings.bool("rear") {
            return Ok(fire);
        }
        let rear = RearTarget {
            distance: settings.int("rear.distance") as u32,
            target: settings.choice("rear.target"),
            dense: settings.bool("rear.dense"),
        };
        let first_score = rules.score_to_hit(weapon, band, target).unwrap_or(0);
        fire.with_rear(rules, weapon, band, first_score, modifier, rear)
    }

    /// The number of dice rolled.
    pub fn dice(&self) -> u32 {
        self.dice
    }

    /// The faces of a D10 that hit (index face - 1).
    pub fn faces(&self) -> [bool; 10] {
        self.faces
    }

    /// The chance one die hits.
    pub fn chance(&self) -> f64 {
        self.chance
    }

    /// 7.8 The chance one die misses the first target and then hits the
    /// rearward one (0 without a rearward target in range).
    pub fn rear_chance(&self) -> f64 {
        let carried = self.carries.iter().filter(|&&c| c).count() as f64 / 10.0;
        carried * self.rear_chance
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
        let (mut hits, mut rear_hits) = (0, 0);
        for _ in 0..self.dice {
            let face = dice.d10() as usize - 1;
            if self.faces[face] {
                hits += 1;
            } else if self.carries[face] {
                // 7.8: a die that missed rolls again at the rearward target.
                rear_hits += i64::from(self.rear_faces[dice.d10() as usize - 1]);
            }
        }
        self.layout.encode(&[hits, rear_hits])
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        // Each die hits independently with the chance of its faces: a
        // binomial. Given h hits, each of the other dice missed, and hits the
        // rearward target with the conditional chance rear / (1 - chance): a
        // binomial again.
        let rear = self.rear_chance();
        let mut law = Vec::new();
        for (h, p) in Pmf::binomial(self.dice, self.chance).iter() {
            let missed = self.dice - h as u32;
            let given_miss = if self.chance < 1.0 { (rear / (1.0 - self.chance)).min(1.0) } else { 0.0 };
            for (r, q) in Pmf::binomial(missed, given_miss).iter() {
                if p * q > 0.0 {
                    law.push((self.layout.encode(&[h, r]), p * q));
                }
            }
        }
        Some(law)
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
