//! The shape checks of `@ag-ui/core` 1.0.0's zod schemas (`schemas.mjs`; WIRE.md §1): a
//! required member missing or of the wrong type is an error and the event is not applied (the
//! official client fails the run); `null` where the schema has an optional member is treated
//! as absent, except `subagentRunId: null`, which the official verifier refuses.

use super::super::emit::Sink;
use crate::events::DiagCode;
use crate::json::Value;

/// The 31 event types of AG-UI 1.0 (`EventType`).
pub(crate) const EVENT_TYPES: &[&str] = &[
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "TEXT_MESSAGE_CHUNK",
    "TOOL_CALL_START",
    "TOOL_CALL_ARGS",
    "TOOL_CALL_END",
    "TOOL_CALL_CHUNK",
    "TOOL_CALL_RESULT",
    "STATE_SNAPSHOT",
    "STATE_DELTA",
    "MESSAGES_SNAPSHOT",
    "ACTIVITY_SNAPSHOT",
    "ACTIVITY_DELTA",
    "RAW",
    "CUSTOM",
    "RUN_STARTED",
    "RUN_FINISHED",
    "RUN_ERROR",
    "STEP_STARTED",
    "STEP_FINISHED",
    "REASONING_START",
    "REASONING_MESSAGE_START",
    "REASONING_MESSAGE_CONTENT",
    "REASONING_MESSAGE_END",
    "REASONING_MESSAGE_CHUNK",
    "REASONING_END",
    "REASONING_ENCRYPTED_VALUE",
    "SUBAGENT_STARTED",
    "SUBAGENT_FINISHED",
    "SUBAGENT_ERROR",
];

/// The pre-1.0 thinking events the official client still translates.
pub(crate) const LEGACY_TYPES: &[&str] = &[
    "THINKING_START",
    "THINKING_END",
    "THINKING_TEXT_MESSAGE_START",
    "THINKING_TEXT_MESSAGE_CONTENT",
    "THINKING_TEXT_MESSAGE_END",
];

#[derive(Clone, Copy)]
enum T {
    Str,
    /// Any JSON value but `null` (and present).
    Any,
    Obj,
    Arr,
}

/// Required members and their types, per event type.
fn required(ty: &str) -> &'static [(&'static str, T)] {
    use T::*;
    match ty {
        "TEXT_MESSAGE_START"
        | "TEXT_MESSAGE_END"
        | "REASONING_START"
        | "REASONING_END"
        | "REASONING_MESSAGE_END" => &[("messageId", Str)],
        "TEXT_MESSAGE_CONTENT" | "REASONING_MESSAGE_CONTENT" => {
            &[("messageId", Str), ("delta", Str)]
        }
        "REASONING_MESSAGE_START" => &[("messageId", Str), ("role", Str)],
        "TOOL_CALL_START" => &[("toolCallId", Str), ("toolCallName", Str)],
        "TOOL_CALL_ARGS" => &[("toolCallId", Str), ("delta", Str)],
        "TOOL_CALL_END" => &[("toolCallId", Str)],
        "TOOL_CALL_RESULT" => &[("messageId", Str), ("toolCallId", Str), ("content", Any)],
        "STATE_SNAPSHOT" => &[],
        "STATE_DELTA" => &[("delta", Arr)],
        "MESSAGES_SNAPSHOT" => &[("messages", Arr)],
        "ACTIVITY_SNAPSHOT" => &[("messageId", Str), ("activityType", Str), ("content", Obj)],
        "ACTIVITY_DELTA" => &[("messageId", Str), ("activityType", Str), ("patch", Arr)],
        "RAW" => &[("event", Any)],
        "CUSTOM" => &[("name", Str)],
        "RUN_STARTED" | "RUN_FINISHED" => &[("threadId", Str), ("runId", Str)],
        "RUN_ERROR" => &[("message", Str)],
        "STEP_STARTED" | "STEP_FINISHED" => &[("stepName", Str)],
        "REASONING_ENCRYPTED_VALUE" => {
            &[("subtype", Str), ("entityId", Str), ("encryptedValue", Str)]
        }
        "SUBAGENT_STARTED" => &[("subagentRunId", Str), ("name", Str)],
        "SUBAGENT_FINISHED" => &[("subagentRunId", Str)],
        "SUBAGENT_ERROR" => &[("subagentRunId", Str), ("message", Str)],
        "THINKING_TEXT_MESSAGE_CONTENT" => &[("delta", Str)],
        _ => &[],
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
pub(crate) fn check(ty: &str, v: &Value<'_>, sink: &mut Sink<'_>) -> bool {
    let mut ok = true;
    for &(key, t) in required(ty) {
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
    if ty == "STATE_SNAPSHOT" && v.get("snapshot").is_none() {
        sink.require_error(Some(v), "snapshot", "a JSON value", "$.snapshot");
        ok = false;
    }
    if ty == "CUSTOM" && v.get("value").is_none() {
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
    for &key in OPTIONAL_STRINGS {
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
    if ty == "REASONING_MESSAGE_START" && v.get("role").and_then(Value::as_str) != Some("reasoning")
    {
        sink.error(
            DiagCode::InvalidEnum,
            "role: expected \"reasoning\"".to_owned(),
            "$.role",
        );
        ok = false;
    }
    if ty == "REASONING_ENCRYPTED_VALUE"
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
    if ty == "TEXT_MESSAGE_START" {
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
