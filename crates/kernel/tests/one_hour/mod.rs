//! One Hour Napoleonic: hand-worked values of every mechanic, and Monte Carlo
//! against every exact solver.

mod brigade;
mod catalogue;
mod duel;
mod second_line;
mod single;
