//! `a2a`: A2A v0.3 streaming (seed 001), bare or wrapped as JSON-RPC 2.0 responses.
//!
//! | A2A | canonical |
//! |---|---|
//! | `task` (first time) | `task-created` (initiator `user`; `metadata` kept, `history` under `metadata.a2a`), then its artifacts and status as below |
//! | `task` (again: resubscribe, `tasks/cancel` result) | only what changed: a new status, new or changed artifacts |
//! | `status-update` `working` | `task-status` `working` (message = the status message's text) |
//! | `status-update` `input-required` | `task-status` `waiting-input` + `input-required` (id `<taskId>#input-<n>`, prompt = message text, `requireUser: true`; `inputType`, `options`, `schema` from a data part) |
//! | `status-update` `auth-required` | `task-status` `waiting-auth` + `auth-required` (id `<taskId>#auth-<n>`; `authType`, `authUrl`, `provider`, `scopes` from a data part) |
//! | leaving `input-required` / `auth-required` | `input-received` / `auth-completed` (unless the client already answered through [`crate::dialects::respond`]) |
//! | `status-update` `completed` | `task-complete` with the message text as `content` when no answer text was streamed, else `task-status` `completed` |
//! | `status-update` `failed` / `rejected` / `canceled` | `task-status` `failed` / `failed` (`reason: rejected`) / `canceled`; `metadata.error` becomes `reason` |
//! | `status-update` `submitted` / `unknown` | no status (`submitted` creates the task); kept as an unknown `a2a:status-update` event |
//! | `artifact-update` text parts | the task's answer (`content-delta`) for the task's first text artifact, `file-write` (`text/plain`, utf-8) for others |
//! | `artifact-update` file parts | `file-write` (base64 `bytes`; a `uri` becomes an empty chunk with `metadata.a2a.uri`) |
//! | `artifact-update` data parts | `data-write` (`metadata.version` 1, 2, ... per update) |
//! | `message` (role `agent`) | text → `content-delta` on its task (a message without `taskId` is a task of its own that completes at once); file/data parts → artifacts `<messageId>#<i>` |
//! | `message` (role `user`), unknown kinds | unknown events `a2a:<kind>` (kept whole) |
//! | JSON-RPC `error` | `rpc-error` diagnostic; the task of a streaming request becomes `failed` |
//!
//! Artifact rules (A2A spec): `append: false` (or absent) on a known artifact replaces it (the
//! store forgets the old content); `append: true` on an unknown artifact is an
//! `unknown-artifact` warning and starts it; nothing is appended after `lastChunk: true`
//! (`chunk-after-complete`). Files still open when their task ends are closed with an empty
//! final chunk. Parts of a different kind than an artifact's first part go to the sibling
//! artifact `<artifactId>#text|file|data`.

pub mod request;

use super::emit::{get, get_bool, get_str, members, Clock, Fnv, Obj, Sink, Step};
use super::table::Table;
use super::unknown_event;
use crate::events::DiagCode;
use crate::json::Value;
use std::collections::VecDeque;

/// Tasks and artifacts tracked per stream before finished ones are forgotten.
const MAX_TRACKED: usize = 10_000;
/// Requests remembered for matching response ids.
const MAX_SENT: usize = 64;

/// The nine A2A task states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskState {
    /// Received.
    Submitted,
    /// Processing.
    Working,
    /// Waiting for user input.
    InputRequired,
    /// Finished successfully.
    Completed,
    /// Canceled by the user.
    Canceled,
    /// Failed.
    Failed,
    /// Rejected (e.g. policy).
    Rejected,
    /// Authentication needed.
    AuthRequired,
    /// Cannot be determined.
    Unknown,
}

impl TaskState {
    /// Every state's wire name.
    pub const NAMES: &'static [&'static str] = &[
        "submitted",
        "working",
        "input-required",
        "completed",
        "canceled",
        "failed",
        "rejected",
        "auth-required",
        "unknown",
    ];

    /// Parses a wire name.
    pub fn parse(s: &str) -> Option<TaskState> {
        Some(match s {
            "submitted" => TaskState::Submitted,
            "working" => TaskState::Working,
            "input-required" => TaskState::InputRequired,
            "completed" => TaskState::Completed,
            "canceled" => TaskState::Canceled,
            "failed" => TaskState::Failed,
            "rejected" => TaskState::Rejected,
            "auth-required" => TaskState::AuthRequired,
            "unknown" => TaskState::Unknown,
            _ => return None,
        })
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskState::Submitted => "submitted",
            TaskState::Working => "working",
            TaskState::InputRequired => "input-required",
            TaskState::Completed => "completed",
            TaskState::Canceled => "canceled",
            TaskState::Failed => "failed",
            TaskState::Rejected => "rejected",
            TaskState::AuthRequired => "auth-required",
            TaskState::Unknown => "unknown",
        }
    }

    /// Completed, canceled, failed and rejected end a task.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskState::Completed | TaskState::Canceled | TaskState::Failed | TaskState::Rejected
        )
    }
}

#[derive(Debug, Default)]
struct TaskTrack {
    context_id: String,
    state: Option<TaskState>,
    /// Next `content-delta` index.
    content_next: u64,
    /// The artifact whose text is this task's answer.
    answer: Option<String>,
    open_input: Option<String>,
    open_auth: Option<String>,
    requests: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Answer,
    File,
    Data,
}

#[derive(Debug)]
struct ArtTrack {
    id: String,
    task_id: String,
    context_id: String,
    target: Target,
    /// Next chunk index (file) or data version (data).
    next: u64,
    closed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PartKind {
    Text,
    File,
    Data,
}

impl PartKind {
    fn as_str(self) -> &'static str {
        match self {
            PartKind::Text => "text",
            PartKind::File => "file",
            PartKind::Data => "data",
        }
    }
}

#[derive(Debug)]
struct Sent {
    id: u64,
    method: &'static str,
    task_id: Option<String>,
    /// A result answered it (its stream opened): an error after that ends the stream's task;
    /// an error before it refused the request.
    got_result: bool,
}

/// A2A decoding state of one connection, and the client's JSON-RPC request ids.
#[derive(Debug, Default)]
pub struct A2aDecoder {
    tasks: Table<TaskTrack>,
    /// Canonical artifacts, in creation order.
    arts: Table<ArtTrack>,
    /// The kind of each A2A artifact's first part, and a fingerprint of its content.
    primary: Table<(PartKind, Fnv)>,
    next_rpc_id: u64,
    sent: VecDeque<Sent>,
    /// The id of the first response of the stream (as JSON) when no request was registered.
    stream_rpc_id: Option<String>,
    last_task: Option<String>,
    /// The sent request the response being decoded answers (index into `sent`).
    responding: Option<usize>,
    /// The task of the latest JSON-RPC stream: the one its request named, or the first task its
    /// responses carried (a new `message/stream`).
    stream_root: Option<String>,
    /// A `message/stream` for a new task was sent and none of its responses named the task yet.
    stream_unnamed: bool,
}

/// The event being decoded: where it is in the JSON (bare or under `result`) and its time.
struct At<'p> {
    prefix: &'p str,
    ts: String,
}

impl At<'_> {
    fn path(&self, rest: &str) -> String {
        format!("{}{rest}", self.prefix)
    }
}

fn part_kind(p: &Value<'_>) -> Option<PartKind> {
    match p.get("kind").and_then(Value::as_str)? {
        "text" => Some(PartKind::Text),
        "file" => Some(PartKind::File),
        "data" => Some(PartKind::Data),
        _ => None,
    }
}

/// The text of a message: its text parts joined by newlines, or a `content` string (the
/// seed's own example uses `{ "role": "assistant", "content": "Done!" }`).
fn message_text(m: Option<&Value<'_>>) -> Option<String> {
    let m = m?;
    if let Some(parts) = m.get("parts").and_then(Value::as_array) {
        let texts: Vec<&str> = parts
            .iter()
            .filter(|p| part_kind(p) == Some(PartKind::Text))
            .filter_map(|p| get_str(Some(p), "text"))
            .collect();
        if !texts.is_empty() {
            return Some(texts.join("\n"));
        }
    }
    get_str(Some(m), "content")
        .or_else(|| get_str(Some(m), "text"))
        .map(str::to_owned)
}

/// The first data part of a message (structured details of an input or auth request).
fn message_data<'v, 'a>(m: Option<&'v Value<'a>>) -> Option<&'v Value<'a>> {
    m?.get("parts")?
        .as_array()?
        .iter()
        .find(|p| part_kind(p) == Some(PartKind::Data))
        .and_then(|p| p.get("data"))
        .filter(|d| d.as_object().is_some())
}

impl A2aDecoder {
    /// Registers a request the client is about to send; returns its JSON-RPC id.
    pub fn register_request(&mut self, method: &'static str, task_id: Option<&str>) -> u64 {
        self.next_rpc_id += 1;
        if self.sent.len() >= MAX_SENT {
            self.sent.pop_front();
        }
        self.sent.push_back(Sent {
            id: self.next_rpc_id,
            method,
            task_id: task_id.map(str::to_owned),
            got_result: false,
        });
        if method == "message/stream" {
            // A new stream: until its responses name their task, there is nothing to
            // resubscribe to (not the previous stream's task, which may have finished).
            self.stream_root = task_id.map(str::to_owned);
            self.stream_unnamed = task_id.is_none();
        }
        self.next_rpc_id
    }

    /// The stream's task (what `tasks/resubscribe` resumes after a drop): the task of the
    /// latest request's responses (the task a `message/stream` created or answered), else the
    /// most recent task seen (bare events).
    pub fn stream_task(&self) -> Option<&str> {
        if self.stream_unnamed {
            return None;
        }
        self.stream_root.as_deref().or(self.last_task.as_deref())
    }

    /// A `message/stream` for a new task was sent and none of its responses named it yet.
    pub fn awaits_stream_task(&self) -> bool {
        self.stream_unnamed
    }

    /// The last `message/stream` was refused (or never sent): no new task comes from it.
    pub fn stream_not_opened(&mut self) {
        self.stream_unnamed = false;
    }

    /// The context of a tracked task.
    pub fn task_context(&self, task_id: &str) -> Option<&str> {
        self.tasks.get(task_id).map(|t| t.context_id.as_str())
    }

    /// The A2A state of a tracked task.
    pub fn task_state(&self, task_id: &str) -> Option<TaskState> {
        self.tasks.get(task_id).and_then(|t| t.state)
    }

    /// The task waits for the user: its state is `input-required` / `auth-required` and the
    /// request is still open (not answered by the client). Its stream ended on purpose
    /// (`final`); the next stream is the answer's.
    pub fn awaits_answer(&self, task_id: &str) -> bool {
        self.tasks.get(task_id).is_some_and(|t| {
            matches!(
                t.state,
                Some(TaskState::InputRequired | TaskState::AuthRequired)
            ) && (t.open_input.is_some() || t.open_auth.is_some())
        })
    }

    /// Forgets an open input request the client answered; `true` when it was open.
    pub(crate) fn close_input(&mut self, input_id: &str) -> bool {
        for (_, t) in self.tasks.iter_mut() {
            if t.open_input.as_deref() == Some(input_id) {
                t.open_input = None;
                return true;
            }
            if t.open_auth.as_deref() == Some(input_id) {
                t.open_auth = None;
                return true;
            }
        }
        false
    }

    pub(crate) fn decode(&mut self, v: &Value<'_>, clock: &mut Clock, sink: &mut Sink<'_>) {
        let mut prefix = "$";
        let mut event = v;
        self.responding = None;
        if v.get("jsonrpc").is_some() || v.get("result").is_some() || v.get("error").is_some() {
            sink.kind = Some("jsonrpc".to_owned());
            match self.envelope(v, clock, sink) {
                Some(inner) => {
                    event = inner;
                    prefix = "$.result";
                }
                None => return,
            }
        }
        let Some(kind) = event.get("kind").and_then(Value::as_str) else {
            sink.require_error(Some(event), "kind", "string", &format!("{prefix}.kind"));
            return;
        };
        sink.kind = Some(kind.to_owned());
        if kind.starts_with("internal:") || crate::events::KINDS.contains(&kind) {
            // A canonical event inside a JSON-RPC response: pass it through.
            sink.event(event.to_json());
            return;
        }
        let own_ts = match kind {
            "task" | "status-update" => get_str(get(Some(event), "status"), "timestamp"),
            _ => None,
        };
        let at = At {
            prefix,
            ts: clock.stamp(own_ts),
        };
        match kind {
            "task" => self.task(event, &at, sink),
            "status-update" => self.status_update(event, &at, sink),
            "artifact-update" => self.artifact_update(event, &at, sink),
            "message" => self.message(event, &at, sink),
            other => {
                let task = get_str(Some(event), "taskId");
                let ctx = get_str(Some(event), "contextId");
                sink.event(unknown_event(&format!("a2a:{other}"), ctx, task, event));
            }
        }
        if self.tasks.len() > MAX_TRACKED {
            self.prune();
        }
    }

    /// Checks a JSON-RPC response; returns the `result` event to decode, if any.
    fn envelope<'v, 'a>(
        &mut self,
        v: &'v Value<'a>,
        clock: &mut Clock,
        sink: &mut Sink<'_>,
    ) -> Option<&'v Value<'a>> {
        if get_str(Some(v), "jsonrpc") != Some("2.0") {
            let found = v
                .get("jsonrpc")
                .map_or("nothing".to_owned(), |x| x.to_json());
            sink.warn(
                DiagCode::RpcInvalid,
                format!("jsonrpc: expected \"2.0\", found {found}"),
                "$.jsonrpc",
            );
        }
        let sent = self.check_id(v.get("id"), sink);
        self.responding = sent;
        if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
            if v.get("result").is_some_and(|r| !r.is_null()) {
                sink.warn(
                    DiagCode::RpcInvalid,
                    "a response has both result and error: the error is used".to_owned(),
                    "$",
                );
            }
            self.rpc_error(err, sent, clock, sink);
            return None;
        }
        match v.get("result") {
            Some(r) if r.as_object().is_some() => {
                if let Some(s) = sent.and_then(|i| self.sent.get_mut(i)) {
                    s.got_result = true;
                }
                Some(r)
            }
            Some(r) => {
                let msg = format!("result: expected an event object, found {}", r.type_name());
                sink.error(DiagCode::RpcInvalid, msg, "$.result");
                None
            }
            None => {
                sink.error(
                    DiagCode::RpcInvalid,
                    "a json-rpc response needs result or error".to_owned(),
                    "$",
                );
                None
            }
        }
    }

    /// Matches a response id to a sent request (or, without any, to the stream's first id).
    /// Returns the index of the matching request.
    fn check_id(&mut self, id: Option<&Value<'_>>, sink: &mut Sink<'_>) -> Option<usize> {
        let Some(id) = id else {
            sink.warn(
                DiagCode::RpcInvalid,
                "missing required field id".to_owned(),
                "$.id",
            );
            return None;
        };
        if !matches!(id, Value::String(_) | Value::Number(_) | Value::Null) {
            let msg = format!(
                "id: expected string, number or null, found {}",
                id.type_name()
            );
            sink.warn(DiagCode::RpcInvalid, msg, "$.id");
            return None;
        }
        if !self.sent.is_empty() {
            let found = self.sent.iter().position(|s| match id {
                Value::Number(n) => *n == s.id as f64,
                Value::String(t) => *t == s.id.to_string(),
                _ => false,
            });
            if found.is_none() && !id.is_null() {
                let msg = format!("response id {} matches no request sent", id.to_json());
                sink.warn(DiagCode::RpcIdMismatch, msg, "$.id");
            }
            return found;
        }
        let text = id.to_json();
        match &self.stream_rpc_id {
            None => self.stream_rpc_id = Some(text),
            Some(first) if *first != text && !id.is_null() => {
                let msg = format!("response id {text} differs from the stream's first id {first}");
                sink.warn(DiagCode::RpcIdMismatch, msg, "$.id");
            }
            Some(_) => {}
        }
        None
    }

    fn rpc_error(
        &mut self,
        err: &Value<'_>,
        sent: Option<usize>,
        clock: &mut Clock,
        sink: &mut Sink<'_>,
    ) {
        let code = err.get("code").and_then(Value::as_f64);
        let message = get_str(Some(err), "message");
        if err.as_object().is_none() {
            sink.warn(
                DiagCode::RpcInvalid,
                format!("error: expected an object, found {}", err.type_name()),
                "$.error",
            );
        } else {
            if code.is_none_or(|c| c.fract() != 0.0) {
                sink.require_warn(Some(err), "code", "integer", "$.error.code");
            }
            if message.is_none() {
                sink.require_warn(Some(err), "message", "string", "$.error.message");
            }
        }
        let (method, req_task, refused_answer) = match sent.and_then(|i| self.sent.get(i)) {
            Some(s) => (
                Some(s.method),
                s.task_id.clone(),
                // A message to a task that waits for the user (an answer) refused before its
                // stream opened: the task goes on waiting (the answer may be sent again).
                s.method == "message/stream" && s.task_id.is_some() && !s.got_result,
            ),
            None => (None, None, false),
        };
        // A failed stream fails its task; a refused cancel, lookup or answer does not.
        let streaming = !refused_answer
            && method.is_none_or(|m| m == "message/stream" || m == "tasks/resubscribe");
        let task = req_task.or_else(|| self.last_task.clone()).filter(|t| {
            streaming
                && self
                    .tasks
                    .get(t)
                    .is_some_and(|x| !x.state.is_some_and(TaskState::is_terminal))
        });
        let text = format!(
            "json-rpc error {}: {}",
            code.map_or("?".to_owned(), |c| crate::json::Num(c).to_string()),
            message.unwrap_or("(no message)")
        );
        let Some(task_id) = task else {
            sink.error(
                DiagCode::RpcError,
                format!("{text} (nothing applied)"),
                "$.error",
            );
            return;
        };
        sink.task = Some(task_id.clone());
        sink.warn(
            DiagCode::RpcError,
            format!("{text}: task {task_id} failed"),
            "$.error",
        );
        let at = At {
            prefix: "$",
            ts: clock.stamp(None),
        };
        let ctx = self
            .tasks
            .get(&task_id)
            .map(|t| t.context_id.clone())
            .unwrap_or_default();
        self.close_open_files(&task_id, &at, sink);
        let mut e = Obj::event("task-status", &ctx, &task_id);
        e.str("status", "failed")
            .opt_str("message", message)
            .str("timestamp", &at.ts);
        let mut m = Obj::new();
        m.str("reason", message.unwrap_or("json-rpc error"));
        let mut a = Obj::new();
        a.value("error", err);
        m.obj("a2a", a);
        e.obj("metadata", m);
        sink.event(e.finish());
        if let Some(t) = self.tasks.get_mut(&task_id) {
            t.state = Some(TaskState::Failed);
        }
    }

    /// Tracks a task, emitting `task-created` the first time. Returns `true` when it was new.
    fn ensure_task(
        &mut self,
        task_id: &str,
        context_id: &str,
        at: &At<'_>,
        metadata: Option<Obj>,
        sink: &mut Sink<'_>,
    ) -> bool {
        self.last_task = Some(task_id.to_owned());
        if let Some(req) = self.responding.and_then(|i| self.sent.get_mut(i)) {
            let root = req.task_id.get_or_insert_with(|| task_id.to_owned());
            self.stream_root = Some(root.clone());
            self.stream_unnamed = false;
        } else if self.stream_unnamed {
            // Bare events on the new stream (no JSON-RPC ids to match): its first task.
            self.stream_root = Some(task_id.to_owned());
            self.stream_unnamed = false;
        }
        sink.task = Some(task_id.to_owned());
        if let Some(t) = self.tasks.get_mut(task_id) {
            if t.context_id.is_empty() {
                t.context_id = context_id.to_owned();
            }
            return false;
        }
        self.tasks.insert(
            task_id,
            TaskTrack {
                context_id: context_id.to_owned(),
                ..TaskTrack::default()
            },
        );
        let mut e = Obj::event("task-created", context_id, task_id);
        e.str("initiator", "user").str("timestamp", &at.ts);
        if let Some(m) = metadata {
            e.obj_if("metadata", m);
        }
        sink.event(e.finish());
        true
    }

    fn required_ids<'v>(
        &self,
        ev: &'v Value<'_>,
        id_key: &str,
        at: &At<'_>,
        sink: &mut Sink<'_>,
    ) -> Option<(&'v str, &'v str)> {
        let id = get_str(Some(ev), id_key);
        let ctx = get_str(Some(ev), "contextId");
        if let Some(id) = id {
            sink.task = Some(id.to_owned());
        }
        if id.is_none() {
            sink.require_error(Some(ev), id_key, "string", &at.path(&format!(".{id_key}")));
        }
        if ctx.is_none() {
            sink.require_error(Some(ev), "contextId", "string", &at.path(".contextId"));
        }
        Some((id?, ctx?))
    }

    fn task(&mut self, ev: &Value<'_>, at: &At<'_>, sink: &mut Sink<'_>) {
        let ids = self.required_ids(ev, "id", at, sink);
        let status = ev.get("status").filter(|s| s.as_object().is_some());
        if status.is_none() {
            sink.require_error(Some(ev), "status", "object", &at.path(".status"));
        }
        let (Some((id, ctx)), Some(status)) = (ids, status) else {
            return;
        };
        let Some(state) = self.state_of(status, at, sink) else {
            return;
        };
        let mut meta = Obj::new();
        meta.rest(members(get(Some(ev), "metadata")), &["a2a"]);
        let mut a = Obj::new();
        a.opt_value("history", get(Some(ev), "history"));
        a.rest(
            members(Some(ev)),
            &[
                "kind",
                "id",
                "contextId",
                "status",
                "history",
                "artifacts",
                "metadata",
            ],
        );
        meta.obj_if("a2a", a);
        let new = self.ensure_task(id, ctx, at, Some(meta), sink);
        if let Some(arts) = ev.get("artifacts") {
            match arts.as_array() {
                Some(list) => {
                    for (i, art) in list.iter().enumerate() {
                        let path = at.path(&format!(".artifacts[{i}]"));
                        self.snapshot_artifact(id, ctx, art, state.is_terminal(), &path, at, sink);
                    }
                }
                None => sink.require_warn(Some(ev), "artifacts", "array", &at.path(".artifacts")),
            }
        }
        let same = self.tasks.get(id).and_then(|t| t.state) == Some(state);
        if !same || new {
            self.apply_state(id, ctx, state, status, None, None, at, sink);
        }
    }

    fn state_of(&self, status: &Value<'_>, at: &At<'_>, sink: &mut Sink<'_>) -> Option<TaskState> {
        let Some(name) = get_str(Some(status), "state") else {
            sink.require_error(Some(status), "state", "string", &at.path(".status.state"));
            return None;
        };
        let state = TaskState::parse(name);
        if state.is_none() {
            let msg = format!(
                "{} is not one of {}",
                crate::json::Quoted(name),
                TaskState::NAMES.join(", ")
            );
            sink.error(DiagCode::InvalidEnum, msg, &at.path(".status.state"));
        }
        state
    }

    fn status_update(&mut self, ev: &Value<'_>, at: &At<'_>, sink: &mut Sink<'_>) {
        let ids = self.required_ids(ev, "taskId", at, sink);
        let status = ev.get("status").filter(|s| s.as_object().is_some());
        if status.is_none() {
            sink.require_error(Some(ev), "status", "object", &at.path(".status"));
        }
        let (Some((task, ctx)), Some(status)) = (ids, status) else {
            return;
        };
        let Some(state) = self.state_of(status, at, sink) else {
            return;
        };
        let fin = get_bool(Some(ev), "final");
        if fin.is_none() {
            sink.require_warn(Some(ev), "final", "boolean", &at.path(".final"));
        }
        self.ensure_task(task, ctx, at, None, sink);
        self.apply_state(
            task,
            ctx,
            state,
            status,
            fin,
            get(Some(ev), "metadata"),
            at,
            sink,
        );
    }

    /// Emits what a task's move into `state` means canonically.
    #[allow(clippy::too_many_arguments)]
    fn apply_state(
        &mut self,
        task: &str,
        ctx: &str,
        state: TaskState,
        status: &Value<'_>,
        fin: Option<bool>,
        ev_meta: Option<&Value<'_>>,
        at: &At<'_>,
        sink: &mut Sink<'_>,
    ) {
        let message = get(Some(status), "message");
        let text = message_text(message);
        let data = message_data(message);
        // A request is opened when the task starts waiting, and again when it still (or again)
        // waits after the client answered the open one: the agent asks a follow-up question.
        let (mut asks_input, mut asks_auth) = (true, true);
        let (prev, has_content, open_input, open_auth) = match self.tasks.get_mut(task) {
            Some(t) => {
                asks_input = t.state != Some(TaskState::InputRequired) || t.open_input.is_none();
                asks_auth = t.state != Some(TaskState::AuthRequired) || t.open_auth.is_none();
                let prev = t.state.replace(state);
                let input = if state != TaskState::InputRequired {
                    t.open_input.take()
                } else {
                    None
                };
                let auth = if state != TaskState::AuthRequired {
                    t.open_auth.take()
                } else {
                    None
                };
                (prev, t.content_next > 0, input, auth)
            }
            None => (None, false, None, None),
        };
        // Ended failed, rejected or canceled while waiting: nobody answered, the request
        // expires with the task (as in protocol 000), no answer is inferred.
        let unanswered = matches!(
            state,
            TaskState::Failed | TaskState::Rejected | TaskState::Canceled
        );
        if let Some(input_id) = open_input.filter(|_| !unanswered) {
            let mut e = Obj::event("input-received", ctx, task);
            e.str("inputId", &input_id)
                .str("providedBy", "user")
                .str("timestamp", &at.ts);
            e.raw("metadata", r#"{"a2a":{"inferred":true}}"#);
            sink.event(e.finish());
        }
        if let Some(auth_id) = open_auth.filter(|_| !unanswered) {
            let mut e = Obj::event("auth-completed", ctx, task);
            e.str("authId", &auth_id)
                .str("userId", "user")
                .str("timestamp", &at.ts);
            e.raw("metadata", r#"{"a2a":{"inferred":true}}"#);
            sink.event(e.finish());
        }
        // metadata: the event's own members, then what A2A says that 000 has no field for.
        let mut meta = Obj::new();
        meta.rest(members(ev_meta), &["a2a", "reason"]);
        let reason = get_str(ev_meta, "reason")
            .or_else(|| get_str(ev_meta, "error"))
            .map(str::to_owned)
            .or_else(|| match state {
                TaskState::Rejected => Some("rejected".to_owned()),
                TaskState::Failed | TaskState::Canceled => text.clone(),
                _ => None,
            });
        if state.is_terminal() {
            meta.opt_str("reason", reason.as_deref());
        }
        let mut a = Obj::new();
        a.str("state", state.as_str());
        if let Some(f) = fin {
            a.bool("final", f);
        }
        a.opt_value("message", message);
        if let Some(ts) = get_str(Some(status), "timestamp") {
            a.str("timestamp", ts);
        }
        let status_event = |canonical: &str, meta: Obj, message: Option<&str>| {
            let mut e = Obj::event("task-status", ctx, task);
            e.str("status", canonical)
                .opt_str("message", message)
                .str("timestamp", &at.ts);
            e.obj_if("metadata", meta);
            e.finish()
        };
        match state {
            TaskState::Working => {
                meta.obj("a2a", a);
                sink.event(status_event("working", meta, text.as_deref()));
            }
            TaskState::InputRequired => {
                meta.str("blockedBy", "user");
                let mut m2 = Obj::new();
                m2.rest(members(ev_meta), &["a2a"]);
                meta.obj("a2a", a);
                sink.event(status_event("waiting-input", meta, text.as_deref()));
                if asks_input {
                    self.input_required(task, ctx, text.as_deref(), data, m2, at, sink);
                }
            }
            TaskState::AuthRequired => {
                meta.str("blockedBy", "user");
                meta.obj("a2a", a);
                sink.event(status_event("waiting-auth", meta, text.as_deref()));
                if asks_auth {
                    self.auth_required(task, ctx, text.as_deref(), data, at, sink);
                }
            }
            TaskState::Completed => {
                self.close_open_files(task, at, sink);
                meta.obj("a2a", a);
                match text.as_deref().filter(|_| !has_content) {
                    Some(answer) => {
                        let mut e = Obj::event("task-complete", ctx, task);
                        e.str("content", answer).str("timestamp", &at.ts);
                        e.obj("metadata", meta);
                        sink.event(e.finish());
                    }
                    None => sink.event(status_event("completed", meta, text.as_deref())),
                }
            }
            TaskState::Failed | TaskState::Rejected | TaskState::Canceled => {
                self.close_open_files(task, at, sink);
                meta.obj("a2a", a);
                let canonical = if state == TaskState::Canceled {
                    "canceled"
                } else {
                    "failed"
                };
                sink.event(status_event(canonical, meta, text.as_deref()));
            }
            TaskState::Submitted | TaskState::Unknown => {
                // No canonical status: `submitted` is the task's creation, `unknown` says nothing.
                // Kept as an unknown event when it says more than that (a status message).
                if prev.is_some() || state == TaskState::Unknown || message.is_some() {
                    let mut e = Obj::new();
                    e.str("kind", "a2a:status-update")
                        .str("contextId", ctx)
                        .str("taskId", task)
                        .value("status", status)
                        .opt_value("metadata", ev_meta);
                    sink.event(e.finish());
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn input_required(
        &mut self,
        task: &str,
        ctx: &str,
        prompt: Option<&str>,
        data: Option<&Value<'_>>,
        extra_meta: Obj,
        at: &At<'_>,
        sink: &mut Sink<'_>,
    ) {
        let Some(t) = self.tasks.get_mut(task) else {
            return;
        };
        t.requests += 1;
        let input_id = format!("{task}#input-{}", t.requests);
        t.open_input = Some(input_id.clone());
        let options = get(data, "options").filter(|o| o.as_array().is_some());
        let schema = get(data, "schema");
        let input_type = get_str(data, "inputType")
            .filter(|s| crate::events::InputType::parse(s).is_some())
            .unwrap_or(if options.is_some() {
                "selection"
            } else {
                "clarification"
            });
        let mut e = Obj::event("input-required", ctx, task);
        e.str("inputId", &input_id)
            .bool("requireUser", true)
            .str("inputType", input_type)
            .str("prompt", prompt.unwrap_or("Input required"))
            .opt_value("schema", schema)
            .opt_value("options", options)
            .str("timestamp", &at.ts);
        let mut m = extra_meta;
        if let Some(d) = data {
            let mut a = Obj::new();
            a.value("data", d);
            m.obj("a2a", a);
        }
        e.obj_if("metadata", m);
        sink.event(e.finish());
    }

    fn auth_required(
        &mut self,
        task: &str,
        ctx: &str,
        prompt: Option<&str>,
        data: Option<&Value<'_>>,
        at: &At<'_>,
        sink: &mut Sink<'_>,
    ) {
        let Some(t) = self.tasks.get_mut(task) else {
            return;
        };
        t.requests += 1;
        let auth_id = format!("{task}#auth-{}", t.requests);
        t.open_auth = Some(auth_id.clone());
        let auth_type = get_str(data, "authType")
            .or_else(|| get_str(data, "auth_type"))
            .filter(|s| crate::events::AuthType::parse(s).is_some())
            .unwrap_or("custom");
        let url = get_str(data, "authUrl")
            .or_else(|| get_str(data, "auth_url"))
            .or_else(|| get_str(data, "url"));
        let mut e = Obj::event("auth-required", ctx, task);
        e.str("authId", &auth_id)
            .str("authType", auth_type)
            .opt_str("provider", get_str(data, "provider"));
        if let Some(scopes) = get(data, "scopes").and_then(Value::as_array) {
            e.str_array("scopes", scopes.iter().filter_map(Value::as_str));
        }
        e.str("prompt", prompt.unwrap_or("Authentication required"))
            .opt_str("authUrl", url)
            .str("timestamp", &at.ts);
        if let Some(d) = data {
            let mut m = Obj::new();
            if let Some(x) = get(Some(d), "expiresIn") {
                m.value("expiresIn", x);
            }
            let mut a = Obj::new();
            a.value("data", d);
            m.obj("a2a", a);
            e.obj("metadata", m);
        }
        sink.event(e.finish());
    }

    /// Ends every file artifact of `task` that never got its last chunk (the store refuses
    /// chunks once the task has ended, and reports files that never end).
    fn close_open_files(&mut self, task: &str, at: &At<'_>, sink: &mut Sink<'_>) {
        for (_, art) in self.arts.iter_mut() {
            if art.task_id == task && art.target == Target::File && !art.closed {
                art.closed = true;
                let mut e = Obj::event("file-write", &art.context_id, task);
                e.str("artifactId", &art.id)
                    .str("data", "")
                    .num("index", art.next as f64)
                    .bool("complete", true)
                    .str("timestamp", &at.ts);
                e.raw("metadata", r#"{"a2a":{"closedByTaskEnd":true}}"#);
                art.next += 1;
                sink.event(e.finish());
            }
        }
    }

    fn artifact_update(&mut self, ev: &Value<'_>, at: &At<'_>, sink: &mut Sink<'_>) {
        let ids = self.required_ids(ev, "taskId", at, sink);
        let artifact = ev.get("artifact").filter(|a| a.as_object().is_some());
        if artifact.is_none() {
            sink.require_error(Some(ev), "artifact", "object", &at.path(".artifact"));
        }
        let (Some((task, ctx)), Some(artifact)) = (ids, artifact) else {
            return;
        };
        let append = get_bool(Some(ev), "append").unwrap_or(false);
        let last = get_bool(Some(ev), "lastChunk").unwrap_or(false);
        for key in ["append", "lastChunk"] {
            if ev
                .get(key)
                .is_some_and(|x| x.as_bool().is_none() && !x.is_null())
            {
                sink.require_warn(Some(ev), key, "boolean", &at.path(&format!(".{key}")));
            }
        }
        self.ensure_task(task, ctx, at, None, sink);
        let mut flags = Obj::new();
        flags.bool("append", append).bool("lastChunk", last);
        flags.opt_value("metadata", get(Some(ev), "metadata"));
        self.apply_artifact(
            task,
            ctx,
            artifact,
            append,
            last,
            flags,
            &at.path(".artifact"),
            at,
            sink,
        );
    }

    /// An artifact of a `task` snapshot: new → applied whole; unchanged → skipped; changed →
    /// replaces the old one.
    #[allow(clippy::too_many_arguments)]
    fn snapshot_artifact(
        &mut self,
        task: &str,
        ctx: &str,
        art: &Value<'_>,
        terminal: bool,
        path: &str,
        at: &At<'_>,
        sink: &mut Sink<'_>,
    ) {
        if art.as_object().is_none() {
            sink.warn(
                DiagCode::InvalidType,
                format!("artifact: expected object, found {}", art.type_name()),
                path,
            );
            return;
        }
        if let (Some(id), Some(parts)) = (
            get_str(Some(art), "artifactId"),
            get(Some(art), "parts").and_then(Value::as_array),
        ) {
            if let Some((_, fp)) = self.primary.get(id) {
                let mut now = Fnv::default();
                for p in parts {
                    fingerprint(&mut now, p);
                }
                if now == *fp {
                    return;
                }
            }
        }
        let mut flags = Obj::new();
        flags
            .bool("append", false)
            .bool("lastChunk", terminal)
            .bool("snapshot", true);
        self.apply_artifact(task, ctx, art, false, terminal, flags, path, at, sink);
    }

    #[allow(clippy::too_many_arguments)]
    fn apply_artifact(
        &mut self,
        task: &str,
        ctx: &str,
        artifact: &Value<'_>,
        append: bool,
        last: bool,
        flags: Obj,
        path: &str,
        at: &At<'_>,
        sink: &mut Sink<'_>,
    ) {
        let Some(art_id) = get_str(Some(artifact), "artifactId") else {
            sink.require_error(
                Some(artifact),
                "artifactId",
                "string",
                &format!("{path}.artifactId"),
            );
            return;
        };
        let Some(parts) = artifact.get("parts").and_then(Value::as_array) else {
            sink.require_error(Some(artifact), "parts", "array", &format!("{path}.parts"));
            return;
        };
        // Artifact ids are unique within their task: another task's artifact of the same id
        // (the next turn's "answer") is an artifact of its own, `<artifactId>@<taskId>`.
        let wire_id = art_id;
        let scoped;
        let art_id = match self.arts.get(art_id) {
            Some(a) if a.task_id != task => {
                scoped = format!("{art_id}@{task}");
                scoped.as_str()
            }
            _ => art_id,
        };
        // Validate parts; keep the usable ones with their kind.
        let mut good: Vec<(usize, PartKind, &Value<'_>)> = Vec::with_capacity(parts.len());
        for (i, p) in parts.iter().enumerate() {
            let ppath = format!("{path}.parts[{i}]");
            let Some(kind) = part_kind(p) else {
                match p.get("kind").and_then(Value::as_str) {
                    Some(k) => sink.warn(
                        DiagCode::InvalidEnum,
                        format!(
                            "{} is not one of text, file, data (part ignored)",
                            crate::json::Quoted(k)
                        ),
                        &format!("{ppath}.kind"),
                    ),
                    None => sink.require_warn(Some(p), "kind", "string", &format!("{ppath}.kind")),
                }
                continue;
            };
            let ok = match kind {
                PartKind::Text => p.get("text").and_then(Value::as_str).is_some(),
                PartKind::File => {
                    let f = p.get("file");
                    get_str(f, "bytes").is_some() || get_str(f, "uri").is_some()
                }
                PartKind::Data => p.get("data").is_some_and(|d| !d.is_null()),
            };
            if !ok {
                let (key, what) = match kind {
                    PartKind::Text => ("text", "a text part without a text string"),
                    PartKind::File => ("file", "a file part without file.bytes or file.uri"),
                    PartKind::Data => ("data", "a data part without data"),
                };
                sink.warn(
                    DiagCode::MissingField,
                    format!("{what} (part ignored)"),
                    &format!("{ppath}.{key}"),
                );
                continue;
            }
            good.push((i, kind, p));
        }
        // The A2A artifact's first part decides which canonical artifact keeps its id.
        let first_kind = good.first().map(|g| g.1);
        let known = self.primary.contains(art_id);
        if !known {
            let Some(k) = first_kind else {
                if append {
                    sink.warn(
                        DiagCode::UnknownArtifact,
                        format!("append to artifact {art_id} which was never started, with no parts: ignored"),
                        &format!("{path}.artifactId"),
                    );
                }
                return;
            };
            if append {
                sink.warn(
                    DiagCode::UnknownArtifact,
                    format!("append to artifact {art_id} which was never started: taken as its first chunk"),
                    &format!("{path}.artifactId"),
                );
            }
            self.primary.insert(art_id, (k, Fnv::default()));
        } else if !append {
            // A replacement: every canonical artifact of this A2A artifact starts over.
            self.replace(art_id, sink);
        } else if self.closed(art_id) {
            sink.warn(
                DiagCode::ChunkAfterComplete,
                format!("append to artifact {art_id} after its lastChunk: ignored"),
                &format!("{path}.artifactId"),
            );
            return;
        }
        let primary = self.primary.get(art_id).map_or(PartKind::Text, |p| p.0);
        if let Some((_, fp)) = self.primary.get_mut(art_id) {
            for (_, _, p) in &good {
                fingerprint(fp, p);
            }
        }
        let flags = flags.finish();
        let n = good.len();
        let mut touched: Vec<String> = Vec::new();
        for (j, (i, kind, p)) in good.into_iter().enumerate() {
            let canonical_id = if kind == primary {
                art_id.to_owned()
            } else {
                format!("{art_id}#{}", kind.as_str())
            };
            // The final chunk goes on the last part for its canonical artifact.
            let later_same = self.later_part_same_target(&canonical_id, art_id, primary, parts, i);
            let is_last = last && (j + 1 == n || !later_same);
            self.track(&canonical_id, task, ctx, kind);
            let slot = canonical_id.as_str();
            let first = self.arts.get(slot).is_some_and(|a| a.next == 0);
            let target = self.arts.get(slot).map_or(Target::File, |a| a.target);
            let mut a2a = Obj::new();
            a2a.str("artifactId", wire_id)
                .num("part", i as f64)
                .raw("chunk", &flags);
            if first {
                a2a.rest(members(Some(artifact)), &["artifactId", "parts"]);
            }
            a2a.opt_value("partMetadata", get(Some(p), "metadata"));
            match target {
                Target::Answer => {
                    let Some(t) = self.tasks.get_mut(task) else {
                        continue;
                    };
                    let idx = t.content_next;
                    t.content_next += 1;
                    let mut e = Obj::event("content-delta", ctx, task);
                    e.str("delta", get_str(Some(p), "text").unwrap_or(""))
                        .num("index", idx as f64)
                        .str("timestamp", &at.ts);
                    let mut m = Obj::new();
                    m.obj("a2a", a2a);
                    e.obj("metadata", m);
                    sink.event(e.finish());
                    if let Some(a) = self.arts.get_mut(slot) {
                        a.next += 1;
                        a.closed |= is_last;
                    }
                }
                Target::File => {
                    let Some(a) = self.arts.get_mut(slot) else {
                        continue;
                    };
                    let file = p.get("file");
                    let mut e = Obj::event("file-write", ctx, task);
                    let (data, encoding) = match kind {
                        PartKind::Text => (get_str(Some(p), "text").unwrap_or(""), "utf-8"),
                        _ => (get_str(file, "bytes").unwrap_or(""), "base64"),
                    };
                    e.str("artifactId", &canonical_id)
                        .str("data", data)
                        .num("index", a.next as f64)
                        .bool("complete", is_last)
                        .str("timestamp", &at.ts);
                    if a.next == 0 {
                        let name =
                            get_str(file, "name").or_else(|| get_str(Some(artifact), "name"));
                        let mime = get_str(file, "mimeType")
                            .or_else(|| get_str(get(Some(artifact), "metadata"), "mimeType"))
                            .or((kind == PartKind::Text).then_some("text/plain"));
                        e.opt_str("name", name)
                            .opt_str("description", get_str(Some(artifact), "description"))
                            .opt_str("mimeType", mime)
                            .str("encoding", encoding);
                    }
                    if let Some(uri) = get_str(file, "uri") {
                        a2a.str("uri", uri);
                    }
                    let mut m = Obj::new();
                    m.obj("a2a", a2a);
                    e.obj("metadata", m);
                    a.next += 1;
                    a.closed |= is_last;
                    touched.push(canonical_id);
                    sink.event(e.finish());
                }
                Target::Data => {
                    let Some(a) = self.arts.get_mut(slot) else {
                        continue;
                    };
                    a.next += 1;
                    a.closed |= is_last;
                    let mut e = Obj::event("data-write", ctx, task);
                    e.str("artifactId", &canonical_id)
                        .opt_str("name", get_str(Some(artifact), "name"))
                        .opt_str("description", get_str(Some(artifact), "description"));
                    match p.get("data") {
                        Some(d @ Value::Object(_)) => e.value("data", d),
                        Some(d) => {
                            let mut w = Obj::new();
                            w.value("value", d);
                            e.obj("data", w)
                        }
                        None => e.raw("data", "{}"),
                    };
                    e.str("timestamp", &at.ts);
                    let mut m = Obj::new();
                    m.num("version", a.next as f64);
                    m.obj("a2a", a2a);
                    e.obj("metadata", m);
                    sink.event(e.finish());
                }
            }
        }
        if last {
            // Canonical artifacts of this A2A artifact that got no part in the final chunk.
            let siblings: Vec<String> = ["", "#text", "#file", "#data"]
                .iter()
                .map(|suffix| format!("{art_id}{suffix}"))
                .filter(|k| self.arts.contains(k))
                .collect();
            for slot in siblings {
                let Some(a) = self.arts.get_mut(&slot) else {
                    continue;
                };
                if a.closed || touched.contains(&a.id) {
                    continue;
                }
                a.closed = true;
                if a.target == Target::File {
                    let mut e = Obj::event("file-write", ctx, task);
                    e.str("artifactId", &a.id)
                        .str("data", "")
                        .num("index", a.next as f64)
                        .bool("complete", true)
                        .str("timestamp", &at.ts);
                    a.next += 1;
                    sink.event(e.finish());
                }
            }
        }
    }

    fn later_part_same_target(
        &self,
        canonical_id: &str,
        art_id: &str,
        primary: PartKind,
        parts: &[Value<'_>],
        i: usize,
    ) -> bool {
        parts.iter().skip(i + 1).any(|p| match part_kind(p) {
            Some(k) if k == primary => canonical_id == art_id,
            Some(k) => canonical_id.strip_prefix(art_id) == Some(&format!("#{}", k.as_str())),
            None => false,
        })
    }

    fn closed(&self, art_id: &str) -> bool {
        self.arts.get(art_id).is_some_and(|a| a.closed)
    }

    /// The track of a canonical artifact, created on first use.
    fn track(&mut self, id: &str, task: &str, ctx: &str, kind: PartKind) {
        if self.arts.contains(id) {
            return;
        }
        let target = match kind {
            PartKind::Data => Target::Data,
            PartKind::File => Target::File,
            PartKind::Text => match self.tasks.get_mut(task) {
                Some(t) if t.answer.is_none() => {
                    t.answer = Some(id.to_owned());
                    Target::Answer
                }
                Some(t) if t.answer.as_deref() == Some(id) => Target::Answer,
                _ => Target::File,
            },
        };
        self.arts.insert(
            id,
            ArtTrack {
                id: id.to_owned(),
                task_id: task.to_owned(),
                context_id: ctx.to_owned(),
                target,
                next: 0,
                closed: false,
            },
        );
    }

    /// `append: false` on a known artifact: its canonical artifacts start over.
    fn replace(&mut self, art_id: &str, sink: &mut Sink<'_>) {
        if let Some((_, fp)) = self.primary.get_mut(art_id) {
            *fp = Fnv::default();
        }
        for suffix in ["", "#text", "#file", "#data"] {
            let key = format!("{art_id}{suffix}");
            let Some(a) = self.arts.get_mut(&key) else {
                continue;
            };
            let started = a.next > 0;
            a.closed = false;
            match a.target {
                Target::Answer if started => {
                    a.next = 0;
                    let owner = a.task_id.clone();
                    if let Some(t) = self.tasks.get_mut(&owner) {
                        t.content_next = 0;
                    }
                    sink.step(Step::ResetContent(owner));
                }
                Target::File if started => {
                    a.next = 0;
                    sink.step(Step::ResetArtifact(key));
                }
                // Data artifacts are atomic: the next version replaces the last.
                _ => {}
            }
        }
    }

    fn message(&mut self, ev: &Value<'_>, at: &At<'_>, sink: &mut Sink<'_>) {
        let role = get_str(Some(ev), "role");
        let message_id = get_str(Some(ev), "messageId");
        let parts = ev.get("parts").and_then(Value::as_array);
        for (key, ok, what) in [
            ("messageId", message_id.is_some(), "string"),
            ("role", role.is_some(), "string"),
            ("parts", parts.is_some(), "array"),
        ] {
            if !ok {
                sink.require_error(Some(ev), key, what, &at.path(&format!(".{key}")));
            }
        }
        let (Some(role), Some(message_id), Some(parts)) = (role, message_id, parts) else {
            return;
        };
        let task_ref = get_str(Some(ev), "taskId");
        let ctx_ref = get_str(Some(ev), "contextId");
        if role != "agent" {
            if role != "user" {
                sink.warn(
                    DiagCode::InvalidEnum,
                    format!(
                        "{} is not one of user, agent (kept as an unknown event)",
                        crate::json::Quoted(role)
                    ),
                    &at.path(".role"),
                );
            }
            sink.event(unknown_event("a2a:message", ctx_ref, task_ref, ev));
            return;
        }
        let task = task_ref.unwrap_or(message_id).to_owned();
        let ctx = ctx_ref
            .map(str::to_owned)
            .or_else(|| self.tasks.get(&task).map(|t| t.context_id.clone()))
            .unwrap_or_else(|| message_id.to_owned());
        let mut meta = Obj::new();
        let mut a = Obj::new();
        a.str("messageId", message_id);
        meta.obj("a2a", a);
        self.ensure_task(&task, &ctx, at, Some(meta), sink);
        let mut text = String::new();
        for (i, p) in parts.iter().enumerate() {
            match part_kind(p) {
                Some(PartKind::Text) => text.push_str(get_str(Some(p), "text").unwrap_or("")),
                Some(k) => {
                    let art = Value::Object(vec![
                        (
                            "artifactId".into(),
                            Value::String(format!("{message_id}#{i}").into()),
                        ),
                        ("parts".into(), Value::Array(vec![p.clone()])),
                    ]);
                    let mut flags = Obj::new();
                    flags.str("messageId", message_id).str("part", k.as_str());
                    let path = at.path(&format!(".parts[{i}]"));
                    self.apply_artifact(&task, &ctx, &art, false, true, flags, &path, at, sink);
                }
                None => sink.require_warn(
                    Some(p),
                    "kind",
                    "text, file or data",
                    &at.path(&format!(".parts[{i}].kind")),
                ),
            }
        }
        if !text.is_empty() {
            if let Some(t) = self.tasks.get_mut(&task) {
                let idx = t.content_next;
                t.content_next += 1;
                let mut e = Obj::event("content-delta", &ctx, &task);
                e.str("delta", &text)
                    .num("index", idx as f64)
                    .str("timestamp", &at.ts);
                let mut m = Obj::new();
                let mut a = Obj::new();
                a.str("messageId", message_id);
                a.opt_value("metadata", get(Some(ev), "metadata"));
                m.obj("a2a", a);
                e.obj("metadata", m);
                sink.event(e.finish());
            }
        }
        if task_ref.is_none() {
            // A message answer without a task is final (A2A: the response is the message).
            if let Some(t) = self.tasks.get_mut(&task) {
                t.state = Some(TaskState::Completed);
            }
            let mut e = Obj::event("task-complete", &ctx, &task);
            e.str("timestamp", &at.ts);
            sink.event(e.finish());
        }
    }

    /// Tasks tracked now (bounded; for tests).
    #[cfg(test)]
    pub(crate) fn tracked(&self) -> usize {
        self.tasks.len()
    }

    /// Forgets finished tasks (and their artifacts) when too many are tracked; the oldest
    /// running ones too when that is not enough (a later event for one tracks it again).
    fn prune(&mut self) {
        self.tasks.bound(MAX_TRACKED, |_, t| {
            !t.state.is_some_and(TaskState::is_terminal)
        });
        let tasks = &self.tasks;
        self.arts.retain(|_, a| tasks.contains(&a.task_id));
        let arts = &self.arts;
        self.primary.retain(|k, _| arts.contains(k));
    }
}

/// Adds a part's payload to an artifact fingerprint.
fn fingerprint(fp: &mut Fnv, p: &Value<'_>) {
    match part_kind(p) {
        Some(PartKind::Text) => fp.add(get_str(Some(p), "text").unwrap_or("").as_bytes()),
        Some(PartKind::File) => {
            let f = p.get("file");
            fp.add(
                get_str(f, "bytes")
                    .or_else(|| get_str(f, "uri"))
                    .unwrap_or("")
                    .as_bytes(),
            )
        }
        Some(PartKind::Data) => fp.add(
            p.get("data")
                .map(Value::to_json)
                .unwrap_or_default()
                .as_bytes(),
        ),
        None => {}
    }
}
