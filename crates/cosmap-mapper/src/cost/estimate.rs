//! `cosmap cost`: the request units of every access pattern under three designs —
//! the naive port, MR1–MR6 alone, and MR1–MR6 with optimisations — the workload
//! totals in RU/s, and warnings.

use cosmap_domain::DomainModel;
use serde::Serialize;

use super::against_naive::{self, explain, DearerThanNaive, Designs};
use super::constants::*;
use super::design::{ContainerFigures, Design};
use super::facts::{self, Facts};
use super::optimisations::{effects, OptimisationEffect};
use super::units;
use crate::logical_model::{Container, LogicalModel};
use crate::operations::{naive_operations, Operation, OperationKind};
use crate::options::Options;
use crate::statistics::Statistics;
use crate::RulesDesign;

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

impl CostReport {
    /// The cost of the access pattern called `name`.
    pub fn pattern(&self, name: &str) -> Option<&PatternCost> {
        self.patterns.iter().find(|p| p.name == name)
    }
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
    /// The search as it went: the workload after each step of the optimised map, in
    /// order (empty for a design mapped elsewhere, see [`estimate`]).
    pub search: Vec<crate::SearchStep>,
    /// How the design changes at ½× and 2× each rate and volume (`--sensitivity`; not
    /// figured otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sensitivity: Option<Vec<super::sensitivity::Sensitivity>>,
    /// The patterns that cost more in the optimised design than in the naive port,
    /// each with the rule that makes it so.
    pub dearer_than_naive: Vec<DearerThanNaive>,
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

/// Estimates the cost of `model`'s access patterns in the three designs.
pub fn cost(model: &DomainModel, options: &Options, consistency: Consistency) -> CostReport {
    map_and_cost(model, options, consistency).1
}

/// Maps `model` with `options` and estimates the cost of the three designs: the
/// optimised map, and the report [`estimate`] gives for it and the rules-only map
/// ([`map_both`](crate::map_both)). The rules-only design is the first design the
/// optimised map finishes, so it is taken from there instead of being mapped again
/// (its decisions, which the report does not read, are not recorded). The naive
/// baseline needs no map; the two mapped designs are figured once each (or once,
/// when the map left the rules-only design as it was).
pub fn map_and_cost(model: &DomainModel, options: &Options, consistency: Consistency) -> (LogicalModel, CostReport) {
    let for_cost = crate::map_for_cost(model, options);
    let naive = Figured::naive(model, &naive_operations(model), facts::of_naive(model), consistency);
    let report = report_of(model, &for_cost, consistency, naive);
    (for_cost.optimised, report)
}

/// The cost report of the maps `for_cost` holds, given the naive baseline's figures:
/// the two mapped designs figured (once when they are the same design) and the rows
/// made.
fn report_of(model: &DomainModel, for_cost: &crate::ForCost, consistency: Consistency, naive: Figured) -> CostReport {
    let optimised_model = &for_cost.optimised;
    let rules_side = for_cost.rules_side();
    let (rules, (optimised, warnings)) = match for_cost.rules {
        // The same design: figured once.
        RulesDesign::Optimised => {
            let (optimised, warnings) = Figured::with_warnings(model, optimised_model, consistency, &for_cost.stats);
            (optimised.clone(), (optimised, warnings))
        }
        RulesDesign::Own(..) => (
            Figured::of_design(model, rules_side, consistency),
            Figured::with_warnings(model, optimised_model, consistency, &for_cost.stats),
        ),
    };
    let designs = [naive, rules, optimised];
    let mut report = report(model, rules_side, optimised_model, consistency, designs, warnings);
    report.search = for_cost.search.clone();
    report
}

/// [`cost`] for a caller that has already mapped `model` both ways: `rules_model`
/// with `optimise: false` and `optimised_model` with the same options otherwise.
pub fn estimate(
    model: &DomainModel,
    rules_model: &LogicalModel,
    optimised_model: &LogicalModel,
    consistency: Consistency,
) -> CostReport {
    let naive = Figured::naive(model, &naive_operations(model), facts::of_naive(model), consistency);
    let rules = Figured::of_model(model, rules_model, consistency);
    let (optimised, warnings) = Figured::with_warnings(model, optimised_model, consistency, &Statistics::new(model));
    report(
        model,
        (&rules_model.containers, &rules_model.operations),
        optimised_model,
        consistency,
        [naive, rules, optimised],
        warnings,
    )
}

/// The report from the figures of the naive, rules-only and optimised designs (in
/// that order) and the optimised design's `warnings`: a row for each operation of
/// the optimised model (in order) whose pattern all three designs serve.
/// `rules_design` is the rules-only design's containers and operations.
fn report(
    model: &DomainModel,
    rules_design: (&[Container], &[Operation]),
    optimised_model: &LogicalModel,
    consistency: Consistency,
    [naive, rules, optimised]: [Figured; 3],
    warnings: Vec<String>,
) -> CostReport {
    let mut patterns = Vec::new();
    for op in &optimised_model.operations {
        let pattern = op.pattern.as_str();
        let (Some(n), Some(r), Some(o)) = (
            naive.cost_of(pattern),
            rules.cost_of(pattern),
            optimised.cost_of(pattern),
        ) else {
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
    let (optimisations, other_effects_ru_per_second) = effects(optimised_model, rules_design, &patterns);
    let dearer = explain(
        model,
        &patterns,
        &Designs {
            optimised: optimised_model,
            naive_containers: &naive.containers,
            optimised_containers: &optimised.containers,
            effects: &optimisations,
        },
    );
    let mut warnings = warnings;
    warnings.extend(dearer_than_naive(&patterns, &totals, &dearer));
    CostReport {
        model: model.name().to_string(),
        consistency,
        patterns,
        totals,
        containers: DesignContainers {
            naive: naive.containers,
            rules: rules.containers,
            optimised: optimised.containers,
        },
        optimisations,
        other_effects_ru_per_second,
        search: Vec::new(),
        sensitivity: None,
        dearer_than_naive: dearer,
        warnings,
        assumptions: ASSUMPTIONS.iter().map(|a| a.to_string()).collect(),
    }
}

/// The workload, the reads, and the writes MR1–MR6's structure makes dearer, that cost
/// more in the optimised design than in the naive port (by more than 5% and 1 RU/s),
/// each with the rule that makes it so: a design a user could beat by the obvious port
/// is said to be one, never shown as optimised without a word. (Writes that pay for
/// what an optimisation saves are its trade, weighed in the workload: listed in the
/// report's `dearerThanNaive`, not warned.)
fn dearer_than_naive(patterns: &[PatternCost], totals: &Totals, dearer: &[DearerThanNaive]) -> Vec<String> {
    use crate::statistics::{about, human_ru_per_second};
    let mut out = Vec::new();
    if against_naive::dearer(totals.optimised, totals.naive) {
        out.push(format!(
            "the workload costs {} in this design against {} in the naive port (one container per entity, by `/id`): the patterns below cost more here",
            about(human_ru_per_second(totals.optimised)),
            about(human_ru_per_second(totals.naive))
        ));
    }
    for d in dearer {
        let read = patterns
            .iter()
            .find(|p| p.name == d.pattern)
            .is_some_and(|p| p.optimised.operation != OperationKind::Write);
        if read || d.rule.is_mapping_rule() {
            out.push(against_naive::warning(d));
        }
    }
    out
}

/// What the report takes from one design's figures: each pattern's cost and each
/// container's figures. Figured from the design alone, so the three designs can be
/// figured in any order or side by side.
#[derive(Clone)]
struct Figured {
    /// Each access pattern's cost (its first operation's), sorted by the pattern's
    /// name (each once): looked up by a binary search.
    costs: Vec<(String, DesignCost)>,
    containers: Vec<ContainerFigures>,
}

impl Figured {
    /// The figures of `design`, which runs `ops` (the operations it was made with, so
    /// their charges are taken as it figured them).
    fn of(design: &Design, ops: &[Operation]) -> Self {
        let costs = by_pattern(design.operation_costs(ops))
            .into_iter()
            .map(|(pattern, cost)| (pattern.to_string(), cost))
            .collect();
        Figured {
            costs,
            containers: design.containers(),
        }
    }

    /// The figures of the naive design: `facts` (its containers') running `ops` (the
    /// model's naive operations).
    fn naive(model: &DomainModel, ops: &[Operation], facts: Facts, consistency: Consistency) -> Self {
        Figured::of(&Design::new(model, facts, ops, consistency), ops)
    }

    /// The figures of a mapped design.
    fn of_model(model: &DomainModel, logical: &LogicalModel, consistency: Consistency) -> Self {
        Figured::of_design(model, (&logical.containers, &logical.operations), consistency)
    }

    /// The figures of a mapped design's finished containers running its operations.
    fn of_design(
        model: &DomainModel,
        (containers, operations): (&[Container], &[Operation]),
        consistency: Consistency,
    ) -> Self {
        Figured::of(&design_of(model, containers, operations, consistency), operations)
    }

    /// The figures of the optimised design, with the risks found in it.
    /// `stats` are the model's (as the map figured them).
    fn with_warnings(
        model: &DomainModel,
        logical: &LogicalModel,
        consistency: Consistency,
        stats: &Statistics,
    ) -> (Self, Vec<String>) {
        let design = design_of(model, &logical.containers, &logical.operations, consistency);
        let warnings = design.warnings(&logical.containers, &logical.operations, &logical.thresholds, stats);
        (Figured::of(&design, &logical.operations), warnings)
    }

    /// The cost of `pattern` in this design, when it serves it.
    fn cost_of(&self, pattern: &str) -> Option<DesignCost> {
        let i = self
            .costs
            .binary_search_by(|(name, _)| name.as_str().cmp(pattern))
            .ok()?;
        Some(self.costs[i].1.clone())
    }
}

/// Each container of a mapped design (`logical`) with its figures: storage, the
/// physical partitions it will have and where they come from, as the cost table and
/// the decisions figure them (at the default consistency). `cosmap model` shows them.
pub fn containers(model: &DomainModel, logical: &LogicalModel) -> Vec<ContainerFigures> {
    design_of(model, &logical.containers, &logical.operations, Consistency::default()).containers()
}

/// The figures of a mapped design: its containers' facts, running its operations.
fn design_of<'m>(
    model: &'m DomainModel,
    containers: &[Container],
    operations: &'m [Operation],
    consistency: Consistency,
) -> Design<'m> {
    Design::new(model, facts::of_containers(model, containers), operations, consistency)
}

/// Each access pattern's cost, by name: its first operation's, should there be
/// several. Sorted rather than inserted one by one: the operations usually come in
/// their patterns' order, which a sort only checks.
fn by_pattern<'a>(costs: impl Iterator<Item = (&'a Operation, DesignCost)>) -> Vec<(&'a str, DesignCost)> {
    let mut found: Vec<(&str, DesignCost)> = costs.map(|(op, cost)| (op.pattern.as_str(), cost)).collect();
    // Stable: each pattern's first operation stays first, and is the one kept.
    found.sort_by(|a, b| a.0.cmp(b.0));
    found.dedup_by(|later, first| later.0 == first.0);
    found
}
