//! The ticketing application's write and read path through generated calls only, on
//! the SDK's in-memory engine: an order with its tickets saved, loaded, refused when a
//! ticket's code is taken (nothing written, no claim left behind), changed and deleted
//! with its claims released; an attendee's unique email the same way.

mod common;

use common::fixture;
use ticketing_app::data::{AttendeeAggregate, Database, Error, OrderAggregate};
use ticketing_app::{attendee, order, types, unique_claims};

/// An order of `codes.len()` tickets, one per code.
fn an_order(id: &str, codes: &[&str]) -> OrderAggregate {
    let mut aggregate = OrderAggregate::new(order::Order::new(
        id,
        "2026-12-04T20:00:00.0000000Z",
        "120.00",
        types::AttendeeRef::new("att-1"),
    ));
    for (n, code) in codes.iter().enumerate() {
        aggregate
            .tickets
            .push(order::Ticket::new(format!("{id}-t{n}"), id, *code, "Grace Hopper"));
    }
    aggregate
}

/// Who holds the claim on the ticket code `code`, if anyone.
async fn code_owner(db: &Database, code: &str) -> Option<String> {
    match db
        .unique_claims
        .read(code.to_string(), unique_claims::TicketCodeClaim::TYPE)
        .await
        .expect("reads")
    {
        Some(unique_claims::UniqueClaimsDocument::TicketCodeClaim(claim)) => Some(claim.owner_id),
        Some(other) => panic!("not a ticket code claim: {other:?}"),
        None => None,
    }
}

#[tokio::test(flavor = "current_thread")]
async fn an_order_with_tickets_saves_loads_conflicts_and_deletes_with_its_claims() {
    let f = fixture().await;
    let orders = f.db.order_repository();

    let mut first = an_order("o-1", &["CODE-A", "CODE-B", "CODE-C"]);
    orders.save(&mut first).await.expect("the first order is saved");
    assert_eq!(code_owner(&f.db, "CODE-A").await.as_deref(), Some("o-1-t0"));
    assert_eq!(code_owner(&f.db, "CODE-C").await.as_deref(), Some("o-1-t2"));
    let loaded = orders.load("o-1").await.expect("loads").expect("the order exists");
    assert_eq!(loaded.tickets.len(), 3);
    assert_eq!(loaded.root.total, "120.00");

    // A second order reusing CODE-B: refused, nothing of it written, its own new
    // code's claim released again.
    let mut second = an_order("o-2", &["CODE-D", "CODE-B"]);
    match orders.save(&mut second).await {
        Err(Error::Taken { attribute, value }) => {
            assert_eq!((attribute, value.as_str()), ("code", "CODE-B"));
        }
        other => panic!("expected the code to be taken, got {other:?}"),
    }
    assert!(
        orders.load("o-2").await.expect("loads").is_none(),
        "nothing of the refused order is written"
    );
    assert_eq!(
        code_owner(&f.db, "CODE-D").await,
        None,
        "the claim made for the refused order is released"
    );
    assert_eq!(
        code_owner(&f.db, "CODE-B").await.as_deref(),
        Some("o-1-t1"),
        "the holder keeps its code"
    );

    // Saving the loaded order again (a retried save) claims nothing new and keeps its codes.
    let mut again = loaded;
    orders.save(&mut again).await.expect("a save of the unchanged order");
    assert_eq!(code_owner(&f.db, "CODE-A").await.as_deref(), Some("o-1-t0"));

    // A ticket removed and one's code changed: the old codes are released after the batch.
    again.tickets.retain(|t| t.code != "CODE-A");
    again.tickets[0].code = "CODE-E".into();
    orders.save(&mut again).await.expect("the changed order is saved");
    assert_eq!(
        code_owner(&f.db, "CODE-A").await,
        None,
        "a removed ticket's code is released"
    );
    assert_eq!(code_owner(&f.db, "CODE-B").await, None, "a changed code is released");
    assert_eq!(code_owner(&f.db, "CODE-E").await.as_deref(), Some("o-1-t1"));
    let reloaded = orders.load("o-1").await.expect("loads").expect("exists");
    let mut codes: Vec<&str> = reloaded.tickets.iter().map(|t| t.code.as_str()).collect();
    codes.sort_unstable();
    assert_eq!(codes, ["CODE-C", "CODE-E"]);

    // The released code can now be taken by another order.
    let mut third = an_order("o-3", &["CODE-B"]);
    orders
        .save(&mut third)
        .await
        .expect("a released code can be claimed again");
    assert_eq!(code_owner(&f.db, "CODE-B").await.as_deref(), Some("o-3-t0"));

    // A save over a stale version is refused and leaves no new claim.
    let mut stale = orders.load("o-3").await.expect("loads").expect("exists");
    let mut fresh = orders.load("o-3").await.expect("loads").expect("exists");
    fresh.root.total = "99.00".into();
    orders.save(&mut fresh).await.expect("the fresh copy is saved");
    stale
        .tickets
        .push(order::Ticket::new("o-3-t9", "o-3", "CODE-F", "Alan Turing"));
    match orders.save(&mut stale).await {
        Err(Error::Stale { .. }) => {}
        other => panic!("expected a stale save, got {other:?}"),
    }
    assert_eq!(
        code_owner(&f.db, "CODE-F").await,
        None,
        "the stale save's claim is released"
    );

    // Deleting the order releases every ticket's code.
    orders.delete(reloaded).await.expect("the order is deleted");
    assert!(orders.load("o-1").await.expect("loads").is_none());
    assert_eq!(code_owner(&f.db, "CODE-C").await, None);
    assert_eq!(code_owner(&f.db, "CODE-E").await, None);
    assert_eq!(
        code_owner(&f.db, "CODE-B").await.as_deref(),
        Some("o-3-t0"),
        "other orders keep theirs"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn an_attendee_email_is_unique_through_the_repository() {
    let f = fixture().await;
    let attendees = f.db.attendee_repository();
    let mut ada = AttendeeAggregate::new(attendee::Attendee::new("att-1", "ada@example.org", "Ada"));
    attendees.save(&mut ada).await.expect("saved");
    let mut other = AttendeeAggregate::new(attendee::Attendee::new("att-2", "ada@example.org", "Not Ada"));
    assert!(matches!(
        attendees.save(&mut other).await,
        Err(Error::Taken { attribute: "email", .. })
    ));
    assert!(attendees.load("att-2").await.expect("loads").is_none());
    attendees.delete(ada).await.expect("deleted");
    attendees
        .save(&mut other)
        .await
        .expect("the released email can be taken");
}

#[tokio::test(flavor = "current_thread")]
async fn a_read_by_a_unique_value_returns_one_or_none() {
    let f = fixture().await;
    let mut ada = AttendeeAggregate::new(attendee::Attendee::new("att-1", "ada@example.org", "Ada"));
    f.db.attendee_repository().save(&mut ada).await.expect("saved");
    let mut order = an_order("o-1", &["CODE-A", "CODE-B"]);
    f.db.order_repository().save(&mut order).await.expect("saved");

    let found: Option<order::Ticket> = f.db.ticket_by_code("CODE-B").await.expect("reads");
    assert_eq!(found.map(|t| t.id).as_deref(), Some("o-1-t1"));
    assert_eq!(f.db.ticket_by_code("CODE-Z").await.expect("reads"), None);
    let found: Option<attendee::Attendee> = f.db.attendee_by_email("ada@example.org").await.expect("reads");
    assert_eq!(found.map(|a| a.full_name).as_deref(), Some("Ada"));
    assert_eq!(f.db.attendee_by_email("bob@example.org").await.expect("reads"), None);
}
