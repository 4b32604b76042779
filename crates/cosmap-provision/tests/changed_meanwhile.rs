//! A container created by someone else between planning and applying, with another
//! definition: provisioning stops there, and says what it had already changed
//! (never "nothing was changed"); every change is reported as it is made.
#![cfg(feature = "in-memory-emulator")]

use std::path::Path;

use azure_data_cosmos::models::ContainerProperties;
use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_provision::{
    apply_reporting, plan, Applied, ApplyOptions, ErrorClass, ProvisionError, Settings, Throughput,
};
use serde_json::json;

#[tokio::test]
async fn drift_found_midway_says_what_was_already_changed() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ecommerce/model.json");
    let model = cosmap_domain::load_file(&path).expect("the e-commerce model loads");
    let definitions = cosmap_mapper::map(&model, &cosmap_mapper::Options::default()).container_definitions();
    let account = InMemoryAccount::new().expect("engine starts");
    let connection = account
        .connect("Ecommerce", Settings::default())
        .await
        .expect("connects");
    let planned = plan(&connection, &definitions, Throughput::None).await.expect("plans");

    // Meanwhile, someone else creates the database and `Order` with another partition key.
    let client = connection.cosmos_client();
    client.create_database("Ecommerce", None).await.expect("database");
    let other: ContainerProperties = serde_json::from_value(json!({
        "id": "Order",
        "partitionKey": {"paths": ["/customerId"], "kind": "Hash", "version": 2}
    }))
    .expect("properties");
    client
        .database_client("Ecommerce")
        .create_container(other, None)
        .await
        .expect("container");

    let mut seen: Vec<Applied> = Vec::new();
    let error = apply_reporting(&connection, &planned, &ApplyOptions::default(), &mut |change| {
        seen.push(change.clone())
    })
    .await
    .expect_err("Order is in drift");
    let made: Vec<String> = error
        .made()
        .iter()
        .map(|a| format!("{:?} {}", a.action, a.id))
        .collect();
    let containers = ["Account", "Dictionary", "Item"].map(|c| format!("CreatedContainer {c}"));
    assert_eq!(made[0], "FoundCreated Ecommerce");
    assert_eq!(made[1..], containers);
    assert_eq!(seen, error.made(), "each change was reported as it was made");
    assert!(
        matches!(&error, ProvisionError::Partial { cause, .. } if matches!(**cause, ProvisionError::ChangedMeanwhile { .. }))
    );
    assert_eq!(error.class(), ErrorClass::Drift);
    let message = error.to_string();
    assert!(
        message.contains("container `Order` was created by someone else"),
        "{message}"
    );
    assert!(message.contains("4 changes were already made before this"), "{message}");
    assert!(message.contains("created container `Item`"), "{message}");
    assert!(!message.contains("nothing was changed"), "{message}");
    assert!(error.hint().unwrap().contains("The changes already made stay"));
}
