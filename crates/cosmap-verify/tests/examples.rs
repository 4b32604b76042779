//! The bundled examples verified on the SDK's in-memory engine.

mod common;

use cosmap_mapper::operations::OperationKind;
use cosmap_verify::{EngineKind, Verdict};

/// Read by account id (its id and partition key): a point read of the account,
/// with the address picked in the application among the embedded ones.
const ADDRESS_PATTERN: &str = "address by account id and address type";

#[tokio::test]
async fn ecommerce_every_pattern_passes() {
    let (model, logical) = common::example("ecommerce");
    let report = common::in_memory(&model, &logical).await;
    let text = report.to_text();
    assert_eq!(report.engine.kind, EngineKind::InMemory);
    assert_eq!(report.engine.database, "Ecommerce-verify");
    assert_eq!(report.patterns.len(), model.access_patterns().len(), "{text}");
    assert_eq!(report.patterns.len(), 17);
    for p in &report.patterns {
        assert!(p.passed, "{}: {text}", p.pattern);
        assert!(p.requests.iter().all(|r| r.verdict == Verdict::Pass), "{text}");
    }
    assert_eq!((report.summary.passed, report.summary.failed), (17, 0));
    let address = report.patterns.iter().find(|p| p.pattern == ADDRESS_PATTERN).unwrap();
    assert_eq!(address.operation, Some(OperationKind::PointRead), "{text}");

    // Every document type has samples, copies included.
    for c in &logical.containers {
        for d in &c.document_types {
            assert!(
                report.samples.containers.get(&c.name).is_some_and(|n| *n > 0),
                "{}",
                d.name
            );
        }
    }
}

#[tokio::test]
async fn orders_of_an_account_read_the_copies_of_one_account_in_order() {
    let (model, logical) = common::example("ecommerce");
    let report = common::in_memory(&model, &logical).await;
    let orders = report.pattern("orders of an account").expect("pattern");
    assert_eq!(orders.operation, Some(OperationKind::SinglePartitionQuery));
    let read = &orders.requests[0];
    assert_eq!(read.container, "Account");
    assert!(read.copy, "it reads the copies");
    assert_eq!(read.partition_key.as_deref(), Some("account-1"));
    // The limit of 10 makes more orders than it returns, all but order-3 of
    // account-1 (the roots past the first three join the first pair): the ten
    // newest, in `orderedAt` order, as verify checked (`ordered`, and a pass).
    assert_eq!(read.expected.len(), 10);
    let orders = report.samples.containers.get("Order").copied().unwrap_or_default();
    assert!(orders > 10, "{orders} sample documents in `Order`");
    assert!(read.ordered);
    assert_eq!(read.returned.as_deref(), Some(&read.expected[..]));
    assert_eq!(read.verdict, Verdict::Pass);

    // Saving an order rewrites the copy in `Account` too, and both read back.
    let save = report.pattern("save an order with its items").expect("pattern");
    let containers: Vec<(&str, bool, Verdict)> = save
        .requests
        .iter()
        .map(|r| (r.container.as_str(), r.copy, r.verdict))
        .collect();
    assert_eq!(
        containers,
        [("Order", false, Verdict::Pass), ("Account", true, Verdict::Pass)]
    );
}

#[tokio::test]
async fn iot_fleet_and_publishing_verify() {
    for name in ["iot-fleet", "publishing"] {
        let (model, logical) = common::example(name);
        let report = common::in_memory(&model, &logical).await;
        assert!(report.passed(), "{name}:\n{}", report.to_text());
        assert_eq!(report.patterns.len(), model.access_patterns().len());
    }
    // A cross-partition query with ORDER BY, checked in order.
    let (model, logical) = common::example("publishing");
    let report = common::in_memory(&model, &logical).await;
    let articles = &report.pattern("articles of an author").expect("pattern").requests[0];
    assert_eq!(articles.kind, OperationKind::CrossPartitionQuery);
    assert!(articles.ordered);
    // The ten newest of the author's articles.
    assert_eq!(articles.expected.len(), 10);
    assert_eq!(articles.returned.as_deref(), Some(&articles.expected[..]));
}

#[tokio::test]
async fn the_report_is_deterministic() {
    let (model, logical) = common::example("iot-fleet");
    let first = common::in_memory(&model, &logical).await;
    let second = common::in_memory(&model, &logical).await;
    assert_eq!(first.to_json(), second.to_json());
}

/// A filter on a list attribute matches documents whose list holds the value
/// (`ARRAY_CONTAINS`, indexed as `/tags/[]/?`), never the whole list by equality,
/// which would silently return nothing.
#[tokio::test]
async fn a_filter_on_a_list_attribute_finds_the_documents_holding_the_value() {
    let (model, logical) = common::from_json(
        br#"{
          "name": "Blog",
          "entities": [
            {"name": "Post", "identity": "postId", "volume": {"count": 1000, "avgSizeBytes": 2000},
             "attributes": [{"name": "title", "type": "string"}, {"name": "tags", "type": "string", "many": true}]}
          ],
          "aggregates": [{"root": "Post"}],
          "accessPatterns": [
            {"name": "posts with a tag", "kind": "read", "start": "Post", "filter": ["tags"], "perSecond": 5}
          ]
        }"#,
        &cosmap_mapper::Options::default(),
    );
    let op = &logical.operations[0];
    let sql = op.requests[0].sql().expect("a query");
    assert!(sql.contains("ARRAY_CONTAINS(c.tags, @tags)"), "{sql}");
    let container = &logical.containers[0];
    let paths = &container.indexing_policy.included_paths;
    assert!(paths.iter().any(|p| p.path == "/tags/[]/?"), "{paths:?}");
    let report = common::in_memory(&model, &logical).await;
    let p = report.pattern("posts with a tag").expect("pattern");
    assert!(p.passed, "{}", report.to_text());
    assert!(!p.requests[0].expected.is_empty(), "{}", report.to_text());
}

/// `"sort": ["-postedAt"]` and `"limit"`: the newest N, `TOP n … ORDER BY … DESC`,
/// checked against the samples in that order; the same query ascending fails.
#[tokio::test]
async fn newest_first_with_a_limit_returns_the_newest_n_in_order() {
    // MR1–MR6 only: optimised, the newest replies would be a subset of their topic.
    let (model, mut logical) = common::from_json(
        br#"{
          "name": "Forum",
          "entities": [
            {"name": "Topic", "identity": "topicId", "volume": {"count": 1000, "avgSizeBytes": 500},
             "attributes": [{"name": "title", "type": "string"}]},
            {"name": "Reply", "identity": "replyId",
             "attributes": [{"name": "postedAt", "type": "dateTime"}, {"name": "text", "type": "string"}]}
          ],
          "aggregates": [{"root": "Topic", "members": ["Reply"]}],
          "relationships": [{"from": "Topic", "to": "Reply", "cardinality": "many"}],
          "accessPatterns": [
            {"name": "newest replies of a topic", "kind": "read", "start": "Reply", "filter": ["topicId"],
             "sort": ["-postedAt"], "limit": 2, "perSecond": 50},
            {"name": "some replies of a topic", "kind": "read", "start": "Reply", "filter": ["topicId"],
             "limit": 1, "perSecond": 5}
          ]
        }"#,
        &cosmap_mapper::Options::default().optimise(false),
    );
    let newest = common::operation(&logical, "newest replies of a topic");
    let sql = newest.requests[0].sql().expect("a query").to_string();
    assert!(sql.starts_with("SELECT TOP 2 * FROM c WHERE"), "{sql}");
    assert!(sql.ends_with("ORDER BY c.postedAt DESC"), "{sql}");
    let report = common::in_memory(&model, &logical).await;
    for p in &report.patterns {
        assert!(p.passed, "{}: {}", p.pattern, report.to_text());
    }
    let p = report.pattern("newest replies of a topic").expect("pattern");
    assert_eq!(p.requests[0].expected.len(), 2, "{}", report.to_text());

    // Ascending instead: the oldest two come back, which verify must refuse.
    for op in &mut logical.operations {
        for r in &mut op.requests {
            if let cosmap_mapper::operations::Action::SinglePartitionQuery { sql, .. } = &mut r.action {
                *sql = sql.replace(" DESC", "");
            }
        }
    }
    let report = common::in_memory(&model, &logical).await;
    let p = report.pattern("newest replies of a topic").expect("pattern");
    assert!(!p.passed, "{}", report.to_text());
}
