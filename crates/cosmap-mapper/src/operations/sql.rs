//! Cosmos DB SQL text: property access (bracketed where a name is a keyword),
//! equality conditions through embedded arrays (`EXISTS` subqueries), `ORDER BY`.

use cosmap_domain::{Filter, FilterOp};

use super::locate::Step;

/// Words of Cosmos DB's SQL that cannot follow a dot.
const KEYWORDS: &[&str] = &[
    "and",
    "array",
    "as",
    "asc",
    "between",
    "by",
    "case",
    "cast",
    "convert",
    "cross",
    "desc",
    "distinct",
    "else",
    "end",
    "escape",
    "exists",
    "false",
    "for",
    "from",
    "group",
    "having",
    "in",
    "inner",
    "insert",
    "into",
    "is",
    "join",
    "left",
    "like",
    "limit",
    "not",
    "null",
    "offset",
    "on",
    "or",
    "order",
    "outer",
    "over",
    "right",
    "select",
    "set",
    "then",
    "top",
    "true",
    "udf",
    "undefined",
    "update",
    "value",
    "when",
    "where",
    "with",
];

/// `alias.name`, or `alias['name']` for keywords (a string literal in single quotes:
/// the SDK's in-memory engine reads `"name"` as an identifier, Cosmos DB takes either).
pub(crate) fn property(alias: &str, name: &str) -> String {
    path_of(alias, [name])
}

/// Appends `.name`, or `['name']` for a keyword (in any case), to `out`.
fn push_property(out: &mut String, name: &str) {
    if KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(name)) {
        out.push_str("['");
        out.push_str(name);
        out.push_str("']");
    } else {
        out.push('.');
        out.push_str(name);
    }
}

/// The property name [`property`] spelled as `text` (`c.total` or `c['value']`):
/// `None` for anything else (a path, an expression).
pub(crate) fn property_name<'t>(alias: &str, text: &'t str) -> Option<&'t str> {
    let rest = text.strip_prefix(alias)?;
    let name = match rest.strip_prefix('.') {
        Some(name) => name,
        None => rest.strip_prefix("['")?.strip_suffix("']")?,
    };
    let plain = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    plain.then_some(name)
}

/// `alias.a.b.c` for a dotted path.
pub(crate) fn path(alias: &str, names: &[String]) -> String {
    path_of(alias, names.iter().map(String::as_str))
}

/// [`path`] of names however held, written into one string.
fn path_of<'n>(alias: &str, names: impl IntoIterator<Item = &'n str>) -> String {
    let mut out = String::from(alias);
    for name in names {
        push_property(&mut out, name);
    }
    out
}

/// One condition: the object path to the property's owner, the property path
/// within it, the attribute filtered on (`param`, which names the parameters) and how
/// it compares: equality, or (`contains`, a list attribute) `ARRAY_CONTAINS`; a range
/// (`<`, `<=`, `>`, `>=`, `BETWEEN`); or membership in an array parameter.
#[derive(Debug, Clone)]
pub(crate) struct Condition {
    pub steps: Vec<Step>,
    pub leaf: Vec<String>,
    pub param: String,
    pub contains: bool,
    pub op: FilterOp,
    /// The array step holds each target at most once (a list of references): an
    /// equality through it may be a `JOIN` (see [`joins_and_conjunction`]).
    pub once: bool,
}

impl Condition {
    /// The parameters the condition binds (`dueOnMax`, or `totalMin` and `totalMax`).
    pub fn parameters(&self) -> Vec<String> {
        Filter {
            attribute: &self.param,
            op: self.op,
        }
        .parameters()
    }

    /// The condition on `property` (a SQL property path).
    fn sql(&self, property: &str) -> String {
        let params = self.parameters();
        let first = params.first().map(String::as_str).unwrap_or_default();
        match self.op {
            FilterOp::Equal if self.contains => format!("ARRAY_CONTAINS({property}, @{first})"),
            FilterOp::Equal => format!("{property} = @{first}"),
            FilterOp::Less => format!("{property} < @{first}"),
            FilterOp::LessOrEqual => format!("{property} <= @{first}"),
            FilterOp::Greater => format!("{property} > @{first}"),
            FilterOp::GreaterOrEqual => format!("{property} >= @{first}"),
            FilterOp::Between => {
                let last = params.last().map(String::as_str).unwrap_or_default();
                format!("({property} BETWEEN @{first} AND @{last})")
            }
            FilterOp::In => format!("ARRAY_CONTAINS(@{first}, {property})"),
        }
    }
}

/// The conditions as one conjunction; conditions inside the same embedded array
/// share one `EXISTS` so that one element must match them all.
pub(crate) fn conjunction(alias: &str, conditions: &[Condition], depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut groups: Vec<(Vec<Step>, Vec<Condition>)> = Vec::new();
    for c in conditions {
        match c.steps.iter().position(|s| s.many) {
            None => {
                let names = c
                    .steps
                    .iter()
                    .map(|s| s.name.as_str())
                    .chain(c.leaf.iter().map(String::as_str));
                out.push(c.sql(&path_of(alias, names)));
            }
            Some(k) => {
                let prefix = c.steps[..=k].to_vec();
                let rest = Condition {
                    steps: c.steps[k + 1..].to_vec(),
                    ..c.clone()
                };
                match groups.iter_mut().find(|(p, _)| *p == prefix) {
                    Some((_, list)) => list.push(rest),
                    None => groups.push((prefix, vec![rest])),
                }
            }
        }
    }
    for (prefix, inner) in groups {
        let var = format!("x{depth}");
        let body = conjunction(&var, &inner, depth + 1).join(" AND ");
        out.push(format!(
            "EXISTS(SELECT VALUE {var} FROM {var} IN {} WHERE {body})",
            path_of(alias, prefix.iter().map(|s| s.name.as_str()))
        ));
    }
    out
}

/// The joins (` JOIN j0 IN c.voters`, to follow `FROM c`) and the conjunction of a
/// query: an equality through a list that holds each target at most once (a list of
/// references, and no other array on the way) is matched through a `JOIN` over the
/// list, which still gives one row per document and which the SDK's in-memory engine
/// runs (it refuses the `EXISTS` subquery); every other condition as [`conjunction`]
/// writes it.
pub(crate) fn joins_and_conjunction(conditions: &[Condition]) -> (Vec<String>, Vec<String>) {
    let joinable = |c: &Condition| {
        c.once
            && c.op == FilterOp::Equal
            && !c.contains
            && c.steps.last().is_some_and(|s| s.many)
            && c.steps.iter().filter(|s| s.many).count() == 1
    };
    let mut lists: Vec<&[Step]> = Vec::new();
    let mut out = Vec::new();
    for c in conditions.iter().filter(|c| joinable(c)) {
        let k = match lists.iter().position(|l| *l == &c.steps[..]) {
            Some(k) => k,
            None => {
                lists.push(&c.steps);
                lists.len() - 1
            }
        };
        out.push(c.sql(&path_of(&format!("j{k}"), c.leaf.iter().map(String::as_str))));
    }
    let rest: Vec<Condition> = conditions.iter().filter(|c| !joinable(c)).cloned().collect();
    out.extend(conjunction("c", &rest, 0));
    let joins = lists
        .iter()
        .enumerate()
        .map(|(k, l)| format!(" JOIN j{k} IN {}", path_of("c", l.iter().map(|s| s.name.as_str()))))
        .collect();
    (joins, out)
}

/// A JSON string literal for SQL (`'order'`): a backslash doubled, a quote escaped.
pub(crate) fn literal(value: &str) -> String {
    format!("'{}'", value.replace('\\', "\\\\").replace('\'', "\\'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_keywords() {
        assert_eq!(property("c", "accountId"), "c.accountId");
        assert_eq!(property("c", "value"), "c['value']");
        assert_eq!(property("c", "Value"), "c['Value']");
        assert_eq!(property("c", "valueé"), "c.valueé");
        let names = ["order", "items", "total"].map(String::from);
        assert_eq!(path("c", &names), "c['order'].items.total");
    }

    /// A literal doubles each backslash and escapes each quote, the backslashes first
    /// (so an escaped quote's backslash is not doubled).
    #[test]
    fn literals_escape_backslashes_then_quotes() {
        let cases = [
            ("order", r"'order'"),
            ("", r"''"),
            ("it's", r"'it\'s'"),
            (r"a\b", r"'a\\b'"),
            (r"\'", r"'\\\''"),
            ("é'x", r"'é\'x'"),
        ];
        for (value, expected) in cases {
            assert_eq!(literal(value), expected, "{value}");
        }
    }

    #[test]
    fn conditions_inside_arrays_share_one_exists() {
        let array = vec![Step {
            name: "deliveryAddresses".into(),
            many: true,
        }];
        let conditions = vec![
            Condition {
                steps: vec![],
                leaf: vec!["accountId".into()],
                param: "accountId".into(),
                contains: false,
                op: FilterOp::Equal,
                once: false,
            },
            Condition {
                steps: array.clone(),
                leaf: vec!["addressType".into()],
                param: "addressType".into(),
                contains: false,
                op: FilterOp::Equal,
                once: false,
            },
            Condition {
                steps: array,
                leaf: vec!["city".into()],
                param: "city".into(),
                contains: true,
                op: FilterOp::Equal,
                once: false,
            },
        ];
        assert_eq!(
            conjunction("c", &conditions, 0),
            [
                "c.accountId = @accountId",
                "EXISTS(SELECT VALUE x0 FROM x0 IN c.deliveryAddresses WHERE x0.addressType = @addressType AND ARRAY_CONTAINS(x0.city, @city))"
            ]
        );
    }

    /// An equality through a list of references is a `JOIN` (one row per document:
    /// a target appears once in the list); a range through it stays an `EXISTS`.
    #[test]
    fn equality_through_a_list_of_references_is_a_join() {
        let voters = vec![Step {
            name: "voters".into(),
            many: true,
        }];
        let through = |op| Condition {
            steps: voters.clone(),
            leaf: vec!["id".into()],
            param: "voters.userId".into(),
            contains: false,
            op,
            once: true,
        };
        let (joins, clauses) = joins_and_conjunction(&[through(FilterOp::Equal)]);
        assert_eq!(joins, [" JOIN j0 IN c.voters"]);
        assert_eq!(clauses, ["j0.id = @votersUserId"]);
        let (joins, clauses) = joins_and_conjunction(&[through(FilterOp::In)]);
        assert!(joins.is_empty());
        assert_eq!(
            clauses,
            ["EXISTS(SELECT VALUE x0 FROM x0 IN c.voters WHERE ARRAY_CONTAINS(@votersUserIdList, x0.id))"]
        );
    }
}
