//! Artifacts as AI SDK chunks: every `file-write`, `data-write` and `dataset-write` updates the
//! artifact's `data-artifact` part; a complete file of at most 256 KiB is also sent as a `file`
//! part (a data URL).

use super::{base64_decode, data_part, AiSdkEncoder, MAX_DATA_URL};
use crate::dialects::Canon;
use serde_json::{json, Value};

impl AiSdkEncoder {
    pub(super) fn artifact(&mut self, ev: &Canon<'_>, task: &str, out: &mut Vec<Value>) {
        let aid = ev.str("artifactId").unwrap_or("artifact").to_owned();
        let info = self.artifacts.note(ev).clone();
        let a = self.art.entry(aid.clone()).or_default();
        a.chunks += 1;
        let name = info.name.clone().unwrap_or_else(|| aid.clone());
        let mut d = json!({"artifactId": aid, "name": name, "taskId": task});
        if let Some(x) = &info.description {
            d["description"] = x.as_str().into();
        }
        let mut file = None;
        match ev.kind {
            "file-write" => {
                let data = ev.str("data").unwrap_or("");
                let b64 = info.encoding.as_deref() == Some("base64");
                a.text.push_str(data);
                a.bytes += if b64 {
                    base64_decode(data).len() as u64
                } else {
                    data.len() as u64
                };
                let complete = ev.get("complete").and_then(Value::as_bool) == Some(true);
                let mime = info
                    .mime
                    .clone()
                    .unwrap_or_else(|| "application/octet-stream".into());
                d["kind"] = "file".into();
                d["mimeType"] = mime.as_str().into();
                d["bytes"] = a.bytes.into();
                d["chunks"] = a.chunks.into();
                d["complete"] = complete.into();
                if let Some(s) = &info.size {
                    d["totalSize"] = s.clone();
                }
                if complete {
                    let text = std::mem::take(&mut a.text);
                    if a.bytes <= MAX_DATA_URL {
                        let bytes = if b64 {
                            base64_decode(&text)
                        } else {
                            text.into_bytes()
                        };
                        let url = format!("data:{mime};base64,{}", crate::util::base64(&bytes));
                        file = Some(json!({"type": "file", "mediaType": mime, "url": url}));
                    }
                }
            }
            "data-write" => {
                a.version = ev
                    .meta("version")
                    .and_then(Value::as_u64)
                    .unwrap_or(a.version + 1);
                d["kind"] = "data".into();
                d["version"] = a.version.into();
                d["data"] = ev.get("data").cloned().unwrap_or(Value::Null);
                d["complete"] = true.into();
            }
            _ => {
                let complete = ev.get("complete").and_then(Value::as_bool) == Some(true);
                d["kind"] = "dataset".into();
                d["rowCount"] = (info.rows.len() as u64).into();
                d["complete"] = complete.into();
                if let Some(s) = &info.schema {
                    d["schema"] = s.clone();
                }
                if complete {
                    d["rows"] = Value::Array(info.rows.clone());
                }
            }
        }
        out.push(data_part("artifact", &aid, d));
        if let Some(f) = file {
            out.push(f);
        }
    }
}
