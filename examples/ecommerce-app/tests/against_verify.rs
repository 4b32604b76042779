//! Every generated read method returns what `cosmap verify` expects: verify runs the
//! e-commerce model on the in-memory engine and reports, for each read, the values it
//! bound and the documents the samples should give; the same samples are written into
//! another in-memory database, and each generated method, called with those values,
//! must return exactly those documents (in order, where the pattern sorts).

use std::collections::BTreeMap;

use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_provision::Settings;
use cosmap_verify::{verify, Engine, RequestOutcome};
use ecommerce_app::data::Database;
use serde_json::Value;

/// The text value verify bound to `@name`.
fn text<'a>(parameters: &'a BTreeMap<String, Value>, name: &str) -> &'a str {
    parameters
        .get(&format!("@{name}"))
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("verify bound no text `@{name}`: {parameters:?}"))
}

/// What a generated method returned, as verify reports it: the ids.
async fn run(db: &Database, pattern: &str, request: &RequestOutcome) -> Vec<String> {
    let p = &request.parameters;
    match pattern {
        "address by account id and address type" => db
            .address_by_account_id_and_address_type(request.id.as_deref().expect("a point read's id"))
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.id)
            .collect(),
        "availability of items in a warehouse" => db
            .availability_of_items_in_a_warehouse(text(p, "warehouseId"))
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.id)
            .collect(),
        "bank accounts of an account" => db
            .bank_accounts_of_an_account(text(p, "accountId"))
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.id)
            .collect(),
        "contacts of an account" => db
            .contacts_of_an_account(text(p, "accountId"))
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.id)
            .collect(),
        "order with all details by id" => db
            .order_with_all_details_by_id(text(p, "orderId"))
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.id().to_string())
            .collect(),
        "orders of an account" => db
            .orders_of_an_account(text(p, "accountId"))
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.id)
            .collect(),
        "payments of an order" => db
            .payments_of_an_order(text(p, "orderId"))
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.id)
            .collect(),
        "presented product with details by country and SKU" => db
            .presented_product_with_details_by_country_and_sku(text(p, "countryId"), text(p, "sku"))
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.id)
            .collect(),
        "presented products by country" => db
            .presented_products_by_country(text(p, "countryId"))
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.id)
            .collect(),
        "status history of an order" => db
            .status_history_of_an_order(text(p, "orderId"))
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.id)
            .collect(),
        other => panic!("no generated read is called for `{other}`: add it here"),
    }
}

#[tokio::test(flavor = "current_thread")]
async fn every_generated_read_returns_what_verify_expects() {
    let domain = cosmap_domain::load_file(std::path::Path::new("../ecommerce/model.json")).expect("the model loads");
    let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
    let report = verify(&domain, &logical, Engine::InMemory, Settings::default())
        .await
        .expect("verify runs");

    // The same samples, in a database of our own.
    let account = InMemoryAccount::new().expect("an in-memory account");
    let connection = account
        .provisioned("against-verify", &logical.container_definitions())
        .await
        .expect("the containers");
    let database = connection.cosmos_client().database_client(connection.database());
    let samples = cosmap_verify::samples::sample_documents(&domain, &logical).expect("the samples");
    for s in &samples {
        let client = database
            .container_client(&s.container, None)
            .await
            .expect("a container");
        client
            .create_item(s.partition_key.sdk(), &s.id, &s.body, None)
            .await
            .unwrap_or_else(|e| panic!("sample `{}` in `{}`: {e}", s.id, s.container));
    }
    let db = Database::open(&database).await.expect("the containers open");

    let (mut checked, mut found) = (0, 0);
    for outcome in &report.patterns {
        let Some(kind) = outcome.operation else { continue };
        if kind == cosmap_mapper::operations::OperationKind::Write {
            continue;
        }
        assert!(outcome.passed, "verify itself fails `{}`: {outcome:?}", outcome.pattern);
        let main = &outcome.requests[0];
        let mut got = run(&db, &outcome.pattern, main).await;
        let mut expected = main.expected.clone();
        if !main.ordered {
            got.sort();
            expected.sort();
        }
        assert_eq!(got, expected, "`{}` with {:?}", outcome.pattern, main.parameters);
        checked += 1;
        found += usize::from(!expected.is_empty());
    }
    assert_eq!(checked, 10, "every read of the model was called");
    assert_eq!(found, 10, "every read finds something in the samples");
}
