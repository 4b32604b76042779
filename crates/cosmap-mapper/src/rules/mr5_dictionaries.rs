//! MR5 — orphan aggregates (a root and no other members: dictionaries, reference
//! data) share one dictionary container, partitioned by `type`, unless one is too
//! large or too hot for a single logical partition.

use cosmap_domain::DomainModel;

use super::ContainerPlan;
use crate::decision::{Rule, Trace};
use crate::logical_model::ContainerKind;
use crate::options::Thresholds;
use crate::statistics::{human_bytes, human_rate, Statistics};

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
        // Known when the root declares its count (the one estimate of storage,
        // as the cost table makes it).
        let declared = model.entity(root).and_then(|e| e.volume).and_then(|v| v.count);
        let bytes = declared.map(|_| crate::cost::facts::element_storage(model, root, None));
        let ops = stats.operations_per_second(root);
        let reference = model.entity(root).and_then(|e| e.reference_data);
        let too_large = bytes.filter(|b| *b > thresholds.dictionary_max_bytes);
        let too_hot = ops > thresholds.dictionary_max_operations_per_second;
        let decision = if let Some(b) = too_large {
            kept.push(plan);
            trace.record(
                Rule::Mr5,
                aggregate.display_name(),
                format!("keeps its own container `{root}`"),
                format!(
                    "an orphan aggregate, but about {} is over the {} a dictionary may hold in its one logical partition",
                    human_bytes(b),
                    human_bytes(thresholds.dictionary_max_bytes)
                ),
            )
        } else if too_hot {
            kept.push(plan);
            trace.record(
                Rule::Mr5,
                aggregate.display_name(),
                format!("keeps its own container `{root}`"),
                format!(
                    "an orphan aggregate, but {} of reads and writes is over the {} a dictionary may take in its one logical partition",
                    human_rate(ops),
                    human_rate(thresholds.dictionary_max_operations_per_second)
                ),
            )
        } else {
            shared.push(aggregate);
            let size = bytes.map_or_else(|| "size unknown".to_string(), |b| format!("about {}", human_bytes(b)));
            trace.record(
                Rule::Mr5,
                aggregate.display_name(),
                format!("shares container `{name}`, partitioned by `/{DICTIONARY_PARTITION_KEY}`"),
                format!(
                    "an orphan aggregate (a root with no other members), small ({size}) and not hot ({} of reads and writes): one logical partition per dictionary, listed by a single-partition query",
                    human_rate(ops)
                ),
            )
        };
        decision.with("members", 0).with("operationsPerSecond", ops);
        if let Some(b) = bytes {
            decision.with("storageBytes", b);
        }
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
