//! The explorer's API, in process: every route, bad input, path traversal,
//! and the spec it writes read back by `volley run`'s own parser.

use super::api::{Limits, router};
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use std::path::PathBuf;
use std::time::Duration;
use tower::ServiceExt;

const LIMITS: Limits = Limits { max_samples: 5_000_000, timeout: Duration::from_secs(60), concurrent: 2 };

/// A reports folder with one report, and a secret beside it that no request
/// may reach; written once per test process, since the tests run in parallel
/// and a file rewritten while another test reads it reads empty.
fn reports() -> PathBuf {
    static REPORTS: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    REPORTS
        .get_or_init(|| {
            let base = std::env::temp_dir().join(format!("volley-serve-test-{}", std::process::id()));
            let reports = base.join("reports");
            std::fs::create_dir_all(reports.join("quality-gap")).unwrap();
            std::fs::create_dir_all(reports.join(".tmp-half-written")).unwrap();
            std::fs::write(reports.join("index.html"), "<h1>index</h1>").unwrap();
            std::fs::write(reports.join("quality-gap/report.html"), "<h1>gap</h1>").unwrap();
            std::fs::write(reports.join("quality-gap/notes.exe"), "no").unwrap();
            std::fs::write(reports.join(".tmp-half-written/report.html"), "half").unwrap();
            std::fs::write(base.join("secret.txt"), "secret").unwrap();
            reports
        })
        .clone()
}

/// GETs `uri` and returns the status, the content type and the body.
async fn get(uri: &str) -> (StatusCode, String, String) {
    let app = router(reports(), LIMITS);
    let response = app.oneshot(Request::get(uri).body(Body::empty()).unwrap()).await.unwrap();
    let status = response.status();
    let kind = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
    let body = to_bytes(response.into_body(), 64 << 20).await.unwrap();
    (status, kind, String::from_utf8_lossy(&body).into_owned())
}

fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"))
}

fn probability(document: &serde_json::Value, metric: &str, value: &str) -> f64 {
    document["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["metric"] == metric)
        .and_then(|m| m["values"].as_array().unwrap().iter().find(|v| v["value"] == value))
        .map(|v| v["probability"].as_f64().unwrap())
        .unwrap_or_else(|| panic!("no {metric}={value} in {document}"))
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let (status, kind, body) = get("/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/html"), "{kind}");
    assert!(body.contains("<script src=\"/app.js\">"));
    let (status, kind, body) = get("/app.js").await;
    assert_eq!((status, kind.starts_with("text/javascript")), (StatusCode::OK, true));
    assert!(body.contains("/api/dist/stream"));
    assert_eq!(get("/style.css").await.0, StatusCode::OK);
}

#[tokio::test]
async fn the_catalogue_lists_every_ruleset_scenario_key_and_decision() {
    let (status, _, body) = get("/api/catalogue").await;
    assert_eq!(status, StatusCode::OK);
    let catalogue = json(&body);
    let names: Vec<&str> =
        catalogue["rulesets"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    for ruleset in ["huzzah", "brigades", "one_hour", "hougoumont"] {
        assert!(names.contains(&ruleset), "{names:?}");
    }
    let one_hour = catalogue["rulesets"].as_array().unwrap().iter().find(|r| r["name"] == "one_hour").unwrap();
    let charge = one_hour["scenarios"].as_array().unwrap().iter().find(|s| s["name"] == "cavalry_charge").unwrap();
    assert!(charge["decisions"].as_array().unwrap().len() >= 2, "{charge}");
    assert_eq!(charge["exact_at_defaults"], true);
    let policy = charge["params"].as_array().unwrap().iter().find(|p| p["name"] == "attacker.policy").unwrap();
    assert_eq!(policy["default"], "best");
    assert_eq!(policy["kind"]["choices"], serde_json::json!(["best", "bold", "cautious"]));
}

#[tokio::test]
async fn rules_list_fields_with_their_printed_defaults() {
    let (status, _, body) = get("/api/rules/huzzah").await;
    assert_eq!(status, StatusCode::OK);
    let rules = json(&body);
    assert!(rules["fields"].as_array().unwrap().len() > 20);
    let (status, _, body) = get("/api/rules/warhammer").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(json(&body)["error"].as_str().unwrap().contains("huzzah"), "{body}");
}

#[tokio::test]
async fn an_exact_answer_is_the_one_the_command_line_gives() {
    // Huzzah!: a Trained unit at full strength rates 8, and passes on 2D6 of
    // 8 or less: 1 + 2 + 3 + 4 + 5 + 6 + 5 = 26 of 36.
    let (status, _, body) = get("/api/dist?ruleset=huzzah&scenario=test&exact=true").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let document = json(&body);
    assert_eq!(document["source"], "exact");
    assert!((probability(&document, "passed", "true") - 26.0 / 36.0).abs() < 1e-9, "{body}");
    // The same through the shared code path as `volley dist --format json`.
    let cli = crate::commands::dist::DistRequest {
        metrics: Vec::new(),
        ruleset: "huzzah".into(),
        scenario: "test".into(),
        set: vec![],
        rules: None,
        rule_overrides: vec![],
        exact: Some(true),
        samples: 1_000_000,
        precision: None,
        seed: 1,
        threads: 0,
        confidence: 0.95,
        format: crate::args::Format::Json,
        quiet: true,
        explain: false,
        from_api: false,
    };
    let result = crate::commands::dist::compute(&cli, &Default::default()).unwrap();
    assert_eq!(crate::commands::dist::render(&cli, &result, crate::args::Format::Json), body);
}

#[tokio::test]
async fn keys_rules_and_policies_reach_the_scenario() {
    let base = "/api/dist?ruleset=one_hour&scenario=cavalry_charge&exact=true&range=4&attacker.impetuous=true";
    let (_, _, bold) = get(&format!("{base}&defender.policy=bold")).await;
    // Impetuous cavalry 4 boxes from line infantry that keeps its formation:
    // halting out of reach and charging next turn wins 70.4% (issue 13).
    assert!((probability(&json(&bold), "winner", "attacker") - 0.703887888397).abs() < 1e-9, "{bold}");
    let (status, _, changed) = get(&format!("{base}&defender.policy=bold&rules.charge_scores=four_up")).await;
    assert_eq!(status, StatusCode::OK, "{changed}");
    let changed = json(&changed);
    assert!(probability(&changed, "winner", "attacker") < 0.70);
    assert_eq!(changed["provenance"]["rules_changed"][0]["field"], "charge_scores");
    let (_, _, explained) = get(&format!("{base}&defender.policy=bold&explain=true")).await;
    assert!(json(&explained)["explain"].as_array().is_some_and(|e| !e.is_empty()), "{explained}");
}

#[tokio::test]
async fn sampling_follows_samples_precision_and_seed() {
    let (status, _, body) = get("/api/dist?ruleset=huzzah&scenario=test&samples=20000&seed=7").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let document = json(&body);
    assert_eq!(
        (document["source"].as_str(), document["samples"].as_u64(), document["seed"].as_u64()),
        (Some("monte_carlo"), Some(20000), Some(7))
    );
    let (_, _, again) = get("/api/dist?ruleset=huzzah&scenario=test&samples=20000&seed=7").await;
    assert_eq!(body, again, "the same seed gives the same answer");
    let (_, _, precise) = get("/api/dist?ruleset=huzzah&scenario=test&precision=0.01").await;
    let precise = json(&precise);
    // Wilson at p = 1/2 needs 9,599 samples for a 95% half-width of 0.01.
    assert!((9_598..=9_602).contains(&precise["samples"].as_u64().unwrap()), "{precise}");
    for value in precise["metrics"][0]["values"].as_array().unwrap() {
        let (low, high) = (value["ci_low"].as_f64().unwrap(), value["ci_high"].as_f64().unwrap());
        assert!((high - low) / 2.0 <= 0.01 + 1e-12, "{value}");
    }
    let (status, kind, csv) = get("/api/dist?ruleset=huzzah&scenario=test&exact=true&format=csv").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/csv"));
    assert!(csv.contains("metric,value,probability,ci_low,ci_high,count\n"), "{csv}");
}

#[tokio::test]
async fn bad_input_answers_400_naming_the_key_and_what_is_accepted() {
    let long = format!("/api/dist?ruleset=huzzah&scenario=test&quality={}", "x".repeat(7000));
    let cases: [(&str, &str); 12] = [
        ("/api/dist?scenario=test", "ruleset and scenario are required"),
        // A variant's key where only the spec route reads it.
        ("/api/dist?ruleset=huzzah&scenario=test&b.quality=raw", "b.quality: a variant's key (b.KEY) belongs"),
        // A pasted value is cut, not echoed whole.
        (&long, " characters)"),
        ("/api/dist?ruleset=huzzah&scenario=nope", "nope"),
        ("/api/dist?ruleset=huzzah&scenario=test&quality=superb", "quality"),
        ("/api/dist?ruleset=huzzah&scenario=test&qualty=trained", "qualty"),
        ("/api/dist?ruleset=huzzah&scenario=test&exact=yes", "exact: expected true, false or auto"),
        ("/api/dist?ruleset=huzzah&scenario=test&samples=0", "samples"),
        ("/api/dist?ruleset=huzzah&scenario=test&samples=10&precision=0.01", "not both"),
        ("/api/dist?ruleset=huzzah&scenario=test&samples=999999999", "--max-samples"),
        ("/api/dist?ruleset=huzzah&scenario=test&rules.no_such_rule=3", "rules.no_such_rule"),
        ("/api/dist?ruleset=huzzah&scenario=test&seed=1&seed=2", "given twice"),
    ];
    for (uri, expected) in cases {
        let (status, kind, body) = get(uri).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
        assert!(kind.starts_with("application/json"), "{uri}: {kind}");
        let error = json(&body)["error"].as_str().unwrap().to_string();
        assert!(error.contains(expected), "{uri}: `{error}` does not name `{expected}`");
        assert!(error.len() < 1000, "{uri}: a message of {} bytes", error.len());
    }
    // A scenario without an exact solver here says so, as the CLI does.
    let (status, _, body) = get("/api/dist?ruleset=huzzah&scenario=brigade_assault&exact=true").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("no exact solver"), "{body}");
    let (status, _, body) = get("/api/nothing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(json(&body)["error"].as_str().unwrap().contains("/api/catalogue"));
}

#[tokio::test]
async fn the_stream_reports_progress_then_the_result() {
    let (status, kind, body) = get("/api/dist/stream?ruleset=huzzah&scenario=test&samples=300000&seed=3").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/event-stream"), "{kind}");
    // An event's data is one line of JSON.
    let result = body.split("event: result\ndata: ").nth(1).expect("a result event").lines().next().unwrap();
    let (_, _, plain) = get("/api/dist?ruleset=huzzah&scenario=test&samples=300000&seed=3").await;
    assert_eq!(json(result), json(&plain));
    // Bad input, in the query or in a key, comes as an error event the page can show.
    for (uri, expected) in [
        ("/api/dist/stream?ruleset=huzzah&scenario=test&quality=superb", "quality"),
        ("/api/dist/stream?ruleset=huzzah&scenario=test&samples=0", "samples"),
    ] {
        let (status, _, body) = get(uri).await;
        assert_eq!(status, StatusCode::OK);
        let error = body.split("event: error\ndata: ").nth(1).expect("an error event").lines().next().unwrap();
        let error = json(error);
        assert_eq!(error["status"], 400);
        assert!(error["error"].as_str().unwrap().contains(expected), "{error}");
    }
}

#[tokio::test]
async fn the_spec_reproduces_the_view_with_its_variant() {
    let uri = "/api/spec?ruleset=one_hour&scenario=cavalry_charge&range=4&exact=true&rules.charge_scores=four_up\
               &b.range=3&b.defender.policy=bold";
    let (status, _, text) = get(uri).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    for needed in [
        "analysis = \"distribution\"",
        "exact = true",
        "range = 4",
        "range = 3",
        "charge_scores = \"four_up\"",
        "\"defender.policy\" = \"bold\"",
        "label = \"B\"",
    ] {
        assert!(text.contains(needed), "`{needed}` missing from\n{text}");
    }
    // `volley run` reads it back.
    let loaded = crate::spec::parse(text, "spec".into(), "explorer".into()).unwrap();
    assert_eq!(loaded.spec.runs.len(), 2);
    let (status, _, body) = get("/api/spec?ruleset=one_hour&scenario=cavalry_charge&b.range=99").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

#[tokio::test]
async fn reports_are_served_and_nothing_outside_them() {
    let (status, _, body) = get("/reports/").await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "<h1>index</h1>"));
    let (status, kind, body) = get("/reports/quality-gap/report.html").await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "<h1>gap</h1>"));
    assert!(kind.starts_with("text/html"));
    for uri in [
        "/reports/../secret.txt",
        "/reports/%2e%2e/secret.txt",
        "/reports/quality-gap/%2e%2e/%2e%2e/secret.txt",
        "/reports/..%2fsecret.txt",
        "/reports/%2fetc%2fpasswd",
        "/reports/quality-gap/..\\..\\secret.txt",
        "/reports/.tmp-half-written/report.html",
        "/reports/quality-gap/notes.exe",
        "/reports/missing.html",
        "/../secret.txt",
    ] {
        let (status, _, body) = get(uri).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri} answered {body}");
        assert!(!body.contains("secret"), "{uri}");
    }
}

#[tokio::test]
async fn even_finds_the_value_that_makes_it_even_and_refuses_bad_queries() {
    // One d100 with t or more: a half at t = 51 exactly.
    let (status, kind, body) =
        get("/api/even?ruleset=dice&scenario=at_least&vary=target&from=1&to=100&measure=successes%3D1&dice=1d100")
            .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(kind, "application/json");
    let document = json(&body);
    assert_eq!(document["searches"][0]["crossings"][0]["at"], "51", "{body}");
    // The same answer as the command line's JSON, the same code.
    let (_, kind, csv) =
        get("/api/even?ruleset=dice&scenario=at_least&vary=target&from=60&to=70&measure=successes%3D1&dice=1d100&target=0.335&format=csv").await;
    assert!(kind.starts_with("text/csv"), "{kind}");
    assert!(csv.contains(",67,0.34,0.34,0.34,above,true,0\n"), "{csv}");
    for (query, expected) in [
        ("ruleset=dice&scenario=at_least", "ruleset, scenario and vary are required"),
        ("ruleset=dice&scenario=at_least&vary=nosuch", "--vary: scenario `at_least` of `dice` has no key `nosuch`"),
        ("ruleset=dice&scenario=at_least&vary=target&target=x", "target: expected a number"),
        ("ruleset=dice&scenario=at_least&vary=target&vary=target", "vary is given twice"),
        ("ruleset=dice&scenario=at_least&vary=target&b.dice=2d6", "belongs to /api/spec"),
        ("ruleset=dice&scenario=at_least&vary=target&samples=99000000", "over this server's limit"),
    ] {
        let (status, _, body) = get(&format!("/api/even?{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        assert!(json(&body)["error"].as_str().unwrap().contains(expected), "{query}: {body}");
    }
}
