//! [`rehearse`]: a migration run on sample data, on the SDK's in-memory engine, before
//! it runs on an account. The old model's containers are provisioned and filled with
//! `cosmap-verify`'s samples of it; the plan runs as it would on the account; then
//! every document in the new model's containers (under their new names where the plan
//! copies one) must read as the new generated types read ([`crate::readable`]), and
//! every access pattern of the new model must pass on them
//! ([`cosmap_verify::verify_stored`]).

use std::collections::{BTreeMap, BTreeSet};

use azure_data_cosmos::{FeedScope, Query};
use cosmap_domain::DomainModel;
use cosmap_mapper::{LogicalModel, PropertyHolder};
use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_provision::{Connection, ProvisionError};
use cosmap_verify::{EngineInfo, EngineKind, StoredContainer};
use serde::Serialize;
use serde_json::Value;

use crate::error::MigrateError;
use crate::plan::{MigrationPlan, Step, LEASE_TYPE};
use crate::run::{run_reporting, Control, MigrationReport, RunOptions};

/// A model and the logical model mapped from it.
#[derive(Debug, Clone, Copy)]
pub struct Mapped<'a> {
    /// The model.
    pub domain: &'a DomainModel,
    /// Its logical model.
    pub logical: &'a LogicalModel,
}

/// How many sample documents of one type were written before the migration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Written {
    /// The old model's container.
    pub container: String,
    /// The document type.
    pub document_type: String,
    /// How many.
    pub documents: usize,
}

/// A document the new model's types would not read after the migration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Unreadable {
    /// The container it is in.
    pub container: String,
    /// Its id.
    pub id: String,
    /// Why it does not read.
    pub reason: String,
}

/// What a rehearsal wrote, what the migration did, and what the new model made of it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rehearsal {
    /// The old model's samples written, by container and document type.
    pub written: Vec<Written>,
    /// The migration's report (its `failed` says what stopped it, if anything did).
    pub migration: MigrationReport,
    /// The documents of the new model's containers, after the migration.
    pub documents: usize,
    /// Those the new generated types would not read.
    pub unreadable: Vec<Unreadable>,
    /// Documents the plan leaves for the user to delete (embedded elsewhere now, or of
    /// a type the new model dropped), by container and `type`: not judged.
    pub left_to_delete: Vec<Written>,
    /// The new model's access patterns run on them (absent when the migration failed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<cosmap_verify::Report>,
}

impl Rehearsal {
    /// Whether the migration ran through, every document reads and every pattern passed.
    pub fn passed(&self) -> bool {
        self.migration.failed.is_none()
            && self.unreadable.is_empty()
            && self.verification.as_ref().is_some_and(cosmap_verify::Report::passed)
    }

    /// The rehearsal as text: what was written, the migration's report, what reads.
    pub fn to_text(&self) -> String {
        let total: usize = self.written.iter().map(|w| w.documents).sum();
        let mut out = format!("Rehearsal on the in-memory engine: {total} sample documents of the old model written\n");
        for w in &self.written {
            out.push_str(&format!("  {}/{}: {}\n", w.container, w.document_type, w.documents));
        }
        out.push_str("\nMigration:\n");
        out.push_str(&self.migration.to_text());
        if let Some(failed) = &self.migration.failed {
            out.push_str(&format!("stopped by: {failed}\n"));
        }
        out.push_str(&format!(
            "\nAfter it: {} documents in the new model's containers, {} the new types would not read\n",
            self.documents,
            self.unreadable.len()
        ));
        for u in &self.unreadable {
            out.push_str(&format!("  {} `{}`: {}\n", u.container, u.id, u.reason));
        }
        for l in &self.left_to_delete {
            out.push_str(&format!(
                "  {} `{}` documents left for you to delete, as the plan says: {} (not judged)\n",
                l.container, l.document_type, l.documents
            ));
        }
        if let Some(report) = &self.verification {
            out.push_str("\nThe new model's access patterns on them:\n");
            out.push_str(&report.to_text());
        }
        out.push_str(if self.passed() {
            "\nRehearsal passed: the migration runs, every document reads, every pattern passes.\n"
        } else {
            "\nRehearsal FAILED: see above; nothing was sent to any account.\n"
        });
        out
    }
}

/// The database a rehearsal uses on its in-memory account.
const DATABASE: &str = "rehearsal";

/// Rehearses `plan` (from `old` to `new`) on a new in-memory account; see the module
/// docs. `Err` only for what stops it before there is anything to report (samples that
/// cannot be built or written, the engine failing).
pub async fn rehearse(old: Mapped<'_>, new: Mapped<'_>, plan: &MigrationPlan) -> Result<Rehearsal, MigrateError> {
    let account = InMemoryAccount::new()?;
    let connection = account
        .provisioned(DATABASE, &old.logical.container_definitions())
        .await?;
    let written = write_samples(&connection, old, new).await?;
    let (migration, error) = run_reporting(plan, &connection, &RunOptions::default(), |_| Control::Continue).await;
    if error.is_some() {
        return Ok(Rehearsal {
            written,
            migration,
            documents: 0,
            unreadable: Vec::new(),
            left_to_delete: Vec::new(),
            verification: None,
        });
    }
    let leave = left_to_delete(plan, old.logical);
    let mut stored = Vec::new();
    let mut unreadable = Vec::new();
    let mut left: BTreeMap<(String, String), usize> = BTreeMap::new();
    for c in &new.logical.containers {
        let stored_in = plan
            .renamed
            .iter()
            .find(|(from, _)| *from == c.name)
            .map_or(c.name.clone(), |(_, to)| to.clone());
        let mut documents = documents(&connection, &stored_in).await?;
        documents.retain(|d| {
            let kind = d.get("type").and_then(Value::as_str).unwrap_or_default();
            let key = (stored_in.clone(), kind.to_string());
            let kept = !leave.contains(&key);
            if !kept {
                *left.entry(key).or_default() += 1;
            }
            kept
        });
        unreadable.extend(documents.iter().filter_map(|d| {
            crate::readable::unreadable(c, d).map(|reason| Unreadable {
                container: stored_in.clone(),
                id: d.get("id").and_then(Value::as_str).unwrap_or("<no id>").to_string(),
                reason,
            })
        }));
        stored.push(StoredContainer {
            container: c.name.clone(),
            stored_in,
            documents,
        });
    }
    let engine = EngineInfo {
        kind: EngineKind::InMemory,
        endpoint: None,
        database: DATABASE.to_string(),
    };
    let verification = cosmap_verify::verify_stored(new.domain, new.logical, &connection, engine, &stored).await?;
    Ok(Rehearsal {
        written,
        migration,
        documents: stored.iter().map(|s| s.documents.len()).sum(),
        unreadable,
        left_to_delete: counted(left),
        verification: Some(verification),
    })
}

/// `(container, type)` of the documents `plan` leaves for the user to delete: the
/// children an `embedSeparate` embedded, the types a `deleteYourself` names (by their
/// name in `old`).
fn left_to_delete(plan: &MigrationPlan, old: &LogicalModel) -> BTreeSet<(String, String)> {
    plan.steps
        .iter()
        .filter_map(|step| match step {
            Step::EmbedSeparate { container, child, .. } => Some((container.clone(), child.clone())),
            Step::DeleteYourself {
                container,
                document_type,
            } => {
                let kind = old
                    .container(container)
                    .and_then(|c| c.document_type(document_type))
                    .map_or(document_type.clone(), |d| d.discriminator.clone());
                Some((container.clone(), kind))
            }
            _ => None,
        })
        .collect()
}

/// The attributes `model` holds unique (by a unique key or claims): a rehearsal's old
/// samples hold them all different, as data the new model accepts must.
fn unique_attributes(model: &LogicalModel) -> BTreeSet<String> {
    fn walk(holder: PropertyHolder<'_>, out: &mut BTreeSet<String>) {
        out.extend(holder.attributes().iter().filter(|a| a.unique).map(|a| a.name.clone()));
        for e in holder.embedded() {
            walk(PropertyHolder::Embedded(e), out);
        }
    }
    let mut out = BTreeSet::new();
    for d in model.containers.iter().flat_map(|c| c.document_types.iter()) {
        walk(PropertyHolder::Document(d), &mut out);
    }
    out
}

/// Writes verify's samples of `old` (the attributes `new` holds unique all different);
/// how many of each type.
async fn write_samples(
    connection: &Connection,
    old: Mapped<'_>,
    new: Mapped<'_>,
) -> Result<Vec<Written>, MigrateError> {
    let distinct = unique_attributes(new.logical);
    let samples = cosmap_verify::samples::sample_documents_with_distinct(old.domain, old.logical, &distinct)?;
    let database = connection.database_client();
    let mut counts: BTreeMap<(String, String), usize> = BTreeMap::new();
    for s in &samples {
        let operation = format!("write sample `{}` into `{}`", s.id, s.container);
        let client = connection
            .request(&operation, &[], || database.container_client(&s.container, None))
            .await?
            .ok_or_else(|| no_client(&operation))?;
        connection
            .request(&operation, &[], || {
                client.create_item(s.partition_key.sdk(), &s.id, &s.body, None)
            })
            .await?;
        *counts
            .entry((s.container.clone(), s.document_type.clone()))
            .or_default() += 1;
    }
    Ok(counted(counts))
}

/// The documents counted by container and document type, in that order.
fn counted(counts: BTreeMap<(String, String), usize>) -> Vec<Written> {
    let written = |((container, document_type), documents)| Written {
        container,
        document_type,
        documents,
    };
    counts.into_iter().map(written).collect()
}

/// Every document of `container` but the migration's leases, in id order.
async fn documents(connection: &Connection, container: &str) -> Result<Vec<Value>, MigrateError> {
    let database = connection.database_client();
    let operation = format!("read every document of `{container}`");
    let client = connection
        .request(&operation, &[], || database.container_client(container, None))
        .await?
        .ok_or_else(|| no_client(&operation))?;
    let everything = Query::from("SELECT * FROM c");
    let mut found = connection
        .query_all(&operation, &client, &everything, &FeedScope::full_container())
        .await?;
    found.retain(|d| d.get("type").and_then(Value::as_str) != Some(LEASE_TYPE));
    found.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
    Ok(found)
}

fn no_client(operation: &str) -> ProvisionError {
    ProvisionError::Client {
        operation: operation.to_string(),
        message: "no container client".into(),
    }
}
