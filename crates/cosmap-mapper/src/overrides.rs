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
    // The first decision of each rule and subject, indexed once (a scan per lookup
    // made the text of a large model quadratic).
    let mut first: std::collections::HashMap<(Rule, &str), usize> = std::collections::HashMap::new();
    for (i, d) in model.decisions.iter().enumerate() {
        first.entry((d.rule, d.subject.as_str())).or_insert(i);
    }
    let later = |rule: Rule, subject: &str| first.get(&(rule, subject)).copied();
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
