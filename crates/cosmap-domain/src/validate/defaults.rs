//! Attribute defaults: the value a document written without the attribute reads as.
//! A default must be a JSON value of the attribute's type, in the canonical text the
//! generated codecs read (RFC 3339, `YYYY-MM-DD`, a hyphenated UUID, decimal text),
//! and sit on a required single value that is not unique: an optional attribute reads
//! as `None` and a list as empty already, and a default shared by every old document
//! would break a unique key.

use serde_json::Value;

use super::Checker;
use crate::diagnostic::{Diagnostic, JsonPath};
use crate::load::kind_of;
use crate::model::{Attribute, AttributeType};

/// The most significant digits a `decimal` default may have (`rust_decimal` holds 28).
const MAX_DECIMAL_DIGITS: usize = 28;

impl Checker<'_> {
    /// Checks `attribute.default`, if any; `at` is the attribute's own path.
    pub(super) fn check_default(&mut self, attribute: &Attribute, at: impl Fn() -> JsonPath) {
        let Some(value) = &attribute.default else {
            return;
        };
        let place = || at().key("default");
        let name = &attribute.name;
        if attribute.optional {
            self.report(
                Diagnostic::new(
                    place(),
                    format!("`{name}` is optional and has a `default`: documents without it read as absent (`None`), never as the default"),
                )
                .help("remove `default`, or remove `optional` so that documents without it read the default"),
            );
        } else if attribute.many {
            self.report(
                Diagnostic::new(
                    place(),
                    format!("`{name}` is a list and has a `default`: documents without it read as an empty list"),
                )
                .help("remove `default`"),
            );
        } else if attribute.unique {
            self.report(
                Diagnostic::new(
                    place(),
                    format!("`{name}` is unique and has a `default`: every document written without it would read the same value, which `unique` forbids"),
                )
                .help("remove `default`, and write a value into every document that lacks one before making it unique"),
            );
        } else if let Err(problem) = check_value(attribute.ty, value) {
            self.report(
                Diagnostic::new(
                    place(),
                    format!(
                        "the `default` of `{name}` is not {} {}: {problem}",
                        if attribute.ty == AttributeType::Integer {
                            "an"
                        } else {
                            "a"
                        },
                        attribute.ty.as_str()
                    ),
                )
                .help(format!("write {}", example(attribute.ty))),
            );
        } else if let Value::String(text) = value {
            self.check_visible_text(text, place, "the attribute's `default`");
        }
    }
}

/// A default of `ty`, as the help suggests it.
fn example(ty: AttributeType) -> &'static str {
    match ty {
        AttributeType::String => "a JSON string, for example `\"default\": \"open\"`",
        AttributeType::Integer => "a whole JSON number, for example `\"default\": 0`",
        AttributeType::Number => "a JSON number, for example `\"default\": 0.5`",
        AttributeType::Boolean => "`\"default\": true` or `\"default\": false`",
        AttributeType::Decimal => "decimal text, for example `\"default\": \"0.00\"`",
        AttributeType::DateTime => {
            "RFC 3339 text with a time zone, for example `\"default\": \"2024-01-01T00:00:00Z\"`"
        }
        AttributeType::Date => "a calendar date, for example `\"default\": \"2024-01-01\"`",
        AttributeType::Uuid => "a hyphenated UUID, for example `\"default\": \"00000000-0000-0000-0000-000000000000\"`",
    }
}

/// Whether `value` is a value of `ty`; the error says what is wrong.
pub(crate) fn check_value(ty: AttributeType, value: &Value) -> Result<(), String> {
    let text = || value.as_str().ok_or_else(|| format!("it is {}", kind_of(value)));
    match ty {
        AttributeType::String => text().map(drop),
        AttributeType::Integer => match value {
            Value::Number(n) if n.as_i64().is_some() => Ok(()),
            Value::Number(_) => Err("it is not a whole number between -2^63 and 2^63-1".into()),
            _ => Err(format!("it is {}", kind_of(value))),
        },
        AttributeType::Number => match value {
            Value::Number(_) => Ok(()),
            _ => Err(format!("it is {}", kind_of(value))),
        },
        AttributeType::Boolean => match value {
            Value::Bool(_) => Ok(()),
            _ => Err(format!("it is {}", kind_of(value))),
        },
        AttributeType::Decimal => decimal(text()?),
        AttributeType::DateTime => date_time(text()?),
        AttributeType::Date => {
            let text = text()?;
            match date(text)? {
                "" => Ok(()),
                _ => Err(format!("`{text}` is not a `YYYY-MM-DD` calendar date")),
            }
        }
        AttributeType::Uuid => uuid(text()?),
    }
}

/// `-12.50`: an optional minus, digits, optionally a point and digits.
fn decimal(text: &str) -> Result<(), String> {
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || (unsigned.contains('.') && !digits(fraction)) {
        return Err(format!(
            "`{text}` is not decimal text (digits, optionally a point and digits)"
        ));
    }
    let significant = whole.trim_start_matches('0').len() + fraction.len();
    if significant > MAX_DECIMAL_DIGITS {
        return Err(format!("`{text}` has more than {MAX_DECIMAL_DIGITS} digits"));
    }
    Ok(())
}

/// `YYYY-MM-DD`, a real calendar date; returns the text after it.
fn date(text: &str) -> Result<&str, String> {
    let wrong = || format!("`{text}` is not a `YYYY-MM-DD` calendar date");
    let b = text.as_bytes();
    if !text.is_ascii() || b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return Err(wrong());
    }
    let year = number(&text[0..4]).ok_or_else(wrong)?;
    let month = number(&text[5..7]).ok_or_else(wrong)?;
    let day = number(&text[8..10]).ok_or_else(wrong)?;
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return Err(wrong()),
    };
    if day == 0 || day > days {
        return Err(wrong());
    }
    Ok(&text[10..])
}

/// `2024-01-01T12:30:00Z`, `2024-01-01T12:30:00.5+02:00`: RFC 3339 with an upper-case
/// `T`, seconds, an optional fraction and a zone (`Z` or an offset).
fn date_time(text: &str) -> Result<(), String> {
    let wrong = || {
        format!(
            "`{text}` is not an RFC 3339 date-time (`YYYY-MM-DDThh:mm:ss`, an optional fraction, then `Z` or `+hh:mm`)"
        )
    };
    let rest = date(text).map_err(|_| wrong())?;
    let b = rest.as_bytes();
    if b.len() < 9 || b[0] != b'T' || b[3] != b':' || b[6] != b':' {
        return Err(wrong());
    }
    let (hour, minute, second) = (
        number(&rest[1..3]).ok_or_else(wrong)?,
        number(&rest[4..6]).ok_or_else(wrong)?,
        number(&rest[7..9]).ok_or_else(wrong)?,
    );
    if hour > 23 || minute > 59 || second > 59 {
        return Err(wrong());
    }
    let mut zone = &rest[9..];
    if let Some(fraction) = zone.strip_prefix('.') {
        let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 9 {
            return Err(wrong());
        }
        zone = &fraction[digits..];
    }
    match zone.as_bytes() {
        [b'Z'] => Ok(()),
        [b'+' | b'-', _, _, b':', _, _] => {
            let (h, m) = (number(&zone[1..3]), number(&zone[4..6]));
            match (h, m) {
                (Some(h), Some(m)) if h <= 23 && m <= 59 => Ok(()),
                _ => Err(wrong()),
            }
        }
        _ => Err(wrong()),
    }
}

/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in hexadecimal digits.
fn uuid(text: &str) -> Result<(), String> {
    let ok = text.len() == 36
        && text.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        });
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{text}` is not a hyphenated UUID (8-4-4-4-12 hexadecimal digits)"
        ))
    }
}

/// Decimal digits only (no sign), as a number.
fn number(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_of_each_type() {
        use AttributeType as T;
        let good = [
            (T::String, json!("")),
            (T::Integer, json!(-3)),
            (T::Number, json!(0.5)),
            (T::Number, json!(2)),
            (T::Boolean, json!(false)),
            (T::Decimal, json!("-12.50")),
            (T::Decimal, json!("0")),
            (T::DateTime, json!("2024-02-29T23:59:59Z")),
            (T::DateTime, json!("2024-01-01T00:00:00.1234567+02:00")),
            (T::Date, json!("2000-02-29")),
            (T::Uuid, json!("0f8fad5b-d9cb-469f-a165-70867728950e")),
        ];
        for (ty, value) in good {
            assert_eq!(check_value(ty, &value), Ok(()), "{ty:?} {value}");
        }
        let bad = [
            (T::String, json!(1)),
            (T::Integer, json!(1.5)),
            (T::Integer, json!("1")),
            (T::Number, json!(null)),
            (T::Boolean, json!("true")),
            (T::Decimal, json!("1e5")),
            (T::Decimal, json!("1.")),
            (T::Decimal, json!("12345678901234567890123456789")),
            (T::DateTime, json!("2024-01-01")),
            (T::DateTime, json!("2024-01-01t00:00:00Z")),
            (T::DateTime, json!("2024-01-01T00:00:00")),
            (T::DateTime, json!("2024-01-01T24:00:00Z")),
            (T::DateTime, json!("2023-02-29T00:00:00Z")),
            (T::DateTime, json!("2024-01-01T00:00:60Z")),
            (T::Date, json!("1900-02-29")),
            (T::Date, json!("2024-13-01")),
            (T::Date, json!("2024-01-01T00:00:00Z")),
            (T::Uuid, json!("0f8fad5bd9cb469fa16570867728950e")),
            (T::Uuid, json!([])),
            (T::Date, json!("2é24-01-01")),
            (T::DateTime, json!("2024-01-01T00:00:0é")),
        ];
        for (ty, value) in bad {
            assert!(check_value(ty, &value).is_err(), "{ty:?} {value}");
        }
    }
}
