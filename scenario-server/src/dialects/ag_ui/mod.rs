//! `ag-ui`: a run's protocol-000 events as AG-UI 1.0 events (`@ag-ui/core` 1.0.0; see
//! `tests/ag-ui/WIRE.md`). Served by [`crate::ag_ui`] at `POST /api/ag-ui`, which adds the run
//! lifecycle (`RUN_STARTED`, `STATE_SNAPSHOT`, `RUN_FINISHED` / `RUN_ERROR`) around what this
//! translator writes, one AG-UI run per POST.
//!
//! | canonical | AG-UI |
//! |---|---|
//! | root `task-created` | `STATE_DELTA` `add /tasks/<taskId>` (the root task *is* the AG-UI run) |
//! | `subtask-created` (or a `task-created` with `parentTaskId` not announced) | `SUBAGENT_STARTED {subagentRunId: <subtaskId>, name: <agentId>, description: <prompt>, parentSubagentRunId?}` + `STATE_DELTA add /tasks/<id>` |
//! | `task-status` | `STATE_DELTA replace /tasks/<id>/status`; `working` with a `message` opens a step `STEP_STARTED {stepName: <message>}`, the task's next status closes it (`STEP_FINISHED`) |
//! | sub-agent `task-status` `completed` / `failed` / `canceled` | `SUBAGENT_FINISHED {outcome: {type: "success"}, result?: {content}}` / `SUBAGENT_ERROR {message: <reason>, code: "failed"\|"canceled"}` |
//! | root `task-status` terminal | everything still open is closed; the endpoint ends the run (`RUN_FINISHED` success / cancelled, `RUN_ERROR`) |
//! | `content-delta` | `TEXT_MESSAGE_START {messageId: "msg-<taskId>", role: "assistant"}` (first) + `TEXT_MESSAGE_CONTENT` |
//! | `content-complete` | `TEXT_MESSAGE_END` |
//! | `tool-start` | `TOOL_CALL_START {toolCallId, toolCallName, parentMessageId: "msg-<taskId>"}`, the arguments JSON in 2–3 `TOOL_CALL_ARGS` deltas, `TOOL_CALL_END` |
//! | `tool-progress` | `ACTIVITY_SNAPSHOT` (first) / `ACTIVITY_DELTA` of `activityType: "tool-progress"`, `messageId: "progress-<toolCallId>"` |
//! | `tool-complete` | `TOOL_CALL_RESULT {messageId: "result-<toolCallId>", toolCallId, role: "tool", content: <result JSON text>}` (failure: `{"error": …}`) + the progress activity's final status |
//! | `thought-stream` | `REASONING_START {messageId: "span-<thoughtId>"}`, `REASONING_MESSAGE_START {messageId: <thoughtId>, role: "reasoning"}`, `REASONING_MESSAGE_CONTENT`, `REASONING_MESSAGE_END`, `REASONING_END` |
//! | `input-required` / `auth-required` | `STATE_DELTA add /requests/<id>` (status `open`); when the script then waits for the client it becomes an interrupt of `RUN_FINISHED` (see [`Pending`]) |
//! | `input-received` / `auth-completed` | `STATE_DELTA replace /requests/<id>/status` (`answered` / `completed`) |
//! | `file-write` / `data-write` / `dataset-write` | `STATE_DELTA` `add` / `replace` `/artifacts/<kind>~1<name>` (the key `"file/report.md"` has a `/`), `ACTIVITY_SNAPSHOT` / `ACTIVITY_DELTA` of `activityType: "artifact"` (`messageId: "artifact-<artifactId>"`), and once the content is whole (each data version, the last file chunk, the last dataset batch) `CUSTOM {name: "artifact", value: {artifactId, kind, name, mimeType?, encoding?, content \| data \| rows}}` |
//! | `task-complete` | nothing (the root's `content` and `artifacts` become `RUN_FINISHED.result`) |
//! | `internal:*` | `RAW {event: <the canonical event>, source: "agentwire-scenario"}` |
//!
//! Every event of a sub-agent's task carries `subagentRunId: <taskId>` (nested sub-agents name
//! their parent in `parentSubagentRunId`). Run boundaries: [`AgUiEncoder::suspend`] closes what
//! is open when a run ends on an interrupt (sub-agents get `SUBAGENT_FINISHED {outcome:
//! {type: "suspended"}}`), [`AgUiEncoder::reopen`] opens it again at the start of the next run,
//! so every AG-UI run passes the official client's `verifyEvents`.

mod artifacts;
mod requests;

use super::{Artifacts, Canon};
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// The `source` of `RAW` events.
pub const RAW_SOURCE: &str = "agentwire-scenario";

/// Escapes one JSON Pointer segment (RFC 6901: `~` → `~0`, `/` → `~1`).
pub fn pointer_segment(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// Splits `s` into `n` pieces of about equal byte size, at character boundaries (fewer when
/// `s` is short; never an empty piece unless `s` is empty).
pub fn split_deltas(s: &str, n: usize) -> Vec<&str> {
    let n = n.max(1);
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    for k in 1..n {
        let mut cut = (s.len() * k / n).max(start);
        while cut < s.len() && !s.is_char_boundary(cut) {
            cut += 1;
        }
        if cut > start && cut < s.len() {
            out.push(&s[start..cut]);
            start = cut;
        }
    }
    out.push(&s[start..]);
    out
}

/// A request of the script that may become an interrupt: asked with `requireUser` (inputs) or
/// an auth request, not yet answered in the log.
#[derive(Debug, Clone)]
pub struct Pending {
    /// The run's request key (`input/<task>/<id>` or `auth/<task>/<id>`).
    pub key: String,
    /// The AG-UI `Interrupt` object.
    pub interrupt: Value,
    /// The task that asked.
    pub task: String,
    /// The canonical `options` of an input request.
    pub options: Vec<String>,
}

#[derive(Debug, Clone, Default)]
struct TaskInfo {
    /// A sub-agent (not the root task).
    sub: bool,
    /// `SUBAGENT_STARTED` (name, description, parentSubagentRunId) once announced.
    started: Option<Value>,
    /// The sub-agent is running (started and not ended).
    active: bool,
    /// Its text message is open.
    text_open: bool,
    /// Its open step.
    step: Option<String>,
    /// The text of its last `content-complete`.
    content: Option<String>,
}

#[derive(Debug, Clone, Default)]
struct ArtifactState {
    key: String,
    chunks: u64,
    bytes: u64,
    text: String,
    version: u64,
    activity: bool,
}

/// How the root task ended.
#[derive(Debug, Clone, PartialEq)]
pub enum RootEnd {
    /// `completed`.
    Completed,
    /// `failed`, with the reason.
    Failed(String),
    /// `canceled`.
    Canceled,
}

/// The AG-UI translator of one run (one AG-UI thread).
#[derive(Debug, Clone, Default)]
pub struct AgUiEncoder {
    root: Option<String>,
    tasks: HashMap<String, TaskInfo>,
    /// Sub-agents in the order they started.
    order: Vec<String>,
    /// `subtask-created` announcements waiting for their `task-created`.
    announced: HashMap<String, Value>,
    state: Map<String, Value>,
    pending: Vec<Pending>,
    artifacts: Artifacts,
    art: HashMap<String, ArtifactState>,
    progress: HashMap<String, bool>,
    end: Option<RootEnd>,
    result: Option<Value>,
}

fn attrib(mut v: Value, sub: Option<&str>) -> Value {
    if let (Some(s), Some(o)) = (sub, v.as_object_mut()) {
        o.insert("subagentRunId".into(), s.into());
    }
    v
}

fn delta(ops: Vec<Value>) -> Value {
    json!({"type": "STATE_DELTA", "delta": ops})
}

/// Decoded size of a base64 text.
fn b64_len(s: &str) -> u64 {
    let pad = s.bytes().rev().take_while(|&b| b == b'=').count() as u64;
    (s.len() as u64 / 4 * 3).saturating_sub(pad)
}

impl AgUiEncoder {
    /// A fresh translator; its shared state starts as `{"run": run, "tasks": {}, "artifacts":
    /// {}, "requests": {}, "turn": 1}`.
    pub fn new(run: Value) -> Self {
        let mut state = Map::new();
        state.insert("run".into(), run);
        state.insert("tasks".into(), json!({}));
        state.insert("artifacts".into(), json!({}));
        state.insert("requests".into(), json!({}));
        state.insert("turn".into(), json!(1));
        AgUiEncoder {
            state,
            ..Default::default()
        }
    }

    /// The shared state document (what `STATE_SNAPSHOT` sends).
    pub fn state(&self) -> Value {
        Value::Object(self.state.clone())
    }

    /// Sets a top-level member of the state (e.g. `turn`) and returns the `STATE_DELTA`.
    pub fn set_top(&mut self, key: &str, v: Value) -> Value {
        let op = if self.state.contains_key(key) {
            "replace"
        } else {
            "add"
        };
        self.state.insert(key.to_owned(), v.clone());
        delta(vec![
            json!({"op": op, "path": format!("/{}", pointer_segment(key)), "value": v}),
        ])
    }

    /// How the root task ended, once it did.
    pub fn root_end(&self) -> Option<&RootEnd> {
        self.end.as_ref()
    }

    /// `RUN_FINISHED.result` of a completed run: the root's `task-complete` (`content`,
    /// `artifacts`), or its last text.
    pub fn result(&self) -> Option<Value> {
        self.result.clone().or_else(|| {
            let root = self.tasks.get(self.root.as_deref()?)?;
            root.content.clone().map(|c| json!({"content": c}))
        })
    }

    /// Requests asked and not answered in the log, oldest first.
    pub fn pending(&self) -> &[Pending] {
        &self.pending
    }

    fn sub_of(&self, task: &str) -> Option<&str> {
        self.tasks
            .get_key_value(task)
            .filter(|(_, t)| t.sub)
            .map(|(k, _)| k.as_str())
    }

    fn state_obj(&mut self, k: &str) -> &mut Map<String, Value> {
        let v = self.state.entry(k.to_owned()).or_insert_with(|| json!({}));
        if !v.is_object() {
            *v = json!({});
        }
        v.as_object_mut().expect("an object")
    }

    /// `add` (absent) or `replace` (present) of `/<top>/<key>` to `v`.
    fn put(&mut self, top: &str, key: &str, v: Value) -> Value {
        let m = self.state_obj(top);
        let op = if m.contains_key(key) {
            "replace"
        } else {
            "add"
        };
        m.insert(key.to_owned(), v.clone());
        json!({"op": op, "path": format!("/{top}/{}", pointer_segment(key)), "value": v})
    }

    /// `replace` of `/<top>/<key>/<field>` (`add` when the field is new).
    fn set_field(&mut self, top: &str, key: &str, field: &str, v: Value) -> Option<Value> {
        let entry = self.state_obj(top).get_mut(key)?.as_object_mut()?;
        let op = if entry.contains_key(field) {
            "replace"
        } else {
            "add"
        };
        entry.insert(field.to_owned(), v.clone());
        Some(json!({
            "op": op,
            "path": format!("/{top}/{}/{}", pointer_segment(key), pointer_segment(field)),
            "value": v,
        }))
    }

    /// Appends what `ev` becomes.
    pub fn encode(&mut self, ev: &Canon<'_>, out: &mut Vec<Value>) {
        let task = ev.task().to_owned();
        if ev.kind.starts_with("internal:") {
            out.push(attrib(
                json!({"type": "RAW", "event": ev.v, "source": RAW_SOURCE}),
                self.sub_of(&task),
            ));
            return;
        }
        match ev.kind {
            "task-created" => self.task_created(ev, &task, out),
            "subtask-created" => {
                if let Some(sub) = ev.str("subtaskId") {
                    let parent_sub = self.sub_of(&task).map(str::to_owned);
                    let mut s = json!({
                        "type": "SUBAGENT_STARTED",
                        "subagentRunId": sub,
                        "name": ev.str("agentId").unwrap_or("subagent"),
                    });
                    if let Some(p) = ev.str("prompt") {
                        s["description"] = p.into();
                    }
                    if let Some(p) = parent_sub {
                        s["parentSubagentRunId"] = p.into();
                    }
                    self.announced.insert(sub.to_owned(), s);
                }
            }
            "task-status" => self.status(ev, &task, out),
            "content-delta" => {
                let sub = self.sub_of(&task).map(str::to_owned);
                let id = format!("msg-{task}");
                let t = self.tasks.entry(task.clone()).or_default();
                if !t.text_open {
                    t.text_open = true;
                    out.push(attrib(
                        json!({"type": "TEXT_MESSAGE_START", "messageId": id, "role": "assistant"}),
                        sub.as_deref(),
                    ));
                }
                out.push(attrib(
                    json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": id, "delta": ev.str("delta").unwrap_or("")}),
                    sub.as_deref(),
                ));
            }
            "content-complete" => {
                let sub = self.sub_of(&task).map(str::to_owned);
                let t = self.tasks.entry(task.clone()).or_default();
                t.content = ev.str("content").map(str::to_owned);
                if t.text_open {
                    t.text_open = false;
                    out.push(attrib(
                        json!({"type": "TEXT_MESSAGE_END", "messageId": format!("msg-{task}")}),
                        sub.as_deref(),
                    ));
                }
            }
            "task-complete" if Some(&task) == self.root.as_ref() => {
                let mut r = Map::new();
                if let Some(c) = ev.get("content") {
                    r.insert("content".into(), c.clone());
                }
                if let Some(a) = ev.get("artifacts") {
                    r.insert("artifacts".into(), a.clone());
                }
                self.result = Some(Value::Object(r));
            }
            "tool-start" => self.tool_start(ev, &task, out),
            "tool-progress" => self.tool_progress(ev, &task, out),
            "tool-complete" => self.tool_complete(ev, &task, out),
            "thought-stream" => {
                let sub = self.sub_of(&task).map(str::to_owned);
                let id = ev.str("thoughtId").unwrap_or("thought").to_owned();
                let span = format!("span-{id}");
                let text = ev.str("content").unwrap_or("");
                let mut evs = vec![
                    json!({"type": "REASONING_START", "messageId": span}),
                    json!({"type": "REASONING_MESSAGE_START", "messageId": id, "role": "reasoning"}),
                ];
                for d in split_deltas(text, if text.len() >= 40 { 2 } else { 1 }) {
                    evs.push(
                        json!({"type": "REASONING_MESSAGE_CONTENT", "messageId": id, "delta": d}),
                    );
                }
                evs.push(json!({"type": "REASONING_MESSAGE_END", "messageId": id}));
                evs.push(json!({"type": "REASONING_END", "messageId": span}));
                out.extend(evs.into_iter().map(|e| attrib(e, sub.as_deref())));
            }
            "input-required" | "auth-required" => self.request(ev, &task, out),
            "input-received" | "auth-completed" => {
                let (prefix, field, status) = if ev.kind == "input-received" {
                    ("input", "inputId", "answered")
                } else {
                    ("auth", "authId", "completed")
                };
                let id = ev.str(field).unwrap_or("").to_owned();
                let key = format!("{prefix}/{task}/{id}");
                self.pending.retain(|p| p.key != key);
                if let Some(op) = self.set_field("requests", &id, "status", status.into()) {
                    out.push(delta(vec![op]));
                }
            }
            "file-write" | "data-write" | "dataset-write" => self.artifact(ev, &task, out),
            _ => {}
        }
    }

    fn task_created(&mut self, ev: &Canon<'_>, task: &str, out: &mut Vec<Value>) {
        let parent = ev.str("parentTaskId").map(str::to_owned);
        let agent = ev.meta("agentId").and_then(Value::as_str);
        let is_root = self.root.is_none() && parent.is_none();
        if is_root {
            self.root = Some(task.to_owned());
        }
        let sub = !is_root;
        let mut started = None;
        if sub {
            let s = self.announced.remove(task).unwrap_or_else(|| {
                let mut s = json!({
                    "type": "SUBAGENT_STARTED",
                    "subagentRunId": task,
                    "name": agent.unwrap_or("subagent"),
                });
                if let Some(p) = parent.as_deref().and_then(|p| self.sub_of(p)) {
                    s["parentSubagentRunId"] = p.into();
                }
                s
            });
            out.push(s.clone());
            started = Some(s);
            self.order.push(task.to_owned());
        }
        self.tasks.insert(
            task.to_owned(),
            TaskInfo {
                sub,
                active: sub,
                started,
                ..Default::default()
            },
        );
        let mut entry = json!({"status": "submitted"});
        if let Some(a) = agent {
            entry["agentId"] = a.into();
        }
        if let Some(p) = parent {
            entry["parentTaskId"] = p.into();
        }
        let op = self.put("tasks", task, entry);
        out.push(delta(vec![op]));
    }

    fn close_step(&mut self, task: &str, out: &mut Vec<Value>) {
        let sub = self.sub_of(task).map(str::to_owned);
        if let Some(step) = self.tasks.get_mut(task).and_then(|t| t.step.take()) {
            out.push(attrib(
                json!({"type": "STEP_FINISHED", "stepName": step}),
                sub.as_deref(),
            ));
        }
    }

    /// Closes what `task` has open (text, step).
    fn close_task(&mut self, task: &str, out: &mut Vec<Value>) {
        self.close_step(task, out);
        let sub = self.sub_of(task).map(str::to_owned);
        if let Some(t) = self.tasks.get_mut(task).filter(|t| t.text_open) {
            t.text_open = false;
            out.push(attrib(
                json!({"type": "TEXT_MESSAGE_END", "messageId": format!("msg-{task}")}),
                sub.as_deref(),
            ));
        }
    }

    fn status(&mut self, ev: &Canon<'_>, task: &str, out: &mut Vec<Value>) {
        let status = ev.str("status").unwrap_or("");
        self.close_step(task, out);
        if let Some(op) = self.set_field("tasks", task, "status", status.into()) {
            out.push(delta(vec![op]));
        }
        let sub = self.sub_of(task).map(str::to_owned);
        let reason = ev
            .meta("reason")
            .and_then(Value::as_str)
            .or_else(|| ev.str("message"))
            .unwrap_or(status)
            .to_owned();
        match status {
            "working" => {
                if let Some(m) = ev.str("message") {
                    out.push(attrib(
                        json!({"type": "STEP_STARTED", "stepName": m}),
                        sub.as_deref(),
                    ));
                    self.tasks.entry(task.to_owned()).or_default().step = Some(m.to_owned());
                }
            }
            "completed" | "failed" | "canceled" => {
                self.close_task(task, out);
                match sub {
                    Some(s) => {
                        let was_active = self
                            .tasks
                            .get_mut(task)
                            .map(|t| std::mem::replace(&mut t.active, false))
                            .unwrap_or(false);
                        self.order.retain(|o| o != task);
                        if !was_active {
                            return;
                        }
                        if status == "completed" {
                            let mut f = json!({
                                "type": "SUBAGENT_FINISHED", "subagentRunId": s,
                                "outcome": {"type": "success"},
                            });
                            if let Some(c) = self.tasks.get(task).and_then(|t| t.content.clone()) {
                                f["result"] = json!({"content": c});
                            }
                            out.push(f);
                        } else {
                            out.push(json!({
                                "type": "SUBAGENT_ERROR", "subagentRunId": s,
                                "message": reason, "code": status,
                            }));
                        }
                    }
                    None if Some(task) == self.root.as_deref() => {
                        self.end = Some(match status {
                            "completed" => RootEnd::Completed,
                            "failed" => RootEnd::Failed(reason),
                            _ => RootEnd::Canceled,
                        });
                        self.close_all(out);
                    }
                    None => {}
                }
            }
            _ => {}
        }
    }

    fn tool_start(&mut self, ev: &Canon<'_>, task: &str, out: &mut Vec<Value>) {
        let sub = self.sub_of(task).map(str::to_owned);
        let id = ev.str("toolCallId").unwrap_or("call");
        let args = ev
            .get("arguments")
            .map_or_else(|| "{}".to_owned(), Value::to_string);
        let n = match args.len() {
            0..=1 => 1,
            2..=23 => 2,
            _ => 3,
        };
        out.push(attrib(
            json!({
                "type": "TOOL_CALL_START", "toolCallId": id,
                "toolCallName": ev.str("toolName").unwrap_or("tool"),
                "parentMessageId": format!("msg-{task}"),
            }),
            sub.as_deref(),
        ));
        for d in split_deltas(&args, n) {
            out.push(attrib(
                json!({"type": "TOOL_CALL_ARGS", "toolCallId": id, "delta": d}),
                sub.as_deref(),
            ));
        }
        out.push(attrib(
            json!({"type": "TOOL_CALL_END", "toolCallId": id}),
            sub.as_deref(),
        ));
    }

    fn tool_progress(&mut self, ev: &Canon<'_>, task: &str, out: &mut Vec<Value>) {
        let sub = self.sub_of(task).map(str::to_owned);
        let id = ev.str("toolCallId").unwrap_or("call").to_owned();
        let msg = format!("progress-{id}");
        let progress = ev.get("progress").cloned().unwrap_or(json!(0));
        let message = ev.get("message").cloned().unwrap_or(json!(""));
        let step = ev.meta("step").cloned().unwrap_or(json!(""));
        let e = if self.progress.insert(id.clone(), true).is_none() {
            json!({
                "type": "ACTIVITY_SNAPSHOT", "messageId": msg, "activityType": "tool-progress",
                "content": {"toolCallId": id, "status": "running", "progress": progress, "message": message, "step": step},
            })
        } else {
            json!({
                "type": "ACTIVITY_DELTA", "messageId": msg, "activityType": "tool-progress",
                "patch": [
                    {"op": "replace", "path": "/progress", "value": progress},
                    {"op": "replace", "path": "/message", "value": message},
                    {"op": "replace", "path": "/step", "value": step},
                ],
            })
        };
        out.push(attrib(e, sub.as_deref()));
    }

    fn tool_complete(&mut self, ev: &Canon<'_>, task: &str, out: &mut Vec<Value>) {
        let sub = self.sub_of(task).map(str::to_owned);
        let id = ev.str("toolCallId").unwrap_or("call").to_owned();
        let ok = ev.get("success").and_then(Value::as_bool).unwrap_or(true);
        let content = if ok {
            ev.get("result")
                .map_or_else(|| "null".to_owned(), Value::to_string)
        } else {
            json!({"error": ev.str("error").unwrap_or("the tool failed")}).to_string()
        };
        out.push(attrib(
            json!({
                "type": "TOOL_CALL_RESULT", "messageId": format!("result-{id}"),
                "toolCallId": id, "content": content, "role": "tool",
            }),
            sub.as_deref(),
        ));
        if self.progress.contains_key(&id) {
            out.push(attrib(
                json!({
                    "type": "ACTIVITY_DELTA", "messageId": format!("progress-{id}"),
                    "activityType": "tool-progress",
                    "patch": [{"op": "replace", "path": "/status", "value": if ok { "completed" } else { "failed" }}],
                }),
                sub.as_deref(),
            ));
        }
    }

    /// Closes everything still open (the root ended): steps and texts of every task, running
    /// sub-agents (latest first) with `SUBAGENT_ERROR`.
    fn close_all(&mut self, out: &mut Vec<Value>) {
        let mut ids: Vec<String> = self.tasks.keys().cloned().collect();
        ids.sort();
        for t in &ids {
            self.close_task(t, out);
        }
        for s in std::mem::take(&mut self.order).into_iter().rev() {
            if let Some(t) = self.tasks.get_mut(&s) {
                t.active = false;
            }
            out.push(json!({
                "type": "SUBAGENT_ERROR", "subagentRunId": s,
                "message": "the run ended before this sub-agent", "code": "orphaned",
            }));
        }
    }

    /// Closes what is still open when the script ended without ending its root task (the
    /// root's terminal status already closed everything).
    pub fn close_open(&mut self, out: &mut Vec<Value>) {
        if self.end.is_none() {
            self.close_all(out);
        }
    }

    /// Ends the current AG-UI run on interrupts `ids`: open texts and steps are closed (and
    /// remembered), running sub-agents finish `suspended` (latest first). [`Self::reopen`]
    /// undoes it at the start of the next run.
    pub fn suspend(&mut self, ids: &[String], out: &mut Vec<Value>) {
        let mut tasks: Vec<(&String, &TaskInfo)> = self.tasks.iter().collect();
        tasks.sort_by(|a, b| a.0.cmp(b.0));
        for (id, t) in tasks {
            let sub = t.sub.then_some(id.as_str());
            if let Some(step) = &t.step {
                out.push(attrib(
                    json!({"type": "STEP_FINISHED", "stepName": step}),
                    sub,
                ));
            }
            if t.text_open {
                out.push(attrib(
                    json!({"type": "TEXT_MESSAGE_END", "messageId": format!("msg-{id}")}),
                    sub,
                ));
            }
        }
        for s in self.order.iter().rev() {
            let mine: Vec<&str> = self
                .pending
                .iter()
                .filter(|p| {
                    &p.task == s
                        && ids.contains(&p.interrupt["id"].as_str().unwrap_or("").to_owned())
                })
                .filter_map(|p| p.interrupt["id"].as_str())
                .collect();
            let mut outcome = json!({"type": "suspended"});
            if !mine.is_empty() {
                outcome["interruptIds"] = json!(mine);
            }
            out.push(json!({"type": "SUBAGENT_FINISHED", "subagentRunId": s, "outcome": outcome}));
        }
    }

    /// Opens again, at the start of a run, what is open in the scenario: running sub-agents
    /// (in start order), steps and text messages.
    pub fn reopen(&self, out: &mut Vec<Value>) {
        for s in &self.order {
            if let Some(v) = self.tasks.get(s).and_then(|t| t.started.clone()) {
                out.push(v);
            }
        }
        let mut tasks: Vec<(&String, &TaskInfo)> = self.tasks.iter().collect();
        tasks.sort_by(|a, b| a.0.cmp(b.0));
        for (id, t) in tasks {
            let sub = t.sub.then_some(id.as_str());
            if let Some(step) = &t.step {
                out.push(attrib(
                    json!({"type": "STEP_STARTED", "stepName": step}),
                    sub,
                ));
            }
            if t.text_open {
                out.push(attrib(
                    json!({"type": "TEXT_MESSAGE_START", "messageId": format!("msg-{id}"), "role": "assistant"}),
                    sub,
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(enc: &mut AgUiEncoder, evs: &[Value]) -> Vec<Value> {
        let mut out = Vec::new();
        for (i, v) in evs.iter().enumerate() {
            let c = Canon {
                id: i as u64,
                kind: v["kind"].as_str().unwrap_or(""),
                v,
            };
            enc.encode(&c, &mut out);
        }
        out
    }

    #[test]
    fn pointers_and_splits() {
        assert_eq!(pointer_segment("file/a~b"), "file~1a~0b");
        assert_eq!(
            split_deltas("{\"a\":\"Zürich 😀\"}", 3).concat(),
            "{\"a\":\"Zürich 😀\"}"
        );
        assert_eq!(split_deltas("{\"a\":\"Zürich 😀\"}", 3).len(), 3);
        assert_eq!(split_deltas("", 3), vec![""]);
        assert_eq!(b64_len("iVBO"), 3);
        assert_eq!(b64_len("iVA="), 2);
    }

    #[test]
    fn subagents_steps_and_suspend() {
        let mut enc = AgUiEncoder::new(json!({}));
        let out = feed(
            &mut enc,
            &[
                json!({"kind": "task-created", "taskId": "t1"}),
                json!({"kind": "task-status", "taskId": "t1", "status": "working", "message": "Go"}),
                json!({"kind": "subtask-created", "taskId": "t1", "subtaskId": "t2", "agentId": "a", "prompt": "p"}),
                json!({"kind": "task-created", "taskId": "t2", "parentTaskId": "t1"}),
                json!({"kind": "content-delta", "taskId": "t2", "delta": "hi"}),
                json!({"kind": "input-required", "taskId": "t1", "inputId": "i1", "requireUser": true, "inputType": "confirmation", "prompt": "ok?", "options": ["approve", "deny"]}),
            ],
        );
        let types: Vec<&str> = out.iter().filter_map(|e| e["type"].as_str()).collect();
        assert!(types.contains(&"STEP_STARTED") && types.contains(&"SUBAGENT_STARTED"));
        let content = out
            .iter()
            .find(|e| e["type"] == "TEXT_MESSAGE_CONTENT")
            .expect("text");
        assert_eq!(content["subagentRunId"], "t2");
        assert_eq!(enc.pending().len(), 1);
        assert_eq!(enc.pending()[0].interrupt["reason"], "confirmation");
        let mut s = Vec::new();
        enc.suspend(&["i1".into()], &mut s);
        let st: Vec<&str> = s.iter().filter_map(|e| e["type"].as_str()).collect();
        assert_eq!(
            st,
            ["STEP_FINISHED", "TEXT_MESSAGE_END", "SUBAGENT_FINISHED"]
        );
        assert_eq!(s[2]["outcome"], json!({"type": "suspended"}));
        let mut r = Vec::new();
        enc.reopen(&mut r);
        let rt: Vec<&str> = r.iter().filter_map(|e| e["type"].as_str()).collect();
        assert_eq!(
            rt,
            ["SUBAGENT_STARTED", "STEP_STARTED", "TEXT_MESSAGE_START"]
        );
    }
}
