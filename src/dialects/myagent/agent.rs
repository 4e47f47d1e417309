//! `agent.*` events: thoughts, tool calls and results, partial and final answers, and
//! `agent.user_confirm` (a confirmation the user answers).

use super::{Cx, MyAgentDecoder, MAX_STEPS};
use crate::dialects::emit::{as_count, get, get_bool, get_num, get_str, Obj, Sink};
use crate::dialects::unknown_event;
use crate::events::DiagCode;
use crate::json::Value;

impl MyAgentDecoder {
    pub(super) fn agent_event(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
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
            "agent.tool_call" => self.tool_call(cx, &turn, sink),
            "agent.tool_result" => self.tool_result(cx, &turn, sink),
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

    /// `agent.tool_result`: `tool-complete` (a result before its call is remembered).
    fn tool_result(&mut self, cx: &Cx<'_>, turn: &str, sink: &mut Sink<'_>) {
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
        let mut e = Obj::event("tool-complete", cx.ctx, turn);
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

    /// `agent.tool_call`: `tool-start` (a result that came first leaves the call done).
    fn tool_call(&mut self, cx: &Cx<'_>, turn: &str, sink: &mut Sink<'_>) {
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
        let mut e = Obj::event("tool-start", cx.ctx, turn);
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

    pub(super) fn user_confirm(&mut self, cx: &Cx<'_>, turn: &str, sink: &mut Sink<'_>) {
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
}
