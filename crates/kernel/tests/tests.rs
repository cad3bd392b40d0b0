//! The kernel's integration tests: one binary, one module per subject.

mod kernel;
mod hougoumont;
