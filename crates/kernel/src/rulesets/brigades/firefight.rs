//! The `firefight` scenario: two units at a given distance exchange fire each
//! turn (3.1-3.3, all shooting simultaneous in phase 5 of 2.1), test morale
//! after two or more hits (5.4 (1), 5.6), rout on failure (5.7), stand still
//! to recover from shaken (2.4), and shatter at three quarters losses (5.3) or
//! a rout score of 0 or less, until one routs off (back past its `room`),
//! shatters, surrenders (5.8), or the turn limit. The exact solver is an
//! absorbing Markov chain over (figures, guns, shaken, room left, general,
//! routed, off the table, returned) per side, propagated turn by turn as
//! `markov::absorb` does. That chain ([`Firefight`]) is the old, fixed
//! reading: after every rout the enemy is back at the firefight distance.
//!
//! # On the decision model ([`FireGame`], the catalogue's `firefight`)
//!
//! Issue 15 item 1: by 2.11 and 3.1 a rout opens a gap that only moves close.
//! [`FireGame`] keeps each unit's place (its `room` left: advancing adds to
//! it, falling back and routing take from it; the gap is the start distance
//! less both advances), so the distance after every rout stays open. Each
//! movement phase, the attacker first and then the defender (2.1; the
//! defender sees the attacker's move, a sequential reading of simultaneous
//! movement), each infantry unit not shaken decides ([`MOVE_DECISION`]):
//! hold and fire; close half a move (2" in line, 2.11) and fire at the
//! moving penalty (3.1, 3.3 -2); close a whole move and not fire; or fall
//! back half a move and fire at the penalty. Never closer than
//! `no_closer_than` (2.2, 2"), never back off its own edge by choice (a
//! surrounded unit has nowhere to fall back to). Batteries never move (3.1:
//! "Artillery may not move and fire"); a battery whose target is within its
//! canister range, which ballshot also reaches, decides its ammunition
//! ([`AMMUNITION_DECISION`]) wherever the two land differently: at a
//! battery (3.4's effects differ), and at infantry too (3.2: ballshot hits
//! soft cover on 8 where canister needs 9, heavy ballshot hard cover on 9
//! where canister needs 10; in the open canister's 6 beats ballshot's 8).
//! (The choice was once offered only against a battery, so a battery
//! always fired canister at infantry in cover.) Aims are precomputed for
//! every distance up to one past the longest reach (beyond it nobody fires,
//! so farther distances share one law). Positions move in whole inches: with the printed moves
//! (4", half 2") and rout distances (4-18") every place is an even number of
//! inches, the 2" steps in which the range bands (4", 8") and moves change.
//!
//! Policies: `cautious` holds (it fires where it stands and never closes,
//! the old `stand`); `bold` closes back to the start distance as the old
//! fixed reading did, a whole move while it cannot reach, half a move
//! (firing) while farther than the start distance; a bold battery fires
//! canister, a cautious one ballshot. `best` is backward induction on the
//! margin (win minus loss), or on each side's win chance (`objective`).
//!
//! # Solving best play (issues 13 and 15, "Speed")
//!
//! Two infantry units (no battery, neither surrounded, 7.13 returns off,
//! any attached general's charisma known rather than rolled) are solved on
//! a dense table, [`DenseSolver`]: every state of a turn (each side's
//! strength, shaken or not, its general, and its place, in steps of the
//! greatest common divisor of the moves and rout distances) has an index,
//! so a state's next states are found by arithmetic rather than by
//! enumerating its step, and the turn's chance law, the product of the two
//! sides' laws (simultaneous fire: each side's losses, test and rout
//! depend only on its own state, whether it fired, and the fire it took
//! from the enemy's state at the start of the phase), is never built: each
//! side's law is tabulated once by (state, fired, incoming fire) and the
//! product is summed straight against the next turn's worths, once for
//! each pair of move classes (held, moved half, moved whole) after the
//! moves, and only once where neither unit reaches the other (read
//! straight off the next turn where neither side's turn then holds a
//! chance). Where every side playing `best` maximises its margin the game
//! is zero-sum and the table keeps the attacker's margin alone. The
//! `routed` metric, which no decision depends on, is carried only by the
//! forward walk that gives the law of outcomes. The default, 24 against 24
//! from 4" over 30 turns, is 746,496 states a turn (about 22.4 M
//! state-turns); it solves, best play and the exact law included, in about
//! 1.9 s of CPU and 1.2 s wall (two threads, the machine lightly loaded;
//! 2.4 s and 1.5 s before the forward walk stopped adding its buffers up
//! and the backward pass stopped dividing out every index) and 146 MB
//! (`examples/solve_time`, release, under `/usr/bin/time -v`). `--explain`
//! ([`DenseSolver::explain`]) reads each side's first decision off the
//! table and, since a zero-sum table keeps the margin alone, walks the
//! table's choices backwards once more for both sides' chances (about
//! 1.3 s wall with the solve at the default). A
//! test (`dense_solver_matches_the_generic_solver`) checks the table
//! against the generic solver code by code, under six plans (both
//! objectives, best against each heuristic) and six set-ups (distances 2"
//! to 10", rifles, an attached general with 7.5 danger, shaken units that
//! fire, the first rout ending the fight). The table is bounded by
//! [`DENSE_MAX_STATES`] and [`DENSE_MAX_STATE_TURNS`].
//!
//! Everything else (batteries, the `ammunition` decision, 7.13, 5.8, a
//! rolled charisma) goes to the generic solver of [`crate::game`] within
//! [`GAME_MAX_SIZES`] (8 figures against 8 in about a second); beyond it a
//! side asked for `best` plays `bold` and the output says so. The measured
//! cost of that fallback: 8 against 8 from 8" over 30 turns, under best
//! play by both the attacker wins 44.2% and loses 47.9%; an attacker
//! playing bold against a defender at its best wins 19.0% and loses 71.9%
//! (49 points of margin lost); both sides bold, 47.5% and 47.7%. At the
//! default, 24 against 24 from 4" over 30 turns: best play by both 42.4%
//! and 46.3%; a bold attacker against the best defender 25.6% and 73.1%
//! (44 points lost); both bold 41.3% and 56.2%, so between two bold sides
//! the fallback moves the margin by 11 points. Bold is a poor stand-in for
//! best play, which is why the dense table matters.
//!
//! Where the generic solver must answer, the fallback's cost at sizes it
//! solves (grade D muskets, 30 turns, each figure the attacker's win and
//! loss chance in percent; measured with `solve_time brigades firefight
//! attacker.figures=N defender.figures=N KEYS attacker.policy=P
//! defender.policy=Q`, and pinned at 6 against 6 and the battery by
//! `the_fallback_s_gap_to_best_play_where_the_generic_solver_answers`):
//!
//! - A surrounded defender (5.8, `defender.surrounded=true`), from 4": 6
//!   against 6, best play by both 47.6/45.5; a bold attacker against the
//!   best defender 45.9/45.9 (2.2 points of margin lost); a bold defender
//!   against the best attacker 47.9/44.1 (1.7 lost); both bold 45.9/45.9.
//!   8 against 8: 49.1/47.3; 47.5/48.7 (3.0 lost); 50.5/45.6 (3.1 lost);
//!   both bold 47.8/48.4.
//! - First routs off the table (7.13,
//!   `rules.optional_first_rout_off_table=true`), from 4": 6 against 6,
//!   best play by both 46.3/46.8; a bold attacker 34.9/60.5 (25.1 points
//!   lost); a bold defender 47.9/44.1 (4.4 lost); both bold 45.9/45.9. 8
//!   against 8: 47.7/48.1; 34.9/62.7 (27.3 lost); 50.5/45.6 (5.3 lost);
//!   both bold 47.8/48.4. From 8": 44.2/47.9; 18.8/73.0 (50.5 lost);
//!   51.8/40.8 (14.7 lost); both bold 47.5/47.7.
//! - 7 muskets against a field battery of 2 guns and 3 gunners
//!   (`attacker.figures=7 defender.weapon=field_gun defender.guns=2
//!   defender.figures=3`, 96 of the 100 size states): from 8", best play by
//!   both 28.1/67.9, a bold attacker 20.0/76.7 (16.8 points lost); from
//!   12", 0.0/64.0 against 10.2/87.4 (13.1 lost); from 4" within 0.1 point.
//!   The battery's bold (canister) is its best play at all three: the
//!   `ammunition` decision's cost shows against cover, as in
//!   `a_heavy_battery_fires_ballshot_at_hard_cover_under_best_play` (3.19%
//!   a win with ballshot, 0.80% with canister).
//!
//! So beyond [`GAME_MAX_SIZES`] a bold side gives up from 2 to 3 points of
//! margin against a surrounded enemy, and from 13 to 50 points as the
//! attacker under 7.13 or against a battery: read such a sampled answer as
//! bold play's, not as best play's.
//!
//! # Start distance under best play
//!
//! 24 against 24 (grade D muskets, 24" of room each) over 30 turns, the
//! attacker's win, loss and margin by start distance: 2" 43.2/46.6 (-3.3),
//! 4" 42.4/46.3 (-3.9), 6" 42.2/45.7 (-3.5), 7" 34.5/42.6 (-8.1), 8"
//! 34.7/42.7 (-8.0), 9" 11.3/11.5 (-0.1), 10" 0.04/0.06, 11" 9.7/11.4,
//! 12" 5.0/5.6, 13" 24.4/25.1, 14" 24.9/25.5, 15" 10.4/12.0, 16" 6.0/6.3.
//! The margin never moves by more than 8 points between neighbouring
//! distances, but the share of fights decided does, by more than 10
//! points at 8" to 9" (77% decided to 23%), 9" to 10" (to 0.1%), 10" to
//! 11" (to 21%), 12" to 13" (11% to 49%) and 14" to 15" (50% to 22%).
//! The cause is the range edge: musket fire reaches 8" (3.2), a move is 2"
//! or 4", and a unit that steps into range fires at -2 (half a move) or
//! not at all (a whole move) while the enemy, holding, fires at full
//! effect. Within 8" both are in range from the first turn and the fight
//! is on. Beyond it, whether a side can close without handing the enemy
//! the first full volley depends on the distance in 2" steps and on the
//! move order (the attacker moves first, the defender answers), so from
//! some distances a side closes and from others, 10" above all, both stand
//! off and the fight is drawn at the limit (see "The turn limit" below).
//! `start_distance_sweep_at_twelve_figures` checks the margin's steps at 12
//! against 12 over 12 turns, and the stand-off from 10".
//!
//! The figures above are the stand-up fight's (`purpose = stand`, the same
//! here as `manoeuvre`: no unit leaves the fight of its own accord): a fight
//! still going at the limit is won by nobody, so a side that falls behind
//! may stand off out of range and play for the draw, and the share of draws
//! jumps with the start distance.
//!
//! # Purpose
//!
//! The default is an attack (`purpose = attack`): the attacker must drive
//! the defender off (rout, shatter or make it surrender) by the turn limit,
//! and a defender still in the field then has held. Best play is zero-sum on
//! the attacker's success, nothing is undecided, and the start distance no
//! longer decides whether the fight happens: 24 against 24 over 30 turns,
//! the attacker wins 43.4% from 2", 42.3% from 4" (the default), 41.6% from
//! 6", 35.3% from 7", 35.6% from 8", 30.3% from 9", 30.6% from 10", 29.6%
//! from 11", 30.1% from 12" (`cargo run --release -p volley-kernel --example
//! purposes -- brigades firefight distance=D`), at most 6.3 points between
//! neighbouring distances (7": the range edge, as above).
//!
//! Either side may be infantry (musket or rifle) or a battery (a gun type):
//! its `figures` are then its gunners and `guns` its actual guns. A battery
//! rolls a die per actual gun its crews can serve (3.1: a model needs 3 crew
//! for 2 dice, 2 for 1; [`battery_dice`], with the interpretations
//! `battery_crew` and `battery_gun_loss`), canister within its canister range
//! and ballshot beyond it up to its ballshot range (3.2, 3.6). Each hit on a
//! battery rolls again on the counterbattery table (3.4, read from
//! [`super::fire::Counterbattery`]): ballshot hits miss on 1-7, take a gunner
//! on 8-9 and a gun and a gunner on 10; small arms and canister take a gunner
//! on 5-10. The gunners are the battery's figures for morale (5.x: losses,
//! half strength, 3/4 shatters it, rout hits by its size); which hits count
//! for its test is `battery_hits`. A routing battery falls back with its guns
//! like any unit (5.7.3 makes no exception); in the chain it is met at the
//! same range again, as infantry is, and on the decision model it keeps its
//! new place. Guns are never dense (3.5), nor is infantry in line,
//! so ballshot gets no dense bonus here; a battery cannot skirmish.
//!
//! Order within a turn: a unit off the table (7.13) rolls to return at the
//! start of movement; both units fire with the figures they had at the start
//! of the phase; hits come off; a unit now at 3/4 losses is shattered (no
//! test); a unit with 2 or more hits tests (one test per phase, 2.1), and on
//! failure rolls on the rout table, takes its rout hits (which may shatter
//! it) and falls back the rout distance, shaken. With danger to generals (7.5)
//! an attached general of a unit hit twice or more rolls after the test. A
//! shaken unit that held its fire and did not rout this turn recovers at the
//! end of the turn.
//!
//! 7.13 First rout off-table (`optional_first_rout_off_table`, with
//! `firefight_rout = reengage`): a unit's first rout back past its room takes
//! it off the table instead of out of the fight. From the next turn it rolls a
//! D10 at the start of movement and on `return_min_score` (8-10) reappears at
//! its table edge, steady (7.4); meanwhile nobody fires. It needs no move to
//! close: under `reengage` the enemy closes on a router to the firefight
//! distance after every rout, so it stands that far from the edge where the
//! router left, and fire resumes that very turn. The returned unit has no room
//! left (it stands on its edge): its next rout takes it off for good. A unit
//! still off the table when the fight ends counts as routed off.
//!
//! 5.8 Army baselines (`surrounded`): a surrounded side's `room` is the
//! distance to its centre point, past which it does not rout off but routs on,
//! with `surrounded_extra_rout_hits` (2) more rout hits on the rout that
//! passes it (`surrounded_hits`); its `ring` is how far beyond the centre point
//! the enemy on the other side stands: a rout ending that far past the centre
//! point or more leaves it no choice but to retreat into their arms, and it
//! surrenders (removed). A rout that shatters it shatters it first.
//!
//! 7.1 Pass-through fire changes nothing here (the [`super::crossing`]
//! scenario is where it does: a unit marching across a stationary firer's
//! front): a stationary unit gains targets that were in range for half of
//! their movement but not at its end. In this scenario the only movement in the
//! movement phases is the enemy closing back to the firefight distance after a
//! rout (and, with 7.13, a unit reappearing at its edge, already at that
//! distance): both approach in a straight line, so a target in range for half
//! its move is still in range at its end. Rout moves are made in the shooting
//! phase after all fire (2.1 phase 5, 5.7.4), not in a movement phase, and a
//! firefight's units never retire by choice.

use super::UNROLLED;
use super::fire::{Counterbattery, Fire};
use super::roll::Roller;
use super::{
    BatteryCrew, BatteryGunLoss, BatteryHits, Charisma, FirefightRout, GeneralPlace, Grade, Nation, RangeBand, RoutRow,
    Rules, ShakenPolicy, SurroundedHits, Target, TestResult, Weapon, dice_from_figures, grade_param, invalid,
    roll_test, test_distribution,
};
use crate::dice::Dice;
use crate::game::{self, ATTACKER, Decision, End, Fate, Game, Law, Policy};
use crate::outcome::CodeHasher;
use crate::outcome::{Layout, Metric, WINNERS};
use crate::params::{Choice, Param, ParamError, Settings};
use crate::pmf::Pmf;
use crate::scenario::Scenario;
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// The per-side keys of a firefight (without the side prefix): quality,
/// figures, weapon, guns, cover, modifier, general, charisma, room,
/// surrounded, ring, two_rank, nation.
pub fn side_params(side: &str, figures: i64) -> Vec<Param> {
    vec![
        grade_param(&format!("{side}.quality"), "morale grade a-f (5.5, 5.7.2, 3.3)"),
        Param::int(
            format!("{side}.figures"),
            "starting figures (a battery's: its gunners, 4 a model in 1.10)",
            figures,
            1,
            60,
        ),
        Param::choice(
            format!("{side}.weapon"),
            "musket or rifle, or light_gun, field_gun, heavy_gun: a battery (3.1, 3.2, hits on it by 3.4)",
            Weapon::Musket,
        ),
        Param::int(
            format!("{side}.guns"),
            "actual guns of a battery (3.1: a die each, crew permitting; 2 to a model, 1.4)",
            6,
            1,
            40,
        ),
        Param::choice(
            format!("{side}.cover"),
            "the target type the unit presents: normal, skirmish (it also fires at -1; not a battery), soft or hard (+1 morale vs. shooting)",
            Target::Normal,
        ),
        Param::int(format!("{side}.modifier"), "net of other shooting modifiers of its fire (3.3)", 0, -10, 10),
        Param::choice(
            format!("{side}.general"),
            "its general: in_radius, out_of_radius (-1) or attached (+charisma)",
            GeneralPlace::InRadius,
        ),
        Param::choice(
            format!("{side}.charisma"),
            "an attached general's charisma: rolled on 1D10 (1.11), or 0, 1, 2",
            Charisma::Rolled,
        ),
        Param::int(
            format!("{side}.room"),
            "inches behind it to its baseline: a rout this far or more routs it off (if surrounded: to its centre point, which it routs past, 5.8)",
            24,
            1,
            100,
        ),
        Param::boolean(
            format!("{side}.surrounded"),
            "its force starts surrounded (5.8): it routs on past its centre point with 2 extra rout hits",
            false,
        ),
        Param::int(
            format!("{side}.ring"),
            "if surrounded: inches beyond its centre point to the enemy on the other side; a rout ending that far past it surrenders (5.8)",
            12,
            0,
            100,
        ),
        Param::boolean(format!("{side}.two_rank"), "a two-rank line (7.9; needs optional_two_rank_line)", false),
        Param::choice(
            format!("{side}.nation"),
            "national modifiers in line (7.11; needs optional_national_modifiers)",
            Nation::None,
        ),
    ]
}

/// The keys of `firefight`.
pub fn params() -> Vec<Param> {
    let mut params = side_params("attacker", 24);
    params.extend(side_params("defender", 24));
    params.push(Param::int(
        "distance",
        "inches between the units (3.2: close or far range by weapon; canister or ballshot for guns)",
        4,
        1,
        40,
    ));
    params.push(Param::int("turns", "the turn limit", 30, 1, 200));
    params.extend(game::plan_params());
    params.push(game::purpose_key(
        game::Purpose::Attack,
        "rout or shatter the defender or make it surrender",
        "the attacker must drive the defender off within the limit, and a defender still in the field then has \
         held; under stand the units may also trade fire from out of reach until the limit, a draw",
    ));
    params
}

/// One side of a firefight, as configured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FireSide {
    /// Morale grade.
    pub grade: Grade,
    /// Starting figures (a battery's gunners).
    pub figures: u32,
    /// Musket or rifle, or a gun type for a battery.
    pub weapon: Weapon,
    /// A battery's actual guns (ignored for infantry).
    pub guns: u32,
    /// The target type it presents.
    pub cover: Target,
    /// Net of other shooting modifiers.
    pub modifier: i32,
    /// Where its general is.
    pub general: GeneralPlace,
    /// Its general's charisma, if attached.
    pub charisma: Charisma,
    /// Inches to its baseline (to its centre point if surrounded).
    pub room: u32,
    /// Its force starts surrounded (5.8).
    pub surrounded: bool,
    /// If surrounded: inches beyond the centre point to the enemy ring (5.8).
    pub ring: u32,
    /// A two-rank line (7.9).
    pub two_rank: bool,
    /// Its nation (7.11).
    pub nation: Nation,
}

impl FireSide {
    /// A plain side: grade D, musket, in the open, general in radius.
    pub fn new(grade: Grade, figures: u32) -> FireSide {
        FireSide {
            grade,
            figures,
            weapon: Weapon::Musket,
            guns: 0,
            cover: Target::Normal,
            modifier: 0,
            general: GeneralPlace::InRadius,
            charisma: Charisma::Rolled,
            room: 24,
            surrounded: false,
            ring: 12,
            two_rank: false,
            nation: Nation::None,
        }
    }

    /// A battery of `guns` actual guns of `weapon` served by `gunners`, otherwise as [`FireSide::new`].
    pub fn battery(grade: Grade, weapon: Weapon, guns: u32, gunners: u32) -> FireSide {
        FireSide { weapon, guns, ..FireSide::new(grade, gunners) }
    }

    fn from_settings(settings: &Settings, side: &str) -> FireSide {
        let weapon: Weapon = settings.choice(&format!("{side}.weapon"));
        FireSide {
            grade: settings.choice(&format!("{side}.quality")),
            figures: settings.int(&format!("{side}.figures")) as u32,
            weapon,
            guns: if weapon.is_gun() { settings.int(&format!("{side}.guns")) as u32 } else { 0 },
            cover: settings.choice(&format!("{side}.cover")),
            modifier: settings.int(&format!("{side}.modifier")) as i32,
            general: settings.choice(&format!("{side}.general")),
            charisma: settings.choice(&format!("{side}.charisma")),
            room: settings.int(&format!("{side}.room")) as u32,
            surrounded: settings.bool(&format!("{side}.surrounded")),
            ring: settings.int(&format!("{side}.ring")) as u32,
            two_rank: settings.bool(&format!("{side}.two_rank")),
            nation: settings.choice(&format!("{side}.nation")),
        }
    }

    fn battery_side(&self) -> bool {
        self.weapon.is_gun()
    }
}

/// 3.1 The dice a gun model's crew can serve: 2 with 3 crew, 1 with 2, none with 1.
fn crew_dice(rules: &Rules, crew: u32) -> u32 {
    if crew >= rules.crew_for_two_dice {
        2
    } else if crew >= rules.crew_for_one_die {
        1
    } else {
        0
    }
}

/// 3.1 A battery's dice: one per actual gun its crews can serve. The battery
/// started with `start_guns` on models of `guns_per_model` (1.4; an odd gun on
/// a last model); `gunners` are spread over the models by `battery_crew`, and
/// destroyed guns (`start_guns - guns`) cost dice by `battery_gun_loss`.
pub fn battery_dice(rules: &Rules, start_guns: u32, guns: u32, gunners: u32) -> u32 {
    let per_model = rules.guns_per_model.max(1);
    let models = start_guns.div_ceil(per_model).max(1);
    let model_guns = |i: u32| {
        if i + 1 < models || start_guns.is_multiple_of(per_model) { per_model } else { start_guns % per_model }
    };
    let served = match rules.battery_crew {
        BatteryCrew::Even => (0..models)
            .map(|i| {
                let crew = gunners / models + u32::from(i < gunners % models);
                model_guns(i).min(crew_dice(rules, crew))
            })
            .sum(),
        BatteryCrew::Best => {
            // Most dice for the gunners: each model takes no crew, enough for
            // one die, or enough for two (more serves nothing).
            let mut best = vec![0u32; gunners as usize + 1];
            for i in 0..models {
                let mut next = best.clone();
                for crew in [rules.crew_for_one_die, rules.crew_for_two_dice] {
                    let gain = model_guns(i).min(crew_dice(rules, crew));
                    for g in crew as usize..=gunners as usize {
                        next[g] = next[g].max(best[g - crew as usize] + gain);
                    }
                }
                best = next;
            }
            best[gunners as usize]
        }
    };
    match rules.battery_gun_loss {
        BatteryGunLoss::Subtract => served.saturating_sub(start_guns.saturating_sub(guns)),
        BatteryGunLoss::Cap => served.min(guns),
    }
}

/// One volley's effect on its target: the hits that count for its morale,
/// and the figures and actual guns it loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Volley {
    /// Hits for the morale test and danger to generals.
    pub hits: u32,
    /// Figures (gunners) lost.
    pub figures: u32,
    /// Actual guns destroyed.
    pub guns: u32,
}

/// How one side's fire lands, at the firefight's distance, steady or shaken.
#[derive(Clone, Copy, Debug)]
struct Aim {
    /// For the firer steady and shaken: the faces that hit, and the chance.
    faces: [[bool; 10]; 2],
    chances: [f64; 2],
    /// At a battery (3.4): the effect roll's faces 1..=misses miss, the next
    /// `gunners` take a gunner, the rest a gun and a gunner; with the
    /// chances of the three.
    misses: u32,
    gunners: u32,
    effects: [f64; 3],
}

impl Aim {
    /// Whether fire aimed so lands as `other` does: the same faces hit and,
    /// at a battery, the same effects (3.4). Where canister and ballshot land
    /// alike the `ammunition` decision has nothing to choose; where they do
    /// not, the battery chooses, against infantry too: ballshot hits soft
    /// cover on 8 where canister needs 9, and heavy ballshot hard cover on 9
    /// where canister needs 10 (3.2).
    fn lands_as(&self, other: &Aim) -> bool {
        self.faces == other.faces && self.misses == other.misses && self.gunners == other.gunners
    }
}

/// One side's state between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SideState {
    /// Figures left (a battery's gunners).
    pub figures: u8,
    /// A battery's actual guns left.
    pub guns: u8,
    /// Shaken.
    pub shaken: bool,
    /// Inches left to its baseline (to its centre point if surrounded; below
    /// 0, that far beyond it).
    pub room: i16,
    /// Its attached general is still with it.
    pub general: bool,
    /// It has failed morale at least once.
    pub routed: bool,
    /// Off the table after its first rout off, and may return (7.13).
    pub off: bool,
    /// It has come back from its first rout off (7.13).
    pub returned: bool,
}

/// How a side ends a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Out {
    /// Still in the fight (or off the table, and may return: 7.13).
    In,
    /// Shattered (5.3 or 5.7.1).
    Shattered,
    /// Routed off (back past its room), or routed at all with `FirefightRout::Ends`.
    RoutedOff,
    /// Surrendered, routing into the enemy beyond its centre point (5.8).
    Surrendered,
}

/// The exact solver answers when neither side has more figures than this.
pub const EXACT_MAX_FIGURES: u32 = 24;

/// The exact solver answers when neither battery has more actual guns than this (1.6: 4-12).
pub const EXACT_MAX_GUNS: u32 = 12;

/// The exact solver answers when the sides' sizes multiply to at most this,
/// a side's size being its figures + 1, times its guns + 1 for a battery: 24
/// infantry against 24 (625) or against 12 guns with 24 gunners (8125).
pub const EXACT_MAX_SIZES: u32 = 8_200;

/// The same bound for two batteries, whose laws (gunners and guns lost) are
/// wider: 4 guns with 8 gunners against as many (2025).
pub const EXACT_MAX_BATTERY_SIZES: u32 = 2_100;

/// Where the dense table ([`DenseSolver`]) does not apply (a battery, 7.13,
/// 5.8, a rolled charisma), best play is solved by the generic solver when
/// the sides' sizes (as for [`EXACT_MAX_SIZES`]) multiply to at most this:
/// 8 figures against 8 over 30 turns solves in about a second, while 12
/// against 12 over 10 turns takes 7 s of CPU and 24 against 24 over 3 turns
/// 23 s and 1 GB (the places both sides can stand multiply the states).
/// Beyond it a side asked for `best` plays `bold`.
pub const GAME_MAX_SIZES: u32 = 100;

/// Two units shooting it out.
#[derive(Clone, Debug)]
pub struct Firefight {
    rules: Rules,
    sides: [FireSide; 2],
    /// How each side's fire lands on the other.
    aims: [Aim; 2],
    /// Dice by figures (infantry), or by guns * (figures + 1) + figures (a battery), per side.
    dice: [Vec<u32>; 2],
    /// Whether each side can reach the other at all.
    in_range: [bool; 2],
    turns: u32,
    layout: Layout,
}

/// The metrics every multi-turn scenario of this ruleset reports, in order.
pub fn multi_turn_metrics(turns: u32) -> Vec<Metric> {
    vec![
        Metric::categories(
            "winner",
            "the side left in the field when the other routed off or shattered; none at the limit or if both went; under `purpose = attack` every fight the attacker does not win is the defender's (`ended` says how each ended)",
            WINNERS,
        ),
        Metric::integer("turns", "the turn it ended (the limit if undecided)", 1, i64::from(turns)),
        Metric::integer(
            "attacker_remaining",
            "percent of the attacker's starting figures not lost, rounded down",
            0,
            100,
        ),
        Metric::integer(
            "defender_remaining",
            "percent of the defender's starting figures not lost, rounded down",
            0,
            100,
        ),
        Metric::boolean("attacker_routed", "whether the attacker failed a morale test at least once"),
        Metric::boolean("defender_routed", "whether the defender failed a morale test at least once"),
        Metric::boolean(
            "attacker_shattered",
            "whether the attacker shattered (3/4 losses or a rout score of 0 or less)",
        ),
        Metric::boolean("defender_shattered", "whether the defender shattered"),
    ]
}

/// The metrics of `firefight`: the multi-turn ones, then its own.
fn firefight_metrics(turns: u32) -> Vec<Metric> {
    let mut metrics = multi_turn_metrics(turns);
    metrics.extend([
        Metric::integer("attacker_guns_lost", "actual guns the attacker's battery lost (3.4)", 0, 40),
        Metric::integer("defender_guns_lost", "actual guns the defender's battery lost (3.4)", 0, 40),
        Metric::boolean("attacker_surrendered", "whether the attacker surrendered, routing into the enemy (5.8)"),
        Metric::boolean("defender_surrendered", "whether the defender surrendered (5.8)"),
        Metric::boolean("attacker_returned", "whether the attacker came back after its first rout off (7.13)"),
        Metric::boolean("defender_returned", "whether the defender came back after its first rout off (7.13)"),
    ]);
    metrics
}

/// Percent of `start` in `left`, rounded down.
pub fn percent(left: u32, start: u32) -> i64 {
    (left * 100).checked_div(start).map_or(0, i64::from)
}

impl Firefight {
    /// A firefight at `distance` inches with a turn limit.
    pub fn new(
        rules: &Rules,
        attacker: FireSide,
        defender: FireSide,
        distance: u32,
        turns: u32,
    ) -> Result<Firefight, ParamError> {
        Firefight::build(rules, attacker, defender, distance, turns, false)
    }

    /// The same, with `ball`: a battery within its canister range fires
    /// ballshot instead, if that reaches (the `ammunition` decision).
    fn build(
        rules: &Rules,
        attacker: FireSide,
        defender: FireSide,
        distance: u32,
        turns: u32,
        ball: bool,
    ) -> Result<Firefight, ParamError> {
        let sides = [attacker, defender];
        let names = ["attacker", "defender"];
        let mut aims =
            [Aim { faces: [[false; 10]; 2], chances: [0.0; 2], misses: 10, gunners: 0, effects: [1.0, 0.0, 0.0] }; 2];
        let mut in_range = [false; 2];
        let mut dice: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        for s in 0..2 {
            let me = sides[s];
            let enemy = sides[1 - s];
            let key = |name: &str| format!("{}.{name}", names[s]);
            validate(rules, me, &key)?;
            let battery = me.battery_side();
            // 3.2, 3.6: small arms close or far; guns canister, then ballshot.
            let (near, far) =
                if battery { (RangeBand::Canister, RangeBand::Ballshot) } else { (RangeBand::Close, RangeBand::Far) };
            let reaches = |band| distance <= rules.band_range(me.weapon, band).unwrap_or(0);
            let band = if battery && ball && reaches(far) {
                Some(far)
            } else if distance <= rules.band_range(me.weapon, near).unwrap_or(0) {
                Some(near)
            } else if distance <= rules.band_range(me.weapon, far).unwrap_or(0) {
                Some(far)
            } else {
                None
            };
            let skirmishing = me.cover == Target::Skirmish;
            dice[s] = if battery {
                // 3.1: a die per actual gun its crews can serve.
                (0..=me.guns)
                    .flat_map(|g| (0..=me.figures).map(move |f| (g, f)))
                    .map(|(g, f)| battery_dice(rules, me.guns, g, f))
                    .collect()
            } else {
                (0..=me.figures)
                    .map(|f| {
                        if me.two_rank && !skirmishing {
                            // 7.9: close-order fire of a two-rank line, one die per three.
                            dice_from_figures(f, rules.two_rank_figures_per_die, rules.two_rank_remainder_rounds_up)
                        } else {
                            // 3.1: one die per four, a remainder of three rounds up.
                            dice_from_figures(f, rules.fire_figures_per_die, rules.fire_remainder_rounds_up)
                        }
                    })
                    .collect()
            };
            if let Some(band) = band {
                in_range[s] = true;
                let score = rules.score_to_hit(me.weapon, band, enemy.cover).unwrap_or(0);
                let aim = &mut aims[s];
                for shaken in [false, true] {
                    // 3.3: grade, shaken, skirmishing, and the side's own modifier.
                    let mut modifier = me.modifier + rules.fire_grade(me.grade);
                    if shaken {
                        modifier += rules.fire_shaken;
                    }
                    if skirmishing {
                        modifier += rules.fire_disordered_or_skirmishing;
                    }
                    if !battery {
                        modifier += national_musketry(rules, me, shaken);
                    }
                    aim.faces[usize::from(shaken)] = rules.hit_faces(score, modifier);
                    aim.chances[usize::from(shaken)] = rules.hit_chance(score, modifier);
                }
                if enemy.battery_side() {
                    // 3.4: each hit on the guns rolls for its effect; unlimbered guns.
                    let table =
                        Counterbattery::new(rules, Fire::from_dice(rules, 0, 0, 0), band == RangeBand::Ballshot, false);
                    let effects = table.effect_chances();
                    aim.effects = effects;
                    aim.misses = (effects[0] * 10.0).round() as u32;
                    aim.gunners = (effects[1] * 10.0).round() as u32;
                }
            }
        }
        Ok(Firefight {
            rules: rules.clone(),
            sides,
            aims,
            dice,
            in_range,
            turns,
            layout: Layout::new(firefight_metrics(turns)),
        })
    }

    /// From the catalogue's settings.
    pub fn from_settings(rules: &Rules, settings: &Settings) -> Result<Firefight, ParamError> {
        Firefight::new(
            rules,
            FireSide::from_settings(settings, "attacker"),
            FireSide::from_settings(settings, "defender"),
            settings.int("distance") as u32,
            settings.int("turns") as u32,
        )
    }

    fn start_state(&self, s: usize) -> SideState {
        SideState {
            figures: self.sides[s].figures as u8,
            guns: self.sides[s].guns as u8,
            shaken: false,
            room: self.sides[s].room as i16,
            general: self.sides[s].general == GeneralPlace::Attached,
            routed: false,
            off: false,
            returned: false,
        }
    }

    /// Whether side `s` fires this turn.
    fn fires(&self, s: usize, states: [SideState; 2]) -> bool {
        let state = states[s];
        // 7.13: nobody fires while either unit is off the table.
        // 2.4: a shaken unit that means to recover must not shoot.
        self.in_range[s]
            && !state.off
            && !states[1 - s].off
            && (!state.shaken || self.rules.shaken_policy != ShakenPolicy::Recover)
    }

    /// The dice side `s` rolls in `state`.
    fn dice_of(&self, s: usize, state: SideState) -> u32 {
        if self.sides[s].battery_side() {
            let row = usize::from(state.guns) * (self.sides[s].figures as usize + 1);
            self.dice[s][row + usize::from(state.figures)]
        } else {
            self.dice[s][usize::from(state.figures)]
        }
    }

    /// The exact law of side `s`'s volley from `state` on the enemy.
    fn volley_law(&self, s: usize, state: SideState) -> Vec<(Volley, f64)> {
        let aim = &self.aims[s];
        let hits = Pmf::binomial(self.dice_of(s, state), aim.chances[usize::from(state.shaken)]);
        let mut law = Vec::new();
        for (h, ph) in hits.iter().filter(|&(_, p)| p > 0.0) {
            let h = h as u32;
            if !self.sides[1 - s].battery_side() {
                law.push((Volley { hits: h, figures: h, guns: 0 }, ph));
                continue;
            }
            // 3.4: of h hits, those past the misses take a gunner; of those,
            // the top faces take a gun as well.
            let [miss, gunner, gun] = aim.effects;
            for (g, pg) in Pmf::binomial(h, 1.0 - miss).iter().filter(|&(_, p)| p > 0.0) {
                let with_gun = if gunner + gun > 0.0 { gun / (gunner + gun) } else { 0.0 };
                for (k, pk) in Pmf::binomial(g as u32, with_gun).iter().filter(|&(_, p)| p > 0.0) {
                    let counted = self.counted_hits(h, g as u32);
                    law.push((Volley { hits: counted, figures: g as u32, guns: k as u32 }, ph * pg * pk));
                }
            }
        }
        law
    }

    /// Side `s`'s volley from `state`, drawn from dice: the same law as [`Firefight::volley_law`].
    #[inline]
    fn volley_sample(&self, s: usize, state: SideState, dice: &mut Dice) -> Volley {
        let aim = &self.aims[s];
        let faces = &aim.faces[usize::from(state.shaken)];
        let n = self.dice_of(s, state);
        if !self.sides[1 - s].battery_side() {
            let mut h = 0;
            for _ in 0..n {
                h += u32::from(faces[dice.d10() as usize - 1]);
            }
            return Volley { hits: h, figures: h, guns: 0 };
        }
        let (mut h, mut g, mut k) = (0, 0, 0);
        for _ in 0..n {
            if faces[dice.d10() as usize - 1] {
                h += 1;
                // 3.4: roll again for each hit on the guns.
                let effect = dice.d10();
                if effect > aim.misses {
                    g += 1;
                    k += u32::from(effect > aim.misses + aim.gunners);
                }
            }
        }
        Volley { hits: self.counted_hits(h, g), figures: g, guns: k }
    }

    /// The hits on a battery that count for its morale (`battery_hits`).
    fn counted_hits(&self, dice_hit: u32, gunners: u32) -> u32 {
        match self.rules.battery_hits {
            BatteryHits::Effects => gunners,
            BatteryHits::Dice => dice_hit,
        }
    }

    /// (pass score, morale modifier, rout modifier) of side `s` testing after
    /// `hits` this phase, with `state` already showing them.
    fn test_numbers(&self, s: usize, state: SideState, hits: u32, charisma: i32) -> (i32, i32, i32) {
        let rules = &self.rules;
        let side = self.sides[s];
        let lost = side.figures - u32::from(state.figures);
        let mut modifier = 0;
        if state.shaken {
            modifier += rules.morale_shaken;
        }
        // 5.6: each 2 hits this phase, each 25% total losses.
        modifier += (hits / 2) as i32 * rules.morale_per_two_hits;
        modifier += Rules::quarters_lost(side.figures, lost) * rules.morale_per_quarter_losses;
        if side.cover == Target::Hard {
            // 5.6: hard cover vs. shooting hits.
            modifier += rules.morale_square_or_hard_cover;
        }
        if !side.battery_side() {
            modifier += national_morale_vs_shooting(rules, side);
        }
        let mut rout = rules.rout_grade(side.grade);
        if u32::from(state.figures) * 2 <= side.figures {
            // 5.7.2: at or below half strength.
            rout += rules.rout_half_strength;
        }
        let (morale_general, rout_general) = general_modifiers(rules, side.general, state.general, charisma);
        (rules.morale_pass(side.grade), modifier + morale_general, rout + rout_general)
    }

    /// The losses of `volley` taken: `Err` when they shatter the unit (5.3).
    fn take_losses(&self, s: usize, before: SideState, volley: Volley) -> Result<SideState, SideState> {
        let side = self.sides[s];
        let mut state = before;
        state.figures = (u32::from(state.figures).saturating_sub(volley.figures)) as u8;
        state.guns = (u32::from(state.guns).saturating_sub(volley.guns)) as u8;
        if self.rules.is_shattered(side.figures, side.figures - u32::from(state.figures)) {
            Err(state)
        } else {
            Ok(state)
        }
    }

    /// Where one side goes after taking `volley` this turn: the exact law.
    fn side_outcomes(
        &self,
        s: usize,
        before: SideState,
        fired: bool,
        volley: Volley,
        charisma: i32,
    ) -> Vec<((SideState, Out), f64)> {
        let rules = &self.rules;
        let state = match self.take_losses(s, before, volley) {
            Err(state) => return vec![((state, Out::Shattered), 1.0)],
            Ok(state) => state,
        };
        if volley.hits < rules.morale_test_shooting_hits {
            return vec![((recovered(state, before, fired), Out::In), 1.0)];
        }
        let (pass, modifier, rout_modifier) = self.test_numbers(s, state, volley.hits, charisma);
        let danger = self.danger_chance(state, volley.hits);
        let mut out = Vec::new();
        for (result, p) in test_distribution(rules, pass, modifier, rout_modifier) {
            let (after, end) = self.after_test(s, state, before, fired, result);
            if danger > 0.0 {
                let mut lost = after;
                lost.general = false;
                out.push(((lost, end), p * danger));
                out.push(((after, end), p * (1.0 - danger)));
            } else {
                out.push(((after, end), p));
            }
        }
        out
    }

    /// The same as [`Firefight::side_outcomes`], drawn from dice.
    #[inline]
    fn side_sample(
        &self,
        s: usize,
        before: SideState,
        fired: bool,
        volley: Volley,
        charisma: i32,
        dice: &mut Dice,
    ) -> (SideState, Out) {
        let rules = &self.rules;
        let state = match self.take_losses(s, before, volley) {
            Err(state) => return (state, Out::Shattered),
            Ok(state) => state,
        };
        if volley.hits < rules.morale_test_shooting_hits {
            return (recovered(state, before, fired), Out::In);
        }
        let (pass, modifier, rout_modifier) = self.test_numbers(s, state, volley.hits, charisma);
        let danger = self.danger_chance(state, volley.hits) > 0.0;
        let result = roll_test(rules, dice, pass, modifier, rout_modifier);
        let (mut after, end) = self.after_test(s, state, before, fired, result);
        if danger && dice.d10() <= rules.general_danger_max {
            after.general = false;
        }
        (after, end)
    }

    /// 7.5: the chance an attached general is lost when his unit takes `hits`.
    fn danger_chance(&self, state: SideState, hits: u32) -> f64 {
        if self.rules.optional_danger_to_generals && state.general && hits >= self.rules.general_danger_hits {
            f64::from(self.rules.general_danger_max.min(10)) / 10.0
        } else {
            0.0
        }
    }

    fn after_test(
        &self,
        s: usize,
        state: SideState,
        before: SideState,
        fired: bool,
        result: TestResult,
    ) -> (SideState, Out) {
        let rules = &self.rules;
        let side = self.sides[s];
        match result {
            TestResult::Pass => (recovered(state, before, fired), Out::In),
            TestResult::Rout(RoutRow::Shattered) => (SideState { routed: true, ..state }, Out::Shattered),
            TestResult::Rout(row) => {
                // 5.7.1: rout hits by the size at the time of the test.
                let mut hits = rules.rout_hits(row, u32::from(state.figures));
                let room = state.room - rules.rout_distance(row) as i16;
                // 5.8: a surrounded unit routing past its centre point takes two more.
                let past = room < 0 && (state.room >= 0 || rules.surrounded_hits == SurroundedHits::Beyond);
                if side.surrounded && past {
                    hits += rules.surrounded_extra_rout_hits;
                }
                let figures = u32::from(state.figures).saturating_sub(hits);
                let after = SideState { figures: figures as u8, shaken: true, room, routed: true, ..state };
                let ends = rules.firefight_rout == FirefightRout::Ends;
                if rules.is_shattered(side.figures, side.figures - figures) {
                    (after, Out::Shattered)
                } else if side.surrounded {
                    // 5.8: retreating as far as the enemy beyond the centre point, it surrenders.
                    if room < 0 && i32::from(-room) >= side.ring as i32 {
                        (after, Out::Surrendered)
                    } else if ends {
                        (after, Out::RoutedOff)
                    } else {
                        (after, Out::In)
                    }
                } else if room <= 0 && rules.optional_first_rout_off_table && !state.returned && !ends {
                    // 7.13: the first rout off the table may come back.
                    (SideState { off: true, ..after }, Out::In)
                } else if room <= 0 || ends {
                    (after, Out::RoutedOff)
                } else {
                    (after, Out::In)
                }
            }
        }
    }

    /// 7.13 and 7.4: the chance a unit off the table reappears this turn.
    fn return_chance(&self) -> f64 {
        f64::from(11u32.saturating_sub(self.rules.return_min_score).min(10)) / 10.0
    }

    /// A unit back from off the table: at its edge (no room left), steady (7.4).
    fn returned(state: SideState) -> SideState {
        SideState { off: false, returned: true, shaken: false, room: 0, ..state }
    }

    /// The start of a turn's movement: where units off the table may reappear (7.13).
    fn return_law(&self, states: [SideState; 2]) -> Vec<([SideState; 2], f64)> {
        let mut law = vec![(states, 1.0)];
        let p = self.return_chance();
        for s in 0..2 {
            if states[s].off {
                law = law
                    .into_iter()
                    .flat_map(|(st, q)| {
                        let mut back = st;
                        back[s] = Firefight::returned(st[s]);
                        [(back, q * p), (st, q * (1.0 - p))]
                    })
                    .filter(|&(_, q)| q > 0.0)
                    .collect();
            }
        }
        law
    }

    fn end_code(&self, turn: u32, states: [SideState; 2], outs: [Out; 2]) -> u64 {
        self.end_code_won(None, turn, states, outs)
    }

    /// [`Self::end_code`] with the winner given (under the fight's purpose)
    /// where it is not read from who is left in the field.
    fn end_code_won(&self, winner: Option<u8>, turn: u32, states: [SideState; 2], outs: [Out; 2]) -> u64 {
        // A unit still off the table at the end is not in the field (7.13).
        let gone = |s: usize| outs[s] != Out::In || states[s].off;
        let winner = winner.map(i64::from).unwrap_or(match (gone(0), gone(1)) {
            (false, true) => 0,
            (true, false) => 1,
            _ => 2,
        });
        let guns_lost = |s: usize| i64::from(self.sides[s].guns) - i64::from(states[s].guns);
        self.layout.encode(&[
            winner,
            i64::from(turn),
            percent(u32::from(states[0].figures), self.sides[0].figures),
            percent(u32::from(states[1].figures), self.sides[1].figures),
            i64::from(states[0].routed),
            i64::from(states[1].routed),
            i64::from(outs[0] == Out::Shattered),
            i64::from(outs[1] == Out::Shattered),
            guns_lost(0),
            guns_lost(1),
            i64::from(outs[0] == Out::Surrendered),
            i64::from(outs[1] == Out::Surrendered),
            i64::from(states[0].returned),
            i64::from(states[1].returned),
        ])
    }

    fn charisma_law(&self, s: usize) -> Vec<(i32, f64)> {
        self.rules.general_charisma_law(self.sides[s].general, self.sides[s].charisma)
    }

    fn roll_charisma(&self, s: usize, dice: &mut Dice) -> i32 {
        self.rules.roll_general_charisma(self.sides[s].general, self.sides[s].charisma, dice)
    }

    /// The memo key of side `s`'s law from `states`: its own state and what
    /// of the enemy's shapes the turn (its fire, and whether it is there).
    fn law_key(s: usize, states: [SideState; 2]) -> u64 {
        let enemy = states[1 - s];
        (u64::from(pack(states[s])) << 17)
            | (u64::from(enemy.figures) << 11)
            | (u64::from(enemy.guns) << 5)
            | (u64::from(enemy.shaken) << 2)
            | (u64::from(enemy.off) << 1)
            | s as u64
    }

    /// The exact distribution given both charismas.
    fn exact_given(&self, charisma: [i32; 2]) -> Vec<(u64, f64)> {
        // The kernel's `markov::absorb`, specialised: states packed into one
        // word and hashed by multiplication, and each side's law for a turn
        // memoised by (side, its state, the enemy's strength, shaken and
        // presence), as the default 24 against 24 has tens of thousands of
        // states a turn.
        type Fast<K, V> = HashMap<K, V, BuildHasherDefault<CodeHasher>>;
        let mut memo: Fast<u64, Vec<(u32, Out, f64)>> = Fast::default();
        let mut ended: Fast<u64, f64> = Fast::default();
        let start = pack_pair([self.start_state(0), self.start_state(1)]);
        let mut current: Fast<u64, f64> = Fast::default();
        current.insert(start, 1.0);
        for turn in 1..=self.turns {
            if current.is_empty() {
                break;
            }
            let mut next: Fast<u64, f64> = Fast::with_capacity_and_hasher(current.len(), BuildHasherDefault::default());
            for (&packed, &p0) in &current {
                let states = unpack_pair(packed);
                let (one, returns);
                let branches: &[([SideState; 2], f64)] = if states[0].off || states[1].off {
                    returns = self.return_law(states);
                    &returns
                } else {
                    one = [(states, 1.0)];
                    &one
                };
                for &(states, q) in branches {
                    let p = p0 * q;
                    for (s, &c) in charisma.iter().enumerate() {
                        memo.entry(Firefight::law_key(s, states)).or_insert_with(|| self.side_law(s, states, c));
                    }
                    let law_a = &memo[&Firefight::law_key(0, states)];
                    let law_d = &memo[&Firefight::law_key(1, states)];
                    for &(a, out_a, pa) in law_a {
                        for &(d, out_d, pd) in law_d {
                            let mass = p * pa * pd;
                            if mass < 1e-300 {
                                continue;
                            }
                            if out_a == Out::In && out_d == Out::In {
                                *next.entry((u64::from(a) << 32) | u64::from(d)).or_insert(0.0) += mass;
                            } else {
                                let pair = [unpack(a), unpack(d)];
                                *ended.entry(self.end_code(turn, pair, [out_a, out_d])).or_insert(0.0) += mass;
                            }
                        }
                    }
                }
            }
            current = next;
        }
        for (packed, p) in current {
            *ended.entry(self.end_code(self.turns, unpack_pair(packed), [Out::In, Out::In])).or_insert(0.0) += p;
        }
        ended.into_iter().collect()
    }

    /// Side `s`'s law for one turn from `states`: (packed state, out, probability).
    fn side_law(&self, s: usize, states: [SideState; 2], charisma: i32) -> Vec<(u32, Out, f64)> {
        if states[s].off {
            // 7.13: off the table, it waits for its return roll.
            return vec![(pack(states[s]), Out::In, 1.0)];
        }
        let enemy = 1 - s;
        let fired = self.fires(s, states);
        let volleys = if self.fires(enemy, states) {
            self.volley_law(enemy, states[enemy])
        } else {
            vec![(Volley::default(), 1.0)]
        };
        let mut merged: Vec<(u32, Out, f64)> = Vec::new();
        for (volley, pv) in volleys {
            for ((state, out), p) in self.side_outcomes(s, states[s], fired, volley, charisma) {
                let packed = pack(state);
                match merged.iter_mut().find(|e| e.0 == packed && e.1 == out) {
                    Some(entry) => entry.2 += pv * p,
                    None => merged.push((packed, out, pv * p)),
                }
            }
        }
        merged
    }
}

/// Checks one side's configuration; `key` names its keys.
fn validate(rules: &Rules, me: FireSide, key: &dyn Fn(&str) -> String) -> Result<(), ParamError> {
    if me.two_rank && !rules.optional_two_rank_line {
        return Err(invalid(&key("two_rank"), "needs the optional rule optional_two_rank_line (7.9)"));
    }
    if me.nation != Nation::None && !rules.optional_national_modifiers {
        return Err(invalid(&key("nation"), "needs the optional rule optional_national_modifiers (7.11)"));
    }
    if me.figures > 60 {
        return Err(invalid(&key("figures"), "at most 60 figures"));
    }
    if me.room > 100 || me.ring > 100 {
        return Err(invalid(&key("room"), "room and ring are at most 100 inches"));
    }
    if me.battery_side() {
        if me.guns == 0 || me.guns > 40 {
            return Err(invalid(&key("guns"), "a battery has 1 to 40 actual guns"));
        }
        if me.cover == Target::Skirmish {
            return Err(invalid(&key("cover"), "a battery is never a skirmish target: normal, soft or hard"));
        }
        if me.two_rank {
            return Err(invalid(&key("two_rank"), "a battery has no two-rank line (7.9 is for foot)"));
        }
        if me.nation != Nation::None {
            return Err(invalid(&key("nation"), "national modifiers are for infantry (7.11)"));
        }
    }
    Ok(())
}

/// A side's state in 25 bits: figures (6), guns (6), shaken, room (8, from
/// -128; a state that goes on has at most 100 inches either way), general,
/// routed, off, returned.
fn pack(state: SideState) -> u32 {
    u32::from(state.figures)
        | (u32::from(state.guns) << 6)
        | (u32::from(state.shaken) << 12)
        | ((state.room.clamp(-128, 127) + 128) as u32) << 13
        | (u32::from(state.general) << 21)
        | (u32::from(state.routed) << 22)
        | (u32::from(state.off) << 23)
        | (u32::from(state.returned) << 24)
}

fn unpack(packed: u32) -> SideState {
    SideState {
        figures: (packed & 0x3F) as u8,
        guns: (packed >> 6 & 0x3F) as u8,
        shaken: packed >> 12 & 1 == 1,
        room: ((packed >> 13) & 0xFF) as i16 - 128,
        general: packed >> 21 & 1 == 1,
        routed: packed >> 22 & 1 == 1,
        off: packed >> 23 & 1 == 1,
        returned: packed >> 24 & 1 == 1,
    }
}

fn pack_pair(states: [SideState; 2]) -> u64 {
    (u64::from(pack(states[0])) << 32) | u64::from(pack(states[1]))
}

fn unpack_pair(packed: u64) -> [SideState; 2] {
    [unpack((packed >> 32) as u32), unpack(packed as u32)]
}

/// 2.4: a shaken unit that stood still all turn (did not shoot, did not rout) recovers.
fn recovered(mut state: SideState, before: SideState, fired: bool) -> SideState {
    if before.shaken && !fired {
        state.shaken = false;
    }
    state
}

/// 5.6 and 5.7.2: the morale and rout modifiers of a side's general.
pub fn general_modifiers(rules: &Rules, place: GeneralPlace, still_attached: bool, charisma: i32) -> (i32, i32) {
    match place {
        GeneralPlace::InRadius => (0, 0),
        GeneralPlace::Attached if still_attached => (charisma, charisma),
        // A lost general (7.5) leaves the unit with no general in radius.
        _ => (rules.morale_no_general, rules.rout_no_general),
    }
}

/// 7.11: national musketry modifiers (Britain +1 if steady, Russia -1), grade
/// A-E infantry only.
pub fn national_musketry(rules: &Rules, side: FireSide, shaken: bool) -> i32 {
    if !rules.optional_national_modifiers || side.grade == Grade::F {
        return 0;
    }
    match side.nation {
        Nation::Britain if !shaken && side.cover != Target::Skirmish => 1,
        Nation::Russia if side.weapon == Weapon::Musket => -1,
        _ => 0,
    }
}

/// 7.11: national morale modifiers vs. shooting hits for a unit in line
/// (Austria and later Prussia -1, Britain +1), grade A-E infantry only.
pub fn national_morale_vs_shooting(rules: &Rules, side: FireSide) -> i32 {
    if !rules.optional_national_modifiers || side.grade == Grade::F || side.cover == Target::Skirmish {
        return 0;
    }
    match side.nation {
        Nation::Austria | Nation::PrussiaLate => -1,
        Nation::Britain => 1,
        _ => 0,
    }
}

impl Scenario for Firefight {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let charisma = [self.roll_charisma(0, dice), self.roll_charisma(1, dice)];
        let mut states = [self.start_state(0), self.start_state(1)];
        let return_min = self.rules.return_min_score;
        for turn in 1..=self.turns {
            for state in states.iter_mut() {
                // 7.13, 7.4: a D10 at the start of movement brings it back.
                if state.off && dice.d10() >= return_min {
                    *state = Firefight::returned(*state);
                }
            }
            let fired = [self.fires(0, states), self.fires(1, states)];
            let mut volleys = [Volley::default(); 2];
            for s in 0..2 {
                if fired[s] {
                    volleys[1 - s] = self.volley_sample(s, states[s], dice);
                }
            }
            let mut outs = [Out::In; 2];
            for s in 0..2 {
                if !states[s].off {
                    (states[s], outs[s]) = self.side_sample(s, states[s], fired[s], volleys[s], charisma[s], dice);
                }
            }
            if outs[0] != Out::In || outs[1] != Out::In {
                return self.end_code(turn, states, outs);
            }
        }
        self.end_code(self.turns, states, [Out::In, Out::In])
    }

    fn has_exact(&self) -> bool {
        let size = |side: &FireSide| (side.figures + 1) * if side.battery_side() { side.guns + 1 } else { 1 };
        let limit =
            if self.sides.iter().all(FireSide::battery_side) { EXACT_MAX_BATTERY_SIZES } else { EXACT_MAX_SIZES };
        self.sides.iter().all(|side| side.figures <= EXACT_MAX_FIGURES && side.guns <= EXACT_MAX_GUNS)
            && size(&self.sides[0]) * size(&self.sides[1]) <= limit
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        // The chain grows with both strengths: 24 against 24 takes seconds,
        // 36 against 36 over a minute, two batteries of 6 guns and 12 gunners
        // minutes; beyond the bounds, Monte Carlo only.
        if !self.has_exact() {
            return None;
        }
        let mut total: HashMap<u64, f64> = HashMap::new();
        for (ca, pa) in self.charisma_law(0) {
            for (cd, pd) in self.charisma_law(1) {
                for (code, p) in self.exact_given([ca, cd]) {
                    *total.entry(code).or_insert(0.0) += pa * pd * p;
                }
            }
        }
        Some(total.into_iter().collect())
    }
}

// ---------------------------------------------------------------------------
// The firefight on the decision model.

/// 2.11, 3.1 Each unit's move in a firefight's movement phase.
pub static MOVE_DECISION: Decision = Decision {
    name: "move",
    who: "either side",
    doc: "Infantry not shaken, in the movement phase (2.1, attacker first): hold and fire, close half a move and \
          fire at the moving penalty (3.1, 3.3 -2), close a whole move and not fire, or fall back half a move and \
          fire at the penalty; never closer than 2\" (2.2), never back off its own edge. Batteries never move \
          (3.1: artillery may not move and fire).",
    options: "hold; close half; close full; fall back half",
};

/// 3.2, 3.6 A battery's ammunition where both reach.
pub static AMMUNITION_DECISION: Decision = Decision {
    name: "ammunition",
    who: "either side",
    doc: "A battery whose target is within its canister range, which its ballshot also reaches (3.2): canister, \
          or ballshot (against guns a ballshot hit takes a gun on 10 and misses on 1-7, canister takes a gunner \
          on 5-10, 3.4).",
    options: "canister; ballshot",
};

static FIRE_DECISIONS: &[&Decision] = &[&MOVE_DECISION, &AMMUNITION_DECISION];

/// The move options, in the order ties are broken (the least movement first).
const HOLD: u16 = 0;
const CLOSE_HALF: u16 = 1;
const CLOSE_FULL: u16 = 2;
const FALL_BACK: u16 = 3;

/// A firefight's state between turns: both sides (each side's `room` also
/// gives its place: it has advanced `room - start room` inches), the
/// charismas once rolled, and how each side ended, once it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FireState {
    /// The attacker and the defender.
    pub sides: [SideState; 2],
    /// Each attached general's charisma (1.11), rolled at the first step.
    pub charisma: [i8; 2],
    /// How each side ended (both `In` while the fight goes on).
    pub outs: [Out; 2],
}

/// A draw from an enumerated law: the index of its outcome.
struct Table(Vec<f64>);

impl Table {
    fn new(probabilities: impl Iterator<Item = f64>) -> (Table, Vec<(u32, f64)>) {
        let probabilities: Vec<f64> = probabilities.collect();
        let outcomes = probabilities.iter().enumerate().map(|(i, &p)| (i as u32, p)).collect();
        (Table(probabilities), outcomes)
    }
}

/// A [`Table`] with its outcomes, as a [`Law`].
struct TableLaw(Table, Vec<(u32, f64)>);

impl Law for TableLaw {
    fn sample(&self, dice: &mut Dice) -> u32 {
        let u = dice.below(1 << 53) as f64 / (1u64 << 53) as f64;
        let mut acc = 0.0;
        for (i, &p) in self.0.0.iter().enumerate() {
            acc += p;
            if u < acc {
                return i as u32;
            }
        }
        (self.0.0.len() - 1) as u32
    }

    fn outcomes(&self) -> &[(u32, f64)] {
        &self.1
    }
}

fn draw<F: Fate>(fate: &mut F, probabilities: impl Iterator<Item = f64>) -> usize {
    let (table, outcomes) = Table::new(probabilities);
    if outcomes.len() == 1 {
        return 0;
    }
    fate.draw(&TableLaw(table, outcomes)) as usize
}

/// The firefight played on the kernel's decision model: the units keep
/// their places between turns (a rout opens the gap, and only a unit's own
/// moves close it), each side decides how to move, and a battery which
/// ammunition to fire.
#[derive(Clone, Debug)]
pub struct FireGame {
    /// What each side must achieve (the scenario's `purpose` key).
    purpose: game::Purpose,
    /// The firefight at its start distance, for the laws that do not depend on distance.
    base: Firefight,
    /// The start distance (inches).
    distance: u32,
    /// Beyond this distance nobody reaches: distances are clamped to it.
    beyond: u32,
    /// The firefight at each distance up to `beyond`, by [moving][ball].
    at: Vec<[[Firefight; 2]; 2]>,
}

impl FireGame {
    /// The firefight of `Firefight::new`'s arguments, played with decisions.
    pub fn new(
        rules: &Rules,
        attacker: FireSide,
        defender: FireSide,
        distance: u32,
        turns: u32,
    ) -> Result<FireGame, ParamError> {
        let base = Firefight::new(rules, attacker, defender, distance, turns)?;
        let reach = |side: &FireSide| {
            let bands = if side.battery_side() {
                [RangeBand::Canister, RangeBand::Ballshot]
            } else {
                [RangeBand::Close, RangeBand::Far]
            };
            bands.iter().filter_map(|&b| rules.band_range(side.weapon, b)).max().unwrap_or(0)
        };
        let beyond = reach(&attacker).max(reach(&defender)) + 1;
        let mut at = Vec::new();
        for d in 0..=beyond {
            let build = |moving: bool, ball: bool| {
                let mut sides = [attacker, defender];
                if moving {
                    // 3.3: the firer moved (half a move, 3.1).
                    for side in &mut sides {
                        side.modifier += rules.fire_moving;
                    }
                }
                Firefight::build(rules, sides[0], sides[1], d.max(1), turns, ball)
            };
            at.push([[build(false, false)?, build(false, true)?], [build(true, false)?, build(true, true)?]]);
        }
        Ok(FireGame { purpose: game::Purpose::Manoeuvre, base, distance, beyond, at })
    }

    /// From the catalogue's settings.
    pub fn from_settings(rules: &Rules, settings: &Settings) -> Result<FireGame, ParamError> {
        FireGame::new(
            rules,
            FireSide::from_settings(settings, "attacker"),
            FireSide::from_settings(settings, "defender"),
            settings.int("distance") as u32,
            settings.int("turns") as u32,
        )
    }

    /// Inches side `s` has advanced from its start (negative: fallen back).
    fn advanced(&self, s: usize, state: &SideState) -> i32 {
        i32::from(state.room) - self.base.sides[s].room as i32
    }

    /// The distance between the units.
    pub fn gap(&self, sides: &[SideState; 2]) -> i32 {
        self.distance as i32 - self.advanced(0, &sides[0]) - self.advanced(1, &sides[1])
    }

    fn rules(&self) -> &Rules {
        &self.base.rules
    }

    /// The half and the whole move of side `s` (2.11, infantry in line).
    fn moves(&self, s: usize) -> (i32, i32) {
        let rules = self.rules();
        let full = if self.base.sides[s].figures > rules.line_max_width {
            rules.move_infantry_extended_line
        } else {
            rules.move_infantry_line
        } as i32;
        (full / 2, full)
    }

    /// Side `s`'s legal moves with `sides` as they stand.
    fn move_options(&self, s: usize, sides: &[SideState; 2]) -> Vec<u16> {
        let me = sides[s];
        if self.base.sides[s].battery_side() || me.off || sides[1 - s].off || me.shaken {
            // 3.1 guns do not move and fire; 7.13 nobody moves for an absent
            // enemy; 2.4 a shaken unit stands to recover (or, firing, stays put).
            return vec![HOLD];
        }
        let (half, full) = self.moves(s);
        let gap = self.gap(sides);
        let nearest = (self.rules().no_closer_than as i32).min(gap);
        let mut options = vec![HOLD];
        if half > 0 && gap - half >= nearest {
            options.push(CLOSE_HALF);
        }
        if full > half && gap - full >= nearest {
            options.push(CLOSE_FULL);
        }
        if half > 0 && i32::from(me.room) - half > 0 && !self.base.sides[s].surrounded {
            options.push(FALL_BACK);
        }
        options
    }

    /// The inches an option moves side `s` forward.
    fn delta(&self, s: usize, option: u16) -> i32 {
        let (half, full) = self.moves(s);
        match option {
            CLOSE_HALF => half,
            CLOSE_FULL => full,
            FALL_BACK => -half,
            _ => 0,
        }
    }

    /// The firefight at the units' distance, moving or not, ball or not.
    fn at(&self, gap: i32, moving: bool, ball: bool) -> &Firefight {
        let d = (gap.max(0) as u32).min(self.beyond) as usize;
        &self.at[d][usize::from(moving)][usize::from(ball)]
    }

    fn bold_move(&self, s: usize, sides: &[SideState; 2], options: &[u16]) -> u16 {
        // Bold closes back to the start distance, as the old fixed reading
        // had it: a whole move while it cannot shoot, half a move (firing)
        // while the gap is wider than at the start.
        let gap = self.gap(sides);
        let reaches = self.at(gap, false, false).in_range[s];
        let (half, _) = self.moves(s);
        if !reaches && options.contains(&CLOSE_FULL) {
            CLOSE_FULL
        } else if (gap - half >= self.distance as i32 || !reaches) && options.contains(&CLOSE_HALF) {
            CLOSE_HALF
        } else {
            HOLD
        }
    }
}

impl FireGame {
    /// This fight under `purpose`: what each side must achieve by the turn
    /// limit ([`crate::game::Purpose`]).
    pub fn with_purpose(mut self, purpose: game::Purpose) -> Self {
        self.purpose = purpose;
        self
    }
}

impl Game for FireGame {
    type State = FireState;

    fn purpose(&self) -> game::Purpose {
        self.purpose
    }

    fn layout(&self) -> &Layout {
        &self.base.layout
    }

    fn start(&self) -> FireState {
        FireState {
            sides: [self.base.start_state(0), self.base.start_state(1)],
            charisma: [UNROLLED; 2],
            outs: [Out::In; 2],
        }
    }

    fn steps(&self) -> u32 {
        self.base.turns
    }

    fn step<F: Fate>(&self, state: &mut FireState, fate: &mut F) -> Option<End> {
        let rules = self.rules();
        if state.charisma[0] == UNROLLED {
            // 1.11: an attached general's charisma, rolled once at the start.
            for s in 0..2 {
                let law = self.base.charisma_law(s);
                let i = draw(fate, law.iter().map(|&(_, p)| p));
                state.charisma[s] = law[i].0 as i8;
            }
        }
        // 7.13, 7.4: a D10 at the start of movement brings a unit back.
        let tenths = 11u32.saturating_sub(rules.return_min_score).min(10);
        for s in 0..2 {
            if state.sides[s].off && fate.d10_at_most(tenths) {
                state.sides[s] = Firefight::returned(state.sides[s]);
            }
        }
        // 2.1 movement, the attacker first; 2.11, 3.1 how far each moves.
        let mut moved = [HOLD; 2];
        for (s, moved) in moved.iter_mut().enumerate() {
            let options = self.move_options(s, &state.sides);
            let sides = state.sides;
            let bold = self.bold_move(s, &sides, &options);
            let choice = fate.decide(s as u8, &MOVE_DECISION, &options, &|policy| match policy {
                Policy::Bold => bold,
                _ => HOLD,
            });
            *moved = choice;
            state.sides[s].room += self.delta(s, choice) as i16;
        }
        let gap = self.gap(&state.sides);
        // 3.2 a battery within canister range picks its ammunition.
        let mut ball = [false; 2];
        for (s, ball) in ball.iter_mut().enumerate() {
            let canister = self.at(gap, false, false);
            let balled = self.at(gap, false, true);
            if self.base.sides[s].battery_side()
                && canister.fires(s, state.sides)
                && balled.in_range[s]
                && !canister.aims[s].lands_as(&balled.aims[s])
            {
                let choice = fate
                    .decide(s as u8, &AMMUNITION_DECISION, &[0, 1], &|policy| u16::from(policy == Policy::Cautious));
                *ball = choice == 1;
            }
        }
        // 3.1 a whole move leaves no time to fire; half a move fires at the penalty.
        let fired: [bool; 2] = std::array::from_fn(|s| {
            moved[s] != CLOSE_FULL && self.at(gap, moved[s] != HOLD, ball[s]).fires(s, state.sides)
        });
        let mut volleys = [Volley::default(); 2];
        for s in 0..2 {
            if fired[s] {
                let law = self.at(gap, moved[s] != HOLD, ball[s]).volley_law(s, state.sides[s]);
                let i = draw(fate, law.iter().map(|v| v.1));
                volleys[1 - s] = law[i].0;
            }
        }
        let mut outs = [Out::In; 2];
        for s in 0..2 {
            if !state.sides[s].off {
                let law =
                    self.base.side_outcomes(s, state.sides[s], fired[s], volleys[s], i32::from(state.charisma[s]));
                let i = draw(fate, law.iter().map(|o| o.1));
                (state.sides[s], outs[s]) = law[i].0;
            }
        }
        if outs == [Out::In; 2] {
            return None;
        }
        state.outs = outs;
        Some(match (outs[0] != Out::In, outs[1] != Out::In) {
            (false, true) => End::Attacker,
            (true, false) => End::Defender,
            _ => End::BothBroke,
        })
    }

    fn code(&self, winner: u8, steps: u32, state: &FireState) -> u64 {
        self.base.end_code_won(Some(winner), steps.max(1), state.sides, state.outs)
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        FIRE_DECISIONS
    }

    fn fallback(&self) -> Policy {
        Policy::Bold
    }

    fn solvable(&self, _plan: game::Plan) -> bool {
        let size = |side: &FireSide| (side.figures + 1) * if side.battery_side() { side.guns + 1 } else { 1 };
        size(&self.base.sides[0]) * size(&self.base.sides[1]) <= GAME_MAX_SIZES
    }

    fn describe_state(&self, state: &FireState, side: u8) -> String {
        let s = usize::from(side);
        format!(
            "{} figures{} {}\" from {} figures{}",
            state.sides[s].figures,
            if state.sides[s].shaken { " (shaken)" } else { "" },
            self.gap(&state.sides),
            state.sides[1 - s].figures,
            if state.sides[1 - s].shaken { " (shaken)" } else { "" },
        )
    }

    fn describe_option(&self, decision: &'static Decision, option: u16) -> String {
        if decision.name == "ammunition" {
            return if option == 0 { "canister" } else { "ballshot" }.to_string();
        }
        ["hold", "close half a move", "close a whole move", "fall back half a move"][usize::from(option.min(3))]
            .to_string()
    }

    /// The numbers of weapons, grades, covers, generals and rules this
    /// firefight has not: the ranges and scores to hit of weapons no one
    /// fires and of covers no one presents; a battery's dice and the hits
    /// on it without a battery; the two-rank line's dice without one; the
    /// morale and rout numbers of grades neither side has; charisma,
    /// danger and lost generals without an attached general; 5.8 without
    /// a surrounded side; the fire of a shaken unit that holds it to
    /// recover (2.4); and everything of combat, cavalry, charges,
    /// pursuit, pass-through and carry-through fire, which a firefight
    /// never comes to.
    fn reads_rule(&self, field: &str) -> bool {
        let rules = self.rules();
        let sides = &self.base.sides;
        let any = |test: &dyn Fn(&FireSide) -> bool| sides.iter().any(test);
        let infantry = any(&|side| !side.battery_side());
        let battery = any(&|side| side.battery_side());
        let grades = [sides[0].grade, sides[1].grade];
        // A grade's own morale or rout number, by its name after the prefix.
        let graded = |prefix: &str| field.strip_prefix(prefix).and_then(Grade::from_name).map(|g| grades.contains(&g));
        // 3.1: infantry rolls a die per four, a two-rank line in close order a die per three (7.9).
        let two_rank = |side: &FireSide| side.two_rank && side.cover != Target::Skirmish;
        let attached = any(&|side| side.general == GeneralPlace::Attached);
        // 7.5: an attached general lost leaves his unit without a general.
        let danger = attached && rules.optional_danger_to_generals;
        // 3.2: every range and score to hit, and those of the weapons fired at the covers presented.
        let table = |weapon: Weapon, cover: Target| fire_table_fields(weapon, cover).iter().any(|f| f == field);
        if Weapon::ALL.iter().any(|&weapon| Target::ALL.iter().any(|&cover| table(weapon, cover))) {
            return (0..2).any(|s| table(sides[s].weapon, sides[1 - s].cover));
        }
        match field {
            // 1.4, 3.1 a battery's dice; 3.4 hits on a battery, ballshot's
            // effects only from a battery's ballshot; no gun is limbered.
            "guns_per_model"
            | "crew_for_two_dice"
            | "crew_for_one_die"
            | "battery_crew"
            | "battery_gun_loss"
            | "battery_hits"
            | "counterbattery_miss_max" => battery,
            "counterbattery_ballshot_miss_max" | "counterbattery_gun_min" => sides.iter().all(FireSide::battery_side),
            "counterbattery_limbered" => false,
            // 3.1, 7.9 infantry's dice.
            "fire_figures_per_die" | "fire_remainder_rounds_up" => any(&|side| !side.battery_side() && !two_rank(side)),
            "two_rank_figures_per_die" | "two_rank_remainder_rounds_up" => {
                any(&|side| !side.battery_side() && two_rank(side))
            }
            "optional_two_rank_line" => any(&|side| side.two_rank),
            // 3.3: a shaken unit that recovers holds its fire, though a
            // battery's ammunition decision compares its shaken aims too;
            // only infantry moves; nothing is dense, evading or in square.
            "fire_grade_a_b" => grades.iter().any(|g| matches!(g, Grade::A | Grade::B)),
            "fire_grade_e_f" => grades.iter().any(|g| matches!(g, Grade::E | Grade::F)),
            "fire_disordered_or_skirmishing" => any(&|side| side.cover == Target::Skirmish),
            "fire_shaken" => rules.shaken_policy != ShakenPolicy::Recover || battery,
            "fire_moving" => infantry,
            "fire_ball_vs_dense" | "fire_evading" | "fire_in_square" => false,
            // 7.11
            "optional_national_modifiers" => any(&|side| side.nation != Nation::None),
            // 5.6 against shooting; the charge and combat modifiers never apply.
            "morale_square_or_hard_cover" => any(&|side| side.cover == Target::Hard),
            "morale_no_general" | "rout_no_general" => any(&|side| side.general == GeneralPlace::OutOfRadius) || danger,
            "morale_foot_charging_home"
            | "morale_meeting_infantry_charge"
            | "morale_cavalry_vs_square"
            | "morale_meeting_cavalry_charge"
            | "morale_flanked"
            | "morale_losing_combat" => false,
            // 5.7.1: the large column needs a unit that large (at its start, the most it has).
            "rout_hits_large_18" | "rout_hits_large_12" | "rout_hits_large_8" | "rout_hits_large_6"
            | "rout_hits_large_4" => any(&|side| side.figures >= rules.rout_large_unit_min),
            // 5.8
            "surrounded_extra_rout_hits" | "surrounded_hits" => any(&|side| side.surrounded),
            // 7.13 (a surrounded unit routs on past its centre point instead;
            // the switch also decides whether the dense table applies).
            "optional_first_rout_off_table" => any(&|side| !side.surrounded),
            "return_min_score" => {
                rules.optional_first_rout_off_table
                    && rules.firefight_rout == FirefightRout::Reengage
                    && any(&|side| !side.surrounded)
            }
            // 1.11, 7.5 an attached general; the command radius is a key.
            "charisma_zero_max" | "charisma_one_max" => {
                any(&|side| side.general == GeneralPlace::Attached && side.charisma == Charisma::Rolled)
            }
            "optional_danger_to_generals" => attached,
            "general_danger_hits" | "general_danger_max" => danger,
            "command_radius" | "command_radius_attached" => false,
            // 2.2, 2.11 infantry moves in line or extended line; batteries never move.
            "line_max_width" | "no_closer_than" => infantry,
            "move_infantry_line" => any(&|side| !side.battery_side() && side.figures <= rules.line_max_width),
            "move_infantry_extended_line" => any(&|side| !side.battery_side() && side.figures > rules.line_max_width),
            // 1.8, 2.x columns, cavalry, evading, charges, squares, pinning;
            // 4 combat; 6.4.4 town blocks; 7.1 pass-through fire and the
            // cavalry bounce, 7.4 pursuit, 7.8 carry-through: a firefight
            // between two units standing in line has none of them.
            "move_infantry_column"
            | "move_heavy_cavalry"
            | "move_light_cavalry"
            | "move_heavy_cavalry_charge"
            | "move_light_cavalry_charge"
            | "evade_infantry_within"
            | "evade_cavalry_within"
            | "evade_fire"
            | "plowed_disorder_min"
            | "square_initiative"
            | "charge_move_steady"
            | "cavalry_stationary_advance"
            | "column_width"
            | "square_faces"
            | "square_face"
            | "square_charged_test"
            | "charged_cavalry"
            | "defensive_fire_band"
            | "multi_loser"
            | "split_odd_die"
            | "converging_hits"
            | "fresh_against"
            | "block_fire_divisor"
            | "block_attack_side_percent"
            | "optional_pinning"
            | "pinning_distance"
            | "formation_change_fire"
            | "optional_pass_through_fire"
            | "pass_through_percent"
            | "pass_through_measure"
            | "stationary_fire_targets"
            | "optional_cavalry_bounce"
            | "bounce_recoil"
            | "bounce_follow_up"
            | "optional_pursuit"
            | "pursuit_max_score"
            | "pursuit_grade_e_f"
            | "pursuit_hit_multiplier"
            | "pursuit_rout_hits"
            | "pursuer_loses"
            | "pursuit_cost"
            | "optional_carry_through"
            | "carry_through_small_arms_and_canister"
            | "carry_through_light_ballshot"
            | "carry_through_field_ballshot"
            | "carry_through_heavy_ballshot"
            | "carry_through_natural_ones"
            | "carry_through_nil" => false,
            _ if field.starts_with("combat_") => false,
            // 5.5, 5.7.2 grades; everything else (natural results, morale
            // tests, rout table, shattering) is read.
            _ => graded("morale_pass_").or_else(|| graded("rout_grade_")).unwrap_or(true),
        }
    }
}

/// The 3.2 numbers (ranges and scores to hit) that `weapon` reads firing at
/// a target presenting `cover`: small arms' close and far bands, a gun's
/// canister and ballshot (its own ballshot score against hard cover).
fn fire_table_fields(weapon: Weapon, cover: Target) -> Vec<String> {
    let cover = cover.name();
    match weapon.name().strip_suffix("_gun") {
        None => ["close", "far"]
            .iter()
            .flat_map(|band| [format!("{}_{band}_range", weapon.name()), format!("{}_{band}_{cover}", weapon.name())])
            .collect(),
        Some(gun) => vec![
            format!("{gun}_canister_range"),
            format!("{gun}_ballshot_range"),
            format!("canister_{cover}"),
            if cover == "hard" { format!("{gun}_ballshot_hard") } else { format!("ballshot_{cover}") },
        ],
    }
}

impl FireGame {
    /// The live states at the end of each turn (every chance branch and
    /// every move option kept; 7.13 returns and ammunition left out), for
    /// sizing the solver.
    pub fn live_states_per_turn(&self, turns: u32) -> Vec<usize> {
        use std::collections::HashSet;
        let start = [self.base.start_state(0), self.base.start_state(1)];
        let mut layer: HashSet<[SideState; 2]> = HashSet::from([start]);
        let mut counts = Vec::new();
        for _ in 0..turns {
            let mut next = HashSet::new();
            for sides in &layer {
                for a in self.move_options(0, sides) {
                    let mut after_a = *sides;
                    after_a[0].room += self.delta(0, a) as i16;
                    for d in self.move_options(1, &after_a) {
                        let mut moved = after_a;
                        moved[1].room += self.delta(1, d) as i16;
                        let gap = self.gap(&moved);
                        let options = [a, d];
                        let fired: [bool; 2] = std::array::from_fn(|s| {
                            options[s] != CLOSE_FULL && self.at(gap, options[s] != HOLD, false).fires(s, moved)
                        });
                        let volleys = |s: usize| -> Vec<Volley> {
                            if fired[1 - s] {
                                let at = self.at(gap, options[1 - s] != HOLD, false);
                                at.volley_law(1 - s, moved[1 - s]).into_iter().map(|v| v.0).collect()
                            } else {
                                vec![Volley::default()]
                            }
                        };
                        let ends = |s: usize| -> Vec<SideState> {
                            let mut out = Vec::new();
                            for v in volleys(s) {
                                for ((st, o), _) in self.base.side_outcomes(s, moved[s], fired[s], v, 0) {
                                    if o == Out::In && !out.contains(&st) {
                                        out.push(st);
                                    }
                                }
                            }
                            out
                        };
                        let (ea, ed) = (ends(0), ends(1));
                        for x in &ea {
                            for y in &ed {
                                next.insert([*x, *y]);
                            }
                        }
                    }
                }
            }
            counts.push(next.len());
            layer = next;
        }
        counts
    }
}

// ---------------------------------------------------------------------------
// Best play of two infantry units on a dense table (issue 13, issue 15).

/// The largest dense table [`DenseSolver`] builds: states (both sides' core
/// states and places) at most this, and states times turns at most
/// [`DENSE_MAX_STATE_TURNS`]. 24 against 24 from 4" with 24" of room each
/// is 746,496 states (864 a side: 18 strengths short of shattered, shaken
/// or not, at 24 places), 22.4 M over 30 turns; at 2 M states the table
/// takes at most about 700 MB.
pub const DENSE_MAX_STATES: usize = 2_000_000;

/// The same bound on states times turns (the table of choices keeps two
/// bytes a state a turn).
pub const DENSE_MAX_STATE_TURNS: usize = 60_000_000;

/// A room no rout in a law built for the table reaches past: the table
/// applies the real room afterwards.
const FAR_ROOM: i16 = 10_000;

/// One way a side's turn ends, given its core state, whether it fired and
/// the fire it took: its next core state (if it stays), how far it routed
/// back, and whether that was a rout (the `routed` metric).
#[derive(Clone, Copy, Debug)]
struct Turned {
    /// The next core's index, or `u32::MAX` when the side is out.
    core: u32,
    /// Figures left (for the outcome code).
    figures: u8,
    /// Room steps routed back this turn (0 when it held).
    back: i16,
    /// Shattered, routed off by `FirefightRout::Ends`, or in.
    out: Out,
    /// It failed a test this turn.
    routs: bool,
    p: f64,
}

/// One side of the dense table: its core states (figures, shaken, general;
/// no place, never `off`) and the places it may stand.
struct DenseSide {
    cores: Vec<SideState>,
    index: HashMap<(u8, bool, bool), u32>,
    /// Its starting room, and the lowest and number of room steps.
    room0: i32,
    low: i32,
    rooms: usize,
    /// `fires[(core * (beyond + 1) + gap) * 2 + moving]`.
    fires: Vec<bool>,
    /// The id of its volley's law on the enemy (0: no fire), same index.
    volley: Vec<u32>,
    /// Its laws, `(core * 2 + fired) * incoming + volley id of the enemy`: runs of [`DenseSolver::turned`].
    laws: Vec<(u32, u32)>,
}

/// The exact solver of [`FireGame`] between two infantry units (no
/// batteries, no 7.13 returns, not surrounded, charismas known): values
/// and choices on a dense table of every state a turn, each state's next
/// states found by index rather than by enumerating its step. It is the
/// generic solver's backward induction, specialised: the law of a turn
/// after both moves is the product of the two sides' laws (each side's
/// losses, test and rout depend on its own state, whether it fired and
/// the fire it took), so each side's law is tabulated once by (core state,
/// fired, incoming fire) and the product is summed directly against the
/// next turn's values. A test (`dense_solver_matches_the_generic_solver`)
/// checks it against the generic solver.
pub struct DenseSolver {
    game: FireGame,
    plan: game::Plan,
    sides: [DenseSide; 2],
    turned: Vec<Turned>,
    /// The room step (inches): every move and rout is a multiple of it.
    step: i32,
    /// The closest the units may come (the start distance if closer).
    nearest: i32,
    /// `choices[t][state]`: the attacker's option in bits 0-1, the
    /// defender's answer to attacker option `a` in bits `2 + 2a`.
    choices: Vec<Vec<u16>>,
    /// The number of laws of the fire side `s` may take (the enemy's volleys, no fire first).
    incoming: [usize; 2],
    /// Side `s`'s move options and its bold pick, by `(shaken * rooms of the
    /// attacker + attacker's room) * rooms of the defender + defender's room`.
    options: [Vec<Options>; 2],
    /// At each place ([`DenseSolver::place`]): the attacker's options under
    /// the plan, each with the defender's answers under the plan and the
    /// offset, from a state's first worth after moves, of the worth after
    /// the pair.
    pairs: Vec<Vec<Pair>>,
    /// Side `s`'s next core when neither side fires, where its law then
    /// holds no chance (one outcome, staying, probability 1), by core.
    calm: [Vec<Option<u32>>; 2],
}

/// An attacker's option, with the defender's answers and the offset of the worth after each.
type Pair = (u16, Vec<(u16, isize)>);

/// A side's move options where it stands (at most four), and its bold pick.
#[derive(Clone, Copy, Debug, Default)]
struct Options {
    list: [u16; 4],
    len: u8,
    bold: u16,
}

impl Options {
    fn list(&self) -> &[u16] {
        &self.list[..usize::from(self.len)]
    }

    /// The option a side playing `policy` other than best picks, or the only one.
    fn settled(&self, policy: Policy) -> Option<u16> {
        if self.len == 1 {
            Some(self.list[0])
        } else if policy == Policy::Best {
            None
        } else if policy == Policy::Bold {
            Some(self.bold)
        } else {
            Some(HOLD)
        }
    }
}

/// What side `side` maximises under `objective`, as the generic solver scores it.
fn objective_of(worth: [f64; 2], side: usize, objective: game::Objective) -> f64 {
    match objective {
        game::Objective::Margin => worth[side] - worth[1 - side],
        game::Objective::Win => worth[side],
    }
}

fn gcd(a: i32, b: i32) -> i32 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

/// The movement class of an option: 0 held, 1 moved half (fires at the
/// penalty), 2 moved a whole move (no fire).
fn moved_class(option: u16) -> usize {
    match option {
        HOLD => 0,
        CLOSE_FULL => 2,
        _ => 1,
    }
}

impl DenseSolver {
    /// Whether the dense table applies to `game` at all.
    pub fn applies(game: &FireGame) -> bool {
        let rules = game.rules();
        (0..2).all(|s| {
            let side = &game.base.sides[s];
            !side.battery_side() && !side.surrounded && game.base.charisma_law(s).len() == 1
        }) && !rules.optional_first_rout_off_table
    }

    /// The table's size: states, and states times turns.
    fn size(game: &FireGame) -> (usize, usize) {
        let (step, nearest) = Self::geometry(game);
        let mut states = 1usize;
        for s in 0..2 {
            let side = &game.base.sides[s];
            let generals = if side.general == GeneralPlace::Attached { 2 } else { 1 };
            // As `build` lists its cores: every strength short of shattered, shaken or not.
            let strengths =
                (1..=side.figures).filter(|&f| !game.rules().is_shattered(side.figures, side.figures - f)).count();
            let (low, high) = Self::room_range(game, s, step, nearest);
            states *= strengths * 2 * generals * (high - low + 1).max(0) as usize;
        }
        (states, states * game.base.turns as usize)
    }

    /// Whether the dense table applies and fits.
    pub fn fits(game: &FireGame) -> bool {
        let (states, state_turns) = Self::size(game);
        Self::applies(game) && states <= DENSE_MAX_STATES && state_turns <= DENSE_MAX_STATE_TURNS
    }

    fn geometry(game: &FireGame) -> (i32, i32) {
        let rules = game.rules();
        let mut step = 0;
        for s in 0..2 {
            let (half, full) = game.moves(s);
            step = gcd(gcd(step, half), full);
        }
        for row in [RoutRow::Rout18, RoutRow::Rout12, RoutRow::Rout8, RoutRow::Rout6, RoutRow::Rout4] {
            step = gcd(step, rules.rout_distance(row) as i32);
        }
        let nearest = (rules.no_closer_than as i32).min(game.distance as i32);
        (step.max(1), nearest)
    }

    /// Side `s`'s room steps: from room 1 (or more) to the most it can
    /// advance, the other side standing at room 1 and the gap at its least.
    fn room_range(game: &FireGame, s: usize, step: i32, nearest: i32) -> (i32, i32) {
        let room0 = game.base.sides[s].room as i32;
        let other = game.base.sides[1 - s].room as i32;
        let top = room0 + game.distance as i32 - nearest + other - 1;
        ((1 - room0).div_euclid(step) + i32::from((1 - room0).rem_euclid(step) != 0), (top - room0).div_euclid(step))
    }

    /// Solves `game` under `plan`; `None` where the table does not apply or fit.
    pub fn solve(game: &FireGame, plan: game::Plan) -> Option<DenseSolver> {
        if !Self::fits(game) {
            return None;
        }
        let mut solver = Self::build(game, plan);
        solver.backward();
        Some(solver)
    }

    fn build(game: &FireGame, plan: game::Plan) -> DenseSolver {
        let (step, nearest) = Self::geometry(game);
        let rules = game.rules();
        let gaps = game.beyond as usize + 1;
        let mut sides: Vec<DenseSide> = (0..2)
            .map(|s| {
                let side = &game.base.sides[s];
                let start = game.base.start_state(s);
                let mut cores = Vec::new();
                // 7.5: an attached general may be lost; a unit without one never gains one.
                let generals: &[bool] = if start.general { &[true, false] } else { &[false] };
                for &general in generals {
                    for figures in (1..=side.figures).rev() {
                        if rules.is_shattered(side.figures, side.figures - figures) {
                            continue;
                        }
                        for shaken in [false, true] {
                            cores.push(SideState { figures: figures as u8, shaken, general, room: 0, ..start });
                        }
                    }
                }
                let index =
                    cores.iter().enumerate().map(|(i, c)| ((c.figures, c.shaken, c.general), i as u32)).collect();
                let (low, high) = Self::room_range(game, s, step, nearest);
                DenseSide {
                    cores,
                    index,
                    room0: side.room as i32,
                    low,
                    rooms: (high - low + 1).max(0) as usize,
                    fires: Vec::new(),
                    volley: Vec::new(),
                    laws: Vec::new(),
                }
            })
            .collect();
        // Each side's volleys, deduplicated: id 0 is no fire.
        let mut volleys: [Vec<Vec<(Volley, f64)>>; 2] =
            [vec![vec![(Volley::default(), 1.0)]], vec![vec![(Volley::default(), 1.0)]]];
        for s in 0..2 {
            let count = sides[s].cores.len() * gaps * 2;
            let mut fires = vec![false; count];
            let mut ids = vec![0u32; count];
            for (c, core) in sides[s].cores.iter().enumerate() {
                for gap in 0..gaps {
                    for moving in [false, true] {
                        let at = game.at(gap as i32, moving, false);
                        let mut pair = [*core; 2];
                        pair[1 - s] = game.base.start_state(1 - s);
                        let i = (c * gaps + gap) * 2 + usize::from(moving);
                        fires[i] = at.fires(s, pair);
                        if fires[i] {
                            let law = at.volley_law(s, *core);
                            ids[i] = match volleys[s].iter().position(|l| *l == law) {
                                Some(id) => id as u32,
                                None => {
                                    volleys[s].push(law);
                                    (volleys[s].len() - 1) as u32
                                }
                            };
                        }
                    }
                }
            }
            sides[s].fires = fires;
            sides[s].volley = ids;
        }
        // Each side's laws by (core, fired, the enemy's volley).
        let mut turned = Vec::new();
        for s in 0..2 {
            let incoming = &volleys[1 - s];
            // 1.11: the general's charisma, known (`applies`).
            let charisma = game.base.charisma_law(s)[0].0;
            let mut laws = Vec::new();
            for core in &sides[s].cores {
                for fired in [false, true] {
                    for law in incoming {
                        let first = turned.len();
                        let before = SideState { room: FAR_ROOM, ..*core };
                        for &(volley, pv) in law {
                            for ((after, out), p) in game.base.side_outcomes(s, before, fired, volley, charisma) {
                                let back = (FAR_ROOM - after.room) / step as i16;
                                let index = if out == Out::In {
                                    sides[s].index[&(after.figures, after.shaken, after.general)]
                                } else {
                                    u32::MAX
                                };
                                let entry = Turned {
                                    core: index,
                                    figures: after.figures,
                                    back,
                                    out,
                                    routs: after.routed,
                                    p: pv * p,
                                };
                                match turned[first..].iter_mut().find(|t: &&mut Turned| {
                                    t.core == entry.core
                                        && t.figures == entry.figures
                                        && t.back == entry.back
                                        && t.out == entry.out
                                        && t.routs == entry.routs
                                }) {
                                    Some(t) => t.p += entry.p,
                                    None => turned.push(entry),
                                }
                            }
                        }
                        let mut law = (first as u32, (turned.len() - first) as u32);
                        // A unit not shaken takes the same law whether it
                        // fired or not (only a shaken unit's recovery, 2.4,
                        // asks): it is kept once, so that `worth`'s cache
                        // of the defender's law serves both.
                        if fired {
                            let (held, count) = laws[laws.len() - incoming.len()];
                            let same = |x: &Turned, y: &Turned| {
                                (x.core, x.figures, x.back, x.out, x.routs, x.p.to_bits())
                                    == (y.core, y.figures, y.back, y.out, y.routs, y.p.to_bits())
                            };
                            if count == law.1
                                && turned[held as usize..(held + count) as usize]
                                    .iter()
                                    .zip(&turned[first..])
                                    .all(|(x, y)| same(x, y))
                            {
                                turned.truncate(first);
                                law = (held, count);
                            }
                        }
                        laws.push(law);
                    }
                }
            }
            sides[s].laws = laws;
        }
        let [a, d] = <[DenseSide; 2]>::try_from(sides).ok().expect("two sides");
        let mut solver = DenseSolver {
            game: game.clone(),
            plan,
            sides: [a, d],
            turned,
            step,
            nearest,
            choices: Vec::new(),
            incoming: [volleys[1].len(), volleys[0].len()],
            options: [Vec::new(), Vec::new()],
            pairs: Vec::new(),
            calm: [Vec::new(), Vec::new()],
        };
        for s in 0..2 {
            let side = &solver.sides[s];
            solver.calm[s] = (0..side.cores.len())
                .map(|c| {
                    let (first, count) = side.laws[c * 2 * solver.incoming[s]];
                    let t = &solver.turned[first as usize];
                    (count == 1 && t.out == Out::In && t.back == 0 && t.p == 1.0).then_some(t.core)
                })
                .collect();
        }
        // Each side's options where the two stand, as `FireGame::move_options` and `bold_move` give them.
        for s in 0..2 {
            let mut table = Vec::new();
            for shaken in [false, true] {
                for ia in 0..solver.sides[0].rooms {
                    for id in 0..solver.sides[1].rooms {
                        let mut pair = [game.base.start_state(0), game.base.start_state(1)];
                        pair[0].room = solver.room(0, ia) as i16;
                        pair[1].room = solver.room(1, id) as i16;
                        pair[s].shaken = shaken;
                        let list = game.move_options(s, &pair);
                        let mut options = Options {
                            len: list.len() as u8,
                            bold: game.bold_move(s, &pair, &list),
                            ..Options::default()
                        };
                        options.list[..list.len()].copy_from_slice(&list);
                        table.push(options);
                    }
                }
            }
            solver.options[s] = table;
        }
        solver.build_pairs();
        solver
    }

    /// Side `s`'s room at room step `i`.
    fn room(&self, s: usize, i: usize) -> i32 {
        self.sides[s].room0 + (self.sides[s].low + i as i32) * self.step
    }

    /// The gap between the units at room steps `ia`, `id`.
    fn gap(&self, ia: usize, id: usize) -> i32 {
        self.game.distance as i32
            - (self.sides[0].low + ia as i32) * self.step
            - (self.sides[1].low + id as i32) * self.step
    }

    /// States on the defender's side of the table (its cores times rooms).
    fn span(&self) -> usize {
        self.sides[1].cores.len() * self.sides[1].rooms
    }

    /// The number of states.
    fn states(&self) -> usize {
        self.sides[0].cores.len() * self.sides[0].rooms * self.span()
    }

    fn index(&self, ca: usize, ia: usize, cd: usize, id: usize) -> usize {
        (ca * self.sides[0].rooms + ia) * self.span() + cd * self.sides[1].rooms + id
    }

    fn unindex(&self, index: usize) -> (usize, usize, usize, usize) {
        let (a, d) = (index / self.span(), index % self.span());
        (a / self.sides[0].rooms, a % self.sides[0].rooms, d / self.sides[1].rooms, d % self.sides[1].rooms)
    }

    /// Side `s`'s options at a state.
    fn options_at(&self, s: usize, shaken: bool, ia: usize, id: usize) -> &Options {
        &self.options[s][(usize::from(shaken) * self.sides[0].rooms + ia) * self.sides[1].rooms + id]
    }

    /// The room steps an option moves side `s` forward.
    fn steps_of(&self, s: usize, option: u16) -> i32 {
        self.game.delta(s, option) / self.step
    }

    /// The two sides' laws after their moves (classes `moved`), at room steps `ia`, `id`.
    fn laws(&self, ca: usize, ia: usize, cd: usize, id: usize, moved: [usize; 2]) -> [&[Turned]; 2] {
        let gaps = self.game.beyond as usize + 1;
        let gap = (self.gap(ia, id).max(0) as usize).min(gaps - 1);
        let cores = [ca, cd];
        let mut fired = [false; 2];
        let mut volley = [0usize; 2];
        for s in 0..2 {
            let i = (cores[s] * gaps + gap) * 2 + usize::from(moved[s] == 1);
            fired[s] = moved[s] != 2 && self.sides[s].fires[i];
            if fired[s] {
                volley[s] = self.sides[s].volley[i] as usize;
            }
        }
        std::array::from_fn(|s| {
            let (first, count) =
                self.sides[s].laws[(cores[s] * 2 + usize::from(fired[s])) * self.incoming[s] + volley[1 - s]];
            &self.turned[first as usize..(first + count) as usize]
        })
    }

    /// Where a side's turn leaves it: its room step, or `None` when it is
    /// out. Room step 0 is the least room of 1" or more, so a rout back
    /// below it is a rout back past the baseline (5.7.3: off).
    #[inline]
    fn lands(i: usize, t: &Turned) -> Option<usize> {
        let back = t.back as usize;
        (t.out == Out::In && i >= back).then(|| i - back)
    }

    /// The worth after both moves, given the next turn's worths. `cache`
    /// keeps the defender's law resolved to table offsets (with the chance
    /// it stays and the chance it is out), which the next call often shares.
    fn worth<W: Worth>(
        &self,
        (ca, ia, cd, id): (usize, usize, usize, usize),
        moved: [usize; 2],
        next: &[W],
        cache: &mut Resolved,
    ) -> W {
        let [la, ld] = self.laws(ca, ia, cd, id, moved);
        let key = (ld.as_ptr() as usize, id);
        if cache.key != key {
            cache.key = key;
            cache.stays.clear();
            (cache.d_in, cache.d_out) = (0.0, 0.0);
            for td in ld {
                match DenseSolver::lands(id, td) {
                    Some(j) => {
                        cache.stays.push((td.core as usize * self.sides[1].rooms + j, td.p));
                        cache.d_in += td.p;
                    }
                    None => cache.d_out += td.p,
                }
            }
        }
        let span = self.span();
        // What each ending is worth under the purpose, once a call rather
        // than once an outcome.
        let purpose = self.game.purpose;
        let (beaten, both, beat) =
            (W::ending(purpose, End::Defender), W::ending(purpose, End::BothBroke), W::ending(purpose, End::Attacker));
        let mut worth = W::default();
        for ta in la {
            match DenseSolver::lands(ia, ta) {
                // The attacker is out: the defender beat it if it stays,
                // both broke if it is out too.
                None => {
                    worth.add(ta.p * cache.d_in, beaten);
                    worth.add(ta.p * cache.d_out, both);
                }
                Some(i) => {
                    let row = &next[(ta.core as usize * self.sides[0].rooms + i) * span..][..span];
                    let mut sum = W::default();
                    for &(offset, p) in &cache.stays {
                        sum.add(p, row[offset]);
                    }
                    // Both still in: a turn more to play.
                    sum.add_turn(cache.d_in);
                    // The defender is out: the attacker beat it.
                    sum.add(cache.d_out, beat);
                    worth.add(ta.p, sum);
                }
            }
        }
        worth
    }
}

/// What the dense table keeps of a state's worth, as the generic solver
/// keeps it: both sides' chances of winning under the purpose, of beating
/// the other outright, and the turns to play ([`Full`]); or, where every
/// side playing `best` maximises its margin (the game is then zero-sum),
/// the attacker's two margins and the turns ([`Margins`]), which is less
/// for the table to hold and read.
trait Worth: Copy + Default + Send + Sync {
    /// What ending `end` is worth under `purpose`.
    fn ending(purpose: game::Purpose, end: End) -> Self;
    /// `self += p * other`.
    fn add(&mut self, p: f64, other: Self);
    /// One more turn to play, with chance `p`.
    fn add_turn(&mut self, p: f64);
    /// What side `side` maximises under `objective`, most important first,
    /// as the generic solver ranks it.
    fn key(&self, side: usize, objective: game::Objective) -> [f64; 3];
}

/// Both sides' chances of winning under the purpose and of beating the
/// other outright, and the turns to play.
#[derive(Clone, Copy, Debug, Default)]
struct Full {
    wins: [f64; 2],
    beats: [f64; 2],
    turns: f64,
}

impl Worth for Full {
    fn ending(purpose: game::Purpose, end: End) -> Full {
        let mut worth = Full::default();
        match purpose.winner(end) {
            ATTACKER => worth.wins[0] = 1.0,
            game::DEFENDER => worth.wins[1] = 1.0,
            _ => {}
        }
        if let Some(side) = end.beaten_by() {
            worth.beats[side as usize] = 1.0;
        }
        worth
    }

    #[inline]
    fn add(&mut self, p: f64, other: Self) {
        for s in 0..2 {
            self.wins[s] += p * other.wins[s];
            self.beats[s] += p * other.beats[s];
        }
        self.turns += p * other.turns;
    }

    #[inline]
    fn add_turn(&mut self, p: f64) {
        self.turns += p;
    }

    fn key(&self, side: usize, objective: game::Objective) -> [f64; 3] {
        game::preference(objective_of(self.wins, side, objective), self.beats[side] - self.beats[1 - side], self.turns)
    }
}

/// The attacker's margins (its chance of winning under the purpose minus
/// the defender's, and likewise of beating it outright), and the turns.
#[derive(Clone, Copy, Debug, Default)]
struct Margins {
    aim: f64,
    beat: f64,
    turns: f64,
}

impl Worth for Margins {
    fn ending(purpose: game::Purpose, end: End) -> Margins {
        let full = Full::ending(purpose, end);
        Margins { aim: full.wins[0] - full.wins[1], beat: full.beats[0] - full.beats[1], turns: 0.0 }
    }

    #[inline]
    fn add(&mut self, p: f64, other: Self) {
        self.aim += p * other.aim;
        self.beat += p * other.beat;
        self.turns += p * other.turns;
    }

    #[inline]
    fn add_turn(&mut self, p: f64) {
        self.turns += p;
    }

    fn key(&self, side: usize, _: game::Objective) -> [f64; 3] {
        let sign = if side == 0 { 1.0 } else { -1.0 };
        game::preference(sign * self.aim, sign * self.beat, self.turns)
    }
}

/// A defender's law resolved to offsets in the table, for [`DenseSolver::worth`].
#[derive(Default)]
struct Resolved {
    key: (usize, usize),
    stays: Vec<(usize, f64)>,
    d_in: f64,
    d_out: f64,
}

impl DenseSolver {
    /// Backward induction, a turn at a time from the limit (where a fight
    /// still going is worth nothing to either side): the worth of every
    /// state after every pair of move classes, then each state's choices.
    fn backward(&mut self) {
        let zero_sum =
            (0..2).all(|s| self.plan.policy[s] != Policy::Best || self.plan.objective[s] == game::Objective::Margin);
        self.choices = if zero_sum { self.backward_with::<Margins>() } else { self.backward_with::<Full>() };
    }

    fn backward_with<W: Worth>(&self) -> Vec<Vec<u16>> {
        let n = self.states();
        let turns = self.game.base.turns as usize;
        let span = self.span();
        let (rooms_a, rooms_d) = (self.sides[0].rooms, self.sides[1].rooms);
        // At the limit every fight still going ends as the purpose says.
        let mut next = vec![W::ending(self.game.purpose, End::Limit); n];
        let mut after = vec![W::default(); n * 9];
        let mut choices = vec![Vec::new(); turns];
        // A row of the table is one place and core of the attacker: the
        // states of a row are walked in order, their indices counted
        // rather than divided out.
        let row_of = |row: usize| (row / rooms_a, row % rooms_a);
        for t in (0..turns).rev() {
            after.par_chunks_mut(9 * span).enumerate().for_each_init(Resolved::default, |cache, (row, outs)| {
                let (ca, ia) = row_of(row);
                for (d, out) in outs.chunks_mut(9).enumerate() {
                    self.after_moves((ca, ia, d / rooms_d, d % rooms_d), out, &next, cache);
                }
            });
            let mut table = vec![0u16; n];
            next.par_chunks_mut(span).zip(table.par_chunks_mut(span)).enumerate().for_each(
                |(row, (worths, packed))| {
                    let (ca, ia) = row_of(row);
                    for (d, (worth, packed)) in worths.iter_mut().zip(packed.iter_mut()).enumerate() {
                        let at = (ca, ia, d / rooms_d, d % rooms_d);
                        (*worth, *packed) = self.decide(row * span + d, at, &after);
                    }
                },
            );
            choices[t] = table;
        }
        choices
    }

    /// The worths of state `at` after each pair of move classes (by
    /// `ma * 3 + md`, the places being those after the moves), given the
    /// next turn's worths.
    fn after_moves<W: Worth>(&self, at: (usize, usize, usize, usize), out: &mut [W], next: &[W], cache: &mut Resolved) {
        let (ca, ia, cd, id) = at;
        if self.gap(ia, id) < self.nearest {
            return;
        }
        // Out of both units' reach, how they moved changes nothing
        // this turn: the pairs read the first worth only, which,
        // where neither side's turn holds a chance, is the worth
        // of the state it leads to (the laws' one outcome has
        // probability 1, so the sum is that worth exactly).
        if self.quiet(ia, id) {
            out[0] = match (self.calm[0][ca], self.calm[1][cd]) {
                (Some(ra), Some(rd)) => {
                    // Both still in: a turn more to play.
                    let mut worth = next[self.index(ra as usize, ia, rd as usize, id)];
                    worth.add_turn(1.0);
                    worth
                }
                _ => self.worth(at, [0, 0], next, cache),
            };
            return;
        }
        out[0] = self.worth(at, [0, 0], next, cache);
        let still = [self.sides[0].cores[ca].shaken, self.sides[1].cores[cd].shaken];
        for ma in 0..if still[0] { 1 } else { 3 } {
            for md in 0..if still[1] { 1 } else { 3 } {
                if ma + md > 0 {
                    out[ma * 3 + md] = self.worth(at, [ma, md], next, cache);
                }
            }
        }
    }

    /// The moves at a state: the attacker's option and the defender's
    /// answer to each attacker option (packed as in `choices`), and the
    /// state's worth, given the worths after moves.
    fn decide<W: Worth>(&self, index: usize, (ca, ia, cd, id): (usize, usize, usize, usize), after: &[W]) -> (W, u16) {
        if self.gap(ia, id) < self.nearest {
            return (W::default(), 0);
        }
        let plan = self.plan;
        let shaken = [self.sides[0].cores[ca].shaken, self.sides[1].cores[cd].shaken];
        let pairs = &self.pairs[self.place(shaken, ia, id)];
        let base = (index * 9) as isize;
        let mut packed = 0u16;
        let mut best: Option<([f64; 3], u16, W)> = None;
        for (a, answers) in pairs {
            let (d, worth) = match answers[..] {
                [(d, offset)] => (d, after[(base + offset) as usize]),
                _ => {
                    let mut answer: Option<([f64; 3], u16, W)> = None;
                    for &(d, offset) in answers {
                        let w = after[(base + offset) as usize];
                        let key = w.key(1, plan.objective[1]);
                        if answer.is_none_or(|(b, _, _)| game::prefers(key, b)) {
                            answer = Some((key, d, w));
                        }
                    }
                    let (_, d, w) = answer.expect("a side has an option");
                    (d, w)
                }
            };
            packed |= d << (2 + 2 * a);
            let key = worth.key(0, plan.objective[0]);
            if best.is_none_or(|(b, _, _)| game::prefers(key, b)) {
                best = Some((key, *a, worth));
            }
        }
        let (_, a, worth) = best.expect("a side has an option");
        (worth, packed | a)
    }

    /// The index in `pairs` of a place (both rooms) with the sides shaken or not.
    fn place(&self, shaken: [bool; 2], ia: usize, id: usize) -> usize {
        ((usize::from(shaken[0]) * 2 + usize::from(shaken[1])) * self.sides[0].rooms + ia) * self.sides[1].rooms + id
    }

    /// Whether neither unit reaches the other at room steps `ia`, `id`:
    /// how they moved then changes nothing this turn.
    fn quiet(&self, ia: usize, id: usize) -> bool {
        self.game.at(self.gap(ia, id), false, false).in_range == [false; 2]
    }

    /// Every place's move pairs under the plan (see `pairs`).
    fn build_pairs(&mut self) {
        let plan = self.plan;
        let span = self.span() as isize;
        let mut table = Vec::new();
        for shaken in [[false, false], [false, true], [true, false], [true, true]] {
            for ia in 0..self.sides[0].rooms {
                for id in 0..self.sides[1].rooms {
                    let mut pairs = Vec::new();
                    if self.gap(ia, id) >= self.nearest {
                        let mine = self.options_at(0, shaken[0], ia, id);
                        let fixed = mine.settled(plan.policy[0]);
                        for &a in mine.list() {
                            if fixed.is_some_and(|f| f != a) {
                                continue;
                            }
                            let ia2 = (ia as i32 + self.steps_of(0, a)) as usize;
                            let theirs = self.options_at(1, shaken[1], ia2, id);
                            let settled = theirs.settled(plan.policy[1]);
                            let mut answers = Vec::new();
                            for &d in theirs.list() {
                                if settled.is_some_and(|f| f != d) {
                                    continue;
                                }
                                let id2 = (id as i32 + self.steps_of(1, d)) as usize;
                                let class = if self.quiet(ia2, id2) { 0 } else { moved_class(a) * 3 + moved_class(d) };
                                let offset = ((ia2 as isize - ia as isize) * span + (id2 as isize - id as isize)) * 9
                                    + class as isize;
                                answers.push((d, offset));
                            }
                            pairs.push((a, answers));
                        }
                    }
                    table.push(pairs);
                }
            }
        }
        self.pairs = table;
    }

    /// The exact distribution of outcome codes under the solved choices:
    /// the mass of every state (with both sides' `routed` flags) walked
    /// forwards a turn at a time.
    pub fn distribution(&self) -> Vec<(u64, f64)> {
        let n = self.states();
        let game = &self.game;
        let base = &game.base;
        let start = [base.start_state(0), base.start_state(1)];
        let core = |s: usize| self.sides[s].index[&(start[s].figures, false, start[s].general)] as usize;
        let room = |s: usize| (-self.sides[s].low) as usize;
        let mut mass = vec![[0.0f64; 4]; n];
        mass[self.index(core(0), room(0), core(1), room(1))][0] = 1.0;
        // An ending side: its figures, routed, and how it ended (In, or out).
        let figures = [start[0].figures as usize + 1, start[1].figures as usize + 1];
        let key = |figures: u8, routed: bool, out: Out| {
            (usize::from(figures) * 2 + usize::from(routed)) * 4
                + match out {
                    Out::In => 0,
                    Out::Shattered => 1,
                    Out::RoutedOff => 2,
                    Out::Surrendered => 3,
                }
        };
        let side_keys = [figures[0] * 8, figures[1] * 8];
        let ended_len = side_keys[0] * side_keys[1];
        let mut codes: HashMap<u64, f64, BuildHasherDefault<CodeHasher>> = HashMap::default();
        let turns = base.turns as usize;
        let unkey = |s: usize, k: usize| -> (SideState, Out) {
            let out = [Out::In, Out::Shattered, Out::RoutedOff, Out::Surrendered][k % 4];
            let state = SideState { figures: (k / 8) as u8, routed: (k / 4) % 2 == 1, ..start[s] };
            (state, out)
        };
        // The turn's spreading is cut into one run of states per thread,
        // each spreading into its own buffer. A state's mass is the sum of
        // the buffers the turn before filled: each run reads and clears its
        // own states in all of them, so that no pass adds the buffers up.
        let runs = rayon::current_num_threads().clamp(1, 8);
        let length = n.div_ceil(runs);
        let fresh = || -> Vec<Vec<[f64; 4]>> { (0..runs).map(|_| vec![[0.0f64; 4]; n]).collect() };
        let (mut filled, mut spread) = (fresh(), fresh());
        let mut endings: Vec<Vec<f64>> = (0..runs).map(|_| vec![0.0f64; ended_len]).collect();
        filled[0] = mass;
        for t in 0..turns {
            // Each run's states in every buffer filled last turn.
            let mut held: Vec<Vec<&mut [[f64; 4]]>> = (0..runs).map(|_| Vec::with_capacity(runs)).collect();
            for buffer in &mut filled {
                for (run, chunk) in buffer.chunks_mut(length).enumerate() {
                    held[run].push(chunk);
                }
            }
            held.into_par_iter().zip(spread.par_iter_mut()).zip(endings.par_iter_mut()).enumerate().for_each(
                |(run, ((mut held, next), ended))| {
                    for i in 0..held.first().map_or(0, |h| h.len()) {
                        let mut m = [0.0f64; 4];
                        for buffer in &mut held {
                            let q = std::mem::take(&mut buffer[i]);
                            for r in 0..4 {
                                m[r] += q[r];
                            }
                        }
                        if m == [0.0; 4] {
                            continue;
                        }
                        let index = run * length + i;
                        self.spread(t, index, m, next, &mut |ka, kd, q| ended[ka * side_keys[1] + kd] += q, &key);
                    }
                },
            );
            std::mem::swap(&mut filled, &mut spread);
            for ended in &mut endings {
                for (k, q) in ended.iter_mut().enumerate() {
                    if *q > 0.0 {
                        let (sa, oa) = unkey(0, k / side_keys[1]);
                        let (sd, od) = unkey(1, k % side_keys[1]);
                        let end = match (oa != Out::In, od != Out::In) {
                            (false, true) => End::Attacker,
                            (true, false) => End::Defender,
                            _ => End::BothBroke,
                        };
                        let winner = self.game.purpose.winner(end);
                        let code = base.end_code_won(Some(winner), t as u32 + 1, [sa, sd], [oa, od]);
                        *codes.entry(code * game::ENDED.len() as u64 + end.ended_index()).or_insert(0.0) += *q;
                    }
                    *q = 0.0;
                }
            }
        }
        // What is still going has reached the limit, won by nobody.
        for index in 0..n {
            let (ca, _, cd, _) = self.unindex(index);
            let mut m = [0.0f64; 4];
            for buffer in &filled {
                for r in 0..4 {
                    m[r] += buffer[index][r];
                }
            }
            for (r, &q) in m.iter().enumerate() {
                if q > 0.0 {
                    let sa = SideState { routed: r & 1 == 1, ..self.sides[0].cores[ca] };
                    let sd = SideState { routed: r & 2 == 2, ..self.sides[1].cores[cd] };
                    let winner = self.game.purpose.winner(End::Limit);
                    let code = base.end_code_won(Some(winner), base.turns, [sa, sd], [Out::In, Out::In]);
                    *codes.entry(code * game::ENDED.len() as u64 + End::Limit.ended_index()).or_insert(0.0) += q;
                }
            }
        }
        let mut result: Vec<(u64, f64)> = codes.into_iter().filter(|&(_, p)| p > 0.0).collect();
        result.sort_unstable_by_key(|&(code, _)| code);
        result
    }

    /// Spreads the mass `m` (by both sides' `routed` flags) of state
    /// `index` in turn `t` over the next turn's states (`next`) and the
    /// endings (`ended(attacker key, defender key, mass)`, keyed by `key`).
    fn spread(
        &self,
        t: usize,
        index: usize,
        m: [f64; 4],
        next: &mut [[f64; 4]],
        ended: &mut impl FnMut(usize, usize, f64),
        key: &impl Fn(u8, bool, Out) -> usize,
    ) {
        let (ca, ia, cd, id) = self.unindex(index);
        let packed = self.choices[t][index];
        let a = packed & 3;
        let d = (packed >> (2 + 2 * a)) & 3;
        let ia2 = (ia as i32 + self.steps_of(0, a)) as usize;
        let id2 = (id as i32 + self.steps_of(1, d)) as usize;
        let [la, ld] = self.laws(ca, ia2, cd, id2, [moved_class(a), moved_class(d)]);
        // A side out of the fight: how it ended (a rout past its room routs it off).
        let out = |land: Option<usize>, t: &Turned| match (land, t.out) {
            (Some(_), _) => Out::In,
            (None, Out::In) => Out::RoutedOff,
            (None, out) => out,
        };
        for ta in la {
            let land_a = DenseSolver::lands(ia2, ta);
            for td in ld {
                let land_d = DenseSolver::lands(id2, td);
                let p = ta.p * td.p;
                if let (Some(i), Some(j)) = (land_a, land_d) {
                    let target = &mut next[self.index(ta.core as usize, i, td.core as usize, j)];
                    for (r, &q) in m.iter().enumerate() {
                        if q != 0.0 {
                            let routed = usize::from(r & 1 == 1 || ta.routs) | usize::from(r & 2 == 2 || td.routs) << 1;
                            target[routed] += q * p;
                        }
                    }
                } else {
                    let (out_a, out_d) = (out(land_a, ta), out(land_d, td));
                    for (r, &q) in m.iter().enumerate() {
                        if q != 0.0 {
                            let ka = key(ta.figures, r & 1 == 1 || ta.routs, out_a);
                            let kd = key(td.figures, r & 2 == 2 || td.routs, out_d);
                            ended(ka, kd, q * p);
                        }
                    }
                }
            }
        }
    }

    /// One fight with real dice, the sides playing `best` following the table.
    pub fn sample(&self, dice: &mut Dice) -> u64 {
        let game = &self.game;
        let mut state = game.start();
        let turns = game.steps();
        for turn in 0..turns {
            let mut fate =
                TableFate { dice: &mut *dice, solver: self, turn: turn as usize, sides: state.sides, attacker: HOLD };
            if let Some(end) = game.step(&mut state, &mut fate) {
                return game::outcome_code(game, end, turn + 1, &state);
            }
        }
        game::outcome_code(game, game.at_limit(&state), turns, &state)
    }

    /// The table's index of a state at the start of a turn.
    fn index_of(&self, sides: &[SideState; 2]) -> usize {
        let at = |s: usize| {
            let core = self.sides[s].index[&(sides[s].figures, sides[s].shaken, sides[s].general)] as usize;
            let room = ((i32::from(sides[s].room) - self.sides[s].room0) / self.step - self.sides[s].low) as usize;
            (core, room)
        };
        let ((ca, ia), (cd, id)) = (at(0), at(1));
        self.index(ca, ia, cd, id)
    }
}

impl DenseSolver {
    /// The worth of the state `index` (turn start) when the attacker takes
    /// `a` and the defender `d`, given the next turn's worths: the worth
    /// after both moves, as `backward_with` tabulates it.
    fn pair_worth<W: Worth>(&self, index: usize, (a, d): (u16, u16), next: &[W], cache: &mut Resolved) -> W {
        let (ca, ia, cd, id) = self.unindex(index);
        let ia2 = (ia as i32 + self.steps_of(0, a)) as usize;
        let id2 = (id as i32 + self.steps_of(1, d)) as usize;
        // Out of both units' reach, the pairs read the first worth (see `build_pairs`).
        let moved = if self.quiet(ia2, id2) { [0, 0] } else { [moved_class(a), moved_class(d)] };
        self.worth((ca, ia2, cd, id2), moved, next, cache)
    }

    /// The moves the table takes at state `index` in turn `t`: the
    /// attacker's, and the defender's answer to it.
    fn chosen(&self, t: usize, index: usize) -> (u16, u16) {
        let packed = self.choices[t][index];
        let a = packed & 3;
        (a, (packed >> (2 + 2 * a)) & 3)
    }

    /// Both sides' chances of winning from every state at the start of
    /// turn `t`, the sides following the table from there on (the table
    /// may keep the attacker's margin alone; `--explain` shows both chances).
    fn evaluate(&self, t: usize) -> Vec<Full> {
        let n = self.states();
        let mut next = vec![Full::ending(self.game.purpose, End::Limit); n];
        for turn in (t..self.game.base.turns as usize).rev() {
            let mut current = vec![Full::default(); n];
            current.par_iter_mut().with_min_len(256).enumerate().for_each_init(
                Resolved::default,
                |cache, (index, out)| {
                    let (_, ia, _, id) = self.unindex(index);
                    if self.gap(ia, id) >= self.nearest {
                        *out = self.pair_worth(index, self.chosen(turn, index), &next, cache);
                    }
                },
            );
            next = current;
        }
        next
    }

    /// Whether side `s` decides at state `index` in turn `t` under the
    /// plan, as the generic solver's graph has a decision node there: it
    /// plays `best` and has more than one option (the defender's, after the
    /// attacker's move the table takes).
    fn decides(&self, s: usize, t: usize, index: usize) -> bool {
        if self.plan.policy[s] != Policy::Best {
            return false;
        }
        let (ca, ia, cd, id) = self.unindex(index);
        let shaken = [self.sides[0].cores[ca].shaken, self.sides[1].cores[cd].shaken];
        if s == 0 {
            return self.options_at(0, shaken[0], ia, id).len > 1;
        }
        let (a, _) = self.chosen(t, index);
        let ia2 = (ia as i32 + self.steps_of(0, a)) as usize;
        self.options_at(1, shaken[1], ia2, id).len > 1
    }

    /// Each side's first decision under the table, as
    /// [`game::Played::explain`] gives it: walking the table forwards, the
    /// first turn in which the side decides, the most likely state there in
    /// which it does (ties go to the first in the table's order), and the
    /// worth of each of its options (both sides' chances of winning, best
    /// play by both afterwards; the defender's options after the attacker's
    /// move the table takes, the attacker's each met by the defender's
    /// answer the table gives to it).
    pub fn explain(&self) -> Vec<game::Explained> {
        let n = self.states();
        let game = &self.game;
        let turns = game.base.turns as usize;
        // Forward under the table until every side playing `best` has decided.
        let start = [game.base.start_state(0), game.base.start_state(1)];
        let core = |s: usize| self.sides[s].index[&(start[s].figures, false, start[s].general)] as usize;
        let room = |s: usize| (-self.sides[s].low) as usize;
        let mut mass = vec![[0.0f64; 4]; n];
        mass[self.index(core(0), room(0), core(1), room(1))][0] = 1.0;
        let mut next = vec![[0.0f64; 4]; n];
        let mut found: [Option<(usize, usize, f64)>; 2] = [None, None];
        let wanted = |found: &[Option<(usize, usize, f64)>; 2]| {
            (0..2).any(|s| found[s].is_none() && self.plan.policy[s] == Policy::Best)
        };
        let key = |_: u8, _: bool, _: Out| 0usize;
        for t in 0..turns {
            if !wanted(&found) {
                break;
            }
            let mut candidates: [Option<(usize, f64)>; 2] = [None, None];
            for (index, m) in mass.iter().enumerate() {
                let p: f64 = m.iter().sum();
                if p == 0.0 {
                    continue;
                }
                for (s, best) in candidates.iter_mut().enumerate() {
                    if self.decides(s, t, index) && best.is_none_or(|(_, b)| p > b + game::TIE) {
                        *best = Some((index, p));
                    }
                }
                self.spread(t, index, *m, &mut next, &mut |_, _, _| {}, &key);
            }
            for s in 0..2 {
                if found[s].is_none()
                    && let Some((index, p)) = candidates[s]
                {
                    found[s] = Some((t, index, p));
                }
            }
            std::mem::swap(&mut mass, &mut next);
            next.iter_mut().for_each(|m| *m = [0.0; 4]);
        }
        // The worths after the explained turns, the table followed.
        let Some(earliest) = found.iter().flatten().map(|f| f.0).min() else { return Vec::new() };
        let mut after = self.evaluate(earliest + 1);
        let mut at_turn = earliest + 1;
        let mut explained = Vec::new();
        for (s, found) in found.iter().enumerate() {
            let Some(&(t, index, reached)) = found.as_ref() else { continue };
            if at_turn != t + 1 {
                after = self.evaluate(t + 1);
                at_turn = t + 1;
            }
            let (ca, ia, cd, id) = self.unindex(index);
            let (a, d) = self.chosen(t, index);
            let shaken = [self.sides[0].cores[ca].shaken, self.sides[1].cores[cd].shaken];
            let list: Vec<u16> = if s == 0 {
                self.options_at(0, shaken[0], ia, id).list().to_vec()
            } else {
                let ia2 = (ia as i32 + self.steps_of(0, a)) as usize;
                self.options_at(1, shaken[1], ia2, id).list().to_vec()
            };
            let mut cache = Resolved::default();
            let worths: Vec<Full> = list
                .iter()
                .map(|&option| {
                    // The attacker's option is met by the defender's answer to it.
                    let pair =
                        if s == 0 { (option, (self.choices[t][index] >> (2 + 2 * option)) & 3) } else { (a, option) };
                    self.pair_worth(index, pair, &after, &mut cache)
                })
                .collect();
            let chosen = if s == 0 { a } else { d };
            let objective = self.plan.objective[s];
            let taken = list.iter().zip(&worths).find(|(o, _)| **o == chosen).map(|(_, w)| w.key(s, objective));
            let taken = taken.expect("the table's option is offered");
            let options = list
                .iter()
                .zip(&worths)
                .map(|(&option, w)| {
                    let key = w.key(s, objective);
                    let tie = if option == chosen || (key[0] - taken[0]).abs() > game::TIE {
                        game::Tie::No
                    } else if game::prefers(taken, key) {
                        game::Tie::Purpose
                    } else {
                        game::Tie::All
                    };
                    game::OptionValue {
                        option: game.describe_option(&MOVE_DECISION, option),
                        attacker_wins: w.wins[0],
                        defender_wins: w.wins[1],
                        attacker_beats: w.beats[0],
                        defender_beats: w.beats[1],
                        turns: w.turns,
                        chosen: option == chosen,
                        tie,
                    }
                })
                .collect();
            let mut sides = [self.sides[0].cores[ca], self.sides[1].cores[cd]];
            sides[0].room = self.room(0, ia) as i16;
            sides[1].room = self.room(1, id) as i16;
            let state = FireState { sides, charisma: [0; 2], outs: [Out::In; 2] };
            explained.push(game::Explained {
                side: game::side_name(s as u8),
                decision: MOVE_DECISION.name,
                situation: game.describe_state(&state, s as u8),
                step: t as u32 + 1,
                reached,
                options,
            });
        }
        explained
    }
}

/// Real dice, and the moves of sides playing `best` from the table.
struct TableFate<'a> {
    dice: &'a mut Dice,
    solver: &'a DenseSolver,
    turn: usize,
    /// The sides at the start of the turn.
    sides: [SideState; 2],
    /// The attacker's move this turn, once taken.
    attacker: u16,
}

impl Fate for TableFate<'_> {
    fn die(&mut self, sides: u32) -> u32 {
        if sides <= 1 { 1 } else { self.dice.die(sides) }
    }

    fn ways(&mut self, ways: u32, of: u32) -> bool {
        ways >= of || (ways > 0 && (self.dice.below(u64::from(of)) as u32) < ways)
    }

    fn draw<L: Law + ?Sized>(&mut self, law: &L) -> u32 {
        law.sample(self.dice)
    }

    fn draw_grouped<T: Clone + 'static>(
        &mut self,
        sample: impl FnOnce(&mut Dice) -> T,
        _: impl FnOnce() -> Vec<(T, f64)>,
    ) -> T {
        sample(self.dice)
    }

    fn decide(&mut self, side: u8, _: &'static Decision, options: &[u16], heuristic: &dyn Fn(Policy) -> u16) -> u16 {
        let policy = self.solver.plan.policy[usize::from(side)];
        let chosen = if options.len() == 1 {
            options[0]
        } else if policy != Policy::Best {
            heuristic(policy)
        } else {
            let packed = self.solver.choices[self.turn][self.solver.index_of(&self.sides)];
            if side == ATTACKER { packed & 3 } else { (packed >> (2 + 2 * self.attacker)) & 3 }
        };
        if side == ATTACKER {
            self.attacker = chosen;
        }
        chosen
    }
}

/// The `firefight` scenario: [`FireGame`] under a plan, solved on the
/// dense table ([`DenseSolver`]) where it applies and fits, and by the
/// generic solver ([`game::Played`]) otherwise.
pub struct FirePlayed {
    played: game::Played<FireGame>,
    plan: game::Plan,
    dense: std::sync::OnceLock<Option<DenseSolver>>,
}

impl std::fmt::Debug for FirePlayed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FirePlayed").field("plan", &self.plan).finish_non_exhaustive()
    }
}

impl FirePlayed {
    /// `game` under `plan`.
    pub fn new(game: FireGame, plan: game::Plan) -> FirePlayed {
        FirePlayed { played: game::Played::new(game, plan), plan, dense: std::sync::OnceLock::new() }
    }

    /// From the catalogue's settings.
    pub fn from_settings(rules: &Rules, settings: &Settings) -> Result<FirePlayed, ParamError> {
        Ok(FirePlayed::new(
            FireGame::from_settings(rules, settings)?.with_purpose(game::Purpose::from_settings(settings)),
            game::Plan::from_settings(settings),
        ))
    }

    /// The dense solution, where the table applies and fits.
    fn dense(&self) -> Option<&DenseSolver> {
        if !DenseSolver::fits(self.played.game()) {
            return None;
        }
        self.dense.get_or_init(|| DenseSolver::solve(self.played.game(), self.plan)).as_ref()
    }
}

impl Scenario for FirePlayed {
    fn layout(&self) -> &Layout {
        Scenario::layout(&self.played)
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        match self.plan.wants_solver().then(|| self.dense()).flatten() {
            Some(dense) => dense.sample(dice),
            None => Scenario::sample(&self.played, dice),
        }
    }

    fn code_space(&self) -> u64 {
        Scenario::code_space(&self.played)
    }

    fn decode(&self, code: u64, values: &mut [i64]) {
        Scenario::decode(&self.played, code, values);
    }

    fn has_exact(&self) -> bool {
        DenseSolver::fits(self.played.game()) || Scenario::has_exact(&self.played)
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        match self.dense() {
            Some(dense) => Some(dense.distribution()),
            None => Scenario::exact(&self.played),
        }
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        FIRE_DECISIONS
    }

    fn policies(&self) -> Option<[game::PolicyUse; 2]> {
        if DenseSolver::fits(self.played.game()) {
            return Some([0, 1].map(|s| game::PolicyUse {
                asked: self.plan.policy[s],
                played: self.plan.policy[s],
                objective: self.plan.objective[s],
            }));
        }
        Scenario::policies(&self.played)
    }

    fn reads_rule(&self, field: &str) -> bool {
        self.played.game().reads_rule(field)
    }

    fn purpose(&self) -> Option<game::Purpose> {
        Scenario::purpose(&self.played)
    }

    fn unread_keys(&self) -> Vec<(String, String)> {
        Scenario::unread_keys(&self.played)
    }

    fn explain(&self) -> Option<Vec<game::Explained>> {
        // The dense table explains where it solves, the generic solver elsewhere.
        match self.dense() {
            Some(dense) => Some(dense.explain()),
            None if self.played.game().solvable(self.plan) => self.played.explain(),
            None => None,
        }
    }
}
