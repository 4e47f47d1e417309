//! A task's shared state document: `state-snapshot` replaces it, `state-delta` applies an
//! RFC 6902 JSON Patch atomically (a failing operation leaves it as it was: a diagnostic).

use crate::events::*;
use crate::json::{self, OwnedValue};
use crate::state::messages::model::JsonDoc;
use crate::state::{EventMeta, Store};

impl Store {
    /// The shared state of `t`'s context, taken from the latest earlier task of the context that
    /// holds it (the previous run of the thread); that task then shows none. AG-UI's state is
    /// one document per agent that carries from run to run: it moves with the thread's latest
    /// run instead of being copied into every run, which would cost time and memory in
    /// proportion to runs x state size (a thread of 634 runs whose state collects files and
    /// datasets ran the wasm out of memory).
    fn take_context_state(&mut self, t: usize) -> Option<JsonDoc> {
        let context = &self.tasks.get(t)?.view.context_id;
        let i = self.tasks[..t]
            .iter()
            .rposition(|s| &s.view.context_id == context && s.view.shared_state.is_some())?;
        self.touch(i)?.view.shared_state.take()
    }

    /// A run without a state of its own starts from the latest state of its context (moved,
    /// see [`Store::take_context_state`]).
    fn inherit_state(&mut self, t: usize) {
        if self
            .tasks
            .get(t)
            .is_none_or(|s| s.view.shared_state.is_some())
        {
            return;
        }
        let Some(found) = self.take_context_state(t) else {
            return;
        };
        if let Some(slot) = self.touch(t) {
            slot.view.shared_state = Some(found);
        }
    }

    pub(crate) fn apply_state_snapshot(&mut self, e: &StateSnapshot<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, StateSnapshot::KIND) else {
            return;
        };
        let doc = e.snapshot.to_owned_value();
        // The new document replaces the context's: an earlier run no longer holds one.
        if self
            .tasks
            .get(t)
            .is_some_and(|s| s.view.shared_state.is_none())
        {
            self.take_context_state(t);
        }
        if let Some(slot) = self.touch(t) {
            slot.view.shared_state = Some(JsonDoc(doc));
        }
    }

    pub(crate) fn apply_state_delta(&mut self, e: &StateDelta<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, StateDelta::KIND) else {
            return;
        };
        // The thread's state moves to this run first (a visible change of both tasks, whatever
        // the patch does). The patch is atomic: on failure the document is as it was, and a
        // thread that had no state still has none.
        self.inherit_state(t);
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
            let mut doc = OwnedValue::Object(Vec::new());
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
