//! Shape changes rewritten in place through the change feed: a single value made a
//! list (an attribute, an embedded object), a list made a single value (stopping at a
//! list of two, naming it, and resuming once resolved), an integer retyped to a string.
//! Values already in the new shape are left as they are; a second run changes nothing.

mod common;

use common::map;

use cosmap_migrate::{plan, Conversion, MigrateError, Step};
use serde_json::{json, Value};

fn spec(v2: bool) -> Value {
    json!({
        "name": "Crm",
        "entities": [
            {"name": "Customer", "identity": "customerId", "attributes": [
                {"name": "tag", "type": "string", "many": v2},
                {"name": "score", "type": if v2 { "string" } else { "integer" }},
                {"name": "alias", "type": "string", "many": !v2, "optional": v2}
            ], "volume": {"count": 1000000, "avgSizeBytes": 500}}
        ],
        "valueObjects": [{"name": "Address", "attributes": [{"name": "city", "type": "string"}]}],
        "aggregates": [{"root": "Customer", "members": ["Address"]}],
        "relationships": [if v2 {
            json!({"from": "Customer", "to": "Address", "cardinality": "few", "max": 3, "property": "address"})
        } else {
            json!({"from": "Customer", "to": "Address", "cardinality": "one", "property": "address"})
        }]
    })
}

#[tokio::test]
async fn shapes_are_rewritten_in_place_and_a_longer_list_stops_the_step() {
    let (v1, v2) = (map(&spec(false)), map(&spec(true)));
    let plan = plan(&v1, &v2).expect("shape changes are migrated");
    let rewrites: Vec<(String, Conversion)> = plan
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Rewrite { path, conversion, .. } => Some((path.join("."), *conversion)),
            _ => None,
        })
        .collect();
    assert_eq!(
        rewrites,
        [
            ("address".to_string(), Conversion::WrapInList),
            ("alias".to_string(), Conversion::UnwrapList { optional: true }),
            ("score".to_string(), Conversion::ToText),
            ("tag".to_string(), Conversion::WrapInList),
        ],
        "{}",
        plan.to_text()
    );

    let (_account, connection) = common::provisioned("Crm", &v1).await;
    let customers = common::container(&connection, "Customer").await;
    let written = [
        json!({"id": "c-0", "type": "customer", "customerId": "c-0", "tag": "vip", "score": 3, "alias": ["ada"], "address": {"city": "Paris"}}),
        json!({"id": "c-1", "type": "customer", "customerId": "c-1", "tag": ["new"], "score": "7", "alias": [], "address": {"city": "Oslo"}}),
        json!({"id": "c-2", "type": "customer", "customerId": "c-2", "tag": "x", "score": 1, "alias": ["a", "b"], "address": {"city": "Rome"}}),
    ];
    for d in &written {
        let id = d["id"].as_str().unwrap().to_string();
        customers.create_item(id.clone(), &id, d, None).await.unwrap();
    }
    let err = common::migrate(&plan, &connection)
        .await
        .expect_err("c-2's two aliases stop the step");
    let message = err.to_string();
    assert!(matches!(err, MigrateError::Data { .. }), "{message}");
    assert!(
        message.contains("`customer` `c-2`: `alias` holds 2 values") && message.contains("run `cosmap migrate` again"),
        "{message}"
    );
    // Resolved in the old document; the next run finishes.
    let mut fixed = written[2].clone();
    fixed["alias"] = json!(["a"]);
    customers
        .upsert_item("c-2".to_string(), "c-2", &fixed, None)
        .await
        .unwrap();
    common::migrate(&plan, &connection).await.expect("migrated");

    let all: Vec<Value> = common::query(&customers, "SELECT * FROM c WHERE c.type = 'customer'").await;
    let shape = |d: &Value| json!([d["tag"], d["score"], d.get("alias"), d["address"]]);
    assert_eq!(shape(&all[0]), json!([["vip"], "3", "ada", [{"city": "Paris"}]]));
    assert_eq!(
        shape(&all[1]),
        json!([["new"], "7", null, [{"city": "Oslo"}]]),
        "in the new shape already, or emptied"
    );
    assert_eq!(shape(&all[2]), json!([["x"], "1", "a", [{"city": "Rome"}]]));

    common::assert_second_run_changes_nothing(&plan, &connection).await;
}

#[test]
fn conversions_it_cannot_make_are_refused_by_name() {
    let mut v2 = spec(false);
    v2["entities"][0]["attributes"][1]["type"] = json!("date");
    let err = plan(&map(&spec(false)), &map(&v2)).expect_err("integer → date is not rewritten");
    let text = err.to_string();
    assert!(text.contains("Customer/Customer.score (propertyRetyped"), "{text}");
    assert!(text.contains("an integer is not rewritten as a date"), "{text}");
}
