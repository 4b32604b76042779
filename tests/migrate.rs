//! `cosmap migrate` as a user runs it: the plan of e-commerce v1 → v2 (`--dry-run`, text
//! and JSON, no connection made), a migration it cannot make refused with each change
//! named, and a key given by flag (or hidden in the endpoint) never printed. Against the
//! local server (`tests/support`): a missing database named, never created; a failure
//! midway reported with what was done before it: the lease read, the server's missing
//! change feed said in one line. The run itself is tested on the SDK's in-memory engine
//! in `crates/cosmap-migrate/tests/` (the local server serves no change feed: its
//! partition key ranges do not read), and rehearsed there through `--rehearse`.

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

mod support;

/// A distinctive (fake, valid base64) key: it must never appear in any output.
const KEY: &str = "Q09TTUFQLU1JR1JBVEUtS0VZLW5ldmVyLXByaW50ZWQ=";

#[test]
fn a_missing_database_is_an_error_naming_it_and_the_flag_and_nothing_is_created() {
    let server = support::CosmosServer::start();
    let endpoint = server.endpoint();
    for format in ["text", "json"] {
        let out = support::cosmap_without_leaking(
            &[
                "migrate",
                V1,
                V2,
                "--endpoint",
                &endpoint,
                "--database",
                "Ecomerce",
                "--format",
                format,
            ],
            &[("COSMOS_KEY", KEY)],
            KEY,
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("the database `Ecomerce` does not exist") && err.contains("--create-database"),
            "{err}"
        );
        if format == "json" {
            let report: Value = serde_json::from_slice(&out.stdout).expect("JSON on failure too");
            assert!(
                report["error"]["message"].as_str().unwrap().contains("`Ecomerce`"),
                "{report}"
            );
            assert_eq!(report["report"]["steps"], serde_json::json!([]), "{report}");
        }
    }
    assert_eq!(server.get("/dbs/Ecomerce").0, 404, "nothing created");
    assert_eq!(server.get("/dbs").1["Databases"], serde_json::json!([]));
}

/// The local server answers 500 when a missing document is read (the lease of the
/// copy step): the run stops there, after the container step made the copy's
/// container, and says so in text and JSON, and that a rerun resumes.
#[test]
fn a_failure_midway_reports_what_was_done_before_it_in_text_and_json() {
    let server = support::CosmosServer::start();
    let endpoint = server.endpoint();
    let provisioned = cosmap(&["provision", V1, "--endpoint", &endpoint, "--create-database"]);
    assert_eq!(provisioned.status.code(), Some(0), "{}", stderr(&provisioned));

    let out = cosmap(&["migrate", V1, V2, "--endpoint", &endpoint]);
    let (text, err) = (stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(1), "{text}{err}");
    assert!(
        text.contains("create container `Item-itemCode` (/itemCode)\n    0 read, 0 migrated, 1 written"),
        "{text}"
    );
    assert!(
        text.contains("failed after what is listed above, which is kept"),
        "{text}"
    );
    // The lease is read (by a query: the server answers a point read of a missing
    // document with 500); what stops the step is the change feed the server lacks,
    // said in one line, without a hint about provisioning.
    assert!(!err.contains("could not read lease"), "{err}");
    assert!(
        err.contains(&format!(
            "error: {endpoint} does not serve a change feed (its partition key ranges do not read), which `cosmap migrate` needs"
        )),
        "{err}"
    );
    assert!(err.contains("or rehearse it with `--rehearse`"), "{err}");
    assert!(!err.contains("provisioning"), "{err}");
    assert!(
        err.contains("running `cosmap migrate` again resumes each step from its lease"),
        "{err}"
    );
    assert_eq!(server.get("/dbs/Ecommerce/colls/Item-itemCode").0, 200);

    let out = cosmap(&["migrate", V1, V2, "--endpoint", &endpoint, "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON on failure too");
    let steps = report["report"]["steps"].as_array().expect("the steps run");
    assert_eq!(steps.len(), 2, "{report}");
    assert_eq!(steps[0]["written"], 0, "the container exists now: {report}");
    assert!(
        report["report"]["failed"]
            .as_str()
            .unwrap()
            .contains("does not serve a change feed"),
        "{report}"
    );
    assert!(
        report["error"]["message"].as_str().unwrap().contains("resumes"),
        "{report}"
    );
}

#[test]
fn a_key_in_the_endpoints_path_or_query_is_never_echoed() {
    for endpoint in [
        format!("https://127.0.0.1:9/{KEY}"),
        format!("https://127.0.0.1:9/?key={KEY}"),
        format!("127.0.0.1:9/{KEY}"),
    ] {
        for args in [
            vec!["migrate", V1, V2, "--endpoint", &endpoint],
            vec!["provision", V1, "--endpoint", &endpoint],
            vec!["diff", V1, V2, "--endpoint", &endpoint],
            vec!["verify", V1, "--endpoint", &endpoint],
        ] {
            // Fails if the key (or its first half) appears anywhere in the output.
            let out = support::cosmap_without_leaking(&args, &[], &KEY[..20]);
            assert_ne!(out.status.code(), Some(0), "{args:?}");
        }
    }
}

#[test]
fn a_changed_default_ttl_points_to_provision_which_changes_it_in_place() {
    let out = cosmap(&["migrate", V1, "tests/migrate/ecommerce-ttl.json", "--dry-run"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.contains("Order (ttlChanged): nothing to migrate — applied in place by `cosmap provision` (it changes a default TTL on every run; no document moves)"),
        "{text}"
    );
    assert!(!text.contains("--update-indexing"), "{text}");
}

const TICKETING_V1: &str = "tests/migrate/ticketing-v1.json";
const TICKETING_V2: &str = "tests/migrate/ticketing-v2.json";

#[test]
fn the_ticketing_change_plans_from_the_roots_id_and_rehearses_on_the_in_memory_engine() {
    // A required attribute with a default, a value made unique, and a root moved from
    // its event's key to its own identity, which old documents hold as their `id`.
    let dry = cosmap(&["migrate", TICKETING_V1, TICKETING_V2, "--dry-run"]);
    let text = stdout(&dry);
    assert_eq!(dry.status.code(), Some(0), "{text}{}", stderr(&dry));
    assert!(
        text.contains("copy every document of `CheckIn` (/eventId) into `CheckIn-checkInId` (/checkInId, from `id`)"),
        "{text}"
    );

    let out = cosmap(&["migrate", TICKETING_V1, TICKETING_V2, "--rehearse"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    for expected in [
        "Rehearsal on the in-memory engine: 9 sample documents of the old model written",
        "  CheckIn/CheckIn: 3",
        "  Ticket/Ticket: 3",
        "write `\"EUR\"` into `currency` of every `event` document that lacks it\n    6 read, 3 migrated",
        "claim the `code` of every `ticket` document of `Ticket` (a duplicate stops the step)\n    3 read, 3 migrated",
        "After it: 12 documents in the new model's containers, 0 the new types would not read",
        "5 access patterns: 5 passed, 0 failed.",
        "Rehearsal passed",
    ] {
        assert!(text.contains(expected), "no {expected:?} in:\n{text}");
    }

    let out = cosmap(&["migrate", TICKETING_V1, TICKETING_V2, "--rehearse", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let rehearsal = &json["rehearsal"];
    assert_eq!(rehearsal["written"].as_array().map(Vec::len), Some(3));
    assert_eq!(rehearsal["unreadable"], serde_json::json!([]));
    assert_eq!(rehearsal["verification"]["summary"]["failed"], 0);
    assert_eq!(rehearsal["verification"]["samples"]["stored"], true);
    assert!(rehearsal["migration"].get("failed").is_none(), "{rehearsal:#}");
}

#[test]
fn a_rehearsal_and_a_dry_run_do_not_go_together() {
    let out = cosmap(&["migrate", TICKETING_V1, TICKETING_V2, "--rehearse", "--dry-run"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
