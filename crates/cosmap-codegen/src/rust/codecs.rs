//! The Rust text of each built-in codec's `Canonical` implementation, emitted in
//! the generated `types::codec` module when the type mapping uses it.

use serde::Serialize;

use crate::options::Codec;

/// One `impl Canonical for …` in the generated code.
#[derive(Debug, Serialize)]
pub struct CodecView {
    /// The Rust type, e.g. `::chrono::NaiveDate`.
    pub ty: &'static str,
    /// The mapping, e.g. `date=chrono`, for its doc comment.
    pub mapping: String,
    /// Body of `fn write(&self) -> Result<String, String>`.
    pub write: &'static str,
    /// Body of `fn read(text: &str) -> Result<Self, String>`.
    pub read: &'static str,
}

// Each codec's bodies are laid out as `prettyplease` prints them at their place in
// `cosmap.rs` (the first line follows the emitter's indentation, the others carry
// their own).
/// The write and read bodies of `chrono::DateTime<Utc>`.
const CHRONO_DATE_TIME: (&str, &str) = (
    "use ::chrono::{Datelike, Timelike};
                date_time_text(
                    self.year(),
                    self.month(),
                    self.day(),
                    self.hour(),
                    self.minute(),
                    self.second(),
                    self.nanosecond(),
                )",
    "::chrono::DateTime::parse_from_rfc3339(text)
                    .map(|t| t.with_timezone(&::chrono::Utc))
                    .map_err(|e| {
                        ::std::format!(\"`{text}` is not an RFC 3339 date-time: {e}\")
                    })",
);

/// The write and read bodies of `time::OffsetDateTime`.
const TIME_DATE_TIME: (&str, &str) = (
    "let utc = self
                    .checked_to_offset(::time::UtcOffset::UTC)
                    .ok_or(\"the date-time is out of range in UTC\")?;
                date_time_text(
                    utc.year(),
                    u32::from(u8::from(utc.month())),
                    u32::from(utc.day()),
                    u32::from(utc.hour()),
                    u32::from(utc.minute()),
                    u32::from(utc.second()),
                    utc.nanosecond(),
                )",
    "let t = ::time::OffsetDateTime::parse(
                        text,
                        &::time::format_description::well_known::Rfc3339,
                    )
                    .map_err(|e| {
                        ::std::format!(\"`{text}` is not an RFC 3339 date-time: {e}\")
                    })?;
                ::core::result::Result::Ok(
                    t.checked_to_offset(::time::UtcOffset::UTC).unwrap_or(t),
                )",
);

/// The write and read bodies of `chrono::NaiveDate`.
const CHRONO_DATE: (&str, &str) = (
    "use ::chrono::Datelike;
                date_text(self.year(), self.month(), self.day())",
    "let (year, month, day) = date_parts(text)?;
                ::chrono::NaiveDate::from_ymd_opt(year, month, day)
                    .ok_or_else(|| ::std::format!(\"`{text}` is not a calendar date\"))",
);

/// The write and read bodies of `time::Date`.
const TIME_DATE: (&str, &str) = (
    "date_text(
                    self.year(),
                    u32::from(u8::from(self.month())),
                    u32::from(self.day()),
                )",
    "let (year, month, day) = date_parts(text)?;
                let invalid = || ::std::format!(\"`{text}` is not a calendar date\");
                let month = u8::try_from(month)
                    .ok()
                    .and_then(|m| ::time::Month::try_from(m).ok())
                    .ok_or_else(invalid)?;
                let day = u8::try_from(day).map_err(|_| invalid())?;
                ::time::Date::from_calendar_date(year, month, day).map_err(|_| invalid())",
);

/// The write and read bodies of `uuid::Uuid`.
const UUID: (&str, &str) = (
    "::core::result::Result::Ok(
                    ::std::string::ToString::to_string(&self.hyphenated()),
                )",
    "::uuid::Uuid::try_parse(text)
                    .map_err(|e| ::std::format!(\"`{text}` is not a UUID: {e}\"))",
);

/// The write and read bodies of `rust_decimal::Decimal`.
const RUST_DECIMAL: (&str, &str) = (
    "::core::result::Result::Ok(
                    ::std::string::ToString::to_string(&self.normalize()),
                )",
    "::rust_decimal::Decimal::from_str_exact(text)
                    .map_err(|e| ::std::format!(\"`{text}` is not a decimal: {e}\"))",
);

/// The view of `codec`.
pub fn view(codec: Codec) -> CodecView {
    let (write, read) = match codec {
        Codec::ChronoDateTime => CHRONO_DATE_TIME,
        Codec::TimeDateTime => TIME_DATE_TIME,
        Codec::ChronoDate => CHRONO_DATE,
        Codec::TimeDate => TIME_DATE,
        Codec::Uuid => UUID,
        Codec::RustDecimal => RUST_DECIMAL,
    };
    CodecView {
        ty: codec.rust_type(),
        mapping: codec.to_string(),
        write,
        read,
    }
}
