//! `myagent`: canonical events as MyAgent WebSocket payloads (seed 004),
//! `{session_id, step_id, event, timestamp, content, metadata}` (`seq` is added by
//! [`super::Encoded`]). The mapping table is in the README ("Dialects", `myagent`); the
//! WebSocket session itself is [`crate::myagent_ws`].

use super::{obj, opt, opt_str, Canon, Encoder, Out, ROOT_STATUS, TERMINAL};
use serde_json::{json, Value};
use std::collections::HashMap;

/// The MyAgent encoder of one run.
pub struct MyAgentEncoder {
    session: String,
    root: Option<String>,
    /// taskId → agentId.
    agents: HashMap<String, String>,
    tools: HashMap<String, String>,
}

/// MyAgent's `confirmation_type` for a canonical `inputType`.
pub fn confirmation_type(input_type: Option<&str>) -> &'static str {
    match input_type {
        Some("confirmation") => "approve",
        Some("selection") => "select",
        _ => "input",
    }
}

/// MyAgent `options` (`{id, label}`) for canonical options (strings or objects).
pub fn options(list: &[Value]) -> Vec<Value> {
    list.iter()
        .filter_map(|o| match o {
            Value::String(s) => Some(json!({"id": s, "label": s})),
            Value::Object(m) => {
                let id = m.get("id").or_else(|| m.get("value"))?.as_str()?;
                let label = m
                    .get("label")
                    .or_else(|| m.get("name"))
                    .and_then(Value::as_str)
                    .unwrap_or(id);
                Some(json!({"id": id, "label": label}))
            }
            _ => None,
        })
        .collect()
}

impl MyAgentEncoder {
    /// An encoder for the run whose session is `context_id`.
    pub fn new(context_id: &str) -> Self {
        MyAgentEncoder {
            session: context_id.to_owned(),
            root: None,
            agents: HashMap::new(),
            tools: HashMap::new(),
        }
    }

    fn event(
        &self,
        ev: &Canon<'_>,
        event: &str,
        step: Option<&str>,
        content: Value,
        meta: Value,
    ) -> Value {
        obj([
            ("session_id", self.session.as_str().into()),
            ("step_id", opt_str(step)),
            ("event", event.into()),
            ("timestamp", ev.ts().into()),
            ("content", content),
            ("metadata", if meta.is_null() { json!({}) } else { meta }),
        ])
    }

    fn is_root(&self, task: &str) -> bool {
        self.root.as_deref() == Some(task)
    }

    /// `input-required`: `agent.user_confirm` (approve, select or input).
    fn input_required(&mut self, ev: &Canon<'_>, task: String, out: &mut Vec<Out>) {
        if ev.get("requireUser").and_then(Value::as_bool) == Some(false) {
            return;
        }
        let opts = ev
            .get("options")
            .and_then(Value::as_array)
            .map(|o| options(o))
            .filter(|o| !o.is_empty());
        let content = obj([
            (
                "message",
                ev.str("prompt").unwrap_or("Please confirm").into(),
            ),
            (
                "confirmation_type",
                confirmation_type(ev.str("inputType")).into(),
            ),
            ("options", opts.map_or(Value::Null, Value::Array)),
        ]);
        let critical = ev.meta("urgency").and_then(Value::as_str) == Some("high");
        let meta = obj([
            ("timeout_seconds", opt(ev.meta("timeout"))),
            ("critical", critical.into()),
            ("input_type", opt_str(ev.str("inputType"))),
            ("schema", opt(ev.get("schema"))),
            ("task_id", task.as_str().into()),
        ]);
        let e = self.event(ev, "agent.user_confirm", ev.str("inputId"), content, meta);
        out.push(Out::plain(e));
    }

    /// `tool-complete`: `agent.tool_result`.
    fn tool_complete(&mut self, ev: &Canon<'_>, task: String, out: &mut Vec<Out>) {
        let call = ev.str("toolCallId").unwrap_or("");
        let ok = ev.get("success").and_then(Value::as_bool) != Some(false);
        let result = if ok {
            opt(ev.get("result"))
        } else {
            ev.str("error").unwrap_or("tool failed").into()
        };
        let content = json!({"result": result, "status": if ok { "success" } else { "failed" }});
        let meta = obj([
            ("call_id", call.into()),
            ("execution_time_ms", opt(ev.meta("duration"))),
            ("task_id", task.as_str().into()),
        ]);
        out.push(Out::plain(self.event(
            ev,
            "agent.tool_result",
            Some(call),
            content,
            meta,
        )));
    }
}

impl Encoder for MyAgentEncoder {
    fn encode(&mut self, ev: &Canon<'_>, out: &mut Vec<Out>) {
        let task = ev.task().to_owned();
        let root = self.is_root(&task);
        match ev.kind {
            "task-created" => {
                if ev.str("parentTaskId").is_none() && self.root.is_none() {
                    self.root = Some(task.clone());
                }
                if let Some(a) = ev.meta("agentId").and_then(Value::as_str) {
                    self.agents.insert(task, a.to_owned());
                }
            }
            "thought-stream" => {
                let ty = match ev.str("thoughtType") {
                    Some("planning") => "planning",
                    Some("reasoning") => "reasoning",
                    _ => "analysis",
                };
                let meta = obj([
                    ("thinking_type", ty.into()),
                    ("thought_type", opt_str(ev.str("thoughtType"))),
                    ("verbosity", opt_str(ev.str("verbosity"))),
                    ("task_id", task.as_str().into()),
                ]);
                let content = ev.str("content").unwrap_or("").into();
                let e = self.event(ev, "agent.thinking", ev.str("thoughtId"), content, meta);
                out.push(Out::plain(e));
            }
            "tool-start" => {
                let call = ev.str("toolCallId").unwrap_or("");
                let name = ev.str("toolName").unwrap_or("tool");
                self.tools.insert(call.to_owned(), name.to_owned());
                let content = json!({
                    "tool_name": name,
                    "tool_description": format!("{name} (task {task})"),
                    "arguments": opt(ev.get("arguments")),
                });
                let meta = json!({"call_id": call, "tool_type": "function", "task_id": task});
                out.push(Out::plain(self.event(
                    ev,
                    "agent.tool_call",
                    Some(call),
                    content,
                    meta,
                )));
            }
            "tool-complete" => self.tool_complete(ev, task, out),
            "content-delta" if root => {
                let step = format!("answer-{task}");
                let meta = obj([("chunk_index", opt(ev.get("index")))]);
                let content = ev.str("delta").unwrap_or("").into();
                let e = self.event(ev, "agent.partial_answer", Some(&step), content, meta);
                out.push(Out::plain(e));
            }
            "content-complete" if !root => {
                let agent = self.agents.get(&task).map_or("sub-agent", String::as_str);
                let text = format!("[{agent}] {}", ev.str("content").unwrap_or(""));
                let meta = json!({"thinking_type": "analysis", "task_id": task});
                let e = self.event(ev, "agent.thinking", None, text.into(), meta);
                out.push(Out::plain(e));
            }
            "task-complete" if root => {
                let step = format!("answer-{task}");
                let content =
                    json!({"answer": ev.str("content").unwrap_or(""), "answer_type": "text"});
                let meta = obj([
                    ("generation_time_ms", opt(ev.meta("duration"))),
                    ("total_tokens_used", opt(ev.meta("tokensUsed"))),
                    ("iterations", opt(ev.meta("iterations"))),
                ]);
                out.push(Out {
                    data: self.event(ev, "agent.final_answer", Some(&step), content, meta),
                    flags: ROOT_STATUS | TERMINAL,
                });
            }
            "task-status" if root => {
                let (code, ty) = match ev.str("status") {
                    Some("failed") => ("ERR_EXECUTION_600", "TaskFailed"),
                    Some("canceled") => ("ERR_CANCELED", "Canceled"),
                    _ => return,
                };
                let reason = ev
                    .meta("reason")
                    .and_then(Value::as_str)
                    .or_else(|| ev.str("message"))
                    .unwrap_or("failed");
                let meta = json!({
                    "error_code": code,
                    "error_type": ty,
                    "context": {"task_id": task, "message": opt_str(ev.str("message"))},
                    "recoverable": false,
                });
                out.push(Out {
                    data: self.event(ev, "error.execution", Some(&task), reason.into(), meta),
                    flags: ROOT_STATUS | TERMINAL,
                });
            }
            "input-required" => self.input_required(ev, task, out),
            "auth-required" => {
                let content = json!({
                    "message": ev.str("prompt").unwrap_or("Authentication required"),
                    "confirmation_type": "approve",
                });
                let auth = obj([
                    ("authType", opt(ev.get("authType"))),
                    ("provider", opt(ev.get("provider"))),
                    ("scopes", opt(ev.get("scopes"))),
                    ("authUrl", opt(ev.get("authUrl"))),
                ]);
                let meta = obj([
                    ("timeout_seconds", opt(ev.meta("expiresIn"))),
                    ("critical", true.into()),
                    ("auth", auth),
                    ("task_id", task.as_str().into()),
                ]);
                let e = self.event(ev, "agent.user_confirm", ev.str("authId"), content, meta);
                out.push(Out::plain(e));
            }
            // Everything else has no MyAgent counterpart (artifacts, statuses, sub-agent
            // deltas, tool progress, input-received, internal:*).
            _ => {}
        }
    }
}
