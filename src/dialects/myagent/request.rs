//! The `user.*` messages a MyAgent client sends over the WebSocket (seed 004), as JSON text
//! frames, members in the seed's order.

use crate::dialects::emit::Obj;
use crate::json::Value;

/// `user.create_session`: `content` (`project_name`, `session_name`, `config`) and `metadata`
/// (`client_version`, `client_id`) as given.
pub fn create_session(content: Option<&Value<'_>>, metadata: Option<&Value<'_>>) -> String {
    let mut o = Obj::new();
    o.str("event", "user.create_session")
        .opt_value("content", content)
        .opt_value("metadata", metadata);
    o.finish()
}

/// `user.message`: the user's query or instruction.
///
/// ```
/// use agentwire::dialects::myagent::request::message;
/// assert_eq!(
///     message("sess_xyz789", "hi", None, None),
///     r#"{"session_id":"sess_xyz789","event":"user.message","content":"hi"}"#
/// );
/// ```
pub fn message(
    session_id: &str,
    content: &str,
    timestamp: Option<&str>,
    metadata: Option<&Value<'_>>,
) -> String {
    let mut o = Obj::new();
    o.str("session_id", session_id)
        .str("event", "user.message")
        .opt_str("timestamp", timestamp)
        .str("content", content)
        .opt_value("metadata", metadata);
    o.finish()
}

/// The `content` of a `user.response`: `{approved, feedback?, data?}`.
pub fn response_content(
    approved: bool,
    feedback: Option<&str>,
    data: Option<&Value<'_>>,
) -> String {
    let mut o = Obj::new();
    o.bool("approved", approved)
        .opt_str("feedback", feedback)
        .opt_value("data", data);
    o.finish()
}

/// `user.response`: answers the `agent.user_confirm` with the same `step_id`.
/// `content_json` is the response content as JSON text (see [`response_content`]).
pub fn response(
    session_id: &str,
    step_id: &str,
    content_json: &str,
    metadata: Option<&Value<'_>>,
) -> String {
    let mut o = Obj::new();
    o.str("session_id", session_id)
        .str("step_id", step_id)
        .str("event", "user.response")
        .raw("content", content_json)
        .opt_value("metadata", metadata);
    o.finish()
}

/// `user.ack`: every event up to `last_seq` was received (the server may prune its buffer).
/// The document's example also has `metadata.buffer_size` (optional): the client does not know
/// the server's buffer, so it is not sent.
pub fn ack(session_id: &str, last_seq: u64, received_count: Option<u64>) -> String {
    let mut c = Obj::new();
    c.num("last_seq", last_seq as f64);
    let mut o = Obj::new();
    o.str("session_id", session_id)
        .str("event", "user.ack")
        .obj("content", c);
    if let Some(n) = received_count {
        let mut m = Obj::new();
        m.num("received_count", n as f64);
        o.obj("metadata", m);
    }
    o.finish()
}

/// `user.cancel`: stops the current operation.
pub fn cancel(session_id: &str, reason: Option<&str>) -> String {
    let mut o = Obj::new();
    o.str("session_id", session_id).str("event", "user.cancel");
    if let Some(r) = reason {
        let mut c = Obj::new();
        c.str("reason", r);
        o.obj("content", c);
    }
    o.finish()
}

/// `user.reconnect`: resumes `session_id` after a short disconnect; the server replays the
/// events after `last_seq`.
pub fn reconnect(session_id: &str, last_seq: Option<u64>) -> String {
    let mut c = Obj::new();
    c.str("session_id", session_id);
    if let Some(s) = last_seq {
        c.num("last_seq", s as f64);
    }
    let mut o = Obj::new();
    o.str("event", "user.reconnect").obj("content", c);
    o.finish()
}
