//! `unified`: the Unified Agent Event Schema (seed 003): `{event_id, session_id, timestamp,
//! type, payload}`.
//!
//! The session is the context, and a root task with the session id; agent messages and
//! workflow runs are its sub-tasks, workflow steps sub-tasks of their run.
//!
//! | Unified | canonical |
//! |---|---|
//! | any event of a new session | `task-created` (task = context = `session_id`, initiator `user`) |
//! | `session_started` | `task-status` `working` (`agent` → `metadata.agentId`, payload `metadata` under `metadata.unified`) |
//! | `session_ended` | `task-status` from `reason` (completed; error/failed → failed; cancelled/interrupted/user_stop → canceled; anything else → completed), `summary` as message |
//! | `agent_message_start` | sub-task `msg:<message_id>` (`task-created`, initiator `agent`, `agentId`) + `task-status` `working` |
//! | `agent_message_delta` | `content-delta` on the message task |
//! | `agent_message_end` | `task-complete` with `content` (the server's full text wins) |
//! | `tool_call_started` / `tool_call_delta` / `tool_call_result` | `tool-start` (`args`, `agent` → `metadata.provider`) / `tool-progress` (delta → message) / `tool-complete` |
//! | `workflow_started` | sub-task `run:<run_id>` + `task-status` `working` |
//! | `workflow_step_started` / `workflow_step_completed` | `subtask-created` `step:<run_id>/<step_id>` (description as prompt) + `task-status` `working` / `task-complete` (`output` under `metadata.unified`) |
//! | `workflow_transition` | `task-status` `working` on the run ("from → to") |
//! | `workflow_completed` | `task-complete` on the run (`result.summary` as content) |
//! | `agent_thought` | `thought-stream` (`reasoning`); with `debug: true` an unknown `internal:unified:agent_thought` event |
//! | `run_error` | `agent-error` diagnostic; the named workflow step (if open) `failed`, else `task-status` `working` on the session with the error as message (`metadata.unified` keeps its members) |
//! | `run_retry` | `task-status` `working` on the session ("retry n of m: reason") |
//! | `run_interrupted` | `task-status` `canceled` on the session and on its running steps and runs |
//! | `retrieval_started` / `retrieval_result` | a `retrieval` tool call (`query` as argument, `documents` as result) |
//! | `automation_triggered` / `automation_completed` | a tool call named after the workflow (provider `n8n`) |
//! | `metrics_update` | `data-write` `<session>#metrics`, one version per update |
//! | other types | unknown event `unified:<type>` |
//!
//! Tools and thoughts belong to the session's innermost running workflow step, else the session.
//!
//! Every event's `event_id` and `type` are in `metadata.unified` of what it becomes (the
//! `task-status` of an `agent_message_start` or `workflow_started`, each `content-delta`, ...);
//! an unknown event (`agent_thought` with `debug: true`, other types) carries the whole event.
//!
//! The document's own examples are `{type, payload}` without the root members its "Root Event
//! Structure" says every event has: they are read as they are, with a `missing-field` warning
//! for `event_id` and `timestamp` (the time received), the session from `payload.session_id`,
//! else the previous event's, else `session`.
//!
//! Order rules (the document gives the lifecycle, not what to do when a server breaks it):
//! - after `session_ended`, any event of that session (a new `session_started` too) is an
//!   `out-of-order` error, not applied (the session's task is terminal; nothing reopens in it);
//! - `agent_message_start` after that message's `agent_message_end`, `workflow_started` after
//!   that run's `workflow_completed`: `out-of-order` errors, not applied;
//! - `agent_message_start` after the message's first delta (which opened the message): an
//!   `out-of-order` warning, applied (its agent and event id go to the message's status).

use super::emit::{get, get_bool, get_num, get_str, members, Clock, Obj, Sink};
use super::table::Table;
use super::unknown_event;
use crate::events::DiagCode;
use crate::json::Value;

const MAX_TRACKED: usize = 10_000;

#[derive(Debug, Default)]
struct SessionTrack {
    /// Running workflow steps (task ids), innermost last.
    steps: Vec<String>,
    /// Running workflow runs (task ids).
    runs: Vec<String>,
    /// Open retrieval calls, oldest first.
    retrievals: Vec<String>,
    /// Open automation calls: (workflow, call id), oldest first.
    automations: Vec<(String, String)>,
    metrics_version: u64,
    calls: u64,
    ended: bool,
}

#[derive(Debug, Default)]
struct MessageTrack {
    next: u64,
}

#[derive(Debug)]
struct ToolTrack {
    task: String,
    name: String,
}

/// Unified Agent Event Schema decoding state of one connection.
#[derive(Debug, Default)]
pub struct UnifiedDecoder {
    sessions: Table<SessionTrack>,
    messages: Table<MessageTrack>,
    tools: Table<ToolTrack>,
    thoughts: Table<u64>,
    /// Tasks created so far (sub-tasks of sessions).
    created: Table<()>,
    last_session: Option<String>,
}

struct Cx<'c> {
    session: &'c str,
    ts: &'c str,
    event_id: Option<&'c str>,
    ty: &'c str,
    root: &'c Value<'c>,
}

impl Cx<'_> {
    /// `metadata.unified`: the event id and type, plus the given extra members.
    fn meta(&self, payload: &Value<'_>, skip: &[&str]) -> Obj {
        let mut u = Obj::new();
        u.opt_str("eventId", self.event_id).str("type", self.ty);
        u.rest(members(Some(payload)), skip);
        u
    }
}

/// The payload members (strings) an event type cannot be applied without.
fn required(ty: &str) -> &'static [&'static str] {
    match ty {
        "agent_message_start" | "agent_message_end" => &["message_id"],
        "agent_message_delta" => &["message_id", "delta"],
        "tool_call_started" => &["tool_call_id", "tool_name"],
        "tool_call_delta" => &["tool_call_id", "delta"],
        "tool_call_result" => &["tool_call_id"],
        "workflow_started" | "workflow_transition" | "workflow_completed" => &["run_id"],
        "workflow_step_started" | "workflow_step_completed" => &["run_id", "step_id"],
        "agent_thought" => &["content"],
        "automation_triggered" | "automation_completed" => &["workflow"],
        _ => &[],
    }
}

fn step_task(run: &str, step: &str) -> String {
    format!("step:{run}/{step}")
}

impl UnifiedDecoder {
    pub(crate) fn decode(&mut self, v: &Value<'_>, clock: &mut Clock, sink: &mut Sink<'_>) {
        let Some(ty) = get_str(Some(v), "type") else {
            sink.require_error(Some(v), "type", "string", "$.type");
            return;
        };
        sink.kind = Some(ty.to_owned());
        let Some(payload) = v.get("payload").filter(|p| p.as_object().is_some()) else {
            sink.require_error(Some(v), "payload", "object", "$.payload");
            return;
        };
        let event_id = get_str(Some(v), "event_id");
        if event_id.is_none() {
            sink.require_warn(Some(v), "event_id", "string", "$.event_id");
        }
        let session =
            match get_str(Some(v), "session_id").or_else(|| get_str(Some(payload), "session_id")) {
                Some(s) => s.to_owned(),
                None => {
                    sink.require_warn(Some(v), "session_id", "string", "$.session_id");
                    self.last_session
                        .clone()
                        .unwrap_or_else(|| "session".to_owned())
                }
            };
        let own_ts = get_str(Some(v), "timestamp");
        if own_ts.is_none() {
            sink.require_warn(Some(v), "timestamp", "string", "$.timestamp");
        }
        let ts = clock.stamp(own_ts);
        sink.task = Some(session.clone());
        self.last_session = Some(session.clone());
        let cx = Cx {
            session: &session,
            ts: &ts,
            event_id,
            ty,
            root: v,
        };
        // Required payload members are checked before anything is applied.
        let mut missing = false;
        for key in required(ty) {
            if get_str(Some(payload), key).is_none() {
                sink.require_error(Some(payload), key, "string", &format!("$.payload.{key}"));
                missing = true;
            }
        }
        if missing {
            return;
        }
        // Order rule: after `session_ended` the session and everything in it ended (its root
        // task is terminal: the store would not reopen it either). Anything more of that
        // session, a second `session_started` included, is refused (`out-of-order`).
        if self.sessions.get(&session).is_some_and(|s| s.ended) {
            sink.error(
                DiagCode::OutOfOrder,
                format!("{ty} after session_ended of session {session} (not applied)"),
                "$.type",
            );
            return;
        }
        let new_session = self.ensure_session(&cx, payload, sink);
        match ty {
            "session_started" => self.session_started(&cx, payload, new_session, sink),
            "session_ended" => self.session_ended(&cx, payload, sink),
            "agent_message_start" | "agent_message_delta" | "agent_message_end" => {
                self.agent_message(&cx, payload, sink)
            }
            "tool_call_started" => self.tool_started(&cx, payload, sink),
            "tool_call_delta" => self.tool_delta(&cx, payload, sink),
            "tool_call_result" => self.tool_result(&cx, payload, sink),
            "workflow_started" | "workflow_transition" | "workflow_completed" => {
                self.workflow(&cx, payload, sink)
            }
            "workflow_step_started" | "workflow_step_completed" => self.step(&cx, payload, sink),
            "agent_thought" => self.thought(&cx, payload, sink),
            "run_error" => self.run_error(&cx, payload, sink),
            "run_retry" => self.run_retry(&cx, payload, sink),
            "run_interrupted" => self.run_interrupted(&cx, payload, sink),
            "retrieval_started" | "retrieval_result" => self.retrieval(&cx, payload, sink),
            "automation_triggered" | "automation_completed" => self.automation(&cx, payload, sink),
            "metrics_update" => self.metrics(&cx, payload, sink),
            other => sink.event(unknown_event(
                &format!("unified:{other}"),
                Some(&session),
                Some(&session),
                v,
            )),
        }
        if self.tools.len() > MAX_TRACKED {
            self.tools.clear();
        }
        if self.messages.len() > MAX_TRACKED {
            self.messages.clear();
        }
        if self.created.len() > MAX_TRACKED {
            self.created.clear();
        }
        if self.thoughts.len() > MAX_TRACKED {
            self.thoughts.clear();
        }
    }

    /// Creates the session's root task; `true` when it is new.
    fn ensure_session(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) -> bool {
        if self.sessions.contains(cx.session) {
            return false;
        }
        self.sessions.insert(cx.session, SessionTrack::default());
        self.sessions.bound(MAX_TRACKED, |_, s| !s.ended);
        let mut e = Obj::event("task-created", cx.session, cx.session);
        e.str("initiator", "user").str("timestamp", cx.ts);
        if cx.ty == "session_started" {
            let mut m = Obj::new();
            m.opt_str("agentId", get_str(Some(payload), "agent"));
            let mut u = Obj::new();
            u.opt_value("metadata", get(Some(payload), "metadata"));
            m.obj_if("unified", u);
            e.obj_if("metadata", m);
        }
        sink.event(e.finish());
        true
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
        let mut e = Obj::event("task-status", cx.session, task);
        e.str("status", status)
            .opt_str("message", message)
            .str("timestamp", cx.ts);
        e.obj_if("metadata", meta);
        sink.event(e.finish());
    }

    /// A sub-task of the session (created once).
    fn child(
        &mut self,
        cx: &Cx<'_>,
        task: &str,
        parent: &str,
        agent: Option<&str>,
        meta: Obj,
        sink: &mut Sink<'_>,
    ) -> bool {
        if self.created.contains(task) {
            return false;
        }
        self.created.insert(task, ());
        let mut e = Obj::event("task-created", cx.session, task);
        e.str("parentTaskId", parent)
            .str("initiator", "agent")
            .str("timestamp", cx.ts);
        let mut m = Obj::new();
        m.opt_str("agentId", agent);
        m.obj_if("unified", meta);
        e.obj_if("metadata", m);
        sink.event(e.finish());
        true
    }

    /// The task tools and thoughts attach to: the innermost running step, else the session.
    fn current(&self, session: &str) -> String {
        self.sessions
            .get(session)
            .and_then(|s| s.steps.last().cloned())
            .unwrap_or_else(|| session.to_owned())
    }

    fn need<'v>(&self, payload: &'v Value<'_>, key: &str, sink: &mut Sink<'_>) -> Option<&'v str> {
        let v = get_str(Some(payload), key);
        if v.is_none() {
            sink.require_error(Some(payload), key, "string", &format!("$.payload.{key}"));
        }
        v
    }

    fn session_started(
        &mut self,
        cx: &Cx<'_>,
        payload: &Value<'_>,
        new: bool,
        sink: &mut Sink<'_>,
    ) {
        let mut m = Obj::new();
        if !new {
            m.opt_str("agentId", get_str(Some(payload), "agent"));
        }
        m.obj("unified", cx.meta(payload, &["session_id"]));
        self.status(cx, cx.session, "working", None, m, sink);
    }

    fn session_ended(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let reason = get_str(Some(payload), "reason");
        let status = match reason.map(str::to_ascii_lowercase).as_deref() {
            Some("error" | "failed" | "failure") => "failed",
            Some(
                "cancelled" | "canceled" | "interrupted" | "user_stop" | "stopped" | "aborted",
            ) => "canceled",
            _ => "completed",
        };
        let mut m = Obj::new();
        m.opt_str("reason", reason);
        m.obj(
            "unified",
            cx.meta(payload, &["session_id", "reason", "summary"]),
        );
        // What still runs in the session ends with it (as `run_interrupted` does): steps
        // (innermost first), then runs, with the session's status.
        let (steps, runs) = match self.sessions.get_mut(cx.session) {
            Some(s) => {
                s.ended = true;
                (std::mem::take(&mut s.steps), std::mem::take(&mut s.runs))
            }
            None => (Vec::new(), Vec::new()),
        };
        for task in steps.iter().rev().chain(runs.iter()) {
            let mut r = Obj::new();
            if status != "completed" {
                r.opt_str("reason", reason);
            }
            self.status(cx, task, status, None, r, sink);
        }
        self.status(
            cx,
            cx.session,
            status,
            get_str(Some(payload), "summary"),
            m,
            sink,
        );
    }

    fn agent_message(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(mid) = self.need(payload, "message_id", sink) else {
            return;
        };
        let task = format!("msg:{mid}");
        sink.task = Some(task.clone());
        let agent = get_str(Some(payload), "agent");
        let existed = self.created.contains(&task);
        if existed && cx.ty == "agent_message_start" {
            // Order rule: a start after its own end reopens nothing (the message is complete);
            // a start after the message's first delta (which opened it) is applied late.
            if !self.messages.contains(&task) {
                sink.error(
                    DiagCode::OutOfOrder,
                    format!("agent_message_start of message {mid} after its agent_message_end (not applied)"),
                    "$.type",
                );
                return;
            }
            sink.warn(
                DiagCode::OutOfOrder,
                format!("agent_message_start of message {mid} after its content (applied)"),
                "$.type",
            );
        }
        let mut u = Obj::new();
        u.str("messageId", mid);
        let created = self.child(cx, &task, cx.session, agent, u, sink);
        if created {
            self.messages.insert(&task, MessageTrack::default());
        }
        if created || cx.ty == "agent_message_start" {
            let mut m = Obj::new();
            if cx.ty == "agent_message_start" {
                m.opt_str("agentId", agent);
                m.obj("unified", cx.meta(payload, &["message_id", "agent"]));
            }
            self.status(cx, &task, "working", None, m, sink);
        }
        match cx.ty {
            "agent_message_delta" => {
                let Some(delta) = self.need(payload, "delta", sink) else {
                    return;
                };
                let Some(t) = self.messages.entry(&task, MessageTrack::default) else {
                    return;
                };
                let idx = t.next;
                t.next += 1;
                let mut e = Obj::event("content-delta", cx.session, &task);
                e.str("delta", delta)
                    .num("index", idx as f64)
                    .str("timestamp", cx.ts);
                let mut m = Obj::new();
                m.obj("unified", cx.meta(payload, &["delta"]));
                e.obj("metadata", m);
                sink.event(e.finish());
            }
            "agent_message_end" => {
                let mut e = Obj::event("task-complete", cx.session, &task);
                e.opt_str("content", get_str(Some(payload), "content"))
                    .str("timestamp", cx.ts);
                let mut m = Obj::new();
                m.obj("unified", cx.meta(payload, &["content"]));
                e.obj("metadata", m);
                sink.event(e.finish());
                self.messages.remove(&task);
            }
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn tool_start(
        &mut self,
        cx: &Cx<'_>,
        id: &str,
        name: &str,
        args: Option<&Value<'_>>,
        provider: Option<&str>,
        meta: Obj,
        sink: &mut Sink<'_>,
    ) {
        let task = self.current(cx.session);
        self.tools.insert(
            id,
            ToolTrack {
                task: task.clone(),
                name: name.to_owned(),
            },
        );
        let mut e = Obj::event("tool-start", cx.session, &task);
        e.str("toolCallId", id).str("toolName", name);
        match args {
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
        m.opt_str("provider", provider);
        m.obj_if("unified", meta);
        e.obj_if("metadata", m);
        sink.event(e.finish());
    }

    #[allow(clippy::too_many_arguments)]
    fn tool_end(
        &mut self,
        cx: &Cx<'_>,
        id: &str,
        name: Option<&str>,
        success: bool,
        result: Option<&Value<'_>>,
        error: Option<&str>,
        meta: Obj,
        sink: &mut Sink<'_>,
    ) {
        let track = self.tools.remove(id);
        let task = track
            .as_ref()
            .map_or_else(|| self.current(cx.session), |t| t.task.clone());
        let mut e = Obj::event("tool-complete", cx.session, &task);
        e.str("toolCallId", id)
            .str(
                "toolName",
                name.or(track.as_ref().map(|t| t.name.as_str()))
                    .unwrap_or(""),
            )
            .bool("success", success)
            .opt_value("result", result)
            .opt_str("error", error)
            .str("timestamp", cx.ts);
        let mut m = Obj::new();
        m.obj_if("unified", meta);
        e.obj_if("metadata", m);
        sink.event(e.finish());
    }

    fn tool_started(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(id) = self.need(payload, "tool_call_id", sink) else {
            return;
        };
        let Some(name) = self.need(payload, "tool_name", sink) else {
            return;
        };
        let meta = cx.meta(payload, &["tool_call_id", "tool_name", "args", "agent"]);
        self.tool_start(
            cx,
            id,
            name,
            get(Some(payload), "args"),
            get_str(Some(payload), "agent"),
            meta,
            sink,
        );
    }

    fn tool_delta(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(id) = self.need(payload, "tool_call_id", sink) else {
            return;
        };
        let Some(delta) = self.need(payload, "delta", sink) else {
            return;
        };
        let task = self
            .tools
            .get(id)
            .map_or_else(|| self.current(cx.session), |t| t.task.clone());
        let mut e = Obj::event("tool-progress", cx.session, &task);
        e.str("toolCallId", id)
            .num("progress", 0.0)
            .str("message", delta)
            .str("timestamp", cx.ts);
        let meta = cx.meta(payload, &["tool_call_id", "delta"]);
        let mut m = Obj::new();
        m.obj("unified", meta);
        e.obj("metadata", m);
        sink.event(e.finish());
    }

    fn tool_result(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(id) = self.need(payload, "tool_call_id", sink) else {
            return;
        };
        let error = get_str(Some(payload), "error");
        let success = error.is_none() && get_bool(Some(payload), "success") != Some(false);
        let meta = cx.meta(payload, &["tool_call_id", "tool_name", "result", "error"]);
        self.tool_end(
            cx,
            id,
            get_str(Some(payload), "tool_name"),
            success,
            get(Some(payload), "result"),
            error,
            meta,
            sink,
        );
    }

    fn ensure_run(
        &mut self,
        cx: &Cx<'_>,
        run: &str,
        payload: &Value<'_>,
        sink: &mut Sink<'_>,
    ) -> String {
        let task = format!("run:{run}");
        let mut u = Obj::new();
        u.str("runId", run)
            .opt_str("workflow", get_str(Some(payload), "workflow"));
        if self.child(cx, &task, cx.session, None, u, sink) {
            let workflow = get_str(Some(payload), "workflow");
            let mut m = Obj::new();
            if cx.ty == "workflow_started" {
                m.obj("unified", cx.meta(payload, &["run_id", "workflow"]));
            }
            self.status(cx, &task, "working", workflow, m, sink);
            if let Some(s) = self.sessions.get_mut(cx.session) {
                s.runs.push(task.clone());
            }
        }
        task
    }

    fn workflow(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(run) = self.need(payload, "run_id", sink) else {
            return;
        };
        let existed = self.created.contains(&format!("run:{run}"));
        let task = self.ensure_run(cx, run, payload, sink);
        sink.task = Some(task.clone());
        match cx.ty {
            "workflow_started" if existed => {
                let running = self
                    .sessions
                    .get(cx.session)
                    .is_some_and(|s| s.runs.contains(&task));
                if !running {
                    // Order rule: a start after its own end (not applied).
                    sink.error(
                        DiagCode::OutOfOrder,
                        format!("workflow_started of run {run} after it ended (not applied)"),
                        "$.type",
                    );
                    return;
                }
                let mut m = Obj::new();
                m.obj("unified", cx.meta(payload, &["run_id"]));
                let workflow = get_str(Some(payload), "workflow");
                self.status(cx, &task, "working", workflow, m, sink);
            }
            "workflow_transition" => {
                let from = get_str(Some(payload), "from_step").unwrap_or("?");
                let to = get_str(Some(payload), "to_step").unwrap_or("?");
                let mut msg = format!("{from} → {to}");
                if let Some(r) = get_str(Some(payload), "reason") {
                    msg.push_str(&format!(" ({r})"));
                }
                let mut m = Obj::new();
                m.obj("unified", cx.meta(payload, &["run_id"]));
                self.status(cx, &task, "working", Some(&msg), m, sink);
            }
            "workflow_completed" => {
                let result = get(Some(payload), "result");
                let content =
                    result.and_then(|r| r.as_str().or_else(|| get_str(Some(r), "summary")));
                let mut e = Obj::event("task-complete", cx.session, &task);
                e.opt_str("content", content).str("timestamp", cx.ts);
                let mut m = Obj::new();
                m.obj("unified", cx.meta(payload, &["run_id"]));
                e.obj("metadata", m);
                sink.event(e.finish());
                let prefix = format!("step:{run}/");
                if let Some(s) = self.sessions.get_mut(cx.session) {
                    s.steps.retain(|x| !x.starts_with(&prefix));
                    s.runs.retain(|x| *x != task);
                }
            }
            _ => {}
        }
    }

    fn step(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(run) = self.need(payload, "run_id", sink) else {
            return;
        };
        let Some(step) = self.need(payload, "step_id", sink) else {
            return;
        };
        let run_task = self.ensure_run(cx, run, payload, sink);
        let task = step_task(run, step);
        sink.task = Some(task.clone());
        if cx.ty == "workflow_step_started" {
            let description = get_str(Some(payload), "description");
            if !self.created.contains(&task) {
                self.created.insert(&task, ());
                let mut e = Obj::event("subtask-created", cx.session, &run_task);
                e.str("subtaskId", &task)
                    .str("prompt", description.unwrap_or(step))
                    .str("timestamp", cx.ts);
                sink.event(e.finish());
            }
            let mut m = Obj::new();
            m.obj("unified", cx.meta(payload, &["run_id", "description"]));
            self.status(cx, &task, "working", description, m, sink);
            if let Some(s) = self.sessions.get_mut(cx.session) {
                s.steps.retain(|x| *x != task);
                s.steps.push(task);
            }
        } else {
            let output = get(Some(payload), "output");
            let mut e = Obj::event("task-complete", cx.session, &task);
            e.opt_str("content", output.and_then(Value::as_str))
                .str("timestamp", cx.ts);
            let mut m = Obj::new();
            m.obj("unified", cx.meta(payload, &["run_id"]));
            e.obj("metadata", m);
            sink.event(e.finish());
            if let Some(s) = self.sessions.get_mut(cx.session) {
                s.steps.retain(|x| *x != task);
            }
        }
    }

    fn thought(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(content) = self.need(payload, "content", sink) else {
            return;
        };
        let task = self.current(cx.session);
        if get_bool(Some(payload), "debug") == Some(true) {
            // The whole event (its `event_id`, `timestamp` and payload), as for other unknowns.
            sink.event(unknown_event(
                "internal:unified:agent_thought",
                Some(cx.session),
                Some(&task),
                cx.root,
            ));
            return;
        }
        let Some(n) = self.thoughts.entry(&task, || 0) else {
            return;
        };
        let idx = *n;
        *n += 1;
        let mut e = Obj::event("thought-stream", cx.session, &task);
        e.str("thoughtId", &format!("{task}#thought-{idx}"))
            .str("thoughtType", "reasoning")
            .str("verbosity", "normal")
            .str("content", content)
            .num("index", idx as f64)
            .str("timestamp", cx.ts);
        let mut m = Obj::new();
        m.obj("unified", cx.meta(payload, &["content"]));
        e.obj("metadata", m);
        sink.event(e.finish());
    }

    /// The open step task a payload's `step` names, if any.
    fn named_step(&self, session: &str, step: Option<&str>) -> Option<String> {
        let step = step?;
        self.sessions
            .get(session)?
            .steps
            .iter()
            .find(|t| t.rsplit('/').next() == Some(step))
            .cloned()
    }

    fn run_error(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let message = get_str(Some(payload), "message");
        if message.is_none() {
            sink.require_warn(Some(payload), "message", "string", "$.payload.message");
        }
        let kind = get_str(Some(payload), "error_type").unwrap_or("error");
        let mut text = format!("{kind}: {}", message.unwrap_or("(no message)"));
        if let Some(a) = get_str(Some(payload), "agent") {
            text.push_str(&format!(" (agent {a}"));
            if let Some(s) = get_str(Some(payload), "step") {
                text.push_str(&format!(", step {s}"));
            }
            text.push(')');
        }
        sink.warn(DiagCode::AgentError, text.clone(), "$.payload");
        if let Some(task) = self.named_step(cx.session, get_str(Some(payload), "step")) {
            let mut m = Obj::new();
            m.opt_str("reason", message);
            m.obj("unified", cx.meta(payload, &[]));
            self.status(cx, &task, "failed", message, m, sink);
            if let Some(s) = self.sessions.get_mut(cx.session) {
                s.steps.retain(|x| *x != task);
            }
        } else {
            // No open step named: the run goes on (a `run_retry` may follow); the error is the
            // session's status message, its members in `metadata.unified` (not only in a
            // diagnostic).
            let mut m = Obj::new();
            m.obj("unified", cx.meta(payload, &[]));
            self.status(cx, cx.session, "working", Some(&text), m, sink);
        }
    }

    fn run_retry(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let count = get_num(Some(payload), "retry_count");
        let max = get_num(Some(payload), "max_retries");
        let mut msg = match (count, max) {
            (Some(c), Some(m)) => {
                format!("retry {} of {}", crate::json::Num(c), crate::json::Num(m))
            }
            (Some(c), None) => format!("retry {}", crate::json::Num(c)),
            _ => "retry".to_owned(),
        };
        if let Some(r) = get_str(Some(payload), "reason") {
            msg.push_str(": ");
            msg.push_str(r);
        }
        let mut m = Obj::new();
        m.obj("unified", cx.meta(payload, &[]));
        self.status(cx, cx.session, "working", Some(&msg), m, sink);
    }

    fn run_interrupted(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let reason = get_str(Some(payload), "reason");
        // Everything still running in the session stops: steps (innermost first), then runs.
        let (steps, runs) = match self.sessions.get_mut(cx.session) {
            Some(s) => (std::mem::take(&mut s.steps), std::mem::take(&mut s.runs)),
            None => (Vec::new(), Vec::new()),
        };
        for task in steps.iter().rev().chain(runs.iter()) {
            let mut m = Obj::new();
            m.opt_str("reason", reason);
            self.status(cx, task, "canceled", None, m, sink);
        }
        let mut m = Obj::new();
        m.opt_str("reason", reason);
        m.obj("unified", cx.meta(payload, &["reason"]));
        self.status(cx, cx.session, "canceled", reason, m, sink);
    }

    fn next_call(&mut self, session: &str, what: &str) -> String {
        let n = self.sessions.get_mut(session).map_or(0, |s| {
            s.calls += 1;
            s.calls
        });
        format!("{session}#{what}-{n}")
    }

    fn retrieval(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        if cx.ty == "retrieval_started" {
            if get_str(Some(payload), "query").is_none() {
                sink.require_warn(Some(payload), "query", "string", "$.payload.query");
            }
            let id = self.next_call(cx.session, "retrieval");
            if let Some(s) = self.sessions.get_mut(cx.session) {
                s.retrievals.push(id.clone());
            }
            let meta = cx.meta(payload, &["query", "agent"]);
            let mut args = Obj::new();
            args.opt_value("query", get(Some(payload), "query"));
            let args = crate::json::parse(&args.finish())
                .unwrap_or_default()
                .into_owned();
            self.tool_start(
                cx,
                &id,
                "retrieval",
                Some(&args),
                get_str(Some(payload), "agent"),
                meta,
                sink,
            );
        } else {
            if get(Some(payload), "documents")
                .and_then(Value::as_array)
                .is_none()
            {
                sink.require_warn(Some(payload), "documents", "array", "$.payload.documents");
            }
            let open = self
                .sessions
                .get_mut(cx.session)
                .and_then(|s| (!s.retrievals.is_empty()).then(|| s.retrievals.remove(0)));
            let id = open.unwrap_or_else(|| self.next_call(cx.session, "retrieval"));
            self.tool_end(
                cx,
                &id,
                Some("retrieval"),
                true,
                Some(payload),
                None,
                cx.meta(payload, &["documents"]),
                sink,
            );
        }
    }

    fn automation(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(workflow) = self.need(payload, "workflow", sink) else {
            return;
        };
        if cx.ty == "automation_triggered" {
            let id = self.next_call(cx.session, &format!("automation-{workflow}"));
            if let Some(s) = self.sessions.get_mut(cx.session) {
                s.automations.push((workflow.to_owned(), id.clone()));
            }
            let mut args = Obj::new();
            args.rest(members(Some(payload)), &["workflow"]);
            let args = crate::json::parse(&args.finish())
                .unwrap_or_default()
                .into_owned();
            self.tool_start(
                cx,
                &id,
                workflow,
                Some(&args),
                Some("n8n"),
                cx.meta(payload, &["workflow"]),
                sink,
            );
        } else {
            let open = self.sessions.get_mut(cx.session).and_then(|s| {
                let i = s.automations.iter().position(|(w, _)| w == workflow)?;
                Some(s.automations.remove(i).1)
            });
            let id = open
                .unwrap_or_else(|| self.next_call(cx.session, &format!("automation-{workflow}")));
            let error = get_str(Some(payload), "error");
            let meta = cx.meta(payload, &["workflow", "result", "error"]);
            self.tool_end(
                cx,
                &id,
                Some(workflow),
                error.is_none(),
                get(Some(payload), "result"),
                error,
                meta,
                sink,
            );
        }
    }

    fn metrics(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let version = self.sessions.get_mut(cx.session).map_or(1, |s| {
            s.metrics_version += 1;
            s.metrics_version
        });
        let mut e = Obj::event("data-write", cx.session, cx.session);
        e.str("artifactId", &format!("{}#metrics", cx.session))
            .str("name", "metrics")
            .value("data", payload)
            .str("timestamp", cx.ts);
        let mut m = Obj::new();
        m.num("version", version as f64);
        let mut u = Obj::new();
        u.opt_str("eventId", cx.event_id).str("type", cx.ty);
        m.obj_if("unified", u);
        e.obj("metadata", m);
        sink.event(e.finish());
    }
}
