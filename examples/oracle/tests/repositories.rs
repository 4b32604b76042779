//! Every example's generated repositories load what verify's samples say an aggregate
//! holds: verify's sample documents are written into the in-memory engine, and for
//! every root sample the generated `load` must give that root and, for each kind of
//! member, exactly the samples of that `type` in the root's partition (those not
//! expiring); a `load` that also takes the partition key is given the root's. Every
//! repository must load at least one aggregate. Then every repository saves an
//! aggregate revised, with new members, and deletes another, judged on what is stored
//! afterwards (`oracle::repository_writes`).

use std::collections::BTreeSet;

use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_verify::generated::Writing;
use cosmap_verify::samples::{sample_documents, Sample};
use oracle::repository_writes::{judge_repository_writes, Outcome};
use oracle::{Example, EXAMPLES};
use serde_json::Value;

/// The ids of `samples` in `root`'s container and partition whose `type` is `kind`.
fn members_of(samples: &[Sample], root: &Sample, kind: &str) -> BTreeSet<String> {
    samples
        .iter()
        .filter(|s| s.container == root.container && s.partition_key == root.partition_key)
        .filter(|s| s.body.get("type").and_then(Value::as_str) == Some(kind))
        .filter(|s| s.body.get("ttl").is_none_or(Value::is_null))
        .map(|s| s.id.clone())
        .collect()
}

/// `example`'s model, its samples, and an in-memory account whose database holds them.
struct Stored {
    domain: cosmap_domain::DomainModel,
    logical: cosmap_mapper::LogicalModel,
    samples: Vec<Sample>,
    // The account lives as long as the database.
    _account: InMemoryAccount,
    database: azure_data_cosmos::clients::DatabaseClient,
}

async fn stored(example: &Example) -> Stored {
    let domain = cosmap_domain::load_file(std::path::Path::new(example.model)).expect("the model loads");
    let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
    let samples = sample_documents(&domain, &logical).expect("the samples");
    let account = InMemoryAccount::new().expect("an in-memory account");
    let connection = account
        .provisioned("repositories", &logical.container_definitions())
        .await
        .expect("the containers");
    let database = connection.cosmos_client().database_client(connection.database());
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
    Stored {
        domain,
        logical,
        samples,
        _account: account,
        database,
    }
}

/// Loads every root of `example` through its repositories; the problems found, how
/// many aggregates were loaded and how many member documents they should hold.
async fn load_all(example: &Example) -> (Vec<String>, usize, usize) {
    let Stored { samples, database, .. } = stored(example).await;
    let (mut problems, mut loaded, mut members) = (Vec::new(), 0, 0);
    for (root, container, _, kinds) in example.repositories {
        let roots: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.container == *container && s.document_type == *root)
            .collect();
        if roots.is_empty() {
            problems.push(format!("{}: no sample of `{root}` to load", example.name));
        }
        for r in roots {
            let got = match (example.load)(&database, root, r.partition_key.values(), &r.id).await {
                Ok(Some(got)) => got,
                Ok(None) => {
                    problems.push(format!("{}: `{root}` `{}` loads nothing", example.name, r.id));
                    continue;
                }
                Err(e) => {
                    problems.push(format!("{}: `{root}` `{}`: {e}", example.name, r.id));
                    continue;
                }
            };
            let mut expected = vec![(String::new(), vec![r.id.clone()])];
            expected.extend(
                kinds
                    .iter()
                    .map(|k| (k.to_string(), members_of(&samples, r, k).into_iter().collect())),
            );
            let got: Vec<(String, Vec<String>)> = got
                .into_iter()
                .map(|(k, mut ids)| {
                    ids.sort();
                    (k, ids)
                })
                .collect();
            members += expected.iter().skip(1).map(|(_, ids)| ids.len()).sum::<usize>();
            if got != expected {
                problems.push(format!(
                    "{}: `{root}` `{}`: loaded {got:?}, expected {expected:?}",
                    example.name, r.id
                ));
            }
            loaded += 1;
        }
    }
    (problems, loaded, members)
}

#[tokio::test(flavor = "current_thread")]
async fn every_generated_repository_loads_its_aggregates() {
    let (mut problems, mut loaded, mut members) = (Vec::new(), 0, 0);
    for example in EXAMPLES {
        let (found, n, m) = load_all(example).await;
        problems.extend(found);
        loaded += n;
        members += m;
    }
    println!("{loaded} aggregates loaded, holding {members} member documents");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(loaded >= 700, "only {loaded} aggregates were loaded");
    assert!(
        members >= 600,
        "the aggregates loaded hold only {members} member documents"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn every_generated_repository_saves_and_deletes_what_verify_expects() {
    let (mut proven, mut not_judged, mut problems) = (0, Vec::new(), Vec::new());
    for example in EXAMPLES {
        let stored = stored(example).await;
        let judged = judge_repository_writes(
            example,
            &stored.domain,
            &stored.logical,
            &stored.database,
            &stored.samples,
        )
        .await;
        for j in judged {
            match j.outcome {
                Outcome::Proven => proven += 1,
                Outcome::NotJudged(why) => not_judged.push(format!("{}: {why}", j.what)),
                Outcome::Failed(problem) => problems.push(format!("{}: {problem}", j.what)),
            }
        }
    }
    println!(
        "{proven} repository saves and deletes proven; not judged ({}):",
        not_judged.len()
    );
    for line in &not_judged {
        println!("  {line}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(proven >= 60, "only {proven} repository saves and deletes were judged");
}

/// The judge looks at what the repositories store: saves and deletes that store
/// nothing fail every one of them.
#[tokio::test(flavor = "current_thread")]
async fn repository_writes_that_store_nothing_fail() {
    fn save<'a>(
        _: &'a azure_data_cosmos::clients::DatabaseClient,
        _: &'a str,
        _: &'a [String],
        _: &'a str,
        _: &'a Value,
        _: &'a [Value],
    ) -> Writing<'a> {
        Box::pin(async { Ok(()) })
    }
    fn delete<'a>(
        _: &'a azure_data_cosmos::clients::DatabaseClient,
        _: &'a str,
        _: &'a [String],
        _: &'a str,
    ) -> Writing<'a> {
        Box::pin(async { Ok(()) })
    }
    fn save_new<'a>(_: &'a azure_data_cosmos::clients::DatabaseClient, _: &'a str, _: &'a Value) -> Writing<'a> {
        Box::pin(async { Ok(()) })
    }
    let mut judged = 0;
    for example in EXAMPLES {
        let idle = Example {
            save,
            delete,
            save_new,
            ..*example
        };
        let stored = stored(example).await;
        let found = judge_repository_writes(
            &idle,
            &stored.domain,
            &stored.logical,
            &stored.database,
            &stored.samples,
        )
        .await;
        for j in found {
            assert_ne!(j.outcome, Outcome::Proven, "{} passed without writing", j.what);
            judged += usize::from(matches!(j.outcome, Outcome::Failed(_)));
        }
    }
    assert!(judged >= 60, "only {judged} repository writes were judged");
}
