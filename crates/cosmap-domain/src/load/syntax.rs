//! Diagnostics for text that is not JSON: serde_json's message, the place in
//! characters (serde_json counts bytes), and a fix for the usual mistakes.

use crate::diagnostic::{Diagnostic, JsonPath};

/// A diagnostic for the syntax error `e` in `text`.
pub(super) fn diagnostic(text: &str, e: &serde_json::Error) -> Diagnostic {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
    let line = text.lines().nth(e.line().saturating_sub(1)).unwrap_or("");
    // serde_json's column is the 1-based byte of the offending character (0 before the first);
    // at the end of the input it is the last byte read, which can be inside a multi-byte
    // character (found by fuzzing: an unclosed string ending in U+FEFF). Step back to that
    // character's first byte, so the column names the character and `at` slices on a boundary.
    let mut end = e.column().saturating_sub(1).min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let column = line[..end].chars().count() + 1;
    let at = &line[end..];
    let mut d = Diagnostic::new(JsonPath::root(), format!("invalid JSON: {message}")).help(help(&message, at, e));
    d.position = Some((e.line(), column));
    d
}

/// What to do about `message`, given the text `at` the error and after it.
fn help(message: &str, at: &str, e: &serde_json::Error) -> &'static str {
    if message.contains("recursion limit") {
        "the JSON is nested more than 128 levels deep; a model never needs that"
    } else if at.starts_with("//") || at.starts_with("/*") {
        "JSON has no comments: remove it (a model's `description` can hold notes)"
    } else if at.starts_with('\'') {
        "JSON strings and keys use double quotes (`\"`), not single quotes"
    } else if ["NaN", "Infinity", "-Infinity", "+Infinity"]
        .iter()
        .any(|w| at.starts_with(w))
    {
        "JSON has no NaN or Infinity: give a finite number"
    } else if message.contains("number out of range") {
        "the number is too large to be a 64-bit float (over about 1.8e308): use a realistic value"
    } else if message.contains("control character") {
        "a string cannot hold a raw tab or line break: write `\\t` or `\\n`, or remove it"
    } else if message.contains("escape") || message.contains("surrogate") {
        "fix the escape: JSON allows `\\\"`, `\\\\`, `\\/`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t` and `\\uXXXX` (a `\\uD800`-`\\uDBFF` must be followed by a `\\uDC00`-`\\uDFFF`)"
    } else if message == "key must be a string" {
        "put the key in double quotes, for example `\"name\"`"
    } else if e.is_eof() {
        "the file ends too early: close every `{` and `[` and finish the last value"
    } else if message.contains("trailing characters") {
        "there is text after the model's closing `}`: remove it"
    } else if message.contains("trailing comma") {
        "JSON allows no comma after the last element: remove it"
    } else if message.starts_with("expected `,` or") {
        "a comma is missing before this point, or a bracket closes the wrong thing"
    } else {
        "fix the JSON syntax here (a missing comma, quote, colon or bracket is the usual cause)"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Diagnostic {
        let e = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
        diagnostic(text, &e)
    }

    #[test]
    fn counts_columns_in_characters() {
        let d = check("{\n  \"name\": \"Größe\" x\n}");
        assert_eq!(d.position, Some((2, 19)));
    }

    #[test]
    fn end_of_input_inside_a_multi_byte_character() {
        // serde_json points at the last byte of U+FEFF (3 bytes); found by fuzzing.
        let d = check("\"\\t\u{feff}");
        assert_eq!(d.position, Some((1, 4)));
        let d = check("{\"name\": \"Größe");
        assert_eq!(d.position, Some((1, 15)));
    }

    #[test]
    fn explains_comments_and_quotes() {
        assert!(check("{\n  // note\n}").help.unwrap().contains("no comments"));
        assert!(check("{'name': 1}").help.unwrap().contains("double quotes"));
        assert!(check("{\"count\": NaN}").help.unwrap().contains("NaN"));
    }
}
