//! Which decisions a later rule overrode: MR1 gives an orphan aggregate its own
//! container and MR2 its partition key, then MR5 moves it into the shared
//! dictionary container (partitioned by `/type`); MR6 stores a reference that
//! `embedReferenceData` then replaces with an embedded snapshot; `partitionKey`
//! replaces MR2's partition key with what the heaviest reads filter on. The trace keeps
//! both decisions; this says which one no longer holds.

use crate::{ContainerKind, LogicalModel, Rule};

/// For each of `model.decisions`, in order, the index of the later decision that
/// overrides it, if any.
pub fn overridden_by(model: &LogicalModel) -> Vec<Option<usize>> {
    let later = |rule: Rule, subject: &str| {
        model
            .decisions
            .iter()
            .position(|d| d.rule == rule && d.subject == subject)
    };
    model
        .decisions
        .iter()
        .map(|d| match d.rule {
            Rule::Mr1 | Rule::Mr2 => {
                let shared = model
                    .containers
                    .iter()
                    .any(|c| c.kind == ContainerKind::Dictionary && c.aggregates.contains(&d.subject));
                let repartitioned = d.rule == Rule::Mr2
                    && model
                        .container(&d.subject)
                        .is_some_and(|c| c.rules.contains(&Rule::PartitionKey));
                if shared {
                    later(Rule::Mr5, &d.subject)
                } else if repartitioned {
                    later(Rule::PartitionKey, &d.subject)
                } else {
                    None
                }
            }
            Rule::Mr6 => later(Rule::EmbedReferenceData, &d.subject),
            _ => None,
        })
        .collect()
}
