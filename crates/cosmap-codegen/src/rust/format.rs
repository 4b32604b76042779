//! Parsing the rendered Rust with `syn` and printing it with `prettyplease`: an
//! overridden template's output, and the built-in text with the user's own
//! attributes or type spellings (feature `format`).

/// Where and why the rendered Rust does not parse (1-based line and column).
#[derive(Debug)]
pub(crate) struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// `text` parsed and pretty-printed, or where and why it does not parse.
pub(crate) fn parse_and_print(text: &str) -> Result<String, ParseError> {
    let printed = syn::parse_file(text)
        .map(|file| prettyplease::unparse(&file))
        .map_err(|e| {
            let start = e.span().start();
            ParseError {
                line: start.line,
                column: start.column + 1,
                message: e.to_string(),
            }
        });
    // Spans are recorded per thread (for line:column) until dropped explicitly.
    proc_macro2::extra::invalidate_current_thread_spans();
    printed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_printed_as_prettyplease_prints_it() {
        let text = "/// Doc.\n#[derive(Debug)]\npub struct S { pub a: u8 }\nimpl S { pub fn f(&self) -> u8 { match self.a { 0 => 1, _ => 2 } } }\n";
        let printed = parse_and_print(text).expect("parses");
        assert_eq!(printed, prettyplease::unparse(&syn::parse_file(text).expect("parses")));
        assert!(printed.contains("pub struct S {\n    pub a: u8,\n}"), "{printed}");
    }

    #[test]
    fn an_error_is_reported_at_its_line_and_column() {
        let good = "pub struct S { pub a: u8 }\n".repeat(3);
        let text = format!("{good}pub struct Bad {{ a: }}\n{good}");
        let error = parse_and_print(&text).expect_err("does not parse");
        assert_eq!((error.line, error.column), (4, 21), "{error:?}");
    }
}
