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
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The largest client message accepted.
pub const MAX_MESSAGE: usize = 1 << 20;

/// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key`.
pub fn accept_key(key: &str) -> String {
    let mut h = sha1_smol::Sha1::new();
    h.update(key.trim().as_bytes());
    h.update(b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11");
    base64(&h.digest().bytes())
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        out.push(A[(n >> 18) as usize & 63] as char);
        out.push(A[(n >> 12) as usize & 63] as char);
        out.push(if c.len() > 1 {
            A[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        out.push(if c.len() > 2 {
            A[n as usize & 63] as char
        } else {
            '='
        });
    }
    out
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
        let mut msg: Vec<u8> = Vec::new();
        let mut msg_op = 0u8;
        loop {
            let mut h = [0u8; 2];
            if self.io.read_exact(&mut h).await.is_err() {
                return Ok(None);
            }
            let fin = h[0] & 0x80 != 0;
            let op = h[0] & 0x0f;
            let masked = h[1] & 0x80 != 0;
            let mut len = (h[1] & 0x7f) as u64;
            if len == 126 {
                let mut b = [0u8; 2];
                self.io.read_exact(&mut b).await?;
                len = u16::from_be_bytes(b) as u64;
            } else if len == 127 {
                let mut b = [0u8; 8];
                self.io.read_exact(&mut b).await?;
                len = u64::from_be_bytes(b);
            }
            if !masked {
                let _ = self.close(1002, "client frames must be masked").await;
                return Ok(None);
            }
            if len as usize > MAX_MESSAGE || msg.len() + len as usize > MAX_MESSAGE {
                let _ = self.close(1009, "message too big").await;
                return Ok(None);
            }
            let mut mask = [0u8; 4];
            self.io.read_exact(&mut mask).await?;
            let mut payload = vec![0u8; len as usize];
            self.io.read_exact(&mut payload).await?;
            for (i, b) in payload.iter_mut().enumerate() {
                *b ^= mask[i % 4];
            }
            match op {
                0x9 => self.frame(0xA, &payload).await?,
                0xA => {}
                0x8 => {
                    let code =
                        (payload.len() >= 2).then(|| u16::from_be_bytes([payload[0], payload[1]]));
                    let _ = self.frame(0x8, &payload[..payload.len().min(2)]).await;
                    return Ok(Some(Message::Close(code)));
                }
                0x0..=0x2 => {
                    if op != 0 {
                        msg_op = op;
                    }
                    msg.extend_from_slice(&payload);
                    if fin {
                        return Ok(Some(if msg_op == 0x1 {
                            match String::from_utf8(msg) {
                                Ok(s) => Message::Text(s),
                                Err(_) => {
                                    let _ = self.close(1007, "invalid UTF-8").await;
                                    return Ok(None);
                                }
                            }
                        } else {
                            Message::Binary(msg)
                        }));
                    }
                }
                _ => {
                    let _ = self.close(1002, "unknown opcode").await;
                    return Ok(None);
                }
            }
        }
    }
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
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b"a"), "YQ==");
    }
}
