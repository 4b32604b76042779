//! Derived data the rule book keeps, each chosen by cost: extended references
//! (`patterns/extended-reference`) and computed counts (`patterns/computed-value`).

use cosmap_domain::DomainModel;
use cosmap_mapper::operations::{OperationKind, Purpose};
use cosmap_mapper::{map, Keeping, Options, Rule};
use cosmap_mapper::{SyncOperation, SyncTrigger};

mod common;
use common::{
    assert_optimisations_pay, assert_reason, costed, decision, document, edited, embedded, load, op, with_rates,
};

#[test]
fn a_username_read_through_a_reference_is_stored_beside_it_and_kept_in_sync() {
    let model = load("examples/patterns/extended-reference/model.json");
    let m = map(&model, &Options::default());
    let comment = document(&m, "Post", "Comment");
    let author = &comment.references[0];
    let extended = author.extended.as_ref().expect("an extended reference");
    let names: Vec<&str> = extended.attributes.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["username"], "only what is read, never the sensitive email");
    let sync = extended.sync.as_ref().expect("users change: a sync");
    assert!(matches!(&sync.trigger, SyncTrigger::ChangeFeed { container, .. } if container == "User"));
    assert_eq!(sync.actions[0].operation, SyncOperation::Refresh);
    // The read no longer follows the reference.
    assert_eq!(op(&m, "comments of a post").requests.len(), 1);
    // A rename finds and rewrites the comments that refer to the user.
    let rename = op(&m, "rename a user");
    let kinds: Vec<OperationKind> = rename.requests.iter().map(|r| r.kind()).collect();
    assert_eq!(
        kinds,
        [
            OperationKind::Write,
            OperationKind::CrossPartitionQuery,
            OperationKind::Write
        ]
    );
    assert!(rename.requests[1].sql().unwrap().contains("c.author.id = @userId"));
    assert!(matches!(
        rename.requests[2].purpose,
        Purpose::SyncExtendedReference { .. }
    ));
    let d = decision(&m, Rule::ExtendedReference, "Comment.author");
    let saves = d.evidence["savesRuPerSecond"].as_f64().unwrap();
    let adds = d.evidence["addsRuPerSecond"].as_f64().unwrap();
    assert!(saves > adds, "{saves} > {adds}");
    // The post's author: its email is sensitive, so that read follows the reference
    // and storing the username alone saves nothing.
    let post = document(&m, "Post", "Post");
    assert!(post.references[0].extended.is_none());
    let refused = m
        .decisions
        .iter()
        .find(|d| d.rule == Rule::ExtendedReference && d.outcome.contains("`email`"))
        .expect("the sensitive email is refused");
    assert!(refused.reason.contains("sensitive"), "{}", refused.reason);
    assert_optimisations_pay(&model);
}

#[test]
fn counts_are_kept_in_the_batch_or_from_the_change_feed() {
    let model = load("examples/patterns/computed-value/model.json");
    let m = map(&model, &Options::default());
    let post = document(&m, "Post", "Post");
    assert_eq!(post.computed[0].name, "commentCount");
    assert_eq!(post.computed[0].kept, Keeping::Batch);
    let product = document(&m, "Product", "Product");
    assert_eq!(product.computed[0].name, "reviewCount");
    let Keeping::ChangeFeed { sync } = &product.computed[0].kept else {
        panic!("reviews are another aggregate: the change feed keeps the count");
    };
    assert_eq!(sync.actions[0].operation, SyncOperation::Recount);
    // The reads need no count query.
    assert_eq!(op(&m, "a post with its comment count").requests.len(), 1);
    assert_eq!(op(&m, "a product with its review count").requests.len(), 1);
    // A comment rewrites its post in the same partition; a review recounts, then rewrites.
    let comment = op(&m, "comment on a post");
    assert_eq!(comment.requests.len(), 2);
    assert_eq!(comment.requests[1].container, "Post");
    assert_eq!(comment.requests[1].partition_key(), comment.requests[0].partition_key());
    let review = op(&m, "review a product");
    let purposes: Vec<bool> = review
        .requests
        .iter()
        .map(|r| matches!(r.purpose, Purpose::UpdateCount { .. }))
        .collect();
    assert_eq!(purposes, [false, true, true]);
    for subject in ["Post.commentCount", "Product.reviewCount"] {
        let d = decision(&m, Rule::ComputedValue, subject);
        assert!(d.outcome.starts_with("keeps"), "{}", d.outcome);
    }
    assert_optimisations_pay(&model);
}

#[test]
fn a_count_that_costs_more_to_keep_than_to_query_is_not_kept() {
    // Reviews written far more often than products are read: the recounts cost more.
    let model = load("examples/patterns/computed-value/model.json");
    let rates = [("review a product", 2_000.0), ("a product with its review count", 1.0)];
    let m = map(&with_rates(&model, &rates), &Options::default());
    let product = document(&m, "Product", "Product");
    assert!(product.computed.is_empty());
    assert_reason(&m, Rule::ComputedValue, "Product.reviewCount", "would not drop");
}

#[test]
fn the_newest_children_are_kept_in_their_parent_and_read_with_one_point_read() {
    let model = load("examples/patterns/subset/model.json");
    let m = map(&model, &Options::default());
    let post = document(&m, "Post", "Post");
    let comments = embedded(post, "newestComments");
    let of = comments.subset.as_ref().unwrap();
    assert_eq!((of.newest, of.kept.clone()), (10, Keeping::Batch));
    assert_eq!(comments.max, Some(10));
    let read = op(&m, "newest comments of a post");
    assert_eq!(read.kind, OperationKind::PointRead);
    assert!(matches!(read.requests[0].purpose, Purpose::ReadSubset { .. }));
    // Every comment stays its own document, and its write rewrites the subset.
    assert!(m.container("Post").unwrap().document_type("Comment").is_some());
    let write = op(&m, "comment on a post");
    assert!(matches!(write.requests[1].purpose, Purpose::UpdateSubset { .. }));
    // Reviews are another aggregate: their change feed queries the newest again.
    let product = document(&m, "Product", "Product");
    let reviews = embedded(product, "newestReviews");
    let Keeping::ChangeFeed { sync } = &reviews.subset.as_ref().unwrap().kept else {
        panic!("from the change feed");
    };
    assert_eq!(sync.actions[0].operation, SyncOperation::Resubset);
    // The reviewer's email is sensitive: not in the subset.
    assert!(reviews.attributes.iter().all(|a| a.name != "reviewerEmail"));
    assert_optimisations_pay(&model);
}

#[test]
fn a_list_without_a_bound_or_over_the_item_budget_is_kept_by_the_other_side() {
    let path = "examples/patterns/reference-list/model.json";
    let m = map(&load(path), &Options::default());
    let reasons: Vec<(&str, &str)> = m
        .decisions
        .iter()
        .filter(|d| d.rule == Rule::ReferenceList)
        .map(|d| (d.subject.as_str(), d.reason.as_str()))
        .collect();
    assert_eq!(reasons.len(), 3, "{reasons:#?}");
    assert!(reasons
        .iter()
        .any(|(s, r)| *s == "Part.products" && r.contains("no bound")));
    assert!(reasons
        .iter()
        .any(|(s, r)| *s == "Part.warehouse" && r.contains("over the")));
    // A bounded list that fits stays on the side read from.
    let ecommerce = map(&load("examples/ecommerce/model.json"), &Options::default());
    assert!(ecommerce
        .decisions
        .iter()
        .any(|d| d.rule == Rule::ReferenceList && d.outcome.contains("keeps the list")));
}

#[test]
fn a_child_with_a_claim_a_count_and_a_subset_is_claimed_first_and_keeps_both_in_its_partition() {
    let model = cosmap_domain::from_slice(
        br#"{
          "name": "Forum",
          "entities": [
            {"name": "Topic", "identity": "topicId", "attributes": [{"name": "title", "type": "string"}],
             "volume": {"count": 100000, "avgSizeBytes": 800}},
            {"name": "Reply", "identity": "replyId",
             "attributes": [{"name": "slug", "type": "string", "unique": true}, {"name": "postedAt", "type": "dateTime"}],
             "volume": {"avgSizeBytes": 300}}
          ],
          "aggregates": [{"root": "Topic", "members": ["Reply"]}],
          "relationships": [{"from": "Topic", "to": "Reply", "cardinality": "many", "avg": 30}],
          "accessPatterns": [
            {"name": "a topic with its reply count", "kind": "read", "start": "Topic", "filter": ["topicId"],
             "counts": ["Reply"], "perSecond": 500},
            {"name": "newest replies of a topic", "kind": "read", "start": "Reply", "filter": ["topicId"],
             "sort": ["-postedAt"], "limit": 5, "perSecond": 500},
            {"name": "reply", "kind": "write", "write": "create", "start": "Reply", "perSecond": 1}
          ]
        }"#,
        None,
    )
    .expect("a valid model");
    let m = map(&model, &Options::default());
    let reply = op(&m, "reply");
    let purposes: Vec<&str> = reply
        .requests
        .iter()
        .map(|r| match r.purpose {
            Purpose::Claim { .. } => "claim",
            Purpose::Write { .. } => "write",
            Purpose::UpdateSubset { .. } => "subset",
            Purpose::UpdateCount { .. } => "count",
            _ => "other",
        })
        .collect();
    assert_eq!(purposes, ["claim", "write", "subset", "count"], "{reply:#?}");
    // The topic is rewritten in the reply's own logical partition.
    for r in &reply.requests[2..] {
        assert_eq!(r.partition_key(), reply.requests[1].partition_key());
    }
}

#[test]
fn a_path_to_the_root_is_stored_as_ancestors_and_kept_by_the_writes_of_the_tree() {
    let model = load("examples/patterns/tree-ancestors/model.json");
    let m = map(&model, &Options::default());
    let category = document(&m, "Category", "Category");
    let parent = category.references.iter().find(|r| r.name == "parent").unwrap();
    assert!(parent.optional && parent.ancestry.is_none(), "a root has no parent");
    let list = category
        .references
        .iter()
        .find(|r| r.name == "ancestors")
        .expect("an ancestors list");
    assert!(list.many);
    assert_eq!(
        list.ancestry.as_ref().map(|a| (a.parent.as_str(), a.max)),
        Some(("parent", 6))
    );
    let extended = list.extended.as_ref().unwrap();
    let names: Vec<&str> = extended.attributes.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["name"], "only what is read, never the sensitive notes");
    assert_eq!(
        extended.sync.as_ref().unwrap().actions[0].operation,
        SyncOperation::Reancestor
    );
    // The path comes with the category: one point read.
    let read = op(&m, "a category with its path");
    assert_eq!(read.requests.len(), 1);
    // A create reads the new parent first; a replace also rewrites the descendants.
    let create = op(&m, "add a category");
    assert_eq!(create.kind, OperationKind::Write);
    assert!(matches!(
        create.requests[0].purpose,
        Purpose::ReadParentAncestors { .. }
    ));
    let replace = op(&m, "rename or move a category");
    let query = replace
        .requests
        .iter()
        .find(|r| matches!(r.purpose, Purpose::SyncAncestors { .. }) && r.kind() != OperationKind::Write)
        .expect("the query for the descendants");
    assert_eq!(
        query.sql().unwrap(),
        "SELECT VALUE c FROM c JOIN a IN c.ancestors WHERE a.id = @categoryId AND c.type = 'category'"
    );
    // "Children of" queries the parent reference, never the partition key.
    let children = op(&m, "children of a category");
    assert!(
        children.requests[0]
            .sql()
            .unwrap()
            .contains("c.parent.id = @parentCategoryId"),
        "{:?}",
        children.requests[0].sql()
    );
    assert_eq!(children.kind, OperationKind::CrossPartitionQuery);
    let d = decision(&m, Rule::TreeAncestors, "Category.parent");
    assert!(d.evidence["savesRuPerSecond"].as_f64().unwrap() > d.evidence["addsRuPerSecond"].as_f64().unwrap());
    // Without the list, the read climbs one point read per level (3 on average).
    let rules = map(&model, &Options::default().optimise(false));
    let climb = op(&rules, "a category with its path");
    assert!(matches!(climb.requests[1].purpose, Purpose::FollowAncestors { .. }));
    let report = costed(&model);
    let path = report.pattern("a category with its path").unwrap();
    assert!((path.rules.ru - 4.0).abs() < 0.01, "1 + 3 levels: {}", path.rules.ru);
    assert!(report.totals.optimised < report.totals.rules);
}

#[test]
fn an_ancestors_list_is_refused_when_writes_outweigh_reads_or_it_would_not_fit() {
    let model = load("examples/patterns/tree-ancestors/model.json");
    let rates = [("a category with its path", 0.01), ("rename or move a category", 50.0)];
    let model = with_rates(&model, &rates);
    let m = map(&model, &Options::default());
    assert_reason(&m, Rule::TreeAncestors, "Category.parent", "would not drop");
    assert!(m
        .container("Category")
        .unwrap()
        .document_type("Category")
        .unwrap()
        .references
        .iter()
        .all(|r| r.ancestry.is_none()));
    // Ten thousand levels of names do not fit an item.
    let deep = edited(&model, |spec| {
        let rel = spec.relationships.iter_mut().find(|r| r.from == r.to).unwrap();
        rel.depth = Some(cosmap_domain::Depth {
            max: 10_000,
            avg: Some(3.0),
        });
    });
    let m = map(&deep, &Options::default());
    assert_reason(
        &m,
        Rule::TreeAncestors,
        "Category.parent",
        "KB a list may take of an item",
    );
}

#[test]
fn readings_charted_by_device_and_time_are_kept_in_hourly_buckets() {
    let model = load("examples/patterns/bucket/model.json");
    let m = map(&model, &Options::default());
    let device = m.container("Device").unwrap();
    assert!(device.document_type("Reading").is_none(), "no document per reading");
    let bucket = device.document_type("ReadingBucket").expect("a bucket document type");
    let of = bucket.bucket.as_ref().unwrap();
    assert_eq!(
        (of.element.as_str(), of.time.as_str(), of.window, of.items.as_str()),
        ("Reading", "measuredAt", cosmap_mapper::BucketWindow::Hour, "readings")
    );
    assert!((of.typical_items - 60.12).abs() < 0.01, "{}", of.typical_items);
    // The chart reads the buckets its range touches, newest first.
    let chart = op(&m, "chart of a device's last day");
    assert_eq!(
        chart.requests[0].sql().unwrap(),
        "SELECT * FROM c WHERE c.deviceId = @deviceId AND c.window >= LEFT(@measuredAtMin, 13) AND c.type = 'readingBucket' ORDER BY c.window DESC"
    );
    // A reading is appended to the bucket its hour names.
    let record = op(&m, "record a reading");
    assert!(matches!(record.requests[0].purpose, Purpose::AppendToBucket { .. }));
    assert_eq!(
        record.requests[0].id(),
        Some(&cosmap_mapper::operations::ValueSource::Window {
            parameter: "measuredAt".into(),
            length: 13
        })
    );
    let report = costed(&model);
    let chart = report.pattern("chart of a device's last day").unwrap();
    // 1,440 readings are 15 pages of documents, or one page of 25 buckets.
    assert!(chart.rules.ru > 5.0 * chart.optimised.ru, "{chart:?}");
    let record = report.pattern("record a reading").unwrap();
    assert!(
        record.optimised.ru > record.rules.ru,
        "an append rewrites a bucket: {record:?}"
    );
    assert!(report.totals.optimised < report.totals.rules);
}

#[test]
fn buckets_are_refused_when_writes_outweigh_reads_or_reads_need_one_child() {
    // iot-fleet: 20,000 readings a second, read a page at a time.
    let m = map(&load("examples/iot-fleet/model.json"), &Options::default());
    assert_reason(&m, Rule::Bucket, "SensorReading", "would not drop");
    assert!(m.container("Device").unwrap().document_type("SensorReading").is_some());
    // A reading that is also replaced, or read by itself, cannot live in a bucket.
    let mut spec = load("examples/patterns/bucket/model.json").spec().clone();
    spec.access_patterns.push(
        cosmap_domain::AccessPattern::new("correct a reading", cosmap_domain::AccessKind::Write, "Reading", 1.0)
            .write(cosmap_domain::WriteOperation::Replace),
    );
    let m = map(&DomainModel::new(spec.clone()).unwrap(), &Options::default());
    assert_reason(&m, Rule::Bucket, "Reading", "written once");
    spec.access_patterns.pop();
    spec.access_patterns.push(
        cosmap_domain::AccessPattern::new("cold readings", cosmap_domain::AccessKind::Read, "Reading", 1.0)
            .filter("celsius <"),
    );
    let m = map(&DomainModel::new(spec).unwrap(), &Options::default());
    assert_reason(&m, Rule::Bucket, "Reading", "cannot serve");
}

#[test]
fn the_cost_table_credits_each_kind_of_derived_data_with_its_own_line() {
    for (example, rule) in [
        ("extended-reference", Rule::ExtendedReference),
        ("computed-value", Rule::ComputedValue),
        ("subset", Rule::Subset),
        ("tree-ancestors", Rule::TreeAncestors),
        ("bucket", Rule::Bucket),
    ] {
        let model = load(&format!("examples/patterns/{example}/model.json"));
        let report = costed(&model);
        let line = report
            .optimisations
            .iter()
            .find(|e| e.rule == rule)
            .unwrap_or_else(|| panic!("{example}: no {} line", rule.as_str()));
        assert!(
            line.saves_ru_per_second > line.adds_ru_per_second,
            "{example}: {line:?}"
        );
        assert!(!line.patterns.is_empty());
    }
}
