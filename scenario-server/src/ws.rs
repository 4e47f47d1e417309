//! WebSocket (RFC 6455) for the scenario server: the upgrade handshake, and a small framed
//! connection (text/binary/ping/pong/close; client frames must be masked, fragments are
//! reassembled, frames over 1 MiB close the socket with 1009).
//!
//! `GET /api/ws?scenario=&seed=&speed=&run=&from=N` streams a run's protocol-000 events, one JSON
//! event per text frame, from event `from` (default 0; a reconnect passes the count it already
//! has), then closes with 1000 when the run finished. Text frames from the client are answered
//! only when they are `{"type":"ping"}` (→ `{"type":"pong"}`); the dialect endpoints build on
//! [`WsConn`].

use crate::run::Run;
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

/// The largest client message accepted.
pub const MAX_MESSAGE: usize = 1 << 20;

/// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key`.
pub fn accept_key(key: &str) -> String {
    let mut h = sha1_smol::Sha1::new();
    h.update(key.trim().as_bytes());
    h.update(b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11");
    crate::util::base64(&h.digest().bytes())
}

/// The 101 response for a valid upgrade request, or `None` when it is not one.
pub fn upgrade_response<B: Default>(req: &Request<Incoming>) -> Option<Response<B>> {
    let h = req.headers();
    let is_ws = h
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    let key = h.get("sec-websocket-key").and_then(|v| v.to_str().ok())?;
    if !is_ws {
        return None;
    }
    let mut r = Response::new(B::default());
    *r.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let rh = r.headers_mut();
    rh.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    rh.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
    if let Ok(v) = HeaderValue::from_str(&accept_key(key)) {
        rh.insert("sec-websocket-accept", v);
    }
    if let Some(p) = h
        .get("sec-websocket-protocol")
        .and_then(|v| v.to_str().ok())
    {
        if let Some(first) = p.split(',').next().map(str::trim).filter(|s| !s.is_empty()) {
            if let Ok(v) = HeaderValue::from_str(first) {
                rh.insert("sec-websocket-protocol", v);
            }
        }
    }
    Some(r)
}

/// A message from the client.
#[derive(Debug, PartialEq, Eq)]
pub enum Message {
    /// A text message (valid UTF-8).
    Text(String),
    /// A binary message.
    Binary(Vec<u8>),
    /// The client closed (code, when given).
    Close(Option<u16>),
}

/// Appends one unmasked (server) frame.
fn encode_frame(head: &mut Vec<u8>, opcode: u8, payload: &[u8]) {
    head.push(0x80 | opcode);
    match payload.len() {
        n if n < 126 => head.push(n as u8),
        n if n <= 0xffff => {
            head.push(126);
            head.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            head.push(127);
            head.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    head.extend_from_slice(payload);
}

/// One upgraded connection.
pub struct WsConn {
    io: TokioIo<hyper::upgrade::Upgraded>,
}

impl WsConn {
    /// Wraps an upgraded connection.
    pub fn new(up: hyper::upgrade::Upgraded) -> WsConn {
        WsConn {
            io: TokioIo::new(up),
        }
    }

    async fn frame(&mut self, opcode: u8, payload: &[u8]) -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(payload.len() + 10);
        encode_frame(&mut buf, opcode, payload);
        self.io.write_all(&buf).await?;
        self.io.flush().await
    }

    /// Sends several text frames with one write.
    pub async fn send_texts<'a>(
        &mut self,
        texts: impl Iterator<Item = &'a str>,
    ) -> std::io::Result<()> {
        let mut buf = Vec::new();
        for t in texts {
            encode_frame(&mut buf, 0x1, t.as_bytes());
        }
        self.io.write_all(&buf).await?;
        self.io.flush().await
    }

    /// Sends a text frame.
    pub async fn send_text(&mut self, text: &str) -> std::io::Result<()> {
        self.frame(0x1, text.as_bytes()).await
    }

    /// Sends a close frame with `code` and `reason`.
    pub async fn close(&mut self, code: u16, reason: &str) -> std::io::Result<()> {
        let mut p = code.to_be_bytes().to_vec();
        p.extend_from_slice(&reason.as_bytes()[..reason.len().min(120)]);
        self.frame(0x8, &p).await
    }

    /// Reads the next message (pings are answered here). `Ok(None)` at end of stream.
    pub async fn read(&mut self) -> std::io::Result<Option<Message>> {
        let mut partial = Partial::default();
        loop {
            match read_next(&mut self.io, &mut partial).await? {
                Frame::Message(Message::Close(code)) => {
                    let echo = code.map(u16::to_be_bytes);
                    let _ = self
                        .frame(0x8, echo.as_ref().map_or(&[][..], |c| &c[..]))
                        .await;
                    return Ok(Some(Message::Close(code)));
                }
                Frame::Message(m) => return Ok(Some(m)),
                Frame::Ping(p) => self.frame(0xA, &p).await?,
                Frame::Violation(code, reason) => {
                    let _ = self.close(code, reason).await;
                    return Ok(None);
                }
                Frame::Eof => return Ok(None),
            }
        }
    }

    /// The upgraded connection (to split it into a reader and a writer).
    pub fn into_io(self) -> TokioIo<hyper::upgrade::Upgraded> {
        self.io
    }
}

/// A data message being reassembled from fragments.
#[derive(Default)]
pub struct Partial {
    msg: Vec<u8>,
    op: u8,
}

/// What [`read_next`] read.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// A complete message (a close included: the caller echoes it).
    Message(Message),
    /// A ping with its payload (the caller answers with a pong).
    Ping(Vec<u8>),
    /// A protocol violation: the caller closes with this code and reason.
    Violation(u16, &'static str),
    /// End of stream.
    Eof,
}

/// Reads frames from `rd` until something the caller must act on: a complete message, a
/// ping, a violation or the end of the stream (pongs are skipped). Fragments accumulate in
/// `partial`.
pub async fn read_next<R: AsyncRead + Unpin>(
    rd: &mut R,
    partial: &mut Partial,
) -> std::io::Result<Frame> {
    loop {
        let mut h = [0u8; 2];
        if rd.read_exact(&mut h).await.is_err() {
            return Ok(Frame::Eof);
        }
        let fin = h[0] & 0x80 != 0;
        let op = h[0] & 0x0f;
        let masked = h[1] & 0x80 != 0;
        let mut len = (h[1] & 0x7f) as u64;
        if len == 126 {
            let mut b = [0u8; 2];
            rd.read_exact(&mut b).await?;
            len = u16::from_be_bytes(b) as u64;
        } else if len == 127 {
            let mut b = [0u8; 8];
            rd.read_exact(&mut b).await?;
            len = u64::from_be_bytes(b);
        }
        if !masked {
            return Ok(Frame::Violation(1002, "client frames must be masked"));
        }
        if len as usize > MAX_MESSAGE || partial.msg.len() + len as usize > MAX_MESSAGE {
            return Ok(Frame::Violation(1009, "message too big"));
        }
        let mut mask = [0u8; 4];
        rd.read_exact(&mut mask).await?;
        let mut payload = vec![0u8; len as usize];
        rd.read_exact(&mut payload).await?;
        for (i, b) in payload.iter_mut().enumerate() {
            *b ^= mask[i % 4];
        }
        match op {
            0x9 => return Ok(Frame::Ping(payload)),
            0xA => {}
            0x8 => {
                let code =
                    (payload.len() >= 2).then(|| u16::from_be_bytes([payload[0], payload[1]]));
                return Ok(Frame::Message(Message::Close(code)));
            }
            0x0..=0x2 => {
                if op != 0 {
                    partial.op = op;
                }
                partial.msg.extend_from_slice(&payload);
                if fin {
                    let msg = std::mem::take(&mut partial.msg);
                    return Ok(Frame::Message(if partial.op == 0x1 {
                        match String::from_utf8(msg) {
                            Ok(s) => Message::Text(s),
                            Err(_) => return Ok(Frame::Violation(1007, "invalid UTF-8")),
                        }
                    } else {
                        Message::Binary(msg)
                    }));
                }
            }
            _ => return Ok(Frame::Violation(1002, "unknown opcode")),
        }
    }
}

/// Appends one unmasked (server) frame of `opcode` with `payload` to `buf`.
pub fn push_frame(buf: &mut Vec<u8>, opcode: u8, payload: &[u8]) {
    encode_frame(buf, opcode, payload)
}

/// Streams `run` from event `from` as text frames until it finished (then close 1000), the
/// client closes, or the connection breaks.
pub async fn stream_run(mut ws: WsConn, run: Arc<Run>, from: u64) {
    run.connection_live(true);
    let mut rx = run.subscribe();
    let mut cursor = from;
    loop {
        rx.borrow_and_update();
        let (len, finished, _) = run.status();
        if cursor < len {
            let end = len.min(cursor + 256);
            let events = run.range(cursor, end);
            if ws
                .send_texts(events.iter().map(|e| e.data()))
                .await
                .is_err()
            {
                run.connection_live(false);
                return;
            }
            cursor = end;
            continue;
        }
        if finished {
            let _ = ws.close(1000, "run finished").await;
            break;
        }
        tokio::select! {
            _ = rx.changed() => {}
            m = ws.read() => match m {
                Ok(Some(Message::Text(t))) if t.contains("\"ping\"") => {
                    let _ = ws.send_text("{\"type\":\"pong\"}").await;
                }
                Ok(Some(Message::Close(_))) | Ok(None) | Err(_) => break,
                Ok(Some(_)) => {}
            }
        }
    }
    run.connection_live(false);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_key_matches_rfc_6455() {
        // The example of RFC 6455 §1.3.
        assert_eq!(
            accept_key("dGhlIHNhbXBsZSBub25jZQ=="),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        );
        assert_eq!(crate::util::base64(b"ab"), "YWI=");
        assert_eq!(crate::util::base64(b"a"), "YQ==");
    }
}
