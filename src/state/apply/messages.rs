//! Applying the message events (`message-start` / `-delta` / `-end`, `message-upsert`,
//! `messages-snapshot`, `message-patch`, `tool-args-delta` / `-end`, `encrypted-value`) to a
//! task's `messages` and `tools`. Work per event is proportional to the event (a snapshot or a
//! message inserted mid-conversation re-indexes the task's messages).

use crate::events::*;
use crate::json::{self, OwnedValue, Value};
use crate::state::messages::model::{JsonDoc, Message, PartSlot};
use crate::state::messages::parts::TextKind;
use crate::state::{EventMeta, RawJson, Store};

/// Separates the texts of two assistant messages in `task.content`.
const ANSWER_SEPARATOR: &str = "\n\n";

impl Store {
    /// The task slot of a message event (created when missing), unless the task ended.
    pub(super) fn message_task(
        &mut self,
        task_id: &str,
        context_id: &str,
        meta: &EventMeta<'_>,
        kind: &str,
    ) -> Option<usize> {
        let t = self.task_slot(task_id, context_id, meta, kind)?;
        (!self.reject_if_terminal(t, task_id, meta, kind)).then_some(t)
    }

    /// The index of message `id` in task `t`.
    pub(crate) fn message_of(&self, t: usize, id: &str) -> Option<usize> {
        let slot = self.tasks.get(t)?;
        let last = slot.last_message.get();
        if slot
            .view
            .messages
            .get(last)
            .is_some_and(|m| crate::swar::same(m.id.as_bytes(), id.as_bytes()))
        {
            return Some(last);
        }
        let i = *slot.message_index.get(id)?;
        slot.last_message.set(i);
        Some(i)
    }

    /// Appends `m` to task `t` (within `maxMessagesPerTask`); its index.
    pub(crate) fn push_message(
        &mut self,
        t: usize,
        m: Message,
        meta: &EventMeta<'_>,
        kind: &str,
    ) -> Option<usize> {
        let max = self.limits.max_messages_per_task;
        let slot = self.tasks.get_mut(t)?;
        if slot.view.messages.len() >= max {
            if !slot.messages_truncated {
                slot.messages_truncated = true;
                let id = slot.view.id.clone();
                let msg = format!("more than {max} messages for task {id}: later ones are ignored");
                self.diag(
                    DiagCode::LimitExceeded,
                    Severity::Error,
                    msg,
                    "$",
                    Some(&id),
                    meta,
                    kind,
                );
            }
            return None;
        }
        let i = slot.view.messages.len();
        slot.message_index.insert(m.id.clone(), i);
        slot.last_message.set(usize::MAX);
        slot.view.messages.push(m);
        Some(i)
    }

    /// Re-indexes task `t`'s messages and rebuilds its answer from its assistant messages.
    fn reindex_messages(&mut self, t: usize) {
        let Some(slot) = self.tasks.get_mut(t) else {
            return;
        };
        slot.message_index.clear();
        slot.last_message.set(usize::MAX);
        let mut answer = String::new();
        for (i, m) in slot.view.messages.iter().enumerate() {
            slot.message_index.insert(m.id.clone(), i);
            if m.role.is_answer() && !m.content.is_empty() {
                if !answer.is_empty() {
                    answer.push_str(ANSWER_SEPARATOR);
                }
                answer.push_str(&m.content);
            }
        }
        slot.answer_message = slot
            .view
            .messages
            .iter()
            .rposition(|m| m.role.is_answer() && !m.content.is_empty());
        if !slot.content_truncated {
            slot.view.content = answer;
        }
        // Offsets of canonical deltas no longer describe the text.
        slot.delta_offsets.clear();
        slot.offsets_capped = true;
    }

    /// The index of message `id` in task `t`; `None` with a `message-not-started` warning
    /// when the task has no such message (`kind`: the event that needed it).
    fn started_message(
        &mut self,
        t: usize,
        id: &str,
        task: &str,
        meta: &EventMeta<'_>,
        kind: &str,
    ) -> Option<usize> {
        let found = self.message_of(t, id);
        if found.is_none() {
            let msg = format!("{kind} for message {id} that never started: ignored");
            self.message_diag(
                DiagCode::MessageNotStarted,
                msg,
                "$.messageId",
                task,
                meta,
                kind,
            );
        }
        found
    }

    pub(super) fn message_diag(
        &mut self,
        code: DiagCode,
        msg: String,
        path: &str,
        task: &str,
        meta: &EventMeta<'_>,
        kind: &str,
    ) {
        self.diag(code, Severity::Warning, msg, path, Some(task), meta, kind);
    }

    pub(crate) fn apply_message_start(&mut self, e: &MessageStart<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.message_task(&e.task_id, &e.context_id, meta, MessageStart::KIND) else {
            return;
        };
        let metadata = e.metadata.as_ref().map(|m| RawJson::from_value(&m.0));
        let i = match self.message_of(t, &e.message_id) {
            Some(i) => i,
            None => {
                let m = Message::new(&e.message_id, e.role);
                let Some(i) = self.push_message(t, m, meta, MessageStart::KIND) else {
                    return;
                };
                i
            }
        };
        let Some(slot) = self.touch(t) else {
            return;
        };
        if let Some(m) = slot.view.messages.get_mut(i) {
            m.streaming = true;
            if let Some(n) = &e.name {
                m.name = Some(n.to_string());
            }
            if metadata.is_some() {
                m.metadata = metadata;
            }
        }
    }

    pub(crate) fn apply_message_delta(&mut self, e: &MessageDelta<'_>, meta: &EventMeta<'_>) {
        if !self.deadline_of.is_empty() {
            self.observe_time(&e.timestamp, meta);
        }
        let Some(t) = self.message_task(&e.task_id, &e.context_id, meta, MessageDelta::KIND) else {
            return;
        };
        let Some(i) = self.started_message(t, &e.message_id, &e.task_id, meta, MessageDelta::KIND)
        else {
            return;
        };
        let max = self.limits.max_content_bytes;
        let Some(slot) = self.touch(t) else {
            return;
        };
        let Some(m) = slot.view.messages.get_mut(i) else {
            return;
        };
        if m.content.len() + e.delta.len() > max {
            let msg = format!(
                "message {} exceeds {max} bytes: the rest is dropped",
                e.message_id
            );
            return self.message_diag(
                DiagCode::LimitExceeded,
                msg,
                "$.delta",
                &e.task_id,
                meta,
                MessageDelta::KIND,
            );
        }
        let kind = match e.part_type.as_deref() {
            Some("reasoning") => TextKind::Reasoning,
            _ => TextKind::Text,
        };
        let at_end = m.append_part_text(kind, e.part_id.as_deref(), &e.delta);
        if let Some(members) = &e.part_members {
            m.set_part_members(e.part_id.as_deref(), &members_text(&members.0));
        }
        if kind == TextKind::Reasoning || !m.role.is_answer() || e.delta.is_empty() {
            return;
        }
        if !at_end {
            // Two text parts streaming at once: the answer is rebuilt from the messages.
            self.reindex_messages(t);
            return;
        }
        if slot.answer_message != Some(i) {
            let first = slot.answer_message.is_none() && slot.view.content.is_empty();
            slot.answer_message = Some(i);
            if !first {
                self.append_answer(t, ANSWER_SEPARATOR, meta);
            }
        }
        self.append_answer(t, &e.delta, meta);
    }

    pub(crate) fn apply_message_end(&mut self, e: &MessageEnd<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.message_task(&e.task_id, &e.context_id, meta, MessageEnd::KIND) else {
            return;
        };
        let Some(i) = self.started_message(t, &e.message_id, &e.task_id, meta, MessageEnd::KIND)
        else {
            return;
        };
        let metadata = e.metadata.as_ref().map(|m| RawJson::from_value(&m.0));
        if let Some(m) = self.touch(t).and_then(|s| s.view.messages.get_mut(i)) {
            m.end_parts(e.part_id.as_deref());
            if let Some(members) = &e.part_members {
                m.set_part_members(e.part_id.as_deref(), &members_text(&members.0));
            }
            if e.part_id.is_none() {
                m.streaming = false;
            }
            if metadata.is_some() {
                m.metadata = metadata;
            }
        }
    }

    pub(crate) fn apply_message_put(&mut self, e: &MessagePut<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.message_task(&e.task_id, &e.context_id, meta, MessagePut::KIND) else {
            return;
        };
        let Some(new) = self.read_message(&e.message, &e.task_id, meta, MessagePut::KIND) else {
            return;
        };
        match self.message_of(t, &new.id) {
            Some(_) if e.replace == Some(false) => {}
            Some(i) => {
                let mut answers = false;
                if let Some(m) = self.touch(t).and_then(|s| s.view.messages.get_mut(i)) {
                    answers = m.role.is_answer() || new.role.is_answer();
                    merge_message(m, new, &e.message);
                }
                // Same id, same place: only an answer message's change changes the answer.
                if answers {
                    self.reindex_messages(t);
                }
            }
            None => {
                self.touch(t);
                let owner = new
                    .tool_call_id
                    .as_deref()
                    .and_then(|c| self.result_position(t, c));
                match owner {
                    Some(at) if new.role == MessageRole::Tool => {
                        if let Some(slot) = self.tasks.get_mut(t) {
                            if slot.view.messages.len() < self.limits.max_messages_per_task {
                                slot.view.messages.insert(at, new);
                                slot.reindex_from(at);
                            }
                        }
                    }
                    _ => {
                        let answer = new.role.is_answer() && !new.content.is_empty();
                        if self.push_message(t, new, meta, MessagePut::KIND).is_some() && answer {
                            self.reindex_messages(t);
                        }
                    }
                }
            }
        }
    }

    /// Where a tool message answering `call` goes: after the assistant message holding the
    /// call and the tool messages already following it (AG-UI's order).
    fn result_position(&self, t: usize, call: &str) -> Option<usize> {
        let msgs = &self.tasks.get(t)?.view.messages;
        let owner = msgs.iter().position(|m| m.tool_call(call).is_some())?;
        let mut at = owner + 1;
        while msgs.get(at).is_some_and(|m| m.role == MessageRole::Tool) {
            at += 1;
        }
        Some(at)
    }

    pub(crate) fn apply_message_part(&mut self, e: &MessagePartPut<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let kind = MessagePartPut::KIND;
        let Some(t) = self.message_task(&e.task_id, &e.context_id, meta, kind) else {
            return;
        };
        let Some(i) = self.started_message(t, &e.message_id, &e.task_id, meta, kind) else {
            return;
        };
        if e.part.get("type").and_then(Value::as_str).is_none() {
            let msg = "message-part: a part is an object with a string type: ignored".to_owned();
            return self.message_diag(DiagCode::InvalidType, msg, "$.part", &e.task_id, meta, kind);
        }
        let part = RawJson::from_value(&e.part);
        if let Some(m) = self.touch(t).and_then(|s| s.view.messages.get_mut(i)) {
            m.put_part(e.key.as_deref(), part);
        }
    }

    pub(crate) fn apply_message_cut(&mut self, e: &MessageCut<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let kind = MessageCut::KIND;
        let Some(t) = self.message_task(&e.task_id, &e.context_id, meta, kind) else {
            return;
        };
        let Some(i) = self.started_message(t, &e.message_id, &e.task_id, meta, kind) else {
            return;
        };
        let cut = self
            .tasks
            .get_mut(t)
            .and_then(|s| s.view.messages.get_mut(i))
            .map(|m| {
                let before = m.parts.len();
                m.cut_after(&e.after_key).then_some(before != m.parts.len())
            });
        match cut {
            Some(Some(true)) => {
                self.touch(t);
                self.reindex_messages(t);
            }
            Some(Some(false)) => {}
            _ => {
                let msg = format!(
                    "message-cut after part {} that message {} does not have: ignored",
                    e.after_key, e.message_id
                );
                self.message_diag(
                    DiagCode::MessageNotStarted,
                    msg,
                    "$.afterKey",
                    &e.task_id,
                    meta,
                    kind,
                );
            }
        }
    }

    pub(crate) fn apply_messages_snapshot(
        &mut self,
        e: &MessagesSnapshot<'_>,
        meta: &EventMeta<'_>,
    ) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.message_task(&e.task_id, &e.context_id, meta, MessagesSnapshot::KIND)
        else {
            return;
        };
        let mut incoming = Vec::with_capacity(e.messages.len());
        for (i, v) in e.messages.iter().enumerate() {
            let kind = MessagesSnapshot::KIND;
            if let Some(m) =
                self.read_message_at(v, &e.task_id, meta, kind, &format!("$.messages[{i}]"))
            {
                incoming.push((m, v));
            }
        }
        let max = self.limits.max_messages_per_task;
        let Some(slot) = self.touch(t) else {
            return;
        };
        let has_activity = incoming
            .iter()
            .any(|(m, _)| m.role == MessageRole::Activity);
        let has_reasoning = incoming
            .iter()
            .any(|(m, _)| m.role == MessageRole::Reasoning);
        let mut by_id: crate::hash::FastMap<String, (Message, &Value<'_>)> =
            crate::hash::FastMap::with_capacity_and_hasher(incoming.len(), Default::default());
        let mut order = Vec::with_capacity(incoming.len());
        for (m, v) in incoming {
            order.push(m.id.clone());
            by_id.insert(m.id.clone(), (m, v));
        }
        let old = std::mem::take(&mut slot.view.messages);
        let mut kept = Vec::with_capacity(order.len());
        for mut m in old {
            if let Some((new, v)) = by_id.remove(&m.id) {
                merge_message(&mut m, new, v);
                kept.push(m);
            } else if (m.role == MessageRole::Activity && !has_activity)
                || (m.role == MessageRole::Reasoning && !has_reasoning)
            {
                kept.push(m);
            }
        }
        for id in order {
            if let Some((m, _)) = by_id.remove(&id) {
                kept.push(m);
            }
        }
        kept.truncate(max);
        slot.view.messages = kept;
        self.reindex_messages(t);
    }

    pub(crate) fn apply_message_patch(&mut self, e: &MessagePatch<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let Some(t) = self.message_task(&e.task_id, &e.context_id, meta, MessagePatch::KIND) else {
            return;
        };
        let Some(i) = self.message_of(t, &e.message_id) else {
            let msg = format!(
                "message-patch for message {} that does not exist: ignored",
                e.message_id
            );
            return self.message_diag(
                DiagCode::MessageNotStarted,
                msg,
                "$.messageId",
                &e.task_id,
                meta,
                MessagePatch::KIND,
            );
        };
        let Some(slot) = self.tasks.get_mut(t) else {
            return;
        };
        let Some(m) = slot.view.messages.get_mut(i) else {
            return;
        };
        // Atomic: on failure the content is as it was (a message without one keeps none).
        let result = match m.activity.as_mut() {
            Some(doc) => json::patch::apply(&mut doc.0, &e.patch),
            None => {
                let mut doc = OwnedValue::Object(Vec::new());
                json::patch::apply(&mut doc, &e.patch).map(|()| m.activity = Some(JsonDoc(doc)))
            }
        };
        match result {
            Ok(()) => {
                self.touch(t);
            }
            Err(err) => {
                let msg = format!("patch for message {} not applied: {err}", e.message_id);
                self.message_diag(
                    DiagCode::PatchFailed,
                    msg,
                    "$.patch",
                    &e.task_id,
                    meta,
                    MessagePatch::KIND,
                );
            }
        }
    }

    /// Reads a message object (`message-upsert` / `messages-snapshot` entries); `None` with a
    /// diagnostic when it has no string `id` or no valid `role`.
    fn read_message(
        &mut self,
        v: &Value<'_>,
        task: &str,
        meta: &EventMeta<'_>,
        kind: &str,
    ) -> Option<Message> {
        self.read_message_at(v, task, meta, kind, "$.message")
    }

    fn read_message_at(
        &mut self,
        v: &Value<'_>,
        task: &str,
        meta: &EventMeta<'_>,
        kind: &str,
        path: &str,
    ) -> Option<Message> {
        let id = v.get("id").and_then(Value::as_str);
        let role = v
            .get("role")
            .and_then(Value::as_str)
            .and_then(MessageRole::parse);
        let (Some(id), Some(role)) = (id, role) else {
            let msg = format!("{kind}: a message needs a string id and a role (user, assistant, system, developer, tool, reasoning, activity): ignored");
            self.diag(
                DiagCode::InvalidType,
                Severity::Error,
                msg,
                path,
                Some(task),
                meta,
                kind,
            );
            return None;
        };
        let mut m = Message::new(id, role);
        fill_message(&mut m, v);
        Some(m)
    }
}

/// Reads the members of a message object into `m` (AG-UI's names).
fn fill_message(m: &mut Message, v: &Value<'_>) {
    let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
    match v.get("content") {
        Some(Value::String(text)) => m.set_text(text),
        Some(Value::Array(parts)) => {
            for p in parts {
                match (
                    p.get("type").and_then(Value::as_str),
                    p.get("text").and_then(Value::as_str),
                ) {
                    (Some("text"), Some(text)) => {
                        m.append_part_text(TextKind::Text, None, text);
                    }
                    _ => m.parts.push(PartSlot::Other {
                        key: None,
                        part: RawJson::from_value(p),
                    }),
                }
            }
        }
        Some(obj @ Value::Object(_)) if m.role == MessageRole::Activity => {
            m.activity = Some(JsonDoc(obj.to_owned_value()));
        }
        _ => {}
    }
    if let Some(calls) = v.get("toolCalls").and_then(Value::as_array) {
        for c in calls {
            let (Some(id), Some(f)) = (c.get("id").and_then(Value::as_str), c.get("function"))
            else {
                continue;
            };
            let name = f.get("name").and_then(Value::as_str).unwrap_or_default();
            let i = m.add_tool_call(id, name);
            if let Some(call) = m.tool_calls.get_mut(i) {
                call.function.arguments = f
                    .get("arguments")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                call.encrypted_value = c
                    .get("encryptedValue")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
            }
        }
    }
    m.tool_call_id = s("toolCallId");
    m.name = s("name");
    m.error = s("error");
    m.activity_type = s("activityType");
    m.encrypted_value = s("encryptedValue");
    m.metadata = v
        .get("metadata")
        .filter(|x| x.as_object().is_some())
        .map(RawJson::from_value);
}

/// Replaces `m`'s members with the ones `v` gives (a member `v` leaves out stays).
fn merge_message(m: &mut Message, new: Message, v: &Value<'_>) {
    if v.get("content").is_some() {
        m.content = new.content;
        m.parts.retain(|p| matches!(p, PartSlot::ToolCall(_)));
        let offset = m.parts.len();
        // New text/other parts first, then the tool calls as before (text before calls).
        let mut parts: Vec<PartSlot> = new
            .parts
            .into_iter()
            .filter(|p| !matches!(p, PartSlot::ToolCall(_)))
            .collect();
        parts.append(&mut m.parts);
        let _ = offset;
        m.parts = parts;
        if new.activity.is_some() {
            m.activity = new.activity;
        }
    }
    if v.get("toolCalls").is_some() {
        m.parts.retain(|p| !matches!(p, PartSlot::ToolCall(_)));
        m.tool_calls = new.tool_calls;
        m.parts
            .extend((0..m.tool_calls.len()).map(PartSlot::ToolCall));
    }
    m.role = new.role;
    macro_rules! keep {
        ($($f:ident = $k:literal),*) => {$( if v.get($k).is_some() { m.$f = new.$f; } )*};
    }
    keep!(
        tool_call_id = "toolCallId",
        name = "name",
        error = "error",
        activity_type = "activityType",
        encrypted_value = "encryptedValue",
        metadata = "metadata"
    );
}

/// An object's members as JSON text without the braces (`"a":1,"b":2`).
fn members_text(v: &Value<'_>) -> String {
    let mut text = v.to_json();
    if text.len() >= 2 && text.starts_with('{') && text.ends_with('}') {
        text.pop();
        text.remove(0);
    }
    text
}
