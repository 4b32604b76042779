//! Carrying out a plan: creations, default TTLs changed in place, plus indexing-policy
//! replacements when asked.
//!
//! Never destructive: this crate has no code path that deletes or recreates a
//! database or container (`tests/never_deletes.rs` fails if its source ever names
//! a delete API), and a plan with drift is refused whole before anything is sent.

use azure_data_cosmos::models::ContainerProperties;
use azure_data_cosmos::options::CreateContainerOptions;
use cosmap_mapper::ContainerDefinition;
use serde::Serialize;
use serde_json::Value;

use crate::client::Connection;
use crate::diff;
use crate::error::ProvisionError;
use crate::plan::{ContainerAction, ContainerPlan, DatabaseAction, Plan};

/// What [`apply`] may do beyond creating missing containers: `ApplyOptions::default()`
/// and the setters, so a new option is not a breaking change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ApplyOptions {
    /// Replace the indexing policy of containers whose policy differs from the model.
    pub update_indexing: bool,
    /// Create the database when it is missing. On by default, for callers that own
    /// the account (tests, `cosmap verify`'s new database); `cosmap provision` and
    /// `cosmap migrate` turn it off unless given `--create-database`, so that a
    /// mistyped `--database` is an error ([`ProvisionError::DatabaseMissing`]), not a
    /// new database.
    pub create_database: bool,
}

impl Default for ApplyOptions {
    fn default() -> Self {
        ApplyOptions {
            update_indexing: false,
            create_database: true,
        }
    }
}

impl ApplyOptions {
    /// Whether a missing database is created (`false`: it is an error).
    pub fn create_database(mut self, on: bool) -> Self {
        self.create_database = on;
        self
    }

    /// Also replace indexing policies that differ from the model.
    pub fn update_indexing(mut self, on: bool) -> Self {
        self.update_indexing = on;
        self
    }
}

/// One change made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Applied {
    /// What was done.
    pub action: AppliedAction,
    /// The database or container id.
    pub id: String,
}

impl Applied {
    /// The change in words: `created container `Order``.
    pub fn describe(&self) -> String {
        match self.action {
            AppliedAction::CreatedDatabase => format!("created database `{}`", self.id),
            AppliedAction::CreatedContainer => format!("created container `{}`", self.id),
            AppliedAction::ReplacedIndexingPolicy => format!(
                "replaced the indexing policy of `{}` (Cosmos DB re-indexes in the background)",
                self.id
            ),
            AppliedAction::ChangedDefaultTtl => format!(
                "changed the default TTL of `{}` in place (items without a `ttl` of their own now expire by it)",
                self.id
            ),
            AppliedAction::FoundCreated => format!("`{}` was created meanwhile, as the model says", self.id),
        }
    }
}

/// What was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum AppliedAction {
    /// The database was created.
    CreatedDatabase,
    /// The container was created.
    CreatedContainer,
    /// The container's indexing policy was replaced by the model's.
    ReplacedIndexingPolicy,
    /// The container's default TTL was changed in place to the model's.
    ChangedDefaultTtl,
    /// Someone else created it meanwhile, as the model says: nothing to do.
    FoundCreated,
}

/// Top-level properties of a container that the SDK's `ContainerProperties` carries
/// through a replace; any other (non-system) property would be reset by one.
const CARRIED_OVER: [&str; 10] = [
    "id",
    "partitionKey",
    "indexingPolicy",
    "uniqueKeyPolicy",
    "conflictResolutionPolicy",
    "vectorEmbeddingPolicy",
    "fullTextPolicy",
    "changeFeedPolicy",
    "defaultTtl",
    "analyticalStorageTtl",
];

/// Applies `plan` through `connection` (the connection it was planned with).
///
/// Refuses a plan with drift before sending anything ([`Plan::refuse_drift`]).
/// Creates the database and the containers marked `create` (with the plan's
/// throughput); changes a differing default TTL in place; with `update_indexing`,
/// replaces the indexing policy of containers marked `differs` (one replace per
/// container carries both). Returns what it did, in order; a plan with nothing to do sends
/// nothing. A failure after some changes were made is a [`ProvisionError::Partial`]
/// that lists them.
pub async fn apply(
    connection: &Connection,
    plan: &Plan,
    options: &ApplyOptions,
) -> Result<Vec<Applied>, ProvisionError> {
    apply_reporting(connection, plan, options, &mut |_| {}).await
}

/// [`apply`], calling `on_change` with each change as soon as it is made (so a
/// caller can show progress that survives a failure further on).
pub async fn apply_reporting(
    connection: &Connection,
    plan: &Plan,
    options: &ApplyOptions,
    on_change: &mut (dyn FnMut(&Applied) + Send),
) -> Result<Vec<Applied>, ProvisionError> {
    let mut applied = vec![];
    match apply_steps(connection, plan, options, &mut |change| {
        on_change(&change);
        applied.push(change);
    })
    .await
    {
        Ok(()) => Ok(applied),
        Err(cause) if applied.is_empty() => Err(cause),
        Err(cause) => Err(ProvisionError::Partial {
            made: applied,
            cause: Box::new(cause),
        }),
    }
}

async fn apply_steps(
    connection: &Connection,
    plan: &Plan,
    options: &ApplyOptions,
    done: &mut (dyn FnMut(Applied) + Send),
) -> Result<(), ProvisionError> {
    plan.refuse_drift()?;
    plan.refuse_missing_database(options)?;
    if plan.endpoint != connection.endpoint() || plan.database.id != connection.database() {
        return Err(ProvisionError::Client {
            operation: "apply the plan".to_string(),
            message: format!(
                "it was made for database `{}` at {}, not `{}` at {}",
                plan.database.id,
                plan.endpoint,
                connection.database(),
                connection.endpoint()
            ),
        });
    }
    if plan.database.action == DatabaseAction::Create {
        let client = connection.cosmos_client();
        let id = plan.database.id.as_str();
        let operation = format!("create database `{id}`");
        let reply = connection
            .request(
                &operation,
                &[409],
                || async move { client.create_database(id, None).await },
            )
            .await?;
        done(Applied {
            action: match reply {
                Some(_) => AppliedAction::CreatedDatabase,
                None => AppliedAction::FoundCreated,
            },
            id: id.to_string(),
        });
    }
    for container in &plan.containers {
        match container.action {
            ContainerAction::Create => done(create(connection, plan, container).await?),
            ContainerAction::Differs if container.replaces_in_place(options) => {
                for change in replace_in_place(connection, container, options).await? {
                    done(change);
                }
            }
            _ => {}
        }
    }
    Ok(())
}

async fn create(connection: &Connection, plan: &Plan, container: &ContainerPlan) -> Result<Applied, ProvisionError> {
    let properties = &sdk_properties(&container.wanted)?;
    let mut options = CreateContainerOptions::default();
    if let Some(throughput) = plan.throughput.to_sdk() {
        options = options.with_throughput(throughput);
    }
    let options = &options;
    let database = &connection.database_client();
    let operation = format!("create container `{}`", container.id);
    let reply = connection
        .request(&operation, &[409], || async move {
            database
                .create_container(properties.clone(), Some(options.clone()))
                .await
        })
        .await?;
    if reply.is_some() {
        return Ok(Applied {
            action: AppliedAction::CreatedContainer,
            id: container.id.clone(),
        });
    }
    // 409: created meanwhile (by someone else, or by an attempt that timed out).
    let current = connection.read_container(&container.id).await?.unwrap_or(Value::Null);
    let comparison = diff::compare(&container.wanted, &current);
    if comparison.action == ContainerAction::Drift {
        return Err(ProvisionError::ChangedMeanwhile {
            container: container.id.clone(),
            differences: comparison.differences,
        });
    }
    Ok(Applied {
        action: AppliedAction::FoundCreated,
        id: container.id.clone(),
    })
}

/// Replaces the container's properties with the server's own, the default TTL and
/// (with `update_indexing`) the indexing policy set to the model's: one replace.
async fn replace_in_place(
    connection: &Connection,
    container: &ContainerPlan,
    options: &ApplyOptions,
) -> Result<Vec<Applied>, ProvisionError> {
    let id = container.id.as_str();
    let indexing = options.update_indexing && container.replaces_indexing_policy();
    let ttl = container.changes_default_ttl();
    let what = match (indexing, ttl) {
        (true, true) => "the indexing policy and default TTL",
        (true, false) => "the indexing policy",
        _ => "the default TTL",
    };
    let Some(mut current) = connection.read_container(id).await? else {
        return Err(ProvisionError::Client {
            operation: format!("replace {what} of container `{id}`"),
            message: "the container no longer exists; run provisioning again to create it".to_string(),
        });
    };
    let unsafe_fields = not_carried_over(&current);
    if !unsafe_fields.is_empty() {
        return Err(ProvisionError::UnsafeReplace {
            container: id.to_string(),
            fields: unsafe_fields,
        });
    }
    if let Some(object) = current.as_object_mut() {
        if indexing {
            let wanted_policy =
                serde_json::to_value(&container.wanted.indexing_policy).map_err(|e| ProvisionError::Definition {
                    container: id.to_string(),
                    message: e.to_string(),
                })?;
            object.insert("indexingPolicy".to_string(), wanted_policy);
        }
        if ttl {
            match container.wanted.default_ttl {
                Some(seconds) => object.insert("defaultTtl".to_string(), Value::from(seconds)),
                None => object.remove("defaultTtl"),
            };
        }
    }
    let properties: &ContainerProperties = &serde_json::from_value(current)
        .map_err(|e| connection.bad_answer(&format!("read container `{id}`"), &e.to_string()))?;
    let database = &connection.database_client();
    let operation = format!("replace {what} of container `{id}`");
    connection
        .request(&operation, &[], || async move {
            let client = database.container_client(id, None).await?;
            client.replace(properties.clone(), None).await
        })
        .await?;
    let mut applied = vec![];
    if indexing {
        connection.trace().line(format_args!(
            "container `{id}`: Cosmos DB re-indexes in the background; queries see the new policy as it progresses"
        ));
        applied.push(Applied {
            action: AppliedAction::ReplacedIndexingPolicy,
            id: id.to_string(),
        });
    }
    if ttl {
        applied.push(Applied {
            action: AppliedAction::ChangedDefaultTtl,
            id: id.to_string(),
        });
    }
    Ok(applied)
}

/// The model's definition as the SDK's container properties (same REST shape).
pub(crate) fn sdk_properties(definition: &ContainerDefinition) -> Result<ContainerProperties, ProvisionError> {
    serde_json::to_value(definition)
        .and_then(serde_json::from_value)
        .map_err(|e| ProvisionError::Definition {
            container: definition.id.clone(),
            message: format!("the SDK cannot express it: {e}"),
        })
}

/// Properties of the server's container that a replace would not carry over.
fn not_carried_over(current: &Value) -> Vec<String> {
    let Some(object) = current.as_object() else {
        return vec![];
    };
    object
        .iter()
        .filter(|(key, value)| {
            let system = key.starts_with('_');
            let carried = CARRIED_OVER.contains(&key.as_str());
            let default_geospatial = key.as_str() == "geospatialConfig" && is_default_geospatial(value);
            !(system || carried || default_geospatial)
        })
        .map(|(key, _)| key.clone())
        .collect()
}

/// `{}` or `{"type": "Geography"}`: the default a replace leaves in place.
fn is_default_geospatial(value: &Value) -> bool {
    match value.as_object() {
        Some(config) => {
            config.is_empty() || (config.len() == 1 && config.get("type") == Some(&Value::from("Geography")))
        }
        None => value.is_null(),
    }
}

#[cfg(test)]
mod tests {
    use cosmap_mapper::{IndexingPolicy, PartitionKey, UniqueKey, UniqueKeyPolicy};
    use serde_json::json;

    use super::*;

    #[test]
    fn definitions_become_sdk_properties_unchanged() {
        let definition = ContainerDefinition {
            id: "Account".into(),
            partition_key: PartitionKey::on("accountId"),
            indexing_policy: IndexingPolicy::default(),
            unique_key_policy: Some(UniqueKeyPolicy {
                unique_keys: vec![UniqueKey {
                    paths: vec!["/email".into()],
                }],
            }),
            default_ttl: Some(-1),
        };
        let properties = sdk_properties(&definition).expect("expressible");
        let sent = serde_json::to_value(&properties).expect("serialisable");
        assert_eq!(sent, serde_json::to_value(&definition).expect("serialisable"));
    }

    #[test]
    fn replacing_never_drops_unknown_settings() {
        let current = json!({
            "id": "Account", "partitionKey": {}, "indexingPolicy": {}, "conflictResolutionPolicy": {},
            "geospatialConfig": {"type": "Geography"}, "_rid": "x", "_etag": "y"
        });
        assert_eq!(not_carried_over(&current), Vec::<String>::new());
        let current = json!({
            "id": "Account", "computedProperties": [], "geospatialConfig": {"type": "Geometry"}
        });
        assert_eq!(not_carried_over(&current), ["computedProperties", "geospatialConfig"]);
    }
}
