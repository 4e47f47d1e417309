//! A direct decoder for the dominant event of a typical protocol-000 stream, `content-delta`
//! (about 90 % of it). (The AG-UI dialect's `message-delta`, about 90 % of an AG-UI stream,
//! needs no reader: it reaches the store as its parts, `dialects::Step::MessageDelta`.)
//!
//! The general path parses the event into a [`crate::json::Value`] tree (one member vector per
//! object), then checks the members against the struct's field list. For a `content-delta`
//! written the way servers write it (compact, members in the protocol's order, no escapes),
//! [`content_delta`] reads the six members straight from the text instead: no tree, no
//! allocation. It accepts only text for which the general path would give the same event and
//! no diagnostic; anything else (another order, whitespace, escapes, an extra member, an index
//! that is not a plain integer, a bad timestamp, a mismatched SSE type) returns `None`, and the
//! caller decodes the event the general way. `tests.rs` checks both paths agree.

use super::context::EventContext;
use super::timestamp;
use super::types::{AgentEvent, ContentDelta};
use crate::json::plain_run;
use std::borrow::Cow;

/// The text before the first value, and the text between the values (member names in order).
const HEAD: &str = r#"{"kind":"content-delta","contextId":""#;
const TASK: &str = r#"","taskId":""#;
const DELTA: &str = r#"","delta":""#;
const INDEX: &str = r#"","index":"#;
const STAMP: &str = r#","timestamp":""#;
const TAIL: &str = r#""}"#;

/// Reads `data` as a compact `content-delta` in the protocol's member order, or `None` (the
/// general decoder then reads it, with the same result when this one would have had one).
pub(crate) fn content_delta<'a>(data: &'a str, cx: &EventContext<'_>) -> Option<AgentEvent<'a>> {
    // The general path warns when the SSE type names another kind.
    if cx.sse_type != "message" && cx.sse_type != "content-delta" {
        return None;
    }
    let mut c = Cursor { text: data, pos: 0 };
    c.lit(HEAD)?;
    let context_id = c.plain_string()?;
    c.lit(TASK)?;
    let task_id = c.plain_string()?;
    c.lit(DELTA)?;
    let delta = c.plain_string()?;
    c.lit(INDEX)?;
    let index = c.safe_integer()?;
    c.lit(STAMP)?;
    let timestamp = c.plain_string()?;
    c.lit(TAIL)?;
    if c.pos != data.len() || !timestamp::is_valid(timestamp) {
        return None;
    }
    Some(AgentEvent::ContentDelta(ContentDelta {
        context_id: Cow::Borrowed(context_id),
        task_id: Cow::Borrowed(task_id),
        delta: Cow::Borrowed(delta),
        index,
        timestamp: Cow::Borrowed(timestamp),
        extra: Vec::new(),
    }))
}

/// Reads compact JSON text left to right (also the AG-UI dialect's `TEXT_MESSAGE_CONTENT` reader).
pub(crate) struct Cursor<'a> {
    pub text: &'a str,
    pub pos: usize,
}

impl<'a> Cursor<'a> {
    #[inline(always)]
    pub fn rest(&self) -> &'a [u8] {
        self.text.as_bytes().get(self.pos..).unwrap_or_default()
    }

    /// Consumes `lit` if the text continues with it.
    #[inline(always)]
    pub fn lit(&mut self, lit: &str) -> Option<()> {
        self.rest()
            .starts_with(lit.as_bytes())
            .then(|| self.pos += lit.len())
    }

    /// The body of a string whose opening quote was consumed, if it has no escape or control
    /// character; the cursor stops at the closing quote (left for the next literal).
    #[inline(always)]
    pub fn plain_string(&mut self) -> Option<&'a str> {
        let n = plain_run(self.rest())?;
        let start = self.pos;
        self.pos += n;
        (self.rest().first() == Some(&b'"')).then_some(())?;
        // Both ends are ASCII bytes of valid UTF-8 text: `get` cannot fail on a boundary.
        self.text.get(start..self.pos)
    }

    /// A JSON integer in `0..=MAX_SAFE_INTEGER` written without sign, fraction or exponent
    /// (at most 15 digits, so always safe), no leading zero.
    #[inline(always)]
    pub fn safe_integer(&mut self) -> Option<u64> {
        let digits = self
            .rest()
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let ok = (1..=15).contains(&digits) && (digits == 1 || self.rest().first() != Some(&b'0'));
        if !ok {
            return None;
        }
        let mut n = 0u64;
        for &d in self.rest().get(..digits)? {
            n = n * 10 + u64::from(d - b'0');
        }
        self.pos += digits;
        Some(n)
    }
}
