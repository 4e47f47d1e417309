//! Tool calls: start, progress, completion.

use super::*;

impl Store {
    pub(super) fn tool_at(&mut self, id: &str) -> Option<&mut Tool> {
        let &(t, i) = self.tool_index.get(id)?;
        self.tasks.get_mut(t)?.view.tools.get_mut(i)
    }

    pub(super) fn new_tool(
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

    pub(super) fn apply_tool_start(&mut self, e: &ToolStart<'_>, meta: &EventMeta<'_>) {
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
    pub(super) fn tool_for_update(
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

    pub(super) fn apply_tool_progress(&mut self, e: &ToolProgress<'_>, meta: &EventMeta<'_>) {
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

    pub(super) fn apply_tool_complete(&mut self, e: &ToolComplete<'_>, meta: &EventMeta<'_>) {
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
}
