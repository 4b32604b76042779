//! The data `cosmap_data.rs.hbs` renders: generated data access on the Azure SDK
//! (`azure_data_cosmos`). Built from the logical model and the Rust view, so every
//! type it names is one `cosmap.rs` defines; what it cannot generate soundly is
//! listed with the reason instead of being generated half-right.

use std::collections::BTreeSet;

mod aggregate_write;
mod claims;
mod follow;
mod parts;
mod read;
mod repository;
mod rust_names;
mod workers;
mod write;

use claims::{change_feed_sources, claim_set_of, claim_sets};
use follow::{follow, followed};
use parts::Names;
use read::pattern;
use repository::aggregate;
use workers::{kept_on_the_source, kept_worker, rewriting_worker, sql_parameters, trim_view, Rewrites};
use write::write_pattern;

use cosmap_domain::naming::{lower_camel, snake_case, upper_camel};
use cosmap_mapper::operations::{Action, Operation, OperationKind, Purpose, Request, ValueSource, WriteKind};
use cosmap_mapper::{ContainerKind, DocumentType, IdSource, LogicalModel, Role, SyncOperation};
use serde::Serialize;

use super::names;
use super::view::{scalar_type, FieldView, RustView, STRING};
use crate::options::TypeMapping;
use rust_names::{ContainerNames, DocNames, RustNames};

/// Everything `cosmap_data.rs.hbs` needs.
#[derive(Debug, Serialize)]
pub struct DataView {
    /// The model's name.
    pub model: String,
    /// The module the data access lives in (`data`, or `data_` beside a container module of that name).
    pub module: String,
    /// A typed handle on each container.
    pub containers: Vec<HandleView>,
    /// Each aggregate with its repository.
    pub aggregates: Vec<AggregateView>,
    /// Each access pattern's method, item and row types.
    pub patterns: Vec<PatternView>,
    /// The workers that keep copies and feeds current.
    pub workers: Vec<WorkerView>,
    /// The workers that keep extended references current.
    pub refresh_workers: Vec<RefreshWorkerView>,
    /// The workers that keep counts and subsets on parents current.
    pub kept_workers: Vec<KeptWorkerView>,
    /// The workers that keep trees' ancestors lists current (the same shape as a refresh).
    pub ancestors_workers: Vec<RefreshWorkerView>,
    /// The claim functions: one per document type whose unique values are claimed.
    pub claim_sets: Vec<ClaimSetView>,
    /// What is not generated, each with why: listed in the module's docs.
    pub skipped: Vec<String>,
    /// The `type` and partition key value of the workers' lease documents.
    pub lease_type: String,
    /// Which runtime helpers (`mod rt`) are generated, by flag (`Op_Delete` for
    /// `rt::Op::Delete`): those the rest of the module uses (`runtime::used`).
    pub rt: std::collections::BTreeMap<String, bool>,
}

/// A typed handle on one container.
#[derive(Debug, Serialize)]
pub struct HandleView {
    /// The container's name in the model.
    pub name: String,
    /// The module of its types in `cosmap.rs` (`order`).
    pub module: String,
    /// The handle's type, e.g. `OrderContainer`.
    pub handle: String,
    /// The `Database` field holding it, e.g. `order`.
    pub field: String,
    /// The Rust type of its partition key value (`::std::string::String`, or a tuple).
    pub key_type: String,
    /// The enum of every document type it holds (in `module`).
    pub enum_name: String,
}

/// A repository of one aggregate.
#[derive(Debug, Serialize)]
pub struct AggregateView {
    /// The root's document type (`Order`).
    pub root: String,
    /// The module of its container's types.
    pub module: String,
    /// Its container's name.
    pub container: String,
    /// Its container's handle type.
    pub handle: String,
    /// Its container's `Database` field.
    pub field: String,
    /// `OrderAggregate`, `OrderRepository`, and the `Database` method that makes it.
    pub aggregate: String,
    /// The repository's type (`OrderRepository`).
    pub repository: String,
    /// The `Database` method that makes the repository.
    pub constructor: String,
    /// The enum of its container's document types.
    pub enum_name: String,
    /// The Rust type of the root's partition key value.
    pub key_type: String,
    /// Each kind of member document, a field of the aggregate.
    pub members: Vec<MemberView>,
    /// Whether `load` takes the root's id alone: the partition key is the id, or
    /// `key_constant` (else it takes the partition key and the id).
    pub by_id: bool,
    /// The constant partition key, a Rust string literal.
    pub key_constant: Option<String>,
    /// The single-partition query that loads the aggregate, a Rust string literal
    /// (none: a point read of the root).
    pub load_sql: Option<String>,
    /// The container's partition key properties, one per level: level `N` is bound
    /// to the load query's `@keyN`.
    pub key_properties: Vec<String>,
    /// A delete sets `ttl` (the change feed must see it), rather than deleting.
    pub soft_delete: bool,
    /// The claim function of the root's unique values, if it has any.
    pub claim_set: Option<String>,
    /// Whether the root or a member has unique values kept by claims: a save claims
    /// them before its batch and releases the old ones after it.
    pub claims: bool,
    /// Whether a member has unique values kept by claims (a member removed releases them).
    pub member_claims: bool,
    /// The values the root keeps of its own members (counts, subsets), which a save
    /// recomputes from the members it holds and writes in its batch.
    pub derived: Vec<DerivedView>,
    /// The root's values kept by change-feed workers: a save writes them as loaded.
    pub kept_by_workers: Vec<String>,
    /// The counts and subsets members keep of their own children (a thread's number
    /// of reactions), which a save recomputes from the children naming each.
    pub member_derived: Vec<MemberDerivedView>,
    /// Whether a save recomputes anything (`derived` or `member_derived`).
    pub recomputes: bool,
    /// Why `load` reads the root alone (its members do not name their root, under a
    /// key other aggregates share), in the repository's docs; `None` when it finds them.
    pub unnamed: Option<String>,
}

/// A count or a subset each document of one kind of member keeps of its own
/// children in the aggregate, recomputed by each save.
#[derive(Debug, Serialize)]
pub struct MemberDerivedView {
    /// The aggregate's field of the members that keep it, and their JSON property.
    pub holder: String,
    /// The holders' JSON property kept.
    pub property: String,
    /// The aggregate's field of the children, and their property naming their holder's id.
    pub member: String,
    /// The children's property naming their holder's id.
    pub link: String,
    /// For a subset: which of them it keeps, and as what.
    pub subset: Option<SubsetItemsView>,
}

/// A count or a subset the root keeps of its members, recomputed by each save.
#[derive(Debug, Serialize)]
pub struct DerivedView {
    /// The root's JSON property.
    pub property: String,
    /// The members counted or kept (the aggregate's field of them).
    pub member: String,
    /// For a subset: which of them it keeps, and as what.
    pub subset: Option<SubsetItemsView>,
}

/// How a subset's items are made from the members: the newest `newest` by `sort`,
/// each the member's id (as `identity`) and its `kept` properties.
#[derive(Debug, Serialize)]
pub struct SubsetItemsView {
    /// The item's property holding the child's id.
    pub identity: String,
    /// The child's other properties each item keeps.
    pub kept: Vec<String>,
    /// The order of the items, newest first.
    pub sort: Vec<SortKeyView>,
    /// How many items it keeps.
    pub newest: u64,
}

/// One sort key of a subset: a property, descending or not.
#[derive(Debug, Serialize)]
pub struct SortKeyView {
    /// The property sorted on.
    pub name: String,
    /// Whether descending.
    pub descending: bool,
}

/// The unique values of one document type that claims enforce, and the private
/// function that claims and releases them.
#[derive(Debug, Serialize)]
pub struct ClaimSetView {
    /// The function's name (`claim_account_account`).
    pub function: String,
    /// The document type whose values it claims.
    pub owner: String,
    /// The owner's document path.
    pub owner_path: String,
    /// The owner's partition key paths, one per level: a claim's `ownerPartitionKey` is
    /// the owner's key (a list of its levels when there are several).
    pub owner_key_paths: Vec<String>,
    /// Each unique attribute it claims.
    pub claims: Vec<ClaimView>,
}

/// One kind of member document of an aggregate, kept in the root's partition.
#[derive(Debug, Serialize)]
pub struct MemberView {
    /// The aggregate struct's field (`payments`).
    pub ident: String,
    /// The member's document type path (`super::order::Payment`).
    pub document: String,
    /// Its `type` value, which `load` sorts the documents by.
    pub discriminator: String,
    /// The claim function of the member's unique values, if it has any.
    pub claim_set: Option<String>,
}

/// A unique attribute of an aggregate's root that a claim document enforces.
#[derive(Debug, Serialize)]
pub struct ClaimView {
    /// The attribute's JSON name.
    pub attribute: String,
    /// The claims container's `Database` field and the claim's document path.
    pub field: String,
    /// The claim document type's path.
    pub document: String,
}

impl ReturnsView {
    /// `ty`, or a `Vec` of it (`many`), or an `Option` of it (`optional`).
    fn new(ty: &str, many: bool, optional: bool) -> Self {
        let ty = ty.to_string();
        ReturnsView { ty, many, optional }
    }
}

/// One access pattern as a method of `Database`.
#[derive(Debug, Default, Serialize)]
pub struct PatternView {
    /// The method's name.
    pub ident: String,
    /// The access pattern's name in the model.
    pub name: String,
    /// How often it runs, as a rate for its docs.
    pub per_second: String,
    /// Doc lines: what the requests do, the SQL, and any advice.
    pub docs: Vec<String>,
    /// The method's parameters (a write's documents are not among them).
    pub params: Vec<ParamView>,
    /// The container's `Database` field and handle type.
    pub field: String,
    /// Its container's handle type.
    pub handle: String,
    /// What the method returns.
    pub returns: ReturnsView,
    /// One of these is set: the kind of body.
    pub point_read: Option<Box<PointReadView>>,
    /// A query.
    pub query: Option<Box<QueryView>>,
    /// A write of one document.
    pub write: Option<Box<WriteView>>,
    /// A row type for a query that selects a short form (`project`).
    pub row: Option<Box<RowView>>,
    /// An item type for a read that follows references per result.
    pub item: Option<Box<ItemView>>,
    /// An append to a bucket (`bucket`).
    pub append: Option<Box<AppendView>>,
    /// A query that finds at most one document (by a `unique` value, or `TOP 1`):
    /// it returns an `Option` of it.
    pub at_most_one: bool,
    /// A write of several documents of one aggregate (an order and its tickets).
    pub aggregate_write: Option<Box<AggregateWriteView>>,
    /// For a query that may return many documents: the type of its items, which its
    /// `…_page` method returns a page of at a time, with the SDK's continuation token.
    pub page: Option<String>,
}

/// The body of an aggregate's write: the documents it is given, and each request it
/// sends in the plan's order.
#[derive(Debug, Serialize)]
pub struct AggregateWriteView {
    /// One parameter per element written (the first's key names the first batch's partition).
    pub params: Vec<WrittenParamView>,
    /// Each request it sends, in the plan's order.
    pub steps: Vec<StepView>,
    /// Whether it claims or releases values.
    pub claims: bool,
}

/// A parameter of an aggregate's write: the documents of one element it writes.
#[derive(Debug, Serialize)]
pub struct WrittenParamView {
    /// The parameter (`order`, or `tickets` when the start holds several).
    pub ident: String,
    /// Their document type's path (`super::order::Ticket`).
    pub document: String,
    /// A slice of them, else one.
    pub several: bool,
    /// Taken mutably (a create or a replace sets their etags), else shared (a delete).
    pub mutable: bool,
}

/// The documents of a parameter a step goes over, and how it takes them: `replace`
/// mutably (to set their etags), `create` shared, `delete` as given (shared).
#[derive(Debug, Clone, Serialize)]
pub struct DocumentsView {
    /// The parameter.
    pub ident: String,
    /// Whether it is a slice.
    pub several: bool,
    /// How: `create`, `replace` or `delete`.
    pub taken: &'static str,
}

/// One request an aggregate's write sends.
#[derive(Debug, Serialize)]
pub struct StepView {
    /// Its comment (`1. create TicketCodeClaim in `UniqueClaims`: …`).
    pub line: String,
    /// The documents it is sent for.
    pub documents: DocumentsView,
    /// The claim function of a claim, or of a release.
    pub claim: Option<String>,
    /// The claim function of a release.
    pub release: Option<String>,
    /// A write of the documents in the batch being made.
    pub write: Option<StepWriteView>,
}

/// Each document's operation in the batch (`create`, `replace` at its etag, `delete`),
/// and the batch sent after the last write into it.
#[derive(Debug, Serialize)]
pub struct StepWriteView {
    /// The write: `create`, `replace` or `delete`.
    pub kind: &'static str,
    /// Whether each operation takes the document's JSON (all but a delete).
    pub body: bool,
    /// After the last write into a batch: the batch sent.
    pub send: Option<SendView>,
}

/// A transactional batch sent: in the partition of parameter `first`'s key, in the
/// container whose `Database` field and handle are `field` and `handle`.
#[derive(Debug, Serialize)]
pub struct SendView {
    /// Its comment.
    pub line: String,
    /// The parameter whose partition key names the batch's partition.
    pub first: String,
    /// Its container's `Database` field.
    pub field: String,
    /// Its container's handle type.
    pub handle: String,
    /// The element whose partition it writes (`Order`), for errors.
    pub aggregate: String,
    /// The documents that take its etags, in its order.
    pub etags: Vec<DocumentsView>,
    /// Whether claims are made (a failed batch releases them).
    pub claims: bool,
    /// The claim documents' types whose claims are kept once it is written.
    pub keep: Vec<String>,
}

/// An append of an item to the bucket of its window.
#[derive(Debug, Serialize)]
pub struct AppendView {
    /// The bucket's and the item's types.
    pub bucket: String,
    /// The item's type.
    pub item: String,
    /// The buckets' list property, and the item's date-time property.
    pub items: String,
    /// The item's date-time property, whose window names the bucket.
    pub time: String,
    /// The parameter holding the parent's key.
    pub key: String,
}

/// The items of a read that follows references: each result with what it refers to.
#[derive(Debug, Serialize)]
pub struct ItemView {
    /// The item struct's name.
    pub name: String,
    /// The field holding the result read first, and its type.
    pub main_ident: String,
    /// The type of the result read first.
    pub main_type: String,
    /// What is read for each result, a field of the item each.
    pub follows: Vec<FollowView>,
    /// The documents read once beside the results (`ScanUnreferenced`): the method
    /// returns them with the items, in a struct named `answer`.
    pub scans: Vec<ScanView>,
    /// The answer struct's name (when there are scans).
    pub answer: String,
}

/// One query, sent once, for every document of a type nothing in the results refers
/// to (`Purpose::ScanUnreferenced`): the application matches them itself.
#[derive(Debug, Serialize)]
pub struct ScanView {
    /// The answer's field holding them (`products`), and their type.
    pub ident: String,
    /// Their document type's path.
    pub document: String,
    /// The element they are, in the model.
    pub target: String,
    /// The `Database` field of their container, and the SQL (a Rust string literal).
    pub field: String,
    /// The query, a Rust string literal.
    pub sql: String,
}

/// A point read per result, through the reference at `id` (and `key`).
#[derive(Debug, Default, Serialize)]
pub struct FollowView {
    /// The item's field holding what it reads.
    pub ident: String,
    /// The element it reads, in the model.
    pub target: String,
    /// The document type's path it reads (empty for a count).
    pub document: String,
    /// The `Database` field of its container.
    pub field: String,
    /// For a point read: where its partition key is in the result, and the path of
    /// its id (`["author", "id"]`).
    pub key: Option<ResultKeyView>,
    /// The path in the result of the id it reads (empty but for a point read).
    pub id: Vec<String>,
    /// For the documents that refer to the result: a query instead of point reads.
    pub query: Option<FindView>,
    /// For a count of the result's children: a count query (the field is a number).
    pub count: Option<CountQueryView>,
    /// For a climb up a self-reference (`FollowAncestors`): the reference's name; the
    /// point read repeats level after level.
    pub climb: Option<String>,
    /// For the targets of a list of references read in one query (`ReadListed`).
    pub listed: Option<ListedView>,
    /// The result's properties it reads (`author`, `id`): a short form must select them.
    #[serde(skip)]
    /// The result's properties it reads (`author`, `id`): a short form must select them.
    pub paths: Vec<String>,
}

/// Where a request sent per result finds its partition key: a path of the result's
/// properties, or a constant.
#[derive(Debug, Serialize)]
pub struct ResultKeyView {
    /// The path (`["author", "id"]`), empty for a constant.
    pub path: Vec<String>,
    /// Else the constant, a Rust string literal.
    pub constant: Option<String>,
}

/// One query for the targets the results' lists of references name (`Purpose::ReadListed`).
#[derive(Debug, Serialize)]
pub struct ListedView {
    /// The SQL, a Rust string literal.
    pub sql: String,
    /// `@partsIds`: the parameter bound to the list's ids.
    pub parameter: String,
    /// The list's property (`parts`).
    pub list: String,
    /// The one partition the list's keys name, a Rust string literal (none: across partitions).
    pub constant: Option<String>,
}

/// A count query per result (`Purpose::Count`): every parameter bound to the result's
/// id, in the partition `key` names (an `rt::Key` expression), or across partitions.
#[derive(Debug, Serialize)]
pub struct CountQueryView {
    /// The SQL, a Rust string literal, and its parameters' names (with `@`).
    pub sql: String,
    /// Its parameters' names (with `@`), each bound to the result's id.
    pub parameters: Vec<String>,
    /// Where the partition is in the result (none: across partitions).
    pub key: Option<ResultKeyView>,
}

/// A query for the documents that refer to a result.
#[derive(Debug, Serialize)]
pub struct FindView {
    /// The SQL, a Rust string literal.
    pub sql: String,
    /// Its parameters' names (`@supplierId`): each bound to the result's id.
    pub parameters: Vec<String>,
    /// In the partition the result's id names (else across partitions).
    pub single: bool,
}

/// A parameter of a pattern's method, and the SQL parameter it is bound to.
#[derive(Debug, Clone, Serialize)]
pub struct ParamView {
    /// The parameter's identifier.
    pub ident: String,
    /// Its Rust type as the method takes it (`&str`, `&[&str]`, `i64`, `&Timestamp`).
    pub ty: String,
    /// The SQL parameter's name, with `@`.
    pub sql_name: String,
    /// The types module whose `codec::Canonical` writes the value's canonical form,
    /// which is bound (a type with a codec); none: the value is bound as it is.
    pub canonical: Option<String>,
    /// Whether it is a list (each item written in its canonical form).
    pub list: bool,
}

/// A text value a method has: one of its parameters, or a constant.
#[derive(Debug, Serialize)]
pub struct ValueView {
    /// The parameter's identifier (a `&str`), or none.
    pub param: Option<String>,
    /// Else the constant, a Rust string literal.
    pub constant: Option<String>,
}

/// A partition key value made of a method's text values: one per level of the key,
/// each an owned `String`; a tuple of them when there are several.
#[derive(Debug, Serialize)]
pub struct KeyView {
    /// Its value at each level.
    pub levels: Vec<ValueView>,
    /// Whether it gives more than one level (a tuple).
    pub tuple: bool,
}

/// What a pattern's method returns (inside `Result<…, Error>`).
#[derive(Debug, Default, Serialize)]
pub struct ReturnsView {
    /// The type returned: or of each item (`many`), or of the one found (`optional`).
    pub ty: String,
    /// A `Vec` of them.
    pub many: bool,
    /// An `Option` of it.
    pub optional: bool,
}

/// A point read by the method's values.
#[derive(Debug, Serialize)]
pub struct PointReadView {
    /// The document's partition key and id (none for a read by a claimed value).
    pub key: Option<KeyView>,
    /// The document's id.
    pub id: Option<ValueView>,
    /// The document type's path (`super::order::Order`).
    pub document: String,
    /// The field of the document returned instead of it (a subset).
    pub subset: Option<String>,
    /// A read by a claimed value: the claim read first names the document.
    pub claim: Option<ClaimLookupView>,
}

/// The point read of a claim that names the document a read by a `unique` value
/// returns (`Purpose::ReadClaim`): its container's `Database` field, its key (the
/// value) and its id.
#[derive(Debug, Serialize)]
pub struct ClaimLookupView {
    /// The claims container's `Database` field.
    pub field: String,
    /// The claim's partition key: the value read by.
    pub key: KeyView,
    /// The claim's id.
    pub id: ValueView,
}

/// A query by the method's parameters.
#[derive(Debug, Serialize)]
pub struct QueryView {
    /// The SQL, a Rust string literal.
    pub sql: String,
    /// The partition it runs in (none: across partitions).
    pub key: Option<KeyView>,
    /// The type of its items (empty for a short form: the row's).
    pub item: String,
    /// A read of buckets: the items in range are what it returns.
    pub buckets: Option<BucketsView>,
}

/// How a read of buckets takes its items: those of `items` whose `time` is within
/// every bound, in time order, at most `limit`.
#[derive(Debug, Serialize)]
pub struct BucketsView {
    /// The bounds on the items' time.
    pub bounds: Vec<BoundView>,
    /// The buckets' list property.
    pub items: String,
    /// The items' date-time property.
    pub time: String,
    /// Whether the newest come first.
    pub newest_first: bool,
    /// How many at most (none: every one).
    pub limit: Option<u64>,
}

/// One bound of a bucket read: the parameter whose value bounds the items' time, and
/// the comparison (`>=`).
#[derive(Debug, Serialize)]
pub struct BoundView {
    /// The parameter bounding the items' time.
    pub param: ParamView,
    /// The comparison (`>=`, `<`).
    pub op: String,
}

#[derive(Debug, Serialize)]
pub struct WriteView {
    /// A tree's ancestors list, made from the new parent's before the write.
    pub ancestors: Option<AncestorsView>,
    /// Counts and subsets on a parent in the write's partition, rewritten in its batch.
    pub counts: Vec<CountView>,
    /// The written document's identity attribute (a write names its values by it).
    pub identity: String,
    /// The written document type's path.
    pub document: String,
    /// The claim function of the document's unique values, if it has any.
    pub claim_set: Option<String>,
    /// A create.
    pub create: bool,
    /// A replace.
    pub replace: bool,
    /// A delete.
    pub delete: bool,
    /// A delete that sets `ttl` (the change feed must see it).
    pub soft_delete: bool,
    /// Whether the write reads the document's JSON (all but a plain hard delete).
    pub needs_body: bool,
}

/// How a written tree element's ancestors list is made: its `reference` (the parent
/// link) read, whose `list` and itself (with the `attributes` copied) become its own.
#[derive(Debug, Serialize)]
pub struct AncestorsView {
    /// The reference to the parent.
    pub reference: String,
    /// The ancestors list's property.
    pub list: String,
    /// The attributes of each ancestor it copies.
    pub attributes: Vec<String>,
}

/// A count or a subset kept on the parent of a written child, in the child's partition.
#[derive(Debug, Serialize)]
pub struct CountView {
    /// The written document's values that name the parent's partition key and id.
    pub key: String,
    /// The written document's value that names the parent's id.
    pub id: String,
    /// The parent's property kept.
    pub property: String,
    /// A count: how much it changes by (`1`, `-1`).
    pub delta: i64,
    /// Else a subset: the new child put in its place among the parent's items.
    pub subset: Option<SubsetItemsView>,
}

/// The items of a short-form query: the selected properties, typed as in the document.
#[derive(Debug, Serialize)]
pub struct RowView {
    /// The row struct's name.
    pub name: String,
    /// The selected properties, typed as in the document.
    pub fields: Vec<FieldView<'static>>,
    /// The path of the document's `kind` enum (its `type`).
    pub kind: String,
}

/// A change-feed worker that keeps copies current.
#[derive(Debug, Serialize)]
pub struct WorkerView {
    #[serde(flatten)]
    /// What every worker has.
    pub feed: FeedWorker,
    /// The path of the document type it copies.
    pub source_document: String,
    /// The path of the copy's document type.
    pub target_document: String,
    /// A feed: after each upsert, the documents of its partition beyond the newest are deleted.
    pub trim: Option<TrimView>,
}

/// What every change-feed worker has: its names, its lease, the container whose feed
/// it reads (and the `type` of the changes it applies) and the one it writes.
#[derive(Debug, Serialize)]
pub struct FeedWorker {
    /// The worker's type.
    pub name: String,
    /// The `Database` method that makes it.
    pub constructor: String,
    /// Its lease document's id.
    pub lease_id: String,
    /// The `Database` field of the container whose change feed it reads.
    pub source_field: String,
    /// That container's name.
    pub source_container: String,
    /// The `type` of the changes it applies.
    pub discriminator: String,
    /// The `Database` field of the container it writes.
    pub target_field: String,
    /// That container's name.
    pub target_container: String,
    /// The lease document's partition key properties (each gets the lease type as its value).
    pub lease_keys: Vec<String>,
}

/// A change-feed worker that keeps a count or a subset on its children's parent.
#[derive(Debug, Serialize)]
pub struct KeptWorkerView {
    /// Reads the children's container, writes the parents'.
    #[serde(flatten)]
    /// What every worker has.
    pub feed: FeedWorker,
    /// The parents' type, and the property kept.
    pub holder: String,
    /// The parents' property it keeps.
    pub property: String,
    /// The children's reference to their parent.
    pub reference: String,
    /// The query that finds a parent's children (every parameter, named with `@`,
    /// bound to its id).
    pub sql: String,
    /// The query's parameters' names (with `@`), each bound to the parent's id.
    pub parameters: Vec<String>,
    /// Whether the query runs in the partition the parent's id names.
    pub single: bool,
    /// A count (else a subset: items of `identity` (the child's id) and the `kept` properties).
    pub count: bool,
    /// For a subset: the item's property holding the child's id.
    pub identity: String,
    /// For a subset: the child's other properties each item keeps.
    pub kept: Vec<String>,
}

/// How a feed keeps only its newest documents.
#[derive(Debug, Serialize)]
pub struct TrimView {
    /// How many documents a partition keeps.
    pub newest: u64,
    /// The feed's documents of one partition (`@key`), newest first.
    pub sql: String,
}

/// A change-feed worker that rewrites the attributes extended references copy.
#[derive(Debug, Serialize)]
pub struct RefreshWorkerView {
    #[serde(flatten)]
    /// What every worker has.
    pub feed: FeedWorker,
    /// The document type holding the reference.
    pub holder: String,
    /// The reference whose copied attributes it rewrites.
    pub reference: String,
    /// The query that finds the holders, its parameters (named with `@`, each bound
    /// to the changed document's id) and whether it runs in the partition that id names.
    pub sql: String,
    /// The query's parameters' names (with `@`), each bound to the changed document's id.
    pub parameters: Vec<String>,
    /// Whether the query runs in the partition that id names.
    pub single: bool,
    /// The attributes copied (`username`).
    pub attributes: Vec<String>,
    /// The holders' partition key properties (`postId`).
    pub keys: Vec<String>,
}

/// Builds the data access view of `model`, whose Rust types are `rust`: of that
/// view, only the names it reads are kept ([`RustNames`]), the rest dropped first.
pub fn build(model: &LogicalModel, rust: RustView<'_>, mapping: &TypeMapping) -> DataView {
    let rust = &RustNames::from(rust);
    let module = names::unclaimed("data".to_string(), |n| {
        rust.containers.iter().any(|c| c.module == n) || rust.types_module == n
    });
    let mut names = Names {
        types: ["Error", "Database", "MAX_BATCH_OPERATIONS", "LEASE_TYPE", "Written"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        methods: BTreeSet::new(),
        skipped: Vec::new(),
    };
    let containers: Vec<HandleView> = rust
        .containers
        .iter()
        .map(|c| HandleView {
            name: c.name.to_string(),
            module: c.module.clone(),
            handle: names.unique(format!("{}Container", upper_camel_of_snake(&c.module))),
            field: c.module.clone(),
            key_type: c.key_type.clone(),
            enum_name: c.enum_name.clone(),
        })
        .collect();
    names.methods = containers.iter().map(|c| c.field.clone()).collect();
    names.methods.insert("open".into());
    let sources = change_feed_sources(model);
    let claim_sets = claim_sets(model, rust, &containers);
    let cx = Context {
        model,
        rust,
        mapping,
        handles: &containers,
        sources: &sources,
        claim_sets: &claim_sets,
    };
    let aggregates = names.aggregates(&cx);
    let patterns = names.patterns(&cx);
    let workers = names.copy_workers(model, &containers);
    let refresh_workers = names.refresh_workers(model, &containers);
    let (ancestors_workers, kept_workers) = names.ancestors_and_kept_workers(model, &containers);
    // Only the claim functions a repository or a write calls are generated.
    let mut claim_sets = claim_sets;
    claim_sets.retain(|s| {
        let called = |f: &Option<String>| f.as_deref() == Some(s.function.as_str());
        aggregates
            .iter()
            .any(|a| called(&a.claim_set) || a.members.iter().any(|m| called(&m.claim_set)))
            || patterns
                .iter()
                .any(|p| p.write.as_ref().is_some_and(|w| called(&w.claim_set)))
    });
    let lease_type = names::unclaimed("cosmapLease".to_string(), |n| {
        model
            .containers
            .iter()
            .flat_map(|c| &c.document_types)
            .any(|d| d.discriminator == n)
    });
    DataView {
        model: model.model.clone(),
        module,
        containers,
        aggregates,
        patterns,
        workers,
        refresh_workers,
        kept_workers,
        ancestors_workers,
        claim_sets,
        skipped: names.skipped,
        lease_type,
        rt: std::collections::BTreeMap::new(),
    }
}

/// The first doc line of pattern `op`'s method: its name, rate and what it does.
fn headline(op: &Operation, purpose: &dyn std::fmt::Display) -> String {
    format!(
        "`{}` ({}): {purpose}.",
        op.pattern,
        cosmap_mapper::human_rate(op.per_second)
    )
}

/// The Rust view of document type `name` in container `cv`.
fn doc_view<'v, 'a>(cv: &'v ContainerNames<'a>, name: &str) -> Result<&'v DocNames<'a>, String> {
    cv.documents
        .iter()
        .find(|d| d.name == name)
        .ok_or_else(|| format!("no Rust type for `{name}`"))
}

/// The field of document `dv` whose JSON name is `property`.
fn field_of<'v, 'a>(dv: &'v DocNames<'a>, property: &str) -> Result<&'v FieldView<'a>, String> {
    dv.fields
        .iter()
        .find(|f| f.json_name == property)
        .ok_or_else(|| format!("`{}` has no `{property}`", dv.name))
}

/// The handle of container `name`.
fn handle_of<'h>(handles: &'h [HandleView], name: &str) -> Result<&'h HandleView, String> {
    handles
        .iter()
        .find(|h| h.name == name)
        .ok_or_else(|| "its container has no handle".to_string())
}

/// The Rust view of container `name`: its module and document types.
fn module_of<'v, 'a>(rust: &'v RustNames<'a>, name: &str) -> Result<&'v ContainerNames<'a>, String> {
    rust.containers
        .iter()
        .find(|c| c.name == name)
        .ok_or_else(|| "its container has no Rust module".to_string())
}

/// The subset `e`: how its items are made from the children (none: not a subset).
fn subset_view(e: &cosmap_mapper::Embedded) -> Option<SubsetItemsView> {
    let of = e.subset.as_ref()?;
    let (identity, kept) = subset_items(e);
    let sort = of.sort.iter().map(|k| SortKeyView {
        name: k.trim_start_matches('-').to_string(),
        descending: k.starts_with('-'),
    });
    let (sort, newest) = (sort.collect(), of.newest);
    Some(SubsetItemsView {
        identity,
        kept,
        sort,
        newest,
    })
}

/// How a subset's items are made from a child: its id (named as the subset's first
/// attribute, `identity`) and the rest of what the subset `e` keeps.
fn subset_items(e: &cosmap_mapper::Embedded) -> (String, Vec<String>) {
    let mut names = e.attributes.iter().map(|a| a.name.clone());
    let identity = names.next().unwrap_or_else(|| "id".into());
    let kept: Vec<String> = names
        .chain(e.embedded.iter().map(|x| x.name.clone()))
        .chain(e.references.iter().map(|x| x.name.clone()))
        .collect();
    (identity, kept)
}

/// What every access pattern's view is made from.
struct Context<'a> {
    model: &'a LogicalModel,
    rust: &'a RustNames<'a>,
    mapping: &'a TypeMapping,
    handles: &'a [HandleView],
    /// The (container, `type`) pairs whose deletes set `ttl`.
    sources: &'a BTreeSet<(String, String)>,
    claim_sets: &'a [ClaimSetView],
}

/// A method name for `name` (an access pattern's or a helper's), unique among `taken`:
/// [`cosmap_domain::naming::method_ident`], the rule `cosmap check` refuses clashes by.
fn method(taken: &mut BTreeSet<String>, name: &str) -> String {
    names::claim(taken, cosmap_domain::naming::method_ident(name))
}

/// `order_status` → `OrderStatus`.
fn upper_camel_of_snake(snake: &str) -> String {
    snake.trim_start_matches("r#").split('_').map(upper_camel).collect()
}
