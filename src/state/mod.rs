//! Client-side assembly: the state a UI renders, built from canonical events.
//!
//! A [`Store`] applies events in arrival order and keeps, per task: status and history, the
//! assembled answer, tools, input and auth requests, thoughts; and the artifacts (file, data,
//! dataset). It checks the rules *between* events (`docs/protocol-000.md#rules-between-events`) and reports violations as
//! [`Diagnostic`]s while keeping the state sensible. Memory is bounded by [`Limits`]; work per
//! event is proportional to the event, never to the history.

mod answers;
mod apply;
mod artifacts;
mod base64;
mod chunks;
mod dedupe;
mod ending;
mod macros;
pub mod messages;
pub mod model;
mod raw;
mod replay;
mod reset;
mod settled;
mod snapshot;
mod usage;
mod user_message;

use crate::events::{DiagCode, Diagnostic, Redactor, Severity, TaskStatus};
use crate::hash::{FastMap, FastSet};
pub use answers::{AnswerRefusal, RequestKind};
use chunks::Sequencer;
pub use dedupe::SeenIds;
pub use model::*;
pub use settled::{Picked, SettledScan};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
pub use usage::{Usage, MAX_DIAGNOSTIC_BYTES};

/// Limits that bound the store's memory. Hitting one produces a `limit-exceeded` diagnostic
/// (once per object) and the stream continues.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Tasks kept (new tasks beyond it are ignored). Default 10,000.
    pub max_tasks: usize,
    /// Bytes of answer text per task (the rest is dropped). Default 16 MiB.
    pub max_content_bytes: usize,
    /// Artifacts kept. Default 10,000.
    pub max_artifacts: usize,
    /// Bytes per file artifact (and JSON bytes per data artifact). Default 64 MiB.
    pub max_artifact_bytes: usize,
    /// Rows per dataset. Default 1,000,000.
    pub max_dataset_rows: usize,
    /// Out-of-order chunks held per stream before the gap is given up. Default 256.
    pub max_pending_chunks: usize,
    /// Thoughts kept per task (oldest dropped first). Default 1,000.
    pub max_thoughts_per_task: usize,
    /// Status changes kept in a task's `history` (oldest dropped first; `status` stays
    /// current). Default 1,000.
    pub max_history_per_task: usize,
    /// Tool calls kept per task (later ones are ignored). Default 10,000.
    pub max_tools_per_task: usize,
    /// Input plus auth requests kept per task (later ones are ignored). Default 1,000.
    pub max_requests_per_task: usize,
    /// Conversation messages kept per task (later ones are ignored). Default 10,000.
    pub max_messages_per_task: usize,
    /// Diagnostics kept (oldest dropped first; counts stay exact). Default 1,000.
    pub max_diagnostics: usize,
    /// Raw events kept in the debug ring (0 = off). Default 0.
    pub raw_log_events: usize,
    /// SSE ids remembered to recognise replays. Default 65,536.
    pub dedupe_window: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_tasks: 10_000,
            max_content_bytes: 16 << 20,
            max_artifacts: 10_000,
            max_artifact_bytes: 64 << 20,
            max_dataset_rows: 1_000_000,
            max_pending_chunks: 256,
            max_thoughts_per_task: 1_000,
            max_history_per_task: 1_000,
            max_tools_per_task: 10_000,
            max_requests_per_task: 1_000,
            max_messages_per_task: 10_000,
            max_diagnostics: 1_000,
            raw_log_events: 0,
            dedupe_window: 65_536,
        }
    }
}

impl Limits {
    /// The option names (as the JavaScript options spell them) in the order of
    /// [`Limits::values`].
    pub const NAMES: [&'static str; 14] = [
        "maxTasks",
        "maxContentBytes",
        "maxArtifacts",
        "maxArtifactBytes",
        "maxDatasetRows",
        "maxPendingChunks",
        "maxThoughtsPerTask",
        "maxHistoryPerTask",
        "maxToolsPerTask",
        "maxRequestsPerTask",
        "maxMessagesPerTask",
        "maxDiagnostics",
        "rawLogEvents",
        "dedupeWindow",
    ];

    /// Every limit, in the order of [`Limits::NAMES`].
    pub fn values(&self) -> [usize; 14] {
        [
            self.max_tasks,
            self.max_content_bytes,
            self.max_artifacts,
            self.max_artifact_bytes,
            self.max_dataset_rows,
            self.max_pending_chunks,
            self.max_thoughts_per_task,
            self.max_history_per_task,
            self.max_tools_per_task,
            self.max_requests_per_task,
            self.max_messages_per_task,
            self.max_diagnostics,
            self.raw_log_events,
            self.dedupe_window,
        ]
    }

    /// Sets the limit called `name` (one of [`Limits::NAMES`]); `false` for an unknown name.
    pub fn set(&mut self, name: &str, value: usize) -> bool {
        let slot = match name {
            "maxTasks" => &mut self.max_tasks,
            "maxContentBytes" => &mut self.max_content_bytes,
            "maxArtifacts" => &mut self.max_artifacts,
            "maxArtifactBytes" => &mut self.max_artifact_bytes,
            "maxDatasetRows" => &mut self.max_dataset_rows,
            "maxPendingChunks" => &mut self.max_pending_chunks,
            "maxThoughtsPerTask" => &mut self.max_thoughts_per_task,
            "maxHistoryPerTask" => &mut self.max_history_per_task,
            "maxToolsPerTask" => &mut self.max_tools_per_task,
            "maxRequestsPerTask" => &mut self.max_requests_per_task,
            "maxMessagesPerTask" => &mut self.max_messages_per_task,
            "maxDiagnostics" => &mut self.max_diagnostics,
            "rawLogEvents" => &mut self.raw_log_events,
            "dedupeWindow" => &mut self.dedupe_window,
            _ => return false,
        };
        *slot = value;
        true
    }
}

/// Where an event came from (for dedupe and diagnostics).
#[derive(Debug, Clone, Copy, Default)]
pub struct EventMeta<'s> {
    /// SSE id (empty when the stream has none).
    pub event_id: &'s str,
    /// 0-based position in the stream.
    pub position: u64,
    /// The raw data (kept in the raw ring when enabled; quoted in diagnostics).
    pub raw: &'s str,
}

/// Per-task bookkeeping that the UI does not see.
#[derive(Debug, Default)]
pub(crate) struct TaskSlot {
    pub view: Task,
    pub content: Sequencer<String>,
    /// Byte offsets where each applied delta started (detects a replayed index with other text).
    pub delta_offsets: Vec<u32>,
    pub content_truncated: bool,
    pub thoughts_truncated: bool,
    /// Hashes of the retained thoughts' ids: a thought repeated by a replay is recognised
    /// (memory in proportion to the thoughts kept).
    pub thought_ids: FastSet<u64>,
    /// `delta_offsets` stopped growing (see `DELTA_OFFSET_SLACK`): later replays of an index
    /// are recognised as duplicates but no longer compared.
    pub offsets_capped: bool,
    /// A limit-exceeded was reported for this task's history / tools / requests / artifact list.
    pub history_truncated: bool,
    pub tools_truncated: bool,
    pub requests_truncated: bool,
    pub artifacts_truncated: bool,
    /// Message id → index in `view.messages`.
    pub message_index: FastMap<String, usize>,
    /// What `message_index` gave last (`usize::MAX`: nothing), tried first by comparing its
    /// id: every delta of a streaming message names the same one. Reset whenever
    /// `message_index` changes (a duplicate id maps to its latest message, which the id check
    /// alone would not tell).
    pub last_message: std::cell::Cell<usize>,
    /// The message whose text the answer (`content`) is taking now.
    pub answer_message: Option<usize>,
    pub messages_truncated: bool,
    /// Placeholder created by a child or subtask-created before its own `task-created`.
    pub announced_only: bool,
    /// Fingerprints (time and content) of the latest `task-complete`s applied (a replay of one
    /// is recognised).
    pub complete_prints: Vec<u64>,
}

impl TaskSlot {
    /// After a message that is not an answer was inserted at `at`: the messages from `at` on
    /// are indexed at their new places (in order: a repeated id still maps to its latest
    /// message, as [`Store::reindex_messages`] leaves it); the answer's text is the same, its
    /// message one further when it came after `at`.
    pub(crate) fn reindex_from(&mut self, at: usize) {
        self.last_message.set(usize::MAX);
        for (i, m) in self.view.messages.iter().enumerate().skip(at) {
            match self.message_index.get_mut(m.id.as_str()) {
                Some(p) => *p = i,
                None => {
                    self.message_index.insert(m.id.clone(), i);
                }
            }
        }
        if let Some(a) = self.answer_message.as_mut().filter(|a| **a >= at) {
            *a += 1;
        }
    }
}

/// Chunk indices remembered beyond the highest seen so far (a far-ahead index is not).
const MAX_PRINT_GAP: u64 = 4096;

impl ArtifactSlot {
    /// Remembers chunk `index`'s fingerprint.
    pub(crate) fn remember_chunk(&mut self, index: u64, print: u64) {
        let len = self.chunk_prints.len() as u64;
        if index >= len + MAX_PRINT_GAP {
            return;
        }
        let i = index as usize;
        if i >= self.chunk_prints.len() {
            self.chunk_prints.resize(i + 1, 0);
        }
        self.chunk_prints[i] = print;
    }
}

/// Per-artifact bookkeeping.
#[derive(Debug, Default)]
pub(crate) struct ArtifactSlot {
    pub view: Artifact,
    /// file: assembled bytes.
    pub bytes: Vec<u8>,
    pub b64: base64::Base64Decoder,
    pub seq: Sequencer<artifacts::HeldChunk>,
    /// dataset: the rows as JSON text, comma-separated (a JSON array without brackets).
    pub rows: String,
    /// dataset: (property, JSON type) of a row, from the schema or the first batch.
    pub row_types: Vec<(String, String)>,
    /// file/dataset: a gap was skipped, so the artifact cannot be complete.
    pub had_gap: bool,
    pub over_limit: bool,
    /// file/dataset: the final chunk was applied and size/sha256/complete are final.
    pub finalized: bool,
    /// file/dataset: a missing final chunk was already reported.
    pub end_reported: bool,
    /// file: announced by reference (`metadata.reference: true` on chunk 0: an A2A-ACP
    /// `artifact` given by name and size): its bytes need not come through the stream, so an
    /// end of stream without them is not reported as a missing final chunk.
    pub by_reference: bool,
    /// data: a fingerprint of each version seen (time and record), as `view.versions` (a
    /// replayed write is recognised, with or without a version number).
    pub data_prints: Vec<u64>,
    /// file/dataset: a fingerprint of each admitted chunk, by index (a replayed chunk is
    /// recognised; 8 bytes a chunk).
    pub chunk_prints: Vec<u64>,
}

/// Open requests that can expire: (deadline in stream ms, task slot, is_auth, request index),
/// expired in this order (by deadline, then slot, kind and index).
type Deadline = (i64, usize, bool, usize);

/// The assembled state of one connection (one or more contexts).
#[derive(Debug, Default)]
pub struct Store {
    limits: Limits,
    version: u64,
    pub(crate) tasks: Vec<TaskSlot>,
    pub(crate) task_index: FastMap<String, usize>,
    /// The slot `task_slot` found last (checked by id before the hash lookup).
    last_task: usize,
    /// toolCallId → (task slot, index in its tools)
    pub(crate) tool_index: FastMap<String, (usize, usize)>,
    pub(crate) input_index: FastMap<String, (usize, usize)>,
    pub(crate) auth_index: FastMap<String, (usize, usize)>,
    pub(crate) artifacts: Vec<ArtifactSlot>,
    pub(crate) artifact_index: FastMap<String, usize>,
    /// toolCallId → the time (epoch ms) of its latest applied `tool-progress` (a replayed,
    /// older one is recognised).
    pub(crate) tool_progress_ms: FastMap<String, u64>,
    /// The chunk being applied was admitted: applied now (even an empty delta, which changes
    /// nothing visible) or held for reordering. It counts as applied.
    pub(crate) admitted: bool,
    /// Internal and unknown events have no state to recognise a replay by: the fingerprints of
    /// the latest `dedupeWindow` of them do.
    pub(crate) stateless_seen: (std::collections::VecDeque<u64>, FastSet<u64>),
    /// Input and auth request id → a hash of the time of the answer applied (a replayed answer
    /// is recognised; a second, different one is a diagnostic). Same map type as
    /// `tool_progress_ms`: one more instantiation costs wasm size.
    pub(crate) answered_at: FastMap<String, u64>,
    diagnostics: VecDeque<Diagnostic>,
    diagnostics_total: u64,
    errors_total: u64,
    /// Version steps made by diagnostics (see [`Store::state_changes`]).
    diagnostic_changes: u64,
    seen: SeenIds,
    raw_log: VecDeque<(u64, String)>,
    /// Stream time: the latest valid event timestamp, in epoch ms.
    clock_ms: Option<i64>,
    /// Min-heap of deadlines. An answered request's entry stays until it is popped or the heap
    /// is rebuilt (when over half of it is such stale entries): the live deadlines are the ones
    /// `deadline_of` still maps to the same time. (A BTreeSet costs ~4.7 KB of wasm.)
    deadlines: BinaryHeap<Reverse<Deadline>>,
    /// (task slot, is_auth, request index) → its deadline: the open requests that can expire.
    deadline_of: FastMap<(usize, bool, usize), i64>,
    events_applied: u64,
    duplicates_ignored: u64,
    task_limit_reported: bool,
    artifact_limit_reported: bool,
    /// Sensitive values removed from the raw text of diagnostics and of the raw-event ring.
    redactor: Redactor,
    /// A coordinator answers the requests routed to one first (see [`Store::set_coordinator`]).
    coordinator: bool,
    /// Input request ids the coordinator declined (for the user now).
    declined: FastSet<String>,
    /// The user's messages announced for tasks not created yet (see [`Store::expect_user_message`]).
    expected_user: Vec<user_message::Expected>,
}

impl Store {
    /// An empty store with the given limits.
    pub fn new(limits: Limits) -> Self {
        Store {
            seen: SeenIds::new(limits.dedupe_window),
            limits,
            ..Store::default()
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Changes whenever visible state changes (and only then).
    pub fn version(&self) -> u64 {
        self.version
    }

    pub(crate) fn bump(&mut self) -> u64 {
        self.version += 1;
        self.version
    }

    /// Events applied so far (not counting rejected or duplicate ones).
    pub fn events_applied(&self) -> u64 {
        self.events_applied
    }

    /// Events ignored because their SSE id or chunk had already been applied.
    pub fn duplicates_ignored(&self) -> u64 {
        self.duplicates_ignored
    }

    /// Forgets the SSE ids seen (a new stream with ids of its own begins).
    pub fn forget_event_ids(&mut self) {
        self.seen = SeenIds::new(self.limits.dedupe_window);
    }

    /// Records that an event with SSE id `id` is about to be applied. Returns `false` when the
    /// same id was already applied (a replay after a resume): skip it.
    pub fn admit_event_id(&mut self, id: &str) -> bool {
        if id.is_empty() || self.seen.insert(id) {
            return true;
        }
        self.duplicates_ignored += 1;
        false
    }

    /// The event that introduced the current SSE id, sent again (a server that resumes
    /// inclusively, or the same event twice in a row): a duplicate, unless replay detection is
    /// off (`dedupeWindow: 0`). Unlike [`Store::admit_event_id`] it does not look at the id:
    /// that id was admitted or refused when it came, and hashing a long one again for every
    /// repeat would cost its length per event.
    pub fn admit_resent_event(&mut self) -> bool {
        if self.limits.dedupe_window == 0 {
            return true;
        }
        self.duplicates_ignored += 1;
        false
    }

    /// Sets which members' values are redacted in diagnostics and the raw-event ring (default
    /// [`crate::events::DEFAULT_REDACTED_KEYS`]; applies to what is kept from now on).
    pub fn set_redactor(&mut self, redactor: Redactor) {
        self.redactor = redactor;
    }

    /// The redaction in force.
    pub fn redactor(&self) -> &Redactor {
        &self.redactor
    }

    /// Adds a diagnostic (bounded: the oldest are dropped beyond `max_diagnostics`; each one's
    /// strings are cut to [`Diagnostic::bound`] and sensitive values in its `raw` redacted).
    pub fn push_diagnostic(&mut self, mut d: Diagnostic) {
        self.diagnostics_total += 1;
        if d.severity == Severity::Error {
            self.errors_total += 1;
        }
        if self.limits.max_diagnostics == 0 {
            return;
        }
        if let Some(raw) = &d.raw {
            if let std::borrow::Cow::Owned(r) = self.redactor.redact(raw) {
                d.raw = Some(r);
            }
        }
        d.bound();
        if self.diagnostics.len() >= self.limits.max_diagnostics {
            self.diagnostics.pop_front();
        }
        self.diagnostics.push_back(d);
        self.diagnostic_changes += 1;
        self.bump();
    }

    /// Version steps made by anything but diagnostics: a stream that moved this made progress
    /// (the WebSocket transport resets its reconnect attempts on it; a socket that only said
    /// hello, sent heartbeats, replays or invalid frames did not).
    pub fn state_changes(&self) -> u64 {
        self.version.saturating_sub(self.diagnostic_changes)
    }

    /// Diagnostics kept (the latest `max_diagnostics`), oldest first.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter()
    }

    /// Total diagnostics ever reported (including ones no longer kept).
    pub fn diagnostics_total(&self) -> u64 {
        self.diagnostics_total
    }

    /// Total error-severity diagnostics ever reported.
    pub fn errors_total(&self) -> u64 {
        self.errors_total
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn diag(
        &mut self,
        code: DiagCode,
        severity: Severity,
        message: String,
        path: &str,
        task: Option<&str>,
        meta: &EventMeta<'_>,
        kind: &str,
    ) {
        let mut d = Diagnostic::new(code, severity, message, path);
        d.kind = Some(kind.to_owned());
        d.task_id = task.map(str::to_owned);
        d.event_id =
            (!meta.event_id.is_empty()).then(|| crate::events::bounded_field(meta.event_id));
        d.position = meta.position;
        d.raw = (!meta.raw.is_empty()).then(|| crate::events::bounded_raw(meta.raw));
        self.push_diagnostic(d);
    }

    /// The raw-event ring (position, data), oldest first; empty unless `raw_log_events > 0`.
    /// Each entry is cut to [`crate::events::MAX_RAW_BYTES`] and its sensitive values redacted.
    pub fn raw_events(&self) -> impl Iterator<Item = &(u64, String)> {
        self.raw_log.iter()
    }

    pub(crate) fn log_raw(&mut self, meta: &EventMeta<'_>) {
        if self.limits.raw_log_events == 0 {
            return;
        }
        if self.raw_log.len() >= self.limits.raw_log_events {
            self.raw_log.pop_front();
        }
        let raw = crate::events::bounded_raw(meta.raw);
        let raw = match self.redactor.redact(&raw) {
            std::borrow::Cow::Owned(r) => r,
            std::borrow::Cow::Borrowed(_) => raw,
        };
        self.raw_log.push_back((meta.position, raw));
    }

    /// One task by id.
    pub fn task(&self, id: &str) -> Option<&Task> {
        self.task_index
            .get(id)
            .and_then(|&i| self.tasks.get(i))
            .map(|s| &s.view)
    }

    /// Every task, in creation order.
    pub fn tasks(&self) -> impl Iterator<Item = &Task> {
        self.tasks.iter().map(|s| &s.view)
    }

    /// Root tasks (no parent), in creation order.
    pub fn roots(&self) -> impl Iterator<Item = &Task> {
        self.tasks().filter(|t| t.parent_id.is_none())
    }

    /// `true` when `id` is `ancestor` or lies in its sub-tree.
    pub fn is_in_subtree(&self, id: &str, ancestor: &str) -> bool {
        let mut cur = Some(id);
        let mut hops = 0;
        while let Some(c) = cur {
            if c == ancestor {
                return true;
            }
            hops += 1;
            if hops > self.tasks.len() {
                return false; // a cycle in hostile input
            }
            cur = self.task(c).and_then(|t| t.parent_id.as_deref());
        }
        false
    }

    /// One artifact by id.
    pub fn artifact(&self, id: &str) -> Option<&Artifact> {
        self.artifact_index
            .get(id)
            .and_then(|&i| self.artifacts.get(i))
            .map(|s| &s.view)
    }

    /// Every artifact, in creation order.
    pub fn artifacts(&self) -> impl Iterator<Item = &Artifact> {
        self.artifacts.iter().map(|s| &s.view)
    }

    /// A file artifact's bytes so far.
    pub fn artifact_bytes(&self, id: &str) -> Option<&[u8]> {
        self.artifact_index
            .get(id)
            .and_then(|&i| self.artifacts.get(i))
            .map(|s| s.bytes.as_slice())
    }

    /// A dataset's rows as a JSON array text.
    pub fn artifact_rows_json(&self, id: &str) -> Option<String> {
        let slot = self
            .artifact_index
            .get(id)
            .and_then(|&i| self.artifacts.get(i))?;
        let mut s = String::with_capacity(slot.rows.len() + 2);
        s.push('[');
        s.push_str(&slot.rows);
        s.push(']');
        Some(s)
    }

    /// Open input requests for the user: `requireUser`, or routed to a coordinator when none
    /// is configured or it declined (see [`Store::is_for_user`]). A request a coordinator may
    /// still answer is never listed.
    pub fn pending_inputs(&self) -> impl Iterator<Item = &InputRequest> {
        self.tasks
            .iter()
            .flat_map(|t| t.view.inputs.iter())
            .filter(|i| i.state == RequestState::Open && self.is_for_user(i))
    }

    /// Open auth requests (always for the user).
    pub fn pending_auths(&self) -> impl Iterator<Item = &AuthRequest> {
        self.tasks
            .iter()
            .flat_map(|t| t.view.auths.iter())
            .filter(|a| a.state == RequestState::Open)
    }

    /// One input request by id.
    pub fn input(&self, id: &str) -> Option<&InputRequest> {
        let &(t, i) = self.input_index.get(id)?;
        self.tasks.get(t)?.view.inputs.get(i)
    }

    /// One auth request by id.
    pub fn auth(&self, id: &str) -> Option<&AuthRequest> {
        let &(t, i) = self.auth_index.get(id)?;
        self.tasks.get(t)?.view.auths.get(i)
    }

    /// Stream time: the latest event timestamp seen, in epoch ms (content deltas and thoughts
    /// count only while a request waits to expire; they are the hot path).
    pub fn clock_ms(&self) -> Option<i64> {
        self.clock_ms
    }

    /// Advances stream time (e.g. from the wall clock while the stream is idle) and expires
    /// open requests whose timeout passed.
    pub fn advance_clock(&mut self, now_ms: i64) {
        if self.clock_ms.is_some_and(|c| c >= now_ms) {
            return;
        }
        self.clock_ms = Some(now_ms);
        self.expire_requests(&EventMeta::default());
    }

    /// Expires the open requests whose deadline the clock reached; `meta` is the event that
    /// moved the clock (the diagnostics point at it).
    fn expire_requests(&mut self, meta: &EventMeta<'_>) {
        let Some(now) = self.clock_ms else { return };
        while let Some(&Reverse((at, t, is_auth, i))) = self.deadlines.peek() {
            if at > now {
                break;
            }
            self.deadlines.pop();
            if self.deadline_of.get(&(t, is_auth, i)) != Some(&at) {
                continue; // answered, or given another deadline since
            }
            self.deadline_of.remove(&(t, is_auth, i));
            let v = self.version + 1;
            let Some(slot) = self.tasks.get_mut(t) else {
                continue;
            };
            let (id, task_id) = if is_auth {
                let Some(a) = slot.view.auths.get_mut(i) else {
                    continue;
                };
                if a.state != RequestState::Open {
                    continue;
                }
                a.state = RequestState::Expired;
                a.sending = false;
                (a.id.clone(), a.task_id.clone())
            } else {
                let Some(r) = slot.view.inputs.get_mut(i) else {
                    continue;
                };
                if r.state != RequestState::Open {
                    continue;
                }
                r.state = RequestState::Expired;
                r.sending = false;
                (r.id.clone(), r.task_id.clone())
            };
            slot.view.revision = v;
            self.version = v;
            let what = if is_auth {
                "auth request"
            } else {
                "input request"
            };
            let mut d = Diagnostic::new(
                DiagCode::RequestExpired,
                Severity::Warning,
                format!("{what} {id} expired before it was answered"),
                "$",
            );
            d.task_id = Some(task_id);
            d.event_id =
                (!meta.event_id.is_empty()).then(|| crate::events::bounded_field(meta.event_id));
            d.position = meta.position;
            self.push_diagnostic(d);
        }
    }

    /// Registers the deadline of request `i` of task slot `t`.
    pub(crate) fn add_deadline(&mut self, at: i64, t: usize, is_auth: bool, i: usize) {
        if self.deadline_of.insert((t, is_auth, i), at) != Some(at) {
            self.deadlines.push(Reverse((at, t, is_auth, i)));
            self.compact_deadlines();
        }
    }

    /// Forgets the deadline of an answered request.
    pub(crate) fn drop_deadline(&mut self, t: usize, is_auth: bool, i: usize) {
        if self.deadline_of.remove(&(t, is_auth, i)).is_some() {
            self.compact_deadlines();
        }
    }

    /// Rebuilds the heap from the live deadlines once most of it is stale (amortised O(1) per
    /// change). After each add or drop the heap holds at most twice the open requests, plus
    /// 64; expiry pops live entries without compacting, so in between it can briefly hold more,
    /// never more than before the expiry.
    fn compact_deadlines(&mut self) {
        if self.deadlines.len() > 2 * self.deadline_of.len() + 64 {
            self.deadlines = self
                .deadline_of
                .iter()
                .map(|(&(t, is_auth, i), &at)| Reverse((at, t, is_auth, i)))
                .collect();
        }
    }

    /// End of stream: gaps that never filled are reported and what is known is kept. A file or
    /// dataset that never received its final chunk is reported too, unless its task failed or
    /// was canceled (there a truncated artifact is expected).
    pub fn finish(&mut self) {
        let meta = EventMeta::default();
        for t in 0..self.tasks.len() {
            self.flush_content_gaps(t, &meta, "content-delta");
        }
        for a in 0..self.artifacts.len() {
            self.flush_artifact_gaps(a, &meta, true);
            let task_ended_badly = self
                .artifacts
                .get(a)
                .and_then(|s| self.task(&s.view.task_id))
                .and_then(|t| t.status)
                .is_some_and(|s| matches!(s, TaskStatus::Failed | TaskStatus::Canceled));
            if !task_ended_badly {
                self.report_missing_end(a, &meta);
            }
        }
    }
}
#[cfg(test)]
mod tests;
