//! Tests of the kernel's foundation: dice, the runner and the accumulators.

mod catalogue_exact;
mod determinism;
mod dice_frequencies;
mod game;
mod purposes;
mod tally_merge;
mod unread_rules;
