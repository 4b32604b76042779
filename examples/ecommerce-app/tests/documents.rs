//! The document types that `build.rs` generates from `examples/ecommerce/model.json`,
//! used as an application would: built, serialised, read back from a Cosmos DB query,
//! checked against the emitted JSON Schemas, copied and referenced.

use std::path::PathBuf;

use ecommerce_app::{account, dictionary, item, order, presented_product, types};
use serde::Serialize;
use serde_json::{json, Value};

// ---------------------------------------------------------------------------
// Realistic documents, one per generated document type.
// ---------------------------------------------------------------------------

fn germany() -> types::CountrySnapshot {
    types::CountrySnapshot {
        country_id: "DE".into(),
        name: "Germany".into(),
        iso_code: "DEU".into(),
        currency: "EUR".into(),
    }
}

fn account_doc() -> account::Account {
    account::Account {
        id: "acc-1001".into(),
        r#type: account::kind::Account::Account,
        etag: None,
        ts: None,
        account_id: "acc-1001".into(),
        email: "jana.novak@example.com".into(),
        full_name: "Jana Novak".into(),
        phone: Some("+49 30 1234567".into()),
        created_at: "2024-03-01T09:30:00Z".into(),
        delivery_addresses: vec![types::DeliveryAddress {
            address_type: "home".into(),
            street: "Lindenstraße 12".into(),
            city: "Berlin".into(),
            postal_code: "10969".into(),
            country: germany(),
        }],
        main_address: types::MainAddress {
            street: "Lindenstraße 12".into(),
            city: "Berlin".into(),
            postal_code: "10969".into(),
            country: germany(),
        },
    }
}

fn bank_account_doc() -> account::BankAccount {
    account::BankAccount {
        id: "ba-2001".into(),
        r#type: account::kind::BankAccount::BankAccount,
        etag: None,
        ts: None,
        account_id: "acc-1001".into(),
        holder_name: "Jana Novak".into(),
        iban: "DE89370400440532013000".into(),
        bic: "COBADEFFXXX".into(),
    }
}

fn contact_doc() -> account::Contact {
    account::Contact {
        id: "ct-3001".into(),
        r#type: account::kind::Contact::Contact,
        etag: None,
        ts: None,
        account_id: "acc-1001".into(),
        full_name: "Petr Novak".into(),
        email: Some("petr.novak@example.com".into()),
        phone: None,
        contact_type: types::ContactType {
            code: "billing".into(),
            label: "Billing contact".into(),
        },
    }
}

fn credit_card_doc() -> account::CreditCard {
    account::CreditCard {
        id: "cc-4001".into(),
        r#type: account::kind::CreditCard::CreditCard,
        etag: None,
        ts: None,
        account_id: "acc-1001".into(),
        holder_name: "JANA NOVAK".into(),
        masked_number: "**** **** **** 4242".into(),
        expires_on: "2027-09-30".into(),
        card_type: types::CreditCardType {
            code: "visa".into(),
            label: "Visa".into(),
        },
    }
}

fn order_doc() -> order::Order {
    order::Order {
        id: "ord-5001".into(),
        r#type: order::kind::Order::Order,
        etag: None,
        ts: None,
        ttl: None,
        order_id: "ord-5001".into(),
        ordered_at: "2024-05-17T14:02:11Z".into(),
        total: "139.97".into(),
        currency: "EUR".into(),
        items: vec![
            types::OrderItem {
                quantity: 2,
                unit_price: "49.99".into(),
                item: types::ItemRef::new("itm-7001"),
            },
            types::OrderItem {
                quantity: 1,
                unit_price: "39.99".into(),
                item: types::ItemRef::new("itm-7002"),
            },
        ],
        order_type: types::OrderType {
            code: "web".into(),
            label: "Web shop".into(),
        },
        status: types::OrderStatus {
            code: "paid".into(),
            label: "Paid".into(),
        },
        account: types::AccountRef::new("acc-1001"),
        delivery_method: types::DeliveryMethodRef::new("dm-express"),
        warehouse: types::WarehouseRef::new("wh-berlin"),
    }
}

fn order_status_history_doc() -> order::OrderStatusHistory {
    order::OrderStatusHistory {
        id: "osh-6001".into(),
        r#type: order::kind::OrderStatusHistory::OrderStatusHistory,
        etag: None,
        ts: None,
        ttl: None,
        order_id: "ord-5001".into(),
        changed_at: "2024-05-17T14:05:00Z".into(),
        note: Some("Payment captured".into()),
        status: types::OrderStatus {
            code: "paid".into(),
            label: "Paid".into(),
        },
    }
}

fn package_doc() -> order::Package {
    order::Package {
        id: "pkg-6101".into(),
        r#type: order::kind::Package::Package,
        etag: None,
        ts: None,
        ttl: None,
        order_id: "ord-5001".into(),
        tracking_number: "00340434161094042557".into(),
        shipped_at: Some("2024-05-18T08:00:00Z".into()),
        delivered_at: None,
    }
}

fn payment_doc() -> order::Payment {
    order::Payment {
        id: "pay-6201".into(),
        r#type: order::kind::Payment::Payment,
        etag: None,
        ts: None,
        ttl: None,
        order_id: "ord-5001".into(),
        amount: "139.97".into(),
        paid_at: "2024-05-17T14:04:37Z".into(),
        method: types::PaymentMethod {
            code: "card".into(),
            label: "Credit card".into(),
        },
    }
}

fn country_doc() -> dictionary::Country {
    dictionary::Country {
        id: "DE".into(),
        r#type: dictionary::kind::Country::Country,
        etag: None,
        ts: None,
        name: "Germany".into(),
        iso_code: "DEU".into(),
        currency: "EUR".into(),
    }
}

fn delivery_method_doc() -> dictionary::DeliveryMethod {
    dictionary::DeliveryMethod {
        id: "dm-express".into(),
        r#type: dictionary::kind::DeliveryMethod::DeliveryMethod,
        etag: None,
        ts: None,
        name: "Express".into(),
        carrier: "DHL".into(),
        price: "9.90".into(),
    }
}

fn warehouse_doc() -> dictionary::Warehouse {
    dictionary::Warehouse {
        id: "wh-berlin".into(),
        r#type: dictionary::kind::Warehouse::Warehouse,
        etag: None,
        ts: None,
        name: "Berlin Süd".into(),
        city: "Berlin".into(),
        country: germany(),
    }
}

fn item_doc() -> item::Item {
    item::Item {
        id: "itm-7001".into(),
        r#type: item::kind::Item::Item,
        etag: None,
        ts: None,
        item_id: "itm-7001".into(),
        sku: "TSHIRT-NAVY-M".into(),
        name: "Organic cotton T-shirt, navy".into(),
        weight_grams: 180,
    }
}

fn product_availability_doc() -> item::ProductAvailability {
    item::ProductAvailability {
        id: "pa-itm-7001-wh-berlin".into(),
        r#type: item::kind::ProductAvailability::ProductAvailability,
        etag: None,
        ts: None,
        item_id: "itm-7001".into(),
        quantity: 42,
        updated_at: "2024-05-17T06:00:00Z".into(),
        warehouse: types::WarehouseRef::new("wh-berlin"),
    }
}

fn presented_product_doc() -> presented_product::PresentedProduct {
    presented_product::PresentedProduct {
        id: "prod-8001".into(),
        r#type: presented_product::kind::PresentedProduct::PresentedProduct,
        etag: None,
        ts: None,
        product_id: "prod-8001".into(),
        country_id: "DE".into(),
        sku: "TSHIRT-NAVY".into(),
        title: "Organic cotton T-shirt".into(),
        description: "Soft, heavyweight organic cotton tee.".into(),
        price: "24.95".into(),
        currency: "EUR".into(),
        tags: vec!["organic".into(), "t-shirt".into()],
        options: vec![types::Option {
            code: "gift-wrap".into(),
            label: "Gift wrap".into(),
            surcharge: Some("2.50".into()),
        }],
        sizes: vec![
            types::Size {
                code: "M".into(),
                label: "Medium".into(),
            },
            types::Size {
                code: "L".into(),
                label: "Large".into(),
            },
        ],
        variants: vec![types::Variant {
            code: "navy".into(),
            color: "Navy".into(),
            image_url: Some("https://cdn.example.com/tshirt-navy.jpg".into()),
        }],
        country: germany(),
        items: vec![types::ItemRef::new("itm-7001"), types::ItemRef::new("itm-7002")],
    }
}

// ---------------------------------------------------------------------------
// Every document type, serialised, with what the tests expect of it.
// ---------------------------------------------------------------------------

struct Sample {
    /// Container id, also the folder of its schemas.
    container: &'static str,
    /// Document type name, also the schema file's stem.
    doc_type: &'static str,
    /// The struct's `TYPE` constant.
    type_const: &'static str,
    /// The discriminator the model implies (camelCase of the document type).
    expected_type: &'static str,
    /// The JSON property holding the partition key (`type` for the dictionary).
    partition_key_property: &'static str,
    /// What the struct's `partition_key()` returns.
    partition_key: String,
    /// The struct's `id`.
    id: String,
    /// The serialised document.
    json: Value,
    /// Deserialises `json` as the same struct and as the container's enum, and
    /// says whether both equal the original document.
    round_trips: fn(&Value) -> bool,
}

/// The first level of a document's partition key: all of it under a one-level key,
/// the first of a hierarchical key's values.
trait FirstLevel {
    fn first_level(self) -> String;
}

impl FirstLevel for String {
    fn first_level(self) -> String {
        self
    }
}

impl FirstLevel for (String, String) {
    fn first_level(self) -> String {
        self.0
    }
}

macro_rules! sample {
    ($module:ident :: $ty:ident, $enum:ident, $container:literal, $expected_type:literal, $pk_property:literal, $doc:expr) => {{
        let doc: $module::$ty = $doc;
        fn round_trips(json: &Value) -> bool {
            let doc: $module::$ty = $doc;
            let back: $module::$ty = serde_json::from_value(json.clone()).expect("deserialises as its struct");
            let any: $module::$enum =
                serde_json::from_value(json.clone()).expect("deserialises as its container's enum");
            back == doc && any == $module::$enum::from(doc) && any.id() == back.id
        }
        Sample {
            container: $container,
            doc_type: stringify!($ty),
            type_const: $module::$ty::TYPE,
            expected_type: $expected_type,
            partition_key_property: $pk_property,
            partition_key: FirstLevel::first_level(doc.partition_key()),
            id: doc.id.clone(),
            json: to_json(&doc),
            round_trips,
        }
    }};
}

fn to_json<T: Serialize>(doc: &T) -> Value {
    serde_json::to_value(doc).expect("serialises")
}

fn samples() -> Vec<Sample> {
    vec![
        sample!(
            account::Account,
            AccountDocument,
            "Account",
            "account",
            "accountId",
            account_doc()
        ),
        sample!(
            account::BankAccount,
            AccountDocument,
            "Account",
            "bankAccount",
            "accountId",
            bank_account_doc()
        ),
        sample!(
            account::Contact,
            AccountDocument,
            "Account",
            "contact",
            "accountId",
            contact_doc()
        ),
        sample!(
            account::CreditCard,
            AccountDocument,
            "Account",
            "creditCard",
            "accountId",
            credit_card_doc()
        ),
        sample!(
            account::Order,
            AccountDocument,
            "Account",
            "order",
            "accountId",
            account::Order::from(&order_doc())
        ),
        sample!(
            dictionary::Country,
            DictionaryDocument,
            "Dictionary",
            "country",
            "type",
            country_doc()
        ),
        sample!(
            dictionary::DeliveryMethod,
            DictionaryDocument,
            "Dictionary",
            "deliveryMethod",
            "type",
            delivery_method_doc()
        ),
        sample!(
            dictionary::Warehouse,
            DictionaryDocument,
            "Dictionary",
            "warehouse",
            "type",
            warehouse_doc()
        ),
        sample!(item::Item, ItemDocument, "Item", "item", "itemId", item_doc()),
        sample!(
            item::ProductAvailability,
            ItemDocument,
            "Item",
            "productAvailability",
            "itemId",
            product_availability_doc()
        ),
        sample!(order::Order, OrderDocument, "Order", "order", "orderId", order_doc()),
        sample!(
            order::OrderStatusHistory,
            OrderDocument,
            "Order",
            "orderStatusHistory",
            "orderId",
            order_status_history_doc()
        ),
        sample!(
            order::Package,
            OrderDocument,
            "Order",
            "package",
            "orderId",
            package_doc()
        ),
        sample!(
            order::Payment,
            OrderDocument,
            "Order",
            "payment",
            "orderId",
            payment_doc()
        ),
        sample!(
            presented_product::PresentedProduct,
            PresentedProductDocument,
            "PresentedProduct",
            "presentedProduct",
            "countryId",
            presented_product_doc()
        ),
    ]
}

// ---------------------------------------------------------------------------
// 1. Every document type: id, type, partition key; every container's constants.
// ---------------------------------------------------------------------------

#[test]
fn every_document_type_serialises_its_id_type_and_partition_key() {
    let samples = samples();
    assert_eq!(samples.len(), 15, "one sample per generated document type");
    for s in &samples {
        let what = format!("{}/{}", s.container, s.doc_type);
        let json = &s.json;
        assert!(json.is_object(), "{what}: {json}");
        assert!(!s.id.is_empty(), "{what}");
        assert_eq!(json["id"], Value::from(s.id.as_str()), "{what}: id");
        assert_eq!(s.type_const, s.expected_type, "{what}: TYPE");
        assert_eq!(json["type"], Value::from(s.type_const), "{what}: type");
        assert_eq!(
            json[s.partition_key_property],
            Value::from(s.partition_key.as_str()),
            "{what}: partition key property `{}` vs partition_key()",
            s.partition_key_property
        );
        if s.container == "Dictionary" {
            assert_eq!(
                s.partition_key, s.type_const,
                "{what}: the dictionary is partitioned by type"
            );
        }
        // camelCase JSON only: no snake_case property slipped through.
        let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
        assert!(keys.iter().all(|k| !k.contains('_')), "{what}: {keys:?}");
        assert!(
            (s.round_trips)(json),
            "{what}: does not round-trip through its struct and enum"
        );
    }

    // Each document's `id` is its identity; a root's partition key is its own id.
    let account = account_doc();
    assert_eq!(account.partition_key(), account.id);
    let item = item_doc();
    assert_eq!(item.partition_key(), item.id);
    let order = order_doc();
    assert_eq!(order.partition_key(), order.id);
    // Optional attributes are left out, not written as null.
    let package = to_json(&package_doc());
    assert!(package.get("deliveredAt").is_none(), "{package}");
    assert_eq!(package["shippedAt"], "2024-05-18T08:00:00Z");
}

#[test]
fn every_container_module_names_its_container_and_partition_key_path() {
    let constants = [
        (account::CONTAINER, account::PARTITION_KEY_PATH),
        (dictionary::CONTAINER, dictionary::PARTITION_KEY_PATH),
        (item::CONTAINER, item::PARTITION_KEY_PATH),
        (order::CONTAINER, order::PARTITION_KEY_PATH),
        (presented_product::CONTAINER, presented_product::PARTITION_KEY_PATH),
    ];
    assert_eq!(
        constants,
        [
            ("Account", "/accountId"),
            ("Dictionary", "/type"),
            ("Item", "/itemId"),
            ("Order", "/orderId"),
            // A hierarchical key, by country first (`PARTITION_KEY_PATHS` has both).
            ("PresentedProduct", "/countryId"),
        ]
    );
    // The path names the property each sample carries its partition key in.
    for s in samples() {
        let path = constants.iter().find(|(c, _)| *c == s.container).unwrap().1;
        assert_eq!(
            path,
            format!("/{}", s.partition_key_property),
            "{}/{}",
            s.container,
            s.doc_type
        );
    }
}

#[test]
fn a_discriminator_accepts_only_its_own_type_value() {
    let mut json = to_json(&bank_account_doc());
    json["type"] = Value::from("creditCard");
    let err = serde_json::from_value::<account::BankAccount>(json).unwrap_err();
    assert!(err.to_string().contains("creditCard"), "{err}");
}

// ---------------------------------------------------------------------------
// 2. A mixed Account partition, as a query returns it.
// ---------------------------------------------------------------------------

/// `SELECT * FROM c WHERE c.accountId = @id` on the Account container, as Cosmos
/// DB returns it: each item with its system properties.
const ACCOUNT_PARTITION: &str = r#"[
  {
    "id": "acc-1001", "type": "account", "accountId": "acc-1001",
    "email": "jana.novak@example.com", "fullName": "Jana Novak", "phone": "+49 30 1234567",
    "createdAt": "2024-03-01T09:30:00Z",
    "deliveryAddresses": [
      {"addressType": "home", "street": "Lindenstraße 12", "city": "Berlin", "postalCode": "10969",
       "country": {"countryId": "DE", "name": "Germany", "isoCode": "DEU", "currency": "EUR"}}
    ],
    "mainAddress": {"street": "Lindenstraße 12", "city": "Berlin", "postalCode": "10969",
      "country": {"countryId": "DE", "name": "Germany", "isoCode": "DEU", "currency": "EUR"}},
    "_rid": "Jt0XAKh1kWUBAAAAAAAAAA==", "_self": "dbs/Jt0XAA==/colls/Jt0XAKh1kWU=/docs/Jt0XAKh1kWUBAAAAAAAAAA==/",
    "_etag": "\"0000d986-0000-0d00-0000-6647a1b30000\"", "_attachments": "attachments/", "_ts": 1715970483
  },
  {
    "id": "cc-4001", "type": "creditCard", "accountId": "acc-1001",
    "holderName": "JANA NOVAK", "maskedNumber": "**** **** **** 4242", "expiresOn": "2027-09-30",
    "cardType": {"code": "visa", "label": "Visa"},
    "_rid": "Jt0XAKh1kWUCAAAAAAAAAA==", "_self": "dbs/Jt0XAA==/colls/Jt0XAKh1kWU=/docs/Jt0XAKh1kWUCAAAAAAAAAA==/",
    "_etag": "\"0000da86-0000-0d00-0000-6647a1b30000\"", "_attachments": "attachments/", "_ts": 1715970483
  },
  {
    "id": "ba-2001", "type": "bankAccount", "accountId": "acc-1001",
    "holderName": "Jana Novak", "iban": "DE89370400440532013000", "bic": "COBADEFFXXX",
    "_rid": "Jt0XAKh1kWUDAAAAAAAAAA==", "_self": "dbs/Jt0XAA==/colls/Jt0XAKh1kWU=/docs/Jt0XAKh1kWUDAAAAAAAAAA==/",
    "_etag": "\"0000db86-0000-0d00-0000-6647a1b30000\"", "_attachments": "attachments/", "_ts": 1715970484
  },
  {
    "id": "ct-3001", "type": "contact", "accountId": "acc-1001",
    "fullName": "Petr Novak", "email": "petr.novak@example.com",
    "contactType": {"code": "billing", "label": "Billing contact"},
    "_rid": "Jt0XAKh1kWUEAAAAAAAAAA==", "_self": "dbs/Jt0XAA==/colls/Jt0XAKh1kWU=/docs/Jt0XAKh1kWUEAAAAAAAAAA==/",
    "_etag": "\"0000dc86-0000-0d00-0000-6647a1b30000\"", "_attachments": "attachments/", "_ts": 1715970484
  },
  {
    "id": "ord-5001", "type": "order", "accountId": "acc-1001",
    "orderedAt": "2024-05-17T14:02:11Z", "total": "139.97", "currency": "EUR",
    "items": [
      {"quantity": 2, "unitPrice": "49.99", "item": {"id": "itm-7001", "partitionKey": "itm-7001"}},
      {"quantity": 1, "unitPrice": "39.99", "item": {"id": "itm-7002", "partitionKey": "itm-7002"}}
    ],
    "orderType": {"code": "web", "label": "Web shop"},
    "status": {"code": "paid", "label": "Paid"},
    "account": {"id": "acc-1001", "partitionKey": "acc-1001"},
    "deliveryMethod": {"id": "dm-express", "partitionKey": "deliveryMethod"},
    "warehouse": {"id": "wh-berlin", "partitionKey": "warehouse"},
    "_rid": "Jt0XAKh1kWUFAAAAAAAAAA==", "_self": "dbs/Jt0XAA==/colls/Jt0XAKh1kWU=/docs/Jt0XAKh1kWUFAAAAAAAAAA==/",
    "_etag": "\"0000dd86-0000-0d00-0000-6647a1b40000\"", "_attachments": "attachments/", "_ts": 1715970485
  }
]"#;

/// `read` (a document read back) is `expected` with the `_etag` and `_ts` Cosmos DB gave it.
macro_rules! assert_read {
    ($read:expr, $expected:expr) => {{
        let mut read = $read.clone();
        assert!(read.etag.is_some() && read.ts.is_some(), "kept on read: {read:?}");
        read.etag = None;
        read.ts = None;
        assert_eq!(read, $expected)
    }};
}

#[test]
fn a_mixed_account_partition_deserialises_into_the_right_variants() {
    let documents: Vec<account::AccountDocument> =
        serde_json::from_str(ACCOUNT_PARTITION).expect("the partition deserialises");
    assert_eq!(documents.len(), 5);
    match &documents[0] {
        account::AccountDocument::Account(a) => assert_read!(a, account_doc()),
        other => panic!("expected an account, got {other:?}"),
    }
    match &documents[1] {
        account::AccountDocument::CreditCard(c) => assert_read!(c, credit_card_doc()),
        other => panic!("expected a credit card, got {other:?}"),
    }
    match &documents[2] {
        account::AccountDocument::BankAccount(b) => assert_read!(b, bank_account_doc()),
        other => panic!("expected a bank account, got {other:?}"),
    }
    match &documents[3] {
        account::AccountDocument::Contact(c) => assert_read!(c, contact_doc()),
        other => panic!("expected a contact, got {other:?}"),
    }
    match &documents[4] {
        account::AccountDocument::Order(o) => assert_read!(o, account::Order::from(&order_doc())),
        other => panic!("expected an order copy, got {other:?}"),
    }
    let ids: Vec<&str> = documents.iter().map(account::AccountDocument::id).collect();
    assert_eq!(ids, ["acc-1001", "cc-4001", "ba-2001", "ct-3001", "ord-5001"]);
    assert!(documents.iter().all(|d| d.partition_key() == "acc-1001"));

    // Written back, a document keeps its own shape, its `_etag` and `_ts` (for a
    // conditional replace) and drops the other system properties.
    let mut written = to_json(&documents[1]);
    assert_eq!(written["_etag"], "\"0000da86-0000-0d00-0000-6647a1b30000\"");
    let object = written.as_object_mut().unwrap();
    assert!(object.remove("_ts").is_some() && object.remove("_etag").is_some());
    assert_eq!(written, to_json(&credit_card_doc()));
    assert!(written.get("_rid").is_none());
}

#[test]
fn an_unknown_or_missing_type_is_an_error_that_says_so() {
    let unknown = r#"[{"id": "wl-1", "type": "wishlist", "accountId": "acc-1001", "_ts": 1715970485}]"#;
    let err = serde_json::from_str::<Vec<account::AccountDocument>>(unknown).unwrap_err();
    assert!(
        err.to_string()
            .contains("unknown document type `wishlist` in container `Account`"),
        "{err}"
    );

    // A type of another container is just as unknown here.
    let elsewhere = r#"{"id": "pay-6201", "type": "payment", "accountId": "acc-1001"}"#;
    let err = serde_json::from_str::<account::AccountDocument>(elsewhere).unwrap_err();
    assert!(err.to_string().contains("unknown document type `payment`"), "{err}");

    for missing in [
        r#"{"id": "acc-1001", "accountId": "acc-1001", "_rid": "Jt0XAKh1kWUBAAAAAAAAAA=="}"#,
        r#"{"id": "acc-1001", "type": 7, "accountId": "acc-1001"}"#,
        r#"{"id": "acc-1001", "type": null, "accountId": "acc-1001"}"#,
    ] {
        let err = serde_json::from_str::<account::AccountDocument>(missing).unwrap_err();
        assert!(
            err.to_string().contains("the document has no string `type` property"),
            "{missing}: {err}"
        );
    }

    // A known type with a missing property names the property.
    let incomplete = r#"{"id": "ba-2001", "type": "bankAccount", "accountId": "acc-1001", "holderName": "Jana Novak", "bic": "COBADEFFXXX"}"#;
    let err = serde_json::from_str::<account::AccountDocument>(incomplete).unwrap_err();
    assert!(err.to_string().contains("missing field `iban`"), "{err}");
}

// ---------------------------------------------------------------------------
// 3. Every serialised document against its emitted JSON Schema.
// ---------------------------------------------------------------------------

fn schema_path(container: &str, doc_type: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../ecommerce/generated/schemas")
        .join(container)
        .join(format!("{doc_type}.schema.json"))
}

fn validator(container: &str, doc_type: &str) -> jsonschema::Validator {
    let path = schema_path(container, doc_type);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let schema: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema",
        "{}",
        path.display()
    );
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap_or_else(|e| panic!("{}: not a valid schema: {e}", path.display()))
}

fn errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

#[test]
fn every_serialised_document_satisfies_its_json_schema() {
    for s in samples() {
        let validator = validator(s.container, s.doc_type);
        let errors = errors(&validator, &s.json);
        assert!(
            errors.is_empty(),
            "{}/{} breaks its schema: {errors:#?}\n{:#}",
            s.container,
            s.doc_type,
            s.json
        );
    }
}

#[test]
fn documents_as_cosmos_db_returns_them_satisfy_their_schemas() {
    let items: Vec<Value> = serde_json::from_str(ACCOUNT_PARTITION).unwrap();
    let schemas = ["Account", "CreditCard", "BankAccount", "Contact", "Order"];
    for (item, doc_type) in items.iter().zip(schemas) {
        let errors = errors(&validator("Account", doc_type), item);
        assert!(errors.is_empty(), "Account/{doc_type}: {errors:#?}");
    }
}

#[test]
fn broken_documents_fail_their_schemas() {
    let order = validator("Order", "Order");
    let good = to_json(&order_doc());
    assert!(order.is_valid(&good));

    let mut missing = good.clone();
    missing.as_object_mut().unwrap().remove("orderedAt");
    assert!(!order.is_valid(&missing), "a missing required property passes");
    assert!(
        errors(&order, &missing).iter().any(|e| e.contains("orderedAt")),
        "{:?}",
        errors(&order, &missing)
    );

    let mut wrong_type = good.clone();
    wrong_type["type"] = Value::from("payment");
    assert!(!order.is_valid(&wrong_type), "a wrong `type` passes");

    let mut bad_decimal = good.clone();
    bad_decimal["total"] = Value::from("139,97");
    assert!(!order.is_valid(&bad_decimal), "a decimal with a comma passes");

    let mut bad_date_time = good.clone();
    bad_date_time["orderedAt"] = Value::from("17/05/2024 14:02");
    assert!(
        !order.is_valid(&bad_date_time),
        "a date-time that is not RFC 3339 passes"
    );

    let mut bad_reference = good.clone();
    bad_reference["account"] = json!({"id": "acc-1001"});
    assert!(
        !order.is_valid(&bad_reference),
        "a reference without partitionKey passes"
    );

    let mut extra_in_embedded = good;
    extra_in_embedded["status"]["colour"] = Value::from("green");
    assert!(
        !order.is_valid(&extra_in_embedded),
        "an unknown property in an embedded object passes"
    );

    // The dictionary: the same for a document partitioned by its own `type`.
    let warehouse = validator("Dictionary", "Warehouse");
    let mut wrong_type = to_json(&warehouse_doc());
    assert!(warehouse.is_valid(&wrong_type));
    wrong_type["type"] = Value::from("country");
    assert!(!warehouse.is_valid(&wrong_type), "a wrong `type` passes");

    // A date attribute.
    let card = validator("Account", "CreditCard");
    let mut bad_date = to_json(&credit_card_doc());
    bad_date["expiresOn"] = Value::from("09/27");
    assert!(!card.is_valid(&bad_date), "a date that is not RFC 3339 passes");
}

// ---------------------------------------------------------------------------
// 4. The order copy kept in the Account container.
// ---------------------------------------------------------------------------

#[test]
fn an_account_order_copy_is_built_from_the_order() {
    let order = order_doc();
    let copy = account::Order::from(&order);

    assert_eq!(copy.account_id, order.account.id);
    assert_eq!(copy.partition_key(), "acc-1001");
    assert_eq!(copy.id, order.id);
    assert_eq!(copy.ordered_at, order.ordered_at);
    assert_eq!(copy.total, order.total);
    assert_eq!(copy.currency, order.currency);
    assert_eq!(copy.status, order.status);
    assert_eq!(copy.account, order.account);

    let json = to_json(&copy);
    assert_eq!(json["type"], "order");
    assert_eq!(json["type"], account::Order::TYPE);
    assert_eq!(json["accountId"], "acc-1001");
    assert_eq!(json["id"], "ord-5001");
    assert!(
        json.get("orderId").is_none(),
        "the copy is not partitioned by orderId: {json}"
    );

    // A projection copy: the short form "orders of an account" reads (orderedAt,
    // total, currency, status) and the reference its partition key comes from; the
    // items, type, delivery method and warehouse stay in the Order container.
    let mut keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "account",
            "accountId",
            "currency",
            "id",
            "orderedAt",
            "status",
            "total",
            "type"
        ]
    );
    let source = to_json(&order);
    for key in ["account", "currency", "orderedAt", "status", "total"] {
        assert_eq!(json[key], source[key], "{key}");
    }

    // The copy follows the order's account, not a fixed value.
    let mut other = order.clone();
    other.account = types::AccountRef::new("acc-2002");
    assert_eq!(account::Order::from(&other).account_id, "acc-2002");
}

// ---------------------------------------------------------------------------
// 5. References to aggregate roots.
// ---------------------------------------------------------------------------

#[test]
fn references_carry_what_a_point_read_needs() {
    let account = types::AccountRef::new("a1");
    assert_eq!(account.id, "a1");
    assert_eq!(account.partition_key, "a1");
    assert_eq!(to_json(&account), json!({"id": "a1", "partitionKey": "a1"}));

    let item = types::ItemRef::new(String::from("i1"));
    assert_eq!(item.partition_key, "i1");

    // Dictionary roots live in a container partitioned by `/type`.
    let warehouse = types::WarehouseRef::new("w1");
    assert_eq!(warehouse.id, "w1");
    assert_eq!(warehouse.partition_key, "warehouse");
    assert_eq!(warehouse.partition_key, dictionary::Warehouse::TYPE);
    assert_eq!(to_json(&warehouse), json!({"id": "w1", "partitionKey": "warehouse"}));

    let delivery = types::DeliveryMethodRef::new("dm-express");
    assert_eq!(delivery.partition_key, dictionary::DeliveryMethod::TYPE);

    // A reference points at the document it was made for: id and partition key match.
    let doc = warehouse_doc();
    let reference = types::WarehouseRef::new(doc.id.clone());
    assert_eq!(
        (reference.id, reference.partition_key),
        (doc.id.clone(), doc.partition_key())
    );
    let doc = account_doc();
    let reference = types::AccountRef::new(doc.id.clone());
    assert_eq!(
        (reference.id, reference.partition_key),
        (doc.id.clone(), doc.partition_key())
    );
}

#[test]
fn references_and_snapshots_are_built_from_documents() {
    let account = account_doc();
    let reference = types::AccountRef::from(&account);
    assert_eq!(reference.id, account.id);
    assert_eq!(reference.partition_key, account.partition_key());
    let warehouse = types::WarehouseRef::from(&warehouse_doc());
    assert_eq!(warehouse.partition_key, dictionary::Warehouse::TYPE);
    let country = country_doc();
    let snapshot = types::CountrySnapshot::from(&country);
    assert_eq!(snapshot.country_id, country.id);
    assert_eq!(snapshot.name, country.name);
    assert_eq!(snapshot.iso_code, country.iso_code);
}

#[test]
fn a_copy_source_can_be_deleted_by_ttl() {
    let mut order = order_doc();
    let live = to_json(&order);
    assert!(live.get("ttl").is_none(), "no ttl unless set");
    order.ttl = Some(60);
    let deleting = to_json(&order);
    assert_eq!(deleting["ttl"], 60);
    let errors = errors(&validator("Order", "Order"), &deleting);
    assert!(errors.is_empty(), "{errors:?}");
    let copy = account::Order::from(&order);
    assert!(
        to_json(&copy).get("ttl").is_none(),
        "the Account container has no TTL; the sync deletes the copy"
    );
}
