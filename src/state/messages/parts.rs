//! A message's ordered `parts`: how they are stored (text as spans of the message's `content`,
//! kept once and appended in place). How they are added, replaced, cut and written is in
//! `edit`.
//!
//! Parts in JSON (`MessagePart`, or any protocol part kept whole, `OtherPart`):
//! `{type:"text", text, state}`, `{type:"reasoning", id?, text, state}` (`state`: `streaming`
//! until the text ends, then `done`), `{type:"tool-call", toolCallId, toolName, arguments}`
//! (AG-UI's calls, also in `toolCalls`), and the protocol's own parts as it sends them: AI SDK
//! `tool-<name>`, `source-url`, `file`, `data-*`, `step-start`, ..., AG-UI's media parts.

use crate::state::raw::RawJson;

/// One part of a message, in order (the declaration of the parts agentwire builds itself).
#[derive(tsify::Tsify, Debug, Clone, PartialEq)]
#[serde(tag = "type")]
pub enum MessagePart {
    /// A span of the message's text (`content`).
    #[serde(rename = "text")]
    Text {
        /// The text.
        text: String,
        /// `streaming` until the text ends, then `done`.
        #[tsify(type = "\"streaming\" | \"done\"")]
        state: String,
    },
    /// Reasoning text.
    #[serde(rename = "reasoning")]
    Reasoning {
        /// The reasoning's id in its protocol.
        #[tsify(optional)]
        id: Option<String>,
        /// The text.
        text: String,
        /// `streaming` until the text ends, then `done`.
        #[tsify(type = "\"streaming\" | \"done\"")]
        state: String,
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
}

/// A part the protocol defines, kept as it sent it (AI SDK `tool-<name>`, `source-url`,
/// `file`, `data-*`, `step-start`; AG-UI `image`, `audio`, `video`, `document`).
#[derive(tsify::Tsify, Debug, Clone, PartialEq)]
pub struct OtherPart {
    /// What part it is.
    #[serde(rename = "type")]
    pub kind: String,
    /// Its other members, as sent.
    #[serde(flatten)]
    #[tsify(type = "Record<string, unknown>")]
    pub members: RawJson,
}

/// How a part is stored.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PartSlot {
    /// `content[start..end]`; `id`: the protocol's id of the text part; `done` once it ended.
    Text {
        start: usize,
        end: usize,
        id: Option<String>,
        done: bool,
        /// Other members of the part (an object's members, without braces).
        extra: Option<String>,
    },
    /// Reasoning text kept in the part.
    Reasoning {
        id: Option<String>,
        text: String,
        done: bool,
        extra: Option<String>,
    },
    /// `toolCalls[i]`.
    ToolCall(usize),
    /// A part kept whole (JSON object text); `key` finds it again to replace it.
    Other { key: Option<String>, part: RawJson },
}

/// Which text a delta extends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TextKind {
    /// The message's text (`content`).
    Text,
    /// Reasoning.
    Reasoning,
}
