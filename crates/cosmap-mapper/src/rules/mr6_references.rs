//! MR6 — a document that relates to the root of another aggregate stores that
//! root's identity: its id and partition key value, enough for a point read.
//! An unbounded list of references is stored the other way round: each of the
//! many refers to its one.

use std::collections::BTreeMap;

use cosmap_domain::{Cardinality, DomainModel, Relationship};

use crate::decision::{Rule, Trace};
use crate::logical_model::{PartitionKeyValue, Reference};

/// Where a root entity's documents live, for references to it.
#[derive(Debug, Clone)]
pub(crate) struct Location {
    pub container: String,
    pub partition_key_value: PartitionKeyValue,
}

/// True when `rel` is a reference (it points at an aggregate root and is not
/// containment inside one aggregate).
pub(crate) fn is_reference(model: &DomainModel, rel: &Relationship) -> bool {
    model.is_root(&rel.to)
}

/// True when a reference list would grow without bound, so the `to` side stores
/// the reference instead.
pub(crate) fn is_reversed(rel: &Relationship) -> bool {
    rel.is_stored_reversed()
}

/// Reversed reference relationships, by the element that stores them (`to`).
pub(crate) fn reversed(model: &DomainModel) -> BTreeMap<&str, Vec<&Relationship>> {
    let mut map: BTreeMap<&str, Vec<&Relationship>> = BTreeMap::new();
    for rel in model.relationships() {
        if is_reference(model, rel) && is_reversed(rel) {
            map.entry(rel.to.as_str()).or_default().push(rel);
        }
    }
    for rels in map.values_mut() {
        // By the property each is stored under in `from` (unique there), not the
        // optional explicit `property`: two defaults would tie in declaration order.
        rels.sort_by_cached_key(|r| (r.from.clone(), r.property_name()));
    }
    map
}

/// The reference `rel.from` stores to `rel.to`'s root, under its property name,
/// or with `Ref` appended (as often as needed) while `taken` says that name is a
/// property the document already has (a reserved one, the partition key, the
/// parent link) or will have.
pub(crate) fn forward(
    model: &DomainModel,
    locations: &BTreeMap<String, Location>,
    rel: &Relationship,
    taken: &dyn Fn(&str) -> bool,
    site: &str,
    trace: &mut Trace,
) -> Option<Reference> {
    let property = rel.property_name();
    let mut name = property.clone();
    while taken(&name) {
        name.push_str("Ref");
    }
    let mut reference = make(model, locations, &rel.to, name, rel.is_many())?;
    reference.optional = rel.optional;
    let shape = if reference.many {
        "a list of references"
    } else {
        "a reference"
    };
    let mut reason = format!(
        "`{}` relates to the root of another aggregate: its id and partition key value allow a point read in container `{}`",
        rel.from, reference.target_container
    );
    if reference.name != property {
        reason.push_str(&format!(
            "; stored as `{}` because the document already has a property `{property}`",
            reference.name
        ));
    }
    trace
        .record(
            Rule::Mr6,
            site,
            format!(
                "stores {shape} (id, partitionKey) to `{}` in `{}`",
                reference.target, reference.name
            ),
            reason,
        )
        .with("cardinality", rel.cardinality.as_str())
        .with("targetContainer", reference.target_container.as_str());
    // A one-to-many or many-to-many list kept here: its bound fits an item.
    if let (true, Some(max)) = (
        matches!(rel.cardinality, Cardinality::Many | Cardinality::ManyToMany),
        rel.max,
    ) {
        let bytes = max as f64 * cosmap_domain::limits::REFERENCE_BYTES;
        trace
            .record(
                Rule::ReferenceList,
                site,
                format!("`{}` keeps the list of references to `{}`", rel.from, rel.to),
                format!(
                    "at most {max} references of about {:.0} B take about {:.0} KB, within the {:.0} KB a list may take of an item, so reads from `{}` find the `{}`s it lists by their ids (a point read each, or one query for all of them, whichever costs less)",
                    cosmap_domain::limits::REFERENCE_BYTES,
                    bytes / 1000.0,
                    cosmap_domain::limits::REFERENCE_LIST_MAX_BYTES / 1000.0,
                    rel.from,
                    rel.to
                ),
            )
            .with("max", max)
            .with("listBytes", bytes);
    }
    Some(reference)
}

/// The reference that `rel.to` stores back to `rel.from`'s root, because `rel` is unbounded.
pub(crate) fn backward(
    model: &DomainModel,
    locations: &BTreeMap<String, Location>,
    rel: &Relationship,
    taken: &dyn Fn(&str) -> bool,
    subject: &str,
    trace: &mut Trace,
) -> Option<Reference> {
    let from_root = model.root_of(&rel.from)?.name.clone();
    // Many-to-many: each `to` relates to many `from`s, so it keeps a list of them.
    let many = rel.cardinality == cosmap_domain::Cardinality::ManyToMany;
    let camel = cosmap_domain::naming::lower_camel(&from_root);
    let mut name = if many {
        cosmap_domain::naming::plural(&camel)
    } else {
        camel
    };
    while taken(&name) {
        name.push_str("Ref");
    }
    let reference = make(model, locations, &from_root, name, many)?;
    let (stores, other) = if many {
        (
            format!("a list of references (id, partitionKey) to its `{from_root}`s"),
            "the other side keeps the list",
        )
    } else {
        (
            format!("a reference (id, partitionKey) to its `{from_root}`"),
            "the many side refers to the one",
        )
    };
    let why = rel
        .reversal_reason()
        .unwrap_or_else(|| format!("`{}` has {} `{}`", rel.from, rel.cardinality.as_str(), rel.to));
    trace
        .record(
            Rule::ReferenceList,
            format!("{subject}.{}", reference.name),
            format!("each `{}` stores {stores} in `{}`", rel.to, reference.name),
            format!(
                "{why}, so {other}; reads from `{}` find them by a query on `{}`",
                rel.from, reference.name
            ),
        )
        .with("cardinality", rel.cardinality.as_str())
        .with("targetContainer", reference.target_container.as_str());
    Some(reference)
}

fn make(
    model: &DomainModel,
    locations: &BTreeMap<String, Location>,
    target: &str,
    name: String,
    many: bool,
) -> Option<Reference> {
    let root = model.root_of(target)?;
    let location = locations.get(&root.name)?;
    Some(Reference {
        name,
        target: root.name.clone(),
        target_container: location.container.clone(),
        target_identity: root.identity.clone(),
        many,
        partition_key_value: location.partition_key_value.clone(),
        optional: false,
        extended: None,
        ancestry: None,
    })
}
