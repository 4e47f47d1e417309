//! Runs, steps and sub-agents: the lifecycle rules of the official verifier (WIRE.md §6) and
//! the interrupts a run ends with.

use super::super::emit::{get, get_str, Obj, Sink};
use super::{ag_meta, AgUiDecoder, Cx, Interrupt, Phase, Ty};
use crate::events::DiagCode;
use crate::json::Value;

impl AgUiDecoder {
    /// The run-level order rules; `false` (with an error) when the event may not come now.
    pub(super) fn check_run_order(&mut self, t: Ty, v: &Value<'_>, sink: &mut Sink<'_>) -> bool {
        let ty = t.name();
        let refuse = |sink: &mut Sink<'_>, msg: String| {
            sink.error(
                DiagCode::OutOfOrder,
                format!("{msg} (not applied)"),
                "$.type",
            );
            false
        };
        match (self.phase, t) {
            (Phase::Active, Ty::RunStarted) => refuse(sink, "Cannot send 'RUN_STARTED' while a run is still active. The previous run must be finished with 'RUN_FINISHED' before starting a new run.".to_owned()),
            (_, Ty::RunStarted) => true,
            (Phase::Idle, Ty::RunError) => {
                // An error before any run (a server refusing the request): a run of its own.
                let thread = get_str(Some(v), "threadId").unwrap_or("ag-ui");
                let run = get_str(Some(v), "runId").unwrap_or("run");
                self.begin(thread, run, None, "", sink);
                true
            }
            (Phase::Idle, _) => refuse(sink, "First event must be 'RUN_STARTED'".to_owned()),
            (Phase::Errored, _) => refuse(sink, format!("Cannot send event type '{ty}': The run has already errored with 'RUN_ERROR'. No further events can be sent.")),
            (Phase::Finished, Ty::RunError) => true,
            (Phase::Finished, _) => refuse(sink, format!("Cannot send event type '{ty}': The run has already finished with 'RUN_FINISHED'. Start a new run with 'RUN_STARTED'.")),
            (Phase::Active, _) => true,
        }
    }

    pub(super) fn run_started(&mut self, v: &Value<'_>, ts: &str, sink: &mut Sink<'_>) {
        let (Some(thread), Some(run)) = (get_str(Some(v), "threadId"), get_str(Some(v), "runId"))
        else {
            return;
        };
        let parent = get_str(Some(v), "parentRunId");
        self.begin(thread, run, parent, ts, sink);
        // The messages the client sent and the run's input echo that the thread has not
        // seen (the user's new message), then the state the client sent.
        let sent = self.sent.take();
        let sent_messages = sent
            .as_ref()
            .and_then(|i| i.get("messages"))
            .and_then(Value::as_array);
        let echoed = v
            .get("input")
            .and_then(|i| i.get("messages"))
            .and_then(Value::as_array);
        for m in sent_messages
            .unwrap_or_default()
            .iter()
            .chain(echoed.unwrap_or_default())
        {
            let Some(id) = get_str(Some(m), "id") else {
                continue;
            };
            if self.messages.contains(id) {
                continue;
            }
            let role = get_str(Some(m), "role").and_then(crate::events::MessageRole::parse);
            if let Some(role) = role {
                self.track_message(id, run, role, false, None);
            }
            let mut e = Obj::event("message-upsert", thread, run);
            e.value("message", m).str("timestamp", ts);
            sink.event(e.finish());
        }
        let state = sent
            .as_ref()
            .and_then(|i| get(Some(i), "state"))
            .or_else(|| v.get("input").and_then(|i| get(Some(i), "state")));
        if let Some(state) = state {
            let mut e = Obj::event("state-snapshot", thread, run);
            e.value("snapshot", state).str("timestamp", ts);
            sink.event(e.finish());
        }
    }

    /// The runs that ended with interrupts are complete once the run that resumed them ends
    /// (a tool result or answer may still reach them during that run).
    fn complete_interrupted(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
        for old in std::mem::take(&mut self.interrupted) {
            if old == cx.run {
                continue;
            }
            let mut e = Obj::event("task-status", cx.thread, &old);
            e.str("status", "completed")
                .str("message", &format!("resumed by run {}", cx.run))
                .str("timestamp", cx.ts);
            sink.event(e.finish());
        }
    }

    /// Starts run `run` of `thread`.
    fn begin(
        &mut self,
        thread: &str,
        run: &str,
        parent: Option<&str>,
        ts: &str,
        sink: &mut Sink<'_>,
    ) {
        let ts = if ts.is_empty() {
            super::super::clock::EPOCH
        } else {
            ts
        };
        self.thread = Some(thread.to_owned());
        self.run = Some(run.to_owned());
        self.phase = Phase::Active;
        self.steps.clear();
        self.lanes.clear();
        self.subagents.clear();
        sink.task = Some(run.to_owned());
        let mut e = Obj::event("task-created", thread, run);
        e.opt_str("parentTaskId", parent)
            .str("initiator", "user")
            .str("timestamp", ts);
        let mut status = Obj::event("task-status", thread, run);
        status.str("status", "working").str("timestamp", ts);
        sink.event(e.finish());
        sink.event(status.finish());
    }

    /// Closes what the run left open (a diagnostic each, as the official verifier refuses the
    /// end): messages end, tool calls' arguments end, sub-agents stay as they are.
    fn close_open(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
        let open: Vec<(String, String, crate::events::MessageRole)> = self
            .messages
            .iter()
            .filter(|(_, m)| m.open)
            .map(|(id, m)| (id.to_owned(), m.task.clone(), m.role))
            .collect();
        if !open.is_empty() {
            let ids: Vec<&str> = open.iter().map(|(id, ..)| id.as_str()).collect();
            let what = if open
                .iter()
                .all(|(.., r)| *r == crate::events::MessageRole::Reasoning)
            {
                "reasoning messages"
            } else {
                "text messages"
            };
            sink.error(
                DiagCode::OutOfOrder,
                format!(
                    "Cannot send \'{}\' while {what} are still active: {} (ended here)",
                    cx.ty,
                    ids.join(", ")
                ),
                "$.type",
            );
            for (id, task, _) in open {
                self.end_message(cx, &id, &task, sink);
            }
        }
        let tools: Vec<(String, String)> = self
            .tools
            .iter()
            .filter(|(_, t)| t.open)
            .map(|(id, t)| (id.to_owned(), t.task.clone()))
            .collect();
        if !tools.is_empty() {
            let ids: Vec<&str> = tools.iter().map(|(id, _)| id.as_str()).collect();
            sink.error(DiagCode::OutOfOrder, format!("Cannot send \'{}\' while tool calls are still active: {} (their arguments end here)", cx.ty, ids.join(", ")), "$.type");
            for (id, task) in tools {
                self.end_tool_args(cx, &id, &task, sink);
            }
        }
        if !self.steps.is_empty() {
            let names: Vec<&str> = self.steps.iter().map(|(_, n)| n.as_str()).collect();
            sink.warn(
                DiagCode::OutOfOrder,
                format!(
                    "Cannot send '{}' while steps are still active: {}",
                    cx.ty,
                    names.join(", ")
                ),
                "$.type",
            );
            self.steps.clear();
        }
        let running: Vec<String> = self
            .subagents
            .iter()
            .filter(|(_, r)| **r)
            .map(|(id, _)| id.to_owned())
            .collect();
        if !running.is_empty() && cx.t == Ty::RunFinished {
            sink.warn(
                DiagCode::OutOfOrder,
                format!(
                    "Cannot send 'RUN_FINISHED' while subagents are still active: {}",
                    running.join(", ")
                ),
                "$.type",
            );
        }
        self.spans.clear();
    }

    pub(super) fn run_finished(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        if get_str(Some(v), "runId") != Some(cx.run) {
            sink.warn(
                DiagCode::OutOfOrder,
                format!(
                    "RUN_FINISHED names run {} but run {} is active (applied to the active run)",
                    get_str(Some(v), "runId").unwrap_or_default(),
                    cx.run
                ),
                "$.runId",
            );
        }
        self.close_open(cx, sink);
        self.complete_interrupted(cx, sink);
        self.phase = Phase::Finished;
        let outcome = get(Some(v), "outcome");
        let kind = outcome
            .and_then(|o| get_str(Some(o), "type"))
            .unwrap_or("success");
        match kind {
            "interrupt" => self.interrupt(cx, v, outcome, sink),
            "cancelled" => {
                let mut e = cx.run_event("task-status");
                e.str("status", "canceled").str("timestamp", cx.ts);
                e.obj_if("metadata", ag_meta(v, &["outcome", "usage"]));
                sink.event(e.finish());
            }
            other => {
                if other != "success" {
                    sink.warn(DiagCode::InvalidEnum, format!("outcome.type {other} is not success, interrupt or cancelled: read as success"), "$.outcome.type");
                }
                let pending = self.pending_tool_calls();
                let mut a = Obj::new();
                for k in ["result", "outcome", "usage"] {
                    if let Some(x) = get(Some(v), k) {
                        a.value(k, x);
                    }
                }
                let listed = outcome
                    .and_then(|o| o.get("pendingToolCallIds"))
                    .and_then(Value::as_array)
                    .filter(|l| !l.is_empty());
                match listed {
                    Some(l) => {
                        a.value("pendingToolCallIds", &Value::Array(l.to_vec()));
                    }
                    None => {
                        a.str_array("pendingToolCallIds", pending.iter().map(String::as_str));
                    }
                }
                let mut m = Obj::new();
                m.obj("agUi", a);
                let mut e = cx.run_event("task-complete");
                e.str("timestamp", cx.ts).obj("metadata", m);
                sink.event(e.finish());
            }
        }
    }

    fn interrupt(
        &mut self,
        cx: &Cx<'_>,
        v: &Value<'_>,
        outcome: Option<&Value<'_>>,
        sink: &mut Sink<'_>,
    ) {
        let list = outcome
            .and_then(|o| o.get("interrupts"))
            .and_then(Value::as_array)
            .unwrap_or_default();
        if list.is_empty() {
            sink.error(DiagCode::MissingField, "outcome.interrupts: an interrupt outcome needs at least one interrupt (the run ends without one)".to_owned(), "$.outcome.interrupts");
        }
        self.interrupts.clear();
        for (i, it) in list.iter().enumerate() {
            let (Some(id), Some(reason)) = (get_str(Some(it), "id"), get_str(Some(it), "reason"))
            else {
                sink.error(
                    DiagCode::MissingField,
                    "interrupt: id and reason are required (this interrupt is skipped)".to_owned(),
                    &format!("$.outcome.interrupts[{i}]"),
                );
                continue;
            };
            let tool = get_str(Some(it), "toolCallId");
            let schema = get(Some(it), "responseSchema");
            let input_type = match (schema, tool) {
                (Some(_), _) => "custom",
                (None, Some(_)) => "confirmation",
                (None, None) => "clarification",
            };
            let task = get_str(Some(it), "subagentRunId")
                .filter(|s| self.subagents.contains(s))
                .unwrap_or(cx.run);
            let mut e = Obj::event("input-required", cx.thread, task);
            e.str("inputId", id)
                .bool("requireUser", true)
                .str("inputType", input_type)
                .str("prompt", get_str(Some(it), "message").unwrap_or(reason))
                .opt_value("schema", schema)
                .str("timestamp", cx.ts);
            let mut a = Obj::new();
            a.rest(super::super::emit::members(Some(it)), &[]);
            let mut m = Obj::new();
            if let Some(t) = tool {
                let mut call = Obj::new();
                call.str("toolCallId", t);
                if let Some(track) = self.tools.get(t) {
                    call.str("name", &track.name);
                }
                m.obj("toolCall", call);
            }
            m.obj("agUi", a);
            e.obj("metadata", m);
            sink.event(e.finish());
            self.interrupts.push(Interrupt {
                id: id.to_owned(),
                run_id: cx.run.to_owned(),
                tool_call_id: tool.map(str::to_owned),
                expires_at: get_str(Some(it), "expiresAt").map(str::to_owned),
            });
        }
        let mut e = cx.run_event("task-status");
        e.str("status", "waiting-input").str("timestamp", cx.ts);
        let mut m = ag_meta(v, &["outcome", "usage"]);
        m.str("blockedBy", "user");
        e.obj("metadata", m);
        sink.event(e.finish());
        self.interrupted.push(cx.run.to_owned());
    }

    pub(super) fn run_error(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        self.phase = Phase::Errored;
        self.complete_interrupted(cx, sink);
        // Open messages keep their text (the official client keeps it too) and end here.
        let open: Vec<(String, String)> = self
            .messages
            .iter()
            .filter(|(_, m)| m.open)
            .map(|(id, m)| (id.to_owned(), m.task.clone()))
            .collect();
        for (id, task) in open {
            self.end_message(cx, &id, &task, sink);
        }
        let mut e = cx.run_event("task-status");
        e.str("status", "failed")
            .opt_str("message", get_str(Some(v), "message"))
            .str("timestamp", cx.ts);
        let mut m = ag_meta(v, &["code", "usage"]);
        m.opt_str("reason", get_str(Some(v), "code"));
        e.obj("metadata", m);
        sink.event(e.finish());
        sink.warn(
            DiagCode::AgentError,
            format!(
                "the run failed: {}",
                get_str(Some(v), "message").unwrap_or_default()
            ),
            "$.message",
        );
    }

    pub(super) fn step(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let name = get_str(Some(v), "stepName").unwrap_or_default();
        let owner = cx.owner.map(str::to_owned);
        let at = self
            .steps
            .iter()
            .position(|(o, n)| n == name && *o == owner);
        if cx.t == Ty::StepStarted {
            if at.is_some() {
                let sub = owner
                    .as_deref()
                    .map(|o| format!(" in subagent '{o}'"))
                    .unwrap_or_default();
                sink.error(
                    DiagCode::OutOfOrder,
                    format!(
                        "Step \"{name}\" is already active for 'STEP_STARTED'{sub} (not applied)"
                    ),
                    "$.stepName",
                );
                return;
            }
            self.steps.push((owner, name.to_owned()));
        } else {
            let Some(i) = at else {
                sink.error(DiagCode::OutOfOrder, format!("Cannot send 'STEP_FINISHED' for step \"{name}\" that was not started (not applied)"), "$.stepName");
                return;
            };
            self.steps.remove(i);
        }
        self.pass_through(cx, v, sink);
    }

    pub(super) fn subagent_started(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(id) = get_str(Some(v), "subagentRunId") else {
            return;
        };
        match self.subagents.get(id) {
            Some(true) => {
                sink.error(DiagCode::OutOfOrder, format!("Cannot send 'SUBAGENT_STARTED': subagent '{id}' is already active (not applied)"), "$.subagentRunId");
                return;
            }
            Some(false) => {
                sink.error(DiagCode::OutOfOrder, format!("Cannot send 'SUBAGENT_STARTED': subagent '{id}' has already finished in this run (not applied)"), "$.subagentRunId");
                return;
            }
            None => {}
        }
        let parent = match get_str(Some(v), "parentSubagentRunId") {
            Some(p) if self.subagents.contains(p) => p.to_owned(),
            Some(p) => {
                sink.error(DiagCode::OutOfOrder, format!("Cannot send 'SUBAGENT_STARTED': parentSubagentRunId '{p}' has not been started in this run (not applied)"), "$.parentSubagentRunId");
                return;
            }
            None => cx.run.to_owned(),
        };
        self.subagents.insert(id, true);
        sink.task = Some(id.to_owned());
        let name = get_str(Some(v), "name").unwrap_or_default();
        let prompt = get_str(Some(v), "description").unwrap_or(name);
        let mut s = Obj::event("subtask-created", cx.thread, &parent);
        s.str("subtaskId", id)
            .str("agentId", name)
            .str("prompt", prompt)
            .str("timestamp", cx.ts);
        s.obj_if(
            "metadata",
            ag_meta(v, &["parentToolCallId", "parentMessageId", "description"]),
        );
        let mut c = Obj::event("task-created", cx.thread, id);
        c.str("parentTaskId", &parent)
            .str("initiator", "agent")
            .str("timestamp", cx.ts);
        let mut cm = Obj::new();
        cm.str("agentId", name);
        c.obj("metadata", cm);
        let mut w = Obj::event("task-status", cx.thread, id);
        w.str("status", "working").str("timestamp", cx.ts);
        sink.event(s.finish());
        sink.event(c.finish());
        sink.event(w.finish());
    }

    pub(super) fn subagent_ended(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(id) = get_str(Some(v), "subagentRunId") else {
            return;
        };
        if self.subagents.get(id) != Some(&true) {
            sink.error(DiagCode::OutOfOrder, format!("Cannot send '{}': no active subagent found with ID '{id}'. A 'SUBAGENT_STARTED' event must be sent first. (not applied)", cx.ty), "$.subagentRunId");
            return;
        }
        self.subagents.insert(id, false);
        sink.task = Some(id.to_owned());
        if cx.t == Ty::SubagentError {
            let mut e = Obj::event("task-status", cx.thread, id);
            e.str("status", "failed")
                .opt_str("message", get_str(Some(v), "message"))
                .str("timestamp", cx.ts);
            let mut m = ag_meta(v, &["code"]);
            m.opt_str("reason", get_str(Some(v), "code"));
            e.obj("metadata", m);
            sink.event(e.finish());
            return;
        }
        let outcome = get(Some(v), "outcome");
        match outcome
            .and_then(|o| get_str(Some(o), "type"))
            .unwrap_or("success")
        {
            "suspended" => {
                let mut e = Obj::event("task-status", cx.thread, id);
                e.str("status", "waiting-input").str("timestamp", cx.ts);
                let mut m = ag_meta(v, &["outcome", "result"]);
                m.str("blockedBy", "user");
                e.obj("metadata", m);
                sink.event(e.finish());
            }
            "success" => {
                let mut e = Obj::event("task-complete", cx.thread, id);
                e.str("timestamp", cx.ts);
                e.obj_if("metadata", ag_meta(v, &["outcome", "result"]));
                sink.event(e.finish());
            }
            other => {
                sink.error(DiagCode::InvalidEnum, format!("Cannot send 'SUBAGENT_FINISHED' with outcome type '{other}'. The outcome is either {{ type: \"success\" }} or {{ type: \"suspended\" }}. (not applied)"), "$.outcome.type");
                self.subagents.insert(id, true);
            }
        }
    }
}
