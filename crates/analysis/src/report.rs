//! Report folders: `report.md`, a self-contained printable `report.html`,
//! `data.csv`, `data.parquet` and the charts, written whole or not at all; and
//! the index of every report.
//!
//! A report is written into a temporary sibling directory which is renamed into
//! place only when every file is written, so a failed or interrupted run leaves
//! the previous report (or none), never half of one. Nothing in a report
//! depends on the time or the machine, so the same run writes the same files.
//!
//! The `*_report` functions write up each balance analysis (and a single
//! distribution) as a [`Report`] and its data frame, ready for [`write_report`].

use crate::AnalysisError;
use crate::balance::{Convergence, Estimate, Experiment, Ladder, Sensitivity, Sweep, capitalised};
use crate::charts::{
    Chart, DEFAULT_SIZE, cdf_chart, convergence_chart, distribution_bars, even_chart, even_curve_chart, format_value,
    ladder_heatmap, sensitivity_tornado, sweep_chart,
};
use crate::even::{Even, say};
use crate::frame::{
    Run, long_frame, marked_sibling, remove_stale_siblings, temporary_sibling, write_bytes_atomically, write_csv,
    write_parquet,
};
use crate::playsheet::Grid;
use crate::points::{BAD_GAP, Points, SCALE, round_points};
use crate::provenance::Provenance;
use crate::stats::{agreement, mean_with_standard_error, z_for_confidence};
use polars::prelude::*;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use volley_kernel::game::PolicyUse;
use volley_kernel::outcome::Distribution;

/// One analysis written up: what was asked, the answer in a line, and the
/// evidence.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The title.
    pub title: String,
    /// The question it answers, in the asker's words.
    pub question: String,
    /// The answer in one line (also shown in the index).
    pub finding: String,
    /// The evidence, in order.
    pub sections: Vec<Section>,
    /// The most A4 pages its `report.html` may print on (written into the
    /// page, where the print test reads it); `None` sets no limit.
    pub pages: Option<usize>,
}

/// A part of a report: some text, an optional table and some charts.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// The heading.
    pub heading: String,
    /// Paragraphs of plain text, separated by blank lines.
    pub text: String,
    /// A table, if any.
    pub table: Option<Table>,
    /// Charts, each written as `name.svg` and `name.png`.
    pub charts: Vec<Chart>,
    /// A compact shaded grid (a playsheet's table), if any.
    pub grid: Option<Grid>,
}

impl Section {
    /// A section of text only.
    pub fn text(heading: &str, text: &str) -> Section {
        Section { heading: heading.to_string(), text: text.to_string(), table: None, charts: Vec::new(), grid: None }
    }

    /// The same section with a grid.
    pub fn with_grid(mut self, grid: Grid) -> Section {
        self.grid = Some(grid);
        self
    }

    /// The same section with a table.
    pub fn with_table(mut self, table: Table) -> Section {
        self.table = Some(table);
        self
    }

    /// The same section with a chart.
    pub fn with_chart(mut self, chart: Chart) -> Section {
        self.charts.push(chart);
        self
    }
}

/// A table of text cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The column headers.
    pub columns: Vec<String>,
    /// The rows, each as long as `columns`.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table from headers and rows.
    pub fn new(columns: Vec<String>, rows: Vec<Vec<String>>) -> Table {
        Table { columns, rows }
    }

    /// The first `max_rows` rows of a frame, floats to four decimals and nulls blank.
    pub fn from_frame(df: &DataFrame, max_rows: usize) -> PolarsResult<Table> {
        let columns: Vec<String> = df.get_column_names().iter().map(|n| n.to_string()).collect();
        let height = df.height().min(max_rows);
        let mut rows = vec![Vec::with_capacity(columns.len()); height];
        for column in df.columns() {
            for (i, row) in rows.iter_mut().enumerate() {
                row.push(format_cell(&column.get(i)?));
            }
        }
        Ok(Table { columns, rows })
    }
}

fn format_cell(value: &AnyValue<'_>) -> String {
    match value {
        AnyValue::Null => String::new(),
        AnyValue::String(s) => (*s).to_string(),
        AnyValue::StringOwned(s) => s.to_string(),
        AnyValue::Float64(v) => format!("{v:.4}"),
        AnyValue::Float32(v) => format!("{v:.4}"),
        other => other.to_string(),
    }
}

/// A report's entry in the index: a card with its question, a thumbnail of
/// its main chart and its finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    /// The page it links to, relative to the index (`ladder/report.html`).
    pub link: String,
    /// Its title.
    pub title: String,
    /// The question it answers.
    pub question: String,
    /// Its one-line finding.
    pub finding: String,
    /// Its thumbnail, relative to the index, if it has a chart.
    pub thumbnail: Option<String>,
    /// Other pages the card links to: (text, link).
    pub also: Vec<(String, String)>,
}

impl IndexEntry {
    /// The entry of a report written to `folder` by [`write_report`].
    pub fn of(folder: &str, report: &Report) -> IndexEntry {
        let has_chart = report.sections.iter().any(|s| !s.charts.is_empty());
        IndexEntry {
            link: format!("{folder}/report.html"),
            title: report.title.clone(),
            question: report.question.clone(),
            finding: report.finding.clone(),
            thumbnail: has_chart.then(|| format!("{folder}/{THUMBNAIL}")),
            also: Vec::new(),
        }
    }
}

/// The file name of a report's thumbnail: its first chart, small.
pub const THUMBNAIL: &str = "thumbnail.png";
/// How many times smaller than its chart a thumbnail is each way (the
/// default chart's 1000 by 620 pixels make a 500 by 310 thumbnail).
pub const THUMBNAIL_SHRINK: u32 = 2;

/// Writes a report into the folder `dir` (replacing any report there):
/// `report.md`, `report.html`, `data.csv`, `data.parquet`, and each chart as
/// SVG and PNG. Either every file is written or `dir` is left as it was.
pub fn write_report(dir: &Path, report: &Report, data: &DataFrame) -> Result<(), AnalysisError> {
    let mut names: Vec<&str> = Vec::new();
    for chart in report.sections.iter().flat_map(|s| &s.charts) {
        if names.contains(&chart.name.as_str()) {
            return Err(AnalysisError::Invalid(format!(
                "two charts of report `{}` are named `{}`",
                report.title, chart.name
            )));
        }
        if chart.name.is_empty() || chart.name.contains(['/', '\\']) || chart.name.starts_with('.') {
            return Err(AnalysisError::Invalid(format!("chart name `{}` is not a plain file name", chart.name)));
        }
        names.push(&chart.name);
    }
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent)?;
    }
    remove_stale_siblings(dir);
    let temporary = temporary_sibling(dir);
    fs::create_dir(&temporary)?;
    match fill_report(&temporary, report, data) {
        Ok(()) => replace_dir(&temporary, dir),
        Err(error) => {
            let _ = fs::remove_dir_all(&temporary);
            Err(error)
        }
    }
}

fn fill_report(dir: &Path, report: &Report, data: &DataFrame) -> Result<(), AnalysisError> {
    if let Some(first) = report.sections.iter().flat_map(|s| &s.charts).next() {
        fs::write(dir.join(THUMBNAIL), first.for_thumbnail().png_shrunk(THUMBNAIL_SHRINK)?)?;
    }
    let mut svgs = Vec::new();
    for chart in report.sections.iter().flat_map(|s| &s.charts) {
        let svg = chart.svg()?;
        fs::write(dir.join(format!("{}.svg", chart.name)), &svg)?;
        fs::write(dir.join(format!("{}.png", chart.name)), chart.png()?)?;
        svgs.push(svg);
    }
    write_csv(data, &dir.join("data.csv"))?;
    write_parquet(data, &dir.join("data.parquet"))?;
    fs::write(dir.join("report.md"), markdown(report))?;
    fs::write(dir.join("report.html"), html(report, &svgs))?;
    Ok(())
}

/// Moves the finished `temporary` folder to `dir`, moving any old `dir` aside
/// first so there is never a moment with neither (a rename cannot replace a
/// non-empty directory). Another run writing the same folder at the same
/// time may put its own report in place between the two renames; then this
/// one moves that aside too and tries again, so both finish and the last to
/// rename wins.
fn replace_dir(temporary: &Path, dir: &Path) -> Result<(), AnalysisError> {
    const ATTEMPTS: usize = 20;
    let mut set_aside = Vec::new();
    let mut outcome = Ok(());
    for attempt in 0..ATTEMPTS {
        if dir.exists() {
            let old = marked_sibling(dir, "old");
            match fs::rename(dir, &old) {
                Ok(()) => set_aside.push(old),
                // Another writer moved it first: go on to our own rename.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            }
        }
        match fs::rename(temporary, dir) {
            Ok(()) => {
                outcome = Ok(());
                break;
            }
            // Another writer's report arrived between the renames.
            Err(e) if dir.exists() && attempt + 1 < ATTEMPTS => outcome = Err(e),
            Err(e) => {
                outcome = Err(e);
                break;
            }
        }
    }
    if let Err(error) = outcome {
        // Put the newest old report back rather than leave nothing.
        if !dir.exists()
            && let Some(old) = set_aside.pop()
        {
            let _ = fs::rename(&old, dir);
        }
        let _ = fs::remove_dir_all(temporary);
        for old in set_aside {
            let _ = fs::remove_dir_all(old);
        }
        return Err(error.into());
    }
    for old in set_aside {
        fs::remove_dir_all(old)?;
    }
    Ok(())
}

/// The report as Markdown: question, finding, then each section's text, table
/// and charts (as links to their SVG files).
pub fn markdown(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", report.title);
    let _ = writeln!(out, "**Question.** {}\n", report.question);
    if report.finding.contains('\n') {
        out.push_str("**Finding.**\n\n");
        for line in report.finding.lines() {
            let _ = writeln!(out, "- {line}");
        }
        out.push('\n');
    } else {
        let _ = writeln!(out, "**Finding.** {}\n", report.finding);
    }
    for section in &report.sections {
        let _ = writeln!(out, "## {}\n", section.heading);
        if !section.text.trim().is_empty() {
            let _ = writeln!(out, "{}\n", section.text.trim());
        }
        for chart in &section.charts {
            let _ = writeln!(out, "![{}]({}.svg)\n", chart.title.replace(['[', ']'], ""), chart.name);
        }
        if let Some(grid) = &section.grid {
            out.push_str(&grid.markdown());
            out.push('\n');
        }
        if let Some(table) = &section.table {
            let cell = |s: &str| s.replace('|', "\\|");
            let _ = writeln!(out, "| {} |", table.columns.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | "));
            let _ = writeln!(out, "|{}", " --- |".repeat(table.columns.len()));
            for row in &table.rows {
                let _ = writeln!(out, "| {} |", row.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | "));
            }
            out.push('\n');
        }
    }
    out.push_str("Data: [data.csv](data.csv), [data.parquet](data.parquet).\n");
    out
}

/// Escapes text for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The name of the `<meta>` that carries a report's page limit.
pub const PAGES_META: &str = "volley-print-pages";

/// Print styles: A4 with margins, charts and table rows never split across
/// pages, charts scaled to the text width.
const CSS: &str = "
@page { size: A4; margin: 14mm; }
body { font-family: 'DejaVu Sans', Helvetica, Arial, sans-serif; font-size: 11pt; line-height: 1.4;
       color: #111; max-width: 182mm; margin: 1em auto; padding: 0 1em; }
h1 { font-size: 19pt; margin: 0 0 0.4em; }
h2 { font-size: 14pt; margin: 1.2em 0 0.4em; break-after: avoid; page-break-after: avoid; }
p.question { font-style: italic; }
p.finding, ul.finding { font-weight: bold; border-left: 4px solid #0072B2; padding: 0.2em 0 0.2em 0.6em; }
ul.finding { list-style: none; margin-left: 0; }
ul.finding li + li { margin-top: 0.4em; }
figure { margin: 0.6em 0 1em; break-inside: avoid; page-break-inside: avoid; }
figure svg { width: 100%; height: auto; display: block; }
figcaption { font-size: 9pt; color: #444; }
div.small-charts { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); column-gap: 4mm; }
section.whole { break-inside: avoid; page-break-inside: avoid; }
div.small-charts figure { margin: 0.3em 0 0.6em; }
table { border-collapse: collapse; font-size: 9pt; margin: 0.5em 0 1em; max-width: 100%; }
th, td { border: 1px solid #aaa; padding: 2px 6px; text-align: right; overflow-wrap: anywhere; }
th { background: #eee; }
td:first-child, th:first-child { text-align: left; }
tr { break-inside: avoid; page-break-inside: avoid; }
@media print {
  a { color: inherit; text-decoration: none; }
  body { margin: 0; padding: 0; font-size: 10pt; }
  figure:not(.small) svg { width: 75%; margin: 0 auto; }
  table { font-size: 8pt; }
}
";

fn html(report: &Report, svgs: &[String]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n{}<style>{CSS}</style>\n</head>\n<body>\n",
        escape(&report.title),
        report.pages.map_or(String::new(), |n| format!("<meta name=\"{PAGES_META}\" content=\"{n}\">\n"))
    );
    let _ = writeln!(out, "<h1>{}</h1>", escape(&report.title));
    let _ = writeln!(out, "<p class=\"question\">{}</p>", escape(&report.question));
    if report.finding.contains('\n') {
        out.push_str("<ul class=\"finding\">\n");
        for line in report.finding.lines() {
            let _ = writeln!(out, "<li>{}</li>", escape(line));
        }
        out.push_str("</ul>\n");
    } else {
        let _ = writeln!(out, "<p class=\"finding\">{}</p>", escape(&report.finding));
    }
    let mut svg = svgs.iter();
    for section in &report.sections {
        // A section of a chart or two and no table prints whole, never its
        // heading on one page and its charts on the next.
        let whole = section.charts.len() <= 2 && section.table.is_none() && section.grid.is_none();
        let _ = writeln!(
            out,
            "<section{}>\n<h2>{}</h2>",
            if whole { " class=\"whole\"" } else { "" },
            escape(&section.heading)
        );
        for paragraph in section.text.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
            let _ = writeln!(out, "<p>{}</p>", escape(paragraph));
        }
        // Small charts go two to a row; full-size ones one to a row.
        let mut small_open = false;
        for chart in &section.charts {
            let body = svg.next().map_or("", |s| inline_svg(s));
            let small = chart.width < DEFAULT_SIZE.0;
            if small && !small_open {
                out.push_str("<div class=\"small-charts\">\n");
            } else if !small && small_open {
                out.push_str("</div>\n");
            }
            small_open = small;
            let _ = writeln!(
                out,
                "<figure{}>\n{body}\n<figcaption>{} (<a href=\"{name}.svg\">SVG</a>, <a href=\"{name}.png\">PNG</a>)</figcaption>\n</figure>",
                if small { " class=\"small\"" } else { "" },
                escape(&chart.title),
                name = escape(&chart.name)
            );
        }
        if small_open {
            out.push_str("</div>\n");
        }
        if let Some(grid) = &section.grid {
            out.push_str(&grid.html());
        }
        if let Some(table) = &section.table {
            out.push_str("<table>\n<thead><tr>");
            for column in &table.columns {
                let _ = write!(out, "<th>{}</th>", escape(column));
            }
            out.push_str("</tr></thead>\n<tbody>\n");
            for row in &table.rows {
                out.push_str("<tr>");
                for cell in row {
                    let _ = write!(out, "<td>{}</td>", escape(cell));
                }
                out.push_str("</tr>\n");
            }
            out.push_str("</tbody>\n</table>\n");
        }
        out.push_str("</section>\n");
    }
    out.push_str("<p>Data: <a href=\"data.csv\">data.csv</a>, <a href=\"data.parquet\">data.parquet</a>.</p>\n</body>\n</html>\n");
    out
}

/// An SVG document without its XML declaration, ready to sit inside HTML.
fn inline_svg(svg: &str) -> &str {
    match svg.find("<svg") {
        Some(start) => &svg[start..],
        None => svg,
    }
}

/// Styles of the index: cards in a responsive grid under each question.
const INDEX_CSS: &str = "
body { max-width: 1180px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 14px; }
.card { border: 1px solid #ccc; border-radius: 6px; padding: 10px; color: inherit; text-decoration: none;
        display: block; break-inside: avoid; }
.card:hover { border-color: #0072B2; box-shadow: 0 1px 4px rgba(0,0,0,0.15); }
.card img { width: 100%; height: auto; border: 1px solid #eee; }
.card h3 { font-size: 12pt; margin: 0.4em 0 0.2em; }
.card p { font-size: 9.5pt; margin: 0.3em 0; }
.card p.question { color: #444; }
.card p.finding { border-left: 3px solid #0072B2; padding-left: 0.5em; font-weight: normal; }
.card .also { font-size: 8.5pt; }
";

/// The most characters of a finding a card shows; the report has the rest.
pub const CARD_FINDING_CHARS: usize = 260;

/// A finding cut to about `max` characters at a word, marked where cut.
pub fn shortened(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    let at = cut.rfind(' ').unwrap_or(cut.len());
    format!("{}…", cut[..at].trim_end_matches([',', ';', ':', '|', ' ']))
}

/// Writes `reports_dir/index.html`: under each question (a heading), a card
/// per report with its question, thumbnail and finding, through a temporary
/// file renamed into place.
pub fn write_index(reports_dir: &Path, groups: &[(String, Vec<IndexEntry>)]) -> Result<(), AnalysisError> {
    fs::create_dir_all(reports_dir)?;
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>volley reports</title>\n\
         <style>{CSS}{INDEX_CSS}</style>\n</head>\n<body>\n<h1>volley reports</h1>\n\
         <p>Each card is one analysis: the question it answers, its main chart and its finding. \
         Open a card for the charts, tables, data and how it was made.</p>\n"
    );
    for (heading, entries) in groups.iter().filter(|(_, e)| !e.is_empty()) {
        let _ = writeln!(out, "<h2>{}</h2>\n<div class=\"cards\">", escape(heading));
        for entry in entries {
            let _ = write!(out, "<div class=\"card\">");
            let _ = write!(out, "<a href=\"{}\">", escape(&entry.link));
            if let Some(thumbnail) = &entry.thumbnail {
                let _ = write!(out, "<img src=\"{}\" alt=\"\" loading=\"lazy\">", escape(thumbnail));
            }
            let _ = write!(out, "<h3>{}</h3></a>", escape(&entry.title));
            let _ = write!(out, "<p class=\"question\">{}</p>", escape(&entry.question));
            let finding = entry.finding.replace('\n', " · ");
            let _ = write!(out, "<p class=\"finding\">{}</p>", escape(&shortened(&finding, CARD_FINDING_CHARS)));
            if !entry.also.is_empty() {
                let links: Vec<String> = entry
                    .also
                    .iter()
                    .map(|(text, link)| format!("<a href=\"{}\">{}</a>", escape(link), escape(text)))
                    .collect();
                let _ = write!(out, "<p class=\"also\">{}</p>", links.join(" · "));
            }
            out.push_str("</div>\n");
        }
        out.push_str("</div>\n");
    }
    out.push_str("</body>\n</html>\n");
    Ok(write_bytes_atomically(&reports_dir.join("index.html"), out.as_bytes())?)
}

/// How an experiment was run, for a report's Method section: its
/// [`Provenance`] (with the policies played at `played`, each point's, see
/// [`Provenance::with_played`]) and a note on the shared seed.
pub fn method_text(experiment: &Experiment, played: &[Option<[PolicyUse; 2]>]) -> String {
    method_of(experiment, Provenance::of_experiment(experiment, &[]).with_played(played))
}

/// [`method_text`] for a search for where a measure crosses its target
/// ([`Provenance::of_search`]): how each value probed was measured.
pub fn search_method_text(experiment: &Experiment, played: &[Option<[PolicyUse; 2]>]) -> String {
    method_of(experiment, Provenance::of_search(experiment, &[], crate::even::FIRST_ROUND).with_played(played))
}

fn method_of(experiment: &Experiment, provenance: Provenance) -> String {
    format!(
        "{} {} Every point uses the same seed, so points differ by their settings and not by their dice.",
        experiment.scenario.summary,
        provenance.paragraph()
    )
}

/// The policies played at each of `runs`, for [`method_text`].
pub fn played(runs: &[Run]) -> Vec<Option<[PolicyUse; 2]>> {
    runs.iter().map(|run| run.policies).collect()
}

/// The quality ladder written up: a heatmap, its table and the long frame of
/// every run.
pub fn ladder_report(experiment: &Experiment, ladder: &Ladder) -> Result<(Report, DataFrame), AnalysisError> {
    let title = format!("{} {}: quality ladder", experiment.ruleset, experiment.scenario.name);
    let chart = ladder_heatmap("ladder", &format!("{} by quality", capitalised(&ladder.measure.plain())), ladder);
    let percent_of = |v: f64| format_value(v, ladder.measure.is_probability());
    let mut best: Option<(usize, usize, f64)> = None;
    let mut diagonal = (f64::INFINITY, f64::NEG_INFINITY);
    for (a, row) in ladder.cells.iter().enumerate() {
        for (d, cell) in row.iter().enumerate() {
            if best.is_none_or(|b| cell.value > b.2) {
                best = Some((a, d, cell.value));
            }
            if a == d {
                diagonal = (diagonal.0.min(cell.value), diagonal.1.max(cell.value));
            }
        }
    }
    let finding = match best {
        Some((a, d, value)) => format!(
            "{} is highest for the attacker at {} against the defender at {} ({}); between equal qualities it runs from {} to {}.",
            capitalised(&ladder.measure.plain()),
            ladder.qualities[a].replace('_', " "),
            ladder.qualities[d].replace('_', " "),
            percent_of(value),
            percent_of(diagonal.0),
            percent_of(diagonal.1)
        ),
        None => "No qualities to compare.".to_string(),
    };
    let report = Report {
        title,
        question: format!(
            "How does {} change with the attacker's and the defender's quality in {}?",
            ladder.measure.plain(),
            experiment.scenario.name
        ),
        finding,
        sections: vec![
            Section::text(
                "Ladder",
                "Rows are the attacker's quality, columns the defender's; each cell prints the estimate and, \
                 below it, its interval. Blue favours the attacker, red the defender, white is even odds.",
            )
            .with_chart(chart)
            .with_table(Table::from_frame(&ladder.frame()?, usize::MAX)?),
            Section::text("Method", &method_text(experiment, &played(&ladder.runs))),
        ],
        pages: None,
    };
    Ok((report, long_frame(&ladder.runs, experiment.confidence)?))
}

/// The equivalence search written up: the probed curve with even odds marked,
/// A search for what makes it even written up: the finding, the values
/// probed on a chart with the target, their table, how the search went,
/// and the long frame of every run.
pub fn even_report(experiment: &Experiment, even: &Even) -> Result<(Report, DataFrame), AnalysisError> {
    let chart = even_chart("even", &format!("{} by {}", capitalised(&even.measure.plain()), even.axis.key), even);
    let report = Report {
        title: format!("{} {}: what {} makes it even", experiment.ruleset, experiment.scenario.name, even.axis.key),
        question: format!(
            "At what {} does {} reach {}?",
            even.axis.key,
            even.measure.plain(),
            say(&even.measure, even.target)
        ),
        finding: even.finding(),
        sections: vec![
            Section::text("Search", &search_text(even))
                .with_chart(chart)
                .with_table(Table::from_frame(&even.frame()?, usize::MAX)?),
            Section::text("Method", &search_method_text(experiment, &played(&even.runs))),
        ],
        pages: None,
    };
    Ok((report, long_frame(&even.runs, experiment.confidence)?))
}

/// How a search went, in a paragraph: the values probed and how each was
/// measured.
pub fn search_text(even: &Even) -> String {
    let n = even.axis.values.len();
    let mut text = if even.scanned_all() {
        format!("Every one of the {n} values of {} in the range was measured.", even.axis.key)
    } else {
        format!(
            "The range holds {n} values of {}: one in every {} was measured first, then each step whose ends lie either \
             side of {} was halved until two neighbouring values were left ({} values measured in all).",
            even.axis.key,
            even.grid_step,
            say(&even.measure, even.target),
            even.points.len()
        )
    };
    if even.axis.numbers.is_none() {
        text.push_str(" The values are taken in the order the scenario lists them; none is between two others, so no crossing is interpolated.");
    }
    let sampled = even.points.iter().filter(|p| p.samples > 0).count();
    if sampled == 0 {
        text.push_str(" Each value was solved exactly.");
    } else {
        let how = match even.precision {
            Some(p) => format!(
                "sampled in rounds from {} samples, each four times the last, stopping once the interval left {} out or \
                 was within ±{} of the estimate",
                crate::even::FIRST_ROUND,
                say(&even.measure, even.target),
                if even.measure.is_probability() { format!("{:.1} points", p * 100.0) } else { p.to_string() }
            ),
            None => "sampled".to_string(),
        };
        let _ = write!(
            text,
            " {sampled} of the {} values were {how}: {} samples in all; every value shares the same seed, so two values differ by the key, not by luck.",
            even.points.len(),
            even.samples_spent
        );
    }
    text
}

/// The even value of one key against each value of another written up:
/// the curve with each crossing's neighbouring values as its band, one
/// row per value with the search's finding, and the long frame.
pub fn even_curve_report(
    experiment: &Experiment,
    by_key: &str,
    searches: &[(String, Even)],
) -> Result<(Report, DataFrame), AnalysisError> {
    let Some((_, first)) = searches.first() else {
        return Err(AnalysisError::Invalid("a curve needs one value of its second key at least".to_string()));
    };
    let key = first.axis.key.clone();
    let target = say(&first.measure, first.target);
    let chart = even_curve_chart("even", &format!("{key} that makes it even, by {by_key}"), by_key, searches);
    // The contrast first: how far the even value moves over the second key.
    let crossings: Vec<(&String, f64)> = searches
        .iter()
        .filter_map(|(value, even)| match even.crossings.as_slice() {
            [crate::even::Crossing::Between { at: Some(at), .. }] => Some((value, *at)),
            _ => None,
        })
        .collect();
    let summary = match (crossings.first(), crossings.last()) {
        (Some(first), Some(last)) if crossings.len() > 1 => Some(format!(
            "The {key} that gives {target} runs from about {:.1} at {by_key} = {} to about {:.1} at {}.",
            first.1, first.0, last.1, last.0
        )),
        _ => None,
    };
    let crossings_said: Vec<String> = searches
        .iter()
        .map(|(_, even)| match even.crossings.as_slice() {
            [] => "no crossing in the range".to_string(),
            [one] => even.crossing_words(one),
            many => format!(
                "{} crossings: {}",
                many.len(),
                many.iter().map(|c| even.crossing_words(c)).collect::<Vec<_>>().join("; ")
            ),
        })
        .collect();
    let findings: Vec<String> = searches
        .iter()
        .zip(&crossings_said)
        .map(|((value, _), crossing)| format!("{by_key} = {value}: {crossing}"))
        .collect();
    let table_frame = {
        let column = |name: &str, values: Vec<String>| Column::new(name.into(), values);
        crate::balance::frame_of(vec![
            column(by_key, searches.iter().map(|(v, _)| v.clone()).collect()),
            column(&format!("{key} where {} is {target}", first.measure.plain()), crossings_said.clone()),
        ])?
    };
    let mut runs = Vec::new();
    let mut samples = 0;
    for (_, even) in searches {
        runs.extend(even.runs.iter().cloned());
        samples += even.samples_spent;
    }
    let mut search = search_text(first);
    if samples > 0 {
        let _ = write!(search, " All {} searches together drew {samples} samples.", searches.len());
    }
    let report = Report {
        title: format!(
            "{} {}: what {key} makes it even against each {by_key}",
            experiment.ruleset, experiment.scenario.name
        ),
        question: format!("For each {by_key}, at what {key} does {} reach {target}?", first.measure.plain()),
        finding: summary
            .into_iter()
            .map(|s| capitalised(&s))
            .chain(findings.iter().cloned())
            .collect::<Vec<_>>()
            .join("\n"),
        sections: vec![
            Section::text("Search", &search).with_chart(chart).with_table(Table::from_frame(&table_frame, usize::MAX)?),
            Section::text("Method", &search_method_text(experiment, &played(&runs))),
        ],
        pages: None,
    };
    Ok((report, long_frame(&runs, experiment.confidence)?))
}

/// A points table written up: the points as bars, the table with each
/// kind's strength, every pairing measured against the model, and the
/// long frame of every run.
pub fn points_report(experiment: &Experiment, points: &Points) -> Result<(Report, DataFrame), AnalysisError> {
    let fit = &points.fit;
    let values = fit.points();
    let bars = values
        .iter()
        .zip(&fit.kinds)
        .enumerate()
        .map(|(k, (p, kind))| {
            let (low, high) = fit.strength_se.as_ref().map_or((*p, *p), |se| {
                let z = z_for_confidence(experiment.confidence);
                (SCALE * (fit.strength[k] - z * se[k]).exp(), SCALE * (fit.strength[k] + z * se[k]).exp())
            });
            crate::charts::Bar { label: kind.clone(), value: *p, ci_low: low, ci_high: high }
        })
        .collect();
    let chart = Chart::new(
        "points",
        &format!("Points by {}", points.key),
        &points.key,
        &format!("points ({} = {SCALE:.0})", fit.kinds[0]),
        crate::charts::ChartKind::Bars { bars, percent: false },
    );
    let mut about = format!(
        "Every {key} attacked every {key}; one strength per {key}, an edge for attacking and a chance of a fight with \
         no winner were fitted to all {} pairings by maximum likelihood (Bradley-Terry with draws, after Davidson). \
         A {key}'s points are {SCALE:.0} times its strength over the {}'s: two sides of equal points meet as evenly \
         as the model allows, and the odds between two of them, leaving draws and the attacker's edge aside, are \
         their points' ratio.",
        fit.pairings.len(),
        fit.kinds[0],
        key = points.key,
    );
    if fit.strength_se.is_none() {
        about.push_str(
            " Every pairing was solved exactly, so the points carry no sampling error; how far they hold is the gap \
             between each pairing and the model, in the table below.",
        );
    }
    let rounded: Vec<String> = values.iter().map(|p| round_points(*p).to_string()).collect();
    let table_frame = crate::balance::frame_of(vec![
        Column::new(points.key.as_str().into(), fit.kinds.clone()),
        Column::new("points".into(), rounded),
        Column::new("strength (ln)".into(), fit.strength.iter().map(|s| format!("{s:.3}")).collect::<Vec<_>>()),
        Column::new(
            "its error".into(),
            fit.strength_se.as_ref().map_or(vec!["exact".to_string(); fit.kinds.len()], |se| {
                se.iter().map(|e| format!("±{e:.3}")).collect()
            }),
        ),
    ])?;
    let report = Report {
        title: format!("{} {}: points by {}", experiment.ruleset, experiment.scenario.name, points.key),
        question: format!(
            "What is each {} worth, in points that make a fight even, in {}?",
            points.key, experiment.scenario.name
        ),
        finding: points.finding(),
        sections: vec![
            Section::text("Points", &about).with_chart(chart).with_table(Table::from_frame(&table_frame, usize::MAX)?),
            Section::text(
                "Pairings",
                &format!(
                    "Each pairing's measured chance of an attacker's win beside the model's; {} points or more apart \
                     breaks the model (a ladder that is not transitive shows here).",
                    BAD_GAP * 100.0
                ),
            )
            .with_table(Table::from_frame(&fit.pairings_frame()?, usize::MAX)?),
            Section::text("Method", &method_text(experiment, &played(&points.runs))),
        ],
        pages: None,
    };
    Ok((report, long_frame(&points.runs, experiment.confidence)?))
}

/// The sensitivity ranking written up: the tornado, its table, the steps not
/// run, and the long frame of every run.
pub fn sensitivity_report(
    experiment: &Experiment,
    sensitivity: &Sensitivity,
) -> Result<(Report, DataFrame), AnalysisError> {
    let chart = sensitivity_tornado("sensitivity", &format!("What moves {}", sensitivity.measure.plain()), sensitivity);
    let mut skipped = String::from(
        "Each integer rule field was moved one step down and one step up from its printed value, all else held. \
         A change's interval adds both runs' variances; the runs share their dice, so the true interval is narrower.",
    );
    let start = sensitivity.start_sentence();
    if !start.is_empty() {
        let _ = write!(skipped, "\n\n{start}");
    }
    if sensitivity.unread > 0 {
        let _ = write!(
            skipped,
            "\n\n{} of the steps change a number or reading this fight never consults at its settings \
             (the numbers of an arm, a weapon, a grade or a rule it does not have): they are the baseline, to the bit, and were not run again; \
             the kernel's tests hold every such claim by running the fight with each changed value.",
            sensitivity.unread
        );
    }
    if !sensitivity.skipped.is_empty() {
        let _ = write!(
            skipped,
            "\n\n{} steps could not be run (a value the rules refuse, such as a score past the dice); \
             the last table lists them.",
            sensitivity.skipped.len()
        );
    }
    let mut sections =
        vec![Section::text("Ranking", &skipped).with_chart(chart).with_table(ranking_table(sensitivity))];
    if !sensitivity.alternatives.is_empty() {
        sections.push(
            Section::text(
                "Interpretations and optional rules",
                "Every other reading of each interpretation, and each optional rule switched from its default, \
                 all else held, ranked by how far it moves the measure. A reading this fight never consults \
                 changes nothing.",
            )
            .with_table(alternatives_table(sensitivity)),
        );
    }
    if !sensitivity.skipped.is_empty() {
        sections.push(
            Section::text("Steps not run", "Each step the rules refuse, with why; the reason is the rules' own check.")
                .with_table(skipped_table(sensitivity)),
        );
    }
    sections.push(Section::text(
        "Method",
        &format!(
            "{} The data (data.csv, data.parquet) holds every run's rows of the measured metric, `{}`: the \
             other metrics of hundreds of variant runs would make it megabytes without bearing on the ranking.",
            method_text(experiment, &played(&sensitivity.runs)),
            sensitivity.measure.metric()
        ),
    ));
    let report = Report {
        title: format!("{} {}: which rules matter", experiment.ruleset, experiment.scenario.name),
        question: format!("Which printed numbers and readings move {} most?", sensitivity.measure.plain()),
        finding: sensitivity.finding(),
        sections,
        pages: None,
    };
    let data = long_frame(&sensitivity.runs, experiment.confidence)?;
    Ok((report, only_metric(&data, sensitivity.measure.metric())?))
}

/// A change as a designer reads it: signed percentage points for a
/// probability (with its interval where sampled), else the signed value.
fn change_text(change: f64, ci_low: f64, ci_high: f64, percent: bool) -> String {
    let one = |v: f64| if percent { format!("{:+.1}", v * 100.0) } else { format!("{v:+.3}") };
    if (ci_high - ci_low).abs() < 1e-12 {
        one(change)
    } else {
        format!("{} ({} to {})", one(change), one(ci_low), one(ci_high))
    }
}

/// The sensitivity ranking as a printed table: the fields the tornado shows
/// (those that move the measure, largest first), each step on a row, with
/// the measure there and the change from the printed value; data.csv holds
/// every field.
fn ranking_table(sensitivity: &Sensitivity) -> Table {
    let moving = sensitivity.rows.iter().filter(|r| r.largest_change() > 0.0).take(crate::charts::TORNADO_MAX_ROWS);
    let steps = moving.flat_map(|row| {
        [&row.down, &row.up].into_iter().flatten().map(|step| {
            let tried = [row.field.clone(), row.baseline.to_string(), step.value.to_string()];
            (tried, step.estimate, (step.change, step.ci_low, step.ci_high))
        })
    });
    changes_table(sensitivity, ["rule field", "printed", "tried"], steps)
}

/// Each interpretation's other readings and each optional rule switched,
/// as a printed table: the reading, its default, the one tried, the measure
/// there and the change.
fn alternatives_table(sensitivity: &Sensitivity) -> Table {
    let readings = sensitivity
        .alternatives
        .iter()
        .map(|a| ([a.field.clone(), a.baseline.clone(), a.value.clone()], a.estimate, (a.change, a.ci_low, a.ci_high)));
    changes_table(sensitivity, ["reading", "default", "tried"], readings)
}

/// A table of what was tried (three columns named by `tried`), the measure
/// there and the change from the printed rules with its interval.
fn changes_table(
    sensitivity: &Sensitivity,
    tried: [&str; 3],
    rows: impl Iterator<Item = ([String; 3], Estimate, (f64, f64, f64))>,
) -> Table {
    let percent = sensitivity.measure.is_probability();
    let mut columns: Vec<String> = tried.iter().map(|c| c.to_string()).collect();
    columns.push(capitalised(&sensitivity.measure.plain()));
    columns.push(if percent { "change (points)".to_string() } else { "change".to_string() });
    let rows = rows
        .map(|(what, estimate, (change, low, high))| {
            let mut row = what.to_vec();
            row.push(format_value(estimate.value, percent));
            row.push(change_text(change, low, high, percent));
            row
        })
        .collect();
    Table::new(columns, rows)
}

/// The steps not run, grouped by why: one row per reason, listing the
/// fields and values it refused.
fn skipped_table(sensitivity: &Sensitivity) -> Table {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for step in &sensitivity.skipped {
        // The rules' check names the field and value first; the reason is
        // what follows, shared by every field it refuses alike.
        let reason = step.reason.rsplit_once(": ").map_or(step.reason.as_str(), |(_, why)| why).to_string();
        let what = format!("{} = {}", step.field, step.value);
        match groups.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, steps)) => steps.push(what),
            None => groups.push((reason, vec![what])),
        }
    }
    Table::new(
        vec!["why".to_string(), "steps".to_string()],
        groups.into_iter().map(|(reason, steps)| vec![reason, steps.join(", ")]).collect(),
    )
}

/// The rows of a long frame about one metric.
fn only_metric(data: &DataFrame, metric: &str) -> PolarsResult<DataFrame> {
    only_metrics(data, &[metric])
}

/// The rows of a long frame about any of these metrics.
pub fn only_metrics(data: &DataFrame, metrics: &[&str]) -> PolarsResult<DataFrame> {
    let mask: BooleanChunked =
        data.column("metric")?.str()?.iter().map(|m| Some(m.is_some_and(|m| metrics.contains(&m)))).collect();
    data.filter(&mask)
}

/// The convergence study written up: the estimate and band against samples,
/// and its table (which is also the data).
pub fn convergence_report(
    experiment: &Experiment,
    convergence: &Convergence,
) -> Result<(Report, DataFrame), AnalysisError> {
    let chart = convergence_chart(
        "convergence",
        &format!("{} as samples grow", capitalised(&convergence.measure.plain())),
        convergence,
    );
    let frame = convergence.frame()?;
    let finding = match convergence.points.last() {
        Some(last) => {
            let p = convergence.measure.is_probability();
            let mut line = format!(
                "After {} samples {} is {} (interval {} to {})",
                last.samples,
                convergence.measure.plain(),
                format_value(last.estimate.value, p),
                format_value(last.estimate.ci_low, p),
                format_value(last.estimate.ci_high, p)
            );
            if let Some(exact) = convergence.exact {
                let _ = write!(line, "; exact {}", format_value(exact, p));
            }
            line.push('.');
            line
        }
        None => "No sample counts were run.".to_string(),
    };
    let report = Report {
        title: format!("{} {}: convergence", experiment.ruleset, experiment.scenario.name),
        question: format!("How many samples does {} need?", convergence.measure.plain()),
        finding,
        sections: vec![
            Section::text("Estimate against samples", "Each point extends the same stream of samples.")
                .with_chart(chart)
                .with_table(Table::from_frame(&frame, usize::MAX)?),
            Section::text("Method", &method_text(experiment, &[convergence.policies])),
        ],
        pages: None,
    };
    Ok((report, frame))
}

/// The contrast worth noticing first when several runs sweep one key for a
/// probability: where the key moves the measure most and where least,
/// in percentage points between its highest and lowest point. `None` for
/// one run, a mean, or runs the key moves alike (within 5 points).
pub fn contrast_sentence(sweeps: &[Sweep], x_label: &str) -> Option<String> {
    if sweeps.len() < 2 || !sweeps.iter().all(|s| s.measure.is_probability()) {
        return None;
    }
    let spread = |s: &Sweep| {
        let values = s.points.iter().map(|(_, e)| e.value);
        let (low, high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(v), h.max(v)));
        if low.is_finite() { (high - low) * 100.0 } else { 0.0 }
    };
    let most = sweeps.iter().max_by(|a, b| spread(a).total_cmp(&spread(b)))?;
    let least = sweeps.iter().min_by(|a, b| spread(a).total_cmp(&spread(b)))?;
    if spread(most) - spread(least) < 5.0 {
        return None;
    }
    Some(format!(
        "{} matters most for {} ({:.0} points between its highest and lowest) and least for {} ({:.0} points)",
        capitalised(x_label),
        most.ruleset,
        spread(most),
        least.ruleset,
        spread(least)
    ))
}

/// Sweeps of one key in several rulesets written up as lines with bands, one
/// series per ruleset, and the long frame of every run.
pub fn sweep_report(
    title: &str,
    question: &str,
    x_label: &str,
    sweeps: &[Sweep],
    confidence: f64,
) -> Result<(Report, DataFrame), AnalysisError> {
    let chart = sweep_chart("sweep", title, x_label, sweeps);
    // A point's position is its key's value unless the spec placed it on a
    // common scale (`x`); then the table shows both, the setting as `key = value`.
    let setting = |s: &Sweep, i: usize| {
        let run = s.runs.get(i)?;
        run.keys.iter().find(|(k, _)| *k == s.key).map(|(_, v)| v.clone())
    };
    let placed =
        sweeps.iter().any(|s| s.points.iter().enumerate().any(|(i, (at, _))| setting(s, i).is_some_and(|v| v != *at)));
    // Where every point was solved exactly the table prints the values alone.
    let all_exact = sweeps.iter().flat_map(|s| &s.points).all(|(_, e)| e.samples.is_none());
    let mut rows = Vec::new();
    for s in sweeps {
        for (i, (at, e)) in s.points.iter().enumerate() {
            let p = s.measure.is_probability();
            let mut row = vec![s.ruleset.clone()];
            if placed {
                row.push(format!("{} = {}", s.key, setting(s, i).unwrap_or_else(|| at.clone())));
            }
            row.extend([at.clone(), format_value(e.value, p)]);
            if !all_exact {
                row.extend([format_value(e.ci_low, p), format_value(e.ci_high, p)]);
            }
            rows.push(row);
        }
    }
    let key = sweeps.first().map_or("value", |s| s.key.as_str());
    // The first column names each line's run (its label), which may be a
    // ruleset or a variant of one.
    let mut columns = vec!["run".to_string()];
    if placed {
        columns.extend(["setting".to_string(), x_label.to_string()]);
    } else {
        columns.push(key.to_string());
    }
    if all_exact {
        columns.push("exact".to_string());
    } else {
        columns.extend(["estimate", "ci_low", "ci_high"].map(String::from));
    }
    let mut lines: Vec<String> = contrast_sentence(sweeps, x_label).into_iter().collect();
    lines.extend(sweeps.iter().filter_map(|s| sweep_sentence(s, x_label)));
    let finding = format!("{}.", lines.join(".\n"));
    let runs: Vec<Run> = sweeps.iter().flat_map(|s| s.runs.iter().cloned()).collect();
    let report = Report {
        title: title.to_string(),
        question: question.to_string(),
        finding,
        sections: vec![sweep_section(x_label, sweeps, all_exact, chart, Table::new(columns, rows))],
        pages: None,
    };
    Ok((report, long_frame(&runs, confidence)?))
}

/// The most values a sweep may have for its compact grid.
pub const GRID_MAX_COLUMNS: usize = 16;

/// A sweep's section: its chart, then a compact grid (one row per run, one
/// column per value) where the values are few, and the long table unless
/// every point is exact (then the grid holds every number already).
fn sweep_section(x_label: &str, sweeps: &[Sweep], all_exact: bool, chart: Chart, table: Table) -> Section {
    let grid = Grid::from_sweeps("run", x_label, sweeps);
    let compact = grid.columns.len() <= GRID_MAX_COLUMNS;
    let text = if all_exact { "Every point is solved exactly." } else { "" };
    let mut section = Section::text("Sweep", text).with_chart(chart);
    if compact {
        section = section.with_grid(grid);
    }
    if !(compact && all_exact) {
        section = section.with_table(table);
    }
    section
}

/// One run of a sweep in a sentence: where the measure starts and ends and,
/// where it is not monotone, its extreme.
pub fn sweep_sentence(sweep: &Sweep, x_label: &str) -> Option<String> {
    let (first, last) = (sweep.points.first()?, sweep.points.last()?);
    let p = sweep.measure.is_probability();
    let label = sweep.measure.plain();
    if sweep.points.len() == 1 {
        // One value swept: nothing rises or falls, it is what it is there.
        return Some(format!(
            "For {}, {label} is {} at {x_label} {}",
            sweep.ruleset,
            format_value(first.1.value, p),
            first.0
        ));
    }
    if sweep.points.len() > 1 && changes_nothing(sweep) {
        // A flat line drawn as if it were a result would read as one: say
        // the key does nothing here, and why where the scenario knows.
        let why = sweep
            .runs
            .iter()
            .flat_map(|run| &run.unread)
            .find(|(key, _)| *key == sweep.key)
            .map_or(String::new(), |(_, why)| format!(" ({why})"));
        let how = if sweep.points.iter().all(|(_, e)| e.samples.is_none()) {
            "the same exact value at every"
        } else {
            "no difference any test can tell at"
        };
        return Some(format!(
            "For {}, changing {} does nothing here{why}: {label} is {} with {how} {x_label} from {} to {}",
            sweep.ruleset,
            sweep.key,
            format_value(first.1.value, p),
            first.0,
            last.0
        ));
    }
    // Values that print alike read as unmoved: "rises from 42.7% to 42.7%"
    // would report a difference in digits nobody sees.
    let same = |a: f64, b: f64| format_value(a, p) == format_value(b, p);
    let direction = match last.1.value.total_cmp(&first.1.value) {
        _ if same(first.1.value, last.1.value) => "stays",
        std::cmp::Ordering::Greater => "rises",
        std::cmp::Ordering::Less => "falls",
        std::cmp::Ordering::Equal => "stays",
    };
    let mut sentence = if direction == "stays" {
        format!(
            "for {}, {label} stays at {} from {x_label} {} to {}",
            sweep.ruleset,
            format_value(first.1.value, p),
            first.0,
            last.0
        )
    } else {
        format!(
            "for {}, {label} {direction} from {} at {x_label} {} to {} at {}",
            sweep.ruleset,
            format_value(first.1.value, p),
            first.0,
            format_value(last.1.value, p),
            last.0
        )
    };
    let (low, high) = (first.1.value.min(last.1.value), first.1.value.max(last.1.value));
    if let Some(peak) = sweep
        .points
        .iter()
        .max_by(|a, b| a.1.value.total_cmp(&b.1.value))
        .filter(|m| m.1.value > high && !same(m.1.value, high))
    {
        sentence.push_str(&format!(", peaking at {} at {}", format_value(peak.1.value, p), peak.0));
    } else if let Some(dip) = sweep
        .points
        .iter()
        .min_by(|a, b| a.1.value.total_cmp(&b.1.value))
        .filter(|m| m.1.value < low && !same(m.1.value, low))
    {
        sentence.push_str(&format!(", dipping to {} at {}", format_value(dip.1.value, p), dip.0));
    }
    let mut chars = sentence.chars();
    Some(chars.next().map_or(String::new(), |c| c.to_uppercase().collect::<String>() + chars.as_str()))
}

/// Whether no two of a sweep's points differ: exact values equal to 1e-12,
/// or sampled ones that a two-sided test at the sweep's confidence cannot
/// tell apart (each pair's difference within the half-widths of both
/// intervals combined in quadrature, the normal test of two estimates).
pub fn changes_nothing(sweep: &Sweep) -> bool {
    let points: Vec<&Estimate> = sweep.points.iter().map(|(_, e)| e).collect();
    points.iter().enumerate().all(|(i, a)| {
        points[i + 1..].iter().all(|b| {
            let half = |e: &Estimate| (e.ci_high - e.ci_low) / 2.0;
            let allowed = (half(a).powi(2) + half(b).powi(2)).sqrt();
            (a.value - b.value).abs() <= allowed.max(1e-12)
        })
    })
}

/// The most values of a metric [`summary`] lists before it gives a range.
const SUMMARY_VALUES: usize = 6;

/// One metric's law in a line: each value's probability for a categorical
/// or true/false metric (or an integer one with few values), otherwise the
/// mean and the range it takes.
fn summary(dist: &Distribution, index: usize, confidence: f64) -> String {
    let metric = &dist.metrics[index];
    let marginal = dist.marginal(index);
    let listed = || {
        marginal
            .iter()
            .map(|row| format!("{} {}", metric.domain.format(row.value), format_value(row.probability, true)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match metric.domain {
        volley_kernel::outcome::Domain::Integer { .. } if marginal.len() > SUMMARY_VALUES => {
            let (mean, error) = mean_with_standard_error(dist, metric.name);
            let half = z_for_confidence(confidence) * error;
            let (low, high) = (marginal.first().map_or(0, |r| r.value), marginal.last().map_or(0, |r| r.value));
            if half > 0.0 {
                format!("mean {mean:.2} (± {half:.2}), from {low} to {high}")
            } else {
                format!("mean {mean:.2}, from {low} to {high}")
            }
        }
        _ => listed(),
    }
}

/// The first metric in a line: every value's probability for a categorical or
/// true/false metric, the mean and its interval for an integer one.
fn headline(dist: &Distribution, confidence: f64) -> String {
    let Some(metric) = dist.metrics.first() else {
        return "No metrics".to_string();
    };
    match metric.domain {
        volley_kernel::outcome::Domain::Integer { .. } => {
            let (mean, error) = mean_with_standard_error(dist, metric.name);
            let half = z_for_confidence(confidence) * error;
            if half > 0.0 {
                format!("Mean {} {mean:.2} (± {half:.2})", metric.name)
            } else {
                format!("Mean {} {mean:.2}", metric.name)
            }
        }
        // Who won, said as a person would: "the attacker wins 58.8%, the
        // defender 41.2%", with fights nobody won only where there are any.
        _ if matches!(metric.name, "winner" | "result") => {
            let share = |label: &str| {
                dist.marginal(0)
                    .iter()
                    .find(|row| metric.domain.format(row.value) == label)
                    .map_or(0.0, |row| row.probability)
            };
            let mut line = format!(
                "The attacker wins {}, the defender {}",
                format_value(share("attacker"), true),
                format_value(share("defender"), true)
            );
            for (label, words) in [("none", "nobody by the turn limit"), ("tie", "a tie")] {
                if share(label) > 0.0 {
                    let _ = write!(line, ", {words} {}", format_value(share(label), true));
                }
            }
            line
        }
        _ => {
            let values: Vec<String> = dist
                .marginal(0)
                .iter()
                .map(|row| format!("{} {}", metric.domain.format(row.value), format_value(row.probability, true)))
                .collect();
            format!("{}: {}", metric.name, values.join(", "))
        }
    }
}

/// The size of the small charts a distribution report shows two to a row.
pub const SMALL_CHART: (u32, u32) = (620, 420);

/// One scenario's outcome distribution written up: bars of the first metric
/// (who won, usually) and the cumulative distribution of `turns` at full
/// width, the other metrics as small bars two to a row, a table of what each
/// metric counts with its values in a line, and the agreement against the
/// exact solver when `exact` is given. Every row of the law is in the data
/// files, not the page, so the report prints on a few pages.
pub fn distribution_report(
    run: &Run,
    exact: Option<&Distribution>,
    confidence: f64,
) -> Result<(Report, DataFrame), AnalysisError> {
    let dist = &run.distribution;
    let mut sections = Vec::new();
    let has_turns = dist.metric_index("turns").is_some();
    let bars =
        |metric: &str| distribution_bars(metric, &format!("{}: {}", run.scenario, metric), dist, metric, confidence);
    // The first metric and, where the fight has turns, the chance it is
    // decided by each turn, side by side.
    if let Some(first) = dist.metrics.first() {
        let mut section = Section::text(first.name, first.doc);
        let headline_size = if has_turns { SMALL_CHART } else { DEFAULT_SIZE };
        section = section.with_chart(bars(first.name)?.with_size(headline_size.0, headline_size.1));
        if has_turns {
            let cdf = cdf_chart(
                "turns-cdf",
                "Turns to a decision",
                &[(run.ruleset.clone(), dist)],
                "turns",
                "turns",
                confidence,
            )?;
            section.text.push_str(" Beside it, the chance that the fight is decided by each turn.");
            section = section.with_chart(cdf.with_size(SMALL_CHART.0, SMALL_CHART.1));
        }
        sections.push(section);
    }
    let mut others = Section::text(
        "Every measure",
        "What each measure counts at the end, in a line; the charts show the rest, and data.csv every value's \
         probability and interval.",
    );
    for metric in dist.metrics.iter().skip(1).filter(|m| !(has_turns && m.name == "turns")) {
        others = others.with_chart(bars(metric.name)?.with_size(SMALL_CHART.0, SMALL_CHART.1));
    }
    let rows = dist
        .metrics
        .iter()
        .enumerate()
        .map(|(index, metric)| vec![metric.name.to_string(), metric.doc.to_string(), summary(dist, index, confidence)])
        .collect();
    sections.push(others.with_table(Table::new(
        vec!["measure".to_string(), "what it counts".to_string(), "at the end".to_string()],
        rows,
    )));
    let mut finding = headline(dist, confidence);
    match dist.samples() {
        Some(n) => {
            let _ = write!(finding, " ({n} Monte Carlo samples)");
        }
        None => finding.push_str(" (exact)"),
    }
    if let (Some(exact), Some(_)) = (exact, dist.samples()) {
        let verdict = agreement(dist, exact);
        let _ = write!(
            finding,
            "; against the exact solver chi-square {:.1} on {} degrees of freedom (p = {:.3}), largest z {:.2}",
            verdict.chi_square, verdict.dof, verdict.p_value, verdict.max_z
        );
    }
    finding.push('.');
    let frame = long_frame(std::slice::from_ref(run), confidence)?;
    let keys: Vec<String> = run.keys.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let report = Report {
        title: format!("{} {}: outcomes", run.ruleset, run.scenario),
        question: if keys.is_empty() {
            format!("What are the outcomes of {}?", run.scenario)
        } else {
            format!("What are the outcomes of {} with {}?", run.scenario, keys.join(", "))
        },
        finding,
        sections,
        pages: None,
    };
    Ok((report, frame))
}
