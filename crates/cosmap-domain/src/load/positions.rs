//! Finds the line and column of JSON paths in a model's text, so problems found
//! after parsing (wrong types, unknown names) can point into the file, and finds
//! object keys written twice (which `serde_json` silently collapses to the last).
//!
//! Runs over text that `serde_json` already accepted (so nesting is bounded by
//! its recursion limit), in one linear pass.

use std::collections::{HashMap, HashSet};

use crate::diagnostic::{JsonPath, PathSegment};

/// Line and column (1-based, columns counted in characters) of each wanted path
/// that occurs in `text`: the key of an object member, the start of an array element.
pub fn locate(text: &str, wanted: &[&JsonPath]) -> HashMap<JsonPath, (usize, usize)> {
    let wanted: HashSet<Vec<PathSegment>> = wanted.iter().map(|p| p.0.clone()).collect();
    scan(text, wanted).found
}

/// A key that occurs twice in one JSON object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// The member's path (the same for both occurrences).
    pub path: JsonPath,
    /// Line and column of the first occurrence.
    pub first: (usize, usize),
    /// Line and column of the repeated occurrence.
    pub again: (usize, usize),
}

/// Every key written more than once in the same object, in file order.
pub fn duplicate_keys(text: &str) -> Vec<DuplicateKey> {
    scan(text, HashSet::new()).duplicates
}

fn scan(text: &str, wanted: HashSet<Vec<PathSegment>>) -> Scanner<'_> {
    let mut scanner = Scanner {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        line: 1,
        column: 1,
        path: Vec::new(),
        wanted,
        found: HashMap::new(),
        duplicates: Vec::new(),
    };
    scanner.skip_ws();
    let here = scanner.position();
    scanner.record(here);
    scanner.value(0);
    scanner
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    line: usize,
    /// Column of `pos` in characters, kept up to date by [`Scanner::bump`] so that
    /// positions on very long (minified) lines cost nothing to compute.
    column: usize,
    path: Vec<PathSegment>,
    wanted: HashSet<Vec<PathSegment>>,
    found: HashMap<JsonPath, (usize, usize)>,
    duplicates: Vec<DuplicateKey>,
}

/// Deeper than serde_json's own limit; text that deep was never accepted.
const MAX_DEPTH: usize = 256;

impl<'a> Scanner<'a> {
    fn position(&self) -> (usize, usize) {
        (self.line, self.column)
    }

    fn record(&mut self, at: (usize, usize)) {
        if self.wanted.contains(self.path.as_slice()) {
            self.found.entry(JsonPath(self.path.clone())).or_insert(at);
        }
    }

    fn bump(&mut self) {
        let byte = self.bytes[self.pos];
        if byte == b'\n' {
            self.line += 1;
            self.column = 1;
        } else if byte & 0xC0 != 0x80 {
            // The first byte of a character (not a UTF-8 continuation byte).
            self.column += 1;
        }
        self.pos += 1;
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.bump();
        }
    }

    fn value(&mut self, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        self.skip_ws();
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => {
                self.string();
            }
            Some(_) => {
                while matches!(self.peek(), Some(c) if !matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                {
                    self.bump();
                }
            }
            None => {}
        }
    }

    /// Consumes a string literal and returns it as written (with quotes and escapes).
    fn string(&mut self) -> &'a str {
        let start = self.pos;
        self.bump();
        while let Some(c) = self.peek() {
            match c {
                b'\\' => {
                    self.bump();
                    if self.peek().is_some() {
                        self.bump();
                    }
                }
                b'"' => {
                    self.bump();
                    break;
                }
                _ => self.bump(),
            }
        }
        &self.text[start..self.pos]
    }

    fn object(&mut self, depth: usize) {
        self.bump();
        // Each key of this object and where it first occurs.
        let mut keys: HashMap<String, (usize, usize)> = HashMap::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'"') => {
                    let at = self.position();
                    let key: String = serde_json::from_str(self.string()).unwrap_or_default();
                    self.path.push(PathSegment::Key(key.clone()));
                    match keys.get(&key) {
                        Some(&first) => self.duplicates.push(DuplicateKey {
                            path: JsonPath(self.path.clone()),
                            first,
                            again: at,
                        }),
                        None => {
                            keys.insert(key, at);
                        }
                    }
                    self.record(at);
                    self.skip_ws();
                    if self.peek() == Some(b':') {
                        self.bump();
                    }
                    self.value(depth + 1);
                    self.path.pop();
                }
                Some(b',') => self.bump(),
                Some(b'}') => {
                    self.bump();
                    return;
                }
                _ => return,
            }
        }
    }

    fn array(&mut self, depth: usize) {
        self.bump();
        let mut index = 0;
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b']') => {
                    self.bump();
                    return;
                }
                Some(b',') => {
                    self.bump();
                    index += 1;
                }
                Some(_) => {
                    self.path.push(PathSegment::Index(index));
                    let at = self.position();
                    self.record(at);
                    self.value(depth + 1);
                    self.path.pop();
                }
                None => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keys_and_elements() {
        let text = "{\n  \"entities\": [\n    {\"name\": \"Ä\", \"x\": 1},\n    {\"name\": \"B\"}\n  ]\n}";
        let a = JsonPath::root().key("entities").index(1).key("name");
        let b = JsonPath::root().key("entities").index(0).key("x");
        let c = JsonPath::root().key("entities").index(1);
        let found = locate(text, &[&a, &b, &c]);
        assert_eq!(found[&a], (4, 6));
        assert_eq!(found[&b], (3, 19));
        assert_eq!(found[&c], (4, 5));
    }

    #[test]
    fn finds_duplicate_keys() {
        let text = "{\"a\": {\"b\": 1, \"ä\": 2,\n \"b\": 3}, \"c\": [{\"b\": 1}, {\"b\": 2}]}";
        let found = duplicate_keys(text);
        assert_eq!(
            found,
            vec![DuplicateKey {
                path: JsonPath::root().key("a").key("b"),
                first: (1, 8),
                again: (2, 2),
            }]
        );
    }
}
