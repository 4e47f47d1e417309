//! A small JSON reader and writer, written for this crate's hot path.
//!
//! - Linear time, one pass; strings without escapes are borrowed from the input (no allocation).
//! - Strict RFC 8259 grammar (what `JSON.parse` accepts, no more): a malformed document is an
//!   error with a byte offset, never a panic.
//! - Nesting is limited ([`MAX_DEPTH`]) so hostile input cannot exhaust the stack.
//! - Objects keep their keys in document order (a lossless round trip through [`Value::write`]).
//!
//! It replaces serde_json in the shipped wasm: smaller, and it never builds a value the
//! client does not keep.

use std::borrow::Cow;
use std::fmt;

mod keys;
mod number;
mod parse;
pub mod partial;
pub mod patch;
mod write;

pub(crate) use parse::plain_run;
pub use parse::{parse, parse_with_depth};
pub use write::{escape_non_ascii, write_number, write_str, WriteJson};

/// The deepest nesting [`parse`] accepts (objects and arrays count one level each).
pub const MAX_DEPTH: usize = 128;

/// A JSON value. Strings borrow from the parsed text when they contain no escapes.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value<'a> {
    /// `null`
    #[default]
    Null,
    /// `true` / `false`
    Bool(bool),
    /// Any number (as JavaScript sees it: an IEEE 754 double).
    Number(f64),
    /// A string.
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Value<'a>>),
    /// An object, keys in document order (duplicates are kept; lookups see the last, as `JSON.parse`).
    Object(Vec<(Cow<'a, str>, Value<'a>)>),
}

/// An owned JSON value (no borrow of the input).
pub type OwnedValue = Value<'static>;

impl<'a> Value<'a> {
    /// Detaches the value from the input it was parsed from.
    pub fn into_owned(self) -> OwnedValue {
        match self {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(b),
            Value::Number(n) => Value::Number(n),
            Value::String(s) => Value::String(Cow::Owned(s.into_owned())),
            Value::Array(items) => Value::Array(items.into_iter().map(Value::into_owned).collect()),
            Value::Object(entries) => Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| {
                        let k = match k {
                            Cow::Borrowed(k) => keys::owned_key(k),
                            Cow::Owned(k) => Cow::Owned(k),
                        };
                        (k, v.into_owned())
                    })
                    .collect(),
            ),
        }
    }

    /// A copy that borrows nothing: `self.clone().into_owned()` in one traversal instead of
    /// two (the same allocations; short object keys come from the crate's key pool,
    /// `src/json/keys.rs`). Recursion is as deep as the value ([`MAX_DEPTH`] for a parsed one).
    pub fn to_owned_value(&self) -> OwnedValue {
        match self {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(*b),
            Value::Number(n) => Value::Number(*n),
            Value::String(s) => Value::String(Cow::Owned(String::from(&**s))),
            Value::Array(items) => Value::Array(items.iter().map(Value::to_owned_value).collect()),
            Value::Object(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (keys::owned_key(k), v.to_owned_value()))
                    .collect(),
            ),
        }
    }

    /// The member `key` of an object (the last one when a key repeats), or `None`.
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        match self {
            Value::Object(entries) => entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number, if this is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }

    /// The boolean, if this is a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The entries, if this is an object.
    pub fn as_object(&self) -> Option<&[(Cow<'a, str>, Value<'a>)]> {
        match self {
            Value::Object(e) => Some(e),
            _ => None,
        }
    }

    /// The items, if this is an array.
    pub fn as_array(&self) -> Option<&[Value<'a>]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// `true` for `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The JSON type name as a JSON Schema would say it (`integer` for whole numbers).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.fract() == 0.0 && n.is_finite() => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    /// Appends this value as compact JSON to `out`.
    pub fn write(&self, out: &mut String) {
        write::write_value(self, out)
    }

    /// This value as compact JSON text.
    pub fn to_json(&self) -> String {
        let mut s = String::new();
        self.write(&mut s);
        s
    }
}

impl fmt::Display for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json())
    }
}

/// The byte offset of the first `needle` in `hay` (`str::find` with a `&str` pattern), without
/// core's two-way substring searcher: its panic path formats chars with `Debug`, which links
/// the Unicode printable and grapheme tables (about 4 KB gzip of the wasm). The needles here are
/// short literals: a candidate per occurrence of the first byte, checked in place. A match is a
/// char boundary (a UTF-8 text never starts with a continuation byte).
pub fn find_str(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let Some(&first) = n.first() else {
        return Some(0);
    };
    let mut i = 0;
    while let Some(at) = h.get(i..).and_then(|t| memchr::memchr(first, t)) {
        let s = i + at;
        if h.get(s..s + n.len()) == Some(n) {
            return Some(s);
        }
        i = s + 1;
    }
    None
}

/// Whether `hay` contains `needle` (see [`find_str`]).
pub fn contains_str(hay: &str, needle: &str) -> bool {
    find_str(hay, needle).is_some()
}

/// `s` quoted as a JSON string, for messages: `format!("{}", Quoted(s))` writes `"a\"b"`.
///
/// Used instead of `{:?}` on strings, whose escaping needs Unicode tables (~10 KB of the wasm):
/// the output is the same for printable text, and JSON-escaped (`\u001b`) for control characters.
#[derive(Clone, Copy)]
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(self.0.len() + 2);
        write::write_str(&mut s, self.0);
        f.write_str(&s)
    }
}

/// `n` as JSON writes it, for messages: `format!("{}", Num(0.5))` writes `0.5`, whole numbers
/// without a fraction (`3`), non-finite ones as `null`.
///
/// Used instead of `{}` on `f64`, whose formatting machinery (Grisu, Dragon4 and exact
/// precision) would otherwise stay in the wasm next to the JSON writer's.
#[derive(Clone, Copy)]
pub struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write::write_number(&mut s, self.0);
        f.write_str(&s)
    }
}

/// Why a document is not JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonErrorKind {
    /// The text ended inside a value.
    UnexpectedEnd,
    /// A byte that cannot start or continue a value here.
    UnexpectedChar,
    /// Text after the top-level value.
    TrailingCharacters,
    /// A malformed number.
    InvalidNumber,
    /// A malformed escape (`\x`, a bad `\u` sequence).
    InvalidEscape,
    /// A raw control character inside a string.
    ControlCharacter,
    /// Nesting deeper than the limit.
    TooDeep,
}

/// A JSON syntax error: what and where (byte offset into the text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonError {
    /// What went wrong.
    pub kind: JsonErrorKind,
    /// Byte offset into the input.
    pub offset: usize,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            JsonErrorKind::UnexpectedEnd => "unexpected end of json",
            JsonErrorKind::UnexpectedChar => "unexpected character",
            JsonErrorKind::TrailingCharacters => "trailing characters after json value",
            JsonErrorKind::InvalidNumber => "invalid number",
            JsonErrorKind::InvalidEscape => "invalid escape",
            JsonErrorKind::ControlCharacter => "control character in string",
            JsonErrorKind::TooDeep => "json nested too deeply",
        };
        write!(f, "{what} at byte {}", self.offset)
    }
}

impl std::error::Error for JsonError {}

#[cfg(test)]
mod tests;
