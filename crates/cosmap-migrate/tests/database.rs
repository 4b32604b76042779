//! A run into a database that does not exist: an error naming it, nothing created,
//! unless `RunOptions::create_database` says to create it; and a run that fails midway
//! still answers what it did (`run_reporting`).

mod common;

use common::map;

use cosmap_migrate::{plan, run_reporting, Control, MigrateError, RunOptions};
use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_provision::{database_exists, ProvisionError, Settings};
use serde_json::json;

#[tokio::test]
async fn a_missing_database_is_created_only_when_asked_and_a_failure_keeps_the_report() {
    let spec = |unique: bool| {
        json!({"name": "Accounts", "entities": [{"name": "Account", "identity": "accountId", "attributes": [
            {"name": "email", "type": "string", "unique": unique}], "volume": {"count": 1000000, "avgSizeBytes": 500}}],
            "aggregates": [{"root": "Account"}]})
    };
    let plan = plan(&map(&spec(false)), &map(&spec(true))).expect("claims are migrated");
    let account = InMemoryAccount::new().expect("engine");
    let connection = account.connect("Acounts", Settings::default()).await.expect("connect");

    let (report, error) = run_reporting(&plan, &connection, &RunOptions::default(), |_| Control::Continue).await;
    let error = error.expect("the database is missing");
    assert!(
        matches!(&error, MigrateError::Provision(ProvisionError::DatabaseMissing { database, .. }) if database == "Acounts"),
        "{error}"
    );
    assert!(report.steps.is_empty() && report.failed.is_some(), "{report:?}");
    assert!(!database_exists(&connection).await.unwrap(), "nothing created");

    // Asked to create it: the container step creates the database and `UniqueClaims`;
    // the claims step then finds no `Account` container (this database never held
    // the old model), and the report still says what was made.
    let options = RunOptions::default().create_database(true);
    let (report, error) = run_reporting(&plan, &connection, &options, |_| Control::Continue).await;
    assert!(error.is_some(), "{report:?}");
    assert!(database_exists(&connection).await.unwrap());
    assert_eq!(report.steps.len(), 2, "{report:?}");
    assert_eq!(
        report.steps[0].written, 2,
        "the database and `UniqueClaims`: {report:?}"
    );
    assert!(report
        .to_text()
        .contains("failed after what is listed above, which is kept"));
}
