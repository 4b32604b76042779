//! End-to-end corpus of invalid models: runs the real `cosmap` binary on every
//! `tests/bad-models/*.json` and checks that it refuses each one cleanly.
//!
//! Each `X.json` has a sibling `X.expected`: one substring per line that stderr
//! must contain (the message, `X.json:line:col (at $.json.path)`, the help, and
//! the problem count). Every case must exit with code 2, print nothing on stdout
//! and never panic. All failures are collected and reported together.

mod support_cli;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{SystemTime, UNIX_EPOCH};

use support_cli::cosmap;

/// Exit code of `cosmap` for an invalid model.
const EXIT_INVALID: i32 = 2;
/// Exit code of `cosmap` for any other failure (for example an unreadable file).
const EXIT_FAILURE: i32 = 1;
/// The corpus must not shrink by accident.
const MIN_CASES: usize = 40;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("bad-models")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The ways `output` falls short of a clean refusal with `code` whose stderr has every `expected` line.
fn problems(output: &Output, code: i32, expected: &[String]) -> Vec<String> {
    let stderr = text(&output.stderr);
    let mut found = Vec::new();
    if output.status.code() != Some(code) {
        found.push(format!("exit code {:?}, expected {code}", output.status.code()));
    }
    if !output.stdout.is_empty() {
        let stdout = text(&output.stdout);
        let head: String = stdout.chars().take(500).collect();
        found.push(format!("stdout is not empty: {head}…"));
    }
    for bad in ["panicked", "RUST_BACKTRACE"] {
        if stderr.contains(bad) {
            found.push(format!("stderr contains `{bad}`"));
        }
    }
    for line in expected {
        if !stderr.contains(line.as_str()) {
            found.push(format!("stderr lacks: {line}"));
        }
    }
    found
}

/// The non-empty lines of an `.expected` file.
fn expected_lines(path: &Path) -> Result<Vec<String>, String> {
    let content = fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let lines: Vec<String> = content
        .lines()
        .map(|l| l.trim_end_matches('\r').to_string())
        .filter(|l| !l.trim().is_empty())
        .collect();
    if lines.is_empty() {
        return Err(format!("{} lists nothing", path.display()));
    }
    Ok(lines)
}

#[test]
fn every_bad_model_is_refused_with_a_located_explained_message() {
    let dir = corpus_dir();
    let mut entries: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("tests/bad-models exists")
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    let models: Vec<&PathBuf> = entries
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    let mut failures: Vec<String> = Vec::new();
    // Every file in the corpus is a case or its expectation.
    for path in &entries {
        let ok = match path.extension().and_then(|e| e.to_str()) {
            Some("json") => path.with_extension("expected").is_file(),
            Some("expected") => path.with_extension("json").is_file(),
            _ => false,
        };
        if !ok {
            failures.push(format!("{}: has no partner (.json ↔ .expected)", path.display()));
        }
    }
    if models.len() < MIN_CASES {
        failures.push(format!("only {} cases, expected at least {MIN_CASES}", models.len()));
    }
    for model in &models {
        let name = model.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let expected = match expected_lines(&model.with_extension("expected")) {
            Ok(lines) => lines,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        for command in ["check", "model"] {
            let output = cosmap(&[command.as_ref(), model.as_os_str()]);
            let found = problems(&output, EXIT_INVALID, &expected);
            if !found.is_empty() {
                failures.push(format!(
                    "cosmap {command} {name}:\n  - {}\n  actual stderr:\n{}",
                    found.join("\n  - "),
                    indent(&text(&output.stderr))
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} bad-model checks failed:\n\n{}",
        failures.len(),
        models.len() * 2,
        failures.join("\n\n")
    );
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    | {l}\n")).collect()
}

/// A file in the temporary directory that is removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(stem: &str) -> Self {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        TempFile(std::env::temp_dir().join(format!("cosmap-{stem}-{}-{nanos}.json", std::process::id())))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

#[test]
fn a_model_over_32_mib_is_refused_before_parsing() {
    let file = TempFile::new("oversized");
    // A valid model padded with whitespace: only its size is wrong.
    let model = br#"{"name": "Shop", "entities": [{"name": "Order", "identity": "orderId"}], "aggregates": [{"root": "Order"}]}"#;
    let mut bytes = Vec::with_capacity(33 * 1024 * 1024 + model.len());
    bytes.extend_from_slice(model);
    bytes.resize(33 * 1024 * 1024 + model.len(), b' ');
    fs::write(&file.0, &bytes).expect("write the oversized model");
    let name = file.0.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let expected = [
        "the file is 33.0 MiB; cosmap reads model files of at most 32 MiB".to_string(),
        format!("{name} (at $)"),
        "check that this is the right file".to_string(),
    ];
    let mut failures = Vec::new();
    for command in ["check", "model"] {
        let output = cosmap(&[command.as_ref(), file.0.as_os_str()]);
        let found = problems(&output, EXIT_INVALID, &expected);
        if !found.is_empty() {
            failures.push(format!(
                "cosmap {command}: {}\n{}",
                found.join("; "),
                text(&output.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_missing_file_is_a_failure_that_names_the_path() {
    let missing = corpus_dir().join("no-such-model.json");
    let output = cosmap(&["check".as_ref(), missing.as_os_str()]);
    let expected = [format!("cannot read `{}`", missing.display())];
    let found = problems(&output, EXIT_FAILURE, &expected);
    assert!(found.is_empty(), "{}\n{}", found.join("; "), text(&output.stderr));
}

#[test]
fn a_directory_is_a_failure_that_says_so() {
    let dir = corpus_dir();
    let output = cosmap(&["check".as_ref(), dir.as_os_str()]);
    let expected = [
        format!("cannot read `{}`", dir.display()),
        "it is a directory".to_string(),
    ];
    let found = problems(&output, EXIT_FAILURE, &expected);
    assert!(found.is_empty(), "{}\n{}", found.join("; "), text(&output.stderr));
}
