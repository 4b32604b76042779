//! Physical optimisations, applied after MR1–MR6 and driven by access-pattern
//! statistics: copies and embedded reference data.

use std::collections::BTreeMap;

use cosmap_domain::DomainModel;

use crate::cost::design::Design;
use crate::cost::{facts, Consistency};
use crate::logical_model::Container;
use crate::operations::Operation;

pub(crate) mod copy;
pub(crate) mod embed_reference_data;

/// A candidate design, finished (unique keys, operations, indexing) and priced by
/// the cost table's own figures: what an optimisation is weighed on.
pub(crate) struct Priced {
    pub(crate) containers: Vec<Container>,
    pub(crate) operations: Vec<Operation>,
    /// RU/s of each access pattern, by name.
    pub(crate) by_pattern: BTreeMap<String, f64>,
    /// RU/s of the whole workload (infinite when a container cannot carry it).
    pub(crate) total: f64,
}

impl Priced {
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
        let total = by_pattern.values().sum();
        Priced {
            containers,
            operations,
            by_pattern,
            total,
        }
    }
}
