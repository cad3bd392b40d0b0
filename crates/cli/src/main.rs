//! The `volley` binary: argument parsing and dispatch, nothing else. Every
//! command lives in `commands/`; bad input exits with status 2, internal
//! failures with 1.

mod args;
mod canonical;
mod commands;
mod error;
mod rules_file;
mod spec;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    match commands::dispatch(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("volley: {}", error::cut_long_words(&format!("{error:#}")));
            ExitCode::from(error::exit_status(&error))
        }
    }
}
