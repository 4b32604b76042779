//! Rust names for model names: snake_case fields and modules, keyword escapes,
//! and serde's camelCase rule (to know when a field needs an explicit rename).

use std::borrow::Cow;
use std::collections::BTreeSet;

use cosmap_domain::naming;

/// The field identifier for JSON property `json`: `createdAt` → `created_at`.
/// The rule is [`naming::field_ident`], the one validation checks names against.
pub fn field(json: &str) -> String {
    naming::field_ident(json)
}

/// [`field`], borrowed when `json` is already its own identifier (no ASCII capital,
/// not a keyword): most property names are (`amount`, `title`), and each would
/// otherwise be copied into a string of its own.
pub fn field_of(json: &str) -> Cow<'_, str> {
    if json.bytes().any(|b| b.is_ascii_uppercase())
        || naming::is_rust_keyword(json)
        || naming::NON_RAW_KEYWORDS.contains(&json)
    {
        Cow::Owned(field(json))
    } else {
        Cow::Borrowed(json)
    }
}

/// The module identifier for container `name`: `PresentedProduct` → `presented_product`.
pub fn module(name: &str) -> String {
    naming::field_ident(name)
}

/// `name`, or `name_`, `name__`, …: the first `taken` does not hold (how a
/// generated name steps aside from those already in use).
pub(crate) fn unclaimed(mut name: String, taken: impl Fn(&str) -> bool) -> String {
    while taken(&name) {
        name.push('_');
    }
    name
}

/// [`unclaimed`] among `taken`, and now taken.
pub(crate) fn claim(taken: &mut BTreeSet<String>, name: String) -> String {
    let name = unclaimed(name, |n| taken.contains(n));
    taken.insert(name.clone());
    name
}

/// The JSON name serde's `rename_all = "camelCase"` gives field `ident` (to know
/// when a field needs an explicit rename).
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
        for json in [
            "createdAt",
            "match",
            "self",
            "Self",
            "amount",
            "created_at",
            "x2",
            "",
            "_",
            "crate",
        ] {
            assert_eq!(field_of(json), field(json), "{json}");
        }
        assert!(matches!(field_of("amount"), Cow::Borrowed(_)));
        assert_eq!(module("Type"), "r#type");
        assert_eq!(serde_camel("created_at"), "createdAt");
        assert_eq!(serde_camel("r#match"), "match");
        assert_eq!(serde_camel("address2_line"), "address2Line");
    }

    /// The keyword `match`es are the lists the identifiers were made by before: raw
    /// (`r#match`) for keywords, `super_` for the few that cannot be raw.
    #[test]
    fn keywords_are_the_listed_ones() {
        let ident = |word: &str| naming::rust_ident(word.to_string());
        const KEYWORDS: &[&str] = &[
            "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn", "else",
            "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro",
            "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return", "static", "struct", "trait",
            "true", "try", "type", "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
        ];
        for k in KEYWORDS {
            assert_eq!(ident(k), format!("r#{k}"));
        }
        for k in ["self", "Self", "super", "crate", "_"] {
            assert_eq!(ident(k), format!("{k}_"));
        }
        for word in ["matches", "Type", "types", "selfie", "r", "", "crates"] {
            assert_eq!(ident(word), word);
        }
    }
}
