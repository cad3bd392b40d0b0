//! `volley even RULESET SCENARIO --vary KEY`: the value of a key (or rule
//! field) at which a measure crosses a target, as a table, CSV or JSON;
//! with `--by`, that value at each value of a second key.

use super::dist::{Control, check_confidence_and_precision, set_pairs, set_rule};
use super::run::{finish_bar, parse_measure, progress_bar};
use super::{find_ruleset, load_rules};
use crate::args::Format;
use crate::error::bad_input;
use serde_json::json;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use volley_analysis::AnalysisError;
use volley_analysis::balance::{Experiment, Solving};
use volley_analysis::even::{self, Axis, Crossing, Even, say};
use volley_analysis::provenance::Provenance;
use volley_analysis::report::search_text;
use volley_kernel::runner::RunOptions;

/// Everything `even` was asked (by the command line or the explorer's API).
#[derive(Clone, Debug)]
pub struct EvenRequest {
    pub ruleset: String,
    pub scenario: String,
    pub vary: String,
    pub from: Option<String>,
    pub to: Option<String>,
    pub target: Option<f64>,
    pub measure: Option<String>,
    pub by: Option<String>,
    pub set: Vec<String>,
    pub rules: Option<PathBuf>,
    /// `Some(true)`: exact at every value, or an error; `Some(false)`:
    /// sampled at every value; `None`: exact where quick, else sampled.
    pub exact: Option<bool>,
    /// Samples per value, sampled all at once (instead of in rounds to
    /// the precision).
    pub samples: Option<u64>,
    pub precision: Option<f64>,
    pub seed: u64,
    pub threads: usize,
    pub confidence: f64,
    pub format: Format,
    pub quiet: bool,
}

/// The precision a value is sampled to where nothing else is asked.
pub const DEFAULT_PRECISION: f64 = 0.005;

/// A finished search (one, or one per value of `--by`) with its record.
pub struct EvenResult {
    pub provenance: Provenance,
    /// The second key, with `--by`.
    pub by: Option<String>,
    /// (the `--by` value, or none; the search there).
    pub searches: Vec<(Option<String>, Even)>,
}

/// Runs `even` and prints its answer.
pub fn run(request: EvenRequest) -> anyhow::Result<()> {
    let progress = Arc::new(AtomicU64::new(0));
    let bar = progress_bar("even", request.quiet, progress.clone(), None);
    let result = compute(&request, &Control { progress: Some(progress), cancel: None });
    finish_bar(bar);
    print!("{}", render(&result?, request.format));
    Ok(())
}

/// An analysis error as the user's to fix (a key, a value, a measure, an
/// exact solve that cannot be done) or the program's.
fn classify(error: AnalysisError) -> anyhow::Error {
    match error {
        AnalysisError::Invalid(_) | AnalysisError::Param(_) | AnalysisError::Catalogue(_) => {
            bad_input(error.to_string())
        }
        other => anyhow::Error::new(other),
    }
}

/// Checks a request and runs its search.
pub fn compute(request: &EvenRequest, control: &Control) -> anyhow::Result<EvenResult> {
    check_confidence_and_precision(request.confidence, request.precision)?;
    let ruleset = find_ruleset(&request.ruleset)?;
    let entry = ruleset.scenario(&request.scenario).map_err(|e| bad_input(e.to_string()))?;
    let mut rules = load_rules(&ruleset, request.rules.as_deref())?;
    let mut fixed: Vec<(String, String)> = Vec::new();
    for (key, value) in set_pairs(&request.set)? {
        for searched in std::iter::once(&request.vary).chain(&request.by) {
            if key == searched {
                return Err(bad_input(format!("--set {key}: {key} is searched, so it cannot also be held fixed")));
            }
        }
        if let Some(field) = key.strip_prefix(even::RULE_PREFIX) {
            set_rule(rules.as_mut(), ruleset.name, &format!("{field}={value}"))?;
        }
        fixed.push((key.to_string(), value.to_string()));
    }
    if request.by.as_ref() == Some(&request.vary) {
        return Err(bad_input(format!("--by {}: the second key must differ from --vary", request.vary)));
    }
    let scenario_keys: Vec<(String, String)> =
        fixed.iter().filter(|(k, _)| !k.starts_with(even::RULE_PREFIX)).cloned().collect();
    let mut options = RunOptions::new(request.samples.unwrap_or(1_000_000), request.seed).with_threads(request.threads);
    options.progress = control.progress.clone();
    options.cancel = control.cancel.clone();
    let precision = match request.samples {
        Some(_) => None,
        None => Some(request.precision.unwrap_or(DEFAULT_PRECISION)),
    };
    let experiment = Experiment::from_parts(ruleset.name, entry, rules, options)
        .with_fixed(scenario_keys)
        .with_confidence(request.confidence)
        .with_solving(Solving::asked(request.exact))
        .with_precision(precision);
    // The fixed keys build, before any search.
    experiment
        .build(experiment.rules.as_ref(), &[])
        .map_err(|e| bad_input(format!("{} {}: {e}", ruleset.name, entry.name)))?;
    let axis = Axis::of(&experiment, &request.vary, request.from.as_deref(), request.to.as_deref())
        .map_err(|e| bad_input(format!("--vary: {e}")))?;
    let measure = match &request.measure {
        Some(text) => Some(parse_measure(text).map_err(|why| bad_input(format!("--measure: {why}")))?),
        None => None,
    };
    let measure = even::default_measure(&experiment, measure)
        .map_err(|e| bad_input(format!("--measure: {} {}: {e}", ruleset.name, entry.name)))?;
    let target = even::target_for(&measure, request.target).map_err(|e| bad_input(format!("--target: {e}")))?;
    let searches = match &request.by {
        None => vec![(None, even::search(&experiment, &axis, &measure, target).map_err(classify)?)],
        Some(by) => {
            let by_axis = Axis::of(&experiment, by, None, None).map_err(|e| bad_input(format!("--by: {e}")))?;
            let found = even::curve(&experiment, &by_axis, &axis, &measure, target).map_err(classify)?;
            by_axis.values.into_iter().map(Some).zip(found).collect()
        }
    };
    let range = format!("{}..{}", axis.values[0], axis.values[axis.values.len() - 1]);
    let mut searched = vec![(axis.key.clone(), range)];
    if let Some(by) = &request.by {
        searched.push((by.clone(), "each".to_string()));
    }
    let played: Vec<_> = searches.iter().flat_map(|(_, e)| e.runs.iter().map(|r| r.policies)).collect();
    let provenance = Provenance::of_search(&experiment, &searched, even::FIRST_ROUND).with_played(&played);
    Ok(EvenResult { provenance, by: request.by.clone(), searches })
}

/// The answer in one of the output formats.
pub fn render(result: &EvenResult, format: Format) -> String {
    match format {
        Format::Table => table(result),
        Format::Csv => csv(result),
        Format::Json => format!("{:#}\n", json_value(result)),
    }
}

fn table(result: &EvenResult) -> String {
    let mut out = String::new();
    let lines = result.provenance.lines();
    let width = lines.iter().map(|(label, _)| label.len()).max().unwrap_or(0);
    for (label, value) in lines {
        out.push_str(&format!("{label:<width$}  {value}\n"));
    }
    for (by, even) in &result.searches {
        out.push('\n');
        if let Some(by) = by {
            out.push_str(&format!("at {} = {by}\n", result.by.as_deref().unwrap_or("")));
        }
        let key_width = even.axis.key.len().max(even.points.iter().map(|p| p.value.len()).max().unwrap_or(0));
        out.push_str(&format!(
            "{:<key_width$}  {:>10}  {:>19}  {:>5}  {:>9}\n",
            even.axis.key, "measure", "interval", "side", "samples"
        ));
        for point in &even.points {
            let e = &point.estimate;
            let interval =
                if e.samples.is_some() { format!("[{:.4}, {:.4}]", e.ci_low, e.ci_high) } else { "exact".into() };
            out.push_str(&format!(
                "{:<key_width$}  {:>10.6}  {:>19}  {:>5}  {:>9}\n",
                point.value,
                e.value,
                interval,
                point.side_word(even.target),
                point.samples
            ));
        }
        out.push_str(&format!("\n{}\n", even.finding()));
    }
    if let Some((_, first)) = result.searches.first() {
        let spent: u64 = result.searches.iter().map(|(_, e)| e.samples_spent).sum();
        out.push_str(&format!("\nsearch: {}", search_text(first)));
        if result.searches.len() > 1 && spent > 0 {
            out.push_str(&format!(" The {} searches drew {spent} samples in all.", result.searches.len()));
        }
        out.push('\n');
    }
    out
}

fn csv(result: &EvenResult) -> String {
    let mut out = String::from("by,value,estimate,ci_low,ci_high,side,settled,samples\n");
    for (by, even) in &result.searches {
        for p in &even.points {
            let side = p.side_word(even.target);
            out.push_str(&format!(
                "{},{},{},{},{},{side},{},{}\n",
                by.as_deref().unwrap_or(""),
                p.value,
                p.estimate.value,
                p.estimate.ci_low,
                p.estimate.ci_high,
                p.settled(even.target),
                p.samples
            ));
        }
    }
    out
}

/// The answer as JSON: the record, then each search's points, crossings
/// and finding.
pub fn json_value(result: &EvenResult) -> serde_json::Value {
    let provenance: serde_json::Map<String, serde_json::Value> =
        result.provenance.lines().into_iter().map(|(label, value)| (label.replace(' ', "_"), json!(value))).collect();
    let searches: Vec<serde_json::Value> = result
        .searches
        .iter()
        .map(|(by, even)| {
            let points: Vec<serde_json::Value> = even
                .points
                .iter()
                .map(|p| {
                    json!({
                        "value": p.value,
                        "estimate": p.estimate.value,
                        "ci_low": p.estimate.ci_low,
                        "ci_high": p.estimate.ci_high,
                        "exact": p.estimate.samples.is_none(),
                        "settled": p.settled(even.target),
                        "samples": p.samples,
                    })
                })
                .collect();
            let crossings: Vec<serde_json::Value> = even
                .crossings
                .iter()
                .map(|c| match c {
                    Crossing::Between { below, above, at } => json!({
                        "below": even.points[*below].value,
                        "above": even.points[*above].value,
                        "interpolated": at,
                        "words": even.crossing_words(c),
                    }),
                    Crossing::At { point } => json!({
                        "at": even.points[*point].value,
                        "words": even.crossing_words(c),
                    }),
                })
                .collect();
            json!({
                "by": by,
                "key": even.axis.key,
                "measure": even.measure.plain(),
                "target": even.target,
                "target_words": say(&even.measure, even.target),
                "points": points,
                "crossings": crossings,
                "grid_step": even.grid_step,
                "samples_spent": even.samples_spent,
                "finding": even.finding(),
                "search": search_text(even),
            })
        })
        .collect();
    json!({ "provenance": provenance, "searches": searches })
}
