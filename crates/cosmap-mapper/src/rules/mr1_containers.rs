//! MR1 — one container per aggregate, named after its root entity.

use cosmap_domain::DomainModel;

use super::ContainerPlan;
use crate::decision::{Rule, Trace};
use crate::logical_model::ContainerKind;

/// One planned container per aggregate, sorted by root name.
pub(crate) fn containers<'m>(model: &'m DomainModel, trace: &mut Trace) -> Vec<ContainerPlan<'m>> {
    let mut aggregates: Vec<_> = model.aggregates().iter().collect();
    aggregates.sort_by(|a, b| a.root.cmp(&b.root));
    aggregates
        .into_iter()
        .map(|aggregate| {
            trace
                .record(
                    Rule::Mr1,
                    aggregate.display_name(),
                    format!("container `{}`", aggregate.root),
                    format!(
                        "one container per aggregate, named after its root entity `{}`",
                        aggregate.root
                    ),
                )
                .with("root", aggregate.root.as_str())
                .with("members", aggregate.members.len());
            ContainerPlan {
                name: aggregate.root.clone(),
                kind: ContainerKind::Aggregate,
                aggregates: vec![aggregate],
                partition_key_property: String::new(),
                rules: vec![Rule::Mr1],
            }
        })
        .collect()
}
