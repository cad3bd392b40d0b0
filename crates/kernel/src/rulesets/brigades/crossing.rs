//! The `crossing` scenario: a stationary unit (infantry with muskets or
//! rifles, or a battery) fires at an enemy unit that marches across its front
//! along a straight path, turn by turn, the case optional rule 7.1
//! (pass-through fire) is about. It is a game on the kernel's decision model
//! ([`crate::game`]): each turn the mover decides how far to move, so the
//! sampler, the exact law under a policy and best play share one turn.
//!
//! Geometry is reduced to the path: the mover starts at 0 and moves up to
//! `move` inches a turn along it (0: its 2.11 move: infantry in column 8", in
//! line 4", heavy cavalry 10", light cavalry 12"); the stretch of the path
//! inside the firer's field of fire (3.2 range of the `range` band and 3.1's
//! 45-degree arc, measured by the user) runs from `start` to `start +
//! exposed`, both ends included (a unit at exactly a weapon's range is in
//! range). For a path `d` inches in front of the firer and a range `r`, a
//! point of the path `x` inches to the side of the firer's centre is in arc
//! while `|x| <= d` plus half the firer's frontage, and in range while `x^2 +
//! d^2 <= r^2`. The mover's place on the path is one reference point of it
//! (say its centre); measure the stretch as where that point leaves some of
//! the unit in range and arc. 2.2 keeps the path 2" or more from the firer,
//! unless charging. Places are whole inches, the rules' own measure.
//!
//! Each turn (2.1): the mover moves (phases 2-3) as far as its `move`
//! decision says, forward along the path; in phase 5 the firer fires if the
//! mover is an eligible target:
//! - at the end of its move (the basic rule, 7.1's "normally", and 3.8 for a
//!   unit that moved), a mover that halted included;
//! - with `optional_pass_through_fire`, also if the mover was eligible for at
//!   least half of its movement that turn (`pass_through_percent`, 50;
//!   exactly half counts, as printed), measured by distance along the path:
//!   the mover keeps one speed on a straight path, so distance and time
//!   agree. Half of what: of the distance it moved that turn
//!   (`pass_through_measure = moved`, "its movement that turn"), or of its
//!   full move (`full_move`); a mover that did not move has no movement to be
//!   eligible for half of, and is shot only if it stands in the stretch;
//! - with `stationary_fire_targets = passed_through`, any move that touched
//!   the stretch (3.8's "any target that passed through its range and arc of
//!   fire this turn").
//!
//! Pass-through (7.1) and 3.8's wider targets are for a stationary firer. The
//! firer never moves here unless `firer.moving`: it then makes half a move
//! each turn and fires at -2 (3.1, 3.3; artillery may not move and fire), and
//! may shoot only what is eligible at the end of all movement (3.8). A
//! stationary firer that fired last turn is still stationary: 2.4 lists
//! moving, shooting and fighting apart, and 7.1 asks only that it not move.
//!
//! The firer takes no losses (nobody shoots at it), so it rolls the same dice
//! every volley: a die per four figures, a remainder of three rounding up
//! (3.1; one per three in a two-rank line, 7.9), or a battery's die per actual
//! gun its gunners can serve ([`battery_dice`]). Its chance to hit is the
//! shooting table's score for its band at the mover's target type, with its
//! grade (3.3), its `modifier`, -2 if moving, and +2 for ballshot at a dense
//! mover (3.5: an infantry column of three ranks or more, over two column
//! widths of figures; or a line enfiladed at 22.5 degrees or less onto its
//! flank, which a line marching along the path is over the middle of the
//! stretch: see [`Crossing::dense_turns`]).
//!
//! Hits remove the mover's figures; at three quarters lost it is shattered
//! (5.3) and removed at once. With 2 or more hits in the phase it tests morale
//! (5.4 (1)): 5.5's pass score with 5.6's -1 per 2 hits this phase, -2 per
//! whole quarter lost, +1 in hard cover, its general (-1 out of radius,
//! +charisma attached), and its nation's modifier vs. shooting hits (7.11,
//! `mover.nation`, below). On a failure it rolls on the rout table (5.7.1,
//! with 5.7.2's grade, half-strength and general modifiers): a score of 0 or
//! less shatters it; otherwise it takes the row's rout hits by its size at
//! the test (which may shatter it, 5.3), and routs.
//!
//! A routed mover leaves the fight: it falls back 4" to 18" toward its
//! baseline after all fire (5.7.3, 2.1 phase 5), ends shaken and may not move
//! or shoot for the rest of the turn (5.7.4); the crossing is over for it, and
//! the scenario does not follow it further (it has failed to cross). A mover
//! still in good order once its move has taken it past the stretch has
//! `arrived`, after that turn's fire. One still short of the far edge at the
//! turn limit has done neither.
//!
//! # The decision: how far to move
//!
//! `move` (the mover, each turn): any whole number of inches from its full
//! move down to 0 (a halt), forward along the path. 2.11 prints each troop
//! type's move, and the rules treat it as the most a unit may move, not a
//! distance it must cover: infantry "may make half a move and fire" (3.1),
//! an evader moves "at least 1/2 an evade move" (2.7), a unit recovers by
//! standing "still for a full turn" (2.4), 2.12 prices manoeuvres in
//! fractions of a move, and 7.11 rewards French and Spanish columns
//! "advancing full speed", which would mean nothing if every column moved
//! its full move. The mover never goes back: retiring is half speed and
//! faces the wrong way (2.12), and a mover walking back is not crossing.
//!
//! Nothing in the basic rules makes a short move costly here. The only
//! bonus for moving fast is cavalry's charge move (2.11's *), which is for
//! charging; the firer's "moving" -2 (3.3) is for the firer's own movement,
//! not its target's. With national modifiers (7.11, `mover.nation`) a French
//! column gets +2, a Spanish +1, on morale vs. shooting hits only "if
//! advancing full speed in column": a column that moved less than its full
//! move that turn (a halt included) goes without it, for that turn's volley.
//! Otherwise a short move costs only time: a turn of the limit.
//!
//! A short move pays where the stretch and the moves' ends interact:
//! - halting short of the stretch so that the next full move carries the
//!   mover over it without ending inside: from 3" a column's 8" ends at 11",
//!   past a stretch from 4" to 10" or less, where the full move from 0" ends
//!   in it at 8" if it reaches 8" and is shot (no volley instead of one under
//!   the basic rules; 7.1 still catches a bound half of which is inside);
//! - stepping around part of the stretch: a line under ballshot is dense
//!   only where it is enfiladed, over the stretch's middle (3.5), and a short
//!   first move can set its later moves to end either side of it;
//! - with pass-through fire, timing the moves so that less than half of a
//!   move is eligible: at the defaults (4" to 12") the full moves end at 8"
//!   (a volley) and 16" (4" of the 8" in the stretch: half, a pass-through
//!   volley); halting at 3" first, the mover ends at 11" (a volley) and 19"
//!   (1" of 8": none), one volley where the full moves take two;
//! - ending out of the stretch altogether: a mover that would rout more
//!   often than arrive stays short of it to the turn limit (below).
//!
//! The options are listed full move first, then each inch less down to the
//! halt, and ties go to the first: a mover that gains nothing by waiting
//! gets on, as bold does, so best play departs from bold only where it gains.
//!
//! # Objective
//!
//! The mover is the attacker, the firer the defender. Arriving is the
//! mover's win: getting past in good order is what the crossing is for. A
//! rout or a shattering is its loss: the rout table takes it back toward its
//! baseline, shaken (5.7.3-5.7.4), and the crossing has failed at a price.
//! A mover still short of the far edge at the turn limit has neither won
//! nor lost: it stands where it chose to, in good order (winner `none`).
//! Under the default objective (`margin`, its win chance minus its loss
//! chance) a mover that would be routed more often than it arrives refuses
//! the crossing and waits out the limit short of the stretch (a battery's
//! canister over a long stretch with pass-through fire, say); `win`
//! maximises the chance of arriving whatever the cost.
//!
//! The firer takes no decision. It fires whenever it may: a volley costs it
//! nothing (it takes no fire, no ammunition is counted, and shooting does not
//! make a stationary unit moving), and it has one target. `firer.moving`
//! is a premise of the scenario (the firer is marching somewhere with a half
//! move, 3.1), not a choice left to play: in this geometry standing still
//! would always be better for it (no -2, and 7.1 and 3.8's wider reading
//! apply only to a stationary unit), so a firer free to choose is
//! `firer.moving = false`. The keys `defender.policy` and
//! `defender.objective` are accepted, as in every game, and ask nothing.
//!
//! # Policies
//!
//! - `bold`: its full move every turn, the scenario's play before the
//!   decision model, whose numbers it keeps exactly.
//! - `cautious`: closes to the last inch short of the field of fire
//!   (`start - 1`) and halts there, then crosses in full moves, so that its first
//!   bound into the stretch starts from as far forward as it can stand
//!   unseen; a full move that would clear the far edge from where it stands
//!   it takes at once, and a stretch that begins at its start (`start` 0)
//!   it crosses in full moves. It costs at most one turn more than bold. It
//!   ends the fewest moves inside the stretch that any mover can (moves
//!   ending `move` inches apart land in it at least `(exposed + 1) / move`
//!   times, rounded down, and from `start - 1` exactly that often), but it
//!   does not time its way out: it takes 7.1's volley on the last bound
//!   wherever the stretch leaves half of that bound inside.
//! - `best`: backward induction over (place, figures, volleys so far,
//!   charisma) at each turn. It gains on cautious where the margin
//!   objective refuses a crossing and where a line steps around the
//!   enfiladed middle of a stretch it starts in; on the tests' grid of
//!   columns, lines and light cavalry under muskets, with and without 7.1,
//!   cautious arrives as often as best play under `win`.
//!
//! The bold and cautious plays need no solver; best play is solved exactly
//! while places x figures x volleys x charisma values stay within
//! [`MAX_STATES`] (the defaults: 0.02 s), and plays cautious beyond.
//!
//! # Turn limit
//!
//! `turns`, 0 by default: two turns more than a crossing at full moves
//! takes (`(start + exposed) / move + 1`, rounded down). Cautious needs at
//! most one more; the tests check that more turns change best play nowhere
//! on a grid of stretches and moves, so the default limit is never what
//! stops the mover, and a sweep over `start` or `move` does not run into it.
//! A limit shorter than the full-move crossing leaves every mover short.
//!
//! # Sweeps under best play
//!
//! Over `start` (0" to 24", the rest at the defaults, with and without 7.1,
//! either objective) P(arrived) does not move: over the 8" stretch the
//! column takes exactly one volley from any start (no 8" bound clears it,
//! and from the last inch short of the stretch its way out has 1" of 8"
//! inside), 0.7508; over a 4" stretch none without 7.1 (it halts an
//! inch short and jumps it), 1.0, and one with it (4" of an 8" bound is
//! half), 0.7508. Only the turn the crossing ends moves with the start.
//!
//! Over `move` (1" to 20", the stretch 4" to 12") P(arrived) steps by more
//! than 10 points, each step a volley more or less that the geometry fixes
//! (a volley costs a 24-figure column 20 to 25 points against 6 dice at
//! 0.4). From the last inch short (3") the mover must cover 10" to get past
//! 12", and a move of `m` inches ends `ceil(10 / m) - 1` times in the
//! stretch: 9 at 1", 4 at 2", 3 at 3", 2 at 4", 1 from 5" to 9", none from
//! 10". Without 7.1, under `win`: 0.003, 0.191, 0.326, 0.521, then 0.751
//! from 5" to 9" and 1.0 from 10" (steps of 18.7, 13.6, 19.5, 23.0 and 24.9
//! points). With 7.1 the bound out of the stretch is shot too where half of
//! it is inside: at 2" (1" of 2": five volleys, 0.103), and at 5" and 6"
//! (4" of 5", 3" of 6": two volleys, as the two landings at 4" take, 0.521);
//! so the steps are 22.4 points from 2" to 3", 19.5 to 4" and 23.0 from 6"
//! to 7". From 10" to 16" the bound over the whole 8" stretch has half of
//! itself or more inside (one volley, 0.751); from 17" less (1.0, a step of
//! 24.9). Under `margin` the mover refuses the crossing at 1" to 3" (it
//! would rout more often than arrive) and stands short to the limit: 0
//! there, then the values above, a step of 52.1 points from 3" to 4".
//!

use super::UNROLLED;
use super::firefight::{battery_dice, general_modifiers, percent};
use super::roll::{test_code, test_of_code};
use super::{
    Charisma, GeneralPlace, Grade, Nation, PassThroughMeasure, RangeBand, RoutRow, Rules, StationaryFireTargets,
    Target, TestResult, Weapon, dice_from_figures, grade_param, invalid, roll_test, test_distribution,
};
use crate::choice_enum;
use crate::dice::Dice;
use crate::game::{self, ATTACKER, Decision, End, Fate, Game, Law, Played, Policy};
use crate::outcome::{Layout, Metric};
use crate::params::{Choice, Param, ParamError, Settings};
use crate::pmf::Pmf;
use std::borrow::Cow;
use std::sync::OnceLock;

choice_enum! {
    /// What the mover is, for its move (2.11) and density (3.5).
    pub enum MoverType {
        /// Infantry in column: 8" (2.11); dense from three ranks of 8 (3.5).
        Column = "column",
        /// Infantry in line or skirmish order: 4" (2.11); dense where enfiladed (3.5).
        Line = "line",
        /// Heavy cavalry or cuirassiers: 10" (2.11).
        HeavyCavalry = "heavy_cavalry",
        /// Light cavalry: 12" (2.11).
        LightCavalry = "light_cavalry",
    }
}

/// The longest turn limit.
pub const MAX_TURNS: u32 = 250;

/// The turns a default limit allows beyond a crossing at full moves.
pub const SPARE_TURNS: u32 = 2;

/// The most states (places x figures x volleys x charisma values) solved
/// exactly; beyond, `best` plays `cautious`.
pub const MAX_STATES: u64 = 3_000_000;

/// 2.11 The mover's decision each turn.
pub static MOVE_DECISION: Decision = Decision {
    name: "move",
    who: "attacker",
    doc: "The mover, in its movement phase (2.1), moves any whole number of inches up to its move (2.11: a rate, \
          not a distance it must cover: 3.1, 2.7, 7.11) forward along its path, or halts; a French or Spanish \
          column that moves less than its full move is not \"advancing full speed\" (7.11).",
    options: "the full move, then each inch less, down to a halt (0\")",
};

static DECISIONS: &[&Decision] = &[&MOVE_DECISION];

/// The keys of `crossing`.
pub fn params() -> Vec<Param> {
    let mut params = vec![
        grade_param("firer.quality", "the firer's morale grade a-f (3.3: A-B +1, E-F -1)"),
        Param::int("firer.figures", "the firer's figures (a battery's: its gunners, 4 a model in 1.10)", 24, 1, 60),
        Param::choice(
            "firer.weapon",
            "musket or rifle, or light_gun, field_gun, heavy_gun: a battery (3.1, 3.2)",
            Weapon::Musket,
        ),
        Param::int(
            "firer.guns",
            "actual guns of a battery (3.1: a die each, crew permitting; 2 to a model, 1.4)",
            6,
            1,
            40,
        ),
        Param::int("firer.modifier", "net of other shooting modifiers of its fire (3.3)", 0, -10, 10),
        Param::boolean("firer.two_rank", "a two-rank line (7.9; needs optional_two_rank_line)", false),
        Param::boolean(
            "firer.moving",
            "the firer makes half a move each turn and fires at -2 (3.1, 3.3): not stationary, so end-of-move targets only (3.8); not a battery",
            false,
        ),
        Param::choice(
            "range",
            "the firer's range band over the exposed stretch: close or far (small arms), canister or ballshot (guns) (3.2)",
            RangeBand::Close,
        ),
        grade_param("mover.quality", "the mover's morale grade a-f (5.5, 5.7.2)"),
        Param::int("mover.figures", "the mover's starting figures", 24, 1, 60),
        Param::choice(
            "mover.type",
            "column, line, heavy_cavalry or light_cavalry: its move (2.11) and whether it is dense (3.5)",
            MoverType::Column,
        ),
        Param::choice(
            "mover.target",
            "the target type it presents (3.2): normal, skirmish, soft or hard (+1 morale vs. shooting, 5.6)",
            Target::Normal,
        ),
        Param::choice(
            "mover.general",
            "its general: in_radius, out_of_radius (-1) or attached (+charisma)",
            GeneralPlace::InRadius,
        ),
        Param::choice(
            "mover.charisma",
            "an attached general's charisma: rolled on 1D10 (1.11), or 0, 1, 2",
            Charisma::Rolled,
        ),
        Param::choice(
            "mover.nation",
            "infantry's national modifiers vs. shooting hits (7.11; needs optional_national_modifiers): france +2 and spain +1 in column advancing full speed, austria and prussia_late +1 in column and -1 in line, britain +1 in line; prussia_early moves 1\" slower",
            Nation::None,
        ),
        Param::int(
            "move",
            "the most inches the mover may move a turn (its `move` decision picks how far); 0: its type's move (2.11)",
            0,
            0,
            40,
        ),
        Param::int("start", "inches along the path from the mover's start to the firer's field of fire", 4, 0, 100),
        Param::int(
            "exposed",
            "inches of the path inside the firer's field of fire (in range of the band and in arc, 3.1, 3.2)",
            8,
            0,
            100,
        ),
        Param::int(
            "across",
            "inches from the firer's front to the path (2.2: 2 or more): a line on the path shows the firer its flank at 22.5 degrees or less, so is dense (3.5), within across x tan 22.5 (0.41 x across) of the stretch's middle",
            2,
            0,
            100,
        ),
        Param::int(
            "turns",
            "the turn limit; 0: two more than a crossing at full moves takes ((start + exposed) / move + 1)",
            0,
            0,
            i64::from(MAX_TURNS),
        ),
    ];
    params.extend(game::plan_params());
    params.push(game::purpose_key(
        game::Purpose::Attack,
        "get across the firer's front",
        "the crossing unit must get past within the limit; the firer wins if it routs it or keeps it from passing",
    ));
    for param in &mut params {
        if param.name == "attacker.policy" {
            param.doc.push_str(
                "; here the attacker is the mover and decides how far to move each turn: bold moves its full move, \
                 cautious closes to the last inch short of the field of fire, halts, then crosses in full moves",
            );
        } else if param.name == "defender.policy" || param.name == "defender.objective" {
            param.doc.push_str("; here the defender is the firer, which has no decision (it fires whenever it may)");
        } else if param.name == "attacker.objective" {
            param.doc.push_str(
                "; here the mover wins by arriving and loses by routing or shattering (margin may refuse a \
                 crossing that routs it more often than it arrives)",
            );
        }
    }
    params
}

/// The firing unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Firer {
    /// Morale grade (3.3's grade modifier).
    pub grade: Grade,
    /// Figures (a battery's gunners).
    pub figures: u32,
    /// Musket or rifle, or a gun type for a battery.
    pub weapon: Weapon,
    /// A battery's actual guns (ignored for infantry).
    pub guns: u32,
    /// Net of other shooting modifiers.
    pub modifier: i32,
    /// A two-rank line (7.9).
    pub two_rank: bool,
    /// It makes half a move each turn (3.1): -2 and not stationary.
    pub moving: bool,
}

impl Firer {
    /// Stationary infantry with muskets: grade D, no modifier.
    pub fn new(grade: Grade, figures: u32) -> Firer {
        Firer { grade, figures, weapon: Weapon::Musket, guns: 0, modifier: 0, two_rank: false, moving: false }
    }

    /// A stationary battery of `guns` actual guns of `weapon` served by `gunners`.
    pub fn battery(grade: Grade, weapon: Weapon, guns: u32, gunners: u32) -> Firer {
        Firer { weapon, guns, ..Firer::new(grade, gunners) }
    }
}

/// The unit crossing the firer's front.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mover {
    /// Morale grade.
    pub grade: Grade,
    /// Starting figures.
    pub figures: u32,
    /// Its type: move and density.
    pub kind: MoverType,
    /// The target type it presents.
    pub target: Target,
    /// Where its general is.
    pub general: GeneralPlace,
    /// Its general's charisma, if attached.
    pub charisma: Charisma,
    /// Its national modifiers (7.11), infantry only.
    pub nation: Nation,
}

impl Mover {
    /// A mover of `kind` in the open, general in radius, no nation.
    pub fn new(grade: Grade, figures: u32, kind: MoverType) -> Mover {
        Mover {
            grade,
            figures,
            kind,
            target: Target::Normal,
            general: GeneralPlace::InRadius,
            charisma: Charisma::Rolled,
            nation: Nation::None,
        }
    }

    fn cavalry(&self) -> bool {
        matches!(self.kind, MoverType::HeavyCavalry | MoverType::LightCavalry)
    }
}

/// The path: where the field of fire lies along it, and the mover's speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Path {
    /// Inches from the mover's start to the stretch in the field of fire.
    pub start: u32,
    /// Inches of path in the field of fire.
    pub exposed: u32,
    /// The most inches a turn; 0 for the mover's 2.11 move.
    pub step: u32,
    /// Inches from the firer's front to the path: where a line on it is
    /// enfiladed (3.5).
    pub across: u32,
}

/// A stationary firer and a unit marching across its front, as a game: the
/// mover decides how far it moves each turn.
#[derive(Clone, Debug)]
pub struct Crossing {
    /// What each side must achieve (the scenario's `purpose` key).
    purpose: game::Purpose,
    rules: Rules,
    mover: Mover,
    /// The mover's move a turn (inches): the most it may move.
    step: u32,
    /// The stretch in the field of fire, `[start, end]` along the path.
    start: u32,
    end: u32,
    /// Inches from the firer's front to the path.
    across: u32,
    /// The firer does not move (7.1 and 3.8's wider reading apply).
    stationary: bool,
    /// The turn limit.
    turns: u32,
    /// The firer's dice a volley.
    dice: u32,
    /// The chance a die hits at a target that is not dense (index 0) and at
    /// one that is (1).
    chance: [f64; 2],
    /// The hits of a volley at a target that is not dense (index 0) and at
    /// one that is (1): the firer's dice never change, so each law is worked
    /// out once.
    volleys: [VolleyHits; 2],
    /// The laws of the mover's morale tests, by modifiers ([`TestLaws`]).
    tests: TestLaws,
    /// The `move` options in the order ties are broken: the full move down to 0.
    options: Vec<u16>,
    layout: Layout,
}

/// Index of each metric in the layout.
const HITS: usize = 0;
const ROUT_HITS: usize = 1;
const VOLLEYS: usize = 2;
const TURNS: usize = 3;
const ARRIVED: usize = 4;
const ROUTED: usize = 5;
const SHATTERED: usize = 6;
const REMAINING: usize = 7;

/// How the mover's crossing ended, in [`CrossingState::end`].
const GOING: u8 = 0;
/// Past the stretch in good order.
const ENDED_ARRIVED: u8 = 1;
/// Failed morale and left the fight, not shattered.
const ENDED_ROUTED: u8 = 2;
/// Shattered by losses (5.3), no test.
const ENDED_SHATTERED: u8 = 3;
/// Shattered on the rout table or by rout hits after a failed test.
const ENDED_ROUTED_SHATTERED: u8 = 4;

/// The crossing between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CrossingState {
    /// Inches along the path from the mover's start (never past the stretch:
    /// a move past it ends the crossing).
    place: u16,
    /// The mover's figures.
    figures: u8,
    /// Volleys the firer has fired at it.
    volleys: u8,
    /// Its attached general's charisma ([`UNROLLED`] before the first turn).
    charisma: i8,
    /// How it ended (`GOING` while it goes on).
    end: u8,
    /// Rout hits taken when it routed.
    rout_hits: u8,
}

impl Crossing {
    /// A crossing of `path` by `mover` under `firer`'s fire at `band`, with
    /// the default turn limit (two more than full moves take).
    pub fn new(rules: &Rules, firer: Firer, band: RangeBand, mover: Mover, path: Path) -> Result<Crossing, ParamError> {
        let battery = firer.weapon.is_gun();
        let Some(score) = rules.score_to_hit(firer.weapon, band, mover.target) else {
            let bands = if battery { "canister or ballshot" } else { "close or far" };
            return Err(invalid("range", format!("a {} fires {bands} (3.2)", firer.weapon.name())));
        };
        if firer.two_rank && !rules.optional_two_rank_line {
            return Err(invalid("firer.two_rank", "needs the optional rule optional_two_rank_line (7.9)"));
        }
        if battery && firer.two_rank {
            return Err(invalid("firer.two_rank", "a battery has no two-rank line (7.9 is for foot)"));
        }
        if battery && firer.moving {
            return Err(invalid("firer.moving", "artillery may not move and fire (3.1)"));
        }
        if battery && (firer.guns == 0 || firer.guns > 40) {
            return Err(invalid("firer.guns", "a battery has 1 to 40 actual guns"));
        }
        if firer.figures == 0 || firer.figures > 60 {
            return Err(invalid("firer.figures", "1 to 60 figures"));
        }
        if mover.figures == 0 || mover.figures > 60 {
            return Err(invalid("mover.figures", "1 to 60 figures"));
        }
        if mover.nation != Nation::None && !rules.optional_national_modifiers {
            return Err(invalid("mover.nation", "needs the optional rule optional_national_modifiers (7.11)"));
        }
        if mover.nation != Nation::None && mover.cavalry() {
            return Err(invalid("mover.nation", "national modifiers vs. shooting are for infantry (7.11)"));
        }
        if path.start > 100 {
            return Err(invalid("start", "at most 100 inches"));
        }
        if path.exposed > 100 {
            return Err(invalid("exposed", "at most 100 inches"));
        }
        if path.step > 40 {
            return Err(invalid("move", "at most 40 inches a turn"));
        }
        let step = if path.step > 0 { path.step } else { mover_move(rules, mover) };
        if step == 0 {
            return Err(invalid("move", "the mover must move: its type's 2.11 move is 0, so give a move"));
        }
        // 3.1: a die per four figures (three in a two-rank line), or per
        // actual gun the gunners can serve; the firer loses nothing.
        let dice = if battery {
            battery_dice(rules, firer.guns, firer.guns, firer.figures)
        } else if firer.two_rank {
            dice_from_figures(firer.figures, rules.two_rank_figures_per_die, rules.two_rank_remainder_rounds_up)
        } else {
            dice_from_figures(firer.figures, rules.fire_figures_per_die, rules.fire_remainder_rounds_up)
        };
        // 3.3: grade, moving, the firer's own modifier; 3.5: ballshot at a dense target.
        let mut modifier = firer.modifier + rules.fire_grade(firer.grade);
        if firer.moving {
            modifier += rules.fire_moving;
        }
        let dense_bonus = if band == RangeBand::Ballshot { rules.fire_ball_vs_dense } else { 0 };
        let end = path.start + path.exposed;
        let mut crossing = Crossing {
            purpose: game::Purpose::Manoeuvre,
            rules: rules.clone(),
            mover,
            step,
            start: path.start,
            end,
            across: path.across,
            stationary: !firer.moving,
            turns: 0,
            dice,
            chance: [rules.hit_chance(score, modifier), rules.hit_chance(score, modifier + dense_bonus)],
            volleys: [
                VolleyHits::new(dice, rules.hit_faces(score, modifier), rules.hit_chance(score, modifier)),
                VolleyHits::new(
                    dice,
                    rules.hit_faces(score, modifier + dense_bonus),
                    rules.hit_chance(score, modifier + dense_bonus),
                ),
            ],
            tests: TestLaws::new(rules, rules.morale_pass(mover.grade)),
            options: (0..=step as u16).rev().collect(),
            layout: Layout::new(Vec::new()),
        };
        crossing.set_turns(crossing.full_move_turns() + SPARE_TURNS);
        Ok(crossing)
    }

    /// The same crossing with a turn limit of `turns` (0: the default, two
    /// more than a crossing at full moves takes).
    pub fn with_turns(mut self, turns: u32) -> Result<Crossing, ParamError> {
        if turns > MAX_TURNS {
            return Err(invalid("turns", format!("at most {MAX_TURNS} turns")));
        }
        let turns = if turns == 0 { self.full_move_turns() + SPARE_TURNS } else { turns };
        self.set_turns(turns);
        Ok(self)
    }

    fn set_turns(&mut self, turns: u32) {
        self.turns = turns;
        let turns = i64::from(turns);
        self.layout = Layout::new(vec![
            Metric::integer("hits", "figures the mover lost to the firer's hits (rout hits apart)", 0, 60),
            Metric::integer("rout_hits", "figures the mover lost to rout hits (5.7.1)", 0, 60),
            Metric::integer("volleys", "turns the firer fired at the mover", 0, turns),
            Metric::integer("turns", "the turn the crossing ended: arrival, rout, shatter or the turn limit", 1, turns),
            Metric::boolean("arrived", "whether the mover got past the field of fire in good order"),
            Metric::boolean("routed", "whether the mover failed a morale test (it then leaves the fight)"),
            Metric::boolean("shattered", "whether the mover shattered (3/4 losses or a rout score of 0 or less)"),
            Metric::integer("remaining", "percent of the mover's starting figures not lost, rounded down", 0, 100),
        ]);
    }

    /// From the catalogue's settings, as played by the plan of its keys.
    pub fn from_settings(rules: &Rules, settings: &Settings) -> Result<Played<Crossing>, ParamError> {
        let weapon: Weapon = settings.choice("firer.weapon");
        let firer = Firer {
            grade: settings.choice("firer.quality"),
            figures: settings.int("firer.figures") as u32,
            weapon,
            guns: if weapon.is_gun() { settings.int("firer.guns") as u32 } else { 0 },
            modifier: settings.int("firer.modifier") as i32,
            two_rank: settings.bool("firer.two_rank"),
            moving: settings.bool("firer.moving"),
        };
        let mover = Mover {
            grade: settings.choice("mover.quality"),
            figures: settings.int("mover.figures") as u32,
            kind: settings.choice("mover.type"),
            target: settings.choice("mover.target"),
            general: settings.choice("mover.general"),
            charisma: settings.choice("mover.charisma"),
            nation: settings.choice("mover.nation"),
        };
        let path = Path {
            start: settings.int("start") as u32,
            exposed: settings.int("exposed") as u32,
            step: settings.int("move") as u32,
            across: settings.int("across") as u32,
        };
        let crossing = Crossing::new(rules, firer, settings.choice("range"), mover, path)?
            .with_turns(settings.int("turns") as u32)?;
        Ok(Played::new(
            crossing.with_purpose(game::Purpose::from_settings(settings)),
            game::Plan::from_settings(settings),
        ))
    }

    /// The mover's move a turn (inches): the most it may move.
    pub fn step(&self) -> u32 {
        self.step
    }

    /// The turn limit.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// The turns a crossing at full moves takes: the first whose move ends
    /// past the stretch.
    pub fn full_move_turns(&self) -> u32 {
        self.end / self.step + 1
    }

    /// The turns (1-based) in which the firer fires at a mover moving its
    /// full move every turn (bold), should it still be crossing.
    pub fn volley_turns(&self) -> Vec<u32> {
        (1..=self.full_move_turns()).filter(|&turn| self.eligible((turn - 1) * self.step, turn * self.step)).collect()
    }

    /// The turns (1-based) in which a mover moving its full move every turn
    /// is a dense target (3.5) when the volley strikes it, should it still
    /// be crossing.
    pub fn dense_turns(&self) -> Vec<u32> {
        self.volley_turns().into_iter().filter(|&turn| self.dense((turn - 1) * self.step, turn * self.step)).collect()
    }

    /// The firer's dice a volley and a die's chance to hit the mover where a
    /// full first move takes it (a column is dense or not throughout; a line
    /// only where enfiladed: see [`Crossing::dense_turns`]).
    pub fn volley(&self) -> (u32, f64) {
        (self.dice, self.chance[usize::from(self.dense(0, self.step))])
    }

    /// Whether the firer fires at a mover that moved from `from` to `to`
    /// inches along the path this turn.
    pub fn eligible(&self, from: u32, to: u32) -> bool {
        let rules = &self.rules;
        let (start, end) = (self.start, self.end);
        let moved = to - from;
        // 7.1 "normally", 3.8: eligible at the end of the move (or where it halted).
        let at_end = start <= to && to <= end;
        // Inches of this move inside the stretch.
        let inside = to.min(end).saturating_sub(from.max(start));
        // 7.1: eligible for at least half of its movement (exactly half counts);
        // a unit that did not move has no movement to be eligible for half of.
        let measure = match rules.pass_through_measure {
            PassThroughMeasure::Moved => moved,
            PassThroughMeasure::FullMove => self.step,
        };
        let pass_through =
            rules.optional_pass_through_fire && moved > 0 && inside * 100 >= rules.pass_through_percent * measure;
        // 3.8, read literally: any target whose move met the stretch.
        let touched = from <= end && start <= to;
        let passed = rules.stationary_fire_targets == StationaryFireTargets::PassedThrough && touched;
        at_end || (self.stationary && (pass_through || passed))
    }

    /// Whether the mover, having moved from `from` to `to`, is a dense target
    /// (3.5) when the firer's volley strikes it.
    fn dense(&self, from: u32, to: u32) -> bool {
        match self.mover.kind {
            // 3.5: a column of 3 or more ranks is dense wherever it is.
            MoverType::Column => self.mover.figures > 2 * self.rules.column_width,
            // Skirmishers are never dense (3.5).
            MoverType::Line if self.mover.target == Target::Skirmish => false,
            MoverType::Line => self.enfiladed(from, to),
            MoverType::HeavyCavalry | MoverType::LightCavalry => false,
        }
    }

    /// Whether a line marching along the path is enfiladed (3.5: at 22.5
    /// degrees or less onto its flank, so dense) when a volley strikes it
    /// after its move from `from` to `to`. A line marching along the path
    /// faces along it, so the firer looks down its flank where the path is
    /// nearly straight ahead. The stretch in the field of fire is symmetric
    /// about the point of the path straight ahead of the firer (range and arc
    /// both are), so that point is its middle; the line of sight meets the
    /// line's front at 22.5 degrees or less while the mover is within
    /// `across` x tan 22.5 degrees of it. A volley at the end of the move
    /// strikes the mover where it stopped; a volley given under 7.1 or 3.8's
    /// wider reading at a mover no longer eligible at the end strikes it
    /// somewhere on the eligible part of its move, and the firer, who
    /// chooses the moment, takes it on its flank if that part meets the
    /// enfiladed stretch.
    fn enfiladed(&self, from: u32, to: u32) -> bool {
        let (start, end) = (f64::from(self.start), f64::from(self.end));
        let middle = (start + end) / 2.0;
        let half = f64::from(self.across) * std::f64::consts::FRAC_PI_8.tan();
        let (from, to) = (f64::from(from), f64::from(to));
        if start <= to && to <= end {
            (to - middle).abs() <= half + 1e-9
        } else {
            // The eligible part of the move, [max(from, start), min(to, end)].
            let (low, high) = (from.max(start), to.min(end));
            low <= high && low <= middle + half + 1e-9 && middle - half - 1e-9 <= high
        }
    }

    /// 7.11: the mover's national modifier on morale vs. shooting hits after
    /// a move of `moved` inches. France's and Spain's are for a column
    /// "advancing full speed": one that moved less than its full move this
    /// turn (or halted) has not. Austria's, later Prussia's and Britain's ask
    /// only the formation; skirmishers are in no formation they name.
    fn national_vs_shooting(&self, moved: u32) -> i32 {
        let mover = self.mover;
        if !self.rules.optional_national_modifiers
            || mover.grade == Grade::F
            || mover.cavalry()
            || mover.target == Target::Skirmish
        {
            return 0;
        }
        let column = mover.kind == MoverType::Column;
        let full_speed = moved == self.step;
        match (mover.nation, column) {
            (Nation::France, true) if full_speed => 2,
            (Nation::Spain, true) if full_speed => 1,
            (Nation::Austria | Nation::PrussiaLate, true) => 1,
            (Nation::Austria | Nation::PrussiaLate, false) => -1,
            (Nation::Britain, false) => 1,
            _ => 0,
        }
    }

    /// (morale modifier, rout modifier) of the mover testing with `figures`
    /// left after `hits` this phase, having moved `moved` inches (its pass
    /// score is its grade's, 5.5).
    fn test_modifiers(&self, figures: u32, hits: u32, charisma: i32, moved: u32) -> (i32, i32) {
        let rules = &self.rules;
        let mover = self.mover;
        // 5.6: each 2 hits this phase, each 25% total losses, hard cover.
        let mut modifier = (hits / 2) as i32 * rules.morale_per_two_hits;
        modifier += Rules::quarters_lost(mover.figures, mover.figures - figures) * rules.morale_per_quarter_losses;
        if mover.target == Target::Hard {
            modifier += rules.morale_square_or_hard_cover;
        }
        modifier += self.national_vs_shooting(moved);
        let mut rout = rules.rout_grade(mover.grade);
        if figures * 2 <= mover.figures {
            // 5.7.2: at or below half strength.
            rout += rules.rout_half_strength;
        }
        let (morale_general, rout_general) = general_modifiers(rules, mover.general, true, charisma);
        (modifier + morale_general, rout + rout_general)
    }

    /// What `cautious` moves from `place`: up to the last inch short of the
    /// field of fire while a full move would not clear it, then full moves.
    fn cautious_move(&self, place: u32) -> u16 {
        match self.start.checked_sub(1) {
            Some(edge) if place < edge && place + self.step <= self.end => (edge - place).min(self.step) as u16,
            _ => self.step as u16,
        }
    }

    /// The charisma of the mover's general, rolled at the start (1.11).
    fn roll_charisma<F: Fate>(&self, fate: &mut F) -> i8 {
        let rules = &self.rules;
        let charisma = match (self.mover.general, self.mover.charisma) {
            (GeneralPlace::Attached, Charisma::Rolled) => rules.charisma_of_roll(fate.die(10)),
            (GeneralPlace::Attached, fixed) => rules.general_charisma_law(GeneralPlace::Attached, fixed)[0].0,
            _ => 0,
        };
        charisma as i8
    }

    /// A bound on the solver's states: places, figures, volleys and charisma values.
    fn state_bound(&self) -> u64 {
        let charisma = if self.mover.general == GeneralPlace::Attached { 3 } else { 1 };
        u64::from(self.end + 1) * u64::from(self.mover.figures + 1) * u64::from(self.turns + 1) * charisma
    }
}

/// The hits of one volley: rolled die by die, enumerated as a binomial
/// worked out once.
#[derive(Clone, Debug)]
struct VolleyHits {
    dice: u32,
    faces: [bool; 10],
    table: Vec<(u32, f64)>,
}

impl VolleyHits {
    fn new(dice: u32, faces: [bool; 10], chance: f64) -> VolleyHits {
        let table = Pmf::binomial(dice, chance).iter().filter(|&(_, p)| p > 0.0).map(|(v, p)| (v as u32, p)).collect();
        VolleyHits { dice, faces, table }
    }
}

impl Law for VolleyHits {
    fn sample(&self, dice: &mut Dice) -> u32 {
        (0..self.dice).map(|_| u32::from(self.faces[dice.d10() as usize - 1])).sum()
    }

    fn outcomes(&self) -> &[(u32, f64)] {
        &self.table
    }
}

/// The modifiers for which a test's law is kept: 5.6's and 5.7.2's sums
/// under the printed rules stay well inside these; a law outside them is
/// worked out each time it is met.
const MORALE_MODIFIERS: std::ops::RangeInclusive<i32> = -40..=20;
const ROUT_MODIFIERS: std::ops::RangeInclusive<i32> = -20..=20;

/// One morale test and rout roll (5.5-5.7) of the mover, as a law of
/// [`test_code`]s: rolled as the ruleset rolls it, enumerated from its table.
#[derive(Clone, Debug)]
struct TestLaw {
    rules: Rules,
    pass: i32,
    modifier: i32,
    rout_modifier: i32,
    table: Vec<(u32, f64)>,
}

impl TestLaw {
    fn new(rules: &Rules, pass: i32, modifier: i32, rout_modifier: i32) -> TestLaw {
        let mut table: Vec<(u32, f64)> = test_distribution(rules, pass, modifier, rout_modifier)
            .into_iter()
            .map(|(result, p)| (test_code(result), p))
            .collect();
        table.sort_by_key(|&(code, _)| code);
        TestLaw { rules: rules.clone(), pass, modifier, rout_modifier, table }
    }
}

impl Law for TestLaw {
    fn sample(&self, dice: &mut Dice) -> u32 {
        test_code(roll_test(&self.rules, dice, self.pass, self.modifier, self.rout_modifier))
    }

    fn outcomes(&self) -> &[(u32, f64)] {
        &self.table
    }
}

/// The mover's test laws at its pass score, by (morale modifier, rout
/// modifier), each worked out the first time it is needed: the solver meets
/// the same test in many states.
#[derive(Debug)]
struct TestLaws {
    rules: Rules,
    pass: i32,
    laws: Vec<OnceLock<TestLaw>>,
}

impl Clone for TestLaws {
    fn clone(&self) -> TestLaws {
        TestLaws::new(&self.rules, self.pass)
    }
}

impl TestLaws {
    fn new(rules: &Rules, pass: i32) -> TestLaws {
        let count = MORALE_MODIFIERS.count() * ROUT_MODIFIERS.count();
        TestLaws { rules: rules.clone(), pass, laws: (0..count).map(|_| OnceLock::new()).collect() }
    }

    /// The law of a test with these modifiers.
    fn law(&self, modifier: i32, rout_modifier: i32) -> Cow<'_, TestLaw> {
        if !MORALE_MODIFIERS.contains(&modifier) || !ROUT_MODIFIERS.contains(&rout_modifier) {
            return Cow::Owned(TestLaw::new(&self.rules, self.pass, modifier, rout_modifier));
        }
        let index = (modifier - MORALE_MODIFIERS.start()) as usize * ROUT_MODIFIERS.count()
            + (rout_modifier - ROUT_MODIFIERS.start()) as usize;
        Cow::Borrowed(self.laws[index].get_or_init(|| TestLaw::new(&self.rules, self.pass, modifier, rout_modifier)))
    }
}

/// 2.11: the move of a mover (inches); 7.11: early Prussian infantry moves
/// 1" slower than normal.
pub fn mover_move(rules: &Rules, mover: Mover) -> u32 {
    let rate = match mover.kind {
        MoverType::Column => rules.move_infantry_column,
        MoverType::Line => rules.move_infantry_line,
        MoverType::HeavyCavalry => rules.move_heavy_cavalry,
        MoverType::LightCavalry => rules.move_light_cavalry,
    };
    let slower = rules.optional_national_modifiers
        && mover.nation == Nation::PrussiaEarly
        && mover.grade != Grade::F
        && !mover.cavalry();
    if slower { rate.saturating_sub(1) } else { rate }
}

impl Crossing {
    /// This fight under `purpose`: what each side must achieve by the turn
    /// limit ([`crate::game::Purpose`]).
    pub fn with_purpose(mut self, purpose: game::Purpose) -> Self {
        self.purpose = purpose;
        self
    }
}

impl Game for Crossing {
    type State = CrossingState;

    fn purpose(&self) -> game::Purpose {
        self.purpose
    }

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn start(&self) -> CrossingState {
        CrossingState {
            place: 0,
            figures: self.mover.figures as u8,
            volleys: 0,
            charisma: UNROLLED,
            end: GOING,
            rout_hits: 0,
        }
    }

    fn steps(&self) -> u32 {
        self.turns
    }

    fn step<F: Fate>(&self, state: &mut CrossingState, fate: &mut F) -> Option<End> {
        if state.charisma == UNROLLED {
            state.charisma = self.roll_charisma(fate);
        }
        // 2.1 phases 2-3: the mover moves up to its move (2.11).
        let from = u32::from(state.place);
        let moved = u32::from(fate.decide(ATTACKER, &MOVE_DECISION, &self.options, &|policy| match policy {
            Policy::Cautious => self.cautious_move(from),
            _ => self.step as u16,
        }));
        let to = from + moved;
        // 2.1 phase 5: the firer's volley, if the mover is a target it may shoot.
        if self.eligible(from, to) {
            state.volleys += 1;
            let dense = usize::from(self.dense(from, to));
            let hits = fate.draw(&self.volleys[dense]);
            let figures = u32::from(state.figures);
            let left = figures.saturating_sub(hits);
            state.figures = left as u8;
            if self.rules.is_shattered(self.mover.figures, self.mover.figures - left) {
                // 5.3: removed at once, no test.
                state.end = ENDED_SHATTERED;
                return Some(End::Defender);
            }
            if hits >= self.rules.morale_test_shooting_hits {
                // 5.4 (1): a test after 2 hits in the phase.
                let (modifier, rout) = self.test_modifiers(left, hits, i32::from(state.charisma), moved);
                match test_of_code(fate.draw(self.tests.law(modifier, rout).as_ref())) {
                    TestResult::Pass => {}
                    // 5.7.1: a score of 0 or less shatters it.
                    TestResult::Rout(RoutRow::Shattered) => {
                        state.end = ENDED_ROUTED_SHATTERED;
                        return Some(End::Defender);
                    }
                    TestResult::Rout(row) => {
                        // 5.7.1: rout hits by its size at the test; they may shatter it (5.3).
                        let rout_hits = self.rules.rout_hits(row, left).min(left);
                        let after = left - rout_hits;
                        state.figures = after as u8;
                        state.rout_hits = rout_hits as u8;
                        state.end = if self.rules.is_shattered(self.mover.figures, self.mover.figures - after) {
                            ENDED_ROUTED_SHATTERED
                        } else {
                            ENDED_ROUTED
                        };
                        return Some(End::Defender);
                    }
                }
            }
        }
        if to > self.end {
            state.end = ENDED_ARRIVED;
            return Some(End::Attacker);
        }
        state.place = to as u16;
        None
    }

    fn code(&self, _winner: u8, steps: u32, state: &CrossingState) -> u64 {
        let start = self.mover.figures;
        let (figures, rout_hits) = (u32::from(state.figures), u32::from(state.rout_hits));
        let mut values = [0i64; 8];
        values[HITS] = i64::from(start - figures - rout_hits);
        values[ROUT_HITS] = i64::from(rout_hits);
        values[VOLLEYS] = i64::from(state.volleys);
        values[TURNS] = i64::from(steps.max(1));
        values[ARRIVED] = i64::from(state.end == ENDED_ARRIVED);
        values[ROUTED] = i64::from(matches!(state.end, ENDED_ROUTED | ENDED_ROUTED_SHATTERED));
        values[SHATTERED] = i64::from(matches!(state.end, ENDED_SHATTERED | ENDED_ROUTED_SHATTERED));
        values[REMAINING] = percent(figures, start);
        self.layout.encode(&values)
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        DECISIONS
    }

    fn fallback(&self) -> Policy {
        Policy::Cautious
    }

    fn solvable(&self, _plan: game::Plan) -> bool {
        self.state_bound() <= MAX_STATES
    }

    fn describe_state(&self, state: &CrossingState, _side: u8) -> String {
        let place = u32::from(state.place);
        let stretch = format!("the field of fire runs from {}\" to {}\"", self.start, self.end);
        let figures = if u32::from(state.figures) == self.mover.figures {
            format!("{} figures", state.figures)
        } else {
            format!("{} of {} figures", state.figures, self.mover.figures)
        };
        let kind = match self.mover.kind {
            MoverType::Column => "column",
            MoverType::Line => "line",
            MoverType::HeavyCavalry => "heavy cavalry",
            MoverType::LightCavalry => "light cavalry",
        };
        let whereabouts = if place < self.start {
            format!("{}\" short of the firer's field of fire", self.start - place)
        } else {
            format!("inside the firer's field of fire, {}\" from its far edge", self.end - place)
        };
        format!(
            "{kind} of {figures} at {place}\" along its path, {whereabouts} ({stretch}), moving up to {}\" a turn",
            self.step
        )
    }

    fn describe_option(&self, _decision: &'static Decision, option: u16) -> String {
        match u32::from(option) {
            0 => "halt".to_string(),
            o if o == self.step => format!("move the full {o}\""),
            o => format!("move {o}\""),
        }
    }
}
