//! Every example's generated writes under `cosmap verify`'s judge: `verify_generated`
//! sends each write pattern whose one document a generated method writes through that
//! method (the document the plan's write would send), runs the generated workers, and
//! judges what is stored afterwards as it judges the plan's write — the document, its
//! claims, its copies, a duplicate refused. Every such write must pass; every other
//! write pattern is counted and listed with why it is not judged on the generated code.

use azure_data_cosmos::clients::DatabaseClient;
use cosmap_verify::generated::Writing;
use cosmap_verify::{unjudged_write, verify_generated, Answerer, Report};
use oracle::{Example, EXAMPLES};
use serde_json::Value;

fn model(example: &Example) -> (cosmap_domain::DomainModel, cosmap_mapper::LogicalModel) {
    let domain = cosmap_domain::load_file(std::path::Path::new(example.model))
        .unwrap_or_else(|e| panic!("{}: {e}", example.name));
    let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
    (domain, logical)
}

/// Why write pattern `pattern` of `example` is not judged on its generated code;
/// `None` when it is.
fn why_not_judged(example: &Example, logical: &cosmap_mapper::LogicalModel, pattern: &str) -> Option<String> {
    if !example.writes.contains(&pattern) {
        let named = format!("`{pattern}`");
        let listed = example
            .not_judged
            .iter()
            .find(|(p, _)| *p == pattern)
            .map(|(_, why)| why.to_string());
        let skipped = example
            .skipped
            .iter()
            .find(|s| s.contains(&named))
            .map(|s| format!("not generated: {s}"));
        return Some(listed.or(skipped).unwrap_or_else(|| "no generated write".into()));
    }
    match logical.operations.iter().find(|o| o.pattern == pattern) {
        Some(op) => unjudged_write(logical, op),
        None => Some("the logical model has no operation for it".into()),
    }
}

/// The first failed request's reason in `report` for `pattern`, or `None` when it passed.
fn failure(report: &Report, pattern: &str) -> Option<String> {
    let Some(p) = report.patterns.iter().find(|p| p.pattern == pattern) else {
        return Some("not in the report".into());
    };
    (!p.passed).then(|| {
        p.requests
            .iter()
            .find_map(|r| r.reason.clone())
            .or_else(|| p.reason.clone())
            .unwrap_or_default()
    })
}

#[tokio::test(flavor = "current_thread")]
async fn every_generated_write_leaves_what_verify_expects() {
    let (mut proven, mut not_judged, mut problems) = (0, Vec::new(), Vec::new());
    for example in EXAMPLES {
        let (domain, logical) = model(example);
        let report = verify_generated(&domain, &logical, example)
            .await
            .unwrap_or_else(|e| panic!("{}: verify runs: {e}", example.name));
        for p in domain
            .access_patterns()
            .iter()
            .filter(|p| p.kind == cosmap_domain::AccessKind::Write)
        {
            if let Some(reason) = failure(&report, &p.name) {
                problems.push(format!("{}: `{}`: {reason}", example.name, p.name));
            }
            match why_not_judged(example, &logical, &p.name) {
                None => proven += 1,
                Some(why) => not_judged.push(format!("{}: `{}`: {why}", example.name, p.name)),
            }
        }
    }
    println!(
        "{proven} generated writes proven; not judged on the generated code ({}):",
        not_judged.len()
    );
    for line in &not_judged {
        println!("  {line}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(proven >= 40, "only {proven} generated writes were judged");
}

/// `example` with generated writes that store nothing and workers never run (and no
/// read answered: the reads run as the plan says).
fn idle(example: &Example) -> Example {
    fn write<'a>(_: &'a DatabaseClient, _: &'a str, _: &'a Value) -> Writing<'a> {
        Box::pin(async { Ok(()) })
    }
    fn write_aggregate<'a>(_: &'a DatabaseClient, _: &'a str, _: &'a [Vec<Value>]) -> Writing<'a> {
        Box::pin(async { Ok(()) })
    }
    fn append<'a>(_: &'a DatabaseClient, _: &'a str, _: &'a str, _: &'a Value) -> Writing<'a> {
        Box::pin(async { Ok(()) })
    }
    Example {
        answers: &[],
        write,
        write_aggregate,
        append,
        ..unsettled(example)
    }
}

/// `example` with its workers never run: what they keep is not kept.
fn unsettled(example: &Example) -> Example {
    fn settle(_: &DatabaseClient) -> Writing<'_> {
        Box::pin(async { Ok(()) })
    }
    Example { settle, ..*example }
}

/// The judge looks at what the generated writes store: writes that store nothing fail
/// every write judged on the generated code, and nothing else.
#[tokio::test(flavor = "current_thread")]
async fn generated_writes_that_store_nothing_fail() {
    let mut judged = 0;
    for example in EXAMPLES {
        let (domain, logical) = model(example);
        let report = verify_generated(&domain, &logical, &idle(example))
            .await
            .unwrap_or_else(|e| panic!("{}: verify runs: {e}", example.name));
        for p in &report.patterns {
            let on_code =
                why_not_judged(example, &logical, &p.pattern).is_none() && example.writes.contains(&p.pattern.as_str());
            judged += usize::from(on_code);
            assert_eq!(p.passed, !on_code, "{}: `{}`", example.name, p.pattern);
        }
    }
    assert!(judged >= 20, "only {judged} generated writes were judged");
}

/// Whether `op` keeps a count, subset, extended reference or ancestors list from the
/// change feed (a query finds what to rewrite): a generated worker's job.
fn kept_by_a_worker(op: &cosmap_mapper::operations::Operation) -> bool {
    use cosmap_mapper::operations::{OperationKind, Purpose};
    op.requests.iter().any(|r| {
        r.kind() != OperationKind::Write
            && matches!(
                r.purpose,
                Purpose::UpdateCount { .. }
                    | Purpose::UpdateSubset { .. }
                    | Purpose::SyncExtendedReference { .. }
                    | Purpose::SyncAncestors { .. }
            )
    })
}

/// The judge looks at what the generated workers keep, not only at the copies: with
/// the workers never run, every write judged on the generated code whose count,
/// subset, extended reference or ancestors list a worker keeps fails on that check.
#[tokio::test(flavor = "current_thread")]
async fn workers_that_keep_nothing_fail() {
    let mut judged = Vec::new();
    for example in EXAMPLES {
        let (domain, logical) = model(example);
        let report = verify_generated(&domain, &logical, &unsettled(example))
            .await
            .unwrap_or_else(|e| panic!("{}: verify runs: {e}", example.name));
        for op in logical.operations.iter().filter(|op| kept_by_a_worker(op)) {
            if why_not_judged(example, &logical, &op.pattern).is_some() {
                continue;
            }
            let outcome = report.patterns.iter().find(|p| p.pattern == op.pattern);
            let failed_checks: Vec<&str> = outcome
                .iter()
                .flat_map(|p| &p.requests)
                .filter(|r| r.verdict != cosmap_verify::Verdict::Pass)
                .filter_map(|r| r.check.as_deref())
                .filter(|check| check.ends_with("kept by the generated code?"))
                .collect();
            println!("{}: `{}`: {failed_checks:?}", example.name, op.pattern);
            assert!(
                !failed_checks.is_empty(),
                "{}: `{}` passed without its workers",
                example.name,
                op.pattern
            );
            judged.push(op.pattern.clone());
        }
    }
    assert!(
        judged.len() >= 4,
        "only {} writes kept by workers were judged",
        judged.len()
    );
}

/// The generated code with every aggregate write given its root alone (no members).
struct RootOnly<'e>(&'e Example);

impl Answerer for RootOnly<'_> {
    fn writes(&self, pattern: &str) -> bool {
        self.0.writes(pattern)
    }

    fn write<'a>(
        &'a self,
        database: &'a azure_data_cosmos::clients::DatabaseClient,
        pattern: &'a str,
        document: &'a Value,
    ) -> Writing<'a> {
        self.0.write(database, pattern, document)
    }

    fn write_aggregate<'a>(
        &'a self,
        database: &'a azure_data_cosmos::clients::DatabaseClient,
        pattern: &'a str,
        documents: &'a [Vec<Value>],
    ) -> Writing<'a> {
        Box::pin(async move {
            let root_only: Vec<Vec<Value>> = documents
                .iter()
                .enumerate()
                .map(|(i, d)| if i == 0 { d.clone() } else { Vec::new() })
                .collect();
            self.0.write_aggregate(database, pattern, &root_only).await
        })
    }
}

/// The ticketing example's aggregate writes (an order with its tickets, whose codes
/// are claimed) are judged on every document and claim: the generated writes pass,
/// each ticket and claim judged beside the order; writes that store nothing fail;
/// writes of the order alone fail on the tickets and their claims, and only there.
#[tokio::test(flavor = "current_thread")]
async fn aggregate_writes_are_judged_on_every_member_and_claim() {
    let example = EXAMPLES
        .iter()
        .find(|e| e.name == "ticketing")
        .expect("the ticketing example");
    let (domain, logical) = model(example);
    let aggregates = ["place an order", "cancel an order"];
    for pattern in aggregates {
        assert!(
            example.writes.contains(&pattern),
            "`{pattern}` is not written by the dispatch"
        );
        assert_eq!(why_not_judged(example, &logical, pattern), None, "`{pattern}`");
    }
    let lines = |report: &Report, pattern: &str| -> Vec<(String, bool)> {
        let p = report
            .patterns
            .iter()
            .find(|p| p.pattern == pattern)
            .expect("in the report");
        p.requests
            .iter()
            .map(|r| {
                let what = format!("{} {:?}", r.document_types.join(","), r.check);
                (what, r.verdict == cosmap_verify::Verdict::Pass)
            })
            .collect()
    };
    let proven = verify_generated(&domain, &logical, example).await.expect("verify runs");
    let idle = verify_generated(&domain, &logical, &idle(example))
        .await
        .expect("verify runs");
    let root_only = verify_generated(&domain, &logical, &RootOnly(example))
        .await
        .expect("verify runs");
    for pattern in aggregates {
        let judged = lines(&proven, pattern);
        println!("`{pattern}`: {judged:?}");
        assert!(judged.iter().all(|(_, passed)| *passed), "`{pattern}`: {judged:?}");
        for kind in ["Order", "Ticket", "TicketCodeClaim"] {
            assert!(
                judged.iter().any(|(what, _)| what.starts_with(kind)),
                "`{pattern}`: no `{kind}` judged: {judged:?}"
            );
        }
        assert!(failure(&idle, pattern).is_some(), "`{pattern}` passed storing nothing");
        let alone = lines(&root_only, pattern);
        println!("`{pattern}` with the order alone: {alone:?}");
        for (what, passed) in &alone {
            // A ticket, or the claim of its code (`TicketCodeClaim`), but not the duplicate refused.
            let member = what.starts_with("Ticket") && !what.contains("duplicate");
            assert_eq!(*passed, !member, "`{pattern}`, the order alone: {what}");
        }
    }
}

/// The generated code with every append sent twice.
struct Twice<'e>(&'e Example);

impl Answerer for Twice<'_> {
    fn writes(&self, pattern: &str) -> bool {
        self.0.writes(pattern)
    }

    fn append<'a>(
        &'a self,
        database: &'a azure_data_cosmos::clients::DatabaseClient,
        pattern: &'a str,
        key: &'a str,
        item: &'a Value,
    ) -> Writing<'a> {
        Box::pin(async move {
            self.0.append(database, pattern, key, item).await?;
            self.0.append(database, pattern, key, item).await
        })
    }
}

/// The bucket example's append (`record a reading`) is judged on the bucket the
/// generated append leaves: it passes; an append that stores nothing fails, and so does
/// one that appends the item twice.
#[tokio::test(flavor = "current_thread")]
async fn appends_are_judged_on_the_bucket_they_leave() {
    let example = EXAMPLES
        .iter()
        .find(|e| e.name == "patterns/bucket")
        .expect("the bucket example");
    let (domain, logical) = model(example);
    let pattern = "record a reading";
    assert!(
        example.writes.contains(&pattern),
        "`{pattern}` is not written by the dispatch"
    );
    assert_eq!(why_not_judged(example, &logical, pattern), None);
    let proven = verify_generated(&domain, &logical, example).await.expect("verify runs");
    assert_eq!(failure(&proven, pattern), None);
    let idle = verify_generated(&domain, &logical, &idle(example))
        .await
        .expect("verify runs");
    let twice = verify_generated(&domain, &logical, &Twice(example))
        .await
        .expect("verify runs");
    for (report, what) in [(&idle, "nothing appended"), (&twice, "appended twice")] {
        let reason = failure(report, pattern).unwrap_or_else(|| panic!("`{pattern}` passed with {what}"));
        println!("{what}: {reason}");
        assert!(
            reason.contains("does not hold its items and the new one"),
            "{what}: {reason}"
        );
    }
}
