//! Which runtime helpers (`mod rt` of `cosmap_data.rs`) a model's data access uses,
//! so only those are generated: the code a design does not use is not written, and
//! the module builds under `-D warnings` with no `allow(dead_code)`.
//!
//! The data access is rendered once without the helpers; every `rt::…` it names,
//! closed over what each helper uses in turn ([`HELPERS`]), is the set rendered.

use std::collections::{BTreeMap, BTreeSet};

/// Every item of `mod rt` (a function, a type, an enum's variant `Type::Variant`, a
/// method `Type::method`, an import by its name) and the items its text uses,
/// separated by spaces.
const HELPERS: &[(&str, &str)] = &[
    ("Error", ""),
    ("Value", ""),
    ("ContainerClient", ""),
    ("FeedScope", ""),
    ("PartitionKey", ""),
    ("Query", ""),
    ("TransactionalBatch", ""),
    ("BatchDeleteOptions", ""),
    ("BatchReplaceOptions", ""),
    ("ItemWriteOptions", ""),
    ("Precondition", ""),
    ("status", ""),
    ("json", "Error"),
    ("body", "Error Value json stripped"),
    ("stripped", "Value"),
    ("from_json", "Error Value json"),
    ("text", "Value"),
    ("expiring", "Value"),
    ("read", "Error ContainerClient PartitionKey Value from_json status"),
    (
        "read_live",
        "Error ContainerClient PartitionKey Value read expiring from_json",
    ),
    ("query", "Error ContainerClient Query FeedScope Value from_json"),
    (
        "query_page",
        "Error ContainerClient Query FeedScope Value from_json Page",
    ),
    ("Page", ""),
    ("Key", ""),
    ("Key::Path", "Key values_at"),
    ("Key::Constant", "Key"),
    ("values_at", "Value"),
    ("key_of", "Error Value PartitionKey json"),
    (
        "follow",
        "Error ContainerClient Value Key values_at json read_live key_of",
    ),
    (
        "read_listed",
        "Error ContainerClient Value Query FeedScope values_at bind query",
    ),
    ("listed_in", "Error Value values_at from_json"),
    ("climb", "Error ContainerClient Value Key text follow json from_json"),
    (
        "find_referring",
        "Error ContainerClient Value Query FeedScope text bind query",
    ),
    (
        "count_of",
        "Error ContainerClient Value Query FeedScope text bind key_of query",
    ),
    ("key_in", "Error Value PartitionKey key_of"),
    (
        "refresh",
        "Error ContainerClient Value find_referring text replace key_in stripped read",
    ),
    ("Kept", ""),
    ("Kept::Count", "Kept"),
    ("Kept::Subset", "Kept"),
    (
        "keep",
        "Error ContainerClient Value Query FeedScope Kept text key_of bind query read replace stripped",
    ),
    (
        "reancestor",
        "Error ContainerClient Value text find_referring replace key_in stripped read",
    ),
    (
        "trim",
        "Error ContainerClient Value Query FeedScope bind query delete text",
    ),
    (
        "run_feed",
        "Error ContainerClient PartitionKey Value FeedScope read_lease text write_lease",
    ),
    ("value_of", "Error Value json"),
    ("ancestors", "Error ContainerClient Value text key_of read"),
    ("parent", "Error ContainerClient Value read text"),
    ("counted", "Value Op Op::Replace stripped"),
    ("append", "Error ContainerClient Value read text replace create"),
    ("json_of", "Error Value json"),
    ("bucket_items", "Error Value text from_json"),
    ("subset_with", "Value Op Op::Replace text order stripped"),
    ("newest", "Value text order"),
    ("children_of", "Value"),
    ("order", "Value"),
    ("bind", "Error Query json"),
    ("if_match", "Precondition"),
    ("write_error", "Error status"),
    ("etag_of", ""),
    (
        "create",
        "Error ContainerClient PartitionKey Value text write_error etag_of",
    ),
    (
        "replace",
        "Error ContainerClient PartitionKey Value ItemWriteOptions text if_match write_error etag_of",
    ),
    (
        "delete",
        "Error ContainerClient PartitionKey ItemWriteOptions if_match status write_error",
    ),
    ("Op", "Value text batch"),
    ("Op::Create", "Op"),
    ("Op::Replace", "Op BatchReplaceOptions if_match"),
    ("Op::Delete", "Op BatchDeleteOptions if_match"),
    ("Op::DeleteAny", "Op"),
    ("Op::Write", "Op BatchReplaceOptions if_match"),
    ("Op::write", "Op Op::Replace Op::Create"),
    ("batch", "Error ContainerClient PartitionKey TransactionalBatch Op text"),
    ("claim", "Error ContainerClient Value body text read status"),
    ("release", "Error ContainerClient delete"),
    ("Claims", "Error ContainerClient release"),
    ("Claims::absorb", "Claims"),
    ("Claims::keep", "Claims"),
    ("claimed", "Value"),
    ("Lease", ""),
    (
        "read_lease",
        "Error ContainerClient PartitionKey Value read from_json Lease",
    ),
    (
        "write_lease",
        "Error ContainerClient PartitionKey Value json replace create Lease",
    ),
];

/// The template's flag of a helper: `Op::Delete` is `Op_Delete` (`{{#if rt.Op_Delete}}`).
fn flag(name: &str) -> String {
    name.replace("::", "_")
}

/// Every helper's flag, none set: what the first rendering, without helpers, takes.
pub fn none() -> BTreeMap<String, bool> {
    HELPERS.iter().map(|(name, _)| (flag(name), false)).collect()
}

/// The flags of the helpers `named` after `rt::` in the data access rendered
/// without them ([`named`]), and of every helper those use in turn.
pub fn used<'n>(named: impl IntoIterator<Item = &'n str>) -> BTreeMap<String, bool> {
    let known: BTreeMap<&str, &str> = HELPERS.iter().copied().collect();
    let mut used: BTreeSet<&str> = BTreeSet::new();
    let mut todo: Vec<&str> = named
        .into_iter()
        .filter_map(|n| known.get_key_value(n).map(|(k, _)| *k))
        .collect();
    while let Some(name) = todo.pop() {
        if used.insert(name) {
            todo.extend(known.get(name).copied().unwrap_or_default().split_whitespace());
        }
    }
    HELPERS
        .iter()
        .map(|(name, _)| (flag(name), used.contains(name)))
        .collect()
}

/// The paths after each `rt::` in `text`: `read_live`, and for `rt::Op::Create` both
/// `Op` and `Op::Create`.
pub fn named(text: &str) -> impl Iterator<Item = &str> {
    let word = |s: &str| {
        s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(s.len())
    };
    let starts = |at: usize| !text[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
    text.match_indices("rt::")
        .filter(move |(at, _)| starts(*at))
        .flat_map(move |(at, _)| {
            let rest = &text[at + 4..];
            let first = word(rest);
            let mut out = vec![&rest[..first]];
            if let Some(after) = rest[first..].strip_prefix("::") {
                out.push(&rest[..first + 2 + word(after)]);
            }
            out
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_brings_its_enum_and_what_the_batch_needs() {
        let flags = used(named("ops.push(rt::Op::Delete(id, etag)); rt::batch(client, …)"));
        for on in [
            "Op",
            "Op_Delete",
            "batch",
            "BatchDeleteOptions",
            "if_match",
            "Precondition",
            "text",
        ] {
            assert!(flags[on], "{on} should be generated");
        }
        for off in [
            "Op_Create",
            "Op_Replace",
            "Op_Write",
            "BatchReplaceOptions",
            "query",
            "claim",
        ] {
            assert!(!flags[off], "{off} should not be generated");
        }
    }

    #[test]
    fn every_dependency_is_a_helper() {
        let known: BTreeSet<&str> = HELPERS.iter().map(|(name, _)| *name).collect();
        for (name, uses) in HELPERS {
            for u in uses.split_whitespace() {
                assert!(known.contains(u), "{name} uses {u}, which is not a helper");
            }
        }
        assert_eq!(known.len(), HELPERS.len(), "a helper is listed twice");
    }

    #[test]
    fn unknown_names_and_words_ending_in_rt_are_ignored() {
        let flags = used(named("start::read(x); rt::nothing_here()"));
        assert!(flags.values().all(|on| !on));
    }
}
