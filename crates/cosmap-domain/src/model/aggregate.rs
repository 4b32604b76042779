use serde::{Deserialize, Serialize};

/// A consistency boundary: a root entity and the entities and value objects it owns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Aggregate {
    /// Name of the aggregate; defaults to the root entity's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The root entity.
    pub root: String,
    /// The other entities and value objects of the aggregate (not the root).
    #[serde(default)]
    pub members: Vec<String>,
    /// Default time-to-live of the aggregate's documents in seconds (-1: never expire by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_ttl_seconds: Option<i64>,
    /// Pins the container's partition key, so the mapper never moves it: the root's
    /// identity, a required single string attribute of the root, or the identity of a
    /// root it refers to through a single reference (`eventId`). Priced like any
    /// other key; `cosmap model` shows it as pinned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition_key: Option<String>,
}

impl Aggregate {
    /// An aggregate rooted at `root`, named after it.
    pub fn new(root: impl Into<String>) -> Self {
        Aggregate {
            name: None,
            root: root.into(),
            members: Vec::new(),
            default_ttl_seconds: None,
            partition_key: None,
        }
    }

    setters! {
        /// Adds a member entity or value object.
        member(name: impl Into<String>) => push_into members;
        /// Pins the partition key to `property` (see [`Aggregate::partition_key`]).
        partition_key(property: impl Into<String>) => some_into partition_key;
    }
    /// The aggregate's effective name: its own, or its root's.
    pub fn display_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.root)
    }
}
