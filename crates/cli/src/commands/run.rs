//! `volley run SPEC.toml`: one analysis spec, executed and written up as a
//! report folder. `volley report` runs every spec through the same code.

use crate::canonical::{self, QualityOverrides};
use crate::error::bad_input;
use crate::rules_file;
use crate::spec::{AnalysisKind, LoadedSpec, RunSpec, value_text};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use polars::prelude::DataFrame;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use volley_analysis::AnalysisError;
use volley_analysis::balance::{self, Estimate, Experiment, Measure, Solving, Sweep};
use volley_analysis::even::{self, Axis};
use volley_analysis::frame::{Run, long_frame};
use volley_analysis::points;
use volley_analysis::provenance::Provenance;
use volley_analysis::report::{self, Report, Section};
use volley_analysis::stats::samples_for_half_width;
use volley_kernel::catalogue;
use volley_kernel::runner::RunOptions;

/// Command-line settings that override a spec's (validated by the caller).
pub use crate::args::SpecRunArgs as Overrides;

/// The precision `volley report` aims for when neither the spec nor the
/// command line says otherwise.
pub const DEFAULT_PRECISION: f64 = 0.005;
/// Samples per point when nothing asks for a precision.
pub const DEFAULT_SAMPLES: u64 = 100_000;
const MAX_ROUNDS: usize = 4;

/// `volley run`: executes one spec and writes OUT/STEM/.
pub fn run(spec_path: &Path, out: &Path, overrides: &Overrides) -> anyhow::Result<()> {
    let loaded = crate::spec::load(spec_path)?;
    let prepared = prepare(&loaded)?;
    output_dir(out)?;
    let (report, data) = execute(&loaded, &prepared, overrides)?;
    let dir = out.join(&loaded.stem);
    report::write_report(&dir, &report, &data).map_err(|e| writing(&dir, e))?;
    eprintln!("{}: {}", dir.display(), report.finding);
    Ok(())
}

/// A spec's runs resolved against the catalogue: rules loaded, canonical keys
/// translated, every fixed key checked by building the scenario once.
pub struct Prepared {
    experiments: Vec<(RunSpec, Experiment, String)>,
    overrides: QualityOverrides,
}

/// Resolves and checks a spec completely without running anything (every
/// rule, key, sweep value, equivalence range, ladder quality and measure), so
/// `volley report` can refuse a bad spec before spending minutes on the good
/// ones, and nothing a spec says is ignored.
pub fn prepare(loaded: &LoadedSpec) -> anyhow::Result<Prepared> {
    let spec = &loaded.spec;
    let used: Vec<&str> = spec.runs.iter().map(|r| r.ruleset.get_ref().as_str()).collect();
    for (what, tables) in [("rules", &spec.rules), ("quality_map", &spec.quality_map)] {
        for (name, table) in tables {
            if let Err(e) = catalogue::ruleset(name) {
                return Err(loaded.error_at(table.span(), format!("[{what}.{name}]: {e}")));
            }
            if !used.contains(&name.as_str()) {
                return Err(loaded.error_at(
                    table.span(),
                    format!(
                        "[{what}.{name}] applies to no run: no [[run]] uses ruleset `{name}` (the runs use {}); \
                         remove the table or add a run of {name}",
                        used.join(", ")
                    ),
                ));
            }
        }
    }
    let overrides = quality_overrides(loaded)?;
    let mut map_read: Vec<&str> = Vec::new();
    let mut experiments = Vec::new();
    for run in &spec.runs {
        let ruleset = catalogue::ruleset(run.ruleset.get_ref()).map_err(|e| loaded.error_at(run.ruleset.span(), e))?;
        let entry = ruleset.scenario(run.scenario.get_ref()).map_err(|e| loaded.error_at(run.scenario.span(), e))?;
        let mut rules = (ruleset.default_rules)();
        // The spec's [rules.RULESET] first, then the run's own `rules`.
        let spec_rules = spec.rules.get(ruleset.name).map(|table| table.get_ref());
        let layers =
            [(format!("[rules.{}]", ruleset.name), spec_rules), ("[[run]] rules".to_string(), Some(&run.rules))];
        for (origin, table) in layers {
            for (key, value) in table.into_iter().flatten() {
                let converted = rules_file::convert(value.get_ref())
                    .map_err(|why| loaded.error_at(value.span(), format!("{origin} {key}: {why}")))?;
                rules.set(key, &converted).map_err(|e| loaded.error_at(value.span(), format!("{origin} {e}")))?;
            }
        }
        // The sides whose quality this run gives canonically: only those
        // read the quality map.
        let sides: Vec<&str> = run
            .set
            .keys()
            .map(String::as_str)
            .chain(run.key.as_ref().map(|k| k.get_ref().as_str()))
            .filter_map(|k| k.strip_prefix(canonical::PREFIX)?.strip_suffix(".quality"))
            .collect();
        if !sides.is_empty() {
            map_read.push(ruleset.name);
        }
        check_quality_map(loaded, &overrides, ruleset.name, entry, &sides)?;
        let mut fixed = Vec::new();
        for (key, value) in &run.set {
            let text =
                value_text(value.get_ref()).map_err(|why| loaded.error_at(value.span(), format!("{key}: {why}")))?;
            let expanded = canonical::expand(ruleset.name, key, &text, &overrides)
                .map_err(|why| loaded.error_at(value.span(), why))?;
            fixed.extend(expanded);
        }
        let experiment = Experiment::from_parts(ruleset.name, entry, rules, RunOptions::default()).with_fixed(fixed);
        check_kind_fields(loaded, run, spec.analysis)?;
        let at_scenario =
            |e: AnalysisError| loaded.error_at(run.scenario.span(), format!("{} {}: {e}", ruleset.name, entry.name));
        // A sweep's fixed keys may only make sense with a swept value in
        // place (a gun's range band), so the check builds with each value.
        let mut points: Vec<Vec<(String, String)>> = Vec::new();
        if let (AnalysisKind::Sweep, Some(key), Some(values)) = (spec.analysis, &run.key, &run.values) {
            let texts = values.get_ref().texts().map_err(|why| loaded.error_at(values.span(), why))?;
            for value in texts {
                points.push(
                    canonical::expand(ruleset.name, key.get_ref(), &value, &overrides)
                        .map_err(|why| loaded.error_at(key.span(), why))?,
                );
            }
        } else {
            points.push(Vec::new());
        }
        let mut metrics = Vec::new();
        for point in &points {
            let built = experiment.build(experiment.rules.as_ref(), point).map_err(|e| match point.first() {
                Some((k, v)) => loaded.error_at(
                    run.values.as_ref().map_or(run.scenario.span(), |v| v.span()),
                    format!("{} {} with {k} = {v}: {e}", ruleset.name, entry.name),
                ),
                None => at_scenario(e),
            })?;
            metrics = built.metrics();
        }
        if spec.analysis == AnalysisKind::Equivalence
            && let Some(key) = &run.key
        {
            let (from, to) = even_range(loaded, run)?;
            let at_key = |e: AnalysisError| loaded.error_at(key.span(), e);
            let axis =
                Axis::of(&experiment, key.get_ref(), from.as_deref(), to.as_deref()).map_err(|e| match &run.range {
                    Some(range) => loaded.error_at(range.span(), e),
                    None => at_key(e),
                })?;
            if run.set.contains_key(&axis.key) {
                return Err(
                    loaded.error_at(key.span(), format!("`{}` is searched, so it cannot also be in `set`", axis.key))
                );
            }
            if let Some(by) = &run.by {
                by_axis(loaded, run, &experiment, by)?;
            } else if let Some(values) = &run.by_values {
                return Err(loaded.error_at(values.span(), "`by_values` needs `by`, the key they are values of"));
            }
        }
        if spec.analysis == AnalysisKind::Points {
            let key = run.key.as_ref().map_or("quality", |k| k.get_ref().as_str());
            let at = run.key.as_ref().map_or(run.scenario.span(), |k| k.span());
            for side in ["attacker", "defender"] {
                let full = format!("{side}.{key}");
                if !entry.params.iter().any(|p| p.name == full) {
                    return Err(loaded.error_at(
                        at,
                        format!("{} {} has no key `{full}` for points by {key}", ruleset.name, entry.name),
                    ));
                }
            }
            match &run.values {
                Some(values) => {
                    let texts = values.get_ref().texts().map_err(|why| loaded.error_at(values.span(), why))?;
                    if texts.len() < 2 {
                        return Err(loaded.error_at(values.span(), "points need two kinds at least"));
                    }
                    for text in &texts {
                        experiment
                            .build(
                                experiment.rules.as_ref(),
                                &[(format!("attacker.{key}"), text.clone()), (format!("defender.{key}"), text.clone())],
                            )
                            .map_err(|e| {
                                loaded.error_at(values.span(), format!("{} {}: {e}", ruleset.name, entry.name))
                            })?;
                    }
                }
                None => {
                    experiment
                        .choices(&format!("attacker.{key}"))
                        .map_err(|e| loaded.error_at(at, format!("{e}; list the kinds as `values`")))?;
                }
            }
        }
        if spec.analysis == AnalysisKind::Ladder {
            let valid = experiment.choices(balance::ATTACKER_QUALITY).map_err(at_scenario)?;
            experiment.choices(balance::DEFENDER_QUALITY).map_err(at_scenario)?;
            if let Some(qualities) = &run.qualities {
                for quality in qualities.get_ref() {
                    if !valid.contains(quality) {
                        return Err(loaded.error_at(
                            qualities.span(),
                            format!("quality `{quality}` is not one of {}'s: {}", entry.name, valid.join(", ")),
                        ));
                    }
                }
            }
        }
        match run.measure.as_ref().or(spec.measure.as_ref()) {
            Some(text) => {
                let parsed = parse_measure(text.get_ref()).map_err(|why| loaded.error_at(text.span(), why))?;
                parsed
                    .check(&metrics)
                    .map_err(|e| loaded.error_at(text.span(), format!("{} {}: {e}", ruleset.name, entry.name)))?;
                if spec.analysis == AnalysisKind::Equivalence {
                    let target = run.target.as_ref().or(spec.target.as_ref());
                    even::target_for(&parsed, target.map(|t| *t.get_ref()))
                        .map_err(|e| loaded.error_at(target.map_or(text.span(), |t| t.span()), e))?;
                }
            }
            None if spec.analysis != AnalysisKind::Distribution && Measure::attacker_wins(&metrics).is_none() => {
                return Err(loaded.error_at(
                    run.scenario.span(),
                    format!(
                        "{} {} has no winner or result metric to measure; set `measure` (such as `mean:{}`)",
                        ruleset.name,
                        entry.name,
                        metrics.first().map_or("hits", |m| m.name)
                    ),
                ));
            }
            None => {}
        }
        experiments.push((run.clone(), experiment, run.label_or_ruleset()));
    }
    for (name, table) in &spec.quality_map {
        if !map_read.contains(&name.as_str()) {
            return Err(loaded.error_at(
                table.span(),
                format!(
                    "[quality_map.{name}] is read by no run: no run of {name} gives a quality as \
                     canonical.SIDE.quality (in `set` or as the swept `key`); remove the table or use canonical keys"
                ),
            ));
        }
    }
    Ok(Prepared { experiments, overrides })
}

/// Every cell of `[quality_map.RULESET]` must name keys the run's scenario
/// has for a side, with values it accepts; a cell no run could read would
/// otherwise be ignored.
fn check_quality_map(
    loaded: &LoadedSpec,
    overrides: &QualityOverrides,
    ruleset: &str,
    entry: &catalogue::ScenarioEntry,
    sides: &[&str],
) -> anyhow::Result<()> {
    let Some(cells) = overrides.get(ruleset) else {
        return Ok(());
    };
    let table = loaded.spec.quality_map.get(ruleset).expect("overrides come from the spec's tables");
    for (quality, reading) in cells {
        let span = table.get_ref().get(quality).map_or(table.span(), |v| v.span());
        for (suffix, value) in reading {
            for side in sides {
                let key = format!("{side}.{suffix}");
                let param = entry.params.iter().find(|p| p.name == key).ok_or_else(|| {
                    loaded.error_at(
                        span.clone(),
                        format!(
                            "[quality_map.{ruleset}] {quality}: scenario `{}` has no key `{key}`, so `{suffix}` \
                             cannot be read",
                            entry.name
                        ),
                    )
                })?;
                param
                    .parse(value)
                    .map_err(|e| loaded.error_at(span.clone(), format!("[quality_map.{ruleset}] {quality}: {e}")))?;
            }
        }
    }
    Ok(())
}

fn check_kind_fields(loaded: &LoadedSpec, run: &RunSpec, kind: AnalysisKind) -> anyhow::Result<()> {
    let needs_key = matches!(kind, AnalysisKind::Sweep | AnalysisKind::Equivalence);
    if needs_key && run.key.is_none() {
        return Err(loaded
            .error_at(run.scenario.span(), format!("a {kind:?} analysis needs `key` in each [[run]]").to_lowercase()));
    }
    if kind != AnalysisKind::Equivalence {
        let misplaced = [
            ("target", run.target.as_ref().map(|t| t.span())),
            ("by", run.by.as_ref().map(|b| b.span())),
            ("by_values", run.by_values.as_ref().map(|b| b.span())),
            ("range", run.range.as_ref().map(|r| r.span())),
        ];
        if let Some((name, Some(span))) = misplaced.into_iter().find(|(_, span)| span.is_some()) {
            return Err(loaded.error_at(
                span,
                format!("`{name}` belongs to an equivalence (even) analysis, not a {kind:?} one").to_lowercase(),
            ));
        }
    }
    if kind == AnalysisKind::Sweep {
        let values = run
            .values
            .as_ref()
            .ok_or_else(|| loaded.error_at(run.scenario.span(), "a sweep needs `values` in each [[run]]"))?;
        let texts = values.get_ref().texts().map_err(|why| loaded.error_at(values.span(), why))?;
        if let Some(x) = &run.x
            && x.get_ref().len() != texts.len()
        {
            return Err(loaded
                .error_at(x.span(), format!("`x` has {} positions for {} values", x.get_ref().len(), texts.len())));
        }
    }
    Ok(())
}

fn quality_overrides(loaded: &LoadedSpec) -> anyhow::Result<QualityOverrides> {
    // [quality_map.RULESET] CANONICAL = "value" or { key = value, ... }
    let mut overrides = QualityOverrides::new();
    for (ruleset, cells) in &loaded.spec.quality_map {
        for (quality, cell) in cells.get_ref() {
            let bad = |what: String| loaded.error_at(cell.span(), format!("[quality_map.{ruleset}] {quality}: {what}"));
            if !canonical::QUALITIES.contains(&quality.as_str()) {
                return Err(bad(format!("expected a canonical quality: {}", canonical::QUALITIES.join(", "))));
            }
            let reading = match cell.get_ref() {
                toml::Value::String(v) => vec![("quality".to_string(), v.clone())],
                toml::Value::Table(t) if !t.is_empty() => t
                    .iter()
                    .map(|(k, v)| value_text(v).map(|text| (k.clone(), text)))
                    .collect::<Result<_, _>>()
                    .map_err(bad)?,
                _ => {
                    return Err(bad(
                        "expected a quality name or a table of keys, such as { quality = \"poor\" }".into()
                    ));
                }
            };
            overrides.entry(ruleset.clone()).or_default().insert(quality.clone(), reading);
        }
    }
    Ok(overrides)
}

/// An equivalence run's range as texts (`[from, to]`), where given.
fn even_range(loaded: &LoadedSpec, run: &RunSpec) -> anyhow::Result<(Option<String>, Option<String>)> {
    let Some(range) = &run.range else { return Ok((None, None)) };
    match range.get_ref().as_slice() {
        [from, to] => {
            let text = |v: &toml::Value| value_text(v).map_err(|why| loaded.error_at(range.span(), why));
            Ok((Some(text(from)?), Some(text(to)?)))
        }
        other => {
            Err(loaded.error_at(range.span(), format!("`range` is [from, to], two values; found {}", other.len())))
        }
    }
}

/// An equivalence run's second key with its values (`by_values`, or all).
fn by_axis(
    loaded: &LoadedSpec,
    run: &RunSpec,
    experiment: &Experiment,
    by: &toml::Spanned<String>,
) -> anyhow::Result<Axis> {
    let mut axis = Axis::of(experiment, by.get_ref(), None, None).map_err(|e| loaded.error_at(by.span(), e))?;
    if Some(by.get_ref()) == run.key.as_ref().map(|k| k.get_ref()) {
        return Err(loaded.error_at(by.span(), "`by` must be another key than the one searched"));
    }
    if let Some(values) = &run.by_values {
        let mut texts = Vec::new();
        for value in values.get_ref() {
            let text = value_text(value).map_err(|why| loaded.error_at(values.span(), why))?;
            if !axis.values.contains(&text) {
                return Err(loaded.error_at(
                    values.span(),
                    format!(
                        "`{text}` is not a value {} takes here (it takes {} to {})",
                        axis.key,
                        axis.values[0],
                        axis.values[axis.values.len() - 1]
                    ),
                ));
            }
            texts.push(text);
        }
        axis.values = texts;
    }
    Ok(axis)
}

/// `metric=value` (a probability), `metric>=n` (the probability of at
/// least n) or `mean:metric`.
pub fn parse_measure(text: &str) -> Result<Measure, String> {
    if let Some(metric) = text.strip_prefix("mean:") {
        return Ok(Measure::mean(metric.trim()));
    }
    if let Some((metric, value)) = text.split_once(">=") {
        return match value.trim().parse() {
            Ok(n) => Ok(Measure::at_least(metric.trim(), n)),
            Err(_) => Err(format!("measure `{text}`: after `>=` comes a whole number, such as hits>=3")),
        };
    }
    match text.split_once('=') {
        Some((metric, value)) => Ok(Measure::probability(metric.trim(), value.trim())),
        None => {
            Err(format!("measure `{text}` must be METRIC=VALUE (a probability), METRIC>=N (at least N) or mean:METRIC"))
        }
    }
}

/// Makes sure `--out` is a directory that can be written, creating it if
/// missing, before anything runs: a mistake there must not cost a run.
pub fn output_dir(out: &Path) -> anyhow::Result<()> {
    if out.exists() && !out.is_dir() {
        return Err(bad_input(format!(
            "--out {}: this is a file, not a directory; give a directory for the reports (it is created if missing)",
            out.display()
        )));
    }
    std::fs::create_dir_all(out)
        .map_err(|e| bad_input(format!("--out {}: cannot create this directory: {e}", out.display())))?;
    let probe = out.join(format!(".volley-write-test-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|e| bad_input(format!("--out {}: cannot write in this directory: {e}", out.display())))
}

/// A failure to write a report, naming where.
pub fn writing(path: &Path, error: AnalysisError) -> anyhow::Error {
    match error {
        AnalysisError::Io(e) => bad_input(format!("writing {}: {e}", path.display())),
        other => internal(other).context(format!("writing {}", path.display())),
    }
}

fn internal(error: AnalysisError) -> anyhow::Error {
    match error {
        AnalysisError::Param(_) | AnalysisError::Catalogue(_) | AnalysisError::Invalid(_) => {
            bad_input(error.to_string())
        }
        other => anyhow::Error::new(other),
    }
}

/// Runs a prepared spec: in rounds when a precision is asked, each round with
/// enough samples per point for the widest interval seen so far.
pub fn execute(loaded: &LoadedSpec, prepared: &Prepared, overrides: &Overrides) -> anyhow::Result<(Report, DataFrame)> {
    execute_beside(loaded, prepared, overrides, None)
}

/// [`execute`], its progress bar among `bars` where analyses run side by side.
pub fn execute_beside(
    loaded: &LoadedSpec,
    prepared: &Prepared,
    overrides: &Overrides,
    bars: Option<&MultiProgress>,
) -> anyhow::Result<(Report, DataFrame)> {
    let spec = &loaded.spec;
    let confidence = spec.confidence.as_ref().map_or(0.95, |c| *c.get_ref());
    let seed = overrides.seed.or(spec.seed).unwrap_or(1);
    let precision = match (overrides.samples, overrides.precision) {
        (Some(_), _) => None,
        (None, Some(p)) => Some(p),
        (None, None) => match (&spec.precision, &spec.samples) {
            (Some(p), _) => Some(*p.get_ref()),
            (None, Some(_)) => None,
            (None, None) => Some(DEFAULT_PRECISION),
        },
    };
    let mut samples = overrides.samples.or(spec.samples.as_ref().map(|s| *s.get_ref())).unwrap_or(DEFAULT_SAMPLES);
    if let Some(p) = precision {
        // Enough for the widest interval a probability can have (p = 1/2).
        samples = samples_for_half_width(0.5, p, confidence);
    }
    let progress = Arc::new(AtomicU64::new(0));
    let bar = progress_bar(&loaded.stem, overrides.quiet, progress.clone(), bars);
    let result = (|| {
        let mut round = 0;
        loop {
            round += 1;
            let how = How {
                samples,
                precision,
                seed,
                confidence,
                threads: overrides.threads,
                forced_sampling: overrides.samples.is_some()
                    || overrides.precision.is_some()
                    || loaded.spec.samples.is_some()
                    || loaded.spec.precision.is_some(),
            };
            let (report, data) = analyse(loaded, prepared, &how, &progress)
                .map_err(|e| e.context(format!("{}: {}", loaded.origin, loaded.spec.title)))?;
            // A search for what makes it even samples each value itself,
            // sequentially, only as far as the target needs.
            let widest = if loaded.spec.analysis == AnalysisKind::Equivalence { 0.0 } else { widest_half_width(&data) };
            match precision {
                Some(p) if widest > p && round < MAX_ROUNDS => {
                    let factor = (widest / p).powi(2) * 1.05;
                    samples = ((samples as f64) * factor).ceil() as u64;
                }
                _ => return Ok((report, data)),
            }
        }
    })();
    finish_bar(bar);
    result
}

/// Stops a bar's ticking thread and clears the bar.
pub fn finish_bar(bar: Option<Bar>) {
    if let Some((bar, done, handle)) = bar {
        done.store(true, Ordering::Relaxed);
        handle.join().ok();
        bar.finish_and_clear();
    }
}

pub type Bar = (ProgressBar, Arc<AtomicBool>, std::thread::JoinHandle<()>);

pub fn progress_bar(name: &str, quiet: bool, progress: Arc<AtomicU64>, bars: Option<&MultiProgress>) -> Option<Bar> {
    if quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = match bars {
        Some(bars) => bars.add(ProgressBar::new_spinner()),
        None => ProgressBar::new_spinner(),
    };
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg}: {human_pos} samples, {elapsed}").expect("a valid template"),
    );
    bar.set_message(name.to_string());
    let done = Arc::new(AtomicBool::new(false));
    let handle = {
        let (bar, done) = (bar.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                bar.set_position(progress.load(Ordering::Relaxed));
                bar.tick();
                std::thread::sleep(Duration::from_millis(100));
            }
        })
    };
    Some((bar, done, handle))
}

/// The widest Monte Carlo interval's half-width among the frame's probabilities.
fn widest_half_width(data: &DataFrame) -> f64 {
    let column = |name: &str| data.column(name).ok().and_then(|c| c.f64().ok().cloned());
    let exact = data.column("exact").ok().and_then(|c| c.bool().ok().cloned());
    match (column("ci_low"), column("ci_high")) {
        (Some(low), Some(high)) => low
            .iter()
            .zip(high.iter())
            .enumerate()
            .filter(|(i, _)| exact.as_ref().is_none_or(|e| e.get(*i) != Some(true)))
            .filter_map(|(_, (l, h))| Some((h? - l?) / 2.0))
            .fold(0.0, f64::max),
        _ => 0.0,
    }
}

/// How one round of a spec runs.
#[derive(Clone, Copy)]
struct How {
    samples: u64,
    precision: Option<f64>,
    seed: u64,
    confidence: f64,
    threads: usize,
    /// `--samples` or `--precision` given on the command line: every point
    /// not marked `exact = true` is sampled, even where the exact answer is quick.
    forced_sampling: bool,
}

fn analyse(
    loaded: &LoadedSpec,
    prepared: &Prepared,
    how: &How,
    progress: &Arc<AtomicU64>,
) -> anyhow::Result<(Report, DataFrame)> {
    let spec = &loaded.spec;
    let How { samples, precision, seed, confidence, threads, .. } = *how;
    let spec_measure = spec.measure.as_ref().map(|m| parse_measure(m.get_ref())).transpose().map_err(bad_input)?;
    // A run's own measure, else the spec's (None: the analysis's default).
    let measure_of = |run: &RunSpec| -> anyhow::Result<Option<Measure>> {
        let own = run.measure.as_ref().map(|m| parse_measure(m.get_ref())).transpose().map_err(bad_input)?;
        Ok(own.or_else(|| spec_measure.clone()))
    };
    let experiments: Vec<(&RunSpec, Experiment, &str)> = prepared
        .experiments
        .iter()
        .map(|(run, experiment, label)| {
            let mut experiment = experiment
                .clone()
                .with_samples(samples)
                .with_confidence(confidence)
                // Sampling asked on the command line, or by the spec, samples.
                .with_solving(match (spec.exact, how.forced_sampling) {
                    (Some(true), _) => Solving::Always,
                    (None, false) => Solving::WhereQuick,
                    _ => Solving::Never,
                })
                .with_precision(precision);
            experiment.options.seed = seed;
            experiment.options.threads = threads;
            experiment.options.progress = Some(progress.clone());
            (run, experiment, label.as_str())
        })
        .collect();
    let default_measure = |run: &RunSpec, e: &Experiment| -> anyhow::Result<Measure> {
        match measure_of(run)? {
            Some(m) => Ok(m),
            None => Measure::attacker_wins(&e.metrics().map_err(internal)?).ok_or_else(|| {
                bad_input(format!(
                    "{}: scenario `{}` has no winner or result metric; set `measure`",
                    loaded.origin, e.scenario.name
                ))
            }),
        }
    };
    let mut parts: Vec<(String, Report)> = Vec::new();
    let mut runs: Vec<Run> = Vec::new();
    let mut custom_frame: Option<DataFrame> = None;
    // A sensitivity study's data keeps the measured metrics alone: the other
    // metrics of hundreds of variant runs would make it megabytes without
    // bearing on the ranking (its report's Method says so).
    let mut measured_only: Vec<String> = Vec::new();
    // Where two runs share a ruleset and scenario (the same fight under two
    // variants of the rules, say), the data names each row's run by its label.
    let mut seen = std::collections::HashSet::new();
    let shared = experiments.iter().any(|(_, e, _)| !seen.insert((e.ruleset.clone(), e.scenario.name)));
    let tag = |runs: &mut [Run], label: &str| {
        if shared {
            for run in runs {
                run.keys.insert(0, ("run".to_string(), label.to_string()));
            }
        }
    };
    match spec.analysis {
        AnalysisKind::Distribution => {
            // Runs of one fight under two settings (the explorer's A and B)
            // are also drawn on one chart, side by side.
            let mut laws: Vec<(String, volley_kernel::outcome::Distribution)> = Vec::new();
            for (_, experiment, label) in &experiments {
                let (run, exact) = experiment.run_and_exact().map_err(internal)?;
                if shared {
                    laws.push((label.to_string(), run.distribution.clone()));
                }
                let (mut report, _) =
                    report::distribution_report(&run, exact.as_ref(), confidence).map_err(internal)?;
                report.sections.push(Section::text("Method", &report::method_text(experiment, &[run.policies])));
                let start = runs.len();
                // The exact distribution, where it was computed to check the
                // sampled one, goes into the data beside it (its rows have
                // `exact` = true).
                let exact_run = match (&exact, run.distribution.samples()) {
                    (Some(exact), Some(_)) => Some(Run { distribution: exact.clone(), ..run.clone() }),
                    _ => None,
                };
                runs.push(run);
                runs.extend(exact_run);
                tag(&mut runs[start..], label);
                parts.push((label.to_string(), report));
            }
            if laws.len() > 1 {
                parts.insert(0, (String::new(), side_by_side(&laws, confidence).map_err(internal)?));
            }
        }
        AnalysisKind::Ladder => {
            for (run_spec, experiment, label) in &experiments {
                let ladder = balance::quality_ladder(
                    experiment,
                    run_spec.qualities.as_ref().map(|q| q.get_ref().as_slice()),
                    measure_of(run_spec)?,
                )
                .map_err(internal)?;
                let (report, _) = report::ladder_report(experiment, &ladder).map_err(internal)?;
                let start = runs.len();
                runs.extend(ladder.runs);
                tag(&mut runs[start..], label);
                parts.push((label.to_string(), report));
            }
        }
        AnalysisKind::Equivalence => {
            for (run_spec, experiment, label) in &experiments {
                let key = run_spec.key.as_ref().expect("checked in prepare").get_ref();
                let (from, to) = even_range(loaded, run_spec)?;
                let axis = Axis::of(experiment, key, from.as_deref(), to.as_deref()).map_err(internal)?;
                let m = default_measure(run_spec, experiment)?;
                let target = run_spec.target.as_ref().or(spec.target.as_ref()).map(|t| *t.get_ref());
                let target = even::target_for(&m, target).map_err(|e| bad_input(format!("{}: {e}", loaded.origin)))?;
                let (report, mut found_runs) = match &run_spec.by {
                    None => {
                        let found = even::search(experiment, &axis, &m, target).map_err(internal)?;
                        (report::even_report(experiment, &found).map_err(internal)?.0, found.runs)
                    }
                    Some(by) => {
                        let by = by_axis(loaded, run_spec, experiment, by)?;
                        let searches = even::curve(experiment, &by, &axis, &m, target).map_err(internal)?;
                        let named: Vec<(String, even::Even)> = by.values.iter().cloned().zip(searches).collect();
                        let (report, _) = report::even_curve_report(experiment, &by.key, &named).map_err(internal)?;
                        (report, named.into_iter().flat_map(|(_, e)| e.runs).collect())
                    }
                };
                tag(&mut found_runs, label);
                runs.extend(found_runs);
                parts.push((label.to_string(), report));
            }
        }
        AnalysisKind::Points => {
            for (run_spec, experiment, label) in &experiments {
                let key = run_spec.key.as_ref().map_or("quality", |k| k.get_ref().as_str());
                let values = run_spec.values.as_ref().map(|v| v.get_ref().texts()).transpose().map_err(bad_input)?;
                let found = points::points(experiment, key, values.as_deref()).map_err(internal)?;
                let (report, _) = report::points_report(experiment, &found).map_err(internal)?;
                let start = runs.len();
                runs.extend(found.runs);
                tag(&mut runs[start..], label);
                parts.push((label.to_string(), report));
            }
        }
        AnalysisKind::Sensitivity => {
            for (run_spec, experiment, label) in &experiments {
                let m = default_measure(run_spec, experiment)?;
                let found = balance::sensitivity(experiment, &m).map_err(internal)?;
                let (report, _) = report::sensitivity_report(experiment, &found).map_err(internal)?;
                measured_only.push(m.metric().to_string());
                let start = runs.len();
                runs.extend(found.runs);
                tag(&mut runs[start..], label);
                parts.push((label.to_string(), report));
            }
        }
        AnalysisKind::Convergence => {
            for (run_spec, experiment, label) in &experiments {
                let m = default_measure(run_spec, experiment)?;
                let counts = balance::default_sample_counts(samples.max(1000));
                let found = balance::convergence(experiment, &m, &counts).map_err(internal)?;
                let (report, frame) = report::convergence_report(experiment, &found).map_err(internal)?;
                custom_frame = Some(match custom_frame {
                    Some(mut all) => {
                        all.vstack_mut(&frame).map_err(|e| internal(AnalysisError::Polars(e)))?;
                        all
                    }
                    None => frame,
                });
                parts.push((label.to_string(), report));
            }
        }
        AnalysisKind::Sweep => {
            let mut sweeps = Vec::new();
            let mut x_label = String::new();
            for (run_spec, experiment, label) in &experiments {
                let m = default_measure(run_spec, experiment)?;
                let key = run_spec.key.as_ref().expect("checked in prepare").get_ref();
                let values =
                    run_spec.values.as_ref().expect("checked in prepare").get_ref().texts().map_err(bad_input)?;
                x_label = key.strip_prefix(canonical::PREFIX).unwrap_or(key).to_string();
                let mut found = sweep(experiment, key, &values, &m, label, &prepared.overrides)?;
                tag(&mut found.runs, label);
                if let Some(x) = &run_spec.x {
                    for ((position, _), at) in found.points.iter_mut().zip(x.get_ref()) {
                        *position = at.to_string();
                    }
                }
                if let Some(factor) = run_spec.y_scale {
                    for (_, e) in &mut found.points {
                        e.value *= factor;
                        e.ci_low *= factor;
                        e.ci_high *= factor;
                        e.standard_error *= factor;
                    }
                }
                sweeps.push(found);
            }
            let x_label = spec.x_label.clone().unwrap_or(x_label);
            let (mut report, _) =
                report::sweep_report(&spec.title, &spec.question, &x_label, &sweeps, confidence).map_err(internal)?;
            if let Some(y_label) = &spec.y_label {
                for chart in report.sections.iter_mut().flat_map(|s| s.charts.iter_mut()) {
                    chart.y_label = y_label.clone();
                }
            }
            if let Some(rows) = &spec.rows {
                for grid in report.sections.iter_mut().filter_map(|s| s.grid.as_mut()) {
                    grid.row_title = rows.clone();
                }
            }
            // Scaled values are in the y axis's unit, not probabilities: the
            // finding speaks in that unit.
            if let (Some(y_label), true) = (&spec.y_label, experiments.iter().any(|(r, _, _)| r.y_scale.is_some())) {
                let sentences: Vec<String> = sweeps
                    .iter()
                    .filter_map(|s| {
                        let (first, last) = (s.points.first()?, s.points.last()?);
                        Some(format!(
                            "For {}, {y_label} goes from {:.1} at {x_label} {} to {:.1} at {}",
                            s.ruleset, first.1.value, first.0, last.1.value, last.0
                        ))
                    })
                    .collect();
                report.finding = format!("{}.", sentences.join(".\n"));
            }
            let method: Vec<String> = experiments
                .iter()
                .zip(&sweeps)
                .map(|((run_spec, experiment, label), found)| {
                    let key = run_spec.key.as_ref().map_or(String::new(), |k| k.get_ref().clone());
                    let values: Vec<&str> = found.points.iter().map(|(v, _)| v.as_str()).collect();
                    // A canonical key's values are recorded with the ruleset's
                    // own keys they were read as (the quality map included).
                    let readings: Vec<String> = values
                        .iter()
                        .filter(|_| key.starts_with(canonical::PREFIX))
                        .filter_map(|v| {
                            let read = canonical::expand(&experiment.ruleset, &key, v, &prepared.overrides).ok()?;
                            let keys: Vec<String> = read.iter().map(|(k, x)| format!("{k}={x}")).collect();
                            Some(format!("{v} as {}", keys.join(" ")))
                        })
                        .collect();
                    let mut text = format!("{} (swept)", values.join(" / "));
                    if !readings.is_empty() {
                        text.push_str(&format!(", read as: {}", readings.join(", ")));
                    }
                    let swept = [(key, text)];
                    format!(
                        "{label}: {}",
                        Provenance::of_experiment(experiment, &swept)
                            .with_played(&report::played(&found.runs))
                            .paragraph()
                    )
                })
                .collect();
            report.sections.push(Section::text(
                "Method",
                &format!(
                    "{}\n\nEvery point uses the same seed, so points differ by their settings and not by their dice.",
                    method.join("\n\n")
                ),
            ));
            runs.extend(sweeps.into_iter().flat_map(|s| s.runs));
            parts.push((String::new(), report));
        }
    }
    let data = match custom_frame {
        Some(frame) => frame,
        None => long_frame(&runs, confidence).map_err(|e| internal(AnalysisError::Polars(e)))?,
    };
    let data = if measured_only.is_empty() {
        data
    } else {
        let metrics: Vec<&str> = measured_only.iter().map(String::as_str).collect();
        report::only_metrics(&data, &metrics).map_err(|e| internal(AnalysisError::Polars(e)))?
    };
    let mut report = combine(&spec.title, &spec.question, parts);
    report.pages = Some(spec.page_limit());
    Ok((report, data))
}

/// A sweep over one key, which may be canonical: each value is translated into
/// the ruleset's own keys before the run.
fn sweep(
    experiment: &Experiment,
    key: &str,
    values: &[String],
    measure: &Measure,
    label: &str,
    overrides: &QualityOverrides,
) -> anyhow::Result<Sweep> {
    let mut points: Vec<(String, Estimate)> = Vec::with_capacity(values.len());
    let mut runs = Vec::with_capacity(values.len());
    for value in values {
        let keys = canonical::expand(&experiment.ruleset, key, value, overrides).map_err(bad_input)?;
        let mut run = experiment
            .run(&keys)
            .map_err(internal)
            .map_err(|e| e.context(format!("run `{label}`, {key} = {value}")))?;
        run.keys = vec![(key.to_string(), value.clone())];
        points.push((value.clone(), measure.estimate(&run.distribution, experiment.confidence).map_err(internal)?));
        runs.push(run);
    }
    Ok(Sweep { ruleset: label.to_string(), key: key.to_string(), measure: measure.clone(), points, runs })
}

/// Runs of one fight side by side: the first metric's bars of every run
/// together, and, where the fight has turns, each run's chance of being
/// decided by each turn.
fn side_by_side(
    laws: &[(String, volley_kernel::outcome::Distribution)],
    confidence: f64,
) -> Result<Report, AnalysisError> {
    let runs: Vec<(String, &volley_kernel::outcome::Distribution)> =
        laws.iter().map(|(label, dist)| (label.clone(), dist)).collect();
    let first = laws[0].1.metrics.first().map(|m| m.name).unwrap_or_default();
    let labels: Vec<&str> = laws.iter().map(|(label, _)| label.as_str()).collect();
    let mut section = Section::text(
        "Side by side",
        &format!("The same fight under each run's settings ({}), on one chart.", labels.join(", ")),
    )
    .with_chart(volley_analysis::charts::grouped_distribution_bars(
        "side-by-side",
        &format!("{first}: {}", labels.join(" and ")),
        &runs,
        first,
        confidence,
    )?);
    if laws.iter().all(|(_, dist)| dist.metric_index("turns").is_some()) {
        section = section.with_chart(volley_analysis::charts::cdf_chart(
            "side-by-side-turns",
            "Turns to a decision",
            &runs,
            "turns",
            "turns",
            confidence,
        )?);
    }
    Ok(Report {
        title: String::new(),
        question: String::new(),
        finding: String::new(),
        sections: vec![section],
        pages: None,
    })
}

/// One report from the reports of a spec's runs: the spec's title and
/// question, every run's finding on a line of its own, and each run's
/// sections under its label.
fn combine(title: &str, question: &str, parts: Vec<(String, Report)>) -> Report {
    if parts.len() == 1 {
        let (_, mut only) = parts.into_iter().next().expect("one part");
        only.title = title.to_string();
        only.question = question.to_string();
        return only;
    }
    let finding = parts
        .iter()
        .filter(|(_, r)| !r.finding.is_empty())
        .map(|(label, r)| if label.is_empty() { r.finding.clone() } else { format!("{label}: {}", r.finding) })
        .collect::<Vec<_>>()
        .join("\n");
    let mut sections: Vec<Section> = Vec::new();
    // Every run's record of how it was made goes into one Method section at
    // the end, a paragraph per run under its label.
    let mut method: Vec<String> = Vec::new();
    for (label, part) in parts {
        for (i, mut section) in part.sections.into_iter().enumerate() {
            if section.heading == "Method" {
                method.push(if label.is_empty() { section.text } else { format!("{label}: {}", section.text) });
                continue;
            }
            for chart in section.charts.iter_mut().filter(|_| !label.is_empty()) {
                chart.name = format!("{}-{}", slug(&label), chart.name);
            }
            section.heading = match (label.is_empty(), section.heading.is_empty()) {
                (true, _) => section.heading,
                (false, true) => label.clone(),
                (false, false) => format!("{label}: {}", section.heading),
            };
            if i == 0 && section.text.is_empty() {
                section.text = part.finding.clone();
            }
            sections.push(section);
        }
    }
    if !method.is_empty() {
        sections.push(Section::text("Method", &method.join("\n\n")));
    }
    Report { title: title.to_string(), question: question.to_string(), finding, sections, pages: None }
}

/// A label as a file-name stem: lower-case letters and digits, one dash
/// between words (`Huzzah! assault` is `huzzah-assault`).
fn slug(text: &str) -> String {
    let mapped: String =
        text.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    mapped.split('-').filter(|w| !w.is_empty()).collect::<Vec<_>>().join("-")
}

/// Every spec in a directory, in name order.
pub fn spec_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| bad_input(format!("cannot read analyses directory {}: {e}", dir.display())))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(bad_input(format!("{} holds no analysis specs (*.toml)", dir.display())));
    }
    Ok(files)
}
