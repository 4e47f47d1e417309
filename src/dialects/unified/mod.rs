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

mod tools;
mod workflow;

use super::emit::{get, get_bool, get_str, members, Clock, Obj, Sink};
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
