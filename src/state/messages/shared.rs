//! A task's shared state document: `state-snapshot` replaces it, `state-delta` applies an
//! RFC 6902 JSON Patch atomically (a failing operation leaves it as it was: a diagnostic).

use super::model::JsonDoc;
use crate::events::*;
use crate::json::{self, OwnedValue};
use crate::state::{EventMeta, Store};

impl Store {
    /// The state a run without one of its own starts from: the latest state of its context
    /// (the previous run of the thread), as an AG-UI agent's state carries from run to run;
    /// else an empty object.
    fn inherited_state(&self, t: usize) -> OwnedValue {
        let Some(slot) = self.tasks.get(t) else {
            return OwnedValue::Object(Vec::new());
        };
        let context = &slot.view.context_id;
        self.tasks
            .get(..t)
            .unwrap_or_default()
            .iter()
            .rev()
            .find(|s| &s.view.context_id == context && s.view.shared_state.is_some())
            .and_then(|s| s.view.shared_state.as_ref())
            .map_or_else(|| OwnedValue::Object(Vec::new()), |d| d.0.clone())
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
        // The patch is atomic: on failure the document is as it was (and a task that had
        // none still has none).
        let own = self
            .tasks
            .get(t)
            .is_some_and(|s| s.view.shared_state.is_some());
        let result = if own {
            let doc = self
                .tasks
                .get_mut(t)
                .and_then(|s| s.view.shared_state.as_mut());
            doc.map_or(Ok(()), |d| json::patch::apply(&mut d.0, &e.patch))
        } else {
            let mut doc = self.inherited_state(t);
            json::patch::apply(&mut doc, &e.patch).map(|()| {
                if let Some(slot) = self.tasks.get_mut(t) {
                    slot.view.shared_state = Some(JsonDoc(doc));
                }
            })
        };
        match result {
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
