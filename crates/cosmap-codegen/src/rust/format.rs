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

/// `text` parsed and pretty-printed, or where and why it does not parse. An item at a
/// time where the text splits into items (`pieces.rs`): the syntax tree of a whole
/// data access module of 20,000 aggregates would take many gigabytes. The items of a
/// module or impl block are each printed inside their blocks' headers, which are
/// then cut off: `prettyplease` ends every item with a line break, so an item prints
/// the same alone as beside the others. Text that does not split, or a piece that
/// does not parse, is parsed whole: the same text, or the error at its place.
pub(crate) fn parse_and_print(text: &str) -> Result<String, ParseError> {
    if let Some(printed) = in_pieces(text) {
        return Ok(printed);
    }
    whole(text)
}

/// `text` parsed and printed at once.
fn whole(text: &str) -> Result<String, ParseError> {
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

/// `text` printed an item at a time, or `None` if it does not split or a piece does
/// not parse.
fn in_pieces(text: &str) -> Option<String> {
    let items = super::pieces::items(text, 0..text.len())?;
    if text.trim_start().starts_with("#!") || text.trim_start().starts_with("//!") {
        return None;
    }
    // Printed, the text grows by its indentation (about 3% for the data access): room
    // for a quarter more, so that the printing of a large file is never copied into
    // a buffer twice its size while the text is held (pages never written are never
    // touched).
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut blocks = Vec::new();
    for item in items {
        item_in_blocks(text, item, &mut blocks, &mut out)?;
    }
    Some(out)
}

/// A block an item is printed in: its header (`pub mod data {`) and how many lines
/// that prints as.
struct Block<'t> {
    header: &'t str,
    lines: usize,
}

/// What stands for a block's items when its header is printed.
const PLACEHOLDER: &str = "fn cosmap_piece() {}";

/// Prints `text[item]` inside `blocks` into `out`: a module or impl block as its
/// attributes and header, each of its items in turn, and its closing brace; any
/// other item whole.
fn item_in_blocks<'t>(
    text: &'t str,
    item: std::ops::Range<usize>,
    blocks: &mut Vec<Block<'t>>,
    out: &mut String,
) -> Option<()> {
    let split = super::pieces::block_body(text, item.clone())
        .and_then(|(header, body)| Some((header, super::pieces::items(text, body.clone())?, body)))
        // An empty block prints on one line (`impl X {}`).
        .filter(|(_, items, _)| !items.is_empty());
    let Some((header, items, body)) = split else {
        out.push_str(&in_blocks(blocks, &text[item])?);
        return Some(());
    };
    let shell = |from: usize| format!("{}\n{PLACEHOLDER}\n}}", &text[from..body.start]);
    let printed = in_blocks(blocks, &shell(item.start))?;
    let (open, close) = without_placeholder(&printed)?;
    let lines = without_placeholder(&in_blocks(blocks, &shell(header))?)?
        .0
        .lines()
        .count();
    out.push_str(open);
    let header = &text[header..body.start];
    blocks.push(Block { header, lines });
    for item in items {
        item_in_blocks(text, item, blocks, out)?;
    }
    blocks.pop();
    out.push_str(close);
    Some(())
}

/// A block printed with [`PLACEHOLDER`] as its one item, split into what comes before
/// the placeholder's line and its closing line.
fn without_placeholder(printed: &str) -> Option<(&str, &str)> {
    let mut lines = printed.match_indices('\n').map(|(i, _)| i + 1).collect::<Vec<_>>();
    lines.insert(0, 0);
    let n = lines.len();
    // The line starts: …, the placeholder's, the closing brace's, the end.
    let (placeholder, close) = (*lines.get(n.checked_sub(3)?)?, lines[n - 2]);
    (printed[placeholder..close].trim() == PLACEHOLDER && printed[close..].trim() == "}")
        .then(|| (&printed[..placeholder], &printed[close..]))
}

/// `item` parsed inside `blocks`' headers and printed, without their lines.
fn in_blocks(blocks: &[Block], item: &str) -> Option<String> {
    let mut text = String::with_capacity(item.len() + blocks.iter().map(|b| b.header.len() + 3).sum::<usize>());
    for b in blocks {
        text.push_str(b.header);
        text.push('\n');
    }
    text.push_str(item);
    for _ in blocks {
        text.push_str("\n}");
    }
    let printed = syn::parse_file(&text).ok().map(|file| prettyplease::unparse(&file));
    proc_macro2::extra::invalidate_current_thread_spans();
    let printed = printed?;
    let skip: usize = blocks.iter().map(|b| b.lines).sum();
    let start = match skip {
        0 => 0,
        _ => printed.match_indices('\n').nth(skip - 1)?.0 + 1,
    };
    let mut end = printed.len();
    for _ in blocks {
        let line = printed[..end.checked_sub(1)?].rfind('\n').map_or(0, |i| i + 1);
        if printed[line..end].trim() != "}" {
            return None;
        }
        end = line;
    }
    Some(printed[start..end].to_string())
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
    fn a_file_printed_an_item_at_a_time_is_the_file_printed_whole() {
        let text = "// Header.\n/// The module.\n/// - `x` { in docs\n#[allow(unused)]\npub mod data {\n/// A.\n#[derive(Debug)] pub struct A { a: [u8; 2] }\nconst B: u8 = { 1 };\n/// The impl.\nimpl A { pub fn new() -> Self { A { a: [0; 2] } }\npub fn it(&self) -> impl Iterator<Item = u8> + '_ { let b = 1; self.a.iter().map(move |x| x + b) }\n/// A long one.\npub async fn a_method_with_a_long_signature(&self, first_parameter: &str, second_parameter: ::std::string::String) -> ::core::result::Result<(), ::std::string::String> { let _ = '}'; let _ = r#\"}\"#; Ok(()) } }\nimpl B {}\nmod rt { pub fn f<'a>(x: &'a str) -> &'a str { x } }\n}\nfn outside() {}\n";
        let whole = whole(text).expect("parses");
        assert_eq!(in_pieces(text).as_deref(), Some(whole.as_str()), "{whole}");
        assert_eq!(parse_and_print(text).expect("parses"), whole);
    }

    #[test]
    fn an_error_in_one_item_is_reported_at_its_place_in_the_file() {
        let text = "mod m {\n    fn a() {}\n    fn b() { let = ; }\n}\n";
        let error = parse_and_print(text).expect_err("does not parse");
        assert_eq!(error.line, 3, "{error:?}");
    }

    #[test]
    fn an_error_is_reported_at_its_line_and_column() {
        let good = "pub struct S { pub a: u8 }\n".repeat(3);
        let text = format!("{good}pub struct Bad {{ a: }}\n{good}");
        let error = parse_and_print(&text).expect_err("does not parse");
        assert_eq!((error.line, error.column), (4, 21), "{error:?}");
    }
}
