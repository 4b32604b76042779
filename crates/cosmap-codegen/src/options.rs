//! How model attribute types become Rust types, and optional derives.

/// The Rust types generated code uses for the model's attribute types that have
/// more than one sensible mapping. Each is a full type path, for example
/// `::chrono::DateTime<::chrono::Utc>`; the consuming crate must depend on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeMapping {
    /// `dateTime` (default `String`, RFC 3339 text).
    pub date_time: String,
    /// `date` (default `String`, `YYYY-MM-DD`).
    pub date: String,
    /// `decimal` (default `String`, exact decimal text).
    pub decimal: String,
    /// `uuid` (default `String`).
    pub uuid: String,
    /// Also derive `schemars::JsonSchema` on every generated struct.
    pub json_schema: bool,
}

impl Default for TypeMapping {
    fn default() -> Self {
        let string = "::std::string::String".to_string();
        TypeMapping {
            date_time: string.clone(),
            date: string.clone(),
            decimal: string.clone(),
            uuid: string,
            json_schema: false,
        }
    }
}
