//! Logical models shared by the unit tests.

use cosmap_mapper::LogicalModel;

/// A model of one aggregate, `Meter`, whose attribute `at` of type `ty` has `default`.
pub(crate) fn meter(ty: &str, default: serde_json::Value) -> LogicalModel {
    let spec = serde_json::json!({
        "name": "M",
        "entities": [{"name": "Meter", "identity": "meterId", "attributes": [
            {"name": "at", "type": ty, "default": default}
        ]}],
        "aggregates": [{"root": "Meter"}]
    });
    let domain = cosmap_domain::from_slice(spec.to_string().as_bytes(), None).expect("valid");
    cosmap_mapper::map(&domain, &cosmap_mapper::Options::default())
}
