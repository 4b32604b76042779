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
    /// What the operation filters on: an attribute name for equality (`accountId`;
    /// on a list attribute, "holds the value"), or the name, a space and an operator:
    /// `"dueOn <"`, `"<="`, `">"`, `">="` (one bound, parameter `@dueOnMax` or
    /// `@dueOnMin`), `"dueOn between"` (`@dueOnMin` to `@dueOnMax`, both included),
    /// `"status in"` (one of the values in the array `@statusList`). The name may
    /// be a path through a reference (`"author.userId"`, parameter `@authorUserId`)
    /// or an embedded value object (`"place.city"`). See [`AccessPattern::filters`].
    #[serde(default)]
    pub filter: Vec<String>,
    /// Attributes the operation sorts on, in order; a leading `-` sorts that one
    /// descending (`"-createdAt"`: newest first). See [`AccessPattern::sort_keys`].
    #[serde(default)]
    pub sort: Vec<String>,
    /// The most items one execution returns (`TOP n`), for reads: "the ten newest";
    /// at most 2,147,483,647 (`limits::MAX_TOP`, what a query's `TOP` takes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 2147483647)))]
    pub limit: Option<u64>,
    /// For reads: the attributes of the start element the read needs (a short form,
    /// `["title", "publishedAt"]`); the query returns only those (with `id`, `type`
    /// and the partition key), and a copy made for it stores only what it reads.
    /// Empty: the whole element.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub project: Vec<String>,
    /// For reads: elements whose number the read shows with each result
    /// (`["Comment"]`: how many comments each post has) — the start's own children,
    /// or the elements that refer to it. Where the number is not stored, it costs a
    /// count query per result.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counts: Vec<String>,
    /// The entities and value objects it returns or writes; defaults to `start`.
    /// A read may also name a property of the start, whose references it follows
    /// (`"categories"`), or a path (`"author.username"`: that attribute of what the
    /// reference leads to, with each result).
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
            project: Vec::new(),
            counts: Vec::new(),
            returns: Vec::new(),
            per_second,
            write: None,
        }
    }

    setters! {
        /// Adds a filter entry, as in the file: `"accountId"` (equality) or an attribute,
        /// a space and an operator (`"dueOn <"`, `"total between"`, `"status in"`).
        filter(attribute: impl Into<String>) => push_into filter;
        /// Adds a sort attribute (ascending; prefix it with `-`, or use
        /// [`sort_descending`](Self::sort_descending), for descending).
        sort(attribute: impl Into<String>) => push_into sort;
    }
    /// Adds a descending sort attribute (`"-attribute"` in the file).
    pub fn sort_descending(mut self, attribute: impl AsRef<str>) -> Self {
        self.sort.push(format!("-{}", attribute.as_ref()));
        self
    }

    setters! {
        /// Returns at most `n` items per execution.
        limit(n: u64) => some limit;
    }
    /// The filter entries as attributes, operators and parameters, in order; an entry
    /// whose operator is unknown gives `None` (validation reports it).
    pub fn filters(&self) -> Vec<Option<Filter<'_>>> {
        self.filter.iter().map(|f| Filter::parse(f)).collect()
    }

    /// The attribute each filter entry names (`"dueOn <"` → `dueOn`).
    pub fn filter_attributes(&self) -> Vec<&str> {
        self.filter.iter().map(|f| Filter::attribute_of(f)).collect()
    }

    /// The attributes of the equality filters (the ones that can select a partition
    /// or an id).
    pub fn equality_filters(&self) -> Vec<&str> {
        self.filters()
            .into_iter()
            .flatten()
            .filter(|f| f.op == FilterOp::Equal)
            .map(|f| f.attribute)
            .collect()
    }

    /// The sort entries as attributes and directions, in order.
    pub fn sort_keys(&self) -> Vec<SortKey<'_>> {
        self.sort.iter().map(|s| SortKey::parse(s)).collect()
    }

    setters! {
        /// Adds an attribute to the short form the read returns (`project`).
        project(attribute: impl Into<String>) => push_into project;
        /// Adds an element whose number the read shows with each result (`counts`).
        counts(element: impl Into<String>) => push_into counts;
        /// Says what a write does (create, replace or delete).
        write(operation: WriteOperation) => some write;
        /// Adds a returned entity or value object.
        returns(name: impl Into<String>) => push_into returns;
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

/// One entry of an access pattern's `filter`: the attribute and how it is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Filter<'a> {
    /// The attribute filtered on.
    pub attribute: &'a str,
    /// How the attribute is compared with the parameter(s).
    pub op: FilterOp,
}

/// How a filter compares an attribute with its parameter(s).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FilterOp {
    /// `=` (the default): equal to `@x`; on a list attribute, holds `@x`.
    Equal,
    /// `<`: below `@xMax`.
    Less,
    /// `<=`: at most `@xMax`.
    LessOrEqual,
    /// `>`: above `@xMin`.
    Greater,
    /// `>=`: at least `@xMin`.
    GreaterOrEqual,
    /// `between`: from `@xMin` to `@xMax`, both included.
    Between,
    /// `in`: one of the values of the array `@xList`.
    In,
}

/// The operators a filter entry may name after the attribute, as written.
pub const FILTER_OPERATORS: [&str; 7] = ["=", "<", "<=", ">", ">=", "between", "in"];

impl<'a> Filter<'a> {
    /// `"dueOn <"` → `dueOn` below `@dueOnMax`; `"accountId"` → equality. `None`
    /// when the word after the space is no operator.
    pub fn parse(entry: &'a str) -> Option<Self> {
        let Some((attribute, op)) = entry.trim_end().rsplit_once(' ') else {
            return Some(Filter {
                attribute: entry,
                op: FilterOp::Equal,
            });
        };
        let op = match op {
            "=" | "==" => FilterOp::Equal,
            "<" => FilterOp::Less,
            "<=" => FilterOp::LessOrEqual,
            ">" => FilterOp::Greater,
            ">=" => FilterOp::GreaterOrEqual,
            "between" => FilterOp::Between,
            "in" => FilterOp::In,
            _ => return None,
        };
        Some(Filter {
            attribute: attribute.trim_end(),
            op,
        })
    }

    /// The attribute an entry names, whatever its operator.
    pub fn attribute_of(entry: &str) -> &str {
        entry.trim_end().split(' ').next().unwrap_or(entry)
    }

    /// The query parameters this filter binds, by name: `dueOn`, `dueOnMax`,
    /// `dueOnMin` and `dueOnMax`, or `statusList`.
    pub fn parameters(&self) -> Vec<String> {
        // A path names its parameter in one word: `voters.userId` → `votersUserId`.
        // Room for the longest suffix: no parameter is grown after.
        let mut a = String::with_capacity(self.attribute.len() + "List".len());
        for (i, part) in self.attribute.split('.').enumerate() {
            let mut chars = part.chars();
            match chars.next() {
                Some(first) if i > 0 => {
                    a.extend(first.to_uppercase());
                    a.push_str(chars.as_str());
                }
                _ => a.push_str(part),
            }
        }
        let suffixed = |mut a: String, suffix: &str| {
            a.push_str(suffix);
            a
        };
        match self.op {
            FilterOp::Equal => vec![a],
            FilterOp::Less | FilterOp::LessOrEqual => vec![suffixed(a, "Max")],
            FilterOp::Greater | FilterOp::GreaterOrEqual => vec![suffixed(a, "Min")],
            FilterOp::Between => vec![suffixed(a.clone(), "Min"), suffixed(a, "Max")],
            FilterOp::In => vec![suffixed(a, "List")],
        }
    }

    /// Whether the filter compares by order (needs an ordered, single-valued attribute).
    pub fn is_range(&self) -> bool {
        matches!(
            self.op,
            FilterOp::Less | FilterOp::LessOrEqual | FilterOp::Greater | FilterOp::GreaterOrEqual | FilterOp::Between
        )
    }
}

#[cfg(test)]
mod filter_tests {
    use super::*;

    #[test]
    fn filter_entries_parse() {
        let eq = Filter::parse("accountId").unwrap();
        assert_eq!((eq.attribute, eq.op), ("accountId", FilterOp::Equal));
        assert_eq!(eq.parameters(), ["accountId"]);
        let lt = Filter::parse("dueOn <").unwrap();
        assert_eq!((lt.attribute, lt.op), ("dueOn", FilterOp::Less));
        assert_eq!(lt.parameters(), ["dueOnMax"]);
        let between = Filter::parse("total between").unwrap();
        assert_eq!(between.parameters(), ["totalMin", "totalMax"]);
        assert!(between.is_range());
        assert_eq!(Filter::parse("status in").unwrap().parameters(), ["statusList"]);
        assert_eq!(Filter::parse("voters.userId").unwrap().parameters(), ["votersUserId"]);
        assert_eq!(Filter::parse("dueOn ~"), None);
        assert_eq!(Filter::attribute_of("dueOn ~"), "dueOn");
    }
}
