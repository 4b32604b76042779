//! `cosmap diff` as a user runs it: the e-commerce model against itself and against
//! `tests/diff/ecommerce-changed.json` (an optional property added, order items moved
//! from embedded to separate documents, a partition key changed), text, JSON and exit
//! codes.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

const ECOMMERCE: &str = "examples/ecommerce/model.json";
const CHANGED: &str = "tests/diff/ecommerce-changed.json";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cosmap(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cosmap"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("cosmap runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).expect("JSON output")
}

/// The change of kind `kind` whose subject is `subject` (as `{container, documentType, path}`).
fn change<'a>(diff: &'a Value, kind: &str, container: &str, document_type: Option<&str>) -> &'a Value {
    diff["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| {
            c["kind"] == kind
                && c["subject"]["container"] == container
                && c["subject"]["documentType"].as_str() == document_type
        })
        .unwrap_or_else(|| panic!("no {kind} at {container}/{document_type:?} in {diff:#}"))
}

#[test]
fn a_model_against_itself_has_no_changes_and_exits_0() {
    let out = cosmap(&["diff", ECOMMERCE, ECOMMERCE]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "Ecommerce → Ecommerce: no changes.\n");
    let out = cosmap(&["diff", ECOMMERCE, ECOMMERCE, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let diff = json(&out);
    assert_eq!(diff["changes"], serde_json::json!([]));
    assert!(diff.get("worst").is_none());
    let out = cosmap(&["diff", ECOMMERCE, ECOMMERCE, "--no-optimise"]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn the_changed_model_is_classified_change_by_change() {
    let out = cosmap(&["diff", ECOMMERCE, CHANGED, "--format", "json"]);
    assert_eq!(out.status.code(), Some(13), "breaking for readers: {}", stderr(&out));
    let diff = json(&out);
    assert_eq!(diff["worst"], "breakingForReaders");

    let nickname = change(&diff, "propertyAdded", "Account", Some("Account"));
    assert_eq!(nickname["subject"]["path"], serde_json::json!(["nickname"]));
    assert_eq!(nickname["class"], "additive");
    assert_eq!(nickname["optional"], true);

    let items = change(&diff, "embeddedToSeparate", "Order", Some("OrderItem"));
    assert_eq!(items["class"], "dataMigration");
    assert_eq!(items["from"], "Order.items");
    // Every order is rewritten: the e-commerce model declares 200 million.
    assert_eq!(items["estimate"]["documents"], 200_000_000.0);
    assert!(items["estimate"]["ru"].as_f64().unwrap() > 200_000_000.0);

    let key = change(&diff, "partitionKeyChanged", "PresentedProduct", None);
    assert_eq!(key["class"], "breakingForReaders");
    assert_eq!(key["old"], serde_json::json!(["/productId"]));
    assert_eq!(key["new"], serde_json::json!(["/presentedProductId"]));
    assert!(key["estimate"]["documents"].as_f64().unwrap() > 0.0);
    assert!(key["explanation"]
        .as_str()
        .unwrap()
        .contains("cannot change a partition key"));

    // No separate `embeddedRemoved` for the items that became documents.
    assert!(!diff["changes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["kind"] == "embeddedRemoved" && c["source"] == "OrderItem"));
}

#[test]
fn the_text_groups_changes_by_class_worst_first() {
    let out = cosmap(&["diff", ECOMMERCE, CHANGED]);
    assert_eq!(out.status.code(), Some(13));
    let text = stdout(&out);
    assert!(text.starts_with("Ecommerce → Ecommerce: "), "{text}");
    assert!(
        text.replace("\n", " ")
            .contains("the worst is breaking for readers (exit code 13)"),
        "{text}"
    );
    let at = |needle: &str| text.find(needle).unwrap_or_else(|| panic!("no `{needle}` in\n{text}"));
    assert!(at("BREAKING FOR READERS") < at("DATA MIGRATION"));
    assert!(at("DATA MIGRATION") < at("ADDITIVE"));
    assert!(at("PresentedProduct: partition key /productId → /presentedProductId") > at("BREAKING FOR READERS"));
    assert!(at("Order/OrderItem: value object `OrderItem` embedded in `Order.items` →") > at("DATA MIGRATION"));
    assert!(at("Account/Account.nickname: property added (string, optional)") > at("ADDITIVE"));
    assert!(text.contains("estimate: "), "{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "fits 80 columns: {line}");
    }
}

#[test]
fn the_exit_code_is_the_worst_class() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("diff-exit-codes");
    std::fs::create_dir_all(&dir).unwrap();
    let mut model: Value = serde_json::from_slice(&std::fs::read(repo().join(ECOMMERCE)).unwrap()).unwrap();
    model.as_object_mut().unwrap().remove("$schema");
    let account = model["entities"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|e| e["name"] == "Account")
        .unwrap();
    let write = |name: &str, model: &Value| {
        let path = dir.join(name);
        std::fs::write(&path, model.to_string()).unwrap();
        path.to_str().unwrap().to_string()
    };
    let attributes = account["attributes"].as_array_mut().unwrap();
    attributes.push(serde_json::json!({"name": "nickname", "type": "string", "optional": true}));
    let additive = write("additive.json", &model);
    let out = cosmap(&["diff", ECOMMERCE, &additive]);
    assert_eq!(out.status.code(), Some(11), "additive: {}", stdout(&out));
    // Back again: the property is left behind in the documents, nothing to do.
    let out = cosmap(&["diff", &additive, ECOMMERCE]);
    assert_eq!(out.status.code(), Some(10), "in place: {}", stdout(&out));
    assert!(stdout(&out).contains("IN PLACE (1)"), "{}", stdout(&out));
}

#[test]
fn bad_input_is_reported_like_other_commands() {
    let out = cosmap(&["diff", ECOMMERCE, "tests/diff/missing.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("error: "), "{}", stderr(&out));
    assert!(stderr(&out).contains("missing.json"), "{}", stderr(&out));

    let bad = "tests/bad-models/access-pattern-counts.json";
    let out = cosmap(&["diff", bad, ECOMMERCE]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        stderr(&cosmap(&["check", bad])),
        "the same report as `check`"
    );

    let out = cosmap(&["diff", ECOMMERCE]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("needs two model files"), "{}", stderr(&out));
}

#[test]
fn a_diff_against_an_endpoint_is_refused_until_it_exists() {
    let out = cosmap(&["diff", ECOMMERCE, "--endpoint", "https://localhost:8081/"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not available yet"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}
