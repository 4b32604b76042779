//! Rewrites serde's error messages into cosmap's: plain words, the exact place,
//! and a "did you mean" for misspelled fields and values.

use crate::diagnostic::{Diagnostic, JsonPath};
use crate::naming::closest;

/// A diagnostic for serde's `message` about the value at `path` inside a `what`.
pub(crate) fn explain(path: JsonPath, message: &str, what: &str) -> Diagnostic {
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let (field, valid) = split_candidates(rest);
        let help = hint(&field, &valid, "fields");
        return Diagnostic::new(
            path.key(field.clone()),
            format!("unknown field `{field}` in {}", article(what)),
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
        return Diagnostic::new(path, format!("{} has no `{field}`", upper_first(&article(what))))
            .help(format!("add the `{field}` field; run `cosmap schema` for the format"));
    }
    let plain = message
        .replace("expected f64", "expected a number")
        .replace("expected u64", "expected a whole number, 0 or more")
        .replace("expected i64", "expected a whole number")
        .replace("expected a boolean", "expected `true` or `false`")
        .replace("a sequence", "an array")
        .replace("struct ", "an object: ")
        .replace("invalid type: ", "wrong type: found ")
        .replace("invalid value: ", "invalid value: found ");
    Diagnostic::new(path, plain).help("run `cosmap schema` for the type every field takes")
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

fn upper_first(s: &str) -> String {
    crate::naming::upper_camel(s)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let d = explain(
            JsonPath::root(),
            "unknown variant `fwe`, expected one of `one`, `few`, `many`",
            "relationship",
        );
        assert!(d.help.unwrap().starts_with("did you mean `few`?"));
    }

    #[test]
    fn rewords_type_errors() {
        let d = explain(
            JsonPath::root(),
            "invalid type: string \"x\", expected f64",
            "access pattern",
        );
        assert_eq!(d.message, "wrong type: found string \"x\", expected a number");
    }
}
