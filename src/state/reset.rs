//! Replacing assembled content: what a dialect does when its protocol says "this replaces what
//! came before" (A2A `artifact-update` with `append: false` for an artifact already received).
//! Protocol 000 has no such event; these are called by the dialect layer between events.

use super::{ArtifactSlot, Store};
use crate::state::model::{Artifact, RequestState};

impl Store {
    /// Closes the open input request `input_id` without an answer: it becomes `expired` (a
    /// dialect whose agent asked another question instead). Nothing happens for an unknown or
    /// already closed request.
    pub fn expire_input(&mut self, input_id: &str) {
        let Some(&(t, i)) = self.input_index.get(input_id) else {
            return;
        };
        let open = self
            .tasks
            .get(t)
            .and_then(|s| s.view.inputs.get(i))
            .is_some_and(|r| r.state == RequestState::Open);
        if !open {
            return;
        }
        self.drop_deadline(t, false, i);
        let v = self.bump();
        if let Some(slot) = self.tasks.get_mut(t) {
            if let Some(r) = slot.view.inputs.get_mut(i) {
                r.state = RequestState::Expired;
                r.sending = false;
            }
            slot.view.revision = v;
        }
    }

    /// Forgets the assembled answer of task `task_id` (its text, chunk order and completion):
    /// the next `content-delta` is index 0 again. Nothing happens for an unknown task.
    pub fn reset_content(&mut self, task_id: &str) {
        let Some(&t) = self.task_index.get(task_id) else {
            return;
        };
        let v = self.bump();
        let Some(slot) = self.tasks.get_mut(t) else {
            return;
        };
        slot.content = Default::default();
        slot.delta_offsets.clear();
        slot.offsets_capped = false;
        slot.content_truncated = false;
        slot.view.content.clear();
        slot.view.content_complete = false;
        slot.view.revision = v;
    }

    /// Forgets the content of artifact `id` (bytes, rows, chunk order, completion and the
    /// metadata that comes with chunk 0); it keeps its id, type and task, and expects chunk 0
    /// again. Nothing happens for an unknown artifact.
    pub fn reset_artifact(&mut self, id: &str) {
        let Some(&a) = self.artifact_index.get(id) else {
            return;
        };
        let v = self.bump();
        let Some(slot) = self.artifacts.get_mut(a) else {
            return;
        };
        let old = std::mem::take(&mut slot.view);
        *slot = ArtifactSlot {
            view: Artifact {
                id: old.id,
                kind: old.kind,
                task_id: old.task_id,
                revision: v,
                ..Artifact::default()
            },
            ..ArtifactSlot::default()
        };
    }
}
