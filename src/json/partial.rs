//! Partial JSON, as the Vercel AI SDK (`ai` 7.0.173) reads it: a port of its `fixJson`,
//! `parsePartialJson` and `mergeObjects` (`src/util/fix-json.ts`, `parse-partial-json.ts`,
//! `merge-objects.ts`), checked against vectors made with the official package
//! (`tests/vectors/partial-json/`, `tests/partial_json.rs`).
//!
//! JavaScript indexes strings by UTF-16 code unit: a character outside the Basic Multilingual
//! Plane is two steps of `fixJson`'s state machine, and so it is here (which matters, e.g., for
//! `[1😀`: the first half ends the number, the second is taken as part of the array).

use super::{parse, OwnedValue, Value};
use crate::hash::{FastMap, FastSet};
use std::borrow::Cow;
use std::collections::BinaryHeap;

/// The states of `fixJson`'s scanner (same names, same meaning).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Root,
    Finish,
    InsideString,
    InsideStringEscape,
    InsideStringUnicodeEscape,
    InsideLiteral,
    InsideNumber,
    InsideObjectStart,
    InsideObjectKey,
    InsideObjectAfterKey,
    InsideObjectBeforeValue,
    InsideObjectAfterValue,
    InsideObjectAfterComma,
    InsideArrayStart,
    InsideArrayAfterValue,
    InsideArrayAfterComma,
}

/// One UTF-16 code unit as the scanner sees it: `Some(byte)` for ASCII, `None` for any other
/// (every character the scanner acts on is ASCII).
type Unit = Option<u8>;

/// Is `partial` a prefix of `false`, `true` or `null`?
fn literal_prefix(partial: &[u8]) -> bool {
    b"false".starts_with(partial) || b"true".starts_with(partial) || b"null".starts_with(partial)
}

struct Fixer<'a> {
    bytes: &'a [u8],
    stack: Vec<State>,
    /// Byte offset just past the last valid character (`lastValidIndex + 1` in UTF-8).
    valid_end: usize,
    /// Byte offset of the literal being read.
    literal_start: usize,
    unicode_escape_digits: u8,
}

impl Fixer<'_> {
    fn top(&self) -> Option<State> {
        self.stack.last().copied()
    }

    /// `stack.pop(); stack.push(state)`.
    fn swap(&mut self, state: State) {
        self.stack.pop();
        self.stack.push(state);
    }

    /// `processValueStart`: `at`/`end` are the byte range of the character the unit belongs to.
    fn value_start(&mut self, unit: Unit, at: usize, end: usize, swap_state: State) {
        let inner = match unit {
            Some(b'"') => {
                self.valid_end = end;
                State::InsideString
            }
            Some(b'f' | b't' | b'n') => {
                self.valid_end = end;
                self.literal_start = at;
                State::InsideLiteral
            }
            Some(b'-') => State::InsideNumber,
            Some(b'0'..=b'9') => {
                self.valid_end = end;
                State::InsideNumber
            }
            Some(b'{') => {
                self.valid_end = end;
                State::InsideObjectStart
            }
            Some(b'[') => {
                self.valid_end = end;
                State::InsideArrayStart
            }
            _ => return,
        };
        self.swap(swap_state);
        self.stack.push(inner);
    }

    /// `processAfterObjectValue`.
    fn after_object_value(&mut self, unit: Unit, end: usize) {
        match unit {
            Some(b',') => self.swap(State::InsideObjectAfterComma),
            Some(b'}') => {
                self.valid_end = end;
                self.stack.pop();
            }
            _ => {}
        }
    }

    /// `processAfterArrayValue`.
    fn after_array_value(&mut self, unit: Unit, end: usize) {
        match unit {
            Some(b',') => self.swap(State::InsideArrayAfterComma),
            Some(b']') => {
                self.valid_end = end;
                self.stack.pop();
            }
            _ => {}
        }
    }

    /// One iteration of `fixJson`'s loop.
    fn step(&mut self, unit: Unit, at: usize, end: usize) {
        let Some(state) = self.top() else { return };
        match state {
            State::Root => self.value_start(unit, at, end, State::Finish),
            State::Finish => {}
            State::InsideObjectStart => match unit {
                Some(b'"') => self.swap(State::InsideObjectKey),
                Some(b'}') => {
                    self.valid_end = end;
                    self.stack.pop();
                }
                _ => {}
            },
            State::InsideObjectAfterComma => {
                if unit == Some(b'"') {
                    self.swap(State::InsideObjectKey);
                }
            }
            State::InsideObjectKey => {
                if unit == Some(b'"') {
                    self.swap(State::InsideObjectAfterKey);
                }
            }
            State::InsideObjectAfterKey => {
                if unit == Some(b':') {
                    self.swap(State::InsideObjectBeforeValue);
                }
            }
            State::InsideObjectBeforeValue => {
                self.value_start(unit, at, end, State::InsideObjectAfterValue);
            }
            State::InsideObjectAfterValue => self.after_object_value(unit, end),
            State::InsideString => match unit {
                Some(b'"') => {
                    self.stack.pop();
                    self.valid_end = end;
                }
                Some(b'\\') => self.stack.push(State::InsideStringEscape),
                _ => self.valid_end = end,
            },
            State::InsideArrayStart => match unit {
                Some(b']') => {
                    self.valid_end = end;
                    self.stack.pop();
                }
                _ => self.value_start(unit, at, end, State::InsideArrayAfterValue),
            },
            State::InsideArrayAfterValue => match unit {
                Some(b',') => self.swap(State::InsideArrayAfterComma),
                Some(b']') => {
                    self.valid_end = end;
                    self.stack.pop();
                }
                _ => self.valid_end = end,
            },
            State::InsideArrayAfterComma => {
                self.value_start(unit, at, end, State::InsideArrayAfterValue);
            }
            State::InsideStringEscape => {
                self.stack.pop();
                if unit == Some(b'u') {
                    self.unicode_escape_digits = 0;
                    self.stack.push(State::InsideStringUnicodeEscape);
                } else {
                    self.valid_end = end;
                }
            }
            State::InsideStringUnicodeEscape => {
                if unit.is_some_and(|b| b.is_ascii_hexdigit()) {
                    self.unicode_escape_digits += 1;
                    if self.unicode_escape_digits == 4 {
                        self.stack.pop();
                        self.valid_end = end;
                    }
                }
            }
            State::InsideNumber => match unit {
                Some(b'0'..=b'9') => self.valid_end = end,
                Some(b'e' | b'E' | b'-' | b'.') => {}
                Some(b',') => {
                    self.stack.pop();
                    if self.top() == Some(State::InsideArrayAfterValue) {
                        self.after_array_value(unit, end);
                    }
                    if self.top() == Some(State::InsideObjectAfterValue) {
                        self.after_object_value(unit, end);
                    }
                }
                Some(b'}') => {
                    self.stack.pop();
                    if self.top() == Some(State::InsideObjectAfterValue) {
                        self.after_object_value(unit, end);
                    }
                }
                Some(b']') => {
                    self.stack.pop();
                    if self.top() == Some(State::InsideArrayAfterValue) {
                        self.after_array_value(unit, end);
                    }
                }
                _ => {
                    self.stack.pop();
                }
            },
            State::InsideLiteral => {
                // The literal so far is ASCII (each of its characters matched a prefix), so with
                // an ASCII unit it is the bytes `literal_start..end`; a non-ASCII unit never
                // continues `false`, `true` or `null`.
                let continues = match unit {
                    Some(_) => self
                        .bytes
                        .get(self.literal_start..end)
                        .is_some_and(literal_prefix),
                    None => false,
                };
                if continues {
                    self.valid_end = end;
                } else {
                    self.stack.pop();
                    if self.top() == Some(State::InsideObjectAfterValue) {
                        self.after_object_value(unit, end);
                    } else if self.top() == Some(State::InsideArrayAfterValue) {
                        self.after_array_value(unit, end);
                    }
                }
            }
        }
    }
}

/// Closes a truncated JSON text so that it parses: the Vercel AI SDK's `fixJson`, to the
/// character.
///
/// One linear scan keeps the end of the last complete piece (a key without its value, an
/// unfinished escape, a lone `-` are dropped), then closes what is open: strings with `"`,
/// objects with `}`, arrays with `]`, and completes a partial `tr`/`fa`/`nu` literal. Input that
/// is not the prefix of a JSON text gives some text that is generally not JSON either (as in the
/// SDK, whose caller then fails to parse it). Never panics.
pub fn fix_json(input: &str) -> String {
    let mut fixer = Fixer {
        bytes: input.as_bytes(),
        stack: vec![State::Root],
        valid_end: 0,
        literal_start: 0,
        unicode_escape_digits: 0,
    };
    for (at, c) in input.char_indices() {
        let end = at + c.len_utf8();
        let unit = u8::try_from(c).ok().filter(u8::is_ascii);
        // A character outside the BMP is two UTF-16 code units, both non-ASCII. The state
        // machine never makes the first one the last valid character without the second, so
        // "the end of the character" is exact for both.
        for _ in 0..c.len_utf16() {
            fixer.step(unit, at, end);
        }
    }

    let mut result = String::with_capacity(fixer.valid_end + fixer.stack.len() + 4);
    result.push_str(input.get(..fixer.valid_end).unwrap_or_default());
    for state in fixer.stack.iter().rev() {
        match state {
            State::InsideString => result.push('"'),
            State::InsideObjectKey
            | State::InsideObjectAfterKey
            | State::InsideObjectAfterComma
            | State::InsideObjectStart
            | State::InsideObjectBeforeValue
            | State::InsideObjectAfterValue => result.push('}'),
            State::InsideArrayStart
            | State::InsideArrayAfterComma
            | State::InsideArrayAfterValue => result.push(']'),
            State::InsideLiteral => {
                let partial = input.get(fixer.literal_start..).unwrap_or_default();
                for literal in ["true", "false", "null"] {
                    if literal.starts_with(partial) {
                        result.push_str(literal.get(partial.len()..).unwrap_or_default());
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    result
}

/// Parses possibly truncated JSON as the Vercel AI SDK's `parsePartialJson` does: the text as
/// is, else [`fix_json`] of it, else `None` (`failed-parse`; the SDK's `value: undefined`).
///
/// As the SDK's `secureJsonParse`, a document with an object member `"__proto__"`, or a member
/// `"constructor"` whose value is an object with a member `"prototype"`, does not parse.
/// Differences from JavaScript: nesting deeper than [`MAX_DEPTH`](super::MAX_DEPTH) does not
/// parse, and a lone surrogate escape reads as U+FFFD (see [`parse`]).
pub fn parse_partial_json(text: &str) -> Option<OwnedValue> {
    secure_parse(text).or_else(|| secure_parse(&fix_json(text)))
}

/// `secureJsonParse`: `JSON.parse`, then refuse prototype-polluting members.
fn secure_parse(text: &str) -> Option<OwnedValue> {
    let value = parse(text).ok()?;
    if has_forbidden_member(&value) {
        return None;
    }
    Some(value.into_owned())
}

/// The `filter` of secure-json-parse, over the values `JSON.parse` keeps (the last of a
/// repeated key). Iterative.
fn has_forbidden_member(value: &Value<'_>) -> bool {
    let mut pending = vec![value];
    while let Some(node) = pending.pop() {
        match node {
            Value::Array(items) => pending.extend(items),
            Value::Object(entries) => {
                if entries.iter().any(|(k, _)| k == "__proto__") {
                    return true;
                }
                if let Some(Value::Object(ctor)) = node.get("constructor") {
                    if ctor.iter().any(|(k, _)| k == "prototype") {
                        return true;
                    }
                }
                let mut seen = FastSet::default();
                for (k, v) in entries.iter().rev() {
                    if seen.insert(k.as_ref()) {
                        pending.push(v);
                    }
                }
            }
            _ => {}
        }
    }
    false
}

/// An object's members as JavaScript holds them: one per key, at the place of its first
/// occurrence, with the value of its last.
struct Members {
    entries: Vec<(String, OwnedValue)>,
    index: FastMap<String, usize>,
}

impl Members {
    fn new() -> Self {
        Members {
            entries: Vec::new(),
            index: FastMap::default(),
        }
    }

    fn get(&self, key: &str) -> Option<&OwnedValue> {
        self.index
            .get(key)
            .and_then(|&i| self.entries.get(i))
            .map(|(_, v)| v)
    }

    fn set(&mut self, key: String, value: OwnedValue) {
        match self.index.get(&key).and_then(|&i| self.entries.get_mut(i)) {
            Some(slot) => slot.1 = value,
            None => {
                self.index.insert(key.clone(), self.entries.len());
                self.entries.push((key, value));
            }
        }
    }

    /// The own enumerable properties of `value` as `{ ...value }` / `for (key in value)` see
    /// them: an object's members, an array's elements and a string's UTF-16 code units (a
    /// surrogate half becomes U+FFFD) under their index, nothing for other values.
    fn of(value: &Value<'_>) -> Self {
        let mut m = Members::new();
        match value {
            Value::Object(entries) => {
                for (k, v) in entries {
                    m.set(k.to_string(), v.to_owned_value());
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    m.set(i.to_string(), v.to_owned_value());
                }
            }
            Value::String(s) => {
                let mut i = 0usize;
                for c in s.chars() {
                    let unit = if c.len_utf16() == 1 { c } else { '\u{FFFD}' };
                    for _ in 0..c.len_utf16() {
                        m.set(i.to_string(), Value::String(Cow::Owned(unit.to_string())));
                        i += 1;
                    }
                }
            }
            _ => {}
        }
        m
    }

    /// The object, keys in JavaScript's property order: array indices ascending, then the
    /// other keys in insertion order.
    ///
    /// The indices (unique: keys are) are ordered by a `BinaryHeap` (O(n log n), already in the
    /// wasm) rather than `slice::sort_by`, whose stable merge/quick sort is ~4 KB of wasm.
    fn into_value(self) -> OwnedValue {
        let indices: Vec<(u32, usize)> = (self.entries.iter().enumerate())
            .filter_map(|(at, (k, _))| Some((array_index(k)?, at)))
            .collect();
        let indices = BinaryHeap::from(indices).into_sorted_vec();
        let mut slots: Vec<Option<(String, OwnedValue)>> =
            self.entries.into_iter().map(Some).collect();
        let mut ordered = Vec::with_capacity(slots.len());
        ordered.extend(
            (indices.iter()).filter_map(|&(_, at)| slots.get_mut(at).and_then(Option::take)),
        );
        ordered.extend(slots.iter_mut().filter_map(Option::take));
        Value::Object(
            ordered
                .into_iter()
                .map(|(k, v)| (Cow::Owned(k), v))
                .collect(),
        )
    }
}

/// `key` as an array index (a canonical decimal integer up to 2³² − 2), which JavaScript
/// objects list first, in numeric order.
fn array_index(key: &str) -> Option<u32> {
    if key.is_empty() || key.len() > 10 || (key.len() > 1 && key.starts_with('0')) {
        return None;
    }
    if !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse::<u32>().ok().filter(|&n| n != u32::MAX)
}

/// A mergeable object in `mergeObjects`' sense (not an array, not null).
fn is_object(value: &Value<'_>) -> bool {
    matches!(value, Value::Object(_))
}

/// Deep-merges `overrides` into `base`: the Vercel AI SDK's `mergeObjects`.
///
/// The result is a new object: `base`'s members, then each member of `overrides` (except
/// `__proto__`, `constructor` and `prototype`, skipped) replacing the one of the same key or
/// added after them; where both values are objects (not arrays, not null) they are merged the
/// same way, recursively. Arrays, `null` and scalars replace. As in JavaScript, the members of
/// an array or a string `base`/`overrides` are its elements / UTF-16 code units under their index
/// (`{ ...[1, 2] }` is `{"0": 1, "1": 2}`), a `null`, boolean or number has none, and the merged
/// object lists array-index keys first, ascending. A key repeated in an input counts once, with
/// its last value (as `JSON.parse` builds it).
///
/// One deviation: where JavaScript throws a `TypeError` (a `null`, boolean, number or string
/// `base` with a member to merge in: `key in base` on a primitive), the result is as if `base`
/// had no such member (the member of `overrides` is taken as is). For JavaScript's `undefined`,
/// see [`merge_optional`].
pub fn merge_objects(base: &Value<'_>, overrides: &Value<'_>) -> OwnedValue {
    let mut result = Members::of(base);
    for (key, overrides_value) in Members::of(overrides).entries {
        if matches!(key.as_str(), "__proto__" | "constructor" | "prototype") {
            continue;
        }
        // `key in base`: an own member of an object or an index of an array (inherited
        // properties, such as `toString`, are never objects, so they never merge). The keys of
        // `overrides` are distinct, so `result` still holds `base`'s value for this one.
        let base_value = match base {
            Value::Object(_) | Value::Array(_) => result.get(&key),
            _ => None,
        };
        let merged = match base_value {
            Some(b) if is_object(b) && is_object(&overrides_value) => {
                merge_objects(b, &overrides_value)
            }
            _ => overrides_value,
        };
        result.set(key, merged);
    }
    result.into_value()
}

/// [`merge_objects`] with JavaScript's `undefined` as `None`: `None` when both are, the other
/// one (as is) when one is.
pub fn merge_optional(
    base: Option<&Value<'_>>,
    overrides: Option<&Value<'_>>,
) -> Option<OwnedValue> {
    match (base, overrides) {
        (None, None) => None,
        (None, Some(o)) => Some(o.to_owned_value()),
        (Some(b), None) => Some(b.to_owned_value()),
        (Some(b), Some(o)) => Some(merge_objects(b, o)),
    }
}
