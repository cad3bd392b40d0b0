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
//! - **sampling** (`play::play`): real dice; a side playing a heuristic picks by
//!   it, a side playing `best` looks its choice up in the solved table, so that
//!   exact and sampled answers describe the same play;
//! - **enumeration**: every branch of every chance and of every `best`
//!   decision, depth first, gives each state's law as a small tree of chance and
//!   decision nodes (`graph::Graph`);
//! - **solving** (`solve::Solution`): backward induction over turn-indexed states.
//!   At the limit a state is worth nothing to either side (or what
//!   [`Game::at_limit`] says); a step earlier, each chance node is worth the
//!   average of its branches and each decision node the option its side prefers,
//!   given best play by both afterwards. The table of choices is then walked
//!   forwards to give the exact distribution of outcome codes, and sampled by
//!   `play::play`.
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
        /// Look-ahead: bold improved by one step of policy improvement. At
        /// each of its decisions with more than one option the side plays
        /// rounds of rollouts, each round every option once on the same dice
        /// (common random numbers: the rounds seeded from a hash of where
        /// the decision is taken, so that the decision is a function of the
        /// situation, the same on any thread count and worked out once for
        /// all the fights that meet it: see `Memo`), the rest of
        /// the fight played bold by itself and by the other side as the
        /// plan's base ([`Plan::base`]); it takes the option with the best
        /// total under its objective (win minus loss, or win) where that
        /// option's paired difference from bold's option is clear after
        /// [`Game::lookahead_rounds`] rounds ([`LOOKAHEAD_Z`] standard
        /// errors), else bold's, stopping early where after a batch of
        /// [`LOOKAHEAD_BATCH`] no option looks likely to
        /// ([`LOOKAHEAD_PROMISE`]). With exact
        /// continuation values the policy improvement theorem makes this no
        /// worse than bold against a fixed opponent; with sampled ones it
        /// holds up to the sampling error of each choice, so a game that
        /// offers it measures it against bold. Sampled only: no exact law,
        /// and only games that offer it in their `policy` keys
        /// ([`plan_params_with_lookahead`]) take it.
        Lookahead = "lookahead",
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

    /// The most rounds of rollouts a side looking ahead plays from each
    /// option of a decision ([`Policy::Lookahead`]; a game that offers it
    /// may take them from a key).
    fn lookahead_rounds(&self) -> u32 {
        LOOKAHEAD_ROUNDS
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

    /// Whether side `side` (0 the attacker, 1 the defender) has any
    /// decision at these settings: `false` where every step plays it one
    /// way, so its policy and objective change nothing (said in the output
    /// rather than printing a policy as if it were played). By default
    /// every side may decide.
    fn decides(&self, side: usize) -> bool {
        let _ = side;
        true
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

    /// Whether either side looks ahead ([`Policy::Lookahead`]): the plan
    /// is then sampled only.
    pub fn looks_ahead(&self) -> bool {
        self.policy.contains(&Policy::Lookahead)
    }

    /// The plan a look-ahead's rollouts play: `lookahead` replaced by
    /// `bold`, the play it improves on.
    pub fn base(mut self) -> Plan {
        for policy in &mut self.policy {
            if *policy == Policy::Lookahead {
                *policy = Policy::Bold;
            }
        }
        self
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

/// The policies a game scenario offers by default: all but
/// [`Policy::Lookahead`], which a game offers where it has measured it.
const HEURISTIC_POLICIES: &[&str] = &["best", "bold", "cautious"];

/// [`plan_params`] with the heuristics described for what they do in one
/// scenario: `bold` and `cautious` complete "bold (...)" and "cautious (...)".
pub fn plan_params_worded(bold: &str, cautious: &str) -> Vec<Param> {
    plan_params_offered(
        HEURISTIC_POLICIES,
        &format!("best (backward induction, both sides playing their best), bold ({bold}) or cautious ({cautious})"),
    )
}

/// [`plan_params_worded`] with `lookahead` offered too ([`Policy::Lookahead`]),
/// `lookahead` completing "lookahead (...)".
pub fn plan_params_with_lookahead(bold: &str, cautious: &str, lookahead: &str) -> Vec<Param> {
    plan_params_offered(
        <Policy as crate::params::Choice>::NAMES,
        &format!(
            "best (backward induction, both sides playing their best), bold ({bold}), cautious ({cautious}) or \
             lookahead ({lookahead})"
        ),
    )
}

/// The plan's keys, the policies `offered` as `worded`.
fn plan_params_offered(offered: &'static [&'static str], worded: &str) -> Vec<Param> {
    use crate::params::{Choice, ParamKind, Value};
    let mut params = Vec::new();
    for side in ["attacker", "defender"] {
        params.push(Param {
            name: format!("{side}.policy"),
            doc: format!("how the {side} decides: {worded}"),
            kind: ParamKind::Choice(offered),
            default: Value::Choice(Policy::Best.name().to_string()),
        });
        params.push(Param::choice(
            format!("{side}.objective"),
            format!("what the {side} maximises under best play: margin (its win chance minus its loss chance) or win"),
            Objective::Margin,
        ));
    }
    params
}

mod graph;
mod play;
mod played;
mod solve;

use graph::*;
use play::*;
pub use play::{
    LOOKAHEAD_BATCH, LOOKAHEAD_MEMO_LIMIT, LOOKAHEAD_PROMISE, LOOKAHEAD_ROUNDS, LOOKAHEAD_Z, Memo, MemoReuse,
    outcome_code,
};
pub use played::{Played, PolicyUse};
use solve::*;
pub use solve::{Explained, OptionValue, Tie};
pub(crate) use solve::{preference, prefers};
