//! `acp`: A2A-ACP event notifications (seed 002): `{event, task_id, timestamp, data}`.
//!
//! | A2A-ACP | canonical |
//! |---|---|
//! | first event of a `task_id` | `task-created` (initiator `user`; `contextId` = `context_id` when sent, else the task id) |
//! | `status_change` | `task-status` (`new_state`: working, input-required → waiting-input, auth-required → waiting-auth, completed, failed, cancelled → canceled, rejected → failed); no status when the state did not change; `old_state` under `metadata.acp` |
//! | leaving `input-required` | `input-received` for the open request (unless answered through [`crate::dialects::respond`]) |
//! | `input_required` / `task_feedback_required` while a request of the task is open | the open request `expired` (closed, not answered: nothing says the user answered it) |
//! | `message` (role `assistant`/`agent`) | `content-delta` (messages after the first are preceded by a blank line) |
//! | `message` (other roles) | unknown event `acp:message` |
//! | `input_required` | `task-status` `waiting-input` + `input-required` (id `<task>#input-<n>`, `requireUser`; `permission_options` → `options` `{id, optionId, name}` with `inputType: selection` and a string-enum `schema`; `tool_call` → `metadata.toolCall`; `input_types`, `detection_method`, `governor_summary`, `policy_decision` → `metadata.acp`) |
//! | `task_feedback_required` | `task-status` `waiting-input` + `input-required` (`confirmation`, `summary` in `metadata.acp`) |
//! | `task_governor_followup` | `thought-stream` (`reflection`, the governor's prompt; `governor_id`, `iteration` in `metadata.acp`) |
//! | `artifact` | `file-write` announcing a file by reference (one empty chunk, not final: `complete: false`, name, `description` = `detection_text`, `metadata.totalSize` = `artifact_size`, `metadata.reference: true`; the bytes are not in the stream); `artifact_type: "dataset"` with `rows` → `dataset-write` (one complete batch, `schema`); other types → `data-write` of the notification data |
//! | `tool_execution` `started` | `tool-start` (`tool_id` is the name, `parameters` the arguments; the call id is the development-tool `tool_call_id` when present) |
//! | `tool_execution` `completed` | `tool-complete` (`output` → result, `execution_time` s → `metadata.duration` ms, `cached`) |
//! | `tool_execution` `failed` | `tool-complete` failed (`retry_attempt` → `metadata.retries`); with `will_retry: true` a `tool-progress` instead (the call goes on) |
//! | development-tool metadata (`development-tool` or the extension URI key, wherever it appears; also the push kinds `tool_call_update`, `thought`, `governance_event` as events) | `tool_call_update` pending/executing → `tool-start`/`tool-progress`, succeeded/failed/cancelled → `tool-complete`; `tool_call_confirmation` → `input-received`; `thought` → `thought-stream`; `governance_event` → `thought-stream` (`decision`); `text_content` → `tool-progress` message; an update without a `tool_call_id` (the document's push example) is about the task's running call when exactly one runs, else (none or several) a call of its own `<task>#update-<n>` (started and ended by a final update), with a `missing-field` warning; the development-tool object's other members (`model`, `user_tier`) and a carrier `status_change` that emitted no status (`carrier`) go to `metadata.acp`; a kind applied to nothing (`state_change`, a `tool_call_confirmation` with no request open) whose carrier emitted nothing becomes an unknown event `acp:development-tool:<kind>` carrying the notification |
//! | `input_required` with a development-tool `tool_call_update` | its ToolCall is the pending call (`tool-start`) when it has a `tool_call_id`; the document's confirmation-flow example elides it (`{ ... }`): an id-less one is the `tool_call` beside it, not another call |
//! | `authentication`, `security_audit` | unknown events `internal:acp:authentication` / `internal:acp:security_audit`, data with sensitive fields (`password`, `api_key`, `token`, `secret`, ...) redacted |
//! | anything else | unknown event `acp:<event>` |

mod artifact;
mod input;
pub mod request;
mod tools;

use super::emit::{get, get_str, members, redacted, Clock, Obj, Sink};
use super::table::Table;
use super::unknown_event;
use crate::events::DiagCode;
use crate::json::Value;

/// The development-tool extension's namespaced metadata key.
pub const DEV_TOOL_URI: &str =
    "https://developers.google.com/gemini/a2a/extensions/development-tool/v1";

const MAX_TRACKED: usize = 10_000;

#[derive(Debug, Default)]
struct AcpTask {
    /// The canonical status last emitted.
    status: Option<&'static str>,
    content_next: u64,
    thoughts: u64,
    requests: u32,
    open_input: Option<String>,
    /// Tool calls started and not finished, oldest first.
    running: Vec<String>,
    tool_seq: u64,
}

#[derive(Debug, Default)]
struct ToolTrack {
    finished: bool,
    name: String,
    /// Its last attempt failed with `will_retry: true`: the next `started` is that retry.
    retrying: bool,
}

/// A2A-ACP decoding state of one connection.
#[derive(Debug, Default)]
pub struct AcpDecoder {
    tasks: Table<AcpTask>,
    tools: Table<ToolTrack>,
    /// Open permission requests: input id → the option ids the client may choose.
    permissions: Table<Vec<String>>,
    next_rpc_id: u64,
    /// An `input_required` is being read (its tool call's confirmation is that request, not
    /// another).
    asking: bool,
}

fn canonical_state(s: &str) -> Option<Option<&'static str>> {
    Some(Some(match s {
        "submitted" | "pending" => return Some(None),
        "working" | "running" => "working",
        "input-required" | "input_required" => "waiting-input",
        "auth-required" | "auth_required" => "waiting-auth",
        "completed" => "completed",
        "failed" | "rejected" => "failed",
        "cancelled" | "canceled" => "canceled",
        _ => return None,
    }))
}

/// The development-tool metadata inside a `metadata` object, if any.
fn dev_tool<'v, 'a>(meta: Option<&'v Value<'a>>) -> Option<&'v Value<'a>> {
    get(meta, "development-tool")
        .or_else(|| get(meta, DEV_TOOL_URI))
        .filter(|d| d.as_object().is_some())
}

fn dev_kind(dt: &Value<'_>) -> String {
    get_str(Some(dt), "kind").unwrap_or("").to_ascii_lowercase()
}

impl AcpDecoder {
    /// Registers a request the client is about to send; returns its JSON-RPC id.
    pub fn next_request_id(&mut self) -> u64 {
        self.next_rpc_id += 1;
        self.next_rpc_id
    }

    /// The option ids of an open permission request (`None`: not a permission request).
    pub fn permission_options(&self, input_id: &str) -> Option<&[String]> {
        self.permissions.get(input_id).map(Vec::as_slice)
    }

    pub(crate) fn close_input(&mut self, input_id: &str) -> bool {
        self.permissions.remove(input_id);
        for (_, t) in self.tasks.iter_mut() {
            if t.open_input.as_deref() == Some(input_id) {
                t.open_input = None;
                return true;
            }
        }
        false
    }

    pub(crate) fn decode(&mut self, v: &Value<'_>, clock: &mut Clock, sink: &mut Sink<'_>) {
        let Some(event) = get_str(Some(v), "event") else {
            sink.require_error(Some(v), "event", "string", "$.event");
            return;
        };
        sink.kind = Some(event.to_owned());
        let task = get_str(Some(v), "task_id");
        sink.task = task.map(str::to_owned);
        let own_ts = get_str(Some(v), "timestamp");
        if own_ts.is_none() && v.get("timestamp").is_some_and(|t| !t.is_null()) {
            sink.require_warn(Some(v), "timestamp", "string", "$.timestamp");
        }
        let ts = clock.stamp(own_ts);
        match event {
            "authentication" | "security_audit" => {
                let kind = format!("internal:acp:{event}");
                let ctx = get_str(Some(v), "context_id");
                sink.event(unknown_event(&kind, ctx, task, &redacted(v, 0)));
                return;
            }
            _ => {}
        }
        let data = v.get("data").filter(|d| d.as_object().is_some());
        let known = matches!(
            event,
            "status_change"
                | "message"
                | "input_required"
                | "task_governor_followup"
                | "task_feedback_required"
                | "artifact"
                | "tool_execution"
                | "tool_call_update"
                | "thought"
                | "governance_event"
        );
        if !known {
            let ctx = get_str(Some(v), "context_id");
            sink.event(unknown_event(&format!("acp:{event}"), ctx, task, v));
            return;
        }
        let Some(task) = task else {
            sink.require_error(Some(v), "task_id", "string", "$.task_id");
            return;
        };
        let Some(data) = data else {
            sink.require_error(Some(v), "data", "object", "$.data");
            return;
        };
        let ctx = get_str(Some(v), "context_id")
            .or_else(|| get_str(Some(v), "contextId"))
            .or_else(|| get_str(Some(data), "context_id"))
            .unwrap_or(task)
            .to_owned();
        let cx = Cx {
            task,
            ctx: &ctx,
            ts: &ts,
            root: v,
        };
        // Each handler validates first and creates the task only for an event it applies.
        match event {
            "status_change" => self.status_change(&cx, data, sink),
            "message" => self.message(&cx, data, sink),
            "input_required" => self.input_required(&cx, data, sink),
            "task_feedback_required" => self.feedback_required(&cx, data, sink),
            "task_governor_followup" => self.governor_followup(&cx, data, sink),
            "artifact" => self.artifact(&cx, data, sink),
            "tool_execution" => self.tool_execution(&cx, data, sink),
            // Push-notification kinds of the development-tool extension: the data is the event.
            _ => {
                self.ensure_task(&cx, sink);
                self.dev_tool_event(&cx, data, Some(event), false, None, sink)
            }
        }
        self.tasks.bound(MAX_TRACKED, |_, t| {
            !matches!(t.status, Some("completed" | "failed" | "canceled"))
        });
        self.tools.bound(MAX_TRACKED, |_, t| !t.finished);
    }

    fn ensure_task(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
        if self.tasks.contains(cx.task) {
            return;
        }
        self.tasks.insert(cx.task, AcpTask::default());
        let mut e = Obj::event("task-created", cx.ctx, cx.task);
        e.str("initiator", "user").str("timestamp", cx.ts);
        let mut m = Obj::new();
        let mut a = Obj::new();
        a.opt_str("component", get_str(Some(cx.root), "component"))
            .opt_str("version", get_str(Some(cx.root), "version"));
        m.obj_if("acp", a);
        e.obj_if("metadata", m);
        sink.event(e.finish());
    }

    /// An `acp` metadata object: the notification's unmapped members.
    fn acp_meta(cx: &Cx<'_>, data: &Value<'_>, skip: &[&str]) -> Obj {
        let mut a = Obj::new();
        a.str("event", get_str(Some(cx.root), "event").unwrap_or(""));
        a.rest(members(Some(data)), skip);
        a.rest(
            members(Some(cx.root)),
            &["event", "task_id", "timestamp", "data", "context_id"],
        );
        a
    }

    fn status(
        &mut self,
        cx: &Cx<'_>,
        status: &'static str,
        message: Option<&str>,
        meta: Obj,
        sink: &mut Sink<'_>,
    ) {
        if let Some(t) = self.tasks.get_mut(cx.task) {
            t.status = Some(status);
        }
        let mut e = Obj::event("task-status", cx.ctx, cx.task);
        e.str("status", status)
            .opt_str("message", message)
            .str("timestamp", cx.ts);
        e.obj_if("metadata", meta);
        sink.event(e.finish());
    }

    fn status_change(&mut self, cx: &Cx<'_>, data: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(new) = get_str(Some(data), "new_state") else {
            sink.require_error(Some(data), "new_state", "string", "$.data.new_state");
            return;
        };
        let Some(status) = canonical_state(new) else {
            sink.error(
                DiagCode::InvalidEnum,
                format!("{} is not a task state (submitted, working, input-required, auth-required, completed, failed, cancelled, rejected)", crate::json::Quoted(new)),
                "$.data.new_state",
            );
            return;
        };
        self.ensure_task(cx, sink);
        if status != Some("waiting-input") {
            let ended_unanswered = matches!(status, Some("failed" | "canceled"));
            self.close_open_input_as(cx, !ended_unanswered, sink);
        }
        let current = self.tasks.get(cx.task).and_then(|t| t.status);
        let changed = status.filter(|s| current != Some(*s));
        if let Some(status) = changed {
            let mut m = Obj::new();
            if matches!(status, "failed" | "canceled") {
                let reason = if new == "rejected" {
                    Some("rejected")
                } else {
                    get_str(Some(data), "message")
                };
                m.opt_str("reason", reason);
            }
            if matches!(status, "waiting-input" | "waiting-auth") {
                m.str("blockedBy", "user");
            }
            m.obj("acp", Self::acp_meta(cx, data, &["new_state", "message"]));
            self.status(cx, status, get_str(Some(data), "message"), m, sink);
        }
        if let Some(dt) = dev_tool(get(Some(data), "metadata")) {
            // A status that did not change (the push example's `working → working`) emits no
            // `task-status`: the carrier's own members then go with what the metadata becomes.
            let carrier = changed
                .is_none()
                .then(|| Self::acp_meta(cx, data, &["metadata"]));
            self.dev_tool_event(cx, dt, None, changed.is_some(), carrier, sink);
        }
    }

    fn message(&mut self, cx: &Cx<'_>, data: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(content) = get_str(Some(data), "message_content") else {
            sink.require_error(
                Some(data),
                "message_content",
                "string",
                "$.data.message_content",
            );
            return;
        };
        self.ensure_task(cx, sink);
        let role = get_str(Some(data), "message_role").unwrap_or("assistant");
        if !matches!(role, "assistant" | "agent") {
            sink.event(unknown_event(
                "acp:message",
                Some(cx.ctx),
                Some(cx.task),
                cx.root,
            ));
            return;
        }
        let Some(t) = self.tasks.get_mut(cx.task) else {
            return;
        };
        let idx = t.content_next;
        t.content_next += 1;
        let mut delta = String::with_capacity(content.len() + 2);
        if idx > 0 {
            delta.push_str("\n\n");
        }
        delta.push_str(content);
        let mut e = Obj::event("content-delta", cx.ctx, cx.task);
        e.str("delta", &delta)
            .num("index", idx as f64)
            .str("timestamp", cx.ts);
        let mut m = Obj::new();
        m.obj("acp", Self::acp_meta(cx, data, &["message_content"]));
        e.obj("metadata", m);
        sink.event(e.finish());
    }

    fn thought(
        &mut self,
        cx: &Cx<'_>,
        thought_type: &str,
        content: &str,
        meta: Obj,
        sink: &mut Sink<'_>,
    ) {
        let Some(t) = self.tasks.get_mut(cx.task) else {
            return;
        };
        let idx = t.thoughts;
        t.thoughts += 1;
        let mut e = Obj::event("thought-stream", cx.ctx, cx.task);
        e.str("thoughtId", &format!("{}#thought-{idx}", cx.task))
            .str("thoughtType", thought_type)
            .str("verbosity", "normal")
            .str("content", content)
            .num("index", idx as f64)
            .str("timestamp", cx.ts);
        e.obj_if("metadata", meta);
        sink.event(e.finish());
    }

    fn governor_followup(&mut self, cx: &Cx<'_>, data: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(prompt) = get_str(Some(data), "prompt") else {
            sink.require_error(Some(data), "prompt", "string", "$.data.prompt");
            return;
        };
        if get_str(Some(data), "governor_id").is_none() {
            sink.require_warn(Some(data), "governor_id", "string", "$.data.governor_id");
        }
        self.ensure_task(cx, sink);
        let mut m = Obj::new();
        m.obj("acp", Self::acp_meta(cx, data, &["prompt"]));
        self.thought(cx, "reflection", prompt, m, sink);
    }
}

struct Cx<'c> {
    task: &'c str,
    ctx: &'c str,
    ts: &'c str,
    root: &'c Value<'c>,
}
