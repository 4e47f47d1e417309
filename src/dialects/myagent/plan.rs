//! `plan.*` events: the plan task of a turn, its plan tasks, and their state as the
//! solver moves through them.

use super::{Cx, MyAgentDecoder};
use crate::dialects::emit::{as_count, get, get_num, get_str, members, Obj, Sink};
use crate::dialects::unknown_event;
use crate::events::DiagCode;
use crate::json::Value;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) enum PlanState {
    #[default]
    Pending,
    Working,
    Done,
}

impl MyAgentDecoder {
    pub(super) fn plan_event(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
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

    pub(super) fn plan_task_state(
        &mut self,
        cx: &Cx<'_>,
        i: usize,
        to: PlanState,
        sink: &mut Sink<'_>,
    ) {
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
}
