//! Report folders and the index: every file written, nothing half-written.

use crate::frames::{dice_run, scratch_dir};
use volley_analysis::charts::distribution_bars;
use volley_analysis::frame::{long_frame, read_parquet};
use volley_analysis::report::{IndexEntry, Report, Section, Table, write_index, write_report};

fn report() -> (Report, polars::prelude::DataFrame) {
    let run = dice_run("sum", &[("dice", "2d6")], 3_000);
    let frame = long_frame(std::slice::from_ref(&run), 0.95).unwrap();
    let chart = distribution_bars("totals", "Two dice <totals>", &run.distribution, "total", 0.95).unwrap();
    let report = Report {
        title: "Two dice & their totals".into(),
        question: "How often do two dice make 7?".into(),
        finding: "A 7 comes up one time in six.".into(),
        sections: vec![
            Section::text("Totals", "Each total with its interval.\n\nSecond paragraph.")
                .with_table(Table::from_frame(&frame, 5).unwrap())
                .with_chart(chart),
        ],
    };
    (report, frame)
}

#[test]
fn a_report_folder_has_every_file_and_reads_back() {
    let root = scratch_dir("report");
    let dir = root.join("dice-totals");
    let (report, frame) = report();
    write_report(&dir, &report, &frame).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["data.csv", "data.parquet", "report.html", "report.md", "totals.png", "totals.svg"]);
    assert!(read_parquet(&dir.join("data.parquet")).unwrap().equals_missing(&frame));

    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(markdown.starts_with("# Two dice & their totals\n"));
    assert!(markdown.contains("| ruleset | scenario | dice | metric | value | count | probability | ci_low | ci_high | exact |"));
    assert!(markdown.contains("| dice | sum | 2d6 | total | 2 |"));
    assert!(markdown.contains("![Two dice <totals>](totals.svg)"));

    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("<title>Two dice &amp; their totals</title>"));
    assert!(html.contains("@page { size: A4"));
    assert!(html.contains("<svg"), "the chart is inline");
    assert!(html.contains("<p>Second paragraph.</p>"));
    assert_eq!(html.matches("<tr><td>dice</td>").count(), 5);

    // Writing again replaces the folder whole, and leaves no temporary behind.
    write_report(&dir, &report, &frame).unwrap();
    let siblings: Vec<String> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(siblings, ["dice-totals"]);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_failed_report_leaves_the_old_one_alone() {
    let root = scratch_dir("failed-report");
    let dir = root.join("dice-totals");
    let (report, frame) = report();
    write_report(&dir, &report, &frame).unwrap();
    let before = std::fs::read_to_string(dir.join("report.md")).unwrap();

    let mut broken = report.clone();
    broken.title = "Changed".into();
    let again = broken.sections[0].charts[0].clone();
    broken.sections[0].charts.push(again);
    assert!(write_report(&dir, &broken, &frame).is_err(), "two charts of one name");
    let mut zero_size = report.clone();
    zero_size.title = "Changed".into();
    zero_size.sections[0].charts[0] = zero_size.sections[0].charts[0].clone().with_size(0, 0);
    assert!(write_report(&dir, &zero_size, &frame).is_err(), "a chart that cannot be drawn");

    assert_eq!(std::fs::read_to_string(dir.join("report.md")).unwrap(), before);
    let siblings: Vec<String> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(siblings, ["dice-totals"]);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_index_links_every_report_with_its_finding() {
    let root = scratch_dir("index");
    let entries = [
        IndexEntry { folder: "ladder-huzzah".into(), title: "Huzzah! quality ladder".into(), finding: "Veterans beat trained 3 times in 4.".into() },
        IndexEntry { folder: "rifles".into(), title: "Is +5 for rifles <too much>?".into(), finding: "Yes.".into() },
    ];
    write_index(&root, &entries).unwrap();
    let html = std::fs::read_to_string(root.join("index.html")).unwrap();
    assert!(html.contains("<a href=\"ladder-huzzah/report.html\">Huzzah! quality ladder</a>"));
    assert!(html.contains("Veterans beat trained 3 times in 4."));
    assert!(html.contains("Is +5 for rifles &lt;too much&gt;?"));
    std::fs::remove_dir_all(&root).unwrap();
}
