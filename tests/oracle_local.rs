//! Every example's generated data access on the local `@vercel/cosmosdb-server`, under
//! `cosmap verify`'s judge (`examples/oracle`): each example is verified in a database
//! of its own with the main answer of every generated read method and every generated
//! single-document write (and its workers) taken from the generated code, as on the
//! in-memory engine (`examples/oracle/tests`). What the server supports must pass;
//! each pattern it cannot run is listed with the server's limit
//! (../shared/COSMOS-LOCAL.md), and anything else fails the test.

mod support;

use cosmap_provision::{Settings, Target};
use cosmap_verify::{verify_generated_on, Engine, PatternOutcome, RequestOutcome, Verdict};
use oracle::{Example, EXAMPLES};
use support::CosmosServer;

const KEY: &str = "Q09TTUFQLVZFUklGWS1LRVktbmV2ZXItdG8tYmUtcHJpbnRlZA==";

/// The first request of `p` that did not pass on its own (a claim's read is judged by
/// the read of the owner it names, which comes after it).
fn first_failed(p: &PatternOutcome) -> Option<&RequestOutcome> {
    let pointer = |r: &&RequestOutcome| r.reason.as_deref().is_some_and(|t| t.starts_with("judged by the read"));
    p.requests.iter().find(|r| r.verdict != Verdict::Pass && !pointer(r))
}

/// The server's limit that pattern outcome `p` ran into, when the first request that
/// did not pass failed on it (each reason quotes the server's own failure: never a
/// wrong answer).
fn server_limit(p: &PatternOutcome) -> Option<&'static str> {
    let first = first_failed(p)?;
    let reason = first.reason.as_deref().unwrap_or_default();
    let limits = [
        (
            "partition key ranges",
            "a cross-partition query (the server's partition key ranges have a numeric id)",
        ),
        (
            "the generated workers failed",
            "the change feed the generated workers read (the server answers 500)",
        ),
        (
            "answered 500 (internal server error)",
            "a point read of a missing item (the server answers 500, not 404)",
        ),
    ];
    limits
        .iter()
        .find(|(said, _)| reason.contains(said))
        .map(|(_, limit)| *limit)
}

/// The first reason pattern outcome `p` gives for not passing.
fn reason(p: &PatternOutcome) -> String {
    let first = first_failed(p).and_then(|r| r.reason.clone());
    first.or_else(|| p.reason.clone()).unwrap_or_default()
}

/// Verifies `example` on the server in database number `n`: the generated methods
/// proven, the patterns the server cannot run (with its limit), and the problems.
async fn verify_on(server: &CosmosServer, example: &Example, n: u64) -> (usize, Vec<String>, Vec<String>) {
    let domain = cosmap_domain::load_file(std::path::Path::new(example.model)).expect("the model loads");
    let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
    let database = cosmap_verify::fresh_database_name(&logical.model, n);
    let target = Target::new(&server.endpoint(), Some(KEY.into()), &database).expect("a target");
    let report = verify_generated_on(
        &domain,
        &logical,
        Engine::Endpoint(target),
        Settings::default(),
        example,
    )
    .await
    .unwrap_or_else(|e| panic!("{}: verify runs on the local server: {e}", example.name));
    let (mut proven, mut limits, mut problems) = (0, Vec::new(), Vec::new());
    for p in &report.patterns {
        let name = p.pattern.as_str();
        let generated = example.answers.contains(&name) || example.writes.contains(&name);
        match (p.passed, server_limit(p)) {
            (true, _) => proven += usize::from(generated),
            (false, Some(limit)) => limits.push(format!("{}: `{name}`: {limit}", example.name)),
            (false, None) => problems.push(format!("{}: `{name}`: {}", example.name, reason(p))),
        }
    }
    (proven, limits, problems)
}

#[test]
fn on_the_local_server_every_examples_generated_data_access_runs_what_the_server_supports() {
    let server = CosmosServer::start();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let (mut proven, mut limits, mut problems) = (0, Vec::new(), Vec::new());
    for (n, example) in (1..).zip(EXAMPLES) {
        let (p, l, found) = runtime.block_on(verify_on(&server, example, n));
        proven += p;
        limits.extend(l);
        problems.extend(found);
    }
    println!(
        "{proven} generated methods proven on the local server; not run there ({}):",
        limits.len()
    );
    for line in &limits {
        println!("  {line}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        proven >= 40,
        "only {proven} generated methods were proven on the local server"
    );
}
