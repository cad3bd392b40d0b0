//! End-to-end tests of the `volley` binary: one binary, one module per command.

mod cli;
