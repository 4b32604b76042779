//! The built-in `cosmap.rs` template's output is written without parsing it
//! (`rust/layout.rs` breaks its long lines): here it must be exactly what `syn`
//! and `prettyplease` make of it, for every example model, every test model that
//! maps, synthetic models, drawn models (the mapper's strategy), and all of these
//! with their names made very long so that lines break. An overridden template
//! still goes through `syn` and `prettyplease`.

#![cfg(feature = "format")]

mod corpus;
#[path = "../../cosmap-mapper/tests/properties/strategy.rs"]
mod strategy;

use std::sync::OnceLock;

use corpus::{corpus, drawn_cases, lengthen, load, mappings, repo, ATTRIBUTE, SYNTHETIC};
use cosmap_codegen::{format_rust, render_rust, render_rust_direct, render_rust_direct_after, Templates, TypeMapping};
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

/// Renders `model` directly and checks it against `prettyplease`; `what` names
/// the model in messages.
fn check(model: &DomainModel, what: &str) -> Result<(), String> {
    for optimise in [true, false] {
        let logical = map(model, &Options::default().optimise(optimise));
        for (m, mapping) in mappings().into_iter().enumerate() {
            let direct = render_rust_direct(&logical, &mapping, templates())
                .map_err(|e| format!("{what}: does not render: {e}"))?
                .ok_or_else(|| format!("{what}: a line is not laid out directly"))?;
            // Laid out as it is written, it is what the pass over the written text makes.
            let after = render_rust_direct_after(&logical, &mapping, templates())
                .map_err(|e| format!("{what}: does not render: {e}"))?;
            if after.as_deref() != Some(direct.as_str()) {
                return Err(format!(
                    "{what}: laid out as written (\"direct\"), differs from the pass over the text (\"prettyplease\" below):\n{}",
                    first_difference(&direct, after.as_deref().unwrap_or("(not laid out)"))
                ));
            }
            let printed = format_rust(&direct).map_err(|e| format!("{what}: does not parse: {e}"))?;
            if direct != printed {
                return Err(format!(
                    "{what}: differs from prettyplease:\n{}",
                    first_difference(&direct, &printed)
                ));
            }
            // What `render_rust` writes is the direct layout (checked once per model).
            if m > 0 {
                continue;
            }
            let rendered = render_rust(&logical, &mapping, templates()).map_err(|e| e.to_string())?;
            if rendered != direct {
                return Err(format!("{what}: render_rust did not write the direct layout"));
            }
        }
    }
    Ok(())
}

/// The first differing line, with a few lines around it on both sides.
fn first_difference(direct: &str, printed: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (direct.lines().collect(), printed.lines().collect());
    let at = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let from = at.saturating_sub(1);
    format!(
        "direct (line {}):\n{}\nprettyplease:\n{}",
        at + 1,
        a[from..(at + 6).min(a.len())].join("\n"),
        b[from..(at + 6).min(b.len())].join("\n")
    )
}

#[test]
fn example_and_test_models_are_laid_out_as_prettyplease_prints_them() {
    let corpus = corpus();
    let mut failures = Vec::new();
    for (path, json) in &corpus {
        let model = load(json).expect("loaded once already");
        failures.extend(check(&model, path).err());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn models_with_very_long_names_are_laid_out_as_prettyplease_prints_them() {
    let mut checked = 0;
    let mut failures = Vec::new();
    let corpus = corpus();
    // Names 60-80 characters long break nearly every line they are on; 20 more
    // characters put many lines about the margin.
    for extra in [ATTRIBUTE.len(), 20] {
        for (path, json) in &corpus {
            // A lengthened model may exceed a limit of the validator (a file name):
            // those that load are checked, and most must.
            let Some(model) = load(&lengthen(json, extra)) else {
                continue;
            };
            checked += 1;
            failures.extend(check(&model, &format!("{path}, {extra} characters longer")).err());
        }
    }
    assert!(checked >= 2 * 10, "only {checked} lengthened models load");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn synthetic_models_are_laid_out_as_prettyplease_prints_them() {
    for aggregates in SYNTHETIC {
        let json: Value = serde_json::from_str(&cosmap_domain::synthetic::json(aggregates)).expect("JSON");
        let model = load(&json).expect("a synthetic model is valid");
        check(&model, &format!("synthetic {aggregates}")).unwrap();
        if let Some(model) = load(&lengthen(&json, ATTRIBUTE.len())) {
            check(&model, &format!("synthetic {aggregates}, lengthened")).unwrap();
        }
    }
}

/// A drawn model, and the same with its names `extra` characters longer.
fn check_drawn(spec: &ModelSpec, extra: usize) -> Result<(), TestCaseError> {
    let json = serde_json::to_value(spec).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let model = DomainModel::new(spec.clone()).expect("the strategy makes valid models");
    check(&model, "a drawn model").map_err(TestCaseError::fail)?;
    if let Some(model) = load(&lengthen(&json, extra)) {
        check(&model, &format!("a drawn model, {extra} characters longer")).map_err(TestCaseError::fail)?;
    }
    Ok(())
}

proptest! {
    // `COSMAP_DIRECT_CASES=500 cargo test --release …` for a longer search.
    #![proptest_config(ProptestConfig { cases: drawn_cases(), ..ProptestConfig::default() })]

    #[test]
    fn drawn_models_are_laid_out_as_prettyplease_prints_them(
        spec in strategy::model_spec(),
        extra in 1..=ATTRIBUTE.len(),
    ) {
        check_drawn(&spec, extra)?;
    }
}

#[test]
fn an_overridden_template_is_parsed_and_printed() {
    let dir = std::env::temp_dir().join(format!("cosmap-direct-format-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("cosmap.rs.hbs"),
        "// Model `{{model}}`.\n\n\n   pub   struct   Model{ pub name : &'static str , }\nimpl Model { pub const NAME: &'static str = \"{{model}}\"; }",
    )
    .unwrap();
    let templates = Templates::load(Some(&dir)).expect("the override loads");
    std::fs::remove_dir_all(&dir).ok();
    let model = cosmap_domain::load_file(&repo().join("examples/library/model.json")).expect("valid example");
    let logical = map(&model, &Options::default());
    assert_eq!(
        render_rust_direct(&logical, &TypeMapping::default(), &templates).unwrap(),
        None
    );
    let rendered = render_rust(&logical, &TypeMapping::default(), &templates).expect("renders");
    assert_eq!(
        rendered,
        "// Model `Library`.\n\npub struct Model {\n    pub name: &'static str,\n}\nimpl Model {\n    pub const NAME: &'static str = \"Library\";\n}\n"
    );
}

#[test]
fn user_attributes_and_type_spellings_take_the_parse_and_print_pass() {
    let model = cosmap_domain::load_file(&repo().join("examples/library/model.json")).expect("valid example");
    let logical = map(&model, &Options::default());
    let mut attributes = TypeMapping::default();
    attributes
        .type_attributes
        .push((".".into(), "#[derive( Hash )]".into()));
    let spelling = TypeMapping {
        date: "::my :: Date".into(),
        ..TypeMapping::default()
    };
    for mapping in [attributes, spelling] {
        assert_eq!(render_rust_direct(&logical, &mapping, templates()).unwrap(), None);
        let rendered = render_rust(&logical, &mapping, templates()).expect("renders");
        assert_eq!(format_rust(&rendered).unwrap(), rendered, "printed by prettyplease");
    }
}
