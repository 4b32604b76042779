//! The ticketing example's repositories (`examples/ticketing-app`) against the local
//! `@vercel/cosmosdb-server`: an order with tickets whose codes are unique is saved in
//! one batch with its claims, loaded, refused when a code is taken (nothing written,
//! no claim left), and deleted with its claims released, as on the in-memory engine
//! (the server started with the faults `tests/support/cosmosdb-server.js` mends).
//! `place_an_order` claims first and writes one batch there too, and the order's read
//! pages through the continuation token to the whole read.

mod support;

use cosmap_provision::{apply, plan, ApplyOptions, Connection, Settings, Target, Throughput};
use support::CosmosServer;
use ticketing_app::data::{Database, Error, OrderAggregate};
use ticketing_app::{order, types};

const KEY: &str = "Q09TTUFQLVZFUklGWS1LRVktbmV2ZXItdG8tYmUtcHJpbnRlZA==";

async fn database(server: &CosmosServer) -> (Connection, Database) {
    let domain = cosmap_domain::load_file(&support::repo().join("examples/ticketing/model.json")).expect("the model");
    let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
    let target = Target::new(&server.endpoint(), Some(KEY.into()), "ticketing-data").expect("a target");
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

fn an_order(id: &str, codes: &[&str]) -> OrderAggregate {
    let mut aggregate = OrderAggregate::new(order::Order::new(
        id,
        "2026-12-04T20:00:00.0000000Z",
        "60.00",
        types::AttendeeRef::new("att-1"),
    ));
    for (n, code) in codes.iter().enumerate() {
        aggregate
            .tickets
            .push(order::Ticket::new(format!("{id}-t{n}"), id, *code, "Grace Hopper"));
    }
    aggregate
}

#[test]
fn on_the_local_server_an_orders_tickets_claim_their_codes_through_the_repository() {
    let server = CosmosServer::start();
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(async {
            let (_connection, db) = database(&server).await;
            let orders = db.order_repository();
            let mut first = an_order("o-1", &["CODE-A", "CODE-B"]);
            orders.save(&mut first).await.expect("saved");
            let loaded = orders.load("o-1").await.expect("loads").expect("exists");
            assert_eq!(loaded.tickets.len(), 2);

            // A code taken: refused with the code named, nothing of the order written.
            let mut second = an_order("o-2", &["CODE-C", "CODE-A"]);
            match orders.save(&mut second).await {
                Err(Error::Taken { .. }) => {}
                other => panic!("expected the save to be refused as taken, got {other:?}"),
            }
            assert!(
                orders.load("o-2").await.expect("loads").is_none(),
                "nothing of it is written"
            );
            // Its claim of CODE-C was released: another order takes it.
            let mut third = an_order("o-3", &["CODE-C"]);
            orders
                .save(&mut third)
                .await
                .expect("the released code is claimed again");

            // The delete: one batch of the order and its tickets, then the claims
            // released: the order is gone and its codes are free again.
            orders.delete(loaded).await.expect("deleted");
            assert!(orders.load("o-1").await.expect("loads").is_none(), "the order is gone");
            let mut fourth = an_order("o-4", &["CODE-A", "CODE-B"]);
            orders.save(&mut fourth).await.expect("its codes were released");
        });
}

#[test]
fn on_the_local_server_place_an_order_claims_first_and_its_read_pages() {
    let server = CosmosServer::start();
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(async {
            let (_connection, db) = database(&server).await;
            let OrderAggregate { root, tickets, .. } = an_order("o-5", &["P-0", "P-1", "P-2", "P-3", "P-4"]);
            let (mut root, mut tickets) = (root, tickets);
            db.place_an_order(&mut root, &mut tickets).await.expect("placed");
            assert!(root.etag.is_some() && tickets.iter().all(|t| t.etag.is_some()));
            let all = db.order_with_tickets("o-5").await.expect("reads");
            assert_eq!(all.len(), 6, "the order and its five tickets");

            // A taken code: refused before the batch, nothing of the order written.
            let OrderAggregate { root, tickets, .. } = an_order("o-6", &["P-9", "P-2"]);
            let (mut root, mut tickets) = (root, tickets);
            assert!(db.place_an_order(&mut root, &mut tickets).await.is_err());
            assert!(db.order_with_tickets("o-6").await.expect("reads").is_empty());

            // Pages of two: every document once, in order, as far as the server pages.
            let mut seen = Vec::new();
            let mut continuation: Option<String> = None;
            for _ in 0..10 {
                let page = db
                    .order_with_tickets_page("o-5", 2, continuation.as_deref())
                    .await
                    .expect("a page");
                seen.extend(page.items);
                continuation = page.continuation;
                if continuation.is_none() {
                    break;
                }
            }
            assert_eq!(continuation, None, "the pages end");
            assert_eq!(seen, all, "the pages together are the whole read");
        });
}
