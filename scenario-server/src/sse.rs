//! One SSE connection: reads a run's log from a cursor and writes the frames, applying the
//! connection's faults. The frames go through a bounded channel into the response body (so a
//! slow client applies backpressure and a gone client ends the writer).
//!
//! Wire format: `retry: <ms>` once, then per event `id: N`, `event: <kind without
//! "internal:">`, `data: <one-line JSON>`, blank line; `: hb` comments while idle. The response
//! ends when the run's script has ended and everything was written.
//!
//! Injected frames (faults `malformed`, `huge`) carry no `id:` line, so they never move the
//! client's last event id. `malformed` injects, on every connection that passes these places:
//! after event 1 `data: {not json`; after event 3 a data line with the raw bytes 0xFF 0xFE;
//! after event 5 an event of kind `future-kind`; after the first content-delta with id ≥ 6 an
//! extra copy of it with `"index":"seven"` (the real one was already sent, so the stream stays
//! complete). `huge=MB` sends, after event 2, one content-delta for the same task with
//! `"index":1000000` whose data line is MB MiB long, written in 64 KiB pieces from a static
//! buffer.

use crate::dialects::{self, DFrame, Dialect, Encoded, ENDS, ROOT_FAILED, TERMINAL};
use crate::faults::Faults;
use crate::run::{lock, Event, Run};
use crate::util::Rng;
use hyper::body::{Body, Bytes, Frame};
use std::collections::BTreeMap;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::mpsc;

/// After which event id the `huge` fault injects its giant event.
pub const HUGE_AFTER: u64 = 2;
/// After which event id the `evilAuth` fault injects its auth requests.
pub const EVIL_AUTH_AFTER: u64 = 1;
/// The `authUrl`s of the `evilAuth` fault (one `auth-required` each, ids `evil-auth-0..`): none
/// may ever be opened. `javascript:` and `data:` as such, in mixed case, with a tab inside, after
/// a space, `vbscript:`, plain http off localhost, protocol-relative.
pub const EVIL_AUTH_URLS: [&str; 8] = [
    "javascript:alert(document.domain)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    " javascript:alert(1)",
    "vbscript:msgbox(1)",
    "http://evil.example/phish",
    "//evil.example/phish",
];
/// After which event id the `endless` fault starts its endless line.
pub const ENDLESS_AFTER: u64 = 3;
/// The `index` of the `huge` event.
pub const HUGE_INDEX: u64 = 1_000_000;
/// Default heartbeat interval.
pub const DEFAULT_HEARTBEAT_MS: u64 = 5_000;
/// Default `retry:` value.
pub const DEFAULT_RETRY_MS: u64 = 1_000;

const BATCH: u64 = 512;
/// Consecutive event frames are written together up to this many bytes.
const COALESCE: usize = 32 * 1024;
const PIECE: usize = 64 * 1024;
/// How long a `shuffle` window may wait to fill before it is delivered partially.
const SHUFFLE_WAIT: Duration = Duration::from_millis(300);

static FILLER: [u8; PIECE] = {
    let pattern = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut a = [0u8; PIECE];
    let mut i = 0;
    while i < PIECE {
        a[i] = pattern[i % pattern.len()];
        i += 1;
    }
    a
};

/// A response body fed by a channel.
pub struct ChannelBody {
    rx: mpsc::Receiver<Result<Bytes, io::Error>>,
}

impl Body for ChannelBody {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        self.rx.poll_recv(cx).map(|o| o.map(|r| r.map(Frame::data)))
    }
}

impl ChannelBody {
    /// A body fed by `rx` (an `Err` cuts the connection).
    pub fn new(rx: mpsc::Receiver<Result<Bytes, io::Error>>) -> ChannelBody {
        ChannelBody { rx }
    }
}

/// Rewrites every `\n` of `b` as `eol` (faults `crlf` / `cr`).
pub fn with_newline(b: Bytes, eol: Option<&str>) -> Bytes {
    match eol {
        Some(eol) if b.contains(&b'\n') => {
            let mut v = Vec::with_capacity(b.len() + b.len() / 8);
            for &c in b.iter() {
                if c == b'\n' {
                    v.extend_from_slice(eol.as_bytes());
                } else {
                    v.push(c);
                }
            }
            Bytes::from(v)
        }
        _ => b,
    }
}

/// The client went away, or the connection was cut on purpose: stop writing.
#[derive(Debug)]
struct End;

struct Out {
    tx: mpsc::Sender<Result<Bytes, io::Error>>,
    drip: Option<Duration>,
    newline: Option<&'static str>,
}

impl Out {
    async fn send(&self, b: Bytes) -> Result<(), End> {
        let b = with_newline(b, self.newline);
        match self.drip {
            None => self.tx.send(Ok(b)).await.map_err(|_| End),
            Some(d) => {
                for i in 0..b.len() {
                    self.tx.send(Ok(b.slice(i..i + 1))).await.map_err(|_| End)?;
                    if d.is_zero() {
                        tokio::task::yield_now().await;
                    } else {
                        tokio::time::sleep(d).await;
                    }
                }
                Ok(())
            }
        }
    }

    async fn send_static(&self, b: &'static [u8]) -> Result<(), End> {
        self.send(Bytes::from_static(b)).await
    }

    /// Cuts the connection: hyper sees a body error and closes it without ending the chunked
    /// body. The short sleep lets hyper flush what was already written first.
    async fn abort(&self) {
        tokio::time::sleep(Duration::from_millis(30)).await;
        let _ = self
            .tx
            .send(Err(io::Error::new(
                io::ErrorKind::ConnectionAborted,
                "injected connection drop",
            )))
            .await;
    }

    async fn closed(&self) {
        self.tx.closed().await
    }
}

/// A stream in a dialect other than protocol 000 (see the README, "Dialects").
pub struct View {
    /// The dialect.
    pub dialect: Dialect,
    /// The run's encoding in it.
    pub enc: Arc<Mutex<Encoded>>,
    /// Wrap every event in a JSON-RPC 2.0 response with this id (A2A `message/stream`,
    /// `tasks/resubscribe`).
    pub rpc_id: Option<serde_json::Value>,
    /// End the response after the root task's final status-update once the run waits for the
    /// client, or after its terminal one (the JSON-RPC streams).
    pub stop_at_final: bool,
    /// Resuming in the middle of a group: `(canonical position, frames already delivered)`.
    pub skip: Option<(u64, usize)>,
    /// No `retry:` and no `id:` lines (A2A v1.0 streams: the official servers send bare
    /// `data:` frames; a client resumes with `SubscribeToTask`, not `Last-Event-ID`).
    pub no_ids: bool,
    /// A dialect event sent before the run's events (A2A v1.0: the `Task` snapshot that starts
    /// `SubscribeToTask` and answer streams), wrapped like the others.
    pub prelude: Option<Bytes>,
}

/// What one streaming connection should deliver.
pub struct Connection {
    /// The run.
    pub run: Arc<Run>,
    /// First event id to send.
    pub start: u64,
    /// Whether this is the run's first streaming connection.
    pub first: bool,
    /// The faults.
    pub faults: Faults,
    /// `retry:` value sent first.
    pub retry_ms: u64,
    /// Idle heartbeat interval.
    pub heartbeat_ms: u64,
    /// The dialect view (`None`: protocol 000).
    pub view: Option<View>,
}

/// Starts writing `conn` and returns the response body.
pub fn open(conn: Connection) -> ChannelBody {
    let (tx, rx) = mpsc::channel(16);
    let out = Out {
        tx,
        drip: conn.faults.drip.map(Duration::from_millis),
        newline: conn.faults.newline,
    };
    conn.run.connection_live(true);
    let mut w = Writer {
        c: conn,
        out,
        written: 0,
        bad_type_sent: false,
        pending: Vec::new(),
        drop_pending: false,
        paused: false,
        done: false,
    };
    tokio::spawn(async move {
        let _ = w.deliver().await;
    });
    ChannelBody { rx }
}

struct Writer {
    c: Connection,
    out: Out,
    /// Complete events written on this connection.
    written: u64,
    bad_type_sent: bool,
    /// Event frames not yet handed to the body (consecutive events go out as one chunk).
    pending: Vec<u8>,
    /// Dialects: `drop=K` hit an event without frames; cut at the next frame.
    drop_pending: bool,
    /// Dialects (`stop_at_final`): the root task's last status-update was final.
    paused: bool,
    /// Dialects (`stop_at_final`): the stream is complete; end the response.
    done: bool,
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.c.run.connection_live(false);
    }
}

impl Writer {
    /// Writes what was coalesced.
    async fn flush(&mut self) -> Result<(), End> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let b = Bytes::from(std::mem::take(&mut self.pending));
        self.out.send(b).await
    }

    /// Flushes, then writes `b` on its own.
    async fn send(&mut self, b: Bytes) -> Result<(), End> {
        self.flush().await?;
        self.out.send(b).await
    }

    async fn deliver(&mut self) -> Result<(), End> {
        if !self.c.faults.no_ids && !self.c.view.as_ref().is_some_and(|v| v.no_ids) {
            self.out
                .send(Bytes::from(format!("retry: {}\n\n", self.c.retry_ms)))
                .await?;
        }
        if let Some(p) = self.c.view.as_ref().and_then(|v| v.prelude.clone()) {
            let data = self.wrap(&p);
            self.out
                .send(Bytes::from([b"data: ".as_slice(), &data, b"\n\n"].concat()))
                .await?;
        }
        let run = self.c.run.clone();
        let mut rx = run.subscribe();
        let heartbeat = Duration::from_millis(self.c.heartbeat_ms.max(1));
        let mut cursor = self.c.start;
        let mut stalled = false;
        if let Some(v) = self.c.view.as_ref().filter(|v| v.stop_at_final) {
            let mut enc = lock(&v.enc);
            enc.sync(&run, cursor);
            let first = enc.first_frame_of(cursor);
            self.paused = enc
                .root_status_before(first)
                .is_some_and(|f| f & (ENDS | TERMINAL) != 0);
        }
        loop {
            rx.borrow_and_update();
            let (len, finished, waiting) = run.status();
            if self.paused && cursor >= len && (waiting || finished) {
                self.flush().await?;
                return Ok(());
            }
            if cursor < len {
                let mut end = len.min(cursor.saturating_add(BATCH));
                if let Some(w) = self.c.faults.shuffle {
                    let window_end = (cursor / w + 1) * w;
                    if window_end > len && !finished && !waiting && !stalled {
                        tokio::select! {
                            _ = rx.changed() => {}
                            _ = tokio::time::sleep(SHUFFLE_WAIT) => stalled = true,
                            _ = self.out.closed() => return Err(End),
                        }
                        continue;
                    }
                    end = len.min(window_end);
                }
                let mut events = run.range(cursor, end);
                let groups = self.c.view.as_ref().map(|v| {
                    let mut enc = lock(&v.enc);
                    enc.sync(&run, end);
                    enc.groups(cursor, end)
                });
                if self.c.faults.shuffle.is_some() {
                    permute(&mut events, run.spec.seed, cursor);
                }
                for ev in &events {
                    match &groups {
                        None => self.event(ev).await?,
                        Some(g) => {
                            let group = g
                                .get((ev.id - cursor) as usize)
                                .map(Vec::as_slice)
                                .unwrap_or_default();
                            self.dialect_event(ev, group).await?;
                            if self.done {
                                self.flush().await?;
                                return Ok(());
                            }
                        }
                    }
                }
                self.flush().await?;
                cursor = end;
                stalled = false;
                continue;
            }
            if finished {
                if self.c.faults.linger {
                    self.flush().await?;
                    self.out.closed().await;
                    return Err(End);
                }
                return Ok(());
            }
            tokio::select! {
                _ = rx.changed() => {}
                _ = tokio::time::sleep(heartbeat) => self.out.send_static(b": hb\n\n").await?,
                _ = self.out.closed() => return Err(End),
            }
        }
    }

    /// The `data` of a dialect frame: the event, or the JSON-RPC response that carries it.
    fn wrap(&self, data: &[u8]) -> Bytes {
        match self.c.view.as_ref().and_then(|v| v.rpc_id.as_ref()) {
            None => Bytes::copy_from_slice(data),
            Some(id) => {
                let mut b = Vec::with_capacity(data.len() + 48);
                b.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
                b.extend_from_slice(id.to_string().as_bytes());
                b.extend_from_slice(b",\"result\":");
                b.extend_from_slice(data);
                b.push(b'}');
                Bytes::from(b)
            }
        }
    }

    /// The fault `rpcError`: the JSON-RPC error that replaces the root's failed status (the
    /// whole SSE frame).
    fn rpc_error(&self, f: &DFrame) -> Option<Bytes> {
        let view = self.c.view.as_ref()?;
        if !self.c.faults.rpc_error || f.flags & ROOT_FAILED == 0 {
            return None;
        }
        if view.dialect == Dialect::A2aV1 {
            return Some(v1_error_frame(view.rpc_id.as_ref(), &f.data));
        }
        let id = view.rpc_id.as_ref()?;
        let v: serde_json::Value = serde_json::from_slice(&f.data).unwrap_or_default();
        let reason = v["metadata"]["reason"]
            .as_str()
            .or_else(|| v["status"]["message"]["parts"][0]["text"].as_str())
            .unwrap_or("the task failed");
        let e = serde_json::json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {
                "code": -32603,
                "message": reason,
                "data": {"taskId": v["taskId"], "contextId": v["contextId"]},
            },
        });
        Some(Bytes::from(format!("data: {e}\n\n")))
    }

    /// Writes the frames of canonical event `ev` in the connection's dialect.
    async fn dialect_event(&mut self, ev: &Event, group: &[DFrame]) -> Result<(), End> {
        let f = &self.c.faults;
        if f.loses(ev.id) {
            return Ok(());
        }
        let skip = match self.c.view.as_ref().and_then(|v| v.skip) {
            Some((pos, k)) if pos == ev.id => k.min(group.len()),
            _ => 0,
        };
        let drop_here = (self.c.first && f.drop == Some(ev.id))
            || f.drop_every.is_some_and(|k| self.written >= k);
        if skip >= group.len() {
            self.drop_pending |= drop_here;
            return self.dialect_after(ev).await;
        }
        let n = group.len();
        let stop = self.c.view.as_ref().is_some_and(|v| v.stop_at_final);
        for (k, fr) in group.iter().enumerate().skip(skip) {
            let id = dialects::frame_id(ev.id, k, n);
            if let Some(err) = self.rpc_error(fr) {
                self.pending.extend_from_slice(&err);
                self.done = true;
                return Ok(());
            }
            let data = self.wrap(&fr.data);
            let frame = if self.c.faults.no_ids || self.c.view.as_ref().is_some_and(|v| v.no_ids) {
                [b"data: ".as_slice(), &data, b"\n\n"].concat()
            } else {
                [
                    b"id: ".as_slice(),
                    id.as_bytes(),
                    b"\ndata: ",
                    &data,
                    b"\n\n",
                ]
                .concat()
            };
            if (drop_here || self.drop_pending) && k == skip {
                self.send(Bytes::from(frame[..frame.len() / 2].to_vec()))
                    .await?;
                self.out.abort().await;
                return Err(End);
            }
            self.pending.extend_from_slice(&frame);
            if stop {
                if fr.flags & TERMINAL != 0 {
                    self.done = true;
                } else {
                    self.paused = fr.flags & ENDS != 0;
                }
            }
        }
        if self.pending.len() >= COALESCE {
            self.flush().await?;
        }
        self.written += 1;
        if self.done {
            return Ok(());
        }
        self.dialect_after(ev).await
    }

    /// The injected frames of the faults after event `ev` in a dialect.
    async fn dialect_after(&mut self, ev: &Event) -> Result<(), End> {
        let Some(d) = self.c.view.as_ref().map(|v| v.dialect) else {
            return Ok(());
        };
        if self.c.faults.malformed {
            let v = parse(ev);
            let ctx = v["contextId"].as_str().unwrap_or("");
            let task = v["taskId"].as_str().unwrap_or("");
            let ts = v["timestamp"].as_str().unwrap_or("");
            let injected = match ev.id {
                1 => Some(Bytes::from_static(b"data: {not json\n\n")),
                3 => Some(Bytes::from_static(b"data: \xFF\xFE\n\n")),
                5 => {
                    let e = dialects::malformed_unknown(d, ctx, task, ts);
                    Some(self.data_frame(&e))
                }
                _ => None,
            };
            if let Some(b) = injected {
                self.send(b).await?;
            }
            if &*ev.kind == "content-delta" && ev.id >= 6 && !self.bad_type_sent {
                self.bad_type_sent = true;
                let e = dialects::malformed_missing(d, ctx, task, ts);
                let b = self.data_frame(&e);
                self.send(b).await?;
            }
        }
        self.stream_faults(ev).await
    }

    /// The faults that act on the stream itself after event `ev`: `huge`, `endless`, `silent`.
    async fn stream_faults(&mut self, ev: &Event) -> Result<(), End> {
        if let (Some(mb), HUGE_AFTER) = (self.c.faults.huge, ev.id) {
            self.huge(ev, mb).await?;
        }
        let f = &self.c.faults;
        if self.c.first && f.endless && ev.id == ENDLESS_AFTER {
            self.send(Bytes::from_static(b"data: ")).await?;
            loop {
                self.out.send_static(&FILLER).await?;
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
        if self.c.first && f.silent == Some(ev.id) {
            self.flush().await?;
            self.out.closed().await;
            return Err(End);
        }
        Ok(())
    }

    /// A `data:` frame without an id for an injected dialect event (wrapped for JSON-RPC).
    fn data_frame(&self, e: &serde_json::Value) -> Bytes {
        let data = self.wrap(e.to_string().as_bytes());
        Bytes::from([b"data: ".as_slice(), &data, b"\n\n"].concat())
    }

    async fn event(&mut self, ev: &Event) -> Result<(), End> {
        let f = &self.c.faults;
        if f.loses(ev.id) {
            return Ok(());
        }
        let drop_here = (self.c.first && f.drop == Some(ev.id))
            || f.drop_every.is_some_and(|k| self.written >= k);
        // `noIds`: the frame without its `id:` line.
        let frame = if f.no_ids {
            let skip = ev
                .frame
                .iter()
                .position(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            ev.frame.slice(skip..)
        } else {
            ev.frame.clone()
        };
        if drop_here {
            let half = frame.len() / 2;
            self.send(frame.slice(..half)).await?;
            self.out.abort().await;
            return Err(End);
        }
        self.pending.extend_from_slice(&frame);
        if self.pending.len() >= COALESCE {
            self.flush().await?;
        }
        self.written += 1;
        self.after(ev).await
    }

    async fn after(&mut self, ev: &Event) -> Result<(), End> {
        if self.c.faults.malformed {
            match ev.id {
                1 => {
                    self.send(Bytes::from_static(b"data: {not json\n\n"))
                        .await?
                }
                3 => self.send(Bytes::from_static(b"data: \xFF\xFE\n\n")).await?,
                5 => {
                    let v = parse(ev);
                    let data = serde_json::json!({
                        "kind": "future-kind",
                        "contextId": v["contextId"],
                        "taskId": v["taskId"],
                        "timestamp": v["timestamp"],
                        "payload": {"note": "a kind from a newer protocol version", "level": 3},
                    });
                    self.send(Bytes::from(format!("event: future-kind\ndata: {data}\n\n")))
                        .await?;
                }
                _ => {}
            }
            if &*ev.kind == "content-delta" && ev.id >= 6 && !self.bad_type_sent {
                self.bad_type_sent = true;
                let mut v = parse(ev);
                if let Some(o) = v.as_object_mut() {
                    o.insert("index".into(), "seven".into());
                }
                self.send(Bytes::from(format!("event: content-delta\ndata: {v}\n\n")))
                    .await?;
            }
        }
        if self.c.faults.evil_auth && ev.id == EVIL_AUTH_AFTER {
            let b = evil_auth_frames(&parse(ev));
            self.send(b).await?;
        }
        self.stream_faults(ev).await
    }

    async fn huge(&mut self, ev: &Event, mb: u64) -> Result<(), End> {
        let v = parse(ev);
        let s = |k: &str| serde_json::Value::from(v[k].as_str().unwrap_or_default()).to_string();
        let (head, tail) = match &self.c.view {
            None => (
                format!(
                    "event: content-delta\ndata: {{\"kind\":\"content-delta\",\"contextId\":{},\"taskId\":{},\"delta\":\"",
                    s("contextId"),
                    s("taskId")
                ),
                format!(
                    "\",\"index\":{HUGE_INDEX},\"timestamp\":{}}}\n\n",
                    s("timestamp")
                ),
            ),
            Some(view) => {
                let (pre, post) = match &view.rpc_id {
                    Some(id) => (format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":"), "}"),
                    None => (String::new(), ""),
                };
                (
                    format!(
                        "data: {pre}{{\"kind\":\"internal:huge\",\"contextId\":{},\"taskId\":{},\"filler\":\"",
                        s("contextId"),
                        s("taskId")
                    ),
                    format!("\",\"timestamp\":{}}}{post}\n\n", s("timestamp")),
                )
            }
        };
        self.send(Bytes::from(head)).await?;
        for _ in 0..mb * (1024 * 1024 / PIECE as u64) {
            self.out.send_static(&FILLER).await?;
        }
        self.out.send(Bytes::from(tail)).await
    }
}

/// The fault `rpcError` in A2A v1.0: an SSE `event: error` in place of the root's failed
/// `statusUpdate` (`data`), as the official servers write an error in the middle of a stream:
/// a JSON-RPC error response (`rpc_id`: the JSON-RPC binding) or a `google.rpc.Status` body
/// (HTTP+JSON). The error is an internal one (-32603 / 500 `INTERNAL`, no details).
fn v1_error_frame(rpc_id: Option<&serde_json::Value>, data: &[u8]) -> Bytes {
    let v: serde_json::Value = serde_json::from_slice(data).unwrap_or_default();
    let su = &v["statusUpdate"];
    let reason = su["metadata"]["reason"]
        .as_str()
        .or_else(|| su["status"]["message"]["parts"][0]["text"].as_str())
        .unwrap_or("the task failed");
    let e = match rpc_id {
        Some(id) => serde_json::json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": -32603, "message": reason},
        }),
        None => serde_json::json!({
            "error": {"code": 500, "status": "INTERNAL", "message": reason, "details": []},
        }),
    };
    Bytes::from(format!("event: error\ndata: {e}\n\n"))
}

/// The `evilAuth` frames: one `auth-required` (no `id:`) per [`EVIL_AUTH_URLS`] entry, for the
/// task of `v`.
fn evil_auth_frames(v: &serde_json::Value) -> Bytes {
    let mut out = String::new();
    for (i, url) in EVIL_AUTH_URLS.iter().enumerate() {
        let data = serde_json::json!({
            "kind": "auth-required",
            "contextId": v["contextId"],
            "taskId": v["taskId"],
            "timestamp": v["timestamp"],
            "authId": format!("evil-auth-{i}"),
            "authType": "oauth2",
            "provider": "evil",
            "scopes": ["all"],
            "prompt": "Sign in to continue",
            "authUrl": url,
        });
        out.push_str(&format!("event: auth-required\ndata: {data}\n\n"));
    }
    Bytes::from(out)
}

fn parse(ev: &Event) -> serde_json::Value {
    serde_json::from_str(ev.data()).unwrap_or(serde_json::Value::Null)
}

/// Permutes, inside `events` (one window starting at log position `window`), the chunk events
/// of each stream among that stream's own positions; other events keep their place. Never the
/// identity for a stream with two or more chunks in the window.
fn permute(events: &mut [Arc<Event>], seed: u64, window: u64) {
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, ev) in events.iter().enumerate() {
        if let Some(s) = ev.chunk_stream.as_deref() {
            groups.entry(s).or_default().push(i);
        }
    }
    let groups: Vec<Vec<usize>> = groups.into_values().filter(|g| g.len() >= 2).collect();
    let mut rng = Rng::new(seed ^ window.wrapping_mul(0x2545_F491_4F6C_DD1D));
    for positions in groups {
        let mut picked: Vec<Arc<Event>> = positions.iter().map(|&p| events[p].clone()).collect();
        for i in (1..picked.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            picked.swap(i, j);
        }
        if picked
            .iter()
            .zip(&positions)
            .all(|(e, &p)| Arc::ptr_eq(e, &events[p]))
        {
            picked.rotate_left(1);
        }
        for (e, &p) in picked.into_iter().zip(&positions) {
            events[p] = e;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permute_moves_chunks_only_within_their_stream() {
        let mk = |id: u64, stream: Option<&str>| {
            Arc::new(Event::new(
                id,
                if stream.is_some() {
                    "content-delta"
                } else {
                    "task-status"
                },
                stream.map(str::to_owned),
                "{}",
            ))
        };
        let orig = vec![
            mk(0, Some("a")),
            mk(1, None),
            mk(2, Some("a")),
            mk(3, Some("b")),
            mk(4, Some("a")),
            mk(5, Some("b")),
        ];
        let mut ev = orig.clone();
        permute(&mut ev, 1, 0);
        assert_eq!(ev[1].id, 1, "non-chunk events keep their place");
        let a: Vec<u64> = [0, 2, 4].iter().map(|&i| ev[i].id).collect();
        let b: Vec<u64> = [3, 5].iter().map(|&i| ev[i].id).collect();
        assert_ne!(a, vec![0, 2, 4]);
        assert_eq!(b, vec![5, 3]);
        let mut sorted: Vec<u64> = ev.iter().map(|e| e.id).collect();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..6).collect::<Vec<_>>());
    }
}
