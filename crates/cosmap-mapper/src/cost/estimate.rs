//! `cosmap cost`: the request units of every access pattern under three designs —
//! the naive port, MR1–MR6 alone, and MR1–MR6 with optimisations — the workload
//! totals in RU/s, and warnings.

use std::collections::BTreeMap;

use cosmap_domain::{AccessPattern, DomainModel, Element, Relationship};
use serde::Serialize;

use super::constants::*;
use super::facts::{self, Facts};
use super::units;
use crate::logical_model::LogicalModel;
use crate::operations::{naive_operations, Operation, OperationKind, Request, WriteKind};
use crate::options::{Options, Thresholds};
use crate::statistics::{human_bytes, human_rate};

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
    fn read_factor(self) -> f64 {
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
    let rules_model = crate::map(
        model,
        &Options {
            optimise: false,
            ..options.clone()
        },
    );
    let optimised_model = crate::map(model, options);
    estimate(model, &rules_model, &optimised_model, consistency)
}

/// [`cost`] for a caller that has already mapped `model` both ways: `rules_model`
/// with `optimise: false` and `optimised_model` with the same options otherwise.
pub fn estimate(
    model: &DomainModel,
    rules_model: &LogicalModel,
    optimised_model: &LogicalModel,
    consistency: Consistency,
) -> CostReport {
    let naive_ops = naive_operations(model);
    let naive = Design::new(model, facts::of_naive(model), &naive_ops, consistency);
    let rules = Design::new(
        model,
        facts::of_logical(model, rules_model),
        &rules_model.operations,
        consistency,
    );
    let optimised = Design::new(
        model,
        facts::of_logical(model, optimised_model),
        &optimised_model.operations,
        consistency,
    );
    let (naive_by, rules_by, optimised_by) = (
        by_pattern(&naive_ops),
        by_pattern(&rules_model.operations),
        by_pattern(&optimised_model.operations),
    );
    let mut patterns = Vec::new();
    for op in &optimised_model.operations {
        let find = |design: &Design, ops: &BTreeMap<&str, &Operation>| {
            ops.get(op.pattern.as_str()).map(|o| design.operation_cost(o))
        };
        let (Some(n), Some(r), Some(o)) = (
            find(&naive, &naive_by),
            find(&rules, &rules_by),
            find(&optimised, &optimised_by),
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
    let warnings = optimised.warnings(&optimised_model.operations, &optimised_model.thresholds);
    CostReport {
        model: model.name().to_string(),
        consistency,
        patterns,
        totals,
        warnings,
        assumptions: ASSUMPTIONS.iter().map(|a| a.to_string()).collect(),
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

/// One design's figures, with partitions sized for its own workload.
struct Design<'m> {
    model: &'m DomainModel,
    /// Access patterns by name, and relationships by the elements at either end.
    patterns: BTreeMap<&'m str, &'m AccessPattern>,
    touching: BTreeMap<&'m str, Vec<&'m Relationship>>,
    facts: Facts,
    partitions: BTreeMap<String, f64>,
    ru_per_second: BTreeMap<String, f64>,
    consistency: Consistency,
}

impl<'m> Design<'m> {
    fn new(model: &'m DomainModel, facts: Facts, operations: &[Operation], consistency: Consistency) -> Self {
        let mut touching: BTreeMap<&str, Vec<&Relationship>> = BTreeMap::new();
        for rel in model.relationships() {
            touching.entry(rel.from.as_str()).or_default().push(rel);
            if rel.to != rel.from {
                touching.entry(rel.to.as_str()).or_default().push(rel);
            }
        }
        let mut design = Design {
            model,
            patterns: model.access_patterns().iter().map(|p| (p.name.as_str(), p)).collect(),
            touching,
            partitions: BTreeMap::new(),
            facts,
            ru_per_second: BTreeMap::new(),
            consistency,
        };
        // Load on a container = fixed + per_partition × partitions (the fan-out of its
        // cross-partition queries), and partitions = max(by storage, load / 10,000):
        // solved for the smallest partition count that carries its own load.
        let mut fixed: BTreeMap<&str, f64> = BTreeMap::new();
        let mut fan_out: BTreeMap<&str, f64> = BTreeMap::new();
        for op in operations {
            for r in &op.requests {
                let (f, per_partition) = design.request_parts(op, r);
                *fixed.entry(r.container.as_str()).or_default() += f * op.per_second;
                *fan_out.entry(r.container.as_str()).or_default() += per_partition * op.per_second;
            }
        }
        for (name, f) in &design.facts {
            let a = fixed.get(name.as_str()).copied().unwrap_or(0.0);
            let b = fan_out.get(name.as_str()).copied().unwrap_or(0.0);
            let by_storage = units::physical_partitions(f.storage_bytes, 0.0);
            let carried = |p: f64| units::physical_partitions(0.0, a + b * p) <= p;
            let partitions = if carried(by_storage) {
                by_storage
            } else if b < PHYSICAL_PARTITION_RU_PER_SECOND {
                (a / (PHYSICAL_PARTITION_RU_PER_SECOND - b)).ceil().max(by_storage)
            } else {
                f64::INFINITY
            };
            design.partitions.insert(name.clone(), partitions);
            design.ru_per_second.insert(name.clone(), a + b * partitions);
        }
        design
    }

    fn operation_cost(&self, op: &Operation) -> DesignCost {
        let ru: f64 = op.requests.iter().map(|r| self.request_ru(op, r)).sum();
        DesignCost {
            operation: op.kind,
            ru: units::round(ru),
            ru_per_second: units::round(ru * op.per_second),
            requests: op.requests.len(),
        }
    }

    /// Request units of one execution of `r`.
    fn request_ru(&self, op: &Operation, r: &Request) -> f64 {
        let (fixed, per_partition) = self.request_parts(op, r);
        let partitions = if per_partition > 0.0 {
            self.partitions.get(&r.container).copied().unwrap_or(1.0)
        } else {
            0.0
        };
        fixed + per_partition * partitions
    }

    /// Request units of `r` as (fixed, per physical partition checked).
    fn request_parts(&self, op: &Operation, r: &Request) -> (f64, f64) {
        let Some(container) = self.facts.get(&r.container) else {
            return (0.0, 0.0);
        };
        let doc = |name: &str| container.documents.get(name);
        let bytes = |name: &str| doc(name).map_or(DEFAULT_ITEM_BYTES, |d| d.bytes);
        let read = self.consistency.read_factor();
        match r.kind {
            OperationKind::PointRead => (read * units::point_read(bytes(&r.document_types[0])), 0.0),
            OperationKind::Write => {
                let d = doc(&r.document_types[0]);
                let (b, paths) = d.map_or((DEFAULT_ITEM_BYTES, 0), |d| (d.bytes, d.indexed_paths));
                let ru = match r.write.unwrap_or(WriteKind::Replace) {
                    WriteKind::Create => units::insert(b, paths),
                    WriteKind::Replace => units::replace(b, paths),
                    WriteKind::Delete => units::delete(b, paths),
                };
                (ru, 0.0)
            }
            OperationKind::SinglePartitionQuery | OperationKind::CrossPartitionQuery => {
                let main = op.requests.first().is_some_and(|first| std::ptr::eq(first, r));
                let returned: f64 = r
                    .document_types
                    .iter()
                    .enumerate()
                    .map(|(i, name)| {
                        let items = self.items(op, r, main && i == 0, name, container).min(QUERY_PAGE_ITEMS);
                        items * units::point_read(bytes(name))
                    })
                    .sum();
                if r.kind == OperationKind::SinglePartitionQuery {
                    (read * (QUERY_RU_PER_PARTITION + returned), 0.0)
                } else {
                    (read * returned, read * QUERY_RU_PER_PARTITION)
                }
            }
        }
    }

    /// Items of document type `name` a query returns: each equality filter
    /// narrows them (see `ASSUMPTIONS`); the fewest wins.
    fn items(&self, op: &Operation, r: &Request, main: bool, name: &str, c: &facts::ContainerFacts) -> f64 {
        let count = c.documents.get(name).map_or(1.0, |d| d.count);
        let per_partition = count / c.partition_key_values.max(1.0);
        let unfiltered = if r.partition_key.is_some() {
            per_partition
        } else {
            count
        };
        let Some(pattern) = self.patterns.get(op.pattern.as_str()) else {
            return unfiltered;
        };
        if !main {
            // Read alongside the main item: its children per parent.
            let parents = facts::count_of(self.model, &pattern.start).max(1.0);
            return (count / parents).min(unfiltered).max(count.min(1.0));
        }
        if pattern.filter.is_empty() {
            return unfiltered;
        }
        let identity = match self.model.element(&pattern.start) {
            Some(Element::Entity(e)) => Some(e.identity.as_str()),
            _ => None,
        };
        let root = self.model.root_of(&pattern.start);
        pattern
            .filter
            .iter()
            .map(|f| {
                if Some(f.as_str()) == identity {
                    1.0
                } else if r.partition_key.as_deref() == Some(&format!("@{f}")) {
                    per_partition
                } else if let Some(root) = root.filter(|root| root.identity == *f) {
                    count / facts::count_of(self.model, &root.name).max(1.0)
                } else if let Some(targets) = self.referenced_count(&pattern.start, f) {
                    count / targets.max(1.0)
                } else {
                    SELECTIVE_FILTER_ITEMS
                }
            })
            .fold(unfiltered, f64::min)
            .max(count.min(1.0))
    }

    /// The count of the root whose identity is `f`, when `element` refers to it.
    fn referenced_count(&self, element: &str, f: &str) -> Option<f64> {
        self.touching.get(element)?.iter().find_map(|rel| {
            let other = if rel.from == element {
                &rel.to
            } else if rel.to == element {
                &rel.from
            } else {
                return None;
            };
            let root = self.model.root_of(other)?;
            (root.identity == f).then(|| facts::count_of(self.model, &root.name))
        })
    }

    fn warnings(&self, operations: &[Operation], t: &Thresholds) -> Vec<String> {
        let mut out = Vec::new();
        for (name, f) in &self.facts {
            let rus = self.ru_per_second.get(name).copied().unwrap_or(0.0);
            if f.dictionary {
                for (doc, d) in &f.documents {
                    let bytes = d.count * d.bytes;
                    if bytes > LOGICAL_PARTITION_BYTES {
                        out.push(format!("`{name}`: the `{doc}` dictionary (one logical partition) holds about {}, over the 20 GB a logical partition can hold", human_bytes(bytes)));
                    }
                }
                if rus > LOGICAL_PARTITION_RU_PER_SECOND && rus.is_finite() {
                    out.push(format!("`{name}`: about {} RU/s go to its dictionaries' logical partitions, over the 10,000 RU/s one can serve", rus.round()));
                }
                continue;
            }
            let per_partition = f.storage_bytes / f.partition_key_values.max(1.0);
            if per_partition > LOGICAL_PARTITION_BYTES {
                out.push(format!(
                    "`{name}`: a logical partition holds about {}, over the 20 GB limit",
                    human_bytes(per_partition)
                ));
            }
            if !rus.is_finite() {
                out.push(format!("`{name}`: its cross-partition queries fan out faster than partitions add throughput; the container cannot carry this workload"));
                continue;
            }
            let hot = rus / f.partition_key_values.max(1.0);
            if hot > LOGICAL_PARTITION_RU_PER_SECOND {
                out.push(format!(
                    "`{name}`: about {} RU/s per logical partition, over the 10,000 RU/s one can serve",
                    hot.round()
                ));
            }
            for (doc, d) in &f.documents {
                if d.bytes > MAX_ITEM_BYTES / 2.0 {
                    out.push(format!(
                        "`{name}`/`{doc}`: items of about {} are near the 2 MB item limit",
                        human_bytes(d.bytes)
                    ));
                }
            }
        }
        for op in operations {
            if op.kind == OperationKind::CrossPartitionQuery && op.per_second >= t.frequent_per_second {
                out.push(format!(
                    "`{}` runs {} as a cross-partition query on `{}`",
                    op.pattern,
                    human_rate(op.per_second),
                    op.requests[0].container
                ));
            }
        }
        out
    }
}
