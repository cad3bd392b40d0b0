//! Reorganising a command that has left the battlefield ("Reorganise"), as a
//! game: each turn the player attempts or waits. An attempt is 2D6 at or
//! under the officer's rating, Up 1 for each turn waited since the command
//! left or since the last failed attempt; on success every unit takes a kill
//! for each attempt (none on a Huzzah!), and a unit that reaches its full
//! rating in kills is destroyed.
//!
//! # Turns
//!
//! The turn the command left is turn 0 and the turn limit (`turns`) is the
//! last turn on which it may attempt, so the game has `turns + 1` turns. An
//! attempt on turn 0, possible "if it does so as a result of a failed
//! command check", has waited no turns ("Turns waited"). Each later turn adds
//! a turn waited, and a failed attempt starts the count again: the turn after
//! it has waited one turn (the rules' example waits one turn, fails at 8,
//! waits two more and succeeds at 9).
//!
//! # The decision
//!
//! Each turn the command is still off the table its player takes one
//! decision, [`ATTEMPT_DECISION`]: `wait` (Up 1 next turn) or `attempt now`,
//! in that order, so that options worth the same are settled by waiting. A
//! tie means the attempt buys nothing the objective counts, and every
//! attempt that succeeds costs every unit of the command a kill, of which
//! the objective counts only the followed unit's. The player plays the
//! attacker's part (side 0, `attacker.policy`, `attacker.objective`); the
//! enemy takes no decision here, so the scenario has no defender keys.
//!
//! # Winning
//!
//! A game's objectives are a side's chance of winning minus its chance of
//! losing (`margin`) or its chance of winning (`win`), so the scenario says
//! which ends are wins. It follows one unit of the command (`unit_quality`,
//! `unit_kills`: the unit nearest its full rating in kills is the one the
//! attempts put at risk first), and reads:
//!
//! - **attacker** (the reorganising player wins): the command reorganises
//!   within the turn limit and the followed unit survives its kills;
//! - **none**: the command reorganises within the limit, but the attempts'
//!   kills destroy the followed unit ("Any units that break as a result are
//!   destroyed and are permanently removed; the command enters without
//!   them");
//! - **defender** (the enemy's gain): the command is still off the table at
//!   the limit.
//!
//! Under `margin` a command back without the followed unit is worth half way
//! between a command back whole and no command at all, which is the order a
//! player would put them in: a brigade short of a battalion is still a
//! brigade. Under `win` only a whole command in time counts. Kills that
//! destroy nothing weigh nothing: the objectives count ends, not kills, and
//! a unit's kills below its full rating change no end of this scenario. So a
//! player with nothing to lose (the followed unit far from its full rating)
//! attempts as often as it can, and one with a worn unit to lose waits for
//! a good chance; the `kills` metric reports the cost either way.
//!
//! # Policies
//!
//! - `bold` attempts every turn, from turn 0: the old fixed schedule of no
//!   first wait and one turn between attempts.
//! - `cautious` waits until an attempt would succeed (a Huzzah! included) at
//!   least [`CAUTIOUS_SUCCESS_WAYS`] times in 36 (5 in 6: an effective
//!   rating of 9 or more under the printed rules), or as often as the
//!   longest wait the turn limit allows would make it, whichever is less,
//!   and attempts on the last turn whatever the chance, since waiting then
//!   gains nothing. Where the last turn falls on its schedule this is the
//!   old fixed schedule with the same first wait and wait (two and two for
//!   the rules' example command).
//! - `best`: backward induction over (turn, turns waited, attempts made);
//!   at most 41 × 41 × 42 states, solved in an instant.
//!
//! Each attempt is one roll of 2D6, drawn as three outcomes (fails,
//! succeeds, a Huzzah!).

use super::{Quality, Rules, invalid, pair_is_huzzah, pair_total, quality_param};
use crate::catalogue::ScenarioEntry;
use crate::game::{self, ATTACKER, Decision, End, Fate, Game, Objective, Plan, Played, Policy};
use crate::outcome::{Layout, Metric, WINNERS};
use crate::params::{Choice, Param, ParamError, RuleBook, Settings, rules_of};
use crate::scenario::DynScenario;

/// The longest turn limit.
pub const MAX_TURNS: u32 = 40;

/// `cautious` attempts once an attempt succeeds at least this many times in 36.
pub const CAUTIOUS_SUCCESS_WAYS: u32 = 30;

/// Option codes, in the order ties are broken.
pub const WAIT: u16 = 0;
/// Attempt to reorganise now.
pub const ATTEMPT: u16 = 1;

/// The player's choice each turn the command is off the table.
pub static ATTEMPT_DECISION: Decision = Decision {
    name: "attempt",
    who: "attacker",
    doc: "The player of a command off the table attempts to reorganise it or waits a turn: \"Up 1 for each turn \
          waited\" since it left or since the last failed attempt, but every unit takes a kill for each attempt \
          made (none on a Huzzah!) and the command stays off the table while it waits (\"Reorganise\").",
    options: "wait (Up 1 next turn); attempt now",
};

/// The decisions of `reorganise`.
pub static DECISIONS: &[&Decision] = &[&ATTEMPT_DECISION];

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

/// A command off the table.
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
    /// The quality of the unit the scenario follows (the `unit_destroyed`
    /// metric, and the end between a win and none).
    pub unit_quality: Quality,
    /// That unit's kills when it left the battlefield.
    pub unit_kills: i32,
}

/// What one attempt at reorganising does (the codes of its grouped draw).
const FAILS: u64 = 0;
const SUCCEEDS: u64 = 1;
/// "A Huzzah! result immediately reorganises a command. Units take no extra
/// kills for the number of attempts."
const HUZZAH: u64 = 2;

/// The state at the start of a turn (or, after the last step, at the end).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The turn about to be played (0: the turn the command left).
    pub turn: u8,
    /// Turns waited since the command left or since the last failed attempt.
    pub waited: u8,
    /// Attempts made so far.
    pub attempts: u8,
    /// How the last attempt went: [`FAILS`] while the command is off the table.
    result: u8,
}

/// The `reorganise` game: a command off the table and the turns it has to come back.
#[derive(Clone, Debug)]
pub struct Reorganise {
    /// What each side must achieve (the scenario's `purpose` key).
    purpose: game::Purpose,
    rules: Rules,
    command: Retreated,
    turns: u32,
    /// The rating without turns waited.
    base: i32,
    /// For each number of turns waited (0 to `turns`), the ways of 36 an
    /// attempt fails, succeeds and succeeds with a Huzzah!.
    ways: Vec<[u32; 3]>,
    /// The fewest ways of 36 to succeed at which `cautious` attempts.
    cautious_ways: u32,
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
        if !(1..=MAX_TURNS).contains(&turns) {
            return Err(invalid("turns", format!("the turn limit must be 1 to {MAX_TURNS}")));
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
            Metric::categories(
                "winner",
                "attacker: the command reorganised within the turn limit and the followed unit survived; none: it \
                 reorganised but the attempts' kills destroyed that unit; defender: still off the table at the limit",
                WINNERS,
            ),
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
                attempts * i64::from(rules.reorganise_attempt_kills.max(0)),
            ),
            Metric::boolean(
                "unit_destroyed",
                "whether the unit of unit_quality and unit_kills reaches its full rating in kills and is destroyed",
            ),
        ];
        let mut reorganise = Reorganise {
            purpose: game::Purpose::Manoeuvre,
            rules: rules.clone(),
            command,
            turns,
            base,
            ways: Vec::new(),
            cautious_ways: 0,
            layout: Layout::new(metrics),
        };
        reorganise.ways = (0..=turns).map(|waited| reorganise.ways_at(reorganise.rating(waited))).collect();
        let longest_wait = reorganise.ways[turns as usize];
        reorganise.cautious_ways = CAUTIOUS_SUCCESS_WAYS.min(longest_wait[1] + longest_wait[2]);
        Ok(reorganise)
    }

    /// The effective rating of an attempt after `waited` turns ("Up 1 for each turn waited").
    pub fn rating(&self, waited: u32) -> i32 {
        self.base + waited as i32 * self.rules.reorganise_turn_waited_up
    }

    /// The ways of 36 an attempt at `rating` fails, succeeds, and succeeds
    /// with a Huzzah!: "The command reorganises if the result is equal to or
    /// less than the officer's effective command rating. A roll of 11 or 12
    /// always fails."
    fn ways_at(&self, rating: i32) -> [u32; 3] {
        let mut ways = [0; 3];
        for pair in 0..36 {
            ways[self.attempt(rating, pair) as usize] += 1;
        }
        ways
    }

    /// One roll at `rating`, as a pair index.
    fn attempt(&self, rating: i32, pair: u32) -> u64 {
        if pair_is_huzzah(pair) {
            HUZZAH
        } else if self.rules.passes(pair_total(pair), rating) {
            SUCCEEDS
        } else {
            FAILS
        }
    }

    /// The ways of 36 an attempt succeeds (a Huzzah! included) after `waited` turns.
    pub fn success_ways(&self, waited: u32) -> u32 {
        let ways = self.ways[waited as usize];
        ways[1] + ways[2]
    }

    /// The kills each unit takes when the `attempts`-th attempt succeeds
    /// without a Huzzah!: "kills equal to the number of attempts made".
    fn kills_on_success(&self, attempts: u32) -> i32 {
        attempts as i32 * self.rules.reorganise_attempt_kills
    }

    /// Whether `kills` more destroy the followed unit: "Any units that break
    /// as a result are destroyed"; their staggers are removed, so kills alone
    /// reach the full rating.
    fn destroys(&self, kills: i32) -> bool {
        self.command.unit_kills + kills >= self.rules.full_rating(self.command.unit_quality)
    }

    /// What a heuristic policy picks (see the module documentation).
    fn heuristic(&self, state: &State, policy: Policy) -> u16 {
        match policy {
            Policy::Bold => ATTEMPT,
            _ if u32::from(state.turn) == self.turns => ATTEMPT,
            _ if self.success_ways(u32::from(state.waited)) >= self.cautious_ways => ATTEMPT,
            _ => WAIT,
        }
    }

    /// The kills each unit takes on the end `state` reached.
    fn kills(&self, state: &State) -> i32 {
        match u64::from(state.result) {
            SUCCEEDS => self.kills_on_success(u32::from(state.attempts)),
            _ => 0,
        }
    }
}

impl Reorganise {
    /// This fight under `purpose`: what each side must achieve by the turn
    /// limit ([`crate::game::Purpose`]).
    pub fn with_purpose(mut self, purpose: game::Purpose) -> Self {
        self.purpose = purpose;
        self
    }
}

impl Game for Reorganise {
    type State = State;

    fn purpose(&self) -> game::Purpose {
        self.purpose
    }

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn start(&self) -> State {
        State { turn: 0, waited: 0, attempts: 0, result: FAILS as u8 }
    }

    fn steps(&self) -> u32 {
        self.turns + 1
    }

    fn step<F: Fate>(&self, state: &mut State, fate: &mut F) -> Option<End> {
        let now = *state;
        let chosen = fate.decide(ATTACKER, &ATTEMPT_DECISION, &[WAIT, ATTEMPT], &|policy| self.heuristic(&now, policy));
        state.turn += 1;
        if chosen == WAIT {
            state.waited += 1;
            return None;
        }
        let ways = self.ways[usize::from(now.waited)];
        let result = fate.draw_grouped(
            |dice| {
                let rating = self.rating(u32::from(now.waited));
                self.attempt(rating, dice.two_d6_index())
            },
            || (0..3u64).filter(|&r| ways[r as usize] > 0).map(|r| (r, f64::from(ways[r as usize]) / 36.0)).collect(),
        );
        state.attempts += 1;
        if result == FAILS {
            // "Each turn waited either since the command left the battlefield
            // or since the previous (failed!) attempt": next turn has waited one.
            state.waited = 1;
            return None;
        }
        state.result = result as u8;
        // A command back without the followed unit is nobody's win: both
        // the player's aim and the unit are lost.
        Some(if self.destroys(self.kills(state)) { End::BothBroke } else { End::Attacker })
    }

    fn code(&self, winner: u8, steps: u32, state: &State) -> u64 {
        let reorganised = u64::from(state.result) != FAILS;
        let kills = self.kills(state);
        let destroyed = reorganised && self.destroys(kills);
        self.layout.encode(&[
            i64::from(winner),
            i64::from(reorganised),
            // The turn of the last step played: the limit if none succeeded.
            i64::from(steps - 1),
            i64::from(state.attempts),
            i64::from(kills),
            i64::from(destroyed),
        ])
    }

    fn at_limit(&self, _state: &State) -> End {
        // Still off the table at the limit: the enemy's gain.
        End::Defender
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        DECISIONS
    }

    fn fallback(&self) -> Policy {
        Policy::Cautious
    }

    fn describe_state(&self, state: &State, _side: u8) -> String {
        let waited = u32::from(state.waited);
        let plural = |n: i32, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let kills = self.kills_on_success(u32::from(state.attempts) + 1);
        let full = self.rules.full_rating(self.command.unit_quality);
        let followed = self.command.unit_kills + kills;
        format!(
            "turn {} of {}, {} waited: an attempt at rating {} succeeds {} in 36 (a Huzzah! 1 in 36); {} made, so a \
             success now costs each unit {} (the followed {} unit then {} of {full}{})",
            state.turn,
            self.turns,
            plural(waited as i32, "turn"),
            self.rating(waited),
            self.success_ways(waited),
            plural(i32::from(state.attempts), "attempt"),
            plural(kills, "kill"),
            self.command.unit_quality.name(),
            followed.min(full),
            if followed >= full { ": destroyed" } else { "" },
        )
    }

    fn describe_option(&self, _: &'static Decision, option: u16) -> String {
        match option {
            WAIT => "wait (Up 1 next turn)".into(),
            _ => "attempt now".into(),
        }
    }
}

/// The keys the fixed schedule had, which the player's policy replaced.
const RETIRED: &[&str] = &["first_wait", "wait"];

/// The player's policy and objective keys (the attacker's of
/// [`game::plan_params`], with docs of their own), naming the retired keys.
fn plan_params() -> Vec<Param> {
    let retired: Vec<String> = RETIRED.iter().map(|key| format!("`{key}`")).collect();
    game::plan_params()
        .into_iter()
        .filter(|p| p.name.starts_with("attacker."))
        .map(|mut p| {
            p.doc = if p.name == "attacker.policy" {
                format!(
                    "how the reorganising player decides each turn to attempt or wait: best (backward induction), \
                     bold (attempts every turn from the turn it left) or cautious (waits until an attempt succeeds \
                     at least {CAUTIOUS_SUCCESS_WAYS} times in 36, or the last turn); it replaces the retired keys \
                     {}: the fixed waits are now the player's decision (bold is the old first_wait 0 and wait 1)",
                    retired.join(", ")
                )
            } else {
                "what the reorganising player maximises under best play: margin (back within the limit with the \
                 followed unit, less still off the table at the limit) or win (back with the followed unit)"
                    .to_string()
            };
            p
        })
        .collect()
}

fn build(rules: &dyn RuleBook, settings: &Settings) -> Result<Box<dyn DynScenario>, ParamError> {
    let command = Retreated {
        rating: settings.int("rating") as i32,
        broken: settings.int("broken") as i32,
        level: settings.choice("level"),
        more_retired: settings.bool("more_retired"),
        inspirational: settings.bool("inspirational"),
        unit_quality: settings.choice("unit_quality"),
        unit_kills: settings.int("unit_kills") as i32,
    };
    let reorganise = Reorganise::new(rules_of::<Rules>(rules), command, settings.int("turns") as u32)?;
    // The enemy takes no decision: its policy is never asked.
    let plan = Plan {
        policy: [settings.choice("attacker.policy"), Policy::Best],
        objective: [settings.choice("attacker.objective"), Objective::Margin],
    };
    Ok(Box::new(Played::new(reorganise.with_purpose(game::Purpose::from_settings(settings)), plan)))
}

/// The `reorganise` scenario; its defaults are the rules' example (an Average
/// brigade officer, two sub-commands broke or routed, more retired).
pub fn entry() -> ScenarioEntry {
    let mut params = vec![
        Param::int("rating", "the officer's command rating, 6 to 10", 8, 6, 10),
        Param::int("broken", "sub-commands that broke or routed (Down 1 each)", 2, 0, 10),
        Param::choice("level", "the command: brigade, division (Down 1) or corps (Down 3)", CommandLevel::Brigade),
        Param::boolean("more_retired", "more units retired than broke or routed (Up 1)", true),
        Param::boolean("inspirational", "an inspirational officer (Up 1)", false),
        quality_param("unit_quality".into(), Quality::Trained),
        Param::int(
            "unit_kills",
            "kills the followed unit had when it left the table (follow the one nearest its full rating)",
            0,
            0,
            9,
        ),
        Param::int(
            "turns",
            "the turn limit, counted from the turn the command left (turn 0)",
            12,
            1,
            i64::from(MAX_TURNS),
        ),
    ];
    params.extend(plan_params());
    params.push(game::purpose_key(
        game::Purpose::Attack,
        "reorganise the command with the followed unit alive",
        "the command must come back within the limit and with the unit followed; anything else is the enemy's gain",
    ));
    ScenarioEntry {
        name: "reorganise",
        summary: "A command off the table: each turn its player attempts to reorganise or waits (Up 1), as its \
                  policy decides; when it comes back and the kills each unit takes.",
        params,
        build,
    }
}
