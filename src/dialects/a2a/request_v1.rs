//! What an A2A v1.0 client sends, in both bindings (as `@a2a-js/sdk` 1.3.0's clients do).
//!
//! | action | JSON-RPC (POST to the interface URL) | HTTP+JSON (relative to the interface URL) |
//! |---|---|---|
//! | send a message, stream its task | `SendStreamingMessage` `{message}` | `POST /message:stream` `{message}` |
//! | resume a task's stream | `SubscribeToTask` `{id}` | `POST /tasks/{id}:subscribe` (no body) |
//! | cancel a task | `CancelTask` `{id}` | `POST /tasks/{id}:cancel` (no body) |
//! | read a task | `GetTask` `{id}` | `GET /tasks/{id}` |
//!
//! Every request carries the header `A2A-Version: 1.0` ([`VERSION_HEADER`]): a request without it
//! counts as v0.3, which a v1.0-only server refuses (`VERSION_NOT_SUPPORTED`, -32009). An agent
//! card's interface may name a `tenant`: over JSON-RPC it is the first member of every request's
//! `params` (as the official client sends it); over HTTP+JSON it is a path segment, already part
//! of the interface URL ([`crate::client::agent_card`]), so these builders leave it out. The
//! message is `{messageId, role: "ROLE_USER", parts, contextId?, taskId?, metadata?}` with
//! v1.0 parts (`{text}`, `{data}`: any JSON value).

use super::request::{finish_message, rpc, UserMessage};
use crate::dialects::emit::Obj;

/// The header that names the protocol version of a request.
pub const VERSION_HEADER: &str = "A2A-Version";

/// The two v1.0 bindings a browser can speak (gRPC cannot run in a page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    /// JSON-RPC 2.0 over HTTP: every request is a POST to one URL.
    JsonRpc,
    /// HTTP+JSON ("REST"): a path and HTTP method per operation, bare JSON bodies.
    HttpJson,
}

impl Binding {
    /// The name agent cards use in `protocolBinding` (`JSONRPC`, `HTTP+JSON`).
    pub fn as_str(self) -> &'static str {
        match self {
            Binding::JsonRpc => "JSONRPC",
            Binding::HttpJson => "HTTP+JSON",
        }
    }

    /// Parses an agent card's `protocolBinding` (`JSONRPC`, `HTTP+JSON`; `REST` and the
    /// options' `jsonrpc` / `http+json` / `rest` too). `GRPC` and others: `None`.
    pub fn parse(s: &str) -> Option<Binding> {
        match s.to_ascii_uppercase().as_str() {
            "JSONRPC" | "JSON-RPC" => Some(Binding::JsonRpc),
            "HTTP+JSON" | "REST" | "HTTP" => Some(Binding::HttpJson),
            _ => None,
        }
    }
}

/// One request, ready to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The HTTP method.
    pub http_method: &'static str,
    /// Appended to the interface URL (`""` for JSON-RPC).
    pub path: String,
    /// The JSON body, when there is one.
    pub body: Option<String>,
    /// The operation (`SendStreamingMessage`, `SubscribeToTask`, `CancelTask`, `GetTask`).
    pub operation: &'static str,
    /// The response is an event stream.
    pub streams: bool,
}

/// The v1.0 message object.
///
/// ```
/// use agentwire::dialects::a2a::{request::UserMessage, request_v1::message};
/// let m = message(&UserMessage { message_id: "m1", text: Some("hi"), task_id: Some("t1"), ..Default::default() });
/// assert_eq!(m, r#"{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}],"taskId":"t1"}"#);
/// ```
pub fn message(m: &UserMessage<'_>) -> String {
    let mut o = Obj::new();
    o.str("messageId", m.message_id).str("role", "ROLE_USER");
    finish_message(
        o,
        m,
        &|t| {
            let mut p = Obj::new();
            p.str("text", t);
            p.finish()
        },
        &|d| {
            let mut p = Obj::new();
            p.value("data", d);
            p.finish()
        },
    )
}

fn id_params(tenant: Option<&str>, task_id: &str) -> String {
    let mut p = Obj::new();
    p.opt_str("tenant", tenant).str("id", task_id);
    p.finish()
}

/// Percent-encodes a path segment (as `encodeURIComponent`).
pub(crate) fn segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The binding of a request and, over JSON-RPC, the tenant its `params` name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wire<'a> {
    /// The binding.
    pub binding: Binding,
    /// JSON-RPC: the agent card interface's `tenant` (`None`: none). Ignored over HTTP+JSON
    /// (the tenant is in the interface URL).
    pub tenant: Option<&'a str>,
}

impl From<Binding> for Wire<'_> {
    fn from(binding: Binding) -> Self {
        Wire {
            binding,
            tenant: None,
        }
    }
}

impl<'a> Wire<'a> {
    /// The tenant `params` carry (JSON-RPC only, not empty).
    fn params_tenant(self) -> Option<&'a str> {
        self.tenant
            .filter(|t| !t.is_empty() && self.binding == Binding::JsonRpc)
    }
}

/// Sends `m` and streams its task (`id`: the JSON-RPC request id).
///
/// ```
/// use agentwire::dialects::a2a::{request::UserMessage, request_v1::{send_streaming, Binding, Wire}};
/// let m = UserMessage { message_id: "m1", text: Some("hi"), ..Default::default() };
/// let r = send_streaming(Binding::HttpJson.into(), 1, &m);
/// assert_eq!((r.http_method, r.path.as_str()), ("POST", "/message:stream"));
/// assert_eq!(r.body.unwrap(), r#"{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}"#);
/// let r = send_streaming(Wire { binding: Binding::JsonRpc, tenant: Some("acme") }, 1, &m);
/// assert!(r.body.unwrap().contains(r#""params":{"tenant":"acme","message":{"#));
/// ```
pub fn send_streaming(wire: Wire<'_>, id: u64, m: &UserMessage<'_>) -> Request {
    let mut p = Obj::new();
    p.opt_str("tenant", wire.params_tenant())
        .raw("message", &message(m));
    let params = p.finish();
    let (path, body) = match wire.binding {
        Binding::JsonRpc => (String::new(), rpc(id, "SendStreamingMessage", &params)),
        Binding::HttpJson => ("/message:stream".to_owned(), params),
    };
    Request {
        http_method: "POST",
        path,
        body: Some(body),
        operation: "SendStreamingMessage",
        streams: true,
    }
}

/// Resumes the event stream of task `task_id` (the server sends the task first, then what
/// follows).
pub fn subscribe(wire: Wire<'_>, id: u64, task_id: &str) -> Request {
    task_call(wire, id, task_id, "SubscribeToTask", ":subscribe", true)
}

/// Asks the agent to cancel task `task_id` (the response is the task).
pub fn cancel(wire: Wire<'_>, id: u64, task_id: &str) -> Request {
    task_call(wire, id, task_id, "CancelTask", ":cancel", false)
}

/// Reads task `task_id`.
pub fn get_task(wire: Wire<'_>, id: u64, task_id: &str) -> Request {
    match wire.binding {
        Binding::JsonRpc => task_call(wire, id, task_id, "GetTask", "", false),
        Binding::HttpJson => Request {
            http_method: "GET",
            path: format!("/tasks/{}", segment(task_id)),
            body: None,
            operation: "GetTask",
            streams: false,
        },
    }
}

fn task_call(
    wire: Wire<'_>,
    id: u64,
    task_id: &str,
    operation: &'static str,
    verb: &str,
    streams: bool,
) -> Request {
    let params = id_params(wire.params_tenant(), task_id);
    let (path, body) = match wire.binding {
        Binding::JsonRpc => (String::new(), Some(rpc(id, operation, &params))),
        Binding::HttpJson => (format!("/tasks/{}{verb}", segment(task_id)), None),
    };
    Request {
        http_method: "POST",
        path,
        body,
        operation,
        streams,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_calls_in_both_bindings() {
        let r = subscribe(Binding::JsonRpc.into(), 7, "t 1");
        assert_eq!(
            r.body.as_deref(),
            Some(r#"{"jsonrpc":"2.0","id":7,"method":"SubscribeToTask","params":{"id":"t 1"}}"#)
        );
        assert!(r.streams && r.path.is_empty());
        let r = subscribe(Binding::HttpJson.into(), 7, "t 1/x");
        assert_eq!(
            (r.http_method, r.path.as_str(), r.body),
            ("POST", "/tasks/t%201%2Fx:subscribe", None)
        );
        let r = cancel(Binding::HttpJson.into(), 1, "t");
        assert_eq!((r.path.as_str(), r.streams), ("/tasks/t:cancel", false));
        let r = cancel(Binding::JsonRpc.into(), 2, "t");
        assert!(r.body.unwrap().contains(r#""method":"CancelTask""#));
        let r = get_task(Binding::HttpJson.into(), 1, "t");
        assert_eq!((r.http_method, r.path.as_str()), ("GET", "/tasks/t"));
        assert_eq!(Binding::parse("HTTP+JSON"), Some(Binding::HttpJson));
        assert_eq!(Binding::parse("JSONRPC"), Some(Binding::JsonRpc));
        assert_eq!(Binding::parse("GRPC"), None);
    }

    #[test]
    fn a_jsonrpc_tenant_leads_every_params_an_http_json_one_is_in_the_url() {
        let acme = |binding| Wire {
            binding,
            tenant: Some("acme"),
        };
        let r = cancel(acme(Binding::JsonRpc), 3, "t");
        assert_eq!(
            r.body.as_deref(),
            Some(
                r#"{"jsonrpc":"2.0","id":3,"method":"CancelTask","params":{"tenant":"acme","id":"t"}}"#
            )
        );
        let r = get_task(acme(Binding::HttpJson), 3, "t");
        assert_eq!((r.path.as_str(), r.body), ("/tasks/t", None));
        let m = UserMessage {
            message_id: "m",
            ..Default::default()
        };
        let r = send_streaming(acme(Binding::HttpJson), 1, &m);
        assert!(!r.body.unwrap().contains("acme"));
        let empty = Wire {
            binding: Binding::JsonRpc,
            tenant: Some(""),
        };
        assert!(!subscribe(empty, 1, "t").body.unwrap().contains("tenant"));
    }

    #[test]
    fn data_parts_hold_any_value() {
        let v = crate::json::parse("[1,2]").unwrap();
        let m = UserMessage {
            message_id: "m",
            data: Some(&v),
            ..Default::default()
        };
        assert_eq!(
            message(&m),
            r#"{"messageId":"m","role":"ROLE_USER","parts":[{"data":[1,2]}]}"#
        );
    }
}
