//! The naive port a relational schema would get: one container per entity and
//! value object, partitioned by `/id`, references only, nothing embedded. Used as
//! the baseline of `cosmap cost`.

use cosmap_domain::{AccessKind, DomainModel, Element};

use super::{Operation, OperationKind, Request, WriteKind};

/// The operations of every access pattern in the naive design, by pattern name.
pub fn naive_operations(model: &DomainModel) -> Vec<Operation> {
    let mut patterns: Vec<_> = model.access_patterns().iter().collect();
    patterns.sort_by(|a, b| a.name.cmp(&b.name));
    patterns
        .into_iter()
        .map(|p| {
            let mut elements = vec![p.start.as_str()];
            elements.extend(p.returns.iter().map(String::as_str).filter(|r| *r != p.start));
            let identity = |name: &str| match model.element(name) {
                Some(Element::Entity(e)) => Some(e.identity.clone()),
                _ => None,
            };
            let requests: Vec<Request> = elements
                .iter()
                .enumerate()
                .map(|(i, element)| {
                    let by_identity =
                        i == 0 && p.filter.len() == 1 && identity(element).as_deref() == Some(&p.filter[0]);
                    let (kind, write) = match p.kind {
                        AccessKind::Write => (
                            OperationKind::Write,
                            Some(match p.write {
                                Some(cosmap_domain::WriteOperation::Create) => WriteKind::Create,
                                Some(cosmap_domain::WriteOperation::Delete) => WriteKind::Delete,
                                _ => WriteKind::Replace,
                            }),
                        ),
                        AccessKind::Read if by_identity => (OperationKind::PointRead, None),
                        AccessKind::Read => (OperationKind::CrossPartitionQuery, None),
                    };
                    Request {
                        kind,
                        container: element.to_string(),
                        document_types: vec![element.to_string()],
                        partition_key: (kind != OperationKind::CrossPartitionQuery).then(|| "@id".to_string()),
                        id: (kind != OperationKind::CrossPartitionQuery).then(|| "@id".to_string()),
                        sql: (kind == OperationKind::CrossPartitionQuery).then(|| {
                            let filters: Vec<String> = if i == 0 {
                                p.filter.iter().map(|f| format!("c.{f} = @{f}")).collect()
                            } else {
                                vec!["c.parentId = @parentId".to_string()]
                            };
                            if filters.is_empty() {
                                "SELECT * FROM c".to_string()
                            } else {
                                format!("SELECT * FROM c WHERE {}", filters.join(" AND "))
                            }
                        }),
                        write,
                        purpose: format!(
                            "{} `{element}` in its own container",
                            if write.is_some() { "writes" } else { "reads" }
                        ),
                        index_paths: Vec::new(),
                        order_by: Vec::new(),
                    }
                })
                .collect();
            Operation {
                pattern: p.name.clone(),
                kind: requests[0].kind,
                per_second: p.per_second,
                requests,
            }
        })
        .collect()
}
