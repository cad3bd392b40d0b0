//! The kernel's integration tests: one binary, one module per subject.

mod brigades;
mod hougoumont;
mod huzzah;
mod kernel;
mod one_hour;
