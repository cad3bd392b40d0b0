//! volley's analysis: statistics over the kernel's distributions, Polars frames,
//! balance analytics, charts and reports.
//!
//! # Code map
//!
//! - [`stats`]: Wilson intervals, means with standard errors, Monte Carlo
//!   against exact agreement, and the samples a precision target needs.
//! - [`frame`]: runs as one long Polars frame (and means, and agreements);
//!   CSV and Parquet on disk, each written to a temporary name and renamed.
//! - [`balance`]: an [`Experiment`](balance::Experiment) (a scenario, its
//!   rules, fixed keys, how to run) and what to measure of it
//!   ([`Measure`](balance::Measure)); the quality ladder,
//!   rule sensitivity, sweeps and convergence, each a plain result with a frame.
//! - [`even`]: what makes a fight even: the value of a key or rule field
//!   where a measure crosses a target, exact or sampled sequentially, every
//!   crossing listed; and that value against each value of another key.
//! - [`charts`]: bars, heatmaps, lines with bands, CDFs and tornado charts, as
//!   SVG and PNG with an embedded font, and the chart of each balance result.
//! - [`playsheet`]: a sweep as a compact shaded grid, and one ruleset's
//!   grids on one printable A4 page with the rules' sections.
//! - [`provenance`]: how a result was made (ruleset, scenario, keys,
//!   policies, changed rules, exact or sampled, seed, confidence, version),
//!   for `volley dist` and every report's Method section.
//! - [`report`]: a report folder (Markdown, self-contained HTML, CSV, Parquet,
//!   charts) written atomically, the index of every report, and a ready-made
//!   report for each balance result and for one distribution.
//!
//! Only [`report`] and the frame writers touch the disk; everything else is
//! computation that returns [`AnalysisError`] on input it cannot use.

pub mod balance;
pub mod charts;
pub mod even;
pub mod frame;
pub mod playsheet;
pub mod points;
pub mod provenance;
pub mod report;
pub mod stats;

use std::fmt;

/// Why an analysis could not produce its answer.
#[derive(Debug)]
pub enum AnalysisError {
    /// A key or rule value the scenario rejects.
    Param(volley_kernel::params::ParamError),
    /// A ruleset or scenario the catalogue does not know.
    Catalogue(volley_kernel::catalogue::CatalogueError),
    /// The runner stopped (cancelled, or no threads).
    Run(volley_kernel::runner::RunError),
    /// Building, writing or reading a frame failed.
    Polars(polars::error::PolarsError),
    /// A chart could not be drawn or encoded.
    Chart(String),
    /// A file or directory could not be written.
    Io(std::io::Error),
    /// The analysis does not fit the scenario (a metric it lacks, a key that is
    /// not an integer...); the message says what would be accepted.
    Invalid(String),
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::Param(e) => write!(f, "{e}"),
            AnalysisError::Catalogue(e) => write!(f, "{e}"),
            AnalysisError::Run(e) => write!(f, "{e}"),
            AnalysisError::Polars(e) => write!(f, "data frame: {e}"),
            AnalysisError::Chart(e) => write!(f, "chart: {e}"),
            AnalysisError::Io(e) => write!(f, "{e}"),
            AnalysisError::Invalid(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AnalysisError {}

impl From<volley_kernel::params::ParamError> for AnalysisError {
    fn from(e: volley_kernel::params::ParamError) -> Self {
        AnalysisError::Param(e)
    }
}

impl From<volley_kernel::catalogue::CatalogueError> for AnalysisError {
    fn from(e: volley_kernel::catalogue::CatalogueError) -> Self {
        AnalysisError::Catalogue(e)
    }
}

impl From<volley_kernel::runner::RunError> for AnalysisError {
    fn from(e: volley_kernel::runner::RunError) -> Self {
        AnalysisError::Run(e)
    }
}

impl From<polars::error::PolarsError> for AnalysisError {
    fn from(e: polars::error::PolarsError) -> Self {
        AnalysisError::Polars(e)
    }
}

impl From<std::io::Error> for AnalysisError {
    fn from(e: std::io::Error) -> Self {
        AnalysisError::Io(e)
    }
}
