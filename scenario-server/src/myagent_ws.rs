//! `GET /api/myagent/ws`: a MyAgent session (seed 004) over a WebSocket. The server sends
//! `system.connected`, then the run's events in the MyAgent encoding with `seq` 1, 2, …,
//! `system.heartbeat` while idle, and answers the client's `user.*` frames (validated; a bad
//! one gets a `system.error`, never a panic). See the README, "Dialects", `myagent`.

use crate::args::{parse_u64, Query, MAX_DIALECT_EVENTS};
use crate::dialects::{self, myagent::confirmation_type, Dialect, Encoded};
use crate::faults::Faults;
use crate::reply::{error, RespBody};
use crate::run::{lock, AnswerOutcome, Run, RunSpec};
use crate::scenarios::Scenario;
use crate::sse::DEFAULT_HEARTBEAT_MS;
use crate::util::now_timestamp;
use crate::ws::{push_frame, read_next, upgrade_response, Frame, Message, Partial, WsConn};
use crate::App;
use hyper::body::Incoming as Body;
use hyper::upgrade::Upgraded;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncWriteExt, WriteHalf};
use tokio::sync::mpsc;

/// The server version announced in `system.connected`.
pub const SERVER_VERSION: &str = concat!("agentwire-scenario/", env!("CARGO_PKG_VERSION"));

/// Frames sent per write.
const BATCH: usize = 256;

/// `GET /api/myagent/ws?scenario=&seed=&speed=&faults=&heartbeat=&events=&start=`.
pub fn open(app: &Arc<App>, mut req: Request<Body>) -> Response<RespBody> {
    let q = Query::parse(req.uri().query());
    let u = |name: &str| q.get(name).map(|v| parse_u64(name, v)).transpose();
    let (seed, heartbeat, events) = match (u("seed"), u("heartbeat"), u("events")) {
        (Ok(s), Ok(h), Ok(e)) => (s.unwrap_or(1), h, e.unwrap_or(1000)),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
            return error(StatusCode::BAD_REQUEST, e)
        }
    };
    let speed = match q.get("speed").map(str::parse::<f64>) {
        None => app.config.default_speed,
        Some(Ok(s)) if s.is_finite() && (0.0..=10_000.0).contains(&s) => s,
        Some(_) => return error(StatusCode::BAD_REQUEST, "speed: not a number in 0..=10000"),
    };
    let scenario = match q.get("scenario").map(Scenario::from_id) {
        None => Scenario::Quick,
        Some(Some(s)) => s,
        Some(None) => return error(StatusCode::NOT_FOUND, "unknown scenario"),
    };
    if !(crate::scenarios::bulk::MIN_EVENTS..=MAX_DIALECT_EVENTS).contains(&events) {
        return error(
            StatusCode::BAD_REQUEST,
            format!(
                "events: outside {}..={MAX_DIALECT_EVENTS}",
                crate::scenarios::bulk::MIN_EVENTS
            ),
        );
    }
    let faults_str = q.get("faults").unwrap_or("").to_owned();
    let faults = match Faults::parse(&faults_str) {
        Ok(f) => f,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("faults: {e}")),
    };
    let deferred = match q.get("start") {
        None | Some("message") => true,
        Some("connect") => false,
        Some(other) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("start: {other:?} is not message or connect"),
            )
        }
    };
    let Some(resp) = upgrade_response::<RespBody>(&req) else {
        return error(
            StatusCode::BAD_REQUEST,
            "expected a WebSocket upgrade request",
        );
    };
    let run = app.runs.get_or_create(RunSpec {
        id: String::new(),
        scenario,
        seed,
        speed,
        faults: faults_str,
        events,
        params_key: format!("myagent|{}|{seed}|{speed}|{events}", scenario.id()),
        deferred,
    });
    let heartbeat = Duration::from_millis(
        heartbeat
            .or(faults.heartbeat)
            .unwrap_or(DEFAULT_HEARTBEAT_MS)
            .max(10),
    );
    let app = app.clone();
    tokio::spawn(async move {
        if let Ok(up) = hyper::upgrade::on(&mut req).await {
            let io = WsConn::new(up).into_io();
            let (rd, wr) = tokio::io::split(io);
            let (tx, rx) = mpsc::channel(16);
            let reader = tokio::spawn(read_loop(rd, tx));
            let n = app.ws_connections.fetch_add(1, Ordering::Relaxed) + 1;
            let enc = dialects::encoded(&run, Dialect::MyAgent);
            if let Some(enc) = enc {
                let first = run.next_stream_index() == 0;
                let mut s = Session {
                    app: app.clone(),
                    run,
                    enc,
                    faults,
                    first,
                    cursor: 0,
                    sent: 0,
                    silent: false,
                    heartbeat,
                    wr,
                    conn_id: format!("conn-{n}"),
                    rx,
                    malformed_sent: 0,
                };
                s.run.connection_live(true);
                let run = s.run.clone();
                let _ = s.serve().await;
                s.run.connection_live(false);
                drop(run);
            }
            reader.abort();
        }
    });
    resp
}

async fn read_loop(mut rd: tokio::io::ReadHalf<TokioIo<Upgraded>>, tx: mpsc::Sender<Frame>) {
    let mut partial = Partial::default();
    loop {
        let item = match read_next(&mut rd, &mut partial).await {
            Ok(i) => i,
            Err(_) => Frame::Eof,
        };
        let stop = matches!(
            item,
            Frame::Eof | Frame::Violation(..) | Frame::Message(Message::Close(_))
        );
        if tx.send(item).await.is_err() || stop {
            return;
        }
    }
}

/// The connection ended (client gone, closed, or cut on purpose).
struct Gone;

struct Session {
    app: Arc<App>,
    run: Arc<Run>,
    enc: Arc<Mutex<Encoded>>,
    faults: Faults,
    /// This is the run's first connection (`drop`, `silent`).
    first: bool,
    /// The next frame to send (its `seq` is `cursor + 1`).
    cursor: usize,
    /// Run events sent on this connection.
    sent: u64,
    silent: bool,
    heartbeat: Duration,
    wr: WriteHalf<TokioIo<Upgraded>>,
    conn_id: String,
    rx: mpsc::Receiver<Frame>,
    malformed_sent: u8,
}

impl Session {
    fn session_id(&self) -> &str {
        &self.run.context_id
    }

    async fn write(&mut self, buf: &[u8]) -> Result<(), Gone> {
        if buf.is_empty() {
            return Ok(());
        }
        self.wr.write_all(buf).await.map_err(|_| Gone)?;
        self.wr.flush().await.map_err(|_| Gone)
    }

    async fn send_json(&mut self, v: &Value) -> Result<(), Gone> {
        let mut buf = Vec::new();
        push_frame(&mut buf, 0x1, v.to_string().as_bytes());
        self.write(&buf).await
    }

    async fn close(&mut self, code: u16, reason: &str) {
        let mut p = code.to_be_bytes().to_vec();
        p.extend_from_slice(&reason.as_bytes()[..reason.len().min(120)]);
        let mut buf = Vec::new();
        push_frame(&mut buf, 0x8, &p);
        let _ = self.write(&buf).await;
    }

    /// A connection-level frame (no `seq`).
    fn frame(&self, event: &str, step: Option<&str>, content: Value, metadata: Value) -> Value {
        dialects::obj([
            ("session_id", self.session_id().into()),
            ("connection_id", self.conn_id.as_str().into()),
            ("step_id", dialects::opt_str(step)),
            ("event", event.into()),
            ("timestamp", now_timestamp().into()),
            ("content", content),
            ("metadata", metadata),
        ])
    }

    async fn system_error(&mut self, code: &str, message: String, about: &str) -> Result<(), Gone> {
        let e = self.frame(
            "system.error",
            None,
            message.into(),
            json!({"error_code": code, "severity": "warning", "in_reply_to": about}),
        );
        self.send_json(&e).await
    }

    fn uptime(&self) -> u64 {
        self.app.started.elapsed().as_secs()
    }

    async fn serve(&mut self) -> Result<(), Gone> {
        let hello = dialects::obj([
            ("connection_id", self.conn_id.as_str().into()),
            ("session_id", self.session_id().into()),
            ("event", "system.connected".into()),
            ("timestamp", now_timestamp().into()),
            (
                "content",
                json!({"server_version": SERVER_VERSION, "server_time": now_timestamp()}),
            ),
            (
                "metadata",
                json!({"server_uptime_seconds": self.uptime(), "active_sessions": self.app.runs.len()}),
            ),
        ]);
        self.send_json(&hello).await?;
        if let Some(code) = self.faults.close_after_hello {
            self.close(code, "session refused").await;
            return Ok(());
        }
        if self.first && self.faults.silent == Some(0) {
            self.silent = true;
        }
        let mut watch = self.run.subscribe();
        loop {
            watch.borrow_and_update();
            if !self.silent {
                let (len, finished, _) = self.run.status();
                let (frames, total) = {
                    let mut enc = lock(&self.enc);
                    enc.sync(&self.run, len);
                    let n = enc.frames();
                    let frames: Vec<(u64, dialects::DFrame)> = enc
                        .frame_range(self.cursor, self.cursor + BATCH)
                        .into_iter()
                        .enumerate()
                        .map(|(i, f)| (enc.pos_of_frame(self.cursor + i), f))
                        .collect();
                    (frames, n)
                };
                if !frames.is_empty() {
                    self.send_frames(frames).await?;
                    continue;
                }
                if finished && self.cursor >= total && self.run.is_started() {
                    self.close(1000, "run finished").await;
                    return Ok(());
                }
            }
            let hb = tokio::time::sleep(self.heartbeat);
            tokio::select! {
                r = watch.changed() => {
                    if r.is_err() {
                        return Ok(());
                    }
                }
                _ = hb, if !self.silent => {
                    let hb = dialects::obj([
                        ("session_id", self.session_id().into()),
                        ("event", "system.heartbeat".into()),
                        ("timestamp", now_timestamp().into()),
                        ("content", json!({"server_time": now_timestamp()})),
                        ("metadata", json!({"seq": self.cursor, "server_uptime_seconds": self.uptime()})),
                    ]);
                    self.send_json(&hb).await?;
                }
                m = self.rx.recv() => {
                    let Some(m) = m else { return Ok(()) };
                    match m {
                        Frame::Message(Message::Text(t)) => {
                            if self.client_frame(&t).await? {
                                watch = self.run.subscribe();
                            }
                        }
                        Frame::Message(Message::Binary(_)) => {
                            self.system_error("ERR_VALIDATION_400", "binary frames are not accepted: send JSON text frames".into(), "binary").await?;
                        }
                        Frame::Message(Message::Close(code)) => {
                            let echo = code.map(u16::to_be_bytes);
                            let mut buf = Vec::new();
                            push_frame(&mut buf, 0x8, echo.as_ref().map_or(&[][..], |c| &c[..]));
                            let _ = self.write(&buf).await;
                            return Ok(());
                        }
                        Frame::Ping(p) => {
                            let mut buf = Vec::new();
                            push_frame(&mut buf, 0xA, &p);
                            self.write(&buf).await?;
                        }
                        Frame::Violation(code, reason) => {
                            self.close(code, reason).await;
                            return Ok(());
                        }
                        Frame::Eof => return Ok(()),
                    }
                }
            }
        }
    }

    /// Sends run frames (positions are their canonical events), applying the faults.
    async fn send_frames(&mut self, frames: Vec<(u64, dialects::DFrame)>) -> Result<(), Gone> {
        let mut buf = Vec::new();
        for (pos, f) in frames {
            if self.first && self.faults.drop == Some(self.sent) {
                self.write(&buf).await?;
                // Cut: no close frame (the reader and writer are dropped by the caller).
                return Err(Gone);
            }
            self.cursor += 1;
            if self.faults.loses(pos) {
                continue;
            }
            match self.faults.huge_answer {
                Some(mb) if f.data.windows(18).any(|w| w == b"agent.final_answer") => {
                    push_frame(&mut buf, 0x1, &huge_answer(&f.data, mb));
                }
                _ => push_frame(&mut buf, 0x1, &f.data),
            }
            self.sent += 1;
            if self.first && self.faults.foreign_session && self.cursor == 1 {
                // Another session's frames, numbered as this session's next ones.
                let other = format!("intruder-{}", self.session_id());
                let ts = now_timestamp();
                for e in [
                    json!({"session_id": other, "event": "agent.tool_call", "timestamp": ts,
                        "content": {"tool_name": "rm_rf", "arguments": {"path": "/"}},
                        "metadata": {"call_id": "intruder_call"}, "seq": 2}),
                    json!({"session_id": other, "event": "agent.final_answer", "timestamp": ts,
                        "content": {"answer": "not yours", "answer_type": "text"}, "seq": 3}),
                ] {
                    push_frame(&mut buf, 0x1, e.to_string().as_bytes());
                }
            }
            if let (Some(mb), 2) = (self.faults.huge, self.cursor) {
                // One extra agent.partial_answer of MB MiB (no seq).
                let text = "x".repeat((mb as usize) << 20);
                let e = json!({"session_id": self.session_id(), "event": "agent.partial_answer",
                    "timestamp": now_timestamp(), "content": text, "metadata": {"chunk_index": 1000000}});
                push_frame(&mut buf, 0x1, e.to_string().as_bytes());
            }
            if self.faults.malformed {
                self.malformed(&mut buf);
            }
            if self.first && self.faults.silent == Some(self.sent) {
                self.silent = true;
                break;
            }
        }
        self.write(&buf).await
    }

    /// The fault `malformed`, after the frames with seq 1, 3, 5 and 6.
    fn malformed(&mut self, buf: &mut Vec<u8>) {
        let seq = self.cursor;
        let step = match (seq, self.malformed_sent) {
            (1, 0) => 1,
            (3, 1) => 2,
            (5, 2) => 3,
            (6, 3) => 4,
            _ => return,
        };
        self.malformed_sent = step;
        let ts = now_timestamp();
        match step {
            1 => push_frame(buf, 0x1, b"{not json"),
            2 => push_frame(buf, 0x2, b"\xFF\xFE"),
            3 => {
                let e = dialects::malformed_unknown(Dialect::MyAgent, self.session_id(), "", &ts);
                push_frame(buf, 0x1, e.to_string().as_bytes());
            }
            _ => {
                let e = dialects::malformed_missing(Dialect::MyAgent, self.session_id(), "", &ts);
                push_frame(buf, 0x1, e.to_string().as_bytes());
            }
        }
    }

    /// Handles one client text frame; `true` when the connection switched to another run.
    async fn client_frame(&mut self, text: &str) -> Result<bool, Gone> {
        let v: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                self.system_error("ERR_VALIDATION_400", format!("invalid JSON: {e}"), "?")
                    .await?;
                return Ok(false);
            }
        };
        let Some(event) = v.get("event").and_then(Value::as_str) else {
            self.system_error(
                "ERR_VALIDATION_400",
                "a client frame needs an \"event\" string".into(),
                "?",
            )
            .await?;
            return Ok(false);
        };
        let event = event.to_owned();
        if let Some(s) = v.get("session_id").filter(|s| !s.is_null()) {
            if event != "user.reconnect" && s.as_str() != Some(self.session_id()) {
                let msg = format!(
                    "session_id {s} is not this connection's session {:?}",
                    self.session_id()
                );
                self.system_error("ERR_SESSION_MISMATCH", msg, &event)
                    .await?;
                return Ok(false);
            }
        }
        let content = v.get("content").filter(|c| !c.is_null());
        match event.as_str() {
            "user.create_session" => {
                let mut c = content
                    .and_then(Value::as_object)
                    .cloned()
                    .unwrap_or_default();
                c.insert("session_id".into(), self.session_id().into());
                let e = self.frame(
                    "agent.session_created",
                    None,
                    Value::Object(c),
                    json!({"scenario": self.run.spec.scenario.id(), "run_id": self.run.spec.id}),
                );
                self.send_json(&e).await?;
            }
            "user.message" if self.first && self.faults.ignore_message => {
                // The fault ignoreMessage: read, never acted on (once).
                self.faults.ignore_message = false;
            }
            "user.message" if self.first && self.faults.lose_message => {
                // The fault loseMessage: the message is lost with the connection.
                return Err(Gone);
            }
            "user.message" => {
                if content.and_then(Value::as_str).is_none() {
                    self.system_error(
                        "ERR_VALIDATION_400",
                        "user.message: content must be a string".into(),
                        &event,
                    )
                    .await?;
                } else if !self.run.start() {
                    self.system_error(
                        "ERR_SESSION_BUSY",
                        "this session's run has already started (one turn per session)".into(),
                        &event,
                    )
                    .await?;
                }
            }
            "user.response" if self.first && self.faults.lose_response => {
                // The fault loseResponse: the answer is lost with the connection.
                return Err(Gone);
            }
            "user.response" => self.response(&v, &event).await?,
            "user.ack" => match content
                .and_then(|c| c.get("last_seq"))
                .and_then(Value::as_u64)
            {
                Some(n) => self.run.ack(n),
                None => {
                    self.system_error(
                        "ERR_VALIDATION_400",
                        "user.ack: content.last_seq must be a non-negative integer".into(),
                        &event,
                    )
                    .await?
                }
            },
            "user.cancel" => {
                let outcome = self
                    .run
                    .root_task()
                    .map(|root| self.run.request_cancel(&root));
                match outcome {
                    Some(AnswerOutcome::Accepted) => {}
                    _ => {
                        self.system_error(
                            "ERR_NOT_CANCELABLE",
                            "nothing to cancel: the run has not started or has ended".into(),
                            &event,
                        )
                        .await?
                    }
                }
            }
            "user.reconnect" => return self.reconnect(content, &event).await,
            "user.reconnect_with_state" | "user.request_state" => {
                self.system_error(
                    "ERR_UNSUPPORTED",
                    format!("{event} is not supported by this server (use user.reconnect)"),
                    &event,
                )
                .await?
            }
            other => {
                self.system_error(
                    "ERR_VALIDATION_400",
                    format!("unknown client event {other:?}"),
                    other,
                )
                .await?
            }
        }
        Ok(false)
    }

    async fn response(&mut self, v: &Value, event: &str) -> Result<(), Gone> {
        let step = v.get("step_id").and_then(Value::as_str);
        let content = v.get("content").and_then(Value::as_object);
        let approved = content
            .and_then(|c| c.get("approved"))
            .and_then(Value::as_bool);
        let (Some(step), Some(c), Some(approved)) = (step, content, approved) else {
            return self
                .system_error(
                    "ERR_VALIDATION_400",
                    "user.response needs step_id and content {approved: boolean}".into(),
                    event,
                )
                .await;
        };
        let run = self.run.clone();
        if let Some(key) = run.find_request("auth", step) {
            let outcome = if approved {
                let mut body = serde_json::Map::new();
                if let Some(u) = c
                    .get("data")
                    .and_then(|d| d.get("userId"))
                    .and_then(Value::as_str)
                {
                    body.insert("userId".into(), u.into());
                }
                run.answer(&key, Value::Object(body))
            } else if run.is_open(&key) {
                // Declining to sign in ends the run.
                run.root_task()
                    .map_or(AnswerOutcome::Unknown, |r| run.request_cancel(&r))
            } else {
                AnswerOutcome::AlreadyAnswered
            };
            return self.outcome(outcome, step, event).await;
        }
        let Some(key) = run.find_request("input", step) else {
            return self
                .system_error(
                    "ERR_UNKNOWN_STEP",
                    format!("no confirmation with step_id {step:?}"),
                    event,
                )
                .await;
        };
        let request: Value = run
            .opened_at(&key)
            .and_then(|p| run.range(p, p + 1).into_iter().next())
            .and_then(|e| serde_json::from_str(e.data()).ok())
            .unwrap_or_default();
        let value = response_value(c, approved, request["inputType"].as_str());
        let outcome = run.answer(&key, json!({"value": value}));
        self.outcome(outcome, step, event).await
    }

    async fn outcome(&mut self, o: AnswerOutcome, step: &str, event: &str) -> Result<(), Gone> {
        match o {
            AnswerOutcome::Accepted => Ok(()),
            AnswerOutcome::Unknown => {
                self.system_error(
                    "ERR_UNKNOWN_STEP",
                    format!("no confirmation with step_id {step:?}"),
                    event,
                )
                .await
            }
            AnswerOutcome::AlreadyAnswered => {
                self.system_error(
                    "ERR_ALREADY_ANSWERED",
                    format!("step {step:?} was already answered"),
                    event,
                )
                .await
            }
        }
    }

    async fn reconnect(&mut self, content: Option<&Value>, event: &str) -> Result<bool, Gone> {
        let Some(session) = content
            .and_then(|c| c.get("session_id"))
            .and_then(Value::as_str)
        else {
            self.system_error(
                "ERR_VALIDATION_400",
                "user.reconnect: content.session_id must be a string".into(),
                event,
            )
            .await?;
            return Ok(false);
        };
        if self.faults.forget_session {
            // The fault forgetSession: the server lost its sessions and starts a new one.
            self.system_error(
                "ERR_SESSION_NOT_FOUND",
                format!("no session {session:?}"),
                event,
            )
            .await?;
            let e = self.frame(
                "agent.session_created",
                None,
                json!({"session_id": self.session_id()}),
                json!({}),
            );
            self.send_json(&e).await?;
            return Ok(false);
        }
        let Some(target) = self.app.runs.by_context(session) else {
            self.system_error(
                "ERR_SESSION_NOT_FOUND",
                format!("no session {session:?}"),
                event,
            )
            .await?;
            return Ok(false);
        };
        let last = match content.and_then(|c| c.get("last_seq")) {
            None | Some(Value::Null) => target.acked(),
            Some(x) => match x.as_u64() {
                Some(n) => Some(n),
                None => {
                    self.system_error(
                        "ERR_VALIDATION_400",
                        "user.reconnect: content.last_seq must be a non-negative integer".into(),
                        event,
                    )
                    .await?;
                    return Ok(false);
                }
            },
        };
        let Some(enc) = dialects::encoded(&target, Dialect::MyAgent) else {
            return Ok(false);
        };
        if !Arc::ptr_eq(&target, &self.run) {
            // This connection's own run was never used: let it go.
            if !self.run.is_started() {
                self.run.finish();
            }
            self.run.connection_live(false);
            target.connection_live(true);
            self.first = target.next_stream_index() == 0;
        }
        let faults = Faults::parse(&target.spec.faults).unwrap_or_default();
        let mut cursor = last.unwrap_or(0) as usize;
        if faults.restart {
            cursor = 0;
        } else if let Some(k) = faults.dup {
            cursor = cursor.saturating_sub(k as usize);
        }
        self.run = target;
        self.enc = enc;
        self.faults = faults;
        self.cursor = cursor;
        self.sent = 0;
        self.silent = false;
        self.malformed_sent = 4;
        Ok(true)
    }
}

/// The fault `hugeAnswer=MB`: the final answer frame `data` with its answer padded to MB MiB.
fn huge_answer(data: &[u8], mb: u64) -> Vec<u8> {
    let Ok(mut v) = serde_json::from_slice::<Value>(data) else {
        return data.to_vec();
    };
    let pad = "x".repeat((mb as usize) << 20);
    if let Some(c) = v.get_mut("content").and_then(Value::as_object_mut) {
        let answer = c
            .get("answer")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        c.insert("answer".into(), Value::from(answer + &pad));
    }
    v.to_string().into_bytes()
}

/// The canonical answer of a `user.response` content: `data.selected` / `data.value` / a
/// non-empty `data` object when given; else for a confirmation `"approve"` / `"deny"`; else the
/// `feedback`; else `approved`.
pub fn response_value(
    c: &serde_json::Map<String, Value>,
    approved: bool,
    input_type: Option<&str>,
) -> Value {
    if let Some(d) = c.get("data").filter(|d| !d.is_null()) {
        if let Some(x) = d.get("selected").or_else(|| d.get("value")) {
            return x.clone();
        }
        if d.as_object().is_some_and(|o| !o.is_empty()) {
            return d.clone();
        }
    }
    if confirmation_type(input_type) == "approve" {
        return Value::from(if approved { "approve" } else { "deny" });
    }
    if let Some(f) = c.get("feedback").and_then(Value::as_str) {
        return Value::from(f);
    }
    Value::from(approved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_values() {
        let m = |v: Value| v.as_object().cloned().unwrap_or_default();
        assert_eq!(
            response_value(&m(json!({"approved": true})), true, Some("confirmation")),
            json!("approve")
        );
        assert_eq!(
            response_value(&m(json!({"approved": false})), false, Some("confirmation")),
            json!("deny")
        );
        assert_eq!(
            response_value(
                &m(json!({"approved": true, "data": {"selected": "b"}})),
                true,
                Some("selection")
            ),
            json!("b")
        );
        assert_eq!(
            response_value(
                &m(json!({"approved": true, "feedback": "blue"})),
                true,
                Some("clarification")
            ),
            json!("blue")
        );
    }
}
