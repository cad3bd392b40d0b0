//! One module per subcommand, and the lookups they share.

mod bench;
mod dist;
mod even;
mod list;
mod report;
mod rules;
mod run;
mod serve;

use crate::args::{Cli, Command, SpecRunArgs};
use crate::error::bad_input;
use crate::rules_file;
use std::path::Path;
use volley_kernel::catalogue::{self, RulesetEntry};
use volley_kernel::params::RuleBook;

/// Runs one subcommand.
pub fn dispatch(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Report { analyses, out, how } => report::run(&analyses, &out, &checked_overrides(how)?),
        Command::Run { spec, out, how } => run::run(&spec, &out, &checked_overrides(how)?),
        Command::List { ruleset, scenario } => list::run(ruleset.as_deref(), scenario.as_deref()),
        Command::Dist {
            ruleset,
            scenario,
            set,
            rules,
            exact,
            samples,
            precision,
            seed,
            threads,
            confidence,
            format,
            quiet,
            explain,
            metrics,
        } => dist::run(dist::DistRequest {
            ruleset,
            scenario,
            set,
            rules,
            rule_overrides: Vec::new(),
            // Exact where asked, sampled where samples or a precision are,
            // and otherwise exact wherever it is quick.
            exact: if exact {
                Some(true)
            } else if samples.is_some() || precision.is_some() {
                Some(false)
            } else {
                None
            },
            samples: samples.unwrap_or(dist::DEFAULT_SAMPLES),
            precision,
            seed,
            threads,
            confidence,
            format,
            quiet,
            explain,
            metrics,
            from_api: false,
        }),
        Command::Even {
            ruleset,
            scenario,
            vary,
            from,
            to,
            target,
            measure,
            by,
            set,
            rules,
            exact,
            samples,
            precision,
            seed,
            threads,
            confidence,
            format,
            quiet,
        } => even::run(even::EvenRequest {
            ruleset,
            scenario,
            vary,
            from,
            to,
            target,
            measure,
            by,
            set,
            rules,
            exact: if exact {
                Some(true)
            } else if samples.is_some() || precision.is_some() {
                Some(false)
            } else {
                None
            },
            samples,
            precision,
            seed,
            threads,
            confidence,
            format,
            quiet,
        }),
        Command::Rules { ruleset, rules } => rules::run(&ruleset, rules.as_deref()),
        Command::Serve { host, port, reports, max_samples, timeout, concurrent } => {
            serve::run(serve::Options { host, port, reports, max_samples, timeout_seconds: timeout, concurrent })
        }
        Command::Bench { seconds, ruleset, scenario, format } => {
            bench::run(seconds, ruleset.as_deref(), scenario.as_deref(), format)
        }
    }
}

fn checked_overrides(how: SpecRunArgs) -> anyhow::Result<run::Overrides> {
    if how.samples == Some(0) {
        return Err(bad_input("--samples must be at least 1"));
    }
    if let Some(p) = how.precision
        && !(p > 0.0 && p < 0.5)
    {
        return Err(bad_input(format!("--precision {p} must be above 0 and below 0.5, such as 0.005")));
    }
    Ok(how)
}

/// A ruleset by name, or bad input naming the valid ones.
pub fn find_ruleset(name: &str) -> anyhow::Result<RulesetEntry> {
    catalogue::ruleset(name).map_err(|e| bad_input(e.to_string()))
}

/// The ruleset's rules: printed defaults, overridden by a file if given.
pub fn load_rules(ruleset: &RulesetEntry, file: Option<&Path>) -> anyhow::Result<Box<dyn RuleBook>> {
    let mut book = (ruleset.default_rules)();
    if let Some(path) = file {
        rules_file::apply(path, ruleset.name, book.as_mut())?;
    }
    Ok(book)
}
