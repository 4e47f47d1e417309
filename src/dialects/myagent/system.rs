//! `system.*` and `error.*` events: connection and session frames, errors and
//! recoveries, and whether a failure ends the turn.

use super::{Cx, MyAgentDecoder};
use crate::dialects::emit::{get_bool, get_num, get_str, Obj, Sink};
use crate::dialects::unknown_event;
use crate::events::{DiagCode, Severity};
use crate::json::Value;

impl MyAgentDecoder {
    pub(super) fn system_event(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        match cx.event {
            "system.connected" => {
                if let Some(c) = get_str(Some(v), "connection_id") {
                    self.connection_id = Some(c.to_owned());
                }
                if let Some(s) = get_str(cx.content, "server_version") {
                    self.server_version = Some(s.to_owned());
                }
                let kind = format!("internal:myagent:{}", cx.event);
                sink.event(unknown_event(&kind, Some(cx.ctx), None, v));
            }
            "system.error" => {
                let msg = cx.content.and_then(Value::as_str).unwrap_or("system error");
                let code = get_str(cx.meta, "error_code").unwrap_or("?");
                let severity = match get_str(cx.meta, "severity") {
                    Some("error") => Severity::Error,
                    _ => Severity::Warning,
                };
                sink.diag(
                    DiagCode::AgentError,
                    severity,
                    format!("system error {code}: {msg}"),
                    "$.content",
                );
                if crate::json::contains_str(code, "SESSION_NOT_FOUND") {
                    self.session_not_found(cx, code, msg, sink);
                }
            }
            other => {
                sink.event(unknown_event(
                    &format!("myagent:{other}"),
                    Some(cx.ctx),
                    None,
                    v,
                ));
            }
        }
    }

    pub(super) fn error_event(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
        let text = cx.content.and_then(Value::as_str).unwrap_or("");
        let code = get_str(cx.meta, "error_code").unwrap_or("?");
        let recoverable = get_bool(cx.meta, "recoverable");
        let attempt = get_num(cx.meta, "attempt");
        let max = get_num(cx.meta, "max_attempts");
        let (status, message, diag): (&str, String, bool) = match cx.event {
            "error.validation" | "error.execution" => {
                let fatal = recoverable == Some(false);
                (
                    if fatal { "failed" } else { "working" },
                    format!("{code}: {text}"),
                    true,
                )
            }
            "error.timeout" => {
                let left = matches!((attempt, max), (Some(a), Some(m)) if a < m);
                let msg = match (attempt, max) {
                    (Some(a), Some(m)) => format!(
                        "{code}: {text} (attempt {} of {})",
                        crate::json::Num(a),
                        crate::json::Num(m)
                    ),
                    _ => format!("{code}: {text}"),
                };
                (if left { "working" } else { "failed" }, msg, true)
            }
            "error.retry" => {
                let err = get_str(cx.meta, "error").unwrap_or(text);
                let msg = match (attempt, max, get_num(cx.meta, "delay_ms")) {
                    (Some(a), Some(m), Some(d)) => format!(
                        "retry {} of {} in {} ms: {err}",
                        crate::json::Num(a),
                        crate::json::Num(m),
                        crate::json::Num(d)
                    ),
                    (Some(a), Some(m), None) => format!(
                        "retry {} of {}: {err}",
                        crate::json::Num(a),
                        crate::json::Num(m)
                    ),
                    _ => format!("retry: {err}"),
                };
                ("working", msg, false)
            }
            "error.recovery_started" => {
                let action = get_str(cx.meta, "recovery_action").unwrap_or(text);
                ("working", format!("recovering: {action}"), false)
            }
            "error.recovery_success" => ("working", "recovered".to_owned(), false),
            "error.recovery_failed" => {
                let orig = get_str(cx.meta, "original_error").unwrap_or(text);
                ("failed", format!("recovery failed: {orig}"), true)
            }
            other => {
                sink.warn(
                    DiagCode::AgentError,
                    format!("{other} {code}: {text}"),
                    "$.content",
                );
                return;
            }
        };
        // An error is not an answer: a confirmation open now expires with the turn if it fails
        // (the server's own confirmation timeout ends that way), or the next event settles it.
        let turn = self.turn_settling(cx, None, false, sink);
        // The failure that follows the client's `user.cancel` is the cancel.
        let status = if status == "failed" && self.cancel_sent {
            "canceled"
        } else {
            status
        };
        if diag {
            sink.warn(
                DiagCode::AgentError,
                format!("{}: {message}", cx.event),
                "$.content",
            );
        }
        if status != "working" {
            let why = if text.is_empty() { &message } else { text };
            self.end_unfinished(cx, &turn, status, why, sink);
        }
        let mut m = Obj::new();
        if status != "working" {
            m.str("reason", if text.is_empty() { &message } else { text });
        }
        let mut a = cx.myagent(&[]);
        a.opt_value("content", cx.content);
        m.obj("myagent", a);
        self.status(cx, &turn, status, Some(&message), m, sink);
        if status != "working" {
            self.end_turn();
        }
    }
}
