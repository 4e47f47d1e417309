//! `solver.*` events: the `solver` tool call of a turn (start, progress, retries,
//! failed steps, completion) and the plan tasks it advances.

use super::{Cx, MyAgentDecoder, PlanState};
use crate::dialects::emit::{as_count, get, get_num, get_str, members, Obj, Sink};
use crate::dialects::unknown_event;
use crate::events::DiagCode;
use crate::json::Value;

impl MyAgentDecoder {
    pub(super) fn solver_id(&mut self, cx: &Cx<'_>, turn: &str) -> String {
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

    pub(super) fn solver_progress(
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

    pub(super) fn solver_event(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
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
            "solver.progress" => self.solver_progress_event(cx, &turn, sink),
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

    /// `solver.progress`: `tool-progress` of the solver call; plan tasks follow its steps when they
    /// correspond one to one.
    fn solver_progress_event(&mut self, cx: &Cx<'_>, turn: &str, sink: &mut Sink<'_>) {
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
        self.solver_progress(cx, turn, progress, current, m, sink);
        // Plan tasks follow the solver's steps when they correspond one to one.
        if let (Some(c), Some(t)) = (completed, total) {
            if t as usize == self.plan.len() {
                for i in 0..(c as usize).min(self.plan.len()) {
                    self.plan_task_state(cx, i, PlanState::Done, sink);
                }
                if let Some(cur) = as_count(get(cx.meta, "current_step")) {
                    if cur >= 1 && cur as usize > c as usize {
                        self.plan_task_state(cx, cur as usize - 1, PlanState::Working, sink);
                    }
                }
            }
        }
    }
}
