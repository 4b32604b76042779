//! # cosmap-verify
//!
//! The stage after provisioning: **does the logical model answer its access
//! patterns?** [`verify`] provisions the containers of a `LogicalModel` on a Cosmos
//! DB engine, writes deterministic sample documents for every document type, runs
//! every access pattern's operation (the requests `cosmap_mapper` derived: point
//! reads, single- and cross-partition queries with their SQL, writes including the
//! copy-sync writes), and checks each answer against what the samples say it should
//! be — worked out in Rust, not by trusting the SQL.
//!
//! - [`samples`]: the sample documents (3 per root, more where a `limit` needs them,
//!   2/1/3 children per parent,
//!   embedded arrays of 2, references to existing samples, snapshots and copies built
//!   as the generated conversions build them); values from `values` (independent
//!   per filter, all different where sorted or unique, offset by attribute name);
//! - `expected`: what a read should return (filters with "any element"
//!   semantics through arrays, type, partition, sort order);
//! - `fields`: what each result must hold besides its id (the `project`ed
//!   attributes, `returns` paths through a reference, `counts`), from the samples and
//!   the domain model;
//! - `run`: provisioning, writing the samples, sending each request and judging the
//!   answers (`run/reads.rs`, `run/writes.rs`);
//! - [`report`]: the [`Report`], as a table or JSON (`docs/verify.md`);
//! - [`generated`]: the same judge over the generated data access
//!   ([`verify_generated`]: each read's answer taken from its generated method).
//!
//! The engine is the SDK's in-memory Cosmos DB engine ([`Engine::InMemory`]: no
//! server, nothing leaves the process), or an account or emulator
//! ([`Engine::Endpoint`]), in a database verify creates (named with
//! [`fresh_database_name`]) and leaves for the user to drop: nothing is ever deleted
//! except the one sample a delete pattern deletes.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let model = cosmap_domain::load_file(std::path::Path::new("examples/iot-fleet/model.json"))?;
//! let logical = cosmap_mapper::map(&model, &cosmap_mapper::Options::default());
//! let report = cosmap_verify::verify(
//!     &model,
//!     &logical,
//!     cosmap_verify::Engine::InMemory,
//!     cosmap_provision::Settings::default(),
//! )
//! .await?;
//! print!("{}", report.to_text());
//! assert!(report.passed());
//! # Ok(()) }
//! ```
//!
//! A request the server refuses is reported (`error`, with the server's answer), a
//! wrong answer is reported (`fail`, with the ids missing or not expected); neither
//! stops the run. [`VerifyError`] is only for what stops it before there is anything
//! to report: an unreachable endpoint, a database that is not new, samples that
//! cannot be built or written.

#![warn(missing_docs)]

mod error;
mod expected;
mod fields;
pub mod generated;
mod key;
pub mod report;
mod run;
pub mod samples;
mod values;

pub use error::VerifyError;
pub use generated::{verify_generated, verify_generated_on, Answerer};
pub use report::{EngineInfo, EngineKind, PatternOutcome, Report, RequestOutcome, Verdict, REPORT_FORMAT_VERSION};
pub use run::{
    fresh_database_name, in_memory_database, unjudged_write, verify, verify_stored, Engine, StoredContainer,
};
