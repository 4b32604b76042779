//! Replays the committed libFuzzer seed corpus `fuzz/corpus/pipeline/` through the
//! same pipeline body the fuzz target runs (`tests/support_fuzz/pipeline.rs`), so
//! every CI run checks that no input the fuzzer ever kept (examples, bad models,
//! hand-made models, minimised finds and fixed crash reproducers) panics again.
//! See `fuzz/README.md`.

use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

#[path = "support_fuzz/pipeline.rs"]
mod pipeline;

/// The corpus must not vanish or shrink by accident.
const MIN_FILES: usize = 1000;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join("corpus")
        .join("pipeline")
}

#[test]
fn every_fuzz_corpus_input_runs_through_the_pipeline_without_panicking() {
    let dir = corpus_dir();
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(
        files.len() >= MIN_FILES,
        "{} holds {} files, expected at least {MIN_FILES}",
        dir.display(),
        files.len()
    );

    // The default hook's message for each panic is replaced by a record of it
    // (message and location): the failures are listed together below.
    let last_panic = Arc::new(Mutex::new(String::new()));
    let hook = panic::take_hook();
    let record = Arc::clone(&last_panic);
    panic::set_hook(Box::new(move |info| {
        *record.lock().unwrap_or_else(|e| e.into_inner()) = info.to_string();
    }));
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let bytes = match fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                failures.push(format!("{name}: cannot read: {e}"));
                continue;
            }
        };
        if panic::catch_unwind(AssertUnwindSafe(|| pipeline::run(&bytes))).is_err() {
            let message = last_panic.lock().unwrap_or_else(|e| e.into_inner()).clone();
            failures.push(format!("{name}: {message}"));
        }
    }
    panic::set_hook(hook);

    assert!(
        failures.is_empty(),
        "{} of {} corpus inputs panicked:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
