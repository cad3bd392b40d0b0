//! Printing: every shipped report and playsheet, printed to PDF by headless
//! Chromium as a reader would print it (A4 from the page's own @page rule),
//! then looked at page by page as images (`pdftoppm`): no page count over
//! the limit the report carries, and nothing running into the right margin
//! (where a table or chart too wide for the page would land).

use super::TempDir;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Headless Chromium: `VOLLEY_CHROMIUM`, else the first of the usual names
/// on PATH. CI (`.ci/run`) installs Debian's `chromium` when it is missing.
pub fn chromium() -> PathBuf {
    super::program(
        "VOLLEY_CHROMIUM",
        &["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"],
        "the browser tests need headless Chromium",
    )
}

/// Poppler's `pdftoppm`, which turns each printed page into an image:
/// `VOLLEY_PDFTOPPM`, else on PATH (Debian's poppler-utils; `.ci/run`
/// installs it).
fn pdftoppm() -> PathBuf {
    super::program("VOLLEY_PDFTOPPM", &["pdftoppm"], "the print tests need pdftoppm (poppler-utils)")
}

/// Dots per inch the pages are looked at: enough to see a stray line of
/// text in a 14 mm margin (about 16 pixels).
const DPI: u32 = 30;

/// One printed page as grey pixels, row by row (0 black, 255 white).
pub struct Page {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// The pixels.
    pub grey: Vec<u8>,
}

impl Page {
    /// Whether the strip inside the page's right edge, within the
    /// narrowest margin volley prints with (9 mm), is blank: whatever is
    /// there ran off the text column.
    pub fn right_margin_is_clear(&self) -> bool {
        let margin = (9.0 / 25.4 * DPI as f64) as usize;
        let columns = self.width.saturating_sub(margin - 2)..self.width.saturating_sub(1);
        (0..self.height).all(|y| columns.clone().all(|x| self.grey[y * self.width + x] > 200))
    }
}

/// Reads a binary PGM (P5) as `pdftoppm -gray` writes it.
fn read_pgm(bytes: &[u8]) -> Page {
    // The header is four whitespace-separated fields: P5, width, height, maxval.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
    }
    assert_eq!(fields[0], "P5", "pdftoppm -gray writes binary PGM");
    let (width, height): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    let grey = bytes[at + 1..at + 1 + width * height].to_vec();
    Page { width, height, grey }
}

/// Prints `html` to PDF in headless Chromium and returns its pages as
/// images. `scratch` holds the PDF, the images and the browser profile.
pub fn printed(html: &Path, scratch: &Path) -> Vec<Page> {
    let stem = html.with_extension("").to_string_lossy().replace(['/', '\\'], "_");
    let pdf = scratch.join(format!("{stem}.pdf"));
    let profile = scratch.join(format!("{stem}-profile"));
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
    assert!(pdf.is_file(), "chromium wrote no PDF for {}: {}", html.display(), String::from_utf8_lossy(&output.stderr));
    let prefix = scratch.join(&stem);
    let status = Command::new(pdftoppm())
        .args(["-gray", "-r", &DPI.to_string()])
        .arg(&pdf)
        .arg(&prefix)
        .status()
        .expect("pdftoppm runs");
    assert!(status.success(), "pdftoppm failed on {}", pdf.display());
    // pdftoppm numbers pages `-1.pgm`, `-01.pgm` or `-001.pgm` by their count.
    let mut images: Vec<PathBuf> = std::fs::read_dir(scratch)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with(&format!("{stem}-")) && name.ends_with(".pgm")
        })
        .collect();
    images.sort();
    images.iter().map(|p| read_pgm(&std::fs::read(p).unwrap())).collect()
}

/// The page limit a report carries in its `<meta name="volley-print-pages">`.
fn page_limit(html: &str) -> Option<usize> {
    let meta = format!("<meta name=\"{}\" content=\"", volley_analysis::report::PAGES_META);
    let rest = &html[html.find(&meta)? + meta.len()..];
    rest[..rest.find('"')?].parse().ok()
}

/// Every report and playsheet shipped in `reports/`, printed: within its
/// page limit (a playsheet one page) and clear of the right margin. Three
/// browsers print at once.
#[test]
fn every_shipped_report_and_playsheet_prints_on_a4_within_its_pages_and_margins() {
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../reports");
    let mut pages: Vec<(PathBuf, usize)> = Vec::new();
    for entry in std::fs::read_dir(&reports).unwrap() {
        let dir = entry.unwrap().path();
        let report = dir.join("report.html");
        if report.is_file() {
            let html = std::fs::read_to_string(&report).unwrap();
            let limit = page_limit(&html).unwrap_or_else(|| {
                panic!("{} carries no page limit: regenerate with `volley report`", report.display())
            });
            pages.push((report, limit));
        }
    }
    for entry in std::fs::read_dir(reports.join("playsheets")).unwrap() {
        let sheet = entry.unwrap().path();
        if sheet.extension().is_some_and(|e| e == "html") {
            pages.push((sheet, 1));
        }
    }
    pages.sort();
    assert!(pages.len() >= 20, "{} pages found in reports/", pages.len());
    let scratch = TempDir::new("printing");
    let failures = std::sync::Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((html, limit)) = pages.get(i) else { break };
                    let printed = printed(html, &scratch.0);
                    let name = html.strip_prefix(&reports).unwrap().display().to_string();
                    let mut failed = Vec::new();
                    if printed.len() > *limit {
                        failed.push(format!("{name}: {} pages, over its limit of {limit}", printed.len()));
                    }
                    for (n, page) in printed.iter().enumerate() {
                        if !page.right_margin_is_clear() {
                            failed.push(format!("{name}: page {} runs into the right margin", n + 1));
                        }
                    }
                    failures.lock().unwrap().extend(failed);
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The margin check itself: a page with ink in its right margin fails it,
/// a blank one passes.
#[test]
fn a_page_with_ink_in_its_right_margin_is_caught() {
    let (width, height) = (248, 351);
    let mut page = Page { width, height, grey: vec![255; width * height] };
    assert!(page.right_margin_is_clear());
    page.grey[100 * width + width - 5] = 0;
    assert!(!page.right_margin_is_clear());
    page.grey[100 * width + width - 5] = 255;
    page.grey[100 * width + width - 20] = 0;
    assert!(page.right_margin_is_clear(), "ink inside the text column is not overflow");
}
