//! Test support: an in-process server on port 0, a tiny HTTP/1.1 client over a tokio
//! TcpStream (chunked decoding included, so an aborted body is visible), an SSE splitter, and a
//! protocol-000 checker.
#![allow(dead_code)]

use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Starts a server (speed default 0 so that forgetting `speed=` cannot slow a test down).
pub async fn server() -> SocketAddr {
    server_with(agentwire_scenario::Config {
        default_speed: 0.0,
        ..Default::default()
    })
    .await
}

/// Starts a server with `config` (port forced to 0).
pub async fn server_with(config: agentwire_scenario::Config) -> SocketAddr {
    agentwire_scenario::spawn(agentwire_scenario::Config { port: 0, ..config })
        .await
        .expect("bind")
}

/// One HTTP exchange, read incrementally.
pub struct Conn {
    stream: TcpStream,
    raw: Vec<u8>,
    /// Status code.
    pub status: u16,
    /// Headers (names lower-cased).
    pub headers: Vec<(String, String)>,
    chunked: bool,
    remaining: Option<usize>,
    /// The decoded body so far.
    pub body: Vec<u8>,
    /// The body ended properly (terminating chunk, or Content-Length reached).
    pub ended: bool,
    /// The server closed the connection.
    pub eof: bool,
}

/// Sends a request and reads the response head.
pub async fn open(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Conn {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some(b) = body {
        req.push_str(&format!("Content-Length: {}\r\n", b.len()));
    }
    req.push_str("\r\n");
    if let Some(b) = body {
        req.push_str(b);
    }
    stream.write_all(req.as_bytes()).await.expect("write");
    let mut c = Conn {
        stream,
        raw: Vec::new(),
        status: 0,
        headers: Vec::new(),
        chunked: false,
        remaining: None,
        body: Vec::new(),
        ended: false,
        eof: false,
    };
    let head_end = loop {
        if let Some(p) = c.raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break p;
        }
        assert!(
            c.read_raw(Duration::from_secs(10)).await,
            "no response head"
        );
    };
    let head = String::from_utf8_lossy(&c.raw[..head_end]).into_owned();
    c.raw.drain(..head_end + 4);
    let mut lines = head.split("\r\n");
    c.status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("status line");
    for l in lines {
        if let Some((k, v)) = l.split_once(':') {
            c.headers
                .push((k.trim().to_ascii_lowercase(), v.trim().to_owned()));
        }
    }
    c.chunked = c
        .header("transfer-encoding")
        .is_some_and(|v| v.contains("chunked"));
    c.remaining = c.header("content-length").and_then(|v| v.parse().ok());
    if c.status == 204 || c.status == 304 || method == "HEAD" {
        c.remaining = Some(0);
    }
    c.decode();
    c
}

impl Conn {
    /// A response header.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    async fn read_raw(&mut self, timeout: Duration) -> bool {
        let mut buf = vec![0u8; 64 * 1024];
        match tokio::time::timeout(timeout, self.stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => {
                self.eof = true;
                false
            }
            Ok(Ok(n)) => {
                self.raw.extend_from_slice(&buf[..n]);
                true
            }
            Err(_) => false,
        }
    }

    fn decode(&mut self) {
        if self.ended {
            return;
        }
        if self.chunked {
            loop {
                let Some(p) = self.raw.windows(2).position(|w| w == b"\r\n") else {
                    return;
                };
                let line = String::from_utf8_lossy(&self.raw[..p]).into_owned();
                let size = usize::from_str_radix(line.split(';').next().unwrap_or("").trim(), 16)
                    .expect("chunk size");
                if size == 0 {
                    self.ended = true;
                    return;
                }
                if self.raw.len() < p + 2 + size + 2 {
                    return;
                }
                self.body.extend_from_slice(&self.raw[p + 2..p + 2 + size]);
                self.raw.drain(..p + 2 + size + 2);
            }
        } else {
            self.body.append(&mut self.raw);
            if let Some(n) = self.remaining {
                if self.body.len() >= n {
                    self.ended = true;
                }
            }
        }
    }

    /// Reads more; false on EOF, timeout or end of body.
    pub async fn more(&mut self, timeout: Duration) -> bool {
        if self.ended || self.eof {
            return false;
        }
        let got = self.read_raw(timeout).await;
        self.decode();
        if self.eof && !self.chunked && self.remaining.is_none() {
            self.ended = true;
        }
        got
    }

    /// Reads until the body ends or the connection closes (panics after `secs`).
    pub async fn finish(mut self, secs: u64) -> Conn {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        while !self.ended && !self.eof {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            assert!(!left.is_zero(), "response did not end within {secs} s");
            self.more(left).await;
        }
        self
    }

    /// Reads until the body contains `needle`; false when it did not within `timeout`.
    pub async fn wait_for(&mut self, needle: &str, timeout: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if contains(&self.body, needle.as_bytes()) {
                return true;
            }
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() || self.ended || self.eof {
                return contains(&self.body, needle.as_bytes());
            }
            self.more(left).await;
        }
    }

    /// The body as text (lossy).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("JSON body")
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len().max(1)).any(|w| w == needle)
}

/// A complete request: sends, reads to the end.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Conn {
    open(addr, method, path, headers, body)
        .await
        .finish(30)
        .await
}

/// GET `path`, read to the end.
pub async fn get(addr: SocketAddr, path: &str) -> Conn {
    request(addr, "GET", path, &[], None).await
}

/// POST a JSON body.
pub async fn post(addr: SocketAddr, path: &str, body: &str) -> Conn {
    request(
        addr,
        "POST",
        path,
        &[("Content-Type", "application/json")],
        Some(body),
    )
    .await
}

/// One SSE block (lines up to a blank line).
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// `id:` value.
    pub id: Option<String>,
    /// `event:` value.
    pub event: Option<String>,
    /// `data:` lines joined by `\n`.
    pub data: Option<String>,
    /// `retry:` value.
    pub retry: Option<String>,
    /// A comment-only block.
    pub comment: bool,
}

impl Block {
    /// The data as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(self.data.as_deref().unwrap_or("")).expect("JSON data")
    }
    /// The numeric id.
    pub fn num(&self) -> u64 {
        self.id.as_deref().and_then(|i| i.parse().ok()).expect("id")
    }
}

/// Splits a stream into complete blocks (an unterminated last block is dropped).
pub fn blocks(body: &[u8]) -> Vec<Block> {
    let text = String::from_utf8_lossy(body);
    let mut out = Vec::new();
    let mut parts: Vec<&str> = text.split("\n\n").collect();
    parts.pop();
    for part in parts {
        let mut b = Block {
            id: None,
            event: None,
            data: None,
            retry: None,
            comment: false,
        };
        let mut any_field = false;
        for line in part.split('\n') {
            if line.starts_with(':') {
                b.comment = true;
                continue;
            }
            let (k, v) = line.split_once(':').unwrap_or((line, ""));
            let v = v.strip_prefix(' ').unwrap_or(v).to_owned();
            any_field = true;
            match k {
                "id" => b.id = Some(v),
                "event" => b.event = Some(v),
                "data" => {
                    b.data = Some(match b.data.take() {
                        Some(d) => format!("{d}\n{v}"),
                        None => v,
                    })
                }
                "retry" => b.retry = Some(v),
                _ => {}
            }
        }
        if any_field {
            b.comment = false;
        }
        if !part.is_empty() {
            out.push(b);
        }
    }
    out
}

/// The blocks that carry an `id:` (the run's events).
pub fn events(body: &[u8]) -> Vec<Block> {
    blocks(body)
        .into_iter()
        .filter(|b| b.id.is_some())
        .collect()
}

/// Every field the protocol requires, per kind (besides kind/contextId/taskId/timestamp).
pub fn required(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "task-created" => &["initiator"],
        "task-status" => &["status"],
        "task-complete" => &[],
        "content-delta" => &["delta", "index"],
        "content-complete" => &["content"],
        "tool-start" => &["toolCallId", "toolName", "arguments"],
        "tool-progress" => &["toolCallId", "progress"],
        "tool-complete" => &["toolCallId", "toolName", "success"],
        "input-required" => &["inputId", "inputType", "prompt"],
        "input-received" => &["inputId", "providedBy"],
        "auth-required" => &["authId", "authType", "prompt"],
        "auth-completed" => &["authId", "userId"],
        "file-write" => &["artifactId", "data", "index", "complete"],
        "data-write" => &["artifactId", "data"],
        "dataset-write" => &["artifactId", "rows", "index", "complete"],
        "subtask-created" => &["subtaskId", "prompt"],
        "thought-stream" => &["thoughtId", "thoughtType", "verbosity", "content", "index"],
        "internal:thought-process" => &["iteration", "stage", "reasoning", "state"],
        "internal:llm-call" => &["iteration", "model", "messageCount", "toolCount"],
        "internal:checkpoint" => &["iteration"],
        "internal:tool-start" => &["toolName", "toolCallId"],
        "internal:tool-complete" => &["toolCallId", "success"],
        _ => return None,
    })
}

/// Every kind of protocol 000.
pub const ALL_KINDS: [&str; 22] = [
    "task-created",
    "task-status",
    "task-complete",
    "content-delta",
    "content-complete",
    "tool-start",
    "tool-progress",
    "tool-complete",
    "input-required",
    "input-received",
    "auth-required",
    "auth-completed",
    "file-write",
    "data-write",
    "dataset-write",
    "subtask-created",
    "thought-stream",
    "internal:thought-process",
    "internal:llm-call",
    "internal:checkpoint",
    "internal:tool-start",
    "internal:tool-complete",
];

fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 24
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && b[19] == b'.'
        && b[23] == b'Z'
        && b.iter()
            .enumerate()
            .all(|(i, c)| [4, 7, 10, 13, 16, 19, 23].contains(&i) || c.is_ascii_digit())
}

/// Checks a complete, fault-free stream of one run against protocol 000: ids 0..n contiguous,
/// `event:` = kind without `internal:`, valid one-line JSON with the required fields and enum
/// values, one context, tools started before progress, chunk indexes contiguous with metadata
/// on chunk 0 and one `complete`, content-complete/task-complete equal to the deltas, every
/// task ending with a terminal status or task-complete, nothing after a terminal status.
/// Returns the events' JSON.
pub fn check_run(body: &[u8]) -> Vec<Value> {
    let evs = events(body);
    assert!(!evs.is_empty(), "no events");
    let mut out = Vec::new();
    let mut ctx: Option<String> = None;
    let mut tools = BTreeSet::new();
    let mut content: HashMap<String, String> = HashMap::new();
    let mut chunks: HashMap<String, (u64, bool)> = HashMap::new();
    let mut last_kind: HashMap<String, String> = HashMap::new();
    let mut terminal: BTreeSet<String> = BTreeSet::new();
    let mut timestamps = Vec::new();
    for (i, b) in evs.iter().enumerate() {
        assert_eq!(b.num(), i as u64, "ids are contiguous from 0");
        let data = b.data.as_deref().expect("data");
        assert!(!data.contains('\n'), "one-line data");
        let v: Value = serde_json::from_str(data).expect("valid JSON");
        let kind = v["kind"].as_str().expect("kind").to_owned();
        assert_eq!(
            b.event.as_deref(),
            Some(kind.strip_prefix("internal:").unwrap_or(&kind)),
            "event name of {kind}"
        );
        let req = required(&kind).unwrap_or_else(|| panic!("unknown kind {kind}"));
        for f in req {
            assert!(v.get(*f).is_some(), "{kind} #{i} lacks {f}: {v}");
        }
        let c = v["contextId"].as_str().expect("contextId").to_owned();
        assert_eq!(ctx.get_or_insert(c.clone()), &c, "one context per run");
        let task = v["taskId"].as_str().expect("taskId").to_owned();
        let ts = v["timestamp"].as_str().expect("timestamp");
        assert!(is_timestamp(ts), "timestamp {ts}");
        timestamps.push(ts.to_owned());
        if kind.starts_with("internal:") || kind == "task-status" || kind == "task-complete" {
        } else {
            assert!(
                !terminal.contains(&task),
                "{kind} #{i} after a terminal status of {task}"
            );
        }
        let s = |k: &str| v[k].as_str().unwrap_or_default().to_owned();
        match kind.as_str() {
            "task-created" => assert!(["user", "agent"].contains(&s("initiator").as_str())),
            "task-status" => {
                let st = s("status");
                assert!([
                    "working",
                    "waiting-input",
                    "waiting-auth",
                    "waiting-subtask",
                    "completed",
                    "failed",
                    "canceled"
                ]
                .contains(&st.as_str()));
                assert!(!terminal.contains(&task), "status after terminal");
                if ["completed", "failed", "canceled"].contains(&st.as_str()) {
                    terminal.insert(task.clone());
                    if st != "completed" {
                        assert!(v["metadata"]["reason"].is_string(), "{st} has a reason");
                    }
                }
            }
            "content-delta" => {
                let idx = v["index"].as_u64().expect("index");
                let e = content.entry(task.clone()).or_default();
                let n = chunks.entry(format!("content:{task}")).or_default();
                assert_eq!(idx, n.0, "content index of {task}");
                n.0 += 1;
                e.push_str(v["delta"].as_str().expect("delta"));
            }
            "content-complete" => assert_eq!(
                Some(v["content"].as_str().expect("content")),
                content.get(&task).map(String::as_str),
                "content-complete of {task}"
            ),
            "task-complete" => {
                if let Some(c) = v["content"].as_str() {
                    if let Some(acc) = content.get(&task) {
                        assert_eq!(c, acc, "task-complete content of {task}");
                    }
                }
            }
            "tool-start" => {
                assert!(v["arguments"].is_object());
                tools.insert(s("toolCallId"));
            }
            "tool-progress" => {
                assert!(tools.contains(&s("toolCallId")), "progress before start");
                let p = v["progress"].as_f64().expect("progress");
                assert!((0.0..=1.0).contains(&p));
            }
            "tool-complete" => {
                assert!(tools.contains(&s("toolCallId")), "complete before start");
                assert!(v["success"].is_boolean());
                if v["success"] == false {
                    assert!(v["error"].is_string());
                }
            }
            "input-required" => assert!([
                "tool-execution",
                "confirmation",
                "clarification",
                "selection",
                "custom"
            ]
            .contains(&s("inputType").as_str())),
            "input-received" => assert!(["user", "agent"].contains(&s("providedBy").as_str())),
            "auth-required" => assert!(["oauth2", "api-key", "password", "biometric", "custom"]
                .contains(&s("authType").as_str())),
            "thought-stream" => {
                assert!([
                    "planning",
                    "reasoning",
                    "reflection",
                    "decision",
                    "observation",
                    "strategy"
                ]
                .contains(&s("thoughtType").as_str()));
                assert!(["brief", "normal", "detailed"].contains(&s("verbosity").as_str()));
                if let Some(c) = v["metadata"]["confidence"].as_f64() {
                    assert!((0.0..=1.0).contains(&c));
                }
            }
            "file-write" | "dataset-write" => {
                let key = format!("artifact:{}", s("artifactId"));
                let idx = v["index"].as_u64().expect("index");
                let n = chunks.entry(key.clone()).or_default();
                assert!(!n.1, "chunk after complete in {key}");
                assert_eq!(idx, n.0, "chunk index of {key}");
                n.0 += 1;
                n.1 = v["complete"].as_bool().expect("complete");
                let first_only: &[&str] = if kind == "file-write" {
                    &["name", "mimeType", "encoding"]
                } else {
                    &["name", "schema"]
                };
                for f in first_only {
                    assert_eq!(
                        v.get(*f).is_some(),
                        idx == 0,
                        "{f} only on chunk 0 of {key}"
                    );
                }
                if kind == "file-write" && idx == 0 {
                    assert!(["utf-8", "base64"].contains(&s("encoding").as_str()));
                }
            }
            "data-write" => assert!(v["data"].is_object()),
            _ => {}
        }
        last_kind.insert(task, kind.clone());
        out.push(v);
    }
    for (key, (_, complete)) in &chunks {
        if key.starts_with("artifact:") {
            assert!(complete, "{key} never completed");
        }
    }
    for (task, kind) in &last_kind {
        assert!(
            terminal.contains(task) || kind == "task-complete",
            "task {task} ends with {kind}"
        );
    }
    let mut sorted = timestamps.clone();
    sorted.sort();
    assert_eq!(sorted, timestamps, "timestamps never go back");
    out
}

/// The kinds in a list of events.
pub fn kinds(evs: &[Value]) -> BTreeSet<String> {
    evs.iter()
        .filter_map(|v| v["kind"].as_str().map(str::to_owned))
        .collect()
}

/// The first event of `kind` matching `pred`.
pub fn find<'a>(evs: &'a [Value], kind: &str, pred: impl Fn(&Value) -> bool) -> Option<&'a Value> {
    evs.iter().find(|v| v["kind"] == kind && pred(v))
}

/// Decodes standard base64 (test-only; panics on bad input).
pub fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a' + 26) as u32,
            b'0'..=b'9' => (c - b'0' + 52) as u32,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("bad base64 {c}"),
        }
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::new();
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= val(c) << (18 - 6 * i);
        }
        let take = chunk.len() - 1;
        for i in 0..take {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}
