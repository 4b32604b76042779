//! Soft deletes and queries: in a container whose change feed keeps derived data
//! (rule `copySource`), a delete sets the document's `ttl` and the document stays until
//! it expires, so every query there leaves out the documents whose `ttl` is set. Without
//! it a read would return a deleted document, and a recount would count it, for as long
//! as the document waits to expire.

use crate::decision::Rule;
use crate::logical_model::Container;

use super::{Action, Operation, Request};

/// The condition that leaves out the documents waiting to expire.
pub(crate) const LIVE: &str = "NOT IS_DEFINED(c.ttl)";

/// The index path the condition reads.
const TTL_PATH: &str = "/ttl/?";

/// Adds [`LIVE`] to every query of `operations` that runs in a container with soft
/// deletes (and `/ttl/?` to what it indexes).
pub(crate) fn leave_out_expiring(operations: &mut [Operation], containers: &[Container]) {
    leave_out_expiring_in(operations.iter_mut().flat_map(|o| o.requests.iter_mut()), containers);
}

/// [`leave_out_expiring`] for requests outside an operation.
pub(crate) fn leave_out_expiring_in<'r>(requests: impl Iterator<Item = &'r mut Request>, containers: &[Container]) {
    let soft: Vec<&str> = containers
        .iter()
        .filter(|c| c.rules.contains(&Rule::CopySource))
        .map(|c| c.name.as_str())
        .collect();
    if soft.is_empty() {
        return;
    }
    for request in requests {
        if !soft.contains(&request.container.as_str()) {
            continue;
        }
        let (Action::SinglePartitionQuery { sql, .. } | Action::CrossPartitionQuery { sql, .. }) = &mut request.action
        else {
            continue;
        };
        *sql = with_condition(sql, LIVE);
        if !request.index_paths.iter().any(|p| p == TTL_PATH) {
            request.index_paths.push(TTL_PATH.to_string());
        }
    }
}

/// `sql` with `condition` joined to its top-level `WHERE` by `AND` (or a `WHERE` of its
/// own), before any `ORDER BY`. The generated SQL has no top-level `OR`, so `AND` binds
/// the whole filter; words inside parentheses (subqueries) and string literals are not
/// the query's own.
fn with_condition(sql: &str, condition: &str) -> String {
    let mut has_where = false;
    let mut order_by = None;
    let mut depth = 0usize;
    let mut quoted = false;
    let bytes = sql.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if quoted {
            match b {
                b'\\' => i += 1,
                b'\'' => quoted = false,
                _ => {}
            }
        } else {
            match b {
                b'\'' => quoted = true,
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth = depth.saturating_sub(1),
                b' ' if depth == 0 => {
                    let rest = &sql[i..];
                    if rest.starts_with(" WHERE ") {
                        has_where = true;
                    } else if rest.starts_with(" ORDER BY ") && order_by.is_none() {
                        order_by = Some(i);
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    let at = order_by.unwrap_or(sql.len());
    let joiner = if has_where { "AND" } else { "WHERE" };
    format!("{} {joiner} {condition}{}", &sql[..at], &sql[at..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_the_top_level_filter() {
        assert_eq!(
            with_condition("SELECT * FROM c WHERE c.a = @a AND c.type = 'x'", LIVE),
            "SELECT * FROM c WHERE c.a = @a AND c.type = 'x' AND NOT IS_DEFINED(c.ttl)"
        );
        assert_eq!(
            with_condition("SELECT TOP 5 * FROM c WHERE c.a = @a ORDER BY c.at DESC", LIVE),
            "SELECT TOP 5 * FROM c WHERE c.a = @a AND NOT IS_DEFINED(c.ttl) ORDER BY c.at DESC"
        );
        assert_eq!(
            with_condition("SELECT * FROM c ORDER BY c.at", LIVE),
            "SELECT * FROM c WHERE NOT IS_DEFINED(c.ttl) ORDER BY c.at"
        );
    }

    #[test]
    fn skips_subqueries_and_literals() {
        assert_eq!(
            with_condition(
                "SELECT * FROM c WHERE EXISTS(SELECT VALUE x FROM x IN c.l WHERE x.k = 'a ORDER BY b') ORDER BY c.n",
                LIVE
            ),
            "SELECT * FROM c WHERE EXISTS(SELECT VALUE x FROM x IN c.l WHERE x.k = 'a ORDER BY b') AND NOT IS_DEFINED(c.ttl) ORDER BY c.n"
        );
        assert_eq!(
            with_condition("SELECT * FROM c WHERE c.k = 'it\\'s ORDER BY' ", LIVE),
            "SELECT * FROM c WHERE c.k = 'it\\'s ORDER BY'  AND NOT IS_DEFINED(c.ttl)"
        );
    }
}
