//! volley's simulation kernel: dice, rulesets, scenarios, exact solvers and the
//! reproducible parallel runner. No I/O, no printing, no Polars.
//!
//! # Code map
//!
//! - [`dice`]: [`Dice`](dice::Dice), exactly unbiased dice from one
//!   Xoshiro256PlusPlus stream, several to a 64-bit word.
//! - [`pmf`]: [`Pmf`](pmf::Pmf), the exact distributions of the same dice.
//! - [`outcome`]: metrics, outcome codes ([`Layout`](outcome::Layout)), the
//!   mergeable counter [`Tally`](outcome::Tally) and
//!   [`Distribution`](outcome::Distribution).
//! - [`params`]: typed, validated keys and rule fields; the
//!   [`rule_book!`] and [`choice_enum!`] macros.
//! - [`scenario`]: the [`Scenario`](scenario::Scenario) trait and its
//!   object-safe face [`DynScenario`](scenario::DynScenario).
//! - [`runner`]: N samples in fixed chunks, one generator per chunk, rayon
//!   over chunks: the same seed gives the same counts on any thread count.
//! - [`game`]: multi-turn fights as games. A scenario describes its fight
//!   once, as a step function over states that takes chances and named
//!   [`Decision`](game::Decision)s from a [`Fate`](game::Fate); from it
//!   [`Played`](game::Played) derives the Monte Carlo sampler, the exact
//!   distribution, and best play by backward induction over turn-indexed
//!   states, with `bold` and `cautious` heuristics beside it. Every
//!   multi-turn scenario takes `attacker.policy`/`defender.policy` keys from
//!   [`plan_params`](game::plan_params).
//! - [`markov`]: exact solutions of multi-turn duels as absorbing chains
//!   (older scenarios without decisions; new ones use [`game`]).
//! - [`rulesets`]: one module per ruleset, each with a `Rules` struct whose
//!   defaults are the printed numbers.
//! - [`catalogue`]: rulesets and scenarios by name, for the CLI.
//! - [`check`]: Monte Carlo against exact answers, for tests (tolerances in one place).
//!
//! The kernel cannot fail on valid input: constructors validate and return
//! [`ParamError`](params::ParamError); after that, sampling is infallible.

pub mod catalogue;
pub mod check;
pub mod dice;
pub mod game;
pub mod markov;
pub mod outcome;
pub mod params;
pub mod pmf;
pub mod rulesets;
pub mod runner;
pub mod scenario;
