//! MyAgent (seed 004) on the WebSocket transport: the session handshake, batched acks, and
//! the reconnect that resumes after the last applied `seq`.
//!
//! - Once the stream is known to be MyAgent (at open with `dialect: "myagent"`, after the first
//!   frame with `"auto"`), the first socket sends `user.create_session` (the `session` option)
//!   and every later socket `user.reconnect` with the session id and `last_seq`, so the server
//!   replays what was missed; replayed events (`seq` already applied) are ignored by the decoder.
//! - `user.ack` with `last_seq` goes out every `ackIntervalMs` (default 250) when events arrived
//!   since the last one, and at once after [`ACK_EVERY`] unacknowledged events.
//! - `system.heartbeat` frames are liveness only: the socket's idle timer (`idleTimeoutMs`)
//!   counts every frame, so missing heartbeats mark the socket stale and it reconnects.

use super::Shared;
use crate::dialects::{respond, Dialect};
use crate::json::parse;

pub use super::socket::{Hello, ACK_EVERY};

/// `true` when the stream is (or may turn out to be) MyAgent.
pub fn may_be_myagent(sh: &Shared) -> bool {
    match sh.opts.dialect {
        crate::dialects::DialectChoice::Auto => true,
        crate::dialects::DialectChoice::Fixed(d) => d == Dialect::MyAgent,
    }
}

/// Sends the handshake once the stream is known to be MyAgent (once per socket).
pub fn hello(sh: &Shared, socket: &web_sys::WebSocket, h: &Hello) {
    if h.sent.get() || sh.dialect() != Some(Dialect::MyAgent) {
        return;
    }
    let (content, metadata) = &sh.opts.session;
    let body = sh.store.with_session_mut(|s| {
        let (dec, _) = s.dialect_parts()?;
        if !h.first {
            if let Ok(o) = respond::resume(dec) {
                // Answers sent since the server's last run event may have died with the old
                // socket: they follow the reconnect (a server that read them says so).
                let again = dec.myagent().map(|m| m.unconfirmed().to_vec());
                return Some((o.body, again.unwrap_or_default()));
            }
        }
        let content = content.as_deref().and_then(|c| parse(c).ok());
        let metadata = metadata.as_deref().and_then(|m| parse(m).ok());
        Some((
            respond::create_session(content.as_ref(), metadata.as_ref()).body,
            Vec::new(),
        ))
    });
    if let Ok(Some((body, again))) = body {
        if socket.send_with_str(&body).is_ok() {
            h.sent.set(true);
            if !again.is_empty() {
                sh.message_at.set(crate::browser::global::monotonic_ms());
            }
            for a in again {
                let _ = socket.send_with_str(&a);
            }
            // What the app sent while the socket was down (answers, cancel), in order.
            super::socket::flush_queued(sh, socket);
        }
    }
}

/// Sends the `message` option as `user.message` once the server named the session (the run
/// starts with it): once per client, on the first socket that got that far (an earlier one
/// may have failed before).
pub fn first_message(sh: &Shared, socket: &web_sys::WebSocket, h: &Hello) {
    if sh.message_sent.get() || !h.sent.get() {
        return;
    }
    let Some(text) = sh.opts.message.as_ref().and_then(|m| m.text.as_deref()) else {
        sh.message_sent.set(true);
        return;
    };
    let body = sh.store.with_session_mut(|s| {
        let (dec, _) = s.dialect_parts()?;
        respond::send_message(dec, text, None, None).ok()
    });
    if let Ok(Some(out)) = body {
        if socket.send_with_str(&out.body).is_ok() {
            sh.message_sent.set(true);
            sh.message_at.set(crate::browser::global::monotonic_ms());
            // Until the server's first run event, the message may have died with the socket
            // (or been lost): a `user.reconnect` sends it again, as it does an answer.
            let _ = sh.store.with_session_mut(|s| {
                if let Some(m) = s.dialect_parts().and_then(|(d, _)| d.myagent()) {
                    m.note_unconfirmed(&out.body);
                }
            });
        }
    }
}

/// A frame of `bytes` bytes was dropped for being over `maxEventBytes`; `head` and `tail` are
/// its first and last characters. A dropped `agent.final_answer` is replaced by the event
/// that ends its turn `failed` with the reason ([`crate::dialects::myagent::oversized_stand_in`]).
pub fn oversized(sh: &Shared, bytes: usize, head: &str, tail: &str) {
    if sh.dialect() != Some(Dialect::MyAgent) {
        return;
    }
    let limit = sh
        .store
        .with_session(|s| s.max_event_bytes())
        .unwrap_or(usize::MAX);
    if let Some(e) = crate::dialects::myagent::oversized_stand_in(bytes, limit, head, tail) {
        let _ = sh.push(&e);
    }
}

/// Why the server no longer knows the client's session (`SESSION_NOT_FOUND`), once it said so.
pub fn session_lost(sh: &Shared) -> Option<String> {
    sh.store
        .with_session_mut(|s| {
            let (d, _) = s.dialect_parts()?;
            d.myagent()?.session_lost().map(str::to_owned)
        })
        .ok()
        .flatten()
}

/// Sends `user.ack` when at least `min` events arrived since the last one.
pub fn ack(sh: &Shared, socket: &web_sys::WebSocket, min: u64) {
    if socket.ready_state() != web_sys::WebSocket::OPEN {
        return;
    }
    let body = sh.store.with_session_mut(|s| {
        let (dec, _) = s.dialect_parts()?;
        respond::ack(dec, min).map(|o| o.body)
    });
    if let Ok(Some(body)) = body {
        let _ = socket.send_with_str(&body);
    }
}

/// A `user.message` went out (or again) and no run event followed for `ms` milliseconds, while
/// frames (heartbeats) kept coming: the server may have lost it.
pub fn message_unanswered(sh: &Shared, ms: f64) -> bool {
    let waiting = sh
        .store
        .with_session_mut(|s| {
            let (d, _) = s.dialect_parts()?;
            Some(d.myagent()?.message_unconfirmed())
        })
        .ok()
        .flatten()
        .unwrap_or(false);
    waiting && crate::browser::global::monotonic_ms() - sh.message_at.get() >= ms
}
