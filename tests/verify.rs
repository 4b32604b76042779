//! `cosmap verify` as a user runs it: on the in-memory engine (the default), and with
//! `--endpoint` on the local `@vercel/cosmosdb-server` (started on loopback by
//! `support`), whose state is then read through its REST API, not through cosmap.

mod support;

use std::process::Output;

use cosmap_mapper::operations::Action;
use cosmap_verify::{verify, Engine, Report, RequestOutcome, Verdict};
use serde_json::Value;
use support::{repo, CosmosServer};

const MODEL: &str = "examples/ecommerce/model.json";
/// The e-commerce pattern that reads an embedded address by its account's id: a point read.
const ADDRESS_PATTERN: &str = "address by account id and address type";

/// A distinctive (fake, valid base64) key: it must never appear in any output.
const KEY: &str = "Q09TTUFQLVZFUklGWS1LRVktbmV2ZXItdG8tYmUtcHJpbnRlZA==";

fn cosmap(args: &[&str]) -> Output {
    cosmap_with_key(args, None)
}

fn cosmap_with_key(args: &[&str], key: Option<&str>) -> Output {
    let env: Vec<(&str, &str)> = key.map(|k| ("COSMOS_KEY", k)).into_iter().collect();
    support::cosmap_without_leaking(args, &env, KEY)
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The table row of `pattern` (its first request), split on whitespace runs.
fn row<'a>(text: &'a str, pattern: &str) -> Vec<&'a str> {
    let line = text
        .lines()
        .find(|l| l.starts_with(pattern) && l[pattern.len()..].starts_with("  "))
        .unwrap_or_else(|| panic!("no row for `{pattern}` in:\n{text}"));
    line[pattern.len()..].split_whitespace().collect()
}

#[test]
fn ecommerce_verifies_in_memory() {
    let out = cosmap(&["verify", MODEL]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(text.contains("on the in-memory Cosmos DB engine"), "{text}");
    assert_eq!(
        row(&text, "orders of an account"),
        ["singlePartitionQuery", "Account", "10", "10", "pass"]
    );
    assert_eq!(row(&text, ADDRESS_PATTERN), ["pointRead", "Account", "1", "1", "pass"]);
    // Every pattern (and every further request) passes.
    let results: Vec<&str> = text
        .lines()
        .filter(|l| l.ends_with("  pass") || l.ends_with("  FAIL") || l.ends_with("  ERROR"))
        .collect();
    assert_eq!(results.len(), 18, "{text}");
    assert!(results.iter().all(|l| l.ends_with("  pass")), "{text}");
    assert!(text.contains("17 access patterns: 17 passed, 0 failed."), "{text}");
}

#[test]
fn iot_fleet_and_publishing_verify_in_memory() {
    for name in ["iot-fleet", "publishing"] {
        let out = cosmap(&["verify", &format!("examples/{name}/model.json")]);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(0), "{name}: {text}{}", stderr(&out));
        assert!(text.contains("access patterns: 5 passed, 0 failed."), "{text}");
    }
}

#[test]
fn the_new_examples_verify_in_memory() {
    for (name, patterns) in [
        ("cosmic-works", 12),
        ("newsfeed", 5),
        ("library", 11),
        ("help-desk", 10),
    ] {
        let out = cosmap(&["verify", &format!("examples/{name}/model.json")]);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(0), "{name}: {text}{}", stderr(&out));
        assert!(
            text.contains(&format!("{patterns} access patterns: {patterns} passed, 0 failed.")),
            "{text}"
        );
    }
}

#[test]
fn the_json_report_is_the_documented_shape() {
    let out = cosmap(&["verify", "examples/publishing/model.json", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(report["formatVersion"], 1);
    assert_eq!(report["model"], "Publishing");
    assert_eq!(report["engine"]["kind"], "inMemory");
    assert_eq!(report["engine"]["database"], "Publishing-verify");
    assert_eq!(report["summary"]["patterns"], 5);
    assert_eq!(report["summary"]["failed"], 0);
    let article = report["patterns"]
        .as_array()
        .and_then(|list| list.iter().find(|p| p["pattern"] == "article by id"))
        .expect("article by id");
    assert_eq!(article["operation"], "pointRead");
    assert_eq!(article["passed"], true);
    let read = &article["requests"][0];
    assert_eq!(read["verdict"], "pass");
    assert_eq!(read["copy"], false);
    assert_eq!(read["returned"], read["expected"]);
    assert!(read["id"].is_string() && read["partitionKey"].is_string(), "{read}");
}

#[test]
fn invalid_models_and_bad_endpoints_exit_2_without_running() {
    let out = cosmap(&["verify", "tests/bad-models/access-pattern-unknown-start.json"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    for endpoint in ["http://acct.documents.azure.com/", "not a url"] {
        let out = cosmap(&["verify", MODEL, "--endpoint", endpoint]);
        assert_eq!(out.status.code(), Some(2), "{endpoint}: {}", stderr(&out));
        assert!(stdout(&out).is_empty());
    }
    let out = cosmap(&["verify", MODEL, "--endpoint", "https://acct.documents.azure.com:443/"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no key"), "{}", stderr(&out));
}

#[test]
fn an_unreachable_endpoint_is_a_failure_in_one_line() {
    let out = cosmap(&["verify", MODEL, "--endpoint", "https://127.0.0.1:1/"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("cannot reach https://127.0.0.1:1/"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// On the local server: cross-partition queries fail in the SDK (the server sends
/// partition key ranges with a numeric id), and verify reports them as errors with
/// that cause; everything else passes — single-partition queries too, because the
/// mapper's SQL repeats the partition key condition (the server itself ignores the
/// partition key a query is sent with: see the next test). The database verify named
/// is left there, with its containers and samples.
#[test]
fn on_the_local_server_cross_partition_queries_are_reported_as_errors() {
    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    let out = cosmap_with_key(
        &["verify", MODEL, "--endpoint", &endpoint, "--format", "json"],
        Some(KEY),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["engine"]["kind"], "endpoint");
    let database = report["engine"]["database"].as_str().expect("database").to_string();
    assert!(database.starts_with("Ecommerce-verify-"), "{database}");
    assert!(stderr(&out).contains(&format!("`{database}`")), "{}", stderr(&out));
    assert!(stderr(&out).contains("drop it when done"));

    let patterns = report["patterns"].as_array().expect("patterns");
    assert_eq!(patterns.len(), 17);
    // The queries given a prefix of `PresentedProduct`'s hierarchical key need the
    // partition key ranges too (as in the next test but one), and fail the same way.
    let by_prefix = [
        "presented product with details by country and SKU",
        "presented products by country",
    ];
    let (mut cross, mut failed) = (Vec::new(), Vec::new());
    for p in patterns {
        let name = p["pattern"].as_str().unwrap_or("");
        if p["operation"] == "crossPartitionQuery" {
            cross.push(name);
        }
        if p["operation"] == "crossPartitionQuery" || by_prefix.contains(&name) {
            failed.push(name);
            assert_eq!(p["passed"], false, "{p}");
            let main = &p["requests"][0];
            assert_eq!(main["verdict"], "error", "{p}");
            let reason = main["reason"].as_str().unwrap_or("");
            assert!(reason.contains("partition key ranges"), "{name}: {reason}");
            assert!(main.get("returned").is_none(), "{p}");
        } else {
            assert_eq!(p["passed"], true, "{name}: {p}");
        }
    }
    assert_eq!(cross, ["availability of items in a warehouse"]);
    assert_eq!(failed.len(), 3, "{failed:?}");
    assert_eq!(report["summary"]["failed"], 3);

    // What the server holds, read through its REST API.
    let (status, db) = server.get(&format!("/dbs/{database}"));
    assert_eq!(status, 200, "{db}");
    assert_eq!(
        server.container_ids(&database),
        [
            "Account",
            "Dictionary",
            "Item",
            "Order",
            "PresentedProduct",
            "UniqueClaims"
        ]
    );
    let (status, docs) = server.get(&format!("/dbs/{database}/colls/Account/docs"));
    assert_eq!(status, 200, "{docs}");
    let written = report["samples"]["containers"]["Account"].as_u64().unwrap_or(0);
    // The samples, and the bank account "add a bank account" created.
    assert_eq!(docs["Documents"].as_array().map(|d| d.len() as u64), Some(written + 1));
}

fn run(report: impl std::future::Future<Output = Result<Report, cosmap_verify::VerifyError>>) -> Report {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(report)
        .expect("verification runs")
}

/// The "orders of an account" operation with its SQL's partition key condition
/// replaced by `replacement`.
fn orders_of_an_account_with(replacement: &str) -> (cosmap_domain::DomainModel, cosmap_mapper::LogicalModel) {
    let model = cosmap_domain::load_file(&repo().join(MODEL)).expect("model");
    let mut logical = cosmap_mapper::map(&model, &cosmap_mapper::Options::default());
    let orders = logical
        .operations
        .iter_mut()
        .find(|o| o.pattern == "orders of an account")
        .expect("operation");
    let Action::SinglePartitionQuery { sql, .. } = &mut orders.requests[0].action else {
        panic!("a single-partition query");
    };
    assert!(sql.contains("c.accountId = @accountId AND "), "{sql}");
    *sql = sql.replace("c.accountId = @accountId AND ", replacement);
    (model, logical)
}

/// The main request of "orders of an account" verified on the in-memory engine and
/// on `server` (in the new database `Ecommerce-verify-<run>`).
fn orders_of_an_account_on_both(
    server: &CosmosServer,
    run_number: u64,
    replacement: &str,
) -> (RequestOutcome, RequestOutcome) {
    let (model, logical) = orders_of_an_account_with(replacement);
    let main = |report: &Report| report.pattern("orders of an account").expect("pattern").requests[0].clone();
    let in_memory = run(verify(&model, &logical, Engine::InMemory, Default::default()));
    let database = cosmap_verify::fresh_database_name("Ecommerce", run_number);
    let target = cosmap_provision::Target::new(&server.endpoint(), None, &database).expect("target");
    let local = run(verify(&model, &logical, Engine::Endpoint(target), Default::default()));
    (main(&in_memory), main(&local))
}

/// The local server ignores the partition key a query is sent with: it insists that
/// the SQL names the partition key (an equality on its path) and then searches every
/// partition. The in-memory engine, like Cosmos DB, keeps to the partition sent.
/// Verify reports each behaviour as it is.
#[test]
fn the_local_server_ignores_the_partition_a_query_is_sent_with() {
    let server = CosmosServer::start();

    // Without a partition key condition in its SQL.
    let (in_memory, local) = orders_of_an_account_on_both(&server, 1, "");
    assert_eq!(in_memory.verdict, Verdict::Pass, "{in_memory:?}");
    assert_eq!(local.verdict, Verdict::Error, "{local:?}");
    assert!(
        local
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("400") && r.contains("missing partition keys")),
        "{:?}",
        local.reason
    );

    // With a condition that names the partition key but keeps every document.
    let (in_memory, local) = orders_of_an_account_on_both(&server, 2, "c.accountId = c.accountId AND ");
    assert_eq!(in_memory.verdict, Verdict::Pass, "{in_memory:?}");
    assert_eq!(local.verdict, Verdict::Fail, "{local:?}");
    assert_eq!(local.partition_key.as_deref(), Some("account-1"));
    // The ten newest of account-1's orders (see crates/cosmap-verify/tests/examples.rs).
    assert_eq!(local.expected.len(), 10);
    assert!(
        local
            .reason
            .as_deref()
            // account-1's ten newest are the ten newest of all, so the binding that
            // shows it is account-2's: every account's orders come back.
            .is_some_and(|r| r.contains("with accountId = \"account-2\"") && r.contains("missing order-3")),
        "{:?}",
        local.reason
    );
}

/// Two verifications started together on the same new database: whichever loses the
/// race (at planning, or by a 409 when creating the database) refuses to write into the
/// other's database; exactly one of them runs.
#[test]
fn two_verifications_never_share_a_database() {
    use std::future::Future;
    use std::task::Poll;

    let server = CosmosServer::start();
    let model = cosmap_domain::load_file(&repo().join(MODEL)).expect("model");
    let logical = cosmap_mapper::map(&model, &cosmap_mapper::Options::default());
    let target = || cosmap_provision::Target::new(&server.endpoint(), None, "Ecommerce-verify-race").expect("target");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let (first, second) = runtime.block_on(async {
        let mut a = std::pin::pin!(verify(&model, &logical, Engine::Endpoint(target()), Default::default()));
        let mut b = std::pin::pin!(verify(&model, &logical, Engine::Endpoint(target()), Default::default()));
        let (mut ra, mut rb) = (None, None);
        std::future::poll_fn(|cx| {
            if ra.is_none() {
                if let Poll::Ready(r) = a.as_mut().poll(cx) {
                    ra = Some(r);
                }
            }
            if rb.is_none() {
                if let Poll::Ready(r) = b.as_mut().poll(cx) {
                    rb = Some(r);
                }
            }
            if ra.is_some() && rb.is_some() {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
        .await;
        (ra.expect("first"), rb.expect("second"))
    });
    let refused = |r: &Result<Report, cosmap_verify::VerifyError>| {
        matches!(r, Err(cosmap_verify::VerifyError::DatabaseExists { .. }))
    };
    assert!(
        refused(&first) != refused(&second),
        "exactly one must refuse: {:?} / {:?}",
        first.as_ref().err(),
        second.as_ref().err()
    );
    assert!(first.is_ok() || second.is_ok());
}

/// The uniqueness claims of `unique-claims.json` and the repartitioned containers of
/// `cosmic-works` on the local server: every pattern passes but the cross-partition
/// queries the server cannot run; a second claim of a taken value is refused there too.
#[test]
fn on_the_local_server_claims_refuse_duplicates_and_repartitioned_containers_serve_their_reads() {
    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    let claims = "crates/cosmap-verify/tests/models/unique-claims.json";
    let out = cosmap_with_key(
        &["verify", claims, "--endpoint", &endpoint, "--format", "json"],
        Some(KEY),
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let pattern = |name: &str| {
        report["patterns"]
            .as_array()
            .and_then(|list| list.iter().find(|p| p["pattern"] == name))
            .cloned()
            .unwrap_or_else(|| panic!("no pattern `{name}`"))
    };
    let open = pattern("open an account");
    assert_eq!(open["passed"], true, "{open}");
    assert_eq!(pattern("account by id")["passed"], true);
    // A deleted item read back is 404 (the server's 500 is mended in
    // tests/support/cosmosdb-server.js): the deletes are made and checked.
    let close = pattern("close an account");
    assert_eq!(close["passed"], true, "{close}");
    let refused: Vec<&Value> = open["requests"]
        .as_array()
        .expect("requests")
        .iter()
        .filter(|r| r["added"] == true)
        .collect();
    assert_eq!(refused.len(), 2, "{open}");
    assert!(refused.iter().all(|r| r["verdict"] == "pass"), "{open}");

    let out = cosmap_with_key(
        &[
            "verify",
            "examples/cosmic-works/model.json",
            "--endpoint",
            &endpoint,
            "--format",
            "json",
        ],
        Some(KEY),
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    for p in report["patterns"].as_array().expect("patterns") {
        let cross = p["requests"]
            .as_array()
            .is_some_and(|list| list.iter().any(|r| r["kind"] == "crossPartitionQuery"));
        assert_eq!(p["passed"], !cross, "{p}");
    }
    let passed = |name: &str| {
        report["patterns"]
            .as_array()
            .and_then(|list| list.iter().find(|p| p["pattern"] == name))
            .map(|p| p["passed"] == true)
    };
    assert_eq!(passed("products in a category"), Some(true));
    // The feed of the newest posts is one partition's query there too.
    let out = cosmap_with_key(
        &[
            "verify",
            "examples/newsfeed/model.json",
            "--endpoint",
            &endpoint,
            "--format",
            "json",
        ],
        Some(KEY),
    );
    let feed: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let newest = feed["patterns"]
        .as_array()
        .and_then(|list| list.iter().find(|p| p["pattern"] == "the newest posts"))
        .expect("the newest posts");
    assert_eq!(newest["passed"], true, "{newest}");
    assert_eq!(newest["requests"][0]["container"], "Feeds");
    assert_eq!(passed("orders of a customer"), Some(true));
    assert_eq!(passed("register a customer"), Some(true));
}

/// The hierarchical key of `help-desk` on the local server: writes, point reads (by
/// both levels, and through a survey's reference, whose partition key is an array)
/// and a query given both levels pass; a query given a prefix needs the partition
/// key ranges the server answers in a shape the SDK refuses, like a cross-partition
/// query (../shared/COSMOS-LOCAL.md), and is reported as an error, never a pass.
#[test]
fn on_the_local_server_a_hierarchical_key_serves_its_point_reads_writes_and_whole_key_queries() {
    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    let out = cosmap_with_key(
        &[
            "verify",
            "examples/help-desk/model.json",
            "--endpoint",
            &endpoint,
            "--format",
            "json",
        ],
        Some(KEY),
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let by_range = ["open tickets of a tenant", "tickets of a tenant", "ticket by id"];
    for p in report["patterns"].as_array().expect("patterns") {
        let name = p["pattern"].as_str().expect("name");
        if by_range.contains(&name) {
            assert_eq!(p["passed"], false, "{p}");
            let reason = p["requests"][0]["reason"].as_str().unwrap_or_default();
            assert!(reason.contains("partition key ranges"), "{p}");
        } else {
            assert_eq!(p["passed"], true, "{p}");
        }
    }
    let survey = report["patterns"]
        .as_array()
        .and_then(|list| list.iter().find(|p| p["pattern"] == "a survey with its ticket"))
        .expect("a survey with its ticket");
    assert_eq!(survey["requests"][1]["container"], "Ticket", "{survey}");
}

/// The derived data of the last patterns on the local server: readings kept in hourly
/// buckets (the range read with `LEFT` and `ORDER BY` on the window, the append to a
/// window's bucket) pass; a tree's ancestors list passes its point reads, parent
/// reads and writes, while its two queries across partitions (children of a category,
/// the descendants of a renamed one) are errors, as every such query is there.
#[test]
fn on_the_local_server_buckets_pass_and_a_tree_passes_all_but_its_queries_across_partitions() {
    let server = CosmosServer::start();
    let endpoint = server.endpoint();
    let run = |model: &str| -> Value {
        let out = cosmap_with_key(
            &["verify", model, "--endpoint", &endpoint, "--format", "json"],
            Some(KEY),
        );
        serde_json::from_slice(&out.stdout).expect("JSON report")
    };
    let buckets = run("examples/patterns/bucket/model.json");
    for p in buckets["patterns"].as_array().expect("patterns") {
        assert_eq!(p["passed"], true, "{p}");
    }
    let tree = run("examples/patterns/tree-ancestors/model.json");
    for p in tree["patterns"].as_array().expect("patterns") {
        for r in p["requests"].as_array().expect("requests") {
            if r["kind"] == "crossPartitionQuery" {
                assert_eq!(r["verdict"], "error", "{p}");
            } else {
                assert_eq!(r["verdict"], "pass", "{p}");
            }
        }
    }
}
