//! The conversation model: a task's ordered `messages` (AG-UI's message shape, with ordered
//! `parts` so parts-based protocols map onto it too) and its `sharedState` document.
//!
//! How `content` relates to `messages`: a message's `content` is its text, appended delta by
//! delta. The text of every `assistant` message of a task is also the task's answer
//! (`task.content`), joined with a blank line between messages, so UI code written for the
//! other protocols shows an AG-UI run's answer unchanged. Protocol 000 and the seed dialects
//! have no agent messages: their `messages` hold only the user's message that started a task
//! (A2A `message/stream`, MyAgent `user.message`, protocol 000's POSTed prompt: see
//! `state/user_message.rs`), and `content` is assembled as before.

pub(crate) use super::parts::PartSlot;
pub use super::parts::{MessagePart, OtherPart};
use crate::events::MessageRole;
use crate::json::{write_str, OwnedValue, WriteJson};
use crate::state::macros::view_struct;
use crate::state::raw::RawJson;

/// A JSON document kept parsed (the shared state, an activity's content), so a JSON Patch
/// applies in place.
#[derive(tsify::Tsify, Debug, Clone, PartialEq, Default)]
#[tsify(type = "unknown")]
pub struct JsonDoc(pub OwnedValue);

impl WriteJson for JsonDoc {
    fn write_json(&self, out: &mut String) {
        self.0.write(out);
    }
}

view_struct! {
    /// The function a tool call invokes (AG-UI's `toolCalls[].function`).
    pub struct ToolCallFunction {
        /// The tool's name.
        pub name: String = "name",
        /// The arguments as JSON text, as streamed (partial until the call's arguments end).
        pub arguments: String = "arguments",
    }
}

view_struct! {
    /// A tool call inside an assistant message (AG-UI's `toolCalls[]`); the same call is in
    /// the task's `tools` with its state and result.
    pub struct ToolCall {
        /// `toolCallId`.
        pub id: String = "id",
        /// Always `function`.
        pub kind: String = "type",
        /// Name and arguments.
        pub function: ToolCallFunction = "function",
        /// An opaque encrypted value the agent attached (kept, never read).
        #[tsify(optional)]
        pub encrypted_value: Option<String> = "encryptedValue",
    }
}

/// A conversation message (AG-UI's shape: `id`, `role`, `content`, `toolCalls`,
/// `toolCallId`, ...), plus its ordered `parts`.
#[derive(tsify::Tsify, Debug, Clone, PartialEq, Default)]
pub struct Message {
    /// The message id.
    pub id: String,
    /// Who it is from.
    pub role: MessageRole,
    /// Its text (for `tool` messages the result text; empty for activities).
    pub content: String,
    /// Text, tool calls and other parts in order.
    #[tsify(type = "Array<MessagePart | OtherPart>")]
    pub(crate) parts: Vec<PartSlot>,
    /// Tool calls (assistant messages).
    #[serde(rename = "toolCalls")]
    pub tool_calls: Vec<ToolCall>,
    /// The tool call this message answers (`tool` messages).
    #[serde(rename = "toolCallId")]
    #[tsify(optional)]
    pub tool_call_id: Option<String>,
    /// The author's name.
    #[tsify(optional)]
    pub name: Option<String>,
    /// The tool's error (`tool` messages).
    #[tsify(optional)]
    pub error: Option<String>,
    /// What kind of activity (`activity` messages).
    #[serde(rename = "activityType")]
    #[tsify(optional)]
    pub activity_type: Option<String>,
    /// The activity's structured content (`activity` messages; AG-UI's `content` object).
    #[tsify(optional, type = "Record<string, unknown>")]
    pub activity: Option<JsonDoc>,
    /// An opaque encrypted value (kept, never read).
    #[serde(rename = "encryptedValue")]
    #[tsify(optional)]
    pub encrypted_value: Option<String>,
    /// The protocol's metadata for this message.
    #[tsify(optional, type = "Record<string, unknown>")]
    pub metadata: Option<RawJson>,
    /// `true` while its text is still streaming.
    pub streaming: bool,
}

#[allow(clippy::derivable_impls)]
impl Default for MessageRole {
    fn default() -> Self {
        MessageRole::Assistant
    }
}

impl Message {
    /// A new, empty message.
    pub(crate) fn new(id: &str, role: MessageRole) -> Self {
        Message {
            id: id.to_owned(),
            role,
            ..Message::default()
        }
    }

    /// The index of tool call `id`.
    pub(crate) fn tool_call(&self, id: &str) -> Option<usize> {
        self.tool_calls.iter().position(|c| c.id == id)
    }
}

impl WriteJson for Message {
    fn write_json(&self, out: &mut String) {
        out.push_str("{\"id\":");
        write_str(out, &self.id);
        out.push_str(",\"role\":");
        self.role.write_json(out);
        out.push_str(",\"content\":");
        write_str(out, &self.content);
        out.push_str(",\"parts\":");
        self.write_parts(out);
        out.push_str(",\"toolCalls\":");
        self.tool_calls.write_json(out);
        for (key, v) in [
            ("toolCallId", &self.tool_call_id),
            ("name", &self.name),
            ("error", &self.error),
            ("activityType", &self.activity_type),
            ("encryptedValue", &self.encrypted_value),
        ] {
            if let Some(v) = v {
                out.push_str(",\"");
                out.push_str(key);
                out.push_str("\":");
                write_str(out, v);
            }
        }
        if let Some(a) = &self.activity {
            out.push_str(",\"activity\":");
            a.write_json(out);
        }
        if let Some(m) = &self.metadata {
            out.push_str(",\"metadata\":");
            m.write_json(out);
        }
        out.push_str(",\"streaming\":");
        self.streaming.write_json(out);
        out.push('}');
    }
}
