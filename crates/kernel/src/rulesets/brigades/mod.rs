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

crate::choice_enum! {
    /// 1.7 Morale grades: A (the best) to F (raw recruits).
    pub enum Grade {
        /// Grade A.
        A = "a",
        /// Grade B.
        B = "b",
        /// Grade C.
        C = "c",
        /// Grade D: average.
        D = "d",
        /// Grade E.
        E = "e",
        /// Grade F: raw recruits.
        F = "f",
    }
}

impl Grade {
    /// 0 for A to 5 for F.
    pub fn index(self) -> usize {
        self as usize
    }
}

crate::choice_enum! {
    /// 3.2 Types of fire.
    pub enum Weapon {
        /// Muskets.
        Musket = "musket",
        /// Rifles.
        Rifle = "rifle",
        /// Light guns (4# or lighter).
        LightGun = "light_gun",
        /// Field guns (9# or lighter).
        FieldGun = "field_gun",
        /// Heavy guns (12# or heavier).
        HeavyGun = "heavy_gun",
    }
}

impl Weapon {
    /// Whether this is artillery.
    pub fn is_gun(self) -> bool {
        matches!(self, Weapon::LightGun | Weapon::FieldGun | Weapon::HeavyGun)
    }
}

crate::choice_enum! {
    /// 3.2 Range bands: close or far for small arms, canister or ballshot for guns.
    pub enum RangeBand {
        /// Small arms, close.
        Close = "close",
        /// Small arms, far.
        Far = "far",
        /// Guns, canister.
        Canister = "canister",
        /// Guns, ballshot.
        Ballshot = "ballshot",
    }
}

crate::choice_enum! {
    /// 3.2 Target types.
    pub enum Target {
        /// A close-order target in the open.
        Normal = "normal",
        /// Skirmishers.
        Skirmish = "skirmish",
        /// A target in soft cover.
        Soft = "soft",
        /// A target in hard cover.
        Hard = "hard",
    }
}

crate::choice_enum! {
    /// 1.5 Arms, as they fight in combat (4.1).
    pub enum Arm {
        /// Infantry.
        Infantry = "infantry",
        /// Cavalry.
        Cavalry = "cavalry",
        /// Gunners.
        Gunners = "gunners",
    }
}

crate::choice_enum! {
    /// 4.3 Heaviness of cavalry.
    pub enum Heaviness {
        /// Light cavalry (hussars, chasseurs, light dragoons, lancers).
        Light = "light",
        /// Heavy cavalry (line or heavy dragoons).
        Heavy = "heavy",
        /// Cuirassiers.
        Cuirassier = "cuirassier",
    }
}

crate::choice_enum! {
    /// Where a side's general is (1.11, 1.11.1).
    pub enum GeneralPlace {
        /// Within command radius, not attached: no modifier.
        InRadius = "in_radius",
        /// No general in command radius: -1 to morale and rout (5.6, 5.7.2).
        OutOfRadius = "out_of_radius",
        /// Attached: his charisma adds to morale and rout scores.
        Attached = "attached",
    }
}

crate::choice_enum! {
    /// A general's charisma (1.11): rolled on 1D10, or fixed.
    pub enum Charisma {
        /// Rolled once at the start: 1-3 +0, 4-8 +1, 9-10 +2.
        Rolled = "rolled",
        /// +0.
        Zero = "0",
        /// +1.
        One = "1",
        /// +2.
        Two = "2",
    }
}

crate::choice_enum! {
    /// Interpretation: what a failed morale test does to a firefight.
    pub enum FirefightRout {
        /// The router falls back the rout distance, shaken; the enemy closes to
        /// the same range again and the firefight goes on until the router has
        /// gone back past its room (routed off). Default: 2.4 and 5.7.4 make
        /// shaken units and their recovery part of the game, which the issue
        /// asks the firefight to model.
        Reengage = "reengage",
        /// The first rout ends the firefight: the router has left it.
        Ends = "ends",
    }
}

crate::choice_enum! {
    /// Interpretation: 2.12 "Retire, same facing: 1/2 speed" in a firefight.
    pub enum RetireSpeed {
        /// As printed: a retreat costs twice its inches of the move, so a
        /// unit in line (4") retires at most 2", and fires only after a
        /// retreat costing at most half a move (3.1), 1". Default: the
        /// table's cost column is a speed, and 3.1's half a move is a half
        /// of the move spent, whatever it is spent on.
        Printed = "printed",
        /// The old reading: up to half a move back (2"), and fire after it.
        HalfMove = "half_move",
    }
}

crate::choice_enum! {
    /// Interpretation: who moves first in a firefight's turn (2.1 "Roll for
    /// initiative. High-scoring side picks Side A or Side B this turn": side
    /// A does all its movement, then side B).
    pub enum FirefightInitiative {
        /// Rolled every turn, as 2.1 prints it: each side rolls a die (2.1
        /// names no die and no modifier; the assault's square reads it as a
        /// D10 each, ties rolled again), so each wins half the time, and the
        /// winner decides (the `order` decision) to be side A, moving first,
        /// or side B, moving after seeing A's move. Default: the turn
        /// sequence as printed.
        Rolled = "rolled",
        /// The attacker is side A every turn (the firefight before issue 32
        /// item 3), kept for comparison: it hands the defender, moving
        /// second, the sight of every attacker move.
        AttackerFirst = "attacker_first",
    }
}

crate::choice_enum! {
    /// Interpretation: what a shaken unit in a firefight does where no one
    /// decides it: in the old fixed-reading chain (`firefight::Firefight`),
    /// a battery in the decision model, and a side playing `bold` or
    /// `cautious`. Under best play 2.4 leaves it to the player, and it is
    /// the infantry unit's decision each turn it is shaken (`move`: hold
    /// and fire, or stand to recover; issue 32 item 5).
    pub enum ShakenPolicy {
        /// Stands still and holds its fire a full turn, then recovers (2.4).
        /// Default: -2 to hit and -2 to morale are worth a turn's silence.
        Recover = "recover",
        /// Keeps firing at -2 (3.3) and stays shaken.
        Fire = "fire",
    }
}

crate::choice_enum! {
    /// Interpretation: how a battery's gunners are spread over its gun models
    /// for the crew limits of 3.1 (3 crew for 2 dice, 2 for 1).
    pub enum BatteryCrew {
        /// As evenly as possible, the odd gunners to the first models. Default:
        /// a battery's stands carry their own crews (1.10).
        Even = "even",
        /// However fires the most dice: the player moves gunners between models.
        Best = "best",
    }
}

crate::choice_enum! {
    /// Interpretation: what a destroyed actual gun (3.4) does to a battery's dice.
    pub enum BatteryGunLoss {
        /// One die less per gun destroyed, from what the crews could serve.
        /// Default: 3.1 "reduce its fire by 1 die per actual gun destroyed".
        Subtract = "subtract",
        /// The crews man the guns left: the dice the crews could serve, at
        /// most one per gun left.
        Cap = "cap",
    }
}

crate::choice_enum! {
    /// Interpretation: which hits on a battery count for its morale (5.4 (1),
    /// 5.6 "each 2 hits") and for danger to generals (7.5).
    pub enum BatteryHits {
        /// Hits whose effect roll (3.4) took a gunner. Default: 3.4 calls the
        /// others a "miss".
        Effects = "effects",
        /// Every die that hit the guns, whatever its effect.
        Dice = "dice",
    }
}

crate::choice_enum! {
    /// Interpretation: which routs of a surrounded force's unit suffer the two
    /// extra rout hits of 5.8.
    pub enum SurroundedHits {
        /// The rout that carries it past its centre point. Default: "rout
        /// past this point".
        Crossing = "crossing",
        /// Every rout that ends beyond its centre point.
        Beyond = "beyond",
    }
}

crate::choice_enum! {
    /// Interpretation: at which range band the defender's fire meets a charge.
    pub enum DefensiveFireBand {
        /// Close range (canister for guns): the charge ends in contact, and
        /// a unit must shoot first at enemies charging it (3.8). Default.
        Close = "close",
        /// Far range (ballshot for guns): the fire is given as the charge starts.
        Far = "far",
    }
}

crate::choice_enum! {
    /// Interpretation: whether a square charged by steady cavalry tests morale.
    pub enum SquareChargedTest {
        /// A steady square does not test. Default: 2.3 disorders "cavalry
        /// contacting a steady square", so the cavalry that reaches it is not
        /// steady, and 5.4 (3) tests infantry "charged successfully by a
        /// steady enemy".
        Exempt = "exempt",
        /// It tests at -4 like any foot (5.4 (3) and 5.6 name no exception for squares).
        Tests = "tests",
    }
}

crate::choice_enum! {
    /// Interpretation: what 2.7's "shoot at 1/2 effect before evading" does.
    pub enum EvadeFire {
        /// 3.3's "Evading: -2". Default: 3.1 names the same fire "at a
        /// penalty" and 3.3 prints the penalty; -2 halves close musketry at a
        /// normal target (7-10 to 9-10), so "1/2 effect" describes it.
        Modifier = "modifier",
        /// Half the dice (rounded down), no modifier.
        HalfDice = "half_dice",
        /// Both: half the dice at -2.
        Both = "both",
    }
}

crate::choice_enum! {
    /// Interpretation: what a pursuer that loses a pursuit round does (7.4).
    pub enum PursuerLoses {
        /// It tests morale at -3 like any unit that loses more hits than it
        /// inflicts (5.4 (4)), and the pursuit ends. Default: 5.4 (4) names
        /// no exception, and 7.4 fights "a new round of combat".
        Tests = "tests",
        /// The pursuit just ends, without a test.
        Ends = "ends",
    }
}

crate::choice_enum! {
    /// Interpretation: which pursuits cost the pursuer a rout hit (7.4).
    pub enum PursuitCost {
        /// Every pursuit, the first too. Default: 7.4's "losing yet another
        /// rout hit to disorganization" for a renewed pursuit implies one was
        /// lost on entering the first.
        Every = "every",
        /// Only a pursuit renewed after a pursuit round.
        Again = "again",
    }
}

crate::choice_enum! {
    /// Interpretation: against whom fresh cavalry gets its +2 (4.2 "Fresh
    /// cavalry vs. non-fresh").
    pub enum FreshAgainst {
        /// Only against cavalry that is not fresh. Default: freshness is a
        /// rating of cavalry ("Fresh Cavalry": its first round of combat of the
        /// game, if steady), so "non-fresh" names cavalry without it; infantry
        /// and gunners are neither.
        Cavalry = "cavalry",
        /// Against any enemy not rated fresh, infantry and gunners included.
        Any = "any",
    }
}

crate::choice_enum! {
    /// Interpretation: which moving targets a stationary unit may shoot
    /// without 7.1 (the `crossing` scenario).
    pub enum StationaryFireTargets {
        /// Only targets eligible at the end of movement. Default: 7.1 says so
        /// of the basic rules ("Normally, units may only shoot at targets
        /// eligible at the end of movement"), and an optional rule that widens
        /// the targets would mean nothing if 3.8 already allowed them all.
        EndOfMove = "end_of_move",
        /// Any target that passed through its range and arc of fire this turn,
        /// however briefly: 3.8's sentence for a stationary unit, read
        /// literally (7.1 then adds nothing).
        PassedThrough = "passed_through",
    }
}

crate::choice_enum! {
    /// Interpretation: what pass-through fire's "at least half of its
    /// movement that turn" (7.1) is half of, for a unit that moved less than
    /// its full move (the `crossing` scenario's `move` decision).
    pub enum PassThroughMeasure {
        /// The distance it moved that turn. Default: "its movement that turn"
        /// is the movement it made, and 2.11's rates are the most a unit may
        /// move (3.1's half move, 7.11's "advancing full speed").
        Moved = "moved",
        /// Its full move (2.11), however far it went: a unit that moved a
        /// short way is eligible only if that short way is half its rate.
        FullMove = "full_move",
    }
}

crate::choice_enum! {
    /// The nations of 7.11 National Modifiers.
    pub enum Nation {
        /// No national modifiers.
        None = "none",
        /// Austria: +1 vs. shooting hits in column, -1 in line.
        Austria = "austria",
        /// Britain: +1 vs. shooting hits in line, +1 musketry if steady, cavalry +1 to charge.
        Britain = "britain",
        /// France: +2 vs. shooting hits advancing full speed in column.
        France = "france",
        /// Prussia to 1810: immune to panic tests by enemy cavalry when steady.
        PrussiaEarly = "prussia_early",
        /// Prussia after 1810: +1 vs. shooting hits in column, -1 in line.
        PrussiaLate = "prussia_late",
        /// Russia: -1 musketry, +2 on morale vs. losing a combat.
        Russia = "russia",
        /// Spain: +1 vs. shooting hits advancing full speed in column.
        Spain = "spain",
    }
}

crate::rule_book! {
    /// Every number of Brigades and Batteries that the scenarios use, at its
    /// printed value, and every interpretation.
    pub struct Rules {
        /// 1.12 Natural hits: in shooting or combat this face always misses (0: none).
        pub natural_miss_face: u32 = 1, range 0..=10;
        /// 1.12 Natural hits: in shooting or combat this face always hits (11: none).
        pub natural_hit_face: u32 = 10, range 1..=11;

        /// 3.1 Infantry fire: one die per this many firing figures.
        pub fire_figures_per_die: u32 = 4, range 1..=12;
        /// 3.1 Infantry fire: a final remainder of this many figures rounds up.
        pub fire_remainder_rounds_up: u32 = 3, range 1..=12;
        /// 7.9 Two-rank line fire: one die per this many figures.
        pub two_rank_figures_per_die: u32 = 3, range 1..=12;
        /// 7.9 Two-rank line fire: a final remainder of this many figures rounds up.
        pub two_rank_remainder_rounds_up: u32 = 2, range 1..=12;
        /// 1.4 Game scales: actual guns per gun model (3.1: one die per actual gun).
        pub guns_per_model: u32 = 2, range 1..=4;
        /// 3.1 Crew figures a gun model needs to shoot with 2 dice.
        pub crew_for_two_dice: u32 = 3, range 1..=8;
        /// 3.1 Crew figures a gun model needs to shoot with 1 die.
        pub crew_for_one_die: u32 = 2, range 1..=8;

        /// 3.2 Range of musket fire, close (inches).
        pub musket_close_range: u32 = 4, range 1..=60;
        /// 3.2 Range of musket fire, far (inches).
        pub musket_far_range: u32 = 8, range 1..=60;
        /// 3.2 Range of rifle fire, close (inches).
        pub rifle_close_range: u32 = 8, range 1..=60;
        /// 3.2 Range of rifle fire, far (inches).
        pub rifle_far_range: u32 = 16, range 1..=60;
        /// 3.2 Range of light gun canister (inches).
        pub light_canister_range: u32 = 10, range 1..=60;
        /// 3.2 Range of field gun canister (inches).
        pub field_canister_range: u32 = 12, range 1..=60;
        /// 3.2 Range of heavy gun canister (inches).
        pub heavy_canister_range: u32 = 16, range 1..=60;
        /// 3.2 Range of light gun ballshot (inches).
        pub light_ballshot_range: u32 = 24, range 1..=80;
        /// 3.2 Range of field gun ballshot (inches).
        pub field_ballshot_range: u32 = 32, range 1..=80;
        /// 3.2 Range of heavy gun ballshot (inches).
        pub heavy_ballshot_range: u32 = 40, range 1..=80;

        /// 3.2 Score to hit: musket close, normal target (0 = NIL).
        pub musket_close_normal: u32 = 7, range 0..=20;
        /// 3.2 Score to hit: musket close, skirmishers (0 = NIL).
        pub musket_close_skirmish: u32 = 9, range 0..=20;
        /// 3.2 Score to hit: musket close, soft cover (0 = NIL).
        pub musket_close_soft: u32 = 9, range 0..=20;
        /// 3.2 Score to hit: musket close, hard cover (0 = NIL).
        pub musket_close_hard: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: musket far, normal target (0 = NIL).
        pub musket_far_normal: u32 = 9, range 0..=20;
        /// 3.2 Score to hit: musket far, skirmishers (0 = NIL).
        pub musket_far_skirmish: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: musket far, soft cover (0 = NIL).
        pub musket_far_soft: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: musket far, hard cover (printed NIL = 0).
        pub musket_far_hard: u32 = 0, range 0..=20;
        /// 3.2 Score to hit: rifle close, normal target (0 = NIL).
        pub rifle_close_normal: u32 = 8, range 0..=20;
        /// 3.2 Score to hit: rifle close, skirmishers (0 = NIL).
        pub rifle_close_skirmish: u32 = 8, range 0..=20;
        /// 3.2 Score to hit: rifle close, soft cover (0 = NIL).
        pub rifle_close_soft: u32 = 8, range 0..=20;
        /// 3.2 Score to hit: rifle close, hard cover (0 = NIL).
        pub rifle_close_hard: u32 = 9, range 0..=20;
        /// 3.2 Score to hit: rifle far, normal target (0 = NIL).
        pub rifle_far_normal: u32 = 9, range 0..=20;
        /// 3.2 Score to hit: rifle far, skirmishers (0 = NIL).
        pub rifle_far_skirmish: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: rifle far, soft cover (0 = NIL).
        pub rifle_far_soft: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: rifle far, hard cover (0 = NIL).
        pub rifle_far_hard: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: canister of any gun, normal target (merged cell; 0 = NIL).
        pub canister_normal: u32 = 6, range 0..=20;
        /// 3.2 Score to hit: canister of any gun, skirmishers (merged cell; 0 = NIL).
        pub canister_skirmish: u32 = 9, range 0..=20;
        /// 3.2 Score to hit: canister of any gun, soft cover (merged cell; 0 = NIL).
        pub canister_soft: u32 = 9, range 0..=20;
        /// 3.2 Score to hit: canister of any gun, hard cover (merged cell; 0 = NIL).
        pub canister_hard: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: ballshot of any gun, normal target (merged cell; 0 = NIL).
        pub ballshot_normal: u32 = 8, range 0..=20;
        /// 3.2 Score to hit: ballshot of any gun, skirmishers (merged cell, printed NIL = 0).
        pub ballshot_skirmish: u32 = 0, range 0..=20;
        /// 3.2 Score to hit: ballshot of any gun, soft cover (merged cell; 0 = NIL).
        pub ballshot_soft: u32 = 8, range 0..=20;
        /// 3.2 Score to hit: light gun ballshot, hard cover (merged cell; 0 = NIL).
        pub light_ballshot_hard: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: field gun ballshot, hard cover (merged cell; 0 = NIL).
        pub field_ballshot_hard: u32 = 10, range 0..=20;
        /// 3.2 Score to hit: heavy gun ballshot, hard cover (0 = NIL).
        pub heavy_ballshot_hard: u32 = 9, range 0..=20;

        /// 3.3 Shooting modifier: ball vs. dense target (3.5: ballshot only).
        pub fire_ball_vs_dense: i32 = 2, range -10..=10;
        /// 3.3 Shooting modifier: the firer is shaken.
        pub fire_shaken: i32 = -2, range -10..=10;
        /// 3.3 Shooting modifier: the firer is disordered or skirmishing.
        pub fire_disordered_or_skirmishing: i32 = -1, range -10..=10;
        /// 3.3 Shooting modifier: the firer is grade A or B.
        pub fire_grade_a_b: i32 = 1, range -10..=10;
        /// 3.3 Shooting modifier: the firer is grade E or F.
        pub fire_grade_e_f: i32 = -1, range -10..=10;
        /// 3.3 Shooting modifier: the firer is evading.
        pub fire_evading: i32 = -2, range -10..=10;
        /// 3.3 Shooting modifier: the firer moved.
        pub fire_moving: i32 = -2, range -10..=10;
        /// 3.3 Shooting modifier: the firer is in square.
        pub fire_in_square: i32 = -1, range -10..=10;

        /// 3.4 Counterbattery: a hit effect roll up to this is a miss.
        pub counterbattery_miss_max: u32 = 4, range 0..=12;
        /// 3.4 Counterbattery: up to this, a miss from ballshot, else a gunner.
        pub counterbattery_ballshot_miss_max: u32 = 7, range 0..=12;
        /// 3.4 Counterbattery: from this roll, 1 actual gun plus a gunner from ballshot, else a gunner.
        pub counterbattery_gun_min: u32 = 10, range 1..=13;
        /// 3.4 Counterbattery modifier: shooting ballshot at limbered guns.
        pub counterbattery_limbered: i32 = 2, range -10..=10;

        /// 4.1 Combat: one die per this many infantry or gunner figures.
        pub combat_foot_figures_per_die: u32 = 4, range 1..=12;
        /// 4.1 Combat: a final remainder of this many infantry rounds up.
        pub combat_foot_remainder_rounds_up: u32 = 3, range 1..=12;
        /// 4.1 Combat: one die per this many cavalry figures.
        pub combat_cavalry_figures_per_die: u32 = 3, range 1..=12;
        /// 4.1 Combat: a final remainder of this many cavalry rounds up.
        pub combat_cavalry_remainder_rounds_up: u32 = 2, range 1..=12;
        /// 4.1 Combat: cavalry against unsquared infantry in the open rolls one die per figure.
        pub combat_cavalry_vs_open_infantry_die_per_figure: bool = true;
        /// 4.1 Combat: the base score to hit.
        pub combat_base_to_hit: u32 = 6, range 1..=20;
        /// 4.2 Combat modifier: flank/rear attack.
        pub combat_flank_attack: i32 = 3, range -10..=10;
        /// 4.2 Combat modifier: striking to flank/rear.
        pub combat_striking_to_flank: i32 = -3, range -10..=10;
        /// 4.2 Combat modifier: fresh cavalry vs. non-fresh.
        pub combat_fresh_cavalry: i32 = 2, range -10..=10;
        /// 4.2 Combat modifier: the unit is shaken.
        pub combat_shaken: i32 = -3, range -10..=10;
        /// 4.2 Combat modifier: steady cavalry vs. unsquared infantry.
        pub combat_steady_cavalry_vs_unsquared: i32 = 3, range -10..=10;
        /// 4.2 Combat modifier: unsquared infantry vs. steady cavalry.
        pub combat_unsquared_vs_steady_cavalry: i32 = -3, range -10..=10;
        /// 4.2 Combat modifier: square vs. cavalry.
        pub combat_square_vs_cavalry: i32 = 3, range -10..=10;
        /// 4.2 Combat modifier: cavalry vs. square.
        pub combat_cavalry_vs_square: i32 = -3, range -10..=10;
        /// 4.2 Combat modifier: each morale grade higher than the enemy (and minus this per grade lower).
        pub combat_per_grade: i32 = 1, range -10..=10;
        /// 4.2 Combat modifier: heavier cavalry, per level (and minus this per level lighter).
        pub combat_per_heaviness: i32 = 1, range -10..=10;
        /// 4.2 Combat modifier: steady lancers, first round of the combat.
        pub combat_lancers_first_round: i32 = 2, range -10..=10;
        /// 4.2 Combat modifier: vs. steep slope/obstacle.
        pub combat_vs_obstacle: i32 = -1, range -10..=10;
        /// 4.2 Combat modifier: disordered vs. steady.
        pub combat_disordered_vs_steady: i32 = -2, range -10..=10;
        /// 4.2 and 7.9 Combat modifier: 2-rank infantry, not in cover.
        pub combat_two_rank: i32 = -1, range -10..=10;
        /// 7.9 Combat modifier: cavalry fighting a 2-rank unit.
        pub combat_cavalry_vs_two_rank: i32 = 1, range -10..=10;
        /// 4.2 and 4.4 Combat modifier: cavalry caught stationary (first round).
        pub combat_cavalry_stationary: i32 = -2, range -10..=10;
        /// 4.4 Cavalry is caught stationary if it advanced less than this many inches straight forward in its last move phase.
        pub cavalry_stationary_advance: u32 = 2, range 0..=20;
        /// 4.2 Combat modifier: vs. soft cover.
        pub combat_vs_soft_cover: i32 = -2, range -10..=10;
        /// 4.2 Combat modifier: vs. hard cover.
        pub combat_vs_hard_cover: i32 = -3, range -10..=10;
        /// 1.8 Formations: a column is up to this many figures wide (its front rank in combat, 4.1).
        pub column_width: u32 = 8, range 1..=36;
        /// 4.10 Squares in combat: "all four faces of the square" (1.8: it faces out in all directions); one face fires (3.1) and fights infantry (4.10).
        pub square_faces: u32 = 4, range 1..=8;
        /// 6.4.4 Town blocks: "up to half the figures may shoot out any side of a block" (its figures divided by this).
        pub block_fire_divisor: u32 = 2, range 1..=8;
        /// 6.4.4 Town blocks: figures equal to 1.5 X the garrison size may attack any side of the block (percent of the block's capacity).
        pub block_attack_side_percent: u32 = 150, range 1..=1000;
        /// Interpretation: when one of two chargers loses a round (5.4 (4); per_unit: its own hits taken against struck; side: both chargers' together).
        pub multi_loser: assault::MultiLoser = assault::MultiLoser::PerUnit;
        /// Interpretation: where the odd die goes when a unit splits its fire evenly between two chargers of unequal figures (3.10; more_figures: toward the larger, as 4.5 rounds combat dice; chosen: the firer's `target` decision).
        pub split_odd_die: assault::SplitOddDie = assault::SplitOddDie::MoreFigures;
        /// Interpretation: which shooting hits of a phase count for a target's test when two units fire at it (summed: every hit it suffered, 5.4 (1), 5.6; per_firer: volley by volley).
        pub converging_hits: converging::ConvergingHits = converging::ConvergingHits::Summed;
        /// Interpretation: how cavalry charged by infantry fights (as_printed: a die per figure against unsquared infantry in the open, 4.1, and +3 if steady, 4.2, whoever charged; no_shock: a die per three and no +3/-3).
        pub charged_cavalry: assault::ChargedCavalry = assault::ChargedCavalry::AsPrinted;
        /// Interpretation: the figures on the face of a square that meets a charger, when they do not divide by the faces (down: a quarter rounded down, the charger choosing its face; up).
        pub square_face: assault::SquareFace = assault::SquareFace::Down;

        /// 5.5 Score to pass morale (1D10 plus modifiers): grade A.
        pub morale_pass_a: i32 = 0, range -10..=20;
        /// 5.5 Score to pass morale: grade B.
        pub morale_pass_b: i32 = 1, range -10..=20;
        /// 5.5 Score to pass morale: grade C.
        pub morale_pass_c: i32 = 2, range -10..=20;
        /// 5.5 Score to pass morale: grade D.
        pub morale_pass_d: i32 = 3, range -10..=20;
        /// 5.5 Score to pass morale: grade E.
        pub morale_pass_e: i32 = 4, range -10..=20;
        /// 5.5 Score to pass morale: grade F.
        pub morale_pass_f: i32 = 5, range -10..=20;
        /// 5.4 (1) A unit tests morale after at least this many shooting hits in one phase.
        pub morale_test_shooting_hits: u32 = 2, range 1..=20;
        /// 5.6 Morale modifier: in steady square or hard cover, vs. shooting hits.
        pub morale_square_or_hard_cover: i32 = 1, range -10..=10;
        /// 5.6 Morale modifier: the unit is shaken.
        pub morale_shaken: i32 = -2, range -10..=10;
        /// 5.6 Morale modifier: each 2 hits suffered this phase (rounded down).
        pub morale_per_two_hits: i32 = -1, range -10..=10;
        /// 5.6 Morale modifier: each 25% total losses suffered.
        pub morale_per_quarter_losses: i32 = -2, range -10..=10;
        /// 5.6 Morale modifier: foot charging home vs. hard cover or steady foot.
        pub morale_foot_charging_home: i32 = -2, range -10..=10;
        /// 5.6 Morale modifier: foot meeting a successful charge by steady infantry.
        pub morale_meeting_infantry_charge: i32 = -3, range -10..=10;
        /// 5.6 Morale modifier: cavalry charging home against a steady square.
        pub morale_cavalry_vs_square: i32 = -4, range -10..=10;
        /// 5.6 Morale modifier: foot meeting a successful charge by steady cavalry.
        pub morale_meeting_cavalry_charge: i32 = -4, range -10..=10;
        /// 5.6 Morale modifier: charged on flank or rear this turn.
        pub morale_flanked: i32 = -2, range -10..=10;
        /// 5.6 Morale modifier: testing vs. losing a combat.
        pub morale_losing_combat: i32 = -3, range -10..=10;
        /// 5.6 Morale modifier: no general in command radius.
        pub morale_no_general: i32 = -1, range -10..=10;
        /// 5.3 Shattered: losses of this many quarters of the unit shatter it.
        pub shatter_quarters: u32 = 3, range 1..=4;

        /// 5.7.1 Rout table: a score of this or less shatters the unit.
        pub rout_shatter_max: i32 = 0, range -20..=20;
        /// 5.7.1 Rout table: the top score of the 18" row (1-2).
        pub rout_18_max: i32 = 2, range -20..=20;
        /// 5.7.1 Rout table: the top score of the 12" row (3-4).
        pub rout_12_max: i32 = 4, range -20..=20;
        /// 5.7.1 Rout table: the top score of the 8" row (5-7).
        pub rout_8_max: i32 = 7, range -20..=20;
        /// 5.7.1 Rout table: the top score of the 6" row (8-9); above it, 4".
        pub rout_6_max: i32 = 9, range -20..=20;
        /// 5.7.1 Rout distances (inches) of the rows 1-2.
        pub rout_distance_18: u32 = 18, range 0..=48;
        /// 5.7.1 Rout distance (inches) of the row 3-4.
        pub rout_distance_12: u32 = 12, range 0..=48;
        /// 5.7.1 Rout distance (inches) of the row 5-7.
        pub rout_distance_8: u32 = 8, range 0..=48;
        /// 5.7.1 Rout distance (inches) of the row 8-9.
        pub rout_distance_6: u32 = 6, range 0..=48;
        /// 5.7.1 Rout distance (inches) of the row 10 or more.
        pub rout_distance_4: u32 = 4, range 0..=48;
        /// 5.7.1 Units of this many figures or more use the large column of rout hits.
        pub rout_large_unit_min: u32 = 17, range 1..=100;
        /// 5.7.1 Rout hits, 17 or more figures: 18" row.
        pub rout_hits_large_18: u32 = 6, range 0..=20;
        /// 5.7.1 Rout hits, 17 or more figures: 12" row.
        pub rout_hits_large_12: u32 = 5, range 0..=20;
        /// 5.7.1 Rout hits, 17 or more figures: 8" row.
        pub rout_hits_large_8: u32 = 3, range 0..=20;
        /// 5.7.1 Rout hits, 17 or more figures: 6" row.
        pub rout_hits_large_6: u32 = 2, range 0..=20;
        /// 5.7.1 Rout hits, 17 or more figures: 4" row.
        pub rout_hits_large_4: u32 = 1, range 0..=20;
        /// 5.7.1 Rout hits, 16 or fewer figures: 18" row.
        pub rout_hits_small_18: u32 = 4, range 0..=20;
        /// 5.7.1 Rout hits, 16 or fewer figures: 12" row.
        pub rout_hits_small_12: u32 = 3, range 0..=20;
        /// 5.7.1 Rout hits, 16 or fewer figures: 8" row.
        pub rout_hits_small_8: u32 = 2, range 0..=20;
        /// 5.7.1 Rout hits, 16 or fewer figures: 6" row.
        pub rout_hits_small_6: u32 = 1, range 0..=20;
        /// 5.7.1 Rout hits, 16 or fewer figures: 4" row.
        pub rout_hits_small_4: u32 = 0, range 0..=20;
        /// 5.8 Army baselines: extra rout hits of a surrounded force's unit routing past its centre point.
        pub surrounded_extra_rout_hits: u32 = 2, range 0..=20;
        /// 5.7.2 Rout modifier: no general in command radius.
        pub rout_no_general: i32 = -1, range -10..=10;
        /// 5.7.2 Rout modifier: the unit is at or below half strength.
        pub rout_half_strength: i32 = -2, range -10..=10;
        /// 5.7.2 Rout modifier: grade A.
        pub rout_grade_a: i32 = 3, range -10..=10;
        /// 5.7.2 Rout modifier: grade B.
        pub rout_grade_b: i32 = 2, range -10..=10;
        /// 5.7.2 Rout modifier: grade C.
        pub rout_grade_c: i32 = 1, range -10..=10;
        /// 5.7.2 Rout modifier: grade D.
        pub rout_grade_d: i32 = 0, range -10..=10;
        /// 5.7.2 Rout modifier: grade E.
        pub rout_grade_e: i32 = -1, range -10..=10;
        /// 5.7.2 Rout modifier: grade F.
        pub rout_grade_f: i32 = -3, range -10..=10;

        /// 1.11 Charisma: a D10 up to this gives +0.
        pub charisma_zero_max: u32 = 3, range 0..=10;
        /// 1.11 Charisma: a D10 up to this (above the last) gives +1; above it, +2.
        pub charisma_one_max: u32 = 8, range 0..=10;
        /// 1.11.1 Command radius (inches).
        pub command_radius: u32 = 12, range 0..=48;
        /// 1.11.1 Command radius of a general attached to a unit (inches).
        pub command_radius_attached: u32 = 6, range 0..=48;
        /// 7.5 Danger to generals: an attached general is at risk when his unit suffers this many hits.
        pub general_danger_hits: u32 = 2, range 1..=20;
        /// 7.5 Danger to generals: a D10 of this or less removes him.
        pub general_danger_max: u32 = 1, range 0..=10;

        /// 2.11 Movement: infantry in column (inches).
        pub move_infantry_column: u32 = 8, range 0..=40;
        /// 2.11 Movement: infantry in line (inches).
        pub move_infantry_line: u32 = 4, range 0..=40;
        /// 2.2 Units may not move closer than this to an enemy unless charging (inches; the firefight's closest approach).
        pub no_closer_than: u32 = 2, range 0..=12;
        /// 2.11 Movement: infantry in extended line (inches).
        pub move_infantry_extended_line: u32 = 3, range 0..=40;
        /// 1.8 Formations: a line is up to this many figures wide; wider is an extended line (2.11 3", 2.12 a whole move to change formation).
        pub line_max_width: u32 = 24, range 1..=100;
        /// 2.11 Movement: heavy cavalry or cuirassiers (inches).
        pub move_heavy_cavalry: u32 = 10, range 0..=40;
        /// 2.11 Movement: light cavalry (inches).
        pub move_light_cavalry: u32 = 12, range 0..=40;
        /// 2.11 Movement: heavy cavalry or cuirassiers, steady and launching a charge (inches).
        pub move_heavy_cavalry_charge: u32 = 16, range 0..=40;
        /// 2.11 Movement: light cavalry, steady and launching a charge (inches).
        pub move_light_cavalry_charge: u32 = 20, range 0..=40;

        /// 2.8 Evaders caught: no evading an infantry charge that starts within this many inches.
        pub evade_infantry_within: u32 = 2, range 0..=40;
        /// 2.8 Evaders caught: no evading a cavalry charge that starts within this many inches.
        pub evade_cavalry_within: u32 = 4, range 0..=40;
        /// Interpretation: 2.7's evading fire "at 1/2 effect" (modifier: 3.3's -2; half_dice; both).
        pub evade_fire: EvadeFire = EvadeFire::Modifier;
        /// 6.6 Plowed fields: cavalry charging across 1" or more is disordered on a D10 of this or more (8-10).
        pub plowed_disorder_min: u32 = 8, range 1..=11;
        /// Interpretation: whether a line may form square before cavalry within charge reach moves (rolled: only with the initiative, half the time, 2.1; always: it moves first every turn).
        pub square_initiative: assault::SquareInitiative = assault::SquareInitiative::Rolled;
        /// Interpretation: when cavalry must be steady for its 16"/20" charge move (launch: 2.11 "steady cavalry launching a charge"; contact: terrain or an obstacle charged into takes it away too).
        pub charge_move_steady: assault::ChargeMoveSteady = assault::ChargeMoveSteady::Launch;
        /// 7.4 Pursuit: a cavalry unit enters pursuit on a D10 of this or less.
        pub pursuit_max_score: i32 = 4, range 0..=10;
        /// 7.4 Pursuit: the modifier to that roll for grade E/F (lower rolls pursue).
        pub pursuit_grade_e_f: i32 = -3, range -10..=10;
        /// 7.4 Pursuit: pursuers strike the unit they routed with this many times the hits ("double hits").
        pub pursuit_hit_multiplier: u32 = 2, range 1..=4;
        /// 7.4 Pursuit: rout hits a pursuer loses to disorganization when it pursues again.
        pub pursuit_rout_hits: u32 = 1, range 0..=6;
        /// 7.4 and 7.13 A unit off the table returns at the start of movement on a D10 of this or more (8-10).
        pub return_min_score: u32 = 8, range 1..=11;

        /// Interpretation: what a failed morale test does to a firefight (reengage: the firefight goes on at the same range; ends: the first rout ends it).
        pub firefight_rout: FirefightRout = FirefightRout::Reengage;
        /// Interpretation: 2.12 a firefight's retreat at half speed (printed: an inch back costs two of the move, so 2" of a 4" move, firing after 1"; half_move: up to half a move back, firing).
        pub retire_speed: RetireSpeed = RetireSpeed::Printed;
        /// Interpretation: 2.1 who moves first in a firefight's turn (rolled: initiative each turn, each side half the time, the winner picks side A, moving first, or side B; attacker_first: the attacker is always side A).
        pub firefight_initiative: FirefightInitiative = FirefightInitiative::Rolled;
        /// Interpretation: a shaken unit in a firefight stands still and holds fire to recover (recover, 2.4), or fires at -2 and stays shaken (fire).
        pub shaken_policy: ShakenPolicy = ShakenPolicy::Recover;
        /// Interpretation: a battery's gunners spread over its models for the crew limits of 3.1 (even: as evenly as possible; best: however fires the most dice).
        pub battery_crew: BatteryCrew = BatteryCrew::Even;
        /// Interpretation: a destroyed gun costs a die (subtract, 3.1), or the crews man the guns left (cap: at most a die per gun left).
        pub battery_gun_loss: BatteryGunLoss = BatteryGunLoss::Subtract;
        /// Interpretation: hits on a battery that count for morale and 7.5 (effects: those that took a gunner, 3.4; dice: every die that hit).
        pub battery_hits: BatteryHits = BatteryHits::Effects;
        /// Interpretation: the routs of a surrounded unit that take 5.8's extra rout hits (crossing: the one that passes the centre point; beyond: every rout ending past it).
        pub surrounded_hits: SurroundedHits = SurroundedHits::Crossing;
        /// Interpretation: the range band of the defender's fire at a charge (close: canister, the charge ends in contact; far).
        pub defensive_fire_band: DefensiveFireBand = DefensiveFireBand::Close;

        /// Interpretation: whether a square charged by steady cavalry tests morale (exempt: the cavalry contacting a steady square is disordered, 2.3, so not a steady enemy, 5.4 (3); tests: 5.4 (3) names no exception for squares, -4 applies).
        pub square_charged_test: SquareChargedTest = SquareChargedTest::Exempt;

        /// 7.3 Optional "pinning": a unit changing formation, facing or frontage within 4" of an enemy is shaken at once (`cavalry_charge`'s `forms_square`).
        pub optional_pinning: bool = false;
        /// 7.3 Pinning: a unit changing formation within this many inches of an enemy unit becomes shaken.
        pub pinning_distance: u32 = 4, range 0..=60;
        /// Interpretation: how a unit that changed formation this turn shoots (moving: -2, a formation change costs half a move, 2.12 and 3.1; free).
        pub formation_change_fire: assault::FormationChangeFire = assault::FormationChangeFire::Moving;
        /// 7.1 Optional pass-through fire: a stationary unit may shoot at an enemy eligible for at least half of its movement that turn (`crossing`; no effect on a charged unit, which fires at its charger anyway, 3.8, nor on a firefight, whose units only close in).
        pub optional_pass_through_fire: bool = false;
        /// 7.1 Pass-through fire: the target must have been eligible for at least this percent of its movement ("at least half").
        pub pass_through_percent: u32 = 50, range 1..=100;
        /// Interpretation: a pursuer losing a pursuit round tests at -3 as any loser (tests, 5.4 (4)), or the pursuit just ends (ends).
        pub pursuer_loses: PursuerLoses = PursuerLoses::Tests;
        /// Interpretation: which pursuits cost the pursuer a rout hit (every: the first too, 7.4's "yet another"; again: only renewed ones).
        pub pursuit_cost: PursuitCost = PursuitCost::Every;
        /// Interpretation: against whom fresh cavalry gets +2 (cavalry: only cavalry that is not fresh, freshness being a rating of cavalry; any: infantry and gunners too).
        pub fresh_against: FreshAgainst = FreshAgainst::Cavalry;
        /// Interpretation: what 7.1's "half of its movement" is half of, for a unit that moved less than its full move (moved: the distance it moved that turn; full_move: its 2.11 move).
        pub pass_through_measure: PassThroughMeasure = PassThroughMeasure::Moved;
        /// Interpretation: which moving targets a stationary unit may shoot without 7.1 (end_of_move: 7.1's "normally"; passed_through: 3.8's "any target that passed through its range and arc of fire this turn").
        pub stationary_fire_targets: StationaryFireTargets = StationaryFireTargets::EndOfMove;
        /// 7.4 Optional pursuit: cavalry that routs its enemy in combat may pursue it, fighting on with double hits (the cavalry bounce is recorded only).
        pub optional_pursuit: bool = false;
        /// 7.1 Optional cavalry bounce rule: cavalry that fails to inflict more losses than it suffers recoils 4"; a cavalry winner rolls to resist pursuit or follows up, else the combat ends with no winner.
        pub optional_cavalry_bounce: bool = false;
        /// 7.1 Cavalry bounce: the recoil (inches); recorded: a winner that follows up closes it at once, one that holds ends the combat.
        pub bounce_recoil: u32 = 4, range 0..=40;
        /// Interpretation: whether the winner of a bounce (7.1) rolls to resist pursuit and follows up on a failure, the combat going on (roll, even without the pursuit rule: the bounce rule calls for the roll), or always holds, ending the combat (holds).
        pub bounce_follow_up: assault::BounceFollowUp = assault::BounceFollowUp::Roll;
        /// 7.5 Optional danger to generals: an attached general may be lost when his unit suffers 2 hits.
        pub optional_danger_to_generals: bool = false;
        /// 7.8 Optional carry-through: dice that miss the first target roll again at a rearward target within the carry-through range (the `rear` keys of `fire`).
        pub optional_carry_through: bool = false;
        /// 7.8 Carry-through range of small arms and canister (inches behind the first target).
        pub carry_through_small_arms_and_canister: u32 = 4, range 0..=60;
        /// 7.8 Carry-through range of light gun ballshot (inches behind the first target).
        pub carry_through_light_ballshot: u32 = 6, range 0..=60;
        /// 7.8 Carry-through range of field gun ballshot (inches behind the first target).
        pub carry_through_field_ballshot: u32 = 8, range 0..=60;
        /// 7.8 Carry-through range of heavy gun ballshot (inches behind the first target).
        pub carry_through_heavy_ballshot: u32 = 10, range 0..=60;
        /// Interpretation: whether a natural 1 that missed the first target carries through (carry: it is a die that missed, 1.12; spent: it goes nowhere).
        pub carry_through_natural_ones: fire::CarryNaturalOnes = fire::CarryNaturalOnes::Carry;
        /// Interpretation: whether fire at a first target it cannot hit (NIL) carries through (carry: every die missed it; stopped: the target stops the fire).
        pub carry_through_nil: fire::CarryThroughNil = fire::CarryThroughNil::Carry;
        /// 7.9 Optional two-rank line: allows the `two_rank` keys (1 die per 3 figures in fire, -1 in combat).
        pub optional_two_rank_line: bool = false;
        /// 7.11 Optional national modifiers: enables the `nation` keys.
        pub optional_national_modifiers: bool = false;
        /// 7.13 Optional first rout off-table: in a firefight a unit's first rout off the table may return (7.4: a D10 of 8-10 at the start of movement, steady).
        pub optional_first_rout_off_table: bool = false;
    }
}

/// An attached general's charisma in a multi-turn state before it is
/// rolled at the start of the fight (1.11).
pub(super) const UNROLLED: i8 = i8::MIN;

/// Dice from figures: one per `per_die`, plus one for a final remainder of at
/// least `rounds_up` figures (3.1, 4.1).
pub fn dice_from_figures(figures: u32, per_die: u32, rounds_up: u32) -> u32 {
    let per_die = per_die.max(1);
    figures / per_die + u32::from(figures % per_die >= rounds_up)
}

/// 4.5 Multi-unit combats: a unit's dice divided as evenly as possible among
/// its targets, the odd dice going to the targets it has the most figures in
/// combat with (ties to the earlier target).
pub fn split_dice(dice: u32, figures_in_contact: &[u32]) -> Vec<u32> {
    let targets = figures_in_contact.len() as u32;
    if targets == 0 {
        return Vec::new();
    }
    let mut split = vec![dice / targets; figures_in_contact.len()];
    let mut order: Vec<usize> = (0..figures_in_contact.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(figures_in_contact[i]));
    for &i in order.iter().take((dice % targets) as usize) {
        split[i] += 1;
    }
    split
}

/// Artillery dice (3.1): one per actual gun, models of `guns_per_model` guns,
/// each model limited by its crew (3 crew for 2 dice, 2 for 1, 1 for none).
/// `crew` is the crew figures of each model, spread evenly.
pub fn artillery_dice(rules: &Rules, actual_guns: u32, crew_per_model: u32) -> u32 {
    let per_model = rules.guns_per_model.max(1);
    let crew_dice = if crew_per_model >= rules.crew_for_two_dice {
        2
    } else if crew_per_model >= rules.crew_for_one_die {
        1
    } else {
        0
    };
    let full_models = actual_guns / per_model;
    let part = actual_guns % per_model;
    // 3.1: reduce fire by 1 die per actual gun destroyed: a model with fewer
    // guns rolls no more dice than its guns.
    full_models * per_model.min(crew_dice) + part.min(crew_dice)
}

impl Rules {
    /// 5.5 The score to pass morale of a grade.
    pub fn morale_pass(&self, grade: Grade) -> i32 {
        [
            self.morale_pass_a,
            self.morale_pass_b,
            self.morale_pass_c,
            self.morale_pass_d,
            self.morale_pass_e,
            self.morale_pass_f,
        ][grade.index()]
    }

    /// 5.7.2 The rout modifier of a grade.
    pub fn rout_grade(&self, grade: Grade) -> i32 {
        [
            self.rout_grade_a,
            self.rout_grade_b,
            self.rout_grade_c,
            self.rout_grade_d,
            self.rout_grade_e,
            self.rout_grade_f,
        ][grade.index()]
    }

    /// 3.3 The grade's shooting modifier.
    pub fn fire_grade(&self, grade: Grade) -> i32 {
        match grade {
            Grade::A | Grade::B => self.fire_grade_a_b,
            Grade::C | Grade::D => 0,
            Grade::E | Grade::F => self.fire_grade_e_f,
        }
    }

    /// 3.2 The score to hit (0 = NIL) of a weapon at a range band on a target,
    /// or `None` when the weapon has no such band.
    pub fn score_to_hit(&self, weapon: Weapon, band: RangeBand, target: Target) -> Option<u32> {
        let row: [u32; 4] = match (weapon, band) {
            (Weapon::Musket, RangeBand::Close) => {
                [self.musket_close_normal, self.musket_close_skirmish, self.musket_close_soft, self.musket_close_hard]
            }
            (Weapon::Musket, RangeBand::Far) => {
                [self.musket_far_normal, self.musket_far_skirmish, self.musket_far_soft, self.musket_far_hard]
            }
            (Weapon::Rifle, RangeBand::Close) => {
                [self.rifle_close_normal, self.rifle_close_skirmish, self.rifle_close_soft, self.rifle_close_hard]
            }
            (Weapon::Rifle, RangeBand::Far) => {
                [self.rifle_far_normal, self.rifle_far_skirmish, self.rifle_far_soft, self.rifle_far_hard]
            }
            (w, RangeBand::Canister) if w.is_gun() => {
                [self.canister_normal, self.canister_skirmish, self.canister_soft, self.canister_hard]
            }
            (w, RangeBand::Ballshot) if w.is_gun() => {
                let hard = match w {
                    Weapon::LightGun => self.light_ballshot_hard,
                    Weapon::FieldGun => self.field_ballshot_hard,
                    _ => self.heavy_ballshot_hard,
                };
                [self.ballshot_normal, self.ballshot_skirmish, self.ballshot_soft, hard]
            }
            _ => return None,
        };
        Some(row[target as usize])
    }

    /// 3.2 The range (inches) of a weapon's band, or `None` when it has none.
    pub fn band_range(&self, weapon: Weapon, band: RangeBand) -> Option<u32> {
        Some(match (weapon, band) {
            (Weapon::Musket, RangeBand::Close) => self.musket_close_range,
            (Weapon::Musket, RangeBand::Far) => self.musket_far_range,
            (Weapon::Rifle, RangeBand::Close) => self.rifle_close_range,
            (Weapon::Rifle, RangeBand::Far) => self.rifle_far_range,
            (Weapon::LightGun, RangeBand::Canister) => self.light_canister_range,
            (Weapon::FieldGun, RangeBand::Canister) => self.field_canister_range,
            (Weapon::HeavyGun, RangeBand::Canister) => self.heavy_canister_range,
            (Weapon::LightGun, RangeBand::Ballshot) => self.light_ballshot_range,
            (Weapon::FieldGun, RangeBand::Ballshot) => self.field_ballshot_range,
            (Weapon::HeavyGun, RangeBand::Ballshot) => self.heavy_ballshot_range,
            _ => return None,
        })
    }

    /// Which faces of a D10 hit (index face - 1) when `score` (0 = NIL) is
    /// needed with a net `modifier`, natural results applied (1.12).
    pub fn hit_faces(&self, score: u32, modifier: i32) -> [bool; 10] {
        let mut faces = [false; 10];
        if score == 0 {
            // 3.2: NIL means no die can hit, natural 10 included.
            return faces;
        }
        for (index, hit) in faces.iter_mut().enumerate() {
            let face = index as u32 + 1;
            *hit = if face == self.natural_miss_face {
                // 1.12: a natural 1 is always a miss.
                false
            } else if face == self.natural_hit_face {
                // 1.12: a natural 10 is always a hit.
                true
            } else {
                face as i32 + modifier >= score as i32
            };
        }
        faces
    }

    /// The chance one D10 hits, from [`Rules::hit_faces`].
    pub fn hit_chance(&self, score: u32, modifier: i32) -> f64 {
        self.hit_faces(score, modifier).iter().filter(|&&h| h).count() as f64 / 10.0
    }

    /// 1.11 The charisma of a D10 roll.
    pub fn charisma_of_roll(&self, roll: u32) -> i32 {
        if roll <= self.charisma_zero_max {
            0
        } else if roll <= self.charisma_one_max {
            1
        } else {
            2
        }
    }

    /// 1.11 The distribution of charisma: (value, probability).
    pub fn charisma_distribution(&self, charisma: Charisma) -> Vec<(i32, f64)> {
        match charisma {
            Charisma::Zero => vec![(0, 1.0)],
            Charisma::One => vec![(1, 1.0)],
            Charisma::Two => vec![(2, 1.0)],
            Charisma::Rolled => {
                let pmf = Pmf::from_weights((1..=10).map(|r| (i64::from(self.charisma_of_roll(r)), 0.1)));
                pmf.iter().filter(|&(_, p)| p > 0.0).map(|(v, p)| (v as i32, p)).collect()
            }
        }
    }

    /// The charisma a unit's general brings to its tests: the distribution of
    /// [`Rules::charisma_distribution`] if attached (1.11), none otherwise.
    pub fn general_charisma_law(&self, place: GeneralPlace, charisma: Charisma) -> Vec<(i32, f64)> {
        if place == GeneralPlace::Attached { self.charisma_distribution(charisma) } else { vec![(0, 1.0)] }
    }

    /// The same, rolled: a D10 on the charisma table (1.11) for a `rolled`
    /// attached general, no die otherwise.
    pub fn roll_general_charisma(&self, place: GeneralPlace, charisma: Charisma, dice: &mut Dice) -> i32 {
        if place != GeneralPlace::Attached {
            return 0;
        }
        match charisma {
            Charisma::Zero => 0,
            Charisma::One => 1,
            Charisma::Two => 2,
            Charisma::Rolled => self.charisma_of_roll(dice.d10()),
        }
    }

    /// 5.3 Whether losses of `lost` from `start` figures shatter the unit.
    pub fn is_shattered(&self, start: u32, lost: u32) -> bool {
        start > 0 && lost * 4 >= start * self.shatter_quarters
    }

    /// 5.6 Whole quarters of the starting strength lost.
    pub fn quarters_lost(start: u32, lost: u32) -> i32 {
        (lost * 4).checked_div(start).map_or(0, |q| q as i32)
    }
}

/// A failed test's row of the rout table (5.7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoutRow {
    /// Score 0 or less: shattered.
    Shattered,
    /// Row 1-2: 18".
    Rout18,
    /// Row 3-4: 12".
    Rout12,
    /// Row 5-7: 8".
    Rout8,
    /// Row 8-9: 6".
    Rout6,
    /// Row 10 or more: 4".
    Rout4,
}

impl Rules {
    /// 5.7.1 The row of a modified rout score.
    pub fn rout_row(&self, score: i32) -> RoutRow {
        if score <= self.rout_shatter_max {
            RoutRow::Shattered
        } else if score <= self.rout_18_max {
            RoutRow::Rout18
        } else if score <= self.rout_12_max {
            RoutRow::Rout12
        } else if score <= self.rout_8_max {
            RoutRow::Rout8
        } else if score <= self.rout_6_max {
            RoutRow::Rout6
        } else {
            RoutRow::Rout4
        }
    }

    /// 5.7.1 Rout hits of a row for a unit of `figures` at the time of the test.
    pub fn rout_hits(&self, row: RoutRow, figures: u32) -> u32 {
        let large = figures >= self.rout_large_unit_min;
        match (row, large) {
            (RoutRow::Shattered, _) => 0,
            (RoutRow::Rout18, true) => self.rout_hits_large_18,
            (RoutRow::Rout12, true) => self.rout_hits_large_12,
            (RoutRow::Rout8, true) => self.rout_hits_large_8,
            (RoutRow::Rout6, true) => self.rout_hits_large_6,
            (RoutRow::Rout4, true) => self.rout_hits_large_4,
            (RoutRow::Rout18, false) => self.rout_hits_small_18,
            (RoutRow::Rout12, false) => self.rout_hits_small_12,
            (RoutRow::Rout8, false) => self.rout_hits_small_8,
            (RoutRow::Rout6, false) => self.rout_hits_small_6,
            (RoutRow::Rout4, false) => self.rout_hits_small_4,
        }
    }

    /// 5.7.1 Rout distance (inches) of a row (0 when shattered).
    pub fn rout_distance(&self, row: RoutRow) -> u32 {
        match row {
            RoutRow::Shattered => 0,
            RoutRow::Rout18 => self.rout_distance_18,
            RoutRow::Rout12 => self.rout_distance_12,
            RoutRow::Rout8 => self.rout_distance_8,
            RoutRow::Rout6 => self.rout_distance_6,
            RoutRow::Rout4 => self.rout_distance_4,
        }
    }
}

/// The end of one morale test (5.2) and, on failure, the rout roll (5.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestResult {
    /// Passed.
    Pass,
    /// Failed and routed on this row.
    Rout(RoutRow),
}

/// The exact distribution of one morale test: a D10 plus `modifier` against
/// `pass`, then on failure a D10 plus `rout_modifier` on the rout table.
/// No natural results (5.2).
pub fn test_distribution(rules: &Rules, pass: i32, modifier: i32, rout_modifier: i32) -> Vec<(TestResult, f64)> {
    let passes = (1..=10).filter(|&d| d + modifier >= pass).count() as f64 / 10.0;
    let mut out = Vec::with_capacity(6);
    if passes > 0.0 {
        out.push((TestResult::Pass, passes));
    }
    if passes < 1.0 {
        let fail = 1.0 - passes;
        for d in 1..=10 {
            let row = rules.rout_row(d + rout_modifier);
            match out.iter_mut().find(|(r, _)| *r == TestResult::Rout(row)) {
                Some(entry) => entry.1 += fail / 10.0,
                None => out.push((TestResult::Rout(row), fail / 10.0)),
            }
        }
    }
    out
}

/// One morale test from the dice, the same law as [`test_distribution`].
#[inline]
pub fn roll_test(rules: &Rules, dice: &mut Dice, pass: i32, modifier: i32, rout_modifier: i32) -> TestResult {
    if dice.d10() as i32 + modifier >= pass {
        TestResult::Pass
    } else {
        TestResult::Rout(rules.rout_row(dice.d10() as i32 + rout_modifier))
    }
}

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
