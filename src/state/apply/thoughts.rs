//! Thoughts (reasoning streams).

use super::*;

impl Store {
    pub(super) fn apply_thought(&mut self, e: &ThoughtStream<'_>, meta: &EventMeta<'_>) {
        if !self.deadline_of.is_empty() {
            self.observe_time(&e.timestamp, meta);
        }
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, ThoughtStream::KIND) else {
            return;
        };
        if self.reject_if_terminal(t, &e.task_id, meta, ThoughtStream::KIND) {
            return;
        }
        // A thought's id is unique (within its task, should a server number them per task):
        // the same one again, while it is kept, is a replay, ignored like a repeated chunk.
        let id_hash = crate::state::dedupe::hash_of(&e.thought_id);
        if self
            .tasks
            .get(t)
            .is_some_and(|s| s.thought_ids.contains(&id_hash))
        {
            self.duplicates_ignored += 1;
            return;
        }
        let m = e.metadata.as_ref();
        let thought = Thought {
            id: e.thought_id.to_string(),
            thought_type: e.thought_type,
            verbosity: e.verbosity,
            content: e.content.to_string(),
            index: e.index,
            confidence: m
                .and_then(|m| m.get("confidence"))
                .and_then(Value::as_f64)
                .filter(|c| (0.0..=1.0).contains(c)),
            alternatives: m
                .and_then(|m| m.get("alternatives"))
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default(),
            related_to: meta_str(m, "relatedTo"),
            timestamp: e.timestamp.to_string(),
        };
        let max = self.limits.max_thoughts_per_task;
        let Some(slot) = self.touch(t) else { return };
        slot.view.thoughts.push_back(thought);
        slot.thought_ids.insert(id_hash);
        if slot.view.thoughts.len() > max {
            if let Some(old) = slot.view.thoughts.pop_front() {
                slot.thought_ids
                    .remove(&crate::state::dedupe::hash_of(&old.id));
            }
            if !slot.thoughts_truncated {
                slot.thoughts_truncated = true;
                let msg = format!(
                    "more than {max} thoughts for task {}: the oldest are dropped",
                    e.task_id
                );
                self.diag(
                    DiagCode::LimitExceeded,
                    Severity::Warning,
                    msg,
                    "$",
                    Some(&e.task_id),
                    meta,
                    ThoughtStream::KIND,
                );
            }
        }
    }
}
