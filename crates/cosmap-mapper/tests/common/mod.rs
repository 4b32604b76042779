//! What the mapper's end-to-end tests share: loading a model (a file of the
//! repository, JSON text or a builder), editing it (its rates, its file format),
//! mapping and costing it, and finding an operation, a decision, a document type or
//! an embedded object of the logical model with a message naming what is missing.
//! Each test file uses some of it.
#![allow(dead_code)]

use std::path::PathBuf;

use cosmap_domain::{Aggregate, Attribute, AttributeType, DomainModel, Entity, ModelBuilder, ModelSpec};
use cosmap_mapper::cost::{cost, Consistency, CostReport};
use cosmap_mapper::operations::Operation;
use cosmap_mapper::{map, Container, Decision, DocumentType, Embedded, LogicalModel, Options, Rule};

/// The repository's root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `path` (relative to the repository's root) loaded and validated.
pub fn load(path: &str) -> DomainModel {
    let path = repo().join(path);
    cosmap_domain::load_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The model of example `name` (`examples/{name}/model.json`).
pub fn example(name: &str) -> DomainModel {
    load(&format!("examples/{name}/model.json"))
}

/// `model` with `edit` made to its file format, validated again.
pub fn edited(model: &DomainModel, edit: impl FnOnce(&mut ModelSpec)) -> DomainModel {
    let mut spec = model.spec().clone();
    edit(&mut spec);
    DomainModel::new(spec).expect("still valid")
}

/// `model` with each named access pattern run the given number of times a second.
pub fn with_rates(model: &DomainModel, rates: &[(&str, f64)]) -> DomainModel {
    edited(model, |spec| {
        for (name, per_second) in rates {
            let pattern = spec.access_patterns.iter_mut().find(|p| p.name == *name);
            pattern
                .unwrap_or_else(|| panic!("no access pattern `{name}`"))
                .per_second = *per_second;
        }
    })
}

/// Model `name` whose `entities` each root an aggregate of their own (in their order).
pub fn roots(name: &str, entities: impl IntoIterator<Item = Entity>) -> ModelBuilder {
    entities.into_iter().fold(ModelBuilder::new(name), |b, e| {
        let root = Aggregate::new(&e.name);
        b.entity(e).aggregate(root)
    })
}

/// A string attribute called `name`.
pub fn text(name: &str) -> Attribute {
    Attribute::new(name, AttributeType::String)
}

/// The paths container `c` indexes.
pub fn included_paths(c: &Container) -> Vec<&str> {
    c.indexing_policy
        .included_paths
        .iter()
        .map(|p| p.path.as_str())
        .collect()
}

/// A model of `crates/cosmap-verify/tests/models/` (verify runs them too).
pub fn test_model(name: &str) -> DomainModel {
    load(&format!("crates/cosmap-verify/tests/models/{name}.json"))
}

/// The model in `json`, mapped with the default options.
pub fn from_json(json: &str) -> LogicalModel {
    let model = cosmap_domain::from_slice(json.as_bytes(), None).expect("valid model");
    map(&model, &Options::default())
}

/// The model `builder` builds, mapped with the default options.
pub fn mapped(builder: ModelBuilder) -> LogicalModel {
    map(&builder.build().expect("valid model"), &Options::default())
}

/// The cost table of `model` mapped with the default options, at session consistency.
pub fn costed(model: &DomainModel) -> CostReport {
    cost(model, &Options::default(), Consistency::Session)
}

/// Asserts that `model`'s optimised design costs less than MR1–MR6 alone.
pub fn assert_optimisations_pay(model: &DomainModel) {
    let totals = costed(model).totals;
    assert!(totals.optimised < totals.rules, "{totals:?}");
}

/// The operation of `pattern`.
pub fn op<'m>(m: &'m LogicalModel, pattern: &str) -> &'m Operation {
    m.operation(pattern)
        .unwrap_or_else(|| panic!("no operation `{pattern}`"))
}

/// The decision `rule` made about `subject`.
pub fn decision<'m>(m: &'m LogicalModel, rule: Rule, subject: &str) -> &'m Decision {
    m.decision(rule, subject)
        .unwrap_or_else(|| panic!("no {} decision about `{subject}`: {:#?}", rule.as_str(), m.decisions))
}

/// The object embedded in document type `d` under `name`.
pub fn embedded<'a>(d: &'a DocumentType, name: &str) -> &'a Embedded {
    d.embedded
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("nothing embedded as `{name}` in {}", d.name))
}

/// Asserts that the reason `rule` gave about `subject` says `part`.
pub fn assert_reason(m: &LogicalModel, rule: Rule, subject: &str, part: &str) {
    let reason = &decision(m, rule, subject).reason;
    assert!(reason.contains(part), "{} about `{subject}`: {reason}", rule.as_str());
}

/// Document type `name` of container `container`.
pub fn document<'a>(m: &'a LogicalModel, container: &str, name: &str) -> &'a DocumentType {
    m.container(container)
        .and_then(|c| c.document_type(name))
        .unwrap_or_else(|| panic!("no document type {container}.{name}"))
}
