//! Playsheets: the shipped playsheet specs make one page per ruleset of
//! compact shaded grids with the rule under each, and each page prints on
//! one A4 sheet in a real browser (headless Chromium).

use super::{TempDir, path, volley_ok};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The shipped playsheet specs, copied to `dir` (only these, so the test
/// runs in seconds).
fn playsheet_specs(dir: &Path) -> Vec<String> {
    let analyses = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../analyses");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(analyses).unwrap() {
        let file = entry.unwrap().path();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("playsheet-") && name.ends_with(".toml") {
            std::fs::copy(&file, dir.join(&name)).unwrap();
            names.push(name);
        }
    }
    names.sort();
    names
}

/// Headless Chromium: `VOLLEY_CHROMIUM`, else the first of the usual names
/// on PATH. CI (`.ci/run`) installs Debian's `chromium` when it is missing.
pub fn chromium() -> PathBuf {
    super::program(
        "VOLLEY_CHROMIUM",
        &["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"],
        "the browser tests need headless Chromium",
    )
}

/// Prints an HTML file to PDF as a reader would (A4 from the page's own
/// @page rule) and returns the PDF's page count.
fn printed_pages(html: &Path, scratch: &Path) -> usize {
    let pdf = scratch.join(format!("{}.pdf", html.file_stem().unwrap().to_string_lossy()));
    let profile = scratch.join("chromium-profile");
    let output = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--no-pdf-header-footer",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(format!("file://{}", html.canonicalize().unwrap().display()))
        .output()
        .expect("chromium runs");
    assert!(pdf.is_file(), "chromium wrote no PDF: {}", String::from_utf8_lossy(&output.stderr));
    let bytes = std::fs::read(&pdf).unwrap();
    // Each page is one `/Type /Page` object (the page tree is `/Pages`).
    let text = String::from_utf8_lossy(&bytes);
    text.matches("/Type /Page").count() - text.matches("/Type /Pages").count()
}

#[test]
fn each_ruleset_gets_one_printed_a4_page_of_shaded_grids_with_their_rules() {
    let dir = TempDir::new("playsheets");
    let specs = dir.0.join("analyses");
    std::fs::create_dir_all(&specs).unwrap();
    let names = playsheet_specs(&specs);
    assert!(names.len() >= 4, "{names:?}");
    let out = dir.0.join("out");
    volley_ok(&["report", "--analyses", path(&specs), "--out", path(&out), "--quiet"]);

    let huzzah = std::fs::read_to_string(out.join("playsheets/huzzah.html")).unwrap();
    // A Huzzah! test: a row per quality, a column per net Up or Down from
    // -3 to +3; Trained at 0 passes on 2-8 of 2D6, 26 in 36.
    let header: String = (-3..=3).map(|v| format!("<th>{v}</th>")).collect();
    assert!(huzzah.contains(&header), "{huzzah}");
    assert!(huzzah.contains("<tr><th>trained</th>"), "{huzzah}");
    let passing = huzzah.split("passing a test</a></h2>").nth(1).expect("the passing grid");
    let trained = passing.split("<tr><th>trained</th>").nth(1).unwrap();
    let cells: Vec<&str> = trained.split("</tr>").next().unwrap().split("</td>").collect();
    assert!(cells[3].ends_with(">72%"), "{:?}", cells);
    assert!(huzzah.contains("hsl(205, 65%"), "cells are shaded");
    assert!(huzzah.contains("A roll of 11 or 12 always fails"), "the rule is under the table");
    assert!(huzzah.contains("size: A4"), "print CSS");

    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    for ruleset in ["huzzah", "brigades", "one_hour", "hougoumont"] {
        let page = out.join("playsheets").join(format!("{ruleset}.html"));
        assert!(page.is_file(), "{ruleset}");
        assert!(index.contains(&format!("playsheets/{ruleset}.html")), "{ruleset} has a card");
        assert_eq!(printed_pages(&page, &dir.0), 1, "{ruleset}'s playsheet must print on one A4 page");
    }
}
