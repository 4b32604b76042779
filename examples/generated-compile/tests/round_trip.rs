//! A sample document of every document type of every generated model goes
//! through its container's document enum and back to the same JSON: the
//! generated serde attributes keep the model's JSON names and `type` values.

/// Deserialises `text` as `T` and checks it serialises back to the same JSON.
fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(text: &str) {
    let value: serde_json::Value = serde_json::from_str(text).expect("the sample is JSON");
    let typed: T = serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{e} in\n{text}"));
    let back = serde_json::to_value(&typed).expect("a document serialises");
    assert_eq!(back, value, "the round trip changed\n{text}");
}

include!(concat!(env!("OUT_DIR"), "/round_trip.rs"));
