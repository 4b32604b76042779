//! Indexing policy from access patterns: each container indexes only the paths
//! its queries filter and sort on (plus the partition key and `type`), excludes
//! the rest — cheaper writes — and gets a composite index for each
//! multi-property `ORDER BY`. (`id` and `_ts` are always indexed by Cosmos DB.)

use std::borrow::Cow;
use std::collections::BTreeSet;

use cosmap_domain::NameMap;

use crate::decision::{Rule, Trace};
use crate::logical_model::Container;
use crate::operations::{Operation, OperationKind, Request};
use crate::physical::{CompositePath, IndexPath};

/// What the change-feed workers query, named so in the indexing decisions.
const WORKERS: &str = "the change-feed workers";

/// Narrows each container's indexing policy to what `operations` and the change-feed
/// workers (`workers`: their queries) query.
pub(crate) fn apply(containers: &mut [Container], operations: &[Operation], workers: &[Request], trace: &mut Trace) {
    // Only looked up, once per container (never iterated): its order reaches no output.
    let mut reads: Reads<'_> = NameMap::default();
    for op in operations {
        for r in op.requests.iter().filter(|r| r.kind() != OperationKind::Write) {
            reads
                .entry(r.container.as_str())
                .or_default()
                .push((op.pattern.as_str(), r));
        }
    }
    for r in workers.iter().filter(|r| r.kind() != OperationKind::Write) {
        reads.entry(r.container.as_str()).or_default().push((WORKERS, r));
    }
    narrow(containers, &reads, trace);
}

/// The reads of each container (with their patterns), by container name.
type Reads<'o> = NameMap<&'o str, Vec<(&'o str, &'o Request)>>;

/// Narrows each of `containers`' indexing policies to what `reads` query, recording
/// why in `trace`.
fn narrow(containers: &mut [Container], reads: &Reads<'_>, trace: &mut Trace) {
    for c in containers.iter_mut() {
        // The requests' paths are borrowed, and copied into the policy once each.
        let mut paths: BTreeSet<Cow<'_, str>> = BTreeSet::new();
        paths.extend(
            c.partition_key_properties()
                .iter()
                .map(|l| Cow::Owned(format!("/{l}/?"))),
        );
        paths.insert(Cow::Borrowed("/type/?"));
        let mut composites: BTreeSet<&[(String, bool)]> = BTreeSet::new();
        let mut users: BTreeSet<&str> = BTreeSet::new();
        for &(pattern, r) in reads.get(c.name.as_str()).map(Vec::as_slice).unwrap_or_default() {
            paths.extend(r.index_paths.iter().map(|p| Cow::Borrowed(p.as_str())));
            if r.order_by.len() > 1 {
                composites.insert(&r.order_by);
            }
            if !r.index_paths.is_empty() {
                users.insert(pattern);
            }
        }
        let listed: Vec<&str> = paths.iter().map(|p| p.as_ref()).collect();
        let policy = &mut c.indexing_policy;
        policy.included_paths = listed.iter().map(|p| IndexPath { path: p.to_string() }).collect();
        policy.excluded_paths = vec![
            IndexPath { path: "/*".to_string() },
            IndexPath {
                path: "/\"_etag\"/?".to_string(),
            },
        ];
        policy.composite_indexes = composites
            .iter()
            .map(|paths| {
                paths
                    .iter()
                    .map(|(path, descending)| CompositePath {
                        path: path.clone(),
                        order: if *descending { "descending" } else { "ascending" }.to_string(),
                    })
                    .collect()
            })
            .collect();
        let decision = trace.record(
            Rule::Indexing,
            c.name.as_str(),
            format!("indexes {}", listed.join(", ")),
            if users.is_empty() {
                "no access pattern queries this container: only the partition key and `type` are indexed, which makes every write cheaper".to_string()
            } else {
                format!(
                    "the paths that {} filter or sort on, plus the partition key and `type`; every other path is excluded, which makes writes cheaper (`--index-all` keeps Cosmos DB's default)",
                    users.iter().map(|u| format!("`{u}`")).collect::<Vec<_>>().join(", ")
                )
            },
        );
        decision.with("includedPaths", listed);
        if !composites.is_empty() {
            decision.with("compositeIndexes", composites.len());
        }
    }
}
