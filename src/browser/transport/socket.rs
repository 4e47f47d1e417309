//! What the WebSocket loop ([`super::websocket`]) and MyAgent's session ([`super::myagent`])
//! share: a socket's handshake state, the ack threshold, and sending the frames queued while no
//! socket was open.

use super::Shared;
use std::cell::Cell;

/// Sends the queued frames on `socket`, now open, in order; each one's promise resolves once
/// it went out. A send that fails leaves it and those after it queued for the next socket.
pub fn flush_queued(sh: &Shared, socket: &web_sys::WebSocket) {
    loop {
        if socket.ready_state() != web_sys::WebSocket::OPEN {
            return;
        }
        let next = match sh.frames.try_borrow_mut() {
            Ok(mut q) => q.pop_front(),
            Err(_) => return,
        };
        let Some(call) = next else { return };
        if socket.send_with_str(&call.req.body).is_err() {
            if let Ok(mut q) = sh.frames.try_borrow_mut() {
                q.push_front(call);
            }
            return;
        }
        call.settle(Ok(()));
    }
}

/// Unacknowledged events after which MyAgent's `user.ack` is sent without waiting for the timer.
pub const ACK_EVERY: u64 = 64;

/// One socket's handshake state.
pub struct Hello {
    /// `user.create_session` / `user.reconnect` went out on this socket.
    pub sent: Cell<bool>,
    /// The first socket of the client (later ones reconnect).
    pub first: bool,
}

impl Hello {
    /// The state of a new socket.
    pub fn new(first: bool) -> Hello {
        Hello {
            sent: Cell::new(false),
            first,
        }
    }
}
