//! Unified tool calls: `tool_call_*`, `retrieval_*` (a `retrieval` tool call) and
//! `automation_*` (a tool call named after the workflow, provider `n8n`).

use super::{Cx, ToolTrack, UnifiedDecoder};
use crate::dialects::emit::{get, get_bool, get_str, members, Obj, Sink};
use crate::json::Value;

impl UnifiedDecoder {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tool_start(
        &mut self,
        cx: &Cx<'_>,
        id: &str,
        name: &str,
        args: Option<&Value<'_>>,
        provider: Option<&str>,
        meta: Obj,
        sink: &mut Sink<'_>,
    ) {
        let task = self.current(cx.session);
        self.tools.insert(
            id,
            ToolTrack {
                task: task.clone(),
                name: name.to_owned(),
            },
        );
        let mut e = Obj::event("tool-start", cx.session, &task);
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
        let mut m = Obj::new();
        m.opt_str("provider", provider);
        m.obj_if("unified", meta);
        e.obj_if("metadata", m);
        sink.event(e.finish());
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn tool_end(
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
        let track = self.tools.remove(id);
        let task = track
            .as_ref()
            .map_or_else(|| self.current(cx.session), |t| t.task.clone());
        let mut e = Obj::event("tool-complete", cx.session, &task);
        e.str("toolCallId", id)
            .str(
                "toolName",
                name.or(track.as_ref().map(|t| t.name.as_str()))
                    .unwrap_or(""),
            )
            .bool("success", success)
            .opt_value("result", result)
            .opt_str("error", error)
            .str("timestamp", cx.ts);
        let mut m = Obj::new();
        m.obj_if("unified", meta);
        e.obj_if("metadata", m);
        sink.event(e.finish());
    }

    pub(super) fn tool_started(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(id) = self.need(payload, "tool_call_id", sink) else {
            return;
        };
        let Some(name) = self.need(payload, "tool_name", sink) else {
            return;
        };
        let meta = cx.meta(payload, &["tool_call_id", "tool_name", "args", "agent"]);
        self.tool_start(
            cx,
            id,
            name,
            get(Some(payload), "args"),
            get_str(Some(payload), "agent"),
            meta,
            sink,
        );
    }

    pub(super) fn tool_delta(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(id) = self.need(payload, "tool_call_id", sink) else {
            return;
        };
        let Some(delta) = self.need(payload, "delta", sink) else {
            return;
        };
        let task = self
            .tools
            .get(id)
            .map_or_else(|| self.current(cx.session), |t| t.task.clone());
        let mut e = Obj::event("tool-progress", cx.session, &task);
        e.str("toolCallId", id)
            .num("progress", 0.0)
            .str("message", delta)
            .str("timestamp", cx.ts);
        let meta = cx.meta(payload, &["tool_call_id", "delta"]);
        let mut m = Obj::new();
        m.obj("unified", meta);
        e.obj("metadata", m);
        sink.event(e.finish());
    }

    pub(super) fn tool_result(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(id) = self.need(payload, "tool_call_id", sink) else {
            return;
        };
        let error = get_str(Some(payload), "error");
        let success = error.is_none() && get_bool(Some(payload), "success") != Some(false);
        let meta = cx.meta(payload, &["tool_call_id", "tool_name", "result", "error"]);
        self.tool_end(
            cx,
            id,
            get_str(Some(payload), "tool_name"),
            success,
            get(Some(payload), "result"),
            error,
            meta,
            sink,
        );
    }

    pub(super) fn next_call(&mut self, session: &str, what: &str) -> String {
        let n = self.sessions.get_mut(session).map_or(0, |s| {
            s.calls += 1;
            s.calls
        });
        format!("{session}#{what}-{n}")
    }

    pub(super) fn retrieval(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        if cx.ty == "retrieval_started" {
            if get_str(Some(payload), "query").is_none() {
                sink.require_warn(Some(payload), "query", "string", "$.payload.query");
            }
            let id = self.next_call(cx.session, "retrieval");
            if let Some(s) = self.sessions.get_mut(cx.session) {
                s.retrievals.push(id.clone());
            }
            let meta = cx.meta(payload, &["query", "agent"]);
            let mut args = Obj::new();
            args.opt_value("query", get(Some(payload), "query"));
            let args = crate::json::parse(&args.finish())
                .unwrap_or_default()
                .into_owned();
            self.tool_start(
                cx,
                &id,
                "retrieval",
                Some(&args),
                get_str(Some(payload), "agent"),
                meta,
                sink,
            );
        } else {
            if get(Some(payload), "documents")
                .and_then(Value::as_array)
                .is_none()
            {
                sink.require_warn(Some(payload), "documents", "array", "$.payload.documents");
            }
            let open = self
                .sessions
                .get_mut(cx.session)
                .and_then(|s| (!s.retrievals.is_empty()).then(|| s.retrievals.remove(0)));
            let id = open.unwrap_or_else(|| self.next_call(cx.session, "retrieval"));
            self.tool_end(
                cx,
                &id,
                Some("retrieval"),
                true,
                Some(payload),
                None,
                cx.meta(payload, &["documents"]),
                sink,
            );
        }
    }

    pub(super) fn automation(&mut self, cx: &Cx<'_>, payload: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(workflow) = self.need(payload, "workflow", sink) else {
            return;
        };
        if cx.ty == "automation_triggered" {
            let id = self.next_call(cx.session, &format!("automation-{workflow}"));
            if let Some(s) = self.sessions.get_mut(cx.session) {
                s.automations.push((workflow.to_owned(), id.clone()));
            }
            let mut args = Obj::new();
            args.rest(members(Some(payload)), &["workflow"]);
            let args = crate::json::parse(&args.finish())
                .unwrap_or_default()
                .into_owned();
            self.tool_start(
                cx,
                &id,
                workflow,
                Some(&args),
                Some("n8n"),
                cx.meta(payload, &["workflow"]),
                sink,
            );
        } else {
            let open = self.sessions.get_mut(cx.session).and_then(|s| {
                let i = s.automations.iter().position(|(w, _)| w == workflow)?;
                Some(s.automations.remove(i).1)
            });
            let id = open
                .unwrap_or_else(|| self.next_call(cx.session, &format!("automation-{workflow}")));
            let error = get_str(Some(payload), "error");
            let meta = cx.meta(payload, &["workflow", "result", "error"]);
            self.tool_end(
                cx,
                &id,
                Some(workflow),
                error.is_none(),
                get(Some(payload), "result"),
                error,
                meta,
                sink,
            );
        }
    }
}
