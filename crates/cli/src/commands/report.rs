//! `volley report`: every spec in analyses/, each into its report folder;
//! one printable playsheet page per ruleset from the playsheet specs; and an
//! index of cards grouped by the question a user brings. Every spec is checked
//! completely before any runs, so a typo in the last one costs seconds, not
//! minutes, and writes nothing.

use super::run::{Overrides, execute_beside, output_dir, prepare, spec_files, writing};
use crate::spec::{self, GROUPS};
use indicatif::MultiProgress;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use volley_analysis::balance::capitalised;
use volley_analysis::playsheet::{Sheet, write_playsheet};
use volley_analysis::report::{IndexEntry, write_index, write_report};
use volley_kernel::catalogue;

/// Analyses run at once: two overlap one's serial stretches with the
/// other's work on a two-core machine; more would only add memory.
const LANES: usize = 2;

/// The folder of the playsheet pages, inside the reports folder.
pub const PLAYSHEETS: &str = "playsheets";

/// Runs every spec and writes the reports, the playsheets and the index.
pub fn run(analyses: &Path, out: &Path, overrides: &Overrides) -> anyhow::Result<()> {
    let files = spec_files(analyses)?;
    let mut specs = Vec::with_capacity(files.len());
    for file in &files {
        let loaded = spec::load(file)?;
        let prepared = prepare(&loaded)?;
        specs.push((loaded, prepared));
    }
    output_dir(out)?;
    let mut groups: BTreeMap<&str, Vec<IndexEntry>> = BTreeMap::new();
    // Ruleset -> (its playsheet's tables, the index entries of their reports).
    let mut sheets: BTreeMap<String, Vec<(Sheet, IndexEntry)>> = BTreeMap::new();
    // Analyses run side by side, `LANES` at a time (one with `--threads 1`):
    // each is its own seeded runs, so the numbers are those of one after
    // another, and a solver's serial stretches in one overlap the other's
    // work. Each writes its own folder; they are listed, and the index
    // built, in spec order as they finish. After a failure no more start;
    // the lanes take specs in order, so every spec before a failed one has
    // started and will report, and the first failure in spec order is the
    // one returned.
    let lanes = if overrides.threads == 1 { 1 } else { LANES };
    let bars = MultiProgress::new();
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (done, finished) = mpsc::channel();
    let mut reports = Vec::with_capacity(specs.len());
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..lanes {
            let done = done.clone();
            let (specs, bars, next, failed) = (&specs, &bars, &next, &failed);
            scope.spawn(move || {
                while !failed.load(Ordering::Relaxed) {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some((loaded, prepared)) = specs.get(k) else { return };
                    let started = std::time::Instant::now();
                    let result = execute_beside(loaded, prepared, overrides, Some(bars)).and_then(|(report, data)| {
                        let dir = out.join(&loaded.stem);
                        write_report(&dir, &report, &data).map_err(|e| writing(&dir, e))?;
                        Ok(report)
                    });
                    failed.fetch_or(result.is_err(), Ordering::Relaxed);
                    if done.send((k, started.elapsed(), result)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done);
        let mut waiting = BTreeMap::new();
        for (k, elapsed, result) in finished {
            waiting.insert(k, (elapsed, result));
            while let Some((elapsed, result)) = waiting.remove(&reports.len()) {
                let report = result?;
                if !overrides.quiet {
                    let line = format!(
                        "{:<28} {:>6.1}s  {}",
                        specs[reports.len()].0.stem,
                        elapsed.as_secs_f64(),
                        report.finding
                    );
                    if std::io::stderr().is_terminal() { bars.println(line)? } else { eprintln!("{line}") }
                }
                reports.push(report);
            }
        }
        Ok(())
    })?;
    for ((loaded, _), report) in specs.iter().zip(&reports) {
        let entry = IndexEntry::of(&loaded.stem, report);
        let group = loaded.spec.group(&loaded.stem);
        let grid = report.sections.iter().find_map(|s| s.grid.clone());
        match (group, grid) {
            ("playsheet", Some(grid)) => {
                let ruleset = loaded.spec.runs[0].ruleset.get_ref().clone();
                // On the ruleset's own page its name need not open each heading.
                let title = report.title.split_once(": ").map_or(report.title.as_str(), |(_, t)| t);
                let sheet = Sheet {
                    title: capitalised(title),
                    question: report.question.clone(),
                    grid,
                    rule: loaded.spec.rule.clone().unwrap_or_default(),
                    report: format!("../{}/report.html", loaded.stem),
                };
                sheets.entry(ruleset).or_default().push((sheet, entry));
            }
            _ => groups
                .entry(GROUPS.iter().map(|(n, _)| *n).find(|n| *n == group).unwrap_or("quality"))
                .or_default()
                .push(entry),
        }
    }
    for (ruleset, pages) in &sheets {
        let title = catalogue::ruleset(ruleset).map_or_else(|_| ruleset.clone(), |r| r.title.to_string());
        let name = format!("{ruleset}.html");
        let path = out.join(PLAYSHEETS).join(&name);
        let tables: Vec<Sheet> = pages.iter().map(|(sheet, _)| sheet.clone()).collect();
        write_playsheet(&path, &format!("{title}: playsheet"), &tables).map_err(|e| writing(&path, e))?;
        let titles: Vec<String> = pages.iter().map(|(sheet, _)| sheet.title.to_lowercase()).collect();
        groups.entry("playsheet").or_default().push(IndexEntry {
            link: format!("{PLAYSHEETS}/{name}"),
            title: format!("{title} playsheet"),
            question: format!("Which odds does a {title} player want beside the table?"),
            finding: format!("One A4 page, exact odds: {}.", titles.join("; ")),
            thumbnail: pages.iter().find_map(|(_, e)| e.thumbnail.clone()),
            also: pages.iter().map(|(sheet, e)| (sheet.title.clone(), e.link.clone())).collect(),
        });
    }
    let index: Vec<(String, Vec<IndexEntry>)> =
        GROUPS.iter().map(|(name, heading)| (heading.to_string(), groups.remove(name).unwrap_or_default())).collect();
    write_index(out, &index).map_err(|e| writing(&out.join("index.html"), e))?;
    let stems: Vec<&str> = specs.iter().map(|(loaded, _)| loaded.stem.as_str()).collect();
    for stale in stale_reports(out, &stems)? {
        std::fs::remove_dir_all(&stale).map_err(|e| anyhow::anyhow!("removing {}: {e}", stale.display()))?;
        if !overrides.quiet {
            eprintln!("removed {}: its spec is no longer in {}", stale.display(), analyses.display());
        }
    }
    Ok(())
}

/// The report folders in `out` that no spec wrote: folders holding a
/// `report.md` and a `report.html` (what volley writes, so never a folder
/// of the user's own) whose name is no spec's stem, left by a spec since
/// renamed or removed; the index no longer links them.
fn stale_reports(out: &Path, stems: &[&str]) -> anyhow::Result<Vec<std::path::PathBuf>> {
    let mut stale = Vec::new();
    for entry in std::fs::read_dir(out).map_err(|e| anyhow::anyhow!("reading {}: {e}", out.display()))? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else { continue };
        if !path.is_dir() || name.starts_with('.') || name == PLAYSHEETS || stems.contains(&name) {
            continue;
        }
        if path.join("report.md").is_file() && path.join("report.html").is_file() {
            stale.push(path);
        }
    }
    stale.sort();
    Ok(stale)
}
