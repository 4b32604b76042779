//! Every built-in artefact has one writer, its Rust emitter; an override renders
//! from the same view. Here, for every model the codegen tests use (`tests/corpus`:
//! the example and test models, synthetic models, drawn models, and these with
//! longer names), optimised and not: `cosmap.rs` parses as Rust with every type
//! mapping of the corpus, and overrides that print the documented view's fields
//! (`templates::OVERRIDES`) find in it what the emitters wrote — the view holds what
//! an override needs to write the same files.

#![cfg(feature = "templates")]

mod corpus;
#[path = "../../cosmap-mapper/tests/properties/strategy.rs"]
mod strategy;

use std::path::PathBuf;
use std::sync::OnceLock;

use corpus::{corpus, drawn_cases, lengthen, load, mappings, ATTRIBUTE, SYNTHETIC};
use cosmap_codegen::{format_rust, generate, render_rust, Artefact, Templates, TypeMapping};
use cosmap_domain::{DomainModel, ModelSpec};
use cosmap_mapper::{map, Options};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::Value;

/// The built-in templates, loaded once.
fn builtin() -> &'static Templates {
    static TEMPLATES: OnceLock<Templates> = OnceLock::new();
    TEMPLATES.get_or_init(|| Templates::load(None).expect("the built-in templates load"))
}

/// Overrides of the small text artefacts that print their views' fields, one item
/// a line: the JSON files as the emitters write them, each Bicep resource's symbol,
/// id and resource, each Mermaid box's and arrow's label.
const OVERRIDES: &[(&str, &str)] = &[
    ("containers.json.hbs", "{{json containers}}\n"),
    ("document.schema.json.hbs", "{{json schema}}\n"),
    (
        "containers.bicep.hbs",
        "{{model}}\n{{#each containers}}resource {{symbol}} \n  name: '{{id}}'\n    resource: {{bicep resource 4}}\n{{/each}}",
    ),
    (
        "model.mmd.hbs",
        "{{model}}\n{{#each containers}}{{id}}[\"{{label}}\"]\n{{#each nodes}}{{id}}\n\"{{label}}\"\n{{/each}}{{/each}}\
         {{#each patterns}}{{id}}([\"{{label}}\"])\n{{/each}}{{#each edges}}|\"{{label}}\"| {{to}}\n{{/each}}",
    ),
];

/// The overrides above, loaded once from a directory of their own.
fn overrides() -> &'static Templates {
    static TEMPLATES: OnceLock<Templates> = OnceLock::new();
    TEMPLATES.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("cosmap-codegen-emitters-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        for (name, text) in OVERRIDES {
            std::fs::write(dir.join(name), text).expect("an override written");
        }
        let templates = Templates::load(Some(&dir)).expect("the overrides load");
        let _ = std::fs::remove_dir_all(&dir);
        templates
    })
}

/// Whether every line an override printed is in what the emitter wrote.
fn covered(path: &std::path::Path, emitted: &str, rendered: &str) -> Result<(), String> {
    let json = path.extension().is_some_and(|x| x == "json");
    if json && emitted != rendered {
        return Err(format!(
            "{}: `{{{{json …}}}}` of its view is not the file",
            path.display()
        ));
    }
    match rendered.lines().find(|line| !emitted.contains(line)) {
        Some(line) => Err(format!("{}: the view's `{line}` is not in the file", path.display())),
        None => Ok(()),
    }
}

/// The files of `logical` by path.
fn files(logical: &cosmap_mapper::LogicalModel, templates: &Templates) -> Result<Vec<(PathBuf, String)>, String> {
    let all = generate(logical, &TypeMapping::default(), templates).map_err(|e| e.to_string())?;
    Ok(all
        .into_iter()
        .filter(|a: &Artefact| a.path.to_str() != Some("cosmap.rs"))
        .map(|a| (a.path, a.contents))
        .collect())
}

/// Parses `cosmap.rs` of `model` with every mapping and compares every small
/// artefact with what the overrides render of its view; `what` names the model.
fn check(model: &DomainModel, what: &str) -> Result<(), String> {
    for optimise in [true, false] {
        let logical = map(model, &Options::default().optimise(optimise));
        for mapping in mappings() {
            let rust = render_rust(&logical, &mapping, builtin()).map_err(|e| format!("{what}: {e}"))?;
            format_rust(&rust).map_err(|e| format!("{what} (optimised: {optimise}): cosmap.rs does not parse: {e}"))?;
        }
        let emitted = files(&logical, builtin()).map_err(|e| format!("{what}: {e}"))?;
        let rendered = files(&logical, overrides()).map_err(|e| format!("{what}: {e}"))?;
        if emitted.len() != rendered.len() {
            return Err(format!("{what}: different files"));
        }
        for ((path, emitted), (_, rendered)) in emitted.iter().zip(&rendered) {
            covered(path, emitted, rendered).map_err(|e| format!("{what} (optimised: {optimise}), {e}"))?;
        }
    }
    Ok(())
}

#[test]
fn example_and_test_models_parse_and_their_views_hold_their_files() {
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
fn synthetic_models_parse_and_their_views_hold_their_files() {
    for aggregates in SYNTHETIC {
        let json: Value = serde_json::from_str(&cosmap_domain::synthetic::json(aggregates)).expect("JSON");
        let model = load(&json).expect("a synthetic model is valid");
        check(&model, &format!("synthetic {aggregates}")).unwrap();
    }
}

/// An override that prints a line the emitter does not write is found (the check
/// above can fail).
#[test]
fn a_line_the_file_does_not_hold_is_found() {
    let path = std::path::Path::new("model.mmd");
    assert!(covered(path, "a\nb\n", "b\n").is_ok());
    let err = covered(path, "a\nb\n", "b\nc\n").unwrap_err();
    assert!(err.contains("`c`"), "{err}");
    assert!(covered(std::path::Path::new("x.json"), "[]\n", "[ ]\n").is_err());
}

fn check_drawn(spec: &ModelSpec) -> Result<(), TestCaseError> {
    let model = DomainModel::new(spec.clone()).expect("the strategy makes valid models");
    check(&model, "a drawn model").map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: drawn_cases(), ..ProptestConfig::default() })]

    #[test]
    fn drawn_models_parse_and_their_views_hold_their_files(spec in strategy::model_spec()) {
        check_drawn(&spec)?;
    }
}
