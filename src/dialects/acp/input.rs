//! A2A-ACP requests for the user: `input_required` (permission prompts, confirmations,
//! questions), `feedback_required`, and closing, superseding or answering the open one.

use super::{dev_kind, dev_tool, AcpDecoder, Cx};
use crate::dialects::emit::{get, get_str, members, Obj, Sink};
use crate::events::DiagCode;
use crate::json::Value;

impl AcpDecoder {
    /// Closes the task's open input request (the agent moved on).
    /// `false`: no request of the task was open.
    pub(super) fn close_open_input(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) -> bool {
        self.close_open_input_as(cx, true, sink)
    }

    /// Forgets the task's open input request (and its permission options); its id.
    pub(super) fn take_open_input(&mut self, cx: &Cx<'_>) -> Option<String> {
        let id = self.tasks.get_mut(cx.task)?.open_input.take()?;
        self.permissions.remove(&id);
        Some(id)
    }

    /// A new question of the task while one is open: nothing says the open one was answered
    /// (the agent asked again, or asked something else), so it expires: closed, not answered.
    /// No diagnostic: a server may legitimately move on to another question.
    pub(super) fn supersede_open_input(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
        let Some(id) = self.take_open_input(cx) else {
            return;
        };
        sink.step(crate::dialects::emit::Step::ExpireInput(id));
    }

    /// Closes the task's open input request; `answered: false` (the task ended failed or
    /// canceled while waiting) infers no answer: the request expires with its task.
    pub(super) fn close_open_input_as(
        &mut self,
        cx: &Cx<'_>,
        answered: bool,
        sink: &mut Sink<'_>,
    ) -> bool {
        let Some(id) = self.take_open_input(cx) else {
            return false;
        };
        if !answered {
            return true;
        }
        let mut e = Obj::event("input-received", cx.ctx, cx.task);
        e.str("inputId", &id)
            .str("providedBy", "user")
            .str("timestamp", cx.ts)
            .raw("metadata", r#"{"acp":{"inferred":true}}"#);
        sink.event(e.finish());
        true
    }

    pub(super) fn new_input(&mut self, cx: &Cx<'_>) -> Option<String> {
        let t = self.tasks.get_mut(cx.task)?;
        t.requests += 1;
        let id = format!("{}#input-{}", cx.task, t.requests);
        t.open_input = Some(id.clone());
        Some(id)
    }

    pub(super) fn waiting_input(&mut self, cx: &Cx<'_>, prompt: &str, sink: &mut Sink<'_>) {
        if self.tasks.get(cx.task).and_then(|t| t.status) != Some("waiting-input") {
            let mut m = Obj::new();
            m.str("blockedBy", "user");
            self.status(cx, "waiting-input", Some(prompt), m, sink);
        }
    }

    pub(super) fn input_required(&mut self, cx: &Cx<'_>, data: &Value<'_>, sink: &mut Sink<'_>) {
        let asking = std::mem::replace(&mut self.asking, true);
        self.open_input_request(cx, data, sink);
        self.asking = asking;
    }

    /// A `pending` tool call with a `confirmation_request` (seed 002's permission flow for a
    /// dangerous call) asks the user: an input request with the request's options, answered
    /// like an `input_required` (`tasks/provideInputAndContinue` with the chosen option).
    pub(super) fn ask_confirmation(&mut self, cx: &Cx<'_>, tc: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(conf) = get(Some(tc), "confirmation_request") else {
            return;
        };
        let mut d = Obj::new();
        d.opt_str("prompt", get_str(get(Some(conf), "details"), "description"));
        let mut opts = String::from("[");
        for (i, o) in get(Some(conf), "options")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let Some(id) = get_str(Some(o), "id").or_else(|| get_str(Some(o), "optionId")) else {
                continue;
            };
            if i > 0 {
                opts.push(',');
            }
            let mut x = Obj::new();
            x.str("optionId", id);
            x.rest(members(Some(o)), &["id", "optionId"]);
            opts.push_str(&x.finish());
        }
        opts.push(']');
        d.raw("permission_options", &opts).value("tool_call", tc);
        let text = d.finish();
        let Ok(data) = crate::json::parse(&text) else {
            return;
        };
        self.input_required(cx, &data, sink);
    }

    pub(super) fn open_input_request(
        &mut self,
        cx: &Cx<'_>,
        data: &Value<'_>,
        sink: &mut Sink<'_>,
    ) {
        self.ensure_task(cx, sink);
        let dt = dev_tool(get(Some(data), "metadata"));
        let tool_call = get(Some(data), "tool_call");
        let confirmation = get(tool_call, "confirmation_request")
            .or_else(|| dt.and_then(|d| get(get(Some(d), "tool_call"), "confirmation_request")));
        let prompt = get_str(Some(data), "prompt")
            .or_else(|| get_str(get(confirmation, "details"), "description"))
            .unwrap_or("Input required")
            .to_owned();
        // A pending tool call awaiting this confirmation shows up as a tool.
        let tool_name = get_str(tool_call, "toolId").or_else(|| get_str(tool_call, "tool_name"));
        if let Some(tc) = tool_call.filter(|tc| get_str(Some(*tc), "tool_call_id").is_some()) {
            self.tool_call_update(cx, tc, tool_name, None, None, sink);
        }
        // The document's confirmation flow elides the metadata's ToolCall (`{ ... }  // Full
        // ToolCall object`): an empty or id-less one is the `tool_call` above, not another call.
        if let Some(tc) = dt
            .filter(|d| dev_kind(d) == "tool_call_update")
            .and_then(|d| get(Some(d), "tool_call"))
            .filter(|tc| get_str(Some(*tc), "tool_call_id").is_some())
        {
            self.tool_call_update(cx, tc, tool_name, dt, None, sink);
        } else if let Some(dt) = dt.filter(|d| dev_kind(d) != "tool_call_update") {
            // The input request keeps the whole metadata (`metadata.acp.metadata`).
            self.dev_tool_event(cx, dt, None, true, None, sink);
        }
        self.supersede_open_input(cx, sink);
        self.waiting_input(cx, &prompt, sink);
        let Some(input_id) = self.new_input(cx) else {
            return;
        };
        let options = get(Some(data), "permission_options").and_then(Value::as_array);
        if let Some(v) = data
            .get("permission_options")
            .filter(|o| o.as_array().is_none() && !o.is_null())
        {
            sink.warn(
                DiagCode::InvalidType,
                format!(
                    "permission_options: expected array, found {} (ignored)",
                    v.type_name()
                ),
                "$.data.permission_options",
            );
        }
        let mut ids: Vec<String> = Vec::new();
        let mut opts = String::from("[");
        for (i, o) in options.into_iter().flatten().enumerate() {
            let Some(id) = get_str(Some(o), "optionId").or_else(|| get_str(Some(o), "id")) else {
                sink.require_warn(
                    Some(o),
                    "optionId",
                    "string",
                    &format!("$.data.permission_options[{i}].optionId"),
                );
                continue;
            };
            if !ids.is_empty() {
                opts.push(',');
            }
            let mut x = Obj::new();
            x.str("id", id);
            x.rest(members(Some(o)), &["id"]);
            opts.push_str(&x.finish());
            ids.push(id.to_owned());
        }
        opts.push(']');
        let mut e = Obj::event("input-required", cx.ctx, cx.task);
        e.str("inputId", &input_id)
            .bool("requireUser", true)
            .str(
                "inputType",
                if ids.is_empty() {
                    "clarification"
                } else {
                    "selection"
                },
            )
            .str("prompt", &prompt);
        if !ids.is_empty() {
            let mut s = Obj::new();
            s.str("type", "string")
                .str_array("enum", ids.iter().map(String::as_str));
            e.obj("schema", s).raw("options", &opts);
        }
        e.str("timestamp", cx.ts);
        let mut m = Obj::new();
        m.opt_value("toolCall", tool_call);
        m.obj(
            "acp",
            Self::acp_meta(cx, data, &["prompt", "permission_options", "tool_call"]),
        );
        e.obj("metadata", m);
        sink.event(e.finish());
        if !ids.is_empty() {
            self.permissions.insert(&input_id, ids);
        }
    }

    pub(super) fn feedback_required(&mut self, cx: &Cx<'_>, data: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(message) = get_str(Some(data), "message") else {
            sink.require_error(Some(data), "message", "string", "$.data.message");
            return;
        };
        self.ensure_task(cx, sink);
        self.supersede_open_input(cx, sink);
        self.waiting_input(cx, message, sink);
        let Some(input_id) = self.new_input(cx) else {
            return;
        };
        let mut e = Obj::event("input-required", cx.ctx, cx.task);
        e.str("inputId", &input_id)
            .bool("requireUser", true)
            .str("inputType", "confirmation")
            .str("prompt", message)
            .str("timestamp", cx.ts);
        let mut m = Obj::new();
        m.obj("acp", Self::acp_meta(cx, data, &["message"]));
        e.obj("metadata", m);
        sink.event(e.finish());
    }
}
