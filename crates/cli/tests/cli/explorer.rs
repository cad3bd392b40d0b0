//! `volley serve` as a user meets it: the real binary on loopback, driven
//! by headless Chromium through ChromeDriver (a shared link renders the right
//! probabilities, and changing a control updates them), and many clients at
//! once (every answer right, latency percentiles printed, the server still
//! answering afterwards).

use super::TempDir;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `volley serve` on a free loopback port, stopped when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_volley"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("volley serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        // "volley explorer at http://127.0.0.1:PORT/ (Ctrl-C stops it)"
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in `{line}`"))
            .to_string();
        Server { child, address }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request on its own connection: the status and the body.
fn http(address: &str, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(address).expect("the server accepts");
    stream.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let body = body.unwrap_or("");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // Read the head, then exactly the body its length names (ChromeDriver
    // keeps the connection open whatever the request says), or a chunked
    // body to its last chunk, or to the end.
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        if line == "\r\n" || line.is_empty() {
            break;
        }
        head.push_str(&line);
    }
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status");
    let lower = head.to_ascii_lowercase();
    let length =
        lower.lines().find_map(|l| l.strip_prefix("content-length:")).and_then(|v| v.trim().parse::<usize>().ok());
    let body = if let Some(length) = length {
        let mut bytes = vec![0; length];
        reader.read_exact(&mut bytes).unwrap();
        String::from_utf8_lossy(&bytes).into_owned()
    } else if lower.contains("transfer-encoding: chunked") {
        let mut body = String::new();
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).unwrap();
            let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if size == 0 {
                break;
            }
            let mut bytes = vec![0; size + 2];
            reader.read_exact(&mut bytes).unwrap();
            body.push_str(&String::from_utf8_lossy(&bytes[..size]));
        }
        body
    } else {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).unwrap();
        String::from_utf8_lossy(&bytes).into_owned()
    };
    (status, body)
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn probability(document: &serde_json::Value, metric: &str, value: &str) -> f64 {
    document["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["metric"] == metric)
        .and_then(|m| m["values"].as_array().unwrap().iter().find(|v| v["value"] == value))
        .map_or(0.0, |v| v["probability"].as_f64().unwrap())
}

/// ChromeDriver on a free port, driving headless Chromium; stopped when dropped.
struct Browser {
    driver: Child,
    address: String,
    session: String,
    _profile: TempDir,
}

impl Browser {
    fn start() -> Browser {
        let chromium = super::printing::chromium();
        let chromedriver =
            super::program("VOLLEY_CHROMEDRIVER", &["chromedriver"], "the browser test needs ChromeDriver");
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let address = format!("127.0.0.1:{port}");
        let started = Instant::now();
        while TcpStream::connect(&address).is_err() {
            assert!(started.elapsed() < Duration::from_secs(30), "chromedriver did not listen on {address}");
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = TempDir::new("explorer-chromium");
        // The flags a closed network needs: no background fetches, no QUIC.
        let capabilities = serde_json::json!({ "capabilities": { "alwaysMatch": { "goog:chromeOptions": {
            "binary": chromium,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", "--window-size=1400,1000",
                     format!("--user-data-dir={}", profile.0.display())],
        }}}});
        let mut browser = Browser { driver, address, session: String::new(), _profile: profile };
        let created = browser.call("POST", "/session", Some(capabilities));
        browser.session = created["value"]["sessionId"].as_str().expect("a WebDriver session").to_string();
        browser
    }

    fn call(&self, method: &str, path: &str, body: Option<serde_json::Value>) -> serde_json::Value {
        let body = body.map(|b| b.to_string());
        let (status, text) = http(&self.address, method, path, body.as_deref());
        assert_eq!(status, 200, "WebDriver {method} {path}: {text}");
        json(&text)
    }

    fn session(&self, method: &str, path: &str, body: Option<serde_json::Value>) -> serde_json::Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    fn script(&self, code: &str) -> serde_json::Value {
        self.session("POST", "/execute/sync", Some(serde_json::json!({ "script": code, "args": [] })))["value"].clone()
    }

    /// Waits until `code` returns something other than null, and returns it.
    fn wait_for(&self, code: &str, what: &str) -> serde_json::Value {
        let started = Instant::now();
        loop {
            let value = self.script(code);
            if !value.is_null() {
                return value;
            }
            if started.elapsed() > Duration::from_secs(60) {
                let error = self.script("return document.getElementById('error').textContent");
                panic!("waited a minute for {what}; the page's error: {error}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = http(&self.address, "DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// The text of the winner table's cell for the attacker once the page has
/// finished running, or null.
const ATTACKER_CELL: &str = "const status = document.getElementById('status').textContent; \
    const cell = document.querySelector('[data-metric=winner] tr[data-value=attacker] td:nth-child(2)'); \
    return status.startsWith('done') && cell ? cell.textContent : null;";

#[test]
fn a_shared_link_renders_the_answer_and_a_control_updates_it() {
    let server = Server::start(&[]);
    let browser = Browser::start();
    // Impetuous cavalry 4 boxes from line infantry that keeps its formation:
    // best play halts out of reach and wins 70.39% (issue 13).
    let link =
        "/?ruleset=one_hour&scenario=cavalry_charge&range=4&attacker.impetuous=true&defender.policy=bold&exact=true";
    browser.session("POST", "/url", Some(serde_json::json!({ "url": server.url(link) })));
    let shown = browser.wait_for(ATTACKER_CELL, "the shared link's result");
    let (_, api) = http(&server.address, "GET", &format!("/api/dist?{}", &link[2..]), None);
    let expected = format!("{:.2}%", 100.0 * probability(&json(&api), "winner", "attacker"));
    assert_eq!(shown, expected);
    assert_eq!(expected, "70.39%");
    // The explanation of the first decision is on the page.
    let explained = browser.script("return document.getElementById('explain').textContent");
    assert!(explained.as_str().unwrap().contains("halt at 3 boxes"), "{explained}");
    if let Some(path) = std::env::var_os("VOLLEY_SCREENSHOT") {
        use base64_free::decode;
        let png = browser.session("GET", "/screenshot", None)["value"].as_str().unwrap().to_string();
        std::fs::write(path, decode(&png)).unwrap();
    }
    // The infantry plays its best instead: it forms square, which cavalry
    // may not charge, and the cavalry cannot win its attack.
    browser.script(
        "const select = document.querySelector('select[data-key=\"defender.policy\"]'); select.value = 'best'; \
         select.dispatchEvent(new Event('change')); document.getElementById('status').textContent = '';",
    );
    let updated = browser.wait_for(ATTACKER_CELL, "the result after changing the defender's policy");
    let (_, api) = http(
        &server.address,
        "GET",
        "/api/dist?ruleset=one_hour&scenario=cavalry_charge&range=4&attacker.impetuous=true&exact=true",
        None,
    );
    assert_eq!(updated, format!("{:.2}%", 100.0 * probability(&json(&api), "winner", "attacker")));
    assert_ne!(updated, shown);
    let url = browser.script("return location.search");
    assert!(!url.as_str().unwrap().contains("defender.policy"), "the URL follows the form: {url}");

    // A comparison draws A and B on one chart and says which is which.
    let compare = "/?ruleset=huzzah&scenario=test&exact=true&compare=true&b.shifts=-1";
    browser.session("POST", "/url", Some(serde_json::json!({ "url": server.url(compare) })));
    let legend = browser.wait_for(
        "const status = document.getElementById('status').textContent; \
         const texts = [...document.querySelectorAll('[data-metric=passed] svg .legend-text')].map((t) => t.textContent); \
         return status.startsWith('done') && texts.length ? texts : null;",
        "the comparison's legend",
    );
    assert_eq!(legend, serde_json::json!(["A (as set)", "B (the variant)"]));

    // Make it even: One Hour's firefight, the attacker's hits from 1 to 11
    // against a Good defender (exact): even between 4 and 5 hits, the
    // same finding /api/even gives.
    browser.session(
        "POST",
        "/url",
        Some(serde_json::json!({ "url": server.url("/?ruleset=one_hour&scenario=firefight&exact=true") })),
    );
    browser
        .wait_for("return document.getElementById('status').textContent.startsWith('done') || null;", "the firefight");
    browser.script(
        "document.getElementById('even-key').value = 'attacker.hits'; document.getElementById('even-from').value = '1'; \
         document.getElementById('even-to').value = '11'; document.getElementById('even-run').click();",
    );
    let finding = browser.wait_for(
        "const f = document.querySelector('#even .even-finding'); return f ? f.textContent : null;",
        "the even finding",
    );
    let (_, api) = http(
        &server.address,
        "GET",
        "/api/even?ruleset=one_hour&scenario=firefight&vary=attacker.hits&from=1&to=11&exact=true",
        None,
    );
    assert_eq!(finding, json(&api)["searches"][0]["finding"]);
    assert!(finding.as_str().unwrap().contains("between 4 (38.4%) and 5 (54.5%)"), "{finding}");
}

/// Base64 decoding for the screenshot, without a dependency.
mod base64_free {
    pub fn decode(text: &str) -> Vec<u8> {
        let value = |c: u8| match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            _ => 63,
        };
        let clean: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=').collect();
        let mut out = Vec::with_capacity(clean.len() * 3 / 4);
        for chunk in clean.chunks(4) {
            let bits = chunk.iter().enumerate().fold(0u32, |acc, (i, &c)| acc | (u32::from(value(c)) << (18 - 6 * i)));
            out.extend_from_slice(&bits.to_be_bytes()[1..chunk.len()]);
        }
        out
    }
}

#[test]
fn many_clients_at_once_all_get_right_answers() {
    let server = Server::start(&["--concurrent", "2"]);
    let clients = 16;
    let per_client = 12;
    let started = Instant::now();
    let latencies: Vec<Duration> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..clients)
            .map(|client| {
                let address = server.address.clone();
                scope.spawn(move || {
                    let mut latencies = Vec::new();
                    for i in 0..per_client {
                        let t = Instant::now();
                        if (client + i) % 3 == 0 {
                            // Sampled, each with its own seed: a fresh computation.
                            let seed = client * 100 + i;
                            let (status, body) = http(
                                &address,
                                "GET",
                                &format!("/api/dist?ruleset=huzzah&scenario=engagement&samples=200000&seed={seed}"),
                                None,
                            );
                            assert_eq!(status, 200, "{body}");
                            let document = json(&body);
                            assert_eq!(document["samples"], 200000);
                            assert_eq!(document["seed"], seed);
                        } else {
                            // Exact: a Trained unit at full strength passes 2D6 at 8 or
                            // less (26 of 36); each Down takes a point off the rating.
                            let shifts = -((client + i) as i64 % 4);
                            let (status, body) = http(
                                &address,
                                "GET",
                                &format!("/api/dist?ruleset=huzzah&scenario=test&shifts={shifts}&exact=true"),
                                None,
                            );
                            assert_eq!(status, 200, "{body}");
                            let ways = [26.0, 21.0, 15.0, 10.0][(-shifts) as usize];
                            let passed = probability(&json(&body), "passed", "true");
                            assert!((passed - ways / 36.0).abs() < 1e-9, "shifts {shifts}: {passed}");
                        }
                        latencies.push(t.elapsed());
                    }
                    latencies
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let wall = started.elapsed();
    let mut sorted = latencies.clone();
    sorted.sort();
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    println!(
        "explorer load: {} requests from {clients} clients in {:.2} s; latency p50 {:?}, p90 {:?}, p99 {:?}, max {:?}",
        sorted.len(),
        wall.as_secs_f64(),
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
    assert_eq!(sorted.len(), clients * per_client);
    // Still answering afterwards.
    let (status, body) = http(&server.address, "GET", "/api/catalogue", None);
    assert_eq!(status, 200);
    assert!(body.contains("\"huzzah\""));
}
