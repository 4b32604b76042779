//! The data `cosmap_data.rs.hbs` renders: generated data access on the Azure SDK
//! (`azure_data_cosmos`). Built from the logical model and the Rust view, so every
//! type it names is one `cosmap.rs` defines; what it cannot generate soundly is
//! listed with the reason instead of being generated half-right.

use std::collections::BTreeSet;

mod aggregate_write;

use cosmap_domain::naming::{lower_camel, snake_case};
use cosmap_mapper::operations::{Action, Operation, OperationKind, Purpose, Request, ValueSource, WriteKind};
use cosmap_mapper::{ContainerKind, DocumentType, IdSource, LogicalModel, Role, SyncOperation};
use serde::Serialize;

use super::names;
use super::view::{scalar_type, ContainerView, DocView, FieldView, RustView, STRING};
use crate::options::TypeMapping;

/// Everything `cosmap_data.rs.hbs` needs.
#[derive(Debug, Serialize)]
pub struct DataView {
    pub model: String,
    /// The module the data access lives in (`data`, or `data_` beside a container module of that name).
    pub module: String,
    pub containers: Vec<HandleView>,
    pub aggregates: Vec<AggregateView>,
    pub patterns: Vec<PatternView>,
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
    pub name: String,
    pub module: String,
    /// The handle's type, e.g. `OrderContainer`.
    pub handle: String,
    /// The `Database` field holding it, e.g. `order`.
    pub field: String,
    pub key_type: String,
    pub enum_name: String,
}

/// A repository of one aggregate.
#[derive(Debug, Serialize)]
pub struct AggregateView {
    pub root: String,
    pub module: String,
    pub container: String,
    pub handle: String,
    pub field: String,
    /// `OrderAggregate`, `OrderRepository`, and the `Database` method that makes it.
    pub aggregate: String,
    pub repository: String,
    pub constructor: String,
    pub enum_name: String,
    pub key_type: String,
    pub members: Vec<MemberView>,
    /// `load`'s parameters and the partition key expression made of them.
    pub load_params: String,
    pub load_key: String,
    /// The single-partition query that loads the aggregate (none: a point read of the root).
    pub load_sql: Option<String>,
    /// Each key level bound to the load query's `@keyN`.
    pub key_bindings: Vec<String>,
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
    pub identity: String,
    pub kept: Vec<String>,
    pub sort: Vec<SortKeyView>,
    pub newest: u64,
}

/// One sort key of a subset: a property, descending or not.
#[derive(Debug, Serialize)]
pub struct SortKeyView {
    pub name: String,
    pub descending: bool,
}

/// The unique values of one document type that claims enforce, and the private
/// function that claims and releases them.
#[derive(Debug, Serialize)]
pub struct ClaimSetView {
    pub function: String,
    pub owner: String,
    /// The owner's document path.
    pub owner_path: String,
    /// The claim's `ownerPartitionKey` made from `document` (the owner).
    pub owner_key: String,
    pub claims: Vec<ClaimView>,
}

/// One kind of member document of an aggregate, kept in the root's partition.
#[derive(Debug, Serialize)]
pub struct MemberView {
    /// The aggregate struct's field (`payments`).
    pub ident: String,
    pub document: String,
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
    pub document: String,
}

/// One access pattern as a method of `Database`.
#[derive(Debug, Serialize)]
pub struct PatternView {
    pub ident: String,
    pub name: String,
    pub per_second: String,
    /// Doc lines: what the requests do, the SQL, and any advice.
    pub docs: Vec<String>,
    pub params: Vec<ParamView>,
    /// The container's `Database` field and handle type.
    pub field: String,
    pub handle: String,
    pub returns: String,
    /// One of these is set: the kind of body.
    pub point_read: Option<PointReadView>,
    pub query: Option<QueryView>,
    pub write: Option<WriteView>,
    /// A row type for a query that selects a short form (`project`).
    pub row: Option<RowView>,
    /// An item type for a read that follows references per result.
    pub item: Option<ItemView>,
    /// An append to a bucket (`bucket`).
    pub append: Option<AppendView>,
    /// A query that finds at most one document (by a `unique` value, or `TOP 1`):
    /// it returns an `Option` of it.
    pub at_most_one: bool,
    /// A write of several documents of one aggregate (an order and its tickets).
    pub aggregate_write: Option<aggregate_write::AggregateWriteView>,
    /// For a query that may return many documents: the type of its items, which its
    /// `…_page` method returns a page of at a time, with the SDK's continuation token.
    pub page: Option<String>,
}

/// An append of an item to the bucket of its window.
#[derive(Debug, Serialize)]
pub struct AppendView {
    /// The bucket's and the item's types.
    pub bucket: String,
    pub item: String,
    /// The buckets' list property, and the item's date-time property.
    pub items: String,
    pub time: String,
    /// The parameter holding the parent's key.
    pub key: String,
}

/// The items of a read that follows references: each result with what it refers to.
#[derive(Debug, Serialize)]
pub struct ItemView {
    pub name: String,
    /// The field holding the result read first, and its type.
    pub main_ident: String,
    pub main_type: String,
    pub follows: Vec<FollowView>,
}

/// A point read per result, through the reference at `id` (and `key`).
#[derive(Debug, Serialize)]
pub struct FollowView {
    /// The item's field holding what it reads.
    pub ident: String,
    pub target: String,
    pub document: String,
    /// The `Database` field of its container.
    pub field: String,
    /// `rt::Key::Path(&[…])` or `rt::Key::Constant(…)`.
    pub key: String,
    /// `&["author", "id"]`.
    pub id: String,
    /// For the documents that refer to the result: a query instead of point reads.
    pub query: Option<FindView>,
    /// For a count of the result's children: a count query (the field is a number).
    pub count: Option<CountQueryView>,
    /// For a climb up a self-reference (`FollowAncestors`): the reference's name; the
    /// point read repeats level after level.
    pub climb: Option<String>,
    /// For the targets of a list of references read in one query (`ReadListed`).
    pub listed: Option<ListedView>,
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
    /// `Some("…")` (the one partition the list's keys name) or `None`: Rust source.
    pub key: String,
}

/// A count query per result (`Purpose::Count`): every parameter bound to the result's
/// id, in the partition `key` names (an `rt::Key` expression), or across partitions.
#[derive(Debug, Serialize)]
pub struct CountQueryView {
    pub sql: String,
    pub parameters: String,
    /// `Some(rt::Key::…)` or `None`: Rust source.
    pub key: String,
}

/// A query for the documents that refer to a result.
#[derive(Debug, Serialize)]
pub struct FindView {
    pub sql: String,
    /// `&["@supplierId"]`: each bound to the result's id.
    pub parameters: String,
    /// In the partition the result's id names (else across partitions).
    pub single: bool,
}

/// A parameter of a pattern's method.
#[derive(Debug, Serialize)]
pub struct ParamView {
    pub ident: String,
    pub ty: String,
    /// The SQL parameter's name, with `@`.
    pub sql_name: String,
    /// The expression of the value bound to the SQL parameter.
    pub bind: String,
}

#[derive(Debug, Serialize)]
pub struct PointReadView {
    pub key: String,
    pub id: String,
    pub document: String,
    /// The field of the document returned instead of it (a subset).
    pub subset: Option<String>,
    /// A read by a claimed value: the claim read first names the document.
    pub claim: Option<ClaimLookupView>,
}

/// The point read of a claim that names the document a read by a `unique` value
/// returns (`Purpose::ReadClaim`): its container's `Database` field, its key (the
/// value) and its id, Rust source.
#[derive(Debug, Serialize)]
pub struct ClaimLookupView {
    pub field: String,
    pub key: String,
    pub id: String,
}

#[derive(Debug, Serialize)]
pub struct QueryView {
    pub sql: String,
    /// `FeedScope::partition(…)` or `FeedScope::full_container()`.
    pub scope: String,
    pub item: String,
    /// A read of buckets: the items in range are what it returns.
    pub buckets: Option<BucketsView>,
}

/// How a read of buckets takes its items: those of `items` whose `time` is within
/// every bound, in time order, at most `limit`.
#[derive(Debug, Serialize)]
pub struct BucketsView {
    pub items: String,
    pub time: String,
    pub bounds: Vec<BoundView>,
    pub newest_first: bool,
    pub limit: String,
}

/// One bound of a bucket read: the parameter's value expression and the comparison.
#[derive(Debug, Serialize)]
pub struct BoundView {
    pub bind: String,
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
    pub document: String,
    /// The claim function of the document's unique values, if it has any.
    pub claim_set: Option<String>,
    pub create: bool,
    pub replace: bool,
    pub delete: bool,
    pub soft_delete: bool,
    /// Whether the write reads the document's JSON (all but a plain hard delete).
    pub needs_body: bool,
}

/// How a written tree element's ancestors list is made: its `reference` (the parent
/// link) read, whose `list` and itself (with the `attributes` copied) become its own.
#[derive(Debug, Serialize)]
pub struct AncestorsView {
    pub reference: String,
    pub list: String,
    pub attributes: String,
}

/// A count or a subset kept on the parent of a written child, in the child's partition.
#[derive(Debug, Serialize)]
pub struct CountView {
    /// The written document's values that name the parent's partition key and id.
    pub key: String,
    pub id: String,
    /// The expression of the parent's write (`rt::counted(parent, …)` or `rt::subset_with(parent, …)`).
    pub update: String,
}

/// The items of a short-form query: the selected properties, typed as in the document.
#[derive(Debug, Serialize)]
pub struct RowView {
    pub name: String,
    pub fields: Vec<FieldView<'static>>,
    pub kind: String,
}

/// A change-feed worker that keeps copies current.
#[derive(Debug, Serialize)]
pub struct WorkerView {
    #[serde(flatten)]
    pub feed: FeedWorker,
    pub source_document: String,
    pub target_document: String,
    /// A feed: after each upsert, the documents of its partition beyond the newest are deleted.
    pub trim: Option<TrimView>,
}

/// What every change-feed worker has: its names, its lease, the container whose feed
/// it reads (and the `type` of the changes it applies) and the one it writes.
#[derive(Debug, Serialize)]
pub struct FeedWorker {
    pub name: String,
    pub constructor: String,
    pub lease_id: String,
    pub source_field: String,
    pub source_container: String,
    pub discriminator: String,
    pub target_field: String,
    pub target_container: String,
    /// The lease document's partition key properties (each gets the lease type as its value).
    pub lease_keys: Vec<String>,
    pub lease_key: String,
}

impl FeedWorker {
    /// The worker reading `source`'s changes of type `discriminator` and writing into
    /// `target`, its lease `lease_id` (named later, when every name is known).
    fn new(
        handles: &[HandleView],
        source: &str,
        discriminator: &str,
        target: &cosmap_mapper::Container,
        lease_id: String,
    ) -> Result<Self, String> {
        let field = |name: &str| handles.iter().find(|h| h.name == name).map(|h| h.field.clone());
        let (Some(source_field), Some(target_field)) = (field(source), field(&target.name)) else {
            return Err("its containers have no handles".into());
        };
        let lease_keys: Vec<String> = target
            .partition_key_properties()
            .iter()
            .map(|p| p.to_string())
            .collect();
        Ok(FeedWorker {
            name: String::new(),
            constructor: String::new(),
            lease_id,
            source_field,
            source_container: source.to_string(),
            discriminator: discriminator.to_string(),
            target_field,
            target_container: target.name.clone(),
            lease_key: lease_key(lease_keys.len()),
            lease_keys,
        })
    }
}

/// A change-feed worker that keeps a count or a subset on its children's parent.
#[derive(Debug, Serialize)]
pub struct KeptWorkerView {
    /// Reads the children's container, writes the parents'.
    #[serde(flatten)]
    pub feed: FeedWorker,
    /// The parents' type, and the property kept.
    pub holder: String,
    pub property: String,
    /// The children's reference to their parent.
    pub reference: String,
    /// The query that finds a parent's children (every parameter bound to its id).
    pub sql: String,
    pub parameters: String,
    pub single: bool,
    /// A count (else a subset: items of `identity` (the child's id) and the `kept` properties).
    pub count: bool,
    pub identity: String,
    pub kept: String,
}

/// How a feed keeps only its newest documents.
#[derive(Debug, Serialize)]
pub struct TrimView {
    pub newest: u64,
    /// The feed's documents of one partition (`@key`), newest first.
    pub sql: String,
}

/// A change-feed worker that rewrites the attributes extended references copy.
#[derive(Debug, Serialize)]
pub struct RefreshWorkerView {
    #[serde(flatten)]
    pub feed: FeedWorker,
    pub holder: String,
    pub reference: String,
    /// The query that finds the holders, its parameters (each bound to the changed
    /// document's id) and whether it runs in the partition that id names.
    pub sql: String,
    pub parameters: String,
    pub single: bool,
    /// `&["username"]`: the attributes copied.
    pub attributes: String,
    /// `&["postId"]`: the holders' partition key properties.
    pub keys: String,
}

/// Builds the data access view of `model`, whose Rust types are `rust`.
pub fn build(model: &LogicalModel, rust: &RustView, mapping: &TypeMapping) -> DataView {
    let mut module = "data".to_string();
    while rust.containers.iter().any(|c| c.module == module) || rust.types_module == module {
        module.push('_');
    }
    let mut taken: BTreeSet<String> = ["Error", "Database", "MAX_BATCH_OPERATIONS", "LEASE_TYPE", "Written"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut unique = |name: String| {
        let mut name = name;
        while !taken.insert(name.clone()) {
            name.push('_');
        }
        name
    };
    let containers: Vec<HandleView> = rust
        .containers
        .iter()
        .map(|c| HandleView {
            name: c.name.to_string(),
            module: c.module.clone(),
            handle: unique(format!("{}Container", upper_camel_of_snake(&c.module))),
            field: c.module.clone(),
            key_type: c.key_type.clone(),
            enum_name: c.enum_name.clone(),
        })
        .collect();
    let mut skipped = Vec::new();
    let mut methods: BTreeSet<String> = containers.iter().map(|c| c.field.clone()).collect();
    methods.insert("open".into());
    let sources = change_feed_sources(model);
    let claim_sets = claim_sets(model, rust, &containers);
    let mut aggregates = Vec::new();
    for (c, cv) in model.containers.iter().zip(&rust.containers) {
        if !matches!(c.kind, ContainerKind::Aggregate | ContainerKind::Dictionary) {
            continue;
        }
        let handle = &containers
            .iter()
            .find(|h| h.name == c.name)
            .expect("a handle per container");
        for root in c.document_types.iter().filter(|d| d.role == Role::Root) {
            match aggregate(c, cv, root, handle, &sources, &claim_sets) {
                Ok(mut a) => {
                    a.aggregate = unique(format!("{}Aggregate", root.name));
                    a.repository = unique(format!("{}Repository", root.name));
                    a.constructor = method(&mut methods, &format!("{}_repository", snake_case(&root.name)));
                    aggregates.push(a);
                }
                Err(reason) => skipped.push(format!("a repository of `{}`: {reason}", root.name)),
            }
        }
    }
    let mut patterns = Vec::new();
    let cx = Context {
        model,
        rust,
        mapping,
        handles: &containers,
        sources: &sources,
        claim_sets: &claim_sets,
    };
    for op in &model.operations {
        match pattern(&cx, op) {
            Ok(mut p) => {
                p.ident = method(&mut methods, &p.name);
                if p.page.is_some() && !methods.insert(format!("{}_page", p.ident)) {
                    p.page = None;
                    skipped.push(format!(
                        "the page method of `{}`: `{}_page` names another method",
                        p.name, p.ident
                    ));
                }
                if p.row.is_some() || p.item.is_some() {
                    p.at_most_one = false;
                }
                if let Some(row) = &mut p.row {
                    row.name = unique(format!("{}Row", upper_camel_of_snake(&p.ident)));
                    p.returns = format!("::std::vec::Vec<{}>", row.name);
                }
                if let Some(item) = &mut p.item {
                    item.name = unique(format!("{}Item", upper_camel_of_snake(&p.ident)));
                    p.returns = format!("::std::vec::Vec<{}>", item.name);
                }
                patterns.push(p);
            }
            Err(reason) => skipped.push(format!("the access pattern `{}`: {reason}", op.pattern)),
        }
    }
    let mut workers = Vec::new();
    for c in &model.containers {
        for d in &c.document_types {
            let Some(of) = &d.copy_of else { continue };
            let trims = of.sync.actions.iter().any(|a| a.operation == SyncOperation::Trim);
            let trim = match (trims, of.newest) {
                (false, _) => None,
                (true, Some(newest)) => match trim_view(model, c, d, &of.serves, newest) {
                    Ok(trim) => Some(trim),
                    Err(reason) => {
                        skipped.push(format!(
                            "the worker that keeps the feed `{}` in `{}` current: {reason}",
                            d.name, c.name
                        ));
                        continue;
                    }
                },
                (true, None) => {
                    skipped.push(format!(
                        "the worker that keeps `{}` in `{}` current: it trims without a size",
                        d.name, c.name
                    ));
                    continue;
                }
            };
            let discriminator = model
                .container(&of.container)
                .and_then(|s| s.document_type(&of.document_type))
                .map(|s| s.discriminator.clone())
                .unwrap_or_default();
            let lease_id = format!("copy-{}-{}-to-{}", of.container, of.document_type, c.name);
            let Ok(mut feed) = FeedWorker::new(&containers, &of.container, &discriminator, c, lease_id) else {
                continue;
            };
            feed.name = unique(format!(
                "{}To{}Worker",
                of.document_type,
                upper_camel_of_snake(&feed.target_field)
            ));
            feed.constructor = method(&mut methods, &snake_case(&feed.name));
            workers.push(WorkerView {
                source_document: format!("super::{}::{}", feed.source_field, of.document_type),
                target_document: format!("super::{}::{}", feed.target_field, d.name),
                feed,
                trim,
            });
        }
    }
    let mut refresh_workers = Vec::new();
    for c in &model.containers {
        for d in &c.document_types {
            for r in d.references.iter().filter(|r| r.ancestry.is_none()) {
                let Some(sync) = r.extended.as_ref().and_then(|e| e.sync.as_ref()) else {
                    continue;
                };
                match rewriting_worker(model, &containers, c, d, r, sync, Rewrites::Holders) {
                    Ok(mut w) => {
                        w.feed.name = unique(format!(
                            "{}{}Worker",
                            d.name,
                            upper_camel_of_snake(&names::field(&r.name))
                        ));
                        w.feed.constructor = method(&mut methods, &snake_case(&w.feed.name));
                        refresh_workers.push(w);
                    }
                    Err(reason) => skipped.push(format!(
                        "the worker that keeps the attributes `{}.{}` copies current: {reason}",
                        d.name, r.name
                    )),
                }
            }
        }
    }
    let mut kept_workers = Vec::new();
    let mut ancestors_workers = Vec::new();
    for c in &model.containers {
        for d in &c.document_types {
            for r in d.references.iter().filter(|r| r.ancestry.is_some()) {
                let Some(sync) = r.extended.as_ref().and_then(|e| e.sync.as_ref()) else {
                    continue;
                };
                match rewriting_worker(model, &containers, c, d, r, sync, Rewrites::Descendants) {
                    Ok(mut w) => {
                        w.feed.name = unique(format!(
                            "{}{}Worker",
                            d.name,
                            upper_camel_of_snake(&names::field(&r.name))
                        ));
                        w.feed.constructor = method(&mut methods, &snake_case(&w.feed.name));
                        ancestors_workers.push(w);
                    }
                    Err(reason) => skipped.push(format!(
                        "the worker that keeps the ancestors list `{}.{}` current: {reason}",
                        d.name, r.name
                    )),
                }
            }
            let counts = d.computed.iter().filter_map(|v| match &v.kept {
                cosmap_mapper::Keeping::ChangeFeed { sync } => Some((v.name.as_str(), sync, None)),
                cosmap_mapper::Keeping::Batch => None,
            });
            let subsets = d.embedded.iter().filter_map(|e| match &e.subset.as_ref()?.kept {
                cosmap_mapper::Keeping::ChangeFeed { sync } => Some((e.name.as_str(), sync, Some(e))),
                cosmap_mapper::Keeping::Batch => None,
            });
            for (property, sync, subset) in counts.chain(subsets) {
                match kept_worker(model, &containers, c, d, property, sync, subset) {
                    Ok(mut w) => {
                        w.feed.name = unique(format!(
                            "{}{}Worker",
                            d.name,
                            upper_camel_of_snake(&names::field(property))
                        ));
                        w.feed.constructor = method(&mut methods, &snake_case(&w.feed.name));
                        kept_workers.push(w);
                    }
                    Err(reason) => skipped.push(format!(
                        "the worker that keeps `{}.{property}` current: {reason}",
                        d.name
                    )),
                }
            }
        }
    }
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
    let mut lease_type = "cosmapLease".to_string();
    while model
        .containers
        .iter()
        .flat_map(|c| &c.document_types)
        .any(|d| d.discriminator == lease_type)
    {
        lease_type.push('_');
    }
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
        skipped,
        lease_type,
        rt: std::collections::BTreeMap::new(),
    }
}

/// The claim function of each document type with claimed unique values.
fn claim_sets(model: &LogicalModel, rust: &RustView, handles: &[HandleView]) -> Vec<ClaimSetView> {
    let mut out: Vec<ClaimSetView> = Vec::new();
    for claims_container in model.containers.iter().filter(|k| k.kind == ContainerKind::Claims) {
        let Some(field) = handles
            .iter()
            .find(|h| h.name == claims_container.name)
            .map(|h| h.field.clone())
        else {
            continue;
        };
        for d in &claims_container.document_types {
            let Some(of) = &d.claim_of else { continue };
            let Some(cv) = rust.containers.iter().find(|c| c.name == of.container) else {
                continue;
            };
            let claim = ClaimView {
                attribute: of.attribute.clone(),
                document: format!("super::{field}::{}", d.name),
                field: field.clone(),
            };
            match out
                .iter_mut()
                .find(|s| s.owner == of.document_type && s.owner_path.starts_with(&format!("super::{}::", cv.module)))
            {
                Some(set) => set.claims.push(claim),
                None => {
                    let levels = cv.partition_key_paths.len();
                    let owner_key = if levels <= 1 {
                        "document.partition_key()".to_string()
                    } else {
                        let parts: Vec<String> = (0..levels).map(|i| format!("key.{i}")).collect();
                        format!(
                            "{{ let key = document.partition_key(); ::std::vec![{}] }}",
                            parts.join(", ")
                        )
                    };
                    out.push(ClaimSetView {
                        function: format!(
                            "claim_{}_{}",
                            cv.module.trim_start_matches("r#"),
                            snake_case(&of.document_type)
                        ),
                        owner: of.document_type.clone(),
                        owner_path: format!("super::{}::{}", cv.module, of.document_type),
                        owner_key,
                        claims: vec![claim],
                    })
                }
            }
        }
    }
    out
}

/// The claim function of `owner` in container module `module`.
fn claim_set_of(sets: &[ClaimSetView], module: &str, owner: &str) -> Option<String> {
    let path = format!("super::{module}::{owner}");
    sets.iter().find(|s| s.owner_path == path).map(|s| s.function.clone())
}

/// The trim of feed `d` in `c`: its partition's documents, newest first by the order
/// of the read it serves.
fn trim_view(
    model: &LogicalModel,
    c: &cosmap_mapper::Container,
    d: &DocumentType,
    serves: &str,
    newest: u64,
) -> Result<TrimView, String> {
    let read = model
        .operations
        .iter()
        .find(|o| o.pattern == serves)
        .and_then(|o| o.requests.first())
        .ok_or_else(|| format!("the read it serves, `{serves}`, has no request"))?;
    let order = read
        .sql()
        .and_then(|sql| sql.split_once(" ORDER BY ").map(|(_, o)| o.to_string()))
        .ok_or_else(|| format!("the read it serves, `{serves}`, has no order"))?;
    let levels = c.partition_key_properties();
    let [level] = levels[..] else {
        return Err("its container's key has more than one level".into());
    };
    let sql = format!(
        "SELECT * FROM c WHERE {} = @key AND c.type = '{}' ORDER BY {order}",
        cosmap_mapper::operations::sql_property("c", level),
        d.discriminator
    );
    Ok(TrimView {
        newest,
        sql: format!("{sql:?}"),
    })
}

/// Which worker rewrites documents that copy from the changed one: an extended
/// reference's holders, or a tree's descendants (their ancestors lists).
#[derive(Clone, Copy, PartialEq)]
enum Rewrites {
    Holders,
    Descendants,
}

/// The worker that keeps `d`'s extended reference `r` (its holders), or the ancestors
/// list `r` of the tree `d` (its descendants), current: the query that finds them is
/// the one the changed document's writes send (from their operations).
fn rewriting_worker(
    model: &LogicalModel,
    handles: &[HandleView],
    c: &cosmap_mapper::Container,
    d: &DocumentType,
    r: &cosmap_mapper::Reference,
    sync: &cosmap_mapper::SyncPlan,
    rewrites: Rewrites,
) -> Result<RefreshWorkerView, String> {
    let cosmap_mapper::SyncTrigger::ChangeFeed {
        container: source,
        discriminator,
        ..
    } = &sync.trigger;
    let finds = |q: &Request| match (&q.purpose, rewrites) {
        (
            Purpose::SyncExtendedReference {
                document, reference, ..
            },
            Rewrites::Holders,
        ) => *document == d.name && *reference == r.name && q.container == c.name,
        (Purpose::SyncAncestors { document, property, .. }, Rewrites::Descendants) => {
            *document == d.name && *property == r.name
        }
        _ => false,
    };
    // A root that no access pattern writes: the requests its write would send.
    let unwritten: Vec<Request> = match rewrites {
        Rewrites::Holders => model
            .containers
            .iter()
            .flat_map(|k| &k.document_types)
            .find(|t| t.source == r.target && t.role == cosmap_mapper::Role::Root)
            .map(|root| cosmap_mapper::operations::extended_reference_sync(&model.containers, root))
            .unwrap_or_default(),
        Rewrites::Descendants => Vec::new(),
    };
    let query = model
        .operations
        .iter()
        .flat_map(|o| &o.requests)
        .chain(&unwritten)
        .find(|q| finds(q) && q.query().is_some())
        .ok_or(match rewrites {
            Rewrites::Holders => "the mapper finds no query for its holders",
            Rewrites::Descendants => "no write of the tree sends the query that finds an element's descendants",
        })?;
    let (sql, parameters) = query.query().ok_or("not a query")?;
    let prefix = match rewrites {
        Rewrites::Holders => "refresh",
        Rewrites::Descendants => "ancestors",
    };
    let feed = FeedWorker::new(
        handles,
        source,
        discriminator,
        c,
        format!("{prefix}-{}-{}-{}", c.name, d.name, r.name),
    )?;
    let attributes: Vec<String> = r
        .extended
        .as_ref()
        .map(|e| e.attributes.iter().map(|a| a.name.clone()).collect())
        .unwrap_or_default();
    let keys: Vec<String> = c.partition_key_properties().iter().map(|p| p.to_string()).collect();
    Ok(RefreshWorkerView {
        feed,
        holder: d.name.clone(),
        reference: r.name.clone(),
        sql: format!("{sql:?}"),
        parameters: sql_parameters(parameters),
        single: query.partition_key().is_some(),
        attributes: format!("&[{}]", quoted(&attributes)),
        keys: format!("&[{}]", quoted(&keys)),
    })
}

/// `&["@a", "@b"]`: a query's parameters as the runtime binds them.
fn sql_parameters(parameters: &[String]) -> String {
    let names: Vec<String> = parameters.iter().map(|p| format!("@{p}")).collect();
    format!("&[{}]", quoted(&names))
}

/// The worker that keeps `d`'s count or subset `property` current from its children's
/// change feed: the children are found by the query the children's writes send.
fn kept_worker(
    model: &LogicalModel,
    handles: &[HandleView],
    c: &cosmap_mapper::Container,
    d: &DocumentType,
    property: &str,
    sync: &cosmap_mapper::SyncPlan,
    subset: Option<&cosmap_mapper::Embedded>,
) -> Result<KeptWorkerView, String> {
    let cosmap_mapper::SyncTrigger::ChangeFeed {
        container: source,
        discriminator,
        ..
    } = &sync.trigger;
    let reference = sync
        .key("id")
        .and_then(|path| path.names().first().cloned())
        .ok_or("its children do not say which parent they belong to")?;
    let query = model
        .operations
        .iter()
        .flat_map(|o| &o.requests)
        .find(|q| {
            let keeps = match &q.purpose {
                Purpose::UpdateCount {
                    document, property: p, ..
                }
                | Purpose::UpdateSubset {
                    document, property: p, ..
                } => *document == d.name && p == property,
                _ => false,
            };
            keeps && q.query().is_some() && q.container == *source
        })
        .ok_or("no write of its children sends the query that finds them")?;
    let (sql, parameters) = query.query().ok_or("not a query")?;
    let feed = FeedWorker::new(
        handles,
        source,
        discriminator,
        c,
        format!("keep-{}-{}-{property}", c.name, d.name),
    )?;
    let (identity, kept) = match subset {
        Some(e) => {
            let mut names = e.attributes.iter().map(|a| a.name.clone());
            let identity = names.next().unwrap_or_else(|| "id".into());
            let kept: Vec<String> = names
                .chain(e.embedded.iter().map(|x| x.name.clone()))
                .chain(e.references.iter().map(|r| r.name.clone()))
                .collect();
            (identity, kept)
        }
        None => (String::new(), Vec::new()),
    };
    Ok(KeptWorkerView {
        feed,
        holder: d.name.clone(),
        property: property.to_string(),
        reference,
        sql: format!("{sql:?}"),
        parameters: sql_parameters(parameters),
        single: query.partition_key().is_some(),
        count: subset.is_none(),
        identity,
        kept: format!("&[{}]", quoted(&kept)),
    })
}

/// The (container, `type`) pairs whose change feed a sync reads: their deletes set `ttl`.
fn change_feed_sources(model: &LogicalModel) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for c in &model.containers {
        if c.default_ttl.is_none() {
            continue;
        }
        for d in &c.document_types {
            out.insert((c.name.clone(), d.discriminator.clone()));
        }
    }
    out
}

fn aggregate(
    c: &cosmap_mapper::Container,
    cv: &ContainerView,
    root: &DocumentType,
    handle: &HandleView,
    sources: &BTreeSet<(String, String)>,
    claim_sets: &[ClaimSetView],
) -> Result<AggregateView, String> {
    let rv = doc_view(cv, &root.name)?;
    let own = |d: &&DocumentType| !matches!(d.role, Role::Root | Role::Copy | Role::Claim);
    let members: Vec<&DocumentType> = c.document_types.iter().filter(own).collect();
    if !members.is_empty() && c.aggregates.len() > 1 {
        return Err(format!(
            "container `{}` holds more than one aggregate and members of them, which the repository cannot tell apart yet",
            c.name
        ));
    }
    let identity = match &root.id {
        IdSource::Identity { attribute } => attribute.clone(),
        IdSource::Assigned => String::new(),
    };
    let levels = c.partition_key_properties();
    let whole = levels.iter().any(|l| *l == identity);
    if !members.is_empty() && !whole {
        return Err(format!(
            "its partition key ({}) holds other aggregates too, and its members do not say which root they belong to",
            levels.join(", ")
        ));
    }
    let batch_kept = |d: &DocumentType| {
        d.computed.iter().any(|v| v.kept == cosmap_mapper::Keeping::Batch)
            || d.embedded.iter().any(|e| {
                e.subset
                    .as_ref()
                    .is_some_and(|s| s.kept == cosmap_mapper::Keeping::Batch)
            })
    };
    if members.iter().any(|d| batch_kept(d)) {
        return Err(
            "a member keeps counts or subsets of its own children in the batch, which a save of the whole aggregate does not recompute; write it with the access patterns' requests"
                .into(),
        );
    }
    let (load_params, load_key) = if rv.pk_from_id {
        ("id: &str".to_string(), "::std::string::String::from(id)".to_string())
    } else if let Some(constant) = &rv.partition_key_constant {
        (
            "id: &str".to_string(),
            format!("::std::string::String::from({constant:?})"),
        )
    } else {
        (
            format!("partition_key: {}, id: &str", rv.key_type),
            "partition_key".to_string(),
        )
    };
    let mut idents: BTreeSet<String> = ["root".to_string(), "loaded".to_string()].into();
    let members: Vec<MemberView> = members
        .iter()
        .map(|d| {
            let base = d
                .containment
                .as_ref()
                .map(|k| names::field(&k.property))
                .unwrap_or_else(|| names::field(&cosmap_domain::naming::plural(&lower_camel(&d.name))));
            let mut ident = base;
            while !idents.insert(ident.clone()) {
                ident.push('_');
            }
            MemberView {
                ident,
                document: format!("super::{}::{}", cv.module, d.name),
                discriminator: d.discriminator.clone(),
                claim_set: claim_set_of(claim_sets, &cv.module, &d.name),
            }
        })
        .collect();
    let load_sql = (!members.is_empty()).then(|| {
        let mut types: Vec<String> = std::iter::once(&root.discriminator)
            .chain(members.iter().map(|m| &m.discriminator))
            .map(|t| format!("'{t}'"))
            .collect();
        types.sort();
        // The key in the SQL too: a server that ignores the request's partition (the
        // local one) still stays in the aggregate's.
        let keys: Vec<String> = levels
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{} = @key{i}", cosmap_mapper::operations::sql_property("c", l)))
            .collect();
        format!(
            "{:?}",
            format!(
                "SELECT * FROM c WHERE {} AND c.type IN ({})",
                keys.join(" AND "),
                types.join(", ")
            )
        )
    });
    let key_bindings: Vec<String> = if levels.len() <= 1 {
        vec!["rt::bind(query, \"@key0\", &partition_key)?".to_string()]
    } else {
        (0..levels.len())
            .map(|i| format!("rt::bind(query, \"@key{i}\", &partition_key.{i})?"))
            .collect()
    };
    let derived = derived_values(root, &members)?;
    let kept_by_workers: Vec<String> = root
        .computed
        .iter()
        .filter(|v| v.kept != cosmap_mapper::Keeping::Batch)
        .map(|v| v.name.clone())
        .chain(
            root.embedded
                .iter()
                .filter(|e| {
                    e.subset
                        .as_ref()
                        .is_some_and(|s| s.kept != cosmap_mapper::Keeping::Batch)
                })
                .map(|e| e.name.clone()),
        )
        .collect();
    let claim_set = claim_set_of(claim_sets, &cv.module, &root.name);
    let member_claims = members.iter().any(|m| m.claim_set.is_some());
    let claims = claim_set.is_some() || member_claims;
    Ok(AggregateView {
        root: root.name.clone(),
        module: cv.module.clone(),
        container: c.name.clone(),
        handle: handle.handle.clone(),
        field: handle.field.clone(),
        aggregate: String::new(),
        repository: String::new(),
        constructor: String::new(),
        enum_name: cv.enum_name.clone(),
        key_type: rv.key_type.clone(),
        members,
        load_params,
        load_key,
        load_sql,
        key_bindings,
        soft_delete: sources.contains(&(c.name.clone(), root.discriminator.clone())),
        claim_set,
        claims,
        member_claims,
        derived,
        kept_by_workers,
    })
}

/// The counts and subsets `root` keeps in the batch, each of its `members` by their
/// `type`: a value kept of anything else (another aggregate sharing the partition) is
/// an error, as a save of this aggregate cannot recompute it.
fn derived_values(root: &DocumentType, members: &[MemberView]) -> Result<Vec<DerivedView>, String> {
    let member = |document_type: &str, property: &str| {
        members
            .iter()
            .find(|m| m.document.rsplit("::").next() == Some(document_type))
            .map(|m| m.ident.clone())
            .ok_or_else(|| {
                format!("it keeps `{property}` of `{document_type}`, not a member of it, in the batch of their writes; write it with the access patterns' requests")
            })
    };
    let mut out = Vec::new();
    for v in root.computed.iter().filter(|v| v.kept == cosmap_mapper::Keeping::Batch) {
        out.push(DerivedView {
            property: v.name.clone(),
            member: member(&v.document_type, &v.name)?,
            subset: None,
        });
    }
    for e in &root.embedded {
        let Some(of) = e.subset.as_ref().filter(|s| s.kept == cosmap_mapper::Keeping::Batch) else {
            continue;
        };
        let mut names = e.attributes.iter().map(|a| a.name.clone());
        let identity = names.next().unwrap_or_else(|| "id".into());
        let kept: Vec<String> = names
            .chain(e.embedded.iter().map(|x| x.name.clone()))
            .chain(e.references.iter().map(|x| x.name.clone()))
            .collect();
        let sort = of
            .sort
            .iter()
            .map(|k| SortKeyView {
                name: k.trim_start_matches('-').to_string(),
                descending: k.starts_with('-'),
            })
            .collect();
        out.push(DerivedView {
            property: e.name.clone(),
            member: member(&of.document_type, &e.name)?,
            subset: Some(SubsetItemsView {
                identity,
                kept,
                sort,
                newest: of.newest,
            }),
        });
    }
    Ok(out)
}

fn doc_view<'v, 'a>(cv: &'v ContainerView<'a>, name: &str) -> Result<&'v DocView<'a>, String> {
    cv.documents
        .iter()
        .find(|d| d.name == name)
        .ok_or_else(|| format!("no Rust type for `{name}`"))
}

/// What every access pattern's view is made from.
struct Context<'a> {
    model: &'a LogicalModel,
    rust: &'a RustView<'a>,
    mapping: &'a TypeMapping,
    handles: &'a [HandleView],
    /// The (container, `type`) pairs whose deletes set `ttl`.
    sources: &'a BTreeSet<(String, String)>,
    claim_sets: &'a [ClaimSetView],
}

fn pattern(cx: &Context<'_>, op: &Operation) -> Result<PatternView, String> {
    let Context {
        rust, mapping, handles, ..
    } = *cx;
    // A read by a claimed value: the claim's point read names the document read.
    let claim = op
        .requests
        .first()
        .filter(|r| matches!(r.purpose, Purpose::ReadClaim { .. }));
    let main = usize::from(claim.is_some());
    let first = op.requests.get(main).ok_or("it sends no request")?;
    let handle = handles
        .iter()
        .find(|h| h.name == first.container)
        .ok_or("its container has no handle")?;
    let cv = rust
        .containers
        .iter()
        .find(|c| c.name == first.container)
        .ok_or("its container has no Rust module")?;
    let mut docs = vec![format!(
        "`{}` ({}): {}.",
        op.pattern,
        cosmap_mapper::human_rate(op.per_second),
        claim.map_or(&first.purpose, |c| &c.purpose)
    )];
    let base = PatternView {
        ident: String::new(),
        name: op.pattern.clone(),
        per_second: cosmap_mapper::human_rate(op.per_second),
        docs: Vec::new(),
        params: Vec::new(),
        field: handle.field.clone(),
        handle: handle.handle.clone(),
        returns: String::new(),
        point_read: None,
        query: None,
        write: None,
        row: None,
        item: None,
        append: None,
        at_most_one: false,
        aggregate_write: None,
        page: None,
    };
    if op.kind == OperationKind::Write {
        return write_pattern(cx, op, base, docs);
    }
    // The requests after the first follow each result's references (point reads).
    let mut follows = Vec::new();
    let mut follow_idents: BTreeSet<String> = BTreeSet::new();
    for r in op.requests.iter().skip(main + 1) {
        match follow(rust, handles, r) {
            Ok(mut f) => {
                while !follow_idents.insert(f.ident.clone()) {
                    f.ident.push('_');
                }
                docs.push(format!("Then, for each result: {}.", r.purpose));
                follows.push(f);
            }
            Err(reason) => {
                return Err(format!(
                    "it also {} for each result, {reason}; send it as `cosmap model` shows",
                    lower_camel(&r.purpose.to_string())
                ))
            }
        }
    }
    if !matches!(
        first.purpose,
        Purpose::Read { .. }
            | Purpose::ReadMatchedInApplication { .. }
            | Purpose::ReadSubset { .. }
            | Purpose::ReadBuckets { .. }
    ) {
        return Err(format!("its request ({}) is not a plain read", first.purpose));
    }
    if first.counts_matches() {
        return Err("it counts matches, which generated functions do not do yet".into());
    }
    if let Some(key) = first.partition_key().filter(|_| claim.is_none()) {
        if !key.is_given() {
            return Err("its partition key comes from a document, not from its parameters".into());
        }
    }
    let mut used = used_parameters(first);
    used.extend(claim.map(used_parameters).unwrap_or_default());
    let mut params = Vec::new();
    for p in op.parameters.iter().filter(|p| used.contains(&p.name)) {
        let (base_ty, codec) = scalar_type(mapping, p.ty);
        let ident = names::field(&p.name);
        let text = base_ty == STRING;
        let (ty, bind) = match (p.list, codec.is_some(), text) {
            (false, _, true) => ("&str".to_string(), ident.clone()),
            (false, true, _) => (
                format!("&{base_ty}"),
                format!("super::{}::codec::Canonical::write({ident}).map_err(Error::Json)?", rust.types_module),
            ),
            (false, false, _) => (base_ty.to_string(), ident.clone()),
            (true, _, true) => ("&[&str]".to_string(), ident.clone()),
            (true, true, _) => (
                format!("&[{base_ty}]"),
                format!(
                    "{ident}.iter().map(super::{}::codec::Canonical::write).collect::<::core::result::Result<::std::vec::Vec<_>, _>>().map_err(Error::Json)?",
                    rust.types_module
                ),
            ),
            (true, false, _) => (format!("&[{base_ty}]"), ident.clone()),
        };
        params.push(ParamView {
            sql_name: format!("@{}", p.name),
            ident,
            ty,
            bind,
        });
    }
    let text_param = |name: &str| -> Result<String, String> {
        let p = params
            .iter()
            .find(|p| p.sql_name == format!("@{name}"))
            .ok_or_else(|| format!("its key names `@{name}`, which is not one of its parameters"))?;
        if p.ty != "&str" {
            return Err(format!("its key `@{name}` is not text"));
        }
        Ok(format!("::std::string::String::from({})", p.ident))
    };
    let key_expr = |source: &ValueSource| -> Result<String, String> {
        match source {
            ValueSource::Parameter(name) => text_param(name),
            ValueSource::Constant(value) => Ok(format!("::std::string::String::from({value:?})")),
            ValueSource::Levels(levels) => {
                let mut parts = Vec::new();
                for l in levels {
                    parts.push(match l {
                        ValueSource::Parameter(name) => text_param(name)?,
                        ValueSource::Constant(value) => format!("::std::string::String::from({value:?})"),
                        _ => return Err("a level of its key comes from a document".into()),
                    });
                }
                Ok(if parts.len() == 1 {
                    parts.remove(0)
                } else {
                    format!("({})", parts.join(", "))
                })
            }
            _ => Err("its key comes from a document".into()),
        }
    };
    let document = |name: &str| format!("super::{}::{name}", cv.module);
    let mut view = base;
    match &first.action {
        Action::PointRead { .. } if claim.is_some() => {
            let d = first.document_types.first().ok_or("it reads no document type")?;
            let claim = claim.ok_or("it reads no claim")?;
            let claims = handles
                .iter()
                .find(|h| h.name == claim.container)
                .ok_or("its claims container has no handle")?;
            let (Some(key), Some(ValueSource::Constant(id))) = (claim.partition_key(), claim.id()) else {
                return Err("its claim is not read by the value and a constant id".into());
            };
            docs.push(format!("Then: {}.", first.purpose));
            view.returns = format!("::core::option::Option<{}>", document(d));
            view.point_read = Some(PointReadView {
                key: String::new(),
                id: String::new(),
                document: document(d),
                subset: None,
                claim: Some(ClaimLookupView {
                    field: claims.field.clone(),
                    key: key_expr(key)?,
                    id: format!("{id:?}"),
                }),
            });
        }
        Action::PointRead { partition_key, id } => {
            let d = first.document_types.first().ok_or("it reads no document type")?;
            if let Purpose::ReadMatchedInApplication { element, filters, .. } = &first.purpose {
                docs.push(format!(
                    "It returns the whole `{d}`: match `{element}` on {} in the application.",
                    filters.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
                ));
            }
            let id = match id {
                ValueSource::Parameter(name) => params
                    .iter()
                    .find(|p| p.sql_name == format!("@{name}"))
                    .filter(|p| p.ty == "&str")
                    .map(|p| p.ident.clone())
                    .ok_or_else(|| format!("its id `@{name}` is not a text parameter"))?,
                ValueSource::Constant(value) => format!("{value:?}"),
                _ => return Err("its id comes from a document".into()),
            };
            if let Some(levels) = levels_of(partition_key) {
                if levels < cv.partition_key_paths.len() {
                    return Err("it gives only a prefix of its hierarchical key".into());
                }
            }
            view.returns = format!("::core::option::Option<{}>", document(d));
            // A subset (`subset`): the parent's list of its newest children.
            let subset = match &first.purpose {
                Purpose::ReadSubset { property, .. } => {
                    let field = doc_view(cv, d)?
                        .fields
                        .iter()
                        .find(|f| f.json_name == *property)
                        .ok_or_else(|| format!("`{d}` has no `{property}`"))?;
                    view.returns = field.ty.to_string();
                    docs.push(format!(
                        "It returns the `{d}`'s `{property}`: empty when there is no `{d}`."
                    ));
                    Some(field.ident.to_string())
                }
                _ => None,
            };
            view.point_read = Some(PointReadView {
                key: key_expr(partition_key)?,
                id,
                document: document(d),
                subset,
                claim: None,
            });
        }
        Action::SinglePartitionQuery { sql, .. } | Action::CrossPartitionQuery { sql, .. } => {
            let scope = match first.partition_key() {
                Some(partition_key) => {
                    // A prefix of a hierarchical key: the SDK routes the query to the
                    // physical partitions that hold the prefix.
                    if let Some(levels) = levels_of(partition_key) {
                        if levels < cv.partition_key_paths.len() {
                            docs.push(format!(
                                "It gives {levels} of the key's {} levels (a prefix): the query runs in every logical partition under it.",
                                cv.partition_key_paths.len()
                            ));
                        }
                    }
                    format!(
                        "::azure_data_cosmos::FeedScope::partition({})",
                        key_expr(partition_key)?
                    )
                }
                None => {
                    docs.push("It fans out over every physical partition (a cross-partition query).".into());
                    "::azure_data_cosmos::FeedScope::full_container()".to_string()
                }
            };
            docs.push(format!("`{sql}`"));
            let item = match first.projected_properties() {
                Some(properties) => {
                    let d = first.document_types.first().ok_or("it reads no document type")?;
                    let dv = doc_view(cv, d)?;
                    view.row = Some(row(dv, &cv.module, &properties)?);
                    String::new()
                }
                None if first.document_types.len() == 1 => document(&first.document_types[0]),
                None => format!("super::{}::{}", cv.module, cv.enum_name),
            };
            view.returns = format!("::std::vec::Vec<{item}>");
            if view.row.is_none() && at_most_one(cx.model, first, sql) {
                view.at_most_one = true;
                view.returns = format!("::core::option::Option<{item}>");
                docs.push("It finds at most one (a `unique` value, or `TOP 1`): `None` when there is none.".into());
            }
            // Buckets (`bucket`): the items in range, from the buckets the range touches.
            let buckets = match &first.purpose {
                Purpose::ReadBuckets {
                    document,
                    items,
                    time,
                    bounds,
                    newest_first,
                    limit,
                    ..
                } => {
                    let field = doc_view(cv, document)?
                        .fields
                        .iter()
                        .find(|f| f.json_name == *items)
                        .ok_or_else(|| format!("`{document}` has no `{items}`"))?;
                    view.returns = field.ty.to_string();
                    docs.push(format!(
                        "It returns the items of the buckets in range, {}{}.",
                        if *newest_first { "newest first" } else { "oldest first" },
                        limit.map(|n| format!(", at most {n}")).unwrap_or_default()
                    ));
                    let mut bound_views = Vec::new();
                    for (parameter, op) in bounds {
                        let p = params
                            .iter()
                            .find(|p| p.sql_name == format!("@{parameter}"))
                            .ok_or_else(|| format!("its bound `@{parameter}` is not one of its parameters"))?;
                        bound_views.push(BoundView {
                            bind: p.bind.clone(),
                            op: op.clone(),
                        });
                    }
                    Some(BucketsView {
                        items: items.clone(),
                        time: time.clone(),
                        bounds: bound_views,
                        newest_first: *newest_first,
                        limit: match limit {
                            Some(n) => format!("::core::option::Option::Some({n}usize)"),
                            None => "::core::option::Option::None".into(),
                        },
                    })
                }
                _ => None,
            };
            view.query = Some(QueryView {
                sql: format!("{sql:?}"),
                scope,
                item,
                buckets,
            });
        }
        Action::Write { .. } => return Err("its first request is a write".into()),
    }
    if !follows.is_empty() {
        let main = first
            .document_types
            .first()
            .map(|d| names::field(&lower_camel(d)))
            .unwrap_or_default();
        let mut main_ident = main;
        while follows.iter().any(|f| f.ident == main_ident) {
            main_ident.push('_');
        }
        let main_type = match (&view.row, &view.query, &view.point_read) {
            (Some(_), _, _) => {
                return Err(
                    "it selects a short form and follows references, which generated functions do not do yet".into(),
                )
            }
            (_, Some(q), _) => q.item.clone(),
            (_, _, Some(p)) => p.document.clone(),
            _ => return Err("it reads nothing first".into()),
        };
        view.item = Some(ItemView {
            name: String::new(),
            main_ident,
            main_type,
            follows,
        });
    }
    // A read of whole documents that may return many pages them.
    view.page = view
        .query
        .as_ref()
        .filter(|q| q.buckets.is_none() && view.row.is_none() && view.item.is_none() && !view.at_most_one)
        .map(|q| q.item.clone());
    view.docs = docs;
    view.params = params;
    Ok(view)
}

/// The parameters request `r` names: in its key, its id and its SQL.
/// Whether `sql` (the read's request `r`) finds at most one document: `TOP 1`, or an
/// equality on a `unique` attribute of the one document type it reads.
fn at_most_one(model: &LogicalModel, r: &Request, sql: &str) -> bool {
    if sql.starts_with("SELECT TOP 1 ") {
        return true;
    }
    let [document] = &r.document_types[..] else {
        return false;
    };
    let Some(d) = model.container(&r.container).and_then(|c| c.document_type(document)) else {
        return false;
    };
    d.attributes.iter().filter(|a| a.unique && !a.many).any(|a| {
        let equality = format!(
            "{} = @{} ",
            cosmap_mapper::operations::sql_property("c", &a.name),
            a.name
        );
        format!("{sql} ").contains(&equality)
    })
}

fn used_parameters(r: &Request) -> BTreeSet<String> {
    fn add(source: &ValueSource, out: &mut BTreeSet<String>) {
        match source {
            ValueSource::Parameter(name) => {
                out.insert(name.clone());
            }
            ValueSource::Levels(levels) => levels.iter().for_each(|l| add(l, out)),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    r.partition_key()
        .into_iter()
        .chain(r.id())
        .for_each(|s| add(s, &mut out));
    if let Some((_, names)) = r.query() {
        out.extend(names.iter().cloned());
    }
    out
}

/// How many levels of a hierarchical key `source` gives (`None`: a one-level key).
fn levels_of(source: &ValueSource) -> Option<usize> {
    match source {
        ValueSource::Levels(levels) => Some(levels.len()),
        _ => None,
    }
}

/// A write pattern: one write of a document the caller gives; the copies it keeps
/// current follow from the change feed (their workers).
fn write_pattern(
    cx: &Context<'_>,
    op: &Operation,
    mut view: PatternView,
    mut docs: Vec<String>,
) -> Result<PatternView, String> {
    let Context {
        model,
        rust,
        handles,
        sources,
        claim_sets,
        ..
    } = *cx;
    if let [append] = &op.requests[..] {
        if let Purpose::AppendToBucket { .. } = append.purpose {
            return append_pattern(cx, append, view, docs).map(|mut view| {
                view.docs.extend(aggregate_write::sent_in_order(op));
                view
            });
        }
    }
    let mains: Vec<&Request> = op
        .requests
        .iter()
        .filter(|r| matches!(r.purpose, Purpose::Write { .. } | Purpose::RewriteEmbedding { .. }))
        .collect();
    let [main] = mains[..] else {
        return aggregate_write::view(cx, op, view, docs, &mains);
    };
    if !main.partition_key().is_some_and(ValueSource::is_given) {
        return Err("its write's partition key comes from a document".into());
    }
    let cv = rust
        .containers
        .iter()
        .find(|c| c.name == main.container)
        .ok_or("its container has no Rust module")?;
    let handle = handles
        .iter()
        .find(|h| h.name == main.container)
        .ok_or("its container has no handle")?;
    view.field = handle.field.clone();
    view.handle = handle.handle.clone();
    docs[0] = format!(
        "`{}` ({}): {}.",
        op.pattern,
        cosmap_mapper::human_rate(op.per_second),
        main.purpose
    );
    let d = main.document_types.first().ok_or("it writes no document type")?;
    let claim_set = claim_set_of(claim_sets, &cv.module, d);
    let write = main.write().unwrap_or(WriteKind::Replace);
    let mut counts = Vec::new();
    let mut ancestors = None;
    for r in op.requests.iter().filter(|r| !std::ptr::eq(*r, main)) {
        match &r.purpose {
            // Claimed and released by the function, through the claim function.
            Purpose::Claim { .. } | Purpose::ReleaseClaim { .. } if claim_set.is_some() => {}
            // A count on a parent in the same partition: rewritten in the write's batch.
            Purpose::UpdateCount { property, element, .. }
                if r.partition_key() == main.partition_key()
                    && r.container == main.container
                    && claim_set.is_none() =>
            {
                let (Some(ValueSource::Parameter(key)), Some(ValueSource::Parameter(id))) = (r.partition_key(), r.id())
                else {
                    return Err(format!(
                        "its count `{property}` names its parent other than by the written document's values"
                    ));
                };
                let delta = match write {
                    WriteKind::Create => 1,
                    WriteKind::Delete => -1,
                    WriteKind::Replace => continue, // a replace changes no number of children
                };
                docs.push(format!(
                    "In the same transactional batch, the parent's `{property}` (its number of `{element}`s) goes {}, at the parent's version (read again and retried if it changed meanwhile).",
                    if delta > 0 { "up by one" } else { "down by one" }
                ));
                counts.push(CountView {
                    key: key.clone(),
                    id: id.clone(),
                    update: format!("rt::counted(parent, {property:?}, {delta})"),
                });
            }
            // A subset on a parent in the same partition: the new child put in its
            // place in the parent's list, in the write's batch.
            Purpose::UpdateSubset {
                document,
                property,
                element,
            } if r.partition_key() == main.partition_key()
                && r.container == main.container
                && claim_set.is_none()
                && write == WriteKind::Create =>
            {
                let (Some(ValueSource::Parameter(key)), Some(ValueSource::Parameter(id))) = (r.partition_key(), r.id())
                else {
                    return Err(format!(
                        "its subset `{property}` names its parent other than by the written document's values"
                    ));
                };
                let e = model
                    .container(&r.container)
                    .and_then(|c| c.document_type(document))
                    .and_then(|d| d.embedded.iter().find(|e| e.name == *property))
                    .ok_or_else(|| format!("`{document}` keeps no `{property}`"))?;
                let of = e
                    .subset
                    .as_ref()
                    .ok_or_else(|| format!("`{document}.{property}` is not a subset"))?;
                let mut names = e.attributes.iter().map(|a| a.name.clone());
                let identity = names.next().unwrap_or_else(|| "id".into());
                let kept: Vec<String> = names
                    .chain(e.embedded.iter().map(|x| x.name.clone()))
                    .chain(e.references.iter().map(|x| x.name.clone()))
                    .collect();
                let sort: Vec<String> = of
                    .sort
                    .iter()
                    .map(|k| match k.strip_prefix('-') {
                        Some(name) => format!("({name:?}, true)"),
                        None => format!("({k:?}, false)"),
                    })
                    .collect();
                docs.push(format!(
                    "In the same transactional batch, the new `{element}` takes its place among the parent's `{property}` (its newest {}), at the parent's version (read again and retried if it changed meanwhile).",
                    of.newest
                ));
                counts.push(CountView {
                    key: key.clone(),
                    id: id.clone(),
                    update: format!(
                        "rt::subset_with(parent, {property:?}, &body, {identity:?}, &[{}], &[{}], {})",
                        quoted(&kept),
                        sort.join(", "),
                        of.newest
                    ),
                });
            }
            // A tree's ancestors list, made from the new parent's before the write.
            Purpose::ReadParentAncestors { document, reference } => {
                let list = model
                    .container(&r.container)
                    .and_then(|c| c.document_type(document))
                    .and_then(|d| {
                        d.references
                            .iter()
                            .find(|l| l.ancestry.as_ref().is_some_and(|a| a.parent == *reference))
                    })
                    .ok_or_else(|| format!("`{document}` keeps no ancestors list along `{reference}`"))?;
                let attributes: Vec<String> = list
                    .extended
                    .as_ref()
                    .map(|e| e.attributes.iter().map(|a| a.name.clone()).collect())
                    .unwrap_or_default();
                docs.push(format!(
                    "Before the write, it reads the new `{reference}` and sets `{}` to its ancestors and itself (root first).",
                    list.name
                ));
                ancestors = Some(AncestorsView {
                    reference: reference.clone(),
                    list: list.name.clone(),
                    attributes: format!("&[{}]", quoted(&attributes)),
                });
            }
            // Kept current from the change feed, after the write, by a worker.
            p @ (Purpose::SyncCopy { .. }
            | Purpose::SyncFeed { .. }
            | Purpose::SyncExtendedReference { .. }
            | Purpose::SyncAncestors { .. }
            | Purpose::UpdateCount { .. }
            | Purpose::UpdateSubset { .. })
                if !r.partition_key().is_some_and(ValueSource::is_given) =>
            {
                // A query and its rewrite share the purpose: said once.
                let line = format!(
                    "Then, from the change feed: {} (its worker).",
                    lower_camel(&p.to_string())
                );
                if !docs.contains(&line) {
                    docs.push(line);
                }
            }
            p => {
                return Err(format!(
                    "it also {} in the same request flow, which generated functions do not do yet",
                    lower_camel(&p.to_string())
                ))
            }
        }
    }
    if let Some(advice) = op.not_atomic_advice() {
        docs.push(format!(
            "It is {advice}. This function sends them in that order and releases its claims if the write fails."
        ));
    }

    let dv = doc_view(cv, d)?;
    let soft = sources.contains(&(cv.name.to_string(), dv.discriminator.to_string()));
    let identity = model
        .container(&main.container)
        .and_then(|c| c.document_type(d))
        .and_then(|d| match &d.id {
            IdSource::Identity { attribute } => Some(attribute.clone()),
            IdSource::Assigned => None,
        })
        .unwrap_or_default();
    docs.push(match write {
        WriteKind::Create => format!("Creates the `{d}` (an error if it exists) and sets its `etag`."),
        WriteKind::Replace => format!(
            "Writes the `{d}`: with an `etag`, only over that version (`Error::Stale` otherwise); without, whatever is there. Sets its new `etag`."
        ),
        WriteKind::Delete if soft => format!(
            "Deletes the `{d}` by setting its `ttl`, so the change feed tells what is kept from it; with an `etag`, only that version."
        ),
        WriteKind::Delete => format!("Deletes the `{d}`; with an `etag`, only that version. A missing document is not an error."),
    });
    view.returns = "()".into();
    if claim_set.is_some() {
        docs.push(match write {
            WriteKind::Create => "Its unique values are claimed first and released again if the write fails.".to_string(),
            WriteKind::Replace => "It reads the stored document first: a unique value it changes is claimed before the write and the old one released after.".to_string(),
            WriteKind::Delete => "Its unique values are released after the delete.".to_string(),
        });
    }
    if ancestors.is_some() && !counts.is_empty() {
        return Err(
            "it keeps both a count and an ancestors list, which generated functions do not do together yet".into(),
        );
    }
    docs.extend(aggregate_write::sent_in_order(op));
    let (counts_empty, has_claims) = (counts.is_empty(), claim_set.is_some());
    view.write = Some(WriteView {
        ancestors,
        counts,
        identity,
        claim_set,
        document: format!("super::{}::{d}", cv.module),
        create: write == WriteKind::Create,
        replace: write == WriteKind::Replace,
        delete: write == WriteKind::Delete,
        soft_delete: soft,
        needs_body: write != WriteKind::Delete || soft || !counts_empty || has_claims,
    });
    view.docs = docs;
    Ok(view)
}

/// A follow-up point read per result, through a reference the result holds.
fn follow(rust: &RustView, handles: &[HandleView], r: &Request) -> Result<FollowView, String> {
    if let Purpose::FindReferring { target, .. } = &r.purpose {
        return find_referring(rust, handles, r, target);
    }
    if let Purpose::Count { element, .. } = &r.purpose {
        return count_per_result(handles, r, element);
    }
    if let Purpose::ReadListed { target, reference } = &r.purpose {
        return read_listed(rust, handles, r, target, reference);
    }
    let (target, climb) = match &r.purpose {
        Purpose::FollowReference { target } => (target, None),
        Purpose::FollowAncestors { target, reference } => (target, Some(reference.clone())),
        _ => return Err("which generated functions do not do yet".into()),
    };
    let Action::PointRead { partition_key, id } = &r.action else {
        return Err("not as a point read".into());
    };
    let ValueSource::Property(id_path) = id else {
        return Err("its id does not come from the result".into());
    };
    let key = match partition_key {
        ValueSource::Property(path) => format!("rt::Key::Path(&[{}])", quoted(path.names())),
        ValueSource::Constant(value) => format!("rt::Key::Constant({value:?})"),
        _ => return Err("its partition key does not come from the result".into()),
    };
    let (handle, cv, d) = followed(rust, handles, r)?;
    let ident = match &climb {
        Some(_) => names::field("ancestors"),
        None => names::field(&cosmap_domain::naming::plural(&lower_camel(target))),
    };
    Ok(FollowView {
        ident,
        document: format!("super::{}::{d}", cv.module),
        field: handle.field.clone(),
        key,
        id: format!("&[{}]", quoted(id_path.names())),
        target: target.clone(),
        query: None,
        count: None,
        climb,
        listed: None,
    })
}

/// A count query per result for its `element`s: a single-partition `COUNT(1)` in the
/// partition the result names, or one `1` per match across partitions, summed.
fn count_per_result(handles: &[HandleView], r: &Request, element: &str) -> Result<FollowView, String> {
    let (sql, parameters) = r.query().ok_or("not as a query")?;
    let handle = handles
        .iter()
        .find(|h| h.name == r.container)
        .ok_or("its container has no handle")?;
    let key = match r.partition_key() {
        None => "::core::option::Option::None".to_string(),
        Some(ValueSource::Property(path)) => format!(
            "::core::option::Option::Some(rt::Key::Path(&[{}]))",
            quoted(path.names())
        ),
        Some(ValueSource::Constant(value)) => {
            format!("::core::option::Option::Some(rt::Key::Constant({value:?}))")
        }
        Some(_) => return Err("in a partition its result does not name by one property".into()),
    };
    Ok(FollowView {
        ident: names::field(&format!("{}Count", lower_camel(element))),
        document: String::new(),
        field: handle.field.clone(),
        key: String::new(),
        id: String::new(),
        target: element.to_string(),
        query: None,
        climb: None,
        listed: None,
        count: Some(CountQueryView {
            sql: format!("{sql:?}"),
            parameters: sql_parameters(parameters),
            key,
        }),
    })
}

/// A query per result for the documents that refer to it: every parameter bound to
/// the result's id, in the partition that id names when the query has one.
fn find_referring(rust: &RustView, handles: &[HandleView], r: &Request, target: &str) -> Result<FollowView, String> {
    let (sql, parameters) = r.query().ok_or("not as a query")?;
    let handle = handles
        .iter()
        .find(|h| h.name == r.container)
        .ok_or("its container has no handle")?;
    let cv = rust
        .containers
        .iter()
        .find(|c| c.name == r.container)
        .ok_or("its container has no Rust module")?;
    let item = match &r.document_types[..] {
        [one] => {
            doc_view(cv, one)?;
            format!("super::{}::{one}", cv.module)
        }
        _ => format!("super::{}::{}", cv.module, cv.enum_name),
    };
    if r.partition_key().is_some() && cv.partition_key_paths.len() > 1 {
        return Err("in a partition of a hierarchical key".into());
    }
    Ok(FollowView {
        ident: names::field(&cosmap_domain::naming::plural(&lower_camel(target))),
        document: item,
        field: handle.field.clone(),
        key: String::new(),
        id: String::new(),
        target: target.to_string(),
        query: Some(FindView {
            sql: format!("{sql:?}"),
            parameters: sql_parameters(parameters),
            single: r.partition_key().is_some(),
        }),
        count: None,
        climb: None,
        listed: None,
    })
}

/// A query per result for the `target`s its list `reference` names.
fn read_listed(
    rust: &RustView,
    handles: &[HandleView],
    r: &Request,
    target: &str,
    reference: &str,
) -> Result<FollowView, String> {
    let (sql, parameters) = r.query().ok_or("not as a query")?;
    let [parameter] = parameters else {
        return Err("its query does not take exactly one list of ids".into());
    };
    let key = match r.partition_key() {
        None => "::core::option::Option::None".to_string(),
        Some(ValueSource::Constant(value)) => format!("::core::option::Option::Some({value:?})"),
        Some(_) => return Err("its partition is not a constant".into()),
    };
    let (handle, cv, d) = followed(rust, handles, r)?;
    Ok(FollowView {
        ident: names::field(&cosmap_domain::naming::plural(&lower_camel(target))),
        document: format!("super::{}::{d}", cv.module),
        field: handle.field.clone(),
        key: String::new(),
        id: String::new(),
        target: target.to_string(),
        query: None,
        count: None,
        climb: None,
        listed: Some(ListedView {
            sql: format!("{sql:?}"),
            parameter: format!("@{parameter}"),
            list: reference.to_string(),
            key,
        }),
    })
}

/// What a follow-up request `r` reads: its container's handle and Rust module, and the
/// one document type it reads (which must have a Rust type there).
fn followed<'v, 'a>(
    rust: &'v RustView<'a>,
    handles: &'v [HandleView],
    r: &'v Request,
) -> Result<(&'v HandleView, &'v ContainerView<'a>, &'v str), String> {
    let handle = handles
        .iter()
        .find(|h| h.name == r.container)
        .ok_or("its container has no handle")?;
    let cv = rust
        .containers
        .iter()
        .find(|c| c.name == r.container)
        .ok_or("its container has no Rust module")?;
    let d = r.document_types.first().ok_or("it reads no document type")?;
    doc_view(cv, d)?;
    Ok((handle, cv, d))
}

/// `"a", "b"`: Rust string literals, comma-separated.
fn quoted(names: &[String]) -> String {
    names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ")
}

/// A write that appends an item to the bucket of its window (`bucket`): the caller
/// gives the parent's key and the item.
fn append_pattern(
    cx: &Context<'_>,
    r: &Request,
    mut view: PatternView,
    mut docs: Vec<String>,
) -> Result<PatternView, String> {
    let Purpose::AppendToBucket { document, items, .. } = &r.purpose else {
        return Err("not an append".into());
    };
    let (Some(ValueSource::Parameter(key)), Some(ValueSource::Window { parameter, .. })) = (r.partition_key(), r.id())
    else {
        return Err("its bucket is not named by a key and a window".into());
    };
    let cv = cx
        .rust
        .containers
        .iter()
        .find(|c| c.name == r.container)
        .ok_or("its container has no Rust module")?;
    let handle = cx
        .handles
        .iter()
        .find(|h| h.name == r.container)
        .ok_or("its container has no handle")?;
    let dv = doc_view(cv, document)?;
    if dv.params.len() != 2 || cv.partition_key_paths.len() != 1 {
        return Err(format!("`{document}` is built from more than its window and key"));
    }
    let field = dv
        .fields
        .iter()
        .find(|f| f.json_name == *items)
        .ok_or_else(|| format!("`{document}` has no `{items}`"))?;
    let item = field
        .ty
        .strip_prefix("::std::vec::Vec<")
        .and_then(|t| t.strip_suffix('>'))
        .ok_or_else(|| format!("`{document}.{items}` is not a list"))?;
    view.field = handle.field.clone();
    view.handle = handle.handle.clone();
    docs.push(format!(
        "It reads the bucket of the item's window (its `{parameter}`'s first characters) and writes it back with the item added, at the version read (read again and retried if it changed meanwhile); the window's first item creates the bucket. An append retried after an unknown outcome may add the item twice."
    ));
    view.docs = docs;
    view.returns = "()".into();
    view.params = vec![ParamView {
        ident: names::field(key),
        ty: "&str".into(),
        sql_name: format!("@{key}"),
        bind: names::field(key),
    }];
    view.append = Some(AppendView {
        bucket: format!("super::{}::{document}", cv.module),
        item: item.to_string(),
        items: items.clone(),
        time: parameter.clone(),
        key: names::field(key),
    });
    Ok(view)
}

/// The row struct of a short form: each selected property typed as in document `dv`.
fn row(dv: &DocView, module: &str, properties: &[String]) -> Result<RowView, String> {
    let mut fields = Vec::new();
    for p in properties {
        let field = match p.as_str() {
            "id" => FieldView {
                ident: "id".into(),
                json_name: "id".into(),
                rename: false,
                ty: STRING.into(),
                optional: false,
                list: false,
                doc: "Document id.".into(),
                serde_with: None,
                schema_with: None,
                attributes: Vec::new(),
                computed: false,
                default: None,
            },
            "type" => continue,
            _ => dv
                .partition_key_field
                .iter()
                .chain(&dv.sub_key_fields)
                .chain(&dv.fields)
                .find(|f| f.json_name == *p)
                .cloned()
                .map(|mut f| {
                    // The document's default function, called from this module.
                    if let Some(d) = &mut f.default {
                        d.path = format!("super::{module}::{}", d.path);
                    }
                    f.into_owned()
                })
                .ok_or_else(|| format!("it selects `{p}`, which `{}` does not have", dv.name))?,
        };
        fields.push(field);
    }
    Ok(RowView {
        name: String::new(),
        fields,
        kind: format!("super::{module}::kind::{}", dv.name),
    })
}

/// A method name for `name` (an access pattern's or a helper's), unique among `taken`:
/// [`cosmap_domain::naming::method_ident`], the rule `cosmap check` refuses clashes by.
fn method(taken: &mut BTreeSet<String>, name: &str) -> String {
    let mut ident = cosmap_domain::naming::method_ident(name);
    while !taken.insert(ident.clone()) {
        ident.push('_');
    }
    ident
}

/// `order_status` → `OrderStatus`.
fn upper_camel_of_snake(snake: &str) -> String {
    snake
        .trim_start_matches("r#")
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|f| f.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The Rust expression of a lease document's partition key value: the lease type at every level.
fn lease_key(levels: usize) -> String {
    let one = "::std::string::String::from(LEASE_TYPE)";
    if levels <= 1 {
        one.to_string()
    } else {
        format!("({})", vec![one; levels].join(", "))
    }
}
