//! Provisioning the e-commerce containers on the SDK's in-memory Cosmos DB engine,
//! then using them with the generated document types: every type written and read
//! back (point read and single-partition query), and an Order aggregate saved
//! atomically with a transactional batch.
//!
//! The generated types come from the committed `examples/ecommerce/generated/cosmap.rs`
//! (kept identical to the generator's output by cosmap-codegen's snapshot test),
//! included here so that this crate does not depend on the code generator.
#![cfg(feature = "in-memory-emulator")]

use std::fmt::Debug;
use std::path::Path;
use std::sync::{Arc, Mutex};

use azure_data_cosmos::clients::{ContainerClient, DatabaseClient};
use azure_data_cosmos::{FeedScope, Query, TransactionalBatch};
use cosmap_mapper::ContainerDefinition;
use cosmap_provision::in_memory::{InMemoryAccount, Method, Request, RequestObserver};
use cosmap_provision::{
    apply, plan, AppliedAction, ApplyOptions, ContainerAction, DatabaseAction, Settings, Throughput,
};
use futures::TryStreamExt;
use serde::de::DeserializeOwned;
use serde::Serialize;

#[allow(dead_code, clippy::all)]
mod generated {
    include!("../../../examples/ecommerce/generated/cosmap.rs");
}

use generated::{account, dictionary, item, order, presented_product, types};

/// Every request the engine sees: method and path.
#[derive(Debug, Default)]
struct Requests(Mutex<Vec<(Method, String)>>);

impl RequestObserver for Requests {
    fn on_request(&self, request: &Request) {
        if let Ok(mut seen) = self.0.lock() {
            seen.push((request.method(), request.url().path().to_string()));
        }
    }
}

impl Requests {
    fn writes(&self) -> Vec<String> {
        self.0
            .lock()
            .map(|seen| {
                seen.iter()
                    .filter(|(method, _)| *method != Method::Get)
                    .map(|(method, path)| format!("{method:?} {path}"))
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn ecommerce_definitions() -> Vec<ContainerDefinition> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ecommerce/model.json");
    let model = cosmap_domain::load_file(&path).expect("the e-commerce model loads");
    cosmap_mapper::map(&model, &cosmap_mapper::Options::default()).container_definitions()
}

/// An in-memory account with the e-commerce containers provisioned in `Ecommerce`.
async fn provisioned() -> (InMemoryAccount, DatabaseClient) {
    let account = InMemoryAccount::new().expect("engine starts");
    let connection = account
        .connect("Ecommerce", Settings::default())
        .await
        .expect("connects");
    let plan = plan(&connection, &ecommerce_definitions(), Throughput::None)
        .await
        .expect("plans");
    apply(&connection, &plan, &ApplyOptions::default())
        .await
        .expect("applies");
    let database = connection.cosmos_client().database_client("Ecommerce");
    (account, database)
}

async fn container(database: &DatabaseClient, id: &str) -> ContainerClient {
    database.container_client(id, None).await.expect("container exists")
}

#[tokio::test]
async fn provisions_the_six_containers_and_a_second_run_sends_no_write() {
    let requests = Arc::new(Requests::default());
    let account = InMemoryAccount::observed(requests.clone()).expect("engine starts");
    let connection = account
        .connect("Ecommerce", Settings::default())
        .await
        .expect("connects");
    let definitions = ecommerce_definitions();
    assert_eq!(definitions.len(), 6);

    let first = plan(&connection, &definitions, Throughput::manual(400).expect("valid"))
        .await
        .expect("plans");
    assert_eq!(first.database.action, DatabaseAction::Create);
    assert_eq!(first.count(ContainerAction::Create), 6);
    assert_eq!(first.writes(&ApplyOptions::default()), 7);
    assert!(
        requests.writes().is_empty(),
        "planning only reads: {:?}",
        requests.writes()
    );
    let applied = apply(&connection, &first, &ApplyOptions::default())
        .await
        .expect("applies");
    let actions: Vec<_> = applied.iter().map(|a| (a.action, a.id.as_str())).collect();
    assert_eq!(
        actions,
        [
            (AppliedAction::CreatedDatabase, "Ecommerce"),
            (AppliedAction::CreatedContainer, "Account"),
            (AppliedAction::CreatedContainer, "Dictionary"),
            (AppliedAction::CreatedContainer, "Item"),
            (AppliedAction::CreatedContainer, "Order"),
            (AppliedAction::CreatedContainer, "PresentedProduct"),
            (AppliedAction::CreatedContainer, "UniqueClaims"),
        ]
    );
    let writes_after_first = requests.writes();
    assert_eq!(writes_after_first.len(), 7, "{writes_after_first:?}");

    // What the engine holds, read through the SDK rather than through the plan.
    let database = connection.cosmos_client().database_client("Ecommerce");
    for definition in &definitions {
        let properties = container(&database, &definition.id)
            .await
            .read(None)
            .await
            .expect("reads")
            .into_model()
            .expect("container properties");
        let paths: Vec<&str> = properties.partition_key.paths().iter().map(|p| p.as_ref()).collect();
        assert_eq!(paths, definition.partition_key.paths, "{}", definition.id);
    }

    let second = plan(&connection, &definitions, Throughput::None)
        .await
        .expect("plans again");
    assert_eq!(second.database.action, DatabaseAction::Present);
    assert_eq!(second.count(ContainerAction::Unchanged), 6, "{second:#?}");
    assert_eq!(second.writes(&ApplyOptions::default().update_indexing(true)), 0);
    let applied = apply(&connection, &second, &ApplyOptions::default().update_indexing(true))
        .await
        .expect("applies");
    assert!(applied.is_empty());
    assert_eq!(requests.writes(), writes_after_first, "the second run sent a write");
}

/// Writes `document`, reads it back by point read and by a single-partition query.
async fn round_trip<T, K>(container: &ContainerClient, partition_key: K, id: &str, document: &T)
where
    T: Serialize + DeserializeOwned + PartialEq + Debug + Send + 'static,
    K: Into<azure_data_cosmos::PartitionKey> + Clone,
{
    container
        .create_item(partition_key.clone(), id, document, None)
        .await
        .unwrap_or_else(|e| panic!("create {id}: {e}"));
    let read: T = container
        .read_item(partition_key.clone(), id, None)
        .await
        .and_then(|response| response.into_model())
        .unwrap_or_else(|e| panic!("read {id}: {e}"));
    let read_json = serde_json::to_value(&read).expect("serialises");
    assert!(
        read_json["_etag"].is_string() && read_json["_ts"].is_i64(),
        "the system properties are kept on read: {read_json}"
    );
    assert_eq!(
        without_system_properties(&read),
        document_json(document),
        "point read of {id}"
    );
    let query = Query::from("SELECT * FROM c WHERE c.id = @id")
        .with_parameter("@id", id)
        .expect("parameter");
    let found: Vec<T> = container
        .query_items(query, FeedScope::partition(partition_key), None)
        .await
        .expect("query starts")
        .try_collect()
        .await
        .unwrap_or_else(|e| panic!("query {id}: {e}"));
    let found: Vec<serde_json::Value> = found.iter().map(without_system_properties).collect();
    assert_eq!(found, [document_json(document)], "query for {id}");
}

/// `document` as JSON: what was written (it has no `_etag` or `_ts` yet).
fn document_json<T: Serialize>(document: &T) -> serde_json::Value {
    let json = serde_json::to_value(document).expect("serialises");
    assert!(
        json.get("_etag").is_none() && json.get("_ts").is_none(),
        "absent ones are not written"
    );
    json
}

/// A read document as JSON without the `_etag` and `_ts` Cosmos DB gave it.
fn without_system_properties<T: Serialize>(document: &T) -> serde_json::Value {
    let mut json = serde_json::to_value(document).expect("serialises");
    if let Some(object) = json.as_object_mut() {
        object.remove("_etag");
        object.remove("_ts");
    }
    json
}

fn country() -> types::CountrySnapshot {
    types::CountrySnapshot {
        country_id: "de".into(),
        name: "Germany".into(),
        iso_code: "DE".into(),
        currency: "EUR".into(),
    }
}

fn code(code: &str) -> (String, String) {
    (code.to_string(), code.to_uppercase())
}

fn source_order(order_id: &str) -> order::Order {
    let (status_code, status_label) = code("placed");
    let (type_code, type_label) = code("online");
    let order_type = types::OrderType {
        code: type_code,
        label: type_label,
    };
    let status = types::OrderStatus {
        code: status_code,
        label: status_label,
    };
    let (account, delivery_method) = (types::AccountRef::new("acc-1"), types::DeliveryMethodRef::new("dhl"));
    let warehouse = types::WarehouseRef::new("wh-1");
    let (at, total) = ("2025-01-31T10:00:00Z", "59.90");
    order::Order {
        items: vec![types::OrderItem {
            quantity: 2,
            unit_price: "29.95".into(),
            item: types::ItemRef::new("item-1"),
        }],
        ..order::Order::new(
            order_id,
            at,
            total,
            "EUR",
            order_type,
            status,
            account,
            delivery_method,
            warehouse,
        )
    }
}

fn payment(order_id: &str, id: &str) -> order::Payment {
    let method = types::PaymentMethod {
        code: "card".into(),
        label: "Card".into(),
    };
    order::Payment::new(id, order_id, "59.90", "2025-01-31T10:01:00Z", method)
}

fn package(order_id: &str, id: &str) -> order::Package {
    order::Package {
        shipped_at: Some("2025-02-01T08:00:00Z".into()),
        ..order::Package::new(id, order_id, format!("TRK-{id}"))
    }
}

fn status_change(order_id: &str, id: &str, status: &str) -> order::OrderStatusHistory {
    let (code, label) = code(status);
    order::OrderStatusHistory::new(id, order_id, "2025-01-31T10:00:00Z", types::OrderStatus { code, label })
}

#[tokio::test]
async fn every_generated_document_type_is_written_and_read_back() {
    let (_account, database) = provisioned().await;

    // Account container: the root, its entities and the copy of an order.
    let accounts = container(&database, account::CONTAINER).await;
    let main_address = types::MainAddress {
        street: "1 Analytical Way".into(),
        city: "Berlin".into(),
        postal_code: "10115".into(),
        country: country(),
    };
    let account_doc = account::Account {
        delivery_addresses: vec![types::DeliveryAddress {
            address_type: "home".into(),
            street: "1 Analytical Way".into(),
            city: "Berlin".into(),
            postal_code: "10115".into(),
            country: country(),
        }],
        ..account::Account::new(
            "acc-1",
            "ada@example.com",
            "Ada Lovelace",
            "2025-01-01T00:00:00Z",
            main_address,
        )
    };
    round_trip(&accounts, "acc-1", "acc-1", &account_doc).await;
    let bank_account = account::BankAccount::new(
        "bank-1",
        "acc-1",
        "Ada Lovelace",
        "DE89370400440532013000",
        "COBADEFFXXX",
    );
    round_trip(&accounts, "acc-1", "bank-1", &bank_account).await;
    let billing = types::ContactType {
        code: "billing".into(),
        label: "Billing".into(),
    };
    let contact = account::Contact {
        email: Some("charles@example.com".into()),
        ..account::Contact::new("contact-1", "acc-1", "Charles Babbage", billing)
    };
    round_trip(&accounts, "acc-1", "contact-1", &contact).await;
    let visa = types::CreditCardType {
        code: "visa".into(),
        label: "Visa".into(),
    };
    let credit_card = account::CreditCard::new("card-1", "acc-1", "Ada Lovelace", "**** 4242", "2030-12", visa);
    round_trip(&accounts, "acc-1", "card-1", &credit_card).await;
    let source = source_order("order-1");
    let order_copy = account::Order::from(&source);
    round_trip(&accounts, &order_copy.partition_key(), "order-1", &order_copy).await;

    // The whole Account partition, each item in its own variant.
    let partition: Vec<account::AccountDocument> = accounts
        .query_items("SELECT * FROM c", FeedScope::partition("acc-1"), None)
        .await
        .expect("query starts")
        .try_collect()
        .await
        .expect("mixed partition deserialises");
    let mut kinds: Vec<&str> = partition
        .iter()
        .map(|document| match document {
            account::AccountDocument::Account(_) => "account",
            account::AccountDocument::BankAccount(_) => "bankAccount",
            account::AccountDocument::Contact(_) => "contact",
            account::AccountDocument::CreditCard(_) => "creditCard",
            account::AccountDocument::Order(_) => "order",
        })
        .collect();
    kinds.sort_unstable();
    assert_eq!(kinds, ["account", "bankAccount", "contact", "creditCard", "order"]);

    // Dictionary container: partitioned by `type`.
    let dictionary_container = container(&database, dictionary::CONTAINER).await;
    let country_doc = dictionary::Country::new("de", "Germany", "DE", "EUR");
    round_trip(&dictionary_container, &country_doc.partition_key(), "de", &country_doc).await;
    let delivery_method = dictionary::DeliveryMethod::new("dhl", "DHL Express", "DHL", "4.99");
    round_trip(
        &dictionary_container,
        &delivery_method.partition_key(),
        "dhl",
        &delivery_method,
    )
    .await;
    let warehouse = dictionary::Warehouse::new("wh-1", "Berlin North", "Berlin", country());
    round_trip(&dictionary_container, &warehouse.partition_key(), "wh-1", &warehouse).await;

    // Item container: the item and its separately stored availability.
    let items = container(&database, item::CONTAINER).await;
    let item_doc = item::Item::new("item-1", "SKU-1", "Difference Engine", 1200);
    round_trip(&items, "item-1", "item-1", &item_doc).await;
    let warehouse_ref = types::WarehouseRef::from(&warehouse);
    let availability =
        item::ProductAvailability::new("avail-wh-1", "item-1", 17, "2025-01-31T09:00:00Z", warehouse_ref);
    round_trip(&items, "item-1", "avail-wh-1", &availability).await;

    // Order container: the root and its entities.
    let orders = container(&database, order::CONTAINER).await;
    round_trip(&orders, "order-1", "order-1", &source).await;
    round_trip(&orders, "order-1", "pay-1", &payment("order-1", "pay-1")).await;
    round_trip(&orders, "order-1", "pkg-1", &package("order-1", "pkg-1")).await;
    round_trip(
        &orders,
        "order-1",
        "status-1",
        &status_change("order-1", "status-1", "placed"),
    )
    .await;

    // PresentedProduct container.
    let products = container(&database, presented_product::CONTAINER).await;
    let (title, description) = ("Difference Engine", "Computes polynomials");
    let product = presented_product::PresentedProduct {
        product_id: "prod-1".into(),
        tags: vec!["history".into()],
        options: vec![types::Option {
            code: "gift".into(),
            label: "Gift wrap".into(),
            surcharge: Some("2.00".into()),
        }],
        sizes: vec![types::Size {
            code: "m".into(),
            label: "M".into(),
        }],
        variants: vec![types::Variant {
            code: "brass".into(),
            color: "brass".into(),
            image_url: None,
        }],
        items: vec![types::ItemRef::from(&item_doc)],
        ..presented_product::PresentedProduct::new(
            "prod-1-de",
            "de",
            "SKU-1",
            title,
            description,
            "29.95",
            "EUR",
            country(),
        )
    };
    // A hierarchical key: by country, then product.
    round_trip(&products, product.partition_key(), "prod-1-de", &product).await;
}

/// All of an order's documents in its partition, as `type:id`, sorted.
async fn order_partition(orders: &ContainerClient, order_id: &str) -> Vec<String> {
    let documents: Vec<order::OrderDocument> = orders
        .query_items("SELECT * FROM c", FeedScope::partition(order_id.to_string()), None)
        .await
        .expect("query starts")
        .try_collect()
        .await
        .expect("order documents deserialise");
    let mut seen: Vec<String> = documents
        .iter()
        .map(|document| {
            let kind = match document {
                order::OrderDocument::Order(_) => "order",
                order::OrderDocument::Payment(_) => "payment",
                order::OrderDocument::Package(_) => "package",
                order::OrderDocument::OrderStatusHistory(_) => "orderStatusHistory",
            };
            format!("{kind}:{}", document.id())
        })
        .collect();
    seen.sort();
    seen
}

#[tokio::test]
async fn an_order_aggregate_is_saved_atomically_or_not_at_all() {
    let (_account, database) = provisioned().await;
    let orders = container(&database, order::CONTAINER).await;

    let batch = TransactionalBatch::new("order-7")
        .create_item(source_order("order-7"))
        .and_then(|b| b.create_item(payment("order-7", "pay-1")))
        .and_then(|b| b.create_item(payment("order-7", "pay-2")))
        .and_then(|b| b.create_item(package("order-7", "pkg-1")))
        .and_then(|b| b.create_item(status_change("order-7", "status-1", "placed")))
        .and_then(|b| b.create_item(status_change("order-7", "status-2", "paid")))
        .expect("batch builds");
    let response = orders
        .execute_transactional_batch(batch, None)
        .await
        .expect("batch runs");
    assert!(response.status().is_success(), "{:?}", response.status());
    let results = response.into_model().expect("batch results");
    assert_eq!(results.results().len(), 6);
    assert!(results.results().iter().all(|r| r.is_success()));
    assert_eq!(
        order_partition(&orders, "order-7").await,
        [
            "order:order-7",
            "orderStatusHistory:status-1",
            "orderStatusHistory:status-2",
            "package:pkg-1",
            "payment:pay-1",
            "payment:pay-2",
        ]
    );

    // A payment saved earlier; then a batch whose last create collides with it.
    orders
        .create_item("order-8", "pay-1", payment("order-8", "pay-1"), None)
        .await
        .expect("payment saved");
    let batch = TransactionalBatch::new("order-8")
        .create_item(source_order("order-8"))
        .and_then(|b| b.create_item(status_change("order-8", "status-1", "placed")))
        .and_then(|b| b.create_item(package("order-8", "pkg-1")))
        .and_then(|b| b.create_item(payment("order-8", "pay-1")))
        .expect("batch builds");
    // Cosmos DB answers 207 (multi-status): 409 for the colliding create, 424
    // (failed dependency) for every other operation, and commits none of them.
    let response = orders
        .execute_transactional_batch(batch, None)
        .await
        .expect("batch runs");
    assert_eq!(u16::from(response.status()), 207);
    let results = response.into_model().expect("batch results");
    let statuses: Vec<u16> = results.results().iter().map(|r| r.status_code()).collect();
    assert_eq!(statuses, [424, 424, 424, 409]);
    assert_eq!(
        order_partition(&orders, "order-8").await,
        ["payment:pay-1"],
        "nothing of the batch is left"
    );
    let missing = orders.read_item("order-8", "order-8", None).await;
    assert!(missing.is_err_and(|e| e.status().is_not_found()));
}
