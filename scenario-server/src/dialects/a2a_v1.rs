//! `a2a-v1`: the run of [`super::a2a`] in A2A v1.0 (the wire of the official 1.3.0 SDKs).
//!
//! Every v0.3 event of the A2A encoder is rewritten into a v1.0 `StreamResponse` with exactly
//! one of `task`, `message`, `statusUpdate`, `artifactUpdate`:
//!
//! | v0.3 | v1.0 |
//! |---|---|
//! | `kind` on events, messages and parts | gone (the member name says it) |
//! | `"state": "input-required"` | `"state": "TASK_STATE_INPUT_REQUIRED"` (every state likewise) |
//! | `"role": "agent"` / `"user"` | `"ROLE_AGENT"` / `"ROLE_USER"` |
//! | `{"kind":"text","text"}`, `{"kind":"data","data"}` | `{"text"}`, `{"data"}` |
//! | `{"kind":"file","file":{"name","mimeType","bytes"}}` | `{"raw","filename","mediaType"}` |
//! | `{"kind":"file","file":{"name","mimeType","uri"}}` | `{"url","filename","mediaType"}` |
//! | `final` | gone: the server ends the response instead |
//! | `append: false`, `lastChunk: false`, empty `history` / `metadata` | left out (proto3 JSON) |
//!
//! The frame flags are the A2A encoder's, so a v1.0 stream stops where a v0.3 one sends
//! `final: true`. [`TaskFold`] folds a task's events into the `Task` object of `GetTask`,
//! `CancelTask` and the snapshot that starts `SubscribeToTask` and answer streams.

use super::a2a::A2aEncoder;
use super::{Canon, Encoder, Out};
use serde_json::{Map, Value};

/// The A2A v1.0 encoder of one run: the v0.3 encoder, rewritten event by event.
pub struct A2aV1Encoder {
    inner: A2aEncoder,
    scratch: Vec<Out>,
}

impl A2aV1Encoder {
    /// An encoder for run `run_id` of context `context_id`.
    pub fn new(run_id: &str, context_id: &str) -> Self {
        A2aV1Encoder {
            inner: A2aEncoder::new(run_id, context_id),
            scratch: Vec::new(),
        }
    }
}

impl Encoder for A2aV1Encoder {
    fn encode(&mut self, ev: &Canon<'_>, out: &mut Vec<Out>) {
        self.scratch.clear();
        self.inner.encode(ev, &mut self.scratch);
        for o in self.scratch.drain(..) {
            out.push(Out {
                data: stream_response(&o.data),
                flags: o.flags,
            });
        }
    }
}

/// The v1.0 `TaskState` name of a v0.3 state (`TASK_STATE_UNSPECIFIED` when unknown).
pub fn state(v03: &str) -> &'static str {
    match v03 {
        "submitted" => "TASK_STATE_SUBMITTED",
        "working" => "TASK_STATE_WORKING",
        "completed" => "TASK_STATE_COMPLETED",
        "failed" => "TASK_STATE_FAILED",
        "canceled" => "TASK_STATE_CANCELED",
        "input-required" => "TASK_STATE_INPUT_REQUIRED",
        "rejected" => "TASK_STATE_REJECTED",
        "auth-required" => "TASK_STATE_AUTH_REQUIRED",
        _ => "TASK_STATE_UNSPECIFIED",
    }
}

/// The protobuf number of a v1.0 `TaskState` name (what the official servers print in their
/// "terminal state (3)" messages).
pub fn state_number(v1: &str) -> u8 {
    match v1 {
        "TASK_STATE_SUBMITTED" => 1,
        "TASK_STATE_WORKING" => 2,
        "TASK_STATE_COMPLETED" => 3,
        "TASK_STATE_FAILED" => 4,
        "TASK_STATE_CANCELED" => 5,
        "TASK_STATE_INPUT_REQUIRED" => 6,
        "TASK_STATE_REJECTED" => 7,
        "TASK_STATE_AUTH_REQUIRED" => 8,
        _ => 0,
    }
}

/// Whether a v1.0 state ends the task.
pub fn is_terminal(v1: &str) -> bool {
    matches!(
        v1,
        "TASK_STATE_COMPLETED"
            | "TASK_STATE_FAILED"
            | "TASK_STATE_CANCELED"
            | "TASK_STATE_REJECTED"
    )
}

/// Whether a v1.0 state pauses the task for the client (input or authentication).
pub fn is_interrupted(v1: &str) -> bool {
    matches!(v1, "TASK_STATE_INPUT_REQUIRED" | "TASK_STATE_AUTH_REQUIRED")
}

fn copy(from: &Map<String, Value>, to: &mut Map<String, Value>, keys: &[&str]) {
    for k in keys {
        if let Some(v) = from.get(*k).filter(|v| !is_empty(v)) {
            to.insert((*k).to_owned(), v.clone());
        }
    }
}

/// Null, `""`, `[]`, `{}`, `false`: what proto3 JSON leaves out.
fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        Value::Number(_) => false,
    }
}

/// A v0.3 part as a v1.0 `Part`.
pub fn part(p: &Value) -> Value {
    let Some(o) = p.as_object() else {
        return p.clone();
    };
    let mut m = Map::new();
    match o.get("kind").and_then(Value::as_str) {
        Some("text") => {
            // A set oneof member is written even when empty.
            m.insert("text".into(), o.get("text").cloned().unwrap_or("".into()));
        }
        Some("data") => {
            m.insert("data".into(), o.get("data").cloned().unwrap_or(Value::Null));
        }
        Some("file") => {
            let f = o.get("file").and_then(Value::as_object);
            let s = |k: &str| f.and_then(|f| f.get(k)).filter(|v| !is_empty(v)).cloned();
            if let Some(b) = f.and_then(|f| f.get("bytes")) {
                m.insert("raw".into(), b.clone());
            } else if let Some(u) = s("uri") {
                m.insert("url".into(), u);
            }
            if let Some(n) = s("name") {
                m.insert("filename".into(), n);
            }
            if let Some(t) = s("mimeType") {
                m.insert("mediaType".into(), t);
            }
        }
        _ => return p.clone(),
    }
    copy(o, &mut m, &["metadata"]);
    Value::Object(m)
}

fn parts(v: Option<&Value>) -> Value {
    Value::Array(
        v.and_then(Value::as_array)
            .map(|a| a.iter().map(part).collect())
            .unwrap_or_default(),
    )
}

/// A v0.3 message as a v1.0 `Message`.
pub fn message(v: &Value) -> Value {
    let Some(o) = v.as_object() else {
        return v.clone();
    };
    let mut m = Map::new();
    copy(o, &mut m, &["messageId", "contextId", "taskId"]);
    let role = match o.get("role").and_then(Value::as_str) {
        Some("user") => "ROLE_USER",
        Some("agent") => "ROLE_AGENT",
        _ => "ROLE_UNSPECIFIED",
    };
    m.insert("role".into(), role.into());
    m.insert("parts".into(), parts(o.get("parts")));
    copy(o, &mut m, &["metadata", "extensions", "referenceTaskIds"]);
    Value::Object(m)
}

fn status(v: Option<&Value>) -> Value {
    let o = v.and_then(Value::as_object);
    let g = |k: &str| o.and_then(|o| o.get(k));
    let mut m = Map::new();
    m.insert(
        "state".into(),
        state(g("state").and_then(Value::as_str).unwrap_or("")).into(),
    );
    if let Some(msg) = g("message").filter(|x| x.is_object()) {
        m.insert("message".into(), message(msg));
    }
    if let Some(o) = o {
        copy(o, &mut m, &["timestamp"]);
    }
    Value::Object(m)
}

/// A v0.3 artifact as a v1.0 `Artifact`.
pub fn artifact(v: &Value) -> Value {
    let Some(o) = v.as_object() else {
        return v.clone();
    };
    let mut m = Map::new();
    copy(o, &mut m, &["artifactId", "name", "description"]);
    m.insert("parts".into(), parts(o.get("parts")));
    copy(o, &mut m, &["metadata", "extensions"]);
    Value::Object(m)
}

/// A v0.3 streaming event (`task`, `message`, `status-update`, `artifact-update`) as a v1.0
/// `StreamResponse`; anything else is returned unchanged.
pub fn stream_response(v: &Value) -> Value {
    let Some(o) = v.as_object() else {
        return v.clone();
    };
    let mut m = Map::new();
    let name = match o.get("kind").and_then(Value::as_str) {
        Some("task") => {
            copy(o, &mut m, &["id", "contextId"]);
            m.insert("status".into(), status(o.get("status")));
            if let Some(a) = o.get("artifacts").and_then(Value::as_array) {
                if !a.is_empty() {
                    m.insert(
                        "artifacts".into(),
                        Value::Array(a.iter().map(artifact).collect()),
                    );
                }
            }
            if let Some(h) = o.get("history").and_then(Value::as_array) {
                if !h.is_empty() {
                    m.insert(
                        "history".into(),
                        Value::Array(h.iter().map(message).collect()),
                    );
                }
            }
            copy(o, &mut m, &["metadata"]);
            "task"
        }
        Some("message") => return single("message", message(v)),
        Some("status-update") => {
            copy(o, &mut m, &["taskId", "contextId"]);
            m.insert("status".into(), status(o.get("status")));
            copy(o, &mut m, &["metadata"]);
            "statusUpdate"
        }
        Some("artifact-update") => {
            copy(o, &mut m, &["taskId", "contextId"]);
            let a = o.get("artifact").map(artifact).unwrap_or(Value::Null);
            m.insert("artifact".into(), a);
            copy(o, &mut m, &["append", "lastChunk", "metadata"]);
            "artifactUpdate"
        }
        _ => return v.clone(),
    };
    single(name, Value::Object(m))
}

fn single(name: &str, v: Value) -> Value {
    let mut m = Map::new();
    m.insert(name.to_owned(), v);
    Value::Object(m)
}

/// The `Task` of one task id folded from its v1.0 `StreamResponse`s, the way the official
/// servers' task store keeps it: the last status; every status message (and the user's
/// messages) in `history`; artifacts by id, an `append` update adding its parts to the
/// artifact, any other update replacing it.
#[derive(Debug, Default, Clone)]
pub struct TaskFold {
    id: String,
    context_id: String,
    status: Option<Value>,
    artifacts: Vec<Value>,
    history: Vec<Value>,
    metadata: Option<Value>,
}

impl TaskFold {
    /// An empty fold of task `id` in context `context_id` (state submitted until an event
    /// says otherwise).
    pub fn new(id: &str, context_id: &str) -> TaskFold {
        TaskFold {
            id: id.to_owned(),
            context_id: context_id.to_owned(),
            ..TaskFold::default()
        }
    }

    /// Folds one `StreamResponse` (events of other tasks are ignored).
    pub fn add(&mut self, ev: &Value) {
        if let Some(t) = ev.get("task").filter(|t| t["id"] == self.id.as_str()) {
            self.set_status(t.get("status"));
            if let Some(m) = t.get("metadata") {
                self.metadata = Some(m.clone());
            }
            for a in t
                .get("artifacts")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                self.artifact(a, false);
            }
        } else if let Some(s) = ev
            .get("statusUpdate")
            .filter(|s| s["taskId"] == self.id.as_str())
        {
            self.set_status(s.get("status"));
        } else if let Some(a) = ev
            .get("artifactUpdate")
            .filter(|a| a["taskId"] == self.id.as_str())
        {
            let append = a.get("append").and_then(Value::as_bool) == Some(true);
            if let Some(art) = a.get("artifact") {
                self.artifact(art, append);
            }
        }
    }

    /// Adds a message of the client to `history`.
    pub fn push_history(&mut self, msg: Value) {
        self.history.push(msg);
    }

    fn set_status(&mut self, s: Option<&Value>) {
        let Some(s) = s else { return };
        if let Some(m) = s.get("message") {
            self.history.push(m.clone());
        }
        self.status = Some(s.clone());
    }

    fn artifact(&mut self, a: &Value, append: bool) {
        let id = a.get("artifactId");
        let found = self
            .artifacts
            .iter_mut()
            .find(|x| x.get("artifactId") == id);
        match (found, append) {
            (Some(old), true) => {
                if let (Some(o), Some(new)) = (old.as_object_mut(), a.as_object()) {
                    for (k, v) in new {
                        if k == "parts" {
                            if let Some(Value::Array(p)) = o.get_mut("parts") {
                                p.extend(v.as_array().cloned().unwrap_or_default());
                                continue;
                            }
                        }
                        o.insert(k.clone(), v.clone());
                    }
                }
            }
            (Some(old), false) => *old = a.clone(),
            (None, _) => self.artifacts.push(a.clone()),
        }
    }

    /// The task's current v1.0 state name.
    pub fn state(&self) -> &str {
        self.status
            .as_ref()
            .and_then(|s| s["state"].as_str())
            .unwrap_or("TASK_STATE_SUBMITTED")
    }

    /// The `Task` object.
    pub fn task(&self) -> Value {
        let mut m = Map::new();
        m.insert("id".into(), self.id.clone().into());
        m.insert("contextId".into(), self.context_id.clone().into());
        let status = self.status.clone().unwrap_or_else(|| {
            let mut s = Map::new();
            s.insert("state".into(), "TASK_STATE_SUBMITTED".into());
            Value::Object(s)
        });
        m.insert("status".into(), status);
        if !self.artifacts.is_empty() {
            m.insert("artifacts".into(), Value::Array(self.artifacts.clone()));
        }
        if !self.history.is_empty() {
            m.insert("history".into(), Value::Array(self.history.clone()));
        }
        if let Some(md) = self.metadata.as_ref().filter(|v| !is_empty(v)) {
            m.insert("metadata".into(), md.clone());
        }
        Value::Object(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn events_become_stream_responses() {
        let su = json!({"kind": "status-update", "taskId": "t@r", "contextId": "c", "final": true,
            "status": {"state": "input-required", "timestamp": "ts", "message": {"kind": "message",
            "role": "agent", "messageId": "m", "taskId": "t@r", "contextId": "c",
            "parts": [{"kind": "text", "text": "ok?"}, {"kind": "data", "data": {"a": 1}}]}}});
        assert_eq!(
            stream_response(&su),
            json!({"statusUpdate": {"taskId": "t@r", "contextId": "c", "status": {
                "state": "TASK_STATE_INPUT_REQUIRED", "timestamp": "ts", "message": {
                "messageId": "m", "contextId": "c", "taskId": "t@r", "role": "ROLE_AGENT",
                "parts": [{"text": "ok?"}, {"data": {"a": 1}}]}}}})
        );
        let au = json!({"kind": "artifact-update", "taskId": "t", "contextId": "c",
            "append": false, "lastChunk": true, "artifact": {"artifactId": "a", "name": "r.md",
            "parts": [{"kind": "file", "file": {"name": "r.md", "mimeType": "text/markdown",
            "bytes": "eA=="}}]}});
        assert_eq!(
            stream_response(&au),
            json!({"artifactUpdate": {"taskId": "t", "contextId": "c", "lastChunk": true,
                "artifact": {"artifactId": "a", "name": "r.md", "parts": [
                {"raw": "eA==", "filename": "r.md", "mediaType": "text/markdown"}]}}})
        );
        let t = json!({"kind": "task", "id": "t", "contextId": "c", "history": [], "metadata": {},
            "status": {"state": "submitted", "timestamp": "ts"}});
        assert_eq!(
            stream_response(&t),
            json!({"task": {"id": "t", "contextId": "c",
                "status": {"state": "TASK_STATE_SUBMITTED", "timestamp": "ts"}}})
        );
        assert_eq!(
            part(&json!({"kind": "file", "file": {"uri": "https://x/y.png", "name": "y.png"}})),
            json!({"url": "https://x/y.png", "filename": "y.png"})
        );
    }

    #[test]
    fn a_fold_keeps_status_history_and_appended_parts() {
        let mut f = TaskFold::new("t", "c");
        assert_eq!(f.state(), "TASK_STATE_SUBMITTED");
        let art = |parts: Value, append: bool| {
            let mut u = json!({"taskId": "t", "contextId": "c",
                "artifact": {"artifactId": "a", "parts": parts}});
            if append {
                u["append"] = true.into();
            }
            json!({"artifactUpdate": u})
        };
        f.add(&art(json!([{"text": "x"}]), false));
        f.add(&art(json!([{"text": "y"}]), true));
        f.add(&json!({"artifactUpdate": {"taskId": "other", "artifact": {"artifactId": "b"}}}));
        f.add(
            &json!({"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_WORKING",
            "message": {"messageId": "m1"}}}}),
        );
        f.push_history(json!({"messageId": "u1"}));
        let t = f.task();
        assert_eq!(t["status"]["state"], "TASK_STATE_WORKING");
        assert_eq!(
            t["artifacts"],
            json!([{"artifactId": "a", "parts": [{"text": "x"}, {"text": "y"}]}])
        );
        assert_eq!(
            t["history"],
            json!([{"messageId": "m1"}, {"messageId": "u1"}])
        );
        assert!(is_terminal("TASK_STATE_CANCELED") && !is_terminal("TASK_STATE_WORKING"));
        assert_eq!(state_number("TASK_STATE_COMPLETED"), 3);
    }
}
