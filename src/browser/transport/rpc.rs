//! JSON-RPC over fetch, for the dialects that answer that way: the requests ([`Req`], [`Call`]),
//! sending one ([`post`]) and what comes back. What A2A sends when is its driver's
//! ([`super::a2a`]).
//!
//! A2A (seed 001): `message/stream` opens a stream of JSON-RPC responses (SSE); a dropped stream
//! resumes with `tasks/resubscribe` for the stream's task (never by sending the message again);
//! an answer to `input-required` is another `message/stream` on the same task, whose stream the
//! fetch loop reads next (the previous one ended with the `final` status-update);
//! `tasks/cancel` is a plain request whose JSON response goes into the session too.
//! A2A-ACP (seed 002): `tasks/provideInputAndContinue` and `tasks/cancel`, plain requests.
//!
//! The bodies come from [`crate::dialects::respond`] and the A2A decoder (which remembers the
//! request ids to match the responses).

use super::Shared;
use crate::browser::error::js_error;
use crate::browser::global::fetch_request;
use crate::dialects::respond::Outgoing;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

pub use crate::browser::options::stream::FirstMessage;

/// The header naming an A2A request's protocol version (as
/// `crate::dialects::a2a::request_v1::VERSION_HEADER`).
pub const A2A_VERSION_HEADER: &str = "A2A-Version";

/// One HTTP request of a dialect's conversation, as [`crate::dialects::respond`] built it:
/// sent to the dialect's endpoint (plus `path`) with the stream's headers and credentials.
#[derive(Debug, Clone)]
pub struct Req {
    /// The JSON body (empty: none).
    pub body: String,
    /// `POST` (A2A v1.0 HTTP+JSON `GetTask`: `GET`).
    pub http_method: &'static str,
    /// Appended to the endpoint (A2A v1.0 HTTP+JSON: `/message:stream`, `/tasks/{id}:…`).
    pub path: String,
    /// The `A2A-Version` header, when the request names one.
    pub a2a_version: Option<&'static str>,
}

impl Req {
    /// A plain JSON-RPC POST of `body`.
    pub fn post(body: String) -> Req {
        Req {
            body,
            http_method: "POST",
            path: String::new(),
            a2a_version: None,
        }
    }

    /// The body to send, if any.
    pub fn body(&self) -> Option<&str> {
        Some(self.body.as_str()).filter(|b| !b.is_empty())
    }
}

impl From<&Outgoing> for Req {
    fn from(o: &Outgoing) -> Req {
        Req {
            body: o.body.clone(),
            http_method: o.http_method,
            path: o.path.clone(),
            a2a_version: o.a2a_version,
        }
    }
}

/// A request for the fetch loop to send next, and the promise waiting for it.
pub struct Call {
    /// The request.
    pub req: Req,
    /// The input/auth request this call answers: closed locally once the server accepted it.
    pub answers: Option<String>,
    settle: Option<(js_sys::Function, js_sys::Function)>,
}

impl Call {
    /// A call and the promise its settlement resolves or rejects.
    pub fn new(req: Req, answers: Option<String>) -> (Call, js_sys::Promise) {
        let mut pair = None;
        let promise = js_sys::Promise::new(&mut |res, rej| pair = Some((res, rej)));
        (
            Call {
                req,
                answers,
                settle: pair,
            },
            promise,
        )
    }

    /// Resolves (`Ok`) or rejects the caller's promise (once).
    pub fn settle(mut self, r: Result<(), JsValue>) {
        if let Some((res, rej)) = self.settle.take() {
            let _ = match r {
                Ok(()) => res.call0(&JsValue::NULL),
                Err(e) => rej.call1(&JsValue::NULL, &e),
            };
        }
    }
}

/// Closes request `id` locally after its answer was accepted (these servers do not echo
/// answers): the `input-received` / `auth-completed` go through the store like any event.
pub fn mark_answered(sh: &Shared, id: &str) {
    let events = sh
        .store
        .with_session_mut(|s| s.take_answered(id))
        .unwrap_or_default();
    for e in events {
        let _ = sh.push(&e);
    }
}

use crate::dialects::respond::is_rpc_response;
pub use crate::dialects::respond::rpc_error_message as rpc_error;

/// Feeds a JSON-RPC reply (a result or an error object) into the stream, where A2A results and
/// errors are events; anything else (a proxy's JSON error page) is not one and stays out.
/// `true` when it went in.
pub fn push_reply(sh: &Shared, json: &str) -> bool {
    if !is_rpc_response(json) {
        return false;
    }
    let _ = sh.push(json);
    true
}

/// `true` for an `application/json` (or `+json`) content type.
pub fn is_json(content_type: Option<&str>) -> bool {
    let ct = content_type.unwrap_or("");
    let essence = ct.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("application/json")
        || essence.to_ascii_lowercase().ends_with("+json")
}

/// What a plain JSON-RPC POST got back.
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The JSON body (an event stream's body is not read: the open stream carries what follows).
    pub json: Option<String>,
}

/// Sends `req` to `url` (the endpoint; `req.path` is appended) with the stream's headers and
/// credentials. Fails with code `send-failed` (with `status` for HTTP errors that carry no
/// JSON reply).
pub async fn post(sh: &Shared, url: &str, req: &Req) -> Result<Reply, JsValue> {
    let url = crate::client::template::join(url, &req.path);
    let url = url.as_str();
    let fail = |msg: String, cause: Option<JsValue>, status: Option<u16>| {
        let e = js_error("send-failed", &msg);
        if let Some(c) = cause {
            let _ = js_sys::Reflect::set(&e, &"cause".into(), &c);
        }
        if let Some(s) = status {
            let _ = js_sys::Reflect::set(&e, &"status".into(), &JsValue::from(s));
        }
        e
    };
    let init = web_sys::RequestInit::new();
    init.set_method(req.http_method);
    let headers = web_sys::Headers::new()?;
    if req.body().is_some() {
        headers.set("Content-Type", "application/json")?;
    }
    headers.set("Accept", "application/json, text/event-stream")?;
    if let Some(v) = req.a2a_version {
        headers.set(A2A_VERSION_HEADER, v)?;
    }
    for (k, v) in &sh.opts.headers {
        headers.set(k, v)?;
    }
    init.set_headers(&headers);
    if let Some(body) = req.body() {
        init.set_body(&JsValue::from_str(body));
    }
    if sh.opts.credentials.as_deref() == Some("include") {
        init.set_credentials(web_sys::RequestCredentials::Include);
    }
    let req = web_sys::Request::new_with_str_and_init(url, &init).map_err(|e| {
        fail(
            format!("bad endpoint URL {}", crate::json::Quoted(url)),
            Some(e),
            None,
        )
    })?;
    let resp = JsFuture::from(fetch_request(&req))
        .await
        .map_err(|e| fail(format!("could not reach {url}"), Some(e), None))?;
    let resp: web_sys::Response = resp.unchecked_into();
    let status = resp.status();
    let ct = resp.headers().get("content-type").ok().flatten();
    if is_json(ct.as_deref()) {
        let text = JsFuture::from(resp.text()?)
            .await
            .map_err(|e| fail(format!("{url}: the response broke off"), Some(e), None))?;
        return Ok(Reply {
            status,
            json: text.as_string(),
        });
    }
    if let Some(b) = resp.body() {
        let _ = b.cancel();
    }
    if !resp.ok() {
        return Err(fail(
            format!("{url} answered HTTP {status}"),
            None,
            Some(status),
        ));
    }
    Ok(Reply { status, json: None })
}

/// Checks a reply: a JSON-RPC error (or an HTTP error) rejects with `send-failed`.
pub fn check(url: &str, reply: &Reply) -> Result<(), JsValue> {
    if let Some(msg) = reply.json.as_deref().and_then(rpc_error) {
        let e = js_error("send-failed", &format!("{url}: {msg}"));
        let _ = js_sys::Reflect::set(&e, &"status".into(), &JsValue::from(reply.status));
        return Err(e);
    }
    if !(200..300).contains(&reply.status) {
        let e = js_error(
            "send-failed",
            &format!("{url} answered HTTP {}", reply.status),
        );
        let _ = js_sys::Reflect::set(&e, &"status".into(), &JsValue::from(reply.status));
        return Err(e);
    }
    Ok(())
}
