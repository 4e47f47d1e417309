//! A2A-ACP tool calls: `tool_execution`, `tool_call_update` and the dev tools' events,
//! as canonical tool starts, progress and completions.

use super::{dev_kind, dev_tool, AcpDecoder, Cx, ToolTrack};
use crate::dialects::emit::{get, get_bool, get_num, get_str, members, Obj, Sink};
use crate::dialects::unknown_event;
use crate::events::DiagCode;
use crate::json::Value;

impl AcpDecoder {
    /// The tool call id of a notification: the development-tool `tool_call_id` when present.
    pub(super) fn call_id_of<'v>(data: &'v Value<'_>) -> Option<&'v str> {
        let dt = dev_tool(get(Some(data), "metadata"));
        get_str(get(dt, "tool_call"), "tool_call_id")
            .or_else(|| get_str(get(dt, "data"), "tool_call_id"))
            .or_else(|| get_str(Some(data), "tool_call_id"))
    }

    pub(super) fn start_tool(
        &mut self,
        cx: &Cx<'_>,
        id: &str,
        name: &str,
        args: Option<&Value<'_>>,
        meta: Obj,
        sink: &mut Sink<'_>,
    ) {
        self.tools.insert(
            id,
            ToolTrack {
                finished: false,
                name: name.to_owned(),
                retrying: false,
            },
        );
        if let Some(t) = self.tasks.get_mut(cx.task) {
            t.running.push(id.to_owned());
        }
        let mut e = Obj::event("tool-start", cx.ctx, cx.task);
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
        e.obj_if("metadata", meta);
        sink.event(e.finish());
    }

    pub(super) fn progress_tool(
        &mut self,
        cx: &Cx<'_>,
        id: &str,
        message: Option<&str>,
        meta: Obj,
        sink: &mut Sink<'_>,
    ) {
        let mut e = Obj::event("tool-progress", cx.ctx, cx.task);
        e.str("toolCallId", id)
            .num("progress", 0.0)
            .opt_str("message", message)
            .str("timestamp", cx.ts);
        e.obj_if("metadata", meta);
        sink.event(e.finish());
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn finish_tool(
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
        let known = self.tools.get(id).map(|t| t.name.clone());
        if let Some(t) = self.tools.get_mut(id) {
            t.finished = true;
        }
        if let Some(t) = self.tasks.get_mut(cx.task) {
            t.running.retain(|r| r != id);
        }
        let mut e = Obj::event("tool-complete", cx.ctx, cx.task);
        e.str("toolCallId", id)
            .str("toolName", name.or(known.as_deref()).unwrap_or(""))
            .bool("success", success)
            .opt_value("result", result)
            .opt_str("error", error)
            .str("timestamp", cx.ts);
        e.obj_if("metadata", meta);
        sink.event(e.finish());
    }

    pub(super) fn tool_execution(&mut self, cx: &Cx<'_>, data: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(tool) = get_str(Some(data), "tool_id") else {
            sink.require_error(Some(data), "tool_id", "string", "$.data.tool_id");
            return;
        };
        let Some(status) = get_str(Some(data), "status") else {
            sink.require_error(Some(data), "status", "string", "$.data.status");
            return;
        };
        if !matches!(status, "started" | "completed" | "failed") {
            sink.error(
                DiagCode::InvalidEnum,
                format!(
                    "{} is not one of started, completed, failed",
                    crate::json::Quoted(status)
                ),
                "$.data.status",
            );
            return;
        }
        self.ensure_task(cx, sink);
        // Which call: the development-tool id, else the latest running call of this tool.
        let running_same = || {
            self.tasks.get(cx.task).and_then(|t| {
                t.running
                    .iter()
                    .rev()
                    .find(|r| self.tools.get(r).is_some_and(|x| x.name == tool))
                    .cloned()
            })
        };
        // A `started` without ids is a new call, unless it is the retry that the latest
        // running call of this tool announced (`will_retry`) or it says it is one.
        let is_retry = |r: &String| {
            get_num(Some(data), "retry_attempt").is_some()
                || self.tools.get(r).is_some_and(|t| t.retrying)
        };
        let id = match Self::call_id_of(data) {
            Some(id) => id.to_owned(),
            None => match (status, running_same()) {
                (_, Some(r)) if status != "started" || is_retry(&r) => r,
                _ => {
                    let n = self.tasks.get_mut(cx.task).map_or(0, |t| {
                        t.tool_seq += 1;
                        t.tool_seq
                    });
                    format!("{}#{tool}-{n}", cx.task)
                }
            },
        };
        let started = self.tools.get(&id).is_some_and(|t| !t.finished);
        let mut acp = Self::acp_meta(cx, data, &["tool_id", "parameters", "output", "error"]);
        match status {
            "started" => {
                if started {
                    // A retry of a call that is still running, or a pending call now executing.
                    let retry = get_num(Some(data), "retry_attempt");
                    let msg = retry.map_or_else(
                        || "executing".to_owned(),
                        |n| format!("retry attempt {}", crate::json::Num(n)),
                    );
                    let mut m = Obj::new();
                    m.obj("acp", acp);
                    self.progress_tool(cx, &id, Some(&msg), m, sink);
                } else {
                    let mut m = Obj::new();
                    m.obj("acp", acp);
                    self.start_tool(cx, &id, tool, get(Some(data), "parameters"), m, sink);
                }
            }
            "completed" => {
                let mut m = Obj::new();
                if let Some(t) = get_num(Some(data), "execution_time") {
                    m.num("duration", t * 1000.0);
                }
                if let Some(c) = get_bool(Some(data), "cached") {
                    m.bool("cached", c);
                }
                m.obj("acp", acp);
                self.finish_tool(
                    cx,
                    &id,
                    Some(tool),
                    true,
                    get(Some(data), "output"),
                    None,
                    m,
                    sink,
                );
            }
            _ => {
                let error = get_str(Some(data), "error").unwrap_or("tool execution failed");
                if get_bool(Some(data), "will_retry") == Some(true) {
                    let attempt = get_num(Some(data), "retry_attempt");
                    let msg = match attempt {
                        Some(n) => {
                            format!("attempt {} failed: {error}; retrying", crate::json::Num(n))
                        }
                        None => format!("failed: {error}; retrying"),
                    };
                    acp.str("error", error);
                    let mut m = Obj::new();
                    m.obj("acp", acp);
                    if !started {
                        self.start_tool(
                            cx,
                            &id,
                            tool,
                            get(Some(data), "parameters"),
                            Obj::new(),
                            sink,
                        );
                    }
                    self.progress_tool(cx, &id, Some(&msg), m, sink);
                } else {
                    let mut m = Obj::new();
                    if let Some(t) = get_num(Some(data), "execution_time") {
                        m.num("duration", t * 1000.0);
                    }
                    if let Some(n) = get_num(Some(data), "retry_attempt")
                        .filter(|n| *n >= 0.0 && n.fract() == 0.0)
                    {
                        m.num("retries", n);
                    }
                    m.obj("acp", acp);
                    let result = get(
                        dev_tool(get(Some(data), "metadata"))
                            .and_then(|d| get(Some(d), "tool_call")),
                        "result",
                    );
                    self.finish_tool(cx, &id, Some(tool), false, result, Some(error), m, sink);
                }
            }
        }
        if let Some(t) = self.tools.get_mut(&id) {
            t.retrying = status == "failed" && get_bool(Some(data), "will_retry") == Some(true);
        }
    }

    /// A development-tool `ToolCall` update. `dt`: the development-tool object that carries it
    /// (its members beside the ToolCall, e.g. `model` and `user_tier`, go to `metadata.acp`);
    /// `carrier`: the members of a notification that emitted nothing of its own.
    pub(super) fn tool_call_update(
        &mut self,
        cx: &Cx<'_>,
        tc: &Value<'_>,
        fallback_name: Option<&str>,
        dt: Option<&Value<'_>>,
        carrier: Option<Obj>,
        sink: &mut Sink<'_>,
    ) {
        // Without an id (the document's push example has none) the update is about the
        // task's running call when exactly one runs; with none or several (which one is a
        // guess that could mark another call succeeded) it is a call of its own, seen at its
        // update (`<task>#update-<n>`). A warning says which.
        let id = match get_str(Some(tc), "tool_call_id") {
            Some(id) => id.to_owned(),
            None => {
                let running = self
                    .tasks
                    .get(cx.task)
                    .and_then(|t| (t.running.len() == 1).then(|| t.running[0].clone()));
                let (id, what) = match running {
                    Some(r) => (r, "applied to the one running call"),
                    None => {
                        let n = self.tasks.get_mut(cx.task).map_or(0, |t| {
                            t.tool_seq += 1;
                            t.tool_seq
                        });
                        (format!("{}#update-{n}", cx.task), "a call of its own")
                    }
                };
                sink.warn(
                    DiagCode::MissingField,
                    format!("tool_call_update without tool_call_id: {what}, {id}"),
                    "$.data.metadata.development-tool.tool_call.tool_call_id",
                );
                id
            }
        };
        let status = get_str(Some(tc), "status")
            .unwrap_or("")
            .to_ascii_lowercase();
        let tracked = self.tools.get(&id);
        let started = tracked.is_some();
        let finished = tracked.is_some_and(|t| t.finished);
        if finished {
            return;
        }
        let name = get_str(Some(tc), "tool_name").or(fallback_name);
        let mut a = Obj::new();
        a.str("status", &status);
        a.rest(
            members(Some(tc)),
            &[
                "tool_call_id",
                "tool_name",
                "input_parameters",
                "result",
                "status",
            ],
        );
        a.rest(members(dt), &["tool_call", "data"]);
        if let Some(c) = carrier {
            a.obj("carrier", c);
        }
        let mut m = Obj::new();
        m.obj("acp", a);
        let terminal = matches!(
            status.as_str(),
            "succeeded" | "failed" | "cancelled" | "canceled"
        );
        if terminal && !started && get_str(Some(tc), "tool_call_id").is_none() {
            // A call seen only at its end: started and ended by this update.
            self.start_tool(
                cx,
                &id,
                name.unwrap_or("tool"),
                get(Some(tc), "input_parameters"),
                Obj::new(),
                sink,
            );
        }
        match status.as_str() {
            "pending" | "executing" => {
                if !started {
                    self.start_tool(cx, &id, name.unwrap_or("tool"), get(Some(tc), "input_parameters"), m, sink);
                    if status == "pending" && !self.asking {
                        self.ask_confirmation(cx, tc, sink);
                    }
                } else if status == "executing" {
                    let msg = get_str(Some(tc), "live_content").unwrap_or("executing");
                    self.progress_tool(cx, &id, Some(msg), m, sink);
                }
            }
            "succeeded" => {
                let result = get(Some(tc), "result");
                self.finish_tool(cx, &id, name, true, result, None, m, sink);
            }
            "failed" | "cancelled" | "canceled" => {
                let result = get(Some(tc), "result");
                let default = if status == "failed" { "failed" } else { "cancelled" };
                let err = get_str(result, "message").unwrap_or(default).to_owned();
                self.finish_tool(cx, &id, name, false, result, Some(&err), m, sink);
            }
            other => sink.warn(
                DiagCode::InvalidEnum,
                format!("tool_call status {} is not one of pending, executing, succeeded, failed, cancelled (ignored)", crate::json::Quoted(other)),
                "$.data.metadata.development-tool.tool_call.status",
            ),
        }
    }

    /// Development-tool metadata (or a push notification of one of its kinds). `kept`: the
    /// carrier's own event keeps the metadata (`metadata.acp.metadata`); when it does not (a
    /// push notification, a `status_change` whose state did not change), a kind that maps to
    /// nothing here becomes an unknown `acp:development-tool:<kind>` event carrying the whole
    /// notification, so that nothing the server sent is dropped.
    pub(super) fn dev_tool_event(
        &mut self,
        cx: &Cx<'_>,
        dt: &Value<'_>,
        event: Option<&str>,
        kept: bool,
        carrier: Option<Obj>,
        sink: &mut Sink<'_>,
    ) {
        let kind = match event {
            Some(e) if get_str(Some(dt), "kind").is_none() => e.to_owned(),
            _ => dev_kind(dt),
        };
        let payload = get(Some(dt), "data");
        let applied = match kind.as_str() {
            "tool_call_update" => {
                match get(Some(dt), "tool_call")
                    .or(payload)
                    .filter(|x| x.as_object().is_some())
                {
                    Some(tc) => {
                        self.tool_call_update(cx, tc, None, Some(dt), carrier, sink);
                        true
                    }
                    None => false,
                }
            }
            // With no request open there is nothing to close: kept as an unknown event.
            "tool_call_confirmation" => self.close_open_input(cx, sink),
            "thought" => {
                let content = get_str(Some(dt), "content").or_else(|| get_str(payload, "content"));
                if let Some(c) = content {
                    let mut m = Obj::new();
                    let mut a = Obj::new();
                    a.str("kind", "thought");
                    a.rest(members(Some(dt)), &["kind", "content"]);
                    if let Some(c) = carrier {
                        a.obj("carrier", c);
                    }
                    m.obj("acp", a);
                    self.thought(cx, "reasoning", c, m, sink);
                }
                content.is_some()
            }
            "governance_event" if event.is_some() || !kept => {
                let content = get_str(payload, "governor_summary")
                    .or_else(|| get_str(payload, "final_decision"))
                    .or_else(|| get_str(Some(dt), "content"));
                if let Some(c) = content {
                    let mut m = Obj::new();
                    let mut a = Obj::new();
                    a.rest(members(Some(dt)), &[]);
                    if let Some(c) = carrier {
                        a.obj("carrier", c);
                    }
                    m.obj("acp", a);
                    self.thought(cx, "decision", c, m, sink);
                }
                content.is_some()
            }
            "text_content" => {
                let id =
                    get_str(Some(dt), "tool_call_id").or_else(|| get_str(payload, "tool_call_id"));
                let text = get_str(Some(dt), "content")
                    .or_else(|| get_str(payload, "content"))
                    .or_else(|| get_str(Some(dt), "text"));
                let running = id.is_some_and(|i| self.tools.get(i).is_some_and(|t| !t.finished));
                if let (Some(id), Some(text), true) = (id, text, running) {
                    let id = id.to_owned();
                    let mut m = Obj::new();
                    let mut a = Obj::new();
                    a.rest(members(Some(dt)), &["content"]);
                    m.obj("acp", a);
                    self.progress_tool(cx, &id, Some(text), m, sink);
                    true
                } else {
                    false
                }
            }
            // state_change (its payload is not given by the document) and governance
            // metadata on other events: kept in their carrier's metadata.
            _ => false,
        };
        if !applied && !kept {
            let ctx = cx.ctx;
            sink.event(unknown_event(
                &format!("acp:development-tool:{kind}"),
                Some(ctx),
                Some(cx.task),
                cx.root,
            ));
        }
    }
}
