//! `message` events: an agent's direct reply (a task of its own that completes at once) or a
//! message on a task (its text goes to the task's answer, its file and data parts become
//! artifacts `<messageId>#<i>`). A user's message is kept whole as an unknown event.

use super::artifacts::Update;
use super::parts::{self, PartKind};
use super::version::parse_role;
use super::{A2aDecoder, At, TaskState};
use crate::dialects::emit::{get, get_str, Obj, Sink};
use crate::dialects::unknown_event;
use crate::events::DiagCode;
use crate::json::Value;

impl A2aDecoder {
    pub(super) fn message(&mut self, ev: &Value<'_>, at: &At, sink: &mut Sink<'_>) {
        let role_value = ev.get("role");
        let role = role_value.map(|r| parse_role(r, at.version));
        let message_id = get_str(Some(ev), "messageId");
        let parts = ev.get("parts").and_then(Value::as_array);
        for (key, ok, what) in [
            ("messageId", message_id.is_some(), "string"),
            ("role", role.is_some(), "string"),
            ("parts", parts.is_some(), "array"),
        ] {
            if !ok {
                sink.require_error(Some(ev), key, what, &at.path(&format!(".{key}")));
            }
        }
        let (Some(role), Some(message_id), Some(parts)) = (role, message_id, parts) else {
            return;
        };
        let task_ref = get_str(Some(ev), "taskId");
        let ctx_ref = get_str(Some(ev), "contextId");
        if role != Some("agent") {
            if role.is_none() {
                let names = match at.version {
                    super::Version::V03 => "user, agent",
                    super::Version::V10 => "ROLE_USER, ROLE_AGENT",
                };
                sink.warn(
                    DiagCode::InvalidEnum,
                    format!(
                        "{} is not one of {names} (kept as an unknown event)",
                        role_value.map(Value::to_json).unwrap_or_default()
                    ),
                    &at.path(".role"),
                );
            }
            sink.event(unknown_event("a2a:message", ctx_ref, task_ref, ev));
            return;
        }
        let task = task_ref.unwrap_or(message_id).to_owned();
        let ctx = ctx_ref
            .map(str::to_owned)
            .or_else(|| self.tasks.get(&task).map(|t| t.context_id.clone()))
            .unwrap_or_else(|| message_id.to_owned());
        let mut meta = Obj::new();
        let mut a = Obj::new();
        a.str("messageId", message_id);
        meta.obj("a2a", a);
        self.ensure_task(&task, &ctx, at, Some(meta), sink);
        let mut text = String::new();
        for (i, p) in parts.iter().enumerate() {
            match parts::read(p) {
                Ok(part) if part.kind == PartKind::Text => text.push_str(part.text.unwrap_or("")),
                Ok(part) => {
                    let k = part.kind;
                    let art = Value::Object(vec![
                        (
                            "artifactId".into(),
                            Value::String(format!("{message_id}#{i}").into()),
                        ),
                        ("parts".into(), Value::Array(vec![p.clone()])),
                    ]);
                    let mut flags = Obj::new();
                    flags.str("messageId", message_id).str("part", k.as_str());
                    let path = at.path(&format!(".parts[{i}]"));
                    let u = Update {
                        task: &task,
                        ctx: &ctx,
                        artifact: &art,
                        append: false,
                        last: true,
                        path: &path,
                    };
                    self.apply_artifact(&u, flags, at, sink);
                }
                Err(_) => sink.require_warn(
                    Some(p),
                    "kind",
                    "text, file or data",
                    &at.path(&format!(".parts[{i}].kind")),
                ),
            }
        }
        if !text.is_empty() {
            if let Some(t) = self.tasks.get_mut(&task) {
                let idx = t.content_next;
                t.content_next += 1;
                let mut e = Obj::event("content-delta", &ctx, &task);
                e.str("delta", &text)
                    .num("index", idx as f64)
                    .str("timestamp", &at.ts);
                let mut m = Obj::new();
                let mut a = Obj::new();
                a.str("messageId", message_id);
                a.opt_value("metadata", get(Some(ev), "metadata"));
                m.obj("a2a", a);
                e.obj("metadata", m);
                sink.event(e.finish());
            }
        }
        if task_ref.is_none() {
            // A message answer without a task is final (A2A: the response is the message).
            if let Some(t) = self.tasks.get_mut(&task) {
                t.state = Some(TaskState::Completed);
            }
            let mut e = Obj::event("task-complete", &ctx, &task);
            e.str("timestamp", &at.ts);
            sink.event(e.finish());
        }
    }
}
