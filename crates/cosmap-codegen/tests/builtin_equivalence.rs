//! The small text artefacts are written by Rust emitters (`text` in `bicep.rs`,
//! `mermaid.rs` and `artefacts.rs`), not by handlebars: here every artefact they
//! write (the container definitions, the Bicep file, the Mermaid diagram, every JSON
//! Schema) must be byte for byte what handlebars makes of the built-in templates
//! (`templates/*.hbs`), for every model the codegen tests use (`tests/corpus`: the
//! example and test models, synthetic models, drawn models, and these with longer
//! names), optimised and not. (`cosmap.rs` has one writer, `src/rust/emit.rs`, and
//! no built-in template: here it must parse as Rust, with every type mapping of
//! the corpus.)

#![cfg(feature = "templates")]

mod corpus;
#[path = "../../cosmap-mapper/tests/properties/strategy.rs"]
mod strategy;

use std::sync::OnceLock;

use corpus::{corpus, drawn_cases, lengthen, load, mappings, ATTRIBUTE, SYNTHETIC};
use cosmap_codegen::{builtin_texts, format_rust, render_rust, Templates};
use cosmap_domain::{DomainModel, ModelSpec};
use cosmap_mapper::{map, Options};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::Value;

/// The embedded templates, loaded once.
fn templates() -> &'static Templates {
    static TEMPLATES: OnceLock<Templates> = OnceLock::new();
    TEMPLATES.get_or_init(|| Templates::load(None).expect("the embedded templates load"))
}

/// Writes every built-in artefact of `model` both ways and compares them; `what`
/// names the model in messages.
fn check(model: &DomainModel, what: &str) -> Result<(), String> {
    for optimise in [true, false] {
        let logical = map(model, &Options::default().optimise(optimise));
        for mapping in mappings() {
            let rust = render_rust(&logical, &mapping, templates()).map_err(|e| format!("{what}: {e}"))?;
            format_rust(&rust).map_err(|e| format!("{what} (optimised: {optimise}): cosmap.rs does not parse: {e}"))?;
        }
        let direct = builtin_texts(&logical, None).map_err(|e| format!("{what}: {e}"))?;
        let rendered = builtin_texts(&logical, Some(templates())).map_err(|e| format!("{what}: {e}"))?;
        let paths = |texts: &[(String, String)]| texts.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
        if paths(&direct) != paths(&rendered) {
            return Err(format!("{what}: different files"));
        }
        for ((path, direct), (_, rendered)) in direct.iter().zip(&rendered) {
            if direct != rendered {
                return Err(format!(
                    "{what} (optimised: {optimise}), {path}: the emitter differs from the template:\n{}",
                    first_difference(direct, rendered)
                ));
            }
        }
    }
    Ok(())
}

/// The first differing line, with a few lines around it on both sides.
fn first_difference(direct: &str, rendered: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (direct.split('\n').collect(), rendered.split('\n').collect());
    let at = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let from = at.saturating_sub(2);
    format!(
        "emitter (line {}):\n{}\nhandlebars:\n{}",
        at + 1,
        a[from..(at + 4).min(a.len())].join("\n"),
        b[from..(at + 4).min(b.len())].join("\n")
    )
}

#[test]
fn example_and_test_models_are_written_as_the_templates_render_them() {
    let mut failures = Vec::new();
    for (path, json) in &corpus() {
        let model = load(json).expect("loaded once already");
        failures.extend(check(&model, path).err());
        if let Some(model) = load(&lengthen(json, ATTRIBUTE.len())) {
            failures.extend(check(&model, &format!("{path}, lengthened")).err());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn synthetic_models_are_written_as_the_templates_render_them() {
    for aggregates in SYNTHETIC {
        let json: Value = serde_json::from_str(&cosmap_domain::synthetic::json(aggregates)).expect("JSON");
        let model = load(&json).expect("a synthetic model is valid");
        check(&model, &format!("synthetic {aggregates}")).unwrap();
    }
}

fn check_drawn(spec: &ModelSpec) -> Result<(), TestCaseError> {
    let model = DomainModel::new(spec.clone()).expect("the strategy makes valid models");
    check(&model, "a drawn model").map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: drawn_cases(), ..ProptestConfig::default() })]

    #[test]
    fn drawn_models_are_written_as_the_templates_render_them(spec in strategy::model_spec()) {
        check_drawn(&spec)?;
    }
}
