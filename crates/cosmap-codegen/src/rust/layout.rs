//! Breaking the long lines of the built-in template's output where `prettyplease`
//! breaks them, so that the built-in `cosmap.rs` is written without parsing it.
//!
//! The built-in template (`templates/cosmap.rs.hbs`) is laid out as `prettyplease`
//! prints it, with every construct whose layout depends on the model's names on
//! one line: a field and its type, a signature, a struct literal's field, a match
//! arm, an `impl … for …` header, an attribute. [`lay_out`] keeps each line that
//! fits and breaks the others as `prettyplease` would, mirroring its algorithm (an
//! Oppen pretty-printer) for exactly those constructs:
//!
//! - a line fits when it ends by column [`MARGIN`] (89; at an indentation over 29,
//!   60 columns past it), counting the text up to the next place `prettyplease`
//!   may break;
//! - a bracketed, comma-separated list (`(…)` call arguments, parameters, tuple
//!   and variant fields; `<…>` generic arguments; `[…]` an array of strings) that
//!   does not fit, with what follows it up to the next break, is broken: one item
//!   a line, indented 4 past the line, each ending with `,`, and the closing
//!   bracket on a line of its own;
//! - an attribute's list (`#[serde(…)]`) breaks alike, without the trailing comma;
//! - a match arm `pattern => body,` that does not fit becomes `pattern => {`, the
//!   body on a line of its own and `}`;
//! - a field access (`&source.a.b`) that does not fit puts each `.member` on a
//!   line of its own, 4 past the line;
//! - an `impl Trait for Type {` header that does not fit puts `for Type {` on a
//!   line of its own;
//! - an empty block closes on the line that opens it (`pub mod types {}`), and a
//!   doc comment loses its trailing spaces.
//!
//! A long line of any other shape (a closure, an operator, a `let`) is not one
//! the built-in template writes with names in it: [`lay_out`] then returns `None`,
//! and the caller parses and prints the file instead. The tests
//! (`tests/direct_format.rs`) check the result against `prettyplease` for every
//! example, test and synthetic model, drawn models and models of very long names.
//!
//! The emitter does not call [`lay_out`] on its text: it writes into a [`Writer`],
//! which notes the lines that may change as they are written and lays those out
//! when the text is done, and into which the emitter writes the long lines whose
//! structure it knows (a constructor's parameters, a match arm) already broken.
//! [`lay_out`], a pass over the whole text, stays the reference the tests compare
//! the writer with (`render_direct_after`).

use crate::options::TypeMapping;
use crate::spaces::push_spaces;

/// `prettyplease`'s margin: the column a line should end by.
pub const MARGIN: usize = 89;
/// Room `prettyplease` leaves on a deeply indented line, whatever the margin.
const MIN_SPACE: usize = 60;
/// Indentation of a broken list's items past the line's.
const INDENT: usize = 4;

/// The column a line indented `indent` must end by.
fn limit(indent: usize) -> usize {
    MARGIN.max(indent + MIN_SPACE)
}

/// Whether the built-in template's output for `mapping` can be laid out here: the
/// user's attributes (any text) and type paths other than plain ones (`a::B<c::D>`,
/// as `prettyplease` spells them) need the parse-and-print pass.
pub fn lays_out(mapping: &TypeMapping) -> bool {
    mapping.type_attributes.is_empty()
        && mapping.field_attributes.is_empty()
        && [&mapping.date_time, &mapping.date, &mapping.decimal, &mapping.uuid]
            .into_iter()
            .chain(mapping.extern_paths.iter().map(|(_, path)| path))
            .all(|ty| plain_type(ty))
}

/// Whether `ty` is a path with generic arguments spelled as `prettyplease` prints
/// it: words, `::`, `<`, `>`, `&` and `, ` only.
fn plain_type(ty: &str) -> bool {
    let bytes = ty.as_bytes();
    !ty.is_empty()
        && bytes.iter().enumerate().all(|(i, &b)| match b {
            b' ' => i > 0 && bytes[i - 1] == b',',
            b',' => bytes.get(i + 1) == Some(&b' '),
            b':' | b'<' | b'>' | b'&' => true,
            _ => is_word(b),
        })
        && !ty.replace("::", "").contains(':')
        && !ty.contains(", >")
}

/// From this many bytes [`lay_out`] lays the text out in two halves, one per thread.
const SPLIT_FROM: usize = 1 << 20;

/// `text` (the built-in template's output) with its long lines broken as
/// `prettyplease` breaks them and trailing spaces of doc comments dropped; `None`
/// when a long line is of a shape this does not lay out.
///
/// Each line is laid out on its own, looking at most at the next one (an empty
/// block, a struct literal's last field), so a large text is split after a line that
/// closes a top-level item (`}` alone, which neither opens a block nor is long) near
/// its middle and the halves laid out on two threads: the same text as one pass.
pub fn lay_out(text: &str) -> Option<String> {
    let middle = text.len() / 2;
    // Searched byte by byte: the middle need not be a character boundary, a line
    // break always is.
    let split = (text.len() >= SPLIT_FROM)
        .then(|| text.as_bytes()[middle..].windows(3).position(|w| w == b"\n}\n"))
        .flatten()
        .map(|i| middle + i + 3);
    let Some(split) = split else {
        return lay_out_lines(text);
    };
    let (first, second) = text.split_at(split);
    let (first, second) = std::thread::scope(|scope| {
        let second = scope.spawn(|| lay_out_lines(second));
        let first = lay_out_lines(first);
        (
            first,
            second.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        )
    });
    let mut out = first?;
    out.push_str(&second?);
    Some(out)
}

/// [`lay_out`] in one pass, line by line.
fn lay_out_lines(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len() + text.len() / 32);
    // Lines left as they are (nearly all) are copied in runs, from `copied` on.
    let (mut copied, mut start) = (0, 0);
    while start < text.len() {
        let mut end = line_end(text, start);
        let line = &text[start..end];
        if !may_change(line) {
            start = end + 1;
            continue;
        }
        let next = (end < text.len()).then(|| &text[end + 1..line_end(text, end + 1)]);
        let change = change(line, next);
        if change == Change::None {
            start = end + 1;
            continue;
        }
        out.push_str(&text[copied..start]);
        apply(line, change, &mut out)?;
        if change == Change::CloseEmpty {
            end += 1 + next.map_or(0, str::len);
        }
        copied = end.min(text.len());
        start = end + 1;
    }
    out.push_str(&text[copied..]);
    Some(out)
}

/// Whether `line` may be changed by the layout: it is long, opens a block or ends
/// with a space. Nearly no other line is looked at further.
fn may_change(line: &str) -> bool {
    line.len() > MARGIN || line.ends_with('{') || line.ends_with(' ')
}

/// What the layout does to a line.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Change {
    /// Nothing: it stays as it is.
    None,
    /// An empty block: `prettyplease` closes it on the line that opens it (the next
    /// line, its `}`, is joined to it).
    CloseEmpty,
    /// A doc comment: `prettyplease` trims its trailing spaces.
    TrimDoc,
    /// A long line, broken by [`long_line`]; `last_field`: the next line closes a
    /// block (a struct literal's last field has no counted comma).
    Break { last_field: bool },
}

/// What the layout does to `line`, given `next`, the line after it (`None` when
/// `line` ends the text without a line break).
fn change(line: &str, next: Option<&str>) -> Change {
    let body = line.trim_start_matches(' ');
    let indent = line.len() - body.len();
    let empty_block = body.ends_with('{')
        && next.is_some_and(|n| n.len() == indent + 1 && n.ends_with('}') && n.starts_with(&line[..indent]));
    if empty_block {
        Change::CloseEmpty
    } else if body.starts_with("///") && line.ends_with(' ') {
        Change::TrimDoc
    } else if line.len() > limit(indent) && !body.starts_with("//") {
        Change::Break {
            last_field: next.is_some_and(|n| n.trim() == "}"),
        }
    } else {
        Change::None
    }
}

/// Writes `line` changed as `change` says (not [`Change::None`]) at the end of
/// `out`: for [`Change::CloseEmpty`] with its `}`, the caller drops the next line.
/// `None` when a long line is of a shape this does not lay out.
fn apply(line: &str, change: Change, out: &mut String) -> Option<()> {
    let body = line.trim_start_matches(' ');
    let indent = line.len() - body.len();
    match change {
        Change::None => out.push_str(line),
        Change::CloseEmpty => {
            out.push_str(line);
            out.push('}');
        }
        Change::TrimDoc => out.push_str(line.trim_end_matches(' ')),
        Change::Break { last_field } => {
            out.push_str(&line[..indent]);
            long_line(body, indent, last_field, out)?;
        }
    }
    Some(())
}

/// Bytes of text reserved per line [`Writer`] notes, to size its list of them: the
/// built-in `cosmap.rs` notes a line in about 300 bytes (96,000 of the 1,000-aggregate
/// model's 28 MB), where growing the list by doubling copied it 16 times.
const TEXT_PER_NOTED_LINE: usize = 256;

/// Text written piece by piece and laid out as [`lay_out`] lays out the whole
/// text, without reading it again: the emitter writes the built-in `cosmap.rs`
/// into it. The long lines whose structure the emitter knows (a constructor's
/// parameters, a match arm) it writes already broken ([`Writer::constructor`],
/// [`Writer::arm`]) instead of whole for [`long_line`] to parse, and each line
/// written that may change ([`may_change`]) is noted as it is written, so that
/// [`Writer::finish`] looks at those lines alone (with the line after each, on
/// which their layout depends), and copies the text only if one changes.
pub struct Writer {
    out: String,
    /// Whether lines are laid out (else the text is kept as it is written).
    lays_out: bool,
    /// Where the line being written starts (after the last line break).
    line_start: usize,
    /// Where each complete line that may change starts and ends, in order.
    noted: Vec<(usize, usize)>,
    /// How many line breaks it wrote itself or were in the text it was given as
    /// lines ([`Writer::text`], [`Writer::lines`]): unless it `scans`, the parts of
    /// a line ([`Writer::line`]) are taken to hold none, which
    /// [`Writer::hid_a_break`] checks once by counting the text's line breaks.
    breaks: usize,
    /// Each line written by [`Writer::line`] is searched for a line break in its
    /// parts (a text whose parts may hold some, [`Writer::scanning`]).
    scans: bool,
}

impl Writer {
    /// An empty text of `capacity` bytes; laid out as it is written when `lays_out`.
    pub fn new(capacity: usize, lays_out: bool) -> Writer {
        Writer {
            out: String::with_capacity(capacity),
            lays_out,
            line_start: 0,
            noted: Vec::with_capacity(if lays_out { capacity / TEXT_PER_NOTED_LINE } else { 0 }),
            breaks: 0,
            scans: false,
        }
    }

    /// The writer, searching each line written by [`Writer::line`] for a line break
    /// in its parts: for a text written again after [`Writer::hid_a_break`].
    pub fn scanning(mut self) -> Writer {
        self.scans = true;
        self
    }

    /// Whether a part of a line held a line break, so that the line was noted
    /// whole where it is several: the text must then be written again by a
    /// [`Writer::scanning`] writer to be laid out right. Never when not laid out.
    pub fn hid_a_break(&self) -> bool {
        self.lays_out && memchr::memchr_iter(b'\n', self.out.as_bytes()).count() != self.breaks
    }

    /// Appends `text`: any number of lines, or part of one. Its first line and
    /// its last complete line are looked at; the lines between must be text the
    /// layout keeps as it is (the built-in template's own lines, laid out
    /// already), and are not: most of the template's text is written by this.
    pub fn text(&mut self, text: &str) {
        let from = self.out.len();
        self.out.push_str(text);
        if self.lays_out {
            self.noted_ends(from, Lines::found(text));
        }
    }

    /// Notes the first and the last complete line of `lines`, written from `from`
    /// on, and takes the lines between as kept (checked in debug builds).
    fn noted_ends(&mut self, from: usize, lines: Lines) {
        self.breaks += lines.breaks;
        let Some(first) = lines.first_break else {
            return;
        };
        self.note(self.line_start, from + first);
        if lines.last_break > first {
            #[cfg(debug_assertions)]
            self.check_kept(from + first + 1, from + lines.last_start);
            self.note(from + lines.last_start, from + lines.last_break);
        }
        self.line_start = from + lines.last_break + 1;
    }

    /// Appends `lines`, the template's own text whose line breaks were found when
    /// it was compiled: [`Writer::text`] without looking for them.
    pub fn lines(&mut self, lines: Lines) {
        let from = self.out.len();
        self.out.push_str(lines.text);
        if self.lays_out {
            self.noted_ends(from, lines);
        }
    }

    /// Appends `text`, any text, each line of it looked at (for tests: the emitter
    /// writes the template's own text with [`Writer::text`]).
    #[cfg(test)]
    fn any_text(&mut self, text: &str) {
        let from = self.out.len();
        self.out.push_str(text);
        self.scan(from);
    }

    /// Checks that the layout keeps the complete lines from `start` up to `end`
    /// as they are, given the line after each (a long line may be one it leaves
    /// whole): what [`Writer::text`] takes for granted of its lines but the first
    /// and the last.
    #[cfg(debug_assertions)]
    fn check_kept(&self, start: usize, end: usize) {
        let mut at = start;
        while at < end {
            let end_of_line = line_end(&self.out, at);
            let after = (end_of_line + 1).min(self.out.len());
            let line = &self.out[at..end_of_line];
            let change = change(line, Some(&self.out[after..line_end(&self.out, after)]));
            let mut laid = String::new();
            let kept = change == Change::None
                || (change != Change::CloseEmpty && apply(line, change, &mut laid).is_some() && laid == line);
            debug_assert!(kept, "Writer::text: a line the layout changes: {line:?}");
            at = end_of_line + 1;
        }
    }

    /// Appends one line: `parts` one after the other, then a line break. Unless it
    /// [`Writer::scanning`], the parts are taken to hold no line break, not searched
    /// for one (each line of the text is written this way): [`Writer::hid_a_break`]
    /// checks it once for the whole text.
    pub fn line(&mut self, parts: &[&str]) {
        let from = self.out.len();
        for part in parts {
            self.out.push_str(part);
        }
        self.end_line(from);
    }

    /// [`Writer::line`] of parts that hold line breaks (a codec's body): each line
    /// of it looked at.
    pub fn broken_line(&mut self, parts: &[&str]) {
        let from = self.out.len();
        for part in parts {
            self.out.push_str(part);
        }
        self.out.push('\n');
        if self.lays_out {
            self.scan(from);
        }
    }

    /// Ends the line written from `from` on (where a line starts, almost always)
    /// with a line break, and notes it if it may change.
    fn end_line(&mut self, from: usize) {
        let end = self.out.len();
        self.out.push('\n');
        if !self.lays_out {
            return;
        }
        if self.line_start == from && !self.scans {
            // Its parts taken to hold no line break: checked by `hid_a_break`.
            self.breaks += 1;
            self.note(from, end);
            self.line_start = end + 1;
        } else {
            self.scan(from);
        }
    }

    /// Notes each line completed by the text written from `from` on.
    fn scan(&mut self, from: usize) {
        let mut pos = from;
        while let Some(i) = memchr::memchr(b'\n', &self.out.as_bytes()[pos..]) {
            self.note(self.line_start, pos + i);
            pos += i + 1;
            self.line_start = pos;
            self.breaks += 1;
        }
    }

    /// Notes the line from `start` to `end` if it may change.
    fn note(&mut self, start: usize, end: usize) {
        let line = &self.out.as_bytes()[start..end];
        if line.len() > MARGIN || matches!(line.last(), Some(b'{' | b' ')) {
            self.noted.push((start, end));
        }
    }

    /// Writes a constructor's signature line, `pub fn new(p: T, …) -> Self {`
    /// indented `indent`, and its line break; the line written next must not be a
    /// `}` alone (it would close the block on this line). When it does not fit it is
    /// written already broken (one parameter a line) as [`long_line`] would break
    /// it, if it can be without parsing it: each parameter a name and a type of
    /// words and `::` alone, or `impl Into<String>` (the parameters of the built-in
    /// template's `new`) that fits on its own line; otherwise it is written whole
    /// for the layout to parse.
    pub fn constructor<'a>(&mut self, indent: usize, params: impl Iterator<Item = (&'a str, &'a str)> + Clone) {
        const HEAD: &str = "pub fn new(";
        const TAIL: &str = ") -> Self {";
        let count = params.clone().count();
        let width = indent
            + HEAD.len()
            + params
                .clone()
                .map(|(name, ty)| name.len() + 2 + ty.len())
                .sum::<usize>()
            + 2 * count.saturating_sub(1)
            + TAIL.len();
        let inner = indent + INDENT;
        let broken = self.lays_out
            && self.line_start == self.out.len()
            && count > 0
            && width > limit(indent)
            && params.clone().enumerate().all(|(i, (name, ty))| {
                let fits = inner + name.len() + 2 + ty.len() + usize::from(i + 1 < count) <= limit(inner);
                plain_name(name) && (plain_path(ty) || (ty == INTO_STRING && fits))
            });
        if !broken {
            let from = self.out.len();
            push_spaces(&mut self.out, indent);
            self.out.push_str(HEAD);
            for (i, (name, ty)) in params.enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.out.push_str(name);
                self.out.push_str(": ");
                self.out.push_str(ty);
            }
            self.out.push_str(TAIL);
            self.end_line(from);
            return;
        }
        // Laid out already: its lines are not noted.
        push_spaces(&mut self.out, indent);
        self.out.push_str(HEAD);
        for (name, ty) in params {
            self.out.push('\n');
            push_spaces(&mut self.out, inner);
            self.out.push_str(name);
            self.out.push_str(": ");
            self.out.push_str(ty);
            self.out.push(',');
        }
        self.out.push('\n');
        push_spaces(&mut self.out, indent);
        self.out.push_str(TAIL);
        self.out.push('\n');
        self.line_start = self.out.len();
        self.breaks += count + 2;
    }

    /// Writes a match arm `Type::Variant(binding) => expr,` indented `indent`, and
    /// its line break. When it does not fit and its pattern does, it is written
    /// already broken (the body in a block of its own) as [`long_line`] would break
    /// it, without parsing it; otherwise whole, for the layout to parse. `expr` is
    /// an expression the built-in template writes, that fits on a line of its own
    /// (the names are the model's).
    pub fn arm(&mut self, indent: usize, path: [&str; 2], binding: &str, expr: &str) {
        let [ty, variant] = path;
        let pattern = ty.len() + 2 + variant.len() + 1 + binding.len() + 1;
        let inner = indent + INDENT;
        let block = self.lays_out
            && self.line_start == self.out.len()
            && indent + pattern + 4 <= limit(indent)
            && indent + pattern + 4 + expr.len() > limit(indent)
            && inner + expr.len() <= limit(inner)
            && [ty, variant, binding]
                .iter()
                .all(|w| !w.is_empty() && w.bytes().all(is_word))
            && plain_expression(expr);
        let from = self.out.len();
        push_spaces(&mut self.out, indent);
        if !block {
            for part in [ty, "::", variant, "(", binding, ") => ", expr, ","] {
                self.out.push_str(part);
            }
            self.end_line(from);
            return;
        }
        for part in [ty, "::", variant, "(", binding, ") => "] {
            self.out.push_str(part);
        }
        // Laid out already: its lines are not noted.
        self.out.push_str("{\n");
        push_spaces(&mut self.out, inner);
        self.out.push_str(expr);
        self.out.push('\n');
        push_spaces(&mut self.out, indent);
        self.out.push_str("}\n");
        self.line_start = self.out.len();
        self.breaks += 3;
    }

    /// The text, its noted lines laid out; `None` when laid out and a long line is
    /// of a shape this does not lay out (the caller then parses and prints the text
    /// written as it is).
    pub fn finish(mut self) -> Option<String> {
        if !self.lays_out {
            return Some(self.out);
        }
        if self.line_start < self.out.len() {
            // A last line without a line break.
            let (start, end) = (self.line_start, self.out.len());
            self.note(start, end);
        }
        let text = self.out.as_str();
        // Copied only from the first line that changes.
        let mut laid: Option<String> = None;
        let mut copied = 0;
        for &(start, mut end) in &self.noted {
            if start < copied {
                // Taken into the line before (`}` closing an empty block).
                continue;
            }
            let line = &text[start..end];
            let change = if line.len() <= MARGIN && line.ends_with('{') {
                opens(text, start, end)
            } else {
                change(
                    line,
                    (end < text.len()).then(|| &text[end + 1..line_end(text, end + 1)]),
                )
            };
            if change == Change::None {
                continue;
            }
            let out = laid.get_or_insert_with(|| String::with_capacity(text.len() + text.len() / 32));
            out.push_str(&text[copied..start]);
            apply(line, change, out)?;
            if change == Change::CloseEmpty {
                // The `}` line, up to its line break.
                end = line_end(text, end + 1);
            }
            copied = end.min(text.len());
        }
        match laid {
            None => Some(self.out),
            Some(mut out) => {
                out.push_str(&text[copied..]);
                Some(out)
            }
        }
    }
}

/// What [`change`] makes of the short line from `start` to `end` of `text` that
/// opens a block: closed on its line when the next line is its `}` alone, else
/// kept; told from the bytes after it, without finding the next line's end.
fn opens(text: &str, start: usize, end: usize) -> Change {
    let bytes = text.as_bytes();
    let indent = bytes[start..end].iter().take_while(|&&b| b == b' ').count();
    let close = end + 1 + indent;
    let closes = close < bytes.len()
        && bytes[end + 1..close].iter().all(|&b| b == b' ')
        && bytes[close] == b'}'
        && bytes.get(close + 1).is_none_or(|&b| b == b'\n');
    if closes {
        Change::CloseEmpty
    } else {
        Change::None
    }
}

/// Text and where its line breaks that matter to [`Writer`] are: the first, the
/// last, and the start of the line the last ends; and how many it holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lines<'a> {
    text: &'a str,
    /// The first line break, if any.
    first_break: Option<usize>,
    /// The last line break (the first when there is one, or none).
    last_break: usize,
    /// Where the line the last line break ends starts.
    last_start: usize,
    /// How many line breaks it holds.
    breaks: usize,
}

impl<'a> Lines<'a> {
    /// Finds and counts the line breaks of `text`; a `const fn`, so that the emitter's text
    /// is looked at once, when it is compiled (`const { Lines::of("…") }`).
    pub const fn of(text: &'a str) -> Lines<'a> {
        let bytes = text.as_bytes();
        let mut first_break = None;
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'\n' {
                first_break = Some(i);
                break;
            }
            i += 1;
        }
        let (mut last_break, mut last_start) = (0, 0);
        if let Some(first) = first_break {
            last_break = first;
            let mut i = bytes.len();
            while i > first + 1 {
                i -= 1;
                if bytes[i] == b'\n' {
                    last_break = i;
                    break;
                }
            }
            let mut i = last_break;
            while i > 0 && bytes[i - 1] != b'\n' {
                i -= 1;
            }
            last_start = i;
        }
        let (mut breaks, mut i) = (0, 0);
        while i < bytes.len() {
            breaks += (bytes[i] == b'\n') as usize;
            i += 1;
        }
        Lines {
            text,
            first_break,
            last_break,
            last_start,
            breaks,
        }
    }

    /// [`Lines::of`] at run time, with `memchr`: a byte at a time, counting every
    /// line break, costs several times as much on the text the emitter writes this
    /// way (the derive lists, thousands of times).
    pub fn found(text: &'a str) -> Lines<'a> {
        let bytes = text.as_bytes();
        let Some(first) = memchr::memchr(b'\n', bytes) else {
            return Lines {
                text,
                first_break: None,
                last_break: 0,
                last_start: 0,
                breaks: 0,
            };
        };
        let last_break = memchr::memrchr(b'\n', bytes).unwrap_or(first);
        Lines {
            text,
            first_break: Some(first),
            last_break,
            last_start: memchr::memrchr(b'\n', &bytes[..last_break]).map_or(0, |i| i + 1),
            breaks: memchr::memchr_iter(b'\n', bytes).count(),
        }
    }
}

/// How the built-in template spells a `String` parameter.
const INTO_STRING: &str = "impl ::core::convert::Into<::std::string::String>";

/// Whether `name` is a parameter name the layout reads as plain text (`r#type` too).
fn plain_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| is_word(b) || b == b'#')
}

/// Whether `expr` is an expression of words, `::`, `.`, `&`, brackets and `, `
/// alone, without `&&`: a shape the layout breaks (not [`unsupported`]), told in
/// one look at each byte.
fn plain_expression(expr: &str) -> bool {
    let bytes = expr.as_bytes();
    bytes.iter().enumerate().all(|(i, &b)| match b {
        b':' | b'.' | b'(' | b')' | b',' => true,
        b'&' => bytes.get(i + 1) != Some(&b'&'),
        b' ' => i > 0 && bytes[i - 1] == b',',
        _ => is_word(b),
    })
}

/// Whether `ty` is a path of words and `::` alone: plain text to the layout, never broken.
fn plain_path(ty: &str) -> bool {
    !ty.is_empty() && ty.bytes().all(|b| is_word(b) || b == b':')
}

/// Where the line starting at `start` ends: its line break, or the end of `text`.
fn line_end(text: &str, start: usize) -> usize {
    memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |i| start + i)
}

/// Lays out `body`, a line indented `indent` that is too long; `last_field`: the
/// next line closes a block (a struct literal's last field has no counted comma).
fn long_line(body: &str, indent: usize, last_field: bool, out: &mut String) -> Option<()> {
    if let Some(inner) = body.strip_prefix("#[") {
        let inner = inner.strip_suffix(']')?;
        let nodes = parse(inner, true)?;
        let mut col = indent + 2;
        out.push_str("#[");
        put(&nodes, indent, 1, out, &mut col);
        out.push(']');
        return Some(());
    }
    if unsupported(body) {
        return None;
    }
    if let Some((pattern, body)) = split_arm(body) {
        return arm(pattern, body, indent, out);
    }
    if body.starts_with("impl ") || body.starts_with("impl<") {
        return impl_header(body, indent, out);
    }
    // A struct literal's last field is followed by a break that prints its comma;
    // every other line's `,` or `;` is text counted in its width.
    let is_init = !body.starts_with("pub ") && field_init(body);
    let (text, pre_break) = match body.strip_suffix(',') {
        Some(text) if is_init && last_field => (text, ","),
        _ => (body, ""),
    };
    let nodes = parse(text, false)?;
    let mut col = indent;
    put(&nodes, indent, 0, out, &mut col);
    out.push_str(pre_break);
    Some(())
}

/// Shapes the built-in template never writes on a line with names in it.
fn unsupported(body: &str) -> bool {
    let operator = ["|", "?", " + ", "&&", " where "].iter().any(|s| body.contains(s));
    operator || body.starts_with("let ") || (body.contains(" = ") && !body.starts_with("pub const "))
}

/// Whether `body` is a struct literal's `field: value,` line.
fn field_init(body: &str) -> bool {
    let name = body.strip_prefix("r#").unwrap_or(body);
    let end = name
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    end > 0 && name[end..].starts_with(": ") && body.ends_with(',')
}

/// A match arm's pattern and what follows ` => ` (the body, or `{`), split at the
/// first ` => ` outside brackets and strings.
fn split_arm(body: &str) -> Option<(&str, &str)> {
    let at = top_level(body, " => ")?;
    Some((&body[..at], &body[at + 4..]))
}

/// `pattern => body,` (or `pattern => {`, the body already on its own lines).
/// The arm's body block fits when the body does, its `,` not counted.
fn arm(pattern: &str, body: &str, indent: usize, out: &mut String) -> Option<()> {
    let mut col = indent;
    let pattern = parse(pattern, false)?;
    put(&pattern, indent, 4, out, &mut col);
    out.push_str(" => ");
    col += 4;
    if body == "{" {
        out.push('{');
        return Some(());
    }
    let expr = body.strip_suffix(',')?;
    let nodes = parse(expr, false)?;
    if col + width(&nodes) <= limit(indent) {
        out.push_str(body);
        return Some(());
    }
    out.push_str("{\n");
    let inner = indent + INDENT;
    push_spaces(out, inner);
    let mut col = inner;
    put(&nodes, inner, 0, out, &mut col);
    out.push('\n');
    push_spaces(out, indent);
    out.push('}');
    Some(())
}

/// `impl Trait<…> for Type {`: the trait (its generic arguments broken if they do
/// not fit), then ` for Type {` on the same line if it fits, else on its own.
fn impl_header(body: &str, indent: usize, out: &mut String) -> Option<()> {
    let Some(at) = top_level(body, " for ") else {
        // `impl Type {`: nothing to break unless it has generic arguments.
        let nodes = parse(body, false)?;
        return nodes
            .iter()
            .all(|n| matches!(n, Node::Text(_)))
            .then(|| out.push_str(body));
    };
    let (head, tail) = (&body[..at], &body[at + 1..]);
    if !tail.ends_with(" {") {
        return None;
    }
    let tail_nodes = parse(tail, false)?;
    if tail_nodes.iter().any(|n| matches!(n, Node::Group(_))) {
        return None;
    }
    let nodes = parse(head, false)?;
    let mut col = indent;
    put(&nodes, indent, 0, out, &mut col);
    if col + 1 + tail.len() <= limit(indent) {
        out.push(' ');
    } else {
        out.push('\n');
        push_spaces(out, indent);
    }
    out.push_str(tail);
    Some(())
}

/// Byte offset of the first `needle` in `text` outside brackets and strings.
fn top_level(text: &str, needle: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let (mut depth, mut i) = (0i32, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = string_end(bytes, i),
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'<' if i > 0 && is_word(bytes[i - 1]) => depth += 1,
            b'>' if depth > 0 && i > 0 && bytes[i - 1] != b'-' && bytes[i - 1] != b'=' => depth -= 1,
            _ if depth == 0 && bytes[i..].starts_with(needle.as_bytes()) => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// A piece of a line: text `prettyplease` never breaks, or a bracketed list.
#[derive(Debug)]
enum Node<'a> {
    Text(&'a str),
    Group(Group<'a>),
    /// A field access `base.a.b`: `prettyplease` may break before each `.`.
    Chain(&'a str, Vec<&'a str>),
}

/// A bracketed, comma-separated list.
#[derive(Debug)]
struct Group<'a> {
    open: char,
    close: char,
    items: Vec<Vec<Node<'a>>>,
    /// Broken with a `,` after the last item (code; not an attribute's list).
    trailing_comma: bool,
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The index just past the string literal starting at `i`.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Splits `text` into text and lists. In an attribute (`attr`) only parentheses
/// make a list. `None` for unbalanced brackets.
fn parse(text: &str, attr: bool) -> Option<Vec<Node<'_>>> {
    let bytes = text.as_bytes();
    let mut pos = 0;
    let nodes = sequence(text, bytes, &mut pos, None, attr)?;
    (pos == bytes.len()).then_some(nodes)
}

/// The nodes from `pos` up to the `close` of the enclosing list (not consumed) or
/// the end; within a list, items end at `, `.
fn sequence<'a>(text: &'a str, bytes: &[u8], pos: &mut usize, close: Option<u8>, attr: bool) -> Option<Vec<Node<'a>>> {
    let mut nodes = Vec::new();
    let mut start = *pos;
    while *pos < bytes.len() {
        let b = bytes[*pos];
        let opens = match b {
            b'(' => Some(b')'),
            b'<' if !attr && *pos > 0 && is_word(bytes[*pos - 1]) => Some(b'>'),
            b'[' if !attr && bytes.get(*pos + 1) == Some(&b'"') => Some(b']'),
            _ => None,
        };
        if Some(b) == close || (close.is_some() && b == b',' && bytes.get(*pos + 1) == Some(&b' ')) {
            break;
        }
        match (b, opens) {
            // An unterminated string (not one the template writes) runs to the end.
            (b'"', _) => *pos = (string_end(bytes, *pos) + 1).min(bytes.len()),
            (_, Some(closing)) => {
                *pos += 1;
                if start < *pos - 1 {
                    push_text(&text[start..*pos - 1], attr, &mut nodes);
                }
                nodes.push(Node::Group(group(text, bytes, pos, b, closing, attr)?));
                start = *pos;
            }
            // `]` of a slice type (`&[&str]`), which is not a list.
            (b')', _) => return None,
            (b'>', _) if close == Some(b'>') => break,
            _ => *pos += 1,
        }
    }
    if start < *pos {
        push_text(&text[start..*pos], attr, &mut nodes);
    }
    Some(nodes)
}

/// Pushes `text`, its field accesses (`self.a`, not `a::b` nor a method call)
/// apart: in code, `prettyplease` may break before their `.`.
fn push_text<'a>(text: &'a str, attr: bool, nodes: &mut Vec<Node<'a>>) {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while !attr && i < bytes.len() {
        if bytes[i] == b'"' {
            i = string_end(bytes, i) + 1;
            continue;
        }
        // The start of a word not after `::` or `.`: a chain's base, if dots follow.
        let after_path = i > 0 && (bytes[i - 1] == b':' || bytes[i - 1] == b'.' || is_word(bytes[i - 1]));
        if !is_word(bytes[i]) || after_path || bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let word_end = |from: usize| from + bytes[from..].iter().take_while(|&&b| is_word(b)).count();
        let base_end = word_end(i);
        let mut end = base_end;
        let mut members = Vec::new();
        while bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(|&b| is_word(b)) {
            let member_end = word_end(end + 1);
            members.push(&text[end + 1..member_end]);
            end = member_end;
        }
        // A method call (`a.b(`) is not a field access.
        if members.is_empty() || bytes.get(end) == Some(&b'(') {
            i = end;
            continue;
        }
        if start < i {
            nodes.push(Node::Text(&text[start..i]));
        }
        nodes.push(Node::Chain(&text[i..base_end], members));
        start = end;
        i = end;
    }
    if start < text.len() {
        nodes.push(Node::Text(&text[start..]));
    }
}

/// The list whose `open` was just consumed, up to and including its `close`.
fn group<'a>(text: &'a str, bytes: &[u8], pos: &mut usize, open: u8, close: u8, attr: bool) -> Option<Group<'a>> {
    let mut items = Vec::new();
    loop {
        if bytes.get(*pos) == Some(&close) {
            *pos += 1;
            break;
        }
        let item = sequence(text, bytes, pos, Some(close), attr)?;
        items.push(item);
        match bytes.get(*pos) {
            Some(b',') => *pos += 2,
            Some(&b) if b == close => {}
            _ => return None,
        }
    }
    Some(Group {
        open: char::from(open),
        close: char::from(close),
        items,
        trailing_comma: !attr,
    })
}

/// Width of `nodes` on one line.
fn width(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|n| match n {
            Node::Text(t) => t.len(),
            Node::Group(g) => 2 + g.items.iter().map(|i| width(i)).sum::<usize>() + 2 * g.items.len().saturating_sub(1),
            Node::Chain(base, members) => base.len() + members.iter().map(|m| 1 + m.len()).sum::<usize>(),
        })
        .sum()
}

/// Width from after `nodes[at]` to the next place a line may break: the text up
/// to and including the next list's opening bracket, or all of it and `after`.
fn trailing(nodes: &[Node], at: usize, after: usize) -> usize {
    let mut sum = 0;
    for n in &nodes[at + 1..] {
        match n {
            Node::Text(t) => sum += t.len(),
            Node::Group(_) => return sum + 1,
            Node::Chain(base, _) => return sum + base.len(),
        }
    }
    sum + after
}

/// Writes `nodes` at column `col` of a line indented `indent`, breaking each list
/// that does not fit with what follows it; `after` is the width of the text that
/// follows `nodes` up to the next break.
fn put(nodes: &[Node], indent: usize, after: usize, out: &mut String, col: &mut usize) {
    for (at, node) in nodes.iter().enumerate() {
        match node {
            Node::Text(t) => {
                out.push_str(t);
                *col += t.len();
            }
            Node::Chain(base, members) => {
                let trailing = trailing(nodes, at, after);
                chain(base, members, indent, trailing, out, col);
            }
            Node::Group(g) => {
                let flat = width(std::slice::from_ref(node));
                // An empty list has nothing to break (`prettyplease` drops its break).
                if g.items.is_empty() || *col + flat + trailing(nodes, at, after) <= limit(indent) {
                    flat_group(g, out);
                    *col += flat;
                    continue;
                }
                out.push(g.open);
                let inner = indent + INDENT;
                for (i, item) in g.items.iter().enumerate() {
                    let last = i + 1 == g.items.len();
                    out.push('\n');
                    push_spaces(out, inner);
                    let mut item_col = inner;
                    put(item, inner, usize::from(!last), out, &mut item_col);
                    if !last || g.trailing_comma {
                        out.push(',');
                    }
                }
                out.push('\n');
                push_spaces(out, indent);
                out.push(g.close);
                *col = indent + 1;
            }
        }
    }
}

/// A field access `base.m1.….mk`: one block around it all, broken (each `.` on
/// a new line, 4 past the line's indentation) when it does not fit with
/// `trailing`, the width up to the next break.
fn chain(base: &str, members: &[&str], indent: usize, trailing: usize, out: &mut String, col: &mut usize) {
    let width = base.len() + members.iter().map(|m| 1 + m.len()).sum::<usize>();
    let fits = *col + width + trailing <= limit(indent);
    out.push_str(base);
    *col += base.len();
    for m in members {
        if !fits {
            out.push('\n');
            push_spaces(out, indent + INDENT);
            *col = indent + INDENT;
        }
        out.push('.');
        out.push_str(m);
        *col += 1 + m.len();
    }
}

fn flat_group(g: &Group, out: &mut String) {
    out.push(g.open);
    for (i, item) in g.items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        for node in item {
            match node {
                Node::Text(t) => out.push_str(t),
                Node::Group(inner) => flat_group(inner, out),
                Node::Chain(base, members) => {
                    out.push_str(base);
                    for m in members {
                        out.push('.');
                        out.push_str(m);
                    }
                }
            }
        }
    }
    out.push(g.close);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_fits_is_kept() {
        let text = "    pub fn new(id: impl ::core::convert::Into<::std::string::String>) -> Self {\n";
        assert_eq!(lay_out(text).as_deref(), Some(text));
    }

    #[test]
    fn a_long_signature_breaks_its_parameters() {
        let text = "        pub fn new(id: impl ::core::convert::Into<::std::string::String>, partition_key: ::std::string::String) -> Self {\n";
        let expected = "        pub fn new(\n            id: impl ::core::convert::Into<::std::string::String>,\n            partition_key: ::std::string::String,\n        ) -> Self {\n";
        assert_eq!(lay_out(text).as_deref(), Some(expected));
    }

    #[test]
    fn a_long_arm_gets_a_block() {
        let text =
            "                SomeVeryLongContainerNameDocument::SomeVeryLongDocumentName(document) => &document.id,\n";
        let expected = "                SomeVeryLongContainerNameDocument::SomeVeryLongDocumentName(document) => {\n                    &document.id\n                }\n";
        assert_eq!(lay_out(text).as_deref(), Some(expected));
    }

    #[test]
    fn empty_blocks_close_on_their_line_and_doc_comments_lose_trailing_spaces() {
        let text = "pub mod types {\n}\n/// Doc. \npub struct S {\n    pub a: u8,\n}";
        let expected = "pub mod types {}\n/// Doc.\npub struct S {\n    pub a: u8,\n}";
        assert_eq!(lay_out(text).as_deref(), Some(expected));
    }

    #[test]
    fn a_long_attribute_breaks_without_a_trailing_comma() {
        let name = "a".repeat(70);
        let text = format!("        #[serde(rename = \"{name}\")]\n");
        let expected = format!("        #[serde(\n            rename = \"{name}\"\n        )]\n");
        assert_eq!(lay_out(&text), Some(expected));
    }

    #[test]
    fn unusual_text_is_refused_or_kept_without_panicking() {
        let name = "é".repeat(50);
        let text =
            format!("        pub {name}: ::core::option::Option<Ünïcode{name}>,\n        {name}: \"unterminated\\\n");
        let _ = lay_out(&text);
        let _ = lay_out(&format!("    impl Ünï{name} for {name} {{\n"));
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_laid_out_or_refused_without_panicking(text in "( {0,12}[ -~é]{0,200}\n?){0,6}") {
            let _ = lay_out(&text);
        }

        /// Written in pieces cut anywhere, a text is laid out as [`lay_out`] lays it
        /// out whole (or refused alike).
        #[test]
        fn a_text_written_in_pieces_is_laid_out_as_a_whole(
            text in "( {0,12}([a-z]{1,8}|[(){}<>,.:;&\"#/=]| ){0,40}\n?){0,8}",
            cuts in proptest::collection::vec(0usize..400, 0..6),
        ) {
            proptest::prop_assert_eq!(written(&text, &cuts), lay_out(&text));
        }

        /// [`Lines::of`] finds the line breaks `memchr` finds.
        #[test]
        fn lines_finds_the_first_and_last_line_breaks(text in "[a\n]{0,12}") {
            let bytes = text.as_bytes();
            let lines = Lines::of(&text);
            let found = Lines::found(&text);
            proptest::prop_assert_eq!(
                (found.first_break, found.last_break, found.last_start, found.breaks),
                (lines.first_break, lines.last_break, lines.last_start, lines.breaks)
            );
            proptest::prop_assert_eq!(lines.breaks, bytes.iter().filter(|&&b| b == b'\n').count());
            let first = memchr::memchr(b'\n', bytes);
            proptest::prop_assert_eq!(lines.first_break, first);
            if let Some(first) = first {
                let last = memchr::memrchr(b'\n', bytes).unwrap_or(first);
                proptest::prop_assert_eq!(lines.last_break, last);
                if last > first {
                    let start = memchr::memrchr(b'\n', &bytes[..last]).map_or(0, |i| i + 1);
                    proptest::prop_assert_eq!(lines.last_start, start);
                }
            }
        }

        /// [`opens`] judges a line that opens a block as [`change`] does.
        #[test]
        fn an_opening_line_is_judged_as_change_judges_it(
            indent in 0usize..6,
            next in "( {0,6}(\\}|\\} |x|\\}\\}|\\};)?\n?)?",
        ) {
            let line = format!("{}a {{", " ".repeat(indent));
            let text = if next.is_empty() { line.clone() } else { format!("{line}\n{next}") };
            let end = line.len();
            let next = (end < text.len()).then(|| &text[end + 1..line_end(&text, end + 1)]);
            proptest::prop_assert_eq!(opens(&text, 0, end), change(&line, next));
        }

        /// A constructor's signature is written as [`lay_out`] lays out its line.
        #[test]
        fn a_constructor_is_written_as_its_line_is_laid_out(
            params in proptest::collection::vec(("(r#)?[a-z_]{1,30}", "(impl ::core::convert::Into<::std::string::String>|[a-z:]{1,70}|::a<b>|a, b)"), 0..6),
            indent in 0usize..40,
        ) {
            let params: Vec<(&str, &str)> = params.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
            // After a line that waits for the next, and before another.
            let mut writer = Writer::new(0, true);
            writer.line(&["    /// A doc comment. "]);
            writer.constructor(indent, params.iter().copied());
            writer.line(&["            let id;"]);
            let joined: Vec<String> = params.iter().map(|(n, t)| format!("{n}: {t}")).collect();
            let line = format!(
                "    /// A doc comment. \n{}pub fn new({}) -> Self {{\n            let id;\n",
                " ".repeat(indent),
                joined.join(", ")
            );
            proptest::prop_assert_eq!(writer.finish(), lay_out(&line));
        }

        /// A match arm is written as [`lay_out`] lays out its line.
        #[test]
        fn an_arm_is_written_as_its_line_is_laid_out(
            ty in "[A-Za-z_]{0,50}",
            variant in "[A-Za-z0-9_é]{0,50}",
            expr in r"(&document\.id|document\.partition_key\(\)|::serde::Serialize::serialize\(document, serializer\)|a \+ b)",
            indent in 0usize..40,
        ) {
            let mut writer = Writer::new(0, true);
            writer.line(&["    match self {"]);
            writer.arm(indent, [&ty, &variant], "document", &expr);
            writer.line(&["    }"]);
            let line = format!("    match self {{\n{}{ty}::{variant}(document) => {expr},\n    }}\n", " ".repeat(indent));
            proptest::prop_assert_eq!(writer.finish(), lay_out(&line));
        }
    }

    /// `text` written into a [`Writer`] in pieces, cut at `cuts` (byte offsets,
    /// moved to character boundaries).
    fn written(text: &str, cuts: &[usize]) -> Option<String> {
        let mut cuts: Vec<usize> = cuts
            .iter()
            .map(|&c| {
                (c.min(text.len())..=text.len())
                    .find(|&c| text.is_char_boundary(c))
                    .unwrap_or(text.len())
            })
            .collect();
        cuts.sort_unstable();
        let mut writer = Writer::new(0, true);
        let mut from = 0;
        for cut in cuts.into_iter().chain([text.len()]) {
            writer.any_text(&text[from..cut]);
            from = cut;
        }
        writer.finish()
    }

    /// A line whose part holds a line break (taken to hold none as it is written)
    /// is found out by `hid_a_break`, and laid out line by line when written again
    /// by a scanning writer, or with `broken_line`.
    #[test]
    fn a_part_with_a_line_break_is_found_and_laid_out_line_by_line() {
        let parts = [
            "    /// A doc.\n",
            "        pub fn new(id: impl ::core::convert::Into<::std::string::String>, key: ::std::string::String) -> Self {",
        ];
        let text = format!("{}\n            let id;\n", parts.concat());
        let laid = lay_out(&text).expect("laid out");
        assert_ne!(laid, text, "the long line is broken");
        let write = |writer: &mut Writer, broken: bool| {
            if broken {
                writer.broken_line(&parts);
            } else {
                writer.line(&parts);
            }
            writer.line(&["            let id;"]);
        };
        let mut trusting = Writer::new(0, true);
        write(&mut trusting, false);
        assert!(trusting.hid_a_break());
        let mut scanning = Writer::new(0, true).scanning();
        write(&mut scanning, false);
        let mut broken = Writer::new(0, true);
        write(&mut broken, true);
        assert!(!broken.hid_a_break());
        assert_eq!(scanning.finish().as_ref(), Some(&laid));
        assert_eq!(broken.finish(), Some(laid));
    }

    #[test]
    fn pieces_and_lines_are_laid_out_as_the_whole_text() {
        let texts = [
            "pub mod types {\n}\n/// Doc. \npub struct S {\n    pub a: u8,\n}",
            "        pub fn new(id: impl ::core::convert::Into<::std::string::String>, partition_key: ::std::string::String) -> Self {\n",
            "    impl A {\n    }\n    impl B {\n    }\n",
            "            X {\n                some_rather_long_field_name: ::core::clone::Clone::clone(&source.some_long.field_path),\n            }\n",
            "a {\n}",
            "a {\n",
            "/// x \n",
        ];
        for text in texts {
            let whole = lay_out(text);
            for cut in 0..=text.len() {
                assert_eq!(written(text, &[cut]), whole, "{text:?} cut at {cut}");
            }
            let mut writer = Writer::new(0, true);
            for line in text.split_inclusive('\n') {
                match line.strip_suffix('\n') {
                    Some(line) => writer.line(&[line]),
                    None => writer.any_text(line),
                }
            }
            assert_eq!(writer.finish(), whole, "{text:?} line by line");
        }
    }

    /// The last parameter ends at the margin, its `,` past it (not counted: it is
    /// the list's): written broken, its line stays whole, and is not laid out again.
    #[test]
    fn a_last_parameter_that_ends_at_the_margin_stays_whole() {
        for name in ["a".repeat(25), "a".repeat(26), "a".repeat(27)] {
            let params = [("id", INTO_STRING), (name.as_str(), INTO_STRING)];
            let mut writer = Writer::new(0, true);
            writer.constructor(8, params.into_iter());
            writer.line(&["            let id;"]);
            let line = format!(
                "        pub fn new(id: {INTO_STRING}, {name}: {INTO_STRING}) -> Self {{\n            let id;\n"
            );
            assert_eq!(writer.finish(), lay_out(&line), "{name}");
        }
    }

    /// The template's own text, whose lines but the first two and the last the
    /// writer does not look at, is laid out as the whole text is: its first line
    /// closing an empty block or ending a long line, its second line and its last
    /// opening one, its last a doc comment with a trailing space.
    #[test]
    fn the_templates_own_text_is_laid_out_at_its_ends() {
        let long = format!("        pub fn new(id: {INTO_STRING}, partition_key: {INTO_STRING}");
        let cases: [&[&str]; 5] = [
            &[
                "    impl A {\n",
                "    }\n    impl B {\n        fn f() {\n            x\n        }\n    }\n",
            ],
            &[
                "    impl A {\n",
                "    }\n",
                "    impl B {\n        fn f() {\n",
                "        }\n    }\n",
            ],
            &[
                &long,
                ") -> Self {\n            let id = 1;\n            S {\n                id,\n",
                "            }\n",
            ],
            &[
                "    mod a {\n        x\n        y\n    /// Doc. \n",
                "    pub struct S {\n",
                "    }\n",
            ],
            &["a {\n", "}\nb {\n", "c\n}\n", "d {\n}"],
        ];
        for pieces in cases {
            let mut writer = Writer::new(0, true);
            for piece in pieces {
                writer.text(piece);
            }
            assert_eq!(writer.finish(), lay_out(&pieces.concat()), "{pieces:?}");
        }
    }

    /// The arms the built-in template writes are written broken without parsing.
    #[test]
    fn the_templates_arm_expressions_are_plain() {
        for expr in [
            "document.partition_key()",
            "&document.id",
            "::serde::Serialize::serialize(document, serializer)",
        ] {
            assert!(plain_expression(expr), "{expr}");
        }
        for expr in ["a && b", "a + b", "a | b", "x?", "a = b", "a where b"] {
            assert!(!plain_expression(expr), "{expr}");
        }
    }

    #[test]
    fn a_line_of_another_shape_is_refused_when_written_too() {
        let mut writer = Writer::new(0, true);
        writer.line(&["    let x = f(", &"a".repeat(90), ");"]);
        assert_eq!(writer.finish(), None);
        // Not laid out, it is kept as it is.
        let mut writer = Writer::new(0, false);
        writer.line(&["    let x = f(", &"a".repeat(90), ");"]);
        writer.constructor(8, [("id", "a")].into_iter());
        assert_eq!(
            writer.finish().as_deref(),
            Some(
                format!(
                    "    let x = f({});\n        pub fn new(id: a) -> Self {{\n",
                    "a".repeat(90)
                )
                .as_str()
            )
        );
    }

    #[test]
    fn other_long_lines_are_refused() {
        assert_eq!(lay_out(&format!("    let x = f({});\n", "a".repeat(90))), None);
    }
}
