//! The whole cosmap pipeline on arbitrary bytes: load → map (optimised and MR-only)
//! → cost → JSON output → generate. Shared, as the one copy of this body, by the libFuzzer target
//! `fuzz/fuzz_targets/pipeline.rs` and the replay test `tests/fuzz_corpus.rs`
//! (both include it with `#[path]`).
//!
//! A panic here is a bug the fuzzer reports: loading may refuse the bytes (that is
//! the expected outcome for bad input, as long as the refusal explains itself), but
//! a model that loads must map, be costed and generate without error.

use std::sync::OnceLock;

use cosmap_codegen::{Templates, TypeMapping};
use cosmap_mapper::cost::{estimate, Consistency};
use cosmap_mapper::Options;

/// The embedded templates, loaded once for all inputs.
fn templates() -> &'static Templates {
    static TEMPLATES: OnceLock<Templates> = OnceLock::new();
    TEMPLATES.get_or_init(|| Templates::load(None).expect("the embedded templates load"))
}

/// Runs the pipeline on `bytes`; panics on any bug.
pub fn run(bytes: &[u8]) {
    let model = match cosmap_domain::from_slice(bytes, None) {
        Ok(model) => model,
        Err(error) => {
            // A refusal must say why: a non-empty message, and for an invalid model
            // at least one diagnostic, each with a message.
            assert!(
                !error.to_string().trim().is_empty(),
                "empty ModelError message: {error:?}"
            );
            if let cosmap_domain::ModelError::Invalid { diagnostics, .. } = &error {
                assert!(!diagnostics.is_empty(), "ModelError::Invalid without a diagnostic");
                for d in diagnostics {
                    assert!(!d.message.trim().is_empty(), "diagnostic without a message: {d:?}");
                }
            }
            return;
        }
    };
    let defaults = Options::default();
    let logical = cosmap_mapper::map(&model, &defaults);
    let rules_only = cosmap_mapper::map(&model, &Options::default().optimise(false));
    // `cost` would map both ways again: price the two mappings above instead.
    let report = estimate(&model, &rules_only, &logical, Consistency::Session);
    // `cosmap model --format json` and `cosmap cost --format json`.
    for (what, json) in [
        ("optimised logical model", serde_json::to_string(&logical)),
        ("rules-only logical model", serde_json::to_string(&rules_only)),
        ("cost report", serde_json::to_string(&report)),
    ] {
        if let Err(error) = json {
            panic!("the {what} of a valid model does not serialise: {error}");
        }
    }
    // `cosmap generate` (every artefact) and `cosmap model --no-optimise --format mermaid`.
    if let Err(error) = cosmap_codegen::generate(&logical, &TypeMapping::default(), templates()) {
        panic!("a valid model failed to generate: {error}\n{error:?}");
    }
    if let Err(error) = cosmap_codegen::mermaid(&rules_only, templates()) {
        panic!("a valid model's rules-only mapping failed to render as Mermaid: {error}\n{error:?}");
    }
}
