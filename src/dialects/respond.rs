//! Answering the agent in the stream's own dialect: the bodies the browser glue sends.
//!
//! | action | a2a | acp | myagent | canonical / unified |
//! |---|---|---|---|---|
//! | [`answer`] an input or auth request | `message/stream` with the same `taskId`/`contextId` (POST) | `tasks/provideInputAndContinue` with `permissionOptionId` or `input` (POST) | `user.response` with the `step_id` (WebSocket) | not here: protocol 000 answers by HTTP POST to the app's endpoint |
//! | [`send_message`] | `message/stream` (new task, or a given context) | — | `user.message` (WebSocket) | — |
//! | [`cancel`] a task | `tasks/cancel` | `tasks/cancel` | `user.cancel` | — |
//! | [`resume`] after a drop | `tasks/resubscribe` for the stream's task | — (SSE `Last-Event-ID`) | `user.reconnect` with `last_seq` | — (SSE `Last-Event-ID`) |
//! | [`ack`] received events | — | — | `user.ack` with `last_seq` (batched) | — |
//!
//! After sending an answer, call [`crate::pipeline::Session::mark_answered`]: these servers do
//! not echo answers, so the request is closed locally.

// With a dialect left out of the build, its branches go and some arguments are unused.
#![cfg_attr(
    not(all(feature = "a2a", feature = "acp", feature = "myagent")),
    allow(unused_variables, unused_mut)
)]

#[cfg(feature = "a2a")]
use super::a2a;
#[cfg(feature = "acp")]
use super::acp;
#[cfg(feature = "myagent")]
use super::myagent;
use super::{Dialect, DialectDecoder};
use crate::events::InputType;
use crate::json::Value;
use crate::state::{RequestState, Store};
use std::fmt;

/// How a message goes out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// An HTTP POST of `body` (JSON) to the dialect's endpoint; A2A streaming methods answer
    /// with an SSE stream to feed into the same session.
    HttpPost,
    /// A text frame on the dialect's WebSocket.
    WebSocket,
}

impl Transport {
    /// `"http-post"` or `"websocket"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::HttpPost => "http-post",
            Transport::WebSocket => "websocket",
        }
    }
}

/// A message for the agent, ready to send.
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    /// The dialect it is written in.
    pub dialect: Dialect,
    /// The JSON-RPC method or MyAgent event (`message/stream`, `user.response`, ...).
    pub method: &'static str,
    /// How to send it.
    pub transport: Transport,
    /// The JSON text to send (empty: a request without a body, A2A v1.0 HTTP+JSON
    /// `:subscribe` / `:cancel`).
    pub body: String,
    /// `true` when the response is an event stream to feed into the session
    /// (`message/stream`, `tasks/resubscribe`, `SendStreamingMessage`, `SubscribeToTask`).
    pub streams: bool,
    /// The HTTP method of an [`Transport::HttpPost`] request (`POST`; `GET` for A2A v1.0
    /// HTTP+JSON `GetTask`).
    pub http_method: &'static str,
    /// Appended to the dialect's endpoint URL (A2A v1.0 HTTP+JSON: `/message:stream`,
    /// `/tasks/{id}:cancel`, ...); empty otherwise.
    pub path: String,
    /// The `A2A-Version` header to send (`Some("1.0")` for A2A v1.0 requests).
    pub a2a_version: Option<&'static str>,
}

/// Why a message could not be built.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RespondError {
    /// The dialect has no such message (or the dialect is not known yet).
    Unsupported(&'static str),
    /// No input or auth request with this id.
    UnknownRequest(String),
    /// The request was already answered or expired.
    NotOpen(String),
    /// The value cannot be sent for this request (the message says why).
    InvalidValue(String),
    /// MyAgent: no session id yet (no `agent.session_created`, no event with `session_id`).
    NoSession,
    /// No task to resume or cancel.
    NoTask,
    /// MyAgent: `user.cancel` stops the session's running turn only, and this task is not it
    /// (a plan step, or a turn that ended).
    NotCancelable(String),
}

impl RespondError {
    /// A stable code: `unsupported`, `unknown-request`, `not-open`, `invalid-value`,
    /// `no-session`, `no-task`.
    pub fn code(&self) -> &'static str {
        match self {
            RespondError::Unsupported(_) => "unsupported",
            RespondError::UnknownRequest(_) => "unknown-request",
            RespondError::NotOpen(_) => "not-open",
            RespondError::InvalidValue(_) => "invalid-value",
            RespondError::NoSession => "no-session",
            RespondError::NoTask => "no-task",
            RespondError::NotCancelable(_) => "not-cancelable",
        }
    }
}

impl fmt::Display for RespondError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RespondError::Unsupported(what) => write!(f, "{what}"),
            RespondError::UnknownRequest(id) => write!(f, "no input or auth request {id}"),
            RespondError::NotOpen(id) => write!(f, "request {id} is not open"),
            RespondError::InvalidValue(why) => write!(f, "{why}"),
            RespondError::NoSession => write!(f, "no session id yet"),
            RespondError::NoTask => write!(f, "no task to address"),
            RespondError::NotCancelable(id) => write!(
                f,
                "task {id} is not the running turn: myagent's user.cancel stops the session's running turn only"
            ),
        }
    }
}

impl std::error::Error for RespondError {}

fn post(dialect: Dialect, method: &'static str, body: String, streams: bool) -> Outgoing {
    Outgoing {
        dialect,
        method,
        transport: Transport::HttpPost,
        body,
        streams,
        http_method: "POST",
        path: String::new(),
        a2a_version: None,
    }
}

fn ws(method: &'static str, body: String) -> Outgoing {
    Outgoing {
        dialect: Dialect::MyAgent,
        method,
        transport: Transport::WebSocket,
        body,
        streams: false,
        http_method: "POST",
        path: String::new(),
        a2a_version: None,
    }
}

#[cfg(feature = "a2a")]
/// What an A2A client asks for, in whichever version and binding the stream is read
/// ([`a2a::A2aDecoder::set_wire`]).
pub enum A2aCall<'a> {
    /// Send a message and stream its task (`message/stream`, `SendStreamingMessage`).
    Send(&'a a2a::request::UserMessage<'a>),
    /// Resume a task's stream (`tasks/resubscribe`, `SubscribeToTask`).
    Subscribe(&'a str),
    /// Cancel a task (`tasks/cancel`, `CancelTask`).
    Cancel(&'a str),
    /// Read a task (`tasks/get`, `GetTask`).
    Get(&'a str),
}

#[cfg(feature = "a2a")]
/// Builds an A2A request in the stream's version and binding, registering its JSON-RPC id.
pub fn a2a_request(a: &mut a2a::A2aDecoder, call: A2aCall<'_>) -> Outgoing {
    use a2a::request_v1 as v1;
    let (version, binding) = a.wire();
    let tenant = a.tenant().map(str::to_owned);
    let wire = v1::Wire {
        binding,
        tenant: tenant.as_deref(),
    };
    let (v03, v10, task) = match &call {
        A2aCall::Send(m) => ("message/stream", "SendStreamingMessage", m.task_id),
        A2aCall::Subscribe(t) => ("tasks/resubscribe", "SubscribeToTask", Some(*t)),
        A2aCall::Cancel(t) => ("tasks/cancel", "CancelTask", Some(*t)),
        A2aCall::Get(t) => ("tasks/get", "GetTask", Some(*t)),
    };
    match version {
        a2a::Version::V03 => {
            let id = a.register_request(v03, task);
            let (body, streams) = match call {
                A2aCall::Send(m) => (a2a::request::message_stream(id, m), true),
                A2aCall::Subscribe(t) => (a2a::request::resubscribe(id, t), true),
                A2aCall::Cancel(t) => (a2a::request::cancel(id, t), false),
                A2aCall::Get(t) => (a2a::request::get_task(id, t), false),
            };
            post(Dialect::A2a, v03, body, streams)
        }
        a2a::Version::V10 => {
            let id = a.register_request(v10, task);
            let r = match call {
                A2aCall::Send(m) => v1::send_streaming(wire, id, m),
                A2aCall::Subscribe(t) => v1::subscribe(wire, id, t),
                A2aCall::Cancel(t) => v1::cancel(wire, id, t),
                A2aCall::Get(t) => v1::get_task(wire, id, t),
            };
            Outgoing {
                dialect: Dialect::A2a,
                method: r.operation,
                transport: Transport::HttpPost,
                body: r.body.unwrap_or_default(),
                streams: r.streams,
                http_method: r.http_method,
                path: r.path,
                a2a_version: Some("1.0"),
            }
        }
    }
}

#[cfg(feature = "myagent")]
const YES: &[&str] = &[
    "approve", "approved", "yes", "allow", "accept", "confirm", "ok", "true",
];
#[cfg(feature = "myagent")]
const NO: &[&str] = &[
    "deny", "denied", "no", "reject", "decline", "cancel", "false", "abort",
];

#[cfg(feature = "myagent")]
/// The `content` of a MyAgent `user.response` for `value`, by the request's input type.
fn myagent_content(
    input_type: InputType,
    value: &Value<'_>,
    reason: Option<&str>,
) -> Result<String, RespondError> {
    if value.get("approved").and_then(Value::as_bool).is_some() {
        return Ok(value.to_json());
    }
    let word = |s: &str, list: &[&str]| list.iter().any(|w| s.eq_ignore_ascii_case(w));
    match (input_type, value) {
        (_, Value::Bool(b)) => Ok(myagent::request::response_content(*b, reason, None)),
        (InputType::Confirmation, Value::String(s)) if word(s, YES) => {
            Ok(myagent::request::response_content(true, reason, None))
        }
        (InputType::Confirmation, Value::String(s)) if word(s, NO) => {
            Ok(myagent::request::response_content(false, reason, None))
        }
        (InputType::Confirmation, Value::String(s)) => {
            Ok(myagent::request::response_content(true, Some(s), None))
        }
        (InputType::Selection, Value::String(_) | Value::Number(_)) => {
            let data = Value::Object(vec![("selected".into(), value.clone())]);
            Ok(myagent::request::response_content(true, None, Some(&data)))
        }
        (_, Value::String(s)) => Ok(myagent::request::response_content(true, Some(s), None)),
        (_, Value::Object(_)) => Ok(myagent::request::response_content(true, None, Some(value))),
        (_, other) => Err(RespondError::InvalidValue(format!(
            "a {} cannot answer a myagent {} request (send a boolean, a string or an object)",
            other.type_name(),
            input_type.as_str()
        ))),
    }
}

/// Builds the answer to input or auth request `id` with `value` (JSON). `message_id` names the
/// A2A / ACP message (`None`: one is made up). Does not change any state: call
/// [`crate::pipeline::Session::mark_answered`] once it was sent.
pub fn answer(
    dec: &mut DialectDecoder,
    store: &Store,
    id: &str,
    value: &Value<'_>,
    message_id: Option<&str>,
) -> Result<Outgoing, RespondError> {
    answer_with_reason(dec, store, id, value, message_id, None)
}

/// [`answer`] with the user's `reason` (a denial's why): MyAgent sends it as the response's
/// `feedback` (when the value carries none of its own); A2A and ACP answers have no such field.
pub fn answer_with_reason(
    dec: &mut DialectDecoder,
    store: &Store,
    id: &str,
    value: &Value<'_>,
    message_id: Option<&str>,
    reason: Option<&str>,
) -> Result<Outgoing, RespondError> {
    let (task, ctx, input_type, state) = if let Some(r) = store.input(id) {
        (
            r.task_id.clone(),
            r.context_id.clone(),
            r.input_type,
            r.state,
        )
    } else if let Some(r) = store.auth(id) {
        (
            r.task_id.clone(),
            r.context_id.clone(),
            InputType::Custom,
            r.state,
        )
    } else {
        return Err(RespondError::UnknownRequest(id.to_owned()));
    };
    if state != RequestState::Open {
        return Err(RespondError::NotOpen(id.to_owned()));
    }
    let mid = message_id.map_or_else(|| dec.next_message_id(), str::to_owned);
    match dec.dialect() {
        #[cfg(feature = "a2a")]
        Some(Dialect::A2a) => {
            let a = dec
                .a2a()
                .ok_or(RespondError::Unsupported("not an a2a stream"))?;
            let m = a2a::request::UserMessage::answer(&mid, &task, &ctx, value);
            Ok(a2a_request(a, A2aCall::Send(&m)))
        }
        #[cfg(feature = "acp")]
        Some(Dialect::Acp) => {
            let a = dec
                .acp()
                .ok_or(RespondError::Unsupported("not an acp stream"))?;
            let option = match a.permission_options(id) {
                Some(options) => {
                    let chosen = value
                        .as_str()
                        .or_else(|| value.get("optionId").and_then(Value::as_str))
                        .or_else(|| value.get("id").and_then(Value::as_str));
                    match chosen {
                        Some(o) if options.iter().any(|x| x == o) => Some(o.to_owned()),
                        _ => {
                            return Err(RespondError::InvalidValue(format!(
                                "must be one of the permission options {}",
                                options.join(", ")
                            )))
                        }
                    }
                }
                None => None,
            };
            let rpc = a.next_request_id();
            let body = match option {
                Some(o) => acp::request::provide_permission(rpc, &task, &o),
                None => acp::request::provide_input(rpc, &task, &mid, value),
            };
            Ok(post(
                Dialect::Acp,
                "tasks/provideInputAndContinue",
                body,
                false,
            ))
        }
        #[cfg(feature = "myagent")]
        Some(Dialect::MyAgent) => {
            let m = dec
                .myagent()
                .ok_or(RespondError::Unsupported("not a myagent stream"))?;
            let session = m.session_id().ok_or(RespondError::NoSession)?.to_owned();
            let content = myagent_content(input_type, value, reason)?;
            let step = m.step_of(id).unwrap_or(id).to_owned();
            let body = myagent::request::response(&session, &step, &content, None);
            m.prepare_response(id, &body);
            Ok(ws("user.response", body))
        }
        _ => Err(RespondError::Unsupported(
            "this dialect has no answer message: answer through the app's endpoint",
        )),
    }
}

/// A new user message: A2A `message/stream` (continuing `context_id` when given), MyAgent
/// `user.message` (the next turn gets it as its prompt).
pub fn send_message(
    dec: &mut DialectDecoder,
    text: &str,
    context_id: Option<&str>,
    message_id: Option<&str>,
) -> Result<Outgoing, RespondError> {
    let mid = message_id.map_or_else(|| dec.next_message_id(), str::to_owned);
    match dec.dialect() {
        #[cfg(feature = "a2a")]
        Some(Dialect::A2a) => {
            let a = dec
                .a2a()
                .ok_or(RespondError::Unsupported("not an a2a stream"))?;
            let m = a2a::request::UserMessage {
                message_id: &mid,
                text: Some(text),
                context_id,
                ..Default::default()
            };
            let out = a2a_request(a, A2aCall::Send(&m));
            a.note_user_message(&mid, text);
            Ok(out)
        }
        #[cfg(feature = "myagent")]
        Some(Dialect::MyAgent) => {
            let m = dec
                .myagent()
                .ok_or(RespondError::Unsupported("not a myagent stream"))?;
            let session = m.session_id().ok_or(RespondError::NoSession)?.to_owned();
            m.note_user_message(text);
            Ok(ws(
                "user.message",
                myagent::request::message(&session, text, None, None),
            ))
        }
        _ => Err(RespondError::Unsupported(
            "this dialect has no user message",
        )),
    }
}

/// Cancels `task_id` (MyAgent: the session's current operation).
pub fn cancel(
    dec: &mut DialectDecoder,
    task_id: &str,
    reason: Option<&str>,
) -> Result<Outgoing, RespondError> {
    match dec.dialect() {
        #[cfg(feature = "a2a")]
        Some(Dialect::A2a) => {
            let a = dec
                .a2a()
                .ok_or(RespondError::Unsupported("not an a2a stream"))?;
            Ok(a2a_request(a, A2aCall::Cancel(task_id)))
        }
        #[cfg(feature = "acp")]
        Some(Dialect::Acp) => {
            let a = dec
                .acp()
                .ok_or(RespondError::Unsupported("not an acp stream"))?;
            let rpc = a.next_request_id();
            Ok(post(
                Dialect::Acp,
                "tasks/cancel",
                acp::request::cancel(rpc, task_id),
                false,
            ))
        }
        #[cfg(feature = "myagent")]
        Some(Dialect::MyAgent) => {
            let m = dec
                .myagent()
                .ok_or(RespondError::Unsupported("not a myagent stream"))?;
            let session = m.session_id().ok_or(RespondError::NoSession)?.to_owned();
            if m.running_turn() != Some(task_id) {
                return Err(RespondError::NotCancelable(task_id.to_owned()));
            }
            Ok(ws(
                "user.cancel",
                myagent::request::cancel(&session, reason),
            ))
        }
        _ => Err(RespondError::Unsupported(
            "this dialect has no cancel message",
        )),
    }
}

/// The message that resumes the stream after a drop: A2A `tasks/resubscribe` for the stream's
/// task, MyAgent `user.reconnect` with `last_seq`. SSE dialects resume with `Last-Event-ID`.
pub fn resume(dec: &mut DialectDecoder) -> Result<Outgoing, RespondError> {
    match dec.dialect() {
        #[cfg(feature = "a2a")]
        Some(Dialect::A2a) => {
            let a = dec
                .a2a()
                .ok_or(RespondError::Unsupported("not an a2a stream"))?;
            let task = a.stream_task().ok_or(RespondError::NoTask)?.to_owned();
            Ok(a2a_request(a, A2aCall::Subscribe(&task)))
        }
        #[cfg(feature = "myagent")]
        Some(Dialect::MyAgent) => {
            let m = dec
                .myagent()
                .ok_or(RespondError::Unsupported("not a myagent stream"))?;
            let session = m.session_id().ok_or(RespondError::NoSession)?.to_owned();
            m.begin_resume();
            Ok(ws(
                "user.reconnect",
                myagent::request::reconnect(&session, m.last_seq()),
            ))
        }
        _ => Err(RespondError::Unsupported(
            "this dialect resumes with Last-Event-ID",
        )),
    }
}

#[cfg(feature = "myagent")]
/// MyAgent `user.ack` with `last_seq`, once at least `min_unacked` events arrived since the last
/// one (batching); marks them acknowledged. `None` when not due or not MyAgent.
pub fn ack(dec: &mut DialectDecoder, min_unacked: u64) -> Option<Outgoing> {
    let m = dec.myagent()?;
    let last = m.last_seq()?;
    if m.unacked() == 0 || m.unacked() < min_unacked.max(1) {
        return None;
    }
    let session = m.session_id()?.to_owned();
    let count = m.unacked();
    m.mark_acked(last);
    Some(ws(
        "user.ack",
        myagent::request::ack(&session, last, Some(count)),
    ))
}

#[cfg(feature = "myagent")]
/// MyAgent `user.create_session` (`content`: project/session names and config; `metadata`:
/// client version and id).
pub fn create_session(content: Option<&Value<'_>>, metadata: Option<&Value<'_>>) -> Outgoing {
    ws(
        "user.create_session",
        myagent::request::create_session(content, metadata),
    )
}

pub use super::rpc_reply::{is_rpc_response, rpc_error_message};
