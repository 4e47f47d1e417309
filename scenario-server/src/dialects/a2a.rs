//! `a2a`: canonical events as A2A v0.3 streaming events (seed 001): `task`, `status-update`,
//! `artifact-update`. The mapping table is in the README ("Dialects", `a2a`).

use super::{
    obj, opt, opt_str, Artifacts, Canon, Encoder, Out, ENDS, ROOT_FAILED, ROOT_STATUS, TERMINAL,
};
use crate::util::base64;
use serde_json::{json, Map, Value};
use std::collections::HashMap;

#[derive(Default)]
struct Task {
    completed_sent: bool,
    state: &'static str,
}

/// The A2A encoder of one run.
pub struct A2aEncoder {
    run_id: String,
    context_id: String,
    root: Option<String>,
    tasks: HashMap<String, Task>,
    artifacts: Artifacts,
    /// toolCallId → tool name.
    tools: HashMap<String, String>,
}

/// The metadata of a canonical event without its `metadata` wrapper (an empty map when absent).
fn meta_map(ev: &Canon<'_>) -> Map<String, Value> {
    ev.get("metadata")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

impl A2aEncoder {
    /// An encoder for run `run_id` of context `context_id`.
    pub fn new(run_id: &str, context_id: &str) -> Self {
        A2aEncoder {
            run_id: run_id.to_owned(),
            context_id: context_id.to_owned(),
            root: None,
            tasks: HashMap::new(),
            artifacts: Artifacts::default(),
            tools: HashMap::new(),
        }
    }

    fn is_root(&self, task: &str) -> bool {
        self.root.as_deref() == Some(task)
    }

    /// The A2A id of canonical task `task`.
    fn tid(&self, task: &str) -> String {
        super::task_id(task, &self.run_id)
    }

    fn message(&self, task: &str, id: u64, parts: Vec<Value>) -> Value {
        let task = self.tid(task);
        json!({
            "kind": "message",
            "role": "agent",
            "messageId": format!("{task}-m{id}"),
            "parts": parts,
            "taskId": task,
            "contextId": self.context_id,
        })
    }

    fn text_message(&self, task: &str, id: u64, text: Option<&str>) -> Value {
        match text {
            Some(t) => self.message(task, id, vec![json!({"kind": "text", "text": t})]),
            None => Value::Null,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn status(
        &mut self,
        ev: &Canon<'_>,
        state: &'static str,
        message: Value,
        metadata: Option<Map<String, Value>>,
        stops: bool,
        out: &mut Vec<Out>,
    ) {
        let task = ev.task();
        let root = self.is_root(task);
        let fin = root && stops;
        let mut flags = 0;
        if root {
            flags |= ROOT_STATUS;
            if fin {
                flags |= ENDS;
            }
            if matches!(state, "completed" | "failed" | "canceled" | "rejected") {
                flags |= TERMINAL;
            }
            if state == "failed" {
                flags |= ROOT_FAILED;
            }
        }
        if let Some(t) = self.tasks.get_mut(task) {
            t.state = state;
        }
        let mut status = Map::new();
        status.insert("state".into(), state.into());
        if !message.is_null() {
            status.insert("message".into(), message);
        }
        status.insert("timestamp".into(), ev.ts().into());
        let mut e = Map::new();
        e.insert("kind".into(), "status-update".into());
        e.insert("taskId".into(), self.tid(task).into());
        e.insert("contextId".into(), self.context_id.clone().into());
        e.insert("status".into(), Value::Object(status));
        e.insert("final".into(), fin.into());
        if let Some(m) = metadata.filter(|m| !m.is_empty()) {
            e.insert("metadata".into(), Value::Object(m));
        }
        out.push(Out {
            data: Value::Object(e),
            flags,
        });
    }

    /// The final status-update of a request: the prompt as a text part, the details as a data
    /// part.
    fn request(
        &mut self,
        ev: &Canon<'_>,
        state: &'static str,
        default_prompt: &str,
        details: Map<String, Value>,
        out: &mut Vec<Out>,
    ) {
        let text = ev.str("prompt").unwrap_or(default_prompt);
        let parts = vec![
            json!({"kind": "text", "text": text}),
            json!({"kind": "data", "data": details}),
        ];
        let msg = self.message(ev.task(), ev.id, parts);
        self.status(ev, state, msg, None, true, out);
    }

    /// A `working` status-update that carries a canonical event with no A2A counterpart.
    fn carried(&mut self, ev: &Canon<'_>, text: String, out: &mut Vec<Out>) {
        let msg = self.text_message(ev.task(), ev.id, Some(&text));
        let mut m = Map::new();
        m.insert("agentwire".into(), ev.v.clone());
        self.status(ev, "working", msg, Some(m), false, out);
    }

    fn artifact(
        &self,
        ev: &Canon<'_>,
        artifact: Value,
        append: bool,
        last: bool,
        out: &mut Vec<Out>,
    ) {
        out.push(Out::plain(json!({
            "kind": "artifact-update",
            "taskId": self.tid(ev.task()),
            "contextId": self.context_id,
            "artifact": artifact,
            "append": append,
            "lastChunk": last,
        })));
    }

    /// `task-created`: the root `task` (submitted), or a sub-task announced on the root.
    fn task_created(&mut self, ev: &Canon<'_>, task: String, out: &mut Vec<Out>) {
        let parent = ev.str("parentTaskId");
        if parent.is_none() && self.root.is_none() {
            self.root = Some(task.clone());
        }
        self.tasks.insert(
            task.clone(),
            Task {
                completed_sent: false,
                state: "submitted",
            },
        );
        let mut m = meta_map(ev);
        if let Some(p) = parent {
            m.insert("parentTaskId".into(), self.tid(p).into());
        }
        if let Some(i) = ev.str("initiator") {
            m.insert("initiator".into(), i.into());
        }
        out.push(Out::plain(json!({
            "kind": "task",
            "id": self.tid(&task),
            "contextId": self.context_id,
            "status": {"state": "submitted", "timestamp": ev.ts()},
            "history": [],
            "metadata": m,
        })));
    }

    /// `task-status`: a `status-update`.
    fn task_status(&mut self, ev: &Canon<'_>, task: String, out: &mut Vec<Out>) {
        let status = ev.str("status").unwrap_or("");
        let msg = self.text_message(&task, ev.id, ev.str("message"));
        match status {
            "working" | "waiting-subtask" => {
                let mut meta = None;
                if status != "working" || ev.get("metadata").is_some() {
                    let mut a = meta_map(ev);
                    a.insert("status".into(), status.into());
                    let mut m = Map::new();
                    m.insert("agentwire".into(), Value::Object(a));
                    meta = Some(m);
                }
                self.status(ev, "working", msg, meta, false, out);
            }
            "completed" => {
                if let Some(t) = self.tasks.get_mut(&task) {
                    t.completed_sent = true;
                }
                self.status(ev, "completed", msg, Some(meta_map(ev)), true, out);
            }
            "failed" | "canceled" => {
                let state = if status == "failed" {
                    "failed"
                } else {
                    "canceled"
                };
                self.status(ev, state, msg, Some(meta_map(ev)), true, out);
            }
            // waiting-input / waiting-auth: the request's status-update says it.
            _ => {}
        }
    }
}

impl Encoder for A2aEncoder {
    fn encode(&mut self, ev: &Canon<'_>, out: &mut Vec<Out>) {
        let task = ev.task().to_owned();
        match ev.kind {
            "task-created" => self.task_created(ev, task, out),
            "task-status" => self.task_status(ev, task, out),
            "task-complete" => {
                let sent = self.tasks.get(&task).is_some_and(|t| t.completed_sent);
                if !sent {
                    if let Some(t) = self.tasks.get_mut(&task) {
                        t.completed_sent = true;
                    }
                    let msg = self.text_message(&task, ev.id, ev.str("content"));
                    self.status(ev, "completed", msg, Some(meta_map(ev)), true, out);
                }
            }
            "input-required" => {
                if ev.get("requireUser").and_then(Value::as_bool) == Some(false) {
                    return;
                }
                let mut d = meta_map(ev);
                for k in ["inputId", "inputType", "options", "schema"] {
                    if let Some(v) = ev.get(k) {
                        d.insert(k.into(), v.clone());
                    }
                }
                self.request(ev, "input-required", "Input required", d, out);
            }
            "auth-required" => {
                let mut d = Map::new();
                for k in ["authId", "authType", "provider", "scopes", "authUrl"] {
                    if let Some(v) = ev.get(k) {
                        d.insert(k.into(), v.clone());
                    }
                }
                if let Some(x) = ev.meta("expiresIn") {
                    d.insert("expiresIn".into(), x.clone());
                }
                self.request(ev, "auth-required", "Authentication required", d, out);
            }
            "content-delta" => {
                let index = ev.get("index").and_then(Value::as_u64).unwrap_or(0);
                let art = json!({
                    "artifactId": format!("{task}-answer"),
                    "name": "answer",
                    "parts": [{"kind": "text", "text": ev.str("delta").unwrap_or("")}],
                });
                self.artifact(ev, art, index > 0, false, out);
            }
            "content-complete" => {
                let art = json!({
                    "artifactId": format!("{task}-answer"),
                    "parts": [{"kind": "text", "text": ""}],
                });
                self.artifact(ev, art, true, true, out);
            }
            "file-write" => {
                let index = ev.get("index").and_then(Value::as_u64).unwrap_or(0);
                let info = self.artifacts.note(ev);
                let data = ev.str("data").unwrap_or("");
                // A2A file bytes are base64: utf-8 chunks are encoded.
                let bytes = match info.encoding.as_deref() {
                    Some("base64") => data.to_owned(),
                    _ => base64(data.as_bytes()),
                };
                let file = obj([
                    ("name", opt_str(ev.str("name"))),
                    ("mimeType", opt_str(ev.str("mimeType"))),
                    ("bytes", bytes.into()),
                ]);
                let art = obj([
                    ("artifactId", opt_str(ev.str("artifactId"))),
                    ("name", opt_str(ev.str("name"))),
                    ("description", opt_str(ev.str("description"))),
                    ("parts", json!([{"kind": "file", "file": file}])),
                    ("metadata", opt(ev.get("metadata"))),
                ]);
                let last = ev.get("complete").and_then(Value::as_bool) == Some(true);
                self.artifact(ev, art, index > 0, last, out);
            }
            "data-write" | "dataset-write" => {
                let info = self.artifacts.note(ev);
                let data = if ev.kind == "data-write" {
                    opt(ev.get("data"))
                } else {
                    obj([
                        ("rows", Value::Array(info.rows.clone())),
                        ("schema", opt(info.schema.as_ref())),
                    ])
                };
                let art = obj([
                    ("artifactId", opt_str(ev.str("artifactId"))),
                    ("name", opt_str(info.name.as_deref())),
                    ("description", opt_str(info.description.as_deref())),
                    ("parts", json!([{"kind": "data", "data": data}])),
                    ("metadata", opt(ev.get("metadata"))),
                ]);
                // Each version replaces the last; a dataset's last batch ends it.
                let last = ev.kind == "data-write"
                    || ev.get("complete").and_then(Value::as_bool) == Some(true);
                self.artifact(ev, art, false, last, out);
            }
            "tool-start" => {
                let name = ev.str("toolName").unwrap_or("tool").to_owned();
                if let Some(c) = ev.str("toolCallId") {
                    self.tools.insert(c.to_owned(), name.clone());
                }
                self.carried(ev, format!("{name}: started"), out);
            }
            "tool-progress" => {
                let name = ev
                    .str("toolCallId")
                    .and_then(|c| self.tools.get(c))
                    .cloned()
                    .unwrap_or_else(|| "tool".to_owned());
                let text = match ev.str("message") {
                    Some(m) => format!("{name}: {m}"),
                    None => format!("{name}: working"),
                };
                self.carried(ev, text, out);
            }
            "tool-complete" => {
                let name = ev.str("toolName").unwrap_or("tool");
                let text = match ev.get("success").and_then(Value::as_bool) {
                    Some(false) => format!(
                        "{name} failed: {}",
                        ev.str("error").unwrap_or("unknown error")
                    ),
                    _ => format!("{name}: done"),
                };
                self.carried(ev, text, out);
            }
            "thought-stream" => {
                let text = ev.str("content").unwrap_or("").to_owned();
                self.carried(ev, text, out);
            }
            // input-received, auth-completed, subtask-created, internal:*: no A2A counterpart.
            _ => {}
        }
    }
}

/// The `Task` object of A2A for `tasks/get` and `tasks/cancel` answers.
pub fn task_object(task: &str, context_id: &str, state: &str, timestamp: &str) -> Value {
    json!({
        "kind": "task",
        "id": task,
        "contextId": context_id,
        "status": {"state": state, "timestamp": timestamp},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(e: &mut A2aEncoder, id: u64, v: Value) -> Vec<Out> {
        let kind = v["kind"].as_str().unwrap_or("").to_owned();
        let mut out = Vec::new();
        e.encode(
            &Canon {
                id,
                kind: &kind,
                v: &v,
            },
            &mut out,
        );
        out
    }

    #[test]
    fn root_final_flags_and_chunks() {
        let mut e = A2aEncoder::new("r1", "ctx-r1");
        let o = enc(
            &mut e,
            0,
            json!({"kind":"task-created","contextId":"ctx-r1","taskId":"t","initiator":"user","timestamp":"x"}),
        );
        assert_eq!(o[0].data["kind"], "task");
        assert_eq!(o[0].data["id"], "t@r1");
        let o = enc(
            &mut e,
            1,
            json!({"kind":"input-required","contextId":"ctx-r1","taskId":"t","inputId":"i","requireUser":true,"inputType":"confirmation","prompt":"ok?","options":["approve","deny"],"timestamp":"x"}),
        );
        assert_eq!(o[0].flags, ROOT_STATUS | ENDS);
        assert_eq!(o[0].data["final"], true);
        assert_eq!(
            o[0].data["status"]["message"]["parts"][1]["data"]["options"][1],
            "deny"
        );
        let o = enc(
            &mut e,
            2,
            json!({"kind":"content-delta","contextId":"ctx-r1","taskId":"t","delta":"a","index":0,"timestamp":"x"}),
        );
        assert_eq!(o[0].data["append"], false);
        let o = enc(
            &mut e,
            3,
            json!({"kind":"file-write","contextId":"ctx-r1","taskId":"t","artifactId":"f","data":"hé","index":0,"complete":true,"encoding":"utf-8","name":"n.md","timestamp":"x"}),
        );
        assert_eq!(
            o[0].data["artifact"]["parts"][0]["file"]["bytes"],
            base64("hé".as_bytes())
        );
        let o = enc(
            &mut e,
            4,
            json!({"kind":"task-status","contextId":"ctx-r1","taskId":"t","status":"failed","metadata":{"reason":"r"},"timestamp":"x"}),
        );
        assert_eq!(o[0].flags, ROOT_STATUS | ENDS | TERMINAL | ROOT_FAILED);
        assert_eq!(o[0].data["metadata"]["reason"], "r");
        assert_eq!(base64(b"ab"), "YWI=");
    }
}
