//! The diff's output types: [`ModelDiff`], each [`Change`] with its [`Class`], its
//! [`Subject`] and its typed [`ChangeKind`]. Serialised, this is the JSON of
//! `cosmap diff --format json` (docs/diff.md).

use cosmap_domain::AttributeType;
use cosmap_mapper::Role;
use serde::Serialize;
use serde_json::Value;

/// Version of the diff's JSON contract; bumped on incompatible changes.
pub const DIFF_FORMAT_VERSION: u32 = 1;

/// What a change takes to deploy, least severe first: the order is the severity, so
/// the worst change of a diff is the greatest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Class {
    /// Nothing is created or rewritten: Cosmos DB applies it to the existing container
    /// (indexing, TTL), or existing documents serve the new model as they are (a
    /// removed property is left behind and ignored by the generated readers).
    InPlace,
    /// Something new is created (a container, a document type, an optional property);
    /// documents already written still read as they are.
    Additive,
    /// Documents already written must be rewritten, moved, copied or back-filled for
    /// the new model to be right; the generated readers still read them.
    DataMigration,
    /// Documents already written no longer deserialise into the new generated types
    /// (or are no longer where the new model looks for them): readers break until
    /// they are migrated.
    BreakingForReaders,
}

impl Class {
    /// Every class, least severe first.
    pub const ALL: [Class; 4] = [
        Class::InPlace,
        Class::Additive,
        Class::DataMigration,
        Class::BreakingForReaders,
    ];

    /// As people read it: `in place`, `additive`, `data migration`, `breaking for readers`.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::InPlace => "in place",
            Class::Additive => "additive",
            Class::DataMigration => "data migration",
            Class::BreakingForReaders => "breaking for readers",
        }
    }
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What changed: a container, a document type in it, or a property path of one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Subject {
    /// The container (the new model's for a document type that moved).
    pub container: String,
    /// The document type, when the change is about one or its properties.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document_type: Option<String>,
    /// The property path inside the document type (`items.quantity`), when the change
    /// is about a property.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<String>,
}

impl Subject {
    /// A container.
    pub fn container(container: &str) -> Self {
        Subject {
            container: container.to_string(),
            document_type: None,
            path: Vec::new(),
        }
    }

    /// A document type of `container`.
    pub fn document_type(container: &str, document_type: &str) -> Self {
        Subject {
            document_type: Some(document_type.to_string()),
            ..Subject::container(container)
        }
    }

    /// This subject with `name` appended to its path.
    pub fn child(&self, name: &str) -> Self {
        let mut child = self.clone();
        child.path.push(name.to_string());
        child
    }
}

impl std::fmt::Display for Subject {
    /// `Order`, `Order/Order`, `Order/Order.items.quantity`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.container)?;
        if let Some(d) = &self.document_type {
            write!(f, "/{d}")?;
        }
        for p in &self.path {
            write!(f, ".{p}")?;
        }
        Ok(())
    }
}

/// Data derived from other documents, kept current by the application or a sync
/// worker: it must be back-filled when added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Derived {
    /// A copy document type (`copy`) or a feed (`feed`).
    Copy,
    /// Uniqueness claim documents (`uniqueClaim`).
    Claim,
    /// Bucket documents holding children by time window (`bucket`).
    Bucket,
    /// A count kept on the parent (`computedValue`).
    ComputedValue,
    /// The newest children embedded in the parent (`subset`).
    Subset,
    /// A snapshot of reference data embedded instead of a reference (`embedReferenceData`).
    Snapshot,
    /// Attributes of the target stored beside a reference (`extendedReference`).
    ExtendedReference,
    /// A tree's ancestors list (`treeAncestors`).
    Ancestors,
}

impl Derived {
    /// As people read it.
    pub fn as_str(self) -> &'static str {
        match self {
            Derived::Copy => "copy",
            Derived::Claim => "uniqueness claims",
            Derived::Bucket => "buckets",
            Derived::ComputedValue => "computed count",
            Derived::Subset => "subset of the newest children",
            Derived::Snapshot => "reference data snapshot",
            Derived::ExtendedReference => "extended reference",
            Derived::Ancestors => "ancestors list",
        }
    }
}

/// What changed, with the old and new values that matter.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase", tag = "kind")]
pub enum ChangeKind {
    /// A new container.
    ContainerAdded,
    /// A container the new model no longer has.
    ContainerRemoved,
    /// The partition key paths, kind or version differ: Cosmos DB cannot change them
    /// in place.
    PartitionKeyChanged {
        /// Old paths.
        old: Vec<String>,
        /// New paths.
        new: Vec<String>,
        /// The old and new kind and version, when they differ (the paths may not: a
        /// provisioned container with a version 1 key where the model wants version 2).
        #[serde(flatten, skip_serializing_if = "Option::is_none")]
        definition: Option<KeyDefinitionChange>,
    },
    /// The unique keys differ: Cosmos DB cannot change them in place.
    UniqueKeysChanged {
        /// Old unique keys, each its paths.
        old: Vec<Vec<String>>,
        /// New unique keys.
        new: Vec<Vec<String>>,
    },
    /// The indexing policy differs (Cosmos DB re-indexes in place).
    IndexingChanged {
        /// Included paths added.
        included_added: Vec<String>,
        /// Included paths removed.
        included_removed: Vec<String>,
        /// Whether anything else changed (excluded paths, composite indexes, mode).
        other: bool,
    },
    /// The default time-to-live differs (`None`: off).
    TtlChanged {
        /// Old default TTL in seconds.
        #[serde(skip_serializing_if = "Option::is_none")]
        old: Option<i64>,
        /// New default TTL in seconds.
        #[serde(skip_serializing_if = "Option::is_none")]
        new: Option<i64>,
    },
    /// A new document type.
    DocumentTypeAdded {
        /// Its role.
        role: Role,
    },
    /// A document type the new model no longer has.
    DocumentTypeRemoved {
        /// Its role.
        role: Role,
    },
    /// A document type now lives in another container.
    DocumentTypeMoved {
        /// The old container.
        from: String,
        /// The new container.
        to: String,
    },
    /// A new attribute.
    PropertyAdded {
        /// Its type.
        #[serde(rename = "type")]
        ty: AttributeType,
        /// May be absent.
        optional: bool,
        /// A list.
        many: bool,
        /// The model's `default`: what old documents, which lack it, read as.
        #[serde(skip_serializing_if = "Option::is_none")]
        default: Option<Value>,
        /// The new model's queries filter, sort or partition on it (its container
        /// indexes it): documents that lack it must be back-filled for them to match.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        queried: bool,
    },
    /// An attribute the new model no longer has.
    PropertyRemoved,
    /// An attribute of the old model is the new model's partition key (or one of its
    /// levels): documents keep it under the same name, at the top level.
    BecamePartitionKey {
        /// The document type's new key, each level a path (`/city`).
        key: Vec<String>,
        /// It was optional: documents without it have no value for the new key.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        was_optional: bool,
    },
    /// The old model's partition key (or one of its levels) is an attribute of the new
    /// model: documents hold it under the same name already.
    NoLongerPartitionKey {
        /// The document type's old key, each level a path.
        key: Vec<String>,
    },
    /// An attribute's type differs.
    PropertyRetyped {
        /// Old type.
        old: AttributeType,
        /// New type.
        new: AttributeType,
    },
    /// An attribute, an embedded object or a reference that was a single value is a
    /// list now, or the other way round.
    CardinalityChanged {
        /// Whether it was a list.
        old_many: bool,
        /// Whether it is a list now.
        new_many: bool,
    },
    /// An optional attribute or reference is required now.
    BecameRequired {
        /// The new model's `default`: what documents without it read as.
        #[serde(skip_serializing_if = "Option::is_none")]
        default: Option<Value>,
        /// The new model's queries filter, sort or partition on it.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        queried: bool,
    },
    /// The `default` of a required attribute both models have differs: documents
    /// written without it read another value (or none) now.
    DefaultChanged {
        /// The old model's default.
        #[serde(skip_serializing_if = "Option::is_none")]
        old: Option<Value>,
        /// The new model's default.
        #[serde(skip_serializing_if = "Option::is_none")]
        new: Option<Value>,
        /// Optional in the new model (documents without it read as absent).
        optional: bool,
    },
    /// A required attribute or reference is optional now.
    BecameOptional,
    /// A new embedded value object.
    EmbeddedAdded {
        /// The embedded element.
        source: String,
        /// An array.
        many: bool,
    },
    /// An embedded object the new model no longer has.
    EmbeddedRemoved {
        /// The embedded element.
        source: String,
    },
    /// A value object embedded in the old model is a separate document type now.
    EmbeddedToSeparate {
        /// The value object.
        value_object: String,
        /// The old holder and property (`Order.items`).
        from: String,
        /// The new document type.
        document_type: String,
    },
    /// A value object stored as separate documents in the old model is embedded now.
    SeparateToEmbedded {
        /// The value object.
        value_object: String,
        /// The old document type.
        document_type: String,
        /// An array in the new model.
        many: bool,
    },
    /// A new reference to another aggregate's root.
    ReferenceAdded {
        /// The referenced root.
        target: String,
        /// May be absent.
        optional: bool,
        /// A list.
        many: bool,
    },
    /// A reference the new model no longer has.
    ReferenceRemoved {
        /// The referenced root.
        target: String,
    },
    /// A reference points elsewhere or stores its partition key value differently.
    ReferenceChanged {
        /// What differs, in words (`target Account → User`, `partition key value`).
        what: String,
        /// The stored JSON has another shape (a hierarchical key's value is an array).
        reshaped: bool,
    },
    /// Derived data added: it must be back-filled for what already exists.
    DerivedAdded {
        /// What kind.
        derived: Derived,
        /// The generated types require it (no default): old documents without it no
        /// longer deserialise.
        required: bool,
        /// Kept current from a change feed (a copy, a feed, a count or subset kept by the
        /// children's feed, an extended reference of a root that changes): the generated
        /// worker that keeps it reads the feed from the beginning, so its first run
        /// back-fills it for everything already written.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        kept_from_change_feed: bool,
    },
    /// Derived data removed: its sync stops; what was written stays.
    DerivedRemoved {
        /// What kind.
        derived: Derived,
    },
}

impl ChangeKind {
    /// A short name, as the JSON's `kind` spells it (serde's tag: one spelling).
    pub fn name(&self) -> String {
        let tagged = serde_json::to_value(self).unwrap_or_default();
        tagged["kind"].as_str().unwrap_or_default().to_string()
    }
}

/// How much a data migration moves: documents and request units, from the old
/// model's volumes and the cost model's write charges.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Estimate {
    /// Documents to rewrite, copy, back-fill or delete.
    pub documents: f64,
    /// Request units the whole migration charges (once, not per second).
    pub ru: f64,
}

/// One difference between the two logical models.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    /// What it takes to deploy.
    pub class: Class,
    /// What changed.
    pub subject: Subject,
    /// How it changed.
    #[serde(flatten)]
    pub kind: ChangeKind,
    /// One line: what it means and what the user must do.
    pub explanation: String,
    /// For changes that rewrite, move or back-fill documents, when the model gives
    /// volumes: how many and what it costs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Estimate>,
}

/// A partition key's kind and version before and after, when either differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyDefinitionChange {
    /// Old kind: `Hash` or `MultiHash`.
    pub old_kind: String,
    /// Old version: 1 or 2.
    pub old_version: u32,
    /// New kind.
    pub new_kind: String,
    /// New version.
    pub new_version: u32,
}

/// Every difference between two logical models, in a deterministic order
/// (by container, document type, path; container changes first).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelDiff {
    /// Version of this JSON contract.
    pub format_version: u32,
    /// The old model's name.
    pub old: String,
    /// The new model's name.
    pub new: String,
    /// The most severe class among the changes; absent when nothing changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worst: Option<Class>,
    /// The changes.
    pub changes: Vec<Change>,
    /// Only containers were compared: the old side is what is provisioned on an
    /// account ([`crate::diff_deployed`]), which holds no document types or properties.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub containers_only: bool,
}

impl ModelDiff {
    /// Whether the models are the same as far as documents and containers go.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// How many changes fall in `class`.
    pub fn count(&self, class: Class) -> usize {
        self.changes.iter().filter(|c| c.class == class).count()
    }

    /// The estimate summed over every change that has one.
    pub fn total_estimate(&self) -> Option<Estimate> {
        self.changes.iter().filter_map(|c| c.estimate).reduce(|a, b| Estimate {
            documents: a.documents + b.documents,
            ru: a.ru + b.ru,
        })
    }
}
