//! The request-unit cost model: documented figures (`constants`), per-operation
//! formulas (`units`), the sizes and counts of a design (`facts`), and the
//! estimate of a whole workload under three designs (`estimate`), and what each
//! optimisation saves and adds (`optimisations`).

pub mod constants;
pub(crate) mod design;
mod estimate;
pub(crate) mod facts;
pub(crate) mod optimisations;
pub mod units;

pub use design::ContainerFigures;
pub use estimate::{cost, estimate, Consistency, CostReport, DesignContainers, DesignCost, PatternCost, Totals};
pub use optimisations::OptimisationEffect;
