//! `brigade_fire`: two attacking units (a battalion and its supporting
//! battery, or two battalions) fire on one defending unit, side turn by side
//! turn, until the defender routs, both attackers rout, or the turn limit.
//!
//! Grand batteries and brigade attacks are played this way: several shooters
//! at one target. What the rules say about it is in "Shooting": "Targets that
//! suffer 3 (or more) hits from shooting from a single source = retreat 1 box
//! directly away from source ... Conscripts retreat one box as above when
//! suffering 2 (or more) hits from a single shooter."
//!
//! # The fight
//!
//! - Each attacking unit is a pair with the defender exactly as in the duels
//!   ([`Duel`], built once per attacking unit): its dice against the
//!   defender, the defender's against it, moves, column of route, towns,
//!   leaders, commanders and the rallies are the duels' code, run on the
//!   pair's part of the state.
//! - Single source: each unit's fire is one source (interpretation
//!   `single_source`, default `each_unit`): a conscript hit once by each of
//!   two units does not retreat, and a target hit three times by each
//!   retreats twice, once from each. Each unit's fire is also its own attack
//!   for leader risk (one 2D6 per attack that hits, by `leader_risk`).
//! - Where the units stand: the two attackers are side by side in
//!   neighbouring files, each facing the defender at its own range (the keys
//!   `range` and `support.range`). A retreat "directly away from source" and
//!   a move of the defender go straight along the files, so they change both
//!   ranges by the same number of boxes; an attacker's own move or retreat
//!   changes only its range. The defender moves towards the nearer attacker
//!   (it cannot enter its box) and so closes on both.
//! - The attacker's side turn keeps the turn sequence ("2) Shoot 3) Move"):
//!   in the shooting phase the attacker decides which unit in range fires
//!   next, or that no more fire (decision `volley`), each volley resolved in
//!   full (hits, leader risk, rout, retreat) before the next is chosen, since
//!   the second unit's range may have changed; in the movement phase each
//!   unit that did not fire takes the duels' `move` (or `square`) decision
//!   ("Units move OR shoot"). Napoleon's rally opens the side turn and
//!   Wellington's closes it, for the unit the commander is with.
//! - The defender's side turn: with an attacker in range it decides whom to
//!   fire at, or to move instead (decision `target`); otherwise the duels'
//!   `move` decision, measured from the nearer attacker.
//! - Where the attacker's leader goes (decision `leader`): with one attached
//!   leader among the two attacking units ("Leaders move with units or as
//!   cavalry"), at the end of each attacker movement phase he stays with his
//!   unit or rides to the other, if it stands within a cavalry move: one box
//!   into the neighbouring file (two half boxes), or where their ranges
//!   differ a diagonal into it (three) and a box (two) for each further box
//!   of difference, so at the printed six half boxes he reaches a unit at
//!   most two boxes nearer or farther. His extra hit, morale bonus and risk
//!   go with him (interpretation `leader_leaves`). A leader whose unit
//!   routs and who survives its 1D6 is not overrun (fire never enters the
//!   box) and stays apart, as `second_line`'s default `surviving_leader`
//!   leaves a leader who is not overrun (under `always_joins` he rides to
//!   the other unit at once, and under `never_joins` he stays apart too). Two attached leaders, or a Waterloo
//!   commander leading either unit, do not ride: two leaders stacked give no
//!   more than one, and a commander's effects are keys of his unit. The
//!   defender has one unit, and its leader nothing to decide ([`duel`]).
//! - Retiring (interpretation `retire`, `pivot` by default, as in the
//!   duels: Movement, "May pivot at the start and end of their move only"):
//!   every unit that does not fire may pivot about, move away up to its move
//!   and face the enemy again. An attacking unit's retirement opens only its
//!   own range (it moves along its own file); the defender's opens both
//!   alike, as its other moves close both. What it costs is the purpose's:
//!   under `attack` (the default) a defender that retires has given up the
//!   ground the attacker came to take, so it retires only where it cannot
//!   win anyway (see "Start distances"), and an attacking
//!   unit may draw back out of the defender's reach while the other fights
//!   on and come back; under `stand` both sides must hold, and a unit of
//!   either side that retires has given its side's ground up (a brigade's
//!   line is broken by one of its units leaving it, as a duel's by its one
//!   unit); under `manoeuvre` it is a move like any other. A unit beyond
//!   its enemy's reach (the enemy cannot fire at it next side turn) whose
//!   move is at least the enemy's deployed move is not offered a
//!   retirement: it never needs one to stay out of reach, since the enemy
//!   cannot fire in the side turn it closes (a unit moves or shoots) and the
//!   unit may then retire as far as it closed, so a retirement from there
//!   would only lengthen the fight. Offered everywhere, it lets both
//!   attacking units wander to 15 boxes apart and the default solve takes
//!   0.8 s instead of 0.05; the chances of winning were the same at every
//!   setting compared (the start-distance sweeps under `attack` and
//!   `manoeuvre`, and the defaults' pinned law), and only the choice among
//!   options of equal worth can differ.
//! - A routed attacker leaves the fight and the other fights on: the rules
//!   rout units, not brigades ("Units rout when their morale is reduced to
//!   0"), have no break test for a force within the timeframe of a fight,
//!   and the other unit is untouched and still in range. So the attacker
//!   wins when the defender routs, the defender when both attackers have
//!   routed; `attackers_routed` says which fell on the way.
//!
//! # Scope
//!
//! All three units shoot (infantry or artillery): the scenario is about
//! several shooters at one target, and a cavalry charge supported by fire
//! (with the square it forces against doubled artillery dice) is a fight of
//! its own, refused here with a message.
//!
//! # Policies
//!
//! `bold` and `cautious` fire whenever they may, the nearer attacking unit
//! first (the `attacker` unit on a tie: a retreat forced by the first volley
//! costs the nearer unit more dice), and the defender fires at the nearer
//! attacker in range; otherwise each unit moves as in the duels, the
//! defender measuring from the nearer attacker. The attacker's leader goes,
//! under `bold`, with the nearer unit (the unit in the most danger), and
//! under `cautious` with a unit beyond the defender's reach, else the
//! farther; on a tie he stays where he is.
//!
//! # Start distances
//!
//! At the defaults (good line infantry and a good battery against a good
//! line, thirty turns, `purpose = attack`, retiring offered) and both
//! attackers starting at the same range, best play wins for the attacker
//! from every distance from 1 to 8 boxes (99.99992% from 1 box, the rest
//! closer still to 1, rising with the distance): two units against one,
//! given time, always break it, and a defender that retires has given up
//! the ground the attack was for, so the sweep is flat. What distance
//! changes is the time and the cost: 2.1 game turns and 90% of the
//! brigade's hits left from 1 box, 2.4 turns and 95% from 2, 8.9 turns and
//! 99% from 8, where the battery shoots the line down from out of its reach.
//! From 5 boxes on, where the line cannot win whatever it does, it gives up
//! its ground in some of the fights (4% from 5 boxes, 70% from 8: `ended`
//! says `defender_left`) rather than be routed: the attacker's win either
//! way, chosen by the secondary aim (fewer outright defeats) among options
//! of equal worth. Playing for the margin instead (`purpose = manoeuvre`),
//! the line retires out of reach whenever it can: the brigade wins 99.7%
//! from 1 box, 87.8% from 2, 46.8% from 3, 8.8% from 4 and never from 5 or
//! more (`cargo run --release -p volley-kernel --example purposes one_hour
//! brigade_fire range=R`).
//!
//! Read `turns` under best play with care: neither objective values time, so
//! a side sure of its result loses nothing by waiting, and ties go to the
//! least movement. Two battalions (`support.type = line_infantry`) 3 to 6
//! boxes from the line break it 99.99% of the time, after 5.8 to 8.8 turns
//! on average under best play. Under bold play on both sides the battery
//! breaks the line in 3.3 turns from 2 boxes and a second battalion in 4.8,
//! the brigade keeping 87% and 79% of its hits. With a turn limit the
//! battery's worth shows in the winner itself: against a good line holding a
//! town, in 15 turns under best play, a battalion and a battery win 99.9999-100%
//! from 1 to 6 boxes, two battalions 78-92%, and one battalion alone
//! (`firefight purpose=attack`) 3.6-12.6%.

use super::duel::{self, Duel, DuelKind, FIRE, FirstSide, MAX_RANGE, Posture, SideSetup, State};
use super::{Commander, CommanderLeads, Quality, Rules, SingleSource, SurvivingLeader, UnitType};
use crate::catalogue::ScenarioEntry;
use crate::game::{self, ATTACKER, DEFENDER, Decision, End, Fate, Game, Played, Policy};
use crate::outcome::{Layout, Metric};
use crate::params::{Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::DynScenario;

/// The defender's index in the state's arrays (the attacking unit is 0, the supporting unit 1).
const DEF: usize = 2;

/// The labels of the `attackers_routed` metric, in order.
pub const ATTACKERS_ROUTED: &[&str] = &["none", "attacker", "support", "both"];

/// Option codes of the `target` decision: fire at attacking unit `x`.
const FIRE_AT: [u16; 2] = [8, 9];
/// Option codes of the `volley` decision: attacking unit `x` fires.
const VOLLEY_BY: [u16; 2] = [10, 11];
/// No more fire this shooting phase.
const NO_MORE_FIRE: u16 = 12;
/// Option codes of the `leader` decision: the leader ends the movement phase
/// with attacking unit `x`.
const LEAD: [u16; 2] = [13, 14];

/// The attacker's shooting phase.
pub static VOLLEY_DECISION: Decision = Decision {
    name: "volley",
    who: "attacker",
    doc: "Shooting phase: which attacking unit in range fires next (each unit's fire is its own source of hits for \
          the retreat test: \"3 (or more) hits from shooting from a single source\"), or no more fire, the units \
          that have not fired moving in the movement phase (\"Units move OR shoot\").",
    options: "the attacking unit fires; the supporting unit fires; no more fire",
};

/// The defender with an attacker in range.
pub static TARGET_DECISION: Decision = Decision {
    name: "target",
    who: "defender",
    doc: "The defender, with an attacking unit in range, fires at one of them or moves instead (\"Units move OR \
          shoot\"), its moves measured from the nearer attacker: it closes, halts, or retires (rule retire), \
          which opens both attackers' ranges alike.",
    options: "fire at the attacking unit; fire at the supporting unit; halt at R boxes (least movement first); \
              retire to R boxes (`retire = pivot`); leave column, halt at R boxes",
};

/// The attacker's leader in its movement phase.
pub static LEADER_DECISION: Decision = Decision {
    name: "leader",
    who: "attacker",
    doc: "Leaders: \"Leaders move with units or as cavalry\": at the end of the attacker's movement phase its one \
          attached leader stays with his unit or rides to the other, if it stands within a cavalry move; his extra \
          hit and morale bonus go with him (rule leader_leaves).",
    options: "with the attacking unit; with the supporting unit (where he is first)",
};

/// Every decision of `brigade_fire`.
static DECISIONS: &[&Decision] =
    &[&VOLLEY_DECISION, &TARGET_DECISION, &duel::MOVE_DECISION, &duel::SQUARE_DECISION, &LEADER_DECISION];

/// The state between side turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Brigade {
    /// Hits left: the attacking unit, the supporting unit, the defender.
    hits: [u8; 3],
    /// Each attacking unit's range to the defender (0 once routed).
    range: [u8; 2],
    /// Each unit's formation or place (a routed unit's is `Deployed`).
    posture: [Posture; 3],
    /// Each unit's leader is still with it.
    leader: [bool; 3],
    /// Whose side turn comes next.
    next: u8,
}

/// The keys of `brigade_fire` that are not a unit's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrigadeSetup {
    /// The attacking unit's starting range.
    pub range: u32,
    /// The supporting unit's starting range (0: the same as `range`).
    pub support_range: u32,
    /// The turn limit (game turns).
    pub turns: u32,
    /// Whose side turn comes first in each game turn.
    pub first: FirstSide,
}

/// Two attacking units firing on one defender.
#[derive(Clone, Debug)]
pub struct BrigadeFire {
    /// What each side must achieve (the scenario's `purpose` key).
    purpose: game::Purpose,
    rules: Rules,
    /// Attacking unit `x` (side 0) against the defender (side 1).
    duels: [Duel; 2],
    setups: [SideSetup; 3],
    start_hits: [u32; 3],
    led: [bool; 3],
    /// Whether the attacker's leader may ride between its units: one
    /// attached leader (`attacker.leader` or `support.leader`, not both), and
    /// no Waterloo commander leading either unit (his effects stay with the
    /// unit the keys put him with, and two leaders are not modelled riding).
    leader_moves: bool,
    start: Brigade,
    turns: u32,
    layout: Layout,
}

impl BrigadeFire {
    /// The fight; fails on a combination the rules or the scenario do not
    /// allow (errors about the supporting unit name its `support.` keys).
    pub fn new(
        rules: &Rules,
        attacker: SideSetup,
        support: SideSetup,
        defender: SideSetup,
        setup: BrigadeSetup,
    ) -> Result<BrigadeFire, ParamError> {
        if setup.support_range > MAX_RANGE {
            return Err(ParamError::OutOfRange {
                key: "support.range".into(),
                value: i64::from(setup.support_range),
                min: 0,
                max: i64::from(MAX_RANGE),
            });
        }
        if attacker.commander != Commander::None && attacker.commander == support.commander {
            return Err(ParamError::Invalid {
                key: "support.commander".into(),
                reason: "one commander cannot stand with both attacking units".into(),
            });
        }
        let support_range = if setup.support_range == 0 { setup.range } else { setup.support_range };
        // The duels' firefight checks refuse cavalry ("Cavalry do NOT shoot") and
        // every impossible formation.
        // Each pair retires as the duels do (interpretation `retire`).
        let pair = |unit: SideSetup, range: u32| {
            Duel::new(rules, DuelKind::Firefight, unit, defender, range, setup.turns).map(Duel::with_retiring)
        };
        let duels = [pair(attacker, setup.range)?, pair(support, support_range).map_err(support_keys)?];
        let duels = match setup.first {
            FirstSide::Attacker => duels,
            FirstSide::Defender => duels.map(Duel::defender_first),
        };
        let (a, s) = (duels[0].start_state(), duels[1].start_state());
        let start = Brigade {
            hits: [a.hits[0], s.hits[0], a.hits[1]],
            range: [a.range, s.range],
            posture: [a.posture[0], s.posture[0], a.posture[1]],
            leader: [a.leader[0], s.leader[0], a.leader[1]],
            next: a.next,
        };
        let start_hits = [duels[0].start_hits(0), duels[1].start_hits(0), duels[0].start_hits(1)];
        let led = [duels[0].led(0), duels[1].led(0), duels[0].led(1)];
        let commander_leads =
            |unit: &SideSetup| rules.commander_leads == CommanderLeads::InBox && unit.commander.stands_in_box();
        let leader_moves =
            attacker.leader != support.leader && !commander_leads(&attacker) && !commander_leads(&support);
        let mut metrics = duel::fight_metrics(
            setup.turns,
            "attacker: the defender routed; defender: both attacking units routed; none: the turn limit; under `purpose = attack` every fight the attacker does not win is the defender's (`ended` says how each ended)",
            "the defender's hits left, percent of its starting hits (rounded down)",
        );
        metrics[2] = Metric::integer(
            "attacker_remaining",
            "both attacking units' hits left, percent of their starting hits together (rounded down)",
            0,
            100,
        );
        metrics.push(Metric::categories(
            "attackers_routed",
            "which attacking units routed: none, attacker (the attacker.* unit), support (the support.* unit) or both",
            ATTACKERS_ROUTED,
        ));
        if led[0] {
            metrics.push(duel::ATTACKER_LEADER_LOST);
        }
        if led[1] {
            metrics.push(Metric::boolean(
                "support_leader_lost",
                "whether the supporting unit's leader (the one it started with, wherever he rode) was lost",
            ));
        }
        if led[2] {
            metrics.push(Metric::boolean("defender_leader_lost", "whether the defender's attached leader was lost"));
        }
        Ok(BrigadeFire {
            purpose: game::Purpose::Manoeuvre,
            rules: rules.clone(),
            duels,
            setups: [attacker, support, defender],
            start_hits,
            led,
            leader_moves,
            start,
            turns: setup.turns,
            layout: Layout::new(metrics),
        })
    }

    /// Attacking unit `x` and the defender as a duel's state (side 0 and 1).
    fn pair(&self, x: usize, b: &Brigade) -> State {
        let mut state = self.duels[x].start_state();
        state.hits = [b.hits[x], b.hits[DEF]];
        state.range = b.range[x];
        state.posture = [b.posture[x], b.posture[DEF]];
        state.leader = [b.leader[x], b.leader[DEF]];
        state
    }

    /// Writes a pair's state back.
    fn unpair(x: usize, state: &State, b: &mut Brigade) {
        b.hits[x] = state.hits[0];
        b.hits[DEF] = state.hits[1];
        b.range[x] = state.range;
        b.posture[x] = state.posture[0];
        b.posture[DEF] = state.posture[1];
        b.leader[x] = state.leader[0];
        b.leader[DEF] = state.leader[1];
    }

    fn alive(b: &Brigade, x: usize) -> bool {
        b.hits[x] > 0
    }

    /// The nearer attacking unit still standing (the attacking unit on a tie).
    fn nearer(b: &Brigade) -> usize {
        match (Self::alive(b, 0), Self::alive(b, 1)) {
            (true, true) if b.range[1] < b.range[0] => 1,
            (false, true) => 1,
            _ => 0,
        }
    }

    /// Side `side`'s C-in-C rallies the units he is with: `Napoleon` at the
    /// start of its side turns, `Wellington` at the end.
    fn rallies<F: Fate>(&self, side: u8, commander: Commander, b: &mut Brigade, fate: &mut F) {
        if side == DEFENDER {
            if self.setups[DEF].commander == commander {
                let x = Self::nearer(b);
                let mut state = self.pair(x, b);
                self.duels[x].rally(1, &mut state, fate);
                Self::unpair(x, &state, b);
            }
            return;
        }
        for x in 0..2 {
            if Self::alive(b, x) && self.setups[x].commander == commander {
                let mut state = self.pair(x, b);
                self.duels[x].rally(0, &mut state, fate);
                Self::unpair(x, &state, b);
            }
        }
    }

    /// One side turn; `Some(winner)` when the fight ends.
    fn side_turn<F: Fate>(&self, b: &mut Brigade, fate: &mut F) -> Option<End> {
        let side = b.next;
        b.next = 1 - side;
        // WATERLOO: "Napoleon - at the start of any French turn may attempt to rally one French unit."
        self.rallies(side, Commander::Napoleon, b, fate);
        let ended = if side == ATTACKER { self.attackers_turn(b, fate) } else { self.defenders_turn(b, fate) };
        if ended.is_none() {
            // WATERLOO: "Wellington – at the end of any Allied turn, may ... attempt to rally 1 unit."
            self.rallies(side, Commander::Wellington, b, fate);
        }
        ended
    }

    /// The attacker's side turn: the shooting phase, then the movement phase.
    fn attackers_turn<F: Fate>(&self, b: &mut Brigade, fate: &mut F) -> Option<End> {
        let mut fired = [false; 2];
        let mut phase_hits = 0;
        let mut retreated = false;
        let mut options = Vec::with_capacity(40);
        // Turn sequence: "2) Shoot 3) Move".
        loop {
            options.clear();
            for x in 0..2 {
                if Self::alive(b, x) && !fired[x] && self.duels[x].fire_now(0, &self.pair(x, b)).is_some() {
                    options.push(VOLLEY_BY[x]);
                }
            }
            if options.is_empty() {
                break;
            }
            options.push(NO_MORE_FIRE);
            let now = *b;
            let chosen = fate.decide(ATTACKER, &VOLLEY_DECISION, &options, &|_| Self::nearer_first(&now, &options));
            if chosen == NO_MORE_FIRE {
                break;
            }
            let x = usize::from(chosen - VOLLEY_BY[0]);
            fired[x] = true;
            if self.volley(x, b, &mut phase_hits, &mut retreated, fate).is_some() {
                return Some(End::Attacker);
            }
        }
        for (x, &fired) in fired.iter().enumerate() {
            if fired || !Self::alive(b, x) {
                continue;
            }
            let mut state = self.pair(x, b);
            options.clear();
            let mut decision = self.duels[x].options(0, &state, &mut options);
            if options.contains(&FIRE) {
                // It held its fire in the shooting phase: now it moves.
                options.retain(|&o| o != FIRE);
                decision = &duel::MOVE_DECISION;
            }
            // Retiring from beyond the defender's reach is not offered where
            // it is never needed (see "Retiring" in the module docs).
            if self.beyond_reach(x, 0, &state) {
                options.retain(|&o| o < duel::RETIRE_AT);
            }
            let now = state;
            let duel = &self.duels[x];
            let chosen = fate.decide(ATTACKER, decision, &options, &|policy| duel.heuristic(0, &now, &options, policy));
            // Without cavalry only a retirement ends the fight in the
            // movement phase: under `purpose = stand` a unit that retires has
            // given up the ground its side must hold.
            if let Some(end) = duel.apply(0, chosen, &mut state, fate) {
                return Some(end);
            }
            Self::unpair(x, &state, b);
        }
        self.leader_moves(b, fate);
        None
    }

    /// The attacker's leader decides, at the end of its movement phase, which
    /// of its standing units he is with: he may ride to the other if it is
    /// within a cavalry move ("Leaders move with units or as cavalry"): one
    /// box into the neighbouring file (two half boxes), or a diagonal into it
    /// (three) and straight boxes (two each) along it to where it stands. His
    /// extra hit goes with him (interpretation `leader_leaves`).
    fn leader_moves<F: Fate>(&self, b: &mut Brigade, fate: &mut F) {
        if !self.leader_moves {
            return;
        }
        let Some(x) = (0..2).find(|&x| b.leader[x] && Self::alive(b, x)) else {
            return;
        };
        let y = 1 - x;
        if !Self::alive(b, y) {
            return;
        }
        let apart = u32::from(b.range[x].abs_diff(b.range[y]));
        let ride = if apart == 0 { 2 } else { 3 + 2 * (apart - 1) };
        if ride > self.rules.leader_move_half_boxes() {
            return;
        }
        let Some(left) = self.rules.hits_when_leader_leaves(u32::from(b.hits[x])) else {
            return;
        };
        let now = *b;
        let chosen = fate.decide(ATTACKER, &LEADER_DECISION, &[LEAD[x], LEAD[y]], &|policy| {
            // Bold: with the unit in the most danger, the nearer to the
            // defender. Cautious: with the unit the defender cannot reach, or
            // else the farther. Ties keep him where he is.
            let reach = |u: usize| self.duels[u].threat(0, &self.pair(u, &now));
            let pick = match policy {
                Policy::Cautious => {
                    let key = |u: usize| (u32::from(now.range[u]) > reach(u), now.range[u]);
                    if key(y) > key(x) { y } else { x }
                }
                _ => {
                    if now.range[y] < now.range[x] {
                        y
                    } else {
                        x
                    }
                }
            };
            LEAD[pick]
        });
        if chosen == LEAD[x] {
            return;
        }
        let base = self.duels[y].base_hits(0);
        b.hits[y] = self.rules.hits_when_leader_joins(u32::from(b.hits[y]), base) as u8;
        b.hits[x] = left as u8;
        b.leader = [x == 1, x == 0, b.leader[DEF]];
    }

    /// What `bold` and `cautious` fire first: the nearer unit (the attacking unit on a tie).
    fn nearer_first(b: &Brigade, options: &[u16]) -> u16 {
        options
            .iter()
            .copied()
            .filter(|&o| o != NO_MORE_FIRE)
            .min_by_key(|&o| b.range[usize::from(o - VOLLEY_BY[0])])
            .unwrap_or(NO_MORE_FIRE)
    }

    /// Attacking unit `x` fires; `Some(ATTACKER)` if the defender routs.
    fn volley<F: Fate>(
        &self,
        x: usize,
        b: &mut Brigade,
        phase_hits: &mut u32,
        retreated: &mut bool,
        fate: &mut F,
    ) -> Option<End> {
        let duel = &self.duels[x];
        let mut state = self.pair(x, b);
        let before = state.range;
        let hits = fate.draw(duel.fire_now(0, &state).expect("a volley is offered only in range"));
        // Shooting: "3 (or more) hits from shooting from a single source"
        // (interpretation `single_source`): each unit's fire on its own, or
        // the phase's fire added up, retreating once.
        let each_unit = self.rules.single_source == SingleSource::EachUnit;
        let ended = duel.take_hits(0, hits, each_unit, &mut state, fate);
        if ended.is_none() && !each_unit {
            *phase_hits += hits;
            if !*retreated && *phase_hits >= duel.retreat_at(1) {
                *retreated = true;
                duel.retreat(1, &mut state);
            }
        }
        Self::unpair(x, &state, b);
        if ended.is_some() {
            return ended;
        }
        // The defender's retreat runs along the files: it opens both ranges.
        let opened = b.range[x] - before;
        let y = 1 - x;
        if opened > 0 && Self::alive(b, y) {
            b.range[y] = (u32::from(b.range[y] + opened)).min(MAX_RANGE) as u8;
        }
        None
    }

    /// The defender's side turn: fire at one attacker, or move, or stay or leave square.
    fn defenders_turn<F: Fate>(&self, b: &mut Brigade, fate: &mut F) -> Option<End> {
        let n = Self::nearer(b);
        let mut nearer = self.pair(n, b);
        let mut options = Vec::with_capacity(40);
        let mut decision = self.duels[n].options(1, &nearer, &mut options);
        options.retain(|&o| o != FIRE);
        // Retiring from beyond every attacker's reach is not offered where it
        // is never needed (see "Retiring" in the module docs).
        if (0..2).filter(|&x| Self::alive(b, x)).all(|x| self.beyond_reach(x, 1, &self.pair(x, b))) {
            options.retain(|&o| o < duel::RETIRE_AT);
        }
        let targets: Vec<u16> = (0..2)
            .filter(|&x| Self::alive(b, x) && self.duels[x].fire_now(1, &self.pair(x, b)).is_some())
            .map(|x| FIRE_AT[x])
            .collect();
        if !targets.is_empty() {
            decision = &TARGET_DECISION;
            options.splice(0..0, targets.iter().copied());
        }
        let now = *b;
        let chosen = fate.decide(DEFENDER, decision, &options, &|policy| {
            // Bold and cautious fire at the nearer attacker in range.
            match targets.iter().copied().min_by_key(|&o| now.range[usize::from(o - FIRE_AT[0])]) {
                Some(target) => target,
                None => self.duels[n].heuristic(1, &self.pair(n, &now), &options, policy),
            }
        });
        if let Some(x) = FIRE_AT.iter().position(|&o| o == chosen) {
            let duel = &self.duels[x];
            let mut state = self.pair(x, b);
            let hits = fate.draw(duel.fire_now(1, &state).expect("fire is offered only in range"));
            // The attacking unit retreats along its own file: only its range opens.
            let routed = duel.take_hits(1, hits, true, &mut state, fate).is_some();
            Self::unpair(x, &state, b);
            if routed {
                b.range[x] = 0;
                b.posture[x] = Posture::Deployed;
                let y = 1 - x;
                if !Self::alive(b, y) {
                    return Some(End::Defender);
                }
                // His leader, if he survived the rout's 1D6, is not overrun;
                // he joins the other unit only under `surviving_leader =
                // always_joins` ("he rides back to it").
                if self.leader_moves && b.leader[x] && self.rules.surviving_leader == SurvivingLeader::AlwaysJoins {
                    let base = self.duels[y].base_hits(0);
                    b.hits[y] = self.rules.hits_when_leader_joins(u32::from(b.hits[y]), base) as u8;
                    b.leader[x] = false;
                    b.leader[y] = true;
                }
            }
            return None;
        }
        let before = nearer.range;
        // A retirement under `attack` or `stand` gives up the defender's
        // ground, and with it the fight.
        if let Some(end) = self.duels[n].apply(1, chosen, &mut nearer, fate) {
            return Some(end);
        }
        Self::unpair(n, &nearer, b);
        // Its move runs along the files: it closes on both attackers alike,
        // or, retiring, opens both ranges alike.
        let y = 1 - n;
        if Self::alive(b, y) {
            let moved = i32::from(nearer.range) - i32::from(before);
            b.range[y] = (i32::from(b.range[y]) + moved).clamp(1, MAX_RANGE as i32) as u8;
        }
        None
    }

    /// Whether side `s` of pair `x` (attacking unit `x` and the defender) is
    /// beyond its enemy's reach and could stay so by retiring only once the
    /// enemy has come within it: the enemy cannot attack it next side turn
    /// (`Duel::threat`), and its own move is at least the enemy's deployed
    /// move (the most the enemy closes in a side turn and still stands
    /// ready to fire the next; a unit that moves or deploys does not shoot).
    fn beyond_reach(&self, x: usize, s: u8, state: &State) -> bool {
        let duel = &self.duels[x];
        u32::from(state.range) > duel.threat(s, state) && duel.march(s, state) >= duel.deployed_move(1 - s)
    }

    /// The outcome code: the metric values through the layout.
    fn pack(&self, winner: u8, turn: u32, b: &Brigade) -> u64 {
        // At most 100: under `leader_leaves = keep_hits` a leader's ride
        // leaves the unit he left its hits and gives the one he joins one more.
        let percent = |hits: u32, of: u32| i64::from((hits * 100 / of).min(100));
        let routed = i64::from(b.hits[0] == 0) + 2 * i64::from(b.hits[1] == 0);
        let mut values = [
            i64::from(winner),
            i64::from(turn),
            percent(u32::from(b.hits[0]) + u32::from(b.hits[1]), self.start_hits[0] + self.start_hits[1]),
            percent(u32::from(b.hits[DEF]), self.start_hits[DEF]),
            routed,
            0,
            0,
            0,
        ];
        let mut len = 5;
        for unit in 0..3 {
            if self.led[unit] {
                // A leader who may ride is lost when he is with neither unit.
                let with_us = if self.leader_moves && unit < DEF { b.leader[0] || b.leader[1] } else { b.leader[unit] };
                values[len] = i64::from(!with_us);
                len += 1;
            }
        }
        self.layout.encode(&values[..len])
    }
}

impl BrigadeFire {
    /// This fight under `purpose`: what each side must achieve by the turn
    /// limit ([`crate::game::Purpose`]).
    pub fn with_purpose(mut self, purpose: game::Purpose) -> Self {
        self.purpose = purpose;
        // The pairs' retirements read it: under `attack` the defender
        // retiring gives up its ground, under `stand` any unit's does.
        self.duels = self.duels.map(|duel| duel.with_purpose(purpose));
        self
    }
}

impl Game for BrigadeFire {
    type State = Brigade;

    /// The unit keys that change nothing against these enemies
    /// (`duel::unit_unread_keys`): each attacking unit fights the
    /// defender, the defender both.
    fn unread_keys(&self) -> Vec<(String, String)> {
        let [attacker, support, defender] = &self.setups;
        let mut unread = duel::unit_unread_keys(&self.rules, "attacker", attacker, &[defender.unit]);
        unread.extend(duel::unit_unread_keys(&self.rules, "support", support, &[defender.unit]));
        unread.extend(duel::unit_unread_keys(&self.rules, "defender", defender, &[attacker.unit, support.unit]));
        unread
    }

    fn purpose(&self) -> game::Purpose {
        self.purpose
    }

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn start(&self) -> Brigade {
        self.start
    }

    fn steps(&self) -> u32 {
        2 * self.turns
    }

    fn step<F: Fate>(&self, b: &mut Brigade, fate: &mut F) -> Option<End> {
        self.side_turn(b, fate)
    }

    fn code(&self, winner: u8, steps: u32, b: &Brigade) -> u64 {
        self.pack(winner, steps.div_ceil(2), b)
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        DECISIONS
    }

    fn describe_state(&self, b: &Brigade, side: u8) -> String {
        let unit = |i: usize| {
            let posture = match b.posture[i] {
                Posture::Deployed => "",
                Posture::Column => " in column of route",
                Posture::Square => " in square",
                Posture::Town => " holding a town",
            };
            format!("{}{posture} ({} hits)", Duel::unit_words(self.setups[i].unit), b.hits[i])
        };
        let boxes = |r: u8| format!("{r} box{}", if r == 1 { "" } else { "es" });
        let attackers: Vec<String> = (0..2)
            .map(|x| if Self::alive(b, x) { format!("{} at {}", unit(x), boxes(b.range[x])) } else { "routed".into() })
            .collect();
        if side == ATTACKER {
            format!("{} and {} against {}", attackers[0], attackers[1], unit(DEF))
        } else {
            format!("{} against {} and {}", unit(DEF), attackers[0], attackers[1])
        }
    }

    fn describe_option(&self, _: &'static Decision, option: u16) -> String {
        match option {
            o if o == FIRE_AT[0] => "fire at the attacking unit".into(),
            o if o == FIRE_AT[1] => "fire at the supporting unit".into(),
            o if o == VOLLEY_BY[0] => "the attacking unit fires".into(),
            o if o == VOLLEY_BY[1] => "the supporting unit fires".into(),
            o if o == LEAD[0] => "with the attacking unit".into(),
            o if o == LEAD[1] => "with the supporting unit".into(),
            NO_MORE_FIRE => "no more fire".into(),
            o => duel::describe_option(o),
        }
    }
}

/// A duel's error about its attacking unit, renamed to the supporting unit's keys.
fn support_keys(error: ParamError) -> ParamError {
    let rename = |key: String| key.replacen("attacker.", "support.", 1);
    match error {
        ParamError::Invalid { key, reason } => ParamError::Invalid { key: rename(key), reason },
        ParamError::OutOfRange { key, value, min, max } => {
            let key = if key == "range" { "support.range".into() } else { rename(key) };
            ParamError::OutOfRange { key, value, min, max }
        }
        other => other,
    }
}

/// The default units of `brigade_fire`: good line infantry supported by a
/// good battery, against a good line.
pub fn brigade_fire_defaults() -> (SideSetup, SideSetup, SideSetup) {
    (
        SideSetup { quality: Quality::Good, ..SideSetup::new(UnitType::LineInfantry) },
        SideSetup::new(UnitType::Artillery),
        SideSetup::new(UnitType::LineInfantry),
    )
}

fn build(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let setup = BrigadeSetup {
        range: settings.int("range") as u32,
        support_range: settings.int("support.range") as u32,
        turns: settings.int("turns") as u32,
        first: settings.choice("first"),
    };
    let fight = BrigadeFire::new(
        rules_of::<Rules>(rules),
        duel::side_from(settings, "attacker"),
        duel::side_from(settings, "support"),
        duel::side_from(settings, "defender"),
        setup,
    )?;
    Ok(Box::new(Played::new(
        fight.with_purpose(game::Purpose::from_settings(settings)),
        game::Plan::from_settings(settings),
    )))
}

/// The `brigade_fire` scenario for the catalogue.
pub fn brigade_fire_entry() -> ScenarioEntry {
    let (attacker, support, defender) = brigade_fire_defaults();
    let mut params = duel::duel_params(2, attacker, defender);
    params.push(Param::int(
        "support.range",
        "the supporting unit's starting range in boxes (0: the same as range)",
        0,
        0,
        i64::from(MAX_RANGE),
    ));
    params.extend(duel::side_params("support", support));
    duel::name_retired_keys(&mut params, "attacker", &["attacker", "support"], &[]);
    duel::name_retired_keys(&mut params, "defender", &["defender"], &[]);
    params.push(game::purpose_key(
        game::Purpose::Attack,
        "rout the defender",
        "two units attack one: can they rout it within the limit",
    ));
    ScenarioEntry {
        name: "brigade_fire",
        summary: "Two attacking units (a battalion and its battery, say) firing on one defender, each unit's fire its \
                  own source for the retreat test, the defender choosing whom to fire at, until the defender or \
                  both attackers rout.",
        params,
        build,
    }
}
