//! The sample documents, checked against the generated Rust document types of the
//! e-commerce example (the committed `examples/ecommerce/generated/cosmap.rs`, kept
//! identical to the generator's output by cosmap-codegen's snapshot test; included
//! here so this crate does not depend on the code generator).

mod common;

use cosmap_verify::samples::{sample_documents, Key, Sample, ARRAY_LEN, CHILDREN, ROOTS};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

#[allow(dead_code, clippy::all)]
mod generated {
    include!("../../../examples/ecommerce/generated/cosmap.rs");
}

use generated::{account, dictionary, item, order, presented_product, types, unique_claims};

fn ecommerce_samples() -> Vec<Sample> {
    let (model, logical) = common::example("ecommerce");
    sample_documents(&model, &logical).expect("samples")
}

/// The document read as the generated type `T` and written back.
fn round_trip<T: DeserializeOwned + Serialize>(body: &Value) -> Value {
    let typed: T = serde_json::from_value(body.clone()).unwrap_or_else(|e| panic!("{e}: {body}"));
    serde_json::to_value(typed).expect("serialises")
}

fn find<'a>(samples: &'a [Sample], container: &str, id: &str) -> &'a Sample {
    samples
        .iter()
        .find(|s| s.container == container && s.id == id)
        .unwrap_or_else(|| panic!("no sample `{id}` in `{container}`"))
}

#[test]
fn every_sample_is_exactly_a_generated_document_of_its_container() {
    let samples = ecommerce_samples();
    for s in &samples {
        let back = match s.container.as_str() {
            "Account" => round_trip::<account::AccountDocument>(&s.body),
            "Dictionary" => round_trip::<dictionary::DictionaryDocument>(&s.body),
            "Item" => round_trip::<item::ItemDocument>(&s.body),
            "Order" => round_trip::<order::OrderDocument>(&s.body),
            "PresentedProduct" => round_trip::<presented_product::PresentedProductDocument>(&s.body),
            "UniqueClaims" => round_trip::<unique_claims::UniqueClaimsDocument>(&s.body),
            other => panic!("unexpected container {other}"),
        };
        assert_eq!(back, s.body, "{} in {}", s.id, s.container);
    }
}

#[test]
fn counts_per_document_type() {
    let samples = ecommerce_samples();
    let count = |container: &str, kind: &str| {
        samples
            .iter()
            .filter(|s| s.container == container && s.document_type == kind)
            .count()
    };
    let children: usize = CHILDREN.iter().sum();
    assert_eq!(count("Account", "Account"), ROOTS);
    assert_eq!(count("Account", "BankAccount"), children);
    // "orders of an account" reads at most 10: twice that plus ROOTS orders, so
    // that one account has more than 10 even after an equality filter.
    let orders = 2 * 10 + ROOTS;
    assert_eq!(count("Order", "Order"), orders);
    assert_eq!(count("Account", "Order"), orders, "a copy of each order");
    assert_eq!(count("Dictionary", "Country"), ROOTS);
    assert_eq!(count("Item", "ProductAvailability"), children);
    let per_orders: usize = (0..orders).map(|p| CHILDREN[p % CHILDREN.len()]).sum();
    assert_eq!(count("Order", "Payment"), per_orders);
    // Parents hold different numbers of children.
    let per_account: Vec<usize> = (1..=ROOTS)
        .map(|a| {
            samples
                .iter()
                .filter(|s| s.document_type == "BankAccount" && s.partition_key == Key::one(format!("account-{a}")))
                .count()
        })
        .collect();
    assert_eq!(per_account, CHILDREN);
    let account = find(&samples, "Account", "account-1");
    assert_eq!(
        account.body["deliveryAddresses"].as_array().map(Vec::len),
        Some(ARRAY_LEN)
    );
}

#[test]
fn copies_and_snapshots_are_what_the_generated_conversions_build() {
    let samples = ecommerce_samples();
    let copies: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.container == "Account" && s.document_type == "Order")
        .collect();
    assert_eq!(copies.len(), 2 * 10 + ROOTS);
    for copy in copies {
        let source: order::Order =
            serde_json::from_value(find(&samples, "Order", &copy.id).body.clone()).expect("an order");
        let built = account::Order::from(&source);
        assert_eq!(serde_json::to_value(&built).expect("serialises"), copy.body);
        assert_eq!(copy.partition_key, Key::one(source.account.id));
    }
    // Orders in pairs on one account: account-1 has two, account-2 one, account-3
    // none; the orders made for the limit join account-1.
    let accounts: Vec<String> = samples
        .iter()
        .filter(|s| s.container == "Order" && s.document_type == "Order")
        .map(|s| s.body["account"]["id"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(accounts[..3], ["account-1", "account-1", "account-2"]);
    assert!(accounts[3..].iter().all(|a| a == "account-1"), "{accounts:?}");

    for s in samples.iter().filter(|s| s.container == "PresentedProduct") {
        let product: presented_product::PresentedProduct = serde_json::from_value(s.body.clone()).expect("a product");
        let country: dictionary::Country =
            serde_json::from_value(find(&samples, "Dictionary", &product.country.country_id).body.clone())
                .expect("a country");
        assert_eq!(types::CountrySnapshot::from(&country), product.country);
        for item_ref in &product.items {
            let item: item::Item =
                serde_json::from_value(find(&samples, "Item", &item_ref.id).body.clone()).expect("an item");
            assert_eq!(types::ItemRef::from(&item), *item_ref);
        }
    }
}

/// Every `{ "id", "partitionKey" }` in `value`.
fn references<'v>(value: &'v Value, out: &mut Vec<(&'v str, &'v str)>) {
    match value {
        Value::Object(map) => {
            if let (2, Some(Value::String(id)), Some(Value::String(pk))) =
                (map.len(), map.get("id"), map.get("partitionKey"))
            {
                out.push((id, pk));
            }
            map.values().for_each(|v| references(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| references(v, out)),
        _ => {}
    }
}

#[test]
fn every_reference_points_at_a_sample_in_its_partition() {
    for name in ["ecommerce", "iot-fleet", "publishing"] {
        let (model, logical) = common::example(name);
        let samples = sample_documents(&model, &logical).expect("samples");
        let mut found = Vec::new();
        for s in &samples {
            references(&s.body, &mut found);
        }
        assert!(!found.is_empty(), "{name}");
        for (id, pk) in found {
            assert!(
                samples.iter().any(|s| s.id == id && s.partition_key == Key::one(pk)),
                "{name}: nothing has id {id} in partition {pk}"
            );
        }
        // Deterministic.
        assert_eq!(samples, sample_documents(&model, &logical).expect("samples"));
    }
}
