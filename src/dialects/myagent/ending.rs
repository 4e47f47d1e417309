//! The end of a MyAgent turn that did not finish: the parts it started (plan, plan tasks, the
//! solver, tool calls) end with it, in a state that says they did not finish. MyAgent sends no
//! event of its own for them: without this they would stay `working` / running forever.

use super::{Cx, MyAgentDecoder, PlanState, MAX_STEPS};
use crate::dialects::emit::{Obj, Sink};

impl MyAgentDecoder {
    /// Records that tool call `id` of the current turn started (`true`) or got its result.
    pub(super) fn note_turn_tool(&mut self, id: &str, started: bool) {
        self.turn_tools.retain(|t| t != id);
        if started {
            if self.turn_tools.len() >= MAX_STEPS {
                self.turn_tools.remove(0);
            }
            self.turn_tools.push(id.to_owned());
        }
    }

    /// Ends the unfinished parts of `turn`, which ends `status` (`failed` or `canceled`)
    /// because of `why`: plan tasks not done, then the plan task, get that status; the running
    /// solver and tool calls a failed `tool-complete`. Emitted before the turn's own status
    /// (nothing is applied to a task after it ended).
    pub(super) fn end_unfinished(
        &mut self,
        cx: &Cx<'_>,
        turn: &str,
        status: &str,
        why: &str,
        sink: &mut Sink<'_>,
    ) {
        let reason = format!("the turn ended {status} before this finished: {why}");
        let ending = |id: &str, sink: &mut Sink<'_>| {
            let mut m = Obj::new();
            m.str("reason", &reason);
            let mut e = Obj::event("task-status", cx.ctx, id);
            e.str("status", status)
                .str("message", &reason)
                .str("timestamp", cx.ts);
            e.obj("metadata", m);
            sink.event(e.finish());
        };
        for (_, id, state) in self.plan.iter_mut() {
            if *state != PlanState::Done {
                *state = PlanState::Done;
                ending(id, sink);
            }
        }
        if std::mem::take(&mut self.plan_open) {
            if let Some(plan) = &self.plan_task {
                ending(plan, sink);
            }
        }
        let mut calls: Vec<(String, String)> = Vec::new();
        if std::mem::take(&mut self.solver_open) {
            if let Some(s) = &self.solver {
                calls.push((s.clone(), "solver".to_owned()));
            }
        }
        for id in std::mem::take(&mut self.turn_tools) {
            let name = self.tools.remove(&id).unwrap_or_default();
            calls.push((id, name));
        }
        for (id, name) in calls {
            let mut e = Obj::event("tool-complete", cx.ctx, turn);
            e.str("toolCallId", &id)
                .str("toolName", &name)
                .bool("success", false)
                .str("error", &reason)
                .str("timestamp", cx.ts);
            sink.event(e.finish());
        }
    }

    /// The turn answered (`agent.final_answer`): its plan task, plan tasks and solver still
    /// open complete with it (tool calls still running are left to the store, which cancels
    /// them with a `left-open` warning: nothing says they succeeded).
    pub(super) fn end_finished(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
        let done = |id: &str, sink: &mut Sink<'_>| {
            let mut e = Obj::event("task-complete", cx.ctx, id);
            e.str("timestamp", cx.ts);
            sink.event(e.finish());
        };
        for (_, id, state) in self.plan.iter_mut() {
            if *state != PlanState::Done {
                *state = PlanState::Done;
                done(id, sink);
            }
        }
        if std::mem::take(&mut self.plan_open) {
            if let Some(plan) = &self.plan_task {
                done(plan, sink);
            }
        }
    }
}
