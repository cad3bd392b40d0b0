//! Runs the real binary and checks its output and exit status.

mod dist;
mod even;
mod explorer;
mod inputs;
mod list_and_rules;
mod playsheets;
mod printing;
mod provenance;
mod run_and_report;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `volley` with these arguments.
pub fn volley(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_volley")).args(args).output().expect("the binary runs")
}

/// Runs `volley` and returns stdout, asserting success.
pub fn volley_ok(args: &[&str]) -> String {
    let output = volley(args);
    assert!(
        output.status.success(),
        "volley {args:?} failed with {:?}: {}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// Runs `volley`, asserts exit status 2, and returns stderr.
pub fn volley_bad_input(args: &[&str]) -> String {
    let output = volley(args);
    assert_eq!(output.status.code(), Some(2), "volley {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stdout.is_empty(), "nothing on stdout for bad input");
    String::from_utf8(output.stderr).expect("UTF-8 errors")
}

/// A program the environment variable `variable` names, else the first of
/// `names` on PATH; a panic saying how to install it otherwise (`.ci/run`
/// installs Debian's chromium and chromium-driver).
pub fn program(variable: &str, names: &[&str], why: &str) -> PathBuf {
    if let Some(given) = std::env::var_os(variable) {
        return PathBuf::from(given);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in names {
        for dir in std::env::split_paths(&path) {
            if dir.join(name).is_file() {
                return dir.join(name);
            }
        }
    }
    panic!(
        "{why}: install it (Debian: apt-get install -y chromium chromium-driver poppler-utils; .ci/run does) or set {variable}"
    )
}

/// A scratch directory, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("volley-{name}-{}", std::process::id()));
        std::fs::remove_dir_all(&dir).ok();
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// A path as the text an argument takes.
pub fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}
