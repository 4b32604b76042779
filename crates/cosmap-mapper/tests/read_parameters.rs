//! What a read's caller gives (`Operation::parameters`, typed by the attributes its
//! filters compare) and what a short-form query selects
//! (`Request::projected_properties`): the generated data access takes and returns these.

use cosmap_domain::AttributeType;
use cosmap_mapper::operations::Parameter;

mod common;
use common::{from_json, op};

fn parameter(name: &str, ty: AttributeType, list: bool) -> Parameter {
    Parameter {
        name: name.into(),
        ty,
        list,
    }
}

const SHOP: &str = r#"{
  "name": "Shop",
  "entities": [
    {"name": "Customer", "identity": "customerId", "attributes": [{"name": "name", "type": "string"}], "volume": {"count": 100000}},
    {"name": "Order", "identity": "orderId", "attributes": [
      {"name": "placedAt", "type": "dateTime"},
      {"name": "total", "type": "number"},
      {"name": "status", "type": "string"},
      {"name": "tags", "type": "string", "many": true},
      {"name": "note", "type": "string", "optional": true}
    ], "volume": {"count": 1000000}}
  ],
  "valueObjects": [{"name": "Address", "attributes": [{"name": "city", "type": "string"}, {"name": "zip", "type": "integer"}]}],
  "aggregates": [{"root": "Customer"}, {"root": "Order", "members": ["Address"]}],
  "relationships": [
    {"from": "Order", "to": "Customer", "cardinality": "one"},
    {"from": "Order", "to": "Address", "cardinality": "one", "property": "shipTo"}
  ],
  "accessPatterns": [
    {"name": "orders in a range", "kind": "read", "start": "Order", "filter": ["customer.customerId", "placedAt between", "total >=", "status in", "tags", "shipTo.zip"], "perSecond": 10},
    {"name": "newest orders of a customer", "kind": "read", "start": "Order", "filter": ["customerId"], "sort": ["-placedAt"], "project": ["placedAt", "total"], "perSecond": 10}
  ]
}"#;

#[test]
fn a_reads_parameters_are_typed_by_the_attributes_its_filters_compare() {
    let m = from_json(SHOP);
    assert_eq!(
        op(&m, "orders in a range").parameters,
        [
            parameter("customerCustomerId", AttributeType::String, false),
            parameter("placedAtMin", AttributeType::DateTime, false),
            parameter("placedAtMax", AttributeType::DateTime, false),
            parameter("totalMin", AttributeType::Number, false),
            parameter("statusList", AttributeType::String, true),
            parameter("tags", AttributeType::String, false),
            parameter("shipToZip", AttributeType::Integer, false),
        ]
    );
    // Every parameter its SQL binds is one the caller gives.
    let op = op(&m, "orders in a range");
    let (_, bound) = op.requests[0].query().expect("a query");
    for name in bound {
        assert!(op.parameters.iter().any(|p| p.name == *name), "{name} is not given");
    }
}

#[test]
fn a_short_form_query_names_the_properties_it_selects() {
    let m = from_json(SHOP);
    let newest = op(&m, "newest orders of a customer");
    let sql = newest.requests[0].sql().expect("a query");
    assert!(sql.starts_with("SELECT c.id, "), "{sql}");
    let selected = newest.requests[0].projected_properties().expect("a short form");
    for name in ["id", "type", "orderId", "placedAt", "total"] {
        assert!(selected.iter().any(|s| s == name), "{name} in {selected:?} ({sql})");
    }
    // Whole documents select no properties of their own.
    let range = op(&m, "orders in a range");
    assert_eq!(range.requests[0].projected_properties(), None);
    // Writes take no parameters: they take the document.
    assert!(m
        .operations
        .iter()
        .filter(|o| o.kind == cosmap_mapper::operations::OperationKind::Write)
        .all(|o| o.parameters.is_empty()));
}
