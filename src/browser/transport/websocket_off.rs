//! The WebSocket transport of a build without the `websocket` feature (only MyAgent needs it;
//! `myagent` turns it on): `transport: "websocket"` is refused when the client is created
//! (`invalid-argument`), so a connection never gets here; the items are
//! [`websocket`](super)'s, failing the same way a socket that cannot open does.

use super::{Shared, FAILED};
use crate::browser::error::js_error;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// No socket in this build.
pub enum WsHandle {}

impl Drop for WsHandle {
    fn drop(&mut self) {
        match *self {}
    }
}

/// No socket to send on.
pub fn send_now(_sh: &Shared, _text: &str) -> Result<(), JsValue> {
    Err(js_error("invalid-state", "no open WebSocket to send on"))
}

/// No socket to queue for.
pub fn send_or_queue(_sh: &Shared, _body: &str) -> Result<Option<js_sys::Promise>, JsValue> {
    Err(js_error("invalid-state", "no open WebSocket to send on"))
}

/// The connection fails at once (`connect-failed`).
pub async fn run(sh: Rc<Shared>) {
    sh.shutdown(FAILED, UNAVAILABLE, Some("connect-failed"));
}

pub use crate::browser::options::stream::WEBSOCKET_UNAVAILABLE as UNAVAILABLE;
