//! The body of one AG-UI run: the encoder's framing (`data: <JSON>\n\n`, no `id:`, `event:`,
//! `retry:` or comments) and the faults.
//!
//! Faults act on canonical log positions, as in the other dialects:
//!
//! | fault | on `/api/ag-ui` |
//! |---|---|
//! | `drop=K` | first POST of the thread: the frames before canonical event K, then half of the first frame of K (or of the next event that has frames), then the connection is cut (no `RUN_FINISHED`). Nothing is lost: the next POST of the thread re-opens what was open and continues with event K |
//! | `dropEvery=K` | every POST: cut the same way after K canonical events that had frames |
//! | `lose=ID` | the frames of canonical event ID are never sent |
//! | `malformed` | after canonical events 1, 3, 5: `data: {not json`, the bytes FF FE, `{"type":"FUTURE_EVENT",…}`; after the first `content-delta` with id ≥ 6 a `TEXT_MESSAGE_CONTENT` without `delta` |
//! | `silent=K` | first POST: after event K nothing more, the connection stays open |
//! | `linger` | the connection stays open after the last event |
//! | `crlf` / `cr` | every `\n` of the framing is written `\r\n` / `\r` |
//! | `drip=MS`, `ctype=TYPE`, `status=CODE[:N]` | as on the other streams (`status` counted per thread) |

use super::{Input, Thread};
use crate::dialects::ag_ui::RootEnd;
use crate::dialects::Canon;
use crate::faults::Faults;
use crate::reply::RespBody;
use crate::sse::{with_newline, ChannelBody};
use http_body_util::BodyExt;
use hyper::body::Bytes;
use serde_json::{json, Value};
use std::io;
use std::time::Duration;
use tokio::sync::{mpsc, OwnedMutexGuard};

/// What a POST plays.
#[derive(Debug, Clone)]
pub enum Mode {
    /// The scenario, from where the thread stands.
    Scenario,
    /// The scripted follow-up turn answering this question.
    FollowUp(String),
}

/// Canonical events read per batch.
const BATCH: u64 = 256;
/// Frames are written together up to this many bytes.
const COALESCE: usize = 16 * 1024;

/// One SSE frame in the encoder's framing. `type` is written first, as the official servers
/// build their events (the other members follow in key order).
pub fn frame(v: &Value) -> Vec<u8> {
    let mut b = Vec::with_capacity(64);
    b.extend_from_slice(b"data: ");
    match v.as_object().filter(|o| o.contains_key("type")) {
        Some(o) => {
            b.extend_from_slice(b"{\"type\":");
            b.extend_from_slice(o["type"].to_string().as_bytes());
            for (k, x) in o.iter().filter(|(k, _)| *k != "type") {
                b.push(b',');
                b.extend_from_slice(Value::from(k.as_str()).to_string().as_bytes());
                b.push(b':');
                b.extend_from_slice(x.to_string().as_bytes());
            }
            b.push(b'}');
        }
        None => b.extend_from_slice(v.to_string().as_bytes()),
    }
    b.extend_from_slice(b"\n\n");
    b
}

/// The client left or the connection was cut: stop.
struct End;

struct Wire {
    tx: mpsc::Sender<Result<Bytes, io::Error>>,
    drip: Option<Duration>,
    newline: Option<&'static str>,
    buf: Vec<u8>,
}

impl Wire {
    async fn raw(&self, b: Vec<u8>) -> Result<(), End> {
        let b = with_newline(Bytes::from(b), self.newline);
        match self.drip {
            None => self.tx.send(Ok(b)).await.map_err(|_| End),
            Some(d) => {
                for i in 0..b.len() {
                    self.tx.send(Ok(b.slice(i..i + 1))).await.map_err(|_| End)?;
                    tokio::time::sleep(d).await;
                }
                Ok(())
            }
        }
    }

    async fn flush(&mut self) -> Result<(), End> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let b = std::mem::take(&mut self.buf);
        self.raw(b).await
    }

    async fn event(&mut self, v: &Value) -> Result<(), End> {
        self.buf.extend_from_slice(&frame(v));
        if self.buf.len() >= COALESCE {
            self.flush().await?;
        }
        Ok(())
    }

    /// Writes half of `v`'s frame and cuts the connection.
    async fn cut(&mut self, v: &Value) -> End {
        let f = frame(v);
        if self.flush().await.is_ok() && self.raw(f[..f.len() / 2].to_vec()).await.is_ok() {
            tokio::time::sleep(Duration::from_millis(30)).await;
            let _ = self
                .tx
                .send(Err(io::Error::new(
                    io::ErrorKind::ConnectionAborted,
                    "injected connection drop",
                )))
                .await;
        }
        End
    }
}

/// Starts playing `mode` for the thread `t` holds; returns the response body.
pub fn start(t: OwnedMutexGuard<Thread>, mode: Mode, input: Input, faults: Faults) -> RespBody {
    let (tx, rx) = mpsc::channel(16);
    let mut w = Wire {
        tx,
        drip: faults.drip.map(Duration::from_millis),
        newline: faults.newline,
        buf: Vec::new(),
    };
    tokio::spawn(async move {
        let mut p = Player {
            t,
            input,
            faults,
            bad_type_sent: false,
        };
        let done = match mode {
            Mode::Scenario => p.scenario(&mut w).await,
            Mode::FollowUp(q) => p.follow_up(&mut w, &q).await,
        };
        if done.is_ok() && w.flush().await.is_ok() && p.faults.linger {
            w.tx.closed().await;
        }
    });
    ChannelBody::new(rx).boxed()
}

struct Player {
    t: OwnedMutexGuard<Thread>,
    input: Input,
    faults: Faults,
    bad_type_sent: bool,
}

impl Player {
    fn run_started(&self) -> Value {
        json!({"type": "RUN_STARTED", "threadId": self.input.thread_id, "runId": self.input.run_id})
    }

    fn run_finished(&self, outcome: Value, result: Option<Value>) -> Value {
        let mut v = json!({
            "type": "RUN_FINISHED", "threadId": self.input.thread_id,
            "runId": self.input.run_id, "outcome": outcome,
        });
        if let Some(r) = result {
            v["result"] = r;
        }
        v
    }

    /// The scenario from where the thread stands, to its end or its next interrupt.
    async fn scenario(&mut self, w: &mut Wire) -> Result<(), End> {
        let first = self.t.posts == 0;
        self.t.posts += 1;
        w.event(&self.run_started()).await?;
        w.event(&json!({"type": "STATE_SNAPSHOT", "snapshot": self.t.enc.state()}))
            .await?;
        let mut out = Vec::new();
        self.t.enc.reopen(&mut out);
        for e in &out {
            w.event(e).await?;
        }
        w.flush().await?;
        let run = self.t.run.clone();
        let mut rx = run.subscribe();
        let mut written = 0u64;
        let mut drop_pending = false;
        loop {
            rx.borrow_and_update();
            let (len, finished, waiting) = run.status();
            if self.t.pos < len {
                let from = self.t.pos;
                for ev in run.range(from, len.min(from + BATCH)) {
                    let v: Value = serde_json::from_str(ev.data()).unwrap_or(Value::Null);
                    let c = Canon {
                        id: ev.id,
                        kind: &ev.kind,
                        v: &v,
                    };
                    let drop_here = drop_pending
                        || (first && self.faults.drop == Some(ev.id))
                        || self.faults.drop_every.is_some_and(|k| written >= k);
                    if drop_here {
                        // Translate on a copy: the thread continues with this event next time.
                        let mut probe = self.t.enc.clone();
                        let mut out = Vec::new();
                        probe.encode(&c, &mut out);
                        match out.first() {
                            Some(f) => return Err(w.cut(f).await),
                            None => drop_pending = true,
                        }
                    }
                    let mut out = Vec::new();
                    self.t.enc.encode(&c, &mut out);
                    self.t.pos = ev.id + 1;
                    if !self.faults.loses(ev.id) && !out.is_empty() {
                        for e in &out {
                            w.event(e).await?;
                        }
                        written += 1;
                    }
                    self.after(w, ev.id, &ev.kind, &v).await?;
                    if first && self.faults.silent == Some(ev.id) {
                        w.flush().await?;
                        w.tx.closed().await;
                        return Err(End);
                    }
                }
                w.flush().await?;
                continue;
            }
            if finished {
                return self.end(w).await;
            }
            if waiting {
                let open: Vec<_> = self
                    .t
                    .enc
                    .pending()
                    .iter()
                    .filter(|p| run.is_open(&p.key))
                    .cloned()
                    .collect();
                if !open.is_empty() {
                    let ids: Vec<String> = open
                        .iter()
                        .filter_map(|p| p.interrupt["id"].as_str().map(str::to_owned))
                        .collect();
                    let mut out = Vec::new();
                    self.t.enc.suspend(&ids, &mut out);
                    let interrupts: Vec<Value> = open.iter().map(|p| p.interrupt.clone()).collect();
                    out.push(self.run_finished(
                        json!({"type": "interrupt", "interrupts": interrupts}),
                        None,
                    ));
                    self.t.pending = open;
                    for e in &out {
                        w.event(e).await?;
                    }
                    return w.flush().await;
                }
            }
            tokio::select! {
                r = rx.changed() => if r.is_err() { return self.end(w).await },
                _ = w.tx.closed() => return Err(End),
            }
        }
    }

    /// The scenario ended: close what is open, then the run's last event.
    async fn end(&mut self, w: &mut Wire) -> Result<(), End> {
        let mut out = Vec::new();
        self.t.enc.close_open(&mut out);
        let last = match self.t.enc.root_end().cloned() {
            Some(RootEnd::Failed(reason)) => {
                json!({"type": "RUN_ERROR", "message": reason, "code": "task_failed"})
            }
            Some(RootEnd::Canceled) => self.run_finished(json!({"type": "cancelled"}), None),
            _ => self.run_finished(json!({"type": "success"}), self.t.enc.result()),
        };
        out.push(last);
        self.t.ended = true;
        for e in &out {
            w.event(e).await?;
        }
        w.flush().await
    }

    /// The injected frames of `malformed` after canonical event `id`.
    async fn after(&mut self, w: &mut Wire, id: u64, kind: &str, v: &Value) -> Result<(), End> {
        if !self.faults.malformed {
            return Ok(());
        }
        let injected: Option<Vec<u8>> = match id {
            1 => Some(b"data: {not json\n\n".to_vec()),
            3 => Some(b"data: \xFF\xFE\n\n".to_vec()),
            5 => Some(frame(
                &json!({"type": "FUTURE_EVENT", "note": "an event type from a newer protocol version"}),
            )),
            _ => None,
        };
        if let Some(b) = injected {
            w.flush().await?;
            w.raw(b).await?;
        }
        if kind == "content-delta" && id >= 6 && !self.bad_type_sent {
            self.bad_type_sent = true;
            let task = v["taskId"].as_str().unwrap_or("");
            let e = json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": format!("msg-{task}")});
            w.flush().await?;
            w.raw(frame(&e)).await?;
        }
        Ok(())
    }

    /// A later turn of a thread whose scenario ended: a short scripted answer to `question`.
    async fn follow_up(&mut self, w: &mut Wire, question: &str) -> Result<(), End> {
        self.t.turn += 1;
        let n = self.t.turn;
        let how = match self.t.enc.root_end() {
            Some(RootEnd::Completed) | None => "completed".to_owned(),
            Some(RootEnd::Failed(r)) => format!("failed ({r})"),
            Some(RootEnd::Canceled) => "was cancelled".to_owned(),
        };
        let scenario = self.t.run.spec.scenario.id();
        let text = format!(
            "Turn {n}: you asked “{}”. The {scenario} run of this thread {how}; \
             this scripted follow-up is all I can add. Start a new thread for another run.",
            question.trim()
        );
        let id = format!("msg-turn{n}");
        let mut out = vec![
            self.run_started(),
            json!({"type": "STATE_SNAPSHOT", "snapshot": self.t.enc.state()}),
            self.t.enc.set_top("turn", json!(n)),
            json!({"type": "TEXT_MESSAGE_START", "messageId": id, "role": "assistant"}),
        ];
        let words: Vec<&str> = text.split_inclusive(' ').collect();
        for piece in words.chunks(4) {
            out.push(
                json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": id, "delta": piece.concat()}),
            );
        }
        out.push(json!({"type": "TEXT_MESSAGE_END", "messageId": id}));
        out.push(self.run_finished(json!({"type": "success"}), Some(json!({"turn": n}))));
        for e in &out {
            w.event(e).await?;
        }
        w.flush().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_start_with_the_type() {
        let f = frame(&json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}));
        assert_eq!(
            String::from_utf8(f).expect("utf-8"),
            "data: {\"type\":\"RUN_STARTED\",\"runId\":\"r\",\"threadId\":\"t\"}\n\n"
        );
    }
}
