//! The metering model (`model.json`, every mappable attribute type required,
//! optional, as a list and as an optional list) generated three ways by
//! `build.rs`. That all three compile (and pass `clippy -D warnings`) is the
//! first test; `tests/` round-trips and sorts them.
#![forbid(unsafe_code)]

/// Default mapping: every attribute a `String`, no dependency.
pub mod plain {
    include!(concat!(env!("OUT_DIR"), "/plain.rs"));
}

/// `dateTime=chrono`, `date=chrono`, `uuid=uuid`, `decimal=rust_decimal`.
pub mod with_chrono {
    include!(concat!(env!("OUT_DIR"), "/chrono.rs"));
}

/// `dateTime=time`, `date=time` (decimals and uuids stay strings).
pub mod with_time {
    include!(concat!(env!("OUT_DIR"), "/time.rs"));
}

/// `model-v2.json` (the model after a change adding optional values and lists)
/// with the mapping of [`with_chrono`]: `tests/evolution.rs` builds documents of
/// both with the same code.
pub mod with_chrono_v2 {
    include!(concat!(env!("OUT_DIR"), "/v2.rs"));
}

/// `model-v2.json` with the default mapping: its defaults as plain values.
pub mod plain_v2 {
    include!(concat!(env!("OUT_DIR"), "/v2_plain.rs"));
}

/// `model-v2.json` with `dateTime=time`, `date=time`: its date defaults read by `time`.
pub mod with_time_v2 {
    include!(concat!(env!("OUT_DIR"), "/v2_time.rs"));
}
