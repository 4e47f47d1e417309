//! What an A2A v0.3 client sends (JSON-RPC 2.0 request bodies for an HTTP POST).
//!
//! - `message/stream` ([`message_stream`]), the request that opens an SSE stream;
//! - `tasks/resubscribe` ([`resubscribe`]), how a dropped stream resumes (never by re-sending
//!   the message);
//! - the message that answers `input-required` / `auth-required` ([`answer_message`]): same
//!   `taskId` and `contextId`, sent with `message/stream`;
//! - `tasks/cancel` ([`cancel`]);
//! - `tasks/get` ([`get_task`]).

use crate::dialects::emit::Obj;
use crate::json::Value;

/// A message from the user (`kind: "message"`, `role: "user"`).
#[derive(Debug, Clone, Copy, Default)]
pub struct UserMessage<'a> {
    /// Unique id of the message (the browser passes `crypto.randomUUID()`).
    pub message_id: &'a str,
    /// A text part, when set.
    pub text: Option<&'a str>,
    /// A data part, when set (objects as they are; other values as `{"value": …}`).
    pub data: Option<&'a Value<'a>>,
    /// The conversation to continue.
    pub context_id: Option<&'a str>,
    /// The task to continue (answers to `input-required`).
    pub task_id: Option<&'a str>,
    /// Message metadata.
    pub metadata: Option<&'a Value<'a>>,
}

/// The message object itself.
pub fn message(m: &UserMessage<'_>) -> String {
    let mut o = Obj::new();
    o.str("kind", "message")
        .str("role", "user")
        .str("messageId", m.message_id);
    finish_message(
        o,
        m,
        &|t| {
            let mut p = Obj::new();
            p.str("kind", "text").str("text", t);
            p.finish()
        },
        &|d| {
            let mut p = Obj::new();
            p.str("kind", "data");
            match d {
                Value::Object(_) => p.value("data", d),
                other => {
                    let mut w = Obj::new();
                    w.value("value", other);
                    p.obj("data", w)
                }
            };
            p.finish()
        },
    )
}

/// The rest of a message object after its head (both versions): `parts` (the text part, then
/// the data part, each written the version's way), `contextId`, `taskId`, `metadata`.
pub(super) fn finish_message(
    mut o: Obj,
    m: &UserMessage<'_>,
    text_part: &dyn Fn(&str) -> String,
    data_part: &dyn Fn(&Value<'_>) -> String,
) -> String {
    let mut parts = String::from("[");
    if let Some(t) = m.text {
        parts.push_str(&text_part(t));
    }
    if let Some(d) = m.data {
        if parts.len() > 1 {
            parts.push(',');
        }
        parts.push_str(&data_part(d));
    }
    parts.push(']');
    o.raw("parts", &parts)
        .opt_str("contextId", m.context_id)
        .opt_str("taskId", m.task_id)
        .opt_value("metadata", m.metadata);
    o.finish()
}

/// A JSON-RPC 2.0 request (v0.3 and v1.0 alike).
pub(super) fn rpc(id: u64, method: &str, params: &str) -> String {
    let mut o = Obj::new();
    o.str("jsonrpc", "2.0")
        .num("id", id as f64)
        .str("method", method)
        .raw("params", params);
    o.finish()
}

/// `message/stream`: sends `m` and asks for an SSE stream of the task's events.
///
/// ```
/// use agentwire::dialects::a2a::request::{message_stream, UserMessage};
/// let body = message_stream(1, &UserMessage { message_id: "m1", text: Some("hi"), ..Default::default() });
/// assert_eq!(body, r#"{"jsonrpc":"2.0","id":1,"method":"message/stream","params":{"message":{"kind":"message","role":"user","messageId":"m1","parts":[{"kind":"text","text":"hi"}]}}}"#);
/// ```
pub fn message_stream(id: u64, m: &UserMessage<'_>) -> String {
    let mut p = Obj::new();
    p.raw("message", &message(m));
    rpc(id, "message/stream", &p.finish())
}

/// `tasks/resubscribe`: resumes the event stream of a task after the connection dropped.
pub fn resubscribe(id: u64, task_id: &str) -> String {
    let mut p = Obj::new();
    p.str("id", task_id);
    rpc(id, "tasks/resubscribe", &p.finish())
}

/// `tasks/get`: reads a task (its status, artifacts and history).
pub fn get_task(id: u64, task_id: &str) -> String {
    let mut p = Obj::new();
    p.str("id", task_id);
    rpc(id, "tasks/get", &p.finish())
}

/// `tasks/cancel`: asks the agent to cancel a task.
pub fn cancel(id: u64, task_id: &str) -> String {
    let mut p = Obj::new();
    p.str("id", task_id);
    rpc(id, "tasks/cancel", &p.finish())
}

/// The `message/stream` request that answers an input (or auth) request of task `task_id`:
/// a string value is a text part, anything else a data part.
pub fn answer_message(
    id: u64,
    message_id: &str,
    task_id: &str,
    context_id: &str,
    value: &Value<'_>,
) -> String {
    message_stream(
        id,
        &UserMessage::answer(message_id, task_id, context_id, value),
    )
}

impl<'a> UserMessage<'a> {
    /// The message that answers an input (or auth) request of task `task_id` (both versions): a
    /// string value is a text part, anything else a data part.
    pub fn answer(
        message_id: &'a str,
        task_id: &'a str,
        context_id: &'a str,
        value: &'a Value<'a>,
    ) -> UserMessage<'a> {
        UserMessage {
            message_id,
            text: value.as_str(),
            data: if value.as_str().is_some() {
                None
            } else {
                Some(value)
            },
            context_id: Some(context_id),
            task_id: Some(task_id),
            metadata: None,
        }
    }
}
