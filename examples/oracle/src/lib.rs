//! Every example's generated data access under `cosmap verify`'s judge.
//!
//! `build.rs` generates, for each example model with access patterns, its document
//! types (`cosmap.rs`) and data access (`cosmap_data.rs`) into a module of its own
//! (`ecommerce`, `patterns_bucket`, …), and beside them `calls`: a dispatch from an
//! access pattern's name to its generated read method, the method's arguments taken
//! from verify's binding and its results turned into JSON. Each [`Example`] is an
//! [`Answerer`]: `cosmap_verify::verify_generated` asks it for the main answer of
//! every read it answers and judges that answer as it judges the plan's own
//! requests (`tests/generated_code.rs`). `calls` also writes a write pattern's one
//! document through its generated method and runs the generated workers (verify then
//! judges what they stored, `tests/generated_writes.rs`), an aggregate's root and
//! members through its generated write, an item through its generated append, and loads an aggregate by
//! its root's id through the generated repository, for `tests/repositories.rs`.

pub mod repository_writes;

/// The SDK's database client the dispatch calls the generated code on (for tests that
/// do not depend on the SDK themselves).
pub use azure_data_cosmos::clients::DatabaseClient;

use cosmap_verify::generated::{Answering, Binding, Writing};
use cosmap_verify::Answerer;
use serde_json::Value;

include!(concat!(env!("OUT_DIR"), "/examples.rs"));

/// One example's generated code, called by access pattern name.
pub struct Example {
    /// Its directory under `examples/` (`ecommerce`, `patterns/bucket`).
    pub name: &'static str,
    /// Its model file.
    pub model: &'static str,
    /// The read patterns whose generated methods `call` answers.
    pub answers: &'static [&'static str],
    /// The generated pattern methods not called, each with why.
    pub not_judged: &'static [(&'static str, &'static str)],
    /// What its data access does not generate, each with why.
    pub skipped: &'static [&'static str],
    /// The dispatch: pattern name and binding to the method's results.
    pub call: for<'a> fn(&'a azure_data_cosmos::clients::DatabaseClient, &'a str, &'a Binding) -> Answering<'a>,
    /// Each repository: its root, container, whether `load` takes the id alone, its
    /// members' `type`s.
    pub repositories: &'static [(&'static str, &'static str, bool, &'static [&'static str])],
    /// Loads an aggregate by its root's type, partition key values and id through its
    /// generated repository.
    pub load: for<'a> fn(&'a azure_data_cosmos::clients::DatabaseClient, &'a str, &'a [String], &'a str) -> Loading<'a>,
    /// The write patterns whose one document `write` writes through the generated method.
    pub writes: &'static [&'static str],
    /// The generated write of a pattern, called with the document verify gives.
    pub write: for<'a> fn(&'a azure_data_cosmos::clients::DatabaseClient, &'a str, &'a Value) -> Writing<'a>,
    /// The generated write of an aggregate's pattern, called with the documents verify
    /// gives: one list per argument, in the method's order.
    pub write_aggregate: WriteAggregate,
    /// The generated append of a pattern, called with the parent's key and the item
    /// verify gives.
    pub append: Append,
    /// Runs every generated worker until none applies a change.
    pub settle: fn(&azure_data_cosmos::clients::DatabaseClient) -> Writing<'_>,
    /// Saves through its generated repository the aggregate of a root (by type,
    /// partition key values and id) with that root replaced and members added.
    pub save: Save,
    /// Saves through its generated repository a new aggregate of a root (by type) alone.
    pub save_new: for<'a> fn(&'a azure_data_cosmos::clients::DatabaseClient, &'a str, &'a Value) -> Writing<'a>,
    /// Deletes through its generated repository the aggregate of a root.
    pub delete:
        for<'a> fn(&'a azure_data_cosmos::clients::DatabaseClient, &'a str, &'a [String], &'a str) -> Writing<'a>,
}

/// A repository's save by root type, partition key values, id, the new root and the
/// members added (each as JSON).
pub type Save = for<'a> fn(
    &'a azure_data_cosmos::clients::DatabaseClient,
    &'a str,
    &'a [String],
    &'a str,
    &'a Value,
    &'a [Value],
) -> Writing<'a>;

/// An aggregate's write by pattern name, with one list of documents (JSON) per argument.
pub type WriteAggregate =
    for<'a> fn(&'a azure_data_cosmos::clients::DatabaseClient, &'a str, &'a [Vec<Value>]) -> Writing<'a>;

/// An append by pattern name, with the parent's key and the item (JSON).
pub type Append =
    for<'a> fn(&'a azure_data_cosmos::clients::DatabaseClient, &'a str, &'a str, &'a Value) -> Writing<'a>;

/// The ids an aggregate loaded holds: the root's under `""`, each member kind's under
/// its `type`; `None` when there is no such root.
pub type Loaded = Option<Vec<(String, Vec<String>)>>;

/// What [`Example::load`] gives back.
pub type Loading<'a> = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Loaded, String>> + 'a>>;

impl Answerer for Example {
    fn answers(&self, pattern: &str) -> bool {
        self.answers.contains(&pattern)
    }

    fn answer<'a>(
        &'a self,
        database: &'a azure_data_cosmos::clients::DatabaseClient,
        pattern: &'a str,
        binding: &'a Binding,
    ) -> Answering<'a> {
        (self.call)(database, pattern, binding)
    }

    fn writes(&self, pattern: &str) -> bool {
        self.writes.contains(&pattern)
    }

    fn write<'a>(
        &'a self,
        database: &'a azure_data_cosmos::clients::DatabaseClient,
        pattern: &'a str,
        document: &'a Value,
    ) -> Writing<'a> {
        (self.write)(database, pattern, document)
    }

    fn write_aggregate<'a>(
        &'a self,
        database: &'a azure_data_cosmos::clients::DatabaseClient,
        pattern: &'a str,
        documents: &'a [Vec<Value>],
    ) -> Writing<'a> {
        (self.write_aggregate)(database, pattern, documents)
    }

    fn append<'a>(
        &'a self,
        database: &'a azure_data_cosmos::clients::DatabaseClient,
        pattern: &'a str,
        key: &'a str,
        item: &'a Value,
    ) -> Writing<'a> {
        (self.append)(database, pattern, key, item)
    }

    fn settle<'a>(&'a self, database: &'a azure_data_cosmos::clients::DatabaseClient) -> Writing<'a> {
        (self.settle)(database)
    }
}

/// The document verify gives a write, as the generated method's type.
fn document<T: serde::de::DeserializeOwned>(document: &Value) -> Result<T, String> {
    serde_json::from_value(document.clone())
        .map_err(|e| format!("the document is not the method's type: {e}: {document}"))
}

/// The one document verify gives an argument that takes one, as its type.
fn one<T: serde::de::DeserializeOwned>(documents: &[Value]) -> Result<T, String> {
    match documents {
        [one] => document(one),
        _ => Err(format!("one document expected, not {}", documents.len())),
    }
}

/// The documents verify gives an argument that takes a list, as its type.
fn documents<T: serde::de::DeserializeOwned>(documents: &[Value]) -> Result<Vec<T>, String> {
    documents.iter().map(document).collect()
}

/// The argument verify bound to parameter `name`, as the method's owned type.
fn arg<T: serde::de::DeserializeOwned>(binding: &Binding, name: &str) -> Result<T, String> {
    let value = binding
        .get(name)
        .ok_or_else(|| format!("verify bound no `{name}`: {binding:?}"))?;
    serde_json::from_value(value.clone()).map_err(|e| format!("`{name}` = {value} is not the method's type: {e}"))
}

/// A generated method's list of results, each as JSON.
fn list<T: serde::Serialize, E: std::fmt::Debug>(result: Result<Vec<T>, E>) -> Result<Vec<Value>, String> {
    result
        .map_err(|e| format!("the generated method failed: {e:?}"))?
        .iter()
        .map(|r| serde_json::to_value(r).map_err(|e| format!("a result is not JSON: {e}")))
        .collect()
}

/// A generated method's one result or none, as a list of JSON.
fn optional<T: serde::Serialize, E: std::fmt::Debug>(result: Result<Option<T>, E>) -> Result<Vec<Value>, String> {
    list(result.map(|found| found.into_iter().collect()))
}

/// The `id` of each document, as it serialises.
fn ids<T: serde::Serialize>(documents: &[T]) -> Result<Vec<String>, String> {
    documents
        .iter()
        .map(|d| {
            let json = serde_json::to_value(d).map_err(|e| format!("a document is not JSON: {e}"))?;
            let id = json.get("id").and_then(Value::as_str);
            id.map(str::to_string)
                .ok_or_else(|| format!("a document has no text `id`: {json}"))
        })
        .collect()
}

/// A repository's partition key argument made from the key's values, one per level.
trait FromKey: Sized {
    /// The argument, or why the values do not make one.
    fn from_key(values: &[String]) -> Result<Self, String>;
}

impl FromKey for String {
    fn from_key(values: &[String]) -> Result<Self, String> {
        match values {
            [one] => Ok(one.clone()),
            _ => Err(format!("one key value expected, not {values:?}")),
        }
    }
}

impl FromKey for (String, String) {
    fn from_key(values: &[String]) -> Result<Self, String> {
        match values {
            [a, b] => Ok((a.clone(), b.clone())),
            _ => Err(format!("two key values expected, not {values:?}")),
        }
    }
}
