//! The `feed` optimisation: a frequent read of the newest N across all aggregates
//! reads a feed of their short forms in one logical partition, where that lowers the
//! workload and the partition can serve it.

use cosmap_domain::DomainModel;
use cosmap_mapper::operations::{OperationKind, Purpose, ValueSource};
use cosmap_mapper::{map, LogicalModel, Options, Role, Rule, SyncOperation};

mod common;
use common::{document, edited, example};

fn newsfeed() -> DomainModel {
    example("newsfeed")
}

/// The newsfeed example with `edit` made to it, mapped.
fn with(edit: impl FnOnce(&mut cosmap_domain::ModelSpec)) -> LogicalModel {
    map(&edited(&newsfeed(), edit), &Options::default())
}

#[test]
fn the_newest_posts_read_a_feed_kept_from_the_change_feed() {
    let m = map(&newsfeed(), &Options::default());
    let feeds = m.container("Feeds").expect("a feeds container");
    assert_eq!(feeds.partition_key.paths, ["/feed"]);
    let feed = feeds.document_type("PostFeed").expect("the feed");
    assert_eq!(feed.role, Role::Copy);
    let of = feed.copy_of.as_ref().expect("a feed is a copy");
    assert_eq!((of.newest, of.serves.as_str()), (Some(50), "the newest posts"));
    let operations: Vec<SyncOperation> = of.sync.actions.iter().map(|a| a.operation).collect();
    assert_eq!(
        operations,
        [SyncOperation::Upsert, SyncOperation::Trim, SyncOperation::Delete]
    );
    // Only what the read needs: the short form and the sort key.
    let names: Vec<&str> = feed.attributes.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["title", "postedAt"]);
    let read = m.operation("the newest posts").unwrap();
    assert_eq!(read.kind, OperationKind::SinglePartitionQuery);
    assert_eq!(read.requests[0].container, "Feeds");
    assert_eq!(
        read.requests[0].partition_key(),
        Some(&ValueSource::Constant("post".into()))
    );
    assert!(read.requests[0].sql().unwrap().contains("c.feed = 'post'"));
    // A new post is upserted into the feed, which trims it.
    let publish = m.operation("publish a post").unwrap();
    assert!(publish
        .requests
        .iter()
        .any(|r| r.container == "Feeds" && matches!(r.purpose, Purpose::SyncFeed { .. })));
    let d = m.decisions.iter().find(|d| d.rule == Rule::Feed).unwrap();
    assert!(d.evidence["workloadRuPerSecondWith"].as_f64() < d.evidence["workloadRuPerSecond"].as_f64());
}

#[test]
fn another_read_of_posts_never_reads_the_feed() {
    // Posts of one member, newest first: the feed holds only the newest 50 of all,
    // so reading it would miss that member's older posts.
    let m = with(|spec| {
        let mut p = spec.access_patterns[0].clone();
        p.name = "posts of a member".into();
        p.filter = vec!["memberId".into()];
        spec.access_patterns.push(p);
    });
    let read = m.operation("posts of a member").unwrap();
    assert!(read.requests.iter().all(|r| r.container != "Feeds"), "{read:?}");
}

#[test]
fn a_feed_is_refused_when_its_one_partition_would_be_too_hot_or_it_does_not_pay() {
    let hot = with(|spec| spec.access_patterns[0].per_second = 5000.0);
    assert!(hot.container("Feeds").is_none());
    let d = hot.decisions.iter().find(|d| d.rule == Rule::Feed).unwrap();
    assert_eq!(d.outcome, "no feed");
    assert!(d.reason.contains("logicalPartitionMaxRuPerSecond"), "{}", d.reason);
    // A small container: a query across its few partitions costs what the feed's does.
    // Small for good: without growth (posts are created every second, and partitions
    // are counted on the storage after `growthYears`).
    let small = with(|spec| {
        for e in &mut spec.entities {
            if let Some(v) = &mut e.volume {
                v.count = Some(10_000.0);
            }
        }
        spec.thresholds = Some(cosmap_domain::ThresholdOverrides {
            growth_years: Some(0.0),
            ..cosmap_domain::ThresholdOverrides::default()
        });
    });
    assert!(small.container("Feeds").is_none());
    let d = small.decisions.iter().find(|d| d.rule == Rule::Feed).unwrap();
    assert!(d.reason.contains("cost more than the fan-out it saves"), "{}", d.reason);
}

#[test]
fn a_feed_keeps_the_reference_its_read_follows() {
    // The short form leaves `author` out, but each post shows its author's name:
    // the feed keeps the reference, with the name stored beside it (the extended
    // reference kept on the posts, carried by their feed), so the read follows none.
    let m = with(|spec| {
        let p = &mut spec.access_patterns[0];
        p.project = vec!["title".into(), "postedAt".into()];
        p.returns = vec!["author.displayName".into()];
    });
    let feed = document(&m, "Feeds", "PostFeed");
    let author = feed.references.iter().find(|r| r.name == "author").expect("{feed:?}");
    let stored = author.extended.as_ref().expect("the name beside the reference");
    assert!(stored.attributes.iter().any(|a| a.name == "displayName"), "{stored:?}");
    let read = m.operation("the newest posts").unwrap();
    assert!(!read
        .requests
        .iter()
        .any(|r| r.container == "Member" && r.kind() == OperationKind::PointRead));
}
