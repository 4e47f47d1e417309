//! WebSocket as a transport: every text frame (or UTF-8 binary frame) carries one JSON event;
//! the app sends frames with `client.send()`. Reconnects with the same backoff as fetch when
//! the socket closes before every root task is terminal. (Resume over WebSocket is the
//! dialect's business: myagent's `user.reconnect` with `last_seq`, see [`super::myagent`].)
//! A socket that received no frame (heartbeats count) for `idleTimeoutMs` is stale: it is
//! dropped and a new one opened. Frames the client sends while no socket is open (a MyAgent
//! answer or cancel during a reconnect) wait in order ([`send_or_queue`], at most
//! [`MAX_QUEUED_FRAMES`]) and go out once the next socket is open (for MyAgent, right after its
//! `user.reconnect`); when the connection ends first they are rejected with `closed`.

use super::myagent;
use super::rpc::{Call, Req};
use super::socket::{flush_queued, Hello, ACK_EVERY};
use super::{Shared, CLOSED, CONNECTING, FAILED, OPEN};
use crate::browser::error::js_error;
use crate::browser::global::{monotonic_ms, Interval};
use std::cell::Cell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// An open socket and its handlers; dropping it removes the handlers and closes the socket.
pub struct WsHandle {
    /// The socket (for `send`).
    pub socket: web_sys::WebSocket,
    // `JsValue` arguments: one closure type with the rest of the glue (each type has its shims).
    _on_message: Closure<dyn FnMut(JsValue)>,
    _on_open: Closure<dyn FnMut(JsValue)>,
}

impl Drop for WsHandle {
    fn drop(&mut self) {
        self.socket.set_onmessage(None);
        self.socket.set_onopen(None);
        // onclose stays: it is the resolve function of the loop's wait (no closure), and the
        // close event ends that wait.
        let _ = self.socket.close();
    }
}

/// Sends a text frame on the open WebSocket (`invalid-state` when there is none).
pub fn send_now(sh: &Shared, text: &str) -> Result<(), JsValue> {
    let c = sh.conn.borrow();
    match &c.ws {
        Some(ws) if ws.socket.ready_state() == web_sys::WebSocket::OPEN => {
            ws.socket.send_with_str(text)
        }
        _ => Err(js_error("invalid-state", "no open WebSocket to send on")),
    }
}

/// Frames kept while the socket is down; one more is refused with `invalid-state`.
pub const MAX_QUEUED_FRAMES: usize = 64;

/// Sends `body` on the open socket (`Ok(None)`), or, while the connection is (re)connecting,
/// queues it behind the frames already waiting and returns the promise that settles once it
/// was sent (or rejects with `closed` when the connection ends first).
pub fn send_or_queue(sh: &Shared, body: &str) -> Result<Option<js_sys::Promise>, JsValue> {
    let waiting = sh
        .frames
        .try_borrow()
        .map(|q| !q.is_empty())
        .unwrap_or(true);
    if !waiting {
        if let Ok(c) = sh.conn.try_borrow() {
            if let Some(ws) = c.ws.as_ref() {
                if ws.socket.ready_state() == web_sys::WebSocket::OPEN {
                    return ws.socket.send_with_str(body).map(|_| None);
                }
            }
        }
    }
    if sh.ended() || sh.opts.transport != super::TransportKind::WebSocket {
        return Err(js_error("invalid-state", "no open WebSocket to send on"));
    }
    let Ok(mut q) = sh.frames.try_borrow_mut() else {
        return Err(js_error("invalid-state", "agentwire is busy"));
    };
    if q.len() >= MAX_QUEUED_FRAMES {
        return Err(js_error(
            "invalid-state",
            &format!("{MAX_QUEUED_FRAMES} messages already wait for the WebSocket to reopen"),
        ));
    }
    let (call, promise) = Call::new(Req::post(body.to_owned()), None);
    q.push_back(call);
    Ok(Some(promise))
}

/// How a socket ended: close code, reason, and whether it delivered events.
struct Ended {
    code: u16,
    reason: String,
    delivered: bool,
}

/// The connection loop.
pub async fn run(sh: Rc<Shared>) {
    let mut attempt: u32 = 0;
    let mut first = true;
    sh.set_state(CONNECTING, "connecting", None);
    loop {
        if sh.ended() {
            return;
        }
        let ended = match one_socket(&sh, std::mem::replace(&mut first, false)).await {
            Ok(e) => e,
            Err(message) => {
                sh.shutdown(FAILED, &message, Some("connect-failed"));
                return;
            }
        };
        if sh.ended() {
            return;
        }
        if let Some(why) = myagent::session_lost(&sh) {
            let _ = sh.store.finish();
            sh.shutdown(FAILED, &why, Some("session-lost"));
            return;
        }
        if sh.run_finished() {
            let _ = sh.store.finish();
            sh.shutdown(CLOSED, "the run finished", None);
            return;
        }
        let reason = format!("socket closed ({} {})", ended.code, ended.reason);
        if !sh
            .back_off(&mut attempt, ended.delivered, &reason, None, None)
            .await
        {
            return;
        }
    }
}

/// How far the stream moved the state, diagnostics aside ([`crate::state::Store::state_changes`]):
/// a socket that moved it made progress (it resets the reconnect attempts). Connection frames
/// (MyAgent `system.connected`, `system.error`), heartbeats, replays and invalid frames do not.
fn progress(sh: &Shared) -> u64 {
    sh.store
        .with_session(|s| s.store().state_changes())
        .unwrap_or(0)
}

/// A frame over `maxEventBytes`: its size, and its first and last characters.
type Oversized = (usize, (String, String));

/// A frame's text (a string, or an ArrayBuffer read as UTF-8; `None`: neither), or, over
/// `maxEventBytes`, its size and its first and last characters (the frame is not copied).
fn frame_text(sh: &Shared, data: JsValue) -> Option<Result<String, Oversized>> {
    // maxEventBytes bounds a frame too: a larger one is dropped before it is copied
    // into wasm memory (a string's UTF-16 length is a lower bound of its UTF-8 size).
    let max = sh
        .store
        .with_session(|s| s.max_event_bytes())
        .unwrap_or(usize::MAX);
    // A dropped frame keeps its first and last characters (MyAgent: a dropped final
    // answer ends its turn, see `myagent::oversized`).
    const ENDS: u32 = 512;
    let text = if let Some(s) = data.dyn_ref::<js_sys::JsString>() {
        let units = s.length() as usize;
        let t = (units <= max).then(|| String::from(s));
        let ends = || {
            let n = s.length();
            (
                String::from(s.slice(0, ENDS.min(n))),
                String::from(s.slice(n.saturating_sub(ENDS), n)),
            )
        };
        match t {
            Some(t) if t.len() <= max => Ok(t),
            Some(t) => Err((t.len(), ends())),
            None => Err((units, ends())),
        }
    } else {
        match data.dyn_into::<js_sys::ArrayBuffer>() {
            Ok(buf) if buf.byte_length() as usize > max => {
                let n = buf.byte_length();
                let part = |from: u32, len: u32| {
                    let b = js_sys::Uint8Array::new_with_byte_offset_and_length(&buf, from, len);
                    String::from_utf8_lossy(&b.to_vec()).into_owned()
                };
                let k = ENDS.min(n);
                Err((n as usize, (part(0, k), part(n - k, k))))
            }
            Ok(buf) => {
                Ok(String::from_utf8_lossy(&js_sys::Uint8Array::new(&buf).to_vec()).into_owned())
            }
            Err(_) => return None,
        }
    };
    Some(text)
}

/// How a socket ended: the close event's code and reason, or 4000 and why it was dropped as
/// stale (`unanswered`: MyAgent's user.message had no run event).
fn close_reason(unanswered: bool, stale: bool, idle_ms: f64, ev: Option<JsValue>) -> (u16, String) {
    if unanswered {
        (
            4000,
            format!(
                "stale: no run event for {} ms after user.message (the server may have lost it: sent again after the reconnect)",
                crate::json::Num(idle_ms)
            ),
        )
    } else if stale {
        (
            4000,
            format!(
                "stale: no frame (no heartbeat) for {} ms",
                crate::json::Num(idle_ms)
            ),
        )
    } else {
        ev.and_then(|e| e.dyn_into::<web_sys::CloseEvent>().ok())
            .map(|e| (e.code(), e.reason()))
            .unwrap_or((1006, String::new()))
    }
}

async fn one_socket(sh: &Rc<Shared>, first: bool) -> Result<Ended, String> {
    let before = progress(sh);
    let protocols = js_sys::Array::new();
    for p in &sh.opts.protocols {
        protocols.push(&JsValue::from_str(p));
    }
    let socket =
        web_sys::WebSocket::new_with_str_sequence(&sh.opts.url, &protocols).map_err(|e| {
            format!(
                "cannot open WebSocket {}: {}",
                crate::json::Quoted(&sh.opts.url),
                super::fetch::js_message(&e)
            )
        })?;
    socket.set_binary_type(web_sys::BinaryType::Arraybuffer);
    let weak: Weak<Shared> = Rc::downgrade(sh);
    let delivered = Rc::new(Cell::new(false));
    let hello = Rc::new(Hello::new(first));
    let myagent = myagent::may_be_myagent(sh);
    if let Ok(mut c) = sh.conn.try_borrow_mut() {
        c.last_bytes_ms = monotonic_ms();
    }
    let d = delivered.clone();
    let w = weak.clone();
    let hl = hello.clone();
    let sock = socket.clone();
    let on_message: Closure<dyn FnMut(JsValue)> = Closure::new(move |m: JsValue| {
        let m: web_sys::MessageEvent = m.unchecked_into();
        let Some(sh) = w.upgrade() else { return };
        let Some(text) = frame_text(&sh, m.data()) else {
            return;
        };
        d.set(true);
        if let Ok(mut c) = sh.conn.try_borrow_mut() {
            c.last_bytes_ms = monotonic_ms();
        }
        let text = match text {
            Ok(t) => t,
            Err((bytes, (head, tail))) => {
                let _ = sh.store.frame_too_large(bytes);
                if myagent {
                    myagent::oversized(&sh, bytes, &head, &tail);
                }
                return;
            }
        };
        let _ = sh.push(&text);
        if myagent && myagent::session_lost(&sh).is_some() {
            // The server forgot the session: nothing more comes for this client (the
            // loop ends the connection `failed` once this socket closed).
            let _ = sock.close_with_code_and_reason(1000, "session lost");
            return;
        }
        if myagent {
            myagent::hello(&sh, &sock, &hl);
            myagent::first_message(&sh, &sock, &hl);
            myagent::ack(&sh, &sock, ACK_EVERY);
        }
    });
    socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    let w = weak.clone();
    let hl = hello.clone();
    let sock = socket.clone();
    let on_open: Closure<dyn FnMut(JsValue)> = Closure::new(move |_e: JsValue| {
        if let Some(sh) = w.upgrade() {
            if let Ok(mut c) = sh.conn.try_borrow_mut() {
                c.last_bytes_ms = monotonic_ms();
            }
            sh.set_state(OPEN, "receiving", None);
            if myagent {
                // Queued frames follow the handshake (MyAgent: the server must know the
                // session again before an answer means anything).
                myagent::hello(&sh, &sock, &hl);
            } else {
                flush_queued(&sh, &sock);
            }
        }
    });
    socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    // The close event resolves this promise (its resolve function is the handler itself); a
    // stale socket resolves it too, without waiting for the closing handshake.
    let mut resolve: Option<js_sys::Function> = None;
    let closed = js_sys::Promise::new(&mut |res, _| resolve = Some(res));
    if let Some(r) = &resolve {
        socket.set_onclose(Some(r));
    }
    let stale = Rc::new(Cell::new(false));
    let unanswered = Rc::new(Cell::new(false));
    let idle_ms = sh.opts.idle_timeout_ms;
    let _idle = (idle_ms > 0.0).then(|| {
        let w = weak.clone();
        let stale = stale.clone();
        let unanswered = unanswered.clone();
        let resolve = resolve.clone();
        Interval::new((idle_ms / 4.0).max(50.0), move || {
            let Some(sh) = w.upgrade() else { return };
            let last = sh.conn.try_borrow().map(|c| c.last_bytes_ms).unwrap_or(0.0);
            // MyAgent: heartbeats but nothing for the user.message sent: the server may
            // have lost it; the next socket's user.reconnect sends it again.
            let lost = myagent && myagent::message_unanswered(&sh, idle_ms);
            if !stale.get() && (monotonic_ms() - last >= idle_ms || lost) {
                unanswered.set(lost);
                stale.set(true);
                if let Some(r) = &resolve {
                    let _ = r.call0(&JsValue::NULL);
                }
            }
        })
    });
    let _acks = (myagent && sh.opts.ack_interval_ms > 0.0).then(|| {
        let w = weak;
        let sock = socket.clone();
        Interval::new(sh.opts.ack_interval_ms, move || {
            if let Some(sh) = w.upgrade() {
                myagent::ack(&sh, &sock, 1);
            }
        })
    });
    if let Ok(mut c) = sh.conn.try_borrow_mut() {
        c.ws = Some(WsHandle {
            socket,
            _on_message: on_message,
            _on_open: on_open,
        });
    }
    let ev = JsFuture::from(closed).await.ok();
    let (code, reason) = close_reason(unanswered.get(), stale.get(), idle_ms, ev);
    if let Ok(mut c) = sh.conn.try_borrow_mut() {
        // Dropping the handle removes the handlers and closes a stale socket.
        c.ws = None;
    }
    Ok(Ended {
        code,
        reason,
        delivered: delivered.get() && progress(sh) != before,
    })
}
