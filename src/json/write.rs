//! The writer: compact JSON, escaping as `JSON.stringify` does.

use super::parse::plain_run;
use super::Value;
use std::fmt::Write as _;

/// Appends `s` as a quoted, escaped JSON string.
///
/// The bytes that need an escape are exactly those that end a plain run when parsing (`"`, `\`
/// and the control characters), so the parser's 8-bytes-per-step scan finds them; everything
/// between them is copied in one piece.
pub fn write_str(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let mut rest = s;
    while let Some(n) = plain_run(rest.as_bytes()) {
        let Some((plain, tail)) = rest.split_at_checked(n) else {
            break;
        };
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
    }
    out.push_str(rest);
    out.push('"');
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
    if n < 0 {
        out.push('-');
    }
    let mut v = n.unsigned_abs();
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        if let Some(d) = digits.get_mut(start) {
            *d = b'0' + (v % 10) as u8;
        }
        v /= 10;
        if v == 0 || start == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(digits.get(start..).unwrap_or(&[])).unwrap_or("0"));
}

pub(super) fn write_value(v: &Value<'_>, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => write_number(out, *n),
        Value::String(s) => write_str(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(item, out);
            }
            out.push(']');
        }
        Value::Object(entries) => {
            out.push('{');
            for (i, (k, item)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(out, k);
                out.push(':');
                write_value(item, out);
            }
            out.push('}');
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
    out.push('[');
    for (i, v) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        v.write_json(out);
    }
    out.push(']');
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
