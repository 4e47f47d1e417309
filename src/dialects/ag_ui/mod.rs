//! AG-UI 1.0 (`@ag-ui/core` 1.0.0): every event type decoded into canonical events, checked
//! against the official schemas and order rules (`tests/ag-ui/WIRE.md` lists each with its
//! source line). The official client fails the whole run on a rule break; here each becomes a
//! diagnostic, the offending event is not applied, and the stream goes on.
//!
//! | AG-UI | canonical |
//! |---|---|
//! | `RUN_STARTED` | `task-created` (`runId` the task, `threadId` the context, `parentRunId` the parent) + `task-status` `working`; `input.messages` not seen yet → `message-upsert` |
//! | `RUN_FINISHED` success / cancelled / interrupt | `task-complete` / `task-status` `canceled` / one `input-required` per interrupt + `task-status` `waiting-input` (completed when the next run of the thread starts) |
//! | `RUN_ERROR` | `task-status` `failed` (`reason` = `code`) |
//! | `TEXT_MESSAGE_START` / `_CONTENT` / `_END` / `_CHUNK` | `message-start` / `message-delta` / `message-end` (assistant text is also `task.content`) |
//! | `REASONING_MESSAGE_*` | the same with role `reasoning`, plus a `thought-stream` (`thoughtId` = message id) at its end |
//! | `REASONING_START` / `_END`, `STEP_*`, `RAW`, `CUSTOM` | delivered as events `ag-ui:reasoning-start`, `ag-ui:step-started`, `ag-ui:raw`, `ag-ui:custom`, ... (kept whole) |
//! | `REASONING_ENCRYPTED_VALUE` | `encrypted-value` |
//! | `TOOL_CALL_START` / `_ARGS` / `_END` / `_CHUNK` | `tool-start` (`metadata.messageId`: the assistant message holding the call, created as the official client does) / `tool-args-delta` / `tool-args-end` |
//! | `TOOL_CALL_RESULT` | `tool-complete` + `message-upsert` (role `tool`, placed after the call's message) |
//! | `STATE_SNAPSHOT` / `STATE_DELTA` | `state-snapshot` / `state-delta` (JSON Patch, atomic) on the run's task |
//! | `MESSAGES_SNAPSHOT` | `messages-snapshot` (messages of earlier runs of the thread are updated where they are) |
//! | `ACTIVITY_SNAPSHOT` / `_DELTA` | `message-upsert` (role `activity`) / `message-patch` |
//! | `SUBAGENT_STARTED` / `_FINISHED` / `_ERROR` | `subtask-created` + `task-created` / `task-complete` (suspended: `waiting-input`) / `task-status` `failed`; events with `subagentRunId` go to that subtask |
//! | legacy `THINKING_*` | as `REASONING_*` (message ids `thinking-<n>`) |
//!
//! Deltas are concatenated as JavaScript does: a surrogate pair split across two events
//! (`"…\ud83d"`, `"\ude00…"`, what `JSON.stringify` writes for a split emoji) is joined again.

mod direct;
pub(crate) mod fast;
pub mod input;
mod run;
mod schema;
mod text;
mod tools;

use super::emit::{as_count, get_str, Clock, Obj, Sink};
use super::table::Table;
use crate::events::{DiagCode, MessageRole};
use crate::json::Value;
use schema::Ty;

/// Ids remembered per table before the oldest are forgotten.
const MAX_TRACKED: usize = 10_000;

/// Where the current run is.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// No run yet.
    #[default]
    Idle,
    /// Between `RUN_STARTED` and its end.
    Active,
    /// After `RUN_FINISHED`.
    Finished,
    /// After `RUN_ERROR`.
    Errored,
}

#[derive(Debug, Clone)]
struct MessageTrack {
    /// The canonical task holding it.
    task: String,
    role: MessageRole,
    /// Between its start and end.
    open: bool,
    /// The `subagentRunId` it was opened under.
    owner: Option<String>,
}

#[derive(Debug, Clone)]
struct ToolTrack {
    task: String,
    name: String,
    /// Arguments still streaming (between start and end).
    open: bool,
    /// A `TOOL_CALL_RESULT` arrived.
    answered: bool,
    run: String,
    owner: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LaneKind {
    Text,
    Tool,
    Reasoning,
}

/// An interrupt of the latest run that ended with one.
#[derive(Debug, Clone, PartialEq)]
pub struct Interrupt {
    /// The interrupt id (the input request's id).
    pub id: String,
    /// The run (task) it interrupted.
    pub run_id: String,
    /// The tool call it is about.
    pub tool_call_id: Option<String>,
    /// When it can no longer be answered (ISO 8601), as sent.
    pub expires_at: Option<String>,
}

/// AG-UI decoding state of one connection (a thread's runs, one after another).
#[derive(Debug, Default)]
pub struct AgUiDecoder {
    thread: Option<String>,
    run: Option<String>,
    phase: Phase,
    /// The runs that ended with interrupts and wait for the next run of the thread.
    interrupted: Vec<String>,
    interrupts: Vec<Interrupt>,
    messages: Table<MessageTrack>,
    /// Text of the open reasoning messages (their thought at the end).
    reasoning: Table<String>,
    spans: Table<Option<String>>,
    tools: Table<ToolTrack>,
    /// Open steps: (owner, name).
    steps: Vec<(Option<String>, String)>,
    /// Sub-agents: id → still running.
    subagents: Table<bool>,
    /// Open chunk lanes by owner (`""` for the run itself): (kind, id).
    lanes: Table<(LaneKind, String)>,
    /// A high surrogate that ended the last delta of an id, waiting for its low half.
    surrogates: super::surrogates::Surrogates,
    thoughts: u64,
    /// What the client sent for the next run (`RunAgentInput`): its messages and state are the
    /// run's starting point, as the official client's are.
    sent: Option<crate::json::OwnedValue>,
    legacy: Option<String>,
    legacy_count: u64,
}

/// What every handler needs about the event at hand.
pub(crate) struct Cx<'c> {
    /// The thread (context).
    pub thread: &'c str,
    /// The run (root task).
    pub run: &'c str,
    /// The task the event belongs to: the run, or the sub-agent's task.
    pub task: &'c str,
    /// The `subagentRunId`, when given.
    pub owner: Option<&'c str>,
    /// The AG-UI type (a legacy one: the type it is read as).
    pub t: Ty,
    /// Its name.
    pub ty: &'c str,
    pub ts: &'c str,
    /// The event's data as received (for the surrogate check).
    pub raw: &'c str,
}

impl Cx<'_> {
    /// A canonical event of the run itself.
    fn run_event(&self, kind: &str) -> Obj {
        Obj::event(kind, self.thread, self.run)
    }
}

/// Whether `ty` is an AG-UI 1.0 event type (or a legacy `THINKING_*` one).
pub(crate) fn is_event_type(ty: &str) -> bool {
    Ty::parse(ty).is_some()
}

impl AgUiDecoder {
    /// The thread (context id) of the stream, once a run started.
    pub fn thread_id(&self) -> Option<&str> {
        self.thread.as_deref()
    }

    /// The latest run id.
    pub fn run_id(&self) -> Option<&str> {
        self.run.as_deref()
    }

    /// `true` between `RUN_STARTED` and the run's end.
    pub fn run_active(&self) -> bool {
        self.phase == Phase::Active
    }

    /// The interrupts of the latest run that ended with some, not answered yet.
    pub fn pending_interrupts(&self) -> &[Interrupt] {
        &self.interrupts
    }

    /// Records the `RunAgentInput` the client sent: at the next `RUN_STARTED` its messages
    /// the thread has not seen join the run, and its `state` is the run's starting state.
    pub fn set_run_input(&mut self, input: &Value<'_>) {
        self.sent = Some(input.to_owned_value());
    }

    /// `true` when `id` is a pending interrupt: the client's resume run answered it (the
    /// input request closes locally, as the server never echoes answers).
    pub fn close_input(&mut self, id: &str) -> bool {
        self.interrupts.iter().any(|i| i.id == id)
    }

    /// Forgets the pending interrupts (the client sent the resume run).
    pub fn clear_interrupts(&mut self) {
        self.interrupts.clear();
    }

    /// The tool calls of the latest run without a result (AG-UI's `pendingToolCallIds`).
    pub fn pending_tool_calls(&self) -> Vec<String> {
        let run = self.run.as_deref().unwrap_or_default();
        self.tools
            .iter()
            .filter(|(_, t)| t.run == run && !t.answered && t.owner.is_none())
            .map(|(id, _)| id.to_owned())
            .collect()
    }

    pub(crate) fn decode(&mut self, v: &Value<'_>, clock: &mut Clock, sink: &mut Sink<'_>) {
        let Some(ty) = get_str(Some(v), "type") else {
            sink.require_error(Some(v), "type", "string", "$.type");
            return;
        };
        sink.kind = Some(ty.to_owned());
        let Some(t) = Ty::parse(ty) else {
            sink.warn(
                DiagCode::InvalidEnum,
                format!("unknown AG-UI event type {ty}: delivered as ag-ui:{ty}, not applied"),
                "$.type",
            );
            let (thread, run) = (self.thread.clone(), self.run.clone());
            sink.event(super::unknown_event(
                &format!("ag-ui:{ty}"),
                thread.as_deref(),
                run.as_deref(),
                v,
            ));
            return;
        };
        if !schema::check(t, v, sink) {
            return;
        }
        let mut iso = [0; 24];
        let stamped;
        let ts: &str = match as_count(v.get("timestamp")) {
            Some(ms) => clock.stamp_ms(ms as i64, &mut iso),
            None => {
                stamped = clock.stamp(None);
                &stamped
            }
        };
        if let Some(legacy) = t.legacy() {
            return self.decode_legacy(legacy, v, ts, sink);
        }
        if !self.check_run_order(t, v, sink) {
            return;
        }
        if t == Ty::RunStarted {
            return self.run_started(v, ts, sink);
        }
        let (Some(thread), Some(run)) = (self.thread.clone(), self.run.clone()) else {
            return;
        };
        let subagent_event = matches!(
            t,
            Ty::SubagentStarted | Ty::SubagentFinished | Ty::SubagentError
        );
        let owner = get_str(Some(v), "subagentRunId").filter(|_| !subagent_event);
        let task = match owner {
            Some(o) if self.subagents.contains(o) => o.to_owned(),
            Some(o) => {
                sink.warn(
                    DiagCode::OutOfOrder,
                    format!("subagentRunId {o} names no sub-agent started in this run: applied to the run"),
                    "$.subagentRunId",
                );
                run.clone()
            }
            None => run.clone(),
        };
        sink.task = Some(task.clone());
        let cx = Cx {
            thread: &thread,
            run: &run,
            task: &task,
            owner,
            t,
            ty,
            ts,
            raw: sink.raw,
        };
        self.close_lane_for(&cx, sink);
        match t {
            Ty::RunFinished => self.run_finished(&cx, v, sink),
            Ty::RunError => self.run_error(&cx, v, sink),
            Ty::StepStarted | Ty::StepFinished => self.step(&cx, v, sink),
            Ty::SubagentStarted => self.subagent_started(&cx, v, sink),
            Ty::SubagentFinished | Ty::SubagentError => self.subagent_ended(&cx, v, sink),
            Ty::TextMessageStart => self.text_start(&cx, v, sink),
            Ty::TextMessageContent => self.text_content(&cx, v, sink),
            Ty::TextMessageEnd => self.text_end(&cx, v, sink),
            Ty::TextMessageChunk => self.text_chunk(&cx, v, sink),
            Ty::ReasoningMessageStart => self.reasoning_start(&cx, v, sink),
            Ty::ReasoningMessageContent => self.reasoning_content(&cx, v, sink),
            Ty::ReasoningMessageEnd => self.reasoning_end(&cx, v, sink),
            Ty::ReasoningMessageChunk => self.reasoning_chunk(&cx, v, sink),
            Ty::ReasoningStart | Ty::ReasoningEnd => self.reasoning_span(&cx, v, sink),
            Ty::ReasoningEncryptedValue => self.encrypted_value(&cx, v, sink),
            Ty::ToolCallStart => self.tool_start(&cx, v, sink),
            Ty::ToolCallArgs => self.tool_args(&cx, v, sink),
            Ty::ToolCallEnd => self.tool_end(&cx, v, sink),
            Ty::ToolCallChunk => self.tool_chunk(&cx, v, sink),
            Ty::ToolCallResult => self.tool_result(&cx, v, sink),
            Ty::StateSnapshot => {
                let mut e = cx.run_event("state-snapshot");
                e.value("snapshot", v.get("snapshot").unwrap_or(&Value::Null));
                e.str("timestamp", cx.ts);
                sink.event(e.finish());
            }
            Ty::StateDelta => {
                let mut e = cx.run_event("state-delta");
                e.value("patch", v.get("delta").unwrap_or(&Value::Null));
                e.str("timestamp", cx.ts);
                sink.event(e.finish());
            }
            Ty::MessagesSnapshot => self.messages_snapshot(&cx, v, sink),
            Ty::ActivitySnapshot | Ty::ActivityDelta => self.activity(&cx, v, sink),
            Ty::RunStarted
            | Ty::Raw
            | Ty::Custom
            | Ty::ThinkingStart
            | Ty::ThinkingEnd
            | Ty::ThinkingTextMessageStart
            | Ty::ThinkingTextMessageContent
            | Ty::ThinkingTextMessageEnd => self.pass_through(&cx, v, sink),
        }
        self.bound();
    }

    /// A compact `TEXT_MESSAGE_CONTENT` or `REASONING_MESSAGE_CONTENT` (see
    /// [`fast::text_content`]) as the canonical `message-delta` the general path would give
    /// with no diagnostic (an active run, no open chunk lane, a known sub-agent, an open message
    /// of the same kind and owner, a valid timestamp), built directly, the decoder's state moved
    /// on as the general path moves it; `None` (nothing changed) otherwise.
    pub(crate) fn text_content_direct<'s>(
        &'s mut self,
        e: fast::TextContent<'s>,
        clock: &mut Clock,
        iso: &'s mut [u8; 24],
    ) -> Option<crate::events::AgentEvent<'s>> {
        if !self.direct_allowed(e.owner) {
            return None;
        }
        // (Fields borrowed apart: one lookup of the message serves the check and its task.)
        let AgUiDecoder {
            thread,
            run,
            messages,
            surrogates,
            reasoning,
            ..
        } = self;
        let (Some(thread), Some(_)) = (thread.as_deref(), run.as_deref()) else {
            return None;
        };
        let task = match messages.get(e.message_id) {
            Some(m)
                if m.open
                    && (m.role == MessageRole::Reasoning) == e.reasoning
                    && same_owner(m.owner.as_deref(), e.owner) =>
            {
                m.task.as_str()
            }
            _ => return None,
        };
        let (ts, valid) = clock.stamp_ms_checked(e.timestamp_ms as i64, iso);
        if !valid {
            return None; // (nothing changed: the clock keeps only valid timestamps)
        }
        // (As `joined_delta`. The fast reader takes no `\u` escape, so the event's text holds
        // no surrogate half: a pending high half of this message becomes U+FFFD, as
        // `Surrogates::join` makes it when no low half follows.)
        let mut delta = e.delta;
        if surrogates.take(e.message_id) {
            delta = std::borrow::Cow::Owned(format!("\u{FFFD}{delta}"));
        }
        // (No lookup while no reasoning message is open: the common case.)
        if reasoning.len() > 0 {
            if let Some(r) = reasoning.get_mut(e.message_id) {
                r.push_str(&delta);
            }
        }
        use std::borrow::Cow::Borrowed;
        Some(crate::events::AgentEvent::MessageDelta(
            crate::events::MessageDelta {
                context_id: Borrowed(thread),
                task_id: Borrowed(task),
                message_id: Borrowed(e.message_id),
                delta,
                part_id: None,
                part_type: None,
                part_members: None,
                timestamp: Borrowed(ts),
                extra: Vec::new(),
            },
        ))
    }

    /// A compact event of [`fast::simple`] (`TEXT_MESSAGE_START` / `_END`,
    /// `REASONING_MESSAGE_START`, `TOOL_CALL_ARGS` / `_END`) as the one canonical event the
    /// general path would give with no diagnostic, built directly, the decoder's state moved on
    /// as the general path moves it; `None` (nothing changed) otherwise: an inactive run, an
    /// open chunk lane, an unknown sub-agent, an invalid timestamp, and whatever would be a
    /// diagnostic or a second event (a message or call not open, or already open; a pending
    /// surrogate half; a reasoning text to end).
    pub(crate) fn simple_direct<'s>(
        &'s mut self,
        e: fast::Simple<'s>,
        clock: &mut Clock,
        iso: &'s mut [u8; 24],
    ) -> Option<crate::events::AgentEvent<'s>> {
        use crate::events::AgentEvent as A;
        use std::borrow::Cow::{Borrowed, Owned};
        if !self.direct_allowed(e.owner) {
            return None;
        }
        let (Some(_), Some(run)) = (self.thread.as_deref(), self.run.as_deref()) else {
            return None;
        };
        // The task of the event (the sub-agent's, or the run's), what it does to the decoder's
        // state (checked first, done once the timestamp is known to be valid).
        enum Change {
            /// Opens message `id` in this task with this role.
            Open(String, MessageRole),
            /// Closes the message or the call's arguments.
            Close,
            None,
        }
        let here = e.owner.unwrap_or(run);
        let (task, change): (String, Change) = match e.ty {
            Ty::TextMessageStart | Ty::ReasoningMessageStart => {
                let role = match (e.ty, e.second.as_deref()?) {
                    (Ty::ReasoningMessageStart, "reasoning") => MessageRole::Reasoning,
                    (Ty::TextMessageStart, r @ ("developer" | "system" | "assistant" | "user")) => {
                        MessageRole::parse(r)?
                    }
                    _ => return None,
                };
                // (As `open_message`: a closed message of the thread is reopened where it is,
                // or in this run when an earlier run of the thread had it.)
                let task = match self.messages.get(e.id) {
                    Some(m) if m.open || m.role == MessageRole::Activity => return None,
                    Some(m) if m.owner.is_none() && e.owner.is_none() && m.task != here => {
                        here.to_owned()
                    }
                    Some(m) => m.task.clone(),
                    None => here.to_owned(),
                };
                (task.clone(), Change::Open(task, role))
            }
            Ty::TextMessageEnd => match self.messages.get(e.id) {
                Some(m)
                    if m.open
                        && m.role != MessageRole::Reasoning
                        && same_owner(m.owner.as_deref(), e.owner)
                        && !self.surrogates.pending(e.id)
                        && (self.reasoning.len() == 0 || self.reasoning.get(e.id).is_none()) =>
                {
                    (m.task.clone(), Change::Close)
                }
                _ => return None,
            },
            Ty::ToolCallArgs | Ty::ToolCallEnd => match self.tools.get(e.id) {
                Some(t)
                    if t.open && !(e.ty == Ty::ToolCallEnd && self.surrogates.pending(e.id)) =>
                {
                    let change = if e.ty == Ty::ToolCallEnd {
                        Change::Close
                    } else {
                        Change::None
                    };
                    (t.task.clone(), change)
                }
                _ => return None,
            },
            _ => return None,
        };
        let (ts, valid) = clock.stamp_ms_checked(e.timestamp_ms as i64, iso);
        if !valid {
            return None; // (nothing changed: the clock keeps only valid timestamps)
        }
        let opened = match &change {
            Change::Open(_, role) => Some(*role),
            _ => None,
        };
        match change {
            Change::Open(task, role) => {
                self.track_message(e.id, &task, role, true, e.owner);
                if role == MessageRole::Reasoning {
                    self.reasoning.insert(e.id, String::new());
                }
            }
            Change::Close if e.ty == Ty::TextMessageEnd => {
                if let Some(m) = self.messages.get_mut(e.id) {
                    m.open = false;
                }
            }
            Change::Close => {
                if let Some(t) = self.tools.get_mut(e.id) {
                    t.open = false;
                }
            }
            Change::None => {}
        }
        self.bound();
        let thread = Borrowed(self.thread.as_deref().unwrap_or_default());
        let (task, id, timestamp) = (Owned(task), Borrowed(e.id), Borrowed(ts));
        Some(match e.ty {
            Ty::TextMessageStart | Ty::ReasoningMessageStart => {
                A::MessageStart(crate::events::MessageStart {
                    context_id: thread,
                    task_id: task,
                    message_id: id,
                    role: opened.unwrap_or(MessageRole::Assistant),
                    name: None,
                    timestamp,
                    metadata: None,
                    extra: Vec::new(),
                })
            }
            Ty::TextMessageEnd => A::MessageEnd(crate::events::MessageEnd {
                context_id: thread,
                task_id: task,
                message_id: id,
                part_id: None,
                part_members: None,
                timestamp,
                metadata: None,
                extra: Vec::new(),
            }),
            Ty::ToolCallArgs => {
                // (As `join_delta`; the reader takes no `\u` escape: see `text_content_direct`.)
                let mut delta = e.second.unwrap_or_default();
                if self.surrogates.take(e.id) {
                    delta = Owned(format!("\u{FFFD}{delta}"));
                }
                A::ToolArgsDelta(crate::events::ToolArgsDelta {
                    context_id: thread,
                    task_id: task,
                    tool_call_id: id,
                    delta,
                    timestamp,
                    extra: Vec::new(),
                })
            }
            _ => A::ToolArgsEnd(crate::events::ToolArgsEnd {
                context_id: thread,
                task_id: task,
                tool_call_id: id,
                arguments: None,
                timestamp,
                extra: Vec::new(),
            }),
        })
    }

    /// A compact `CUSTOM` (see [`fast::custom`]) as the `ag-ui:custom` event the general path
    /// would give with no diagnostic (an active run, no open chunk lane, a known sub-agent),
    /// built directly; `None` (nothing changed) otherwise.
    pub(crate) fn custom_direct<'s>(
        &'s mut self,
        e: fast::Custom<'s>,
        clock: &mut Clock,
        iso: &'s mut [u8; 24],
    ) -> Option<crate::events::AgentEvent<'s>> {
        use std::borrow::Cow::Borrowed;
        if !self.direct_allowed(e.owner) {
            return None;
        }
        let (Some(thread), Some(run)) = (self.thread.as_deref(), self.run.as_deref()) else {
            return None;
        };
        // (The general path stamps it too: the clock keeps its time when valid. The event
        // carries the number as sent, so any timestamp will do.)
        clock.stamp_ms_checked(e.timestamp_ms as i64, iso);
        let task = e.owner.unwrap_or(run);
        // The members `pass_through` writes: its own kind and ids, then the event's members.
        let s = |v: &'s str| Value::String(Borrowed(v));
        let mut members = vec![
            (Borrowed("kind"), s("ag-ui:custom")),
            (Borrowed("contextId"), s(thread)),
            (Borrowed("taskId"), s(task)),
            (Borrowed("type"), s("CUSTOM")),
            (Borrowed("timestamp"), Value::Number(e.timestamp_ms as f64)),
        ];
        if let Some(o) = e.owner {
            members.push((Borrowed("subagentRunId"), s(o)));
        }
        members.push((Borrowed("name"), s(e.name)));
        members.push((Borrowed("value"), e.value));
        Some(crate::events::AgentEvent::Unknown(
            crate::events::UnknownEvent {
                unknown_kind: Borrowed("ag-ui:custom"),
                context_id: Some(Borrowed(thread)),
                task_id: Some(Borrowed(task)),
                data: Value::Object(members),
            },
        ))
    }

    /// Whether a compact event of `owner` (its `subagentRunId`) may take a direct path: an
    /// active run, no open chunk lane at all (the run's own would be closed first; checked
    /// without a lookup, which keeps these paths small), and a sub-agent that is known (an
    /// unknown one is a warning on the general path).
    fn direct_allowed(&self, owner: Option<&str>) -> bool {
        self.phase == Phase::Active
            && self.lanes.len() == 0
            && owner.is_none_or(|o| self.subagents.contains(o))
    }

    /// A compact `STATE_DELTA` (see [`fast::state_delta`]) as the canonical `state-delta` the
    /// general path would give with no diagnostic (an active run, no open chunk lane, a valid
    /// timestamp, a `subagentRunId` naming a sub-agent of the run), built directly; `None`
    /// (nothing changed) otherwise.
    pub(crate) fn state_delta_fast<'s>(
        &'s mut self,
        e: fast::StateDelta<'s>,
        clock: &mut Clock,
        iso: &'s mut [u8; 24],
    ) -> Option<crate::events::AgentEvent<'s>> {
        // (A sub-agent's delta is the run's once the sub-agent is known: `state-delta` names
        // the run.)
        if !self.direct_allowed(e.owner) {
            return None;
        }
        let (Some(thread), Some(run)) = (self.thread.as_deref(), self.run.as_deref()) else {
            return None;
        };
        let (ts, valid) = clock.stamp_ms_checked(e.timestamp_ms as i64, iso);
        if !valid {
            return None; // (nothing changed: the clock keeps only valid timestamps)
        }
        use std::borrow::Cow::Borrowed;
        Some(crate::events::AgentEvent::StateDelta(
            crate::events::StateDelta {
                context_id: Borrowed(thread),
                task_id: Borrowed(run),
                patch: e.patch,
                timestamp: Borrowed(ts),
                extra: Vec::new(),
            },
        ))
    }

    /// A compact `ACTIVITY_SNAPSHOT` (see [`fast::activity_snapshot`]) as the canonical
    /// `message-upsert` the general path would give with no diagnostic (an active run, no open
    /// chunk lane, a valid timestamp, a `subagentRunId` naming a sub-agent of the run, a
    /// message id that is an activity's or new), built directly, the decoder's state moved on
    /// as the general path moves it; `None` (nothing changed) otherwise.
    pub(crate) fn activity_snapshot_fast<'s>(
        &'s mut self,
        e: fast::ActivitySnapshot<'s>,
        clock: &mut Clock,
        iso: &'s mut [u8; 24],
    ) -> Option<crate::events::AgentEvent<'s>> {
        if !self.direct_allowed(e.owner) {
            return None;
        }
        let (Some(thread), Some(run)) = (self.thread.as_deref(), self.run.as_deref()) else {
            return None;
        };
        // (`activity`: an id of another role is a warning; a known activity stays in its task.)
        let task = match self.messages.get(e.message_id) {
            Some(m) if m.role != MessageRole::Activity => return None,
            Some(m) => m.task.clone(),
            None => e.owner.unwrap_or(run).to_owned(),
        };
        let (ts, valid) = clock.stamp_ms_checked(e.timestamp_ms as i64, iso);
        if !valid {
            return None; // (nothing changed: the clock keeps only valid timestamps)
        }
        let thread = thread.to_owned();
        self.track_message(e.message_id, &task, MessageRole::Activity, false, e.owner);
        self.bound();
        use std::borrow::Cow::{Borrowed, Owned};
        let message = Value::Object(vec![
            (Borrowed("id"), Value::String(Borrowed(e.message_id))),
            (Borrowed("role"), Value::String(Borrowed("activity"))),
            (
                Borrowed("activityType"),
                Value::String(Borrowed(e.activity_type)),
            ),
            (Borrowed("content"), e.content),
        ]);
        Some(crate::events::AgentEvent::MessagePut(
            crate::events::MessagePut {
                context_id: Owned(thread),
                task_id: Owned(task),
                message,
                replace: e.replace,
                timestamp: Borrowed(ts),
                metadata: None,
                extra: Vec::new(),
            },
        ))
    }

    /// Delivers an event that changes no state whole, as `ag-ui:<type in kebab case>`.
    fn pass_through(&self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let kind = format!("ag-ui:{}", cx.ty.to_ascii_lowercase().replace('_', "-"));
        sink.event(super::unknown_event(
            &kind,
            Some(cx.thread),
            Some(cx.task),
            v,
        ));
    }

    fn bound(&mut self) {
        if self.messages.len() > MAX_TRACKED {
            self.messages.retain(|_, m| m.open);
        }
        if self.tools.len() > MAX_TRACKED {
            self.tools.retain(|_, t| t.open);
        }
        if self.subagents.len() > MAX_TRACKED {
            self.subagents.retain(|_, running| *running);
        }
        self.surrogates.bound(MAX_TRACKED);
    }
}

/// `metadata` for a canonical event: `{"agUi": {...}}` with the given members of `v`.
fn ag_meta(v: &Value<'_>, keys: &[&str]) -> Obj {
    let mut a = Obj::new();
    for &k in keys {
        if let Some(x) = v.get(k) {
            a.value(k, x);
        }
    }
    let mut m = Obj::new();
    m.obj_if("agUi", a);
    m
}

/// Whether two events come from the same sub-agent (or both from the run itself), compared
/// eight bytes at a time (see [`crate::swar::same`]).
fn same_owner(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => crate::swar::same(a.as_bytes(), b.as_bytes()),
        _ => false,
    }
}
