use serde::{Deserialize, Serialize};

use super::Attribute;

/// A domain object with an identity: a root or member of an aggregate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Entity {
    /// UpperCamelCase name (for example `CreditCard`).
    pub name: String,
    /// Name of the identity attribute (for example `accountId`); its value becomes the document `id`.
    pub identity: String,
    /// The other attributes (not the identity).
    #[serde(default)]
    pub attributes: Vec<Attribute>,
    /// Set when this entity is reference data: how often it changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_data: Option<ChangeRate>,
    /// Expected number of instances and their average size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume: Option<Volume>,
    /// What it is, in a sentence: carried into the generated types' docs, the JSON
    /// Schemas and the diagrams.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// How often reference data changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum ChangeRate {
    /// Never changes once written (for example countries).
    Never,
    /// Changes occasionally (for example delivery methods).
    Rarely,
}

/// Expected data volume of an entity or value object.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Volume {
    /// Expected number of instances in the whole database.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<f64>,
    /// Average serialised size of one instance, in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avg_size_bytes: Option<f64>,
}

impl Entity {
    /// An entity with the given name and identity attribute and no other attributes.
    pub fn new(name: impl Into<String>, identity: impl Into<String>) -> Self {
        Entity {
            name: name.into(),
            identity: identity.into(),
            attributes: Vec::new(),
            reference_data: None,
            volume: None,
            description: None,
        }
    }

    setters! {
        /// Describes what it is.
        description(text: impl Into<String>) => some_into description;
        /// Adds an attribute.
        attribute(attribute: Attribute) => push attributes;
        /// Declares the entity reference data with the given change rate.
        reference_data(rate: ChangeRate) => some reference_data;
    }
    /// Declares the expected instance count and average size in bytes.
    pub fn volume(mut self, count: f64, avg_size_bytes: f64) -> Self {
        self.volume = Some(Volume {
            count: Some(count),
            avg_size_bytes: Some(avg_size_bytes),
        });
        self
    }
}
