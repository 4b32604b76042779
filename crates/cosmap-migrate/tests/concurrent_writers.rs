//! An application writes while `cosmap migrate` runs: no write of it is lost, for each
//! step kind that writes documents (split, back-fill, rewrite, embed, claims,
//! repartition, unique-key copy) on the SDK's in-memory engine.
//!
//! The writer is an adversary placed in the engine itself: just before a write of the
//! migration reaches a partition, the application writes that partition's document
//! (the old model's shape, with a new `edit` marker) through its own connection, on a
//! thread of its own, and the migration's write lands after it — the race the
//! migration must survive, made certain instead of left to timing. Each run picks other
//! partitions to race on; after the run (and a second one, which catches up with what
//! the writer put back in the feed) every document holds the writer's last marker and
//! is migrated. 15 runs per step kind, 105 in all; before the migration's writes were
//! conditional, the four kinds that edit documents in place lost 2 or 3 writes in
//! every run.

mod common;

use std::collections::{BTreeMap, HashSet};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::ThreadId;

use common::map;
use cosmap_migrate::{plan, run, Control, MigrationPlan, RunOptions};
use cosmap_provision::in_memory::{InMemoryAccount, Method, Request, RequestObserver};
use cosmap_provision::{Connection, Settings};
use serde_json::{json, Value};

/// Runs per step kind: 15 × 7 kinds, 105 runs in all (the seven tests run in
/// parallel; each run is a new account).
const RUNS: usize = 15;
const DOCUMENTS: usize = 4;

/// The step kinds, each with its two models and documents.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Split,
    Backfill,
    Rewrite,
    Embed,
    Claim,
    Repartition,
    UniqueCopy,
}

impl Kind {
    fn specs(self) -> (Value, Value) {
        let pair = |f: fn(bool) -> Value| (f(false), f(true));
        match self {
            Kind::Split => pair(|v2| common::shop(!v2)),
            Kind::Embed => pair(common::shop),
            Kind::Backfill => pair(|v2| {
                let mut status = json!({"name": "status", "type": "string"});
                let mut pattern = json!({"name": "posts by title", "kind": "read", "start": "Post",
                    "filter": ["title"], "returns": ["Post"], "perSecond": 10});
                if v2 {
                    status["default"] = json!("open");
                    pattern["filter"] = json!(["title", "status"]);
                }
                let mut attributes = vec![json!({"name": "title", "type": "string"})];
                if v2 {
                    attributes.push(status);
                }
                json!({"name": "Blog", "entities": [{"name": "Post", "identity": "postId", "attributes": attributes,
                    "volume": {"count": 1000000, "avgSizeBytes": 300}}],
                    "aggregates": [{"root": "Post"}], "accessPatterns": [pattern]})
            }),
            Kind::Rewrite => pair(|v2| {
                json!({"name": "Crm", "entities": [{"name": "Customer", "identity": "customerId", "attributes": [
                    {"name": "tag", "type": "string", "many": v2}], "volume": {"count": 1000000, "avgSizeBytes": 300}}],
                    "aggregates": [{"root": "Customer"}]})
            }),
            Kind::Claim => pair(|v2| {
                json!({"name": "Accounts", "entities": [{"name": "Account", "identity": "accountId", "attributes": [
                    {"name": "email", "type": "string", "unique": v2},
                    {"name": "edit", "type": "string", "optional": true}], "volume": {"count": 1000000, "avgSizeBytes": 300}}],
                    "aggregates": [{"root": "Account"}]})
            }),
            Kind::UniqueCopy => pair(|v2| {
                json!({"name": "Plans", "entities": [{"name": "Plan", "identity": "planId", "attributes": [
                    {"name": "code", "type": "string", "unique": v2}], "volume": {"count": 100, "avgSizeBytes": 300}}],
                    "aggregates": [{"root": "Plan"}]})
            }),
            Kind::Repartition => (
                json!({"name": "Store", "entities": [{"name": "Item", "identity": "itemId", "attributes": [
                    {"name": "name", "type": "string"}], "volume": {"count": 1000000, "avgSizeBytes": 300}}],
                    "aggregates": [{"root": "Item"}]}),
                json!({"name": "Store", "entities": [{"name": "Item", "identity": "itemCode", "attributes": [
                    {"name": "name", "type": "string"}], "volume": {"count": 1000000, "avgSizeBytes": 300}}],
                    "aggregates": [{"root": "Item"}]}),
            ),
        }
    }

    /// The container the application writes, and the one checked afterwards.
    fn containers(self, plan: &MigrationPlan) -> (String, String) {
        let renamed = || plan.renamed.first().map(|(_, to)| to.clone()).expect("a copy");
        match self {
            Kind::Split | Kind::Embed => ("Order".into(), "Order".into()),
            Kind::Backfill => ("Post".into(), "Post".into()),
            Kind::Rewrite => ("Customer".into(), "Customer".into()),
            Kind::Claim => ("Account".into(), "Account".into()),
            Kind::Repartition => ("Item".into(), renamed()),
            Kind::UniqueCopy => ("Dictionary".into(), renamed()),
        }
    }

    /// Document `i` as the old model's application writes it, carrying `edit`; its
    /// partition key value.
    fn document(self, i: usize, edit: &str) -> (Value, String) {
        let id = format!("d-{i}");
        let doc = match self {
            Kind::Split => json!({"id": id, "type": "order", "orderId": id, "placedAt": "2024-01-01T00:00:00Z",
                "lines": [{"sku": edit, "quantity": 1}, {"sku": "base", "quantity": 2}], "edit": edit}),
            Kind::Embed => {
                json!({"id": id, "type": "order", "orderId": id, "placedAt": "2024-01-01T00:00:00Z", "edit": edit})
            }
            Kind::Backfill => json!({"id": id, "type": "post", "postId": id, "title": "t", "edit": edit}),
            Kind::Rewrite => json!({"id": id, "type": "customer", "customerId": id, "tag": "t", "edit": edit}),
            Kind::Claim => {
                json!({"id": id, "type": "account", "accountId": id, "email": format!("{id}@x"), "edit": edit})
            }
            Kind::Repartition => json!({"id": id, "type": "item", "itemId": id, "name": "n", "edit": edit}),
            Kind::UniqueCopy => json!({"id": id, "type": "plan", "planId": id, "code": format!("c-{i}"), "edit": edit}),
        };
        let key = match self {
            Kind::UniqueCopy => "plan".to_string(),
            _ => id,
        };
        (doc, key)
    }

    /// The document the migration's write into partition `key` (its `nth` write)
    /// races with.
    fn raced(self, key: &str, nth: usize) -> Option<usize> {
        let tail = |prefix: &str| key.strip_prefix(prefix).and_then(|i| i.parse().ok());
        match self {
            Kind::UniqueCopy => Some(nth % DOCUMENTS),
            Kind::Claim => {
                tail("d-").or_else(|| key.strip_suffix("@x").and_then(|k| k.strip_prefix("d-")?.parse().ok()))
            }
            _ => tail("d-"),
        }
    }

    /// Extra documents the step needs (the embed step's separate lines).
    fn separate(self, i: usize) -> Vec<Value> {
        match self {
            Kind::Embed => (0..2)
                .map(|l| json!({"id": format!("d-{i}-l-{l}"), "type": "line", "orderId": format!("d-{i}"), "sku": format!("s-{l}"), "quantity": l}))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// What is wrong with `doc` (document `i`, last written with `edit`) after the
    /// migration, in `checked` (its container's documents by id).
    fn check(self, i: usize, edit: &str, checked: &BTreeMap<String, Value>) -> Option<String> {
        let id = format!("d-{i}");
        let doc = checked.get(&id)?;
        if doc["edit"] != edit {
            return Some(format!(
                "lost write: `{id}` holds edit {} instead of {edit}",
                doc["edit"]
            ));
        }
        let migrated = match self {
            Kind::Split => {
                doc.get("lines").is_none() && checked.get(&format!("{id}-lines-0")).is_some_and(|l| l["sku"] == edit)
            }
            Kind::Embed => doc["lines"].as_array().is_some_and(|l| l.len() == 2),
            Kind::Backfill => doc["status"] == "open",
            Kind::Rewrite => doc["tag"] == json!(["t"]),
            Kind::Repartition => doc["itemCode"] == id,
            Kind::Claim | Kind::UniqueCopy => true,
        };
        (!migrated).then(|| format!("`{id}` not migrated: {doc}"))
    }
}

/// A document to write for the application, and where to say it is written.
type Job = (usize, mpsc::SyncSender<()>);

/// Sees every request reaching the engine; before a write of the migration to a
/// partition it races on, has the application write first (and waits for it).
#[derive(Debug)]
struct Adversary {
    kind: Kind,
    run: usize,
    state: Mutex<Race>,
}

#[derive(Debug, Default)]
struct Race {
    application: Option<ThreadId>,
    /// Set once the documents are seeded; taken when the run ends (or panics).
    jobs: Option<mpsc::Sender<Job>>,
    raced: HashSet<usize>,
    writes: usize,
}

impl RequestObserver for Adversary {
    fn on_request(&self, request: &Request) {
        let path = request.url().path().to_string();
        let header = |name: &str| {
            request
                .headers()
                .iter()
                .find(|(n, _)| n.as_str() == name)
                .map(|(_, v)| v.as_str().to_string())
        };
        let write = match request.method() {
            Method::Put => path.contains("/docs/"),
            Method::Post => path.ends_with("/docs") && header("x-ms-documentdb-isquery").is_none(),
            _ => false,
        };
        let key: Option<Vec<String>> =
            header("x-ms-documentdb-partitionkey").and_then(|k| serde_json::from_str(&k).ok());
        let Some(key) = key.and_then(|k| k.into_iter().next()) else {
            return;
        };
        if !write || key.starts_with("cosmapMigrateLease") {
            return;
        }
        let mut race = self.state.lock().unwrap();
        if race.application == Some(std::thread::current().id()) || race.jobs.is_none() {
            return;
        }
        let nth = race.writes;
        race.writes += 1;
        let Some(i) = self.kind.raced(&key, nth) else {
            return;
        };
        // Each run races on other documents, each at most once.
        if (i + self.run).is_multiple_of(3) || !race.raced.insert(i) {
            return;
        }
        let Some(jobs) = race.jobs.clone() else {
            return;
        };
        drop(race);
        let (done, wait) = mpsc::sync_channel(0);
        jobs.send((i, done)).expect("the application runs");
        wait.recv().expect("the application wrote");
    }
}

/// One run: the migration of `kind` with the application racing; the problems found.
fn race(kind: Kind, run_number: usize) -> Vec<String> {
    let (v1, v2) = kind.specs();
    let (v1, v2) = (map(&v1), map(&v2));
    let plan = plan(&v1, &v2).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
    let (writes_to, checked_in) = kind.containers(&plan);
    let adversary = Arc::new(Adversary {
        kind,
        run: run_number,
        state: Mutex::new(Race::default()),
    });
    let account = InMemoryAccount::observed(adversary.clone()).expect("engine");
    let database = v1.model.clone();
    let last: Mutex<BTreeMap<usize, String>> = Mutex::new(BTreeMap::new());
    let (jobs, received) = mpsc::channel::<Job>();
    std::thread::scope(|scope| {
        let (account, database, last, writes_to) = (&account, &database, &last, &writes_to);
        let application = scope.spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let connection = account.connect(database, Settings::default()).await.expect("connect");
                let mut client = None;
                let mut n = 0;
                while let Ok((i, done)) = received.recv() {
                    if client.is_none() {
                        client = Some(common::container(&connection, writes_to).await);
                    }
                    let client = client.as_ref().expect("opened");
                    n += 1;
                    let edit = format!("r{run_number}-w{n}");
                    let (doc, key) = kind.document(i, &edit);
                    client
                        .upsert_item(key, &format!("d-{i}"), &doc, None)
                        .await
                        .expect("the application's write");
                    last.lock().unwrap().insert(i, edit);
                    let _ = done.send(());
                }
            })
        });
        adversary.state.lock().unwrap().application = Some(application.thread().id());
        let _disarm = Disarm(&adversary);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let arm = || adversary.state.lock().unwrap().jobs = Some(jobs);
        runtime.block_on(migrate(kind, &plan, account, &v1, (writes_to, &checked_in), last, arm))
    })
}

/// Ends the application's thread when the run ends, also on a panic.
struct Disarm<'a>(&'a Adversary);

impl Drop for Disarm<'_> {
    fn drop(&mut self) {
        if let Ok(mut race) = self.0.state.lock() {
            race.jobs = None;
        }
    }
}

/// Seeds the documents, arms the adversary, runs the migration twice, and checks.
async fn migrate(
    kind: Kind,
    plan: &MigrationPlan,
    account: &InMemoryAccount,
    v1: &cosmap_mapper::LogicalModel,
    (writes_to, checked_in): (&str, &str),
    last: &Mutex<BTreeMap<usize, String>>,
    arm: impl FnOnce(),
) -> Vec<String> {
    let connection: Connection = account
        .provisioned(&v1.model, &v1.container_definitions())
        .await
        .expect("provisioned");
    let source = common::container(&connection, writes_to).await;
    for i in 0..DOCUMENTS {
        let edit = "seed".to_string();
        let (doc, key) = kind.document(i, &edit);
        for separate in kind.separate(i) {
            source
                .create_item(key.clone(), separate["id"].as_str().unwrap(), &separate, None)
                .await
                .unwrap();
        }
        source.create_item(key, &format!("d-{i}"), &doc, None).await.unwrap();
        last.lock().unwrap().insert(i, edit);
    }
    arm();
    for _ in 0..2 {
        run(plan, &connection, &RunOptions::default().page_size(100), |_| {
            Control::Continue
        })
        .await
        .unwrap_or_else(|e| panic!("{kind:?}: {e}"));
    }
    let checked = common::container(&connection, checked_in).await;
    let documents: BTreeMap<String, Value> = common::query(&checked, "SELECT * FROM c")
        .await
        .into_iter()
        .map(|d| (d["id"].as_str().unwrap_or_default().to_string(), d))
        .collect();
    let last = last.lock().unwrap().clone();
    let mut problems: Vec<String> = last
        .iter()
        .filter_map(|(i, edit)| kind.check(*i, edit, &documents))
        .collect();
    if last.values().all(|e| e == "seed") {
        problems.push("the application never raced".to_string());
    }
    problems
}

fn no_write_lost(kind: Kind) {
    let mut lost = Vec::new();
    for r in 0..RUNS {
        lost.extend(race(kind, r).into_iter().map(|p| format!("run {r}: {p}")));
    }
    assert!(
        lost.is_empty(),
        "{kind:?}: {} problems in {RUNS} runs:\n{}",
        lost.len(),
        lost.join("\n")
    );
}

/// One test a kind of step, each racing the application's writers [`RUNS`] times.
macro_rules! no_write_lost_tests {
    ($($name:ident: $kind:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            no_write_lost(Kind::$kind);
        }
    )*};
}

no_write_lost_tests! {
    splitting_loses_no_write: Split,
    back_filling_loses_no_write: Backfill,
    rewriting_loses_no_write: Rewrite,
    embedding_loses_no_write: Embed,
    claiming_loses_no_write: Claim,
    repartitioning_loses_no_write: Repartition,
    copying_for_unique_keys_loses_no_write: UniqueCopy,
}
