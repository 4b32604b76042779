//! Properties of the mapper over generated valid models (`properties/strategy.rs`),
//! mapped with the default options and with the optimisations off:
//!
//! - every entity and value object lands in exactly one document type or one
//!   embedding (copies and reference data snapshots are extra, and marked);
//! - every document type carries its container's partition key property, once;
//! - every reference resolves: references to roots, copies to their sources,
//!   parents, and the containers and document types of every request;
//! - the logical model is byte-identical under any permutation of the
//!   declarations, and the same from the model file as from the builder.
//!
//! Below the properties: the minimal cases of the bugs and gaps they found, as
//! plain tests (fixed: by the mapper, or by validation now rejecting the model).

#[path = "properties/strategy.rs"]
mod strategy;

use std::collections::{BTreeMap, BTreeSet};

use cosmap_domain::{
    AccessKind, AccessPattern, Aggregate, Attribute, AttributeType, Cardinality, ChangeRate, DomainModel, Entity,
    Growth, ModelBuilder, ModelSpec, Relationship, ValueObject,
};
use cosmap_mapper::operations::PropertyPath;
use cosmap_mapper::{
    map, ContainerKind, DocumentType, Embedded, EmbeddedKind, LogicalModel, Options, PartitionKeyValue, Reference,
    Role, Rule,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

mod common;
use common::{document, embedded, mapped, roots};

/// Cases per property: each maps a model of up to 8 aggregates twice or more.
const CASES: u32 = 256;

/// [`CASES`], or `PROPTEST_CASES` when set (a longer run: an explicit `cases`
/// in the config would otherwise ignore it).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CASES)
}

fn options(optimise: bool) -> Options {
    Options::default().optimise(optimise)
}

fn domain(spec: &ModelSpec) -> DomainModel {
    DomainModel::new(spec.clone()).expect("the strategy makes valid models")
}

/// Both mappings of `spec`: optimised and MR-only.
fn both(spec: &ModelSpec) -> [(bool, LogicalModel); 2] {
    let model = domain(spec);
    [true, false].map(|optimise| (optimise, map(&model, &options(optimise))))
}

/// Every value object embedded (at any depth) in `embedded`, with its path.
fn embedded_value_objects<'a>(embedded: &'a [Embedded], path: &str, out: &mut Vec<(&'a str, String)>) {
    for e in embedded {
        let here = format!("{path}.{}", e.name);
        match e.kind {
            EmbeddedKind::ValueObject => {
                out.push((e.source.as_str(), here.clone()));
                embedded_value_objects(&e.embedded, &here, out);
            }
            EmbeddedKind::ReferenceData | EmbeddedKind::Subset => {}
        }
    }
}

/// Every reference data snapshot (at any depth) in `embedded`.
fn snapshots<'a>(embedded: &'a [Embedded], out: &mut Vec<&'a Embedded>) {
    for e in embedded {
        if e.kind == EmbeddedKind::ReferenceData {
            out.push(e);
        }
        snapshots(&e.embedded, out);
    }
}

/// Every reference held by `d`, at any depth.
fn references(d: &DocumentType) -> Vec<&Reference> {
    fn walk<'a>(embedded: &'a [Embedded], out: &mut Vec<&'a Reference>) {
        for e in embedded {
            out.extend(&e.references);
            walk(&e.embedded, out);
        }
    }
    let mut out: Vec<&Reference> = d.references.iter().collect();
    walk(&d.embedded, &mut out);
    out
}

/// (a) Every entity and value object has exactly one home: a document type or an
/// embedding in a document that is not a copy.
fn check_placement(spec: &ModelSpec, m: &LogicalModel) -> Result<(), TestCaseError> {
    let mut homes: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for c in &m.containers {
        for d in &c.document_types {
            prop_assert_eq!(
                d.role == Role::Copy,
                d.copy_of.is_some(),
                "`{}.{}`: a copy (role) without `copyOf` or the other way round",
                c.name,
                d.name
            );
            let mut snaps = Vec::new();
            snapshots(&d.embedded, &mut snaps);
            for s in snaps {
                let entity = spec.entities.iter().find(|e| e.name == s.source);
                prop_assert!(
                    entity.is_some_and(|e| e.reference_data == Some(ChangeRate::Never)),
                    "`{}.{}` embeds a snapshot of `{}`, which is not never-changing reference data",
                    c.name,
                    d.name,
                    s.source
                );
            }
            if matches!(d.role, Role::Copy | Role::Claim) {
                continue; // extra: a copy is checked to point at its source in `check_references`
            }
            homes
                .entry(d.source.as_str())
                .or_default()
                .push(format!("document type {}.{}", c.name, d.name));
            let mut found = Vec::new();
            embedded_value_objects(&d.embedded, &format!("{}.{}", c.name, d.name), &mut found);
            for (source, path) in found {
                homes.entry(source).or_default().push(format!("embedded at {path}"));
            }
        }
    }
    let roots: BTreeSet<&str> = spec.aggregates.iter().map(|a| a.root.as_str()).collect();
    for e in &spec.entities {
        let places = homes.remove(e.name.as_str()).unwrap_or_default();
        prop_assert_eq!(places.len(), 1, "entity `{}` is stored at {:?}", e.name, places);
        prop_assert!(
            places[0].starts_with("document type"),
            "entity `{}` is embedded",
            e.name
        );
        let role = if roots.contains(e.name.as_str()) {
            Role::Root
        } else {
            Role::Entity
        };
        let doc = m
            .containers
            .iter()
            .flat_map(|c| &c.document_types)
            .find(|d| d.source == e.name && d.role != Role::Copy);
        prop_assert_eq!(doc.map(|d| d.role), Some(role), "role of `{}`", e.name);
    }
    for v in &spec.value_objects {
        let places = homes.remove(v.name.as_str()).unwrap_or_default();
        prop_assert_eq!(places.len(), 1, "value object `{}` is stored at {:?}", v.name, places);
    }
    prop_assert!(homes.is_empty(), "documents or embeddings of no element: {:?}", homes);
    Ok(())
}

/// (b) Every document type carries its container's partition key property, and
/// every top-level property of a document has one meaning.
fn check_partition_keys(m: &LogicalModel) -> Result<(), TestCaseError> {
    for c in &m.containers {
        let levels: Vec<String> = c.partition_key_properties().iter().map(|l| format!("/{l}")).collect();
        prop_assert_eq!(&c.partition_key.paths, &levels);
        prop_assert!(levels.len() <= 3, "Cosmos DB takes at most three levels: {:?}", levels);
        if c.kind == ContainerKind::Dictionary {
            prop_assert_eq!(c.partition_key_property.as_str(), "type");
        }
        for d in &c.document_types {
            prop_assert_eq!(
                d.partition_key_properties(),
                c.partition_key_properties(),
                "`{}.{}` does not carry the container's partition key",
                c.name,
                d.name
            );
            let mut properties: Vec<&str> = vec!["id", "type"];
            if c.kind == ContainerKind::Aggregate {
                properties.extend(c.partition_key_properties());
            }
            properties.extend(d.parent.iter().map(|p| p.property.as_str()));
            if c.default_ttl.is_some() {
                properties.push("ttl");
            }
            properties.extend(d.attributes.iter().map(|a| a.name.as_str()));
            properties.extend(d.embedded.iter().map(|e| e.name.as_str()));
            properties.extend(d.references.iter().map(|r| r.name.as_str()));
            let mut seen = BTreeSet::new();
            for p in properties {
                prop_assert!(
                    seen.insert(p),
                    "`{}.{}` has two properties named `{}` (partition key `{}`)",
                    c.name,
                    d.name,
                    p,
                    c.partition_key_property
                );
            }
        }
    }
    Ok(())
}

/// True when `d` holds the property path a copy takes its partition key from: a
/// reference's `id` (`account.id`), or the identity a reference data snapshot
/// holds in its place (`country.countryId`).
fn holds_partition_key_source(d: &DocumentType, from: &PropertyPath) -> bool {
    let [via, field] = from.names() else {
        return false;
    };
    let (via, field) = (via.as_str(), field.as_str());
    if field == "id" {
        return d.references.iter().any(|r| r.name == via && !r.many);
    }
    d.embedded.iter().any(|e| {
        e.name == via
            && e.kind == EmbeddedKind::ReferenceData
            && !e.many
            && e.attributes.first().is_some_and(|a| a.name == field)
    })
}

/// (c) Every reference, copy, parent link and request resolves.
fn check_references(m: &LogicalModel) -> Result<(), TestCaseError> {
    for c in &m.containers {
        for d in &c.document_types {
            for r in references(d) {
                let Some(target) = m.container(&r.target_container) else {
                    return Err(TestCaseError::fail(format!(
                        "`{}.{}.{}` refers to container `{}`, which does not exist",
                        c.name, d.name, r.name, r.target_container
                    )));
                };
                let root = target
                    .document_types
                    .iter()
                    .find(|t| t.role == Role::Root && t.source == r.target);
                let Some(root) = root else {
                    return Err(TestCaseError::fail(format!(
                        "`{}.{}.{}` refers to `{}` in `{}`, which holds no such root document type",
                        c.name, d.name, r.name, r.target, r.target_container
                    )));
                };
                prop_assert_eq!(root.id.attribute(), Some(r.target_identity.as_str()));
                let expected = match target.kind {
                    // A hierarchical key: the reference carries the target's value of each level.
                    ContainerKind::Aggregate if target.partition_key.is_hierarchical() => PartitionKeyValue::Levels {
                        properties: target
                            .partition_key_properties()
                            .iter()
                            .map(|l| l.to_string())
                            .collect(),
                    },
                    // Partitioned by what its heaviest reads filter on (`partitionKey`):
                    // the reference carries the target's own value of it.
                    ContainerKind::Aggregate if target.partition_key_property != r.target_identity => {
                        PartitionKeyValue::Property {
                            property: target.partition_key_property.clone(),
                        }
                    }
                    ContainerKind::Aggregate => PartitionKeyValue::SameAsId,
                    ContainerKind::Claims => {
                        return Err(TestCaseError::fail(format!(
                            "`{}.{}.{}` refers into the claims container `{}`",
                            c.name, d.name, r.name, r.target_container
                        )))
                    }
                    ContainerKind::Dictionary => PartitionKeyValue::Constant {
                        value: root.discriminator.clone(),
                    },
                };
                prop_assert_eq!(&r.partition_key_value, &expected, "`{}.{}.{}`", c.name, d.name, r.name);
            }
            if let Some(of) = &d.copy_of {
                let source = m
                    .container(&of.container)
                    .and_then(|s| s.document_type(&of.document_type));
                prop_assert!(
                    source.is_some_and(|s| s.role != Role::Copy && s.source == d.source),
                    "copy `{}.{}` of `{}.{}`, which is not a document type",
                    c.name,
                    d.name,
                    of.container,
                    of.document_type
                );
                // The generated `From` reads the path from the source; the copy keeps it too.
                for (what, holder) in [("copy", Some(d)), ("its source", source)] {
                    prop_assert!(
                        holder.is_some_and(|h| holds_partition_key_source(h, &of.partition_key_from)),
                        "copy `{}.{}` takes its partition key from `{}`, which {} does not hold (a reference's `id` or a snapshot's identity)",
                        c.name,
                        d.name,
                        of.partition_key_from,
                        what
                    );
                }
            }
            if let Some(parent) = &d.parent {
                prop_assert!(
                    c.document_types
                        .iter()
                        .any(|p| p.source == parent.entity && p.role == Role::Entity),
                    "`{}.{}` names parent `{}`, not an entity document type of its container",
                    c.name,
                    d.name,
                    parent.entity
                );
            }
        }
    }
    for op in &m.operations {
        for r in &op.requests {
            let container = m.container(&r.container);
            prop_assert!(container.is_some(), "`{}` uses container `{}`", op.pattern, r.container);
            for name in &r.document_types {
                prop_assert!(
                    container.is_some_and(|c| c.document_type(name).is_some()),
                    "`{}` uses document type `{}` in `{}`, which does not exist",
                    op.pattern,
                    name,
                    r.container
                );
            }
        }
    }
    Ok(())
}

/// The first line where `expected` and `actual` differ, with the lines before it.
fn first_difference(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let at = e
        .iter()
        .zip(&a)
        .position(|(x, y)| x != y)
        .unwrap_or(e.len().min(a.len()));
    let from = at.saturating_sub(8);
    format!(
        "...\n{}\n- {}\n+ {}",
        e[from..at].join("\n"),
        e.get(at).unwrap_or(&"<end>"),
        a.get(at).unwrap_or(&"<end>")
    )
}

fn json(m: &LogicalModel) -> String {
    serde_json::to_string_pretty(m).expect("a logical model serialises")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn every_element_has_exactly_one_home(spec in strategy::model_spec()) {
        for (optimise, m) in both(&spec) {
            check_placement(&spec, &m).map_err(|e| TestCaseError::fail(format!("optimise {optimise}: {e}")))?;
        }
    }

    #[test]
    fn every_document_type_carries_the_partition_key(spec in strategy::model_spec()) {
        for (optimise, m) in both(&spec) {
            check_partition_keys(&m).map_err(|e| TestCaseError::fail(format!("optimise {optimise}: {e}")))?;
        }
    }

    #[test]
    fn every_reference_resolves(spec in strategy::model_spec()) {
        for (optimise, m) in both(&spec) {
            check_references(&m).map_err(|e| TestCaseError::fail(format!("optimise {optimise}: {e}")))?;
        }
    }

    #[test]
    fn output_does_not_depend_on_declaration_order(spec in strategy::model_spec(), seed in any::<u64>()) {
        let permuted = strategy::permute(&spec, seed);
        for ((optimise, m), (_, p)) in both(&spec).into_iter().zip(both(&permuted)) {
            let (expected, actual) = (json(&m), json(&p));
            prop_assert!(
                expected == actual,
                "optimise {}: the permutation changed the logical model:\n{}",
                optimise,
                first_difference(&expected, &actual)
            );
        }
    }

    #[test]
    fn the_optimised_design_is_never_dearer_than_the_rules_alone(spec in strategy::model_spec()) {
        let model = domain(&spec);
        let report = cosmap_mapper::cost::cost(&model, &options(true), cosmap_mapper::cost::Consistency::default());
        // As the map weighs designs: fewer patterns no container can carry, then fewer
        // RU/s for the others (rounded per pattern to 0.01 RU/s).
        let key = |design: fn(&cosmap_mapper::cost::PatternCost) -> f64| {
            let unbounded = report.patterns.iter().filter(|p| !design(p).is_finite()).count();
            let finite: f64 = report.patterns.iter().map(design).filter(|v| v.is_finite()).sum();
            (unbounded, finite)
        };
        let optimised = key(|p| p.optimised.ru_per_second);
        let rules = key(|p| p.rules.ru_per_second);
        let rounding = 0.01 * report.patterns.len() as f64;
        prop_assert!(
            optimised.0 < rules.0 || (optimised.0 == rules.0 && optimised.1 <= rules.1 + rounding),
            "optimised {:?} against rules {:?}\n{}",
            optimised,
            rules,
            serde_json::to_string(&spec).unwrap()
        );
    }

    #[test]
    fn the_model_file_maps_like_the_builder(spec in strategy::model_spec()) {
        let text = serde_json::to_vec_pretty(&spec).expect("a spec serialises");
        let loaded = cosmap_domain::from_slice(&text, None).expect("the model file is valid too");
        prop_assert_eq!(json(&map(&loaded, &Options::default())), json(&map(&domain(&spec), &Options::default())));
    }
}

/// The strategy reaches every shape the properties are about: a fixed sample of
/// models, mapped, holds each at least once (so a change to the strategy cannot
/// quietly stop exercising one).
#[test]
fn the_strategy_reaches_every_shape() {
    use cosmap_mapper::operations::OperationKind;
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]));
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for _ in 0..200 {
        let spec = strategy::model_spec().new_tree(&mut runner).expect("a model").current();
        let m = map(&domain(&spec), &Options::default());
        let mut count = |shape: &'static str, yes: bool| *seen.entry(shape).or_default() += usize::from(yes);
        count("8 aggregates", spec.aggregates.len() == 8);
        count("threshold overrides", spec.thresholds.is_some());
        count(
            "dictionary container",
            m.containers.iter().any(|c| c.kind == ContainerKind::Dictionary),
        );
        count("default TTL", m.containers.iter().any(|c| c.default_ttl.is_some()));
        count("unique key", m.containers.iter().any(|c| !c.unique_keys.is_empty()));
        let docs: Vec<&DocumentType> = m.containers.iter().flat_map(|c| &c.document_types).collect();
        count("member entity", docs.iter().any(|d| d.role == Role::Entity));
        count(
            "separated value object",
            docs.iter().any(|d| d.role == Role::ValueObject),
        );
        count("parent link", docs.iter().any(|d| d.parent.is_some()));
        count(
            "tree's optional parent link",
            docs.iter().any(|d| d.references.iter().any(|r| r.optional)),
        );
        count(
            "ancestors list",
            docs.iter().any(|d| d.references.iter().any(|r| r.ancestry.is_some())),
        );
        count("copy", docs.iter().any(|d| d.role == Role::Copy));
        count(
            "embedded object",
            docs.iter().any(|d| d.embedded.iter().any(|e| !e.many)),
        );
        count("embedded array", docs.iter().any(|d| d.embedded.iter().any(|e| e.many)));
        count(
            "nested embedding",
            docs.iter().any(|d| d.embedded.iter().any(|e| !e.embedded.is_empty())),
        );
        let mut snaps = Vec::new();
        docs.iter().for_each(|d| snapshots(&d.embedded, &mut snaps));
        count("reference data snapshot", !snaps.is_empty());
        let refs: Vec<&Reference> = docs.iter().flat_map(|d| references(d)).collect();
        count("reference", !refs.is_empty());
        count("list of references", refs.iter().any(|r| r.many));
        count(
            "reference into the dictionary",
            refs.iter()
                .any(|r| matches!(r.partition_key_value, PartitionKeyValue::Constant { .. })),
        );
        count(
            "reference stored back",
            m.decisions.iter().any(|d| d.outcome.starts_with("each `")),
        );
        count(
            "reference renamed off a taken name",
            m.decisions
                .iter()
                .any(|d| d.rule == Rule::Mr6 && d.reason.contains("because the document already has a property")),
        );
        count(
            "copy refused for its target's partition key",
            m.decisions
                .iter()
                .any(|d| d.rule == Rule::Copy && d.reason.contains("would store that container's partition key")),
        );
        count(
            "copy through a reference data snapshot",
            docs.iter().any(|d| {
                d.copy_of
                    .as_ref()
                    .is_some_and(|of| of.partition_key_from.names().last().is_some_and(|n| n != "id"))
            }),
        );
        // Names validation lets a value object take beside a partition key or a
        // parent link, because no document holds them twice.
        let roots: BTreeMap<&str, &str> = spec
            .aggregates
            .iter()
            .filter_map(|a| spec.entities.iter().find(|e| e.name == a.root))
            .map(|e| (e.name.as_str(), e.identity.as_str()))
            .collect();
        let aggregate_root = |name: &str| {
            spec.aggregates
                .iter()
                .find(|a| a.root == name || a.members.iter().any(|m| m == name))
                .map(|a| a.root.as_str())
        };
        let value_object = |name: &str| spec.value_objects.iter().find(|v| v.name == name);
        count(
            "embedded object named like a root identity",
            docs.iter().any(|d| {
                d.embedded
                    .iter()
                    .any(|e| e.kind == EmbeddedKind::ValueObject && roots.values().any(|i| *i == e.name))
            }),
        );
        count(
            "member's value object always separated, named like the partition key",
            spec.relationships.iter().any(|r| {
                value_object(&r.to).is_some()
                    && !roots.contains_key(r.from.as_str())
                    && aggregate_root(&r.from).and_then(|root| roots.get(root)) == Some(&r.property_name().as_str())
            }),
        );
        count(
            "value object always embedded, with an attribute named like its parent's identity",
            spec.relationships.iter().any(|r| {
                let parent = spec
                    .entities
                    .iter()
                    .find(|e| e.name == r.from && !roots.contains_key(r.from.as_str()));
                parent
                    .zip(value_object(&r.to))
                    .is_some_and(|(e, v)| v.attributes.iter().any(|a| a.name == e.identity))
            }),
        );
        let kinds: Vec<OperationKind> = m.operations.iter().map(|o| o.kind).collect();
        count("point read", kinds.contains(&OperationKind::PointRead));
        count(
            "single-partition query",
            kinds.contains(&OperationKind::SinglePartitionQuery),
        );
        count(
            "cross-partition query",
            kinds.contains(&OperationKind::CrossPartitionQuery),
        );
        count("write", kinds.contains(&OperationKind::Write));
        count(
            "sorted query",
            m.operations
                .iter()
                .flat_map(|o| &o.requests)
                .any(|r| r.sql().is_some_and(|s| s.contains("ORDER BY"))),
        );
        count(
            "keyword attribute",
            spec.entities
                .iter()
                .any(|e| e.attributes.iter().any(|a| a.name == "match" || a.name == "fn")),
        );
    }
    let missing: Vec<&str> = seen.iter().filter(|(_, n)| **n == 0).map(|(s, _)| *s).collect();
    assert!(missing.is_empty(), "no sampled model has: {missing:?} (seen: {seen:?})");
}

// Minimal cases of what the properties found.

/// A reference stored back on the many side (MR6) is named after the referring
/// root; for a root called `Type` (or `Id`, `Ttl`) that name was `type`, which
/// every document already uses for its discriminator.
#[test]
fn a_reference_stored_back_takes_no_reserved_name() {
    let m = mapped(
        roots(
            "Catalogue",
            [Entity::new("Product", "productId"), Entity::new("Type", "typeId")],
        )
        .relationship(Relationship::new("Type", "Product", Cardinality::Squillions)),
    );
    let names: Vec<&str> = document(&m, "Dictionary", "Product")
        .references
        .iter()
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(names, ["typeRef"]);
    check_partition_keys(&m).unwrap();
}

/// Two unbounded relationships from one root to another are both stored back on
/// the many side; they were ordered by their explicit `property` (both unset), so
/// the declaration order picked which got `account` and which `accountRef`.
#[test]
fn references_stored_back_do_not_depend_on_declaration_order() {
    let model = |first: Relationship, second: Relationship| {
        let m = mapped(
            roots(
                "Bank",
                [Entity::new("Account", "accountId"), Entity::new("Entry", "entryId")],
            )
            .relationship(first)
            .relationship(second),
        );
        json(&m)
    };
    let entries = Relationship::new("Account", "Entry", Cardinality::Squillions);
    let latest = Relationship::new("Account", "Entry", Cardinality::One).growth(Growth::Unbounded);
    assert_eq!(
        model(entries.clone(), latest.clone()),
        model(latest, entries),
        "declaration order changed the logical model"
    );
}

/// An aggregate's storage was summed in member declaration order, and float sums
/// depend on their order (here 1e16 + 1 + 2 against 1e16 + 2 + 1).
#[test]
fn storage_does_not_depend_on_member_order() {
    let model = |members: [&str; 2]| {
        let m = mapped(
            ModelBuilder::new("Ledger")
                .entity(
                    Entity::new("Book", "bookId")
                        .attribute(Attribute::new("status", AttributeType::String))
                        .volume(1e13, 1000.0),
                )
                .entity(Entity::new("Page", "pageId").volume(1.0, 1.0))
                .entity(Entity::new("Note", "noteId").volume(1.0, 2.0))
                .aggregate(Aggregate::new("Book").member(members[0]).member(members[1]))
                .access_pattern(
                    AccessPattern::new("books by status", AccessKind::Read, "Book", 100.0).filter("status"),
                ),
        );
        json(&m)
    };
    assert_eq!(model(["Page", "Note"]), model(["Note", "Page"]));
}

/// Asserts that validation rejects `builder`'s model with exactly one problem, at
/// `expected`'s path, with its message and help.
fn assert_rejected(builder: ModelBuilder, expected: [&str; 3]) {
    let err = builder.build().expect_err("validation rejects the model");
    let [d] = err.diagnostics() else {
        panic!("expected one problem, got {:?}", err.diagnostics());
    };
    let help = d.help.clone().unwrap_or_default();
    assert_eq!([d.path.to_string(), d.message.clone(), help], expected);
}

/// A value object that MR4 separates becomes a document that stores the
/// partition key beside its attributes; an attribute of that name (here the
/// variant's own `sku` against the product's `sku`) was accepted by validation and
/// then stored twice. Validation now rejects it, whether the value object would
/// be separated or embedded.
#[test]
fn a_member_value_object_attribute_named_like_the_partition_key_is_rejected() {
    assert_rejected(
        ModelBuilder::new("Catalogue")
            .entity(Entity::new("Product", "sku"))
            .value_object(ValueObject::new("Variant").attribute(Attribute::new("sku", AttributeType::String)))
            .aggregate(Aggregate::new("Product").member("Variant"))
            .relationship(Relationship::new("Product", "Variant", Cardinality::Squillions)),
        [
            "$.valueObjects[0].attributes[0].name",
            "`sku` is the partition key every document of aggregate `Product` carries",
            "rename this attribute, for example `variantSku`: when `Variant` is stored as a document of its own (MR4), that document stores `sku` already (MR2)",
        ],
    );
}

/// The same for the parent link of a value object separated from a member
/// entity whose identity has the partition key's name: validation now rejects
/// the member entity's identity.
#[test]
fn a_member_entity_identity_named_like_the_partition_key_is_rejected() {
    assert_rejected(
        ModelBuilder::new("Shop")
            .entity(Entity::new("Order", "orderId"))
            .entity(Entity::new("Shipment", "orderId"))
            .value_object(ValueObject::new("Scan").attribute(Attribute::new("place", AttributeType::String)))
            .aggregate(Aggregate::new("Order").member("Shipment").member("Scan"))
            .relationship(Relationship::new("Shipment", "Scan", Cardinality::Squillions)),
        [
            "$.entities[1].identity",
            "`orderId` is the partition key every document of aggregate `Order` carries",
            "rename this identity, for example `shipmentId`: `Shipment` documents store `orderId` already, as the identity of their `Order` (MR2)",
        ],
    );
}

/// A value object embedded in a member entity's document is a property of that
/// document, beside the partition key: a relationship property named like it (a
/// player's `team` kit, in a team whose identity is `team`) was accepted by
/// validation and then stored twice. Validation now rejects it, unless the value
/// object is always separated (no useful bound), which leaves no property behind.
#[test]
fn an_embedded_value_object_named_like_the_partition_key_is_rejected() {
    let league = |kit: Relationship| {
        ModelBuilder::new("League")
            .entity(Entity::new("Team", "team"))
            .entity(Entity::new("Player", "playerId"))
            .value_object(ValueObject::new("Kit").attribute(Attribute::new("colour", AttributeType::String)))
            .aggregate(Aggregate::new("Team").member("Player").member("Kit"))
            .relationship(kit.property("team"))
    };
    assert_rejected(
        league(Relationship::new("Player", "Kit", Cardinality::One)),
        [
            "$.relationships[0].property",
            "`team` is the partition key every document of aggregate `Team` carries",
            "rename this property, for example `kitTeam`: every `Player` document stores `team` already (MR2), and `Kit`, when embedded in it, would take the same name",
        ],
    );
    let m = mapped(league(Relationship::new("Player", "Kit", Cardinality::Squillions)));
    assert!(document(&m, "Team", "Player").embedded.is_empty());
    assert_eq!(document(&m, "Team", "Kit").role, Role::ValueObject);
    check_partition_keys(&m).unwrap();
}

/// A value object separated from a member entity is a document that stores the
/// entity's identity as its parent link: an attribute of that name (a shipment's
/// scan with its own `shipmentId`) was accepted by validation and then stored
/// twice. Validation now rejects it, unless the value object is always embedded
/// (one per parent, never updated by itself, of no declared size), which never
/// makes a document with a parent link.
#[test]
fn a_value_object_attribute_named_like_its_parent_link_is_rejected() {
    let shop = |cardinality: Cardinality| {
        ModelBuilder::new("Shop")
            .entity(Entity::new("Order", "orderId"))
            .entity(Entity::new("Shipment", "shipmentId"))
            .value_object(
                ValueObject::new("Scan")
                    .attribute(Attribute::new("place", AttributeType::String))
                    .attribute(Attribute::new("shipmentId", AttributeType::String)),
            )
            .aggregate(Aggregate::new("Order").member("Shipment").member("Scan"))
            .relationship(Relationship::new("Shipment", "Scan", cardinality))
    };
    assert_rejected(
        shop(Cardinality::Squillions),
        [
            "$.valueObjects[0].attributes[1].name",
            "`shipmentId` is the parent link a document of `Scan` carries: the identity of its `Shipment`",
            "rename this attribute, for example `scanShipmentId`: when `Scan` is stored as a document of its own (MR4), that document stores `shipmentId` already, as the identity of its `Shipment`",
        ],
    );
    let m = mapped(shop(Cardinality::One));
    let shipment = document(&m, "Order", "Shipment");
    let scan = shipment
        .embedded
        .iter()
        .find(|e| e.source == "Scan")
        .expect("`Scan` embedded");
    assert!(scan.attributes.iter().any(|a| a.name == "shipmentId"));
    check_partition_keys(&m).unwrap();
}

/// A member entity's reference to its own root was stored under the root's name
/// (`team`), which is also the partition key here (the root's identity is `team`).
/// It is now renamed like a reference stored back, `teamRef`; a later
/// relationship property that already has that name pushes it to `teamRefRef`.
#[test]
fn a_member_reference_named_like_the_partition_key_is_renamed() {
    let league = |extra: bool| {
        let mut builder = ModelBuilder::new("League")
            .entity(Entity::new("Team", "team"))
            .entity(Entity::new("Player", "playerId"))
            .aggregate(Aggregate::new("Team").member("Player"))
            .relationship(Relationship::new("Player", "Team", Cardinality::One));
        if extra {
            builder = builder
                .entity(Entity::new("Club", "clubId"))
                .aggregate(Aggregate::new("Club"))
                .relationship(Relationship::new("Player", "Club", Cardinality::One).property("teamRef"));
        }
        mapped(builder)
    };
    let m = league(false);
    let player = document(&m, "Team", "Player");
    assert_eq!(player.partition_key_property, "team");
    let names: Vec<(&str, &str)> = player
        .references
        .iter()
        .map(|r| (r.name.as_str(), r.target.as_str()))
        .collect();
    assert_eq!(names, [("teamRef", "Team")]);
    check_partition_keys(&m).unwrap();
    check_references(&m).unwrap();
    let decision = m
        .decisions
        .iter()
        .find(|d| d.subject == "Player.team")
        .expect("a decision for the reference");
    assert!(
        decision.outcome.contains("in `teamRef`") && decision.reason.contains("stored as `teamRef`"),
        "{decision:?}"
    );

    let m = league(true);
    let mut names: Vec<(&str, &str)> = document(&m, "Team", "Player")
        .references
        .iter()
        .map(|r| (r.name.as_str(), r.target.as_str()))
        .collect();
    names.sort_unstable();
    assert_eq!(names, [("teamRef", "Club"), ("teamRefRef", "Team")]);
    check_partition_keys(&m).unwrap();
}

/// A copy stores the target container's partition key beside the source's
/// properties; a source with a property of that name (an `Order` with an
/// `accountId` attribute as well as a reference to its `Account`) would get it
/// twice. The copy optimisation now refuses, and says why.
#[test]
fn no_copy_of_an_attribute_named_like_the_target_partition_key() {
    let m = mapped(
        roots(
            "Shop",
            [
                Entity::new("Account", "accountId").volume(1e7, 1000.0),
                Entity::new("Order", "orderId")
                    .attribute(Attribute::new("accountId", AttributeType::String))
                    .volume(1e9, 2000.0),
            ],
        )
        .relationship(Relationship::new("Order", "Account", Cardinality::One))
        .access_pattern(
            AccessPattern::new("orders of an account", AccessKind::Read, "Order", 100.0).filter("accountId"),
        ),
    );
    assert!(
        m.container("Account").and_then(|c| c.document_type("Order")).is_none(),
        "a copy was made"
    );
    check_partition_keys(&m).unwrap();
    let refusal = m
        .decision(Rule::Copy, "orders of an account")
        .expect("the copy decision");
    assert_eq!(refusal.outcome, "no copy");
    assert_eq!(
        refusal.reason,
        "a copy of `Order` in `Account` would store that container's partition key `accountId` beside `Order`'s own property `accountId` (an attribute): rename that property to allow the copy"
    );
}

/// The other shape of the same: a `Game` holds a reference stored back to its
/// `Match` (named `match`) and is read by `match`, the identity of the
/// `Fixture` it refers to; a copy into `Fixture` (partitioned by `match`) would
/// hold `match` twice.
#[test]
fn no_copy_of_a_reference_named_like_the_target_partition_key() {
    let m = mapped(
        roots(
            "Sport",
            [
                Entity::new("Fixture", "match").volume(1e7, 1000.0),
                Entity::new("Match", "matchId"),
                Entity::new("Game", "gameId").volume(1e9, 2000.0),
            ],
        )
        .relationship(Relationship::new("Game", "Fixture", Cardinality::One))
        .relationship(Relationship::new("Match", "Game", Cardinality::Squillions))
        .access_pattern(AccessPattern::new("games of a fixture", AccessKind::Read, "Game", 100.0).filter("match")),
    );
    let game = document(&m, "Game", "Game");
    assert!(game.references.iter().any(|r| r.name == "match" && r.target == "Match"));
    assert!(
        m.container("Fixture").and_then(|c| c.document_type("Game")).is_none(),
        "a copy was made"
    );
    check_partition_keys(&m).unwrap();
    let refusal = m.decision(Rule::Copy, "games of a fixture").expect("the copy decision");
    assert!(
        refusal.outcome == "no copy"
            && refusal
                .reason
                .contains("partition key `match` beside `Game`'s own property `match` (a reference)"),
        "{refusal:?}"
    );
}

/// A copy takes its partition key from a reference of its source (`country.id`);
/// when that reference is to never-changing reference data, the reference data
/// optimisation then replaces it with a snapshot, which has no `id` (the
/// generated `From` for the copy did not compile). The copy now takes it from the
/// snapshot's identity, `country.countryId`, and says so in its sync text.
#[test]
fn a_copy_through_never_changing_reference_data_reads_the_snapshot_identity() {
    let m = mapped(
        roots(
            "Registry",
            [
                Entity::new("Person", "personId")
                    .attribute(Attribute::new("name", AttributeType::String))
                    .volume(1e9, 1000.0),
                Entity::new("Country", "countryId")
                    .reference_data(ChangeRate::Never)
                    .volume(1e6, 20_000.0),
            ],
        )
        .relationship(Relationship::new("Person", "Country", Cardinality::One))
        .access_pattern(
            AccessPattern::new("people of a country", AccessKind::Read, "Person", 100.0)
                .filter("countryId")
                .returns("country"),
        ),
    );
    let copy = document(&m, "Country", "Person");
    let of = copy.copy_of.as_ref().expect("a copy");
    assert_eq!(of.partition_key_from, PropertyPath::new(["country", "countryId"]));
    assert_eq!(of.sync.key("countryId"), Some(&of.partition_key_from), "{:?}", of.sync);
    for d in [copy, document(&m, "Person", "Person")] {
        let snapshot = embedded(d, "country");
        assert_eq!(snapshot.kind, EmbeddedKind::ReferenceData);
        assert_eq!(snapshot.attributes[0].name, "countryId");
        assert!(d.references.is_empty());
    }
    check_references(&m).unwrap();
    check_partition_keys(&m).unwrap();
    assert!(m.decisions.iter().any(|d| d.subject == "Country.Person"
        && d.outcome == "the copy takes its partition key `countryId` from `country.countryId`"));
}

/// On 200 drawn models (a fixed seed), every pattern the optimised design makes dearer
/// than the naive port is explained, naming the rule that makes it so; where the whole
/// workload is dearer, MR1–MR6's structure (not an optimisation, each weighed cheaper
/// than none) is named for some pattern. The rules found are listed (docs/cost.md
/// argues each).
#[test]
fn every_pattern_dearer_than_the_naive_port_names_its_rule() {
    use cosmap_mapper::cost::{against_naive::dearer, cost, Consistency};
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[32; 32]));
    let mut rules: BTreeMap<String, usize> = BTreeMap::new();
    let mut dearer_models = 0;
    for _ in 0..200 {
        let spec = strategy::model_spec().new_tree(&mut runner).expect("a model").current();
        let report = cost(&domain(&spec), &options(true), Consistency::default());
        for p in &report.patterns {
            if !dearer(p.optimised.ru_per_second, p.naive.ru_per_second) {
                continue;
            }
            let explained = report.dearer_than_naive.iter().find(|d| d.pattern == p.name);
            let d = explained.unwrap_or_else(|| {
                panic!(
                    "`{}` is dearer, unexplained\n{}",
                    p.name,
                    serde_json::to_string(&spec).unwrap()
                )
            });
            assert!(!d.why.is_empty());
            *rules.entry(d.rule.as_str().to_string()).or_default() += 1;
        }
        if dearer(report.totals.optimised, report.totals.naive) {
            dearer_models += 1;
            assert!(
                report.dearer_than_naive.iter().any(|d| d.rule.is_mapping_rule()),
                "the workload is dearer than the naive port, but no structure is named: {:?}\n{}",
                report.dearer_than_naive,
                serde_json::to_string(&spec).unwrap()
            );
        }
    }
    println!("models dearer than the naive port: {dearer_models} of 200; patterns by rule: {rules:?}");
}
