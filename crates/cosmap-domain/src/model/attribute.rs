use serde::{Deserialize, Serialize};

/// A named, typed property of an entity or value object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Attribute {
    /// JSON property name, lowerCamelCase (for example `createdAt`).
    pub name: String,
    /// Value type.
    #[serde(rename = "type")]
    pub ty: AttributeType,
    /// The attribute may be absent.
    #[serde(default, skip_serializing_if = "is_false")]
    pub optional: bool,
    /// The attribute holds a list of values rather than one.
    #[serde(default, skip_serializing_if = "is_false")]
    pub many: bool,
    /// Values are unique within a partition (becomes a Cosmos DB unique key).
    #[serde(default, skip_serializing_if = "is_false")]
    pub unique: bool,
    /// How many different values occur across all instances; an equality filter on
    /// the attribute then matches count / distinctValues items (default: one item for
    /// other attributes without it, as the cost table's assumptions say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub distinct_values: Option<u64>,
    /// The share (above 0, at most 1) of instances holding the most common value:
    /// how skewed the values are. A partition key chosen on the attribute puts that
    /// share of the data and traffic in one logical partition (default: ten times
    /// an even share, `10 / distinctValues`, at most 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 0, max = 1)))]
    pub largest_value_share: Option<f64>,
    /// The value must never leave its own document (a password hash, a personal
    /// identifier): no copy, snapshot, extended reference or feed stores it, and a
    /// claim of a `unique` one is not made.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sensitive: bool,
    /// What it holds, in a sentence: carried into the generated field's docs and the
    /// JSON Schemas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The value a document written without the attribute reads as (a JSON value of
    /// its type): lets a required attribute be added to a model whose documents are
    /// already written. Only on a required single value that is not `unique`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<serde_json::Value>,
}

pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}

impl Attribute {
    /// A required attribute of the given type.
    pub fn new(name: impl Into<String>, ty: AttributeType) -> Self {
        Attribute {
            name: name.into(),
            ty,
            optional: false,
            many: false,
            unique: false,
            distinct_values: None,
            largest_value_share: None,
            sensitive: false,
            description: None,
            default: None,
        }
    }

    setters! {
        /// Marks the attribute optional.
        optional() => on optional;
        /// Marks the attribute as a list of values.
        many() => on many;
        /// Declares how many different values the attribute takes.
        distinct_values(n: u64) => some distinct_values;
        /// Declares the share of instances that hold the most common value.
        largest_value_share(share: f64) => some largest_value_share;
        /// Describes what it holds.
        description(text: impl Into<String>) => some_into description;
        /// Gives the value documents written without the attribute read as.
        with_default(value: serde_json::Value) => some default;
        /// Marks the value as one that never leaves its own document.
        sensitive() => on sensitive;
        /// Marks the attribute unique within a partition.
        unique() => on unique;
    }
}

/// The value types an attribute can have; each maps to a JSON type and a Rust type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum AttributeType {
    /// UTF-8 text.
    String,
    /// Whole number (64-bit).
    Integer,
    /// Floating-point number.
    Number,
    /// Exact decimal, stored as a string.
    Decimal,
    /// `true` or `false`.
    Boolean,
    /// Point in time, RFC 3339 string.
    DateTime,
    /// Calendar date, `YYYY-MM-DD` string.
    Date,
    /// UUID string.
    Uuid,
}

impl AttributeType {
    /// The name used in the model file.
    pub fn as_str(self) -> &'static str {
        match self {
            AttributeType::String => "string",
            AttributeType::Integer => "integer",
            AttributeType::Number => "number",
            AttributeType::Decimal => "decimal",
            AttributeType::Boolean => "boolean",
            AttributeType::DateTime => "dateTime",
            AttributeType::Date => "date",
            AttributeType::Uuid => "uuid",
        }
    }
}
