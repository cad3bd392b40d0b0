//! The chance laws of an assault's steps: a volley of small arms (3.1), a
//! salvo of several guns at one target (3.2, 6), a round of melee (4.2).

use super::super::artillery::{Gun, Shot};
use super::super::melee::{CasualtyRule, MeleeSide, resolve};
use super::super::{ArtilleryKind, d20_at_least};
use crate::dice::Dice;
use crate::game::Law;
use crate::pmf::Pmf;
use std::collections::BTreeMap;

/// Casualties of one volley of small arms (3.1): each figure's D20 against a need.
#[derive(Debug)]
pub(in crate::rulesets::hougoumont) struct Volley {
    figures: u32,
    need: i32,
    figures_per_hit: u32,
    outcomes: Vec<(u32, f64)>,
}

impl Volley {
    pub(in crate::rulesets::hougoumont) fn new(figures: u32, need: i32, figures_per_hit: u32) -> Volley {
        let outcomes = Pmf::binomial(figures, d20_at_least(need))
            .iter()
            .filter(|&(_, p)| p > 0.0)
            .map(|(hits, p)| (hits as u32 * figures_per_hit, p))
            .collect();
        Volley { figures, need, figures_per_hit, outcomes }
    }
}

impl Law for Volley {
    fn sample(&self, dice: &mut Dice) -> u32 {
        let mut hits = 0;
        for _ in 0..self.figures {
            hits += u32::from(dice.d20() as i32 >= self.need);
        }
        hits * self.figures_per_hit
    }

    fn outcomes(&self) -> &[(u32, f64)] {
        &self.outcomes
    }
}

/// One turn of several guns at one target: casualties, and for a building
/// whether the roof came off and whether it caught fire, packed as
/// `casualties << 2 | roof_blown << 1 | fire`. Each gun fires in turn, so a
/// roof blown by the first is gone for the second.
#[derive(Debug)]
pub(super) struct Salvo {
    pub(super) gun: Gun,
    pub(super) guns: u32,
    roof_intact: bool,
    figures_per_hit: u32,
    outcomes: Vec<(u32, f64)>,
}

fn pack_shot(casualties: u32, roof_blown: bool, fire: bool) -> u32 {
    casualties << 2 | u32::from(roof_blown) << 1 | u32::from(fire)
}

impl Salvo {
    pub(super) fn new(gun: Gun, guns: u32, roof_intact: bool, figures_per_hit: u32) -> Salvo {
        let mut salvo = Salvo { gun, guns, roof_intact, figures_per_hit, outcomes: Vec::new() };
        // (casualties, roof still intact, fire) after each gun.
        let mut states: BTreeMap<(u32, bool, bool), f64> = BTreeMap::from([((0, roof_intact, false), 1.0)]);
        for _ in 0..guns {
            let mut next = BTreeMap::new();
            for ((casualties, intact, fire), p) in states {
                for (shot, q) in salvo.gun.exact(intact) {
                    let key = (casualties + salvo.casualties(shot), intact && !shot.roof_blown, fire || shot.fire);
                    *next.entry(key).or_insert(0.0) += p * q;
                }
            }
            states = next;
        }
        let mut outcomes: Vec<(u32, f64)> = states
            .into_iter()
            .filter(|&(_, p)| p > 0.0)
            .map(|((casualties, intact, fire), p)| (pack_shot(casualties, roof_intact && !intact, fire), p))
            .collect();
        outcomes.sort_unstable_by_key(|&(value, _)| value);
        salvo.outcomes = outcomes;
        salvo
    }

    /// 3.2: flat hits count `figures_per_hit` each; howitzer and canister results are casualties.
    fn casualties(&self, shot: Shot) -> u32 {
        match self.gun.kind() {
            ArtilleryKind::Flat => shot.hits * self.figures_per_hit,
            _ => shot.hits,
        }
    }
}

impl Law for Salvo {
    fn sample(&self, dice: &mut Dice) -> u32 {
        let (mut casualties, mut intact, mut fire) = (0, self.roof_intact, false);
        for _ in 0..self.guns {
            let shot = self.gun.fire(dice, intact);
            casualties += self.casualties(shot);
            intact &= !shot.roof_blown;
            fire |= shot.fire;
        }
        pack_shot(casualties, self.roof_intact && !intact, fire)
    }

    fn outcomes(&self) -> &[(u32, f64)] {
        &self.outcomes
    }
}

/// One round of melee (4.2): the casualties of each side, packed as
/// `attacker << 8 | defender`.
#[derive(Debug)]
pub(super) struct MeleeRound {
    attacker: MeleeSide,
    defender: MeleeSide,
    rule: CasualtyRule,
    outcomes: Vec<(u32, f64)>,
}

impl MeleeRound {
    pub(super) fn new(attacker: MeleeSide, defender: MeleeSide, rule: CasualtyRule) -> MeleeRound {
        let shift = |side: MeleeSide| i64::from(side.figures) * i64::from(side.modifier);
        let (totals_a, totals_b) = (Pmf::dice(attacker.figures, 20), Pmf::dice(defender.figures, 20));
        // Dense by (attacker losses, defender losses): the totals are many, the losses few.
        let width = defender.figures as usize + 1;
        let mut by_losses = vec![0.0f64; (attacker.figures as usize + 1) * width];
        for (x, px) in totals_a.iter() {
            for (y, py) in totals_b.iter() {
                let result = resolve(rule, attacker, x + shift(attacker), defender, y + shift(defender));
                by_losses[result.attacker_casualties as usize * width + result.defender_casualties as usize] += px * py;
            }
        }
        let outcomes: Vec<(u32, f64)> = by_losses
            .iter()
            .enumerate()
            .filter(|&(_, &p)| p > 0.0)
            .map(|(i, &p)| (((i / width) as u32) << 8 | (i % width) as u32, p))
            .collect();
        MeleeRound { attacker, defender, rule, outcomes }
    }
}

impl Law for MeleeRound {
    fn sample(&self, dice: &mut Dice) -> u32 {
        let a = self.attacker.roll(dice);
        let b = self.defender.roll(dice);
        let result = resolve(self.rule, self.attacker, a, self.defender, b);
        result.attacker_casualties << 8 | result.defender_casualties
    }

    fn outcomes(&self) -> &[(u32, f64)] {
        &self.outcomes
    }
}
