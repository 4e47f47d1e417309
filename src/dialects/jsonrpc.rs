//! JSON-RPC replies as the dialects that use JSON-RPC (A2A, A2A-ACP) meet them: telling a reply
//! from an HTTP error page, and the text and reason of an error.
//!
//! A2A v1.0 errors carry `google.rpc.ErrorInfo` objects (`{"@type", "reason", "domain"}`) in the
//! JSON-RPC error's `data` or the HTTP+JSON `google.rpc.Status` body's `details`; the `reason`
//! (`TASK_NOT_FOUND`, `VERSION_NOT_SUPPORTED`, ...) is what diagnostics and connection errors
//! keep. Where a reply names none, the reason the official JS client gives its code is used.

use crate::json::{parse, Value};

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

/// `true` when `json` is a JSON-RPC response (`jsonrpc`, or an object `result` / `error`): what
/// may go into the stream. A plain JSON body of an HTTP error (`{"detail": ...}`) is not one.
///
/// A2A v1.0 HTTP+JSON replies count too: a `Task` (the `:cancel` reply), a `StreamResponse`,
/// a `google.rpc.Status` error body.
pub fn is_rpc_response(json: &str) -> bool {
    let Ok(v) = parse(json) else { return false };
    v.get("jsonrpc").is_some()
        || v.get("result").is_some_and(|r| r.as_object().is_some())
        || v.get("error").is_some_and(|e| e.as_object().is_some())
        || is_a2a_v10_reply(&v)
}

/// `json-rpc error CODE [REASON]: MESSAGE` when `json` is a JSON-RPC error response (the reply
/// to a request the client sent; A2A v1.0 adds the `google.rpc.ErrorInfo` reason, e.g.
/// `TASK_NOT_FOUND`), `http+json error CODE STATUS [REASON]: MESSAGE` for an A2A v1.0
/// HTTP+JSON error body, `None` for a result or anything else.
pub fn rpc_error_message(json: &str) -> Option<String> {
    let v = parse(json).ok()?;
    let e = v.get("error").filter(|e| !e.is_null())?;
    let code = e
        .get("code")
        .and_then(Value::as_f64)
        .map_or("?".to_owned(), |c| crate::json::Num(c).to_string());
    let msg = e
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("(no message)");
    let rest = v.get("jsonrpc").is_none();
    let status = e.get("status").and_then(Value::as_str).filter(|_| rest);
    let reason = error_reason(e.get(if rest { "details" } else { "data" }))
        .or_else(|| e.get("code").and_then(Value::as_f64).and_then(code_reason));
    let label = if status.is_some() {
        "http+json"
    } else {
        "json-rpc"
    };
    Some(format!(
        "{label} error {code}{}{}: {msg}",
        status.map(|s| format!(" {s}")).unwrap_or_default(),
        reason.map(|r| format!(" {r}")).unwrap_or_default()
    ))
}

/// `true` for the replies only A2A v1.0 has (a bare `Task`, a `StreamResponse`, an HTTP+JSON
/// error body); always `false` in a build without the `a2a` feature.
fn is_a2a_v10_reply(v: &Value<'_>) -> bool {
    #[cfg(feature = "a2a")]
    return super::a2a::is_v10_reply(v);
    #[cfg(not(feature = "a2a"))]
    {
        let _ = v;
        false
    }
}
