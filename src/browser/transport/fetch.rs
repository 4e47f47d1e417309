//! fetch + `ReadableStream` SSE, the default transport.
//!
//! One attempt = one request. A GET stream resumes by repeating the request with
//! `Last-Event-ID`; a POSTed stream is never re-sent: it resumes only through the configured
//! resume request (a GET), and without one an interruption fails with code `interrupted`.
//! A clean end of stream before every root task is terminal counts as an interruption; once
//! every root task is terminal, a stream that ends, breaks or goes idle ends the connection
//! `closed` ("the run finished").
//!
//! A2A ([`super::rpc`]): the first request may be a `message/stream` (the `message` option);
//! a stream opened by a JSON-RPC POST resumes with `tasks/resubscribe` for its task; a stream
//! that ended because its task waits for the user leaves the loop waiting (state `open`) for the
//! answer, whose `message/stream` is the next request; a JSON response (a JSON-RPC error, say)
//! goes into the session like an event.

use super::a2a;
use super::rpc::{self, Call};
use super::{Shared, CLOSED, CONNECTING, FAILED, OPEN};
use crate::browser::global::{fetch_request, monotonic_ms, now_ms, yield_to_browser, Interval};
use crate::client::reconnect::{classify_response, ResponseVerdict};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// How one attempt ended.
pub(super) enum Outcome {
    /// Every root task is terminal: done.
    Finished,
    /// 204: the server says stop.
    Stop,
    /// Try again (after backoff); `delivered`: the attempt dispatched events.
    Retry {
        reason: String,
        retry_after_ms: Option<f64>,
        delivered: bool,
    },
    /// Give up.
    Fail { code: &'static str, message: String },
    /// A queued call was refused (HTTP error or JSON-RPC error; its promise was rejected);
    /// `error`: the JSON-RPC / HTTP+JSON error it was refused with, when it had one.
    Refused { error: Option<String> },
    /// `close()` was called.
    Closed,
    /// A JSON response (JSON-RPC) was read and applied; `error` when it was a JSON-RPC error.
    Json { error: Option<String> },
}

/// What the next attempt sends.
enum Next {
    /// The configured request, or the `message` option's `message/stream`.
    First,
    /// The resume request after a drop.
    Resume,
    /// A queued JSON-RPC request (an A2A answer, the next message).
    Call(Call),
}

pub(super) fn js_message(e: &JsValue) -> String {
    js_sys::Reflect::get(e, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "network error".into())
}

/// The request of one attempt, or `Err((code, message))` when none may be made.
fn build_request(
    sh: &Shared,
    resumed: bool,
    last_id: &str,
) -> Result<web_sys::Request, (&'static str, String)> {
    let o = &sh.opts;
    let is_post = !o.method.eq_ignore_ascii_case("GET");
    let (url, method, body) = if resumed && is_post {
        let Some(resume) = &o.resume else {
            return Err((
                "interrupted",
                "the POSTed stream was interrupted; it is not re-sent, and no `resume` request is configured".into(),
            ));
        };
        let url = if let Some(f) = resume.dyn_ref::<js_sys::Function>() {
            let info = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&info, &"lastEventId".into(), &JsValue::from_str(last_id));
            let headers = sh
                .conn
                .borrow()
                .first_headers
                .clone()
                .map(JsValue::from)
                .unwrap_or(JsValue::UNDEFINED);
            let _ = js_sys::Reflect::set(&info, &"headers".into(), &headers);
            match f
                .call1(&JsValue::NULL, &info)
                .ok()
                .and_then(|v| v.as_string())
            {
                Some(u) => u,
                None => {
                    return Err((
                        "interrupted",
                        "the resume function did not return a URL string".into(),
                    ))
                }
            }
        } else {
            resume.as_string().unwrap_or_default()
        };
        (url, "GET".to_owned(), None)
    } else {
        (o.url.clone(), o.method.to_ascii_uppercase(), o.body.clone())
    };
    request(sh, &url, &method, body.as_deref(), last_id, None)
}

/// A dialect request to the rpc endpoint that may answer with a stream.
fn rpc_request(
    sh: &Shared,
    req: &rpc::Req,
    last_id: &str,
) -> Result<web_sys::Request, (&'static str, String)> {
    let url = crate::client::template::join(&sh.rpc_url(), &req.path);
    let version = req.a2a_version.map(|v| (super::rpc::A2A_VERSION_HEADER, v));
    request(sh, &url, req.http_method, req.body(), last_id, version)
}

/// The request of one attempt: headers, body, credentials, the abort controller.
pub(super) fn request(
    sh: &Shared,
    url: &str,
    method: &str,
    body: Option<&str>,
    last_id: &str,
    extra: Option<(&str, &str)>,
) -> Result<web_sys::Request, (&'static str, String)> {
    let o = &sh.opts;
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    let headers = web_sys::Headers::new().map_err(|e| ("invalid-argument", js_message(&e)))?;
    let _ = headers.set("Accept", "text/event-stream");
    for (k, v) in &o.headers {
        headers.set(k, v).map_err(|e| {
            (
                "invalid-argument",
                format!("header {}: {}", crate::json::Quoted(k), js_message(&e)),
            )
        })?;
    }
    if let Some(b) = body {
        if !o
            .headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        {
            let _ = headers.set("Content-Type", "application/json");
        }
        init.set_body(&JsValue::from_str(b));
    }
    if !last_id.is_empty() {
        let _ = headers.set("Last-Event-ID", last_id);
    }
    if let Some((k, v)) = extra {
        let _ = headers.set(k, v);
    }
    init.set_headers(&headers);
    match o.credentials.as_deref() {
        Some("include") => init.set_credentials(web_sys::RequestCredentials::Include),
        Some("omit") => init.set_credentials(web_sys::RequestCredentials::Omit),
        Some("same-origin") => init.set_credentials(web_sys::RequestCredentials::SameOrigin),
        _ => {}
    }
    init.set_cache(web_sys::RequestCache::NoStore);
    let ctrl = web_sys::AbortController::new().map_err(|e| ("internal", js_message(&e)))?;
    init.set_signal(Some(&ctrl.signal()));
    sh.conn.borrow_mut().abort = Some(ctrl);
    web_sys::Request::new_with_str_and_init(url, &init).map_err(|e| {
        (
            "invalid-argument",
            format!("bad stream request: {}", js_message(&e)),
        )
    })
}

/// The connection loop: attempts with backoff until finished, stopped, failed or closed.
/// `first`: a JSON-RPC call to start with instead of the configured request (a finished A2A
/// run restarted by the next message).
pub async fn run(sh: Rc<Shared>, first: Option<Call>) {
    let is_post = !sh.opts.method.eq_ignore_ascii_case("GET");
    let mut next = first.map_or(Next::First, Next::Call);
    let mut opened_once = false;
    // The current stream came from a JSON-RPC POST: it resumes with `tasks/resubscribe`.
    let mut rpc_stream = false;
    let mut attempt: u32 = 0;
    sh.set_state(CONNECTING, "connecting", None);
    // The protocol's preparation (A2A `agentCard`: the endpoint, binding and version come from
    // the card).
    if let Err((code, message)) = a2a::prepare(&sh).await {
        if !sh.ended() {
            sh.shutdown(FAILED, &message, Some(code));
        }
        return;
    }
    loop {
        if sh.ended() {
            return;
        }
        let last_id = sh.store.last_event_id().unwrap_or_default();
        let mut call = None;
        let req = next_request(&sh, next, &last_id, &mut rpc_stream, &mut call);
        sh.rpc_stream.set(rpc_stream);
        let outcome = match req {
            Err((code, message)) => Outcome::Fail { code, message },
            Ok(req) => attempt_once(&sh, &req, &mut opened_once, rpc_stream, &mut call).await,
        };
        if call.is_some() || matches!(outcome, Outcome::Refused { .. }) {
            a2a::stream_not_opened(&sh);
        }
        if let Some(c) = call.take() {
            // Never reached the server (network error, bad request, close).
            let code = if matches!(outcome, Outcome::Closed) {
                "closed"
            } else {
                "send-failed"
            };
            c.settle(Err(crate::browser::error::js_error(
                code,
                &format!("the request was not accepted: {}", outcome.describe()),
            )));
            if !matches!(outcome, Outcome::Closed) && !sh.ended() {
                // The answer was not delivered: back to waiting for one (or resuming).
                match after_stream(&sh, rpc_stream).await {
                    Some(n) => {
                        next = n;
                        continue;
                    }
                    None => return,
                }
            }
        }
        if sh.ended() {
            return;
        }
        next = match outcome {
            Outcome::Closed => return,
            Outcome::Finished => match take_call(&sh) {
                Some(c) => Next::Call(c),
                None => {
                    finish(&sh);
                    return;
                }
            },
            Outcome::Stop => {
                sh.shutdown(
                    CLOSED,
                    "the server answered 204 No Content: not reconnecting",
                    None,
                );
                return;
            }
            Outcome::Fail { code, message } => {
                sh.shutdown(FAILED, &message, Some(code));
                return;
            }
            Outcome::Json { error } => {
                if sh.run_finished() && sh.calls.borrow().is_empty() {
                    finish(&sh);
                    return;
                }
                if let Some(e) = error {
                    // A resubscribe to a task that ended meanwhile: read it instead.
                    if a2a::read_ended_task(&sh, &e).await && sh.run_finished() {
                        finish(&sh);
                        return;
                    }
                    // The message/stream or the resubscribe was refused.
                    sh.shutdown(FAILED, &e, Some("rpc-error"));
                    return;
                }
                match after_stream(&sh, rpc_stream).await {
                    Some(n) => n,
                    None => return,
                }
            }
            Outcome::Refused { error } => {
                // An answer to a task that ended meanwhile (`UNSUPPORTED_OPERATION`): read how
                // it ended instead of waiting for an answer the server will never take.
                if let Some(e) = error {
                    if a2a::read_ended_task(&sh, &e).await && sh.run_finished() {
                        finish(&sh);
                        return;
                    }
                }
                match after_stream(&sh, rpc_stream).await {
                    Some(n) => n,
                    None => return,
                }
            }
            Outcome::Retry {
                reason,
                retry_after_ms,
                delivered,
            } => {
                let lost = Lost {
                    reason,
                    retry_after_ms,
                    delivered,
                    rpc_stream,
                    opened_once,
                    is_post,
                };
                match after_retryable(&sh, lost, &mut attempt).await {
                    Some(n) => n,
                    None => return,
                }
            }
        }
    }
}

/// The request of the next attempt (`rpc_stream`: it is a JSON-RPC stream; `call`: the queued
/// call it carries).
fn next_request(
    sh: &Shared,
    next: Next,
    last_id: &str,
    rpc_stream: &mut bool,
    call: &mut Option<Call>,
) -> Result<web_sys::Request, (&'static str, String)> {
    match next {
        Next::First => match a2a::first_message(sh) {
            Some(Ok(r)) => {
                *rpc_stream = true;
                rpc_request(sh, &r, "")
            }
            Some(Err(m)) => Err(("invalid-argument", m)),
            None => build_request(sh, false, ""),
        },
        Next::Resume if *rpc_stream => match a2a::resubscribe(sh) {
            Some(r) => rpc_request(sh, &r, last_id),
            None => Err((
                "interrupted",
                "the JSON-RPC stream was interrupted before it named its task: nothing to resubscribe to (the message is not sent again)".into(),
            )),
        },
        Next::Resume => build_request(sh, true, last_id),
        Next::Call(c) => {
            *rpc_stream = true;
            // A message/stream for a new task opens a stream of its own (its SSE ids are
            // not the previous stream's): no Last-Event-ID, no replay of the old ids.
            let fresh = a2a::awaits_stream_task(sh);
            if fresh {
                let _ = sh.store.with_session_mut(|s| s.begin_new_stream());
            }
            let r = rpc_request(sh, &c.req, if fresh { "" } else { last_id });
            *call = Some(c);
            r
        }
    }
}

/// What an interrupted attempt leaves for [`after_retryable`] to decide on.
struct Lost {
    reason: String,
    retry_after_ms: Option<f64>,
    delivered: bool,
    /// The stream came from a JSON-RPC POST.
    rpc_stream: bool,
    /// A stream opened at least once.
    opened_once: bool,
    /// The configured request is a POST.
    is_post: bool,
}

/// After an attempt that may be retried: a queued call goes next, an A2A stream waiting for an
/// answer waits for it, a stream that cannot be re-sent fails, else back off and resume
/// (`None`: the connection ended).
async fn after_retryable(sh: &Rc<Shared>, lost: Lost, attempt: &mut u32) -> Option<Next> {
    let Lost {
        reason,
        retry_after_ms,
        delivered,
        rpc_stream,
        opened_once,
        is_post,
    } = lost;
    if let Some(c) = take_call(sh) {
        return Some(Next::Call(c));
    }
    if rpc_stream && a2a::waiting_for_answer(sh) {
        return wait_for_call(sh).await;
    }
    if rpc_stream && !opened_once {
        sh.shutdown(
            FAILED,
            &format!("{reason}; the JSON-RPC request never opened a stream and is not re-sent"),
            Some("interrupted"),
        );
        return None;
    }
    if !rpc_stream && is_post && (!opened_once || sh.opts.resume.is_none()) {
        let why = if opened_once {
            "no `resume` request is configured"
        } else {
            "the POST never opened a stream"
        };
        sh.shutdown(
            FAILED,
            &format!("{reason}; the POSTed stream is not re-sent ({why})"),
            Some("interrupted"),
        );
        return None;
    }
    let _ = sh.store.reset_stream();
    let server_retry = sh.store.retry().ok().flatten();
    if !sh
        .back_off(attempt, delivered, &reason, server_retry, retry_after_ms)
        .await
    {
        return None;
    }
    Some(Next::Resume)
}

/// The run finished: the end of the stream, `closed`.
fn finish(sh: &Shared) {
    let _ = sh.store.finish();
    sh.shutdown(CLOSED, "the run finished", None);
}

/// The next queued JSON-RPC call, if any.
fn take_call(sh: &Shared) -> Option<Call> {
    sh.calls.try_borrow_mut().ok()?.pop_front()
}

/// After a JSON-RPC stream ended (or a call was refused) without an error: a queued call goes
/// next; a task waiting for the user waits for its answer; otherwise the stream resumes.
/// `None` when the loop must stop.
async fn after_stream(sh: &Rc<Shared>, rpc_stream: bool) -> Option<Next> {
    let _ = sh.store.reset_stream();
    if let Some(c) = take_call(sh) {
        return Some(Next::Call(c));
    }
    if sh.run_finished() {
        finish(sh);
        return None;
    }
    if rpc_stream && a2a::waiting_for_answer(sh) {
        return wait_for_call(sh).await;
    }
    Some(Next::Resume)
}

/// Waits (state `open`) until an answer is queued (its call is next), the request was answered
/// another way (a responder: resume), the run finishes (a cancel), or the client closes. The
/// wait is the connection's backoff slot, so `close()` and a queued call end it.
async fn wait_for_call(sh: &Rc<Shared>) -> Option<Next> {
    let _ = sh.store.reset_stream();
    sh.set_state(
        OPEN,
        "the task waits for an answer (its stream ended)",
        None,
    );
    sh.awaiting_call.set(true);
    let next = loop {
        if sh.ended() {
            break None;
        }
        if let Some(c) = take_call(sh) {
            break Some(Next::Call(c));
        }
        if sh.run_finished() {
            finish(sh);
            break None;
        }
        if !a2a::waiting_for_answer(sh) {
            break Some(Next::Resume);
        }
        crate::browser::global::wait(&sh.wait, 86_400_000.0, false).await;
    };
    sh.awaiting_call.set(false);
    next
}

impl Outcome {
    fn describe(&self) -> String {
        match self {
            Outcome::Finished | Outcome::Json { .. } | Outcome::Refused { .. } => "done".into(),
            Outcome::Stop => "HTTP 204".into(),
            Outcome::Retry { reason, .. } => reason.clone(),
            Outcome::Fail { message, .. } => message.clone(),
            Outcome::Closed => "the client was closed".into(),
        }
    }
}

/// Accepts a queued call once the server took it (its stream opened, or its JSON result
/// arrived): closes the request it answers locally, resolves its promise.
fn accept(sh: &Shared, call: &mut Option<Call>) {
    if let Some(c) = call.take() {
        if let Some(id) = &c.answers {
            rpc::mark_answered(sh, id);
        }
        c.settle(Ok(()));
    }
}

async fn attempt_once(
    sh: &Rc<Shared>,
    req: &web_sys::Request,
    opened_once: &mut bool,
    rpc_stream: bool,
    call: &mut Option<Call>,
) -> Outcome {
    // Idle detection covers the whole attempt, the wait for the response headers included (a
    // server that accepts the connection and never answers): one interval per attempt,
    // dropped (cleared) when the attempt ends.
    let _idle = idle_watch(sh);
    let resp = match JsFuture::from(fetch_request(req)).await {
        Ok(r) => r,
        Err(e) => {
            if sh.ended() {
                return Outcome::Closed;
            }
            if sh.conn.borrow().idle_fired {
                return Outcome::Retry {
                    reason: format!(
                        "no response for {} ms (idle timeout)",
                        crate::json::Num(sh.opts.idle_timeout_ms)
                    ),
                    retry_after_ms: None,
                    delivered: false,
                };
            }
            return Outcome::Retry {
                reason: format!("network error: {}", js_message(&e)),
                retry_after_ms: None,
                delivered: false,
            };
        }
    };
    let Ok(resp) = resp.dyn_into::<web_sys::Response>() else {
        return Outcome::Fail {
            code: "internal",
            message: "fetch did not return a Response".into(),
        };
    };
    let headers = resp.headers();
    let ct = headers.get("content-type").ok().flatten();
    let retry_after = headers.get("retry-after").ok().flatten();
    if rpc_stream && rpc::is_json(ct.as_deref()) {
        // A JSON-RPC response instead of a stream: an error, or a result that is not a stream.
        let text = match resp.text().map(JsFuture::from) {
            Ok(f) => f.await.ok().and_then(|t| t.as_string()).unwrap_or_default(),
            Err(_) => String::new(),
        };
        if sh.ended() {
            return Outcome::Closed;
        }
        rpc::push_reply(sh, &text);
        let error = rpc::rpc_error(&text)
            .or_else(|| (!resp.ok()).then(|| format!("HTTP {}: {}", resp.status(), text.trim())));
        if let Some(c) = call.take() {
            return match error {
                Some(e) => {
                    c.settle(Err(crate::browser::error::js_error("send-failed", &e)));
                    Outcome::Refused { error: Some(e) }
                }
                None => {
                    let mut c = Some(c);
                    accept(sh, &mut c);
                    Outcome::Json { error: None }
                }
            };
        }
        return Outcome::Json { error };
    }
    let verdict = classify_response(
        resp.status(),
        ct.as_deref(),
        retry_after.as_deref(),
        now_ms(),
    );
    if call.is_some() && !matches!(verdict, ResponseVerdict::Open) {
        let status = resp.status();
        let e = crate::browser::error::js_error(
            "send-failed",
            &format!("{} answered HTTP {status}", sh.rpc_url()),
        );
        let _ = js_sys::Reflect::set(&e, &"status".into(), &JsValue::from(status));
        if let Some(c) = call.take() {
            c.settle(Err(e));
        }
        if let Some(b) = resp.body() {
            let _ = b.cancel();
        }
        return Outcome::Refused { error: None };
    }
    match verdict {
        ResponseVerdict::Stop => Outcome::Stop,
        ResponseVerdict::Fail { code, message } => Outcome::Fail { code, message },
        ResponseVerdict::Retry {
            reason,
            retry_after_ms,
        } => Outcome::Retry {
            reason,
            retry_after_ms,
            delivered: false,
        },
        ResponseVerdict::Open => {
            // A response header may name the protocol before its first event does.
            if let Some(d) = crate::dialects::detect_headers(|n| headers.get(n).ok().flatten()) {
                let _ = sh.store.with_session_mut(|s| s.adopt_dialect(d));
            }
            {
                let mut c = sh.conn.borrow_mut();
                if c.first_headers.is_none() {
                    c.first_headers = Some(headers);
                }
            }
            *opened_once = true;
            accept(sh, call);
            sh.set_state(OPEN, "receiving", None);
            read_body(sh, &resp).await
        }
    }
}

/// Aborts the attempt's request when no byte arrived for `idleTimeoutMs` (`None` when off).
pub(super) fn idle_watch(sh: &Rc<Shared>) -> Option<Interval> {
    let idle_ms = sh.opts.idle_timeout_ms;
    {
        let mut c = sh.conn.borrow_mut();
        c.last_bytes_ms = monotonic_ms();
        c.idle_fired = false;
    }
    (idle_ms > 0.0).then(|| {
        let weak = Rc::downgrade(sh);
        Interval::new((idle_ms / 4.0).max(50.0), move || {
            let Some(sh) = weak.upgrade() else { return };
            let Ok(mut c) = sh.conn.try_borrow_mut() else {
                return;
            };
            if !c.idle_fired && monotonic_ms() - c.last_bytes_ms >= idle_ms {
                c.idle_fired = true;
                if let Some(a) = c.abort.take() {
                    a.abort();
                }
            }
        })
    })
}

/// Reads an event stream's body into the session until it ends, breaks or the client closes.
pub(super) async fn read_body(sh: &Rc<Shared>, resp: &web_sys::Response) -> Outcome {
    let Some(body) = resp.body() else {
        return Outcome::Retry {
            reason: "the response has no body".into(),
            retry_after_ms: None,
            delivered: false,
        };
    };
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let idle_ms = sh.opts.idle_timeout_ms;
    // The headers are bytes too: the idle clock restarts with them.
    if let Ok(mut c) = sh.conn.try_borrow_mut() {
        c.last_bytes_ms = monotonic_ms();
    }
    let mut buf: Vec<u8> = Vec::new();
    let mut delivered = false;
    // When this loop last let the browser run: reads of data already queued resolve as
    // microtasks, so a burst would otherwise be parsed in one long task (no input, no frames).
    let mut busy_since = monotonic_ms();
    let done_key = JsValue::from_str("done");
    let value_key = JsValue::from_str("value");
    loop {
        let item = match JsFuture::from(reader.read()).await {
            Ok(item) => item,
            Err(e) => {
                if sh.ended() {
                    return Outcome::Closed;
                }
                // Every root task is terminal: a server that keeps the finished run's stream
                // open (idle timeout) or drops it has nothing more to say, so there is nothing
                // to reconnect to.
                if sh.run_finished() {
                    return Outcome::Finished;
                }
                let idle = sh.conn.borrow().idle_fired;
                let reason = if idle {
                    format!(
                        "no data for {} ms (idle timeout)",
                        crate::json::Num(idle_ms)
                    )
                } else {
                    format!("connection lost: {}", js_message(&e))
                };
                return Outcome::Retry {
                    reason,
                    retry_after_ms: None,
                    delivered,
                };
            }
        };
        let done = js_sys::Reflect::get(&item, &done_key)
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            if sh.run_finished() {
                return Outcome::Finished;
            }
            return Outcome::Retry {
                reason: "the stream ended before the run finished".into(),
                retry_after_ms: None,
                delivered,
            };
        }
        let Ok(chunk) = js_sys::Reflect::get(&item, &value_key)
            .and_then(|v| v.dyn_into::<js_sys::Uint8Array>())
        else {
            continue;
        };
        if let Ok(mut c) = sh.conn.try_borrow_mut() {
            c.last_bytes_ms = monotonic_ms();
        }
        // Copied into wasm memory at most FEED_SLICE bytes at a time: the browser hands over
        // whatever piled up while the page was busy (several MB on a loaded machine), and wasm
        // memory, once grown, never shrinks.
        let len = chunk.length();
        let mut at = 0u32;
        while at < len {
            let end = len.min(at.saturating_add(FEED_SLICE));
            buf.clear();
            buf.resize((end - at) as usize, 0);
            if at == 0 && end == len {
                chunk.copy_to(&mut buf);
            } else {
                chunk.subarray(at, end).copy_to(&mut buf);
            }
            at = end;
            match sh.feed(&buf) {
                Ok(n) => delivered |= n > 0,
                Err(_) => return Outcome::Closed,
            }
            if !sh.ended() && monotonic_ms() - busy_since >= YIELD_AFTER_MS {
                yield_to_browser().await;
                busy_since = monotonic_ms();
            }
            if sh.ended() {
                let _ = reader.cancel();
                return Outcome::Closed;
            }
        }
    }
}

/// The error the official AG-UI and AI SDK clients throw for an HTTP error: `HTTP <status>: <body>`, with
/// `status` and (JSON bodies) `payload`.
#[cfg(any(feature = "ag-ui", feature = "ai-sdk"))]
pub(super) async fn http_error(resp: &web_sys::Response) -> JsValue {
    let status = resp.status();
    let text = match resp.text() {
        Ok(p) => JsFuture::from(p)
            .await
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default(),
        Err(_) => String::new(),
    };
    let e = crate::browser::error::js_error("send-failed", &format!("HTTP {status}: {text}"));
    let _ = js_sys::Reflect::set(&e, &"status".into(), &JsValue::from(status));
    let ct = resp
        .headers()
        .get("content-type")
        .ok()
        .flatten()
        .unwrap_or_default();
    if crate::json::contains_str(&ct, "application/json") {
        if let Ok(p) = js_sys::JSON::parse(&text) {
            let _ = js_sys::Reflect::set(&e, &"payload".into(), &p);
        }
    }
    e
}

/// Parsing time after which the read loop yields to the browser (keeps tasks under 50 ms).
const YIELD_AFTER_MS: f64 = 30.0;

/// The most bytes of a network chunk copied into wasm memory at once (256 KiB).
const FEED_SLICE: u32 = 256 * 1024;
