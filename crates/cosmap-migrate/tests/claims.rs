//! A value made unique across partitions (`Account.email`): the new model claims each
//! value in `UniqueClaims`, so `cosmap migrate` creates the claims container and a
//! claim per existing account. A value two accounts hold stops the step, naming both —
//! a unique key that constrains nothing is worse than no migration — and once resolved,
//! running again finishes; a second run changes nothing.

mod common;

use common::map;

use cosmap_migrate::{plan, MigrateError, Step};
use serde_json::json;

#[tokio::test]
async fn claims_are_created_for_existing_values_and_a_duplicate_stops_the_step() {
    let (v1, v2) = (map(&common::accounts(false)), map(&common::accounts(true)));
    let plan = plan(&v1, &v2).expect("claims added are migrated");
    common::assert_step(&plan, |s| {
        matches!(s, Step::ClaimValues { container, attribute, .. }
            if container == "UniqueClaims" && attribute == "email")
    });
    assert!(matches!(&plan.steps[0], Step::CreateContainers { definitions } if definitions[0].id == "UniqueClaims"));

    let (_account, connection) = common::provisioned("Accounts", &v1).await;
    let database = connection.cosmos_client().database_client("Accounts");
    let accounts = database.container_client("Account", None).await.unwrap();
    for (i, email) in ["ada@x", "bob@x", "cy@x", "bob@x"].iter().enumerate() {
        let id = format!("a-{i}");
        let doc = json!({"id": id, "type": "account", "accountId": id, "email": email});
        accounts.create_item(id.clone(), &id, &doc, None).await.unwrap();
    }
    let err = common::migrate(&plan, &connection)
        .await
        .expect_err("a-3 holds bob@x, which a-1 holds");
    assert!(matches!(err, MigrateError::Data { .. }));
    let message = err.to_string();
    assert!(
        message.contains("`account` `a-3` holds `email` `bob@x`, which `a-1` holds too"),
        "{message}"
    );

    let fixed = json!({"id": "a-3", "type": "account", "accountId": "a-3", "email": "dee@x"});
    accounts
        .upsert_item("a-3".to_string(), "a-3", &fixed, None)
        .await
        .unwrap();
    common::migrate(&plan, &connection).await.expect("the claims are made");
    let claims = database.container_client("UniqueClaims", None).await.unwrap();
    let mut made: Vec<(String, String)> = common::query(&claims, "SELECT * FROM c WHERE c.type = 'accountEmailClaim'")
        .await
        .iter()
        .map(|c| {
            (
                c["claim"].as_str().unwrap().to_string(),
                c["ownerId"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    made.sort();
    assert_eq!(
        made,
        [
            ("ada@x".to_string(), "a-0".to_string()),
            ("bob@x".into(), "a-1".into()),
            ("cy@x".into(), "a-2".into()),
            ("dee@x".into(), "a-3".into())
        ]
    );
    common::assert_second_run_changes_nothing(&plan, &connection).await;
}
