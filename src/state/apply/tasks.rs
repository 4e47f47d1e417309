//! Tasks: created, subtasks, status, completion, their artifacts list.

use super::*;

impl Store {
    pub(super) fn apply_task_created(&mut self, e: &TaskCreated<'_>, meta: &EventMeta<'_>) {
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

    pub(super) fn apply_subtask_created(&mut self, e: &SubtaskCreated<'_>, meta: &EventMeta<'_>) {
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

    pub(super) fn apply_status(&mut self, e: &TaskStatusEvent<'_>, meta: &EventMeta<'_>) {
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

    pub(super) fn apply_task_complete(&mut self, e: &TaskComplete<'_>, meta: &EventMeta<'_>) {
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
        let print =
            crate::state::replay::data_print(&e.timestamp, e.content.as_deref().unwrap_or(""));
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
            let mut known: crate::hash::FastSet<String> = list.iter().cloned().collect();
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
}
