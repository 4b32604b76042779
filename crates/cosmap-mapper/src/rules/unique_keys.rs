//! Unique keys: an attribute declared `unique` becomes a Cosmos DB unique key
//! only where that is sound and constrains something. Cosmos DB enforces unique
//! keys per logical partition and treats a missing path as `null`, which takes part
//! in the constraint; so a path is usable only when every document type in the
//! container stores it, always. And a root partitioned by its own identity is
//! alone in its logical partition: a unique key there constrains nothing, so none
//! is made and the decision says so.

use crate::decision::{Rule, Trace};
use crate::logical_model::{Container, ContainerKind, Role};
use crate::physical::UniqueKey;

/// Sets `unique_keys` of `container` and records why each unique attribute is or is not one.
pub(crate) fn apply(container: &mut Container, trace: &mut Trace) {
    let mut wanted: Vec<(&str, &str)> = container
        .document_types
        .iter()
        .flat_map(|d| {
            d.attributes
                .iter()
                .filter(|a| a.unique)
                .map(move |a| (d.name.as_str(), a.name.as_str()))
        })
        .collect();
    wanted.sort_unstable();
    wanted.dedup_by(|a, b| a.1 == b.1);
    let mut keys = Vec::new();
    for (document, attribute) in wanted {
        let alone = container.kind == ContainerKind::Aggregate
            && container.document_types.iter().any(|d| {
                d.name == document
                    && d.role == Role::Root
                    && d.id.attribute() == container.partition_key_properties().last().copied()
            });
        if alone {
            trace.record(
                Rule::UniqueKey,
                format!("{document}.{attribute}"),
                "not a Cosmos DB unique key: it would constrain nothing (see uniqueClaim)",
                format!(
                    "Cosmos DB enforces a unique key within each logical partition, and each `{document}` is alone in its own (`{}` is partitioned by `{}`): no two `{document}`s would ever be compared",
                    container.name,
                    container.partition_key.paths.join(", ")
                ),
            );
            continue;
        }
        let missing: Vec<&str> = container
            .document_types
            .iter()
            .filter(|d| {
                !d.attributes
                    .iter()
                    .any(|a| a.name == attribute && !a.optional && !a.many)
            })
            .map(|d| d.name.as_str())
            .collect();
        let subject = format!("{document}.{attribute}");
        if missing.is_empty() {
            trace
                .record(
                    Rule::UniqueKey,
                    subject,
                    format!("unique key `/{attribute}` on container `{}`", container.name),
                    format!(
                        "every document type in `{}` stores `{attribute}`; Cosmos DB enforces it within each logical partition (`{}`)",
                        container.name,
                        container.partition_key.paths.join(", ")
                    ),
                )
                .with("path", format!("/{attribute}"));
            keys.push(UniqueKey {
                paths: vec![format!("/{attribute}")],
            });
        } else {
            trace
                .record(
                    Rule::UniqueKey,
                    subject,
                    "not a Cosmos DB unique key (see uniqueClaim)",
                    format!(
                        "{} in `{}` may lack `{attribute}`, and Cosmos DB counts a missing value as a null that may occur only once per logical partition",
                        missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", "),
                        container.name
                    ),
                )
                .with("without", missing);
        }
    }
    container.unique_keys = keys;
}
