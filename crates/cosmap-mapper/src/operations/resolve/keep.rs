//! The requests that keep derived data current after a write: ancestors lists,
//! extended references, counts and subsets.

use super::*;

/// The requests that keep the ancestors lists of `d`'s descendants current after it
/// is replaced (renamed or moved): a query for the documents whose list holds it,
/// across partitions, and a replace of each (its key and id from the document found).
pub(super) fn refresh_ancestors(c: &Container, d: &DocumentType) -> Vec<Request> {
    let Some(identity) = identity_of(d) else {
        return Vec::new();
    };
    let mut requests = Vec::new();
    // Kept in sync (reference data that never changes has no sync).
    let synced = d
        .references
        .iter()
        .filter(|r| r.extended.as_ref().is_some_and(|e| e.sync.is_some()));
    for (r, a) in synced.filter_map(|r| Some((r, r.ancestry.as_ref()?))) {
        let purpose = Purpose::SyncAncestors {
            document: d.name.clone(),
            element: d.source.clone(),
            property: r.name.clone(),
            reference: a.parent.clone(),
        };
        // One row per document: an id appears once in a list. (A join, as `ARRAY_CONTAINS`
        // with a partial match is not run by every engine.)
        let sql = format!(
            "SELECT VALUE c FROM c JOIN a IN {} WHERE a.id = @{identity} AND c.type = {}",
            sql::property("c", &r.name),
            sql::literal(&d.discriminator)
        );
        let query = Action::query(None, sql, vec![identity.to_string()]);
        let index_paths = vec![format!("/{}/[]/id/?", r.name), "/type/?".to_string()];
        requests.extend(find_and_rewrite(c, d, query, index_paths, purpose));
    }
    requests
}

/// A sync's two requests: `query` for the `d` documents (in `c`) that hold what
/// changed, then a replace of each one found (its key and id from the document).
pub(super) fn find_and_rewrite(
    c: &Container,
    d: &DocumentType,
    query: Action,
    index_paths: Vec<String>,
    purpose: Purpose,
) -> [Request; 2] {
    let levels = c.partition_key_properties();
    let own = |level: &str| ValueSource::Property(PropertyPath::new([level]));
    let rewrite = Action::Write {
        write: WriteKind::Replace,
        partition_key: key_from(levels.iter().map(|l| own(l)).collect(), levels.len()),
        id: ValueSource::Property(PropertyPath::new(["id"])),
    };
    [
        Request {
            index_paths,
            ..Request::new(query, &c.name, &d.name, purpose.clone())
        },
        Request::new(rewrite, &c.name, &d.name, purpose),
    ]
}

/// The requests that keep the extended references to root `target` current, as a write
/// of the root sends them: for each holder, the query that finds the holders and the
/// replace of each one found. For the change-feed worker of a root that no access
/// pattern writes (no operation holds these requests).
pub fn extended_reference_sync(containers: &[Container], target: &DocumentType) -> Vec<Request> {
    let mut requests = refresh_extended(&keepers(containers), target);
    crate::operations::live::leave_out_expiring_in(requests.iter_mut(), containers);
    requests
}

/// The requests the change-feed workers that keep extended references current send,
/// whether or not an access pattern writes their roots: what the indexing must cover.
pub fn worker_queries(containers: &[Container]) -> Vec<Request> {
    let keepers = keepers(containers);
    let targets: std::collections::BTreeSet<&str> = keepers
        .iter()
        .flat_map(|(_, d)| &d.references)
        .filter(|r| r.extended.as_ref().is_some_and(|e| e.sync.is_some()))
        .map(|r| r.target.as_str())
        .collect();
    let roots = containers
        .iter()
        .flat_map(|c| c.document_types.iter())
        .filter(|d| d.role == Role::Root && targets.contains(d.source.as_str()));
    roots
        .flat_map(|root| extended_reference_sync(containers, root))
        .collect()
}

/// The requests that keep extended references to root `target` current after it is
/// replaced: for each document type that stores some of its attributes beside a
/// reference to it (and is kept in sync), a query for those that refer to it, in
/// one partition when the holders are partitioned by that reference, and a replace
/// of each one found (its key and id from the document found).
pub(super) fn refresh_extended(keepers: &Keepers<'_>, target: &DocumentType) -> Vec<Request> {
    let Some(identity) = identity_of(target) else {
        return Vec::new();
    };
    let mut requests = Vec::new();
    let holders = keepers
        .iter()
        .filter(|(c, h)| c.kind == ContainerKind::Aggregate && matches!(h.role, Role::Root | Role::Entity));
    for &(c, h) in holders {
        let synced = |r: &&crate::logical_model::Reference| {
            r.target == target.source && r.extended.as_ref().is_some_and(|e| e.sync.is_some())
        };
        for r in h.references.iter().filter(synced) {
            let purpose = Purpose::SyncExtendedReference {
                document: h.name.clone(),
                reference: r.name.clone(),
                target: target.source.clone(),
            };
            // Partitioned by the reference, not by its own identity (a tree's parent link).
            let by_reference = !r.many
                && r.target != h.source
                && c.sub_partition_key_properties.is_empty()
                && c.partition_key_property == r.target_identity;
            // A list of references: one row per holder, as an id appears once in a list
            // (a join: `ARRAY_CONTAINS` with a partial match is not run by every engine).
            let (sql, index) = if r.many {
                let sql = format!(
                    "SELECT VALUE c FROM c JOIN a IN {} WHERE a.id = @{identity} AND c.type = {}",
                    sql::property("c", &r.name),
                    sql::literal(&h.discriminator)
                );
                (sql, format!("/{}/[]/id/?", r.name))
            } else {
                let sql = format!(
                    "SELECT * FROM c WHERE {} = @{identity} AND c.type = {}",
                    sql::path("c", &[r.name.clone(), "id".to_string()]),
                    sql::literal(&h.discriminator)
                );
                (sql, format!("/{}/id/?", r.name))
            };
            let partition_key = by_reference.then(|| ValueSource::Parameter(identity.to_string()));
            let query = Action::query(partition_key, sql, vec![identity.to_string()]);
            let index_paths = vec![index, "/type/?".to_string()];
            requests.extend(find_and_rewrite(c, h, query, index_paths, purpose));
        }
    }
    requests
}

/// The requests that keep the counts of `child` documents (in `c`, written with
/// partition key `key`) on their parents (`computedValue`).
pub(super) fn update_counts(
    keepers: &Keepers<'_>,
    c: &Container,
    child: &DocumentType,
    key: &ValueSource,
) -> Vec<Request> {
    let mut requests = Vec::new();
    // A copy or feed of the parent carries the count its source keeps: the copy's own
    // sync (from the source's change feed) brings each new count, in the copy's key.
    for &(pc, pd) in keepers.iter().filter(|(_, d)| d.role != Role::Copy) {
        for v in pd
            .computed
            .iter()
            .filter(|v| v.container == c.name && v.document_type == child.name)
        {
            let purpose = Purpose::UpdateCount {
                document: pd.name.clone(),
                property: v.name.clone(),
                element: v.counts.clone(),
            };
            let parent = Parent::new(pc, pd, &v.kept);
            requests.extend(parent.kept_by(c, child, key, purpose, |r, identity, by_reference| {
                let sql = format!(
                    "SELECT VALUE {} FROM c WHERE {} = @{identity} AND c.type = {}",
                    if by_reference { "COUNT(1)" } else { "1" },
                    sql::path("c", &[r.name.clone(), "id".to_string()]),
                    sql::literal(&child.discriminator)
                );
                (sql, Vec::new(), Vec::new())
            }));
        }
    }
    requests
}

/// The requests that keep the subsets of `child` documents (in `c`, written with
/// partition key `key`) in their parents (`subset`).
pub(super) fn update_subsets(
    keepers: &Keepers<'_>,
    c: &Container,
    child: &DocumentType,
    key: &ValueSource,
) -> Vec<Request> {
    let mut requests = Vec::new();
    for &(pc, pd) in keepers {
        for e in &pd.embedded {
            let Some(of) = e
                .subset
                .as_ref()
                .filter(|of| of.container == c.name && of.document_type == child.name)
            else {
                continue;
            };
            let purpose = Purpose::UpdateSubset {
                document: pd.name.clone(),
                property: e.name.clone(),
                element: e.source.clone(),
            };
            let parent = Parent::new(pc, pd, &of.kept);
            requests.extend(parent.kept_by(c, child, key, purpose, |r, identity, _| {
                let order: Vec<String> = of
                    .sort
                    .iter()
                    .map(|s| match s.strip_prefix('-') {
                        Some(a) => format!("{} DESC", sql::property("c", a)),
                        None => sql::property("c", s),
                    })
                    .collect();
                let sql = format!(
                    "SELECT TOP {} * FROM c WHERE {} = @{identity} AND c.type = {} ORDER BY {}",
                    of.newest,
                    sql::path("c", &[r.name.clone(), "id".to_string()]),
                    sql::literal(&child.discriminator),
                    order.join(", ")
                );
                let paths = of
                    .sort
                    .iter()
                    .map(|s| format!("/{}/?", s.trim_start_matches('-')))
                    .collect();
                // A multi-property ORDER BY needs its composite index.
                let order_by = if of.sort.len() > 1 {
                    of.sort
                        .iter()
                        .map(|s| (format!("/{}", s.trim_start_matches('-')), s.starts_with('-')))
                        .collect()
                } else {
                    Vec::new()
                };
                (sql, paths, order_by)
            }));
        }
    }
    requests
}

/// A parent document that keeps a value derived from its children (a count, a
/// subset), and how it is kept.
pub(super) struct Parent<'a> {
    c: &'a Container,
    d: &'a DocumentType,
    kept: &'a Keeping,
}

impl<'a> Parent<'a> {
    /// `d` (in `c`), keeping a value as `kept` says.
    fn new(c: &'a Container, d: &'a DocumentType, kept: &'a Keeping) -> Self {
        Parent { c, d, kept }
    }

    /// The requests that keep the value after a `child` (in `c`, written with key
    /// `key`) is written: in the same batch, a rewrite of the parent in the child's
    /// logical partition (its id from the child's parent link or the root's
    /// identity); from the change feed, the `query` (SQL, index paths, composite
    /// order) over the children that refer to the parent, then its rewrite (its key
    /// and id from the child's reference).
    fn kept_by(
        &self,
        c: &Container,
        child: &DocumentType,
        key: &ValueSource,
        purpose: Purpose,
        query: impl Fn(&crate::logical_model::Reference, &str, bool) -> (String, Vec<String>, Vec<(String, bool)>),
    ) -> Vec<Request> {
        let rewrite = |partition_key: ValueSource, id: ValueSource| {
            let action = Action::Write {
                write: WriteKind::Replace,
                partition_key,
                id,
            };
            Request::new(action, &self.c.name, &self.d.name, purpose.clone())
        };
        let identity = identity_of(self.d).unwrap_or("id").to_string();
        match self.kept {
            Keeping::Batch => {
                let id = match &child.parent {
                    Some(link) if link.entity == self.d.source => link.property.clone(),
                    _ => identity,
                };
                vec![rewrite(key.clone(), ValueSource::Parameter(id))]
            }
            Keeping::ChangeFeed { .. } => {
                let Some(r) = child.references.iter().find(|r| r.target == self.d.source && !r.many) else {
                    return Vec::new();
                };
                let by_reference =
                    c.sub_partition_key_properties.is_empty() && c.partition_key_property == r.target_identity;
                let (sql, paths, order_by) = query(r, &identity, by_reference);
                let from = |leaf: &str| ValueSource::Property(PropertyPath::new([r.name.as_str(), leaf]));
                let mut index_paths = vec![format!("/{}/id/?", r.name), "/type/?".to_string()];
                index_paths.extend(paths);
                vec![
                    Request {
                        action: Action::query(by_reference.then(|| from("id")), sql, vec![identity]),
                        container: c.name.clone(),
                        document_types: vec![child.name.clone()],
                        purpose: purpose.clone(),
                        index_paths,
                        order_by,
                    },
                    rewrite(from("partitionKey"), from("id")),
                ]
            }
        }
    }
}
