//! The Vercel AI SDK's UI message stream (`ai` 7.x, `uiMessageChunkSchema`; what
//! `toUIMessageStreamResponse()` serves): every chunk type read into the conversation model,
//! with the assistant message's `parts` in the shape the SDK's own `UIMessage` has
//! (`tests/ai-sdk/WIRE.md` cites the source line of each rule).
//!
//! One assistant message is one task (its `messageId` is the task id; the chat id is the
//! context): a response that continues the message (after a tool approval) continues the task.
//!
//! | chunk | canonical |
//! |---|---|
//! | `start` | `task-created` + `task-status` `working` + `message-start` (role `assistant`); `messageMetadata` merged into the message's `metadata` |
//! | `text-start` / `-delta` / `-end` | `message-delta` (`partId`, the text part) / `message-end` (`partId`): `{type:"text", text, state}`, also `content` and the task's answer |
//! | `reasoning-*` | the same with `partType: "reasoning"` (`{type:"reasoning", id, text, state}`), and a `thought-stream` at its end |
//! | `tool-input-start` / `-delta` / `-available` / `-error` | `tool-start` / `tool-args-delta` / `tool-args-end` / `tool-complete` (failed) in `task.tools`, and the part `tool-<name>` (or `dynamic-tool`) with the SDK's `state`, `input` (partial JSON parsed as the SDK does while streaming), `rawInput` |
//! | `tool-output-available` / `-error` / `-denied` | `tool-complete` (preliminary outputs only update the part) + the part |
//! | `tool-approval-request` / `-response` | `input-required` (`inputId` = `approvalId`, confirmation, `metadata.toolCall`) + `task-status` `waiting-input` / `input-received`; the part's `approval` |
//! | `source-url`, `source-document`, `file`, `reasoning-file`, `custom`, `steering-message` | `message-part` (appended) |
//! | `data-*` | `message-part` keyed `data:<type>:<id>` (a later one with the same type and id replaces it); `transient: true`: delivered as the event `ai-sdk:data-*`, not stored |
//! | `start-step` / `finish-step` / `reset-step` | a `step-start` part / nothing / `message-cut` after the last step start |
//! | `message-metadata` | merged into `metadata` |
//! | `finish` | `message-end`; `task-complete` (`finishReason`), `failed` after an `error` chunk, still `waiting-input` while an approval is open |
//! | `error` | an `agent-error` warning (the stream goes on, as `readUIMessageStream` does) |
//! | `abort` | `task-status` `canceled` |
//! | `data: [DONE]` | the response's end |
//!
//! The official client stops at the first chunk it cannot place (a delta without its start, an
//! unknown tool call, an unknown type); here each is a diagnostic, the chunk is not applied and
//! the stream goes on.

mod parts;
pub mod request;
mod tools;

use super::emit::{get_str, Clock, Obj, Sink};
use super::surrogates::Surrogates;
use super::table::Table;
use crate::events::DiagCode;
use crate::json::{OwnedValue, Value};

const MAX_TRACKED: usize = 10_000;

/// An open text or reasoning part.
#[derive(Debug, Clone)]
struct PartTrack {
    reasoning: bool,
    /// Reasoning text so far (its thought at the end).
    text: String,
    /// The part's other members (`providerMetadata`, `citations`).
    members: Vec<(String, OwnedValue)>,
}

/// AI SDK UI message stream decoding state of one connection.
#[derive(Debug, Default)]
pub struct AiSdkDecoder {
    chat: Option<String>,
    /// The assistant message being written (= its task).
    message: Option<String>,
    /// Messages (tasks) started on this connection.
    started: Table<()>,
    parts: Table<PartTrack>,
    tools: Table<tools::ToolTrack>,
    /// approvalId → toolCallId.
    approvals: Table<String>,
    /// Approvals asked and not answered yet.
    open_approvals: Vec<String>,
    steps: u64,
    last_step: Option<String>,
    metadata: Option<OwnedValue>,
    /// An `error` chunk's text in the current response.
    error: Option<String>,
    finished: bool,
    thoughts: u64,
    generated: u64,
    surrogates: Surrogates,
    /// The first part of each `data-*` key: a later chunk replaces only its `data`.
    data_parts: Table<OwnedValue>,
    /// The client's answers to approvals, until they are closed: id → (approved, reason).
    answers: Table<(bool, Option<String>)>,
    /// What the client sent for the next response (its user messages join the task).
    sent: Option<OwnedValue>,
    /// A hash of each chunk of the current response, in order (a resumed stream replays them).
    response: Vec<u64>,
    /// Replaying the current response: the index of the next chunk expected again.
    replay_at: Option<usize>,
}

/// The most chunks of one response remembered for a replay (8 bytes each); a replay past them
/// is applied as new.
const MAX_RESPONSE_CHUNKS: usize = 1 << 18;

fn chunk_hash(raw: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    raw.hash(&mut h);
    h.finish()
}

/// The context of one chunk.
pub(crate) struct Cx<'c> {
    pub chat: &'c str,
    pub message: &'c str,
    pub ts: &'c str,
    pub raw: &'c str,
}

impl Cx<'_> {
    fn event(&self, kind: &str) -> Obj {
        Obj::event(kind, self.chat, self.message)
    }
}

/// Required members of each chunk type (`uiMessageChunkSchema`): (name, must be a string).
fn required(ty: &str) -> &'static [(&'static str, bool)] {
    match ty {
        "text-start" | "text-end" | "reasoning-start" | "reasoning-end" => &[("id", true)],
        "text-delta" | "reasoning-delta" => &[("id", true), ("delta", true)],
        "error" => &[("errorText", true)],
        "tool-input-start" => &[("toolCallId", true), ("toolName", true)],
        "tool-input-delta" => &[("toolCallId", true), ("inputTextDelta", true)],
        "tool-input-available" => &[("toolCallId", true), ("toolName", true), ("input", false)],
        "tool-input-error" => &[
            ("toolCallId", true),
            ("toolName", true),
            ("input", false),
            ("errorText", true),
        ],
        "tool-approval-request" => &[("approvalId", true), ("toolCallId", true)],
        "tool-approval-response" => &[("approvalId", true), ("approved", false)],
        "tool-output-available" => &[("toolCallId", true), ("output", false)],
        "tool-output-error" => &[("toolCallId", true), ("errorText", true)],
        "tool-output-denied" => &[("toolCallId", true)],
        "custom" => &[("kind", true)],
        "source-url" => &[("sourceId", true), ("url", true)],
        "source-document" => &[("sourceId", true), ("mediaType", true), ("title", true)],
        "file" | "reasoning-file" => &[("url", true), ("mediaType", true)],
        "steering-message" => &[("id", true), ("parts", false)],
        "message-metadata" => &[("messageMetadata", false)],
        t if t.starts_with("data-") => &[("data", false)],
        _ => &[],
    }
}

const TYPES: &[&str] = &[
    "text-start",
    "text-delta",
    "text-end",
    "error",
    "tool-input-start",
    "tool-input-delta",
    "tool-input-available",
    "tool-input-error",
    "tool-approval-request",
    "tool-approval-response",
    "tool-output-available",
    "tool-output-error",
    "tool-output-denied",
    "reasoning-start",
    "reasoning-delta",
    "reasoning-end",
    "custom",
    "source-url",
    "source-document",
    "file",
    "reasoning-file",
    "steering-message",
    "start-step",
    "finish-step",
    "reset-step",
    "start",
    "finish",
    "abort",
    "message-metadata",
];

/// Whether `ty` is a UI message chunk type of `ai` 7.x.
pub(crate) fn is_chunk_type(ty: &str) -> bool {
    TYPES.contains(&ty) || (ty.len() > 5 && ty.starts_with("data-"))
}

impl AiSdkDecoder {
    /// Sets the chat id (the context of every task; `chat` until set).
    pub fn set_chat_id(&mut self, id: &str) {
        self.chat = Some(id.to_owned());
    }

    /// The chat id.
    pub fn chat_id(&self) -> &str {
        self.chat.as_deref().unwrap_or("chat")
    }

    /// The assistant message being written (its id is the task id).
    pub fn message_id(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The approvals asked and not answered: (approvalId, toolCallId).
    pub fn open_approvals(&self) -> Vec<(String, String)> {
        self.open_approvals
            .iter()
            .map(|a| {
                (
                    a.clone(),
                    self.approvals.get(a).cloned().unwrap_or_default(),
                )
            })
            .collect()
    }

    /// Records the request body the client POSTed: at the next message's start, its user
    /// messages the chat has not seen join the task.
    pub fn set_request(&mut self, body: &Value<'_>) {
        self.sent = Some(body.to_owned_value());
        self.finished = false;
        self.response.clear();
        self.replay_at = None;
    }

    /// A resumed stream follows (`GET {api}/{chatId}/stream`), which replays the current
    /// response from its first chunk (`resumeStreamIsReplay`): the chunks already applied are
    /// recognised and skipped, so nothing is applied twice; the first chunk that differs, and
    /// every chunk past the ones read before, is applied. (The official chat rebuilds the
    /// message from the replay instead; the message ends the same.)
    pub fn begin_replay(&mut self) {
        self.replay_at = (!self.response.is_empty()).then_some(0);
    }

    /// `true` when `raw` is a chunk of the current response replayed by a resumed stream (not
    /// applied again); otherwise it is remembered as the response's next chunk.
    fn replayed(&mut self, raw: &str, sink: &mut Sink<'_>) -> bool {
        let h = chunk_hash(raw);
        if let Some(i) = self.replay_at {
            if self.response.get(i) == Some(&h) {
                self.replay_at = (i + 1 < self.response.len()).then_some(i + 1);
                return true;
            }
            self.replay_at = None;
            if i < self.response.len() {
                sink.warn(
                    DiagCode::DuplicateEvent,
                    format!("the resumed stream differs from the response read before at chunk {}: applied from here", i + 1),
                    "$",
                );
                self.response.truncate(i);
            }
        }
        if self.response.len() < MAX_RESPONSE_CHUNKS {
            self.response.push(h);
        }
        false
    }

    /// The client stopped the response (the official chat's `stop()`: the fetch is aborted):
    /// the message keeps every part as it is; its task ends `canceled` ("aborted"). Returns the
    /// events to apply (none when no message is being written).
    pub fn stop(&mut self, ts: &str) -> Vec<String> {
        let Some(message) = self.message.clone() else {
            return Vec::new();
        };
        if self.finished {
            return Vec::new();
        }
        self.finished = true;
        self.replay_at = None;
        let mut e = Obj::event("task-status", self.chat_id(), &message);
        e.str("status", "canceled")
            .str("message", "aborted")
            .str("timestamp", ts);
        let mut m = Obj::new();
        m.str("reason", "aborted");
        e.obj("metadata", m);
        vec![e.finish()]
    }

    /// `true` when the message being written waits for the client (an open approval, or a
    /// tool output the client gives): the next request continues it.
    pub fn waits_for_client(&self) -> bool {
        self.message.is_some() && self.waiting_for_client()
    }

    /// `true` once the current response ended (`finish`, `abort`, or an error at `[DONE]`).
    pub fn response_finished(&self) -> bool {
        self.finished
    }

    /// `data: [DONE]`: the response ended.
    pub(crate) fn done(&mut self, clock: &mut Clock, sink: &mut Sink<'_>) {
        sink.kind = Some("[DONE]".to_owned());
        if self.replayed("[DONE]", sink) {
            return;
        }
        let Some(message) = self.message.clone() else {
            return;
        };
        if self.finished {
            return;
        }
        // Ended without `finish`: failed after an error chunk (what the SDK's writer sends when
        // `execute` throws), else the message is left as it is.
        if let Some(err) = self.error.take() {
            let ts = clock.stamp(None);
            let chat = self.chat_id().to_owned();
            let mut e = Obj::event("task-status", &chat, &message);
            e.str("status", "failed")
                .str("message", &err)
                .str("timestamp", &ts);
            let mut m = Obj::new();
            m.str("reason", &err);
            e.obj("metadata", m);
            sink.event(e.finish());
            self.finished = true;
        }
    }

    pub(crate) fn decode(&mut self, v: &Value<'_>, clock: &mut Clock, sink: &mut Sink<'_>) {
        if self.replayed(sink.raw, sink) {
            sink.kind = get_str(Some(v), "type").map(str::to_owned);
            return;
        }
        let Some(ty) = get_str(Some(v), "type") else {
            sink.require_error(Some(v), "type", "string", "$.type");
            return;
        };
        sink.kind = Some(ty.to_owned());
        if !is_chunk_type(ty) {
            sink.warn(
                DiagCode::InvalidEnum,
                format!(
                    "unknown UI message chunk type {ty}: delivered as ai-sdk:{ty}, not applied"
                ),
                "$.type",
            );
            let chat = self.chat_id().to_owned();
            sink.event(super::unknown_event(
                &format!("ai-sdk:{ty}"),
                Some(&chat),
                self.message.as_deref(),
                v,
            ));
            return;
        }
        let mut ok = true;
        for &(key, string) in required(ty) {
            let good = match v.get(key) {
                None => false,
                Some(x) => !string || x.as_str().is_some(),
            };
            if !good {
                sink.require_error(
                    Some(v),
                    key,
                    if string { "string" } else { "a JSON value" },
                    &format!("$.{key}"),
                );
                ok = false;
            }
        }
        if ty == "tool-approval-response" && v.get("approved").and_then(Value::as_bool).is_none() {
            ok = false;
        }
        if !ok {
            return;
        }
        let ts = clock.stamp(None);
        if ty == "start" {
            self.start(v, &ts, sink);
            return;
        }
        let message = match self.message.clone() {
            Some(m) => m,
            None => {
                // A chunk before any `start`: the message the SDK would start with no id.
                self.generated += 1;
                let id = format!("msg-{}", self.generated);
                self.begin(&id, &ts, sink);
                id
            }
        };
        let chat = self.chat_id().to_owned();
        sink.task = Some(message.clone());
        let cx = Cx {
            chat: &chat,
            message: &message,
            ts: &ts,
            raw: sink.raw,
        };
        match ty {
            "text-start" | "reasoning-start" => {
                self.part_start(&cx, v, ty == "reasoning-start", sink)
            }
            "text-delta" | "reasoning-delta" => {
                self.part_delta(&cx, v, ty == "reasoning-delta", sink)
            }
            "text-end" | "reasoning-end" => self.part_end(&cx, v, ty == "reasoning-end", sink),
            "source-url" => self.put(
                &cx,
                v,
                &["type", "sourceId", "url", "title", "providerMetadata"],
                None,
                sink,
            ),
            "source-document" => self.put(
                &cx,
                v,
                &[
                    "type",
                    "sourceId",
                    "mediaType",
                    "title",
                    "filename",
                    "providerMetadata",
                ],
                None,
                sink,
            ),
            "file" | "reasoning-file" => self.put(
                &cx,
                v,
                &["type", "mediaType", "url", "providerMetadata"],
                None,
                sink,
            ),
            "custom" => self.put(&cx, v, &["type", "kind", "providerMetadata"], None, sink),
            "steering-message" => self.put(&cx, v, &["type", "id", "parts"], None, sink),
            "start-step" => {
                self.steps += 1;
                let key = format!("step:{}", self.steps);
                let mut p = Obj::new();
                p.str("type", "step-start");
                self.put_obj(&cx, p, Some(&key), sink);
                self.last_step = Some(key);
            }
            "finish-step" => {}
            "reset-step" => self.reset_step(&cx, sink),
            "message-metadata" => self.merge_metadata(&cx, v.get("messageMetadata"), sink),
            "finish" => self.finish(&cx, v, sink),
            "error" => {
                let text = get_str(Some(v), "errorText").unwrap_or_default().to_owned();
                sink.warn(
                    DiagCode::AgentError,
                    format!("the agent reported an error: {text}"),
                    "$.errorText",
                );
                self.error = Some(text);
            }
            "abort" => {
                let mut e = cx.event("task-status");
                e.str("status", "canceled")
                    .opt_str("message", get_str(Some(v), "reason"))
                    .str("timestamp", cx.ts);
                let mut m = Obj::new();
                m.str("reason", get_str(Some(v), "reason").unwrap_or("aborted"));
                e.obj("metadata", m);
                sink.event(e.finish());
                self.finished = true;
            }
            t if t.starts_with("data-") => self.data(&cx, v, sink),
            _ => self.tool_chunk(&cx, ty, v, sink),
        }
        self.bound();
    }

    fn start(&mut self, v: &Value<'_>, ts: &str, sink: &mut Sink<'_>) {
        let id = match (get_str(Some(v), "messageId"), &self.message) {
            (Some(id), _) => id.to_owned(),
            (None, Some(cur)) => cur.clone(),
            (None, None) => {
                self.generated += 1;
                format!("msg-{}", self.generated)
            }
        };
        self.begin(&id, ts, sink);
        let chat = self.chat_id().to_owned();
        let cx = Cx {
            chat: &chat,
            message: &id,
            ts,
            raw: sink.raw,
        };
        self.merge_metadata(&cx, v.get("messageMetadata"), sink);
    }

    /// Starts (or continues) the assistant message `id`: its task, working, and the message.
    fn begin(&mut self, id: &str, ts: &str, sink: &mut Sink<'_>) {
        let chat = self.chat_id().to_owned();
        sink.task = Some(id.to_owned());
        let continued = self.message.as_deref() == Some(id);
        if !continued {
            self.parts.clear();
            self.metadata = None;
            self.last_step = None;
        }
        self.message = Some(id.to_owned());
        self.error = None;
        self.finished = false;
        if !self.started.contains(id) {
            self.started.insert(id, ());
            let mut e = Obj::event("task-created", &chat, id);
            e.str("initiator", "user").str("timestamp", ts);
            sink.event(e.finish());
            // The user's messages the client sent for this response.
            let sent = self.sent.take();
            let list = sent
                .as_ref()
                .and_then(|b| b.get("messages"))
                .and_then(Value::as_array);
            for m in list
                .unwrap_or_default()
                .iter()
                .filter(|m| get_str(Some(m), "role") == Some("user"))
            {
                let Some(mid) = get_str(Some(m), "id") else {
                    continue;
                };
                if self.started.contains(&format!("user:{mid}")) {
                    continue;
                }
                self.started.insert(&format!("user:{mid}"), ());
                let text: String = m
                    .get("parts")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter(|p| get_str(Some(p), "type") == Some("text"))
                    .filter_map(|p| get_str(Some(p), "text"))
                    .collect();
                let mut u = Obj::new();
                u.str("id", mid).str("role", "user").str("content", &text);
                let mut e = Obj::event("message-upsert", &chat, id);
                e.obj("message", u).str("timestamp", ts);
                sink.event(e.finish());
            }
        }
        let mut w = Obj::event("task-status", &chat, id);
        w.str("status", "working").str("timestamp", ts);
        sink.event(w.finish());
        let mut m = Obj::event("message-start", &chat, id);
        m.str("messageId", id)
            .str("role", "assistant")
            .str("timestamp", ts);
        sink.event(m.finish());
    }

    fn merge_metadata(&mut self, cx: &Cx<'_>, add: Option<&Value<'_>>, sink: &mut Sink<'_>) {
        let Some(add) = add.filter(|a| !a.is_null()) else {
            return;
        };
        let merged = match self.metadata.take() {
            Some(base) => crate::json::partial::merge_objects(&base, add),
            None => add.to_owned_value(),
        };
        let mut m = Obj::new();
        m.str("id", cx.message)
            .str("role", "assistant")
            .value("metadata", &merged);
        self.metadata = Some(merged);
        let mut e = cx.event("message-upsert");
        e.obj("message", m).str("timestamp", cx.ts);
        sink.event(e.finish());
    }

    fn finish(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        self.merge_metadata(cx, v.get("messageMetadata"), sink);
        let mut end = cx.event("message-end");
        end.str("messageId", cx.message).str("timestamp", cx.ts);
        sink.event(end.finish());
        self.finished = true;
        let reason = get_str(Some(v), "finishReason");
        let mut a = Obj::new();
        a.opt_str("finishReason", reason);
        let mut m = Obj::new();
        m.obj_if("aiSdk", a);
        if self.waiting_for_client() {
            // The message waits for the user's approval or a client-side tool's output: the
            // next request continues it.
            let mut e = cx.event("task-status");
            e.str("status", "waiting-input").str("timestamp", cx.ts);
            m.str("blockedBy", "user");
            e.obj("metadata", m);
            sink.event(e.finish());
            return;
        }
        if let Some(err) = self.error.take() {
            let mut e = cx.event("task-status");
            e.str("status", "failed")
                .str("message", &err)
                .str("timestamp", cx.ts);
            m.str("reason", &err);
            e.obj("metadata", m);
            sink.event(e.finish());
            return;
        }
        let mut e = cx.event("task-complete");
        e.str("timestamp", cx.ts);
        e.obj_if("metadata", m);
        sink.event(e.finish());
    }

    fn bound(&mut self) {
        if self.tools.len() > MAX_TRACKED {
            self.tools.clear();
        }
        if self.approvals.len() > MAX_TRACKED {
            self.approvals.clear();
        }
        if self.started.len() > MAX_TRACKED {
            self.started.clear();
        }
        if self.data_parts.len() > MAX_TRACKED {
            self.data_parts.clear();
        }
        self.surrogates.bound(MAX_TRACKED);
    }
}
