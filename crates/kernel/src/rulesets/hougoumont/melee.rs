//! One round of melee (4): every figure rolls a D20 plus its side's modifier;
//! the side with the lower total loses figures in proportion to the
//! difference. The exact solver convolves each side's D20s.

use super::{MeleeCasualties, MeleeRounding, Quality, Rules};
use crate::dice::Dice;
use crate::outcome::{Layout, Metric, SIDES};
use crate::params::ParamError;
use crate::pmf::Pmf;
use crate::scenario::Scenario;

/// How 4.2's casualties are read: the "effective score per figure" the
/// difference is divided by (`melee_casualties`) and how a fraction of a
/// figure is rounded (`melee_rounding`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CasualtyRule {
    /// The divisor.
    pub divisor: MeleeCasualties,
    /// The rounding.
    pub rounding: MeleeRounding,
}

impl From<MeleeCasualties> for CasualtyRule {
    /// `divisor`, rounded down (the default rounding).
    fn from(divisor: MeleeCasualties) -> CasualtyRule {
        CasualtyRule { divisor, rounding: MeleeRounding::Down }
    }
}

impl Rules {
    /// The rules' reading of 4.2.
    pub fn casualty_rule(&self) -> CasualtyRule {
        CasualtyRule { divisor: self.melee_casualties, rounding: self.melee_rounding }
    }
}

/// 4.2: the loser's casualties when the winner totals `winner_total` with
/// `winner_figures` and the loser `loser_total` with `loser_figures` and melee
/// modifier `loser_modifier`. The difference is divided by an "effective score
/// per figure" as `rule` reads it, rounded as it says (down, or to the
/// nearest figure with halves up), and capped at the loser's figures. A
/// divisor of zero or less (only possible with negative modifiers) takes
/// every figure.
pub fn melee_casualties(
    rule: impl Into<CasualtyRule>,
    winner_total: i64,
    winner_figures: u32,
    loser_total: i64,
    loser_figures: u32,
    loser_modifier: i32,
) -> u32 {
    let difference = winner_total - loser_total;
    if difference <= 0 {
        return 0;
    }
    // difference / (numerator / denominator) = difference * denominator / numerator.
    let rule = rule.into();
    let (numerator, denominator) = match rule.divisor {
        MeleeCasualties::LoserAverage => (loser_total, i64::from(loser_figures)),
        MeleeCasualties::WinnerAverage => (winner_total, i64::from(winner_figures)),
        // 10.5 + modifier = (21 + 2 modifier) / 2.
        MeleeCasualties::ExpectedAverage => (21 + 2 * i64::from(loser_modifier), 2),
    };
    if numerator <= 0 {
        return loser_figures;
    }
    let figures = match rule.rounding {
        MeleeRounding::Down => difference * denominator / numerator,
        // q = d * den / num, rounded half up: floor((2 d den + num) / (2 num)).
        MeleeRounding::Nearest => (2 * difference * denominator + numerator) / (2 * numerator),
    };
    figures.min(i64::from(loser_figures)) as u32
}

/// One side in melee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeleeSide {
    /// Figures engaged.
    pub figures: u32,
    /// 4.1: the modifier of each figure.
    pub modifier: i32,
}

impl MeleeSide {
    /// The side's total: its figures' D20s plus the modifier of each.
    #[inline]
    pub fn roll(&self, dice: &mut Dice) -> i64 {
        let mut total = 0i64;
        for _ in 0..self.figures {
            total += i64::from(dice.d20());
        }
        total + i64::from(self.figures) * i64::from(self.modifier)
    }
}

/// The result of a round: who won and each side's casualties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeleeResult {
    /// 0 attacker, 1 defender, 2 tie (the order of [`SIDES`]).
    pub winner: usize,
    /// Figures the attacker lost.
    pub attacker_casualties: u32,
    /// Figures the defender lost.
    pub defender_casualties: u32,
}

/// 4.2: the result of totals `a` (attacker) and `b` (defender).
pub fn resolve(rule: CasualtyRule, attacker: MeleeSide, a: i64, defender: MeleeSide, b: i64) -> MeleeResult {
    use std::cmp::Ordering;
    match a.cmp(&b) {
        Ordering::Greater => MeleeResult {
            winner: 0,
            attacker_casualties: 0,
            defender_casualties: melee_casualties(rule, a, attacker.figures, b, defender.figures, defender.modifier),
        },
        Ordering::Less => MeleeResult {
            winner: 1,
            attacker_casualties: melee_casualties(rule, b, defender.figures, a, attacker.figures, attacker.modifier),
            defender_casualties: 0,
        },
        // Interpretation (issue default): equal totals are a draw with no casualties.
        Ordering::Equal => MeleeResult { winner: 2, attacker_casualties: 0, defender_casualties: 0 },
    }
}

/// The `melee` scenario: one round.
#[derive(Clone, Debug)]
pub struct Melee {
    attacker: MeleeSide,
    defender: MeleeSide,
    rule: CasualtyRule,
    layout: Layout,
}

impl Melee {
    /// `attacker_figures` of `attacker_quality` against `defender_figures` of `defender_quality`.
    pub fn new(
        rules: &Rules,
        attacker_figures: u32,
        attacker_quality: Quality,
        defender_figures: u32,
        defender_quality: Quality,
    ) -> Result<Melee, ParamError> {
        for (key, figures) in [("attacker.figures", attacker_figures), ("defender.figures", defender_figures)] {
            if !(1..=200).contains(&figures) {
                return Err(ParamError::Invalid {
                    key: key.into(),
                    reason: format!("{figures} figures: a melee needs 1 to 200"),
                });
            }
        }
        let layout = Layout::new(vec![
            Metric::categories("winner", "the side with the higher total (tie: equal totals)", SIDES),
            Metric::integer("attacker_casualties", "figures the attacker lost", 0, i64::from(attacker_figures)),
            Metric::integer("defender_casualties", "figures the defender lost", 0, i64::from(defender_figures)),
        ]);
        Ok(Melee {
            attacker: MeleeSide { figures: attacker_figures, modifier: rules.melee_modifier(attacker_quality) },
            defender: MeleeSide { figures: defender_figures, modifier: rules.melee_modifier(defender_quality) },
            rule: rules.casualty_rule(),
            layout,
        })
    }

    fn encode(&self, result: MeleeResult) -> u64 {
        self.layout.encode(&[
            result.winner as i64,
            i64::from(result.attacker_casualties),
            i64::from(result.defender_casualties),
        ])
    }
}

impl Scenario for Melee {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    #[inline]
    fn sample(&self, dice: &mut Dice) -> u64 {
        let a = self.attacker.roll(dice);
        let b = self.defender.roll(dice);
        self.encode(resolve(self.rule, self.attacker, a, self.defender, b))
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        // 4.2: each total is the sum of its figures' D20s (a convolution) plus
        // figures times the modifier; every pair of totals is one result.
        let shift = |side: MeleeSide| i64::from(side.figures) * i64::from(side.modifier);
        let a_totals = Pmf::dice(self.attacker.figures, 20);
        let b_totals = Pmf::dice(self.defender.figures, 20);
        let mut out = Vec::with_capacity(64);
        let mut by_code = std::collections::HashMap::new();
        for (a, pa) in a_totals.iter() {
            for (b, pb) in b_totals.iter() {
                let result = resolve(
                    self.rule,
                    self.attacker,
                    a + shift(self.attacker),
                    self.defender,
                    b + shift(self.defender),
                );
                *by_code.entry(self.encode(result)).or_insert(0.0) += pa * pb;
            }
        }
        out.extend(by_code);
        Some(out)
    }
}
