//! Two units exchange volleys at a distance (3.1), test morale (5), retreat
//! and rally, until one is destroyed or leaves the field or the turn limit
//! comes. Exact as an absorbing Markov chain when the units are small.
//!
//! Each turn follows the phases of 1: in Give Orders a retreating unit tries
//! to rally (D20 against the morale threshold) or retreats 8 inches more;
//! in Movement a unit that has rallied marches back towards its place at 8
//! inches a turn (interpretation `rallied_units`); in Firing both units that are not retreating
//! fire at once, each at the other's figures at the start of the phase; in the
//! Morale Check a unit that is not retreating tests if it lost 25% of its
//! figures in the phase or fell below half its starting figures, and on a
//! failure retreats 8 inches. Retreats open the distance for both. A unit
//! leaves the field when its retreats take it past its table edge (`edge`
//! inches behind where it started).

#![allow(clippy::needless_range_loop)] // Sides are indexed 0 (attacker) and 1 (defender) throughout: clearer than zips.

use super::{
    Cover, FlankedTest, HalfStrengthTest, LossTestBase, Quality, RalliedUnits, Rules, Troops, d20_at_least, percent,
};
use crate::dice::Dice;
use crate::markov::{self, Step};
use crate::outcome::{Layout, Metric, WINNERS};
use crate::params::ParamError;
use crate::pmf::Pmf;
use crate::scenario::Scenario;
use std::collections::HashMap;

/// One side of a firefight, as the keys give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirefightSide {
    /// Figures at the start.
    pub figures: u32,
    /// Experience (morale).
    pub quality: Quality,
    /// Line, light or rifles (to hit).
    pub troops: Troops,
    /// What this unit stands in or behind (the other side's penalty).
    pub cover: Cover,
    /// The enemy stands on its flank: 5 makes it test morale, which it does
    /// at the first Morale Check (as well as on losses).
    pub flanked: bool,
}

/// The largest product of the two sides' figures the exact solver takes on.
pub const EXACT_FIGURES_PRODUCT: u32 = 400;

/// A side's fixed numbers.
#[derive(Clone, Copy, Debug)]
struct Shooter {
    start: u32,
    /// The D20 it needs to hit at distance 0 (add the distance).
    need_base: i32,
    /// The D20 it needs to pass morale or rally.
    morale_need: i32,
    /// It tests at the first Morale Check because it is flanked (5).
    flanked: bool,
}

/// The state between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct State {
    figures: [u32; 2],
    routed: [bool; 2],
    /// Inches each unit stands behind its starting place.
    back: [u32; 2],
}

/// The `firefight` scenario.
#[derive(Clone, Debug)]
pub struct Firefight {
    sides: [Shooter; 2],
    distance: u32,
    edge: u32,
    turns: u32,
    retreat: u32,
    /// Inches a rallied unit marches back per turn (0: it stands).
    return_march: u32,
    figures_per_hit: u32,
    loss_percent: u32,
    half_percent: u32,
    half_rule: HalfStrengthTest,
    loss_base: LossTestBase,
    flanked_rule: FlankedTest,
    layout: Layout,
}

impl Firefight {
    /// Two units `distance` inches apart, each `edge` inches from its table
    /// edge, for at most `turns` turns.
    pub fn new(
        rules: &Rules,
        attacker: FirefightSide,
        defender: FirefightSide,
        distance: u32,
        edge: u32,
        turns: u32,
    ) -> Result<Firefight, ParamError> {
        for (key, side) in [("attacker.figures", attacker), ("defender.figures", defender)] {
            if !(1..=200).contains(&side.figures) {
                return Err(ParamError::Invalid { key: key.into(), reason: "a unit needs 1 to 200 figures".into() });
            }
        }
        if turns == 0 {
            return Err(ParamError::Invalid { key: "turns".into(), reason: "at least one turn".into() });
        }
        let shooter = |me: FirefightSide, them: FirefightSide| Shooter {
            start: me.figures,
            need_base: rules.small_arms_need(me.troops, them.cover, 0),
            morale_need: rules.morale_need(me.quality, 0),
            flanked: me.flanked,
        };
        let layout = Layout::new(vec![
            Metric::categories("winner", "the side left on the field (none: both gone or the turn limit)", WINNERS),
            Metric::integer("turns", "turns played", 1, i64::from(turns)),
            Metric::integer("attacker_remaining", "the attacker's figures left, percent of its start", 0, 100),
            Metric::integer("defender_remaining", "the defender's figures left, percent of its start", 0, 100),
        ]);
        Ok(Firefight {
            sides: [shooter(attacker, defender), shooter(defender, attacker)],
            distance,
            edge,
            turns,
            retreat: rules.retreat_distance,
            return_march: match rules.rallied_units {
                RalliedUnits::Return => rules.move_infantry,
                RalliedUnits::Stand => 0,
            },
            figures_per_hit: rules.figures_per_hit,
            loss_percent: rules.morale_loss_percent,
            half_percent: rules.morale_half_strength_percent,
            half_rule: rules.half_strength_test,
            loss_base: rules.loss_test_base,
            flanked_rule: rules.flanked_test,
            layout,
        })
    }

    fn start(&self) -> State {
        State { figures: [self.sides[0].start, self.sides[1].start], routed: [false; 2], back: [0; 2] }
    }

    fn encode(&self, winner: usize, turn: u32, state: &State) -> u64 {
        self.layout.encode(&[
            winner as i64,
            i64::from(turn),
            percent(state.figures[0], self.sides[0].start),
            percent(state.figures[1], self.sides[1].start),
        ])
    }

    /// 5: a unit leaves the field when its retreats take it past its edge.
    fn gone(&self, back: u32) -> bool {
        back > self.edge
    }

    /// 2: units not retreating march back towards their places.
    fn march(&self, state: &mut State) {
        for i in 0..2 {
            if !state.routed[i] {
                state.back[i] -= state.back[i].min(self.return_march);
            }
        }
    }

    /// The end code if a side has left the field, by retreat.
    fn left_field(&self, state: &State, turn: u32) -> Option<u64> {
        match (self.gone(state.back[0]), self.gone(state.back[1])) {
            (false, false) => None,
            (true, false) => Some(self.encode(1, turn, state)),
            (false, true) => Some(self.encode(0, turn, state)),
            (true, true) => Some(self.encode(2, turn, state)),
        }
    }

    /// The end code if a side has been destroyed.
    fn destroyed(&self, state: &State, turn: u32) -> Option<u64> {
        match (state.figures[0] == 0, state.figures[1] == 0) {
            (false, false) => None,
            (true, false) => Some(self.encode(1, turn, state)),
            (false, true) => Some(self.encode(0, turn, state)),
            (true, true) => Some(self.encode(2, turn, state)),
        }
    }

    /// The D20 side `i` needs to hit at the current distance.
    fn need(&self, state: &State, i: usize) -> i32 {
        let distance = self.distance + state.back[0] + state.back[1];
        self.sides[i].need_base + distance as i32
    }

    /// 5: whether side `i` must test after going from `before` to `after` figures in a phase.
    /// 5: a unit tests when it lost 25% in the phase, fell below half
    /// strength, or (at the first Morale Check) stands flanked.
    /// Interpretation `flanked_test`: at the first Morale Check only, or at
    /// every one (the units never move sideways, so a flanked unit stays so).
    fn must_test(&self, i: usize, turn: u32, before: u32, after: u32) -> bool {
        let flanked = self.sides[i].flanked && (turn == 1 || self.flanked_rule == FlankedTest::EveryCheck);
        let start = self.sides[i].start;
        let lost = before - after;
        // Interpretation `loss_test_base`: 25% of the figures at the start of the phase, or of the unit's start.
        let base = match self.loss_base {
            LossTestBase::PhaseStart => before,
            LossTestBase::UnitStart => start,
        };
        let heavy = lost > 0 && lost * 100 >= self.loss_percent * base;
        let below = after * 100 < self.half_percent * start;
        let was_below = before * 100 < self.half_percent * start;
        let half = below && (self.half_rule == HalfStrengthTest::EveryTurn || !was_below);
        heavy || half || flanked
    }
}

impl Scenario for Firefight {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let mut state = self.start();
        for turn in 1..=self.turns {
            // 1, 5: Give Orders: a retreating unit rallies on a pass, else retreats again.
            for i in 0..2 {
                if state.routed[i] {
                    if dice.d20() as i32 >= self.sides[i].morale_need {
                        state.routed[i] = false;
                    } else {
                        state.back[i] += self.retreat;
                    }
                }
            }
            if let Some(code) = self.left_field(&state, turn) {
                return code;
            }
            // 2: Movement: a rallied unit marches back (interpretation `rallied_units`).
            self.march(&mut state);
            // 3.1: both fire at once, at the figures standing at the start of the phase.
            let before = state.figures;
            for i in 0..2 {
                if !state.routed[i] {
                    let need = self.need(&state, i);
                    let mut hits = 0;
                    for _ in 0..before[i] {
                        hits += u32::from(dice.d20() as i32 >= need);
                    }
                    let target = 1 - i;
                    state.figures[target] = state.figures[target].saturating_sub(hits * self.figures_per_hit);
                }
            }
            if let Some(code) = self.destroyed(&state, turn) {
                return code;
            }
            // 5: Morale Check; a failure retreats 8 inches.
            for i in 0..2 {
                if !state.routed[i]
                    && self.must_test(i, turn, before[i], state.figures[i])
                    && (dice.d20() as i32) < self.sides[i].morale_need
                {
                    state.routed[i] = true;
                    state.back[i] += self.retreat;
                }
            }
            if let Some(code) = self.left_field(&state, turn) {
                return code;
            }
        }
        self.encode(2, self.turns, &state)
    }

    fn has_exact(&self) -> bool {
        self.sides[0].start * self.sides[1].start <= EXACT_FIGURES_PRODUCT
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        if self.sides[0].start * self.sides[1].start > EXACT_FIGURES_PRODUCT {
            return None;
        }
        let mut volleys: HashMap<(u32, i32), Pmf> = HashMap::new();
        let mut volley = move |figures: u32, need: i32| {
            volleys.entry((figures, need)).or_insert_with(|| Pmf::binomial(figures, d20_at_least(need))).clone()
        };
        let step = |start: &State, turn: u32| -> Vec<(Step<State>, f64)> {
            let mut out = Vec::new();
            // Give Orders: each retreating side rallies or retreats again.
            let mut orders = vec![(*start, 1.0)];
            for i in 0..2 {
                if start.routed[i] {
                    let pass = d20_at_least(self.sides[i].morale_need);
                    orders = orders
                        .into_iter()
                        .flat_map(|(s, p)| {
                            let mut rallied = s;
                            rallied.routed[i] = false;
                            let mut fled = s;
                            fled.back[i] += self.retreat;
                            [(rallied, p * pass), (fled, p * (1.0 - pass))]
                        })
                        .collect();
                }
            }
            for (mut state, p) in orders {
                if let Some(code) = self.left_field(&state, turn) {
                    out.push((Step::End(code), p));
                    continue;
                }
                self.march(&mut state);
                let before = state.figures;
                let hits_of = |i: usize, volley: &mut dyn FnMut(u32, i32) -> Pmf| {
                    if state.routed[i] { Pmf::point(0) } else { volley(before[i], self.need(&state, i)) }
                };
                let hits0 = hits_of(0, &mut volley);
                let hits1 = hits_of(1, &mut volley);
                for (h0, p0) in hits0.iter() {
                    for (h1, p1) in hits1.iter() {
                        let q = p * p0 * p1;
                        if q == 0.0 {
                            continue;
                        }
                        let mut fired = state;
                        fired.figures[1] = before[1].saturating_sub(h0 as u32 * self.figures_per_hit);
                        fired.figures[0] = before[0].saturating_sub(h1 as u32 * self.figures_per_hit);
                        if let Some(code) = self.destroyed(&fired, turn) {
                            out.push((Step::End(code), q));
                            continue;
                        }
                        let mut after = vec![(fired, q)];
                        for i in 0..2 {
                            if !fired.routed[i] && self.must_test(i, turn, before[i], fired.figures[i]) {
                                let pass = d20_at_least(self.sides[i].morale_need);
                                after = after
                                    .into_iter()
                                    .flat_map(|(s, r)| {
                                        let mut broke = s;
                                        broke.routed[i] = true;
                                        broke.back[i] += self.retreat;
                                        [(s, r * pass), (broke, r * (1.0 - pass))]
                                    })
                                    .collect();
                            }
                        }
                        for (s, r) in after {
                            match self.left_field(&s, turn) {
                                Some(code) => out.push((Step::End(code), r)),
                                None => out.push((Step::Continue(s), r)),
                            }
                        }
                    }
                }
            }
            out
        };
        Some(markov::absorb(self.start(), self.turns, step, |s| self.encode(2, self.turns, s)))
    }
}
