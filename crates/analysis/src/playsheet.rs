//! Playsheets: what a player prints and keeps beside the table. A sweep
//! becomes a compact grid (one row per run, one column per value of the swept
//! key, each cell shaded by its value), and every grid of one ruleset goes on
//! one A4 page with the rules' section under each.

use crate::balance::Sweep;
use crate::report::escape;
use std::fmt::Write as _;

/// A compact grid of numbers: rows by run, columns by a key's value.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// What the rows are (`quality`, `weapon`).
    pub row_title: String,
    /// What the columns are (the swept key, `net Ups and Downs`).
    pub column_title: String,
    /// The column headers, in order of first appearance.
    pub columns: Vec<String>,
    /// (row label, one cell per column; `None` where the row has no such value).
    pub rows: Vec<(String, Vec<Option<f64>>)>,
    /// Whether the cells are probabilities (printed as percentages).
    pub percent: bool,
}

impl Grid {
    /// The grid of sweeps: a row per sweep (named by its run's label) and a
    /// column per value any of them took.
    pub fn from_sweeps(row_title: &str, column_title: &str, sweeps: &[Sweep]) -> Grid {
        let mut columns: Vec<String> = Vec::new();
        for (value, _) in sweeps.iter().flat_map(|s| &s.points) {
            if !columns.contains(value) {
                columns.push(value.clone());
            }
        }
        let rows = sweeps
            .iter()
            .map(|s| {
                let cells =
                    columns.iter().map(|c| s.points.iter().find(|(v, _)| v == c).map(|(_, e)| e.value)).collect();
                (s.ruleset.clone(), cells)
            })
            .collect();
        let percent = sweeps.iter().all(|s| s.measure.is_probability());
        Grid { row_title: row_title.to_string(), column_title: column_title.to_string(), columns, rows, percent }
    }

    /// A cell as printed: a whole percentage (a player needs no more), or a
    /// mean to two decimals.
    pub fn cell_text(&self, value: f64) -> String {
        if self.percent {
            let p = value * 100.0;
            // Certain and impossible read as such; near them "<1%" or
            // ">99%", never a rounded 0% or 100% for what can still happen.
            match p {
                _ if p <= 0.0 || p >= 100.0 => format!("{p:.0}%"),
                _ if p < 0.5 => "<1%".to_string(),
                _ if p >= 99.5 => ">99%".to_string(),
                _ => format!("{p:.0}%"),
            }
        } else {
            format!("{value:.2}")
        }
    }

    /// How dark a cell is, from 0 (white) to 1: a probability itself, a mean
    /// against the grid's largest.
    fn shade(&self, value: f64) -> f64 {
        if self.percent {
            value.clamp(0.0, 1.0)
        } else {
            let max = self.rows.iter().flat_map(|(_, c)| c.iter().flatten()).fold(0.0_f64, |m, v| m.max(*v));
            if max > 0.0 { (value / max).clamp(0.0, 1.0) } else { 0.0 }
        }
    }

    /// The grid as an HTML table with shaded cells.
    pub fn html(&self) -> String {
        // Two header rows: what the columns are, over their values; the
        // corner names what the rows are.
        let mut out = String::from("<table class=\"grid\">\n<thead><tr>");
        let _ = write!(
            out,
            "<th class=\"corner\" rowspan=\"2\">{}</th><th class=\"across\" colspan=\"{}\">{}</th></tr>\n<tr>",
            escape(&self.row_title),
            self.columns.len().max(1),
            escape(&self.column_title)
        );
        // Keys' values read as words (`line_infantry` as "line infantry").
        let words = |text: &str| escape(&text.replace('_', " "));
        for column in &self.columns {
            let _ = write!(out, "<th>{}</th>", words(column));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for (label, cells) in &self.rows {
            let _ = write!(out, "<tr><th>{}</th>", words(label));
            for cell in cells {
                match cell {
                    Some(v) => {
                        let shade = self.shade(*v);
                        // One blue from near white to deep; text turns
                        // white where the cell is dark enough to need it.
                        let lightness = 97.0 - 55.0 * shade;
                        let ink = if lightness < 62.0 { "#fff" } else { "#111" };
                        let _ = write!(
                            out,
                            "<td style=\"background: hsl(205, 65%, {lightness:.0}%); color: {ink}\">{}</td>",
                            self.cell_text(*v)
                        );
                    }
                    None => out.push_str("<td class=\"none\">–</td>"),
                }
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
        out
    }

    /// The grid as a Markdown table.
    pub fn markdown(&self) -> String {
        let mut out = format!("| {} \\ {} |", self.row_title, self.column_title);
        for column in &self.columns {
            let _ = write!(out, " {column} |");
        }
        let _ = write!(out, "\n|{}\n", " --- |".repeat(self.columns.len() + 1));
        for (label, cells) in &self.rows {
            let _ = write!(out, "| {label} |");
            for cell in cells {
                let text = cell.map_or_else(|| "–".to_string(), |v| self.cell_text(v));
                let _ = write!(out, " {text} |");
            }
            out.push('\n');
        }
        out
    }
}

/// One table of a playsheet page.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    /// Its heading.
    pub title: String,
    /// What it answers.
    pub question: String,
    /// The numbers.
    pub grid: Grid,
    /// The rules' section a player reads with it.
    pub rule: String,
    /// The report it comes from, relative to the page.
    pub report: String,
}

/// Print styles of a playsheet: one A4 page, small type, compact grids, and
/// shading that prints (browsers drop backgrounds unless asked not to).
pub const PLAYSHEET_CSS: &str = "
@page { size: A4 portrait; margin: 9mm; }
* { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { font-family: 'DejaVu Sans', Helvetica, Arial, sans-serif; font-size: 9pt; line-height: 1.25; color: #111;
       max-width: 192mm; margin: 0 auto; }
h1 { font-size: 14pt; margin: 0 0 1mm; }
p.lead { margin: 0 0 3mm; color: #444; }
div.sheets { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); grid-auto-flow: row dense;
              column-gap: 5mm; row-gap: 3.5mm; align-items: start; }
section.sheet { break-inside: avoid; page-break-inside: avoid; }
section.sheet.wide { grid-column: 1 / -1; }
h2 { font-size: 11pt; margin: 0 0 0.8mm; }
p.question { margin: 0 0 1.2mm; color: #333; font-style: italic; }
table.grid { border-collapse: collapse; font-size: 9pt; margin: 0 0 1.2mm; }
table.grid th, table.grid td { border: 1px solid #999; padding: 0.7mm 0.8mm; text-align: center; min-width: 8mm; }
table.grid thead th { background: #e8e8e8; }
table.grid th.across { font-weight: normal; font-style: italic; }
table.grid tbody th { text-align: left; background: #f4f4f4; font-weight: normal; white-space: nowrap; }
table.grid th.corner { text-align: left; vertical-align: bottom; font-weight: normal; font-style: italic; }
table.grid td.none { color: #999; }
p.rule { margin: 0; font-size: 8.5pt; color: #333; border-left: 2px solid #999; padding-left: 1.5mm; }
p.source { font-size: 8pt; color: #666; margin: 3mm 0 0; }
@media screen { body { margin: 1em auto; padding: 0 1em; } }
@media print { a { color: inherit; text-decoration: none; } }
";

/// The most value columns a grid may have and still share the page's width
/// with another; a wider one takes the whole width.
pub const HALF_PAGE_COLUMNS: usize = 7;

/// One ruleset's playsheet as a self-contained HTML page meant to print on
/// one A4 page: its grids two to a row where they fit.
pub fn playsheet_html(title: &str, sheets: &[Sheet]) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n\
         <style>{PLAYSHEET_CSS}</style>\n</head>\n<body>\n<h1>{}</h1>\n\
         <p class=\"lead\">Exact odds from the printed rules; darker is likelier (or more).</p>\n",
        escape(title),
        escape(title)
    );
    out.push_str("<div class=\"sheets\">\n");
    for sheet in sheets {
        let _ = write!(
            out,
            "<section class=\"sheet{}\">\n<h2><a href=\"{}\">{}</a></h2>\n<p class=\"question\">{}</p>\n{}",
            if sheet.grid.columns.len() > HALF_PAGE_COLUMNS { " wide" } else { "" },
            escape(&sheet.report),
            escape(&sheet.title),
            escape(&sheet.question),
            sheet.grid.html()
        );
        if !sheet.rule.trim().is_empty() {
            let _ = writeln!(out, "<p class=\"rule\">{}</p>", escape(sheet.rule.trim()));
        }
        out.push_str("</section>\n");
    }
    out.push_str("</div>\n");
    let _ = writeln!(
        out,
        "<p class=\"source\">Made by volley {} with `volley report`; each heading links to its report, \
         which records how its numbers were made.</p>\n</body>\n</html>",
        crate::provenance::VERSION
    );
    out
}

/// Writes one ruleset's playsheet page to `path` (through a temporary file
/// renamed into place).
pub fn write_playsheet(path: &std::path::Path, title: &str, sheets: &[Sheet]) -> Result<(), crate::AnalysisError> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    Ok(crate::frame::write_bytes_atomically(path, playsheet_html(title, sheets).as_bytes())?)
}
