//! The `cosmap` binary run as a user runs it, for the CLI tests that need no server:
//! from the repository's root, with no account key or endpoint inherited from the
//! environment, and its output read as text.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{Command, Output};

/// The repository's root, where the tests run `cosmap` from.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cosmap` with `args` from the repository's root; `COSMOS_KEY` and
/// `COSMOS_ENDPOINT` are removed, so no test reaches an account by accident, and
/// `RUST_BACKTRACE`, so a message reads the same whatever the environment.
pub fn cosmap<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cosmap"))
        .args(args)
        .current_dir(repo())
        .env_remove("COSMOS_KEY")
        .env_remove("COSMOS_ENDPOINT")
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("cosmap runs")
}

/// An empty directory of its own for a test (`cosmap-NAME-PID` in the temporary
/// directory), emptied first if a previous run left it.
pub fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cosmap-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

/// Standard output, which must be UTF-8.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// Standard error, read leniently (a message may quote bytes of a bad input).
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
