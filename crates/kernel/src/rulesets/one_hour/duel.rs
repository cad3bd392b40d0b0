//! The multi-turn scenarios: two units taking side turns until one routs.
//!
//! `firefight` (two shooters at a range), `cavalry_charge` (cavalry charging
//! turn after turn against a unit that shoots back) and `grand_battery`
//! (artillery firing on a unit advancing on it) are one engine, [`Duel`],
//! with different defaults and checks. A side turn follows the turn sequence
//! ("2) Shoot 3) Move, Resolve cavalry charges"): the rallies of Napoleon (at
//! the start) and Wellington (at the end), then fire if the enemy is within
//! the range the unit fights at, otherwise a move: a charge when cavalry can
//! reach the enemy, else an advance ("Units move OR shoot").
//!
//! A unit in column of route that may not fight in it (all but cavalry)
//! leaves it with a move (interpretation `column_exit`): at once if it holds
//! its ground, or, advancing, when the enemy is within the range it fights at.
//!
//! The exact solver is an absorbing Markov chain over (hits left, range,
//! leaders present, column of route, whose side turn), one step per side
//! turn, whose law per state comes from running the very same side-turn code
//! under [`Replay`](super::fate::Replay) ([`fate::solve`]).

use super::attack::{self, Attack, ChargeSituation, FireTarget, Rerolls};
use super::fate::{self, ATTACKER, Fate, NONE, Rolling};
use super::{ColumnExit, Commander, Effect, LeaderLoss, LeaderRisk, Quality, Rules, UnitType};
use crate::catalogue::ScenarioEntry;
use crate::dice::Dice;
use crate::outcome::{Layout, Metric, WINNERS};
use crate::params::{Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::{DynScenario, Scenario};

/// The farthest range tracked; retreats beyond it stop here.
pub const MAX_RANGE: u32 = 15;
/// The most starting hits (11 by key or quality, one more with a leader).
pub const MAX_HITS: u32 = 12;
/// The longest turn limit.
pub const MAX_TURNS: u32 = 100;

/// The retreat room of a side with open ground behind it (never counted down).
const UNLIMITED_ROOM: u8 = u8::MAX;

/// One side's unit and its situation, as the keys give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideSetup {
    /// Its type.
    pub unit: UnitType,
    /// Its quality (the hits it starts with).
    pub quality: Quality,
    /// Starting hits instead of the quality's (0: from quality).
    pub hits: u32,
    /// Conscripts retreat at 2 hits from one shooter.
    pub conscript: bool,
    /// Steadfast troops never retreat.
    pub steadfast: bool,
    /// An attached leader: one extra hit, and leader risk.
    pub leader: bool,
    /// A Waterloo commander with the unit.
    pub commander: Commander,
    /// Impetuous cavalry must charge again.
    pub impetuous: bool,
    /// Reluctant: a D6 under its hits left to advance or charge.
    pub reluctant: bool,
    /// Shock cavalry: +1D6 charging units without shock.
    pub shock: bool,
    /// Its attacks strike the enemy's flank.
    pub flank: bool,
    /// In cover (guns in cover are not doubled against by charges).
    pub in_cover: bool,
    /// Holds a town or strongpoint (infantry only): line infantry fire at half
    /// effect, charges at quarter effect, no flanks; it does not move out.
    pub in_town: bool,
    /// In square: no move, no fire, no charges against it; artillery doubles against it.
    pub square: bool,
    /// Starts in column of route: treated as flanked, may not fight unless
    /// cavalry; others leave it with a move (interpretation `column_exit`).
    pub column: bool,
    /// The effect of its attacks (half or quarter against towns and the like).
    pub effect: Effect,
    /// Extra dice on each of its attacks.
    pub extra_dice: u32,
    /// It moves towards the enemy when it cannot attack.
    pub advances: bool,
    /// Non-impetuous cavalry break off (the fight ends) at this many hits or fewer (0: never).
    pub break_off: u32,
    /// A shooter holds its fire until the enemy is this close (0: the
    /// scenario's default, its longest range; line infantry assaulting a
    /// battery closes to 1 box).
    pub close_to: u32,
}

impl SideSetup {
    /// A good unit of this type, no leader, nothing special.
    pub fn new(unit: UnitType) -> SideSetup {
        SideSetup {
            unit,
            quality: Quality::Good,
            hits: 0,
            conscript: false,
            steadfast: false,
            leader: false,
            commander: Commander::None,
            impetuous: false,
            reluctant: false,
            shock: false,
            flank: false,
            in_cover: false,
            in_town: false,
            square: false,
            column: false,
            effect: Effect::Full,
            extra_dice: 0,
            advances: false,
            break_off: 0,
            close_to: 0,
        }
    }
}

/// Which scenario a duel plays (defaults and checks differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DuelKind {
    /// Two shooters at a range.
    Firefight,
    /// Cavalry charging a unit that shoots back.
    CavalryCharge,
    /// Artillery on a unit advancing on it.
    GrandBattery,
    /// One of the fights of `second_line` (any two types).
    SecondLine,
}

/// The metrics a fight of this ruleset opens with: `winner`, `turns`,
/// `attacker_remaining` and `defender_remaining` (whose docs differ by scenario).
pub(super) fn fight_metrics(turns: u32, winner_doc: &'static str, defender_remaining_doc: &'static str) -> Vec<Metric> {
    vec![
        Metric::categories("winner", winner_doc, WINNERS),
        Metric::integer(
            "turns",
            "the game turn the fight ended (each side has one side turn a game turn)",
            1,
            i64::from(turns),
        ),
        Metric::integer(
            "attacker_remaining",
            "the attacker's hits left, percent of its starting hits (rounded down)",
            0,
            100,
        ),
        Metric::integer("defender_remaining", defender_remaining_doc, 0, 100),
    ]
}

/// Whether the attacker's attached leader was lost (only where he is there to lose).
pub(super) const ATTACKER_LEADER_LOST: Metric =
    Metric::boolean("attacker_leader_lost", "whether the attacker's attached leader was lost");

/// One side, ready to fight: its attacks precomputed.
#[derive(Clone, Debug)]
struct Side {
    setup: SideSetup,
    /// Hits at the start, leader included.
    start_hits: u32,
    /// Hits without the leader's.
    base_hits: u32,
    /// Its fire at each range 0..=MAX_RANGE (None: cannot shoot there),
    /// against the enemy deployed (index 0) or in column of route (index 1).
    fire: [Vec<Option<Attack>>; 2],
    /// Its charge, for cavalry, against the enemy deployed or in column of route.
    charge: Option<[Attack; 2]>,
    /// It shoots when the enemy is this close or closer.
    fire_at: u32,
    /// Its move in boxes (cavalry: also its charge reach), deployed (index 0)
    /// or in column of route (index 1).
    move_boxes: [u32; 2],
    /// The hits of enemy fire at which it retreats (u32::MAX: never).
    retreat_at: u32,
}

/// The state between side turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct State {
    /// Each side's hits left.
    pub(super) hits: [u8; 2],
    /// The range in boxes.
    pub(super) range: u8,
    /// Each side's attached leader is still with it.
    pub(super) leader: [bool; 2],
    /// Each side is in column of route.
    pub(super) column: [bool; 2],
    /// The boxes each side may still retreat ([`UNLIMITED_ROOM`]: open ground).
    pub(super) room: [u8; 2],
    /// Whose side turn comes next.
    pub(super) next: u8,
}

/// Two units fighting side turn by side turn until one routs or the turn limit.
#[derive(Clone, Debug)]
pub struct Duel {
    rules: Rules,
    sides: [Side; 2],
    start: State,
    turns: u32,
    layout: Layout,
}

impl Duel {
    /// A duel; fails on a combination the rules or the scenario do not allow.
    pub fn new(
        rules: &Rules,
        kind: DuelKind,
        attacker: SideSetup,
        defender: SideSetup,
        range: u32,
        turns: u32,
    ) -> Result<Duel, ParamError> {
        let invalid = |key: &str, reason: &str| Err(ParamError::Invalid { key: key.into(), reason: reason.into() });
        if !(1..=MAX_TURNS).contains(&turns) {
            return Err(ParamError::OutOfRange {
                key: "turns".into(),
                value: i64::from(turns),
                min: 1,
                max: i64::from(MAX_TURNS),
            });
        }
        if !(1..=MAX_RANGE).contains(&range) {
            return Err(ParamError::OutOfRange {
                key: "range".into(),
                value: i64::from(range),
                min: 1,
                max: i64::from(MAX_RANGE),
            });
        }
        for (prefix, side) in [("attacker", &attacker), ("defender", &defender)] {
            if side.square && !side.unit.is_infantry() {
                return invalid(&format!("{prefix}.square"), "only infantry forms square");
            }
            if side.in_town && !side.unit.is_infantry() {
                return invalid(&format!("{prefix}.in_town"), "only infantry can occupy towns and strongpoints");
            }
            if side.in_town && (side.column || side.square) {
                return invalid(&format!("{prefix}.in_town"), "a unit holding a town is not in column or square");
            }
            if side.square && side.column {
                return invalid(&format!("{prefix}.column"), "a unit in square is not in column of route");
            }
            if side.hits > MAX_HITS - 1 {
                return Err(ParamError::OutOfRange {
                    key: format!("{prefix}.hits"),
                    value: i64::from(side.hits),
                    min: 0,
                    max: i64::from(MAX_HITS - 1),
                });
            }
        }
        match kind {
            DuelKind::Firefight => {
                for (prefix, side) in [("attacker", &attacker), ("defender", &defender)] {
                    if side.unit.is_cavalry() {
                        return invalid(
                            &format!("{prefix}.type"),
                            "cavalry do not shoot; a firefight needs two shooters",
                        );
                    }
                }
            }
            DuelKind::CavalryCharge => {
                if !attacker.unit.is_cavalry() {
                    return invalid("attacker.type", "the charger must be cavalry or heavy_cavalry");
                }
            }
            DuelKind::GrandBattery => {
                if defender.unit != UnitType::Artillery {
                    return invalid("defender.type", "the grand battery is artillery");
                }
            }
            DuelKind::SecondLine => {}
        }
        let sides =
            [Self::side(rules, kind, &attacker, &defender, true), Self::side(rules, kind, &defender, &attacker, false)];
        let start = State {
            hits: [sides[0].start_hits as u8, sides[1].start_hits as u8],
            range: range as u8,
            leader: [attacker.leader, defender.leader],
            column: [attacker.column, defender.column],
            room: [UNLIMITED_ROOM; 2],
            next: ATTACKER,
        };
        let mut metrics = fight_metrics(
            turns,
            "the side whose enemy routed (none: the turn limit, or cavalry broke off)",
            "the defender's hits left, percent of its starting hits (rounded down)",
        );
        // A leader-lost metric only where there is a leader to lose: a metric
        // that can never vary says nothing (and Monte Carlo's sum of its
        // probabilities is 1 only to rounding).
        if attacker.leader {
            metrics.push(ATTACKER_LEADER_LOST);
        }
        if defender.leader {
            metrics.push(Metric::boolean("defender_leader_lost", "whether the defender's attached leader was lost"));
        }
        let layout = Layout::new(metrics);
        Ok(Duel { rules: rules.clone(), sides, start, turns, layout })
    }

    /// The same duel with the defender taking the first side turn of each game turn.
    pub fn defender_first(mut self) -> Duel {
        self.start.next = 1;
        self
    }

    /// The same duel with side `s` able to retreat only `boxes` boxes in all
    /// (ground behind it that is not open: a second line).
    pub(super) fn with_retreat_room(mut self, s: u8, boxes: u32) -> Duel {
        self.start.room[s as usize] = boxes.min(u32::from(UNLIMITED_ROOM) - 1) as u8;
        self
    }

    /// The state the duel starts in.
    pub(super) fn start(&self) -> State {
        self.start
    }

    /// Side `s`'s hits at the start, its leader's included.
    pub(super) fn start_hits(&self, s: u8) -> u32 {
        self.sides[s as usize].start_hits
    }

    fn side(rules: &Rules, kind: DuelKind, me: &SideSetup, enemy: &SideSetup, is_attacker: bool) -> Side {
        let base_hits = if me.hits > 0 { me.hits } else { rules.quality_hits(me.quality) };
        // Rout: "Attached Leader +1".
        let start_hits = (base_hits + if me.leader { rules.leader_extra_hits } else { 0 }).min(MAX_HITS);
        let enemy_light = enemy.unit.is_light();
        // Column of Route: "Treat units as flanked for all combat"; Light Infantry:
        // "No flanks"; artillery doubles only against "flanks of infantry or cavalry".
        // Towns: occupied towns "cannot be charged/shot in the flank/rear".
        let enemy_flanked = |enemy_column: bool| {
            (me.flank || enemy_column) && !enemy_light && enemy.unit != UnitType::Artillery && !enemy.in_town
        };
        let rerolls_fire = Rerolls {
            // Hill: "British and infantry within 1 box may re-roll 1 missed die when shooting".
            miss: me.commander == Commander::Hill && me.unit.is_infantry(),
            // Orange and Reille: the enemy re-rolls one successful hit from fire.
            forced_hit: matches!(enemy.commander, Commander::Orange | Commander::Reille),
        };
        let fire_against = |enemy_column: bool| -> Vec<Option<Attack>> {
            (0..=MAX_RANGE)
                .map(|range| {
                    // Picton: "+1 D6 for shooting at 1 box range for any British infantry".
                    let picton = if me.commander == Commander::Picton && me.unit.is_infantry() && range == 1 {
                        rules.picton_extra_dice
                    } else {
                        0
                    };
                    // Artillery: "2 x dice vs flanks of infantry or cavalry, or vs Squares".
                    let double = me.unit == UnitType::Artillery && (enemy.square || enemy_flanked(enemy_column));
                    let target = FireTarget { light: enemy_light, double, in_town: enemy.in_town };
                    attack::fire(rules, me.unit, range, me.effect, target, me.extra_dice + picton, rerolls_fire)
                })
                .collect()
        };
        let charge_against = |enemy_column: bool| -> Attack {
            let commander_dice = match me.commander {
                Commander::Ney => rules.ney_attached_dice,
                Commander::NeyAdjacent => rules.ney_adjacent_dice,
                Commander::DErlon => rules.d_erlon_extra_dice,
                _ => 0,
            };
            let situation = ChargeSituation {
                flank: me.flank,
                target_column: enemy_column,
                shock: me.shock,
                target_shock: enemy.shock && enemy.unit.is_cavalry(),
                target_in_cover: enemy.in_cover,
                target_in_town: enemy.in_town,
                // Column of Route: "Cavalry may charge in CoR at half effect".
                effect: if me.column { me.effect.halved() } else { me.effect },
                extra_dice: me.extra_dice + commander_dice,
            };
            let rerolls = Rerolls {
                // Lobau: "may reroll one missed die in melee".
                miss: me.commander == Commander::Lobau,
                // Orange: "force enemy to re roll one successful hit from fire or melee".
                forced_hit: enemy.commander == Commander::Orange,
            };
            attack::charge(rules, me.unit, enemy.unit, situation, rerolls)
        };
        // Where it wants to fight: line infantry advancing on a battery closes to
        // massed musketry (1 box, 3D6); everyone else shoots as soon as in range.
        let fire_at = if me.close_to > 0 {
            me.close_to.min(rules.max_range(me.unit))
        } else if kind == DuelKind::GrandBattery && is_attacker && me.unit == UnitType::LineInfantry {
            1
        } else {
            rules.max_range(me.unit)
        };
        let retreat_at = if me.steadfast {
            u32::MAX
        } else if me.conscript {
            rules.conscript_retreat_hits
        } else {
            rules.retreat_hits
        };
        Side {
            setup: *me,
            start_hits,
            base_hits,
            fire: [fire_against(false), fire_against(true)],
            charge: me.unit.is_cavalry().then(|| [charge_against(false), charge_against(true)]),
            fire_at,
            move_boxes: [rules.move_boxes(me.unit, false), rules.move_boxes(me.unit, true)],
            retreat_at,
        }
    }

    /// One side turn of the side `state.next`; `Some(winner)` when the fight ends.
    pub(super) fn side_turn(&self, state: &mut State, fate: &mut impl Fate) -> Option<u8> {
        let s = state.next;
        state.next = 1 - s;
        // WATERLOO: "Napoleon - at the start of any French turn may attempt to rally one French unit."
        if self.sides[s as usize].setup.commander == Commander::Napoleon {
            self.rally(s, state, fate);
        }
        let ended = self.act(s, state, fate);
        if ended.is_none() {
            self.end_of_side_turn(s, state, fate);
        }
        ended
    }

    /// What closes side `s`'s turn once it has acted: Wellington's rally.
    pub(super) fn end_of_side_turn(&self, s: u8, state: &mut State, fate: &mut impl Fate) {
        // WATERLOO: "Wellington – at the end of any Allied turn, may ... attempt to rally 1 unit."
        if self.sides[s as usize].setup.commander == Commander::Wellington {
            self.rally(s, state, fate);
        }
    }

    /// Side `s` shoots, or moves (leaving column of route, advancing or
    /// charging); `Some(winner)` when the fight ends.
    fn act(&self, s: u8, state: &mut State, fate: &mut impl Fate) -> Option<u8> {
        let me = &self.sides[s as usize];
        let enemy = &self.sides[1 - s as usize];
        let column = state.column[s as usize];
        let enemy_column = usize::from(state.column[1 - s as usize]);
        let range = u32::from(state.range);
        // Shoot: a unit in square does not shoot, nor one in column of route ("may
        // not fight in column of route apart from cavalry"); cavalry "do NOT shoot".
        let may_shoot = !me.setup.square && !column;
        if let Some(fire) = me.fire[enemy_column][range as usize].as_ref().filter(|_| may_shoot && range <= me.fire_at)
        {
            let hits = fate.hits(fire);
            return self.take_hits(s, hits, true, state, fate);
        }
        // A unit in square stands; a unit holding a town holds it: it neither
        // advances nor charges out.
        if me.setup.square || me.setup.in_town {
            return None;
        }
        // Move ("Units move OR shoot"), resolving cavalry charges.
        if column && !me.setup.unit.is_cavalry() && self.deploys(me, range) {
            // Column of Route: "To exit formation, move a normal move next turn"
            // (interpretation `column_exit`).
            state.column[s as usize] = false;
            if self.rules.column_exit == ColumnExit::NormalMove {
                self.advance(s, me.move_boxes[0], state, fate);
            }
            return None;
        }
        let moves = me.move_boxes[usize::from(column)];
        let Some(charge) = &me.charge else {
            self.advance(s, moves, state, fate);
            return None;
        };
        // Square: "may NOT be charged by cavalry while in Square".
        if range <= moves && !enemy.setup.square {
            // Impetuous units "MUST continue to charge"; others may break off.
            if !me.setup.impetuous && u32::from(state.hits[s as usize]) <= me.setup.break_off {
                return Some(NONE);
            }
            if self.willing(s, state, fate) {
                let hits = fate.hits(&charge[enemy_column]);
                // "If the charge routs the enemy, occupy the target box,
                // otherwise cavalry remains next to the target unit."
                state.range = 1;
                return self.take_hits(s, hits, false, state, fate);
            }
        } else if me.setup.advances && range > moves && self.willing(s, state, fate) {
            state.range = (range - moves).max(1) as u8;
        }
        None
    }

    /// A shooter that advances moves `moves` boxes towards the enemy, stopping
    /// at the range it fights at.
    fn advance(&self, s: u8, moves: u32, state: &mut State, fate: &mut impl Fate) {
        let me = &self.sides[s as usize];
        let range = u32::from(state.range);
        if me.setup.advances && range > me.fire_at.max(1) && self.willing(s, state, fate) {
            state.range = range.saturating_sub(moves).max(me.fire_at).max(1) as u8;
        }
    }

    /// Whether a unit in column of route that may not fight in it leaves it
    /// now: at once if it holds its ground; advancing, when the enemy is
    /// within the range it fights at (after its normal move, when the exit
    /// comes with one), so that it marches at column's pace until then.
    fn deploys(&self, me: &Side, range: u32) -> bool {
        let with_exit = match self.rules.column_exit {
            ColumnExit::SpendMove => 0,
            ColumnExit::NormalMove => me.move_boxes[0],
        };
        !me.setup.advances || range.saturating_sub(with_exit) <= me.fire_at
    }

    /// Reluctant units: "must roll a D6 and score less than their remaining hits to advance or charge".
    fn willing(&self, s: u8, state: &State, fate: &mut impl Fate) -> bool {
        !self.sides[s as usize].setup.reluctant || fate.d6() < u32::from(state.hits[s as usize])
    }

    /// The enemy of `s` takes `hits`; `Some(s)` if it routs.
    fn take_hits(&self, s: u8, hits: u32, shooting: bool, state: &mut State, fate: &mut impl Fate) -> Option<u8> {
        if hits == 0 {
            return None;
        }
        let o = 1 - s as usize;
        // Leader Risk: "If a leader is in a box which takes a hit, leader is removed on a 2D6 roll of '2'."
        if state.leader[o] {
            let rolls = match self.rules.leader_risk {
                LeaderRisk::PerAttack => 1,
                LeaderRisk::PerHit => hits,
            };
            for _ in 0..rolls {
                if fate.two_d6_at_most(self.rules.leader_risk_hit_total) {
                    state.leader[o] = false;
                    if self.rules.leader_loss == LeaderLoss::LoseExtraHit {
                        state.hits[o] = state.hits[o].saturating_sub(self.rules.leader_extra_hits as u8);
                    }
                    break;
                }
            }
        }
        state.hits[o] = state.hits[o].saturating_sub(hits.min(255) as u8);
        if state.hits[o] == 0 {
            // Leader Risk: "If the leader is in a box where the unit routs, or if
            // they are overrun ... they are lost on a 1D6 roll of '1'."
            if state.leader[o] && fate.d6() <= self.rules.leader_risk_rout_roll {
                state.leader[o] = false;
            }
            return Some(s);
        }
        // Shooting: "Targets that suffer 3 (or more) hits from shooting from a
        // single source = retreat 1 box directly away from source."
        if shooting && hits >= self.sides[o].retreat_at {
            let mut boxes = self.rules.retreat_boxes;
            if state.room[o] != UNLIMITED_ROOM {
                // No room behind (the second line's box): it retreats as far as it can.
                boxes = boxes.min(u32::from(state.room[o]));
                state.room[o] -= boxes as u8;
            }
            state.range = (u32::from(state.range) + boxes).min(MAX_RANGE) as u8;
        }
        None
    }

    /// Rally by C-in-C: D6, 1 nothing, 2-4 one hit back, 5-6 two; "1st hit cannot be rallied off".
    fn rally(&self, s: u8, state: &mut State, fate: &mut impl Fate) {
        let side = &self.sides[s as usize];
        let with_leader = state.leader[s as usize] || self.rules.leader_loss == LeaderLoss::KeepHits;
        let whole = if with_leader { side.start_hits } else { side.base_hits };
        let cap = whole - u32::from(self.rules.rally_keeps_first_hit);
        let hits = u32::from(state.hits[s as usize]);
        if hits == 0 || hits >= cap {
            return;
        }
        let roll = fate.d6();
        let gain = if roll >= self.rules.rally_two_hits_roll {
            2
        } else if roll >= self.rules.rally_one_hit_roll {
            1
        } else {
            0
        };
        state.hits[s as usize] = (hits + gain).min(cap) as u8;
    }

    /// The outcome code: winner, turn, hits left and leaders lost, packed
    /// small enough to count densely at the default turn limit.
    fn code(&self, winner: u8, turn: u32, state: &State) -> u64 {
        let radix = u64::from(MAX_HITS) + 1;
        let lost = |s: usize| u64::from(self.start.leader[s] && !state.leader[s]);
        let mut code = lost(0) + 2 * lost(1);
        code = code * radix + u64::from(state.hits[1]);
        code = code * radix + u64::from(state.hits[0]);
        code = code * u64::from(self.turns) + u64::from(turn - 1);
        code * 3 + u64::from(winner)
    }
}

impl Scenario for Duel {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        fate::play(
            self.start,
            self.turns,
            &mut Rolling(dice),
            |state, fate| self.side_turn(state, fate),
            |winner, turn, state| self.code(winner, turn, state),
        )
    }

    fn code_space(&self) -> u64 {
        3 * u64::from(self.turns) * u64::from(MAX_HITS + 1).pow(2) * 4
    }

    fn decode(&self, code: u64, values: &mut [i64]) {
        let radix = u64::from(MAX_HITS) + 1;
        let winner = code % 3;
        let rest = code / 3;
        let turn = rest % u64::from(self.turns) + 1;
        let rest = rest / u64::from(self.turns);
        let attacker_hits = rest % radix;
        let rest = rest / radix;
        let defender_hits = rest % radix;
        let lost = rest / radix;
        let percent = |hits: u64, s: usize| (hits * 100 / u64::from(self.sides[s].start_hits)) as i64;
        values[0] = winner as i64;
        values[1] = turn as i64;
        values[2] = percent(attacker_hits, 0);
        values[3] = percent(defender_hits, 1);
        let mut next = 4;
        for s in 0..2 {
            if self.start.leader[s] {
                values[next] = ((lost >> s) & 1) as i64;
                next += 1;
            }
        }
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        Some(fate::solve(
            self.start,
            self.turns,
            |state, replay| self.side_turn(state, replay),
            |winner, turn, state| self.code(winner, turn, state),
        ))
    }
}

/// The per-side keys of a duel, with this side's defaults.
pub(super) fn side_params(prefix: &str, defaults: SideSetup) -> Vec<Param> {
    let key = |name: &str| format!("{prefix}.{name}");
    vec![
        Param::choice(key("type"), "the unit type", defaults.unit),
        Param::choice(key("quality"), "excellent (7 hits), good (6), poor (5) or old_guard (8)", defaults.quality),
        Param::int(
            key("hits"),
            "starting hits instead of the quality's (0: from quality); a leader adds one",
            0,
            0,
            i64::from(MAX_HITS - 1),
        ),
        Param::boolean(key("conscript"), "conscript: retreats at 2 hits from one shooter", defaults.conscript),
        Param::boolean(key("steadfast"), "steadfast: never retreats from fire", defaults.steadfast),
        Param::boolean(key("leader"), "an attached leader: one extra hit, and leader risk", defaults.leader),
        Param::choice(key("commander"), "a Waterloo commander with the unit", defaults.commander),
        Param::boolean(key("impetuous"), "impetuous cavalry: must charge again, never breaks off", defaults.impetuous),
        Param::boolean(
            key("reluctant"),
            "reluctant: needs a D6 under its hits left to advance or charge",
            defaults.reluctant,
        ),
        Param::boolean(key("shock"), "shock cavalry: +1D6 charging units without shock", defaults.shock),
        Param::boolean(
            key("flank"),
            "its attacks strike the enemy's flank (artillery and cavalry double dice)",
            defaults.flank,
        ),
        Param::boolean(
            key("in_cover"),
            "in cover: guns in cover are not doubled against by charges",
            defaults.in_cover,
        ),
        Param::boolean(
            key("in_town"),
            "infantry holding a town or strongpoint: line infantry fire at half effect, charges at quarter, no flanks; it never advances",
            defaults.in_town,
        ),
        Param::boolean(
            key("square"),
            "infantry in square: no move or fire, cannot be charged, artillery doubles against it",
            defaults.square,
        ),
        Param::boolean(
            key("column"),
            "in column of route: treated as flanked, no fire until it leaves it with a move (cavalry stay in it and \
             charge at half effect)",
            defaults.column,
        ),
        Param::choice(
            key("effect"),
            "the effect of its attacks: full, half or quarter (e.g. against a town)",
            defaults.effect,
        ),
        Param::int(key("extra_dice"), "extra D6 on each of its attacks", i64::from(defaults.extra_dice), 0, 12),
        Param::boolean(key("advances"), "it moves towards the enemy when it cannot attack", defaults.advances),
        Param::int(
            key("break_off"),
            "non-impetuous cavalry break off (winner none) at this many hits left or fewer (0: never)",
            i64::from(defaults.break_off),
            0,
            i64::from(MAX_HITS),
        ),
        Param::int(
            key("close_to"),
            "a shooter holds its fire until the enemy is this close, advancing if it may (0: its longest range; \
             line infantry assaulting a grand battery closes to 1)",
            i64::from(defaults.close_to),
            0,
            i64::from(MAX_RANGE),
        ),
    ]
}

pub(super) fn side_from(settings: &Settings, prefix: &str) -> SideSetup {
    let key = |name: &str| format!("{prefix}.{name}");
    SideSetup {
        unit: settings.choice(&key("type")),
        quality: settings.choice(&key("quality")),
        hits: settings.int(&key("hits")) as u32,
        conscript: settings.bool(&key("conscript")),
        steadfast: settings.bool(&key("steadfast")),
        // `second_line`'s second line has no leader key: its leader is the
        // first line's, if he joins it.
        leader: settings.iter().any(|(name, _)| name == key("leader")) && settings.bool(&key("leader")),
        commander: settings.choice(&key("commander")),
        impetuous: settings.bool(&key("impetuous")),
        reluctant: settings.bool(&key("reluctant")),
        shock: settings.bool(&key("shock")),
        flank: settings.bool(&key("flank")),
        in_cover: settings.bool(&key("in_cover")),
        in_town: settings.bool(&key("in_town")),
        square: settings.bool(&key("square")),
        column: settings.bool(&key("column")),
        effect: settings.choice(&key("effect")),
        extra_dice: settings.int(&key("extra_dice")) as u32,
        advances: settings.bool(&key("advances")),
        break_off: settings.int(&key("break_off")) as u32,
        close_to: settings.int(&key("close_to")) as u32,
    }
}

pub(super) fn duel_params(range: i64, attacker: SideSetup, defender: SideSetup) -> Vec<Param> {
    let mut params = vec![
        Param::int("range", "the starting range in boxes", range, 1, i64::from(MAX_RANGE)),
        Param::int("turns", "the turn limit (game turns, each both side turns)", 30, 1, i64::from(MAX_TURNS)),
        Param::choice("first", "the side whose side turn comes first in each game turn", FirstSide::Attacker),
    ];
    params.extend(side_params("attacker", attacker));
    params.extend(side_params("defender", defender));
    params
}

crate::choice_enum! {
    /// Whose side turn comes first in each game turn.
    pub enum FirstSide {
        /// The attacker shoots or moves first.
        Attacker = "attacker",
        /// The defender shoots or moves first.
        Defender = "defender",
    }
}

fn build(kind: DuelKind, rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let duel = Duel::new(
        rules_of::<Rules>(rules),
        kind,
        side_from(settings, "attacker"),
        side_from(settings, "defender"),
        settings.int("range") as u32,
        settings.int("turns") as u32,
    )?;
    Ok(Box::new(match settings.choice::<FirstSide>("first") {
        FirstSide::Attacker => duel,
        FirstSide::Defender => duel.defender_first(),
    }))
}

/// The attacker of a firefight by default: good line infantry that closes the range.
pub fn firefight_defaults() -> (SideSetup, SideSetup) {
    (SideSetup { advances: true, ..SideSetup::new(UnitType::LineInfantry) }, SideSetup::new(UnitType::LineInfantry))
}

/// The `firefight` scenario for the catalogue.
pub fn firefight_entry() -> ScenarioEntry {
    let (attacker, defender) = firefight_defaults();
    ScenarioEntry {
        name: "firefight",
        summary: "Two units shooting in side turns (attacker first), retreats opening the range, until one routs or the turn limit.",
        params: duel_params(1, attacker, defender),
        build: |rules, settings| build(DuelKind::Firefight, rules, settings),
    }
}

/// The `cavalry_charge` scenario for the catalogue.
pub fn cavalry_charge_entry() -> ScenarioEntry {
    let attacker = SideSetup { advances: true, break_off: 2, ..SideSetup::new(UnitType::Cavalry) };
    ScenarioEntry {
        name: "cavalry_charge",
        summary: "Cavalry charging turn after turn (impetuous or breaking off when worn) against a unit that shoots back, until one routs.",
        params: duel_params(2, attacker, SideSetup::new(UnitType::LineInfantry)),
        build: |rules, settings| build(DuelKind::CavalryCharge, rules, settings),
    }
}

/// The `grand_battery` scenario for the catalogue.
pub fn grand_battery_entry() -> ScenarioEntry {
    let attacker = SideSetup { advances: true, ..SideSetup::new(UnitType::LineInfantry) };
    ScenarioEntry {
        name: "grand_battery",
        summary: "Artillery (the defender) firing on a unit that advances on it from a range; line infantry closes to one box, cavalry charges.",
        params: duel_params(6, attacker, SideSetup::new(UnitType::Artillery)),
        build: |rules, settings| build(DuelKind::GrandBattery, rules, settings),
    }
}

impl DuelKind {
    /// The scenario's name.
    pub fn name(self) -> &'static str {
        match self {
            DuelKind::Firefight => "firefight",
            DuelKind::CavalryCharge => "cavalry_charge",
            DuelKind::GrandBattery => "grand_battery",
            DuelKind::SecondLine => "second_line",
        }
    }
}
