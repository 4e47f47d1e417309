//! The MyAgent driver of a build without the `myagent` feature: the WebSocket transport carries
//! plain JSON frames, with no session handshake, acks or reconnect by `seq` (the same items as
//! [`myagent`](super), doing nothing).

use super::Shared;

pub use super::socket::{Hello, ACK_EVERY};

/// Never MyAgent in this build.
pub fn may_be_myagent(_sh: &Shared) -> bool {
    false
}

/// No handshake.
pub fn hello(_sh: &Shared, _socket: &web_sys::WebSocket, _h: &Hello) {}

/// No `user.message`.
pub fn first_message(_sh: &Shared, _socket: &web_sys::WebSocket, _h: &Hello) {}

/// No `user.ack`.
pub fn ack(_sh: &Shared, _socket: &web_sys::WebSocket, _min: u64) {}

/// No stand-in for a dropped frame.
pub fn oversized(_sh: &Shared, _bytes: usize, _head: &str, _tail: &str) {}

/// No session to lose.
pub fn session_lost(_sh: &Shared) -> Option<String> {
    None
}

/// No `user.message` to wait for.
pub fn message_unanswered(_sh: &Shared, _ms: f64) -> bool {
    false
}
