//! The generated data access under the same judge: [`verify_generated`] runs
//! [`verify`](crate::verify) on the in-memory engine, but the main answer of each read
//! a generated method answers comes from that method (through an [`Answerer`]: the
//! caller's dispatch from pattern name to method), called with the same bindings and
//! probes, and is judged by the same expectations — the ids, their order, the limit,
//! every asked-for field. What the generated code does not answer runs as the plan says.

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

/// A read's parameters by name (without `@`), as verify binds them from its samples.
pub type Binding = BTreeMap<String, Value>;

/// What an [`Answerer`] gives back: the documents (or rows) a generated method
/// returned, each as JSON, or why the call failed.
pub type Answering<'a> = Pin<Box<dyn Future<Output = Result<Vec<Value>, String>> + 'a>>;

/// Calls the generated data access's read methods by access pattern name.
pub trait Answerer {
    /// Whether a generated method answers read `pattern` with a list of its results
    /// (the documents or rows the plan's main request returns).
    fn answers(&self, pattern: &str) -> bool;

    /// The results of `pattern`'s generated method called with `binding` on
    /// `database` (where verify wrote its samples), each as JSON.
    fn answer<'a>(&'a self, database: &'a DatabaseClient, pattern: &'a str, binding: &'a Binding) -> Answering<'a>;
}

/// [`verify`](crate::verify) of `logical` on the in-memory engine with the main
/// answer of every read `generated` answers taken from the generated code.
pub async fn verify_generated(
    domain: &DomainModel,
    logical: &LogicalModel,
    generated: &dyn Answerer,
) -> Result<Report, VerifyError> {
    verify_with(domain, logical, Engine::InMemory, Settings::default(), Some(generated)).await
}
