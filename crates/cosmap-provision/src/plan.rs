//! The plan: what provisioning would do, container by container — and planning it
//! by reading the database and each container (reads only).
//!
//! The JSON shape is documented in `docs/provisioning.md`.

use cosmap_mapper::ContainerDefinition;
use serde::Serialize;
use serde_json::Value;

use crate::apply::ApplyOptions;
use crate::client::Connection;
use crate::diff;
use crate::error::ProvisionError;
use crate::throughput::Throughput;

/// Version of the plan's JSON shape.
pub const PLAN_FORMAT_VERSION: u32 = 1;

/// What provisioning would do.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    /// [`PLAN_FORMAT_VERSION`].
    pub format_version: u32,
    /// The account endpoint.
    pub endpoint: String,
    /// The database.
    pub database: DatabasePlan,
    /// Throughput for the containers to create.
    pub throughput: Throughput,
    /// Each container of the model, in the model's order.
    pub containers: Vec<ContainerPlan>,
}

/// The database's part of the plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DatabasePlan {
    /// Database id.
    pub id: String,
    /// Create it, or it is there.
    pub action: DatabaseAction,
}

/// What happens to the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum DatabaseAction {
    /// Missing: created (without throughput of its own).
    Create,
    /// Already there: left as it is.
    Present,
}

/// One container's part of the plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerPlan {
    /// Container id.
    pub id: String,
    /// What happens to it.
    pub action: ContainerAction,
    /// The model's definition (Cosmos DB's REST shape).
    pub wanted: ContainerDefinition,
    /// The definition on the server (`partitionKey`, `indexingPolicy`,
    /// `uniqueKeyPolicy`, `defaultTtl` as the server returned them), when it exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current: Option<Value>,
    /// How `current` differs from `wanted`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<Difference>,
}

/// What happens to a container.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ContainerAction {
    /// Missing: created.
    Create,
    /// As the model says: nothing sent.
    Unchanged,
    /// Differs in what Cosmos DB changes in place (indexing policy, default TTL):
    /// a default TTL is changed in place; the indexing policy is replaced only with
    /// `--update-indexing`.
    Differs,
    /// Differs in what Cosmos DB cannot change in place (partition key, unique
    /// keys): refused, nothing at all is changed.
    Drift,
}

/// One property that differs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Difference {
    /// Which property.
    pub property: Property,
    /// Its value on the server (normalised for comparison).
    pub current: Value,
    /// Its value in the model.
    pub wanted: Value,
    /// Whether Cosmos DB can change it on an existing container.
    pub in_place: bool,
    /// What provisioning does about it ([`Property::handling`]).
    pub handling: Handling,
}

/// What provisioning does about a difference: decided by the property alone, so the
/// plan says it whatever the options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Handling {
    /// Changed in place on every run (a default TTL).
    ChangedInPlace,
    /// Changed in place only when asked (`--update-indexing`: an indexing policy).
    ChangedOnRequest,
    /// Cosmos DB cannot change it: the whole plan is refused (drift).
    Refused,
}

/// A compared property of a container.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Property {
    /// `partitionKey.paths` (drift).
    #[serde(rename = "partitionKey.paths")]
    PartitionKeyPaths,
    /// `partitionKey.kind` (drift).
    #[serde(rename = "partitionKey.kind")]
    PartitionKeyKind,
    /// `partitionKey.version` (drift).
    #[serde(rename = "partitionKey.version")]
    PartitionKeyVersion,
    /// `uniqueKeyPolicy` (drift).
    #[serde(rename = "uniqueKeyPolicy")]
    UniqueKeys,
    /// `indexingPolicy` (in place).
    #[serde(rename = "indexingPolicy")]
    IndexingPolicy,
    /// `defaultTtl` (in place).
    #[serde(rename = "defaultTtl")]
    DefaultTtl,
}

impl Property {
    /// Words for messages.
    pub fn label(self) -> &'static str {
        match self {
            Property::PartitionKeyPaths => "partition key paths",
            Property::PartitionKeyKind => "partition key kind",
            Property::PartitionKeyVersion => "partition key version",
            Property::UniqueKeys => "unique keys",
            Property::IndexingPolicy => "indexing policy",
            Property::DefaultTtl => "default TTL",
        }
    }

    pub(crate) fn is_plural(self) -> bool {
        matches!(self, Property::PartitionKeyPaths | Property::UniqueKeys)
    }

    /// Whether Cosmos DB changes it on an existing container.
    pub fn in_place(self) -> bool {
        matches!(self, Property::IndexingPolicy | Property::DefaultTtl)
    }

    /// What provisioning does when it differs: a default TTL is changed in place,
    /// an indexing policy with `--update-indexing`, anything else is drift.
    pub fn handling(self) -> Handling {
        match self {
            Property::DefaultTtl => Handling::ChangedInPlace,
            Property::IndexingPolicy => Handling::ChangedOnRequest,
            _ => Handling::Refused,
        }
    }
}

impl Plan {
    /// The containers in drift.
    pub fn drift(&self) -> Vec<&ContainerPlan> {
        self.with(ContainerAction::Drift).collect()
    }

    /// The one place drift is decided: `Err` ([`ProvisionError::Drift`], nothing
    /// sent) when any container is in drift. [`crate::apply`] calls it first; a
    /// dry run calls it to give the same answer without applying.
    pub fn refuse_drift(&self) -> Result<(), crate::error::ProvisionError> {
        if self.has_drift() {
            return Err(crate::error::ProvisionError::Drift(
                self.drift().into_iter().cloned().collect(),
            ));
        }
        Ok(())
    }

    /// `Err` ([`crate::ProvisionError::DatabaseMissing`], nothing sent) when the
    /// database is missing and `options` do not create it. [`crate::apply`] calls it;
    /// a dry run calls it to give the same answer.
    pub fn refuse_missing_database(&self, options: &ApplyOptions) -> Result<(), crate::error::ProvisionError> {
        if self.database.action == DatabaseAction::Create && !options.create_database {
            return Err(crate::error::ProvisionError::DatabaseMissing {
                database: self.database.id.clone(),
                endpoint: self.endpoint.clone(),
            });
        }
        Ok(())
    }

    /// Whether the model and the server differ in anything, including differences
    /// provisioning leaves alone (an indexing policy without `--update-indexing`):
    /// false only when everything is as the model says.
    pub fn differs(&self) -> bool {
        self.database.action == DatabaseAction::Create
            || self.containers.iter().any(|c| c.action != ContainerAction::Unchanged)
    }

    /// Whether any container is in drift (then [`crate::apply`] refuses).
    pub fn has_drift(&self) -> bool {
        self.with(ContainerAction::Drift).next().is_some()
    }

    /// How many containers get `action`.
    pub fn count(&self, action: ContainerAction) -> usize {
        self.with(action).count()
    }

    /// How many writes [`crate::apply`] would send (0: nothing to do).
    pub fn writes(&self, options: &ApplyOptions) -> usize {
        if self.has_drift() {
            return 0;
        }
        usize::from(self.database.action == DatabaseAction::Create)
            + self.count(ContainerAction::Create)
            + self.containers.iter().filter(|c| c.replaces_in_place(options)).count()
    }

    fn with(&self, action: ContainerAction) -> impl Iterator<Item = &ContainerPlan> {
        self.containers.iter().filter(move |c| c.action == action)
    }
}

impl ContainerPlan {
    /// Whether `--update-indexing` would replace this container's indexing policy.
    pub fn replaces_indexing_policy(&self) -> bool {
        self.action == ContainerAction::Differs && self.differs_in(Property::IndexingPolicy)
    }

    /// Whether provisioning changes this container's default TTL in place (always,
    /// when it differs and the container is not in drift).
    pub fn changes_default_ttl(&self) -> bool {
        self.action == ContainerAction::Differs && self.differs_in(Property::DefaultTtl)
    }

    /// Whether [`crate::apply`] with `options` replaces this container's properties
    /// (one replace carries both a default TTL and an indexing policy).
    pub fn replaces_in_place(&self, options: &ApplyOptions) -> bool {
        self.changes_default_ttl() || (options.update_indexing && self.replaces_indexing_policy())
    }

    /// Whether `property` differs on the server.
    pub fn differs_in(&self, property: Property) -> bool {
        self.differences.iter().any(|d| d.property == property)
    }
}

/// Plans provisioning `desired` into the connection's database. Sends reads only:
/// the database, then each container (none when the database is missing).
pub async fn plan(
    connection: &Connection,
    desired: &[ContainerDefinition],
    throughput: Throughput,
) -> Result<Plan, ProvisionError> {
    let present = database_exists(connection).await?;
    let mut containers = Vec::with_capacity(desired.len());
    for wanted in desired {
        let current = if present {
            connection.read_container(&wanted.id).await?
        } else {
            None
        };
        containers.push(match current {
            None => ContainerPlan {
                id: wanted.id.clone(),
                action: ContainerAction::Create,
                wanted: wanted.clone(),
                current: None,
                differences: vec![],
            },
            Some(current) => {
                let comparison = diff::compare(wanted, &current);
                ContainerPlan {
                    id: wanted.id.clone(),
                    action: comparison.action,
                    wanted: wanted.clone(),
                    current: Some(comparison.current),
                    differences: comparison.differences,
                }
            }
        });
    }
    Ok(Plan {
        format_version: PLAN_FORMAT_VERSION,
        endpoint: connection.endpoint().to_string(),
        database: DatabasePlan {
            id: connection.database().to_string(),
            action: if present {
                DatabaseAction::Present
            } else {
                DatabaseAction::Create
            },
        },
        throughput,
        containers,
    })
}

/// Whether the connection's database exists (one read).
pub async fn database_exists(connection: &Connection) -> Result<bool, ProvisionError> {
    let database = &connection.database_client();
    let operation = format!("read database `{}`", connection.database());
    let found = connection
        .request(
            &operation,
            &[404],
            || async move { database.read(None).await.map(|_| ()) },
        )
        .await?;
    Ok(found.is_some())
}
