//! Comparing a container as the server returned it (raw JSON, read leniently: any
//! shape, no panic) with the model's definition.
//!
//! Normalisation, so that an unchanged container compares equal on every server:
//! a missing partition key `kind` is `Hash` and a missing `version` is 1 (Cosmos
//! DB's defaults); unique keys compare as sets of sets of paths; indexing policies
//! compare mode (case-insensitive), `automatic`, included and excluded paths as
//! sets (with `/"_etag"/?` always excluded, as Cosmos DB adds it) and the other
//! index lists; a missing `defaultTtl` is off.

use cosmap_mapper::ContainerDefinition;
use serde_json::{json, Map, Value};

use crate::plan::{ContainerAction, Difference, Property};

/// The outcome of comparing one container.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Comparison {
    pub action: ContainerAction,
    pub differences: Vec<Difference>,
    /// The compared part of the server's definition, as the server sent it.
    pub current: Value,
}

const ETAG_PATH: &str = "/\"_etag\"/?";

/// Compares the server's container `current` with `wanted`.
pub(crate) fn compare(wanted: &ContainerDefinition, current: &Value) -> Comparison {
    let wanted_json = serde_json::to_value(wanted).unwrap_or(Value::Null);
    let pk = current.get("partitionKey");
    let mut differences = vec![];
    let mut check = |property: Property, current: Value, wanted: Value| {
        if current != wanted {
            differences.push(Difference {
                property,
                current,
                wanted,
                in_place: property.in_place(),
                handling: property.handling(),
            });
        }
    };
    check(
        Property::PartitionKeyPaths,
        pk.and_then(|pk| pk.get("paths")).cloned().unwrap_or(Value::Null),
        json!(wanted.partition_key.paths),
    );
    check(
        Property::PartitionKeyKind,
        pk.and_then(|pk| pk.get("kind"))
            .cloned()
            .unwrap_or_else(|| json!("Hash")),
        json!(wanted.partition_key.kind),
    );
    check(
        Property::PartitionKeyVersion,
        number(pk.and_then(|pk| pk.get("version"))).unwrap_or_else(|| json!(1)),
        json!(wanted.partition_key.version),
    );
    check(
        Property::UniqueKeys,
        unique_keys(current.get("uniqueKeyPolicy")),
        unique_keys(wanted_json.get("uniqueKeyPolicy")),
    );
    let current_indexing = indexing_policy(current.get("indexingPolicy"));
    let wanted_indexing = indexing_policy(wanted_json.get("indexingPolicy"));
    if current_indexing != wanted_indexing {
        check(
            Property::IndexingPolicy,
            current.get("indexingPolicy").cloned().unwrap_or(Value::Null),
            wanted_json.get("indexingPolicy").cloned().unwrap_or(Value::Null),
        );
    }
    check(
        Property::DefaultTtl,
        number(current.get("defaultTtl")).unwrap_or(Value::Null),
        wanted.default_ttl.map_or(Value::Null, |ttl| json!(ttl)),
    );
    let action = if differences.iter().any(|d| !d.in_place) {
        ContainerAction::Drift
    } else if differences.is_empty() {
        ContainerAction::Unchanged
    } else {
        ContainerAction::Differs
    };
    let mut shown = Map::new();
    for key in ["partitionKey", "indexingPolicy", "uniqueKeyPolicy", "defaultTtl"] {
        if let Some(value) = current.get(key) {
            shown.insert(key.to_string(), value.clone());
        }
    }
    Comparison {
        action,
        differences,
        current: Value::Object(shown),
    }
}

/// An integral JSON number as an integer (`2.0` and `2` compare equal); anything
/// else unchanged.
fn number(value: Option<&Value>) -> Option<Value> {
    let value = value?;
    if value.is_null() {
        return None;
    }
    Some(match value.as_f64() {
        Some(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => json!(n as i64),
        _ => value.clone(),
    })
}

/// Unique keys as a sorted list of sorted path lists; a malformed policy is kept
/// as it is (and so differs).
fn unique_keys(policy: Option<&Value>) -> Value {
    let Some(policy) = policy.filter(|p| !p.is_null()) else {
        return json!([]);
    };
    let parsed: Option<Vec<Vec<String>>> = policy.get("uniqueKeys").and_then(Value::as_array).and_then(|keys| {
        keys.iter()
            .map(|key| {
                let mut paths: Vec<String> = key
                    .get("paths")?
                    .as_array()?
                    .iter()
                    .map(|p| p.as_str().map(str::to_string))
                    .collect::<Option<_>>()?;
                paths.sort();
                Some(paths)
            })
            .collect()
    });
    match parsed {
        Some(mut keys) => {
            keys.sort();
            json!(keys)
        }
        None => policy.clone(),
    }
}

/// An indexing policy reduced to what it means.
fn indexing_policy(policy: Option<&Value>) -> Value {
    let Some(policy) = policy.filter(|p| p.is_object()) else {
        // No policy: Cosmos DB's default.
        return indexing_policy(Some(&json!({"includedPaths": [{"path": "/*"}]})));
    };
    let mode = policy
        .get("indexingMode")
        .and_then(Value::as_str)
        .unwrap_or("consistent")
        .to_ascii_lowercase();
    let automatic = policy.get("automatic").and_then(Value::as_bool).unwrap_or(true);
    let mut excluded = paths(policy.get("excludedPaths"));
    if !excluded.iter().any(|p| p == ETAG_PATH) {
        excluded.push(ETAG_PATH.to_string());
        excluded.sort();
    }
    let list = |key: &str| match policy.get(key) {
        None | Some(Value::Null) => json!([]),
        Some(value) => value.clone(),
    };
    json!({
        "indexingMode": mode,
        "automatic": automatic,
        "includedPaths": paths(policy.get("includedPaths")),
        "excludedPaths": excluded,
        "compositeIndexes": list("compositeIndexes"),
        "spatialIndexes": list("spatialIndexes"),
        "vectorIndexes": list("vectorIndexes"),
        "fullTextIndexes": list("fullTextIndexes"),
    })
}

/// The `path` of each entry, sorted and deduplicated.
fn paths(list: Option<&Value>) -> Vec<String> {
    let mut paths: Vec<String> = list
        .and_then(Value::as_array)
        .map(|entries| {
            entries
                .iter()
                .filter_map(|e| e.get("path").and_then(Value::as_str).map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    paths.dedup();
    paths
}

#[cfg(test)]
pub(crate) mod tests {
    use cosmap_mapper::{IndexPath, IndexingPolicy, PartitionKey, UniqueKey, UniqueKeyPolicy};

    use super::*;

    fn wanted() -> ContainerDefinition {
        ContainerDefinition {
            id: "Account".into(),
            partition_key: PartitionKey::on("accountId"),
            indexing_policy: IndexingPolicy::default(),
            unique_key_policy: Some(UniqueKeyPolicy {
                unique_keys: vec![UniqueKey {
                    paths: vec!["/email".into(), "/type".into()],
                }],
            }),
            default_ttl: None,
        }
    }

    /// What Azure returns for the container `wanted()` creates (system fields and
    /// extra policies included, paths reordered).
    pub(crate) fn as_azure_returns_it() -> Value {
        json!({
            "id": "Account",
            "indexingPolicy": {
                "indexingMode": "Consistent",
                "automatic": true,
                "includedPaths": [{"path": "/*", "indexes": []}],
                "excludedPaths": [{"path": "/\"_etag\"/?"}],
                "compositeIndexes": [],
                "spatialIndexes": []
            },
            "partitionKey": {"paths": ["/accountId"], "kind": "Hash", "version": 2.0},
            "uniqueKeyPolicy": {"uniqueKeys": [{"paths": ["/type", "/email"]}]},
            "conflictResolutionPolicy": {"mode": "LastWriterWins", "conflictResolutionPath": "/_ts"},
            "geospatialConfig": {"type": "Geography"},
            "_rid": "abc=", "_ts": 1, "_self": "dbs/x/colls/y/", "_etag": "\"0\""
        })
    }

    #[test]
    fn the_same_container_is_unchanged_whatever_the_server_adds() {
        let comparison = compare(&wanted(), &as_azure_returns_it());
        assert_eq!(comparison.differences, vec![]);
        assert_eq!(comparison.action, ContainerAction::Unchanged);
        assert!(comparison.current.get("_rid").is_none());
        assert!(comparison.current.get("partitionKey").is_some());
    }

    #[test]
    fn etag_exclusion_is_implicit() {
        let mut current = as_azure_returns_it();
        current["indexingPolicy"]["excludedPaths"] = json!([]);
        assert_eq!(compare(&wanted(), &current).action, ContainerAction::Unchanged);
    }

    #[test]
    fn a_changed_partition_key_is_drift() {
        let mut current = as_azure_returns_it();
        current["partitionKey"]["paths"] = json!(["/id"]);
        let comparison = compare(&wanted(), &current);
        assert_eq!(comparison.action, ContainerAction::Drift);
        assert_eq!(
            comparison.differences,
            vec![Difference {
                property: Property::PartitionKeyPaths,
                current: json!(["/id"]),
                wanted: json!(["/accountId"]),
                in_place: false,
                handling: crate::plan::Handling::Refused,
            }]
        );
    }

    #[test]
    fn version_1_kind_and_unique_keys_are_drift() {
        let mut current = as_azure_returns_it();
        current["partitionKey"] = json!({"paths": ["/accountId"], "kind": "Hash"});
        current["uniqueKeyPolicy"] = json!({"uniqueKeys": []});
        let comparison = compare(&wanted(), &current);
        assert_eq!(comparison.action, ContainerAction::Drift);
        let properties: Vec<_> = comparison.differences.iter().map(|d| d.property).collect();
        assert_eq!(properties, [Property::PartitionKeyVersion, Property::UniqueKeys]);
        assert_eq!(comparison.differences[0].current, json!(1));
    }

    #[test]
    fn indexing_policy_and_ttl_differ_in_place() {
        let mut current = as_azure_returns_it();
        current["indexingPolicy"]["excludedPaths"] = json!([{"path": "/big/*"}, {"path": "/\"_etag\"/?"}]);
        current["defaultTtl"] = json!(3600);
        let comparison = compare(&wanted(), &current);
        assert_eq!(comparison.action, ContainerAction::Differs);
        let properties: Vec<_> = comparison.differences.iter().map(|d| d.property).collect();
        assert_eq!(properties, [Property::IndexingPolicy, Property::DefaultTtl]);
        assert!(comparison.differences.iter().all(|d| d.in_place));

        let mut with_index = wanted();
        with_index
            .indexing_policy
            .included_paths
            .push(IndexPath { path: "/name/?".into() });
        assert_eq!(
            compare(&with_index, &as_azure_returns_it()).action,
            ContainerAction::Differs
        );
    }

    #[test]
    fn any_answer_is_compared_without_panicking() {
        for current in [
            json!(null),
            json!([]),
            json!("text"),
            json!({}),
            json!({"partitionKey": 7, "indexingPolicy": [], "uniqueKeyPolicy": "x", "defaultTtl": "y"}),
            json!({"partitionKey": {"paths": [1, null], "version": "2"}, "uniqueKeyPolicy": {"uniqueKeys": [{"paths": 3}]}}),
            json!({"indexingPolicy": {"includedPaths": [{"nopath": 1}, 5], "automatic": "yes"}, "defaultTtl": 1e300}),
        ] {
            let comparison = compare(&wanted(), &current);
            assert_eq!(comparison.action, ContainerAction::Drift, "{current}");
        }
    }
}
