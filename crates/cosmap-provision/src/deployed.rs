//! What is provisioned: every container of the database, its definition read from
//! the server's JSON into the model's shapes ([`ContainerDefinition`]), for a
//! comparison with a model (`cosmap diff NEW --endpoint`). Reads only: the database,
//! the list of its containers, then each container (the same read as [`crate::plan`]).
//!
//! The server's JSON is read leniently, as [`crate::plan`] compares it: what Cosmos DB
//! leaves out has its default (a partition key's kind `Hash` and version 1 — a legacy
//! container without a partition key has no paths; no indexing policy is Cosmos DB's
//! default one; no unique key policy is none; no `defaultTtl` is off), an integral
//! `2.0` is `2`, unknown fields and an included path's legacy `indexes` are ignored.
//! A field Cosmos DB would not send in that shape (paths that are not strings, a TTL
//! that is not an integer) is a [`ProvisionError::BadAnswer`] naming it: never a panic,
//! never a guess. The comparison itself (which differences in form are none: paths as
//! sets, `_etag` excluded, the mode's case) is the caller's.

use cosmap_mapper::{
    CompositePath, ContainerDefinition, IndexPath, IndexingPolicy, PartitionKey, UniqueKey, UniqueKeyPolicy,
};
use futures::StreamExt;
use serde_json::{Map, Value};

use crate::client::Connection;
use crate::error::ProvisionError;

/// A container as the server holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerContainer {
    /// Its definition, read into the model's shapes.
    pub definition: ContainerDefinition,
    /// The indexing policy's lists a [`ContainerDefinition`] cannot hold that are not
    /// empty on the server (`spatialIndexes`, `vectorIndexes`, `fullTextIndexes`), in
    /// that order: a model never declares them, so such a policy differs from any
    /// model's.
    pub other_indexes: Vec<String>,
}

/// The indexing policy's lists a model never declares.
const OTHER_INDEXES: [&str; 3] = ["spatialIndexes", "vectorIndexes", "fullTextIndexes"];

/// Every container of the connection's database, by id; `None` when the database
/// does not exist. A container deleted between the listing and its read is left out.
pub async fn read_deployed(connection: &Connection) -> Result<Option<Vec<ServerContainer>>, ProvisionError> {
    if !crate::plan::database_exists(connection).await? {
        return Ok(None);
    }
    let Some(ids) = container_ids(connection).await? else {
        return Ok(None);
    };
    let mut containers = Vec::with_capacity(ids.len());
    for id in ids {
        let Some(value) = connection.read_container(&id).await? else {
            continue;
        };
        let container = read_container(&id, &value)
            .map_err(|message| connection.bad_answer(&format!("read container `{id}`"), &message))?;
        containers.push(container);
    }
    Ok(Some(containers))
}

/// The ids of the database's containers, sorted; `None` when the database is gone.
async fn container_ids(connection: &Connection) -> Result<Option<Vec<String>>, ProvisionError> {
    let database = &connection.database_client();
    let operation = format!("list the containers of database `{}`", connection.database());
    connection
        .request(&operation, &[404], || async move {
            let mut containers = database.query_containers("SELECT * FROM root", None).await?;
            let mut ids = Vec::new();
            while let Some(container) = containers.next().await {
                ids.push(container?.id.to_string());
            }
            ids.sort();
            ids.dedup();
            Ok(ids)
        })
        .await
}

/// Reads the server's JSON `value` of container `id` (see the module's
/// documentation); the error names the field that is not in Cosmos DB's shape.
pub fn read_container(id: &str, value: &Value) -> Result<ServerContainer, String> {
    let object = value.as_object().ok_or("not a JSON object")?;
    let partition_key = match present(object, "partitionKey") {
        None => PartitionKey {
            paths: Vec::new(),
            kind: "Hash".to_string(),
            version: 1,
        },
        Some(key) => {
            let key = key.as_object().ok_or("`partitionKey` is not an object")?;
            PartitionKey {
                paths: strings(present(key, "paths"), "partitionKey.paths")?,
                kind: match present(key, "kind") {
                    None => "Hash".to_string(),
                    Some(kind) => kind.as_str().ok_or("`partitionKey.kind` is not text")?.to_string(),
                },
                version: match present(key, "version").map(integer) {
                    None => 1,
                    Some(Some(version)) => {
                        u32::try_from(version).map_err(|_| "`partitionKey.version` is out of range".to_string())?
                    }
                    Some(None) => return Err("`partitionKey.version` is not an integer".to_string()),
                },
            }
        }
    };
    let (indexing_policy, other_indexes) = match present(object, "indexingPolicy") {
        None => (IndexingPolicy::default(), Vec::new()),
        Some(policy) => indexing_policy(policy)?,
    };
    let unique_keys = match present(object, "uniqueKeyPolicy") {
        None => Vec::new(),
        Some(policy) => {
            let policy = policy.as_object().ok_or("`uniqueKeyPolicy` is not an object")?;
            let keys = match present(policy, "uniqueKeys") {
                None => &[][..],
                Some(keys) => keys.as_array().ok_or("`uniqueKeyPolicy.uniqueKeys` is not a list")?,
            };
            keys.iter()
                .map(|key| {
                    Ok(UniqueKey {
                        paths: strings(key.get("paths"), "uniqueKeyPolicy.uniqueKeys[].paths")?,
                    })
                })
                .collect::<Result<_, String>>()?
        }
    };
    let default_ttl = match present(object, "defaultTtl") {
        None => None,
        Some(ttl) => Some(integer(ttl).ok_or("`defaultTtl` is not an integer")?),
    };
    Ok(ServerContainer {
        definition: ContainerDefinition {
            id: id.to_string(),
            partition_key,
            indexing_policy,
            unique_key_policy: (!unique_keys.is_empty()).then_some(UniqueKeyPolicy { unique_keys }),
            default_ttl,
        },
        other_indexes,
    })
}

/// The indexing policy and the names of its non-empty lists a model never declares.
fn indexing_policy(policy: &Value) -> Result<(IndexingPolicy, Vec<String>), String> {
    let policy = policy.as_object().ok_or("`indexingPolicy` is not an object")?;
    let indexing_mode = match present(policy, "indexingMode") {
        None => "consistent".to_string(),
        Some(mode) => mode
            .as_str()
            .ok_or("`indexingPolicy.indexingMode` is not text")?
            .to_string(),
    };
    let automatic = match present(policy, "automatic") {
        None => true,
        Some(automatic) => automatic
            .as_bool()
            .ok_or("`indexingPolicy.automatic` is not true or false")?,
    };
    let composite_indexes = match present(policy, "compositeIndexes") {
        None => Vec::new(),
        Some(list) => list
            .as_array()
            .ok_or("`indexingPolicy.compositeIndexes` is not a list")?
            .iter()
            .map(composite_index)
            .collect::<Result<_, String>>()?,
    };
    let other = OTHER_INDEXES
        .iter()
        .filter(|name| match present(policy, name) {
            None => false,
            Some(Value::Array(list)) => !list.is_empty(),
            Some(_) => true,
        })
        .map(|name| name.to_string())
        .collect();
    Ok((
        IndexingPolicy {
            indexing_mode,
            automatic,
            included_paths: index_paths(present(policy, "includedPaths"), "indexingPolicy.includedPaths")?,
            excluded_paths: index_paths(present(policy, "excludedPaths"), "indexingPolicy.excludedPaths")?,
            composite_indexes,
        },
        other,
    ))
}

fn composite_index(index: &Value) -> Result<Vec<CompositePath>, String> {
    const FIELD: &str = "indexingPolicy.compositeIndexes";
    index
        .as_array()
        .ok_or(format!("an entry of `{FIELD}` is not a list"))?
        .iter()
        .map(|path| {
            let text = |key: &str| path.get(key).filter(|v| !v.is_null()).map(Value::as_str);
            match (text("path"), text("order")) {
                (Some(Some(path)), order) => Ok(CompositePath {
                    path: path.to_string(),
                    order: match order {
                        None => "ascending".to_string(),
                        Some(Some(order)) => order.to_string(),
                        Some(None) => return Err(format!("an order in `{FIELD}` is not text")),
                    },
                }),
                _ => Err(format!("a path in `{FIELD}` is not text")),
            }
        })
        .collect()
}

/// An included or excluded path list: each entry's `path` (its legacy `indexes`
/// ignored).
fn index_paths(list: Option<&Value>, field: &str) -> Result<Vec<IndexPath>, String> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    list.as_array()
        .ok_or(format!("`{field}` is not a list"))?
        .iter()
        .map(|entry| match entry.get("path").map(Value::as_str) {
            Some(Some(path)) => Ok(IndexPath { path: path.to_string() }),
            _ => Err(format!("an entry of `{field}` has no text `path`")),
        })
        .collect()
}

/// A list of text values (absent: empty).
fn strings(list: Option<&Value>, field: &str) -> Result<Vec<String>, String> {
    let Some(list) = list.filter(|l| !l.is_null()) else {
        return Ok(Vec::new());
    };
    list.as_array()
        .and_then(|items| {
            items
                .iter()
                .map(|item| item.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
        })
        .ok_or(format!("`{field}` is not a list of text"))
}

/// `key`'s value, unless it is absent or `null`.
fn present<'a>(object: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    object.get(key).filter(|v| !v.is_null())
}

/// An integral JSON number (`2` or `2.0`) as an integer.
fn integer(value: &Value) -> Option<i64> {
    if let Some(n) = value.as_i64() {
        return Some(n);
    }
    let n = value.as_f64()?;
    (n.fract() == 0.0 && n.abs() < 9.0e15).then_some(n as i64)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// What Azure returns for a container (system fields and extra policies included),
    /// with a composite index and a default time-to-live.
    fn as_azure_returns_it() -> Value {
        let mut value = crate::diff::tests::as_azure_returns_it();
        value["indexingPolicy"]["compositeIndexes"] = json!([[{"path": "/a"}, {"path": "/b", "order": "descending"}]]);
        value["defaultTtl"] = json!(-1);
        value
    }

    #[test]
    fn a_container_is_read_into_the_models_shapes() {
        let read = read_container("Account", &as_azure_returns_it()).unwrap();
        assert_eq!(read.other_indexes, Vec::<String>::new());
        let d = read.definition;
        assert_eq!(d.id, "Account");
        assert_eq!(d.partition_key, PartitionKey::on("accountId"));
        assert_eq!(d.indexing_policy.indexing_mode, "Consistent", "as the server said it");
        assert_eq!(d.indexing_policy.included_paths, [IndexPath { path: "/*".into() }]);
        assert_eq!(
            d.indexing_policy.composite_indexes,
            [vec![
                CompositePath {
                    path: "/a".into(),
                    order: "ascending".into()
                },
                CompositePath {
                    path: "/b".into(),
                    order: "descending".into()
                }
            ]]
        );
        assert_eq!(
            d.unique_key_policy.unwrap().unique_keys,
            [UniqueKey {
                paths: vec!["/type".into(), "/email".into()]
            }]
        );
        assert_eq!(d.default_ttl, Some(-1));
    }

    #[test]
    fn what_the_server_leaves_out_has_cosmos_dbs_default() {
        let read = read_container(
            "Old",
            &json!({"id": "Old", "partitionKey": {"paths": ["/pk"]}, "uniqueKeyPolicy": {"uniqueKeys": []}, "defaultTtl": null}),
        )
        .unwrap();
        let d = read.definition;
        assert_eq!((d.partition_key.kind.as_str(), d.partition_key.version), ("Hash", 1));
        assert_eq!(d.indexing_policy, IndexingPolicy::default());
        assert_eq!(d.unique_key_policy, None);
        assert_eq!(d.default_ttl, None);
        // A legacy container without a partition key has no paths.
        let legacy = read_container("Legacy", &json!({"id": "Legacy"})).unwrap();
        assert!(legacy.definition.partition_key.paths.is_empty());
        // A policy with no lists: nothing included or excluded.
        let bare = read_container("Bare", &json!({"indexingPolicy": {}})).unwrap();
        assert!(bare.definition.indexing_policy.included_paths.is_empty());
        assert!(bare.definition.indexing_policy.automatic);
    }

    #[test]
    fn indexes_a_model_never_declares_are_named() {
        let mut value = as_azure_returns_it();
        value["indexingPolicy"]["vectorIndexes"] = json!([{"path": "/v", "type": "flat"}]);
        value["indexingPolicy"]["spatialIndexes"] = json!([{"path": "/p/*", "types": ["Point"]}]);
        value["indexingPolicy"]["fullTextIndexes"] = json!([]);
        let read = read_container("Account", &value).unwrap();
        assert_eq!(read.other_indexes, ["spatialIndexes", "vectorIndexes"]);
    }

    #[test]
    fn a_field_in_another_shape_is_named_never_a_panic() {
        for (edit, field) in [
            (json!({"partitionKey": 7}), "partitionKey"),
            (json!({"partitionKey": {"paths": [1]}}), "partitionKey.paths"),
            (
                json!({"partitionKey": {"paths": ["/a"], "version": "2"}}),
                "partitionKey.version",
            ),
            (
                json!({"partitionKey": {"paths": ["/a"], "version": 1e300}}),
                "partitionKey.version",
            ),
            (
                json!({"partitionKey": {"paths": ["/a"], "version": -2}}),
                "partitionKey.version",
            ),
            (
                json!({"partitionKey": {"paths": ["/a"], "kind": 2}}),
                "partitionKey.kind",
            ),
            (json!({"indexingPolicy": []}), "indexingPolicy"),
            (
                json!({"indexingPolicy": {"automatic": "yes"}}),
                "indexingPolicy.automatic",
            ),
            (
                json!({"indexingPolicy": {"indexingMode": 1}}),
                "indexingPolicy.indexingMode",
            ),
            (
                json!({"indexingPolicy": {"includedPaths": [{"nopath": 1}]}}),
                "indexingPolicy.includedPaths",
            ),
            (
                json!({"indexingPolicy": {"excludedPaths": "x"}}),
                "indexingPolicy.excludedPaths",
            ),
            (
                json!({"indexingPolicy": {"compositeIndexes": [[{"path": 1}]]}}),
                "indexingPolicy.compositeIndexes",
            ),
            (
                json!({"indexingPolicy": {"compositeIndexes": [7]}}),
                "indexingPolicy.compositeIndexes",
            ),
            (
                json!({"uniqueKeyPolicy": {"uniqueKeys": [{"paths": 3}]}}),
                "uniqueKeyPolicy",
            ),
            (json!({"uniqueKeyPolicy": {"uniqueKeys": "x"}}), "uniqueKeyPolicy"),
            (json!({"uniqueKeyPolicy": "x"}), "uniqueKeyPolicy"),
            (json!({"defaultTtl": "y"}), "defaultTtl"),
            (json!({"defaultTtl": 1.5}), "defaultTtl"),
        ] {
            let message = read_container("X", &edit).expect_err(&edit.to_string());
            assert!(message.contains(field), "{edit}: {message}");
        }
        for value in [json!(null), json!([]), json!("text")] {
            assert_eq!(read_container("X", &value).unwrap_err(), "not a JSON object");
        }
    }
}
