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
//! the decisions `advance` (halt, advance a full move or short of it,
//! deploy to line, re-form a square; retire with `attacker.retire`; every
//! band and formation with `attacker.every_order`), `pursue`,
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
//!   phasing player's), and in its own turn it gives orders as any defender does (the game's `defend`; the chain's stands).
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
mod engage;
mod game;
mod limits;
mod rally;
mod solver;
mod state;
mod step;
pub use game::{ADVANCE, AssaultGame, BOMBARD_DECISION, DEFEND, PURSUE, Standing};
pub use limits::{
    BATTERY_BEST_TURN_LIMIT, BATTERY_TURN_LIMIT, BEST_TURN_LIMIT, DEFENDER_ORDERS_TURN_LIMIT, EVERY_ORDER_TURN_LIMIT,
};
pub use solver::EXACT_TURN_LIMIT;
pub use state::State;

use super::{Arm, CavalryKind, Officer, Quality, Rules, quality_param};
use crate::catalogue::ScenarioEntry;
use crate::game::{Plan, Played, plan_params_worded};
use crate::outcome::Layout;
use crate::params::{Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::DynScenario;
use state::*;

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
    params.extend(plan_params_worded(
        "an attacker orders every advance it can, on into contact; a defender stands, and its battery fires at \
         every chance",
        "an attacker halts at the edge of the defender's threat zone until one advance reaches contact, and a \
         square it was forced into re-forms where its next advance reaches contact (advancing in square until \
         then); a defender forms square against cavalry when it can, and its battery fires only within its \
         threat zone",
    ));
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
        AssaultGame::new(assault)
            .with_purpose(crate::game::Purpose::from_settings(settings))
            .with_defender_orders(settings.bool("defender.orders"))
            .with_every_order(settings.bool("attacker.every_order"))
            .with_retire(settings.bool("attacker.retire")),
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
    params.push(Param::boolean(
        "defender.orders",
        "the defender gives its own orders in its turn (retire out of the attacker's threat zone, re-form line, advance to engage) as well as forming square, each passed order followed by another (Down 1 for each before it) and a Huzzah! by a free order; off by default: the default assault's exact solution would pass its time and memory budget",
        false,
    ));
    params.push(Param::boolean(
        "attacker.retire",
        "the attacker may retire (half its move back, in whole bands, to the nearest band of each situation: out of the defender's threat zone, say); off by default: it takes the default assault's exact solution from 2.0 s to 2.7 s, past its budget",
        false,
    ));
    params.push(Param::boolean(
        "attacker.every_order",
        "the attacker is offered every order the rules allow: advances and retires (retire included) of every whole number of bands and deploys to every allowable formation; off by default, where a partial advance or a retire stops at the nearest band of each situation (zones, contact, range) and deploys are a column's to line, a square's re-forming and a square facing cavalry: the default assault's exact solution would pass its time and memory budget",
        false,
    ));
    ScenarioEntry {
        name: "assault",
        summary: "One unit advances on another through threat tests, orders and bombardment to an engagement, with rally and reform.",
        params,
        build,
    }
}

#[cfg(test)]
mod tests;
