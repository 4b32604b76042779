//! The public API the data access of a design generates, as a list `cosmap diff`
//! compares between two models: each method, repository and worker with what it
//! sends, and who enforces each unique value (a unique key, or claims taken by which
//! generated functions), so an application learns what its code loses or gains.

use serde::Serialize;

use super::{DataView, PatternView};

/// One public item of the generated data access.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiItem {
    /// `method`, `repository` or `worker`.
    pub kind: &'static str,
    /// Its Rust name: `place_an_order`, `order_with_tickets_page`, `OrderRepository`.
    pub name: String,
    /// What it serves: the access pattern, the aggregate's root, or what the worker keeps.
    pub of: String,
    /// What it sends (a method's SQL or requests in order, a repository's load): the
    /// same name sending something else is a change its callers do not see.
    pub sends: String,
}

/// Who enforces one unique value of a design.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Enforcement {
    /// `Attendee.email`: the document type and its unique attribute.
    pub value: String,
    /// `a unique key of container `Attendee``, or `claims in `UniqueClaims`, taken by
    /// `AttendeeRepository`, `register_an_attendee``, or taken by no generated code.
    pub by: String,
}

/// The generated data access's public API, and the enforcement of unique values.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GeneratedApi {
    /// Every public item, sorted by kind and name.
    pub items: Vec<ApiItem>,
    /// Every unique value, sorted.
    pub unique: Vec<Enforcement>,
}

/// SQL as the template writes it (a Rust string literal), read back.
fn unquoted(literal: &str) -> String {
    serde_json::from_str(literal).unwrap_or_else(|_| literal.to_string())
}

/// What pattern method `p` sends: its SQL, its point read, or its requests in order.
fn sends(p: &PatternView) -> String {
    if let Some(q) = &p.query {
        return unquoted(&q.sql);
    }
    if let Some(r) = &p.point_read {
        return format!("point read of {} at {}, id {}", r.document, r.key, r.id);
    }
    let numbered: Vec<&str> = p
        .docs
        .iter()
        .map(String::as_str)
        .filter(|l| l.split_once(". ").is_some_and(|(n, _)| n.parse::<usize>().is_ok()))
        .collect();
    numbered.join(" ")
}

/// The API of the data access `data` (of `model`, whose unique keys it reads).
pub(super) fn api(model: &cosmap_mapper::LogicalModel, data: &DataView) -> GeneratedApi {
    let mut items: Vec<ApiItem> = Vec::new();
    let mut item = |kind: &'static str, name: &str, of: &str, sends: String| {
        items.push(ApiItem {
            kind,
            name: name.to_string(),
            of: of.to_string(),
            sends,
        })
    };
    for p in &data.patterns {
        item("method", &p.ident, &p.name, sends(p));
        if p.page.is_some() {
            item("method", &format!("{}_page", p.ident), &p.name, sends(p));
        }
    }
    for a in &data.aggregates {
        let load = a
            .load_sql
            .as_deref()
            .map_or_else(|| "point read of the root".into(), unquoted);
        item("repository", &a.repository, &a.root, load);
    }
    let feeds = data.workers.iter().map(|w| (&w.feed, "a copy or feed"));
    let refresh = data.refresh_workers.iter().map(|w| (&w.feed, "extended references"));
    let kept = data.kept_workers.iter().map(|w| (&w.feed, "counts and subsets"));
    let ancestors = data.ancestors_workers.iter().map(|w| (&w.feed, "ancestors lists"));
    for (feed, what) in feeds.chain(refresh).chain(kept).chain(ancestors) {
        item("worker", &feed.name, what, String::new());
    }
    items.sort_by(|a, b| (a.kind, &a.name).cmp(&(b.kind, &b.name)));
    GeneratedApi {
        items,
        unique: enforcement(model, data),
    }
}

/// Who enforces each unique value of `model`: a unique key of its container, or claims
/// taken by the generated functions and repositories of `data` that call its claim function.
fn enforcement(model: &cosmap_mapper::LogicalModel, data: &DataView) -> Vec<Enforcement> {
    let mut out = Vec::new();
    for c in &model.containers {
        for key in &c.unique_keys {
            for path in &key.paths {
                let attribute = path.trim_start_matches('/');
                for d in c
                    .document_types
                    .iter()
                    .filter(|d| d.attributes.iter().any(|a| a.name == attribute))
                {
                    out.push(Enforcement {
                        value: format!("{}.{attribute}", d.name),
                        by: format!("a unique key of container `{}`", c.name),
                    });
                }
            }
        }
        for d in &c.document_types {
            let Some(of) = &d.claim_of else { continue };
            let set = data
                .claim_sets
                .iter()
                .find(|s| s.owner == of.document_type && s.claims.iter().any(|k| k.attribute == of.attribute));
            let function = set.map(|s| s.function.as_str()).unwrap_or_default();
            let mut takers: Vec<String> = data
                .aggregates
                .iter()
                .filter(|a| {
                    a.claim_set.as_deref() == Some(function)
                        || a.members.iter().any(|m| m.claim_set.as_deref() == Some(function))
                })
                .map(|a| format!("`{}`", a.repository))
                .collect();
            takers.extend(
                data.patterns
                    .iter()
                    .filter(|p| calls(p, function))
                    .map(|p| format!("`{}`", p.ident)),
            );
            let by = if takers.is_empty() || set.is_none() {
                format!("claims in `{}`, taken by no generated code", c.name)
            } else {
                format!("claims in `{}`, taken by {}", c.name, takers.join(", "))
            };
            out.push(Enforcement {
                value: format!("{}.{}", of.document_type, of.attribute),
                by,
            });
        }
    }
    out.sort_by(|a, b| a.value.cmp(&b.value));
    out.dedup();
    out
}

/// Whether pattern method `p` calls claim function `function`.
fn calls(p: &PatternView, function: &str) -> bool {
    let single = p.write.as_ref().and_then(|w| w.claim_set.as_deref()) == Some(function);
    let several = p.aggregate_write.as_ref().is_some_and(|w| {
        w["steps"].as_array().is_some_and(|steps| {
            steps
                .iter()
                .any(|s| s["claim"].as_str() == Some(function) || s["release"].as_str() == Some(function))
        })
    });
    single || several
}
