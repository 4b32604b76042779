//! [`Json`]: a JSON value whose objects keep their keys in the order they were
//! written, whatever `serde_json` is built with. The JSON Schemas and the Bicep
//! resources are built as it, so their text does not depend on `serde_json`'s
//! `preserve_order` feature, which the default build leaves off (it costs
//! `indexmap` and `hashbrown` in a build-dependency; feature `templates` turns it
//! on, for the views handlebars turns into `serde_json::Value`s).

use std::borrow::Cow;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Number, Value};

/// A JSON value; an object is its members in order. Strings and keys the
/// generator spells (`"type"`, `"string"`, …) are borrowed, not copied: a schema
/// is mostly those.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'static, str>),
    Array(Vec<Json>),
    Object(Vec<(Cow<'static, str>, Json)>),
}

impl Json {
    /// An object of `members`, in that order.
    pub fn object<const N: usize>(members: [(&'static str, Json); N]) -> Json {
        Json::Object(members.into_iter().map(|(k, v)| (Cow::Borrowed(k), v)).collect())
    }

    /// Sets member `key` of an object: in its place if it is there, else last (as
    /// `serde_json`'s map does with `preserve_order`). Nothing for another value.
    pub fn insert(&mut self, key: impl Into<Cow<'static, str>>, value: Json) {
        if let Json::Object(members) = self {
            let key = key.into();
            match members.iter_mut().find(|(k, _)| *k == key) {
                Some((_, old)) => *old = value,
                None => members.push((key, value)),
            }
        }
    }

    /// `value` serialised by serde as a `Json`, its structs' fields in declaration
    /// order: what printing it with `serde_json` and parsing the text back gives, built
    /// without the text when [`crate::json_ser::to_json`] can (every container
    /// definition), else by that round trip.
    pub fn of<T: Serialize>(value: &T) -> Result<Json, serde_json::Error> {
        match crate::json_ser::to_json(value) {
            Ok(json) => Ok(json),
            Err(_) => serde_json::from_str(&serde_json::to_string(value)?),
        }
    }
}

/// `value` as `serde_json::to_string_pretty` prints it (two-space indentation,
/// `": "` after a key, `{}` and `[]` when empty, `serde_json`'s string escapes),
/// written at the end of `out` without going through serde: the 5,500 JSON Schemas of
/// a large model are most of the artefacts' text.
pub fn write_pretty(out: &mut String, value: &Json) {
    write_value(out, value, 0);
}

/// [`write_pretty`] of `value`, nested lines `depth` levels in.
fn write_value(out: &mut String, value: &Json, depth: usize) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => write_number(out, n),
        Json::String(s) => write_string(out, s),
        Json::Array(items) if items.is_empty() => out.push_str("[]"),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                line_break(out, i > 0, depth + 1);
                write_value(out, item, depth + 1);
            }
            line_break(out, false, depth);
            out.push(']');
        }
        Json::Object(members) if members.is_empty() => out.push_str("{}"),
        Json::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                line_break(out, i > 0, depth + 1);
                write_key(out, key);
                write_value(out, item, depth + 1);
            }
            line_break(out, false, depth);
            out.push('}');
        }
    }
}

/// A comma (after an item) when `comma`, a line break and the indentation of
/// `depth`: one copy from a constant when it is deep enough, where the comma, the
/// break and the spaces were three (most of a schema's text is these and its keys).
fn line_break(out: &mut String, comma: bool, depth: usize) {
    const BREAKS: &str = ",\n                                                                ";
    let from = usize::from(!comma);
    match BREAKS.get(from..2 + 2 * depth) {
        Some(text) => out.push_str(text),
        None => {
            out.push_str(&BREAKS[from..2]);
            indent(out, depth);
        }
    }
}

/// An object's key and the `": "` after it: the quoted key and the separator in
/// one copy when the key has nothing to escape (a schema's keys never do).
fn write_key(out: &mut String, key: &str) {
    if needs_escape(key.as_bytes()) {
        write_string(out, key);
        out.push_str(": ");
    } else {
        out.reserve(key.len() + 4);
        out.push('"');
        out.push_str(key);
        out.push_str("\": ");
    }
}

/// Whether `bytes` hold a byte JSON escapes (a control character, `"` or `\\`):
/// eight bytes at a time, as almost no string of a schema has one.
fn needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Whether a byte of `word` is below `n` (exact for `n` up to 0x80).
    let below = |word: u64, n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGH != 0;
    let special = |word: u64| below(word, 0x20) || below(word ^ (ONES * 0x22), 1) || below(word ^ (ONES * 0x5c), 1);
    let mut chunks = bytes.chunks_exact(8);
    let any_word = chunks
        .by_ref()
        .any(|chunk| special(u64::from_le_bytes(chunk.try_into().unwrap_or_default())));
    any_word || chunks.remainder().iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\')
}

/// Two spaces a level, as `serde_json`'s `PrettyFormatter` indents.
fn indent(out: &mut String, depth: usize) {
    const SPACES: &str = "                                ";
    let mut width = 2 * depth;
    while width > SPACES.len() {
        out.push_str(SPACES);
        width -= SPACES.len();
    }
    out.push_str(&SPACES[..width]);
}

/// A number as `serde_json` writes it: integers in decimal, a float by `serde_json`
/// itself (none in the built-in artefacts).
fn write_number(out: &mut String, n: &Number) {
    use std::fmt::Write as _;
    if let Some(u) = n.as_u64() {
        let _ = write!(out, "{u}");
    } else if let Some(i) = n.as_i64() {
        let _ = write!(out, "{i}");
    } else {
        out.push_str(&serde_json::to_string(n).unwrap_or_else(|_| "null".to_string()));
    }
}

/// A JSON string literal with `serde_json`'s escapes: `\"`, `\\`, `\b`, `\t`, `\n`,
/// `\f`, `\r`, and `\u00xx` (lower-case hex) for the other control characters. The
/// runs between escapes are copied whole.
fn write_string(out: &mut String, s: &str) {
    out.push('"');
    if !needs_escape(s.as_bytes()) {
        out.push_str(s);
        out.push('"');
        return;
    }
    let mut start = 0;
    for (i, byte) in s.bytes().enumerate() {
        let escape = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            b'\t' => "\\t",
            b'\n' => "\\n",
            0x0c => "\\f",
            b'\r' => "\\r",
            0x00..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xf)]));
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

impl From<&'static str> for Json {
    fn from(text: &'static str) -> Json {
        Json::String(Cow::Borrowed(text))
    }
}

impl From<String> for Json {
    fn from(text: String) -> Json {
        Json::String(Cow::Owned(text))
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}

impl From<u64> for Json {
    fn from(n: u64) -> Json {
        Json::Number(n.into())
    }
}

impl From<usize> for Json {
    fn from(n: usize) -> Json {
        Json::Number(n.into())
    }
}

impl From<Vec<String>> for Json {
    fn from(items: Vec<String>) -> Json {
        Json::Array(items.into_iter().map(Json::from).collect())
    }
}

/// A `serde_json::Value` as a `Json`, its objects in the order the map gives them
/// (for the `bicep` template helper, which gets `Value`s from handlebars).
impl From<&Value> for Json {
    fn from(value: &Value) -> Json {
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Number(n.clone()),
            Value::String(s) => Json::String(Cow::Owned(s.clone())),
            Value::Array(items) => Json::Array(items.iter().map(Json::from).collect()),
            Value::Object(map) => Json::Object(
                map.iter()
                    .map(|(k, v)| (Cow::Owned(k.clone()), Json::from(v)))
                    .collect(),
            ),
        }
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (k, v) in members {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// Reads any JSON value, objects in the order of the text.
struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Json, E> {
        Ok(Number::from_f64(n).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(Cow::Owned(s.to_string())))
    }

    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(Cow::Owned(s)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Json>()? {
            members.push((Cow::Owned(k), v));
        }
        Ok(Json::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`write_pretty`] prints what `serde_json::to_string_pretty` prints, escapes,
    /// empty and nested containers and numbers included.
    #[test]
    fn pretty_printing_is_serde_jsons() {
        let value = serde_json::json!({
            "plain": "text",
            "escapes": "quote \" back \\ nl \n tab \t cr \r bs \u{8} ff \u{c} nul \u{0} us \u{1f} del \u{7f} é 😀",
            "key \"quoted\"\n": [],
            "empty": {},
            "numbers": [0, 1, 18446744073709551615u64, -7, 0.25, 1e300, -0.0],
            "flags": [true, false, null],
            "nested": {"a": [{"b": [[], {}, [1, [2, {"c": "d"}]]]}], "e": {"f": {}}}
        });
        let mut out = String::new();
        write_pretty(&mut out, &Json::from(&value));
        assert_eq!(out, serde_json::to_string_pretty(&value).unwrap());
        let deep = (0..40).fold(
            serde_json::json!("bottom"),
            |inner, _| serde_json::json!({"a": [inner]}),
        );
        for scalar in [
            serde_json::json!("x"),
            serde_json::json!(3),
            serde_json::json!([]),
            serde_json::json!({}),
            deep,
        ] {
            let mut out = String::new();
            write_pretty(&mut out, &Json::from(&scalar));
            assert_eq!(out, serde_json::to_string_pretty(&scalar).unwrap());
        }
    }

    /// A line break from the constant is the comma, break and indentation written
    /// one by one, at every depth (past the constant's too).
    #[test]
    fn line_breaks_are_the_pieces_they_replace() {
        for depth in 0..60 {
            for comma in [false, true] {
                let mut out = String::from("x");
                line_break(&mut out, comma, depth);
                let mut expected = String::from(if comma { "x,\n" } else { "x\n" });
                indent(&mut expected, depth);
                assert_eq!(out, expected, "{depth} {comma}");
            }
        }
    }

    /// The word-at-a-time check finds every escaped byte, wherever it lies, and no other.
    #[test]
    fn needs_escape_finds_exactly_the_escaped_bytes() {
        for filler in [b'a', b'!', b'#', b'[', b']', 0x7f, 0x80, 0xff] {
            for byte in 0u8..=0xff {
                for at in 0..20 {
                    let mut text = vec![filler; 20];
                    text[at] = byte;
                    let expected = byte < 0x20 || byte == b'"' || byte == b'\\';
                    assert_eq!(needs_escape(&text), expected, "{byte:#x} at {at} in {filler:#x}");
                }
            }
        }
        assert!(!needs_escape("é 😀 ÿ".as_bytes()));
    }
}
