//! # cosmap-diff
//!
//! The stage after mapping that compares two designs: **`LogicalModel` × `LogicalModel`
//! → [`ModelDiff`]**. A domain model changes every few weeks, while a Cosmos DB
//! container's partition key and unique keys never change and documents already written
//! keep their old shape; [`diff`] says what a change of the model will do before it is
//! done, as `terraform plan` does.
//!
//! Every difference — containers, partition keys, unique keys, indexing, TTL,
//! document types, properties, embedded ↔ separate value objects, references, copies
//! and other derived data — is a [`Change`] with a [`Class`] (in place, additive, data
//! migration, breaking for readers; ordered by severity), a [`Subject`], a typed
//! [`ChangeKind`], a one-line explanation of what to do, and for migrations an
//! [`Estimate`] of documents and request units from the old model's [`Volumes`]. The
//! classes follow what Cosmos DB can change in place and what the Rust types `cosmap
//! generate` writes still deserialise (see `classify`). No I/O: the caller maps both
//! models.
//!
//! [`diff_deployed`] compares what is provisioned on an account (its containers'
//! definitions, read by the caller: `cosmap-provision` reads them) with a new logical
//! model — containers only, since an account holds no model of its documents.
//!
//! ```
//! # let model = cosmap_domain::from_slice(br#"{"name": "M", "entities": [{"name": "A", "identity": "aId", "attributes": []}], "aggregates": [{"name": "A", "root": "A"}]}"#, None).unwrap();
//! let logical = cosmap_mapper::map(&model, &cosmap_mapper::Options::default());
//! let diff = cosmap_diff::diff(&logical, &logical, &cosmap_diff::Volumes::of(&model, &logical)).unwrap();
//! assert!(diff.is_empty());
//! ```

#![warn(missing_docs)]

mod change;
mod classify;
mod collector;
mod containers;
mod deployed;
mod documents;
mod error;
mod properties;
mod volumes;

#[cfg(test)]
mod tests;

pub use change::{
    Change, ChangeKind, Class, Derived, Estimate, KeyDefinitionChange, ModelDiff, Subject, DIFF_FORMAT_VERSION,
};
pub use deployed::{diff_deployed, DeployedContainer};
pub use error::DiffError;
pub use volumes::{DocVolume, Volumes};

use cosmap_mapper::LogicalModel;

/// The changes that turn `old` into `new`; `volumes` (the old model's, or
/// [`Volumes::unknown`]) price the data migrations.
pub fn diff(old: &LogicalModel, new: &LogicalModel, volumes: &Volumes) -> Result<ModelDiff, DiffError> {
    if old.format_version != new.format_version {
        return Err(DiffError::FormatVersion {
            old: old.format_version,
            new: new.format_version,
        });
    }
    let mut col = collector::Collector::new(old, new, volumes);
    containers::compare(&mut col);
    documents::compare(&mut col);
    let changes = col.finish();
    Ok(ModelDiff {
        format_version: DIFF_FORMAT_VERSION,
        old: old.model.clone(),
        new: new.model.clone(),
        worst: changes.iter().map(|c| c.class).max(),
        changes,
        containers_only: false,
    })
}
