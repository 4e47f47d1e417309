//! `a2a`: A2A streaming, v0.3 (seed 001) and v1.0, bare, wrapped as JSON-RPC 2.0 responses, or
//! over HTTP+JSON. The version is told per event from its shape (`version.rs`: v0.3 `kind`, v1.0
//! `StreamResponse` members and `TASK_STATE_*` / `ROLE_*` enums); both read the same way.
//!
//! | file | concern |
//! |---|---|
//! | `version.rs` | the two versions: shapes, task states, roles |
//! | `envelope.rs` | the JSON-RPC envelope, request ids, errors of both bindings (`google.rpc` reasons) |
//! | `status.rs` | tasks, status updates, the input and auth requests they open |
//! | `artifacts.rs` | artifacts and their parts (every part kept: see its table) |
//! | `parts.rs` | reading a part of either version |
//! | `message.rs` | direct replies and messages on a task |
//! | `request.rs`, `request_v1.rs` | what a client sends (v0.3 JSON-RPC; v1.0 JSON-RPC and HTTP+JSON) |
//!
//! | A2A (v0.3 / v1.0) | canonical |
//! |---|---|
//! | `task` / `{task}` (first time) | `task-created` (initiator `user`; `metadata` kept, `history` under `metadata.a2a`), then its artifacts and status as below |
//! | the same task again (resubscribe snapshot, `tasks/cancel` / `CancelTask` / `GetTask` result, which v1.0 sends as the bare `Task`) | only what changed: a new status, new or changed artifacts |
//! | `status-update` / `{statusUpdate}` `working` | `task-status` `working` (message = the status message's text) |
//! | … `input-required` | `task-status` `waiting-input` + `input-required` (id `<taskId>#input-<n>`, prompt = message text, `requireUser: true`; `inputType`, `options`, `schema` from a data part) |
//! | … `auth-required` | `task-status` `waiting-auth` + `auth-required` (id `<taskId>#auth-<n>`; `authType`, `authUrl`, `provider`, `scopes` from a data part) |
//! | leaving `input-required` / `auth-required` | `input-received` / `auth-completed` (unless the client already answered through [`crate::dialects::respond`]) |
//! | … `completed` | `task-complete` with the message text as `content` when no answer text was streamed, else `task-status` `completed` |
//! | … `failed` / `rejected` / `canceled` | `task-status` `failed` / `failed` (`reason: rejected`) / `canceled`; `metadata.error` becomes `reason` |
//! | … `submitted` / `unknown` (`TASK_STATE_UNSPECIFIED`) | no status (`submitted` creates the task); kept as an unknown `a2a:status-update` event |
//! | `artifact-update` / `{artifactUpdate}` | see [Artifacts](#artifacts): text → the answer (`content-delta`) or a text file, file parts → `file-write` (by bytes, or by URL: `url`), data parts → `data-write` (`metadata.version` 1, 2, …) |
//! | `message` / `{message}` (role agent) | text → `content-delta` on its task (a message without `taskId` is a task of its own that completes at once); file/data parts → artifacts `<messageId>#<i>` |
//! | a user's message, unknown kinds | unknown events `a2a:<kind>` (kept whole) |
//! | JSON-RPC `error`, HTTP+JSON `google.rpc.Status` | `rpc-error` diagnostic naming the code and the `ErrorInfo` reason; the task of a streaming request becomes `failed` (not when the request was refused before its stream opened: an answer, or a `SubscribeToTask` refused with `UNSUPPORTED_OPERATION` because the task ended meanwhile, whose `GetTask` tells how) |
//!
//! v0.3 ends a stream with `final: true`; v1.0 has no `final` (the server closes the stream
//! after a terminal or interrupted state), so a v1.0 status update without it is no warning.
//!
//! # Artifacts
//!
//! `append: false` (or absent) on a known artifact replaces it (the store forgets the old
//! content); `append: true` on an unknown artifact is an `unknown-artifact` warning and starts it;
//! nothing is appended after `lastChunk: true` (`chunk-after-complete`). Files still open when
//! their task ends are closed with an empty final chunk. One A2A artifact becomes one canonical
//! artifact per part slot, so that no part is lost (the table is in `artifacts.rs`).

mod artifacts;
mod envelope;
mod message;
mod parts;
pub mod request;
pub mod request_v1;
mod status;
mod version;

pub use version::{TaskState, Version};

/// `true` for a v1.0 reply to a plain request: a bare `Task` (`CancelTask`, `GetTask`), a
/// `StreamResponse`, or an HTTP+JSON error body.
pub(crate) fn is_v10_reply(v: &Value<'_>) -> bool {
    is_v10_shape(v) || version::shape(v).is_some_and(|s| s.version == Version::V10)
}

/// `true` for the shapes only A2A v1.0 has: a `StreamResponse` (exactly one of `task`,
/// `message`, `statusUpdate`, `artifactUpdate`, no `kind`) or an HTTP+JSON error body.
pub(crate) fn is_v10_shape(v: &Value<'_>) -> bool {
    version::is_stream_response(v) || envelope::is_rest_error(v)
}

use super::emit::{get, get_str, Clock, Fnv, Sink};
use super::table::Table;
use super::unknown_event;
use crate::json::Value;
use parts::PartKind;
use std::collections::VecDeque;
use version::EventKind;

/// Tasks and artifacts tracked per stream before finished ones are forgotten.
const MAX_TRACKED: usize = 10_000;
/// Requests remembered for matching response ids.
const MAX_SENT: usize = 64;

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

/// What is known of one A2A artifact.
#[derive(Debug)]
struct Primary {
    /// The kind of its first part (whose canonical artifact keeps the A2A id).
    kind: PartKind,
    /// A fingerprint of its parts (an unchanged artifact in a later `task` snapshot is skipped).
    fp: Fnv,
    /// Its canonical artifacts, in the order they were started.
    slots: Vec<String>,
}

#[derive(Debug)]
struct Sent {
    id: u64,
    method: &'static str,
    task_id: Option<String>,
    /// A result answered it (its stream opened): an error after that ends the stream's task;
    /// an error before it refused the request.
    got_result: bool,
    /// The user's message it sent (id, text), until the task it went to is known.
    user: Option<(String, String)>,
}

/// A2A decoding state of one connection, and the client's JSON-RPC request ids.
#[derive(Debug, Default)]
pub struct A2aDecoder {
    tasks: Table<TaskTrack>,
    /// Canonical artifacts, in creation order.
    arts: Table<ArtTrack>,
    /// Each A2A artifact: its first part's kind, its content's fingerprint, its canonical
    /// artifacts.
    primary: Table<Primary>,
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
    /// The version of the stream's first event.
    version: Option<Version>,
    /// How this client writes its requests (version, binding).
    wire: Option<(Version, request_v1::Binding)>,
    /// The agent card interface's tenant, for the `params` of v1.0 JSON-RPC requests.
    tenant: Option<String>,
    /// An event arrived since the latest request was registered (HTTP+JSON has no ids to tell
    /// whether an error answers the request or ends its stream).
    events_since_request: bool,
}

/// The event being decoded: where it is in the JSON (bare or under `result`) and its time.
struct At {
    prefix: String,
    ts: String,
    version: Version,
}

impl At {
    fn path(&self, rest: &str) -> String {
        format!("{}{rest}", self.prefix)
    }
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
            user: None,
        });
        self.events_since_request = false;
        if envelope::is_send(method) {
            // A new stream: until its responses name their task, there is nothing to
            // resubscribe to (not the previous stream's task, which may have finished).
            self.stream_root = task_id.map(str::to_owned);
            self.stream_unnamed = task_id.is_none();
        }
        self.next_rpc_id
    }

    /// The request just registered (a `message/stream`) carries the user's message `text` with
    /// id `message_id`: it becomes the first `role: "user"` message of the task the response
    /// names (a `message-upsert` after its `task-created`; the same id again replaces it).
    pub fn note_user_message(&mut self, message_id: &str, text: &str) {
        if let Some(s) = self.sent.back_mut() {
            s.user = Some((message_id.to_owned(), text.to_owned()));
        }
    }

    /// Tasks tracked that have not ended (oldest first, at most `max`).
    pub fn open_tasks(&self, max: usize) -> Vec<String> {
        self.tasks
            .iter()
            .filter(|(_, t)| !t.state.is_some_and(TaskState::is_terminal))
            .map(|(id, _)| id.to_owned())
            .take(max)
            .collect()
    }

    /// The latest request registered: its method and the task it names.
    pub fn last_request(&self) -> Option<(&'static str, Option<&str>)> {
        self.sent.back().map(|s| (s.method, s.task_id.as_deref()))
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

    /// Sets how the client writes its requests: A2A `version` over `binding` (v0.3 has the
    /// JSON-RPC binding only). The default is v0.3 JSON-RPC.
    pub fn set_wire(&mut self, version: Version, binding: request_v1::Binding) {
        let binding = match version {
            Version::V03 => request_v1::Binding::JsonRpc,
            Version::V10 => binding,
        };
        self.wire = Some((version, binding));
    }

    /// Sets the tenant of the agent card's interface: v1.0 JSON-RPC requests name it in their
    /// `params` (over HTTP+JSON it is part of the interface URL instead).
    pub fn set_tenant(&mut self, tenant: Option<&str>) {
        self.tenant = tenant.filter(|t| !t.is_empty()).map(str::to_owned);
    }

    /// The tenant v1.0 JSON-RPC requests name (see [`A2aDecoder::set_tenant`]).
    pub fn tenant(&self) -> Option<&str> {
        self.tenant.as_deref()
    }

    /// How the client writes its requests (see [`A2aDecoder::set_wire`]).
    pub fn wire(&self) -> (Version, request_v1::Binding) {
        self.wire
            .unwrap_or((Version::V03, request_v1::Binding::JsonRpc))
    }

    /// The protocol version of the stream, once an event told it.
    pub fn version(&self) -> Option<Version> {
        self.version
    }

    pub(crate) fn decode(&mut self, v: &Value<'_>, clock: &mut Clock, sink: &mut Sink<'_>) {
        let mut prefix = "$";
        let mut payload = v;
        self.responding = None;
        if envelope::is_rest_error(v) {
            sink.kind = Some("error".to_owned());
            self.rest_error(v, clock, sink);
            return;
        }
        if v.get("jsonrpc").is_some() || v.get("result").is_some() || v.get("error").is_some() {
            sink.kind = Some("jsonrpc".to_owned());
            match self.envelope(v, clock, sink) {
                Some(inner) => {
                    payload = inner;
                    prefix = "$.result";
                }
                None => return,
            }
        }
        let Some(shape) = version::shape(payload) else {
            sink.require_error(Some(payload), "kind", "string", &format!("{prefix}.kind"));
            return;
        };
        let kind = match shape.kind {
            Ok(k) => k,
            Err(other) => {
                sink.kind = Some(other.to_owned());
                if other.starts_with("internal:") || crate::events::KINDS.contains(&other) {
                    // A canonical event inside a JSON-RPC response: pass it through.
                    sink.event(payload.to_json());
                } else {
                    let task = get_str(Some(payload), "taskId");
                    let ctx = get_str(Some(payload), "contextId");
                    sink.event(unknown_event(&format!("a2a:{other}"), ctx, task, payload));
                }
                return;
            }
        };
        sink.kind = Some(kind.as_str().to_owned());
        self.version.get_or_insert(shape.version);
        self.events_since_request = true;
        let event = shape.event;
        let own_ts = match kind {
            EventKind::Task | EventKind::StatusUpdate => {
                get_str(get(Some(event), "status"), "timestamp")
            }
            _ => None,
        };
        let at = At {
            prefix: format!("{prefix}{}", shape.member),
            ts: clock.stamp(own_ts),
            version: shape.version,
        };
        match kind {
            EventKind::Task => self.task(event, &at, sink),
            EventKind::StatusUpdate => self.status_update(event, &at, sink),
            EventKind::ArtifactUpdate => self.artifact_update(event, &at, sink),
            EventKind::Message => self.message(event, &at, sink),
        }
        if self.tasks.len() > MAX_TRACKED {
            self.prune();
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
