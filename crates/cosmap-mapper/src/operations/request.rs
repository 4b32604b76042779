//! The typed plan of one access pattern: an [`Operation`] is the [`Request`]s it
//! sends; each request's [`Action`] says how it runs and where its partition key,
//! id and parameters come from ([`ValueSource`]).

use cosmap_domain::AttributeType;
use serde::{Serialize, Serializer};

use super::purpose::Purpose;

/// How a request runs (the kind of an [`Action`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum OperationKind {
    /// Read one item by id and partition key value.
    PointRead,
    /// A query within one logical partition.
    SinglePartitionQuery,
    /// A query that fans out over every physical partition.
    CrossPartitionQuery,
    /// A create, replace or delete of one item.
    Write,
}

impl OperationKind {
    /// The name used in output: `pointRead`, `singlePartitionQuery`, …
    pub fn as_str(self) -> &'static str {
        match self {
            OperationKind::PointRead => "pointRead",
            OperationKind::SinglePartitionQuery => "singlePartitionQuery",
            OperationKind::CrossPartitionQuery => "crossPartitionQuery",
            OperationKind::Write => "write",
        }
    }
}

/// What a write does to an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum WriteKind {
    /// A new item.
    Create,
    /// Replaces (or upserts) an existing item.
    Replace,
    /// Removes an item.
    Delete,
}

impl WriteKind {
    /// The name used in output: `create`, `replace`, `delete`.
    pub fn as_str(self) -> &'static str {
        match self {
            WriteKind::Create => "create",
            WriteKind::Replace => "replace",
            WriteKind::Delete => "delete",
        }
    }
}

/// A path of JSON property names inside a document, for example `account.id`
/// (serialised as `["account", "id"]`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PropertyPath(Vec<String>);

impl PropertyPath {
    /// The path through `names`, outermost first.
    pub fn new<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Self {
        PropertyPath(names.into_iter().map(Into::into).collect())
    }

    /// The property names, outermost first.
    pub fn names(&self) -> &[String] {
        &self.0
    }
}

impl std::fmt::Display for PropertyPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.join("."))
    }
}

impl Serialize for PropertyPath {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// Where a value a request needs (a partition key value, an id) comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ValueSource {
    /// Supplied by the caller: for a read, the access pattern's filter of this
    /// name; for a write, the written document's property (or identity) of this name.
    Parameter(String),
    /// A constant, for example the `type` value that partitions a dictionary.
    Constant(String),
    /// Taken from this property path of a document: for a read, of each document
    /// the pattern's first request returned (a reference's `id` or `partitionKey`);
    /// for a write that keeps a copy in sync, of the source document written. A
    /// reference's `partitionKey` to a root under a hierarchical key holds an array,
    /// one value per level: the whole key.
    Property(PropertyPath),
    /// A hierarchical (`MultiHash`) partition key: one source per level, first level
    /// first. Fewer sources than the container has levels make a prefix, which scopes
    /// a query to the logical partitions that share it.
    Levels(Vec<ValueSource>),
    /// The first `length` characters of the written document's date-time `parameter`
    /// (its UTC RFC 3339 text): the window that names a bucket (`bucket`).
    Window {
        /// The date-time property, for example `measuredAt`.
        parameter: String,
        /// How many characters name the window (13: the hour).
        length: usize,
    },
}

impl std::fmt::Display for ValueSource {
    /// `@accountId`, `"country"`, `account.id` or `[@tenantId, @orderId]`, as `cosmap
    /// model` prints them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ValueSource::Parameter(name) => write!(f, "@{name}"),
            ValueSource::Constant(value) => write!(f, "{value:?}"),
            ValueSource::Property(path) => write!(f, "{path}"),
            ValueSource::Levels(levels) => {
                let levels: Vec<String> = levels.iter().map(ToString::to_string).collect();
                write!(f, "[{}]", levels.join(", "))
            }
            ValueSource::Window { parameter, length } => write!(f, "LEFT(@{parameter}, {length})"),
        }
    }
}

/// How one request runs, with what it needs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Action {
    /// Read one item by id and partition key value.
    PointRead {
        /// The partition key value.
        partition_key: ValueSource,
        /// The item id.
        id: ValueSource,
    },
    /// A query within one logical partition.
    SinglePartitionQuery {
        /// The partition key value that scopes it.
        partition_key: ValueSource,
        /// The parameterised SQL.
        sql: String,
        /// The SQL's parameters (without `@`), each bound to the access pattern's
        /// filter of the same name.
        parameters: Vec<String>,
    },
    /// A query over every physical partition.
    CrossPartitionQuery {
        /// The parameterised SQL.
        sql: String,
        /// The SQL's parameters (without `@`), as for a single-partition query.
        parameters: Vec<String>,
    },
    /// A create, replace or delete of one item.
    Write {
        /// What the write does.
        write: WriteKind,
        /// The partition key value of the item written.
        partition_key: ValueSource,
        /// The id of the item written.
        id: ValueSource,
    },
}

impl Action {
    /// A query: within the partition `partition_key` names, or across partitions.
    pub fn query(partition_key: Option<ValueSource>, sql: String, parameters: Vec<String>) -> Self {
        match partition_key {
            Some(partition_key) => Action::SinglePartitionQuery {
                partition_key,
                sql,
                parameters,
            },
            None => Action::CrossPartitionQuery { sql, parameters },
        }
    }

    /// A point read through reference `name` the document holds: its `partitionKey`
    /// and `id`.
    pub(crate) fn through_reference(name: &str) -> Self {
        Action::PointRead {
            partition_key: ValueSource::Property(PropertyPath::new([name, "partitionKey"])),
            id: ValueSource::Property(PropertyPath::new([name, "id"])),
        }
    }
}

/// One request to Cosmos DB.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    /// How it runs, with its partition key, id, SQL and parameters.
    #[serde(flatten)]
    pub action: Action,
    /// The container.
    pub container: String,
    /// The document types it reads or writes.
    pub document_types: Vec<String>,
    /// Why the request is sent (prose is made from it by [`Purpose`]'s `Display`).
    #[serde(serialize_with = "purpose_text")]
    pub purpose: Purpose,
    /// Index paths the query's filters and sorts use (for the indexing policy).
    #[serde(skip)]
    pub index_paths: Vec<String>,
    /// Paths of a multi-property ORDER BY, in order, each with `true` for descending
    /// (for composite indexes).
    #[serde(skip)]
    pub order_by: Vec<(String, bool)>,
}

fn purpose_text<S: Serializer>(purpose: &Purpose, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(purpose)
}

impl Request {
    /// A request of `action` on document type `document_type` of `container`, for
    /// `purpose`, with no index paths or composite order (a point read, a write).
    pub(crate) fn new(action: Action, container: &str, document_type: &str, purpose: Purpose) -> Self {
        Request {
            action,
            container: container.to_string(),
            document_types: vec![document_type.to_string()],
            purpose,
            index_paths: Vec::new(),
            order_by: Vec::new(),
        }
    }

    /// How the request runs.
    pub fn kind(&self) -> OperationKind {
        match self.action {
            Action::PointRead { .. } => OperationKind::PointRead,
            Action::SinglePartitionQuery { .. } => OperationKind::SinglePartitionQuery,
            Action::CrossPartitionQuery { .. } => OperationKind::CrossPartitionQuery,
            Action::Write { .. } => OperationKind::Write,
        }
    }

    /// The partition key value it needs; none for a cross-partition query.
    pub fn partition_key(&self) -> Option<&ValueSource> {
        match &self.action {
            Action::PointRead { partition_key, .. }
            | Action::SinglePartitionQuery { partition_key, .. }
            | Action::Write { partition_key, .. } => Some(partition_key),
            Action::CrossPartitionQuery { .. } => None,
        }
    }

    /// The item id, for point reads and writes.
    pub fn id(&self) -> Option<&ValueSource> {
        match &self.action {
            Action::PointRead { id, .. } | Action::Write { id, .. } => Some(id),
            _ => None,
        }
    }

    /// The SQL and its parameters, for queries.
    pub fn query(&self) -> Option<(&str, &[String])> {
        match &self.action {
            Action::SinglePartitionQuery { sql, parameters, .. } | Action::CrossPartitionQuery { sql, parameters } => {
                Some((sql, parameters))
            }
            _ => None,
        }
    }

    /// The SQL, for queries.
    pub fn sql(&self) -> Option<&str> {
        self.query().map(|(sql, _)| sql)
    }

    /// Whether the query selects named properties (a short form, `project`), not
    /// whole documents.
    pub fn selects_short_form(&self) -> bool {
        self.sql().is_some_and(|sql| {
            let select = sql.split(" FROM ").next().unwrap_or_default();
            !select.ends_with('*') && !select.contains("SELECT VALUE")
        })
    }

    /// The top-level properties a query selects (a short form, `project`), in the
    /// order it selects them; `None` when it selects whole documents or values.
    pub fn projected_properties(&self) -> Option<Vec<String>> {
        if !self.selects_short_form() {
            return None;
        }
        let sql = self.sql()?;
        let select = sql.strip_prefix("SELECT ")?.split(" FROM ").next()?;
        let select = match select.strip_prefix("TOP ") {
            Some(rest) => rest.split_once(' ')?.1,
            None => select,
        };
        select
            .split(", ")
            .map(|item| super::sql::property_name("c", item).map(str::to_string))
            .collect()
    }

    /// Whether the query answers a count with a `1` per match, for the application
    /// to count (`SELECT VALUE 1`: the SDK runs no aggregate across partitions).
    pub fn counts_matches(&self) -> bool {
        self.sql().is_some_and(|sql| sql.starts_with("SELECT VALUE 1 "))
    }

    /// What a write does, for writes.
    pub fn write(&self) -> Option<WriteKind> {
        match self.action {
            Action::Write { write, .. } => Some(write),
            _ => None,
        }
    }
}

/// One access pattern as the requests it sends.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Operation {
    /// The access pattern's name.
    pub pattern: String,
    /// The kind of its main (first) request.
    pub kind: OperationKind,
    /// Executions per second.
    pub per_second: f64,
    /// The requests, the main one first (after a lookup of a claim, the
    /// [`Purpose::ReadClaim`] that names it).
    pub requests: Vec<Request>,
    /// For a write that the application sends to more than one logical partition
    /// (two aggregates, or an aggregate and its uniqueness claims): each partition
    /// written, in the order first written. No transaction spans them, so the
    /// operation is not atomic. The writes that keep derived data current from the
    /// change feed are not counted: they follow on their own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_atomic: Vec<WrittenPartition>,
    /// For a read, the values its caller gives (the pattern's filters' parameters),
    /// each with its type, in the order the pattern names them: what a generated
    /// function takes, and what the requests' `Parameter` sources name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<Parameter>,
}

/// A value the caller of a read gives: a filter's parameter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Parameter {
    /// The name, without `@` (`accountId`, `orderedAtMin`, `statusList`).
    pub name: String,
    /// The type of the attribute it is compared with (text for an identity).
    #[serde(rename = "type")]
    pub ty: AttributeType,
    /// A list of values (an `in` filter), not one.
    pub list: bool,
}

/// One logical partition a write operation writes itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WrittenPartition {
    /// The container.
    pub container: String,
    /// The partition key value, as the requests give it.
    pub partition_key: ValueSource,
    /// The document types written there.
    pub document_types: Vec<String>,
}

impl ValueSource {
    /// Whether the application knows this value when it sends the request (a
    /// parameter, a constant, or made of them), rather than taking it from a document
    /// a change feed or a query brings (a sync, a read through a reference).
    pub fn is_given(&self) -> bool {
        match self {
            ValueSource::Parameter(_) | ValueSource::Constant(_) | ValueSource::Window { .. } => true,
            ValueSource::Property(_) => false,
            ValueSource::Levels(levels) => levels.iter().all(ValueSource::is_given),
        }
    }
}

impl Operation {
    /// The operation of `pattern` sending `requests` (at least one), its kind that of the first.
    pub fn new(pattern: impl Into<String>, per_second: f64, requests: Vec<Request>) -> Option<Self> {
        // A write pattern is a write even when a read comes first (a parent read for
        // its ancestors list).
        let first = requests.first()?.kind();
        let kind = requests
            .iter()
            .map(Request::kind)
            .find(|k| *k == OperationKind::Write)
            .unwrap_or(first);
        let not_atomic = if kind == OperationKind::Write {
            written_partitions(&requests)
        } else {
            Vec::new()
        };
        Some(Operation {
            pattern: pattern.into(),
            kind,
            per_second,
            requests,
            not_atomic: if not_atomic.len() > 1 { not_atomic } else { Vec::new() },
            parameters: Vec::new(),
        })
    }

    /// Lets go of the spare room its lists and texts were built with (a list of one
    /// request pushed holds room for four): every design the map weighs holds its
    /// operations.
    pub(crate) fn compact(&mut self) {
        self.pattern.shrink_to_fit();
        self.requests.shrink_to_fit();
        self.parameters.shrink_to_fit();
        for r in &mut self.requests {
            r.container.shrink_to_fit();
            r.document_types.shrink_to_fit();
            r.index_paths.shrink_to_fit();
            r.order_by.shrink_to_fit();
            if let Action::SinglePartitionQuery { sql, parameters, .. }
            | Action::CrossPartitionQuery { sql, parameters } = &mut r.action
            {
                sql.shrink_to_fit();
                parameters.shrink_to_fit();
            }
        }
    }

    /// Whether the application's own writes are one transaction (one logical partition).
    pub fn is_atomic(&self) -> bool {
        self.not_atomic.is_empty()
    }

    /// For a write that is not atomic, the sentence `cosmap model` and the report
    /// print: the partitions it writes, and what the application must do.
    pub fn not_atomic_advice(&self) -> Option<String> {
        if self.is_atomic() {
            return None;
        }
        let parts: Vec<String> = self
            .not_atomic
            .iter()
            .map(|p| {
                format!(
                    "`{}` {} ({})",
                    p.container,
                    p.partition_key,
                    p.document_types.join(", ")
                )
            })
            .collect();
        let claims = self
            .requests
            .iter()
            .any(|r| matches!(r.purpose, Purpose::Claim { .. } | Purpose::ReleaseClaim { .. }));
        let undo = if claims {
            "if the write after a claim fails, delete the claim (a value claimed for nothing stays taken); a release that fails is retried, as a delete of a missing claim is harmless"
        } else {
            "if a later write fails, retry it (a replace or upsert of the same values is harmless) or undo the earlier ones; readers may see one written without the other in between"
        };
        Some(format!(
            "not atomic: it writes {} logical partitions, {}, and no transaction spans them. Send the writes in the order listed; {undo}",
            self.not_atomic.len(),
            parts.join(" and ")
        ))
    }
}

/// The logical partitions `requests` write with values the application gives, in the
/// order first written.
fn written_partitions(requests: &[Request]) -> Vec<WrittenPartition> {
    let mut out: Vec<WrittenPartition> = Vec::new();
    for r in requests {
        let Action::Write { partition_key, .. } = &r.action else {
            continue;
        };
        if !partition_key.is_given() {
            continue;
        }
        match out
            .iter_mut()
            .find(|p| p.container == r.container && p.partition_key == *partition_key)
        {
            Some(p) => {
                for d in &r.document_types {
                    if !p.document_types.contains(d) {
                        p.document_types.push(d.clone());
                    }
                }
            }
            None => out.push(WrittenPartition {
                container: r.container.clone(),
                partition_key: partition_key.clone(),
                document_types: r.document_types.clone(),
            }),
        }
    }
    out
}
