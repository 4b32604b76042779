//! The generated data access (`examples/ecommerce-app`, `cosmap_data.rs`) against
//! the local `@vercel/cosmosdb-server` (started on loopback by `support`): what the
//! server supports works as on the in-memory engine; what it does not is an error,
//! never a wrong answer.

mod support;

use cosmap_provision::{apply, plan, ApplyOptions, Connection, Settings, Target, Throughput};
use ecommerce_app::data::{Database, Error, OrderAggregate};
use ecommerce_app::{account, order, types};
use support::CosmosServer;

const KEY: &str = "Q09TTUFQLVZFUklGWS1LRVktbmV2ZXItdG8tYmUtcHJpbnRlZA==";

fn block_on<T>(future: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(future)
}

async fn database(server: &CosmosServer) -> (Connection, Database) {
    let domain = cosmap_domain::load_file(&support::repo().join("examples/ecommerce/model.json")).expect("the model");
    let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
    let target = Target::new(&server.endpoint(), Some(KEY.into()), "ecommerce-data").expect("a target");
    let connection = Connection::open(&target, Settings::default())
        .await
        .expect("a connection");
    let planned = plan(&connection, &logical.container_definitions(), Throughput::None)
        .await
        .expect("a plan");
    apply(&connection, &planned, &ApplyOptions::default())
        .await
        .expect("the containers are created");
    let client = connection.database_client();
    let db = Database::open(&client).await.expect("the containers open");
    (connection, db)
}

fn an_order(id: &str, account_id: &str) -> order::Order {
    let code = |c: &str| types::OrderStatus {
        code: c.into(),
        label: c.into(),
    };
    order::Order::new(
        id,
        "2026-12-01T09:00:00.0000000Z",
        "10.00",
        "EUR",
        types::OrderType {
            code: "web".into(),
            label: "Web".into(),
        },
        code("placed"),
        types::AccountRef::new(account_id),
        types::DeliveryMethodRef::new("dm-1"),
        types::WarehouseRef::new("wh-1"),
    )
}

#[test]
fn on_the_local_server_patterns_and_etags_work_and_what_it_lacks_is_an_error() {
    let server = CosmosServer::start();
    block_on(async {
        let (_connection, db) = database(&server).await;

        // Single-document writes and reads through the pattern methods.
        let mut bank = account::BankAccount::new("b-1", "a-1", "Ada", "GB00", "BIC1");
        db.add_a_bank_account(&mut bank).await.expect("a create");
        assert!(bank.etag.is_some(), "the create's etag is kept");
        let banks = db
            .bank_accounts_of_an_account("a-1")
            .await
            .expect("a single-partition query");
        assert_eq!(banks.iter().map(|b| b.id.as_str()).collect::<Vec<_>>(), ["b-1"]);
        let again = db
            .add_a_bank_account(&mut bank.clone())
            .await
            .expect_err("a second create");
        assert!(matches!(again, Error::Exists { .. }), "{again}");

        // Optimistic concurrency: a write over a stale etag is refused.
        let mut order = an_order("o-1", "a-1");
        db.save_an_order_with_its_items(&mut order).await.expect("an upsert");
        let mut stale = order.clone();
        order.total = "12.00".into();
        db.save_an_order_with_its_items(&mut order)
            .await
            .expect("a write over its version");
        stale.total = "99.00".into();
        let refused = db
            .save_an_order_with_its_items(&mut stale)
            .await
            .expect_err("a stale etag");
        assert!(matches!(refused, Error::Stale { .. }), "{refused}");
        let details = db.order_with_all_details_by_id("o-1").await.expect("a query");
        assert_eq!(details.len(), 1, "{details:?}");

        // The aggregate repository loads what was written.
        let loaded = db
            .order_repository()
            .load("o-1")
            .await
            .expect("a load")
            .expect("the order");
        assert_eq!(loaded.root.total, "12.00");

        // The repository saves an aggregate in one transactional batch, and loads it
        // from its own partition only (the load's SQL names the key, as this server
        // ignores the partition a query is sent to).
        let mut aggregate = OrderAggregate::new(an_order("o-2", "a-1"));
        aggregate.payments.push(order::Payment::new(
            "p-1",
            "o-2",
            "10.00",
            "2026-12-01T09:05:00.0000000Z",
            Default::default(),
        ));
        db.order_repository().save(&mut aggregate).await.expect("a batch");
        let loaded = db
            .order_repository()
            .load("o-2")
            .await
            .expect("a load")
            .expect("the order");
        assert_eq!(loaded.payments.len(), 1);
        let other = db
            .order_repository()
            .load("o-1")
            .await
            .expect("a load")
            .expect("the order");
        assert!(
            other.payments.is_empty(),
            "o-2's payment is not o-1's: {:?}",
            other.payments
        );

        // The copy worker: this server serves no change feed (its partition key ranges
        // do not read) — an error, never a silent "nothing changed".
        let worker = db.order_to_account_worker().run_once().await;
        assert!(matches!(&worker, Err(Error::Cosmos(_))), "{worker:?}");
    });
}
