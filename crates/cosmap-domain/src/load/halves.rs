//! A large model's text parsed on two threads: it is cut at a comma between two
//! top-level fields, each part is closed into an object of its own
//! (`text[..comma] + "}"` and `"{" + text[comma + 1..]`), and the two objects are
//! parsed beside each other and their fields joined.
//!
//! The result is the one pass's: when both parts parse as objects with at least one
//! field each, the whole text is one object whose fields are the first part's then
//! the second's (JSON has no context a prefix could change), so each field's value is
//! the text the one pass reads. A field written in both parts, a missing `name` or an
//! unknown field gives `None`, as does any part that does not parse (a cut in the
//! wrong place, or a bad model): the caller then parses the whole text in one pass.

use serde::de::{self, DeserializeOwned, MapAccess, Visitor};
use serde::Deserializer;

use crate::model::ModelSpec;

/// From this many bytes a model is parsed in two halves: below it a thread costs
/// more than it saves.
const PARALLEL_FROM: usize = 256 * 1024;

/// The model of `text` parsed on two threads, or `None` (see the module's doc).
pub(super) fn parse(text: &str) -> Option<ModelSpec> {
    if text.len() < PARALLEL_FROM {
        return None;
    }
    parse_cut_at(text, cut(text)?)
}

/// The model of `text` cut at `comma` and parsed on two threads, or `None`. The first
/// part is read in place (see [`first_part`]); the second part's copy, closed into an
/// object, is made on its own thread.
fn parse_cut_at(text: &str, comma: usize) -> Option<ModelSpec> {
    let (first, second) = std::thread::scope(|scope| {
        let second = scope.spawn(|| serde_json::from_str::<Fields>(&format!("{{{}", &text[comma + 1..])).ok());
        let first = first_part(&text[..comma]);
        (
            first,
            second.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        )
    });
    first?.join(second?)
}

/// The fields of `part`, a text's start up to (not including) a comma, read as
/// `part + "}"` would be read, without that copy: `part` must end where a key or the
/// closing brace would come, so reading it ends in serde_json's "EOF while parsing an
/// object", raised where the next key is looked for. `None` on any other outcome
/// (where `part + "}"` fails to parse too: a value cut short, a trailing comma, a
/// closing brace before the end).
fn first_part(part: &str) -> Option<Fields> {
    use serde::Deserializer as _;
    let mut fields = Fields::default();
    let mut deserializer = serde_json::Deserializer::from_str(part);
    match (&mut deserializer).deserialize_map(FieldsVisitor { fields: &mut fields }) {
        Err(e) if fields.ended_at_key && is_eof_in_object(&e) => Some(fields),
        _ => None,
    }
}

/// True for serde_json's error for a text that ends inside an object, where a key, a
/// comma or the closing brace would come.
fn is_eof_in_object(e: &serde_json::Error) -> bool {
    e.classify() == serde_json::error::Category::Eof && e.to_string().starts_with("EOF while parsing an object")
}

/// The comma before the top-level field nearest the middle of `text`, when the text
/// is laid out as `serde_json` and most editors print it: each top-level field on a
/// line of its own, indented as the first field is. `None` when there is none; a comma
/// found here that is not between top-level fields makes a part fail to parse.
fn cut(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let open = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    if bytes[open] != b'{' {
        return None;
    }
    // "\n", then the first field's indentation: how every top-level field's line starts.
    let fields = &text[open + 1..];
    let first_field = fields.find('"')?;
    let line = fields[..first_field].rfind('\n')?;
    let marker = format!("{}\"", &fields[line..first_field]);
    let middle = floor_boundary(text, bytes.len() / 2);
    let field = nearest(text, &marker, middle)?;
    // The field's line must follow a comma (and whitespace).
    let comma = bytes[..field].iter().rposition(|b| !b.is_ascii_whitespace())?;
    (bytes[comma] == b',').then_some(comma)
}

/// The start of the `marker` nearest `middle`: the last one ending at or before it or
/// the first one starting at or after it, whichever is closer (the later on a tie).
/// `marker` starts with a newline; the search goes from newline to newline
/// (`memchr`), several times faster than a general substring search.
fn nearest(text: &str, marker: &str, middle: usize) -> Option<usize> {
    let (bytes, marker) = (text.as_bytes(), marker.as_bytes());
    let after = memchr::memchr_iter(b'\n', &bytes[middle..])
        .map(|i| middle + i)
        .find(|&i| bytes[i..].starts_with(marker));
    let to = (middle + 1).saturating_sub(marker.len());
    let before = memchr::memrchr_iter(b'\n', &bytes[..to]).find(|&i| bytes[i..].starts_with(marker));
    closer(before, after, middle)
}

/// Of the marker `before` and the marker `after` the middle, the closer one (the one
/// after on a tie).
fn closer(before: Option<usize>, after: Option<usize>, middle: usize) -> Option<usize> {
    match (before, after) {
        (Some(b), Some(a)) if middle - b < a - middle => Some(b),
        (_, Some(a)) => Some(a),
        (b, None) => b,
    }
}

/// The largest character boundary of `text` at or before `at`.
fn floor_boundary(text: &str, at: usize) -> usize {
    (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0)
}

/// The top-level fields of one part of a model's text, each `None` when the part does
/// not hold it. Each field is read as [`ModelSpec`]'s own deserialisation reads it.
#[derive(Default)]
struct Fields {
    /// How many fields the part holds.
    count: usize,
    /// Set when reading stopped on an error where the next key was looked for.
    ended_at_key: bool,
    schema: Option<Option<String>>,
    name: Option<String>,
    description: Option<Option<String>>,
    entities: Option<Vec<crate::model::Entity>>,
    value_objects: Option<Vec<crate::model::ValueObject>>,
    aggregates: Option<Vec<crate::model::Aggregate>>,
    relationships: Option<Vec<crate::model::Relationship>>,
    access_patterns: Option<Vec<crate::model::AccessPattern>>,
    thresholds: Option<Option<crate::model::ThresholdOverrides>>,
    pins: Option<Vec<crate::model::Pin>>,
}

impl Fields {
    /// The model of two parts, the first's fields before the second's; `None` when a
    /// part is empty, a field is in both, or `name` is in neither.
    fn join(self, second: Fields) -> Option<ModelSpec> {
        if self.count == 0 || second.count == 0 {
            return None;
        }
        Some(ModelSpec {
            schema: either(self.schema, second.schema)?.flatten(),
            name: either(self.name, second.name)??,
            description: either(self.description, second.description)?.flatten(),
            entities: either(self.entities, second.entities)?.unwrap_or_default(),
            value_objects: either(self.value_objects, second.value_objects)?.unwrap_or_default(),
            aggregates: either(self.aggregates, second.aggregates)?.unwrap_or_default(),
            relationships: either(self.relationships, second.relationships)?.unwrap_or_default(),
            access_patterns: either(self.access_patterns, second.access_patterns)?.unwrap_or_default(),
            thresholds: either(self.thresholds, second.thresholds)?.flatten(),
            pins: either(self.pins, second.pins)?.unwrap_or_default(),
        })
    }
}

/// The field of whichever part holds it (`Some(None)` when neither does); `None` when
/// both do: the whole text writes it twice.
fn either<T>(first: Option<T>, second: Option<T>) -> Option<Option<T>> {
    match (first, second) {
        (Some(_), Some(_)) => None,
        (a, b) => Some(a.or(b)),
    }
}

impl<'de> serde::Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut fields = Fields::default();
        deserializer.deserialize_map(FieldsVisitor { fields: &mut fields })?;
        Ok(fields)
    }
}

/// Reads a part's fields into `fields`, which keeps them when reading ends in an
/// error (the first part's end, see [`first_part`]).
struct FieldsVisitor<'f> {
    fields: &'f mut Fields,
}

impl<'de> Visitor<'de> for FieldsVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a part of a model object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let fields = self.fields;
        loop {
            let key = match map.next_key::<String>() {
                Ok(Some(key)) => key,
                Ok(None) => return Ok(()),
                Err(e) => {
                    fields.ended_at_key = true;
                    return Err(e);
                }
            };
            match key.as_str() {
                "$schema" => once(&mut fields.schema, &mut map)?,
                "name" => once(&mut fields.name, &mut map)?,
                "description" => once(&mut fields.description, &mut map)?,
                "entities" => once(&mut fields.entities, &mut map)?,
                "valueObjects" => once(&mut fields.value_objects, &mut map)?,
                "aggregates" => once(&mut fields.aggregates, &mut map)?,
                "relationships" => once(&mut fields.relationships, &mut map)?,
                "accessPatterns" => once(&mut fields.access_patterns, &mut map)?,
                "thresholds" => once(&mut fields.thresholds, &mut map)?,
                "pins" => once(&mut fields.pins, &mut map)?,
                _ => return Err(de::Error::custom("not a field of the model")),
            }
            fields.count += 1;
        }
    }
}

/// Reads the next value into `slot`; an error when the part already set it.
fn once<'de, T: DeserializeOwned, A: MapAccess<'de>>(slot: &mut Option<T>, map: &mut A) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::custom("a field written twice"));
    }
    *slot = Some(map.next_value::<T>()?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example models' texts.
    fn examples() -> Vec<String> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
        let mut found = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("the examples directory") {
            if let Ok(text) = std::fs::read_to_string(entry.expect("an entry").path().join("model.json")) {
                found.push(text);
            }
        }
        assert!(found.len() >= 3);
        found
    }

    #[test]
    fn the_cut_near_the_middle_gives_the_one_pass_model() {
        for text in examples() {
            let whole: ModelSpec = serde_json::from_str(&text).expect("parses");
            let comma = cut(&text).expect("a top-level field near the middle");
            assert_eq!(parse_cut_at(&text, comma), Some(whole));
        }
    }

    #[test]
    fn every_cut_gives_the_one_pass_model_or_none() {
        for text in examples() {
            let whole: ModelSpec = serde_json::from_str(&text).expect("parses");
            let mut cuts = 0;
            for (comma, _) in text.match_indices(',') {
                if let Some(spec) = parse_cut_at(&text, comma) {
                    assert_eq!(spec, whole);
                    cuts += 1;
                }
            }
            assert!(cuts >= 2, "{cuts} cuts between top-level fields");
        }
    }

    /// What `part + "}"` parses to, as a comparable summary (its field count).
    fn closed(part: &str) -> Option<usize> {
        serde_json::from_str::<Fields>(&format!("{part}}}"))
            .ok()
            .map(|f| f.count)
    }

    #[test]
    fn the_first_part_read_in_place_is_the_part_closed() {
        let mut parts: Vec<String> = [
            r#"{"name": "M""#,
            r#"{"name": "M","#,
            r#"{"name": "M",  "#,
            r#"{"name": "M"}"#,
            r#"{"name": "M"} "#,
            r#"{"name": "M", "descr"#,
            r#"{"name": "M", "description""#,
            r#"{"name": "M", "description": "#,
            r#"{"name": "M", "entities": [1"#,
            r#"{"name": "M", "entities": ["#,
            r#"{"name": 12"#,
            r#"{"name" "M""#,
            r#"{"nmae": "M""#,
            "{",
            " { ",
            "",
            "[",
            r#"{"name": "M" "#,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for text in examples() {
            parts.extend(text.match_indices(',').map(|(comma, _)| text[..comma].to_string()));
        }
        for part in &parts {
            assert_eq!(first_part(part).map(|f| f.count), closed(part), "{part:?}");
        }
    }

    #[test]
    fn the_nearest_marker_is_the_one_a_whole_search_finds() {
        let whole = |text: &str, marker: &str, middle: usize| {
            let after = text[middle..].find(marker).map(|i| middle + i);
            closer(text[..middle].rfind(marker), after, middle)
        };
        let mut texts = examples();
        let spaced = format!(
            "{}\n  \"x\"{}\n  \"é\"{}",
            "a".repeat(40_000),
            "b".repeat(70_000),
            "c".repeat(5)
        );
        texts.push(spaced);
        texts.push("no marker at all, é".repeat(3000));
        for text in &texts {
            let step = (text.len() / 400).max(1);
            for middle in (0..=text.len()).step_by(step).filter(|&m| text.is_char_boundary(m)) {
                for marker in ["\n  \"", "\n\"", "\n    \""] {
                    assert_eq!(
                        nearest(text, marker, middle),
                        whole(text, marker, middle),
                        "at {middle}"
                    );
                }
            }
        }
    }

    #[test]
    fn what_the_one_pass_refuses_the_halves_refuse() {
        let join = |a: &str, b: &str| {
            let a = serde_json::from_str::<Fields>(a).ok()?;
            let b = serde_json::from_str::<Fields>(b).ok()?;
            a.join(b)
        };
        let name = r#"{"name": "M"}"#;
        assert!(join(name, r#"{"name": "N"}"#).is_none(), "a field in both parts");
        assert!(join(name, "{}").is_none(), "an empty part (a trailing comma)");
        assert!(join(name, r#"{"entities": null}"#).is_none(), "null for a list");
        assert!(join(name, r#"{"nmae": 1}"#).is_none(), "an unknown field");
        assert!(
            join(r#"{"entities": []}"#, r#"{"aggregates": []}"#).is_none(),
            "no name"
        );
        assert!(join(name, r#"{"description": null}"#).is_some());
    }
}
