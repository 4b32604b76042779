use serde::{Deserialize, Serialize};

/// A relationship from one entity or value object to another, read as
/// "each `from` has `cardinality` of `to`".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Relationship {
    /// The owning or referring side.
    pub from: String,
    /// The owned or referred side.
    pub to: String,
    /// How many `to` each `from` has.
    pub cardinality: Cardinality,
    /// Upper bound on the number of `to` per `from`; required for `few`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
    /// The typical number of `to` per `from` (`few`, `many`, `manyToMany`): costs use
    /// it, while `max` stays the bound for sizes and the 2 MB check. Without it, costs
    /// use `max` (the dearer case), or 1 when there is no `max` either.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avg: Option<f64>,
    /// JSON property that holds the embedded object or reference; defaults to
    /// the `to` name in lowerCamelCase (plural for lists).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub property: Option<String>,
    /// Whether the number of `to` per `from` keeps growing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub growth: Option<Growth>,
    /// How often, across the database, a `to` of this relationship is updated (per second).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updates_per_second: Option<f64>,
    /// For `one`: a `from` may have no `to` (a category at the root of its tree has no
    /// parent). The reference is then absent from its document, and optional in the
    /// generated types.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// For an optional `one` relationship from an element to itself (a tree, such as
    /// `Category.parent`): how many ancestors an element has. Needed by reads of the
    /// ancestors (`returns: ["parent*"]`), and bounds the ancestors list cosmap may store.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<Depth>,
}

/// How deep a tree is: the number of ancestors of an element (0 at a root).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Depth {
    /// The most ancestors any element has.
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub max: u64,
    /// The typical number of ancestors (costs use it); defaults to `max`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avg: Option<f64>,
}

impl Depth {
    /// The number of ancestors costs use: `avg`, else `max`.
    pub fn typical(&self) -> f64 {
        self.avg.unwrap_or(self.max as f64)
    }
}

/// How many `to` instances each `from` instance has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Cardinality {
    /// Exactly or at most one.
    One,
    /// A small, bounded number (give `max`).
    Few,
    /// Many: hundreds to thousands (give `max` when it is bounded).
    Many,
    /// Without any useful bound (millions).
    Squillions,
    /// Many on both sides.
    ManyToMany,
}

impl Cardinality {
    /// The name used in the model file.
    pub fn as_str(self) -> &'static str {
        match self {
            Cardinality::One => "one",
            Cardinality::Few => "few",
            Cardinality::Many => "many",
            Cardinality::Squillions => "squillions",
            Cardinality::ManyToMany => "manyToMany",
        }
    }
}

/// Whether a relationship's `to` side keeps growing per `from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Growth {
    /// The count stays within a known bound.
    Bounded,
    /// The count keeps growing over time or with other data (for example warehouses).
    Unbounded,
}

impl Relationship {
    /// A relationship `from` → `to` with the given cardinality.
    pub fn new(from: impl Into<String>, to: impl Into<String>, cardinality: Cardinality) -> Self {
        Relationship {
            from: from.into(),
            to: to.into(),
            cardinality,
            max: None,
            avg: None,
            property: None,
            growth: None,
            updates_per_second: None,
            optional: false,
            depth: None,
        }
    }

    setters! {
        /// Sets the upper bound.
        max(max: u64) => some max;
        /// Makes a `one` relationship optional: a `from` may have no `to`.
        optional() => on optional;
    }
    /// Sets a tree's depth (for a relationship from an element to itself): the most
    /// ancestors an element has, and the typical number.
    pub fn depth(mut self, max: u64, avg: Option<f64>) -> Self {
        self.depth = Some(Depth { max, avg });
        self
    }

    /// Whether this is a tree's parent link: an optional `one` relationship from an
    /// element to itself, whose chain ends at the roots.
    pub fn is_tree(&self) -> bool {
        self.from == self.to && self.cardinality == Cardinality::One && self.optional
    }

    setters! {
        /// Sets the typical number of `to` per `from` (what costs use).
        avg(avg: f64) => some avg;
    }
    /// The number of `to` per `from` that costs use: `avg` when given, `1` for
    /// `one`, otherwise `max`; `None` when neither is known.
    pub fn typical(&self) -> Option<f64> {
        if self.cardinality == Cardinality::One {
            return Some(1.0);
        }
        self.avg.or(self.max.map(|m| m as f64))
    }

    setters! {
        /// Sets the JSON property name.
        property(property: impl Into<String>) => some_into property;
        /// Declares growth.
        growth(growth: Growth) => some growth;
        /// Declares how often a `to` is updated, per second across the database.
        updates_per_second(rate: f64) => some updates_per_second;
    }
    /// True when a list of references along this relationship would grow without a
    /// useful bound, or its bound would not fit an item (`referenceList`: `max` times
    /// [`crate::limits::REFERENCE_BYTES`] over
    /// [`crate::limits::REFERENCE_LIST_MAX_BYTES`]), so (MR6) the `to` side refers to
    /// its `from` (to each of them, for many-to-many) instead of `from` holding the
    /// list. Validation and the mapper both ask this.
    pub fn is_stored_reversed(&self) -> bool {
        let too_long = |max: u64| max as f64 * crate::limits::REFERENCE_BYTES > crate::limits::REFERENCE_LIST_MAX_BYTES;
        match self.cardinality {
            Cardinality::Squillions => true,
            Cardinality::Many | Cardinality::ManyToMany => {
                self.max.is_none_or(too_long) || self.growth == Some(Growth::Unbounded)
            }
            Cardinality::One | Cardinality::Few => self.growth == Some(Growth::Unbounded),
        }
    }

    /// Why a list of references along this relationship is stored the other way
    /// round (`referenceList`), when it is.
    pub fn reversal_reason(&self) -> Option<String> {
        if !self.is_stored_reversed() {
            return None;
        }
        let list = format!("a list of references to `{}` in each `{}`", self.to, self.from);
        Some(match (self.cardinality, self.max, self.growth) {
            (Cardinality::Squillions, _, _) => format!("{list} would have squillions of entries"),
            (_, _, Some(Growth::Unbounded)) => format!("{list} would grow without bound (`growth: unbounded`)"),
            (_, None, _) => format!("{list} has no bound (`max`)"),
            (_, Some(max), _) => format!(
                "{list} of up to {max} entries would take about {:.0} KB, over the {:.0} KB a list may take of an item",
                max as f64 * crate::limits::REFERENCE_BYTES / 1000.0,
                crate::limits::REFERENCE_LIST_MAX_BYTES / 1000.0
            ),
        })
    }

    /// True when each `from` may hold more than one `to`.
    pub fn is_many(&self) -> bool {
        self.cardinality != Cardinality::One
    }

    /// The JSON property this relationship is stored under: `property`, or the
    /// `to` name in lowerCamelCase, pluralised for lists.
    pub fn property_name(&self) -> String {
        if let Some(p) = &self.property {
            return p.clone();
        }
        let camel = crate::naming::lower_camel(&self.to);
        if self.is_many() {
            crate::naming::plural(&camel)
        } else {
            camel
        }
    }
}
