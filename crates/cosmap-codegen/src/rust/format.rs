//! Parsing the rendered Rust with `syn` and printing it with `prettyplease`, in
//! chunks of top-level items on every core.
//!
//! A large model renders megabytes of Rust whose syntax tree is many times that
//! size. Split at top-level item boundaries, the chunks are parsed and printed
//! on parallel threads, one chunk's tree alive at a time per thread, and the
//! printed chunks concatenate to exactly what printing the whole file gives.
//! If any chunk fails to parse, the whole text is parsed once more, so an
//! error is reported where the compiler would report it.

use std::ops::Range;

/// Below this many bytes a file is parsed in one piece: threads do not pay.
const MIN_CHUNK_BYTES: usize = 256 * 1024;
/// Chunks stay about this small, however large the file: a syntax tree takes many
/// times the bytes of its text, and each thread holds one chunk's tree at a time.
const MAX_CHUNK_BYTES: usize = 1024 * 1024;

/// Stack of each worker thread: what a main thread gets on Linux.
const WORKER_STACK_BYTES: usize = 8 * 1024 * 1024;

/// Where and why the rendered Rust does not parse (1-based line and column).
#[derive(Debug)]
pub(crate) struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// `text` parsed and pretty-printed, or the parse error of the whole text.
pub(crate) fn parse_and_print(text: &str) -> Result<String, ParseError> {
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let chunks = chunks(text, workers);
    let workers = workers.min(chunks.len());
    let mut printed: Vec<Option<String>> = vec![None; chunks.len()];
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let chunks = &chunks;
                // The main thread's stack size, for syn's recursive descent. A thread
                // that cannot start leaves its chunks unprinted: the whole text is then
                // parsed on this thread.
                std::thread::Builder::new()
                    .stack_size(WORKER_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mine = (w..chunks.len()).step_by(workers);
                        mine.map(|i| (i, print_chunk(&text[chunks[i].clone()])))
                            .collect::<Vec<_>>()
                    })
                    .ok()
            })
            .collect();
        for handle in handles.into_iter().flatten() {
            for (i, chunk) in handle.join().unwrap_or_default() {
                printed[i] = chunk;
            }
        }
    });
    match printed.into_iter().collect::<Option<Vec<String>>>() {
        Some(parts) => Ok(parts.concat()),
        None => {
            let whole = syn::parse_file(text)
                .map(|file| prettyplease::unparse(&file))
                .map_err(|e| {
                    let start = e.span().start();
                    ParseError {
                        line: start.line,
                        column: start.column + 1,
                        message: e.to_string(),
                    }
                });
            proc_macro2::extra::invalidate_current_thread_spans();
            whole
        }
    }
}

/// One chunk printed, or `None` when it does not parse on its own.
fn print_chunk(text: &str) -> Option<String> {
    let printed = syn::parse_file(text).ok().map(|file| prettyplease::unparse(&file));
    // Spans are recorded per thread (for line:column) until dropped explicitly.
    proc_macro2::extra::invalidate_current_thread_spans();
    printed
}

/// Splits `text` into contiguous ranges, each ending at a top-level item boundary
/// (see [`boundaries`]): about a `workers`-th of the text each, kept between
/// [`MIN_CHUNK_BYTES`] (but the last) and [`MAX_CHUNK_BYTES`] (unless one item is larger).
fn chunks(text: &str, workers: usize) -> Vec<Range<usize>> {
    let target = (text.len() / workers.max(1)).clamp(MIN_CHUNK_BYTES, MAX_CHUNK_BYTES);
    let mut ranges = Vec::new();
    let mut start = 0;
    for end in boundaries(text) {
        if end - start >= target && text.len() - end >= MIN_CHUNK_BYTES {
            ranges.push(start..end);
            start = end;
        }
    }
    ranges.push(start..text.len());
    ranges
}

/// Byte offsets where a top-level item may end: the start of the line after a
/// `}` or `;` that closes nesting depth 0, outside strings, characters and
/// comments. It scans rather than parses: a wrong boundary leaves a chunk that
/// does not parse, and [`parse_and_print`] then parses the whole text.
fn boundaries(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let (mut i, mut depth, mut closed) = (0usize, 0i64, false);
    while i < bytes.len() {
        match bytes[i] {
            b'\n' if closed => {
                found.push(i + 1);
                closed = false;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = memchr(b'\n', bytes, i).unwrap_or(bytes.len());
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = block_comment_end(bytes, i);
                continue;
            }
            b'"' => {
                i = string_end(bytes, i + 1);
                continue;
            }
            b'r' if raw_string_start(bytes, i).is_some() => {
                let (hashes, open) = raw_string_start(bytes, i).unwrap_or_default();
                i = raw_string_end(bytes, open, hashes);
                continue;
            }
            b'\'' => {
                i = char_end(bytes, i);
                continue;
            }
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => {
                depth -= 1;
                closed = depth == 0 && bytes[i] == b'}';
            }
            b';' if depth == 0 => closed = true,
            b' ' | b'\t' | b'\r' => {}
            _ => closed = false,
        }
        i += 1;
    }
    found
}

fn memchr(needle: u8, bytes: &[u8], from: usize) -> Option<usize> {
    bytes[from..].iter().position(|&b| b == needle).map(|p| from + p)
}

/// The index after the `*/` that closes the (nestable) block comment at `start`.
fn block_comment_end(bytes: &[u8], start: usize) -> usize {
    let (mut i, mut depth) = (start + 2, 1);
    while i < bytes.len() {
        if bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'*') {
            depth += 1;
            i += 2;
        } else if bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    bytes.len()
}

/// The index after the `"` that closes a string whose contents start at `i`.
fn string_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// For a raw string (`r"`, `r#"`, `br"`…) starting at the `r` at `i`: its `#`
/// count and the index of its contents. `None` for an identifier such as `ref`.
fn raw_string_start(bytes: &[u8], i: usize) -> Option<(usize, usize)> {
    let previous = i.checked_sub(1).map(|p| bytes[p]);
    if previous.is_some_and(|p| (p.is_ascii_alphanumeric() || p == b'_') && p != b'b' && p != b'c') {
        return None;
    }
    let hashes = bytes[i + 1..].iter().take_while(|&&b| b == b'#').count();
    (bytes.get(i + 1 + hashes) == Some(&b'"')).then_some((hashes, i + 2 + hashes))
}

/// The index after the `"` and `hashes` `#`s that close a raw string.
fn raw_string_end(bytes: &[u8], mut i: usize, hashes: usize) -> usize {
    while i < bytes.len() {
        if bytes[i] == b'"' && bytes[i + 1..].iter().take(hashes).filter(|&&b| b == b'#').count() == hashes {
            return i + 1 + hashes;
        }
        i += 1;
    }
    bytes.len()
}

/// The index after a character literal at `i` (`'a'`, `'\n'`, `'\u{1F600}'`),
/// or after the quote of a lifetime or label (`'a`, `'static`).
fn char_end(bytes: &[u8], i: usize) -> usize {
    if bytes.get(i + 1) == Some(&b'\\') {
        return memchr(b'\'', bytes, i + 3).map_or(bytes.len(), |q| q + 1);
    }
    // One character (of up to four UTF-8 bytes) and a closing quote: a literal.
    let width = bytes.get(i + 1).map_or(1, |&b| utf8_width(b));
    if bytes.get(i + 1 + width) == Some(&b'\'') {
        i + 2 + width
    } else {
        i + 1
    }
}

fn utf8_width(first: u8) -> usize {
    match first {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(text: &str) -> String {
        prettyplease::unparse(&syn::parse_file(text).expect("parses"))
    }

    #[test]
    fn boundaries_skip_strings_comments_and_characters() {
        let text = "mod a { fn f() { let s = \"}\\\";\"; } }\n\
                    // } ;\n\
                    const C: char = '}';\n\
                    /* } /* ; */ } */ static R: &str = r#\"}\n;\"#;\n\
                    fn g<'a>(x: &'a str) -> &'a str { x }\n";
        let ends: Vec<&str> = boundaries(text).iter().map(|&b| &text[..b]).collect();
        assert_eq!(ends.len(), 4, "{ends:#?}");
        assert!(ends[0].ends_with("} }\n"));
        assert!(ends[1].ends_with("'}';\n"));
        assert!(ends[2].ends_with("\"#;\n"));
        assert!(ends[3].ends_with("{ x }\n"));
    }

    #[test]
    fn chunked_printing_matches_printing_the_whole_file() {
        let item = "/// Doc.\n#[derive(Debug)]\npub struct S { pub a: u8, pub b: ::std::string::String }\nimpl S { pub fn f(&self) -> u8 { match self.a { 0 => 1, _ => 2 } } }\npub mod m { pub const X: &str = \"}\"; }\n";
        let text = format!("//! Inner doc.\n{}", item.repeat(MIN_CHUNK_BYTES / item.len() * 3));
        assert!(chunks(&text, 2).len() > 1, "the test text must split");
        assert_eq!(parse_and_print(&text).expect("parses"), whole(&text));
    }

    #[test]
    fn an_error_is_reported_where_the_whole_file_has_it() {
        let good = "pub struct S { pub a: u8 }\n".repeat(MIN_CHUNK_BYTES / 20);
        let text = format!("{good}pub struct Bad {{ a: }}\n{good}");
        let line = good.lines().count() + 1;
        let error = parse_and_print(&text).expect_err("does not parse");
        assert_eq!((error.line, error.column), (line, 21), "{error:?}");
    }
}
