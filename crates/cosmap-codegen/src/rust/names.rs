//! Rust names for model names: snake_case fields and modules, keyword escapes,
//! and serde's camelCase rule (to know when a field needs an explicit rename).

use cosmap_domain::naming::snake_case;

/// Words that are keywords in some Rust edition and need `r#` as identifiers.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn", "else", "enum",
    "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod", "move",
    "mut", "override", "priv", "pub", "ref", "return", "static", "struct", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers; these get a trailing `_`.
const NON_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// A valid Rust identifier for `word`: raw (`r#match`) for keywords,
/// `super_` for the few that cannot be raw.
pub fn ident(word: &str) -> String {
    if NON_RAW.contains(&word) {
        format!("{word}_")
    } else if KEYWORDS.contains(&word) {
        format!("r#{word}")
    } else {
        word.to_string()
    }
}

/// The field identifier for JSON property `json`: `createdAt` → `created_at`.
pub fn field(json: &str) -> String {
    ident(&snake_case(json))
}

/// The module identifier for container `name`: `PresentedProduct` → `presented_product`.
pub fn module(name: &str) -> String {
    ident(&snake_case(name))
}

/// The JSON name serde's `rename_all = "camelCase"` gives field `ident`.
pub fn serde_camel(ident: &str) -> String {
    let bare = ident.strip_prefix("r#").unwrap_or(ident);
    let mut out = String::with_capacity(bare.len());
    let mut upper = false;
    for c in bare.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makes_identifiers() {
        assert_eq!(field("createdAt"), "created_at");
        assert_eq!(field("match"), "r#match");
        assert_eq!(field("self"), "self_");
        assert_eq!(module("PresentedProduct"), "presented_product");
        assert_eq!(module("Type"), "r#type");
        assert_eq!(serde_camel("created_at"), "createdAt");
        assert_eq!(serde_camel("r#match"), "match");
        assert_eq!(serde_camel("address2_line"), "address2Line");
    }
}
