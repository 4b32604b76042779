//! Where a read can be sent two ways, the cheaper by this design's own figures: the
//! targets of a list of references in one query per result, or a point read each;
//! a read by one `unique` value as a query, or as a point read of its claim and one
//! of the owner the claim names (claims as a lookup index).

use cosmap_domain::{DomainModel, FilterOp};

use super::design::Design;
use super::{facts, Consistency};
use crate::logical_model::{Container, ContainerKind};
use crate::operations::{
    listed_as_point_reads, Action, Operation, OperationKind, PropertyPath, Purpose, Request, ValueSource,
};

/// Sends each read of `operations` the cheaper way where it has two (priced as the
/// cost table prices them on `containers`, at the default consistency): the targets
/// of a list of references ([`Purpose::ReadListed`]) as a point read each, and a read
/// by one claimed value through its claim ([`Purpose::ReadClaim`]).
pub(crate) fn reads(model: &DomainModel, containers: &[Container], operations: &mut [Operation]) {
    let listed = |op: &Operation| {
        op.requests
            .iter()
            .any(|r| matches!(r.purpose, Purpose::ReadListed { .. }))
    };
    let lookups: Vec<(usize, Operation)> = operations
        .iter()
        .enumerate()
        .filter_map(|(i, op)| Some((i, claim_lookup(model, containers, op)?)))
        .collect();
    if lookups.is_empty() && !operations.iter().any(listed) {
        return;
    }
    let design = Design::new(
        model,
        facts::of_containers(model, containers),
        operations,
        Consistency::default(),
    );
    let ru = |op: &Operation| op.requests.iter().map(|r| design.request_ru(op, r)).sum::<f64>();
    let mut chosen: Vec<(usize, Operation)> = lookups
        .into_iter()
        .filter(|(i, lookup)| ru(lookup) < ru(&operations[*i]))
        .collect();
    for (i, op) in operations.iter().enumerate().filter(|(_, op)| listed(op)) {
        let mut priced = op.clone();
        for (n, r) in op.requests.iter().enumerate() {
            let Some(point_reads) = listed_as_point_reads(r) else {
                continue;
            };
            let query = design.request_ru(op, r);
            priced.requests[n] = point_reads;
            let each = design.request_ru(&priced, &priced.requests[n]);
            if each >= query {
                priced.requests[n] = r.clone();
            }
        }
        chosen.push((i, priced));
    }
    for (i, op) in chosen {
        operations[i] = op;
    }
}

/// `op` as a point read of the claim of the one `unique` value it looks up, then a
/// point read of the owner the claim names — where `op` is a query of the owner's
/// documents by that value alone (one request, the whole document, no other filter)
/// and a claims container keeps the value.
fn claim_lookup(model: &DomainModel, containers: &[Container], op: &Operation) -> Option<Operation> {
    let pattern = model.access_pattern(&op.pattern)?;
    let [read] = op.requests.as_slice() else {
        return None;
    };
    let Purpose::Read {
        element,
        from_copy: false,
    } = &read.purpose
    else {
        return None;
    };
    let query = matches!(
        read.kind(),
        OperationKind::SinglePartitionQuery | OperationKind::CrossPartitionQuery
    );
    let [Some(filter)] = pattern.filters()[..] else {
        return None;
    };
    let [owner] = read.document_types.as_slice() else {
        return None;
    };
    if !query || filter.op != FilterOp::Equal || filter.attribute.contains('.') || !pattern.project.is_empty() {
        return None;
    }
    let (claims, claim) = containers
        .iter()
        .filter(|c| c.kind == ContainerKind::Claims)
        .flat_map(|c| c.document_types.iter().map(move |d| (c, d)))
        .find(|(_, d)| {
            d.claim_of.as_ref().is_some_and(|of| {
                of.container == read.container && of.document_type == *owner && of.attribute == filter.attribute
            })
        })?;
    let property = |name: &str| ValueSource::Property(PropertyPath::new([name]));
    let claim_read = Request {
        action: Action::PointRead {
            partition_key: ValueSource::Parameter(filter.attribute.to_string()),
            id: ValueSource::Constant(claim.discriminator.clone()),
        },
        container: claims.name.clone(),
        document_types: vec![claim.name.clone()],
        purpose: Purpose::ReadClaim {
            element: element.clone(),
            attribute: filter.attribute.to_string(),
        },
        index_paths: Vec::new(),
        order_by: Vec::new(),
    };
    let owner_read = Request {
        action: Action::PointRead {
            partition_key: property("ownerPartitionKey"),
            id: property("ownerId"),
        },
        index_paths: Vec::new(),
        order_by: Vec::new(),
        ..read.clone()
    };
    Some(Operation {
        kind: OperationKind::PointRead,
        requests: vec![claim_read, owner_read],
        ..op.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A product listing `parts` references, read with its parts at `avg` per product.
    fn model(avg: u32) -> DomainModel {
        let text = format!(
            r#"{{"name": "Parts",
              "entities": [
                {{"name": "Product", "identity": "productId", "attributes": [{{"name": "name", "type": "string"}}]}},
                {{"name": "Part", "identity": "partId", "attributes": [{{"name": "name", "type": "string"}}],
                  "volume": {{"count": 1000000, "avgSizeBytes": 500}}}}
              ],
              "aggregates": [{{"root": "Product"}}, {{"root": "Part"}}],
              "relationships": [{{"from": "Product", "to": "Part", "cardinality": "many", "max": 2000, "avg": {avg}, "property": "parts"}}],
              "accessPatterns": [{{"name": "parts of a product", "kind": "read", "start": "Product",
                "filter": ["productId"], "returns": ["parts"], "perSecond": 10}}]}}"#
        );
        cosmap_domain::from_slice(text.as_bytes(), None).expect("valid model")
    }

    fn second_request(avg: u32) -> crate::operations::Request {
        let logical = crate::map(&model(avg), &crate::Options::default());
        logical.operations[0].requests[1].clone()
    }

    #[test]
    fn a_long_list_is_read_in_one_query() {
        let r = second_request(1000);
        assert!(matches!(r.purpose, Purpose::ReadListed { .. }), "{r:?}");
        assert_eq!(
            r.sql(),
            Some("SELECT * FROM c WHERE ARRAY_CONTAINS(@partsIds, c.id) AND c.type = 'part'")
        );
    }

    #[test]
    fn a_list_of_one_is_read_by_point_read() {
        let r = second_request(1);
        assert!(matches!(r.purpose, Purpose::FollowReference { .. }), "{r:?}");
    }
}
