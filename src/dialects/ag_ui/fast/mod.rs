//! A direct reader for the dominant AG-UI event, `TEXT_MESSAGE_CONTENT` (about 90 % of an
//! AG-UI stream), written the way `@ag-ui/encoder` writes it: compact, members in the order
//! `type`, `timestamp`, [`subagentRunId`], `messageId`, `delta`, no escapes in the ids; the
//! delta may have escapes other than `\u` (a `\u` escape, maybe half of a surrogate pair that
//! the next delta completes, is left to the general path).
//!
//! The general path parses the event into a [`crate::json::Value`] tree, tells its dialect,
//! runs the schema and order checks and then the handler. [`text_content`] reads the members
//! straight from the text, and [`super::AgUiDecoder::text_content_fast`] applies it only when the
//! general path would give exactly the same output with no diagnostic (an open text message of
//! the right owner, an active run, no open chunk lane); otherwise nothing is produced and the
//! caller takes the general path. The unit test feeds every event to two decoders, one with the
//! compact text and one with text the fast reader refuses, and compares their output.

use super::Ty;
use crate::events::fast::Cursor;
use crate::json::{plain_run, Value};
use std::borrow::Cow;

/// Where the type's name starts in a compact event (after `{"type":"`).
pub(crate) const TYPE_AT: usize = r#"{"type":""#.len();

const HEAD: &str = r#"{"type":"TEXT_MESSAGE_CONTENT","timestamp":"#;
const OWNER: &str = r#","subagentRunId":""#;
const OWNER_END: &str = r#"""#;
const MESSAGE: &str = r#","messageId":""#;
const DELTA: &str = r#"","delta":""#;
const TAIL: &str = r#""}"#;

const REASONING_HEAD: &str = r#"{"type":"REASONING_MESSAGE_CONTENT","timestamp":"#;

/// Consumes `lit` if the text at the cursor continues with it. (Compared eight bytes at a
/// time: in the size-optimised wasm build a slice comparison is a call of a byte loop.)
fn lit(c: &mut Cursor<'_>, lit: &str) -> Option<()> {
    let want = lit.as_bytes();
    let have = c.rest().get(..want.len())?;
    if !crate::swar::same(have, want) {
        return None;
    }
    c.pos += want.len();
    Some(())
}

/// An optional `,"subagentRunId":"…"` (no escapes): `Some(None)` when absent, `None` when
/// present but not plain.
fn subagent<'a>(c: &mut Cursor<'a>) -> Option<Option<&'a str>> {
    // (`,"m…` or `,"a…` follows when it is absent: one byte tells.)
    if c.rest().get(2) != Some(&b's') || lit(c, OWNER).is_none() {
        return Some(None);
    }
    let o = c.plain_string()?;
    lit(c, OWNER_END)?;
    Some(Some(o))
}

/// A compact `TEXT_MESSAGE_CONTENT` or `REASONING_MESSAGE_CONTENT` (the same members),
/// borrowed from the event's text.
pub(crate) struct TextContent<'a> {
    /// `REASONING_MESSAGE_CONTENT` (a reasoning message's text).
    pub reasoning: bool,
    /// `timestamp` (whole milliseconds, at most 15 digits: always a safe integer).
    pub timestamp_ms: u64,
    pub owner: Option<&'a str>,
    pub message_id: &'a str,
    pub delta: Cow<'a, str>,
}

/// Reads `data` as a compact `TEXT_MESSAGE_CONTENT` or `REASONING_MESSAGE_CONTENT`, or `None`
/// (the general path reads it).
pub(crate) fn text_content(data: &str) -> Option<TextContent<'_>> {
    let mut c = Cursor { text: data, pos: 0 };
    let reasoning = data.as_bytes().get(TYPE_AT) == Some(&b'R');
    lit(&mut c, if reasoning { REASONING_HEAD } else { HEAD })?;
    let timestamp_ms = c.safe_integer()?;
    let owner = subagent(&mut c)?;
    lit(&mut c, MESSAGE)?;
    let message_id = c.plain_string()?;
    lit(&mut c, DELTA)?;
    let delta = string_body(&mut c)?;
    lit(&mut c, TAIL)?;
    (c.pos == data.len()).then_some(TextContent {
        reasoning,
        timestamp_ms,
        owner,
        message_id,
        delta,
    })
}

/// The body of a string whose opening quote was consumed and whose text has escapes (none of
/// them `\u`), unescaped by the JSON parser; the cursor stops at the closing quote.
fn escaped_string<'a>(c: &mut Cursor<'a>) -> Option<Cow<'a, str>> {
    let start = c.pos;
    loop {
        let n = plain_run(c.rest())?;
        c.pos += n;
        match c.rest() {
            [b'"', ..] => break,
            [b'\\', e, ..] if *e != b'u' && e.is_ascii() => c.pos += 2,
            _ => return None, // `\u`, a control character, the end of the text
        }
    }
    // The quotes around the body: one JSON string, parsed (and checked) as the general path does.
    match crate::json::parse(c.text.get(start - 1..=c.pos)?).ok()? {
        Value::String(s) => Some(s),
        _ => None,
    }
}

/// The compact events of one or two string members (after `type`, `timestamp` and an optional
/// `subagentRunId`) that [`simple`] reads: the type, the text up to the timestamp, the text
/// before the id, and the text before the second string (none: the id is the last member).
const SIMPLE: &[(Ty, &str, &str, Option<&str>)] = &[
    (
        Ty::ReasoningMessageStart,
        r#"{"type":"REASONING_MESSAGE_START","timestamp":"#,
        MESSAGE,
        Some(ROLE),
    ),
    (
        Ty::ToolCallArgs,
        r#"{"type":"TOOL_CALL_ARGS","timestamp":"#,
        TOOL_CALL,
        Some(DELTA),
    ),
    (
        Ty::ToolCallEnd,
        r#"{"type":"TOOL_CALL_END","timestamp":"#,
        TOOL_CALL,
        None,
    ),
    (
        Ty::ReasoningMessageEnd,
        r#"{"type":"REASONING_MESSAGE_END","timestamp":"#,
        MESSAGE,
        None,
    ),
    (
        Ty::ToolCallStart,
        r#"{"type":"TOOL_CALL_START","timestamp":"#,
        TOOL_CALL,
        Some(TOOL_NAME),
    ),
    (
        Ty::TextMessageStart,
        r#"{"type":"TEXT_MESSAGE_START","timestamp":"#,
        MESSAGE,
        Some(ROLE),
    ),
    (
        Ty::TextMessageEnd,
        r#"{"type":"TEXT_MESSAGE_END","timestamp":"#,
        MESSAGE,
        None,
    ),
];

const TOOL_CALL: &str = r#","toolCallId":""#;
const ROLE: &str = r#"","role":""#;
const TOOL_NAME: &str = r#"","toolCallName":""#;

/// A compact event of [`SIMPLE`], borrowed from the event's text.
pub(crate) struct Simple<'a> {
    pub ty: Ty,
    /// `timestamp` (whole milliseconds, at most 15 digits).
    pub timestamp_ms: u64,
    /// `subagentRunId` (no escapes), when given.
    pub owner: Option<&'a str>,
    /// `messageId` or `toolCallId` (no escapes).
    pub id: &'a str,
    /// `role`, `delta` or `toolCallName` (escapes other than `\u` unescaped), for the types
    /// that have one.
    pub second: Option<Cow<'a, str>>,
}

/// Reads `data` as a compact event of [`SIMPLE`] (those members, in that order, nothing else),
/// or `None` (the general path reads it).
pub(crate) fn simple(data: &str) -> Option<Simple<'_>> {
    let mut c = Cursor { text: data, pos: 0 };
    let &(ty, head, id_key, second_key) = SIMPLE.iter().find(|(_, head, ..)| {
        let mut probe = Cursor { text: data, pos: 0 };
        lit(&mut probe, head).is_some()
    })?;
    c.pos = head.len();
    let timestamp_ms = c.safe_integer()?;
    let owner = subagent(&mut c)?;
    lit(&mut c, id_key)?;
    let id = c.plain_string()?;
    let second = match second_key {
        Some(key) => {
            lit(&mut c, key)?;
            Some(string_body(&mut c)?)
        }
        None => None,
    };
    lit(&mut c, TAIL)?;
    (c.pos == data.len()).then_some(Simple {
        ty,
        timestamp_ms,
        owner,
        id,
        second,
    })
}

/// The body of a string whose opening quote was consumed: borrowed when it has no escape,
/// else unescaped (no `\u`); the cursor stops at the closing quote.
fn string_body<'a>(c: &mut Cursor<'a>) -> Option<Cow<'a, str>> {
    let at = c.pos;
    match c.plain_string() {
        Some(d) => Some(Cow::Borrowed(d)),
        None => {
            c.pos = at; // (plain_string moved on to the escape)
            escaped_string(c)
        }
    }
}

const RESULT_HEAD: &str = r#"{"type":"TOOL_CALL_RESULT","timestamp":"#;
const RESULT_CALL: &str = r#"","toolCallId":""#;
const RESULT_CONTENT: &str = r#"","content":""#;

/// A compact `TOOL_CALL_RESULT` (`type`, `timestamp`, [`subagentRunId`], `messageId`,
/// `toolCallId`, [`role`], `content` a string, nothing else, as `@ag-ui/encoder` writes it),
/// borrowed from the event's text.
pub(crate) struct ToolResult<'a> {
    /// `timestamp` (whole milliseconds, at most 15 digits).
    pub timestamp_ms: u64,
    /// `subagentRunId` (no escapes), when given.
    pub owner: Option<&'a str>,
    /// `messageId` and `toolCallId` (no escapes).
    pub message_id: &'a str,
    pub call: &'a str,
    /// `content` (escapes other than `\u` unescaped).
    pub content: Cow<'a, str>,
}

/// Reads `data` as a compact `TOOL_CALL_RESULT` whose content is a string, or `None` (the
/// general path reads it). (`role`, any string, changes nothing the event becomes.)
pub(crate) fn tool_result(data: &str) -> Option<ToolResult<'_>> {
    let mut c = Cursor { text: data, pos: 0 };
    lit(&mut c, RESULT_HEAD)?;
    let timestamp_ms = c.safe_integer()?;
    let owner = subagent(&mut c)?;
    lit(&mut c, MESSAGE)?;
    let message_id = c.plain_string()?;
    lit(&mut c, RESULT_CALL)?;
    let call = c.plain_string()?;
    if lit(&mut c, ROLE).is_some() {
        c.plain_string()?;
    }
    lit(&mut c, RESULT_CONTENT)?;
    let content = string_body(&mut c)?;
    lit(&mut c, TAIL)?;
    (c.pos == data.len()).then_some(ToolResult {
        timestamp_ms,
        owner,
        message_id,
        call,
        content,
    })
}

const SUBAGENT_HEAD: &str = r#"{"type":"SUBAGENT_STARTED","timestamp":"#;
const SUBAGENT_ID: &str = r#","subagentRunId":""#;
const SUBAGENT_NAME: &str = r#"","name":""#;
const SUBAGENT_DESCRIPTION: &str = r#"","description":""#;
const SUBAGENT_PARENT: &str = r#"","parentSubagentRunId":""#;

/// A compact `SUBAGENT_STARTED` (`type`, `timestamp`, `subagentRunId`, `name`,
/// [`description`], [`parentSubagentRunId`], nothing else), borrowed from the event's text.
pub(crate) struct SubagentStarted<'a> {
    /// `timestamp` (whole milliseconds, at most 15 digits).
    pub timestamp_ms: u64,
    /// `subagentRunId` and `parentSubagentRunId` (no escapes).
    pub id: &'a str,
    pub parent: Option<&'a str>,
    /// `name` and `description` (escapes other than `\u` unescaped).
    pub name: Cow<'a, str>,
    pub description: Option<Cow<'a, str>>,
}

/// Reads `data` as a compact `SUBAGENT_STARTED`, or `None` (the general path reads it).
pub(crate) fn subagent_started(data: &str) -> Option<SubagentStarted<'_>> {
    let mut c = Cursor { text: data, pos: 0 };
    lit(&mut c, SUBAGENT_HEAD)?;
    let timestamp_ms = c.safe_integer()?;
    lit(&mut c, SUBAGENT_ID)?;
    let id = c.plain_string()?;
    lit(&mut c, SUBAGENT_NAME)?;
    let name = string_body(&mut c)?;
    let description = match lit(&mut c, SUBAGENT_DESCRIPTION) {
        Some(()) => Some(string_body(&mut c)?),
        None => None,
    };
    let parent = match lit(&mut c, SUBAGENT_PARENT) {
        Some(()) => Some(c.plain_string()?),
        None => None,
    };
    lit(&mut c, TAIL)?;
    (c.pos == data.len()).then_some(SubagentStarted {
        timestamp_ms,
        id,
        parent,
        name,
        description,
    })
}

const STATE_HEAD: &str = r#"{"type":"STATE_DELTA","timestamp":"#;
const STATE_DELTA: &str = r#","delta":"#;

/// A compact `STATE_DELTA` (`type`, `timestamp`, [`subagentRunId`], `delta`, nothing else), its
/// patch borrowed from the event's text.
pub(crate) struct StateDelta<'a> {
    /// `timestamp` (whole milliseconds, at most 15 digits).
    pub timestamp_ms: u64,
    /// `subagentRunId` (no escapes), when given.
    pub owner: Option<&'a str>,
    /// `delta`: an array, parsed from the event's text.
    pub patch: Value<'a>,
}

/// Reads `data` as a compact `STATE_DELTA` whose patch is an array that comes out of the
/// canonical `state-delta` text the general path writes exactly as it is (no number that JSON
/// text cannot hold: `-0` or one that overflowed), or `None` (the general path reads it).
///
/// The patch is parsed from its own slice of the text with one level less of nesting allowed:
/// it sits one level deep in the event, as in the canonical event, so it parses here exactly
/// when the whole event and the canonical event parse.
pub(crate) fn state_delta(data: &str) -> Option<StateDelta<'_>> {
    let mut c = Cursor { text: data, pos: 0 };
    lit(&mut c, STATE_HEAD)?;
    let timestamp_ms = c.safe_integer()?;
    let owner = subagent(&mut c)?;
    lit(&mut c, STATE_DELTA)?;
    let patch = last_value(data, &c, 1)?;
    patch.as_array().is_some().then_some(StateDelta {
        timestamp_ms,
        owner,
        patch,
    })
}

const ACTIVITY_HEAD: &str = r#"{"type":"ACTIVITY_SNAPSHOT","timestamp":"#;
const ACTIVITY_TYPE: &str = r#"","activityType":""#;
const ACTIVITY_REPLACE: &str = r#"","replace":"#;
const ACTIVITY_CONTENT: &str = r#""content":"#;

/// A compact `ACTIVITY_SNAPSHOT` (`type`, `timestamp`, [`subagentRunId`], `messageId`,
/// `activityType`, [`replace`], `content`, nothing else, as `@ag-ui/encoder` writes it), its
/// content borrowed from the event's text.
pub(crate) struct ActivitySnapshot<'a> {
    /// `timestamp` (whole milliseconds, at most 15 digits).
    pub timestamp_ms: u64,
    /// `subagentRunId` (no escapes), when given.
    pub owner: Option<&'a str>,
    /// `messageId` and `activityType` (no escapes).
    pub message_id: &'a str,
    pub activity_type: &'a str,
    pub replace: Option<bool>,
    /// `content`: an object, parsed from the event's text.
    pub content: Value<'a>,
}

/// Reads `data` as a compact `ACTIVITY_SNAPSHOT` whose content is an object that comes out of
/// the canonical `message-upsert` text the general path writes exactly as it is, or `None`
/// (the general path reads it).
///
/// The content sits one level deep in the event and two in the canonical event (inside its
/// `message`): it is parsed from its own slice with two levels less allowed, so it parses here
/// exactly when the canonical event parses (and then the AG-UI event does too).
pub(crate) fn activity_snapshot(data: &str) -> Option<ActivitySnapshot<'_>> {
    let mut c = Cursor { text: data, pos: 0 };
    lit(&mut c, ACTIVITY_HEAD)?;
    let timestamp_ms = c.safe_integer()?;
    let owner = subagent(&mut c)?;
    lit(&mut c, MESSAGE)?;
    let message_id = c.plain_string()?;
    lit(&mut c, ACTIVITY_TYPE)?;
    let activity_type = c.plain_string()?;
    let replace = if lit(&mut c, ACTIVITY_REPLACE).is_some() {
        let r = if lit(&mut c, "true").is_some() {
            true
        } else {
            lit(&mut c, "false")?;
            false
        };
        lit(&mut c, ",")?;
        Some(r)
    } else {
        lit(&mut c, r#"","#)?;
        None
    };
    lit(&mut c, ACTIVITY_CONTENT)?;
    let content = last_value(data, &c, 2)?;
    content.as_object().is_some().then_some(ActivitySnapshot {
        timestamp_ms,
        owner,
        message_id,
        activity_type,
        replace,
        content,
    })
}

const CUSTOM_HEAD: &str = r#"{"type":"CUSTOM","timestamp":"#;
const CUSTOM_NAME: &str = r#","name":""#;
const CUSTOM_VALUE: &str = r#"","value":"#;

/// A compact `CUSTOM` (`type`, `timestamp`, [`subagentRunId`], `name`, `value`, nothing else),
/// its value borrowed from the event's text.
pub(crate) struct Custom<'a> {
    /// `timestamp` (whole milliseconds, at most 15 digits).
    pub timestamp_ms: u64,
    /// `subagentRunId` (no escapes), when given.
    pub owner: Option<&'a str>,
    /// `name` (no escapes).
    pub name: &'a str,
    /// `value`, parsed from the event's text.
    pub value: Value<'a>,
}

/// Reads `data` as a compact `CUSTOM` whose value comes out of the canonical `ag-ui:custom`
/// text the general path writes exactly as it is, or `None` (the general path reads it). The
/// value sits one level deep in both events: parsed from its own slice with one level less.
pub(crate) fn custom(data: &str) -> Option<Custom<'_>> {
    let mut c = Cursor { text: data, pos: 0 };
    lit(&mut c, CUSTOM_HEAD)?;
    let timestamp_ms = c.safe_integer()?;
    let owner = subagent(&mut c)?;
    lit(&mut c, CUSTOM_NAME)?;
    let name = c.plain_string()?;
    lit(&mut c, CUSTOM_VALUE)?;
    let value = last_value(data, &c, 1)?;
    Some(Custom {
        timestamp_ms,
        owner,
        name,
        value,
    })
}

/// The value of the event's last member: the text from the cursor to the closing brace, parsed
/// with `levels` fewer levels of nesting allowed (how much deeper it sits in the canonical event
/// than here), when the canonical text writes it exactly as it is (see [`written_as_is`]).
fn last_value<'a>(data: &'a str, c: &Cursor<'a>, levels: usize) -> Option<Value<'a>> {
    let body = data.strip_suffix('}')?.get(c.pos..)?;
    let v = crate::json::parse_with_depth(body, crate::json::MAX_DEPTH - levels).ok()?;
    written_as_is(&v).then_some(v)
}

/// `true` when writing `v` as JSON text and parsing it again gives `v` (numbers: JSON text has
/// no `-0`, and a number too large for a double was parsed as an infinity, written `null`).
pub(crate) fn written_as_is(v: &Value<'_>) -> bool {
    match v {
        Value::Number(n) => n.is_finite() && !(*n == 0.0 && n.is_sign_negative()),
        Value::Array(items) => items.iter().all(written_as_is),
        Value::Object(members) => members.iter().all(|(_, v)| written_as_is(v)),
        _ => true,
    }
}

#[cfg(test)]
mod tests;
/// The lockstep check the tests of the other direct paths share.
#[cfg(test)]
pub(super) use tests::lockstep;
