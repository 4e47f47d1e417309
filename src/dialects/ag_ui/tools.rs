//! Tool calls: start (in the assistant message the official client would put it in),
//! streamed arguments, end, the `TOOL_CALL_CHUNK` shorthand, and results.

use super::super::emit::{get_str, Obj, Sink};
use super::{ag_meta, AgUiDecoder, Cx, LaneKind, ToolTrack, Ty};
use crate::events::{DiagCode, MessageRole};
use crate::json::{self, Value};

impl AgUiDecoder {
    /// The assistant message a new call goes in (WIRE.md §5, `resolveOrCreateAssistantMessage`):
    /// `parentMessageId` when it names an assistant message; a new assistant message with that
    /// id when it names nothing; else a new assistant message with the call's id.
    fn call_message(
        &mut self,
        cx: &Cx<'_>,
        call: &str,
        parent: Option<&str>,
        sink: &mut Sink<'_>,
    ) -> (String, String) {
        if let Some(p) = parent {
            match self.messages.get(p) {
                Some(m) if m.role == MessageRole::Assistant => {
                    return (p.to_owned(), m.task.clone())
                }
                Some(_) => {}
                None => return (p.to_owned(), self.new_call_message(cx, p, sink)),
            }
        }
        if let Some(m) = self
            .messages
            .get(call)
            .filter(|m| m.role == MessageRole::Assistant)
        {
            return (call.to_owned(), m.task.clone());
        }
        (call.to_owned(), self.new_call_message(cx, call, sink))
    }

    fn new_call_message(&mut self, cx: &Cx<'_>, id: &str, sink: &mut Sink<'_>) -> String {
        self.track_message(id, cx.task, MessageRole::Assistant, false, cx.owner);
        let mut s = Obj::event("message-start", cx.thread, cx.task);
        s.str("messageId", id)
            .str("role", "assistant")
            .str("timestamp", cx.ts);
        let mut e = Obj::event("message-end", cx.thread, cx.task);
        e.str("messageId", id).str("timestamp", cx.ts);
        sink.event(s.finish());
        sink.event(e.finish());
        cx.task.to_owned()
    }

    fn start_call(
        &mut self,
        cx: &Cx<'_>,
        id: &str,
        name: &str,
        parent: Option<&str>,
        v: &Value<'_>,
        sink: &mut Sink<'_>,
    ) {
        let (message, task) = self.call_message(cx, id, parent, sink);
        self.tools.insert(
            id,
            ToolTrack {
                task: task.clone(),
                name: name.to_owned(),
                open: true,
                answered: false,
                run: cx.run.to_owned(),
                owner: cx.owner.map(str::to_owned),
            },
        );
        let mut e = Obj::event("tool-start", cx.thread, &task);
        e.str("toolCallId", id)
            .str("toolName", name)
            .raw("arguments", "{}")
            .str("timestamp", cx.ts);
        let mut m = ag_meta(v, &["parentMessageId"]);
        m.str("messageId", &message);
        e.obj("metadata", m);
        sink.event(e.finish());
    }

    pub(super) fn tool_start(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let id = get_str(Some(v), "toolCallId").unwrap_or_default();
        if self.tools.get(id).is_some_and(|t| t.open) {
            sink.error(DiagCode::OutOfOrder, format!("Cannot send 'TOOL_CALL_START' event: A tool call with ID '{id}' is already in progress. Complete it with 'TOOL_CALL_END' first. (not applied)"), "$.toolCallId");
            return;
        }
        if self.tools.contains(id) {
            sink.warn(
                DiagCode::ToolAlreadyFinished,
                format!("tool call {id} started again: its name is updated, nothing else"),
                "$.toolCallId",
            );
            return;
        }
        let name = get_str(Some(v), "toolCallName").unwrap_or_default();
        self.start_call(cx, id, name, get_str(Some(v), "parentMessageId"), v, sink);
    }

    /// The task of the open tool call `id`, or `None` with the official verifier's error.
    fn open_call(&self, id: &str, cx: &Cx<'_>, sink: &mut Sink<'_>) -> Option<String> {
        match self.tools.get(id) {
            Some(t) if t.open => Some(t.task.clone()),
            _ => {
                let msg = if cx.t == Ty::ToolCallEnd {
                    format!("Cannot send 'TOOL_CALL_END' event: No active tool call found with ID '{id}'. A 'TOOL_CALL_START' event must be sent first. (not applied)")
                } else {
                    format!("Cannot send '{}' event: No active tool call found with ID '{id}'. Start a tool call with 'TOOL_CALL_START' first. (not applied)", cx.ty)
                };
                sink.error(DiagCode::ToolNotStarted, msg, "$.toolCallId");
                None
            }
        }
    }

    fn args_delta(&mut self, cx: &Cx<'_>, task: &str, id: &str, delta: &str, sink: &mut Sink<'_>) {
        let delta = self.join_delta(id, delta, cx.raw);
        let mut e = Obj::event("tool-args-delta", cx.thread, task);
        e.str("toolCallId", id)
            .str("delta", &delta)
            .str("timestamp", cx.ts);
        sink.event(e.finish());
    }

    pub(super) fn tool_args(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let id = get_str(Some(v), "toolCallId").unwrap_or_default();
        let Some(task) = self.open_call(id, cx, sink) else {
            return;
        };
        self.args_delta(
            cx,
            &task,
            id,
            get_str(Some(v), "delta").unwrap_or_default(),
            sink,
        );
    }

    pub(super) fn tool_end(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let id = get_str(Some(v), "toolCallId").unwrap_or_default();
        let Some(task) = self.open_call(id, cx, sink) else {
            return;
        };
        self.end_tool_args(cx, id, &task, sink);
    }

    pub(super) fn end_tool_args(&mut self, cx: &Cx<'_>, id: &str, task: &str, sink: &mut Sink<'_>) {
        if self.surrogates.take(id) {
            let mut e = Obj::event("tool-args-delta", cx.thread, task);
            e.str("toolCallId", id)
                .str("delta", "\u{FFFD}")
                .str("timestamp", cx.ts);
            sink.event(e.finish());
        }
        if let Some(t) = self.tools.get_mut(id) {
            t.open = false;
        }
        let mut e = Obj::event("tool-args-end", cx.thread, task);
        e.str("toolCallId", id).str("timestamp", cx.ts);
        sink.event(e.finish());
    }

    pub(super) fn tool_chunk(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let given = get_str(Some(v), "toolCallId");
        let id = match self.lane_continues(cx, LaneKind::Tool, given, sink) {
            Some(id) => id,
            None => {
                let (Some(id), Some(name)) = (given, get_str(Some(v), "toolCallName")) else {
                    let what = if given.is_none() {
                        "toolCallId"
                    } else {
                        "toolCallName"
                    };
                    sink.error(
                        DiagCode::MissingField,
                        format!("First TOOL_CALL_CHUNK must have a {what} (not applied)"),
                        &format!("$.{what}"),
                    );
                    return;
                };
                self.start_call(cx, id, name, get_str(Some(v), "parentMessageId"), v, sink);
                self.lanes.insert(
                    cx.owner.unwrap_or_default(),
                    (LaneKind::Tool, id.to_owned()),
                );
                id.to_owned()
            }
        };
        if let Some(delta) = get_str(Some(v), "delta") {
            let task = self
                .tools
                .get(&id)
                .map_or_else(|| cx.task.to_owned(), |t| t.task.clone());
            self.args_delta(cx, &task, &id, delta, sink);
        }
    }

    pub(super) fn tool_result(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let call = get_str(Some(v), "toolCallId").unwrap_or_default();
        let message_id = get_str(Some(v), "messageId").unwrap_or_default();
        let content = v.get("content").unwrap_or(&Value::Null);
        let track = self
            .tools
            .get(call)
            .map(|t| (t.task.clone(), t.name.clone(), t.open, t.answered));
        let task = track
            .as_ref()
            .map_or_else(|| cx.task.to_owned(), |t| t.0.clone());
        if let Some((_, name, open, answered)) = track {
            if open {
                self.end_tool_args(cx, call, &task, sink);
            }
            if !answered {
                let mut e = Obj::event("tool-complete", cx.thread, &task);
                e.str("toolCallId", call)
                    .str("toolName", &name)
                    .bool("success", true);
                // A result that is JSON text reads as that JSON; any other content as given.
                match content.as_str().map(json::parse) {
                    Some(Ok(parsed)) if matches!(parsed, Value::Object(_) | Value::Array(_)) => {
                        e.value("result", &parsed)
                    }
                    _ => e.value("result", content),
                };
                e.str("timestamp", cx.ts);
                sink.event(e.finish());
            }
            if let Some(t) = self.tools.get_mut(call) {
                t.answered = true;
            }
        }
        // A result for a call of an earlier run (the run that resumes an interrupt) is a
        // message of this run: the thread's messages stay in the official order.
        let task = if self.tools.get(call).is_some_and(|t| t.run != cx.run) {
            cx.task.to_owned()
        } else {
            task
        };
        self.track_message(message_id, &task, MessageRole::Tool, false, cx.owner);
        let mut m = Obj::new();
        m.str("id", message_id)
            .str("role", "tool")
            .str("toolCallId", call)
            .value("content", content);
        let mut e = Obj::event("message-upsert", cx.thread, &task);
        e.obj("message", m).str("timestamp", cx.ts);
        sink.event(e.finish());
    }
}
