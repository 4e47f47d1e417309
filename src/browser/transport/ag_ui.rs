//! The AG-UI 1.0 driver: how a thread's runs open, continue and end. AG-UI has no stream to
//! resume: every run is one POST of a `RunAgentInput` (`tests/ag-ui/WIRE.md` §2) whose SSE
//! answer is the run; the fetch transport only sends it and reads the body
//! (`fetch::request`, `fetch::read_body`).
//!
//! - **Open**: the first run's input comes from the `agUi` option (thread and run ids generated
//!   when absent). [`crate::dialects::ag_ui::AgUiDecoder::set_run_input`] gets every input
//!   before its response is read, so the user's messages and the starting state join the run.
//! - **Next message** ([`send_message`]): a new run of the thread whose messages are every
//!   message of the thread's tasks in the store (no activities) plus the new user message, and
//!   whose state is the thread's latest `sharedState`.
//! - **Answers** ([`answer`]): a run that ended with interrupts waits (state `open`) until
//!   every interrupt has an answer; then one resume run goes out (`resume: [{interruptId,
//!   status: "resolved", payload} | {interruptId, status: "cancelled"}]`), its requests are
//!   closed locally (`input-received`) once the server accepted it. An expired interrupt can only
//!   be cancelled (`deny`), as with the official client.
//! - **End**: a run that finished (success, error, cancelled) ends the connection `closed`; the
//!   next `sendMessage` starts the connection again. A stream that breaks off before its
//!   `RUN_FINISHED` cannot be resumed (AG-UI has no replay): the connection fails with code
//!   `interrupted`, the run's task stays `working`, and `sendMessage` may start the next run.
//! - Refusals: an HTTP error is `HTTP <status>: <body>` (with `status`, and `payload` for a JSON
//!   body) as the official client says it; a protobuf answer
//!   (`application/vnd.ag-ui.event+proto`) is not read (code `unsupported-framing`).

use super::fetch::{self, js_message, Outcome};
use super::rpc::{mark_answered, Call, Req};
use super::{Shared, CLOSED, CONNECTING, FAILED, OPEN};
use crate::browser::error::js_error;
use crate::browser::global::{fetch_request, random_uuid as uuid, wait};
use crate::dialects::ag_ui::input::{
    array_items, thread_history, user_message, ResumeEntry, RunInput,
};
use crate::dialects::ag_ui::Interrupt;
use crate::dialects::{Dialect, DialectChoice};
use crate::json::{parse, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

/// The AG-UI protobuf media type (WIRE.md §8): never read.
const PROTO: &str = "application/vnd.ag-ui.event+proto";

/// What the driver remembers between runs.
#[derive(Default)]
pub struct Driver {
    /// The thread (from `agUi.threadId`, or generated for the first run).
    thread: RefCell<Option<String>>,
    /// Answers collected for the pending interrupts.
    answers: RefCell<Vec<ResumeEntry>>,
    /// Answer promises waiting for the resume run the last answer sends.
    waiters: RefCell<Vec<(js_sys::Function, js_sys::Function)>>,
}

/// `true` when the client speaks AG-UI (`dialect: "ag-ui"`): this driver owns its runs.
pub fn drives(sh: &Shared) -> bool {
    sh.opts.dialect == DialectChoice::Fixed(Dialect::AgUi)
}

fn thread(sh: &Shared) -> String {
    let mut t = sh.ag_ui.thread.borrow_mut();
    t.get_or_insert_with(|| sh.opts.ag_ui.thread_id.clone().unwrap_or_else(uuid))
        .clone()
}

fn pending(sh: &Shared) -> Vec<Interrupt> {
    sh.store
        .with_session_mut(|s| {
            s.dialect_parts()
                .and_then(|(d, _)| d.ag_ui())
                .map(|a| a.pending_interrupts().to_vec())
        })
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// The first run's input: the `agUi` option.
fn first_input(sh: &Shared) -> String {
    let o = &sh.opts.ag_ui;
    let messages = o
        .messages
        .as_deref()
        .and_then(|m| array_items(m).ok())
        .unwrap_or_default();
    let run = o.run_id.clone().unwrap_or_else(uuid);
    RunInput {
        thread_id: &thread(sh),
        run_id: &run,
        state: o.state.as_deref(),
        messages: &messages,
        tools: o.tools.as_deref(),
        context: o.context.as_deref(),
        forwarded_props: o.forwarded_props.as_deref(),
        resume: &[],
    }
    .to_json()
}

/// The next run's input: the thread's messages and latest shared state from the store, the
/// user's new message, the answers to the interrupts.
fn next_input(sh: &Shared, text: Option<&str>, resume: &[ResumeEntry]) -> Result<String, JsValue> {
    let thread = thread(sh);
    let (mut messages, state) = sh
        .store
        .with_session(|s| thread_history(s.store(), &thread))?;
    if let Some(t) = text {
        messages.push(user_message(&uuid(), t));
    }
    let o = &sh.opts.ag_ui;
    Ok(RunInput {
        thread_id: &thread,
        run_id: &uuid(),
        state: state.as_deref().or(o.state.as_deref()),
        messages: &messages,
        tools: o.tools.as_deref(),
        context: o.context.as_deref(),
        forwarded_props: o.forwarded_props.as_deref(),
        resume,
    }
    .to_json())
}

/// Queues a run for the loop, or starts the loop with it when the connection had ended.
fn submit(sh: &Rc<Shared>, call: Call) {
    if sh.running.get() {
        sh.calls.borrow_mut().push_back(call);
        wake(sh);
    } else if let Err(call) = super::restart_with(sh, call) {
        call.settle(Err(js_error(
            "invalid-state",
            "the client is closed: nothing to send the run on",
        )));
    }
}

fn wake(sh: &Shared) {
    if !sh.awaiting_call.get() {
        return;
    }
    let w = sh.wait.try_borrow_mut().ok().and_then(|mut w| w.take());
    if let Some(w) = w {
        w.cancel();
    }
}

/// `sendMessage(text)`: the thread's next run. Rejects with `invalid-state` while interrupts
/// wait for answers (the official client refuses that run too).
pub fn send_message(sh: &Rc<Shared>, text: &str) -> js_sys::Promise {
    let sh = sh.clone();
    let text = text.to_owned();
    future_to_promise(async move {
        let open = pending(&sh);
        if !open.is_empty() {
            let ids: Vec<&str> = open.iter().map(|i| i.id.as_str()).collect();
            return Err(js_error(
                "invalid-state",
                &format!(
                    "Thread has {} pending interrupt(s) not addressed by resume: {} (answer them with respond, approve or deny)",
                    ids.len(),
                    ids.join(",")
                ),
            ));
        }
        let body = next_input(&sh, Some(&text), &[])?;
        let (call, promise) = Call::new(Req::post(body), None);
        submit(&sh, call);
        JsFuture::from(promise).await.map(|_| JsValue::UNDEFINED)
    })
}

/// `true` when `expires_at` (ISO 8601) is now or past.
fn expired(expires_at: Option<&str>) -> bool {
    let Some(at) = expires_at else { return false };
    let ms = js_sys::Date::parse(at);
    !ms.is_nan() && ms <= js_sys::Date::now()
}

/// An answer to interrupt `input_id` (`value`: JSON text; `cancelled`: a `deny`). The promise
/// settles when the resume run carrying every answer was accepted (or refused).
pub async fn answer(
    sh: &Rc<Shared>,
    input_id: &str,
    value: &str,
    cancelled: bool,
) -> Result<(), JsValue> {
    let open = pending(sh);
    let with_id = |e: JsValue| {
        let _ = js_sys::Reflect::set(&e, &"inputId".into(), &JsValue::from_str(input_id));
        e
    };
    let Some(it) = open.iter().find(|i| i.id == input_id) else {
        return Err(with_id(js_error(
            "unknown-input",
            &format!(
                "{} is not a pending interrupt of this thread",
                crate::json::Quoted(input_id)
            ),
        )));
    };
    if !cancelled && expired(it.expires_at.as_deref()) {
        let e = js_error(
            "expired",
            &format!(
                "Interrupt {input_id} expired at {} and can no longer be answered. Cancel it (deny) to continue the thread.",
                it.expires_at.as_deref().unwrap_or_default()
            ),
        );
        return Err(with_id(e));
    }
    let complete = {
        let mut answers = sh.ag_ui.answers.borrow_mut();
        answers.retain(|a| a.interrupt_id != input_id);
        answers.push(ResumeEntry {
            interrupt_id: input_id.to_owned(),
            cancelled,
            payload: (!cancelled).then(|| value.to_owned()),
        });
        let all = open
            .iter()
            .all(|i| answers.iter().any(|a| a.interrupt_id == i.id));
        all.then(|| {
            // In the interrupts' order.
            let taken = std::mem::take(&mut *answers);
            open.iter()
                .filter_map(|i| taken.iter().find(|a| a.interrupt_id == i.id).cloned())
                .collect::<Vec<_>>()
        })
    };
    let Some(entries) = complete else {
        // Waits for the other answers' resume run.
        let mut pair = None;
        let p = js_sys::Promise::new(&mut |res, rej| pair = Some((res, rej)));
        if let Some(pair) = pair {
            sh.ag_ui.waiters.borrow_mut().push(pair);
        }
        return JsFuture::from(p).await.map(|_| ());
    };
    let body = next_input(sh, None, &entries)?;
    let (call, promise) = Call::new(Req::post(body), None);
    submit(sh, call);
    let r = JsFuture::from(promise).await.map(|_| ());
    for (res, rej) in sh.ag_ui.waiters.borrow_mut().drain(..) {
        let _ = match &r {
            Ok(()) => res.call0(&JsValue::NULL),
            Err(e) => rej.call1(&JsValue::NULL, e),
        };
    }
    r
}

/// How one run's POST went.
enum Posted {
    /// The body was read to its end (or it broke off): `reason` says how it ended.
    Read { reason: Option<String> },
    /// The server refused the run (HTTP error, protobuf): the call's promise was rejected, or
    /// (the first run) the connection fails with `code`.
    Refused { code: &'static str, error: JsValue },
    /// `close()`.
    Closed,
}

/// POSTs one run and reads its answer. `call` (a later run) is settled here: accepted once the
/// event stream opened (its interrupts' requests are closed locally then), rejected when
/// refused.
async fn post_run(sh: &Rc<Shared>, body: &str, call: &mut Option<Call>) -> Posted {
    let req = match fetch::request(sh, &sh.opts.url, "POST", Some(body), "", None) {
        Ok(r) => r,
        Err((code, message)) => {
            return Posted::Refused {
                code,
                error: js_error(code, &message),
            }
        }
    };
    let _idle = fetch::idle_watch(sh);
    let resp = match JsFuture::from(fetch_request(&req)).await {
        Ok(r) => r,
        Err(e) => {
            if sh.ended() {
                return Posted::Closed;
            }
            let msg = format!("could not reach {}: {}", sh.opts.url, js_message(&e));
            return Posted::Refused {
                code: "connect-failed",
                error: js_error("send-failed", &msg),
            };
        }
    };
    let Ok(resp) = resp.dyn_into::<web_sys::Response>() else {
        return Posted::Refused {
            code: "internal",
            error: js_error("internal", "fetch did not return a Response"),
        };
    };
    if !resp.ok() {
        let e = fetch::http_error(&resp).await;
        return Posted::Refused {
            code: "http-error",
            error: e,
        };
    }
    let ct = resp.headers().get("content-type").ok().flatten();
    if ct.as_deref().map(str::trim) == Some(PROTO) {
        if let Some(b) = resp.body() {
            let _ = b.cancel();
        }
        let e = js_error(
            "unsupported-framing",
            &format!("the agent answered {PROTO} (AG-UI protobuf framing), which agentwire does not read: serve text/event-stream (the client asks for it with Accept: text/event-stream)"),
        );
        return Posted::Refused {
            code: "unsupported-framing",
            error: e,
        };
    }
    if let Some(c) = call.take() {
        accept(sh, c);
    }
    sh.set_state(OPEN, "receiving the run", None);
    match fetch::read_body(sh, &resp).await {
        Outcome::Closed => Posted::Closed,
        Outcome::Retry { reason, .. } => Posted::Read {
            reason: Some(reason),
        },
        _ => Posted::Read { reason: None },
    }
}

/// The server took run `c`: the interrupts its `resume` answers are closed locally
/// (`input-received`), then forgotten; its promise resolves.
fn accept(sh: &Shared, c: Call) {
    let ids: Vec<String> = parse(&c.req.body)
        .ok()
        .and_then(|v| {
            v.get("resume").and_then(Value::as_array).map(|r| {
                r.iter()
                    .filter_map(|e| e.get("interruptId").and_then(Value::as_str))
                    .map(str::to_owned)
                    .collect()
            })
        })
        .unwrap_or_default();
    for id in &ids {
        mark_answered(sh, id);
    }
    if !ids.is_empty() {
        let _ = sh.store.with_session_mut(|s| {
            if let Some(a) = s.dialect_parts().and_then(|(d, _)| d.ag_ui()) {
                a.clear_interrupts();
            }
        });
    }
    c.settle(Ok(()));
}

/// The run loop: one POST per run, until a run finished with nothing queued, the stream broke
/// off, or the client closed. `first`: the run that restarted an ended connection.
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
        let body = match &next {
            Some(c) => c.req.body.clone(),
            None => first_input(&sh),
        };
        let run_id = parse(&body)
            .ok()
            .and_then(|v| v.get("runId").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_default();
        // A run is a stream of its own; its input joins the thread at its RUN_STARTED.
        let _ = sh.store.with_session_mut(|s| {
            s.begin_new_stream();
            if let (Some(a), Ok(v)) = (s.dialect_parts().and_then(|(d, _)| d.ag_ui()), parse(&body))
            {
                a.set_run_input(&v);
            }
        });
        let posted = post_run(&sh, &body, &mut next).await;
        let broke_off = match posted {
            Posted::Closed => {
                if let Some(c) = next.take() {
                    c.settle(Err(js_error("closed", "the client was closed")));
                }
                return;
            }
            Posted::Refused { code, error } => {
                if let Some(c) = next.take() {
                    c.settle(Err(error));
                } else if first_run {
                    let message = js_sys::Reflect::get(&error, &"message".into())
                        .ok()
                        .and_then(|m| m.as_string())
                        .unwrap_or_default();
                    sh.shutdown(FAILED, &message, Some(code));
                    return;
                }
                None
            }
            Posted::Read { reason } => {
                let (active, seen) = sh
                    .store
                    .with_session_mut(|s| {
                        s.dialect_parts()
                            .and_then(|(d, _)| d.ag_ui())
                            .map(|a| (a.run_active(), a.run_id() == Some(run_id.as_str())))
                    })
                    .ok()
                    .flatten()
                    .unwrap_or((false, false));
                (active || !seen).then(|| {
                    reason.unwrap_or_else(|| "the stream ended before RUN_FINISHED".into())
                })
            }
        };
        first_run = false;
        let _ = sh.store.reset_stream();
        if let Some(c) = take_call(&sh) {
            next = Some(c);
            continue;
        }
        if let Some(reason) = broke_off {
            sh.shutdown(
                FAILED,
                &format!("{reason}: an AG-UI run cannot be resumed (its task stays as it was; sendMessage starts the thread's next run)"),
                Some("interrupted"),
            );
            return;
        }
        if !pending(&sh).is_empty() {
            match wait_for_answers(&sh).await {
                Some(c) => {
                    next = Some(c);
                    continue;
                }
                None => return,
            }
        }
        let _ = sh.store.finish();
        sh.shutdown(CLOSED, "the run finished", None);
        return;
    }
}

fn take_call(sh: &Shared) -> Option<Call> {
    sh.calls.try_borrow_mut().ok()?.pop_front()
}

/// Waits (state `open`) for the run that answers the interrupts (or any queued run).
async fn wait_for_answers(sh: &Rc<Shared>) -> Option<Call> {
    let n = pending(sh).len();
    sh.set_state(
        OPEN,
        &format!("the run ended with {n} interrupt(s): waiting for the answers"),
        None,
    );
    sh.awaiting_call.set(true);
    let next = loop {
        if sh.ended() {
            break None;
        }
        if let Some(c) = take_call(sh) {
            break Some(c);
        }
        wait(&sh.wait, 86_400_000.0, false).await;
    };
    sh.awaiting_call.set(false);
    next
}
