//! `unified`: canonical events as Unified Agent Event Schema events (seed 003),
//! `{event_id, session_id, timestamp, type, payload}` (`event_id` is added by
//! [`super::Encoded`]). The mapping table is in the README ("Dialects", `unified`).

use super::{obj, opt, opt_str, Canon, Encoder, Out, ROOT_STATUS, TERMINAL};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};

#[derive(Default)]
struct Task {
    /// The sub-agent right under the root this task descends from (itself for those).
    top: Option<String>,
    agent: Option<String>,
    message_started: bool,
}

/// The Unified encoder of one run.
pub struct UnifiedEncoder {
    session: String,
    root: Option<String>,
    tasks: HashMap<String, Task>,
    tools: HashMap<String, String>,
    /// Requests passed through as canonical events (their answers follow them).
    requests: HashSet<String>,
    /// subtaskId → the prompt of its `subtask-created`.
    prompts: HashMap<String, String>,
}

impl UnifiedEncoder {
    /// An encoder for run `_run_id` whose context (the session) is `context_id`.
    pub fn new(_run_id: &str, context_id: &str) -> Self {
        UnifiedEncoder {
            session: context_id.to_owned(),
            root: None,
            tasks: HashMap::new(),
            tools: HashMap::new(),
            requests: HashSet::new(),
            prompts: HashMap::new(),
        }
    }

    fn event(&self, ev: &Canon<'_>, ty: &str, payload: Value) -> Value {
        json!({
            "session_id": self.session,
            "timestamp": ev.ts(),
            "type": ty,
            "payload": payload,
        })
    }

    fn agent(&self, task: &str) -> Value {
        opt_str(self.tasks.get(task).and_then(|t| t.agent.as_deref()))
    }

    fn is_root(&self, task: &str) -> bool {
        self.root.as_deref() == Some(task)
    }

    /// The canonical event with the session as context and task.
    fn passthrough(&self, ev: &Canon<'_>) -> Value {
        let mut v = ev.v.clone();
        if let Value::Object(m) = &mut v {
            m.insert("contextId".into(), self.session.clone().into());
            m.insert("taskId".into(), self.session.clone().into());
        }
        v
    }

    /// `task-created`: the session (the root task), a workflow run (its child) or a step.
    fn task_created(&mut self, ev: &Canon<'_>, task: String, out: &mut Vec<Out>) {
        let parent = ev.str("parentTaskId");
        let agent = ev
            .meta("agentId")
            .and_then(Value::as_str)
            .map(str::to_owned);
        match parent {
            None if self.root.is_none() => {
                self.root = Some(task.clone());
                self.tasks.insert(
                    task,
                    Task {
                        agent: agent.clone(),
                        ..Task::default()
                    },
                );
                let payload = obj([
                    ("session_id", self.session.as_str().into()),
                    ("agent", opt_str(agent.as_deref())),
                    ("metadata", opt(ev.get("metadata"))),
                ]);
                out.push(Out::plain(self.event(ev, "session_started", payload)));
            }
            Some(p) if self.is_root(p) => {
                self.tasks.insert(
                    task.clone(),
                    Task {
                        top: Some(task.clone()),
                        agent: agent.clone(),
                        ..Task::default()
                    },
                );
                let payload = obj([
                    ("workflow", opt_str(agent.as_deref())),
                    ("run_id", task.as_str().into()),
                    ("metadata", opt(ev.get("metadata"))),
                ]);
                out.push(Out::plain(self.event(ev, "workflow_started", payload)));
            }
            Some(p) => {
                let top = self.tasks.get(p).and_then(|t| t.top.clone());
                let Some(top) = top else { return };
                self.tasks.insert(
                    task.clone(),
                    Task {
                        top: Some(top.clone()),
                        agent: agent.clone(),
                        ..Task::default()
                    },
                );
                let payload = obj([
                    ("run_id", top.into()),
                    ("step_id", task.as_str().into()),
                    (
                        "description",
                        opt_str(self.prompts.get(&task).map(String::as_str)),
                    ),
                    ("agent", opt_str(agent.as_deref())),
                ]);
                out.push(Out::plain(self.event(ev, "workflow_step_started", payload)));
            }
            None => {}
        }
    }

    /// `task-status` of the root task: the session ends, or a retry / an error.
    fn root_status(&mut self, ev: &Canon<'_>, out: &mut Vec<Out>) {
        let (ty, payload) = match ev.str("status").unwrap_or("") {
            "completed" => (
                "session_ended",
                obj([
                    ("session_id", self.session.as_str().into()),
                    ("reason", "completed".into()),
                    ("summary", opt_str(ev.str("message"))),
                ]),
            ),
            "failed" => (
                "session_ended",
                obj([
                    ("session_id", self.session.as_str().into()),
                    ("reason", "failed".into()),
                    ("summary", opt_str(ev.str("message"))),
                    ("error", opt(ev.meta("reason"))),
                ]),
            ),
            "canceled" => (
                "run_interrupted",
                obj([
                    ("reason", "user_stop".into()),
                    ("message", opt(ev.meta("reason"))),
                ]),
            ),
            _ => return,
        };
        out.push(Out {
            data: self.event(ev, ty, payload),
            flags: ROOT_STATUS | TERMINAL,
        });
    }
}

impl Encoder for UnifiedEncoder {
    fn encode(&mut self, ev: &Canon<'_>, out: &mut Vec<Out>) {
        let task = ev.task().to_owned();
        match ev.kind {
            "task-created" => self.task_created(ev, task, out),
            "content-delta" => {
                let id = format!("{task}-answer");
                let agent = self.agent(&task);
                let started = self
                    .tasks
                    .get_mut(&task)
                    .map(|t| std::mem::replace(&mut t.message_started, true));
                if started == Some(false) {
                    let payload = obj([("agent", agent), ("message_id", id.as_str().into())]);
                    out.push(Out::plain(self.event(ev, "agent_message_start", payload)));
                }
                let payload = json!({"message_id": id, "delta": ev.str("delta").unwrap_or("")});
                out.push(Out::plain(self.event(ev, "agent_message_delta", payload)));
            }
            "content-complete" => {
                let payload = json!({
                    "message_id": format!("{task}-answer"),
                    "content": ev.str("content").unwrap_or(""),
                });
                out.push(Out::plain(self.event(ev, "agent_message_end", payload)));
            }
            "tool-start" => {
                let call = ev.str("toolCallId").unwrap_or("");
                let name = ev.str("toolName").unwrap_or("tool");
                self.tools.insert(call.to_owned(), name.to_owned());
                let payload = obj([
                    ("tool_call_id", call.into()),
                    ("tool_name", name.into()),
                    ("agent", self.agent(&task)),
                    ("args", opt(ev.get("arguments"))),
                ]);
                out.push(Out::plain(self.event(ev, "tool_call_started", payload)));
            }
            "tool-progress" => {
                let payload = obj([
                    ("tool_call_id", opt_str(ev.str("toolCallId"))),
                    ("delta", ev.str("message").unwrap_or("").into()),
                    ("progress", opt(ev.get("progress"))),
                ]);
                out.push(Out::plain(self.event(ev, "tool_call_delta", payload)));
            }
            "tool-complete" => {
                let call = ev.str("toolCallId").unwrap_or("");
                let name = ev
                    .str("toolName")
                    .or_else(|| self.tools.get(call).map(String::as_str));
                let ok = ev.get("success").and_then(Value::as_bool) != Some(false);
                let payload = obj([
                    ("tool_call_id", call.into()),
                    ("tool_name", opt_str(name)),
                    ("result", opt(ev.get("result"))),
                    (
                        "error",
                        if ok {
                            Value::Null
                        } else {
                            opt(ev.get("error"))
                        },
                    ),
                    ("success", if ok { Value::Null } else { false.into() }),
                ]);
                out.push(Out::plain(self.event(ev, "tool_call_result", payload)));
            }
            "thought-stream" => {
                let payload = obj([
                    ("agent", self.agent(&task)),
                    ("content", ev.str("content").unwrap_or("").into()),
                    ("debug", false.into()),
                    ("thought_type", opt_str(ev.str("thoughtType"))),
                    ("verbosity", opt_str(ev.str("verbosity"))),
                ]);
                out.push(Out::plain(self.event(ev, "agent_thought", payload)));
            }
            "task-complete" if !self.is_root(&task) => {
                let Some(t) = self.tasks.get(&task) else {
                    return;
                };
                let content = opt_str(ev.str("content"));
                let (ty, payload) = match t.top.as_deref() {
                    Some(top) if top == task => (
                        "workflow_completed",
                        json!({"run_id": task, "result": obj([("summary", content)])}),
                    ),
                    Some(top) => (
                        "workflow_step_completed",
                        obj([
                            ("run_id", top.into()),
                            ("step_id", task.as_str().into()),
                            ("output", content),
                        ]),
                    ),
                    None => return,
                };
                out.push(Out::plain(self.event(ev, ty, payload)));
            }
            "task-status" if self.is_root(&task) => self.root_status(ev, out),
            "subtask-created" => {
                if let (Some(s), Some(p)) = (ev.str("subtaskId"), ev.str("prompt")) {
                    self.prompts.insert(s.to_owned(), p.to_owned());
                }
            }
            "data-write" => {
                let payload = ev.get("data").cloned().unwrap_or_else(|| json!({}));
                out.push(Out::plain(self.event(ev, "metrics_update", payload)));
            }
            "input-required" | "auth-required" => {
                if ev.get("requireUser").and_then(Value::as_bool) == Some(false) {
                    return;
                }
                let id = ev.str("inputId").or_else(|| ev.str("authId")).unwrap_or("");
                self.requests.insert(id.to_owned());
                out.push(Out::plain(self.passthrough(ev)));
            }
            "input-received" | "auth-completed" => {
                let id = ev.str("inputId").or_else(|| ev.str("authId")).unwrap_or("");
                if self.requests.remove(id) {
                    out.push(Out::plain(self.passthrough(ev)));
                }
            }
            // Other statuses, file and dataset artifacts, subtask-created, internal:*.
            _ => {}
        }
    }
}
