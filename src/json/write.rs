//! The writer: compact JSON, escaping as `JSON.stringify` does.

use super::Value;
use std::fmt::Write as _;

/// Bytes that need an escape inside a JSON string.
static NEEDS_ESCAPE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// Appends `s` as a quoted, escaped JSON string.
pub fn write_str(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if !NEEDS_ESCAPE[b as usize] {
            continue;
        }
        out.push_str(s.get(run..i).unwrap_or(""));
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                let _ = write!(out, "\\u{:04x}", b);
            }
        }
        run = i + 1;
    }
    out.push_str(s.get(run..).unwrap_or(""));
    out.push('"');
}

/// Appends a number as JSON (`null` for NaN and infinities, as `JSON.stringify`).
pub fn write_number(out: &mut String, n: f64) {
    if !n.is_finite() {
        out.push_str("null");
    } else if n.fract() == 0.0 && n.abs() < 1e16 {
        let _ = write!(out, "{}", n as i64);
    } else {
        // Debug is the shortest round-trip form and uses exponents for very large/small values.
        let _ = write!(out, "{:?}", n);
    }
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
