//! Physical optimisations, applied after MR1–MR6 and driven by access-pattern
//! statistics: partition keys, copies, feeds, embedded reference data and extended
//! references, each
//! weighed on a [`Priced`] design.

use std::collections::{BTreeMap, BTreeSet};

use cosmap_domain::DomainModel;

use crate::cost::design::Design;
use crate::cost::{facts, Consistency};
use crate::logical_model::Container;
use crate::operations::Operation;

pub(crate) mod computed_value;
pub(crate) mod copy;
pub(crate) mod embed_reference_data;
pub(crate) mod extended_reference;
pub(crate) mod feed;
pub(crate) mod partition_key;
pub(crate) mod subset;

/// A candidate design, finished (unique keys, operations, indexing) and priced by
/// the cost table's own figures: what an optimisation is weighed on.
pub(crate) struct Priced {
    pub(crate) containers: Vec<Container>,
    pub(crate) operations: Vec<Operation>,
    /// RU/s of each access pattern, by name.
    pub(crate) by_pattern: BTreeMap<String, f64>,
    /// RU/s each container serves, by name.
    pub(crate) by_container: BTreeMap<String, f64>,
    /// RU/s of the requests that read or write each document type, by container and
    /// document type name.
    pub(crate) by_document_type: BTreeMap<(String, String), f64>,
    /// The access patterns that send a request to each container, by its name.
    pub(crate) patterns_by_container: BTreeMap<String, BTreeSet<String>>,
}

impl Priced {
    /// Whether this design costs less than `other`: fewer access patterns that no
    /// container can carry (infinite RU/s), then fewer RU/s for the others.
    pub(crate) fn cheaper_than(&self, other: &Priced) -> bool {
        let key = |p: &Priced| {
            let unbounded = p.by_pattern.values().filter(|v| !v.is_finite()).count();
            let finite: f64 = p.by_pattern.values().filter(|v| v.is_finite()).sum();
            (unbounded, finite)
        };
        let (a, b) = (key(self), key(other));
        a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
    }

    /// RU/s of the whole workload (infinite when a container cannot carry it).
    pub(crate) fn total(&self) -> f64 {
        self.by_pattern.values().sum()
    }

    /// Prices `operations` on `containers` at the default consistency.
    pub(crate) fn new(model: &DomainModel, containers: Vec<Container>, operations: Vec<Operation>) -> Self {
        let design = Design::new(
            model,
            facts::of_containers(model, &containers),
            &operations,
            Consistency::default(),
        );
        let mut by_pattern: BTreeMap<String, f64> = BTreeMap::new();
        for op in &operations {
            *by_pattern.entry(op.pattern.clone()).or_default() += design.operation_cost(op).ru_per_second;
        }
        let mut patterns_by_container: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut by_document_type: BTreeMap<(String, String), f64> = BTreeMap::new();
        for op in &operations {
            for r in &op.requests {
                let ru = design.request_ru(op, r) * op.per_second;
                for d in &r.document_types {
                    *by_document_type.entry((r.container.clone(), d.clone())).or_default() += ru;
                }
                patterns_by_container
                    .entry(r.container.clone())
                    .or_default()
                    .insert(op.pattern.clone());
            }
        }
        let by_container = design
            .containers()
            .into_iter()
            .map(|c| (c.name, c.ru_per_second))
            .collect();
        Priced {
            containers,
            operations,
            by_pattern,
            by_container,
            by_document_type,
            patterns_by_container,
        }
    }
}
