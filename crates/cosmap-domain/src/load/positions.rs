//! Finds the line and column of JSON paths in a model's text, so problems found
//! after parsing (wrong types, unknown names) can point into the file.
//!
//! Runs only when there is something to report, over text that `serde_json`
//! already accepted (so nesting is bounded by its recursion limit).

use std::collections::{HashMap, HashSet};

use crate::diagnostic::{JsonPath, PathSegment};

/// Line and column (1-based, columns counted in characters) of each wanted path
/// that occurs in `text`: the key of an object member, the start of an array element.
pub fn locate(text: &str, wanted: &[&JsonPath]) -> HashMap<JsonPath, (usize, usize)> {
    let wanted: HashSet<Vec<PathSegment>> = wanted.iter().map(|p| p.0.clone()).collect();
    let mut scanner = Scanner {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        line: 1,
        line_start: 0,
        path: Vec::new(),
        wanted,
        found: HashMap::new(),
    };
    scanner.skip_ws();
    let here = scanner.position();
    scanner.record(here);
    scanner.value(0);
    scanner.found
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    line: usize,
    line_start: usize,
    path: Vec<PathSegment>,
    wanted: HashSet<Vec<PathSegment>>,
    found: HashMap<JsonPath, (usize, usize)>,
}

/// Deeper than serde_json's own limit; text that deep was never accepted.
const MAX_DEPTH: usize = 256;

impl Scanner<'_> {
    fn position(&self) -> (usize, usize) {
        let col = self.text[self.line_start..self.pos].chars().count() + 1;
        (self.line, col)
    }

    fn record(&mut self, at: (usize, usize)) {
        if self.wanted.contains(self.path.as_slice()) {
            self.found.entry(JsonPath(self.path.clone())).or_insert(at);
        }
    }

    fn bump(&mut self) {
        if self.bytes[self.pos] == b'\n' {
            self.line += 1;
            self.line_start = self.pos + 1;
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

    /// Consumes a string literal and returns its decoded text.
    fn string(&mut self) -> String {
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
        serde_json::from_str(&self.text[start..self.pos]).unwrap_or_default()
    }

    fn object(&mut self, depth: usize) {
        self.bump();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'"') => {
                    let at = self.position();
                    let key = self.string();
                    self.path.push(PathSegment::Key(key));
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
}
