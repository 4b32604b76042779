//! Unique keys changed (a plan's `code` made unique in the dictionary, whose plans share
//! one logical partition): Cosmos DB cannot change them in place, so `cosmap migrate`
//! copies the container into `Dictionary-unique-code`, created with them, through the
//! change feed. A duplicate
//! the new key refuses stops the step, naming the document and saying what to do;
//! once the duplicate is resolved in the old container, running again finishes the copy.

mod common;

use common::map;

use cosmap_migrate::{plan, run, Control, MigrateError, RunOptions, Step};
use serde_json::{json, Value};

async fn documents(client: &azure_data_cosmos::ContainerClient) -> Vec<Value> {
    common::query(client, "SELECT * FROM c WHERE c.type != 'cosmapMigrateLease'").await
}

#[tokio::test]
async fn a_new_unique_key_is_a_copy_that_stops_at_a_duplicate_and_resumes() {
    let (v1, v2) = (map(&common::plans(false)), map(&common::plans(true)));
    assert_eq!(
        v2.container("Dictionary").unwrap().unique_keys.len(),
        1,
        "the model gives a unique key"
    );
    let plan = plan(&v1, &v2).expect("a unique key change is migrated");
    common::assert_step(
        &plan,
        |s| matches!(s, Step::CopyWithUniqueKeys { target, .. } if target == "Dictionary-unique-code"),
    );
    assert_eq!(
        plan.renamed,
        [("Dictionary".to_string(), "Dictionary-unique-code".to_string())]
    );

    let (_account, connection) = common::provisioned("Plans", &v1).await;
    let database = connection.cosmos_client().database_client("Plans");
    let plans = database.container_client("Dictionary", None).await.unwrap();
    let mut write = Vec::new();
    for p in 0..6 {
        // Plans 2 and 4 share a code: the new key refuses that.
        let code = if p == 2 || p == 4 {
            "dup".to_string()
        } else {
            format!("c-{p}")
        };
        write.push(
            json!({"id": format!("p-{p}"), "type": "plan", "planId": format!("p-{p}"), "code": code, "price": "1.00"}),
        );
    }
    for d in &write {
        plans
            .create_item("plan".to_string(), d["id"].as_str().unwrap(), d, None)
            .await
            .expect("written");
    }

    let err = run(&plan, &connection, &RunOptions::default().page_size(2), |_| {
        Control::Continue
    })
    .await
    .expect_err("the duplicate stops the copy");
    let message = err.to_string();
    assert!(matches!(err, MigrateError::Data { .. }), "{message}");
    assert!(
        message.contains("partition `plan`")
            && message.contains("unique keys refuse")
            && message.contains("run `cosmap migrate` again"),
        "{message}"
    );
    assert_eq!(documents(&plans).await.len(), write.len(), "nothing is deleted");

    // Resolved in the old container; the next run resumes and finishes the copy.
    let mut fixed = write.iter().find(|d| d["id"] == "p-4").unwrap().clone();
    fixed["code"] = json!("c-4");
    plans
        .upsert_item("plan".to_string(), "p-4", &fixed, None)
        .await
        .unwrap();
    let report = common::migrate(&plan, &connection).await.expect("the copy finishes");
    assert!(report.steps.iter().all(|s| s.caught_up), "{report:?}");
    let copy = database.container_client("Dictionary-unique-code", None).await.unwrap();
    let mut copied: Vec<String> = documents(&copy)
        .await
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect();
    copied.sort();
    let mut expected: Vec<String> = write.iter().map(|d| d["id"].as_str().unwrap().to_string()).collect();
    expected.sort();
    assert_eq!(copied, expected, "every document, once");
    let text = report.to_text();
    assert!(text.contains("readers can switch"), "{text}");
}
