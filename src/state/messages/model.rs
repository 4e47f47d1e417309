//! The conversation model: a task's ordered `messages` (AG-UI's message shape, with ordered
//! `parts` so parts-based protocols map onto it too) and its `sharedState` document.
//!
//! How `content` relates to `messages`: a message's `content` is its text, appended delta by
//! delta. The text of every `assistant` message of a task is also the task's answer
//! (`task.content`), joined with a blank line between messages, so UI code written for the
//! other protocols shows an AG-UI run's answer unchanged. Protocol 000 and the seed dialects
//! have no messages: their `messages` stay empty and `content` is assembled as before.

use crate::events::MessageRole;
use crate::json::{write_str, OwnedValue, WriteJson};
use crate::state::macros::view_struct;
use crate::state::RawJson;

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

/// One part of a message, in order (the declaration of what `parts` holds).
#[derive(tsify::Tsify, Debug, Clone, PartialEq)]
#[serde(tag = "type")]
pub enum MessagePart {
    /// A span of the message's text (`content`).
    #[serde(rename = "text")]
    Text {
        /// The text.
        text: String,
    },
    /// A span of a reasoning message's text.
    #[serde(rename = "reasoning")]
    Reasoning {
        /// The text.
        text: String,
    },
    /// A tool call of this message (see `toolCalls`).
    #[serde(rename = "tool-call")]
    ToolCall {
        /// The call's id.
        #[serde(rename = "toolCallId")]
        tool_call_id: String,
        /// The tool's name.
        #[serde(rename = "toolName")]
        tool_name: String,
        /// The arguments as JSON text (partial while streaming).
        arguments: String,
    },
    /// Media by URL or data (`image`, `audio`, `video`, `document`) or any other part, kept as
    /// the protocol gave it.
    #[serde(rename = "other")]
    Other {
        /// The part as received (its own `type` member says what it is).
        #[tsify(type = "Record<string, unknown>")]
        part: RawJson,
    },
}

/// How a part is stored: text parts are byte spans of the message's `content` (the text is
/// kept once and appended in place).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PartSlot {
    /// `content[start..end]`.
    Text { start: usize, end: usize },
    /// `toolCalls[i]`.
    ToolCall(usize),
    /// A part kept whole (JSON object text).
    Other(RawJson),
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
    #[tsify(type = "MessagePart[]")]
    #[serde(skip)]
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

    /// Appends text: extends the open text span at the end, or opens one.
    pub(crate) fn append(&mut self, delta: &str) {
        let start = self.content.len();
        self.content.push_str(delta);
        let end = self.content.len();
        match self.parts.last_mut() {
            Some(PartSlot::Text { end: e, .. }) if *e == start => *e = end,
            _ => self.parts.push(PartSlot::Text { start, end }),
        }
    }

    /// Replaces the text (one text part).
    pub(crate) fn set_text(&mut self, text: &str) {
        self.content.clear();
        self.parts.retain(|p| !matches!(p, PartSlot::Text { .. }));
        if !text.is_empty() {
            self.content.push_str(text);
            self.parts.insert(
                0,
                PartSlot::Text {
                    start: 0,
                    end: text.len(),
                },
            );
        }
    }

    /// Adds a tool call (and its part); returns its index.
    pub(crate) fn add_tool_call(&mut self, id: &str, name: &str) -> usize {
        self.tool_calls.push(ToolCall {
            id: id.to_owned(),
            kind: "function".to_owned(),
            function: ToolCallFunction {
                name: name.to_owned(),
                arguments: String::new(),
            },
            encrypted_value: None,
        });
        let i = self.tool_calls.len() - 1;
        self.parts.push(PartSlot::ToolCall(i));
        i
    }

    /// The index of tool call `id`.
    pub(crate) fn tool_call(&self, id: &str) -> Option<usize> {
        self.tool_calls.iter().position(|c| c.id == id)
    }

    fn write_parts(&self, out: &mut String) {
        out.push('[');
        let text_type = if self.role == MessageRole::Reasoning {
            "{\"type\":\"reasoning\",\"text\":"
        } else {
            "{\"type\":\"text\",\"text\":"
        };
        for (i, p) in self.parts.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            match p {
                PartSlot::Text { start, end } => {
                    out.push_str(text_type);
                    write_str(out, self.content.get(*start..*end).unwrap_or_default());
                    out.push('}');
                }
                PartSlot::ToolCall(c) => {
                    let Some(call) = self.tool_calls.get(*c) else {
                        out.push_str("null");
                        continue;
                    };
                    out.push_str("{\"type\":\"tool-call\",\"toolCallId\":");
                    write_str(out, &call.id);
                    out.push_str(",\"toolName\":");
                    write_str(out, &call.function.name);
                    out.push_str(",\"arguments\":");
                    write_str(out, &call.function.arguments);
                    out.push('}');
                }
                PartSlot::Other(raw) => raw.write_json(out),
            }
        }
        out.push(']');
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
