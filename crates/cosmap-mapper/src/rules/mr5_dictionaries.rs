//! MR5 — orphan aggregates (a root and no other members: dictionaries, reference
//! data) share one dictionary container, partitioned by `type`, only while each
//! fits its one logical partition for years: at most `dictionaryMaxItems` instances
//! and `dictionaryMaxBytes` after `growthYears` of creates, at most
//! `dictionaryMaxWritesPerSecond` writes and `dictionaryMaxOperationsPerSecond`
//! reads and writes. Otherwise it keeps its own container, and the decision says
//! which figure decided.

use cosmap_domain::DomainModel;

use super::ContainerPlan;
use crate::decision::{Rule, Trace};
use crate::logical_model::ContainerKind;
use crate::options::Thresholds;
use crate::statistics::{human_bytes, human_count, human_rate, Statistics};

/// The partition key property of the dictionary container.
pub(crate) const DICTIONARY_PARTITION_KEY: &str = "type";

/// Moves small orphan aggregates out of their own containers into one shared
/// dictionary container named `name` (made unique if an aggregate already uses it).
pub(crate) fn share<'m>(
    model: &'m DomainModel,
    thresholds: &Thresholds,
    stats: &Statistics,
    name: &str,
    plans: Vec<ContainerPlan<'m>>,
    trace: &mut Trace,
) -> Vec<ContainerPlan<'m>> {
    let mut name = name.to_string();
    while plans.iter().any(|p| p.name == name) {
        name.push_str("Container");
    }
    let mut kept = Vec::new();
    let mut shared = Vec::new();
    for plan in plans {
        let aggregate = plan.aggregates[0];
        if !aggregate.members.is_empty() {
            kept.push(plan);
            continue;
        }
        let root = aggregate.root.as_str();
        // What it will be in `growth_years`: the dictionary cannot be split later
        // without moving every document, so it must still fit then.
        let years = thresholds.growth_years;
        let items = crate::cost::facts::count_after(model, stats, root, aggregate.default_ttl_seconds, years);
        let bytes = items * crate::cost::facts::bytes_of(model, root);
        let declared = model
            .entity(root)
            .and_then(|e| e.volume)
            .and_then(|v| v.count)
            .is_some();
        let ops = stats.operations_per_second(root);
        let writes = stats.writes_per_second(root);
        let reference = model.entity(root).and_then(|e| e.reference_data);
        let over = over_threshold(thresholds, years, items, bytes, writes, ops);
        let decision = if let Some(why) = over {
            kept.push(plan);
            trace.record(
                Rule::Mr5,
                aggregate.display_name(),
                format!("keeps its own container `{root}`"),
                format!("an orphan aggregate, but {why}"),
            )
        } else {
            shared.push(aggregate);
            trace.record(
                Rule::Mr5,
                aggregate.display_name(),
                format!("shares container `{name}`, partitioned by `/{DICTIONARY_PARTITION_KEY}`"),
                shared_reason(declared, years, items, bytes, writes, ops),
            )
        };
        decision
            .with("itemsAfterGrowth", items.round())
            .with("growthYears", years)
            .with("writesPerSecond", writes);
        if declared {
            decision.with("storageBytes", bytes);
        }
        decision.with("members", 0).with("operationsPerSecond", ops);
        if let Some(rate) = reference {
            decision.with("referenceData", serde_json::to_value(rate).unwrap_or_default());
        }
    }
    if !shared.is_empty() {
        kept.push(ContainerPlan {
            name,
            kind: ContainerKind::Dictionary,
            aggregates: shared,
            partition_key_property: DICTIONARY_PARTITION_KEY.to_string(),
            rules: vec![Rule::Mr5],
        });
    }
    kept.sort_by(|a, b| a.name.cmp(&b.name));
    kept
}

/// Why an orphan aggregate cannot be a dictionary, if it cannot: the first figure
/// over its threshold decides (`items` and `bytes` after `years` of growth, `writes`,
/// then all operations, `ops`, per second).
fn over_threshold(
    thresholds: &Thresholds,
    years: f64,
    items: f64,
    bytes: f64,
    writes: f64,
    ops: f64,
) -> Option<String> {
    if items > thresholds.dictionary_max_items {
        Some(format!(
            "about {} instances after {years} years is over the {} a dictionary may hold (`dictionaryMaxItems`)",
            human_count(items),
            human_count(thresholds.dictionary_max_items)
        ))
    } else if bytes > thresholds.dictionary_max_bytes {
        Some(format!(
                    "about {} after {years} years is over the {} a dictionary may hold in its one logical partition (`dictionaryMaxBytes`)",
                    human_bytes(bytes),
                    human_bytes(thresholds.dictionary_max_bytes)
                ))
    } else if writes > thresholds.dictionary_max_writes_per_second {
        Some(format!(
                    "{} of writes is over the {} of a dictionary (`dictionaryMaxWritesPerSecond`): it is not reference data that changes rarely",
                    human_rate(writes),
                    human_rate(thresholds.dictionary_max_writes_per_second)
                ))
    } else if ops > thresholds.dictionary_max_operations_per_second {
        Some(format!(
                    "{} of reads and writes is over the {} a dictionary may take in its one logical partition (`dictionaryMaxOperationsPerSecond`)",
                    human_rate(ops),
                    human_rate(thresholds.dictionary_max_operations_per_second)
                ))
    } else {
        None
    }
}

/// Why an orphan aggregate shares the dictionary container: small (its size after
/// `years`, when its count is `declared`), rarely written and not hot.
fn shared_reason(declared: bool, years: f64, items: f64, bytes: f64, writes: f64, ops: f64) -> String {
    let size = if declared {
        format!(
            "about {} instances and {} after {years} years",
            human_count(items),
            human_bytes(bytes)
        )
    } else {
        "count unknown".to_string()
    };
    format!(
        "an orphan aggregate (a root with no other members), small ({size}), rarely written ({}) and not hot ({} of reads and writes): one logical partition per dictionary, listed by a single-partition query",
        human_rate(writes),
        human_rate(ops)
    )
}
