//! Access patterns as operations: how each pattern runs on a logical model —
//! point read, single-partition query, cross-partition query or writes (with the
//! extra writes that keep copies in sync) — with the container, the partition key
//! value it needs and the parameterised SQL.

mod locate;
mod naive;
mod resolve;
mod sql;

pub use naive::naive_operations;
pub(crate) use resolve::resolve;

use serde::Serialize;

/// How a request runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum OperationKind {
    /// Read one item by id and partition key value.
    PointRead,
    /// A query within one logical partition.
    SinglePartitionQuery,
    /// A query that fans out over every physical partition.
    CrossPartitionQuery,
    /// A create, replace or delete of one item.
    Write,
}

impl OperationKind {
    /// The name used in output: `pointRead`, `singlePartitionQuery`, …
    pub fn as_str(self) -> &'static str {
        match self {
            OperationKind::PointRead => "pointRead",
            OperationKind::SinglePartitionQuery => "singlePartitionQuery",
            OperationKind::CrossPartitionQuery => "crossPartitionQuery",
            OperationKind::Write => "write",
        }
    }
}

/// What a write does to an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum WriteKind {
    /// A new item.
    Create,
    /// Replaces (or upserts) an existing item.
    Replace,
    /// Removes an item.
    Delete,
}

/// One access pattern as the requests it sends.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Operation {
    /// The access pattern's name.
    pub pattern: String,
    /// The kind of its main (first) request; `write` for write patterns.
    pub kind: OperationKind,
    /// Executions per second.
    pub per_second: f64,
    /// The requests, the main one first.
    pub requests: Vec<Request>,
}

/// One request to Cosmos DB.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    /// How it runs.
    pub kind: OperationKind,
    /// The container.
    pub container: String,
    /// The document types it reads or writes.
    pub document_types: Vec<String>,
    /// The partition key value it needs: a parameter (`@accountId`) or a constant
    /// (`"country"`); none for a cross-partition query.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition_key: Option<String>,
    /// The item id, for point reads and writes (a parameter).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The parameterised SQL, for queries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sql: Option<String>,
    /// The write, for writes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write: Option<WriteKind>,
    /// Why the request is sent.
    pub purpose: String,
    /// Index paths the query's filters and sorts use (for the indexing policy).
    #[serde(skip)]
    pub index_paths: Vec<String>,
    /// Properties of a multi-property ORDER BY, in order (for composite indexes).
    #[serde(skip)]
    pub order_by: Vec<String>,
}
