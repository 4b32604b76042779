//! Required attributes added with a model `default`
//! (`crates/cosmap-verify/tests/models/defaults-of-every-kind.json`, against a v1
//! without them), migrated on the SDK's in-memory engine: old documents read the
//! defaults as they are, so only the attributes the new model queries (`visibility`, a
//! filter; `editedAt`, a sort) are back-filled, and only where a document lacks them;
//! afterwards the new queries find the old documents; a second run changes nothing.

mod common;

use common::map;

use cosmap_migrate::{plan, run, Control, RunOptions, Step};
use serde_json::{json, Value};

const DATABASE: &str = "Blog";

/// A post as v1 wrote it; `layout` as given.
fn old_post(i: usize, layout: Value) -> Value {
    json!({
        "id": format!("p-{i}"), "type": "post", "postId": format!("p-{i}"), "title": format!("Post {i}"),
        "layout": layout,
        "author": {"id": "a-1", "partitionKey": "a-1", "tier": "gold"}
    })
}

#[tokio::test]
async fn queried_defaults_are_back_filled_where_documents_lack_them() {
    let (v1, v2) = (map(&common::defaults_v1()), map(&common::defaults_v2()));
    let plan = plan(&v1, &v2).expect("v1 → v2 is migrated");
    let backfills: Vec<String> = plan
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::BackfillDefault { path, value, .. } => Some(format!("{}={value}", path.join("."))),
            _ => None,
        })
        .collect();
    assert_eq!(
        backfills,
        ["editedAt=\"2020-01-01T00:00:00Z\"", "visibility=\"public\""],
        "{}",
        plan.to_text()
    );
    assert!(plan
        .to_text()
        .contains("write `\"public\"` into `visibility` of every `post` document that lacks it"));

    let (_account, connection) = common::provisioned(DATABASE, &v1).await;
    let posts = connection
        .cosmos_client()
        .database_client(DATABASE)
        .container_client("Post", None)
        .await
        .expect("container");
    for i in 0..12 {
        let mut post = old_post(i, json!({}));
        if i == 3 {
            // Written by v2 already: kept as it is.
            post["visibility"] = json!("private");
        }
        let id = post["id"].as_str().unwrap().to_string();
        posts.create_item(id.clone(), &id, &post, None).await.expect("written");
    }

    let mut totals = std::collections::BTreeMap::new();
    let report = run(&plan, &connection, &RunOptions::default().page_size(5), |p| {
        totals.insert(p.step.clone(), p.total);
        Control::Continue
    })
    .await
    .expect("migrated");
    let visibility = totals
        .iter()
        .find(|(step, _)| step.contains("`visibility`"))
        .map(|(_, t)| *t);
    assert_eq!(
        visibility,
        Some(Some(11)),
        "the posts that lack it, counted before: {totals:?}"
    );
    let migrated: Vec<u64> = report.steps.iter().map(|s| s.migrated).collect();
    assert_eq!(
        migrated,
        [12, 11],
        "editedAt in every post, visibility in all but one: {report:?}"
    );

    let all: Vec<Value> = common::query(&posts, "SELECT * FROM c WHERE c.type = 'post'").await;
    assert_eq!(all.len(), 12);
    for post in &all {
        let expected = if post["id"] == "p-3" { "private" } else { "public" };
        assert_eq!(post["visibility"], expected, "{post}");
        assert_eq!(post["editedAt"], "2020-01-01T00:00:00Z");
        // Read as defaults, not queried: left out of the documents.
        assert!(
            post.get("score").is_none() && post["layout"].get("theme").is_none(),
            "{post}"
        );
        assert_eq!(post["author"]["tier"], "gold", "the rest is as it was");
    }
    // The new model's query on a defaulted attribute finds the old posts.
    let public: Vec<Value> = common::query(&posts, "SELECT * FROM c WHERE c.visibility = 'public'").await;
    assert_eq!(public.len(), 11);

    // Run again: nothing lacks them any more.
    common::assert_second_run_changes_nothing(&plan, &connection).await;
}

#[test]
fn a_changed_default_keeps_the_old_one_in_documents_that_lack_it() {
    let old = common::defaults_v2();
    let mut new = common::defaults_v2();
    new["entities"][1]["attributes"][1]["default"] = json!("unlisted");
    let (old, new) = (map(&old), map(&new));
    let plan = plan(&old, &new).expect("a changed default is migrated");
    common::assert_step(
        &plan,
        |s| matches!(s, Step::BackfillDefault { value, .. } if value == "public"),
    );
}

#[tokio::test]
async fn derived_data_kept_from_a_change_feed_is_left_to_its_worker_and_said_so() {
    // Version 1 reads a post without its author's tier: no extended reference.
    let mut v1 = common::defaults_v2();
    v1["accessPatterns"][0]["returns"] = json!(["Post"]);
    let (v1, v2) = (map(&v1), map(&common::defaults_v2()));
    let plan = plan(&v1, &v2).expect("an extended reference added is migrated");
    let workers: Vec<&Step> = plan
        .steps
        .iter()
        .filter(|s| matches!(s, Step::RunWorker { .. }))
        .collect();
    assert!(
        matches!(workers.as_slice(), [Step::RunWorker { subject, derived }]
            if subject == "Post/Post.author" && derived == "extended reference"),
        "{}",
        plan.to_text()
    );
    let (_account, connection) = common::provisioned(DATABASE, &v1).await;
    let report = common::migrate(&plan, &connection).await.expect("run");
    assert_eq!(report.to_run.len(), 1);
    let text = report.to_text();
    assert!(
        text.contains("still to do") && text.contains("run its generated change-feed worker once"),
        "{text}"
    );
    let json = serde_json::to_value(&plan).unwrap();
    assert!(
        json["steps"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["step"] == "runWorker"),
        "{json}"
    );
}
