//! Tool calls seen from their messages: arguments streamed into the tool (`argumentsText`) and
//! into the message's `toolCalls`, their end (`arguments` parsed), encrypted values, and the link
//! from a started call to the message holding it.

use crate::events::*;
use crate::json;
use crate::state::{EventMeta, RawJson, Store};

impl Store {
    /// Appends text to a running tool call's arguments (the tool's `argumentsText` and its
    /// message's `toolCalls[].function.arguments`).
    pub(crate) fn apply_tool_args_delta(&mut self, e: &ToolArgsDelta<'_>, meta: &EventMeta<'_>) {
        if !self.deadline_of.is_empty() {
            self.observe_time(&e.timestamp, meta);
        }
        let Some((t, k)) =
            self.running_tool(&e.tool_call_id, &e.task_id, meta, ToolArgsDelta::KIND)
        else {
            return;
        };
        let max = self.limits.max_content_bytes;
        let Some(slot) = self.touch(t) else {
            return;
        };
        let Some(tool) = slot.view.tools.get_mut(k) else {
            return;
        };
        let text = tool.arguments_text.get_or_insert_with(String::new);
        if text.len() + e.delta.len() > max {
            let msg = format!(
                "arguments of tool call {} exceed {max} bytes: the rest is dropped",
                e.tool_call_id
            );
            return self.message_diag(
                DiagCode::LimitExceeded,
                msg,
                "$.delta",
                &e.task_id,
                meta,
                ToolArgsDelta::KIND,
            );
        }
        text.push_str(&e.delta);
        let message = tool.message_id.clone();
        if let Some(call) = message.and_then(|mid| {
            let i = *slot.message_index.get(&mid)?;
            let m = slot.view.messages.get_mut(i)?;
            let c = m.tool_call(&e.tool_call_id)?;
            m.tool_calls.get_mut(c)
        }) {
            call.function.arguments.push_str(&e.delta);
        }
    }

    /// A tool call's arguments are complete: `arguments` from the event, or the streamed text
    /// parsed (a text that is not JSON is a warning; the text stays in `argumentsText`).
    pub(crate) fn apply_tool_args_end(&mut self, e: &ToolArgsEnd<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some((t, k)) = self.running_tool(&e.tool_call_id, &e.task_id, meta, ToolArgsEnd::KIND)
        else {
            return;
        };
        let Some(slot) = self.touch(t) else {
            return;
        };
        let Some(tool) = slot.view.tools.get_mut(k) else {
            return;
        };
        let parsed = match &e.arguments {
            Some(v) => Ok(RawJson::from_value(v)),
            None => {
                let text = tool.arguments_text.as_deref().unwrap_or_default();
                if text.trim().is_empty() {
                    Ok(RawJson("{}".to_owned()))
                } else {
                    json::parse(text)
                        .map(|v| RawJson::from_value(&v))
                        .map_err(|err| err.to_string())
                }
            }
        };
        match parsed {
            Ok(args) => tool.arguments = args,
            Err(err) => {
                let msg = format!(
                    "arguments of tool call {} are not JSON ({err}): kept as text in argumentsText",
                    e.tool_call_id
                );
                self.message_diag(
                    DiagCode::InvalidJson,
                    msg,
                    "$.toolCallId",
                    &e.task_id,
                    meta,
                    ToolArgsEnd::KIND,
                );
            }
        }
    }

    /// The (task slot, tool index) of a running tool call, or `None` with a diagnostic.
    fn running_tool(
        &mut self,
        call: &str,
        task_id: &str,
        meta: &EventMeta<'_>,
        kind: &str,
    ) -> Option<(usize, usize)> {
        match self.tool_index.get(call).copied() {
            Some((t, k)) => {
                let running = self
                    .tasks
                    .get(t)
                    .and_then(|s| s.view.tools.get(k))
                    .is_some_and(|x| x.state == crate::state::ToolState::Running);
                if running {
                    return Some((t, k));
                }
                let msg = format!("{kind} for tool call {call} after it completed: ignored");
                self.message_diag(
                    DiagCode::ToolAlreadyFinished,
                    msg,
                    "$.toolCallId",
                    task_id,
                    meta,
                    kind,
                );
                None
            }
            None => {
                let msg = format!("{kind} for tool call {call} that never started: ignored");
                self.message_diag(
                    DiagCode::ToolNotStarted,
                    msg,
                    "$.toolCallId",
                    task_id,
                    meta,
                    kind,
                );
                None
            }
        }
    }

    pub(crate) fn apply_encrypted_value(&mut self, e: &EncryptedValue<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.message_task(&e.task_id, &e.context_id, meta, EncryptedValue::KIND)
        else {
            return;
        };
        let value = e.encrypted_value.to_string();
        let found = if e.subtype == "tool-call" {
            let msg = self
                .tool_index
                .get(e.entity_id.as_ref())
                .and_then(|&(tt, k)| {
                    let tool = self.tasks.get(tt)?.view.tools.get(k)?;
                    Some((tt, tool.message_id.clone()?))
                });
            msg.and_then(|(tt, mid)| {
                let slot = self.touch(tt)?;
                let i = *slot.message_index.get(&mid)?;
                let m = slot.view.messages.get_mut(i)?;
                let c = m.tool_call(&e.entity_id)?;
                m.tool_calls.get_mut(c)?.encrypted_value = Some(value.clone());
                Some(())
            })
        } else {
            self.message_of(t, &e.entity_id).and_then(|i| {
                self.touch(t)?.view.messages.get_mut(i)?.encrypted_value = Some(value.clone());
                Some(())
            })
        };
        if found.is_none() {
            let msg = format!(
                "encrypted value for {} {} that does not exist: ignored",
                e.subtype, e.entity_id
            );
            self.message_diag(
                DiagCode::MessageNotStarted,
                msg,
                "$.entityId",
                &e.task_id,
                meta,
                EncryptedValue::KIND,
            );
        }
    }

    /// Links a started tool call to its message (`metadata.messageId` of `tool-start`): the
    /// message gets the call in `toolCalls` and a tool-call part.
    pub(crate) fn link_tool_to_message(&mut self, t: usize, k: usize, message_id: &str) {
        let Some(i) = self.message_of(t, message_id) else {
            return;
        };
        let Some(slot) = self.tasks.get_mut(t) else {
            return;
        };
        let Some(tool) = slot.view.tools.get_mut(k) else {
            return;
        };
        tool.message_id = Some(message_id.to_owned());
        tool.arguments_text.get_or_insert_with(String::new);
        let (id, name) = (tool.id.clone(), tool.name.clone());
        if let Some(m) = slot.view.messages.get_mut(i) {
            if m.tool_call(&id).is_none() {
                m.add_tool_call(&id, &name);
            }
        }
    }
}
