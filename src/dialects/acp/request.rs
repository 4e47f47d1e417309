//! What an A2A-ACP client sends (JSON-RPC 2.0 bodies for the server's RPC endpoint, e.g.
//! `POST /a2a/rpc`; the endpoint is the embedder's to configure).
//!
//! Answering `input_required` is `tasks/provideInputAndContinue`: with a permission prompt the
//! chosen `permissionOptionId` (one of the notification's `permission_options`), otherwise an
//! `input` message; `tasks/cancel` cancels.

use crate::dialects::emit::Obj;
use crate::json::Value;

fn rpc(id: u64, method: &str, params: Obj) -> String {
    let mut o = Obj::new();
    o.str("jsonrpc", "2.0")
        .str("method", method)
        .num("id", id as f64)
        .obj("params", params);
    o.finish()
}

/// `tasks/provideInputAndContinue` with a permission decision.
///
/// ```
/// use agentwire::dialects::acp::request::provide_permission;
/// assert_eq!(
///     provide_permission(1, "task_123", "approved"),
///     r#"{"jsonrpc":"2.0","method":"tasks/provideInputAndContinue","id":1,"params":{"taskId":"task_123","permissionOptionId":"approved"}}"#
/// );
/// ```
pub fn provide_permission(id: u64, task_id: &str, option_id: &str) -> String {
    let mut p = Obj::new();
    p.str("taskId", task_id)
        .str("permissionOptionId", option_id);
    rpc(id, "tasks/provideInputAndContinue", p)
}

/// `tasks/provideInputAndContinue` with user input: a string value is a text part, anything
/// else a data part.
pub fn provide_input(id: u64, task_id: &str, message_id: &str, value: &Value<'_>) -> String {
    let mut part = Obj::new();
    match value {
        Value::String(s) => {
            part.str("kind", "text").str("text", s);
        }
        Value::Object(_) => {
            part.str("kind", "data").value("data", value);
        }
        other => {
            let mut w = Obj::new();
            w.value("value", other);
            part.str("kind", "data").obj("data", w);
        }
    }
    let mut input = Obj::new();
    input
        .str("role", "user")
        .raw("parts", &format!("[{}]", part.finish()))
        .str("messageId", message_id);
    let mut p = Obj::new();
    p.str("taskId", task_id).obj("input", input);
    rpc(id, "tasks/provideInputAndContinue", p)
}

/// `tasks/cancel`.
pub fn cancel(id: u64, task_id: &str) -> String {
    let mut p = Obj::new();
    p.str("id", task_id);
    rpc(id, "tasks/cancel", p)
}
