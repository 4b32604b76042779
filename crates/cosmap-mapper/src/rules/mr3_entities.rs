//! MR3 — a non-root entity becomes its own document type in its aggregate root's
//! container, with its own `id`, a `type` discriminator and the root's partition key.

use crate::decision::{Rule, Trace};

/// Records the MR3 decision for entity `entity` of the aggregate rooted at `root`.
pub(crate) fn record(
    entity: &str,
    identity: &str,
    root: &str,
    container: &str,
    partition_key: &str,
    trace: &mut Trace,
) {
    trace
        .record(
            Rule::Mr3,
            entity,
            format!("document type `{entity}` in container `{container}`"),
            format!(
                "a non-root entity of `{root}`: its own document (id from `{identity}`, type `{}`) carrying the root's partition key `/{partition_key}`, so the aggregate stays in one logical partition",
                crate::discriminator(entity)
            ),
        )
        .with("aggregateRoot", root)
        .with("identity", identity);
}
