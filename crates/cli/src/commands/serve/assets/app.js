// The volley explorer: a form built from /api/catalogue, results from
// /api/dist (exact) or /api/dist/stream (sampled, with progress), and the
// whole state of the page in its URL, so that a link reproduces the view.
"use strict";

const $ = (id) => document.getElementById(id);
const METHOD_KEYS = ["exact", "samples", "precision", "seed"];
const page = { catalogue: null, rules: {}, streams: [], runId: 0, timer: null };

// ---------------------------------------------------------------------------
// The state: read from and written to the URL.

function stateFromUrl() {
  const params = new URLSearchParams(location.search);
  const state = { ruleset: params.get("ruleset"), scenario: params.get("scenario"), keys: {}, rules: {},
                  variant: { keys: {}, rules: {} }, compare: params.get("compare") === "true",
                  method: "auto", precision: "0.005", samples: "1000000", seed: params.get("seed") || "1" };
  if (params.get("exact") === "true") state.method = "exact";
  else if (params.has("precision")) { state.method = "precision"; state.precision = params.get("precision"); }
  else if (params.has("samples")) { state.method = "samples"; state.samples = params.get("samples"); }
  for (const [key, value] of params) {
    if (["ruleset", "scenario", "compare", ...METHOD_KEYS].includes(key)) continue;
    const variant = key.startsWith("b.");
    const name = variant ? key.slice(2) : key;
    const target = variant ? state.variant : state;
    if (variant) state.compare = true;
    if (name.startsWith("rules.")) target.rules[name.slice(6)] = value; else target.keys[name] = value;
  }
  return state;
}

function scenarioEntry(state) {
  const ruleset = page.catalogue.rulesets.find((r) => r.name === state.ruleset);
  return ruleset && ruleset.scenarios.find((s) => s.name === state.scenario);
}

// The state as a query: the A side's keys and rules that differ from the
// defaults, the method, and the variant's own keys as `b.KEY`.
function stateQuery(state, forApi, side) {
  const q = new URLSearchParams();
  q.set("ruleset", state.ruleset);
  q.set("scenario", state.scenario);
  const keys = Object.assign({}, state.keys, side === "b" ? state.variant.keys : {});
  const rules = Object.assign({}, state.rules, side === "b" ? state.variant.rules : {});
  for (const [k, v] of Object.entries(keys)) q.set(k, v);
  for (const [k, v] of Object.entries(rules)) q.set("rules." + k, v);
  if (!forApi) {
    for (const [k, v] of Object.entries(state.variant.keys)) q.set("b." + k, v);
    for (const [k, v] of Object.entries(state.variant.rules)) q.set("b.rules." + k, v);
    if (state.compare) q.set("compare", "true");
  }
  const method = state.method;
  if (method === "auto") {
    // The server answers exactly wherever that is quick at these very
    // settings, and samples to the precision elsewhere.
    if (forApi) { q.set("exact", "auto"); q.set("precision", state.precision); q.set("seed", state.seed); }
  } else if (method === "exact") q.set("exact", "true");
  else if (method === "precision") { q.set("precision", state.precision); q.set("seed", state.seed); }
  else { q.set("samples", state.samples); q.set("seed", state.seed); }
  return q;
}


// ---------------------------------------------------------------------------
// The form.

function option(select, value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text || value;
  select.appendChild(o);
}

function input(param, value, onChange) {
  let element;
  if (param.kind.type === "choice" || param.kind.type === "bool") {
    element = document.createElement("select");
    for (const choice of param.kind.type === "bool" ? ["false", "true"] : param.kind.choices) option(element, choice);
  } else {
    element = document.createElement("input");
    if (param.kind.type === "int") {
      element.type = "number";
      element.min = param.kind.min;
      element.max = param.kind.max;
      element.step = 1;
    }
  }
  element.value = value;
  element.title = param.doc + " (" + param.accepts + ")";
  element.addEventListener("change", () => onChange(element.value));
  return element;
}

function paramRow(param, values, variantValues, comparing, onChange) {
  const row = document.createElement("div");
  row.className = "key";
  const label = document.createElement("label");
  label.textContent = param.name;
  row.appendChild(label);
  const a = input(param, values[param.name] ?? param.default, (v) => onChange("a", v));
  a.dataset.key = param.name;
  if ((values[param.name] ?? param.default) !== param.default) a.classList.add("changed");
  row.appendChild(a);
  if (comparing) {
    const current = variantValues[param.name] ?? values[param.name] ?? param.default;
    const b = input(param, current, (v) => onChange("b", v));
    b.dataset.key = "b." + param.name;
    if (variantValues[param.name] !== undefined) b.classList.add("changed");
    row.appendChild(b);
  }
  const doc = document.createElement("div");
  doc.className = "doc";
  doc.textContent = param.doc + "; " + param.accepts;
  row.appendChild(doc);
  return row;
}

function setValue(state, side, bag, name, value, fallback) {
  const target = side === "b" ? state.variant[bag] : state[bag];
  const base = side === "b" ? (state[bag][name] ?? fallback) : fallback;
  if (value === base) delete target[name]; else target[name] = value;
}

async function renderForm(state) {
  const entry = scenarioEntry(state);
  $("summary").textContent = entry.summary;
  $("controls").classList.toggle("comparing", state.compare);
  for (const head of document.querySelectorAll(".variant-head")) head.hidden = !state.compare;
  $("compare").textContent = state.compare ? "Remove the variant" : "Compare with a variant";
  const keys = $("keys");
  keys.innerHTML = "";
  const play = entry.params.filter((p) => /\.(policy|objective)$/.test(p.name));
  const rest = entry.params.filter((p) => !play.includes(p));
  const groups = [["Scenario", rest], ["Play (each side's policy)", play]];
  for (const [title, params] of groups) {
    if (!params.length) continue;
    const heading = document.createElement("div");
    heading.className = "group";
    heading.textContent = title;
    keys.appendChild(heading);
    for (const p of params) {
      keys.appendChild(paramRow(p, state.keys, state.variant.keys, state.compare, (side, v) => {
        setValue(state, side, "keys", p.name, v, p.default);
        changed(state);
      }));
    }
  }
  if (!page.rules[state.ruleset]) {
    const response = await fetch("/api/rules/" + encodeURIComponent(state.ruleset));
    page.rules[state.ruleset] = await response.json();
  }
  const rules = $("rules");
  rules.innerHTML = "";
  for (const f of page.rules[state.ruleset].fields) {
    rules.appendChild(paramRow(f, state.rules, state.variant.rules, state.compare, (side, v) => {
      setValue(state, side, "rules", f.name, v, f.default);
      changed(state);
    }));
  }
  const count = Object.keys(state.rules).length + Object.keys(state.variant.rules).length;
  $("rules-changed").textContent = count ? "(" + count + " changed)" : "";
  if (count) $("rules-panel").open = true;
  fillEvenKeys(entry);
  for (const radio of document.querySelectorAll("input[name=method]")) radio.checked = radio.value === state.method;
  $("precision").value = state.precision;
  $("samples").value = state.samples;
  $("seed").value = state.seed;
}

// A control changed: the URL follows, the form is redrawn, the results rerun.
function changed(state) {
  const query = stateQuery(state, false);
  history.replaceState(null, "", "/?" + query.toString());
  renderForm(state).then(() => schedule(state));
}

function schedule(state) {
  clearTimeout(page.timer);
  page.timer = setTimeout(() => runAll(state), 250);
}

// ---------------------------------------------------------------------------
// Running.

function stopStreams() {
  for (const s of page.streams) s.close();
  page.streams = [];
}

function fetchSide(state, side, entry, runId) {
  const query = stateQuery(state, true, side);
  const explain = entry.decisions.length > 0;
  if (explain) query.set("explain", "true");
  const exact = query.get("exact") === "true";
  return new Promise((resolve, reject) => {
    const retry = (error) => {
      // Best play beyond the solver has nothing to explain: ask again without.
      if (explain && /nothing to explain/.test(error.error)) {
        query.delete("explain");
        return exact ? plainFetch(query).then(resolve, reject) : stream(query);
      }
      reject(error);
    };
    const stream = (q) => {
      const source = new EventSource("/api/dist/stream?" + q.toString());
      page.streams.push(source);
      source.addEventListener("progress", (e) => {
        if (runId !== page.runId) return;
        const p = JSON.parse(e.data);
        $("progress").hidden = false;
        $("progress").value = p.total ? p.done / p.total : 0;
        $("status").textContent = "sampling: " + p.done.toLocaleString() + " of " + p.total.toLocaleString() + " samples";
      });
      source.addEventListener("result", (e) => { source.close(); resolve(JSON.parse(e.data)); });
      source.addEventListener("error", (e) => {
        source.close();
        if (e.data) retry(JSON.parse(e.data)); else reject({ error: "the connection to the server was lost" });
      });
    };
    if (exact) plainFetch(query).then(resolve, retry); else stream(query);
  });
}

async function plainFetch(query) {
  const response = await fetch("/api/dist?" + query.toString());
  const body = await response.json();
  if (!response.ok) throw body;
  return body;
}

async function runAll(state) {
  stopStreams();
  const runId = ++page.runId;
  const entry = scenarioEntry(state);
  $("error").hidden = true;
  $("stop").disabled = false;
  $("status").textContent = state.method === "exact" ? "solving exactly..." : state.method === "auto" ? "working..." : "sampling...";
  setDownloads(state);
  const started = performance.now();
  try {
    const sides = state.compare ? ["a", "b"] : ["a"];
    const results = await Promise.all(sides.map((side) => fetchSide(state, side, entry, runId)));
    if (runId !== page.runId) return;
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    $("status").textContent = "done in " + seconds + " s";
    showResults(results, entry);
  } catch (error) {
    if (runId !== page.runId) return;
    $("status").textContent = "";
    $("error").hidden = false;
    $("error").textContent = error.error || String(error);
    $("metrics").innerHTML = "";
    $("explain").innerHTML = "";
  } finally {
    if (runId === page.runId) {
      $("progress").hidden = true;
      $("stop").disabled = true;
    }
  }
}

function setDownloads(state) {
  const a = stateQuery(state, true, "a");
  const csv = new URLSearchParams(a);
  csv.set("format", "csv");
  $("download-csv").href = "/api/dist?" + csv.toString();
  $("download-csv").download = state.ruleset + "-" + state.scenario + ".csv";
  $("download-json").href = "/api/dist?" + a.toString();
  $("download-json").download = state.ruleset + "-" + state.scenario + ".json";
  $("download-spec").href = "/api/spec?" + stateQuery(state, false).toString();
  $("download-spec").download = state.ruleset + "-" + state.scenario + ".toml";
}

// ---------------------------------------------------------------------------
// Results.

// Percentages to two decimals; what rounds to nothing says how small it is.
const fmt = (p) => (p > 0 && p < 0.00005 ? "<0.005%" : (100 * p).toFixed(2) + "%");

// Whether B differs from A beyond chance: exact against exact differs
// wherever the values do; a sampled value against an exact one where the
// exact value is outside the sampled interval; two sampled values by a
// two-proportion z test at the intervals' confidence.
function significance(a, b, confidence) {
  if (!a || !b) return { text: "", significant: false };
  const diff = b.probability - a.probability;
  if (a.count === null && b.count === null) return { text: "exact", significant: Math.abs(diff) > 1e-12 };
  if (a.count === null || b.count === null) {
    const [exact, sampled] = a.count === null ? [a, b] : [b, a];
    const outside = exact.probability < sampled.ci_low || exact.probability > sampled.ci_high;
    return { text: outside ? "yes" : "no", significant: outside };
  }
  const n1 = page.samples[0], n2 = page.samples[1];
  const pooled = (a.count + b.count) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  const z = se > 0 ? Math.abs(diff) / se : 0;
  const critical = { 0.9: 1.645, 0.95: 1.96, 0.99: 2.576 }[confidence] || 1.96;
  return { text: z > critical ? "yes" : "no", significant: z > critical };
}

function showResults(results, entry) {
  page.samples = results.map((r) => r.samples || 0);
  const method = results.map((r, i) => (results.length > 1 ? (i ? "B: " : "A: ") : "") +
    r.provenance.computed + (r.policies ? "; policies: attacker " + r.policies.attacker + ", defender " + r.policies.defender : ""));
  $("method").textContent = method.join("\n");
  showExplain(results);
  const metrics = $("metrics");
  metrics.innerHTML = "";
  for (const metric of results[0].metrics) {
    const others = results.slice(1).map((r) => r.metrics.find((m) => m.metric === metric.metric));
    metrics.appendChild(metricBlock(metric, others[0], results[0].confidence));
  }
}

function metricBlock(metric, other, confidence) {
  const block = document.createElement("div");
  block.className = "metric";
  block.dataset.metric = metric.metric;
  const title = document.createElement("h3");
  title.textContent = metric.metric;
  const doc = document.createElement("span");
  doc.className = "doc";
  doc.textContent = " " + metric.doc;
  title.appendChild(doc);
  block.appendChild(title);
  const values = [...new Set([...metric.values.map((v) => v.value), ...(other ? other.values.map((v) => v.value) : [])])];
  const numeric = values.every((v) => /^-?\d+$/.test(v));
  if (numeric) values.sort((x, y) => Number(x) - Number(y));
  const find = (m, value) => m && m.values.find((v) => v.value === value);
  block.appendChild(chart(values, [metric, other].filter(Boolean), find));
  const table = document.createElement("table");
  const head = other
    ? ["value", "A", "A interval", "B", "B interval", "B - A", "significant"]
    : ["value", "probability", Math.round(confidence * 100) + "% interval", "count"];
  table.innerHTML = "<tr>" + head.map((h) => "<th>" + h + "</th>").join("") + "</tr>";
  const interval = (v) => (v && v.count !== null ? "[" + fmt(v.ci_low) + ", " + fmt(v.ci_high) + "]" : v ? "exact" : "");
  for (const value of values) {
    const a = find(metric, value), b = find(other, value);
    const row = document.createElement("tr");
    row.dataset.value = value;
    const cells = [value, a ? fmt(a.probability) : "0%", interval(a)];
    if (other) {
      const sig = significance(a || zero(b), b || zero(a), confidence);
      cells.push(b ? fmt(b.probability) : "0%", interval(b),
        ((b ? b.probability : 0) - (a ? a.probability : 0) >= 0 ? "+" : "") + (100 * ((b ? b.probability : 0) - (a ? a.probability : 0))).toFixed(2) + " pts",
        sig.text);
      row.innerHTML = cells.map((c, i) => "<td" + (i === 6 && sig.significant ? ' class="significant"' : "") + ">" + c + "</td>").join("");
    } else {
      cells.push(a && a.count !== null ? a.count.toLocaleString() : "");
      row.innerHTML = cells.map((c) => "<td>" + c + "</td>").join("");
    }
    table.appendChild(row);
  }
  block.appendChild(table);
  const means = [metric, other].filter((m) => m && m.mean !== null && m.mean !== undefined).map((m, i) => (other ? (i ? "B " : "A ") : "") + "mean " + m.mean.toFixed(3));
  if (means.length) {
    const p = document.createElement("p");
    p.textContent = means.join(", ");
    block.appendChild(p);
  }
  return block;
}

function zero(like) {
  return like ? { probability: 0, ci_low: 0, ci_high: 0, count: like.count === null ? null : 0 } : null;
}

// Bars with interval whiskers, A in blue and B in orange, as the reports draw them.
function chart(values, series, find) {
  const ns = "http://www.w3.org/2000/svg";
  const width = Math.max(260, Math.min(900, 60 + values.length * (series.length * 18 + 10)));
  // Two sides get a legend under the value labels: A as set, B the variant.
  const legend = series.length > 1;
  const height = legend ? 204 : 180, left = 44, bottom = legend ? 58 : 34, top = 10;
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("role", "img");
  const top_value = Math.max(0.01, ...series.flatMap((m) => m.values.map((v) => Math.max(v.probability, v.ci_high))));
  // Gridlines at round percentages: a step of 1, 2 or 5 times a power of ten.
  const rough = top_value / 4, power = Math.pow(10, Math.floor(Math.log10(rough)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough);
  const ticks = Math.ceil(top_value / step - 1e-9);
  const max = step * ticks;
  const y = (p) => top + (height - top - bottom) * (1 - p / max);
  const el = (name, attrs, text) => {
    const e = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.appendChild(e);
    return e;
  };
  for (let i = 0; i <= ticks; i++) {
    const p = step * i;
    el("line", { x1: left, x2: width, y1: y(p), y2: y(p), stroke: "#eee" });
    el("text", { x: left - 4, y: y(p) + 4, "text-anchor": "end" }, +(100 * p).toFixed(4) + "%");
  }
  const slot = (width - left - 10) / values.length;
  const bar = Math.min(28, (slot - 6) / series.length);
  const colours = ["#0072B2", "#E69F00"];
  const labelEvery = Math.ceil(values.length / 30);
  values.forEach((value, i) => {
    series.forEach((m, s) => {
      const v = find(m, value);
      if (!v) return;
      const x = left + i * slot + (slot - bar * series.length) / 2 + s * bar;
      el("rect", { x, y: y(v.probability), width: Math.max(1, bar - 2), height: y(0) - y(v.probability), fill: colours[s] })
        .appendChild(document.createElementNS(ns, "title")).textContent = value + ": " + fmt(v.probability);
      if (v.count !== null && v.ci_high > v.ci_low) {
        const cx = x + (bar - 2) / 2;
        el("line", { x1: cx, x2: cx, y1: y(v.ci_low), y2: y(v.ci_high), stroke: "#222" });
      }
    });
    if (i % labelEvery === 0) el("text", { x: left + i * slot + slot / 2, y: height - bottom + 14, "text-anchor": "middle" }, value);
  });
  el("line", { x1: left, x2: width, y1: y(0), y2: y(0), stroke: "#222" });
  if (legend) {
    ["A (as set)", "B (the variant)"].forEach((text, s) => {
      const x = left + s * 150;
      el("rect", { x, y: height - 16, width: 12, height: 12, fill: colours[s], class: "legend-swatch" });
      el("text", { x: x + 17, y: height - 6, class: "legend-text" }, text);
    });
  }
  return svg;
}

function showExplain(results) {
  const box = $("explain");
  box.innerHTML = "";
  results.forEach((r, index) => {
    if (!r.explain || !r.explain.length) return;
    const title = document.createElement("h3");
    title.textContent = "First decisions" + (results.length > 1 ? (index ? " (B)" : " (A)") : "") + ", each option valued under best play by both sides afterwards";
    box.appendChild(title);
    for (const e of r.explain) {
      const p = document.createElement("p");
      const when = e.reached >= 1 - 1e-12 ? (e.step === 1 ? "from the start" : "certain to arise")
        : "the likeliest situation then, reached " + (100 * e.reached).toFixed(1) + "% of the time";
      p.textContent = e.side + " decides " + e.decision + " at step " + e.step + " (" + when + "): " + e.situation;
      box.appendChild(p);
      const table = document.createElement("table");
      table.className = "explain";
      // An option as good for the purpose as the one chosen lost on the
      // secondary aims (outright wins, then turns to play), or, equal on
      // every aim, to the order the options are listed in.
      const mark = (o) => o.chosen ? "chosen" : o.tie === "purpose" ? "as good for the purpose; lost on the secondary aims"
        : o.tie === "all" ? "as good on every aim; listed later" : "";
      const turns = (o) => o.turns === null || o.turns === undefined ? "" : (Math.round(o.turns * 10) / 10).toString();
      table.innerHTML = "<tr><th>option</th><th>attacker wins</th><th>defender wins</th><th>turns left</th><th></th></tr>" +
        e.options.map((o) => "<tr><td" + (o.chosen ? ' class="chosen"' : "") + ">" + escapeHtml(o.option) + "</td><td>" +
          fmt(o.attacker_wins) + "</td><td>" + fmt(o.defender_wins) + "</td><td>" + turns(o) + "</td><td>" + mark(o) +
          "</td></tr>").join("");
      box.appendChild(table);
    }
  });
}

// ---------------------------------------------------------------------------
// Make it even: /api/even with the A side's settings, the varied key left out.

function fillEvenKeys(entry) {
  const select = $("even-key");
  const keep = select.value;
  select.innerHTML = "";
  for (const p of entry.params) {
    if (p.kind.type === "int" || p.kind.type === "choice") option(select, p.name);
  }
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
  $("even-section").hidden = select.options.length === 0;
}

async function makeEven(state) {
  const key = $("even-key").value;
  const query = stateQuery(state, true, "a");
  query.delete(key);
  query.set("vary", key);
  for (const [name, id] of [["from", "even-from"], ["to", "even-to"], ["target", "even-target"], ["measure", "even-measure"]]) {
    const value = $(id).value.trim();
    if (value) query.set(name, value);
  }
  const out = $("even");
  out.innerHTML = "<p class=\"hint\">searching " + escapeHtml(key) + "...</p>";
  try {
    const response = await fetch("/api/even?" + query.toString());
    const body = await response.json();
    if (!response.ok) throw body;
    const search = body.searches[0];
    const rows = search.points.map((p) => {
      const interval = p.exact ? "exact" : "[" + (100 * p.ci_low).toFixed(1) + "%, " + (100 * p.ci_high).toFixed(1) + "%]";
      return "<tr><td>" + escapeHtml(p.value) + "</td><td>" + (100 * p.estimate).toFixed(1) + "%</td><td>" + interval + "</td><td>" + p.samples + "</td></tr>";
    });
    out.innerHTML = "<h3>Make it even: " + escapeHtml(key) + "</h3><p class=\"even-finding\">" + escapeHtml(search.finding) +
      "</p><table class=\"even-table\"><tr><th>" + escapeHtml(key) + "</th><th>measure</th><th>interval</th><th>samples</th></tr>" +
      rows.join("") + "</table><p class=\"hint\">" + escapeHtml(search.search) + "</p>";
  } catch (error) {
    out.innerHTML = "<div class=\"error\">" + escapeHtml(error.error || String(error)) + "</div>";
  }
}

function escapeHtml(text) {
  const div = document.createElement("div");
  div.textContent = text;
  return div.innerHTML;
}

// ---------------------------------------------------------------------------
// Start.

async function start() {
  page.catalogue = await (await fetch("/api/catalogue")).json();
  const state = stateFromUrl();
  const rulesets = page.catalogue.rulesets;
  if (!rulesets.some((r) => r.name === state.ruleset)) state.ruleset = "huzzah";
  const ruleset = rulesets.find((r) => r.name === state.ruleset);
  if (!ruleset.scenarios.some((s) => s.name === state.scenario)) state.scenario = ruleset.scenarios[0].name;
  const rulesetSelect = $("ruleset"), scenarioSelect = $("scenario");
  for (const r of rulesets) option(rulesetSelect, r.name, r.title);
  const fillScenarios = () => {
    scenarioSelect.innerHTML = "";
    for (const s of rulesets.find((r) => r.name === state.ruleset).scenarios) option(scenarioSelect, s.name);
    scenarioSelect.value = state.scenario;
  };
  rulesetSelect.value = state.ruleset;
  fillScenarios();
  const reset = () => { state.keys = {}; state.rules = {}; state.variant = { keys: {}, rules: {} }; };
  rulesetSelect.addEventListener("change", () => {
    state.ruleset = rulesetSelect.value;
    state.scenario = rulesets.find((r) => r.name === state.ruleset).scenarios[0].name;
    reset();
    fillScenarios();
    changed(state);
  });
  scenarioSelect.addEventListener("change", () => { state.scenario = scenarioSelect.value; reset(); changed(state); });
  for (const radio of document.querySelectorAll("input[name=method]")) {
    radio.addEventListener("change", () => { state.method = radio.value; changed(state); });
  }
  $("precision").addEventListener("change", () => { state.precision = $("precision").value; state.method = "precision"; changed(state); });
  $("samples").addEventListener("change", () => { state.samples = $("samples").value; state.method = "samples"; changed(state); });
  $("seed").addEventListener("change", () => { state.seed = $("seed").value; changed(state); });
  $("compare").addEventListener("click", () => {
    state.compare = !state.compare;
    if (!state.compare) state.variant = { keys: {}, rules: {} };
    changed(state);
  });
  $("stop").addEventListener("click", () => {
    stopStreams();
    page.runId++;
    $("status").textContent = "stopped";
    $("progress").hidden = true;
    $("stop").disabled = true;
  });
  $("even-run").addEventListener("click", () => makeEven(state));
  $("copy-link").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText(location.href));
  changed(state);
}

start();
