//! Text and reasoning messages, their `*_CHUNK` shorthand (one open "lane" per owner, as the
//! official `transformChunks` expands them), snapshots of messages and activities, encrypted
//! values, and the legacy `THINKING_*` events.

use super::super::emit::{get_str, Obj, Sink};
use super::{AgUiDecoder, Cx, LaneKind, MessageTrack, Ty};
use crate::events::{DiagCode, MessageRole};
use crate::json::Value;
use std::borrow::Cow;

impl AgUiDecoder {
    pub(super) fn track_message(
        &mut self,
        id: &str,
        task: &str,
        role: MessageRole,
        open: bool,
        owner: Option<&str>,
    ) {
        self.messages.insert(
            id,
            MessageTrack {
                task: task.to_owned(),
                role,
                open,
                owner: owner.map(str::to_owned),
            },
        );
    }

    /// The delta as JavaScript would concatenate it (see `super::super::surrogates`).
    pub(super) fn join_delta<'d>(&mut self, id: &str, delta: &'d str, raw: &str) -> Cow<'d, str> {
        self.surrogates.join(id, delta, raw)
    }

    fn delta_event(&mut self, cx: &Cx<'_>, task: &str, id: &str, delta: &str, sink: &mut Sink<'_>) {
        let delta = self.joined_delta(id, delta, cx.raw);
        sink.message_delta(cx.thread, task, id, &delta, cx.ts);
    }

    /// The delta as it joins the message's text (surrogate halves joined), also added to an
    /// open reasoning message's thought.
    pub(super) fn joined_delta<'d>(&mut self, id: &str, delta: &'d str, raw: &str) -> Cow<'d, str> {
        let delta = self.join_delta(id, delta, raw);
        if let Some(r) = self.reasoning.get_mut(id) {
            r.push_str(&delta);
        }
        delta
    }

    /// Opens message `id` (role `role`) in the event's task, or reopens the one the thread has.
    fn open_message(
        &mut self,
        cx: &Cx<'_>,
        id: &str,
        role: MessageRole,
        name: Option<&str>,
        sink: &mut Sink<'_>,
    ) {
        let task = match self.messages.get(id) {
            Some(m) if m.role == MessageRole::Activity => {
                sink.warn(
                    DiagCode::OutOfOrder,
                    format!(
                        "message {id} is an activity: a text message cannot reuse its id (ignored)"
                    ),
                    "$.messageId",
                );
                return;
            }
            // A run's message reopened by a later run of the thread (the scenario server's
            // root answer: one message id across the runs that resume each other): the earlier
            // run has ended, so the text goes to the run that streams it.
            Some(m) if m.owner.is_none() && cx.owner.is_none() && m.task != cx.task => {
                cx.task.to_owned()
            }
            Some(m) => m.task.clone(),
            None => cx.task.to_owned(),
        };
        self.track_message(id, &task, role, true, cx.owner);
        if role == MessageRole::Reasoning {
            self.reasoning.insert(id, String::new());
        }
        let mut e = Obj::event("message-start", cx.thread, &task);
        e.str("messageId", id)
            .str("role", role.as_str())
            .opt_str("name", name)
            .str("timestamp", cx.ts);
        sink.event(e.finish());
    }

    /// Ends message `id`: `message-end`, and a reasoning message's thought.
    pub(super) fn end_message(&mut self, cx: &Cx<'_>, id: &str, task: &str, sink: &mut Sink<'_>) {
        if self.surrogates.take(id) {
            let mut e = Obj::event("message-delta", cx.thread, task);
            e.str("messageId", id)
                .str("delta", "\u{FFFD}")
                .str("timestamp", cx.ts);
            sink.event(e.finish());
        }
        if let Some(m) = self.messages.get_mut(id) {
            m.open = false;
        }
        let mut e = Obj::event("message-end", cx.thread, task);
        e.str("messageId", id).str("timestamp", cx.ts);
        sink.event(e.finish());
        if let Some(text) = self.reasoning.remove(id) {
            let mut t = Obj::event("thought-stream", cx.thread, task);
            t.str("thoughtId", id)
                .str("thoughtType", "reasoning")
                .str("verbosity", "normal")
                .str("content", &text)
                .num("index", self.thoughts as f64)
                .str("timestamp", cx.ts);
            self.thoughts += 1;
            sink.event(t.finish());
        }
    }

    /// The open message `id` of the given kind (text or reasoning), or `None` with the
    /// official verifier's error.
    fn open_of(
        &self,
        id: &str,
        reasoning: bool,
        cx: &Cx<'_>,
        sink: &mut Sink<'_>,
    ) -> Option<String> {
        match self.messages.get(id) {
            Some(m) if m.open && (m.role == MessageRole::Reasoning) == reasoning => {
                if m.owner.as_deref() != cx.owner {
                    sink.error(DiagCode::OutOfOrder, format!("Cannot send '{}': subagentRunId '{}' does not match the message '{id}' opener's subagent '{}'. (not applied)", cx.ty, cx.owner.unwrap_or_default(), m.owner.as_deref().unwrap_or_default()), "$.subagentRunId");
                    return None;
                }
                Some(m.task.clone())
            }
            _ => {
                let msg = if reasoning {
                    format!("Cannot send '{}' event: No active reasoning message found with ID '{id}'. Start a reasoning message with 'REASONING_MESSAGE_START' first. (not applied)", cx.ty)
                } else if cx.ty.ends_with("_END") {
                    format!("Cannot send '{}' event: No active text message found with ID '{id}'. A 'TEXT_MESSAGE_START' event must be sent first. (not applied)", cx.ty)
                } else {
                    format!("Cannot send '{}' event: No active text message found with ID '{id}'. Start a text message with 'TEXT_MESSAGE_START' first. (not applied)", cx.ty)
                };
                sink.error(DiagCode::MessageNotStarted, msg, "$.messageId");
                None
            }
        }
    }

    pub(super) fn text_start(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let id = get_str(Some(v), "messageId").unwrap_or_default();
        if self.messages.get(id).is_some_and(|m| m.open) {
            sink.error(DiagCode::OutOfOrder, format!("Cannot send 'TEXT_MESSAGE_START' event: A text message with ID '{id}' is already in progress. Complete it with 'TEXT_MESSAGE_END' first. (not applied)"), "$.messageId");
            return;
        }
        let role = get_str(Some(v), "role")
            .and_then(MessageRole::parse)
            .unwrap_or(MessageRole::Assistant);
        self.open_message(cx, id, role, get_str(Some(v), "name"), sink);
    }

    pub(super) fn text_content(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let id = get_str(Some(v), "messageId").unwrap_or_default();
        let Some(task) = self.open_of(id, false, cx, sink) else {
            return;
        };
        self.delta_event(
            cx,
            &task,
            id,
            get_str(Some(v), "delta").unwrap_or_default(),
            sink,
        );
    }

    pub(super) fn text_end(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let id = get_str(Some(v), "messageId").unwrap_or_default();
        let Some(task) = self.open_of(id, false, cx, sink) else {
            return;
        };
        self.end_message(cx, id, &task, sink);
    }

    pub(super) fn reasoning_start(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let id = get_str(Some(v), "messageId").unwrap_or_default();
        if self.messages.get(id).is_some_and(|m| m.open) {
            sink.error(DiagCode::OutOfOrder, format!("Cannot send 'REASONING_MESSAGE_START' event: A reasoning message with ID '{id}' is already in progress. Complete it with 'REASONING_MESSAGE_END' first. (not applied)"), "$.messageId");
            return;
        }
        self.open_message(cx, id, MessageRole::Reasoning, None, sink);
    }

    pub(super) fn reasoning_content(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let id = get_str(Some(v), "messageId").unwrap_or_default();
        let Some(task) = self.open_of(id, true, cx, sink) else {
            return;
        };
        self.delta_event(
            cx,
            &task,
            id,
            get_str(Some(v), "delta").unwrap_or_default(),
            sink,
        );
    }

    pub(super) fn reasoning_end(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let id = get_str(Some(v), "messageId").unwrap_or_default();
        let Some(task) = self.open_of(id, true, cx, sink) else {
            return;
        };
        self.end_message(cx, id, &task, sink);
    }

    /// `REASONING_START` / `REASONING_END`: spans that only notify (delivered whole).
    pub(super) fn reasoning_span(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let id = get_str(Some(v), "messageId").unwrap_or_default();
        if cx.t == Ty::ReasoningStart {
            if self.spans.contains(id) {
                sink.error(DiagCode::OutOfOrder, format!("Cannot send 'REASONING_START' event: A reasoning span with ID '{id}' is already in progress. (not applied)"), "$.messageId");
                return;
            }
            self.spans.insert(id, cx.owner.map(str::to_owned));
        } else if self.spans.remove(id).is_none() {
            sink.error(DiagCode::OutOfOrder, format!("Cannot send 'REASONING_END' event: No active reasoning span found with ID '{id}'. A 'REASONING_START' event must be sent first. (not applied)"), "$.messageId");
            return;
        }
        self.pass_through(cx, v, sink);
    }

    pub(super) fn encrypted_value(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let subtype = get_str(Some(v), "subtype").unwrap_or("message");
        let id = get_str(Some(v), "entityId").unwrap_or_default();
        let task = if subtype == "tool-call" {
            self.tools.get(id).map(|t| t.task.clone())
        } else {
            self.messages.get(id).map(|m| m.task.clone())
        };
        let task = task.unwrap_or_else(|| cx.task.to_owned());
        let mut e = Obj::event("encrypted-value", cx.thread, &task);
        e.str("subtype", subtype)
            .str("entityId", id)
            .str(
                "encryptedValue",
                get_str(Some(v), "encryptedValue").unwrap_or_default(),
            )
            .str("timestamp", cx.ts);
        sink.event(e.finish());
    }

    /// Closes the chunk lane(s) this event ends (WIRE.md §5: any other event closes its
    /// owner's lane; run boundaries and snapshots close all; a few kinds close none).
    pub(super) fn close_lane_for(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
        match cx.t {
            Ty::TextMessageChunk
            | Ty::ToolCallChunk
            | Ty::ReasoningMessageChunk
            | Ty::Raw
            | Ty::ActivitySnapshot
            | Ty::ActivityDelta
            | Ty::ReasoningEncryptedValue
            | Ty::SubagentStarted => {}
            Ty::RunFinished | Ty::RunError | Ty::MessagesSnapshot => {
                let owners: Vec<String> = self.lanes.iter().map(|(k, _)| k.to_owned()).collect();
                for o in owners {
                    self.close_lane(cx, &o, sink);
                }
            }
            _ => self.close_lane(cx, cx.owner.unwrap_or_default(), sink),
        }
    }

    pub(super) fn close_lane(&mut self, cx: &Cx<'_>, owner: &str, sink: &mut Sink<'_>) {
        let Some((kind, id)) = self.lanes.remove(owner) else {
            return;
        };
        match kind {
            LaneKind::Text | LaneKind::Reasoning => {
                if let Some(task) = self
                    .messages
                    .get(&id)
                    .filter(|m| m.open)
                    .map(|m| m.task.clone())
                {
                    self.end_message(cx, &id, &task, sink);
                }
            }
            LaneKind::Tool => {
                if let Some(task) = self
                    .tools
                    .get(&id)
                    .filter(|t| t.open)
                    .map(|t| t.task.clone())
                {
                    self.end_tool_args(cx, &id, &task, sink);
                }
            }
        }
    }

    /// The id a chunk continues (`Some`), after closing a lane of another kind or id; `None`
    /// when the chunk opens a new lane with `id`.
    pub(super) fn lane_continues(
        &mut self,
        cx: &Cx<'_>,
        kind: LaneKind,
        id: Option<&str>,
        sink: &mut Sink<'_>,
    ) -> Option<String> {
        let owner = cx.owner.unwrap_or_default();
        if let Some((k, open)) = self.lanes.get(owner) {
            if *k == kind && id.is_none_or(|i| i == open) {
                return Some(open.clone());
            }
        }
        self.close_lane(cx, owner, sink);
        None
    }

    pub(super) fn text_chunk(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        self.message_chunk(cx, v, LaneKind::Text, sink);
    }

    pub(super) fn reasoning_chunk(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        self.message_chunk(cx, v, LaneKind::Reasoning, sink);
    }

    fn message_chunk(&mut self, cx: &Cx<'_>, v: &Value<'_>, kind: LaneKind, sink: &mut Sink<'_>) {
        let given = get_str(Some(v), "messageId");
        let id = match self.lane_continues(cx, kind, given, sink) {
            Some(id) => id,
            None => {
                let Some(id) = given else {
                    sink.error(
                        DiagCode::MissingField,
                        format!("First {} must have a messageId (not applied)", cx.ty),
                        "$.messageId",
                    );
                    return;
                };
                let role = if kind == LaneKind::Reasoning {
                    MessageRole::Reasoning
                } else {
                    get_str(Some(v), "role")
                        .and_then(MessageRole::parse)
                        .unwrap_or(MessageRole::Assistant)
                };
                self.open_message(cx, id, role, get_str(Some(v), "name"), sink);
                self.lanes
                    .insert(cx.owner.unwrap_or_default(), (kind, id.to_owned()));
                id.to_owned()
            }
        };
        if let Some(delta) = get_str(Some(v), "delta") {
            let task = self
                .messages
                .get(&id)
                .map_or_else(|| cx.task.to_owned(), |m| m.task.clone());
            self.delta_event(cx, &task, &id, delta, sink);
        }
    }

    pub(super) fn messages_snapshot(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let list = v
            .get("messages")
            .and_then(Value::as_array)
            .unwrap_or_default();
        let mut here = Vec::with_capacity(list.len());
        for m in list {
            let id = get_str(Some(m), "id");
            let role = get_str(Some(m), "role").and_then(MessageRole::parse);
            let elsewhere = id
                .and_then(|i| self.messages.get(i))
                .map(|t| t.task.clone())
                .filter(|t| t != cx.run);
            match (elsewhere, id, role) {
                (Some(task), _, _) => {
                    let mut e = Obj::event("message-upsert", cx.thread, &task);
                    e.value("message", m).str("timestamp", cx.ts);
                    sink.event(e.finish());
                }
                (None, Some(id), Some(role)) => {
                    self.track_message(id, cx.run, role, false, None);
                    here.push(m.clone());
                }
                _ => here.push(m.clone()),
            }
        }
        let mut e = Obj::event("messages-snapshot", cx.thread, cx.run);
        e.value("messages", &Value::Array(here))
            .str("timestamp", cx.ts);
        sink.event(e.finish());
    }

    pub(super) fn activity(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let id = get_str(Some(v), "messageId").unwrap_or_default();
        if cx.t == Ty::ActivityDelta {
            let task = self
                .messages
                .get(id)
                .map_or_else(|| cx.task.to_owned(), |m| m.task.clone());
            let mut e = Obj::event("message-patch", cx.thread, &task);
            e.str("messageId", id)
                .value("patch", v.get("patch").unwrap_or(&Value::Null))
                .str("timestamp", cx.ts);
            sink.event(e.finish());
            return;
        }
        let task = match self.messages.get(id) {
            Some(m) if m.role != MessageRole::Activity => {
                sink.warn(
                    DiagCode::OutOfOrder,
                    format!(
                        "ACTIVITY_SNAPSHOT for message {id}, which is not an activity: ignored"
                    ),
                    "$.messageId",
                );
                return;
            }
            Some(m) => m.task.clone(),
            None => cx.task.to_owned(),
        };
        self.track_message(id, &task, MessageRole::Activity, false, cx.owner);
        let mut m = Obj::new();
        m.str("id", id)
            .str("role", "activity")
            .opt_str("activityType", get_str(Some(v), "activityType"));
        m.value("content", v.get("content").unwrap_or(&Value::Null));
        let mut e = Obj::event("message-upsert", cx.thread, &task);
        e.obj("message", m);
        if let Some(r) = v.get("replace").and_then(Value::as_bool) {
            e.bool("replace", r);
        }
        e.str("timestamp", cx.ts);
        sink.event(e.finish());
    }

    pub(super) fn decode_legacy(
        &mut self,
        as_type: Ty,
        v: &Value<'_>,
        ts: &str,
        sink: &mut Sink<'_>,
    ) {
        sink.warn(
            DiagCode::InvalidEnum,
            format!(
                "{} is a pre-1.0 event: read as {}",
                sink.kind.clone().unwrap_or_default(),
                as_type.name()
            ),
            "$.type",
        );
        if self.phase != super::Phase::Active {
            sink.error(
                DiagCode::OutOfOrder,
                "a thinking event outside an active run (not applied)".to_owned(),
                "$.type",
            );
            return;
        }
        let (Some(thread), Some(run)) = (self.thread.clone(), self.run.clone()) else {
            return;
        };
        let cx = Cx {
            thread: &thread,
            run: &run,
            task: &run,
            owner: None,
            t: as_type,
            ty: as_type.name(),
            ts,
            raw: sink.raw,
        };
        match as_type {
            Ty::ReasoningMessageStart => {
                self.legacy_count += 1;
                let id = format!("thinking-{}", self.legacy_count);
                self.open_message(&cx, &id, MessageRole::Reasoning, None, sink);
                self.legacy = Some(id);
            }
            Ty::ReasoningMessageContent => {
                if let Some(id) = self.legacy.clone() {
                    self.delta_event(
                        &cx,
                        &run,
                        &id,
                        get_str(Some(v), "delta").unwrap_or_default(),
                        sink,
                    );
                }
            }
            Ty::ReasoningMessageEnd => {
                if let Some(id) = self.legacy.take() {
                    self.end_message(&cx, &id, &run, sink);
                }
            }
            _ => self.pass_through(&cx, v, sink),
        }
    }
}
