//! Huzzah!: hand-worked values, the rules' worked examples, and Monte Carlo
//! against every exact solver.

mod assault;
mod assault_game;
mod brigade_assault;
mod catalogue;
mod engagement;
mod single;
mod skirmish_and_bombardment;
mod standoff;

/// The shared check: Monte Carlo within 4.5 standard errors of every exact
/// probability, certainties to rounding, rare values by their Poisson tail.
pub use volley_kernel::check::assert_agrees;

mod multi;
mod orders;
mod reorganise;
