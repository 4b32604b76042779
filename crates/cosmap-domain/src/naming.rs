//! Name rules shared by validation, the mapper and code generation: which names
//! are acceptable, and how a name turns into a JSON property or Rust identifier.

/// Words that cannot be Rust identifiers, not even as raw identifiers (`r#…`).
pub const NON_RAW_KEYWORDS: &[&str] = &["self", "Self", "super", "crate", "_"];

/// Property names every Cosmos DB document of cosmap already uses or that the
/// service reserves; attributes must not take them.
pub const RESERVED_PROPERTIES: &[&str] = &[
    "id",
    "type",
    "ttl",
    "_rid",
    "_self",
    "_etag",
    "_ts",
    "_attachments",
    "_lsn",
];

/// Longest name of an entity, value object or aggregate (characters, all ASCII).
/// A root entity's name is a Cosmos DB container id (at most 255 characters) and
/// every element's name a file name `<name>.schema.json` (at most 255 bytes on most
/// file systems), also with `Copy` appended when an optimisation copy takes it.
pub const MAX_TYPE_NAME_CHARS: usize = 200;

/// True for characters that must never reach generated code, comments or a
/// terminal unescaped: control characters (C0, DEL, C1: ESC, OSC, NUL, …), the line
/// and paragraph separators, and Unicode format characters (general category Cf),
/// among them the text-direction controls (U+202A–U+202E, U+2066–U+2069,
/// U+200E/U+200F) that can make source text read differently from what it is.
pub fn is_hidden_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{0600}'..='\u{0605}'
                | '\u{061C}'
                | '\u{06DD}'
                | '\u{070F}'
                | '\u{0890}'..='\u{0891}'
                | '\u{08E2}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206F}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{110BD}'
                | '\u{110CD}'
                | '\u{13430}'..='\u{1343F}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0001}'
                | '\u{E0020}'..='\u{E007F}'
        )
}

/// `text` with every [`is_hidden_char`] written as a visible `\u{…}` escape, so
/// text taken from a model cannot drive a terminal or a CI log, or hide itself.
pub fn escape_hidden(text: &str) -> String {
    if !text.chars().any(is_hidden_char) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_hidden_char(c) {
            out.push_str(&format!("\\u{{{:04X}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// True for `UpperCamelCase` ASCII names: a capital letter, then letters and digits.
pub fn is_upper_camel(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_uppercase()) && chars.all(|c| c.is_ascii_alphanumeric())
}

/// True for `lowerCamelCase` ASCII names: a small letter, then letters and digits.
pub fn is_lower_camel(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase()) && chars.all(|c| c.is_ascii_alphanumeric())
}

/// `OrderItem` → `orderItem`.
pub fn lower_camel(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// `orderItem` → `OrderItem`.
pub fn upper_camel(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// `OrderStatusHistory` → `order_status_history`; `accountId` → `account_id`.
/// One pass over the characters with the one before and the one after in hand (code
/// generation asks for every field of every struct).
pub fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev: Option<char> = None;
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_uppercase() {
            let prev_lower = prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit());
            let prev_upper = prev.is_some_and(|p| p.is_ascii_uppercase());
            let next_lower = chars.peek().is_some_and(|n| n.is_ascii_lowercase());
            if prev_lower || (prev_upper && next_lower) {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
        prev = Some(c);
    }
    out
}

/// The keywords of every Rust edition, strict and reserved.
const RUST_KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn", "else", "enum",
    "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod", "move",
    "mut", "override", "priv", "pub", "ref", "return", "static", "struct", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Whether `word` is a keyword in some Rust edition, so needs `r#` as an identifier.
pub fn is_rust_keyword(word: &str) -> bool {
    RUST_KEYWORDS.contains(&word)
}

/// A valid Rust identifier for `word`: raw (`r#match`) for keywords, `super_` for
/// the few that cannot be raw ([`NON_RAW_KEYWORDS`]); any other word as it is.
pub fn rust_ident(mut word: String) -> String {
    if NON_RAW_KEYWORDS.contains(&word.as_str()) {
        word.push('_');
        word
    } else if is_rust_keyword(&word) {
        format!("r#{word}")
    } else {
        word
    }
}

/// The Rust field, parameter or module identifier code generation gives the JSON
/// property or element name `json`: `createdAt` → `created_at`, `type` → `r#type`.
/// Validation compares these to refuse two names that would give one identifier.
pub fn field_ident(json: &str) -> String {
    rust_ident(snake_case(json))
}

/// The Rust method identifier code generation gives an access pattern named `name`
/// (before making it unique among helpers): its words (runs of characters a Rust
/// identifier may hold, `_` a separator) in snake_case, lowercased, joined by `_`;
/// non-ASCII letters kept (`ñandú por id` → `ñandú_por_id`); `pattern_` before a
/// name that does not start as an identifier may (`2fa codes` → `pattern_2fa_codes`).
/// Validation compares these to refuse two patterns that would give one method.
pub fn method_ident(name: &str) -> String {
    let mut ident = String::with_capacity(name.len() + 8);
    for word in name.split(|c: char| c == '_' || !unicode_ident::is_xid_continue(c)) {
        if word.is_empty() {
            continue;
        }
        if !ident.is_empty() {
            ident.push('_');
        }
        ident.extend(snake_case(word).chars().flat_map(char::to_lowercase));
    }
    if !ident.starts_with(unicode_ident::is_xid_start) {
        ident.insert_str(0, "pattern_");
    }
    rust_ident(ident)
}

/// The first character of `name` whose form in an identifier rustc may change: it
/// reads identifiers in Unicode normalisation form C, so a combining mark after a
/// letter (`n` + U+0303), a compatibility ideograph or a conjoining Hangul letter
/// could turn two different names into one method. Refused in access pattern names
/// (precomposed letters, `ñ`, are kept as they are).
pub fn unnormalised_ident_char(name: &str) -> Option<char> {
    name.chars().find(|&c| {
        let mark = unicode_ident::is_xid_continue(c) && !unicode_ident::is_xid_start(c) && c != '_' && !c.is_numeric();
        mark || matches!(
            c,
            '\u{1100}'..='\u{11FF}'
                | '\u{A960}'..='\u{A97F}'
                | '\u{D7B0}'..='\u{D7FF}'
                | '\u{F900}'..='\u{FAFF}'
                | '\u{2F800}'..='\u{2FA1F}'
        )
    })
}

/// English plural of a lowerCamelCase noun phrase, enough for property names:
/// `size` → `sizes`, `address` → `addresses`, `history` → `histories`.
/// The endings are compared ignoring ASCII case.
pub fn plural(word: &str) -> String {
    let ends = |suffix: &str| ends_with_ignoring_case(word, suffix);
    let (stem, ending) = if ends("s") || ends("x") || ends("ch") || ends("sh") {
        (word, "es")
    } else if ends("y") && !ends("ay") && !ends("ey") && !ends("oy") && !ends("uy") {
        // The last character is an ASCII `y` or `Y`: one byte.
        (&word[..word.len() - 1], "ies")
    } else {
        (word, "s")
    };
    format!("{stem}{ending}")
}

/// Whether `word` ends with the ASCII `suffix`, ignoring ASCII case (as its
/// `to_ascii_lowercase` ending with `suffix` lowercased would).
fn ends_with_ignoring_case(word: &str, suffix: &str) -> bool {
    let (word, suffix) = (word.as_bytes(), suffix.as_bytes());
    word.len() >= suffix.len() && word[word.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
}

/// Edit distance between two short names (for "did you mean" hints), ignoring ASCII case.
pub fn edit_distance(a: &str, b: &str) -> usize {
    strsim::levenshtein(&a.to_ascii_lowercase(), &b.to_ascii_lowercase())
}

/// The candidate closest to `name`, if it is close enough to be a likely typo.
pub fn closest<'a, I>(name: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let limit = (name.chars().count() / 3).max(1) + 1;
    candidates
        .into_iter()
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plural_is_the_copying_form() {
        fn plural_by_lowercase_copy(word: &str) -> String {
            let lower = word.to_ascii_lowercase();
            if lower.ends_with('s') || lower.ends_with('x') || lower.ends_with("ch") || lower.ends_with("sh") {
                format!("{word}es")
            } else if lower.ends_with('y')
                && !lower.ends_with("ay")
                && !lower.ends_with("ey")
                && !lower.ends_with("oy")
                && !lower.ends_with("uy")
            {
                format!("{}ies", &word[..word.len() - 1])
            } else {
                format!("{word}s")
            }
        }
        let words = [
            "", "s", "S", "y", "Y", "ay", "AY", "boy", "BOY", "category", "CATEGORY", "key", "guy", "box", "BOX",
            "match", "MATCH", "wish", "WiSh", "address", "item", "Item", "ÉcoleY", "caféy", "naïves", "日本", "X",
            "ch", "cH", "Éy", "ÿ", "ey", "eY", "day", "Day",
        ];
        for word in words {
            assert_eq!(plural(word), plural_by_lowercase_copy(word), "{word:?}");
        }
    }

    #[test]
    fn converts_case() {
        assert_eq!(snake_case("OrderStatusHistory"), "order_status_history");
        assert_eq!(snake_case("accountId"), "account_id");
        assert_eq!(snake_case("HTTPServer"), "http_server");
        assert_eq!(snake_case("address2Line"), "address2_line");
        assert_eq!(lower_camel("OrderItem"), "orderItem");
        assert_eq!(upper_camel("orderItem"), "OrderItem");
    }

    /// [`snake_case`] is the rule as first written (each character against its
    /// neighbours in a collected list), for every name of up to five characters drawn
    /// from lower and upper case letters, a digit, `_` and a non-ASCII letter, and some
    /// longer ones.
    #[test]
    fn snake_case_is_the_neighbour_rule() {
        fn by_neighbours(name: &str) -> String {
            let mut out = String::new();
            let chars: Vec<char> = name.chars().collect();
            for (i, &c) in chars.iter().enumerate() {
                if c.is_ascii_uppercase() {
                    let prev_lower = i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
                    let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
                    let prev_upper = i > 0 && chars[i - 1].is_ascii_uppercase();
                    if i > 0 && (prev_lower || (prev_upper && next_lower)) {
                        out.push('_');
                    }
                    out.push(c.to_ascii_lowercase());
                } else {
                    out.push(c);
                }
            }
            out
        }
        let alphabet = ['a', 'B', 'c', 'D', '1', '_', 'É'];
        let mut names = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|n| alphabet.iter().map(move |c| format!("{n}{c}")))
                .collect();
            names.extend(last.iter().cloned());
        }
        names.extend(
            [
                "HTTPServer",
                "accountId",
                "OrderStatusHistory",
                "root113Id",
                "ABCdef",
                "aÉB",
                "r#type",
            ]
            .map(String::from),
        );
        for name in &names {
            assert_eq!(snake_case(name), by_neighbours(name), "{name}");
        }
    }

    #[test]
    fn makes_method_identifiers() {
        assert_eq!(method_ident("orders of an account"), "orders_of_an_account");
        assert_eq!(method_ident("Posts newest"), "posts_newest");
        assert_eq!(method_ident("posts  newest"), "posts_newest");
        assert_eq!(method_ident("posts_newest"), "posts_newest");
        assert_eq!(method_ident("ñandú por id"), "ñandú_por_id");
        assert_eq!(method_ident("Ñandú por id"), "ñandú_por_id");
        assert_eq!(method_ident("byAccountId"), "by_account_id");
        assert_eq!(method_ident("2fa codes"), "pattern_2fa_codes");
        assert_eq!(method_ident("<img src=x>"), "img_src_x");
        assert_eq!(method_ident("`"), "pattern_");
        assert_eq!(method_ident("match"), "r#match");
        assert_eq!(method_ident("self"), "self_");
        assert_eq!(method_ident("東京 orders"), "東京_orders");
        assert_eq!(field_ident("fooBar"), field_ident("fooBAR"));
        assert_eq!(field_ident("type"), "r#type");
    }

    #[test]
    fn finds_characters_rustc_may_normalise() {
        assert_eq!(unnormalised_ident_char("ñandú por id"), None);
        assert_eq!(unnormalised_ident_char("orders 2"), None);
        assert_eq!(unnormalised_ident_char("posts_newest"), None);
        assert_eq!(unnormalised_ident_char("n\u{303}andu"), Some('\u{303}'));
        assert_eq!(unnormalised_ident_char("\u{F900}"), Some('\u{F900}'));
        assert_eq!(unnormalised_ident_char("\u{1100}\u{1161}"), Some('\u{1100}'));
    }

    #[test]
    fn pluralises() {
        assert_eq!(plural("size"), "sizes");
        assert_eq!(plural("deliveryAddress"), "deliveryAddresses");
        assert_eq!(plural("orderStatusHistory"), "orderStatusHistories");
        assert_eq!(plural("day"), "days");
        assert_eq!(plural("box"), "boxes");
    }

    #[test]
    fn checks_case() {
        assert!(is_upper_camel("CreditCard"));
        assert!(!is_upper_camel("creditCard"));
        assert!(!is_upper_camel("Credit_Card"));
        assert!(!is_upper_camel(""));
        assert!(is_lower_camel("accountId"));
        assert!(!is_lower_camel("AccountId"));
        assert!(!is_lower_camel("account-id"));
    }

    #[test]
    fn suggests_close_names() {
        assert_eq!(closest("Acount", ["Account", "Order"]), Some("Account"));
        assert_eq!(closest("nmae", ["name", "identity"]), Some("name"));
        assert_eq!(closest("Zebra", ["Account", "Order"]), None);
    }
}
