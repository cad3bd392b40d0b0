//! The explorer's routes: the page, the JSON API and the reports folder.

use super::files;
use crate::args::Format;
use crate::commands::dist::{self, Control, DistRequest};
use crate::commands::even::{self as even_command, EvenRequest};
use crate::commands::{find_ruleset, run};
use crate::error::{cut, cut_long_words, exit_status};
use crate::spec;
use axum::Router;
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use serde_json::json;
use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use volley_kernel::catalogue::catalogue;
use volley_kernel::outcome::Domain;
use volley_kernel::params::{Param, ParamKind};

/// What one request may cost.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The most samples one request may draw.
    pub max_samples: u64,
    /// The longest one request may compute.
    pub timeout: Duration,
    /// How many requests compute at once.
    pub concurrent: usize,
}

/// The longest query string accepted: far above any real view's.
const MAX_QUERY: usize = 8 * 1024;

/// How many answers the cache keeps.
const CACHE_ENTRIES: usize = 256;

/// How many built scenarios (with any best play solved for them) the server
/// keeps for requests that differ only in seed, samples or precision: a
/// solved table can take hundreds of megabytes.
const SCENARIO_ENTRIES: usize = 2;

/// The server's shared state.
struct Server {
    reports: PathBuf,
    limits: Limits,
    slots: Arc<tokio::sync::Semaphore>,
    cache: Mutex<Cache>,
    scenarios: Arc<dist::ScenarioCache>,
}

/// Recent answers by their canonical query, oldest first out.
#[derive(Default)]
struct Cache {
    answers: HashMap<String, Arc<Answer>>,
    order: VecDeque<String>,
}

/// One computed distribution in both of the API's formats.
struct Answer {
    json: String,
    csv: String,
}

impl Cache {
    fn get(&self, key: &str) -> Option<Arc<Answer>> {
        self.answers.get(key).cloned()
    }

    fn put(&mut self, key: String, answer: Arc<Answer>) {
        if self.answers.insert(key.clone(), answer).is_none() {
            self.order.push_back(key);
            while self.order.len() > CACHE_ENTRIES {
                if let Some(old) = self.order.pop_front() {
                    self.answers.remove(&old);
                }
            }
        }
    }
}

/// The explorer's router: the page, the API and the reports under `reports`.
pub fn router(reports: PathBuf, limits: Limits) -> Router {
    let server = Arc::new(Server {
        reports,
        limits,
        slots: Arc::new(tokio::sync::Semaphore::new(limits.concurrent)),
        cache: Mutex::new(Cache::default()),
        scenarios: Arc::new(dist::ScenarioCache::new(SCENARIO_ENTRIES)),
    });
    Router::new()
        .route("/", get(|| async { files::asset("/") }))
        .route("/app.js", get(|| async { files::asset("/app.js") }))
        .route("/style.css", get(|| async { files::asset("/style.css") }))
        .route("/api/catalogue", get(catalogue_json))
        .route("/api/rules/{ruleset}", get(rules_json))
        .route("/api/dist", get(dist_answer))
        .route("/api/dist/stream", get(dist_stream))
        .route("/api/spec", get(spec_toml))
        .route("/api/even", get(even_answer))
        .route("/reports", get(|| async { Redirect::permanent("/reports/") }))
        .route("/reports/", get(report_index))
        .route("/reports/{*path}", get(report_file))
        .fallback(not_found)
        .layer(axum::extract::DefaultBodyLimit::max(1024))
        .with_state(server)
}

/// A JSON error: `{"error": "..."}` with its status.
struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let message = cut_long_words(&self.1);
        (self.0, axum::Json(json!({ "error": message, "status": self.0.as_u16() }))).into_response()
    }
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.into())
}

/// An error of the shared command code: bad input is 400, the rest 500.
fn from_command(error: anyhow::Error) -> ApiError {
    let status = if exit_status(&error) == 2 { StatusCode::BAD_REQUEST } else { StatusCode::INTERNAL_SERVER_ERROR };
    ApiError(status, format!("{error:#}"))
}

async fn not_found(uri: axum::http::Uri) -> Response {
    if uri.path().starts_with("/api/") {
        ApiError(
            StatusCode::NOT_FOUND,
            format!(
                "no API route {}; the routes are /api/catalogue, /api/rules/RULESET, /api/dist, /api/dist/stream, \
                 /api/even and /api/spec",
                uri.path()
            ),
        )
        .into_response()
    } else {
        (StatusCode::NOT_FOUND, "not found").into_response()
    }
}

fn json_response(text: String) -> Response {
    let mut response = text.into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

// ---------------------------------------------------------------------------
// The catalogue and the rules.

fn kind_json(kind: &ParamKind) -> serde_json::Value {
    match kind {
        ParamKind::Int { min, max } => json!({ "type": "int", "min": min, "max": max }),
        ParamKind::Bool => json!({ "type": "bool" }),
        ParamKind::Choice(names) => json!({ "type": "choice", "choices": names }),
        ParamKind::Dice => json!({ "type": "dice" }),
    }
}

fn param_json(param: &Param) -> serde_json::Value {
    json!({
        "name": param.name, "doc": param.doc, "default": param.default.to_string(),
        "kind": kind_json(&param.kind), "accepts": param.kind.describe(),
    })
}

/// Every ruleset, scenario, key, metric and decision: built once.
fn catalogue_text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let rulesets: Vec<serde_json::Value> = catalogue()
            .iter()
            .map(|entry| {
                let rules = (entry.default_rules)();
                let scenarios: Vec<serde_json::Value> = entry
                    .scenarios
                    .iter()
                    .map(|s| {
                        let built = s.build_from_text(rules.as_ref(), []).ok();
                        let metrics: Vec<serde_json::Value> = built
                            .as_ref()
                            .map(|b| b.metrics())
                            .unwrap_or_default()
                            .iter()
                            .map(|m| {
                                let (kind, values) = match m.domain {
                                    Domain::Bool => ("bool", json!(["false", "true"])),
                                    Domain::Categories(labels) => ("categories", json!(labels)),
                                    Domain::Integer { min, max } => ("integer", json!([min, max])),
                                };
                                json!({ "name": m.name, "doc": m.doc, "kind": kind, "values": values })
                            })
                            .collect();
                        let decisions: Vec<serde_json::Value> = built
                            .as_ref()
                            .map(|b| b.decisions())
                            .unwrap_or_default()
                            .iter()
                            .map(|d| json!({ "name": d.name, "who": d.who, "doc": d.doc, "options": d.options }))
                            .collect();
                        json!({
                            "name": s.name, "summary": s.summary,
                            "params": s.params.iter().map(param_json).collect::<Vec<_>>(),
                            "metrics": metrics, "decisions": decisions,
                            "exact_at_defaults": built.as_ref().is_some_and(|b| b.has_exact()),
                        })
                    })
                    .collect();
                json!({ "name": entry.name, "title": entry.title, "source": entry.source, "scenarios": scenarios })
            })
            .collect();
        serde_json::to_string(&json!({ "rulesets": rulesets, "version": env!("CARGO_PKG_VERSION") }))
            .expect("JSON of plain values")
    })
}

async fn catalogue_json() -> Response {
    json_response(catalogue_text().to_string())
}

async fn rules_json(UrlPath(ruleset): UrlPath<String>) -> Result<Response, ApiError> {
    let entry = find_ruleset(&ruleset).map_err(from_command)?;
    let rules = (entry.default_rules)();
    let fields: Vec<serde_json::Value> = rules.fields().iter().map(param_json).collect();
    Ok(json_response(
        serde_json::to_string(&json!({ "ruleset": entry.name, "title": entry.title, "fields": fields }))
            .expect("JSON of plain values"),
    ))
}

// ---------------------------------------------------------------------------
// Distributions.

/// The query of a distribution request: its pairs in order.
type Pairs = Vec<(String, String)>;

fn pairs_of(query: Result<Query<Pairs>, axum::extract::rejection::QueryRejection>) -> Result<Pairs, ApiError> {
    let Query(pairs) = query.map_err(|e| bad(format!("the query string is not KEY=VALUE pairs: {e}")))?;
    let length: usize = pairs.iter().map(|(k, v)| k.len() + v.len() + 2).sum();
    if length > MAX_QUERY {
        return Err(ApiError(StatusCode::URI_TOO_LONG, format!("the query is over {MAX_QUERY} bytes")));
    }
    Ok(pairs)
}

/// A parsed distribution request, its format, and its canonical form (the
/// cache's key: sorted, without the format).
struct Parsed {
    request: DistRequest,
    format: Format,
    key: String,
}

fn boolean(key: &str, text: &str) -> Result<bool, ApiError> {
    match text {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(bad(format!("{key}: expected true or false, got `{text}`"))),
    }
}

/// Reads the API's query as `volley dist` reads its flags. Keys other than
/// the request's own (`ruleset`, `scenario`, `exact`, `samples`,
/// `precision`, `seed`, `confidence`, `explain`, `format`) and the rules'
/// (`rules.FIELD`) are scenario keys, checked by the scenario itself.
/// `variants_allowed`: the spec route reads a variant's `b.KEY`s itself;
/// every other route refuses them.
fn parse(pairs: &[(String, String)], limits: &Limits, variants_allowed: bool) -> Result<Parsed, ApiError> {
    let mut seen = std::collections::BTreeSet::new();
    let mut request = DistRequest {
        metrics: Vec::new(),
        ruleset: String::new(),
        scenario: String::new(),
        set: Vec::new(),
        rules: None,
        rule_overrides: Vec::new(),
        exact: None,
        samples: dist::DEFAULT_SAMPLES,
        precision: None,
        seed: 1,
        threads: 0,
        confidence: 0.95,
        format: Format::Json,
        quiet: true,
        explain: false,
        from_api: true,
    };
    let mut format = Format::Json;
    let mut samples_given = false;
    // `exact=auto`: exact where quick, with samples or a precision for
    // where it samples.
    let mut auto = false;
    let mut canonical = Vec::new();
    for (key, value) in pairs {
        let key = key.as_str();
        // A variant's own keys (`b.KEY`) are read by the spec route alone:
        // /api/dist answers one side, and a key it would ignore is refused.
        if key.starts_with("b.") {
            if !variants_allowed {
                return Err(bad(format!(
                    "{}: a variant's key (b.KEY) belongs to /api/spec; /api/dist answers one side, so ask for the \
                     variant with its keys as they are (without `b.`)",
                    cut(key)
                )));
            }
            continue;
        }
        if !seen.insert(key.to_string()) {
            return Err(bad(format!("{key} is given twice; give each key once")));
        }
        let value = value.trim();
        if key != "format" {
            canonical.push(format!("{key}={value}"));
        }
        match key {
            "ruleset" => request.ruleset = value.to_string(),
            "scenario" => request.scenario = value.to_string(),
            "exact" => {
                request.exact = match value {
                    "auto" => {
                        auto = true;
                        None
                    }
                    _ => Some(boolean(key, value).map_err(|_| {
                        bad(format!("exact: expected true, false or auto (exact where quick), got `{}`", cut(value)))
                    })?),
                }
            }
            "explain" => request.explain = boolean(key, value)?,
            "samples" => {
                request.samples = crate::args::parse_samples(value).map_err(|e| bad(format!("samples: {e}")))?;
                samples_given = true;
            }
            "precision" => {
                let p: f64 = value
                    .parse()
                    .map_err(|_| bad(format!("precision: expected a number such as 0.005, got `{value}`")))?;
                request.precision = Some(p);
            }
            "seed" => request.seed = crate::args::parse_seed(value).map_err(|e| bad(format!("seed: {e}")))?,
            "confidence" => {
                request.confidence = value.parse().map_err(|_| {
                    bad(format!("confidence: expected a number between 0 and 1, such as 0.95, got `{value}`"))
                })?;
            }
            "format" => {
                format = match value {
                    "json" => Format::Json,
                    "csv" => Format::Csv,
                    _ => return Err(bad(format!("format: expected json or csv, got `{value}`"))),
                }
            }
            _ => match key.strip_prefix("rules.") {
                Some(field) => request.rule_overrides.push(format!("{field}={value}")),
                None => request.set.push(format!("{key}={value}")),
            },
        }
    }
    if request.ruleset.is_empty() || request.scenario.is_empty() {
        return Err(bad("ruleset and scenario are required, such as ?ruleset=huzzah&scenario=test"));
    }
    if request.exact == Some(true) && (samples_given || request.precision.is_some()) {
        return Err(bad("exact=true solves exactly; give samples or precision only to sample"));
    }
    // Samples or a precision ask for sampling; otherwise the answer is
    // exact wherever that is quick.
    if request.exact.is_none() && !auto && (samples_given || request.precision.is_some()) {
        request.exact = Some(false);
    }
    if samples_given && request.precision.is_some() {
        return Err(bad("give samples or precision, not both"));
    }
    if let Some(p) = request.precision
        && !(p > 0.0 && p < 0.5)
    {
        return Err(bad(format!("precision {p} must be above 0 and below 0.5, such as 0.005")));
    }
    if !(request.confidence > 0.0 && request.confidence < 1.0) {
        return Err(bad(format!("confidence {} must be between 0 and 1, such as 0.95", request.confidence)));
    }
    if request.exact != Some(true) {
        let planned = dist::planned_samples(&request);
        if planned > limits.max_samples {
            return Err(bad(format!(
                "{planned} samples is over this server's limit of {} (--max-samples); ask for fewer samples or a \
                 coarser precision",
                limits.max_samples
            )));
        }
    }
    canonical.sort();
    Ok(Parsed { request, format, key: canonical.join("&") })
}

/// Raises the cancel flag when dropped: a stream the browser leaves, a
/// request whose client is gone.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Computes (or finds in the cache) one request's answer, within the limits.
/// Runs `work` on a blocking thread once a slot is free, within the
/// server's time limit: past it, `cancel` is raised and the answer is 503
/// with `hint`. The slot is held until the work ends, even past the limit:
/// an exact solve cannot be interrupted, and its slot stays taken until it
/// finishes.
async fn within_limits<T: Send + 'static>(
    server: &Arc<Server>,
    cancel: Arc<AtomicBool>,
    hint: &str,
    work: impl FnOnce() -> anyhow::Result<T> + Send + 'static,
) -> Result<T, ApiError> {
    let permit = server.slots.clone().acquire_owned().await.expect("the semaphore is never closed");
    let job = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work()
    });
    match tokio::time::timeout(server.limits.timeout, job).await {
        Err(_) => {
            cancel.store(true, Ordering::Relaxed);
            Err(ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "stopped after {} s, this server's limit per request (--timeout); {hint}",
                    server.limits.timeout.as_secs()
                ),
            ))
        }
        Ok(joined) => {
            joined.map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?.map_err(from_command)
        }
    }
}

/// A computed answer as the format asks: CSV with its type, else JSON.
fn formatted(format: Format, text: String) -> Response {
    match format {
        Format::Csv => {
            let mut response = text.into_response();
            response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8"));
            response
        }
        _ => json_response(text),
    }
}

async fn answer(server: &Arc<Server>, parsed: &Parsed, control: Control) -> Result<Arc<Answer>, ApiError> {
    if let Some(answer) = server.cache.lock().expect("the cache lock").get(&parsed.key) {
        return Ok(answer);
    }
    let request = parsed.request.clone();
    let cancel = control.cancel.clone().unwrap_or_default();
    let control = Control { progress: control.progress, cancel: Some(cancel.clone()) };
    let scenarios = server.scenarios.clone();
    let result =
        within_limits(server, cancel, "ask for fewer samples, a coarser precision or fewer turns", move || {
            dist::compute_with(&request, &control, Some(&scenarios)).map(|result| Answer {
                json: dist::render(&request, &result, Format::Json),
                csv: dist::render(&request, &result, Format::Csv),
            })
        })
        .await?;
    let answer = Arc::new(result);
    server.cache.lock().expect("the cache lock").put(parsed.key.clone(), answer.clone());
    Ok(answer)
}

async fn dist_answer(
    State(server): State<Arc<Server>>,
    query: Result<Query<Pairs>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let parsed = parse(&pairs_of(query)?, &server.limits, false)?;
    // A client that hangs up stops its run at the next chunk.
    let cancel = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(cancel.clone());
    let answer = answer(&server, &parsed, Control { progress: None, cancel: Some(cancel) }).await?;
    let text = if parsed.format == Format::Csv { &answer.csv } else { &answer.json };
    Ok(formatted(parsed.format, text.clone()))
}

/// What makes it even (`volley even`): `vary` names the key (or
/// `rules.FIELD`), with `from`, `to`, `target`, `measure` and `by` as the
/// command line takes them; `exact`, `samples`, `precision`, `seed` and
/// `confidence` as `/api/dist` reads them; every other key is a scenario
/// key (or `rules.FIELD`) held fixed. JSON as `volley even --format json`
/// prints it, or CSV with `format=csv`.
async fn even_answer(
    State(server): State<Arc<Server>>,
    query: Result<Query<Pairs>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let pairs = pairs_of(query)?;
    let mut request = EvenRequest {
        ruleset: String::new(),
        scenario: String::new(),
        vary: String::new(),
        from: None,
        to: None,
        target: None,
        measure: None,
        by: None,
        set: Vec::new(),
        rules: None,
        exact: None,
        samples: None,
        precision: None,
        seed: 1,
        threads: 0,
        confidence: 0.95,
        format: Format::Json,
        quiet: true,
    };
    let mut seen = std::collections::BTreeSet::new();
    let mut auto = false;
    for (key, value) in &pairs {
        let (key, value) = (key.as_str(), value.trim());
        if !seen.insert(key.to_string()) {
            return Err(bad(format!("{} is given twice; give each key once", cut(key))));
        }
        let number = |what: &str| -> Result<f64, ApiError> {
            value.parse::<f64>().map_err(|_| bad(format!("{key}: expected {what}, got `{}`", cut(value))))
        };
        match key {
            "ruleset" => request.ruleset = value.to_string(),
            "scenario" => request.scenario = value.to_string(),
            "vary" => request.vary = value.to_string(),
            "from" => request.from = Some(value.to_string()),
            "to" => request.to = Some(value.to_string()),
            "by" => request.by = Some(value.to_string()),
            "measure" => request.measure = Some(value.to_string()),
            "target" => request.target = Some(number("a number such as 0.5")?),
            "precision" => request.precision = Some(number("a number such as 0.005")?),
            "confidence" => request.confidence = number("a number between 0 and 1, such as 0.95")?,
            "samples" => {
                request.samples = Some(crate::args::parse_samples(value).map_err(|e| bad(format!("samples: {e}")))?)
            }
            "seed" => request.seed = crate::args::parse_seed(value).map_err(|e| bad(format!("seed: {e}")))?,
            "exact" => match value {
                "auto" => auto = true,
                _ => {
                    request.exact = Some(boolean(key, value).map_err(|_| {
                        bad(format!("exact: expected true, false or auto (exact where quick), got `{}`", cut(value)))
                    })?)
                }
            },
            "format" => {
                request.format = match value {
                    "json" => Format::Json,
                    "csv" => Format::Csv,
                    _ => return Err(bad(format!("format: expected json or csv, got `{}`", cut(value)))),
                }
            }
            _ if key.starts_with("b.") => {
                return Err(bad(format!("{}: a variant's key (b.KEY) belongs to /api/spec", cut(key))));
            }
            _ => request.set.push(format!("{key}={value}")),
        }
    }
    if request.ruleset.is_empty() || request.scenario.is_empty() || request.vary.is_empty() {
        return Err(bad(
            "ruleset, scenario and vary are required, such as ?ruleset=hougoumont&scenario=firefight&vary=attacker.figures",
        ));
    }
    if request.exact == Some(true) && (request.samples.is_some() || request.precision.is_some()) {
        return Err(bad("exact=true solves exactly; give samples or precision only to sample"));
    }
    if request.samples.is_some() && request.precision.is_some() {
        return Err(bad("give samples or precision, not both"));
    }
    if request.exact.is_none() && !auto && (request.samples.is_some() || request.precision.is_some()) {
        request.exact = Some(false);
    }
    let per_value = match (request.samples, request.precision) {
        (Some(n), _) => n,
        (None, p) => volley_analysis::stats::samples_for_half_width(
            0.5,
            p.filter(|p| *p > 0.0 && *p < 0.5).unwrap_or(even_command::DEFAULT_PRECISION),
            0.95,
        ),
    };
    if per_value > server.limits.max_samples {
        return Err(bad(format!(
            "{per_value} samples a value is over this server's limit of {} (--max-samples); ask for fewer samples or a \
             coarser precision",
            server.limits.max_samples
        )));
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(cancel.clone());
    let control = Control { progress: None, cancel: Some(cancel.clone()) };
    let format = request.format;
    let text = within_limits(&server, cancel, "search a shorter range, or sample to a coarser precision", move || {
        even_command::compute(&request, &control).map(|result| even_command::render(&result, format))
    })
    .await?;
    Ok(formatted(format, text))
}

/// `progress` events (`{"done": N, "total": N}`) while a sampled run goes,
/// then one `result` event (the JSON of `/api/dist`) or one `error` event
/// (`{"error": "...", "status": 400}`), bad input included.
async fn dist_stream(
    State(server): State<Arc<Server>>,
    query: Result<Query<Pairs>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    // A browser's EventSource cannot read an error status's body, so even
    // bad input answers as an `error` event.
    let parsed = match pairs_of(query).and_then(|pairs| parse(&pairs, &server.limits, false)) {
        Ok(parsed) => parsed,
        Err(ApiError(status, message)) => {
            let event = Event::default()
                .event("error")
                .data(json!({ "error": message, "status": status.as_u16() }).to_string());
            let stream = futures_util::stream::iter([Ok::<_, Infallible>(event)]);
            return Ok(Sse::new(stream).into_response());
        }
    };
    let total = if parsed.request.exact == Some(true) { 0 } else { dist::planned_samples(&parsed.request) };
    let progress = Arc::new(AtomicU64::new(0));
    let cancel = Arc::new(AtomicBool::new(false));
    let (sender, receiver) = tokio::sync::mpsc::channel::<Event>(8);
    let control = Control { progress: Some(progress.clone()), cancel: Some(cancel.clone()) };
    tokio::spawn(async move {
        let job = answer(&server, &parsed, control);
        tokio::pin!(job);
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        loop {
            tokio::select! {
                result = &mut job => {
                    let event = match result {
                        // One line of JSON per event: a pretty document would
                        // be split into several `data:` lines.
                        Ok(answer) => Event::default().event("result").data(compact(&answer.json)),
                        Err(ApiError(status, message)) => Event::default()
                            .event("error")
                            .data(json!({ "error": message, "status": status.as_u16() }).to_string()),
                    };
                    let _ = sender.send(event).await;
                    break;
                }
                _ = tick.tick() => {
                    let done = progress.load(Ordering::Relaxed);
                    let event = Event::default().event("progress").data(json!({ "done": done, "total": total }).to_string());
                    if sender.send(event).await.is_err() {
                        // The browser left: stop the run.
                        break;
                    }
                }
            }
        }
    });
    let guard = CancelOnDrop(cancel);
    let stream = futures_util::stream::unfold((receiver, guard), |(mut receiver, guard)| async move {
        receiver.recv().await.map(|event| (Ok::<_, Infallible>(event), (receiver, guard)))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()).into_response())
}

/// A JSON document on one line.
fn compact(text: &str) -> String {
    serde_json::from_str::<serde_json::Value>(text).map(|v| v.to_string()).unwrap_or_else(|_| text.replace('\n', " "))
}

// ---------------------------------------------------------------------------
// The view as a spec.

/// A TOML value for a scenario key or rule field's text, typed by its param.
fn toml_value(param: Option<&Param>, text: &str) -> toml::Value {
    match param.map(|p| &p.kind) {
        Some(ParamKind::Int { .. }) => {
            text.parse().map(toml::Value::Integer).unwrap_or(toml::Value::String(text.into()))
        }
        Some(ParamKind::Bool) => match text {
            "true" => toml::Value::Boolean(true),
            "false" => toml::Value::Boolean(false),
            _ => toml::Value::String(text.into()),
        },
        _ => toml::Value::String(text.into()),
    }
}

fn inline_table(entries: Vec<(String, toml::Value)>) -> String {
    let items: Vec<String> = entries
        .into_iter()
        .map(|(k, v)| {
            let key = if k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                k
            } else {
                toml::Value::String(k).to_string()
            };
            format!("{key} = {v}")
        })
        .collect();
    format!("{{ {} }}", items.join(", "))
}

/// The view as an analysis spec: one run, or two where the page compares a
/// variant (`b.KEY` overrides of the first run's keys and rules).
fn spec_text(pairs: &[(String, String)], limits: &Limits) -> Result<String, ApiError> {
    let first = parse(pairs, limits, true)?;
    let ruleset = find_ruleset(&first.request.ruleset).map_err(from_command)?;
    let entry = ruleset.scenario(&first.request.scenario).map_err(|e| bad(e.to_string()))?;
    let rules = (ruleset.default_rules)();
    let fields = rules.fields();
    let run_table = |label: &str, request: &DistRequest| -> String {
        let set = request
            .set
            .iter()
            .filter_map(|pair| pair.split_once('='))
            .map(|(k, v)| (k.to_string(), toml_value(entry.params.iter().find(|p| p.name == k), v)))
            .collect();
        let rule_entries: Vec<(String, toml::Value)> = request
            .rule_overrides
            .iter()
            .filter_map(|pair| pair.split_once('='))
            .map(|(k, v)| (k.to_string(), toml_value(fields.iter().find(|p| p.name == k), v)))
            .collect();
        let mut text = format!(
            "[[run]]\nruleset = {}\nscenario = {}\nlabel = {}\nset = {}\n",
            toml::Value::String(ruleset.name.into()),
            toml::Value::String(entry.name.into()),
            toml::Value::String(label.into()),
            inline_table(set)
        );
        if !rule_entries.is_empty() {
            text.push_str(&format!("rules = {}\n", inline_table(rule_entries)));
        }
        text
    };
    let request = &first.request;
    let mut out = format!(
        "# Written by the volley explorer; `volley run` reproduces the view.\ntitle = {}\nquestion = {}\nanalysis = \
         \"distribution\"\ngroup = \"balance\"\n",
        toml::Value::String(format!("{} {}", ruleset.name, entry.name)),
        toml::Value::String(format!("{}: {}", entry.name, entry.summary)),
    );
    if request.exact == Some(true) {
        out.push_str("exact = true\n");
    } else if request.exact.is_none() {
        // The view's own answer: exact where quick, which specs do by default.
    } else if let Some(p) = request.precision {
        out.push_str(&format!("precision = {p}\n"));
    } else {
        out.push_str(&format!("samples = {}\n", request.samples));
    }
    out.push_str(&format!("seed = {}\nconfidence = {}\n\n", request.seed, request.confidence));
    let compare = pairs.iter().any(|(k, _)| k.starts_with("b."));
    out.push_str(&run_table(if compare { "A" } else { entry.name }, request));
    if compare {
        // The variant: the first run's pairs with its own over them.
        let mut merged: Vec<(String, String)> = pairs.iter().filter(|(k, _)| !k.starts_with("b.")).cloned().collect();
        for (k, v) in pairs.iter().filter_map(|(k, v)| k.strip_prefix("b.").map(|k| (k, v))) {
            match merged.iter_mut().find(|(key, _)| key == k) {
                Some(slot) => slot.1 = v.clone(),
                None => merged.push((k.to_string(), v.clone())),
            }
        }
        let variant = parse(&merged, limits, false)?;
        if variant.request.ruleset != request.ruleset || variant.request.scenario != request.scenario {
            return Err(bad(
                "a variant compares the same ruleset and scenario; b.ruleset and b.scenario cannot differ",
            ));
        }
        out.push('\n');
        out.push_str(&run_table("B", &variant.request));
    }
    // What `volley run` would refuse, the explorer refuses now.
    let loaded = spec::parse(out.clone(), "explorer spec".into(), "explorer".into()).map_err(from_command)?;
    run::prepare(&loaded).map_err(from_command)?;
    Ok(out)
}

async fn spec_toml(
    State(server): State<Arc<Server>>,
    query: Result<Query<Pairs>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let text = spec_text(&pairs_of(query)?, &server.limits)?;
    let mut response = text.into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/toml; charset=utf-8"));
    Ok(response)
}

// ---------------------------------------------------------------------------
// Reports.

async fn report_index(State(server): State<Arc<Server>>) -> Response {
    files::report_file(&server.reports, "").await
}

async fn report_file(State(server): State<Arc<Server>>, UrlPath(path): UrlPath<String>) -> Response {
    files::report_file(&server.reports, &path).await
}
