//! The shape checks of `@ag-ui/core` 1.0.0's zod schemas (`schemas.mjs`; WIRE.md §1): a
//! required member missing or of the wrong type is an error and the event is not applied (the
//! official client fails the run); `null` where the schema has an optional member is treated
//! as absent, except `subagentRunId: null`, which the official verifier refuses.

use super::super::emit::Sink;
use crate::events::DiagCode;
use crate::json::Value;

/// Declares [`Ty`] with each type's name, most frequent first (the order [`Ty::parse`] tries).
macro_rules! event_types {
    ($($(#[$doc:meta])* $v:ident = $name:literal,)*) => {
        /// An AG-UI event type: the 31 of AG-UI 1.0 (`EventType`) and the pre-1.0 thinking
        /// events the official client still translates. Read from the event's text once
        /// ([`Ty::parse`]); every rule after that matches on it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum Ty {
            $($(#[$doc])* $v,)*
        }

        impl Ty {
            /// Every type, in the order [`Ty::parse`] tries them.
            const ALL: &'static [Ty] = &[$(Ty::$v,)*];

            /// The type's name on the wire.
            pub(crate) fn name(self) -> &'static str {
                match self {
                    $(Ty::$v => $name,)*
                }
            }
        }
    };
}

event_types! {
    TextMessageContent = "TEXT_MESSAGE_CONTENT",
    ActivitySnapshot = "ACTIVITY_SNAPSHOT",
    StateDelta = "STATE_DELTA",
    ReasoningMessageStart = "REASONING_MESSAGE_START",
    ReasoningMessageContent = "REASONING_MESSAGE_CONTENT",
    ReasoningMessageEnd = "REASONING_MESSAGE_END",
    Custom = "CUSTOM",
    ToolCallStart = "TOOL_CALL_START",
    ToolCallArgs = "TOOL_CALL_ARGS",
    ToolCallEnd = "TOOL_CALL_END",
    ToolCallResult = "TOOL_CALL_RESULT",
    TextMessageStart = "TEXT_MESSAGE_START",
    TextMessageEnd = "TEXT_MESSAGE_END",
    SubagentStarted = "SUBAGENT_STARTED",
    SubagentFinished = "SUBAGENT_FINISHED",
    RunStarted = "RUN_STARTED",
    RunFinished = "RUN_FINISHED",
    TextMessageChunk = "TEXT_MESSAGE_CHUNK",
    ToolCallChunk = "TOOL_CALL_CHUNK",
    StateSnapshot = "STATE_SNAPSHOT",
    MessagesSnapshot = "MESSAGES_SNAPSHOT",
    ActivityDelta = "ACTIVITY_DELTA",
    Raw = "RAW",
    RunError = "RUN_ERROR",
    StepStarted = "STEP_STARTED",
    StepFinished = "STEP_FINISHED",
    ReasoningStart = "REASONING_START",
    ReasoningMessageChunk = "REASONING_MESSAGE_CHUNK",
    ReasoningEnd = "REASONING_END",
    ReasoningEncryptedValue = "REASONING_ENCRYPTED_VALUE",
    SubagentError = "SUBAGENT_ERROR",
    /// Pre-1.0, read as `REASONING_START`.
    ThinkingStart = "THINKING_START",
    /// Pre-1.0, read as `REASONING_END`.
    ThinkingEnd = "THINKING_END",
    /// Pre-1.0, read as `REASONING_MESSAGE_START`.
    ThinkingTextMessageStart = "THINKING_TEXT_MESSAGE_START",
    /// Pre-1.0, read as `REASONING_MESSAGE_CONTENT`.
    ThinkingTextMessageContent = "THINKING_TEXT_MESSAGE_CONTENT",
    /// Pre-1.0, read as `REASONING_MESSAGE_END`.
    ThinkingTextMessageEnd = "THINKING_TEXT_MESSAGE_END",
}

impl Ty {
    /// The type named `name`, if AG-UI has it.
    pub(crate) fn parse(name: &str) -> Option<Ty> {
        Ty::ALL.iter().copied().find(|t| t.name() == name)
    }

    /// What a pre-1.0 `THINKING_*` type is read as.
    pub(crate) fn legacy(self) -> Option<Ty> {
        Some(match self {
            Ty::ThinkingStart => Ty::ReasoningStart,
            Ty::ThinkingEnd => Ty::ReasoningEnd,
            Ty::ThinkingTextMessageStart => Ty::ReasoningMessageStart,
            Ty::ThinkingTextMessageContent => Ty::ReasoningMessageContent,
            Ty::ThinkingTextMessageEnd => Ty::ReasoningMessageEnd,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy)]
enum T {
    Str,
    /// Any JSON value but `null` (and present).
    Any,
    Obj,
    Arr,
}

/// Required members and their types, per event type.
fn required(ty: Ty) -> &'static [(&'static str, T)] {
    use T::*;
    match ty {
        Ty::TextMessageStart
        | Ty::TextMessageEnd
        | Ty::ReasoningStart
        | Ty::ReasoningEnd
        | Ty::ReasoningMessageEnd => &[("messageId", Str)],
        Ty::TextMessageContent | Ty::ReasoningMessageContent => {
            &[("messageId", Str), ("delta", Str)]
        }
        Ty::ReasoningMessageStart => &[("messageId", Str), ("role", Str)],
        Ty::ToolCallStart => &[("toolCallId", Str), ("toolCallName", Str)],
        Ty::ToolCallArgs => &[("toolCallId", Str), ("delta", Str)],
        Ty::ToolCallEnd => &[("toolCallId", Str)],
        Ty::ToolCallResult => &[("messageId", Str), ("toolCallId", Str), ("content", Any)],
        Ty::StateDelta => &[("delta", Arr)],
        Ty::MessagesSnapshot => &[("messages", Arr)],
        Ty::ActivitySnapshot => &[("messageId", Str), ("activityType", Str), ("content", Obj)],
        Ty::ActivityDelta => &[("messageId", Str), ("activityType", Str), ("patch", Arr)],
        Ty::Raw => &[("event", Any)],
        Ty::Custom => &[("name", Str)],
        Ty::RunStarted | Ty::RunFinished => &[("threadId", Str), ("runId", Str)],
        Ty::RunError => &[("message", Str)],
        Ty::StepStarted | Ty::StepFinished => &[("stepName", Str)],
        Ty::ReasoningEncryptedValue => {
            &[("subtype", Str), ("entityId", Str), ("encryptedValue", Str)]
        }
        Ty::SubagentStarted => &[("subagentRunId", Str), ("name", Str)],
        Ty::SubagentFinished => &[("subagentRunId", Str)],
        Ty::SubagentError => &[("subagentRunId", Str), ("message", Str)],
        Ty::ThinkingTextMessageContent => &[("delta", Str)],
        Ty::StateSnapshot
        | Ty::TextMessageChunk
        | Ty::ToolCallChunk
        | Ty::ReasoningMessageChunk
        | Ty::ThinkingStart
        | Ty::ThinkingEnd
        | Ty::ThinkingTextMessageStart
        | Ty::ThinkingTextMessageEnd => &[],
    }
}

/// Optional string members that must be strings when present (and not `null`).
const OPTIONAL_STRINGS: &[&str] = &[
    "role",
    "name",
    "parentMessageId",
    "parentRunId",
    "code",
    "source",
    "description",
    "parentSubagentRunId",
    "parentToolCallId",
];

/// Checks `v` against the schema of `ty`; `false` (with an error) when it cannot be applied.
pub(crate) fn check(which: Ty, v: &Value<'_>, sink: &mut Sink<'_>) -> bool {
    let ty = which.name();
    let mut ok = true;
    for &(key, t) in required(which) {
        let good = match (v.get(key), t) {
            (None | Some(Value::Null), _) => false,
            (Some(x), T::Str) => x.as_str().is_some(),
            (Some(_), T::Any) => true,
            (Some(x), T::Obj) => x.as_object().is_some(),
            (Some(x), T::Arr) => x.as_array().is_some(),
        };
        if !good {
            let expected = match t {
                T::Str => "string",
                T::Any => "a JSON value",
                T::Obj => "object",
                T::Arr => "array",
            };
            sink.require_error(Some(v), key, expected, &format!("$.{key}"));
            ok = false;
        }
    }
    if which == Ty::StateSnapshot && v.get("snapshot").is_none() {
        sink.require_error(Some(v), "snapshot", "a JSON value", "$.snapshot");
        ok = false;
    }
    if which == Ty::Custom && v.get("value").is_none() {
        sink.require_error(Some(v), "value", "a JSON value", "$.value");
        ok = false;
    }
    if matches!(v.get("subagentRunId"), Some(Value::Null)) {
        sink.error(
            DiagCode::InvalidType,
            format!("Cannot send '{ty}' with 'subagentRunId: null'. The field is optional — omit it entirely."),
            "$.subagentRunId",
        );
        ok = false;
    }
    // (One pass over the members finds whether any is worth a look: most events have none.)
    let suspect = super::super::emit::members(Some(v))
        .iter()
        .any(|(k, x)| !x.is_null() && x.as_str().is_none() && OPTIONAL_STRINGS.contains(&&**k));
    for &key in OPTIONAL_STRINGS.iter().filter(|_| suspect) {
        if let Some(x) = v.get(key) {
            if !x.is_null() && x.as_str().is_none() {
                sink.require_error(Some(v), key, "string", &format!("$.{key}"));
                ok = false;
            }
        }
    }
    if let Some(x) = v.get("timestamp") {
        let whole = x
            .as_f64()
            .is_some_and(|n| n.fract() == 0.0 && n.abs() <= crate::events::field::MAX_SAFE_INTEGER);
        if !x.is_null() && !whole {
            sink.warn(
                DiagCode::InvalidTimestamp,
                "timestamp: expected whole milliseconds since the epoch (ignored)".to_owned(),
                "$.timestamp",
            );
        }
    }
    if which == Ty::ReasoningMessageStart
        && v.get("role").and_then(Value::as_str) != Some("reasoning")
    {
        sink.error(
            DiagCode::InvalidEnum,
            "role: expected \"reasoning\"".to_owned(),
            "$.role",
        );
        ok = false;
    }
    if which == Ty::ReasoningEncryptedValue
        && !matches!(
            v.get("subtype").and_then(Value::as_str),
            Some("tool-call" | "message")
        )
    {
        sink.error(
            DiagCode::InvalidEnum,
            "subtype: expected \"tool-call\" or \"message\"".to_owned(),
            "$.subtype",
        );
        ok = false;
    }
    if which == Ty::TextMessageStart {
        if let Some(role) = v.get("role").and_then(Value::as_str) {
            if !matches!(role, "developer" | "system" | "assistant" | "user") {
                sink.error(
                    DiagCode::InvalidEnum,
                    format!("role: expected developer, system, assistant or user, found {role}"),
                    "$.role",
                );
                ok = false;
            }
        }
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::{check, Ty};
    use crate::dialects::emit::Sink;
    use crate::dialects::Output;

    /// The paths of the errors `check` gives for `data`, and whether it may be applied.
    fn errors(ty: Ty, data: &str) -> (Vec<String>, bool) {
        let v = crate::json::parse(data).unwrap_or(crate::json::Value::Null);
        let mut out = Output::default();
        let mut sink = Sink {
            out: &mut out,
            raw: data,
            event_id: "",
            position: 0,
            kind: None,
            task: None,
        };
        let ok = check(ty, &v, &mut sink);
        (out.diagnostics.iter().map(|d| d.path.clone()).collect(), ok)
    }

    #[test]
    fn optional_strings_of_another_type_are_errors_in_the_schema_order() {
        let start =
            |rest: &str| format!(r#"{{"type":"TEXT_MESSAGE_START","messageId":"m"{rest}}}"#);
        let t = Ty::TextMessageStart;
        assert_eq!(errors(t, &start("")), (vec![], true));
        assert_eq!(
            errors(t, &start(r#","name":null,"role":"user""#)),
            (vec![], true)
        );
        // (`name` before `role` in the event; `role` first in the schema's list.)
        assert_eq!(
            errors(t, &start(r#","name":[1],"role":5"#)),
            (vec!["$.role".to_owned(), "$.name".to_owned()], false)
        );
        assert_eq!(
            errors(t, &start(r#","parentToolCallId":{}"#)),
            (vec!["$.parentToolCallId".to_owned()], false)
        );
        // A repeated member: the one `Value::get` reads decides.
        let twice = start(r#","name":1,"name":"x""#);
        let v = crate::json::parse(&twice).unwrap_or_default();
        let read_is_string = v.get("name").and_then(crate::json::Value::as_str).is_some();
        let (paths, ok) = errors(t, &twice);
        assert_eq!((paths.is_empty(), ok), (read_is_string, read_is_string));
    }
}
