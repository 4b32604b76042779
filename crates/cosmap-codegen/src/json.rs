//! [`Json`]: a JSON value whose objects keep their keys in the order they were
//! written, whatever `serde_json` is built with. The Bicep resources are built as
//! it, and the JSON Schemas are written by [`Object`] and [`Members`] in the order
//! they are made, so their text does not depend on `serde_json`'s
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

/// An object written member by member as [`write_value`] prints it, straight into
/// the text: a JSON Schema is written as it is made, not built as a [`Json`] tree and
/// then printed (5,500 schemas on a large model).
pub struct Object<'o> {
    out: &'o mut String,
    /// How many levels in the object's own line is.
    depth: usize,
    /// Whether a member was written (the next one follows a comma).
    any: bool,
}

impl<'o> Object<'o> {
    /// Opens an object at the end of `out`, its own line `depth` levels in.
    pub fn open(out: &'o mut String, depth: usize) -> Self {
        out.push('{');
        Object { out, depth, any: false }
    }

    /// Starts member `key`: the text to write its value in, at [`Object::inner`].
    pub fn key(&mut self, key: &str) -> &mut String {
        line_break(self.out, self.any, self.depth + 1);
        self.any = true;
        write_key(self.out, key);
        self.out
    }

    /// The depth of the members' lines, where their values are written.
    pub fn inner(&self) -> usize {
        self.depth + 1
    }

    /// Member `key`, a string.
    pub fn string(&mut self, key: &str, value: &str) -> &mut Self {
        write_string(self.key(key), value);
        self
    }

    /// Member `key`, a string of `parts` one after the other.
    pub fn string_of(&mut self, key: &str, parts: &[&str]) -> &mut Self {
        write_string_of(self.key(key), parts);
        self
    }

    /// Member `key`, a number.
    pub fn number(&mut self, key: &str, value: u64) -> &mut Self {
        write_u64(self.key(key), value);
        self
    }

    /// Member `key`, a boolean.
    pub fn bool(&mut self, key: &str, value: bool) -> &mut Self {
        self.key(key).push_str(if value { "true" } else { "false" });
        self
    }

    /// Member `key`, an array of strings.
    pub fn strings(&mut self, key: &str, items: &[&str]) -> &mut Self {
        let depth = self.inner();
        let out = self.key(key);
        if items.is_empty() {
            out.push_str("[]");
            return self;
        }
        out.push('[');
        for (i, item) in items.iter().enumerate() {
            line_break(out, i > 0, depth + 1);
            write_string(out, item);
        }
        line_break(out, false, depth);
        out.push(']');
        self
    }

    /// Member `key`, any value.
    pub fn value(&mut self, key: &str, value: &Json) -> &mut Self {
        let depth = self.inner();
        write_value(self.key(key), value, depth);
        self
    }

    /// Member `key`, an object: written through the one returned, closed by it.
    pub fn object(&mut self, key: &str) -> Object<'_> {
        let depth = self.inner();
        Object::open(self.key(key), depth)
    }

    /// Closes the object: `}` on a line of its own, or `{}` when it has no member.
    pub fn close(self) {
        if self.any {
            line_break(self.out, false, self.depth);
        }
        self.out.push('}');
    }
}

/// An object's members written apart, each value in its own stretch of a text of
/// values (shared by the objects of a document, so that nested ones can be written
/// while this one is), a later member of a key taking the earlier one's value in its
/// place (as an object of `serde_json` with `preserve_order` does); printed by
/// [`Members::write`]. For a schema's `properties`, whose names come from the model
/// and so may meet.
pub struct Members<'k> {
    /// How many levels in the object's own line is.
    depth: usize,
    /// One bit per key length (modulo 64) among the members: a key whose bit is
    /// clear is new without being compared with every other.
    lengths: u64,
    /// Each key and where its value lies in the text of values, in order.
    members: Vec<(&'k str, std::ops::Range<usize>)>,
}

impl<'k> Members<'k> {
    /// No members yet, of an object whose own line is `depth` levels in; room for
    /// `count` of them.
    pub fn new(depth: usize, count: usize) -> Self {
        Members {
            depth,
            lengths: 0,
            members: Vec::with_capacity(count),
        }
    }

    /// Sets member `key` to the value `write` writes at the end of `values` (the
    /// text it is given), at the depth it is given: in the earlier member's place if
    /// `key` is there, else last. A replaced value stays in `values`, unused.
    pub fn insert(&mut self, values: &mut String, key: &'k str, write: impl FnOnce(&mut String, usize)) {
        let start = values.len();
        write(values, self.depth + 1);
        let value = start..values.len();
        let length = 1u64 << (key.len() % 64);
        let earlier = if self.lengths & length == 0 {
            None
        } else {
            self.members.iter_mut().find(|(k, _)| *k == key)
        };
        match earlier {
            Some((_, old)) => *old = value,
            None => self.members.push((key, value)),
        }
        self.lengths |= length;
    }

    /// Writes the object at the end of `out`, its values taken from `values`.
    pub fn write(&self, values: &str, out: &mut String) {
        if self.members.is_empty() {
            out.push_str("{}");
            return;
        }
        out.push('{');
        for (i, (key, value)) in self.members.iter().enumerate() {
            line_break(out, i > 0, self.depth + 1);
            write_key(out, key);
            out.push_str(&values[value.clone()]);
        }
        line_break(out, false, self.depth);
        out.push('}');
    }
}

/// `value` as `serde_json::to_string_pretty` prints it (two-space indentation,
/// `": "` after a key, `{}` and `[]` when empty, `serde_json`'s string escapes),
/// nested lines `depth` levels in, written at the end of `out` without going through
/// serde.
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
/// eight bytes at a time, as almost no string of a schema has one. The bytes after
/// the last whole eight are checked as the last eight bytes (some of them checked
/// twice), not one by one; a string shorter than eight (most keys: `type`,
/// `items`) is looked up byte by byte in [`ESCAPED`].
fn needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Whether a byte of `word` is below `n` (exact for `n` up to 0x80).
    let below = |word: u64, n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGH != 0;
    let special = |chunk: &[u8]| {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        below(word, 0x20) || below(word ^ (ONES * 0x22), 1) || below(word ^ (ONES * 0x5c), 1)
    };
    match bytes.len() {
        0..8 => bytes.iter().any(|&b| ESCAPED[usize::from(b)]),
        n => bytes.chunks_exact(8).any(special) || (n % 8 != 0 && special(&bytes[n - 8..])),
    }
}

/// Which bytes JSON escapes: the control characters, `"` and `\\`.
static ESCAPED: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

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
        write_u64(out, u);
    } else if let Some(i) = n.as_i64() {
        let _ = write!(out, "{i}");
    } else {
        out.push_str(&serde_json::to_string(n).unwrap_or_else(|_| "null".to_string()));
    }
}

/// An unsigned integer in decimal.
fn write_u64(out: &mut String, n: u64) {
    use std::fmt::Write as _;
    let _ = write!(out, "{n}");
}

/// A JSON string literal of `parts` one after the other, as [`write_string`] writes
/// their concatenation (escapes are of single bytes, so each part escapes alone).
fn write_string_of(out: &mut String, parts: &[&str]) {
    out.push('"');
    for part in parts {
        escape(out, part);
    }
    out.push('"');
}

/// A JSON string literal with `serde_json`'s escapes: `\"`, `\\`, `\b`, `\t`, `\n`,
/// `\f`, `\r`, and `\u00xx` (lower-case hex) for the other control characters. The
/// runs between escapes are copied whole.
fn write_string(out: &mut String, s: &str) {
    out.push('"');
    escape(out, s);
    out.push('"');
}

/// `s` with [`write_string`]'s escapes, without the quotes: copied whole when it
/// has nothing to escape.
fn escape(out: &mut String, s: &str) {
    if !needs_escape(s.as_bytes()) {
        out.push_str(s);
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

    /// [`write_value`] prints what `serde_json::to_string_pretty` prints, escapes,
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
        write_value(&mut out, &Json::from(&value), 0);
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
            write_value(&mut out, &Json::from(&scalar), 0);
            assert_eq!(out, serde_json::to_string_pretty(&scalar).unwrap());
        }
    }

    /// [`Object`] and [`Members`] write what `serde_json` pretty-prints (with
    /// `preserve_order`: a later member of a key takes the earlier one's place).
    #[test]
    fn objects_written_member_by_member_are_serde_jsons() {
        let mut values = String::new();
        let mut properties = Members::new(1, 0);
        properties.insert(&mut values, "b", |out, _| write_string(out, "first"));
        // Same length as `b`'s, compared and told apart.
        properties.insert(&mut values, "c", |out, _| write_string(out, "third"));
        properties.insert(&mut values, "a\"", |out, depth| {
            let mut o = Object::open(out, depth);
            o.number("n", 7)
                .bool("t", true)
                .strings("none", &[])
                .strings("two", &["x", "y\n"]);
            o.object("empty").close();
            o.close();
        });
        properties.insert(&mut values, "b", |out, depth| {
            let mut o = Object::open(out, depth);
            o.string_of("joined", &["a\\", "b"]).value("v", &Json::Null);
            o.close();
        });
        let mut out = String::new();
        let mut top = Object::open(&mut out, 0);
        properties.write(&values, top.key("properties"));
        Members::new(1, 0).write(&values, top.key("none"));
        top.close();
        let expected = r#"{
  "properties": {
    "b": {
      "joined": "a\\b",
      "v": null
    },
    "c": "third",
    "a\"": {
      "n": 7,
      "t": true,
      "none": [],
      "two": [
        "x",
        "y\n"
      ],
      "empty": {}
    }
  },
  "none": {}
}"#;
        assert_eq!(out, expected);
        let parsed: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        assert_eq!(serde_json::to_string_pretty(&parsed).unwrap().len(), out.len());
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
                // Every length up to past two words: short strings, whole words, and
                // a tail checked as the last word.
                for len in 1..20 {
                    for at in 0..len {
                        let mut text = vec![filler; len];
                        text[at] = byte;
                        let expected = byte < 0x20 || byte == b'"' || byte == b'\\';
                        assert_eq!(
                            needs_escape(&text),
                            expected,
                            "{byte:#x} at {at} of {len} in {filler:#x}"
                        );
                    }
                }
            }
            assert!(!needs_escape(&[filler; 0]));
        }
        assert!(!needs_escape("é 😀 ÿ".as_bytes()));
    }
}
