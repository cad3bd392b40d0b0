//! The `crossing` scenario: a stationary unit (infantry with muskets or
//! rifles, or a battery) fires at an enemy unit that marches across its front
//! along a straight path, turn by turn, the case optional rule 7.1
//! (pass-through fire) is about. The exact solver propagates the mover's
//! figures turn by turn (`markov::absorb`).
//!
//! Geometry is reduced to the path: the mover starts at 0 and moves `move`
//! inches a turn along it (0: its 2.11 move: infantry in column 8", in line
//! 4", heavy cavalry 10", light cavalry 12"); the stretch of the path inside
//! the firer's field of fire (3.2 range of the `range` band and 3.1's 45-degree
//! arc, measured by the user) runs from `start` to `start + exposed`, both ends
//! included (a unit at exactly a weapon's range is in range). For a path `d`
//! inches in front of the firer and a range `r`, a point of the path `x`
//! inches to the side of the firer's centre is in arc while `|x| <= d` plus
//! half the firer's frontage, and in range while `x^2 + d^2 <= r^2`. The
//! mover's place on the path is one reference point of it (say its centre);
//! measure the stretch as where that point leaves some of the unit in range
//! and arc. 2.2 keeps the path 2" or more from the firer, unless charging.
//!
//! Each turn (2.1): the mover moves its full move (phases 2-3); in phase 5 the
//! firer fires if the mover is an eligible target:
//! - at the end of its move (the basic rule, 7.1's "normally", and 3.8 for a
//!   unit that moved);
//! - with `optional_pass_through_fire`, also if the mover was eligible for at
//!   least half of that move (`pass_through_percent`, 50; exactly half counts,
//!   as printed), measured by distance along the path: the mover keeps one
//!   speed on a straight path, so distance and time agree, and it always
//!   moves its whole move, so "half of its movement" is half of its move;
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
//! stretch: see [`enfilade_schedule`]).
//!
//! Hits remove the mover's figures; at three quarters lost it is shattered
//! (5.3) and removed at once. With 2 or more hits in the phase it tests morale
//! (5.4 (1)): 5.5's pass score with 5.6's -1 per 2 hits this phase, -2 per
//! whole quarter lost, +1 in hard cover, and its general (-1 out of radius,
//! +charisma attached). On a failure it rolls on the rout table (5.7.1, with
//! 5.7.2's grade, half-strength and general modifiers): a score of 0 or less
//! shatters it; otherwise it takes the row's rout hits by its size at the test
//! (which may shatter it, 5.3), and routs.
//!
//! A routed mover leaves the fight: it falls back 4" to 18" toward its
//! baseline after all fire (5.7.3, 2.1 phase 5), ends shaken and may not move
//! or shoot for the rest of the turn (5.7.4); the crossing is over for it, and
//! the scenario does not follow it further (it has failed to cross). A mover
//! still in good order once its move has taken it past the stretch has
//! `arrived`, after that turn's fire.

use super::firefight::{battery_dice, general_modifiers, percent};
use super::{
    Charisma, GeneralPlace, Grade, RangeBand, RoutRow, Rules, StationaryFireTargets, Target, TestResult, Weapon,
    dice_from_figures, grade_param, invalid, roll_test, test_distribution,
};
use crate::choice_enum;
use crate::dice::Dice;
use crate::markov::{Step, absorb};
use crate::outcome::{Layout, Metric};
use crate::params::{Choice, Param, ParamError, Settings};
use crate::pmf::Pmf;
use crate::scenario::Scenario;
use std::collections::HashMap;

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

/// The keys of `crossing`.
pub fn params() -> Vec<Param> {
    vec![
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
        Param::int("move", "inches the mover moves a turn; 0: its type's move (2.11)", 0, 0, 40),
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
    ]
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
}

impl Mover {
    /// An infantry column in the open, general in radius.
    pub fn new(grade: Grade, figures: u32, kind: MoverType) -> Mover {
        Mover {
            grade,
            figures,
            kind,
            target: Target::Normal,
            general: GeneralPlace::InRadius,
            charisma: Charisma::Rolled,
        }
    }
}

/// The path: where the field of fire lies along it, and the mover's speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Path {
    /// Inches from the mover's start to the stretch in the field of fire.
    pub start: u32,
    /// Inches of path in the field of fire.
    pub exposed: u32,
    /// Inches a turn; 0 for the mover's 2.11 move.
    pub step: u32,
    /// Inches from the firer's front to the path: where a line on it is
    /// enfiladed (3.5).
    pub across: u32,
}

/// A stationary firer and a unit marching across its front.
#[derive(Clone, Debug)]
pub struct Crossing {
    rules: Rules,
    mover: Mover,
    /// The mover's move a turn (inches).
    step: u32,
    /// For each turn up to the one that takes the mover past the stretch:
    /// whether the firer fires that turn.
    fires: Vec<bool>,
    /// For each of those turns: whether the mover is a dense target when
    /// that turn's volley strikes it (3.5).
    dense: Vec<bool>,
    /// The firer's dice a volley.
    dice: u32,
    /// The faces of a die that hit, and the chance, at a target that is not
    /// dense (index 0) and at one that is (1).
    faces: [[bool; 10]; 2],
    chance: [f64; 2],
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

/// How the mover's crossing ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// Past the stretch in good order.
    Arrived,
    /// Failed morale and left the fight (routed = true), not shattered.
    Routed,
    /// Shattered: by losses (routed = false) or on the rout table or by rout
    /// hits after a failed test (routed = true).
    Shattered { routed: bool },
}

impl Crossing {
    /// A crossing of `path` by `mover` under `firer`'s fire at `band`.
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
        if path.start > 100 {
            return Err(invalid("start", "at most 100 inches"));
        }
        if path.exposed > 100 {
            return Err(invalid("exposed", "at most 100 inches"));
        }
        if path.step > 40 {
            return Err(invalid("move", "at most 40 inches a turn"));
        }
        let step = if path.step > 0 { path.step } else { mover_move(rules, mover.kind) };
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
        // 3.3: grade, moving, the firer's own modifier; 3.5: ballshot at a dense column.
        let mut modifier = firer.modifier + rules.fire_grade(firer.grade);
        if firer.moving {
            modifier += rules.fire_moving;
        }
        let dense_bonus = if band == RangeBand::Ballshot { rules.fire_ball_vs_dense } else { 0 };
        let fires = fire_schedule(rules, path.start, path.exposed, step, !firer.moving);
        let dense = match mover.kind {
            // 3.5: a column of 3 or more ranks is dense wherever it is.
            MoverType::Column => vec![mover.figures > 2 * rules.column_width; fires.len()],
            // 3.5: a line enfiladed at 22.5 degrees or less onto its flank. A
            // line marching along the path faces along it, so the firer looks
            // down its flank where the path is nearly straight ahead.
            // Skirmishers are never dense (3.5).
            MoverType::Line if mover.target == Target::Skirmish => vec![false; fires.len()],
            MoverType::Line => enfilade_schedule(rules, path, step, !firer.moving),
            MoverType::HeavyCavalry | MoverType::LightCavalry => vec![false; fires.len()],
        };
        let turns = fires.len() as i64;
        let volleys = fires.iter().filter(|&&f| f).count() as i64;
        let layout = Layout::new(vec![
            Metric::integer("hits", "figures the mover lost to the firer's hits (rout hits apart)", 0, 60),
            Metric::integer("rout_hits", "figures the mover lost to rout hits (5.7.1)", 0, 60),
            Metric::integer("volleys", "turns the firer fired at the mover", 0, volleys),
            Metric::integer("turns", "the turn the crossing ended: arrival, rout or shatter", 1, turns),
            Metric::boolean("arrived", "whether the mover got past the field of fire in good order"),
            Metric::boolean("routed", "whether the mover failed a morale test (it then leaves the fight)"),
            Metric::boolean("shattered", "whether the mover shattered (3/4 losses or a rout score of 0 or less)"),
            Metric::integer("remaining", "percent of the mover's starting figures not lost, rounded down", 0, 100),
        ]);
        Ok(Crossing {
            rules: rules.clone(),
            mover,
            step,
            fires,
            dense,
            dice,
            faces: [rules.hit_faces(score, modifier), rules.hit_faces(score, modifier + dense_bonus)],
            chance: [rules.hit_chance(score, modifier), rules.hit_chance(score, modifier + dense_bonus)],
            layout,
        })
    }

    /// From the catalogue's settings.
    pub fn from_settings(rules: &Rules, settings: &Settings) -> Result<Crossing, ParamError> {
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
        };
        let path = Path {
            start: settings.int("start") as u32,
            exposed: settings.int("exposed") as u32,
            step: settings.int("move") as u32,
            across: settings.int("across") as u32,
        };
        Crossing::new(rules, firer, settings.choice("range"), mover, path)
    }

    /// The mover's move a turn (inches).
    pub fn step(&self) -> u32 {
        self.step
    }

    /// The turns (1-based) in which the firer fires, should the mover still be crossing.
    pub fn volley_turns(&self) -> Vec<u32> {
        (1..).zip(&self.fires).filter(|&(_, &f)| f).map(|(t, _)| t).collect()
    }

    /// The firer's dice a volley and a die's chance to hit the mover as it
    /// is in turn 1 (a column is dense or not throughout; a line only where
    /// enfiladed: see [`Crossing::dense_turns`]).
    pub fn volley(&self) -> (u32, f64) {
        (self.dice, self.chance[usize::from(self.dense.first().copied().unwrap_or(false))])
    }

    /// The turns (1-based) in which the mover is a dense target (3.5), should
    /// it still be crossing.
    pub fn dense_turns(&self) -> Vec<u32> {
        (1..).zip(&self.dense).filter(|&(_, &d)| d).map(|(t, _)| t).collect()
    }

    /// The turn the mover is past the stretch.
    fn last_turn(&self) -> u32 {
        self.fires.len() as u32
    }

    fn code(&self, turn: u32, figures: u32, rout_hits: u32, end: End) -> u64 {
        let start = self.mover.figures;
        let volleys = self.fires.iter().take(turn as usize).filter(|&&f| f).count();
        let mut values = [0i64; 8];
        values[HITS] = i64::from(start - figures - rout_hits);
        values[ROUT_HITS] = i64::from(rout_hits);
        values[VOLLEYS] = volleys as i64;
        values[TURNS] = i64::from(turn);
        values[ARRIVED] = i64::from(end == End::Arrived);
        values[ROUTED] = i64::from(matches!(end, End::Routed | End::Shattered { routed: true }));
        values[SHATTERED] = i64::from(matches!(end, End::Shattered { .. }));
        values[REMAINING] = percent(figures, start);
        self.layout.encode(&values)
    }

    /// (pass score, morale modifier, rout modifier) of the mover testing with
    /// `figures` left after `hits` this phase.
    fn test_numbers(&self, figures: u32, hits: u32, charisma: i32) -> (i32, i32, i32) {
        let rules = &self.rules;
        let mover = self.mover;
        // 5.6: each 2 hits this phase, each 25% total losses, hard cover.
        let mut modifier = (hits / 2) as i32 * rules.morale_per_two_hits;
        modifier += Rules::quarters_lost(mover.figures, mover.figures - figures) * rules.morale_per_quarter_losses;
        if mover.target == Target::Hard {
            modifier += rules.morale_square_or_hard_cover;
        }
        let mut rout = rules.rout_grade(mover.grade);
        if figures * 2 <= mover.figures {
            // 5.7.2: at or below half strength.
            rout += rules.rout_half_strength;
        }
        let (morale_general, rout_general) = general_modifiers(rules, mover.general, true, charisma);
        (rules.morale_pass(mover.grade), modifier + morale_general, rout + rout_general)
    }

    /// A mover of `figures` takes `hits` in turn `turn`: the figures left, or
    /// the end code if they shatter it (5.3).
    fn after_hits(&self, turn: u32, figures: u32, hits: u32) -> Result<u32, u64> {
        let left = figures.saturating_sub(hits);
        if self.rules.is_shattered(self.mover.figures, self.mover.figures - left) {
            // 5.3: removed at once, no test.
            return Err(self.code(turn, left, 0, End::Shattered { routed: false }));
        }
        Ok(left)
    }

    /// The code of a failed test's rout, or `None` if it passed.
    fn after_test(&self, turn: u32, figures: u32, result: TestResult) -> Option<u64> {
        match result {
            TestResult::Pass => None,
            // 5.7.1: a score of 0 or less shatters it.
            TestResult::Rout(RoutRow::Shattered) => Some(self.code(turn, figures, 0, End::Shattered { routed: true })),
            TestResult::Rout(row) => {
                // 5.7.1: rout hits by its size at the test; they may shatter it (5.3).
                let rout_hits = self.rules.rout_hits(row, figures).min(figures);
                let left = figures - rout_hits;
                let end = if self.rules.is_shattered(self.mover.figures, self.mover.figures - left) {
                    End::Shattered { routed: true }
                } else {
                    End::Routed
                };
                Some(self.code(turn, left, rout_hits, end))
            }
        }
    }

    /// What turn `turn` does to a mover of `figures`: the exact law.
    fn turn_law(&self, figures: u32, turn: u32, charisma: i32) -> Vec<(Step<u32>, f64)> {
        let go_on = |left: u32| {
            if turn == self.last_turn() {
                Step::End(self.code(turn, left, 0, End::Arrived))
            } else {
                Step::Continue(left)
            }
        };
        if !self.fires[turn as usize - 1] {
            return vec![(go_on(figures), 1.0)];
        }
        let mut law = Vec::new();
        let chance = self.chance[usize::from(self.dense[turn as usize - 1])];
        for (h, ph) in Pmf::binomial(self.dice, chance).iter().filter(|&(_, p)| p > 0.0) {
            let hits = h as u32;
            let left = match self.after_hits(turn, figures, hits) {
                Err(code) => {
                    law.push((Step::End(code), ph));
                    continue;
                }
                Ok(left) => left,
            };
            if hits < self.rules.morale_test_shooting_hits {
                law.push((go_on(left), ph));
                continue;
            }
            let (pass, modifier, rout_modifier) = self.test_numbers(left, hits, charisma);
            for (result, p) in test_distribution(&self.rules, pass, modifier, rout_modifier) {
                match self.after_test(turn, left, result) {
                    Some(code) => law.push((Step::End(code), ph * p)),
                    None => law.push((go_on(left), ph * p)),
                }
            }
        }
        law
    }

    fn charisma_law(&self) -> Vec<(i32, f64)> {
        self.rules.general_charisma_law(self.mover.general, self.mover.charisma)
    }

    fn roll_charisma(&self, dice: &mut Dice) -> i32 {
        self.rules.roll_general_charisma(self.mover.general, self.mover.charisma, dice)
    }
}

/// 2.11: the move of a mover type (inches).
pub fn mover_move(rules: &Rules, kind: MoverType) -> u32 {
    match kind {
        MoverType::Column => rules.move_infantry_column,
        MoverType::Line => rules.move_infantry_line,
        MoverType::HeavyCavalry => rules.move_heavy_cavalry,
        MoverType::LightCavalry => rules.move_light_cavalry,
    }
}

/// Whether the firer fires in each turn of a crossing, up to the turn whose
/// move takes the mover past the stretch `[start, start + exposed]` (ends
/// included), moving `step` inches a turn. `stationary`: the firer did not
/// move, so 7.1 (if in use) and 3.8's wider reading may give it targets that
/// are not eligible at the end of the move.
pub fn fire_schedule(rules: &Rules, start: u32, exposed: u32, step: u32, stationary: bool) -> Vec<bool> {
    let end = start + exposed;
    // The first turn whose move ends past the stretch.
    let last = end / step + 1;
    (1..=last)
        .map(|turn| {
            let (from, to) = ((turn - 1) * step, turn * step);
            // 7.1 "normally", 3.8: eligible at the end of the move.
            let at_end = start <= to && to <= end;
            // Inches of this move inside the stretch.
            let inside = to.min(end).saturating_sub(from.max(start));
            // 7.1: eligible for at least half of the move (exactly half counts).
            let pass_through = rules.optional_pass_through_fire && inside * 100 >= rules.pass_through_percent * step;
            // 3.8, read literally: any target whose move met the stretch.
            let touched = from <= end && start <= to;
            let passed = rules.stationary_fire_targets == StationaryFireTargets::PassedThrough && touched;
            at_end || (stationary && (pass_through || passed))
        })
        .collect()
}

/// Whether a line marching along the path is dense (3.5: enfiladed at 22.5
/// degrees or less onto its flank) when each turn's volley strikes it. The
/// stretch in the field of fire is symmetric about the point of the path
/// straight ahead of the firer (range and arc both are), so that point is its
/// middle; the line of sight meets the line's front at 22.5 degrees or less
/// while the mover is within `across` x tan 22.5 degrees of it. A volley at
/// the end of the move strikes the mover where it stopped; a volley given
/// under 7.1 or 3.8's wider reading at a mover no longer eligible at the end
/// strikes it somewhere on the eligible part of its move, and the firer, who
/// chooses the moment, takes it on its flank if that part meets the
/// enfiladed stretch.
pub fn enfilade_schedule(rules: &Rules, path: Path, step: u32, stationary: bool) -> Vec<bool> {
    let fires = fire_schedule(rules, path.start, path.exposed, step, stationary);
    let (start, end) = (f64::from(path.start), f64::from(path.start + path.exposed));
    let middle = (start + end) / 2.0;
    let half = f64::from(path.across) * std::f64::consts::FRAC_PI_8.tan();
    (1..=fires.len() as u32)
        .map(|turn| {
            let (from, to) = (f64::from((turn - 1) * step), f64::from(turn * step));
            if !fires[turn as usize - 1] {
                // No volley this turn: nothing strikes it.
                false
            } else if start <= to && to <= end {
                (to - middle).abs() <= half + 1e-9
            } else {
                // The eligible part of the move, [max(from, start), min(to, end)].
                let (low, high) = (from.max(start), to.min(end));
                low <= high && low <= middle + half + 1e-9 && middle - half - 1e-9 <= high
            }
        })
        .collect()
}

impl Scenario for Crossing {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let charisma = self.roll_charisma(dice);
        let mut figures = self.mover.figures;
        for turn in 1..=self.last_turn() {
            if self.fires[turn as usize - 1] {
                let faces = &self.faces[usize::from(self.dense[turn as usize - 1])];
                let mut hits = 0;
                for _ in 0..self.dice {
                    hits += u32::from(faces[dice.d10() as usize - 1]);
                }
                figures = match self.after_hits(turn, figures, hits) {
                    Err(code) => return code,
                    Ok(left) => left,
                };
                if hits >= self.rules.morale_test_shooting_hits {
                    let (pass, modifier, rout_modifier) = self.test_numbers(figures, hits, charisma);
                    let result = roll_test(&self.rules, dice, pass, modifier, rout_modifier);
                    if let Some(code) = self.after_test(turn, figures, result) {
                        return code;
                    }
                }
            }
        }
        self.code(self.last_turn(), figures, 0, End::Arrived)
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        // The chain's state is the mover's figures: the firer never changes,
        // and the turn fixes where the mover is and whether it is shot at.
        let mut total: HashMap<u64, f64> = HashMap::new();
        for (charisma, pc) in self.charisma_law() {
            let ends = absorb(
                self.mover.figures,
                self.last_turn(),
                |&figures, turn| self.turn_law(figures, turn, charisma),
                |&figures| self.code(self.last_turn(), figures, 0, End::Arrived),
            );
            for (code, p) in ends {
                *total.entry(code).or_insert(0.0) += pc * p;
            }
        }
        Some(total.into_iter().collect())
    }
}
