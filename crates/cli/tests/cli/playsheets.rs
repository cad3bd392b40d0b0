//! Playsheets: the shipped playsheet specs make one page per ruleset of
//! compact shaded grids with the rule under each, and each page prints on
//! one A4 sheet in a real browser (headless Chromium).

use super::printing::printed;
use super::{TempDir, path, volley_ok};
use std::path::Path;

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
    let passing = huzzah.split("Passing a test</a></h2>").nth(1).expect("the passing grid");
    let trained = passing.split("<tr><th>trained</th>").nth(1).unwrap();
    let cells: Vec<&str> = trained.split("</tr>").next().unwrap().split("</td>").collect();
    assert!(cells[3].ends_with(">72%"), "{:?}", cells);
    assert!(huzzah.contains("hsl(205, 65%"), "cells are shaded");
    // Plain headers: what the rows are in the corner, what the columns are
    // over their values, never `run \ key`.
    assert!(huzzah.contains("<th class=\"corner\" rowspan=\"2\">quality</th>"), "{huzzah}");
    assert!(huzzah.contains(">net Ups and Downs</th>") && !huzzah.contains(" \\ "), "{huzzah}");
    // What a player looks up besides tests: engagement odds and the order chain.
    assert!(huzzah.contains("Winning an engagement") && huzzah.contains("Getting orders through"), "{huzzah}");
    // A Brigades volley as the chance of at least N hits: 12 muskets at close
    // range roll 3 D10s (one per 4 figures), each hitting a normal target on
    // 7 or more (4 in 10), so at least one hit is 1 - 0.6^3 = 78.4%, printed 78%.
    let brigades = std::fs::read_to_string(out.join("playsheets/brigades.html")).unwrap();
    let close = brigades.split("Musket volley at close range</a></h2>").nth(1).expect("the close-range grid");
    let one = close.split("<tr><th>1+</th>").nth(1).expect("a row for 1+ hits");
    assert!(one.split("</td>").next().unwrap().ends_with(">78%"), "{one}");
    assert!(huzzah.contains("A roll of 11 or 12 always fails"), "the rule is under the table");
    assert!(huzzah.contains("size: A4"), "print CSS");

    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    for ruleset in ["huzzah", "brigades", "one_hour", "hougoumont"] {
        let page = out.join("playsheets").join(format!("{ruleset}.html"));
        assert!(page.is_file(), "{ruleset}");
        assert!(index.contains(&format!("playsheets/{ruleset}.html")), "{ruleset} has a card");
        let pages = printed(&page, &dir.0);
        assert_eq!(pages.len(), 1, "{ruleset}'s playsheet must print on one A4 page");
        assert!(pages[0].right_margin_is_clear(), "{ruleset}'s playsheet runs into the right margin");
    }
}
