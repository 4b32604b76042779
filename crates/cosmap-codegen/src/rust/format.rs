//! Parsing the rendered Rust with `syn` and printing it with `prettyplease`: an
//! overridden template's output, and the built-in text with the user's own
//! attributes or type spellings (feature `format`).

use std::borrow::Cow;

use super::pieces::Piece;

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
    if opens_with_inner_attributes(text) {
        return None;
    }
    let mut printer = Printer::default();
    let printed = printer.part(text)?;
    printer.open.is_empty().then_some(printed)
}

/// Whether `text` starts with an inner attribute or doc (`#![…]`, `//!`, `/*!`),
/// which belongs to the file or block around it: such text is printed whole.
pub(crate) fn opens_with_inner_attributes(text: &str) -> bool {
    let first = text.trim_start();
    first.starts_with("#!") || first.starts_with("//!") || first.starts_with("/*!")
}

/// Prints a file given a part at a time ([`Printer::part`]), as [`parse_and_print`]
/// prints it whole: each part's items printed inside the blocks open around them,
/// which may open in one part and close in a later one (`pub mod data {` in the
/// first part of the data access, its `}` in the last).
#[derive(Default)]
pub(crate) struct Printer {
    /// The blocks open, outermost first, each with the printing of its closing line.
    open: Vec<(Block<'static>, String)>,
}

impl Printer {
    /// The printing of `text`, the next part of the file, or `None` if it does not
    /// split or a piece does not parse.
    pub(crate) fn part(&mut self, text: &str) -> Option<String> {
        // Printed, the text grows by its indentation (about 3% for the data access):
        // room for a quarter more, so that the printing is never copied to grow.
        let mut out = String::with_capacity(text.len() + text.len() / 4);
        let mut blocks: Vec<Block> = self.open.iter().map(|(b, _)| b.clone()).collect();
        for piece in super::pieces::fragment(text)? {
            match piece {
                Piece::Item(item) => item_in_blocks(text, item, &mut blocks, &mut out)?,
                Piece::Open { start, body } => {
                    // Its attributes end where the header of the block, closed at once, starts.
                    let closed = format!("{}}}", &text[start..body]);
                    let (header, _) = super::pieces::block_body(&closed, 0..closed.len())?;
                    if opens_with_inner_attributes(&text[body..]) {
                        return None;
                    }
                    let (open, close, block) = open_block(text, start, start + header, body, &blocks)?;
                    out.push_str(open.as_str());
                    let owned = Block {
                        header: Cow::Owned(block.header.to_string()),
                        lines: block.lines,
                    };
                    self.open.push((owned, close));
                    blocks.push(block);
                }
                Piece::Close => {
                    let (_, close) = self.open.pop()?;
                    blocks.pop();
                    out.push_str(&close);
                }
            }
        }
        Some(out)
    }

    /// Whether every block opened has been closed: the parts made a whole file.
    pub(crate) fn is_closed(&self) -> bool {
        self.open.is_empty()
    }
}

/// A block an item is printed in: its header (`pub mod data {`) and how many lines
/// that prints as.
#[derive(Clone)]
struct Block<'t> {
    header: Cow<'t, str>,
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
    let (open, close, block) = open_block(text, item.start, header, body.start, blocks)?;
    out.push_str(&open);
    blocks.push(block);
    for item in items {
        item_in_blocks(text, item, blocks, out)?;
    }
    blocks.pop();
    out.push_str(&close);
    Some(())
}

/// The block whose attributes start at `start`, its header at `header` and its
/// items at `body` (just past its `{`), printed inside `blocks`: what comes before
/// its items and after them (its closing line), and the block its items are
/// printed in.
fn open_block<'t>(
    text: &'t str,
    start: usize,
    header: usize,
    body: usize,
    blocks: &[Block],
) -> Option<(String, String, Block<'t>)> {
    let shell = |from: usize| format!("{}\n{PLACEHOLDER}\n}}", &text[from..body]);
    let printed = in_blocks(blocks, &shell(start))?;
    let (open, close) = without_placeholder(&printed)?;
    let lines = without_placeholder(&in_blocks(blocks, &shell(header))?)?
        .0
        .lines()
        .count();
    let block = Block {
        header: Cow::Borrowed(&text[header..body]),
        lines,
    };
    Some((open.to_string(), close.to_string(), block))
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
        text.push_str(&b.header);
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
    fn a_file_printed_a_part_at_a_time_is_the_file_printed_whole() {
        let parts = [
            "// Header.\n/// The module.\n#[allow(unused)]\npub mod data {\n/// A.\npub struct A { a: u8 }\n",
            "/// The impl.\nimpl A {\npub fn new() -> Self { A { a: 0 } }\n",
            "pub fn a_method_with_a_long_signature(&self, first_parameter: &str, second_parameter: ::std::string::String) -> u8 { self.a }\n",
            "}\nmod rt { pub fn f() {} }\n",
            "}\nfn outside() {}\n",
        ];
        let mut printer = Printer::default();
        let printed: String = parts.iter().map(|p| printer.part(p).expect("prints")).collect();
        assert!(printer.is_closed());
        assert_eq!(printed, whole(&parts.concat()).expect("parses"));
        let mut cut = Printer::default();
        assert!(cut.part("}\n").is_none(), "nothing open to close");
        assert!(cut.part("pub mod m {\n").is_some() && !cut.is_closed());
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
