//! The reason of a JSON-RPC (or A2A v1.0 HTTP+JSON) error, as the dialects that use JSON-RPC
//! (A2A, A2A-ACP) read it. Telling a reply from an HTTP error page is in `rpc_reply.rs`.
//!
//! A2A v1.0 errors carry `google.rpc.ErrorInfo` objects (`{"@type", "reason", "domain"}`) in the
//! JSON-RPC error's `data` or the HTTP+JSON `google.rpc.Status` body's `details`; the `reason`
//! (`TASK_NOT_FOUND`, `VERSION_NOT_SUPPORTED`, ...) is what diagnostics and connection errors
//! keep. Where a reply names none, the reason the official JS client gives its code is used.

use crate::json::Value;

/// The reason the official JS client (`@a2a-js/sdk` 1.3.0) gives an error whose reply names
/// none: from the JSON-RPC code (the A2A codes, and the reserved ones it reads as a malformed
/// request), or HTTP 500 over HTTP+JSON.
pub fn code_reason(code: f64) -> Option<&'static str> {
    Some(match code as i64 {
        _ if code.fract() != 0.0 => return None,
        -32001 => "TASK_NOT_FOUND",
        -32002 => "TASK_NOT_CANCELABLE",
        -32003 => "PUSH_NOTIFICATION_NOT_SUPPORTED",
        -32004 => "UNSUPPORTED_OPERATION",
        -32005 => "CONTENT_TYPE_NOT_SUPPORTED",
        -32006 => "INVALID_AGENT_RESPONSE",
        -32007 => "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
        -32008 => "EXTENSION_SUPPORT_REQUIRED",
        -32009 => "VERSION_NOT_SUPPORTED",
        -32700 | -32600 | -32601 | -32602 => "INVALID_PARAMS",
        -32603 | 500 => "INTERNAL_ERROR",
        _ => return None,
    })
}

/// The `reason` of the first `google.rpc.ErrorInfo` in a list (JSON-RPC `data`, REST
/// `details`), or of a lone ErrorInfo object.
pub fn error_reason<'v>(details: Option<&'v Value<'_>>) -> Option<&'v str> {
    let reason = |d: &'v Value<'_>| d.get("reason").and_then(Value::as_str);
    match details? {
        Value::Array(items) => items.iter().find_map(reason),
        d @ Value::Object(_) => reason(d),
        _ => None,
    }
}
