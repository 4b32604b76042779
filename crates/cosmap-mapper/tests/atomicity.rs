//! Which write operations are one transaction: the application's own writes to one
//! logical partition are; writes to two aggregates, or an owner and its uniqueness
//! claim, are not, and say which partitions they write. Syncs from the change feed
//! follow on their own and are not counted.

use cosmap_mapper::operations::ValueSource;
use cosmap_mapper::{map, Options};

mod common;
use common::{from_json, op};

#[test]
fn writes_to_one_partition_are_atomic_and_writes_to_two_are_not() {
    let m = from_json(
        r#"{
          "name": "Shop",
          "entities": [
            {"name": "Customer", "identity": "customerId", "attributes": [{"name": "email", "type": "string", "unique": true}], "volume": {"count": 100000}},
            {"name": "Order", "identity": "orderId", "attributes": [{"name": "total", "type": "decimal"}], "volume": {"count": 1000000}},
            {"name": "OrderLine", "identity": "lineId", "attributes": [{"name": "quantity", "type": "integer"}]},
            {"name": "Invoice", "identity": "invoiceId", "attributes": [{"name": "amount", "type": "decimal"}], "volume": {"count": 1000000}}
          ],
          "aggregates": [{"root": "Customer"}, {"root": "Order", "members": ["OrderLine"]}, {"root": "Invoice"}],
          "relationships": [
            {"from": "Order", "to": "OrderLine", "cardinality": "many", "max": 200, "avg": 3},
            {"from": "Order", "to": "Customer", "cardinality": "one"},
            {"from": "Invoice", "to": "Order", "cardinality": "one"}
          ],
          "accessPatterns": [
            {"name": "order with lines", "kind": "read", "start": "Order", "filter": ["orderId"], "returns": ["Order", "OrderLine"], "perSecond": 10},
            {"name": "save an order with its lines", "kind": "write", "start": "Order", "returns": ["Order", "OrderLine"], "perSecond": 5},
            {"name": "bill an order", "kind": "write", "write": "create", "start": "Order", "returns": ["Order", "Invoice"], "perSecond": 1},
            {"name": "sign up", "kind": "write", "write": "create", "start": "Customer", "perSecond": 1}
          ]
        }"#,
    );
    assert!(op(&m, "save an order with its lines").is_atomic());
    assert!(op(&m, "order with lines").is_atomic(), "reads are never counted");
    let bill = op(&m, "bill an order");
    assert!(!bill.is_atomic());
    let containers: Vec<&str> = bill.not_atomic.iter().map(|p| p.container.as_str()).collect();
    assert_eq!(containers, ["Order", "Invoice"]);
    let sign_up = op(&m, "sign up");
    assert_eq!(sign_up.not_atomic.len(), 2, "{sign_up:#?}");
    assert_eq!(sign_up.not_atomic[0].container, "UniqueClaims");
    assert_eq!(
        sign_up.not_atomic[0].partition_key,
        ValueSource::Parameter("email".into())
    );
}

#[test]
fn syncs_from_the_change_feed_do_not_make_a_write_non_atomic() {
    // ecommerce: saving an order also writes its copy in `Account`, from the change feed.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ecommerce/model.json");
    let m = map(&cosmap_domain::load_file(&path).unwrap(), &Options::default());
    let save = op(&m, "save an order with its items");
    assert!(save.requests.iter().any(|r| r.container == "Account"), "{save:#?}");
    assert!(save.is_atomic());
}

/// A member written once for each of its aggregate's: the plan says where the count
/// it is priced at comes from (the relationship's `avg`, else its `max`), never "on
/// average" for a maximum.
#[test]
fn a_member_write_says_where_its_count_comes_from() {
    let model = |counts: &str| {
        from_json(&format!(
            r#"{{
              "name": "Tickets",
              "entities": [
                {{ "name": "Order", "identity": "orderId", "attributes": [{{ "name": "total", "type": "decimal" }}] }},
                {{ "name": "Ticket", "identity": "ticketId", "attributes": [{{ "name": "holderName", "type": "string" }}] }}
              ],
              "relationships": [{{ "from": "Order", "to": "Ticket", "cardinality": "few"{counts} }}],
              "aggregates": [{{ "root": "Order", "members": ["Ticket"] }}],
              "accessPatterns": [
                {{ "name": "place an order", "kind": "write", "write": "create", "start": "Order", "returns": ["Order", "Ticket"], "perSecond": 5 }}
              ]
            }}"#
        ))
    };
    let said = |m: &cosmap_mapper::LogicalModel| {
        let op = op(m, "place an order");
        let each = op
            .requests
            .iter()
            .find_map(|r| r.purpose.each())
            .expect("a write per ticket");
        (each.typical, each.to_string())
    };
    assert_eq!(
        said(&model(r#", "max": 10, "avg": 2.5"#)),
        (2.5, " of the `Order` (2.5 on average)".to_string())
    );
    assert_eq!(
        said(&model(r#", "max": 4"#)),
        (4.0, " of the `Order` (4 at most)".to_string())
    );
}
