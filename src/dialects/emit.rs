//! What every dialect decoder shares: writing canonical events as JSON text, reporting
//! diagnostics against the dialect's own event, reading fields with checked access, and the
//! stream clock that fills in timestamps a dialect leaves out.
//!
//! Dialect decoders build each canonical event as compact JSON (allocation is fine here: the
//! hot path is the canonical decoder); the session then decodes that text with
//! [`crate::events::decode_event`], so every translated event is validated by the same code as a
//! canonical one. The one exception is the dominant event, `message-delta`: when its text
//! would decode to its members as they are with no diagnostic (no string that needs an escape,
//! a valid timestamp), it is handed over as its parts ([`Step::MessageDelta`]), and the session
//! builds the event [`crate::events::decode_event`] would have built.

use crate::events::{bounded_field, bounded_raw, DiagCode, Diagnostic, Severity};
use crate::json::{write_number, write_str, Value};

/// One thing a dialect event turns into, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// A canonical event, as JSON text (decoded and applied like any canonical event).
    Event(String),
    /// A canonical `message-delta` given as its parts: [`Output::deltas`]`[i]`. Only made when
    /// its JSON text would decode to exactly that event with no diagnostic (see
    /// [`MessageDeltaParts::event`]), so applying it is applying that text.
    MessageDelta(usize),
    /// The task's assembled answer is replaced from here on (A2A `append: false` on the
    /// artifact that carries the answer): the store forgets the text so far.
    ResetContent(String),
    /// The file artifact's content is replaced from here on (A2A `append: false` on a known
    /// artifact): the store forgets the chunks so far and expects chunk 0 again.
    ResetArtifact(String),
    /// The input request is closed without an answer (A2A-ACP: the agent asked another
    /// question of the same task instead): it becomes `expired`, not answered.
    ExpireInput(String),
}

/// What one dialect event became: canonical steps and diagnostics about the dialect event.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Output {
    /// Canonical events and resets, in order.
    pub steps: Vec<Step>,
    /// Problems found in the dialect event itself (the canonical validation of the steps adds
    /// its own when they are applied).
    pub diagnostics: Vec<Diagnostic>,
    /// The event's own sequence number, when the dialect has one (MyAgent `seq`): the session
    /// records it so a replay after a reconnect is recognised.
    pub seq: Option<u64>,
    /// Which session of the connection `seq` counts in (0 for the first: numbering restarts
    /// with each new session).
    pub seq_scope: u64,
    /// The event repeats one already applied (same `seq`): nothing else was produced.
    pub duplicate: bool,
    /// The parts of the [`Step::MessageDelta`] steps (buffers kept across events: the first
    /// `deltas_used` are this event's).
    pub deltas: Vec<MessageDeltaParts>,
    /// How many of `deltas` this event uses.
    pub deltas_used: usize,
}

/// A canonical `message-delta` as its members (see [`Step::MessageDelta`]).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct MessageDeltaParts {
    /// `contextId`.
    pub context_id: String,
    /// `taskId`.
    pub task_id: String,
    /// `messageId`.
    pub message_id: String,
    /// `delta`.
    pub delta: String,
    /// `timestamp`.
    pub timestamp: String,
}

impl MessageDeltaParts {
    /// The event, as [`crate::events::decode_event`] decodes [`MessageDeltaParts::json`].
    pub fn event(&self) -> crate::events::AgentEvent<'_> {
        use std::borrow::Cow::Borrowed;
        crate::events::AgentEvent::MessageDelta(crate::events::MessageDelta {
            context_id: Borrowed(&self.context_id),
            task_id: Borrowed(&self.task_id),
            message_id: Borrowed(&self.message_id),
            delta: Borrowed(&self.delta),
            part_id: None,
            part_type: None,
            part_members: None,
            timestamp: Borrowed(&self.timestamp),
            extra: Vec::new(),
        })
    }

    /// The event as JSON text (what the step stands for).
    pub fn json(&self) -> String {
        message_delta_json(
            &self.context_id,
            &self.task_id,
            &self.message_id,
            &self.delta,
            &self.timestamp,
        )
    }
}

/// A canonical `message-delta` as JSON text (compact, members in the protocol's order).
pub(crate) fn message_delta_json(
    context_id: &str,
    task_id: &str,
    message_id: &str,
    delta: &str,
    ts: &str,
) -> String {
    // The member names, quotes and braces take 92 bytes; escapes may need more (it grows).
    let n = 100 + context_id.len() + task_id.len() + message_id.len() + delta.len() + ts.len();
    let mut e = Obj::event_with_capacity("message-delta", context_id, task_id, n);
    e.str("messageId", message_id)
        .str("delta", delta)
        .str("timestamp", ts);
    e.finish()
}

/// `true` when `s` is written into JSON text as is (no byte that needs an escape), which is
/// also what JSON text reads back as is. (One copy of the scan.)
#[inline(never)]
fn plain(s: &str) -> bool {
    crate::json::plain_run(s.as_bytes()).is_none()
}

impl Output {
    /// Empties the output for the next event (keeps the allocations).
    pub fn clear(&mut self) {
        self.steps.clear();
        self.diagnostics.clear();
        self.seq = None;
        self.seq_scope = 0;
        self.duplicate = false;
        self.deltas_used = 0;
    }

    /// The JSON text of an event step (`None` for the resets).
    pub fn event_json<'s>(&'s self, step: &'s Step) -> Option<std::borrow::Cow<'s, str>> {
        match step {
            Step::Event(json) => Some(std::borrow::Cow::Borrowed(json)),
            Step::MessageDelta(i) => self
                .deltas
                .get(*i)
                .map(|p| std::borrow::Cow::Owned(p.json())),
            _ => None,
        }
    }
}

/// A JSON object under construction (keys in insertion order).
#[derive(Debug, Clone)]
pub(crate) struct Obj {
    s: String,
    empty: bool,
}

impl Default for Obj {
    fn default() -> Self {
        Obj::new()
    }
}

impl Obj {
    pub(crate) fn new() -> Self {
        Obj::with_capacity(0)
    }

    /// An object whose text is expected to take about `bytes` bytes (fewer reallocations).
    pub(crate) fn with_capacity(bytes: usize) -> Self {
        let mut s = String::with_capacity(bytes.max(1));
        s.push('{');
        Obj { s, empty: true }
    }

    /// A canonical event: `{"kind":…,"contextId":…,"taskId":…`.
    pub(crate) fn event(kind: &str, context_id: &str, task_id: &str) -> Self {
        Obj::event_with_capacity(kind, context_id, task_id, 128)
    }

    /// [`Obj::event`] with room for about `bytes` bytes (a 1-byte start grew ~6 times per event).
    pub(crate) fn event_with_capacity(
        kind: &str,
        context_id: &str,
        task_id: &str,
        bytes: usize,
    ) -> Self {
        let mut o = Obj::with_capacity(bytes);
        o.str("kind", kind);
        o.str("contextId", context_id);
        o.str("taskId", task_id);
        o
    }

    fn key(&mut self, k: &str) {
        if !self.empty {
            self.s.push(',');
        }
        self.empty = false;
        write_str(&mut self.s, k);
        self.s.push(':');
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.empty
    }

    pub(crate) fn str(&mut self, k: &str, v: &str) -> &mut Self {
        self.key(k);
        write_str(&mut self.s, v);
        self
    }

    pub(crate) fn opt_str(&mut self, k: &str, v: Option<&str>) -> &mut Self {
        if let Some(v) = v {
            self.str(k, v);
        }
        self
    }

    pub(crate) fn num(&mut self, k: &str, v: f64) -> &mut Self {
        self.key(k);
        write_number(&mut self.s, v);
        self
    }

    pub(crate) fn bool(&mut self, k: &str, v: bool) -> &mut Self {
        self.key(k);
        self.s.push_str(if v { "true" } else { "false" });
        self
    }

    pub(crate) fn value(&mut self, k: &str, v: &Value<'_>) -> &mut Self {
        self.key(k);
        v.write(&mut self.s);
        self
    }

    pub(crate) fn opt_value(&mut self, k: &str, v: Option<&Value<'_>>) -> &mut Self {
        if let Some(v) = v {
            self.value(k, v);
        }
        self
    }

    /// A member whose value is already JSON text.
    pub(crate) fn raw(&mut self, k: &str, json: &str) -> &mut Self {
        self.key(k);
        self.s.push_str(json);
        self
    }

    pub(crate) fn obj(&mut self, k: &str, o: Obj) -> &mut Self {
        self.key(k);
        self.s.push_str(&o.finish());
        self
    }

    /// Adds `o` under `k` unless it is empty.
    pub(crate) fn obj_if(&mut self, k: &str, o: Obj) -> &mut Self {
        if !o.is_empty() {
            self.obj(k, o);
        }
        self
    }

    /// A member holding an array of strings.
    pub(crate) fn str_array<'s>(
        &mut self,
        k: &str,
        items: impl IntoIterator<Item = &'s str>,
    ) -> &mut Self {
        self.key(k);
        self.s.push('[');
        for (i, it) in items.into_iter().enumerate() {
            if i > 0 {
                self.s.push(',');
            }
            write_str(&mut self.s, it);
        }
        self.s.push(']');
        self
    }

    /// Copies every member of `entries` whose key is not in `skip`.
    pub(crate) fn rest(&mut self, entries: &[(crate::events::Str<'_>, Value<'_>)], skip: &[&str]) {
        for (k, v) in entries {
            if !skip.contains(&k.as_ref()) {
                self.value(k, v);
            }
        }
    }

    pub(crate) fn finish(mut self) -> String {
        self.s.push('}');
        self.s
    }
}

/// The members of an object (empty for anything else): checked access for dialect decoders.
pub(crate) fn members<'v, 'a>(
    v: Option<&'v Value<'a>>,
) -> &'v [(crate::events::Str<'a>, Value<'a>)] {
    v.and_then(Value::as_object).unwrap_or(&[])
}

/// `v[key]` as a string.
pub(crate) fn get_str<'v>(v: Option<&'v Value<'_>>, key: &str) -> Option<&'v str> {
    v.and_then(|v| v.get(key)).and_then(Value::as_str)
}

/// `v[key]` as a number.
pub(crate) fn get_num(v: Option<&Value<'_>>, key: &str) -> Option<f64> {
    v.and_then(|v| v.get(key))
        .and_then(Value::as_f64)
        .filter(|n| n.is_finite())
}

/// `v[key]` as a boolean.
pub(crate) fn get_bool(v: Option<&Value<'_>>, key: &str) -> Option<bool> {
    v.and_then(|v| v.get(key)).and_then(Value::as_bool)
}

/// `v[key]`, treating `null` as absent.
pub(crate) fn get<'v, 'a>(v: Option<&'v Value<'a>>, key: &str) -> Option<&'v Value<'a>> {
    v.and_then(|v| v.get(key)).filter(|x| !x.is_null())
}

/// A non-negative whole number that JavaScript holds exactly.
pub(crate) fn as_count(v: Option<&Value<'_>>) -> Option<u64> {
    v.and_then(Value::as_f64)
        .filter(|n| n.fract() == 0.0 && (0.0..=crate::events::field::MAX_SAFE_INTEGER).contains(n))
        .map(|n| n as u64)
}

/// Where diagnostics about the current dialect event go, with what they should say about it.
pub(crate) struct Sink<'o> {
    pub out: &'o mut Output,
    pub raw: &'o str,
    pub event_id: &'o str,
    pub position: u64,
    /// The dialect's own type of the event (`status-update`, `tool_execution`, `plan.start`).
    pub kind: Option<String>,
    /// The canonical task the event concerns, once known.
    pub task: Option<String>,
}

impl Sink<'_> {
    pub(crate) fn event(&mut self, json: String) {
        self.out.steps.push(Step::Event(json));
    }

    pub(crate) fn step(&mut self, step: Step) {
        self.out.steps.push(step);
    }

    /// A canonical `message-delta`: as its parts when its text would decode to exactly them
    /// (every string plain, a valid timestamp: the same event, no diagnostic), else as JSON
    /// text.
    pub(crate) fn message_delta(
        &mut self,
        context_id: &str,
        task_id: &str,
        message_id: &str,
        delta: &str,
        ts: &str,
    ) {
        let valid = crate::events::timestamp::is_valid(ts);
        self.message_delta_valid(context_id, task_id, message_id, delta, ts, valid);
    }

    /// [`Sink::message_delta`] when the caller knows whether `ts` is valid
    /// (`timestamp::is_valid`).
    pub(crate) fn message_delta_valid(
        &mut self,
        context_id: &str,
        task_id: &str,
        message_id: &str,
        delta: &str,
        ts: &str,
        ts_valid: bool,
    ) {
        let direct = ts_valid
            && plain(context_id)
            && plain(task_id)
            && plain(message_id)
            && plain(delta)
            && plain(ts);
        if !direct {
            return self.event(message_delta_json(
                context_id, task_id, message_id, delta, ts,
            ));
        }
        let out = &mut *self.out;
        let i = out.deltas_used;
        if out.deltas.len() <= i {
            out.deltas.push(MessageDeltaParts::default());
        }
        let Some(p) = out.deltas.get_mut(i) else {
            return;
        };
        for (buf, v) in [
            (&mut p.context_id, context_id),
            (&mut p.task_id, task_id),
            (&mut p.message_id, message_id),
            (&mut p.delta, delta),
            (&mut p.timestamp, ts),
        ] {
            buf.clear();
            buf.push_str(v);
        }
        out.deltas_used = i + 1;
        out.steps.push(Step::MessageDelta(i));
    }

    pub(crate) fn diag(&mut self, code: DiagCode, severity: Severity, message: String, path: &str) {
        let mut d = Diagnostic::new(code, severity, message, path);
        d.kind = self.kind.clone();
        d.task_id = self.task.clone();
        d.event_id = (!self.event_id.is_empty()).then(|| bounded_field(self.event_id));
        d.position = self.position;
        d.raw = Some(bounded_raw(self.raw));
        self.out.diagnostics.push(d);
    }

    pub(crate) fn error(&mut self, code: DiagCode, message: String, path: &str) {
        self.diag(code, Severity::Error, message, path)
    }

    pub(crate) fn warn(&mut self, code: DiagCode, message: String, path: &str) {
        self.diag(code, Severity::Warning, message, path)
    }

    /// A required member that is missing or of the wrong type (an error: nothing applied).
    pub(crate) fn require_error(
        &mut self,
        parent: Option<&Value<'_>>,
        key: &str,
        expected: &str,
        path: &str,
    ) {
        let (code, msg) = match parent.and_then(|p| p.get(key)) {
            None | Some(Value::Null) => (
                DiagCode::MissingField,
                format!("missing required field {key}"),
            ),
            Some(v) => (
                DiagCode::InvalidType,
                format!("{key}: expected {expected}, found {}", v.type_name()),
            ),
        };
        self.error(code, msg, path);
    }

    /// Like [`Sink::require_error`] but a warning: the event is still applied.
    pub(crate) fn require_warn(
        &mut self,
        parent: Option<&Value<'_>>,
        key: &str,
        expected: &str,
        path: &str,
    ) {
        let (code, msg) = match parent.and_then(|p| p.get(key)) {
            None | Some(Value::Null) => (
                DiagCode::MissingField,
                format!("missing required field {key} (applied anyway)"),
            ),
            Some(v) => (
                DiagCode::InvalidType,
                format!(
                    "{key}: expected {expected}, found {} (ignored)",
                    v.type_name()
                ),
            ),
        };
        self.warn(code, msg, path);
    }
}

/// The stream's notion of "now" for events that carry no timestamp.
#[derive(Debug, Default, Clone)]
pub(crate) struct Clock {
    /// Set by the embedder (wall clock in the browser); otherwise the last event's time is used.
    pub now_ms: Option<i64>,
    last: Option<Last>,
    /// The second of the latest [`Clock::stamp_ms`]: a stream's events mostly share their
    /// second with the one before (about 50 events a second in a typical AG-UI stream), so
    /// the date, the time and their check are computed once per second, not per event.
    second: Option<Second>,
}

/// The stream's last valid timestamp: as sent, or as milliseconds (written when asked).
#[derive(Debug, Clone)]
enum Last {
    Text(String),
    Ms(i64),
}

/// A second's text and whether it is a valid timestamp.
#[derive(Debug, Clone, Copy)]
struct Second {
    /// Its first millisecond (clamped to years 1..=9999).
    start: i64,
    /// `YYYY-MM-DDTHH:MM:SS.000Z`.
    text: [u8; 24],
    valid: bool,
}

/// The timestamp used when neither the event, the stream nor the embedder gave one.
pub(crate) const EPOCH: &str = "1970-01-01T00:00:00.000Z";

impl Clock {
    /// The timestamp for an event: its own when it has one (even an invalid one, which the
    /// canonical validation then reports), else the embedder's clock, else the last valid
    /// timestamp of the stream, else the Unix epoch.
    pub(crate) fn stamp(&mut self, own: Option<&str>) -> String {
        if let Some(ts) = own {
            if crate::events::timestamp::is_valid(ts) {
                self.last = Some(Last::Text(ts.to_owned()));
            }
            return ts.to_owned();
        }
        if let Some(ms) = self.now_ms {
            return iso_from_ms(ms);
        }
        self.stream_last().unwrap_or_else(|| EPOCH.to_owned())
    }

    /// [`Clock::stamp`] of an event's own timestamp given in milliseconds (written into `buf`;
    /// no allocation).
    pub(crate) fn stamp_ms<'b>(&mut self, ms: i64, buf: &'b mut [u8; 24]) -> &'b str {
        self.stamp_ms_checked(ms, buf).0
    }

    /// [`Clock::stamp_ms`], and whether the timestamp is valid (`timestamp::is_valid`).
    pub(crate) fn stamp_ms_checked<'b>(
        &mut self,
        ms: i64,
        buf: &'b mut [u8; 24],
    ) -> (&'b str, bool) {
        let ms = clamp_ms(ms);
        let second = match self.second {
            Some(s) if (s.start..s.start + 1000).contains(&ms) => s,
            _ => {
                let start = ms - ms.rem_euclid(1000);
                let text = iso_bytes(start);
                // (Only ASCII digits and separators: always UTF-8.) The validity of the text
                // depends on its date only: any time of day written is a valid one.
                let valid =
                    std::str::from_utf8(&text).is_ok_and(crate::events::timestamp::is_valid);
                let s = Second { start, text, valid };
                self.second = Some(s);
                s
            }
        };
        *buf = second.text;
        // The milliseconds, below 1000.
        let m = (ms - second.start) as u32;
        buf[20] = b'0' + (m / 100) as u8;
        buf[21] = b'0' + (m / 10 % 10) as u8;
        buf[22] = b'0' + (m % 10) as u8;
        let ts = std::str::from_utf8(buf).unwrap_or(EPOCH);
        if second.valid {
            self.last = Some(Last::Ms(ms));
        }
        (ts, second.valid)
    }

    /// The stream's last valid timestamp.
    fn stream_last(&self) -> Option<String> {
        match self.last.as_ref()? {
            Last::Text(ts) => Some(ts.clone()),
            Last::Ms(ms) => Some(iso_from_ms(*ms)),
        }
    }

    /// The stream's own time (its last valid timestamp), else the embedder's clock, else the
    /// epoch: for events the client makes up (an answer it sent), so that they sit on the
    /// stream's timeline even when the server's clock is not the browser's (request expiry is
    /// measured on that timeline).
    pub(crate) fn stream_now(&self) -> String {
        match (self.stream_last(), self.now_ms) {
            (Some(ts), _) => ts,
            (None, Some(ms)) => iso_from_ms(ms),
            (None, None) => EPOCH.to_owned(),
        }
    }
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` for milliseconds since the Unix epoch (proleptic Gregorian).
pub(crate) fn iso_from_ms(ms: i64) -> String {
    // Only ASCII digits and separators: always UTF-8.
    String::from_utf8(iso_bytes(ms).to_vec()).unwrap_or_default()
}

/// [`iso_from_ms`] as bytes.
fn iso_bytes(ms: i64) -> [u8; 24] {
    let (days, rem) = day_and_rest(ms);
    let mut b = *b"0000-00-00T00:00:00.000Z";
    b[..10].copy_from_slice(&date_bytes(days));
    time_bytes(&mut b, rem);
    b
}

/// `ms` within years 1..=9999.
fn clamp_ms(ms: i64) -> i64 {
    ms.clamp(-62_135_596_800_000, 253_402_300_799_999)
}

/// Days since the epoch and milliseconds into that day (years 1..=9999: clamped).
fn day_and_rest(ms: i64) -> (i64, i64) {
    let ms = clamp_ms(ms);
    (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000))
}

/// Writes `n` as `width` decimal digits into `b[at..]`.
fn put_digits(b: &mut [u8], at: usize, width: usize, mut n: i64) {
    for i in (at..at + width).rev() {
        if let Some(c) = b.get_mut(i) {
            *c = b'0' + (n % 10) as u8;
        }
        n /= 10;
    }
}

/// `YYYY-MM-DD` of a day since the epoch.
fn date_bytes(days: i64) -> [u8; 10] {
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    // Written digit by digit: `format!` was ~10 % of an AG-UI stream's decoding (every AG-UI
    // event carries a numeric timestamp).
    let mut b = *b"0000-00-00";
    put_digits(&mut b, 0, 4, y);
    put_digits(&mut b, 5, 2, m);
    put_digits(&mut b, 8, 2, d);
    b
}

/// Writes the time of day (`rem` ms into it) into `b`'s `HH:MM:SS.mmm` (from byte 11).
fn time_bytes(b: &mut [u8; 24], rem: i64) {
    put_digits(b, 11, 2, rem / 3_600_000);
    put_digits(b, 14, 2, rem / 60_000 % 60);
    put_digits(b, 17, 2, rem / 1000 % 60);
    put_digits(b, 20, 3, rem % 1000);
}

/// Keys whose values are replaced by `"[redacted]"` in events kept for observability
/// (seed 002: "sensitive_fields = password, api_key, token, secret").
const SENSITIVE: &[&str] = &[
    "password",
    "api_key",
    "apikey",
    "token",
    "secret",
    "authorization",
];

/// A copy of `v` with the values of sensitive keys (any depth, case-insensitive substring)
/// replaced by `"[redacted]"`.
pub(crate) fn redacted(v: &Value<'_>, depth: usize) -> crate::json::OwnedValue {
    match v {
        Value::Object(entries) if depth < crate::json::MAX_DEPTH => Value::Object(
            entries
                .iter()
                .map(|(k, x)| {
                    let lower = k.to_ascii_lowercase();
                    let hidden = SENSITIVE
                        .iter()
                        .any(|s| crate::json::contains_str(&lower, s));
                    let val = if hidden {
                        Value::String("[redacted]".into())
                    } else {
                        redacted(x, depth + 1)
                    };
                    (std::borrow::Cow::Owned(k.to_string()), val)
                })
                .collect(),
        ),
        Value::Array(items) if depth < crate::json::MAX_DEPTH => {
            Value::Array(items.iter().map(|x| redacted(x, depth + 1)).collect())
        }
        other => other.clone().into_owned(),
    }
}

/// 64-bit FNV-1a, for recognising an artifact re-sent whole (A2A `task` snapshots).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fnv(pub u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    pub(crate) fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // A separator so that ["ab","c"] and ["a","bc"] differ.
        self.0 ^= 0xff;
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_epoch_milliseconds_as_iso() {
        assert_eq!(iso_from_ms(0), EPOCH);
        assert_eq!(iso_from_ms(1_762_425_000_123), "2025-11-06T10:30:00.123Z");
        assert_eq!(iso_from_ms(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso_from_ms(-1), "1969-12-31T23:59:59.999Z");
        for ms in [0, 1, 86_399_999, 1_700_000_000_000, 4_102_444_800_000] {
            assert_eq!(
                crate::events::timestamp::to_epoch_ms(&iso_from_ms(ms)),
                Some(ms)
            );
        }
        // Never panics at the extremes.
        let _ = iso_from_ms(i64::MIN);
        let _ = iso_from_ms(i64::MAX);
    }

    #[test]
    fn builds_objects_in_order() {
        let mut o = Obj::event("task-status", "c", "t");
        o.str("status", "working").num("n", 1.5).bool("b", true);
        let mut m = Obj::new();
        m.str("x", "\"q\"");
        o.obj_if("metadata", m).obj_if("empty", Obj::new());
        assert_eq!(
            o.finish(),
            r#"{"kind":"task-status","contextId":"c","taskId":"t","status":"working","n":1.5,"b":true,"metadata":{"x":"\"q\""}}"#
        );
    }

    #[test]
    fn redacts_sensitive_keys_at_any_depth() {
        let v = crate::json::parse(
            r#"{"user":"u","api_key":"k","nested":{"Password":"p","list":[{"token_id":"t"}]}}"#,
        )
        .unwrap_or_default();
        assert_eq!(
            redacted(&v, 0).to_json(),
            r#"{"user":"u","api_key":"[redacted]","nested":{"Password":"[redacted]","list":[{"token_id":"[redacted]"}]}}"#
        );
    }

    #[test]
    fn stamps_in_milliseconds_match_the_text_of_each_instant() {
        // Within a second, across seconds, days and years, before the epoch and at the clamps.
        let mut ms = vec![
            0,
            1,
            999,
            1000,
            1762425000565,
            1762425000999,
            1762425001000,
            1762425001001,
            1762425000000,
            86_399_999,
            86_400_000,
            -1,
            -1000,
            -1001,
            951_782_400_000, // 2000-02-29
            253_402_300_799_999,
            999_999_999_999_999,
            -62_135_596_800_000,
            -99_999_999_999_999,
        ];
        ms.extend((0..3000).map(|i| 1762425000000 + i * 7));
        let mut c = Clock::default();
        for &m in &ms {
            let mut buf = [0; 24];
            let (ts, valid) = c.stamp_ms_checked(m, &mut buf);
            let want = iso_from_ms(m);
            assert_eq!(ts, want, "{m}");
            assert_eq!(valid, crate::events::timestamp::is_valid(&want), "{m}");
            if valid {
                assert_eq!(c.stream_now(), want, "{m}");
            }
        }
    }

    #[test]
    fn clock_prefers_own_then_embedder_then_last() {
        let mut c = Clock::default();
        assert_eq!(c.stamp(None), EPOCH);
        assert_eq!(
            c.stamp(Some("2025-01-01T00:00:00Z")),
            "2025-01-01T00:00:00Z"
        );
        assert_eq!(c.stamp(None), "2025-01-01T00:00:00Z");
        assert_eq!(c.stamp(Some("bad")), "bad");
        assert_eq!(c.stamp(None), "2025-01-01T00:00:00Z");
        c.now_ms = Some(0);
        assert_eq!(c.stamp(None), EPOCH);
    }
}

#[cfg(test)]
mod iso_tests {
    #[test]
    fn iso_from_ms_matches_javascript_to_iso_string() {
        // (ms, new Date(ms).toISOString())
        for (ms, iso) in [
            (0, "1970-01-01T00:00:00.000Z"),
            (1_762_425_000_093, "2025-11-06T10:30:00.093Z"),
            (951_782_400_000, "2000-02-29T00:00:00.000Z"),
            (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
            (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
            (i64::MAX, "9999-12-31T23:59:59.999Z"),
        ] {
            assert_eq!(super::iso_from_ms(ms), iso, "{ms}");
        }
    }
}
