//! A model change that adds optional attributes, lists and a time to live does not
//! break code that builds documents with the generated constructors: the same
//! code (one macro body) compiles against the types of both model versions.

use type_mapping::{with_chrono, with_chrono_v2};

/// Builds a meter and a reading with `new` and sets one optional value, in the
/// generated module `$types`; returns them as JSON.
macro_rules! user_code {
    ($types:ident) => {{
        use $types::meter::{Meter, Reading};
        let installed = chrono::DateTime::parse_from_rfc3339("2024-05-01T10:00:00Z")
            .unwrap()
            .to_utc();
        let mut meter = Meter::new(
            "m-1",
            uuid::Uuid::nil(),
            installed.date_naive(),
            installed,
            rust_decimal::Decimal::new(25, 2),
        );
        meter.credit = Some(rust_decimal::Decimal::ONE);
        let reading = Reading::new("r-1", "m-1", installed, rust_decimal::Decimal::new(15, 1));
        (
            serde_json::to_value(&meter).unwrap(),
            serde_json::to_value(&reading).unwrap(),
        )
    }};
}

#[test]
fn the_same_constructor_calls_build_documents_of_both_model_versions() {
    let (meter, reading) = user_code!(with_chrono);
    let (meter_v2, reading_v2) = user_code!(with_chrono_v2);
    // Lists are written empty; absent optional values and the new `ttl` are left out.
    let mut expected = meter.clone();
    expected["tags"] = serde_json::json!([]);
    assert_eq!(meter_v2, expected);
    assert_eq!(reading_v2, reading);
    assert_eq!(meter["meterId"], meter["id"], "the partition key value is the id");
    assert_eq!(meter["type"], "meter");
    assert_eq!(meter["installedAt"], "2024-05-01T10:00:00.0000000Z");
    assert_eq!(reading["meterId"], "m-1");
}

#[test]
fn lists_and_options_missing_from_a_stored_document_read_as_empty() {
    let stored = serde_json::json!({
        "id": "m-1", "type": "meter", "meterId": "m-1",
        "serial": "00000000-0000-0000-0000-000000000000",
        "installedOn": "2024-05-01", "installedAt": "2024-05-01T10:00:00Z", "tariff": "0.25"
    });
    let meter: with_chrono_v2::meter::Meter = serde_json::from_value(stored).expect("reads without lists");
    assert!(meter.tags.is_empty() && meter.alarms_at.is_empty() && meter.aliases.is_empty());
    assert_eq!(meter.outages_at, None);
    assert_eq!(meter.ttl, None);
}

#[test]
fn the_builder_hooks_put_the_users_attributes_on_types_and_fields() {
    fn is_eq<T: Eq>() {}
    is_eq::<with_chrono::meter::Meter>();
    is_eq::<with_chrono::meter::Reading>();
    let source = include_str!(concat!(env!("OUT_DIR"), "/chrono.rs"));
    assert!(
        source.contains("///Price of a kilowatt-hour.\n        pub tariff"),
        "the field attribute is on `tariff`"
    );
}
