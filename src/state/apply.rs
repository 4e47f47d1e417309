//! Applying one canonical event to the store: tasks, content, tools, requests, thoughts.

use super::chunks::Admit;
use super::model::*;
use super::usage::DELTA_OFFSET_SLACK;
use super::{EventMeta, Store, TaskSlot};
use crate::events::timestamp::to_epoch_ms;
use crate::events::*;
use crate::json::Value;

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
        let applied = self.state_changes() != changes
            || self.admitted
            || matches!(ev, AgentEvent::Unknown(_))
            || ev.kind().starts_with("internal:");
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
            .is_some_and(|s| s.view.id == id)
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

    fn apply_task_created(&mut self, e: &TaskCreated<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, TaskCreated::KIND) else {
            return;
        };
        if let Some(p) = &e.parent_task_id {
            let known = self.tasks.get(t).and_then(|s| s.view.parent_id.as_deref());
            match known {
                // Already placed under another parent: report, and create no placeholder for
                // a parent that may never exist.
                Some(q) if q != p.as_ref() => {
                    let msg = format!("task {} already has parent {q}, not {p}", e.task_id);
                    self.diag(
                        DiagCode::ParentConflict,
                        Severity::Warning,
                        msg,
                        "$.parentTaskId",
                        Some(&e.task_id),
                        meta,
                        TaskCreated::KIND,
                    );
                }
                _ => {
                    if let Some(pi) = self.task_slot(p, &e.context_id, meta, TaskCreated::KIND) {
                        self.link(t, pi, meta, TaskCreated::KIND);
                    }
                }
            }
        }
        let m = e.metadata.as_ref();
        let Some(slot) = self.touch(t) else { return };
        slot.announced_only = false;
        slot.view.initiator = Some(e.initiator);
        set_str(&mut slot.view.created_at, &e.timestamp);
        set_str(&mut slot.view.updated_at, &e.timestamp);
        if let Some(a) = meta_str(m, "agentId") {
            slot.view.agent_id = Some(a);
        }
        if let Some(model) = meta_str(m, "model") {
            slot.view.model = Some(model);
        }
        if e.parent_task_id.is_none() && e.initiator == Initiator::User {
            self.place_user_message(t, &e.context_id, meta);
        }
    }

    fn apply_subtask_created(&mut self, e: &SubtaskCreated<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(parent) = self.task_slot(&e.task_id, &e.context_id, meta, SubtaskCreated::KIND)
        else {
            return;
        };
        let Some(child) = self.task_slot(&e.subtask_id, &e.context_id, meta, SubtaskCreated::KIND)
        else {
            return;
        };
        self.link(child, parent, meta, SubtaskCreated::KIND);
        let Some(slot) = self.touch(child) else {
            return;
        };
        slot.view.prompt = Some(e.prompt.to_string());
        if slot.view.created_at.is_none() {
            // Until (unless) the sub-task's own task-created says otherwise.
            slot.view.created_at = Some(e.timestamp.to_string());
        }
        if slot.view.agent_id.is_none() {
            slot.view.agent_id = e.agent_id.as_deref().map(str::to_owned);
        }
        if slot.view.initiator.is_none() {
            slot.view.initiator = Some(Initiator::Agent);
        }
    }

    fn apply_status(&mut self, e: &TaskStatusEvent<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, TaskStatusEvent::KIND) else {
            return;
        };
        if let Some(cur) = self.tasks.get(t).and_then(|s| s.view.status) {
            if cur.is_terminal() {
                if cur != e.status {
                    let msg = format!(
                        "status {} for task {} after it ended ({}): ignored",
                        e.status.as_str(),
                        e.task_id,
                        cur.as_str()
                    );
                    self.diag(
                        DiagCode::TaskAlreadyTerminal,
                        Severity::Warning,
                        msg,
                        "$.status",
                        Some(&e.task_id),
                        meta,
                        TaskStatusEvent::KIND,
                    );
                }
                return;
            }
        }
        let m = e.metadata.as_ref();
        let change = StatusChange {
            status: e.status,
            message: e.message.as_deref().map(str::to_owned),
            reason: meta_str(m, "reason"),
            blocked_by: meta_str(m, "blockedBy"),
            timestamp: e.timestamp.to_string(),
        };
        if let Some(slot) = self.touch(t) {
            slot.view.status = Some(e.status);
            slot.view.status_message = change.message.clone();
            set_str(&mut slot.view.updated_at, &e.timestamp);
        }
        self.push_history(t, change, meta, TaskStatusEvent::KIND);
        if e.status.is_terminal() {
            self.flush_content_gaps(t, meta, TaskStatusEvent::KIND);
            self.flush_task_artifact_gaps(t, meta);
            self.close_open_requests(t);
            self.end_open_work(t, &e.timestamp, meta, TaskStatusEvent::KIND);
            // A completed task receives no further content: its answer is final even when the
            // server ends it with a status rather than `task-complete` (A2A, Unified, MyAgent).
            // Failed/canceled answers stay incomplete: they were cut short.
            let open = self.tasks.get(t).is_some_and(|s| !s.view.content_complete);
            if e.status == TaskStatus::Completed && open {
                if let Some(slot) = self.touch(t) {
                    slot.view.content_complete = true;
                }
            }
        }
    }

    fn apply_task_complete(&mut self, e: &TaskComplete<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, TaskComplete::KIND) else {
            return;
        };
        // After `completed`, task-complete is the expected summary; after failed/canceled it
        // contradicts the task's end and must not replace its content.
        let ended = self.tasks.get(t).and_then(|s| s.view.status);
        if let Some(status @ (TaskStatus::Failed | TaskStatus::Canceled)) = ended {
            let msg = format!(
                "task-complete for task {} after it ended ({}): ignored",
                e.task_id,
                status.as_str()
            );
            self.diag(
                DiagCode::TaskAlreadyTerminal,
                Severity::Warning,
                msg,
                "$",
                Some(&e.task_id),
                meta,
                TaskComplete::KIND,
            );
            return;
        }
        self.flush_content_gaps(t, meta, TaskComplete::KIND);
        self.flush_task_artifact_gaps(t, meta);
        self.close_open_requests(t);
        self.end_open_work(t, &e.timestamp, meta, TaskComplete::KIND);
        if let Some(content) = &e.content {
            self.reconcile_content(t, content, &e.task_id, meta, TaskComplete::KIND);
        }
        let m = e.metadata.as_ref();
        let Some(slot) = self.touch(t) else { return };
        let completes = !slot.view.status.is_some_and(TaskStatus::is_terminal);
        if completes {
            slot.view.status = Some(TaskStatus::Completed);
        }
        // The task is completed (failed/canceled returned above): its answer is final, with
        // or without a `content` member, as after `task-status: completed`.
        slot.view.content_complete = true;
        let print = super::replay::data_print(&e.timestamp, e.content.as_deref().unwrap_or(""));
        if slot.complete_prints.len() >= 8 {
            slot.complete_prints.remove(0);
        }
        slot.complete_prints.push(print);
        set_str(&mut slot.view.updated_at, &e.timestamp);
        slot.view.duration = meta_num(m, "duration").or(slot.view.duration);
        slot.view.iterations = meta_count(m, "iterations").or(slot.view.iterations);
        slot.view.tokens_used = meta_count(m, "tokensUsed").or(slot.view.tokens_used);
        if completes {
            let change = StatusChange {
                status: TaskStatus::Completed,
                timestamp: e.timestamp.to_string(),
                ..StatusChange::default()
            };
            self.push_history(t, change, meta, TaskComplete::KIND);
        }
        if let Some(list) = &e.artifacts {
            let ids: Vec<&str> = list.iter().map(|a| a.as_ref()).collect();
            self.list_artifacts(t, &ids, meta, TaskComplete::KIND);
        }
    }

    /// Adds artifact ids to task `t`'s list (no duplicates, at most `max_artifacts`). Linear in
    /// the list and the ids, whatever their number.
    pub(crate) fn list_artifacts(
        &mut self,
        t: usize,
        ids: &[&str],
        meta: &EventMeta<'_>,
        kind: &str,
    ) {
        let max = self.limits.max_artifacts;
        let Some(slot) = self.tasks.get_mut(t) else {
            return;
        };
        let list = &mut slot.view.artifacts;
        let len_before = list.len();
        let mut over = false;
        if ids.len() <= 4 {
            for &id in ids {
                if !list.iter().any(|x| x == id) {
                    if list.len() >= max {
                        over = true;
                        break;
                    }
                    list.push(id.to_owned());
                }
            }
        } else {
            let mut known: std::collections::HashSet<String> = list.iter().cloned().collect();
            for &id in ids {
                if !known.contains(id) {
                    if list.len() >= max {
                        over = true;
                        break;
                    }
                    known.insert(id.to_owned());
                    list.push(id.to_owned());
                }
            }
        }
        if list.len() != len_before {
            // The task's object shows the list: a new revision.
            self.touch(t);
        }
        if over {
            self.limit_once(
                t,
                |s| &mut s.artifacts_truncated,
                Severity::Warning,
                |id| format!("task {id} lists more than {max} artifacts: the rest are not listed"),
                "$.artifacts",
                meta,
                kind,
            );
        }
    }

    /// Appends to task `t`'s answer text (within `maxContentBytes`).
    pub(crate) fn append_answer(&mut self, t: usize, delta: &str, meta: &EventMeta<'_>) {
        self.append_content(t, delta, meta);
    }

    fn append_content(&mut self, t: usize, delta: &str, meta: &EventMeta<'_>) {
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

    fn apply_delta(&mut self, e: &ContentDelta<'_>, meta: &EventMeta<'_>) {
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

    fn drain_content(&mut self, t: usize, meta: &EventMeta<'_>) {
        while let Some(d) = self.tasks.get_mut(t).and_then(|s| s.content.pop_ready()) {
            self.append_content(t, &d, meta);
        }
    }

    fn skip_content_gap(&mut self, t: usize, meta: &EventMeta<'_>, kind: &str) -> bool {
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

    fn reconcile_content(
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

    fn apply_content_complete(&mut self, e: &ContentComplete<'_>, meta: &EventMeta<'_>) {
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

    fn tool_at(&mut self, id: &str) -> Option<&mut Tool> {
        let &(t, i) = self.tool_index.get(id)?;
        self.tasks.get_mut(t)?.view.tools.get_mut(i)
    }

    fn new_tool(
        &mut self,
        t: usize,
        id: &str,
        name: &str,
        meta: &EventMeta<'_>,
        kind: &str,
    ) -> Option<&mut Tool> {
        let max = self.limits.max_tools_per_task;
        if self.tasks.get(t)?.view.tools.len() >= max {
            self.limit_once(
                t,
                |s| &mut s.tools_truncated,
                Severity::Error,
                |id| format!("more than {max} tool calls for task {id}: further ones are ignored"),
                "$.toolCallId",
                meta,
                kind,
            );
            return None;
        }
        let slot = self.touch(t)?;
        let i = slot.view.tools.len();
        slot.view.tools.push(Tool {
            id: id.to_owned(),
            name: name.to_owned(),
            arguments: RawJson("{}".to_owned()),
            ..Tool::default()
        });
        self.tool_index.insert(id.to_owned(), (t, i));
        self.tasks.get_mut(t)?.view.tools.get_mut(i)
    }

    fn apply_tool_start(&mut self, e: &ToolStart<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, ToolStart::KIND) else {
            return;
        };
        if self.reject_if_terminal(t, &e.task_id, meta, ToolStart::KIND) {
            return;
        }
        if let Some(&(tt, i)) = self.tool_index.get(e.tool_call_id.as_ref()) {
            // Its progress or result came first (a placeholder with no start): the start
            // still brings the call's name and arguments (issue 25: reordered tool events).
            let early = self
                .tasks
                .get_mut(tt)
                .and_then(|s| s.view.tools.get_mut(i))
                .filter(|x| x.started_at.is_none());
            if let Some(tool) = early {
                if tool.name.is_empty() {
                    tool.name = e.tool_name.to_string();
                }
                tool.arguments = RawJson::from_value(&e.arguments.0);
                let m = e.metadata.as_ref();
                tool.provider = meta_str(m, "provider");
                tool.concurrent = meta_bool(m, "concurrent");
                tool.started_at = Some(e.timestamp.to_string());
                self.touch(tt);
                return;
            }
            let msg = format!("tool call {} already started: ignored", e.tool_call_id);
            self.diag(
                DiagCode::ToolAlreadyFinished,
                Severity::Warning,
                msg,
                "$.toolCallId",
                Some(&e.task_id),
                meta,
                ToolStart::KIND,
            );
            return;
        }
        let m = e.metadata.as_ref();
        let Some(tool) = self.new_tool(t, &e.tool_call_id, &e.tool_name, meta, ToolStart::KIND)
        else {
            return;
        };
        tool.arguments = RawJson::from_value(&e.arguments.0);
        tool.provider = meta_str(m, "provider");
        tool.concurrent = meta_bool(m, "concurrent");
        tool.started_at = Some(e.timestamp.to_string());
        if let Some(mid) = meta_str(m, "messageId") {
            if let Some(&(tt, k)) = self.tool_index.get(e.tool_call_id.as_ref()) {
                self.link_tool_to_message(tt, k, &mid);
            }
        }
    }

    /// The tool for a progress/complete event, or a placeholder (with a diagnostic) when it
    /// never started. `None` when it already finished (diagnosed) or limits refuse it.
    fn tool_for_update(
        &mut self,
        task_id: &str,
        context_id: &str,
        call_id: &str,
        name: &str,
        meta: &EventMeta<'_>,
        kind: &str,
    ) -> Option<usize> {
        let t = self.task_slot(task_id, context_id, meta, kind)?;
        match self.tool_index.get(call_id).copied() {
            Some((tt, i)) => {
                let finished = self
                    .tasks
                    .get(tt)
                    .and_then(|s| s.view.tools.get(i))
                    // A tool the store canceled when its task ended still takes the
                    // server's own `tool-complete` (sent after the task's end).
                    .is_some_and(|x| {
                        x.state != ToolState::Running
                            && !(x.state == ToolState::Canceled && kind == ToolComplete::KIND)
                    });
                if finished {
                    let msg = format!("{kind} for tool call {call_id} after it completed: ignored");
                    self.diag(
                        DiagCode::ToolAlreadyFinished,
                        Severity::Warning,
                        msg,
                        "$.toolCallId",
                        Some(task_id),
                        meta,
                        kind,
                    );
                    return None;
                }
                self.touch(tt);
                Some(tt)
            }
            // A call beyond the task's tool limit was ignored: so are its updates.
            None if self.tasks.get(t).is_some_and(|s| s.tools_truncated) => None,
            None => {
                let msg = format!("{kind} for tool call {call_id} that never started");
                self.diag(
                    DiagCode::ToolNotStarted,
                    Severity::Warning,
                    msg,
                    "$.toolCallId",
                    Some(task_id),
                    meta,
                    kind,
                );
                self.new_tool(t, call_id, name, meta, kind)?;
                Some(t)
            }
        }
    }

    fn apply_tool_progress(&mut self, e: &ToolProgress<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        if self
            .tool_for_update(
                &e.task_id,
                &e.context_id,
                &e.tool_call_id,
                "",
                meta,
                ToolProgress::KIND,
            )
            .is_none()
        {
            return;
        }
        let m = e.metadata.as_ref();
        if let Some(ms) = to_epoch_ms(&e.timestamp) {
            self.tool_progress_ms
                .insert(e.tool_call_id.to_string(), ms.max(0) as u64);
        }
        let Some(tool) = self.tool_at(&e.tool_call_id) else {
            return;
        };
        tool.progress = if e.progress.is_nan() {
            tool.progress
        } else {
            e.progress.clamp(0.0, 1.0)
        };
        if let Some(msg) = &e.message {
            set_str(&mut tool.message, msg);
        }
        if let Some(s) = meta_str(m, "step") {
            tool.step = Some(s);
        }
        tool.steps_completed = meta_count(m, "stepsCompleted").or(tool.steps_completed);
        tool.steps_total = meta_count(m, "stepsTotal").or(tool.steps_total);
    }

    fn apply_tool_complete(&mut self, e: &ToolComplete<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        if self
            .tool_for_update(
                &e.task_id,
                &e.context_id,
                &e.tool_call_id,
                &e.tool_name,
                meta,
                ToolComplete::KIND,
            )
            .is_none()
        {
            return;
        }
        let m = e.metadata.as_ref();
        let Some(tool) = self.tool_at(&e.tool_call_id) else {
            return;
        };
        if tool.name.is_empty() {
            tool.name = e.tool_name.to_string();
        }
        tool.state = if e.success {
            ToolState::Succeeded
        } else {
            ToolState::Failed
        };
        if e.success {
            tool.progress = 1.0;
        }
        tool.result = e.result.as_ref().map(RawJson::from_value);
        tool.error = e.error.as_deref().map(str::to_owned);
        tool.duration = meta_num(m, "duration");
        tool.cached = meta_bool(m, "cached");
        tool.retries = meta_count(m, "retries");
        tool.ended_at = Some(e.timestamp.to_string());
    }

    fn apply_input_required(&mut self, e: &InputRequired<'_>, meta: &EventMeta<'_>) {
        let at = self.observe_time(&e.timestamp, meta);
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, InputRequired::KIND) else {
            return;
        };
        if self.input_index.contains_key(e.input_id.as_ref()) {
            let msg = format!("input request {} was already made: ignored", e.input_id);
            self.diag(
                DiagCode::DuplicateRequest,
                Severity::Warning,
                msg,
                "$.inputId",
                Some(&e.task_id),
                meta,
                InputRequired::KIND,
            );
            return;
        }
        if !self.room_for_request(t, meta, InputRequired::KIND) {
            return;
        }
        let m = e.metadata.as_ref();
        let require_user = e.require_user.unwrap_or(false);
        let timeout = meta_num(m, "timeout");
        let req = InputRequest {
            id: e.input_id.to_string(),
            task_id: e.task_id.to_string(),
            context_id: e.context_id.to_string(),
            input_type: e.input_type,
            prompt: e.prompt.to_string(),
            require_user,
            routing: if require_user {
                Routing::User
            } else {
                Routing::Coordinator
            },
            schema: e.schema.as_ref().map(RawJson::from_value),
            options: e.options.as_ref().map(|o| {
                let mut s = String::from("[");
                for (i, v) in o.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    v.write(&mut s);
                }
                s.push(']');
                RawJson(s)
            }),
            tool_call: m.and_then(|m| m.get("toolCall")).map(RawJson::from_value),
            urgency: meta_str(m, "urgency"),
            timeout,
            requested_at: e.timestamp.to_string(),
            ..InputRequest::default()
        };
        let Some(slot) = self.touch(t) else { return };
        let i = slot.view.inputs.len();
        slot.view.inputs.push(req);
        self.input_index.insert(e.input_id.to_string(), (t, i));
        if let (Some(at), Some(secs)) = (at, timeout) {
            self.add_deadline(at.saturating_add((secs * 1000.0) as i64), t, false, i);
        }
    }

    /// `false` (reported once) when task `t` already keeps `max_requests_per_task` requests.
    fn room_for_request(&mut self, t: usize, meta: &EventMeta<'_>, kind: &str) -> bool {
        let max = self.limits.max_requests_per_task;
        let held = self
            .tasks
            .get(t)
            .map_or(0, |s| s.view.inputs.len() + s.view.auths.len());
        if held < max {
            return true;
        }
        self.limit_once(
            t,
            |s| &mut s.requests_truncated,
            Severity::Error,
            |id| {
                format!(
                    "more than {max} input/auth requests for task {id}: further ones are ignored"
                )
            },
            "$",
            meta,
            kind,
        );
        false
    }

    /// `true` when requests of task `task_id` were refused by a limit (the task itself, or its
    /// requests): answers to unknown requests of that task are then ignored silently, the
    /// limit was reported once already.
    fn refused_requests_of(&self, task_id: &str) -> bool {
        match self.task_index.get(task_id) {
            None => self.task_limit_reported,
            Some(&t) => self.tasks.get(t).is_some_and(|s| s.requests_truncated),
        }
    }

    fn apply_input_received(&mut self, e: &InputReceived<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let found = self.input_index.get(e.input_id.as_ref()).copied();
        if found.is_none() && self.refused_requests_of(&e.task_id) {
            return;
        }
        let state = found
            .and_then(|(t, i)| self.tasks.get(t)?.view.inputs.get(i))
            .map(|r| r.state);
        let Some((t, i)) = found.filter(|_| state != Some(RequestState::Answered)) else {
            let why = if found.is_some() {
                "was already answered"
            } else {
                "has no open input-required"
            };
            let msg = format!("input-received for {} which {why}", e.input_id);
            self.diag(
                DiagCode::InputNotOpen,
                Severity::Warning,
                msg,
                "$.inputId",
                Some(&e.task_id),
                meta,
                InputReceived::KIND,
            );
            return;
        };
        let Some(slot) = self.touch(t) else { return };
        let Some(req) = slot.view.inputs.get_mut(i) else {
            return;
        };
        req.state = RequestState::Answered;
        req.sending = false;
        self.answered_at
            .insert(e.input_id.to_string(), super::dedupe::hash_of(&e.timestamp));
        let Some(req) = self.tasks.get_mut(t).and_then(|s| s.view.inputs.get_mut(i)) else {
            return;
        };
        req.provided_by = Some(e.provided_by);
        req.user_id = e.user_id.as_deref().map(str::to_owned);
        req.agent_id = e.agent_id.as_deref().map(str::to_owned);
        self.drop_deadline(t, false, i);
    }

    fn apply_auth_required(&mut self, e: &AuthRequired<'_>, meta: &EventMeta<'_>) {
        let at = self.observe_time(&e.timestamp, meta);
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, AuthRequired::KIND) else {
            return;
        };
        if self.auth_index.contains_key(e.auth_id.as_ref()) {
            let msg = format!("auth request {} was already made: ignored", e.auth_id);
            self.diag(
                DiagCode::DuplicateRequest,
                Severity::Warning,
                msg,
                "$.authId",
                Some(&e.task_id),
                meta,
                AuthRequired::KIND,
            );
            return;
        }
        if !self.room_for_request(t, meta, AuthRequired::KIND) {
            return;
        }
        let expires_in = meta_num(e.metadata.as_ref(), "expiresIn");
        let req = AuthRequest {
            id: e.auth_id.to_string(),
            task_id: e.task_id.to_string(),
            context_id: e.context_id.to_string(),
            auth_type: e.auth_type,
            provider: e.provider.as_deref().map(str::to_owned),
            scopes: e.scopes.iter().flatten().map(|s| s.to_string()).collect(),
            prompt: e.prompt.to_string(),
            auth_url: e.auth_url.as_deref().map(str::to_owned),
            url_safe: e.auth_url.as_deref().is_some_and(url::is_safe_to_open),
            expires_in,
            requested_at: e.timestamp.to_string(),
            ..AuthRequest::default()
        };
        let Some(slot) = self.touch(t) else { return };
        let i = slot.view.auths.len();
        slot.view.auths.push(req);
        self.auth_index.insert(e.auth_id.to_string(), (t, i));
        if let (Some(at), Some(secs)) = (at, expires_in) {
            self.add_deadline(at.saturating_add((secs * 1000.0) as i64), t, true, i);
        }
    }

    fn apply_auth_completed(&mut self, e: &AuthCompleted<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let found = self.auth_index.get(e.auth_id.as_ref()).copied();
        if found.is_none() && self.refused_requests_of(&e.task_id) {
            return;
        }
        let state = found
            .and_then(|(t, i)| self.tasks.get(t)?.view.auths.get(i))
            .map(|r| r.state);
        let Some((t, i)) = found.filter(|_| state != Some(RequestState::Answered)) else {
            let why = if found.is_some() {
                "was already completed"
            } else {
                "has no open auth-required"
            };
            let msg = format!("auth-completed for {} which {why}", e.auth_id);
            self.diag(
                DiagCode::AuthNotOpen,
                Severity::Warning,
                msg,
                "$.authId",
                Some(&e.task_id),
                meta,
                AuthCompleted::KIND,
            );
            return;
        };
        let Some(slot) = self.touch(t) else { return };
        let Some(req) = slot.view.auths.get_mut(i) else {
            return;
        };
        req.state = RequestState::Answered;
        req.sending = false;
        self.answered_at
            .insert(e.auth_id.to_string(), super::dedupe::hash_of(&e.timestamp));
        let Some(req) = self.tasks.get_mut(t).and_then(|s| s.view.auths.get_mut(i)) else {
            return;
        };
        req.user_id = Some(e.user_id.to_string());
        req.expires_at = meta_str(e.metadata.as_ref(), "expiresAt");
        self.drop_deadline(t, true, i);
    }

    fn apply_thought(&mut self, e: &ThoughtStream<'_>, meta: &EventMeta<'_>) {
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
        let id_hash = super::dedupe::hash_of(&e.thought_id);
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
                slot.thought_ids.remove(&super::dedupe::hash_of(&old.id));
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
