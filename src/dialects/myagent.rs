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

mod ending;
pub mod request;

use super::emit::{as_count, get, get_bool, get_num, get_str, members, Clock, Obj, Sink};
use super::table::Table;
use super::unknown_event;
use crate::events::{DiagCode, Severity};
use crate::json::Value;
use crate::state::SeenIds;

/// The event that stands in for an `agent.final_answer` frame dropped for being larger than
/// `maxEventBytes` ([`oversized_stand_in`]): its turn ends `failed` with the reason.
pub const ANSWER_TOO_LARGE: &str = "agentwire.answer_too_large";

/// A frame of `bytes` bytes was dropped for being over `limit` (`maxEventBytes`) before it was
/// read: `head` and `tail` are its first and last characters (a few hundred; the huge member
/// sits between them, whatever the key order). When they show an `agent.final_answer`, the
/// frame that stands in for it (same `session_id` and `seq`): it ends the turn `failed`, saying
/// why, instead of leaving it `working` forever; its `seq` counts as received, so a reconnect
/// does not ask for the same frame again. `None` for any other frame (its loss is the
/// `frame-too-large` diagnostic and, with a `seq`, the next event's `sequence-gap`).
pub fn oversized_stand_in(bytes: usize, limit: usize, head: &str, tail: &str) -> Option<String> {
    let find = |key: &str| scan_str(head, key).or_else(|| scan_str(tail, key));
    if find("event")? != "agent.final_answer" {
        return None;
    }
    let seq = scan_num(head, "seq").or_else(|| scan_num(tail, "seq"));
    let mut e = Obj::new();
    e.opt_str("session_id", find("session_id"))
        .opt_str("step_id", find("step_id"))
        .str("event", ANSWER_TOO_LARGE)
        .opt_str("timestamp", find("timestamp"))
        .str(
            "content",
            &format!(
                "the final answer ({bytes} bytes or more) is larger than maxEventBytes ({limit} bytes): it was dropped"
            ),
        );
    if let Some(n) = seq {
        e.num("seq", n as f64);
    }
    Some(e.finish())
}

/// The string value of `"key": "…"` in a fragment of JSON text (no escapes in the value).
fn scan_str<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let at = crate::json::find_str(text, &format!("\"{key}\""))? + key.len() + 2;
    let rest = text.get(at..)?.trim_start().strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let end = rest.find('"')?;
    let v = rest.get(..end)?;
    (!v.contains('\\')).then_some(v)
}

/// The non-negative integer of `"key": N` in a fragment of JSON text.
fn scan_num(text: &str, key: &str) -> Option<u64> {
    let at = crate::json::find_str(text, &format!("\"{key}\""))? + key.len() + 2;
    let rest = text.get(at..)?.trim_start().strip_prefix(':')?.trim_start();
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    rest.get(..end)?.parse().ok()
}

/// Sequence numbers remembered to recognise replays.
const SEQ_WINDOW: usize = 4096;
/// Sessions whose seq windows are kept besides the current one.
const MAX_SESSIONS: usize = 4;

/// The replay window and acknowledgement state of a session left.
#[derive(Debug)]
struct SeqWindow {
    session: String,
    scope: u64,
    seen: SeenIds,
    last_seq: Option<u64>,
    acked_seq: Option<u64>,
}

/// Step ids (and tool call ids) remembered with the turn that first used them.
const MAX_STEPS: usize = 4096;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum PlanState {
    #[default]
    Pending,
    Working,
    Done,
}

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

    /// A `user.reconnect` for the current session goes out: until one of its events arrives,
    /// another session announced on the socket (the fresh one a new connection starts with)
    /// is not taken for a new session of this client.
    pub(crate) fn begin_resume(&mut self) {
        self.resuming = self.session_id.clone();
    }

    /// The server announced a new session on this connection (`agent.session_created` with
    /// another `session_id`): sequence numbers start again, so the replay window and the
    /// acknowledgement state start afresh.
    /// Each session keeps its own window: the one left is kept (the last [`MAX_SESSIONS`]) and
    /// found again if the server goes back to it.
    fn new_session(&mut self, id: &str) {
        let (fresh_scope, window) = match self.past.iter().position(|w| w.session == id) {
            Some(i) => {
                let w = self.past.remove(i);
                (w.scope, Some(w))
            }
            None => {
                self.sessions_before += 1;
                (self.sessions_before, None)
            }
        };
        let old = SeqWindow {
            session: self.session_id.clone().unwrap_or_default(),
            scope: self.scope,
            seen: std::mem::replace(&mut self.seen, SeenIds::new(SEQ_WINDOW)),
            last_seq: self.last_seq.take(),
            acked_seq: self.acked_seq.take(),
        };
        if self.past.len() >= MAX_SESSIONS {
            self.past.remove(0);
        }
        self.past.push(old);
        self.unacked = 0;
        self.scope = fresh_scope;
        if let Some(w) = window {
            self.seen = w.seen;
            self.last_seq = w.last_seq;
            self.acked_seq = w.acked_seq;
        }
        self.session_id = Some(id.to_owned());
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
        let session = get_str(Some(v), "session_id");
        if let Some(s) = session {
            if self.resuming.as_deref() == Some(s) {
                self.resuming = None;
            }
            match self.session_id.as_deref() {
                None => self.session_id = Some(s.to_owned()),
                Some(own) if own == s => {}
                Some(own) => {
                    let idle = self.resuming.is_none() && self.running_turn().is_none();
                    if event == "agent.session_created" && idle {
                        self.new_session(s);
                    } else if !event.starts_with("system.") {
                        let why = if event == "agent.session_created" {
                            if self.resuming.is_some() {
                                "a user.reconnect waits for this session's events"
                            } else {
                                "a turn of this session is running"
                            }
                        } else {
                            "not applied, not acknowledged"
                        };
                        sink.warn(
                            DiagCode::SessionMismatch,
                            format!(
                                "{event} of session {} ignored: this client's session is {} ({why})",
                                crate::json::Quoted(s),
                                crate::json::Quoted(own)
                            ),
                            "$.session_id",
                        );
                        return;
                    }
                }
            }
        }
        // Sequence numbers: replays are ignored, jumps reported.
        let seq = as_count(v.get("seq")).or_else(|| as_count(get(meta, "seq")));
        if let Some(seq) = seq {
            sink.out.seq = Some(seq);
            sink.out.seq_scope = self.scope;
            if !self.seen.insert(&seq.to_string()) {
                sink.out.duplicate = true;
                return;
            }
            if let Some(last) = self.last_seq {
                if seq > last.saturating_add(1) {
                    let msg = if seq == last + 2 {
                        format!("event seq {} never arrived", last + 1)
                    } else {
                        format!("events seq {}..={} never arrived", last + 1, seq - 1)
                    };
                    sink.warn(DiagCode::SequenceGap, msg, "$.seq");
                }
            }
            self.last_seq = Some(self.last_seq.map_or(seq, |l| l.max(seq)));
            self.unacked += 1;
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

    /// The seed's validation table and rules. `false`: the event is not applied.
    fn validate(&self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) -> bool {
        let content = cx.content;
        let need_content = |sink: &mut Sink<'_>, expected: &str, ok: bool| {
            if !ok {
                sink.require_error(Some(v), "content", expected, "$.content");
            }
            ok
        };
        let ok = match cx.event {
            "user.message" => need_content(
                sink,
                "string",
                content.is_some_and(|c| c.as_str().is_some()),
            ),
            "user.response" => need_content(
                sink,
                "object with approved",
                content.is_some_and(|c| get_bool(Some(c), "approved").is_some()),
            ),
            "plan.completed" => need_content(
                sink,
                "object",
                content.is_some_and(|c| c.as_object().is_some()),
            ),
            "plan.validation_error" => need_content(
                sink,
                "string or object",
                content.is_some_and(|c| c.as_object().is_some() || c.as_str().is_some()),
            ),
            "agent.tool_call" => {
                let ok = need_content(
                    sink,
                    "object",
                    content.is_some_and(|c| c.as_object().is_some()),
                );
                if ok && get_str(content, "tool_name").is_none() {
                    sink.require_error(content, "tool_name", "string", "$.content.tool_name");
                    return false;
                }
                ok
            }
            "agent.final_answer" => {
                let ok = need_content(
                    sink,
                    "object",
                    content.is_some_and(|c| c.as_object().is_some()),
                );
                if ok && get_str(content, "answer").is_none() {
                    sink.require_error(content, "answer", "string", "$.content.answer");
                    return false;
                }
                ok
            }
            "agent.partial_answer" | "agent.thinking" => need_content(
                sink,
                "string",
                content.is_some_and(|c| c.as_str().is_some()),
            ),
            "agent.user_confirm" => {
                let ok = need_content(
                    sink,
                    "object",
                    content.is_some_and(|c| c.as_object().is_some()),
                );
                if ok && cx.step_id.is_none() {
                    sink.require_error(Some(v), "step_id", "string", "$.step_id");
                    return false;
                }
                ok
            }
            "error.timeout" => {
                if cx.step_id.is_none() {
                    sink.require_warn(Some(v), "step_id", "string", "$.step_id");
                }
                need_content(
                    sink,
                    "string",
                    content.is_some_and(|c| c.as_str().is_some()),
                )
            }
            _ => true,
        };
        if !ok {
            return false;
        }
        if cx.event == "user.response" && cx.step_id.is_none() {
            sink.require_error(Some(v), "step_id", "string", "$.step_id");
            return false;
        }
        if cx.event == "plan.completed" && cx.meta.is_none() {
            sink.require_warn(Some(v), "metadata", "object", "$.metadata");
        }
        if cx.event == "solver.progress" && get_num(cx.meta, "progress_percent").is_none() {
            sink.require_error(
                cx.meta,
                "progress_percent",
                "number",
                "$.metadata.progress_percent",
            );
            return false;
        }
        if cx.event.starts_with("error.") && get_str(cx.meta, "error_code").is_none() {
            sink.require_warn(cx.meta, "error_code", "string", "$.metadata.error_code");
        }
        true
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
        let prompt = self.pending_prompt.take().or(prompt.map(str::to_owned));
        let mut e = Obj::event("task-created", cx.ctx, &task);
        e.str("initiator", "user").str("timestamp", cx.ts);
        let mut m = Obj::new();
        m.opt_str("prompt", prompt.as_deref());
        e.obj_if("metadata", m);
        sink.event(e.finish());
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

    fn plan_event(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
        let question = get_str(cx.content, "question");
        let turn = self.turn(cx, question, sink);
        let plan = match (&self.plan_task, cx.step_id) {
            (Some(p), _) if cx.event != "plan.start" => p.clone(),
            (_, Some(step)) => format!("plan:{}", self.scoped("plan", step)),
            (_, None) => format!("{turn}/plan"),
        };
        let fresh = self.plan_task.as_deref() != Some(plan.as_str());
        if fresh && cx.event != "plan.start" {
            // Order rule: a plan event of a plan that never started. Applied: the plan task is
            // created here (with no question) and goes on as if `plan.start` had come.
            sink.warn(
                DiagCode::OutOfOrder,
                format!(
                    "{} without plan.start: plan task {plan} created here (applied)",
                    cx.event
                ),
                "$.event",
            );
        }
        if fresh {
            self.plan_task = Some(plan.clone());
            self.plan_open = true;
            let mut e = Obj::event("subtask-created", cx.ctx, &turn);
            e.str("subtaskId", &plan)
                .str("prompt", question.unwrap_or("plan"))
                .str("timestamp", cx.ts);
            sink.event(e.finish());
        }
        sink.task = Some(plan.clone());
        match cx.event {
            "plan.start" => {
                let mut m = Obj::new();
                let mut a = cx.myagent(&[]);
                a.opt_value("content", cx.content);
                m.opt_str("model", get_str(cx.meta, "model"));
                m.obj("myagent", a);
                self.status(cx, &plan, "working", question, m, sink);
            }
            "plan.step_completed" => {
                let name = get_str(cx.content, "step_name").unwrap_or("step");
                let mut m = Obj::new();
                let mut a = cx.myagent(&[]);
                a.opt_value("content", cx.content);
                m.obj("myagent", a);
                self.status(
                    cx,
                    &plan,
                    "working",
                    Some(&format!("{name} completed")),
                    m,
                    sink,
                );
            }
            "plan.completed" => {
                let tasks = get(cx.content, "tasks").and_then(Value::as_array);
                if tasks.is_none() {
                    sink.require_warn(cx.content, "tasks", "array", "$.content.tasks");
                }
                for (i, t) in tasks.into_iter().flatten().enumerate() {
                    let Some(id) = get_str(Some(t), "id") else {
                        sink.require_warn(
                            Some(t),
                            "id",
                            "string",
                            &format!("$.content.tasks[{i}].id"),
                        );
                        continue;
                    };
                    let sub = format!("{plan}/{id}");
                    let title = get_str(Some(t), "title")
                        .or_else(|| get_str(Some(t), "description"))
                        .unwrap_or(id);
                    // Plan tasks are the turn's (siblings of the plan task, which ends here
                    // while they are still to be done).
                    let mut e = Obj::event("subtask-created", cx.ctx, &turn);
                    e.str("subtaskId", &sub)
                        .str("prompt", title)
                        .str("timestamp", cx.ts);
                    let mut m = Obj::new();
                    let mut a = Obj::new();
                    a.rest(members(Some(t)), &["title"]);
                    m.obj("myagent", a);
                    e.obj("metadata", m);
                    sink.event(e.finish());
                    self.plan.push((id.to_owned(), sub, PlanState::Pending));
                }
                let mut e = Obj::event("task-complete", cx.ctx, &plan);
                e.opt_str("content", get_str(cx.meta, "plan_summary"))
                    .str("timestamp", cx.ts);
                let mut m = Obj::new();
                if let Some(ms) = get_num(cx.meta, "planning_time_ms") {
                    m.num("duration", ms);
                }
                if let Some(n) = as_count(get(cx.meta, "llm_calls")) {
                    m.num("iterations", n as f64);
                }
                m.obj(
                    "myagent",
                    cx.myagent(&["plan_summary", "planning_time_ms", "llm_calls"]),
                );
                e.obj("metadata", m);
                sink.event(e.finish());
                self.plan_open = false;
            }
            "plan.validation_error" => {
                let msg = get_str(cx.content, "error_message")
                    .or_else(|| cx.content.and_then(Value::as_str))
                    .unwrap_or("plan validation failed");
                let code = get_str(cx.meta, "error_code").unwrap_or("?");
                sink.warn(
                    DiagCode::AgentError,
                    format!("plan validation error {code}: {msg}"),
                    "$.content",
                );
                let mut m = Obj::new();
                m.str("reason", msg);
                let mut a = cx.myagent(&[]);
                a.opt_value("content", cx.content);
                m.obj("myagent", a);
                self.status(cx, &plan, "failed", Some(msg), m, sink);
                self.plan_open = false;
            }
            other => sink.event(unknown_event(
                &format!("myagent:{other}"),
                Some(cx.ctx),
                Some(&plan),
                cx.content.unwrap_or(&Value::Null),
            )),
        }
    }

    fn solver_id(&mut self, cx: &Cx<'_>, turn: &str) -> String {
        if let Some(s) = &self.solver {
            return s.clone();
        }
        let id = match cx.step_id {
            Some(step) => format!("solver:{}", self.scoped("solver", step)),
            None => format!("{turn}/solver"),
        };
        self.solver = Some(id.clone());
        id
    }

    fn solver_progress(
        &mut self,
        cx: &Cx<'_>,
        turn: &str,
        progress: f64,
        message: Option<&str>,
        meta: Obj,
        sink: &mut Sink<'_>,
    ) {
        let never_started = self.solver.is_none();
        let id = self.solver_id(cx, turn);
        if never_started {
            // Order rule: a solver event before `solver.start` (the document's own examples
            // go from `plan.completed` to `solver.progress`). Applied: the solver call starts
            // here, with a warning.
            sink.warn(
                DiagCode::OutOfOrder,
                format!(
                    "{} without solver.start: solver call {id} started here (applied)",
                    cx.event
                ),
                "$.event",
            );
            let mut e = Obj::event("tool-start", cx.ctx, turn);
            e.str("toolCallId", &id)
                .str("toolName", "solver")
                .raw("arguments", "{}")
                .str("timestamp", cx.ts);
            sink.event(e.finish());
        }
        self.solver_open = true;
        let mut e = Obj::event("tool-progress", cx.ctx, turn);
        e.str("toolCallId", &id)
            .num("progress", progress)
            .opt_str("message", message)
            .str("timestamp", cx.ts);
        e.obj_if("metadata", meta);
        sink.event(e.finish());
    }

    fn plan_task_state(&mut self, cx: &Cx<'_>, i: usize, to: PlanState, sink: &mut Sink<'_>) {
        let Some((_, id, state)) = self.plan.get_mut(i) else {
            return;
        };
        if *state == to || *state == PlanState::Done {
            return;
        }
        *state = to;
        let id = id.clone();
        match to {
            PlanState::Working => self.status(cx, &id, "working", None, Obj::new(), sink),
            PlanState::Done => {
                let mut e = Obj::event("task-complete", cx.ctx, &id);
                e.str("timestamp", cx.ts);
                sink.event(e.finish());
            }
            PlanState::Pending => {}
        }
    }

    fn solver_event(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
        let turn = self.turn(cx, None, sink);
        match cx.event {
            "solver.start" => {
                let id = self.solver_id(cx, &turn);
                self.solver_open = true;
                let mut e = Obj::event("tool-start", cx.ctx, &turn);
                e.str("toolCallId", &id).str("toolName", "solver");
                let mut args = Obj::new();
                args.rest(members(cx.meta), &[]);
                e.obj("arguments", args).str("timestamp", cx.ts);
                let mut m = Obj::new();
                let mut a = cx.myagent(&["task_count", "total_tasks", "estimated_duration_sec"]);
                a.opt_value("content", cx.content);
                m.obj("myagent", a);
                e.obj("metadata", m);
                sink.event(e.finish());
            }
            "solver.progress" => {
                let pct = get_num(cx.meta, "progress_percent").unwrap_or(0.0);
                let progress = pct / 100.0;
                self.solver_progress = progress.clamp(0.0, 1.0);
                let current = get_str(cx.content, "current_task");
                let completed = as_count(get(cx.meta, "completed_steps"));
                let total = as_count(get(cx.meta, "total_steps"));
                let mut m = Obj::new();
                m.opt_str("step", current);
                if let Some(c) = completed {
                    m.num("stepsCompleted", c as f64);
                }
                if let Some(t) = total {
                    m.num("stepsTotal", t as f64);
                }
                // All the metadata as sent (`progress_percent` too: `progress` is its ratio).
                let mut a = cx.myagent(&[]);
                a.opt_value("content", cx.content);
                m.obj("myagent", a);
                self.solver_progress(cx, &turn, progress, current, m, sink);
                // Plan tasks follow the solver's steps when they correspond one to one.
                if let (Some(c), Some(t)) = (completed, total) {
                    if t as usize == self.plan.len() {
                        for i in 0..(c as usize).min(self.plan.len()) {
                            self.plan_task_state(cx, i, PlanState::Done, sink);
                        }
                        if let Some(cur) = as_count(get(cx.meta, "current_step")) {
                            if cur >= 1 && cur as usize > c as usize {
                                self.plan_task_state(
                                    cx,
                                    cur as usize - 1,
                                    PlanState::Working,
                                    sink,
                                );
                            }
                        }
                    }
                }
            }
            "solver.retry" => {
                let step = get_str(cx.content, "step_name").unwrap_or("step");
                let attempt = get_num(cx.meta, "attempt");
                let max = get_num(cx.meta, "max_attempts");
                let msg = match (attempt, max) {
                    (Some(a), Some(m)) => format!(
                        "retrying {step} (attempt {} of {})",
                        crate::json::Num(a),
                        crate::json::Num(m)
                    ),
                    _ => format!("retrying {step}"),
                };
                let mut m = Obj::new();
                m.obj("myagent", cx.myagent(&[]));
                let p = self.solver_progress;
                self.solver_progress(cx, &turn, p, Some(&msg), m, sink);
            }
            "solver.step_failed" => {
                let step = get_str(cx.content, "step_name").unwrap_or("step");
                let err = get_str(cx.content, "error_message").unwrap_or("failed");
                let code = get_str(cx.meta, "error_code").unwrap_or("?");
                sink.warn(
                    DiagCode::AgentError,
                    format!("solver step {step} failed ({code}): {err}"),
                    "$.content",
                );
                let mut m = Obj::new();
                m.obj("myagent", cx.myagent(&[]));
                let p = self.solver_progress;
                self.solver_progress(
                    cx,
                    &turn,
                    p,
                    Some(&format!("{step} failed: {err}")),
                    m,
                    sink,
                );
            }
            "solver.completed" => {
                for (i, r) in get(cx.content, "task_results")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    let Some(tid) = get_str(Some(r), "task_id") else {
                        sink.require_warn(
                            Some(r),
                            "task_id",
                            "string",
                            &format!("$.content.task_results[{i}].task_id"),
                        );
                        continue;
                    };
                    let Some(pi) = self.plan.iter().position(|p| p.0 == tid) else {
                        continue;
                    };
                    let Some((_, sub, state)) = self.plan.get_mut(pi) else {
                        continue;
                    };
                    if *state == PlanState::Done {
                        continue;
                    }
                    *state = PlanState::Done;
                    let sub = sub.clone();
                    let status = get_str(Some(r), "status").unwrap_or("success");
                    let mut a = Obj::new();
                    a.str("status", status)
                        .opt_value("result", get(Some(r), "result"));
                    let mut m = Obj::new();
                    if status == "failed" {
                        m.str("reason", "failed");
                        m.obj("myagent", a);
                        self.status(cx, &sub, "failed", None, m, sink);
                    } else {
                        let mut e = Obj::event("task-complete", cx.ctx, &sub);
                        e.opt_str("content", get(Some(r), "result").and_then(Value::as_str))
                            .str("timestamp", cx.ts);
                        m.obj("myagent", a);
                        e.obj("metadata", m);
                        sink.event(e.finish());
                    }
                }
                let id = self.solver_id(cx, &turn);
                self.solver_open = false;
                let failed = get_num(cx.meta, "failed_tasks").unwrap_or(0.0);
                let mut e = Obj::event("tool-complete", cx.ctx, &turn);
                e.str("toolCallId", &id)
                    .str("toolName", "solver")
                    .bool("success", failed == 0.0)
                    .opt_value("result", cx.content);
                if failed > 0.0 {
                    e.str(
                        "error",
                        &format!("{} task(s) failed", crate::json::Num(failed)),
                    );
                }
                e.str("timestamp", cx.ts);
                let mut m = Obj::new();
                if let Some(ms) = get_num(cx.meta, "total_execution_time_ms") {
                    m.num("duration", ms);
                }
                m.obj("myagent", cx.myagent(&["total_execution_time_ms"]));
                e.obj("metadata", m);
                sink.event(e.finish());
            }
            other => sink.event(unknown_event(
                &format!("myagent:{other}"),
                Some(cx.ctx),
                Some(&turn),
                cx.content.unwrap_or(&Value::Null),
            )),
        }
    }

    fn agent_event(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        match cx.event {
            "agent.session_created" | "agent.session_ended" => {
                if let Some(s) = get_str(cx.content, "session_id") {
                    self.session_id = Some(s.to_owned());
                }
                if cx.event == "agent.session_ended" {
                    // A turn still running ends with the session: `canceled` after the client's
                    // `user.cancel` (how a server may acknowledge it), else `failed`.
                    if let Some((task, false)) = self.turn.clone() {
                        sink.task = Some(task.clone());
                        let (status, why) = if self.cancel_sent {
                            ("canceled", "canceled: the session ended")
                        } else {
                            ("failed", "the session ended before the turn finished")
                        };
                        self.end_unfinished(cx, &task, status, why, sink);
                        let mut m = Obj::new();
                        m.str("reason", why);
                        self.status(cx, &task, status, Some(why), m, sink);
                    }
                    self.end_turn();
                }
                let kind = format!("internal:myagent:{}", cx.event);
                sink.event(unknown_event(&kind, Some(cx.ctx), None, v));
                return;
            }
            "agent.thinking"
            | "agent.tool_call"
            | "agent.tool_result"
            | "agent.partial_answer"
            | "agent.final_answer"
            | "agent.user_confirm" => {}
            other => {
                sink.event(unknown_event(
                    &format!("myagent:{other}"),
                    Some(cx.ctx),
                    None,
                    v,
                ));
                return;
            }
        }
        // A failed tool result is no proof of an answer either (the call waiting for the
        // confirmation may have failed because nobody answered).
        let settle =
            !(cx.event == "agent.tool_result" && get_str(cx.content, "status") == Some("failed"));
        let turn = self.turn_settling(cx, None, settle, sink);
        match cx.event {
            "agent.thinking" => {
                let idx = self.thoughts;
                self.thoughts += 1;
                let ty = match get_str(cx.meta, "thinking_type") {
                    Some("planning") => "planning",
                    _ => "reasoning",
                };
                let mut e = Obj::event("thought-stream", cx.ctx, &turn);
                e.str("thoughtId", &format!("{turn}#thought-{idx}"))
                    .str("thoughtType", ty)
                    .str("verbosity", "normal")
                    .str("content", cx.content.and_then(Value::as_str).unwrap_or(""))
                    .num("index", idx as f64)
                    .str("timestamp", cx.ts);
                let mut m = Obj::new();
                m.obj("myagent", cx.myagent(&[]));
                e.obj("metadata", m);
                sink.event(e.finish());
            }
            "agent.tool_call" => {
                let name = get_str(cx.content, "tool_name").unwrap_or("tool");
                self.tool_count += 1;
                let id = match get_str(cx.meta, "call_id").or(cx.step_id) {
                    Some(raw) => self.scoped("tool", raw),
                    None => format!("{turn}#tool-{}", self.tool_count),
                };
                // Its result came first (reordered): the call is done, not running.
                let done = match self.early_results.iter().position(|x| *x == id) {
                    Some(i) => {
                        self.early_results.remove(i);
                        true
                    }
                    None => false,
                };
                if !done {
                    self.tools.insert(&id, name.to_owned());
                    self.note_turn_tool(&id, true);
                    self.tools.bound(MAX_STEPS, |_, _| true);
                }
                self.last_tool = Some(id.clone());
                let mut e = Obj::event("tool-start", cx.ctx, &turn);
                e.str("toolCallId", &id).str("toolName", name);
                match get(cx.content, "arguments") {
                    Some(a @ Value::Object(_)) => e.value("arguments", a),
                    Some(other) => {
                        let mut w = Obj::new();
                        w.value("value", other);
                        e.obj("arguments", w)
                    }
                    None => e.raw("arguments", "{}"),
                };
                e.str("timestamp", cx.ts);
                let mut m = Obj::new();
                let mut a = cx.myagent(&["call_id"]);
                a.opt_str("toolDescription", get_str(cx.content, "tool_description"));
                m.obj("myagent", a);
                e.obj("metadata", m);
                sink.event(e.finish());
            }
            "agent.tool_result" => {
                let id = match get_str(cx.meta, "call_id") {
                    Some(raw) => self.scoped("tool", raw),
                    None => match (self.last_tool.clone(), cx.step_id) {
                        (Some(last), _) => last,
                        (None, Some(step)) => self.scoped("tool", step),
                        (None, None) => format!("{turn}#tool-{}", self.tool_count + 1),
                    },
                };
                // The call ends: forget it (its name is only needed for this event). A result
                // before its call: the call, when it comes, brings the name and arguments.
                let name = match self.tools.remove(&id) {
                    Some(n) => n,
                    None => {
                        if self.early_results.len() >= MAX_STEPS {
                            self.early_results.remove(0);
                        }
                        self.early_results.push(id.clone());
                        String::new()
                    }
                };
                self.note_turn_tool(&id, false);
                let status = get_str(cx.content, "status").unwrap_or("success");
                let ok = status != "failed";
                let result = get(cx.content, "result");
                let mut e = Obj::event("tool-complete", cx.ctx, &turn);
                e.str("toolCallId", &id)
                    .str("toolName", &name)
                    .bool("success", ok)
                    .opt_value("result", result);
                if !ok {
                    e.str(
                        "error",
                        result.and_then(Value::as_str).unwrap_or("tool failed"),
                    );
                }
                e.str("timestamp", cx.ts);
                let mut m = Obj::new();
                if let Some(ms) = get_num(cx.meta, "execution_time_ms") {
                    m.num("duration", ms);
                }
                m.obj("myagent", cx.myagent(&["call_id", "execution_time_ms"]));
                e.obj("metadata", m);
                sink.event(e.finish());
            }
            "agent.partial_answer" => {
                let idx = as_count(get(cx.meta, "chunk_index")).unwrap_or(self.content_next);
                self.content_next = self.content_next.max(idx.saturating_add(1));
                let mut e = Obj::event("content-delta", cx.ctx, &turn);
                e.str("delta", cx.content.and_then(Value::as_str).unwrap_or(""))
                    .num("index", idx as f64)
                    .str("timestamp", cx.ts);
                // `step_id`, `chunk_index`, `completion_percent` and any other metadata.
                let mut m = Obj::new();
                m.obj("myagent", cx.myagent(&[]));
                e.obj("metadata", m);
                sink.event(e.finish());
            }
            "agent.final_answer" => {
                self.end_finished(cx, sink);
                let mut e = Obj::event("task-complete", cx.ctx, &turn);
                e.str("content", get_str(cx.content, "answer").unwrap_or(""))
                    .str("timestamp", cx.ts);
                let mut m = Obj::new();
                if let Some(n) = as_count(get(cx.meta, "total_tokens_used")) {
                    m.num("tokensUsed", n as f64);
                }
                let mut a = cx.myagent(&["total_tokens_used"]);
                a.opt_str("answerType", get_str(cx.content, "answer_type"));
                m.obj("myagent", a);
                e.obj("metadata", m);
                sink.event(e.finish());
                self.end_turn();
            }
            _ => self.user_confirm(cx, &turn, sink),
        }
    }

    fn user_confirm(&mut self, cx: &Cx<'_>, turn: &str, sink: &mut Sink<'_>) {
        let Some(step) = cx.step_id else { return };
        let message = get_str(cx.content, "message").unwrap_or("Please confirm");
        let ty = get_str(cx.content, "confirmation_type").unwrap_or("approve");
        let input_type = match ty {
            "approve" => "confirmation",
            "select" => "selection",
            "input" => "clarification",
            other => {
                sink.warn(
                    DiagCode::InvalidEnum,
                    format!("confirmation_type {} is not one of approve, select, input (taken as approve)", crate::json::Quoted(other)),
                    "$.content.confirmation_type",
                );
                "confirmation"
            }
        };
        let mut m = Obj::new();
        m.str("blockedBy", "user");
        self.status(cx, turn, "waiting-input", Some(message), m, sink);
        let id = self.scoped("input", step);
        self.open_inputs
            .insert(&id, (step.to_owned(), turn.to_owned()));
        let mut e = Obj::event("input-required", cx.ctx, turn);
        e.str("inputId", &id)
            .bool("requireUser", true)
            .str("inputType", input_type)
            .str("prompt", message)
            .opt_value(
                "options",
                get(cx.content, "options").filter(|o| o.as_array().is_some()),
            )
            .str("timestamp", cx.ts);
        let mut m = Obj::new();
        if let Some(t) = get_num(cx.meta, "timeout_seconds").filter(|t| *t >= 0.0) {
            m.num("timeout", t);
        }
        if get_bool(cx.meta, "critical") == Some(true) {
            m.str("urgency", "high");
        }
        let mut a = cx.myagent(&["timeout_seconds"]);
        a.str("confirmationType", ty);
        m.obj("myagent", a);
        e.obj("metadata", m);
        sink.event(e.finish());
    }

    fn system_event(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        match cx.event {
            "system.connected" => {
                if let Some(c) = get_str(Some(v), "connection_id") {
                    self.connection_id = Some(c.to_owned());
                }
                if let Some(s) = get_str(cx.content, "server_version") {
                    self.server_version = Some(s.to_owned());
                }
                let kind = format!("internal:myagent:{}", cx.event);
                sink.event(unknown_event(&kind, Some(cx.ctx), None, v));
            }
            "system.error" => {
                let msg = cx.content.and_then(Value::as_str).unwrap_or("system error");
                let code = get_str(cx.meta, "error_code").unwrap_or("?");
                let severity = match get_str(cx.meta, "severity") {
                    Some("error") => Severity::Error,
                    _ => Severity::Warning,
                };
                sink.diag(
                    DiagCode::AgentError,
                    severity,
                    format!("system error {code}: {msg}"),
                    "$.content",
                );
                if crate::json::contains_str(code, "SESSION_NOT_FOUND") {
                    self.session_not_found(cx, code, msg, sink);
                }
            }
            other => {
                sink.event(unknown_event(
                    &format!("myagent:{other}"),
                    Some(cx.ctx),
                    None,
                    v,
                ));
            }
        }
    }

    /// `system.error` `SESSION_NOT_FOUND` (the answer to a `user.reconnect` for a session the
    /// server forgot): the turn that was running cannot go on. It ends `failed` with the
    /// reason (its parts first), and [`Self::session_lost`] tells the transport to stop; a
    /// new session the server may announce next is never taken for the old turn.
    fn session_not_found(&mut self, cx: &Cx<'_>, code: &str, msg: &str, sink: &mut Sink<'_>) {
        let lost = self
            .resuming
            .take()
            .or_else(|| self.session_id.clone())
            .unwrap_or_default();
        let why = format!(
            "the server no longer knows session {} ({code}: {msg}): the turn cannot be resumed",
            crate::json::Quoted(&lost)
        );
        if let Some(task) = self.running_turn().map(str::to_owned) {
            sink.task = Some(task.clone());
            self.end_unfinished(cx, &task, "failed", &why, sink);
            let mut m = Obj::new();
            m.str("reason", &why);
            self.status(cx, &task, "failed", Some(&why), m, sink);
            self.end_turn();
        }
        self.session_lost = Some(why);
    }

    /// The stand-in of a final answer dropped for its size ([`oversized_stand_in`]).
    fn answer_too_large(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
        let why = cx
            .content
            .and_then(Value::as_str)
            .unwrap_or("the final answer was too large");
        if let Some(task) = self.running_turn().map(str::to_owned) {
            sink.task = Some(task.clone());
            self.end_unfinished(cx, &task, "failed", why, sink);
            let mut m = Obj::new();
            m.str("reason", why);
            self.status(cx, &task, "failed", Some(why), m, sink);
            self.end_turn();
        }
    }

    /// Why the client's session is gone (`SESSION_NOT_FOUND`), once the server said so: the
    /// transport ends the connection `failed` with this reason.
    pub fn session_lost(&self) -> Option<&str> {
        self.session_lost.as_deref()
    }

    fn error_event(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
        let text = cx.content.and_then(Value::as_str).unwrap_or("");
        let code = get_str(cx.meta, "error_code").unwrap_or("?");
        let recoverable = get_bool(cx.meta, "recoverable");
        let attempt = get_num(cx.meta, "attempt");
        let max = get_num(cx.meta, "max_attempts");
        let (status, message, diag): (&str, String, bool) = match cx.event {
            "error.validation" | "error.execution" => {
                let fatal = recoverable == Some(false);
                (
                    if fatal { "failed" } else { "working" },
                    format!("{code}: {text}"),
                    true,
                )
            }
            "error.timeout" => {
                let left = matches!((attempt, max), (Some(a), Some(m)) if a < m);
                let msg = match (attempt, max) {
                    (Some(a), Some(m)) => format!(
                        "{code}: {text} (attempt {} of {})",
                        crate::json::Num(a),
                        crate::json::Num(m)
                    ),
                    _ => format!("{code}: {text}"),
                };
                (if left { "working" } else { "failed" }, msg, true)
            }
            "error.retry" => {
                let err = get_str(cx.meta, "error").unwrap_or(text);
                let msg = match (attempt, max, get_num(cx.meta, "delay_ms")) {
                    (Some(a), Some(m), Some(d)) => format!(
                        "retry {} of {} in {} ms: {err}",
                        crate::json::Num(a),
                        crate::json::Num(m),
                        crate::json::Num(d)
                    ),
                    (Some(a), Some(m), None) => format!(
                        "retry {} of {}: {err}",
                        crate::json::Num(a),
                        crate::json::Num(m)
                    ),
                    _ => format!("retry: {err}"),
                };
                ("working", msg, false)
            }
            "error.recovery_started" => {
                let action = get_str(cx.meta, "recovery_action").unwrap_or(text);
                ("working", format!("recovering: {action}"), false)
            }
            "error.recovery_success" => ("working", "recovered".to_owned(), false),
            "error.recovery_failed" => {
                let orig = get_str(cx.meta, "original_error").unwrap_or(text);
                ("failed", format!("recovery failed: {orig}"), true)
            }
            other => {
                sink.warn(
                    DiagCode::AgentError,
                    format!("{other} {code}: {text}"),
                    "$.content",
                );
                return;
            }
        };
        // An error is not an answer: a confirmation open now expires with the turn if it fails
        // (the server's own confirmation timeout ends that way), or the next event settles it.
        let turn = self.turn_settling(cx, None, false, sink);
        // The failure that follows the client's `user.cancel` is the cancel.
        let status = if status == "failed" && self.cancel_sent {
            "canceled"
        } else {
            status
        };
        if diag {
            sink.warn(
                DiagCode::AgentError,
                format!("{}: {message}", cx.event),
                "$.content",
            );
        }
        if status != "working" {
            let why = if text.is_empty() { &message } else { text };
            self.end_unfinished(cx, &turn, status, why, sink);
        }
        let mut m = Obj::new();
        if status != "working" {
            m.str("reason", if text.is_empty() { &message } else { text });
        }
        let mut a = cx.myagent(&[]);
        a.opt_value("content", cx.content);
        m.obj("myagent", a);
        self.status(cx, &turn, status, Some(&message), m, sink);
        if status != "working" {
            self.end_turn();
        }
    }
}
