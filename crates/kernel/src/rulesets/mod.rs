//! The rulesets, one module each. Every number a ruleset prints is a field of
//! its `Rules`; every ambiguous reading is a documented, switchable choice.

pub mod brigades;
pub mod dice;
pub mod hougoumont;
pub mod huzzah;
pub mod one_hour;
