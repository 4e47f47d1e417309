//! The A2A driver: how an A2A conversation opens (the agent card, the first message), resumes
//! (`tasks/resubscribe` / `SubscribeToTask`, or `GetTask` when the task ended meanwhile), waits
//! for an answer, and when its stream's task is still to come. The fetch loop asks it; the
//! requests are written by [`crate::dialects::respond`] in the stream's version and binding.
//! (A build without the `a2a` feature has [`a2a_off`](super) instead: nothing to open, resume or
//! wait for.)

use super::rpc::{post, push_reply, rpc_error, Reply, Req};
use super::Shared;
use crate::browser::global::fetch_request;
use crate::client::agent_card;
use crate::dialects::a2a::request::UserMessage;
use crate::dialects::respond::{self, A2aCall};
use crate::dialects::DialectDecoder;
use crate::json::parse;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

pub use resolve_card as prepare;

/// Sets how the A2A decoder writes the client's requests: the version and binding of the
/// options, or of the agent card once read.
pub fn wire_a2a(sh: &Shared, dec: &mut DialectDecoder) {
    if let Some(a) = dec.a2a() {
        let (version, binding) = sh.a2a_wire();
        a.set_wire(version, binding);
        let card = sh.card.borrow();
        a.set_tenant(card.as_ref().and_then(|i| i.tenant.as_deref()));
    }
}

/// The first `message/stream` / `SendStreamingMessage` (the `message` option), registering its
/// request id. `None` without a `message` option; `Err` when the stream is not A2A.
pub fn first_message(sh: &Shared) -> Option<Result<Req, String>> {
    let m = sh.opts.message.as_ref()?;
    let built = sh.store.with_session_mut(|s| {
        let (dec, _) = s
            .dialect_parts()
            .ok_or("the message option needs dialect \"a2a\"")?;
        wire_a2a(sh, dec);
        let mid = dec.next_message_id();
        let a = dec
            .a2a()
            .ok_or("the message option needs dialect \"a2a\"")?;
        let data = m.data.as_deref().and_then(|d| parse(d).ok());
        let metadata = m.metadata.as_deref().and_then(|d| parse(d).ok());
        let msg = UserMessage {
            message_id: &mid,
            text: m.text.as_deref(),
            data: data.as_ref(),
            context_id: m.context_id.as_deref(),
            task_id: m.task_id.as_deref(),
            metadata: metadata.as_ref(),
        };
        let req = Req::from(&respond::a2a_request(a, A2aCall::Send(&msg)));
        if let Some(text) = m.text.as_deref() {
            a.note_user_message(&mid, text);
        }
        Ok(req)
    });
    Some(built.unwrap_or_else(|_| Err("the store is closed".to_owned())))
}

/// The request that resumes the stream's task (`tasks/resubscribe`, `SubscribeToTask`), when
/// there is one.
pub fn resubscribe(sh: &Shared) -> Option<Req> {
    sh.store
        .with_session_mut(|s| {
            let (dec, _) = s.dialect_parts()?;
            wire_a2a(sh, dec);
            respond::resume(dec).ok().map(|o| Req::from(&o))
        })
        .ok()
        .flatten()
}

/// A2A v1.0: a `SubscribeToTask` refused because its task ended while the client was away
/// (`UNSUPPORTED_OPERATION`: the official servers subscribe to live tasks only), or an answer
/// (`SendStreamingMessage` on a waiting task) refused because the task ended meanwhile (the same
/// error: a terminal task "cannot be modified"), is followed by a `GetTask`, whose task goes
/// into the stream: the run ends as the server ended it (its open requests expire). `true` when
/// that reply went in.
pub async fn read_ended_task(sh: &Shared, refusal: &str) -> bool {
    if !crate::json::contains_str(refusal, "UNSUPPORTED_OPERATION") {
        return false;
    }
    let last = sh
        .store
        .with_session_mut(|s| match s.dialect_parts()?.0.a2a()?.last_request()? {
            ("SubscribeToTask", Some(t)) => Some((t.to_owned(), true)),
            ("SendStreamingMessage", Some(t)) => Some((t.to_owned(), false)),
            _ => None,
        })
        .ok()
        .flatten();
    let Some((task, resumed)) = last else {
        return false;
    };
    if !get_task(sh, &task).await {
        return false;
    }
    if !resumed {
        // An answer's refusal: no stream broke off, nothing else was lost.
        return true;
    }
    // The other tasks of the stream (sub-agents) that had not ended when it broke off: their
    // last events were lost with it.
    let others = sh
        .store
        .with_session_mut(|s| {
            s.dialect_parts()
                .and_then(|(d, _)| d.a2a())
                .map(|a| a.open_tasks(MAX_TASKS_READ))
        })
        .ok()
        .flatten()
        .unwrap_or_default();
    for t in others.iter().filter(|t| **t != task) {
        get_task(sh, t).await;
    }
    true
}

/// Tasks read with `GetTask` after a stream broke off and its task ended meanwhile.
const MAX_TASKS_READ: usize = 32;

/// Sends `GetTask` for `task` and feeds the task into the stream; `true` when it went in.
async fn get_task(sh: &Shared, task: &str) -> bool {
    let req = sh
        .store
        .with_session_mut(|s| {
            let (dec, _) = s.dialect_parts()?;
            wire_a2a(sh, dec);
            let a = dec.a2a()?;
            Some(Req::from(&respond::a2a_request(a, A2aCall::Get(task))))
        })
        .ok()
        .flatten();
    let Some(req) = req else {
        return false;
    };
    match post(sh, &sh.rpc_url(), &req).await {
        Ok(Reply {
            json: Some(json), ..
        }) if rpc_error(&json).is_none() => push_reply(sh, &json),
        _ => false,
    }
}

/// The A2A stream's task waits for the user (`input-required` / `auth-required`, not answered
/// yet): its stream ended on purpose, the next one is the answer's.
pub fn waiting_for_answer(sh: &Shared) -> bool {
    sh.store
        .with_session_mut(|s| {
            let (dec, _) = s.dialect_parts()?;
            let a = dec.a2a()?;
            let task = a.stream_task()?.to_owned();
            Some(a.awaits_answer(&task))
        })
        .ok()
        .flatten()
        .unwrap_or(false)
}

/// `true` while a `message/stream` for a new task was sent and its stream named no task yet
/// (the run is not finished: its task is still to come).
pub fn awaits_stream_task(sh: &Shared) -> bool {
    sh.store
        .with_session_mut(|s| {
            let (dec, _) = s.dialect_parts()?;
            Some(dec.a2a()?.awaits_stream_task())
        })
        .ok()
        .flatten()
        .unwrap_or(false)
}

/// The call's `message/stream` was refused or never reached the server: no new task comes.
pub fn stream_not_opened(sh: &Shared) {
    let _ = sh.store.with_session_mut(|s| {
        if let Some(a) = s.dialect_parts().and_then(|(d, _)| d.a2a()) {
            a.stream_not_opened();
        }
    });
}

/// Reads the agent card (once per client) and keeps the interface it names. `Err((code,
/// message))` when it cannot be read or offers nothing agentwire speaks.
pub async fn resolve_card(sh: &Shared) -> Result<(), (&'static str, String)> {
    let Some(card_url) = sh.opts.a2a.agent_card.clone() else {
        return Ok(());
    };
    if sh.card.borrow().is_some() {
        return Ok(());
    }
    let fail = |m: String| ("agent-card", m);
    let init = web_sys::RequestInit::new();
    init.set_method("GET");
    let headers = web_sys::Headers::new().map_err(|_| fail("no Headers".into()))?;
    let _ = headers.set("Accept", "application/json");
    for (k, v) in &sh.opts.headers {
        let _ = headers.set(k, v);
    }
    init.set_headers(&headers);
    if sh.opts.credentials.as_deref() == Some("include") {
        init.set_credentials(web_sys::RequestCredentials::Include);
    }
    let req = web_sys::Request::new_with_str_and_init(&card_url, &init).map_err(|_| {
        fail(format!(
            "bad agentCard URL {}",
            crate::json::Quoted(&card_url)
        ))
    })?;
    let resp = JsFuture::from(fetch_request(&req))
        .await
        .map_err(|_| fail(format!("could not read the agent card at {card_url}")))?;
    let resp: web_sys::Response = resp.unchecked_into();
    if !resp.ok() {
        return Err(fail(format!(
            "the agent card at {card_url} answered HTTP {}",
            resp.status()
        )));
    }
    let text = match resp.text() {
        Ok(p) => JsFuture::from(p).await.ok().and_then(|t| t.as_string()),
        Err(_) => None,
    }
    .ok_or_else(|| fail(format!("the agent card at {card_url} broke off")))?;
    let mut iface = agent_card::pick(&text, Some(sh.opts.a2a.binding))
        .map_err(|m| fail(format!("{card_url}: {m}")))?;
    // A relative interface URL is relative to the card, whose URL may be relative to the page
    // (or the worker's script) itself.
    let card_abs = page_url()
        .and_then(|base| web_sys::Url::new_with_base(&card_url, &base).ok())
        .map_or(card_url.clone(), |u| u.href());
    if let Ok(u) = web_sys::Url::new_with_base(&iface.url, &card_abs) {
        iface.url = u.href();
    }
    *sh.card.borrow_mut() = Some(iface);
    Ok(())
}

/// `location.href` of the page or worker, when it has one.
fn page_url() -> Option<String> {
    let location = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("location")).ok()?;
    js_sys::Reflect::get(&location, &JsValue::from_str("href"))
        .ok()?
        .as_string()
}
