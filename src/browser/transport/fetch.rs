//! fetch + `ReadableStream` SSE, the default transport.
//!
//! One attempt = one request. A GET stream resumes by repeating the request with
//! `Last-Event-ID`; a POSTed stream is never re-sent: it resumes only through the configured
//! resume request (a GET), and without one an interruption fails with code `interrupted`.
//! A clean end of stream before every root task is terminal counts as an interruption.

use super::{Shared, CLOSED, CONNECTING, FAILED, OPEN};
use crate::browser::global::{fetch_request, now_ms, Interval};
use crate::client::reconnect::{classify_response, ResponseVerdict};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// How one attempt ended.
enum Outcome {
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
    /// `close()` was called.
    Closed,
}

fn js_message(e: &JsValue) -> String {
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
    let init = web_sys::RequestInit::new();
    init.set_method(&method);
    let headers = web_sys::Headers::new().map_err(|e| ("invalid-argument", js_message(&e)))?;
    let _ = headers.set("Accept", "text/event-stream");
    for (k, v) in &o.headers {
        headers.set(k, v).map_err(|e| {
            (
                "invalid-argument",
                format!("header {k:?}: {}", js_message(&e)),
            )
        })?;
    }
    if let Some(b) = &body {
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
    web_sys::Request::new_with_str_and_init(&url, &init).map_err(|e| {
        (
            "invalid-argument",
            format!("bad stream request: {}", js_message(&e)),
        )
    })
}

/// The connection loop: attempts with backoff until finished, stopped, failed or closed.
pub async fn run(sh: Rc<Shared>) {
    let is_post = !sh.opts.method.eq_ignore_ascii_case("GET");
    let mut resumed = false;
    let mut opened_once = false;
    let mut attempt: u32 = 0;
    sh.set_state(CONNECTING, "connecting", None);
    loop {
        if sh.ended() {
            return;
        }
        let last_id = sh.store.last_event_id().unwrap_or_default();
        let outcome = match build_request(&sh, resumed, &last_id) {
            Err((code, message)) => Outcome::Fail { code, message },
            Ok(req) => attempt_once(&sh, &req, &mut opened_once).await,
        };
        if sh.ended() {
            return;
        }
        match outcome {
            Outcome::Closed => return,
            Outcome::Finished => {
                let _ = sh.store.finish();
                sh.shutdown(CLOSED, "the run finished", None);
                return;
            }
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
            Outcome::Retry {
                reason,
                retry_after_ms,
                delivered,
            } => {
                if is_post && (!opened_once || sh.opts.resume.is_none()) {
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
                    return;
                }
                let _ = sh.store.reset_stream();
                let server_retry = sh.store.retry().ok().flatten();
                if !sh
                    .back_off(
                        &mut attempt,
                        delivered,
                        &reason,
                        server_retry,
                        retry_after_ms,
                    )
                    .await
                {
                    return;
                }
                resumed = true;
            }
        }
    }
}

async fn attempt_once(sh: &Rc<Shared>, req: &web_sys::Request, opened_once: &mut bool) -> Outcome {
    let resp = match JsFuture::from(fetch_request(req)).await {
        Ok(r) => r,
        Err(e) => {
            if sh.ended() {
                return Outcome::Closed;
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
    match classify_response(
        resp.status(),
        ct.as_deref(),
        retry_after.as_deref(),
        now_ms(),
    ) {
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
            {
                let mut c = sh.conn.borrow_mut();
                if c.first_headers.is_none() {
                    c.first_headers = Some(headers);
                }
            }
            *opened_once = true;
            sh.set_state(OPEN, "receiving", None);
            read_body(sh, &resp).await
        }
    }
}

async fn read_body(sh: &Rc<Shared>, resp: &web_sys::Response) -> Outcome {
    let Some(body) = resp.body() else {
        return Outcome::Retry {
            reason: "the response has no body".into(),
            retry_after_ms: None,
            delivered: false,
        };
    };
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let idle_ms = sh.opts.idle_timeout_ms;
    {
        let mut c = sh.conn.borrow_mut();
        c.last_bytes_ms = now_ms();
        c.idle_fired = false;
    }
    // Idle detection: one interval per attempt, dropped (cleared) when the attempt ends.
    let _idle = (idle_ms > 0.0).then(|| {
        let weak = Rc::downgrade(sh);
        Interval::new((idle_ms / 4.0).max(50.0), move || {
            let Some(sh) = weak.upgrade() else { return };
            let Ok(mut c) = sh.conn.try_borrow_mut() else {
                return;
            };
            if !c.idle_fired && now_ms() - c.last_bytes_ms >= idle_ms {
                c.idle_fired = true;
                if let Some(a) = c.abort.take() {
                    a.abort();
                }
            }
        })
    });
    let mut buf: Vec<u8> = Vec::new();
    let mut delivered = false;
    let done_key = JsValue::from_str("done");
    let value_key = JsValue::from_str("value");
    loop {
        let item = match JsFuture::from(reader.read()).await {
            Ok(item) => item,
            Err(e) => {
                if sh.ended() {
                    return Outcome::Closed;
                }
                let idle = sh.conn.borrow().idle_fired;
                let reason = if idle {
                    format!("no data for {idle_ms} ms (idle timeout)")
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
        let len = chunk.length() as usize;
        buf.clear();
        buf.resize(len, 0);
        chunk.copy_to(&mut buf);
        if let Ok(mut c) = sh.conn.try_borrow_mut() {
            c.last_bytes_ms = now_ms();
        }
        match sh.store.feed_network(&buf) {
            Ok(n) => delivered |= n > 0,
            Err(_) => return Outcome::Closed,
        }
        if sh.ended() {
            let _ = reader.cancel();
            return Outcome::Closed;
        }
    }
}
