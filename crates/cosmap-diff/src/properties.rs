//! Property-level changes of a document type both models have: attributes (added,
//! removed, retyped, now required or optional, list ↔ single), embedded objects,
//! references, and the derived data kept in them (snapshots, subsets, extended
//! references, ancestors lists, computed counts).

use cosmap_mapper::{
    DocumentType, Embedded, EmbeddedKind, Keeping, PartitionKeyValue, Property, PropertyHolder, Reference, Role,
};

use crate::change::{ChangeKind, Derived, Subject};
use crate::classify::Place;
use crate::collector::{Basis, Collector};

/// Compares document type `old` (in container `old_container`) with `new` (in `new_container`).
pub(crate) fn compare_document(
    col: &mut Collector<'_>,
    old_container: &str,
    old: &DocumentType,
    new_container: &str,
    new: &DocumentType,
) {
    let subject = Subject::document_type(new_container, &new.name);
    let basis = Basis::Document {
        container: old_container,
        name: &old.name,
        paths: None,
    };
    let place = match new.role {
        Role::Copy | Role::Claim | Role::Bucket => Place::Derived,
        Role::Root | Role::Entity | Role::ValueObject => Place::Stored,
    };
    keys(col, &subject, old, new, place, basis);
    let (old_attributes, new_attributes) = (not_keys(&old.attributes, new), not_keys(&new.attributes, old));
    attributes(col, &subject, &old_attributes, &new_attributes, place, basis);
    embedded(col, &subject, &old.embedded, &new.embedded, place, basis);
    references(col, &subject, &old.references, &new.references, place, basis);
    for c in &new.computed {
        if !old.computed.iter().any(|o| o.name == c.name) {
            let kind = ChangeKind::DerivedAdded {
                derived: Derived::ComputedValue,
                required: false,
                kept_from_change_feed: matches!(c.kept, Keeping::ChangeFeed { .. }),
            };
            col.push(subject.child(&c.name), kind, Place::Derived, basis);
        }
    }
    for o in &old.computed {
        if !new.computed.iter().any(|c| c.name == o.name) {
            let kind = ChangeKind::DerivedRemoved {
                derived: Derived::ComputedValue,
            };
            col.push(subject.child(&o.name), kind, Place::Derived, basis);
        }
    }
}

/// The properties a document type carries as its partition key, first level first.
fn key_properties(document: &DocumentType) -> Vec<&str> {
    std::iter::once(document.partition_key_property.as_str())
        .chain(document.sub_partition_key_properties.iter().map(String::as_str))
        .collect()
}

/// `attributes` without those `other` carries as its partition key: an attribute that
/// became (or stopped being) the key is one change, made by [`keys`], never a removal
/// and an addition.
fn not_keys(attributes: &[Property], other: &DocumentType) -> Vec<Property> {
    let other_keys = key_properties(other);
    attributes
        .iter()
        .filter(|a| !other_keys.contains(&a.name.as_str()))
        .cloned()
        .collect()
}

/// An attribute of `old` that `new` carries as its partition key, and a key property
/// of `old` that `new` stores as an attribute, each under the same top-level name.
fn keys(
    col: &mut Collector<'_>,
    subject: &Subject,
    old: &DocumentType,
    new: &DocumentType,
    place: Place,
    basis: Basis<'_>,
) {
    let paths = |d: &DocumentType| key_properties(d).iter().map(|p| format!("/{p}")).collect::<Vec<_>>();
    let (old_keys, new_keys) = (key_properties(old), key_properties(new));
    for o in old.attributes.iter().filter(|o| new_keys.contains(&o.name.as_str())) {
        let kind = ChangeKind::BecamePartitionKey {
            key: paths(new),
            was_optional: o.optional,
        };
        col.push(subject.child(&o.name), kind, place, basis);
    }
    for n in new.attributes.iter().filter(|n| old_keys.contains(&n.name.as_str())) {
        let kind = ChangeKind::NoLongerPartitionKey { key: paths(old) };
        col.push(subject.child(&n.name), kind, place, basis);
    }
}

/// Compares what two holders (documents or embedded objects) store.
fn holder(
    col: &mut Collector<'_>,
    subject: &Subject,
    old: PropertyHolder<'_>,
    new: PropertyHolder<'_>,
    place: Place,
    basis: Basis<'_>,
) {
    attributes(col, subject, old.attributes(), new.attributes(), place, basis);
    embedded(col, subject, old.embedded(), new.embedded(), place, basis);
    references(col, subject, old.references(), new.references(), place, basis);
}

/// Attributes by name: added, removed, retyped, list ↔ single, required ↔ optional.
fn attributes(
    col: &mut Collector<'_>,
    subject: &Subject,
    old: &[Property],
    new: &[Property],
    place: Place,
    basis: Basis<'_>,
) {
    for n in new {
        let at = subject.child(&n.name);
        let Some(o) = old.iter().find(|o| o.name == n.name) else {
            let kind = ChangeKind::PropertyAdded {
                ty: n.ty,
                optional: n.optional,
                many: n.many,
                default: n.default.as_deref().cloned(),
                queried: col.queried(&at),
            };
            col.push(at, kind, place, basis);
            continue;
        };
        if o.ty != n.ty {
            let kind = ChangeKind::PropertyRetyped { old: o.ty, new: n.ty };
            col.push(at.clone(), kind, place, basis);
        }
        let required = |col: &Collector<'_>| ChangeKind::BecameRequired {
            default: n.default.as_deref().cloned(),
            queried: col.queried(&at),
        };
        presence(
            col,
            &at,
            (o.many, o.optional),
            (n.many, n.optional),
            required,
            place,
            basis,
        );
        // What documents written without it (before it existed) read: the old
        // default, which a required attribute had, against the new one.
        let had_default = !o.optional && !o.many && o.default.is_some();
        let has_default = !n.optional && !n.many && n.default.is_some();
        let became_required = o.optional && !n.optional;
        if (had_default || has_default) && o.default != n.default && !became_required {
            let kind = ChangeKind::DefaultChanged {
                old: o.default.as_deref().cloned(),
                new: n.default.as_deref().cloned(),
                optional: n.optional,
            };
            col.push(at, kind, place, basis);
        }
    }
    for o in old.iter().filter(|o| !new.iter().any(|n| n.name == o.name)) {
        col.push(subject.child(&o.name), ChangeKind::PropertyRemoved, place, basis);
    }
}

/// List ↔ single and required ↔ optional of a property both holders have, each
/// `(many, optional)`; `required` makes the change recorded when it became required.
fn presence(
    col: &mut Collector<'_>,
    at: &Subject,
    old: (bool, bool),
    new: (bool, bool),
    required: impl FnOnce(&Collector<'_>) -> ChangeKind,
    place: Place,
    basis: Basis<'_>,
) {
    let ((old_many, old_optional), (new_many, new_optional)) = (old, new);
    if old_many != new_many {
        let kind = ChangeKind::CardinalityChanged { old_many, new_many };
        col.push(at.clone(), kind, place, basis);
    }
    // A list reads as empty when absent (`serde(default)`), optional or not.
    if old_optional && !new_optional && !new_many {
        let kind = required(col);
        col.push(at.clone(), kind, place, basis);
    } else if !old_optional && new_optional {
        col.push(at.clone(), ChangeKind::BecameOptional, place, basis);
    }
}

/// The derived data an embedded object of `kind` is, if any.
fn derived_embedded(kind: EmbeddedKind) -> Option<Derived> {
    match kind {
        EmbeddedKind::ValueObject => None,
        EmbeddedKind::ReferenceData => Some(Derived::Snapshot),
        EmbeddedKind::Subset => Some(Derived::Subset),
    }
}

/// Embedded objects by name: added, removed, list ↔ single, derived data, and the
/// same object's contents compared in turn.
fn embedded(
    col: &mut Collector<'_>,
    subject: &Subject,
    old: &[Embedded],
    new: &[Embedded],
    place: Place,
    basis: Basis<'_>,
) {
    for n in new {
        let at = subject.child(&n.name);
        let same = old
            .iter()
            .find(|o| o.name == n.name && o.kind == n.kind && o.source == n.source);
        let Some(o) = same else {
            added_embedded(col, at, n, place, basis);
            continue;
        };
        if o.many != n.many {
            let kind = ChangeKind::CardinalityChanged {
                old_many: o.many,
                new_many: n.many,
            };
            col.push(at.clone(), kind, place, basis);
        }
        let inner = if derived_embedded(n.kind).is_some() {
            Place::Derived
        } else {
            place
        };
        holder(
            col,
            &at,
            PropertyHolder::Embedded(o),
            PropertyHolder::Embedded(n),
            inner,
            basis,
        );
    }
    for o in old {
        if new
            .iter()
            .any(|n| n.name == o.name && n.kind == o.kind && n.source == o.source)
        {
            continue;
        }
        // Now its own document type: one change, made where that document type is found.
        if o.kind == EmbeddedKind::ValueObject && col.became_separate.contains(&o.source) {
            continue;
        }
        let kind = match derived_embedded(o.kind) {
            Some(derived) => ChangeKind::DerivedRemoved { derived },
            None => ChangeKind::EmbeddedRemoved {
                source: o.source.clone(),
            },
        };
        col.push(subject.child(&o.name), kind, place, basis);
    }
}

fn added_embedded(col: &mut Collector<'_>, at: Subject, n: &Embedded, place: Place, basis: Basis<'_>) {
    let kind = match derived_embedded(n.kind) {
        // A snapshot or a subset is read as the generated types require it: an object
        // without a default, or a list with one.
        Some(derived) => ChangeKind::DerivedAdded {
            derived,
            required: !n.many,
            // A subset kept from the children's feed: each child read recounts its
            // parent's newest. A snapshot of reference data has no worker.
            kept_from_change_feed: n
                .subset
                .as_ref()
                .is_some_and(|s| matches!(s.kept, Keeping::ChangeFeed { .. })),
        },
        // Its separate documents are folded in: one change, made where they were.
        None if col.became_embedded.contains(&n.source) => return,
        None => ChangeKind::EmbeddedAdded {
            source: n.source.clone(),
            many: n.many,
        },
    };
    let place = if derived_embedded(n.kind).is_some() {
        Place::Derived
    } else {
        place
    };
    col.push(at, kind, place, basis);
}

/// References by name: added, removed, retargeted, reshaped, list ↔ single,
/// required ↔ optional, extended references and ancestors lists.
fn references(
    col: &mut Collector<'_>,
    subject: &Subject,
    old: &[Reference],
    new: &[Reference],
    place: Place,
    basis: Basis<'_>,
) {
    for n in new {
        let at = subject.child(&n.name);
        let Some(o) = old.iter().find(|o| o.name == n.name) else {
            let kind = match &n.ancestry {
                // Its worker finds an element's descendants by their lists, which old
                // documents do not have: it cannot back-fill them.
                Some(_) => ChangeKind::DerivedAdded {
                    derived: Derived::Ancestors,
                    required: !n.many && !n.optional,
                    kept_from_change_feed: false,
                },
                None => ChangeKind::ReferenceAdded {
                    target: n.target.clone(),
                    optional: n.optional,
                    many: n.many,
                },
            };
            col.push(at, kind, place, basis);
            continue;
        };
        if let Some(kind) = retargeted(o, n) {
            col.push(at.clone(), kind, place, basis);
        }
        let required = |_: &Collector<'_>| ChangeKind::BecameRequired {
            default: None,
            queried: false,
        };
        presence(
            col,
            &at,
            (o.many, o.optional),
            (n.many, n.optional),
            required,
            place,
            basis,
        );
        match (&o.extended, &n.extended) {
            (None, Some(e)) => {
                let kind = ChangeKind::DerivedAdded {
                    derived: Derived::ExtendedReference,
                    required: e
                        .attributes
                        .iter()
                        .any(|a| !a.optional && !a.many && a.default.is_none()),
                    // Its worker rewrites every holder of each root it reads.
                    kept_from_change_feed: e.sync.is_some(),
                };
                col.push(at, kind, Place::Derived, basis);
            }
            (Some(_), None) => {
                let kind = ChangeKind::DerivedRemoved {
                    derived: Derived::ExtendedReference,
                };
                col.push(at, kind, Place::Derived, basis);
            }
            (Some(oe), Some(ne)) => attributes(col, &at, &oe.attributes, &ne.attributes, Place::Derived, basis),
            (None, None) => {}
        }
    }
    for o in old.iter().filter(|o| !new.iter().any(|n| n.name == o.name)) {
        let kind = match &o.ancestry {
            Some(_) => ChangeKind::DerivedRemoved {
                derived: Derived::Ancestors,
            },
            None => ChangeKind::ReferenceRemoved {
                target: o.target.clone(),
            },
        };
        col.push(subject.child(&o.name), kind, place, basis);
    }
}

/// A reference that points to another target, or stores its partition key value by
/// another rule.
fn retargeted(o: &Reference, n: &Reference) -> Option<ChangeKind> {
    let mut what = Vec::new();
    if o.target != n.target {
        what.push(format!("target `{}` → `{}`", o.target, n.target));
    }
    if o.target_container != n.target_container {
        what.push(format!("container `{}` → `{}`", o.target_container, n.target_container));
    }
    if o.partition_key_value != n.partition_key_value {
        what.push(format!(
            "partition key value {} → {}",
            key_value(&o.partition_key_value),
            key_value(&n.partition_key_value)
        ));
    }
    if what.is_empty() {
        return None;
    }
    let levels = |v: &PartitionKeyValue| matches!(v, PartitionKeyValue::Levels { .. });
    Some(ChangeKind::ReferenceChanged {
        what: what.join(", "),
        reshaped: levels(&o.partition_key_value) != levels(&n.partition_key_value),
    })
}

fn key_value(v: &PartitionKeyValue) -> String {
    match v {
        PartitionKeyValue::SameAsId => "the id".to_string(),
        PartitionKeyValue::Constant { value } => format!("the constant `{value}`"),
        PartitionKeyValue::Property { property } => format!("the target's `{property}`"),
        PartitionKeyValue::Levels { properties } => format!("the levels `{}`", properties.join("`, `")),
    }
}
