//! What the migration tests share: a model spec mapped, an in-memory account holding
//! a model's containers, and a query's documents in id order.

// Each test crate that includes this uses only part of it.
#![allow(dead_code)]

use azure_data_cosmos::clients::ContainerClient;
use azure_data_cosmos::{FeedScope, Query};
use cosmap_mapper::{LogicalModel, Options};
use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_provision::Connection;
use futures::TryStreamExt;
use serde_json::Value;

/// `spec` (a model file's JSON) mapped with the default options.
pub fn map(spec: &Value) -> LogicalModel {
    let model = cosmap_domain::from_slice(spec.to_string().as_bytes(), None).expect("a valid model");
    cosmap_mapper::map(&model, &Options::default())
}

/// An in-memory account (kept alive by the caller) whose database `database` holds
/// `model`'s containers, as `cosmap provision` makes them.
pub async fn provisioned(database: &str, model: &LogicalModel) -> (InMemoryAccount, Connection) {
    let account = InMemoryAccount::new().expect("engine");
    let connection = account
        .provisioned(database, &model.container_definitions())
        .await
        .expect("provisioned");
    (account, connection)
}

/// The client of container `name` of the connection's database.
pub async fn container(connection: &Connection, name: &str) -> ContainerClient {
    connection
        .cosmos_client()
        .database_client(connection.database())
        .container_client(name, None)
        .await
        .expect("container")
}

/// The documents `sql` finds across the container, in id order.
pub async fn query(client: &ContainerClient, sql: &str) -> Vec<Value> {
    let mut found: Vec<Value> = client
        .query_items::<Value>(Query::from(sql), FeedScope::full_container(), None)
        .await
        .expect("query")
        .try_collect()
        .await
        .expect("query");
    found.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
    found
}
