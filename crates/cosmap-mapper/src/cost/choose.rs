//! Where a read can be sent two ways, the cheaper by this design's own figures: the
//! targets of a list of references in one query per result, or a point read each.

use cosmap_domain::DomainModel;

use super::design::Design;
use super::{facts, Consistency};
use crate::logical_model::Container;
use crate::operations::{listed_as_point_reads, Operation, Purpose};

/// Turns each query for the targets of a list of references
/// ([`Purpose::ReadListed`]) into a point read per element where that costs less on
/// `containers` (priced as the cost table prices them, at the default consistency).
pub(crate) fn list_reads(model: &DomainModel, containers: &[Container], operations: &mut [Operation]) {
    let listed = |op: &Operation| {
        op.requests
            .iter()
            .any(|r| matches!(r.purpose, Purpose::ReadListed { .. }))
    };
    if !operations.iter().any(listed) {
        return;
    }
    let design = Design::new(
        model,
        facts::of_containers(model, containers),
        operations,
        Consistency::default(),
    );
    for op in operations.iter_mut().filter(|op| listed(op)) {
        let mut priced = op.clone();
        for (i, r) in op.requests.iter().enumerate() {
            let Some(point_reads) = listed_as_point_reads(r) else {
                continue;
            };
            let query = design.request_ru(op, r);
            priced.requests[i] = point_reads;
            let each = design.request_ru(&priced, &priced.requests[i]);
            if each >= query {
                priced.requests[i] = r.clone();
            }
        }
        *op = priced;
    }
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
