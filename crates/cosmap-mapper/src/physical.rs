//! Physical container definitions in Cosmos DB's own shapes (REST API and
//! `azure_data_cosmos` field names): what code generation renders and
//! provisioning applies.

use serde::{Deserialize, Serialize};

use crate::logical_model::{LogicalModel, PartitionKey};

/// A container as Cosmos DB creates it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerDefinition {
    /// Container id.
    pub id: String,
    /// Partition key definition.
    pub partition_key: PartitionKey,
    /// Indexing policy.
    pub indexing_policy: IndexingPolicy,
    /// Unique keys, when the model declares usable ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unique_key_policy: Option<UniqueKeyPolicy>,
    /// Default time-to-live in seconds (-1: on, items do not expire unless they say so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_ttl: Option<i64>,
}

/// How a container indexes its items.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexingPolicy {
    /// `consistent` (index updated with each write) or `none`.
    pub indexing_mode: String,
    /// Index every item without asking.
    pub automatic: bool,
    /// Paths indexed.
    pub included_paths: Vec<IndexPath>,
    /// Paths not indexed.
    pub excluded_paths: Vec<IndexPath>,
    /// Composite indexes, for multi-property `ORDER BY`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub composite_indexes: Vec<Vec<CompositePath>>,
}

/// One path of a composite index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompositePath {
    /// The path, for example `/orderedAt`.
    pub path: String,
    /// `ascending` or `descending`.
    pub order: String,
}

/// One indexing path, for example `/*` or `/"_etag"/?`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexPath {
    /// The path.
    pub path: String,
}

impl Default for IndexingPolicy {
    /// Cosmos DB's own default: consistent, automatic, everything indexed but `_etag`.
    fn default() -> Self {
        IndexingPolicy {
            indexing_mode: "consistent".to_string(),
            automatic: true,
            included_paths: vec![IndexPath { path: "/*".to_string() }],
            excluded_paths: vec![IndexPath {
                path: "/\"_etag\"/?".to_string(),
            }],
            composite_indexes: Vec::new(),
        }
    }
}

/// Unique key constraints (each unique within a logical partition).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UniqueKeyPolicy {
    /// The unique keys.
    pub unique_keys: Vec<UniqueKey>,
}

/// One unique key: a combination of paths.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UniqueKey {
    /// The paths, for example `["/email"]`.
    pub paths: Vec<String>,
}

impl LogicalModel {
    /// The physical definitions of all containers, in container order.
    pub fn container_definitions(&self) -> Vec<ContainerDefinition> {
        self.containers
            .iter()
            .map(|c| ContainerDefinition {
                id: c.name.clone(),
                partition_key: c.partition_key.clone(),
                indexing_policy: c.indexing_policy.clone(),
                unique_key_policy: (!c.unique_keys.is_empty()).then(|| UniqueKeyPolicy {
                    unique_keys: c.unique_keys.clone(),
                }),
                default_ttl: c.default_ttl,
            })
            .collect()
    }
}
