//! Document-type changes: added, removed, moved between containers, derived
//! document types (copies, claims, buckets), value objects embedded ↔ separate; the
//! properties of the document types both models have are compared by `properties`.

use std::collections::{BTreeMap, BTreeSet};

use cosmap_mapper::{Container, DocumentType, Embedded, EmbeddedKind, LogicalModel, Role};

use crate::change::{ChangeKind, Derived, Subject};
use crate::classify::Place;
use crate::collector::{Basis, Collector};
use crate::properties;
use crate::volumes;

/// Where a value object is embedded: the container, the document type and the path.
#[derive(Debug, Clone)]
struct Site {
    container: String,
    document_type: String,
    path: Vec<String>,
    many: bool,
}

/// Compares the document types of the two models.
pub(crate) fn compare(col: &mut Collector<'_>) {
    let (old, new) = (col.old, col.new);
    let old_embedded = embedded_value_objects(old);
    let new_embedded = embedded_value_objects(new);
    let (old_separate, new_separate) = (separate_value_objects(old), separate_value_objects(new));
    // Separate in `to` and not in `from`, where `from` embedded them.
    let moved = |to: &BTreeSet<String>, from: &BTreeSet<String>, embedded: &BTreeMap<String, Site>| {
        to.difference(from)
            .filter(|v| embedded.contains_key(*v))
            .cloned()
            .collect()
    };
    col.became_separate = moved(&new_separate, &old_separate, &old_embedded);
    col.became_embedded = moved(&old_separate, &new_separate, &new_embedded);

    // Old document types accounted for: same container and name, or moved.
    let mut matched: BTreeSet<(&str, &str)> = BTreeSet::new();
    for c in &new.containers {
        for d in &c.document_types {
            if let Some(o) = old.container(&c.name).and_then(|oc| oc.document_type(&d.name)) {
                matched.insert((&c.name, &o.name));
                properties::compare_document(col, &c.name, o, &c.name, d);
            }
        }
    }
    added_types(col, &mut matched, &old_embedded);
    removed_types(col, &matched, &new_embedded);
}

/// The new document types no old one accounts for: moved from another container,
/// split out of the documents that embedded them, derived data, or new.
fn added_types<'m>(
    col: &mut Collector<'m>,
    matched: &mut BTreeSet<(&'m str, &'m str)>,
    old_embedded: &BTreeMap<String, Site>,
) {
    let (old, new) = (col.old, col.new);
    for c in &new.containers {
        let container_is_new = old.container(&c.name).is_none();
        for d in &c.document_types {
            if matched.contains(&(c.name.as_str(), d.name.as_str())) {
                continue;
            }
            let subject = Subject::document_type(&c.name, &d.name);
            if let Some((oc, o)) = moved_from(old, matched, c, d) {
                matched.insert((&oc.name, &o.name));
                let kind = ChangeKind::DocumentTypeMoved {
                    from: oc.name.clone(),
                    to: c.name.clone(),
                };
                let paths = Some(volumes::indexed_paths(c, d));
                let basis = Basis::Document {
                    container: &oc.name,
                    name: &o.name,
                    paths,
                };
                col.push(subject, kind, Place::Stored, basis);
                properties::compare_document(col, &oc.name, o, &c.name, d);
            } else if let Some(site) = old_embedded
                .get(&d.source)
                .filter(|_| col.became_separate.contains(&d.source))
            {
                let kind = ChangeKind::EmbeddedToSeparate {
                    value_object: d.source.clone(),
                    from: std::iter::once(site.document_type.as_str())
                        .chain(site.path.iter().map(String::as_str))
                        .collect::<Vec<_>>()
                        .join("."),
                    document_type: d.name.clone(),
                };
                let basis = Basis::Document {
                    container: &site.container,
                    name: &site.document_type,
                    paths: None,
                };
                col.push(subject, kind, Place::Stored, basis);
            } else if let Some(derived) = derived_role(d.role) {
                let kind = ChangeKind::DerivedAdded {
                    derived,
                    required: false,
                    // A copy or feed: its worker copies every source document it reads.
                    kept_from_change_feed: d.copy_of.is_some(),
                };
                let basis = source_basis(old, c, d);
                col.push(subject, kind, Place::Derived, basis);
            } else if !container_is_new {
                col.push(
                    subject,
                    ChangeKind::DocumentTypeAdded { role: d.role },
                    Place::Stored,
                    Basis::None,
                );
            }
        }
    }
}

/// The old document types no new one accounts for: embedded in their parents now,
/// derived data dropped, or removed.
fn removed_types<'m>(
    col: &mut Collector<'m>,
    matched: &BTreeSet<(&'m str, &'m str)>,
    new_embedded: &BTreeMap<String, Site>,
) {
    let (old, new) = (col.old, col.new);
    for oc in &old.containers {
        // A container the new model dropped is one change (`containerRemoved`).
        if new.container(&oc.name).is_none() {
            continue;
        }
        for o in &oc.document_types {
            if matched.contains(&(oc.name.as_str(), o.name.as_str())) {
                continue;
            }
            let basis = Basis::Document {
                container: &oc.name,
                name: &o.name,
                paths: None,
            };
            if let Some(site) = new_embedded
                .get(&o.source)
                .filter(|_| col.became_embedded.contains(&o.source))
            {
                let subject = Subject {
                    container: site.container.clone(),
                    document_type: Some(site.document_type.clone()),
                    path: site.path.clone(),
                };
                let kind = ChangeKind::SeparateToEmbedded {
                    value_object: o.source.clone(),
                    document_type: o.name.clone(),
                    many: site.many,
                };
                col.push(subject, kind, Place::Stored, basis);
                continue;
            }
            let subject = Subject::document_type(&oc.name, &o.name);
            let kind = match derived_role(o.role) {
                Some(derived) => ChangeKind::DerivedRemoved { derived },
                None => ChangeKind::DocumentTypeRemoved { role: o.role },
            };
            col.push(subject, kind, Place::Stored, basis);
        }
    }
}

/// The derived data a document type of `role` is, if any.
fn derived_role(role: Role) -> Option<Derived> {
    match role {
        Role::Copy => Some(Derived::Copy),
        Role::Claim => Some(Derived::Claim),
        Role::Bucket => Some(Derived::Bucket),
        Role::Root | Role::Entity | Role::ValueObject => None,
    }
}

/// The old document type `d` (in `c` now) was, in another container: same name,
/// source and role, not matched already.
fn moved_from<'m>(
    old: &'m LogicalModel,
    matched: &BTreeSet<(&str, &str)>,
    c: &Container,
    d: &DocumentType,
) -> Option<(&'m Container, &'m DocumentType)> {
    old.containers
        .iter()
        .filter(|oc| oc.name != c.name)
        .flat_map(|oc| oc.document_types.iter().map(move |o| (oc, o)))
        .find(|(oc, o)| {
            o.name == d.name
                && o.source == d.source
                && o.role == d.role
                && !matched.contains(&(oc.name.as_str(), o.name.as_str()))
        })
}

/// The old documents a new derived document type is back-filled from: a copy's
/// source, a claim's owner (written into `c`, at its indexed paths).
fn source_basis<'m>(old: &'m LogicalModel, c: &Container, d: &'m DocumentType) -> Basis<'m> {
    let source = match (&d.copy_of, &d.claim_of) {
        (Some(of), _) => Some((of.container.as_str(), of.document_type.as_str())),
        (_, Some(of)) => Some((of.container.as_str(), of.document_type.as_str())),
        _ => None,
    };
    match source.filter(|(container, name)| old.container(container).and_then(|oc| oc.document_type(name)).is_some()) {
        Some((container, name)) => Basis::Document {
            container,
            name,
            paths: Some(volumes::indexed_paths(c, d)),
        },
        None => Basis::None,
    }
}

/// Value objects stored as their own documents.
fn separate_value_objects(model: &LogicalModel) -> BTreeSet<String> {
    model
        .containers
        .iter()
        .flat_map(|c| &c.document_types)
        .filter(|d| d.role == Role::ValueObject)
        .map(|d| d.source.clone())
        .collect()
}

/// Where each value object is embedded (its first site, in container and document order).
fn embedded_value_objects(model: &LogicalModel) -> BTreeMap<String, Site> {
    fn walk(found: &mut BTreeMap<String, Site>, c: &Container, d: &DocumentType, path: &[String], list: &[Embedded]) {
        for e in list.iter().filter(|e| e.kind == EmbeddedKind::ValueObject) {
            let mut here = path.to_vec();
            here.push(e.name.clone());
            found.entry(e.source.clone()).or_insert_with(|| Site {
                container: c.name.clone(),
                document_type: d.name.clone(),
                path: here.clone(),
                many: e.many,
            });
            walk(found, c, d, &here, &e.embedded);
        }
    }
    let mut found = BTreeMap::new();
    for c in &model.containers {
        for d in &c.document_types {
            walk(&mut found, c, d, &[], &d.embedded);
        }
    }
    found
}
