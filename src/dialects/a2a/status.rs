//! Tasks and their status: `task` snapshots, `status-update`s, and the input and auth requests
//! an interrupted state opens.

use super::parts::{message_data, message_text};
use super::{A2aDecoder, At, TaskState, TaskTrack, Version};
use crate::dialects::emit::{get, get_bool, get_str, members, Obj, Sink};
use crate::events::DiagCode;
use crate::json::Value;

impl A2aDecoder {
    /// Tracks a task, emitting `task-created` the first time. Returns `true` when it was new.
    pub(super) fn ensure_task(
        &mut self,
        task_id: &str,
        context_id: &str,
        at: &At,
        metadata: Option<Obj>,
        sink: &mut Sink<'_>,
    ) -> bool {
        self.last_task = Some(task_id.to_owned());
        let mut user = None;
        if let Some(req) = self.responding.and_then(|i| self.sent.get_mut(i)) {
            let root = req.task_id.get_or_insert_with(|| task_id.to_owned());
            self.stream_root = Some(root.clone());
            self.stream_unnamed = false;
            user = req.user.take();
        } else if self.stream_unnamed {
            // Bare events on the new stream (no JSON-RPC ids to match): its first task.
            self.stream_root = Some(task_id.to_owned());
            self.stream_unnamed = false;
            user = self.sent.back_mut().and_then(|s| s.user.take());
        }
        sink.task = Some(task_id.to_owned());
        if let Some(t) = self.tasks.get_mut(task_id) {
            if t.context_id.is_empty() {
                t.context_id = context_id.to_owned();
            }
            let ctx = t.context_id.clone();
            user_message(&ctx, task_id, user, at, sink);
            return false;
        }
        self.tasks.insert(
            task_id,
            TaskTrack {
                context_id: context_id.to_owned(),
                ..TaskTrack::default()
            },
        );
        let mut e = Obj::event("task-created", context_id, task_id);
        e.str("initiator", "user").str("timestamp", &at.ts);
        if let Some(m) = metadata {
            e.obj_if("metadata", m);
        }
        sink.event(e.finish());
        user_message(context_id, task_id, user, at, sink);
        true
    }

    pub(super) fn required_ids<'v>(
        &self,
        ev: &'v Value<'_>,
        id_key: &str,
        at: &At,
        sink: &mut Sink<'_>,
    ) -> Option<(&'v str, &'v str)> {
        let id = get_str(Some(ev), id_key);
        let ctx = get_str(Some(ev), "contextId");
        if let Some(id) = id {
            sink.task = Some(id.to_owned());
        }
        if id.is_none() {
            sink.require_error(Some(ev), id_key, "string", &at.path(&format!(".{id_key}")));
        }
        if ctx.is_none() {
            sink.require_error(Some(ev), "contextId", "string", &at.path(".contextId"));
        }
        Some((id?, ctx?))
    }

    pub(super) fn task(&mut self, ev: &Value<'_>, at: &At, sink: &mut Sink<'_>) {
        let ids = self.required_ids(ev, "id", at, sink);
        let status = ev.get("status").filter(|s| s.as_object().is_some());
        if status.is_none() {
            sink.require_error(Some(ev), "status", "object", &at.path(".status"));
        }
        let (Some((id, ctx)), Some(status)) = (ids, status) else {
            return;
        };
        let Some(state) = self.state_of(status, at, sink) else {
            return;
        };
        let mut meta = Obj::new();
        meta.rest(members(get(Some(ev), "metadata")), &["a2a"]);
        let mut a = Obj::new();
        a.opt_value("history", get(Some(ev), "history"));
        a.rest(
            members(Some(ev)),
            &[
                "kind",
                "id",
                "contextId",
                "status",
                "history",
                "artifacts",
                "metadata",
            ],
        );
        meta.obj_if("a2a", a);
        let new = self.ensure_task(id, ctx, at, Some(meta), sink);
        if let Some(arts) = ev.get("artifacts") {
            match arts.as_array() {
                Some(list) => {
                    for (i, art) in list.iter().enumerate() {
                        let path = at.path(&format!(".artifacts[{i}]"));
                        self.snapshot_artifact(id, ctx, art, state.is_terminal(), &path, at, sink);
                    }
                }
                None => sink.require_warn(Some(ev), "artifacts", "array", &at.path(".artifacts")),
            }
        }
        let same = self.tasks.get(id).and_then(|t| t.state) == Some(state);
        if !same || new {
            self.apply_state(id, ctx, state, status, None, None, at, sink);
        }
    }

    fn state_of(&self, status: &Value<'_>, at: &At, sink: &mut Sink<'_>) -> Option<TaskState> {
        let path = at.path(".status.state");
        if at.version == Version::V10 {
            let Some(v) = status.get("state") else {
                sink.require_error(Some(status), "state", "string", &path);
                return None;
            };
            let state = TaskState::parse_v10(v);
            if state.is_none() {
                let msg = format!(
                    "{} is not one of {}",
                    v.to_json(),
                    TaskState::V10_NAMES.join(", ")
                );
                sink.error(DiagCode::InvalidEnum, msg, &path);
            }
            return state;
        }
        let Some(name) = get_str(Some(status), "state") else {
            sink.require_error(Some(status), "state", "string", &path);
            return None;
        };
        let state = TaskState::parse(name);
        if state.is_none() {
            let msg = format!(
                "{} is not one of {}",
                crate::json::Quoted(name),
                TaskState::NAMES.join(", ")
            );
            sink.error(DiagCode::InvalidEnum, msg, &path);
        }
        state
    }

    pub(super) fn status_update(&mut self, ev: &Value<'_>, at: &At, sink: &mut Sink<'_>) {
        let ids = self.required_ids(ev, "taskId", at, sink);
        let status = ev.get("status").filter(|s| s.as_object().is_some());
        if status.is_none() {
            sink.require_error(Some(ev), "status", "object", &at.path(".status"));
        }
        let (Some((task, ctx)), Some(status)) = (ids, status) else {
            return;
        };
        let Some(state) = self.state_of(status, at, sink) else {
            return;
        };
        // v1.0 has no `final`: the server closes the stream after a terminal or interrupted
        // state.
        let fin = get_bool(Some(ev), "final");
        if fin.is_none() && at.version == Version::V03 {
            sink.require_warn(Some(ev), "final", "boolean", &at.path(".final"));
        }
        self.ensure_task(task, ctx, at, None, sink);
        self.apply_state(
            task,
            ctx,
            state,
            status,
            fin,
            get(Some(ev), "metadata"),
            at,
            sink,
        );
    }

    /// Emits what a task's move into `state` means canonically.
    #[allow(clippy::too_many_arguments)]
    fn apply_state(
        &mut self,
        task: &str,
        ctx: &str,
        state: TaskState,
        status: &Value<'_>,
        fin: Option<bool>,
        ev_meta: Option<&Value<'_>>,
        at: &At,
        sink: &mut Sink<'_>,
    ) {
        let message = get(Some(status), "message");
        let text = message_text(message);
        let data = message_data(message);
        // A request is opened when the task starts waiting, and again when it still (or again)
        // waits after the client answered the open one: the agent asks a follow-up question.
        let (mut asks_input, mut asks_auth) = (true, true);
        let (prev, has_content, open_input, open_auth) = match self.tasks.get_mut(task) {
            Some(t) => {
                asks_input = t.state != Some(TaskState::InputRequired) || t.open_input.is_none();
                asks_auth = t.state != Some(TaskState::AuthRequired) || t.open_auth.is_none();
                let prev = t.state.replace(state);
                let input = if state != TaskState::InputRequired {
                    t.open_input.take()
                } else {
                    None
                };
                let auth = if state != TaskState::AuthRequired {
                    t.open_auth.take()
                } else {
                    None
                };
                (prev, t.content_next > 0, input, auth)
            }
            None => (None, false, None, None),
        };
        infer_answers(ctx, task, state, open_input, open_auth, at, sink);
        // metadata: the event's own members, then what A2A says that 000 has no field for.
        let mut meta = Obj::new();
        meta.rest(members(ev_meta), &["a2a", "reason"]);
        let reason = get_str(ev_meta, "reason")
            .or_else(|| get_str(ev_meta, "error"))
            .map(str::to_owned)
            .or_else(|| match state {
                TaskState::Rejected => Some("rejected".to_owned()),
                TaskState::Failed | TaskState::Canceled => text.clone(),
                _ => None,
            });
        if state.is_terminal() {
            meta.opt_str("reason", reason.as_deref());
        }
        let mut a = Obj::new();
        a.str(
            "state",
            match at.version {
                Version::V03 => state.as_str(),
                Version::V10 => state.as_v10_str(),
            },
        );
        if let Some(f) = fin {
            a.bool("final", f);
        }
        a.opt_value("message", message);
        if let Some(ts) = get_str(Some(status), "timestamp") {
            a.str("timestamp", ts);
        }
        let status_event = |canonical: &str, meta: Obj, message: Option<&str>| {
            let mut e = Obj::event("task-status", ctx, task);
            e.str("status", canonical)
                .opt_str("message", message)
                .str("timestamp", &at.ts);
            e.obj_if("metadata", meta);
            e.finish()
        };
        match state {
            TaskState::Working => {
                meta.obj("a2a", a);
                sink.event(status_event("working", meta, text.as_deref()));
            }
            TaskState::InputRequired => {
                meta.str("blockedBy", "user");
                let mut m2 = Obj::new();
                m2.rest(members(ev_meta), &["a2a"]);
                meta.obj("a2a", a);
                sink.event(status_event("waiting-input", meta, text.as_deref()));
                if asks_input {
                    self.input_required(task, ctx, text.as_deref(), data, m2, at, sink);
                }
            }
            TaskState::AuthRequired => {
                meta.str("blockedBy", "user");
                meta.obj("a2a", a);
                sink.event(status_event("waiting-auth", meta, text.as_deref()));
                if asks_auth {
                    self.auth_required(task, ctx, text.as_deref(), data, at, sink);
                }
            }
            TaskState::Completed => {
                self.close_open_files(task, at, sink);
                meta.obj("a2a", a);
                match text.as_deref().filter(|_| !has_content) {
                    Some(answer) => {
                        let mut e = Obj::event("task-complete", ctx, task);
                        e.str("content", answer).str("timestamp", &at.ts);
                        e.obj("metadata", meta);
                        sink.event(e.finish());
                    }
                    None => sink.event(status_event("completed", meta, text.as_deref())),
                }
            }
            TaskState::Failed | TaskState::Rejected | TaskState::Canceled => {
                self.close_open_files(task, at, sink);
                meta.obj("a2a", a);
                let canonical = if state == TaskState::Canceled {
                    "canceled"
                } else {
                    "failed"
                };
                sink.event(status_event(canonical, meta, text.as_deref()));
            }
            TaskState::Submitted | TaskState::Unknown => {
                // No canonical status: `submitted` is the task's creation, `unknown` says nothing.
                // Kept as an unknown event when it says more than that (a status message).
                if prev.is_some() || state == TaskState::Unknown || message.is_some() {
                    let mut e = Obj::new();
                    e.str("kind", "a2a:status-update")
                        .str("contextId", ctx)
                        .str("taskId", task)
                        .value("status", status)
                        .opt_value("metadata", ev_meta);
                    sink.event(e.finish());
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn input_required(
        &mut self,
        task: &str,
        ctx: &str,
        prompt: Option<&str>,
        data: Option<&Value<'_>>,
        extra_meta: Obj,
        at: &At,
        sink: &mut Sink<'_>,
    ) {
        let Some(t) = self.tasks.get_mut(task) else {
            return;
        };
        t.requests += 1;
        let input_id = format!("{task}#input-{}", t.requests);
        t.open_input = Some(input_id.clone());
        let options = get(data, "options").filter(|o| o.as_array().is_some());
        let schema = get(data, "schema");
        let input_type = get_str(data, "inputType")
            .filter(|s| crate::events::InputType::parse(s).is_some())
            .unwrap_or(if options.is_some() {
                "selection"
            } else {
                "clarification"
            });
        let mut e = Obj::event("input-required", ctx, task);
        e.str("inputId", &input_id)
            .bool("requireUser", true)
            .str("inputType", input_type)
            .str("prompt", prompt.unwrap_or("Input required"))
            .opt_value("schema", schema)
            .opt_value("options", options)
            .str("timestamp", &at.ts);
        let mut m = extra_meta;
        if let Some(d) = data {
            let mut a = Obj::new();
            a.value("data", d);
            m.obj("a2a", a);
        }
        e.obj_if("metadata", m);
        sink.event(e.finish());
    }

    fn auth_required(
        &mut self,
        task: &str,
        ctx: &str,
        prompt: Option<&str>,
        data: Option<&Value<'_>>,
        at: &At,
        sink: &mut Sink<'_>,
    ) {
        let Some(t) = self.tasks.get_mut(task) else {
            return;
        };
        t.requests += 1;
        let auth_id = format!("{task}#auth-{}", t.requests);
        t.open_auth = Some(auth_id.clone());
        let auth_type = get_str(data, "authType")
            .or_else(|| get_str(data, "auth_type"))
            .filter(|s| crate::events::AuthType::parse(s).is_some())
            .unwrap_or("custom");
        let url = get_str(data, "authUrl")
            .or_else(|| get_str(data, "auth_url"))
            .or_else(|| get_str(data, "url"));
        let mut e = Obj::event("auth-required", ctx, task);
        e.str("authId", &auth_id)
            .str("authType", auth_type)
            .opt_str("provider", get_str(data, "provider"));
        if let Some(scopes) = get(data, "scopes").and_then(Value::as_array) {
            e.str_array("scopes", scopes.iter().filter_map(Value::as_str));
        }
        e.str("prompt", prompt.unwrap_or("Authentication required"))
            .opt_str("authUrl", url)
            .str("timestamp", &at.ts);
        if let Some(d) = data {
            let mut m = Obj::new();
            if let Some(x) = get(Some(d), "expiresIn") {
                m.value("expiresIn", x);
            }
            let mut a = Obj::new();
            a.value("data", d);
            m.obj("a2a", a);
            e.obj("metadata", m);
        }
        sink.event(e.finish());
    }
}

/// The user's message a `message/stream` sent, as the first message of the task it went to.
fn user_message(
    context_id: &str,
    task_id: &str,
    user: Option<(String, String)>,
    at: &At,
    sink: &mut Sink<'_>,
) {
    let Some((id, text)) = user else { return };
    let mut m = Obj::new();
    m.str("id", &id).str("role", "user").str("content", &text);
    let mut e = Obj::event("message-upsert", context_id, task_id);
    e.obj("message", m).str("timestamp", &at.ts);
    sink.event(e.finish());
}

/// The open request of a task that moves on was answered (elsewhere): its `input-received` /
/// `auth-completed`, inferred (`metadata.a2a.inferred`).
fn infer_answers(
    ctx: &str,
    task: &str,
    state: TaskState,
    open_input: Option<String>,
    open_auth: Option<String>,
    at: &At,
    sink: &mut Sink<'_>,
) {
    // Ended failed, rejected or canceled while waiting: nobody answered, the request
    // expires with the task (as in protocol 000), no answer is inferred.
    let unanswered = matches!(
        state,
        TaskState::Failed | TaskState::Rejected | TaskState::Canceled
    );
    if let Some(input_id) = open_input.filter(|_| !unanswered) {
        let mut e = Obj::event("input-received", ctx, task);
        e.str("inputId", &input_id)
            .str("providedBy", "user")
            .str("timestamp", &at.ts);
        e.raw("metadata", r#"{"a2a":{"inferred":true}}"#);
        sink.event(e.finish());
    }
    if let Some(auth_id) = open_auth.filter(|_| !unanswered) {
        let mut e = Obj::event("auth-completed", ctx, task);
        e.str("authId", &auth_id)
            .str("userId", "user")
            .str("timestamp", &at.ts);
        e.raw("metadata", r#"{"a2a":{"inferred":true}}"#);
        sink.event(e.finish());
    }
}
