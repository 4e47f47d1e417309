//! A2A v1.0, served like the official A2A 1.3.0 servers (`@a2a-js/sdk`, `a2a-sdk`): every run
//! of the A2A dialect in both v1.0 bindings.
//!
//! - [`jsonrpc`]: `POST /api/a2a/v1` (`SendStreamingMessage`, `SubscribeToTask`,
//!   `CancelTask`, `GetTask`);
//! - [`rest`]: HTTP+JSON under `/api/a2a/rest` (`message:stream`, `tasks/{id}:subscribe`,
//!   `tasks/{id}:cancel`, `tasks/{id}`);
//! - [`card`]: the agent card at `GET /api/a2a/v1/.well-known/agent-card.json`.
//!
//! This module holds what both bindings share: the `A2A-Version: 1.0` check, the errors (one
//! [`V1Error`] per semantic error of the SDK, rendered as a JSON-RPC error with an `ErrorInfo`
//! or as a `google.rpc.Status`), and the four operations. Streams are the run's
//! [`Dialect::A2aV1`] encoding in bare `data:` frames; a stream ends after a terminal state or
//! after input-required / auth-required (no `final` in v1.0). An answer to input-required is a
//! new `SendStreamingMessage` with the task's id; like the JS server it starts with the `Task`
//! snapshot, then continues the run. `SubscribeToTask` sends the snapshot (status, artifacts
//! so far, history), then live events.

pub mod card;
pub mod jsonrpc;
pub mod rest;

use crate::args::{Query, StreamArgs};
use crate::dialects::a2a_v1::{self as enc, TaskFold};
use crate::dialects::{self, Dialect};
use crate::faults::Faults;
use crate::reply::RespBody;
use crate::run::{lock, AnswerOutcome, Run};
use crate::stream::{open_stream, StreamOpts};
use crate::App;
use hyper::header::HeaderMap;
use hyper::{Response, StatusCode};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// The protocol version served (the `A2A-Version` request header must say it).
pub const VERSION: &str = "1.0";
/// The version a request without `A2A-Version` asks for (as the official servers assume).
pub const LEGACY_VERSION: &str = "0.3";
/// The `domain` of every `ErrorInfo`.
pub const ERROR_DOMAIN: &str = "a2a-protocol.org";

/// How long `CancelTask` waits for the canceled status to reach the log.
const CANCEL_WAIT: Duration = Duration::from_secs(5);

/// The semantic errors of A2A v1.0 this server answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// No such task (-32001, HTTP 404 `NOT_FOUND`).
    TaskNotFound,
    /// The task cannot be canceled (-32002, HTTP 400 `FAILED_PRECONDITION`).
    TaskNotCancelable,
    /// Not possible on this task (-32004, HTTP 400 `FAILED_PRECONDITION`).
    UnsupportedOperation,
    /// `A2A-Version` is not 1.0 (-32009, HTTP 400 `FAILED_PRECONDITION`).
    VersionNotSupported,
    /// A malformed request (-32602, HTTP 400 `INVALID_ARGUMENT`).
    InvalidParams,
}

impl ErrorKind {
    /// The JSON-RPC error code.
    pub fn rpc_code(self) -> i64 {
        match self {
            ErrorKind::TaskNotFound => -32001,
            ErrorKind::TaskNotCancelable => -32002,
            ErrorKind::UnsupportedOperation => -32004,
            ErrorKind::VersionNotSupported => -32009,
            ErrorKind::InvalidParams => -32602,
        }
    }

    /// The `ErrorInfo` reason.
    pub fn reason(self) -> &'static str {
        match self {
            ErrorKind::TaskNotFound => "TASK_NOT_FOUND",
            ErrorKind::TaskNotCancelable => "TASK_NOT_CANCELABLE",
            ErrorKind::UnsupportedOperation => "UNSUPPORTED_OPERATION",
            ErrorKind::VersionNotSupported => "VERSION_NOT_SUPPORTED",
            ErrorKind::InvalidParams => "INVALID_PARAMS",
        }
    }

    /// The HTTP status of the HTTP+JSON binding.
    pub fn http_status(self) -> StatusCode {
        match self {
            ErrorKind::TaskNotFound => StatusCode::NOT_FOUND,
            _ => StatusCode::BAD_REQUEST,
        }
    }

    /// The `google.rpc.Status` name of the HTTP+JSON binding.
    pub fn status_name(self) -> &'static str {
        match self {
            ErrorKind::TaskNotFound => "NOT_FOUND",
            ErrorKind::InvalidParams => "INVALID_ARGUMENT",
            _ => "FAILED_PRECONDITION",
        }
    }
}

/// An A2A v1.0 error about to be sent.
#[derive(Debug, Clone)]
pub struct V1Error {
    /// Which error.
    pub kind: ErrorKind,
    /// The human-readable message.
    pub message: String,
}

impl V1Error {
    /// An error of `kind`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> V1Error {
        V1Error {
            kind,
            message: message.into(),
        }
    }

    fn not_found(task: &str) -> V1Error {
        V1Error::new(ErrorKind::TaskNotFound, format!("Task not found: {task}"))
    }

    fn invalid(message: impl Into<String>) -> V1Error {
        V1Error::new(ErrorKind::InvalidParams, message)
    }

    /// The `google.rpc.ErrorInfo` detail.
    pub fn error_info(&self) -> Value {
        json!({
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": self.kind.reason(),
            "domain": ERROR_DOMAIN,
        })
    }

    /// The JSON-RPC `error` object (`data`: the `ErrorInfo`).
    pub fn rpc_error(&self) -> Value {
        json!({
            "code": self.kind.rpc_code(),
            "message": self.message,
            "data": [self.error_info()],
        })
    }

    /// The HTTP+JSON `google.rpc.Status` body.
    pub fn status_body(&self) -> Value {
        json!({"error": {
            "code": self.kind.http_status().as_u16(),
            "status": self.kind.status_name(),
            "message": self.message,
            "details": [self.error_info()],
        }})
    }
}

/// Checks `A2A-Version` (absent: 0.3, which is not served here).
pub fn check_version(headers: &HeaderMap) -> Result<(), V1Error> {
    let asked = headers
        .get("a2a-version")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .unwrap_or(LEGACY_VERSION);
    if asked == VERSION {
        return Ok(());
    }
    Err(V1Error::new(
        ErrorKind::VersionNotSupported,
        format!(
            "The requested A2A protocol version '{asked}' is not supported. Supported versions: {VERSION}"
        ),
    ))
}

/// One v1.0 request: the server, the scenario options of its query, its headers, and the
/// JSON-RPC id to wrap stream events with (`None`: HTTP+JSON).
pub(crate) struct Cx<'a> {
    pub(crate) app: &'a App,
    pub(crate) query: Query,
    pub(crate) headers: HeaderMap,
    pub(crate) rpc_id: Option<Value>,
}

impl Cx<'_> {
    /// The stream options of the query, checked (so that errors are A2A errors).
    fn args(&self) -> Result<StreamArgs, V1Error> {
        let args = StreamArgs::from_query(&self.query).map_err(V1Error::invalid)?;
        if let Some(s) = &args.scenario {
            if crate::scenarios::Scenario::from_id(s).is_none() {
                return Err(V1Error::invalid(format!("unknown scenario {s:?}")));
            }
        }
        if let Some(f) = &args.faults {
            Faults::parse(f).map_err(|e| V1Error::invalid(format!("faults: {e}")))?;
        }
        Ok(args)
    }

    fn opts(&self, from: u64, prelude: Option<Value>) -> StreamOpts {
        StreamOpts {
            dialect: Some(Dialect::A2aV1),
            rpc_id: self.rpc_id.clone(),
            stop_at_final: true,
            from: Some(from),
            no_ids: true,
            prelude,
        }
    }

    /// Opens the stream; the HTTP errors of the stream endpoints (bad query parameters)
    /// become A2A errors, injected statuses (fault `status=`) stay as they are.
    fn stream(
        &self,
        args: StreamArgs,
        existing: Option<&str>,
        opts: StreamOpts,
    ) -> Result<Response<RespBody>, V1Error> {
        let resp = open_stream(self.app, args, &self.headers, existing, opts);
        match resp.status() {
            StatusCode::BAD_REQUEST | StatusCode::NOT_FOUND => Err(V1Error::invalid(
                "cannot stream the run (see the query parameters)",
            )),
            _ => Ok(resp),
        }
    }
}

/// The run of v1.0 task id `task` (`<taskId>@<runId>`, or a bare canonical id: the latest run
/// that has it), its canonical task id and its full dialect task id.
fn find(app: &App, task: &str) -> Result<(Arc<Run>, String, String), V1Error> {
    let (run, canonical) =
        crate::rpc::find_run(app, task).ok_or_else(|| V1Error::not_found(task))?;
    let full = dialects::task_id(&canonical, &run.spec.id);
    Ok((run, canonical, full))
}

/// The task `full` folded from the run's v1.0 encoding up to canonical position `upto`.
fn fold(run: &Run, full: &str, upto: u64) -> TaskFold {
    let mut f = TaskFold::new(full, &run.context_id);
    if let Some(cell) = dialects::encoded(run, Dialect::A2aV1) {
        let enc = lock(&cell);
        let frames = enc.frame_range(0, enc.first_frame_of(upto));
        drop(enc);
        for fr in frames {
            if let Ok(v) = serde_json::from_slice::<Value>(&fr.data) {
                f.add(&v);
            }
        }
    }
    f
}

/// The task `full` folded from everything logged so far.
fn fold_now(run: &Run, full: &str) -> TaskFold {
    let (len, _, _) = run.status();
    fold(run, full, len)
}

fn terminal_error(full: &str, state: &str, what: &str) -> V1Error {
    V1Error::new(
        ErrorKind::UnsupportedOperation,
        format!(
            "Task {full} is in a terminal state ({}) and cannot be {what}.",
            enc::state_number(state)
        ),
    )
}

/// v1.0 parts as the v0.3 parts the answer helpers of [`crate::rpc`] read.
fn parts_v03(parts: &[Value]) -> Vec<Value> {
    parts
        .iter()
        .map(|p| {
            if let Some(t) = p.get("text") {
                json!({"kind": "text", "text": t})
            } else if let Some(d) = p.get("data") {
                json!({"kind": "data", "data": d})
            } else {
                json!({"kind": "file"})
            }
        })
        .collect()
}

/// `SendStreamingMessage` / `message:stream`: `message` without `taskId` starts a new run of
/// the query's scenario; with the id of a task waiting for input or authentication, answers
/// it and continues the run (the `Task` snapshot first).
pub(crate) fn send_streaming(
    cx: &Cx<'_>,
    message: Option<&Value>,
) -> Result<Response<RespBody>, V1Error> {
    let Some(m) = message.and_then(Value::as_object) else {
        return Err(V1Error::invalid("message must be an object"));
    };
    let args = cx.args()?;
    let role_ok = match m.get("role") {
        Some(Value::String(r)) => r == "ROLE_USER",
        Some(Value::Number(n)) => n.as_u64() == Some(1),
        _ => false,
    };
    if !role_ok {
        return Err(V1Error::invalid("message.role must be ROLE_USER"));
    }
    if m.get("messageId").and_then(Value::as_str).is_none() {
        return Err(V1Error::invalid("message.messageId must be a string"));
    }
    let Some(parts) = m.get("parts").and_then(Value::as_array) else {
        return Err(V1Error::invalid("message.parts must be an array"));
    };
    let Some(task) = m.get("taskId").and_then(Value::as_str) else {
        // A new task: a new run, streamed from its start.
        return cx.stream(args, None, cx.opts(0, None));
    };
    let (run, canonical, full) = find(cx.app, task)?;
    if let Some(c) = m.get("contextId").and_then(Value::as_str) {
        if c != run.context_id {
            return Err(V1Error::invalid(format!(
                "task {task:?} belongs to context {:?}, not {c:?}",
                run.context_id
            )));
        }
    }
    let now = fold_now(&run, &full);
    if enc::is_terminal(now.state()) {
        return Err(terminal_error(&full, now.state(), "modified"));
    }
    let Some((key, pos)) = run.open_request_of(&canonical) else {
        return Err(V1Error::new(
            ErrorKind::UnsupportedOperation,
            format!("Task {full} is not waiting for input or authentication"),
        ));
    };
    let v03 = parts_v03(parts);
    let data = v03
        .iter()
        .find(|p| p["kind"] == "data")
        .and_then(|p| p.get("data"));
    let value = match crate::rpc::message_value(&v03) {
        Some(v) => v,
        None if key.starts_with("auth/") => Value::Null,
        None => {
            return Err(V1Error::invalid(
                "the message has no text or data part to answer the input with",
            ))
        }
    };
    if run.answer(&key, crate::rpc::answer_body(&key, value, data)) != AnswerOutcome::Accepted {
        return Err(V1Error::new(
            ErrorKind::UnsupportedOperation,
            format!("the request of task {full} was already answered"),
        ));
    }
    // The snapshot: the task as it was when it asked, with the answer in its history.
    let mut snap = fold(&run, &full, pos + 1);
    let mut user = Value::Object(m.clone());
    user["taskId"] = full.clone().into();
    user["contextId"] = run.context_id.clone().into();
    snap.push_history(user);
    let prelude = json!({"task": snap.task()});
    cx.stream(args, Some(&run.spec.id), cx.opts(pos + 1, Some(prelude)))
}

/// `SubscribeToTask` / `tasks/{id}:subscribe`: the `Task` snapshot, then the run's events
/// from now on (fault `dup=K`: from K events earlier).
pub(crate) fn subscribe(cx: &Cx<'_>, task: &str) -> Result<Response<RespBody>, V1Error> {
    let args = cx.args()?;
    let (run, _, full) = find(cx.app, task)?;
    let (len, _, _) = run.status();
    let snap = fold(&run, &full, len);
    if enc::is_terminal(snap.state()) {
        return Err(terminal_error(&full, snap.state(), "subscribed to"));
    }
    let faults = args
        .faults
        .clone()
        .unwrap_or_else(|| run.spec.faults.clone());
    let dup = Faults::parse(&faults).ok().and_then(|f| f.dup).unwrap_or(0);
    let prelude = json!({"task": snap.task()});
    cx.stream(
        args,
        Some(&run.spec.id),
        cx.opts(len.saturating_sub(dup), Some(prelude)),
    )
}

/// `GetTask` / `GET tasks/{id}`: the `Task` (`history_length`: keep only the last N history
/// messages).
pub(crate) fn get(cx: &Cx<'_>, task: &str, history_length: Option<u64>) -> Result<Value, V1Error> {
    let (run, _, full) = find(cx.app, task)?;
    let mut t = fold_now(&run, &full).task();
    if let (Some(n), Some(Value::Array(h))) = (history_length, t.get_mut("history")) {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if h.len() > n {
            h.drain(..h.len() - n);
        }
    }
    if t.get("history")
        .and_then(Value::as_array)
        .is_some_and(Vec::is_empty)
    {
        if let Some(o) = t.as_object_mut() {
            o.remove("history");
        }
    }
    Ok(t)
}

/// `CancelTask` / `tasks/{id}:cancel`: asks for the cancel, waits for the canceled status,
/// answers with the `Task`.
pub(crate) async fn cancel(cx: &Cx<'_>, task: &str) -> Result<Value, V1Error> {
    let (run, canonical, full) = find(cx.app, task)?;
    let not_cancelable = || {
        V1Error::new(
            ErrorKind::TaskNotCancelable,
            format!("Task not cancelable: {full}"),
        )
    };
    if enc::is_terminal(fold_now(&run, &full).state()) {
        return Err(not_cancelable());
    }
    match run.request_cancel(&canonical) {
        AnswerOutcome::Accepted => {}
        AnswerOutcome::Unknown => return Err(V1Error::not_found(task)),
        AnswerOutcome::AlreadyAnswered => return Err(not_cancelable()),
    }
    let mut rx = run.subscribe();
    let deadline = tokio::time::Instant::now() + CANCEL_WAIT;
    loop {
        rx.borrow_and_update();
        // Until the cancel is in the run's log (what the answer is folded from), not only in
        // its interaction state: under load the two are apart for a moment.
        let logged = enc::is_terminal(fold_now(&run, &full).state());
        if logged || (run.status().1 && run.task_terminal(&canonical) != Some(false)) {
            break;
        }
        tokio::select! {
            _ = rx.changed() => {}
            _ = tokio::time::sleep_until(deadline) => break,
        }
    }
    Ok(fold_now(&run, &full).task())
}

/// Reads `historyLength` (a number or a numeric string).
pub(crate) fn history_length(v: Option<&Value>) -> Option<u64> {
    match v? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    #[test]
    fn versions_and_errors() {
        let mut h = HeaderMap::new();
        let e = check_version(&h).expect_err("no header");
        assert_eq!(e.kind, ErrorKind::VersionNotSupported);
        assert_eq!(
            e.message,
            "The requested A2A protocol version '0.3' is not supported. Supported versions: 1.0"
        );
        h.insert("a2a-version", HeaderValue::from_static(" 1.0 "));
        assert!(check_version(&h).is_ok());
        let e = V1Error::not_found("t");
        assert_eq!(
            e.status_body(),
            json!({"error": {"code": 404, "status": "NOT_FOUND", "message": "Task not found: t",
                "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org"}]}})
        );
        assert_eq!(e.rpc_error()["code"], -32001);
        assert_eq!(history_length(Some(&json!("2"))), Some(2));
    }
}
