//! Each type mapping compiles (see `src/lib.rs`) and round-trips: a document
//! written by hand in any valid form is read, written back in the canonical form,
//! and that form reads back to the same value. Canonical date-time text sorts as
//! the instants do.

use serde_json::{json, Value};
use type_mapping::with_chrono::types::codec::Canonical as ChronoCodec;
use type_mapping::with_time::types::codec::Canonical as TimeCodec;
use type_mapping::{plain, with_chrono, with_time};

/// A meter document as another writer might have stored it: offsets other than
/// UTC, fractions of every width, upper-case uuids, decimals with trailing zeros.
fn meter_as_written() -> Value {
    json!({
        "id": "m-1",
        "type": "meter",
        "meterId": "m-1",
        "serial": "6F1C2B9E-8D4A-4E57-9A3B-2C1D0E9F8A7B",
        "installedOn": "2024-02-29",
        "installedAt": "2024-02-29T23:30:00+02:00",
        "tariff": "0.2500",
        "retiredAt": "2025-01-01T00:00:00.5Z",
        "credit": "-12.10",
        "inspectedOn": ["2024-03-01", "2025-12-31"],
        "alarmsAt": ["2024-03-01T10:00:00.123Z", "2024-03-01T10:00:00.1234567Z"],
        "surcharges": ["1", "2.50"],
        "aliases": ["00000000-0000-0000-0000-000000000001"],
        "outagesAt": ["2024-06-01T12:00:00-05:30"]
    })
}

/// The same document in the canonical form the mapped types write.
fn meter_canonical(decimals_and_uuids_mapped: bool) -> Value {
    let mut canonical = json!({
        "id": "m-1",
        "type": "meter",
        "meterId": "m-1",
        "serial": "6f1c2b9e-8d4a-4e57-9a3b-2c1d0e9f8a7b",
        "installedOn": "2024-02-29",
        "installedAt": "2024-02-29T21:30:00.0000000Z",
        "tariff": "0.25",
        "retiredAt": "2025-01-01T00:00:00.5000000Z",
        "credit": "-12.1",
        "inspectedOn": ["2024-03-01", "2025-12-31"],
        "alarmsAt": ["2024-03-01T10:00:00.1230000Z", "2024-03-01T10:00:00.1234567Z"],
        "surcharges": ["1", "2.5"],
        "aliases": ["00000000-0000-0000-0000-000000000001"],
        "outagesAt": ["2024-06-01T17:30:00.0000000Z"]
    });
    if !decimals_and_uuids_mapped {
        let written = meter_as_written();
        for field in ["serial", "tariff", "credit", "surcharges"] {
            canonical[field] = written[field].clone();
        }
    }
    canonical
}

/// Reads `written` as `T`, checks it writes `canonical`, and that `canonical` reads
/// back to the same value.
fn round_trip<T>(written: Value, canonical: &Value)
where
    T: serde::de::DeserializeOwned + serde::Serialize + PartialEq + std::fmt::Debug,
{
    let typed: T = serde_json::from_value(written).expect("the document reads");
    assert_eq!(&serde_json::to_value(&typed).unwrap(), canonical);
    let again: T = serde_json::from_value(canonical.clone()).expect("the canonical form reads");
    assert_eq!(again, typed);
}

#[test]
fn default_mapping_keeps_the_text_as_written() {
    let written = meter_as_written();
    round_trip::<plain::meter::Meter>(written.clone(), &written);
}

#[test]
fn chrono_uuid_and_rust_decimal_write_one_canonical_form() {
    round_trip::<with_chrono::meter::Meter>(meter_as_written(), &meter_canonical(true));
    let meter: with_chrono::meter::Meter = serde_json::from_value(meter_as_written()).unwrap();
    assert_eq!(
        meter.installed_on,
        chrono::NaiveDate::from_ymd_opt(2024, 2, 29).unwrap()
    );
    assert_eq!(meter.tariff, rust_decimal::Decimal::new(25, 2));
    assert_eq!(meter.serial.get_version_num(), 4);
    assert_eq!(meter.replaces, None, "absent optional reads as None");
}

#[test]
fn time_writes_one_canonical_form() {
    round_trip::<with_time::meter::Meter>(meter_as_written(), &meter_canonical(false));
    let meter: with_time::meter::Meter = serde_json::from_value(meter_as_written()).unwrap();
    assert_eq!(meter.installed_at.offset(), time::UtcOffset::UTC, "kept in UTC");
    assert_eq!(
        meter.installed_at,
        time::Date::from_calendar_date(2024, time::Month::February, 29)
            .and_then(|d| d.with_hms(21, 30, 0))
            .unwrap()
            .assume_utc()
    );
}

#[test]
fn a_nanosecond_instant_is_written_to_the_100_ns_tick() {
    let mut doc = meter_as_written();
    doc["installedAt"] = json!("2024-01-02T03:04:05.123456789Z");
    let chrono: with_chrono::meter::Meter = serde_json::from_value(doc.clone()).unwrap();
    let time: with_time::meter::Meter = serde_json::from_value(doc).unwrap();
    for written in [
        serde_json::to_value(&chrono).unwrap(),
        serde_json::to_value(&time).unwrap(),
    ] {
        assert_eq!(written["installedAt"], "2024-01-02T03:04:05.1234567Z");
    }
}

#[test]
fn invalid_text_is_an_error_not_a_panic() {
    for (field, bad) in [
        ("installedAt", json!("2024-02-30T00:00:00Z")),
        ("installedAt", json!("yesterday")),
        ("installedAt", json!(1_700_000_000)),
        ("installedOn", json!("2023-02-29")),
        ("installedOn", json!("2024-1-01")),
        ("installedOn", json!("+2024-01-01")),
        ("serial", json!("not-a-uuid")),
        ("tariff", json!("1.2.3")),
        ("alarmsAt", json!(["2024-03-01T10:00:00Z", "later"])),
    ] {
        let mut doc = meter_as_written();
        doc[field] = bad.clone();
        let err = serde_json::from_value::<with_chrono::meter::Meter>(doc.clone())
            .expect_err(&format!("chrono accepted {field} = {bad}"));
        assert!(!err.to_string().is_empty());
        if field.ends_with("At") || field.ends_with("On") {
            assert!(
                serde_json::from_value::<with_time::meter::Meter>(doc).is_err(),
                "time accepted {field} = {bad}"
            );
        }
    }
}

#[test]
fn a_year_past_9999_is_refused_on_write() {
    let mut meter: with_chrono::meter::Meter = serde_json::from_value(meter_as_written()).unwrap();
    meter.installed_on = chrono::NaiveDate::from_ymd_opt(10_000, 1, 1).unwrap();
    let err = serde_json::to_value(&meter).unwrap_err().to_string();
    assert!(err.contains("0000-9999"), "{err}");
}

/// Instants a few nanoseconds to years apart, in many offsets: sorting their
/// canonical text sorts them in time.
#[test]
fn canonical_date_time_text_sorts_in_time_order() {
    let texts = [
        "2024-01-01T00:00:00Z",
        "2024-01-01T00:00:00.1Z",
        "2024-01-01T00:00:00.09Z",
        "2024-01-01T00:00:00.0000001Z",
        "2024-01-01T00:00:00.9999999Z",
        "2024-01-01T01:00:00+02:00",
        "2023-12-31T23:59:59.999Z",
        "2024-01-01T00:00:01-00:01",
        "0999-05-05T05:05:05Z",
        "9999-12-31T23:59:59.9999999Z",
        "2024-06-15T12:00:00.5+14:00",
    ];
    let mut chrono: Vec<chrono::DateTime<chrono::Utc>> = texts
        .iter()
        .map(|t| chrono::DateTime::parse_from_rfc3339(t).unwrap().to_utc())
        .collect();
    chrono.sort();
    let chrono_texts: Vec<String> = chrono.iter().map(|v| ChronoCodec::write(v).unwrap()).collect();
    let mut time: Vec<time::OffsetDateTime> = texts.iter().map(|t| TimeCodec::read(t).unwrap()).collect();
    time.sort();
    let time_texts: Vec<String> = time.iter().map(|v| TimeCodec::write(v).unwrap()).collect();
    assert_eq!(chrono_texts, time_texts, "both crates write the same text");
    let mut sorted = chrono_texts.clone();
    sorted.sort();
    assert_eq!(sorted, chrono_texts, "text order is time order");
    assert!(sorted.iter().all(|t| t.len() == 28), "{sorted:?}");
}
