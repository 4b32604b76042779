//! # cosmap-provision
//!
//! The last stage of cosmap's flow: **`LogicalModel` → containers on a Cosmos DB
//! account**. It takes the physical definitions the mapper derives
//! (`LogicalModel::container_definitions()`: partition key, indexing policy, unique
//! keys, default TTL, in Cosmos DB's own shapes) and applies them through the
//! `azure_data_cosmos` SDK — the same definitions `cosmap-codegen` renders, without
//! either crate depending on the other.
//!
//! Two steps, so that nothing happens before the user has seen what will:
//!
//! 1. [`plan`] reads (only reads) the database and each container and decides, per
//!    container: **create**, **unchanged**, **differs** (indexing policy or default
//!    TTL, which Cosmos DB changes in place) or **drift** (partition key or unique
//!    keys, which it cannot change).
//! 2. [`apply`] creates what is missing, changes a differing default TTL in place
//!    and, only when asked ([`ApplyOptions::update_indexing`]), replaces differing
//!    indexing policies. A
//!    plan with drift is refused whole, before anything is sent; nothing ever
//!    deletes or recreates a database or container. Applying an up-to-date plan
//!    sends nothing, so provisioning twice is safe.
//!
//! ```no_run
//! # async fn run(definitions: Vec<cosmap_mapper::ContainerDefinition>) -> Result<(), cosmap_provision::ProvisionError> {
//! use cosmap_provision::{apply, plan, AccountKey, ApplyOptions, Connection, Settings, Target, Throughput};
//!
//! let key = std::env::var("COSMOS_KEY").ok().map(AccountKey::from);
//! let target = Target::new("https://localhost:8081/", key, "Ecommerce")?;
//! let connection = Connection::open(&target, Settings::default()).await?;
//! let plan = plan(&connection, &definitions, Throughput::None).await?;
//! let applied = apply(&connection, &plan, &ApplyOptions::default()).await?;
//! # Ok(()) }
//! ```
//!
//! [`read_deployed`] reads what is provisioned (every container of the database, in
//! the model's shapes) for `cosmap diff NEW --endpoint`.
//!
//! The [`Target`] holds the endpoint rules (plain `http://` and the emulator's
//! well-known key only for loopback hosts); the key is an [`AccountKey`], which never
//! shows up in output. [`Connection`] sets the SDK up for the endpoint (local
//! servers need a few settings, documented in [`client`]) and sends every request
//! with bounded retries and a timeout ([`RetryPolicy`]). Errors are
//! [`ProvisionError`]s with a message and a hint for the user.

#![warn(missing_docs)]

pub mod apply;
pub mod client;
pub mod deployed;
mod diff;
pub mod error;
#[cfg(feature = "in-memory-emulator")]
pub mod in_memory;
mod key;
pub mod plan;
pub mod retry;
pub mod target;
pub mod throughput;
mod trace;

pub use apply::{apply, apply_reporting, Applied, AppliedAction, ApplyOptions};
pub use client::{Connection, Settings};
pub use deployed::{read_deployed, ServerContainer};
pub use error::{ErrorClass, ProvisionError};
pub use key::AccountKey;
pub use plan::{
    database_exists, plan, ContainerAction, ContainerPlan, DatabaseAction, DatabasePlan, Difference, Handling, Plan,
    Property, PLAN_FORMAT_VERSION,
};
pub use retry::RetryPolicy;
pub use target::{shown_endpoint, KeySource, Target, TargetError, EMULATOR_ENDPOINT};
pub use throughput::{Throughput, ThroughputError};
pub use trace::Trace;
