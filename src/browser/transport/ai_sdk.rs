//! The Vercel AI SDK chat driver (`ai` 7.x, `tests/ai-sdk/WIRE.md` §5): how a chat's
//! responses open, resume, take answers and end — what the official `DefaultChatTransport`
//! and `AbstractChat` do. The fetch transport only sends a request and reads its body
//! (`fetch::request`, `fetch::read_body`); the UI message stream is read by
//! the `ai-sdk` dialect.
//!
//! - **Open**: a POST of `{...aiSdk.body, id: chatId, messages, trigger: "submit-message",
//!   messageId?}` to `url` ([`crate::dialects::ai_sdk::request`]); `messages` are every
//!   `UIMessage` of the chat (the `aiSdk.messages` option as given, then the store's user and
//!   assistant messages). The body is recorded with `set_request` before its answer is read,
//!   so the user's new message joins the assistant message's task. Without a first message
//!   (`aiSdk.messages` or `message`) the first request is a resume.
//! - **Next message** ([`send_message`]): the next POST with the new user message. A request
//!   asked for while a response streams goes out after it; its body is written then.
//! - **Answers** ([`answer`], [`tool_output`]): the tool part changes locally
//!   (`approval-responded`, `output-available`), as the official chat's
//!   `addToolApprovalResponse` / `addToolOutput` do; once no approval or client-side tool of the
//!   message waits any more, the next POST (`messageId` = that assistant message) carries it
//!   and the server's answer continues the same message (the same task).
//! - **Resume**: a response that ends before its `finish` (a dropped connection) is resumed
//!   with `GET {url}/{chatId}/stream`, with backoff (never by POSTing the message again); 204 =
//!   nothing to resume, the connection ends `closed`. The server replays the response from its
//!   first chunk; the dialect skips what it had applied.
//! - **Stop** ([`stop`], `cancel(taskId)`): the request is aborted; the message keeps what
//!   arrived and its task ends `canceled` ("aborted"). The server is told nothing else.
//! - **End**: a finished response ends the connection `closed` (also when the message waits for
//!   an answer); the next request starts it again.

use super::fetch::{self, js_message, Outcome};
use super::rpc::{mark_answered, Call, Req};
use super::{Shared, CLOSED, CONNECTING, FAILED, OPEN};
use crate::browser::error::js_error;
use crate::browser::global::{fetch_request, random_uuid};
use crate::dialects::ai_sdk::request::{chat_messages, request_body, resume_url, user_message};
use crate::dialects::ai_sdk::AiSdkDecoder;
use crate::dialects::{Dialect, DialectChoice};
use crate::json::{parse, write_str, Value};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

/// What the driver remembers between requests.
#[derive(Default)]
pub struct Driver {
    /// The chat (from `aiSdk.chatId`, or generated).
    chat: RefCell<Option<String>>,
    /// `cancel()` aborted the response being read.
    stopping: Cell<bool>,
}

/// `true` when the client speaks the AI SDK's chat (`dialect: "ai-sdk"` on the fetch
/// transport): this driver owns its requests. (With the manual transport the app feeds the
/// stream.)
pub fn drives(sh: &Shared) -> bool {
    sh.opts.dialect == DialectChoice::Fixed(Dialect::AiSdk)
        && sh.opts.transport == super::TransportKind::Fetch
}

fn chat(sh: &Shared) -> String {
    let mut c = sh.ai_sdk.chat.borrow_mut();
    c.get_or_insert_with(|| sh.opts.ai_sdk.chat_id.clone().unwrap_or_else(random_uuid))
        .clone()
}

fn with_ai<R>(sh: &Shared, f: impl FnOnce(&mut AiSdkDecoder) -> R) -> Option<R> {
    sh.store
        .with_session_mut(|s| s.dialect_parts().and_then(|(d, _)| d.ai_sdk()).map(f))
        .ok()
        .flatten()
}

/// Applies the client's own change to the message (a tool output, a stop).
fn apply_local(sh: &Shared, f: impl FnOnce(&mut AiSdkDecoder, &str) -> Vec<String>) {
    let events = sh
        .store
        .with_session_mut(|s| s.dialect_parts().and_then(|(d, _)| d.ai_sdk_local(f)))
        .ok()
        .flatten()
        .unwrap_or_default();
    for e in events {
        let _ = sh.push(&e);
    }
}

/// What a queued request sends, written into its body when it goes out (the chat's messages
/// then): `{"text", "id"}` (a new user message) or `{"messageId"}` (the answers).
fn recipe(text: Option<(&str, &str)>, message_id: Option<&str>) -> String {
    let mut r = String::from("{");
    if let Some((id, t)) = text {
        r.push_str("\"id\":");
        write_str(&mut r, id);
        r.push_str(",\"text\":");
        write_str(&mut r, t);
    }
    if let Some(m) = message_id {
        if text.is_some() {
            r.push(',');
        }
        r.push_str("\"messageId\":");
        write_str(&mut r, m);
    }
    r.push('}');
    r
}

/// The POST body of a request: the chat's messages now, plus a new user message.
fn body(sh: &Shared, recipe: &str) -> Result<String, JsValue> {
    let v = parse(recipe).map_err(|_| js_error("internal", "bad request recipe"))?;
    let chat = chat(sh);
    let o = &sh.opts.ai_sdk;
    let mut messages = sh
        .store
        .with_session(|s| chat_messages(s.store(), &chat, &o.messages))?;
    if let (Some(id), Some(t)) = (
        v.get("id").and_then(Value::as_str),
        v.get("text").and_then(Value::as_str),
    ) {
        messages.push(user_message(id, t));
    }
    Ok(request_body(
        o.body.as_deref(),
        &chat,
        &messages,
        "submit-message",
        v.get("messageId").and_then(Value::as_str),
    ))
}

/// The first request's body: `aiSdk.messages` and the `message` option's text; `None` when
/// there is neither (the first request resumes the chat's stream).
fn first_body(sh: &Shared) -> Option<Result<String, JsValue>> {
    let text = sh.opts.message.as_ref().and_then(|m| m.text.clone());
    if sh.opts.ai_sdk.messages.is_empty() && text.is_none() {
        return None;
    }
    let id = random_uuid();
    Some(body(
        sh,
        &recipe(text.as_deref().map(|t| (id.as_str(), t)), None),
    ))
}

/// Queues a request for the loop, or starts the loop with it when the connection had ended.
fn submit(sh: &Rc<Shared>, call: Call) {
    if sh.running.get() {
        sh.calls.borrow_mut().push_back(call);
    } else if let Err(call) = super::restart_with(sh, call) {
        call.settle(Err(js_error(
            "invalid-state",
            "the client is closed: nothing to send the request on",
        )));
    }
}

/// `sendMessage(text)`: the chat's next POST with the user's message.
pub fn send_message(sh: &Rc<Shared>, text: &str) -> js_sys::Promise {
    let sh = sh.clone();
    let r = recipe(Some((&random_uuid(), text)), None);
    future_to_promise(async move {
        let (call, promise) = Call::new(Req::post(r), None);
        submit(&sh, call);
        JsFuture::from(promise).await.map(|_| JsValue::UNDEFINED)
    })
}

/// After an answer: when no approval or client-side tool of the message waits any more, the
/// next POST continues the message (its promise settles when the server took it).
async fn continue_message(sh: &Rc<Shared>) -> Result<(), JsValue> {
    let (waits, message) = with_ai(sh, |a| {
        (a.waits_for_client(), a.message_id().map(str::to_owned))
    })
    .unwrap_or((false, None));
    if waits {
        return Ok(());
    }
    let (call, promise) = Call::new(Req::post(recipe(None, message.as_deref())), None);
    submit(sh, call);
    JsFuture::from(promise).await.map(|_| ())
}

/// `true` for an answer that approves: `true`, `{approved: true}`, `"approve"`; `denied` is a
/// `deny()`.
fn approves(value: &str, denied: bool) -> bool {
    if denied {
        return false;
    }
    match parse(value) {
        Ok(Value::Bool(b)) => b,
        Ok(Value::String(s)) => !matches!(&*s, "deny" | "denied" | "reject" | "no"),
        Ok(v) => v.get("approved").and_then(Value::as_bool).unwrap_or(true),
        Err(_) => true,
    }
}

/// An answer to approval `id` (`approve`, `deny`, `respond`): the tool part becomes
/// `approval-responded` now (the input `answered`), then `continue_message`.
pub async fn answer(
    sh: &Rc<Shared>,
    id: &str,
    value: &str,
    denied: bool,
    reason: Option<&str>,
) -> Result<(), JsValue> {
    let open = with_ai(sh, |a| a.open_approvals()).unwrap_or_default();
    if !open.iter().any(|(a, _)| a == id) {
        let e = js_error(
            "unknown-input",
            &format!(
                "{} is not an open tool approval of this chat",
                crate::json::Quoted(id)
            ),
        );
        let _ = js_sys::Reflect::set(&e, &"inputId".into(), &JsValue::from_str(id));
        return Err(e);
    }
    let approved = approves(value, denied);
    with_ai(sh, |a| a.answer_approval(id, approved, reason));
    mark_answered(sh, id);
    continue_message(sh).await
}

/// `true` when `id` is a tool call of the message waiting for the client's output.
pub fn awaits_output(sh: &Shared, id: &str) -> bool {
    with_ai(sh, |a| a.awaits_output(id)).unwrap_or(false)
}

/// `respond(toolCallId, output)` for a client-side tool: the part becomes `output-available`
/// with `output` (JSON text) now, then `continue_message`.
pub async fn tool_output(sh: &Rc<Shared>, id: &str, output: &str) -> Result<(), JsValue> {
    if !awaits_output(sh, id) {
        return Err(js_error(
            "unknown-input",
            &format!(
                "{} is not a tool call waiting for its output",
                crate::json::Quoted(id)
            ),
        ));
    }
    apply_local(sh, |a, ts| a.tool_output(id, Ok(output), ts));
    continue_message(sh).await
}

/// `cancel(taskId)` (the official `stop()`): aborts the response of message `task_id` being
/// read. Nothing to stop (no request in flight) resolves; another task rejects.
pub fn stop(sh: &Rc<Shared>, task_id: &str) -> Result<(), JsValue> {
    let current = with_ai(sh, |a| a.message_id().map(str::to_owned)).flatten();
    if current.as_deref() != Some(task_id) {
        return Err(js_error(
            "invalid-state",
            &format!(
                "task {} is not the message being written: nothing to stop",
                crate::json::Quoted(task_id)
            ),
        ));
    }
    if !sh.running.get() {
        return Ok(());
    }
    sh.ai_sdk.stopping.set(true);
    let abort = sh
        .conn
        .try_borrow_mut()
        .ok()
        .and_then(|mut c| c.abort.take());
    if let Some(a) = abort {
        a.abort();
    }
    // A resume waiting for its backoff delay stops too.
    let w = sh.wait.try_borrow_mut().ok().and_then(|mut w| w.take());
    if let Some(w) = w {
        w.cancel();
    }
    Ok(())
}

/// How one request went.
enum Got {
    /// The body was read to its end or broke off; `delivered`: events were dispatched.
    Read {
        reason: Option<String>,
        delivered: bool,
    },
    /// 204: no response to resume.
    NoStream,
    /// The server refused the request (HTTP error, unreachable): the call's promise was
    /// rejected, or (the first request) the connection fails with `code`.
    Refused { code: &'static str, error: JsValue },
    /// `close()`.
    Closed,
}

/// Sends one request (a POST with `body`, or the resume GET) and reads its answer. `call` is
/// settled here: accepted once the stream opened, rejected when refused.
async fn request(sh: &Rc<Shared>, body: Option<&str>, call: &mut Option<Call>) -> Got {
    let (url, method) = match body {
        Some(_) => (sh.opts.url.clone(), "POST"),
        None => (resume_url(&sh.opts.url, &chat(sh)), "GET"),
    };
    let refused = |code: &'static str, error: JsValue| Got::Refused { code, error };
    let req = match fetch::request(sh, &url, method, body, "", None) {
        Ok(r) => r,
        Err((code, message)) => return refused(code, js_error(code, &message)),
    };
    let _idle = fetch::idle_watch(sh);
    let resp = match JsFuture::from(fetch_request(&req)).await {
        Ok(r) => r,
        Err(e) => {
            if sh.ended() {
                return Got::Closed;
            }
            if sh.ai_sdk.stopping.get() {
                return Got::Read {
                    reason: None,
                    delivered: false,
                };
            }
            let msg = format!("could not reach {url}: {}", js_message(&e));
            return refused("connect-failed", js_error("send-failed", &msg));
        }
    };
    let Ok(resp) = resp.dyn_into::<web_sys::Response>() else {
        return refused(
            "internal",
            js_error("internal", "fetch did not return a Response"),
        );
    };
    if resp.status() == 204 {
        if let Some(c) = call.take() {
            c.settle(Ok(()));
        }
        return Got::NoStream;
    }
    if !resp.ok() {
        let e = fetch::http_error(&resp).await;
        return refused("http-error", e);
    }
    if let Some(c) = call.take() {
        c.settle(Ok(()));
    }
    sh.set_state(
        OPEN,
        if body.is_some() {
            "receiving the response"
        } else {
            "receiving the resumed response"
        },
        None,
    );
    match fetch::read_body(sh, &resp).await {
        Outcome::Closed => Got::Closed,
        Outcome::Retry {
            reason, delivered, ..
        } => Got::Read {
            reason: Some(reason),
            delivered,
        },
        _ => Got::Read {
            reason: None,
            delivered: true,
        },
    }
}

/// The request loop: one request per response, resuming a response that broke off, until no
/// request is queued, or the client closed. `first`: the request that restarted an ended
/// connection.
pub async fn run(sh: Rc<Shared>, first: Option<Call>) {
    let mut next = first;
    let mut first_run = next.is_none();
    sh.set_state(CONNECTING, "connecting", None);
    loop {
        if sh.ended() {
            if let Some(c) = next.take() {
                c.settle(Err(js_error("closed", "the client was closed")));
            }
            return;
        }
        sh.ai_sdk.stopping.set(false);
        let body = match &next {
            Some(c) => Some(body(&sh, &c.req.body)),
            None => first_body(&sh),
        };
        let body = match body.transpose() {
            Ok(b) => b,
            Err(e) => {
                match next.take() {
                    Some(c) => c.settle(Err(e)),
                    None => sh.shutdown(FAILED, &js_message(&e), Some("invalid-argument")),
                }
                return;
            }
        };
        let chat = chat(&sh);
        let _ = sh.store.with_session_mut(|s| {
            s.begin_new_stream();
            if let Some(a) = s.dialect_parts().and_then(|(d, _)| d.ai_sdk()) {
                a.set_chat_id(&chat);
                match body.as_deref().map(parse) {
                    Some(Ok(v)) => a.set_request(&v),
                    _ => a.begin_replay(),
                }
            }
        });
        let mut got = request(&sh, body.as_deref(), &mut next).await;
        let mut attempt: u32 = 0;
        let mut resumed = body.is_none();
        // Resumes while the response is not over.
        let ending = loop {
            match got {
                Got::Closed => {
                    if let Some(c) = next.take() {
                        c.settle(Err(js_error("closed", "the client was closed")));
                    }
                    return;
                }
                Got::Refused { code, error } => {
                    if let Some(c) = next.take() {
                        c.settle(Err(error));
                        break None;
                    }
                    if first_run || resumed {
                        sh.shutdown(FAILED, &js_message(&error), Some(code));
                        return;
                    }
                    break None;
                }
                Got::NoStream => {
                    break Some("the server has no response to resume (HTTP 204)");
                }
                Got::Read { reason, delivered } => {
                    if sh.ai_sdk.stopping.get() {
                        apply_local(&sh, |a, ts| a.stop(ts));
                        break Some("stopped by the app (cancel)");
                    }
                    if with_ai(&sh, |a| a.response_finished()).unwrap_or(true) {
                        break None;
                    }
                    let reason = reason
                        .unwrap_or_else(|| "the response ended before its finish chunk".into());
                    let _ = sh.store.reset_stream();
                    if !sh
                        .back_off(&mut attempt, delivered, &reason, None, None)
                        .await
                    {
                        return;
                    }
                    if sh.ai_sdk.stopping.get() {
                        apply_local(&sh, |a, ts| a.stop(ts));
                        break Some("stopped by the app (cancel)");
                    }
                    let _ = sh.store.with_session_mut(|s| {
                        s.begin_new_stream();
                        if let Some(a) = s.dialect_parts().and_then(|(d, _)| d.ai_sdk()) {
                            a.begin_replay();
                        }
                    });
                    resumed = true;
                    got = request(&sh, None, &mut None).await;
                }
            }
        };
        first_run = false;
        let _ = sh.store.reset_stream();
        if let Some(c) = take_call(&sh) {
            next = Some(c);
            continue;
        }
        let _ = sh.store.finish();
        let waits = with_ai(&sh, |a| a.waits_for_client()).unwrap_or(false);
        let reason = match ending {
            Some(r) => r,
            None if waits => {
                "the response finished; the message waits for the user (approve, deny or respond send the next request)"
            }
            None => "the response finished",
        };
        sh.shutdown(CLOSED, reason, None);
        return;
    }
}

fn take_call(sh: &Shared) -> Option<Call> {
    sh.calls.try_borrow_mut().ok()?.pop_front()
}
