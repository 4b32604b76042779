//! The requests a read sends besides its main one: to returned elements in other
//! documents (through references, lists of references or back references) and to
//! counted elements.

use super::*;

/// The query that counts `element`s for each result read at `at`, unless each
/// result stores them (an embedded list, a list of references: the application
/// counts it): one `SELECT VALUE COUNT(1)` in one partition (the result's own, or a
/// dictionary's), or across partitions over the documents that refer to it
/// `SELECT VALUE 1`, whose answers the application counts (the SDK runs no
/// aggregate across partitions).
pub(super) fn count(all: &Places<'_>, p: &AccessPattern, at: &Location<'_>, element: &str) -> Option<Request> {
    let node = at.node;
    // Kept on the document (`computedValue`) when it is the document read.
    let kept = at.path.is_empty() && at.document.computed.iter().any(|v| v.counts == element);
    // A subset (the newest few) is not all of them: it counts nothing.
    let stored = kept
        || node
            .embedded()
            .iter()
            .any(|e| e.source == element && e.subset.is_none())
        || node.references().iter().any(|r| r.target == element);
    if stored || !at.path.is_empty() {
        return None;
    }
    let home = places(all, element, false).next()?;
    let identity = identity_of(at.document)?.to_string();
    let (c, d) = (at.container, at.document);
    let mut clauses = Vec::new();
    let mut parameters = Vec::new();
    let partition_key = if home.container.name == c.name && c.kind == ContainerKind::Aggregate && d.role != Role::Copy {
        // The result's aggregate: its partition, and below a non-root entity its own children.
        if let Some(link) = home.document.parent.as_ref().filter(|l| l.entity == p.start) {
            clauses.push(format!("{} = @{}", sql::property("c", &link.property), link.property));
            parameters.push(link.property.clone());
        }
        let own = |level: &str| ValueSource::Property(PropertyPath::new([level]));
        let levels = c.partition_key_properties();
        Some(key_from(levels.iter().map(|l| own(l)).collect(), levels.len()))
    } else {
        let r = home
            .document
            .references
            .iter()
            .find(|r| r.target == p.start && !r.many)?;
        // Partitioned by that very reference (check-ins by `/eventId`): the result's id
        // names the one partition its children are in, which is the whole condition.
        let by_reference = home.container.kind == ContainerKind::Aggregate
            && home.container.sub_partition_key_properties.is_empty()
            && home.container.partition_key_property == r.target_identity;
        if !by_reference {
            clauses.push(format!(
                "{} = @{identity}",
                sql::path("c", &[r.name.clone(), "id".to_string()])
            ));
            parameters.push(identity);
        }
        match home.container.kind {
            ContainerKind::Dictionary => Some(ValueSource::Constant(home.document.discriminator.clone())),
            ContainerKind::Aggregate if by_reference => Some(ValueSource::Property(PropertyPath::new(["id"]))),
            ContainerKind::Aggregate | ContainerKind::Claims => None,
        }
    };
    clauses.push(format!("c.type = {}", sql::literal(&home.document.discriminator)));
    // Across partitions the SDK runs no aggregate: one `1` per match, counted by the application.
    let value = if partition_key.is_some() { "COUNT(1)" } else { "1" };
    let sql = format!("SELECT VALUE {value} FROM c WHERE {}", clauses.join(" AND "));
    let purpose = Purpose::Count {
        element: element.to_string(),
        per: p.start.clone(),
    };
    let action = Action::query(partition_key, sql, parameters);
    Some(Request::new(action, &home.container.name, &home.document.name, purpose))
}

/// A returned element in another container: a point read through the reference
/// the document holds; else a query for those that refer back to it (a list stored
/// the other way round, MR6); else a cross-partition query.
pub(super) fn follow(from: &Location<'_>, home: &Location<'_>) -> Request {
    let target = &home.document.source;
    let reference = from.document.references.iter().find(|r| &r.target == target && !r.many);
    let back = home
        .document
        .references
        .iter()
        .find(|r| r.target == from.document.source && from.document.role == Role::Root);
    // A list of references to it: read in one query per result (see [`read_listed`]).
    let listed = from.document.references.iter().find(|r| &r.target == target && r.many);
    if let (None, Some(r)) = (reference, listed) {
        return read_listed(home, r);
    }
    match (reference, back, identity_of(from.document)) {
        (Some(r), _, _) => follow_reference(home, r),
        (None, Some(r), Some(identity)) => find_referring(from, home, r, identity),
        _ => {
            let sql = format!(
                "SELECT * FROM c WHERE c.type = {}",
                sql::literal(&home.document.discriminator)
            );
            let purpose = Purpose::ScanUnreferenced {
                target: target.clone(),
                from: from.document.name.clone(),
            };
            Request {
                index_paths: vec!["/type/?".to_string()],
                ..Request::new(
                    Action::CrossPartitionQuery {
                        sql,
                        parameters: Vec::new(),
                    },
                    &home.container.name,
                    &home.document.name,
                    purpose,
                )
            }
        }
    }
}

/// The query for the `home` documents that refer back to the one read at `from`
/// (by its `identity`) through their reference `r`: in one partition when they are
/// partitioned by that reference, else across partitions.
fn find_referring(
    from: &Location<'_>,
    home: &Location<'_>,
    r: &crate::logical_model::Reference,
    identity: &str,
) -> Request {
    let c = home.container;
    let by_reference = !r.many
        && r.target != home.document.source
        && c.sub_partition_key_properties.is_empty()
        && c.partition_key_property == r.target_identity;
    // A list element is `{id, partitionKey}`: matched whole where the key follows
    // from the id, else by its id alone, through a join (one row per document: an
    // id appears once in a list; `ARRAY_CONTAINS` with a partial match is not run
    // by every engine).
    let list = sql::property("c", &r.name);
    let (select, condition) = match (r.many, &r.partition_key_value) {
        (true, PartitionKeyValue::SameAsId) => (
            "* FROM c".to_string(),
            format!("ARRAY_CONTAINS({list}, {{\"id\": @{identity}, \"partitionKey\": @{identity}}})"),
        ),
        (true, PartitionKeyValue::Constant { value }) => (
            "* FROM c".to_string(),
            format!(
                "ARRAY_CONTAINS({list}, {{\"id\": @{identity}, \"partitionKey\": {}}})",
                sql::literal(value)
            ),
        ),
        (true, _) => (
            format!("VALUE c FROM c JOIN r IN {list}"),
            format!("r.id = @{identity}"),
        ),
        (false, _) => (
            "* FROM c".to_string(),
            format!("{} = @{identity}", sql::path("c", &[r.name.clone(), "id".to_string()])),
        ),
    };
    let sql = format!(
        "SELECT {select} WHERE {condition} AND c.type = {}",
        sql::literal(&home.document.discriminator)
    );
    let index = if r.many {
        format!("/{}/[]/id/?", r.name)
    } else {
        format!("/{}/id/?", r.name)
    };
    let action = Action::query(
        by_reference.then(|| ValueSource::Parameter(identity.to_string())),
        sql,
        vec![identity.to_string()],
    );
    let purpose = Purpose::FindReferring {
        target: home.document.source.clone(),
        from: from.document.source.clone(),
        reference: r.name.clone(),
    };
    Request {
        index_paths: vec![index, "/type/?".to_string()],
        ..Request::new(action, &c.name, &home.document.name, purpose)
    }
}

/// The targets of list of references `r`, in `home`: one query for the ids the
/// lists of every result hold (`ARRAY_CONTAINS(@<list>Ids, c.id)`), in the one
/// partition the list's keys name when they are a constant (a dictionary), else
/// across partitions.
/// [`crate::cost::choose`] turns it back into a point read per element
/// ([`listed_as_point_reads`]) where that costs less.
pub(super) fn read_listed(home: &Location<'_>, r: &crate::logical_model::Reference) -> Request {
    let parameter = listed_parameter(&r.name);
    let partition_key = match &r.partition_key_value {
        PartitionKeyValue::Constant { value } => Some(ValueSource::Constant(value.clone())),
        _ => None,
    };
    let sql = format!(
        "SELECT * FROM c WHERE ARRAY_CONTAINS(@{parameter}, c.id) AND c.type = {}",
        sql::literal(&home.document.discriminator)
    );
    let purpose = Purpose::ReadListed {
        target: home.document.source.clone(),
        reference: r.name.clone(),
    };
    let action = Action::query(partition_key, sql, vec![parameter]);
    Request {
        index_paths: vec!["/type/?".to_string()],
        ..Request::new(action, &home.container.name, &home.document.name, purpose)
    }
}

/// The parameter a [`Purpose::ReadListed`] query binds to the ids of list `reference`:
/// `@partsIds` for `parts`.
pub fn listed_parameter(reference: &str) -> String {
    format!("{reference}Ids")
}

/// A [`Purpose::ReadListed`] query as the other way to read the same documents: a
/// point read of each element of the list (its id and partition key); `None` for any
/// other request.
pub fn listed_as_point_reads(r: &Request) -> Option<Request> {
    let Purpose::ReadListed { target, reference } = &r.purpose else {
        return None;
    };
    Some(Request {
        action: Action::through_reference(reference),
        container: r.container.clone(),
        document_types: r.document_types.clone(),
        purpose: Purpose::FollowReference { target: target.clone() },
        index_paths: Vec::new(),
        order_by: Vec::new(),
    })
}

/// A point read of what reference `r` leads to, in `home`: for a list of
/// references, of each element (the id and partition key of each).
pub(super) fn follow_reference(home: &Location<'_>, r: &crate::logical_model::Reference) -> Request {
    let purpose = Purpose::FollowReference {
        target: home.document.source.clone(),
    };
    Request::new(
        Action::through_reference(&r.name),
        &home.container.name,
        &home.document.name,
        purpose,
    )
}
