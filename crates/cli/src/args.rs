//! The command line, as DESIGN.md's CLI contract states it.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Probability and balance analysis of Napoleonic miniatures rules.
#[derive(Debug, Parser)]
#[command(name = "volley", version, about, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Output formats of `dist` and `bench`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned columns for reading.
    Table,
    /// `metric,value,probability,ci_low,ci_high,count`.
    Csv,
    /// One JSON document.
    Json,
}

/// Output formats of `bench`: a table or JSON (its rows have no CSV form).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchFormat {
    /// Aligned columns for reading.
    Table,
    /// One JSON document.
    Json,
}

/// The most worker threads a run may ask for: far beyond any machine's
/// cores, and few enough that a typo such as 10000 cannot stall the machine
/// starting threads.
pub const MAX_THREADS: usize = 256;

/// `--threads`: 0 (one per core) to [`MAX_THREADS`].
fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n <= MAX_THREADS => Ok(n),
        _ => Err(format!("expected 0 (one thread per core) or a count from 1 to {MAX_THREADS}")),
    }
}

/// `--samples`: a whole number, at least 1.
pub fn parse_samples(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("expected a whole number of samples, at least 1, such as 1000000".to_string()),
    }
}

/// `--seed`: a whole number from 0 to 2^64 - 1.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|_| "expected a whole number from 0 to 18446744073709551615".to_string())
}

/// How `report` and `run` run their specs.
#[derive(Clone, Debug, Default, Args)]
pub struct SpecRunArgs {
    /// Samples per point, instead of a precision target.
    #[arg(long, conflicts_with = "precision", allow_hyphen_values = true, value_parser = parse_samples)]
    pub samples: Option<u64>,
    /// Run in rounds until every probability's interval half-width is at most
    /// this (default 0.005 unless a spec says otherwise).
    #[arg(long, allow_hyphen_values = true)]
    pub precision: Option<f64>,
    /// The seed of every run.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// Worker threads (0: one per core; at most 256).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = parse_threads)]
    pub threads: usize,
    /// No progress bars or per-analysis lines.
    #[arg(long)]
    pub quiet: bool,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Runs every analysis spec and writes the reports (the main job).
    Report {
        /// The directory of analysis specs.
        #[arg(long, default_value = "analyses")]
        analyses: PathBuf,
        /// Where the reports go.
        #[arg(long, default_value = "reports")]
        out: PathBuf,
        /// How to run the analyses.
        #[command(flatten)]
        how: SpecRunArgs,
    },
    /// Runs one analysis spec and writes its report folder.
    Run {
        /// The spec (TOML).
        spec: PathBuf,
        /// Where the report folder goes.
        #[arg(long, default_value = "reports")]
        out: PathBuf,
        /// How to run the analysis.
        #[command(flatten)]
        how: SpecRunArgs,
    },
    /// Rulesets, scenarios, their keys with defaults, and their metrics.
    List {
        /// Only this ruleset.
        ruleset: Option<String>,
        /// Only this scenario of the ruleset.
        scenario: Option<String>,
    },
    /// The outcome distribution of one scenario.
    Dist {
        /// The ruleset (huzzah, brigades, one_hour, hougoumont, dice).
        ruleset: String,
        /// The scenario (see `volley list RULESET`).
        scenario: String,
        /// A scenario key, as KEY=VALUE (repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// A TOML file of rule overrides, as `volley rules` prints them.
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
        /// Solve exactly, even where that is slow (by default volley solves
        /// exactly wherever the answer comes within about two seconds, and
        /// samples 1,000,000 elsewhere).
        #[arg(long, conflicts_with = "samples")]
        exact: bool,
        /// Monte Carlo samples, instead of the exact answer.
        #[arg(long, allow_hyphen_values = true, value_parser = parse_samples)]
        samples: Option<u64>,
        /// Sample until every probability's interval is at most this either
        /// side (such as 0.005), instead of a fixed number of samples.
        #[arg(long, conflicts_with_all = ["samples", "exact"], allow_hyphen_values = true)]
        precision: Option<f64>,
        /// The seed: the same seed gives the same numbers on any thread count.
        #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = parse_seed)]
        seed: u64,
        /// Worker threads (0: one per core; at most 256).
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = parse_threads)]
        threads: usize,
        /// Confidence level of the intervals.
        #[arg(long, default_value_t = 0.95)]
        confidence: f64,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
        /// Also print each side's first decision from the start, every option
        /// with its value under best play (scenarios with decisions).
        #[arg(long)]
        explain: bool,
        /// Print only this metric (repeatable; `volley list RULESET SCENARIO`
        /// lists them), such as `--metric winner`.
        #[arg(long = "metric", value_name = "METRIC")]
        metrics: Vec<String>,
    },
    /// What makes it even: the value of one key (or rule field) at which a
    /// measure (the attacker's chance of winning, by default) crosses a
    /// target (50%, by default).
    Even {
        /// The ruleset (huzzah, brigades, one_hour, hougoumont, dice).
        ruleset: String,
        /// The scenario (see `volley list RULESET`).
        scenario: String,
        /// The key to vary: an integer key (figures, inches), a choice
        /// (a quality, walked in the order `volley list` gives), or a rule
        /// field as rules.FIELD.
        #[arg(long, value_name = "KEY")]
        vary: String,
        /// The first value searched (default: the key's smallest, or its
        /// first listed).
        #[arg(long, allow_hyphen_values = true)]
        from: Option<String>,
        /// The last value searched (default: the key's largest, or its last
        /// listed).
        #[arg(long, allow_hyphen_values = true)]
        to: Option<String>,
        /// The measure's value sought (default 0.5 for a probability).
        #[arg(long, allow_hyphen_values = true)]
        target: Option<f64>,
        /// What to measure: METRIC=VALUE (a probability), METRIC>=N, or
        /// mean:METRIC (default: the attacker's chance of winning).
        #[arg(long)]
        measure: Option<String>,
        /// A second key: the search runs at each of its values (a curve).
        #[arg(long, value_name = "KEY")]
        by: Option<String>,
        /// A scenario key (KEY=VALUE) or rule field (rules.FIELD=VALUE) held
        /// fixed (repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// A TOML file of rule overrides, as `volley rules` prints them.
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
        /// Solve every value exactly, or fail where that cannot be done (by
        /// default each value is solved exactly where that is quick, and
        /// sampled elsewhere).
        #[arg(long, conflicts_with_all = ["samples", "precision"])]
        exact: bool,
        /// Sample each value this many times (no exact solves, no stopping early).
        #[arg(long, allow_hyphen_values = true, value_parser = parse_samples)]
        samples: Option<u64>,
        /// Sample each value in rounds until its interval leaves the target
        /// out or is this narrow either side (default 0.005 where a value is
        /// sampled; given, every value is sampled).
        #[arg(long, conflicts_with = "samples", allow_hyphen_values = true)]
        precision: Option<f64>,
        /// The seed: the same seed gives the same numbers on any thread count.
        #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = parse_seed)]
        seed: u64,
        /// Worker threads (0: one per core; at most 256).
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = parse_threads)]
        threads: usize,
        /// Confidence level of the intervals.
        #[arg(long, default_value_t = 0.95)]
        confidence: f64,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Every rule number and interpretation with its value, as TOML that
    /// `--rules` accepts back.
    Rules {
        /// The ruleset.
        ruleset: String,
        /// Start from these overrides instead of the printed defaults.
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
    },
    /// The explorer in a browser: a page and a JSON API on this machine.
    Serve {
        /// The address to listen on (loopback by default; any other address
        /// lets other machines in, and the server says so).
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// The port (0: any free port).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The reports folder served under /reports/.
        #[arg(long, default_value = "reports")]
        reports: PathBuf,
        /// The most samples one request may ask for.
        #[arg(long, default_value_t = 100_000_000, value_parser = parse_samples)]
        max_samples: u64,
        /// The most seconds one request may compute before it is stopped.
        #[arg(long, default_value_t = 60)]
        timeout: u64,
        /// How many requests compute at once; the rest wait their turn.
        #[arg(long, default_value_t = 4)]
        concurrent: usize,
    },
    /// Throughput of each scenario and of the raw generator, in one run.
    Bench {
        /// Seconds to measure each scenario (per thread setting).
        #[arg(long, default_value_t = 0.5)]
        seconds: f64,
        /// Only this ruleset.
        #[arg(long)]
        ruleset: Option<String>,
        /// Only scenarios whose name contains this.
        #[arg(long)]
        scenario: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = BenchFormat::Table)]
        format: BenchFormat,
    },
}
