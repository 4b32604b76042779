//! Runs the browser scripts of `tests/browser/` (headless Chromium through
//! `playwright-core`, both installed by `.ci/run`: Debian's `chromium`, and `npm ci`).
//! Never skips: a missing browser or package is a failure that says what to install.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh directory under `target/` for a test's outputs (screenshots, SVG).
pub fn out_dir(name: &str) -> PathBuf {
    let dir = repo().join("target").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the output directory under target/");
    dir
}

/// Runs `node tests/browser/<script> args…` and returns its stdout parsed as one
/// JSON value per line; panics with the script's stderr when it fails.
pub fn run(script: &str, args: &[&Path]) -> Vec<serde_json::Value> {
    let chromium = std::env::var_os("CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    assert!(
        chromium.exists(),
        "{} is missing: install Chromium (Debian/Ubuntu: `apt-get install -y chromium`; .ci/run does) or set CHROMIUM",
        chromium.display()
    );
    assert!(
        repo().join("node_modules/playwright-core").exists(),
        "playwright-core is not installed: run `npm ci` in {} (the README's test command does)",
        repo().display()
    );
    let out = Command::new("node")
        .arg(repo().join("tests/browser").join(script))
        .args(args)
        .current_dir(repo())
        .output()
        .unwrap_or_else(|e| panic!("cannot start node (install Node.js 18 or newer): {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{script} failed:\n{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{script} printed `{line}`: {e}")))
        .collect()
}

/// A number field of a script's result, 0 when absent.
pub fn number(value: &serde_json::Value, field: &str) -> f64 {
    value[field].as_f64().unwrap_or(0.0)
}
