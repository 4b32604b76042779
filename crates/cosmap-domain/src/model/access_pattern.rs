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
    /// Attributes the operation sorts on, in order; a leading `-` sorts that one
    /// descending (`"-createdAt"`: newest first). See [`AccessPattern::sort_keys`].
    #[serde(default)]
    pub sort: Vec<String>,
    /// The most items one execution returns (`TOP n`), for reads: "the ten newest".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub limit: Option<u64>,
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
            limit: None,
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

    /// Adds a sort attribute (ascending; prefix it with `-`, or use
    /// [`sort_descending`](Self::sort_descending), for descending).
    pub fn sort(mut self, attribute: impl Into<String>) -> Self {
        self.sort.push(attribute.into());
        self
    }

    /// Adds a descending sort attribute (`"-attribute"` in the file).
    pub fn sort_descending(mut self, attribute: impl AsRef<str>) -> Self {
        self.sort.push(format!("-{}", attribute.as_ref()));
        self
    }

    /// Returns at most `n` items per execution.
    pub fn limit(mut self, n: u64) -> Self {
        self.limit = Some(n);
        self
    }

    /// The sort entries as attributes and directions, in order.
    pub fn sort_keys(&self) -> Vec<SortKey<'_>> {
        self.sort.iter().map(|s| SortKey::parse(s)).collect()
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

/// One entry of an access pattern's `sort`: the attribute and its direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SortKey<'a> {
    /// The attribute sorted on.
    pub attribute: &'a str,
    /// Largest (newest) first.
    pub descending: bool,
}

impl<'a> SortKey<'a> {
    /// `"-createdAt"` → descending `createdAt`; `"createdAt"` → ascending.
    pub fn parse(entry: &'a str) -> Self {
        match entry.strip_prefix('-') {
            Some(attribute) => SortKey {
                attribute,
                descending: true,
            },
            None => SortKey {
                attribute: entry,
                descending: false,
            },
        }
    }
}
