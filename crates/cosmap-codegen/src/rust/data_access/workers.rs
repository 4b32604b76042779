//! The change-feed workers' views: the trim of a feed, the workers that rewrite
//! extended references' holders and trees' descendants, and those that keep counts
//! and subsets on parents.

use super::*;

/// The trim of feed `d` in `c`: its partition's documents, newest first by the order
/// of the read it serves.
pub(super) fn trim_view(
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
pub(super) enum Rewrites {
    Holders,
    Descendants,
}

/// The worker that keeps `d`'s extended reference `r` (its holders), or the ancestors
/// list `r` of the tree `d` (its descendants), current: the query that finds them is
/// the one the changed document's writes send (from their operations).
pub(super) fn rewriting_worker(
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
        attributes,
        keys,
    })
}

/// `@a`, `@b`: a query's parameters as the runtime binds them.
pub(super) fn sql_parameters(parameters: &[String]) -> Vec<String> {
    parameters.iter().map(|p| format!("@{p}")).collect()
}

/// The worker that keeps `d`'s count or subset `property` current from its children's
/// change feed: the children are found by the query the children's writes send.
pub(super) fn kept_worker(
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
        Some(e) => subset_items(e),
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
        kept,
    })
}

/// Whether copy `d`'s count or subset kept by `sync` is kept on the copy's source: its
/// sync rewrites the source (as the source's own value does), whose worker keeps it,
/// and the copy's worker carries it into the copy with the rest of the source.
pub(super) fn kept_on_the_source(d: &DocumentType, sync: &cosmap_mapper::SyncPlan) -> bool {
    d.copy_of.as_ref().is_some_and(|of| {
        sync.actions
            .iter()
            .all(|a| a.container == of.container && a.document_type == of.document_type)
    })
}

impl FeedWorker {
    /// The worker reading `source`'s changes of type `discriminator` and writing into
    /// `target`, its lease `lease_id` (named later, when every name is known).
    pub(super) fn new(
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
            lease_keys,
        })
    }
}
