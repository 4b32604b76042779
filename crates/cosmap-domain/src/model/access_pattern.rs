use serde::{Deserialize, Serialize};

/// One way the application reads or writes data, and how often.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccessPattern {
    /// A unique, human-readable name (for example `orders of an account`).
    pub name: String,
    /// Read or write.
    pub kind: AccessKind,
    /// The entity or value object the operation starts from.
    pub start: String,
    /// Attributes the operation filters on (equality), for example `accountId`.
    #[serde(default)]
    pub filter: Vec<String>,
    /// Attributes the operation sorts on.
    #[serde(default)]
    pub sort: Vec<String>,
    /// The entities and value objects it returns or writes; defaults to `start`.
    #[serde(default)]
    pub returns: Vec<String>,
    /// How often it runs, per second.
    pub per_second: f64,
    /// For writes: what happens to the items (default `replace`, the dearer case).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write: Option<WriteOperation>,
}

/// What a write access pattern does to its items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum WriteOperation {
    /// Creates new items.
    Create,
    /// Replaces (updates or upserts) existing items.
    Replace,
    /// Deletes items.
    Delete,
}

/// Whether an access pattern reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum AccessKind {
    /// Queries or point reads.
    Read,
    /// Creates, updates or deletes.
    Write,
}

impl AccessPattern {
    /// A pattern with no filter; add filters with [`AccessPattern::filter`].
    pub fn new(name: impl Into<String>, kind: AccessKind, start: impl Into<String>, per_second: f64) -> Self {
        AccessPattern {
            name: name.into(),
            kind,
            start: start.into(),
            filter: Vec::new(),
            sort: Vec::new(),
            returns: Vec::new(),
            per_second,
            write: None,
        }
    }

    /// Adds a filter attribute.
    pub fn filter(mut self, attribute: impl Into<String>) -> Self {
        self.filter.push(attribute.into());
        self
    }

    /// Adds a sort attribute.
    pub fn sort(mut self, attribute: impl Into<String>) -> Self {
        self.sort.push(attribute.into());
        self
    }

    /// Says what a write does (create, replace or delete).
    pub fn write(mut self, operation: WriteOperation) -> Self {
        self.write = Some(operation);
        self
    }

    /// Adds a returned entity or value object.
    pub fn returns(mut self, name: impl Into<String>) -> Self {
        self.returns.push(name.into());
        self
    }
}
