//! What is provisioned against a new model: [`diff_deployed`].
//!
//! An account holds containers, not a model: their definitions (partition key,
//! unique keys, indexing policy, default TTL) are compared with the new model's, and
//! classified as between two models; document types and properties cannot be, so the
//! diff says it compared containers only ([`ModelDiff::containers_only`]). A container
//! on the account that the new model does not have (a lease container, say) is
//! `containerRemoved`: that is what it is relative to the model.

use cosmap_mapper::{ContainerDefinition, LogicalModel};

use crate::change::{ModelDiff, DIFF_FORMAT_VERSION};
use crate::containers;

/// A container as it is provisioned: its definition as read from the account (the
/// server's defaults filled in: a partition key's kind `Hash` and version 1, no
/// indexing policy meaning Cosmos DB's default), and the index kinds it has that a
/// [`ContainerDefinition`] cannot hold.
#[derive(Debug, Clone, PartialEq)]
pub struct DeployedContainer {
    /// The definition.
    pub definition: ContainerDefinition,
    /// The indexing policy's lists a model never declares that are not empty on the
    /// account (`spatialIndexes`, `vectorIndexes`, `fullTextIndexes`): the indexing
    /// policy differs from any model's.
    pub other_indexes: Vec<String>,
}

impl From<ContainerDefinition> for DeployedContainer {
    fn from(definition: ContainerDefinition) -> Self {
        DeployedContainer {
            definition,
            other_indexes: Vec::new(),
        }
    }
}

/// The changes that turn the containers `deployed` on an account (called `old` in the
/// result: for example `Ecommerce at https://…/`) into `new`'s containers: added,
/// removed, partition keys, unique keys, indexing policies, default TTLs, classified as
/// [`crate::diff`] classifies them. No estimates: an account gives no volumes.
pub fn diff_deployed(old: &str, deployed: &[DeployedContainer], new: &LogicalModel) -> ModelDiff {
    let changes = containers::compare_deployed(deployed, new);
    ModelDiff {
        format_version: DIFF_FORMAT_VERSION,
        old: old.to_string(),
        new: new.model.clone(),
        worst: changes.iter().map(|c| c.class).max(),
        changes,
        containers_only: true,
    }
}
