use serde::{Deserialize, Serialize};

use super::{Attribute, Volume};

/// An attribute bundle without identity, owned by one aggregate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ValueObject {
    /// UpperCamelCase name (for example `DeliveryAddress`).
    pub name: String,
    /// The attributes.
    #[serde(default)]
    pub attributes: Vec<Attribute>,
    /// Expected average size of one instance (the count is implied by relationships).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume: Option<Volume>,
    /// What it is, in a sentence: carried into the generated types' docs, the JSON
    /// Schemas and the diagrams.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Not allowed: accepted only so validation can explain why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub identity: Option<serde_json::Value>,
}

impl ValueObject {
    /// A value object with no attributes yet.
    pub fn new(name: impl Into<String>) -> Self {
        ValueObject {
            name: name.into(),
            attributes: Vec::new(),
            volume: None,
            description: None,
            identity: None,
        }
    }

    setters! {
        /// Describes what it is.
        description(text: impl Into<String>) => some_into description;
        /// Adds an attribute.
        attribute(attribute: Attribute) => push attributes;
    }
    /// Declares the average size of one instance in bytes.
    pub fn avg_size_bytes(mut self, bytes: f64) -> Self {
        self.volume = Some(Volume {
            count: None,
            avg_size_bytes: Some(bytes),
        });
        self
    }
}
