//! A task that ends leaves nothing running under it: its running tools become `canceled`, its
//! streaming messages stop, and its sub-tasks still going end `canceled` (with theirs, down the
//! tree), each with a `left-open` warning naming what the server left open. Open requests
//! expire (`close_open_requests`).

use super::{EventMeta, Store, ToolState};
use crate::events::{DiagCode, Severity, TaskStatus};
use crate::state::StatusChange;

impl Store {
    /// Ends what task `t` left going when it reached a terminal status at `ts`.
    pub(crate) fn end_open_work(&mut self, t: usize, ts: &str, meta: &EventMeta<'_>, kind: &str) {
        // Iterative over the tree (no recursion depth from the network).
        let mut stack = vec![t];
        let mut seen = 0usize;
        while let Some(t) = stack.pop() {
            seen += 1;
            if seen > self.tasks.len() {
                break; // a cycle in a corrupt tree cannot loop
            }
            self.end_tools_and_messages(t, meta, kind);
            let children: Vec<usize> = self
                .tasks
                .get(t)
                .map(|s| {
                    s.view
                        .children
                        .iter()
                        .filter_map(|c| self.task_index.get(c).copied())
                        .collect()
                })
                .unwrap_or_default();
            let parent = self
                .tasks
                .get(t)
                .map(|s| s.view.id.clone())
                .unwrap_or_default();
            for c in children {
                let going = self
                    .tasks
                    .get(c)
                    .is_some_and(|s| !s.view.status.is_some_and(TaskStatus::is_terminal));
                if !going {
                    continue;
                }
                let id = self
                    .tasks
                    .get(c)
                    .map(|s| s.view.id.clone())
                    .unwrap_or_default();
                let msg = format!(
                    "task {parent} ended while its sub-task {id} was still going: {id} is canceled"
                );
                self.diag(
                    DiagCode::LeftOpen,
                    Severity::Warning,
                    msg,
                    "$",
                    Some(&id),
                    meta,
                    kind,
                );
                let change = StatusChange {
                    status: TaskStatus::Canceled,
                    message: Some(format!("its parent task {parent} ended")),
                    timestamp: ts.to_owned(),
                    ..StatusChange::default()
                };
                if let Some(slot) = self.touch(c) {
                    slot.view.status = Some(TaskStatus::Canceled);
                    slot.view.status_message = change.message.clone();
                }
                self.push_history(c, change, meta, kind);
                self.close_open_requests(c);
                stack.push(c);
            }
        }
    }

    fn end_tools_and_messages(&mut self, t: usize, meta: &EventMeta<'_>, kind: &str) {
        let Some(slot) = self.tasks.get(t) else {
            return;
        };
        let running: Vec<usize> = (0..slot.view.tools.len())
            .filter(|&i| slot.view.tools[i].state == ToolState::Running)
            .collect();
        let streaming = slot.view.messages.iter().any(|m| m.streaming);
        if running.is_empty() && !streaming {
            return;
        }
        let task = slot.view.id.clone();
        let names: Vec<String> = running
            .iter()
            .filter_map(|&i| slot.view.tools.get(i).map(|x| x.id.clone()))
            .collect();
        if let Some(slot) = self.touch(t) {
            for &i in &running {
                if let Some(tool) = slot.view.tools.get_mut(i) {
                    tool.state = ToolState::Canceled;
                }
            }
            for m in slot.view.messages.iter_mut() {
                m.streaming = false;
            }
        }
        if !names.is_empty() {
            let msg = format!(
                "task {task} ended while tool calls were still running: {} (canceled)",
                names.join(", ")
            );
            self.diag(
                DiagCode::LeftOpen,
                Severity::Warning,
                msg,
                "$",
                Some(&task),
                meta,
                kind,
            );
        }
    }
}
