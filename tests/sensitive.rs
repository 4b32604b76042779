//! No value marked `sensitive` leaves its own document: on every bundled example and
//! test model, no copy, feed, claim, snapshot or extended reference of the logical
//! model holds a sensitive attribute, no sample document but its owner's type's holds
//! a sensitive value, and no generated artefact names one outside its owner's type.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use cosmap_mapper::{Embedded, EmbeddedKind, LogicalModel, Options, Reference, Role};
use serde_json::Value;

/// Every model file under `examples/` and the verify crate's `tests/models/`.
fn models() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() && !path.ends_with("generated") && !path.ends_with("target") {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "json")
                && path.file_name().is_some_and(|n| n == "model.json")
            {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    walk(&root.join("examples"), &mut out);
    let tests = root.join("crates/cosmap-verify/tests/models");
    let mut more: Vec<PathBuf> = std::fs::read_dir(&tests)
        .expect("tests/models")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    more.sort();
    out.extend(more);
    out
}

/// Sensitive attribute names by element.
fn sensitive(model: &cosmap_domain::DomainModel) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let elements = model
        .entities()
        .iter()
        .map(|e| (e.name.as_str(), &e.attributes))
        .chain(model.value_objects().iter().map(|v| (v.name.as_str(), &v.attributes)));
    for (name, attributes) in elements {
        for a in attributes.iter().filter(|a| a.sensitive) {
            out.entry(name.to_string()).or_default().insert(a.name.clone());
        }
    }
    out
}

/// Problems in `list`: a snapshot of an element that holds one of its sensitive attributes.
fn snapshots(list: &[Embedded], secret: &BTreeMap<String, BTreeSet<String>>, at: &str, out: &mut Vec<String>) {
    for e in list {
        // A snapshot or a subset copies its source's values.
        if matches!(e.kind, EmbeddedKind::ReferenceData | EmbeddedKind::Subset) {
            for a in &e.attributes {
                if a.sensitive || secret.get(&e.source).is_some_and(|s| s.contains(&a.name)) {
                    out.push(format!("{at}.{}: the copy it embeds holds `{}`", e.name, a.name));
                }
            }
        }
        snapshots(&e.embedded, secret, &format!("{at}.{}", e.name), out);
        references(&e.references, secret, &format!("{at}.{}", e.name), out);
    }
}

fn references(list: &[Reference], secret: &BTreeMap<String, BTreeSet<String>>, at: &str, out: &mut Vec<String>) {
    for r in list {
        for a in r.extended.iter().flat_map(|e| &e.attributes) {
            if a.sensitive || secret.get(&r.target).is_some_and(|s| s.contains(&a.name)) {
                out.push(format!("{at}.{}: the extended reference holds `{}`", r.name, a.name));
            }
        }
    }
}

/// What in the logical model holds a sensitive attribute outside its own document.
fn leaks(logical: &LogicalModel, secret: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut out = Vec::new();
    for c in &logical.containers {
        for d in &c.document_types {
            let at = format!("{}.{}", c.name, d.name);
            if matches!(d.role, Role::Copy | Role::Claim) {
                for a in &d.attributes {
                    if a.sensitive || secret.get(&d.source).is_some_and(|s| s.contains(&a.name)) {
                        out.push(format!("{at}: the {} holds `{}`", d.role.as_str(), a.name));
                    }
                }
            }
            snapshots(&d.embedded, secret, &at, &mut out);
            references(&d.references, secret, &at, &mut out);
        }
    }
    out
}

/// Every string in `value`, at any depth, with the object key it sits under.
fn strings<'v>(value: &'v Value, key: &'v str, out: &mut Vec<(&'v str, &'v str)>) {
    match value {
        Value::String(s) => out.push((key, s)),
        Value::Array(list) => list.iter().for_each(|v| strings(v, key, out)),
        Value::Object(map) => map.iter().for_each(|(k, v)| strings(v, k, out)),
        _ => {}
    }
}

#[test]
fn no_sensitive_value_leaves_its_own_document() {
    let mut scanned = 0;
    let mut with_secrets = 0;
    for path in models() {
        let model = cosmap_domain::load_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let secret = sensitive(&model);
        let logical = cosmap_mapper::map(&model, &Options::default());
        scanned += 1;
        if secret.is_empty() {
            continue;
        }
        with_secrets += 1;
        let found = leaks(&logical, &secret);
        assert!(found.is_empty(), "{}: {found:#?}", path.display());

        // The samples: each sensitive value is in its owner's document only.
        let samples = cosmap_verify::samples::sample_documents(&model, &logical)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let names: BTreeSet<&str> = secret.values().flatten().map(String::as_str).collect();
        for owner in &samples {
            let mut own = Vec::new();
            strings(&owner.body, "", &mut own);
            for (key, value) in own.into_iter().filter(|(k, _)| names.contains(k)) {
                let elsewhere: Vec<String> = samples
                    .iter()
                    // Documents of its own type hold their own values (in pairs, alike).
                    .filter(|s| !(s.container == owner.container && s.document_type == owner.document_type))
                    .filter(|s| {
                        let mut all = Vec::new();
                        strings(&s.body, "", &mut all);
                        all.iter().any(|(_, v)| *v == value)
                    })
                    .map(|s| format!("{}/{}", s.container, s.id))
                    .collect();
                assert!(
                    elsewhere.is_empty(),
                    "{}: `{key}` = {value:?} of {}/{} is also in {elsewhere:?}",
                    path.display(),
                    owner.container,
                    owner.id
                );
            }
        }

        // The generated JSON Schemas: a sensitive name only in its owner's types.
        let files = cosmap_codegen::generate(
            &logical,
            &cosmap_codegen::TypeMapping::default(),
            &cosmap_codegen::Templates::load(None).expect("the built-in templates"),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let schemas = files
            .iter()
            .filter(|a| a.path.to_string_lossy().ends_with(".schema.json"));
        for a in schemas {
            let file = a.path.display();
            let schema: Value = serde_json::from_str(&a.contents).expect("a schema is JSON");
            let Some(defs) = schema.get("$defs").and_then(Value::as_object) else {
                continue;
            };
            for (name, def) in defs {
                let held: Vec<&String> = def
                    .get("properties")
                    .and_then(Value::as_object)
                    .map(|p| p.keys().filter(|k| names.contains(k.as_str())).collect())
                    .unwrap_or_default();
                // A value object's own definition may hold its own sensitive attribute.
                let own = secret.keys().any(|element| name == element);
                assert!(own || held.is_empty(), "{file}: `{name}` holds {held:?}");
            }
        }
    }
    assert!(scanned >= 10, "only {scanned} models found");
    assert!(with_secrets >= 2, "only {with_secrets} models mark something sensitive");
}
