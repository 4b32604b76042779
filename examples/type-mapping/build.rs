//! Generates the metering model's types three times, as a user's `build.rs` would:
//! with the default mapping, with `chrono`, `uuid` and `rust_decimal`, and with `time`;
//! and `model-v2.json`, the model after a change that adds optional fields, lists and
//! required fields with a default (with the `chrono` mapping, and also plain and with `time`).

fn main() -> Result<(), cosmap_codegen::BuildError> {
    let model = "model.json";
    cosmap_codegen::Builder::new()
        .model(model)
        .file_name("plain.rs")
        .compile()?;
    cosmap_codegen::Builder::new()
        .model(model)
        .file_name("chrono.rs")
        .map_type("dateTime", "chrono")
        .map_type("date", "chrono")
        .map_type("uuid", "uuid")
        .map_type("decimal", "rust_decimal")
        // The user's own attributes: every mapped type here is `Eq`, so the documents can be.
        .type_attribute("Meter.Meter", "#[derive(Eq)]")
        .type_attribute("Reading", "#[derive(Eq)]")
        .field_attribute("Meter.tariff", "#[doc = \"Price of a kilowatt-hour.\"]")
        .compile()?;
    cosmap_codegen::Builder::new()
        .model(model)
        .file_name("time.rs")
        .map_type("dateTime", "time")
        .map_type("date", "time")
        .compile()?;
    cosmap_codegen::Builder::new()
        .model("model-v2.json")
        .file_name("v2.rs")
        .map_type("dateTime", "chrono")
        .map_type("date", "chrono")
        .map_type("uuid", "uuid")
        .map_type("decimal", "rust_decimal")
        .compile()?;
    // Version 2's defaults, read through each mapping.
    cosmap_codegen::Builder::new()
        .model("model-v2.json")
        .file_name("v2_plain.rs")
        .compile()?;
    cosmap_codegen::Builder::new()
        .model("model-v2.json")
        .file_name("v2_time.rs")
        .map_type("dateTime", "time")
        .map_type("date", "time")
        .compile()
}
