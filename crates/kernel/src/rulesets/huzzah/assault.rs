//! An assault, turn by turn in the rules' sequence ("Sequence of play"): one
//! attacking unit (infantry in column or line, or cavalry) starts some bands
//! from one defending unit (infantry in line, column or square, cavalry in
//! line or column, or a battery). Battle and pursuit cavalry and small units
//! are keys of either side (`cavalry`, `small`).
//!
//! The attacker's turn: threat tests if it is in the defender's threat zone;
//! orders (a forced order first, a deploy followed by its threat test, then
//! advance orders until one fails, an order cannot be given, or it makes
//! contact), with the battery's bombardments; the engagement on contact;
//! rally, reform and rout. The defender's turn: threat tests if it is in the
//! attacker's zone, its forced order (deploy to line or form square) and the
//! deploy's threat test, smoke removal and rally, reform and rout. It ends when a unit breaks (a routing
//! unit that leaves the table is broken), or at the turn limit.
//!
//! "Rally, reform and rout" ("Rally and reform", "Compulsory movement: Rout",
//! "Compulsory casualties"): one roll per unit at its full rating with the
//! rally modifiers (Down 1 if routing). A routing unit that passes rallies,
//! halts and takes a formation; one that fails makes one move at march column
//! rate towards its table edge (its `edge` key: the bands behind it), and a
//! move beyond the edge breaks it (`leave_table`). The same roll removes
//! staggers (the margin; all on a Huzzah!), and a unit with staggers left
//! takes a compulsory kill. The loser of an engagement routs at once, one
//! march-column move away, and a tied attacker or a Huzzah! loser retires a
//! move: each off the table if the move is longer than the bands behind it.
//! A routed unit may rally and the assault goes on. Reorganising is the
//! `reorganise` scenario's.
//!
//! Skirmisher superiority ("Skirmisher superiority") is the `skirmish` key:
//! the side that holds it every turn (none by default) has its infantry's
//! threat zones 1 band deeper against enemy infantry and artillery, which
//! moves where the enemy's advance must stop, who takes threat tests, and
//! from how far its own infantry may advance to engage. The superiority
//! rolls themselves are the `skirmish` scenario's.
//!
//! Command checks ("Command integrity check"), first in each side's Rally
//! phase, when a side's `brigade` key is set (the units of its brigade,
//! itself included; 0, the default, leaves its command outside the
//! scenario, as before): its brigade checks when its unit routed since its
//! last Rally phase, when the brigade failed its last check, or when it has
//! units broken or routing (`brigade_lost` others, and its own unit) and its
//! unit is in the enemy's threat zone, unless a Huzzah! on its last check
//! spares it until its unit routs again. The check is rolled at the unit's
//! officer's `rating`, Down 1 for each unit broken or routing, Down 1 if it
//! failed its last check (Up 1 if passed), Down 2 if an isolated
//! sub-command (`command_check_isolated`), Up 1 if its unit holds its
//! favourable position. Failed, the unit takes a stagger for each unit of
//! the brigade broken or routing and, if not routing, retires one full move
//! (off the table, broken); its next advance orders are Down 1. A lone unit
//! (`brigade = 1`) is isolated: Down 1 on threat tests and orders, and
//! Down 2 on its check. The brigade's other units stay as the keys say, and
//! a unit's break ends the assault before any check. Not modelled: an
//! officer seizing the flag, an inspirational brigade officer, the other
//! units' favourable positions.
//!
//! The turn is a small state machine in which every step consumes at most one
//! roll of 2D6, so the Monte Carlo sampler and the exact solver run the very
//! same steps: the sampler with dice, the solver over the eleven totals, turn
//! by turn as an absorbing Markov chain, propagated forward step by step for
//! all states together (the way [`markov::absorb`](crate::markov::absorb)
//! propagates turns) in the order of the turn's phases, so that equal states
//! merge however many rolls led to them.
//!
//! # Two ways to play it
//!
//! [`Assault`] is that chain under one fixed policy: the attacker always
//! advances when it can, holds while the defender routs, never deploys of
//! its own accord; the battery fires at every chance (or, `with_fire`, only
//! at short range); the defender forms square only when a forced order
//! makes it. The catalogue's `assault` is [`AssaultGame`], the same steps on
//! the kernel's decision model ([`crate::game`]), where those choices are
//! the decisions `advance` (halt, advance, deploy to line), `pursue`,
//! `bombard` (fire or hold) and `square`, played by `best`, `bold` (the
//! chain's play, but pursuing) or `cautious`; see its module for each.
//! Best play and the heuristics are solved up to [`BEST_TURN_LIMIT`] turns
//! (60: the 30-turn default takes about 1.9 s wall and 2.9 s of CPU under
//! best play, within the 2 s the project aims for on a quiet machine); beyond it `best`
//! plays `bold` and the fight is sampled. That fallback's cost, measured where both solve:
//! over the default 30 turns best play wins the attacker 47.26% and loses
//! it 19.08%, bold 49.42% and 50.13%, 28.9 points of margin (over 60 turns
//! the same to 0.001). An assault on a battery, whose states never level
//! off, is solved only up to [`BATTERY_BEST_TURN_LIMIT`] turns under best
//! play and [`BATTERY_TURN_LIMIT`] under the heuristics. The chain itself is solved up to
//! [`EXACT_TURN_LIMIT`] turns. A test holds the game under bold play to the
//! chain where nobody pursues.
//!
//! Modelling choices (beyond the interpretations of [`Rules`]):
//! - The chain's attacker always advances when it can; the defender stands.
//! - While the defender routs, the chain's attacker holds the ground it won (it
//!   gives no orders, but blown cavalry still takes its recall order) and
//!   advances again once the defender has rallied; the defender stands
//!   wherever it rallied. A routing unit gives no orders (a mob acts on
//!   none, forced orders included), has no threat zone and tests threats and
//!   engages on its disadvantaged rating ("Mob").
//! - A `favourable` position is the unit's starting place: a unit that
//!   advances, retires or routs off it loses the Up (and regains it if it
//!   comes back to the very place).
//! - A routing unit that rallies takes its starting formation, or square for
//!   infantry facing cavalry ("assume whichever allowable formation they
//!   wish"). A unit that routed in the attacker's Engagement phase tries to
//!   rally in its side's next Rally phase: the attacker the same turn, the
//!   defender in its own turn that follows.
//! - `attacker_routing` and `defender_routing` say whether each unit is a
//!   routing mob at the end. The assault counts no routs or rallies: such
//!   counters change no decision and no result, and carried in the solver's
//!   state they kept its states from merging (the live states of the default
//!   assault grew every turn, 456 k after turn 7, where without them they
//!   level off near 85 k).
//! - A battery may bombard the attacker once in each attacker's Orders phase
//!   and once more each time the attacker acts on an order, forced deploys
//!   and recalls included ("Artillery bombardment": "Once a battery has
//!   bombarded, it cannot bombard the same target again during the same turn
//!   unless that target acts on another order. A target bombarded in a
//!   previous turn can be bombarded again ... even if \[it\] does not act on
//!   another order"), while bombardments last and the target is within
//!   extreme range and not engaged. Its chances come after each order is
//!   carried out (at the distance the move ends, or at 1 band when it ends
//!   in contact: "a moving unit can be bombarded at any stage in its
//!   movement"; after a deploy, once the deploy's threat test is taken) and
//!   once more at the end of the attacker's orders (a target that acted on
//!   no order, a mob included). Whether to take a chance is the defender's
//!   `bombard` decision on the game (the chain's [`Fire`]: `now` fires at
//!   every chance, `short` holds fire until the attacker is at short range).
//!   A battery that holds keeps the bombardment but not the chance: a later
//!   order gives one chance, not two.
//! - A forced deploy that succeeds is followed at once by a threat test of
//!   the deployed unit when it is in the enemy's threat zone ("Deploying": "A
//!   unit that deploys within or into a threat zone must immediately take a
//!   threat test on completing the change of formation").
//! - Cavalry whose recall fails (or cannot be given) loses control: it
//!   advances one move at cavalry march column rate as a mob (disadvantaged
//!   when threatened, and in an engagement as blown cavalry), stopped on
//!   entering the defender's threat zone, and makes contact from anywhere
//!   inside it (the advance order's 1-band limit binds orders only). It is
//!   under control again when it rallies.
//! - "Bombarded in column" applies to the battery's inherent threat too (its
//!   explanation: "in all artillery threat zones - short, long and extreme").
//! - A Huzzah! in a threat test makes the other unit test when each is in the
//!   other's threat zone; a chain stops after 8 Huzzah!es (chance 36^-8).
//! - A defending line or column has two unsecured flanks: failing a threat test
//!   against cavalry gives it a forced order to form square.
//! - A battery threatened by infantry is in a favourable position (open
//!   order troops threatened only by infantry, "Threat tests"); against
//!   cavalry it tests on its full rating (the open-order disadvantage names
//!   infantry).
//! - A unit broken by leaving the table (or a battery broken by losing)
//!   keeps its staggers and kills in `*_remaining`.
//! - Blown cavalry that fails to rally takes the recall order in its next
//!   orders phase, and acts on no other order that phase. Blown cavalry that
//!   has not yet failed a rally takes no order at all ("Blown cavalry cannot
//!   move until it reforms"; "It cannot move ... during that player's Orders
//!   phase because it is blown").
//! - Defending cavalry stands: the rules give it no countercharge or other
//!   reaction in the attacker's turn ("An advance order is the only order
//!   that can be used to make contact with the enemy", and orders are the
//!   phasing player's), and in its own turn it stands as any defender does.
//!   Engaged, it is blown unless it routs ("Cavalry that does not rout after
//!   an engagement is blown": no threat zone, disadvantaged if engaged
//!   again); it tries to rally in its own Rally phase that turn ("Cavalry
//!   blown during its opponent's Engagement phase cannot rally until its
//!   owning player's next Rally phase"), and failing that takes a recall
//!   order in its next Orders phase (the defender's forced order). A
//!   failed recall takes it out of control: one move at march column rate
//!   towards the attacker, stopped on entering the attacker's threat zone,
//!   and a move into contact is engaged in the defender's turn with the
//!   defender as the phasing unit (it retires on a tie, the attacker holds).
//! - Infantry ordered to advance on defending cavalry takes Down 2 within
//!   the cavalry's threat zone or the infantry's move plus threat zone of it
//!   ("Infantry ordered to advance on cavalry"), on advance orders only (a
//!   deploy is not an advance; likewise the inspirational officer's Up 1).

pub mod brigade;
mod game;
pub use game::{
    ADVANCE, AssaultGame, BATTERY_BEST_TURN_LIMIT, BATTERY_TURN_LIMIT, BEST_TURN_LIMIT, BOMBARD_DECISION, PURSUE,
    SQUARE, Standing,
};

use super::engagement::{Fate, Fighter, engagement_rating, resolve_with_ratings};
use super::standoff::{Node, StateHasher, TOTALS, duel_metrics, staggers_after_reform, threat_staggers};
use super::{
    Arm, CavalryKind, CommandCheckHuzzah, CommandCheckIsolated, HuzzahThreatChain, Officer, Quality, Rules, invalid,
    pair_is_huzzah, pair_total, quality_param, remaining_percent,
};
use crate::catalogue::ScenarioEntry;
use crate::dice::Dice;
use crate::game::{Plan, Played, plan_params};
use crate::outcome::{Layout, Metric};
use crate::params::{Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::{DynScenario, Scenario};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasherDefault;

crate::choice_enum! {
    /// A unit's formation.
    pub enum Formation {
        /// Line (a battery counts as a line).
        Line = "line",
        /// Column.
        Column = "column",
        /// Square (infantry only).
        Square = "square",
    }
}

crate::choice_enum! {
    /// A battery's weight.
    pub enum Guns {
        /// Light artillery.
        Light = "light",
        /// Medium artillery.
        Medium = "medium",
        /// Heavy artillery.
        Heavy = "heavy",
    }
}

crate::choice_enum! {
    /// When a battery bombards the attacker ("Artillery bombardment": once in
    /// each of the opponent's Orders phases, and once more each time the target
    /// acts on another order): the defender's fire policy.
    pub enum Fire {
        /// At every chance within extreme range (default).
        Now = "now",
        /// Only at short range, holding fire while the attacker is farther.
        Short = "short",
    }
}

/// One side of an assault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AssaultUnit {
    /// Base quality.
    pub quality: Quality,
    /// Net Ups minus Downs on its threat tests and engagements beyond those modelled.
    pub shifts: i32,
    /// Staggers at the start.
    pub staggers: i32,
    /// Kills at the start.
    pub kills: i32,
    /// Its arm.
    pub arm: Arm,
    /// Its formation at the start.
    pub formation: Formation,
    /// An officer attached to the unit.
    pub officer: Officer,
    /// The command rating of the officer giving its orders (6-10).
    pub rating: i32,
    /// In command (Up 1 to orders and to rally).
    pub in_command: bool,
    /// In a favourable position where it starts (the defender's ground); a
    /// unit that moves off its starting place leaves it.
    pub favourable: bool,
    /// Disadvantaged in threat tests and engagements.
    pub disadvantaged: bool,
    /// Bands behind it to its table edge along its line of communication: a
    /// rout or retirement longer than this takes it off the table, broken.
    pub edge: i32,
    /// Routing at the start (a mob that must rally in its Rally phase).
    pub routing: bool,
    /// Battle or pursuit cavalry ("Engage the enemy": Up 1 if battle cavalry;
    /// Up 1 if pursuit cavalry fighting a disadvantaged enemy); regular for
    /// any other arm.
    pub cavalry: CavalryKind,
    /// A small unit ("Engage the enemy", Small unit: Down 1 in engagements
    /// against standard-sized units; "Threat tests": Up 1 if bombarded at
    /// long or extreme range). A battery follows `artillery_small_unit`.
    pub small: bool,
    /// Units in its brigade, itself included, for command checks ("Command
    /// integrity check"): 0, its command is outside the scenario and takes
    /// no checks; 1, a lone unit (isolated: "A unit is also isolated if it is
    /// the only unit in a command").
    pub brigade: i32,
    /// Other units of its brigade broken or routing, and staying so.
    pub brigade_lost: i32,
    /// The brigade itself is an isolated sub-command of its division (read
    /// under `command_check_isolated = command`).
    pub brigade_isolated: bool,
    /// Its brigade's last command check at the start.
    pub last_check: LastCheck,
}

impl AssaultUnit {
    /// A fresh unit with an average officer (8), in command.
    pub fn new(quality: Quality, arm: Arm, formation: Formation) -> AssaultUnit {
        AssaultUnit {
            quality,
            shifts: 0,
            staggers: 0,
            kills: 0,
            arm,
            formation,
            officer: Officer::None,
            rating: 8,
            in_command: true,
            favourable: false,
            disadvantaged: false,
            edge: DEFAULT_EDGE,
            routing: false,
            cavalry: CavalryKind::Regular,
            small: false,
            brigade: 0,
            brigade_lost: 0,
            brigade_isolated: false,
            last_check: LastCheck::None,
        }
    }

    fn from_settings(settings: &Settings, prefix: &str) -> AssaultUnit {
        let key = |name: &str| format!("{prefix}.{name}");
        AssaultUnit {
            quality: settings.choice(&key("quality")),
            shifts: settings.int(&key("shifts")) as i32,
            staggers: settings.int(&key("staggers")) as i32,
            kills: settings.int(&key("kills")) as i32,
            arm: settings.choice(&key("arm")),
            formation: settings.choice(&key("formation")),
            officer: settings.choice(&key("officer")),
            rating: settings.int(&key("rating")) as i32,
            in_command: settings.bool(&key("in_command")),
            favourable: settings.bool(&key("favourable")),
            disadvantaged: settings.bool(&key("disadvantaged")),
            edge: settings.int(&key("edge")) as i32,
            routing: settings.bool(&key("routing")),
            cavalry: settings.choice(&key("cavalry")),
            small: settings.bool(&key("small")),
            brigade: settings.int(&key("brigade")) as i32,
            brigade_lost: settings.int(&key("brigade_lost")) as i32,
            brigade_isolated: settings.bool(&key("brigade_isolated")),
            last_check: settings.choice(&key("last_check")),
        }
    }

    fn params(prefix: &str, arm: Arm, formation: Formation) -> Vec<Param> {
        let key = |name: &str| format!("{prefix}.{name}");
        vec![
            quality_param(key("quality"), Quality::Trained),
            Param::int(key("shifts"), "net Ups minus Downs on threat tests and engagements", 0, -10, 10),
            Param::int(key("staggers"), "staggers at the start", 0, 0, 10),
            Param::int(key("kills"), "kills at the start", 0, 0, 10),
            Param::choice(
                key("arm"),
                "the attacker: infantry or cavalry; the defender: infantry, cavalry or artillery",
                arm,
            ),
            Param::choice(key("formation"), "line, column or square (infantry only)", formation),
            Param::choice(key("officer"), "officer attached: none, attached or inspirational", Officer::None),
            Param::int(key("rating"), "command rating of its officer (6 Abysmal to 10 Excellent)", 8, 6, 10),
            Param::boolean(key("in_command"), "in command (Up 1 to orders and rallying)", true),
            Param::boolean(
                key("favourable"),
                "in a favourable position where it starts (lost once it moves off)",
                false,
            ),
            Param::boolean(key("disadvantaged"), "disadvantaged in threat tests and engagements", false),
            Param::int(
                key("edge"),
                "bands behind it to its table edge or line of communication (a rout or retirement beyond it breaks the unit)",
                i64::from(DEFAULT_EDGE),
                0,
                40,
            ),
            Param::boolean(key("routing"), "routing at the start (it must rally in its Rally phase)", false),
            Param::choice(
                key("cavalry"),
                "regular, battle (Up 1 in engagements) or pursuit (Up 1 against a disadvantaged enemy) cavalry; cavalry only",
                CavalryKind::Regular,
            ),
            Param::boolean(
                key("small"),
                "a small unit (Down 1 in engagements against standard-sized units; a battery follows artillery_small_unit)",
                false,
            ),
            Param::int(
                key("brigade"),
                "units in its brigade, itself included, for command checks (0: no command checks; 1: a lone, isolated unit)",
                0,
                0,
                8,
            ),
            Param::int(key("brigade_lost"), "other units of its brigade broken or routing throughout", 0, 0, 7),
            Param::boolean(
                key("brigade_isolated"),
                "its brigade is the only one of its division not broken or routing (read under command_check_isolated = command)",
                false,
            ),
            Param::choice(
                key("last_check"),
                "its brigade's last command check: none, passed or failed",
                LastCheck::None,
            ),
        ]
    }
}

/// The default bands behind each unit to its table edge: "The typical depth
/// of a battlefield in Huzzah! is 40 bands" ("Scaling the game"), with the
/// two units at the default 8 bands apart across its middle, (40 - 8) / 2.
/// (The rules' own table, 1.8 m deep in 5 cm bands, is 36 bands: 14 behind
/// each.) The old default of 8 bands took a unit off the table after its
/// third rout move.
pub const DEFAULT_EDGE: i32 = 16;

// The phases of a turn, each consuming at most one roll.
const ATTACKER_THREAT: u8 = 0;
const ATTACKER_FORCED: u8 = 1;
/// The threat test of a unit that completed a forced deploy in a threat zone.
const ATTACKER_DEPLOY_THREAT: u8 = 2;
const ATTACKER_ORDERS: u8 = 3;
const BOMBARD: u8 = 4;
/// The battery's last chance to bombard in the attacker's Orders phase.
const LAST_BOMBARD: u8 = 5;
const ENGAGE_ATTACKER_ROLL: u8 = 6;
const ENGAGE_DEFENDER_ROLL: u8 = 7;
/// The attacker's brigade's command check, first in its Rally phase.
const ATTACKER_CHECK: u8 = 8;
const ATTACKER_REFORM: u8 = 9;
const DEFENDER_THREAT: u8 = 10;
const DEFENDER_FORCED: u8 = 11;
const DEFENDER_DEPLOY_THREAT: u8 = 12;
/// The engagement of defending cavalry out of control that advanced into
/// contact in its own turn: its roll, then the attacker's.
const DEFENDER_ENGAGE_ROLL: u8 = 13;
const DEFENDER_ENGAGE_SECOND: u8 = 14;
/// The defender's brigade's command check, first in its Rally phase.
const DEFENDER_CHECK: u8 = 15;
const DEFENDER_REFORM: u8 = 16;
const TURN_END: u8 = 17;

/// States less likely than this are dropped by the exact solver (as
/// `markov::absorb` drops mass below 1e-300): a long assault reaches tens of
/// thousands of states, most of them far below any probability a report
/// prints. The dropped mass is below 1e-10 in the tests' assaults.
const NEGLIGIBLE: f64 = 1e-15;

/// The longest assault the exact solver takes on, in turns. Since routed
/// units rally and come back, assaults last longer and the chain's live
/// states spread over positions, table edges and both units' staggers and
/// kills: the default assault's live states level off near 85 k a turn from
/// the tenth (91 k distinct turn starts in 20 turns, 676 k distinct states
/// within turns). What keeps them apart is play and outcome, not waste:
/// forgetting the kills would merge them 4 to 1, the formations or routing
/// 1.3 to 1.6 to 1, but forgetting `engaged` (an outcome metric, read by no
/// roll) only 1.03 to 1, and the positions take just 126 combinations of
/// distance and bands behind (the bands behind the attacker follow from the
/// distance and the bands behind the defender), so capping the bands merges
/// next to nothing. Each state's steps are therefore worked out once and
/// replayed in later turns (see the solver's `Known`): at a load of about 6 on this
/// two-core machine the default assault's 20 turns take 4.9 to 5.2 s of CPU
/// and 260 MB (10.5 s and 34 MB before), and its 30 turns 6.6 to 7.5 s and
/// 255 MB, over the 2 s budget: longer assaults are sampled, and the
/// default 30 turns are the decision model's to solve (issue 14, part B).
pub const EXACT_TURN_LIMIT: u32 = 20;

/// States the exact solver expands in one task before it merges their
/// successors (see [`Scenario::exact`]).
const EXPAND_BLOCK: usize = 128;

/// States the exact solver expands at once, in blocks, while the batch
/// before merges: a batch of engagements holds about 120 successors a state.
const EXPAND_BATCH: usize = 8 * EXPAND_BLOCK;

/// The rank of states that finished their turn.
const NEXT_TURN: u32 = u32::MAX;

/// The mark of an ending among a state's steps (its code in the first word).
const ENDED: u32 = u32::MAX - 1;

/// Each state the exact solver expanded, with its steps: the rank of each
/// successor (or [`ENDED`]), the successor and its chance. The assault's
/// turns repeat the same states (the default assault's 20 turns start from
/// 91 k distinct states in all, 85 k of them in each turn after the tenth),
/// so a state is worked out once and its steps replayed in later turns.
type Known = HashMap<Packed, Steps, BuildHasherDefault<StateHasher>>;

/// A state's steps (see [`Known`]).
type Steps = Box<[(u32, Packed, f64)]>;

type Map<K> = HashMap<K, f64, BuildHasherDefault<StateHasher>>;

/// The successors of a block of states before they merge: live states with
/// their rank ([`Assault::progress`], or `NEXT_TURN`), and the endings.
#[derive(Default)]
struct Successors {
    live: Vec<(u32, Packed, f64)>,
    ended: Vec<(u64, f64)>,
    /// The steps of the states expanded for the first time.
    learned: Vec<(Packed, Steps)>,
}

impl Successors {
    fn clear(&mut self) {
        self.live.clear();
        self.ended.clear();
        self.learned.clear();
    }

    fn is_empty(&self) -> bool {
        self.live.is_empty() && self.ended.is_empty()
    }

    /// Adds the block's successors to the maps, in order.
    fn merge_into(&self, pending: &mut BTreeMap<u32, Map<Packed>>, current: &mut Map<Packed>, ended: &mut Map<u64>) {
        // Each successor looked up once before any is merged: the lookups
        // are independent, so their cache misses overlap, and the merges
        // that follow find their entries in cache (the maps are far larger
        // than it).
        let mut seen = 0usize;
        for &(later, packed, _) in &self.live {
            let map = if later == NEXT_TURN { Some(&*current) } else { pending.get(&later) };
            seen += usize::from(map.is_some_and(|map| map.contains_key(&packed)));
        }
        seen += self.ended.iter().filter(|(code, _)| ended.contains_key(code)).count();
        std::hint::black_box(seen);
        for &(code, mass) in &self.ended {
            *ended.entry(code).or_insert(0.0) += mass;
        }
        for &(later, packed, mass) in &self.live {
            let map = if later == NEXT_TURN { &mut *current } else { pending.entry(later).or_default() };
            *map.entry(packed).or_insert(0.0) += mass;
        }
    }
}

/// The longest chain of Huzzah!es in one threat exchange.
const CHAIN_LIMIT: u8 = 8;

/// What one side took in an engagement, as far as the state after it goes:
/// its losses, whether its officer fell, what became of it, and whether it
/// is blown (see [`Assault::taken_of_rolls`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Taken {
    staggers: i8,
    kills: i8,
    officer_killed: bool,
    fate: Fate,
    blown: bool,
}

/// Where an assault stands, between two rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    phase: u8,
    /// Bands between the units; 0 is contact.
    distance: i8,
    /// Attacker's staggers and kills, defender's staggers and kills.
    strength: [i8; 4],
    formation: [Formation; 2],
    /// Bombardments the battery has left.
    bombardments: u8,
    /// Smoke markers on the battery.
    smoke: u8,
    /// Each side's cavalry is blown.
    blown: [bool; 2],
    /// Each side's attached officer is still alive.
    officer: [bool; 2],
    /// An engagement has taken place.
    engaged: bool,
    /// Within a threat test: who tests now, and how many Huzzah!es so far.
    tester: u8,
    huzzahs: u8,
    /// A forced order is pending for each side.
    forced: [bool; 2],
    /// Orders given to the attacker this turn.
    orders: u8,
    /// A Huzzah! order earned a free order.
    free_order: bool,
    /// The attacker's engagement roll, while the defender's is awaited.
    engage_pair: u8,
    /// Each side is routing (a mob).
    routing: [bool; 2],
    /// Bands between each unit and its table edge.
    behind: [i8; 2],
    /// Each side's cavalry lost control: a mob until it rallies.
    out_of_control: [bool; 2],
    /// Recalls and command checks, which most assaults never use (see [`Rare`]).
    rare: Rare,
    /// The battery may bombard the attacker now: it has not bombarded it
    /// since the attacker last acted on an order this turn.
    fire_ready: bool,
}

crate::choice_enum! {
    /// Which side's skirmishers have superiority ("Skirmisher superiority")
    /// through the assault: its infantry's threat zone is 1 band deeper
    /// against enemy infantry and artillery.
    pub enum Superiority {
        /// Neither side's (a draw, or both failed): the basic zones (default).
        None = "none",
        /// The attacker's side won it.
        Attacker = "attacker",
        /// The defender's side won it.
        Defender = "defender",
    }
}

crate::choice_enum! {
    /// A brigade's last command check ("Command integrity check": "Down 1 if
    /// failed last command check", "Up 1 if passed last command check").
    pub enum LastCheck {
        /// No check taken yet.
        None = "none",
        /// Passed.
        Passed = "passed",
        /// Failed.
        Failed = "failed",
    }
}

/// The parts of a [`State`] that most assaults never set, in one word of
/// bits, so that the state stays small to copy and quick to pack: for each
/// side (side 1 shifted by 5 bits) a recall pending (bit 0: blown cavalry
/// that failed to rally awaits a forced order of recall in its next Orders
/// phase, "Forced orders", Recall), its brigade's last command check (bits
/// 1-2, a [`LastCheck`]), a Huzzah! on that check (bit 3: no check "until
/// another of its sub-commands breaks or routs") and a check due (bit 4:
/// the unit routed since its side's last Rally phase, "Any of its
/// sub-commands broke or routed this turn"). Bit 15 is left for packing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Rare(u16);

impl Rare {
    fn bit(self, side: usize, bit: u32) -> bool {
        (self.0 >> (5 * side as u32 + bit)) & 1 == 1
    }

    fn set_bit(&mut self, side: usize, bit: u32, on: bool) {
        let mask = 1 << (5 * side as u32 + bit);
        self.0 = if on { self.0 | mask } else { self.0 & !mask };
    }

    fn recall(self, side: usize) -> bool {
        self.bit(side, 0)
    }

    fn set_recall(&mut self, side: usize, on: bool) {
        self.set_bit(side, 0, on);
    }

    fn last_check(self, side: usize) -> LastCheck {
        match (self.0 >> (5 * side as u32 + 1)) & 3 {
            0 => LastCheck::None,
            1 => LastCheck::Passed,
            _ => LastCheck::Failed,
        }
    }

    fn set_last_check(&mut self, side: usize, last: LastCheck) {
        let shift = 5 * side as u32 + 1;
        self.0 = (self.0 & !(3 << shift)) | ((last as u16) << shift);
    }

    fn exempt(self, side: usize) -> bool {
        self.bit(side, 3)
    }

    fn set_exempt(&mut self, side: usize, on: bool) {
        self.set_bit(side, 3, on);
    }

    fn due(self, side: usize) -> bool {
        self.bit(side, 4)
    }

    fn set_due(&mut self, side: usize, on: bool) {
        self.set_bit(side, 4, on);
    }
}

/// A [`State`] packed into two words, the exact solver's map key: a key
/// compares in one step and an entry of its maps takes 24 bytes, not 40 (the
/// solver is bound by its maps' memory). See [`State::pack`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Packed(u64, u64);

impl std::hash::Hash for Packed {
    fn hash<H: std::hash::Hasher>(&self, hasher: &mut H) {
        hasher.write_u64(self.0);
        hasher.write_u64(self.1);
    }
}

impl State {
    /// The state in two words. The first: phase (its low 4 bits, the fifth at bit 30), Huzzah!es (4),
    /// tester (1), the nine flags, both formations (2 each), the engagement
    /// pair (6), the attacker out of control and ready to fire (1 each), then distance, smoke, orders and bombardments a byte each.
    /// The second: the four strengths and the two bands behind, a byte each
    /// (signed bytes as their bits), a byte of the defender's blown and out
    /// of control and each side's recall (a bit each), and a byte of each
    /// side's command checks (last check 2 bits, exempt and due 1 each).
    #[inline(always)]
    fn pack(&self) -> Packed {
        debug_assert!(self.phase < 32 && self.huzzahs < 16 && self.tester < 2 && self.engage_pair < 64);
        let flags = [
            self.blown[0],
            self.officer[0],
            self.officer[1],
            self.engaged,
            self.forced[0],
            self.forced[1],
            self.free_order,
            self.routing[0],
            self.routing[1],
        ]
        .iter()
        .enumerate()
        .fold(0u64, |acc, (i, &bit)| acc | (u64::from(bit) << i));
        let first = u64::from(self.phase & 15)
            | u64::from(self.phase >> 4) << 30
            | u64::from(self.blown[1]) << 31
            | u64::from(self.huzzahs) << 4
            | u64::from(self.tester) << 8
            | flags << 9
            | (self.formation[0] as u64) << 18
            | (self.formation[1] as u64) << 20
            | u64::from(self.engage_pair) << 22
            | u64::from(self.out_of_control[0]) << 28
            | u64::from(self.fire_ready) << 29
            | u64::from(self.distance as u8) << 32
            | u64::from(self.smoke) << 40
            | u64::from(self.orders) << 48
            | u64::from(self.bombardments) << 56;
        let [a, b, c, d] = self.strength.map(|v| v as u8);
        let [rare_low, rare_high] = (self.rare.0 | u16::from(self.out_of_control[1]) << 15).to_le_bytes();
        let second = u64::from_le_bytes([a, b, c, d, self.behind[0] as u8, self.behind[1] as u8, rare_low, rare_high]);
        let packed = Packed(first, second);
        debug_assert_eq!(State::unpack(packed), *self, "a state must survive packing");
        packed
    }

    /// The state [`State::pack`] packed.
    #[inline(always)]
    fn unpack(packed: Packed) -> State {
        let Packed(first, second) = packed;
        let bits = |shift: u32, width: u32| ((first >> shift) & ((1 << width) - 1)) as u8;
        let flag = |i: u32| (first >> (9 + i)) & 1 == 1;
        let formation = |code: u8| match code {
            0 => Formation::Line,
            1 => Formation::Column,
            _ => Formation::Square,
        };
        let [a, b, c, d, behind_0, behind_1, rare_low, rare_high] = second.to_le_bytes();
        let rare = u16::from_le_bytes([rare_low, rare_high]);
        State {
            phase: bits(0, 4) | (bits(30, 1) << 4),
            distance: bits(32, 8) as i8,
            strength: [a, b, c, d].map(|v| v as i8),
            formation: [formation(bits(18, 2)), formation(bits(20, 2))],
            bombardments: bits(56, 8),
            smoke: bits(40, 8),
            blown: [flag(0), (first >> 31) & 1 == 1],
            officer: [flag(1), flag(2)],
            engaged: flag(3),
            tester: bits(8, 1),
            huzzahs: bits(4, 4),
            forced: [flag(4), flag(5)],
            orders: bits(48, 8),
            free_order: flag(6),
            engage_pair: bits(22, 6),
            routing: [flag(7), flag(8)],
            behind: [behind_0 as i8, behind_1 as i8],
            out_of_control: [(first >> 28) & 1 == 1, rare >> 15 == 1],
            rare: Rare(rare & 0x7fff),
            fire_ready: (first >> 29) & 1 == 1,
        }
    }
}

/// A 2D6 pair index with this total (double one for 2): only the total
/// matters to the assault's rolls (a Huzzah! is a total of 2).
fn pair_of_total(total: i32) -> u32 {
    let first = (total - 6).max(1) as u32;
    6 * (first - 1) + (total as u32 - first - 1)
}

/// One assault.
#[derive(Clone, Debug)]
pub struct Assault {
    rules: Rules,
    units: [AssaultUnit; 2],
    guns: Guns,
    distance: i32,
    bombardments: i32,
    full: [i32; 2],
    turns: u32,
    fire: Fire,
    /// Bands each side's threat zone gains from skirmisher superiority.
    skirmish_bonus: [i32; 2],
    /// Each side's threat zone in each formation (line, column, square),
    /// skirmisher superiority included: [`Assault::zone`] is called at
    /// almost every step, so it looks the zone up.
    zones: [[i32; 3]; 2],
    layout: Layout,
}

impl Assault {
    /// An assault from `distance` bands (1-30) for at most `turns` turns,
    /// the battery (if the defender is one) with `bombardments` bombardments.
    pub fn new(
        rules: &Rules,
        attacker: AssaultUnit,
        defender: AssaultUnit,
        guns: Guns,
        bombardments: i32,
        distance: i32,
        turns: u32,
    ) -> Result<Self, ParamError> {
        if attacker.arm == Arm::Artillery {
            return Err(invalid(
                "attacker.arm",
                "the attacker is infantry or cavalry: artillery cannot advance to engage",
            ));
        }
        if attacker.formation == Formation::Square {
            return Err(invalid("attacker.formation", "a square cannot assault: use line or column"));
        }
        // "Deploying": "Cavalry can form line, column or march column".
        if defender.arm == Arm::Cavalry && defender.formation == Formation::Square {
            return Err(invalid("defender.formation", "cavalry forms line or column, not square"));
        }
        if defender.arm == Arm::Artillery && defender.formation != Formation::Line {
            return Err(invalid("defender.formation", "an unlimbered battery is in line"));
        }
        for (unit, prefix) in [(&attacker, "attacker"), (&defender, "defender")] {
            let full = rules.full_rating(unit.quality);
            if unit.staggers < 0 || unit.kills < 0 || unit.staggers + unit.kills >= full {
                return Err(invalid(format!("{prefix}.kills"), format!("staggers plus kills must stay below {full}")));
            }
            if !(-10..=10).contains(&unit.shifts) || !(6..=10).contains(&unit.rating) {
                return Err(invalid(format!("{prefix}.shifts"), "shifts -10 to 10, ratings 6 to 10"));
            }
            // "Command radius": "An individual unit attached to any officer is
            // always in command" (Up 1 to orders and rallies).
            if unit.officer != Officer::None && !unit.in_command {
                return Err(invalid(
                    format!("{prefix}.in_command"),
                    "a unit with an officer attached is always in command: in_command cannot be false",
                ));
            }
            if unit.routing && unit.arm == Arm::Artillery {
                return Err(invalid(format!("{prefix}.routing"), "a battery never routs: it breaks"));
            }
            // "Engage the enemy": battle and pursuit cavalry are kinds of cavalry.
            if unit.cavalry != CavalryKind::Regular && unit.arm != Arm::Cavalry {
                return Err(invalid(format!("{prefix}.cavalry"), "battle and pursuit apply to cavalry only"));
            }
            if !(0..=8).contains(&unit.brigade)
                || unit.brigade_lost < 0
                || (unit.brigade_lost > 0 && unit.brigade_lost >= unit.brigade)
            {
                return Err(invalid(
                    format!("{prefix}.brigade_lost"),
                    "a brigade of 0 to 8 units; the other units lost must be fewer than the brigade",
                ));
            }
            if unit.brigade == 0 && (unit.last_check != LastCheck::None || unit.brigade_isolated) {
                return Err(invalid(format!("{prefix}.brigade"), "brigade keys need a brigade (brigade 1 or more)"));
            }
            // "If the command check fails ... artillery limbers and retires one
            // move still limbered": a limbered battery is outside the assault.
            if unit.brigade > 0 && unit.arm == Arm::Artillery {
                return Err(invalid(
                    format!("{prefix}.brigade"),
                    "a battery's failed command check limbers it, which the assault does not model",
                ));
            }
            if !(0..=40).contains(&unit.edge) {
                return Err(invalid(format!("{prefix}.edge"), "the bands to the table edge must be 0 to 40"));
            }
        }
        if !(1..=30).contains(&distance) {
            return Err(invalid("distance", "the distance must be 1 to 30 bands"));
        }
        if !(0..=10).contains(&bombardments) {
            return Err(invalid("defender.bombardments", "bombardments must be 0 to 10"));
        }
        if !(1..=100).contains(&turns) {
            return Err(invalid("turns", "the turn limit must be 1 to 100"));
        }
        let mut metrics = duel_metrics(turns);
        metrics.push(Metric::boolean("engaged", "whether the units engaged at least once"));
        metrics.push(Metric::boolean("attacker_routing", "whether the attacker is a routing mob at the end"));
        metrics.push(Metric::boolean("defender_routing", "whether the defender is a routing mob at the end"));
        let full = [rules.full_rating(attacker.quality), rules.full_rating(defender.quality)];
        let mut assault = Assault {
            rules: rules.clone(),
            units: [attacker, defender],
            guns,
            distance,
            bombardments,
            full,
            turns,
            fire: Fire::Now,
            skirmish_bonus: [0; 2],
            zones: [[0; 3]; 2],
            layout: Layout::new(metrics),
        };
        assault.zones = assault.zone_table();
        Ok(assault)
    }

    /// Each side's threat zone in each formation (playsheet, Threat zones),
    /// with its skirmisher superiority bonus.
    fn zone_table(&self) -> [[i32; 3]; 2] {
        let r = &self.rules;
        std::array::from_fn(|side| {
            [Formation::Line, Formation::Column, Formation::Square].map(|formation| {
                match (self.units[side].arm, formation) {
                    (Arm::Infantry, Formation::Line) => r.threat_zone_infantry_line + self.skirmish_bonus[side],
                    (Arm::Infantry, Formation::Column) => r.threat_zone_infantry_column + self.skirmish_bonus[side],
                    (Arm::Infantry, Formation::Square) => r.threat_zone_infantry_square + self.skirmish_bonus[side],
                    (Arm::Cavalry, Formation::Column) => r.threat_zone_cavalry_column,
                    (Arm::Cavalry, _) => r.threat_zone_cavalry_line,
                    (Arm::Artillery, _) => match self.guns {
                        Guns::Light => r.threat_zone_light_artillery,
                        Guns::Medium => r.threat_zone_medium_artillery,
                        Guns::Heavy => r.threat_zone_heavy_artillery,
                    },
                }
            })
        })
    }

    /// The same assault with `superiority`'s side holding skirmisher
    /// superiority every turn (the `skirmish` key).
    pub fn with_superiority(mut self, superiority: Superiority) -> Self {
        // "Whichever side succeeds by the greatest amount wins the skirmisher
        // war: that side adds 5cm (1 band) to the threat zone of its infantry
        // units in open terrain against enemy infantry and artillery units";
        // it "has no effect on infantry threat zones against: Cavalry", and
        // "Units that do not have threat zones do not gain a threat zone"
        // (see [`Assault::zone`]). The assault is fought in the open.
        let winner = match superiority {
            Superiority::None => None,
            Superiority::Attacker => Some(0),
            Superiority::Defender => Some(1),
        };
        self.skirmish_bonus = std::array::from_fn(|side| {
            let gains = winner == Some(side)
                && self.units[side].arm == Arm::Infantry
                && self.units[1 - side].arm != Arm::Cavalry;
            if gains { self.rules.skirmish_threat_zone_bonus_bands } else { 0 }
        });
        self.zones = self.zone_table();
        self
    }

    /// The same assault with the battery firing under `fire`.
    pub fn with_fire(mut self, fire: Fire) -> Self {
        self.fire = fire;
        self
    }

    /// Whether the battery bombards the attacker at this point of its Orders
    /// phase: it has bombardments left, it has not fired since the attacker
    /// last acted on an order ("Once a battery has bombarded, it cannot
    /// bombard the same target again during the same turn unless that target
    /// acts on another order"), the attacker is within extreme range and not
    /// engaged (a move into contact is fired on at 1 band, "at any stage in
    /// its movement"), and the fire policy takes the shot at this range.
    fn fire_now(&self, s: &State, moving_into_contact: bool) -> bool {
        if s.bombardments == 0 || !s.fire_ready || (s.distance == 0 && !moving_into_contact) {
            return false;
        }
        match self.bombard_band(i32::from(s.distance).max(1)) {
            None => false,
            Some(band) => self.fire == Fire::Now || band == 0,
        }
    }

    fn start(&self) -> State {
        let (a, d) = (&self.units[0], &self.units[1]);
        State {
            phase: ATTACKER_THREAT,
            distance: self.distance as i8,
            strength: [a.staggers as i8, a.kills as i8, d.staggers as i8, d.kills as i8],
            formation: [a.formation, d.formation],
            bombardments: if d.arm == Arm::Artillery { self.bombardments as u8 } else { 0 },
            smoke: 0,
            blown: [false; 2],
            officer: [a.officer != Officer::None, d.officer != Officer::None],
            engaged: false,
            tester: 0,
            huzzahs: 0,
            forced: [false; 2],
            orders: 0,
            free_order: false,
            engage_pair: 0,
            routing: [a.routing, d.routing],
            behind: [a.edge as i8, d.edge as i8],
            out_of_control: [false; 2],
            rare: {
                let mut rare = Rare::default();
                rare.set_last_check(0, a.last_check);
                rare.set_last_check(1, d.last_check);
                rare
            },
            fire_ready: true,
        }
    }

    /// The outcome code at turn 1 (later turns add a stride): `winner` 0
    /// attacker, 1 defender, 2 none.
    fn code(&self, winner: i64, turn: u32, s: &State) -> u64 {
        let st = |i: usize| i32::from(s.strength[i]);
        self.layout.encode(&[
            winner,
            i64::from(turn),
            i64::from(st(0)),
            i64::from(st(1)),
            i64::from(st(2)),
            i64::from(st(3)),
            remaining_percent(self.full[0], st(0), st(1)),
            remaining_percent(self.full[1], st(2), st(3)),
            i64::from(s.engaged),
            i64::from(s.routing[0]),
            i64::from(s.routing[1]),
        ])
    }

    /// Whether `side` is in its favourable position: only at its starting
    /// place (its table edge as far behind it as at the start), so a unit
    /// driven off, or advancing off, its ground loses it.
    fn favourable(&self, s: &State, side: usize) -> bool {
        self.units[side].favourable && i32::from(s.behind[side]) == self.units[side].edge
    }

    /// Whether `side` is blown cavalry.
    fn blown(&self, s: &State, side: usize) -> bool {
        s.blown[side]
    }

    fn officer_of(&self, s: &State, side: usize) -> Officer {
        if s.officer[side] { self.units[side].officer } else { Officer::None }
    }

    /// The depth of a side's threat zone now, in bands (playsheet, Threat zones).
    fn zone(&self, s: &State, side: usize) -> i32 {
        // "Mob": "Mobs ... have no threat zone"; "Blown cavalry exerts no
        // threat zone" (only cavalry is ever blown).
        if s.routing[side] || s.blown[side] {
            return 0;
        }
        // Skirmisher superiority deepens infantry zones (see `zone_table`).
        self.zones[side][s.formation[side] as usize]
    }

    /// A side's move, in bands (playsheet, Movement).
    fn move_of(&self, s: &State, side: usize) -> i32 {
        let r = &self.rules;
        match (self.units[side].arm, s.formation[side]) {
            (Arm::Infantry, Formation::Line) => r.move_infantry_line,
            (Arm::Infantry, Formation::Column) => r.move_infantry_column,
            (Arm::Infantry, Formation::Square) => 1,
            (Arm::Cavalry, Formation::Column) => r.move_cavalry_column,
            (Arm::Cavalry, _) => r.move_cavalry_line,
            (Arm::Artillery, _) => 0,
        }
    }

    /// A routing side's move: "one move at march column rate" in mob
    /// formation ("Engage the enemy"; "Compulsory movement: Rout").
    fn rout_move(&self, side: usize) -> i32 {
        let r = &self.rules;
        match self.units[side].arm {
            Arm::Infantry => r.move_infantry_march_column,
            Arm::Cavalry => r.move_cavalry_march_column,
            Arm::Artillery => r.move_foot_guns_march_column,
        }
    }

    /// `side` moves `moved` bands back towards its table edge: the end (the
    /// unit is broken, the other side wins) if that takes it off the table.
    fn fall_back(&self, s: &mut State, side: usize, moved: i32) -> Option<Node<State>> {
        if self.rules.leaves_table(i32::from(s.behind[side]), moved) {
            return Some(Node::End(self.code(1 - side as i64, 1, s)));
        }
        s.behind[side] -= moved as i8;
        s.distance += moved as i8;
        None
    }

    /// Whether the attacker acts on orders: not while it routs, and it holds
    /// the ground it won while the defender routs (a blown cavalry's recall
    /// order is still given).
    fn may_order(&self, s: &State) -> bool {
        !s.routing[0] && (!s.routing[1] || s.rare.recall(0))
    }

    /// The formation a routing unit takes when it rallies ("Routing troops
    /// that rally immediately halt facing the enemy and assume whichever
    /// allowable formation they wish"): its starting formation, or square for
    /// infantry facing cavalry.
    fn rally_formation(&self, side: usize) -> Formation {
        let unit = &self.units[side];
        if unit.arm == Arm::Infantry && self.units[1 - side].arm == Arm::Cavalry {
            Formation::Square
        } else {
            unit.formation
        }
    }

    fn in_zone_of(&self, s: &State, side: usize) -> bool {
        i32::from(s.distance) <= self.zone(s, side)
    }

    fn broken(&self, s: &State, side: usize) -> bool {
        i32::from(s.strength[2 * side]) + i32::from(s.strength[2 * side + 1]) >= self.full[side]
    }

    /// The end when `side` has broken (the other wins), else the state.
    fn settle(&self, s: State, side: usize) -> Node<State> {
        if self.broken(&s, side) { Node::End(self.code(1 - side as i64, 1, &s)) } else { Node::Live(s) }
    }

    /// Whether `side` is disadvantaged when threatened: its own key, or a
    /// mob (playsheet, Threat tests: "Use disadvantaged rating ... if
    /// routing"; "Mob": mobs "use their disadvantaged morale rating if
    /// threatened or engaged"; a routing unit and cavalry out of control alike).
    fn threat_disadvantaged(&self, s: &State, side: usize) -> bool {
        self.units[side].disadvantaged || s.routing[side] || s.out_of_control[side]
    }

    /// The effective rating of `side` tested by the other ("Threat tests",
    /// Procedure); `bombarded` is the bombardment range band (0 short, 1
    /// long, 2 extreme) or `None` for an ordinary threat.
    fn threat_rating(&self, s: &State, side: usize, bombarded: Option<u8>) -> i32 {
        let r = &self.rules;
        let unit = &self.units[side];
        let enemy = &self.units[1 - side];
        let disadvantaged = self.threat_disadvantaged(s, side);
        let mut shifts = unit.shifts;
        if s.strength[2 * side] > 0 {
            shifts -= r.threat_staggers_down;
        }
        if s.strength[2 * side + 1] > 0 {
            shifts -= r.threat_kills_down;
        }
        // "Down 1 if unit is isolated."
        if self.isolated(side) {
            shifts -= r.threat_isolated_down;
        }
        // "Treat unlimbered artillery batteries as open order troops for
        // threats", and open order troops "threatened (not engaged!) only by
        // infantry or artillery while in open terrain" are in a favourable
        // position; "a single Up 1 regardless of the number" of reasons.
        let open_order_battery = unit.arm == Arm::Artillery && enemy.arm == Arm::Infantry;
        if (self.favourable(s, side) || open_order_battery) && !disadvantaged {
            shifts += r.threat_favourable_up;
        }
        shifts += match self.officer_of(s, side) {
            Officer::None => 0,
            Officer::Attached => r.threat_officer_up,
            Officer::Inspirational => r.threat_officer_up + r.threat_inspirational_up,
        };
        if enemy.arm == Arm::Artillery {
            let band = bombarded.unwrap_or(0);
            // "Down 1 if at short range"; "Up 1 if bombarded at extreme range".
            if band == 0 {
                shifts -= r.threat_short_range_down;
            } else if band == 2 {
                shifts += r.threat_extreme_range_up;
            }
            // "Up 1 if small unit bombarded at long or extreme range" (a
            // bombardment, not the battery's inherent short-range threat).
            if unit.small && band > 0 {
                shifts += r.threat_small_unit_long_range_up;
            }
            if s.formation[side] == Formation::Column {
                shifts -= r.threat_bombarded_in_column_down;
            }
            // "Up 1 if any smoke markers on threatening artillery."
            if s.smoke > 0 {
                shifts += r.threat_smoke_up;
            }
        }
        // "Up 2 if infantry in square threatened by cavalry."
        if s.formation[side] == Formation::Square && enemy.arm == Arm::Cavalry {
            shifts += r.threat_square_against_cavalry_up;
        }
        r.effective_rating(unit.quality, shifts, disadvantaged)
    }

    /// The range band of a bombardment at this distance, or `None` out of range.
    fn bombard_band(&self, distance: i32) -> Option<u8> {
        let r = &self.rules;
        let (long, extreme) = match self.guns {
            Guns::Light => (r.long_range_light_artillery, r.extreme_range_light_artillery),
            Guns::Medium => (r.long_range_medium_artillery, r.extreme_range_medium_artillery),
            Guns::Heavy => (r.long_range_heavy_artillery, r.extreme_range_heavy_artillery),
        };
        let short = match self.guns {
            Guns::Light => r.threat_zone_light_artillery,
            Guns::Medium => r.threat_zone_medium_artillery,
            Guns::Heavy => r.threat_zone_heavy_artillery,
        };
        if distance <= short {
            Some(0)
        } else if distance <= long {
            Some(1)
        } else if distance <= extreme {
            Some(2)
        } else {
            None
        }
    }

    /// Whether a phase consumes a roll in this state.
    fn wants_roll(&self, s: &State) -> bool {
        match s.phase {
            ATTACKER_THREAT => s.huzzahs > 0 || self.in_zone_of(s, 1),
            ATTACKER_FORCED => s.forced[0],
            ATTACKER_DEPLOY_THREAT => s.huzzahs > 0 || self.in_zone_of(s, 1),
            ATTACKER_ORDERS => {
                // Blown cavalry "cannot move until it reforms": it takes only
                // its recall order, and that only after failing to rally.
                !s.free_order
                    && s.distance > 0
                    && self.may_order(s)
                    && (!s.blown[0] || (s.rare.recall(0) && s.orders == 0))
                    && self.order_rating(s, !s.blown[0]).is_some()
            }
            BOMBARD | ENGAGE_DEFENDER_ROLL => true,
            LAST_BOMBARD => s.huzzahs > 0 || self.fire_now(s, false),
            ENGAGE_ATTACKER_ROLL | DEFENDER_ENGAGE_ROLL => s.distance == 0,
            DEFENDER_ENGAGE_SECOND => true,
            ATTACKER_CHECK => self.check_due(s, 0),
            DEFENDER_CHECK => self.check_due(s, 1),
            ATTACKER_REFORM => s.strength[0] > 0 || s.blown[0] || s.routing[0],
            DEFENDER_THREAT => s.huzzahs > 0 || self.in_zone_of(s, 0),
            DEFENDER_FORCED => s.forced[1] || (s.rare.recall(1) && !s.routing[1]),
            DEFENDER_DEPLOY_THREAT => s.huzzahs > 0 || self.in_zone_of(s, 0),
            DEFENDER_REFORM => s.strength[2] > 0 || s.routing[1] || s.blown[1],
            _ => false,
        }
    }

    /// The command rating of `side`'s first order of its Orders phase
    /// (a forced order, or the defender's own order to form square): its
    /// officer's rating, Up 1 in command, Up 1 with an officer attached,
    /// Down 1 in an enemy threat zone, Down 1 an isolated sub-command
    /// ("Orders and movement", Procedure).
    fn first_order_rating(&self, s: &State, side: usize) -> i32 {
        let r = &self.rules;
        let unit = &self.units[side];
        let mut rating = unit.rating;
        if unit.in_command {
            rating += r.order_in_command_up;
        }
        if self.officer_of(s, side) != Officer::None {
            rating += r.order_officer_attached_up;
        }
        if self.in_zone_of(s, 1 - side) {
            rating -= r.order_threat_zone_down;
        }
        // "Down 1 if isolated sub-command".
        if self.isolated(side) {
            rating -= r.order_isolated_down;
        }
        rating
    }

    /// The attacker's effective command rating for its next order (an
    /// advance if `advance`, else a deploy or a recall), or `None` when no
    /// order can be given ("Orders and movement", Procedure).
    fn order_rating(&self, s: &State, advance: bool) -> Option<i32> {
        let r = &self.rules;
        let unit = &self.units[0];
        let mut rating = unit.rating;
        if self.in_zone_of(s, 1) {
            rating -= r.order_threat_zone_down;
        }
        // "Down 2 if infantry ordered to advance on cavalry": "if it is within
        // the threat zone of enemy cavalry, if an enemy cavalry unit is within
        // the threat zone of the infantry, or if an enemy cavalry unit could
        // come into the threat zone of the infantry if it advances on obeying
        // this order (i.e. the cavalry is within the infantry's combined move
        // and threat distances)" ("Infantry ordered to advance on cavalry").
        if advance && unit.arm == Arm::Infantry && self.units[1].arm == Arm::Cavalry {
            let distance = i32::from(s.distance);
            if distance <= self.zone(s, 1) || distance <= self.zone(s, 0) + self.move_of(s, 0) {
                rating -= r.order_infantry_advancing_on_cavalry_down;
            }
        }
        rating -= r.order_successive_down * i32::from(s.orders);
        // "Down 1 if isolated sub-command" (the unit ordered alone in its
        // brigade); "Down 1 if failed last command integrity check and
        // ordered to advance" ("There is no penalty on other orders").
        if self.isolated(0) {
            rating -= r.order_isolated_down;
        }
        if advance && s.rare.last_check(0) == LastCheck::Failed {
            rating -= r.order_failed_check_advance_down;
        }
        if unit.in_command {
            rating += r.order_in_command_up;
        }
        match self.officer_of(s, 0) {
            Officer::None => {}
            Officer::Attached => rating += r.order_officer_attached_up,
            // "Up 1 if both the officer is inspirational and the order is to advance."
            Officer::Inspirational => {
                rating += r.order_officer_attached_up;
                if advance {
                    rating += r.order_inspirational_advance_up;
                }
            }
        }
        (rating > r.order_impossible_at).then_some(rating)
    }

    /// One threat test by `s.tester` with this roll, Huzzah! chain included;
    /// `bombarded` is set for the first test of a bombardment. Continues to `next`.
    fn threat_test(&self, mut s: State, pair: u32, bombarded: Option<u8>, next: u8) -> Node<State> {
        let side = usize::from(s.tester);
        let total = pair_total(pair);
        let other = 1 - side;
        // "Place a single smoke marker by all artillery units that threatened
        // the testing unit": after the test, which the new marker cannot help.
        let smoke_after = s.smoke.saturating_add(u8::from(self.units[other].arm == Arm::Artillery));
        if pair_is_huzzah(pair) {
            // Huzzah! results: an enemy unit threatening the tester that is in
            // the tester's threat zone tests in turn.
            let answers = self.rules.huzzah_threat_chain == HuzzahThreatChain::Chain || s.huzzahs == 0;
            if answers && s.huzzahs < CHAIN_LIMIT && self.in_zone_of(&s, side) && self.in_zone_of(&s, other) {
                s.smoke = smoke_after;
                s.huzzahs += 1;
                s.tester = other as u8;
                return Node::Live(s);
            }
        } else {
            let rating = self.threat_rating(&s, side, if s.huzzahs == 0 { bombarded } else { None });
            let staggers = threat_staggers(&self.rules, rating, total);
            if staggers > 0 || !self.rules.passes(total, rating) {
                s.strength[2 * side] += staggers as i8;
                // "Threat tests", Forced orders.
                let (me, enemy) = (&self.units[side], &self.units[other]);
                let column_against_line = me.arm == Arm::Infantry
                    && s.formation[side] == Formation::Column
                    && enemy.arm == Arm::Infantry
                    && s.formation[other] == Formation::Line;
                let open_against_cavalry =
                    me.arm == Arm::Infantry && s.formation[side] != Formation::Square && enemy.arm == Arm::Cavalry;
                // A mob takes no forced order: it cannot act on orders.
                if (column_against_line || open_against_cavalry) && !s.routing[side] {
                    s.forced[side] = true;
                }
                if self.broken(&s, side) {
                    return self.settle(s, side);
                }
            }
        }
        s.smoke = smoke_after;
        s.tester = 0;
        s.huzzahs = 0;
        s.phase = next;
        Node::Live(s)
    }

    /// The attacker moves one advance: the new distance (0 is contact).
    fn advance(&self, s: &State) -> i32 {
        let distance = i32::from(s.distance);
        let zone = self.zone(s, 1);
        let step = self.move_of(s, 0);
        // "Units must stop moving the instant they enter or touch the threat
        // zone of an enemy unit"; inside it they move on.
        let target = if distance > zone && zone > 0 { (distance - step).max(zone) } else { distance - step };
        // "A unit cannot advance to engage an enemy that is outside its threat
        // zone unless that enemy is within 5cm (1 band)."
        if target <= 0 {
            let may_engage = distance <= self.zone(s, 0) || distance <= self.rules.engage_outside_threat_zone_bands;
            if may_engage { 0 } else { 1 }
        } else {
            target
        }
    }

    /// The attacker moves up to `to` bands from the defender: its table edge
    /// falls behind it by as much.
    fn advance_to(s: &mut State, to: i32) {
        s.behind[0] += s.distance - to as i8;
        s.distance = to as i8;
    }

    /// After a move: bombard if the battery can, else carry on ordering.
    /// The attacker has acted on an advance order: it may be bombarded again.
    fn after_move(&self, mut s: State, moved_to: i32) -> Node<State> {
        Self::advance_to(&mut s, moved_to);
        s.fire_ready = true;
        if self.fire_now(&s, moved_to == 0) {
            s.phase = BOMBARD;
            s.tester = 0;
            s.huzzahs = 0;
        } else {
            s.phase = if moved_to == 0 { ENGAGE_ATTACKER_ROLL } else { ATTACKER_ORDERS };
        }
        Node::Live(s)
    }

    /// Cavalry out of control "advances one move in mob formation towards the
    /// nearest enemy unit" ("Forced orders", Recall): at its march column rate
    /// ("Mob": "Mobs use the movement rate for march column"), stopped on
    /// entering a threat zone ("The cavalry is stopped by threat zones"),
    /// and it may make contact from anywhere in that zone ("If it engages an
    /// enemy it fights using its disadvantaged morale rating"): the advance
    /// order's 1-band limit on engaging binds orders, and this is none.
    fn out_of_control_move(&self, s: &State, side: usize) -> i32 {
        let distance = i32::from(s.distance);
        let zone = self.zone(s, 1 - side);
        let step = self.rules.move_cavalry_march_column;
        let target = if distance > zone && zone > 0 { (distance - step).max(zone) } else { distance - step };
        target.max(0)
    }

    /// Blown cavalry whose recall failed loses control: a mob advancing one
    /// move (see [`Assault::out_of_control_move`]); the battery has its last
    /// chance to fire on it before any engagement.
    fn lose_control(&self, mut s: State) -> Node<State> {
        s.out_of_control[0] = true;
        let to = self.out_of_control_move(&s, 0);
        Self::advance_to(&mut s, to);
        s.phase = if self.fire_now(&s, to == 0) { BOMBARD } else { LAST_BOMBARD };
        Node::Live(s)
    }

    /// Defending cavalry whose recall failed loses control in its own
    /// Orders phase ("Forced orders", Recall): it advances one move as a
    /// mob towards the attacker (see [`Assault::out_of_control_move`]), its
    /// table edge falling behind it, and a move into contact is engaged in
    /// the defender's Engagement phase, with the defender the phasing unit.
    fn defender_loses_control(&self, mut s: State) -> Node<State> {
        s.out_of_control[1] = true;
        let to = self.out_of_control_move(&s, 1);
        s.behind[1] += s.distance - to as i8;
        s.distance = to as i8;
        s.phase = if to == 0 { DEFENDER_ENGAGE_ROLL } else { DEFENDER_CHECK };
        Node::Live(s)
    }

    /// Applies one step: the phase of `s` with `pair` if it wants a roll.
    fn step(&self, mut s: State, pair: Option<u32>) -> Node<State> {
        let r = &self.rules;
        match s.phase {
            ATTACKER_THREAT | DEFENDER_THREAT | ATTACKER_DEPLOY_THREAT | DEFENDER_DEPLOY_THREAT => {
                let side = usize::from(s.phase == DEFENDER_THREAT || s.phase == DEFENDER_DEPLOY_THREAT);
                let next = match s.phase {
                    ATTACKER_THREAT => ATTACKER_FORCED,
                    DEFENDER_THREAT => DEFENDER_FORCED,
                    ATTACKER_DEPLOY_THREAT => ATTACKER_ORDERS,
                    _ => DEFENDER_CHECK,
                };
                let deployed = s.phase == ATTACKER_DEPLOY_THREAT;
                let node = match pair {
                    None => {
                        s.phase = next;
                        Node::Live(s)
                    }
                    Some(pair) => {
                        if s.huzzahs == 0 {
                            s.tester = side as u8;
                        }
                        self.threat_test(s, pair, None, next)
                    }
                };
                // The attacker acted on its forced order: the battery may fire
                // on it (after the deploy and its threat test).
                match node {
                    Node::Live(mut t) if deployed && t.phase == ATTACKER_ORDERS && self.fire_now(&t, false) => {
                        t.phase = BOMBARD;
                        Node::Live(t)
                    }
                    node => node,
                }
            }
            BOMBARD | LAST_BOMBARD => {
                let Some(pair) = pair else {
                    // The battery holds its fire.
                    s.phase = ENGAGE_ATTACKER_ROLL;
                    return Node::Live(s);
                };
                if s.huzzahs == 0 {
                    // "Each time a battery threatens a target by bombardment, one
                    // smoke marker is placed"; one bombardment is used, and the
                    // battery cannot fire again until the target acts on an order.
                    s.bombardments -= 1;
                    s.fire_ready = false;
                    s.tester = 0;
                }
                let band = self.bombard_band(i32::from(s.distance).max(1));
                let next =
                    if s.distance == 0 || s.phase == LAST_BOMBARD { ENGAGE_ATTACKER_ROLL } else { ATTACKER_ORDERS };
                // The battery's own smoke marker comes from threat_test.
                self.threat_test(s, pair, band, next)
            }
            ATTACKER_FORCED | DEFENDER_FORCED => {
                let side = usize::from(s.phase == DEFENDER_FORCED);
                let next = if side == 0 { ATTACKER_ORDERS } else { DEFENDER_CHECK };
                s.phase = next;
                let Some(pair) = pair else { return Node::Live(s) };
                let recall = side == 1 && s.rare.recall(1) && !s.forced[1];
                s.forced[side] = false;
                let rating = self.first_order_rating(&s, side);
                if side == 0 {
                    s.orders = 1;
                }
                if recall {
                    // "Forced orders", Recall: obeyed, "the cavalry remains
                    // where it is" and is still blown; failed, "the cavalry
                    // loses control and advances one move in mob formation".
                    if rating > r.order_impossible_at && r.passes(pair_total(pair), rating) {
                        return Node::Live(s);
                    }
                    return self.defender_loses_control(s);
                }
                if rating > r.order_impossible_at && r.passes(pair_total(pair), rating) {
                    // Deploy: a column forms line; a line or column against
                    // cavalry forms square.
                    s.formation[side] =
                        if self.units[1 - side].arm == Arm::Cavalry { Formation::Square } else { Formation::Line };
                    if side == 0 && pair_is_huzzah(pair) {
                        s.free_order = true;
                    }
                    // "Deploying": "A unit that deploys within or into a threat
                    // zone must immediately take a threat test on completing the
                    // change of formation" (its deploy threat phase tests it when
                    // it is in the enemy's zone). The attacker has acted on an
                    // order: the battery may fire on it again.
                    s.phase = if side == 0 { ATTACKER_DEPLOY_THREAT } else { DEFENDER_DEPLOY_THREAT };
                    if side == 0 {
                        s.fire_ready = true;
                    }
                    Node::Live(s)
                } else {
                    // "The unit takes one stagger if the forced order fails", and
                    // the officer can give no further orders.
                    s.strength[2 * side] += r.forced_order_failure_staggers as i8;
                    if side == 0 {
                        s.phase = LAST_BOMBARD;
                    }
                    self.settle(s, side)
                }
            }
            ATTACKER_ORDERS => {
                if s.distance == 0 {
                    s.phase = ENGAGE_ATTACKER_ROLL;
                    return Node::Live(s);
                }
                if s.free_order && self.may_order(&s) {
                    // Huzzah! results: "automatically successfully issue another
                    // order"; then no other orders that turn.
                    s.free_order = false;
                    s.orders = u8::MAX / 2;
                    let to = self.advance(&s);
                    return self.after_move(s, to);
                }
                let Some(pair) = pair else {
                    // No (further) order. Blown cavalry whose recall order
                    // cannot be given loses control: "If no recall order is
                    // given ... then the recall order fails."
                    if s.rare.recall(0) && s.orders == 0 && self.may_order(&s) {
                        s.orders = 1;
                        return self.lose_control(s);
                    }
                    s.phase = LAST_BOMBARD;
                    return Node::Live(s);
                };
                let rating = self.order_rating(&s, !s.blown[0]).expect("rolled only when an order can be given");
                s.orders = s.orders.saturating_add(1);
                if s.blown[0] {
                    // A recall order: obeyed, the cavalry stays blown where it is
                    // (it has acted on an order: the battery may fire again);
                    // failed, it advances one move out of control.
                    if r.passes(pair_total(pair), rating) {
                        s.fire_ready = true;
                        s.phase = if self.fire_now(&s, false) { BOMBARD } else { LAST_BOMBARD };
                        return Node::Live(s);
                    }
                    return self.lose_control(s);
                }
                if !r.passes(pair_total(pair), rating) {
                    // "An officer who fails when issuing an order can give no further orders that turn."
                    s.phase = LAST_BOMBARD;
                    return Node::Live(s);
                }
                if pair_is_huzzah(pair) {
                    s.free_order = true;
                }
                let to = self.advance(&s);
                self.after_move(s, to)
            }
            ENGAGE_ATTACKER_ROLL => match pair {
                None => {
                    s.phase = ATTACKER_CHECK;
                    Node::Live(s)
                }
                Some(pair) => {
                    s.engage_pair = pair as u8;
                    s.phase = ENGAGE_DEFENDER_ROLL;
                    Node::Live(s)
                }
            },
            ENGAGE_DEFENDER_ROLL => self.engage(s, u32::from(s.engage_pair), pair.expect("the defender rolls")),
            DEFENDER_ENGAGE_ROLL => match pair {
                None => {
                    s.phase = DEFENDER_CHECK;
                    Node::Live(s)
                }
                Some(pair) => {
                    s.engage_pair = pair as u8;
                    s.phase = DEFENDER_ENGAGE_SECOND;
                    Node::Live(s)
                }
            },
            DEFENDER_ENGAGE_SECOND => self.engage(s, pair.expect("the attacker rolls"), u32::from(s.engage_pair)),
            ATTACKER_CHECK | DEFENDER_CHECK => {
                let side = usize::from(s.phase == DEFENDER_CHECK);
                s.phase = if side == 0 { ATTACKER_REFORM } else { DEFENDER_REFORM };
                s.rare.set_due(side, false);
                let Some(pair) = pair else { return Node::Live(s) };
                self.command_check(s, side, pair)
            }
            ATTACKER_REFORM | DEFENDER_REFORM => {
                let side = usize::from(s.phase == DEFENDER_REFORM);
                s.phase = if side == 0 { DEFENDER_THREAT } else { TURN_END };
                if side == 1 && self.units[1].arm == Arm::Artillery {
                    // "Remove smoke": one marker from each unlimbered battery.
                    s.smoke = s.smoke.saturating_sub(1);
                }
                let Some(pair) = pair else { return Node::Live(s) };
                // "Rally, reform and rout", Procedure: rally routing units,
                // compulsory movement of routing units, reform blown and
                // non-routing units, compulsory casualties; one roll each.
                let rating = self.rally_rating(&s, side);
                let total = pair_total(pair);
                let rallied = pair_is_huzzah(pair) || r.passes(total, rating);
                if s.routing[side] {
                    if rallied {
                        // "Routing troops that rally immediately halt facing
                        // the enemy and assume whichever allowable formation they wish."
                        s.routing[side] = false;
                        s.formation[side] = self.rally_formation(side);
                    } else if let Some(end) = self.fall_back(&mut s, side, self.rout_move(side)) {
                        // "Routing units that fail to rally immediately make one
                        // move towards their line of communication at march column speed."
                        return end;
                    }
                }
                if s.blown[side] {
                    if rallied {
                        // "Blown troops that rally immediately lose the blown
                        // status" (and cavalry out of control is under control again).
                        s.blown[side] = false;
                        s.out_of_control[side] = false;
                        s.rare.set_recall(side, false);
                    } else {
                        // "Blown troops that fail to rally remain blown ...
                        // They receive a forced order of recall."
                        s.rare.set_recall(side, true);
                    }
                }
                let staggers = i32::from(s.strength[2 * side]);
                let left = staggers_after_reform(r, rating, staggers, total, pair_is_huzzah(pair));
                s.strength[2 * side] = left as i8;
                // "Compulsory casualties."
                if left > 0 {
                    s.strength[2 * side + 1] += r.compulsory_casualty_kills as i8;
                }
                self.settle(s, side)
            }
            _ => Node::Live(s),
        }
    }

    /// Units of `side`'s brigade broken or routing now: the others lost and
    /// the unit itself if it routs.
    fn brigade_losses(&self, s: &State, side: usize) -> i32 {
        self.units[side].brigade_lost + i32::from(s.routing[side])
    }

    /// Whether `side`'s unit is isolated: "A unit is isolated if it is the
    /// only non-routing unit in a brigade" ("Threat tests"), and "A unit is
    /// also isolated if it is the only unit in a command" ("Orders and
    /// movement"): the brigade's other units are all lost.
    fn isolated(&self, side: usize) -> bool {
        let unit = &self.units[side];
        unit.brigade > 0 && unit.brigade - 1 - unit.brigade_lost == 0
    }

    /// Whether `side`'s brigade takes a command check in its Rally phase
    /// ("Command integrity check", Conditions): its unit routed since its
    /// last Rally phase; or it failed its last check (a check failed is
    /// checked again the next turn); or it has broken or routing units and
    /// its unit is within an enemy threat zone. A Huzzah! on the last check
    /// spares it "until another of its sub-commands breaks or routs".
    fn check_due(&self, s: &State, side: usize) -> bool {
        if self.units[side].brigade == 0 {
            return false;
        }
        s.rare.due(side)
            || (!s.rare.exempt(side)
                && (s.rare.last_check(side) == LastCheck::Failed
                    || (self.brigade_losses(s, side) > 0 && self.in_zone_of(s, 1 - side))))
    }

    /// The effective rating of `side`'s brigade officer (its `rating`) on a
    /// command check ("Command integrity check", Procedure).
    fn check_rating(&self, s: &State, side: usize) -> i32 {
        let r = &self.rules;
        let unit = &self.units[side];
        let losses = self.brigade_losses(s, side);
        let mut rating = unit.rating - losses * r.command_check_broken_down;
        rating += match s.rare.last_check(side) {
            LastCheck::Failed => -r.command_check_failed_last_down,
            LastCheck::Passed => r.command_check_passed_last_up,
            LastCheck::None => 0,
        };
        // "Down 2 if isolated sub-command" (`command_check_isolated`).
        let isolated = match r.command_check_isolated {
            // One unit of the brigade left neither broken nor routing, or a
            // lone unit ("A sub-command is isolated if it is the only
            // sub-command in a group that is not entirely broken or routing. A
            // unit is also isolated if it is the only unit in a command").
            CommandCheckIsolated::SubCommand => unit.brigade == 1 || unit.brigade - losses == 1,
            CommandCheckIsolated::Command => unit.brigade_isolated,
        };
        if isolated {
            rating -= r.command_check_isolated_down;
        }
        // "Up 1 for each sub-command in a favourable position": its unit, on
        // its ground and neither disadvantaged nor routing.
        if self.favourable(s, side) && !self.threat_disadvantaged(s, side) {
            rating += r.command_check_favourable_up;
        }
        rating
    }

    /// `side`'s brigade takes its command check with this roll. Passed, it
    /// is marked so (a Huzzah! spares it further checks until its unit
    /// routs again). Failed ("If the command check fails, every unit in the
    /// command takes a number of staggers equal to the number of broken or
    /// routing sub-commands in that command. In addition, all non-routing
    /// units in the command must retire one full move facing the enemy ...
    /// Units do not stop at enemy threat zones. Any units forced to leave
    /// the table are broken"): the unit takes the staggers and, if not
    /// routing, retires a move; and it is Down 1 on its next check and on
    /// advance orders.
    fn command_check(&self, mut s: State, side: usize, pair: u32) -> Node<State> {
        let r = &self.rules;
        let rating = self.check_rating(&s, side);
        let huzzah = pair_is_huzzah(pair);
        // Huzzah! results assume the command passed (`command_check_huzzah`).
        let passed =
            (huzzah && r.command_check_huzzah == CommandCheckHuzzah::Passes) || r.passes(pair_total(pair), rating);
        if passed {
            s.rare.set_last_check(side, LastCheck::Passed);
            s.rare.set_exempt(side, huzzah);
            return Node::Live(s);
        }
        s.rare.set_last_check(side, LastCheck::Failed);
        s.strength[2 * side] += (self.brigade_losses(&s, side) * r.command_check_failure_staggers) as i8;
        if !s.routing[side] {
            let moved = self.move_of(&s, side).max(1);
            if let Some(end) = self.fall_back(&mut s, side, moved) {
                return end;
            }
        }
        self.settle(s, side)
    }

    /// The effective rating of `side` rallying or reforming ("Rally and
    /// reform", Procedure).
    fn rally_rating(&self, s: &State, side: usize) -> i32 {
        let r = &self.rules;
        let unit = &self.units[side];
        let mut shifts = 0;
        if s.strength[2 * side + 1] > 0 {
            shifts -= r.rally_kills_down;
        }
        if s.routing[side] {
            shifts -= r.rally_routing_down;
        }
        // "Down 1 if blown battle cavalry."
        if self.blown(s, side) && unit.cavalry == CavalryKind::Battle {
            shifts -= r.rally_blown_battle_cavalry_down;
        }
        if self.in_zone_of(s, 1 - side) {
            shifts -= r.rally_threat_zone_down;
        }
        if unit.in_command {
            shifts += r.rally_in_command_up;
        }
        // "Favourable position": "Only troops that are not disadvantaged can
        // be in a favourable position": a disadvantaged unit, or a mob
        // (playsheet: "Use disadvantaged rating ... if routing"), takes no Up
        // for its ground, though it rallies on its full rating.
        if self.favourable(s, side) && !self.threat_disadvantaged(s, side) {
            shifts += r.rally_favourable_up;
        }
        shifts += match self.officer_of(s, side) {
            Officer::None => 0,
            Officer::Attached => r.rally_officer_up,
            Officer::Inspirational => r.rally_officer_up + r.rally_inspirational_up,
        };
        // "Rallying or reforming always uses the full, not disadvantaged, quality rating."
        r.effective_rating(unit.quality, shifts, false)
    }

    /// The two sides as they engage, and their effective engagement ratings
    /// (which the dice do not change).
    pub(super) fn fighters(&self, s: &State) -> ([Fighter; 2], [i32; 2]) {
        let fighter = |side: usize| {
            let unit = &self.units[side];
            Fighter {
                quality: unit.quality,
                shifts: unit.shifts,
                // "If engaged while blown, cavalry fights with its disadvantaged
                // rating"; mobs "use their disadvantaged morale rating if ... engaged".
                disadvantaged: unit.disadvantaged || s.blown[side] || s.routing[side],
                staggers: i32::from(s.strength[2 * side]),
                kills: i32::from(s.strength[2 * side + 1]),
                arm: unit.arm,
                square: s.formation[side] == Formation::Square,
                officer: self.officer_of(s, side),
                favourable: self.favourable(s, side),
                cavalry: unit.cavalry,
                small: unit.small,
            }
        };
        let (a, d) = (fighter(0), fighter(1));
        let rating = [engagement_rating(&self.rules, &a, &d), engagement_rating(&self.rules, &d, &a)];
        ([a, d], rating)
    }

    /// What each side takes from both rolls of an engagement from its
    /// first roll's phase (`ENGAGE_ATTACKER_ROLL`, or `DEFENDER_ENGAGE_ROLL`
    /// for the defender's own): the phasing side's roll `first`, then the
    /// other's `second`, with the sides worked out once
    /// ([`Assault::fighters`]) for every pair of rolls. It is all that the
    /// state after the engagement depends on, so that the many pairs of
    /// rolls that lead to the same losses and fates are applied to the
    /// state once ([`Assault::engage_taken`]); the two together are the
    /// phase's two steps.
    pub(super) fn taken_of_rolls(
        &self,
        s: &State,
        fighters: &[Fighter; 2],
        rating: [i32; 2],
        first: u32,
        second: u32,
    ) -> [Taken; 2] {
        debug_assert!(s.distance == 0 && (s.phase == ENGAGE_ATTACKER_ROLL || s.phase == DEFENDER_ENGAGE_ROLL));
        let pair = if s.phase == ENGAGE_ATTACKER_ROLL { [first, second] } else { [second, first] };
        self.taken_of(s, fighters, rating, pair)
    }

    /// The state after an engagement from its first roll's phase in which
    /// each side took `taken` ([`Assault::taken_of_rolls`]).
    pub(super) fn engage_taken(&self, mut s: State, taken: [Taken; 2]) -> Node<State> {
        s.phase = if s.phase == ENGAGE_ATTACKER_ROLL { ENGAGE_DEFENDER_ROLL } else { DEFENDER_ENGAGE_SECOND };
        self.apply_taken(s, taken)
    }

    /// The engagement on contact ("Engage the enemy").
    fn engage(&self, s: State, attacker_pair: u32, defender_pair: u32) -> Node<State> {
        let (fighters, rating) = self.fighters(&s);
        self.engage_with(s, &fighters, rating, [attacker_pair, defender_pair])
    }

    /// [`Assault::engage`] with the sides and their ratings worked out (the
    /// exact solver works them out once for all 1296 pairs of rolls). The
    /// sides, ratings and rolls are the attacker's first; the phasing unit
    /// (the rules' attacker: "the phasing player's units are assumed to be
    /// attacking", "Doctrinal deployment") is the attacker in the attacker's
    /// Engagement phase and the defender in its own.
    fn engage_with(&self, s: State, fighters: &[Fighter; 2], rating: [i32; 2], pair: [u32; 2]) -> Node<State> {
        self.apply_taken(s, self.taken_of(&s, fighters, rating, pair))
    }

    /// What each side (attacker first) takes in the engagement of
    /// [`Assault::engage_with`].
    fn taken_of(&self, s: &State, fighters: &[Fighter; 2], rating: [i32; 2], pair: [u32; 2]) -> [Taken; 2] {
        let phasing = usize::from(s.phase >= DEFENDER_ENGAGE_ROLL);
        let (p, q) = (phasing, 1 - phasing);
        let result =
            resolve_with_ratings(&self.rules, [&fighters[p], &fighters[q]], [rating[p], rating[q]], [pair[p], pair[q]]);
        let taken = |side: usize| {
            let result = if side == phasing { result.attacker } else { result.defender };
            Taken {
                staggers: result.staggers as i8,
                kills: result.kills as i8,
                officer_killed: result.officer_killed,
                fate: result.fate,
                blown: result.blown,
            }
        };
        [taken(0), taken(1)]
    }

    /// The state after an engagement in which each side took `taken`
    /// (its phase that of the engagement's last roll).
    fn apply_taken(&self, mut s: State, taken: [Taken; 2]) -> Node<State> {
        let phasing = usize::from(s.phase >= DEFENDER_ENGAGE_ROLL);
        s.engaged = true;
        for (side, taken) in taken.iter().enumerate() {
            s.strength[2 * side] += taken.staggers;
            s.strength[2 * side + 1] += taken.kills;
            if taken.officer_killed {
                s.officer[side] = false;
            }
        }
        let winner = match (taken[0].fate == Fate::Broken, taken[1].fate == Fate::Broken) {
            (true, true) => Some(2),
            (true, false) => Some(1),
            (false, true) => Some(0),
            (false, false) => None,
        };
        if let Some(winner) = winner {
            return Node::End(self.code(winner, 1, &s));
        }
        s.engage_pair = 0;
        s.phase = if phasing == 0 { ATTACKER_CHECK } else { DEFENDER_CHECK };
        // The loser routs ("forms a mob and then makes one move at march
        // column rate directly away from the enemy"); on a tie the phasing
        // unit, and a Huzzah! loser, retires one move. The side that holds
        // stays where it is: a unit that routed its enemy occupies its ground.
        for (side, taken) in taken.iter().enumerate() {
            // "Cavalry that does not rout after an engagement is blown"; a
            // recall already pending stays for its Orders phase.
            s.blown[side] = taken.blown;
            let moved = match taken.fate {
                Fate::Routs => {
                    s.routing[side] = true;
                    // A routing mob now, no longer one out of control, and
                    // no longer blown or recalled.
                    s.out_of_control[side] = false;
                    s.rare.set_recall(side, false);
                    // "A command must take a command check if: Any of its
                    // sub-commands broke or routed this turn", a Huzzah!'s
                    // exemption included ("until another of its sub-commands
                    // breaks or routs").
                    if self.units[side].brigade > 0 {
                        s.rare.set_due(side, true);
                        s.rare.set_exempt(side, false);
                    }
                    // A mob acts on no orders, forced ones included.
                    s.forced[side] = false;
                    self.rout_move(side)
                }
                Fate::Retires => self.move_of(&s, side).max(1),
                Fate::Holds | Fate::Broken => continue,
            };
            if let Some(end) = self.fall_back(&mut s, side, moved) {
                return end;
            }
        }
        Node::Live(s)
    }

    /// Runs a state to the end of its turn with dice.
    fn sample_turn(&self, mut s: State, dice: &mut Dice) -> Node<State> {
        while s.phase != TURN_END {
            let pair = if self.wants_roll(&s) { Some(dice.two_d6_index()) } else { None };
            match self.step(s, pair) {
                Node::Live(next) => s = next,
                end => return end,
            }
        }
        Node::Live(s)
    }

    /// A new turn's state.
    fn new_turn(mut s: State) -> State {
        s.phase = ATTACKER_THREAT;
        s.orders = 0;
        s.free_order = false;
        // "Artillery bombards only during the opponent's Orders phase": once
        // in each, whatever the target does.
        s.fire_ready = true;
        // A forced order from a test in the other player's turn waits for
        // the unit's next orders phase, so `forced` carries over.
        s
    }

    /// One step of the exact solver: every roll the state's phase may take,
    /// with its chance (a state at the end of its turn waits), into
    /// `branches` (cleared first: the solver reuses one buffer).
    fn expand(&self, st: State, branches: &mut Vec<(Node<State>, f64)>) {
        branches.clear();
        // Any pair with a total does: only the total and whether it is double
        // one matter.
        if !self.wants_roll(&st) {
            branches.push((self.quiet_steps(self.step(st, None)), 1.0));
        } else if st.phase == ENGAGE_ATTACKER_ROLL || st.phase == DEFENDER_ENGAGE_ROLL {
            // Both engagement rolls at once.
            let (fighters, rating) = self.fighters(&st);
            for &(attacker_total, attacker_ways) in &TOTALS {
                for &(defender_total, defender_ways) in &TOTALS {
                    let pair = [pair_of_total(attacker_total), pair_of_total(defender_total)];
                    let node = self.engage_with(st, &fighters, rating, pair);
                    branches.push((self.quiet_steps(node), f64::from(attacker_ways * defender_ways) / 1296.0));
                }
            }
        } else {
            // Totals that lead to the same state (every pass of a threat
            // test, say) are merged here, among eleven, rather than in the
            // solver's large map.
            for &(total, ways) in &TOTALS {
                let node = self.quiet_steps(self.step(st, Some(pair_of_total(total))));
                let q = f64::from(ways) / 36.0;
                match branches.iter_mut().find(|(seen, _)| *seen == node) {
                    Some((_, p)) => *p += q,
                    None => branches.push((node, q)),
                }
            }
        }
    }

    /// Runs the steps that take no roll, as [`Assault::sample_turn`] does,
    /// up to the next roll or the end of the turn: the solver then merges
    /// states only where they wait for dice.
    fn quiet_steps(&self, node: Node<State>) -> Node<State> {
        self.steps_until(node, |s| self.wants_roll(s))
    }

    /// Runs the steps up to one where `waits` (or the end of the turn),
    /// forgetting on the way what matters only in the Orders phase.
    fn steps_until(&self, mut node: Node<State>, waits: impl Fn(&State) -> bool) -> Node<State> {
        while let Node::Live(s) = &mut node {
            if s.phase >= ENGAGE_ATTACKER_ROLL {
                // The count of orders and a pending free order matter only
                // in the orders phase (the next turn starts them afresh):
                // forgetting them after it lets the solver merge states
                // that differ in nothing else.
                s.orders = 0;
                s.free_order = false;
                s.fire_ready = true;
            }
            if s.phase == TURN_END || waits(s) {
                break;
            }
            node = self.step(*s, None);
        }
        node
    }

    /// How far into its turn a state is: every step of [`Assault::step`]
    /// raises it (the orders phase and its bombardments by the count of
    /// orders, a threat test by the length of its Huzzah! chain).
    fn progress(s: &State) -> u32 {
        let huzzahs = u32::from(s.huzzahs);
        match s.phase {
            ATTACKER_ORDERS | BOMBARD => {
                (u32::from(ATTACKER_ORDERS) << 16)
                    | (u32::from(s.orders) << 8)
                    | (u32::from(s.phase == ATTACKER_ORDERS) << 4)
                    | huzzahs
            }
            phase => (u32::from(phase) << 16) | huzzahs,
        }
    }

    /// Expands a block of states of rank `rank` (of chance at least
    /// NEGLIGIBLE) with their chances, into `successors` (empty): from
    /// `known` when a state was expanded before, else worked out, and then
    /// kept in `successors.learned` for `known`.
    fn expand_block(&self, rank: u32, states: &[(Packed, f64)], known: &Known, successors: &mut Successors) {
        let mut branches = Vec::with_capacity(TOTALS.len() * TOTALS.len());
        let mut steps: Vec<(u32, Packed, f64)> = Vec::with_capacity(TOTALS.len() * TOTALS.len());
        for &(packed, p) in states {
            let learned = known.get(&packed);
            if learned.is_none() {
                steps.clear();
                self.expand(State::unpack(packed), &mut branches);
                for &(node, q) in &branches {
                    steps.push(match node {
                        Node::End(code) => (ENDED, Packed(code, 0), q),
                        Node::Live(s) if s.phase == TURN_END => (NEXT_TURN, Self::new_turn(s).pack(), q),
                        Node::Live(s) => {
                            let later = Self::progress(&s);
                            debug_assert!(later > rank, "a step must lead to a later phase");
                            (later, s.pack(), q)
                        }
                    });
                }
            }
            let steps = learned.map_or(&steps[..], |learned| &learned[..]);
            for &(later, next, q) in steps {
                if later == ENDED {
                    successors.ended.push((next.0, p * q));
                } else {
                    successors.live.push((later, next, p * q));
                }
            }
            if learned.is_none() {
                successors.learned.push((packed, steps.into()));
            }
        }
    }

    fn turn_stride(&self) -> u64 {
        let s = self.start();
        self.code(0, 2.min(self.turns), &s) - self.code(0, 1, &s)
    }
}

impl Scenario for Assault {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let stride = self.turn_stride();
        let mut s = self.start();
        for turn in 1..=self.turns {
            match self.sample_turn(s, dice) {
                Node::End(code) => return code + u64::from(turn - 1) * stride,
                Node::Live(next) => s = Self::new_turn(next),
            }
        }
        self.code(2, self.turns, &s)
    }

    fn has_exact(&self) -> bool {
        self.turns <= EXACT_TURN_LIMIT
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        if self.turns > EXACT_TURN_LIMIT {
            return None;
        }
        // The absorbing chain propagated forward for all states together (as
        // `markov::absorb` does a turn at a time), a step at a time in the
        // order of the turn's phases: every step leads to a later phase (or a
        // later order, or a longer Huzzah! chain, by `progress`), so all the
        // ways into a state have merged before it is expanded, however many
        // rolls they took. Endings and states that finished their turn leave
        // at once. The maps key on packed states; a turn's endings merge in
        // a map of their own (keyed by their code at turn 1), which stays
        // small enough to be quick, and then join the result.
        let stride = self.turn_stride();
        let mut result: Vec<(u64, f64)> = Vec::new();
        let mut current: Map<Packed> = HashMap::default();
        current.insert(self.start().pack(), 1.0);
        // A rank's states are taken a batch at a time and expanded in blocks,
        // in parallel, while the blocks of the batch before merge, one after
        // another in their fixed order: on one thread or many, every sum is
        // taken in the same order, so the result is the same to the bit.
        let mut batch: Vec<(Packed, f64)> = Vec::with_capacity(EXPAND_BATCH);
        // Two sets of buffers, one filling while the other merges (reused,
        // so the solver allocates nothing per batch).
        let buffers = || (0..EXPAND_BATCH / EXPAND_BLOCK).map(|_| Successors::default()).collect::<Vec<_>>();
        let (mut expanding, mut expanded) = (buffers(), buffers());
        let mut known: Known = HashMap::default();
        for turn in 1..=self.turns {
            let mut ended: Map<u64> = HashMap::default();
            let mut pending: BTreeMap<u32, Map<Packed>> = BTreeMap::new();
            pending.insert(0, std::mem::take(&mut current));
            while let Some((rank, active)) = pending.pop_first() {
                let mut states = active.into_iter().filter(|&(_, p)| p >= NEGLIGIBLE);
                expanded.iter_mut().for_each(Successors::clear);
                loop {
                    batch.clear();
                    batch.extend(states.by_ref().take(EXPAND_BATCH));
                    if batch.is_empty() && expanded.iter().all(Successors::is_empty) {
                        break;
                    }
                    rayon::join(
                        || {
                            expanding
                                .par_iter_mut()
                                .zip(batch.par_chunks(EXPAND_BLOCK))
                                .for_each(|(successors, block)| self.expand_block(rank, block, &known, successors));
                        },
                        || {
                            for successors in &expanded {
                                successors.merge_into(&mut pending, &mut current, &mut ended);
                            }
                        },
                    );
                    // The states first expanded in this batch are known from
                    // now on (a state waits in one rank, so none of them
                    // comes up again within this one).
                    for successors in &mut expanding {
                        known.extend(successors.learned.drain(..));
                    }
                    std::mem::swap(&mut expanding, &mut expanded);
                    expanding.iter_mut().for_each(Successors::clear);
                }
            }
            let offset = u64::from(turn - 1) * stride;
            if turn == self.turns {
                for (packed, p) in current.drain() {
                    let s = State::unpack(packed);
                    debug_assert_eq!(self.code(2, 1, &s) + offset, self.code(2, self.turns, &s));
                    *ended.entry(self.code(2, 1, &s)).or_insert(0.0) += p;
                }
            }
            result.extend(ended.into_iter().map(|(code, p)| (code + offset, p)));
        }
        Some(result)
    }
}

/// The assault its keys describe (those of [`assault_params`]); shared by
/// the `assault` and the brigade's assault.
fn assault_from_settings(rules: &dyn RuleBook, settings: &Settings) -> Result<Assault, ParamError> {
    Ok(Assault::new(
        rules_of::<Rules>(rules),
        AssaultUnit::from_settings(settings, "attacker"),
        AssaultUnit::from_settings(settings, "defender"),
        settings.choice("defender.guns"),
        settings.int("defender.bombardments") as i32,
        settings.int("distance") as i32,
        settings.int("turns") as u32,
    )?
    .with_superiority(settings.choice("skirmish")))
}

/// The keys of one unit's assault on another (both units, the battery, the
/// skirmishers, the start and the turn limit) and the players' policies.
fn assault_params() -> Vec<Param> {
    let mut params = AssaultUnit::params("attacker", Arm::Infantry, Formation::Column);
    params.extend(AssaultUnit::params("defender", Arm::Infantry, Formation::Line));
    params.push(Param::choice("defender.guns", "a defending battery's weight: light, medium or heavy", Guns::Medium));
    params.push(Param::int("defender.bombardments", "bombardments the battery has (the bombardment factor)", 3, 0, 10));
    params.push(Param::choice(
        "skirmish",
        "whose skirmishers hold superiority every turn (its infantry's threat zones 1 band deeper against infantry and artillery): none, attacker or defender",
        Superiority::None,
    ));
    params.push(Param::int("distance", "bands between the units at the start", 8, 1, 30));
    params.push(Param::int("turns", "the turn limit", 30, 1, 100));
    params.extend(plan_params());
    params.push(crate::game::purpose_key(
        crate::game::Purpose::Attack,
        "rout or break the defender",
        "an assault is the attacker's to carry; a defender holding at the limit has held",
    ));
    params
}

fn build(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let assault = assault_from_settings(rules, settings)?;
    Ok(Box::new(Played::new(
        AssaultGame::new(assault).with_purpose(crate::game::Purpose::from_settings(settings)),
        Plan::from_settings(settings),
    )))
}

/// The `assault` scenario.
pub fn entry() -> ScenarioEntry {
    let mut params = assault_params();
    // The battery's fire was a key before it was a decision: its old name,
    // in backquotes, makes the unknown-key message point to the policy.
    let policy = params.iter_mut().find(|p| p.name == "defender.policy").expect("a game has both policy keys");
    policy.doc.push_str(
        "; it replaces the retired `defender.fire`: when a battery bombards is now its `bombard` decision (bold \
         fires at every chance, as `now` did; cautious only at short range, as `short` did)",
    );
    ScenarioEntry {
        name: "assault",
        summary: "One unit advances on another through threat tests, orders and bombardment to an engagement, with rally and reform.",
        params,
        build,
    }
}

#[cfg(test)]
mod tests {
    //! Single steps of the assault's turn, worked by hand: the readings that
    //! a whole assault's distribution shows only among many other rolls.

    use super::*;

    /// A pair index of a 2D6 total (double one for 2).
    fn pair_of(total: i32) -> u32 {
        let first = (total - 6).max(1) as u32;
        6 * (first - 1) + (total as u32 - first - 1)
    }

    fn live(node: Node<State>) -> State {
        match node {
            Node::Live(s) => s,
            Node::End(code) => panic!("the assault ended ({code})"),
        }
    }

    #[test]
    fn what_each_side_takes_applied_once_is_the_engagements_two_steps() {
        // The game applies each distinct result of an engagement's 121 pairs
        // of totals once: for every pair, in both sides' Engagement phases,
        // fresh and worn units, cavalry (blown on a hold) and a routing
        // defender, it must leave the state the phase's two steps leave.
        let rules = Rules::default();
        let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
        let column = AssaultUnit::new(Quality::Veteran, Arm::Infantry, Formation::Column);
        let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
        let mut compared = 0;
        for attacker in [column, cavalry] {
            let assault = Assault::new(&rules, attacker, line, Guns::Medium, 0, 3, 1).unwrap();
            for (phase, strength, routing) in [
                (ENGAGE_ATTACKER_ROLL, [0, 0, 0, 0], false),
                (ENGAGE_ATTACKER_ROLL, [2, 1, 3, 0], false),
                (DEFENDER_ENGAGE_ROLL, [1, 0, 0, 2], false),
                (ENGAGE_ATTACKER_ROLL, [0, 0, 1, 1], true),
            ] {
                let mut s = assault.start();
                (s.phase, s.distance, s.strength, s.routing[1]) = (phase, 0, strength, routing);
                let (fighters, rating) = assault.fighters(&s);
                for first in 2..=12 {
                    for second in 2..=12 {
                        let (first, second) = (pair_of(first), pair_of(second));
                        let once =
                            assault.engage_taken(s, assault.taken_of_rolls(&s, &fighters, rating, first, second));
                        let stepped = match assault.step(s, Some(first)) {
                            Node::Live(t) => assault.step(t, Some(second)),
                            end => end,
                        };
                        assert_eq!(once, stepped, "phase {phase}, strengths {strength:?}, totals {first} {second}");
                        compared += 1;
                    }
                }
            }
        }
        assert_eq!(compared, 2 * 4 * 121);
    }

    #[test]
    fn a_forced_deploy_in_a_threat_zone_is_followed_by_a_threat_test() {
        // "Deploying": "A unit that deploys within or into a threat zone must
        // immediately take a threat test on completing the change of
        // formation". A Trained column 3 bands from a Trained line (inside its
        // 3-band zone) with a forced order: 8 + 1 in command - 1 threat zone
        // = 8, so a 5 deploys it into line. It then tests at Trained (8): a 10
        // gives 2 staggers. The old reading went straight on to its orders.
        let rules = Rules::default();
        let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
        let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
        let assault = Assault::new(&rules, column, line, Guns::Medium, 0, 3, 1).unwrap();
        let mut s = assault.start();
        (s.phase, s.forced[0]) = (ATTACKER_FORCED, true);
        let s = live(assault.step(s, Some(pair_of(5))));
        assert_eq!((s.phase, s.formation[0]), (ATTACKER_DEPLOY_THREAT, Formation::Line));
        assert!(assault.wants_roll(&s));
        let s = live(assault.step(s, Some(pair_of(10))));
        assert_eq!((s.phase, s.strength[0]), (ATTACKER_ORDERS, 2));
        // The defender too: a line 5 bands from cavalry in line (its 5-band
        // zone) forms square, then tests at Trained Up 2 (square against
        // cavalry), Veteran (10): only 11-12 fail, an 11 by 1 stagger.
        let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
        let assault = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 5, 1).unwrap();
        let mut s = assault.start();
        (s.phase, s.forced[1]) = (DEFENDER_FORCED, true);
        let s = live(assault.step(s, Some(pair_of(5))));
        assert_eq!((s.phase, s.formation[1]), (DEFENDER_DEPLOY_THREAT, Formation::Square));
        assert_eq!(assault.threat_rating(&s, 1, None), 10);
        let s = live(assault.step(s, Some(pair_of(11))));
        assert_eq!((s.phase, s.strength[2]), (DEFENDER_CHECK, 1));
    }

    /// Both engagement rolls from `s` (in contact): the state after them.
    fn engage_rolls(assault: &Assault, mut s: State, attacker: i32, defender: i32) -> Node<State> {
        (s.phase, s.distance) = (ENGAGE_ATTACKER_ROLL, 0);
        let s = live(assault.step(s, Some(pair_of(attacker))));
        assault.step(s, Some(pair_of(defender)))
    }

    #[test]
    fn battle_cavalry_and_small_units_change_the_engagement() {
        // "Engage the enemy", Procedure: "Up 1 if battle cavalry". Trained
        // battle cavalry engages a Trained line at Experienced (9) against 8.
        // The cavalry rolls 9 and the line 8: both succeed by 0, a tie; the
        // attacker retires one move (5 bands in line) and is blown. As
        // regular cavalry (the old hard-coded kind) it rated 8, so its 9
        // failed: a kill, and it routed 6 bands at march column rate.
        let rules = Rules::default();
        let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
        let mut cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
        cavalry.cavalry = CavalryKind::Battle;
        let battle = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 5, 1).unwrap();
        let s = live(engage_rolls(&battle, battle.start(), 9, 8));
        assert_eq!((s.distance, s.strength, s.blown, s.routing), (5, [0; 4], [true, false], [false; 2]));
        cavalry.cavalry = CavalryKind::Regular;
        let regular = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 5, 1).unwrap();
        let s = live(engage_rolls(&regular, regular.start(), 9, 8));
        assert_eq!((s.distance, s.strength, s.routing), (6, [0, 1, 0, 0], [true, false]));
        // "Down 1 if blown battle cavalry" to rally: Trained, Up 1 in
        // command, Down 1 blown battle cavalry: 8, so a 9 leaves it blown,
        // where regular cavalry (9) reforms.
        let mut blown = battle.start();
        (blown.phase, blown.blown) = (ATTACKER_REFORM, [true, false]);
        assert!(live(battle.step(blown, Some(pair_of(9)))).blown[0]);
        assert!(!live(regular.step(blown, Some(pair_of(9)))).blown[0]);
        // Pursuit cavalry: "Up 1 if pursuit cavalry fighting a disadvantaged
        // enemy": against a routing line (a mob, disadvantaged: Trained's 4)
        // it fights at 9; against a line in good order at 8.
        cavalry.cavalry = CavalryKind::Pursuit;
        let pursuit = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 5, 1).unwrap();
        let mut s = pursuit.start();
        assert_eq!(pursuit.fighters(&s).1, [8, 8]);
        s.routing[1] = true;
        assert_eq!(pursuit.fighters(&s).1, [9, 4]);
        // "Down 1 if small unit" "in engagements against standard-sized
        // units": a small Trained column fights a Trained line at Green (7),
        // so its 8 fails (a kill, and it routs 4 bands); against a small line
        // the two meet as equals at 8 and its 8 ties the line's 8.
        let mut column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
        column.small = true;
        let small = Assault::new(&rules, column, line, Guns::Medium, 0, 3, 1).unwrap();
        assert_eq!(small.fighters(&small.start()).1, [7, 8]);
        let s = live(engage_rolls(&small, small.start(), 8, 8));
        assert_eq!((s.distance, s.strength, s.routing), (4, [0, 1, 0, 0], [true, false]));
        let mut small_line = line;
        small_line.small = true;
        let both_small = Assault::new(&rules, column, small_line, Guns::Medium, 0, 3, 1).unwrap();
        let s = live(engage_rolls(&both_small, both_small.start(), 8, 8));
        assert_eq!((s.distance, s.strength, s.routing), (4, [0; 4], [false; 2]));
        // A small unit bombarded at long range takes "Up 1 if small unit
        // bombarded at long or extreme range": Trained 8, not 8 - 0.
        let battery = AssaultUnit::new(Quality::Trained, Arm::Artillery, Formation::Line);
        let guns = Assault::new(&rules, column, battery, Guns::Medium, 3, 10, 1).unwrap();
        column.small = false;
        let standard = Assault::new(&rules, column, battery, Guns::Medium, 3, 10, 1).unwrap();
        // A column bombarded at long range: Down 1 in column; Up 1 small.
        assert_eq!(guns.threat_rating(&guns.start(), 0, Some(1)), 8);
        assert_eq!(standard.threat_rating(&standard.start(), 0, Some(1)), 7);
        // Battle and pursuit are kinds of cavalry only.
        let mut infantry = line;
        infantry.cavalry = CavalryKind::Battle;
        assert!(Assault::new(&rules, infantry, line, Guns::Medium, 0, 5, 1).is_err());
    }

    #[test]
    fn infantry_advancing_on_cavalry_is_down_2_on_advance_orders_only() {
        // "Down 2 if infantry ordered to advance on cavalry": within the
        // cavalry's threat zone (5 bands in line), or with the cavalry within
        // the infantry's move and threat zone (4 + 3 = 7 bands for a column).
        // A Trained column with an average officer (8, Up 1 in command): 9
        // from 8 bands, 8 + 1 - 2 = 7 from 7 bands, and from 5 bands, inside
        // the cavalry's zone, 8 + 1 - 1 - 2 = 6; a deploy there is no
        // advance: 8 + 1 - 1 = 8. Against an infantry line nothing changes.
        let rules = Rules::default();
        let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
        let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
        let assault = Assault::new(&rules, column, cavalry, Guns::Medium, 0, 8, 1).unwrap();
        let mut s = assault.start();
        let rating = |s: &State, advance: bool| assault.order_rating(s, advance);
        assert_eq!(rating(&s, true), Some(9));
        s.distance = 7;
        assert_eq!(rating(&s, true), Some(7));
        s.distance = 5;
        assert_eq!((rating(&s, true), rating(&s, false)), (Some(6), Some(8)));
        let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
        let against_line = Assault::new(&rules, column, line, Guns::Medium, 0, 7, 1).unwrap();
        assert_eq!(against_line.order_rating(&against_line.start(), true), Some(9));
        // The chain's first order from 7 bands is rolled at 7: a 8 fails it.
        let mut orders = assault.start();
        (orders.phase, orders.distance) = (ATTACKER_ORDERS, 7);
        let after = live(assault.step(orders, Some(pair_of(8))));
        assert_eq!((after.distance, after.phase), (7, LAST_BOMBARD));
    }

    #[test]
    fn defending_cavalry_is_blown_recalled_and_may_engage_out_of_control() {
        // A Trained column engages Trained cavalry in line: the column rolls
        // 8 and the cavalry 8, both succeed by 0, a tie. The attacker retires
        // one move (4 bands in column); the cavalry holds and, not routed, is
        // blown ("Cavalry that does not rout after an engagement is blown"):
        // it has no threat zone.
        let rules = Rules::default();
        let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
        let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
        let assault = Assault::new(&rules, column, cavalry, Guns::Medium, 0, 3, 2).unwrap();
        let s = live(engage_rolls(&assault, assault.start(), 8, 8));
        assert_eq!((s.distance, s.blown, s.strength), (4, [false, true], [0; 4]));
        assert_eq!(assault.zone(&s, 1), 0);
        // It rallies in its own Rally phase that turn at 8 + 1 in command =
        // Experienced (9) (the column, 4 bands off, threatens 3): a 10 fails,
        // and it is recalled.
        let mut reform = s;
        reform.phase = DEFENDER_REFORM;
        assert!(assault.wants_roll(&reform));
        let failed = live(assault.step(reform, Some(pair_of(10))));
        assert_eq!((failed.blown, failed.rare.recall(0), failed.rare.recall(1)), ([false, true], false, true));
        assert_eq!(live(assault.step(reform, Some(pair_of(9)))).blown, [false; 2]);
        // Blown, it fights disadvantaged (Trained's 4) if engaged again.
        assert_eq!(assault.fighters(&failed).1, [8, 4]);
        // Its next Orders phase: the recall at 8 + 1 in command - 1 in the
        // column's threat zone (1 band off) = 8. A 9 fails it: it loses
        // control and advances 6 bands (march column), from inside the
        // column's zone into contact, and engages in its own turn.
        let mut recall = failed;
        (recall.phase, recall.distance) = (DEFENDER_FORCED, 1);
        assert!(assault.wants_roll(&recall));
        let obeyed = live(assault.step(recall, Some(pair_of(8))));
        assert_eq!((obeyed.distance, obeyed.phase, obeyed.blown[1]), (1, DEFENDER_CHECK, true));
        let wild = live(assault.step(recall, Some(pair_of(9))));
        assert_eq!((wild.distance, wild.phase, wild.out_of_control[1]), (0, DEFENDER_ENGAGE_ROLL, true));
        assert_eq!(wild.behind[1], DEFAULT_EDGE as i8 + 1);
        // Its engagement: the cavalry (the phasing unit) rolls 5 over its 4
        // and the column 9 over its 8: both fail, a kill each and a tie, so
        // the cavalry, attacking in its own turn, retires 5 bands and the
        // column holds. (With the column as the phasing unit it would have
        // retired 4 and the cavalry held.)
        let cavalry_rolls = live(assault.step(wild, Some(pair_of(5))));
        let tie = live(assault.step(cavalry_rolls, Some(pair_of(9))));
        assert_eq!((tie.distance, tie.strength, tie.phase), (5, [0, 1, 0, 1], DEFENDER_CHECK));
        assert_eq!((tie.blown, tie.routing), ([false, true], [false; 2]));
        // The column rolls 5 (by 3) and the cavalry 4 (by 0): the cavalry
        // takes 3 staggers and routs 6 bands.
        let cavalry_rolls = live(assault.step(wild, Some(pair_of(4))));
        let routed = live(assault.step(cavalry_rolls, Some(pair_of(5))));
        assert_eq!((routed.distance, routed.strength, routed.routing), (6, [0, 0, 3, 0], [false, true]));
        assert!(!routed.blown[1] && !routed.out_of_control[1] && !routed.rare.recall(1));
        // Cavalry against cavalry: on a tie both are blown, the attacker
        // retires a move (5 bands in line) and the defender holds.
        let horse = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
        let melee = Assault::new(&rules, horse, cavalry, Guns::Medium, 0, 3, 2).unwrap();
        let s = live(engage_rolls(&melee, melee.start(), 7, 7));
        assert_eq!((s.distance, s.blown, s.strength), (5, [true, true], [1, 0, 1, 0]));
    }

    #[test]
    fn a_rout_makes_the_brigade_take_a_command_check() {
        // A Trained column in a brigade of two engages a Trained line: it
        // rolls 10 (over its 8: a kill) and the line 6 (by 2: 2 staggers), so
        // it loses and routs. "A command must take a command check if: Any
        // of its sub-commands broke or routed this turn", first in the Rally
        // phase. The officer's 8 is Down 1 for the routing unit and Down 2
        // for the isolated sub-command (the other unit is the only one not
        // broken or routing): 5.
        let rules = Rules::default();
        let mut column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
        column.brigade = 2;
        let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
        let assault = Assault::new(&rules, column, line, Guns::Medium, 0, 3, 2).unwrap();
        let routed = live(engage_rolls(&assault, assault.start(), 10, 6));
        assert_eq!(
            (routed.phase, routed.routing[0], routed.strength[..2].to_vec()),
            (ATTACKER_CHECK, true, vec![2, 1])
        );
        assert!(assault.wants_roll(&routed));
        assert_eq!(assault.check_rating(&routed, 0), 5);
        // A 6 fails: "every unit in the command takes a number of staggers
        // equal to the number of broken or routing sub-commands" (1); the
        // routing unit does not retire (only "non-routing units").
        let failed = live(assault.step(routed, Some(pair_of(6))));
        assert_eq!((failed.phase, failed.strength[0], failed.distance), (ATTACKER_REFORM, 3, 4));
        assert_eq!(failed.rare.last_check(0), LastCheck::Failed);
        let passed = live(assault.step(routed, Some(pair_of(5))));
        assert_eq!(
            (passed.strength[0], passed.rare.last_check(0), passed.rare.exempt(0)),
            (2, LastCheck::Passed, false)
        );
        let huzzah = live(assault.step(routed, Some(pair_of(2))));
        assert!(huzzah.rare.exempt(0));
        // Rallied, 4 bands off (outside the line's zone), the failed check
        // brings another check next turn ("It failed a command check last
        // turn"), at 8 - 1 failed last = 7 (no longer isolated: two units
        // stand); and advance orders are Down 1 ("failed last command
        // integrity check and ordered to advance"): 8 + 1 - 1 = 8, not 9.
        let mut rallied = failed;
        (rallied.routing[0], rallied.phase) = (false, ATTACKER_CHECK);
        assert!(assault.wants_roll(&rallied));
        assert_eq!(assault.check_rating(&rallied, 0), 7);
        assert_eq!((assault.order_rating(&rallied, true), assault.order_rating(&rallied, false)), (Some(8), Some(9)));
        // Failing it, the column takes no staggers (nothing broken or
        // routing) and retires one full move (4 bands in column).
        let retired = live(assault.step(rallied, Some(pair_of(8))));
        assert_eq!((retired.strength[0], retired.distance), (3, 8));
        // A pass after a Huzzah! spares it the check it would take in the
        // enemy's zone with a unit routing; the passed check does not.
        let mut spared = huzzah;
        (spared.phase, spared.distance) = (ATTACKER_CHECK, 2);
        assert!(!assault.wants_roll(&spared));
        let mut checked = passed;
        (checked.phase, checked.distance) = (ATTACKER_CHECK, 2);
        assert!(assault.wants_roll(&checked));

        // A lone unit (brigade 1) is isolated: Down 1 to its threat tests
        // ("Down 1 if unit is isolated") and its orders ("Down 1 if isolated
        // sub-command"), and Down 2 on its check: in the line's zone it
        // tests at Green (7), orders at 8 + 1 - 1 - 1 = 7, and routed
        // checks at 8 - 1 - 2 = 5. Under `command_check_isolated = command`
        // a brigade of two checks at 8 - 1 = 7 unless the brigade itself is
        // isolated in its division.
        column.brigade = 1;
        let lone = Assault::new(&rules, column, line, Guns::Medium, 0, 3, 2).unwrap();
        assert_eq!((lone.threat_rating(&lone.start(), 0, None), lone.order_rating(&lone.start(), true)), (7, Some(7)));
        assert_eq!(lone.check_rating(&live(engage_rolls(&lone, lone.start(), 10, 6)), 0), 5);
        let command = Rules { command_check_isolated: CommandCheckIsolated::Command, ..Rules::default() };
        column.brigade = 2;
        let by_command = Assault::new(&command, column, line, Guns::Medium, 0, 3, 2).unwrap();
        assert_eq!(by_command.check_rating(&routed, 0), 7);

        // The defender's brigade (three units, one already lost) checks in
        // its own Rally phase that turn when its line routs: 8 - 2 routing or
        // broken - 2 isolated = 4; a 5 fails, 2 staggers.
        let mut defender = line;
        (defender.brigade, defender.brigade_lost) = (3, 1);
        let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
        let assault = Assault::new(&rules, column, defender, Guns::Medium, 0, 3, 2).unwrap();
        let mut s = live(engage_rolls(&assault, assault.start(), 6, 10));
        assert_eq!((s.routing, s.rare.due(0), s.rare.due(1)), ([false, true], false, true));
        s.phase = DEFENDER_CHECK;
        assert_eq!(assault.check_rating(&s, 1), 4);
        let failed = live(assault.step(s, Some(pair_of(5))));
        assert_eq!(
            (failed.strength[2], failed.rare.last_check(1), failed.phase),
            (4, LastCheck::Failed, DEFENDER_REFORM)
        );
    }

    #[test]
    fn skirmisher_superiority_deepens_the_winners_infantry_zones() {
        // "That side adds 5cm (1 band) to the threat zone of its infantry
        // units in open terrain against enemy infantry and artillery units."
        // A Trained column 6 bands from a line whose side holds superiority
        // (zone 4, not 3): its 4-band move stops on entering the zone, at 4
        // (at 3 without); from 4 bands it is in the zone and tests at the
        // start of its turn (without, it does not).
        let rules = Rules::default();
        let column = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Column);
        let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
        let plain = Assault::new(&rules, column, line, Guns::Medium, 0, 6, 1).unwrap();
        let defended = plain.clone().with_superiority(Superiority::Defender);
        let s = plain.start();
        assert_eq!((plain.advance(&s), defended.advance(&s)), (3, 4));
        let mut at_four = s;
        at_four.distance = 4;
        assert!(!plain.wants_roll(&at_four) && defended.wants_roll(&at_four));
        // The attacker's side holding it: a column 4 bands from a battery
        // (inside its 7-band zone) may advance into contact, the battery
        // being within its 4-band zone; without, it stops 1 band short.
        let battery = AssaultUnit::new(Quality::Trained, Arm::Artillery, Formation::Line);
        let plain = Assault::new(&rules, column, battery, Guns::Medium, 0, 4, 1).unwrap();
        let attacked = plain.clone().with_superiority(Superiority::Attacker);
        assert_eq!((plain.advance(&plain.start()), attacked.advance(&attacked.start())), (1, 0));
        // Not against cavalry, and cavalry never gains a zone from it.
        let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
        let against_cavalry = Assault::new(&rules, column, cavalry, Guns::Medium, 0, 4, 1).unwrap();
        let horse = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 4, 1).unwrap();
        assert_eq!(against_cavalry.with_superiority(Superiority::Attacker).skirmish_bonus, [0, 0]);
        assert_eq!(horse.clone().with_superiority(Superiority::Attacker).skirmish_bonus, [0, 0]);
        assert_eq!(horse.with_superiority(Superiority::Defender).skirmish_bonus, [0, 0]);
        assert_eq!(defended.skirmish_bonus, [0, 1]);
    }

    #[test]
    fn cavalry_out_of_control_advances_as_a_mob_at_march_column_rate() {
        // "Forced orders", Recall: "If the recall order fails, the cavalry loses
        // control and advances one move in mob formation", at march column
        // rate (6 bands, not the 5 of cavalry in line), "stopped by threat
        // zones", and "If it engages an enemy it fights using its
        // disadvantaged morale rating". Blown Trained cavalry 12 bands from a
        // line: recall at 8 + 1 in command = 9; a 12 fails it, and it moves 6
        // bands to 6, still outside the line's 3-band zone (the old reading
        // moved it 5, to 7).
        let rules = Rules::default();
        let cavalry = AssaultUnit::new(Quality::Trained, Arm::Cavalry, Formation::Line);
        let line = AssaultUnit::new(Quality::Trained, Arm::Infantry, Formation::Line);
        let assault = Assault::new(&rules, cavalry, line, Guns::Medium, 0, 12, 1).unwrap();
        let mut s = assault.start();
        (s.phase, s.blown) = (ATTACKER_ORDERS, [true, false]);
        s.rare.set_recall(0, true);
        let after = live(assault.step(s, Some(pair_of(12))));
        assert_eq!((after.distance, after.out_of_control), (6, [true, false]));
        // A mob is disadvantaged when threatened: Trained's disadvantaged 4.
        assert_eq!(assault.threat_rating(&after, 0, None), 4);
        // From 3 bands, inside the line's zone, it makes contact (the old
        // reading stopped it at 1 band: its blown zone is none, and an advance
        // order engages from outside its zone only within 1 band).
        s.distance = 3;
        let after = live(assault.step(s, Some(pair_of(12))));
        assert_eq!(after.distance, 0);
        // It takes no further order (no battery fires), and engages disadvantaged.
        assert_eq!(after.phase, LAST_BOMBARD);
        assert!(!assault.wants_roll(&after));
        let (fighters, _) = assault.fighters(&after);
        assert!(fighters[0].disadvantaged);
        // Rallying puts it under control again.
        let mut reform = after;
        reform.phase = ATTACKER_REFORM;
        let rallied = live(assault.step(reform, Some(pair_of(5))));
        assert!(!rallied.blown[0] && !rallied.out_of_control[0] && !rallied.rare.recall(0));
    }
}
