//! `cosmap diff` as a user runs it: the e-commerce model against itself and against
//! `tests/diff/ecommerce-changed.json` (an optional property added, order items moved
//! from embedded to separate documents, a partition key changed), text, JSON and exit
//! codes; and `cosmap diff NEW --endpoint` against what `cosmap provision` made on a
//! real server (`@vercel/cosmosdb-server`, started by the tests on loopback, as in
//! tests/provision.rs).

mod support;
mod support_cli;

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;
use support::CosmosServer;
use support_cli::{cosmap, repo, stderr, stdout};

const ECOMMERCE: &str = "examples/ecommerce/model.json";
const CHANGED: &str = "tests/diff/ecommerce-changed.json";
const V2: &str = "examples/ecommerce/v2/model.json";
/// A distinctive (fake, valid base64) key: it must never appear in any output.
const KEY: &str = "Q09TTUFQLURJRkYtVEVTVC1LRVktc2hvdWxkLW5ldmVyLWJlLXByaW50ZWQ=";

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
    assert_eq!(key["old"], serde_json::json!(["/countryId", "/productId"]));
    assert_eq!(key["new"], serde_json::json!(["/countryId", "/presentedProductId"]));
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
    assert!(at("PresentedProduct: partition key /countryId, /productId → /countryId,") > at("BREAKING FOR READERS"));
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

// `cosmap diff NEW --endpoint`: against what is provisioned.

/// Runs `cosmap` with COSMOS_KEY set to [`KEY`] (and no other COSMOS_* variable);
/// the key must not appear in its output.
fn cosmap_keyed(args: &[&str]) -> Output {
    support::cosmap_without_leaking(args, &[("COSMOS_KEY", KEY)], KEY)
}

/// A server with `model` provisioned into its database (the model's name).
fn provisioned(model: &str) -> CosmosServer {
    let server = CosmosServer::start();
    let out = cosmap_keyed(&[
        "provision",
        "--create-database",
        model,
        "--endpoint",
        &server.endpoint(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    server
}

/// The text output as one line (it is wrapped at 80 columns).
fn unwrapped(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

const CONTAINERS_ONLY: &str = "Compared containers only: an account holds no model, so document types and properties were not compared; compare two model files (`cosmap diff OLD NEW`) for document shapes.";

/// The kinds of `diff`'s changes with their subjects' containers and classes.
fn kinds(diff: &Value) -> Vec<(String, String, String)> {
    diff["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert!(c["subject"].get("documentType").is_none(), "containers only: {c}");
            (
                c["subject"]["container"].as_str().unwrap().to_string(),
                c["kind"].as_str().unwrap().to_string(),
                c["class"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_model_against_the_account_it_was_provisioned_on_has_no_changes() {
    let server = provisioned(ECOMMERCE);
    let endpoint = server.endpoint();
    let before = server.fingerprint("Ecommerce");

    let out = cosmap_keyed(&["diff", ECOMMERCE, "--endpoint", &endpoint]);
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    let first = format!("Ecommerce at {endpoint} → Ecommerce: no changes.\n\n");
    assert!(text.starts_with(&first), "{text}");
    assert_eq!(unwrapped(&text[first.len()..]), CONTAINERS_ONLY, "{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "fits 80 columns: {line}");
    }
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));

    let out = cosmap_keyed(&["diff", ECOMMERCE, "--endpoint", &endpoint, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let diff = json(&out);
    assert_eq!(diff["old"], format!("Ecommerce at {endpoint}"));
    assert_eq!(diff["new"], "Ecommerce");
    assert_eq!(diff["containersOnly"], true);
    assert_eq!(diff["changes"], serde_json::json!([]));
    assert!(diff.get("worst").is_none());

    // Indexing every path instead: an in-place change of each container's indexing policy.
    let out = cosmap_keyed(&[
        "diff",
        ECOMMERCE,
        "--endpoint",
        &endpoint,
        "--index-all",
        "--format",
        "json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(10),
        "in place: {}{}",
        stdout(&out),
        stderr(&out)
    );
    let diff = json(&out);
    assert_eq!(diff["worst"], "inPlace");
    let found = kinds(&diff);
    let containers: Vec<&str> = found.iter().map(|(c, _, _)| c.as_str()).collect();
    assert_eq!(
        containers,
        [
            "Account",
            "Dictionary",
            "Item",
            "Order",
            "PresentedProduct",
            "UniqueClaims"
        ]
    );
    assert!(
        found
            .iter()
            .all(|(_, kind, class)| kind == "indexingChanged" && class == "inPlace"),
        "{found:?}"
    );
    assert!(diff["changes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["includedAdded"] == serde_json::json!(["/*"])));

    // Reads only: nothing on the server changed.
    assert_eq!(server.fingerprint("Ecommerce"), before, "a diff sent a write");
}

#[test]
fn the_next_version_against_the_account_names_each_container_change() {
    let server = provisioned(ECOMMERCE);
    let endpoint = server.endpoint();

    let out = cosmap_keyed(&["diff", V2, "--endpoint", &endpoint, "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(13),
        "breaking: {}{}",
        stdout(&out),
        stderr(&out)
    );
    let diff = json(&out);
    assert_eq!(diff["worst"], "breakingForReaders");
    assert_eq!(diff["containersOnly"], true);
    let item = change(&diff, "partitionKeyChanged", "Item", None);
    assert_eq!(item["class"], "breakingForReaders");
    assert_eq!(item["old"], serde_json::json!(["/itemId"]));
    assert_eq!(item["new"], serde_json::json!(["/itemCode"]));
    assert!(item.get("oldVersion").is_none(), "{item}");
    assert!(item.get("estimate").is_none(), "an account gives no volumes: {item}");
    // The container changes `cosmap diff OLD NEW` finds are the ones found here.
    let files = json(&cosmap(&["diff", ECOMMERCE, V2, "--format", "json"]));
    let container_changes: Vec<(String, String, String)> = files["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["subject"].get("documentType").is_none())
        .map(|c| {
            (
                c["subject"]["container"].as_str().unwrap().to_string(),
                c["kind"].as_str().unwrap().to_string(),
                c["class"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(kinds(&diff), container_changes);
    for (container, kind, class) in kinds(&diff) {
        if kind == "containerAdded" {
            assert_eq!(class, "additive", "{container}");
        }
    }

    let out = cosmap_keyed(&["diff", V2, "--endpoint", &endpoint]);
    assert_eq!(out.status.code(), Some(13));
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!("Ecommerce at {endpoint} → Ecommerce: ")),
        "{text}"
    );
    assert!(text.contains("BREAKING FOR READERS"), "{text}");
    assert!(text.contains("  Item: partition key /itemId → /itemCode\n"), "{text}");
    assert!(unwrapped(&text).ends_with(CONTAINERS_ONLY), "{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "fits 80 columns: {line}");
    }
}

#[test]
fn containers_the_model_does_not_have_are_removed() {
    let server = provisioned(ECOMMERCE);
    let endpoint = server.endpoint();
    // A change feed processor's lease container, made by someone else.
    let (status, body) = server.post(
        "/dbs/Ecommerce/colls",
        &serde_json::json!({"id": "leases", "partitionKey": {"paths": ["/id"], "kind": "Hash", "version": 2}}),
    );
    assert_eq!(status, 201, "{body}");

    let out = cosmap_keyed(&["diff", ECOMMERCE, "--endpoint", &endpoint, "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(12),
        "data migration: {}{}",
        stdout(&out),
        stderr(&out)
    );
    assert_eq!(
        kinds(&json(&out)),
        [(
            "leases".to_string(),
            "containerRemoved".to_string(),
            "dataMigration".to_string()
        )]
    );
    let out = cosmap_keyed(&["diff", ECOMMERCE, "--endpoint", &endpoint]);
    assert!(
        stdout(&out).contains("  leases: container removed\n"),
        "{}",
        stdout(&out)
    );

    // A name chosen by whoever made the container is shown escaped, never sent to the terminal.
    let (status, body) = server.post(
        "/dbs/Ecommerce/colls",
        &serde_json::json!({"id": "evil\u{202e}txt", "partitionKey": {"paths": ["/id"]}}),
    );
    assert_eq!(status, 201, "{body}");
    let out = cosmap_keyed(&["diff", ECOMMERCE, "--endpoint", &endpoint]);
    assert_eq!(out.status.code(), Some(12), "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("  evil\\u{202E}txt: container removed\n"), "{text}");
    assert!(!text.contains('\u{202e}'), "{text}");
}

#[test]
fn a_database_that_is_not_there_makes_every_container_new() {
    let server = provisioned(ECOMMERCE);
    let endpoint = server.endpoint();
    let out = cosmap_keyed(&["diff", ECOMMERCE, "--endpoint", &endpoint, "--database", "Elsewhere"]);
    assert_eq!(
        out.status.code(),
        Some(11),
        "additive: {}{}",
        stdout(&out),
        stderr(&out)
    );
    let text = stdout(&out);
    assert!(
        unwrapped(&text).starts_with(&format!(
            "Elsewhere at {endpoint} → Ecommerce: 6 changes; the worst is additive (exit code 11)."
        )),
        "{text}"
    );
    assert!(
        unwrapped(&text).contains(&format!(
            "The database `Elsewhere` does not exist at {endpoint}: every container is new."
        )),
        "{text}"
    );
    assert_eq!(text.matches(": container added\n").count(), 6, "{text}");
    assert!(server.get("/dbs/Elsewhere").0 == 404, "a diff created nothing");
}

#[test]
fn two_files_and_an_endpoint_are_a_usage_error() {
    let out = cosmap_keyed(&["diff", ECOMMERCE, V2, "--endpoint", "https://localhost:8081/"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let message = stderr(&out);
    assert!(
        message.starts_with("error: `cosmap diff` compares two model files, or one model file with what is provisioned at --endpoint, not both"),
        "{message}"
    );
    assert!(message.contains("hint: cosmap diff NEW --endpoint URL"), "{message}");

    // --database and --verbose belong to --endpoint.
    for flag in [&["--database", "X"][..], &["--verbose"]] {
        let mut args = vec!["diff", ECOMMERCE, V2];
        args.extend_from_slice(flag);
        let out = cosmap_keyed(&args);
        assert_eq!(out.status.code(), Some(2), "{flag:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("--endpoint"), "{}", stderr(&out));
    }

    // One file and no --endpoint.
    let out = cosmap_keyed(&["diff", ECOMMERCE]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cosmap diff NEW --endpoint URL"),
        "{}",
        stderr(&out)
    );

    // COSMOS_ENDPOINT does not turn `cosmap diff OLD NEW` into a diff against an account.
    let out = support::cosmap_without_leaking(
        &["diff", ECOMMERCE, ECOMMERCE],
        &[("COSMOS_ENDPOINT", "https://localhost:1/")],
        KEY,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "Ecommerce → Ecommerce: no changes.\n");
}

#[test]
fn an_unreachable_endpoint_or_a_rejected_key_fails_clearly() {
    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    drop(server);
    let out = cosmap_keyed(&["diff", ECOMMERCE, "--endpoint", &endpoint]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    let message = stderr(&out);
    assert!(
        message.starts_with(&format!("error: cannot reach {endpoint}: connection refused\n  hint: ")),
        "{message}"
    );
    assert!(
        !message.contains("COSMOS_ENDPOINT"),
        "diff reads --endpoint only: {message}"
    );

    let rejecting = CosmosServer::answering(401);
    let endpoint = rejecting.endpoint();
    let out = cosmap_keyed(&["diff", ECOMMERCE, "--endpoint", &endpoint]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    let message = stderr(&out);
    assert!(
        message.starts_with(&format!("error: the key was rejected (401/403) by {endpoint}")),
        "{message}"
    );

    // Off loopback, a key is required: a usage error before anything is sent.
    let out = support::cosmap_without_leaking(&["diff", ECOMMERCE, "--endpoint", "https://example.invalid/"], &[], KEY);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
}

const TICKETING: &str = "tests/diff/ticketing-v1.json";
const CITY_KEY: &str = "tests/diff/ticketing-city-key.json";
const OPTIONAL_CITY: &str = "tests/diff/ticketing-optional-city.json";

/// `cosmap diff OLD NEW`: its exit code, its text's words and the one change at
/// `Event/Event.city`.
fn city_change(old: &str, new: &str) -> (Option<i32>, String, Value) {
    let text = cosmap(&["diff", old, new]);
    let out = cosmap(&["diff", old, new, "--format", "json"]);
    assert_eq!(out.status.code(), text.status.code(), "{}", stderr(&out));
    let diff = json(&out);
    let at_city: Vec<&Value> = diff["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["subject"]["documentType"] == "Event" && c["subject"]["path"] == serde_json::json!(["city"]))
        .collect();
    assert_eq!(at_city.len(), 1, "one change at Event.city: {diff:#}");
    // Words, not the wrapping of the 80-column text.
    let words = stdout(&text).split_whitespace().collect::<Vec<_>>().join(" ");
    (text.status.code(), words, at_city[0].clone())
}

#[test]
fn an_attribute_that_became_the_partition_key_is_said_so_never_removed() {
    let (code, text, change) = city_change(TICKETING, CITY_KEY);
    assert_eq!(code, Some(13), "the container's key changed: breaking for readers");
    assert_eq!(change["kind"], "becamePartitionKey");
    assert_eq!(change["class"], "inPlace");
    assert_eq!(change["key"], serde_json::json!(["/city", "/eventId"]));
    assert!(
        text.contains("Event/Event.city: became the partition key (/city, /eventId)"),
        "{text}"
    );
    assert!(!text.contains("property removed"), "{text}");
}

#[test]
fn a_partition_key_that_became_an_attribute_is_said_so_never_added() {
    let (code, text, change) = city_change(CITY_KEY, TICKETING);
    assert_eq!(code, Some(13));
    assert_eq!(change["kind"], "noLongerPartitionKey");
    assert_eq!(change["class"], "inPlace");
    assert!(
        text.contains("Event/Event.city: no longer the partition key (was /city, /eventId)"),
        "{text}"
    );
    assert!(!text.contains("property added"), "{text}");
}

#[test]
fn an_optional_attribute_that_became_the_partition_key_must_be_back_filled() {
    let (code, text, change) = city_change(OPTIONAL_CITY, CITY_KEY);
    assert_eq!(code, Some(13));
    assert_eq!(change["kind"], "becamePartitionKey");
    assert_eq!(change["wasOptional"], true);
    assert_eq!(change["class"], "breakingForReaders");
    assert!(text.contains("documents without it no longer deserialise"), "{text}");
}

const TICKETING_EXAMPLE: &str = "examples/ticketing/model.json";
/// The ticketing example with `register an attendee` gone, `ticket by code` filtering
/// on the holder too, and `tickets of a holder` added.
const TICKETING_CHANGED_API: &str = "tests/diff/ticketing-api-changed.json";

#[test]
fn generated_functions_added_removed_and_rebound_are_listed_and_break() {
    let out = cosmap(&["diff", TICKETING_EXAMPLE, TICKETING_CHANGED_API]);
    let text = unwrapped(&stdout(&out));
    assert_eq!(out.status.code(), Some(13), "{text}");
    assert!(text.contains("GENERATED DATA ACCESS (5)"), "{text}");
    assert!(
        text.contains("removed: method `register_an_attendee` (of `register an attendee`): breaking"),
        "{text}"
    );
    assert!(
        text.contains("changed: method `ticket_by_code` (of `ticket by code`): breaking"),
        "{text}"
    );
    assert!(text.contains("c.holderName = @holderName"), "{text}");
    assert!(
        text.contains("added: method `tickets_of_a_holder` (of `tickets of a holder`)"),
        "{text}"
    );
    assert!(text.contains("added: method `tickets_of_a_holder_page`"), "{text}");
    assert!(
        text.contains("unique `Attendee.email` changes hands: enforced by claims in `UniqueClaims`, taken by `AttendeeRepository`, `register_an_attendee`; now by claims in `UniqueClaims`, taken by `AttendeeRepository`"),
        "{text}"
    );

    let out = cosmap(&["diff", TICKETING_EXAMPLE, TICKETING_CHANGED_API, "--format", "json"]);
    let diff = json(&out);
    let api = &diff["generatedApi"];
    assert_eq!(api["breaking"], true, "{api:#}");
    assert_eq!(diff["worst"], "breakingForReaders", "{diff:#}");
    let names = |list: &str| -> Vec<String> {
        api[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["name"].as_str().or(i["item"]["name"].as_str()).unwrap().to_string())
            .collect()
    };
    assert_eq!(names("removed"), ["register_an_attendee"]);
    assert_eq!(names("changed"), ["ticket_by_code"]);
    assert_eq!(names("added"), ["tickets_of_a_holder", "tickets_of_a_holder_page"]);
    assert_eq!(api["enforcement"][0]["value"], "Attendee.email");

    // Back again: the method comes back (added), nothing is removed, the query changes back.
    let out = cosmap(&["diff", TICKETING_CHANGED_API, TICKETING_EXAMPLE]);
    let text = unwrapped(&stdout(&out));
    assert!(text.contains("added: method `register_an_attendee`"), "{text}");
    assert!(text.contains("removed: method `tickets_of_a_holder`"), "{text}");
    // Unchanged models: no section.
    let out = cosmap(&["diff", TICKETING_EXAMPLE, TICKETING_EXAMPLE]);
    assert!(!stdout(&out).contains("GENERATED DATA ACCESS"), "{}", stdout(&out));
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_unique_value_no_generated_code_enforces_any_more_is_said_so() {
    // Without its aggregate's members or patterns, an attendee's email is claimed by
    // the repository only; without the repository (the aggregate gone), by nothing.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("diff-enforcement");
    std::fs::create_dir_all(&dir).unwrap();
    let mut model: Value = serde_json::from_slice(&std::fs::read(repo().join(TICKETING_EXAMPLE)).unwrap()).unwrap();
    model.as_object_mut().unwrap().remove("$schema");
    let old = dir.join("old.json");
    std::fs::write(&old, model.to_string()).unwrap();
    let attendee = model["entities"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|e| e["name"] == "Attendee")
        .unwrap();
    attendee["attributes"][0]["unique"] = Value::Bool(false);
    let new = dir.join("new.json");
    std::fs::write(&new, model.to_string()).unwrap();
    let out = cosmap(&["diff", old.to_str().unwrap(), new.to_str().unwrap()]);
    let text = unwrapped(&stdout(&out));
    assert!(
        text.contains("unique `Attendee.email` changes hands: enforced by claims in `UniqueClaims`, taken by `AttendeeRepository`, `register_an_attendee`; now by nothing (no such unique value)"),
        "{text}"
    );
}
