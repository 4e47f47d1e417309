//! The JSON-RPC 2.0 envelope (both versions) and the errors of both v1.0 bindings.
//!
//! - JSON-RPC: `{"jsonrpc":"2.0","id":…,"result":…}` or `…"error":{"code","message","data"}}`;
//!   in v1.0 `data` is a list of `google.rpc.ErrorInfo` (`{"@type", "reason", "domain",
//!   "metadata"}`), whose `reason` (`TASK_NOT_FOUND`, `VERSION_NOT_SUPPORTED`, …) the
//!   diagnostic keeps.
//! - HTTP+JSON: a `google.rpc.Status` body `{"error":{"code":<HTTP status>,"status":"NOT_FOUND",
//!   "message","details":[ErrorInfo]}}`, as the response of a refused request or as the data of
//!   an SSE `event: error` in the middle of a stream.
//!
//! An error that answers a streaming request before its stream opened refuses the request; one
//! that comes after fails the stream's task (see [`A2aDecoder::rpc_error`]).

use super::{A2aDecoder, At, TaskState};
use crate::dialects::emit::{get_str, Clock, Obj, Sink};
use crate::dialects::jsonrpc::{code_reason, error_reason};
use crate::events::DiagCode;
use crate::json::Value;

/// `true` for a method whose response is an event stream that a task lives on.
pub(super) fn is_streaming(method: &str) -> bool {
    is_send(method) || matches!(method, "tasks/resubscribe" | "SubscribeToTask")
}

/// `true` for the methods that send a message and stream its task.
pub(super) fn is_send(method: &str) -> bool {
    matches!(method, "message/stream" | "SendStreamingMessage")
}

/// `true` for an HTTP+JSON error body (`google.rpc.Status` under `error`, no `jsonrpc`).
pub(super) fn is_rest_error(v: &Value<'_>) -> bool {
    v.get("jsonrpc").is_none()
        && v.get("result").is_none()
        && v.get("error").is_some_and(|e| {
            e.get("status").and_then(Value::as_str).is_some()
                || e.get("details").and_then(Value::as_array).is_some()
        })
}

impl A2aDecoder {
    /// Checks a JSON-RPC response; returns the `result` event to decode, if any.
    pub(super) fn envelope<'v, 'a>(
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
        let reason = error_reason(err.get("data")).or_else(|| code.and_then(code_reason));
        let text = format!(
            "json-rpc error {}{}: {}",
            code.map_or("?".to_owned(), |c| crate::json::Num(c).to_string()),
            reason.map(|r| format!(" {r}")).unwrap_or_default(),
            message.unwrap_or("(no message)")
        );
        self.error_outcome(err, &text, message, reason, sent, clock, sink);
    }

    /// An HTTP+JSON error body (`google.rpc.Status`): a refused request, or an error event that
    /// ends the stream. Validated like a JSON-RPC error, then the same outcome.
    pub(super) fn rest_error(&mut self, v: &Value<'_>, clock: &mut Clock, sink: &mut Sink<'_>) {
        let Some(err) = v.get("error").filter(|e| e.as_object().is_some()) else {
            return;
        };
        let code = err.get("code").and_then(Value::as_f64);
        let status = get_str(Some(err), "status");
        let message = get_str(Some(err), "message");
        if message.is_none() {
            sink.require_warn(Some(err), "message", "string", "$.error.message");
        }
        let reason = error_reason(err.get("details")).or_else(|| code.and_then(code_reason));
        let text = format!(
            "http+json error {}{}{}: {}",
            code.map_or("?".to_owned(), |c| crate::json::Num(c).to_string()),
            status.map(|s| format!(" {s}")).unwrap_or_default(),
            reason.map(|r| format!(" {r}")).unwrap_or_default(),
            message.unwrap_or("(no message)")
        );
        // No ids over HTTP+JSON: the error answers the latest request, and it came before that
        // request's stream opened when no event arrived since it was sent.
        let sent = self.sent.len().checked_sub(1);
        if let Some(s) = sent.and_then(|i| self.sent.get_mut(i)) {
            s.got_result |= self.events_since_request;
        }
        self.error_outcome(err, &text, message, reason, sent, clock, sink);
    }

    /// What an error means for the stream: a refused request is a diagnostic only (a refused
    /// answer leaves its task waiting, the answer may be sent again; a v1.0 `SubscribeToTask`
    /// refused with `UNSUPPORTED_OPERATION` found its task ended, which the `GetTask` that
    /// follows reads); an error on an open stream fails its task.
    #[allow(clippy::too_many_arguments)]
    fn error_outcome(
        &mut self,
        err: &Value<'_>,
        text: &str,
        message: Option<&str>,
        reason: Option<&str>,
        sent: Option<usize>,
        clock: &mut Clock,
        sink: &mut Sink<'_>,
    ) {
        let path = "$.error";
        let (method, req_task, refused) = match sent.and_then(|i| self.sent.get(i)) {
            Some(s) => (
                Some(s.method),
                s.task_id.clone(),
                // Refused before its stream opened: a message to a task that waits for the user
                // (an answer: the task goes on waiting, the answer may be sent again), or a
                // subscription to a task that ended meanwhile (its end is read next, not made
                // up from the refusal).
                !s.got_result
                    && s.task_id.is_some()
                    && (is_send(s.method)
                        || (s.method == "SubscribeToTask"
                            && reason == Some("UNSUPPORTED_OPERATION"))),
            ),
            None => (None, None, false),
        };
        // A failed stream fails its task; a refused cancel, lookup, answer or subscription
        // does not.
        let streaming = !refused && method.is_none_or(is_streaming);
        let task = req_task.or_else(|| self.last_task.clone()).filter(|t| {
            streaming
                && self
                    .tasks
                    .get(t)
                    .is_some_and(|x| !x.state.is_some_and(TaskState::is_terminal))
        });
        let Some(task_id) = task else {
            // A subscription refused because its task ended while the client was away is the
            // normal way a v1.0 server says so (the client reads the task next): a warning,
            // not an error a UI would show as a failure.
            let ended_meanwhile = refused
                && method == Some("SubscribeToTask")
                && reason == Some("UNSUPPORTED_OPERATION");
            let msg = format!("{text} (nothing applied)");
            if ended_meanwhile {
                sink.warn(DiagCode::RpcError, msg, path);
            } else {
                sink.error(DiagCode::RpcError, msg, path);
            }
            return;
        };
        sink.task = Some(task_id.clone());
        sink.warn(
            DiagCode::RpcError,
            format!("{text}: task {task_id} failed"),
            path,
        );
        let at = At {
            prefix: "$".to_owned(),
            ts: clock.stamp(None),
            version: self.version.unwrap_or(super::Version::V03),
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
        m.str("reason", message.unwrap_or(text));
        let mut a = Obj::new();
        a.value("error", err);
        m.obj("a2a", a);
        e.obj("metadata", m);
        sink.event(e.finish());
        if let Some(t) = self.tasks.get_mut(&task_id) {
            t.state = Some(TaskState::Failed);
        }
    }
}
