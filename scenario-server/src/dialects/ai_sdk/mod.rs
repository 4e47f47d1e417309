//! `ai-sdk`: a run's protocol-000 events as Vercel AI SDK UI message stream chunks (`ai@7.0.173`,
//! what `createUIMessageStreamResponse` serves; see `tests/ai-sdk/WIRE.md`). Served by
//! [`crate::ai_sdk`] at `POST /api/ai-sdk/chat`, which frames the chunks and adds `data: [DONE]`.
//!
//! One assistant message per scenario run (its root task): `messageId` `msg-<rootTaskId>`. The
//! mapping (root = the run's root task, sub = a sub-agent's task):
//!
//! | canonical | UI message chunks |
//! |---|---|
//! | first event of a response | `start {messageId, messageMetadata: {runId, contextId, scenario, taskId}}` |
//! | root `internal:llm-call` (iteration > 1) | ends the open step (`finish-step`); the next model output opens one |
//! | root `content-delta` | `text-start {id: "text-<task>-<n>"}` (first), `text-delta` |
//! | root `content-complete` | `text-end` |
//! | root `thought-stream` | `reasoning-start {id: <thoughtId>}`, 1–2 `reasoning-delta`, `reasoning-end` (`providerMetadata.agentwire` = thoughtType, verbosity) |
//! | root `tool-start` | `tool-input-start`, the arguments' JSON in 2–3 `tool-input-delta`, `tool-input-available {input}` |
//! | root `tool-progress` | `tool-output-available {preliminary: true, output: {status: "running", progress, message, step}}` |
//! | root `tool-complete` | `tool-output-available {output: result}` / `tool-output-error {errorText}` |
//! | model output (text, reasoning, tool input) | opens a step (`start-step`) when none is open, or when the open one already had a tool output (as streamText's steps: call tools, get outputs, next model call) |
//! | root `task-status` | `data-status {id: <taskId>, data: {taskId, status, message?}}` (replaced in place) |
//! | `subtask-created`, a sub-agent's events | `data-subtask {id: <taskId>, data: {taskId, parentTaskId, agentId, prompt, status, message?, text, thoughts[], tools[]}}`, re-sent whole on every change (the client replaces it by id) |
//! | `input-required` / `auth-required` | `data-request {id: <inputId\|authId>, data: {kind, taskId, prompt, status: "open", …}}`; `input-received` / `auth-completed` set `status` `answered` / `completed` |
//! | the script waits on a confirmation | a `confirm` tool call (input `{inputId, prompt, options, …}`) + `tool-approval-request {approvalId: "approval-<inputId>"}`, `finish-step`, `finish {finishReason: "tool-calls"}` |
//! | the script waits on a sign-in / another input | a client-side tool call `authorize` (input `{authId, authType, provider, scopes, authUrl, prompt}`) / `ask_user` (input `{inputId, inputType, prompt, options?, schema?}`), `finish-step`, `finish {finishReason: "tool-calls"}` |
//! | `file-write` | `data-artifact {id: <artifactId>, data: {artifactId, kind: "file", name, mimeType, bytes, chunks, complete, …}}`; once complete and at most 256 KiB, `file {mediaType, url: "data:<mime>;base64,…"}` |
//! | `data-write` / `dataset-write` | `data-artifact` (`kind` `data` with `version` and `data`; `dataset` with `schema`, `rows` once complete, `rowCount`) |
//! | `internal:*` | `data-internal {data: <the event>, transient: true}` (onData only) |
//! | root `completed` | open parts closed, `finish-step`, `finish {finishReason: "stop"}` |
//! | root `failed` | open parts closed, `finish-step`, `error {errorText: <reason>}`, `finish {finishReason: "error"}` |
//! | root `canceled` | open parts closed, `finish-step`, `abort {reason}` |

mod artifacts;

use super::{Artifacts, Canon};
use crate::dialects::ag_ui::{split_deltas, RootEnd};
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// Files up to this size (decoded) also become a `file` part with a `data:` URL.
pub const MAX_DATA_URL: u64 = 256 * 1024;

/// How a waiting request is answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AskKind {
    /// A confirmation: `tool-approval-request`, answered by the approval.
    Approval,
    /// A client-side tool (`authorize`, `ask_user`), answered by the tool part's output.
    ClientTool,
}

/// A request of the script that becomes a tool call when the script waits on it.
#[derive(Debug, Clone)]
pub struct Pending {
    /// The run's request key (`input/<task>/<id>` or `auth/<task>/<id>`).
    pub key: String,
    /// The tool call id (`call-<inputId|authId>`).
    pub call_id: String,
    /// `confirm`, `authorize` or `ask_user`.
    pub tool: &'static str,
    /// The tool's input.
    pub input: Value,
    /// How it is answered.
    pub kind: AskKind,
    /// The canonical `options` of an input request.
    pub options: Vec<String>,
    /// The tool call was written.
    pub emitted: bool,
}

#[derive(Debug, Clone, Default)]
struct ArtState {
    chunks: u64,
    bytes: u64,
    text: String,
    version: u64,
}

/// The AI SDK translator of one run (one chat).
#[derive(Debug, Clone, Default)]
pub struct AiSdkEncoder {
    info: Value,
    root: Option<String>,
    message_id: Option<String>,
    started: bool,
    step_open: bool,
    step_had_output: bool,
    text: Option<String>,
    text_n: u64,
    /// Root tool calls whose output has not come yet.
    tools_open: Vec<String>,
    subs: HashMap<String, Value>,
    announced: HashMap<String, (String, String)>,
    requests: HashMap<String, Value>,
    pending: Vec<Pending>,
    artifacts: Artifacts,
    art: HashMap<String, ArtState>,
    end: Option<RootEnd>,
}

fn data_part(name: &str, id: &str, data: Value) -> Value {
    json!({"type": format!("data-{name}"), "id": id, "data": data})
}

/// Decodes standard base64 (whitespace and invalid characters skipped).
pub fn base64_decode(s: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => continue,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

impl AiSdkEncoder {
    /// A fresh translator; `info` (`{runId, contextId, scenario}`) becomes the message metadata.
    pub fn new(info: Value) -> Self {
        AiSdkEncoder {
            info,
            ..Default::default()
        }
    }

    /// The assistant message's id, once known.
    pub fn message_id(&self) -> Option<&str> {
        self.message_id.as_deref()
    }

    /// The root task's id, once known.
    pub fn root(&self) -> Option<&str> {
        self.root.as_deref()
    }

    /// How the root task ended, once it did.
    pub fn root_end(&self) -> Option<&RootEnd> {
        self.end.as_ref()
    }

    /// Requests the script may wait on, not answered in the log.
    pub fn pending(&self) -> &[Pending] {
        &self.pending
    }

    /// A new response begins: its first chunk will be `start`.
    pub fn new_response(&mut self) {
        self.started = false;
    }

    /// `start` when the response has not started yet and the message id is known.
    pub fn ensure_start(&mut self, out: &mut Vec<Value>) {
        if self.started {
            return;
        }
        if let Some(id) = &self.message_id {
            self.started = true;
            let mut meta = self.info.clone();
            if let (Some(o), Some(r)) = (meta.as_object_mut(), &self.root) {
                o.insert("taskId".into(), r.as_str().into());
            }
            out.push(json!({"type": "start", "messageId": id, "messageMetadata": meta}));
        }
    }

    fn ensure_step(&mut self, out: &mut Vec<Value>) {
        if !self.step_open {
            self.step_open = true;
            self.step_had_output = false;
            out.push(json!({"type": "start-step"}));
        }
    }

    /// Before model output (text, reasoning, a tool call): a new step when the open one
    /// already had tool outputs.
    fn model_output(&mut self, text: bool, out: &mut Vec<Value>) {
        if !text {
            self.close_text(out);
        }
        if self.step_open && self.step_had_output {
            self.close_step(out);
        }
        self.ensure_step(out);
    }

    fn close_text(&mut self, out: &mut Vec<Value>) {
        if let Some(id) = self.text.take() {
            out.push(json!({"type": "text-end", "id": id}));
        }
    }

    fn close_step(&mut self, out: &mut Vec<Value>) {
        self.close_text(out);
        if self.step_open {
            self.step_open = false;
            out.push(json!({"type": "finish-step"}));
        }
    }

    fn is_root(&self, task: &str) -> bool {
        self.root.as_deref() == Some(task)
    }

    fn tool_call(
        &mut self,
        id: &str,
        name: &str,
        input: &Value,
        meta: Option<Value>,
        out: &mut Vec<Value>,
    ) {
        self.model_output(false, out);
        let args = input.to_string();
        let n = match args.len() {
            0..=1 => 1,
            2..=23 => 2,
            _ => 3,
        };
        let mut s = json!({"type": "tool-input-start", "toolCallId": id, "toolName": name});
        if let Some(m) = &meta {
            s["toolMetadata"] = m.clone();
        }
        out.push(s);
        for d in split_deltas(&args, n) {
            out.push(json!({"type": "tool-input-delta", "toolCallId": id, "inputTextDelta": d}));
        }
        let mut a = json!({"type": "tool-input-available", "toolCallId": id, "toolName": name, "input": input});
        if let Some(m) = meta {
            a["toolMetadata"] = m;
        }
        out.push(a);
    }

    fn sub_update(&mut self, task: &str, f: impl FnOnce(&mut Map<String, Value>)) -> Option<Value> {
        let d = self.subs.get_mut(task)?;
        if let Some(o) = d.as_object_mut() {
            f(o);
        }
        Some(data_part("subtask", task, d.clone()))
    }

    /// Appends what `ev` becomes.
    pub fn encode(&mut self, ev: &Canon<'_>, out: &mut Vec<Value>) {
        let task = ev.task().to_owned();
        if self.message_id.is_none() && !task.is_empty() && ev.kind == "task-created" {
            self.root = Some(task.clone());
            self.message_id = Some(format!("msg-{task}"));
        }
        self.ensure_start(out);
        if !self.started || self.end.is_some() {
            return;
        }
        if let Some(k) = ev.kind.strip_prefix("internal:") {
            if k == "llm-call"
                && self.is_root(&task)
                && ev.get("iteration").and_then(Value::as_u64).unwrap_or(1) > 1
            {
                self.close_step(out);
            }
            out.push(json!({"type": "data-internal", "data": ev.v, "transient": true}));
            return;
        }
        let root = self.is_root(&task);
        match ev.kind {
            "task-created" => {
                if root {
                    out.push(data_part(
                        "status",
                        &task,
                        json!({"taskId": task, "status": "submitted"}),
                    ));
                } else {
                    let (agent, prompt) = self.announced.remove(&task).unwrap_or_else(|| {
                        let a = ev
                            .meta("agentId")
                            .and_then(Value::as_str)
                            .unwrap_or("subagent");
                        (a.to_owned(), String::new())
                    });
                    let d = json!({
                        "taskId": task, "parentTaskId": ev.str("parentTaskId"), "agentId": agent,
                        "prompt": prompt, "status": "submitted", "text": "", "thoughts": [], "tools": [],
                    });
                    self.subs.insert(task.clone(), d.clone());
                    out.push(data_part("subtask", &task, d));
                }
            }
            "subtask-created" => {
                if let Some(sub) = ev.str("subtaskId") {
                    self.announced.insert(
                        sub.to_owned(),
                        (
                            ev.str("agentId").unwrap_or("subagent").to_owned(),
                            ev.str("prompt").unwrap_or("").to_owned(),
                        ),
                    );
                }
            }
            "task-status" => self.status(ev, &task, root, out),
            "content-delta" => self.content_delta(ev, task, root, out),
            "content-complete" => {
                if root {
                    self.close_text(out);
                } else if let Some(c) = ev.str("content") {
                    let prev = self
                        .subs
                        .get(&task)
                        .and_then(|s| s["text"].as_str().map(str::to_owned));
                    if prev.as_deref() != Some(c) {
                        if let Some(p) = self.sub_update(&task, |o| {
                            o.insert("text".into(), c.into());
                        }) {
                            out.push(p);
                        }
                    }
                }
            }
            "thought-stream" => self.thought_stream(ev, task, root, out),
            "tool-start" => {
                let id = ev.str("toolCallId").unwrap_or("call").to_owned();
                let name = ev.str("toolName").unwrap_or("tool").to_owned();
                let args = ev.get("arguments").cloned().unwrap_or_else(|| json!({}));
                if root {
                    self.tool_call(&id, &name, &args, None, out);
                    self.tools_open.push(id);
                } else if let Some(p) = self.sub_update(&task, |o| {
                    if let Some(Value::Array(a)) = o.get_mut("tools") {
                        a.push(json!({"toolCallId": id, "toolName": name, "input": args, "state": "running"}));
                    }
                }) {
                    out.push(p);
                }
            }
            "tool-progress" => {
                let id = ev.str("toolCallId").unwrap_or("call").to_owned();
                let output = json!({
                    "status": "running", "progress": ev.get("progress").cloned().unwrap_or(json!(0)),
                    "message": ev.get("message").cloned().unwrap_or(json!("")),
                    "step": ev.meta("step").cloned().unwrap_or(json!("")),
                });
                if root {
                    if self.tools_open.contains(&id) {
                        out.push(json!({"type": "tool-output-available", "toolCallId": id, "output": output, "preliminary": true}));
                    }
                } else if let Some(p) = self.sub_tool(&task, &id, |t| {
                    t.insert("progress".into(), output["progress"].clone());
                }) {
                    out.push(p);
                }
            }
            "tool-complete" => self.tool_complete(ev, task, root, out),
            "input-required" | "auth-required" => self.request(ev, &task, out),
            "input-received" | "auth-completed" => {
                let input = ev.kind == "input-received";
                let id = ev
                    .str(if input { "inputId" } else { "authId" })
                    .unwrap_or("");
                let prefix = if input { "input" } else { "auth" };
                let key = format!("{prefix}/{task}/{id}");
                self.pending.retain(|p| p.key != key);
                if let Some(d) = self.requests.get_mut(id) {
                    d["status"] = (if input { "answered" } else { "completed" }).into();
                    if let Some(u) = ev.get("userId") {
                        d["userId"] = u.clone();
                    }
                    out.push(data_part("request", id, d.clone()));
                }
            }
            "file-write" | "data-write" | "dataset-write" => self.artifact(ev, &task, out),
            _ => {}
        }
    }

    fn sub_tool(
        &mut self,
        task: &str,
        call: &str,
        f: impl FnOnce(&mut Map<String, Value>),
    ) -> Option<Value> {
        let d = self.subs.get_mut(task)?;
        let t = d
            .get_mut("tools")?
            .as_array_mut()?
            .iter_mut()
            .find(|t| t["toolCallId"] == call)?
            .as_object_mut()?;
        f(t);
        Some(data_part("subtask", task, d.clone()))
    }

    fn status(&mut self, ev: &Canon<'_>, task: &str, root: bool, out: &mut Vec<Value>) {
        let status = ev.str("status").unwrap_or("").to_owned();
        let message = ev.str("message").map(str::to_owned);
        let reason = ev
            .meta("reason")
            .and_then(Value::as_str)
            .or(message.as_deref())
            .unwrap_or(&status)
            .to_owned();
        if root {
            let mut d = json!({"taskId": task, "status": status});
            if let Some(m) = &message {
                d["message"] = m.as_str().into();
            }
            out.push(data_part("status", task, d));
            match status.as_str() {
                "completed" => self.finish_root(RootEnd::Completed, out),
                "failed" => self.finish_root(RootEnd::Failed(reason), out),
                "canceled" => self.finish_root(RootEnd::Canceled, out),
                _ => {}
            }
        } else if let Some(p) = self.sub_update(task, |o| {
            o.insert("status".into(), status.as_str().into());
            match &message {
                Some(m) => o.insert("message".into(), m.as_str().into()),
                None => o.remove("message"),
            };
            if matches!(status.as_str(), "failed" | "canceled") {
                o.insert("reason".into(), reason.as_str().into());
            }
        }) {
            out.push(p);
        }
    }

    /// Closes what is open (text, tools without output, the step).
    fn close_all(&mut self, why: &str, out: &mut Vec<Value>) {
        self.close_text(out);
        for id in std::mem::take(&mut self.tools_open) {
            out.push(json!({"type": "tool-output-error", "toolCallId": id, "errorText": why}));
        }
        self.close_step(out);
    }

    fn finish_root(&mut self, end: RootEnd, out: &mut Vec<Value>) {
        if self.end.is_some() {
            return;
        }
        match &end {
            RootEnd::Completed => {
                self.close_all("the run ended before this tool", out);
                out.push(json!({"type": "finish", "finishReason": "stop"}));
            }
            RootEnd::Failed(r) => {
                self.close_all(r, out);
                out.push(json!({"type": "error", "errorText": r}));
                out.push(json!({"type": "finish", "finishReason": "error"}));
            }
            RootEnd::Canceled => {
                self.close_all("canceled", out);
                out.push(json!({"type": "abort", "reason": "canceled"}));
            }
        }
        self.end = Some(end);
    }

    /// The script ended without ending its root task: finish the message anyway.
    pub fn close_open(&mut self, out: &mut Vec<Value>) {
        self.ensure_start(out);
        if self.end.is_none() && self.started {
            self.finish_root(RootEnd::Completed, out);
        }
    }

    /// The script waits on the `open` requests (keys): their tool calls (and approval
    /// requests), `finish-step`, `finish {finishReason: "tool-calls"}`.
    pub fn suspend(&mut self, open: &[String], out: &mut Vec<Value>) {
        self.ensure_start(out);
        self.close_text(out);
        let mut calls = Vec::new();
        for p in self.pending.iter_mut().filter(|p| open.contains(&p.key)) {
            if !p.emitted {
                p.emitted = true;
                calls.push(p.clone());
            }
        }
        for p in calls {
            self.tool_call(&p.call_id, p.tool, &p.input, None, out);
            if p.kind == AskKind::Approval {
                let approval = p.call_id.replacen("call-", "approval-", 1);
                out.push(json!({"type": "tool-approval-request", "approvalId": approval, "toolCallId": p.call_id}));
            }
        }
        self.close_step(out);
        out.push(json!({"type": "finish", "finishReason": "tool-calls"}));
    }

    /// The continuation's first chunks after the client answered: `start`, `start-step`, and
    /// for approvals `tool-output-available` (approved) / `tool-output-denied`.
    pub fn resumed(&mut self, approvals: &[(String, bool)], out: &mut Vec<Value>) {
        self.ensure_start(out);
        self.ensure_step(out);
        for (call, approved) in approvals {
            out.push(if *approved {
                json!({"type": "tool-output-available", "toolCallId": call, "output": {"approved": true, "value": "approve"}})
            } else {
                json!({"type": "tool-output-denied", "toolCallId": call})
            });
        }
    }

    fn request(&mut self, ev: &Canon<'_>, task: &str, out: &mut Vec<Value>) {
        let input = ev.kind == "input-required";
        let id = ev
            .str(if input { "inputId" } else { "authId" })
            .unwrap_or("")
            .to_owned();
        let prompt = ev.str("prompt").unwrap_or("");
        let mut d = json!({"kind": if input { "input" } else { "auth" }, "taskId": task, "prompt": prompt, "status": "open"});
        let mut tool_input = Map::new();
        tool_input.insert(
            (if input { "inputId" } else { "authId" }).into(),
            id.as_str().into(),
        );
        tool_input.insert("prompt".into(), prompt.into());
        let mut options = Vec::new();
        let (tool, kind) = if input {
            let it = ev.str("inputType").unwrap_or("text");
            d["inputType"] = it.into();
            tool_input.insert("inputType".into(), it.into());
            for k in ["options", "schema", "metadata"] {
                if let Some(v) = ev.get(k) {
                    d[k] = v.clone();
                    tool_input.insert(k.into(), v.clone());
                }
            }
            options = ev
                .get("options")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default();
            if it == "confirmation" {
                ("confirm", AskKind::Approval)
            } else {
                ("ask_user", AskKind::ClientTool)
            }
        } else {
            for k in ["authType", "provider", "scopes", "authUrl"] {
                if let Some(v) = ev.get(k) {
                    d[k] = v.clone();
                    tool_input.insert(k.into(), v.clone());
                }
            }
            ("authorize", AskKind::ClientTool)
        };
        if !self.is_root(task) {
            tool_input.insert("taskId".into(), task.into());
        }
        self.requests.insert(id.clone(), d.clone());
        out.push(data_part("request", &id, d));
        let blocking = !input || ev.get("requireUser").and_then(Value::as_bool) == Some(true);
        if blocking {
            let prefix = if input { "input" } else { "auth" };
            self.pending.push(Pending {
                key: format!("{prefix}/{task}/{id}"),
                call_id: format!("call-{id}"),
                tool,
                input: Value::Object(tool_input),
                kind,
                options,
                emitted: false,
            });
        }
    }

    /// `content-delta`: `text-delta` (the text part opens first).
    fn content_delta(&mut self, ev: &Canon<'_>, task: String, root: bool, out: &mut Vec<Value>) {
        let d = ev.str("delta").unwrap_or("");
        if root {
            if self.text.is_none() {
                self.model_output(true, out);
                self.text_n += 1;
                let id = format!("text-{task}-{}", self.text_n);
                out.push(json!({"type": "text-start", "id": id}));
                self.text = Some(id);
            }
            let id = self.text.clone().unwrap_or_default();
            out.push(json!({"type": "text-delta", "id": id, "delta": d}));
        } else if let Some(p) = self.sub_update(&task, |o| {
            let t = o
                .get("text")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
                + d;
            o.insert("text".into(), t.into());
        }) {
            out.push(p);
        }
    }

    /// `thought-stream`: `reasoning-*` chunks.
    fn thought_stream(&mut self, ev: &Canon<'_>, task: String, root: bool, out: &mut Vec<Value>) {
        let text = ev.str("content").unwrap_or("");
        if root {
            self.model_output(false, out);
            let id = ev.str("thoughtId").unwrap_or("thought").to_owned();
            let mut pm = Map::new();
            for k in ["thoughtType", "verbosity"] {
                if let Some(v) = ev.get(k) {
                    pm.insert(k.into(), v.clone());
                }
            }
            let pm = json!({"agentwire": pm});
            out.push(json!({"type": "reasoning-start", "id": id, "providerMetadata": pm}));
            for d in split_deltas(text, if text.len() >= 40 { 2 } else { 1 }) {
                out.push(json!({"type": "reasoning-delta", "id": id, "delta": d}));
            }
            out.push(json!({"type": "reasoning-end", "id": id}));
        } else if let Some(p) = self.sub_update(&task, |o| {
            if let Some(Value::Array(a)) = o.get_mut("thoughts") {
                a.push(text.into());
            }
        }) {
            out.push(p);
        }
    }

    /// `tool-complete`: `tool-output-available` or `tool-output-error`.
    fn tool_complete(&mut self, ev: &Canon<'_>, task: String, root: bool, out: &mut Vec<Value>) {
        let id = ev.str("toolCallId").unwrap_or("call").to_owned();
        let ok = ev.get("success").and_then(Value::as_bool).unwrap_or(true);
        let err = ev.str("error").unwrap_or("the tool failed").to_owned();
        let result = ev.get("result").cloned().unwrap_or(Value::Null);
        if root {
            if let Some(i) = self.tools_open.iter().position(|t| *t == id) {
                self.tools_open.remove(i);
                self.step_had_output = true;
                out.push(if ok {
                    json!({"type": "tool-output-available", "toolCallId": id, "output": result})
                } else {
                    json!({"type": "tool-output-error", "toolCallId": id, "errorText": err})
                });
            }
        } else if let Some(p) = self.sub_tool(&task, &id, |t| {
            if ok {
                t.insert("state".into(), "output-available".into());
                t.insert("output".into(), result);
            } else {
                t.insert("state".into(), "output-error".into());
                t.insert("errorText".into(), err.into());
            }
        }) {
            out.push(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trip() {
        for s in [&b""[..], b"a", b"ab", b"abc", b"\xff\x00\x10 hello"] {
            assert_eq!(base64_decode(&crate::util::base64(s)), s);
        }
    }

    #[test]
    fn steps_text_tools_and_suspend() {
        let mut enc = AiSdkEncoder::new(json!({"runId": "r"}));
        let mut out = Vec::new();
        for (i, v) in [
            json!({"kind": "task-created", "taskId": "t1"}),
            json!({"kind": "content-delta", "taskId": "t1", "delta": "Hi"}),
            json!({"kind": "tool-start", "taskId": "t1", "toolCallId": "c1", "toolName": "x", "arguments": {"a": "bcdefghijklmnopqrstuvwxyz"}}),
            json!({"kind": "tool-complete", "taskId": "t1", "toolCallId": "c1", "success": true, "result": 1}),
            json!({"kind": "content-delta", "taskId": "t1", "delta": "More"}),
            json!({"kind": "input-required", "taskId": "t1", "inputId": "i1", "requireUser": true, "inputType": "confirmation", "prompt": "ok?", "options": ["approve", "deny"]}),
        ]
        .iter()
        .enumerate()
        {
            enc.encode(&Canon { id: i as u64, kind: v["kind"].as_str().unwrap_or(""), v }, &mut out);
        }
        enc.suspend(&["input/t1/i1".to_owned()], &mut out);
        let types: Vec<&str> = out.iter().filter_map(|e| e["type"].as_str()).collect();
        assert_eq!(
            types,
            [
                "start",
                "data-status",
                "start-step",
                "text-start",
                "text-delta",
                "text-end",
                "tool-input-start",
                "tool-input-delta",
                "tool-input-delta",
                "tool-input-delta",
                "tool-input-available",
                "tool-output-available",
                "finish-step",
                "start-step",
                "text-start",
                "text-delta",
                "data-request",
                "text-end",
                "tool-input-start",
                "tool-input-delta",
                "tool-input-delta",
                "tool-input-delta",
                "tool-input-available",
                "tool-approval-request",
                "finish-step",
                "finish"
            ]
        );
        assert_eq!(out[0]["messageId"], "msg-t1");
    }
}
