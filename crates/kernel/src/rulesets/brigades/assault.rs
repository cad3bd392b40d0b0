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

impl Assault {
    /// A charge from `distance` inches with a turn limit.
    pub fn new(
        rules: &Rules,
        charger: Charger,
        holder: Holder,
        distance: u32,
        turns: u32,
    ) -> Result<Assault, ParamError> {
        if charger.arm == Arm::Gunners {
            return Err(invalid("attacker.arm", "gunners cannot charge (2.6)"));
        }
        if holder.arm == Arm::Gunners {
            return Err(invalid("defender.arm", "a battery is a defender with a gun weapon (assault)"));
        }
        if holder.arm == Arm::Cavalry {
            if holder.weapon.is_gun() {
                return Err(invalid("defender.weapon", "cavalry has no guns: a battery is infantry's arm here"));
            }
            if holder.formation != DefenderFormation::Line {
                return Err(invalid("defender.formation", "only infantry forms square (1.8)"));
            }
            if holder.two_rank {
                return Err(invalid("defender.two_rank", "a two-rank line is foot (7.9)"));
            }
        }
        if holder.evades && !holder.weapon.is_gun() && holder.order != DefenderOrder::Skirmish {
            return Err(invalid(
                "defender.evades",
                "only skirmishers, gunners and limbered horse guns may evade (2.7)",
            ));
        }
        if charger.plowed && charger.arm != Arm::Cavalry {
            return Err(invalid("attacker.plowed", "plowed fields disrupt cavalry charges only (6.6)"));
        }
        if charger.flank && holder.formation != DefenderFormation::Line {
            return Err(invalid("attacker.flank", "a square faces out in all directions (1.8): it has no flank"));
        }
        if holder.formation != DefenderFormation::Line
            && (holder.weapon.is_gun() || holder.order == DefenderOrder::Skirmish)
        {
            return Err(invalid("defender.formation", "only close-order infantry forms square"));
        }
        if holder.formation == DefenderFormation::FormsSquare && charger.arm != Arm::Cavalry {
            return Err(invalid(
                "defender.formation",
                "forms_square is a line forming square against a cavalry charge (2.12); against infantry set square",
            ));
        }
        let built = Assault {
            purpose: game::Purpose::Manoeuvre,
            rules: rules.clone(),
            charger,
            holder,
            distance,
            turns,
            square_now: false,
            pinned_now: false,
            layout: Layout::new(Vec::new()),
        };
        if holder.formation == DefenderFormation::FormsSquare && built.square_cost_in_half_moves() > 2 {
            return Err(invalid(
                "defender.formation",
                "an extended line of grade E-F needs two moves to form square (2.12), not one movement phase",
            ));
        }
        if (charger.nation != Nation::None || holder.nation != Nation::None) && !rules.optional_national_modifiers {
            let key = if charger.nation != Nation::None { "attacker.nation" } else { "defender.nation" };
            return Err(invalid(key, "needs the optional rule optional_national_modifiers (7.11)"));
        }
        if holder.two_rank && !rules.optional_two_rank_line {
            return Err(invalid("defender.two_rank", "needs the optional rule optional_two_rank_line (7.9)"));
        }
        if holder.formation != DefenderFormation::Line && charger.arm == Arm::Infantry && charger.figures == 0 {
            return Err(invalid("defender.formation", "nothing charges"));
        }
        if holder.block > 0 {
            let refuse = |key: &str, why: &str| Err(invalid(key, format!("a town block (6.4): {why}")));
            if charger.arm != Arm::Infantry {
                return refuse("attacker.arm", "only infantry may enter or attack a town block (6.4.1)");
            }
            if holder.arm != Arm::Infantry || holder.weapon.is_gun() || holder.formation != DefenderFormation::Line {
                return refuse("defender.formation", "its garrison is infantry, in no formation (6.4.3); no guns here");
            }
            if holder.figures > holder.block {
                return refuse("defender.figures", "the garrison is more than the block holds (6.4.1)");
            }
            if holder.cover == CombatCover::None {
                return refuse("defender.block_cover", "a block gives soft or hard cover vs. combat (6.4.2)");
            }
            if charger.flank || charger.units > 1 {
                return refuse("attacker.flank", "no flank (it faces every side, 6.4.3) and one attacker");
            }
        }
        if charger.units == 2 {
            let refuse =
                |key: &str, why: &str| Err(invalid(key, format!("with two chargers (attacker.units = 2): {why}")));
            if holder.arm != Arm::Infantry
                || holder.weapon.is_gun()
                || holder.order != DefenderOrder::Close
                || holder.formation != DefenderFormation::Line
            {
                return refuse("defender.formation", "the defender is a close-order infantry line");
            }
            if charger.flank || charger.plowed {
                return refuse("attacker.flank", "no flank charge, no plowed field");
            }
            if charger.general == GeneralPlace::Attached {
                return refuse("attacker.general", "a general attaches to one unit (1.11); in_radius or out_of_radius");
            }
            if charger.nation != Nation::None || holder.nation != Nation::None {
                return refuse("attacker.nation", "national modifiers are not played");
            }
            if rules.optional_pursuit || rules.optional_cavalry_bounce {
                return refuse("attacker.units", "pursuit (7.4) and the cavalry bounce (7.1) are not played");
            }
        }
        if charger.figures > 60 || holder.figures > 60 {
            return Err(invalid("attacker.figures", "at most 60 figures a side"));
        }
        Ok(Assault {
            purpose: game::Purpose::Manoeuvre,
            rules: rules.clone(),
            charger,
            holder,
            distance,
            turns,
            square_now: holder.formation == DefenderFormation::Square,
            pinned_now: false,
            layout: Layout::new(multi_turn_metrics(turns)),
        })
    }

    /// `assault` from the catalogue's settings.
    pub fn from_assault_settings(rules: &Rules, settings: &Settings) -> Result<Assault, ParamError> {
        let charger = charger_from(settings, settings.choice("attacker.arm"), settings.choice("attacker.formation"));
        let holder = holder_from(settings, settings.choice("defender.formation"));
        if holder.block > 0 && settings.choice::<CombatCover>("defender.cover") != CombatCover::None {
            return Err(invalid("defender.cover", "a town block's cover is defender.block_cover (6.4.2)"));
        }
        Assault::new(rules, charger, holder, settings.int("distance") as u32, settings.int("turns") as u32)
    }

    /// `cavalry_charge` from the catalogue's settings.
    pub fn from_cavalry_settings(rules: &Rules, settings: &Settings) -> Result<Assault, ParamError> {
        let charger = charger_from(settings, Arm::Cavalry, ChargerFormation::Line);
        let holder = holder_from(settings, settings.choice("defender.formation"));
        Assault::new(rules, charger, holder, settings.int("distance") as u32, settings.int("turns") as u32)
    }

    fn start(&self) -> AssaultState {
        AssaultState {
            distance: self.distance as u16,
            rounds: 0,
            figures: [self.charger.figures as u8, self.holder.figures as u8],
            general: [self.charger.general == GeneralPlace::Attached, self.holder.general == GeneralPlace::Attached],
            pursuer: None,
            square: self.holder.formation == DefenderFormation::Square,
            pinned: false,
            charisma: [UNROLLED; 2],
            fate: 0,
            second: if self.charger.units == 2 { self.charger.figures as u8 } else { 0 },
            chargers: 0,
        }
    }

    /// The scenario as it plays in `state`: the defender's formation is the
    /// state's (it may have formed square by its decision).
    fn view(&self, state: &AssaultState) -> std::borrow::Cow<'_, Assault> {
        if state.square == self.square_now && state.pinned == self.pinned_now {
            std::borrow::Cow::Borrowed(self)
        } else {
            let mut view = self.clone();
            view.square_now = state.square;
            view.pinned_now = state.pinned;
            std::borrow::Cow::Owned(view)
        }
    }

    /// 2.1: whether cavalry within charge reach of the line moves (and so
    /// charges) before the line's movement phase: it wins the initiative
    /// (each side a D10, ties rerolled: half the time) under
    /// `square_initiative = rolled`. Out of reach, who moves first changes
    /// nothing the line cares about: it may form after the cavalry's move.
    fn cavalry_charges_first<R: Roller>(&self, state: AssaultState, roller: &mut R) -> bool {
        let (_, reach) = self.moves();
        self.rules.square_initiative == SquareInitiative::Rolled
            && u32::from(state.distance) <= reach
            && roller.d10_at_most(5)
    }

    /// 2.8: a charge starting within this many inches cannot be evaded.
    fn evade_within(&self) -> u32 {
        if self.cavalry() { self.rules.evade_cavalry_within } else { self.rules.evade_infantry_within }
    }

    /// The fate of both sides when the turn limit comes: a pursued side has
    /// routed.
    fn limit_fate(state: &AssaultState) -> [(bool, bool, bool); 2] {
        let mut fate = [(false, false, false); 2];
        if let Some(p) = state.pursuer {
            fate[1 - usize::from(p)] = (true, true, false);
        }
        fate
    }

    /// 7.4: whether side `p` may pursue the other: gunners never pursue,
    /// infantry never pursues cavalry, and cavalry never pursues faster
    /// cavalry.
    fn may_pursue(&self, p: usize) -> bool {
        match self.arm(p) {
            Arm::Cavalry => self.arm(1 - p) != Arm::Cavalry || self.cavalry_speed(1 - p) <= self.cavalry_speed(p),
            Arm::Infantry => self.arm(1 - p) != Arm::Cavalry,
            Arm::Gunners => false,
        }
    }

    /// 7.4: side `p`'s roll to enter pursuit (fails to resist it): a D10 of
    /// 1-4, 1-7 for grade E/F.
    fn pursuit_roll<R: Roller>(&self, p: usize, roller: &mut R) -> bool {
        let rules = &self.rules;
        let mut most = rules.pursuit_max_score;
        if matches!(self.grade(p), Grade::E | Grade::F) {
            // 7.4: -3 to the roll if grade E/F, so more often.
            most -= rules.pursuit_grade_e_f;
        }
        let nation = if p == 0 { self.charger.nation } else { self.holder.nation };
        if self.national(p) && nation == Nation::Britain {
            // 7.11: British cavalry an additional -3 to resist pursuit.
            most += 3;
        }
        roller.d10_at_most(most.clamp(0, 10) as u32)
    }

    /// 7.4: whether side `p` enters pursuit of the other, which it routed.
    fn enters_pursuit<R: Roller>(&self, p: usize, roller: &mut R) -> bool {
        if !self.rules.optional_pursuit || !self.may_pursue(p) {
            return false;
        }
        if self.arm(p) == Arm::Infantry {
            // 7.4: "Infantry only enter pursuit if they want to": the
            // winner's decision. Bold pursues; cautious holds.
            return roller.decide(p as u8, &PURSUE_DECISION, &[0, 1], &|policy| u16::from(policy == Policy::Bold)) == 1;
        }
        // 7.4: cavalry must roll to resist pursuit.
        self.pursuit_roll(p, roller)
    }

    /// 7.1 Cavalry bounce: whether the winner `w` follows up the recoiling
    /// enemy (it must roll to resist pursuit, or follow up).
    fn follows_up<R: Roller>(&self, w: usize, roller: &mut R) -> bool {
        self.rules.bounce_follow_up == BounceFollowUp::Roll && self.may_pursue(w) && self.pursuit_roll(w, roller)
    }

    /// 7.4: a pursuit round: the pursuers, disordered, strike the shaken
    /// routers with double hits; if the routers lose again they rout again,
    /// and the pursuers may follow again at the cost of a rout hit.
    fn pursuit_turn<R: Roller>(&self, mut state: AssaultState, p: usize, charisma: [i32; 2], roller: &mut R) -> Ending {
        let rules = &self.rules;
        let r = 1 - p;
        // The routers end their rout in the open, and a square in column (5.7.4).
        let router_arm = if self.arm(r) == Arm::Cavalry { Arm::Cavalry } else { Arm::Infantry };
        let pursuer_dice = combat_dice(rules, self.arm(p), u32::from(state.figures[p]), router_arm, true);
        let router_dice = combat_dice(rules, router_arm, u32::from(state.figures[r]), self.arm(p), true);
        let pursuer_mod = self.standing_modifier(p);
        let router_mod = self.standing_modifier(r) + rules.combat_shaken;
        let base = rules.combat_base_to_hit;
        let struck =
            roller.hits(pursuer_dice, &rules.hit_faces(base, pursuer_mod), rules.hit_chance(base, pursuer_mod));
        let on_pursuer =
            roller.hits(router_dice, &rules.hit_faces(base, router_mod), rules.hit_chance(base, router_mod));
        let on_router = struck * rules.pursuit_hit_multiplier;
        state.rounds = state.rounds.saturating_add(1);
        let mut shattered = [false; 2];
        // `pursue` tells a renewed pursuit from a first one by the marker.
        let marker = state.pursuer;
        shattered[p] = self.take_hits(p, &mut state, on_pursuer);
        shattered[r] = self.take_hits(r, &mut state, on_router);
        let mut fate = [(false, false, false); 2];
        fate[p] = (shattered[p], false, shattered[p]);
        fate[r] = (true, true, shattered[r]);
        state.pursuer = None;
        let renew = |state: AssaultState| AssaultState { pursuer: marker, ..state };
        if shattered[0] || shattered[1] || on_router == on_pursuer {
            // The pursuit ends: the routers got away or are gone.
            return Ending::Over(state, fate);
        }
        if on_pursuer > on_router {
            // 5.4 (4): the pursuer lost the round. By default it tests like any
            // unit losing a combat (`pursuer_loses`); the pursuit ends either way.
            if rules.pursuer_loses == PursuerLoses::Tests {
                let (pass, modifier, rout_modifier) = self.base_test(p, &state, on_pursuer, charisma);
                let result = roller.test(rules, pass, modifier + rules.morale_losing_combat, rout_modifier);
                if let TestResult::Rout(row) = result {
                    let shattered = self.rout(p, &mut state, row);
                    fate[p] = (true, true, shattered);
                }
            }
            return Ending::Over(state, fate);
        }
        // Losing again, the routers rout again (no test), on the rout table.
        let (_, _, rout_modifier) = self.base_test(r, &state, on_router, charisma);
        if let TestResult::Rout(row) = roller.test(rules, i32::MAX / 2, 0, rout_modifier)
            && self.rout(r, &mut state, row)
        {
            fate[r].2 = true;
            return Ending::Over(state, fate);
        }
        if self.enters_pursuit(p, roller) {
            return self.pursue(p, renew(state), fate);
        }
        Ending::Over(state, fate)
    }

    /// 7.4: side `p` enters pursuit of the other, which it has just routed:
    /// it loses a rout hit to disorganization (every pursuit by default,
    /// `pursuit_cost`; under `again` only a pursuit renewed after a pursuit
    /// round), which may shatter it, and pursues next turn.
    fn pursue(&self, p: usize, mut state: AssaultState, mut fate: [(bool, bool, bool); 2]) -> Ending {
        let rules = &self.rules;
        let renewed = state.pursuer.is_some();
        if (renewed || rules.pursuit_cost == PursuitCost::Every)
            && self.take_hits(p, &mut state, rules.pursuit_rout_hits)
        {
            fate[p] = (true, false, true);
            state.pursuer = None;
            return Ending::Over(state, fate);
        }
        state.pursuer = Some(p as u8);
        Ending::Going(state)
    }

    /// Side `s`'s combat modifiers that hold in every round: its own net
    /// modifier, grades (4.2) and, cavalry against cavalry, heaviness (4.3).
    fn standing_modifier(&self, s: usize) -> i32 {
        let rules = &self.rules;
        let (modifier, grade, enemy) = if s == 0 {
            (self.charger.modifier, self.charger.grade, self.holder.grade)
        } else {
            (self.holder.modifier, self.holder.grade, self.charger.grade)
        };
        let mut total = modifier + grade_modifier(rules, grade, enemy);
        if self.arm(0) == Arm::Cavalry && self.arm(1) == Arm::Cavalry {
            let (own, other) = if s == 0 {
                (self.charger.heaviness, self.holder.heaviness)
            } else {
                (self.holder.heaviness, self.charger.heaviness)
            };
            // 4.2, 4.3: heavier cavalry +1 per level, lighter -1.
            total += (own as i32 - other as i32) * rules.combat_per_heaviness;
        }
        total
    }

    /// Side `s`'s arm in combat (4.1).
    fn arm(&self, s: usize) -> Arm {
        match s {
            0 => self.charger.arm,
            _ if self.battery() => Arm::Gunners,
            _ => self.holder.arm,
        }
    }

    fn grade(&self, s: usize) -> Grade {
        if s == 0 { self.charger.grade } else { self.holder.grade }
    }

    /// 2.11: cavalry's normal move, by heaviness (which is faster, 7.4).
    fn cavalry_speed(&self, s: usize) -> u32 {
        let heaviness = if s == 0 { self.charger.heaviness } else { self.holder.heaviness };
        match heaviness {
            Heaviness::Light => self.rules.move_light_cavalry,
            _ => self.rules.move_heavy_cavalry,
        }
    }

    fn cavalry(&self) -> bool {
        self.charger.arm == Arm::Cavalry
    }

    fn holder_cavalry(&self) -> bool {
        self.holder.arm == Arm::Cavalry
    }

    fn square(&self) -> bool {
        self.square_now
    }

    /// 4.10, 3.1: the figures on the one face of a square of `figures` that
    /// meets the charger, which fires at it and fights infantry: a quarter
    /// (1.8: it faces out in all four directions), rounded by `square_face`.
    fn square_face(&self, figures: u32) -> u32 {
        let faces = self.rules.square_faces.max(1);
        match self.rules.square_face {
            SquareFace::Down => figures / faces,
            SquareFace::Up => figures.div_ceil(faces),
        }
    }

    /// 2.12: what forming square costs the defender, in half moves: half a
    /// move, a whole move for an extended line (1.8: wider than 24 figures),
    /// and twice that if unsteady or grade E-F (the grade F defender is
    /// unsteady too, 2.3; pinning comes after the change, 7.3).
    fn square_cost_in_half_moves(&self) -> u32 {
        let rules = &self.rules;
        let base = if self.holder.figures > rules.line_max_width { 2 } else { 1 };
        let unsteady = matches!(self.holder.grade, Grade::E | Grade::F);
        if unsteady { base * 2 } else { base }
    }

    /// 7.3 Pinning: the defender formed square within 4" of the cavalry, and
    /// is shaken at once; it cannot recover (2.4) before contact, nor while
    /// it fights, so it stays shaken.
    fn pinned(&self) -> bool {
        self.pinned_now
    }

    /// 2.3: steady if in good morale, close order, not disordered, grade E or
    /// better: the charger as it launches its charge.
    fn charger_steady(&self) -> bool {
        self.charger.grade != Grade::F
    }

    /// 2.3: the charger disordered as it makes contact: by disordering
    /// terrain crossed or entered, by the plowed-field roll (6.6), or, for
    /// infantry, by starting a charge against cavalry.
    fn charger_disordered_on_contact(&self, plowed: bool) -> bool {
        self.charger.terrain == ChargeTerrain::Disordering || plowed || self.infantry_charges_cavalry()
    }

    /// Infantry charging cavalry (2.3: disordered from the start of its charge).
    fn infantry_charges_cavalry(&self) -> bool {
        !self.cavalry() && self.holder_cavalry()
    }

    /// 2.3, 6.5: the charger steady as it makes contact: steady at launch,
    /// not disordered on the way, and not charging into an obstacle.
    fn charger_steady_on_contact(&self, plowed: bool) -> bool {
        // 6.4.1: troops contacting a town block are unsteady.
        self.charger_steady()
            && !self.charger_disordered_on_contact(plowed)
            && !self.charger.obstacle
            && self.holder.block == 0
    }

    fn holder_steady(&self) -> bool {
        // 2.3: skirmishers, gunners and shaken units are unsteady; 6.4.1:
        // so are troops inside a town block.
        !self.pinned()
            && self.holder.grade != Grade::F
            && !self.battery()
            && self.holder.order == DefenderOrder::Close
            && self.holder.block == 0
    }

    fn battery(&self) -> bool {
        self.holder.weapon.is_gun()
    }

    /// 2.7, 2.8: whether the defender may evade a charge starting
    /// `distance` inches away: it is skirmishers or gunners allowed to
    /// (`defender.evades`), and the charge starts farther than 2" (infantry)
    /// or 4" (cavalry).
    fn may_evade(&self, distance: u32) -> bool {
        self.holder.evades && distance > self.evade_within()
    }

    /// 4.11: close-order chargers wipe out gunners and skirmishers they
    /// contact, unless these hold houses or fieldworks (cover).
    fn overrun(&self) -> bool {
        (self.battery() || self.holder.order == DefenderOrder::Skirmish) && self.holder.cover == CombatCover::None
    }

    /// The defender's band: guns fire canister close and ballshot far.
    fn holder_band(&self, band: RangeBand) -> RangeBand {
        match (self.battery(), band) {
            (true, RangeBand::Close) => RangeBand::Canister,
            (true, RangeBand::Far) => RangeBand::Ballshot,
            (_, band) => band,
        }
    }

    /// 2.11: the charger's move, and its charge reach.
    fn moves(&self) -> (u32, u32) {
        let rules = &self.rules;
        // 2.11: the charge move is for steady cavalry launching a charge;
        // under `charge_move_steady = contact` the terrain or obstacle it
        // charges into takes it away too.
        let steady = self.charger_steady()
            && (rules.charge_move_steady == ChargeMoveSteady::Launch
                || (self.charger.terrain == ChargeTerrain::None && !self.charger.obstacle));
        match (self.charger.arm, self.charger.heaviness) {
            (Arm::Cavalry, Heaviness::Light) => {
                let charge = if steady { rules.move_light_cavalry_charge } else { rules.move_light_cavalry };
                (rules.move_light_cavalry, charge)
            }
            (Arm::Cavalry, _) => {
                let charge = if steady { rules.move_heavy_cavalry_charge } else { rules.move_heavy_cavalry };
                (rules.move_heavy_cavalry, charge)
            }
            _ => {
                let m = match self.charger.formation {
                    ChargerFormation::Column => rules.move_infantry_column,
                    // 1.8, 2.11: a line wider than 24 figures is an extended line, 3".
                    ChargerFormation::Line if self.charger.figures > rules.line_max_width => {
                        rules.move_infantry_extended_line
                    }
                    ChargerFormation::Line => rules.move_infantry_line,
                };
                (m, m)
            }
        }
    }

    /// 3.2, 3.8: the band the defender shoots a charger at that ended its
    /// approach move `left` inches away, or `None` out of range.
    fn band_at(&self, left: u32) -> Option<RangeBand> {
        let rules = &self.rules;
        let close = rules.band_range(self.holder.weapon, self.holder_band(RangeBand::Close)).unwrap_or(0);
        let far = rules.band_range(self.holder.weapon, self.holder_band(RangeBand::Far)).unwrap_or(0);
        if left <= close {
            Some(RangeBand::Close)
        } else if left <= far {
            Some(RangeBand::Far)
        } else {
            None
        }
    }

    /// The defender's fire at `band`: (dice, faces, chance), or `None` out of range.
    fn defender_fire(&self, figures: u32, band: RangeBand, reformed: bool, evading: bool) -> ([bool; 10], f64, u32) {
        let (faces, chance, dice) = self.defender_fire_standing(figures, band, reformed, evading);
        if evading && rules_halve(&self.rules) {
            // 2.7: an evading unit shoots at half effect: half its dice.
            return (faces, chance, dice / 2);
        }
        (faces, chance, dice)
    }

    fn defender_fire_standing(
        &self,
        figures: u32,
        band: RangeBand,
        reformed: bool,
        evading: bool,
    ) -> ([bool; 10], f64, u32) {
        let rules = &self.rules;
        let band = self.holder_band(band);
        let score = rules.score_to_hit(self.holder.weapon, band, Target::Normal).unwrap_or(0);
        let mut modifier = self.holder.fire_modifier + rules.fire_grade(self.holder.grade);
        if reformed && rules.formation_change_fire == FormationChangeFire::Moving {
            if self.square_cost_in_half_moves() > 1 {
                // 2.12, 3.1: a formation change that took its whole move
                // leaves no half move to fire after: it does not fire.
                return ([false; 10], 0.0, 0);
            }
            // 2.12, 3.1: it used half a move to form square: moving, -2 (3.3).
            modifier += rules.fire_moving;
        }
        if self.pinned() {
            // 7.3, 3.3: shaken, -2.
            modifier += rules.fire_shaken;
        }
        if self.national(1) {
            // 7.11: steady British infantry +1 with musketry; Russians -1.
            modifier += match self.holder.nation {
                Nation::Britain if self.holder_steady() && self.holder.weapon == Weapon::Musket => 1,
                Nation::Russia if self.holder.weapon == Weapon::Musket => -1,
                _ => 0,
            };
        }
        if self.holder.order == DefenderOrder::Skirmish {
            modifier += rules.fire_disordered_or_skirmishing;
        }
        if evading && rules.evade_fire != EvadeFire::HalfDice {
            // 3.3: evading, -2 (3.1: "may shoot at a penalty before evading").
            modifier += rules.fire_evading;
        }
        // 3.5: a column of 3 or more ranks is dense, for ballshot.
        let dense = !self.cavalry()
            && self.charger.formation == ChargerFormation::Column
            && self.charger.figures > 2 * rules.column_width;
        if dense && band == RangeBand::Ballshot {
            modifier += rules.fire_ball_vs_dense;
        }
        if self.battery() {
            // 3.1: a die per actual gun, the gunners spread over the models
            // as the firefight spreads them (`battery_crew`); no gun is lost to a charger's fire.
            let dice = battery_dice(rules, self.holder.guns, self.holder.guns, figures);
            return (rules.hit_faces(score, modifier), rules.hit_chance(score, modifier), dice);
        }
        let mut firing = figures;
        if self.holder.block > 0 {
            // 6.4.4: "Up to half the figures may shoot out any side of a block."
            firing = figures / self.rules.block_fire_divisor.max(1);
        }
        if self.square() {
            // 3.1, 3.3: one rank fires; a square shows one face to the charge, at -1.
            modifier += rules.fire_in_square;
            firing = self.square_face(figures);
        }
        let dice = if self.holder.two_rank && !self.square() {
            dice_from_figures(firing, rules.two_rank_figures_per_die, rules.two_rank_remainder_rounds_up)
        } else {
            dice_from_figures(firing, rules.fire_figures_per_die, rules.fire_remainder_rounds_up)
        };
        (rules.hit_faces(score, modifier), rules.hit_chance(score, modifier), dice)
    }

    /// A side's morale numbers: (pass, modifier, rout modifier), before the
    /// situation's own modifiers.
    fn base_test(&self, s: usize, state: &AssaultState, hits: u32, charisma: [i32; 2]) -> (i32, i32, i32) {
        let rules = &self.rules;
        let (grade, start, place) = if s == 0 {
            (self.charger.grade, self.charger.figures, self.charger.general)
        } else {
            (self.holder.grade, self.holder.figures, self.holder.general)
        };
        let now = u32::from(state.figures[s]);
        let mut modifier = (hits / 2) as i32 * rules.morale_per_two_hits;
        modifier += Rules::quarters_lost(start, start - now) * rules.morale_per_quarter_losses;
        if s == 1 && self.pinned() {
            // 5.6: the unit is shaken (pinned, 7.3).
            modifier += rules.morale_shaken;
        }
        let mut rout = rules.rout_grade(grade);
        if now * 2 <= start {
            rout += rules.rout_half_strength;
        }
        let (mg, rg) = general_modifiers(rules, place, state.general[s], charisma[s]);
        (rules.morale_pass(grade), modifier + mg, rout + rg)
    }

    /// Takes `hits` off side `s`; true if that shatters it (5.3).
    fn take_hits(&self, s: usize, state: &mut AssaultState, hits: u32) -> bool {
        let start = if s == 0 { self.charger.figures } else { self.holder.figures };
        state.figures[s] = u32::from(state.figures[s]).saturating_sub(hits) as u8;
        self.rules.is_shattered(start, start - u32::from(state.figures[s]))
    }

    /// 5.7: a failed test's result on side `s`: rout hits; true if it shattered.
    fn rout(&self, s: usize, state: &mut AssaultState, row: RoutRow) -> bool {
        if row == RoutRow::Shattered {
            return true;
        }
        let hits = self.rules.rout_hits(row, u32::from(state.figures[s]));
        self.take_hits(s, state, hits)
    }

    /// 7.5: an attached general whose unit took 2 or more hits may be lost.
    fn danger<R: Roller>(&self, s: usize, state: &mut AssaultState, hits: u32, roller: &mut R) {
        let rules = &self.rules;
        if rules.optional_danger_to_generals
            && state.general[s]
            && hits >= rules.general_danger_hits
            && roller.d10_at_most(rules.general_danger_max)
        {
            state.general[s] = false;
        }
    }

    /// One turn: the defender's formation decision in its movement phase,
    /// then the turn in the formation it chose.
    fn turn<R: Roller>(&self, before: AssaultState, charisma: [i32; 2], roller: &mut R) -> Ending {
        let rules = &self.rules;
        let mut state = before;
        let mut reformed = false;
        if state.pursuer.is_none()
            && state.distance > 0
            && self.cavalry()
            && self.holder.formation == DefenderFormation::FormsSquare
            && !state.square
            && !self.cavalry_charges_first(state, roller)
        {
            // 2.1, 2.12: the line may form square in its own movement phase,
            // before the cavalry moves (there is no emergency square).
            let form = roller.decide(DEFENDER, &SQUARE_DECISION, &[0, 1], &|policy| {
                // Cautious forms square at once; bold keeps its line.
                u16::from(policy == Policy::Cautious)
            });
            if form == 1 {
                state.square = true;
                reformed = true;
                // 7.3: a formation change within 4" of an enemy: shaken.
                state.pinned = rules.optional_pinning && u32::from(state.distance) <= rules.pinning_distance;
            }
        }
        self.view(&state).turn_formed(state, reformed, charisma, roller)
    }

    /// One turn in the defender's formation (`reformed`: it formed square
    /// this turn).
    fn turn_formed<R: Roller>(
        &self,
        before: AssaultState,
        reformed: bool,
        charisma: [i32; 2],
        roller: &mut R,
    ) -> Ending {
        let rules = &self.rules;
        let mut state = before;
        // Per side: (out, routed, shattered).
        let mut fate = [(false, false, false); 2];
        if let Some(p) = state.pursuer {
            return self.pursuit_turn(state, usize::from(p), charisma, roller);
        }
        // Whether the plowed-field roll (6.6) disordered the charger this turn.
        let mut plowed_disorder = false;
        if state.distance > 0 {
            let (_, reach) = self.moves();
            let distance = u32::from(state.distance);
            let mut charging = distance <= reach;
            let mut close_to = None;
            // 2.6: a charge is a voluntary move; within reach the charger
            // may hold where it stands instead (its `hold` decision). Both
            // heuristics charge (the play before the decision): a charger
            // that never charged would stall every fight to the limit.
            if charging && roller.decide(ATTACKER, &HOLD_DECISION, &[0, 1], &|_| 0) == 1 {
                charging = false;
                close_to = Some(distance);
            }
            if charging && self.may_evade(distance) {
                // 2.7, 2.8: charge now, where they may evade, or close to
                // where the next turn's charge catches them.
                let close = roller.decide(ATTACKER, &CHARGE_DECISION, &[0, 1], &|policy| {
                    // Bold charges at once; cautious closes first.
                    u16::from(policy == Policy::Cautious)
                });
                if close == 1 {
                    charging = false;
                    close_to = Some(self.evade_within());
                }
            }
            // Whether the charger halted at the edge of its charge reach
            // (its `approach` decision), short of its full move.
            let mut halted = false;
            let band = if charging {
                Some(match rules.defensive_fire_band {
                    DefensiveFireBand::Close => RangeBand::Close,
                    DefensiveFireBand::Far => RangeBand::Far,
                })
            } else {
                // The charger advances, a full move or to the edge of its
                // charge reach (2.11), and is shot where it stands (3.8).
                let left = match close_to {
                    Some(left) => {
                        // Holding is not "advancing full speed" (7.11).
                        halted = left == distance;
                        left
                    }
                    None => {
                        let (left, short) = self.approach_move(distance, roller);
                        halted = short;
                        left
                    }
                };
                state.distance = left.max(1) as u16;
                self.band_at(left)
            };
            // 3.1: cavalry cannot shoot. And the arc of fire is 45 degrees
            // either side of the front, while a proper flank charger starts
            // its charge behind the target's frontage (4.6): it is out of the
            // arc on its approach moves as on the charge itself. (Either way
            // the charger still advances: before, a charger out of reach of
            // such a defender never moved.)
            let band = if self.holder_cavalry() || self.charger.flank { None } else { band };
            // 2.7, 2.8: skirmishers or gunners evading the charge shoot first.
            let evading = charging
                && self.may_evade(distance)
                && roller.decide(DEFENDER, &EVADE_DECISION, &[0, 1], &|policy| {
                    // Bold stands; cautious evades.
                    u16::from(policy == Policy::Cautious)
                }) == 1;
            let mut hits = 0;
            if let Some(band) = band {
                let (faces, chance, dice) = self.defender_fire(u32::from(state.figures[1]), band, reformed, evading);
                hits = roller.hits(dice, &faces, chance);
            }
            if self.take_hits(0, &mut state, hits) {
                fate[0] = (true, false, true);
                return Ending::Over(state, fate);
            }
            // 5.4 (2): charging home frontally against steady infantry or hard cover.
            let against_steady_foot = self.holder_steady() && !self.holder_cavalry();
            // A proper flank or rear charge need not test unless hit twice, nor
            // does cavalry charging cavalry (5.4).
            let home_test = charging
                && !self.charger.flank
                && !self.holder_cavalry()
                && (against_steady_foot || self.holder.cover == CombatCover::Hard);
            if hits >= rules.morale_test_shooting_hits || home_test {
                let (pass, mut modifier, rout_modifier) = self.base_test(0, &state, hits, charisma);
                if self.national(0) && !self.cavalry() && hits >= rules.morale_test_shooting_hits {
                    if !charging {
                        modifier += self.national_vs_shooting_in_approach(halted);
                    } else if self.charger.nation == Nation::Britain && self.charger.formation == ChargerFormation::Line
                    {
                        // 7.11: British infantry +1 vs. shooting hits in line,
                        // with no exception for charging (the other nations'
                        // column modifiers have one).
                        modifier += 1;
                    }
                }
                if charging && self.british_cavalry(0) {
                    // 7.11: British cavalry +1 on morale to charge: every
                    // test of the charging unit that turn.
                    modifier += 1;
                }
                if home_test {
                    if self.cavalry() {
                        if self.square() && against_steady_foot {
                            modifier += rules.morale_cavalry_vs_square;
                        }
                    } else {
                        modifier += rules.morale_foot_charging_home;
                    }
                }
                let result = roller.test(rules, pass, modifier, rout_modifier);
                self.danger(0, &mut state, hits, roller);
                if let TestResult::Rout(row) = result {
                    let shattered = self.rout(0, &mut state, row);
                    fate[0] = (true, true, shattered);
                    return Ending::Over(state, fate);
                }
            }
            if !charging {
                return Ending::Going(state);
            }
            if evading {
                // 2.7: the evaders move away and the charge meets nobody.
                // Skirmishers get away: no winner. Gunners leave their guns
                // to the charger: the battery is taken.
                if self.battery() {
                    fate[1] = (true, false, false);
                }
                return Ending::Over(state, fate);
            }
            state.distance = 0;
            if self.overrun() {
                // 4.11: the gunners or skirmishers contacted are wiped out.
                state.figures[1] = 0;
                fate[1] = (true, false, false);
                return Ending::Over(state, fate);
            }
            // 6.6: cavalry that charged across plowed field is disordered on
            // a D10 of 8-10.
            plowed_disorder = self.cavalry()
                && self.charger.plowed
                && !roller.d10_at_most(rules.plowed_disorder_min.saturating_sub(1));
            // 5.4 (3): infantry charged successfully by a steady enemy test.
            let mut exempt = self.square()
                && self.cavalry()
                && self.holder_steady()
                && rules.square_charged_test == SquareChargedTest::Exempt;
            // 7.11: steady early Prussian infantry is immune to panic tests by cavalry.
            exempt |= self.cavalry()
                && self.national(1)
                && self.holder.nation == Nation::PrussiaEarly
                && self.holder_steady();
            // Cavalry charged does not test (5.4 (3) names infantry and artillery).
            if self.charger_steady_on_contact(plowed_disorder) && !exempt && !self.holder_cavalry() {
                let (pass, mut modifier, rout_modifier) = self.base_test(1, &state, 0, charisma);
                modifier += if self.cavalry() {
                    rules.morale_meeting_cavalry_charge
                } else {
                    rules.morale_meeting_infantry_charge
                };
                if self.charger.flank {
                    // 5.6: charged on flank or rear this turn.
                    modifier += rules.morale_flanked;
                }
                if let TestResult::Rout(row) = roller.test(rules, pass, modifier, rout_modifier) {
                    let shattered = self.rout(1, &mut state, row);
                    fate[1] = (true, true, shattered);
                    return Ending::Over(state, fate);
                }
            }
        }
        // 2.1 phase 6: a round of combat. The first round is fought in the
        // turn the charge lands (or, from contact, the first turn played).
        let charge_turn = state.rounds == 0;
        let (hits_on_charger, hits_on_holder) = self.combat_round(&state, plowed_disorder, roller);
        state.rounds = state.rounds.saturating_add(1);
        let shattered = [self.take_hits(0, &mut state, hits_on_charger), self.take_hits(1, &mut state, hits_on_holder)];
        if shattered[0] || shattered[1] {
            fate = [(shattered[0], false, shattered[0]), (shattered[1], false, shattered[1])];
            return Ending::Over(state, fate);
        }
        // 5.4 (4): the side losing more hits than it inflicts tests, at -3.
        let loser = match hits_on_charger.cmp(&hits_on_holder) {
            std::cmp::Ordering::Greater => Some((0, hits_on_charger)),
            std::cmp::Ordering::Less => Some((1, hits_on_holder)),
            std::cmp::Ordering::Equal => None,
        };
        for s in 0..2 {
            let hits = if s == 0 { hits_on_charger } else { hits_on_holder };
            if loser.is_some_and(|(l, _)| l == s) {
                let (pass, modifier, rout_modifier) = self.base_test(s, &state, hits, charisma);
                // 7.11: Russian infantry +2 on morale vs. losing a combat.
                let russian = if s == 0 {
                    self.national(0) && !self.cavalry() && self.charger.nation == Nation::Russia
                } else {
                    self.national(1) && !self.holder_cavalry() && self.holder.nation == Nation::Russia
                };
                let mut modifier = modifier + if russian { 2 } else { 0 };
                if charge_turn && self.british_cavalry(s) {
                    // 7.11: British cavalry +1 on morale to charge or meet a
                    // charge, on every test of the turn the charge lands.
                    modifier += 1;
                }
                if s == 1 && self.charger.flank && charge_turn {
                    // 5.6: "charged on flank or rear this turn" counts on every
                    // test of the turn the charge lands, the test for losing
                    // its first round of combat too.
                    modifier += rules.morale_flanked;
                }
                let result = roller.test(rules, pass, modifier + rules.morale_losing_combat, rout_modifier);
                self.danger(s, &mut state, hits, roller);
                if let TestResult::Rout(row) = result {
                    let shattered = self.rout(s, &mut state, row);
                    fate[s] = (true, true, shattered);
                    if !shattered && self.enters_pursuit(1 - s, roller) {
                        return self.pursue(1 - s, state, fate);
                    }
                    return Ending::Over(state, fate);
                }
            } else {
                self.danger(s, &mut state, hits, roller);
            }
        }
        if rules.optional_cavalry_bounce {
            // 7.1 Cavalry bounce: cavalry that fails to inflict more losses than
            // it suffers, with nobody routed, recoils 4". A winner that is
            // cavalry must roll to resist pursuit or follow up, and the combat
            // goes on next turn (no double hits: nobody routed); otherwise, or
            // if both recoil, the combat is over and nobody broke.
            let recoils = [
                self.cavalry() && hits_on_holder <= hits_on_charger,
                self.holder_cavalry() && hits_on_charger <= hits_on_holder,
            ];
            if recoils[0] || recoils[1] {
                let winner = match recoils {
                    [true, false] => Some(1),
                    [false, true] => Some(0),
                    _ => None,
                };
                if winner.is_some_and(|w| self.follows_up(w, roller)) {
                    return Ending::Going(state);
                }
                return Ending::Over(state, fate);
            }
        }
        Ending::Going(state)
    }

    /// Whether side `s`'s national modifiers apply: the optional rule is on,
    /// and they are for grade A-E troops (7.11).
    fn national(&self, s: usize) -> bool {
        let (nation, grade) =
            if s == 0 { (self.charger.nation, self.charger.grade) } else { (self.holder.nation, self.holder.grade) };
        self.rules.optional_national_modifiers && nation != Nation::None && grade != Grade::F
    }

    /// 7.11: side `s` is British cavalry with national modifiers.
    fn british_cavalry(&self, s: usize) -> bool {
        let nation = if s == 0 { self.charger.nation } else { self.holder.nation };
        self.national(s) && self.arm(s) == Arm::Cavalry && nation == Nation::Britain
    }

    /// 7.11: an infantry charger's morale modifier vs. shooting hits while it
    /// approaches before the charge (not while charging). France's and
    /// Spain's are for a column "advancing full speed": a column that
    /// `halted` at the edge of its charge reach, short of its full move (its
    /// `approach` decision), has not, and goes without. Austria's, later
    /// Prussia's and Britain's ask only the formation.
    fn national_vs_shooting_in_approach(&self, halted: bool) -> i32 {
        let column = self.charger.formation == ChargerFormation::Column;
        match (self.charger.nation, column) {
            (Nation::France | Nation::Spain, true) if halted => 0,
            (Nation::France, true) => 2,
            (Nation::Spain, true) | (Nation::Austria, true) | (Nation::PrussiaLate, true) => 1,
            (Nation::Austria, false) | (Nation::PrussiaLate, false) => -1,
            (Nation::Britain, false) => 1,
            _ => 0,
        }
    }

    /// 3.10: a unit being charged "must split its fire as evenly as possible
    /// among all the targets charging it": `dice` between the chargers of
    /// `figures` still in the fight (`charging`). The odd die goes toward
    /// the charger with more figures, the first if they are equal
    /// (`split_odd_die = more_figures`, 4.5's rounding), or where the
    /// defender chooses (`chosen`, its `target` decision). Between alike
    /// chargers shot together from their start no reading changes a result;
    /// after an approach on which one was shot, it may.
    fn split_fire<R: Roller>(&self, dice: u32, figures: [u8; 2], charging: [bool; 2], roller: &mut R) -> [u32; 2] {
        match charging {
            [true, true] => {}
            [true, false] => return [dice, 0],
            [false, true] => return [0, dice],
            [false, false] => return [0, 0],
        }
        let split = split_dice(dice, &[u32::from(figures[0]), u32::from(figures[1])]);
        if dice % 2 == 1 && self.rules.split_odd_die == SplitOddDie::Chosen {
            let to =
                roller.decide(DEFENDER, &TARGET_DECISION, &[0, 1], &|policy| Self::target_heuristic(figures, policy));
            let half = dice / 2;
            return if to == 0 { [half + 1, half] } else { [half, half + 1] };
        }
        [split[0], split[1]]
    }

    /// The `target` heuristics: bold shoots at the charger with fewer
    /// figures, to break it; cautious at the one with more, the greater
    /// threat; the first when they are equal.
    fn target_heuristic(figures: [u8; 2], policy: Policy) -> u16 {
        match policy {
            Policy::Bold => u16::from(figures[1] < figures[0]),
            _ => u16::from(figures[1] > figures[0]),
        }
    }

    /// `state` as charger `i` of two sees it: its figures in the charger's place.
    fn as_charger(state: &AssaultState, i: usize, figures: [u8; 2]) -> AssaultState {
        AssaultState { figures: [figures[i], state.figures[1]], ..*state }
    }

    /// Charger `i`'s bit of kind `kind` (0 out, 1 routed, 2 shattered) in
    /// `AssaultState::chargers`.
    fn charger_bit(i: usize, kind: u8) -> u8 {
        1u8 << (2 * kind + i as u8)
    }

    /// The attacker side's (out, routed, shattered) from the chargers' ends:
    /// out once both are, routed or shattered if either is.
    fn chargers_side(ends: u8) -> (bool, bool, bool) {
        (ends & 3 == 3, ends & 12 != 0, ends & 48 != 0)
    }

    /// Charger `i` of two (figures `figures[i]`) takes `hits` of shooting
    /// and, after 2 or more or charging home (`home_test`), its morale test
    /// (5.4 (1), (2)); its ends go into `ends`.
    #[allow(clippy::too_many_arguments)]
    fn charger_shot<R: Roller>(
        &self,
        state: &AssaultState,
        i: usize,
        figures: &mut [u8; 2],
        ends: &mut u8,
        hits: u32,
        home_test: bool,
        charisma: [i32; 2],
        roller: &mut R,
    ) {
        let rules = &self.rules;
        let bit = Self::charger_bit;
        let mut me = Self::as_charger(state, i, *figures);
        let shattered = self.take_hits(0, &mut me, hits);
        figures[i] = me.figures[0];
        if shattered {
            *ends |= bit(i, 0) | bit(i, 2);
            return;
        }
        if hits >= rules.morale_test_shooting_hits || home_test {
            let (pass, mut modifier, rout_modifier) = self.base_test(0, &me, hits, charisma);
            if home_test && !self.cavalry() {
                modifier += rules.morale_foot_charging_home;
            }
            if let TestResult::Rout(row) = roller.test(rules, pass, modifier, rout_modifier) {
                let shattered = self.rout(0, &mut me, row);
                figures[i] = me.figures[0];
                *ends |= bit(i, 0) | bit(i, 1) | if shattered { bit(i, 2) } else { 0 };
            }
        }
    }

    /// 2.11: how far from the defender a charger (or two moving together)
    /// `distance` inches away, beyond its charge reach, ends its move, and
    /// whether it halted short of its full move. Where the full move would
    /// end nearer than the edge of its charge reach, the attacker's
    /// `approach` decision: close the full move, or halt at the edge, from
    /// where next turn's charge lands just the same, to be shot at from
    /// farther meanwhile (3.2's bands). A full move stops 2" short (2.2).
    fn approach_move<R: Roller>(&self, distance: u32, roller: &mut R) -> (u32, bool) {
        let (step, reach) = self.moves();
        // 2.2: "A unit may not approach within 2\" of an enemy unit unless
        // charging at that unit": a full move that is not a charge stops at
        // `no_closer_than` (an infantry charger 1" beyond its reach, whose
        // full move would end 1" away, once stood there uncharged).
        let nearest = self.rules.no_closer_than.min(distance);
        let full = distance.saturating_sub(step).max(nearest);
        if full < reach
            && roller.decide(ATTACKER, &APPROACH_DECISION, &[0, 1], &|policy| {
                // Bold closes the full move (the play before the decision);
                // cautious halts at the edge.
                u16::from(policy == Policy::Cautious)
            }) == 1
        {
            return (reach, true);
        }
        (full, false)
    }

    /// One turn of two chargers still beyond charge reach (2.11), moving
    /// together (2.1: the attacker moves all its units in its phase): the
    /// attacker's `approach` decision where the full move would end nearer
    /// than the edge of charge reach, then the line's fire where they stand
    /// (3.8: a stationary unit shoots what passed through its range), all
    /// of it at one charger (3.10 "must concentrate its fire onto one
    /// target": its `target` decision), and that charger's test after 2
    /// hits (5.4 (1)). A charger out of the fight (routed or shattered on
    /// the way) is no target; the other goes on alone.
    fn approach_two<R: Roller>(&self, before: AssaultState, charisma: [i32; 2], roller: &mut R) -> Ending {
        let mut state = before;
        let (left, _) = self.approach_move(u32::from(state.distance), roller);
        state.distance = left.max(1) as u16;
        let mut figures = [state.figures[0], state.second];
        let mut ends = state.chargers;
        let is_in = [ends & Self::charger_bit(0, 0) == 0, ends & Self::charger_bit(1, 0) == 0];
        if let Some(band) = self.band_at(left) {
            let target = match is_in {
                // 3.10: the line concentrates its fire on one target, its choice.
                [true, true] => roller
                    .decide(DEFENDER, &TARGET_DECISION, &[0, 1], &|policy| Self::target_heuristic(figures, policy))
                    as usize,
                [true, false] => 0,
                _ => 1,
            };
            let (faces, chance, dice) = self.defender_fire(u32::from(state.figures[1]), band, false, false);
            let hits = roller.hits(dice, &faces, chance);
            self.charger_shot(&state, target, &mut figures, &mut ends, hits, false, charisma, roller);
        }
        state.figures[0] = figures[0];
        state.second = figures[1];
        state.chargers = ends;
        if Self::chargers_side(ends).0 {
            return Ending::Over(state, [Self::chargers_side(ends), (false, false, false)]);
        }
        Ending::Going(state)
    }

    /// One turn of two chargers (`attacker.units = 2`): beyond charge reach
    /// their approach ([`Assault::approach_two`]); within it, the charge of
    /// those still in the fight, together: the defender's fire split
    /// between them (3.10), each charger's test (5.4 (1), (2)), the
    /// defender's one test (5.4 (3); 2.1: one test in the phase), then a
    /// combat round in which the defender divides its dice between the
    /// chargers in contact (4.5) and every unit that lost more hits than it
    /// inflicted tests (5.4 (4)).
    fn turn_two<R: Roller>(&self, before: AssaultState, charisma: [i32; 2], roller: &mut R) -> Ending {
        if u32::from(before.distance) > self.moves().1 {
            return self.approach_two(before, charisma, roller);
        }
        let rules = &self.rules;
        let mut state = before;
        let mut figures = [state.figures[0], state.second];
        let bit = Self::charger_bit;
        let mut ends = state.chargers;
        let is_in = |ends: u8, i: usize| ends & bit(i, 0) == 0;
        let finish = |state: &mut AssaultState, figures: [u8; 2], ends: u8| {
            state.figures[0] = figures[0];
            state.second = figures[1];
            state.chargers = ends;
        };
        let side = Self::chargers_side;
        if state.distance > 0 {
            let band = match rules.defensive_fire_band {
                DefensiveFireBand::Close => RangeBand::Close,
                DefensiveFireBand::Far => RangeBand::Far,
            };
            let (faces, chance, dice) = self.defender_fire(u32::from(state.figures[1]), band, false, false);
            // 3.8, 3.10: all its fire goes at the chargers charging it, split
            // evenly; one that was put out on the approach charges no more.
            let charging = [is_in(ends, 0), is_in(ends, 1)];
            let shares = self.split_fire(dice, figures, charging, roller);
            // 5.4 (2): charging home frontally against steady infantry or hard cover.
            let home_test = self.holder_steady() || self.holder.cover == CombatCover::Hard;
            for i in (0..2).filter(|&i| charging[i]) {
                let hits = roller.hits(shares[i], &faces, chance);
                self.charger_shot(&state, i, &mut figures, &mut ends, hits, home_test, charisma, roller);
            }
            finish(&mut state, figures, ends);
            if side(ends).0 {
                return Ending::Over(state, [side(ends), (false, false, false)]);
            }
            state.distance = 0;
            // 5.4 (3): the defender tests once (2.1), charged by steady enemies.
            if self.charger_steady_on_contact(false) {
                let (pass, mut modifier, rout_modifier) = self.base_test(1, &state, 0, charisma);
                modifier += if self.cavalry() {
                    rules.morale_meeting_cavalry_charge
                } else {
                    rules.morale_meeting_infantry_charge
                };
                if let TestResult::Rout(row) = roller.test(rules, pass, modifier, rout_modifier) {
                    let shattered = self.rout(1, &mut state, row);
                    return Ending::Over(state, [side(ends), (true, true, shattered)]);
                }
            }
        }
        // 2.1 phase 6: a round of combat. 4.5: the defender divides its dice
        // among the chargers in contact, the odd die toward the one with
        // more figures in combat; each charger strikes with all its dice.
        let terms: Vec<(usize, CombatTerms)> = (0..2)
            .filter(|&i| is_in(ends, i))
            .map(|i| (i, self.combat_terms(&Self::as_charger(&state, i, figures), false)))
            .collect();
        let fronts: Vec<u32> = terms.iter().map(|(_, t)| t.charger_front).collect();
        let shares = split_dice(terms[0].1.holder_dice, &fronts);
        let base = rules.combat_base_to_hit;
        let mut on_holder = 0;
        // Per charger: (hits it took, hits it struck).
        let mut struck = [(0u32, 0u32); 2];
        for ((i, t), &share) in terms.iter().zip(&shares) {
            let faces = rules.hit_faces(base, t.charger_mod);
            let on_it = roller.hits(t.charger_dice, &faces, rules.hit_chance(base, t.charger_mod));
            let faces = rules.hit_faces(base, t.holder_mod);
            let on_me = roller.hits(share, &faces, rules.hit_chance(base, t.holder_mod));
            on_holder += on_it;
            struck[*i] = (on_me, on_it);
        }
        // Only whether a round has been fought matters (2.3: disordered after
        // one), so the count stops at 1 and the solver's states merge.
        state.rounds = 1;
        let holder_shattered = self.take_hits(1, &mut state, on_holder);
        for &(i, _) in &terms {
            let mut me = Self::as_charger(&state, i, figures);
            if self.take_hits(0, &mut me, struck[i].0) {
                ends |= bit(i, 0) | bit(i, 2);
            }
            figures[i] = me.figures[0];
        }
        finish(&mut state, figures, ends);
        if holder_shattered || side(ends).0 {
            return Ending::Over(state, [side(ends), (holder_shattered, false, holder_shattered)]);
        }
        // 5.4 (4): each unit that lost more hits than it inflicted tests, at -3.
        let inflicted: u32 = struck.iter().map(|s| s.0).sum();
        let mut holder_end = (false, false, false);
        if on_holder > inflicted {
            let (pass, modifier, rout_modifier) = self.base_test(1, &state, on_holder, charisma);
            let result = roller.test(rules, pass, modifier + rules.morale_losing_combat, rout_modifier);
            self.danger(1, &mut state, on_holder, roller);
            if let TestResult::Rout(row) = result {
                let shattered = self.rout(1, &mut state, row);
                holder_end = (true, true, shattered);
            }
        } else {
            self.danger(1, &mut state, on_holder, roller);
        }
        let side_lost = inflicted > on_holder;
        for &(i, _) in &terms {
            let lost = match rules.multi_loser {
                MultiLoser::PerUnit => struck[i].0 > struck[i].1,
                MultiLoser::Side => side_lost,
            };
            if is_in(ends, i) && lost {
                let mut me = Self::as_charger(&state, i, figures);
                let (pass, modifier, rout_modifier) = self.base_test(0, &me, struck[i].0, charisma);
                let result = roller.test(rules, pass, modifier + rules.morale_losing_combat, rout_modifier);
                if let TestResult::Rout(row) = result {
                    let shattered = self.rout(0, &mut me, row);
                    figures[i] = me.figures[0];
                    ends |= bit(i, 0) | bit(i, 1) | if shattered { bit(i, 2) } else { 0 };
                }
            }
        }
        finish(&mut state, figures, ends);
        if holder_end.0 || side(ends).0 {
            return Ending::Over(state, [side(ends), holder_end]);
        }
        Ending::Going(state)
    }

    /// One round's hits (on the charger, on the defender).
    fn combat_round<R: Roller>(&self, state: &AssaultState, plowed: bool, roller: &mut R) -> (u32, u32) {
        let rules = &self.rules;
        let terms = self.combat_terms(state, plowed);
        let base = rules.combat_base_to_hit;
        let on_holder = roller.hits(
            terms.charger_dice,
            &rules.hit_faces(base, terms.charger_mod),
            rules.hit_chance(base, terms.charger_mod),
        );
        let on_charger = roller.hits(
            terms.holder_dice,
            &rules.hit_faces(base, terms.holder_mod),
            rules.hit_chance(base, terms.holder_mod),
        );
        (on_charger, on_holder)
    }

    /// One round's dice and modifiers (4.1, 4.2) of the charger whose
    /// figures are `state.figures[0]` and of the defender against it.
    fn combat_terms(&self, state: &AssaultState, plowed: bool) -> CombatTerms {
        let rules = &self.rules;
        let first = state.rounds == 0;
        let cavalry = self.cavalry();
        let square = self.square();
        let charger_figures = u32::from(state.figures[0]);
        let holder_figures = u32::from(state.figures[1]);
        // 4.1: the front rank fights: a column's is up to 8 wide.
        let charger_front = if self.holder.block > 0 {
            // 6.4.4: all the attacker's figures may attack a block, whatever
            // its formation or depth, up to 1.5 times the block's garrison
            // size against any one side.
            charger_figures.min(self.holder.block * rules.block_attack_side_percent / 100)
        } else if !cavalry && self.charger.formation == ChargerFormation::Column {
            charger_figures.min(rules.column_width)
        } else {
            charger_figures
        };
        // 4.10: a square fights infantry with one face, cavalry with all four.
        // (`square_face`: the face's figures, a quarter rounded down by default.)
        let holder_front = if square && !cavalry { self.square_face(holder_figures) } else { holder_figures };
        let open = !square && self.holder.cover == CombatCover::None;
        let charger_arm = self.charger.arm;
        let mut charger_dice = combat_dice(rules, charger_arm, charger_front, Arm::Infantry, open);
        if cavalry && square {
            charger_dice = combat_dice(rules, charger_arm, charger_front, Arm::Infantry, false);
        }
        let holder_arm = self.arm(1);
        if !square {
            charger_dice = combat_dice(rules, charger_arm, charger_front, holder_arm, open);
        }
        // 4.1: cavalry fighting unsquared infantry in the open rolls a die a
        // figure; charged by infantry, the open ground is the charger's
        // (`charged_cavalry`: as printed, or a die per three).
        let holder_open = if self.infantry_charges_cavalry() {
            self.charger.terrain == ChargeTerrain::None
                && !self.charger.obstacle
                && rules.charged_cavalry == ChargedCavalry::AsPrinted
        } else {
            open
        };
        let holder_dice = combat_dice(rules, holder_arm, holder_front, charger_arm, holder_open);
        // 4.2 modifiers.
        let mut charger_mod = self.standing_modifier(0);
        let mut holder_mod = self.standing_modifier(1);
        if self.charger.flank {
            // 4.6, 4.7: the flank bonus and penalty last the whole combat.
            charger_mod += rules.combat_flank_attack;
            holder_mod += rules.combat_striking_to_flank;
        }
        if self.pinned() {
            // 4.2: the unit is shaken (pinned, 7.3), every round.
            holder_mod += rules.combat_shaken;
        }
        let charger_steady = first && self.charger_steady_on_contact(plowed);
        let holder_steady_now = first && self.holder_steady();
        // 2.3: who is disordered in the first round: the charger by the
        // ground it charged across (terrain, 6.6's roll).
        let mut charger_disordered = !first || self.charger_disordered_on_contact(plowed);
        if self.charger.obstacle {
            // 4.2: vs. steep slope/obstacle, every round.
            charger_mod += rules.combat_vs_obstacle;
        }
        let mut holder_disordered = !first;
        if first {
            if cavalry && square && self.holder_steady() {
                charger_disordered = true;
            }
            // 2.3: infantry not in a steady square contacted by steady cavalry.
            let steady_square = square && self.holder_steady();
            if cavalry && !steady_square && charger_steady && !self.battery() && !self.holder_cavalry() {
                holder_disordered = true;
            }
            if !cavalry && square && charger_steady {
                holder_disordered = true;
            }
        }
        if cavalry {
            if square {
                charger_mod += rules.combat_cavalry_vs_square;
                holder_mod += rules.combat_square_vs_cavalry;
            } else if charger_steady && !charger_disordered && !self.battery() && !self.holder_cavalry() {
                charger_mod += rules.combat_steady_cavalry_vs_unsquared;
                holder_mod += rules.combat_unsquared_vs_steady_cavalry;
            }
            // 4.2 and "Fresh Cavalry": fresh (steady, in its first combat of
            // the game) cavalry against a non-fresh enemy: by default only
            // cavalry, which alone is rated fresh or not (`fresh_against`).
            let charger_fresh = first && charger_steady && !charger_disordered && self.charger.fresh;
            let holder_fresh = first && self.holder_cavalry() && self.holder.fresh && self.holder_steady();
            let rated = self.holder_cavalry() || rules.fresh_against == FreshAgainst::Any;
            if charger_fresh && !holder_fresh && rated {
                charger_mod += rules.combat_fresh_cavalry;
            }
            if charger_fresh && self.charger.lancers {
                charger_mod += rules.combat_lancers_first_round;
            }
            if self.holder_cavalry() {
                if holder_fresh && !charger_fresh {
                    holder_mod += rules.combat_fresh_cavalry;
                }
                if first && self.holder_steady() && self.holder.lancers {
                    holder_mod += rules.combat_lancers_first_round;
                }
                if first && self.holder.advanced < rules.cavalry_stationary_advance {
                    // 4.4: cavalry caught stationary, in the first round; there
                    // are no countercharges (2.6).
                    holder_mod += rules.combat_cavalry_stationary;
                }
            }
            if self.holder.two_rank && !square {
                charger_mod += rules.combat_cavalry_vs_two_rank;
            }
        }
        if self.infantry_charges_cavalry() {
            // Cavalry charged by infantry: it cannot countercharge (2.6) or
            // evade (2.7), and stands steady (2.3) while the infantry is
            // disordered from the start of its charge.
            let steady = first && self.holder_steady();
            if steady && rules.charged_cavalry == ChargedCavalry::AsPrinted {
                // 4.2: steady cavalry vs. unsquared infantry +3; the infantry -3.
                holder_mod += rules.combat_steady_cavalry_vs_unsquared;
                charger_mod += rules.combat_unsquared_vs_steady_cavalry;
            }
            if first && self.holder.advanced < rules.cavalry_stationary_advance {
                // 4.4: caught stationary, the first round.
                holder_mod += rules.combat_cavalry_stationary;
            }
            if steady && self.holder.lancers {
                // 4.2: steady lancers, the first round.
                holder_mod += rules.combat_lancers_first_round;
            }
            if steady && self.holder.fresh && rules.fresh_against == FreshAgainst::Any {
                // 4.2 fresh cavalry vs. non-fresh: infantry counts only under `any`.
                holder_mod += rules.combat_fresh_cavalry;
            }
        }
        if self.holder.two_rank && !square && self.holder.cover == CombatCover::None {
            holder_mod += rules.combat_two_rank;
        }
        match self.holder.cover {
            CombatCover::None => {}
            CombatCover::Soft => charger_mod += rules.combat_vs_soft_cover,
            CombatCover::Hard => charger_mod += rules.combat_vs_hard_cover,
        }
        let charger_is_steady = charger_steady && !charger_disordered;
        let holder_is_steady = holder_steady_now && !holder_disordered;
        if charger_disordered && holder_is_steady {
            charger_mod += rules.combat_disordered_vs_steady;
        }
        if holder_disordered && charger_is_steady {
            holder_mod += rules.combat_disordered_vs_steady;
        }
        CombatTerms { charger_front, charger_dice, charger_mod, holder_dice, holder_mod }
    }

    fn encode(&self, turn: u32, state: &AssaultState, fate: [(bool, bool, bool); 2]) -> u64 {
        let winner = match (fate[0].0, fate[1].0) {
            (false, true) => 0,
            (true, false) => 1,
            _ => 2,
        };
        self.layout.encode(&[
            winner,
            i64::from(turn),
            percent(u32::from(state.figures[0]) + u32::from(state.second), self.charger.figures * self.charger.units),
            percent(u32::from(state.figures[1]), self.holder.figures),
            i64::from(fate[0].1),
            i64::from(fate[1].1),
            i64::from(fate[0].2),
            i64::from(fate[1].2),
        ])
    }

    /// Side `s`'s general: where it is and its charisma.
    fn general(&self, s: usize) -> (GeneralPlace, Charisma) {
        if s == 0 { (self.charger.general, self.charger.charisma) } else { (self.holder.general, self.holder.charisma) }
    }
}

/// Whether the evading fire reading halves the dice (2.7 "1/2 effect").
fn rules_halve(rules: &Rules) -> bool {
    rules.evade_fire != EvadeFire::Modifier
}

fn charger_from(settings: &Settings, arm: Arm, formation: ChargerFormation) -> Charger {
    Charger {
        arm,
        grade: settings.choice("attacker.quality"),
        figures: settings.int("attacker.figures") as u32,
        formation,
        heaviness: settings.choice("attacker.heaviness"),
        lancers: settings.bool("attacker.lancers"),
        fresh: settings.bool("attacker.fresh"),
        terrain: settings.choice("attacker.terrain"),
        obstacle: settings.bool("attacker.obstacle"),
        plowed: settings.bool("attacker.plowed"),
        flank: settings.bool("attacker.flank"),
        modifier: settings.int("attacker.modifier") as i32,
        general: settings.choice("attacker.general"),
        charisma: settings.choice("attacker.charisma"),
        nation: settings.choice("attacker.nation"),
        units: settings.int("attacker.units") as u32,
    }
}

fn holder_from(settings: &Settings, formation: DefenderFormation) -> Holder {
    // The cavalry keys are `cavalry_charge`'s only.
    let cavalry_keys = settings.iter().any(|(k, _)| k == "defender.arm");
    Holder {
        arm: if cavalry_keys { settings.choice("defender.arm") } else { Arm::Infantry },
        heaviness: if cavalry_keys { settings.choice("defender.heaviness") } else { Heaviness::Heavy },
        lancers: cavalry_keys && settings.bool("defender.lancers"),
        advanced: if cavalry_keys { settings.int("defender.advanced") as u32 } else { 0 },
        fresh: !cavalry_keys || settings.bool("defender.fresh"),
        evades: settings.iter().any(|(k, _)| k == "defender.evades") && settings.bool("defender.evades"),
        block: if settings.iter().any(|(k, _)| k == "defender.block") {
            settings.int("defender.block") as u32
        } else {
            0
        },
        grade: settings.choice("defender.quality"),
        figures: settings.int("defender.figures") as u32,
        weapon: settings.choice("defender.weapon"),
        guns: if settings.iter().any(|(k, _)| k == "defender.guns") { settings.int("defender.guns") as u32 } else { 0 },
        order: if settings.iter().any(|(k, _)| k == "defender.order") {
            settings.choice("defender.order")
        } else {
            DefenderOrder::Close
        },
        formation,
        cover: if settings.iter().any(|(k, _)| k == "defender.block") && settings.int("defender.block") > 0 {
            // 6.4.2: the block's cover vs. combat.
            settings.choice("defender.block_cover")
        } else {
            settings.choice("defender.cover")
        },
        modifier: settings.int("defender.modifier") as i32,
        fire_modifier: settings.int("defender.fire_modifier") as i32,
        general: settings.choice("defender.general"),
        charisma: settings.choice("defender.charisma"),
        two_rank: settings.bool("defender.two_rank"),
        nation: settings.choice("defender.nation"),
    }
}

impl Assault {
    /// This fight under `purpose`: what each side must achieve by the turn
    /// limit ([`crate::game::Purpose`]).
    pub fn with_purpose(mut self, purpose: game::Purpose) -> Self {
        self.purpose = purpose;
        self
    }
}

impl Game for Assault {
    type State = AssaultState;

    fn purpose(&self) -> game::Purpose {
        self.purpose
    }

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn start(&self) -> AssaultState {
        Assault::start(self)
    }

    fn steps(&self) -> u32 {
        self.turns
    }

    fn step<F: Fate>(&self, state: &mut AssaultState, fate: &mut F) -> Option<End> {
        if state.charisma[0] == UNROLLED {
            // 1.11: an attached general's charisma, rolled once at the start.
            for s in 0..2 {
                let (place, charisma) = self.general(s);
                state.charisma[s] = if place != GeneralPlace::Attached {
                    0
                } else {
                    match charisma {
                        Charisma::Zero => 0,
                        Charisma::One => 1,
                        Charisma::Two => 2,
                        Charisma::Rolled => self.rules.charisma_of_roll(fate.die(10)) as i8,
                    }
                };
            }
        }
        let charisma = state.charisma.map(i32::from);
        let ending = if self.charger.units == 2 {
            self.turn_two(*state, charisma, fate)
        } else {
            self.turn(*state, charisma, fate)
        };
        match ending {
            Ending::Going(next) => {
                *state = next;
                None
            }
            Ending::Over(end, ends) => {
                *state = end;
                state.fate = pack_fate(ends);
                Some(match (ends[0].0, ends[1].0) {
                    (false, true) => End::Attacker,
                    (true, false) => End::Defender,
                    (true, true) => End::BothBroke,
                    // 2.7: only an evade ends a fight with both sides in it:
                    // the defender left.
                    (false, false) => End::DefenderLeft,
                })
            }
        }
    }

    fn code(&self, winner: u8, steps: u32, state: &AssaultState) -> u64 {
        let mut ends = if state.fate != 0 { unpack_fate(state.fate) } else { Self::limit_fate(state) };
        if self.charger.units == 2 && state.fate == 0 {
            // A fight going on at the limit: one of two chargers may already
            // have routed or shattered (on the approach, or in a round), and
            // the attacker's `routed`/`shattered` say so.
            ends[0] = Self::chargers_side(state.chargers);
        }
        // The winner under the purpose, whoever is left in the field.
        self.layout.with_value(self.encode(steps.max(1), state, ends), 0, i64::from(winner))
    }

    fn at_limit(&self, state: &AssaultState) -> End {
        // A side still pursued at the limit has routed: its enemy has won.
        match state.pursuer {
            Some(p) => End::won_by(p),
            None => End::Limit,
        }
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        DECISIONS
    }

    /// Keys that change nothing at these settings: cavalry's keys on an
    /// infantry unit (and an infantry charger's formation on cavalry), an
    /// attached general's charisma with no general attached, a battery's
    /// guns with no battery, a block's cover with no block.
    fn unread_keys(&self) -> Vec<(String, String)> {
        let mut unread = Vec::new();
        let mut push = |key: &str, why: &str| unread.push((key.to_string(), why.to_string()));
        if self.cavalry() {
            push("attacker.formation", "the charger is cavalry: the formation is an infantry charger's");
        } else {
            for key in ["attacker.heaviness", "attacker.lancers", "attacker.fresh"] {
                push(key, "the charger is infantry: the key is cavalry's");
            }
        }
        if !self.holder_cavalry() {
            for key in ["defender.heaviness", "defender.lancers", "defender.advanced", "defender.fresh"] {
                push(key, "the defender is not cavalry: the key is cavalry's");
            }
        }
        for (s, side) in ["attacker", "defender"].into_iter().enumerate() {
            if self.general(s).0 != GeneralPlace::Attached {
                push(&format!("{side}.charisma"), "no general is attached (1.11: charisma counts only when attached)");
            }
        }
        if !self.battery() {
            push("defender.guns", "the defender is not a battery (its weapon is not a gun)");
        }
        if self.holder.block == 0 {
            push("defender.block_cover", "the defender holds no town block (defender.block = 0)");
        }
        unread
    }

    fn fallback(&self) -> Policy {
        // Two chargers beyond the solver play bold: they close the full move
        // and the line shoots the weaker (see `TWO_CHARGERS_EXACT_MAX_FIGURES`).
        if self.charger.units == 2 { Policy::Bold } else { Policy::Cautious }
    }

    fn solvable(&self, _plan: game::Plan) -> bool {
        let most = match self.charger.units {
            2 if self.distance > self.moves().1 => TWO_CHARGERS_APPROACH_EXACT_MAX_FIGURES,
            2 => TWO_CHARGERS_EXACT_MAX_FIGURES,
            _ => EXACT_MAX_FIGURES,
        };
        self.charger.figures <= most && self.holder.figures <= EXACT_MAX_FIGURES
    }

    fn describe_state(&self, state: &AssaultState, _side: u8) -> String {
        let charger = if self.cavalry() { "cavalry" } else { "infantry" };
        let holder = if self.battery() {
            "a battery"
        } else if self.holder_cavalry() {
            "cavalry"
        } else if self.holder.order == DefenderOrder::Skirmish {
            "skirmishers"
        } else if state.square {
            "a square"
        } else {
            "a line"
        };
        if self.charger.units == 2 {
            let out = |i: usize| state.chargers & Self::charger_bit(i, 0) != 0;
            let unit = |i: usize, figures: u8| if out(i) { "out".to_string() } else { figures.to_string() };
            return format!(
                "two {charger} units ({} and {} figures) {}\" from {} of {holder}",
                unit(0, state.figures[0]),
                unit(1, state.second),
                state.distance,
                state.figures[1]
            );
        }
        format!("{} {charger} {}\" from {} of {holder}", state.figures[0], state.distance, state.figures[1])
    }

    fn describe_option(&self, decision: &'static Decision, option: u16) -> String {
        let words: [&str; 2] = match decision.name {
            "charge" => ["charge now", "close first"],
            "approach" => ["close a full move", "halt at the edge of charge reach"],
            "target" => ["fire at the first charger", "fire at the second charger"],
            "evade" => ["stand", "evade"],
            "pursue" => ["hold", "pursue"],
            "hold" => ["charge", "hold where it stands"],
            "square" => ["stay in line", "form square"],
            other => unreachable!("assault has no decision {other}"),
        };
        words[usize::from(option.min(1))].to_string()
    }
}

/// Per side (out, routed, shattered) as bits.
fn pack_fate(ends: [(bool, bool, bool); 2]) -> u8 {
    let side =
        |(out, routed, shattered): (bool, bool, bool)| u8::from(out) | u8::from(routed) << 1 | u8::from(shattered) << 2;
    side(ends[0]) | side(ends[1]) << 3
}

fn unpack_fate(bits: u8) -> [(bool, bool, bool); 2] {
    let side = |b: u8| (b & 1 != 0, b & 2 != 0, b & 4 != 0);
    [side(bits & 7), side(bits >> 3)]
}

/// `assault` or `cavalry_charge` as played by the plan of its keys.
pub fn played(assault: Assault, settings: &Settings) -> Played<Assault> {
    Played::new(assault.with_purpose(game::Purpose::from_settings(settings)), game::Plan::from_settings(settings))
}
