//! A brigade's assault (`brigade_assault`): two or three attacking infantry
//! units of one brigade advance on one defender (infantry, or a battery) over
//! several turns and engage it together, on the decision model
//! ([`crate::game`]). With one unit it is the `assault`, roll for roll.
//!
//! The turn is the assault's ([`Assault`]), each unit's part of it run by the
//! assault's own phases on that unit's view of the fight (its distance,
//! formation, staggers and kills, with the defender's state shared), and the
//! brigade's parts run here:
//!
//! - Threat tests: each attacking unit in the defender's threat zone tests in
//!   turn, in the order listed ("Threat tests": "Any of the phasing army's
//!   units that are in an enemy threat zone must take a threat test"). The
//!   defender, in its own turn, tests once if it is in any attacking unit's
//!   zone, Down 1 if in more than one ("Down 1 if in more than one threat
//!   zone"), and so in any test it answers.
//! - Orders ("Orders and movement"): where no forced order is pending and
//!   two or more units can act on an order, the brigade officer first
//!   chooses (the `command` decision) to "issue orders to his brigade as one
//!   group" or "to individual units within his brigade", for the whole turn
//!   ("An officer who issues orders at one command level cannot then order
//!   units at a different level").
//! - Orders to the group: each is one roll for all (the `group_order`
//!   decision: none, advance or deploy), Down 1 if any unit ordered is in
//!   the enemy's threat zone ("Even if a command has only one unit in a
//!   threat zone, the whole command receives the penalty"), Down 1 for each
//!   broken unit ("each broken sub-command"), Down 1 for each order to the
//!   group before it, Down 1 if `attacker.brigade_isolated`, Down 1 on an
//!   advance after a failed check, Up 1 in command. Passed, each unit in
//!   turn acts on it or stands (the `act` decision: "Provided that one unit
//!   acts on the order, other units in a command group need not act on it";
//!   if none acts, "the order fails" and his orders end), moved "one at a
//!   time", the battery's chance after each; a Huzzah! gives the group one
//!   free order, its last that turn. So out of every zone two columns both
//!   move on one roll at 9 (30 in 36), where one by one both rolls must
//!   pass (25 in 36); with one column in the zone the group's roll is Down
//!   1 for both.
//! - Orders to units one by one: the brigade officer orders the units
//!   individually, one after another, and cannot return to a unit he has
//!   ordered ("Once an officer issues orders to a command or an individual
//!   unit he cannot order other commands or individual units to which he
//!   gave orders in the same turn"); each unit's orders are the assault's
//!   (its forced order first, then the `advance` or `pursue` decisions), Down
//!   1 for each order before it to the same unit only ("an officer that
//!   moves on to order a different, previously unordered unit does so
//!   without any penalty for issuing successive orders"), and Down 1 in the
//!   enemy's threat zone for that unit only ("The penalty can be avoided by
//!   ordering units individually"). A failed order ends all his orders
//!   ("An officer who fails when issuing an order can give no further orders
//!   that turn"); a Huzzah!'s free order ends that unit's ("After completing
//!   a Huzzah! order, a group or individual unit can receive no other orders
//!   that turn. The officer, however, can go on to issue orders to other
//!   commands"). The units with a forced order pending are ordered first; a
//!   forced order issued after the officer's orders to other units takes one
//!   extra stagger for each of them ("If the player disobeys the forced order
//!   by issuing other orders first, the unit takes one extra stagger for each
//!   order issued by their officer before the forced order is issued"); a
//!   forced order that his failure leaves unissued stays pending.
//! - Bombardment ("Artillery bombardment"): the battery has a chance to
//!   bombard after each order a unit acts on and at the end of the Orders
//!   phase, as in the assault; at each chance it may bombard, one at a time
//!   ("Bombardment fire is never combined"), every unit it has not bombarded
//!   since that unit last acted on an order, within extreme range and not
//!   engaged, the nearest first ("The battery must choose the nearest
//!   legitimate target"): the defender's `bombard` decision fires at the
//!   nearest or holds (ending the chance), and where two are equally near the
//!   defender's `target` decision picks one.
//! - The engagement: every attacking unit in contact at the Engagement phase
//!   engages the defender at once ("Multiple unit engagements"), resolved as
//!   the `multi_engagement` scenario resolves it (the best success alone
//!   inflicts staggers, divided equally, odd staggers first to a unit that
//!   took a kill; [`resolve_multi`]); one unit in contact is a one-on-one
//!   engagement, the assault's. Each unit then obeys its result: it routs,
//!   retires or holds, its own move off the table breaking it.
//! - Rally: the brigade's command check first, once for the brigade (when
//!   any unit routed since its last Rally phase, it failed its last check,
//!   or it has units broken or routing and a unit in the enemy's threat
//!   zone), Down 1 for each unit broken or routing, Up 1 for each unit in its
//!   favourable position; failed, each unit takes the staggers and each that
//!   does not rout retires a move. Then each unit rallies, reforms or routs
//!   in turn, on its own roll.
//!
//! The fight ends when the defender breaks (the attacker wins) or every
//! attacking unit has broken (the defender wins), or at the turn limit. A
//! unit is isolated (Down 1 on its threat tests and orders) when the
//! brigade's other units are all broken or routing ("the only non-routing
//! unit in a brigade"), with the `attacker.brigade` key counting the whole
//! brigade as in the assault. By default ([`OWN_BRIGADE`]) the brigade is
//! the one the scenario holds: its attacking units and
//! `attacker.brigade_lost`, so that its command checks are taken (the
//! scenario is "with rally and command checks"); 0 switches them off (the
//! brigade's command outside the scenario: no unit is ever isolated or
//! checked), and a larger value stands the brigade's other units outside
//! the fight (they are never lost, so the last attacking unit is not
//! isolated).
//!
//! Simplifications, each a choice the rules leave the player or a case the
//! scenario leaves out (see the ruleset note):
//!
//! - Ordering one by one, the officer takes the units in a fixed order:
//!   units with a forced order first, then as listed, where the units are
//!   alike (no `attacker.support_quality`) the nearest first, as they stand
//!   at the start of the turn (the state keeps them sorted so that equal
//!   situations merge); a group's units act in the same order. Best play is
//!   over these orders only.
//! - Interpretation: a forced order pending (a column's deploy after a
//!   failed threat test) keeps the officer's orders that turn to units one
//!   by one: the forced order is issued to its unit alone, first, and the
//!   rules let him order at one level only. Nor is the group offered where
//!   only one unit can act on an order (the others broken, routing or in
//!   contact): its order would be that unit's with the whole group's
//!   Downs, never better than ordering it alone.
//! - The heuristics: bold orders the group where its roll is no harder than
//!   any unit's own (every unit able to act in the enemy's zone, or none,
//!   and none broken), then advances it and every unit acts; cautious
//!   orders the units one by one.
//! - Cavalry, on either side, is not modelled (blown cavalry, recalls and
//!   squares are the `assault`'s); the attackers are infantry in line or
//!   column, the defender infantry or a battery.
//! - A Huzzah! on the defender's threat test makes the nearest attacking
//!   unit whose zone holds it test in answer, not every such unit (a 1 in 36
//!   chance a test).
//! - In a multiple-unit engagement the defender takes its Ups and Downs
//!   against the first attacking unit engaged, as `multi_engagement` does.
//!
//! # Start distance
//!
//! A sweep of the start distance (two Trained columns against a Trained
//! line, one turn, best play: the size two units solve at) moves the
//! chance to engage by more than 10 points in two places: from 3 bands to
//! 4, 62 to 50 percent, and from 7 to 8, 50 to 26 percent (measured
//! before the group orders and checks; `a_sweep_of_the_start_distance_
//! under_best_play` holds the two steps within 10-15 and 20-25 points with
//! them, and every other step under 10). From 1 to 3
//! bands both columns are inside the line's threat zone and their own, and
//! each makes contact on one order (8: Up 1 in command, Down 1 in the zone;
//! 26 in 36), after its threat test. From 4 to 7 bands an advance stops on
//! entering the zone at 3 and a second order is needed, Down 1 for it and
//! Down 1 in the zone (9, then 7: 30 in 36 times 21 in 36). From 8 bands
//! the first advance ends at 4, outside the zone, and a third order is
//! needed (9, 8, then 6: 30, 26 and 15 in 36). A player meets the same
//! cliffs: they are the rules' moves and threat zones, not the model's.

//! Metrics are the assault's, over the brigade: staggers and kills are the
//! attacking units' totals; `attacker_remaining` is the share of their
//! breaking thresholds, added up, not yet used; `attacker_routing` counts the
//! units routing at the end (a unit broken while routing counts);
//! `attacker_broken` counts the units broken.
//!
//! # Beyond the solver
//!
//! Best play is solved where [`solvable`] says: one unit up to
//! [`ONE_UNIT_BEST_TURN_LIMIT`] turns (two against a battery that
//! bombards), two units one turn (not against a battery that bombards),
//! three never. Beyond, a side asked for `best` plays `bold`, sampled, and
//! the output says so. What that costs, measured at sizes that solve (the
//! attacker's win and loss chances in percent; `solve_time huzzah
//! brigade_assault KEYS attacker.policy=P defender.policy=Q`; the default
//! Trained line takes no decision, so against it only the attacker's play
//! changes):
//!
//! - Two Trained columns, one turn (`turns=1 purpose=manoeuvre`), the
//!   brigade's checks and group orders in, pinned by
//!   `beyond_the_solver_bold_gives_up_what_best_play_gains` (2026-11-28):
//!   from 1 to 3 bands best play 2.320/0.031, bold 2.275/0.178, 0.19
//!   points of margin; from 4 to 8 bands bold play is best play (1.873/0.021
//!   from 4 to 7 bands, 0.961/0.011 from 8). Without the checks
//!   (`attacker.brigade=0`) from 3 bands best play 2.370/0.010, bold
//!   2.289/0.048 (before the group orders: 2.206/0.010 and 2.125/0.048).
//!
//! The figures below were measured before the group orders and with the
//! brigade's checks off (`attacker.brigade=0`, then the default); one
//! column has no group to order, so its figures stand at
//! `attacker.brigade=0` (at the default its brigade of one is isolated).
//!
//! - Two columns over two turns, beyond `solvable` (measured with its bound
//!   lifted by hand, 56 s and 1.3 GB under best play), both sides worn so
//!   that the states fit the budget (`attacker.staggers=4
//!   defender.staggers=4 attacker.edge=2 defender.edge=2 distance=4`): best
//!   play 57.3/2.4, bold 58.3/6.3, 2.9 points of margin. From the default
//!   8 bands two fresh columns outgrow the budget under best play.
//! - One column (the assault, roll for roll; `attacker.units=1 turns=3`):
//!   from 8 bands best play 12.0/4.2, bold 11.9/9.1 (5.0 points); from 3
//!   bands 16.7/14.1 against 16.5/22.7 (8.8 points). The assault itself,
//!   solved over 30 turns, shows the longer fight: 47.3/19.1 against
//!   49.4/50.1 (28.9 points).
//! - One column against a battery that bombards (`attacker.units=1
//!   defender.arm=artillery turns=2`), from 8 bands (72 s and 1.7 GB) best
//!   play by both 5.1/4.4; a bold column against the best battery 17.0/39.3
//!   (22.9 points of the column's margin); the best column against a bold
//!   battery 7.0/5.1 (1.3 points of the battery's); both bold 16.7/38.7. Over
//!   three turns best play outgrows the budget, so `solvable` refuses it and
//!   both sides play bold.
//!
//! So a sampled answer beyond the solver is bold play's: against a line
//! within 9 points of best play's margin over one to three turns but 29
//! points short over the assault's 30, against a bombarding battery 23
//! points short over two turns. In every case measured bold play loses
//! more often than best play, from 1.6 to 9 times as often.
//!
//! # The look-ahead
//!
//! `lookahead` ([`Policy::Lookahead`]) is a play that does no worse than
//! bold, up to its sampling: at each decision of its side it tries every
//! option in rollouts played bold from there by both sides (the same dice
//! for every option), and leaves bold's option only for one that does
//! clearly better (one step of policy improvement: with exact rollout
//! values never worse than bold against a fixed opponent). Its rollouts
//! are seeded from a hash of where the decision is taken, so each decision
//! is a function of its situation, kept in a memo shared by every fight
//! and thread ([`crate::game::Memo`]): equal situations get equal
//! decisions, and the fights that meet a situation again (every fight
//! starts from the same one) reuse it. It is sampled only, and refused
//! against `best` where best play solves. The `lookahead.rounds` key sets
//! its most rounds of rollouts per option, 128 by default
//! ([`LOOKAHEAD_DEFAULT_ROUNDS`]). Measured (2026-11-28; `cargo run
//! --release -p volley-kernel --example lookahead -- huzzah
//! brigade_assault 40000 SEED 2 attacker.policy=lookahead
//! [lookahead.rounds=R]`; CPU time, the two-core machine at a load of 5
//! to 11, so wall times were 2 to 5 times the CPU's halved):
//!
//! - At the defaults, 128 rounds: the attacker carries 73.29% [72.86,
//!   73.72] of assaults against bold's 70.89% [70.44, 71.33] (seed 7), and
//!   73.30% [72.87, 73.74] against 70.97% [70.53, 71.41] (seed 11): 2.3 to
//!   2.4 points, the intervals apart, in 46 s of CPU (23 s on two quiet
//!   cores; 69 MB). About 26 decisions a fight are asked of the memo, 72.6%
//!   of them found there (1.05 M asked, 289 k worked out). 32 rounds (the
//!   game model's default): 71.43% [70.99, 71.87], no clear gain, in 33 s
//!   of CPU (162 s before the memo, each fight working out its own
//!   decisions from its own dice). 512 rounds: exactly bold's counts in 65
//!   s, never leaving bold's option: the look stops, keeping bold's option,
//!   wherever after a batch of 8 rounds no option leads it by one standard
//!   error, and over 64 batches an option only a little better almost
//!   always dips under that once. So more rounds are not better here; 128
//!   (16 looks) is the most measured that gains.
//! - Where best play solves, the look-ahead closes part of bold's gap
//!   (40,000 fights, seed 7, one thread, against `solve_time`'s exact best
//!   and bold play; under a second each). One column from 3 bands,
//!   manoeuvring (`attacker.units=1 distance=3 purpose=manoeuvre`): over two
//!   turns best play 4.37/18.36 (margin -13.99), bold 4.89/24.54 (-19.65),
//!   the look-ahead 4.90/21.52 (-16.62, ±0.5 at 95%): 54% of the gap (44%
//!   with 32 rounds and each fight's own dice, before the memo); over three
//!   turns best 10.30/31.59, bold 10.61/38.27, the look-ahead 10.43/35.22
//!   (45% of the 6.4 points; 36% before). As an attack, where bold is near
//!   best play, the look-ahead is within its sampling of bold, a little
//!   under it each time: one column from 8 bands over three turns best
//!   7.12, bold 6.83, look-ahead 6.67 (±0.25); from 3 bands 11.12, 10.61,
//!   10.48 (±0.3); two columns from 2 bands over one turn 2.35, 2.28, 2.20
//!   (±0.15). (One step of improvement is never worse than bold with exact
//!   rollout values; with sampled ones a decision may go the wrong way,
//!   which is what these small shortfalls, each under 1.3 standard errors,
//!   may be.) A battery looking ahead (`defender.arm=artillery turns=4`,
//!   the attacker bold) held 46.5% [45.8, 47.2] against bold's 45.9%
//!   [45.2, 46.6] (20,000 fights, 32 rounds, before the memo).
//! - The default defender, a Trained line, takes no decision: looking
//!   ahead it plays bold's every choice, so the defender's play is bold's.
//!
//! So the look-ahead is the better play at the defaults, within the 60 s
//! budget for 40,000 fights (±0.0044 at 95%); `best` still falls back to
//! `bold` there, since the command line's default million fights would
//! take up to 20 minutes of CPU under the look-ahead: ask for it with
//! `attacker.policy=lookahead` and `--samples 40000` or `--precision
//! 0.005`.
//!
//! Why the defaults (two fresh columns from 8 bands over 30 turns) are not
//! solved: the states are too many for a solver that enumerates them, not
//! merely for this one's speed. Best play enumerates every roll and every
//! option, so every state some play can reach is one it must hold. Fights
//! played with real dice and every decision taken at random (`cargo run
//! --release -p volley-kernel --example brigade_reach -- 6400000`, 4
//! minutes) pass through 6.54 million distinct states that start a turn
//! (the most, 475 thousand, at turn 11), and 36.6 million between steps
//! (56 bytes each unpacked: 2 GB for their keys alone), and the count is
//! still growing with the fights (1.6 million fights: 2.68 and 14.2
//! million). The states that start a turn alone are 6.7 times the
//! assault's whole exact graph (0.97 million states, solved in 1.9 s and
//! 510 MB): at its cost per state at least 13 s and 3.4 GB, against a
//! budget of 2 s and 1 GB. (One unit, counted the same way: 0.55 million
//! states that start a turn, a twelfth of the two units'.) Even two
//! turns from 4 bands outgrow the solver's 4 million states under best
//! play (30 s and 1.6 GB before it gives up; bold play 3.2 s and 300 MB).

use super::game::TwoD6;
use super::{
    ADVANCE, ATTACKER_CHECK, ATTACKER_DEPLOY_THREAT, ATTACKER_FORCED, ATTACKER_ORDERS, ATTACKER_REFORM,
    ATTACKER_THREAT, Assault, BOMBARD, BOMBARD_DECISION, DEFENDER_CHECK, DEFENDER_DEPLOY_THREAT, DEFENDER_FORCED,
    DEFENDER_REFORM, DEFENDER_THREAT, ENGAGE_ATTACKER_ROLL, Fire, Formation, LAST_BOMBARD, LastCheck, ORDERS_SPENT,
    PURSUE, Packed, State, TURN_END,
};
use crate::catalogue::ScenarioEntry;
use crate::game::{ATTACKER, DEFENDER, Decision, End, Fate as Chance, Game, NONE, Plan, Played, Policy};
use crate::outcome::{Layout, Metric, WINNERS};
use crate::params::{Param, ParamError, RuleBook, Settings, Value};
use crate::rulesets::huzzah::engagement::{Fate, Fighter, UnitResult, resolve_multi, resolve_with_ratings};
use crate::rulesets::huzzah::multi::Support;
use crate::rulesets::huzzah::standoff::Node;
use crate::rulesets::huzzah::{
    Arm, CommandCheckHuzzah, Officer, Quality, invalid, pair_is_huzzah, pair_total, remaining_percent,
};
use crate::scenario::DynScenario;

mod orders;
mod phases;

/// The most attacking units.
pub const MAX_UNITS: usize = 3;

/// The `lookahead.rounds` key's default: the most rounds of rollouts a side
/// looking ahead plays from each option of a decision. At the defaults 128
/// rounds carry 73.3% of assaults where 32 (the game model's default,
/// [`crate::game::LOOKAHEAD_ROUNDS`]) carried 71.4%, within bold's
/// interval, and 512 none more than bold (see the module documentation).
pub const LOOKAHEAD_DEFAULT_ROUNDS: u32 = 128;

/// The longest assault by one unit whose best play this game solves: 4
/// turns took 3 s of CPU before the assault's own game grouped its rolls.
pub const ONE_UNIT_BEST_TURN_LIMIT: u32 = 3;

/// Whether the solver answers for `units` attacking units over `turns`
/// turns, best play (`best`) or the heuristics', the defender a battery
/// that may bombard (`bombarding`). One unit is the assault, but rolled
/// total by total rather than in the assault's grouped draws: best play up
/// to [`ONE_UNIT_BEST_TURN_LIMIT`] turns, the heuristics up to
/// [`super::EXACT_TURN_LIMIT`]. Against a battery that bombards, best play
/// by one unit solves two turns (from 1, 3, 6, 8, 12 and 20 bands: 80 to
/// 135 s and 2 GB each in the test profile, the machine loaded by other
/// builds) and outgrows the budget over three (from 1, 3 and 8 bands, 4.6
/// GB before it gives up), where the attacker may halt and the battery
/// hold at every chance.
/// Two units multiply the states (each unit's distance, staggers, kills,
/// formation and orders against the other's): measured with `solve_time` at
/// a load of about 4 on this two-core machine, one turn of two columns
/// against a line takes 0.4 s of CPU and 33 MB from 4 to 8 bands, 1.3 s
/// and 71 MB from 1 to 3 bands (best play), and against a battery 1.8 s and
/// 146 MB under bold play but over 29 s and 2 GB under best play (the
/// attacker may halt and the battery hold at every chance); two turns
/// under bold play take 5.8 s and 290 MB from 4 bands and outgrow the
/// 4 million states of the solver's budget from 1 or 2 bands. Three units
/// take 5 to 10 s for one turn, and outgrow the budget from contact. So
/// two units solve one turn (best play only without a bombarding
/// battery), three units none: beyond, `best` plays `bold` and longer
/// fights are sampled.
pub fn solvable(units: usize, turns: u32, best: bool, bombarding: bool) -> bool {
    match units {
        1 if best && bombarding => turns <= 2,
        1 => turns <= if best { ONE_UNIT_BEST_TURN_LIMIT } else { super::EXACT_TURN_LIMIT },
        2 => turns <= 1 && !(best && bombarding),
        _ => false,
    }
}

/// The battery's choice among equally near targets.
pub static TARGET: Decision = Decision {
    name: "target",
    who: "defender",
    doc: "A battery bombarding, where two or more attacking units are equally near legitimate targets \
          (Artillery bombardment: \"The battery must choose the nearest legitimate target\"): which to bombard.",
    options: "each equally near attacking unit, in the order listed",
};

/// The officer's choice of command level for the turn.
pub static COMMAND: Decision = Decision {
    name: "command",
    who: "attacker",
    doc: "The brigade officer, at the start of his orders in a turn with no forced order pending and two or more \
          units he may order (Orders and movement: a brigade officer can \"issue orders to his brigade as one group\" \
          or \"to individual units within his brigade\", and \"An officer who issues orders at one command level \
          cannot then order units at a different level\"): order the brigade as one group (one roll for all, Down 1 \
          if any unit ordered is in an enemy threat zone) or the units one by one.",
    options: "order the units one by one, order the brigade as one group",
};

/// The officer's next order to the brigade as one group.
pub static GROUP_ORDER: Decision = Decision {
    name: "group_order",
    who: "attacker",
    doc: "The brigade officer ordering the brigade as one group (Orders and movement, Procedure and Multiple \
          orders): give no further order, or order it to advance or deploy, rolled at his rating (Down 1 for each \
          order to the group before it this turn) unless a Huzzah! gave a free order.",
    options: "no further order, advance, deploy to line",
};

/// A unit's choice to act on the group's order.
pub static ACT: Decision = Decision {
    name: "act",
    who: "attacker",
    doc: "Each attacking unit in turn, when the brigade's group order succeeded (Orders and movement: \"Provided \
          that one unit acts on the order, other units in a command group need not act on it. If no unit acts on \
          an order, the order fails\"): stand, or act on it (advance one move, or deploy to line).",
    options: "stand, act on the order",
};

static DECISIONS: &[&Decision] = &[&ADVANCE, &PURSUE, &BOMBARD_DECISION, &TARGET, &COMMAND, &GROUP_ORDER, &ACT];

const HALT: u16 = 0;
const MOVE: u16 = 1;
const DEPLOY: u16 = 2;
const FIRE: u16 = 0;
const HOLD: u16 = 1;

/// No ending yet.
const GOING: u64 = u64::MAX;

// The flags of a unit's record.
const OFFICER: u8 = 1;
const FORCED: u8 = 2;
const ROUTING: u8 = 4;
const FREE_ORDER: u8 = 8;
const FIRE_READY: u8 = 16;
const BROKEN: u8 = 32;

/// One attacking unit's part of the fight: the fields of the assault's
/// [`State`] that belong to its attacker.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Record {
    distance: i8,
    staggers: i8,
    kills: i8,
    behind: i8,
    orders: u8,
    formation: u8,
    flags: u8,
}

impl Record {
    fn has(self, flag: u8) -> bool {
        self.flags & flag != 0
    }

    fn set(&mut self, flag: u8, on: bool) {
        if on {
            self.flags |= flag;
        } else {
            self.flags &= !flag;
        }
    }

    fn broken(self) -> bool {
        self.has(BROKEN)
    }
}

fn formation_of(code: u8) -> Formation {
    match code {
        0 => Formation::Line,
        1 => Formation::Column,
        _ => Formation::Square,
    }
}

/// Where the brigade's turn stands beyond the assault's phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Meta {
    /// The unit whose part of a phase comes next (threat tests, orders, rally).
    cursor: u8,
    /// The units the officer has ordered this turn (bits).
    ordered: u8,
    /// The officer failed an order: no further orders this turn.
    done: bool,
    /// Orders the officer has issued this turn.
    issued: u8,
    /// The unit being ordered has just moved into contact (the battery may
    /// fire on it at 1 band: "a moving unit can be bombarded at any stage in
    /// its movement").
    charging: bool,
    /// How the officer orders this turn: [`LEVEL_OPEN`] until he is asked,
    /// [`LEVEL_ASKING`] while he chooses, then [`LEVEL_UNITS`] or
    /// [`LEVEL_GROUP`] ("An officer who issues orders at one command level
    /// cannot then order units at a different level").
    level: u8,
    /// The group order the units are acting on ([`MOVE`] or [`DEPLOY`]; 0
    /// while the officer decides the group's next order).
    acting: u16,
    /// The units that have had their turn on the group's current order (bits).
    acted: u8,
    /// Some unit acted on the group's current order.
    obeyed: bool,
    /// Orders the group has received this turn (Down 1 for each before).
    group_orders: u8,
    /// A Huzzah! on the group's last order: its next is free, and its last.
    group_free: bool,
}

/// The officer has not yet been asked how he orders this turn.
const LEVEL_OPEN: u8 = 0;
/// The officer is choosing whether to order the brigade as one group.
const LEVEL_ASKING: u8 = 1;
/// The officer orders the units one by one.
const LEVEL_UNITS: u8 = 2;
/// The officer orders the brigade as one group.
const LEVEL_GROUP: u8 = 3;

/// A state of the brigade's assault: the assault's state with the attacking
/// fields cleared (the defender's, the brigade's and the phase), each unit's
/// record, where the turn stands, and the ending's code once there is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Brigade {
    shared: Packed,
    units: [Record; MAX_UNITS],
    meta: Meta,
    end: u64,
}

impl Brigade {
    /// The assault's phase the state waits in (for diagnostics: counting
    /// states by phase).
    pub fn phase(&self) -> u8 {
        State::unpack(self.shared).phase
    }
}

/// The working form of a [`Brigade`].
#[derive(Clone, Copy, Debug, PartialEq)]
struct Work {
    s: State,
    units: [Record; MAX_UNITS],
    meta: Meta,
}

/// What a position asks before the fight can go on.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Asks {
    /// A roll for this unit's part of the phase (the assault's step).
    Roll(usize),
    /// The officer's order to this unit.
    Order(usize, &'static Decision),
    /// The battery's fire at the nearest of these units (bits).
    Bombard(u8),
    /// The engagement of these units (bits).
    Engage(u8),
    /// The brigade's command check, focused on this unit.
    Check(usize),
    /// The officer's choice: the brigade as one group, or its units one by one.
    Level,
    /// The officer's next order to the brigade as one group.
    GroupOrder,
    /// This unit's choice to act on the group's order, or not.
    Act(usize),
    /// Nothing: the phase moves on without a roll.
    Nothing,
}

/// The brigade's assault as a game. See the module documentation.
#[derive(Debug)]
pub struct BrigadeGame {
    /// What each side must achieve (the scenario's `purpose` key).
    purpose: crate::game::Purpose,
    /// The assault of the first unit, as built from the keys (its metrics
    /// and turn limit are not used).
    base: Assault,
    /// The assault as each unit sees it: by kind (0 the first unit, 1 its
    /// supports), other units of the brigade lost (broken or routing), and
    /// whether the defender is in more than one threat zone. Breaking is
    /// judged here ([`BrigadeGame::settle`]), so their breaking thresholds
    /// are out of reach.
    variants: Vec<Assault>,
    units: usize,
    /// The first unit's quality and its supports'.
    qualities: [Quality; 2],
    /// The first unit's full rating and the defender's.
    full: [i32; 2],
    two_d6: TwoD6,
    layout: Layout,
    turns: u32,
    stride: u64,
    /// The most rounds of rollouts a side looking ahead plays from each
    /// option (the `lookahead.rounds` key; [`Game::lookahead_rounds`]).
    lookahead_rounds: u32,
    /// Whether a side looks ahead, so that the `lookahead.rounds` key is
    /// read ([`Game::unread_keys`] names it otherwise).
    looked_ahead: bool,
}

impl BrigadeGame {
    /// `units` attacking units (1 to 3), the first as `assault`'s attacker
    /// and the others like it but of `support`'s quality, against its
    /// defender.
    pub fn new(assault: Assault, units: usize, support: Support) -> Result<BrigadeGame, ParamError> {
        if !(1..=MAX_UNITS).contains(&units) {
            return Err(invalid("attacker.units", format!("{units} is outside 1 to {MAX_UNITS} units")));
        }
        let [attacker, defender] = assault.units;
        if attacker.arm != Arm::Infantry {
            return Err(invalid(
                "attacker.arm",
                "brigade_assault models infantry attackers (cavalry's blown and recall orders are the assault's)",
            ));
        }
        if defender.arm == Arm::Cavalry {
            return Err(invalid(
                "defender.arm",
                "brigade_assault models an infantry or artillery defender (defending cavalry is the assault's)",
            ));
        }
        if attacker.brigade > 0 && attacker.brigade < units as i32 + attacker.brigade_lost {
            return Err(invalid(
                "attacker.brigade",
                format!(
                    "a brigade of {} cannot hold {units} attacking units and {} lost: use 0 or at least {}",
                    attacker.brigade,
                    attacker.brigade_lost,
                    units as i32 + attacker.brigade_lost
                ),
            ));
        }
        if units > 1 && attacker.officer != Officer::None {
            return Err(invalid(
                "attacker.officer",
                "an officer attached to a unit orders only that unit (Orders and movement): with several attacking \
                 units the brigade officer orders them, attached to none",
            ));
        }
        let rules = assault.rules.clone();
        let support_quality = support.quality(attacker.quality);
        if units > 1 && attacker.staggers + attacker.kills >= rules.full_rating(support_quality) {
            return Err(invalid(
                "attacker.support_quality",
                "the supporting units' staggers plus kills must stay below their full rating",
            ));
        }
        let base = assault.with_fire(Fire::Now);
        let mut variants = Vec::with_capacity(2 * MAX_UNITS * 2);
        for kind in 0..2 {
            for lost in 0..MAX_UNITS as i32 {
                for crowded in [false, true] {
                    let mut variant = base.clone();
                    if kind == 1 {
                        variant.units[0].quality = support_quality;
                    }
                    if attacker.brigade > 0 {
                        variant.units[0].brigade_lost += lost.min(attacker.brigade - 1 - attacker.brigade_lost);
                    }
                    if crowded {
                        // "Down 1 if in more than one threat zone."
                        variant.units[1].shifts -= variant.rules.threat_more_than_one_zone_down;
                    }
                    variant.full = [i32::from(i8::MAX); 2];
                    variants.push(variant);
                }
            }
        }
        let qualities = [attacker.quality, support_quality];
        let full = [rules.full_rating(attacker.quality), rules.full_rating(defender.quality)];
        let turns = base.turns;
        let most = units as i64;
        let layout = Layout::new(vec![
            Metric::categories(
                "winner",
                "whose enemy broke: attacker, defender or none by the turn limit; under `purpose = attack` every fight the attacker does not win is the defender's (`ended` says how each ended)",
                WINNERS,
            ),
            Metric::integer("turns", "the turn it ended (the limit if undecided)", 1, i64::from(turns)),
            Metric::integer("attacker_staggers", "the attacking units' staggers at the end, in all", 0, 30 * most),
            Metric::integer("attacker_kills", "the attacking units' kills at the end, in all", 0, 15 * most),
            Metric::integer("defender_staggers", "the defender's staggers at the end", 0, 30),
            Metric::integer("defender_kills", "the defender's kills at the end", 0, 15),
            Metric::integer(
                "attacker_remaining",
                "percent of the attacking units' breaking thresholds, added up, not yet used",
                0,
                100,
            ),
            Metric::integer("defender_remaining", "percent of the defender's breaking threshold not yet used", 0, 100),
            Metric::boolean("engaged", "whether the units engaged at least once"),
            Metric::integer(
                "attacker_routing",
                "attacking units that are routing mobs at the end (one broken while routing counts)",
                0,
                most,
            ),
            Metric::boolean("defender_routing", "whether the defender is a routing mob at the end"),
            Metric::integer("attacker_broken", "attacking units broken", 0, most),
        ]);
        let mut game = BrigadeGame {
            purpose: crate::game::Purpose::Manoeuvre,
            base,
            variants,
            units,
            qualities,
            full,
            two_d6: TwoD6::new(),
            layout,
            turns,
            stride: 0,
            lookahead_rounds: LOOKAHEAD_DEFAULT_ROUNDS,
            looked_ahead: false,
        };
        game.stride = {
            let w = game.start_work();
            game.code(ATTACKER, 2.min(turns), &w) - game.code(ATTACKER, 1, &w)
        };
        Ok(game)
    }

    /// The assault this game extends.
    pub fn assault(&self) -> &Assault {
        &self.base
    }

    /// A unit's breaking threshold: its quality's full rating.
    fn full_of(&self, unit: usize) -> i32 {
        self.base.rules.full_rating(self.qualities[usize::from(unit > 0)])
    }

    fn index(&self, kind: usize, lost: usize, crowded: bool) -> usize {
        (kind * MAX_UNITS + lost) * 2 + usize::from(crowded)
    }

    fn alive(&self, w: &Work) -> impl Iterator<Item = usize> + '_ {
        let units = w.units;
        (0..self.units).filter(move |&i| !units[i].broken())
    }

    /// The assault as unit `unit` sees it now: its kind, the brigade's other
    /// units lost, and the defender's threat zones.
    fn variant(&self, w: &Work, unit: usize) -> &Assault {
        let lost = (0..self.units).filter(|&j| j != unit && (w.units[j].broken() || w.units[j].has(ROUTING))).count();
        let crowded = self.threatening(w).count_ones() > 1;
        &self.variants[self.index(usize::from(unit > 0), lost, crowded)]
    }

    /// The assault of `unit` for its engagement, where the defender's Ups
    /// and Downs are its own.
    fn plain(&self, unit: usize) -> &Assault {
        &self.variants[self.index(usize::from(unit > 0), 0, false)]
    }

    /// The attacking units whose threat zone holds the defender (bits).
    fn threatening(&self, w: &Work) -> u8 {
        (0..self.units)
            .filter(|&i| !w.units[i].broken() && self.base.in_zone_of(&self.load(w, i), 0))
            .fold(0, |bits, i| bits | 1 << i)
    }

    /// The unit the defender's phases are taken against: the nearest whose
    /// threat zone holds it, else the nearest (the first listed of equals).
    fn defender_focus(&self, w: &Work) -> usize {
        let threatening = self.threatening(w);
        let nearest =
            |among: u8| (0..self.units).filter(|&i| among & (1 << i) != 0).min_by_key(|&i| (w.units[i].distance, i));
        let alive = (0..self.units).filter(|&i| !w.units[i].broken()).fold(0u8, |bits, i| bits | 1 << i);
        nearest(threatening).or_else(|| nearest(alive)).expect("a live fight has an attacking unit")
    }

    /// The assault's state of unit `unit`.
    fn load(&self, w: &Work, unit: usize) -> State {
        let mut s = w.s;
        let u = w.units[unit];
        s.distance = u.distance;
        s.strength[0] = u.staggers;
        s.strength[1] = u.kills;
        s.behind[0] = u.behind;
        s.orders = u.orders;
        s.formation[0] = formation_of(u.formation);
        s.officer[0] = u.has(OFFICER);
        s.forced[0] = u.has(FORCED);
        s.routing[0] = u.has(ROUTING);
        s.free_order = u.has(FREE_ORDER);
        s.fire_ready = u.has(FIRE_READY);
        s
    }

    /// Takes back unit `unit`'s state after a step: its record, and the
    /// shared part; a defender that moved moves away from (or towards) the
    /// other units too.
    fn store(&self, w: &mut Work, unit: usize, t: State) {
        let moved = w.s.behind[1] - t.behind[1];
        if moved != 0 {
            for j in 0..self.units {
                if j != unit && !w.units[j].broken() {
                    w.units[j].distance += moved;
                }
            }
        }
        let u = &mut w.units[unit];
        u.distance = t.distance;
        u.staggers = t.strength[0];
        u.kills = t.strength[1];
        u.behind = t.behind[0];
        u.orders = t.orders;
        u.formation = t.formation[0] as u8;
        u.set(OFFICER, t.officer[0]);
        u.set(FORCED, t.forced[0]);
        u.set(ROUTING, t.routing[0]);
        u.set(FREE_ORDER, t.free_order);
        u.set(FIRE_READY, t.fire_ready);
        debug_assert!(!t.blown[0] && !t.out_of_control[0] && !t.rare.recall(0), "no attacking cavalry");
        w.s = t;
    }

    fn start_work(&self) -> Work {
        let s = self.base.start();
        let mut record = Record::default();
        let mut w = Work { s, units: [record; MAX_UNITS], meta: Meta::default() };
        self.store(&mut w, 0, s);
        record = w.units[0];
        for i in 1..MAX_UNITS {
            w.units[i] = if i < self.units { record } else { Record { flags: BROKEN, ..Record::default() } };
        }
        w
    }

    /// The outcome code at turn `turn` (a code at turn 1 plus strides).
    fn code(&self, winner: u8, turn: u32, w: &Work) -> u64 {
        let (mut staggers, mut kills, mut left, mut full, mut routing, mut broken) = (0, 0, 0, 0, 0, 0);
        for i in 0..self.units {
            let u = w.units[i];
            let unit_full = self.full_of(i);
            staggers += i64::from(u.staggers);
            kills += i64::from(u.kills);
            left += i64::from((unit_full - i32::from(u.staggers) - i32::from(u.kills)).max(0));
            full += i64::from(unit_full);
            routing += i64::from(u.has(ROUTING));
            broken += i64::from(u.broken());
        }
        let s = &w.s;
        self.layout.encode(&[
            i64::from(winner),
            i64::from(turn),
            staggers,
            kills,
            i64::from(s.strength[2]),
            i64::from(s.strength[3]),
            (left * 100 / full.max(1)).clamp(0, 100),
            remaining_percent(self.full[1], i32::from(s.strength[2]), i32::from(s.strength[3])),
            i64::from(s.engaged),
            routing,
            i64::from(s.routing[1]),
            broken,
        ])
    }

    /// Marks the units whose staggers and kills reach their full rating as
    /// broken, and ends the fight when the defender has broken or every
    /// attacking unit has.
    fn settle(&self, mut w: Work) -> Node<Work> {
        for i in 0..self.units {
            let u = w.units[i];
            if !u.broken() && i32::from(u.staggers) + i32::from(u.kills) >= self.full_of(i) {
                self.break_unit(&mut w, i);
            }
        }
        let defender_broken = i32::from(w.s.strength[2]) + i32::from(w.s.strength[3]) >= self.full[1];
        let attackers_broken = self.alive(&w).next().is_none();
        match (defender_broken, attackers_broken) {
            (true, true) => Node::End(self.code(NONE, 1, &w)),
            (true, false) => Node::End(self.code(ATTACKER, 1, &w)),
            (false, true) => Node::End(self.code(DEFENDER, 1, &w)),
            (false, false) => Node::Live(w),
        }
    }

    /// Unit `unit` is broken and removed: it keeps only its staggers and
    /// kills, and whether it was routing, for the metrics.
    fn break_unit(&self, w: &mut Work, unit: usize) {
        let u = w.units[unit];
        w.units[unit] =
            Record { staggers: u.staggers, kills: u.kills, flags: BROKEN | (u.flags & ROUTING), ..Record::default() };
    }

    /// An ending of an assault step taken on unit `unit`'s view: a unit
    /// moved off the table (no unit breaks there otherwise: the variants'
    /// thresholds are out of reach). The code holds both units' staggers,
    /// kills and routing: they are taken back, and the unit that left breaks.
    fn absorb(&self, mut w: Work, a: &Assault, unit: usize, code: u64) -> Node<Work> {
        let mut values = [0i64; 11];
        a.layout.decode(code, &mut values);
        let u = &mut w.units[unit];
        (u.staggers, u.kills) = (values[2] as i8, values[3] as i8);
        u.set(ROUTING, values[9] == 1);
        (w.s.strength[2], w.s.strength[3]) = (values[4] as i8, values[5] as i8);
        w.s.routing[1] = values[10] == 1;
        w.s.engaged = values[8] == 1;
        match values[0] {
            0 => {
                // The defender left the table: broken.
                let winner = if self.alive(&w).next().is_none() { NONE } else { ATTACKER };
                Node::End(self.code(winner, 1, &w))
            }
            _ => {
                self.break_unit(&mut w, unit);
                self.settle(w)
            }
        }
    }

    /// Runs an assault step on unit `unit`'s view and takes it back.
    fn on_unit(&self, mut w: Work, unit: usize, step: impl FnOnce(&Assault, State) -> Node<State>) -> Node<Work> {
        let a = self.variant(&w, unit);
        match step(a, self.load(&w, unit)) {
            Node::Live(t) => {
                self.store(&mut w, unit, t);
                self.settle(w)
            }
            Node::End(code) => self.absorb(w, a, unit, code),
        }
    }

    /// Forgets what can no longer matter, so that equal situations merge:
    /// the orders and free order of a unit the officer has moved on from
    /// (he cannot return to it), the officer's count of orders where no
    /// forced order waits for it, the battery's readiness when it has no
    /// bombardment left; and, where the units are alike, their order at the
    /// start of a turn and of the phases that take them all at once: the
    /// nearest first (which is then the order the officer orders them in).
    fn canonical(&self, w: &mut Work) {
        let ordering =
            matches!(w.s.phase, ATTACKER_FORCED | ATTACKER_DEPLOY_THREAT | ATTACKER_ORDERS | BOMBARD | LAST_BOMBARD);
        if ordering {
            let cursor = usize::from(w.meta.cursor);
            for i in 0..self.units {
                if i != cursor && w.meta.ordered & (1 << i) != 0 {
                    w.units[i].orders = 0;
                    w.units[i].set(FREE_ORDER, false);
                }
            }
            let waiting = (0..self.units)
                .any(|i| w.meta.ordered & (1 << i) == 0 && !w.units[i].broken() && w.units[i].has(FORCED));
            if !waiting {
                w.meta.issued = 0;
            }
        }
        if w.s.bombardments == 0 {
            for i in 0..self.units {
                if !w.units[i].broken() {
                    w.units[i].set(FIRE_READY, true);
                }
            }
        }
        let whole = match w.s.phase {
            ATTACKER_THREAT | ATTACKER_REFORM => w.meta.cursor == 0,
            ENGAGE_ATTACKER_ROLL | ATTACKER_CHECK | TURN_END => true,
            phase => phase >= DEFENDER_THREAT,
        };
        if whole && self.qualities[0] == self.qualities[1] {
            let key =
                |u: &Record| (u.broken(), u.distance, u.staggers, u.kills, u.behind, u.formation, u.flags, u.orders);
            w.units[..self.units].sort_by_key(key);
        }
    }

    fn pack(&self, w: &Work) -> Brigade {
        let mut w = *w;
        self.canonical(&mut w);
        let mut s = w.s;
        // The attacking fields belong to the records.
        s.distance = 0;
        s.strength[0] = 0;
        s.strength[1] = 0;
        s.behind[0] = 0;
        s.orders = 0;
        s.formation[0] = Formation::Line;
        s.officer[0] = false;
        s.forced[0] = false;
        s.routing[0] = false;
        s.free_order = false;
        s.fire_ready = false;
        s.tester = 0;
        s.huzzahs = 0;
        s.engage_pair = 0;
        Brigade { shared: s.pack(), units: w.units, meta: w.meta, end: GOING }
    }

    fn unpack(&self, b: &Brigade) -> Work {
        Work { s: State::unpack(b.shared), units: b.units, meta: b.meta }
    }

    /// How the fight whose outcome code is `code` ended: the winner is the
    /// layout's first metric, and nobody's win within a step is both
    /// sides breaking at once.
    fn end_of(&self, code: u64) -> End {
        match self.layout.value(code, 0) as u8 {
            ATTACKER => End::Attacker,
            DEFENDER => End::Defender,
            _ => End::BothBroke,
        }
    }
}

impl BrigadeGame {
    /// This fight under `purpose`: what each side must achieve by the turn
    /// limit ([`crate::game::Purpose`]).
    pub fn with_purpose(mut self, purpose: crate::game::Purpose) -> Self {
        self.purpose = purpose;
        self
    }

    /// This fight with a side looking ahead playing at most `rounds` rounds
    /// of rollouts from each option of a decision (the `lookahead.rounds`
    /// key), where `looked_ahead` (some side plays `lookahead`).
    pub fn with_lookahead_rounds(mut self, rounds: u32, looked_ahead: bool) -> Self {
        self.lookahead_rounds = rounds;
        self.looked_ahead = looked_ahead;
        self
    }
}

impl Game for BrigadeGame {
    type State = Brigade;

    fn purpose(&self) -> crate::game::Purpose {
        self.purpose
    }

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn start(&self) -> Brigade {
        self.pack(&self.start_work())
    }

    fn steps(&self) -> u32 {
        self.turns
    }

    fn starts_turn(&self, b: &Brigade) -> bool {
        let s = State::unpack(b.shared);
        s.phase == ATTACKER_THREAT && b.meta.cursor == 0
    }

    fn step<F: Chance>(&self, b: &mut Brigade, fate: &mut F) -> Option<End> {
        let mut node = self.quiet(Node::Live(self.unpack(b)));
        if let Node::Live(w) = node
            && w.s.phase != TURN_END
        {
            let asks = self.asks(&w);
            node = self.quiet(self.input(w, asks, fate));
        }
        match node {
            Node::End(code) => {
                *b = Brigade {
                    shared: Packed(0, 0),
                    units: [Record::default(); MAX_UNITS],
                    meta: Meta::default(),
                    end: code,
                };
                Some(self.end_of(code))
            }
            Node::Live(mut w) => {
                if w.s.phase == TURN_END {
                    w.s = Assault::new_turn(w.s);
                    w = self.forget_orders(w);
                }
                *b = self.pack(&w);
                None
            }
        }
    }

    fn code(&self, winner: u8, steps: u32, b: &Brigade) -> u64 {
        // The winner under the purpose, whatever the step's code said.
        if b.end == GOING {
            self.code(winner, steps, &self.unpack(b))
        } else {
            self.layout.with_value(b.end + u64::from(steps - 1) * self.stride, 0, i64::from(winner))
        }
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        DECISIONS
    }

    fn fallback(&self) -> Policy {
        Policy::Bold
    }

    fn lookahead_rounds(&self) -> u32 {
        self.lookahead_rounds
    }

    fn unread_keys(&self) -> Vec<(String, String)> {
        if self.looked_ahead {
            return Vec::new();
        }
        vec![("lookahead.rounds".to_string(), "no side plays lookahead".to_string())]
    }

    fn solvable(&self, plan: Plan) -> bool {
        let bombarding = self.base.units[1].arm == Arm::Artillery && self.base.bombardments > 0;
        solvable(self.units, self.turns, plan.wants_solver(), bombarding)
    }

    fn describe_state(&self, b: &Brigade, _side: u8) -> String {
        let w = self.unpack(b);
        let units: Vec<String> = (0..self.units)
            .map(|i| {
                let u = w.units[i];
                if u.broken() {
                    return "broken".to_string();
                }
                let formation = if formation_of(u.formation) == Formation::Line { "line" } else { "column" };
                let routing = if u.has(ROUTING) { " (routing)" } else { "" };
                format!("{formation}{routing} {} bands off, {} staggers {} kills", u.distance, u.staggers, u.kills)
            })
            .collect();
        let s = &w.s;
        let defender = if self.base.units[1].arm == Arm::Artillery { "a battery" } else { "infantry" };
        format!(
            "{} against {defender} ({} staggers {} kills{})",
            units.join("; "),
            s.strength[2],
            s.strength[3],
            if s.routing[1] { ", routing" } else { "" }
        )
    }

    fn describe_option(&self, decision: &'static Decision, option: u16) -> String {
        match decision.name {
            "advance" => ["halt", "advance one move", "deploy to line"][usize::from(option).min(2)].to_string(),
            "pursue" => ["hold the ground", "pursue"][usize::from(option).min(1)].to_string(),
            "bombard" => ["fire", "hold fire"][usize::from(option).min(1)].to_string(),
            "command" => {
                ["order the units one by one", "order the brigade as one group"][usize::from(option).min(1)].to_string()
            }
            "group_order" => ["no further order", "order the group to advance", "order the group to deploy to line"]
                [usize::from(option).min(2)]
            .to_string(),
            "act" => ["stand", "advance one move", "deploy to line"][usize::from(option).min(2)].to_string(),
            _ => format!("attacking unit {}", option + 1),
        }
    }
}

/// The `attacker.brigade` value that means the brigade as the scenario
/// holds it: its attacking units and `attacker.brigade_lost`.
pub const OWN_BRIGADE: i64 = -1;

/// The settings with `attacker.brigade` at [`OWN_BRIGADE`] replaced by the
/// brigade's size: its attacking units and the units it has lost.
fn with_own_brigade(settings: &Settings) -> Result<Settings, ParamError> {
    if settings.int("attacker.brigade") != OWN_BRIGADE {
        return Ok(settings.clone());
    }
    let own = settings.int("attacker.units") + settings.int("attacker.brigade_lost");
    let params = entry().params;
    Settings::from_values(
        &params,
        settings
            .iter()
            .map(|(key, value)| (key, if key == "attacker.brigade" { Value::Int(own) } else { value.clone() })),
    )
    .map_err(|_| {
        invalid(
            "attacker.brigade_lost",
            format!(
                "a brigade of {own} units (the attacking units and those lost) is more than 8: set attacker.brigade"
            ),
        )
    })
}

fn build(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let settings = &with_own_brigade(settings)?;
    let assault = super::assault_from_settings(rules, settings)?;
    let game = BrigadeGame::new(
        assault,
        settings.int("attacker.units") as usize,
        settings.choice::<Support>("attacker.support_quality"),
    )?;
    let plan = Plan::from_settings(settings);
    if plan.looks_ahead() && plan.wants_solver() && game.solvable(plan) {
        // A look-ahead is sampled against a fixed opponent; best play,
        // where it solves, is a table solved against a play it knows.
        let best = if plan.policy[0] == Policy::Best { "attacker" } else { "defender" };
        return Err(invalid(
            format!("{best}.policy"),
            "best play solves here but not against a side that looks ahead (sampled): set it to bold, cautious or \
             lookahead, or both sides to best",
        ));
    }
    let rounds = settings.int("lookahead.rounds") as u32;
    let game = game
        .with_purpose(crate::game::Purpose::from_settings(settings))
        .with_lookahead_rounds(rounds, plan.looks_ahead());
    Ok(Box::new(Played::new(game, plan)))
}

/// The `brigade_assault` scenario.
pub fn entry() -> ScenarioEntry {
    let mut params = vec![
        Param::int(
            "attacker.units",
            "attacking infantry units of the brigade, alike but for support_quality, side by side",
            2,
            1,
            MAX_UNITS as i64,
        ),
        Param::choice(
            "attacker.support_quality",
            "quality of the attacking units after the first (same: all alike)",
            Support::Same,
        ),
    ];
    params.extend(super::assault_params());
    // The policies as they play here, `lookahead` offered.
    let policies = crate::game::plan_params_with_lookahead(
        "the officer orders the brigade as one group where its roll is no harder than any unit's own, every order \
         an advance and every unit acting on it, each unit advancing on into contact and pursuing; a battery fires \
         at every chance",
        "the officer orders the units one by one, each halting at the edge of the defender's threat zone until one \
         advance reaches contact; a battery fires only within its threat zone",
        "bold improved by one step: at each decision every option is tried in rollouts played bold from there, \
         and the one that does clearly best is taken, each situation's decision worked out once for all fights; \
         about 1.2 ms of CPU a fight at the defaults (73.3% of assaults carried against bold's 70.9%), so ask \
         for --precision 0.005 or --samples 40000 rather than the million fights sampled by default",
    );
    for param in &mut params {
        if let Some(policy) = policies.iter().find(|p| p.name == param.name && p.name.ends_with(".policy")) {
            *param = policy.clone();
        }
    }
    params.push(Param::int(
        "lookahead.rounds",
        "the most rounds of rollouts a side playing lookahead plays from each option of a decision (each round \
         every option once on the same dice; it stops early where after 8 rounds no option leads bold's); more \
         rounds tell smaller differences apart and cost time only for the situations first met",
        i64::from(LOOKAHEAD_DEFAULT_ROUNDS),
        2,
        4096,
    ));
    // The brigade's size defaults to the brigade the scenario holds, so that
    // its command checks are taken ("Command integrity check").
    for param in &mut params {
        if param.name == "attacker.brigade" {
            *param = Param::int(
                "attacker.brigade",
                "units in the attacking brigade, for command checks and isolation: -1 (the default) the attacking \
                 units and attacker.brigade_lost, the brigade as the scenario holds it; 0 no command checks and no \
                 isolation (the brigade's command outside the scenario); or a larger brigade, its other units \
                 standing outside the fight",
                OWN_BRIGADE,
                OWN_BRIGADE,
                8,
            );
        }
    }
    ScenarioEntry {
        name: "brigade_assault",
        summary: "Two or three units of a brigade advance on one defender through threat tests, orders and bombardment and engage it together, with rally and the brigade's command checks (its size its own units by default: `attacker.brigade`).",
        params,
        build,
    }
}
