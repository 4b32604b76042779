//! The model file format: the serde + schemars types a `model.json` deserialises into.
//!
//! These types are the *unvalidated* description of a domain. [`crate::DomainModel`]
//! wraps a [`ModelSpec`] once validation has accepted it.

mod access_pattern;
mod aggregate;
mod attribute;
mod entity;
mod pin;
mod relationship;
mod thresholds;
mod value_object;

pub use access_pattern::{AccessKind, AccessPattern, Filter, FilterOp, SortKey, WriteOperation, FILTER_OPERATORS};
pub use aggregate::Aggregate;
pub use attribute::{Attribute, AttributeType};
pub use entity::{ChangeRate, Entity, Volume};
pub use pin::{Pin, PinChoice, PinnedOptimisation, SubjectKind};
pub use relationship::{Cardinality, Depth, Growth, Relationship};
pub use thresholds::{ThresholdOverrides, Throughput};
pub use value_object::ValueObject;

use serde::{Deserialize, Serialize};

/// A domain model: entities, value objects, aggregates, relationships and access patterns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "schema", schemars(title = "cosmap domain model"))]
pub struct ModelSpec {
    /// Path or URL of this file's JSON Schema, for editors; ignored by cosmap.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Name of the model, shown in outputs.
    pub name: String,
    /// Free-text description of the domain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Entities: things with an identity.
    #[serde(default)]
    pub entities: Vec<Entity>,
    /// Value objects: attribute bundles without identity, owned by one aggregate.
    #[serde(default)]
    pub value_objects: Vec<ValueObject>,
    /// Aggregates: consistency boundaries, each with a root entity and members.
    #[serde(default)]
    pub aggregates: Vec<Aggregate>,
    /// Relationships between entities and value objects, seen from the `from` side.
    #[serde(default)]
    pub relationships: Vec<Relationship>,
    /// How the application reads and writes the data, and how often.
    #[serde(default)]
    pub access_patterns: Vec<AccessPattern>,
    /// Overrides of the mapper's thresholds for this model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thresholds: Option<ThresholdOverrides>,
    /// Choices of the mapper's search pinned by the model: an optimisation of one
    /// subject kept whatever it costs, or avoided.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pins: Vec<Pin>,
}

impl ModelSpec {
    /// The JSON Schema of the model file format, as `cosmap schema` prints it.
    #[cfg(feature = "schema")]
    pub fn json_schema() -> schemars::Schema {
        schemars::schema_for!(ModelSpec)
    }
}
