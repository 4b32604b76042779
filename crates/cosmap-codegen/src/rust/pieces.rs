//! Where the items of Rust text begin and end, found by a small lexer (literals,
//! comments, brackets and words; nothing is parsed), so that `format.rs` can parse
//! and print a large generated file an item at a time: a syntax tree of a whole
//! data access module takes some fifty times its text (feature `format`).

use std::ops::Range;

/// One token as the lexer sees it: brackets, `;` and words matter; the rest is `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    /// `(`, `[` or `{`.
    Open(u8),
    /// `)`, `]` or `}`.
    Close(u8),
    /// `;`.
    Semi,
    /// An identifier or keyword (or a number's digits), by its byte range.
    Word(usize, usize),
    /// Any other punctuation or a literal.
    Other,
}

/// A lexer over `text` from a byte position: skips whitespace and comments, steps
/// over string, character and raw string literals whole; `None` at the end, and an
/// unterminated literal or comment ends the lexing with an error.
#[derive(Clone, Copy)]
struct Lexer<'t> {
    bytes: &'t [u8],
    pos: usize,
}

/// Why the text could not be split: the caller parses it whole instead.
#[derive(Debug)]
struct Unlexable;

impl<'t> Lexer<'t> {
    /// The next token, with the position it ends at (`self.pos` after it).
    fn next(&mut self) -> Result<Option<Token>, Unlexable> {
        self.skip_trivia()?;
        let Some(&b) = self.bytes.get(self.pos) else {
            return Ok(None);
        };
        self.pos += 1;
        Ok(Some(match b {
            b'(' | b'[' | b'{' => Token::Open(b),
            b')' | b']' | b'}' => Token::Close(b),
            b';' => Token::Semi,
            b'"' => {
                self.string()?;
                Token::Other
            }
            b'\'' => {
                self.quote()?;
                Token::Other
            }
            b if b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80 => self.word(self.pos - 1)?,
            _ => Token::Other,
        }))
    }

    /// Steps over whitespace, `//` comments and (nested) `/* */` comments.
    fn skip_trivia(&mut self) -> Result<(), Unlexable> {
        loop {
            let rest = &self.bytes[self.pos..];
            if rest.first().is_some_and(u8::is_ascii_whitespace) {
                self.pos += 1;
            } else if rest.starts_with(b"//") {
                self.pos += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            } else if rest.starts_with(b"/*") {
                let mut depth = 0usize;
                let mut i = 0;
                loop {
                    match rest.get(i..i + 2).ok_or(Unlexable)? {
                        b"/*" => (depth, i) = (depth + 1, i + 2),
                        b"*/" => (depth, i) = (depth - 1, i + 2),
                        _ => i += 1,
                    }
                    if depth == 0 {
                        break;
                    }
                }
                self.pos += i;
            } else {
                return Ok(());
            }
        }
    }

    /// Past the closing `"` of a string whose opening quote was just read.
    fn string(&mut self) -> Result<(), Unlexable> {
        while let Some(&b) = self.bytes.get(self.pos) {
            self.pos += if b == b'\\' { 2 } else { 1 };
            if b == b'"' {
                return Ok(());
            }
        }
        Err(Unlexable)
    }

    /// Past a character literal (`'x'`, `'\n'`, `'é'`) whose quote was just read, or
    /// past the quote alone for a lifetime or label (`'a`, `'_`).
    fn quote(&mut self) -> Result<(), Unlexable> {
        let rest = &self.bytes[self.pos..];
        if rest.first() == Some(&b'\\') {
            let close = rest.iter().skip(2).position(|&b| b == b'\'').ok_or(Unlexable)?;
            self.pos += close + 3;
            return Ok(());
        }
        // One character (its UTF-8 length from the leading byte), then a quote.
        let width = match rest.first() {
            Some(&b) if b >= 0xF0 => 4,
            Some(&b) if b >= 0xE0 => 3,
            Some(&b) if b >= 0xC0 => 2,
            Some(_) => 1,
            None => return Err(Unlexable),
        };
        if rest.get(width) == Some(&b'\'') {
            self.pos += width + 1;
        }
        Ok(())
    }

    /// The word starting at `start` (just read), or the raw string it prefixes
    /// (`r"…"`, `r#"…"#`, `br"…"`, `cr"…"`); a byte or C string's prefix is a word
    /// and its string follows.
    fn word(&mut self, start: usize) -> Result<Token, Unlexable> {
        while self
            .bytes
            .get(self.pos)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80)
        {
            self.pos += 1;
        }
        if matches!(&self.bytes[start..self.pos], b"r" | b"br" | b"cr") {
            let hashes = self.bytes[self.pos..].iter().take_while(|&&b| b == b'#').count();
            if self.bytes.get(self.pos + hashes) == Some(&b'"') {
                let mut close = vec![b'"'];
                close.extend(std::iter::repeat_n(b'#', hashes));
                let from = self.pos + hashes + 1;
                let end = self.bytes[from..]
                    .windows(close.len())
                    .position(|w| w == close.as_slice())
                    .ok_or(Unlexable)?;
                self.pos = from + end + close.len();
                return Ok(Token::Other);
            }
        }
        Ok(Token::Word(start, self.pos))
    }
}

/// The items directly in `text[range]` (a file's text, or a module's or impl
/// block's body), each its byte range with the comments and attributes before it;
/// `None` where the text does not lex, its brackets do not balance, or text other
/// than whitespace follows the last item.
pub(crate) fn items(text: &str, range: Range<usize>) -> Option<Vec<Range<usize>>> {
    let mut pieces = Vec::new();
    split(text, range, &mut pieces)?;
    pieces
        .into_iter()
        .map(|piece| match piece {
            Piece::Item(item) => Some(item),
            Piece::Open { .. } | Piece::Close => None,
        })
        .collect()
}

/// One piece of a part of a file rendered a part at a time, where a block opened in
/// one part may close in a later one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    /// A whole item, its byte range with the comments and attributes before it.
    Item(Range<usize>),
    /// A block left open at the part's end: from its attributes (`start`) to just past
    /// its `{` (`body`, where its items begin; they are the pieces that follow).
    Open { start: usize, body: usize },
    /// A `}` closing the innermost block opened before.
    Close,
}

/// The pieces of `text`, the next part of a file: its whole items, the `}`s that
/// close blocks opened in earlier parts, and at its end a block left open, whose
/// items (and any block left open in it) follow; `None` where the text does not lex,
/// an item is cut short by a `}`, or a bracket other than `{` is left open.
pub(crate) fn fragment(text: &str) -> Option<Vec<Piece>> {
    let mut pieces = Vec::new();
    split(text, 0..text.len(), &mut pieces)?;
    Some(pieces)
}

/// Appends the pieces of `text[range]` to `pieces` ([`fragment`]).
fn split(text: &str, range: Range<usize>, pieces: &mut Vec<Piece>) -> Option<()> {
    let mut lexer = Lexer {
        bytes: &text.as_bytes()[..range.end],
        pos: range.start,
    };
    let mut start = range.start;
    let mut depth = 0usize;
    // Where the bracket that took the depth from 0 to 1 ends, and whether it is a `{`.
    let mut opened = None;
    let mut begun = false;
    while let Some(token) = lexer.next().ok()? {
        let end = match token {
            Token::Open(open) => {
                if depth == 0 {
                    opened = (open == b'{').then_some(lexer.pos);
                }
                (depth, begun) = (depth + 1, true);
                continue;
            }
            Token::Close(b'}') if depth == 0 && !begun => {
                pieces.push(Piece::Close);
                start = lexer.pos;
                continue;
            }
            Token::Close(close) => {
                depth = depth.checked_sub(1)?;
                // `const X: T = T { … };` goes on to its `;`.
                let mut ahead = lexer;
                if depth > 0 || close != b'}' || ahead.next().ok()? == Some(Token::Semi) {
                    continue;
                }
                lexer.pos
            }
            Token::Semi if depth == 0 => lexer.pos,
            _ => {
                begun = true;
                continue;
            }
        };
        pieces.push(Piece::Item(start..end));
        (start, begun) = (end, false);
    }
    if depth == 0 {
        return text[start..range.end].trim().is_empty().then_some(());
    }
    let body = opened?;
    pieces.push(Piece::Open { start, body });
    split(text, body..range.end, pieces)
}

/// The body of the item `text[item]` (between its braces) if it is a module or an
/// impl block with one, with where its attributes end (its header starts); `None`
/// for any other item, or a body that starts with inner attributes (`#![…]`, `//!`).
pub(crate) fn block_body(text: &str, item: Range<usize>) -> Option<(usize, Range<usize>)> {
    let mut lexer = Lexer {
        bytes: &text.as_bytes()[..item.end],
        pos: item.start,
    };
    // The attributes (`#` and a bracketed group each), then the header's words: the
    // first after the visibility and qualifiers says what the item is (a function
    // returning `impl Trait` is no block).
    let mut header = None;
    let mut depth = 0usize;
    let mut kind = None;
    loop {
        match lexer.next().ok()?? {
            Token::Open(b'{') if depth == 0 => break,
            Token::Open(_) => depth += 1,
            Token::Close(_) => depth = depth.checked_sub(1)?,
            Token::Word(s, e) if depth == 0 => {
                header.get_or_insert(s);
                if kind.is_none() && !matches!(&text[s..e], "pub" | "unsafe" | "default") {
                    kind = Some(&text[s..e]);
                }
            }
            Token::Other if depth == 0 && header.is_none() && text.as_bytes()[lexer.pos - 1] != b'#' => return None,
            _ => {}
        }
    }
    let open = lexer.pos;
    let body = open..text[..item.end].trim_end().strip_suffix('}')?.len();
    let first = text[body.clone()].trim_start();
    let inner = first.starts_with("#!") || first.starts_with("//!") || first.starts_with("/*!");
    let block = matches!(kind, Some("mod" | "impl"));
    (block && !inner && body.start <= body.end).then_some((header?, body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(text: &str) -> Vec<&str> {
        items(text, 0..text.len())
            .expect("lexes")
            .into_iter()
            .map(|r| text[r].trim())
            .collect()
    }

    #[test]
    fn items_end_at_their_closing_brace_or_semicolon() {
        let text = "/// A { doc.\n#[derive(Debug)]\npub struct A { a: [u8; 2] }\nconst B: A = A { a: [0; 2] };\nfn c() -> &'static str { let _ = '}'; \"}\\\"\" }\nuse x::y;\n";
        assert_eq!(
            pieces(text),
            [
                "/// A { doc.\n#[derive(Debug)]\npub struct A { a: [u8; 2] }",
                "const B: A = A { a: [0; 2] };",
                "fn c() -> &'static str { let _ = '}'; \"}\\\"\" }",
                "use x::y;"
            ]
        );
    }

    #[test]
    fn raw_strings_comments_and_lifetimes_hide_no_brackets() {
        let text =
            "fn a<'a>(x: &'a str) -> &'a str { /* } /* { */ } */ let _ = r#\"}\"#; let _ = 'é'; x }\nfn b() {}\n";
        assert_eq!(pieces(text).len(), 2, "{:?}", pieces(text));
    }

    #[test]
    fn unbalanced_or_unterminated_text_is_not_split() {
        for text in ["fn a() {", "fn a() }", "fn a() { \"x }", "fn a() {} trailing", "/* a"] {
            assert!(items(text, 0..text.len()).is_none(), "{text}");
        }
    }

    #[test]
    fn a_part_closes_blocks_opened_before_and_leaves_its_last_block_open() {
        let text =
            "}\n    }\nfn a() {}\n/// Doc.\npub mod m {\n    const B: u8 = 1;\n    impl X {\n        fn c() {}\n";
        let pieces = fragment(text).expect("splits");
        let [Piece::Close, Piece::Close, Piece::Item(a), Piece::Open { start, body }, Piece::Item(b), Piece::Open { body: inner, .. }, Piece::Item(c)] =
            &pieces[..]
        else {
            panic!("{pieces:?}");
        };
        assert_eq!(text[a.clone()].trim(), "fn a() {}");
        assert_eq!(&text[*start..*body], "\n/// Doc.\npub mod m {");
        assert_eq!(text[b.clone()].trim(), "const B: u8 = 1;");
        assert_eq!(&text[inner - 8..*inner], "impl X {");
        assert_eq!(text[c.clone()].trim(), "fn c() {}");
        for cut in ["fn a() }", "fn a() (", "fn a() { \"x }"] {
            assert!(fragment(cut).is_none(), "{cut}");
        }
    }

    #[test]
    fn modules_and_impl_blocks_have_bodies_and_other_items_not() {
        let text = "/// Doc.\n#[cfg(x)]\npub mod m { fn a() {} }";
        let (header, body) = block_body(text, 0..text.len()).expect("a module");
        assert_eq!(
            (&text[header..body.start], text[body].trim()),
            ("pub mod m {", "fn a() {}")
        );
        let text = "impl<T> X<T> for Y { fn a() {} }";
        assert!(block_body(text, 0..text.len()).is_some());
        for text in [
            "pub struct S { a: u8 }",
            "fn f() { impl X {} }",
            "mod m;",
            "mod m { #![allow(x)] }",
        ] {
            assert!(block_body(text, 0..text.len()).is_none(), "{text}");
        }
    }
}
