//! Runs the real binary and checks its output and exit status.

mod dist;
mod list_and_rules;
mod run_and_report;

use std::process::{Command, Output};

/// Runs `volley` with these arguments.
pub fn volley(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_volley")).args(args).output().expect("the binary runs")
}

/// Runs `volley` and returns stdout, asserting success.
pub fn volley_ok(args: &[&str]) -> String {
    let output = volley(args);
    assert!(
        output.status.success(),
        "volley {args:?} failed with {:?}: {}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// Runs `volley`, asserts exit status 2, and returns stderr.
pub fn volley_bad_input(args: &[&str]) -> String {
    let output = volley(args);
    assert_eq!(output.status.code(), Some(2), "volley {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stdout.is_empty(), "nothing on stdout for bad input");
    String::from_utf8(output.stderr).expect("UTF-8 errors")
}
