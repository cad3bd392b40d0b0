//! Long-form Polars frames of runs, and writing them as CSV and Parquet.
//!
//! One row per (run, metric, value): the ruleset, the scenario, one column per
//! swept key, the metric, its value as the CLI prints it, the sample count, the
//! probability and its interval, and whether it is exact. Columns are built
//! once from vectors, never row by row.

use crate::stats::{Agreement, PRINTED_DIGITS, mean_with_standard_error, round_significant, wilson, z_for_confidence};
use polars::prelude::*;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use volley_kernel::game::PolicyUse;
use volley_kernel::outcome::Distribution;

/// One scenario run at some key values.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The ruleset's name.
    pub ruleset: String,
    /// The scenario's name.
    pub scenario: String,
    /// The keys this run set (the swept ones, and any fixed ones worth a column).
    pub keys: Vec<(String, String)>,
    /// What happened.
    pub distribution: Distribution,
    /// Each side's policy as asked and as played, for a scenario with
    /// decisions (where best play is beyond the solver, the game's fallback
    /// heuristic was played: the record names it).
    pub policies: Option<[PolicyUse; 2]>,
    /// The keys the scenario did not read at this run's settings, with why
    /// ([`DynScenario::unread_keys`](volley_kernel::scenario::DynScenario::unread_keys)).
    pub unread: Vec<(String, String)>,
}

/// The columns every long frame has before the key columns.
pub const LEADING_COLUMNS: [&str; 2] = ["ruleset", "scenario"];
/// The columns after the key columns.
pub const TRAILING_COLUMNS: [&str; 7] = ["metric", "value", "count", "probability", "ci_low", "ci_high", "exact"];

/// Every run's every metric's every value as one long frame, with Wilson
/// intervals at `confidence` for Monte Carlo rows (an exact row's interval is
/// its probability, and its count is null).
///
/// The key columns are the union of the runs' keys in order of first
/// appearance; a run without a key has null there.
pub fn long_frame(runs: &[Run], confidence: f64) -> PolarsResult<DataFrame> {
    let key_names = key_union(runs);
    for key in &key_names {
        if LEADING_COLUMNS.contains(key) || TRAILING_COLUMNS.contains(key) {
            polars_bail!(Duplicate: "swept key `{key}` has the name of a frame column");
        }
    }

    let mut identity = Identity::new(key_names);
    let mut metric = Vec::new();
    let mut value = Vec::new();
    let mut count: Vec<Option<u64>> = Vec::new();
    let mut probability = Vec::new();
    let mut ci_low = Vec::new();
    let mut ci_high = Vec::new();
    let mut exact = Vec::new();

    for run in runs {
        let dist = &run.distribution;
        let samples = dist.samples();
        for (index, m) in dist.metrics.iter().enumerate() {
            for row in dist.marginal(index) {
                identity.push(run);
                metric.push(m.name.to_string());
                value.push(m.domain.format(row.value));
                match samples {
                    Some(n) => {
                        // One division of the marginal's count, rather than the
                        // sum of its joint outcomes' probabilities, so the
                        // printed value carries no rounding noise.
                        probability.push(row.count as f64 / n.max(1) as f64);
                        let (low, high) = wilson(row.count, n, confidence);
                        count.push(Some(row.count));
                        ci_low.push(round_significant(low, PRINTED_DIGITS));
                        ci_high.push(round_significant(high, PRINTED_DIGITS));
                        exact.push(false);
                    }
                    None => {
                        // A sum of many products: its last digits are noise.
                        let p = round_significant(row.probability, PRINTED_DIGITS);
                        probability.push(p);
                        count.push(None);
                        ci_low.push(p);
                        ci_high.push(p);
                        exact.push(true);
                    }
                }
            }
        }
    }

    identity.frame([
        Column::new("metric".into(), metric),
        Column::new("value".into(), value),
        Column::new("count".into(), count),
        Column::new("probability".into(), probability),
        Column::new("ci_low".into(), ci_low),
        Column::new("ci_high".into(), ci_high),
        Column::new("exact".into(), exact),
    ])
}

/// The leading columns of a frame's rows: which run (ruleset, scenario and
/// the value of each key in the union of the runs' keys) each row is about.
struct Identity<'a> {
    key_names: Vec<&'a str>,
    ruleset: Vec<String>,
    scenario: Vec<String>,
    keys: Vec<Vec<Option<String>>>,
}

impl<'a> Identity<'a> {
    fn new(key_names: Vec<&'a str>) -> Self {
        let keys = vec![Vec::new(); key_names.len()];
        Identity { key_names, ruleset: Vec::new(), scenario: Vec::new(), keys }
    }

    /// One more row about `run` (a run without a key has null there).
    fn push(&mut self, run: &Run) {
        self.ruleset.push(run.ruleset.clone());
        self.scenario.push(run.scenario.clone());
        for (column, name) in self.keys.iter_mut().zip(&self.key_names) {
            column.push(run.keys.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()));
        }
    }

    /// The frame of these leading columns followed by `trailing`, which must
    /// have one value per pushed row.
    fn frame<const N: usize>(self, trailing: [Column; N]) -> PolarsResult<DataFrame> {
        let height = self.ruleset.len();
        let mut columns =
            vec![Column::new("ruleset".into(), self.ruleset), Column::new("scenario".into(), self.scenario)];
        for (name, column) in self.key_names.iter().zip(self.keys) {
            columns.push(Column::new((*name).into(), column));
        }
        columns.extend(trailing);
        DataFrame::new(height, columns)
    }
}

/// The union of the runs' keys, in order of first appearance.
fn key_union(runs: &[Run]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for run in runs {
        for (key, _) in &run.keys {
            if !names.contains(&key.as_str()) {
                names.push(key);
            }
        }
    }
    names
}

/// The mean of every numeric metric of every run, with its standard error and
/// normal interval at `confidence`: ruleset, scenario, one column per key,
/// metric, mean, standard_error, ci_low, ci_high, exact.
pub fn means_frame(runs: &[Run], confidence: f64) -> PolarsResult<DataFrame> {
    let key_names = key_union(runs);
    let z = z_for_confidence(confidence);
    let mut identity = Identity::new(key_names);
    let mut metric = Vec::new();
    let (mut mean, mut error, mut low, mut high, mut exact) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for run in runs {
        for m in run.distribution.metrics.iter().filter(|m| m.domain.is_numeric()) {
            let (value, standard_error) = mean_with_standard_error(&run.distribution, m.name);
            identity.push(run);
            metric.push(m.name.to_string());
            mean.push(value);
            error.push(standard_error);
            low.push(value - z * standard_error);
            high.push(value + z * standard_error);
            exact.push(run.distribution.samples().is_none());
        }
    }
    identity.frame([
        Column::new("metric".into(), metric),
        Column::new("mean".into(), mean),
        Column::new("standard_error".into(), error),
        Column::new("ci_low".into(), low),
        Column::new("ci_high".into(), high),
        Column::new("exact".into(), exact),
    ])
}

/// Monte Carlo against exact agreement, one row per (ruleset, scenario):
/// ruleset, scenario, chi_square, dof, p_value, max_z.
pub fn agreement_frame(rows: &[(String, String, Agreement)]) -> PolarsResult<DataFrame> {
    let columns = vec![
        Column::new("ruleset".into(), rows.iter().map(|r| r.0.clone()).collect::<Vec<_>>()),
        Column::new("scenario".into(), rows.iter().map(|r| r.1.clone()).collect::<Vec<_>>()),
        Column::new("chi_square".into(), rows.iter().map(|r| r.2.chi_square).collect::<Vec<_>>()),
        Column::new("dof".into(), rows.iter().map(|r| r.2.dof as u64).collect::<Vec<_>>()),
        Column::new("p_value".into(), rows.iter().map(|r| r.2.p_value).collect::<Vec<_>>()),
        Column::new("max_z".into(), rows.iter().map(|r| r.2.max_z).collect::<Vec<_>>()),
    ];
    DataFrame::new(rows.len(), columns)
}

/// A sibling of `path` to write into first, so that `path` itself only ever
/// holds a complete file: `.NAME.tmp-PID-N`, unique to this process and this
/// call, so two writers (two processes, or two threads of one) never share it.
pub(crate) fn temporary_sibling(path: &Path) -> PathBuf {
    marked_sibling(path, "tmp")
}

/// `.NAME.MARK-PID-N` beside `path`, N counting calls within this process.
pub(crate) fn marked_sibling(path: &Path, mark: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = path.file_name().map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{mark}-{}-{call}", std::process::id()))
}

/// Removes what a killed run left beside `path`: its `.NAME.tmp-PID-N` and
/// `.NAME.old-PID-N` siblings whose process no longer runs. A sibling of a
/// live process is another writer at work and is left alone.
pub(crate) fn remove_stale_siblings(path: &Path) {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return;
    };
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let Ok(entries) = fs::read_dir(&parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = ["tmp", "old"].iter().find_map(|mark| file.strip_prefix(&format!(".{name}.{mark}-"))) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if pid != std::process::id() && !process_is_running(pid, &entry.path()) {
            let path = entry.path();
            let _ = if path.is_dir() { fs::remove_dir_all(&path) } else { fs::remove_file(&path) };
        }
    }
}

/// Whether process `pid` still runs. Where there is no /proc to ask, a
/// leftover counts as stale once it is a day old, which no run takes.
fn process_is_running(pid: u32, leftover: &Path) -> bool {
    if Path::new("/proc/self").exists() {
        return Path::new("/proc").join(pid.to_string()).exists();
    }
    let age = fs::metadata(leftover).and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok());
    age.is_none_or(|age| age < std::time::Duration::from_secs(24 * 3600))
}

/// Writes bytes to a temporary sibling of `path`, then renames it into place.
pub(crate) fn write_bytes_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    remove_stale_siblings(path);
    let temporary = temporary_sibling(path);
    let result = fs::write(&temporary, bytes).and_then(|()| fs::rename(&temporary, path));
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
}

/// Writes to a temporary sibling of `path` with `write`, then renames it into
/// place; on failure the temporary file is removed and `path` is untouched.
fn write_atomically(path: &Path, write: impl FnOnce(File) -> PolarsResult<()>) -> PolarsResult<()> {
    let temporary = temporary_sibling(path);
    let result = File::create(&temporary).map_err(PolarsError::from).and_then(write);
    match result.and_then(|()| fs::rename(&temporary, path).map_err(PolarsError::from)) {
        Ok(()) => Ok(()),
        Err(error) => {
            let _ = fs::remove_file(&temporary);
            Err(error)
        }
    }
}

/// Writes a frame as CSV with a header.
pub fn write_csv(df: &DataFrame, path: &Path) -> PolarsResult<()> {
    // The writers want `&mut`; cloning a frame only clones its column handles.
    let mut df = df.clone();
    write_atomically(path, |file| CsvWriter::new(file).include_header(true).finish(&mut df))
}

/// The frame as CSV text, for printing and for snapshot tests.
pub fn csv_string(df: &DataFrame) -> PolarsResult<String> {
    let mut df = df.clone();
    let mut buffer = Vec::new();
    CsvWriter::new(&mut buffer).include_header(true).finish(&mut df)?;
    String::from_utf8(buffer).map_err(|e| polars_err!(ComputeError: "CSV is not UTF-8: {e}"))
}

/// Writes a frame as Parquet.
pub fn write_parquet(df: &DataFrame, path: &Path) -> PolarsResult<()> {
    let mut df = df.clone();
    write_atomically(path, |file| ParquetWriter::new(file).finish(&mut df).map(|_| ()))
}

/// Reads a Parquet file written by [`write_parquet`].
pub fn read_parquet(path: &Path) -> PolarsResult<DataFrame> {
    ParquetReader::new(File::open(path)?).finish()
}
