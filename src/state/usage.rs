//! What the store holds, measured against its [`Limits`]: the fuzz targets, the limits tests and
//! the soak test check after every step that nothing a limit bounds ever exceeds it.

use super::{Limits, Store};

/// The sizes of everything a limit bounds (the largest per-object figure where the limit is
/// per object). Cheap to compute: one pass over tasks and artifacts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// Tasks kept.
    pub tasks: usize,
    /// The largest answer text of one task, in bytes.
    pub content_bytes: usize,
    /// The most thoughts kept by one task.
    pub thoughts: usize,
    /// The longest status history of one task.
    pub history: usize,
    /// The most tool calls kept by one task.
    pub tools: usize,
    /// The most input plus auth requests kept by one task.
    pub requests: usize,
    /// The most conversation messages kept by one task.
    pub messages: usize,
    /// The most artifact ids listed by one task.
    pub task_artifacts: usize,
    /// The most delta offsets one task keeps (replay checks), beyond its answer's bytes.
    pub delta_offsets_over_content: usize,
    /// Artifacts kept.
    pub artifacts: usize,
    /// The largest file (bytes) or data record (JSON bytes) of one artifact.
    pub artifact_bytes: usize,
    /// The most rows of one dataset.
    pub dataset_rows: usize,
    /// The most out-of-order chunks held by one stream (answer, file or dataset).
    pub pending_chunks: usize,
    /// Diagnostics kept.
    pub diagnostics: usize,
    /// The largest diagnostic kept (bytes of its strings).
    pub diagnostic_bytes: usize,
    /// Raw events kept in the debug ring.
    pub raw_events: usize,
    /// SSE ids remembered for replay detection.
    pub seen_ids: usize,
    /// Open requests waiting for their deadline.
    pub deadlines: usize,
}

/// Delta offsets a task may keep beyond one per byte of its answer (see `apply.rs`).
pub(crate) const DELTA_OFFSET_SLACK: usize = 1024;

/// The most bytes of strings one kept diagnostic holds (message, path, ids, kind, raw).
pub const MAX_DIAGNOSTIC_BYTES: usize = 8 * 1024;

impl Store {
    /// What the store holds now, measured as its [`Limits`] bound it.
    pub fn usage(&self) -> Usage {
        let mut u = Usage {
            tasks: self.tasks.len(),
            artifacts: self.artifacts.len(),
            diagnostics: self.diagnostics.len(),
            raw_events: self.raw_log.len(),
            seen_ids: self.seen.len(),
            deadlines: self.deadline_of.len(),
            ..Usage::default()
        };
        for t in &self.tasks {
            let v = &t.view;
            u.content_bytes = u.content_bytes.max(v.content.len());
            u.thoughts = u.thoughts.max(v.thoughts.len());
            u.history = u.history.max(v.history.len());
            u.tools = u.tools.max(v.tools.len());
            u.requests = u.requests.max(v.inputs.len() + v.auths.len());
            u.messages = u.messages.max(v.messages.len());
            u.task_artifacts = u.task_artifacts.max(v.artifacts.len());
            u.delta_offsets_over_content = u
                .delta_offsets_over_content
                .max(t.delta_offsets.len().saturating_sub(v.content.len()));
            u.pending_chunks = u.pending_chunks.max(t.content.held());
        }
        for a in &self.artifacts {
            let data = a.view.data.as_ref().map_or(0, |d| d.0.len());
            u.artifact_bytes = u.artifact_bytes.max(a.bytes.len()).max(data);
            u.dataset_rows = u.dataset_rows.max(a.view.row_count.unwrap_or(0) as usize);
            u.pending_chunks = u.pending_chunks.max(a.seq.held());
        }
        for d in &self.diagnostics {
            let bytes = d.message.len()
                + d.path.len()
                + d.kind.as_ref().map_or(0, String::len)
                + d.task_id.as_ref().map_or(0, String::len)
                + d.event_id.as_ref().map_or(0, String::len)
                + d.raw.as_ref().map_or(0, String::len);
            u.diagnostic_bytes = u.diagnostic_bytes.max(bytes);
        }
        u
    }
}

impl Usage {
    /// `Ok` when every figure is within `limits`; otherwise which one is over.
    pub fn within(&self, l: &Limits) -> Result<(), String> {
        let checks: [(&str, usize, usize); 18] = [
            ("tasks", self.tasks, l.max_tasks),
            ("content bytes", self.content_bytes, l.max_content_bytes),
            ("thoughts", self.thoughts, l.max_thoughts_per_task),
            ("status history", self.history, l.max_history_per_task),
            ("tools", self.tools, l.max_tools_per_task),
            ("requests", self.requests, l.max_requests_per_task),
            ("messages", self.messages, l.max_messages_per_task),
            ("task artifacts", self.task_artifacts, l.max_artifacts),
            (
                "delta offsets",
                self.delta_offsets_over_content,
                DELTA_OFFSET_SLACK,
            ),
            ("artifacts", self.artifacts, l.max_artifacts),
            ("artifact bytes", self.artifact_bytes, l.max_artifact_bytes),
            ("dataset rows", self.dataset_rows, l.max_dataset_rows),
            // One over: the chunk that overflows the window is held before the gap is skipped.
            ("pending chunks", self.pending_chunks, l.max_pending_chunks),
            ("diagnostics", self.diagnostics, l.max_diagnostics),
            (
                "diagnostic bytes",
                self.diagnostic_bytes,
                MAX_DIAGNOSTIC_BYTES,
            ),
            ("raw events", self.raw_events, l.raw_log_events),
            ("seen ids", self.seen_ids, l.dedupe_window),
            (
                "deadlines",
                self.deadlines,
                l.max_tasks.saturating_mul(l.max_requests_per_task),
            ),
        ];
        for (what, have, max) in checks {
            if have > max {
                return Err(format!("{what}: {have} > {max}"));
            }
        }
        Ok(())
    }
}
