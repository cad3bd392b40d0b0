//! `volley dist RULESET SCENARIO`: one scenario's outcome distribution, exact or
//! sampled, as a table, CSV or JSON.

use super::{find_ruleset, load_rules};
use crate::args::Format;
use crate::error::bad_input;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use volley_analysis::provenance::{Computation, Provenance};
use volley_analysis::stats::{PRINTED_DIGITS, round_significant, samples_for_half_width, wilson};
use volley_kernel::game::{Explained, PolicyUse, Tie};
use volley_kernel::outcome::Distribution;
use volley_kernel::params::{ParamError, RuleBook};
use volley_kernel::runner::RunOptions;
use volley_kernel::scenario::DynScenario;

/// Everything `dist` was asked (by the command line or the explorer's API).
#[derive(Clone, Debug)]
pub struct DistRequest {
    pub ruleset: String,
    pub scenario: String,
    pub set: Vec<String>,
    pub rules: Option<PathBuf>,
    /// Rule fields set one by one (`FIELD=VALUE`), over the rules file.
    pub rule_overrides: Vec<String>,
    /// `Some(true)`: exact, or an error where the scenario has no solver;
    /// `Some(false)`: sampled; `None`: exact wherever the scenario's exact
    /// answer is quick ([`DynScenario::exact_is_cheap`]), sampled elsewhere.
    pub exact: Option<bool>,
    /// The samples drawn where it samples (and no precision is asked).
    pub samples: u64,
    /// Sample enough for every probability's interval to be at most this
    /// either side (instead of `samples`).
    pub precision: Option<f64>,
    pub seed: u64,
    pub threads: usize,
    pub confidence: f64,
    pub format: Format,
    pub quiet: bool,
    pub explain: bool,
    /// The metrics printed (all where empty).
    pub metrics: Vec<String>,
    /// The request came through the explorer's API: messages name its
    /// query keys (`exact=true`), not the command line's flags.
    pub from_api: bool,
}

/// One printed row: a value of a metric.
struct Row {
    metric: &'static str,
    value: String,
    probability: f64,
    ci_low: f64,
    ci_high: f64,
    count: Option<u64>,
}

/// A computed distribution with everything its outputs print.
pub struct DistResult {
    provenance: Provenance,
    distribution: Distribution,
    rows: Vec<Row>,
    settings: Vec<(String, String)>,
    policies: Option<[PolicyUse; 2]>,
    explained: Option<Vec<Explained>>,
}

/// The samples `dist` draws where it samples and nothing else is asked.
pub const DEFAULT_SAMPLES: u64 = 1_000_000;

/// Runs `dist`.
pub fn run(request: DistRequest) -> anyhow::Result<()> {
    let result = compute(&request, &Control::default())?;
    print!("{}", render(&request, &result, request.format));
    Ok(())
}

/// What a caller other than the command line attaches to a run: a progress
/// counter and a cancel flag (the explorer's streams and time limits).
#[derive(Clone, Default)]
pub struct Control {
    pub progress: Option<Arc<AtomicU64>>,
    pub cancel: Option<Arc<AtomicBool>>,
}

/// The samples a sampled request draws: `samples`, or enough for `precision`
/// whatever the probability (the widest Wilson interval is at p = 1/2).
pub fn planned_samples(request: &DistRequest) -> u64 {
    match request.precision {
        Some(p) => samples_for_half_width(0.5, p, request.confidence).max(1),
        None => request.samples,
    }
}

/// Checks a request and computes its distribution: exactly, or by sampling.
pub fn compute(request: &DistRequest, control: &Control) -> anyhow::Result<DistResult> {
    compute_with(request, control, None)
}

/// Built scenarios kept between requests that differ only in how they are
/// answered (seed, samples, precision, confidence, metrics, format): a game
/// under best play keeps its solved table, so a second seed or a finer
/// precision samples at once instead of solving again. A solved table can
/// take hundreds of megabytes, so only the last few are kept.
pub struct ScenarioCache {
    capacity: usize,
    entries: std::sync::Mutex<Vec<(String, Arc<dyn DynScenario>)>>,
    builds: AtomicU64,
}

impl ScenarioCache {
    /// A cache of the `capacity` scenarios built last.
    pub fn new(capacity: usize) -> ScenarioCache {
        ScenarioCache { capacity, entries: std::sync::Mutex::new(Vec::new()), builds: AtomicU64::new(0) }
    }

    /// How many scenarios it has built (each a solve, for a game under
    /// best play): what the cache saves is the requests beyond these.
    #[cfg(test)]
    pub fn builds(&self) -> u64 {
        self.builds.load(Ordering::Relaxed)
    }

    /// The scenario built for `key`, or `build`'s, kept as the newest.
    fn get_or_build(
        &self,
        key: String,
        build: impl FnOnce() -> anyhow::Result<Box<dyn DynScenario>>,
    ) -> anyhow::Result<Arc<dyn DynScenario>> {
        {
            let mut entries = self.entries.lock().expect("the scenario cache lock");
            if let Some(at) = entries.iter().position(|(k, _)| *k == key) {
                let entry = entries.remove(at);
                let scenario = entry.1.clone();
                entries.push(entry);
                return Ok(scenario);
            }
        }
        // Built outside the lock: a build may take a while, and other
        // settings need not wait for it.
        let scenario: Arc<dyn DynScenario> = Arc::from(build()?);
        self.builds.fetch_add(1, Ordering::Relaxed);
        let mut entries = self.entries.lock().expect("the scenario cache lock");
        entries.retain(|(k, _)| *k != key);
        entries.push((key, scenario.clone()));
        while entries.len() > self.capacity {
            entries.remove(0);
        }
        Ok(scenario)
    }
}

/// [`compute`], taking the built scenario from `cache` where it holds one
/// for the same ruleset, scenario, keys and rules (never with a rules file,
/// whose contents may change between requests).
pub fn compute_with(
    request: &DistRequest,
    control: &Control,
    cache: Option<&ScenarioCache>,
) -> anyhow::Result<DistResult> {
    check_confidence_and_precision(request.confidence, request.precision)?;
    if request.exact != Some(true) && request.samples == 0 {
        return Err(bad_input("--samples must be at least 1"));
    }
    let ruleset = find_ruleset(&request.ruleset)?;
    let entry = ruleset.scenario(&request.scenario).map_err(|e| bad_input(e.to_string()))?;
    let mut rules = load_rules(&ruleset, request.rules.as_deref())?;
    for pair in &request.rule_overrides {
        set_rule(rules.as_mut(), ruleset.name, pair)?;
    }
    let pairs = set_pairs(&request.set)?;
    let build = || {
        entry
            .build_from_text(rules.as_ref(), pairs.iter().copied())
            .map_err(|e| bad_input(format!("{} {}: {e}", ruleset.name, entry.name)))
    };
    let scenario: Arc<dyn DynScenario> = match cache.filter(|_| request.rules.is_none()) {
        Some(cache) => {
            let rules = request.rule_overrides.iter().map(|pair| format!("rules.{pair}"));
            let mut settings: Vec<String> = request.set.iter().cloned().chain(rules).collect();
            settings.sort();
            let key = format!("{} {} {}", ruleset.name, entry.name, settings.join("&"));
            cache.get_or_build(key, build)?
        }
        None => Arc::from(build()?),
    };
    // Every metric asked for exists, before any work is done.
    if !request.metrics.is_empty() {
        let metrics = scenario.metrics();
        let names: Vec<&str> = metrics.iter().map(|m| m.name).collect();
        for wanted in &request.metrics {
            if !names.contains(&wanted.as_str()) {
                return Err(bad_input(format!(
                    "--metric {wanted}: {} {} has no such metric; it has {}",
                    request.ruleset,
                    request.scenario,
                    names.join(", ")
                )));
            }
        }
    }
    let explained = if request.explain { Some(explanation(request, scenario.as_ref())?) } else { None };
    // Exact where asked, or (unless sampling is asked) where it is quick; a
    // solve that the scenario expected to be quick but could not finish
    // within its state budget falls back to sampling.
    let solved = match request.exact {
        Some(true) => scenario.exact_distribution(),
        None if scenario.exact_is_cheap() => scenario.exact_distribution(),
        _ => None,
    };
    let distribution = if let Some(solved) = solved {
        solved
    } else if request.exact == Some(true) {
        return Err({
            if request.from_api {
                bad_input(format!(
                    "{} {} has no exact solver for these settings; ask without exact=true (or with samples or \
                     precision) to sample it",
                    ruleset.name, entry.name
                ))
            } else {
                bad_input(format!(
                    "{} {} has no exact solver for these settings; drop --exact to sample it (see `volley list {}`)",
                    ruleset.name, entry.name, ruleset.name
                ))
            }
        });
    } else {
        let mut options = RunOptions::new(planned_samples(request), request.seed).with_threads(request.threads);
        options.cancel = control.cancel.clone();
        match &control.progress {
            Some(progress) => {
                options.progress = Some(progress.clone());
                scenario.simulate(&options)?
            }
            None => simulate_with_progress(scenario.as_ref(), options, request.quiet)?,
        }
    };
    let mut rows = rows(&distribution, request.confidence);
    if !request.metrics.is_empty() {
        rows.retain(|row| request.metrics.iter().any(|m| m == row.metric));
    }
    let keys: Vec<(String, String)> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let computation = match distribution.samples() {
        Some(samples) => match request.precision {
            Some(precision) => Computation::SampledToPrecision { samples, precision, seed: request.seed },
            None => Computation::Sampled { samples, precision: None, seed: request.seed },
        },
        None => Computation::Exact,
    };
    // The policies played, once the scenario has run: a game solved for the
    // run keeps its table, so asking solves nothing again.
    let policies = scenario.policies();
    let provenance = Provenance::new(ruleset.name, entry, rules.as_ref(), &keys, computation, request.confidence)
        .with_played(&[policies])
        .with_unread(&scenario.unread_keys())
        .with_unread_rules(|field| scenario.reads_rule(field));
    let settings: Vec<(String, String)> = {
        let mut all: Vec<(String, String)> =
            entry.params.iter().map(|p| (p.name.clone(), p.default.to_string())).collect();
        for (k, v) in &pairs {
            if let Some(slot) = all.iter_mut().find(|(name, _)| name == k) {
                slot.1 = v.to_string();
            }
        }
        all
    };
    Ok(DistResult { provenance, distribution, rows, settings, policies, explained })
}

/// `--confidence` strictly between 0 and 1, and `--precision`, where
/// given, above 0 and below 0.5.
pub(super) fn check_confidence_and_precision(confidence: f64, precision: Option<f64>) -> anyhow::Result<()> {
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(bad_input(format!("--confidence {confidence} must be between 0 and 1, such as 0.95")));
    }
    if let Some(p) = precision
        && !(p > 0.0 && p < 0.5)
    {
        return Err(bad_input(format!("--precision {p} must be above 0 and below 0.5, such as 0.005")));
    }
    Ok(())
}

/// `--set KEY=VALUE` pairs, trimmed. A key given twice is a mistake
/// whichever value was meant: refused, as the API refuses it, rather than
/// the last silently winning.
pub(super) fn set_pairs(set: &[String]) -> anyhow::Result<Vec<(&str, &str)>> {
    let mut pairs: Vec<(&str, &str)> = Vec::with_capacity(set.len());
    for pair in set {
        let (key, value) = pair
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| bad_input(format!("--set expects KEY=VALUE, got `{pair}`")))?;
        if let Some((_, first)) = pairs.iter().find(|(k, _)| *k == key) {
            return Err(bad_input(format!("--set {key} is given twice ({first}, then {value}); give each key once")));
        }
        pairs.push((key, value));
    }
    Ok(pairs)
}

/// Sets one rule field from `FIELD=VALUE`, naming the field and what it
/// accepts when either is wrong.
pub(super) fn set_rule(book: &mut dyn RuleBook, ruleset: &str, pair: &str) -> anyhow::Result<()> {
    let (name, text) = pair
        .split_once('=')
        .map(|(k, v)| (k.trim(), v.trim()))
        .ok_or_else(|| bad_input(format!("a rule is set as FIELD=VALUE, got `{pair}`")))?;
    book.set_text(name, text).map_err(|e| match e {
        ParamError::UnknownKey { nearest: near, .. } => {
            let hint = if near.is_empty() { String::new() } else { format!(" (did you mean {}?)", near.join(", ")) };
            bad_input(format!(
                "rules.{name}: {ruleset} has no rule field `{name}`{hint}; `volley rules {ruleset}` lists them"
            ))
        }
        e => bad_input(format!("rules.{name}: {e}")),
    })
}

/// A computed distribution in one of the output formats.
pub fn render(request: &DistRequest, result: &DistResult, format: Format) -> String {
    let DistResult { provenance, distribution, rows, settings, policies, explained } = result;
    match format {
        Format::Csv => csv(provenance, rows),
        Format::Json => json_text(request, provenance, distribution, settings, rows, *policies, explained.as_deref()),
        Format::Table => {
            let mut text = table(provenance, distribution, rows);
            if let Some(policies) = policies {
                text.push_str(&format!("\npolicies: {}\n", policy_words(policies, settings)));
            }
            if let Some(explained) = explained {
                text.push_str(&explain_table(explained));
            }
            text
        }
    }
}

/// Each side's first decision, or a clear refusal: a scenario without
/// decisions, a CSV (whose columns are fixed), or best play beyond the solver.
fn explanation(request: &DistRequest, scenario: &dyn DynScenario) -> anyhow::Result<Vec<Explained>> {
    if request.format == Format::Csv {
        return Err(bad_input("--explain prints with --format table or json, not csv (whose columns are fixed)"));
    }
    if scenario.decisions().is_empty() {
        return Err(bad_input(format!(
            "{} {} has no decisions to explain: nobody chooses anything in it (`volley list {} {}` lists a \
             scenario's decisions)",
            request.ruleset, request.scenario, request.ruleset, request.scenario
        )));
    }
    scenario.explain().ok_or_else(|| {
        bad_input(format!(
            "{} {}: best play is beyond the solver for these settings, so there is nothing to explain; try fewer \
             turns or smaller units",
            request.ruleset, request.scenario
        ))
    })
}

/// `attacker best, defender cautious`: each side whose policy the scenario
/// takes as a key (a side without one decides nothing).
fn policy_words(policies: &[PolicyUse; 2], settings: &[(String, String)]) -> String {
    let words: Vec<String> = [(0, "attacker"), (1, "defender")]
        .into_iter()
        .filter(|(_, side)| settings.iter().any(|(key, _)| *key == format!("{side}.policy")))
        .map(|(i, side)| format!("{side} {}", policies[i]))
        .collect();
    words.join(", ")
}

/// The explanation as text: each decision, then its options with their values.
fn explain_table(explained: &[Explained]) -> String {
    let mut out = String::from("\nfirst decisions (option values under best play by both sides afterwards):\n");
    for e in explained {
        out.push_str(&format!(
            "\n  {} decides `{}` at step {} ({}): {}\n",
            e.side,
            e.decision,
            e.step,
            if e.reached >= 1.0 - 1e-12 {
                if e.step == 1 { "from the start".to_string() } else { "certain to arise".to_string() }
            } else {
                format!("the likeliest situation then, reached {:.1}% of the time", 100.0 * e.reached)
            },
            e.situation
        ));
        let width = e.options.iter().map(|o| o.option.len()).max().unwrap_or(6);
        for o in &e.options {
            out.push_str(&format!(
                "    {:<width$}  attacker wins {:>5.1}%, defender wins {:>5.1}%, {} more turn{}{}\n",
                o.option,
                100.0 * o.attacker_wins,
                100.0 * o.defender_wins,
                turns_words(o.turns),
                if (o.turns - 1.0).abs() < 0.05 { "" } else { "s" },
                match (o.chosen, o.tie) {
                    (true, _) => "   <- chosen",
                    (false, Tie::Purpose) => "   (as good for the purpose; lost on the secondary aims)",
                    (false, Tie::All) => "   (as good on every aim; the order listed decided)",
                    (false, Tie::No) => "",
                },
            ));
        }
    }
    if explained.iter().any(|e| e.options.iter().any(|o| o.tie != Tie::No)) {
        out.push_str(
            "\noptions as good for the purpose are decided by the secondary aims: first the side's margin of \
             outright wins (routing the enemy, not being routed), then the turns to play (fewer for a side with \
             something to gain, more for one with something to lose)\n",
        );
    }
    out
}

/// Expected turns still to play, as a person would say them: "0", "2.4".
fn turns_words(turns: f64) -> String {
    if turns.is_nan() {
        return "?".into();
    }
    let rounded = (turns * 10.0).round() / 10.0;
    if rounded.fract() == 0.0 { format!("{rounded:.0}") } else { format!("{rounded:.1}") }
}

fn simulate_with_progress(
    scenario: &dyn DynScenario,
    mut options: RunOptions,
    quiet: bool,
) -> anyhow::Result<Distribution> {
    let show = !quiet && std::io::stderr().is_terminal() && options.samples >= 10_000_000;
    let progress = Arc::new(AtomicU64::new(0));
    options.progress = Some(progress.clone());
    let done = Arc::new(AtomicBool::new(false));
    let total = options.samples;
    let result = std::thread::scope(|scope| {
        if show {
            let done = done.clone();
            let progress = progress.clone();
            scope.spawn(move || {
                let bar = ProgressBar::new(total);
                bar.set_style(
                    ProgressStyle::with_template("{bar:40} {percent:>3}% {human_pos}/{human_len} samples, {eta} left")
                        .expect("a valid template"),
                );
                while !done.load(Ordering::Relaxed) {
                    bar.set_position(progress.load(Ordering::Relaxed));
                    std::thread::sleep(Duration::from_millis(100));
                }
                bar.finish_and_clear();
            });
        }
        let result = scenario.simulate(&options);
        done.store(true, Ordering::Relaxed);
        result
    });
    Ok(result?)
}

fn rows(distribution: &Distribution, confidence: f64) -> Vec<Row> {
    let mut rows = Vec::new();
    for (index, metric) in distribution.metrics.iter().enumerate() {
        for row in distribution.marginal(index) {
            // A sampled probability is one division of its count; an exact
            // one is a sum of products whose last digits are noise.
            let (probability, ci_low, ci_high, count) = match distribution.samples() {
                Some(samples) => {
                    let (low, high) = wilson(row.count, samples, confidence);
                    let round = |x| round_significant(x, PRINTED_DIGITS);
                    (row.count as f64 / samples.max(1) as f64, round(low), round(high), Some(row.count))
                }
                None => {
                    let p = round_significant(row.probability, PRINTED_DIGITS);
                    (p, p, p, None)
                }
            };
            rows.push(Row {
                metric: metric.name,
                value: metric.domain.format(row.value),
                probability,
                ci_low,
                ci_high,
                count,
            });
        }
    }
    rows
}

/// The CSV: how it was made as `# ` comment lines, then the contract's
/// header and rows.
fn csv(provenance: &Provenance, rows: &[Row]) -> String {
    let mut out = String::new();
    for (label, value) in provenance.lines() {
        out.push_str(&format!("# {label}: {value}\n"));
    }
    out.push_str("metric,value,probability,ci_low,ci_high,count\n");
    for r in rows {
        let count = r.count.map(|c| c.to_string()).unwrap_or_default();
        out.push_str(&format!("{},{},{},{},{},{}\n", r.metric, r.value, r.probability, r.ci_low, r.ci_high, count));
    }
    out
}

fn table(provenance: &Provenance, distribution: &Distribution, rows: &[Row]) -> String {
    let mut out = String::new();
    let width = provenance.lines().iter().map(|(label, _)| label.len()).max().unwrap_or(0);
    for (label, value) in provenance.lines() {
        out.push_str(&format!("{label:<width$}  {value}\n"));
    }
    out.push('\n');
    let value_width = rows.iter().map(|r| r.value.len()).max().unwrap_or(5).max(5);
    let metric_width = rows.iter().map(|r| r.metric.len()).max().unwrap_or(6).max(6);
    out.push_str(&format!(
        "{:<mw$}  {:>vw$}  {:>11}  {:>23}  {:>12}\n",
        "metric",
        "value",
        "probability",
        "interval",
        "count",
        mw = metric_width,
        vw = value_width
    ));
    let mut previous = "";
    for r in rows {
        let interval = if r.count.is_some() { format!("[{:.6}, {:.6}]", r.ci_low, r.ci_high) } else { String::new() };
        let count = r.count.map(|c| c.to_string()).unwrap_or_default();
        let metric = if r.metric == previous { "" } else { r.metric };
        previous = r.metric;
        out.push_str(&format!(
            "{:<mw$}  {:>vw$}  {:>11.6}  {:>23}  {:>12}\n",
            metric,
            r.value,
            r.probability,
            interval,
            count,
            mw = metric_width,
            vw = value_width
        ));
    }
    let means: Vec<String> = distribution
        .metrics
        .iter()
        .filter(|m| matches!(m.domain, volley_kernel::outcome::Domain::Integer { .. }))
        .map(|m| format!("{} {:.4}", m.name, distribution.mean(m.name)))
        .collect();
    if !means.is_empty() {
        out.push_str(&format!("\nmeans: {}\n", means.join(", ")));
    }
    out
}

fn json_text(
    request: &DistRequest,
    provenance: &Provenance,
    distribution: &Distribution,
    settings: &[(String, String)],
    rows: &[Row],
    policies: Option<[PolicyUse; 2]>,
    explained: Option<&[Explained]>,
) -> String {
    let metrics: Vec<serde_json::Value> = distribution
        .metrics
        .iter()
        .map(|m| {
            let values: Vec<serde_json::Value> = rows
                .iter()
                .filter(|r| r.metric == m.name)
                .map(|r| {
                    json!({
                        "value": r.value, "probability": r.probability,
                        "ci_low": r.ci_low, "ci_high": r.ci_high, "count": r.count,
                    })
                })
                .collect();
            let mean =
                matches!(m.domain, volley_kernel::outcome::Domain::Integer { .. }).then(|| distribution.mean(m.name));
            json!({ "metric": m.name, "doc": m.doc, "mean": mean, "values": values })
        })
        .collect();
    let document = json!({
        "ruleset": request.ruleset,
        "scenario": request.scenario,
        "settings": settings.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<serde_json::Map<_, _>>(),
        "source": if distribution.samples().is_some() { "monte_carlo" } else { "exact" },
        "samples": distribution.samples(),
        "seed": distribution.samples().map(|_| request.seed),
        "confidence": request.confidence,
        "provenance": provenance_json(provenance),
        "metrics": metrics,
    });
    let mut document = document;
    if let Some(policies) = policies {
        document["policies"] = json!({
            "attacker": policies[0].to_string(),
            "defender": policies[1].to_string(),
        });
    }
    if let Some(explained) = explained {
        document["explain"] = explained
            .iter()
            .map(|e| {
                json!({
                    "side": e.side, "decision": e.decision, "step": e.step, "reached": e.reached,
                    "situation": e.situation,
                    "options": e.options.iter().map(|o| json!({
                        "option": o.option, "attacker_wins": o.attacker_wins,
                        "defender_wins": o.defender_wins, "chosen": o.chosen,
                        "attacker_beats": o.attacker_beats, "defender_beats": o.defender_beats,
                        "turns": if o.turns.is_nan() { None } else { Some(o.turns) },
                        "tie": match o.tie { Tie::No => "none", Tie::Purpose => "purpose", Tie::All => "all" },
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
    }
    format!("{}\n", serde_json::to_string_pretty(&document).expect("JSON of plain values"))
}

/// The provenance as a JSON object: the same record as the table's lines,
/// with keys, policies and changed rules as objects a script can read.
fn provenance_json(provenance: &Provenance) -> serde_json::Value {
    let object = |pairs: &[(String, String)]| {
        pairs.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<serde_json::Map<_, _>>()
    };
    let rules: Vec<serde_json::Value> = provenance
        .rules_changed
        .iter()
        .map(|c| json!({ "field": c.field, "value": c.value, "printed": c.printed }))
        .collect();
    let (samples, seed) = match provenance.computation {
        Computation::Sampled { samples, seed, .. }
        | Computation::SampledToPrecision { samples, seed, .. }
        | Computation::ExactWherePossible { samples, seed, .. }
        | Computation::ExactWhereQuick { samples, seed, .. }
        | Computation::Searched { samples, seed, .. } => (Some(samples), Some(seed)),
        Computation::Exact => (None, None),
    };
    json!({
        "ruleset": provenance.ruleset,
        "scenario": provenance.scenario,
        "keys_set": object(&provenance.keys),
        "not_read": object(&provenance.unread),
        "purpose": provenance.purpose.as_ref().map(|(name, meaning)| json!({ "name": name, "meaning": meaning })),
        "policies": object(&provenance.policies),
        "rules_changed": rules,
        "exact": provenance.computation == Computation::Exact,
        "computed": provenance.computation_text(),
        "samples": samples,
        "seed": seed,
        "confidence": provenance.confidence,
        "volley_version": volley_analysis::provenance::VERSION,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One Hour's firefight under best play on both sides, sampled.
    fn sampled(seed: u64, range: u32) -> DistRequest {
        DistRequest {
            ruleset: "one_hour".into(),
            scenario: "firefight".into(),
            set: vec![format!("range={range}")],
            rules: None,
            rule_overrides: Vec::new(),
            exact: Some(false),
            samples: 2_000,
            precision: None,
            seed,
            threads: 1,
            confidence: 0.95,
            format: Format::Json,
            quiet: true,
            explain: false,
            metrics: Vec::new(),
            from_api: true,
        }
    }

    #[test]
    fn a_second_seed_samples_the_scenario_built_and_solved_for_the_first() {
        let cache = ScenarioCache::new(2);
        let control = Control::default();
        let first = compute_with(&sampled(1, 4), &control, Some(&cache)).unwrap();
        let second = compute_with(&sampled(2, 4), &control, Some(&cache)).unwrap();
        assert_eq!(cache.builds(), 1, "the second seed reused the first's scenario and its solved play");
        assert_eq!(first.distribution.samples(), Some(2_000));
        assert_ne!(
            first.rows.iter().map(|r| r.probability).collect::<Vec<_>>(),
            second.rows.iter().map(|r| r.probability).collect::<Vec<_>>(),
            "two seeds, two samples"
        );
        // The same numbers as without the cache, to the bit.
        let alone = compute(&sampled(2, 4), &control).unwrap();
        assert_eq!(second.distribution, alone.distribution);
        // Other settings build their own; the oldest of more than two goes.
        compute_with(&sampled(1, 3), &control, Some(&cache)).unwrap();
        compute_with(&sampled(1, 2), &control, Some(&cache)).unwrap();
        assert_eq!(cache.builds(), 3);
        compute_with(&sampled(3, 4), &control, Some(&cache)).unwrap();
        assert_eq!(cache.builds(), 4, "range 4 was the oldest and went");
    }
}
