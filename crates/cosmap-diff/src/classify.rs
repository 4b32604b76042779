//! Each change's [`Class`], the one line saying what to do, and what a migration does
//! to each document ([`Work`], priced by `volumes`).
//!
//! The classes follow Cosmos DB and the Rust types `cosmap generate` writes
//! (`cosmap.rs`), which decide whether documents already written still read:
//!
//! - no struct has `deny_unknown_fields`: a property the new model dropped is left
//!   in old documents and ignored;
//! - an optional property is `Option<T>` with `serde(default)`, and a list (an
//!   attribute with `many`, an embedded array, a list of references, a computed
//!   count) has `serde(default)`: old documents without it read as `None`, empty or
//!   `0`;
//! - a required attribute with a model `default` has `serde(default = …)`: old
//!   documents without it read the default (but a query on it does not find them:
//!   where the new model queries it, they must be back-filled);
//! - any other property (a required single value, an embedded object, a reference) has
//!   no default: old documents without it no longer deserialise;
//! - a container's `…Document` enum refuses a `type` it does not know: documents of a
//!   removed document type left in the container break mixed reads of it;
//! - Cosmos DB changes indexing and the default TTL in place, never a partition key
//!   or unique keys: those need a new container and a copy of every document (a key
//!   whose paths stay and whose kind or version differs — a provisioned container
//!   against a model — still reads, so it is a data migration, not a break).

use crate::change::{ChangeKind, Class, Derived};
use crate::volumes::Work;

/// Where the changed property lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// In the document's own data, written by the application.
    Stored,
    /// In data derived from other documents (a copy, a snapshot, an extended
    /// reference, a subset): a sync worker or the application keeps it, so what is
    /// new in it must be back-filled.
    Derived,
}

/// A change's class, its explanation and the work a migration does per document.
#[derive(Debug, Clone, PartialEq)]
pub struct Assessment {
    /// What it takes to deploy.
    pub class: Class,
    /// One line for people.
    pub explanation: String,
    /// What a migration does to each document it touches, if it touches any.
    pub work: Option<Work>,
}

fn assessed(class: Class, explanation: impl Into<String>, work: Option<Work>) -> Assessment {
    Assessment {
        class,
        explanation: explanation.into(),
        work,
    }
}

/// Classifies `kind`, found at `place`.
pub fn assess(kind: &ChangeKind, place: Place) -> Assessment {
    use Class::*;
    match kind {
        ChangeKind::ContainerRemoved
            | ChangeKind::PartitionKeyChanged { .. }
            | ChangeKind::UniqueKeysChanged { .. }
            | ChangeKind::IndexingChanged { .. }
            | ChangeKind::TtlChanged { .. }
            | ChangeKind::DocumentTypeAdded { .. }
            | ChangeKind::DocumentTypeRemoved { .. }
            | ChangeKind::DocumentTypeMoved { .. }
            | ChangeKind::ContainerAdded => container_change(kind),
        ChangeKind::PropertyAdded { .. }
            | ChangeKind::PropertyRemoved
            | ChangeKind::BecamePartitionKey { .. }
            | ChangeKind::NoLongerPartitionKey { .. }
            | ChangeKind::PropertyRetyped { .. }
            | ChangeKind::CardinalityChanged { .. } => property_change(kind, place),
        ChangeKind::BecameRequired { .. }
            | ChangeKind::DefaultChanged { .. }
            | ChangeKind::BecameOptional => requirement_change(kind),
        ChangeKind::EmbeddedAdded { .. }
            | ChangeKind::EmbeddedRemoved { .. }
            | ChangeKind::EmbeddedToSeparate { .. }
            | ChangeKind::SeparateToEmbedded { .. } => embedded_change(kind, place),
        ChangeKind::ReferenceAdded { optional, many, .. } => {
            added(*optional || *many, place, "old documents read it as absent or empty (`serde(default)`)")
        }
        ChangeKind::ReferenceRemoved { .. } => removed(),
        ChangeKind::ReferenceChanged { reshaped, .. } => {
            if *reshaped {
                assessed(
                    BreakingForReaders,
                    "the stored reference has another shape (a hierarchical key's value is an array): rewrite every document's reference before the new readers run",
                    Some(Work::Rewrite),
                )
            } else {
                assessed(
                    DataMigration,
                    "old documents' references still read but point by the old rule: rewrite each `{id, partitionKey}`",
                    Some(Work::Rewrite),
                )
            }
        }
        ChangeKind::DerivedAdded {
            derived,
            required,
            kept_from_change_feed,
        } => derived_added(*derived, *required, *kept_from_change_feed),
        ChangeKind::DerivedRemoved { derived } => match derived {
            Derived::Copy | Derived::Claim | Derived::Bucket => assessed(
                BreakingForReaders,
                "stop its sync; its documents stay in the container, whose generated enum no longer knows their `type`: delete them",
                Some(Work::Delete),
            ),
            _ => assessed(
                InPlace,
                "stop keeping it current; the values already written are ignored by the new types",
                None,
            ),
        },
    }
}

/// Classifies a change of an embedded object: added, removed, or moved out of (or
/// into) its parent's documents.
fn embedded_change(kind: &ChangeKind, place: Place) -> Assessment {
    use Class::*;
    match kind {
        ChangeKind::EmbeddedAdded { many, .. } => added(*many, place, "old documents read the array as empty (`serde(default)`)"),
        ChangeKind::EmbeddedToSeparate { document_type, from, .. } => assessed(
            DataMigration,
            format!(
                "write one `{document_type}` document per value embedded in the old documents' `{from}` (the estimate counts the rewrite of those documents; the inserts come on top), then remove it from them; the new types ignore it meanwhile"
            ),
            Some(Work::Rewrite),
        ),
        ChangeKind::SeparateToEmbedded { document_type, many, .. } => {
            let (class, reads) = if *many {
                (DataMigration, "old documents read the array as empty until then")
            } else {
                (BreakingForReaders, "old documents without the object no longer deserialise until then")
            };
            assessed(
                class,
                format!(
                    "read each `{document_type}` document into its parent (`cosmap migrate` does), then delete it; {reads}, and the container's enum refuses the left-over `{document_type}` documents"
                ),
                Some(Work::Copy),
            )
        }
        // EmbeddedRemoved.
        _ => removed(),
    }
}

/// Classifies a change of a container or of the document types in it.
fn container_change(kind: &ChangeKind) -> Assessment {
    use Class::*;
    match kind {
        ChangeKind::ContainerRemoved => assessed(
            DataMigration,
            "the new model no longer uses it and cosmap never deletes: move what is still needed, then drop it yourself",
            None,
        ),
        ChangeKind::PartitionKeyChanged { old, new, .. } if old == new => assessed(
            DataMigration,
            "the same paths with another kind or version, which Cosmos DB cannot change in place: documents still read, but `cosmap provision` refuses the container (drift); to match the model, create a container under a new name (or database), copy every document into it, switch, then drop the old one",
            Some(Work::Copy),
        ),
        ChangeKind::PartitionKeyChanged { .. } => assessed(
            BreakingForReaders,
            "Cosmos DB cannot change a partition key: create a container under a new name (or database), copy every document into it (change feed), switch readers and writers, then drop the old one (`cosmap migrate` creates and copies)",
            Some(Work::Copy),
        ),
        ChangeKind::UniqueKeysChanged { .. } => assessed(
            DataMigration,
            "Cosmos DB cannot change unique keys in place: create a container under a new name (or database) with them, copy every document (find duplicates of an added key first), switch, then drop the old one (`cosmap migrate` creates and copies, stopping at a duplicate)",
            Some(Work::Copy),
        ),
        ChangeKind::IndexingChanged { .. } => assessed(
            InPlace,
            "applied in place with `cosmap provision --update-indexing`; Cosmos DB re-indexes in the background, no document is rewritten",
            None,
        ),
        ChangeKind::TtlChanged { old, new } => {
            let text = match (old, new) {
                (_, None) => "set in place by `cosmap provision`; documents no longer expire by default".to_string(),
                (_, Some(-1)) => "set in place by `cosmap provision`; TTL is on, documents expire only by their own `ttl`".to_string(),
                (_, Some(seconds)) => format!(
                    "set in place by `cosmap provision`; documents already written older than {seconds} s expire as soon as it is set"
                ),
            };
            assessed(InPlace, text, None)
        }
        ChangeKind::DocumentTypeAdded { .. } => assessed(
            Additive,
            "a new document type: written from now on; documents already written are untouched",
            None,
        ),
        ChangeKind::DocumentTypeRemoved { .. } => assessed(
            BreakingForReaders,
            "its documents stay in the container and its generated enum refuses a `type` it does not know: delete them (or move them) before the new readers run",
            Some(Work::Delete),
        ),
        ChangeKind::DocumentTypeMoved { from, to } => assessed(
            BreakingForReaders,
            format!(
                "its documents are still in `{from}`: copy them into `{to}` (with its partition key), switch readers, then delete them from `{from}`, whose enum no longer knows them"
            ),
            Some(Work::Copy),
        ),
        // ContainerAdded.
        _ => assessed(
            Additive,
            "a new container: `cosmap provision` creates it (with its document types)",
            None,
        ),
    }
}

/// Classifies a change of a property: added, removed, retyped, its cardinality, or
/// becoming (or no longer being) the partition key.
fn property_change(kind: &ChangeKind, place: Place) -> Assessment {
    use Class::*;
    match kind {
        ChangeKind::PropertyAdded {
            optional,
            many,
            default: Some(value),
            queried,
            ..
        } if !*optional && !*many => defaulted(value, *queried, "old documents lack it"),
        ChangeKind::PropertyAdded { optional, many, .. } => added(*optional || *many, place, "old documents read it as absent or empty (`serde(default)`)"),
        ChangeKind::BecamePartitionKey { key, was_optional: false } => assessed(
            InPlace,
            format!(
                "now the partition key ({}): documents keep it under the same name and the generated types still read it; the documents move with the container's partition key change",
                key.join(", ")
            ),
            None,
        ),
        ChangeKind::BecamePartitionKey { key, was_optional: true } => assessed(
            BreakingForReaders,
            format!(
                "now the partition key ({}), required: documents without it no longer deserialise and have no key value in the new container; back-fill a value into every document that lacks it before they are copied",
                key.join(", ")
            ),
            Some(Work::Rewrite),
        ),
        ChangeKind::NoLongerPartitionKey { key } => assessed(
            InPlace,
            format!(
                "no longer the partition key (it was {}): documents hold it under the same name already and the generated types still read it; the documents move with the container's partition key change",
                key.join(", ")
            ),
            None,
        ),
        ChangeKind::PropertyRetyped { old, new } => {
            use cosmap_domain::AttributeType as T;
            let text = |t: &T| matches!(t, T::String | T::Decimal | T::DateTime | T::Date | T::Uuid);
            if (*old, *new) == (T::Integer, T::Number) {
                assessed(InPlace, "an integer reads as a number: old documents still read", None)
            } else if text(old) && *new == T::String {
                assessed(
                    InPlace,
                    format!("a {} is stored as text, which a string reads: old documents still read", old.as_str()),
                    None,
                )
            } else {
                assessed(
                    BreakingForReaders,
                    format!(
                        "old documents hold a {} where the new types read a {}, which no `default` can make them read: rewrite every document, converting the value, before the new readers run (`cosmap migrate` writes numbers and booleans as text; other conversions are yours)",
                        old.as_str(),
                        new.as_str()
                    ),
                    Some(Work::Rewrite),
                )
            }
        }
        ChangeKind::CardinalityChanged { new_many, .. } => assessed(
            BreakingForReaders,
            if *new_many {
                "a single value is a list now, which no `default` can make old documents read: rewrite every document, wrapping the value in an array, before the new readers run (`cosmap migrate` does)"
            } else {
                "a list is a single value now, which no `default` can make old documents read: rewrite every document, keeping its one value, before the new readers run (`cosmap migrate` does, and stops at a list of two or more: which to keep is yours to say)"
            },
            Some(Work::Rewrite),
        ),
        // PropertyRemoved.
        _ => removed(),
    }
}

/// Classifies a property becoming required or optional, or its default changing.
fn requirement_change(kind: &ChangeKind) -> Assessment {
    use Class::*;
    match kind {
        ChangeKind::BecameRequired {
            default: Some(value),
            queried,
        } => defaulted(value, *queried, "documents written without it"),
        ChangeKind::BecameRequired { default: None, .. } => assessed(
            BreakingForReaders,
            "old documents without it no longer deserialise: back-fill a value into every document that lacks it before the new readers run, or give the attribute a `default` in the new model",
            Some(Work::Rewrite),
        ),
        ChangeKind::DefaultChanged { old: None, .. } => assessed(
            InPlace,
            "every document already holds it (it was required without a default); documents written without it would read the default",
            None,
        ),
        ChangeKind::DefaultChanged {
            old: Some(old),
            new,
            optional,
        } => {
            let now = match (new, optional) {
                (Some(new), _) => format!("read `{new}` now"),
                (None, true) => "read as absent now".to_string(),
                (None, false) => "no longer deserialise".to_string(),
            };
            assessed(
                if new.is_none() && !optional {
                    BreakingForReaders
                } else {
                    DataMigration
                },
                format!(
                    "documents written without it read `{old}` under the old model and {now}: back-fill `{old}` into every document that lacks it before the new readers run (`cosmap migrate` does)"
                ),
                Some(Work::Rewrite),
            )
        }
        // BecameOptional.
        _ => assessed(
            InPlace,
            "old documents, which all hold it, still read",
            None,
        ),
    }
}

/// A property, embedded object or reference that is new: it reads from old documents
/// when `defaulted` (optional or a list); derived data must be back-filled anyway.
fn added(defaulted: bool, place: Place, reads: &str) -> Assessment {
    match (defaulted, place) {
        (true, Place::Stored) => assessed(Class::Additive, format!("{reads}; written from now on"), None),
        (true, Place::Derived) => assessed(
            Class::DataMigration,
            format!("{reads}, but it is derived data: back-fill it from its source in every existing document"),
            Some(Work::Rewrite),
        ),
        (false, _) => assessed(
            Class::BreakingForReaders,
            "required, and old documents lack it: they no longer deserialise; give it a `default` in the new model (old documents then read it), back-fill a value into every document before the new readers run, or make it optional",
            Some(Work::Rewrite),
        ),
    }
}

/// A required attribute with a model `default` where documents (`which`) lack it:
/// they read the default; a query that filters, sorts or partitions on it does not see
/// it in them, so then it must be back-filled.
fn defaulted(value: &serde_json::Value, queried: bool, which: &str) -> Assessment {
    if queried {
        assessed(
            Class::DataMigration,
            format!(
                "{which} and read `{value}` (its `default`), but the new model's queries filter, sort or partition on it and would not find them: back-fill `{value}` into every document that lacks it (`cosmap migrate` does)"
            ),
            Some(Work::Rewrite),
        )
    } else {
        assessed(
            Class::Additive,
            format!("{which} and read `{value}` (its `default`); written from now on"),
            None,
        )
    }
}

fn removed() -> Assessment {
    assessed(
        Class::InPlace,
        "old documents keep it; the generated types ignore unknown fields, and it goes with each document's next write",
        None,
    )
}

fn derived_added(derived: Derived, required: bool, kept_from_change_feed: bool) -> Assessment {
    if kept_from_change_feed {
        let reads = if required {
            "until then the new types cannot read the documents that lack it"
        } else {
            "until then readers see it empty"
        };
        return assessed(
            if required {
                Class::BreakingForReaders
            } else {
                Class::DataMigration
            },
            format!(
                "a new {}, kept from a change feed: the generated worker that keeps it reads the feed from the beginning, so its first run back-fills it for everything already written; run it once before the new readers rely on it ({reads})",
                derived.as_str()
            ),
            Some(if matches!(derived, Derived::Copy) {
                Work::Insert
            } else {
                Work::Rewrite
            }),
        );
    }
    match derived {
        Derived::Copy | Derived::Claim | Derived::Bucket => assessed(
            Class::DataMigration,
            format!(
                "new {}: back-fill them from the existing source documents, then keep them current (its sync plan or the generated data access)",
                derived.as_str()
            ),
            Some(Work::Insert),
        ),
        _ if required => assessed(
            Class::BreakingForReaders,
            format!(
                "a new {} the new types require: old documents lack it and no longer deserialise; back-fill it into every document before the new readers run",
                derived.as_str()
            ),
            Some(Work::Rewrite),
        ),
        _ => assessed(
            Class::DataMigration,
            format!(
                "a new {}: old documents read it as empty, which is wrong until it is back-filled into every document from its source",
                derived.as_str()
            ),
            Some(Work::Rewrite),
        ),
    }
}
