//! The writer: compact JSON, escaping as `JSON.stringify` does.

use super::parse::plain_run as escape_at;
use super::Value;
use std::fmt::Write as _;

/// Appends `s` as a quoted, escaped JSON string.
///
/// Everything between the bytes that need an escape is copied in one piece.
// `push_str("\"")`, not `push('"')`: at opt-level z `push` is a call that encodes the char.
#[allow(clippy::single_char_add_str)]
pub fn write_str(out: &mut String, s: &str) {
    out.push_str("\"");
    write_str_body(out, s);
    out.push_str("\"");
}

/// Appends the escaped contents of `s` (without quotes).
fn write_str_body(out: &mut String, s: &str) {
    match escape_at(s.as_bytes()) {
        None => out.push_str(s),
        Some(n) => write_escaped(out, s, n),
    }
}

/// [`write_str_body`] for a string with an escape at `n`.
fn write_escaped(out: &mut String, s: &str, mut n: usize) {
    let mut rest = s;
    while let Some((plain, tail)) = rest.split_at_checked(n) {
        out.push_str(plain);
        let mut chars = tail.chars();
        match chars.next() {
            Some('"') => out.push_str("\\\""),
            Some('\\') => out.push_str("\\\\"),
            Some('\n') => out.push_str("\\n"),
            Some('\r') => out.push_str("\\r"),
            Some('\t') => out.push_str("\\t"),
            Some('\u{8}') => out.push_str("\\b"),
            Some('\u{c}') => out.push_str("\\f"),
            Some(c) => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            None => break,
        }
        rest = chars.as_str();
        match escape_at(rest.as_bytes()) {
            Some(next) => n = next,
            None => {
                out.push_str(rest);
                break;
            }
        }
    }
}

/// Rewrites every non-ASCII character of `json[from..]` (JSON text: such characters are only
/// ever inside strings) as `\uXXXX` escapes (two, a surrogate pair, outside the BMP), so that the
/// text is ASCII and parses to the same value.
///
/// For JSON handed to JavaScript: the engine decodes ASCII bytes into a one-byte string several
/// times faster than UTF-8 with a few non-ASCII characters (which makes the whole text a
/// two-byte string), and parses it faster too (medium AG-UI recording: 3.3 MB with 11,099
/// non-ASCII characters, +1.7% bytes, decode 12-22 ms -> 2.5-3 ms in node).
pub fn escape_non_ascii(json: &mut String, from: usize) {
    let Some(first) = json.get(from..).and_then(|t| first_non_ascii(t.as_bytes())) else {
        return;
    };
    let tail = json.split_off(from + first);
    json.reserve(tail.len() + tail.len() / 16);
    let mut rest = tail.as_str();
    loop {
        let n = first_non_ascii(rest.as_bytes()).unwrap_or(rest.len());
        let Some((plain, more)) = rest.split_at_checked(n) else {
            break;
        };
        json.push_str(plain);
        let mut chars = more.chars();
        let Some(c) = chars.next() else {
            break;
        };
        let mut units = [0u16; 2];
        for &u in c.encode_utf16(&mut units).iter() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let hex = |shift: u16| HEX[usize::from((u >> shift) & 15)];
            let esc = [b'\\', b'u', hex(12), hex(8), hex(4), hex(0)];
            json.push_str(std::str::from_utf8(&esc).unwrap_or_default());
        }
        rest = chars.as_str();
    }
}

/// Position of the first byte of `bytes` at or above 0x80, eight bytes per step.
fn first_non_ascii(bytes: &[u8]) -> Option<usize> {
    crate::swar::first_flagged(bytes, b' ', |w| w & crate::swar::HIGHS)
}

/// Appends a number as JSON (`null` for NaN and infinities, as `JSON.stringify`).
pub fn write_number(out: &mut String, n: f64) {
    if !n.is_finite() {
        out.push_str("null");
    } else if n.fract() == 0.0 && n.abs() < 1e16 {
        write_integer(out, n as i64);
    } else {
        // The shortest text that parses back to the same double (ryu; `small` tables).
        out.push_str(ryu::Buffer::new().format_finite(n));
    }
}

/// `n` in decimal (as `{}` formats it), without the formatting machinery: counts, indices and
/// versions are most of the numbers written.
fn write_integer(out: &mut String, n: i64) {
    let mut digits = [0u8; 21];
    let start = integer_digits(n, &mut digits);
    out.push_str(std::str::from_utf8(digits.get(start..).unwrap_or(&[])).unwrap_or("0"));
}

/// Writes `n` in decimal at the end of `digits`; returns where it starts.
fn integer_digits(n: i64, digits: &mut [u8; 21]) -> usize {
    let mut v = n.unsigned_abs();
    let mut start = digits.len();
    loop {
        start -= 1;
        if let Some(d) = digits.get_mut(start) {
            *d = b'0' + (v % 10) as u8;
        }
        v /= 10;
        if v == 0 || start == 1 {
            break;
        }
    }
    if n < 0 {
        start -= 1;
        if let Some(d) = digits.get_mut(start) {
            *d = b'-';
        }
    }
    start
}

pub(super) fn write_value(v: &Value<'_>, out: &mut String) {
    let mut st = Staged {
        out,
        buf: [0; STAGE],
        len: 0,
    };
    st.value(v);
    st.flush();
}

/// Bytes staged before they are appended to the output.
const STAGE: usize = 256;
/// Strings longer than this are appended directly (one bulk copy) instead of byte by byte.
const SHORT: usize = 48;

/// A small buffer in front of the output for a value tree's many short pieces (punctuation,
/// keys, short strings, numbers): appended byte by byte here and to the `String` a buffer at a
/// time. In wasm each `push_str` is a call with a bulk-memory copy, which for a few bytes costs
/// more than the bytes themselves (a shared state of 3.3 MB is ~500,000 such pieces).
///
/// Only whole strings and ASCII bytes are staged, so a flush always holds valid UTF-8.
struct Staged<'o> {
    out: &'o mut String,
    buf: [u8; STAGE],
    len: usize,
}

impl Staged<'_> {
    fn flush(&mut self) {
        let staged = self.buf.get(..self.len).unwrap_or_default();
        match std::str::from_utf8(staged) {
            Ok(s) => self.out.push_str(s),
            Err(_) => self.out.push_str(&String::from_utf8_lossy(staged)),
        }
        self.len = 0;
    }

    /// Stages `bytes` (ASCII, or a whole string's bytes).
    fn put(&mut self, bytes: &[u8]) {
        if bytes.len() > STAGE - self.len {
            self.flush();
        }
        if let Some(dst) = self.buf.get_mut(self.len..self.len + bytes.len()) {
            for (d, &b) in dst.iter_mut().zip(bytes) {
                *d = b;
            }
            self.len += bytes.len();
        }
    }

    /// A string's escaped contents (without quotes).
    fn body(&mut self, s: &str) {
        match escape_at(s.as_bytes()) {
            None if s.len() <= SHORT => self.put(s.as_bytes()),
            _ => {
                self.flush();
                write_str_body(self.out, s);
            }
        }
    }

    fn value(&mut self, v: &Value<'_>) {
        match v {
            Value::Null => self.put(b"null"),
            Value::Bool(true) => self.put(b"true"),
            Value::Bool(false) => self.put(b"false"),
            Value::Number(n) => self.number(*n),
            Value::String(s) => {
                self.put(b"\"");
                self.body(s);
                self.put(b"\"");
            }
            Value::Array(items) => {
                self.put(b"[");
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.put(b",");
                    }
                    self.value(item);
                }
                self.put(b"]");
            }
            Value::Object(entries) => {
                self.put(b"{");
                for (i, (k, item)) in entries.iter().enumerate() {
                    self.put(if i > 0 { b",\"" } else { b"\"" });
                    self.body(k);
                    self.put(b"\":");
                    self.value(item);
                }
                self.put(b"}");
            }
        }
    }

    fn number(&mut self, n: f64) {
        if !n.is_finite() {
            self.put(b"null");
        } else if n.fract() == 0.0 && n.abs() < 1e16 {
            let mut digits = [0u8; 21];
            let start = integer_digits(n as i64, &mut digits);
            self.put(digits.get(start..).unwrap_or_default());
        } else {
            // The shortest text that parses back to the same double, as `write_number` writes
            // it, staged (at most 24 bytes) instead of a flush per fraction.
            self.put(ryu::Buffer::new().format_finite(n).as_bytes());
        }
    }
}

/// A value that can append itself as JSON (used for snapshots and CLI output).
pub trait WriteJson {
    /// Appends the JSON form of `self`.
    fn write_json(&self, out: &mut String);
    /// `false` when the value is absent and its member should be left out.
    fn is_present(&self) -> bool {
        true
    }
}

impl WriteJson for String {
    fn write_json(&self, out: &mut String) {
        write_str(out, self)
    }
}
impl WriteJson for str {
    fn write_json(&self, out: &mut String) {
        write_str(out, self)
    }
}
impl WriteJson for f64 {
    fn write_json(&self, out: &mut String) {
        write_number(out, *self)
    }
}
impl WriteJson for u64 {
    fn write_json(&self, out: &mut String) {
        write_number(out, *self as f64)
    }
}
impl WriteJson for usize {
    fn write_json(&self, out: &mut String) {
        write_number(out, *self as f64)
    }
}
impl WriteJson for bool {
    fn write_json(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" })
    }
}
impl<T: WriteJson> WriteJson for Option<T> {
    fn write_json(&self, out: &mut String) {
        match self {
            Some(v) => v.write_json(out),
            None => out.push_str("null"),
        }
    }
    fn is_present(&self) -> bool {
        self.is_some()
    }
}
/// Appends the items as a JSON array.
fn write_seq<'a, T: WriteJson + 'a>(items: impl Iterator<Item = &'a T>, out: &mut String) {
    let mut empty = true;
    for v in items {
        out.push_str(if empty { "[" } else { "," });
        empty = false;
        v.write_json(out);
    }
    out.push_str(if empty { "[]" } else { "]" });
}
impl<T: WriteJson> WriteJson for Vec<T> {
    fn write_json(&self, out: &mut String) {
        write_seq(self.iter(), out)
    }
}
impl<T: WriteJson> WriteJson for std::collections::VecDeque<T> {
    fn write_json(&self, out: &mut String) {
        write_seq(self.iter(), out)
    }
}
impl WriteJson for Value<'_> {
    fn write_json(&self, out: &mut String) {
        self.write(out)
    }
}
