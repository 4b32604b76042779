//! `cosmap migrate` as a user runs it: the plan of e-commerce v1 → v2 (`--dry-run`, text
//! and JSON, no connection made), a migration it cannot make refused with each change
//! named, and a key given by flag never printed. The run itself is tested on the SDK's
//! in-memory engine in `crates/cosmap-migrate/tests/ecommerce.rs`.

mod support_cli;

use serde_json::Value;
use support_cli::{cosmap, stderr, stdout};

const V1: &str = "examples/ecommerce/model.json";
const V2: &str = "examples/ecommerce/v2/model.json";

#[test]
fn dry_run_prints_the_plan_in_order_and_what_may_be_dropped() {
    let out = cosmap(&[
        "migrate",
        V1,
        V2,
        "--dry-run",
        "--endpoint",
        "https://nowhere.invalid/",
        "--key",
        "c2VjcmV0LWtleQ==",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    let create = text.find("create container `Item-itemCode` (/itemCode)").expect(&text);
    let copy = text
        .find("copy every document of `Item` (/itemId) into `Item-itemCode`")
        .expect(&text);
    let split = text
        .find("write a `orderItem` document per value of `order.items`")
        .expect(&text);
    assert!(create < copy && copy < split, "{text}");
    assert!(
        text.contains("Account/Account.nickname (propertyAdded): nothing to migrate"),
        "{text}"
    );
    assert!(text.contains("container `Item` (the old partition key)"), "{text}");
    assert!(text.contains("Dry run: nothing was sent."), "{text}");
    assert!(!text.contains("c2VjcmV0LWtleQ") && !stderr(&out).contains("c2VjcmV0LWtleQ"));
}

#[test]
fn dry_run_as_json() {
    let out = cosmap(&["migrate", V1, V2, "--dry-run", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let plan: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(plan["dryRun"], true);
    let steps: Vec<&str> = plan["plan"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["step"].as_str().unwrap())
        .collect();
    assert_eq!(
        steps,
        ["createContainers", "repartition", "splitEmbedded", "nothing", "nothing"]
    );
    assert_eq!(plan["plan"]["steps"][1]["lease"]["container"], "Item-itemCode");
}

#[test]
fn a_change_it_cannot_migrate_is_refused_by_name_and_nothing_is_sent() {
    // A date-time retyped to an integer: the conversion is the user's to define.
    let out = cosmap(&[
        "migrate",
        V1,
        "tests/migrate/ecommerce-retyped.json",
        "--endpoint",
        "https://nowhere.invalid/",
        "--key",
        "eA==",
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(
        err.contains("Account/Account.createdAt (propertyRetyped, breaking for readers): a dateTime is not rewritten as an integer"),
        "{err}"
    );
    assert!(err.contains("nothing was done"), "{err}");
    assert!(stdout(&out).is_empty());
}
