//! Loading a model file: bytes → JSON → [`ModelSpec`] → validated [`DomainModel`],
//! with every problem reported at once and located by JSON path and line:column.

mod positions;
mod serde_messages;
mod syntax;

use std::path::Path;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, JsonPath, ModelError};
use crate::model::{AccessPattern, Aggregate, Entity, ModelSpec, Pin, Relationship, ThresholdOverrides, ValueObject};
use crate::naming::closest;
use crate::DomainModel;

/// Largest model file cosmap reads (32 MiB); a real domain model is far smaller.
pub const MAX_MODEL_BYTES: u64 = 32 * 1024 * 1024;

/// The top-level fields of a model file, in schema order.
const TOP_LEVEL: &[&str] = &[
    "$schema",
    "name",
    "description",
    "entities",
    "valueObjects",
    "aggregates",
    "relationships",
    "accessPatterns",
    "thresholds",
    "pins",
];

/// Reads, parses and validates the model file at `path`.
pub fn load_file(path: &Path) -> Result<DomainModel, ModelError> {
    let io = |source| ModelError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        return Err(io(std::io::Error::other(
            "it is a directory; give the path of a model .json file",
        )));
    }
    if meta.len() > MAX_MODEL_BYTES {
        return Err(too_large(Some(meta.len()), Some(path)));
    }
    // The size on disk is only a hint (a device or a pipe says 0, a file may grow):
    // the read itself stops one byte past the limit.
    let bytes = read_at_most(path, MAX_MODEL_BYTES).map_err(io)?;
    if bytes.len() as u64 > MAX_MODEL_BYTES {
        return Err(too_large(None, Some(path)));
    }
    from_slice(&bytes, Some(path))
}

/// Reads at most `limit + 1` bytes of the file at `path`: a result longer than `limit`
/// means the file is larger than the limit, found without reading it to the end (so
/// `/dev/zero` or a growing file cannot exhaust memory).
pub fn read_at_most(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Parses and validates a model from bytes; `origin` names the file in messages.
pub fn from_slice(bytes: &[u8], origin: Option<&Path>) -> Result<DomainModel, ModelError> {
    if let Some(model) = valid_directly(bytes) {
        return Ok(model);
    }
    let (spec, text) = parse(bytes, origin)?;
    DomainModel::new(spec).map_err(|mut diagnostics| {
        add_positions(text, &mut diagnostics);
        invalid(origin, diagnostics)
    })
}

/// The fast path for a valid model: straight from the text into a [`ModelSpec`] and
/// through validation.
/// It accepts exactly what the located path below accepts (the model types deny
/// unknown fields, and serde refuses a field written twice), and on any problem gives
/// way to that path, which finds every problem and where it is.
fn valid_directly(bytes: &[u8]) -> Option<DomainModel> {
    if bytes.len() as u64 > MAX_MODEL_BYTES {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let spec: ModelSpec = serde_json::from_str(text).ok()?;
    // A value object's `identity` is free JSON, where a repeated key goes unnoticed by
    // serde; any identity makes the model invalid anyway, so the located path reports it.
    if spec.value_objects.iter().any(|v| v.identity.is_some()) {
        return None;
    }
    DomainModel::new(spec).ok()
}

fn invalid(origin: Option<&Path>, diagnostics: Vec<Diagnostic>) -> ModelError {
    ModelError::Invalid {
        origin: origin.map(Path::to_path_buf),
        diagnostics,
    }
}

/// A model over [`MAX_MODEL_BYTES`]; `len` is its size when known (a device or a
/// pipe is only known to be longer than the limit).
fn too_large(len: Option<u64>, origin: Option<&Path>) -> ModelError {
    let size = match len {
        Some(len) => format!("{:.1} MiB", len as f64 / 1048576.0),
        None => format!("more than {} MiB", MAX_MODEL_BYTES / 1048576),
    };
    invalid(
        origin,
        vec![Diagnostic::new(
            JsonPath::root(),
            format!(
                "the file is {size}; cosmap reads model files of at most {} MiB",
                MAX_MODEL_BYTES / 1048576
            ),
        )
        .help("a domain model is a few hundred KiB at most: check that this is the right file")],
    )
}

fn parse<'a>(bytes: &'a [u8], origin: Option<&Path>) -> Result<(ModelSpec, &'a str), ModelError> {
    if bytes.len() as u64 > MAX_MODEL_BYTES {
        return Err(too_large(Some(bytes.len() as u64), origin));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let valid = &bytes[..e.valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let col = String::from_utf8_lossy(&valid[line_start..]).chars().count() + 1;
        let mut d = Diagnostic::new(
            JsonPath::root(),
            format!("the file is not valid UTF-8 (byte {} is not)", e.valid_up_to()),
        )
        .help("save the model as UTF-8");
        d.position = Some((line, col));
        invalid(origin, vec![d])
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(invalid(
            origin,
            vec![Diagnostic::new(JsonPath::root(), "the file is empty").help(
                "a model is a JSON object with at least `name`, `entities` and `aggregates`; run `cosmap schema` for the format",
            )],
        ));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| invalid(origin, vec![syntax::diagnostic(text, &e)]))?;
    let mut diagnostics: Vec<Diagnostic> = positions::duplicate_keys(text).into_iter().map(duplicate).collect();
    let spec = shape(value, &mut diagnostics);
    match spec {
        Some(spec) if diagnostics.is_empty() => Ok((spec, text)),
        _ => {
            add_positions(text, &mut diagnostics);
            Err(invalid(origin, diagnostics))
        }
    }
}

/// A key written twice in one object: JSON parsers keep only one of the values.
fn duplicate(key: positions::DuplicateKey) -> Diagnostic {
    let name = match key.path.0.last() {
        Some(crate::diagnostic::PathSegment::Key(k)) => k.clone(),
        _ => String::new(),
    };
    let (line, col) = key.first;
    let mut d = Diagnostic::new(
        key.path,
        format!("`{name}` is written twice in the same object (first at {line}:{col})"),
    )
    .help("only the last value would count and the first would be silently lost: merge the two or remove one");
    d.position = Some(key.again);
    d
}

/// Turns the parsed JSON into a [`ModelSpec`], one element at a time so that every
/// malformed element is reported, not just the first.
fn shape(value: Value, diagnostics: &mut Vec<Diagnostic>) -> Option<ModelSpec> {
    let root = JsonPath::root();
    let Value::Object(mut object) = value else {
        diagnostics.push(
            Diagnostic::new(
                root,
                format!("the model must be a JSON object, found {}", kind_of(&value)),
            )
            .help("wrap the model in `{ ... }`; run `cosmap schema` for the format"),
        );
        return None;
    };
    let keys: Vec<String> = object.keys().cloned().collect();
    for key in keys.iter().filter(|k| !TOP_LEVEL.contains(&k.as_str())) {
        let mut d = Diagnostic::new(root.key(key.clone()), format!("unknown field `{key}` in the model"));
        d.help = Some(match closest(key, TOP_LEVEL.iter().copied()) {
            Some(near) => format!("did you mean `{near}`?"),
            None => format!("the model's fields are {}", list(TOP_LEVEL)),
        });
        diagnostics.push(d);
    }
    let name = match object.remove("name") {
        Some(v) => one::<String>(v, &root.key("name"), "model", diagnostics),
        None => {
            diagnostics.push(
                Diagnostic::new(root.clone(), "the model has no `name`")
                    .help("add `\"name\": \"MyDomain\"` at the top level"),
            );
            None
        }
    };
    let schema = object
        .remove("$schema")
        .and_then(|v| one::<String>(v, &root.key("$schema"), "model", diagnostics));
    let description = object
        .remove("description")
        .and_then(|v| one::<String>(v, &root.key("description"), "model", diagnostics));
    let thresholds = object
        .remove("thresholds")
        .and_then(|v| one::<ThresholdOverrides>(v, &root.key("thresholds"), "thresholds", diagnostics));
    let entities = list_of::<Entity>(&mut object, "entities", "entity", diagnostics);
    let value_objects = list_of::<ValueObject>(&mut object, "valueObjects", "value object", diagnostics);
    let aggregates = list_of::<Aggregate>(&mut object, "aggregates", "aggregate", diagnostics);
    let relationships = list_of::<Relationship>(&mut object, "relationships", "relationship", diagnostics);
    let access_patterns = list_of::<AccessPattern>(&mut object, "accessPatterns", "access pattern", diagnostics);
    let pins = list_of::<Pin>(&mut object, "pins", "pin", diagnostics);
    Some(ModelSpec {
        schema,
        name: name?,
        description,
        entities,
        value_objects,
        aggregates,
        relationships,
        access_patterns,
        thresholds,
        pins,
    })
}

fn list_of<T: DeserializeOwned>(
    object: &mut Map<String, Value>,
    key: &str,
    what: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<T> {
    let path = JsonPath::root().key(key);
    match object.remove(key) {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .filter_map(|(i, item)| one::<T>(item, &path.index(i), what, diagnostics))
            .collect(),
        Some(other) => {
            diagnostics.push(
                Diagnostic::new(path, format!("`{key}` must be an array, found {}", kind_of(&other)))
                    .help(format!("write `\"{key}\": [ ... ]` with one object per {what}")),
            );
            Vec::new()
        }
    }
}

/// Most unknown fields reported per element; past that the element is clearly not
/// a model element at all, and retrying would only cost time.
const MAX_UNKNOWN_FIELDS: usize = 64;

/// Deserializes one element; on failure reports why. Unknown fields are all reported,
/// not just the first serde meets: each is removed and the element tried again.
fn one<T: DeserializeOwned>(
    mut value: Value,
    at: &JsonPath,
    what: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<T> {
    let mut reported = 0;
    loop {
        let e = match serde_path_to_error::deserialize::<_, T>(&value) {
            Ok(v) if reported == 0 => return Some(v),
            Ok(_) => return None,
            Err(e) => e,
        };
        let segments: Vec<serde_path_to_error::Segment> = e.path().iter().cloned().collect();
        let mut path = at.clone();
        for segment in &segments {
            path = match segment {
                serde_path_to_error::Segment::Seq { index } => path.index(*index),
                serde_path_to_error::Segment::Map { key } => path.key(key.clone()),
                serde_path_to_error::Segment::Enum { .. } | serde_path_to_error::Segment::Unknown => path,
            };
        }
        let message = e.into_inner().to_string();
        // Once an unknown field is reported, only more unknown fields are: a field
        // "missing" after the removal is most often the misspelled one itself.
        if reported > 0 && !message.starts_with("unknown field ") {
            return None;
        }
        diagnostics.push(serde_messages::explain(path, &message, what));
        reported += 1;
        if reported >= MAX_UNKNOWN_FIELDS || !remove_unknown(&mut value, &segments, &message) {
            return None;
        }
    }
}

/// Removes the field serde's `message` calls unknown from the object at `segments`
/// (serde's path ends at that object or at the field itself). False when there was
/// nothing to remove, so the caller stops.
fn remove_unknown(value: &mut Value, segments: &[serde_path_to_error::Segment], message: &str) -> bool {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return false;
    };
    let Some(field) = rest.split('`').next() else {
        return false;
    };
    let object_segments = match segments.split_last() {
        Some((serde_path_to_error::Segment::Map { key }, parent)) if key == field => parent,
        _ => segments,
    };
    let mut current = value;
    for segment in object_segments {
        current = match (segment, current) {
            (serde_path_to_error::Segment::Seq { index }, Value::Array(items)) => match items.get_mut(*index) {
                Some(item) => item,
                None => return false,
            },
            (serde_path_to_error::Segment::Map { key }, Value::Object(map)) => match map.get_mut(key) {
                Some(item) => item,
                None => return false,
            },
            (serde_path_to_error::Segment::Enum { .. } | serde_path_to_error::Segment::Unknown, other) => other,
            _ => return false,
        };
    }
    match current {
        Value::Object(map) => map.remove(field).is_some(),
        _ => false,
    }
}

fn add_positions(text: &str, diagnostics: &mut [Diagnostic]) {
    let prefixes = |d: &Diagnostic| {
        (0..=d.path.0.len())
            .map(|n| JsonPath(d.path.0[..n].to_vec()))
            .collect::<Vec<_>>()
    };
    let wanted: Vec<JsonPath> = diagnostics
        .iter()
        .filter(|d| d.position.is_none())
        .flat_map(prefixes)
        .collect();
    if !wanted.is_empty() {
        let found = positions::locate(text, &wanted.iter().collect::<Vec<_>>());
        // The place itself, or the nearest enclosing place that exists in the text.
        for d in diagnostics.iter_mut().filter(|d| d.position.is_none()) {
            d.position = prefixes(d).iter().rev().find_map(|p| found.get(p).copied());
        }
    }
    diagnostics.sort_by(|a, b| a.position.cmp(&b.position).then_with(|| a.path.cmp(&b.path)));
}

/// What kind of JSON value `value` is, as a message says it (`a string`).
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub(crate) fn list(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn examples() -> Vec<(std::path::PathBuf, Vec<u8>)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
        let mut found = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("the examples directory") {
            let path = entry.expect("an entry").path().join("model.json");
            if let Ok(bytes) = std::fs::read(&path) {
                found.push((path, bytes));
            }
        }
        assert!(found.len() >= 3, "examples found: {found:?}");
        found
    }

    #[test]
    fn the_fast_path_gives_the_model_the_located_path_gives() {
        for (path, bytes) in examples() {
            let fast = valid_directly(&bytes).unwrap_or_else(|| panic!("{} takes the fast path", path.display()));
            let (spec, _) = parse(&bytes, None).expect("parses");
            assert_eq!(fast.spec(), &spec, "{}", path.display());
        }
    }

    #[test]
    fn the_fast_path_gives_way_on_anything_the_located_path_reports() {
        let (_, bytes) = &examples()[0];
        let text = String::from_utf8(bytes.clone()).expect("UTF-8");
        let repeated = text.replacen("\"name\":", "\"name\": \"First\", \"name\":", 1);
        let unknown = text.replacen("\"name\":", "\"nmae\": 1, \"name\":", 1);
        for bad in [repeated, unknown] {
            assert!(valid_directly(bad.as_bytes()).is_none());
            assert!(matches!(
                from_slice(bad.as_bytes(), None),
                Err(ModelError::Invalid { .. })
            ));
        }
    }
}
