//! The generated types of `regressions.json` used for real: each shape the
//! property tests found wrong in generated code now compiles and behaves.

use generated_compile::regressions::{country, kind, person, team, types};

fn person() -> person::Person {
    person::Person {
        id: "p1".into(),
        r#type: Default::default(),
        etag: None,
        ts: None,
        person_id: "p1".into(),
        ttl: None,
        name: "Ada".into(),
        country: types::CountrySnapshot {
            country_id: "c1".into(),
            iso_code: "GB".into(),
        },
    }
}

/// The copy's partition key comes from the snapshot that replaced the reference
/// to `Country` (`country.countryId`), not from an `id` it does not have.
#[test]
fn a_copy_takes_its_partition_key_from_the_snapshot_identity() {
    let copy = country::Person::from(&person());
    assert_eq!(copy.country_id, "c1");
    assert_eq!(copy.partition_key(), "c1");
    assert_eq!(copy.country, person().country);
    let value = serde_json::to_value(&copy).unwrap();
    assert_eq!(value["countryId"], "c1");
    assert_eq!(value["country"]["countryId"], "c1");
    let any: country::CountryDocument = serde_json::from_value(value).unwrap();
    assert_eq!(any.partition_key(), "c1");
}

/// A container named `Kind` has its discriminators in `kind::kind`, and a
/// `partitionKey` attribute is a field beside the `partition_key()` method,
/// which still returns the partition key.
#[test]
fn a_partition_key_attribute_is_not_the_partition_key() {
    let doc = kind::Kind {
        id: "k1".into(),
        r#type: kind::kind::Kind::Kind,
        etag: None,
        ts: None,
        kind_id: "k1".into(),
        partition_key: "an attribute".into(),
        tags: vec![types::Tag { label: "t".into() }],
    };
    assert_eq!(doc.partition_key(), "k1");
    let value = serde_json::to_value(&doc).unwrap();
    assert_eq!(value["partitionKey"], "an attribute");
    assert_eq!(value["kindId"], "k1");
}

/// A member's reference to its own root would be named like the partition key
/// (`team`); it is stored as `teamRef`.
#[test]
fn a_member_reference_is_renamed_off_the_partition_key() {
    let player = team::Player {
        id: "p1".into(),
        r#type: Default::default(),
        etag: None,
        ts: None,
        team: "t1".into(),
        position: "keeper".into(),
        team_ref: types::TeamRef::new("t1"),
    };
    let value = serde_json::to_value(&player).unwrap();
    assert_eq!(value["team"], "t1");
    assert_eq!(value["teamRef"], serde_json::json!({"id": "t1", "partitionKey": "t1"}));
}
