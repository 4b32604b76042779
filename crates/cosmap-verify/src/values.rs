//! Deterministic attribute values, by type.
//!
//! Each object of the sample set (a document, or an object embedded in one) has a
//! *group* `k` and an *ordinal*:
//!
//! - plain values come from the group, which neighbouring objects share (documents
//!   in pairs; the two elements of an embedded array overlap with the next owner's),
//!   so that an equality filter matches some samples and not others;
//! - values that an access pattern sorts on come from the ordinal, scrambled so that
//!   they are all different and not in the order the samples were written (a query
//!   missing its `ORDER BY` returns them in another order than the expected one);
//! - `unique` values carry the object's own tag;
//! - a *revision* (for replaced documents) changes every value.

use cosmap_domain::AttributeType;
use cosmap_mapper::Property;
use serde_json::{json, Value};

/// Where a value goes: the object's group, ordinal and tag, and the revision.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Seed<'a> {
    /// Shared by neighbouring objects.
    pub group: usize,
    /// Unique among the objects of one kind.
    pub ordinal: usize,
    /// Unique text naming the object (its document id and path).
    pub tag: &'a str,
    /// 0 as written first; 1 and up for replacements.
    pub revision: u32,
}

/// The value of attribute `property`; `sorted` when an access pattern sorts on it.
pub(crate) fn attribute(property: &Property, seed: Seed<'_>, sorted: bool) -> Value {
    if property.many {
        let next = Seed {
            group: seed.group + 1,
            ordinal: seed.ordinal + 1,
            ..seed
        };
        return json!([scalar(property, seed, sorted), scalar(property, next, sorted)]);
    }
    scalar(property, seed, sorted)
}

fn scalar(property: &Property, seed: Seed<'_>, sorted: bool) -> Value {
    let name = &property.name;
    let revision = seed.revision;
    let suffix = if revision == 0 {
        String::new()
    } else {
        format!("-r{revision}")
    };
    // Sorted values: all different (up to 1,000 objects of a kind), out of write order.
    let scrambled = (997 + 1000 - (seed.ordinal * 389) % 1000) % 1000;
    let n = if sorted { scrambled } else { seed.group };
    match property.ty {
        AttributeType::String if property.unique => json!(format!("{name}-{}{suffix}", seed.tag)),
        AttributeType::String if sorted => json!(format!("{name}-{n:03}{suffix}")),
        AttributeType::String => json!(format!("{name}-{n}{suffix}")),
        AttributeType::Integer => {
            json!(if property.unique { seed.ordinal } else { n } as i64 * 10 + i64::from(revision) * 100_000 + 10)
        }
        AttributeType::Number => json!(n as f64 * 1.5 + f64::from(revision) * 10_000.0 + 0.25),
        AttributeType::Decimal => json!(format!("{}.{:02}", 10 + n + revision as usize * 1000, (n * 7) % 100)),
        AttributeType::Boolean => json!((n + revision as usize).is_multiple_of(2)),
        AttributeType::DateTime => {
            let minutes = if sorted { n } else { n * 97 % 1000 };
            json!(format!(
                "{}-03-01T{:02}:{:02}:00Z",
                2025 + revision,
                minutes / 60,
                minutes % 60
            ))
        }
        AttributeType::Date => json!(format!(
            "{}-{:02}-{:02}",
            2000 + n / 336 + revision as usize * 100,
            n % 12 + 1,
            (n / 12) % 28 + 1
        )),
        AttributeType::Uuid => {
            let n = if property.unique { seed.ordinal } else { n };
            json!(format!("00000000-0000-4000-8{revision:03x}-{n:012x}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn property(ty: AttributeType) -> Property {
        Property {
            name: "at".into(),
            ty,
            optional: false,
            many: false,
            unique: false,
        }
    }

    fn seed(ordinal: usize) -> Seed<'static> {
        Seed {
            group: ordinal / 2,
            ordinal,
            tag: "doc-1",
            revision: 0,
        }
    }

    #[test]
    fn sorted_values_differ_and_are_not_in_write_order() {
        for ty in [
            AttributeType::String,
            AttributeType::Integer,
            AttributeType::DateTime,
            AttributeType::Date,
        ] {
            let values: Vec<String> = (0..200)
                .map(|o| attribute(&property(ty), seed(o), true).to_string())
                .collect();
            let mut distinct = values.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), values.len(), "{ty:?}");
            // The first two of each kind come in descending order.
            assert!(values[0] > values[1], "{ty:?}: {} {}", values[0], values[1]);
        }
    }

    #[test]
    fn plain_values_are_shared_by_a_group_and_revisions_change_them() {
        let p = property(AttributeType::String);
        assert_eq!(attribute(&p, seed(0), false), attribute(&p, seed(1), false));
        assert_ne!(attribute(&p, seed(1), false), attribute(&p, seed(2), false));
        let revised = Seed { revision: 1, ..seed(0) };
        assert_ne!(attribute(&p, seed(0), false), attribute(&p, revised, false));
        let unique = Property { unique: true, ..p };
        assert_eq!(attribute(&unique, seed(0), false), json!("at-doc-1"));
    }
}
