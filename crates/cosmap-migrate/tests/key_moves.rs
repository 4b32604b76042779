//! A root's partition key moved, classified from the typed models (never by name): the
//! new key is the root's identity, which old root documents hold as their `id` (the
//! report of a ticketing model: `checkInId` "is not the root's renamed identity" — it
//! is the identity, stored as `id`), or a level of the old hierarchical key, which
//! every old document carries; a document type that holds it nowhere is refused,
//! naming it and the next step. Each move runs on the SDK's in-memory engine: a copy
//! into a new container, the old one kept whole.

mod common;

use cosmap_mapper::{LogicalModel, PartitionKey};
use cosmap_migrate::{plan, run, Control, KeyFrom, MigrateError, RunOptions, Step};
use serde_json::{json, Value};

const DATABASE: &str = "Ticketing";

/// Check-ins at events, with their scans as separate documents (`scans`) or not; the
/// aggregate's key pinned to the event (`eventId`, then the identity: a hierarchical
/// key) or left to the mapper (the identity `checkInId`).
fn spec(scans: bool, pinned: bool) -> Value {
    let mut spec = json!({
        "name": "Ticketing",
        "entities": common::events_and_check_ins(),
        "aggregates": [{"root": "Event"}, {"root": "CheckIn"}],
        "relationships": [{"from": "CheckIn", "to": "Event", "cardinality": "one"}]
    });
    if scans {
        spec["entities"].as_array_mut().unwrap().push(json!(
            {"name": "Scan", "identity": "scanId", "attributes": [{"name": "device", "type": "string"}],
             "volume": {"count": 40000, "avgSizeBytes": 200}}
        ));
        spec["aggregates"][1]["members"] = json!(["Scan"]);
        spec["relationships"].as_array_mut().unwrap().push(json!(
            {"from": "CheckIn", "to": "Scan", "cardinality": "many", "max": 100, "avg": 2}
        ));
    }
    if pinned {
        spec["aggregates"][1]["partitionKey"] = json!("eventId");
    }
    spec
}

/// `model` with `CheckIn` keyed by `/eventId` alone: its documents hold the check-in's
/// identity only as the root's `id`.
fn keyed_by_event_alone(mut model: LogicalModel) -> LogicalModel {
    let container = model.containers.iter_mut().find(|c| c.name == "CheckIn").unwrap();
    container.partition_key = PartitionKey::on("eventId");
    container.sub_partition_key_properties.clear();
    for document_type in container.document_types.make_mut() {
        document_type.partition_key_property = "eventId".into();
        document_type.sub_partition_key_properties.clear();
    }
    model
}

fn key_from(plan: &cosmap_migrate::MigrationPlan) -> Vec<(String, String)> {
    plan.steps
        .iter()
        .find_map(|s| match s {
            Step::Repartition { key_from, .. } => Some(
                key_from
                    .iter()
                    .map(
                        |KeyFrom {
                             document_type,
                             property,
                         }| (document_type.clone(), property.clone()),
                    )
                    .collect(),
            ),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no repartition: {}", plan.to_text()))
}

/// Writes `documents` into `container`, each in the partition of its `key` property.
async fn write(connection: &cosmap_provision::Connection, container: &str, key: &str, documents: &[Value]) {
    let client = common::container(connection, container).await;
    for d in documents {
        let id = d["id"].as_str().unwrap().to_string();
        let partition = d[key].as_str().unwrap().to_string();
        client.create_item(partition, &id, d, None).await.expect("written");
    }
}

fn check_in(i: usize) -> Value {
    json!({"id": format!("c-{i}"), "type": "checkIn", "eventId": format!("e-{}", i % 3),
           "at": "2026-01-01T10:00:00Z", "gate": "A", "event": {"id": format!("e-{}", i % 3)}})
}

#[tokio::test]
async fn a_key_moved_to_the_roots_identity_is_taken_from_its_id() {
    let old = keyed_by_event_alone(common::map(&spec(false, true)));
    let new = common::map(&spec(false, false));
    let plan = plan(&old, &new).unwrap_or_else(|e| panic!("the move is planned: {e}"));
    assert_eq!(key_from(&plan), [("checkIn".to_string(), "id".to_string())]);
    assert!(
        plan.to_text()
            .contains("into `CheckIn-checkInId` (/checkInId, from `id`)"),
        "{}",
        plan.to_text()
    );

    let (_account, connection) = common::provisioned(DATABASE, &old).await;
    let old_documents: Vec<Value> = (0..7).map(check_in).collect();
    write(&connection, "CheckIn", "eventId", &old_documents).await;
    let report = run(&plan, &connection, &RunOptions::default().page_size(3), |_| {
        Control::Continue
    })
    .await
    .expect("migrated");
    assert!(report.failed.is_none(), "{report:?}");
    let copied = common::query(
        &common::container(&connection, "CheckIn-checkInId").await,
        "SELECT * FROM c",
    )
    .await;
    let copied: Vec<&Value> = copied.iter().filter(|d| d["type"] == "checkIn").collect();
    assert_eq!(copied.len(), 7);
    for d in &copied {
        assert_eq!(d["checkInId"], d["id"], "the new key is the identity: {d}");
        assert_eq!(d["gate"], "A", "the rest as it was: {d}");
    }
    let kept = common::query(&common::container(&connection, "CheckIn").await, "SELECT * FROM c").await;
    assert_eq!(kept.len(), 7, "nothing deleted from the old container");
    common::assert_second_run_changes_nothing(&plan, &connection).await;
}

#[tokio::test]
async fn a_level_of_the_old_hierarchical_key_becomes_the_key_for_every_document_type() {
    let old = common::map(&spec(true, true));
    let new = common::map(&spec(true, false));
    let plan = plan(&old, &new).unwrap_or_else(|e| panic!("the move is planned: {e}"));
    assert_eq!(
        key_from(&plan),
        [
            ("checkIn".to_string(), "checkInId".to_string()),
            ("scan".to_string(), "checkInId".to_string())
        ]
    );
    let (_account, connection) = common::provisioned(DATABASE, &old).await;
    let client = common::container(&connection, "CheckIn").await;
    let mut documents: Vec<Value> = (0..4).map(check_in).collect();
    documents.extend((0..6).map(|i| {
        json!({"id": format!("s-{i}"), "type": "scan", "eventId": format!("e-{}", (i / 2) % 3),
               "checkInId": format!("c-{}", i / 2), "device": "d"})
    }));
    for d in documents.iter_mut() {
        d["checkInId"] = d.get("checkInId").cloned().unwrap_or_else(|| d["id"].clone());
        let key = azure_data_cosmos::PartitionKey::from((
            d["eventId"].as_str().unwrap().to_string(),
            d["checkInId"].as_str().unwrap().to_string(),
        ));
        let id = d["id"].as_str().unwrap().to_string();
        client.create_item(key, &id, &*d, None).await.expect("written");
    }
    let report = common::migrate(&plan, &connection).await.expect("migrated");
    assert!(report.failed.is_none(), "{report:?}");
    let copied = common::query(
        &common::container(&connection, "CheckIn-checkInId").await,
        "SELECT * FROM c WHERE c.type IN ('checkIn', 'scan')",
    )
    .await;
    assert_eq!(copied.len(), 10);
    let scans_of_c1: Vec<&Value> = copied
        .iter()
        .filter(|d| d["type"] == "scan" && d["checkInId"] == "c-1")
        .collect();
    assert_eq!(
        scans_of_c1.len(),
        2,
        "a check-in's scans share its partition: {copied:?}"
    );
}

#[test]
fn a_document_type_that_holds_the_new_key_nowhere_is_refused_by_name_with_the_next_step() {
    let old = keyed_by_event_alone(common::map(&spec(true, true)));
    let new = common::map(&spec(true, false));
    let Err(MigrateError::Refused(refusals)) = plan(&old, &new) else {
        panic!("the scans cannot be given their check-in's identity")
    };
    let text = refusals.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n");
    for wanted in [
        "CheckIn (partitionKeyChanged, breaking for readers)",
        "the old `scan` documents store no `checkInId`",
        "next: give `Scan` a required `checkInId`",
    ] {
        assert!(text.contains(wanted), "no {wanted:?} in {text}");
    }
    assert!(!text.contains("renamed identity: the new key"), "{text}");
}
