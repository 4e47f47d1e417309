//! Telling the dialect of an event from its shape.
//!
//! | shape | dialect |
//! |---|---|
//! | `kind` is a canonical kind (`task-created`, ...) | canonical |
//! | `jsonrpc` member, or `kind` is `task` / `status-update` / `artifact-update` / `message` | a2a (v0.3) |
//! | exactly one of `task`, `message`, `statusUpdate`, `artifactUpdate` (an object), no `kind` | a2a (v1.0 `StreamResponse`) |
//! | `error` object with `status` or `details` (`google.rpc.Status`) | a2a (v1.0 HTTP+JSON error) |
//! | `type` is an AG-UI event type (`RUN_STARTED`, `TEXT_MESSAGE_CONTENT`, ...), no `payload` | ag-ui |
//! | `type` is an AI SDK UI message chunk type (`start`, `text-delta`, `data-*`, ...), no `payload`; or the data `[DONE]` | ai-sdk |
//! | `type` (string) and `payload` (object) | unified |
//! | `event` like `plan.start` (prefix `plan`, `solver`, `agent`, `system`, `error`, `user`) | myagent |
//! | any other `event` string (with `data` or `task_id`) | acp |
//!
//! `internal:*` kinds appear in both protocol 000 and the A2A alignment (seed 001), so they
//! tell nothing; they are decoded as canonical events in every dialect.

use super::Dialect;
use crate::json::{self, Value};

const A2A_KINDS: &[&str] = &["task", "status-update", "artifact-update", "message"];
const MYAGENT_PREFIXES: &[&str] = &["plan", "solver", "agent", "system", "error", "user"];

/// The dialect an event's JSON text belongs to, when its shape tells (`None`: not JSON, not an
/// object, an `internal:*` event, or no known shape).
pub fn detect(data: &str) -> Option<Dialect> {
    json::parse(data).ok().and_then(|v| classify(&v))
}

/// The dialect a response's headers name, when one does: the AI SDK's UI message stream says
/// so with `x-vercel-ai-ui-message-stream` (`header` looks a header up by name).
pub fn detect_headers(header: impl Fn(&str) -> Option<String>) -> Option<Dialect> {
    header("x-vercel-ai-ui-message-stream").map(|_| Dialect::AiSdk)
}

/// `true` when `v` is an object whose `kind` is a canonical kind (including `internal:*`).
pub(crate) fn is_canonical_kind(v: &Value<'_>) -> bool {
    v.get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k.starts_with("internal:") || crate::events::KINDS.contains(&k))
}

/// The dialect of a parsed event (see the module table).
pub(crate) fn classify(v: &Value<'_>) -> Option<Dialect> {
    v.as_object()?;
    if v.get("jsonrpc").is_some() {
        return Some(Dialect::A2a);
    }
    if let Some(kind) = v.get("kind").and_then(Value::as_str) {
        if kind.starts_with("internal:") {
            return None;
        }
        if crate::events::KINDS.contains(&kind) {
            return Some(Dialect::Canonical);
        }
        if A2A_KINDS.contains(&kind) {
            return Some(Dialect::A2a);
        }
    }
    #[cfg(feature = "ag-ui")]
    if v.get("payload").is_none()
        && v.get("type")
            .and_then(Value::as_str)
            .is_some_and(super::ag_ui::is_event_type)
    {
        return Some(Dialect::AgUi);
    }
    #[cfg(feature = "ai-sdk")]
    if v.get("payload").is_none()
        && v.get("type")
            .and_then(Value::as_str)
            .is_some_and(super::ai_sdk::is_chunk_type)
    {
        return Some(Dialect::AiSdk);
    }
    #[cfg(feature = "a2a")]
    if super::a2a::is_v10_shape(v) {
        return Some(Dialect::A2a);
    }
    if v.get("type").and_then(Value::as_str).is_some()
        && v.get("payload").and_then(Value::as_object).is_some()
    {
        return Some(Dialect::Unified);
    }
    if let Some(event) = v.get("event").and_then(Value::as_str) {
        if let Some((prefix, rest)) = event.split_once('.') {
            if !rest.is_empty() && MYAGENT_PREFIXES.contains(&prefix) {
                return Some(Dialect::MyAgent);
            }
        }
        if v.get("data").is_some() || v.get("task_id").is_some() {
            return Some(Dialect::Acp);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ai_sdk_stream_is_named_by_its_response_header() {
        let with = |name: &str| (name == "x-vercel-ai-ui-message-stream").then(|| "v1".to_owned());
        assert_eq!(detect_headers(with), Some(Dialect::AiSdk));
        assert_eq!(detect_headers(|_| None), None);
    }

    #[test]
    fn classifies_each_seed_shape() {
        let cases = [
            (
                r#"{"kind":"task-created","contextId":"c","taskId":"t"}"#,
                Some(Dialect::Canonical),
            ),
            (r#"{"kind":"internal:llm-call","taskId":"t"}"#, None),
            (
                r#"{"kind":"status-update","taskId":"t"}"#,
                Some(Dialect::A2a),
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"result":{"kind":"task"}}"#,
                Some(Dialect::A2a),
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"x"}}"#,
                Some(Dialect::A2a),
            ),
            (
                r#"{"event":"status_change","task_id":"t","data":{}}"#,
                Some(Dialect::Acp),
            ),
            (
                r#"{"event":"authentication","data":{"type":"api_key"}}"#,
                Some(Dialect::Acp),
            ),
            (
                r#"{"event_id":"e","session_id":"s","type":"session_started","payload":{}}"#,
                Some(Dialect::Unified),
            ),
            (
                r#"{"session_id":"s","event":"plan.start","content":{}}"#,
                Some(Dialect::MyAgent),
            ),
            (r#"{"event":"system.heartbeat"}"#, Some(Dialect::MyAgent)),
            (
                r#"{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_WORKING"}}}"#,
                Some(Dialect::A2a),
            ),
            (
                r#"{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found","details":[]}}"#,
                Some(Dialect::A2a),
            ),
            (r#"{"type":"start","messageId":"m"}"#, Some(Dialect::AiSdk)),
            (
                r#"{"type":"text-delta","id":"t","delta":"x"}"#,
                Some(Dialect::AiSdk),
            ),
            (
                r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
                Some(Dialect::AgUi),
            ),
            (r#"{"hello":"world"}"#, None),
            (r#"[1,2]"#, None),
            ("not json", None),
        ];
        for (data, want) in cases {
            assert_eq!(detect(data), want, "{data}");
        }
    }
}
