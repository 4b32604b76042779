//! What the migration tests share: a model spec or file loaded and mapped, an in-memory account holding
//! a model's containers, and a query's documents in id order.

// Each test crate that includes this uses only part of it.
#![allow(dead_code)]

use azure_data_cosmos::clients::ContainerClient;
use azure_data_cosmos::{FeedScope, Query};
use cosmap_domain::DomainModel;
use cosmap_mapper::{LogicalModel, Options};
use cosmap_migrate::{run, Control, MigrateError, MigrationPlan, MigrationReport, RunOptions, Step};
use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_provision::Connection;
use futures::TryStreamExt;
use serde_json::{json, Value};

/// `spec` (a model file's JSON) mapped with the default options.
pub fn map(spec: &Value) -> LogicalModel {
    from_spec(spec).1
}

/// `spec` (a model file's JSON) loaded, and mapped with the default options.
pub fn from_spec(spec: &Value) -> (DomainModel, LogicalModel) {
    let model = cosmap_domain::from_slice(spec.to_string().as_bytes(), None).expect("a valid model");
    let logical = cosmap_mapper::map(&model, &Options::default());
    (model, logical)
}

/// The model file at `relative` (to the repository's root) loaded, and mapped with
/// the default options.
pub fn load(relative: &str) -> (DomainModel, LogicalModel) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(relative);
    let model = cosmap_domain::load_file(&path).expect("the model loads");
    let logical = cosmap_mapper::map(&model, &Options::default());
    (model, logical)
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
        .database_client()
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

/// `plan` run on `connection` with the default options, never stopped.
pub async fn migrate(plan: &MigrationPlan, connection: &Connection) -> Result<MigrationReport, MigrateError> {
    run(plan, connection, &RunOptions::default(), |_| Control::Continue).await
}

/// Runs `plan` again and asserts that it migrates nothing: a second run changes nothing.
pub async fn assert_second_run_changes_nothing(plan: &MigrationPlan, connection: &Connection) {
    let again = migrate(plan, connection).await.expect("run again");
    assert_eq!(again.steps.iter().map(|s| s.migrated).sum::<u64>(), 0, "{again:?}");
}

/// Asserts that `plan` has a step `wanted` accepts, showing the plan when it has none.
pub fn assert_step(plan: &MigrationPlan, wanted: impl Fn(&Step) -> bool) {
    assert!(plan.steps.iter().any(wanted), "{}", plan.to_text());
}

/// A step's kind, as the JSON plan names it (`createContainers`).
pub fn step_name(step: &Step) -> String {
    serde_json::to_value(step).unwrap()["step"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Asserts that one of `plan`'s droppable leftovers mentions `text`.
pub fn assert_droppable(plan: &MigrationPlan, text: &str) {
    assert!(plan.droppable.iter().any(|d| d.contains(text)), "{:?}", plan.droppable);
}

/// A shop: orders with lines, embedded (`few`) or as documents of their own (`many`).
pub fn shop(embedded: bool) -> Value {
    let relationship = if embedded {
        json!({"from": "Order", "to": "Line", "cardinality": "few", "max": 20, "avg": 3, "property": "lines"})
    } else {
        json!({"from": "Order", "to": "Line", "cardinality": "many", "growth": "unbounded", "avg": 3, "property": "lines"})
    };
    json!({
        "name": "Shop",
        "entities": [{"name": "Order", "identity": "orderId", "attributes": [{"name": "placedAt", "type": "dateTime"}],
            "volume": {"count": 1000000, "avgSizeBytes": 500}}],
        "valueObjects": [{"name": "Line", "attributes": [{"name": "sku", "type": "string"}, {"name": "quantity", "type": "integer"}],
            "volume": {"avgSizeBytes": 100}}],
        "aggregates": [{"root": "Order", "members": ["Line"]}],
        "relationships": [relationship]
    })
}

/// Plans whose `code` is `unique` or not.
pub fn plans(unique: bool) -> Value {
    json!({
        "name": "Plans",
        "entities": [
            {"name": "Plan", "identity": "planId", "attributes": [
                {"name": "code", "type": "string", "unique": unique},
                {"name": "price", "type": "decimal"}
            ], "volume": {"count": 100, "avgSizeBytes": 300}}
        ],
        "aggregates": [{"root": "Plan"}]
    })
}

/// Accounts whose `email` is `unique` or not.
pub fn accounts(unique: bool) -> Value {
    json!({
        "name": "Accounts",
        "entities": [{"name": "Account", "identity": "accountId", "attributes": [
            {"name": "email", "type": "string", "unique": unique},
            {"name": "nickname", "type": "string", "optional": true}
        ], "volume": {"count": 1000000, "avgSizeBytes": 500}}],
        "aggregates": [{"root": "Account"}]
    })
}

/// Version 2 of the defaults model: verify's `defaults-of-every-kind`.
pub fn defaults_v2() -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cosmap-verify/tests/models/defaults-of-every-kind.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("the model")).expect("JSON")
}

/// Version 1: posts and layouts without their defaulted attributes, authors with
/// theirs but without defaults, and the post reads that filter on none of them.
pub fn defaults_v1() -> Value {
    let mut spec = defaults_v2();
    for element in ["entities", "valueObjects"] {
        for e in spec[element].as_array_mut().expect("a list") {
            let author = e["name"] == "Author";
            let attributes = e["attributes"].as_array_mut().expect("attributes");
            if author {
                attributes.iter_mut().for_each(|a| {
                    if let Some(a) = a.as_object_mut() {
                        a.remove("default");
                    }
                });
            } else {
                attributes.retain(|a| a.get("default").is_none());
            }
        }
    }
    let pattern = &mut spec["accessPatterns"][1];
    pattern["filter"] = json!(["author.authorId"]);
    pattern["sort"] = json!(["title"]);
    pattern["project"] = json!(["title"]);
    spec
}

/// Events and their check-ins (the ticketing tests' two entities), as a model's
/// `entities` list.
pub fn events_and_check_ins() -> Value {
    json!([
        {"name": "Event", "identity": "eventId", "attributes": [{"name": "title", "type": "string"}],
         "volume": {"count": 1000, "avgSizeBytes": 800}},
        {"name": "CheckIn", "identity": "checkInId", "attributes": [
            {"name": "at", "type": "dateTime"}, {"name": "gate", "type": "string"}],
         "volume": {"count": 20000, "avgSizeBytes": 300}}
    ])
}
