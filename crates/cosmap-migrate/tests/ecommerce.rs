//! The e-commerce model v1 → v2 (`examples/ecommerce/v2/model.json`: `Account.nickname`
//! added, order items made separate documents, `Item` repartitioned by `itemCode`),
//! migrated on the SDK's in-memory engine: every v1 document is accounted for after
//! (counts, and a content hash of each document's data without system properties), the
//! migrated documents are what v2 reads, and a run stopped halfway then run again ends
//! with the same documents as a run straight through.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use azure_data_cosmos::{FeedScope, Query};
use common::load;
use cosmap_mapper::{LogicalModel, Options};
use cosmap_migrate::{plan, run, strip_system, Control, MigrateError, MigrationPlan, RunOptions, Step, LEASE_TYPE};
use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_provision::Connection;
use futures::TryStreamExt;
use serde_json::Value;

const DATABASE: &str = "Ecommerce";

fn models() -> (
    (cosmap_domain::DomainModel, LogicalModel),
    (cosmap_domain::DomainModel, LogicalModel),
) {
    (
        load("examples/ecommerce/model.json"),
        load("examples/ecommerce/v2/model.json"),
    )
}

/// JSON with object keys sorted, as text: the same data gives the same text.
fn canonical(value: &Value) -> String {
    fn sort(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let sorted: BTreeMap<&String, Value> = map.iter().map(|(k, v)| (k, sort(v))).collect();
                Value::Object(sorted.into_iter().map(|(k, v)| (k.clone(), v)).collect())
            }
            Value::Array(items) => Value::Array(items.iter().map(sort).collect()),
            other => other.clone(),
        }
    }
    sort(&strip_system(value)).to_string()
}

/// FNV-1a of the canonical text: a document's content hash.
fn hash(value: &Value) -> u64 {
    canonical(value).bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Every document of every container: container → id → document (without system properties).
async fn snapshot(connection: &Connection) -> BTreeMap<String, BTreeMap<String, Value>> {
    let database = connection.database_client();
    let containers: Vec<String> = database
        .query_containers(Query::from("SELECT * FROM c"), None)
        .await
        .expect("list containers")
        .try_collect::<Vec<_>>()
        .await
        .expect("list containers")
        .into_iter()
        .map(|c| c.id.to_string())
        .collect();
    let mut out = BTreeMap::new();
    for name in containers {
        let client = database.container_client(&name, None).await.expect("container");
        let documents: Vec<Value> = client
            .query_items::<Value>(Query::from("SELECT * FROM c"), FeedScope::full_container(), None)
            .await
            .expect("query")
            .try_collect()
            .await
            .expect("query");
        let mut by_id = BTreeMap::new();
        for d in documents {
            // Claims share their `id` (their type) and differ by partition (`claim`).
            let mut key = format!("{}|{}", d["type"].as_str().unwrap_or(""), d["id"].as_str().expect("id"));
            if let Some(claim) = d.get("claim") {
                key = format!("{key}|{claim}");
            }
            assert!(by_id.insert(key, strip_system(&d)).is_none(), "a duplicate in `{name}`");
        }
        out.insert(name, by_id);
    }
    out
}

/// An account with the v1 containers and verify's v1 samples in them.
async fn v1_account() -> (InMemoryAccount, Connection, usize) {
    let ((v1d, v1), _) = models();
    let account = InMemoryAccount::new().expect("engine");
    let connection = account
        .provisioned(DATABASE, &v1.container_definitions())
        .await
        .expect("v1 provisioned");
    let samples = cosmap_verify::samples::sample_documents(&v1d, &v1).expect("samples");
    let database = connection.cosmos_client().database_client(DATABASE);
    for s in &samples {
        let client = database.container_client(&s.container, None).await.expect("container");
        client
            .create_item(s.partition_key.sdk(), &s.id, &s.body, None)
            .await
            .expect("sample written");
    }
    (account, connection, samples.len())
}

fn the_plan() -> MigrationPlan {
    let ((_, v1), (_, v2)) = models();
    plan(&v1, &v2).expect("v1 → v2 is migrated")
}

#[test]
fn the_plan_creates_first_then_copies_and_splits_and_says_what_may_be_dropped() {
    let plan = the_plan();
    let kinds: Vec<String> = plan.steps.iter().map(common::step_name).collect();
    assert_eq!(
        kinds,
        ["createContainers", "repartition", "splitEmbedded", "nothing", "nothing"],
        "{}",
        plan.to_text()
    );
    let Step::CreateContainers { definitions } = &plan.steps[0] else {
        unreachable!()
    };
    assert_eq!(definitions.len(), 1);
    assert_eq!(definitions[0].id, "Item-itemCode");
    assert_eq!(definitions[0].partition_key.paths, ["/itemCode"]);
    let Step::Repartition { key_from, .. } = &plan.steps[1] else {
        unreachable!()
    };
    assert!(
        key_from.iter().all(|k| k.property == "itemId"),
        "the identity was renamed: the new key is the old one's value: {key_from:?}"
    );
    assert_eq!(key_from.len(), 2, "Item and ProductAvailability: {key_from:?}");
    let text = plan.to_text();
    assert!(
        text.contains("Account/Account.nickname (propertyAdded): nothing to migrate"),
        "{text}"
    );
    assert!(text.contains("container `Item` (the old partition key)"), "{text}");
    assert_eq!(plan.renamed, [("Item".to_string(), "Item-itemCode".to_string())]);
}

/// The element of the JSON list `list` whose `name` is `name`.
fn named<'a>(list: &'a mut Value, name: &str) -> Option<&'a mut Value> {
    list.as_array_mut()?.iter_mut().find(|e| e["name"] == name)
}

#[test]
fn changes_it_cannot_migrate_refuse_the_plan_each_one_named() {
    let ((_, v1), (_, v2)) = models();
    // Backwards, v2 → v1, is migrated: the items are embedded again.
    let back = plan(&v2, &v1).expect("v2 → v1 is migrated");
    common::assert_step(
        &back,
        |s| matches!(s, Step::EmbedSeparate { property, .. } if property == "items"),
    );
    // A date-time retyped to an integer: the conversion is the user's to define.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ecommerce/model.json");
    let mut spec: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let account = named(&mut spec["entities"], "Account").unwrap();
    let created = named(&mut account["attributes"], "createdAt").unwrap();
    created["type"] = serde_json::json!("integer");
    let retyped = cosmap_mapper::map(
        &cosmap_domain::from_slice(spec.to_string().as_bytes(), None).unwrap(),
        &Options::default(),
    );
    let Err(MigrateError::Refused(refused)) = plan(&v1, &retyped) else {
        panic!("a date-time retyped to an integer is refused");
    };
    let message = MigrateError::Refused(refused).to_string();
    assert!(
        message.contains("Account/Account.createdAt (propertyRetyped"),
        "{message}"
    );
    assert!(
        message.contains("a dateTime is not rewritten as an integer"),
        "{message}"
    );
    assert!(message.contains("nothing was done"), "{message}");
}

/// Checks that every v1 document is accounted for in `after`, and that v2 reads it.
fn accounted_for(
    before: &BTreeMap<String, BTreeMap<String, Value>>,
    after: &BTreeMap<String, BTreeMap<String, Value>>,
    v2: &LogicalModel,
) {
    let mut split_items = 0;
    for (container, documents) in before {
        let now = &after[container];
        for (key, old) in documents {
            let id = old["id"].as_str().unwrap();
            match (container.as_str(), old["type"].as_str().unwrap()) {
                ("Item", _) => {
                    // Left as it was, and copied with its new key.
                    assert_eq!(hash(&now[key]), hash(old), "{key} untouched in Item");
                    let mut copy = after["Item-itemCode"][key].clone();
                    assert_eq!(copy["itemCode"], old["itemId"]);
                    copy.as_object_mut().unwrap().remove("itemCode");
                    assert_eq!(hash(&copy), hash(old), "{key} copied");
                }
                ("Order", "order") => {
                    // Rebuilt from the holder and its item documents, it is the old one.
                    let mut rebuilt = now[key].clone();
                    assert!(rebuilt.get("items").is_none(), "{key} rewritten without items");
                    let items: Vec<Value> = (0..)
                        .map_while(|i| now.get(&format!("orderItem|{id}-items-{i}")))
                        .map(|d| {
                            assert_eq!(d["orderId"], old["orderId"]);
                            let mut d = d.clone();
                            for k in ["id", "type", "orderId"] {
                                d.as_object_mut().unwrap().remove(k);
                            }
                            d
                        })
                        .collect();
                    split_items += items.len();
                    if old.get("items").is_some() {
                        rebuilt["items"] = Value::Array(items);
                    }
                    assert_eq!(hash(&rebuilt), hash(old), "{key} accounted for");
                }
                _ => assert_eq!(hash(&now[key]), hash(old), "{container}/{key} untouched"),
            }
        }
    }
    let old_items: usize = before["Order"]
        .values()
        .filter_map(|d| d.get("items").and_then(Value::as_array))
        .map(Vec::len)
        .sum();
    assert!(old_items > 0);
    assert_eq!(split_items, old_items, "every embedded item is a document");
    // Counts: each container as before, plus the new documents and one lease a step.
    let count = |m: &BTreeMap<String, BTreeMap<String, Value>>, c: &str, pred: &dyn Fn(&Value) -> bool| {
        m[c].values().filter(|d| pred(d)).count()
    };
    let not_lease = |d: &Value| d["type"] != LEASE_TYPE;
    assert_eq!(count(after, "Item", &|_| true), before["Item"].len());
    assert_eq!(count(after, "Item-itemCode", &not_lease), before["Item"].len());
    assert_eq!(count(after, "Item-itemCode", &|d| !not_lease(d)), 1);
    assert_eq!(count(after, "Order", &not_lease), before["Order"].len() + old_items);
    for c in before.keys().filter(|c| !["Item", "Order"].contains(&c.as_str())) {
        assert_eq!(after[c].len(), before[c].len(), "{c}");
    }
    // What v2 reads: every document in a v2 container (the repartitioned one under its
    // new name) is of a type the container has, in its partition, with the required
    // attributes of its type.
    for c in &v2.containers {
        let name = if c.name == "Item" {
            "Item-itemCode"
        } else {
            c.name.as_str()
        };
        for d in after[name].values().filter(|d| not_lease(d)) {
            let t = d["type"].as_str().unwrap();
            let ty = c
                .document_types
                .iter()
                .find(|x| x.discriminator == t)
                .unwrap_or_else(|| panic!("`{t}` is not a type of v2's `{}`", c.name));
            assert!(d[&c.partition_key_property].is_string(), "{name}: {d}");
            for a in ty.attributes.iter().filter(|a| !a.optional && !a.many) {
                assert!(d.get(&a.name).is_some(), "{name}: `{t}` without `{}`: {d}", a.name);
            }
        }
    }
}

#[tokio::test(flavor = "current_thread")]
async fn v1_migrated_to_v2_accounts_for_every_document_and_v2_reads_them() {
    let ((_, _), (v2d, v2)) = models();
    let (_account, connection, written) = v1_account().await;
    let before = snapshot(&connection).await;
    assert_eq!(before.values().map(BTreeMap::len).sum::<usize>(), written);
    let plan = the_plan();
    let mut calls = Vec::new();
    let report = run(&plan, &connection, &RunOptions::default().page_size(7), |p| {
        calls.push(p.clone());
        Control::Continue
    })
    .await
    .expect("migrated");
    assert!(!report.stopped);
    assert!(report.steps.iter().all(|s| s.caught_up), "{report:?}");
    let after = snapshot(&connection).await;
    accounted_for(&before, &after, &v2);
    // Progress: documents done, up to the total, and the request units the SDK reports.
    let last = calls
        .iter()
        .rev()
        .find(|p| p.step.contains("into `Item-itemCode`"))
        .expect("progress");
    assert_eq!(last.done, before["Item"].len() as u64);
    assert_eq!(last.total, Some(before["Item"].len() as u64));
    assert!(report.request_units > 0.0, "{report:?}");
    let text = report.to_text();
    assert!(text.contains("readers can switch"), "{text}");
    assert!(text.contains("nothing was deleted"), "{text}");

    // Run again: nothing to migrate, nothing changes.
    common::assert_second_run_changes_nothing(&plan, &connection).await;
    let third = snapshot(&connection).await;
    assert_eq!(strip_leases(&third), strip_leases(&after));

    // cosmap verify passes on v2 (the design the migrated documents now follow).
    let verified = cosmap_verify::verify(
        &v2d,
        &v2,
        cosmap_verify::Engine::InMemory,
        cosmap_provision::Settings::default(),
    )
    .await
    .expect("verify runs");
    assert!(verified.passed(), "{}", verified.to_text());
}

fn strip_leases(m: &BTreeMap<String, BTreeMap<String, Value>>) -> BTreeMap<String, BTreeMap<String, String>> {
    m.iter()
        .map(|(c, docs)| {
            (
                c.clone(),
                docs.iter()
                    .filter(|(_, d)| d["type"] != LEASE_TYPE)
                    .map(|(k, d)| (k.clone(), canonical(d)))
                    .collect(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn a_migration_stopped_halfway_and_run_again_ends_as_one_run_straight_through() {
    let ((_, _), (_, v2)) = models();
    let plan = the_plan();

    let (_straight_account, straight, _) = v1_account().await;
    run(&plan, &straight, &RunOptions::default().page_size(4), |_| {
        Control::Continue
    })
    .await
    .expect("straight through");
    let expected = strip_leases(&snapshot(&straight).await);

    for stop_at in [5_u64, 13] {
        let (_account, connection, _) = v1_account().await;
        let before = snapshot(&connection).await;
        // Stop in the middle of a page of the split (after some leases were written):
        // the documents written after the last lease are written again on the restart.
        let stopped = run(&plan, &connection, &RunOptions::default().page_size(4), |p| {
            if p.step.contains("orderItem") && p.done == stop_at {
                Control::Stop
            } else {
                Control::Continue
            }
        })
        .await
        .expect("stopped run");
        assert!(stopped.stopped);
        assert!(!stopped.steps.last().unwrap().caught_up);
        let halfway = snapshot(&connection).await;
        let holders_left = halfway["Order"]
            .values()
            .filter(|d| d["type"] == "order" && d.get("items").is_some())
            .count();
        assert!(holders_left > 0, "stopped halfway");
        let resumed = run(&plan, &connection, &RunOptions::default().page_size(4), |_| {
            Control::Continue
        })
        .await
        .expect("resumed");
        assert!(!resumed.stopped);
        let split = resumed.steps.iter().find(|s| s.step.contains("orderItem")).unwrap();
        assert!(
            split.migrated < before["Order"].values().filter(|d| d["type"] == "order").count() as u64,
            "resumed from the lease, not from the beginning: {split:?}"
        );
        let after = snapshot(&connection).await;
        accounted_for(&before, &after, &v2);
        assert_eq!(
            strip_leases(&after),
            expected,
            "same documents, same hashes, no duplicates"
        );
    }
}
