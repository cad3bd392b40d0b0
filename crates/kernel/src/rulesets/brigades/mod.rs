//! Brigades and Batteries (Wes Rogers): D10 shooting and combat tables, morale
//! tests against a pass score by grade, and the rout table, as scenarios with
//! exact solvers.
//!
//! Submodules, one per mechanic: [`fire`] (3.1-3.5: `fire`, and
//! `counterbattery` for the hit effects on guns), [`morale`] (5.2-5.7),
//! [`combat`] (4.1-4.2; `multi_combat`, two units against one, 4.5),
//! [`converging`] (`converging_fire`: one or two units' fire at one target,
//! which tests once on all its hits, 5.4 (1), 5.6), [`firefight`] (two units
//! shooting it out, turn after turn), [`crossing`] (a unit marching across a
//! stationary firer's front, for pass-through fire, 7.1), [`assault`] (a
//! charge through defensive fire into combat: `assault`, whose defender may
//! be a line, a square, skirmishers, a battery, cavalry or a town block's
//! garrison, and whose chargers may be two, and `cavalry_charge`, whose
//! defender may be cavalry, on the kernel's decision model: see [`assault`]
//! for their decisions), and [`roll`], which plays one turn's logic on the
//! decision model's fate, so Monte Carlo, the exact law and best play share
//! one description of the rules.
//!
//! Exact solvers: `fire`, `counterbattery`, `morale`, `combat`,
//! `multi_combat` and `converging_fire` enumerate their dice (binomials, the
//! two D10s of a test); `firefight` (two infantry units on a dense table,
//! `firefight::DenseSolver`, the default 24 against 24 over 30 turns
//! included; batteries, a surrounded side (5.8) or 7.13 returns up to about
//! 9 figures a side, `firefight::GAME_MAX_SIZES`, beyond which Monte Carlo
//! under the `bold` fallback) and `assault` / `cavalry_charge` (up to 36; two
//! chargers up to 12 each, 10 each from beyond charge reach) are games solved by backward induction, best play
//! included ([`crate::game`]), and so is `crossing` (the mover's `move`
//! decision; best play within `crossing::MAX_STATES`, cautious beyond);
//! larger units are Monte Carlo only.
//!
//! # Ruleset note
//!
//! Every interpretation below is a field of [`Rules`] (`volley rules brigades`)
//! or a scenario key, so it can be switched.
//!
//! - The shooting table (3.2) lost its merged cells in the text. Following the
//!   issue: every canister row hits on 6/9/9/10 (normal/skirmish/soft/hard);
//!   every ballshot row on 8/NIL/8 with hard 10 for light and field guns and 9
//!   for heavy guns. A score of 0 in a table field means NIL: no die hits, not
//!   even a natural 10.
//! - Natural results (1.12) apply to fire and combat only, never to morale or
//!   rout rolls (5.2 says so).
//! - Dice from figures (3.1, 4.1): whole groups of four (three for cavalry in
//!   combat, or for a two-rank line's fire) give a die each, and a final
//!   remainder of at least three (two) gives one more. A remainder of three is
//!   only possible with four figures to a die, so "at least" reads the same.
//! - The `figures` key of `combat` is the unit's eligible figures (front rank,
//!   or two ranks when cavalry fights cavalry; the whole square against
//!   cavalry): the scenario does not know the formation.
//! - Shattering (5.3): a unit is shattered once its total losses reach three
//!   quarters of its starting figures (`losses * 4 >= start * 3`).
//! - "Each 25% total losses" (5.6) counts whole quarters of the starting
//!   strength, rounded down; "each 2 hits this phase" counts whole pairs.
//!   Both count the hits of the phase in which the test is taken.
//! - The `morale` scenario's `shattered` outcome is a rout score of 0 or less
//!   (5.7.1); it cannot know the unit's starting strength, so 3/4 losses from
//!   rout hits are left to the multi-turn scenarios. A shattered unit suffers
//!   no rout hits (it is removed instead).
//! - Multi-turn scenarios count `attacker_remaining` / `defender_remaining` as
//!   the figures not lost to hits or rout hits, whether or not the unit routed
//!   off or shattered, so the percentages show what the fight cost.
//! - Firefights on the decision model (see [`firefight`], issue 15 item 1):
//!   a rout opens the gap and only moves close it (2.11, 3.1); each side
//!   decides to hold, or to move by the whole inch (issue 32): close up to
//!   half a move and fire at -2, or up to a whole move and not fire, or
//!   retire at half speed (2.12, `retire_speed`: printed, 2" back without
//!   fire or 1" with it; half_move, the old half a move back with fire);
//!   who moves first is rolled every turn (2.1, `firefight_initiative`:
//!   rolled, each side half the time, the winner's `order` decision to be
//!   side A or B; attacker_first, the old fixed order);
//!   batteries never move and pick
//!   canister or ballshot where both reach. The paragraph below describes the
//!   Markov chain `firefight::Firefight`, the old fixed reading kept for
//!   comparison.
//! - Firefights (see [`firefight`]): a unit that fails morale routs back the
//!   rout distance and is shaken; the enemy closes to the same range again
//!   (`FirefightRout::Reengage`), so the firefight goes on until the unit has
//!   routed back past its `room` (it has routed off), or the other choice
//!   (`FirefightRout::Ends`) ends the firefight at the first rout. A shaken
//!   unit stands still and holds its fire for one turn to recover (2.4;
//!   `ShakenPolicy::Recover`), or keeps firing at -2 and stays shaken. In
//!   the decision model an infantry unit playing `best` decides this each
//!   turn it is shaken; `shaken_policy` is what a heuristic side and a
//!   battery do.
//! - A firefight side may be a battery (a gun `weapon`; `figures` its
//!   gunners, `guns` its actual guns): canister within canister range, else
//!   ballshot (3.2). Its gunners are spread evenly over its models for 3.1's
//!   crew limits (`battery_crew`: `even`, or `best` for the most dice); a
//!   destroyed gun costs a die (`battery_gun_loss`: `subtract`, 3.1's text,
//!   or `cap`: the crews man the guns left). Hits on it roll on 3.4; the hits
//!   that count for its morale and 7.5 are those that took a gunner
//!   (`battery_hits`: `effects`; or `dice`, every die that hit). Its gunners
//!   are its figures for 5.x; it routs with its guns and is met at the same
//!   range again.
//! - Army baselines (5.8): a `surrounded` side's room runs to its centre
//!   point; it routs on past it, with 2 extra rout hits on the rout that
//!   passes it (`surrounded_hits`: `crossing`, or `beyond` for every rout
//!   ending past it), and surrenders when a rout ends `ring` inches or more
//!   past it, in the arms of the enemy there (a shatter by rout hits first).
//! - First rout off-table (7.13) in a firefight under `reengage`: the unit
//!   leaves the table; from the next turn a D10 of 8-10 at the start of
//!   movement brings it back at its edge, steady (7.4), with no room left;
//!   the enemy, which closes on every router, stands at the firefight
//!   distance from that edge, so fire resumes that turn; nobody fires while
//!   it is away, and a unit still away at the end counts as routed off.
//! - Assaults (see [`assault`]): while out of charge reach the charger moves
//!   its move (2.11), or, where that would end nearer than the edge of its
//!   charge reach, may halt at that edge (the attacker's `approach`
//!   decision, for one charger or two: next turn's charge lands just the
//!   same, and it is shot from farther), and is shot where it stops; a
//!   French or Spanish column that halts short is not "advancing full speed"
//!   and loses its 7.11 bonus for that volley; on the charge turn the
//!   defender fires once at close range (canister for guns;
//!   `defensive_fire_band`), then the charger tests to charge home if 5.4 asks,
//!   then the defender if charged by a steady enemy; combat rounds follow, one
//!   a turn, the loser testing, until one side routs or shatters (a rout ends
//!   the assault: no pursuit). After the first round both sides are
//!   disordered (2.3), so "disordered vs. steady", "steady cavalry vs.
//!   unsquared infantry", fresh cavalry and lancers apply to the first round
//!   only. A charging column fights with its front rank, up to 8 figures
//!   (1.8, 4.1), and is a dense target for ballshot from 17 figures (3 ranks).
//! - A proper flank or rear charge (`attacker.flank`, 4.6) is out of the
//!   defender's arc of fire (3.1: 45 degrees either side), needs no test to
//!   charge home (5.4), gives the defender -2 on its test (5.6), and keeps +3
//!   and -3 for the whole combat (4.6, 4.7).
//! - Evasion (2.7, 2.8; `assault`'s `defender.evades`): skirmishers and a
//!   battery's gunners may evade a charge that starts farther than 2"
//!   (infantry) or 4" (cavalry) away. They shoot first at the evading
//!   penalty (`evade_fire`: `modifier`, 3.3's -2, default, since 3.1 calls
//!   it fire "at a penalty" and -2 turns close musketry's 7-10 into 9-10,
//!   half its effect; `half_dice`; `both`), the charger tests if hit twice,
//!   and the charge meets nobody: skirmishers get away (no winner), gunners
//!   leave their guns to the charger (the attacker wins). A charge from
//!   closer overruns them as before.
//! - The charger's state on contact (2.3): charging across or into
//!   disordering terrain (`attacker.terrain`) or, for cavalry, failing 6.6's
//!   plowed-field roll (`attacker.plowed`: 8-10) disorders it; charging into
//!   an obstacle (`attacker.obstacle`) makes it unsteady (6.5) and costs -1
//!   in every round (4.2 vs. obstacle). A charger unsteady on contact is no
//!   "steady enemy": the defender does not test (5.4 (3)), infantry is not
//!   disordered by its contact, cavalry gets no +3 against unsquared
//!   infantry and is not fresh, lancers get no +2; a disordered one fights
//!   at -2 against a steady defender. Its 16"/20" charge move is for
//!   "steady cavalry launching a charge" (2.11), and the ground it meets
//!   comes after the launch, so it keeps it (`charge_move_steady`: `launch`,
//!   default; `contact` takes it away for terrain and obstacles, which are
//!   known before the charge; the plowed roll never can be).
//! - Gunners and skirmishers in the open are overrun on contact (4.11): they
//!   are unsteady (2.3), so the charger tests only after 2 hits, and the
//!   defender does not test; unless they evade (below) they stand. In cover
//!   they fight. A battery's figures are its gunners, spread over its models
//!   for the crew limits of 3.1 as in the firefight (`battery_crew`).
//! - National modifiers (7.11) apply to grade A-E troops: in assaults the
//!   column's bonus vs. shooting hits (France +2, Spain, Austria and later
//!   Prussia +1; -1 in line for Austria and later Prussia, +1 for Britain)
//!   counts only on approach turns, not the charge, except Britain's +1 in
//!   line, which names no charging exception and so counts on a charging
//!   line's test after 2 hits too; British cavalry +1 "to charge or meet a
//!   charge" on every test of the charging (or charged) cavalry in the turn
//!   the charge lands: its charge-home or 2-hit test and its test for losing
//!   the first round; early Prussians do not test against a cavalry charge if
//!   steady; Russians +2 vs. losing a combat and -1 with muskets; steady
//!   British infantry +1 with muskets. Firefights are fought in line.
//! - A unit's general is a key per side (`in_radius`, `out_of_radius`,
//!   `attached`) rather than a distance, so the command radius fields (12",
//!   6" attached) are recorded for the reader; a general lost to 7.5 leaves
//!   his unit with no general in radius (-1).
//! - Generals: a side's general is `in_radius` (no modifier), `out_of_radius`
//!   (-1 to morale and rout) or `attached` (adds its charisma to morale and
//!   rout scores; with danger to generals, 7.5, he may be lost). Charisma is
//!   rolled on 1D10 (1.11) unless a fixed value is given.
//! - Optional rules (7) are switches in [`Rules`], all off by default. Danger
//!   to generals (7.5), two-rank line (7.9) and national modifiers (7.11) change
//!   the scenarios, and so do pinning (7.3) and carry-through (7.8), below,
//!   and pursuit (7.4) in assaults: cavalry that routs
//!   the defender in combat pursues on a D10 of 1-4 (-3 for grade E/F, so 1-7);
//!   the next turn it strikes the shaken routers (-3) with double hits, and
//!   neither side is steady; if the routers lose again they rout again
//!   without a test (rolling for rout hits), and the cavalry may pursue again
//!   at the cost of one rout hit; entering the first pursuit costs one too
//!   (`pursuit_cost`: `every`, default, since 7.4's "yet another rout hit"
//!   for the renewed pursuit implies an earlier one; `again` charges only
//!   renewed pursuits). A pursuer losing a pursuit round (more hits taken than
//!   inflicted, the routers' double hits counted as inflicted) tests at -3
//!   like any loser (`pursuer_loses`: `tests`, default: 5.4 (4) has no
//!   exception and 7.4 fights "a new round of combat"; `ends`: the pursuit
//!   just ends); the pursuit ends either way. A pursuer that routs from that
//!   test is out as well as the routers, so the fight ends with no winner,
//!   as when a pursuer shatters. Infantry pursues only by its decision
//!   (`pursue`, see [`assault`]), never after cavalry.
//!   The cavalry bounce (7.1): cavalry that did not inflict more hits than it
//!   took, with no one routed, recoils 4". Against infantry that ends the
//!   charge as undecided (`none`): infantry never pursues cavalry (7.4) and no
//!   renewed charge is played. Between cavalry (`defender.arm`), the winner
//!   rolls 7.4's roll to resist pursuit even without the pursuit rule, and on
//!   a failure follows up: the combat goes on next turn, without double hits
//!   (`bounce_follow_up`: roll, or holds); a winner that holds, a winner that
//!   may not pursue faster cavalry, or equal hits (both recoil) end it as
//!   undecided. Either side's cavalry may pursue the other (7.4), never
//!   faster cavalry (the faster has the larger 2.11 move).
//!   First rout off-table (7.13) changes the firefight (above). Pass-through
//!   fire (7.1, `optional_pass_through_fire`) changes the `crossing` scenario
//!   (below); it changes no charge (a charged unit fires at its charger
//!   anyway, 3.8) and no firefight (its only moves in the movement phases
//!   close straight in, so what was in range for half a move still is at its
//!   end; rout moves come after all fire, 2.1 phase 5).
//! - Cavalry charged by cavalry: no fire (3.1), no test to charge home or on
//!   being charged (5.4: "cavalry charging other cavalry does not test"
//!   unless shot, and 5.4 (3) names infantry); there are no countercharges
//!   (2.6), so the defender is caught stationary (-2, 4.4) in the first round
//!   unless it advanced 2" in its last move (`defender.advanced`); the
//!   charger, having charged, is never caught stationary (4.4's "special
//!   case regarding short charges" is not in the text). Both count
//!   all their figures (4.1's two ranks hold the one-rank line of 1.10
//!   stands), fresh cavalry gets +2 only against a non-fresh enemy
//!   (`attacker.fresh`, `defender.fresh`), lancers +2 in the first round if steady, and
//!   heaviness +1 a level in every round (4.3).
//! - Pinning (7.3, `optional_pinning`): the one formation change the
//!   scenarios play is `cavalry_charge`'s `defender.formation = forms_square`,
//!   a line forming square in its own movement phase of the first turn, before
//!   the cavalry moves (2.12: there is no emergency square), with the cavalry
//!   `distance` away. Within `pinning_distance` (4") the square is shaken at
//!   once, and stays so (2.4: it cannot stand still a full turn before the
//!   charge lands, nor while it fights): -2 to its fire (3.3) and morale
//!   (5.6), -3 in combat (4.2), and unsteady (2.3), so the cavalry need not
//!   test to charge home (5.4 (2)), is not disordered by it, and it is
//!   disordered as "infantry not in a steady square" (2.3), though it keeps
//!   its +3 as a square. Forming square costs half a move (2.12), so that
//!   turn it fires as moving, -2 (`formation_change_fire`: moving, or free).
//!   It costs a whole move for an extended line (1.8: wider than 24
//!   figures) or a grade E-F unit (2.12's "X2 if unsteady or grade E-F"):
//!   with no half move left to fire after (3.1), it does not fire that turn
//!   (under `moving`); an extended line of grade E-F would need two moves,
//!   and is refused. An infantry charger in a line wider than 24 figures
//!   moves 3" (2.11 extended line).
//!   Pinning by skirmishers and artillery has no effect: the only enemy near
//!   a formation change here is cavalry.
//! - Carry-through (7.8, `optional_carry_through`; the `rear` keys of `fire`):
//!   a rearward target within the fire's carry-through range behind the first
//!   (small arms and canister 4", ballshot 6"/8"/10" for light/field/heavy
//!   guns) is hit by the dice that missed the first target, rolled again on
//!   the same row of the shooting table (the carry-through range stands in
//!   for the range table), with the shooter's modifiers and the rear target's
//!   type and density. "Dice that miss" are every die that did not hit: a
//!   natural 1 too (`carry_through_natural_ones`: carry, or spent), and every
//!   die fired at a NIL first target (`carry_through_nil`: carry, as 3.12
//!   lets ballshot pass skirmishers, or stopped).
//! - Crossing (see [`crossing`]; 7.1, 3.8): the mover moves each turn along
//!   a straight path as far as it decides, any whole number of inches up to
//!   its move (2.11's rates are maximums: 3.1's half move, 7.11's "advancing
//!   full speed"; its `move` decision, the attacker's, arriving its win and
//!   a rout or shattering its loss), and the firer fires in phase 5 at a
//!   mover eligible at the end of its move (a halt included), or, with
//!   pass-through fire, one eligible for at least `pass_through_percent`
//!   (50: "at least half", exactly half counts) of its movement that turn,
//!   measured in inches along the path (at one speed on a straight line,
//!   distance and time agree): half of the distance it moved
//!   (`pass_through_measure`: `moved`, "its movement that turn"), or of its
//!   full move (`full_move`). Eligible
//!   means within the `exposed` stretch of path, its ends included (in
//!   range at exactly the range). 3.8 says a stationary unit "may shoot at
//!   any target that passed through its range and arc of fire this turn",
//!   which 7.1's "normally ... only ... at the end of movement" contradicts:
//!   `stationary_fire_targets` is `end_of_move` (7.1, so that the optional
//!   rule adds something) or `passed_through` (3.8 literally: any move that
//!   touched the stretch). A unit that shot last turn is still stationary
//!   (2.4 counts moving and shooting apart); a firer that makes half a move
//!   to fire (`firer.moving`, -2, never a battery: 3.1) is not, and shoots
//!   only what is eligible at the end of all movement (3.8). A mover that
//!   fails morale routs out of the fight (5.7.3: back toward its baseline
//!   after all fire, shaken, 5.7.4): its crossing has failed and it is not
//!   followed further; one still in good order past the stretch has arrived.
//!   An infantry column of more than two column widths (three ranks) is
//!   dense for ballshot (3.5). So is a line where it is enfiladed at 22.5
//!   degrees or less onto its flank (3.5): marching along the path it faces
//!   along it, so the firer looks down its flank while it is within
//!   `across` x tan 22.5 degrees of the point of the path straight ahead (the
//!   middle of the stretch, which range and arc make symmetric about it); the
//!   volley strikes where the move ended, or, given under 7.1 or 3.8's wider
//!   reading to a mover no longer eligible at the end, on its flank if the
//!   eligible part of the move met that stretch (the firer picks its moment).
//!   Cavalry has no such line here (it moves the same whatever its width, 1.8). The firer takes no fire, so its dice never
//!   change, and it has no decision (it fires whenever it may). National
//!   modifiers (`mover.nation`, infantry) give the mover its 7.11 morale
//!   modifier vs. shooting hits, France's and Spain's only after a full move
//!   in column ("advancing full speed"), and early Prussians 1" less move.
//! - Multi-unit combats (4.5, `multi_combat`): the defender's dice are
//!   divided as evenly as possible, the odd die towards the attacker it has
//!   the most figures in combat with (`defender.split_towards`); its grade
//!   modifier is against each target's grade, its other modifiers against
//!   both. Whether a unit of a side of two "loses a combat" (5.4 (4)) by its
//!   side's hits or its own the rules do not say: `loser` compares the sides'
//!   totals and `attacker_lost` / `second_lost` each attacker's own. The
//!   defender may take modifiers against one target alone
//!   (`defender.modifier_vs_attacker`, `defender.modifier_vs_second`): 4.9
//!   Case D strikes the unit in front "with no penalty" and the flank
//!   attacker at -3 (4.7). A
//!   cavalry defender facing two arms is refused (its dice depend on the
//!   enemy's arm, 4.1, before they are divided).
//! - Fresh cavalry (4.2 "Fresh cavalry vs. non-fresh: +2"; "Fresh Cavalry"
//!   after 4.11) gets its +2 only against cavalry that is not fresh
//!   (`fresh_against`: `cavalry`, default): freshness is defined as a rating
//!   of cavalry (its first round of combat of the game, if steady), so
//!   "non-fresh" names cavalry that has lost it; infantry and gunners are not
//!   "non-fresh cavalry". `any` gives the +2 against every enemy not rated
//!   fresh, as the scenarios did before issue 15. A charger that has fought
//!   before is set up with `attacker.fresh = false`.
//! - A steady square charged by cavalry does not test (`square_charged_test`:
//!   `exempt`, default): 2.3 disorders "cavalry contacting a steady square",
//!   so the cavalry that reaches it is no "steady enemy" for 5.4 (3); the
//!   `tests` switch keeps the older reading (a test at -4), under which cavalry
//!   beat a steady square 24.0% of the time, almost all through that test.
//!   A square fires with one face, a quarter
//!   of its figures, at -1 (3.3); against cavalry all four faces fight (4.10).
//! - Cavalry charged by infantry (`assault`'s `defender.arm = cavalry`; see
//!   [`assault`]): 4.1's die per figure against "unsquared infantry in the
//!   open" and 4.2's +3 for "steady cavalry vs unsquared infantry" name no
//!   charger, so the standing cavalry has both (`charged_cavalry`:
//!   `as_printed`, default), with 4.4's -2 for being caught stationary as
//!   the rules' own allowance for cavalry that stood; `no_shock` reads them
//!   as the shock of cavalry's own charge (a die per three, no +3/-3). The
//!   infantry is disordered from the start of its charge (2.3) and the
//!   "open" is the ground it charges over (no disordering terrain, no
//!   obstacle).
//! - Town blocks (6.4; `assault`'s `defender.block`, see [`assault`]): the
//!   figures a block holds are the referee's (6.4.1), a key; the block is
//!   soft cover vs. combat unless rated hard (6.4.2, `defender.block_cover`);
//!   "up to half the figures" fire (6.4.4) reads as half, rounded down,
//!   since a player fires all he may; the attacker's 1.5 x the garrison size
//!   "against each side" is 1.5 x the block's capacity, the example's 24 and
//!   36 being a capacity. Both sides are unsteady (6.4.1), so neither tests
//!   on being charged, and the attacker tests to charge home only at a hard
//!   block (5.4 (2)).
//! - Splitting fire (3.10) among two chargers (`attacker.units = 2`, see
//!   [`assault`]): on their approach, not yet charging, they are targets the
//!   line must "concentrate its fire onto", one of them, its choice (the
//!   `target` decision); charging, the dice go half to each (3.10) and all to
//!   a lone charger (3.8 "must shoot first at any enemies charging it"). The
//!   odd die between chargers the approach left unequal goes toward the one
//!   with more figures (`split_odd_die`: `more_figures`, default: 3.10 says
//!   only "as evenly as possible", and 4.5, the rules' one rule for dividing
//!   dice among several enemies, rounds toward the most figures; `chosen`
//!   leaves it to the firer, its `target` decision); between alike chargers
//!   shot together from their start it cannot arise. The two move as one
//!   (2.1: a side moves all its units in its phase; the scenario is two
//!   units attacking together), so one never charges while the other holds
//!   back; a lone charger is one whose partner is out. A divided combat follows 4.5, and
//!   "the unit loses more hits ... than it inflicts" (5.4 (4)) is read per
//!   unit (`multi_loser`: `per_unit`, default, as printed: "the unit";
//!   `side` tests both chargers when together they lost).
//! - The face of a square (4.10, 3.1): a quarter of its figures, rounded down
//!   when they do not divide by four (`square_face`: `down`, default, since
//!   the charger chooses where its charge lands, 2.6, and so meets a face
//!   without the odd figures; `up`). Against an infantry charger (`assault`'s
//!   `defender.formation = square`) that face is all that fires and fights;
//!   the charger tests to charge home as against any steady infantry (-2),
//!   the square tests on being charged (-3: the exemption from 5.4 (3) is
//!   for cavalry, disordered by a steady square, 2.3) and is disordered by
//!   the contact (2.3), -2 in the first round.

pub mod assault;
pub mod combat;
pub mod converging;
pub mod crossing;
pub mod fire;
pub mod firefight;
pub mod morale;
pub mod roll;

use crate::catalogue::{RulesetEntry, ScenarioEntry};
use crate::dice::Dice;
use crate::params::{Param, ParamError, RuleBook, Settings};
use crate::pmf::Pmf;
use crate::scenario::DynScenario;

mod rules;
mod types;

pub use rules::*;
pub use types::*;

/// An attached general's charisma in a multi-turn state before it is
/// rolled at the start of the fight (1.11).
pub(super) const UNROLLED: i8 = i8::MIN;

fn invalid(key: &str, reason: impl Into<String>) -> ParamError {
    ParamError::Invalid { key: key.to_string(), reason: reason.into() }
}

/// The Brigades and Batteries ruleset.
pub fn entry() -> RulesetEntry {
    RulesetEntry {
        name: "brigades",
        title: "Brigades and Batteries (Wes Rogers)",
        source: "the Brigades and Batteries rules; sections cited by number",
        default_rules: || Box::new(Rules::default()),
        scenarios: vec![
            ScenarioEntry {
                name: "fire",
                summary: "One unit's fire (3.1-3.5): hits from D10s on the shooting table.",
                params: fire::params(),
                build: build_fire,
            },
            ScenarioEntry {
                name: "counterbattery",
                summary: "Fire at a battery (3.4): hits, then each hit's effect: gunners and actual guns lost.",
                params: fire::counterbattery_params(),
                build: build_counterbattery,
            },
            ScenarioEntry {
                name: "morale",
                summary: "One morale test (5.2-5.6) and, on failure, the rout roll (5.7).",
                params: morale::params(),
                build: build_morale,
            },
            ScenarioEntry {
                name: "combat",
                summary: "One round of combat (4.1-4.2): hits each way and who lost.",
                params: combat::params(),
                build: build_combat,
            },
            ScenarioEntry {
                name: "multi_combat",
                summary: "One round of a multi-unit combat (4.5): two units strike one, which divides its dice between them.",
                params: combat::multi_params(),
                build: build_multi_combat,
            },
            ScenarioEntry {
                name: "converging_fire",
                summary: "One or two units fire at one target in the same phase (3.1-3.5); it takes one morale test on all the hits (5.4 (1), 5.6) and routs on failure (5.7).",
                params: converging::params(),
                build: build_converging_fire,
            },
            ScenarioEntry {
                name: "firefight",
                summary: "Two units (infantry or batteries) exchange fire each turn, test morale, rout, rally and shatter, until one routs off, shatters, surrenders or the turn limit.",
                params: firefight::params(),
                build: build_firefight,
            },
            ScenarioEntry {
                name: "crossing",
                summary: "An enemy unit marches across a stationary firer's front, turn by turn, moving as far as its policy decides (up to its move): volleys at the end of each move, or with pass-through fire (7.1) when it was in the field of fire for half its movement; hits, morale tests and routs until it is past, or the turn limit.",
                params: crossing::params(),
                build: build_crossing,
            },
            ScenarioEntry {
                name: "assault",
                summary: "An infantry column or line, or cavalry, charges a line, a square, skirmishers or a battery through defensive fire, tests to charge home, and fights combat rounds until one side routs or shatters.",
                params: assault::assault_params(),
                build: build_assault,
            },
            ScenarioEntry {
                name: "cavalry_charge",
                summary: "Cavalry charges infantry in line or in square (defensive fire, charge-home tests and combat rounds), or cavalry (a melee round after round, with the bounce and follow-ups).",
                params: assault::cavalry_charge_params(),
                build: build_cavalry_charge,
            },
        ],
    }
}

fn build_assault(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let assault = assault::Assault::from_assault_settings(crate::params::rules_of::<Rules>(rules), settings)?;
    Ok(Box::new(assault::played(assault, settings)))
}

fn build_cavalry_charge(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let assault = assault::Assault::from_cavalry_settings(crate::params::rules_of::<Rules>(rules), settings)?;
    Ok(Box::new(assault::played(assault, settings)))
}

fn build_crossing(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    Ok(Box::new(crossing::Crossing::from_settings(crate::params::rules_of::<Rules>(rules), settings)?))
}

fn build_firefight(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    Ok(Box::new(firefight::FirePlayed::from_settings(crate::params::rules_of::<Rules>(rules), settings)?))
}

fn build_converging_fire(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    Ok(Box::new(converging::ConvergingFire::from_settings(crate::params::rules_of::<Rules>(rules), settings)?))
}

fn build_fire(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    Ok(Box::new(fire::Fire::from_settings(crate::params::rules_of::<Rules>(rules), settings)?))
}

fn build_counterbattery(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    Ok(Box::new(fire::Counterbattery::from_settings(crate::params::rules_of::<Rules>(rules), settings)?))
}

fn build_morale(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    Ok(Box::new(morale::Morale::from_settings(crate::params::rules_of::<Rules>(rules), settings)?))
}

fn build_multi_combat(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    Ok(Box::new(combat::MultiCombat::from_settings(crate::params::rules_of::<Rules>(rules), settings)?))
}

fn build_combat(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    Ok(Box::new(combat::Combat::from_settings(crate::params::rules_of::<Rules>(rules), settings)?))
}

/// The `Param` of a grade key.
pub(crate) fn grade_param(name: &str, doc: &str) -> Param {
    Param::choice(name, doc, Grade::D)
}
