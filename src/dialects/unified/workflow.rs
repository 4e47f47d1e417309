//! Unified workflows and runs: `workflow_*` (a run sub-task and its steps) and `run_error`,
//! `run_retry`, `run_interrupted`.

use super::{step_task, Cx, UnifiedDecoder};
use crate::dialects::emit::{get, get_num, get_str, Obj, Sink};
use crate::events::DiagCode;
use crate::json::Value;

impl UnifiedDecoder {
    pub(super) fn ensure_run(
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

    pub(super) fn workflow(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
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

    pub(super) fn step(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
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

    /// The open step task a payload's `step` names, if any.
    pub(super) fn named_step(&self, session: &str, step: Option<&str>) -> Option<String> {
        let step = step?;
        self.sessions
            .get(session)?
            .steps
            .iter()
            .find(|t| t.rsplit('/').next() == Some(step))
            .cloned()
    }

    pub(super) fn run_error(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
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

    pub(super) fn run_retry(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
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

    pub(super) fn run_interrupted(
        &mut self,
        cx: &Cx<'_>,
        payload: &Value<'_>,
        sink: &mut Sink<'_>,
    ) {
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
}
