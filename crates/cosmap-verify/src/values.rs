//! Deterministic attribute values, by type.
//!
//! Each object of the sample set (a document, or an object embedded in one) has a
//! *group* `k` and an *ordinal*; how an attribute's values spread over the objects
//! is its [`Spread`]:
//!
//! - plain values come from the group, which neighbouring objects share (documents
//!   in pairs; the two elements of an embedded array overlap with the next owner's),
//!   so that an equality filter matches some samples and not others;
//! - values some access pattern filters on take one binary digit of the ordinal, a
//!   different digit for each filter of a pattern: the filters of one pattern vary
//!   independently, so that for some binding each filter is the only one that leaves
//!   a sample out (a query that lost a clause returns more); strings `name-1` and
//!   `name-10`, one a prefix of the other;
//! - values a pattern filters by membership (`in`) take three values in turn;
//! - values that an access pattern sorts on come from the ordinal, scrambled so that
//!   they are all different and not in the order the samples were written (a query
//!   missing its `ORDER BY` returns them in another order than the expected one);
//! - `unique` values come from the ordinal (strings: the object's own tag), so no two
//!   objects of a kind share one, whatever the type;
//! - every non-string value carries an offset drawn from the attribute's name, so two
//!   attributes of one type never share values (a filter moved to another attribute
//!   finds nothing);
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

/// How an attribute's values spread over the objects (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spread {
    /// From the group: shared by neighbours.
    Plain,
    /// Filtered on: binary digit `d` of the ordinal plus one.
    Filtered(u32),
    /// Sorted on: all different, out of write order.
    Sorted,
    /// Filtered by membership (`in`): three values in turn, so that a list of two
    /// of them leaves some objects out.
    ThreeWay,
}

/// The value of attribute `property` spread as `spread`.
pub(crate) fn attribute(property: &Property, seed: Seed<'_>, spread: Spread) -> Value {
    if property.many {
        let next = Seed {
            group: seed.group + 1,
            ordinal: seed.ordinal + 1,
            ..seed
        };
        // A filtered list's second element is its own (all different), so that
        // `ARRAY_CONTAINS` on the first tells the lists apart.
        let second = match spread {
            Spread::Filtered(_) => Spread::Sorted,
            other => other,
        };
        return json!([scalar(property, seed, spread), scalar(property, next, second)]);
    }
    scalar(property, seed, spread)
}

/// A small number drawn from an attribute's name (FNV-1a), the same on every run.
fn name_offset(name: &str) -> usize {
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    (hash % 97) as usize
}

fn scalar(property: &Property, seed: Seed<'_>, spread: Spread) -> Value {
    let name = &property.name;
    let revision = seed.revision;
    let rev = revision as usize;
    let suffix = if revision == 0 {
        String::new()
    } else {
        format!("-r{revision}")
    };
    // Sorted values: all different (up to 1,000 objects of a kind), out of write order,
    // and in another order for each attribute (multipliers prime to 1,000).
    const MULTIPLIERS: [usize; 8] = [389, 613, 777, 131, 457, 919, 263, 853];
    let multiplier = MULTIPLIERS[name_offset(&property.name) % MULTIPLIERS.len()];
    let scrambled = (997 + 1000 - (seed.ordinal * multiplier) % 1000) % 1000;
    let n = match spread {
        _ if property.unique => seed.ordinal % 1000,
        Spread::Sorted => scrambled,
        Spread::Filtered(digit) => ((seed.ordinal + 1) >> digit.min(16)) & 1,
        Spread::ThreeWay => seed.ordinal % 3,
        Spread::Plain => seed.group % 1000,
    };
    let sortable = property.unique || spread == Spread::Sorted;
    let offset = name_offset(name);
    match property.ty {
        AttributeType::String if property.unique => json!(format!("{name}-{}{suffix}", seed.tag)),
        AttributeType::String if sortable => json!(format!("{name}-{n:03}{suffix}")),
        // Filtered: digit 1 gives `name-1`, digit 0 `name-10`, one a prefix of the
        // other (a `STARTSWITH` in place of `=` finds both).
        AttributeType::String if matches!(spread, Spread::Filtered(_)) => {
            json!(format!("{name}-1{}{suffix}", if n == 0 { "0" } else { "" }))
        }
        AttributeType::String => json!(format!("{name}-{n}{suffix}")),
        AttributeType::Integer => json!((n + offset * 1000 + rev * 1_000_000) as i64 * 10 + 10),
        AttributeType::Number => json!(n as f64 * 1.5 + (offset * 10_000 + rev * 1_000_000) as f64 + 0.25),
        AttributeType::Decimal => json!(format!(
            "{}.{:02}",
            10 + n + offset * 1000 + rev * 1_000_000,
            (n * 7) % 100
        )),
        AttributeType::Boolean => json!((n + rev).is_multiple_of(2)),
        AttributeType::DateTime => {
            // One day per name, one minute per value: all in one year per revision.
            let minutes = if sortable { n } else { n * 97 % 1000 };
            json!(format!(
                "{}-{:02}-{:02}T{:02}:{:02}:00Z",
                2025 + revision,
                offset % 12 + 1,
                offset / 12 + 1,
                minutes / 60,
                minutes % 60
            ))
        }
        AttributeType::Date => json!(format!(
            "{}-{:02}-{:02}",
            1000 + offset * 4 + n / 336 + rev * 500,
            n % 12 + 1,
            (n / 12) % 28 + 1
        )),
        AttributeType::Uuid => json!(format!("00000000-0000-4{offset:03x}-8{revision:03x}-{n:012x}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn property(ty: AttributeType) -> Property {
        Property {
            ty,
            ..Property::text("at")
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
                .map(|o| attribute(&property(ty), seed(o), Spread::Sorted).to_string())
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
        assert_eq!(
            attribute(&p, seed(0), Spread::Plain),
            attribute(&p, seed(1), Spread::Plain)
        );
        assert_ne!(
            attribute(&p, seed(1), Spread::Plain),
            attribute(&p, seed(2), Spread::Plain)
        );
        let revised = Seed { revision: 1, ..seed(0) };
        assert_ne!(
            attribute(&p, seed(0), Spread::Plain),
            attribute(&p, revised, Spread::Plain)
        );
        let unique = Property { unique: true, ..p };
        assert_eq!(attribute(&unique, seed(0), Spread::Plain), json!("at-doc-1"));
    }

    /// Every type but boolean (a unique boolean is refused; two booleans share values).
    const NOT_BOOLEAN: [AttributeType; 7] = [
        AttributeType::String,
        AttributeType::Integer,
        AttributeType::Number,
        AttributeType::Decimal,
        AttributeType::DateTime,
        AttributeType::Date,
        AttributeType::Uuid,
    ];

    #[test]
    fn unique_values_differ_for_every_type() {
        for ty in NOT_BOOLEAN {
            let p = Property {
                unique: true,
                ..property(ty)
            };
            let values: Vec<String> = (0..300)
                .map(|o| {
                    let tag = format!("doc-{o}");
                    let s = Seed { tag: &tag, ..seed(o) };
                    attribute(&p, s, Spread::Plain).to_string()
                })
                .collect();
            let mut distinct = values.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), values.len(), "{ty:?}");
        }
    }

    #[test]
    fn two_attributes_of_one_type_never_share_a_value() {
        // Strings carry their attribute's name; the others an offset drawn from it.
        for ty in NOT_BOOLEAN {
            let a = Property {
                name: "quantity".into(),
                ..property(ty)
            };
            let b = Property {
                name: "weight".into(),
                ..property(ty)
            };
            for o in 0..20 {
                for p in 0..20 {
                    assert_ne!(
                        attribute(&a, seed(o), Spread::Plain),
                        attribute(&b, seed(p), Spread::Plain),
                        "{ty:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn filtered_attributes_vary_independently() {
        let p = property(AttributeType::Integer);
        let digit = |d: u32| -> Vec<Value> { (0..4).map(|o| attribute(&p, seed(o), Spread::Filtered(d))).collect() };
        let (first, second) = (digit(0), digit(1));
        // Objects 0–3 hold every combination of the two digits.
        let mut pairs: Vec<String> = first.iter().zip(&second).map(|(a, b)| format!("{a}/{b}")).collect();
        pairs.sort();
        pairs.dedup();
        assert_eq!(pairs.len(), 4, "{first:?} {second:?}");
    }
}
