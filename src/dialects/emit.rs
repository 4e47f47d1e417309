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

pub(crate) use super::clock::Clock;
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
        other => other.to_owned_value(),
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
}
