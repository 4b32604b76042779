//! A changed default TTL is changed in place: the e-commerce model provisioned as v1,
//! then as v2 whose `Order` keeps its documents a day and whose `Account` gains a
//! TTL, then as v1 again; after each run the containers' TTLs are read back from the
//! engine, and the plan says what it does (`changedInPlace`) before it does it.
#![cfg(feature = "in-memory-emulator")]

use std::path::Path;

use azure_data_cosmos::models::TimeToLive;
use cosmap_mapper::ContainerDefinition;
use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_provision::{
    apply, plan, AppliedAction, ApplyOptions, Connection, ContainerAction, Handling, Property, Settings, Throughput,
};
use serde_json::Value;

/// The e-commerce model with each `(root, seconds)` given that default TTL.
fn definitions(ttls: &[(&str, i64)]) -> Vec<ContainerDefinition> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ecommerce/model.json");
    let mut model: Value = serde_json::from_slice(&std::fs::read(&path).expect("reads")).expect("parses");
    for aggregate in model["aggregates"].as_array_mut().expect("aggregates") {
        if let Some((_, seconds)) = ttls.iter().find(|(root, _)| aggregate["root"] == *root) {
            aggregate["defaultTtlSeconds"] = Value::from(*seconds);
        }
    }
    let bytes = serde_json::to_vec(&model).expect("serialises");
    let model = cosmap_domain::from_slice(&bytes, None).expect("the changed model is valid");
    cosmap_mapper::map(&model, &cosmap_mapper::Options::default()).container_definitions()
}

/// The container's default TTL as the engine holds it.
async fn ttl(connection: &Connection, id: &str) -> TimeToLive {
    let database = connection.cosmos_client().database_client("Ecommerce");
    let container = database.container_client(id, None).await.expect("exists");
    container
        .read(None)
        .await
        .expect("reads")
        .into_model()
        .expect("parses")
        .default_ttl
}

async fn provision(connection: &Connection, definitions: &[ContainerDefinition]) -> Vec<(AppliedAction, String)> {
    let planned = plan(connection, definitions, Throughput::None).await.expect("plans");
    apply(connection, &planned, &ApplyOptions::default())
        .await
        .expect("applies")
        .into_iter()
        .map(|a| (a.action, a.id))
        .collect()
}

#[tokio::test]
async fn a_changed_default_ttl_is_changed_in_place_and_read_back() {
    let account = InMemoryAccount::new().expect("engine starts");
    let connection = account
        .connect("Ecommerce", Settings::default())
        .await
        .expect("connects");
    let v1 = definitions(&[]);
    provision(&connection, &v1).await;
    assert_eq!(
        ttl(&connection, "Order").await,
        TimeToLive::NoDefault,
        "v1: on, nothing expires"
    );
    assert_eq!(ttl(&connection, "Account").await, TimeToLive::Forever, "v1: off");

    let v2 = definitions(&[("Order", 86_400), ("Account", 3_600)]);
    let planned = plan(&connection, &v2, Throughput::None).await.expect("plans");
    let order = planned.containers.iter().find(|c| c.id == "Order").expect("Order");
    assert_eq!(order.action, ContainerAction::Differs);
    assert!(order.changes_default_ttl());
    let difference = &order.differences[0];
    assert_eq!(
        (
            difference.property,
            difference.handling,
            difference.current.clone(),
            difference.wanted.clone()
        ),
        (
            Property::DefaultTtl,
            Handling::ChangedInPlace,
            Value::from(-1),
            Value::from(86_400)
        )
    );
    let json = serde_json::to_value(&planned).expect("serialises");
    let order_json = json["containers"]
        .as_array()
        .expect("containers")
        .iter()
        .find(|c| c["id"] == "Order");
    assert_eq!(
        order_json.expect("Order")["differences"][0]["handling"],
        "changedInPlace"
    );
    assert_eq!(planned.writes(&ApplyOptions::default()), 2, "one replace per container");

    let applied = provision(&connection, &v2).await;
    assert_eq!(
        applied,
        [
            (AppliedAction::ChangedDefaultTtl, "Account".to_string()),
            (AppliedAction::ChangedDefaultTtl, "Order".to_string())
        ]
    );
    assert_eq!(ttl(&connection, "Order").await, TimeToLive::Seconds(86_400));
    assert_eq!(ttl(&connection, "Account").await, TimeToLive::Seconds(3_600));
    let again = plan(&connection, &v2, Throughput::None).await.expect("plans");
    assert!(!again.differs(), "v2 is now as the model says: {:?}", again.containers);

    // Back to v1: `Account`'s TTL is turned off again, `Order`'s back to -1; nothing
    // else is touched (the indexing policies are the same in both).
    provision(&connection, &v1).await;
    assert_eq!(ttl(&connection, "Order").await, TimeToLive::NoDefault);
    assert_eq!(ttl(&connection, "Account").await, TimeToLive::Forever);
}
