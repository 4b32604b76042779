//! `cosmap provision` when the server goes away midway: what was already made is
//! printed (as text, and in `--format json` too), the error says a rerun converges,
//! and a rerun does converge. Also the outcome line after differences it leaves.

mod support;

use std::process::Output;

use serde_json::Value;
use support::{scratch_file, CosmosServer};

const MODEL: &str = "examples/ecommerce/model.json";
const KEY: &str = "Q09TTUFQLVRFU1QtS0VZLTdmM2Etc2hvdWxkLW5ldmVyLWJlLXByaW50ZWQ=";
const CONTAINERS: [&str; 6] = [
    "Account",
    "Dictionary",
    "Item",
    "Order",
    "PresentedProduct",
    "UniqueClaims",
];

fn cosmap(args: &[&str]) -> Output {
    support::cosmap_without_leaking(args, &[], KEY)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_provision_interrupted_midway_prints_what_it_made_and_a_rerun_converges() {
    let revive = scratch_file("revive-text", "");
    std::fs::remove_file(&revive).unwrap();
    let server = CosmosServer::interrupting(2, &revive);
    let endpoint = server.endpoint();

    let first = cosmap(&[
        "provision",
        "--create-database",
        MODEL,
        "--endpoint",
        &endpoint,
        "--key",
        KEY,
    ]);
    let (out, err) = (text(&first.stdout), text(&first.stderr));
    assert_eq!(first.status.code(), Some(1), "{out}{err}");
    // Printed as they were made, before the failure.
    for made in [
        "created database `Ecommerce`",
        "created container `Account`",
        "created container `Dictionary`",
    ] {
        assert!(out.contains(made), "{out}");
    }
    assert!(!out.contains("created container `Item`"), "{out}");
    assert!(!out.contains("nothing was changed"), "{out}");
    assert!(err.contains("3 changes were already made before this: created database `Ecommerce`; created container `Account`; created container `Dictionary`"), "{err}");
    assert!(err.contains("running provisioning again converges"), "{err}");

    std::fs::write(&revive, "").unwrap();
    assert_eq!(server.container_ids("Ecommerce"), ["Account", "Dictionary"]);
    let second = cosmap(&[
        "provision",
        "--create-database",
        MODEL,
        "--endpoint",
        &endpoint,
        "--key",
        KEY,
    ]);
    let out = text(&second.stdout);
    assert_eq!(second.status.code(), Some(0), "{out}{}", text(&second.stderr));
    assert!(
        out.contains("created container `Item`") && !out.contains("created container `Account`"),
        "{out}"
    );
    assert_eq!(server.container_ids("Ecommerce"), CONTAINERS);
    let third = cosmap(&[
        "provision",
        "--create-database",
        MODEL,
        "--endpoint",
        &endpoint,
        "--key",
        KEY,
    ]);
    assert!(text(&third.stdout).contains("Nothing to do"), "{}", text(&third.stdout));
}

#[test]
fn json_lists_the_changes_made_before_a_failure() {
    let revive = scratch_file("revive-json", "");
    std::fs::remove_file(&revive).unwrap();
    let server = CosmosServer::interrupting(1, &revive);
    let endpoint = server.endpoint();
    let out = cosmap(&[
        "provision",
        "--create-database",
        MODEL,
        "--endpoint",
        &endpoint,
        "--key",
        KEY,
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report on failure too");
    let applied: Vec<(&str, &str)> = report["applied"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["action"].as_str().unwrap(), a["id"].as_str().unwrap()))
        .collect();
    assert_eq!(
        applied,
        [("createdDatabase", "Ecommerce"), ("createdContainer", "Account")]
    );
    assert_eq!(report["error"]["class"], "failure", "{report}");
    assert!(
        report["error"]["hint"].as_str().unwrap().contains("converges"),
        "{report}"
    );
}

#[test]
fn differences_left_alone_are_not_nothing_to_do() {
    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    let first = cosmap(&[
        "provision",
        "--create-database",
        MODEL,
        "--endpoint",
        &endpoint,
        "--key",
        KEY,
    ]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    // The same model with a read that filters accounts on `fullName`: `Account`'s
    // indexing policy differs, and without `--update-indexing` it is listed, left alone.
    // (A default TTL that differs is changed in place: see tests/provision.rs.)
    let model = std::fs::read_to_string(support::repo().join(MODEL)).unwrap();
    let mut value: Value = serde_json::from_str(&model).unwrap();
    value["accessPatterns"].as_array_mut().unwrap().push(serde_json::json!({
        "name": "accounts by full name", "kind": "read", "start": "Account",
        "filter": ["fullName"], "perSecond": 0.01
    }));
    let changed = scratch_file("indexing-model.json", &value.to_string());
    let second = cosmap(&[
        "provision",
        "--create-database",
        changed.to_str().unwrap(),
        "--endpoint",
        &endpoint,
        "--key",
        KEY,
    ]);
    let out = text(&second.stdout);
    assert_eq!(second.status.code(), Some(0), "{out}{}", text(&second.stderr));
    assert!(out.contains("differs"), "{out}");
    assert!(!out.contains("Nothing to do"), "{out}");
    assert!(
        out.contains("Nothing was changed: the differences listed above are left as they are"),
        "{out}"
    );
}

#[test]
fn a_200_with_an_unparsable_body_is_a_bad_answer_sent_once() {
    // Every request answered 200 with a body that is no Cosmos DB resource: the SDK
    // calls that its own 500/20020; it is reported as the bad answer it is, at once.
    let server = CosmosServer::answering(200);
    let endpoint = server.endpoint();
    let started = std::time::Instant::now();
    let out = cosmap(&[
        "provision",
        "--create-database",
        MODEL,
        "--endpoint",
        &endpoint,
        "--key",
        KEY,
        "--verbose",
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("error: could not read the account: the answer from {endpoint} is not a Cosmos DB resource (its body cannot be read")),
        "{err}"
    );
    assert!(!err.contains("on each of") && !err.contains("retrying"), "{err}");
    assert!(started.elapsed().as_secs() < 3, "no retries: {:?}", started.elapsed());
}
