//! Every example's generated data access on the local `@vercel/cosmosdb-server`, under
//! `cosmap verify`'s judge (`examples/oracle`): each example is verified in a database
//! of its own with the main answer of every generated read method and every generated
//! single-document write (and its workers) taken from the generated code, as on the
//! in-memory engine (`examples/oracle/tests`). What the server supports must pass;
//! each pattern it cannot run is listed with the server's limit
//! (../shared/COSMOS-LOCAL.md; the server is started with the three faults
//! `tests/support/cosmosdb-server.js` mends), and anything else fails the test. The repositories
//! too: with verify's samples stored there, every root loads through its generated
//! repository, and each repository's save and delete are judged
//! (`oracle::repository_writes`), the server's limits listed the same way.

mod support;

use cosmap_provision::{apply, plan, ApplyOptions, Connection, Settings, Target, Throughput};
use cosmap_verify::{verify_generated_on, Engine, PatternOutcome, RequestOutcome, Verdict};
use oracle::repository_writes::{judge_repository_writes, Outcome};
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
    ];
    limit_of(reason, &limits)
}

/// The limit of `limits` whose failure `reason` quotes.
fn limit_of(reason: &str, limits: &[(&str, &'static str)]) -> Option<&'static str> {
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
        proven >= 70,
        "only {proven} generated methods were proven on the local server"
    );
}

/// `example`'s samples stored on the server in a database of their own (number `n`):
/// the model, the samples and the database.
async fn stored_on(
    server: &CosmosServer,
    example: &Example,
    n: u64,
) -> (
    cosmap_domain::DomainModel,
    cosmap_mapper::LogicalModel,
    Vec<cosmap_verify::samples::Sample>,
    oracle::DatabaseClient,
) {
    let domain = cosmap_domain::load_file(std::path::Path::new(example.model)).expect("the model loads");
    let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
    let samples = cosmap_verify::samples::sample_documents(&domain, &logical).expect("the samples");
    let database = format!("{}-repositories-{n}", example.name.replace('/', "-"));
    let target = Target::new(&server.endpoint(), Some(KEY.into()), &database).expect("a target");
    let connection = Connection::open(&target, Settings::default())
        .await
        .expect("a connection");
    let planned = plan(&connection, &logical.container_definitions(), Throughput::None)
        .await
        .expect("a plan");
    apply(&connection, &planned, &ApplyOptions::default())
        .await
        .expect("the containers are created");
    let database = connection.database_client();
    for s in &samples {
        let client = database
            .container_client(&s.container, None)
            .await
            .expect("a container");
        client
            .create_item(s.partition_key.sdk(), &s.id, &s.body, None)
            .await
            .unwrap_or_else(|e| panic!("{}: sample `{}`: {e}", example.name, s.id));
    }
    (domain, logical, samples, database)
}

/// Loads every root of `example` through its repositories on `database`: how many
/// loaded, and the problems.
async fn load_every_root(
    example: &Example,
    samples: &[cosmap_verify::samples::Sample],
    database: &oracle::DatabaseClient,
) -> (usize, Vec<String>) {
    let (mut loaded, mut problems) = (0, Vec::new());
    for (root, container, _, _) in example.repositories {
        for r in samples
            .iter()
            .filter(|s| s.container == *container && s.document_type == *root)
        {
            match (example.load)(database, root, r.partition_key.values(), &r.id).await {
                Ok(Some(got)) if got.first().is_some_and(|(_, ids)| ids == std::slice::from_ref(&r.id)) => loaded += 1,
                other => problems.push(format!("{}: `{root}` `{}` loads {other:?}", example.name, r.id)),
            }
        }
    }
    (loaded, problems)
}

#[test]
fn on_the_local_server_every_generated_repository_loads_saves_and_deletes_what_the_server_supports() {
    let server = CosmosServer::start();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    // The server (with the faults tests/support/cosmosdb-server.js mends) runs every
    // repository's load, save and delete: none is listed as its limit.
    let limits = [];
    let (mut loaded, mut proven, mut not_run, mut problems) = (0, 0, Vec::new(), Vec::new());
    for (n, example) in (1..).zip(EXAMPLES) {
        runtime.block_on(async {
            let (domain, logical, samples, database) = stored_on(&server, example, n).await;
            let (count, found) = load_every_root(example, &samples, &database).await;
            loaded += count;
            problems.extend(found);
            for j in judge_repository_writes(example, &domain, &logical, &database, &samples).await {
                match j.outcome {
                    Outcome::Proven => proven += 1,
                    Outcome::NotJudged(why) => not_run.push(format!("{}: {why}", j.what)),
                    Outcome::Failed(problem) => match limit_of(&problem, &limits) {
                        Some(limit) => not_run.push(format!("{}: {limit}", j.what)),
                        None => problems.push(format!("{}: {problem}", j.what)),
                    },
                }
            }
        });
    }
    println!(
        "{loaded} aggregates loaded and {proven} repository saves and deletes proven on the local server; not run there ({}):",
        not_run.len()
    );
    for line in &not_run {
        println!("  {line}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        loaded >= 700,
        "only {loaded} aggregates were loaded on the local server"
    );
    assert!(
        proven >= 140,
        "only {proven} repository writes were proven on the local server"
    );
}
