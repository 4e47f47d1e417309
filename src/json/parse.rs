//! The reader: a recursive-descent parser over `&str` with a depth limit.

use super::{JsonError, JsonErrorKind, Value, MAX_DEPTH};
use crate::swar;
use std::borrow::Cow;

/// Parses one JSON document (surrounding whitespace allowed) with the default depth limit.
///
/// Strings without escapes borrow from `text`.
pub fn parse(text: &str) -> Result<Value<'_>, JsonError> {
    parse_with_depth(text, MAX_DEPTH)
}

/// Parses one JSON document, allowing at most `max_depth` levels of nesting.
pub fn parse_with_depth(text: &str, max_depth: usize) -> Result<Value<'_>, JsonError> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        depth_left: max_depth,
    };
    p.skip_ws();
    let v = p.value()?;
    p.skip_ws();
    if p.pos < p.bytes.len() {
        return Err(p.err(JsonErrorKind::TrailingCharacters));
    }
    Ok(v)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth_left: usize,
}

/// The bytes of `w` (little-endian) that are `"`, `\\` or a control character (< 0x20), as a
/// mask of their high bits (the lowest one exact, see [`swar::zero_bytes`]).
#[inline(always)]
fn stop_mask(w: u64) -> u64 {
    let control = w.wrapping_sub(swar::ONES * 0x20) & !w & swar::HIGHS;
    swar::bytes_equal(w, b'"') | swar::bytes_equal(w, b'\\') | control
}

/// Length of the run of plain string bytes at the start of `rest` (up to the first `"`, `\\` or
/// control character: the bytes a JSON string cannot hold as they are), or `None` when there is
/// no such byte; eight bytes per step, the tail padded with spaces (which never stop). The
/// parser's string scan and the writer's escape scan.
#[inline(always)]
pub(crate) fn plain_run(rest: &[u8]) -> Option<usize> {
    swar::first_flagged(rest, b' ', stop_mask)
}

impl<'a> Parser<'a> {
    fn err(&self, kind: JsonErrorKind) -> JsonError {
        JsonError {
            kind,
            offset: self.pos,
        }
    }

    // `inline(always)`: the wasm is built with opt-level "z", where these one-liners otherwise
    // stay calls on the hottest path (measured in Chromium: see benches/bench-consumer).
    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Compact JSON (what servers send) has no whitespace between tokens: one comparison.
    #[inline(always)]
    fn skip_ws(&mut self) {
        if matches!(self.peek(), Some(b) if b <= b' ') {
            self.skip_ws_slow();
        }
    }

    fn skip_ws_slow(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.peek() {
            self.pos += 1;
        }
    }

    fn value(&mut self) -> Result<Value<'a>, JsonError> {
        match self.peek() {
            None => Err(self.err(JsonErrorKind::UnexpectedEnd)),
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b't') => self.literal(b"true", Value::Bool(true)),
            Some(b'f') => self.literal(b"false", Value::Bool(false)),
            Some(b'n') => self.literal(b"null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number().map(Value::Number),
            Some(_) => Err(self.err(JsonErrorKind::UnexpectedChar)),
        }
    }

    fn literal(&mut self, word: &[u8], v: Value<'a>) -> Result<Value<'a>, JsonError> {
        let end = self.pos + word.len();
        match self.bytes.get(self.pos..end) {
            Some(s) if s == word => {
                self.pos = end;
                Ok(v)
            }
            Some(_) => Err(self.err(JsonErrorKind::UnexpectedChar)),
            None => Err(self.err(JsonErrorKind::UnexpectedEnd)),
        }
    }

    fn enter(&mut self) -> Result<(), JsonError> {
        if self.depth_left == 0 {
            return Err(self.err(JsonErrorKind::TooDeep));
        }
        self.depth_left -= 1;
        Ok(())
    }

    fn object(&mut self) -> Result<Value<'a>, JsonError> {
        self.enter()?;
        self.pos += 1; // '{'
        let mut entries = Vec::with_capacity(8);
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            self.depth_left += 1;
            return Ok(Value::Object(entries));
        }
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'"') => {}
                None => return Err(self.err(JsonErrorKind::UnexpectedEnd)),
                Some(_) => return Err(self.err(JsonErrorKind::UnexpectedChar)),
            }
            let key = self.string()?;
            self.skip_ws();
            match self.peek() {
                Some(b':') => self.pos += 1,
                None => return Err(self.err(JsonErrorKind::UnexpectedEnd)),
                Some(_) => return Err(self.err(JsonErrorKind::UnexpectedChar)),
            }
            self.skip_ws();
            let v = self.value()?;
            entries.push((key, v));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                None => return Err(self.err(JsonErrorKind::UnexpectedEnd)),
                Some(_) => return Err(self.err(JsonErrorKind::UnexpectedChar)),
            }
        }
        self.depth_left += 1;
        Ok(Value::Object(entries))
    }

    fn array(&mut self) -> Result<Value<'a>, JsonError> {
        self.enter()?;
        self.pos += 1; // '['
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            self.depth_left += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value()?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                None => return Err(self.err(JsonErrorKind::UnexpectedEnd)),
                Some(_) => return Err(self.err(JsonErrorKind::UnexpectedChar)),
            }
        }
        self.depth_left += 1;
        Ok(Value::Array(items))
    }

    /// A string starting at the opening quote. Borrowed when it holds no escapes.
    #[inline(always)]
    fn string(&mut self) -> Result<Cow<'a, str>, JsonError> {
        self.pos += 1; // opening quote
        let start = self.pos;
        // Fast scan: plain bytes (non-ASCII included: the input is already valid UTF-8).
        let Some(n) = plain_run(self.bytes.get(start..).unwrap_or(&[])) else {
            self.pos = self.bytes.len();
            return Err(self.err(JsonErrorKind::UnexpectedEnd));
        };
        self.pos = start + n;
        match self.peek() {
            Some(b'"') => {
                let s = self.text.get(start..self.pos).unwrap_or("");
                self.pos += 1;
                Ok(Cow::Borrowed(s))
            }
            Some(b'\\') => {
                let mut owned = String::with_capacity(n + 16);
                owned.push_str(self.text.get(start..self.pos).unwrap_or(""));
                self.string_slow(owned).map(Cow::Owned)
            }
            _ => Err(self.err(JsonErrorKind::ControlCharacter)),
        }
    }

    /// The rest of a string that contains escapes; `self.pos` is at a backslash or plain text.
    fn string_slow(&mut self, mut out: String) -> Result<String, JsonError> {
        loop {
            let run_start = self.pos;
            let Some(n) = plain_run(self.bytes.get(run_start..).unwrap_or(&[])) else {
                self.pos = self.bytes.len();
                return Err(self.err(JsonErrorKind::UnexpectedEnd));
            };
            self.pos = run_start + n;
            out.push_str(self.text.get(run_start..self.pos).unwrap_or(""));
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let c = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.pos += 1;
                            let c = self.unicode_escape()?;
                            out.push(c);
                            continue;
                        }
                        None => return Err(self.err(JsonErrorKind::UnexpectedEnd)),
                        Some(_) => return Err(self.err(JsonErrorKind::InvalidEscape)),
                    };
                    self.pos += 1;
                    out.push(c);
                }
                _ => return Err(self.err(JsonErrorKind::ControlCharacter)),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(b @ b'0'..=b'9') => b - b'0',
                Some(b @ b'a'..=b'f') => b - b'a' + 10,
                Some(b @ b'A'..=b'F') => b - b'A' + 10,
                None => return Err(self.err(JsonErrorKind::UnexpectedEnd)),
                Some(_) => return Err(self.err(JsonErrorKind::InvalidEscape)),
            };
            v = v * 16 + u32::from(d);
            self.pos += 1;
        }
        Ok(v)
    }

    /// After `\u`: one code unit, or a surrogate pair. Lone surrogates become U+FFFD
    /// (JavaScript would keep them; a Rust string cannot hold them).
    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let hi = self.hex4()?;
        if (0xD800..0xDC00).contains(&hi) {
            let save = self.pos;
            if self.bytes.get(self.pos..self.pos + 2) == Some(b"\\u") {
                self.pos += 2;
                let lo = self.hex4()?;
                if (0xDC00..0xE000).contains(&lo) {
                    let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    return Ok(char::from_u32(c).unwrap_or('\u{FFFD}'));
                }
                self.pos = save;
            }
            return Ok('\u{FFFD}');
        }
        Ok(char::from_u32(hi).unwrap_or('\u{FFFD}'))
    }

    fn number(&mut self) -> Result<f64, JsonError> {
        let start = self.pos;
        let mut negative = false;
        if self.peek() == Some(b'-') {
            negative = true;
            self.pos += 1;
        }
        let mut int: u64 = 0;
        let mut digits = 0usize;
        match self.peek() {
            Some(b'0') => {
                self.pos += 1;
                digits = 1;
            }
            Some(b'1'..=b'9') => {
                while let Some(b @ b'0'..=b'9') = self.peek() {
                    int = int.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
                    digits += 1;
                    self.pos += 1;
                }
            }
            None => return Err(self.err(JsonErrorKind::UnexpectedEnd)),
            Some(_) => return Err(self.err(JsonErrorKind::InvalidNumber)),
        }
        let mut simple = true;
        if self.peek() == Some(b'.') {
            simple = false;
            self.pos += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.err(JsonErrorKind::InvalidNumber));
            }
            while let Some(b'0'..=b'9') = self.peek() {
                self.pos += 1;
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            simple = false;
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.err(JsonErrorKind::InvalidNumber));
            }
            while let Some(b'0'..=b'9') = self.peek() {
                self.pos += 1;
            }
        }
        if simple && digits <= 15 {
            // Exact: fewer than 2^53.
            let v = int as f64;
            return Ok(if negative { -v } else { v });
        }
        let text = self.text.get(start..self.pos).unwrap_or("0");
        super::number::parse_f64(text).ok_or(JsonError {
            kind: JsonErrorKind::InvalidNumber,
            offset: start,
        })
    }
}
