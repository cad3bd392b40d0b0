//! `volley report`: every spec in analyses/, each into its report folder, and
//! an index linking them. Every spec is checked before any runs, so a typo in
//! the last one costs seconds, not minutes.

use super::run::{Overrides, execute, output_dir, prepare, spec_files, writing};
use crate::error::bad_input;
use crate::spec;
use std::path::Path;
use volley_analysis::report::{IndexEntry, write_index, write_report};

/// Runs every spec and writes the reports and the index.
pub fn run(analyses: &Path, out: &Path, overrides: &Overrides) -> anyhow::Result<()> {
    let files = spec_files(analyses)?;
    let mut specs = Vec::with_capacity(files.len());
    for file in &files {
        let loaded = spec::load(file)?;
        let prepared = prepare(&loaded)?;
        specs.push((loaded, prepared));
    }
    output_dir(out)?;
    let mut entries = Vec::with_capacity(specs.len());
    for (loaded, prepared) in &specs {
        let started = std::time::Instant::now();
        let (report, data) = execute(loaded, prepared, overrides)?;
        let dir = out.join(&loaded.stem);
        write_report(&dir, &report, &data).map_err(|e| writing(&dir, e))?;
        if !overrides.quiet {
            eprintln!("{:<28} {:>6.1}s  {}", loaded.stem, started.elapsed().as_secs_f64(), report.finding);
        }
        entries.push(IndexEntry::of(&loaded.stem, &report));
    }
    write_index(out, &entries).map_err(|e| writing(&out.join("index.html"), e))?;
    if entries.is_empty() {
        return Err(bad_input(format!("{} holds no analyses", analyses.display())));
    }
    Ok(())
}
