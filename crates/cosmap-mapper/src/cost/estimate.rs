//! `cosmap cost`: the request units of every access pattern under three designs —
//! the naive port, MR1–MR6 alone, and MR1–MR6 with optimisations — the workload
//! totals in RU/s, and warnings.

use std::collections::BTreeMap;

use cosmap_domain::DomainModel;
use serde::Serialize;

use super::constants::*;
use super::design::{ContainerFigures, Design};
use super::facts::{self, Facts};
use super::optimisations::{effects, OptimisationEffect};
use super::units;
use crate::logical_model::LogicalModel;
use crate::operations::{naive_operations, Operation, OperationKind};
use crate::options::Options;

/// Read consistency; strong and bounded staleness double read costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Consistency {
    /// Strong.
    Strong,
    /// Bounded staleness.
    BoundedStaleness,
    /// Session (Cosmos DB's default).
    #[default]
    Session,
    /// Consistent prefix.
    ConsistentPrefix,
    /// Eventual.
    Eventual,
}

impl Consistency {
    /// The user-facing name, as in JSON and on the command line: `boundedStaleness`, …
    pub fn as_str(self) -> &'static str {
        match self {
            Consistency::Strong => "strong",
            Consistency::BoundedStaleness => "boundedStaleness",
            Consistency::Session => "session",
            Consistency::ConsistentPrefix => "consistentPrefix",
            Consistency::Eventual => "eventual",
        }
    }

    /// What reads cost at this level relative to session.
    pub(crate) fn read_factor(self) -> f64 {
        match self {
            Consistency::Strong | Consistency::BoundedStaleness => STRONG_READ_FACTOR,
            _ => 1.0,
        }
    }
}

/// The cost of every access pattern under three designs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CostReport {
    /// The model's name.
    pub model: String,
    /// The read consistency assumed.
    pub consistency: Consistency,
    /// Per access pattern, by name.
    pub patterns: Vec<PatternCost>,
    /// Workload totals in RU/s.
    pub totals: Totals,
    /// Each container's figures (items, storage, partitions, RU/s) in each design.
    pub containers: DesignContainers,
    /// What each optimisation saves and adds (MR1–MR6 against optimised).
    pub optimisations: Vec<OptimisationEffect>,
    /// RU/s the optimised design saves over MR1–MR6 on patterns no optimisation
    /// changed (negative when it adds: a container grown by copies fans out wider).
    pub other_effects_ru_per_second: f64,
    /// Risks found in the optimised design.
    pub warnings: Vec<String>,
    /// The figures the documentation does not give, as assumed.
    pub assumptions: Vec<String>,
}

/// One access pattern's cost under each design.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PatternCost {
    /// The access pattern.
    pub name: String,
    /// Executions per second.
    pub per_second: f64,
    /// One container per entity and value object, by `/id`, references only.
    pub naive: DesignCost,
    /// MR1–MR6 without optimisations.
    pub rules: DesignCost,
    /// MR1–MR6 with optimisations.
    pub optimised: DesignCost,
}

/// Each design's containers and their figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DesignContainers {
    /// The naive design.
    pub naive: Vec<ContainerFigures>,
    /// MR1–MR6.
    pub rules: Vec<ContainerFigures>,
    /// MR1–MR6 with optimisations.
    pub optimised: Vec<ContainerFigures>,
}

/// A pattern's cost in one design.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DesignCost {
    /// How its main request runs.
    pub operation: OperationKind,
    /// Request units per execution (all its requests).
    pub ru: f64,
    /// Request units per second at the pattern's rate.
    pub ru_per_second: f64,
    /// Requests per execution.
    pub requests: usize,
}

/// RU/s of the whole workload in each design.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    /// The naive design.
    pub naive: f64,
    /// MR1–MR6.
    pub rules: f64,
    /// MR1–MR6 with optimisations.
    pub optimised: f64,
}

/// From this many operations the designs are figured on two threads: below it a
/// thread costs more than it saves.
const PARALLEL_FROM: usize = 512;

/// Estimates the cost of `model`'s access patterns in the three designs.
pub fn cost(model: &DomainModel, options: &Options, consistency: Consistency) -> CostReport {
    let (rules_model, optimised_model) = crate::map_both(model, options);
    estimate(model, &rules_model, &optimised_model, consistency)
}

/// [`cost`] for a caller that has already mapped `model` both ways: `rules_model`
/// with `optimise: false` and `optimised_model` with the same options otherwise.
pub fn estimate<'m>(
    model: &'m DomainModel,
    rules_model: &'m LogicalModel,
    optimised_model: &'m LogicalModel,
    consistency: Consistency,
) -> CostReport {
    let of_model = |logical: &'m LogicalModel| {
        Design::new(
            model,
            facts::of_containers(model, &logical.containers),
            &logical.operations,
            consistency,
        )
    };
    // The naive baseline is figured apart: its design, and its cost for each
    // operation of the optimised model (in their order), with its containers.
    let naive = |ops: Vec<Operation>, facts: Facts| {
        let design = Design::new(model, facts, &ops, consistency);
        let by = by_pattern(&ops);
        let costs: Vec<Option<DesignCost>> = optimised_model
            .operations
            .iter()
            .map(|op| by.get(op.pattern.as_str()).map(|o| design.operation_cost(o)))
            .collect();
        (costs, design.containers())
    };
    // The designs are figured independently: on a large model the naive baseline
    // is figured on a second thread while this one figures its facts (handed over
    // when its operations are made) and everything of the mapped two.
    let ((naive_costs, naive_containers), mapped) = if optimised_model.operations.len() < PARALLEL_FROM {
        (
            naive(naive_operations(model), facts::of_naive(model)),
            Mapped::of(rules_model, optimised_model, of_model),
        )
    } else {
        std::thread::scope(|scope| {
            let (send, receive) = std::sync::mpsc::sync_channel::<Facts>(1);
            let naive = scope.spawn(move || {
                // Its operations first, while the calling thread figures its facts; a closed
                // channel (the calling thread is unwinding) leaves it to figure them itself.
                let ops = naive_operations(model);
                let facts = receive.recv().unwrap_or_else(|_| facts::of_naive(model));
                naive(ops, facts)
            });
            // Sending fails only when the naive thread is gone: its join reports it.
            let _ = send.send(facts::of_naive(model));
            let mapped = Mapped::of(rules_model, optimised_model, of_model);
            let naive = naive.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (naive, mapped)
        })
    };
    let mut patterns = Vec::new();
    for ((op, n), (r, o)) in optimised_model.operations.iter().zip(naive_costs).zip(mapped.costs) {
        let (Some(n), Some(r), Some(o)) = (n, r, o) else {
            continue;
        };
        patterns.push(PatternCost {
            name: op.pattern.clone(),
            per_second: op.per_second,
            naive: n,
            rules: r,
            optimised: o,
        });
    }
    let total =
        |pick: fn(&PatternCost) -> &DesignCost| units::round(patterns.iter().map(|p| pick(p).ru_per_second).sum());
    let totals = Totals {
        naive: total(|p| &p.naive),
        rules: total(|p| &p.rules),
        optimised: total(|p| &p.optimised),
    };
    let Mapped {
        warnings,
        rules_containers,
        optimised_containers,
        ..
    } = mapped;
    let (optimisations, other_effects_ru_per_second) = effects(optimised_model, rules_model, &patterns);
    CostReport {
        model: model.name().to_string(),
        consistency,
        patterns,
        totals,
        containers: DesignContainers {
            naive: naive_containers,
            rules: rules_containers,
            optimised: optimised_containers,
        },
        optimisations,
        other_effects_ru_per_second,
        warnings,
        assumptions: ASSUMPTIONS.iter().map(|a| a.to_string()).collect(),
    }
}

/// What the report takes from the two mapped designs, figured without the naive one.
struct Mapped {
    /// For each operation of the optimised model, in order: its pattern's cost in the
    /// rules-only design and in the optimised one (`None` where a design lacks it).
    costs: Vec<(Option<DesignCost>, Option<DesignCost>)>,
    /// The risks found in the optimised design.
    warnings: Vec<String>,
    rules_containers: Vec<ContainerFigures>,
    optimised_containers: Vec<ContainerFigures>,
}

impl Mapped {
    /// The figures of `rules_model` and `optimised_model`, each design made by `design`.
    fn of<'m>(
        rules_model: &'m LogicalModel,
        optimised_model: &'m LogicalModel,
        design: impl Fn(&'m LogicalModel) -> Design<'m>,
    ) -> Self {
        let (rules, optimised) = (design(rules_model), design(optimised_model));
        let (rules_by, optimised_by) = (
            by_pattern(&rules_model.operations),
            by_pattern(&optimised_model.operations),
        );
        let costs = optimised_model
            .operations
            .iter()
            .map(|op| {
                let find = |design: &Design, ops: &BTreeMap<&str, &Operation>| {
                    ops.get(op.pattern.as_str()).map(|o| design.operation_cost(o))
                };
                (find(&rules, &rules_by), find(&optimised, &optimised_by))
            })
            .collect();
        let warnings = optimised.warnings(
            &optimised_model.containers,
            &optimised_model.operations,
            &optimised_model.thresholds,
        );
        Mapped {
            costs,
            warnings,
            rules_containers: rules.containers(),
            optimised_containers: optimised.containers(),
        }
    }
}

/// Each access pattern's operation (the first, should there be several).
fn by_pattern(ops: &[Operation]) -> BTreeMap<&str, &Operation> {
    let mut found: BTreeMap<&str, &Operation> = BTreeMap::new();
    for o in ops {
        found.entry(o.pattern.as_str()).or_insert(o);
    }
    found
}
