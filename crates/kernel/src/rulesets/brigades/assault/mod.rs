//! The `assault` and `cavalry_charge` scenarios: a charger (an infantry column
//! or line, or cavalry) closes on a standing infantry unit from a distance,
//! through its fire; tests to charge home (5.4 (2)); the defender tests on
//! being charged by a steady enemy (5.4 (3)); then combat rounds, one a turn
//! (2.1 phase 6), the loser testing each time (5.4 (4)), until one side routs
//! or shatters, or the turn limit. Both are games on the kernel's decision
//! model (below): the sampler, the exact law and best play run the same turn
//! logic.
//!
//! Order of one turn while approaching: the charger moves its move (2.11;
//! cavalry's charge move once within it), or, where a full move would end
//! nearer than the edge of its charge reach, halts at that edge if it
//! chooses (its `approach` decision, below); if it has not reached the defender
//! it is shot at the band its distance gives, and tests after 2 hits. On the
//! charge turn the defender fires at `defensive_fire_band`; the charger takes
//! its hits, shatters at 3/4 losses, or takes its one test (2 hits, or charging
//! home frontally at steady infantry or hard cover); a pass brings contact,
//! and the defender tests if the charger is steady; combat follows in the same
//! turn. In the first round the charger is steady (grade A-E) and cavalry
//! fresh; infantry not in a steady square contacted by steady cavalry are
//! disordered (2.3), and so are cavalry contacting a steady square and a
//! square contacted by steady infantry. After one round both are disordered
//! (2.3) and stay so. A line may form square in the first turn
//! (`forms_square`), pinned (7.3) if the cavalry is within 4".
//!
//! Infantry charging a square (`assault` with `defender.formation = square`):
//! the square shows one face to the charger, a quarter of its figures
//! (`square_face`), which is all that fires (3.1 one rank; 3.3 in square -1)
//! and all that fights it (4.10: "count only the figures on the face of the
//! square in contact with that enemy unit"). The charger tests to charge
//! home against a steady square as against any steady infantry (5.4 (2),
//! 5.6 -2; a square faces every way, so every charge on it is frontal and
//! none is a flank charge, 4.6); the square tests on being charged by a
//! steady enemy (5.4 (3), 5.6 -3: no exemption, which 2.3 gives only against
//! cavalry, which a steady square disorders), and is disordered by the
//! contact (2.3 "infantry in square are contacted by steady enemy
//! infantry"), so it fights the first round at -2 against the steady charger
//! (4.2). No combat modifier of 4.2 names a square against infantry, and its
//! +1 on morale (5.6) is against shooting hits only, which a charge without
//! fire never gives it here.
//!
//! Infantry charging cavalry (`assault` with `defender.arm = cavalry`): the
//! cavalry cannot shoot (3.1), evade (2.7 names skirmishers, gunners and
//! limbered horse guns only) or countercharge (2.6), and does not test on
//! being charged (5.4 (3) names infantry); the infantry does not test to
//! charge home (5.4 (2): cavalry is not steady infantry). The infantry is
//! disordered from the start of its charge (2.3 "infantry starting a charge
//! against cavalry"), so -2 against the steady cavalry in the first round;
//! the cavalry strikes with its front rank, a die per figure against
//! unsquared infantry in the open (4.1), +3 if steady against unsquared
//! infantry (the infantry -3), caught stationary -2 unless it advanced 2"
//! in its last move (4.4), lancers +2 if steady, all in the first round
//! (`charged_cavalry`: `as_printed`; `no_shock` gives it a die per three
//! and no +3/-3). The scenario's cavalry stands while the infantry
//! approaches (cavalry that charges first is `cavalry_charge`). Infantry
//! never pursues cavalry (7.4); the cavalry may pursue the infantry, and
//! with the bounce (7.1) recoils when it fails to inflict more hits than it
//! took.
//!
//! A town block (`defender.block`, its capacity, 6.4): infantry holding it,
//! no more figures than it holds (6.4.1), is unsteady inside it (6.4.1), so
//! the charger does not test to charge home unless the block is hard cover
//! (5.4 (2); `defender.block_cover`: soft, "usually", or hard, "in special
//! cases such as La Haye Sainte", 6.4.2, which also give -2 or -3 to the
//! attacker's combat, 4.2). Half its figures fire at the charger ("up to
//! half the figures may shoot out any side of a block", 6.4.4). Only
//! infantry attacks a block (6.4.1); it is unsteady once in contact (6.4.1),
//! so the garrison does not test on being charged (5.4 (3)). All the
//! garrison's figures fight, and all the attacker's, "regardless of the
//! unit's formation or depth", up to 1.5 times the block's capacity against
//! one side (6.4.4). Neither side being steady, no disordered-vs-steady
//! modifier applies. A garrison that routs vacates its block (6.4.4): the
//! attacker has taken it. Skirmishers in a block are not overrun (4.11).
//!
//! Two chargers (`attacker.units = 2`, alike, side by side at one distance,
//! moving and charging together at a close-order line). Beyond charge reach
//! they approach (2.1: the attacker moves all its units in its phase, so one
//! decision moves both): each turn they close the full move, or, where that
//! would end nearer than the edge of their charge reach, halt at that edge
//! (the `approach` decision). The line shoots them where they stand (3.8, as
//! the single charger), and, not being charged, "must concentrate its fire
//! onto one target" (3.10): all its dice at one of them, its `target`
//! decision (3.10's secondary target is for figures that cannot hit the
//! first, and side by side both are in every firer's arc and range). The
//! charger shot tests after 2 hits (5.4 (1)); one that routs or shatters is
//! out, and the other goes on alone. Within reach, those still in charge:
//! the line "must split its fire as evenly as possible among all the targets
//! charging it" (3.10) and "must shoot first at any enemies charging it"
//! (3.8), so its dice go half to each, or all to the one charger left; the
//! odd die, where the approach left them unequal, goes toward the one with
//! more figures (`split_odd_die`: `more_figures`, 4.5's rounding; `chosen`,
//! the line's `target` decision); each charger takes its own hits,
//! shatters, and tests (5.4 (1), (2)) on its own; the line tests once on
//! being charged (2.1: one test a phase) if any arrives; in each round it
//! divides its combat dice among the chargers in contact, the odd die toward
//! the one with more figures in combat (4.5), each charger striking with all
//! its dice, and every unit that lost more hits than it inflicted tests (5.4
//! (4), per unit). A lone charger (its partner out on the approach) fights
//! the line as two chargers with one out: all the line's fire and combat
//! dice at it (3.8, 3.10, 4.5 with one target). The fight ends when the
//! line routs or shatters or both chargers are out; the attacker's
//! `routed`/`shattered` mean either charger's (also at the turn limit, with
//! the other still fighting), its `remaining` both together. Not played
//! with two: one charging while the other holds back (they move as one),
//! squares (a face a charger), flank charges, an attached general, national
//! modifiers, pursuit and the bounce; those keys are refused.
//!
//! Two chargers on their approach, start-distance jumps: two 8-figure
//! columns against a 16-figure line (tests/brigades/approach.rs, 6 turns)
//! win 0.477 from 8" or less (they charge at once, shot once with the dice
//! split) and 0.428 from 9" to 16": best play halts at 8", the edge of a
//! column's reach, so the pair takes one concentrated far volley (9-10)
//! rather than a close one (7-10) before it charges; no step reaches 10
//! points. Two regiments of 6 heavy cavalry against a 12-figure line (4
//! turns) halt at 16", out of musket range, from 17" to 26", and the
//! distance costs them only turns of the limit (0.948, 0.948, 0.946).
//!
//! Cavalry against cavalry (`cavalry_charge` with `defender.arm` cavalry):
//! the defender cannot shoot (3.1), the charger does not test to charge home
//! and the defender does not test on being charged (5.4); both strike with
//! all their figures (two ranks, 4.1, of a one-rank line), a die per three;
//! heaviness counts every round (4.3); in the first round the defender is
//! caught stationary unless it advanced 2" (4.4; there are no countercharges,
//! 2.6), steady lancers strike at +2, and fresh cavalry gets +2 only against
//! an enemy that is not fresh. With the cavalry bounce (7.1) a loser that
//! did not rout recoils, and the winner rolls to resist pursuit or follows
//! up: the melee goes on next turn, round after round, until a rout, a
//! shattering, a winner that holds, or a round of equal hits (both recoil).
//! Pursuit (7.4) works either way round, but never after faster cavalry.
//!
//! # On the decision model
//!
//! Both scenarios are [`crate::game`] games, a step a turn, the turn logic
//! written once against a [`Fate`] with the ruleset's random events on it
//! ([`Roller`]). The attached generals' charisma is rolled in the first step.
//! The decisions:
//!
//! - `square` (defender, `defender.formation = forms_square`): each turn the
//!   cavalry is not yet in contact, in its own movement phase, the line stays
//!   in line or forms square (2.12; pinned within 4" under 7.3). Cavalry
//!   within charge reach that wins the initiative (2.1: each side a D10,
//!   ties rerolled, so half the time) moves first and charges before the
//!   line can form (no emergency square); out of reach, the line may form
//!   whoever moves first (`square_initiative`: `rolled`, default; `always`
//!   lets the line move first every turn, the scenario before the decision
//!   model). Bold never forms; cautious forms at once.
//! - `charge` (attacker, against skirmishers or gunners that may evade,
//!   `defender.evades`): within charge reach but farther than 2" (infantry)
//!   or 4" (cavalry), charge now, when they may evade, or close to that
//!   distance first, under their fire, so that the next charge catches them
//!   (2.8). Bold charges; cautious closes.
//! - `hold` (attacker, one charger within its charge reach, asked before
//!   `charge`): charge, or hold where it stands this turn (2.6: "a charge
//!   is simply a normal move that is made to contact the enemy", and no
//!   rule obliges a unit to make one), shot at where it stands (3.8).
//!   Both heuristics charge (the play before the decision; a charger that
//!   never charged would stall every fight to the limit). Under the
//!   default purpose, `attack`, holding never takes the position, so best
//!   play charges wherever a charge has any chance, and holds only where
//!   none has: cavalry before a formed square charges (it wins a little),
//!   while playing for the margin (`purpose = manoeuvre`) or standing its
//!   ground it holds, as a player would (test
//!   `cavalry_may_hold_rather_than_charge_a_square`).
//! - `evade` (defender, skirmishers or gunners charged from beyond those
//!   distances): stand, or shoot at the evading penalty and get away. Bold
//!   stands; cautious evades.
//! - `pursue` (either side, with `optional_pursuit`): infantry that routed
//!   its enemy in combat pursues only if it wants to (7.4; never cavalry),
//!   at the same rout hit's cost as cavalry (`pursuit_cost`: 7.4's
//!   disorganization is the pursuer's, whatever its arm). Bold pursues;
//!   cautious holds. Cavalry still rolls to resist pursuit.
//! - `approach` (attacker, one charger or two beyond charge reach, where
//!   the full move would end nearer than the edge of the reach): close the
//!   full move, or halt at the edge (2.11), from where next turn's charge
//!   lands just the same, to be shot at from farther (3.2's bands). Bold
//!   closes (the single charger's only play before the decision, so its
//!   bold values are those of old); cautious halts. The full move of a
//!   charger that does not charge stops 2" short (2.2: "A unit may not
//!   approach within 2\" of an enemy unit unless charging at that unit";
//!   a column 9" off once stood 1" from the line; no result changes, the
//!   bands at 1" and 2" being the same). Not offered when the
//!   charger closes under `charge` (to where skirmishers cannot evade). A
//!   French or Spanish column that halts short is not "advancing full
//!   speed" (7.11) and goes without its bonus vs. that volley. The default
//!   column from 12" halts at 8" and takes a far volley (0.2) rather than a
//!   close one (0.4) from 4": against the default line (6 turns) it wins
//!   0.2249 from 9" to 16" where the full move gave 0.1728 from 9" to 12".
//! - `target` (defender, two chargers approaching and neither charging, both
//!   in the fight): all its fire at the first or at the second (3.10:
//!   "concentrate its fire onto one target"). Bold shoots the one with
//!   fewer figures, to break it; cautious the one with more, the greater
//!   threat; the first when equal. Under `split_odd_die = chosen` the same
//!   decision gives the odd die of its split fire at two chargers.
//!
//! The turn limit (`turns`, 10): a fight still going has no winner unless a
//! side is being pursued (it has routed, and its pursuer wins). The only
//! decision the limit can turn is the charger's closing first, which costs
//! it a turn: on the last turn closing means no charge at all. The
//! start-distance sweeps (tests/brigades/decisions.rs) run at 4 turns, more
//! than any charge here needs to land (cavalry reaches 16"-20" in one turn,
//! a column 8"; the sweeps stop at 30" and 18").
//!
//! A single column on its approach (tests/brigades/approach.rs, the default
//! 24 against 24, 6 turns): 0.2608 from 8" or less, where it charges at
//! once; 0.2249 from 9" to 24", best play halting at the edge of its reach
//! (8") each time a full move would end nearer. Before the `approach`
//! decision, 9"-12" and 17"-20" gave 0.1728 (a close volley from 4"), a
//! step of 8.8 points from 8" to 9" that best play now makes 3.6; no step
//! reaches 10 points, and none of the sweeps in tests/brigades/decisions.rs
//! gains a jump (from beyond charge reach they rise by about 5 points at
//! most, where a full move ended within close range).
//!
//! Start-distance jumps of more than 10 points under best play: skirmishers
//! that may evade a column from 3" (beyond 2.8's 2") make the column close
//! first and pay a volley more than from 2", where it simply charges; and a
//! line that may form square against heavy cavalry is caught in line half
//! the time from 16" or less (the cavalry's charge reach, when it has the
//! initiative), never from 17" or more, where it forms square first: the
//! cavalry's wins fall from about a third to almost none.
//!
//! # Beyond the solver
//!
//! Best play is solved up to [`EXACT_MAX_FIGURES`] figures a side with one
//! charger, and with two up to [`TWO_CHARGERS_EXACT_MAX_FIGURES`] each
//! ([`TWO_CHARGERS_APPROACH_EXACT_MAX_FIGURES`] from beyond charge reach);
//! beyond, a side asked for `best` plays `bold` with two chargers and
//! `cautious` with one, sampled, and the output says so. What that costs,
//! measured at the largest sizes that solve (the attacker's win and loss
//! chances in percent, 10 turns unless given; `solve_time brigades assault
//! KEYS attacker.policy=P defender.policy=Q`, the first two cases pinned by
//! `the_fallback_s_gap_to_best_play_at_sizes_that_solve`):
//!
//! - Two chargers on their approach (`attacker.units=2`): two columns of
//!   10 against 24 from 12", best play by both 38.6/61.4, bold chargers
//!   against the best line 32.4/67.6 (12.4 points of margin lost: bold
//!   closes the full move where best play halts at the edge of its reach);
//!   two of 8 against 16 from 12" over 6 turns 42.8/56.9 against 37.1/62.7
//!   (11.5 points). The line's bold `target` (the weaker charger) is its
//!   best play in both. Two of 12 against 24 from 6" have no decision
//!   under the default `split_odd_die`, and under `chosen` the line's bold
//!   odd die is its best (43.9/56.1 either way).
//! - One charger against gunners that may evade (36 against a field
//!   battery of 24 gunners, `defender.evades=true`, from 3"): best play by
//!   both 69.7/30.3; a cautious charger, which closes to 2" under fire
//!   before it charges, against the best battery 47.7/52.3 (44.0 points of
//!   margin lost); cautious gunners, who always evade, against the best
//!   charger 81.9/18.1 (24.4 points lost). Both bold play as both best.
//! - One charger where cautious is best play, for either side or both
//!   (36 against 36): a column from 12" (its `approach`: cautious halts at
//!   the edge of its reach) 18.0/82.0; heavy cavalry from 12" against a
//!   line that may form square (`cavalry_charge`; cautious forms at once)
//!   32.3/67.7; a column from 6" with `rules.optional_pursuit=true`
//!   (cautious holds) 22.4/77.6; a column against skirmishers that may
//!   evade, from 3" (cautious closes to 2" first, and evades) 52.5/47.5.
//!   Both bold, for comparison: 13.2/86.8, 64.5/35.5, 22.3/77.6 and
//!   72.9/27.1.
//!
//! So the cautious fallback of one charger is best play's equal in most
//! set-ups with a decision, but not against gunners that may evade, and
//! two chargers' bold approach gives up about 12 points of margin.
//!
//! # Code map
//!
//! This file holds the keys, the state, the decisions and the [`Assault`]
//! itself; `build` makes it from its keys and says what each side is
//! (arm, grade, steadiness, moves, ranges); `turn` plays a turn of one
//! charger (initiative, approach and fire, tests, charge home, evasion,
//! pursuit); `two` the turn of two chargers; `melee` a round of combat
//! (4) and the outcome code; `play` the [`Game`] the solvers and the
//! sampler drive, and [`played`].

use super::UNROLLED;
use super::combat::{combat_dice, grade_modifier};
use super::firefight::{battery_dice, general_modifiers, multi_turn_metrics, percent};
use super::roll::Roller;
use super::{
    Arm, Charisma, DefensiveFireBand, EvadeFire, FreshAgainst, GeneralPlace, Grade, Heaviness, Nation, PursuerLoses,
    PursuitCost, RangeBand, RoutRow, Rules, SquareChargedTest, Target, TestResult, Weapon, dice_from_figures,
    grade_param, invalid, split_dice,
};
use crate::choice_enum;
use crate::game::{self, ATTACKER, DEFENDER, Decision, End, Fate, Game, Played, Policy};
use crate::outcome::Layout;
use crate::params::{Param, ParamError, Settings};

mod build;
mod melee;
mod play;
mod turn;
mod two;

pub use play::played;

choice_enum! {
    /// Interpretation: what the winner of a cavalry bounce (7.1) does.
    pub enum BounceFollowUp {
        /// It rolls 7.4's roll to resist pursuit, and on a failure follows
        /// up: the combat goes on next turn, without double hits. Default:
        /// the bounce rule's own text, whether or not 7.4 is in use.
        Roll = "roll",
        /// It always holds: the bounce ends the combat with no winner.
        Holds = "holds",
    }
}

choice_enum! {
    /// Interpretation: when a charger of two "loses more hits in a round of
    /// combat than it inflicts" (5.4 (4)).
    pub enum MultiLoser {
        /// By its own hits: those it took against those it struck. Default:
        /// 5.4 (4) speaks of "the unit".
        PerUnit = "per_unit",
        /// By its side's: both chargers test when together they took more
        /// hits than they inflicted.
        Side = "side",
    }
}

choice_enum! {
    /// Interpretation: where the odd die goes when a line splits its fire
    /// "as evenly as possible among all the targets charging it" (3.10) and
    /// the two chargers differ in figures (one was shot on the approach).
    pub enum SplitOddDie {
        /// Toward the charger with more figures, the first when they are
        /// equal. Default: 3.10 says no more than "as evenly as possible",
        /// and 4.5, the rules' one rule for dividing a unit's dice among
        /// several enemies, rounds "toward targets with which the striking
        /// unit has the most figures".
        MoreFigures = "more_figures",
        /// Where the firer chooses (its `target` decision): 3.10 leaves the
        /// odd die to nobody, so to the player rolling it.
        Chosen = "chosen",
    }
}

choice_enum! {
    /// Interpretation: how cavalry charged by infantry fights (4.1, 4.2).
    pub enum ChargedCavalry {
        /// As printed: "Cavalry fighting against unsquared infantry in the
        /// open rolls one die per figure" (4.1), and steady cavalry gets +3
        /// against unsquared infantry, the infantry -3 (4.2), whoever
        /// charged; caught stationary, -2 in the first round (4.4). Default:
        /// neither 4.1 nor 4.2 names a charger, and 4.4's -2 is the rules'
        /// own allowance for cavalry that stood.
        AsPrinted = "as_printed",
        /// Without the shock: the die a figure and the +3/-3 are cavalry's
        /// charge, so cavalry receiving one rolls a die per three figures
        /// (4.1) and gets neither; still caught stationary.
        NoShock = "no_shock",
    }
}

choice_enum! {
    /// The ground the charger crosses or enters on its charge (2.3, 6).
    pub enum ChargeTerrain {
        /// Open ground.
        None = "none",
        /// Disordering (broken) terrain: woods, rough ground, a bridge,
        /// fieldworks (6.1, 6.2, 6.8, 6.10): the charger is disordered (2.3).
        Disordering = "disordering",
    }
}

choice_enum! {
    /// Interpretation: when cavalry must be steady for its charge move (2.11).
    pub enum ChargeMoveSteady {
        /// At launch: disorder and unsteadiness met during the charge
        /// (terrain, an obstacle, the plowed-field roll) leave the 16"/20"
        /// move alone. Default: 2.11's footnote reads "steady cavalry
        /// launching a charge".
        Launch = "launch",
        /// Also on contact: a charge into disordering terrain or an obstacle
        /// moves at the normal move (the plowed roll, made during the charge,
        /// still cannot take it away).
        Contact = "contact",
    }
}

choice_enum! {
    /// Interpretation: whether a line may form square before cavalry within
    /// charge reach moves (2.1: side A, the initiative's pick, moves first).
    pub enum SquareInitiative {
        /// Only when it has the initiative: each side rolls a D10, ties
        /// rerolled, so half the time; cavalry that wins it moves first and
        /// charges before the line can form (2.12: no emergency square).
        /// Default: 2.1's turn sequence.
        Rolled = "rolled",
        /// Always: the line moves first every turn (the scenario before the
        /// decision model).
        Always = "always",
    }
}

choice_enum! {
    /// Interpretation: how many figures stand on the face of a square that
    /// meets a charger (4.10: it fires with that face, 3.1 one rank, and
    /// fights infantry with it), when its figures do not divide by four.
    pub enum SquareFace {
        /// A quarter, rounded down. Default: the charger chooses where its
        /// charge lands (2.6), so it meets a face without the odd figures.
        Down = "down",
        /// A quarter, rounded up: the odd figures stand on the face engaged.
        Up = "up",
    }
}

choice_enum! {
    /// The formation of the charging infantry (1.8).
    pub enum ChargerFormation {
        /// A column, up to 8 figures wide: its front rank fights.
        Column = "column",
        /// A line: all its figures are in the front rank.
        Line = "line",
    }
}

choice_enum! {
    /// The formation of the defending infantry (1.8).
    pub enum DefenderFormation {
        /// A line.
        Line = "line",
        /// A square.
        Square = "square",
        /// A line that forms square in its own movement phase of the first
        /// turn, before the cavalry moves (2.12: no emergency square), with
        /// the cavalry `distance` away: it shoots that turn as moving, and
        /// under pinning (7.3) within 4" it is shaken.
        FormsSquare = "forms_square",
    }
}

choice_enum! {
    /// Interpretation: how a unit that changed formation this turn shoots.
    pub enum FormationChangeFire {
        /// As moving (-2, 3.3): a formation change costs half a move (2.12),
        /// and 3.1 lets infantry make half a move and fire at a penalty. Default.
        Moving = "moving",
        /// Without penalty: a formation change is not movement.
        Free = "free",
    }
}

choice_enum! {
    /// The order of the defending infantry.
    pub enum DefenderOrder {
        /// Close order.
        Close = "close",
        /// Skirmish order: fires at -1 (3.3), is unsteady (2.3), and is
        /// overrun by close-order chargers unless in cover (4.11).
        Skirmish = "skirmish",
    }
}

choice_enum! {
    /// Cover of the defender against combat (4.2, 6).
    pub enum CombatCover {
        /// None.
        None = "none",
        /// Soft cover: -2 to the charger, which tests to charge home only if the defender is steady foot.
        Soft = "soft",
        /// Hard cover: -3 to the charger, which always tests to charge home (5.4 (2)).
        Hard = "hard",
    }
}

/// The charging side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charger {
    /// Infantry or cavalry.
    pub arm: Arm,
    /// Morale grade.
    pub grade: Grade,
    /// Starting figures.
    pub figures: u32,
    /// Infantry formation.
    pub formation: ChargerFormation,
    /// Cavalry heaviness.
    pub heaviness: Heaviness,
    /// Cavalry with lances.
    pub lancers: bool,
    /// Cavalry that has fought no combat yet this game ("Fresh Cavalry").
    pub fresh: bool,
    /// A proper flank or rear charge (4.6): it started behind the target's frontage.
    pub flank: bool,
    /// The ground it charges across or into (2.3).
    pub terrain: ChargeTerrain,
    /// It charges into an obstacle: unsteady (6.5, 2.3) and -1 in combat (4.2).
    pub obstacle: bool,
    /// Cavalry charging across 1" or more of plowed field: disordered on a
    /// D10 of 8-10 (6.6).
    pub plowed: bool,
    /// Net of other combat modifiers.
    pub modifier: i32,
    /// Its general.
    pub general: GeneralPlace,
    /// Its general's charisma.
    pub charisma: Charisma,
    /// Its nation (7.11).
    pub nation: Nation,
    /// Charging units: 1, or 2 alike, charging together (3.10, 4.5).
    pub units: u32,
}

/// The standing side: infantry, a battery, or cavalry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holder {
    /// Infantry (a battery if `weapon` is a gun) or cavalry.
    pub arm: Arm,
    /// Morale grade.
    pub grade: Grade,
    /// Starting figures.
    pub figures: u32,
    /// Musket or rifle; a gun type makes the defender a battery whose
    /// figures are its gunners.
    pub weapon: Weapon,
    /// Actual guns, for a battery (3.1).
    pub guns: u32,
    /// Close or skirmish order.
    pub order: DefenderOrder,
    /// Line or square.
    pub formation: DefenderFormation,
    /// Cover against combat.
    pub cover: CombatCover,
    /// Net of other combat modifiers.
    pub modifier: i32,
    /// Net of other shooting modifiers of its fire.
    pub fire_modifier: i32,
    /// Its general.
    pub general: GeneralPlace,
    /// Its general's charisma.
    pub charisma: Charisma,
    /// A two-rank line (7.9).
    pub two_rank: bool,
    /// Its nation (7.11).
    pub nation: Nation,
    /// Cavalry heaviness (4.3).
    pub heaviness: Heaviness,
    /// Cavalry with lances (4.2: +2 in the first round if steady).
    pub lancers: bool,
    /// Inches the cavalry advanced straight forward in its last move phase;
    /// under 2" it is caught stationary (4.4: -2 in the first round).
    pub advanced: u32,
    /// Cavalry that has fought no combat yet this game ("Fresh Cavalry").
    pub fresh: bool,
    /// Skirmishers or gunners that evade the charge (2.7) when they may (2.8).
    pub evades: bool,
    /// The figures the town block it holds may hold (6.4.1); 0: no block.
    pub block: u32,
}

fn side_keys(params: &mut Vec<Param>, side: &str, general_doc: &str) {
    params.push(Param::int(format!("{side}.modifier"), "net of other combat modifiers (4.2)", 0, -10, 10));
    params.push(Param::choice(format!("{side}.general"), general_doc, GeneralPlace::InRadius));
    params.push(Param::choice(
        format!("{side}.charisma"),
        "an attached general's charisma: rolled (1.11), 0, 1, 2",
        Charisma::Rolled,
    ));
    params.push(Param::choice(
        format!("{side}.nation"),
        "national modifiers (7.11; needs optional_national_modifiers)",
        Nation::None,
    ));
}

fn params(cavalry: bool) -> Vec<Param> {
    let general_doc = "its general: in_radius, out_of_radius (-1) or attached (+charisma)";
    let mut params = Vec::new();
    if !cavalry {
        params.push(Param::choice("attacker.arm", "infantry or cavalry", Arm::Infantry));
        params.push(Param::choice("attacker.formation", "infantry: column (8 wide) or line", ChargerFormation::Column));
    }
    params.push(Param::int(
        "attacker.units",
        "charging units: 1, or 2 alike moving and charging together (on the approach the defender concentrates its fire on one of them, its choice, 3.10; charging, it splits its fire evenly between them, 3.10, and its combat dice, 4.5; each tests on its own hits); a close-order line defender, no flank, attached general, nation, pursuit or bounce",
        1,
        1,
        2,
    ));
    params.push(grade_param("attacker.quality", "morale grade a-f"));
    params.push(Param::int("attacker.figures", "starting figures", if cavalry { 18 } else { 24 }, 1, 60));
    params.push(Param::choice("attacker.heaviness", "cavalry: light, heavy or cuirassier (4.3)", Heaviness::Heavy));
    params.push(Param::boolean("attacker.lancers", "cavalry: lancers (+2 in the first round if steady)", false));
    params.push(Param::boolean(
        "attacker.fresh",
        "cavalry: has fought no combat this game (\"Fresh Cavalry\": +2 in its first round if steady, against cavalry that is not fresh; fresh_against)",
        true,
    ));
    params.push(Param::choice(
        "attacker.terrain",
        "ground it charges across or into: none, or disordering (woods, rough, bridge, works: disordered, 2.3; no test by the defender, 5.4 (3), no steady-cavalry +3, not fresh)",
        ChargeTerrain::None,
    ));
    params.push(Param::boolean(
        "attacker.obstacle",
        "it charges into an obstacle (6.5): unsteady (2.3: the defender does not test, 5.4 (3)) and -1 in combat (4.2)",
        false,
    ));
    params.push(Param::boolean(
        "attacker.plowed",
        "cavalry charging across 1\" or more of plowed field (6.6): disordered on a D10 of 8-10",
        false,
    ));
    params.push(Param::boolean(
        "attacker.flank",
        "a proper flank/rear charge (4.6): +3, the defender -3 and -2 morale, no fire at it, no charge-home test",
        false,
    ));
    side_keys(&mut params, "attacker", general_doc);
    params.push(grade_param("defender.quality", "morale grade a-f"));
    params.push(Param::int("defender.figures", "starting figures", 24, 1, 60));
    params.push(Param::choice(
        "defender.arm",
        "infantry or cavalry: cavalry cannot shoot (3.1), does not test on being charged (5.4), cannot evade (2.7) or countercharge (2.6), fights cavalry with two ranks and infantry with its front rank (4.1)",
        Arm::Infantry,
    ));
    if cavalry {
        params.push(Param::choice("defender.weapon", "musket or rifle (3.2)", Weapon::Musket));
    } else {
        params.push(Param::choice(
            "defender.weapon",
            "musket or rifle, or a gun type: a battery whose figures are gunners (overrun on contact, 4.11)",
            Weapon::Musket,
        ));
        params.push(Param::int(
            "defender.guns",
            "actual guns of a battery (3.1: a die each, crew permitting)",
            6,
            0,
            40,
        ));
        params.push(Param::choice(
            "defender.order",
            "close or skirmish (skirmishers are overrun on contact unless in cover, 4.11)",
            DefenderOrder::Close,
        ));
        params.push(Param::int(
            "defender.block",
            "the defender garrisons a town block holding this many figures (6.4.1, usually 12-24; 0: none): unsteady inside, half its figures fire (6.4.4), the chargers (infantry only) are unsteady on contact and fight with all their figures up to 1.5 x this",
            0,
            0,
            60,
        ));
        params.push(Param::choice(
            "defender.block_cover",
            "a town block's cover vs. combat: soft (usually) or hard (La Haye Sainte) (6.4.2)",
            CombatCover::Soft,
        ));
        params.push(Param::boolean(
            "defender.evades",
            "skirmishers or a battery's gunners evade the charge (2.7): they shoot at the evading penalty (evade_fire) and get away, gunners leaving their guns; not from infantry charging from within 2\" or cavalry from within 4\" (2.8)",
            false,
        ));
    }
    params.push(Param::choice(
        "defender.formation",
        if cavalry {
            "infantry: line, square, or forms_square (a line forming square in its own move of the first turn, with the cavalry `distance` away: fires as moving; shaken if within 4\" under pinning, 7.3)"
        } else {
            "close-order infantry: line, or square (one face fires at -1, 3.3, and fights infantry, 4.10; disordered by a steady infantry charger, 2.3; all four faces against cavalry), or forms_square against a cavalry charger (a line forming square in its own move, 2.12)"
        },
        DefenderFormation::Line,
    ));
    {
        params.push(Param::choice(
            "defender.heaviness",
            "cavalry: light, heavy or cuirassier (4.3: +1 per level heavier)",
            Heaviness::Heavy,
        ));
        params.push(Param::boolean("defender.lancers", "cavalry: lancers (+2 in the first round if steady)", false));
        params.push(Param::int(
            "defender.advanced",
            "cavalry: inches it advanced straight forward in its last move (4.4: under 2\", caught stationary, -2 in the first round)",
            0,
            0,
            40,
        ));
        params.push(Param::boolean(
            "defender.fresh",
            "cavalry: has fought no combat this game (fresh: no +2 to fresh chargers against it; its own +2 against a non-fresh enemy, fresh_against)",
            true,
        ));
    }
    params.push(Param::choice("defender.cover", "cover against combat: none, soft or hard (4.2)", CombatCover::None));
    params.push(Param::int("defender.fire_modifier", "net of other shooting modifiers of its fire (3.3)", 0, -10, 10));
    params.push(Param::boolean("defender.two_rank", "a two-rank line (7.9; needs optional_two_rank_line)", false));
    side_keys(&mut params, "defender", general_doc);
    params.push(Param::int(
        "distance",
        "inches between the units when the charger sets off",
        if cavalry { 12 } else { 6 },
        0,
        60,
    ));
    params.push(Param::int("turns", "the turn limit", 10, 1, 100));
    params.extend(game::plan_params());
    params.push(game::purpose_key(
        game::Purpose::Attack,
        "rout or shatter the defender",
        "a charge is the attacker's to carry; a defender standing at the limit has held",
    ));
    params
}

/// The keys of `assault`.
pub fn assault_params() -> Vec<Param> {
    params(false)
}

/// The keys of `cavalry_charge`.
pub fn cavalry_charge_params() -> Vec<Param> {
    params(true)
}

/// The exact solver answers when neither side has more figures than this.
pub const EXACT_MAX_FIGURES: u32 = 36;

/// With two chargers (`attacker.units = 2`) the exact solver answers when
/// each has no more figures than this: every round multiplies three units'
/// dice and tests. Measured (release `solve_time`, 10 turns, against 24):
/// two of 12 in 1.6 s of CPU and 35 MB, two of 16 in 2.4 s, two of 24 in
/// 7.3 s and 92 MB. Beyond it a side asked to play `best` plays `bold`
/// (`Game::fallback`), and the output says so.
pub const TWO_CHARGERS_EXACT_MAX_FIGURES: u32 = 12;

/// With two chargers starting beyond charge reach (their approach) the exact
/// solver answers when each has no more figures than this: the approach
/// fire, all at one of them (3.10), leaves them unequal, so the combat starts
/// from many pairs of strengths rather than one. Measured (release
/// `solve_time brigades assault attacker.units=2 attacker.figures=N
/// distance=12`, 10 turns, against 24, `/usr/bin/time`): two of 12 in 2.4 s
/// of CPU and 45 MB, two of 10 in 1.7 s and 41 MB. Beyond it best play
/// falls back to `bold`, and the output says so.
pub const TWO_CHARGERS_APPROACH_EXACT_MAX_FIGURES: u32 = 10;

/// The state between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AssaultState {
    /// Inches still to cover (0 once in contact).
    pub distance: u16,
    /// Rounds of combat fought.
    pub rounds: u16,
    /// Figures of the charger, the defender.
    pub figures: [u8; 2],
    /// Attached generals still with their units.
    pub general: [bool; 2],
    /// The side (0 the charger, 1 the defender) pursuing the other, routed (7.4).
    pub pursuer: Option<u8>,
    /// The defender is in square (formed at the start, or by its decision).
    pub square: bool,
    /// The defender formed square within 4" of the cavalry under pinning
    /// (7.3): shaken, and it stays so.
    pub pinned: bool,
    /// Each side's general's charisma, once rolled at the start (`UNROLLED`
    /// before).
    pub charisma: [i8; 2],
    /// How the fight ended, per side: out, routed, shattered (bits 0-2 the
    /// charger's, 3-5 the defender's).
    pub fate: u8,
    /// The second charger's figures (`attacker.units = 2`; 0 otherwise).
    pub second: u8,
    /// The two chargers' ends (`attacker.units = 2`): bits 0-1 out, 2-3
    /// routed, 4-5 shattered, the first charger's bit first.
    pub chargers: u8,
}

/// 2.7, 2.8, 7.3 The decisions of `assault` and `cavalry_charge`.
pub static CHARGE_DECISION: Decision = Decision {
    name: "charge",
    who: "attacker",
    doc: "Within charge reach of skirmishers or gunners that may evade (2.7): charge now, from beyond 2\" \
          (infantry) or 4\" (cavalry), where they may evade, or first close to that distance, under their fire, so \
          that the next turn's charge catches them (2.8).",
    options: "charge now; close first",
};

/// The defender's choice to evade a charge.
pub static EVADE_DECISION: Decision = Decision {
    name: "evade",
    who: "defender",
    doc: "Skirmishers or gunners charged from beyond 2\" (infantry) or 4\" (cavalry) (2.7, 2.8): stand and be \
          overrun (4.11) unless the charger breaks, or shoot at the evading penalty and get away (gunners leave \
          their guns).",
    options: "stand; evade",
};

/// The defender's choice to form square.
pub static SQUARE_DECISION: Decision = Decision {
    name: "square",
    who: "defender",
    doc: "A line charged at by cavalry (`forms_square`), in its own movement phase before the cavalry moves (2.1, \
          2.12: no emergency square): stay in line, or form square (half a move, a whole one for grade E-F or an \
          extended line; shaken if within 4\" under pinning, 7.3).",
    options: "stay in line; form square",
};

/// An infantry winner's choice to pursue.
pub static PURSUE_DECISION: Decision = Decision {
    name: "pursue",
    who: "either side",
    doc: "Infantry that routed its enemy in combat, with pursuit in use (7.4: \"infantry only enter pursuit if \
          they want to\"; never after cavalry): hold, or pursue, at a rout hit's cost (`pursuit_cost`), striking \
          the shaken routers next turn with double hits.",
    options: "hold; pursue",
};

/// 2.1, 2.11, 3.2 The attacker's move of its charger (or two) beyond charge reach.
pub static APPROACH_DECISION: Decision = Decision {
    name: "approach",
    who: "attacker",
    doc: "A charger (or two, attacker.units = 2, moving together) beyond charge reach whose full move would end \
          nearer than the edge of it (2.11): close the full move, or halt at the edge of charge reach, from where \
          next turn's charge still lands, and be shot at from farther (3.2's bands).",
    options: "close a full move; halt at the edge of charge reach",
};

/// 2.6 A charger's choice to charge or hold within its charge reach.
pub static HOLD_DECISION: Decision = Decision {
    name: "hold",
    who: "attacker",
    doc: "A single charger within its charge reach (2.6: \"a charge is simply a normal move that is made to \
          contact the enemy\", so a voluntary one): charge (or, against evaders, close first under `charge`), or \
          hold where it stands this turn, shot at where it stands (3.8), and charge later or never.",
    options: "charge; hold",
};

/// 3.10 The defender's target among two approaching chargers.
pub static TARGET_DECISION: Decision = Decision {
    name: "target",
    who: "defender",
    doc: "A line shooting at two chargers still approaching (3.10: \"a unit must concentrate its fire onto one \
          target\"; it is not yet being charged): all its dice at the first charger or at the second. With \
          `split_odd_die = chosen` it also gives the odd die of its split fire at two chargers charging it.",
    options: "the first charger; the second charger",
};

static DECISIONS: &[&Decision] = &[
    &HOLD_DECISION,
    &CHARGE_DECISION,
    &EVADE_DECISION,
    &SQUARE_DECISION,
    &PURSUE_DECISION,
    &APPROACH_DECISION,
    &TARGET_DECISION,
];

/// One pairing's combat dice and modifiers (4.1, 4.2).
#[derive(Clone, Copy, Debug)]
struct CombatTerms {
    /// The charger's figures in combat (its front rank).
    charger_front: u32,
    charger_dice: u32,
    charger_mod: i32,
    /// The defender's dice against this charger alone.
    holder_dice: u32,
    holder_mod: i32,
}

/// How one turn ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Ending {
    Going(AssaultState),
    /// The state at the end and, per side: (out, routed, shattered).
    Over(AssaultState, [(bool, bool, bool); 2]),
}

/// A charge into combat.
#[derive(Clone, Debug)]
pub struct Assault {
    /// What each side must achieve (the scenario's `purpose` key).
    purpose: game::Purpose,
    rules: Rules,
    charger: Charger,
    holder: Holder,
    distance: u32,
    turns: u32,
    /// The defender is in square in the turn being played.
    square_now: bool,
    /// The defender is pinned (7.3) in the turn being played.
    pinned_now: bool,
    layout: Layout,
}
