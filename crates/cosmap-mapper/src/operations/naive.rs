//! The naive port a relational schema would get: one container per entity and
//! value object (a table each), partitioned by `/id`, references only, nothing
//! embedded. Used as the baseline of `cosmap cost`.
//!
//! A read pays what such a port pays: the start element by its filters, then each
//! other returned element and each value object those elements own — a single one
//! read by its owner's id once per item returned (the cost model runs a point read
//! after the first request once per item the first returns), a list by one query on
//! the owners' ids (`ARRAY_CONTAINS(@parentIds, c.parentId)`), as a port with batch
//! fetching does. A count (`counts`) is a `COUNT` query per result; the ancestors
//! up a tree's parent link (`parent*`) a point read per level.

use cosmap_domain::{AccessKind, AccessPattern, DomainModel, Element};

use super::sql::{self, Condition};
use super::{Action, Operation, Purpose, Request, ValueSource, WriteKind};

/// The operations of every access pattern in the naive design, by pattern name.
pub fn naive_operations(model: &DomainModel) -> Vec<Operation> {
    let mut patterns: Vec<_> = model.access_patterns().iter().collect();
    patterns.sort_by(|a, b| a.name.cmp(&b.name));
    // The relationships at either end of an element are the model's lookups (in
    // declaration order), not maps of its own.
    patterns.into_iter().filter_map(|p| naive_operation(model, p)).collect()
}

/// The naive operation of pattern `p`: a request per element it touches (its own
/// container each), then for a read the ancestors and the counts.
fn naive_operation(model: &DomainModel, p: &AccessPattern) -> Option<Operation> {
    let elements = naive_elements(model, p);
    // The one filter of a read by its start's identity (figured once per pattern).
    let identity_filter = match p.equality_filters().as_slice() {
        [only] if p.filter.len() == 1 => Some(*only),
        _ => None,
    };
    let mut requests: Vec<Request> = elements
        .iter()
        .enumerate()
        .map(|(i, element)| {
            let by_identity = i == 0 && identity_filter.is_some() && identity(model, element) == identity_filter;
            let action = match p.kind {
                AccessKind::Write => Action::Write {
                    write: match p.write {
                        Some(cosmap_domain::WriteOperation::Create) => WriteKind::Create,
                        Some(cosmap_domain::WriteOperation::Delete) => WriteKind::Delete,
                        _ => WriteKind::Replace,
                    },
                    partition_key: by_id(),
                    id: by_id(),
                },
                AccessKind::Read if by_identity || (i > 0 && one_per_owner(model, &elements, element)) => {
                    Action::PointRead {
                        partition_key: by_id(),
                        id: by_id(),
                    }
                }
                AccessKind::Read => naive_query(p, i),
            };
            let purpose = Purpose::OwnContainer {
                element: element.to_string(),
                write: p.kind == AccessKind::Write,
            };
            Request::new(action, element, element, purpose)
        })
        .collect();
    if p.kind == AccessKind::Read {
        // The ancestors up a tree's parent link (`parent*`): a point read per level.
        let ancestors = p.returns.iter().filter_map(|r| r.split('.').next()?.strip_suffix('*'));
        for reference in ancestors {
            let action = Action::PointRead {
                partition_key: by_id(),
                id: by_id(),
            };
            let purpose = Purpose::FollowAncestors {
                target: p.start.clone(),
                reference: reference.to_string(),
            };
            requests.push(Request::new(action, &p.start, &p.start, purpose));
        }
        // Counts by query, per result: each counted row holds the start's id.
        let key = identity(model, &p.start).unwrap_or("parentId");
        for element in &p.counts {
            let action = Action::CrossPartitionQuery {
                sql: format!("SELECT VALUE 1 FROM c WHERE c.{key} = @{key}"),
                parameters: vec![key.to_string()],
            };
            let purpose = Purpose::Count {
                element: element.clone(),
                per: p.start.clone(),
            };
            requests.push(Request::new(action, element, element, purpose));
        }
    }
    Operation::new(p.name.clone(), p.per_second, requests)
}

/// The `id` parameter: the naive port's partition key and id alike.
fn by_id() -> ValueSource {
    ValueSource::Parameter("id".to_string())
}

/// The identity of entity `name`, if it is one.
fn identity<'m>(model: &'m DomainModel, name: &str) -> Option<&'m str> {
    match model.element(name) {
        Some(Element::Entity(e)) => Some(e.identity.as_str()),
        _ => None,
    }
}

/// The elements pattern `p` touches: its start, the others it returns and, for a
/// read, the value objects of every element read (their own containers, read per item).
fn naive_elements<'m>(model: &'m DomainModel, p: &'m AccessPattern) -> Vec<&'m str> {
    let mut elements = vec![p.start.as_str()];
    elements.extend(model.returned_elements(p).into_iter().filter(|r| *r != p.start));
    if p.kind == AccessKind::Read {
        let mut i = 0;
        while i < elements.len() {
            let owner = elements[i];
            for rel in model.relationships_from(owner) {
                let is_value_object = matches!(model.element(&rel.to), Some(Element::ValueObject(_)));
                if is_value_object && !elements.contains(&rel.to.as_str()) {
                    elements.push(rel.to.as_str());
                }
            }
            i += 1;
        }
    }
    elements
}

/// Whether `element` is read once per item returned: a single value object of its
/// owner, or what a single reference of an element read before (in `elements`)
/// leads to (read by that id).
fn one_per_owner(model: &DomainModel, elements: &[&str], element: &str) -> bool {
    let single_value_object = model
        .parent_relationship(element)
        .is_some_and(|r| !r.is_many() && matches!(model.element(element), Some(Element::ValueObject(_))));
    let single_reference = model.relationships_touching(element).any(|r| {
        r.to == element && !r.is_many() && elements.iter().take_while(|e| **e != element).any(|e| *e == r.from)
    });
    single_value_object || single_reference
}

/// The query that reads the `i`th element of read `p`: the start by its filters,
/// another element by its owners' ids.
fn naive_query(p: &AccessPattern, i: usize) -> Action {
    let (conditions, parameters): (Vec<String>, Vec<String>) = if i == 0 {
        let conditions: Vec<Condition> = p
            .filters()
            .into_iter()
            .flatten()
            .map(|f| Condition {
                steps: Vec::new(),
                leaf: vec![f.attribute.to_string()],
                param: f.attribute.to_string(),
                contains: false,
                op: f.op,
                once: false,
            })
            .collect();
        let parameters = conditions.iter().flat_map(Condition::parameters).collect();
        (sql::conjunction("c", &conditions, 0), parameters)
    } else {
        (
            vec!["ARRAY_CONTAINS(@parentIds, c.parentId)".to_string()],
            vec!["parentIds".to_string()],
        )
    };
    // `SELECT * FROM c`, then `WHERE` the conditions joined by `AND`:
    // appended in place, without a joined copy to format.
    let mut sql = String::from("SELECT * FROM c");
    for (k, condition) in conditions.iter().enumerate() {
        sql.push_str(if k == 0 { " WHERE " } else { " AND " });
        sql.push_str(condition);
    }
    Action::CrossPartitionQuery { sql, parameters }
}
