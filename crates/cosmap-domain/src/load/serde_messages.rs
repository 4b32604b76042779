//! Rewrites serde's error messages into cosmap's: plain words, the exact place,
//! and a "did you mean" for misspelled fields and values.

use crate::diagnostic::{Diagnostic, JsonPath, PathSegment};
use crate::naming::closest;

/// A diagnostic for serde's `message` about the value at `path` inside a `what`
/// (the kind of top-level element: entity, relationship, …).
pub(crate) fn explain(path: JsonPath, message: &str, what: &str) -> Diagnostic {
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let (field, valid) = split_candidates(rest);
        let help = hint(&field, &valid, "fields");
        // serde_path_to_error's path usually ends at the unknown key already.
        let (object, path) = match path.0.split_last() {
            Some((PathSegment::Key(last), object)) if *last == field => (JsonPath(object.to_vec()), path),
            _ => (path.clone(), path.key(field.clone())),
        };
        return Diagnostic::new(
            path,
            format!("unknown field `{field}` in {}", article(object_kind(&object, what))),
        )
        .help(help);
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let (value, valid) = split_candidates(rest);
        let help = hint(&value, &valid, "values");
        return Diagnostic::new(path, format!("unknown value `{value}`")).help(help);
    }
    if let Some(rest) = message.strip_prefix("missing field ") {
        let field = rest.trim_matches('`');
        let kind = article(object_kind(&path, what));
        return Diagnostic::new(path, format!("{kind} has no `{field}`"))
            .help(format!("add the `{field}` field; run `cosmap schema` for the format"));
    }
    let help = type_hint(message).unwrap_or_else(|| "run `cosmap schema` for the type every field takes".to_string());
    let plain = message
        .replace("expected f64", "expected a number")
        .replace("expected u64", "expected a whole number, 0 or more")
        .replace("expected i64", "expected a whole number")
        .replace("expected a boolean", "expected `true` or `false`")
        .replace("a sequence", "an array")
        .replace("struct ", "an object: ")
        .replace("invalid type: ", "wrong type: found ")
        .replace("invalid value: ", "invalid value: found ");
    Diagnostic::new(path, plain).help(help)
}

/// The kind of object at `path`: the nested objects have their own names,
/// everything else is the top-level element `what`.
fn object_kind<'a>(path: &JsonPath, what: &'a str) -> &'a str {
    let last_key = path.0.iter().rev().find_map(|s| match s {
        PathSegment::Key(k) => Some(k.as_str()),
        PathSegment::Index(_) => None,
    });
    match last_key {
        Some("attributes") => "attribute",
        Some("volume") => "volume",
        _ => what,
    }
}

/// A precise fix for a value of the right kind written in the wrong form, such
/// as a number or boolean in quotes.
fn type_hint(message: &str) -> Option<String> {
    let (found, expected) = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))?
        .rsplit_once(", expected ")?;
    if found == "null" {
        return Some("remove the `null` (leave out a field that has no value) or give a value".to_string());
    }
    if expected == "u64" {
        return Some("give a whole number without sign or decimal point, for example `10`".to_string());
    }
    if expected == "a string" && (found.starts_with("integer") || found.starts_with("floating point")) {
        return Some("give text in double quotes".to_string());
    }
    let text = found.strip_prefix("string ")?.strip_prefix('"')?.strip_suffix('"')?;
    let number = matches!(expected, "f64" | "u64" | "i64");
    if number && ["nan", "inf", "infinity", "-inf", "-infinity"].contains(&text.to_ascii_lowercase().as_str()) {
        Some("JSON numbers cannot be NaN or infinite: give a finite number, without quotes".to_string())
    } else if number && text.trim().parse::<f64>().is_ok() {
        Some(format!("write the number without quotes: `{}`", text.trim()))
    } else if number {
        Some("give a number, without quotes".to_string())
    } else if expected == "a boolean" && (text == "true" || text == "false") {
        Some(format!("write `{text}` without quotes"))
    } else if expected == "a boolean" {
        Some("use `true` or `false`, without quotes".to_string())
    } else if expected == "a sequence" {
        Some(format!("write a list: `[\"{text}\"]`"))
    } else {
        None
    }
}

/// Splits "`x`, expected one of `a`, `b`" into `x` and `[a, b]`.
fn split_candidates(rest: &str) -> (String, Vec<String>) {
    let mut ticked = rest.split('`').skip(1).step_by(2).map(str::to_string);
    let name = ticked.next().unwrap_or_default();
    (name, ticked.collect())
}

fn hint(name: &str, valid: &[String], noun: &str) -> String {
    if valid.is_empty() {
        return format!("there are no {noun} here: remove it");
    }
    let all = valid.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ");
    match closest(name, valid.iter().map(String::as_str)) {
        Some(near) => format!("did you mean `{near}`? (valid {noun}: {all})"),
        None => format!("valid {noun}: {all}"),
    }
}

fn article(what: &str) -> String {
    let vowel = what.starts_with(['a', 'e', 'i', 'o', 'u']);
    if what == "model" || what == "thresholds" {
        format!("the {what}")
    } else if vowel {
        format!("an {what}")
    } else {
        format!("a {what}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What serde's `message` about the model's root becomes, found in a `what`.
    fn at_root(message: &str, what: &str) -> Diagnostic {
        explain(JsonPath::root(), message, what)
    }

    #[test]
    fn suggests_a_field() {
        let d = explain(
            JsonPath::root().key("entities").index(0),
            "unknown field `nmae`, expected one of `name`, `identity`, `attributes`",
            "entity",
        );
        assert_eq!(d.path.to_string(), "$.entities[0].nmae");
        assert_eq!(d.message, "unknown field `nmae` in an entity");
        assert!(d.help.unwrap().starts_with("did you mean `name`?"));
    }

    #[test]
    fn suggests_a_value() {
        let d = at_root(
            "unknown variant `fwe`, expected one of `one`, `few`, `many`",
            "relationship",
        );
        assert!(d.help.unwrap().starts_with("did you mean `few`?"));
    }

    #[test]
    fn rewords_type_errors() {
        let d = at_root("invalid type: string \"x\", expected f64", "access pattern");
        assert_eq!(d.message, "wrong type: found string \"x\", expected a number");
        let d = at_root("invalid type: string \"12\", expected f64", "entity");
        assert_eq!(d.help.unwrap(), "write the number without quotes: `12`");
    }

    #[test]
    fn names_the_nested_object() {
        let at = JsonPath::root().key("entities").index(0).key("attributes").index(2);
        let d = explain(
            at.key("optinal"),
            "unknown field `optinal`, expected `optional`",
            "entity",
        );
        assert_eq!(d.path.to_string(), "$.entities[0].attributes[2].optinal");
        assert_eq!(d.message, "unknown field `optinal` in an attribute");
        let d = explain(at, "missing field `type`", "entity");
        assert_eq!(d.message, "an attribute has no `type`");
    }
}
