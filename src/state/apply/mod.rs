//! Applying one canonical event to the store: the dispatch and what every kind shares (task
//! slots, history, limits, links); one file per concern: [`tasks`], [`content`], [`tools`],
//! [`requests`], [`thoughts`], and the conversation: [`messages`], [`message_tools`] (AG-UI's
//! tool-call arguments), [`shared_state`].

use super::chunks::Admit;
use super::model::*;
use super::usage::DELTA_OFFSET_SLACK;
use super::{EventMeta, Store, TaskSlot};
use crate::events::timestamp::to_epoch_ms;
use crate::events::*;
use crate::json::Value;

mod content;
mod message_tools;
mod messages;
mod requests;
mod shared_state;
mod tasks;
mod thoughts;
mod tools;

fn meta_str(meta: Option<&JsonObject<'_>>, key: &str) -> Option<String> {
    meta.and_then(|m| m.get(key))
        .and_then(Value::as_str)
        .map(str::to_owned)
}

fn meta_num(meta: Option<&JsonObject<'_>>, key: &str) -> Option<f64> {
    meta.and_then(|m| m.get(key))
        .and_then(Value::as_f64)
        .filter(|n| n.is_finite() && *n >= 0.0)
}

fn meta_count(meta: Option<&JsonObject<'_>>, key: &str) -> Option<u64> {
    meta_num(meta, key)
        .filter(|n| n.fract() == 0.0 && *n <= crate::events::field::MAX_SAFE_INTEGER)
        .map(|n| n as u64)
}

fn meta_bool(meta: Option<&JsonObject<'_>>, key: &str) -> Option<bool> {
    meta.and_then(|m| m.get(key)).and_then(Value::as_bool)
}

fn set_str(slot: &mut Option<String>, v: &str) {
    match slot {
        Some(s) => {
            s.clear();
            s.push_str(v);
        }
        None => *slot = Some(v.to_owned()),
    }
}

impl Store {
    /// Applies one event; returns `true` when it was applied (what handlers may see), `false`
    /// when it was a replay of what the state already holds (counted in
    /// [`Store::duplicates_ignored`], no diagnostic: see `replay.rs`), a repeated chunk, or
    /// refused (with its diagnostic). Rule violations between events become diagnostics; the
    /// store keeps going. Call [`Store::admit_event_id`] first when the stream carries SSE ids.
    pub fn apply(&mut self, ev: &AgentEvent<'_>, meta: &EventMeta<'_>) -> bool {
        if self.is_replay(ev, meta) || self.seen_stateless(ev, meta) {
            self.duplicates_ignored += 1;
            return false;
        }
        let changes = self.state_changes();
        self.admitted = false;
        self.log_raw(meta);
        match ev {
            AgentEvent::ContentDelta(e) => self.apply_delta(e, meta),
            AgentEvent::TaskCreated(e) => self.apply_task_created(e, meta),
            AgentEvent::TaskStatusEvent(e) => self.apply_status(e, meta),
            AgentEvent::TaskComplete(e) => self.apply_task_complete(e, meta),
            AgentEvent::ContentComplete(e) => self.apply_content_complete(e, meta),
            AgentEvent::ToolStart(e) => self.apply_tool_start(e, meta),
            AgentEvent::ToolProgress(e) => self.apply_tool_progress(e, meta),
            AgentEvent::ToolComplete(e) => self.apply_tool_complete(e, meta),
            AgentEvent::InputRequired(e) => self.apply_input_required(e, meta),
            AgentEvent::InputReceived(e) => self.apply_input_received(e, meta),
            AgentEvent::AuthRequired(e) => self.apply_auth_required(e, meta),
            AgentEvent::AuthCompleted(e) => self.apply_auth_completed(e, meta),
            AgentEvent::FileWrite(e) => self.apply_file_write(e, meta),
            AgentEvent::DataWrite(e) => self.apply_data_write(e, meta),
            AgentEvent::DatasetWrite(e) => self.apply_dataset_write(e, meta),
            AgentEvent::SubtaskCreated(e) => self.apply_subtask_created(e, meta),
            AgentEvent::ThoughtStream(e) => self.apply_thought(e, meta),
            // Internal events carry no UI state (they are still delivered/filtered), but their
            // timestamps are stream time like any other.
            AgentEvent::InternalThoughtProcess(e) => _ = self.observe_time(&e.timestamp, meta),
            AgentEvent::InternalLlmCall(e) => _ = self.observe_time(&e.timestamp, meta),
            AgentEvent::InternalCheckpoint(e) => _ = self.observe_time(&e.timestamp, meta),
            AgentEvent::InternalToolStart(e) => _ = self.observe_time(&e.timestamp, meta),
            AgentEvent::InternalToolComplete(e) => _ = self.observe_time(&e.timestamp, meta),
            AgentEvent::MessageStart(e) => self.apply_message_start(e, meta),
            AgentEvent::MessageDelta(e) => self.apply_message_delta(e, meta),
            AgentEvent::MessageEnd(e) => self.apply_message_end(e, meta),
            AgentEvent::MessagePut(e) => self.apply_message_put(e, meta),
            AgentEvent::MessagesSnapshot(e) => self.apply_messages_snapshot(e, meta),
            AgentEvent::MessagePatch(e) => self.apply_message_patch(e, meta),
            AgentEvent::ToolArgsDelta(e) => self.apply_tool_args_delta(e, meta),
            AgentEvent::ToolArgsEnd(e) => self.apply_tool_args_end(e, meta),
            AgentEvent::EncryptedValue(e) => self.apply_encrypted_value(e, meta),
            AgentEvent::StateSnapshot(e) => self.apply_state_snapshot(e, meta),
            AgentEvent::StateDelta(e) => self.apply_state_delta(e, meta),
            AgentEvent::MessagePartPut(e) => self.apply_message_part(e, meta),
            AgentEvent::MessageCut(e) => self.apply_message_cut(e, meta),
            AgentEvent::Unknown(_) => {}
        }
        // Applied: it changed the state, or it is a chunk admitted (applied, or held until its
        // predecessors arrive),
        // or it carries no state (internal and unknown kinds are delivered as they come).
        let applied =
            self.state_changes() != changes || self.admitted || super::replay::is_stateless(ev);
        if applied {
            self.events_applied += 1;
        }
        applied
    }

    /// Advances stream time to `ts` (when later) and expires the requests it passes; returns
    /// `ts` in epoch ms. Every event with a valid timestamp moves the clock; content deltas and
    /// thoughts (the hot path) only while a request waits to expire, which is all the clock is
    /// for: a request must expire while the agent keeps streaming text.
    pub(super) fn observe_time(&mut self, ts: &str, meta: &EventMeta<'_>) -> Option<i64> {
        let ms = to_epoch_ms(ts)?;
        if self.clock_ms.is_none_or(|c| ms > c) {
            self.clock_ms = Some(ms);
            if !self.deadline_of.is_empty() {
                self.expire_requests(meta);
            }
        }
        Some(ms)
    }

    /// The slot of task `id`, created when missing (within `max_tasks`).
    pub(crate) fn task_slot(
        &mut self,
        id: &str,
        context_id: &str,
        meta: &EventMeta<'_>,
        kind: &str,
    ) -> Option<usize> {
        // Consecutive events mostly belong to the same task: one string comparison, no hashing.
        if self
            .tasks
            .get(self.last_task)
            .is_some_and(|s| crate::swar::same(s.view.id.as_bytes(), id.as_bytes()))
        {
            return Some(self.last_task);
        }
        if let Some(&i) = self.task_index.get(id) {
            self.last_task = i;
            return Some(i);
        }
        if self.tasks.len() >= self.limits.max_tasks {
            if !self.task_limit_reported {
                self.task_limit_reported = true;
                let msg = format!(
                    "more than {} tasks: further tasks are ignored",
                    self.limits.max_tasks
                );
                self.diag(
                    DiagCode::LimitExceeded,
                    Severity::Error,
                    msg,
                    "$.taskId",
                    Some(id),
                    meta,
                    kind,
                );
            }
            return None;
        }
        let i = self.tasks.len();
        self.tasks.push(TaskSlot {
            view: Task {
                id: id.to_owned(),
                context_id: context_id.to_owned(),
                ..Task::default()
            },
            announced_only: true,
            ..TaskSlot::default()
        });
        self.task_index.insert(id.to_owned(), i);
        Some(i)
    }

    /// A task that ended leaves no request open: what it still waited for can no longer be
    /// answered, so its open input and auth requests become `expired` (no diagnostic: a run
    /// canceled while it asks is a normal end) and their deadlines are dropped.
    pub(crate) fn close_open_requests(&mut self, t: usize) {
        let Some(slot) = self.tasks.get(t) else {
            return;
        };
        let open = |s: RequestState| s == RequestState::Open;
        let inputs: Vec<usize> = (0..slot.view.inputs.len())
            .filter(|&i| open(slot.view.inputs[i].state))
            .collect();
        let auths: Vec<usize> = (0..slot.view.auths.len())
            .filter(|&i| open(slot.view.auths[i].state))
            .collect();
        if inputs.is_empty() && auths.is_empty() {
            return;
        }
        for &i in &inputs {
            self.drop_deadline(t, false, i);
        }
        for &i in &auths {
            self.drop_deadline(t, true, i);
        }
        if let Some(slot) = self.touch(t) {
            for i in inputs {
                if let Some(r) = slot.view.inputs.get_mut(i) {
                    r.state = RequestState::Expired;
                    r.sending = false;
                }
            }
            for i in auths {
                if let Some(a) = slot.view.auths.get_mut(i) {
                    a.state = RequestState::Expired;
                    a.sending = false;
                }
            }
        }
    }

    pub(crate) fn touch(&mut self, t: usize) -> Option<&mut TaskSlot> {
        let v = self.bump();
        let slot = self.tasks.get_mut(t)?;
        slot.view.revision = v;
        Some(slot)
    }

    /// Reports a per-task limit once: `flag` selects the task's "already reported" bit.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn limit_once(
        &mut self,
        t: usize,
        flag: fn(&mut TaskSlot) -> &mut bool,
        severity: Severity,
        message: impl FnOnce(&str) -> String,
        path: &str,
        meta: &EventMeta<'_>,
        kind: &str,
    ) {
        let Some(slot) = self.tasks.get_mut(t) else {
            return;
        };
        let reported = flag(slot);
        if *reported {
            return;
        }
        *reported = true;
        let id = slot.view.id.clone();
        self.diag(
            DiagCode::LimitExceeded,
            severity,
            message(&id),
            path,
            Some(&id),
            meta,
            kind,
        );
    }

    /// Appends a status change, dropping the oldest beyond `max_history_per_task`.
    pub(crate) fn push_history(
        &mut self,
        t: usize,
        change: StatusChange,
        meta: &EventMeta<'_>,
        kind: &str,
    ) {
        let max = self.limits.max_history_per_task;
        let Some(slot) = self.tasks.get_mut(t) else {
            return;
        };
        slot.view.history.push_back(change);
        if slot.view.history.len() <= max {
            return;
        }
        slot.view.history.pop_front();
        self.limit_once(
            t,
            |s| &mut s.history_truncated,
            Severity::Warning,
            |id| format!("more than {max} status changes for task {id}: the oldest are dropped"),
            "$.status",
            meta,
            kind,
        );
    }

    /// Links `child` under `parent` (idempotent; a contradiction is a diagnostic).
    fn link(&mut self, child: usize, parent: usize, meta: &EventMeta<'_>, kind: &str) {
        if child == parent {
            return;
        }
        let Some(parent_id) = self.tasks.get(parent).map(|p| p.view.id.clone()) else {
            return;
        };
        let Some(c) = self.tasks.get(child) else {
            return;
        };
        match &c.view.parent_id {
            Some(p) if *p == parent_id => {}
            Some(p) => {
                let msg = format!("task {} already has parent {p}, not {parent_id}", c.view.id);
                let id = c.view.id.clone();
                self.diag(
                    DiagCode::ParentConflict,
                    Severity::Warning,
                    msg,
                    "$.parentTaskId",
                    Some(&id),
                    meta,
                    kind,
                );
            }
            None => {
                // Refuse a link that would make a cycle.
                let child_id = c.view.id.clone();
                if self.is_in_subtree(&parent_id, &child_id) {
                    let msg = format!("linking {child_id} under {parent_id} would make a cycle");
                    self.diag(
                        DiagCode::ParentConflict,
                        Severity::Warning,
                        msg,
                        "$.parentTaskId",
                        Some(&child_id),
                        meta,
                        kind,
                    );
                    return;
                }
                if let Some(c) = self.touch(child) {
                    c.view.parent_id = Some(parent_id);
                }
                if let Some(p) = self.touch(parent) {
                    p.view.children.push(child_id);
                }
            }
        }
    }

    fn is_terminal(&self, t: usize) -> bool {
        self.tasks
            .get(t)
            .and_then(|s| s.view.status)
            .is_some_and(TaskStatus::is_terminal)
    }

    /// Reports and skips a content event for a task that already ended. Returns true if so.
    pub(crate) fn reject_if_terminal(
        &mut self,
        t: usize,
        task_id: &str,
        meta: &EventMeta<'_>,
        kind: &str,
    ) -> bool {
        if !self.is_terminal(t) {
            return false;
        }
        let status = self
            .tasks
            .get(t)
            .and_then(|s| s.view.status)
            .map_or("", TaskStatus::as_str);
        let msg = format!("{kind} for task {task_id} after it ended ({status}): ignored");
        self.diag(
            DiagCode::TaskAlreadyTerminal,
            Severity::Warning,
            msg,
            "$",
            Some(task_id),
            meta,
            kind,
        );
        true
    }
}
