//! The answer text: deltas in order (gaps held, then skipped), completion and reconciliation.

use super::*;

impl Store {
    /// Appends to task `t`'s answer text (within `maxContentBytes`).
    pub(crate) fn append_answer(&mut self, t: usize, delta: &str, meta: &EventMeta<'_>) {
        self.append_content(t, delta, meta);
    }

    pub(super) fn append_content(&mut self, t: usize, delta: &str, meta: &EventMeta<'_>) {
        let max = self.limits.max_content_bytes;
        let Some(slot) = self.tasks.get_mut(t) else {
            return;
        };
        if slot.content_truncated {
            return; // "the rest is dropped": the answer stays a prefix, without holes
        }
        if slot.view.content.len() + delta.len() > max {
            if !slot.content_truncated {
                slot.content_truncated = true;
                let id = slot.view.id.clone();
                let msg = format!("answer of task {id} exceeds {max} bytes: the rest is dropped");
                self.diag(
                    DiagCode::LimitExceeded,
                    Severity::Error,
                    msg,
                    "$.delta",
                    Some(&id),
                    meta,
                    ContentDelta::KIND,
                );
            }
            return;
        }
        record_offsets(slot, 1);
        slot.view.content.push_str(delta);
    }

    pub(super) fn apply_delta(&mut self, e: &ContentDelta<'_>, meta: &EventMeta<'_>) {
        // The hot path: deltas move the clock only while a request waits to expire.
        if !self.deadline_of.is_empty() {
            self.observe_time(&e.timestamp, meta);
        }
        let known = self.tasks.len();
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, ContentDelta::KIND) else {
            return;
        };
        // A delta for an unknown task creates it: that is a visible change by itself.
        let created = self.tasks.len() > known;
        if self.reject_if_terminal(t, &e.task_id, meta, ContentDelta::KIND) {
            return;
        }
        let Some(slot) = self.tasks.get_mut(t) else {
            return;
        };
        // After the answer is complete only new indices are an error; an applied one repeated
        // is a replay (a duplicate, or a conflict when its text differs), as before the end.
        if slot.view.content_complete && e.index >= slot.content.next_index() {
            let msg = format!(
                "content-delta {} for task {} after content-complete: ignored",
                e.index, e.task_id
            );
            self.diag(
                DiagCode::ChunkAfterComplete,
                Severity::Warning,
                msg,
                "$.index",
                Some(&e.task_id),
                meta,
                ContentDelta::KIND,
            );
            return;
        }
        let len_before = slot.view.content.len();
        match slot.content.push(e.index, false, || e.delta.to_string()) {
            Admit::Apply => {
                self.admitted = true;
                self.append_content(t, &e.delta, meta);
                self.drain_content(t, meta);
            }
            Admit::Held => {
                self.admitted = true;
                if slot.content.held() > self.limits.max_pending_chunks {
                    self.skip_content_gap(t, meta, ContentDelta::KIND);
                }
            }
            Admit::Duplicate | Admit::AfterComplete => {
                let conflict = usize::try_from(e.index).ok().and_then(|i| {
                    let start = *slot.delta_offsets.get(i)? as usize;
                    let end = match slot.delta_offsets.get(i + 1) {
                        Some(&x) => x as usize,
                        // Offsets stopped being recorded after this one: its end is unknown.
                        None if slot.offsets_capped => return None,
                        None => slot.view.content.len(),
                    };
                    Some(slot.view.content.get(start..end) != Some(e.delta.as_ref()))
                });
                if conflict == Some(true) {
                    let msg = format!("content-delta {} for task {} repeats an applied index with different text: ignored", e.index, e.task_id);
                    self.diag(
                        DiagCode::ChunkConflict,
                        Severity::Warning,
                        msg,
                        "$.delta",
                        Some(&e.task_id),
                        meta,
                        ContentDelta::KIND,
                    );
                } else {
                    self.duplicates_ignored += 1;
                }
                return;
            }
        }
        // The version moves only with visible state: a held delta, an empty one or one dropped
        // over the limit changes no text. updated_at is not refreshed per delta: the hot path
        // allocates nothing.
        if created
            || self
                .tasks
                .get(t)
                .is_some_and(|s| s.view.content.len() != len_before)
        {
            self.touch(t);
        }
    }

    pub(super) fn drain_content(&mut self, t: usize, meta: &EventMeta<'_>) {
        while let Some(d) = self.tasks.get_mut(t).and_then(|s| s.content.pop_ready()) {
            self.append_content(t, &d, meta);
        }
    }

    pub(super) fn skip_content_gap(&mut self, t: usize, meta: &EventMeta<'_>, kind: &str) -> bool {
        let Some(slot) = self.tasks.get_mut(t) else {
            return false;
        };
        let Some((from, to)) = slot.content.skip_gap() else {
            return false;
        };
        let id = slot.view.id.clone();
        let msg = if from == to {
            format!("content-delta {from} of task {id} never arrived")
        } else {
            format!("content-delta {from}..={to} of task {id} never arrived")
        };
        self.diag(
            DiagCode::ChunkGap,
            Severity::Warning,
            msg,
            "$.index",
            Some(&id),
            meta,
            kind,
        );
        // Keep offsets aligned with indices for the skipped ones.
        let len_before = match self.tasks.get_mut(t) {
            Some(slot) => {
                record_offsets(slot, to.saturating_sub(from).saturating_add(1));
                slot.view.content.len()
            }
            None => return true,
        };
        self.drain_content(t, meta);
        if self
            .tasks
            .get(t)
            .is_some_and(|s| s.view.content.len() != len_before)
        {
            // Held deltas were released (also at the end of the stream, outside any event).
            self.touch(t);
        }
        true
    }

    pub(crate) fn flush_content_gaps(&mut self, t: usize, meta: &EventMeta<'_>, kind: &str) {
        while self.skip_content_gap(t, meta, kind) {}
    }

    pub(super) fn reconcile_content(
        &mut self,
        t: usize,
        full: &str,
        task_id: &str,
        meta: &EventMeta<'_>,
        kind: &str,
    ) {
        let Some(slot) = self.tasks.get_mut(t) else {
            return;
        };
        if slot.view.content == full {
            slot.view.content_complete = true;
            return;
        }
        let assembled_len = slot.view.content.len();
        if assembled_len > 0 || slot.content.next_index() > 0 {
            let msg = format!(
                "{kind} text of task {task_id} ({} bytes) differs from the assembled deltas ({assembled_len} bytes): the server's text is used",
                full.len()
            );
            self.diag(
                DiagCode::ContentMismatch,
                Severity::Warning,
                msg,
                "$.content",
                Some(task_id),
                meta,
                kind,
            );
        }
        let max = self.limits.max_content_bytes;
        let kept = crate::events::floor_char_boundary(full, max);
        if let Some(slot) = self.touch(t) {
            slot.view.content.clear();
            slot.view.content.push_str(kept);
            slot.view.content_complete = true;
            slot.delta_offsets.clear();
            slot.offsets_capped = true;
        }
        if kept.len() < full.len() {
            self.limit_once(
                t,
                |s| &mut s.content_truncated,
                Severity::Error,
                |id| format!("answer of task {id} exceeds {max} bytes: the rest is dropped"),
                "$.content",
                meta,
                kind,
            );
        }
    }

    pub(super) fn apply_content_complete(&mut self, e: &ContentComplete<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, ContentComplete::KIND) else {
            return;
        };
        if self.reject_if_terminal(t, &e.task_id, meta, ContentComplete::KIND) {
            return;
        }
        self.flush_content_gaps(t, meta, ContentComplete::KIND);
        self.reconcile_content(t, &e.content, &e.task_id, meta, ContentComplete::KIND);
        if let Some(slot) = self.touch(t) {
            slot.view.content_complete = true;
        }
    }
}

/// Records `n` delta start offsets (the answer's current length), unless that would make the
/// offsets outgrow the answer by more than [`DELTA_OFFSET_SLACK`] (empty deltas or long gaps):
/// from then on no offsets are recorded for this answer, so indices stay aligned.
fn record_offsets(slot: &mut TaskSlot, n: u64) {
    if slot.offsets_capped {
        return;
    }
    let room =
        (slot.view.content.len() + DELTA_OFFSET_SLACK).saturating_sub(slot.delta_offsets.len());
    let Ok(n) = usize::try_from(n) else {
        slot.offsets_capped = true;
        return;
    };
    if n > room {
        slot.offsets_capped = true;
        return;
    }
    let at = u32::try_from(slot.view.content.len()).unwrap_or(u32::MAX);
    slot.delta_offsets.extend(std::iter::repeat_n(at, n));
}
