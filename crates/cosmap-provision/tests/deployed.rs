//! `read_deployed` on the SDK's in-memory Cosmos DB engine: what `cosmap provision`
//! made reads back as the model says (compared by `cosmap_diff::diff_deployed`: no
//! changes), containers from elsewhere are read too, and a missing database is `None`.
#![cfg(feature = "in-memory-emulator")]

use std::path::Path;

use azure_data_cosmos::models::ContainerProperties;
use cosmap_diff::{diff_deployed, ChangeKind, Class, DeployedContainer};
use cosmap_mapper::LogicalModel;
use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_provision::{read_deployed, Settings};
use serde_json::json;

fn logical(path: &str) -> LogicalModel {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path);
    let model = cosmap_domain::load_file(&path).expect("the model loads");
    cosmap_mapper::map(&model, &cosmap_mapper::Options::default())
}

fn deployed(read: Vec<cosmap_provision::ServerContainer>) -> Vec<DeployedContainer> {
    read.into_iter()
        .map(|c| DeployedContainer {
            definition: c.definition,
            other_indexes: c.other_indexes,
        })
        .collect()
}

#[tokio::test]
async fn what_provisioning_made_reads_back_as_the_model_says() {
    let v1 = logical("examples/ecommerce/model.json");
    let account = InMemoryAccount::new().expect("engine starts");
    let connection = account
        .provisioned("Ecommerce", &v1.container_definitions())
        .await
        .expect("provisions");

    let read = read_deployed(&connection)
        .await
        .expect("reads")
        .expect("the database exists");
    let ids: Vec<&str> = read.iter().map(|c| c.definition.id.as_str()).collect();
    let mut wanted: Vec<String> = v1.containers.iter().map(|c| c.name.clone()).collect();
    wanted.sort();
    assert_eq!(ids, wanted);
    let containers = deployed(read);
    let diff = diff_deployed("Ecommerce at the in-memory engine", &containers, &v1);
    assert!(diff.is_empty(), "{:#?}", diff.changes);

    // Against v2: items are partitioned by `itemCode` now.
    let v2 = logical("examples/ecommerce/v2/model.json");
    let diff = diff_deployed("Ecommerce", &containers, &v2);
    let item = diff
        .changes
        .iter()
        .find(|c| c.subject.container == "Item")
        .expect("a change of Item");
    assert_eq!(item.class, Class::BreakingForReaders);
    assert!(
        matches!(&item.kind, ChangeKind::PartitionKeyChanged { old, new, .. } if old == &["/itemId"] && new == &["/itemCode"]),
        "{item:?}"
    );

    // A container from elsewhere (a change feed's leases) is read too: removed, relative to the model.
    let leases: ContainerProperties = serde_json::from_value(json!({
        "id": "leases",
        "partitionKey": {"paths": ["/id"], "kind": "Hash", "version": 2}
    }))
    .expect("properties");
    connection
        .cosmos_client()
        .database_client("Ecommerce")
        .create_container(leases, None)
        .await
        .expect("creates the leases container");
    let containers = deployed(read_deployed(&connection).await.expect("reads").expect("exists"));
    let diff = diff_deployed("Ecommerce", &containers, &v1);
    assert_eq!(diff.changes.len(), 1, "{:#?}", diff.changes);
    assert_eq!(
        (diff.changes[0].subject.container.as_str(), &diff.changes[0].kind),
        ("leases", &ChangeKind::ContainerRemoved)
    );
}

#[tokio::test]
async fn a_missing_database_is_none() {
    let account = InMemoryAccount::new().expect("engine starts");
    let connection = account.connect("Nowhere", Settings::default()).await.expect("connects");
    assert_eq!(read_deployed(&connection).await.expect("reads"), None);
}
