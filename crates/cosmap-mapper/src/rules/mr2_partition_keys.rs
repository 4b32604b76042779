//! MR2 — a container's partition key is the identity of its aggregate root; every
//! document type stored in it carries that property.

use cosmap_domain::DomainModel;

use super::ContainerPlan;
use crate::decision::{Rule, Trace};

/// Sets each planned container's partition key to its root's identity.
pub(crate) fn partition(model: &DomainModel, plans: &mut [ContainerPlan<'_>], trace: &mut Trace) {
    for plan in plans {
        let root = &plan.aggregates[0].root;
        let Some(identity) = model.entity(root).map(|e| e.identity.clone()) else {
            continue; // validation guarantees the root is an entity
        };
        trace
            .record(
                Rule::Mr2,
                plan.name.as_str(),
                format!("partition key `/{identity}`"),
                format!(
                    "the identity of the root `{root}`: an aggregate's documents share one logical partition, so it can be read and written together"
                ),
            )
            .with("identity", identity.as_str());
        plan.partition_key_property = identity;
        plan.rules.push(Rule::Mr2);
    }
}
