//! The generated data access (`cosmap_data.rs`) end to end on the SDK's in-memory
//! engine: the model's containers provisioned by cosmap-provision, then the
//! repositories, access pattern methods and the copy worker used as an application
//! would use them.

use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_provision::Connection;
use ecommerce_app::data::{self, Database, Error, OrderAggregate};
use ecommerce_app::{account, order, types};

/// The in-memory account (kept alive), a connection and the generated `Database`.
struct Fixture {
    _account: InMemoryAccount,
    _connection: Connection,
    db: Database,
}

async fn fixture() -> Fixture {
    let domain = cosmap_domain::load_file(std::path::Path::new("../ecommerce/model.json")).expect("the model loads");
    let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
    let account = InMemoryAccount::new().expect("an in-memory account");
    let connection = account
        .provisioned("ecommerce", &logical.container_definitions())
        .await
        .expect("the containers are created");
    let database = connection.cosmos_client().database_client(connection.database());
    let db = Database::open(&database).await.expect("the containers open");
    Fixture {
        _account: account,
        _connection: connection,
        db,
    }
}

fn status(code: &str) -> types::OrderStatus {
    types::OrderStatus {
        code: code.into(),
        label: code.to_uppercase(),
    }
}

fn order(id: &str, account_id: &str, ordered_at: &str) -> order::Order {
    order::Order::new(
        id,
        ordered_at,
        "42.50",
        "EUR",
        types::OrderType {
            code: "web".into(),
            label: "Web".into(),
        },
        status("placed"),
        types::AccountRef::new(account_id),
        types::DeliveryMethodRef::new("dm-1"),
        types::WarehouseRef::new("wh-1"),
    )
}

fn payment(id: &str, order_id: &str) -> order::Payment {
    order::Payment::new(
        id,
        order_id,
        "42.50",
        "2026-12-01T10:00:00.0000000Z",
        types::PaymentMethod {
            code: "card".into(),
            label: "Card".into(),
        },
    )
}

fn an_account(id: &str, email: &str) -> account::Account {
    account::Account::new(
        id,
        email,
        "Ada Lovelace",
        "2026-01-01T00:00:00.0000000Z",
        types::MainAddress {
            street: "1 Main St".into(),
            city: "London".into(),
            postal_code: "N1".into(),
            country: types::CountrySnapshot {
                country_id: "gb".into(),
                name: "United Kingdom".into(),
                iso_code: "GB".into(),
                currency: "GBP".into(),
            },
        },
    )
}

/// An order with two payments and a package, as one aggregate.
fn an_order_aggregate(id: &str, account_id: &str) -> OrderAggregate {
    let mut aggregate = OrderAggregate::new(order(id, account_id, "2026-12-01T09:00:00.0000000Z"));
    aggregate.payments.push(payment(&format!("{id}-pay-1"), id));
    aggregate.payments.push(payment(&format!("{id}-pay-2"), id));
    aggregate
        .packages
        .push(order::Package::new(format!("{id}-pkg-1"), id, "TRACK-1"));
    aggregate
}

/// Without the versions Cosmos DB sets, to compare what was saved with what loads.
fn unversioned(mut aggregate: OrderAggregate) -> OrderAggregate {
    aggregate.root.etag = None;
    aggregate.root.ts = None;
    for p in &mut aggregate.payments {
        p.etag = None;
        p.ts = None;
    }
    for p in &mut aggregate.packages {
        p.etag = None;
        p.ts = None;
    }
    aggregate
}

#[tokio::test(flavor = "current_thread")]
async fn an_order_is_saved_whole_and_loads_as_saved() {
    let f = fixture().await;
    let repository = f.db.order_repository();
    let mut aggregate = an_order_aggregate("o-1", "a-1");
    repository.save(&mut aggregate).await.expect("the order saves");
    assert!(aggregate.root.etag.is_some(), "the root took its new etag");
    assert!(
        aggregate.payments.iter().all(|p| p.etag.is_some()),
        "every member took its etag"
    );

    let loaded = repository.load("o-1").await.expect("it loads").expect("it is there");
    assert_eq!(
        loaded.root.etag, aggregate.root.etag,
        "the etags saved are the ones stored"
    );
    let (mut loaded, mut saved) = (unversioned(loaded), unversioned(aggregate));
    loaded.payments.sort_by(|a, b| a.id.cmp(&b.id));
    saved.payments.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(loaded.root, saved.root);
    assert_eq!(loaded.payments, saved.payments);
    assert_eq!(loaded.packages, saved.packages);
    assert!(loaded.order_status_histories.is_empty());

    // The access pattern reads the same documents.
    let details =
        f.db.order_with_all_details_by_id("o-1")
            .await
            .expect("the pattern runs");
    assert_eq!(details.len(), 4, "the order, two payments and a package: {details:?}");
    let payments = f.db.payments_of_an_order("o-1").await.expect("the pattern runs");
    assert_eq!(payments.len(), 2);
}

#[tokio::test(flavor = "current_thread")]
async fn a_failing_batch_writes_nothing() {
    let f = fixture().await;
    let repository = f.db.order_repository();
    let mut aggregate = an_order_aggregate("o-2", "a-1");
    // Two payments with one id: the second create fails, so the whole batch does.
    aggregate.payments.push(payment("o-2-pay-1", "o-2"));
    let error = repository
        .save(&mut aggregate)
        .await
        .expect_err("a duplicate id fails the batch");
    assert!(
        matches!(&error, Error::Exists { id, .. } if id == "o-2-pay-1") || matches!(error, Error::Batch { .. }),
        "{error}"
    );
    assert!(
        repository.load("o-2").await.expect("the load runs").is_none(),
        "nothing was written"
    );
    assert!(f
        .db
        .payments_of_an_order("o-2")
        .await
        .expect("the query runs")
        .is_empty());
}

#[tokio::test(flavor = "current_thread")]
async fn a_stale_etag_is_refused() {
    let f = fixture().await;
    let repository = f.db.order_repository();
    repository
        .save(&mut an_order_aggregate("o-3", "a-1"))
        .await
        .expect("the order saves");
    let mut first = repository.load("o-3").await.unwrap().unwrap();
    let mut second = repository.load("o-3").await.unwrap().unwrap();
    first.root.status = status("shipped");
    repository.save(&mut first).await.expect("the first writer saves");
    second.root.status = status("cancelled");
    let error = repository
        .save(&mut second)
        .await
        .expect_err("the second writer is refused");
    assert!(matches!(&error, Error::Stale { id, .. } if id == "o-3"), "{error}");
    let now = repository.load("o-3").await.unwrap().unwrap();
    assert_eq!(now.root.status.code, "shipped", "the first writer's change stands");
    // Saved again after a reload, it goes through.
    let mut again = now;
    again.root.status = status("cancelled");
    repository
        .save(&mut again)
        .await
        .expect("a save over the current version");
    // A member removed from the aggregate is deleted with it (here by its `ttl`).
    again.payments.retain(|p| p.id != "o-3-pay-2");
    repository.save(&mut again).await.expect("the removal saves");
    let reloaded = repository.load("o-3").await.unwrap().unwrap();
    assert_eq!(reloaded.payments.len(), 1, "{:?}", reloaded.payments);
}

#[tokio::test(flavor = "current_thread")]
async fn too_many_writes_for_one_batch_are_refused_whole() {
    let f = fixture().await;
    let repository = f.db.order_repository();
    let mut aggregate = OrderAggregate::new(order("o-4", "a-1", "2026-12-01T09:00:00.0000000Z"));
    for i in 0..data::MAX_BATCH_OPERATIONS {
        aggregate.payments.push(payment(&format!("o-4-pay-{i}"), "o-4"));
    }
    let error = repository
        .save(&mut aggregate)
        .await
        .expect_err("101 writes do not fit one batch");
    assert!(matches!(error, Error::TooLarge { operations: 101, .. }), "{error}");
    assert!(repository.load("o-4").await.unwrap().is_none(), "nothing was written");
}

#[tokio::test(flavor = "current_thread")]
async fn the_copy_worker_keeps_orders_of_an_account_and_resumes_from_its_lease() {
    let f = fixture().await;
    let repository = f.db.order_repository();
    for (id, at) in [
        ("o-10", "2026-12-01T08:00:00.0000000Z"),
        ("o-11", "2026-12-01T09:00:00.0000000Z"),
    ] {
        let mut aggregate = OrderAggregate::new(order(id, "a-7", at));
        repository.save(&mut aggregate).await.expect("the order saves");
    }
    // Nothing in the copy before the worker runs.
    assert!(f.db.orders_of_an_account("a-7").await.unwrap().is_empty());
    let applied =
        f.db.order_to_account_worker()
            .run_once()
            .await
            .expect("the worker runs");
    assert_eq!(applied, 2, "one change per order");
    let orders =
        f.db.orders_of_an_account("a-7")
            .await
            .expect("the pattern reads the copy");
    let ids: Vec<&str> = orders.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ids, ["o-11", "o-10"], "newest first, from the copy");
    assert_eq!(orders[0].total, "42.50");

    // A third order, then a new worker (a restart): it resumes from the lease, so it
    // applies the new change alone and loses none.
    let mut third = OrderAggregate::new(order("o-12", "a-7", "2026-12-01T10:00:00.0000000Z"));
    repository.save(&mut third).await.expect("the order saves");
    let applied =
        f.db.order_to_account_worker()
            .run_once()
            .await
            .expect("the restarted worker runs");
    assert_eq!(applied, 1, "only the change made since the lease");
    let ids: Vec<String> =
        f.db.orders_of_an_account("a-7")
            .await
            .unwrap()
            .into_iter()
            .map(|o| o.id)
            .collect();
    assert_eq!(ids, ["o-12", "o-11", "o-10"]);
    // Caught up: nothing to apply.
    assert_eq!(f.db.order_to_account_worker().run_once().await.unwrap(), 0);

    // Deleting an order sets its `ttl`; the worker then deletes the copy.
    let loaded = repository.load("o-11").await.unwrap().unwrap();
    repository.delete(loaded).await.expect("the order deletes");
    assert!(
        repository.load("o-11").await.unwrap().is_none(),
        "a deleted order does not load"
    );
    f.db.order_to_account_worker()
        .run_once()
        .await
        .expect("the worker runs");
    let ids: Vec<String> =
        f.db.orders_of_an_account("a-7")
            .await
            .unwrap()
            .into_iter()
            .map(|o| o.id)
            .collect();
    assert_eq!(ids, ["o-12", "o-10"], "the deleted order's copy is gone");
}

#[tokio::test(flavor = "current_thread")]
async fn a_claimed_email_cannot_be_taken_twice_and_is_released_on_change() {
    let f = fixture().await;
    let repository = f.db.account_repository();
    let mut ada = data::AccountAggregate::new(an_account("a-1", "ada@example.com"));
    repository.save(&mut ada).await.expect("the first account saves");
    let mut other = data::AccountAggregate::new(an_account("a-2", "ada@example.com"));
    let error = repository.save(&mut other).await.expect_err("the email is taken");
    assert!(
        matches!(&error, Error::Taken { attribute, value } if *attribute == "email" && value == "ada@example.com"),
        "{error}"
    );
    assert!(
        repository.load("a-2").await.unwrap().is_none(),
        "the second account was not written"
    );
    // Saving the first again claims nothing new.
    repository
        .save(&mut ada)
        .await
        .expect("a save without a change of email");
    // Ada changes her email: the old one is free for the other account.
    ada.root.email = "ada@lovelace.example".into();
    repository.save(&mut ada).await.expect("the change of email saves");
    repository
        .save(&mut other)
        .await
        .expect("the released email can be claimed");
    let mut third = data::AccountAggregate::new(an_account("a-3", "ada@lovelace.example"));
    assert!(matches!(repository.save(&mut third).await, Err(Error::Taken { .. })));
}

#[tokio::test(flavor = "current_thread")]
async fn write_and_read_patterns_round_trip() {
    let f = fixture().await;
    let mut bank = account::BankAccount::new("b-1", "a-1", "Ada", "GB00", "BIC1");
    f.db.add_a_bank_account(&mut bank)
        .await
        .expect("the write pattern runs");
    assert!(bank.etag.is_some());
    let error =
        f.db.add_a_bank_account(&mut bank.clone())
            .await
            .expect_err("a second create");
    assert!(matches!(error, Error::Exists { .. }), "{error}");
    let banks =
        f.db.bank_accounts_of_an_account("a-1")
            .await
            .expect("the read pattern runs");
    assert_eq!(banks.len(), 1);
    assert_eq!(banks[0].iban, "GB00");

    let mut account = an_account("a-1", "ada@example.com");
    f.db.create_update_or_delete_an_account_by_id(&mut account)
        .await
        .expect("an upsert without an etag");
    let read =
        f.db.address_by_account_id_and_address_type("a-1")
            .await
            .expect("the point read runs")
            .expect("the account is there");
    assert_eq!(read.email, "ada@example.com");
    assert!(f
        .db
        .address_by_account_id_and_address_type("nobody")
        .await
        .unwrap()
        .is_none());
    // A stale write through a pattern is refused too.
    let mut stale = read.clone();
    account.full_name = "Ada King".into();
    f.db.create_update_or_delete_an_account_by_id(&mut account)
        .await
        .expect("a write over the current version");
    stale.full_name = "Ada Byron".into();
    let error =
        f.db.create_update_or_delete_an_account_by_id(&mut stale)
            .await
            .expect_err("the read version is stale");
    assert!(matches!(error, Error::Stale { .. }), "{error}");
}
