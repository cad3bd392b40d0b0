//! Huzzah!: hand-worked values, the rules' worked examples, and Monte Carlo
//! against every exact solver.

mod assault;
mod engagement;
mod single;
mod standoff;
