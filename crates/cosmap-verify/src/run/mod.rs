//! Running a verification: connect, provision, write the samples, run every access
//! pattern's operation, and judge each answer against [`crate::expected`].
//!
//! Reads run first, on the samples as written ([`reads`]); writes run after, in
//! pattern order, each on a sample no earlier write deleted ([`writes`]). Every request goes through
//! `cosmap-provision`'s [`Connection`] (its retries, timeout and error messages); a
//! refusal becomes an `error` line of the report with the server's answer, never a
//! panic or an early exit.

use std::collections::BTreeMap;

use azure_data_cosmos::clients::ContainerClient;
use azure_data_cosmos::{FeedScope, Query};
use cosmap_domain::{AccessKind, AccessPattern, DomainModel};
use cosmap_mapper::operations::{Operation, OperationKind, Request, ValueSource};
use cosmap_mapper::{BucketOf, Container, DocumentType, LogicalModel, Role};
use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_provision::{
    apply, plan, AppliedAction, ApplyOptions, Connection, DatabaseAction, ProvisionError, Settings, Target, Throughput,
};
use serde_json::Value;

use crate::error::VerifyError;
use crate::generated::Answerer;
use crate::report::{
    EngineInfo, EngineKind, PatternOutcome, Report, RequestOutcome, SampleSummary, Summary, Verdict,
    REPORT_FORMAT_VERSION,
};
use crate::samples::{attribute_spreads, limited_counts, Generator, Key, Sample};

mod generated_writes;
mod reads;
mod writes;

pub use generated_writes::unjudged_write;
pub(crate) use writes::differences;

use writes::WriteState;

/// Where to verify.
#[derive(Debug)]
pub enum Engine {
    /// The SDK's in-memory Cosmos DB engine, started inside this process.
    InMemory,
    /// A Cosmos DB account or emulator. The target's database must not exist yet:
    /// verify creates it, writes into it, and leaves it for the user to drop.
    Endpoint(Target),
}

/// The database verify uses on the in-memory engine (a new account each run).
pub fn in_memory_database(model: &str) -> String {
    format!("{}-verify", database_stem(model))
}

/// A new database's name for a run at `unix_seconds`: `<model>-verify-<seconds>`.
pub fn fresh_database_name(model: &str, unix_seconds: u64) -> String {
    format!("{}-verify-{unix_seconds}", database_stem(model))
}

/// The model's name as the start of a database id: each character Cosmos DB refuses in
/// an id (`/ \ ? #`, control and invisible characters) becomes `-`, and it is cut to
/// 200 characters, so any model name makes a valid id.
fn database_stem(model: &str) -> String {
    model
        .chars()
        .map(|c| {
            if matches!(c, '/' | '\\' | '?' | '#') || cosmap_domain::naming::is_hidden_char(c) {
                '-'
            } else {
                c
            }
        })
        .take(200)
        .collect()
}

/// Verifies `logical` (mapped from `domain`) on `engine`; see the crate docs.
pub async fn verify(
    domain: &DomainModel,
    logical: &LogicalModel,
    engine: Engine,
    settings: Settings,
) -> Result<Report, VerifyError> {
    verify_with(domain, logical, engine, settings, None).await
}

/// [`verify`], with the main answer of each read asked of `generated` where it
/// answers the pattern (the generated data access), else of the plan's request.
pub(crate) async fn verify_with(
    domain: &DomainModel,
    logical: &LogicalModel,
    engine: Engine,
    settings: Settings,
    generated: Option<&dyn Answerer>,
) -> Result<Report, VerifyError> {
    // The in-memory account lives as long as the verification.
    let mut _account = None;
    let (connection, engine) = match engine {
        Engine::InMemory => {
            let database = in_memory_database(&logical.model);
            let account = InMemoryAccount::new()?;
            let connection = account.connect(&database, settings).await?;
            _account = Some(account);
            let info = EngineInfo {
                kind: EngineKind::InMemory,
                endpoint: None,
                database,
            };
            (connection, info)
        }
        Engine::Endpoint(target) => {
            let connection = Connection::open(&target, settings).await?;
            let info = EngineInfo {
                kind: EngineKind::Endpoint,
                endpoint: Some(target.endpoint().to_string()),
                database: target.database().to_string(),
            };
            (connection, info)
        }
    };

    let plan = plan(&connection, &logical.container_definitions(), Throughput::None).await?;
    if plan.database.action == DatabaseAction::Present {
        return Err(VerifyError::DatabaseExists {
            endpoint: connection.endpoint().to_string(),
            database: connection.database().to_string(),
        });
    }
    let applied = apply(&connection, &plan, &ApplyOptions::default()).await?;
    // Created by someone else between the plan and the creation (a 409): not ours to write into.
    if applied
        .iter()
        .any(|a| a.action == AppliedAction::FoundCreated && a.id == connection.database())
    {
        return Err(VerifyError::DatabaseExists {
            endpoint: connection.endpoint().to_string(),
            database: connection.database().to_string(),
        });
    }

    let generator = Generator::new(logical, attribute_spreads(domain), limited_counts(domain))?;
    let samples = generator.samples()?;

    let mut clients = BTreeMap::new();
    for c in &logical.containers {
        clients.insert(c.name.clone(), open_client(&connection, &c.name).await?);
    }

    let run = Run {
        connection: &connection,
        domain,
        clients,
        logical,
        generator,
        samples,
        generated,
    };
    run.write_samples().await?;
    Ok(run.report(engine, false).await)
}

/// The documents already stored in one container of a model, for [`verify_stored`].
#[derive(Debug, Clone)]
pub struct StoredContainer {
    /// The container's name in the model (the one its operations name).
    pub container: String,
    /// The container that holds them (another name where a migration copied the
    /// model's container into a new one).
    pub stored_in: String,
    /// Its documents, as read.
    pub documents: Vec<Value>,
}

/// Verifies `logical` (mapped from `domain`) on documents already stored in the
/// connection's database — written by someone else, such as a migration rehearsed on
/// the in-memory engine — instead of samples of its own: each stored document of a
/// type its container has is a sample (with its system properties removed), every
/// access pattern's operation runs on the `stored_in` containers, and the answers are
/// judged against those documents as [`verify`] judges them against its samples.
/// Nothing is provisioned; the write patterns add (and one deletes) documents as they
/// do in [`verify`].
pub async fn verify_stored(
    domain: &DomainModel,
    logical: &LogicalModel,
    connection: &Connection,
    engine: EngineInfo,
    stored: &[StoredContainer],
) -> Result<Report, VerifyError> {
    let generator = Generator::new(logical, attribute_spreads(domain), limited_counts(domain))?;
    let mut clients = BTreeMap::new();
    let mut samples = Vec::new();
    for c in &logical.containers {
        let stored_in = stored
            .iter()
            .find(|s| s.container == c.name)
            .map_or(c.name.as_str(), |s| s.stored_in.as_str());
        clients.insert(c.name.clone(), open_client(connection, stored_in).await?);
    }
    for s in stored {
        let documents = s.documents.iter().map(without_system_properties);
        samples.extend(
            documents
                .enumerate()
                .filter_map(|(ordinal, body)| Sample::stored(logical, &s.container, body, ordinal)),
        );
    }
    let run = Run {
        connection,
        domain,
        clients,
        logical,
        generator,
        samples,
        generated: None,
    };
    Ok(run.report(engine, true).await)
}

/// A client of container `name` in the connection's database.
async fn open_client(connection: &Connection, name: &str) -> Result<ContainerClient, VerifyError> {
    let database = connection.database_client();
    let operation = format!("open container `{name}`");
    let client = connection
        .request(&operation, &[], || database.container_client(name, None))
        .await?
        .ok_or_else(|| ProvisionError::Client {
            operation,
            message: "no container client".into(),
        })?;
    Ok(client)
}

/// `document` without the properties Cosmos DB adds (`_rid`, `_ts`, …).
fn without_system_properties(document: &Value) -> Value {
    match document {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !k.starts_with('_'))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The id suffix of a sample's deleted twin.
const TWIN_SUFFIX: &str = "~deleted";

/// A copy of sample `s` deleted by setting its `ttl`, as a delete in a container with
/// soft deletes (rule `copySource`) leaves it until it expires; `None` in other
/// containers. It is written beside the samples but is none of them, so a read that
/// returns it (a query that does not leave out expiring documents) fails. Its unique
/// values are changed so that it takes none of the sample's.
fn deleted_twin(container: &Container, s: &Sample) -> Option<Sample> {
    if !container.rules.contains(&cosmap_mapper::Rule::CopySource)
        || container.kind == cosmap_mapper::ContainerKind::Claims
    {
        return None;
    }
    let mut twin = s.clone();
    twin.id = format!("{}{TWIN_SUFFIX}", s.id);
    twin.body["id"] = Value::from(twin.id.clone());
    twin.body["ttl"] = Value::from(86_400);
    for path in container.unique_keys.iter().flat_map(|k| &k.paths) {
        let names: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        if let Some(Value::String(text)) = names.iter().try_fold(&mut twin.body, |v, n| v.get_mut(*n)) {
            text.push_str(TWIN_SUFFIX);
        }
    }
    Some(twin)
}

struct Run<'a> {
    connection: &'a Connection,
    domain: &'a DomainModel,
    clients: BTreeMap<String, ContainerClient>,
    logical: &'a LogicalModel,
    generator: Generator<'a>,
    samples: Vec<Sample>,
    /// The generated data access, asked for the main answer of the reads it answers.
    generated: Option<&'a dyn Answerer>,
}

impl<'a> Run<'a> {
    /// Runs every pattern on what is stored and reports it (`stored`: the samples were
    /// stored by someone else).
    async fn report(&self, engine: EngineInfo, stored: bool) -> Report {
        let patterns = self.patterns(self.domain).await;
        let mut containers = BTreeMap::new();
        for s in &self.samples {
            *containers.entry(s.container.clone()).or_insert(0) += 1;
        }
        let passed = patterns.iter().filter(|p| p.passed).count();
        Report {
            format_version: REPORT_FORMAT_VERSION,
            model: self.logical.model.clone(),
            engine,
            samples: SampleSummary {
                documents: self.samples.len(),
                containers,
                stored,
            },
            summary: Summary {
                patterns: patterns.len(),
                passed,
                failed: patterns.len() - passed,
            },
            patterns,
        }
    }

    /// Writes the samples, and beside each sample of a container with soft deletes its
    /// deleted twin ([`deleted_twin`]): no read may return it.
    async fn write_samples(&self) -> Result<(), VerifyError> {
        let twins: Vec<Sample> = self
            .samples
            .iter()
            .filter_map(|s| deleted_twin(self.logical.container(&s.container)?, s))
            .collect();
        for s in self.samples.iter().chain(&twins) {
            let client = self.client(&s.container).map_err(VerifyError::Samples)?;
            let operation = format!("create item `{}` in `{}`", s.id, s.container);
            self.connection
                .request(&operation, &[], || {
                    client.create_item(s.partition_key.sdk(), &s.id, &s.body, None)
                })
                .await
                .map_err(|cause| VerifyError::WriteSample {
                    container: s.container.clone(),
                    id: s.id.clone(),
                    cause: Box::new(cause),
                })?;
        }
        Ok(())
    }

    /// Every access pattern: reads first, then writes; reported in name order.
    async fn patterns(&self, domain: &DomainModel) -> Vec<PatternOutcome> {
        let mut outcomes = Vec::new();
        let operations: BTreeMap<&str, &Operation> = self
            .logical
            .operations
            .iter()
            .map(|o| (o.pattern.as_str(), o))
            .collect();
        for p in domain.access_patterns() {
            if !operations.contains_key(p.name.as_str()) {
                outcomes.push(PatternOutcome {
                    pattern: p.name.clone(),
                    operation: None,
                    passed: false,
                    reason: Some(format!(
                        "the logical model has no operation for this pattern: nothing stores `{}`",
                        p.start
                    )),
                    requests: Vec::new(),
                });
            }
        }
        let patterns: BTreeMap<&str, &AccessPattern> =
            domain.access_patterns().iter().map(|p| (p.name.as_str(), p)).collect();
        let (writes, reads): (Vec<&Operation>, Vec<&Operation>) =
            operations.values().partition(|o| o.kind == OperationKind::Write);
        for op in reads {
            outcomes.push(match patterns.get(op.pattern.as_str()) {
                Some(p) if p.kind == AccessKind::Read => self.read(op, p).await,
                _ => unknown(op),
            });
        }
        let mut state = WriteState::new(self.samples.clone());
        for op in writes {
            outcomes.push(match patterns.get(op.pattern.as_str()) {
                Some(p) if p.kind == AccessKind::Write => self.write_either(op, &mut state).await,
                _ => unknown(op),
            });
        }
        outcomes.sort_by(|a, b| a.pattern.cmp(&b.pattern));
        outcomes
    }

    /// The bucket document type request `r` reads or writes (`bucket`), with its
    /// container and what it holds.
    fn bucket_of(&self, r: &Request) -> Option<(&Container, &DocumentType, &BucketOf)> {
        let c = self.logical.container(&r.container)?;
        let d = c.document_type(r.document_types.first()?)?;
        Some((c, d, d.bucket.as_ref()?))
    }

    /// The answer of `pattern`'s generated method with `binding`, where the generated
    /// data access answers it ([`verify_generated`](crate::verify_generated)).
    async fn generated_answer(
        &self,
        pattern: &str,
        binding: &crate::expected::Binding,
    ) -> Option<Result<Vec<Value>, String>> {
        let generated = self.generated.filter(|g| g.answers(pattern))?;
        let database = self.connection.database_client();
        Some(generated.answer(&database, pattern, binding).await)
    }

    fn client(&self, container: &str) -> Result<&ContainerClient, String> {
        self.clients
            .get(container)
            .ok_or_else(|| format!("there is no container `{container}`"))
    }

    async fn query(
        &self,
        container: &str,
        sql: &str,
        parameters: &BTreeMap<String, Value>,
        partition: Option<&Key>,
    ) -> Result<Vec<Value>, String> {
        let client = self.client(container)?;
        let mut query = Query::from(sql);
        for (name, value) in parameters {
            query = query.with_parameter(name.clone(), value).map_err(|e| e.to_string())?;
        }
        let operation = match partition {
            Some(pk) => format!("query `{container}` in partition `{pk}`"),
            None => format!("query `{container}` across partitions"),
        };
        let scope = match partition {
            Some(pk) => FeedScope::partition(pk.sdk()),
            None => FeedScope::full_container(),
        };
        let found = self.connection.query_all(&operation, client, &query, &scope).await;
        found.map_err(|e| e.to_string())
    }

    async fn point_read(&self, container: &str, pk: &Key, id: &str) -> Result<Option<Value>, String> {
        let client = self.client(container)?;
        let operation = format!("read item `{id}` in partition `{pk}` of `{container}`");
        let response = self
            .connection
            .request(&operation, &[404], || client.read_item(pk.sdk(), id, None))
            .await
            .map_err(|e| e.to_string())?;
        match response {
            None => Ok(None),
            Some(response) => response
                .into_model::<Value>()
                .map(Some)
                .map_err(|e| format!("the answer to `{operation}` is not a JSON document: {e}")),
        }
    }

    fn outcome(&self, r: &Request) -> RequestOutcome {
        let copy = self
            .logical
            .container(&r.container)
            .and_then(|c| c.document_type(r.document_types.first()?))
            .is_some_and(|d| d.role == Role::Copy);
        RequestOutcome {
            sql: r.sql().map(str::to_string),
            ..RequestOutcome::pending(r.kind(), r.write(), &r.container, r.document_types.clone(), copy)
        }
    }
}

/// An operation whose access pattern the domain model does not have (or of the other kind).
fn unknown(op: &Operation) -> PatternOutcome {
    PatternOutcome {
        pattern: op.pattern.clone(),
        operation: Some(op.kind),
        passed: false,
        reason: Some("the domain model has no access pattern of this name and kind".into()),
        requests: Vec::new(),
    }
}

fn pattern_outcome(op: &Operation, requests: Vec<RequestOutcome>) -> PatternOutcome {
    let passed = !requests.is_empty() && requests.iter().all(|r| r.verdict == Verdict::Pass);
    PatternOutcome {
        pattern: op.pattern.clone(),
        operation: Some(op.kind),
        passed,
        reason: requests
            .is_empty()
            .then(|| "the operation sends no request".to_string()),
        requests,
    }
}

/// `outcome` judged: passed, or failed for the `problem` found.
fn verdict(outcome: RequestOutcome, problem: Option<String>) -> RequestOutcome {
    match problem {
        Some(reason) => fail(outcome, reason),
        None => RequestOutcome {
            verdict: Verdict::Pass,
            ..outcome
        },
    }
}

fn fail(mut outcome: RequestOutcome, reason: String) -> RequestOutcome {
    outcome.verdict = Verdict::Fail;
    outcome.reason = Some(reason);
    outcome
}

fn error(mut outcome: RequestOutcome, cause: String) -> RequestOutcome {
    outcome.verdict = Verdict::Error;
    outcome.reason = Some(cause);
    outcome
}

fn id_of(document: &Value) -> String {
    document
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or("<no id>")
        .to_string()
}

/// Every parameter of query `r` bound to `value` (a sync's or a count's queries name
/// one document's identity in each).
/// `id` in other capitals and without its last character: ids no sample holds,
/// which a query matching ids by equality never finds.
fn id_probes(id: &str) -> Vec<String> {
    let upper = id.to_uppercase();
    let other_case = if upper == id { id.to_lowercase() } else { upper };
    let mut shorter = id.to_string();
    shorter.pop();
    [other_case, shorter]
        .into_iter()
        .filter(|p| p != id && !p.is_empty())
        .collect()
}

impl Run<'_> {
    /// `outcome` (of query `r`, every parameter bound to `id`), failed when the same
    /// query with each of [`id_probes`] in place of `id` (and of the partition key,
    /// when `scoped`) finds a document or counts one: a `LOWER` or `STARTSWITH` where
    /// the id must be equal. Left alone unless it passed.
    pub(super) async fn probed(&self, outcome: RequestOutcome, r: &Request, id: &str, scoped: bool) -> RequestOutcome {
        if outcome.verdict != Verdict::Pass {
            return outcome;
        }
        let Some(sql) = r.sql() else {
            return outcome;
        };
        for probe in id_probes(id) {
            let partition = scoped.then(|| Key::one(probe.clone()));
            let Ok(found) = self
                .query(&r.container, sql, &all_bound_to(r, &probe), partition.as_ref())
                .await
            else {
                continue;
            };
            let nothing = found.is_empty() || (found.len() == 1 && found[0] == 0);
            if !nothing {
                let what: Vec<String> = found
                    .iter()
                    .take(3)
                    .map(|d| match d.get("id") {
                        Some(id) => id.to_string(),
                        None => d.to_string(),
                    })
                    .collect();
                let reason = format!(
                    "with `{probe}` (no sample's id) in place of `{id}`, it found {}",
                    what.join(", ")
                );
                return fail(outcome, reason);
            }
        }
        outcome
    }
}

/// Every parameter of `r`'s query bound to `value`.
pub(super) fn all_bound_to(r: &Request, value: &str) -> BTreeMap<String, Value> {
    bound_to(r, Value::String(value.to_string()))
}

/// Every parameter of `r`'s query bound to the list `ids` (a query for the targets a
/// list of references names).
pub(super) fn list_bound_to(r: &Request, ids: &[String]) -> BTreeMap<String, Value> {
    bound_to(r, Value::Array(ids.iter().cloned().map(Value::String).collect()))
}

fn bound_to(r: &Request, value: Value) -> BTreeMap<String, Value> {
    r.query()
        .map(|(_, names)| names.iter().map(|n| (format!("@{n}"), value.clone())).collect())
        .unwrap_or_default()
}

/// A partition key or id a read binds from the pattern's filters: a parameter
/// from `binding`, a constant as is; a property path is not bound from filters.
pub(super) fn bind(
    source: Option<&ValueSource>,
    binding: &crate::expected::Binding,
    what: &str,
) -> Result<String, String> {
    match source {
        None => Err(format!("the request has no {what}")),
        Some(ValueSource::Constant(value)) => Ok(value.clone()),
        Some(ValueSource::Parameter(name)) => match binding.get(name) {
            Some(Value::String(value)) => Ok(value.clone()),
            Some(other) => Err(format!("the {what} `@{name}` would be {other}, not a string")),
            None => Err(format!("the {what} `@{name}` is not one of the pattern's filters")),
        },
        Some(ValueSource::Property(path)) => Err(format!(
            "the {what} comes from `{path}` of a document, not from the pattern's filters"
        )),
        Some(ValueSource::Levels(_)) => Err(format!("the {what} has levels: it is a partition key")),
        Some(ValueSource::Window { parameter, .. }) => Err(format!(
            "the {what} is the window of a written `{parameter}`, not one of the pattern's filters"
        )),
    }
}

/// A partition key taken from document `body`: a property path's value (a string, or
/// the array a reference to a root under a hierarchical key holds), a constant, or
/// one of those per level. `None` when the document lacks it.
pub(super) fn key_in(source: &ValueSource, body: &Value) -> Result<Option<Key>, String> {
    match source {
        ValueSource::Property(path) => Ok(crate::samples::lookup(body, path).and_then(Key::from_json)),
        ValueSource::Constant(value) => Ok(Some(Key::one(value.clone()))),
        ValueSource::Parameter(name) => Err(format!("`@{name}` is not a property of the document")),
        ValueSource::Levels(levels) => {
            let mut values = Vec::new();
            for level in levels {
                match key_in(level, body)? {
                    Some(key) => values.extend(key.values().iter().cloned()),
                    None => return Ok(None),
                }
            }
            Ok(Some(Key::levels(values)))
        }
        ValueSource::Window { parameter, .. } => Err(format!("the window of `@{parameter}` is no partition key")),
    }
}

/// A partition key a read binds from the pattern's filters: one value, or (under a
/// hierarchical key) one per level given, each bound like [`bind`]'s.
pub(super) fn bind_key(source: Option<&ValueSource>, binding: &crate::expected::Binding) -> Result<Key, String> {
    match source {
        Some(ValueSource::Levels(levels)) => levels
            .iter()
            .map(|level| bind(Some(level), binding, "partition key level"))
            .collect::<Result<Vec<_>, _>>()
            .map(Key::levels),
        other => bind(other, binding, "partition key").map(Key::one),
    }
}

#[cfg(test)]
mod database_name_tests {
    use super::*;

    #[test]
    fn any_model_name_makes_a_database_id_cosmos_db_accepts() {
        assert_eq!(in_memory_database("Shop & Co"), "Shop & Co-verify");
        assert_eq!(in_memory_database("back\\slash */ /*"), "back-slash *- -*-verify");
        assert_eq!(fresh_database_name("a?b#c\u{200b}", 7), "a-b-c--verify-7");
        assert!(fresh_database_name(&"x".repeat(400), 1).chars().count() <= 255);
    }
}
