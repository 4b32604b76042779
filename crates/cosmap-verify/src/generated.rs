//! The generated data access under the same judge: [`verify_generated`] runs
//! [`verify`](crate::verify) on the in-memory engine, but the main answer of each read
//! a generated method answers comes from that method (through an [`Answerer`]: the
//! caller's dispatch from pattern name to method), called with the same bindings and
//! probes, and is judged by the same expectations — the ids, their order, the limit,
//! every asked-for field. Each write pattern whose one document a generated method
//! writes (create, replace, delete) is sent by that method instead of the plan's
//! request, the generated workers are run, and what is stored afterwards is judged as
//! the plan's write is (`run/generated_writes.rs`): the document, its claims, its
//! copies and feed entries, a duplicate refused, and the counts, subsets, extended
//! references and ancestors lists it keeps as the plan's requests would leave them. So
//! is a write of an aggregate's root and members (every document and claim) and an
//! append to a bucket (the bucket read back). What the generated code does not answer
//! or write runs as the plan says; [`unjudged_write`] says why a write is not judged on
//! the code.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;

use azure_data_cosmos::clients::DatabaseClient;
use cosmap_domain::DomainModel;
use cosmap_mapper::LogicalModel;
use cosmap_provision::Settings;
use serde_json::Value;

use crate::error::VerifyError;
use crate::report::Report;
use crate::run::{verify_with, Engine};
use crate::samples::{attribute_spreads, limited_counts, Generator, Sample};

/// A read's parameters by name (without `@`), as verify binds them from its samples.
pub type Binding = BTreeMap<String, Value>;

/// What an [`Answerer`] gives back: the documents (or rows) a generated method
/// returned, each as JSON, or why the call failed.
pub type Answering<'a> = Pin<Box<dyn Future<Output = Result<Vec<Value>, String>> + 'a>>;

/// What a generated write gives back: nothing, or why the call failed.
pub type Writing<'a> = Pin<Box<dyn Future<Output = Result<(), String>> + 'a>>;

/// Calls the generated data access's methods by access pattern name: its reads, and
/// (where it says it [`writes`](Answerer::writes) a pattern) its writes and workers.
pub trait Answerer {
    /// Whether a generated method answers read `pattern` with a list of its results
    /// (the documents or rows the plan's main request returns); none by default, where
    /// the plan's requests answer every read (an answerer that judges writes alone).
    fn answers(&self, pattern: &str) -> bool {
        let _ = pattern;
        false
    }

    /// The results of `pattern`'s generated method called with `binding` on
    /// `database` (where verify wrote its samples), each as JSON.
    fn answer<'a>(&'a self, database: &'a DatabaseClient, pattern: &'a str, binding: &'a Binding) -> Answering<'a> {
        let _ = (database, binding);
        let reason = format!("no generated read of `{pattern}` is called");
        Box::pin(async move { Err(reason) })
    }

    /// Whether a generated method writes pattern `pattern` — its one document, given
    /// as JSON (a create, replace or delete: [`write`](Answerer::write)), an
    /// aggregate's root and members ([`write_aggregate`](Answerer::write_aggregate)) or
    /// an item appended to a bucket ([`append`](Answerer::append)): verify then judges
    /// that method's write instead of sending the plan's (none by default).
    fn writes(&self, pattern: &str) -> bool {
        let _ = pattern;
        false
    }

    /// Calls `pattern`'s generated write with `document` (its JSON, as verify would
    /// write it) on `database`.
    fn write<'a>(&'a self, database: &'a DatabaseClient, pattern: &'a str, document: &'a Value) -> Writing<'a> {
        let _ = (database, document);
        not_called("write", pattern)
    }

    /// Calls `pattern`'s generated write of an aggregate with `documents`: for each of
    /// the plan's own writes, in its order (the root's first), the documents it writes
    /// (one, or a list for a write sent for each member), as JSON.
    fn write_aggregate<'a>(
        &'a self,
        database: &'a DatabaseClient,
        pattern: &'a str,
        documents: &'a [Vec<Value>],
    ) -> Writing<'a> {
        let _ = (database, documents);
        not_called("write", pattern)
    }

    /// Calls `pattern`'s generated append with `item` (its JSON, as verify would
    /// append it) for the parent whose key is `key`.
    fn append<'a>(
        &'a self,
        database: &'a DatabaseClient,
        pattern: &'a str,
        key: &'a str,
        item: &'a Value,
    ) -> Writing<'a> {
        let _ = (database, key, item);
        not_called("append", pattern)
    }

    /// Runs every generated worker until none has a change left to apply: what the
    /// change feed keeps (copies, feeds, extended references, counts) after a write.
    fn settle<'a>(&'a self, database: &'a DatabaseClient) -> Writing<'a> {
        let _ = database;
        Box::pin(async { Ok(()) })
    }
}

/// A generated `what` (a write, an append) of `pattern` that the [`Answerer`] does not
/// call: the failure verify reports.
fn not_called<'a>(what: &str, pattern: &str) -> Writing<'a> {
    let reason = format!("no generated {what} of `{pattern}` is called");
    Box::pin(async move { Err(reason) })
}

/// [`verify`](crate::verify) of `logical` on the in-memory engine with the main
/// answer of every read `generated` answers taken from the generated code.
pub async fn verify_generated(
    domain: &DomainModel,
    logical: &LogicalModel,
    generated: &dyn Answerer,
) -> Result<Report, VerifyError> {
    verify_generated_on(domain, logical, Engine::InMemory, Settings::default(), generated).await
}

/// [`verify_generated`] on `engine`: an account or emulator too ([`Engine::Endpoint`],
/// in a database that does not exist yet), where what the server cannot run is
/// reported as an `error` with its answer, as [`verify`](crate::verify) reports it.
pub async fn verify_generated_on(
    domain: &DomainModel,
    logical: &LogicalModel,
    engine: Engine,
    settings: Settings,
    generated: &dyn Answerer,
) -> Result<Report, VerifyError> {
    verify_with(domain, logical, engine, settings, Some(generated)).await
}

/// Verify's sample maker for one model, for a harness that writes through the
/// generated repositories what verify's own writes would write: new documents unlike
/// every sample, revisions, and the claims a document makes.
pub struct SampleMaker<'a>(Generator<'a>);

impl<'a> SampleMaker<'a> {
    /// The maker of `logical`'s samples (mapped from `domain`).
    pub fn new(domain: &DomainModel, logical: &'a LogicalModel) -> Result<Self, VerifyError> {
        Generator::new(logical, attribute_spreads(domain), limited_counts(domain)).map(SampleMaker)
    }

    /// A new document of `document_type` in `container`, unlike every sample
    /// (`serial` counts those made before), under the first parent.
    pub fn new_document(&self, container: &str, document_type: &str, serial: usize) -> Result<Sample, VerifyError> {
        self.0.new_sample(container, document_type, serial)
    }

    /// `sample` with new values (same id, partition key, parent and references).
    pub fn revised(&self, sample: &Sample, revision: u32) -> Result<Sample, VerifyError> {
        self.0.revised(sample, revision)
    }

    /// The claim of type `claim` in `container` that `owner` makes.
    pub fn claim_of(&self, container: &str, claim: &str, owner: &Sample) -> Result<Sample, VerifyError> {
        self.0.claim_of(container, claim, owner)
    }
}

/// Why `read` (a document read back) is not what was `written`: the fields it does not
/// hold alike, as the judge of a write says it (system properties such as `_etag`
/// aside; numbers compared by value); `None` when it is.
pub fn stored_as_written(written: &Value, read: &Value) -> Option<String> {
    crate::run::differences(written, read)
        .map(|fields| format!("the point read shows other values for {fields} than were written"))
}
