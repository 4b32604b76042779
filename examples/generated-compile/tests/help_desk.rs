//! The generated types of the `help-desk` example, whose `Ticket` container has a
//! hierarchical partition key (`/tenantId`, then `/ticketId`): every document of a
//! ticket carries both levels, its partition key value is a tuple the Azure SDK takes
//! as it is, and a reference to a ticket stores both levels as an array.

use generated_compile::help_desk::{survey, ticket, types, unique_claims};

fn ticket() -> ticket::Ticket {
    ticket::Ticket::new(
        "t-7",
        "acme",
        "HD-7",
        "Printer on fire",
        "open",
        "2026-12-01T09:00:00.000000000Z",
    )
}

#[test]
fn a_ticket_carries_both_levels_and_its_key_is_a_tuple() {
    let t = ticket();
    assert_eq!(t.tenant_id, "acme");
    assert_eq!(t.ticket_id, "t-7", "the second level is the id: one source of truth");
    assert_eq!(t.partition_key(), ("acme".to_string(), "t-7".to_string()));
    let value = serde_json::to_value(&t).unwrap();
    assert_eq!(value["tenantId"], "acme");
    assert_eq!(value["ticketId"], "t-7");
    assert_eq!(ticket::PARTITION_KEY_PATHS, ["/tenantId", "/ticketId"]);
    assert_eq!(ticket::PARTITION_KEY_PATH, "/tenantId");
}

#[test]
fn a_comment_lives_in_its_tickets_logical_partition() {
    let c = ticket::Comment::new(
        "c-1",
        "acme",
        "t-7",
        "Ann",
        "Still burning",
        "2026-12-01T09:05:00.000000000Z",
    );
    assert_eq!(c.partition_key(), ticket().partition_key());
    let any = ticket::TicketDocument::Comment(c);
    assert_eq!(any.partition_key(), ("acme".to_string(), "t-7".to_string()));
}

#[test]
fn a_reference_to_a_ticket_stores_both_levels_as_an_array() {
    let reference = types::TicketRef::from(&ticket());
    assert_eq!(reference, types::TicketRef::new("t-7", ("acme".into(), "t-7".into())));
    let s = survey::Survey::new("s-1", 5, reference);
    let value = serde_json::to_value(&s).unwrap();
    assert_eq!(value["ticket"]["partitionKey"], serde_json::json!(["acme", "t-7"]));
    let back: survey::Survey = serde_json::from_value(value).unwrap();
    assert_eq!(back, s);
}

#[test]
fn a_ticket_numbers_claim_locates_its_owner_by_both_levels() {
    let t = ticket();
    let (tenant, id) = t.partition_key();
    let claim = unique_claims::TicketNumberClaim::new(t.number.clone(), t.id.clone(), vec![tenant, id]);
    let value = serde_json::to_value(&claim).unwrap();
    assert_eq!(value["ownerPartitionKey"], serde_json::json!(["acme", "t-7"]));
    assert_eq!(value["claim"], "HD-7");
}
