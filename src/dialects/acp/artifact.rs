//! A2A-ACP artifacts: `artifact` notifications as canonical artifact events.

use super::{AcpDecoder, Cx};
use crate::dialects::emit::{get, get_num, get_str, Obj, Sink};
use crate::json::Value;

impl AcpDecoder {
    pub(super) fn artifact(&mut self, cx: &Cx<'_>, data: &Value<'_>, sink: &mut Sink<'_>) {
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
}
