//! One response of a chat ([`Resp`]): the chunks a producer task writes (the scenario
//! translated, independent of any connection) and the connections that read it from its first
//! chunk (the POST's, and every resume GET while the response is active). Framing as
//! `JsonToSseTransformStream`: `data: <JSON>\n\n` per chunk, `data: [DONE]\n\n` last.
//!
//! Faults:
//!
//! | fault | on `/api/ai-sdk/chat` |
//! |---|---|
//! | `drop=K` | the chat's first POST: K whole chunks, then half of the next frame, then the connection is cut. The response stays active: a resume GET replays it whole |
//! | `crlf` / `cr` | every `\n` of the framing is written `\r\n` / `\r` (each connection by its own query) |
//! | `drip=MS` | every byte alone, MS ms apart |
//! | `status=CODE[:N]` | the first N POSTs of a chat answer CODE |

use super::Chat;
use crate::ag_ui::stream::frame;
use crate::dialects::ag_ui::RootEnd;
use crate::dialects::Canon;
use crate::reply::RespBody;
use crate::run::lock;
use crate::sse::{with_newline, ChannelBody};
use http_body_util::BodyExt;
use hyper::body::Bytes;
use serde_json::{json, Value};
use std::io;
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::{mpsc, watch, OwnedMutexGuard};

/// What a POST plays.
#[derive(Debug, Clone)]
pub enum Mode {
    /// The scenario from its start.
    Scenario,
    /// The scenario after the client answered the waiting tool calls (the approvals given:
    /// tool call id, approved).
    Continue(Vec<(String, bool)>),
    /// The scripted second turn answering this question.
    FollowUp(String),
}

/// The final frame.
pub const DONE: &[u8] = b"data: [DONE]\n\n";

#[derive(Default)]
struct Inner {
    frames: Vec<Bytes>,
    done: bool,
    delivered: bool,
}

/// One response: its frames so far (each `data: <JSON>\n\n`), whether it is complete, whether
/// a connection delivered it whole.
pub struct Resp {
    inner: Mutex<Inner>,
    tx: watch::Sender<u64>,
}

impl Default for Resp {
    fn default() -> Self {
        Resp {
            inner: Mutex::new(Inner::default()),
            tx: watch::channel(0).0,
        }
    }
}

impl Resp {
    fn push(&self, chunks: &[Value]) {
        if chunks.is_empty() {
            return;
        }
        let mut i = lock(&self.inner);
        i.frames
            .extend(chunks.iter().map(|c| Bytes::from(frame(c))));
        let n = i.frames.len() as u64;
        drop(i);
        self.tx.send_replace(n);
    }

    fn finish(&self) {
        lock(&self.inner).done = true;
        self.tx.send_modify(|n| *n += 1);
    }

    /// A connection wrote the whole response.
    pub fn delivered(&self) -> bool {
        lock(&self.inner).delivered
    }
}

/// The faults of one connection.
#[derive(Debug, Clone, Copy, Default)]
pub struct ConnFaults {
    /// Cut after this many chunks.
    pub drop: Option<u64>,
    /// Byte by byte, this many ms apart.
    pub drip: Option<u64>,
    /// `\r\n` or `\r` for `\n`.
    pub newline: Option<&'static str>,
}

struct End;

async fn send(
    tx: &mpsc::Sender<Result<Bytes, io::Error>>,
    b: Bytes,
    f: &ConnFaults,
) -> Result<(), End> {
    let b = with_newline(b, f.newline);
    match f.drip {
        None => tx.send(Ok(b)).await.map_err(|_| End),
        Some(ms) => {
            for i in 0..b.len() {
                tx.send(Ok(b.slice(i..i + 1))).await.map_err(|_| End)?;
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            Ok(())
        }
    }
}

/// A connection reading `resp` from its first chunk.
pub fn body(resp: std::sync::Arc<Resp>, f: ConnFaults) -> RespBody {
    let (tx, rx) = mpsc::channel(16);
    tokio::spawn(async move {
        let mut rx_w = resp.tx.subscribe();
        let mut at = 0usize;
        loop {
            rx_w.borrow_and_update();
            let (frames, done) = {
                let i = lock(&resp.inner);
                (i.frames[at..].to_vec(), i.done)
            };
            for fr in frames {
                if f.drop == Some(at as u64) {
                    let half = fr.slice(..fr.len() / 2);
                    if send(&tx, half, &f).await.is_ok() {
                        tokio::time::sleep(Duration::from_millis(30)).await;
                        let _ = tx
                            .send(Err(io::Error::new(
                                io::ErrorKind::ConnectionAborted,
                                "injected connection drop",
                            )))
                            .await;
                    }
                    return;
                }
                at += 1;
                if send(&tx, fr, &f).await.is_err() {
                    return;
                }
            }
            if done && at == lock(&resp.inner).frames.len() {
                if send(&tx, Bytes::from_static(DONE), &f).await.is_ok() {
                    lock(&resp.inner).delivered = true;
                }
                return;
            }
            tokio::select! {
                r = rx_w.changed() => if r.is_err() { return },
                _ = tx.closed() => return,
            }
        }
    });
    ChannelBody::new(rx).boxed()
}

/// Starts the producer of `resp`: plays `mode` for the chat `chat` holds.
pub fn produce(chat: OwnedMutexGuard<Chat>, mode: Mode, resp: std::sync::Arc<Resp>) {
    tokio::spawn(async move {
        let mut p = Producer { chat, resp };
        match mode {
            Mode::Scenario => {
                p.chat.enc.new_response();
                p.scenario().await;
            }
            Mode::Continue(approvals) => {
                p.chat.enc.new_response();
                let mut out = Vec::new();
                p.chat.enc.resumed(&approvals, &mut out);
                p.resp.push(&out);
                p.scenario().await;
            }
            Mode::FollowUp(q) => p.follow_up(&q),
        }
        p.resp.finish();
    });
}

struct Producer {
    chat: OwnedMutexGuard<Chat>,
    resp: std::sync::Arc<Resp>,
}

/// Canonical events read per batch.
const BATCH: u64 = 256;

impl Producer {
    /// The scenario from where the chat stands, to its end or until it waits on the client.
    async fn scenario(&mut self) {
        let run = self.chat.run.clone();
        let mut rx = run.subscribe();
        loop {
            rx.borrow_and_update();
            let (len, finished, waiting) = run.status();
            if self.chat.pos < len {
                let from = self.chat.pos;
                let mut out = Vec::new();
                for ev in run.range(from, len.min(from + BATCH)) {
                    let v: Value = serde_json::from_str(ev.data()).unwrap_or(Value::Null);
                    let c = Canon {
                        id: ev.id,
                        kind: &ev.kind,
                        v: &v,
                    };
                    self.chat.enc.encode(&c, &mut out);
                    self.chat.pos = ev.id + 1;
                }
                self.resp.push(&out);
                continue;
            }
            if finished || self.chat.enc.root_end().is_some() {
                let mut out = Vec::new();
                self.chat.enc.close_open(&mut out);
                self.resp.push(&out);
                self.chat.ended = true;
                return;
            }
            if waiting {
                let open: Vec<String> = self
                    .chat
                    .enc
                    .pending()
                    .iter()
                    .filter(|p| run.is_open(&p.key))
                    .map(|p| p.key.clone())
                    .collect();
                if !open.is_empty() {
                    let mut out = Vec::new();
                    self.chat.enc.suspend(&open, &mut out);
                    self.resp.push(&out);
                    self.chat.pending = self
                        .chat
                        .enc
                        .pending()
                        .iter()
                        .filter(|p| open.contains(&p.key))
                        .cloned()
                        .collect();
                    return;
                }
            }
            if rx.changed().await.is_err() {
                // The run's log is complete.
                let (len, _, _) = run.status();
                if self.chat.pos >= len {
                    let mut out = Vec::new();
                    self.chat.enc.close_open(&mut out);
                    self.resp.push(&out);
                    self.chat.ended = true;
                    return;
                }
            }
        }
    }

    /// A later turn of a chat whose scenario ended: a new assistant message answering
    /// `question`.
    fn follow_up(&mut self, question: &str) {
        self.chat.turn += 1;
        let n = self.chat.turn;
        let how = match self.chat.enc.root_end() {
            Some(RootEnd::Completed) | None => "completed".to_owned(),
            Some(RootEnd::Failed(r)) => format!("failed ({r})"),
            Some(RootEnd::Canceled) => "was cancelled".to_owned(),
        };
        let scenario = self.chat.run.spec.scenario.id();
        let text = format!(
            "Turn {n}: you asked “{}”. The {scenario} run of this chat {how}; \
             this scripted follow-up is all I can add. Start a new chat for another run.",
            question.trim()
        );
        let root = self.chat.enc.root().unwrap_or("run").to_owned();
        let id = format!("msg-{root}-turn{n}");
        let tid = format!("text-{root}-turn{n}");
        let mut out = vec![
            json!({"type": "start", "messageId": id, "messageMetadata": {"turn": n}}),
            json!({"type": "start-step"}),
            json!({"type": "text-start", "id": tid}),
        ];
        let words: Vec<&str> = text.split_inclusive(' ').collect();
        for piece in words.chunks(4) {
            out.push(json!({"type": "text-delta", "id": tid, "delta": piece.concat()}));
        }
        out.push(json!({"type": "text-end", "id": tid}));
        out.push(json!({"type": "finish-step"}));
        out.push(json!({"type": "finish", "finishReason": "stop"}));
        self.resp.push(&out);
    }
}
