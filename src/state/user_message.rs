//! The user's own message in the conversation when the protocol's stream does not carry it:
//! protocol 000 (the message a run's POST body carries, SPEC's `{contextId, message: {role:
//! "user", content}}`). The client announces it with [`Store::expect_posted_message`] before
//! the run's events arrive; the next root task the user starts (`task-created` with
//! `initiator: "user"` and no parent) gets it as its first message (`role: "user"`), with the
//! message's `id` (or `messageId`) when it has one, else `<taskId>#user`; a `message-upsert`
//! with the same id (a server's echo) replaces it. Only a body whose `message` has `role:
//! "user"` and a string `content` counts. The dialects that know which task answers a message
//! (A2A, MyAgent, AG-UI, the AI SDK) put it there themselves as a `message-upsert`.

use super::messages::Message;
use super::{EventMeta, Store};
use crate::events::MessageRole;

/// Messages announced and not yet placed (older ones are dropped beyond it).
const MAX_EXPECTED: usize = 16;

/// A user message waiting for its task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Expected {
    /// The message id (`None`: `<taskId>#user`).
    id: Option<String>,
    text: String,
    /// The conversation it was sent in, when known.
    context_id: Option<String>,
}

impl Store {
    /// Announces the user's message `text` (with its `id`, when the protocol gave it one, and
    /// its conversation `context_id`, when known): the next root task the user starts in that
    /// context gets it as its first message. Keeps the latest 16 announced and not placed.
    pub fn expect_user_message(&mut self, id: Option<&str>, text: &str, context_id: Option<&str>) {
        if self.expected_user.len() >= MAX_EXPECTED {
            self.expected_user.remove(0);
        }
        self.expected_user.push(Expected {
            id: id.filter(|i| !i.is_empty()).map(str::to_owned),
            text: text.to_owned(),
            context_id: context_id.filter(|c| !c.is_empty()).map(str::to_owned),
        });
    }

    /// Protocol 000: a run's POST `body` (JSON text) that carries the user's message
    /// (`{contextId?, message: {role: "user", content: string, id? | messageId?}}`, SPEC's
    /// event stream model) announces it as [`Store::expect_user_message`] does, for the first
    /// root task the user starts on the stream that POST opens, whatever its context (a server
    /// may start a context of its own). `false` (and nothing announced) for any other body.
    pub fn expect_posted_message(&mut self, body: &str) -> bool {
        let Ok(v) = crate::json::parse(body) else {
            return false;
        };
        let Some(m) = v.get("message") else {
            return false;
        };
        let text = |k: &str| m.get(k).and_then(crate::json::Value::as_str);
        let (Some("user"), Some(content)) = (text("role"), text("content")) else {
            return false;
        };
        let id = text("id").or_else(|| text("messageId"));
        self.expect_user_message(id, content, None);
        true
    }

    /// A root task the user started (slot `t`, in `context_id`): places the first message
    /// announced for its context, if any.
    pub(crate) fn place_user_message(&mut self, t: usize, context_id: &str, meta: &EventMeta<'_>) {
        let Some(at) = self
            .expected_user
            .iter()
            .position(|e| e.context_id.as_deref().is_none_or(|c| c == context_id))
        else {
            return;
        };
        let e = self.expected_user.remove(at);
        let Some(task) = self.tasks.get(t).map(|s| s.view.id.clone()) else {
            return;
        };
        let id = e.id.unwrap_or_else(|| format!("{task}#user"));
        if self.message_of(t, &id).is_some() {
            return; // the stream already carried it
        }
        let mut m = Message::new(&id, MessageRole::User);
        m.set_text(&e.text);
        self.touch(t);
        self.push_message(t, m, meta, "task-created");
    }
}
