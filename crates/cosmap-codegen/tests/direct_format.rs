//! The built-in `cosmap.rs` template's output is written without parsing it
//! (`rust/layout.rs` breaks its long lines): here it must be exactly what `syn`
//! and `prettyplease` make of it, for every example model, every test model that
//! maps, synthetic models, drawn models (the mapper's strategy), and all of these
//! with their names made very long so that lines break. An overridden template
//! still goes through `syn` and `prettyplease`.

#![cfg(feature = "format")]

#[path = "../../cosmap-mapper/tests/properties/strategy.rs"]
mod strategy;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use cosmap_codegen::{format_rust, render_rust, render_rust_direct, Templates, TypeMapping};
use cosmap_domain::{DomainModel, ModelSpec};
use cosmap_mapper::{map, Options};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::Value;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The embedded templates, loaded once.
fn templates() -> &'static Templates {
    static TEMPLATES: OnceLock<Templates> = OnceLock::new();
    TEMPLATES.get_or_init(|| Templates::load(None).expect("the embedded templates load"))
}

/// The type mappings checked: the default, and every codec with JSON Schema derives.
fn mappings() -> Vec<TypeMapping> {
    let mut chrono = TypeMapping::default();
    for (kind, krate) in [
        ("dateTime", "chrono"),
        ("date", "chrono"),
        ("uuid", "uuid"),
        ("decimal", "rust_decimal"),
    ] {
        chrono.map(kind, krate).expect("a known mapping");
    }
    chrono.json_schema = true;
    let mut time = TypeMapping::default();
    time.map("dateTime", "time").expect("a known mapping");
    time.map("date", "time").expect("a known mapping");
    vec![TypeMapping::default(), chrono, time]
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

/// Every `model.json` under `dir`.
fn model_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            model_files(&path, found);
        } else if path.file_name().is_some_and(|n| n == "model.json") {
            found.push(path);
        }
    }
}

/// The example models and the test models that load (some are meant not to).
fn corpus() -> Vec<(String, Value)> {
    let mut files = Vec::new();
    model_files(&repo().join("examples"), &mut files);
    assert!(files.len() >= 10, "examples/**/model.json: {files:?}");
    for krate in std::fs::read_dir(repo().join("crates")).expect("crates/").flatten() {
        if let Ok(models) = std::fs::read_dir(krate.path().join("tests/models")) {
            files.extend(
                models
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "json")),
            );
        }
    }
    files.sort();
    files
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).ok()?;
            let json: Value = serde_json::from_str(&text).ok()?;
            cosmap_domain::from_slice(text.as_bytes(), Some(&path)).ok()?;
            Some((path.strip_prefix(repo()).unwrap_or(&path).display().to_string(), json))
        })
        .collect()
}

/// What [`lengthen`] appends to an element name and to an attribute name, at most.
const ELEMENT: &str = "WithANameLongEnoughToBreakTheLinesOfTheGeneratedRust";
const ATTRIBUTE: &str = "WithAnAttributeNameLongEnoughToBreakEveryLineItIsWrittenOn";

/// Longer versions of the names a model declares, `extra` characters longer (at most
/// the length of [`ELEMENT`] or [`ATTRIBUTE`]): element names (and the lowerCamelCase
/// name a relationship to one takes by default), attribute names, identities and
/// relationship names.
fn long_names(json: &Value, extra: usize, names: &mut BTreeMap<String, String>) {
    let (element_tail, attribute_tail) = (
        &ELEMENT[..extra.min(ELEMENT.len())],
        &ATTRIBUTE[..extra.min(ATTRIBUTE.len())],
    );
    let attribute = |name: &str, names: &mut BTreeMap<String, String>| {
        names
            .entry(name.to_string())
            .or_insert_with(|| format!("{name}{attribute_tail}"));
    };
    match json {
        Value::Object(object) => {
            for (key, value) in object {
                if let ("identity", Some(name)) = (key.as_str(), value.as_str()) {
                    attribute(name, names);
                }
                for element in value.as_array().into_iter().flatten() {
                    let Some(name) = element.get("name").and_then(Value::as_str) else {
                        continue;
                    };
                    match key.as_str() {
                        "entities" | "valueObjects" => {
                            names.insert(name.to_string(), format!("{name}{element_tail}"));
                            let mut lower = name.to_string();
                            lower[..1].make_ascii_lowercase();
                            names
                                .entry(lower.clone())
                                .or_insert_with(|| format!("{lower}{element_tail}"));
                        }
                        "attributes" | "relationships" => attribute(name, names),
                        _ => {}
                    }
                }
                long_names(value, extra, names);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| long_names(v, extra, names)),
        _ => {}
    }
}

/// `json` with every declared name made `extra` characters longer (all of
/// [`ELEMENT`] or [`ATTRIBUTE`]: 60-80 characters long), alike wherever it appears (a
/// word of any string but a kind, cardinality or type).
fn lengthen(json: &Value, extra: usize) -> Value {
    let mut names = BTreeMap::new();
    long_names(json, extra, &mut names);
    fn words(text: &str, names: &BTreeMap<String, String>) -> String {
        let mut out = String::new();
        let mut word = String::new();
        for c in text.chars().chain(std::iter::once(' ')) {
            if c.is_ascii_alphanumeric() || c == '_' {
                word.push(c);
                continue;
            }
            out.push_str(names.get(&word).unwrap_or(&word));
            word.clear();
            out.push(c);
        }
        out.pop();
        out
    }
    fn walk(value: &Value, names: &BTreeMap<String, String>) -> Value {
        match value {
            Value::String(s) => Value::String(words(s, names)),
            Value::Array(items) => Value::Array(items.iter().map(|v| walk(v, names)).collect()),
            Value::Object(object) => Value::Object(
                object
                    .iter()
                    .map(|(k, v)| match k.as_str() {
                        "$schema" | "kind" | "cardinality" | "type" | "description" => (k.clone(), v.clone()),
                        _ => (k.clone(), walk(v, names)),
                    })
                    .collect(),
            ),
            other => other.clone(),
        }
    }
    walk(json, &names)
}

fn load(json: &Value) -> Option<DomainModel> {
    cosmap_domain::from_slice(json.to_string().as_bytes(), None).ok()
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
    for aggregates in [1, 2, 5, 20] {
        let json: Value = serde_json::from_str(&cosmap_domain::synthetic::json(aggregates)).expect("JSON");
        let model = load(&json).expect("a synthetic model is valid");
        check(&model, &format!("synthetic {aggregates}")).unwrap();
        if let Some(model) = load(&lengthen(&json, ATTRIBUTE.len())) {
            check(&model, &format!("synthetic {aggregates}, lengthened")).unwrap();
        }
    }
}

/// Drawn models per run: 16, or `COSMAP_DIRECT_CASES`.
fn drawn_cases() -> u32 {
    std::env::var("COSMAP_DIRECT_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(16)
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
