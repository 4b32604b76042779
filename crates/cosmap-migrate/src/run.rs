//! [`run`]: sends a [`MigrationPlan`]'s steps through a `cosmap-provision`
//! [`Connection`] (its retries, timeout and error messages).

mod conditional;
mod members;

use std::collections::HashMap;
use std::num::NonZeroU32;

use azure_data_cosmos::clients::ContainerClient;
use azure_data_cosmos::models::ChangeFeedItem;
use azure_data_cosmos::options::{ChangeFeedOptions, ChangeFeedStartFrom, MaxItemCountHint};
use azure_data_cosmos::{FeedScope, PartitionKey, Query};
use cosmap_mapper::operations::sql_property;
use cosmap_provision::{apply_reporting, ApplyOptions, Connection, ProvisionError, Throughput};
use futures::{StreamExt, TryStreamExt};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::MigrateError;
use crate::plan::{push_list, Conversion, KeyFrom, LeaseRef, MigrationPlan, Step, LEASE_TYPE};
use conditional::{timestamp, Outcome, Place, CONFLICT_RETRIES};

/// The properties Cosmos DB adds to every document; left out of what is copied.
pub const SYSTEM_PROPERTIES: [&str; 6] = ["_rid", "_etag", "_ts", "_self", "_attachments", "_lsn"];

/// `document` without [`SYSTEM_PROPERTIES`].
pub fn strip_system(document: &Value) -> Value {
    match document {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !SYSTEM_PROPERTIES.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// How a run goes.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RunOptions {
    /// Changes asked for per change feed page; the lease is written after each page.
    pub page_size: u32,
    /// Create the database when it does not exist (off: a missing database stops the
    /// run before anything is sent, naming it).
    pub create_database: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            page_size: 100,
            create_database: false,
        }
    }
}

impl RunOptions {
    /// Whether a missing database is created (`cosmap migrate --create-database`).
    pub fn create_database(mut self, on: bool) -> Self {
        self.create_database = on;
        self
    }

    /// Changes per change feed page (at least 1).
    pub fn page_size(mut self, size: u32) -> Self {
        self.page_size = size.max(1);
        self
    }
}

/// What the progress callback answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// Go on.
    Continue,
    /// Stop now, as if the process were killed: the lease stays at the last page
    /// finished, and a later run resumes from it.
    Stop,
}

/// Where a step is, given to the progress callback after each document.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    /// The step, in words.
    pub step: String,
    /// Documents migrated by this run of the step.
    pub done: u64,
    /// Documents the step had left when this run started (`None`: the count query failed).
    pub total: Option<u64>,
    /// Request units charged by this run so far (as the SDK reports them).
    pub request_units: f64,
}

/// What one step did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepReport {
    /// The step, in words.
    pub step: String,
    /// Changes read from the change feed (documents of other types included).
    pub read: u64,
    /// Documents migrated (copied, or holders split).
    pub migrated: u64,
    /// Documents written (copies, new documents, rewritten holders, leases).
    pub written: u64,
    /// Request units charged.
    pub request_units: f64,
    /// The feed was read to its end: the target has caught up (run again to catch up
    /// with what was written meanwhile).
    pub caught_up: bool,
}

/// What a run did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MigrationReport {
    /// One per step run.
    pub steps: Vec<StepReport>,
    /// The progress callback stopped the run: run again to resume.
    pub stopped: bool,
    /// What stopped the run with an error, after the steps listed did what they say
    /// (see [`run_reporting`]); a rerun resumes from the leases.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
    /// Request units charged by the whole run.
    pub request_units: f64,
    /// Containers to switch readers and writers to: `(model name, new name)`.
    pub renamed: Vec<(String, String)>,
    /// What the user may drop once satisfied (nothing was deleted).
    pub droppable: Vec<String>,
    /// What is left for the user to do: run the generated workers that back-fill new
    /// derived data on their first run ([`Step::RunWorker`]), delete the documents of
    /// types the new model no longer has ([`Step::DeleteYourself`]).
    pub to_run: Vec<String>,
}

impl MigrationReport {
    /// The report as text.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for s in &self.steps {
            out.push_str(&format!(
                "{}\n    {} read, {} migrated, {} written, {:.1} RU{}\n",
                s.step,
                s.read,
                s.migrated,
                s.written,
                s.request_units,
                if s.caught_up { ", caught up" } else { "" }
            ));
        }
        if self.stopped {
            out.push_str("stopped: run `cosmap migrate` again to resume from the leases\n");
            return out;
        }
        if self.failed.is_some() {
            out.push_str(&format!(
                "failed after what is listed above, which is kept: run `cosmap migrate` again to resume from the leases ({:.1} RU in all)\n",
                self.request_units
            ));
            return out;
        }
        push_list(
            &mut out,
            "still to do, before the new readers rely on it:",
            &self.to_run,
        );
        let renamed = self.renamed.iter().map(|(from, to)| format!("`{to}` has caught up with `{from}`: readers can switch to it (run again to copy what writers change until they switch too)\n"));
        out.extend(renamed);
        push_list(
            &mut out,
            "nothing was deleted; you may drop, once satisfied:",
            &self.droppable,
        );
        out.push_str(&format!("{:.1} RU in all\n", self.request_units));
        out
    }
}

/// Runs `plan`'s steps in order on `connection`'s database; `progress` is called after
/// each document migrated and may stop the run ([`Control::Stop`]).
pub async fn run(
    plan: &MigrationPlan,
    connection: &Connection,
    options: &RunOptions,
    progress: impl FnMut(&Progress) -> Control,
) -> Result<MigrationReport, MigrateError> {
    match run_reporting(plan, connection, options, progress).await {
        (report, None) => Ok(report),
        (_, Some(error)) => Err(error),
    }
}

/// [`run`], answering the report also when an error stops the run: the steps done
/// and the one that failed, with what it did before the error (`failed` holds the
/// error's message), so that a caller can say what was done.
pub async fn run_reporting(
    plan: &MigrationPlan,
    connection: &Connection,
    options: &RunOptions,
    mut progress: impl FnMut(&Progress) -> Control,
) -> (MigrationReport, Option<MigrateError>) {
    let mut report = MigrationReport {
        steps: Vec::new(),
        stopped: false,
        failed: None,
        request_units: 0.0,
        renamed: plan.renamed.clone(),
        droppable: plan.droppable.clone(),
        to_run: plan
            .steps
            .iter()
            .filter(|s| matches!(s, Step::RunWorker { .. } | Step::DeleteYourself { .. }))
            .map(Step::describe)
            .collect(),
    };
    if let Err(error) = database_to_use(connection, options).await {
        report.failed = Some(error.to_string());
        return (report, Some(error));
    }
    for step in &plan.steps {
        let (step_report, outcome) = match step {
            Step::CreateContainers { definitions } => create_containers(connection, step, definitions, options).await,
            Step::Nothing { .. } | Step::RunWorker { .. } | Step::DeleteYourself { .. } => continue,
            Step::Repartition { .. }
            | Step::CopyWithUniqueKeys { .. }
            | Step::SplitEmbedded { .. }
            | Step::Rewrite { .. }
            | Step::EmbedSeparate { .. }
            | Step::ClaimValues { .. }
            | Step::BackfillDefault { .. } => match Feed::new(connection, step, options).await {
                Ok(feed) => feed.run(&mut progress).await,
                Err(error) => (StepReport::new(step.describe()), Err(error)),
            },
        };
        report.request_units += step_report.request_units;
        report.steps.push(step_report);
        match outcome {
            Ok(false) => {}
            Ok(true) => {
                report.stopped = true;
                break;
            }
            Err(error) => {
                report.failed = Some(error.to_string());
                return (report, Some(error));
            }
        }
    }
    (report, None)
}

/// `Err` naming the database when it does not exist and is not to be created.
async fn database_to_use(connection: &Connection, options: &RunOptions) -> Result<(), MigrateError> {
    if options.create_database || cosmap_provision::database_exists(connection).await? {
        return Ok(());
    }
    Err(ProvisionError::DatabaseMissing {
        database: connection.database().to_string(),
        endpoint: connection.endpoint().to_string(),
    }
    .into())
}

/// [`Step::CreateContainers`]: what it created, also when it stops on an error.
async fn create_containers(
    connection: &Connection,
    step: &Step,
    definitions: &[cosmap_mapper::ContainerDefinition],
    options: &RunOptions,
) -> (StepReport, Result<bool, MigrateError>) {
    let mut report = StepReport::new(step.describe());
    let planned = match cosmap_provision::plan(connection, definitions, Throughput::None).await {
        Ok(planned) => planned,
        Err(error) => return (report, Err(error.into())),
    };
    let apply_options = ApplyOptions::default().create_database(options.create_database);
    let mut written = 0;
    let applied = apply_reporting(connection, &planned, &apply_options, &mut |a| {
        if a.action != cosmap_provision::AppliedAction::FoundCreated {
            written += 1;
        }
    })
    .await;
    report.written = written;
    match applied {
        Ok(_) => {
            report.caught_up = true;
            (report, Ok(false))
        }
        Err(error) => (report, Err(error.into())),
    }
}

impl StepReport {
    fn new(step: String) -> StepReport {
        StepReport {
            step,
            read: 0,
            migrated: 0,
            written: 0,
            request_units: 0.0,
            caught_up: false,
        }
    }
}

/// A step that reads a change feed.
struct Feed<'a> {
    connection: &'a Connection,
    step: &'a Step,
    name: String,
    source: ContainerClient,
    target: ContainerClient,
    lease: &'a LeaseRef,
    page_size: u32,
    report: StepReport,
    /// The `_etag` of each document this run wrote, by partition key and id: a copy
    /// this run made may be replaced by a newer version of its source.
    wrote: HashMap<(String, String), String>,
}

impl<'a> Feed<'a> {
    async fn new(connection: &'a Connection, step: &'a Step, options: &RunOptions) -> Result<Feed<'a>, MigrateError> {
        let (source, target) = match step {
            Step::Repartition { source, target, .. } | Step::CopyWithUniqueKeys { source, target, .. } => {
                (source.as_str(), target.as_str())
            }
            Step::ClaimValues {
                owner_container,
                container,
                ..
            } => (owner_container.as_str(), container.as_str()),
            Step::SplitEmbedded { container, .. }
            | Step::Rewrite { container, .. }
            | Step::EmbedSeparate { container, .. }
            | Step::BackfillDefault { container, .. } => (container.as_str(), container.as_str()),
            _ => unreachable!("only feed steps"),
        };
        let lease = step.lease().expect("feed steps have a lease");
        let name = step.describe();
        Ok(Feed {
            connection,
            step,
            source: container(connection, source).await?,
            target: container(connection, target).await?,
            lease,
            page_size: options.page_size,
            report: StepReport::new(name.clone()),
            name,
            wrote: HashMap::new(),
        })
    }

    /// `error`, or, when it is an answer Cosmos DB never sends, the server's missing
    /// change feed said in one line (no provisioning hint: provisioning is not the cause).
    fn missing_feature(&self, error: ProvisionError) -> MigrateError {
        match error {
            ProvisionError::BadAnswer { endpoint, message, .. } => MigrateError::ServerFeature {
                endpoint,
                feature: "a change feed (its partition key ranges do not read)".to_string(),
                cause: message,
            },
            other => other.into(),
        }
    }

    fn data(&self, message: impl Into<String>) -> MigrateError {
        MigrateError::Data {
            step: self.name.clone(),
            message: message.into(),
        }
    }

    /// Reads the feed from the lease and migrates each change: the step's report, and
    /// whether the progress callback stopped it (or the error that did).
    async fn run(
        mut self,
        progress: &mut impl FnMut(&Progress) -> Control,
    ) -> (StepReport, Result<bool, MigrateError>) {
        let outcome = self.read_feed(progress).await;
        (self.report, outcome)
    }

    /// The step's lease document, if it has one. Read by a query in the lease's
    /// partition (its key also in the SQL), not by a point read: Cosmos DB answers
    /// both alike, and local servers that answer a point read of a missing document
    /// with 500 instead of 404 (`@vercel/cosmosdb-server`) answer the query right.
    async fn read_lease(&self) -> Result<Option<Value>, MigrateError> {
        let operation = format!("read lease `{}` in `{}`", self.lease.id, self.lease.container);
        let key = sql_property("c", &self.lease.partition_key_property);
        let sql = format!("SELECT * FROM c WHERE c.id = @id AND {key} = @key");
        let query = Query::from(sql)
            .with_parameter("@id", &self.lease.id)
            .and_then(|q| q.with_parameter("@key", self.lease.key()))
            .map_err(|e| self.data(format!("the lease query: {e}")))?;
        let scope = FeedScope::partition(PartitionKey::from(self.lease.key()));
        let found = self
            .connection
            .query_all(&operation, &self.target, &query, &scope)
            .await?;
        Ok(found.into_iter().next())
    }

    /// Where the lease says the last run stopped reading the change feed (`None`: from
    /// the beginning).
    async fn lease_continuation(&self) -> Result<Option<azure_data_cosmos::feed::ContinuationToken>, MigrateError> {
        let lease = self.read_lease().await?;
        let Some(token) = lease
            .as_ref()
            .and_then(|l| l.get("continuation"))
            .filter(|t| !t.is_null())
        else {
            return Ok(None);
        };
        let token = serde_json::from_value(token.clone());
        Ok(Some(
            token.map_err(|e| self.data(format!("the lease's continuation: {e}")))?,
        ))
    }

    /// Reads the source's change feed from the lease's continuation, page by page,
    /// applying the step to each changed document and writing the lease after each
    /// page; `true` when `progress` asked to stop.
    async fn read_feed(&mut self, progress: &mut impl FnMut(&Progress) -> Control) -> Result<bool, MigrateError> {
        let total = self.remaining().await;
        let token = self.lease_continuation().await?;
        let ranges = self
            .connection
            .request("read the feed ranges", &[], || self.source.read_feed_ranges(None))
            .await
            .map_err(|e| self.missing_feature(e))?
            .map(|r| r.len())
            .unwrap_or(1)
            .max(1);
        let size = NonZeroU32::new(self.page_size.max(1)).expect("at least 1");
        let mut options = ChangeFeedOptions::default().with_max_item_count(MaxItemCountHint::Limit(size));
        if let Some(token) = token {
            options = options.with_continuation_token(token);
        }
        let source = self.source.clone();
        let mut pages = self
            .connection
            .request("read the change feed", &[], || {
                let options = options.clone();
                let source = source.clone();
                async move {
                    source
                        .query_change_feed::<Value>(
                            FeedScope::full_container(),
                            ChangeFeedStartFrom::Beginning,
                            Some(options),
                        )
                        .await
                }
            })
            .await?
            .ok_or_else(|| self.data("no change feed"))?;
        let mut empty = 0;
        while empty < ranges {
            let Some(page) = pages.next().await else {
                break;
            };
            let page = page.map_err(|e| self.data(format!("reading the change feed: {e}")))?;
            self.report.request_units += charge(page.headers());
            let changes: Vec<&Value> = page
                .items()
                .iter()
                .filter_map(ChangeFeedItem::current)
                .filter(|d| d.get("type").and_then(Value::as_str) != Some(LEASE_TYPE))
                .collect();
            if changes.is_empty() {
                empty += 1;
                continue;
            }
            empty = 0;
            for document in changes {
                self.report.read += 1;
                if self.apply(document).await? {
                    self.report.migrated += 1;
                    let control = progress(&Progress {
                        step: self.name.clone(),
                        done: self.report.migrated,
                        total,
                        request_units: self.report.request_units,
                    });
                    if control == Control::Stop {
                        return Ok(true);
                    }
                }
            }
            let token = pages.to_continuation_token().map_err(|e| self.data(e.to_string()))?;
            self.write_lease(&token).await?;
        }
        self.report.caught_up = true;
        Ok(false)
    }

    /// Documents the step has left: the source's documents, or the holders still
    /// holding the property. `None` when the count query fails.
    async fn remaining(&self) -> Option<u64> {
        let (sql, parameters) = match self.step {
            Step::Repartition { .. } | Step::CopyWithUniqueKeys { .. } => (
                "SELECT VALUE COUNT(1) FROM c WHERE c.type != @lease".to_string(),
                vec![("@lease", LEASE_TYPE.to_string())],
            ),
            Step::SplitEmbedded { holder, property, .. } => (
                format!(
                    "SELECT VALUE COUNT(1) FROM c WHERE c.type = @holder AND IS_DEFINED({})",
                    sql_property("c", property)
                ),
                vec![("@holder", holder.clone())],
            ),
            Step::BackfillDefault {
                document_type, path, ..
            } => match path.as_slice() {
                [property] => (
                    format!(
                        "SELECT VALUE COUNT(1) FROM c WHERE c.type = @type AND NOT IS_DEFINED({})",
                        sql_property("c", property)
                    ),
                    vec![("@type", document_type.clone())],
                ),
                // Inside embedded objects: every document of the type, an upper bound.
                _ => (
                    "SELECT VALUE COUNT(1) FROM c WHERE c.type = @type".to_string(),
                    vec![("@type", document_type.clone())],
                ),
            },
            // Every document of the type: an upper bound.
            Step::Rewrite { document_type, .. }
            | Step::EmbedSeparate {
                child: document_type, ..
            }
            | Step::ClaimValues {
                owner: document_type, ..
            } => (
                "SELECT VALUE COUNT(1) FROM c WHERE c.type = @type".to_string(),
                vec![("@type", document_type.clone())],
            ),
            _ => return None,
        };
        // `COUNT` across partitions, or (where the engine refuses an aggregate across
        // partitions, as the in-memory one does) one `1` per document, counted here.
        let listing = sql.replacen("SELECT VALUE COUNT(1)", "SELECT VALUE 1", 1);
        for (sql, summed) in [(sql, true), (listing, false)] {
            let mut query = Query::from(sql);
            for (name, value) in &parameters {
                query = query.with_parameter(*name, value).ok()?;
            }
            let source = &self.source;
            let values = self
                .connection
                .request("count the documents to migrate", &[], || {
                    let query = query.clone();
                    async move {
                        source
                            .query_items::<u64>(query, FeedScope::full_container(), None)
                            .await?
                            .try_collect::<Vec<u64>>()
                            .await
                    }
                })
                .await;
            if let Ok(Some(values)) = values {
                return Some(if summed {
                    values.iter().sum()
                } else {
                    values.len() as u64
                });
            }
        }
        None
    }

    /// Migrates one changed document; `false` when it needs nothing (another type, or
    /// already migrated).
    async fn apply(&mut self, document: &Value) -> Result<bool, MigrateError> {
        let id = text(document, "id").ok_or_else(|| self.data("a document without an `id`"))?;
        match self.step {
            Step::Repartition {
                target,
                new_key,
                key_from,
                ..
            } => self.repartition(document, &id, target, new_key, key_from).await,
            Step::CopyWithUniqueKeys { target, key, .. } => {
                let body = strip_system(document);
                let value = text(document, key)
                    .ok_or_else(|| self.data(format!("document `{id}` has no text partition key `{key}`")))?;
                let at = self.in_target(target, value);
                self.write_new(&at, &id, &body, timestamp(document)).await
            }
            Step::SplitEmbedded {
                container,
                holder,
                partition_key_property,
                ..
            } => {
                if text(document, "type").as_deref() != Some(holder.as_str()) {
                    return Ok(false);
                }
                self.split(document, &id, container, holder, partition_key_property)
                    .await
            }
            step @ (Step::BackfillDefault {
                container,
                document_type,
                partition_key_property,
                ..
            }
            | Step::Rewrite {
                container,
                document_type,
                partition_key_property,
                ..
            }) => {
                self.edit_in_place(
                    document,
                    &id,
                    container,
                    document_type,
                    partition_key_property,
                    |body| edit_body(step, body),
                )
                .await
            }
            Step::ClaimValues { .. } => self.claim_value(document, id).await,
            Step::EmbedSeparate { .. } => self.embed_into_holder(document, id).await,
            _ => Ok(false),
        }
    }

    /// Copies `document` into the repartitioned container `target`, its new partition
    /// key `new_key` taken from the property `key_from` names for its type.
    async fn repartition(
        &mut self,
        document: &Value,
        id: &str,
        target: &str,
        new_key: &str,
        key_from: &[KeyFrom],
    ) -> Result<bool, MigrateError> {
        let mut body = strip_system(document);
        let kind = text(document, "type").unwrap_or_default();
        let Some(from) = key_from.iter().find(|k| k.document_type == kind) else {
            return Err(self.data(format!(
                "document `{id}` is of type `{kind}`, which the old model does not have in this container: move or delete it, then run again"
            )));
        };
        let from = &from.property;
        let value = match document.get(from) {
            Some(Value::String(v)) => v.clone(),
            _ => {
                return Err(self.data(format!(
                    "document `{id}` has no text `{from}` to take its new partition key `{new_key}` from"
                )))
            }
        };
        body[new_key] = Value::String(value.clone());
        let at = self.in_target(target, value);
        self.write_new(&at, id, &body, timestamp(document)).await
    }

    /// Splits the embedded objects of `holder` document `document` (in `container`)
    /// out into their own documents, retrying on its newer version when a writer
    /// changed it meanwhile.
    async fn split(
        &mut self,
        document: &Value,
        id: &str,
        container: &str,
        holder: &str,
        partition_key_property: &str,
    ) -> Result<bool, MigrateError> {
        let at = self.in_source(container, self.key_of(document, holder, id, partition_key_property)?);
        let mut current = document.clone();
        for _ in 0..=CONFLICT_RETRIES {
            let Some(rewritten) = self.split_out(&at, id, &current).await? else {
                return Ok(false);
            };
            let etag = text(&current, "_etag").unwrap_or_default();
            match self.replace_if_match(&at, id, &rewritten, &etag).await? {
                Outcome::Written => return Ok(true),
                Outcome::Refused => return Err(self.data(format!("`{holder}` `{id}`: a unique key refuses it"))),
                Outcome::Changed => {}
            }
            // Changed by a writer meanwhile: split its newer version.
            match self.read(&at, id).await? {
                Some(newer) => current = newer,
                None => return Ok(false),
            }
        }
        Err(self.data(format!(
            "`{holder}` `{id}` changed {} times while it was split: run `cosmap migrate` again (it resumes from its lease)",
            CONFLICT_RETRIES + 1
        )))
    }

    /// The partition key value of `owner` document `document` (`id`): its text
    /// `partition_key_property`.
    fn key_of(
        &self,
        document: &Value,
        owner: &str,
        id: &str,
        partition_key_property: &str,
    ) -> Result<String, MigrateError> {
        text(document, partition_key_property).ok_or_else(|| {
            self.data(format!(
                "`{owner}` `{id}` has no text partition key `{partition_key_property}`"
            ))
        })
    }

    /// Replaces `document` (`id`, in `container`) as `edit` changes it, when it is of
    /// `document_type` and `edit` changes anything, conditionally on the version it
    /// was computed from; `edit`'s error names what stops it.
    async fn edit_in_place(
        &mut self,
        document: &Value,
        id: &str,
        container: &str,
        document_type: &str,
        partition_key_property: &str,
        mut edit: impl FnMut(&mut Value) -> Result<bool, String>,
    ) -> Result<bool, MigrateError> {
        if text(document, "type").as_deref() != Some(document_type) {
            return Ok(false);
        }
        // Nothing to change: no key needed, nothing written.
        if !edit(&mut strip_system(document)).unwrap_or(true) {
            return Ok(false);
        }
        let at = self.in_source(
            container,
            self.key_of(document, document_type, id, partition_key_property)?,
        );
        self.edit_conditionally(&at, id, document, &mut edit, &format!("`{document_type}`"))
            .await
    }

    async fn write_lease(&mut self, token: &azure_data_cosmos::feed::ContinuationToken) -> Result<(), MigrateError> {
        let continuation = serde_json::to_value(token).map_err(|e| self.data(format!("the continuation: {e}")))?;
        // `type` after the key: in a container partitioned by `type` they are the same.
        let body = serde_json::json!({
            "id": self.lease.id, self.lease.partition_key_property.as_str(): self.lease.key(),
            "type": LEASE_TYPE, "step": self.name, "continuation": continuation,
        });
        let (lease, key) = (self.lease, self.lease.key());
        let operation = format!(
            "upsert item `{}` in partition `{key}` of `{}`",
            lease.id, lease.container
        );
        let response = self
            .connection
            .request(&operation, &[], || {
                self.target
                    .upsert_item(PartitionKey::from(key.clone()), &lease.id, &body, None)
            })
            .await?;
        if let Some(response) = response {
            self.report.request_units += charge(response.headers());
        }
        self.report.written += 1;
        Ok(())
    }
}

async fn container(connection: &Connection, name: &str) -> Result<ContainerClient, MigrateError> {
    let database = connection.database_client();
    let operation = format!("open container `{name}`");
    Ok(connection
        .request(&operation, &[], || database.container_client(name, None))
        .await?
        .ok_or_else(|| ProvisionError::Client {
            operation,
            message: "no container client".into(),
        })?)
}

/// The in-place edit of a back-fill or a rewrite `step` on a document's `body`:
/// whether it changed anything, or why it cannot be made.
fn edit_body(step: &Step, body: &mut Value) -> Result<bool, String> {
    match step {
        Step::BackfillDefault { path, value, .. } => Ok(fill(body, path, value)),
        Step::Rewrite { path, conversion, .. } => {
            convert(body, path, *conversion).map_err(|why| format!("`{}` {why}", path.join(".")))
        }
        _ => Ok(false),
    }
}

/// Sets `value` at `path` in `document` where it is missing, inside each element of an
/// array on the way (an absent or `null` object on the way holds nothing to fill);
/// whether anything was set.
fn fill(document: &mut Value, path: &[String], value: &Value) -> bool {
    let Some((first, rest)) = path.split_first() else {
        return false;
    };
    match document {
        Value::Array(items) => {
            // Every element, not only up to the first that needed it.
            let mut set = false;
            for item in items {
                set |= fill(item, path, value);
            }
            set
        }
        Value::Object(map) if rest.is_empty() && map.get(first).is_none_or(Value::is_null) => {
            map.insert(first.clone(), value.clone());
            true
        }
        Value::Object(_) if rest.is_empty() => false,
        Value::Object(map) => map.get_mut(first).is_some_and(|inner| fill(inner, rest, value)),
        _ => false,
    }
}

/// Applies `conversion` to the value at `path` in `document`, inside each element of an
/// array on the way; whether anything changed. A value already in the new shape, or
/// absent, is left as it is; a list of two or more values to unwrap is an error.
/// Sets each reference's `partitionKey` (in `value`, one or a list) to its `id`;
/// whether any changed.
fn key_from_id(value: &mut Value) -> bool {
    match value {
        // Every reference of the list, not only up to the first one changed.
        Value::Array(items) => items.iter_mut().map(key_from_id).filter(|changed| *changed).count() > 0,
        Value::Object(reference) => match reference.get("id").cloned() {
            Some(id @ Value::String(_)) if reference.get("partitionKey") != Some(&id) => {
                reference.insert("partitionKey".into(), id);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

fn convert(document: &mut Value, path: &[String], conversion: Conversion) -> Result<bool, String> {
    let Some((first, rest)) = path.split_first() else {
        return Ok(false);
    };
    match document {
        Value::Array(items) => {
            let mut changed = false;
            for item in items {
                changed |= convert(item, path, conversion)?;
            }
            Ok(changed)
        }
        Value::Object(map) if rest.is_empty() => {
            let Some(value) = map.get_mut(first) else {
                return Ok(false);
            };
            match (conversion, &*value) {
                (_, Value::Null)
                | (Conversion::WrapInList, Value::Array(_))
                | (
                    Conversion::UnwrapList { .. },
                    Value::Object(_) | Value::String(_) | Value::Number(_) | Value::Bool(_),
                )
                | (Conversion::ToText, Value::String(_) | Value::Array(_) | Value::Object(_)) => Ok(false),
                (Conversion::KeyFromId, _) => Ok(key_from_id(value)),
                (Conversion::WrapInList, _) => {
                    *value = Value::Array(vec![value.take()]);
                    Ok(true)
                }
                (Conversion::UnwrapList { optional }, Value::Array(items)) => match items.as_slice() {
                    [] if optional => {
                        map.remove(first);
                        Ok(true)
                    }
                    [] => Err("is an empty list and the new model requires one value: write the one it should hold in the old document, then run `cosmap migrate` again (it resumes from its lease)".to_string()),
                    [one] => {
                        *value = one.clone();
                        Ok(true)
                    }
                    many => Err(format!(
                        "holds {} values and the new model holds one: keep the one you want in the old document, then run `cosmap migrate` again (it resumes from its lease)",
                        many.len()
                    )),
                },
                (Conversion::ToText, _) => {
                    *value = Value::String(value.to_string());
                    Ok(true)
                }
            }
        }
        Value::Object(map) => match map.get_mut(first) {
            Some(inner) => convert(inner, rest, conversion),
            None => Ok(false),
        },
        _ => Ok(false),
    }
}

fn text(document: &Value, name: &str) -> Option<String> {
    document.get(name).and_then(Value::as_str).map(str::to_string)
}

fn charge(headers: &azure_data_cosmos::models::ResponseHeaders) -> f64 {
    headers.request_charge().map(|c| f64::from(*c)).unwrap_or(0.0)
}

#[cfg(test)]
mod tests;
