//! One attack (a unit's fire or a cavalry charge) as dice: how many D6, the
//! score each needs, the re-rolls the Waterloo commanders grant, and what
//! happens to the hits afterwards (halved for light infantry, doubled from
//! cavalry). The same value samples the dice and gives their exact law.

use super::{Effect, HalfHits, LightInfantryCharged, PivotToFace, Rules, UnitType};
use crate::dice::Dice;
use crate::pmf::Pmf;

/// What happens to the successes after the roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterRoll {
    /// The hits are the successes.
    Same,
    /// Half the successes, rounded down.
    HalveDown,
    /// Half the successes, rounded up.
    HalveUp,
    /// The successes times this.
    Times(u32),
}

impl AfterRoll {
    /// The hits of `successes` successes.
    pub fn apply(self, successes: u32) -> u32 {
        match self {
            AfterRoll::Same => successes,
            AfterRoll::HalveDown => successes / 2,
            AfterRoll::HalveUp => successes.div_ceil(2),
            AfterRoll::Times(factor) => successes * factor,
        }
    }
}

/// The most dice one attack may roll.
pub const MAX_DICE: u32 = 40;

/// One attack's dice and the exact distribution of the hits it inflicts.
#[derive(Clone, Debug, PartialEq)]
pub struct Attack {
    /// How many D6.
    pub dice: u32,
    /// The score each die needs (a D6 of this or more hits).
    pub score: u32,
    /// Re-roll one missed die (Hill when shooting, Lobau in melee).
    pub reroll_miss: bool,
    /// The enemy forces one successful die to be re-rolled (Orange, Reille).
    pub forced_reroll_hit: bool,
    /// What happens to the successes.
    pub after: AfterRoll,
    /// The hits of each number of successes, `0..=dice`.
    hits_of_successes: Vec<u32>,
    /// (hits, probability), nonzero only, in hit order.
    law: Vec<(u32, f64)>,
}

impl Attack {
    /// An attack of `dice` D6 scoring `score`+, with re-rolls and an after-roll
    /// rule. `dice` is clamped to [`MAX_DICE`].
    pub fn new(dice: u32, score: u32, reroll_miss: bool, forced_reroll_hit: bool, after: AfterRoll) -> Attack {
        let dice = dice.min(MAX_DICE);
        let hits_of_successes: Vec<u32> = (0..=dice).map(|k| after.apply(k)).collect();
        let law = Self::successes(dice, score, reroll_miss, forced_reroll_hit)
            .iter()
            .filter(|&(_, p)| p > 0.0)
            .map(|(k, p)| (after.apply(k as u32), p))
            .fold(Vec::<(u32, f64)>::new(), |mut law, (hits, p)| {
                match law.iter_mut().find(|(h, _)| *h == hits) {
                    Some(slot) => slot.1 += p,
                    None => law.push((hits, p)),
                }
                law
            });
        let mut law = law;
        law.sort_by_key(|&(h, _)| h);
        Attack { dice, score, reroll_miss, forced_reroll_hit, after, hits_of_successes, law }
    }

    /// The chance that one die scores (a D6 of `score` or more).
    pub fn chance(score: u32) -> f64 {
        f64::from(7u32.saturating_sub(score.max(1))) / 6.0
    }

    /// The exact law of the successes: a binomial of the dice, then the
    /// re-roll of one miss (if any missed), then the forced re-roll of one
    /// success (if any succeeded).
    pub fn successes(dice: u32, score: u32, reroll_miss: bool, forced_reroll_hit: bool) -> Pmf {
        let p = Self::chance(score);
        let mut law = Pmf::binomial(dice, p);
        if reroll_miss {
            law = Pmf::mixture(
                &law.iter()
                    .map(|(k, q)| (q, if k < i64::from(dice) { Pmf::bernoulli(p).map(|b| b + k) } else { Pmf::point(k) }))
                    .collect::<Vec<_>>(),
            );
        }
        if forced_reroll_hit {
            law = Pmf::mixture(
                &law.iter().map(|(k, q)| (q, if k > 0 { Pmf::bernoulli(p).map(|b| b + k - 1) } else { Pmf::point(0) })).collect::<Vec<_>>(),
            );
        }
        law
    }

    /// The hits' exact law: (hits, probability), nonzero only, in hit order.
    pub fn law(&self) -> &[(u32, f64)] {
        &self.law
    }

    /// The most hits this attack can inflict.
    pub fn max_hits(&self) -> u32 {
        self.hits_of_successes.last().copied().unwrap_or(0)
    }

    /// Rolls the attack: the hits it inflicts.
    #[inline]
    pub fn roll(&self, dice: &mut Dice) -> u32 {
        let mut successes = 0;
        for _ in 0..self.dice {
            successes += u32::from(dice.d6() >= self.score);
        }
        if self.reroll_miss && successes < self.dice && dice.d6() >= self.score {
            successes += 1;
        }
        if self.forced_reroll_hit && successes > 0 && dice.d6() < self.score {
            successes -= 1;
        }
        self.hits_of_successes[successes as usize]
    }
}

/// What a shooter's fire needs to know about its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FireTarget {
    /// Light infantry (or rifles): half hits from infantry and artillery fire.
    pub light: bool,
    /// The shooter's dice double: artillery "2 x dice vs flanks of infantry or
    /// cavalry, or vs Squares" (the caller decides when it applies).
    pub double: bool,
    /// The target holds a town or strongpoint: "Line and Light infantry
    /// attacked at half effect by Line Infantry" (artillery "fires at units in
    /// them as normal"; light infantry's "Attacks ignore cover").
    pub in_town: bool,
}

/// Re-rolls that commanders grant an attack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rerolls {
    /// The attacker re-rolls one missed die (Hill, Lobau).
    pub miss: bool,
    /// The defender forces one successful die to be re-rolled (Orange, Reille).
    pub forced_hit: bool,
}

/// A unit's fire at a range, or `None` when it cannot shoot that far.
///
/// Shooting: the unit table's dice (doubled when `target.double`), plus
/// `extra_dice`, each hitting on the effect's score; light infantry targets
/// take half hits (interpretation `light_infantry_half_hits`).
pub fn fire(
    rules: &Rules,
    shooter: UnitType,
    range: u32,
    effect: Effect,
    target: FireTarget,
    extra_dice: u32,
    rerolls: Rerolls,
) -> Option<Attack> {
    let mut dice = rules.shooting_dice(shooter, range)?;
    if target.double {
        dice *= rules.artillery_flank_multiplier;
    }
    dice += extra_dice;
    let mut effect = effect;
    if target.in_town && shooter == UnitType::LineInfantry {
        effect = effect.halved();
    }
    let mut after = AfterRoll::Same;
    // Unit table, Light Infantry: "Take half hits from infantry/artillery fire".
    if target.light {
        match rules.light_infantry_half_hits {
            HalfHits::FivePlus => effect = effect.halved(),
            HalfHits::RoundDown => after = AfterRoll::HalveDown,
            HalfHits::RoundUp => after = AfterRoll::HalveUp,
        }
    }
    Some(Attack::new(dice, rules.shooting_score(effect), rerolls.miss, rerolls.forced_hit, after))
}

/// What a charge needs to know about its situation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChargeSituation {
    /// The charge strikes a flank (line infantry may pivot to face it).
    pub flank: bool,
    /// The target is in column of route: "Treat units as flanked for all
    /// combat" (no pivoting out of it; light infantry still has "No flanks").
    pub target_column: bool,
    /// The charger has shock.
    pub shock: bool,
    /// The target has shock too.
    pub target_shock: bool,
    /// The target is in cover (artillery in cover is not doubled against).
    pub target_in_cover: bool,
    /// The target holds a town or strongpoint: charged "at half effect vs
    /// cavalry/guns (5+) and quarter effect vs Infantry (6)", never in the flank.
    pub target_in_town: bool,
    /// The charge's effect (half into towns, woods by road, over bridges, in column of route).
    pub effect: Effect,
    /// Extra dice (commanders, or the user's).
    pub extra_dice: u32,
}

/// The dice of a cavalry charge and what its hits become.
///
/// Unit table, Cavalry and Heavy Cavalry: 3D6 ("2D6 v Heavy Cavalry" for
/// cavalry), "2x dice flank attack or vs Light Infantry, or Artillery not in
/// cover"; Cavalry Charges: "Units with Shock charging units without same
/// gain an extra D6". Light infantry has "No flanks" and line infantry "may
/// pivot to face a charge" (interpretation `line_infantry_pivot`).
pub fn charge(rules: &Rules, charger: UnitType, target: UnitType, situation: ChargeSituation, rerolls: Rerolls) -> Attack {
    let mut dice = rules.charge_base_dice(charger, target);
    let pivots = target == UnitType::LineInfantry && rules.line_infantry_pivot == PivotToFace::Always;
    // Towns: "cannot be charged/shot in the flank/rear".
    let flanked = ((situation.flank && !pivots) || situation.target_column) && !target.is_light() && !situation.target_in_town;
    let doubles_light = target.is_light() && rules.light_infantry_charged != LightInfantryCharged::DoubleHits;
    // A town is cover for guns that stand in one.
    let doubles_guns = target == UnitType::Artillery && !situation.target_in_cover && !situation.target_in_town;
    // Several reasons to double double once.
    if flanked || doubles_light || doubles_guns {
        dice *= rules.charge_multiplier;
    }
    if situation.shock && !situation.target_shock {
        dice += rules.shock_extra_dice;
    }
    dice += situation.extra_dice;
    // Unit table, Light Infantry: "double hits from cavalry" (interpretation `light_infantry_charged`).
    let after = if target.is_light() && rules.light_infantry_charged != LightInfantryCharged::DoubleDice {
        AfterRoll::Times(rules.light_infantry_cavalry_hit_multiplier)
    } else {
        AfterRoll::Same
    };
    let mut effect = situation.effect;
    if situation.target_in_town {
        // Towns and Strongpoints: half effect against cavalry and guns, quarter against infantry.
        effect = effect.max(if target.is_infantry() { Effect::Quarter } else { Effect::Half });
    }
    Attack::new(dice, rules.charge_score(effect), rerolls.miss, rerolls.forced_hit, after)
}
