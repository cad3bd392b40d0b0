//! Two units exchange volleys at a distance (3.1), test morale (5), retreat,
//! rally and decide where to stand, until one is destroyed or leaves the
//! field or the turn limit comes: a game on the decision model
//! ([`crate::game`]).
//!
//! # A turn
//!
//! Each turn follows the phases of 1, as three steps of the game (orders and
//! movement; the attacker's volley; the defender's volley and the Morale
//! Check), so `turns` counts three steps as one turn:
//!
//! 1. **Give Orders.** A retreating unit tries to rally (D20 against its
//!    morale need) or retreats 8 inches more; past its table edge (`edge`
//!    inches behind its starting place) it has left the field.
//! 2. **Movement.** Each unit not retreating decides ([`MOVE`]), the attacker
//!    first and the defender knowing its move: hold; come forward at most its
//!    move (a unit that has rallied "can act normally", 5), while the units
//!    stay at least the start distance apart; or fall back a full move, if
//!    that keeps it on the table.
//! 3. **Firing.** Both units not retreating fire at once, each with its
//!    figures at the start of the phase (3.1).
//! 4. **Morale Check.** A unit not retreating tests if it lost 25% of its
//!    figures in the phase, fell below half its starting figures, or stands
//!    flanked (the first Morale Check, or every one under `flanked_test =
//!    every_check`: the units never move sideways); a failure retreats 8
//!    inches.
//!
//! # Decisions
//!
//! Where a unit stands decides both units' chances to hit (a figure hits on
//! the distance, 3.1), so with unequal troops or cover the better shots gain
//! by opening the range and the worse by closing it, and a unit losing the
//! exchange may fall back out of range. The options are listed hold first,
//! then come forward, then fall back. `bold` comes forward as far as it may
//! and never falls back (the fixed play before the game model,
//! `rallied_units = return`); `cautious` holds where it is (`rallied_units =
//! stand`).
//!
//! # Following (`follow`)
//!
//! §2 gives infantry 8 inches a turn and sets no direction, so a unit may
//! follow an enemy that falls back: it comes forward past its own starting
//! place while the two stay at least the scenario's `distance` apart (the
//! range the units chose to fight at; closing further is the `assault`'s
//! business, and would multiply the states by every inch between them).
//! `follow = false` is the reading before: no unit comes forward past its
//! own starting place, so a unit losing the exchange falls back out of
//! range and the fight ends undecided (86% of fights at the defaults).
//!
//! # Purpose
//!
//! A stand-up fight by default (`purpose = stand`): both lines must hold,
//! and a line that leaves the field has lost; the turn limit and both
//! leaving at once are draws. Measured on the default (20 line figures a
//! side, 15 inches, 30 turns) under best play: the attacker wins 52.7%, the
//! defender 46.3%, 1.0% undecided (both break at once); with `follow =
//! false`, 7.3% / 7.3% / 85.4%. Under `attack` (the attacker must drive the
//! defender off by the limit) 52.7% / 47.3%.
//!
//! The start distance, swept under best play (ten line figures a side, 15
//! turns; test `the_firefight_start_distance_sweep_*`), runs smoothly (the
//! attacker 41% to 52% from 4 to 18 inches) but for three places. From 1 to
//! 2 inches: at 1 every D20 hits, so both units die in the first volley
//! (all draws), at 2 a figure misses on a 1. From 19 to 20 and 20 to 21:
//! units never come nearer than they started, at 20 inches only a natural
//! 20 hits, and past 20 none does. Without following (`follow = false`) the
//! sweep also jumps from 4 to 5 inches (a unit falling behind escapes out of
//! range in two moves back within its 16-inch edge) and from 10 to 11 (the
//! attacker, moving first, falls back and the defender follows only to its
//! own place).
//!
//! Moves are whole: a full move, or the whole way to the nearest place
//! allowed when that is less. Retreats and moves are both 8 inches by
//! default, so the states stay few. The solver takes units whose figures
//! multiply to at most [`EXACT_FIGURES_PRODUCT`] (40 against 40); beyond it
//! both sides play `bold`, the fallback. Measured (release, one run,
//! `/usr/bin/time -v examples/solve_time hougoumont firefight
//! attacker.figures=N defender.figures=N`): 20 against 20 in 0.17 s and 59
//! MB, 30 against 30 in 0.59 s and 159 MB, 40 against 40 in 1.7 s and 374 MB
//! at the other defaults; the dearest 40 against 40 met were from 4 inches
//! (3.9 s, 738 MB) and with a 30-inch edge (2.9 s, 562 MB). The limit was
//! 400 (20 against 20), and a sweep of figures fell off it: a Veteran
//! attacker against 20 won 57.7% with 20 figures (solved) and nothing with
//! 21 (bold play, all undecided). Now the sweep runs 35.9, 46.8, 57.7, 68.6
//! and 77.3% from 18 to 22 figures (30 turns), about 11 points a figure near
//! even: a stand-up fight between near-equal lines turns on who breaks first,
//! and each figure is 5% of the unit (test
//! `the_firefight_figures_sweep_has_no_cliff_where_the_solver_stopped`,
//! every size from 10 to 40 figures against 20 at 10 turns).

#![allow(clippy::needless_range_loop)] // Sides are indexed 0 (attacker) and 1 (defender) throughout: clearer than zips.

use super::assault::Volley;
use super::{Cover, FlankedTest, HalfStrengthTest, LossTestBase, Quality, Rules, Troops, percent};
use crate::game::{ATTACKER, Decision, End, Fate, Game, Policy};
use crate::outcome::{Layout, Metric, WINNERS};
use crate::params::ParamError;
use std::sync::OnceLock;

/// One side of a firefight, as the keys give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirefightSide {
    /// Figures at the start.
    pub figures: u32,
    /// Experience (morale).
    pub quality: Quality,
    /// Line, light or rifles (to hit; light troops move as light infantry).
    pub troops: Troops,
    /// What this unit stands in or behind (the other side's penalty).
    pub cover: Cover,
    /// The enemy stands on its flank: 5 makes it test morale, which it does
    /// at the first Morale Check (as well as on losses).
    pub flanked: bool,
}

/// The largest product of the two sides' figures the exact solver takes on:
/// 40 against 40, in about 1.7 s and 374 MB at the other defaults (release).
pub const EXACT_FIGURES_PRODUCT: u32 = 1600;

/// The decision of each unit not retreating in the Movement phase.
pub static MOVE: Decision = Decision {
    name: "move",
    who: "either side",
    doc: "In Movement (2), a unit not retreating holds, comes forward at most its move (a rallied unit \"can act \
          normally\", 5) while the units stay at least the start distance apart (with `follow=false`, no further \
          than its own starting place), or falls back a full move if that keeps it on the table.",
    options: "hold; come forward (at most a move, never nearer than the start distance); fall back a move",
};

static DECISIONS: &[&Decision] = &[&MOVE];

/// The options of [`MOVE`], in the order ties are broken.
const HOLD: u16 = 0;
const COME_BACK: u16 = 1;
const FALL_BACK: u16 = 2;

/// The steps of a turn.
const ORDERS: u8 = 0;
const ATTACKER_VOLLEY: u8 = 1;
const DEFENDER_VOLLEY: u8 = 2;
/// Steps per turn.
pub const PHASES: u32 = 3;

/// Side `i` is retreating: flag `ROUTED << i`.
const ROUTED: u8 = 1;

/// A side's fixed numbers.
#[derive(Clone, Copy, Debug)]
struct Shooter {
    start: u32,
    /// The D20 it needs to hit at distance 0 (add the distance).
    need_base: i32,
    /// The D20 it needs to pass morale or rally.
    morale_need: i32,
    /// Its move, inches (2).
    move_inches: u32,
    /// It tests because it is flanked (5).
    flanked: bool,
}

/// A firefight between steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lines {
    figures: [u8; 2],
    /// Inches each unit stands behind its starting place (negative: ahead
    /// of it, having followed an enemy that fell back).
    back: [i16; 2],
    /// The defender's figures at the start of the Firing phase, between the volleys.
    mark: u8,
    /// The next step of the turn.
    phase: u8,
    /// `ROUTED << side`; the first Morale Check is past: 4.
    flags: u8,
}

/// The first Morale Check has been taken (a flank under `first_check` no longer tests).
const CHECKED: u8 = 4;

/// The `firefight` scenario, as a game.
#[derive(Debug)]
pub struct Firefight {
    /// What each side must achieve (the scenario's `purpose` key).
    purpose: crate::game::Purpose,
    sides: [Shooter; 2],
    distance: u32,
    edge: u32,
    /// A unit may come forward past its own starting place, following an
    /// enemy that fell back, while the two stay `distance` apart or more.
    follow: bool,
    turns: u32,
    retreat: u32,
    figures_per_hit: u32,
    loss_percent: u32,
    half_percent: u32,
    half_rule: HalfStrengthTest,
    loss_base: LossTestBase,
    flanked_rule: FlankedTest,
    /// Volleys by side, firing figures and need (1..=21), built when first needed.
    volleys: [Vec<OnceLock<Volley>>; 2],
    layout: Layout,
}

/// The D20 needs that differ: 1 or less (always), 2..=20, 21 or more (never).
const NEEDS: usize = 21;

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
        // Distances behind a place are kept in a byte.
        if edge + rules.retreat_distance > 255 {
            return Err(ParamError::Invalid {
                key: "edge".into(),
                reason: "the edge and a retreat must add to at most 255 inches".into(),
            });
        }
        let shooter = |me: FirefightSide, them: FirefightSide| Shooter {
            start: me.figures,
            need_base: rules.small_arms_need(me.troops, them.cover, 0),
            morale_need: rules.morale_need(me.quality, 0),
            // 2: light infantry moves at its own rate; line and rifles as infantry.
            move_inches: if me.troops == Troops::Light { rules.move_light_infantry } else { rules.move_infantry },
            flanked: me.flanked,
        };
        let layout = Layout::new(vec![
            Metric::categories(
                "winner",
                "the side left on the field (none: both gone or the turn limit); under `purpose = attack` every fight the attacker does not win is the defender's (`ended` says how each ended)",
                WINNERS,
            ),
            Metric::integer("turns", "turns played", 1, i64::from(turns)),
            Metric::integer("attacker_remaining", "the attacker's figures left, percent of its start", 0, 100),
            Metric::integer("defender_remaining", "the defender's figures left, percent of its start", 0, 100),
        ]);
        let volleys = |figures: u32| (0..(figures as usize + 1) * NEEDS).map(|_| OnceLock::new()).collect();
        Ok(Firefight {
            purpose: crate::game::Purpose::Manoeuvre,
            sides: [shooter(attacker, defender), shooter(defender, attacker)],
            distance,
            edge,
            follow: false,
            turns,
            retreat: rules.retreat_distance,
            figures_per_hit: rules.figures_per_hit,
            loss_percent: rules.morale_loss_percent,
            half_percent: rules.morale_half_strength_percent,
            half_rule: rules.half_strength_test,
            loss_base: rules.loss_test_base,
            flanked_rule: rules.flanked_test,
            volleys: [volleys(attacker.figures), volleys(defender.figures)],
            layout,
        })
    }

    fn routed(state: &Lines, i: usize) -> bool {
        state.flags & (ROUTED << i) != 0
    }

    /// 5: the winner if a side has left the field past its edge.
    fn left_field(&self, state: &Lines) -> Option<End> {
        let edge = self.edge as i16;
        match (state.back[0] > edge, state.back[1] > edge) {
            (false, false) => None,
            (true, false) => Some(End::Defender),
            (false, true) => Some(End::Attacker),
            (true, true) => Some(End::BothBroke),
        }
    }

    /// The winner if a side has been destroyed.
    fn destroyed(state: &Lines) -> Option<End> {
        match (state.figures[0] == 0, state.figures[1] == 0) {
            (false, false) => None,
            (true, false) => Some(End::Defender),
            (false, true) => Some(End::Attacker),
            (true, true) => Some(End::BothBroke),
        }
    }

    /// The inches between the units.
    fn apart(&self, state: &Lines) -> u32 {
        (self.distance as i32 + i32::from(state.back[0]) + i32::from(state.back[1])) as u32
    }

    /// 3.1: the volley of side `i` with `figures` figures, or `None` if it cannot hit.
    fn volley(&self, state: &Lines, i: usize, figures: u8) -> Option<&Volley> {
        let need = self.sides[i].need_base + self.apart(state) as i32;
        if need > 20 || figures == 0 {
            return None;
        }
        let need = need.max(1);
        let index = usize::from(figures) * NEEDS + need as usize - 1;
        Some(self.volleys[i][index].get_or_init(|| Volley::new(u32::from(figures), need, self.figures_per_hit)))
    }

    /// 5: whether side `i` must test after going from `before` to `after`
    /// figures in a phase: it lost 25% (interpretation `loss_test_base`), fell
    /// below half (`half_strength_test`), or stands flanked (`flanked_test`:
    /// at the first Morale Check only, or at every one).
    fn must_test(&self, i: usize, flags: u8, before: u8, after: u8) -> bool {
        let flanked = self.sides[i].flanked && (flags & CHECKED == 0 || self.flanked_rule == FlankedTest::EveryCheck);
        let start = self.sides[i].start;
        let (before, after) = (u32::from(before), u32::from(after));
        let lost = before - after;
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

    /// The ways in 20 that side `i` passes a morale test or rallies.
    fn pass_ways(&self, i: usize) -> u32 {
        (21 - self.sides[i].morale_need).clamp(0, 20) as u32
    }

    /// Side `i`'s options, hold first.
    fn options(&self, state: &Lines, i: usize) -> ([u16; 3], usize) {
        let mut options = [HOLD; 3];
        let mut count = 1;
        if self.forward_room(state, i) > 0 && self.sides[i].move_inches > 0 {
            options[count] = COME_BACK;
            count += 1;
        }
        if i32::from(state.back[i]) + self.sides[i].move_inches as i32 <= self.edge as i32
            && self.sides[i].move_inches > 0
        {
            options[count] = FALL_BACK;
            count += 1;
        }
        (options, count)
    }

    /// How far side `i` may come forward: to the start distance from the
    /// enemy where it may follow (`follow`), else to its own starting place.
    fn forward_room(&self, state: &Lines, i: usize) -> i16 {
        if self.follow { state.back[0] + state.back[1] } else { state.back[i].max(0) }
    }

    /// 1, 2, 5: Give Orders (rally or retreat) and Movement (the decisions).
    fn orders<F: Fate>(&self, s: &mut Lines, fate: &mut F) -> Option<End> {
        s.phase = ATTACKER_VOLLEY;
        for i in 0..2 {
            if Self::routed(s, i) {
                // 5: "the unit may attempt to rally by rolling a D20."
                if fate.ways(self.pass_ways(i), 20) {
                    s.flags &= !(ROUTED << i);
                } else {
                    // 5: "it continues to retreat 8 inches per turn until it rallies or exits."
                    s.back[i] += self.retreat as i16;
                }
            }
        }
        if let Some(winner) = self.left_field(s) {
            return Some(winner);
        }
        for i in 0..2 {
            if Self::routed(s, i) {
                continue;
            }
            let (options, count) = self.options(s, i);
            let room = self.forward_room(s, i);
            let chosen = fate.decide(i as u8, &MOVE, &options[..count], &|policy| match policy {
                Policy::Bold if room > 0 => COME_BACK,
                _ => HOLD,
            });
            let step = self.sides[i].move_inches as i16;
            match chosen {
                COME_BACK => s.back[i] -= room.min(step),
                FALL_BACK => s.back[i] += step,
                _ => {}
            }
        }
        None
    }

    /// 3.1: the attacker's volley, from its figures at the start of the phase.
    fn attacker_volley<F: Fate>(&self, s: &mut Lines, fate: &mut F) {
        s.phase = DEFENDER_VOLLEY;
        s.mark = s.figures[1];
        if !Self::routed(s, 0)
            && let Some(volley) = self.volley(s, 0, s.figures[0])
        {
            let hits = fate.draw(volley);
            s.figures[1] = s.figures[1].saturating_sub(hits.min(255) as u8);
        }
    }

    /// 3.1, 5: the defender's volley, from its figures at the start of the
    /// phase (both fire at once), then the Morale Check.
    fn defender_volley_and_morale<F: Fate>(&self, s: &mut Lines, fate: &mut F) -> Option<End> {
        s.phase = ORDERS;
        let before = [s.figures[0], s.mark];
        s.mark = 0;
        if !Self::routed(s, 1)
            && let Some(volley) = self.volley(s, 1, before[1])
        {
            let hits = fate.draw(volley);
            s.figures[0] = s.figures[0].saturating_sub(hits.min(255) as u8);
        }
        if let Some(winner) = Self::destroyed(s) {
            return Some(winner);
        }
        // 5: a retreating unit does not test again until it has rallied; a
        // failure retreats 8 inches.
        let flags = s.flags;
        for i in 0..2 {
            if !Self::routed(s, i)
                && self.must_test(i, flags, before[i], s.figures[i])
                && !fate.ways(self.pass_ways(i), 20)
            {
                s.flags |= ROUTED << i;
                s.back[i] += self.retreat as i16;
            }
        }
        // The first Morale Check is past (kept only where a flank can care).
        if self.sides[0].flanked || self.sides[1].flanked {
            s.flags |= CHECKED;
        }
        self.left_field(s)
    }
}

impl Firefight {
    /// Whether a unit may follow an enemy that fell back (`follow`): come
    /// forward past its own starting place while the units stay at least
    /// the start distance apart.
    pub fn with_following(mut self, follow: bool) -> Self {
        self.follow = follow;
        self
    }

    /// This fight under `purpose`: what each side must achieve by the turn
    /// limit ([`crate::game::Purpose`]).
    pub fn with_purpose(mut self, purpose: crate::game::Purpose) -> Self {
        self.purpose = purpose;
        self
    }
}

impl Game for Firefight {
    type State = Lines;

    fn purpose(&self) -> crate::game::Purpose {
        self.purpose
    }

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn start(&self) -> Lines {
        Lines {
            figures: [self.sides[0].start as u8, self.sides[1].start as u8],
            back: [0; 2],
            mark: 0,
            phase: ORDERS,
            flags: 0,
        }
    }

    fn steps(&self) -> u32 {
        self.turns * PHASES
    }

    fn step<F: Fate>(&self, state: &mut Lines, fate: &mut F) -> Option<End> {
        match state.phase {
            ORDERS => self.orders(state, fate),
            ATTACKER_VOLLEY => {
                self.attacker_volley(state, fate);
                None
            }
            _ => self.defender_volley_and_morale(state, fate),
        }
    }

    fn code(&self, winner: u8, steps: u32, state: &Lines) -> u64 {
        self.layout.encode(&[
            i64::from(winner),
            i64::from(steps.div_ceil(PHASES)),
            percent(u32::from(state.figures[0]), self.sides[0].start),
            percent(u32::from(state.figures[1]), self.sides[1].start),
        ])
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        DECISIONS
    }

    /// Beyond the solver both sides come back as soon as they rally.
    fn fallback(&self) -> Policy {
        Policy::Bold
    }

    fn state_budget(&self) -> usize {
        usize::MAX
    }

    fn solvable(&self, _plan: crate::game::Plan) -> bool {
        self.sides[0].start * self.sides[1].start <= EXACT_FIGURES_PRODUCT
    }

    fn describe_state(&self, state: &Lines, side: u8) -> String {
        let i = side as usize;
        let [a, d] = state.figures;
        let place = match state.back[i] {
            0 => "at its place".to_string(),
            back if back < 0 => format!("{} inches ahead of its place", -back),
            back => format!("{back} inches behind its place"),
        };
        format!("{a} attackers and {d} defenders {} inches apart, the {} {place}", self.apart(state), side_word(side))
    }

    fn describe_option(&self, _decision: &'static Decision, option: u16) -> String {
        match option {
            COME_BACK => "come forward".into(),
            FALL_BACK => "fall back a move".into(),
            _ => "hold".into(),
        }
    }
}

fn side_word(side: u8) -> &'static str {
    if side == ATTACKER { "attacker" } else { "defender" }
}
