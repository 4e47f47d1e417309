//! The direct paths of the compact AG-UI events (see [`super::fast`]): which reader may take
//! an event, and the builders of the events that become several canonical events
//! (`REASONING_MESSAGE_END`, `TOOL_CALL_START`, `TOOL_CALL_RESULT`, `SUBAGENT_STARTED`). Each
//! gives, in order, exactly the events the general path gives when it gives no diagnostic, the
//! decoder's state moved on the same way; otherwise nothing changes and the caller takes the
//! general path.

use super::super::emit::Clock;
use super::{fast, AgUiDecoder, ToolTrack, Ty};
use crate::events::field::JsonObject;
use crate::events::{AgentEvent as A, MessageRole};
use crate::json::{self, Value};
use std::borrow::Cow::{Borrowed, Owned};

/// What receives each canonical event a direct path gives, in order.
pub(crate) type Emit<'e> = dyn FnMut(&A<'_>) + 'e;

/// Hands `ev` over, if any.
fn one(ev: Option<A<'_>>, emit: &mut Emit<'_>) -> bool {
    ev.map(|ev| emit(&ev)).is_some()
}

impl AgUiDecoder {
    /// Gives `emit` the canonical events of a compact event one of the direct readers takes,
    /// when the general path would give exactly those with no diagnostic; `false` (nothing
    /// changed) otherwise. `iso` holds their timestamp.
    pub(crate) fn direct(
        &mut self,
        data: &str,
        clock: &mut Clock,
        iso: &mut [u8; 24],
        emit: &mut Emit<'_>,
    ) -> bool {
        // One look at the type's first letter picks the readers that may take it.
        match data.as_bytes().get(fast::TYPE_AT) {
            Some(b'T' | b'R') => {
                if let Some(e) = fast::text_content(data) {
                    return one(self.text_content_direct(e, clock, iso), emit);
                }
                match fast::simple(data) {
                    Some(e) if e.ty == Ty::ReasoningMessageEnd => {
                        self.reasoning_end_direct(e, clock, iso, emit)
                    }
                    Some(e) if e.ty == Ty::ToolCallStart => {
                        self.tool_start_direct(e, clock, iso, emit)
                    }
                    Some(e) => one(self.simple_direct(e, clock, iso), emit),
                    None => fast::tool_result(data)
                        .is_some_and(|e| self.tool_result_direct(e, clock, iso, emit)),
                }
            }
            Some(b'S') if data.as_bytes().get(fast::TYPE_AT + 1) == Some(&b'U') => {
                fast::subagent_started(data)
                    .is_some_and(|e| self.subagent_started_direct(e, clock, iso, emit))
            }
            Some(b'S') => fast::state_delta(data)
                .is_some_and(|e| one(self.state_delta_fast(e, clock, iso), emit)),
            Some(b'A') => fast::activity_snapshot(data)
                .is_some_and(|e| one(self.activity_snapshot_fast(e, clock, iso), emit)),
            Some(b'C') => {
                fast::custom(data).is_some_and(|e| one(self.custom_direct(e, clock, iso), emit))
            }
            _ => false,
        }
    }

    /// `REASONING_MESSAGE_END` (as `reasoning_end`): `message-end`, then the thought of its
    /// text. Taken for an open reasoning message of the same owner with no pending surrogate
    /// half (that would be a `message-delta` first).
    fn reasoning_end_direct(
        &mut self,
        e: fast::Simple<'_>,
        clock: &mut Clock,
        iso: &mut [u8; 24],
        emit: &mut Emit<'_>,
    ) -> bool {
        if !self.direct_allowed(e.owner) || self.thread.is_none() || self.run.is_none() {
            return false;
        }
        match self.messages.get(e.id) {
            Some(m)
                if m.open
                    && m.role == MessageRole::Reasoning
                    && super::same_owner(m.owner.as_deref(), e.owner)
                    && !self.surrogates.pending(e.id) => {}
            _ => return false,
        }
        let (ts, valid) = clock.stamp_ms_checked(e.timestamp_ms as i64, iso);
        if !valid {
            return false; // (nothing changed: the clock keeps only valid timestamps)
        }
        if let Some(m) = self.messages.get_mut(e.id) {
            m.open = false;
        }
        let text = self.reasoning.remove(e.id);
        let index = self.thoughts;
        if text.is_some() {
            self.thoughts += 1;
        }
        let thread = Borrowed(self.thread.as_deref().unwrap_or_default());
        let task = Borrowed(self.messages.get(e.id).map_or("", |m| m.task.as_str()));
        let id = Borrowed(e.id);
        emit(&A::MessageEnd(crate::events::MessageEnd {
            context_id: thread.clone(),
            task_id: task.clone(),
            message_id: id.clone(),
            part_id: None,
            part_members: None,
            timestamp: Borrowed(ts),
            metadata: None,
            extra: Vec::new(),
        }));
        if let Some(text) = text {
            emit(&A::ThoughtStream(crate::events::ThoughtStream {
                context_id: thread,
                task_id: task,
                thought_id: id,
                thought_type: crate::events::ThoughtType::Reasoning,
                verbosity: crate::events::Verbosity::Normal,
                content: Owned(text),
                index,
                timestamp: Borrowed(ts),
                metadata: None,
                extra: Vec::new(),
            }));
        }
        self.bound();
        true
    }

    /// `TOOL_CALL_START` without `parentMessageId` (as `tool_start`): the assistant message
    /// holding the call when the call's id names none (`message-start`, `message-end`), then
    /// `tool-start`. Taken for a call id not seen yet (else a diagnostic).
    fn tool_start_direct(
        &mut self,
        e: fast::Simple<'_>,
        clock: &mut Clock,
        iso: &mut [u8; 24],
        emit: &mut Emit<'_>,
    ) -> bool {
        if !self.direct_allowed(e.owner) || self.thread.is_none() || self.tools.contains(e.id) {
            return false;
        }
        let (Some(run), Some(name)) = (self.run.clone(), e.second) else {
            return false;
        };
        // (As `call_message`: an assistant message with the call's id holds it, else a new one
        // in the event's task.)
        let held = self
            .messages
            .get(e.id)
            .filter(|m| m.role == MessageRole::Assistant)
            .map(|m| m.task.clone());
        let (ts, valid) = clock.stamp_ms_checked(e.timestamp_ms as i64, iso);
        if !valid {
            return false; // (nothing changed: the clock keeps only valid timestamps)
        }
        let new_message = held.is_none();
        let task = held.unwrap_or_else(|| e.owner.unwrap_or(&run).to_owned());
        if new_message {
            self.track_message(e.id, &task, MessageRole::Assistant, false, e.owner);
        }
        self.tools.insert(
            e.id,
            ToolTrack {
                task: task.clone(),
                name: name.as_ref().to_owned(),
                open: true,
                answered: false,
                run,
                owner: e.owner.map(str::to_owned),
            },
        );
        let thread = Borrowed(self.thread.as_deref().unwrap_or_default());
        let (id, timestamp) = (Borrowed(e.id), Borrowed(ts));
        if new_message {
            emit(&A::MessageStart(crate::events::MessageStart {
                context_id: thread.clone(),
                task_id: Borrowed(&task),
                message_id: id.clone(),
                role: MessageRole::Assistant,
                name: None,
                timestamp: timestamp.clone(),
                metadata: None,
                extra: Vec::new(),
            }));
            emit(&A::MessageEnd(crate::events::MessageEnd {
                context_id: thread.clone(),
                task_id: Borrowed(&task),
                message_id: id.clone(),
                part_id: None,
                part_members: None,
                timestamp: timestamp.clone(),
                metadata: None,
                extra: Vec::new(),
            }));
        }
        let metadata = Value::Object(vec![(Borrowed("messageId"), Value::String(id.clone()))]);
        emit(&A::ToolStart(crate::events::ToolStart {
            context_id: thread,
            task_id: Borrowed(&task),
            tool_call_id: id,
            tool_name: name,
            arguments: JsonObject(Value::Object(Vec::new())),
            timestamp,
            metadata: Some(JsonObject(metadata)),
            extra: Vec::new(),
        }));
        self.bound();
        true
    }

    /// `TOOL_CALL_RESULT` (as `tool_result`): `tool-complete` (the content read as JSON when it
    /// is an object or array), then the tool message (`message-upsert`). Taken for a call whose
    /// arguments ended and that has no result yet (else other events or none), with content
    /// that is JSON text and, when an object or array, comes out of the canonical text as it
    /// is (see `fast::written_as_is`). (Content that is not JSON, plain text, is left to the
    /// general path: rare in the bench workload, and not worth its code here.)
    fn tool_result_direct(
        &mut self,
        e: fast::ToolResult<'_>,
        clock: &mut Clock,
        iso: &mut [u8; 24],
        emit: &mut Emit<'_>,
    ) -> bool {
        if !self.direct_allowed(e.owner) || self.thread.is_none() {
            return false;
        }
        let Some(run) = self.run.as_deref() else {
            return false;
        };
        let (task, name, same_run) = match self.tools.get(e.call) {
            Some(t) if !t.open && !t.answered => (t.task.clone(), t.name.clone(), t.run == run),
            _ => return false,
        };
        // (A result for a call of an earlier run is a message of this run.)
        let message_task = if same_run {
            task.clone()
        } else {
            e.owner.unwrap_or(run).to_owned()
        };
        // The result sits one level deep in `tool-complete`: parsed with one level less, it
        // parses here exactly when the general path's `tool-complete` parses (content too
        // deep for that, or not JSON at all, is the general path's).
        let parsed = match json::parse_with_depth(&e.content, json::MAX_DEPTH - 1) {
            Ok(v @ (Value::Object(_) | Value::Array(_))) if fast::written_as_is(&v) => Some(v),
            Ok(Value::Object(_) | Value::Array(_)) | Err(_) => return false,
            Ok(_) => None,
        };
        let (ts, valid) = clock.stamp_ms_checked(e.timestamp_ms as i64, iso);
        if !valid {
            return false; // (nothing changed: the clock keeps only valid timestamps)
        }
        if let Some(t) = self.tools.get_mut(e.call) {
            t.answered = true;
        }
        self.track_message(
            e.message_id,
            &message_task,
            MessageRole::Tool,
            false,
            e.owner,
        );
        let thread = Borrowed(self.thread.as_deref().unwrap_or_default());
        let (call, timestamp) = (Borrowed(e.call), Borrowed(ts));
        let content = Value::String(Borrowed(&e.content));
        emit(&A::ToolComplete(crate::events::ToolComplete {
            context_id: thread.clone(),
            task_id: Owned(task),
            tool_call_id: call.clone(),
            tool_name: Owned(name),
            success: true,
            result: Some(parsed.unwrap_or_else(|| content.clone())),
            error: None,
            timestamp: timestamp.clone(),
            metadata: None,
            extra: Vec::new(),
        }));
        let s = |v: &'static str| Value::String(Borrowed(v));
        let message = Value::Object(vec![
            (Borrowed("id"), Value::String(Borrowed(e.message_id))),
            (Borrowed("role"), s("tool")),
            (Borrowed("toolCallId"), Value::String(call)),
            (Borrowed("content"), content),
        ]);
        emit(&A::MessagePut(crate::events::MessagePut {
            context_id: thread,
            task_id: Owned(message_task),
            message,
            replace: None,
            timestamp,
            metadata: None,
            extra: Vec::new(),
        }));
        self.bound();
        true
    }

    /// `SUBAGENT_STARTED` (as `subagent_started`): `subtask-created` under the parent (the run
    /// or the parent sub-agent), the sub-agent's `task-created` and `task-status` `working`.
    /// Taken for a sub-agent not seen in this run whose parent, when given, is known.
    fn subagent_started_direct(
        &mut self,
        e: fast::SubagentStarted<'_>,
        clock: &mut Clock,
        iso: &mut [u8; 24],
        emit: &mut Emit<'_>,
    ) -> bool {
        if !self.direct_allowed(None)
            || self.thread.is_none()
            || self.subagents.contains(e.id)
            || e.parent.is_some_and(|p| !self.subagents.contains(p))
        {
            return false;
        }
        let Some(run) = self.run.as_deref() else {
            return false;
        };
        let (ts, valid) = clock.stamp_ms_checked(e.timestamp_ms as i64, iso);
        if !valid {
            return false; // (nothing changed: the clock keeps only valid timestamps)
        }
        let parent = e.parent.unwrap_or(run).to_owned();
        self.subagents.insert(e.id, true);
        use crate::events::{Initiator, TaskStatus};
        let thread = Borrowed(self.thread.as_deref().unwrap_or_default());
        let (id, timestamp) = (Borrowed(e.id), Borrowed(ts));
        let name = Value::String(e.name.clone());
        // (`metadata.agUi.description` when given: not a member of `subtask-created`, kept as
        // its extra member.)
        let extra = match &e.description {
            Some(d) => {
                let d = Value::Object(vec![(Borrowed("description"), Value::String(d.clone()))]);
                let m = Value::Object(vec![(Borrowed("agUi"), d)]);
                vec![(Borrowed("metadata"), m)]
            }
            None => Vec::new(),
        };
        emit(&A::SubtaskCreated(crate::events::SubtaskCreated {
            context_id: thread.clone(),
            task_id: Borrowed(&parent),
            subtask_id: id.clone(),
            agent_id: Some(e.name.clone()),
            prompt: e.description.clone().unwrap_or_else(|| e.name.clone()),
            timestamp: timestamp.clone(),
            extra,
        }));
        let metadata = Value::Object(vec![(Borrowed("agentId"), name)]);
        emit(&A::TaskCreated(crate::events::TaskCreated {
            context_id: thread.clone(),
            task_id: id.clone(),
            parent_task_id: Some(Borrowed(&parent)),
            initiator: Initiator::Agent,
            timestamp: timestamp.clone(),
            metadata: Some(JsonObject(metadata)),
            extra: Vec::new(),
        }));
        emit(&A::TaskStatusEvent(crate::events::TaskStatusEvent {
            context_id: thread,
            task_id: id,
            status: TaskStatus::Working,
            message: None,
            timestamp,
            metadata: None,
            extra: Vec::new(),
        }));
        self.bound();
        true
    }
}

#[cfg(test)]
mod tests;
