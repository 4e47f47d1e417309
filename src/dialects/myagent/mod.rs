//! `myagent`: MyAgent WebSocket payloads (seed 004): one JSON event per text frame,
//! `{session_id, connection_id, step_id, event, timestamp, content, metadata}`.
//!
//! The session is the context; each user turn (from the first server event after the previous
//! turn ended, up to `agent.final_answer` or a failure) is a root task `<session>/turn-<n>`.
//!
//! | MyAgent | canonical |
//! |---|---|
//! | first event of a turn | `task-created` (initiator `user`; the question of `plan.start` or the last `user.message` sent as `metadata.prompt`) + `task-status` `working` |
//! | `plan.start` | `subtask-created` `plan:<step_id>` (the question as prompt) + `task-status` `working` |
//! | `plan.step_completed` | `task-status` `working` on the plan task ("step … completed") |
//! | `plan.completed` | one `subtask-created` per plan task (`<plan>/<task.id>`, title as prompt; a child of the turn, beside the plan task) + `task-complete` of the plan task (`plan_summary` as content) |
//! | `plan.validation_error` | `agent-error` diagnostic + plan task `failed` |
//! | `solver.start` / `solver.progress` / `solver.retry` / `solver.step_failed` / `solver.completed` | a `solver` tool call: `tool-start` / `tool-progress` (`progress_percent` / 100, `completed_steps` / `total_steps`, current task as message) / progress messages / `tool-complete`; plan tasks follow `current_step` (when the plan has `total_steps` tasks) and `task_results` |
//! | `agent.thinking` | `thought-stream` (`thinking_type` planning / reasoning; analysis → reasoning) |
//! | `agent.tool_call` / `agent.tool_result` | `tool-start` / `tool-complete` (`metadata.call_id` is the call id; `execution_time_ms` → duration) |
//! | `agent.partial_answer` | `content-delta` (`chunk_index` as index when present; `step_id` and the metadata, e.g. `completion_percent`, under `metadata.myagent`) |
//! | `agent.final_answer` | `task-complete` with the answer as `content` (`total_tokens_used` → `tokensUsed`); the turn ends; first its plan, plan tasks and solver still open complete with it (the answer says the work is done) |
//! | `agent.user_confirm` | `task-status` `waiting-input` + `input-required` with `inputId` = the `step_id` (`<step_id>#turn-<n>` when an earlier turn used that step id; answers go out with the raw `step_id`) (approve → confirmation, select → selection with the options, input → clarification; `timeout_seconds` → `metadata.timeout`, `critical` → urgency high) |
//! | `system.error`, `error.validation` / `timeout` / `execution` / `recovery_failed` | `agent-error` diagnostic; the turn `failed` when not recoverable (no attempts left, `recoverable: false`, recovery failed), else a `working` status with the error; `canceled` instead of `failed` after the client sent `user.cancel` in the turn (MyAgent has no canceled state); a turn that ends leaves its open confirmations to expire |
//! | `error.retry` / `recovery_started` / `recovery_success` | `task-status` `working` with what happens |
//! | a turn that fails or is canceled (an error, `session_ended`) | first its unfinished parts end the same way (`reason` says why): plan tasks not done and the plan task `failed` / `canceled`, the running solver and tool calls `tool-complete` with `success: false` |
//! | `system.connected`, `agent.session_created` / `session_ended` | unknown events `internal:myagent:<event>` (connection and session ids are kept for the `user.*` messages); `session_ended` during a turn ends it `canceled` after `user.cancel`, else `failed` |
//! | `system.heartbeat` | nothing: liveness only ([`MyAgentDecoder::heartbeats`]) |
//! | `user.*` (echoed), other events | unknown events `myagent:<event>` |
//!
//! Server events of a running turn settle its open confirmations (answered elsewhere), except
//! errors, failed tool results (the server's own confirmation timeout looks like that), the
//! event that ends the turn and anything after the client's `user.cancel`. A `user.response` sent
//! since the server's last run event is sent again after `user.reconnect` (the seed has no
//! acknowledgement of client frames: the old socket may have died with it).
//!
//! Ids made from a `step_id` or `call_id` (plan and solver tasks, tool calls, confirmations)
//! are the id itself in the turn that first used it, and `<id>#turn-<n>` in a later turn:
//! servers may number steps per turn.
//!
//! Sequence numbers (`seq` at the top level or in `metadata`, except heartbeats): an event
//! whose `seq` was already applied is ignored (a replay after `user.reconnect`), a jump is a
//! `sequence-gap` warning, and the highest one is what `user.ack` / `user.reconnect` send. They
//! count per session, each session with its own window: `agent.session_created` naming another
//! `session_id` while no turn runs and no `user.reconnect` waits (a new session on the
//! connection) switches to that session's window.
//!
//! Sessions: the client's session is the first one named (or set). A frame of another session
//! (`system.*` connection frames aside) is ignored with a `session-mismatch` warning: not
//! applied, its `seq` neither acknowledged nor sent in `user.reconnect`. `system.error`
//! `SESSION_NOT_FOUND` (a `user.reconnect` for a session the server forgot) ends the running
//! turn `failed` with that reason ([`MyAgentDecoder::session_lost`]; the browser then ends the
//! connection `failed`, code `session-lost`); a new session announced afterwards gets the next
//! turn, never the old one.
//! Order rules: `plan.step_completed`, `plan.completed` or `plan.validation_error` of a plan
//! that never started (no `plan.start` in the turn) is an `out-of-order` warning, applied (the
//! plan task is created then); so is a `solver.progress` / `solver.retry` /
//! `solver.step_failed` before `solver.start` (the solver call starts then).
//! The seed's validation table is checked (`agent-error` is not used for it: missing or
//! mistyped `content` is `missing-field` / `invalid-type`, an error: not applied).

mod agent;
mod ending;
mod oversized;
mod plan;
pub mod request;
mod session;
mod solver;
mod system;
mod validate;

pub use oversized::{oversized_stand_in, ANSWER_TOO_LARGE};
use plan::PlanState;
use session::{SeqWindow, SEQ_WINDOW};

use super::emit::{as_count, get, get_str, members, Clock, Obj, Sink};
use super::table::Table;
use super::unknown_event;
use crate::events::DiagCode;
use crate::json::Value;
use crate::state::SeenIds;

/// Step ids (and tool call ids) remembered with the turn that first used them.
const MAX_STEPS: usize = 4096;

/// MyAgent decoding state of one connection: session, turn, sequence numbers.
#[derive(Debug)]
pub struct MyAgentDecoder {
    session_id: Option<String>,
    connection_id: Option<String>,
    server_version: Option<String>,
    seen: SeenIds,
    /// Sessions seen on this connection before the current one (sequence numbers restart
    /// with each new session).
    sessions_before: u64,
    /// The seq-window scope of the current session (`seq_scope` of its events).
    scope: u64,
    /// The seq windows of sessions left before (at most [`MAX_SESSIONS`]).
    past: Vec<SeqWindow>,
    /// The session a `user.reconnect` is resuming, until one of its events arrives.
    resuming: Option<String>,
    /// The server said it no longer knows the client's session (the reason).
    session_lost: Option<String>,
    last_seq: Option<u64>,
    acked_seq: Option<u64>,
    unacked: u64,
    heartbeats: u64,
    last_heartbeat: Option<String>,
    turns: u64,
    /// The current turn's task, and whether it ended.
    turn: Option<(String, bool)>,
    pending_prompt: Option<String>,
    content_next: u64,
    thoughts: u64,
    plan_task: Option<String>,
    /// The plan's tasks: (MyAgent task id, canonical task id, state).
    plan: Vec<(String, String, PlanState)>,
    solver: Option<String>,
    /// The solver started (or reported progress) and has not completed.
    solver_open: bool,
    /// The plan task was created and has not ended (completed or failed).
    plan_open: bool,
    /// Tool calls of the current turn without a result, oldest first (bounded).
    turn_tools: Vec<String>,
    solver_progress: f64,
    /// Running tool calls: call id → tool name.
    tools: Table<String>,
    /// Tool call ids whose result came before the call (bounded).
    early_results: Vec<String>,
    /// Tool calls so far (numbers the ids of calls that have none).
    tool_count: u64,
    last_tool: Option<String>,
    /// `<kind> <step id>` → the turn that first used the step id (see [`Self::scoped`]).
    step_turns: Table<u64>,
    /// Open confirmations: input id → (step id, turn task).
    open_inputs: Table<(String, String)>,
    /// The client sent `user.cancel` during the current turn: the agent winding down is not
    /// an answer to its confirmations, and the failure that ends the turn is the cancel.
    cancel_sent: bool,
    /// `user.response` bodies built and not sent yet: input id → body.
    prepared: Vec<(String, String)>,
    /// `user.response` bodies sent since the last run event: the server may never have read
    /// them (a socket can die with the frame in it), so a `user.reconnect` sends them again.
    unconfirmed: Vec<String>,
    /// A `user.message` is among [`Self::unconfirmed`].
    message_unconfirmed: bool,
}

/// `user.response` bodies kept for a re-send.
const MAX_UNCONFIRMED: usize = 64;

impl Default for MyAgentDecoder {
    fn default() -> Self {
        MyAgentDecoder {
            session_id: None,
            connection_id: None,
            server_version: None,
            seen: SeenIds::new(SEQ_WINDOW),
            sessions_before: 0,
            scope: 0,
            past: Vec::new(),
            resuming: None,
            session_lost: None,
            last_seq: None,
            acked_seq: None,
            unacked: 0,
            heartbeats: 0,
            last_heartbeat: None,
            turns: 0,
            turn: None,
            pending_prompt: None,
            content_next: 0,
            thoughts: 0,
            plan_task: None,
            plan: Vec::new(),
            solver: None,
            solver_open: false,
            plan_open: false,
            turn_tools: Vec::new(),
            solver_progress: 0.0,
            tools: Table::default(),
            early_results: Vec::new(),
            tool_count: 0,
            last_tool: None,
            step_turns: Table::default(),
            open_inputs: Table::default(),
            cancel_sent: false,
            prepared: Vec::new(),
            unconfirmed: Vec::new(),
            message_unconfirmed: false,
        }
    }
}

struct Cx<'c> {
    ctx: &'c str,
    ts: &'c str,
    event: &'c str,
    step_id: Option<&'c str>,
    content: Option<&'c Value<'c>>,
    meta: Option<&'c Value<'c>>,
}

impl Cx<'_> {
    /// `metadata.myagent`: the event name, step id and its metadata members.
    fn myagent(&self, skip: &[&str]) -> Obj {
        let mut a = Obj::new();
        a.str("event", self.event).opt_str("stepId", self.step_id);
        a.rest(members(self.meta), skip);
        a
    }
}

impl MyAgentDecoder {
    /// The session id (from `agent.session_created` or any event that carries one).
    pub fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    /// Sets the session id (e.g. a stored one before `user.reconnect`).
    pub fn set_session_id(&mut self, id: &str) {
        self.session_id = Some(id.to_owned());
    }

    /// The connection id from `system.connected`.
    pub fn connection_id(&self) -> Option<&str> {
        self.connection_id.as_deref()
    }

    /// The server version from `system.connected`.
    pub fn server_version(&self) -> Option<&str> {
        self.server_version.as_deref()
    }

    /// The highest sequence number applied (what `user.ack` / `user.reconnect` send).
    pub fn last_seq(&self) -> Option<u64> {
        self.last_seq
    }

    /// Events with a sequence number applied since the last [`MyAgentDecoder::mark_acked`].
    pub fn unacked(&self) -> u64 {
        self.unacked
    }

    /// Records that a `user.ack` for `last_seq` was sent.
    pub fn mark_acked(&mut self, last_seq: u64) {
        self.acked_seq = Some(last_seq);
        self.unacked = 0;
    }

    /// The sequence number last acknowledged.
    pub fn acked_seq(&self) -> Option<u64> {
        self.acked_seq
    }

    /// Heartbeats received so far (the glue's timer compares it to mark a connection stale).
    pub fn heartbeats(&self) -> u64 {
        self.heartbeats
    }

    /// The timestamp of the last heartbeat (its own, or the stream's time when it had none).
    pub fn last_heartbeat(&self) -> Option<&str> {
        self.last_heartbeat.as_deref()
    }

    /// Records a `user.message` the client sent: the next turn starts with it as its prompt.
    pub fn note_user_message(&mut self, prompt: &str) {
        self.pending_prompt = Some(prompt.to_owned());
        if let Some((_, ended)) = &mut self.turn {
            *ended = true;
        }
    }

    /// The confirmation request `input_id` is open.
    pub fn is_open(&self, input_id: &str) -> bool {
        self.open_inputs.contains(input_id)
    }

    /// Tool calls tracked now (running ones; bounded; for tests).
    #[cfg(test)]
    pub(crate) fn tracked(&self) -> usize {
        self.tools.len()
    }

    /// The `step_id` an open confirmation answers to (`user.response`): the input id itself,
    /// or the step id it was made from in a later turn (`confirm_001#turn-2` → `confirm_001`).
    pub fn step_of(&self, input_id: &str) -> Option<&str> {
        self.open_inputs
            .get(input_id)
            .map(|(step, _)| step.as_str())
    }

    pub(crate) fn close_input(&mut self, input_id: &str) -> bool {
        if let Some(i) = self.prepared.iter().position(|(id, _)| id == input_id) {
            let (_, body) = self.prepared.remove(i);
            if self.unconfirmed.len() >= MAX_UNCONFIRMED {
                self.unconfirmed.remove(0);
            }
            self.unconfirmed.push(body);
        }
        self.open_inputs.remove(input_id).is_some()
    }

    /// The `user.response` `body` answering `input_id` was built (it becomes unconfirmed once
    /// sent, see [`Self::unconfirmed`]).
    pub(crate) fn prepare_response(&mut self, input_id: &str, body: &str) {
        self.prepared.retain(|(id, _)| id != input_id);
        if self.prepared.len() >= MAX_UNCONFIRMED {
            self.prepared.remove(0);
        }
        self.prepared.push((input_id.to_owned(), body.to_owned()));
    }

    /// The `user.response` frames sent since the server's last run event: a `user.reconnect`
    /// sends them again (the seed has no acknowledgement of client frames; a server that read
    /// one refuses the repeat as already answered).
    pub fn unconfirmed(&self) -> &[String] {
        &self.unconfirmed
    }

    /// A `user.message` `body` went out: like an answer, it is sent again after a
    /// `user.reconnect` until the server's first run event shows it was read.
    pub fn note_unconfirmed(&mut self, body: &str) {
        self.message_unconfirmed = true;
        if self.unconfirmed.len() >= MAX_UNCONFIRMED {
            self.unconfirmed.remove(0);
        }
        self.unconfirmed.push(body.to_owned());
    }

    /// A `user.message` went out and no run event followed yet (the transport treats a socket
    /// that stays silent about it for `idleTimeoutMs` as stale: the server may have lost it).
    pub fn message_unconfirmed(&self) -> bool {
        self.message_unconfirmed
    }

    /// The client sent `user.cancel`: the running turn ends `canceled` (MyAgent has no such
    /// state: its next failure is the cancel) and its confirmations expire.
    pub fn note_cancel(&mut self) {
        if matches!(self.turn, Some((_, false))) {
            self.cancel_sent = true;
        }
    }

    /// The running turn's task (what `user.cancel` stops), if one runs.
    pub fn running_turn(&self) -> Option<&str> {
        match &self.turn {
            Some((t, false)) => Some(t),
            _ => None,
        }
    }

    /// A canonical id made from a step id (or a tool call id): the id itself in the turn that
    /// first used it, `<id>#turn-<n>` in a later turn n. Servers may number steps per turn
    /// (`confirm_001` in every turn): without this a later turn's confirmation would repeat an
    /// answered request, and its plan and solver would be the first turn's.
    fn scoped(&mut self, kind: &str, step: &str) -> String {
        let turn = self.turns;
        let first = self
            .step_turns
            .entry(&format!("{kind} {step}"), || turn)
            .map_or(turn, |t| *t);
        self.step_turns.bound(MAX_STEPS, |_, _| true);
        if first == turn {
            step.to_owned()
        } else {
            format!("{step}#turn-{turn}")
        }
    }

    pub(crate) fn decode(&mut self, v: &Value<'_>, clock: &mut Clock, sink: &mut Sink<'_>) {
        let Some(event) = get_str(Some(v), "event") else {
            sink.require_error(Some(v), "event", "string", "$.event");
            return;
        };
        sink.kind = Some(event.to_owned());
        let meta = v.get("metadata").filter(|m| !m.is_null());
        if meta.is_some_and(|m| m.as_object().is_none()) {
            sink.warn(
                DiagCode::InvalidType,
                format!(
                    "metadata: expected object, found {} (ignored)",
                    meta.map_or("null", |m| m.type_name())
                ),
                "$.metadata",
            );
        }
        let meta = meta.filter(|m| m.as_object().is_some());
        let ts = clock.stamp(get_str(Some(v), "timestamp"));
        if event == "system.heartbeat" {
            self.heartbeats += 1;
            self.last_heartbeat = Some(ts);
            return;
        }
        // Whose frame is it? The client's session is the first one named (or the one set);
        // another session's frame is ignored with a `session-mismatch` warning: not applied,
        // not acknowledged, its `seq` not counted (so never sent in `user.reconnect`).
        // Connection frames (`system.*`) name the connection's session and pass; a new
        // session is adopted only when `agent.session_created` announces it while no turn of
        // this session runs and no `user.reconnect` waits for this session's events.
        if !self.admit_session(event, v, sink) {
            return;
        }
        // Sequence numbers: replays are ignored, jumps reported.
        let seq = as_count(v.get("seq")).or_else(|| as_count(get(meta, "seq")));
        if !self.admit_seq(seq, sink) {
            return;
        }
        // A run event (not a connection frame): the server read what was sent before it.
        if matches!(
            event.split_once('.').map(|x| x.0),
            Some("plan" | "solver" | "agent" | "error")
        ) && !event.starts_with("agent.session_")
            // The server may send a confirmation without waiting (two in a row): it may have
            // been in flight when the answer went out.
            && event != "agent.user_confirm"
        {
            self.unconfirmed.clear();
            self.message_unconfirmed = false;
        }
        let ctx = self
            .session_id
            .clone()
            .unwrap_or_else(|| "myagent".to_owned());
        let content = v.get("content").filter(|c| !c.is_null());
        let cx = Cx {
            ctx: &ctx,
            ts: &ts,
            event,
            step_id: get_str(Some(v), "step_id"),
            content,
            meta,
        };
        if event == ANSWER_TOO_LARGE {
            self.answer_too_large(&cx, sink);
            return;
        }
        if !self.validate(&cx, v, sink) {
            return;
        }
        let (family, _) = event.split_once('.').unwrap_or((event, ""));
        const KNOWN: &[&str] = &[
            "plan.start",
            "plan.step_completed",
            "plan.completed",
            "plan.validation_error",
            "solver.start",
            "solver.progress",
            "solver.completed",
            "solver.step_failed",
            "solver.retry",
        ];
        if matches!(family, "plan" | "solver") && !KNOWN.contains(&event) {
            sink.event(unknown_event(
                &format!("myagent:{event}"),
                Some(&ctx),
                None,
                v,
            ));
            return;
        }
        match family {
            "plan" => self.plan_event(&cx, sink),
            "solver" => self.solver_event(&cx, sink),
            "agent" => self.agent_event(&cx, v, sink),
            "system" => self.system_event(&cx, v, sink),
            "error" => self.error_event(&cx, sink),
            "user" => {
                if event == "user.message" {
                    if let Some(c) = content.and_then(Value::as_str) {
                        self.note_user_message(c);
                    }
                }
                sink.event(unknown_event(
                    &format!("myagent:{event}"),
                    Some(&ctx),
                    None,
                    v,
                ));
            }
            _ => sink.event(unknown_event(
                &format!("myagent:{event}"),
                Some(&ctx),
                None,
                v,
            )),
        }
    }

    /// The current turn's task, starting a new turn when none is running. Server events of a
    /// turn also settle a confirmation the client did not answer here (another client did).
    fn turn(&mut self, cx: &Cx<'_>, prompt: Option<&str>, sink: &mut Sink<'_>) -> String {
        self.turn_settling(cx, prompt, true, sink)
    }

    /// [`Self::turn`]; `settle: false` for an event that ends the turn (its open confirmations
    /// expire with it: nobody answered them). Nothing settles after the client sent
    /// `user.cancel`: the agent stops because of the cancel, not because of an answer.
    fn turn_settling(
        &mut self,
        cx: &Cx<'_>,
        prompt: Option<&str>,
        settle: bool,
        sink: &mut Sink<'_>,
    ) -> String {
        if let Some((t, false)) = &self.turn {
            let t = t.clone();
            sink.task = Some(t.clone());
            if settle && !self.cancel_sent && cx.event != "agent.user_confirm" {
                self.settle_inputs(cx, &t, sink);
            }
            return t;
        }
        self.turns += 1;
        self.cancel_sent = false;
        let task = format!("{}/turn-{}", cx.ctx, self.turns);
        self.turn = Some((task.clone(), false));
        self.content_next = 0;
        self.thoughts = 0;
        self.plan_task = None;
        self.plan.clear();
        self.solver = None;
        self.solver_open = false;
        self.plan_open = false;
        self.turn_tools.clear();
        self.solver_progress = 0.0;
        sink.task = Some(task.clone());
        let sent = self.pending_prompt.take();
        let prompt = sent.clone().or(prompt.map(str::to_owned));
        let mut e = Obj::event("task-created", cx.ctx, &task);
        e.str("initiator", "user").str("timestamp", cx.ts);
        let mut m = Obj::new();
        m.opt_str("prompt", prompt.as_deref());
        e.obj_if("metadata", m);
        sink.event(e.finish());
        if let Some(text) = sent {
            // The user's `user.message` (sent by this client or echoed by the server) is the
            // turn's first message; `user.message` has no id, so the turn names it.
            let mut u = Obj::new();
            u.str("id", &format!("{task}#user"))
                .str("role", "user")
                .str("content", &text);
            let mut e = Obj::event("message-upsert", cx.ctx, &task);
            e.obj("message", u).str("timestamp", cx.ts);
            sink.event(e.finish());
        }
        self.status(cx, &task, "working", None, Obj::new(), sink);
        task
    }

    fn settle_inputs(&mut self, cx: &Cx<'_>, task: &str, sink: &mut Sink<'_>) {
        let open = crate::sorted::sorted_unique(
            self.open_inputs
                .iter()
                .filter(|(_, (_, t))| t.as_str() == task)
                .map(|(id, _)| id.to_owned()),
        );
        if open.is_empty() {
            return;
        }
        for id in open {
            self.open_inputs.remove(&id);
            let mut e = Obj::event("input-received", cx.ctx, task);
            e.str("inputId", &id)
                .str("providedBy", "user")
                .str("timestamp", cx.ts)
                .raw("metadata", r#"{"myagent":{"inferred":true}}"#);
            sink.event(e.finish());
        }
        // The agent moved on: the turn is working again (MyAgent sends no status of its own).
        self.status(cx, task, "working", None, Obj::new(), sink);
    }

    /// The turn a confirmation belongs to, when it is open.
    pub(crate) fn input_task(&self, input_id: &str) -> Option<&str> {
        self.open_inputs.get(input_id).map(|(_, t)| t.as_str())
    }

    fn end_turn(&mut self) {
        if let Some((_, ended)) = &mut self.turn {
            *ended = true;
        }
        self.cancel_sent = false;
        self.unconfirmed.clear();
        self.message_unconfirmed = false;
    }

    fn status(
        &self,
        cx: &Cx<'_>,
        task: &str,
        status: &str,
        message: Option<&str>,
        meta: Obj,
        sink: &mut Sink<'_>,
    ) {
        let mut e = Obj::event("task-status", cx.ctx, task);
        e.str("status", status)
            .opt_str("message", message)
            .str("timestamp", cx.ts);
        e.obj_if("metadata", meta);
        sink.event(e.finish());
    }
}
