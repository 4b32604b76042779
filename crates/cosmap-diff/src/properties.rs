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

/// Where the changes being found go: the holder's subject, whether its data is stored
/// or derived, and the old documents a migration of them touches.
#[derive(Clone, Copy)]
struct Here<'s> {
    subject: &'s Subject,
    place: Place,
    basis: Basis<'s>,
}

impl<'s> Here<'s> {
    /// The same holder, its data derived.
    fn derived(self) -> Self {
        Here {
            place: Place::Derived,
            ..self
        }
    }

    /// Records `kind` at `at` (the holder or a property of it).
    fn push(self, col: &mut Collector<'_>, at: Subject, kind: ChangeKind) {
        col.push(at, kind, self.place, self.basis);
    }
}

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
    let here = Here {
        subject: &subject,
        place,
        basis,
    };
    keys(col, here, old, new);
    attributes(
        col,
        here,
        &not_keys(&old.attributes, new),
        &not_keys(&new.attributes, old),
    );
    embedded(col, here, &old.embedded, &new.embedded);
    references(col, here, &old.references, &new.references);
    let (pairs, gone) = matched(&old.computed, &new.computed, |o, n| o.name == n.name);
    for (_, c) in pairs.into_iter().filter(|(o, _)| o.is_none()) {
        let kind = ChangeKind::DerivedAdded {
            derived: Derived::ComputedValue,
            required: false,
            kept_from_change_feed: matches!(c.kept, Keeping::ChangeFeed { .. }),
        };
        here.derived().push(col, subject.child(&c.name), kind);
    }
    for o in gone {
        let kind = ChangeKind::DerivedRemoved {
            derived: Derived::ComputedValue,
        };
        here.derived().push(col, subject.child(&o.name), kind);
    }
}

/// Each of `new` beside the one of `old` that `same` matches (none: it was added), and
/// each of `old` that none of `new` matches (it was removed).
fn matched<'a, T>(
    old: &'a [T],
    new: &'a [T],
    same: impl Fn(&T, &T) -> bool,
) -> (Vec<(Option<&'a T>, &'a T)>, Vec<&'a T>) {
    let pairs = new.iter().map(|n| (old.iter().find(|o| same(o, n)), n)).collect();
    let gone = old.iter().filter(|o| !new.iter().any(|n| same(o, n))).collect();
    (pairs, gone)
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
fn keys(col: &mut Collector<'_>, here: Here<'_>, old: &DocumentType, new: &DocumentType) {
    let paths = |d: &DocumentType| key_properties(d).iter().map(|p| format!("/{p}")).collect::<Vec<_>>();
    let (old_keys, new_keys) = (key_properties(old), key_properties(new));
    for o in old.attributes.iter().filter(|o| new_keys.contains(&o.name.as_str())) {
        let kind = ChangeKind::BecamePartitionKey {
            key: paths(new),
            was_optional: o.optional,
        };
        here.push(col, here.subject.child(&o.name), kind);
    }
    for n in new.attributes.iter().filter(|n| old_keys.contains(&n.name.as_str())) {
        let kind = ChangeKind::NoLongerPartitionKey { key: paths(old) };
        here.push(col, here.subject.child(&n.name), kind);
    }
}

/// Attributes by name: added, removed, retyped, list ↔ single, required ↔ optional.
fn attributes(col: &mut Collector<'_>, here: Here<'_>, old: &[Property], new: &[Property]) {
    let (pairs, gone) = matched(old, new, |o, n| o.name == n.name);
    for (o, n) in pairs {
        let at = here.subject.child(&n.name);
        let Some(o) = o else {
            let kind = ChangeKind::PropertyAdded {
                ty: n.ty,
                optional: n.optional,
                many: n.many,
                default: n.default.as_deref().cloned(),
                queried: col.queried(&at),
            };
            here.push(col, at, kind);
            continue;
        };
        if o.ty != n.ty {
            here.push(col, at.clone(), ChangeKind::PropertyRetyped { old: o.ty, new: n.ty });
        }
        let required = |col: &Collector<'_>| ChangeKind::BecameRequired {
            default: n.default.as_deref().cloned(),
            queried: col.queried(&at),
        };
        presence(col, here, &at, [(o.many, o.optional), (n.many, n.optional)], required);
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
            here.push(col, at, kind);
        }
    }
    for o in gone {
        here.push(col, here.subject.child(&o.name), ChangeKind::PropertyRemoved);
    }
}

/// List ↔ single and required ↔ optional of the property at `at` both holders have,
/// old and new, each `(many, optional)`; `required` makes the change recorded when it
/// became required.
fn presence(
    col: &mut Collector<'_>,
    here: Here<'_>,
    at: &Subject,
    [(old_many, old_optional), (new_many, new_optional)]: [(bool, bool); 2],
    required: impl FnOnce(&Collector<'_>) -> ChangeKind,
) {
    if old_many != new_many {
        here.push(col, at.clone(), ChangeKind::CardinalityChanged { old_many, new_many });
    }
    // A list reads as empty when absent (`serde(default)`), optional or not.
    if old_optional && !new_optional && !new_many {
        let kind = required(col);
        here.push(col, at.clone(), kind);
    } else if !old_optional && new_optional {
        here.push(col, at.clone(), ChangeKind::BecameOptional);
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
fn embedded(col: &mut Collector<'_>, here: Here<'_>, old: &[Embedded], new: &[Embedded]) {
    let (pairs, gone) = matched(old, new, |o, n| {
        o.name == n.name && o.kind == n.kind && o.source == n.source
    });
    for (o, n) in pairs {
        let at = here.subject.child(&n.name);
        let inner = if derived_embedded(n.kind).is_some() {
            here.derived()
        } else {
            here
        };
        let Some(o) = o else {
            added_embedded(col, inner, at, n);
            continue;
        };
        if o.many != n.many {
            let kind = ChangeKind::CardinalityChanged {
                old_many: o.many,
                new_many: n.many,
            };
            here.push(col, at.clone(), kind);
        }
        let inner = Here { subject: &at, ..inner };
        let (o, n) = (PropertyHolder::Embedded(o), PropertyHolder::Embedded(n));
        attributes(col, inner, o.attributes(), n.attributes());
        embedded(col, inner, o.embedded(), n.embedded());
        references(col, inner, o.references(), n.references());
    }
    for o in gone {
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
        here.push(col, here.subject.child(&o.name), kind);
    }
}

/// An embedded object `n` the old holder lacks, at `at`, its data found `here`.
fn added_embedded(col: &mut Collector<'_>, here: Here<'_>, at: Subject, n: &Embedded) {
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
    here.push(col, at, kind);
}

/// References by name: added, removed, retargeted, reshaped, list ↔ single,
/// required ↔ optional, extended references and ancestors lists.
fn references(col: &mut Collector<'_>, here: Here<'_>, old: &[Reference], new: &[Reference]) {
    let (pairs, gone) = matched(old, new, |o, n| o.name == n.name);
    for (o, n) in pairs {
        let at = here.subject.child(&n.name);
        let Some(o) = o else {
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
            here.push(col, at, kind);
            continue;
        };
        if let Some(kind) = retargeted(o, n) {
            here.push(col, at.clone(), kind);
        }
        let required = |_: &Collector<'_>| ChangeKind::BecameRequired {
            default: None,
            queried: false,
        };
        presence(col, here, &at, [(o.many, o.optional), (n.many, n.optional)], required);
        let derived = here.derived();
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
                derived.push(col, at, kind);
            }
            (Some(_), None) => {
                let kind = ChangeKind::DerivedRemoved {
                    derived: Derived::ExtendedReference,
                };
                derived.push(col, at, kind);
            }
            (Some(oe), Some(ne)) => {
                let inner = Here {
                    subject: &at,
                    ..derived
                };
                attributes(col, inner, &oe.attributes, &ne.attributes);
            }
            (None, None) => {}
        }
    }
    for o in gone {
        let kind = match &o.ancestry {
            Some(_) => ChangeKind::DerivedRemoved {
                derived: Derived::Ancestors,
            },
            None => ChangeKind::ReferenceRemoved {
                target: o.target.clone(),
            },
        };
        here.push(col, here.subject.child(&o.name), kind);
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
