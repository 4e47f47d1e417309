//! The other protocols (`docs/dialects.md`): per-dialect encoders from the canonical (protocol 000) run
//! log, and the per-run cache of each dialect's encoding.
//!
//! | dialect | seed | encoder |
//! |---|---|---|
//! | `a2a` | 001 | [`a2a`] |
//! | `a2a-v1` | 001 (A2A v1.0) | [`a2a_v1`] |
//! | `acp` | 002 | [`acp`] |
//! | `unified` | 003 | [`unified`] |
//! | `myagent` | 004 | [`myagent`] |
//! | `ag-ui` | AG-UI 1.0 (`POST /api/ag-ui` only) | [`ag_ui`] |
//! | `ai-sdk` | Vercel AI SDK UI message stream (`POST /api/ai-sdk/chat` only) | [`ai_sdk`] |
//!
//! An [`Encoder`] turns one canonical event into 0..n dialect events (plain JSON values; a
//! little state per run: task states, artifact names, accumulated dataset rows). [`Encoded`] is
//! the encoding of one run in one dialect, extended as the run's log grows and shared by every
//! connection that watches the run in that dialect, so resumes, duplicates and the sequence
//! numbers of MyAgent are the same on every connection.

pub mod a2a;
pub mod a2a_v1;
pub mod acp;
pub mod ag_ui;
pub mod ai_sdk;
pub mod myagent;
pub mod unified;

use crate::run::{lock, Run};
use hyper::body::Bytes;
use serde_json::{Map, Value};
use std::sync::{Arc, Mutex};

/// A wire protocol the server can speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Protocol 000 (`docs/protocol-000.md`), the scripts' own.
    Canonical,
    /// A2A v0.3 streaming (seed 001).
    A2a,
    /// A2A v1.0 streaming: the same run as [`Dialect::A2a`] in v1.0 `StreamResponse`s.
    A2aV1,
    /// A2A-ACP notifications (seed 002).
    Acp,
    /// The Unified Agent Event Schema (seed 003).
    Unified,
    /// MyAgent WebSocket payloads (seed 004).
    MyAgent,
}

impl Dialect {
    /// Every dialect.
    pub const ALL: [Dialect; 6] = [
        Dialect::Canonical,
        Dialect::A2a,
        Dialect::A2aV1,
        Dialect::Acp,
        Dialect::Unified,
        Dialect::MyAgent,
    ];

    /// The name used in `dialect=`.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Canonical => "canonical",
            Dialect::A2a => "a2a",
            Dialect::A2aV1 => "a2a-v1",
            Dialect::Acp => "acp",
            Dialect::Unified => "unified",
            Dialect::MyAgent => "myagent",
        }
    }

    /// Parses a `dialect=` value.
    pub fn parse(s: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.as_str() == s)
    }
}

/// The frame is a status-update of the run's root task.
pub const ROOT_STATUS: u8 = 1;
/// The frame is a `final: true` status-update of the root task (A2A).
pub const ENDS: u8 = 2;
/// The frame ends the root task (completed, failed, canceled).
pub const TERMINAL: u8 = 4;
/// The frame is the root task's `failed` status-update (what the `rpcError` fault replaces).
pub const ROOT_FAILED: u8 = 8;

/// One dialect event produced by an encoder.
#[derive(Debug, Clone, PartialEq)]
pub struct Out {
    /// The event (a JSON object).
    pub data: Value,
    /// [`ROOT_STATUS`], [`ENDS`], [`TERMINAL`], [`ROOT_FAILED`].
    pub flags: u8,
}

impl Out {
    /// An event without flags.
    pub fn plain(data: Value) -> Out {
        Out { data, flags: 0 }
    }
}

/// One canonical event as an encoder sees it.
pub struct Canon<'a> {
    /// Its log position.
    pub id: u64,
    /// `kind`.
    pub kind: &'a str,
    /// The whole event.
    pub v: &'a Value,
}

impl<'a> Canon<'a> {
    /// A string member.
    pub fn str(&self, k: &str) -> Option<&'a str> {
        self.v.get(k).and_then(Value::as_str)
    }

    /// A member (`None` when absent or null).
    pub fn get(&self, k: &str) -> Option<&'a Value> {
        self.v.get(k).filter(|x| !x.is_null())
    }

    /// `taskId` (empty when absent).
    pub fn task(&self) -> &'a str {
        self.str("taskId").unwrap_or("")
    }

    /// `timestamp` (empty when absent).
    pub fn ts(&self) -> &'a str {
        self.str("timestamp").unwrap_or("")
    }

    /// A member of `metadata`.
    pub fn meta(&self, k: &str) -> Option<&'a Value> {
        self.v.get("metadata")?.get(k).filter(|x| !x.is_null())
    }
}

/// Turns canonical events into dialect events.
pub trait Encoder: Send {
    /// Appends what `ev` becomes to `out`.
    fn encode(&mut self, ev: &Canon<'_>, out: &mut Vec<Out>);
}

/// The task id a JSON-RPC dialect (A2A, ACP) uses for canonical task `task` of run `run`:
/// `<taskId>@<runId>`. Scripts draw task ids from the seed, so two runs with the same seed
/// share them; the suffix makes `tasks/cancel` & co. unambiguous.
pub fn task_id(task: &str, run: &str) -> String {
    format!("{task}@{run}")
}

/// Splits a dialect task id into `(canonical task id, run id)`; `None` without a `@`.
pub fn split_task_id(id: &str) -> Option<(&str, &str)> {
    id.rsplit_once('@')
        .filter(|(t, r)| !t.is_empty() && !r.is_empty())
}

/// The encoder of `dialect` for a run (`None` for canonical).
pub fn encoder(dialect: Dialect, run_id: &str, context_id: &str) -> Option<Box<dyn Encoder>> {
    match dialect {
        Dialect::Canonical => None,
        Dialect::A2a => Some(Box::new(a2a::A2aEncoder::new(run_id, context_id))),
        Dialect::A2aV1 => Some(Box::new(a2a_v1::A2aV1Encoder::new(run_id, context_id))),
        Dialect::Acp => Some(Box::new(acp::AcpEncoder::new(run_id, context_id))),
        Dialect::Unified => Some(Box::new(unified::UnifiedEncoder::new(run_id, context_id))),
        Dialect::MyAgent => Some(Box::new(myagent::MyAgentEncoder::new(context_id))),
    }
}

/// A JSON object from `(key, value)` pairs, leaving out nulls.
pub fn obj<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    let mut m = Map::new();
    for (k, v) in pairs {
        if !v.is_null() {
            m.insert(k.to_owned(), v);
        }
    }
    Value::Object(m)
}

/// `v` as an owned value, or null.
pub fn opt(v: Option<&Value>) -> Value {
    v.cloned().unwrap_or(Value::Null)
}

/// A string value, or null.
pub fn opt_str(s: Option<&str>) -> Value {
    s.map_or(Value::Null, Value::from)
}

/// What an encoder remembers of a canonical artifact: the members only its first chunk carries
/// and, for datasets, every row so far.
#[derive(Debug, Default, Clone)]
pub struct ArtifactInfo {
    /// `name`.
    pub name: Option<String>,
    /// `description`.
    pub description: Option<String>,
    /// `mimeType`.
    pub mime: Option<String>,
    /// `encoding` (`utf-8` / `base64`).
    pub encoding: Option<String>,
    /// `metadata.totalSize`.
    pub size: Option<Value>,
    /// A dataset's `schema`.
    pub schema: Option<Value>,
    /// A dataset's rows so far.
    pub rows: Vec<Value>,
}

impl ArtifactInfo {
    /// Records what `ev` (a `file-write`, `data-write` or `dataset-write`) says.
    pub fn note(&mut self, ev: &Canon<'_>) {
        let s = |k: &str| ev.str(k).map(str::to_owned);
        self.name = s("name").or(self.name.take());
        self.description = s("description").or(self.description.take());
        self.mime = s("mimeType").or(self.mime.take());
        self.encoding = s("encoding").or(self.encoding.take());
        if let Some(x) = ev.meta("totalSize") {
            self.size = Some(x.clone());
        }
        if let Some(x) = ev.get("schema") {
            self.schema = Some(x.clone());
        }
        if let Some(rows) = ev.get("rows").and_then(Value::as_array) {
            self.rows.extend(rows.iter().cloned());
        }
    }
}

/// The artifacts an encoder tracks, by canonical artifact id.
#[derive(Debug, Default, Clone)]
pub struct Artifacts(std::collections::HashMap<String, ArtifactInfo>);

impl Artifacts {
    /// Records `ev` (an artifact event) and returns what is known of its artifact.
    pub fn note(&mut self, ev: &Canon<'_>) -> &ArtifactInfo {
        let id = ev.str("artifactId").unwrap_or("").to_owned();
        let a = self.0.entry(id).or_default();
        a.note(ev);
        a
    }
}

/// One frame of an encoded run.
#[derive(Debug, Clone)]
pub struct DFrame {
    /// The event's JSON text (one line).
    pub data: Bytes,
    /// The encoder's flags.
    pub flags: u8,
}

/// The encoding of one run in one dialect.
pub struct Encoded {
    encoder: Box<dyn Encoder>,
    dialect: Dialect,
    run_id: String,
    frames: Vec<DFrame>,
    /// `starts[pos]`: index of the first frame of canonical event `pos`; one more entry than
    /// events encoded.
    starts: Vec<usize>,
    /// Frame indices of the root's status-updates.
    root_status: Vec<usize>,
    scratch: Vec<Out>,
}

/// How many canonical events are encoded per lock.
const SYNC_BATCH: u64 = 4096;

impl Encoded {
    fn new(dialect: Dialect, run: &Run) -> Option<Encoded> {
        Some(Encoded {
            encoder: encoder(dialect, &run.spec.id, &run.context_id)?,
            dialect,
            run_id: run.spec.id.clone(),
            frames: Vec::new(),
            starts: vec![0],
            root_status: Vec::new(),
            scratch: Vec::new(),
        })
    }

    /// Canonical events encoded so far.
    pub fn events(&self) -> u64 {
        (self.starts.len() - 1) as u64
    }

    /// Frames so far.
    pub fn frames(&self) -> usize {
        self.frames.len()
    }

    /// Encodes canonical events up to `to` (exclusive).
    pub fn sync(&mut self, run: &Run, to: u64) {
        while self.events() < to {
            let from = self.events();
            let batch = run.range(from, to.min(from + SYNC_BATCH));
            if batch.is_empty() {
                return;
            }
            for ev in batch {
                let v: Value = serde_json::from_str(ev.data()).unwrap_or(Value::Null);
                let c = Canon {
                    id: ev.id,
                    kind: &ev.kind,
                    v: &v,
                };
                self.scratch.clear();
                self.encoder.encode(&c, &mut self.scratch);
                for mut out in std::mem::take(&mut self.scratch) {
                    let n = self.frames.len() as u64 + 1;
                    if let Value::Object(m) = &mut out.data {
                        match self.dialect {
                            Dialect::MyAgent => {
                                m.insert("seq".into(), Value::from(n));
                            }
                            Dialect::Unified => {
                                m.insert(
                                    "event_id".into(),
                                    Value::from(format!("{}-{n}", self.run_id)),
                                );
                            }
                            _ => {}
                        }
                    }
                    if out.flags & ROOT_STATUS != 0 {
                        self.root_status.push(self.frames.len());
                    }
                    self.frames.push(DFrame {
                        data: Bytes::from(out.data.to_string()),
                        flags: out.flags,
                    });
                }
                self.starts.push(self.frames.len());
            }
        }
    }

    /// The frames of canonical events `from..to` (one list per event; events not encoded yet
    /// are left out).
    pub fn groups(&self, from: u64, to: u64) -> Vec<Vec<DFrame>> {
        let to = to.min(self.events());
        (from..to)
            .map(|p| self.frames[self.starts[p as usize]..self.starts[p as usize + 1]].to_vec())
            .collect()
    }

    /// Frames `from..to` (flat; MyAgent's `seq` is the index + 1).
    pub fn frame_range(&self, from: usize, to: usize) -> Vec<DFrame> {
        let to = to.min(self.frames.len());
        self.frames
            .get(from..to)
            .map(<[_]>::to_vec)
            .unwrap_or_default()
    }

    /// The flags of the root's last status-update among the frames before `frame`.
    pub fn root_status_before(&self, frame: usize) -> Option<u8> {
        let i = self.root_status.partition_point(|&f| f < frame);
        i.checked_sub(1)
            .and_then(|j| self.root_status.get(j))
            .map(|&f| self.frames[f].flags)
    }

    /// The index of the first frame of canonical event `pos` (the frame count when `pos` is
    /// past the encoded events).
    pub fn first_frame_of(&self, pos: u64) -> usize {
        self.starts
            .get(pos as usize)
            .copied()
            .unwrap_or(self.frames.len())
    }

    /// The canonical event whose group holds frame `index`.
    pub fn pos_of_frame(&self, index: usize) -> u64 {
        (self.starts.partition_point(|&s| s <= index) as u64).saturating_sub(1)
    }
}

/// A run's encoding in `dialect`, brought up to date with its log (`None` for canonical).
pub fn encoded(run: &Run, dialect: Dialect) -> Option<Arc<Mutex<Encoded>>> {
    let cell = run.encoding(dialect.as_str(), || Encoded::new(dialect, run))?;
    let (len, _, _) = run.status();
    lock(&cell).sync(run, len);
    Some(cell)
}

/// The fault `malformed`: an event of an unknown kind of `dialect` (kept by the client as an
/// unknown event).
pub fn malformed_unknown(dialect: Dialect, ctx: &str, task: &str, ts: &str) -> Value {
    let note = "a kind from a newer protocol version";
    match dialect {
        Dialect::A2a => {
            serde_json::json!({"kind": "future-kind", "taskId": task, "contextId": ctx, "note": note})
        }
        Dialect::A2aV1 => {
            serde_json::json!({"futureUpdate": {"taskId": task, "contextId": ctx, "note": note}})
        }
        Dialect::Acp => serde_json::json!({
            "event": "future_event", "task_id": task, "context_id": ctx, "timestamp": ts,
            "data": {"note": note},
        }),
        Dialect::Unified => serde_json::json!({
            "event_id": "malformed-unknown", "session_id": ctx, "timestamp": ts,
            "type": "future_type", "payload": {"note": note},
        }),
        Dialect::MyAgent => serde_json::json!({
            "session_id": ctx, "event": "agent.future_event", "timestamp": ts,
            "content": note, "metadata": {},
        }),
        Dialect::Canonical => {
            serde_json::json!({"kind": "future-kind", "contextId": ctx, "taskId": task})
        }
    }
}

/// The fault `malformed`: an event of `dialect` missing a required member (a diagnostic on the
/// client, not applied).
pub fn malformed_missing(dialect: Dialect, ctx: &str, task: &str, ts: &str) -> Value {
    match dialect {
        Dialect::A2a => serde_json::json!({
            "kind": "status-update", "taskId": task, "contextId": ctx, "final": false,
        }),
        Dialect::A2aV1 => serde_json::json!({
            "statusUpdate": {"taskId": task, "contextId": ctx},
        }),
        Dialect::Acp => serde_json::json!({
            "event": "status_change", "task_id": task, "context_id": ctx, "timestamp": ts,
            "data": {"old_state": "working"},
        }),
        Dialect::Unified => serde_json::json!({
            "event_id": "malformed-missing", "session_id": ctx, "timestamp": ts,
            "type": "agent_message_delta", "payload": {"delta": "no message_id"},
        }),
        Dialect::MyAgent => serde_json::json!({
            "session_id": ctx, "event": "agent.tool_call", "timestamp": ts,
            "content": "a string where an object is required", "metadata": {},
        }),
        Dialect::Canonical => {
            serde_json::json!({"kind": "content-delta", "contextId": ctx, "taskId": task, "index": "seven"})
        }
    }
}

/// The SSE `id` of frame `k` of a group of `n` frames of canonical event `pos`.
pub fn frame_id(pos: u64, k: usize, n: usize) -> String {
    if k + 1 == n {
        pos.to_string()
    } else {
        format!("{pos}.{k}")
    }
}

/// Parses a `Last-Event-ID` of a dialect stream: `N` or `N.k`.
pub fn parse_event_id(s: &str) -> Option<(u64, Option<usize>)> {
    let s = s.trim();
    match s.split_once('.') {
        Some((n, k)) => Some((n.parse().ok()?, Some(k.parse().ok()?))),
        None => Some((s.parse().ok()?, None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_ids() {
        assert_eq!(frame_id(7, 0, 1), "7");
        assert_eq!(frame_id(7, 0, 2), "7.0");
        assert_eq!(frame_id(7, 1, 2), "7");
        assert_eq!(parse_event_id(" 7 "), Some((7, None)));
        assert_eq!(parse_event_id("7.0"), Some((7, Some(0))));
        assert_eq!(parse_event_id("x"), None);
        assert_eq!(parse_event_id("7.x"), None);
        assert_eq!(
            split_task_id(&task_id("task-1", "r1")),
            Some(("task-1", "r1"))
        );
        assert_eq!(split_task_id("task-1"), None);
        assert_eq!(split_task_id("@r1"), None);
        for d in Dialect::ALL {
            assert_eq!(Dialect::parse(d.as_str()), Some(d));
        }
    }
}
