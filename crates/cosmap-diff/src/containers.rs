//! Container-level changes: containers added and removed, partition keys, unique
//! keys, indexing policies and default TTLs.

use std::collections::BTreeSet;

use cosmap_mapper::Container;

use crate::change::{ChangeKind, Subject};
use crate::classify::Place;
use crate::collector::{Basis, Collector};

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
            (Some(old), Some(new)) => settings(col, old, new),
            (None, None) => {}
        }
    }
}

/// What differs in the definition of a container both models have.
fn settings(col: &mut Collector<'_>, old: &Container, new: &Container) {
    let subject = Subject::container(&new.name);
    let basis = Basis::Container(&old.name);
    if old.partition_key != new.partition_key {
        let kind = ChangeKind::PartitionKeyChanged {
            old: old.partition_key.paths.clone(),
            new: new.partition_key.paths.clone(),
        };
        col.push(subject.clone(), kind, Place::Stored, basis);
    }
    let keys = |c: &Container| -> Vec<Vec<String>> {
        let mut keys: Vec<Vec<String>> = c.unique_keys.iter().map(|k| k.paths.clone()).collect();
        keys.sort();
        keys
    };
    let (old_keys, new_keys) = (keys(old), keys(new));
    if old_keys != new_keys {
        let kind = ChangeKind::UniqueKeysChanged {
            old: old_keys,
            new: new_keys,
        };
        col.push(subject.clone(), kind, Place::Stored, basis);
    }
    if old.indexing_policy != new.indexing_policy {
        let paths = |c: &Container| -> BTreeSet<String> {
            c.indexing_policy
                .included_paths
                .iter()
                .map(|p| p.path.clone())
                .collect()
        };
        let (was, is) = (paths(old), paths(new));
        let (mut o, mut n) = (old.indexing_policy.clone(), new.indexing_policy.clone());
        o.included_paths.clear();
        n.included_paths.clear();
        let kind = ChangeKind::IndexingChanged {
            included_added: is.difference(&was).cloned().collect(),
            included_removed: was.difference(&is).cloned().collect(),
            other: o != n,
        };
        col.push(subject.clone(), kind, Place::Stored, Basis::None);
    }
    if old.default_ttl != new.default_ttl {
        let kind = ChangeKind::TtlChanged {
            old: old.default_ttl,
            new: new.default_ttl,
        };
        col.push(subject, kind, Place::Stored, Basis::None);
    }
}
