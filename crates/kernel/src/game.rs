//! Multi-turn fights as games: a fight described once, as steps of chance and
//! named decisions, gives the Monte Carlo sampler, the exact distribution under
//! given policies, and best play.
//!
//! # The model
//!
//! A [`Game`] has states and a turn limit counted in steps (a step is whatever
//! the ruleset's turn is made of: a side turn, a phase). [`Game::step`] plays
//! one step from a state against a [`Fate`], which supplies every chance (a die,
//! a `k` in `n` chance, a draw from a [`Law`]) and every choice: a call to
//! [`Fate::decide`] names the [`Decision`], the side that takes it, the legal
//! options (small integers the game interprets, listed in the order ties are
//! broken) and the side's heuristics. The step ends the fight with a winner or
//! leaves a new state.
//!
//! The same step function is run three ways:
//!
//! - **sampling** ([`play`]): real dice; a side playing a heuristic picks by
//!   it, a side playing `best` looks its choice up in the solved table, so that
//!   exact and sampled answers describe the same play;
//! - **enumeration**: every branch of every chance and of every `best`
//!   decision, depth first, gives each state's law as a small tree of chance and
//!   decision nodes ([`Graph`]);
//! - **solving** ([`Solution`]): backward induction over turn-indexed states.
//!   At the limit a state is worth nothing to either side (or what
//!   [`Game::at_limit`] says); a step earlier, each chance node is worth the
//!   average of its branches and each decision node the option its side prefers,
//!   given best play by both afterwards. The table of choices is then walked
//!   forwards to give the exact distribution of outcome codes, and sampled by
//!   [`play`].
//!
//! # Turns of several steps
//!
//! A step is usually a whole turn. A turn with many chances one after
//! another (a threat test, then orders until one fails, each followed by a
//! bombardment, then an engagement) is better cut into several steps, one
//! per phase or roll: a game says which states start a turn
//! ([`Game::starts_turn`]), and the solver keeps the states within a turn
//! as states of their own, so that equal situations reached by different
//! rolls merge instead of the turn's every sequence of rolls being
//! enumerated as one tree. The turn limit still counts turns. Backward
//! induction then takes each turn in two parts: the states within it, in an
//! order that puts every state after those that lead to it (each run of
//! equal height in parallel), then the states that start it. Steps within a
//! turn must never come back to a state: the solver panics naming it.
//!
//! # Grouped draws
//!
//! A roll whose many values lead to a few places (2D6 against a rating:
//! pass, fail, a Huzzah!; a chain of rolls after it) is best given as one
//! [`Fate::draw_grouped`]: the step works out the law of the places itself,
//! once, where the enumeration first meets it, and is replayed once per
//! place rather than once per value; the value drawn may be the place
//! itself, so that a replay need not work out again where the roll leads. A
//! sampler rolls the dice as they come.
//!
//! A grouped draw that ends the step is best given as a
//! [`Fate::draw_last`], whose values are where the step leads (the winner,
//! and the state after it): the enumeration then takes every value as a
//! branch at once, and replays the step once per decision option rather
//! than once per place (the default Huzzah! assault's 0.97 M states take
//! 1.5 M replays rather than 5.7 M). A step that takes a chance or a choice
//! after its last draw is refused (a panic), not enumerated wrongly.
//!
//! # Purposes, objectives and ties
//!
//! A step that ends the fight says how ([`End`]): a side beat the other
//! (routed, broke or destroyed it, or took its aim), a side left of its own
//! accord, both broke at once, or (at the turn limit, [`Game::at_limit`])
//! the limit came first. The fight's [`Purpose`] then says who won: an
//! **attack** gives the attacker only what it achieves by the limit and
//! everything else to the defender (zero-sum on the attacker's success); a
//! **stand-up** fight makes leaving as bad as being driven off, the limit a
//! draw; a **manoeuvring** fight counts only outright wins, anything else a
//! draw. Every game reports the ending as its `ended` metric, after its own
//! ([`Played`]), so that `none` is never a bag of different things.
//!
//! A side playing `best` maximises, by default, its chance of winning under
//! the purpose minus its chance of losing ([`Objective::Margin`]);
//! [`Objective::Win`] counts its own wins only. Options it values alike
//! (within [`TIE`]) are decided by secondary aims, in order: its margin of
//! outright wins (routing the enemy, not being routed, whatever the purpose
//! makes of the other endings), then the turns still to play: fewer where
//! that margin is not negative (a side with something to gain ends the
//! fight sooner), more where it is (a side with something to lose draws it
//! out). Only options equal on all three go to the one listed first, so
//! that a solve is still reproducible to the bit; `explain` marks the
//! options that tie ([`Tie`]).

//! # When the solver cannot
//!
//! A graph larger than [`Game::state_budget`] is not solved, nor one the
//! game says is beyond the solver ([`Game::solvable`]): a side asked
//! to play `best` then plays the game's [`Game::fallback`] heuristic
//! instead, which [`Played::policies`] reports, and the exact answer, where
//! there is one, is that of the play played.

use crate::dice::Dice;
use crate::outcome::{CodeHasher, Layout};
use crate::params::{Param, Settings};
use crate::scenario::Scenario;
use rayon::prelude::*;
use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hash};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

/// The attacker, as a side index and a winner code (the order of
/// [`WINNERS`](crate::outcome::WINNERS)).
pub const ATTACKER: u8 = 0;
/// The defender.
pub const DEFENDER: u8 = 1;
/// Nobody: the winner code of a fight that neither side won under its
/// [`Purpose`] (a draw at the limit of a stand-up fight, say).
pub const NONE: u8 = 2;

/// How a fight ended, as a step reports it: who beat whom, or why nobody
/// did. The fight's [`Purpose`] then says who won ([`Purpose::winner`]),
/// and the `ended` metric reports it ([`ENDED`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum End {
    /// The attacker achieved its aim: it routed, broke or destroyed the
    /// defender, or took or crossed what it attacked.
    Attacker = 0,
    /// The defender routed, broke or destroyed the attacker.
    Defender = 1,
    /// The attacker left the fight of its own accord (broke off, retired out of it).
    AttackerLeft = 2,
    /// The defender left the fight of its own accord (gave up its ground).
    DefenderLeft = 3,
    /// Both sides broke, routed or were destroyed in the same step.
    BothBroke = 4,
    /// The turn limit came with the fight still going.
    Limit = 5,
}

/// The number of [`End`]s.
pub const END_COUNT: usize = 6;

impl End {
    /// Every ending, by code.
    pub const ALL: [End; END_COUNT] =
        [End::Attacker, End::Defender, End::AttackerLeft, End::DefenderLeft, End::BothBroke, End::Limit];

    /// Side `side` ([`ATTACKER`] or [`DEFENDER`]) beat the other.
    #[inline]
    pub fn won_by(side: u8) -> End {
        if side == ATTACKER { End::Attacker } else { End::Defender }
    }

    /// Side `side` left the fight of its own accord.
    #[inline]
    pub fn left_by(side: u8) -> End {
        if side == ATTACKER { End::AttackerLeft } else { End::DefenderLeft }
    }

    /// The ending of code `code` (`end as u8`).
    #[inline]
    pub fn from_code(code: u8) -> End {
        End::ALL[code as usize]
    }

    /// The side that beat the other, where one did.
    #[inline]
    pub fn beaten_by(self) -> Option<u8> {
        match self {
            End::Attacker => Some(ATTACKER),
            End::Defender => Some(DEFENDER),
            _ => None,
        }
    }

    /// Its index in [`ENDED`]: a side beating the other is `decided`
    /// whichever side it was (the `winner` metric says which).
    pub fn ended_index(self) -> u64 {
        match self {
            End::Attacker | End::Defender => 0,
            End::AttackerLeft => 1,
            End::DefenderLeft => 2,
            End::BothBroke => 3,
            End::Limit => 4,
        }
    }
}

/// The labels of the `ended` metric every game reports, in the order of
/// [`End::ended_index`].
pub const ENDED: &[&str] = &["decided", "attacker_left", "defender_left", "both_broke", "limit"];

/// The `ended` metric: why the fight ended.
pub const ENDED_METRIC: crate::outcome::Metric = crate::outcome::Metric::categories(
    "ended",
    "why the fight ended: decided (a side routed, broke or destroyed the other, or took its aim), attacker_left or \
     defender_left (that side left the fight of its own accord), both_broke (both sides broke in the same step), \
     limit (the turn limit came first); `winner` says who won it under the fight's purpose",
    ENDED,
);

crate::choice_enum! {
    /// What each side must achieve, and what the turn limit means: who
    /// wins each way a fight may end ([`Purpose::winner`]).
    pub enum Purpose {
        /// An attack: the attacker must beat the defender (rout, break or
        /// destroy it, or take or cross what it attacks) by the turn limit;
        /// anything else is the defender's win: the limit, the attacker
        /// leaving, both sides breaking at once (the attack did not carry).
        /// A defender that leaves gives the attacker its aim. Best play is
        /// zero-sum on the attacker's success.
        Attack = "attack",
        /// A stand-up fight: both sides must hold their ground, so a side
        /// that leaves the fight of its own accord has lost it as surely as
        /// one that is driven off; both breaking at once, and the limit,
        /// are draws.
        Stand = "stand",
        /// A manoeuvring fight: either side may leave (a draw), only
        /// beating the enemy wins, and the limit is a draw.
        Manoeuvre = "manoeuvre",
    }
}

impl Purpose {
    /// Who wins a fight that ended `end` under this purpose: [`ATTACKER`],
    /// [`DEFENDER`] or [`NONE`].
    pub fn winner(self, end: End) -> u8 {
        match (self, end) {
            (_, End::Attacker) => ATTACKER,
            (_, End::Defender) => DEFENDER,
            (Purpose::Attack | Purpose::Stand, End::AttackerLeft) => DEFENDER,
            (Purpose::Attack | Purpose::Stand, End::DefenderLeft) => ATTACKER,
            (Purpose::Attack, End::BothBroke | End::Limit) => DEFENDER,
            (Purpose::Stand | Purpose::Manoeuvre, _) => NONE,
        }
    }

    /// What the purpose asks, in a clause for outputs (`volley dist`,
    /// reports): "the attacker must beat the defender by the turn limit;
    /// anything else is the defender's win".
    pub fn sentence(self) -> &'static str {
        match self {
            Purpose::Attack => {
                "the attacker must beat the defender by the turn limit; anything else is the defender's win"
            }
            Purpose::Stand => {
                "both sides must hold: a side that leaves or is driven off loses; the limit and a mutual break are draws"
            }
            Purpose::Manoeuvre => {
                "either side may leave: only beating the enemy wins; leaving, a mutual break and the limit are draws"
            }
        }
    }
}

impl Purpose {
    /// The `purpose` key of a game scenario's settings (see [`purpose_param`]).
    pub fn from_settings(settings: &Settings) -> Purpose {
        settings.choice("purpose")
    }
}

/// The `purpose` key of a game scenario: `default` first, and the purposes
/// it offers (`offered`, names of [`Purpose`]), with what each means in
/// this scenario (`meaning`, one clause each, in the order offered).
pub fn purpose_param(default: Purpose, offered: &'static [&'static str], meaning: &str) -> Param {
    use crate::params::{Choice, ParamKind, Value};
    debug_assert!(offered.iter().all(|name| Purpose::from_name(name).is_some()));
    debug_assert!(offered.contains(&default.name()));
    Param {
        name: "purpose".into(),
        doc: format!("what each side must achieve and what the turn limit means: {meaning}"),
        kind: ParamKind::Choice(offered),
        default: Value::Choice(default.name().to_string()),
    }
}

/// Every purpose, as offered by the scenarios that take all three.
pub const PURPOSES: &[&str] = &["attack", "stand", "manoeuvre"];

/// The `purpose` key of a game scenario that offers all three purposes,
/// `default` first; `aim` says what beating the enemy is here (for example
/// "rout or break the defender"), `why` why the default answers the
/// scenario's question.
pub fn purpose_key(default: Purpose, aim: &str, why: &str) -> Param {
    use crate::params::Choice;
    purpose_param(
        default,
        PURPOSES,
        &format!(
            "attack: the attacker must {aim} by the turn limit, and anything else (the limit, the attacker \
             leaving, both breaking at once) is the defender's win; stand: both sides must hold, so a side that \
             leaves or is driven off loses and the limit is a draw; manoeuvre: either side may leave, only beating \
             the enemy wins, and the limit is a draw. Default {}: {why}",
            default.name()
        ),
    )
}

/// Values closer than this are a tie between options.
pub const TIE: f64 = 1e-12;

/// The largest graph solved by default (states, ending states included).
pub const DEFAULT_STATE_BUDGET: usize = 4_000_000;

/// A side's name in outputs: `attacker` or `defender`.
pub fn side_name(side: u8) -> &'static str {
    if side == ATTACKER { "attacker" } else { "defender" }
}

crate::choice_enum! {
    /// How a side makes its decisions.
    pub enum Policy {
        /// Best play: each decision maximises the side's objective, given best
        /// play by both sides afterwards (backward induction).
        Best = "best",
        /// Bold: closes and attacks as soon as it may.
        Bold = "bold",
        /// Cautious: keeps out of the enemy's reach until it can attack in one move.
        Cautious = "cautious",
    }
}

crate::choice_enum! {
    /// What a side playing `best` maximises.
    pub enum Objective {
        /// Its chance of winning minus its chance of losing.
        Margin = "margin",
        /// Its chance of winning.
        Win = "win",
    }
}

/// A decision a game asks of a side: what `volley list` and `--explain` show.
#[derive(Debug, PartialEq, Eq)]
pub struct Decision {
    /// Its name (`move`, `charge`, `square`, ...).
    pub name: &'static str,
    /// Who takes it, in words (`attacker`, `defender`, `either side`).
    pub who: &'static str,
    /// One sentence on when it is taken and what it decides, citing the rule.
    pub doc: &'static str,
    /// The options, in words, in the order ties are broken.
    pub options: &'static str,
}

/// A chance with a fast sampler and an exact law: hits of a volley, say.
pub trait Law {
    /// One draw.
    fn sample(&self, dice: &mut Dice) -> u32;
    /// Every value with its probability, in increasing value, no zero
    /// probabilities, summing to 1.
    fn outcomes(&self) -> &[(u32, f64)];
}

/// Where a step gets its chances and its choices.
pub trait Fate {
    /// One die of `sides` faces, 1..=sides.
    fn die(&mut self, sides: u32) -> u32;
    /// True with probability `ways / of`.
    fn ways(&mut self, ways: u32, of: u32) -> bool;
    /// A draw from a law.
    fn draw<L: Law + ?Sized>(&mut self, law: &L) -> u32;
    /// A draw whose law the step works out itself, its values grouped by
    /// where they lead: a roll of 2D6 and a chain of rolls after it, say,
    /// whose 11 or 121 outcomes lead to a handful of different places. The
    /// value is whatever the step wants back, the place itself at best. A
    /// sampler calls `sample` (real dice); an enumeration calls `law` once
    /// for each place the step meets the draw (every value with its
    /// probability, no zero probability, summing to 1; the values distinct),
    /// keeps it, and takes each of its values in turn, so that a step meets
    /// a grouped draw as often as it has groups, not as often as it has
    /// rolls, and need not work out again where a value leads.
    fn draw_grouped<T: Clone + 'static>(
        &mut self,
        sample: impl FnOnce(&mut Dice) -> T,
        law: impl FnOnce() -> Vec<(T, f64)>,
    ) -> T;
    /// A grouped draw that ends the step: each value is where the step
    /// leads (the winner, if it ends the fight, and the state after it),
    /// which the step takes as it is, with no chance or choice after it.
    /// Enumerated, each value is a branch of the step at once, and the step
    /// is not replayed for the others: a step whose last act is a roll of
    /// a dozen places runs once rather than a dozen times. Otherwise the
    /// same as [`Fate::draw_grouped`].
    fn draw_last<S: Clone + 'static>(
        &mut self,
        sample: impl FnOnce(&mut Dice) -> (Option<End>, S),
        law: impl FnOnce() -> Vec<((Option<End>, S), f64)>,
    ) -> (Option<End>, S) {
        self.draw_grouped(sample, law)
    }
    /// Side `side` takes `decision`, choosing one of `options` (at least one;
    /// listed in the order ties are broken). `heuristic` says what each
    /// heuristic policy picks here (it is never asked for [`Policy::Best`]).
    fn decide(
        &mut self,
        side: u8,
        decision: &'static Decision,
        options: &[u16],
        heuristic: &dyn Fn(Policy) -> u16,
    ) -> u16;
}

/// A multi-turn fight as a game. See the module documentation.
pub trait Game: Send + Sync {
    /// The state between steps: small, plain, hashable.
    type State: Copy + Eq + Hash + Send + Sync + fmt::Debug + 'static;

    /// The metrics and their packing.
    fn layout(&self) -> &Layout;
    /// The number of distinct outcome codes (a bound).
    fn code_space(&self) -> u64 {
        self.layout().size()
    }
    /// The metric values of a code.
    fn decode(&self, code: u64, values: &mut [i64]) {
        self.layout().decode(code, values);
    }
    /// The starting state.
    fn start(&self) -> Self::State;
    /// The turn limit, in turns (a turn is one step unless
    /// [`Game::starts_turn`] says otherwise).
    fn steps(&self) -> u32;
    /// Whether `state`, left by a step that did not end the fight, starts a
    /// new turn. A game whose turn is one step leaves the default (always).
    /// A game whose turn is several steps (its phases, each with a few
    /// chances, so that the solver merges equal states between them rather
    /// than enumerating a whole turn's rolls at once) answers `false` for
    /// the states inside a turn. Steps within a turn must make progress: no
    /// state may come back within one turn (the solver checks, and panics
    /// naming the state if one does). The starting state starts a turn.
    fn starts_turn(&self, _state: &Self::State) -> bool {
        true
    }
    /// One step; `Some(end)` when it ends the fight, saying how (the
    /// [`Purpose`] says who that makes the winner). It must depend on
    /// nothing but the state and the fate.
    fn step<F: Fate>(&self, state: &mut Self::State, fate: &mut F) -> Option<End>;
    /// The outcome code of a fight that ended with `winner` ([`ATTACKER`],
    /// [`DEFENDER`] or [`NONE`], under the game's purpose) after `steps`
    /// steps in `state`. (The `ended` metric is added around it: see
    /// [`Played`].)
    fn code(&self, winner: u8, steps: u32, state: &Self::State) -> u64;
    /// How a fight still going at the turn limit ends ([`End::Limit`]
    /// unless the rules or the scenario say a side has achieved its aim by
    /// then, holding a position, say).
    fn at_limit(&self, _state: &Self::State) -> End {
        End::Limit
    }
    /// What each side must achieve (see [`Purpose`]): the scenario's
    /// `purpose` key, where it has one.
    fn purpose(&self) -> Purpose {
        Purpose::Manoeuvre
    }
    /// Every decision the game may ask for, for `volley list`.
    fn decisions(&self) -> &'static [&'static Decision];
    /// The heuristic a side asked to play `best` plays where the graph is
    /// beyond the solver.
    fn fallback(&self) -> Policy {
        Policy::Cautious
    }
    /// The most states the solver may enumerate before it gives up.
    fn state_budget(&self) -> usize {
        DEFAULT_STATE_BUDGET
    }
    /// Whether the solver will answer for these settings under `plan`,
    /// known without solving (a conservative estimate: it must not say yes
    /// and then refuse). A game whose decisions multiply its states may
    /// solve the heuristics' play (no decision branches) where it cannot
    /// solve best play.
    fn solvable(&self, _plan: Plan) -> bool {
        true
    }
    /// A state as a player reads it, for `--explain` (the side about to decide
    /// is `side`): "cavalry 4 boxes from line infantry".
    fn describe_state(&self, state: &Self::State, side: u8) -> String;
    /// An option of a decision as a player reads it: "halt at 3 boxes".
    fn describe_option(&self, decision: &'static Decision, option: u16) -> String;

    /// Whether rule field `field` may change this game's outcomes: see
    /// [`Scenario::reads_rule`], whose promise a `false` makes.
    fn reads_rule(&self, field: &str) -> bool {
        let _ = field;
        true
    }

    /// Whether its exact answer under `plan` comes quickly (see
    /// [`Scenario::exact_is_cheap`]): by default, whenever the solver will
    /// answer at all. A game whose graph may be solvable yet slow (many
    /// figures, many turns) says no there, from its settings alone.
    fn exact_is_cheap(&self, plan: Plan) -> bool {
        self.solvable(plan)
    }

    /// The keys the game does not read at its settings, with why: see
    /// [`Scenario::unread_keys`].
    fn unread_keys(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// Each side's policy and objective.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The policy of the attacker (index 0) and the defender (1).
    pub policy: [Policy; 2],
    /// What each side maximises when it plays `best`.
    pub objective: [Objective; 2],
}

impl Plan {
    /// Both sides at best play, maximising their margin.
    pub const BEST: Plan = Plan { policy: [Policy::Best; 2], objective: [Objective::Margin; 2] };

    /// Whether either side plays `best`.
    pub fn wants_solver(&self) -> bool {
        self.policy.contains(&Policy::Best)
    }

    /// The plan with `best` replaced by `fallback`.
    fn without_best(mut self, fallback: Policy) -> Plan {
        for policy in &mut self.policy {
            if *policy == Policy::Best {
                *policy = fallback;
            }
        }
        self
    }

    /// The plan the keys of [`plan_params`] give.
    pub fn from_settings(settings: &Settings) -> Plan {
        Plan {
            policy: [settings.choice("attacker.policy"), settings.choice("defender.policy")],
            objective: [settings.choice("attacker.objective"), settings.choice("defender.objective")],
        }
    }
}

/// The keys every game scenario takes: `attacker.policy`, `defender.policy`,
/// `attacker.objective`, `defender.objective`, the heuristics described in
/// general terms.
pub fn plan_params() -> Vec<Param> {
    plan_params_worded("closes and attacks as soon as it may", "keeps out of reach until it can attack in one move")
}

/// [`plan_params`] with the heuristics described for what they do in one
/// scenario: `bold` and `cautious` complete "bold (...)" and "cautious (...)".
pub fn plan_params_worded(bold: &str, cautious: &str) -> Vec<Param> {
    let mut params = Vec::new();
    for side in ["attacker", "defender"] {
        params.push(Param::choice(
            format!("{side}.policy"),
            format!(
                "how the {side} decides: best (backward induction, both sides playing their best), bold ({bold}) or \
                 cautious ({cautious})"
            ),
            Policy::Best,
        ));
        params.push(Param::choice(
            format!("{side}.objective"),
            format!("what the {side} maximises under best play: margin (its win chance minus its loss chance) or win"),
            Objective::Margin,
        ));
    }
    params
}

// ---------------------------------------------------------------------------
// Sampling.

/// Real dice, and choices by heuristic or from a solved table.
struct Rolling<'a, S> {
    dice: &'a mut Dice,
    plan: Plan,
    solution: Option<&'a Solution<S>>,
    /// The turn being played (0-based).
    step: u32,
    /// Where in the current state's tree the step is (`NO_NODE`: past the
    /// last decision, or no solved table).
    node: u32,
}

const NO_NODE: u32 = u32::MAX;

impl<S> Rolling<'_, S> {
    /// Follows a chance branch down the tree when a decision lies below it.
    #[inline]
    fn follow(&mut self, index: usize) {
        if self.node != NO_NODE {
            let graph = &self.solution.expect("a node implies a solution").graph;
            self.node = match graph.nodes[self.node as usize] {
                Node::Chance { first, .. } => graph.children[first as usize + index].1,
                _ => panic!("the step took a chance where its enumeration did not"),
            };
            self.node = graph.tracked(self.node);
        }
    }
}

impl<S> Fate for Rolling<'_, S> {
    #[inline]
    fn die(&mut self, sides: u32) -> u32 {
        if sides <= 1 {
            return 1;
        }
        let value = self.dice.die(sides);
        self.follow(value as usize - 1);
        value
    }

    #[inline]
    fn ways(&mut self, ways: u32, of: u32) -> bool {
        if ways == 0 {
            return false;
        }
        if ways >= of {
            return true;
        }
        let hit = (self.dice.below(u64::from(of)) as u32) < ways;
        self.follow(usize::from(!hit));
        hit
    }

    #[inline]
    fn draw<L: Law + ?Sized>(&mut self, law: &L) -> u32 {
        let value = law.sample(self.dice);
        if self.node != NO_NODE && law.outcomes().len() > 1 {
            let index =
                law.outcomes().binary_search_by_key(&value, |&(v, _)| v).expect("a sampled value is in its law");
            self.follow(index);
        }
        value
    }

    fn draw_grouped<T: Clone + 'static>(
        &mut self,
        sample: impl FnOnce(&mut Dice) -> T,
        law: impl FnOnce() -> Vec<(T, f64)>,
    ) -> T {
        if self.node == NO_NODE {
            return sample(self.dice);
        }
        // A decision lies below: draw from the law itself, to follow the
        // branch the enumeration made of it.
        let law = law();
        let mut u = (self.dice.word() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        let index = law
            .iter()
            .position(|&(_, p)| {
                u -= p;
                u < 0.0
            })
            .unwrap_or(law.len() - 1);
        self.follow(index);
        law[index].0.clone()
    }

    fn decide(
        &mut self,
        side: u8,
        decision: &'static Decision,
        options: &[u16],
        heuristic: &dyn Fn(Policy) -> u16,
    ) -> u16 {
        if let Some(option) = settled(self.plan, side, decision, options, heuristic) {
            return option;
        }
        let solution = self.solution.expect("best play is sampled from a solved table");
        let graph = &solution.graph;
        let Node::Decide { first, count, slot, .. } = graph.nodes[self.node as usize] else {
            panic!("decision {} taken where its enumeration took none", decision.name)
        };
        debug_assert_eq!(count as usize, options.len());
        let chosen = solution.choices[self.step as usize][slot as usize] as usize;
        let (option, child) = graph.children[first as usize + chosen];
        self.node = graph.tracked(child);
        option as u16
    }
}

/// A decision that needs no table and no branch: a single option, or a side
/// playing a heuristic. Sampling and enumeration settle these alike, so the
/// two never disagree on where a decision node stands.
fn settled(
    plan: Plan,
    side: u8,
    decision: &'static Decision,
    options: &[u16],
    heuristic: &dyn Fn(Policy) -> u16,
) -> Option<u16> {
    debug_assert!(!options.is_empty(), "decision {} offered no option", decision.name);
    if options.len() == 1 {
        return Some(options[0]);
    }
    let policy = plan.policy[side as usize];
    (policy != Policy::Best).then(|| heuristic(policy))
}

/// Plays one fight with real dice under `plan`, following `solution`'s table
/// for the sides playing `best`.
fn play<G: Game>(game: &G, plan: Plan, solution: Option<&Solution<G::State>>, dice: &mut Dice) -> u64 {
    let mut state = game.start();
    let turns = game.steps();
    let mut fate = Rolling { dice, plan, solution, step: 0, node: NO_NODE };
    for turn in 0..turns {
        fate.step = turn;
        loop {
            fate.node = match solution {
                Some(solution) => {
                    let id = *solution.graph.ids.get(&state).expect("every reachable state is in the solved graph");
                    solution.graph.tracked(solution.graph.root[id as usize])
                }
                None => NO_NODE,
            };
            if let Some(end) = game.step(&mut state, &mut fate) {
                return outcome_code(game, end, turn + 1, &state);
            }
            if game.starts_turn(&state) {
                break;
            }
        }
    }
    outcome_code(game, game.at_limit(&state), turns, &state)
}

/// The outcome code of a fight that ended `end` after `steps` steps in
/// `state`: the game's code (under the winner its purpose gives) with the
/// `ended` metric after it (see [`Played`]): what a solver of a game's own
/// must code its outcomes as.
pub fn outcome_code<G: Game>(game: &G, end: End, steps: u32, state: &G::State) -> u64 {
    game.code(game.purpose().winner(end), steps, state) * ENDED.len() as u64 + end.ended_index()
}

// ---------------------------------------------------------------------------
// Enumeration.

/// One entry of a branch's path: a chance or a decision, and the branch taken.
/// A decision's options live in the enumeration's arena ([`Leaves::options`]),
/// so that a pick is plain data and a path is copied without allocating.
#[derive(Clone, Copy, Debug)]
enum Pick {
    /// `law`: a grouped draw's law in [`Leaves::laws`] ([`NO_NODE`] for
    /// any other chance).
    Chance {
        chosen: u32,
        count: u32,
        probability: f64,
        law: u32,
    },
    Decide {
        side: u8,
        decision: &'static Decision,
        options: u32,
        count: u32,
        chosen: u32,
    },
}

impl Pick {
    fn chosen(&self) -> u32 {
        match self {
            Pick::Chance { chosen, .. } | Pick::Decide { chosen, .. } => *chosen,
        }
    }

    fn count(&self) -> u32 {
        match self {
            Pick::Chance { count, .. } | Pick::Decide { count, .. } => *count,
        }
    }
}

/// One branch of every chance and `best` decision, chosen by a path.
struct Replay<'a> {
    plan: Plan,
    path: Vec<Pick>,
    depth: usize,
    /// The law (in `laws`) of the [`Fate::draw_last`] that ended the step,
    /// whose every value is a branch.
    last: Option<u32>,
    /// The options of every decision pick, each a run its pick points to.
    options: &'a mut Vec<u16>,
    /// The law of every grouped draw (a `Vec<(T, f64)>` of its `T`), each
    /// one its pick points to.
    laws: &'a mut Vec<Box<dyn Any>>,
}

impl Replay<'_> {
    /// Panics if the step went on after a [`Fate::draw_last`].
    #[inline]
    fn going(&self) {
        assert!(self.last.is_none(), "a step took a chance or a choice after its last draw");
    }

    /// The branch the path names at this depth (the first, when new).
    fn chance(&mut self, probabilities: impl Fn(usize) -> f64, count: usize) -> usize {
        self.going();
        if self.depth == self.path.len() {
            self.path.push(Pick::Chance {
                chosen: 0,
                count: count as u32,
                probability: probabilities(0),
                law: NO_NODE,
            });
        }
        let chosen = self.path[self.depth].chosen() as usize;
        if let Pick::Chance { probability, .. } = &mut self.path[self.depth] {
            *probability = probabilities(chosen);
        }
        self.depth += 1;
        chosen
    }
}

impl Fate for Replay<'_> {
    fn die(&mut self, sides: u32) -> u32 {
        if sides <= 1 {
            return 1;
        }
        self.chance(|_| 1.0 / f64::from(sides), sides as usize) as u32 + 1
    }

    fn ways(&mut self, ways: u32, of: u32) -> bool {
        if ways == 0 {
            return false;
        }
        if ways >= of {
            return true;
        }
        let p = f64::from(ways) / f64::from(of);
        self.chance(|i| if i == 0 { p } else { 1.0 - p }, 2) == 0
    }

    fn draw<L: Law + ?Sized>(&mut self, law: &L) -> u32 {
        let outcomes = law.outcomes();
        if outcomes.len() == 1 {
            return outcomes[0].0;
        }
        outcomes[self.chance(|i| outcomes[i].1, outcomes.len())].0
    }

    fn draw_grouped<T: Clone + 'static>(
        &mut self,
        _sample: impl FnOnce(&mut Dice) -> T,
        law: impl FnOnce() -> Vec<(T, f64)>,
    ) -> T {
        self.going();
        if self.depth == self.path.len() {
            // Met for the first time on this path: the law is worked out
            // once, and every later replay of the path reads it back.
            let law = law();
            debug_assert!(!law.is_empty(), "a grouped draw has a value");
            let (count, probability) = (law.len() as u32, law[0].1);
            self.laws.push(Box::new(law));
            self.path.push(Pick::Chance { chosen: 0, count, probability, law: self.laws.len() as u32 - 1 });
        }
        let Pick::Chance { chosen, law, .. } = self.path[self.depth] else {
            panic!("a grouped draw met where the same path took a decision")
        };
        assert_ne!(law, NO_NODE, "a grouped draw met where the same path took another chance");
        let law = self.laws[law as usize]
            .downcast_ref::<Vec<(T, f64)>>()
            .expect("a grouped draw met where the same path drew another kind of value");
        let (value, probability) = law[chosen as usize].clone();
        if let Pick::Chance { probability: p, .. } = &mut self.path[self.depth] {
            *p = probability;
        }
        self.depth += 1;
        value
    }

    fn draw_last<S: Clone + 'static>(
        &mut self,
        sample: impl FnOnce(&mut Dice) -> (Option<End>, S),
        law: impl FnOnce() -> Vec<((Option<End>, S), f64)>,
    ) -> (Option<End>, S) {
        // Met only at the end of a path: the enumeration takes every value
        // the first time, and never replays the step into it.
        assert_eq!(self.depth, self.path.len(), "a last draw met where the same path went on");
        let value = self.draw_grouped(sample, law);
        self.last = Some(self.laws.len() as u32 - 1);
        value
    }

    fn decide(
        &mut self,
        side: u8,
        decision: &'static Decision,
        options: &[u16],
        heuristic: &dyn Fn(Policy) -> u16,
    ) -> u16 {
        self.going();
        if let Some(option) = settled(self.plan, side, decision, options, heuristic) {
            return option;
        }
        if self.depth == self.path.len() {
            let first = self.options.len() as u32;
            self.options.extend_from_slice(options);
            self.path.push(Pick::Decide { side, decision, options: first, count: options.len() as u32, chosen: 0 });
        }
        let Pick::Decide { options: first, count, chosen, .. } = self.path[self.depth] else {
            panic!("decision {} taken where the same path took a chance", decision.name)
        };
        debug_assert!(
            &self.options[first as usize..(first + count) as usize] == options,
            "decision {} offered different options on the same path",
            decision.name
        );
        self.depth += 1;
        options[chosen as usize]
    }
}

/// Where one branch of a step leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Branch<S> {
    /// The fight goes on in this state, next turn.
    Continue(S),
    /// The fight goes on in this state, within the same turn.
    Within(S),
    /// The fight ends: how, and the final state.
    End(End, S),
}

/// One leaf of a step's enumeration: where it leads and its path, a run of
/// [`Leaves::picks`].
#[derive(Clone, Copy, Debug)]
struct Leaf<S> {
    branch: Branch<S>,
    first: u32,
    len: u32,
    /// The index in its path of the last decision, or -1.
    last_decision: i32,
}

/// Every branch of one step, depth first, with the picks of every path and
/// the options of every decision pick.
struct Leaves<S> {
    leaves: Vec<Leaf<S>>,
    picks: Vec<Pick>,
    options: Vec<u16>,
    laws: Vec<Box<dyn Any>>,
}

impl<S> Leaves<S> {
    fn path(&self, leaf: &Leaf<S>) -> &[Pick] {
        &self.picks[leaf.first as usize..(leaf.first + leaf.len) as usize]
    }
}

/// Every branch of one step from `state`, with its path, into `leaves`
/// (cleared first; its buffers, like `path`'s, are reused from state to state).
fn enumerate<G: Game>(
    game: &G,
    plan: Plan,
    state: &G::State,
    leaves: &mut Leaves<G::State>,
    path_buffer: &mut Vec<Pick>,
) {
    leaves.leaves.clear();
    leaves.picks.clear();
    leaves.options.clear();
    leaves.laws.clear();
    path_buffer.clear();
    let mut path = std::mem::take(path_buffer);
    let branch_of = |end: Option<End>, next: G::State| match end {
        Some(end) => Branch::End(end, next),
        None if game.starts_turn(&next) => Branch::Continue(next),
        None => Branch::Within(next),
    };
    loop {
        let mut replay =
            Replay { plan, path, depth: 0, last: None, options: &mut leaves.options, laws: &mut leaves.laws };
        let mut next = *state;
        let winner = game.step(&mut next, &mut replay);
        let (depth, last) = (replay.depth, replay.last);
        path = replay.path;
        path.truncate(depth);
        let last_decision = path.iter().rposition(|pick| matches!(pick, Pick::Decide { .. })).map_or(-1, |i| i as i32);
        let Leaves { leaves: list, picks, laws, .. } = leaves;
        let mut push = |branch: Branch<G::State>, path: &[Pick]| {
            list.push(Leaf { branch, first: picks.len() as u32, len: path.len() as u32, last_decision });
            picks.extend_from_slice(path);
        };
        match last {
            None => push(branch_of(winner, next), &path),
            Some(law) => {
                // Every value of the last draw is a branch: the pick takes
                // each in turn, and is left at its last for the next path.
                let law = laws[law as usize]
                    .downcast_ref::<Vec<((Option<End>, G::State), f64)>>()
                    .expect("a last draw's values are the winner and the state of the game");
                debug_assert!(law[0].0 == (winner, next), "a step takes its last draw's value as it is");
                let at = path.len() - 1;
                for (i, &((winner, next), p)) in law.iter().enumerate() {
                    if let Pick::Chance { chosen, probability, .. } = &mut path[at] {
                        (*chosen, *probability) = (i as u32, p);
                    }
                    push(branch_of(winner, next), &path);
                }
            }
        }
        // The next branch: the deepest pick with a branch left moves on.
        loop {
            match path.last_mut() {
                None => {
                    *path_buffer = path;
                    return;
                }
                Some(last) if last.chosen() + 1 < last.count() => {
                    match last {
                        Pick::Chance { chosen, .. } | Pick::Decide { chosen, .. } => *chosen += 1,
                    }
                    break;
                }
                Some(_) => {
                    path.pop();
                }
            }
        }
    }
}

/// The longest cycle of turns' starting states that exploration looks for.
const LONGEST_PERIOD: usize = 6;

/// The period after which `next`, the states starting the turn after those
/// of `layers`, repeats the states a turn started from, where it is at most
/// [`LONGEST_PERIOD`] turns.
fn repeated_layer(layers: &[Vec<u32>], next: &[u32]) -> Option<usize> {
    let mut sorted: Option<Vec<u32>> = None;
    (1..=LONGEST_PERIOD.min(layers.len())).find(|&period| {
        let earlier = &layers[layers.len() - period];
        if earlier.len() != next.len() {
            return false;
        }
        let next_sorted = sorted.get_or_insert_with(|| {
            let mut v = next.to_vec();
            v.sort_unstable();
            v
        });
        let mut earlier = earlier.clone();
        earlier.sort_unstable();
        earlier == *next_sorted
    })
}

/// A node of a state's law.
#[derive(Clone, Copy, Debug)]
enum Node {
    /// A side decides: children `first..first + count` of [`Graph::children`]
    /// (option, node); `slot` indexes the solved table's choices and
    /// [`Graph::deciders`] (who decides what: kept apart, so that a node
    /// takes 16 bytes rather than 32).
    Decide { first: u32, count: u32, slot: u32 },
    /// A chance with a decision somewhere below it: children
    /// `first..first + count` of [`Graph::children`] (branch probability as
    /// bits, node).
    Chance { first: u32, count: u32 },
    /// Chances only from here: transitions `first..first + count` of
    /// [`Graph::transitions`]; once the graph is laid out, those of
    /// [`Graph::targets`] that go on, and the endings are `ends` of
    /// [`Graph::leaf_ends`] ([`NO_NODE`]: none).
    Leaf { first: u32, count: u32, ends: u32 },
}

/// Where a leaf's mass goes.
#[derive(Clone, Copy, Debug)]
struct Transition {
    /// The state id (the next state, or the final state of an ending).
    target: u32,
    /// [`CONTINUES`], [`WITHIN`], or the code of an ending (`End as u8`).
    winner: u8,
    probability: f64,
}

/// A transition to a state that starts the next turn.
const CONTINUES: u8 = u8::MAX;
/// A transition to a state within the same turn.
const WITHIN: u8 = u8::MAX - 1;

type Ids<S> = HashMap<S, u32, BuildHasherDefault<CodeHasher>>;

/// Every state reachable from the start under every option of the `best`
/// sides, with each state's law as a tree.
struct Graph<S> {
    states: Vec<S>,
    ids: Ids<S>,
    /// Each state's root node (`NO_NODE` for a state only ever ended in).
    root: Vec<u32>,
    /// Each state's run of [`Graph::transitions`] (first, count): its law's
    /// transitions are added together. Until laid out.
    spans: Vec<(u32, u32)>,
    nodes: Vec<Node>,
    /// Children of decision nodes (option, node) and chance nodes (probability bits, node).
    children: Vec<(u64, u32)>,
    /// Every leaf's transitions, until laid out ([`Graph::renumber`]).
    transitions: Vec<Transition>,
    /// Once laid out, the transitions that go on, as two arrays (a sweep
    /// reads no more): each one's target and its chance. Within a turn
    /// exactly when the target is below [`Graph::within_count`].
    targets: Vec<u32>,
    probabilities: Vec<f64>,
    /// The states at the start of each turn.
    layers: Vec<Vec<u32>>,
    /// The states within a turn (reached by a step that does not start a
    /// turn), in an order that puts every such state after all the states
    /// that lead to it within a turn: by their height (the longest run of
    /// steps within a turn that may follow them), the greatest first.
    within: Vec<u32>,
    /// `within` cut by height: runs of equal height (first, end), the
    /// lowest first. A run depends only on the runs before it.
    heights: Vec<(u32, u32)>,
    /// The side deciding at each decision slot, and the decision: one
    /// entry for each decision node.
    deciders: Vec<(u8, &'static Decision)>,
    /// Once laid out ([`Graph::renumber`]): the states within a turn are
    /// ids `0..within_count` (in the order of [`Graph::within`]), the states
    /// that start a turn `within_count..within_count + start_count`, and the
    /// states only ever ended in come last. A transition that goes on is
    /// therefore within the turn exactly when its target is below
    /// `within_count`.
    within_count: u32,
    start_count: u32,
    /// The first turn in which each state within a turn is reached (by id;
    /// the states within a turn are ids `0..within_count` once laid out):
    /// backward induction skips it in the turns before, where nothing
    /// reached reads its worth.
    first_turn: Vec<u32>,
    /// The endings of each leaf that has any (see [`Node::Leaf`]).
    leaf_ends: Vec<LeafEnds>,
    /// The endings of every leaf, each a run of [`LeafEnds`].
    endings: Vec<Ending>,
    /// The ending each [`Ending::slot`] stands for: its code (`End as u8`)
    /// and the final state.
    ending_states: Vec<(u8, u32)>,
    /// What each side must achieve: who wins each ending.
    purpose: Purpose,
}

impl<S> Graph<S> {
    /// The states that go on: those within a turn and those starting one.
    fn live_count(&self) -> usize {
        (self.within_count + self.start_count) as usize
    }
}

/// A leaf's endings: what they are worth together (the backward pass needs
/// no more) and where they are listed (for the forward walk).
#[derive(Clone, Copy, Debug)]
struct LeafEnds {
    worth: Worth,
    first: u32,
    count: u32,
}

/// One ending of a leaf: its slot in [`Graph::ending_states`] and its chance.
#[derive(Clone, Copy, Debug)]
struct Ending {
    slot: u32,
    probability: f64,
}

/// A run of states' trees laid out anew ([`Graph::renumber`]), its
/// indices (of nodes, children, transitions, leaf endings, endings and
/// decision slots) counted from its own start.
#[derive(Default)]
struct LaidOut {
    /// Each state's root node ([`NO_NODE`] for none).
    roots: Vec<u32>,
    nodes: Vec<Node>,
    deciders: Vec<(u8, &'static Decision)>,
    children: Vec<(u64, u32)>,
    targets: Vec<u32>,
    probabilities: Vec<f64>,
    leaf_ends: Vec<LeafEnds>,
    /// Each ending's [`Ending::slot`] holds, until the runs are joined,
    /// its final state and ending as `END_COUNT * state + end`.
    endings: Vec<Ending>,
}

impl LaidOut {
    /// Appends the run `piece`, moving its indices on by what is here, and
    /// gives its endings their slots (`ending_slots` by `END_COUNT * state +
    /// end`, new ones in the order met).
    fn join(&mut self, piece: LaidOut, ending_slots: &mut [u32], ending_states: &mut Vec<(u8, u32)>) {
        let node_base = self.nodes.len() as u32;
        let child_base = self.children.len() as u32;
        let target_base = self.targets.len() as u32;
        let leaf_end_base = self.leaf_ends.len() as u32;
        let ending_base = self.endings.len() as u32;
        let slot_base = self.deciders.len() as u32;
        self.roots.extend(piece.roots.iter().map(|&r| if r == NO_NODE { NO_NODE } else { r + node_base }));
        self.nodes.extend(piece.nodes.iter().map(|&node| match node {
            Node::Decide { first, count, slot } => {
                Node::Decide { first: first + child_base, count, slot: slot + slot_base }
            }
            Node::Chance { first, count } => Node::Chance { first: first + child_base, count },
            Node::Leaf { first, count, ends } => Node::Leaf {
                first: first + target_base,
                count,
                ends: if ends == NO_NODE { NO_NODE } else { ends + leaf_end_base },
            },
        }));
        self.deciders.extend_from_slice(&piece.deciders);
        self.children.extend(piece.children.iter().map(|&(key, node)| (key, node + node_base)));
        self.targets.extend_from_slice(&piece.targets);
        self.probabilities.extend_from_slice(&piece.probabilities);
        self.leaf_ends.extend(piece.leaf_ends.iter().map(|&ends| LeafEnds { first: ends.first + ending_base, ..ends }));
        self.endings.extend(piece.endings.iter().map(|&ending| {
            let key = ending.slot;
            let slot = &mut ending_slots[key as usize];
            if *slot == NO_NODE {
                *slot = ending_states.len() as u32;
                ending_states.push(((key % END_COUNT as u32) as u8, key / END_COUNT as u32));
            }
            Ending { slot: *slot, probability: ending.probability }
        }));
    }
}

/// Runs `produce` on each of `batches` in turn, and `consume` on what each
/// gives, in order: each batch is consumed (one thread) while the next is
/// produced (the others, and that one once it is done), so that a serial
/// step overlaps the parallel work after it.
fn pipelined<B: Send, T: Send>(
    batches: impl IntoIterator<Item = B>,
    produce: impl Fn(B) -> T + Sync,
    mut consume: impl FnMut(T) + Send,
) {
    let mut pending: Option<T> = None;
    for batch in batches {
        let ((), next) = rayon::join(
            || {
                if let Some(done) = pending.take() {
                    consume(done);
                }
            },
            || produce(batch),
        );
        pending = Some(next);
    }
    if let Some(done) = pending {
        consume(done);
    }
}

/// The states whose trees one task of [`Graph::renumber`] lays out.
const LAY_OUT_CHUNK: usize = 2048;

/// The runs of [`LAY_OUT_CHUNK`] states laid out while those before them are joined.
const LAY_OUT_BATCH: usize = 16;

/// The laws of a run of states, one after another, before their targets
/// have ids: one set of buffers for the run rather than one per state.
struct RawLaw<S> {
    nodes: Vec<Node>,
    /// Who decides what at each decision node, its `slot` indexing them.
    deciders: Vec<(u8, &'static Decision)>,
    children: Vec<(u64, u32)>,
    transitions: Vec<(Branch<S>, f64)>,
    /// Each state's root node and the end of its transitions.
    ends: Vec<(u32, u32)>,
}

/// The blocks the forward walk cuts a run of states into, each spreading
/// into masses of its own ([`Solution::forward`]): fixed, not the number of
/// threads, so that the sums do not depend on it.
const FORWARD_PARTS: usize = 2;

/// A run of fewer states than this is spread as one block.
const FORWARD_SPLIT: usize = 4096;

/// The states whose laws one task of exploration works out, in one set of buffers.
const EXPAND_CHUNK: usize = 64;

/// The states whose laws exploration works out while the batch before them is added.
const EXPAND_BATCH: usize = 16 * EXPAND_CHUNK;

/// A leaf node with more distinct branches than this merges them through a
/// hash map rather than by a linear search.
const LINEAR_MERGE: usize = 16;

impl<S: Copy + Eq + Hash> RawLaw<S> {
    /// Buffers for the laws of `states` states, sized for a typical law
    /// (a few nodes, a dozen transitions) so that they seldom grow: a
    /// growing vector is copied each time it doubles.
    fn new(states: usize) -> RawLaw<S> {
        RawLaw {
            nodes: Vec::with_capacity(4 * states),
            deciders: Vec::with_capacity(states),
            children: Vec::with_capacity(4 * states),
            transitions: Vec::with_capacity(12 * states),
            ends: Vec::with_capacity(states),
        }
    }

    /// Adds the tree of the next state's step (its branches, paths in
    /// depth-first order).
    fn add(&mut self, leaves: &Leaves<S>) {
        let root = self.node(leaves, &leaves.leaves, 0);
        self.ends.push((root, self.transitions.len() as u32));
    }

    /// The node of `group` (leaves that share their first `depth` picks); its
    /// index. Probabilities below it are conditional on reaching it.
    fn node(&mut self, all: &Leaves<S>, group: &[Leaf<S>], depth: usize) -> u32 {
        let index = self.nodes.len() as u32;
        if !group.iter().any(|leaf| leaf.last_decision >= depth as i32) {
            // Chances only: merge equal branches, in the order first met, so
            // that the sums are the same whatever the merging method.
            let first = self.transitions.len();
            let mut seen: HashMap<Branch<S>, usize, BuildHasherDefault<CodeHasher>> = HashMap::default();
            for leaf in group {
                let path = all.path(leaf);
                let p: f64 = path[depth.min(path.len())..]
                    .iter()
                    .map(|pick| match pick {
                        Pick::Chance { probability, .. } => *probability,
                        Pick::Decide { .. } => 1.0,
                    })
                    .product();
                let found = if self.transitions.len() - first <= LINEAR_MERGE {
                    self.transitions[first..].iter().position(|(b, _)| *b == leaf.branch).map(|i| first + i)
                } else {
                    if seen.is_empty() {
                        seen.extend(self.transitions[first..].iter().enumerate().map(|(i, (b, _))| (*b, first + i)));
                    }
                    seen.get(&leaf.branch).copied()
                };
                match found {
                    Some(i) => self.transitions[i].1 += p,
                    None => {
                        if !seen.is_empty() {
                            seen.insert(leaf.branch, self.transitions.len());
                        }
                        self.transitions.push((leaf.branch, p));
                    }
                }
            }
            self.nodes.push(Node::Leaf {
                first: first as u32,
                count: (self.transitions.len() - first) as u32,
                ends: NO_NODE,
            });
            return index;
        }
        // The pick at this depth, shared by every leaf here.
        let head = all.path(&group[0])[depth];
        self.nodes.push(Node::Leaf { first: 0, count: 0, ends: NO_NODE });
        let chosen_at = |leaf: &Leaf<S>| all.path(leaf)[depth].chosen();
        let mut kids = Vec::with_capacity(head.count() as usize);
        let mut start = 0;
        for i in 1..=group.len() {
            if i == group.len() || chosen_at(&group[i]) != chosen_at(&group[start]) {
                let chosen = chosen_at(&group[start]);
                let child = self.node(all, &group[start..i], depth + 1);
                let key = match all.path(&group[start])[depth] {
                    Pick::Chance { probability, .. } => probability.to_bits(),
                    Pick::Decide { options, .. } => u64::from(all.options[(options + chosen) as usize]),
                };
                kids.push((key, child));
                start = i;
            }
        }
        let first = self.children.len() as u32;
        let count = kids.len() as u32;
        self.children.extend(kids);
        debug_assert_eq!(count, head.count());
        self.nodes[index as usize] = match head {
            Pick::Chance { .. } => Node::Chance { first, count },
            Pick::Decide { side, decision, .. } => {
                self.deciders.push((side, decision));
                Node::Decide { first, count, slot: self.deciders.len() as u32 - 1 }
            }
        };
        index
    }
}

impl<S> Graph<S> {
    /// The node to track when sampling: `NO_NODE` once no decision lies below.
    #[inline]
    fn tracked(&self, node: u32) -> u32 {
        match self.nodes.get(node as usize) {
            Some(Node::Leaf { .. }) | None => NO_NODE,
            Some(_) => node,
        }
    }
}

impl<S: Copy + Eq + Hash + Send + Sync> Graph<S> {
    /// The id of a state, added if new.
    fn id(&mut self, state: S) -> (u32, bool) {
        if let Some(&id) = self.ids.get(&state) {
            return (id, false);
        }
        let id = self.states.len() as u32;
        self.states.push(state);
        self.ids.insert(state, id);
        self.root.push(NO_NODE);
        self.spans.push((0, 0));
        (id, true)
    }

    /// Enumerates every state reachable within the game's turns; `None` when
    /// the graph outgrows the budget.
    fn explore<G: Game<State = S>>(game: &G, plan: Plan) -> Option<Graph<S>> {
        let mut graph = Graph {
            states: Vec::new(),
            ids: Ids::default(),
            root: Vec::new(),
            spans: Vec::new(),
            nodes: Vec::new(),
            children: Vec::new(),
            transitions: Vec::new(),
            targets: Vec::new(),
            probabilities: Vec::new(),
            layers: Vec::new(),
            within: Vec::new(),
            heights: Vec::new(),
            deciders: Vec::new(),
            within_count: 0,
            start_count: 0,
            first_turn: Vec::new(),
            leaf_ends: Vec::new(),
            endings: Vec::new(),
            ending_states: Vec::new(),
            purpose: game.purpose(),
        };
        let budget = game.state_budget();
        let (start, _) = graph.id(game.start());
        let mut layer = vec![start];
        // The states of `layer` to walk from: all of them, until the layers
        // are nested (each holds the one before), and then only those new to it.
        let mut fresh = layer.clone();
        // `seen[id] == t` marks ids in layer t; `inside[id] == t` marks ids
        // reached within turn t.
        let mut seen: Vec<u32> = vec![0];
        let mut inside: Vec<u32> = vec![u32::MAX];
        let mut first_turn: Vec<u32> = vec![u32::MAX];
        // Once a turn's next layer holds the whole of its own, every later
        // one holds the one before too (what a layer leads to only grows
        // with it): from then on a turn walks only from the states new to
        // its layer, and a state within a turn reached in any turn since
        // then needs no second walk.
        let mut nested_from: Option<u32> = None;
        let turns = game.steps();
        for t in 0..turns {
            if layer.is_empty() {
                break;
            }
            let mut next = Vec::new();
            if nested_from.is_some() {
                next.extend_from_slice(&layer);
                for &id in &layer {
                    seen[id as usize] = t + 1;
                }
            }
            let mut kept = 0;
            let mut fresh_next = Vec::new();
            let mut frontier = std::mem::take(&mut fresh);
            while !frontier.is_empty() {
                let mut more = Vec::new();
                graph.expand(game, plan, &frontier, &mut |graph: &Graph<S>, walked: &[u32]| {
                    seen.resize(graph.states.len(), u32::MAX);
                    inside.resize(graph.states.len(), u32::MAX);
                    first_turn.resize(graph.states.len(), u32::MAX);
                    for &id in walked {
                        graph.successors(id, &mut |target, within| {
                            let target_ = target as usize;
                            if within {
                                let mark = inside[target_];
                                let walked = mark == t || nested_from.is_some_and(|n| mark != u32::MAX && mark >= n);
                                if !walked {
                                    inside[target_] = t;
                                    first_turn[target_] = first_turn[target_].min(t);
                                    more.push(target);
                                }
                            } else if seen[target_] != t + 1 {
                                let in_layer = seen[target_] == t;
                                kept += usize::from(in_layer);
                                seen[target_] = t + 1;
                                next.push(target);
                                if !in_layer {
                                    fresh_next.push(target);
                                }
                            }
                        });
                    }
                });
                if graph.states.len() > budget {
                    return None;
                }
                frontier = more;
            }
            if nested_from.is_none() && kept == layer.len() {
                nested_from = Some(t);
            }
            graph.layers.push(layer);
            // A turn that leads back to the very states a turn `period`
            // turns before it started from repeats the turns since: what a
            // turn starts from depends only on what the turn before started
            // from, so every later turn starts as the turn `period` before
            // it did (a game whose steps are phases cycles through them).
            let period = if fresh_next.is_empty() && next.len() == graph.layers[t as usize].len() {
                Some(1)
            } else {
                repeated_layer(&graph.layers, &next)
            };
            if let Some(period) = period {
                while graph.layers.len() < turns as usize {
                    let again = graph.layers[graph.layers.len() - period].clone();
                    graph.layers.push(again);
                }
                break;
            }
            fresh = if nested_from.is_some() { fresh_next } else { next.clone() };
            layer = next;
        }
        first_turn.resize(graph.states.len(), u32::MAX);
        graph.first_turn = first_turn;
        // Every state in a layer or continued into was marked in `seen`.
        seen.resize(graph.states.len(), u32::MAX);
        let starts: Vec<bool> = seen.iter().map(|&mark| mark != u32::MAX).collect();
        graph.order_within(game);
        graph.renumber(starts);
        Some(graph)
    }

    /// Works out and adds the laws of the states of `ids` met for the first
    /// time: in parallel, then given ids in order, so that ids never depend
    /// on threads. The laws come in batches of [`EXPAND_BATCH`] states, and
    /// each batch is added (one thread) while the next is worked out (the
    /// others, and that one once it is done). `walk` is called with `ids`
    /// cut in runs, in order, each once the laws of all its states are in,
    /// on the thread that adds them.
    fn expand<G: Game<State = S>>(
        &mut self,
        game: &G,
        plan: Plan,
        ids: &[u32],
        walk: &mut (impl FnMut(&Graph<S>, &[u32]) + Send),
    ) {
        // The states new to the graph, with where each is in `ids`.
        let (places, fresh): (Vec<usize>, Vec<u32>) =
            ids.iter().enumerate().filter(|&(_, &id)| self.root[id as usize] == NO_NODE).unzip();
        let states: Vec<S> = fresh.iter().map(|&id| self.states[id as usize]).collect();
        // The runs of `ids` ready once each batch is in: up to its last new state.
        let ends: Vec<usize> = places.chunks(EXPAND_BATCH).map(|batch| batch[batch.len() - 1] + 1).collect();
        let mut walked = 0;
        let work_out = |batch: &[S]| -> Vec<RawLaw<S>> {
            batch
                .par_chunks(EXPAND_CHUNK)
                .map(|chunk| {
                    let mut law = RawLaw::new(chunk.len());
                    let mut leaves =
                        Leaves { leaves: Vec::new(), picks: Vec::new(), options: Vec::new(), laws: Vec::new() };
                    let mut path = Vec::new();
                    for state in chunk {
                        enumerate(game, plan, state, &mut leaves, &mut path);
                        law.add(&leaves);
                    }
                    law
                })
                .collect()
        };
        pipelined(
            fresh.chunks(EXPAND_BATCH).zip(states.chunks(EXPAND_BATCH)).zip(ends),
            |((fresh, batch), end)| (fresh, work_out(batch), end),
            |(fresh, laws, end)| {
                self.insert_all(fresh, laws);
                walk(self, &ids[walked..end]);
                walked = end;
            },
        );
        walk(self, &ids[walked..]);
    }

    /// Adds the laws of a batch of states, a chunk of [`EXPAND_CHUNK`] at a time.
    fn insert_all(&mut self, ids: &[u32], laws: Vec<RawLaw<S>>) {
        for (ids, law) in ids.chunks(EXPAND_CHUNK).zip(laws) {
            self.insert(ids, law);
        }
    }

    /// Fills [`Graph::within`] and [`Graph::heights`]; panics if steps
    /// within a turn loop.
    fn order_within<G: Game<State = S>>(&mut self, game: &G) {
        const UNKNOWN: u32 = u32::MAX;
        const PENDING: u32 = u32::MAX - 1;
        let n = self.states.len();
        // Exploration marks every state it reaches within a turn with the
        // first turn it does so.
        let is_within: Vec<bool> = self.first_turn.iter().map(|&t| t != u32::MAX).collect();
        debug_assert!(
            self.transitions.iter().filter(|t| t.winner == WITHIN).all(|t| is_within[t.target as usize]),
            "every state reached within a turn has a first turn"
        );
        // Heights by a depth-first walk, without recursion: a state's height
        // is one more than its highest successor within the turn.
        let mut height = vec![UNKNOWN; n];
        let mut stack: Vec<(u32, bool)> = Vec::new();
        for id in (0..n as u32).filter(|&id| is_within[id as usize]) {
            if height[id as usize] != UNKNOWN {
                continue;
            }
            stack.push((id, false));
            while let Some((id, done)) = stack.pop() {
                if done {
                    let mut h = 0;
                    self.successors(id, &mut |target, within| {
                        if within {
                            h = h.max(height[target as usize] + 1);
                        }
                    });
                    height[id as usize] = h;
                    continue;
                }
                if height[id as usize] != UNKNOWN {
                    continue;
                }
                height[id as usize] = PENDING;
                stack.push((id, true));
                self.successors(id, &mut |target, within| {
                    if within {
                        match height[target as usize] {
                            UNKNOWN => stack.push((target, false)),
                            PENDING => panic!(
                                "steps within a turn come back to {:?}: each step within a turn must make progress",
                                game.describe_state(&self.states[target as usize], ATTACKER)
                            ),
                            _ => {}
                        }
                    }
                });
            }
        }
        let mut within: Vec<u32> = (0..n as u32).filter(|&id| is_within[id as usize]).collect();
        within.sort_by_key(|&id| std::cmp::Reverse(height[id as usize]));
        let mut heights = Vec::new();
        let mut end = within.len();
        while end > 0 {
            let h = height[within[end - 1] as usize];
            let first = within[..end].partition_point(|&id| height[id as usize] > h);
            heights.push((first as u32, end as u32));
            end = first;
        }
        self.within = within;
        self.heights = heights;
    }

    /// Renumbers the states in the order backward induction visits them
    /// (the states within a turn as [`Graph::within`] holds them, then the
    /// states that start a turn, then those only ever ended in) and lays out
    /// each state's tree, transitions and decision slots in that order, so
    /// that every sweep of the solver reads the graph front to back rather
    /// than in the order exploration happened to meet it. Each leaf's
    /// endings move to [`Graph::endings`], summed into its worth
    /// ([`LeafEnds`]). `starts` marks the states that start a turn.
    fn renumber(&mut self, starts: Vec<bool>) {
        let n = self.states.len();
        let mut order: Vec<u32> = Vec::with_capacity(n);
        let mut placed = vec![false; n];
        for &id in &self.within {
            order.push(id);
            placed[id as usize] = true;
        }
        // The states that start a turn (`starts`): those of the layers and
        // those a step continues into (the last turn's may have no law of
        // their own), as exploration marked them.
        for &id in self.layers.iter().flatten() {
            assert!(
                !placed[id as usize],
                "a state starts a turn and is reached within one: `starts_turn` must say which, from the state alone"
            );
            debug_assert!(starts[id as usize]);
        }
        debug_assert!(self.transitions.iter().filter(|t| t.winner == CONTINUES).all(|t| starts[t.target as usize]));
        let starts_from = order.len();
        order.extend((0..n as u32).filter(|&id| starts[id as usize]));
        let start_count = order.len() - starts_from;
        order.extend((0..n as u32).filter(|&id| !placed[id as usize] && !starts[id as usize]));
        let mut new_of = vec![0u32; n];
        for (new, &old) in order.iter().enumerate() {
            new_of[old as usize] = new as u32;
        }
        self.first_turn = order[..self.within.len()].iter().map(|&old| self.first_turn[old as usize]).collect();
        // Runs of the order laid out in parallel, and joined in order (each
        // run's indices moved on by the runs before it) while the next are
        // laid out: the same arrays as laying out one state after another.
        let mut joined = LaidOut {
            roots: Vec::with_capacity(n),
            nodes: Vec::with_capacity(self.nodes.len()),
            deciders: Vec::with_capacity(self.deciders.len()),
            children: Vec::with_capacity(self.children.len()),
            targets: Vec::with_capacity(self.transitions.len()),
            probabilities: Vec::with_capacity(self.transitions.len()),
            leaf_ends: Vec::new(),
            endings: Vec::new(),
        };
        let mut ending_states: Vec<(u8, u32)> = Vec::new();
        // The slot of each ending met so far, by final state and winner
        // (`END_COUNT * state + end`; `NO_NODE` for none yet): slots in the order
        // the endings are met.
        let mut ending_slots = vec![NO_NODE; END_COUNT * n];
        pipelined(
            order.chunks(LAY_OUT_CHUNK * LAY_OUT_BATCH),
            |batch| {
                batch
                    .par_chunks(LAY_OUT_CHUNK)
                    .map(|chunk| {
                        // Sized to hold the run: its transitions (the
                        // targets and endings together) are known.
                        let transitions: usize = chunk.iter().map(|&old| self.spans[old as usize].1 as usize).sum();
                        let mut laid = LaidOut {
                            roots: Vec::with_capacity(chunk.len()),
                            nodes: Vec::with_capacity(4 * chunk.len()),
                            children: Vec::with_capacity(4 * chunk.len()),
                            targets: Vec::with_capacity(transitions),
                            probabilities: Vec::with_capacity(transitions),
                            endings: Vec::with_capacity(transitions / 2),
                            ..LaidOut::default()
                        };
                        for &old in chunk {
                            let root = self.root[old as usize];
                            let root = if root == NO_NODE { NO_NODE } else { self.lay_out(root, &new_of, &mut laid) };
                            laid.roots.push(root);
                        }
                        laid
                    })
                    .collect::<Vec<LaidOut>>()
            },
            |pieces| {
                for piece in pieces {
                    joined.join(piece, &mut ending_slots, &mut ending_states);
                }
            },
        );
        let (states, ids) = (&mut self.states, &mut self.ids);
        rayon::join(
            || *states = order.par_iter().map(|&old| states[old as usize]).collect(),
            || {
                for id in ids.values_mut() {
                    *id = new_of[*id as usize];
                }
            },
        );
        for id in self.layers.iter_mut().flatten().chain(&mut self.within) {
            *id = new_of[*id as usize];
        }
        for layer in &mut self.layers {
            layer.sort_unstable();
            debug_assert!(layer.iter().all(|&id| {
                let id = id as usize;
                id >= self.within.len() && id < self.within.len() + start_count
            }));
        }
        self.root = joined.roots;
        (self.spans, self.transitions) = (Vec::new(), Vec::new());
        (self.nodes, self.deciders, self.children, self.targets, self.probabilities) =
            (joined.nodes, joined.deciders, joined.children, joined.targets, joined.probabilities);
        (self.leaf_ends, self.endings, self.ending_states) = (joined.leaf_ends, joined.endings, ending_states);
        self.within_count = self.within.len() as u32;
        self.start_count = start_count as u32;
    }

    /// Copies the tree below `node` into `laid`, its states renumbered by
    /// `new_of`; the copy's index.
    fn lay_out(&self, node: u32, new_of: &[u32], laid: &mut LaidOut) -> u32 {
        let index = laid.nodes.len() as u32;
        match self.nodes[node as usize] {
            Node::Leaf { first, count, .. } => {
                let start = laid.targets.len() as u32;
                let ends_first = laid.endings.len() as u32;
                let mut worth = Worth::ZERO;
                for t in &self.transitions[first as usize..(first + count) as usize] {
                    let target = new_of[t.target as usize];
                    if t.winner == CONTINUES || t.winner == WITHIN {
                        laid.targets.push(target);
                        laid.probabilities.push(t.probability);
                    } else {
                        debug_assert!((t.winner as usize) < END_COUNT, "an ending's code");
                        worth.add_scaled(t.probability, ending_worth(self.purpose, End::from_code(t.winner)));
                        let key = END_COUNT as u32 * target + u32::from(t.winner);
                        laid.endings.push(Ending { slot: key, probability: t.probability });
                    }
                }
                let ends_count = laid.endings.len() as u32 - ends_first;
                let ends = if ends_count == 0 {
                    NO_NODE
                } else {
                    laid.leaf_ends.push(LeafEnds { worth, first: ends_first, count: ends_count });
                    laid.leaf_ends.len() as u32 - 1
                };
                laid.nodes.push(Node::Leaf { first: start, count: laid.targets.len() as u32 - start, ends });
            }
            Node::Chance { first, count } | Node::Decide { first, count, .. } => {
                let kind = self.nodes[node as usize];
                laid.nodes.push(kind);
                // A decision's slot, in the order the layout meets them.
                let slot = laid.deciders.len() as u32;
                if let Node::Decide { slot: old, .. } = kind {
                    laid.deciders.push(self.deciders[old as usize]);
                }
                // The children's places first, then each child's tree.
                let start = laid.children.len() as u32;
                laid.children.extend_from_slice(&self.children[first as usize..(first + count) as usize]);
                for i in start..start + count {
                    let child = laid.children[i as usize].1;
                    laid.children[i as usize].1 = self.lay_out(child, new_of, laid);
                }
                laid.nodes[index as usize] = match kind {
                    Node::Decide { .. } => Node::Decide { first: start, count, slot },
                    _ => Node::Chance { first: start, count },
                };
            }
        }
        index
    }

    /// Adds the laws of the states `ids`, giving their targets ids.
    fn insert(&mut self, ids: &[u32], law: RawLaw<S>) {
        let node_base = self.nodes.len() as u32;
        let child_base = self.children.len() as u32;
        let transition_base = self.transitions.len() as u32;
        let slot_base = self.deciders.len() as u32;
        for &node in &law.nodes {
            self.nodes.push(match node {
                Node::Decide { first, count, slot } => {
                    Node::Decide { first: first + child_base, count, slot: slot + slot_base }
                }
                Node::Chance { first, count } => Node::Chance { first: first + child_base, count },
                Node::Leaf { first, count, ends } => Node::Leaf { first: first + transition_base, count, ends },
            });
        }
        self.deciders.extend_from_slice(&law.deciders);
        self.children.extend(law.children.iter().map(|&(key, node)| (key, node + node_base)));
        for &(branch, probability) in &law.transitions {
            let (winner, state) = match branch {
                Branch::Continue(s) => (CONTINUES, s),
                Branch::Within(s) => (WITHIN, s),
                Branch::End(end, s) => (end as u8, s),
            };
            let target = self.id(state).0;
            self.transitions.push(Transition { target, winner, probability });
        }
        let mut first = transition_base;
        for (&id, &(root, end)) in ids.iter().zip(&law.ends) {
            self.root[id as usize] = node_base + root;
            self.spans[id as usize] = (first, transition_base + end - first);
            first = transition_base + end;
        }
    }

    /// Calls `visit(target, within)` with every state that may follow state
    /// `id`, whatever is chosen, and whether it is within the same turn: its
    /// transitions are one run, so this is a scan, not a walk of its tree.
    fn successors(&self, id: u32, visit: &mut impl FnMut(u32, bool)) {
        let (first, count) = self.spans[id as usize];
        for t in &self.transitions[first as usize..(first + count) as usize] {
            if t.winner == CONTINUES || t.winner == WITHIN {
                visit(t.target, t.winner == WITHIN);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Solving.

/// What a state is worth to both sides under the play solved: each side's
/// chance of winning under the fight's purpose (`wins`), each side's chance
/// of beating the other outright (`beats`: the secondary aim that decides
/// between options the purpose values alike), and the turns still to play
/// (`turns`, expected: what decides last).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Worth {
    wins: [f64; 2],
    beats: [f64; 2],
    turns: f64,
}

/// What ending `end` is worth under `purpose`: no turns left to play.
fn ending_worth(purpose: Purpose, end: End) -> Worth {
    let mut worth = Worth::default();
    match purpose.winner(end) {
        ATTACKER => worth.wins[0] = 1.0,
        DEFENDER => worth.wins[1] = 1.0,
        _ => {}
    }
    if let Some(side) = end.beaten_by() {
        worth.beats[side as usize] = 1.0;
    }
    worth
}

fn objective_of(wins: [f64; 2], side: u8, objective: Objective) -> f64 {
    let me = wins[side as usize];
    match objective {
        Objective::Margin => me - wins[1 - side as usize],
        Objective::Win => me,
    }
}

/// Values of the secondary aims closer than this are a tie (turns are
/// counted in whole turns, so a tolerance this size never hides a real
/// difference in them).
const SECONDARY_TIE: f64 = 1e-9;

/// Side `side`'s preference key for an option: its aim under the purpose
/// and its objective, then its margin of outright wins (routing the enemy,
/// not being routed), then the turns to play, fewer where that margin is
/// not negative (a side with something to gain ends the fight sooner, one
/// with something to lose draws it out).
#[inline(always)]
pub(crate) fn preference(aim: f64, beat: f64, turns: f64) -> [f64; 3] {
    [aim, beat, if beat >= -TIE { -turns } else { turns }]
}

/// Whether preference key `a` beats `b`: lexicographically, each part
/// within its tolerance a tie.
#[inline(always)]
pub(crate) fn prefers(a: [f64; 3], b: [f64; 3]) -> bool {
    let tolerances = [TIE, TIE, SECONDARY_TIE];
    for i in 0..3 {
        if a[i] > b[i] + tolerances[i] {
            return true;
        }
        if a[i] < b[i] - tolerances[i] {
            return false;
        }
    }
    false
}

/// What backward induction carries for each state, and how a deciding side
/// ranks it: both sides' chances ([`Worth`], under a [`Plan`]'s
/// objectives), or, where every side that decides maximises one number or
/// its negative, that number alone with the secondary aims ([`Scaled`]),
/// which is less to read and add in each sweep.
trait Value: Copy + Send + Sync {
    /// How the value is read from a [`Worth`] and ranked.
    type How: Copy + Send + Sync;
    const ZERO: Self;
    fn of(worth: Worth, how: Self::How) -> Self;
    fn add_scaled(&mut self, p: f64, other: Self);
    /// One more turn to play, with chance `p`.
    fn add_turn(&mut self, p: f64);
    /// What side `side` maximises, most important first (see [`preference`]).
    fn key(self, side: u8, how: Self::How) -> [f64; 3];
}

impl Value for Worth {
    type How = Plan;
    const ZERO: Worth = Worth { wins: [0.0; 2], beats: [0.0; 2], turns: 0.0 };

    #[inline(always)]
    fn of(worth: Worth, _: Plan) -> Worth {
        worth
    }

    #[inline(always)]
    fn add_scaled(&mut self, p: f64, other: Worth) {
        for s in 0..2 {
            self.wins[s] += p * other.wins[s];
            self.beats[s] += p * other.beats[s];
        }
        self.turns += p * other.turns;
    }

    #[inline(always)]
    fn add_turn(&mut self, p: f64) {
        self.turns += p;
    }

    #[inline(always)]
    fn key(self, side: u8, plan: Plan) -> [f64; 3] {
        let s = side as usize;
        preference(objective_of(self.wins, side, plan.objective[s]), self.beats[s] - self.beats[1 - s], self.turns)
    }
}

/// One number that every deciding side maximises or minimises:
/// `weights[0] * attacker wins + weights[1] * defender wins`, side `s`
/// maximising `signs[s]` times it, and likewise its outright wins'
/// margin, `beat_weights` against the two sides' outright wins. Both sides
/// maximising their margin is the zero-sum case (the attacker's margin,
/// which the defender minimises); a side deciding alone may maximise either
/// objective.
#[derive(Clone, Copy, Debug)]
struct Scalar {
    weights: [f64; 2],
    beat_weights: [f64; 2],
    signs: [f64; 2],
}

impl Scalar {
    /// The one number of `plan`, where there is one.
    fn of(plan: Plan) -> Option<Scalar> {
        let deciding = plan.policy.map(|p| p == Policy::Best);
        let weights_of = |side: usize| {
            let mut weights = [0.0; 2];
            weights[side] = 1.0;
            if plan.objective[side] == Objective::Margin {
                weights[1 - side] = -1.0;
            }
            weights
        };
        let margin_of = |side: usize| {
            let mut weights = [-1.0; 2];
            weights[side] = 1.0;
            weights
        };
        match deciding {
            [true, true] => (plan.objective == [Objective::Margin; 2]).then_some(Scalar {
                weights: [1.0, -1.0],
                beat_weights: [1.0, -1.0],
                signs: [1.0, -1.0],
            }),
            [false, true] => Some(Scalar { weights: weights_of(1), beat_weights: margin_of(1), signs: [1.0; 2] }),
            _ => Some(Scalar { weights: weights_of(0), beat_weights: margin_of(0), signs: [1.0; 2] }),
        }
    }
}

/// A state's worth as a [`Scalar`] reads it: the aim, the outright wins'
/// margin, and the turns to play.
#[derive(Clone, Copy, Debug, Default)]
struct Scaled {
    aim: f64,
    beat: f64,
    turns: f64,
}

impl Value for Scaled {
    type How = Scalar;
    const ZERO: Scaled = Scaled { aim: 0.0, beat: 0.0, turns: 0.0 };

    #[inline(always)]
    fn of(worth: Worth, how: Scalar) -> Scaled {
        Scaled {
            aim: how.weights[0] * worth.wins[0] + how.weights[1] * worth.wins[1],
            beat: how.beat_weights[0] * worth.beats[0] + how.beat_weights[1] * worth.beats[1],
            turns: worth.turns,
        }
    }

    #[inline(always)]
    fn add_scaled(&mut self, p: f64, other: Scaled) {
        self.aim += p * other.aim;
        self.beat += p * other.beat;
        self.turns += p * other.turns;
    }

    #[inline(always)]
    fn add_turn(&mut self, p: f64) {
        self.turns += p;
    }

    #[inline(always)]
    fn key(self, side: u8, how: Scalar) -> [f64; 3] {
        let sign = how.signs[side as usize];
        preference(sign * self.aim, sign * self.beat, self.turns)
    }
}

/// A solved game: its graph and, for each step, the option taken at each
/// decision node.
struct Solution<S> {
    graph: Graph<S>,
    /// `choices[t][slot]`: the index of the option taken at decision node
    /// `slot` at step `t`.
    choices: Vec<Vec<u8>>,
    plan: Plan,
}

/// One option of an explained decision.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionValue {
    /// The option in words.
    pub option: String,
    /// The attacker's chance of winning if this option is taken, under best play afterwards.
    pub attacker_wins: f64,
    /// The defender's chance of winning.
    pub defender_wins: f64,
    /// The attacker's chance of beating the defender outright (routing,
    /// breaking or destroying it, or taking its aim), whatever the purpose
    /// makes of the other endings: the secondary aim.
    pub attacker_beats: f64,
    /// The defender's chance of beating the attacker outright.
    pub defender_beats: f64,
    /// The turns still to play after it, expected (what decides last).
    pub turns: f64,
    /// Whether the policy takes it.
    pub chosen: bool,
    /// How it compares with the option taken, where the two tie.
    pub tie: Tie,
}

/// How an option that was not taken compares with the one that was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tie {
    /// It is the one taken, or worse on the deciding side's aim under the
    /// purpose: no tie.
    No,
    /// As good on the purpose, worse on a secondary aim (outright wins,
    /// then the turns to play), which decided.
    Purpose,
    /// As good on every aim: the order the options are listed in decided.
    All,
}

/// A side's first decision from the start, with the value of every option.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// `attacker` or `defender`.
    pub side: &'static str,
    /// The decision's name.
    pub decision: &'static str,
    /// The situation, in words.
    pub situation: String,
    /// The game turn step (1-based) at which it is taken.
    pub step: u32,
    /// The chance that the fight reaches this very situation.
    pub reached: f64,
    /// Every option, in the order ties are broken.
    pub options: Vec<OptionValue>,
}

impl<S: Copy + Eq + Hash + Send + Sync + fmt::Debug> Solution<S> {
    fn solve<G: Game<State = S>>(game: &G, plan: Plan) -> Option<Solution<S>> {
        let graph = Graph::explore(game, plan)?;
        let turns = game.steps() as usize;
        let mut choices = vec![Vec::new(); turns];
        match Scalar::of(plan) {
            Some(scalar) => {
                let mut worths = graph.limit_worths::<G, Scaled>(game, scalar);
                for t in (0..graph.layers.len()).rev() {
                    choices[t] = graph.backward_turn(t, &mut worths, scalar, &mut []);
                }
            }
            None => {
                let mut worths = graph.limit_worths::<G, Worth>(game, plan);
                for t in (0..graph.layers.len()).rev() {
                    choices[t] = graph.backward_turn(t, &mut worths, plan, &mut []);
                }
            }
        }
        Some(Solution { graph, choices, plan })
    }
}

impl<S: Copy + Eq + Hash + Send + Sync> Graph<S> {
    /// The worths at the turn limit, where backward induction starts.
    fn limit_worths<G: Game<State = S>, V: Value>(&self, game: &G, how: V::How) -> Worths<V> {
        let w = self.within_count as usize;
        let starts: Vec<V> = self.states[w..w + self.start_count as usize]
            .iter()
            .map(|s| V::of(ending_worth(self.purpose, game.at_limit(s)), how))
            .collect();
        let mut live = vec![V::ZERO; w];
        live.extend_from_slice(&starts);
        Worths { live, current: starts }
    }

    /// One turn of backward induction: the worth in turn `t` of every state
    /// within a turn (run by run, each in parallel) and then of every state
    /// starting turn `t`, given the worths at the start of turn `t + 1`;
    /// the turn's worths then become the next. Returns the table of the
    /// options taken; each of `captures` (a state, and a decision slot with
    /// room for its options) also keeps the worth of each option there.
    fn backward_turn<V: Value>(
        &self,
        t: usize,
        worths: &mut Worths<V>,
        how: V::How,
        captures: &mut [(u32, (u32, Vec<V>))],
    ) -> Vec<u8> {
        // Each state's decision nodes are its own slots, so the states of a
        // run write disjoint entries of the table.
        let table: Vec<AtomicU8> = (0..self.deciders.len()).map(|_| AtomicU8::new(0)).collect();
        let w = self.within_count;
        // Runs of equal height, the lowest first: ids `first..end`, reading
        // only the states within the turn at `end` and beyond.
        for &(first, end) in &self.heights {
            let (head, tail) = worths.live.split_at_mut(end as usize);
            let sweep = Sweep { values: tail, base: end };
            head[first as usize..].par_iter_mut().with_min_len(256).enumerate().for_each(|(i, worth)| {
                let id = first as usize + i;
                if self.first_turn[id] as usize <= t {
                    *worth = self.worth(self.root[id], &sweep, how, &table, None);
                }
            });
        }
        let sweep = Sweep { values: &worths.live, base: 0 };
        let layer = &self.layers[t];
        let starting: Vec<V> = layer
            .par_iter()
            .with_min_len(256)
            .map(|&id| self.worth(self.root[id as usize], &sweep, how, &table, None))
            .collect();
        for (id, capture) in captures.iter_mut() {
            self.worth(self.root[*id as usize], &sweep, how, &table, Some(capture));
        }
        for (&id, &worth) in layer.iter().zip(&starting) {
            worths.current[(id - w) as usize] = worth;
        }
        // This turn's starts become the next turn's, read by the turn before.
        worths.live[w as usize..].swap_with_slice(&mut worths.current);
        table.into_iter().map(AtomicU8::into_inner).collect()
    }

    /// The worth of node `node`, reading the worths of the states it leads
    /// to from `sweep`; records the option taken at each decision node in
    /// `table`, and, when `capture` is `Some(slot)`, the worth of each
    /// option at that node.
    fn worth<V: Value>(
        &self,
        node: u32,
        sweep: &Sweep<'_, V>,
        how: V::How,
        table: &[AtomicU8],
        mut capture: Option<&mut (u32, Vec<V>)>,
    ) -> V {
        match self.nodes[node as usize] {
            Node::Leaf { first, count, ends } => {
                let mut worth = if ends == NO_NODE { V::ZERO } else { V::of(self.leaf_ends[ends as usize].worth, how) };
                let run = first as usize..(first + count) as usize;
                for (&target, &p) in self.targets[run.clone()].iter().zip(&self.probabilities[run]) {
                    worth.add_scaled(p, sweep.read(target));
                    // A state that starts a turn is a turn more to play.
                    if target >= self.within_count {
                        worth.add_turn(p);
                    }
                }
                worth
            }
            Node::Chance { first, count } => {
                let mut worth = V::ZERO;
                for &(bits, child) in &self.children[first as usize..(first + count) as usize] {
                    let w = self.worth(child, sweep, how, table, capture.as_deref_mut());
                    worth.add_scaled(f64::from_bits(bits), w);
                }
                worth
            }
            Node::Decide { first, count, slot } => {
                let side = self.deciders[slot as usize].0;
                let mut best: Option<([f64; 3], usize, V)> = None;
                // Each option's worth is kept only at the node being explained.
                let capturing = capture.as_ref().is_some_and(|c| c.0 == slot);
                let mut options = Vec::new();
                for (i, &(_, child)) in self.children[first as usize..(first + count) as usize].iter().enumerate() {
                    let w = self.worth(child, sweep, how, table, capture.as_deref_mut());
                    if capturing {
                        options.push(w);
                    }
                    // Options equal on every aim go to the one listed first.
                    let key = w.key(side, how);
                    if best.is_none_or(|(b, _, _)| prefers(key, b)) {
                        best = Some((key, i, w));
                    }
                }
                if capturing && let Some(c) = capture {
                    c.1 = options;
                }
                let (_, chosen, worth) = best.expect("a decision has options");
                table[slot as usize].store(chosen as u8, Ordering::Relaxed);
                worth
            }
        }
    }
}

/// Backward induction's worths: `live` by state id, those of the states
/// within a turn (this turn's) and then of the states that start one (the
/// next turn's), so that a transition's target indexes it directly; and
/// this turn's starts, as they are worked out (see [`Graph::within_count`]).
struct Worths<V> {
    live: Vec<V>,
    current: Vec<V>,
}

/// What one sweep of backward induction reads: the worths of the states
/// from id `base` on (those within the turn, then the next turn's starts).
struct Sweep<'a, V> {
    values: &'a [V],
    base: u32,
}

impl<V: Copy> Sweep<'_, V> {
    #[inline(always)]
    fn read(&self, target: u32) -> V {
        self.values[(target - self.base) as usize]
    }
}

impl<S: Copy + Eq + Hash + Send + Sync + fmt::Debug> Solution<S> {
    /// Walks the table forwards from the start, a turn at a time: in each
    /// turn `t`, calls `at(t, id, p)`, where there is an `at`, for every
    /// state holding mass `p` (the turn's starting states, then the states
    /// within it in order) before spreading that mass, then `ended(t,
    /// masses)` with the mass of each ending that turn (by [`Graph::ending_states`] slot; the callee takes
    /// it, leaving zeros); stops after a turn for which `go_on(t)` is false.
    /// Returns the masses then: one for every state that goes on (the
    /// states within a turn, then the starts; see [`Graph::within_count`]:
    /// those of the next turn's starts) and then one for every ending slot.
    ///
    /// The states whose mass is spread together (a turn's starts, or a run
    /// of states within it of equal height, none of which leads to another)
    /// are cut into [`FORWARD_PARTS`] blocks, each spreading into masses of
    /// its own, in parallel; a state's mass is the sum of its parts', in
    /// order. The cut depends only on the number of states, so the sums are
    /// the same to the bit on any number of threads.
    fn forward(
        &self,
        mut at: Option<impl FnMut(usize, u32, f64)>,
        mut ended: impl FnMut(usize, &mut [f64]),
        mut go_on: impl FnMut(usize) -> bool,
    ) -> Vec<f64> {
        let graph = &self.graph;
        let live = graph.live_count();
        let size = live + graph.ending_states.len();
        let mut parts: Vec<Vec<f64>> = (0..FORWARD_PARTS).map(|_| vec![0.0f64; size]).collect();
        parts[0][graph.layers[0][0] as usize] = 1.0;
        let take = |parts: &mut [Vec<f64>], id: u32| -> f64 {
            parts.iter_mut().fold(0.0, |sum, part| sum + std::mem::take(&mut part[id as usize]))
        };
        let mut sources: Vec<(u32, f64)> = Vec::new();
        for (t, layer) in graph.layers.iter().enumerate() {
            // Every start's mass is taken before any is spread: a start may
            // lead to another of this turn's, for the next turn.
            sources.clear();
            sources.extend(layer.iter().map(|&id| (id, take(&mut parts, id))));
            self.spread_parts(t, &sources, &mut parts, &mut at);
            // The states within the turn, each after all that lead to it: a
            // run of equal height at a time, the greatest first.
            for &(first, end) in graph.heights.iter().rev() {
                self.spread_run(t, first as usize, end as usize, &mut parts, &mut at);
            }
            let (head, rest) = parts.split_at_mut(1);
            for part in rest {
                for (sum, q) in head[0][live..].iter_mut().zip(&mut part[live..]) {
                    *sum += std::mem::take(q);
                }
            }
            ended(t, &mut head[0][live..]);
            if !go_on(t) {
                break;
            }
        }
        let (head, rest) = parts.split_at_mut(1);
        for part in rest {
            for (sum, q) in head[0].iter_mut().zip(part.iter()) {
                *sum += q;
            }
        }
        parts.swap_remove(0)
    }

    /// Spreads the masses of the states `first..end` within turn `t`, a run
    /// of equal height (none leads to another, and every state they lead
    /// to comes after them), into `parts` as [`Solution::spread_parts`]
    /// does, in the same blocks, calling `at` as it does: each block takes
    /// its own states' masses from every part as it goes, on its own
    /// thread, rather than all being taken first on one.
    fn spread_run(
        &self,
        t: usize,
        first: usize,
        end: usize,
        parts: &mut [Vec<f64>],
        at: &mut Option<impl FnMut(usize, u32, f64)>,
    ) {
        if let Some(at) = at {
            for id in first..end {
                let p = parts.iter().fold(0.0, |sum, part| sum + part[id]);
                if p != 0.0 {
                    at(t, id as u32, p);
                }
            }
        }
        let count = parts.len();
        let blocks = if end - first < FORWARD_SPLIT { 1 } else { count };
        let size = (end - first).div_ceil(blocks);
        // Each block's share of every part over its states, and the part it
        // spreads into, beyond the run.
        let mut shares: Vec<Vec<&mut [f64]>> = (0..blocks).map(|_| Vec::with_capacity(count)).collect();
        let mut into: Vec<&mut [f64]> = Vec::with_capacity(blocks);
        for (k, part) in parts.iter_mut().enumerate() {
            let (head, tail) = part.split_at_mut(end);
            for (j, share) in head[first..].chunks_mut(size).enumerate() {
                shares[j].push(share);
            }
            if k < blocks {
                into.push(tail);
            }
        }
        shares.into_par_iter().zip(into).enumerate().for_each(|(j, (mut share, mass))| {
            let base = first + j * size;
            for i in 0..share[0].len() {
                let p = share.iter_mut().fold(0.0, |sum, part| sum + std::mem::take(&mut part[i]));
                if p != 0.0 {
                    self.spread(self.graph.root[base + i], t, p, &mut |target, q| {
                        debug_assert!(target as usize >= end, "a run leads only beyond itself");
                        mass[target as usize - end] += q;
                    });
                }
            }
        });
    }

    /// Spreads the mass of each of `sources` (states none of which leads to
    /// another in turn `t`, their mass taken) into `parts`, calling `at(t,
    /// id, p)` for each that holds any; see [`Solution::forward`].
    fn spread_parts(
        &self,
        t: usize,
        sources: &[(u32, f64)],
        parts: &mut [Vec<f64>],
        at: &mut Option<impl FnMut(usize, u32, f64)>,
    ) {
        if let Some(at) = at {
            for &(id, p) in sources.iter().filter(|&&(_, p)| p != 0.0) {
                at(t, id, p);
            }
        }
        let spread_into = |mass: &mut Vec<f64>, block: &[(u32, f64)]| {
            for &(id, p) in block {
                if p != 0.0 {
                    self.spread(self.graph.root[id as usize], t, p, &mut |i, q| mass[i as usize] += q);
                }
            }
        };
        if sources.len() < FORWARD_SPLIT {
            spread_into(&mut parts[0], sources);
        } else {
            let block = sources.len().div_ceil(parts.len());
            parts.par_iter_mut().zip(sources.par_chunks(block)).for_each(|(mass, block)| spread_into(mass, block));
        }
    }

    /// The exact distribution of outcome codes under the table.
    fn distribution<G: Game<State = S>>(&self, game: &G) -> Vec<(u64, f64)> {
        let graph = &self.graph;
        let mut ends: HashMap<u64, f64, BuildHasherDefault<CodeHasher>> = HashMap::default();
        let left = self.forward(
            None::<fn(usize, u32, f64)>,
            |t, masses| {
                for (slot, q) in masses.iter_mut().enumerate() {
                    if *q != 0.0 {
                        let (end, id) = graph.ending_states[slot];
                        let code = outcome_code(game, End::from_code(end), t as u32 + 1, &graph.states[id as usize]);
                        *ends.entry(code).or_insert(0.0) += std::mem::take(q);
                    }
                }
            },
            |_| true,
        );
        // What is still going has reached the limit (a layer list shorter
        // than the limit means nothing is).
        let limit = game.steps();
        for (id, &p) in left[..graph.live_count()].iter().enumerate() {
            if p > 0.0 {
                debug_assert!(id >= graph.within_count as usize, "no mass is left within a turn");
                let state = &graph.states[id];
                *ends.entry(outcome_code(game, game.at_limit(state), limit, state)).or_insert(0.0) += p;
            }
        }
        let mut result: Vec<(u64, f64)> = ends.into_iter().filter(|&(_, p)| p > 0.0).collect();
        result.sort_unstable_by_key(|&(code, _)| code);
        result
    }

    /// Sends mass `p` at node `node` (turn `t`) through the table: `out(i,
    /// q)` for mass `q` going on to state `i`, or ending in slot `i` less
    /// [`Graph::live_count`].
    fn spread(&self, node: u32, t: usize, p: f64, out: &mut impl FnMut(u32, f64)) {
        let graph = &self.graph;
        match graph.nodes[node as usize] {
            Node::Leaf { first, count, ends } => {
                let run = first as usize..(first + count) as usize;
                for (&target, &q) in graph.targets[run.clone()].iter().zip(&graph.probabilities[run]) {
                    out(target, p * q);
                }
                if ends != NO_NODE {
                    let LeafEnds { first, count, .. } = graph.leaf_ends[ends as usize];
                    let live = graph.live_count() as u32;
                    for ending in &graph.endings[first as usize..(first + count) as usize] {
                        out(live + ending.slot, p * ending.probability);
                    }
                }
            }
            Node::Chance { first, count } => {
                for &(bits, child) in &graph.children[first as usize..(first + count) as usize] {
                    self.spread(child, t, p * f64::from_bits(bits), out);
                }
            }
            Node::Decide { first, slot, .. } => {
                let chosen = self.choices[t][slot as usize] as usize;
                self.spread(graph.children[first as usize + chosen].1, t, p, out);
            }
        }
    }

    /// Each side's first decision under the table: the most likely situation
    /// in the first turn where the side decides, with every option's worth.
    fn explain<G: Game<State = S>>(&self, game: &G) -> Vec<Explained> {
        let graph = &self.graph;
        // Forward under the table: for each side, the first turn in which it
        // decides, and there the most likely (state, decision node) with its mass.
        let mut found: [Option<(usize, u32, u32, f64)>; 2] = [None, None];
        // Shared by the walk's two callbacks, each borrowing it in turn.
        let candidates: std::cell::RefCell<[Option<(u32, u32, f64)>; 2]> = Default::default();
        self.forward(
            Some(|t, id, p| {
                self.decisions_reached(graph.root[id as usize], t, p, &mut |side, node, q| {
                    let best = &mut candidates.borrow_mut()[side as usize];
                    if best.is_none_or(|(_, _, b)| q > b + TIE) {
                        *best = Some((id, node, q));
                    }
                });
            }),
            |_, _| {},
            |t| {
                let taken = candidates.take();
                for side in 0..2 {
                    if found[side].is_none()
                        && let Some((id, node, q)) = taken[side]
                    {
                        found[side] = Some((t, id, node, q));
                    }
                }
                !found.iter().all(Option::is_some)
            },
        );
        // The worth of each option there: backward again down to that turn.
        let targets: Vec<(usize, u32, u32, f64)> = found.iter().flatten().copied().collect();
        let Some(earliest) = targets.iter().map(|t| t.0).min() else { return Vec::new() };
        let mut worths = graph.limit_worths::<G, Worth>(game, self.plan);
        let mut captured: Vec<Option<Vec<Worth>>> = vec![None; targets.len()];
        for t in (earliest..graph.layers.len()).rev() {
            let at_t: Vec<usize> = (0..targets.len()).filter(|&k| targets[k].0 == t).collect();
            let mut captures: Vec<(u32, (u32, Vec<Worth>))> = at_t
                .iter()
                .map(|&k| {
                    let (_, id, node, _) = targets[k];
                    let Node::Decide { slot, .. } = graph.nodes[node as usize] else { unreachable!() };
                    (id, (slot, Vec::new()))
                })
                .collect();
            graph.backward_turn(t, &mut worths, self.plan, &mut captures);
            for (&k, (_, (_, options))) in at_t.iter().zip(captures) {
                captured[k] = Some(options);
            }
        }
        targets
            .iter()
            .zip(captured)
            .map(|(&(t, id, node, reached), worths)| {
                let Node::Decide { first, count, slot } = graph.nodes[node as usize] else { unreachable!() };
                let (side, decision) = graph.deciders[slot as usize];
                let chosen = self.choices[t][slot as usize] as usize;
                let worths = worths.expect("every target is captured");
                let taken = worths[chosen].key(side, self.plan);
                let options = graph.children[first as usize..(first + count) as usize]
                    .iter()
                    .zip(worths)
                    .enumerate()
                    .map(|(i, (&(option, _), w))| {
                        let key = w.key(side, self.plan);
                        let tie = if i == chosen || (key[0] - taken[0]).abs() > TIE {
                            Tie::No
                        } else if prefers(taken, key) {
                            Tie::Purpose
                        } else {
                            Tie::All
                        };
                        OptionValue {
                            option: game.describe_option(decision, option as u16),
                            attacker_wins: w.wins[0],
                            defender_wins: w.wins[1],
                            attacker_beats: w.beats[0],
                            defender_beats: w.beats[1],
                            turns: w.turns,
                            chosen: i == chosen,
                            tie,
                        }
                    })
                    .collect();
                Explained {
                    side: side_name(side),
                    decision: decision.name,
                    situation: game.describe_state(&graph.states[id as usize], side),
                    step: t as u32 + 1,
                    reached,
                    options,
                }
            })
            .collect()
    }

    /// Calls `visit(side, node, mass)` for each decision node met below `node`
    /// under the table, with the mass that reaches it (the first decision of
    /// each side on each path).
    fn decisions_reached(&self, node: u32, t: usize, p: f64, visit: &mut impl FnMut(u8, u32, f64)) {
        let graph = &self.graph;
        match graph.nodes[node as usize] {
            Node::Leaf { .. } => {}
            Node::Chance { first, count } => {
                for &(bits, child) in &graph.children[first as usize..(first + count) as usize] {
                    self.decisions_reached(child, t, p * f64::from_bits(bits), visit);
                }
            }
            Node::Decide { first, slot, .. } => {
                let side = graph.deciders[slot as usize].0;
                visit(side, node, p);
                let chosen = self.choices[t][slot as usize] as usize;
                self.decisions_reached(graph.children[first as usize + chosen].1, t, p, visit);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The scenario.

/// What a side was asked to play and what it played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolicyUse {
    /// The policy the keys asked for.
    pub asked: Policy,
    /// The policy played: `asked`, or the game's fallback where best play is
    /// beyond the solver.
    pub played: Policy,
    /// What the side maximises when it plays `best`.
    pub objective: Objective,
}

impl fmt::Display for PolicyUse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::params::Choice;
        if self.asked == self.played {
            write!(f, "{}", self.played.name())?;
        } else {
            write!(f, "{} (best play is beyond the solver here)", self.played.name())?;
        }
        if self.played == Policy::Best && self.objective != Objective::Margin {
            write!(f, ", objective {}", self.objective.name())?;
        }
        Ok(())
    }
}

/// A game played under a plan: a [`Scenario`] whose sampler, exact
/// distribution and best play all come from the one description.
///
/// Its metrics are the game's with `ended` ([`ENDED_METRIC`]) after them:
/// an outcome code is the game's code times the number of [`ENDED`]
/// labels plus the ending's index.
pub struct Played<G: Game> {
    game: G,
    plan: Plan,
    layout: Layout,
    solution: OnceLock<Option<Solution<G::State>>>,
}

impl<G: Game> fmt::Debug for Played<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Played").field("plan", &self.plan).finish_non_exhaustive()
    }
}

impl<G: Game> Played<G> {
    /// `game` under `plan`.
    pub fn new(game: G, plan: Plan) -> Played<G> {
        let mut metrics = game.layout().metrics().to_vec();
        metrics.push(ENDED_METRIC);
        Played { layout: Layout::new(metrics), game, plan, solution: OnceLock::new() }
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The plan played: the plan asked for, or, where its best play is
    /// beyond the solver, the plan with the game's fallback for `best`.
    fn effective_plan(&self) -> Plan {
        if self.plan.wants_solver() && !self.game.solvable(self.plan) {
            self.plan.without_best(self.game.fallback())
        } else {
            self.plan
        }
    }

    /// The solved table of the plan played, once; `None` beyond the solver.
    fn solution(&self) -> Option<&Solution<G::State>> {
        self.solution
            .get_or_init(|| {
                let plan = self.effective_plan();
                if self.game.solvable(plan) { Solution::solve(&self.game, plan) } else { None }
            })
            .as_ref()
    }

    /// The plan sampling follows: `best` where solved, else the fallback.
    fn sampled_plan(&self) -> (Plan, Option<&Solution<G::State>>) {
        let plan = self.effective_plan();
        if !plan.wants_solver() {
            return (plan, None);
        }
        match self.solution() {
            Some(solution) => (plan, Some(solution)),
            None => (plan.without_best(self.game.fallback()), None),
        }
    }

    /// Each side's policy as asked and as played.
    pub fn policies(&self) -> [PolicyUse; 2] {
        let (played, _) = self.sampled_plan();
        [0, 1].map(|s| PolicyUse {
            asked: self.plan.policy[s],
            played: played.policy[s],
            objective: self.plan.objective[s],
        })
    }

    /// Each side's first decision with the value of every option, where the game is solved.
    pub fn explain(&self) -> Option<Vec<Explained>> {
        if self.effective_plan() != self.plan {
            return None;
        }
        Some(self.solution()?.explain(&self.game))
    }
}

impl<G: Game> Scenario for Played<G> {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn sample(&self, dice: &mut Dice) -> u64 {
        let (plan, solution) = self.sampled_plan();
        play(&self.game, plan, solution, dice)
    }

    fn code_space(&self) -> u64 {
        self.game.code_space() * ENDED.len() as u64
    }

    fn decode(&self, code: u64, values: &mut [i64]) {
        let (game_values, ended) = values.split_at_mut(values.len() - 1);
        self.game.decode(code / ENDED.len() as u64, game_values);
        ended[0] = (code % ENDED.len() as u64) as i64;
    }

    fn has_exact(&self) -> bool {
        self.game.solvable(self.effective_plan())
    }

    fn exact(&self) -> Option<Vec<(u64, f64)>> {
        Some(self.solution()?.distribution(&self.game))
    }

    fn decisions(&self) -> &'static [&'static Decision] {
        self.game.decisions()
    }

    fn policies(&self) -> Option<[PolicyUse; 2]> {
        Some(Played::policies(self))
    }

    fn explain(&self) -> Option<Vec<Explained>> {
        Played::explain(self)
    }

    fn reads_rule(&self, field: &str) -> bool {
        self.game.reads_rule(field)
    }

    /// The game's own, and each side's objective where that side does not
    /// play `best` (asked for a heuristic, or falling back to one beyond the
    /// solver): no objective steers a heuristic.
    fn unread_keys(&self) -> Vec<(String, String)> {
        use crate::params::Choice;
        let mut unread = self.game.unread_keys();
        let plan = self.effective_plan();
        for (side, name) in ["attacker", "defender"].into_iter().enumerate() {
            if plan.policy[side] != Policy::Best {
                unread.push((
                    format!("{name}.objective"),
                    format!("the {name} plays {}, a heuristic no objective steers", plan.policy[side].name()),
                ));
            }
        }
        unread
    }

    fn purpose(&self) -> Option<Purpose> {
        Some(self.game.purpose())
    }

    fn exact_is_cheap(&self) -> bool {
        let plan = self.effective_plan();
        self.game.solvable(plan) && self.game.exact_is_cheap(plan)
    }
}
