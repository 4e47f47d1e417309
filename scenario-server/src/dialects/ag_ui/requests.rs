//! `input-required` / `auth-required`: the shared-state entry and the [`Pending`] interrupt.

use super::{delta, AgUiEncoder, Pending};
use crate::dialects::Canon;
use serde_json::{json, Map, Value};

impl AgUiEncoder {
    /// Records request `ev` of `task`: `STATE_DELTA add /requests/<id>`, and a [`Pending`]
    /// interrupt when the script may wait for the client (`requireUser`, or an auth request).
    pub(super) fn request(&mut self, ev: &Canon<'_>, task: &str, out: &mut Vec<Value>) {
        let input = ev.kind == "input-required";
        let id = ev
            .str(if input { "inputId" } else { "authId" })
            .unwrap_or("")
            .to_owned();
        let prompt = ev.str("prompt").unwrap_or("");
        let mut entry = json!({
            "kind": if input { "input" } else { "auth" }, "taskId": task,
            "prompt": prompt, "status": "open",
        });
        let mut meta = Map::new();
        meta.insert("taskId".into(), task.into());
        let mut interrupt = json!({"id": id, "message": prompt});
        let mut options = Vec::new();
        if input {
            let it = ev.str("inputType").unwrap_or("text");
            entry["inputType"] = it.into();
            interrupt["reason"] = if it == "confirmation" {
                "confirmation"
            } else {
                "input_required"
            }
            .into();
            meta.insert("inputType".into(), it.into());
            if let Some(o) = ev.get("options") {
                meta.insert("options".into(), o.clone());
                options = o
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_owned)
                            .collect()
                    })
                    .unwrap_or_default();
            }
            if let Some(s) = ev.get("schema").filter(|s| s.is_object()) {
                interrupt["responseSchema"] = s.clone();
            }
            if let Some(c) = ev
                .meta("toolCall")
                .and_then(|t| t.get("id"))
                .and_then(Value::as_str)
            {
                interrupt["toolCallId"] = c.into();
            }
        } else {
            interrupt["reason"] = "auth".into();
            for k in ["authType", "provider", "scopes", "authUrl"] {
                if let Some(v) = ev.get(k) {
                    meta.insert(k.into(), v.clone());
                }
            }
            entry["provider"] = ev.get("provider").cloned().unwrap_or(Value::Null);
            interrupt["responseSchema"] = json!({
                "type": "object",
                "properties": {"userId": {"type": "string"}, "code": {"type": "string"}},
            });
        }
        if let Some(Value::Object(m)) = ev.get("metadata") {
            for (k, v) in m {
                meta.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        interrupt["metadata"] = Value::Object(meta);
        if let Some(s) = self.sub_of(task) {
            interrupt["subagentRunId"] = s.into();
        }
        if let Some(o) = entry.as_object_mut() {
            o.retain(|_, v| !v.is_null());
        }
        let op = self.put("requests", &id, entry);
        out.push(delta(vec![op]));
        let blocking = !input || ev.get("requireUser").and_then(Value::as_bool) == Some(true);
        if blocking {
            let prefix = if input { "input" } else { "auth" };
            self.pending.push(Pending {
                key: format!("{prefix}/{task}/{id}"),
                interrupt,
                task: task.to_owned(),
                options,
            });
        }
    }
}
