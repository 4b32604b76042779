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

use cosmap_domain::{AccessKind, DomainModel, Element};

use super::sql::{self, Condition};
use super::{Action, Operation, Purpose, Request, ValueSource, WriteKind};

/// The operations of every access pattern in the naive design, by pattern name.
pub fn naive_operations(model: &DomainModel) -> Vec<Operation> {
    let mut patterns: Vec<_> = model.access_patterns().iter().collect();
    patterns.sort_by(|a, b| a.name.cmp(&b.name));
    // The relationships at either end of an element are the model's lookups (in
    // declaration order), not maps of its own.
    patterns
        .into_iter()
        .filter_map(|p| {
            let mut elements = vec![p.start.as_str()];
            elements.extend(model.returned_elements(p).into_iter().filter(|r| *r != p.start));
            let identity = |name: &str| match model.element(name) {
                Some(Element::Entity(e)) => Some(e.identity.as_str()),
                _ => None,
            };
            // The one filter of a read by its start's identity (figured once per pattern).
            let identity_filter = match p.equality_filters().as_slice() {
                [only] if p.filter.len() == 1 => Some(*only),
                _ => None,
            };
            if p.kind == AccessKind::Read {
                // The value objects of every element read: their own containers, read per item.
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
            // One per item returned: a single value object of its owner, or what a
            // single reference of an element read before leads to (read by that id).
            let earlier = elements.clone();
            let one_per_owner = |element: &str| {
                let single_value_object = model
                    .parent_relationship(element)
                    .is_some_and(|r| !r.is_many() && matches!(model.element(element), Some(Element::ValueObject(_))));
                let single_reference = model.relationships_touching(element).any(|r| {
                    r.to == element
                        && !r.is_many()
                        && earlier.iter().take_while(|e| **e != element).any(|e| *e == r.from)
                });
                single_value_object || single_reference
            };
            let requests: Vec<Request> = elements
                .iter()
                .enumerate()
                .map(|(i, element)| {
                    let by_identity = i == 0 && identity_filter.is_some() && identity(element) == identity_filter;
                    let action = match p.kind {
                        AccessKind::Write => Action::Write {
                            write: match p.write {
                                Some(cosmap_domain::WriteOperation::Create) => WriteKind::Create,
                                Some(cosmap_domain::WriteOperation::Delete) => WriteKind::Delete,
                                _ => WriteKind::Replace,
                            },
                            partition_key: ValueSource::Parameter("id".to_string()),
                            id: ValueSource::Parameter("id".to_string()),
                        },
                        AccessKind::Read if by_identity || (i > 0 && one_per_owner(element)) => Action::PointRead {
                            partition_key: ValueSource::Parameter("id".to_string()),
                            id: ValueSource::Parameter("id".to_string()),
                        },
                        AccessKind::Read => {
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
                    };
                    Request {
                        action,
                        container: element.to_string(),
                        document_types: vec![element.to_string()],
                        purpose: Purpose::OwnContainer {
                            element: element.to_string(),
                            write: p.kind == AccessKind::Write,
                        },
                        index_paths: Vec::new(),
                        order_by: Vec::new(),
                    }
                })
                .collect();
            let mut requests = requests;
            if p.kind == AccessKind::Read {
                // The ancestors up a tree's parent link (`parent*`): a point read per level.
                let ancestors = p.returns.iter().filter_map(|r| r.split('.').next()?.strip_suffix('*'));
                for reference in ancestors {
                    requests.push(Request {
                        action: Action::PointRead {
                            partition_key: ValueSource::Parameter("id".to_string()),
                            id: ValueSource::Parameter("id".to_string()),
                        },
                        container: p.start.clone(),
                        document_types: vec![p.start.clone()],
                        purpose: Purpose::FollowAncestors {
                            target: p.start.clone(),
                            reference: reference.to_string(),
                        },
                        index_paths: Vec::new(),
                        order_by: Vec::new(),
                    });
                }
                // Counts by query, per result: each counted row holds the start's id.
                let key = identity(&p.start).unwrap_or("parentId");
                for element in &p.counts {
                    requests.push(Request {
                        action: Action::CrossPartitionQuery {
                            sql: format!("SELECT VALUE 1 FROM c WHERE c.{key} = @{key}"),
                            parameters: vec![key.to_string()],
                        },
                        container: element.clone(),
                        document_types: vec![element.clone()],
                        purpose: Purpose::Count {
                            element: element.clone(),
                            per: p.start.clone(),
                        },
                        index_paths: Vec::new(),
                        order_by: Vec::new(),
                    });
                }
            }
            Operation::new(p.name.clone(), p.per_second, requests)
        })
        .collect()
}
