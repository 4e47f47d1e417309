//! WebSocket as a transport: every text frame (or UTF-8 binary frame) carries one JSON event;
//! the app sends frames with `client.send()`. Reconnects with the same backoff as fetch when
//! the socket closes before every root task is terminal. (Resume over WebSocket is the
//! dialect's business: myagent's `user.reconnect` with `last_seq`.)

use super::{Shared, CLOSED, CONNECTING, FAILED, OPEN};
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// An open socket and its handlers; dropping it removes the handlers and closes the socket.
pub struct WsHandle {
    /// The socket (for `send`).
    pub socket: web_sys::WebSocket,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_open: Closure<dyn FnMut(web_sys::Event)>,
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

/// How a socket ended: close code, reason, and whether it delivered events.
struct Ended {
    code: u16,
    reason: String,
    delivered: bool,
}

/// The connection loop.
pub async fn run(sh: Rc<Shared>) {
    let mut attempt: u32 = 0;
    sh.set_state(CONNECTING, "connecting", None);
    loop {
        if sh.ended() {
            return;
        }
        let ended = match one_socket(&sh).await {
            Ok(e) => e,
            Err(message) => {
                sh.shutdown(FAILED, &message, Some("connect-failed"));
                return;
            }
        };
        if sh.ended() {
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

async fn one_socket(sh: &Rc<Shared>) -> Result<Ended, String> {
    let protocols = js_sys::Array::new();
    for p in &sh.opts.protocols {
        protocols.push(&JsValue::from_str(p));
    }
    let socket =
        web_sys::WebSocket::new_with_str_sequence(&sh.opts.url, &protocols).map_err(|e| {
            format!(
                "cannot open WebSocket {:?}: {:?}",
                sh.opts.url,
                e.as_string()
            )
        })?;
    socket.set_binary_type(web_sys::BinaryType::Arraybuffer);
    let weak: Weak<Shared> = Rc::downgrade(sh);
    let delivered = Rc::new(std::cell::Cell::new(false));
    let d = delivered.clone();
    let w = weak.clone();
    let on_message: Closure<dyn FnMut(web_sys::MessageEvent)> =
        Closure::new(move |m: web_sys::MessageEvent| {
            let Some(sh) = w.upgrade() else { return };
            let data = m.data();
            let text = match data.as_string() {
                Some(t) => t,
                None => match data.dyn_into::<js_sys::ArrayBuffer>() {
                    Ok(buf) => String::from_utf8_lossy(&js_sys::Uint8Array::new(&buf).to_vec())
                        .into_owned(),
                    Err(_) => return,
                },
            };
            d.set(true);
            let _ = sh.store.push_network(&text);
        });
    socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    let w = weak;
    let on_open: Closure<dyn FnMut(web_sys::Event)> = Closure::new(move |_e: web_sys::Event| {
        if let Some(sh) = w.upgrade() {
            sh.set_state(OPEN, "receiving", None);
        }
    });
    socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    // The close event resolves this promise (its resolve function is the handler itself).
    let mut resolve: Option<js_sys::Function> = None;
    let closed = js_sys::Promise::new(&mut |res, _| resolve = Some(res));
    if let Some(r) = &resolve {
        socket.set_onclose(Some(r));
    }
    if let Ok(mut c) = sh.conn.try_borrow_mut() {
        c.ws = Some(WsHandle {
            socket,
            _on_message: on_message,
            _on_open: on_open,
        });
    }
    let ev = JsFuture::from(closed).await.ok();
    let (code, reason) = ev
        .and_then(|e| e.dyn_into::<web_sys::CloseEvent>().ok())
        .map(|e| (e.code(), e.reason()))
        .unwrap_or((1006, String::new()));
    if let Ok(mut c) = sh.conn.try_borrow_mut() {
        c.ws = None;
    }
    Ok(Ended {
        code,
        reason,
        delivered: delivered.get(),
    })
}
