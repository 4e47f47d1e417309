//! JSON Patch (RFC 6902) over [`Value`], with JSON Pointers (RFC 6901).
//!
//! [`apply`] runs a patch (a JSON array of operations) against a document in place, all or
//! nothing: when an operation fails (a failing `test` included), the document is put back exactly
//! as it was and the error names the operation.
//!
//! # Atomicity: an undo log
//!
//! Every change an operation makes is recorded as its inverse (an item or member inserted at a
//! position, one removed from a position together with its value, a value replaced together with
//! the old value), each with the positions that lead to its container (array indices and
//! member positions, in one shared buffer). On failure the log is replayed backwards. Removed and
//! replaced values are moved into the log, never cloned, so the log costs O(1) plus the depth of
//! the changed location per change, and a successful patch costs what its operations cost —
//! nothing proportional to the document (applying to a copy would clone the whole state for
//! every delta). Undoing costs what the changes cost, again. Nothing is quadratic in the number of
//! operations.
//!
//! What the operations themselves cost: locating a pointer is O(its tokens), plus a scan of each
//! object it passes through (members are a list in document order); inserting into or removing
//! from an array or object shifts what follows (`Vec::insert`/`remove`); `add`/`replace` of a
//! value from the patch and `copy` clone that value (O(its size)); `move` moves without copying
//! (its depth is checked, O(its size), only when it moves deeper); `test` compares in
//! O(n log n) of the compared values (object members are sorted to compare them unordered).
//! The number of operations per patch is not limited here: that cap is the caller's business.
//!
//! # Rules
//!
//! - Pointers: `""` is the whole document, otherwise `/`-separated tokens with `~1` for `/` and
//!   `~0` for `~` (any other `~` is an error). Array indices are decimal without leading zeros
//!   (`0`, `12`, not `01`, `1e0`, `-1`); `-` is the end of an array, for `add` only.
//! - `add` replaces an existing object member; inserts into arrays (index ≤ length); `remove`,
//!   `replace` and `test` need the target to exist; `move` needs `from` not to be a proper
//!   prefix of `path` (a value cannot move into its own child), `move` onto itself does nothing.
//! - `remove` of `""` leaves `null` (as the AG-UI reference client, fast-json-patch, does).
//! - `test` compares by JSON value: numbers by numeric value (`1` equals `1.0`: both are the same
//!   double), objects unordered, arrays in order.
//! - Members other than `op`, `path`, `from` and `value` are ignored (RFC 6902 §4). Objects with
//!   repeated keys follow lookup semantics (the last one counts, as `JSON.parse`): `add` and
//!   `replace` set the last one, `remove` and `move` take out every one. That goes for the
//!   operations too: `{"op":"add",…,"op":"remove"}` is a `remove` (RFC 6902 A.13 leaves
//!   duplicates without standard handling; this is what `JSON.parse` and fast-json-patch do).
//! - Depth: an operation whose result would nest deeper than [`MAX_DEPTH`] fails
//!   ([`PatchError::TooDeep`]), so a document built by patches stays within what the parser
//!   accepts and every recursion here (or in `Clone`, `Drop`, the writer) stays bounded. The
//!   document given to [`apply`] is assumed to be within that limit (one [`parse`](super::parse)
//!   produced, or earlier patches kept).
//! - No input makes it panic.

mod pointer;

use super::{Quoted, Value, MAX_DEPTH};
use pointer::{
    array_index, item_index, key_position, locate, locate_mut, parse_pointer, Miss, Tokens,
};
use std::borrow::Cow;
use std::fmt;

/// Applies the JSON Patch `patch` (an array of operations) to `doc`, all or nothing.
///
/// `doc` is a [`Value`] of any lifetime (an [`OwnedValue`](super::OwnedValue) for a state that
/// outlives the text it came from): everything the patch brings in is copied into owned strings,
/// so the patch can borrow from a short-lived event while the document lives on; existing
/// borrowed strings of the document stay as they are.
///
/// On error the document is exactly as it was before the call (see the [module](self) docs for
/// how, and what it costs).
pub fn apply(doc: &mut Value<'_>, patch: &Value<'_>) -> Result<(), PatchError> {
    let Value::Array(ops) = patch else {
        return Err(PatchError::NotAnArray);
    };
    let mut log = UndoLog {
        trail: Vec::new(),
        steps: Vec::with_capacity(ops.len()),
    };
    // The tokens of `path` and `from`, one buffer each for every operation.
    let mut tokens = (Vec::new(), Vec::new());
    for (index, op) in ops.iter().enumerate() {
        if let Err(e) = apply_op(doc, op, index, &mut log, &mut tokens) {
            log.undo(doc);
            return Err(e);
        }
    }
    Ok(())
}

/// JSON equality as the `test` operation sees it: same type and value, numbers by numeric value,
/// arrays in order, objects unordered (by their members as lookups see them: the last of a
/// repeated key). Iterative: no recursion whatever the depth.
pub fn values_equal(a: &Value<'_>, b: &Value<'_>) -> bool {
    let mut stack = vec![(a, b)];
    while let Some(pair) = stack.pop() {
        match pair {
            (Value::Null, Value::Null) => {}
            (Value::Bool(x), Value::Bool(y)) if x == y => {}
            (Value::Number(x), Value::Number(y)) if x == y => {}
            (Value::String(x), Value::String(y)) if x == y => {}
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                stack.extend(x.iter().zip(y.iter()));
            }
            (Value::Object(x), Value::Object(y)) => {
                let (x, y) = (members(x), members(y));
                if x.len() != y.len() {
                    return false;
                }
                for ((kx, vx), (ky, vy)) in x.into_iter().zip(y) {
                    if kx != ky {
                        return false;
                    }
                    stack.push((vx, vy));
                }
            }
            _ => return false,
        }
    }
    true
}

/// Why a patch was not applied. [`code`](Self::code) is stable and short; the
/// [`Display`](fmt::Display) text names the operation (its index in the patch) and the pointer.
///
/// `op` is the index of the failing operation in the patch array and `member` the member of that
/// operation the error is about (`"op"`, `"path"`, `"from"` or `"value"`), so a caller can point
/// at it: `$.delta[{op}].{member}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PatchError {
    /// The patch is not a JSON array.
    NotAnArray,
    /// An operation is malformed: not an object, an unknown `op`, a required member missing or
    /// not of its type, or a `move` into its own child.
    InvalidOp {
        /// Index of the operation in the patch.
        op: usize,
        /// The member at fault.
        member: &'static str,
        /// What is wrong.
        reason: &'static str,
    },
    /// A pointer is not a JSON Pointer (not empty and not starting with `/`, or a `~` not
    /// followed by `0` or `1`).
    InvalidPointer {
        /// Index of the operation in the patch.
        op: usize,
        /// `"path"` or `"from"`.
        member: &'static str,
        /// The pointer as written.
        pointer: String,
    },
    /// A token that must index an array is not an index (`01`, `1e0`, `-1`, a name) or, for
    /// `add`, is past the end.
    InvalidIndex {
        /// Index of the operation in the patch.
        op: usize,
        /// `"path"` or `"from"`.
        member: &'static str,
        /// The pointer as written.
        pointer: String,
    },
    /// The pointer leads nowhere: a missing member or element, `-` where an element must exist,
    /// or a token below a string, number, boolean or null.
    PathNotFound {
        /// Index of the operation in the patch.
        op: usize,
        /// `"path"` or `"from"`.
        member: &'static str,
        /// The pointer as written.
        pointer: String,
    },
    /// A `test` operation found a different value.
    TestFailed {
        /// Index of the operation in the patch.
        op: usize,
        /// The tested pointer.
        pointer: String,
    },
    /// The result would nest deeper than [`MAX_DEPTH`].
    TooDeep {
        /// Index of the operation in the patch.
        op: usize,
        /// Where the value was to go.
        pointer: String,
    },
}

impl PatchError {
    /// A stable short code: `invalid-patch`, `invalid-pointer`, `invalid-index`,
    /// `path-not-found`, `test-failed` or `too-deep`.
    pub fn code(&self) -> &'static str {
        match self {
            PatchError::NotAnArray | PatchError::InvalidOp { .. } => "invalid-patch",
            PatchError::InvalidPointer { .. } => "invalid-pointer",
            PatchError::InvalidIndex { .. } => "invalid-index",
            PatchError::PathNotFound { .. } => "path-not-found",
            PatchError::TestFailed { .. } => "test-failed",
            PatchError::TooDeep { .. } => "too-deep",
        }
    }

    /// The index of the failing operation in the patch (`None` when the patch is not an array).
    pub fn op(&self) -> Option<usize> {
        match self {
            PatchError::NotAnArray => None,
            PatchError::InvalidOp { op, .. }
            | PatchError::InvalidPointer { op, .. }
            | PatchError::InvalidIndex { op, .. }
            | PatchError::PathNotFound { op, .. }
            | PatchError::TestFailed { op, .. }
            | PatchError::TooDeep { op, .. } => Some(*op),
        }
    }

    /// The member of the failing operation the error is about (`"op"`, `"path"`, `"from"`,
    /// `"value"`), `None` when the patch is not an array.
    pub fn member(&self) -> Option<&'static str> {
        match self {
            PatchError::NotAnArray => None,
            PatchError::InvalidOp { member, .. }
            | PatchError::InvalidPointer { member, .. }
            | PatchError::InvalidIndex { member, .. }
            | PatchError::PathNotFound { member, .. } => Some(member),
            PatchError::TestFailed { .. } | PatchError::TooDeep { .. } => Some("path"),
        }
    }
}

impl fmt::Display for PatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatchError::NotAnArray => f.write_str("json patch: the patch is not an array"),
            PatchError::InvalidOp { op, member, reason } => {
                write!(f, "json patch op {op}: {member}: {reason}")
            }
            PatchError::InvalidPointer {
                op,
                member,
                pointer,
            } => write!(
                f,
                "json patch op {op}: {member} {} is not a JSON pointer",
                Quoted(pointer)
            ),
            PatchError::InvalidIndex {
                op,
                member,
                pointer,
            } => write!(
                f,
                "json patch op {op}: {member} {}: not a valid array index",
                Quoted(pointer)
            ),
            PatchError::PathNotFound {
                op,
                member,
                pointer,
            } => write!(
                f,
                "json patch op {op}: {member} {}: no such location",
                Quoted(pointer)
            ),
            PatchError::TestFailed { op, pointer } => write!(
                f,
                "json patch op {op}: test failed: the value at {} differs",
                Quoted(pointer)
            ),
            PatchError::TooDeep { op, pointer } => write!(
                f,
                "json patch op {op}: path {}: the document would nest deeper than {MAX_DEPTH}",
                Quoted(pointer)
            ),
        }
    }
}

impl std::error::Error for PatchError {}

/// The six operations.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Add,
    Remove,
    Replace,
    Move,
    Copy,
    Test,
}

/// Whether `v` nests at most `budget` levels (containers count one each). Recursion stops at
/// `budget`, so it is bounded whatever `v` is.
fn fits(v: &Value<'_>, budget: usize) -> bool {
    match v {
        Value::Array(items) => budget > 0 && items.iter().all(|i| fits(i, budget - 1)),
        Value::Object(entries) => budget > 0 && entries.iter().all(|(_, i)| fits(i, budget - 1)),
        _ => true,
    }
}

/// Whether `v` can be placed under `tokens` without the document nesting deeper than
/// [`MAX_DEPTH`].
fn fits_at(v: &Value<'_>, tokens: &[Cow<'_, str>]) -> bool {
    tokens.len() <= MAX_DEPTH && fits(v, MAX_DEPTH - tokens.len())
}

/// A member of an object for comparison: key and value.
type Member<'v, 'a> = (&'v str, &'v Value<'a>);

/// The members of an object as lookups see them (the last of a repeated key), sorted by key.
fn members<'v, 'a>(entries: &'v [(Cow<'a, str>, Value<'a>)]) -> Vec<Member<'v, 'a>> {
    let sorted = merge_sort(entries.iter().map(|(k, v)| (&**k, v)).collect());
    let mut out: Vec<Member<'v, 'a>> = Vec::with_capacity(sorted.len());
    for m in sorted {
        // Stable sort: of equal keys the later one (in document order) comes later and wins.
        match out.last_mut() {
            Some(last) if last.0 == m.0 => *last = m,
            _ => out.push(m),
        }
    }
    out
}

/// A stable merge sort by key (the standard library's sorts cost kilobytes of wasm per element
/// type; this is a few hundred bytes and O(n log n)). Recursion depth is log2 of the length.
fn merge_sort<'v, 'a>(mut v: Vec<Member<'v, 'a>>) -> Vec<Member<'v, 'a>> {
    if v.len() <= 1 {
        return v;
    }
    let right = merge_sort(v.split_off(v.len() / 2));
    let left = merge_sort(v);
    let mut out = Vec::with_capacity(left.len() + right.len());
    let (mut l, mut r) = (left.into_iter().peekable(), right.into_iter().peekable());
    loop {
        let take_left = match (l.peek(), r.peek()) {
            (Some(a), Some(b)) => a.0 <= b.0,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        out.extend(if take_left { l.next() } else { r.next() });
    }
    out
}

/// One inverse change; its container (or target, for `Replaced`) is found by following
/// `trail[start..end]` from the root.
struct Step<'a> {
    start: usize,
    end: usize,
    undo: Undo<'a>,
}

enum Undo<'a> {
    /// An item or member was inserted at `at`: take it out (into the carry).
    Inserted { at: usize },
    /// An item (`key: None`) or member was removed from `at`: put it back. `value: None` is a
    /// value that moved on (`move`): it is the carry, which undoing its insertion just filled.
    Removed {
        at: usize,
        key: Option<Cow<'a, str>>,
        value: Option<Value<'a>>,
    },
    /// The value at the target was replaced: put `old` back (the newer one goes to the carry).
    Replaced { old: Value<'a> },
}

struct UndoLog<'a> {
    trail: Vec<usize>,
    steps: Vec<Step<'a>>,
}

impl<'a> UndoLog<'a> {
    fn push(&mut self, start: usize, undo: Undo<'a>) {
        self.steps.push(Step {
            start,
            end: self.trail.len(),
            undo,
        });
    }

    /// Replays the log backwards onto `doc`. Each step finds the document as it was right after
    /// the change it reverts, so its trail is valid; a step that does not fit (which would be a
    /// bug) is skipped rather than panicking.
    fn undo(self, doc: &mut Value<'a>) {
        let mut carry: Option<Value<'a>> = None;
        for step in self.steps.into_iter().rev() {
            let Some(path) = self.trail.get(step.start..step.end) else {
                continue;
            };
            let Some(target) = follow(doc, path) else {
                continue;
            };
            match (step.undo, target) {
                (Undo::Replaced { old }, target) => carry = Some(std::mem::replace(target, old)),
                (Undo::Inserted { at }, Value::Array(items)) if at < items.len() => {
                    carry = Some(items.remove(at));
                }
                (Undo::Inserted { at }, Value::Object(entries)) if at < entries.len() => {
                    carry = Some(entries.remove(at).1);
                }
                (Undo::Removed { at, key, value }, target) => {
                    let value = value.or_else(|| carry.take()).unwrap_or_default();
                    match (key, target) {
                        (None, Value::Array(items)) if at <= items.len() => items.insert(at, value),
                        (Some(key), Value::Object(entries)) if at <= entries.len() => {
                            entries.insert(at, (key, value));
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }
}

/// The value reached from `doc` by item/member positions.
fn follow<'d, 'a>(doc: &'d mut Value<'a>, path: &[usize]) -> Option<&'d mut Value<'a>> {
    let mut cur = doc;
    for &at in path {
        cur = match cur {
            Value::Array(items) => items.get_mut(at)?,
            Value::Object(entries) => entries.get_mut(at).map(|(_, v)| v)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Adds `value` at `tokens` (RFC 6902 §4.1), logging the inverse. On error the value comes
/// back (`move` returns it to where it came from).
fn add<'a>(
    doc: &mut Value<'a>,
    tokens: &[Cow<'_, str>],
    value: Value<'a>,
    log: &mut UndoLog<'a>,
) -> Result<(), (Miss, Value<'a>)> {
    let start = log.trail.len();
    let Some((last, parents)) = tokens.split_last() else {
        let old = std::mem::replace(doc, value);
        log.push(start, Undo::Replaced { old });
        return Ok(());
    };
    let parent = match locate_mut(doc, parents, &mut log.trail) {
        Ok(p) => p,
        Err(e) => {
            log.trail.truncate(start);
            return Err((e, value));
        }
    };
    let undo = match parent {
        Value::Object(entries) => match key_position(entries, last) {
            Some(at) => {
                let slot = entries.get_mut(at).map(|(_, v)| v);
                let Some(slot) = slot else {
                    log.trail.truncate(start);
                    return Err((Miss::NotFound, value));
                };
                log.trail.push(at);
                Undo::Replaced {
                    old: std::mem::replace(slot, value),
                }
            }
            None => {
                entries.push((Cow::Owned(String::from(&**last)), value));
                Undo::Inserted {
                    at: entries.len() - 1,
                }
            }
        },
        Value::Array(items) => {
            let at = if last == "-" {
                Some(items.len())
            } else {
                array_index(last).filter(|&at| at <= items.len())
            };
            let Some(at) = at else {
                log.trail.truncate(start);
                return Err((Miss::BadIndex, value));
            };
            items.insert(at, value);
            Undo::Inserted { at }
        }
        _ => {
            log.trail.truncate(start);
            return Err((Miss::NotFound, value));
        }
    };
    log.push(start, undo);
    Ok(())
}

/// Removes the value at `tokens` (not the root; RFC 6902 §4.2). With `keep`, the value is
/// returned (for `move`) and the log's step waits for it in the carry; otherwise it goes into
/// the log.
fn remove<'a>(
    doc: &mut Value<'a>,
    tokens: &[Cow<'_, str>],
    keep: bool,
    log: &mut UndoLog<'a>,
) -> Result<Option<Value<'a>>, Miss> {
    let start = log.trail.len();
    let Some((last, parents)) = tokens.split_last() else {
        // The root: `apply_op` handles `remove` of it, and `move` from it is always a move
        // into its own child or onto itself, refused or skipped before this.
        return Err(Miss::NotFound);
    };
    let parent = match locate_mut(doc, parents, &mut log.trail) {
        Ok(p) => p,
        Err(e) => {
            log.trail.truncate(start);
            return Err(e);
        }
    };
    let end = log.trail.len();
    match parent {
        Value::Object(entries) => {
            let Some(mut at) = key_position(entries, last) else {
                log.trail.truncate(start);
                return Err(Miss::NotFound);
            };
            // Earlier members with the same key go too (or the removed key would still be
            // visible), each logged with its value, before the one that counts.
            while let Some(dup) = entries.get(..at).and_then(|e| key_position(e, last)) {
                let (key, value) = entries.remove(dup);
                push_removed(log, start, end, dup, Some(key), Some(value));
                at -= 1;
            }
            let (key, value) = entries.remove(at);
            Ok(finish_remove(log, start, end, at, Some(key), value, keep))
        }
        Value::Array(items) => {
            let at = match item_index(last, items.len()) {
                Ok(at) => at,
                Err(e) => {
                    log.trail.truncate(start);
                    return Err(e);
                }
            };
            let value = items.remove(at);
            Ok(finish_remove(log, start, end, at, None, value, keep))
        }
        _ => {
            log.trail.truncate(start);
            Err(Miss::NotFound)
        }
    }
}

/// Logs a removal from the container at `trail[start..end]` (several removals of one
/// operation share that range).
fn push_removed<'a>(
    log: &mut UndoLog<'a>,
    start: usize,
    end: usize,
    at: usize,
    key: Option<Cow<'a, str>>,
    value: Option<Value<'a>>,
) {
    log.steps.push(Step {
        start,
        end,
        undo: Undo::Removed { at, key, value },
    });
}

fn finish_remove<'a>(
    log: &mut UndoLog<'a>,
    start: usize,
    end: usize,
    at: usize,
    key: Option<Cow<'a, str>>,
    value: Value<'a>,
    keep: bool,
) -> Option<Value<'a>> {
    if keep {
        push_removed(log, start, end, at, key, None);
        Some(value)
    } else {
        push_removed(log, start, end, at, key, Some(value));
        None
    }
}

/// A string member of an operation; `None` when absent, an error when not a string.
fn string_member<'p>(
    op: &'p Value<'_>,
    index: usize,
    member: &'static str,
) -> Result<Option<&'p str>, PatchError> {
    match op.get(member) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(PatchError::InvalidOp {
            op: index,
            member,
            reason: "not a string",
        }),
    }
}

fn required<T>(v: Option<T>, index: usize, member: &'static str) -> Result<T, PatchError> {
    v.ok_or(PatchError::InvalidOp {
        op: index,
        member,
        reason: "missing",
    })
}

/// Parses a pointer member into `out`, or says why not.
fn pointer<'t, 'o>(
    text: &'t str,
    index: usize,
    member: &'static str,
    out: &'o mut Tokens<'t>,
) -> Result<&'o [Cow<'t, str>], PatchError> {
    if parse_pointer(text, out) {
        Ok(out)
    } else {
        Err(PatchError::InvalidPointer {
            op: index,
            member,
            pointer: text.to_string(),
        })
    }
}

fn miss(m: Miss, index: usize, member: &'static str, pointer: &str) -> PatchError {
    let pointer = pointer.to_string();
    match m {
        Miss::NotFound => PatchError::PathNotFound {
            op: index,
            member,
            pointer,
        },
        Miss::BadIndex => PatchError::InvalidIndex {
            op: index,
            member,
            pointer,
        },
    }
}

fn too_deep(index: usize, pointer: &str) -> PatchError {
    PatchError::TooDeep {
        op: index,
        pointer: pointer.to_string(),
    }
}

/// Applies operation number `index`, logging every change it makes (also when it fails half
/// way: `apply` undoes the log).
fn apply_op<'a, 'p>(
    doc: &mut Value<'a>,
    op: &'p Value<'_>,
    index: usize,
    log: &mut UndoLog<'a>,
    tokens: &mut (Tokens<'p>, Tokens<'p>),
) -> Result<(), PatchError> {
    if !matches!(op, Value::Object(_)) {
        return Err(PatchError::InvalidOp {
            op: index,
            member: "op",
            reason: "the operation is not an object",
        });
    }
    let kind = match required(string_member(op, index, "op")?, index, "op")? {
        "add" => Kind::Add,
        "remove" => Kind::Remove,
        "replace" => Kind::Replace,
        "move" => Kind::Move,
        "copy" => Kind::Copy,
        "test" => Kind::Test,
        _ => {
            return Err(PatchError::InvalidOp {
                op: index,
                member: "op",
                reason: "not one of add, remove, replace, move, copy, test",
            })
        }
    };
    let path_text = required(string_member(op, index, "path")?, index, "path")?;
    let path = pointer(path_text, index, "path", &mut tokens.0)?;
    let value = || required(op.get("value"), index, "value");
    let at_path = |m: Miss| miss(m, index, "path", path_text);
    match kind {
        Kind::Add | Kind::Replace | Kind::Test => {
            let value = value()?;
            if kind == Kind::Test {
                let found = locate(doc, path).map_err(at_path)?;
                return if values_equal(found, value) {
                    Ok(())
                } else {
                    Err(PatchError::TestFailed {
                        op: index,
                        pointer: path_text.to_string(),
                    })
                };
            }
            if !fits_at(value, path) {
                return Err(too_deep(index, path_text));
            }
            let value: Value<'a> = value.to_owned_value();
            if kind == Kind::Add {
                return add(doc, path, value, log).map_err(|(e, _)| at_path(e));
            }
            let start = log.trail.len();
            match locate_mut(doc, path, &mut log.trail) {
                Ok(target) => {
                    let old = std::mem::replace(target, value);
                    log.push(start, Undo::Replaced { old });
                    Ok(())
                }
                Err(e) => {
                    log.trail.truncate(start);
                    Err(at_path(e))
                }
            }
        }
        Kind::Remove if path.is_empty() => {
            // The whole document: `null` remains.
            let start = log.trail.len();
            let old = std::mem::take(doc);
            log.push(start, Undo::Replaced { old });
            Ok(())
        }
        Kind::Remove => remove(doc, path, false, log).map(|_| ()).map_err(at_path),
        Kind::Move | Kind::Copy => {
            let from_text = required(string_member(op, index, "from")?, index, "from")?;
            let from = pointer(from_text, index, "from", &mut tokens.1)?;
            let at_from = |m: Miss| miss(m, index, "from", from_text);
            if kind == Kind::Copy {
                let source = locate(doc, from).map_err(at_from)?;
                if !fits_at(source, path) {
                    return Err(too_deep(index, path_text));
                }
                let value = source.clone();
                return add(doc, path, value, log).map_err(|(e, _)| at_path(e));
            }
            if from == path {
                // Moving a value onto itself changes nothing, but it must exist.
                return locate(doc, from).map(|_| ()).map_err(at_from);
            }
            if from.len() < path.len() && path.get(..from.len()) == Some(from) {
                return Err(PatchError::InvalidOp {
                    op: index,
                    member: "from",
                    reason: "a value cannot be moved into its own child",
                });
            }
            if path.len() > from.len() {
                // Deeper than it was: check before taking it out.
                let source = locate(doc, from).map_err(at_from)?;
                if !fits_at(source, path) {
                    return Err(too_deep(index, path_text));
                }
            }
            let value = remove(doc, from, true, log)
                .map_err(at_from)?
                .unwrap_or_default();
            if let Err((e, value)) = add(doc, path, value, log) {
                // The value did not arrive: the removal's undo step (the newest) keeps it.
                if let Some(Step {
                    undo: Undo::Removed { value: slot, .. },
                    ..
                }) = log.steps.last_mut()
                {
                    *slot = Some(value);
                }
                return Err(at_path(e));
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests;
