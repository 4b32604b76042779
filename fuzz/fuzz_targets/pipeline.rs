//! Fuzzes the whole pipeline: arbitrary bytes → load → map → cost → generate.
//! The body is shared with the replay test `tests/fuzz_corpus.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support_fuzz/pipeline.rs"]
mod pipeline;

fuzz_target!(|bytes: &[u8]| {
    pipeline::run(bytes);
});
