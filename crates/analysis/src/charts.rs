//! Charts for reports and playsheets: distribution bars with interval
//! whiskers, heatmaps with the value in each cell, lines with interval bands,
//! cumulative distributions, and tornado charts; each as SVG or PNG.
//!
//! A chart is plain data ([`Chart`]) drawn on demand, so the same chart
//! renders to SVG for the HTML report and to PNG for printing. The font is
//! embedded (DejaVu Sans, registered as `sans-serif`), so a PNG renders on a
//! machine with no fonts installed, and an SVG names a family every viewer has.
//! Category labels are drawn by this module rather than by plotters' mesh, so
//! they sit exactly under their bars and shrink or thin out instead of
//! overlapping.

use crate::AnalysisError;
use crate::balance::{Convergence, Ladder, Measure, Sensitivity, Sweep, capitalised};
use crate::even::{Crossing, Even, say};
use crate::stats::wilson;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;
use std::sync::Once;
use volley_kernel::outcome::Distribution;

/// DejaVu Sans (Bitstream Vera licence; see assets/DejaVuSans-LICENSE.txt).
static FONT_BYTES: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
/// The family every chart's text uses.
const FAMILY: &str = "sans-serif";

// Plotters draws text at 1/1.24 of the size asked for; these ask for about
// 26, 19 and 18 pixels, which print at 13, 10 and 9 points on A4.
const TITLE_SIZE: f64 = 32.0;
const AXIS_TITLE_SIZE: f64 = 24.0;
const LABEL_SIZE: f64 = 22.0;
const SMALLEST_LABEL_SIZE: f64 = 14.0;
/// Half the width of a whisker's cap, in pixels at most.
const CAP_PIXELS: f64 = 9.0;

/// The Okabe-Ito palette: distinguishable with any colour vision and in grey print.
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0x00, 0x00, 0x00),
];
/// The colour of distribution bars.
pub const BAR_COLOUR: RGBColor = PALETTE[0];
/// The colour of a tornado's one-step-down bars.
pub const DOWN_COLOUR: RGBColor = PALETTE[3];
/// The colour of a tornado's one-step-up bars.
pub const UP_COLOUR: RGBColor = PALETTE[0];
const WHISKER_COLOUR: RGBColor = RGBColor(0x22, 0x22, 0x22);

fn register_font() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        // The font is compiled in and known to parse; failing here would be a
        // broken build, not bad input.
        if plotters::style::register_font(FAMILY, FontStyle::Normal, FONT_BYTES).is_err() {
            panic!("the embedded DejaVu Sans does not parse");
        }
    });
}

fn font(size: f64) -> TextStyle<'static> {
    TextStyle::from((FAMILY, size).into_font()).color(&BLACK)
}

/// One bar: a value and its interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// The category under the bar.
    pub label: String,
    /// Its height.
    pub value: f64,
    /// The whisker's lower end.
    pub ci_low: f64,
    /// The whisker's upper end.
    pub ci_high: f64,
}

/// One cell of a heatmap: a value and its interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    /// The value printed large and coloured.
    pub value: f64,
    /// The interval's lower end, printed small.
    pub ci_low: f64,
    /// The interval's upper end.
    pub ci_high: f64,
}

/// One point of a line with its band.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinePoint {
    /// Where along the x axis (an index, for categorical axes).
    pub x: f64,
    /// The estimate.
    pub y: f64,
    /// The band's lower edge.
    pub ci_low: f64,
    /// The band's upper edge.
    pub ci_high: f64,
}

/// One named line with its band.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend's text (a ruleset, usually).
    pub name: String,
    /// Its points, in increasing x.
    pub points: Vec<LinePoint>,
}

/// One side of a tornado row: the change from one step of a field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TornadoBar {
    /// The change.
    pub change: f64,
    /// The change's interval's lower end.
    pub ci_low: f64,
    /// Its upper end.
    pub ci_high: f64,
}

/// One row of a tornado chart: a field moved down and up.
#[derive(Clone, Debug, PartialEq)]
pub struct TornadoRow {
    /// The field (and its printed value).
    pub label: String,
    /// One step down.
    pub down: Option<TornadoBar>,
    /// One step up.
    pub up: Option<TornadoBar>,
}

/// What a chart draws.
#[derive(Clone, Debug, PartialEq)]
pub enum ChartKind {
    /// Vertical bars with whiskers, one per category.
    Bars {
        /// The bars, left to right.
        bars: Vec<Bar>,
        /// Whether values are probabilities (axis in percent).
        percent: bool,
    },
    /// Bars of several series side by side in each category (A and B, say),
    /// with whiskers and a legend under the chart.
    GroupedBars {
        /// The categories, left to right.
        categories: Vec<String>,
        /// Each series' name and its bar in each category (`None`: none there).
        series: Vec<(String, Vec<Option<Bar>>)>,
        /// Whether values are probabilities (axis in percent).
        percent: bool,
    },
    /// A grid of coloured cells with the value printed in each.
    Heatmap {
        /// Row labels, top to bottom.
        rows: Vec<String>,
        /// Column labels, left to right.
        columns: Vec<String>,
        /// `cells[row][column]`; `None` leaves a cell blank.
        cells: Vec<Vec<Option<Cell>>>,
        /// Whether values are probabilities (printed in percent, coloured
        /// around even odds).
        percent: bool,
    },
    /// Lines with interval bands, one per series, with a legend.
    Lines {
        /// The series.
        series: Vec<Series>,
        /// Labels of a categorical x axis (x = 0, 1, ...), or `None` for numbers.
        categories: Option<Vec<String>>,
        /// Whether x is drawn on a log scale (sample counts).
        log_x: bool,
        /// Whether lines step (a cumulative distribution) rather than slope.
        step: bool,
        /// Whether y is a probability (axis 0 to 100%).
        percent: bool,
        /// A dashed horizontal line with its legend text (even odds, an exact value).
        reference: Option<(f64, String)>,
        /// A shaded range of x with its legend text (the interval of a crossing).
        span: Option<(f64, f64, String)>,
    },
    /// Horizontal bars of changes either side of zero, largest at the top.
    Tornado {
        /// The rows, top to bottom.
        rows: Vec<TornadoRow>,
        /// Whether changes are of a probability (axis in percentage points).
        percent: bool,
    },
}

/// A chart: its file name, title, axis titles and what it draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// The file stem its files are written under (`ladder` gives
    /// `ladder.svg` and `ladder.png`).
    pub name: String,
    /// The title over the chart.
    pub title: String,
    /// The x axis's title, with units.
    pub x_label: String,
    /// The y axis's title, with units.
    pub y_label: String,
    /// What it draws.
    pub kind: ChartKind,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// The default size: printed across an A4 page's text (about 180 mm), a
/// pixel is 0.18 mm.
pub const DEFAULT_SIZE: (u32, u32) = (1000, 620);
/// The most rows a tornado shows in a thumbnail.
pub const THUMBNAIL_TORNADO_ROWS: usize = 6;
/// The most rows a sensitivity tornado shows.
pub const TORNADO_MAX_ROWS: usize = 15;
/// The smallest size a chart is drawn at.
pub const MINIMUM_SIZE: (u32, u32) = (320, 240);

impl Chart {
    /// A chart of the default size.
    pub fn new(name: &str, title: &str, x_label: &str, y_label: &str, kind: ChartKind) -> Chart {
        Chart {
            name: name.to_string(),
            title: title.to_string(),
            x_label: x_label.to_string(),
            y_label: y_label.to_string(),
            kind,
            width: DEFAULT_SIZE.0,
            height: DEFAULT_SIZE.1,
        }
    }

    /// The same chart at another size.
    pub fn with_size(mut self, width: u32, height: u32) -> Chart {
        self.width = width;
        self.height = height;
        self
    }

    /// Refuses sizes too small for the labels to be read (and for plotters to
    /// lay out at all).
    fn check_size(&self) -> Result<(), AnalysisError> {
        if self.width < MINIMUM_SIZE.0 || self.height < MINIMUM_SIZE.1 {
            return Err(AnalysisError::Chart(format!(
                "{}: {}x{} pixels is too small to read; at least {}x{}",
                self.name, self.width, self.height, MINIMUM_SIZE.0, MINIMUM_SIZE.1
            )));
        }
        Ok(())
    }

    /// The chart as an SVG document.
    pub fn svg(&self) -> Result<String, AnalysisError> {
        self.check_size()?;
        register_font();
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (self.width, self.height)).into_drawing_area();
            self.draw(&root).map_err(|e| AnalysisError::Chart(format!("{}: {e}", self.name)))?;
            root.present().map_err(|e| AnalysisError::Chart(format!("{}: {e}", self.name)))?;
        }
        Ok(svg)
    }

    /// The chart as RGB pixels, three bytes a pixel, row by row.
    pub fn rgb(&self) -> Result<Vec<u8>, AnalysisError> {
        self.check_size()?;
        register_font();
        let mut pixels = vec![0u8; self.width as usize * self.height as usize * 3];
        {
            let root = BitMapBackend::with_buffer(&mut pixels, (self.width, self.height)).into_drawing_area();
            self.draw(&root).map_err(|e| AnalysisError::Chart(format!("{}: {e}", self.name)))?;
            root.present().map_err(|e| AnalysisError::Chart(format!("{}: {e}", self.name)))?;
        }
        Ok(pixels)
    }

    /// The chart as a PNG file's bytes.
    pub fn png(&self) -> Result<Vec<u8>, AnalysisError> {
        self.encode_png(&self.rgb()?, self.width, self.height)
    }

    /// The chart as its report's thumbnail shows it: a tornado keeps its
    /// top rows only ([`THUMBNAIL_TORNADO_ROWS`]), so they stay legible
    /// when shrunk; other charts are drawn whole.
    pub fn for_thumbnail(&self) -> Chart {
        let mut chart = self.clone();
        if let ChartKind::Tornado { rows, .. } = &mut chart.kind
            && rows.len() > THUMBNAIL_TORNADO_ROWS
        {
            let shown = rows.len();
            rows.truncate(THUMBNAIL_TORNADO_ROWS);
            // The title says what the thumbnail shows: "(top 15 of 40)"
            // becomes "(top 6 of 40)"; a title without a count gets one.
            let base = chart.title.split(" (top ").next().unwrap_or(&chart.title).to_string();
            let of = chart
                .title
                .split(" of ")
                .nth(1)
                .and_then(|t| t.trim_end_matches(')').parse::<usize>().ok())
                .unwrap_or(shown);
            chart.title = format!("{base} (top {THUMBNAIL_TORNADO_ROWS} of {of})");
        }
        chart
    }

    /// The chart drawn at its own size and shrunk `factor` times each way
    /// (each pixel the mean of a `factor` by `factor` block), as PNG bytes: a
    /// thumbnail with every label the full chart has, none cut by a smaller
    /// canvas.
    pub fn png_shrunk(&self, factor: u32) -> Result<Vec<u8>, AnalysisError> {
        let factor = factor.max(1);
        let pixels = self.rgb()?;
        let (width, height) = (self.width / factor, self.height / factor);
        let mut small = Vec::with_capacity(width as usize * height as usize * 3);
        let area = u32::pow(factor, 2);
        for y in 0..height {
            for x in 0..width {
                for channel in 0..3 {
                    let mut sum = 0u32;
                    for dy in 0..factor {
                        for dx in 0..factor {
                            let at = ((y * factor + dy) * self.width + x * factor + dx) as usize * 3 + channel;
                            sum += u32::from(pixels[at]);
                        }
                    }
                    small.push(((sum + area / 2) / area) as u8);
                }
            }
        }
        self.encode_png(&small, width, height)
    }

    fn encode_png(&self, pixels: &[u8], width: u32, height: u32) -> Result<Vec<u8>, AnalysisError> {
        let mut bytes = Vec::new();
        {
            let mut encoder = png::Encoder::new(&mut bytes, width, height);
            encoder.set_color(png::ColorType::Rgb);
            encoder.set_depth(png::BitDepth::Eight);
            // The committed reports carry every chart as PNG: the smallest
            // encoding keeps them small, at a cost of milliseconds a chart.
            encoder.set_compression(png::Compression::Best);
            encoder.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
            let png_error = |e: png::EncodingError| AnalysisError::Chart(format!("{}: PNG: {e}", self.name));
            let mut writer = encoder.write_header().map_err(png_error)?;
            writer.write_image_data(pixels).map_err(png_error)?;
            writer.finish().map_err(png_error)?;
        }
        Ok(bytes)
    }

    /// Writes the SVG to `path`.
    pub fn write_svg(&self, path: &Path) -> Result<(), AnalysisError> {
        write_file(path, self.svg()?.as_bytes())
    }

    /// Writes the PNG to `path`.
    pub fn write_png(&self, path: &Path) -> Result<(), AnalysisError> {
        write_file(path, &self.png()?)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        match &self.kind {
            ChartKind::Bars { bars, percent } => self.draw_bars(root, bars, *percent),
            ChartKind::GroupedBars { categories, series, percent } => {
                self.draw_grouped_bars(root, categories, series, *percent)
            }
            ChartKind::Heatmap { rows, columns, cells, percent } => {
                self.draw_heatmap(root, rows, columns, cells, *percent)
            }
            ChartKind::Lines { series, categories, log_x, step, percent, reference, span } => self.draw_lines(
                root,
                series,
                categories.as_deref(),
                *log_x,
                *step,
                *percent,
                reference.as_ref(),
                span.as_ref(),
            ),
            ChartKind::Tornado { rows, percent } => self.draw_tornado(root, rows, *percent),
        }
    }

    /// Bars of one series: grouped bars with a single group and no legend.
    fn draw_bars<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        bars: &[Bar],
        percent: bool,
    ) -> DrawResult<DB> {
        let labels: Vec<String> = bars.iter().map(|b| b.label.clone()).collect();
        let series = [(String::new(), bars.iter().cloned().map(Some).collect())];
        self.draw_grouped_bars(root, &labels, &series, percent)
    }

    fn draw_grouped_bars<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        categories: &[String],
        series: &[(String, Vec<Option<Bar>>)],
        percent: bool,
    ) -> DrawResult<DB> {
        let n = categories.len().max(1);
        let k = series.len().max(1);
        let top = series
            .iter()
            .flat_map(|(_, bars)| bars.iter().flatten())
            .map(|b| b.ci_high.max(b.value))
            .fold(0.0, f64::max);
        let y_max = if percent { (top * 1.15).clamp(0.05, 1.0) } else { (top * 1.15).max(1.0) };
        // One series needs no legend: the title says what it is.
        let entries: Vec<LegendEntry> = series
            .iter()
            .enumerate()
            .filter(|_| series.len() > 1)
            .map(|(s, (name, _))| LegendEntry { text: name.clone(), swatch: Swatch::Block(PALETTE[s % PALETTE.len()]) })
            .collect();
        let (plot, legend) = split_for_legend(root, &entries);
        let mut chart = ChartBuilder::on(&plot)
            .caption(&self.title, font(TITLE_SIZE))
            .margin(20)
            .x_label_area_size(80)
            .y_label_area_size(90)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..y_max)?;
        let formatter = axis_formatter(percent, y_max);
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_labels(8)
            .y_label_formatter(&formatter)
            .label_style(font(LABEL_SIZE))
            .axis_desc_style(font(AXIS_TITLE_SIZE))
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .draw()?;
        // Each category's slot holds the series' bars side by side (one
        // series: a bar 0.72 of its slot, centred); caps an eighth of a
        // bar wide, but never wider than a few pixels.
        let width = 0.8 / k as f64;
        let slot = (chart.backend_coord(&(1.0, 0.0)).0 - chart.backend_coord(&(0.0, 0.0)).0).max(1);
        let cap = (CAP_PIXELS / f64::from(slot)).min(width * 0.15);
        for (s, (_, bars)) in series.iter().enumerate() {
            let colour = PALETTE[s % PALETTE.len()];
            let centre = |i: usize| i as f64 - 0.4 + (s as f64 + 0.5) * width;
            let drawn: Vec<(f64, &Bar)> =
                bars.iter().enumerate().filter_map(|(i, bar)| bar.as_ref().map(|b| (centre(i), b))).collect();
            chart.draw_series(drawn.iter().map(|(x, b)| {
                Rectangle::new([(x - width * 0.45, 0.0), (x + width * 0.45, b.value)], colour.filled())
            }))?;
            for (x, b) in &drawn {
                draw_whisker_vertical(&chart, *x, b.ci_low, b.ci_high, cap)?;
            }
        }
        let positions: Vec<i32> = (0..categories.len()).map(|i| chart.backend_coord(&(i as f64, 0.0)).0).collect();
        let (x_pixels, y_pixels) = chart.plotting_area().get_pixel_range();
        drop(chart);
        draw_labels_below(root, categories, &positions, y_pixels.end + 6)?;
        draw_legend(&legend, &entries, x_pixels.start)
    }

    fn draw_heatmap<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        rows: &[String],
        columns: &[String],
        cells: &[Vec<Option<Cell>>],
        percent: bool,
    ) -> DrawResult<DB> {
        let (n_rows, n_columns) = (rows.len().max(1), columns.len().max(1));
        let widest_row = rows.iter().map(|r| text_width(root, r, LABEL_SIZE)).max().unwrap_or(0);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, font(TITLE_SIZE))
            .margin(20)
            .x_label_area_size(70)
            .y_label_area_size(widest_row + 50)
            .build_cartesian_2d(0f64..n_columns as f64, 0f64..n_rows as f64)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(0)
            .y_labels(0)
            .axis_desc_style(font(AXIS_TITLE_SIZE))
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .draw()?;
        let values: Vec<f64> = cells.iter().flatten().flatten().map(|c| c.value).collect();
        let (low, high) = if percent {
            (0.0, 1.0)
        } else {
            (
                values.iter().copied().fold(f64::INFINITY, f64::min),
                values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            )
        };
        let cell_height = chart.backend_coord(&(0.0, 0.0)).1 - chart.backend_coord(&(0.0, 1.0)).1;
        let cell_width = (chart.backend_coord(&(1.0, 0.0)).0 - chart.backend_coord(&(0.0, 0.0)).0).max(1) as u32;
        // Text shrinks to fit its cell; an interval that cannot fit at a
        // readable size is left to the table rather than drawn over its neighbours.
        let fits = |text: &str, size: f64| text_width(root, text, size) + 8 <= cell_width;
        let mut value_size = (cell_height as f64 * 0.3).clamp(SMALLEST_LABEL_SIZE, 28.0);
        let texts: Vec<String> = values.iter().map(|v| format_value(*v, percent)).collect();
        while value_size > SMALLEST_LABEL_SIZE && !texts.iter().all(|t| fits(t, value_size)) {
            value_size -= 1.0;
        }
        let interval_size = (value_size * 0.65).max(SMALLEST_LABEL_SIZE);
        for (r, row) in cells.iter().enumerate() {
            // The first row is drawn at the top.
            let y = (n_rows - 1 - r) as f64;
            for (c, cell) in row.iter().enumerate() {
                let Some(cell) = cell else { continue };
                let x = c as f64;
                let fill = diverging_colour(cell.value, low, high);
                chart.draw_series(std::iter::once(Rectangle::new([(x, y), (x + 1.0, y + 1.0)], fill.filled())))?;
                let ink = if luminance(fill) < 0.45 { WHITE } else { BLACK };
                let centre = chart.backend_coord(&(x + 0.5, y + 0.5));
                let value_text = format_value(cell.value, percent);
                let value_style = font(value_size).color(&ink).pos(Pos::new(HPos::Center, VPos::Center));
                let exact = (cell.ci_high - cell.ci_low).abs() < f64::EPSILON;
                let interval =
                    format!("{}–{}", format_value(cell.ci_low, percent), format_value(cell.ci_high, percent));
                if exact || cell_height < 3 * (value_size as i32) || !fits(&interval, interval_size) {
                    root.draw_text(&value_text, &value_style, centre)?;
                } else {
                    root.draw_text(&value_text, &value_style, (centre.0, centre.1 - value_size as i32 / 2))?;
                    let interval_style = font(interval_size).color(&ink).pos(Pos::new(HPos::Center, VPos::Center));
                    root.draw_text(&interval, &interval_style, (centre.0, centre.1 + value_size as i32 * 2 / 3))?;
                }
            }
        }
        // White rules between cells keep neighbouring colours apart.
        for c in 0..=n_columns {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(c as f64, 0.0), (c as f64, n_rows as f64)],
                WHITE.stroke_width(2),
            )))?;
        }
        for r in 0..=n_rows {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(0.0, r as f64), (n_columns as f64, r as f64)],
                WHITE.stroke_width(2),
            )))?;
        }
        let column_positions: Vec<i32> =
            (0..columns.len()).map(|c| chart.backend_coord(&(c as f64 + 0.5, 0.0)).0).collect();
        let row_positions: Vec<i32> =
            (0..rows.len()).map(|r| chart.backend_coord(&(0.0, (n_rows - 1 - r) as f64 + 0.5)).1).collect();
        let (x_pixels, y_pixels) = chart.plotting_area().get_pixel_range();
        drop(chart);
        draw_labels_below(root, columns, &column_positions, y_pixels.end + 6)?;
        draw_labels_left(root, rows, &row_positions, x_pixels.start - 8)?;
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn draw_lines<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        series: &[Series],
        categories: Option<&[String]>,
        log_x: bool,
        step: bool,
        percent: bool,
        reference: Option<&(f64, String)>,
        span: Option<&(f64, f64, String)>,
    ) -> DrawResult<DB> {
        // A log axis is drawn as a linear axis of log10(x), so one code path
        // serves both; its labels print the samples back as counts.
        let to_x = |x: f64| if log_x { x.max(1.0).log10() } else { x };
        let xs: Vec<f64> = series.iter().flat_map(|s| s.points.iter().map(|p| to_x(p.x))).collect();
        let (mut x_min, mut x_max) = match categories {
            Some(labels) => (-0.3, labels.len().max(1) as f64 - 0.7),
            None => {
                (xs.iter().copied().fold(f64::INFINITY, f64::min), xs.iter().copied().fold(f64::NEG_INFINITY, f64::max))
            }
        };
        if !x_min.is_finite() || !x_max.is_finite() {
            (x_min, x_max) = (0.0, 1.0);
        }
        if x_max - x_min < 1e-9 {
            (x_min, x_max) = (x_min - 0.5, x_max + 0.5);
        }
        // A cumulative distribution always spans 0 to 1; other lines fit their
        // bands and reference, so a narrow band is still visible.
        let (y_min, y_max) = if step && percent {
            // A little headroom, so a line at 100% is not cut by the frame.
            (0.0, 1.015)
        } else {
            let ys = series.iter().flat_map(|s| s.points.iter().flat_map(|p| [p.ci_low, p.ci_high, p.y]));
            let ys: Vec<f64> = ys.chain(reference.map(|r| r.0)).collect();
            let (lo, hi) = (
                ys.iter().copied().fold(f64::INFINITY, f64::min),
                ys.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            );
            let pad = ((hi - lo) * 0.08).max(if percent { 0.005 } else { 1e-6 });
            match (lo.is_finite(), percent) {
                (false, _) => (0.0, 1.0),
                (true, true) => ((lo - pad).max(0.0), (hi + pad).min(1.0)),
                (true, false) => (lo - pad, hi + pad),
            }
        };
        // The legend sits under the chart, outside the data: every series,
        // then the crossing's span and the reference line.
        let mut entries: Vec<LegendEntry> = Vec::new();
        if let Some((_, _, text)) = span {
            entries.push(LegendEntry { text: text.clone(), swatch: Swatch::Shade(SPAN_GREY) });
        }
        // A lone line needs no name: the title says what it is.
        for (index, s) in series.iter().enumerate().filter(|_| series.len() > 1) {
            entries.push(LegendEntry { text: s.name.clone(), swatch: Swatch::Line(PALETTE[index % PALETTE.len()]) });
        }
        if let Some((_, text)) = reference {
            entries.push(LegendEntry { text: text.clone(), swatch: Swatch::Dashed });
        }
        let (plot, legend) = split_for_legend(root, &entries);
        let mut chart = ChartBuilder::on(&plot)
            .caption(&self.title, font(TITLE_SIZE))
            .margin(20)
            .x_label_area_size(80)
            .y_label_area_size(90)
            .build_cartesian_2d(x_min..x_max, y_min..y_max)?;
        let y_formatter = axis_formatter(percent, y_max - y_min);
        let x_formatter = |x: &f64| {
            if log_x {
                if (x - x.round()).abs() < 1e-6 { format_count(10f64.powf(x.round())) } else { String::new() }
            } else if (x - x.round()).abs() < 1e-6 {
                format!("{}", x.round())
            } else {
                // Ticks land on sums of floating steps (0.30000000000000004):
                // print three decimals at most, trailing zeros trimmed.
                let text = format!("{x:.3}");
                text.trim_end_matches('0').trim_end_matches('.').to_string()
            }
        };
        let x_tick_count = if log_x { (x_max.floor() - x_min.ceil()) as usize + 1 } else { 10 };
        let mut mesh = chart.configure_mesh();
        mesh.y_labels(8)
            .y_label_formatter(&y_formatter)
            .x_label_formatter(&x_formatter)
            .label_style(font(LABEL_SIZE))
            .axis_desc_style(font(AXIS_TITLE_SIZE))
            .x_desc(&self.x_label)
            .y_desc(&self.y_label);
        if categories.is_some() {
            mesh.x_labels(0).disable_x_mesh();
        } else {
            mesh.x_labels(x_tick_count.max(2));
        }
        mesh.draw()?;

        if let Some((from, to, _)) = span {
            // Behind the lines, so they stay readable across it.
            chart.draw_series(std::iter::once(Rectangle::new(
                [(to_x(*from).max(x_min), y_min), (to_x(*to).min(x_max), y_max)],
                SPAN_GREY.mix(0.3).filled(),
            )))?;
        }
        for (index, s) in series.iter().enumerate() {
            let colour = PALETTE[index % PALETTE.len()];
            let mut points: Vec<LinePoint> = s.points.iter().map(|p| LinePoint { x: to_x(p.x), ..*p }).collect();
            if step {
                points = stepped(&points);
            }
            let mut band: Vec<(f64, f64)> = points.iter().map(|p| (p.x, p.ci_low)).collect();
            band.extend(points.iter().rev().map(|p| (p.x, p.ci_high)));
            chart.draw_series(std::iter::once(Polygon::new(band, colour.mix(0.2).filled())))?;
            chart.draw_series(LineSeries::new(points.iter().map(|p| (p.x, p.y)), colour.stroke_width(3)))?;
            if !step {
                chart.draw_series(points.iter().map(|p| Circle::new((p.x, p.y), 4, colour.filled())))?;
            }
        }
        if let Some((value, _)) = reference {
            chart.draw_series(DashedLineSeries::new(
                vec![(x_min, *value), (x_max, *value)],
                10,
                6,
                BLACK.stroke_width(2),
            ))?;
        }
        let (x_pixels, _) = chart.plotting_area().get_pixel_range();
        draw_legend(&legend, &entries, x_pixels.start)?;
        if let Some(labels) = categories {
            let positions: Vec<i32> = (0..labels.len()).map(|i| chart.backend_coord(&(i as f64, y_min)).0).collect();
            let (_, y_pixels) = chart.plotting_area().get_pixel_range();
            drop(chart);
            draw_labels_below(root, labels, &positions, y_pixels.end + 6)?;
        }
        Ok(())
    }

    fn draw_tornado<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        rows: &[TornadoRow],
        percent: bool,
    ) -> DrawResult<DB> {
        let n = rows.len().max(1);
        let reach = rows
            .iter()
            .flat_map(|r| [r.down, r.up])
            .flatten()
            .flat_map(|b| [b.ci_low.abs(), b.ci_high.abs(), b.change.abs()])
            .fold(0.0, f64::max);
        let reach = if reach > 0.0 { reach * 1.15 } else { 1.0 };
        let widest = rows.iter().map(|r| text_width(root, &r.label, LABEL_SIZE)).max().unwrap_or(0);
        let halves = [(0.52, 0.88, DOWN_COLOUR, "one step down (−1)"), (0.12, 0.48, UP_COLOUR, "one step up (+1)")];
        let entries: Vec<LegendEntry> = halves
            .iter()
            .map(|&(_, _, colour, text)| LegendEntry { text: text.to_string(), swatch: Swatch::Block(colour) })
            .collect();
        let (plot, legend) = split_for_legend(root, &entries);
        let mut chart = ChartBuilder::on(&plot)
            .caption(&self.title, font(TITLE_SIZE))
            .margin(20)
            .x_label_area_size(80)
            .y_label_area_size(widest + 50)
            .build_cartesian_2d(-reach..reach, 0f64..n as f64)?;
        // A tick at zero prints as 0, not as -0 or +0.
        let formatter = |v: &f64| match (percent, v.abs() < 1e-12) {
            (_, true) => "0".to_string(),
            (true, false) => format!("{:+.0}", v * 100.0),
            (false, false) => format!("{v:+.2}"),
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_labels(9)
            .x_label_formatter(&formatter)
            .label_style(font(LABEL_SIZE))
            .axis_desc_style(font(AXIS_TITLE_SIZE))
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .draw()?;
        // The first row (the largest change) is drawn at the top; its step
        // down fills the upper half of the row, its step up the lower half.
        let row = (chart.backend_coord(&(0.0, 0.0)).1 - chart.backend_coord(&(0.0, 1.0)).1).max(1);
        let cap = (CAP_PIXELS / f64::from(row)).min(0.1);
        for (side, (bottom, top, colour, _)) in halves.into_iter().enumerate() {
            let bars: Vec<(f64, TornadoBar)> = rows
                .iter()
                .enumerate()
                .filter_map(|(i, r)| if side == 0 { r.down } else { r.up }.map(|b| ((n - 1 - i) as f64, b)))
                .collect();
            chart.draw_series(
                bars.iter().map(|(y, b)| Rectangle::new([(0.0, y + bottom), (b.change, y + top)], colour.filled())),
            )?;
            for (y, b) in &bars {
                draw_whisker_horizontal(&chart, y + (bottom + top) / 2.0, b.ci_low, b.ci_high, cap)?;
            }
        }
        chart
            .draw_series(std::iter::once(PathElement::new(vec![(0.0, 0.0), (0.0, n as f64)], BLACK.stroke_width(2))))?;
        let labels: Vec<String> = rows.iter().map(|r| r.label.clone()).collect();
        let positions: Vec<i32> =
            (0..rows.len()).map(|i| chart.backend_coord(&(0.0, (n - 1 - i) as f64 + 0.5)).1).collect();
        let (x_pixels, _) = chart.plotting_area().get_pixel_range();
        drop(chart);
        draw_legend(&legend, &entries, x_pixels.start)?;
        draw_labels_left(root, &labels, &positions, x_pixels.start - 8)?;
        Ok(())
    }
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;
type Cartesian = Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>;

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), AnalysisError> {
    crate::frame::write_bytes_atomically(path, bytes).map_err(AnalysisError::Io)
}

/// Tick labels: percentages for probabilities, with a decimal when the axis
/// spans so little that whole percents would repeat.
fn axis_formatter(percent: bool, span: f64) -> impl Fn(&f64) -> String {
    let decimals = if span < 0.08 { 1 } else { 0 };
    move |v: &f64| if percent { format!("{:.*}%", decimals, v * 100.0) } else { format!("{v}") }
}

/// A value as printed in cells and tables: a percentage to one decimal for
/// probabilities, otherwise three significant decimals.
pub fn format_value(value: f64, percent: bool) -> String {
    if percent { format!("{:.1}%", value * 100.0) } else { format!("{value:.2}") }
}

/// A sample count for an axis: 100, 1k, 10k, 1M.
fn format_count(n: f64) -> String {
    if n >= 1e6 {
        format!("{}M", n / 1e6)
    } else if n >= 1e3 {
        format!("{}k", n / 1e3)
    } else {
        format!("{n}")
    }
}

fn text_width<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, text: &str, size: f64) -> u32 {
    root.estimate_text_size(text, &font(size)).map_or((text.chars().count() as f64 * size * 0.6) as u32, |(w, _)| w)
}

/// Category labels centred under `positions`, shrunk until they fit their
/// slots and, if even the smallest size does not fit, only every k-th drawn.
fn draw_labels_below<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    labels: &[String],
    positions: &[i32],
    y: i32,
) -> DrawResult<DB> {
    if labels.is_empty() {
        return Ok(());
    }
    let slot = if positions.len() > 1 { (positions[1] - positions[0]).unsigned_abs() } else { 400 };
    let widest = |size: f64| labels.iter().map(|l| text_width(root, l, size)).max().unwrap_or(0);
    let mut size = LABEL_SIZE;
    while size > SMALLEST_LABEL_SIZE && widest(size) + 6 > slot {
        size -= 1.0;
    }
    let every = (widest(size) + 6).div_ceil(slot.max(1)).max(1) as usize;
    let style = font(size).pos(Pos::new(HPos::Center, VPos::Top));
    for (i, (label, x)) in labels.iter().zip(positions).enumerate() {
        if i % every == 0 {
            root.draw_text(label, &style, (*x, y))?;
        }
    }
    Ok(())
}

/// Category labels right-aligned left of the plot at `positions`, shrunk
/// until rows do not collide.
fn draw_labels_left<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    labels: &[String],
    positions: &[i32],
    x: i32,
) -> DrawResult<DB> {
    let slot = if positions.len() > 1 { (positions[1] - positions[0]).unsigned_abs() } else { 400 };
    let size = (slot as f64 * 0.8).clamp(SMALLEST_LABEL_SIZE, LABEL_SIZE);
    let style = font(size).pos(Pos::new(HPos::Right, VPos::Center));
    for (label, y) in labels.iter().zip(positions) {
        root.draw_text(label, &style, (x, *y))?;
    }
    Ok(())
}

fn draw_whisker_vertical<DB: DrawingBackend>(
    chart: &ChartContext<'_, DB, Cartesian>,
    x: f64,
    low: f64,
    high: f64,
    cap: f64,
) -> DrawResult<DB> {
    let style = WHISKER_COLOUR.stroke_width(2);
    chart.plotting_area().draw(&PathElement::new(vec![(x, low), (x, high)], style))?;
    chart.plotting_area().draw(&PathElement::new(vec![(x - cap, low), (x + cap, low)], style))?;
    chart.plotting_area().draw(&PathElement::new(vec![(x - cap, high), (x + cap, high)], style))?;
    Ok(())
}

fn draw_whisker_horizontal<DB: DrawingBackend>(
    chart: &ChartContext<'_, DB, Cartesian>,
    y: f64,
    low: f64,
    high: f64,
    cap: f64,
) -> DrawResult<DB> {
    let style = WHISKER_COLOUR.stroke_width(2);
    chart.plotting_area().draw(&PathElement::new(vec![(low, y), (high, y)], style))?;
    chart.plotting_area().draw(&PathElement::new(vec![(low, y - cap), (low, y + cap)], style))?;
    chart.plotting_area().draw(&PathElement::new(vec![(high, y - cap), (high, y + cap)], style))?;
    Ok(())
}

/// The grey of a crossing's shaded span.
const SPAN_GREY: RGBColor = RGBColor(0x99, 0x99, 0x99);

/// What a legend entry's swatch looks like.
#[derive(Clone, Copy, Debug)]
enum Swatch {
    /// A line of a series' colour.
    Line(RGBColor),
    /// A dashed black line (a reference value).
    Dashed,
    /// A light shade (a span of x).
    Shade(RGBColor),
    /// A solid block (bars).
    Block(RGBColor),
}

/// One entry of a legend: its swatch and text.
#[derive(Clone, Debug)]
struct LegendEntry {
    text: String,
    swatch: Swatch,
}

/// Height of one legend row, in pixels.
const LEGEND_ROW: u32 = 30;
/// Width of a swatch and the gaps around an entry, in pixels.
const SWATCH: i32 = 30;
const LEGEND_GAP: i32 = 28;

/// The legend's rows: entries laid left to right, a new row when the next
/// would pass `width`.
fn legend_rows<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
    width: i32,
) -> Vec<Vec<usize>> {
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut used = 0;
    for (i, entry) in entries.iter().enumerate() {
        let w = SWATCH + 8 + text_width(root, &entry.text, LABEL_SIZE) as i32 + LEGEND_GAP;
        match rows.last_mut() {
            Some(row) if used + w <= width => {
                row.push(i);
                used += w;
            }
            _ => {
                rows.push(vec![i]);
                used = w;
            }
        }
    }
    rows
}

/// The area for the plot and the strip under it for the legend (empty when
/// there is nothing to explain), so no legend ever covers data.
fn split_for_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
) -> (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>) {
    let (width, height) = root.dim_in_pixel();
    let rows = legend_rows(root, entries, width as i32 - 140).len() as u32;
    let strip = if rows == 0 { 0 } else { rows * LEGEND_ROW + 12 };
    root.split_vertically(height.saturating_sub(strip))
}

/// Draws the legend's rows in `area`, starting at `left` (the plot's left edge).
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
    left: i32,
) -> DrawResult<DB> {
    let (width, _) = area.dim_in_pixel();
    let style = font(LABEL_SIZE).pos(Pos::new(HPos::Left, VPos::Center));
    for (r, row) in legend_rows(area, entries, width as i32 - 140).iter().enumerate() {
        let y = 6 + r as i32 * LEGEND_ROW as i32 + LEGEND_ROW as i32 / 2;
        let mut x = left;
        for &i in row {
            let entry = &entries[i];
            match entry.swatch {
                Swatch::Line(colour) => {
                    area.draw(&PathElement::new(vec![(x, y), (x + SWATCH, y)], colour.stroke_width(4)))?
                }
                Swatch::Dashed => {
                    area.draw(&PathElement::new(vec![(x, y), (x + 11, y)], BLACK.stroke_width(2)))?;
                    area.draw(&PathElement::new(vec![(x + 19, y), (x + SWATCH, y)], BLACK.stroke_width(2)))?;
                }
                Swatch::Shade(colour) => {
                    area.draw(&Rectangle::new([(x, y - 9), (x + SWATCH, y + 9)], colour.mix(0.3).filled()))?
                }
                Swatch::Block(colour) => {
                    area.draw(&Rectangle::new([(x, y - 9), (x + SWATCH, y + 9)], colour.filled()))?
                }
            }
            area.draw_text(&entry.text, &style, (x + SWATCH + 8, y))?;
            x += SWATCH + 8 + text_width(area, &entry.text, LABEL_SIZE) as i32 + LEGEND_GAP;
        }
    }
    Ok(())
}

/// Points of a step function: each value holds until the next x.
fn stepped(points: &[LinePoint]) -> Vec<LinePoint> {
    let mut out = Vec::with_capacity(points.len() * 2);
    for (i, p) in points.iter().enumerate() {
        if i > 0 {
            out.push(LinePoint { x: p.x, ..points[i - 1] });
        }
        out.push(*p);
    }
    out
}

/// Red through white to blue: under the midpoint one side is favoured, over it
/// the other, and even odds are white.
fn diverging_colour(value: f64, low: f64, high: f64) -> RGBColor {
    let t = if high > low { ((value - low) / (high - low)).clamp(0.0, 1.0) } else { 0.5 };
    let (red, white, blue) = ((0xB2, 0x18, 0x2B), (0xF7, 0xF7, 0xF7), (0x21, 0x66, 0xAC));
    let mix = |a: (u8, u8, u8), b: (u8, u8, u8), s: f64| {
        let channel = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * s).round() as u8;
        RGBColor(channel(a.0, b.0), channel(a.1, b.1), channel(a.2, b.2))
    };
    if t < 0.5 { mix(red, white, t * 2.0) } else { mix(white, blue, (t - 0.5) * 2.0) }
}

fn luminance(colour: RGBColor) -> f64 {
    (0.2126 * f64::from(colour.0) + 0.7152 * f64::from(colour.1) + 0.0722 * f64::from(colour.2)) / 255.0
}

/// Bars of one metric of a distribution, with Wilson whiskers at `confidence`
/// (none for an exact distribution).
pub fn distribution_bars(
    name: &str,
    title: &str,
    dist: &Distribution,
    metric: &str,
    confidence: f64,
) -> Result<Chart, AnalysisError> {
    let bars = metric_bars(dist, metric, confidence)?.into_iter().map(|(_, bar)| bar).collect();
    Ok(Chart::new(
        name,
        title,
        metric,
        &format!("probability ({}% interval)", percent_label(confidence)),
        ChartKind::Bars { bars, percent: true },
    ))
}

/// Each value of `metric` in `dist` as a bar (keyed by the value's code):
/// its probability, and its Wilson interval where sampled.
fn metric_bars(dist: &Distribution, metric: &str, confidence: f64) -> Result<Vec<(i64, Bar)>, AnalysisError> {
    let index =
        dist.metric_index(metric).ok_or_else(|| AnalysisError::Invalid(format!("no metric `{metric}` to chart")))?;
    let domain = dist.metrics[index].domain;
    Ok(dist
        .marginal(index)
        .into_iter()
        .map(|row| {
            let (ci_low, ci_high) = match dist.samples() {
                Some(n) => wilson(row.count, n, confidence),
                None => (row.probability, row.probability),
            };
            (row.value, Bar { label: domain.format(row.value), value: row.probability, ci_low, ci_high })
        })
        .collect())
}

/// One metric's law in several runs (A and B of a comparison) as bars side
/// by side in each value, with whiskers where sampled and a legend naming
/// each run.
pub fn grouped_distribution_bars(
    name: &str,
    title: &str,
    runs: &[(String, &Distribution)],
    metric: &str,
    confidence: f64,
) -> Result<Chart, AnalysisError> {
    let mut categories: Vec<(i64, String)> = Vec::new();
    let mut series = Vec::with_capacity(runs.len());
    for (label, dist) in runs {
        let bars = metric_bars(dist, metric, confidence)?;
        for (value, bar) in &bars {
            if !categories.iter().any(|(v, _)| v == value) {
                categories.push((*value, bar.label.clone()));
            }
        }
        series.push((label.clone(), bars));
    }
    categories.sort_by_key(|(v, _)| *v);
    let series = series
        .into_iter()
        .map(|(label, bars)| {
            let cells = categories
                .iter()
                .map(|(v, _)| bars.iter().find(|(value, _)| value == v).map(|(_, b)| b.clone()))
                .collect();
            (label, cells)
        })
        .collect();
    Ok(Chart::new(
        name,
        title,
        metric,
        &format!("probability ({}% interval)", percent_label(confidence)),
        ChartKind::GroupedBars { categories: categories.into_iter().map(|(_, t)| t).collect(), series, percent: true },
    ))
}

fn percent_label(confidence: f64) -> String {
    format!("{}", (confidence * 1000.0).round() / 10.0)
}

/// The cumulative distribution of an integer metric (turns to a decision),
/// one series per (name, distribution), with Wilson bands on the cumulative
/// counts.
pub fn cdf_chart(
    name: &str,
    title: &str,
    series: &[(String, &Distribution)],
    metric: &str,
    unit: &str,
    confidence: f64,
) -> Result<Chart, AnalysisError> {
    let mut out = Vec::with_capacity(series.len());
    for (label, dist) in series {
        let index = dist
            .metric_index(metric)
            .ok_or_else(|| AnalysisError::Invalid(format!("`{label}` has no metric `{metric}` to chart")))?;
        let mut cumulative_count = 0;
        let mut cumulative = 0.0;
        let points = dist
            .marginal(index)
            .into_iter()
            .map(|row| {
                cumulative_count += row.count;
                cumulative += row.probability;
                let (ci_low, ci_high) = match dist.samples() {
                    Some(n) => wilson(cumulative_count, n, confidence),
                    None => (cumulative, cumulative),
                };
                LinePoint { x: row.value as f64, y: cumulative.min(1.0), ci_low, ci_high }
            })
            .collect();
        out.push(Series { name: label.clone(), points });
    }
    Ok(Chart::new(
        name,
        title,
        &format!("{metric} ({unit})"),
        &format!("probability of {metric} or fewer"),
        ChartKind::Lines {
            series: out,
            categories: None,
            log_x: false,
            step: true,
            percent: true,
            reference: None,
            span: None,
        },
    ))
}

/// Lines over a swept key, one series per sweep (per ruleset), with bands.
/// The sweeps' values are taken as numbers if they all parse, else as
/// categories in the first sweep's order.
pub fn sweep_chart(name: &str, title: &str, x_label: &str, sweeps: &[Sweep]) -> Chart {
    let numeric = sweeps.iter().all(|s| s.points.iter().all(|(v, _)| v.parse::<f64>().is_ok()));
    let mut categories: Vec<String> = Vec::new();
    if !numeric {
        for s in sweeps {
            for (v, _) in &s.points {
                if !categories.contains(v) {
                    categories.push(v.clone());
                }
            }
        }
    }
    let series = sweeps
        .iter()
        .map(|s| Series {
            name: s.ruleset.clone(),
            points: s
                .points
                .iter()
                .map(|(v, e)| {
                    let x = if numeric {
                        v.parse().unwrap_or(0.0)
                    } else {
                        categories.iter().position(|c| c == v).unwrap_or(0) as f64
                    };
                    line_point(x, e)
                })
                .collect(),
        })
        .collect();
    let measure = sweeps.first().map(|s| s.measure.clone()).unwrap_or_else(|| Measure::mean("?"));
    Chart::new(
        name,
        title,
        x_label,
        &measure_axis(&measure),
        ChartKind::Lines {
            series,
            categories: (!numeric).then_some(categories),
            log_x: false,
            step: false,
            percent: measure.is_probability(),
            reference: measure.is_probability().then(|| (0.5, "even odds".to_string())),
            span: None,
        },
    )
}

fn measure_axis(measure: &Measure) -> String {
    match measure {
        Measure::Probability { .. } | Measure::AtLeast { .. } => format!("{} (%)", measure.plain()),
        Measure::Mean { metric } => format!("mean {} per engagement", metric.replace('_', " ")),
    }
}

/// The ladder as a heatmap: attacker's quality down, defender's across.
pub fn ladder_heatmap(name: &str, title: &str, ladder: &Ladder) -> Chart {
    let cells = ladder
        .cells
        .iter()
        .map(|row| row.iter().map(|e| Some(Cell { value: e.value, ci_low: e.ci_low, ci_high: e.ci_high })).collect())
        .collect();
    Chart::new(
        name,
        title,
        "defender's quality",
        "attacker's quality",
        ChartKind::Heatmap {
            rows: ladder.qualities.clone(),
            columns: ladder.qualities.clone(),
            cells,
            percent: ladder.measure.is_probability(),
        },
    )
}

/// An estimate drawn at `x`: its value with its interval as the band.
fn line_point(x: f64, estimate: &crate::balance::Estimate) -> LinePoint {
    LinePoint { x, y: estimate.value, ci_low: estimate.ci_low, ci_high: estimate.ci_high }
}

/// A search for what makes it even: the values probed as a line with its
/// band, the target marked, and each crossing's two neighbouring values
/// shaded. A choice key's values are categories in the order searched.
pub fn even_chart(name: &str, title: &str, even: &Even) -> Chart {
    let numbers = even.axis.numbers.as_ref();
    let x = |index: usize| numbers.map_or(index as f64, |n| n[index] as f64);
    let points = even.points.iter().map(|p| line_point(x(p.index), &p.estimate)).collect();
    // One crossing is shaded between its neighbours; several are listed in
    // the finding and the table.
    let span = match even.crossings.as_slice() {
        [Crossing::Between { below, above, .. }] => {
            Some((x(even.points[*below].index), x(even.points[*above].index), "crossing".to_string()))
        }
        _ => None,
    };
    Chart::new(
        name,
        title,
        &even.axis.key,
        &measure_axis(&even.measure),
        ChartKind::Lines {
            series: vec![Series { name: capitalised(&even.measure.plain()), points }],
            categories: numbers.is_none().then(|| even.axis.values.clone()),
            log_x: false,
            step: false,
            percent: even.measure.is_probability(),
            reference: Some((even.target, format!("target {}", say(&even.measure, even.target)))),
            span,
        },
    )
}

/// The even value of one key against each value of another: each search's
/// crossing as a line (interpolated for an integer key, else the first
/// value past the target), its band the two neighbouring values probed.
pub fn even_curve_chart(name: &str, title: &str, by_key: &str, searches: &[(String, Even)]) -> Chart {
    let categories: Vec<String> = searches.iter().map(|(v, _)| v.clone()).collect();
    let numeric = categories.iter().all(|v| v.parse::<f64>().is_ok());
    let mut points = Vec::new();
    let mut y_label = String::new();
    for (k, (value, even)) in searches.iter().enumerate() {
        y_label = even.axis.key.clone();
        let Some(Crossing::Between { below, above, at }) = even.crossings.first() else { continue };
        let (Some(numbers), Some(at)) = (even.axis.numbers.as_ref(), at) else { continue };
        let (low, high) = (numbers[even.points[*below].index] as f64, numbers[even.points[*above].index] as f64);
        let x = if numeric { value.parse().unwrap_or(k as f64) } else { k as f64 };
        points.push(LinePoint { x, y: *at, ci_low: low.min(high), ci_high: low.max(high) });
    }
    Chart::new(
        name,
        title,
        by_key,
        &format!("{y_label} where even"),
        ChartKind::Lines {
            series: vec![Series {
                name: format!(
                    "{y_label} for {}",
                    searches.first().map_or(String::new(), |(_, e)| say(&e.measure, e.target))
                ),
                points,
            }],
            categories: (!numeric).then_some(categories),
            log_x: false,
            step: false,
            percent: false,
            reference: None,
            span: None,
        },
    )
}

/// The sensitivity ranking as a tornado chart.
pub fn sensitivity_tornado(name: &str, title: &str, sensitivity: &Sensitivity) -> Chart {
    let bar = |c: &crate::balance::Change| TornadoBar { change: c.change, ci_low: c.ci_low, ci_high: c.ci_high };
    // A ruleset prints dozens of numbers; the chart shows the ones that move
    // the measure (the table in the report lists them all).
    let moving: Vec<_> = sensitivity.rows.iter().filter(|r| r.largest_change() > 0.0).collect();
    let shown = moving.len().min(TORNADO_MAX_ROWS);
    let rows = moving[..shown]
        .iter()
        .map(|r| TornadoRow {
            label: format!("{} = {}", r.field, r.baseline),
            down: r.down.as_ref().map(bar),
            up: r.up.as_ref().map(bar),
        })
        .collect();
    let title =
        if moving.len() > shown { format!("{title} (top {shown} of {})", moving.len()) } else { title.to_string() };
    let percent = sensitivity.measure.is_probability();
    let x_label = if percent { "change (percentage points)" } else { "change" };
    Chart::new(name, &title, x_label, "rule field (printed value)", ChartKind::Tornado { rows, percent })
}

/// The estimate and its band as samples grow, on a log axis, with the exact
/// value marked where known.
pub fn convergence_chart(name: &str, title: &str, convergence: &Convergence) -> Chart {
    let points = convergence.points.iter().map(|p| line_point(p.samples as f64, &p.estimate)).collect();
    Chart::new(
        name,
        title,
        "samples (log scale)",
        &measure_axis(&convergence.measure),
        ChartKind::Lines {
            series: vec![Series { name: "Monte Carlo".to_string(), points }],
            categories: None,
            log_x: true,
            step: false,
            percent: convergence.measure.is_probability(),
            reference: convergence.exact.map(|v| (v, "exact".to_string())),
            span: None,
        },
    )
}
