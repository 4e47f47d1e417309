//! Artifacts: files (utf-8 or base64 chunks), data records (versioned), datasets (row batches).

use super::chunks::Admit;
use super::model::*;
use super::{ArtifactSlot, EventMeta, Store};
use crate::events::*;
use crate::json::{OwnedValue, Value};
use sha2::{Digest, Sha256};

/// Entries kept in a data artifact's `versions` history (the latest ones).
pub(crate) const MAX_DATA_VERSIONS: usize = 64;

/// A chunk that arrived early, kept until its predecessors arrive.
#[derive(Debug)]
pub(crate) enum HeldChunk {
    File(String),
    Rows(Vec<OwnedValue>),
}

fn hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(HEX[(b >> 4) as usize] as char);
        s.push(HEX[(b & 15) as usize] as char);
    }
    s
}

/// Lower-case hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn json_type_ok(v: &Value<'_>, ty: &str) -> bool {
    match ty {
        "string" => matches!(v, Value::String(_)),
        "number" => matches!(v, Value::Number(_)),
        "integer" => matches!(v, Value::Number(n) if n.fract() == 0.0),
        "boolean" => matches!(v, Value::Bool(_)),
        "object" => matches!(v, Value::Object(_)),
        "array" => matches!(v, Value::Array(_)),
        "null" => v.is_null(),
        _ => true,
    }
}

impl Store {
    /// The slot of artifact `id` of type `kind`, created when missing.
    fn artifact_slot(
        &mut self,
        id: &str,
        kind: ArtifactKind,
        task_id: &str,
        meta: &EventMeta<'_>,
        ev_kind: &str,
    ) -> Option<usize> {
        if let Some(&i) = self.artifact_index.get(id) {
            let existing = self.artifacts.get(i)?.view.kind;
            if existing != kind {
                let msg = format!(
                    "artifact {id} is a {} artifact, not {}: ignored",
                    existing.as_str(),
                    kind.as_str()
                );
                self.diag(
                    DiagCode::InvalidType,
                    Severity::Error,
                    msg,
                    "$.artifactId",
                    Some(task_id),
                    meta,
                    ev_kind,
                );
                return None;
            }
            return Some(i);
        }
        if self.artifacts.len() >= self.limits.max_artifacts {
            if !self.artifact_limit_reported {
                self.artifact_limit_reported = true;
                let msg = format!(
                    "more than {} artifacts: further artifacts are ignored",
                    self.limits.max_artifacts
                );
                self.diag(
                    DiagCode::LimitExceeded,
                    Severity::Error,
                    msg,
                    "$.artifactId",
                    Some(task_id),
                    meta,
                    ev_kind,
                );
            }
            return None;
        }
        let i = self.artifacts.len();
        self.artifacts.push(ArtifactSlot {
            view: Artifact {
                id: id.to_owned(),
                kind,
                task_id: task_id.to_owned(),
                // Streamed artifacts say whether they are complete from the start.
                complete: (kind != ArtifactKind::Data).then_some(false),
                ..Artifact::default()
            },
            ..ArtifactSlot::default()
        });
        self.artifact_index.insert(id.to_owned(), i);
        if let Some(&t) = self.task_index.get(task_id) {
            self.list_artifacts(t, &[id], meta, ev_kind);
        }
        Some(i)
    }

    fn touch_artifact(&mut self, a: usize) -> Option<&mut ArtifactSlot> {
        let v = self.bump();
        let slot = self.artifacts.get_mut(a)?;
        slot.view.revision = v;
        Some(slot)
    }

    /// Common start of a chunked artifact event: task checks and the slot.
    fn chunk_target(
        &mut self,
        task_id: &str,
        context_id: &str,
        artifact_id: &str,
        kind: ArtifactKind,
        meta: &EventMeta<'_>,
        ev_kind: &str,
    ) -> Option<usize> {
        let t = self.task_slot(task_id, context_id, meta, ev_kind)?;
        if self
            .tasks
            .get(t)
            .and_then(|s| s.view.status)
            .is_some_and(TaskStatus::is_terminal)
        {
            let msg = format!("{ev_kind} for task {task_id} after it ended: ignored");
            self.diag(
                DiagCode::TaskAlreadyTerminal,
                Severity::Warning,
                msg,
                "$",
                Some(task_id),
                meta,
                ev_kind,
            );
            return None;
        }
        self.artifact_slot(artifact_id, kind, task_id, meta, ev_kind)
    }

    pub(crate) fn apply_file_write(&mut self, e: &FileWrite<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(a) = self.chunk_target(
            &e.task_id,
            &e.context_id,
            &e.artifact_id,
            ArtifactKind::File,
            meta,
            FileWrite::KIND,
        ) else {
            return;
        };
        let Some(slot) = self.artifacts.get_mut(a) else {
            return;
        };
        // Chunk 0 carries the metadata; a duplicate or refused chunk 0 must not change it (a
        // repeated chunk 0 without `encoding` would turn a base64 file into text).
        if e.index == 0 && slot.seq.accepts(0, e.complete) {
            let m = e.metadata.as_ref();
            let v = &mut slot.view;
            v.name = e.name.as_deref().map(str::to_owned).or(v.name.take());
            v.description = e
                .description
                .as_deref()
                .map(str::to_owned)
                .or(v.description.take());
            v.mime_type = e
                .mime_type
                .as_deref()
                .map(str::to_owned)
                .or(v.mime_type.take());
            v.encoding = Some(e.encoding.unwrap_or(Encoding::Utf8));
            v.total_size = m
                .and_then(|m| m.get("totalSize"))
                .and_then(Value::as_f64)
                .filter(|n| *n >= 0.0)
                .map(|n| n as u64);
            v.tool_call_id = m
                .and_then(|m| m.get("toolCallId"))
                .and_then(Value::as_str)
                .map(str::to_owned);
            // Only a URL a page may link to: an `http:`/`https:` one (an A2A file part's
            // `javascript:` URL stays in the metadata, out of an `href`).
            v.url = m
                .and_then(|m| m.get("url"))
                .and_then(Value::as_str)
                .filter(|u| matches!(crate::events::url::scheme_of(u).as_str(), "https" | "http"))
                .map(str::to_owned);
            slot.by_reference =
                m.and_then(|m| m.get("reference")).and_then(Value::as_bool) == Some(true);
        }
        self.admit_chunk(
            a,
            e.index,
            e.complete,
            meta,
            FileWrite::KIND,
            &e.task_id,
            || HeldChunk::File(e.data.to_string()),
            |store, a, meta| {
                store.append_file(a, &e.data, meta, &e.task_id);
            },
        );
    }

    pub(crate) fn apply_dataset_write(&mut self, e: &DatasetWrite<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(a) = self.chunk_target(
            &e.task_id,
            &e.context_id,
            &e.artifact_id,
            ArtifactKind::Dataset,
            meta,
            DatasetWrite::KIND,
        ) else {
            return;
        };
        let m = e.metadata.as_ref();
        if let Some(slot) = self.artifacts.get_mut(a) {
            // Only a batch that is applied or held sets metadata (a duplicate is ignored).
            let accepted = slot.seq.accepts(e.index, e.complete);
            let v = &mut slot.view;
            if e.index == 0 && accepted {
                v.name = e.name.as_deref().map(str::to_owned).or(v.name.take());
                v.description = e
                    .description
                    .as_deref()
                    .map(str::to_owned)
                    .or(v.description.take());
                if let Some(schema) = &e.schema {
                    v.schema = Some(RawJson::from_value(schema));
                    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                        slot.row_types = props
                            .iter()
                            .filter_map(|(k, p)| {
                                p.get("type")
                                    .and_then(Value::as_str)
                                    .map(|t| (k.to_string(), t.to_owned()))
                            })
                            .collect();
                    }
                }
            }
            let count = |k: &str| {
                m.and_then(|m| m.get(k))
                    .and_then(Value::as_f64)
                    .filter(|n| *n >= 0.0)
                    .map(|n| n as u64)
            };
            if accepted {
                v.total_rows = count("totalRows").or(v.total_rows);
                v.batch_size = count("batchSize").or(v.batch_size);
                if let Some(tc) = m.and_then(|m| m.get("toolCallId")).and_then(Value::as_str) {
                    v.tool_call_id = Some(tc.to_owned());
                }
            }
            v.row_count.get_or_insert(0);
        }
        let held = || HeldChunk::Rows(e.rows.iter().map(|r| r.0.to_owned_value()).collect());
        self.admit_chunk(
            a,
            e.index,
            e.complete,
            meta,
            DatasetWrite::KIND,
            &e.task_id,
            held,
            |store, a, meta| {
                let rows: Vec<&Value<'_>> = e.rows.iter().map(|r| &r.0).collect();
                store.append_rows(a, &rows, e.index, meta, &e.task_id);
            },
        );
    }

    /// Orders a chunk: applies it (and any held successors) or holds it; reports duplicates,
    /// chunks after the final one, and windows that overflow.
    #[allow(clippy::too_many_arguments)]
    fn admit_chunk(
        &mut self,
        a: usize,
        index: u64,
        complete: bool,
        meta: &EventMeta<'_>,
        kind: &str,
        task_id: &str,
        hold: impl FnOnce() -> HeldChunk,
        apply_now: impl FnOnce(&mut Store, usize, &EventMeta<'_>),
    ) {
        let Some(slot) = self.artifacts.get_mut(a) else {
            return;
        };
        let admitted = slot.seq.push(index, complete, hold);
        if matches!(admitted, Admit::Apply | Admit::Held) {
            slot.remember_chunk(index, super::replay::chunk_print(meta));
        }
        let dropped = slot.seq.take_dropped();
        if dropped > 0 {
            let id = &slot.view.id;
            let msg = format!(
                "{dropped} held {kind} chunk(s) of artifact {id} come after its final chunk {index}: ignored"
            );
            self.after_final(msg, task_id, meta, kind);
        }
        let Some(slot) = self.artifacts.get_mut(a) else {
            return;
        };
        match admitted {
            Admit::Apply => {
                self.admitted = true;
                apply_now(self, a, meta);
                self.drain_artifact(a, meta);
            }
            Admit::Held => {
                self.admitted = true;
                if slot.seq.held() > self.limits.max_pending_chunks {
                    self.skip_artifact_gap(a, meta, kind);
                }
            }
            Admit::Duplicate => self.duplicates_ignored += 1,
            Admit::AfterComplete => {
                let id = &slot.view.id;
                let msg =
                    format!("{kind} {index} of artifact {id} comes after its final chunk: ignored");
                self.after_final(msg, task_id, meta, kind);
            }
        }
        self.finalize_if_complete(a, meta);
    }

    /// A `chunk-after-complete` warning about the event's `$.index`.
    fn after_final(&mut self, msg: String, task_id: &str, meta: &EventMeta<'_>, kind: &str) {
        let path = "$.index";
        self.diag(
            DiagCode::ChunkAfterComplete,
            Severity::Warning,
            msg,
            path,
            Some(task_id),
            meta,
            kind,
        );
    }

    fn drain_artifact(&mut self, a: usize, meta: &EventMeta<'_>) {
        while let Some(chunk) = self.artifacts.get_mut(a).and_then(|s| s.seq.pop_ready()) {
            let task_id = self
                .artifacts
                .get(a)
                .map(|s| s.view.task_id.clone())
                .unwrap_or_default();
            match chunk {
                HeldChunk::File(data) => self.append_file(a, &data, meta, &task_id),
                HeldChunk::Rows(rows) => {
                    let index = self
                        .artifacts
                        .get(a)
                        .map_or(0, |s| s.seq.next_index().saturating_sub(1));
                    let refs: Vec<&Value<'_>> = rows.iter().collect();
                    self.append_rows(a, &refs, index, meta, &task_id);
                }
            }
        }
    }

    fn skip_artifact_gap(&mut self, a: usize, meta: &EventMeta<'_>, kind: &str) -> bool {
        let Some(slot) = self.artifacts.get_mut(a) else {
            return false;
        };
        let Some((from, to)) = slot.seq.skip_gap() else {
            return false;
        };
        slot.had_gap = true;
        let (id, task) = (slot.view.id.clone(), slot.view.task_id.clone());
        let range = if from == to {
            format!("{from}")
        } else {
            format!("{from}..={to}")
        };
        let msg = format!("chunk {range} of artifact {id} never arrived");
        self.diag(
            DiagCode::ChunkGap,
            Severity::Warning,
            msg,
            "$.index",
            Some(&task),
            meta,
            kind,
        );
        self.drain_artifact(a, meta);
        true
    }

    /// Gives up on missing chunks (end of stream); with `at_end`, also reports chunks missing
    /// before a final chunk that was announced but never reached.
    pub(crate) fn flush_artifact_gaps(&mut self, a: usize, meta: &EventMeta<'_>, at_end: bool) {
        let kind = match self.artifacts.get(a).map(|s| s.view.kind) {
            Some(ArtifactKind::Dataset) => DatasetWrite::KIND,
            _ => FileWrite::KIND,
        };
        while self.skip_artifact_gap(a, meta, kind) {}
        if at_end {
            if let Some(slot) = self.artifacts.get_mut(a) {
                if let Some((from, to)) = slot.seq.trailing_gap() {
                    slot.had_gap = true;
                    let (id, task) = (slot.view.id.clone(), slot.view.task_id.clone());
                    let msg = format!("chunk {from}..={to} of artifact {id} never arrived");
                    self.diag(
                        DiagCode::ChunkGap,
                        Severity::Warning,
                        msg,
                        "$.index",
                        Some(&task),
                        meta,
                        kind,
                    );
                }
            }
        }
        self.finalize_if_complete(a, meta);
    }

    /// The task in slot `t` ended: the chunks still missing from its files and datasets will not
    /// come (later chunks of an ended task are refused), so its gaps are given up now; after
    /// `completed`, a missing final chunk is reported too.
    pub(crate) fn flush_task_artifact_gaps(&mut self, t: usize, meta: &EventMeta<'_>) {
        let Some(slot) = self.tasks.get(t) else {
            return;
        };
        let completed = slot.view.status == Some(TaskStatus::Completed);
        let task_id = slot.view.id.clone();
        let owned: Vec<usize> = slot
            .view
            .artifacts
            .iter()
            .filter_map(|id| self.artifact_index.get(id).copied())
            .filter(|&a| {
                self.artifacts
                    .get(a)
                    .is_some_and(|s| s.view.task_id == task_id && s.view.kind != ArtifactKind::Data)
            })
            .collect();
        for a in owned {
            self.flush_artifact_gaps(a, meta, true);
            if completed {
                self.report_missing_end(a, meta);
            }
        }
    }

    /// Reports (once) a file or dataset whose final chunk never arrived.
    pub(crate) fn report_missing_end(&mut self, a: usize, meta: &EventMeta<'_>) {
        let Some(slot) = self.artifacts.get_mut(a) else {
            return;
        };
        if slot.view.kind == ArtifactKind::Data
            || slot.end_reported
            || slot.by_reference
            || slot.seq.has_final()
            || slot.over_limit
        {
            return;
        }
        slot.end_reported = true;
        let (id, task) = (slot.view.id.clone(), slot.view.task_id.clone());
        let next = slot.seq.next_index();
        let (kind, what, whats) = match slot.view.kind {
            ArtifactKind::Dataset => (DatasetWrite::KIND, "batch", "batches"),
            _ => (FileWrite::KIND, "chunk", "chunks"),
        };
        let msg = format!(
            "artifact {id} never received its final {what} (complete: true); {next} {} applied",
            if next == 1 { what } else { whats }
        );
        self.diag(
            DiagCode::ChunkGap,
            Severity::Warning,
            msg,
            "$.complete",
            Some(&task),
            meta,
            kind,
        );
    }

    fn finalize_if_complete(&mut self, a: usize, meta: &EventMeta<'_>) {
        let max = self.limits.max_artifact_bytes;
        let Some(slot) = self.artifacts.get_mut(a) else {
            return;
        };
        // Once only: a file that completed with a gap stays `complete: false`, and must not be
        // re-hashed (nor the version bumped) by every later call.
        if slot.finalized || !slot.seq.is_complete() {
            return;
        }
        slot.finalized = true;
        let mut over = false;
        if slot.view.kind == ArtifactKind::File {
            let mut tail = Vec::new();
            slot.b64.flush(&mut tail);
            if !slot.over_limit {
                // The last base64 quantum counts against the limit like every other byte.
                if slot.bytes.len() + tail.len() > max {
                    tail.truncate(max.saturating_sub(slot.bytes.len()));
                    slot.over_limit = true;
                    slot.had_gap = true;
                    over = true;
                }
                slot.bytes.extend_from_slice(&tail);
            }
            slot.view.size = Some(slot.bytes.len() as u64);
            slot.view.sha256 = Some(sha256_hex(&slot.bytes));
        }
        slot.view.complete = Some(!slot.had_gap);
        let (id, task) = (slot.view.id.clone(), slot.view.task_id.clone());
        self.touch_artifact(a);
        if over {
            let msg = format!("file artifact {id} exceeds {max} bytes: the rest is dropped");
            self.diag(
                DiagCode::LimitExceeded,
                Severity::Error,
                msg,
                "$.data",
                Some(&task),
                meta,
                FileWrite::KIND,
            );
        }
    }

    fn append_file(&mut self, a: usize, data: &str, meta: &EventMeta<'_>, task_id: &str) {
        let max = self.limits.max_artifact_bytes;
        // Past the limit every chunk is dropped: nothing visible changes (no version bump).
        if self.artifacts.get(a).is_none_or(|s| s.over_limit) {
            return;
        }
        let Some(slot) = self.touch_artifact(a) else {
            return;
        };
        let before = slot.bytes.len();
        let bad = match slot.view.encoding {
            Some(Encoding::Base64) => slot.b64.feed(data, &mut slot.bytes),
            _ => {
                slot.bytes.extend_from_slice(data.as_bytes());
                0
            }
        };
        let id = slot.view.id.clone();
        if slot.bytes.len() > max {
            slot.bytes.truncate(before.min(max));
            slot.over_limit = true;
            slot.had_gap = true;
            slot.view.size = Some(slot.bytes.len() as u64);
            let msg = format!("file artifact {id} exceeds {max} bytes: the rest is dropped");
            self.diag(
                DiagCode::LimitExceeded,
                Severity::Error,
                msg,
                "$.data",
                Some(task_id),
                meta,
                FileWrite::KIND,
            );
            return;
        }
        slot.view.size = Some(slot.bytes.len() as u64);
        if bad > 0 {
            let (what, are) = if bad == 1 {
                ("character", "is")
            } else {
                ("characters", "are")
            };
            let msg = format!("{bad} {what} of artifact {id} {are} not base64: skipped");
            self.diag(
                DiagCode::InvalidBase64,
                Severity::Warning,
                msg,
                "$.data",
                Some(task_id),
                meta,
                FileWrite::KIND,
            );
        }
    }

    fn append_rows(
        &mut self,
        a: usize,
        rows: &[&Value<'_>],
        index: u64,
        meta: &EventMeta<'_>,
        task_id: &str,
    ) {
        let max = self.limits.max_dataset_rows;
        // Past the limit every batch is dropped: nothing visible changes (no version bump).
        if self.artifacts.get(a).is_none_or(|s| s.over_limit) {
            return;
        }
        let Some(slot) = self.touch_artifact(a) else {
            return;
        };
        if slot.row_types.is_empty() {
            // No schema: the first row's member types are the reference.
            if let Some(first) = rows.first().and_then(|r| r.as_object()) {
                slot.row_types = first
                    .iter()
                    .map(|(k, v)| {
                        let ty = match v {
                            Value::Number(_) => "number",
                            other => other.type_name(),
                        };
                        (k.to_string(), ty.to_owned())
                    })
                    .collect();
            }
        }
        let mut mismatch: Option<String> = None;
        let have = slot.view.row_count.unwrap_or(0) as usize;
        let room = max.saturating_sub(have);
        for (i, row) in rows.iter().enumerate() {
            if i >= room {
                break;
            }
            if mismatch.is_none() {
                for (name, ty) in &slot.row_types {
                    if let Some(v) = row.get(name) {
                        if !v.is_null() && !json_type_ok(v, ty) {
                            mismatch = Some(format!(
                                "$.rows[{i}].{name}: expected {ty}, found {}",
                                v.type_name()
                            ));
                            break;
                        }
                    }
                }
            }
            if !slot.rows.is_empty() {
                slot.rows.push(',');
            }
            row.write(&mut slot.rows);
        }
        let added = rows.len().min(room);
        slot.view.row_count = Some((have + added) as u64);
        let id = slot.view.id.clone();
        if added < rows.len() && !slot.over_limit {
            slot.over_limit = true;
            let msg = format!("dataset {id} exceeds {max} rows: the rest is dropped");
            self.diag(
                DiagCode::LimitExceeded,
                Severity::Error,
                msg,
                "$.rows",
                Some(task_id),
                meta,
                DatasetWrite::KIND,
            );
        }
        if let Some(m) = mismatch {
            let path = m.split(':').next().unwrap_or("$.rows").to_owned();
            let msg = format!("batch {index} of dataset {id} does not match the row schema: {m}");
            self.diag(
                DiagCode::SchemaMismatch,
                Severity::Warning,
                msg,
                &path,
                Some(task_id),
                meta,
                DatasetWrite::KIND,
            );
        }
    }

    pub(crate) fn apply_data_write(&mut self, e: &DataWrite<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, DataWrite::KIND) else {
            return;
        };
        if self
            .tasks
            .get(t)
            .and_then(|s| s.view.status)
            .is_some_and(TaskStatus::is_terminal)
        {
            let msg = format!("data-write for task {} after it ended: ignored", e.task_id);
            self.diag(
                DiagCode::TaskAlreadyTerminal,
                Severity::Warning,
                msg,
                "$",
                Some(&e.task_id),
                meta,
                DataWrite::KIND,
            );
            return;
        }
        let Some(a) = self.artifact_slot(
            &e.artifact_id,
            ArtifactKind::Data,
            &e.task_id,
            meta,
            DataWrite::KIND,
        ) else {
            return;
        };
        let m = e.metadata.as_ref();
        let version = m
            .and_then(|m| m.get("version"))
            .and_then(Value::as_f64)
            .filter(|v| v.is_finite() && *v >= 0.0);
        let text = e.data.0.to_json();
        let max = self.limits.max_artifact_bytes;
        let Some(slot) = self.touch_artifact(a) else {
            return;
        };
        let current = slot.view.version;
        let older = matches!((version, current), (Some(v), Some(c)) if v < c);
        let versions = slot.view.versions.get_or_insert_with(Vec::new);
        if versions.len() >= MAX_DATA_VERSIONS {
            // Bounded history: an artifact rewritten on every event must not grow without end.
            versions.remove(0);
            if !slot.data_prints.is_empty() {
                slot.data_prints.remove(0);
            }
        }
        slot.data_prints
            .push(super::replay::data_print(&e.timestamp, &text));
        versions.push(DataVersion {
            version,
            timestamp: e.timestamp.to_string(),
            applied: !older && text.len() <= max,
        });
        if older {
            let msg = format!(
                "data artifact {} version {} arrived after version {}: ignored",
                e.artifact_id,
                crate::json::Num(version.unwrap_or(0.0)),
                crate::json::Num(current.unwrap_or(0.0))
            );
            self.diag(
                DiagCode::VersionRegression,
                Severity::Warning,
                msg,
                "$.metadata.version",
                Some(&e.task_id),
                meta,
                DataWrite::KIND,
            );
            return;
        }
        if text.len() > max {
            let msg = format!(
                "data artifact {} exceeds {max} bytes: ignored",
                e.artifact_id
            );
            self.diag(
                DiagCode::LimitExceeded,
                Severity::Error,
                msg,
                "$.data",
                Some(&e.task_id),
                meta,
                DataWrite::KIND,
            );
            return;
        }
        let v = &mut slot.view;
        v.data = Some(RawJson(text));
        v.version = version.or(v.version);
        if let Some(n) = &e.name {
            v.name = Some(n.to_string());
        }
        if let Some(d) = &e.description {
            v.description = Some(d.to_string());
        }
        if let Some(tc) = m.and_then(|m| m.get("toolCallId")).and_then(Value::as_str) {
            v.tool_call_id = Some(tc.to_owned());
        }
    }
}
