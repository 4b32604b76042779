//! The request-unit cost model: documented figures (`constants`), per-operation
//! formulas (`units`), the sizes and counts of a design (`facts`), and the
//! estimate of a whole workload under three designs (`estimate`), and what each
//! optimisation saves and adds (`optimisations`).

pub mod against_naive;
pub(crate) mod choose;
pub mod constants;
pub(crate) mod design;
mod estimate;
pub(crate) mod facts;
pub(crate) mod optimisations;
mod provisioned;
pub mod sensitivity;
pub mod units;

pub use against_naive::DearerThanNaive;
pub use design::ContainerFigures;
pub use estimate::{
    containers, cost, estimate, map_and_cost, Consistency, CostReport, DesignContainers, DesignCost, PatternCost,
    Totals,
};
pub use optimisations::OptimisationEffect;
pub use provisioned::{Provisioned, ThroughputSource};

/// How many documents of type `d` the model's volumes give today: its element's count
/// (declared, or its parent's count times the relationship's typical count), shared
/// into buckets, or a feed's newest. What the cost table counts; `cosmap diff` prices
/// migrations with it.
pub fn documents_today(model: &cosmap_domain::DomainModel, d: &crate::DocumentType) -> f64 {
    facts::documents_today(model, d)
}
