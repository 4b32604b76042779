//! The ticketing application's write patterns as generated functions, on the SDK's
//! in-memory engine: `place_an_order(&mut order, &mut tickets)` claims every ticket's
//! code first, then writes the order and its tickets in one transactional batch (a
//! taken code writes nothing and leaves no claim behind); `cancel_an_order` deletes
//! them in one batch, then releases the codes.

use cosmap_mapper::operations::Purpose;
mod common;

use common::fixture;
use ticketing_app::data::{Database, Error};
use ticketing_app::{order, types, unique_claims};

/// An order and one ticket per code.
fn an_order(id: &str, codes: &[&str]) -> (order::Order, Vec<order::Ticket>) {
    let root = order::Order::new(
        id,
        "2026-12-04T20:00:00.0000000Z",
        "80.00",
        types::AttendeeRef::new("att-1"),
    );
    let tickets = codes
        .iter()
        .enumerate()
        .map(|(n, code)| order::Ticket::new(format!("{id}-t{n}"), id, *code, "Grace Hopper"))
        .collect();
    (root, tickets)
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
async fn place_an_order_claims_first_writes_one_batch_and_cancel_releases() {
    let f = fixture().await;
    let (mut first, mut tickets) = an_order("o-1", &["CODE-A", "CODE-B"]);
    f.db.place_an_order(&mut first, &mut tickets)
        .await
        .expect("the order is placed");
    assert!(first.etag.is_some(), "the order takes its etag");
    assert!(tickets.iter().all(|t| t.etag.is_some()), "each ticket takes its etag");
    assert_eq!(code_owner(&f.db, "CODE-A").await.as_deref(), Some("o-1-t0"));
    let found = f.db.ticket_by_code("CODE-B").await.expect("reads");
    assert_eq!(found.map(|t| t.id).as_deref(), Some("o-1-t1"));
    assert_eq!(f.db.order_with_tickets("o-1").await.expect("reads").len(), 3);

    // A second order reusing CODE-B: refused before anything is written, and the
    // claim it made for CODE-C released again.
    let (mut second, mut reused) = an_order("o-2", &["CODE-C", "CODE-B"]);
    match f.db.place_an_order(&mut second, &mut reused).await {
        Err(Error::Taken { attribute, value }) => assert_eq!((attribute, value.as_str()), ("code", "CODE-B")),
        other => panic!("expected the code to be taken, got {other:?}"),
    }
    assert!(f.db.order_with_tickets("o-2").await.expect("reads").is_empty());
    assert_eq!(code_owner(&f.db, "CODE-C").await, None, "no claim is left behind");

    // The same order placed twice: the batch is refused (the order exists), and the
    // codes stay with the first (a claim by the same owner is no new claim).
    let (mut again, mut same) = an_order("o-1", &["CODE-A", "CODE-B"]);
    match f.db.place_an_order(&mut again, &mut same).await {
        Err(Error::Exists { .. }) => {}
        other => panic!("expected the order to exist, got {other:?}"),
    }

    // Cancelling deletes the order and its tickets in one batch, then releases the codes.
    f.db.cancel_an_order(&first, &tickets)
        .await
        .expect("the order is cancelled");
    assert!(f.db.order_with_tickets("o-1").await.expect("reads").is_empty());
    assert_eq!(code_owner(&f.db, "CODE-A").await, None);
    assert_eq!(code_owner(&f.db, "CODE-B").await, None);
    let (mut third, mut freed) = an_order("o-3", &["CODE-B"]);
    f.db.place_an_order(&mut third, &mut freed)
        .await
        .expect("a released code can be taken again");
}

/// The body of generated function `name`, up to the next function.
fn body_of<'c>(code: &'c str, name: &str) -> &'c str {
    let start = code
        .find(&format!("pub async fn {name}("))
        .expect("the function is generated");
    let body = &code[start..];
    let end = body[1..].find("pub async fn ").map_or(body.len(), |e| e + 1);
    &body[..end]
}

/// What the body of generated function `name` does, in the order of its code: each
/// loop over a parameter's documents (`order`, `tickets`) with what it does to them
/// (`claim`, `write`, `release`), and `send` where the batch goes. Read from the code
/// itself, so it holds whether the output is formatted or not.
fn steps_of(code: &str, name: &str) -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = Vec::new();
    let mut documents: Option<String> = None;
    for line in body_of(code, name).lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("for document in ") {
            let rest = rest.trim_end_matches(" {");
            let param = rest
                .strip_suffix(".iter()")
                .or_else(|| rest.strip_suffix(".iter_mut()"))
                .unwrap_or(rest);
            let param = param
                .strip_prefix("::core::iter::once(")
                .and_then(|p| p.strip_suffix(')'))
                .unwrap_or(param);
            let param = param.trim_start_matches("&*").trim_start_matches("&mut *");
            documents = Some(param.to_string());
        }
        let action = if line.contains("let claimed =") {
            "claim"
        } else if line.contains("ops.push(") {
            "write"
        } else if line.contains("let released =") {
            "release"
        } else if line.contains("rt::batch(") {
            out.push((String::new(), "send"));
            continue;
        } else {
            continue;
        };
        if let Some(param) = documents.take() {
            out.push((param, action));
        }
    }
    out
}

/// The plan's requests of `pattern` as the steps of its function: each request's
/// documents (the parameter: `order`, or `tickets` for each of the order's) and what
/// it does, with the batch sent after the last write.
fn planned(pattern: &str) -> Vec<(String, &'static str)> {
    let domain = cosmap_domain::load_file(std::path::Path::new("../ticketing/model.json")).expect("the model loads");
    let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
    let op = logical
        .operations
        .iter()
        .find(|o| o.pattern == pattern)
        .expect("the pattern");
    let param = |element: &str, each: bool| {
        let snake = element.to_lowercase();
        if each {
            format!("{snake}s")
        } else {
            snake
        }
    };
    let mut out = Vec::new();
    let last_write = op
        .requests
        .iter()
        .rposition(|r| matches!(r.purpose, Purpose::Write { .. }));
    for (i, r) in op.requests.iter().enumerate() {
        let each = r.purpose.each().is_some();
        match &r.purpose {
            Purpose::Claim { element, .. } => out.push((param(element, each), "claim")),
            Purpose::Write { element, .. } => out.push((param(element, each), "write")),
            Purpose::ReleaseClaim { element, .. } => out.push((param(element, each), "release")),
            other => panic!("{pattern}: an unexpected request: {other}"),
        }
        if Some(i) == last_write {
            out.push((String::new(), "send"));
        }
    }
    out
}

#[test]
fn the_generated_bodies_send_the_plans_requests_in_the_plans_order() {
    let code = include_str!(concat!(env!("OUT_DIR"), "/cosmap_data.rs"));
    for (pattern, function) in [
        ("place an order", "place_an_order"),
        ("cancel an order", "cancel_an_order"),
    ] {
        assert_eq!(steps_of(code, function), planned(pattern), "{pattern}");
    }
    // Claims first: placing an order claims the codes before any write.
    let s = |p: &str, a: &'static str| (p.to_string(), a);
    assert_eq!(
        steps_of(code, "place_an_order"),
        [
            s("tickets", "claim"),
            s("order", "write"),
            s("tickets", "write"),
            s("", "send")
        ]
    );
    assert_eq!(
        steps_of(code, "cancel_an_order"),
        [
            s("order", "write"),
            s("tickets", "write"),
            s("", "send"),
            s("tickets", "release")
        ]
    );
    // Where the output keeps comments (unformatted), they number the plan's requests.
    let numbered: Vec<&str> = body_of(code, "place_an_order")
        .lines()
        .filter_map(|l| l.trim().strip_prefix("// "))
        .filter(|l| l.split_once(". ").is_some_and(|(n, _)| n.parse::<usize>().is_ok()))
        .collect();
    if !numbered.is_empty() {
        assert_eq!(numbered.len(), 3, "{numbered:?}");
        assert!(numbered[0].starts_with("1. create TicketCodeClaim in `UniqueClaims`"));
    }
}

#[tokio::test(flavor = "current_thread")]
async fn a_read_of_many_pages_through_the_continuation_token() {
    let f = fixture().await;
    let codes: Vec<String> = (0..7).map(|n| format!("PAGE-{n}")).collect();
    let codes: Vec<&str> = codes.iter().map(String::as_str).collect();
    let (mut root, mut tickets) = an_order("o-9", &codes);
    f.db.place_an_order(&mut root, &mut tickets).await.expect("placed");
    let all = f.db.order_with_tickets("o-9").await.expect("reads");
    assert_eq!(all.len(), 8, "the order and its 7 tickets");

    // Pages of 3: every document once, in the read's order, the last without a token.
    let mut seen = Vec::new();
    let mut pages = 0;
    let mut continuation: Option<String> = None;
    loop {
        let page =
            f.db.order_with_tickets_page("o-9", 3, continuation.as_deref())
                .await
                .expect("a page");
        assert!(page.items.len() <= 3, "{}", page.items.len());
        pages += 1;
        seen.extend(page.items);
        continuation = page.continuation;
        if continuation.is_none() {
            break;
        }
        assert!(pages < 10, "the pages end");
    }
    assert_eq!(seen, all, "the pages together are the whole read");
    assert!(pages >= 3, "{pages} pages of at most 3");
    // A page size of 0 leaves it to the service: here, one page.
    let whole = f.db.order_with_tickets_page("o-9", 0, None).await.expect("a page");
    assert_eq!(whole.items, all);
    assert_eq!(whole.continuation, None);
}
