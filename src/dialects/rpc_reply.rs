//! The replies to what a client sent over JSON-RPC (A2A, A2A-ACP) or A2A v1.0 HTTP+JSON:
//! telling a reply from an HTTP error page, and the text of an error (with the reason
//! `jsonrpc.rs` reads). Above both `jsonrpc.rs` and `a2a/`, which knows the v1.0 reply shapes.

use super::jsonrpc::{code_reason, error_reason};
use crate::json::{parse, Value};

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
