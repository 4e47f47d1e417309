//! The WHATWG event-stream parser (HTML Living Standard §9.2.6 "Interpreting an event stream").
//!
//! Push bytes in chunks of any size and boundary ([`SseParser::feed`]); every event completed by
//! a chunk is handed to a sink, in order, borrowed from the parser's reusable buffers.
//!
//! Properties:
//! - **Exact**: UTF-8 decoding with U+FFFD replacement (maximal subparts, as the WHATWG decoder),
//!   one leading BOM stripped, CRLF / LF / CR line ends (a CRLF split across chunks is one line
//!   end), comments, field parsing, `id` with U+0000 ignored, `retry` digits only, dispatch rules.
//!   The output does not depend on how the input is chunked.
//! - **Linear**: every input byte is scanned once for line ends (8 bytes per step); a line that lies
//!   inside one chunk is processed in place, only a line cut by a chunk end is buffered.
//! - **Allocation-free in steady state** for valid UTF-8: the line, data, type and id buffers are
//!   reused (a buffer that grew past 1 MiB is released after use).
//! - **Bounded**: a line longer than [`SseConfig::max_line_bytes`] is skipped without being
//!   buffered, event data larger than [`SseConfig::max_event_bytes`] is dropped; both are
//!   reported as an [`SseDiagnostic`] and the parser recovers at the next blank line. The
//!   event type and id come from one line each, decoded with U+FFFD replacement (an invalid
//!   byte becomes 3 bytes), so each holds at most 3 × `max_line_bytes` (found by the `sse` fuzz
//!   target, whose buffer bound first assumed 1 ×).
//! - **Panic-free** on any input.
//!
//! Decisions where the standard is silent (no limits there):
//! - A comment line (first byte `:`) is never buffered (its content is not needed). One longer
//!   than `max_line_bytes` is still reported ([`SseDiagnostic::LineTooLong`]), but it does not
//!   drop the event around it: a comment is not part of any event.
//! - A dropped event (too long line or too large data) has no effect at all from the problem
//!   line to the blank line that ends it, and its `id` field (even one seen before the problem
//!   line) does not become the last event ID: the block is as if it had not been sent. A
//!   `retry` field seen before the problem line keeps its effect (the standard applies `retry`
//!   immediately, not at dispatch). At most one diagnostic is reported per dropped event.
//! - A new stream ([`SseParser::reset`], [`SseParser::finish`]) starts its last event ID buffer
//!   from the last event ID string, as browsers do on reconnection (the standard's text
//!   initialises it to the empty string, which would make the first id-less event of a resumed
//!   stream report `""`).

use std::borrow::Cow;
use std::fmt;

#[cfg(test)]
mod tests;

/// A buffer whose capacity grew beyond this (bytes) is released after use, so one huge event
/// does not pin its memory for the life of the connection. Smaller buffers are kept and reused.
const RETAIN_CAPACITY: usize = 1 << 20;

const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
/// `bom_matched` value once the stream start has been decided (stripped or not present).
const BOM_DONE: u8 = 3;

/// Limits; defaults: `max_line_bytes` = 16 MiB, `max_event_bytes` = 16 MiB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SseConfig {
    /// The longest line kept, in bytes, without its line end (and without a leading BOM).
    /// A longer line is discarded with [`SseDiagnostic::LineTooLong`] (and its event dropped,
    /// unless the line is a comment).
    pub max_line_bytes: usize,
    /// The largest event data kept, in bytes of UTF-8 (the `data` lines joined with `'\n'`, as
    /// dispatched). A larger event is dropped with [`SseDiagnostic::EventTooLarge`].
    pub max_event_bytes: usize,
}

impl Default for SseConfig {
    fn default() -> Self {
        SseConfig {
            max_line_bytes: 16 << 20,
            max_event_bytes: 16 << 20,
        }
    }
}

/// One dispatched event, borrowed from the parser's reusable buffers (valid during the callback).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SseEvent<'a> {
    /// The event type: the last `event:` field of the block, or `"message"` when there was
    /// none or it was empty.
    pub event_type: &'a str,
    /// The `data` field values joined with `'\n'` (the trailing `'\n'` removed).
    pub data: &'a str,
    /// The last event ID buffer at dispatch (WHATWG `MessageEvent.lastEventId`): the most recent
    /// `id` field of this stream, which persists across events that carry none.
    pub last_event_id: &'a str,
    /// `last_event_id` differs from the previous dispatched event's (an `id` field with a new
    /// value, or [`SseParser::set_last_event_id`], since then). Known without comparing the ids.
    pub id_changed: bool,
}

/// Problems in the byte stream; the parser always recovers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SseDiagnostic {
    /// A line longer than `max_line_bytes`: the line was discarded (bytes skipped until the next
    /// line end, without buffering them) and the event it belonged to is dropped (not
    /// dispatched; parser resumes normal operation at the next blank line). A comment line is
    /// never buffered and does not belong to an event: an over-long one is reported, nothing
    /// is dropped.
    LineTooLong {
        /// The configured `max_line_bytes`.
        limit: usize,
    },
    /// An event whose data exceeded `max_event_bytes`: dropped, recovery at the next blank line.
    EventTooLarge {
        /// The configured `max_event_bytes`.
        limit: usize,
    },
}

impl SseDiagnostic {
    /// A stable machine-readable code: `"sse-line-too-long"` or `"sse-event-too-large"`.
    pub fn code(&self) -> &'static str {
        match self {
            SseDiagnostic::LineTooLong { .. } => "sse-line-too-long",
            SseDiagnostic::EventTooLarge { .. } => "sse-event-too-large",
        }
    }

    /// A human-readable description.
    pub fn message(&self) -> String {
        match self {
            SseDiagnostic::LineTooLong { limit } => format!(
                "SSE line longer than {limit} bytes: the line was skipped and its event dropped"
            ),
            SseDiagnostic::EventTooLarge { limit } => {
                format!("SSE event data larger than {limit} bytes: the event was dropped")
            }
        }
    }
}

impl fmt::Display for SseDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

/// What the parser hands to the sink.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SseItem<'a> {
    /// A dispatched event.
    Event(SseEvent<'a>),
    /// A problem in the stream (the parser has already recovered or will at the next blank line).
    Diagnostic(SseDiagnostic),
}

/// The push parser. One per connection; [`reset`](SseParser::reset) it for a new one.
#[derive(Debug, Clone)]
pub struct SseParser {
    config: SseConfig,
    /// The start of a line cut by the end of a chunk (never a comment, never over the limit).
    line: Vec<u8>,
    /// Whether (and why) the rest of the current, non-empty line is discarded.
    skip: Skip,
    /// The current event is dropped: ignore lines up to the next blank line.
    drop_event: bool,
    /// The previous chunk ended with a CR: a LF starting the next chunk belongs to it.
    pending_cr: bool,
    /// How many bytes of a BOM were seen at the stream start (0..=2), or `BOM_DONE`.
    bom_matched: u8,
    data: String,
    event_type: String,
    /// The standard's "last event ID buffer".
    id_buffer: String,
    /// The standard's "last event ID string" (set from the buffer at dispatch).
    last_event_id: String,
    /// `id_buffer` may differ from `last_event_id` (an `id` field since the last dispatch).
    id_changed: bool,
    /// `last_event_id` changed since the last dispatched event (for [`SseEvent::id_changed`]).
    id_new: bool,
    retry: Option<u64>,
}

impl Default for SseParser {
    fn default() -> Self {
        SseParser::new(SseConfig::default())
    }
}

impl SseParser {
    /// A parser for a new stream, with the given limits.
    pub fn new(config: SseConfig) -> Self {
        SseParser {
            config,
            line: Vec::new(),
            skip: Skip::No,
            drop_event: false,
            pending_cr: false,
            bom_matched: 0,
            data: String::new(),
            event_type: String::new(),
            id_buffer: String::new(),
            last_event_id: String::new(),
            id_changed: false,
            id_new: false,
            retry: None,
        }
    }

    /// The limits this parser was created with.
    pub fn config(&self) -> SseConfig {
        self.config
    }

    /// Feed the next chunk (any boundaries, including inside a multi-byte UTF-8 character,
    /// inside a BOM, between CR and LF); calls `sink` for every event completed so far, in order.
    pub fn feed(&mut self, chunk: &[u8], sink: &mut dyn FnMut(SseItem<'_>)) {
        let mut input = chunk;
        if self.bom_matched != BOM_DONE {
            input = self.strip_bom(input, sink);
        }
        if self.pending_cr {
            match input.split_first() {
                None => return,
                Some((&b'\n', rest)) => input = rest,
                Some(_) => {}
            }
            self.pending_cr = false;
        }
        while !input.is_empty() {
            let Some(pos) = find_line_end(input) else {
                self.partial(input, sink);
                return;
            };
            let part = input.get(..pos).unwrap_or_default();
            let mut rest = input.get(pos..).unwrap_or_default();
            if let Some((&end, after)) = rest.split_first() {
                rest = after;
                if end == b'\r' {
                    match rest.split_first() {
                        Some((&b'\n', after)) => rest = after,
                        Some(_) => {}
                        None => self.pending_cr = true,
                    }
                }
            }
            self.end_line(part, sink);
            input = rest;
        }
    }

    /// End of stream: discards any pending line / unterminated event (the standard does not
    /// dispatch it). After `finish()` the parser is ready for a new stream, as after
    /// [`reset`](SseParser::reset).
    pub fn finish(&mut self) {
        self.reset();
    }

    /// Forget partial input (for a new connection): clears the line, data and event type
    /// buffers and re-arms BOM stripping. Keeps the last event ID (a reconnection sends it as
    /// `Last-Event-ID`, and the new stream's events report it until an `id` field changes it)
    /// and the retry time.
    pub fn reset(&mut self) {
        clear_vec(&mut self.line);
        clear_string(&mut self.data);
        clear_string(&mut self.event_type);
        self.id_buffer.clone_from(&self.last_event_id);
        self.id_changed = false;
        self.skip = Skip::No;
        self.drop_event = false;
        self.pending_cr = false;
        self.bom_matched = 0;
    }

    /// The standard's "last event ID string": updated only at dispatch time (an `id:` in an
    /// unterminated block does not count; a block with only `id:` and no data does update it,
    /// since the standard sets it before checking for empty data).
    pub fn last_event_id(&self) -> &str {
        &self.last_event_id
    }

    /// Sets the last event ID (for resuming a stream): it is reported by the following events
    /// until an `id` field changes it. Also replaces an `id` seen in the current, unfinished
    /// event.
    pub fn set_last_event_id(&mut self, id: &str) {
        self.last_event_id.clear();
        self.last_event_id.push_str(id);
        self.id_buffer.clear();
        self.id_buffer.push_str(id);
        self.id_changed = false;
        self.id_new = true;
    }

    /// The reconnection time in milliseconds from the last valid `retry:` field, or `None`
    /// (a value beyond `u64::MAX` saturates).
    pub fn retry(&self) -> Option<u64> {
        self.retry
    }

    /// Number of bytes currently buffered for the stream in progress: the partial line (and
    /// BOM bytes not yet decided) plus the pending event's data and type.
    pub fn buffered_bytes(&self) -> usize {
        let bom = if self.bom_matched == BOM_DONE {
            0
        } else {
            usize::from(self.bom_matched)
        };
        self.line.len() + self.data.len() + self.event_type.len() + bom
    }

    /// At the stream start: consumes the BOM bytes of `input`. Returns the rest.
    fn strip_bom<'i>(
        &mut self,
        mut input: &'i [u8],
        sink: &mut dyn FnMut(SseItem<'_>),
    ) -> &'i [u8] {
        while let Some(&expected) = BOM.get(usize::from(self.bom_matched)) {
            let Some((&b, rest)) = input.split_first() else {
                return input;
            };
            if b != expected {
                // Not a BOM: the bytes matched so far start the first line (they are neither
                // CR nor LF nor ':').
                let matched = BOM.get(..usize::from(self.bom_matched)).unwrap_or_default();
                self.bom_matched = BOM_DONE;
                if !matched.is_empty() {
                    self.partial(matched, sink);
                }
                return input;
            }
            input = rest;
            self.bom_matched += 1;
        }
        self.bom_matched = BOM_DONE;
        input
    }

    /// Bytes of the current line (no CR/LF, non-empty) with its end not yet seen.
    fn partial(&mut self, bytes: &[u8], sink: &mut dyn FnMut(SseItem<'_>)) {
        let seen = match self.skip {
            Skip::Line => return,
            Skip::Comment(seen) => seen,
            Skip::No if self.drop_event => {
                self.skip = Skip::Line;
                return;
            }
            Skip::No if self.line.is_empty() && bytes.first() == Some(&b':') => 0,
            Skip::No => {
                if self.line.len().saturating_add(bytes.len()) > self.config.max_line_bytes {
                    clear_vec(&mut self.line);
                    self.skip = Skip::Line;
                    self.line_too_long(sink);
                } else {
                    self.line.extend_from_slice(bytes);
                }
                return;
            }
        };
        // A comment: only its length is tracked, to report it once it is too long.
        let seen = seen.saturating_add(bytes.len());
        if seen > self.config.max_line_bytes {
            self.skip = Skip::Line;
            self.comment_too_long(sink);
        } else {
            self.skip = Skip::Comment(seen);
        }
    }

    /// The end of a line was seen; `part` is its last part (from this chunk).
    fn end_line(&mut self, part: &[u8], sink: &mut dyn FnMut(SseItem<'_>)) {
        match std::mem::replace(&mut self.skip, Skip::No) {
            Skip::No => {}
            Skip::Line => return,
            Skip::Comment(seen) => {
                if seen.saturating_add(part.len()) > self.config.max_line_bytes {
                    self.comment_too_long(sink);
                }
                return;
            }
        }
        if self.drop_event {
            if part.is_empty() {
                self.drop_event = false;
            }
            return;
        }
        if self.line.is_empty() {
            self.process_line(part, sink);
            return;
        }
        if self.line.len().saturating_add(part.len()) > self.config.max_line_bytes {
            clear_vec(&mut self.line);
            self.line_too_long(sink);
            return;
        }
        self.line.extend_from_slice(part);
        let line = std::mem::take(&mut self.line);
        self.process_line(&line, sink);
        self.line = line;
        clear_vec(&mut self.line);
    }

    /// One complete line (without its line end), not part of a dropped event.
    fn process_line(&mut self, line: &[u8], sink: &mut dyn FnMut(SseItem<'_>)) {
        let Some((&first, _)) = line.split_first() else {
            self.dispatch(sink);
            return;
        };
        if first == b':' {
            if line.len() > self.config.max_line_bytes {
                self.comment_too_long(sink);
            }
            return;
        }
        if line.len() > self.config.max_line_bytes {
            self.line_too_long(sink);
            return;
        }
        let (name, value) = match memchr::memchr(b':', line) {
            Some(colon) => {
                let value = line.get(colon + 1..).unwrap_or_default();
                let value = value.strip_prefix(b" ").unwrap_or(value);
                (line.get(..colon).unwrap_or_default(), value)
            }
            None => (line, &[][..]),
        };
        match name {
            b"data" => {
                let value = decode(value);
                if self.data.len().saturating_add(value.len()) > self.config.max_event_bytes {
                    sink(SseItem::Diagnostic(SseDiagnostic::EventTooLarge {
                        limit: self.config.max_event_bytes,
                    }));
                    self.drop_current_event();
                    return;
                }
                self.data.push_str(&value);
                self.data.push('\n');
            }
            b"event" => {
                self.event_type.clear();
                self.event_type.push_str(&decode(value));
            }
            b"id" if memchr::memchr(0, value).is_none() => {
                self.id_buffer.clear();
                self.id_buffer.push_str(&decode(value));
                self.id_changed = true;
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                let ms = value.iter().fold(0u64, |acc, &d| {
                    acc.saturating_mul(10).saturating_add(u64::from(d - b'0'))
                });
                self.retry = Some(ms);
            }
            _ => {}
        }
    }

    /// A blank line: the standard's "dispatch the event".
    fn dispatch(&mut self, sink: &mut dyn FnMut(SseItem<'_>)) {
        // Only after an `id` field: comparing the ids at every blank line would make a long id
        // and many blank lines quadratic. The comparison here is paid for by that field's bytes.
        if self.id_changed {
            if self.last_event_id != self.id_buffer {
                self.last_event_id.clone_from(&self.id_buffer);
                self.id_new = true;
            }
            self.id_changed = false;
        }
        if !self.data.is_empty() {
            let data = self.data.strip_suffix('\n').unwrap_or(&self.data);
            let event_type = if self.event_type.is_empty() {
                "message"
            } else {
                &self.event_type
            };
            sink(SseItem::Event(SseEvent {
                event_type,
                data,
                last_event_id: &self.last_event_id,
                id_changed: std::mem::take(&mut self.id_new),
            }));
        }
        clear_string(&mut self.data);
        clear_string(&mut self.event_type);
    }

    fn line_too_long(&mut self, sink: &mut dyn FnMut(SseItem<'_>)) {
        sink(SseItem::Diagnostic(SseDiagnostic::LineTooLong {
            limit: self.config.max_line_bytes,
        }));
        self.drop_current_event();
    }

    /// An over-long comment is reported but drops nothing: a comment is not part of an event.
    fn comment_too_long(&self, sink: &mut dyn FnMut(SseItem<'_>)) {
        sink(SseItem::Diagnostic(SseDiagnostic::LineTooLong {
            limit: self.config.max_line_bytes,
        }));
    }

    /// Drops the event in progress: its lines are ignored up to the next blank line.
    fn drop_current_event(&mut self) {
        self.drop_event = true;
        clear_string(&mut self.data);
        clear_string(&mut self.event_type);
        if self.id_changed {
            self.id_buffer.clone_from(&self.last_event_id);
            self.id_changed = false;
        }
    }
}

/// Why the rest of the current line is being skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Skip {
    /// Not skipping: the line is processed (buffered if it is cut by a chunk end).
    No,
    /// An over-long line, or a line of a dropped event: skipped silently.
    Line,
    /// A comment of this many bytes so far (reported if it grows over the limit).
    Comment(usize),
}

/// The index of the first CR or LF in `bytes`, eight bytes per step (see [`crate::swar`]).
#[inline(always)]
fn find_line_end(bytes: &[u8]) -> Option<usize> {
    use crate::swar::{bytes_equal, first_flagged};
    first_flagged(bytes, b' ', |w| {
        bytes_equal(w, b'\n') | bytes_equal(w, b'\r')
    })
}

/// UTF-8 decoding with U+FFFD replacement; borrows (no allocation) when the bytes are valid.
fn decode(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

fn clear_vec(buf: &mut Vec<u8>) {
    if buf.capacity() > RETAIN_CAPACITY {
        *buf = Vec::new();
    } else {
        buf.clear();
    }
}

fn clear_string(buf: &mut String) {
    if buf.capacity() > RETAIN_CAPACITY {
        *buf = String::new();
    } else {
        buf.clear();
    }
}
