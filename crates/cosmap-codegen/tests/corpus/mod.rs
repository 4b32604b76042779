//! The models `emitters.rs` runs over (`cosmap.rs` parsed, the small artefacts
//! against what overrides render of their views): every example model, every test model that
//! loads, synthetic models, and the same with their names made longer; the type
//! mappings checked; how many drawn models (the mapper's strategy) a run tries.
//! Also the codegen tests' shared helpers: the repository, an example's model, a
//! temporary directory.

// Each test crate that includes this uses only part of it.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cosmap_codegen::TypeMapping;
use cosmap_domain::DomainModel;
use serde_json::Value;

/// The repository's root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The model of example `name` (`examples/<name>/model.json`), loaded.
pub fn example(name: &str) -> DomainModel {
    cosmap_domain::load_file(&repo().join(format!("examples/{name}/model.json"))).expect("a valid example")
}

/// `model`'s declarations in reverse order (each list reversed): the same model, for
/// the tests that its output does not depend on the order.
pub fn reversed(model: &DomainModel) -> cosmap_domain::ModelSpec {
    let mut spec = model.spec().clone();
    spec.entities.reverse();
    spec.value_objects.reverse();
    spec.aggregates.reverse();
    spec.relationships.reverse();
    spec.access_patterns.reverse();
    spec
}

/// An empty directory of its own for a test (`cosmap-codegen-NAME-PID` in the
/// temporary directory), emptied first if a previous run left it.
pub fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cosmap-codegen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

/// The type mappings checked: the default, and every codec with JSON Schema derives.
pub fn mappings() -> Vec<TypeMapping> {
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

/// Every `model.json` under `dir`.
fn model_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() && !path.ends_with("target") {
            model_files(&path, found);
        } else if path.file_name().is_some_and(|n| n == "model.json") {
            found.push(path);
        }
    }
}

/// Every `model.json` under `examples/`, sorted.
pub fn example_models() -> Vec<PathBuf> {
    let mut files = Vec::new();
    model_files(&repo().join("examples"), &mut files);
    files
}

/// The example models and the test models that load (some are meant not to).
pub fn corpus() -> Vec<(String, Value)> {
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
pub const ELEMENT: &str = "WithANameLongEnoughToBreakTheLinesOfTheGeneratedRust";
pub const ATTRIBUTE: &str = "WithAnAttributeNameLongEnoughToBreakEveryLineItIsWrittenOn";

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
pub fn lengthen(json: &Value, extra: usize) -> Value {
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

pub fn load(json: &Value) -> Option<DomainModel> {
    cosmap_domain::from_slice(json.to_string().as_bytes(), None).ok()
}

/// The synthetic models checked: `cosmap_domain::synthetic` with this many aggregates.
pub const SYNTHETIC: [usize; 4] = [1, 2, 5, 20];

/// Drawn models per run: 16, or `COSMAP_DIRECT_CASES`.
pub fn drawn_cases() -> u32 {
    std::env::var("COSMAP_DIRECT_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(16)
}
