//! Container-level changes: containers added and removed, partition keys, unique
//! keys, indexing policies and default TTLs — between two logical models, or between
//! what is provisioned on an account and a logical model.
//!
//! Both compare [`Settings`]: a container's physical definition reduced to what it
//! means, so that what differs only in form compares equal: unique keys as sets of
//! sets of paths; an indexing policy's mode in lower case, its included and excluded
//! paths as sets (with `/"_etag"/?` always excluded, as Cosmos DB adds it), its
//! composite indexes as a set (each one's paths in order).

use std::collections::{BTreeMap, BTreeSet};

use cosmap_mapper::{
    CompositePath, Container, ContainerDefinition, IndexPath, IndexingPolicy, LogicalModel, PartitionKey,
};

use crate::change::{Change, ChangeKind, KeyDefinitionChange, Subject};
use crate::classify::{self, Place};
use crate::collector::{self, Basis, Collector};
use crate::deployed::DeployedContainer;

/// The path Cosmos DB always excludes from indexing.
const ETAG_PATH: &str = "/\"_etag\"/?";

/// Compares the containers of the two models by name.
pub(crate) fn compare(col: &mut Collector<'_>) {
    let names: BTreeSet<&str> = col
        .old
        .containers
        .iter()
        .chain(&col.new.containers)
        .map(|c| c.name.as_str())
        .collect();
    for name in names {
        let subject = Subject::container(name);
        match (col.old.container(name), col.new.container(name)) {
            (None, Some(_)) => col.push(subject, ChangeKind::ContainerAdded, Place::Stored, Basis::None),
            (Some(_), None) => col.push(subject, ChangeKind::ContainerRemoved, Place::Stored, Basis::None),
            (Some(old), Some(new)) => {
                for kind in changes(&Settings::of_container(old), &Settings::of_container(new)) {
                    // Changes that copy the container are priced by its documents.
                    let basis = match kind {
                        ChangeKind::PartitionKeyChanged { .. } | ChangeKind::UniqueKeysChanged { .. } => {
                            Basis::Container(&old.name)
                        }
                        _ => Basis::None,
                    };
                    col.push(Subject::container(&new.name), kind, Place::Stored, basis);
                }
            }
            (None, None) => {}
        }
    }
}

/// Compares the containers `deployed` on an account with the new model's, by name
/// (the first of two deployed containers with one name counts). Nothing is priced:
/// an account says nothing of its documents' volumes.
pub(crate) fn compare_deployed(deployed: &[DeployedContainer], new: &LogicalModel) -> Vec<Change> {
    let mut old: BTreeMap<&str, &DeployedContainer> = BTreeMap::new();
    for container in deployed {
        old.entry(container.definition.id.as_str()).or_insert(container);
    }
    let names: BTreeSet<&str> = old
        .keys()
        .copied()
        .chain(new.containers.iter().map(|c| c.name.as_str()))
        .collect();
    let mut found = Vec::new();
    for name in names {
        let kinds = match (old.get(name), new.container(name)) {
            (None, Some(_)) => vec![ChangeKind::ContainerAdded],
            (Some(_), None) => vec![ChangeKind::ContainerRemoved],
            (Some(old), Some(new)) => changes(&Settings::of_deployed(old), &Settings::of_container(new)),
            (None, None) => vec![],
        };
        for kind in kinds {
            let assessment = classify::assess(&kind, Place::Stored);
            found.push(Change {
                class: assessment.class,
                subject: Subject::container(name),
                kind,
                explanation: assessment.explanation,
                estimate: None,
            });
        }
    }
    collector::in_order(&mut found);
    found
}

/// A container's physical settings, normalised for comparison.
#[derive(Debug, Clone, PartialEq)]
struct Settings {
    partition_key: PartitionKey,
    /// Each key's paths sorted, the keys sorted.
    unique_keys: Vec<Vec<String>>,
    indexing: IndexingPolicy,
    /// Index kinds beyond what a model declares (spatial, vector, full-text), by name.
    other_indexes: Vec<String>,
    default_ttl: Option<i64>,
}

impl Settings {
    fn of_container(c: &Container) -> Settings {
        Settings {
            partition_key: c.partition_key.clone(),
            unique_keys: unique_keys(c.unique_keys.iter().map(|k| &k.paths)),
            indexing: normalised(&c.indexing_policy),
            other_indexes: Vec::new(),
            default_ttl: c.default_ttl,
        }
    }

    fn of_deployed(d: &DeployedContainer) -> Settings {
        let definition: &ContainerDefinition = &d.definition;
        let mut other_indexes = d.other_indexes.clone();
        other_indexes.sort();
        other_indexes.dedup();
        Settings {
            partition_key: definition.partition_key.clone(),
            unique_keys: unique_keys(
                definition
                    .unique_key_policy
                    .iter()
                    .flat_map(|p| &p.unique_keys)
                    .map(|k| &k.paths),
            ),
            indexing: normalised(&definition.indexing_policy),
            other_indexes,
            default_ttl: definition.default_ttl,
        }
    }
}

fn unique_keys<'a>(keys: impl Iterator<Item = &'a Vec<String>>) -> Vec<Vec<String>> {
    let mut keys: Vec<Vec<String>> = keys
        .map(|paths| {
            let mut paths = paths.clone();
            paths.sort();
            paths
        })
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// `policy` reduced to what it means (see the module's documentation).
fn normalised(policy: &IndexingPolicy) -> IndexingPolicy {
    let paths = |list: &[IndexPath], etag: bool| -> Vec<IndexPath> {
        let mut set: BTreeSet<&str> = list.iter().map(|p| p.path.as_str()).collect();
        if etag {
            set.insert(ETAG_PATH);
        }
        set.into_iter()
            .map(|path| IndexPath { path: path.to_string() })
            .collect()
    };
    let mut composite: Vec<Vec<CompositePath>> = policy
        .composite_indexes
        .iter()
        .map(|index| {
            index
                .iter()
                .map(|p| CompositePath {
                    path: p.path.clone(),
                    order: p.order.to_ascii_lowercase(),
                })
                .collect()
        })
        .collect();
    let key = |index: &Vec<CompositePath>| -> Vec<(String, String)> {
        index.iter().map(|p| (p.path.clone(), p.order.clone())).collect()
    };
    composite.sort_by_key(key);
    composite.dedup();
    IndexingPolicy {
        indexing_mode: policy.indexing_mode.to_ascii_lowercase(),
        automatic: policy.automatic,
        included_paths: paths(&policy.included_paths, false),
        excluded_paths: paths(&policy.excluded_paths, true),
        composite_indexes: composite,
    }
}

/// What differs from `old` to `new`, in a fixed order: partition key, unique keys,
/// indexing policy, default TTL.
fn changes(old: &Settings, new: &Settings) -> Vec<ChangeKind> {
    let mut kinds = Vec::new();
    let (was, is) = (&old.partition_key, &new.partition_key);
    if was != is {
        let definition = (was.kind != is.kind || was.version != is.version).then(|| KeyDefinitionChange {
            old_kind: was.kind.clone(),
            old_version: was.version,
            new_kind: is.kind.clone(),
            new_version: is.version,
        });
        kinds.push(ChangeKind::PartitionKeyChanged {
            old: was.paths.clone(),
            new: is.paths.clone(),
            definition,
        });
    }
    if old.unique_keys != new.unique_keys {
        kinds.push(ChangeKind::UniqueKeysChanged {
            old: old.unique_keys.clone(),
            new: new.unique_keys.clone(),
        });
    }
    if old.indexing != new.indexing || old.other_indexes != new.other_indexes {
        let paths =
            |p: &IndexingPolicy| -> BTreeSet<String> { p.included_paths.iter().map(|p| p.path.clone()).collect() };
        let (was, is) = (paths(&old.indexing), paths(&new.indexing));
        let (mut o, mut n) = (old.indexing.clone(), new.indexing.clone());
        o.included_paths.clear();
        n.included_paths.clear();
        kinds.push(ChangeKind::IndexingChanged {
            included_added: is.difference(&was).cloned().collect(),
            included_removed: was.difference(&is).cloned().collect(),
            other: o != n || old.other_indexes != new.other_indexes,
        });
    }
    if old.default_ttl != new.default_ttl {
        kinds.push(ChangeKind::TtlChanged {
            old: old.default_ttl,
            new: new.default_ttl,
        });
    }
    kinds
}
