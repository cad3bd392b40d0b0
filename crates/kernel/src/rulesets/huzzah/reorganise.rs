//! Reorganising a command that has left the battlefield ("Reorganise"): the
//! player waits some turns, then rolls 2D6 at or under the officer's rating,
//! Up 1 for each turn waited since the command left or since the last failed
//! attempt. On success every unit takes a kill for each attempt (none on a
//! Huzzah!), and a unit that reaches its full rating in kills is destroyed.
//!
//! The player's waiting is the scenario's policy: `first_wait` turns before
//! the first attempt, then `wait` turns after each failure, until the turn
//! limit. The turn the command left is turn 0 (an attempt that turn, possible
//! after a failed command check, has waited no turns). Each attempt is one
//! roll, so the exact answer is a product over attempts, turn by turn.

use super::{Quality, Rules, invalid, pair_is_huzzah, pair_total, quality_param};
use crate::catalogue::ScenarioEntry;
use crate::dice::Dice;
use crate::outcome::{Layout, Metric};
use crate::params::{Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::{DynScenario, Scenario};

crate::choice_enum! {
    /// The level of a command that reorganises (the army cannot: "A broken army has lost!").
    pub enum CommandLevel {
        /// A brigade: no modifier.
        Brigade = "brigade",
        /// A division: Down 1.
        Division = "division",
        /// A corps: Down 3.
        Corps = "corps",
    }
}

/// A command off the table and the player's plan for reorganising it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retreated {
    /// The officer's command rating, 6 to 10.
    pub rating: i32,
    /// Sub-commands that broke or routed (Down 1 each).
    pub broken: i32,
    /// The command's level.
    pub level: CommandLevel,
    /// More units retired than broke or routed (Up 1).
    pub more_retired: bool,
    /// The officer is inspirational (Up 1).
    pub inspirational: bool,
    /// Turns waited before the first attempt (0: on the turn it left).
    pub first_wait: u32,
    /// Turns waited after each failed attempt before the next (at least 1).
    pub wait: u32,
    /// The quality of the unit whose fate the `unit_destroyed` metric follows.
    pub unit_quality: Quality,
    /// That unit's kills when it left the battlefield.
    pub unit_kills: i32,
}

/// What one attempt at reorganising does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Attempt {
    Fails,
    Succeeds,
    /// "A Huzzah! result immediately reorganises a command. Units take no
    /// extra kills for the number of attempts."
    Huzzah,
}

/// The `reorganise` scenario.
#[derive(Clone, Debug)]
pub struct Reorganise {
    rules: Rules,
    command: Retreated,
    turns: u32,
    /// The rating without turns waited.
    base: i32,
    layout: Layout,
}

impl Reorganise {
    /// A command reorganising within `turns` turns (1-40) of leaving the table.
    pub fn new(rules: &Rules, command: Retreated, turns: u32) -> Result<Self, ParamError> {
        if !(6..=10).contains(&command.rating) {
            return Err(invalid("rating", "command ratings run from 6 to 10"));
        }
        if !(0..=10).contains(&command.broken) {
            return Err(invalid("broken", "broken or routed sub-commands run from 0 to 10"));
        }
        if command.first_wait > 40 || !(1..=40).contains(&command.wait) {
            return Err(invalid("wait", "first_wait runs from 0 to 40 turns, wait from 1 to 40"));
        }
        if !(1..=40).contains(&turns) {
            return Err(invalid("turns", "the turn limit must be 1 to 40"));
        }
        let full = rules.full_rating(command.unit_quality);
        if !(0..full).contains(&command.unit_kills) {
            return Err(invalid(
                "unit_kills",
                format!("a unit's kills run from 0 to {} (at {full} it is destroyed)", full - 1),
            ));
        }
        // "Reorganise", Procedure: a simple plus and minus on the command rating.
        let mut base = command.rating - command.broken * rules.reorganise_broken_down;
        base -= match command.level {
            CommandLevel::Brigade => 0,
            CommandLevel::Division => rules.reorganise_division_down,
            CommandLevel::Corps => rules.reorganise_corps_down,
        };
        if command.more_retired {
            base += rules.reorganise_more_retired_up;
        }
        if command.inspirational {
            base += rules.reorganise_inspirational_up;
        }
        let attempts = i64::from(turns) + 1;
        let metrics = vec![
            Metric::boolean("reorganised", "whether the command reorganises within the turn limit"),
            Metric::integer(
                "turns",
                "turns after leaving the table of the attempt that succeeds (the limit if none does); its officer enters the next turn and it can be ordered the turn after",
                0,
                i64::from(turns),
            ),
            Metric::integer("attempts", "attempts made at reorganising", 0, attempts),
            Metric::integer(
                "kills",
                "kills each unit takes on reorganising: one per attempt, none on a Huzzah! (0 if it never reorganises)",
                0,
                attempts,
            ),
            Metric::boolean(
                "unit_destroyed",
                "whether the unit of unit_quality and unit_kills reaches its full rating in kills and is destroyed",
            ),
        ];
        Ok(Reorganise { rules: rules.clone(), command, turns, base, layout: Layout::new(metrics) })
    }

    /// The effective rating of an attempt after `waited` turns ("Up 1 for each turn waited").
    pub fn rating(&self, waited: u32) -> i32 {
        self.base + waited as i32 * self.rules.reorganise_turn_waited_up
    }

    /// The turns of the attempts and the turns waited before each.
    fn schedule(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        let first = (self.command.first_wait, self.command.first_wait);
        std::iter::successors(Some(first), |&(turn, _)| Some((turn + self.command.wait, self.command.wait)))
            .take_while(|&(turn, _)| turn <= self.turns)
    }

    /// One roll at `rating`: "The command reorganises if the result is equal
    /// to or less than the officer's effective command rating. A roll of 11 or
    /// 12 always fails."
    fn attempt(&self, rating: i32, pair: u32) -> Attempt {
        if pair_is_huzzah(pair) {
            Attempt::Huzzah
        } else if self.rules.passes(pair_total(pair), rating) {
            Attempt::Succeeds
        } else {
            Attempt::Fails
        }
    }

    /// The code of the end: `done` is the turn and the last attempt's result,
    /// `None` if no attempt succeeded.
    fn code(&self, attempts: u32, done: Option<(u32, Attempt)>) -> u64 {
        let (reorganised, turn, kills) = match done {
            None => (false, self.turns, 0),
            Some((turn, Attempt::Huzzah)) => (true, turn, 0),
            Some((turn, _)) => (true, turn, attempts as i32 * self.rules.reorganise_attempt_kills),
        };
        // "Any units that break as a result are destroyed": their staggers are
        // removed, so kills alone reach the full rating.
        let destroyed =
            reorganised && self.command.unit_kills + kills >= self.rules.full_rating(self.command.unit_quality);
        self.layout.encode(&[
            i64::from(reorganised),
            i64::from(turn),
            i64::from(attempts),
            i64::from(kills),
            i64::from(destroyed),
        ])
    }
}

impl Scenario for Reorganise {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let mut attempts = 0;
        for (turn, waited) in self.schedule() {
            attempts += 1;
            let result = self.attempt(self.rating(waited), dice.two_d6_index());
            if result != Attempt::Fails {
                return self.code(attempts, Some((turn, result)));
            }
        }
        self.code(attempts, None)
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        // Each attempt in turn over the 36 pairs: the chance of getting this
        // far times the chance of each result.
        let mut ends = Vec::new();
        let mut failed_so_far = 1.0;
        let mut attempts = 0;
        for (turn, waited) in self.schedule() {
            attempts += 1;
            let rating = self.rating(waited);
            let mut ways = [0u32; 3];
            for pair in 0..36 {
                ways[self.attempt(rating, pair) as usize] += 1;
            }
            for result in [Attempt::Succeeds, Attempt::Huzzah] {
                let p = failed_so_far * f64::from(ways[result as usize]) / 36.0;
                if p > 0.0 {
                    ends.push((self.code(attempts, Some((turn, result))), p));
                }
            }
            failed_so_far *= f64::from(ways[Attempt::Fails as usize]) / 36.0;
        }
        if failed_so_far > 0.0 {
            ends.push((self.code(attempts, None), failed_so_far));
        }
        Some(ends)
    }
}

fn build(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let command = Retreated {
        rating: settings.int("rating") as i32,
        broken: settings.int("broken") as i32,
        level: settings.choice("level"),
        more_retired: settings.bool("more_retired"),
        inspirational: settings.bool("inspirational"),
        first_wait: settings.int("first_wait") as u32,
        wait: settings.int("wait") as u32,
        unit_quality: settings.choice("unit_quality"),
        unit_kills: settings.int("unit_kills") as i32,
    };
    Ok(Box::new(Reorganise::new(rules_of::<Rules>(rules), command, settings.int("turns") as u32)?))
}

/// The `reorganise` scenario; its defaults are the rules' example (an Average
/// brigade officer, two sub-commands broke or routed, more retired, waiting
/// one turn and then two).
pub fn entry() -> ScenarioEntry {
    ScenarioEntry {
        name: "reorganise",
        summary: "A command off the table tries to reorganise after waiting: when it comes back and the kills each unit takes.",
        params: vec![
            Param::int("rating", "the officer's command rating, 6 to 10", 8, 6, 10),
            Param::int("broken", "sub-commands that broke or routed (Down 1 each)", 2, 0, 10),
            Param::choice("level", "the command: brigade, division (Down 1) or corps (Down 3)", CommandLevel::Brigade),
            Param::boolean("more_retired", "more units retired than broke or routed (Up 1)", true),
            Param::boolean("inspirational", "an inspirational officer (Up 1)", false),
            Param::int(
                "first_wait",
                "turns waited before the first attempt (Up 1 each; 0: the turn it left)",
                1,
                0,
                40,
            ),
            Param::int("wait", "turns waited after each failed attempt (Up 1 each)", 2, 1, 40),
            quality_param("unit_quality".into(), Quality::Trained),
            Param::int("unit_kills", "kills that unit had when it left the table", 0, 0, 9),
            Param::int("turns", "the turn limit, counted from the turn the command left", 12, 1, 40),
        ],
        build,
    }
}
