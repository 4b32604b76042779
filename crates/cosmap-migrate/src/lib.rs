//! # cosmap-migrate
//!
//! The stage after `cosmap-diff`: **two logical models → a [`MigrationPlan`] → a run
//! through `azure_data_cosmos`**. [`plan`] turns each change the diff reports into a
//! typed [`Step`] — create containers (through `cosmap-provision`'s plan/apply, never
//! deleting or replacing one), copy a repartitioned container into a new one from its
//! change feed, split embedded value objects out into documents of their own, or
//! nothing to do (a new optional property needs no back-fill) — and refuses the whole
//! plan, each change named, when one of them cannot be migrated.
//!
//! [`run`] sends the steps in order. A step that reads a change feed keeps its position
//! (the continuation) in a lease document ([`LEASE_TYPE`]) written after each page, so
//! a run that stops (killed, or asked to by the progress callback) resumes where the
//! lease says; what was written after the last lease is written again, which is
//! harmless: every write goes to a document with a deterministic id, and is
//! conditional on the version it was computed from (`if-match`; a new document never
//! replaces a newer one), so an application writing meanwhile loses nothing. Nothing
//! is ever deleted: the report lists what the user may drop once satisfied.
//!
//! ```no_run
//! # async fn run(old: cosmap_mapper::LogicalModel, new: cosmap_mapper::LogicalModel, connection: cosmap_provision::Connection) -> Result<(), cosmap_migrate::MigrateError> {
//! let plan = cosmap_migrate::plan(&old, &new)?;
//! print!("{}", plan.to_text());
//! let report = cosmap_migrate::run(&plan, &connection, &cosmap_migrate::RunOptions::default(), |p| {
//!     eprintln!("{}: {} / {:?} documents, {:.0} RU", p.step, p.done, p.total, p.request_units);
//!     cosmap_migrate::Control::Continue
//! })
//! .await?;
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

mod error;
mod plan;
mod readable;
mod rehearse;
mod run;

pub use error::{MigrateError, Refusal};
pub use plan::{
    plan, repartitioned_name, unique_keys_name, Conversion, KeyFrom, LeaseRef, MigrationPlan, Step, LEASE_TYPE,
    MIGRATION_FORMAT_VERSION,
};
pub use rehearse::{rehearse, Mapped, Rehearsal, Unreadable, Written};
pub use run::{
    run, run_reporting, strip_system, Control, MigrationReport, Progress, RunOptions, StepReport, SYSTEM_PROPERTIES,
};
