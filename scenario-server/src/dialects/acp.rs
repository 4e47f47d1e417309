//! `acp`: canonical events as A2A-ACP notifications (seed 002),
//! `{event, task_id, context_id, timestamp, data}`. The mapping table is in the README
//! ("Dialects", `acp`).

use super::{obj, opt, opt_str, Artifacts, Canon, Encoder, Out, ROOT_STATUS, TERMINAL};
use serde_json::{json, Value};
use std::collections::HashMap;

/// The development-tool extension's metadata key used in the events (seed 002's short form).
pub const DEV_TOOL: &str = "development-tool";

#[derive(Default)]
struct Task {
    state: Option<&'static str>,
    message_sent: bool,
}

/// The ACP encoder of one run.
pub struct AcpEncoder {
    run_id: String,
    context_id: String,
    root: Option<String>,
    tasks: HashMap<String, Task>,
    artifacts: Artifacts,
    tools: HashMap<String, String>,
}

/// The `permission_options` for a canonical request's `options` (strings, or objects with
/// `id`/`value` and `label`/`name`).
pub fn permission_options(options: &[Value]) -> Vec<Value> {
    options
        .iter()
        .filter_map(|o| {
            let (id, name) = match o {
                Value::String(s) => (s.clone(), title(s)),
                Value::Object(m) => {
                    let id = m
                        .get("id")
                        .or_else(|| m.get("value"))
                        .and_then(Value::as_str)?
                        .to_owned();
                    let name = m
                        .get("label")
                        .or_else(|| m.get("name"))
                        .and_then(Value::as_str)
                        .map_or_else(|| title(&id), str::to_owned);
                    (id, name)
                }
                _ => return None,
            };
            Some(json!({"optionId": id, "name": name}))
        })
        .collect()
}

fn title(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

impl AcpEncoder {
    /// An encoder for run `run_id` of context `context_id`.
    pub fn new(run_id: &str, context_id: &str) -> Self {
        AcpEncoder {
            run_id: run_id.to_owned(),
            context_id: context_id.to_owned(),
            root: None,
            tasks: HashMap::new(),
            artifacts: Artifacts::default(),
            tools: HashMap::new(),
        }
    }

    fn event(&self, ev: &Canon<'_>, event: &str, data: Value) -> Value {
        json!({
            "event": event,
            "task_id": super::task_id(ev.task(), &self.run_id),
            "context_id": self.context_id,
            "timestamp": ev.ts(),
            "data": data,
        })
    }

    fn current(&self, task: &str) -> Option<&'static str> {
        self.tasks.get(task).and_then(|t| t.state)
    }

    fn set_state(&mut self, task: &str, state: &'static str) {
        self.tasks.entry(task.to_owned()).or_default().state = Some(state);
    }

    fn status_change(
        &mut self,
        ev: &Canon<'_>,
        new: &'static str,
        extra: Value,
        out: &mut Vec<Out>,
    ) {
        let task = ev.task();
        let old = self.current(task);
        let mut data = obj([
            ("old_state", opt_str(old)),
            ("new_state", new.into()),
            ("message", opt_str(ev.str("message"))),
        ]);
        if let (Value::Object(d), Value::Object(x)) = (&mut data, extra) {
            d.extend(x);
        }
        if old.is_none() {
            if let Value::Object(d) = &mut data {
                d.insert("old_state".into(), Value::Null);
            }
        }
        self.set_state(task, new);
        let mut flags = 0;
        if self.root.as_deref() == Some(task) {
            flags |= ROOT_STATUS;
            if matches!(new, "completed" | "failed" | "cancelled") {
                flags |= TERMINAL;
            }
        }
        out.push(Out {
            data: self.event(ev, "status_change", data),
            flags,
        });
    }

    fn message(&mut self, ev: &Canon<'_>, text: &str, out: &mut Vec<Out>) {
        let t = self.tasks.entry(ev.task().to_owned()).or_default();
        if t.message_sent {
            return;
        }
        t.message_sent = true;
        let data = json!({
            "message_role": "assistant",
            "message_content": text,
            "message_type": "agent_response",
        });
        out.push(Out::plain(self.event(ev, "message", data)));
    }

    fn dev_tool(kind: &str, tool_call: Value) -> Value {
        json!({ DEV_TOOL: {"kind": kind, "tool_call": tool_call} })
    }

    /// `tool-complete`: `tool_execution` completed or failed (with the development-tool metadata).
    fn tool_complete(&mut self, ev: &Canon<'_>, out: &mut Vec<Out>) {
        let call = ev.str("toolCallId").unwrap_or("");
        let name = ev
            .str("toolName")
            .or_else(|| self.tools.get(call).map(String::as_str))
            .unwrap_or("tool")
            .to_owned();
        let secs = ev
            .meta("duration")
            .and_then(Value::as_f64)
            .map(|ms| Value::from(ms / 1000.0));
        let ok = ev.get("success").and_then(Value::as_bool) != Some(false);
        let data = if ok {
            obj([
                ("tool_id", name.as_str().into()),
                ("status", "completed".into()),
                ("execution_time", secs.unwrap_or(Value::Null)),
                ("return_code", 0.into()),
                ("cached", opt(ev.meta("cached"))),
                ("output", opt(ev.get("result"))),
                (
                    "metadata",
                    Self::dev_tool(
                        "tool_call_update",
                        json!({"tool_call_id": call, "status": "succeeded", "result": {"content": opt(ev.get("result"))}}),
                    ),
                ),
            ])
        } else {
            let err = ev.str("error").unwrap_or("tool failed");
            obj([
                ("tool_id", name.as_str().into()),
                ("status", "failed".into()),
                ("error", err.into()),
                ("execution_time", secs.unwrap_or(Value::Null)),
                ("retry_attempt", opt(ev.meta("retries"))),
                ("will_retry", false.into()),
                (
                    "metadata",
                    Self::dev_tool(
                        "tool_call_update",
                        json!({"tool_call_id": call, "status": "failed", "result": {"message": err}}),
                    ),
                ),
            ])
        };
        out.push(Out::plain(self.event(ev, "tool_execution", data)));
    }

    /// `input-required`: `input_required` (a permission prompt when the request offers options).
    fn input_required(&mut self, ev: &Canon<'_>, task: String, out: &mut Vec<Out>) {
        if ev.get("requireUser").and_then(Value::as_bool) == Some(false) {
            return;
        }
        let options = ev
            .get("options")
            .and_then(Value::as_array)
            .map(|o| permission_options(o))
            .filter(|o| !o.is_empty());
        let data = obj([
            ("prompt", opt_str(ev.str("prompt"))),
            ("input_types", json!(["text/plain"])),
            ("detection_method", "protocol_compliant".into()),
            ("input_id", opt_str(ev.str("inputId"))),
            ("input_type", opt_str(ev.str("inputType"))),
            ("schema", opt(ev.get("schema"))),
            (
                "permission_options",
                options.map_or(Value::Null, Value::Array),
            ),
            ("metadata", opt(ev.get("metadata"))),
        ]);
        self.set_state(&task, "input-required");
        out.push(Out::plain(self.event(ev, "input_required", data)));
    }
}

impl Encoder for AcpEncoder {
    fn encode(&mut self, ev: &Canon<'_>, out: &mut Vec<Out>) {
        let task = ev.task().to_owned();
        match ev.kind {
            "task-created" => {
                let parent = ev.str("parentTaskId");
                if parent.is_none() && self.root.is_none() {
                    self.root = Some(task.clone());
                }
                let parent = parent.map(|p| super::task_id(p, &self.run_id));
                let extra = obj([
                    ("parent_task_id", opt_str(parent.as_deref())),
                    ("agent_id", opt(ev.meta("agentId"))),
                    ("initiator", opt_str(ev.str("initiator"))),
                    ("metadata", opt(ev.get("metadata"))),
                ]);
                self.status_change(ev, "submitted", extra, out);
            }
            "task-status" => {
                let new = match ev.str("status").unwrap_or("") {
                    "working" | "waiting-subtask" => "working",
                    "completed" => "completed",
                    "failed" => "failed",
                    "canceled" => "cancelled",
                    _ => return,
                };
                let extra = obj([
                    ("reason", opt(ev.meta("reason"))),
                    ("canonical_status", opt_str(ev.str("status"))),
                ]);
                self.status_change(ev, new, extra, out);
            }
            "content-complete" => {
                let text = ev.str("content").unwrap_or("").to_owned();
                self.message(ev, &text, out);
            }
            "task-complete" => {
                if let Some(text) = ev.str("content") {
                    self.message(ev, text, out);
                }
            }
            "input-required" => self.input_required(ev, task, out),
            "auth-required" => {
                let auth = obj([
                    ("authType", opt(ev.get("authType"))),
                    ("provider", opt(ev.get("provider"))),
                    ("scopes", opt(ev.get("scopes"))),
                    ("authUrl", opt(ev.get("authUrl"))),
                ]);
                let data = obj([
                    ("prompt", opt_str(ev.str("prompt"))),
                    ("input_types", json!(["text/plain"])),
                    ("detection_method", "auth_required".into()),
                    ("auth_id", opt_str(ev.str("authId"))),
                    ("auth", auth),
                    ("metadata", opt(ev.get("metadata"))),
                ]);
                self.set_state(&task, "input-required");
                out.push(Out::plain(self.event(ev, "input_required", data)));
            }
            "tool-start" => {
                let call = ev.str("toolCallId").unwrap_or("");
                let name = ev.str("toolName").unwrap_or("tool");
                self.tools.insert(call.to_owned(), name.to_owned());
                let data = obj([
                    ("tool_id", name.into()),
                    ("status", "started".into()),
                    ("parameters", opt(ev.get("arguments"))),
                    ("execution_context", "scenario".into()),
                    (
                        "metadata",
                        Self::dev_tool(
                            "tool_call_update",
                            json!({"tool_call_id": call, "status": "executing", "tool_name": name}),
                        ),
                    ),
                ]);
                out.push(Out::plain(self.event(ev, "tool_execution", data)));
            }
            "tool-progress" => {
                let call = ev.str("toolCallId").unwrap_or("");
                let state = self.current(&task).unwrap_or("working");
                let tc = obj([
                    ("tool_call_id", call.into()),
                    ("status", "executing".into()),
                    ("live_content", opt_str(ev.str("message"))),
                    ("progress", opt(ev.get("progress"))),
                ]);
                let data = json!({
                    "old_state": state,
                    "new_state": state,
                    "metadata": Self::dev_tool("tool_call_update", tc),
                });
                out.push(Out::plain(self.event(ev, "status_change", data)));
            }
            "tool-complete" => self.tool_complete(ev, out),
            "thought-stream" => {
                let data = obj([
                    ("kind", "thought".into()),
                    ("content", opt_str(ev.str("content"))),
                    ("thought_type", opt_str(ev.str("thoughtType"))),
                    ("verbosity", opt_str(ev.str("verbosity"))),
                    ("timestamp", ev.ts().into()),
                ]);
                out.push(Out::plain(self.event(ev, "thought", data)));
            }
            "file-write" | "data-write" | "dataset-write" => {
                let info = self.artifacts.note(ev);
                let complete = ev.get("complete").and_then(Value::as_bool) == Some(true);
                // Files and datasets are announced once, when complete; data at each version.
                let (ty, content) = match ev.kind {
                    "file-write" if complete => ("file", Value::Null),
                    "data-write" => ("data", opt(ev.get("data"))),
                    "dataset-write" if complete => ("dataset", Value::Array(info.rows.clone())),
                    _ => return,
                };
                let data = obj([
                    ("artifact_type", ty.into()),
                    ("artifact_name", opt_str(info.name.as_deref())),
                    ("artifact_size", opt(info.size.as_ref())),
                    ("detection_text", opt_str(info.description.as_deref())),
                    ("mime_type", opt_str(info.mime.as_deref())),
                    ("artifact_id", opt_str(ev.str("artifactId"))),
                    ("version", opt(ev.meta("version"))),
                    (if ty == "data" { "data" } else { "rows" }, content),
                    ("schema", opt(info.schema.as_ref())),
                ]);
                out.push(Out::plain(self.event(ev, "artifact", data)));
            }
            // content-delta, input-received, auth-completed, subtask-created, internal:*.
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_become_permission_options() {
        let o = permission_options(&[
            json!("approve"),
            json!({"id": "x", "label": "Ex"}),
            json!(3),
        ]);
        assert_eq!(
            o,
            vec![
                json!({"optionId": "approve", "name": "Approve"}),
                json!({"optionId": "x", "name": "Ex"})
            ]
        );
    }
}
