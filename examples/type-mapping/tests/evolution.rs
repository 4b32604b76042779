//! A model change that adds optional attributes, lists, required attributes with a
//! model `default` and a time to live does not break code that builds documents with
//! the generated constructors: the same code (one macro body) compiles against the
//! types of both model versions; and documents written under version 1 read under
//! version 2, taking the defaults.

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
    // Lists are written empty and defaults as the model gives them; absent optional
    // values and the new `ttl` are left out.
    let mut expected = meter.clone();
    expected["tags"] = serde_json::json!([]);
    for (name, value) in [
        ("status", serde_json::json!("active")),
        ("phases", serde_json::json!(1)),
        ("loadFactor", serde_json::json!(1.0)),
        ("smart", serde_json::json!(false)),
        ("calibratedOn", serde_json::json!("2000-01-01")),
        ("calibratedAt", serde_json::json!("2000-01-01T00:00:00.0000000Z")),
        ("standingCharge", serde_json::json!("0.1")),
        ("firmware", serde_json::json!("00000000-0000-0000-0000-000000000001")),
    ] {
        expected[name] = value;
    }
    let mut expected_reading = reading.clone();
    expected_reading["source"] = serde_json::json!("meter");
    assert_eq!(meter_v2, expected);
    assert_eq!(reading_v2, expected_reading);
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

/// A meter as version 1 wrote it: none of the attributes version 2 added.
fn meter_written_by_v1() -> serde_json::Value {
    serde_json::json!({
        "id": "m-1", "type": "meter", "meterId": "m-1",
        "serial": "00000000-0000-0000-0000-000000000000",
        "installedOn": "2024-05-01", "installedAt": "2024-05-01T10:00:00Z", "tariff": "0.25"
    })
}

#[test]
fn documents_written_by_v1_read_the_model_defaults_under_every_mapping() {
    let stored = meter_written_by_v1();
    let chrono: type_mapping::with_chrono_v2::meter::Meter =
        serde_json::from_value(stored.clone()).expect("reads without the defaulted attributes");
    assert_eq!(chrono.status, "active");
    assert_eq!(chrono.phases, 1);
    assert_eq!(chrono.load_factor, 1.0);
    assert!(!chrono.smart);
    assert_eq!(
        chrono.calibrated_on,
        chrono::NaiveDate::from_ymd_opt(2000, 1, 1).unwrap()
    );
    assert_eq!(chrono.calibrated_at.to_rfc3339(), "2000-01-01T00:00:00+00:00");
    assert_eq!(chrono.standing_charge, rust_decimal::Decimal::new(10, 2));
    assert_eq!(chrono.firmware, uuid::Uuid::from_u128(1));

    let time: type_mapping::with_time_v2::meter::Meter =
        serde_json::from_value(stored.clone()).expect("reads under the time mapping");
    assert_eq!(
        time.calibrated_on,
        time::Date::from_calendar_date(2000, time::Month::January, 1).unwrap()
    );
    assert_eq!(
        time.calibrated_at,
        time::OffsetDateTime::from_unix_timestamp(946_684_800).unwrap()
    );

    let plain: type_mapping::plain_v2::meter::Meter =
        serde_json::from_value(stored).expect("reads under the default mapping");
    assert_eq!(plain.calibrated_at, "2000-01-01T00:00:00Z");
    assert_eq!(plain.standing_charge, "0.10");
    assert_eq!(plain.firmware, "00000000-0000-0000-0000-000000000001");

    // A stored value wins over the default, and a written document holds every value.
    let mut written = meter_written_by_v1();
    written["status"] = serde_json::json!("retired");
    let meter: type_mapping::plain_v2::meter::Meter = serde_json::from_value(written).unwrap();
    assert_eq!(meter.status, "retired");
    let again = serde_json::to_value(&meter).unwrap();
    assert_eq!(again["phases"], 1);
    assert_eq!(again["calibratedOn"], "2000-01-01");
}

#[test]
fn constructors_fill_the_model_defaults() {
    let reading = type_mapping::plain_v2::meter::Reading::new("r-1", "m-1", "2024-05-01T10:00:00Z", "1.5");
    assert_eq!(reading.source, "meter");
    let meter = type_mapping::with_chrono_v2::meter::Meter::new(
        "m-1",
        uuid::Uuid::nil(),
        chrono::NaiveDate::from_ymd_opt(2024, 5, 1).unwrap(),
        chrono::DateTime::UNIX_EPOCH,
        rust_decimal::Decimal::ONE,
    );
    assert_eq!((meter.status.as_str(), meter.phases, meter.smart), ("active", 1, false));
}
