//! Dialects: the other agent protocols (`docs/dialects.md`), decoded into canonical events (`docs/protocol-000.md`),
//! and the messages a client sends back in each of them.
//!
//! | dialect | seed | wire | module |
//! |---|---|---|---|
//! | `a2a` | 001 | SSE, bare events or JSON-RPC 2.0 responses | [`a2a`] |
//! | `acp` | 002 | SSE / WebSocket / webhook notifications | [`acp`] |
//! | `unified` | 003 | SSE / WebSocket | [`unified`] |
//! | `myagent` | 004 | WebSocket text frames (`seq`, `user.*` sent back) | [`myagent`] |
//! | `ag-ui` | — | SSE `data:` lines, `{"type":"RUN_STARTED",…}` (AG-UI 1.0) | `ag_ui` |
//! | `ai-sdk` | — | SSE `data:` lines, `{"type":"text-delta",…}`, `data: [DONE]` (AI SDK UI message stream) | `ai_sdk` |
//!
//! A [`DialectDecoder`] turns one dialect event (the `data` of an SSE event, or a WebSocket
//! text frame) into [`Step`]s: canonical events as JSON text, which the session decodes and
//! validates with the canonical decoder and applies to the store, plus the occasional reset (an
//! A2A artifact replaced). Nothing is lost: what has no canonical field goes into the event's
//! `metadata` under the dialect's name (`metadata.a2a`, `metadata.acp`, ...). Problems with the
//! dialect's own required fields become [`crate::events::Diagnostic`]s with stable codes.
//!
//! The canonical path is untouched: with [`DialectChoice::Fixed`]`(`[`Dialect::Canonical`]`)`
//! (the session's default is no decoder at all) events never pass through here, and in
//! [`DialectChoice::Auto`] only the events before the dialect is known are parsed twice.
//!
//! Pure Rust: no wasm imports. The browser glue calls [`respond`] to build what it sends.

// A build without every dialect leaves some shared helpers unused.
#![cfg_attr(
    not(all(
        feature = "a2a",
        feature = "acp",
        feature = "unified",
        feature = "myagent",
        feature = "ag-ui",
        feature = "ai-sdk"
    )),
    allow(dead_code)
)]

#[cfg(feature = "a2a")]
pub mod a2a;
#[cfg(feature = "acp")]
pub mod acp;
#[cfg(feature = "ag-ui")]
pub mod ag_ui;
#[cfg(feature = "ai-sdk")]
pub mod ai_sdk;
mod clock;
mod detect;
mod emit;
mod identity;
pub mod jsonrpc;
#[cfg(feature = "myagent")]
pub mod myagent;
pub mod respond;
mod rpc_reply;
mod surrogates;
mod table;
#[cfg(feature = "unified")]
pub mod unified;

pub use detect::{detect, detect_headers};
pub use emit::{MessageDeltaParts, Output, Step};

use crate::events::DiagCode;
use crate::json::{self, Value};
use emit::{Clock, Sink};

/// A wire protocol agentwire understands (the `dialect` option of `AgentClient`, and what
/// `client.dialect` reports once known).
#[derive(tsify::Tsify, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// Protocol 000, the canonical model (`docs/protocol-000.md`).
    #[serde(rename = "canonical")]
    Canonical,
    /// A2A v0.3 streaming: `task`, `status-update`, `artifact-update`, `message` (seed 001).
    #[serde(rename = "a2a")]
    A2a,
    /// A2A-ACP notifications: `status_change`, `input_required`, `tool_execution`, ... (seed 002).
    #[serde(rename = "acp")]
    Acp,
    /// The Unified Agent Event Schema: `{event_id, session_id, timestamp, type, payload}` (seed 003).
    #[serde(rename = "unified")]
    Unified,
    /// MyAgent WebSocket payloads: `plan.*`, `solver.*`, `agent.*`, `system.*`, `error.*` (seed 004).
    #[serde(rename = "myagent")]
    MyAgent,
    /// AG-UI 1.0: `RUN_STARTED`, `TEXT_MESSAGE_*`, `TOOL_CALL_*`, `STATE_*`, ... (`@ag-ui/core`).
    #[serde(rename = "ag-ui")]
    AgUi,
    /// The Vercel AI SDK's UI message stream: `start`, `text-delta`, `tool-input-*`, `data-*`,
    /// ..., `data: [DONE]` (`ai` 7.x).
    #[serde(rename = "ai-sdk")]
    AiSdk,
}

impl Dialect {
    /// Every dialect, in the order of the seeds.
    pub const ALL: &'static [Dialect] = &[
        Dialect::Canonical,
        Dialect::A2a,
        Dialect::Acp,
        Dialect::Unified,
        Dialect::MyAgent,
        Dialect::AgUi,
        Dialect::AiSdk,
    ];

    /// The name used in options, the CLI and `metadata` namespaces.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Canonical => "canonical",
            Dialect::A2a => "a2a",
            Dialect::Acp => "acp",
            Dialect::Unified => "unified",
            Dialect::MyAgent => "myagent",
            Dialect::AgUi => "ag-ui",
            Dialect::AiSdk => "ai-sdk",
        }
    }

    /// Parses a dialect name (as [`Dialect::as_str`] writes it).
    pub fn parse(name: &str) -> Option<Dialect> {
        Dialect::ALL.iter().copied().find(|d| d.as_str() == name)
    }

    /// `true` when this build reads the dialect (each dialect is a cargo feature; the canonical
    /// protocol is always there).
    pub fn is_available(self) -> bool {
        match self {
            Dialect::Canonical => true,
            Dialect::A2a => cfg!(feature = "a2a"),
            Dialect::Acp => cfg!(feature = "acp"),
            Dialect::Unified => cfg!(feature = "unified"),
            Dialect::MyAgent => cfg!(feature = "myagent"),
            Dialect::AgUi => cfg!(feature = "ag-ui"),
            Dialect::AiSdk => cfg!(feature = "ai-sdk"),
        }
    }

    /// `true` for the dialects whose natural transport is a WebSocket (one event per frame).
    pub fn uses_websocket(self) -> bool {
        self == Dialect::MyAgent
    }
}

/// How a session picks its dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DialectChoice {
    /// From the first event whose shape tells (events before it are decoded as canonical).
    #[default]
    Auto,
    /// Always this one.
    Fixed(Dialect),
}

impl DialectChoice {
    /// `"auto"` or a dialect name.
    pub fn parse(name: &str) -> Option<DialectChoice> {
        match name {
            "auto" => Some(DialectChoice::Auto),
            other => Dialect::parse(other).map(DialectChoice::Fixed),
        }
    }

    /// `"auto"` or the dialect's name.
    pub fn as_str(self) -> &'static str {
        match self {
            DialectChoice::Auto => "auto",
            DialectChoice::Fixed(d) => d.as_str(),
        }
    }
}

/// What the caller does with an event after [`DialectDecoder::decode`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// The data is a canonical event: decode it with [`crate::events::decode_event`] as usual
    /// (zero-copy; the output is empty).
    Canonical,
    /// The output holds what the event became (possibly nothing but diagnostics).
    Translated,
}

#[derive(Debug)]
enum Active {
    Canonical,
    #[cfg(feature = "a2a")]
    A2a(Box<a2a::A2aDecoder>),
    #[cfg(feature = "acp")]
    Acp(Box<acp::AcpDecoder>),
    #[cfg(feature = "unified")]
    Unified(Box<unified::UnifiedDecoder>),
    #[cfg(feature = "myagent")]
    MyAgent(Box<myagent::MyAgentDecoder>),
    #[cfg(feature = "ag-ui")]
    AgUi(Box<ag_ui::AgUiDecoder>),
    #[cfg(feature = "ai-sdk")]
    AiSdk(Box<ai_sdk::AiSdkDecoder>),
    /// A dialect this build leaves out (its cargo feature is off): its events are refused.
    Missing(Dialect),
}

/// Decodes one connection's dialect events into canonical steps. Keeps the per-stream state a
/// dialect needs (task states, chunk indices, open requests, sequence numbers). Never panics.
#[derive(Debug, Default)]
pub struct DialectDecoder {
    choice: DialectChoice,
    active: Option<Active>,
    clock: Clock,
    sent: u64,
    /// Identities of the events seen, for streams without SSE ids (see `identity.rs`).
    identities: identity::Identities,
}

impl DialectDecoder {
    /// A decoder for `choice` (a fixed dialect is active at once; `Auto` waits for an event
    /// whose shape tells).
    pub fn new(choice: DialectChoice) -> Self {
        let mut d = DialectDecoder {
            choice,
            ..DialectDecoder::default()
        };
        if let DialectChoice::Fixed(dialect) = choice {
            d.activate(dialect);
        }
        d
    }

    /// The choice this decoder was made with.
    pub fn choice(&self) -> DialectChoice {
        self.choice
    }

    /// The dialect in use: the fixed one, or the detected one (`None` while `Auto` has not
    /// seen a telling event).
    pub fn dialect(&self) -> Option<Dialect> {
        Some(match self.active.as_ref()? {
            Active::Canonical => Dialect::Canonical,
            #[cfg(feature = "a2a")]
            Active::A2a(_) => Dialect::A2a,
            #[cfg(feature = "acp")]
            Active::Acp(_) => Dialect::Acp,
            #[cfg(feature = "unified")]
            Active::Unified(_) => Dialect::Unified,
            #[cfg(feature = "myagent")]
            Active::MyAgent(_) => Dialect::MyAgent,
            #[cfg(feature = "ag-ui")]
            Active::AgUi(_) => Dialect::AgUi,
            #[cfg(feature = "ai-sdk")]
            Active::AiSdk(_) => Dialect::AiSdk,
            Active::Missing(d) => *d,
        })
    }

    /// How many event identities are remembered to recognise a replay in a stream without SSE
    /// ids (the store's `dedupeWindow`; 0 turns recognition off).
    pub fn set_dedupe_window(&mut self, window: usize) {
        self.identities.set_window(window);
    }

    /// Sets "now" (epoch ms) for events that carry no timestamp (the browser passes
    /// `Date.now()`); without it the stream's last timestamp is reused.
    pub fn set_now_ms(&mut self, now_ms: Option<i64>) {
        self.clock.now_ms = now_ms;
    }

    fn activate(&mut self, d: Dialect) {
        self.active = Some(match d {
            Dialect::Canonical => Active::Canonical,
            #[cfg(feature = "a2a")]
            Dialect::A2a => Active::A2a(Box::default()),
            #[cfg(feature = "acp")]
            Dialect::Acp => Active::Acp(Box::default()),
            #[cfg(feature = "unified")]
            Dialect::Unified => Active::Unified(Box::default()),
            #[cfg(feature = "myagent")]
            Dialect::MyAgent => Active::MyAgent(Box::default()),
            #[cfg(feature = "ag-ui")]
            Dialect::AgUi => Active::AgUi(Box::default()),
            #[cfg(feature = "ai-sdk")]
            Dialect::AiSdk => Active::AiSdk(Box::default()),
            #[allow(unreachable_patterns)]
            missing => Active::Missing(missing),
        });
    }

    /// The A2A state (request ids, tasks), when the dialect is `a2a`.
    #[cfg(feature = "a2a")]
    pub fn a2a(&mut self) -> Option<&mut a2a::A2aDecoder> {
        match self.active.as_mut()? {
            Active::A2a(d) => Some(d),
            _ => None,
        }
    }

    /// The A2A-ACP state, when the dialect is `acp`.
    #[cfg(feature = "acp")]
    pub fn acp(&mut self) -> Option<&mut acp::AcpDecoder> {
        match self.active.as_mut()? {
            Active::Acp(d) => Some(d),
            _ => None,
        }
    }

    /// The MyAgent state (session id, `last_seq`), when the dialect is `myagent`.
    #[cfg(feature = "myagent")]
    pub fn myagent(&mut self) -> Option<&mut myagent::MyAgentDecoder> {
        match self.active.as_mut()? {
            Active::MyAgent(d) => Some(d),
            _ => None,
        }
    }

    /// The AG-UI state (thread, run, interrupts), when the dialect is `ag-ui`.
    #[cfg(feature = "ag-ui")]
    pub fn ag_ui(&mut self) -> Option<&mut ag_ui::AgUiDecoder> {
        match self.active.as_mut()? {
            Active::AgUi(d) => Some(d),
            _ => None,
        }
    }

    /// The AI SDK state (chat id, message, open approvals), when the dialect is `ai-sdk`.
    #[cfg(feature = "ai-sdk")]
    pub fn ai_sdk(&mut self) -> Option<&mut ai_sdk::AiSdkDecoder> {
        match self.active.as_mut()? {
            Active::AiSdk(d) => Some(d),
            _ => None,
        }
    }

    /// The AI SDK client's own changes to the message (the output of a client-side tool, a
    /// stop), stamped with the stream's clock: the canonical events to apply. `None` when the
    /// dialect is not `ai-sdk`.
    #[cfg(feature = "ai-sdk")]
    pub fn ai_sdk_local(
        &mut self,
        f: impl FnOnce(&mut ai_sdk::AiSdkDecoder, &str) -> Vec<String>,
    ) -> Option<Vec<String>> {
        let ts = self.clock.stream_now();
        match self.active.as_mut()? {
            Active::AiSdk(d) => Some(f(d, &ts)),
            _ => None,
        }
    }

    /// The canonical events a compact AG-UI event becomes (`TEXT_MESSAGE_CONTENT` / `_START` /
    /// `_END`, `REASONING_MESSAGE_CONTENT` / `_START` / `_END`, `TOOL_CALL_START` / `_ARGS` /
    /// `_END` / `_RESULT`, `STATE_DELTA`, `ACTIVITY_SNAPSHOT`, `CUSTOM`, `SUBAGENT_STARTED`),
    /// built without JSON text in between and handed to `emit` in order, when
    /// [`DialectDecoder::decode`] would give exactly those events with no diagnostic (the
    /// decoder's state then moved on as `decode` would move it): `true`. Otherwise `false`,
    /// nothing changed and nothing given. The events borrow from `data`; `iso` holds their
    /// timestamp.
    pub fn direct(
        &mut self,
        data: &str,
        iso: &mut [u8; 24],
        emit: &mut dyn FnMut(&crate::events::AgentEvent<'_>),
    ) -> bool {
        #[cfg(feature = "ag-ui")]
        if let Some(Active::AgUi(d)) = self.active.as_mut() {
            return d.direct(data, &mut self.clock, iso, emit);
        }
        let _ = (data, iso, emit);
        false
    }

    /// Decodes one event's data (an SSE event's `data`, or one WebSocket text frame).
    ///
    /// `event_id` and `position` only label diagnostics. On [`Route::Canonical`] the caller
    /// decodes `data` itself; on [`Route::Translated`] `out` holds the result.
    pub fn decode(&mut self, data: &str, event_id: &str, position: u64, out: &mut Output) -> Route {
        out.clear();
        if matches!(self.active, Some(Active::Canonical)) {
            return Route::Canonical;
        }
        #[cfg(feature = "ag-ui")]
        if let Some(Active::AgUi(d)) = self.active.as_mut() {
            if let Some(e) = ag_ui::fast::text_content(data) {
                // (The session takes these through `direct`; this serves `decode` alone.)
                let mut iso = [0; 24];
                if let Some(crate::events::AgentEvent::MessageDelta(m)) =
                    d.text_content_direct(e, &mut self.clock, &mut iso)
                {
                    let mut sink = Sink {
                        out: &mut *out,
                        raw: data,
                        event_id,
                        position,
                        kind: None,
                        task: None,
                    };
                    let (c, t, i) = (&m.context_id, &m.task_id, &m.message_id);
                    sink.message_delta_valid(c, t, i, &m.delta, &m.timestamp, true);
                    return Route::Translated;
                }
            }
        }
        let mut sink = Sink {
            out,
            raw: data,
            event_id,
            position,
            kind: None,
            task: None,
        };
        // The AI SDK's stream ends with `data: [DONE]` (not JSON).
        #[cfg(feature = "ai-sdk")]
        if data == "[DONE]" {
            if self.active.is_none() {
                self.activate(Dialect::AiSdk);
            }
            if let Some(Active::AiSdk(d)) = self.active.as_mut() {
                d.done(&mut self.clock, &mut sink);
                return Route::Translated;
            }
        }
        let value = match json::parse(data) {
            Ok(v) => v,
            Err(e) => {
                if self.active.is_none() {
                    return Route::Canonical;
                }
                sink.error(DiagCode::InvalidJson, e.to_string(), "$");
                return Route::Translated;
            }
        };
        let shape = detect::classify(&value);
        if self.active.is_none() {
            match shape {
                Some(Dialect::Canonical) => {
                    self.activate(Dialect::Canonical);
                    return Route::Canonical;
                }
                Some(d) => self.activate(d),
                // `internal:*` tells nothing; a non-object is the canonical decoder's to report.
                None if detect::is_canonical_kind(&value) || value.as_object().is_none() => {
                    return Route::Canonical
                }
                None => {
                    sink.error(
                        DiagCode::UnknownDialect,
                        "cannot tell the dialect of this event (no kind, type/payload, event or jsonrpc member): not applied".to_owned(),
                        "$",
                    );
                    return Route::Translated;
                }
            }
        }
        // Canonical events (e.g. `internal:*`) are welcome in any dialect's stream.
        if detect::is_canonical_kind(&value) {
            return Route::Canonical;
        }
        if value.as_object().is_none() {
            let msg = format!("event must be a json object, found {}", value.type_name());
            sink.error(DiagCode::NotAnObject, msg, "$");
            return Route::Translated;
        }
        if let (Some(shape), Some(active)) = (shape, self.dialect()) {
            // An AG-UI stream may carry event types it does not know yet, with any members.
            let future_ag_ui = active == Dialect::AgUi
                && value.get("type").and_then(Value::as_str).is_some_and(|t| {
                    !t.is_empty()
                        && t.bytes()
                            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
                });
            if shape != active && shape != Dialect::Canonical && !future_ag_ui {
                let msg = format!(
                    "event looks like {} but the stream is {}: not applied",
                    shape.as_str(),
                    active.as_str()
                );
                sink.error(DiagCode::DialectMismatch, msg, "$");
                return Route::Translated;
            }
        }
        // Without SSE ids, an event already seen (by its identity in its protocol) is a
        // replay: not decoded at all, so the decoder's own counters do not move.
        if event_id.is_empty() && self.replayed(&value, data, &mut sink) {
            return Route::Translated;
        }
        #[allow(unused_variables)]
        let clock = &mut self.clock;
        match self.active.as_mut() {
            #[cfg(feature = "a2a")]
            Some(Active::A2a(d)) => d.decode(&value, clock, &mut sink),
            #[cfg(feature = "acp")]
            Some(Active::Acp(d)) => d.decode(&value, clock, &mut sink),
            #[cfg(feature = "unified")]
            Some(Active::Unified(d)) => d.decode(&value, clock, &mut sink),
            #[cfg(feature = "myagent")]
            Some(Active::MyAgent(d)) => d.decode(&value, clock, &mut sink),
            #[cfg(feature = "ag-ui")]
            Some(Active::AgUi(d)) => d.decode(&value, clock, &mut sink),
            #[cfg(feature = "ai-sdk")]
            Some(Active::AiSdk(d)) => d.decode(&value, clock, &mut sink),
            Some(Active::Missing(d)) => {
                let msg = format!(
                    "this build reads no {} events (its cargo feature is off): not applied",
                    d.as_str()
                );
                sink.error(DiagCode::UnknownDialect, msg, "$");
            }
            Some(Active::Canonical) | None => return Route::Canonical,
        }
        Route::Translated
    }

    /// `true` when the event repeats one already seen (`out.duplicate` set), or contradicts it
    /// (a diagnostic); see `identity.rs`.
    fn replayed(&mut self, value: &Value<'_>, data: &str, sink: &mut Sink<'_>) -> bool {
        let key = match self.dialect() {
            // An event without its `event_id` (malformed) is known by its whole text.
            Some(Dialect::Unified) => match value.get("event_id").and_then(Value::as_str) {
                Some(id) => format!("event_id:{id}"),
                None => data.to_owned(),
            },
            Some(Dialect::Acp) => data.to_owned(),
            _ => return false,
        };
        match self.identities.check(&key, data) {
            identity::Seen::New => false,
            identity::Seen::Repeat => {
                sink.out.duplicate = true;
                true
            }
            identity::Seen::Conflict => {
                sink.warn(
                    DiagCode::DuplicateEvent,
                    format!(
                        "{} was already used by another event: not applied",
                        key.replace(':', " ")
                    ),
                    "$.event_id",
                );
                true
            }
        }
    }

    /// The canonical events for a request the client just answered (the dialects other than
    /// 000 do not echo answers): `input-received` (or `auth-completed` when `is_auth`), and for
    /// MyAgent the turn's return to `working`. Updates the dialect's own bookkeeping. Empty
    /// when the dialect does not track the request as open.
    pub fn answered(
        &mut self,
        id: &str,
        task_id: &str,
        context_id: &str,
        is_auth: bool,
    ) -> Vec<String> {
        #[allow(unused_mut)]
        let mut resumes = false;
        #[allow(unused_mut)]
        let mut extra: Vec<String> = Vec::new();
        let closed = match self.active.as_mut() {
            #[cfg(feature = "ai-sdk")]
            Some(Active::AiSdk(d)) => d.close_approval(id, &self.clock.stream_now(), &mut extra),
            #[cfg(feature = "a2a")]
            Some(Active::A2a(d)) => d.close_input(id),
            #[cfg(feature = "acp")]
            Some(Active::Acp(d)) => d.close_input(id),
            #[cfg(feature = "myagent")]
            Some(Active::MyAgent(d)) => {
                resumes = d.input_task(id).is_some();
                d.close_input(id)
            }
            #[cfg(feature = "ag-ui")]
            Some(Active::AgUi(d)) => d.close_input(id),
            _ => false,
        };
        if !closed {
            return Vec::new();
        }
        let ts = self.clock.stream_now();
        let mut e = if is_auth {
            let mut e = emit::Obj::event("auth-completed", context_id, task_id);
            e.str("authId", id).str("userId", "user");
            e
        } else {
            let mut e = emit::Obj::event("input-received", context_id, task_id);
            e.str("inputId", id).str("providedBy", "user");
            e
        };
        e.str("timestamp", &ts);
        let mut m = emit::Obj::new();
        let mut d = emit::Obj::new();
        d.bool("local", true);
        m.obj(self.dialect().map_or("dialect", Dialect::as_str), d);
        e.obj("metadata", m);
        let mut out = vec![e.finish()];
        out.append(&mut extra);
        if resumes {
            let mut s = emit::Obj::event("task-status", context_id, task_id);
            s.str("status", "working").str("timestamp", &ts);
            out.push(s.finish());
        }
        out
    }

    /// A fresh id for a message the client sends (`aw-<now ms>-<n>`).
    pub fn next_message_id(&mut self) -> String {
        self.sent += 1;
        format!("aw-{}-{}", self.clock.now_ms.unwrap_or(0), self.sent)
    }
}

/// Writes the canonical JSON of an unknown event that keeps a dialect event whole: `kind`
/// (e.g. `acp:authentication`), `contextId`/`taskId` when known, then the event's own members
/// (its own `kind`, if any, is the part after the prefix).
pub(crate) fn unknown_event(
    kind: &str,
    context_id: Option<&str>,
    task_id: Option<&str>,
    data: &Value<'_>,
) -> String {
    let mut e = emit::Obj::new();
    e.str("kind", kind)
        .opt_str("contextId", context_id)
        .opt_str("taskId", task_id);
    let mut skip = vec!["kind"];
    if context_id.is_some() {
        skip.push("contextId");
    }
    if task_id.is_some() {
        skip.push("taskId");
    }
    match data.as_object() {
        Some(members) => e.rest(members, &skip),
        None => {
            e.value("data", data);
        }
    }
    e.finish()
}

#[cfg(all(
    test,
    feature = "a2a",
    feature = "acp",
    feature = "unified",
    feature = "myagent"
))]
mod tests;
