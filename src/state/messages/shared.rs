//! A task's shared state document: `state-snapshot` replaces it, `state-delta` applies an
//! RFC 6902 JSON Patch atomically (a failing operation leaves it as it was: a diagnostic).

use super::model::JsonDoc;
use crate::events::*;
use crate::json::{self, OwnedValue};
use crate::state::{EventMeta, Store};

impl Store {
    /// A run without a state of its own starts from the latest state of its context (the
    /// previous run of the thread), as an AG-UI agent's state carries from run to run.
    fn inherit_state(&mut self, t: usize) {
        let Some(slot) = self.tasks.get(t) else {
            return;
        };
        if slot.view.shared_state.is_some() {
            return;
        }
        let context = &slot.view.context_id;
        let found = self.tasks[..t]
            .iter()
            .rev()
            .find(|s| &s.view.context_id == context && s.view.shared_state.is_some())
            .and_then(|s| s.view.shared_state.clone());
        if let Some(slot) = self.tasks.get_mut(t) {
            slot.view.shared_state = found;
        }
    }

    pub(crate) fn apply_state_snapshot(&mut self, e: &StateSnapshot<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, StateSnapshot::KIND) else {
            return;
        };
        let doc = e.snapshot.clone().into_owned();
        if let Some(slot) = self.touch(t) {
            slot.view.shared_state = Some(JsonDoc(doc));
        }
    }

    pub(crate) fn apply_state_delta(&mut self, e: &StateDelta<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, StateDelta::KIND) else {
            return;
        };
        self.inherit_state(t);
        let Some(slot) = self.tasks.get_mut(t) else {
            return;
        };
        let doc = slot
            .view
            .shared_state
            .get_or_insert_with(|| JsonDoc(OwnedValue::Object(Vec::new())));
        match json::patch::apply(&mut doc.0, &e.patch) {
            Ok(()) => {
                self.touch(t);
            }
            Err(err) => {
                let msg = format!("state patch not applied: {err}");
                self.diag(
                    DiagCode::PatchFailed,
                    Severity::Warning,
                    msg,
                    "$.patch",
                    Some(&e.task_id),
                    meta,
                    StateDelta::KIND,
                );
            }
        }
    }
}
