//! The generated types of `patterns/bucket`: a bucket's id is the hour its readings
//! were measured in, and its `window` the same value.

use generated_compile::bucket::{device::ReadingBucket, types::Reading};

#[test]
fn a_bucket_is_named_by_the_hour_of_its_readings() {
    let measured = "2026-12-01T13:45:07.000000000Z";
    assert_eq!(ReadingBucket::window_of(measured), "2026-12-01T13");
    let mut bucket = ReadingBucket::new(ReadingBucket::window_of(measured), "device-1");
    assert_eq!(
        (bucket.id.as_str(), bucket.window.as_str()),
        ("2026-12-01T13", "2026-12-01T13")
    );
    bucket.readings.push(Reading {
        measured_at: measured.to_string(),
        celsius: 21.5,
    });
    let value = serde_json::to_value(&bucket).unwrap();
    assert_eq!(value["type"], "readingBucket");
    assert_eq!(value["readings"][0]["measuredAt"], measured);
    let back: ReadingBucket = serde_json::from_value(value).unwrap();
    assert_eq!(back, bucket);
    // A short text is its own window.
    assert_eq!(ReadingBucket::window_of("2026"), "2026");
}

#[test]
fn a_value_object_whose_fields_all_have_defaults_derives_default() {
    let empty = Reading::default();
    assert_eq!((empty.measured_at.as_str(), empty.celsius), ("", 0.0));
}
