//! The mapper's output: containers, their partition keys and document types, and
//! the decisions that produced them. Serialised, this is the documented JSON
//! contract of `cosmap model --format json` (see `docs/logical-model.md`).

use cosmap_domain::{AttributeType, Cardinality};
use std::sync::Arc;

use serde::Serialize;

use crate::decision::{Decision, Rule};
use crate::operations::PropertyPath;
use crate::options::Thresholds;
use crate::physical::{IndexingPolicy, UniqueKey};
use crate::sync_plan::SyncPlan;

/// Version of the JSON contract; bumped on incompatible changes.
pub const FORMAT_VERSION: u32 = 2;

/// A Cosmos DB data model derived from a domain model.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LogicalModel {
    /// Version of this JSON contract.
    pub format_version: u32,
    /// The domain model's name.
    pub model: String,
    /// The thresholds the decisions used.
    pub thresholds: Thresholds,
    /// The containers, sorted by name.
    pub containers: Vec<Container>,
    /// How each access pattern runs on this model, by pattern name.
    pub operations: Vec<crate::operations::Operation>,
    /// Every decision, grouped by rule (MR1 … MR6, then optimisations).
    pub decisions: Vec<Decision>,
}

/// What a container holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ContainerKind {
    /// One aggregate (MR1).
    Aggregate,
    /// Small orphan aggregates sharing one container (MR5).
    Dictionary,
    /// Uniqueness claims (uniqueClaim): one document per claimed value, partitioned
    /// by the value, so Cosmos DB refuses a second claim of it.
    Claims,
}

/// A container: its partition key and the document types stored in it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    /// Container id.
    pub name: String,
    /// Aggregate container or shared dictionary container.
    pub kind: ContainerKind,
    /// The aggregates whose documents live here.
    pub aggregates: Vec<String>,
    /// Partition key definition, in Cosmos DB's own shape.
    pub partition_key: PartitionKey,
    /// The top-level document property the partition key path points at (for a
    /// hierarchical key, its first level).
    pub partition_key_property: String,
    /// A hierarchical (`MultiHash`) key's further levels, in order: each a top-level
    /// property every document carries. Empty for a single-path key.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sub_partition_key_properties: Vec<String>,
    /// Default time-to-live in seconds, when the aggregate declares one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_ttl: Option<i64>,
    /// Indexing policy, in Cosmos DB's own shape.
    pub indexing_policy: IndexingPolicy,
    /// Unique keys that are sound for this container (see the `uniqueKey` decisions).
    pub unique_keys: Vec<UniqueKey>,
    /// The rules that shaped this container (`copy`: it holds copies; `copySource`: its
    /// change feed keeps copies, counts or subsets, so TTL is on and deletes are soft).
    pub rules: Vec<Rule>,
    /// Document types: the root first, then entities, separated value objects, copies.
    pub document_types: DocumentTypes,
}

/// A container's document types, read as a slice. A copy of them shares them (the map
/// copies every design it weighs, and most keep most containers' documents as they
/// were): [`DocumentTypes::make_mut`] copies them when they are changed.
#[derive(Clone, Default, PartialEq)]
pub struct DocumentTypes(Arc<Vec<DocumentType>>);

impl DocumentTypes {
    /// The document types to change, copied first when another container shares them.
    pub fn make_mut(&mut self) -> &mut Vec<DocumentType> {
        Arc::make_mut(&mut self.0)
    }
}

impl From<Vec<DocumentType>> for DocumentTypes {
    fn from(documents: Vec<DocumentType>) -> Self {
        DocumentTypes(Arc::new(documents))
    }
}

impl std::ops::Deref for DocumentTypes {
    type Target = [DocumentType];

    fn deref(&self) -> &[DocumentType] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a DocumentTypes {
    type Item = &'a DocumentType;
    type IntoIter = std::slice::Iter<'a, DocumentType>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Printed as the list it holds.
impl std::fmt::Debug for DocumentTypes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Serialised as the list it holds.
impl Serialize for DocumentTypes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.as_slice().serialize(serializer)
    }
}

/// A partition key definition as Cosmos DB's REST API and SDKs take it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PartitionKey {
    /// One path, for example `/accountId`; for a hierarchical key up to three, first
    /// level first (`/tenantId`, `/orderId`).
    pub paths: Vec<String>,
    /// `Hash` (one path) or `MultiHash` (a hierarchical key).
    pub kind: String,
    /// Always 2 (large partition keys).
    pub version: u32,
}

impl PartitionKey {
    /// A single-path hash partition key on `property`.
    pub fn on(property: &str) -> Self {
        PartitionKey {
            paths: vec![format!("/{property}")],
            kind: "Hash".to_string(),
            version: 2,
        }
    }

    /// A hierarchical (`MultiHash`) partition key on `properties`, first level first;
    /// a single-path key when there is one.
    pub fn hierarchical<S: AsRef<str>>(properties: &[S]) -> Self {
        if let [one] = properties {
            return PartitionKey::on(one.as_ref());
        }
        PartitionKey {
            paths: properties.iter().map(|p| format!("/{}", p.as_ref())).collect(),
            kind: "MultiHash".to_string(),
            version: 2,
        }
    }

    /// Whether it is hierarchical (more than one path).
    pub fn is_hierarchical(&self) -> bool {
        self.paths.len() > 1
    }
}

/// Why a document type exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Role {
    /// An aggregate root (MR1).
    Root,
    /// A non-root entity (MR3).
    Entity,
    /// A value object stored separately (MR4).
    ValueObject,
    /// An optimisation copy of another container's documents.
    Copy,
    /// A uniqueness claim on one attribute value of another container's documents.
    Claim,
    /// A bucket: the children of one parent written in one time window, together in
    /// one document (`bucket`); the children have no documents of their own.
    Bucket,
}

impl Role {
    /// The role as people read it: `root`, `entity`, `value object`, `copy`, `claim`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Root => "root",
            Role::Entity => "entity",
            Role::ValueObject => "value object",
            Role::Copy => "copy",
            Role::Claim => "claim",
            Role::Bucket => "bucket",
        }
    }
}

/// Where a document's `id` value comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum IdSource {
    /// The entity's identity attribute.
    Identity {
        /// The identity attribute, for example `creditCardId`.
        attribute: String,
    },
    /// Assigned by the application (a value object has no identity), unique in its partition.
    Assigned,
}

/// A kind of document stored in a container, told apart by its `type` value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentType {
    /// Type name, unique within the container (the source element's name).
    pub name: String,
    /// Value of the document's `type` property.
    pub discriminator: String,
    /// The domain element it maps.
    pub source: String,
    /// Why it exists.
    pub role: Role,
    /// Where `id` comes from.
    pub id: IdSource,
    /// The partition key property it carries (the container's; for a hierarchical
    /// key, its first level).
    pub partition_key_property: String,
    /// A hierarchical key's further levels (the container's), each carried too.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sub_partition_key_properties: Vec<String>,
    /// For a separated value object under a non-root entity: the property holding that entity's identity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<ParentLink>,
    /// Stored attributes (not `id`, `type` or the partition key property).
    pub attributes: Vec<Property>,
    /// Objects and arrays embedded in the document.
    pub embedded: Vec<Embedded>,
    /// References to other aggregates' roots.
    pub references: Vec<Reference>,
    /// For a non-root entity (MR3) or a separated value object (MR4): the
    /// containment relationship that makes it part of its aggregate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub containment: Option<Containment>,
    /// For copies: what is copied and how it is kept in sync.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy_of: Option<Box<CopyOf>>,
    /// For uniqueness claims: whose attribute value the document claims.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim_of: Option<Box<ClaimOf>>,
    /// What its element is, from the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Values kept on the document from other documents (`computedValue`): the number
    /// of its children of an element, so a read needs no count query.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub computed: Vec<ComputedValue>,
    /// For a bucket (`bucket`): which children it holds and by which window.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bucket: Option<Box<BucketOf>>,
    /// Estimated typical size in bytes, when the model gives sizes: the declared
    /// `avgSizeBytes` plus embedded value objects, lists at their typical length
    /// (`avg`, else `max`). Costs and storage use it; MR4's size check uses the bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_size_bytes: Option<f64>,
}

/// What a bucket document holds: the `element` children of one parent whose `time`
/// falls in one `window`, in its list `items`; its `id` (and `window` property) is
/// the window, the first characters of `time` in UTC RFC 3339 text.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BucketOf {
    /// The child element bucketed.
    pub element: String,
    /// Its date-time attribute that picks the bucket.
    pub time: String,
    /// How long a bucket's window is.
    pub window: BucketWindow,
    /// The list property holding the children.
    pub items: String,
    /// The typical number of children a bucket holds (the write rate per parent times
    /// the window).
    pub typical_items: f64,
}

/// The length of a bucket's window: the bucket of a time is its RFC 3339 text cut
/// to the minute, the hour or the day (`2026-12-01T13` for an hour).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum BucketWindow {
    /// `2026-12-01T13:45`.
    Minute,
    /// `2026-12-01T13`.
    Hour,
    /// `2026-12-01`.
    Day,
}

impl BucketWindow {
    /// Every window, longest first.
    pub const ALL: [BucketWindow; 3] = [BucketWindow::Day, BucketWindow::Hour, BucketWindow::Minute];

    /// How many characters of the RFC 3339 text name the window.
    pub fn prefix_len(self) -> usize {
        match self {
            BucketWindow::Minute => 16,
            BucketWindow::Hour => 13,
            BucketWindow::Day => 10,
        }
    }

    /// Its length in seconds.
    pub fn seconds(self) -> f64 {
        match self {
            BucketWindow::Minute => 60.0,
            BucketWindow::Hour => 3600.0,
            BucketWindow::Day => 86_400.0,
        }
    }

    /// `minute`, `hour` or `day`.
    pub fn as_str(self) -> &'static str {
        match self {
            BucketWindow::Minute => "minute",
            BucketWindow::Hour => "hour",
            BucketWindow::Day => "day",
        }
    }
}

/// A stored attribute.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Property {
    /// JSON property name.
    pub name: String,
    /// Value type.
    #[serde(rename = "type")]
    pub ty: AttributeType,
    /// May be absent.
    pub optional: bool,
    /// A list of values.
    pub many: bool,
    /// Unique within a logical partition (a unique key candidate).
    pub unique: bool,
    /// Never leaves its own document: no copy, snapshot or extended reference holds it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sensitive: bool,
    /// What it holds, from the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// What a document written without it reads as, from the model (a required single
    /// value added after documents were written).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Box<serde_json::Value>>,
}

/// What an embedded object is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum EmbeddedKind {
    /// A value object of the aggregate (MR4).
    ValueObject,
    /// A snapshot of never-changing reference data (optimisation).
    ReferenceData,
    /// The newest N of a parent's children, each also its own document (`subset`).
    Subset,
}

/// An object (or array of objects) stored inside a document.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Embedded {
    /// JSON property name.
    pub name: String,
    /// The domain element embedded.
    pub source: String,
    /// Value object or reference data snapshot.
    pub kind: EmbeddedKind,
    /// An array rather than a single object.
    pub many: bool,
    /// Upper bound of the array, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
    /// Its attributes.
    pub attributes: Vec<Property>,
    /// Objects embedded inside it.
    pub embedded: Vec<Embedded>,
    /// References held inside it.
    pub references: Vec<Reference>,
    /// For a subset (`subset`): which documents it copies and how it stays current.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subset: Option<Box<SubsetOf>>,
    /// What the embedded element is, from the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// What a subset holds: the newest `newest` of a parent's children by `sort`, each
/// child also its own document (`subset`), so the read of them is a point read of
/// the parent.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SubsetOf {
    /// The children's container and document type.
    pub container: String,
    /// The children's document type.
    pub document_type: String,
    /// How many it keeps.
    pub newest: u64,
    /// The order that makes them the newest: the served pattern's sort keys
    /// (`-postedAt`: descending).
    pub sort: Vec<String>,
    /// The access pattern it serves (only that pattern reads it).
    pub serves: String,
    /// How it is kept: with each child's write in the same transactional batch, or
    /// from the children's change feed (operation `resubset`).
    pub kept: Keeping,
}

/// Where a reference's partition key value comes from: what a reference holds to
/// point-read its target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum PartitionKeyValue {
    /// Equal to the target's id (its container is partitioned by its identity).
    SameAsId,
    /// A constant: the target's `type` value in a dictionary container.
    Constant {
        /// The value.
        value: String,
    },
    /// The target's own value of `property`: its container is partitioned by an
    /// attribute or a reference of its root (the `partitionKey` optimisation).
    Property {
        /// The target's top-level property (its container's partition key property).
        property: String,
    },
    /// The target's own values of `properties`, stored as an array (`["t1", "o1"]`):
    /// its container has a hierarchical key on them.
    Levels {
        /// The target's top-level properties, first level first.
        properties: Vec<String>,
    },
}

/// A reference to another aggregate's root (MR6): `{ "id": …, "partitionKey": … }`,
/// enough for a point read.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Reference {
    /// JSON property name.
    pub name: String,
    /// The referenced root entity.
    pub target: String,
    /// The container the target lives in.
    pub target_container: String,
    /// The target's identity attribute, for example `accountId`.
    pub target_identity: String,
    /// An array of references rather than one.
    pub many: bool,
    /// Where the partition key value for a point read comes from.
    pub partition_key_value: PartitionKeyValue,
    /// May be absent (an optional `one` relationship: a tree's root has no parent).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// The target's attributes stored beside `id` and `partitionKey`
    /// (`extendedReference`): only those the access patterns read through it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extended: Option<Box<ExtendedReference>>,
    /// For a tree's ancestors list (`treeAncestors`): the parent link it follows up,
    /// root first. The list's entries are extended references (`extended`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ancestry: Option<Ancestry>,
}

/// A list of every ancestor up a tree's parent link, root first, stored on each
/// element (`treeAncestors`), so "the path to the root" is read with the element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ancestry {
    /// The parent reference the ancestors are found through (`parent`).
    pub parent: String,
    /// The most ancestors an element has (the model's `depth.max`): the list's bound.
    pub max: u64,
}

/// A count kept on a document (`computedValue`): how many `counts` documents belong
/// to it, kept current by the writes that create and delete them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ComputedValue {
    /// The integer property, e.g. `commentCount`.
    pub name: String,
    /// The element counted.
    pub counts: String,
    /// Where the counted documents live: their container and document type.
    pub container: String,
    /// The counted document type.
    pub document_type: String,
    /// How it is kept: in the same transactional batch as the child's write (same
    /// logical partition), or from the children's change feed by a recount.
    pub kept: Keeping,
}

/// How a computed value or a subset stays current.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Keeping {
    /// The write that creates or deletes a child also rewrites the parent, in one
    /// transactional batch (they share a logical partition).
    Batch,
    /// The children's change feed recounts them and rewrites the parent.
    ChangeFeed {
        /// The sync plan (operation `recount`).
        sync: SyncPlan,
    },
}

/// The attributes an extended reference copies from its target, and how they stay
/// current (`extendedReference`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtendedReference {
    /// The copied attributes, in the target's declaration order; never a sensitive one.
    pub attributes: Vec<Property>,
    /// How a change of the target reaches every document that refers to it (from the
    /// target container's change feed); `None` for reference data that never changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sync: Option<SyncPlan>,
}

/// What a copy copies and how it stays in sync.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CopyOf {
    /// The source container.
    pub container: String,
    /// The source document type.
    pub document_type: String,
    /// The property path of the source document that gives the copy's partition
    /// key value (`account.id`: the `id` of its `account` reference).
    pub partition_key_from: PropertyPath,
    /// How the copy is kept in sync with its source.
    pub sync: SyncPlan,
    /// The access pattern the copy serves.
    pub serves: String,
    /// For a feed (`feed`): the copy keeps only the newest this many of its source's
    /// documents by the served pattern's sort (the sync trims the rest), so only that
    /// pattern may read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub newest: Option<u64>,
}

/// What a uniqueness claim claims: a `unique` attribute of a document type whose
/// container cannot enforce it with a unique key. The claim document's `id` is its
/// `type`, its partition key (`claim`) the claimed value, so a second claim of the
/// value is a conflict (409); `ownerId` and `ownerPartitionKey` locate the owner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimOf {
    /// The owner's container.
    pub container: String,
    /// The owner's document type.
    pub document_type: String,
    /// The claimed attribute (top-level in the owner's documents).
    pub attribute: String,
}

/// The containment relationship of a document type that is not its aggregate's root.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Containment {
    /// The element that holds it (the root, or a member entity).
    pub holder: String,
    /// The relationship's property name in the holder.
    pub property: String,
    /// How many per holder.
    pub cardinality: Cardinality,
    /// The declared upper bound, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
}

impl Containment {
    /// The containment `rel` describes.
    pub fn of(rel: &cosmap_domain::Relationship) -> Self {
        Containment {
            holder: rel.from.clone(),
            property: rel.property_name(),
            cardinality: rel.cardinality,
            max: rel.max,
        }
    }
}

/// A separated value object's link to the non-root entity that holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ParentLink {
    /// The parent entity.
    pub entity: String,
    /// The property holding the parent's identity.
    pub property: String,
}

impl LogicalModel {
    /// The container called `name`.
    pub fn container(&self, name: &str) -> Option<&Container> {
        self.containers.iter().find(|c| c.name == name)
    }

    /// The operation that serves the access pattern called `pattern`.
    pub fn operation(&self, pattern: &str) -> Option<&crate::operations::Operation> {
        self.operations.iter().find(|o| o.pattern == pattern)
    }

    /// The first decision `rule` made about `subject`.
    pub fn decision(&self, rule: Rule, subject: &str) -> Option<&Decision> {
        self.decisions.iter().find(|d| d.rule == rule && d.subject == subject)
    }
}

impl Keeping {
    /// `batch` or `changeFeed`, as decisions name it.
    pub fn as_str(&self) -> &'static str {
        match self {
            Keeping::Batch => "batch",
            Keeping::ChangeFeed { .. } => "changeFeed",
        }
    }
}

impl Property {
    /// A copy of the model's attribute `a` kept outside its own document (a snapshot,
    /// an extended reference): never unique there.
    pub fn copy_of(a: &cosmap_domain::Attribute) -> Self {
        Property {
            name: a.name.clone(),
            ty: a.ty,
            optional: a.optional,
            many: a.many,
            unique: false,
            sensitive: a.sensitive,
            description: a.description.clone(),
            default: a.default.clone().map(Box::new),
        }
    }

    /// A required text property: a copied document's identity held under its own name
    /// (`countryId`), a claim's owner id.
    pub fn text(name: &str) -> Self {
        Property {
            name: name.to_string(),
            ty: AttributeType::String,
            optional: false,
            many: false,
            unique: false,
            sensitive: false,
            description: None,
            default: None,
        }
    }
}

impl DocumentType {
    /// Every partition key property it carries, first level first.
    pub fn partition_key_properties(&self) -> Vec<&str> {
        key_levels(&self.partition_key_property, &self.sub_partition_key_properties)
    }

    /// Lets go of the spare room its lists and names were built with (a list pushed
    /// one at a time holds room for four): every design the map weighs shares it.
    pub(crate) fn compact(&mut self) {
        self.discriminator.shrink_to_fit();
        self.attributes.shrink_to_fit();
        self.references.shrink_to_fit();
        self.computed.shrink_to_fit();
        compact_embedded(&mut self.embedded);
    }
}

/// `embedded` and what each holds, without spare room (see [`DocumentType::compact`]).
fn compact_embedded(embedded: &mut Vec<Embedded>) {
    embedded.shrink_to_fit();
    for e in embedded {
        e.attributes.shrink_to_fit();
        e.references.shrink_to_fit();
        compact_embedded(&mut e.embedded);
    }
}

fn key_levels<'a>(first: &'a str, rest: &'a [String]) -> Vec<&'a str> {
    std::iter::once(first).chain(rest.iter().map(String::as_str)).collect()
}

impl IdSource {
    /// The identity attribute `id` holds, if any (none when the application assigns it).
    pub fn attribute(&self) -> Option<&str> {
        match self {
            IdSource::Identity { attribute } => Some(attribute),
            IdSource::Assigned => None,
        }
    }
}

impl Container {
    /// Every property of its partition key, first level first (one unless hierarchical).
    pub fn partition_key_properties(&self) -> Vec<&str> {
        key_levels(&self.partition_key_property, &self.sub_partition_key_properties)
    }

    /// The document type called `name`.
    pub fn document_type(&self, name: &str) -> Option<&DocumentType> {
        self.document_types.iter().find(|d| d.name == name)
    }
}

/// The object that holds an element's own properties: a document, or an object
/// embedded in one. Readers walk either the same way.
#[derive(Debug, Clone, Copy)]
pub enum PropertyHolder<'a> {
    /// A document type.
    Document(&'a DocumentType),
    /// An embedded object.
    Embedded(&'a Embedded),
}

impl<'a> PropertyHolder<'a> {
    /// Its stored attributes.
    pub fn attributes(self) -> &'a [Property] {
        match self {
            PropertyHolder::Document(d) => &d.attributes,
            PropertyHolder::Embedded(e) => &e.attributes,
        }
    }

    /// The objects embedded in it.
    pub fn embedded(self) -> &'a [Embedded] {
        match self {
            PropertyHolder::Document(d) => &d.embedded,
            PropertyHolder::Embedded(e) => &e.embedded,
        }
    }

    /// The references it holds.
    pub fn references(self) -> &'a [Reference] {
        match self {
            PropertyHolder::Document(d) => &d.references,
            PropertyHolder::Embedded(e) => &e.references,
        }
    }
}
