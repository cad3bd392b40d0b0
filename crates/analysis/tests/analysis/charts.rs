//! Every chart kind renders a well-formed SVG and a decodable PNG, with as
//! many bars, cells or series as its data has.

use crate::frames::dice_run;
use plotters::style::RGBColor;
use volley_analysis::charts::{
    BAR_COLOUR, Bar, Cell, Chart, ChartKind, DOWN_COLOUR, LinePoint, Series, THUMBNAIL_TORNADO_ROWS, TornadoBar,
    TornadoRow, UP_COLOUR, cdf_chart, distribution_bars,
};

/// Checks that every tag opened is closed in order, and returns the SVG.
fn well_formed(svg: &str) -> &str {
    assert!(svg.trim_start().starts_with("<svg"), "{}", &svg[..svg.len().min(80)]);
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').expect("an unclosed tag") + start;
        let tag = &rest[start + 1..end];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop(), Some(name.trim()), "mismatched </{name}>");
        } else if !tag.ends_with('/') && !tag.starts_with('?') && !tag.starts_with('!') {
            stack.push(tag.split_whitespace().next().unwrap());
        }
        rest = &rest[end + 1..];
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    svg
}

/// The text of every `<text>` element, trimmed.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .map(|t| t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].trim().to_string())
        .collect()
}

/// The `y` of the first `<text>` element whose text contains `label`.
fn text_y(svg: &str, label: &str) -> f64 {
    let element = svg
        .split("<text")
        .skip(1)
        .find(|t| t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].contains(label))
        .unwrap_or_else(|| panic!("no text `{label}`"));
    let y = &element[element.find(" y=\"").unwrap() + 4..];
    y[..y.find('"').unwrap()].parse().unwrap()
}

/// How many `<text>` elements read exactly `label`.
fn count_text(svg: &str, label: &str) -> usize {
    texts(svg).iter().filter(|t| *t == label).count()
}

fn hex(colour: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", colour.0, colour.1, colour.2)
}

/// The number of rectangles filled with `colour`.
fn rects(svg: &str, colour: RGBColor) -> usize {
    let fill = format!("fill=\"{}\"", hex(colour));
    svg.split("<rect").skip(1).filter(|r| r[..r.find('>').unwrap()].contains(&fill)).count()
}

/// Decodes a PNG and returns its width, height and RGB pixels.
fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(bytes);
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    pixels.truncate(info.buffer_size());
    (info.width, info.height, pixels)
}

/// Decodes the chart's PNG, checks its size, and checks that it has text (many
/// grey levels from anti-aliased glyphs) as well as flat colour.
fn check_png(chart: &Chart) -> (u32, Vec<u8>) {
    let (width, height, pixels) = decode(&chart.png().unwrap());
    assert_eq!((width, height), (chart.width, chart.height));
    let mut colours: Vec<[u8; 3]> = pixels.chunks(3).map(|p| [p[0], p[1], p[2]]).collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 20, "only {} colours: no text drawn?", colours.len());
    (width, pixels)
}

/// The separate runs of `colour` on the lowest pixel row that has any: the
/// number of vertical bars that colour draws (higher rows may be cut by whiskers).
fn bars_across(width: u32, pixels: &[u8], colour: RGBColor) -> usize {
    let target = [colour.0, colour.1, colour.2];
    pixels
        .chunks(width as usize * 3)
        .rev()
        .map(|row| {
            let mut runs = 0;
            let mut inside = false;
            for pixel in row.chunks(3) {
                let hit = pixel == target;
                if hit && !inside {
                    runs += 1;
                }
                inside = hit;
            }
            runs
        })
        .find(|&runs| runs > 0)
        .unwrap_or(0)
}

#[test]
fn distribution_bars_have_one_bar_and_whisker_per_value() {
    let run = dice_run("sum", &[("dice", "2d6")], 5_000);
    let chart = distribution_bars("totals", "Two dice: totals", &run.distribution, "total", 0.95).unwrap();
    let svg = chart.svg().unwrap();
    well_formed(&svg);
    assert_eq!(rects(&svg, BAR_COLOUR), 11);
    for label in ["2", "7", "12", "Two dice: totals", "probability (95% interval)"] {
        assert_eq!(count_text(&svg, label), 1, "label {label}");
    }
    let (width, pixels) = check_png(&chart);
    assert_eq!(bars_across(width, &pixels, BAR_COLOUR), 11);
}

#[test]
fn a_heatmap_prints_every_cell() {
    let qualities: Vec<String> = ["veteran", "trained", "green", "militia"].map(String::from).to_vec();
    let cells = (0..4)
        .map(|a| {
            (0..4)
                .map(|d| {
                    let value = 0.5 + 0.1 * (d as f64 - a as f64);
                    Some(Cell { value, ci_low: value - 0.01, ci_high: value + 0.01 })
                })
                .collect()
        })
        .collect();
    let chart = Chart::new(
        "ladder",
        "Win probability by quality",
        "defender's quality",
        "attacker's quality",
        ChartKind::Heatmap { rows: qualities.clone(), columns: qualities, cells, percent: true },
    );
    let svg = chart.svg().unwrap();
    well_formed(&svg);
    let values = texts(&svg).iter().filter(|t| t.ends_with('%') && !t.contains('–')).count();
    assert_eq!(values, 16, "one value per cell");
    assert_eq!(count_text(&svg, "50.0%"), 4, "the diagonal is even");
    assert_eq!(count_text(&svg, "veteran"), 2, "a row label and a column label");
    check_png(&chart);
}

#[test]
fn lines_draw_one_band_and_legend_entry_per_series() {
    let series: Vec<Series> = ["huzzah", "brigades", "one_hour"]
        .iter()
        .enumerate()
        .map(|(i, name)| Series {
            name: name.to_string(),
            points: (1..=6)
                .map(|x| {
                    let y = 0.1 * i as f64 + 0.1 * x as f64;
                    LinePoint { x: x as f64, y, ci_low: y - 0.03, ci_high: y + 0.03 }
                })
                .collect(),
        })
        .collect();
    let chart = Chart::new(
        "figures",
        "Win probability by figures",
        "attacker's figures (figures)",
        "P(attacker wins) (%)",
        ChartKind::Lines {
            series,
            categories: None,
            log_x: false,
            step: false,
            percent: true,
            reference: Some((0.5, "even odds".into())),
            span: Some((2.5, 3.5, "crossing interval".into())),
        },
    );
    let svg = chart.svg().unwrap();
    well_formed(&svg);
    assert_eq!(svg.matches("<polygon").count(), 3, "one band per series");
    // The legend sits under the chart, below even the x axis's title, so it
    // covers no line or band.
    let below = text_y(&svg, "figures (figures)");
    for name in ["huzzah", "brigades", "one_hour", "even odds", "crossing interval"] {
        assert_eq!(count_text(&svg, name), 1, "legend {name}");
        assert!(text_y(&svg, name) > below, "legend {name} inside the chart");
    }
    check_png(&chart);
}

#[test]
fn a_cdf_steps_up_to_one_for_each_distribution() {
    let two = dice_run("sum", &[("dice", "2d6")], 2_000);
    let three = dice_run("sum", &[("dice", "3d6")], 0);
    let chart = cdf_chart(
        "turns",
        "Turns to a decision",
        &[("two dice".into(), &two.distribution), ("three dice".into(), &three.distribution)],
        "total",
        "pips",
        0.95,
    )
    .unwrap();
    let ChartKind::Lines { series, step, .. } = &chart.kind else { panic!("a CDF is a line chart") };
    assert!(*step);
    assert_eq!(series.len(), 2);
    assert!((series[1].points.last().unwrap().y - 1.0).abs() < 1e-12);
    assert_eq!(series[1].points.len(), 16);
    let svg = chart.svg().unwrap();
    well_formed(&svg);
    assert_eq!(svg.matches("<polygon").count(), 2);
    assert_eq!(count_text(&svg, "three dice"), 1);
    check_png(&chart);
}

#[test]
fn a_tornado_draws_a_bar_per_step_run() {
    let bar = |change: f64| Some(TornadoBar { change, ci_low: change - 0.01, ci_high: change + 0.01 });
    let rows = vec![
        TornadoRow { label: "bonus = 1".into(), down: bar(-0.16), up: bar(0.16) },
        TornadoRow { label: "hit_target = 7".into(), down: bar(0.08), up: bar(-0.08) },
        TornadoRow { label: "limit = 5".into(), down: bar(0.0), up: None },
    ];
    let chart = Chart::new(
        "sensitivity",
        "What moves the chance to hit",
        "change in P(hit = true) (percentage points)",
        "rule field (printed value)",
        ChartKind::Tornado { rows, percent: true },
    );
    let svg = chart.svg().unwrap();
    well_formed(&svg);
    // Three steps down and two up, plus one legend swatch of each colour.
    assert_eq!(rects(&svg, DOWN_COLOUR), 3 + 1);
    assert_eq!(rects(&svg, UP_COLOUR), 2 + 1);
    assert_eq!(count_text(&svg, "hit_target = 7"), 1);
    check_png(&chart);
    // Three rows fit a thumbnail whole, title and all.
    assert_eq!(chart.for_thumbnail(), chart);
}

#[test]
fn a_tornado_thumbnail_keeps_its_top_rows_and_says_so() {
    let bar = |change: f64| Some(TornadoBar { change, ci_low: change - 0.01, ci_high: change + 0.01 });
    let rows: Vec<TornadoRow> =
        (0..15).map(|k| TornadoRow { label: format!("field_{k} = 1"), down: bar(-0.1), up: bar(0.1) }).collect();
    let tornado = |title: &str| {
        Chart::new("s", title, "change", "rule field", ChartKind::Tornado { rows: rows.clone(), percent: true })
    };
    let thumbnail = tornado("What moves the chance to hit (top 15 of 40)").for_thumbnail();
    assert_eq!(thumbnail.title, format!("What moves the chance to hit (top {THUMBNAIL_TORNADO_ROWS} of 40)"));
    let ChartKind::Tornado { rows: kept, .. } = &thumbnail.kind else { panic!("a tornado") };
    assert_eq!(kept.len(), THUMBNAIL_TORNADO_ROWS);
    assert_eq!(
        tornado("What moves it").for_thumbnail().title,
        format!("What moves it (top {THUMBNAIL_TORNADO_ROWS} of 15)")
    );
}

#[test]
fn a_sensitivity_tornado_shows_the_fields_that_move_most() {
    use volley_analysis::balance::{Change, Estimate, Measure, Sensitivity, SensitivityRow};
    use volley_analysis::charts::{TORNADO_MAX_ROWS, sensitivity_tornado};
    let step = |value: i64, change: f64| {
        Some(Change {
            value,
            estimate: Estimate::exact(0.5 + change),
            change,
            ci_low: change - 0.01,
            ci_high: change + 0.01,
        })
    };
    // Twenty fields that move the measure, largest first, and one that does not.
    let mut rows: Vec<SensitivityRow> = (0..20)
        .map(|i| SensitivityRow {
            field: format!("field_{i}"),
            doc: String::new(),
            baseline: 3,
            down: step(2, -0.2 + 0.01 * i as f64),
            up: step(4, 0.2 - 0.01 * i as f64),
        })
        .collect();
    rows.push(SensitivityRow { field: "idle".into(), doc: String::new(), baseline: 1, down: step(0, 0.0), up: None });
    let sensitivity = Sensitivity {
        measure: Measure::probability("winner", "attacker"),
        baseline: Estimate::exact(0.5),
        rows,
        alternatives: Vec::new(),
        skipped: Vec::new(),
        unread: 0,
        runs: Vec::new(),
        start_check: None,
    };
    let chart = sensitivity_tornado("sensitivity", "What matters", &sensitivity);
    assert_eq!(chart.title, format!("What matters (top {TORNADO_MAX_ROWS} of 20)"));
    let ChartKind::Tornado { rows, .. } = &chart.kind else { panic!("a tornado") };
    assert_eq!(rows.len(), TORNADO_MAX_ROWS);
    assert_eq!(rows[0].label, "field_0 = 3");
    let svg = chart.svg().unwrap();
    well_formed(&svg);
    assert_eq!(rects(&svg, DOWN_COLOUR), TORNADO_MAX_ROWS + 1);
    assert_eq!(count_text(&svg, "field_14 = 3"), 1);
    assert_eq!(count_text(&svg, "field_15 = 3"), 0);
}

#[test]
fn a_crowded_heatmap_drops_intervals_rather_than_overlap_them() {
    let labels: Vec<String> = (1..=10).map(|i| format!("grade {i}")).collect();
    let cell = Some(Cell { value: 0.456, ci_low: 0.449, ci_high: 0.463 });
    let chart = Chart::new(
        "crowded",
        "Ten grades",
        "defender's grade",
        "attacker's grade",
        ChartKind::Heatmap { rows: labels.clone(), columns: labels, cells: vec![vec![cell; 10]; 10], percent: true },
    );
    let svg = chart.svg().unwrap();
    well_formed(&svg);
    assert_eq!(count_text(&svg, "45.6%"), 100);
    assert_eq!(texts(&svg).iter().filter(|t| t.contains('–')).count(), 0);
    // At the default size, four grades leave room for the intervals.
    let roomy = Chart::new(
        "roomy",
        "Four grades",
        "defender's grade",
        "attacker's grade",
        ChartKind::Heatmap {
            rows: vec!["a".into(); 4],
            columns: vec!["b".into(); 4],
            cells: vec![vec![cell; 4]; 4],
            percent: true,
        },
    );
    assert_eq!(count_text(&roomy.svg().unwrap(), "44.9%–46.3%"), 16);
}

#[test]
fn crowded_bar_labels_thin_out_instead_of_overlapping() {
    let bars: Vec<Bar> =
        (1..=80).map(|i| Bar { label: format!("value {i}"), value: 0.0125, ci_low: 0.01, ci_high: 0.015 }).collect();
    let chart = Chart::new("crowded", "Eighty values", "value", "probability", ChartKind::Bars { bars, percent: true });
    let svg = chart.svg().unwrap();
    well_formed(&svg);
    assert_eq!(rects(&svg, BAR_COLOUR), 80);
    // (x, font size, characters) of each category label drawn.
    let mut labels: Vec<(f64, f64, usize)> = svg
        .split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].trim();
            let attribute = |name: &str| -> f64 {
                let start = t.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                t[start..start + t[start..].find('"').unwrap()].parse().unwrap()
            };
            body.starts_with("value ").then(|| (attribute("x"), attribute("font-size"), body.chars().count()))
        })
        .collect();
    labels.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert!(labels.len() >= 10 && labels.len() < 80, "{} labels drawn", labels.len());
    for pair in labels.windows(2) {
        // DejaVu Sans averages well under 0.6 em a character.
        let half_widths = 0.6 * (pair[0].1 * pair[0].2 as f64 + pair[1].1 * pair[1].2 as f64) / 2.0;
        assert!(pair[1].0 - pair[0].0 >= half_widths, "labels at {} and {} overlap", pair[0].0, pair[1].0);
    }
}
