//! `cosmap provision` as a user runs it, against a real Cosmos DB NoSQL API server
//! (`@vercel/cosmosdb-server`, started by the tests on loopback), checked through
//! the server's REST API rather than through cosmap.

mod support;

use std::process::Output;

use serde_json::{json, Value};
use support::{repo, scratch_file, CosmosServer};

/// A distinctive (fake, valid base64) key: it must never appear in any output.
const KEY: &str = "Q09TTUFQLVRFU1QtS0VZLTdmM2Etc2hvdWxkLW5ldmVyLWJlLXByaW50ZWQ=";
const MODEL: &str = "examples/ecommerce/model.json";

/// The e-commerce containers and their partition key paths (DESIGN.md's acceptance;
/// `PresentedProduct` by country first, since its reads by country would fan out over
/// the partitions of its storage after five years).
const CONTAINERS: [(&str, &[&str]); 6] = [
    ("Account", &["/accountId"]),
    ("Dictionary", &["/type"]),
    ("Item", &["/itemId"]),
    ("Order", &["/orderId"]),
    ("PresentedProduct", &["/countryId", "/productId"]),
    ("UniqueClaims", &["/claim"]),
];

/// Runs `cosmap` with `args` and `env`; the key must not appear in its output.
fn cosmap_with(args: &[&str], env: &[(&str, &str)]) -> Output {
    support::cosmap_without_leaking(args, env, KEY)
}

/// Flags, environment, and what the error must say.
type UsageCase<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);

fn cosmap(args: &[&str]) -> Output {
    cosmap_with(args, &[])
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn code(out: &Output) -> Option<i32> {
    out.status.code()
}

/// The e-commerce model with the Order aggregate's identity (its partition key)
/// renamed from `orderId` to `orderNumber`.
fn model_with_changed_partition_key() -> String {
    let model = std::fs::read_to_string(repo().join(MODEL)).expect("model");
    let changed = model.replace("\"orderId\"", "\"orderNumber\"");
    assert_ne!(model, changed);
    scratch_file("drift-model.json", &changed).display().to_string()
}

/// What the model asks of container `id`, from `cosmap model --format json` (the
/// logical model's documented contract): `(partitionKey, indexingPolicy, defaultTtl)`.
fn wanted(id: &str) -> (Value, Value, Value) {
    let out = cosmap(&["model", MODEL, "--format", "json"]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let model: Value = serde_json::from_slice(&out.stdout).expect("logical model JSON");
    let containers = model["containers"].as_array().expect("containers");
    let container = containers
        .iter()
        .find(|c| c["name"] == id)
        .expect("container in the model");
    (
        container["partitionKey"].clone(),
        container["indexingPolicy"].clone(),
        container["defaultTtl"].clone(),
    )
}

#[test]
fn provisions_the_six_containers_and_a_second_run_changes_nothing() {
    let server = CosmosServer::start();
    let endpoint = server.endpoint();

    let first = cosmap_with(
        &["provision", "--create-database", MODEL, "--endpoint", &endpoint],
        &[("COSMOS_KEY", KEY)],
    );
    assert_eq!(code(&first), Some(0), "{}{}", stdout(&first), stderr(&first));
    let text = stdout(&first);
    assert!(text.contains("created database `Ecommerce`"), "{text}");
    for (id, _) in CONTAINERS {
        assert!(text.contains(&format!("created container `{id}`")), "{text}");
    }

    let ids: Vec<&str> = CONTAINERS.iter().map(|(id, _)| *id).collect();
    assert_eq!(server.container_ids("Ecommerce"), ids);
    for (id, paths) in CONTAINERS {
        let (status, container) = server.get(&format!("/dbs/Ecommerce/colls/{id}"));
        assert_eq!(status, 200, "{id}: {container}");
        let kind = if paths.len() > 1 { "MultiHash" } else { "Hash" };
        assert_eq!(
            container["partitionKey"],
            json!({"paths": paths, "kind": kind, "version": 2}),
            "{id}"
        );
        let (partition_key, indexing_policy, default_ttl) = wanted(id);
        assert_eq!(container["partitionKey"], partition_key, "{id}");
        assert_eq!(container["indexingPolicy"], indexing_policy, "{id}");
        assert_eq!(container["defaultTtl"], default_ttl, "{id}");
    }
    let before = server.fingerprint("Ecommerce");

    // The database exists now: no --create-database needed.
    let second = cosmap(&["provision", MODEL, "--endpoint", &endpoint, "--key", KEY, "--verbose"]);
    assert_eq!(code(&second), Some(0), "{}{}", stdout(&second), stderr(&second));
    let text = stdout(&second);
    assert_eq!(text.matches(" unchanged ").count(), 6, "{text}");
    assert!(text.contains("Nothing to do"), "{text}");
    let trace = stderr(&second);
    assert!(trace.contains("trace: request: read container `Order`: ok"), "{trace}");
    assert!(
        !trace.contains("request: create") && !trace.contains("request: replace"),
        "the second run sent a write:\n{trace}"
    );
    assert_eq!(
        server.fingerprint("Ecommerce"),
        before,
        "the second run changed the server"
    );

    // A dry run into another database changes nothing either.
    let dry = cosmap(&[
        "provision",
        "--create-database",
        MODEL,
        "--endpoint",
        &endpoint,
        "--database",
        "Dry",
        "--dry-run",
    ]);
    assert_eq!(code(&dry), Some(0), "{}", stderr(&dry));
    assert!(stdout(&dry).contains("Dry run: nothing was changed (7 changes would be sent)"));
    assert_eq!(server.get("/dbs/Dry").0, 404);
}

/// `--index-all` means the same on `provision` as on `generate`: the containers
/// provisioned carry the indexing policy `generate --index-all` writes.
#[test]
fn index_all_provisions_what_generate_index_all_writes() {
    let out_dir = scratch_file("index-all-placeholder", "").with_file_name("index-all-generated");
    let generated = cosmap(&[
        "generate",
        MODEL,
        "--out",
        &out_dir.display().to_string(),
        "--index-all",
    ]);
    assert_eq!(code(&generated), Some(0), "{}", stderr(&generated));
    let definitions: Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("containers.json")).expect("containers.json"))
            .expect("JSON");
    let definitions = definitions.as_array().expect("a list of containers");

    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    let out = cosmap(&[
        "provision",
        "--create-database",
        MODEL,
        "--endpoint",
        &endpoint,
        "--database",
        "All",
        "--index-all",
    ]);
    assert_eq!(code(&out), Some(0), "{}{}", stdout(&out), stderr(&out));
    assert_eq!(definitions.len(), CONTAINERS.len());
    for definition in definitions {
        let id = definition["id"].as_str().expect("id");
        let (status, container) = server.get(&format!("/dbs/All/colls/{id}"));
        assert_eq!(status, 200, "{id}: {container}");
        assert_eq!(container["indexingPolicy"], definition["indexingPolicy"], "{id}");
        assert_eq!(
            definition["indexingPolicy"]["includedPaths"],
            json!([{"path": "/*"}]),
            "{id}"
        );
    }
    // Without the flag the model's narrowed policies differ: that is a difference to report.
    let narrowed = cosmap(&[
        "provision",
        "--create-database",
        MODEL,
        "--endpoint",
        &endpoint,
        "--database",
        "All",
        "--dry-run",
    ]);
    assert_eq!(code(&narrowed), Some(0), "{}", stderr(&narrowed));
    assert!(stdout(&narrowed).contains("differs"), "{}", stdout(&narrowed));
}

#[test]
fn a_changed_partition_key_is_drift_and_changes_nothing() {
    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    let provisioned = cosmap(&["provision", "--create-database", MODEL, "--endpoint", &endpoint]);
    assert_eq!(code(&provisioned), Some(0), "{}", stderr(&provisioned));
    let before = server.fingerprint("Ecommerce");

    let drift_model = model_with_changed_partition_key();
    let out = cosmap(&[
        "provision",
        "--create-database",
        &drift_model,
        "--endpoint",
        &endpoint,
        "--key",
        KEY,
    ]);
    assert_eq!(code(&out), Some(3), "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("Order             DRIFT"), "{}", stdout(&out));
    let message = stderr(&out);
    for expected in [
        "error: container `Order` cannot be changed in place",
        r#"partition key paths are ["/orderId"] on the server, the model wants ["/orderNumber"]"#,
        "nothing was changed",
        "new container name",
        "migrate the data",
    ] {
        assert!(message.contains(expected), "missing {expected:?} in:\n{message}");
    }
    assert_eq!(server.fingerprint("Ecommerce"), before, "drift changed the server");

    // Nothing at all: not even the containers that would be created. `Partial`
    // holds only the old Order container; the plan has 4 creations and a drift.
    assert_eq!(server.post("/dbs", &json!({"id": "Partial"})).0, 201);
    let order = json!({"id": "Order", "partitionKey": {"paths": ["/orderId"], "kind": "Hash", "version": 2}});
    assert_eq!(server.post("/dbs/Partial/colls", &order).0, 201);
    let before = server.fingerprint("Partial");
    let out = cosmap(&[
        "provision",
        "--create-database",
        &drift_model,
        "--endpoint",
        &endpoint,
        "--database",
        "Partial",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), Some(3), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let actions: Vec<(&str, &str)> = report["plan"]["containers"]
        .as_array()
        .expect("containers")
        .iter()
        .map(|c| (c["id"].as_str().unwrap_or(""), c["action"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(
        actions,
        [
            ("Account", "create"),
            ("Dictionary", "create"),
            ("Item", "create"),
            ("Order", "drift"),
            ("PresentedProduct", "create"),
            ("UniqueClaims", "create"),
        ]
    );
    assert_eq!(report["applied"], json!([]));
    assert_eq!(server.container_ids("Partial"), ["Order"]);
    assert_eq!(server.fingerprint("Partial"), before);
}

#[test]
fn update_indexing_replaces_only_the_indexing_policy() {
    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    assert_eq!(server.post("/dbs", &json!({"id": "Idx"})).0, 201);
    let account = json!({
        "id": "Account",
        "partitionKey": {"paths": ["/accountId"], "kind": "Hash", "version": 2},
        "indexingPolicy": {
            "indexingMode": "consistent", "automatic": true,
            "includedPaths": [{"path": "/*"}],
            "excludedPaths": [{"path": "/notes/*"}, {"path": "/\"_etag\"/?"}]
        }
    });
    assert_eq!(server.post("/dbs/Idx/colls", &account).0, 201);

    let out = cosmap(&[
        "provision",
        "--create-database",
        MODEL,
        "--endpoint",
        &endpoint,
        "--database",
        "Idx",
    ]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Account           differs"), "{text}");
    assert!(text.contains("pass --update-indexing"), "{text}");
    let (_, kept) = server.get("/dbs/Idx/colls/Account");
    assert_eq!(
        kept["indexingPolicy"], account["indexingPolicy"],
        "changed without --update-indexing"
    );
    assert_eq!(server.container_ids("Idx").len(), 6);

    let out = cosmap(&[
        "provision",
        "--create-database",
        MODEL,
        "--endpoint",
        &endpoint,
        "--database",
        "Idx",
        "--update-indexing",
    ]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("replaced the indexing policy of `Account`"),
        "{}",
        stdout(&out)
    );
    let (_, replaced) = server.get("/dbs/Idx/colls/Account");
    assert_eq!(replaced["indexingPolicy"], wanted("Account").1);
    assert_eq!(replaced["partitionKey"], account["partitionKey"]);
    assert_eq!(replaced["_rid"], kept["_rid"], "the container was recreated");

    let again = cosmap(&[
        "provision",
        "--create-database",
        MODEL,
        "--endpoint",
        &endpoint,
        "--database",
        "Idx",
        "--update-indexing",
    ]);
    assert_eq!(code(&again), Some(0));
    assert!(stdout(&again).contains("Nothing to do"), "{}", stdout(&again));
}

#[test]
fn a_changed_default_ttl_is_changed_in_place_and_said_so() {
    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    assert_eq!(server.post("/dbs", &json!({"id": "Ttl"})).0, 201);
    let (partition_key, indexing_policy, default_ttl) = wanted("Order");
    assert_eq!(default_ttl, json!(-1), "the model keeps Order's TTL on");
    let order = json!({
        "id": "Order", "partitionKey": partition_key, "indexingPolicy": indexing_policy, "defaultTtl": 3600
    });
    assert_eq!(server.post("/dbs/Ttl/colls", &order).0, 201);
    let args = ["provision", MODEL, "--endpoint", &endpoint, "--database", "Ttl"];

    let dry = cosmap(&[&args[..], &["--dry-run", "--format", "json"]].concat());
    assert_eq!(code(&dry), Some(0), "{}", stderr(&dry));
    let report: Value = serde_json::from_slice(&dry.stdout).expect("JSON");
    let planned = report["plan"]["containers"].as_array().expect("containers");
    let order_plan = planned.iter().find(|c| c["id"] == "Order").expect("Order");
    assert_eq!(
        order_plan["differences"],
        json!([{"property": "defaultTtl", "current": 3600, "wanted": -1, "inPlace": true, "handling": "changedInPlace"}])
    );

    let out = cosmap(&args);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Default TTLs that differ (`Order`) are changed in place"),
        "{text}"
    );
    assert!(text.contains("changed the default TTL of `Order` in place"), "{text}");
    let (_, changed) = server.get("/dbs/Ttl/colls/Order");
    assert_eq!(changed["defaultTtl"], json!(-1));
    assert_eq!(changed["partitionKey"], order["partitionKey"]);

    let again = cosmap(&args);
    assert_eq!(code(&again), Some(0), "{}", stderr(&again));
    assert!(stdout(&again).contains("Nothing to do"), "{}", stdout(&again));
}

#[test]
fn throughput_flags_are_sent_with_the_creations() {
    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    for (database, flags) in [("Manual", ["--throughput", "400"]), ("Auto", ["--autoscale", "4000"])] {
        let mut args = vec![
            "provision",
            "--create-database",
            MODEL,
            "--endpoint",
            &endpoint,
            "--database",
            database,
        ];
        args.extend(flags);
        let out = cosmap(&args);
        assert_eq!(code(&out), Some(0), "{}", stderr(&out));
        assert_eq!(server.container_ids(database).len(), 6);
    }
}

#[test]
fn a_stopped_server_is_reported_in_one_line_with_a_hint() {
    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    drop(server);
    for verbose in [false, true] {
        let mut args = vec![
            "provision",
            "--create-database",
            MODEL,
            "--endpoint",
            &endpoint,
            "--key",
            KEY,
        ];
        if verbose {
            args.push("--verbose");
        }
        let out = cosmap(&args);
        assert_eq!(code(&out), Some(1), "{}", stderr(&out));
        assert!(out.stdout.is_empty(), "{}", stdout(&out));
        let errors: Vec<String> = stderr(&out)
            .lines()
            .filter(|l| !l.starts_with("trace: "))
            .map(String::from)
            .collect();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!(errors[0], format!("error: cannot reach {endpoint}: connection refused"));
        assert!(
            errors[1].starts_with("  hint: is the Cosmos DB emulator"),
            "{}",
            errors[1]
        );
    }
}

#[test]
fn a_rejected_key_and_endless_throttling_are_clear_failures() {
    let rejecting = CosmosServer::answering(401);
    let endpoint = rejecting.endpoint();
    let out = cosmap(&[
        "provision",
        "--create-database",
        MODEL,
        "--endpoint",
        &endpoint,
        "--key",
        KEY,
    ]);
    assert_eq!(code(&out), Some(1), "{}", stderr(&out));
    let message = stderr(&out);
    assert!(
        message.starts_with(&format!("error: the key was rejected (401/403) by {endpoint}")),
        "{message}"
    );
    assert!(message.contains("hint: check COSMOS_KEY"), "{message}");

    // 429 on every attempt: 5 attempts, backing off 0.25 + 0.5 + 1 + 2 s, then a message.
    let throttling = CosmosServer::answering(429);
    let endpoint = throttling.endpoint();
    let started = std::time::Instant::now();
    let out = cosmap(&[
        "provision",
        "--create-database",
        MODEL,
        "--endpoint",
        &endpoint,
        "--verbose",
    ]);
    let elapsed = started.elapsed();
    assert_eq!(code(&out), Some(1), "{}", stderr(&out));
    let message = stderr(&out);
    assert_eq!(message.matches("429 (throttled) (attempt").count(), 4, "{message}");
    assert!(
        message.contains(&format!(
            "error: could not read the account: {endpoint} answered 429 (throttled) on each of 5 attempts"
        )),
        "{message}"
    );
    assert!(
        elapsed.as_secs_f32() > 3.5 && elapsed.as_secs_f32() < 20.0,
        "{elapsed:?}"
    );
}

#[test]
fn the_key_never_appears_and_is_required_off_loopback() {
    // Help with COSMOS_KEY set names the variable, not its value.
    let help = cosmap_with(&["provision", "--create-database", "--help"], &[("COSMOS_KEY", KEY)]);
    assert_eq!(code(&help), Some(0));
    assert!(stdout(&help).contains("[env: COSMOS_KEY]"), "{}", stdout(&help));
    assert!(stdout(&help).contains("3  drift refused"), "{}", stdout(&help));

    // Usage errors: refused before anything is contacted (exit 2).
    let remote = "https://cosmap-test.invalid:443/";
    let cases: [UsageCase; 6] = [
        (
            &["--endpoint", remote],
            &[],
            "no key for `https://cosmap-test.invalid/`",
        ),
        (
            &["--endpoint", "http://cosmap-test.invalid/"],
            &[("COSMOS_KEY", KEY)],
            "plain http://",
        ),
        (
            &[
                "--endpoint",
                remote,
                "--key",
                "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==",
            ],
            &[],
            "well-known key is only used for loopback",
        ),
        (
            &["--endpoint", remote, "--key", "NOT-BASE64!Q09TTUFQLVRFU1Q"],
            &[],
            "the key is not a Cosmos DB account key",
        ),
        (&["--throughput", "50"], &[], "manual throughput is at least 400"),
        (
            &["--throughput", "400", "--autoscale", "4000"],
            &[],
            "cannot be used with",
        ),
    ];
    for (flags, env, expected) in cases {
        let mut args = vec!["provision", "--create-database", MODEL];
        args.extend(flags);
        let out = cosmap_with(&args, env);
        assert_eq!(code(&out), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(expected), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("NOT-BASE64"), "the bad key was echoed");
    }

    // A model that does not validate: exit 2, as for `cosmap check`.
    let out = cosmap(&["provision", "--create-database", "tests/bad-models/empty.json"]);
    assert_eq!(code(&out), Some(2), "{}", stderr(&out));

    // Success, JSON and traces with the key from the environment.
    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    let out = cosmap_with(
        &["provision", "--create-database", MODEL, "--format", "json", "--verbose"],
        &[("COSMOS_ENDPOINT", &endpoint), ("COSMOS_KEY", KEY)],
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("trace: key: given (COSMOS_KEY or --key; not shown)"));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["applied"].as_array().map(Vec::len), Some(7));
    assert_eq!(report["plan"]["endpoint"], json!(endpoint));
}

/// A hierarchical key (`help-desk`: tickets by tenant, then ticket) is created as
/// Cosmos DB's `MultiHash` with both paths, and a second run finds no drift.
#[test]
fn a_hierarchical_key_is_provisioned_as_multi_hash_and_a_second_run_changes_nothing() {
    let model = "examples/help-desk/model.json";
    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    let first = cosmap_with(
        &["provision", "--create-database", model, "--endpoint", &endpoint],
        &[("COSMOS_KEY", KEY)],
    );
    assert_eq!(code(&first), Some(0), "{}{}", stdout(&first), stderr(&first));
    let (status, container) = server.get("/dbs/HelpDesk/colls/Ticket");
    assert_eq!(status, 200, "{container}");
    assert_eq!(
        container["partitionKey"],
        json!({"paths": ["/tenantId", "/ticketId"], "kind": "MultiHash", "version": 2})
    );
    let before = server.fingerprint("HelpDesk");
    let second = cosmap_with(
        &["provision", "--create-database", model, "--endpoint", &endpoint],
        &[("COSMOS_KEY", KEY)],
    );
    assert_eq!(code(&second), Some(0), "{}{}", stdout(&second), stderr(&second));
    assert!(stdout(&second).contains("Nothing to do"), "{}", stdout(&second));
    assert_eq!(server.fingerprint("HelpDesk"), before);
}

#[test]
fn a_missing_database_is_an_error_naming_it_and_the_flag_and_nothing_is_created() {
    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    for extra in [&[][..], &["--dry-run"][..], &["--format", "json"][..]] {
        let mut args = vec!["provision", MODEL, "--endpoint", &endpoint, "--database", "Ecomerce"];
        args.extend_from_slice(extra);
        let out = cosmap(&args);
        let err = stderr(&out);
        assert_eq!(code(&out), Some(2), "{extra:?}: {err}");
        assert!(
            err.contains("error: the database `Ecomerce` does not exist at") && err.contains("nothing was created"),
            "{err}"
        );
        assert!(err.contains("hint: pass --create-database to create it"), "{err}");
        if extra == ["--format", "json"] {
            let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
            assert_eq!(report["applied"], json!([]), "{report}");
            assert_eq!(report["error"]["class"], "usage", "{report}");
        } else {
            assert!(
                stdout(&out).contains("MISSING (created only with --create-database)"),
                "{}",
                stdout(&out)
            );
        }
    }
    assert_eq!(server.get("/dbs/Ecomerce").0, 404, "nothing created");
    assert_eq!(server.get("/dbs").1["Databases"], json!([]));
}

#[test]
fn verify_says_left_in_place_only_for_a_database_it_created() {
    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    drop(server);
    let out = cosmap(&["verify", MODEL, "--endpoint", &endpoint]);
    let err = stderr(&out);
    assert_eq!(code(&out), Some(1), "{err}");
    assert!(err.contains("cannot reach"), "{err}");
    assert!(
        !err.contains("left in place"),
        "nothing was created, nothing is left: {err}"
    );
}
