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
        pages: None,
    };
    (report, frame)
}

#[test]
fn a_report_folder_has_every_file_and_reads_back() {
    let root = scratch_dir("report");
    let dir = root.join("dice-totals");
    let (report, frame) = report();
    write_report(&dir, &report, &frame).unwrap();
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(
        names,
        ["data.csv", "data.parquet", "report.html", "report.md", "thumbnail.png", "totals.png", "totals.svg"]
    );
    assert!(read_parquet(&dir.join("data.parquet")).unwrap().equals_missing(&frame));

    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(markdown.starts_with("# Two dice & their totals\n"));
    assert!(
        markdown.contains(
            "| ruleset | scenario | dice | metric | value | count | probability | ci_low | ci_high | exact |"
        )
    );
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
    let siblings: Vec<String> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(siblings, ["dice-totals"]);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn leftovers_of_a_killed_run_are_removed_and_concurrent_writers_both_finish() {
    let root = scratch_dir("leftovers");
    let dir = root.join("dice-totals");
    // A process that no longer runs: pid numbers wrap far below this.
    let dead = u32::MAX - 7;
    for leftover in [format!(".dice-totals.tmp-{dead}-0"), format!(".dice-totals.old-{dead}-3")] {
        std::fs::create_dir_all(root.join(&leftover).join("inner")).unwrap();
    }
    std::fs::write(root.join(format!(".index.html.tmp-{dead}-1")), "half").unwrap();
    let (report, frame) = report();
    write_report(&dir, &report, &frame).unwrap();
    let siblings = |root: &std::path::Path| -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(root).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        names
    };
    assert_eq!(siblings(&root), [format!(".index.html.tmp-{dead}-1"), "dice-totals".to_string()]);
    write_index(&root, &[]).unwrap();
    assert_eq!(siblings(&root), ["dice-totals", "index.html"]);

    // Four writers of one folder at once, five times each: every write
    // succeeds and the folder ends whole, with no leftovers beside it.
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                for _ in 0..5 {
                    write_report(&dir, &report, &frame).unwrap();
                }
            });
        }
    });
    assert_eq!(siblings(&root), ["dice-totals", "index.html"]);
    assert!(std::fs::read_to_string(dir.join("report.md")).unwrap().starts_with("# Two dice"));
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
    let siblings: Vec<String> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(siblings, ["dice-totals"]);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_index_shows_a_card_per_report_under_its_question() {
    let root = scratch_dir("index");
    let card = |link: &str, title: &str, finding: &str, thumbnail: Option<&str>| IndexEntry {
        link: link.into(),
        title: title.into(),
        question: format!("Question of {title}?"),
        finding: finding.into(),
        thumbnail: thumbnail.map(String::from),
        also: Vec::new(),
    };
    let long = "word ".repeat(200);
    let groups = vec![
        (
            "Troop quality".to_string(),
            vec![card(
                "ladder/report.html",
                "Huzzah! quality ladder",
                "Veterans beat trained 3 times in 4.",
                Some("ladder/thumbnail.png"),
            )],
        ),
        ("Rule balance".to_string(), vec![card("rifles/report.html", "Is +5 for rifles <too much>?", &long, None)]),
        ("Empty".to_string(), Vec::new()),
    ];
    write_index(&root, &groups).unwrap();
    let html = std::fs::read_to_string(root.join("index.html")).unwrap();
    let quality = html.find("<h2>Troop quality</h2>").expect("the first question");
    let balance = html.find("<h2>Rule balance</h2>").expect("the second question");
    assert!(quality < balance);
    assert!(!html.contains("<h2>Empty</h2>"), "a question with no reports is left out");
    assert!(html.contains("<a href=\"ladder/report.html\"><img src=\"ladder/thumbnail.png\""), "{html}");
    assert!(html.contains("Question of Huzzah! quality ladder?"));
    assert!(html.contains("Veterans beat trained 3 times in 4."));
    assert!(html.contains("Is +5 for rifles &lt;too much&gt;?"));
    // A long finding is cut at a word for the card; the report has it whole.
    assert!(!html.contains(&long) && html.contains("word word…"), "{html}");
    std::fs::remove_dir_all(&root).unwrap();
}

mod written_up {
    use super::*;
    use crate::synthetic::{ShotRules, duel_entry, duel_rules, shot_entry};
    use volley_analysis::balance::{Experiment, Measure, convergence, quality_ladder, sensitivity, sweep};
    use volley_analysis::report::{
        convergence_report, distribution_report, even_report, ladder_report, sensitivity_report, sweep_report,
    };
    use volley_kernel::runner::RunOptions;

    fn duel() -> Experiment {
        Experiment::from_parts("synthetic", &duel_entry(), duel_rules(), RunOptions::new(20_000, 1))
    }

    /// Writes the report, checks the folder has its files and its Parquet
    /// reads back, and returns the Markdown.
    fn written(name: &str, (report, frame): (Report, polars::prelude::DataFrame), charts: &[&str]) -> String {
        let root = scratch_dir(name);
        let dir = root.join(name);
        write_report(&dir, &report, &frame).unwrap();
        for chart in charts {
            for extension in ["svg", "png"] {
                let bytes = std::fs::read(dir.join(format!("{chart}.{extension}"))).unwrap();
                assert!(bytes.len() > 1_000, "{chart}.{extension} is {} bytes", bytes.len());
            }
        }
        assert!(read_parquet(&dir.join("data.parquet")).unwrap().equals_missing(&frame));
        let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
        assert_eq!(html.matches("<svg").count(), charts.len());
        let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
        std::fs::remove_dir_all(&root).unwrap();
        markdown
    }

    #[test]
    fn a_ladder_report_has_its_heatmap_table_and_parquet() {
        let experiment = duel();
        let ladder = quality_ladder(&experiment, None, None).unwrap();
        let markdown = written("ladder", ladder_report(&experiment, &ladder).unwrap(), &["ladder"]);
        assert!(
            markdown.contains(
                "**Finding.** The attacker's chance of winning is highest for the attacker at veteran against the defender at green"
            ),
            "{markdown}"
        );
        assert_eq!(markdown.matches("| P(winner = attacker) |").count(), 9, "{markdown}");
    }

    #[test]
    fn equivalence_sensitivity_convergence_and_sweep_reports_are_written() {
        let experiment = duel().with_fixed([("attacker.quality", "green"), ("defender.quality", "veteran")]);
        let axis = volley_analysis::even::Axis::of(&experiment, "attacker.figures", Some("1"), Some("30")).unwrap();
        let found = volley_analysis::even::search(&experiment, &axis, &Measure::probability("winner", "attacker"), 0.5)
            .unwrap();
        let markdown = written("equivalence", even_report(&experiment, &found).unwrap(), &["even"]);
        assert!(markdown.contains("crosses 50.0% between 12 ("), "{markdown}");
        assert!(markdown.contains("one in every 3 was measured first"), "{markdown}");

        let shot = Experiment::from_parts(
            "synthetic",
            &shot_entry(),
            Box::new(ShotRules::default()),
            RunOptions::new(20_000, 1),
        );
        let hit = Measure::probability("hit", "true");
        let ranked = sensitivity(&shot, &hit).unwrap();
        let markdown = written("sensitivity", sensitivity_report(&shot, &ranked).unwrap(), &["sensitivity"]);
        // The steps not run are a table at the end, one row per reason.
        let not_run = markdown.split("## Steps not run").nth(1).expect("a table of the steps not run");
        assert!(not_run.contains("| limit = 6 |") && not_run.contains("at most 5"), "{markdown}");
        assert!(markdown.contains("## Interpretations and optional rules"), "{markdown}");
        assert!(markdown.contains("| switch | false | true |"), "{markdown}");

        let grown = convergence(&shot, &hit, &[1_000, 10_000]).unwrap();
        let markdown = written("convergence", convergence_report(&shot, &grown).unwrap(), &["convergence"]);
        assert!(markdown.contains("After 10000 samples the chance of a hit is"), "{markdown}");

        let values: Vec<String> = ["veteran", "trained", "green"].map(String::from).to_vec();
        let wins = Measure::probability("winner", "attacker");
        let sweeps = [sweep(&duel(), "defender.quality", &values, &wins).unwrap()];
        let markdown = written(
            "sweep",
            sweep_report(
                "Against each defender",
                "How does the defender's quality matter?",
                "defender's quality",
                &sweeps,
                0.95,
            )
            .unwrap(),
            &["sweep"],
        );
        assert!(markdown.contains("| synthetic | green |"), "{markdown}");
        // The finding is a sentence in percentages, naming where it starts and ends.
        assert!(
            markdown.contains("**Finding.** For synthetic, the attacker's chance of winning rises from "),
            "{markdown}"
        );
        assert!(markdown.contains("% at defender's quality veteran to "), "{markdown}");
        // A few values make a compact grid: a row per run, a column per value.
        assert!(markdown.contains("| run \\ defender's quality | veteran | trained | green |"), "{markdown}");

        // Placed on a common scale (a spec's `x`), a point keeps its setting beside its position.
        let mut placed = sweep(&duel(), "defender.quality", &values, &wins).unwrap();
        for ((at, _), x) in placed.points.iter_mut().zip(["0.25", "0.5", "1"]) {
            *at = x.to_string();
        }
        let (report, _) = sweep_report("Placed", "Where?", "fraction", &[placed], 0.95).unwrap();
        let table = report.sections[0].table.as_ref().unwrap();
        assert_eq!(table.columns, ["run", "setting", "fraction", "estimate", "ci_low", "ci_high"]);
        assert_eq!(table.rows[2][..3], ["synthetic", "defender.quality = green", "1"]);
    }

    #[test]
    fn a_distribution_report_checks_against_the_exact_answer() {
        let run = dice_run("sum", &[("dice", "2d6")], 20_000);
        let exact = dice_run("sum", &[("dice", "2d6")], 0).distribution;
        let markdown = written("distribution", distribution_report(&run, Some(&exact), 0.95).unwrap(), &["total"]);
        assert!(markdown.contains("on 10 degrees of freedom"), "{markdown}");
        // The mean of 2d6 is 7; this seed's 20000 samples give 6.99 ± 0.03.
        assert!(markdown.contains("**Finding.** Mean total 6.99 (± 0.03) (20000 Monte Carlo samples)"), "{markdown}");
    }
}

/// The issue's bar: every two-sided scenario over qualities in the catalogue
/// gives a ladder whose report has a heatmap, a table and a Parquet file that
/// read back. Rulesets added later are covered without touching this test.
#[test]
fn every_catalogue_scenario_with_two_qualities_makes_a_ladder_report() {
    use volley_analysis::balance::{ATTACKER_QUALITY, DEFENDER_QUALITY, Experiment, quality_ladder};
    use volley_analysis::report::ladder_report;
    use volley_kernel::params::ParamKind;
    use volley_kernel::runner::RunOptions;

    let root = scratch_dir("catalogue-ladders");
    let mut written = Vec::new();
    for ruleset in volley_kernel::catalogue::catalogue() {
        for scenario in &ruleset.scenarios {
            let is_choice =
                |key: &str| scenario.params.iter().any(|p| p.name == key && matches!(p.kind, ParamKind::Choice(_)));
            if !is_choice(ATTACKER_QUALITY) || !is_choice(DEFENDER_QUALITY) {
                continue;
            }
            // Bold play on both sides where the scenario has decisions: the
            // report's making is checked here, and best play would solve
            // each game once per pair of qualities.
            let experiment = Experiment::new(&ruleset, scenario.name, RunOptions::new(2_000, 1))
                .unwrap()
                .with_fixed(crate::heuristic_play(scenario));
            // A scenario with neither a winner nor a result metric has no
            // default measure; the CLI asks for one, and so is skipped here.
            let Ok(ladder) = quality_ladder(&experiment, None, None) else { continue };
            let (report, frame) = ladder_report(&experiment, &ladder).unwrap();
            let folder = format!("{}-{}", ruleset.name, scenario.name);
            let dir = root.join(&folder);
            write_report(&dir, &report, &frame).unwrap();
            let n = ladder.qualities.len();
            let svg = std::fs::read_to_string(dir.join("ladder.svg")).unwrap();
            assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{folder}");
            assert!(std::fs::metadata(dir.join("ladder.png")).unwrap().len() > 1_000, "{folder}");
            let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
            assert_eq!(markdown.matches(&format!("| {} |", ladder.measure.label())).count(), n * n, "{folder}");
            let back = read_parquet(&dir.join("data.parquet")).unwrap();
            assert!(back.equals_missing(&frame), "{folder}");
            written.push(IndexEntry::of(&folder, &report));
        }
    }
    write_index(&root, &[("Every ladder".to_string(), written.clone())]).unwrap();
    // The plain dice have no sides; every other ruleset's fights should.
    assert!(!written.is_empty(), "no two-sided scenario with qualities in the catalogue");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn an_exact_distribution_report_reads_as_expected() {
    use volley_analysis::report::{distribution_report, markdown};
    let run = dice_run("sum", &[("dice", "1d4")], 0);
    let (report, _) = distribution_report(&run, None, 0.95).unwrap();
    expect_test::expect![[r#"
        # dice sum: outcomes

        **Question.** What are the outcomes of sum with dice=1d4?

        **Finding.** Mean total 2.50 (exact).

        ## total

        the sum of the dice

        ![sum: total](total.svg)

        ## Every measure

        What each measure counts at the end, in a line; the charts show the rest, and data.csv every value's probability and interval.

        | measure | what it counts | at the end |
        | --- | --- | --- |
        | total | the sum of the dice | 1 25.0%, 2 25.0%, 3 25.0%, 4 25.0% |

        Data: [data.csv](data.csv), [data.parquet](data.parquet).
    "#]]
    .assert_eq(&markdown(&report));
}

#[test]
fn a_sweep_whose_ends_print_alike_stays_in_its_finding() {
    use volley_analysis::balance::{Estimate, Measure, Sweep};
    use volley_analysis::report::sweep_sentence;
    let sweep = |values: &[f64]| Sweep {
        ruleset: "One Hour".to_string(),
        key: "attacker.policy".to_string(),
        measure: Measure::probability("winner", "attacker"),
        points: ["best", "bold", "cautious"]
            .iter()
            .zip(values)
            .map(|(k, &v)| (k.to_string(), Estimate::exact(v)))
            .collect(),
        runs: Vec::new(),
    };
    // Differences in the ninth digit are not a rise, nor a peak.
    let flat = sweep_sentence(&sweep(&[0.4270001, 0.4270003, 0.4270002]), "policy").unwrap();
    assert_eq!(flat, "For One Hour, the attacker's chance of winning stays at 42.7% from policy best to cautious");
    let moved = sweep_sentence(&sweep(&[0.138, 0.130, 0.040]), "policy").unwrap();
    assert_eq!(
        moved,
        "For One Hour, the attacker's chance of winning falls from 13.8% at policy best to 4.0% at cautious"
    );
}

#[test]
fn a_sweep_that_changes_nothing_says_so_and_why() {
    use volley_analysis::balance::{Estimate, Measure, Sweep};
    use volley_analysis::report::sweep_sentence;
    let sweep = |points: Vec<Estimate>, runs| Sweep {
        ruleset: "One Hour".to_string(),
        key: "attacker.shock".to_string(),
        measure: Measure::probability("winner", "attacker"),
        points: ["false", "true"].iter().map(|k| k.to_string()).zip(points).collect(),
        runs,
    };
    // Equal exact values: the key does nothing here, and the scenario says why.
    let mut run = dice_run("sum", &[("dice", "2d6")], 0);
    run.unread = vec![("attacker.shock".to_string(), "shock is a cavalry's; the attacker is infantry".to_string())];
    let flat = sweep_sentence(&sweep(vec![Estimate::exact(0.5), Estimate::exact(0.5)], vec![run]), "shock").unwrap();
    assert_eq!(
        flat,
        "For One Hour, changing attacker.shock does nothing here (shock is a cavalry's; the attacker is infantry): \
         the attacker's chance of winning is 50.0% with the same exact value at every shock from false to true"
    );
    // Sampled values no test can tell apart (0.501 ± 0.003 and 0.499 ±
    // 0.003), with no reason known; and ones a test can (0.51 and 0.49).
    let sampled = |value: f64| Estimate {
        value,
        ci_low: value - 0.003,
        ci_high: value + 0.003,
        standard_error: 0.0015,
        samples: Some(100_000),
    };
    let alike = sweep_sentence(&sweep(vec![sampled(0.501), sampled(0.499)], Vec::new()), "shock").unwrap();
    assert!(alike.starts_with("For One Hour, changing attacker.shock does nothing here: "), "{alike}");
    assert!(alike.ends_with("with no difference any test can tell at shock from false to true"), "{alike}");
    let apart = sweep_sentence(&sweep(vec![sampled(0.51), sampled(0.49)], Vec::new()), "shock").unwrap();
    assert!(apart.contains("falls from 51.0%"), "{apart}");
}
