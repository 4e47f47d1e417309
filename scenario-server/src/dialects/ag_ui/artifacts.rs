//! Artifacts (`file-write`, `data-write`, `dataset-write`): the shared-state entry under
//! `/artifacts/<kind>~1<name>`, the `artifact` activity, and `CUSTOM artifact` with the whole
//! content once it is complete.

use super::{attrib, b64_len, delta, AgUiEncoder};
use crate::dialects::Canon;
use serde_json::{json, Value};

impl AgUiEncoder {
    /// Translates artifact event `ev` of `task`.
    pub(super) fn artifact(&mut self, ev: &Canon<'_>, task: &str, out: &mut Vec<Value>) {
        let sub = self.sub_of(task).map(str::to_owned);
        let aid = ev.str("artifactId").unwrap_or("artifact").to_owned();
        let info = self.artifacts.note(ev).clone();
        let kind = match ev.kind {
            "file-write" => "file",
            "data-write" => "data",
            _ => "dataset",
        };
        let name = info.name.clone().unwrap_or_else(|| aid.clone());
        let a = self.art.entry(aid.clone()).or_default();
        if a.key.is_empty() {
            a.key = format!("{kind}/{name}");
        }
        a.chunks += 1;
        let complete = match kind {
            "file" => {
                let data = ev.str("data").unwrap_or("");
                a.text.push_str(data);
                a.bytes += if info.encoding.as_deref() == Some("base64") {
                    b64_len(data)
                } else {
                    data.len() as u64
                };
                ev.get("complete").and_then(Value::as_bool) == Some(true)
            }
            "data" => {
                a.version = ev
                    .meta("version")
                    .and_then(Value::as_u64)
                    .unwrap_or(a.version + 1);
                true
            }
            _ => ev.get("complete").and_then(Value::as_bool) == Some(true),
        };
        let key = a.key.clone();
        let (chunks, bytes, version) = (a.chunks, a.bytes, a.version);
        let first_activity = !std::mem::replace(&mut a.activity, true);
        let text = if complete && kind == "file" {
            Some(std::mem::take(&mut a.text))
        } else {
            None
        };
        // The UI's card: what is known of the artifact so far.
        let mut card = json!({"artifactId": aid, "kind": kind, "name": name, "complete": complete, "taskId": task});
        match kind {
            "file" => {
                card["bytes"] = bytes.into();
                card["chunks"] = chunks.into();
                if let Some(m) = &info.mime {
                    card["mimeType"] = m.as_str().into();
                }
                if let Some(s) = &info.size {
                    card["totalSize"] = s.clone();
                }
            }
            "data" => card["version"] = version.into(),
            _ => card["rows"] = (info.rows.len() as u64).into(),
        }
        if let Some(d) = &info.description {
            card["description"] = d.as_str().into();
        }
        let op = self.put("artifacts", &key, card.clone());
        out.push(delta(vec![op]));
        let msg = format!("artifact-{aid}");
        let act = if first_activity {
            json!({"type": "ACTIVITY_SNAPSHOT", "messageId": msg, "activityType": "artifact", "content": card})
        } else {
            let mut patch = vec![json!({"op": "replace", "path": "/complete", "value": complete})];
            match kind {
                "file" => {
                    patch.push(json!({"op": "replace", "path": "/bytes", "value": bytes}));
                    patch.push(json!({"op": "replace", "path": "/chunks", "value": chunks}));
                }
                "data" => {
                    patch.push(json!({"op": "replace", "path": "/version", "value": version}))
                }
                _ => patch.push(
                    json!({"op": "replace", "path": "/rows", "value": info.rows.len() as u64}),
                ),
            }
            json!({"type": "ACTIVITY_DELTA", "messageId": msg, "activityType": "artifact", "patch": patch})
        };
        out.push(attrib(act, sub.as_deref()));
        if complete {
            let mut value = json!({"artifactId": aid, "kind": kind, "name": name});
            match kind {
                "file" => {
                    value["mimeType"] = info.mime.clone().map_or(Value::Null, Value::from);
                    value["encoding"] = info.encoding.clone().map_or(Value::Null, Value::from);
                    value["content"] = text.unwrap_or_default().into();
                }
                "data" => {
                    value["version"] = version.into();
                    value["data"] = ev.get("data").cloned().unwrap_or(Value::Null);
                }
                _ => {
                    value["schema"] = info.schema.clone().unwrap_or(Value::Null);
                    value["rows"] = Value::Array(info.rows.clone());
                }
            }
            if let Some(o) = value.as_object_mut() {
                o.retain(|_, v| !v.is_null());
            }
            out.push(attrib(
                json!({"type": "CUSTOM", "name": "artifact", "value": value}),
                sub.as_deref(),
            ));
        }
    }
}
