//! How model attribute types become Rust types, and optional derives.

use std::fmt;

/// The Rust types generated code uses for the model's attribute types that have
/// more than one sensible mapping. Each is a full type path, for example
/// `::chrono::DateTime<::chrono::Utc>`; the consuming crate must depend on it.
///
/// A type set with [`TypeMapping::map`] (one of cosmap's built-in [`Codec`]s) is
/// written in one canonical text form by a generated `serde(with)` helper; a type
/// set by path alone uses its own serde implementation.
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
    /// The built-in codec `date_time` uses, if any.
    pub date_time_codec: Option<Codec>,
    /// The built-in codec `date` uses, if any.
    pub date_codec: Option<Codec>,
    /// The built-in codec `decimal` uses, if any.
    pub decimal_codec: Option<Codec>,
    /// The built-in codec `uuid` uses, if any.
    pub uuid_codec: Option<Codec>,
    /// Also derive `schemars::JsonSchema` on every generated struct.
    pub json_schema: bool,
    /// (matcher, attribute): a line of Rust such as `#[derive(Hash)]` put on the
    /// generated structs the matcher selects: `.` every struct, `Name` a document
    /// type or shared struct of that Rust name, `Container.DocumentType` one document type.
    pub type_attributes: Vec<(String, String)>,
    /// (matcher, attribute): a line of Rust put on the fields selected: `.` every
    /// field, `Type.jsonName` or `Container.DocumentType.jsonName` one field.
    pub field_attributes: Vec<(String, String)>,
    /// (shared struct name, Rust path): fields use the user's own type, e.g.
    /// `("Money", "crate::money::Money")`, and the struct is not generated. The type
    /// must serialise as the struct would have.
    pub extern_paths: Vec<(String, String)>,
    /// Also generate `cosmap_data.rs`: data access on `azure_data_cosmos` (a handle
    /// per container, a repository per aggregate, a method per access pattern, a
    /// change-feed worker per copy). The crate that includes it depends on the SDK.
    pub data_access: bool,
}

impl Default for TypeMapping {
    fn default() -> Self {
        let string = "::std::string::String".to_string();
        TypeMapping {
            date_time: string.clone(),
            date: string.clone(),
            decimal: string.clone(),
            uuid: string,
            date_time_codec: None,
            date_codec: None,
            decimal_codec: None,
            uuid_codec: None,
            json_schema: false,
            type_attributes: Vec::new(),
            field_attributes: Vec::new(),
            extern_paths: Vec::new(),
            data_access: false,
        }
    }
}

/// A built-in mapping of a model attribute type to a crate's Rust type, with the
/// canonical text the generated code writes for it. Date-times are written
/// `YYYY-MM-DDThh:mm:ss.fffffffZ` (UTC, always seven fraction digits: the form of
/// Cosmos DB's own date-time functions) and dates `YYYY-MM-DD`, both for years
/// 0000-9999, so that string order is time order in `ORDER BY` and range filters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Codec {
    /// `dateTime=chrono`: `::chrono::DateTime<::chrono::Utc>`.
    ChronoDateTime,
    /// `dateTime=time`: `::time::OffsetDateTime` (read in any offset, kept in UTC).
    TimeDateTime,
    /// `date=chrono`: `::chrono::NaiveDate`.
    ChronoDate,
    /// `date=time`: `::time::Date`.
    TimeDate,
    /// `uuid=uuid`: `::uuid::Uuid`, written hyphenated in lower case.
    Uuid,
    /// `decimal=rust_decimal`: `::rust_decimal::Decimal`, written normalised
    /// (no trailing zeros). Decimal text does not sort by value: sort on a number.
    RustDecimal,
}

/// The attribute types a [`TypeMapping`] can map, as the model spells them.
pub const MAPPABLE: &[&str] = &["dateTime", "date", "decimal", "uuid"];

/// Every built-in codec: (attribute type, crate name, codec).
const CODECS: &[(&str, &str, Codec)] = &[
    ("dateTime", "chrono", Codec::ChronoDateTime),
    ("dateTime", "time", Codec::TimeDateTime),
    ("date", "chrono", Codec::ChronoDate),
    ("date", "time", Codec::TimeDate),
    ("uuid", "uuid", Codec::Uuid),
    ("decimal", "rust_decimal", Codec::RustDecimal),
];

impl Codec {
    /// The Rust type the codec reads and writes.
    pub fn rust_type(self) -> &'static str {
        match self {
            Codec::ChronoDateTime => "::chrono::DateTime<::chrono::Utc>",
            Codec::TimeDateTime => "::time::OffsetDateTime",
            Codec::ChronoDate => "::chrono::NaiveDate",
            Codec::TimeDate => "::time::Date",
            Codec::Uuid => "::uuid::Uuid",
            Codec::RustDecimal => "::rust_decimal::Decimal",
        }
    }
}

/// A type mapping that names no attribute type or crate cosmap knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TypeMappingError {
    /// Not of the form `KIND=CRATE`.
    #[error("`{0}` is not a type mapping: write KIND=CRATE, e.g. `dateTime=chrono`")]
    Syntax(String),
    /// The attribute type has a single mapping.
    #[error("`{kind}` cannot be mapped: the mappable attribute types are {}", MAPPABLE.join(", "))]
    Kind {
        /// The attribute type given.
        kind: String,
    },
    /// No built-in codec for this crate.
    #[error("`{kind}` cannot be mapped to `{krate}`: use one of {known} (or `string`)")]
    Crate {
        /// The attribute type given.
        kind: String,
        /// The crate given.
        krate: String,
        /// The crates it can be mapped to.
        known: String,
    },
}

impl TypeMapping {
    /// Maps attribute type `kind` (`dateTime`, `date`, `decimal`, `uuid`) to the
    /// type of crate `krate` (`chrono`, `time`, `uuid`, `rust_decimal`), written by
    /// a generated canonical-form helper; `string` restores the default.
    pub fn map(&mut self, kind: &str, krate: &str) -> Result<(), TypeMappingError> {
        let (ty, codec) = match (kind, krate) {
            (k, "string") if MAPPABLE.contains(&k) => ("::std::string::String", None),
            _ => match CODECS.iter().find(|(k, c, _)| *k == kind && *c == krate) {
                Some((_, _, codec)) => (codec.rust_type(), Some(*codec)),
                None if MAPPABLE.contains(&kind) => {
                    let known: Vec<&str> = CODECS.iter().filter(|(k, _, _)| *k == kind).map(|c| c.1).collect();
                    return Err(TypeMappingError::Crate {
                        kind: kind.to_string(),
                        krate: krate.to_string(),
                        known: known.join(", "),
                    });
                }
                None => return Err(TypeMappingError::Kind { kind: kind.to_string() }),
            },
        };
        let (field, codec_field) = match kind {
            "dateTime" => (&mut self.date_time, &mut self.date_time_codec),
            "date" => (&mut self.date, &mut self.date_codec),
            "decimal" => (&mut self.decimal, &mut self.decimal_codec),
            _ => (&mut self.uuid, &mut self.uuid_codec),
        };
        *field = ty.to_string();
        *codec_field = codec;
        Ok(())
    }

    /// [`map`](Self::map) from `KIND=CRATE` text, as `cosmap generate --type` takes it.
    pub fn apply(&mut self, spec: &str) -> Result<(), TypeMappingError> {
        let (kind, krate) = spec
            .split_once('=')
            .ok_or_else(|| TypeMappingError::Syntax(spec.to_string()))?;
        self.map(kind.trim(), krate.trim())
    }

    /// The codecs in use, each once, in a fixed order.
    pub fn codecs(&self) -> Vec<Codec> {
        let mut codecs: Vec<Codec> = [
            self.date_time_codec,
            self.date_codec,
            self.decimal_codec,
            self.uuid_codec,
        ]
        .into_iter()
        .flatten()
        .collect();
        codecs.sort();
        codecs.dedup();
        codecs
    }
}

impl fmt::Display for Codec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (kind, krate) = CODECS
            .iter()
            .find(|(_, _, c)| c == self)
            .map_or(("", ""), |(k, c, _)| (*k, *c));
        write!(f, "{kind}={krate}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mapping_sets_the_type_and_codec() {
        let mut m = TypeMapping::default();
        m.apply("dateTime=chrono").unwrap();
        m.apply("date = time").unwrap();
        m.apply("uuid=uuid").unwrap();
        m.apply("decimal=rust_decimal").unwrap();
        assert_eq!(m.date_time, "::chrono::DateTime<::chrono::Utc>");
        assert_eq!(m.date, "::time::Date");
        assert_eq!(
            m.codecs(),
            [Codec::ChronoDateTime, Codec::TimeDate, Codec::Uuid, Codec::RustDecimal]
        );
        m.apply("dateTime=string").unwrap();
        assert_eq!(m.date_time, "::std::string::String");
        assert_eq!(m.date_time_codec, None);
        assert_eq!(Codec::TimeDate.to_string(), "date=time");
    }

    #[test]
    fn unknown_mappings_are_refused_with_the_choices() {
        let mut m = TypeMapping::default();
        let e = m.apply("dateTime").unwrap_err();
        assert!(matches!(e, TypeMappingError::Syntax(_)), "{e}");
        let e = m.apply("integer=num").unwrap_err().to_string();
        assert!(e.contains("dateTime, date, decimal, uuid"), "{e}");
        let e = m.apply("dateTime=jiff").unwrap_err().to_string();
        assert!(e.contains("chrono, time"), "{e}");
        assert_eq!(m, TypeMapping::default(), "nothing changed");
    }
}
