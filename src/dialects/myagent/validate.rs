//! The seed's validation table for MyAgent events: a missing or mistyped required member
//! is `missing-field` / `invalid-type`, an error (the event is not applied).

use super::{Cx, MyAgentDecoder};
use crate::dialects::emit::{get_bool, get_num, get_str, Sink};
use crate::json::Value;

impl MyAgentDecoder {
    /// The seed's validation table and rules. `false`: the event is not applied.
    pub(super) fn validate(&self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) -> bool {
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
}
