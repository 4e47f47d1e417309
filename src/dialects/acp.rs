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

pub mod request;

use super::emit::{get, get_bool, get_num, get_str, members, redacted, Clock, Obj, Sink};
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

    /// Closes the task's open input request (the agent moved on).
    /// `false`: no request of the task was open.
    fn close_open_input(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) -> bool {
        self.close_open_input_as(cx, true, sink)
    }

    /// Forgets the task's open input request (and its permission options); its id.
    fn take_open_input(&mut self, cx: &Cx<'_>) -> Option<String> {
        let id = self.tasks.get_mut(cx.task)?.open_input.take()?;
        self.permissions.remove(&id);
        Some(id)
    }

    /// A new question of the task while one is open: nothing says the open one was answered
    /// (the agent asked again, or asked something else), so it expires: closed, not answered.
    /// No diagnostic: a server may legitimately move on to another question.
    fn supersede_open_input(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
        let Some(id) = self.take_open_input(cx) else {
            return;
        };
        sink.step(super::emit::Step::ExpireInput(id));
    }

    /// Closes the task's open input request; `answered: false` (the task ended failed or
    /// canceled while waiting) infers no answer: the request expires with its task.
    fn close_open_input_as(&mut self, cx: &Cx<'_>, answered: bool, sink: &mut Sink<'_>) -> bool {
        let Some(id) = self.take_open_input(cx) else {
            return false;
        };
        if !answered {
            return true;
        }
        let mut e = Obj::event("input-received", cx.ctx, cx.task);
        e.str("inputId", &id)
            .str("providedBy", "user")
            .str("timestamp", cx.ts)
            .raw("metadata", r#"{"acp":{"inferred":true}}"#);
        sink.event(e.finish());
        true
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

    fn new_input(&mut self, cx: &Cx<'_>) -> Option<String> {
        let t = self.tasks.get_mut(cx.task)?;
        t.requests += 1;
        let id = format!("{}#input-{}", cx.task, t.requests);
        t.open_input = Some(id.clone());
        Some(id)
    }

    fn waiting_input(&mut self, cx: &Cx<'_>, prompt: &str, sink: &mut Sink<'_>) {
        if self.tasks.get(cx.task).and_then(|t| t.status) != Some("waiting-input") {
            let mut m = Obj::new();
            m.str("blockedBy", "user");
            self.status(cx, "waiting-input", Some(prompt), m, sink);
        }
    }

    fn input_required(&mut self, cx: &Cx<'_>, data: &Value<'_>, sink: &mut Sink<'_>) {
        let asking = std::mem::replace(&mut self.asking, true);
        self.open_input_request(cx, data, sink);
        self.asking = asking;
    }

    /// A `pending` tool call with a `confirmation_request` (seed 002's permission flow for a
    /// dangerous call) asks the user: an input request with the request's options, answered
    /// like an `input_required` (`tasks/provideInputAndContinue` with the chosen option).
    fn ask_confirmation(&mut self, cx: &Cx<'_>, tc: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(conf) = get(Some(tc), "confirmation_request") else {
            return;
        };
        let mut d = Obj::new();
        d.opt_str("prompt", get_str(get(Some(conf), "details"), "description"));
        let mut opts = String::from("[");
        for (i, o) in get(Some(conf), "options")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let Some(id) = get_str(Some(o), "id").or_else(|| get_str(Some(o), "optionId")) else {
                continue;
            };
            if i > 0 {
                opts.push(',');
            }
            let mut x = Obj::new();
            x.str("optionId", id);
            x.rest(members(Some(o)), &["id", "optionId"]);
            opts.push_str(&x.finish());
        }
        opts.push(']');
        d.raw("permission_options", &opts).value("tool_call", tc);
        let text = d.finish();
        let Ok(data) = crate::json::parse(&text) else {
            return;
        };
        self.input_required(cx, &data, sink);
    }

    fn open_input_request(&mut self, cx: &Cx<'_>, data: &Value<'_>, sink: &mut Sink<'_>) {
        self.ensure_task(cx, sink);
        let dt = dev_tool(get(Some(data), "metadata"));
        let tool_call = get(Some(data), "tool_call");
        let confirmation = get(tool_call, "confirmation_request")
            .or_else(|| dt.and_then(|d| get(get(Some(d), "tool_call"), "confirmation_request")));
        let prompt = get_str(Some(data), "prompt")
            .or_else(|| get_str(get(confirmation, "details"), "description"))
            .unwrap_or("Input required")
            .to_owned();
        // A pending tool call awaiting this confirmation shows up as a tool.
        let tool_name = get_str(tool_call, "toolId").or_else(|| get_str(tool_call, "tool_name"));
        if let Some(tc) = tool_call.filter(|tc| get_str(Some(*tc), "tool_call_id").is_some()) {
            self.tool_call_update(cx, tc, tool_name, None, None, sink);
        }
        // The document's confirmation flow elides the metadata's ToolCall (`{ ... }  // Full
        // ToolCall object`): an empty or id-less one is the `tool_call` above, not another call.
        if let Some(tc) = dt
            .filter(|d| dev_kind(d) == "tool_call_update")
            .and_then(|d| get(Some(d), "tool_call"))
            .filter(|tc| get_str(Some(*tc), "tool_call_id").is_some())
        {
            self.tool_call_update(cx, tc, tool_name, dt, None, sink);
        } else if let Some(dt) = dt.filter(|d| dev_kind(d) != "tool_call_update") {
            // The input request keeps the whole metadata (`metadata.acp.metadata`).
            self.dev_tool_event(cx, dt, None, true, None, sink);
        }
        self.supersede_open_input(cx, sink);
        self.waiting_input(cx, &prompt, sink);
        let Some(input_id) = self.new_input(cx) else {
            return;
        };
        let options = get(Some(data), "permission_options").and_then(Value::as_array);
        if let Some(v) = data
            .get("permission_options")
            .filter(|o| o.as_array().is_none() && !o.is_null())
        {
            sink.warn(
                DiagCode::InvalidType,
                format!(
                    "permission_options: expected array, found {} (ignored)",
                    v.type_name()
                ),
                "$.data.permission_options",
            );
        }
        let mut ids: Vec<String> = Vec::new();
        let mut opts = String::from("[");
        for (i, o) in options.into_iter().flatten().enumerate() {
            let Some(id) = get_str(Some(o), "optionId").or_else(|| get_str(Some(o), "id")) else {
                sink.require_warn(
                    Some(o),
                    "optionId",
                    "string",
                    &format!("$.data.permission_options[{i}].optionId"),
                );
                continue;
            };
            if !ids.is_empty() {
                opts.push(',');
            }
            let mut x = Obj::new();
            x.str("id", id);
            x.rest(members(Some(o)), &["id"]);
            opts.push_str(&x.finish());
            ids.push(id.to_owned());
        }
        opts.push(']');
        let mut e = Obj::event("input-required", cx.ctx, cx.task);
        e.str("inputId", &input_id)
            .bool("requireUser", true)
            .str(
                "inputType",
                if ids.is_empty() {
                    "clarification"
                } else {
                    "selection"
                },
            )
            .str("prompt", &prompt);
        if !ids.is_empty() {
            let mut s = Obj::new();
            s.str("type", "string")
                .str_array("enum", ids.iter().map(String::as_str));
            e.obj("schema", s).raw("options", &opts);
        }
        e.str("timestamp", cx.ts);
        let mut m = Obj::new();
        m.opt_value("toolCall", tool_call);
        m.obj(
            "acp",
            Self::acp_meta(cx, data, &["prompt", "permission_options", "tool_call"]),
        );
        e.obj("metadata", m);
        sink.event(e.finish());
        if !ids.is_empty() {
            self.permissions.insert(&input_id, ids);
        }
    }

    fn feedback_required(&mut self, cx: &Cx<'_>, data: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(message) = get_str(Some(data), "message") else {
            sink.require_error(Some(data), "message", "string", "$.data.message");
            return;
        };
        self.ensure_task(cx, sink);
        self.supersede_open_input(cx, sink);
        self.waiting_input(cx, message, sink);
        let Some(input_id) = self.new_input(cx) else {
            return;
        };
        let mut e = Obj::event("input-required", cx.ctx, cx.task);
        e.str("inputId", &input_id)
            .bool("requireUser", true)
            .str("inputType", "confirmation")
            .str("prompt", message)
            .str("timestamp", cx.ts);
        let mut m = Obj::new();
        m.obj("acp", Self::acp_meta(cx, data, &["message"]));
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

    fn artifact(&mut self, cx: &Cx<'_>, data: &Value<'_>, sink: &mut Sink<'_>) {
        self.ensure_task(cx, sink);
        let name = get_str(Some(data), "artifact_name");
        if name.is_none() {
            sink.require_warn(
                Some(data),
                "artifact_name",
                "string",
                "$.data.artifact_name",
            );
        }
        let id = match name {
            Some(n) => format!("{}#{n}", cx.task),
            None => {
                let n = self.tasks.get_mut(cx.task).map_or(0, |t| {
                    t.requests += 1;
                    t.requests
                });
                format!("{}#artifact-{n}", cx.task)
            }
        };
        let ty = get_str(Some(data), "artifact_type").unwrap_or("file");
        let rows = get(Some(data), "rows").filter(|r| r.as_array().is_some());
        let mut m = Obj::new();
        if let Some(size) = get_num(Some(data), "artifact_size") {
            m.num("totalSize", size);
        }
        let skip: &[&str] = if ty == "dataset" && rows.is_some() {
            &["artifact_name", "detection_text", "rows", "schema"]
        } else {
            &["artifact_name", "detection_text"]
        };
        let mut a = Self::acp_meta(cx, data, skip);
        a.bool("contentAvailable", ty != "file");
        m.obj("acp", a);
        if let (true, Some(rows)) = (ty == "dataset", rows) {
            // Not in the seed (its only example is a file): a table with its rows, kept whole.
            let mut e = Obj::event("dataset-write", cx.ctx, cx.task);
            e.str("artifactId", &id)
                .value("rows", rows)
                .num("index", 0.0)
                .bool("complete", true)
                .str("timestamp", cx.ts)
                .opt_str("name", name)
                .opt_str("description", get_str(Some(data), "detection_text"))
                .opt_value("schema", get(Some(data), "schema"));
            e.obj("metadata", m);
            sink.event(e.finish());
        } else if ty == "file" {
            // A file by reference: its name and size are announced, its bytes are not in the
            // stream (A2A-ACP has no way to send them). One empty chunk that is not final:
            // `complete: false`, `size` 0 of `totalSize`, `metadata.reference: true` (the store
            // does not report its missing end, as for an A2A file part by URL). A later chunk
            // with the bytes (index 1 on) would complete it.
            m.bool("reference", true);
            let mut e = Obj::event("file-write", cx.ctx, cx.task);
            e.str("artifactId", &id)
                .str("data", "")
                .num("index", 0.0)
                .bool("complete", false)
                .str("timestamp", cx.ts)
                .opt_str("name", name)
                .opt_str("description", get_str(Some(data), "detection_text"));
            e.obj("metadata", m);
            sink.event(e.finish());
        } else {
            let mut e = Obj::event("data-write", cx.ctx, cx.task);
            e.str("artifactId", &id)
                .opt_str("name", name)
                .opt_str("description", get_str(Some(data), "detection_text"))
                .value("data", data)
                .str("timestamp", cx.ts);
            e.obj("metadata", m);
            sink.event(e.finish());
        }
    }

    /// The tool call id of a notification: the development-tool `tool_call_id` when present.
    fn call_id_of<'v>(data: &'v Value<'_>) -> Option<&'v str> {
        let dt = dev_tool(get(Some(data), "metadata"));
        get_str(get(dt, "tool_call"), "tool_call_id")
            .or_else(|| get_str(get(dt, "data"), "tool_call_id"))
            .or_else(|| get_str(Some(data), "tool_call_id"))
    }

    fn start_tool(
        &mut self,
        cx: &Cx<'_>,
        id: &str,
        name: &str,
        args: Option<&Value<'_>>,
        meta: Obj,
        sink: &mut Sink<'_>,
    ) {
        self.tools.insert(
            id,
            ToolTrack {
                finished: false,
                name: name.to_owned(),
                retrying: false,
            },
        );
        if let Some(t) = self.tasks.get_mut(cx.task) {
            t.running.push(id.to_owned());
        }
        let mut e = Obj::event("tool-start", cx.ctx, cx.task);
        e.str("toolCallId", id).str("toolName", name);
        match args {
            Some(a @ Value::Object(_)) => e.value("arguments", a),
            Some(other) => {
                let mut w = Obj::new();
                w.value("value", other);
                e.obj("arguments", w)
            }
            None => e.raw("arguments", "{}"),
        };
        e.str("timestamp", cx.ts);
        e.obj_if("metadata", meta);
        sink.event(e.finish());
    }

    fn progress_tool(
        &mut self,
        cx: &Cx<'_>,
        id: &str,
        message: Option<&str>,
        meta: Obj,
        sink: &mut Sink<'_>,
    ) {
        let mut e = Obj::event("tool-progress", cx.ctx, cx.task);
        e.str("toolCallId", id)
            .num("progress", 0.0)
            .opt_str("message", message)
            .str("timestamp", cx.ts);
        e.obj_if("metadata", meta);
        sink.event(e.finish());
    }

    #[allow(clippy::too_many_arguments)]
    fn finish_tool(
        &mut self,
        cx: &Cx<'_>,
        id: &str,
        name: Option<&str>,
        success: bool,
        result: Option<&Value<'_>>,
        error: Option<&str>,
        meta: Obj,
        sink: &mut Sink<'_>,
    ) {
        let known = self.tools.get(id).map(|t| t.name.clone());
        if let Some(t) = self.tools.get_mut(id) {
            t.finished = true;
        }
        if let Some(t) = self.tasks.get_mut(cx.task) {
            t.running.retain(|r| r != id);
        }
        let mut e = Obj::event("tool-complete", cx.ctx, cx.task);
        e.str("toolCallId", id)
            .str("toolName", name.or(known.as_deref()).unwrap_or(""))
            .bool("success", success)
            .opt_value("result", result)
            .opt_str("error", error)
            .str("timestamp", cx.ts);
        e.obj_if("metadata", meta);
        sink.event(e.finish());
    }

    fn tool_execution(&mut self, cx: &Cx<'_>, data: &Value<'_>, sink: &mut Sink<'_>) {
        let Some(tool) = get_str(Some(data), "tool_id") else {
            sink.require_error(Some(data), "tool_id", "string", "$.data.tool_id");
            return;
        };
        let Some(status) = get_str(Some(data), "status") else {
            sink.require_error(Some(data), "status", "string", "$.data.status");
            return;
        };
        if !matches!(status, "started" | "completed" | "failed") {
            sink.error(
                DiagCode::InvalidEnum,
                format!(
                    "{} is not one of started, completed, failed",
                    crate::json::Quoted(status)
                ),
                "$.data.status",
            );
            return;
        }
        self.ensure_task(cx, sink);
        // Which call: the development-tool id, else the latest running call of this tool.
        let running_same = || {
            self.tasks.get(cx.task).and_then(|t| {
                t.running
                    .iter()
                    .rev()
                    .find(|r| self.tools.get(r).is_some_and(|x| x.name == tool))
                    .cloned()
            })
        };
        // A `started` without ids is a new call, unless it is the retry that the latest
        // running call of this tool announced (`will_retry`) or it says it is one.
        let is_retry = |r: &String| {
            get_num(Some(data), "retry_attempt").is_some()
                || self.tools.get(r).is_some_and(|t| t.retrying)
        };
        let id = match Self::call_id_of(data) {
            Some(id) => id.to_owned(),
            None => match (status, running_same()) {
                (_, Some(r)) if status != "started" || is_retry(&r) => r,
                _ => {
                    let n = self.tasks.get_mut(cx.task).map_or(0, |t| {
                        t.tool_seq += 1;
                        t.tool_seq
                    });
                    format!("{}#{tool}-{n}", cx.task)
                }
            },
        };
        let started = self.tools.get(&id).is_some_and(|t| !t.finished);
        let mut acp = Self::acp_meta(cx, data, &["tool_id", "parameters", "output", "error"]);
        match status {
            "started" => {
                if started {
                    // A retry of a call that is still running, or a pending call now executing.
                    let retry = get_num(Some(data), "retry_attempt");
                    let msg = retry.map_or_else(
                        || "executing".to_owned(),
                        |n| format!("retry attempt {}", crate::json::Num(n)),
                    );
                    let mut m = Obj::new();
                    m.obj("acp", acp);
                    self.progress_tool(cx, &id, Some(&msg), m, sink);
                } else {
                    let mut m = Obj::new();
                    m.obj("acp", acp);
                    self.start_tool(cx, &id, tool, get(Some(data), "parameters"), m, sink);
                }
            }
            "completed" => {
                let mut m = Obj::new();
                if let Some(t) = get_num(Some(data), "execution_time") {
                    m.num("duration", t * 1000.0);
                }
                if let Some(c) = get_bool(Some(data), "cached") {
                    m.bool("cached", c);
                }
                m.obj("acp", acp);
                self.finish_tool(
                    cx,
                    &id,
                    Some(tool),
                    true,
                    get(Some(data), "output"),
                    None,
                    m,
                    sink,
                );
            }
            _ => {
                let error = get_str(Some(data), "error").unwrap_or("tool execution failed");
                if get_bool(Some(data), "will_retry") == Some(true) {
                    let attempt = get_num(Some(data), "retry_attempt");
                    let msg = match attempt {
                        Some(n) => {
                            format!("attempt {} failed: {error}; retrying", crate::json::Num(n))
                        }
                        None => format!("failed: {error}; retrying"),
                    };
                    acp.str("error", error);
                    let mut m = Obj::new();
                    m.obj("acp", acp);
                    if !started {
                        self.start_tool(
                            cx,
                            &id,
                            tool,
                            get(Some(data), "parameters"),
                            Obj::new(),
                            sink,
                        );
                    }
                    self.progress_tool(cx, &id, Some(&msg), m, sink);
                } else {
                    let mut m = Obj::new();
                    if let Some(t) = get_num(Some(data), "execution_time") {
                        m.num("duration", t * 1000.0);
                    }
                    if let Some(n) = get_num(Some(data), "retry_attempt")
                        .filter(|n| *n >= 0.0 && n.fract() == 0.0)
                    {
                        m.num("retries", n);
                    }
                    m.obj("acp", acp);
                    let result = get(
                        dev_tool(get(Some(data), "metadata"))
                            .and_then(|d| get(Some(d), "tool_call")),
                        "result",
                    );
                    self.finish_tool(cx, &id, Some(tool), false, result, Some(error), m, sink);
                }
            }
        }
        if let Some(t) = self.tools.get_mut(&id) {
            t.retrying = status == "failed" && get_bool(Some(data), "will_retry") == Some(true);
        }
    }

    /// A development-tool `ToolCall` update. `dt`: the development-tool object that carries it
    /// (its members beside the ToolCall, e.g. `model` and `user_tier`, go to `metadata.acp`);
    /// `carrier`: the members of a notification that emitted nothing of its own.
    fn tool_call_update(
        &mut self,
        cx: &Cx<'_>,
        tc: &Value<'_>,
        fallback_name: Option<&str>,
        dt: Option<&Value<'_>>,
        carrier: Option<Obj>,
        sink: &mut Sink<'_>,
    ) {
        // Without an id (the document's push example has none) the update is about the
        // task's running call when exactly one runs; with none or several (which one is a
        // guess that could mark another call succeeded) it is a call of its own, seen at its
        // update (`<task>#update-<n>`). A warning says which.
        let id = match get_str(Some(tc), "tool_call_id") {
            Some(id) => id.to_owned(),
            None => {
                let running = self
                    .tasks
                    .get(cx.task)
                    .and_then(|t| (t.running.len() == 1).then(|| t.running[0].clone()));
                let (id, what) = match running {
                    Some(r) => (r, "applied to the one running call"),
                    None => {
                        let n = self.tasks.get_mut(cx.task).map_or(0, |t| {
                            t.tool_seq += 1;
                            t.tool_seq
                        });
                        (format!("{}#update-{n}", cx.task), "a call of its own")
                    }
                };
                sink.warn(
                    DiagCode::MissingField,
                    format!("tool_call_update without tool_call_id: {what}, {id}"),
                    "$.data.metadata.development-tool.tool_call.tool_call_id",
                );
                id
            }
        };
        let status = get_str(Some(tc), "status")
            .unwrap_or("")
            .to_ascii_lowercase();
        let tracked = self.tools.get(&id);
        let started = tracked.is_some();
        let finished = tracked.is_some_and(|t| t.finished);
        if finished {
            return;
        }
        let name = get_str(Some(tc), "tool_name").or(fallback_name);
        let mut a = Obj::new();
        a.str("status", &status);
        a.rest(
            members(Some(tc)),
            &[
                "tool_call_id",
                "tool_name",
                "input_parameters",
                "result",
                "status",
            ],
        );
        a.rest(members(dt), &["tool_call", "data"]);
        if let Some(c) = carrier {
            a.obj("carrier", c);
        }
        let mut m = Obj::new();
        m.obj("acp", a);
        let terminal = matches!(
            status.as_str(),
            "succeeded" | "failed" | "cancelled" | "canceled"
        );
        if terminal && !started && get_str(Some(tc), "tool_call_id").is_none() {
            // A call seen only at its end: started and ended by this update.
            self.start_tool(
                cx,
                &id,
                name.unwrap_or("tool"),
                get(Some(tc), "input_parameters"),
                Obj::new(),
                sink,
            );
        }
        match status.as_str() {
            "pending" | "executing" => {
                if !started {
                    self.start_tool(cx, &id, name.unwrap_or("tool"), get(Some(tc), "input_parameters"), m, sink);
                    if status == "pending" && !self.asking {
                        self.ask_confirmation(cx, tc, sink);
                    }
                } else if status == "executing" {
                    let msg = get_str(Some(tc), "live_content").unwrap_or("executing");
                    self.progress_tool(cx, &id, Some(msg), m, sink);
                }
            }
            "succeeded" => {
                let result = get(Some(tc), "result");
                self.finish_tool(cx, &id, name, true, result, None, m, sink);
            }
            "failed" | "cancelled" | "canceled" => {
                let result = get(Some(tc), "result");
                let default = if status == "failed" { "failed" } else { "cancelled" };
                let err = get_str(result, "message").unwrap_or(default).to_owned();
                self.finish_tool(cx, &id, name, false, result, Some(&err), m, sink);
            }
            other => sink.warn(
                DiagCode::InvalidEnum,
                format!("tool_call status {} is not one of pending, executing, succeeded, failed, cancelled (ignored)", crate::json::Quoted(other)),
                "$.data.metadata.development-tool.tool_call.status",
            ),
        }
    }

    /// Development-tool metadata (or a push notification of one of its kinds). `kept`: the
    /// carrier's own event keeps the metadata (`metadata.acp.metadata`); when it does not (a
    /// push notification, a `status_change` whose state did not change), a kind that maps to
    /// nothing here becomes an unknown `acp:development-tool:<kind>` event carrying the whole
    /// notification, so that nothing the server sent is dropped.
    fn dev_tool_event(
        &mut self,
        cx: &Cx<'_>,
        dt: &Value<'_>,
        event: Option<&str>,
        kept: bool,
        carrier: Option<Obj>,
        sink: &mut Sink<'_>,
    ) {
        let kind = match event {
            Some(e) if get_str(Some(dt), "kind").is_none() => e.to_owned(),
            _ => dev_kind(dt),
        };
        let payload = get(Some(dt), "data");
        let applied = match kind.as_str() {
            "tool_call_update" => {
                match get(Some(dt), "tool_call")
                    .or(payload)
                    .filter(|x| x.as_object().is_some())
                {
                    Some(tc) => {
                        self.tool_call_update(cx, tc, None, Some(dt), carrier, sink);
                        true
                    }
                    None => false,
                }
            }
            // With no request open there is nothing to close: kept as an unknown event.
            "tool_call_confirmation" => self.close_open_input(cx, sink),
            "thought" => {
                let content = get_str(Some(dt), "content").or_else(|| get_str(payload, "content"));
                if let Some(c) = content {
                    let mut m = Obj::new();
                    let mut a = Obj::new();
                    a.str("kind", "thought");
                    a.rest(members(Some(dt)), &["kind", "content"]);
                    if let Some(c) = carrier {
                        a.obj("carrier", c);
                    }
                    m.obj("acp", a);
                    self.thought(cx, "reasoning", c, m, sink);
                }
                content.is_some()
            }
            "governance_event" if event.is_some() || !kept => {
                let content = get_str(payload, "governor_summary")
                    .or_else(|| get_str(payload, "final_decision"))
                    .or_else(|| get_str(Some(dt), "content"));
                if let Some(c) = content {
                    let mut m = Obj::new();
                    let mut a = Obj::new();
                    a.rest(members(Some(dt)), &[]);
                    if let Some(c) = carrier {
                        a.obj("carrier", c);
                    }
                    m.obj("acp", a);
                    self.thought(cx, "decision", c, m, sink);
                }
                content.is_some()
            }
            "text_content" => {
                let id =
                    get_str(Some(dt), "tool_call_id").or_else(|| get_str(payload, "tool_call_id"));
                let text = get_str(Some(dt), "content")
                    .or_else(|| get_str(payload, "content"))
                    .or_else(|| get_str(Some(dt), "text"));
                let running = id.is_some_and(|i| self.tools.get(i).is_some_and(|t| !t.finished));
                if let (Some(id), Some(text), true) = (id, text, running) {
                    let id = id.to_owned();
                    let mut m = Obj::new();
                    let mut a = Obj::new();
                    a.rest(members(Some(dt)), &["content"]);
                    m.obj("acp", a);
                    self.progress_tool(cx, &id, Some(text), m, sink);
                    true
                } else {
                    false
                }
            }
            // state_change (its payload is not given by the document) and governance
            // metadata on other events: kept in their carrier's metadata.
            _ => false,
        };
        if !applied && !kept {
            let ctx = cx.ctx;
            sink.event(unknown_event(
                &format!("acp:development-tool:{kind}"),
                Some(ctx),
                Some(cx.task),
                cx.root,
            ));
        }
    }
}

struct Cx<'c> {
    task: &'c str,
    ctx: &'c str,
    ts: &'c str,
    root: &'c Value<'c>,
}
