//! Building blocks shared by the scenarios: tools with progress, thoughts, artifacts.

use super::ctx::{fields, Ctx, Stop};
use serde_json::{json, Value};

/// A real 16×12 RGB PNG (a small bar chart), 104 bytes.
pub const CHART_PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAAL0lEQVR42mP4TyJgoL6G9y4uEIRdg8DORggacA3WTd8giI4avs7jhiD6azAmEQAA3qyl+bD75fkAAAAASUVORK5CYII=";

/// Decoded size of [`CHART_PNG_BASE64`].
pub const CHART_PNG_BYTES: usize = 104;

/// A tool call: `tool-start`, optionally `internal:tool-start`, one `tool-progress` per step
/// (`(step, message)`), `tool-complete` with `result`. Returns the `toolCallId`.
pub struct Tool<'a> {
    /// Tool name.
    pub name: &'a str,
    /// Its arguments.
    pub arguments: Value,
    /// `(metadata.step, message)` of each progress event.
    pub steps: &'a [(&'a str, &'a str)],
    /// Simulated ms between progress events.
    pub pace_ms: u64,
    /// The result of a successful call.
    pub result: Value,
    /// Also emit the `internal:tool-start` / `internal:tool-complete` twins.
    pub internal: bool,
}

impl Tool<'_> {
    /// Plays the call for `task`.
    pub async fn run(&self, ctx: &mut Ctx, task: &str) -> Result<String, Stop> {
        let call = ctx.id("call");
        let started = ctx.now();
        ctx.emit(
            "tool-start",
            task,
            fields! {
                "toolCallId": call, "toolName": (self.name), "arguments": (self.arguments),
                "metadata": {"provider": "local", "concurrent": false},
            },
        );
        if self.internal {
            ctx.emit(
                "internal:tool-start",
                task,
                fields! {"toolName": (self.name), "toolCallId": call},
            );
        }
        let total = self.steps.len();
        for (i, (step, message)) in self.steps.iter().enumerate() {
            ctx.pause_between(self.pace_ms * 4 / 5, self.pace_ms * 6 / 5)
                .await?;
            let done = i + 1;
            let progress = (done as f64 / total as f64 * 100.0).round() / 100.0;
            ctx.emit(
                "tool-progress",
                task,
                fields! {
                    "toolCallId": call, "progress": progress, "message": message,
                    "metadata": {"step": step, "stepsCompleted": done, "stepsTotal": total},
                },
            );
        }
        ctx.pause_between(50, 150).await?;
        let duration = ctx.now() - started;
        ctx.emit(
            "tool-complete",
            task,
            fields! {
                "toolCallId": call, "toolName": (self.name), "success": true,
                "result": (self.result), "metadata": {"duration": duration, "cached": false},
            },
        );
        if self.internal {
            ctx.emit(
                "internal:tool-complete",
                task,
                fields! {"toolCallId": call, "success": true},
            );
        }
        Ok(call)
    }
}

/// A `thought-stream` event (index assigned per task).
pub fn thought(ctx: &mut Ctx, task: &str, kind: &str, verbosity: &str, content: &str, meta: Value) {
    let id = ctx.id("thought");
    let mut f = fields! {
        "thoughtId": id, "thoughtType": kind, "verbosity": verbosity, "content": content,
    };
    if meta.as_object().is_some_and(|m| !m.is_empty()) {
        f.push(("metadata", meta));
    }
    ctx.emit("thought-stream", task, f);
}

/// Splits `text` into `n` chunks of about equal byte size, at character boundaries.
pub fn split_chunks(text: &str, n: usize) -> Vec<&str> {
    let n = n.max(1);
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    for k in 1..n {
        let mut cut = (text.len() * k / n).max(start);
        while cut < text.len() && !text.is_char_boundary(cut) {
            cut += 1;
        }
        if cut > start && cut < text.len() {
            out.push(&text[start..cut]);
            start = cut;
        }
    }
    out.push(&text[start..]);
    out
}

/// A streamed file artifact.
pub struct File<'a> {
    /// `artifactId`.
    pub artifact: &'a str,
    /// File name.
    pub name: &'a str,
    /// Description (chunk 0).
    pub description: &'a str,
    /// MIME type.
    pub mime: &'a str,
    /// The chunks' `data` (utf-8 text, or base64 split at multiples of 4 characters).
    pub chunks: Vec<&'a str>,
    /// `utf-8` or `base64`.
    pub encoding: &'a str,
    /// Exact size in bytes of the file (decoded).
    pub total_size: usize,
    /// The tool call that produced it.
    pub tool_call: Option<&'a str>,
    /// Simulated ms between chunks.
    pub pace_ms: u64,
}

impl File<'_> {
    /// Emits the `file-write` chunks for `task` (metadata on chunk 0, `complete` on the last).
    pub async fn write(&self, ctx: &mut Ctx, task: &str) -> Result<(), Stop> {
        let last = self.chunks.len().saturating_sub(1);
        for (i, data) in self.chunks.iter().enumerate() {
            let mut f = fields! {
                "artifactId": (self.artifact), "data": data, "index": i, "complete": (i == last),
            };
            if i == 0 {
                f.extend(fields! {
                    "name": (self.name), "description": (self.description),
                    "mimeType": (self.mime), "encoding": (self.encoding),
                });
                let mut meta = json!({"totalSize": self.total_size});
                if let (Some(call), Some(m)) = (self.tool_call, meta.as_object_mut()) {
                    m.insert("toolCallId".into(), call.into());
                }
                f.push(("metadata", meta));
            }
            ctx.emit("file-write", task, f);
            if i < last {
                ctx.pause_between(self.pace_ms * 3 / 4, self.pace_ms * 5 / 4)
                    .await?;
            }
        }
        Ok(())
    }
}

/// Base64 text split into chunks of `chunk` characters (a multiple of 4, so that each chunk
/// decodes on its own).
pub fn base64_chunks(b64: &str, chunk: usize) -> Vec<&str> {
    let chunk = (chunk / 4).max(1) * 4;
    b64.as_bytes()
        .chunks(chunk)
        .map(|c| std::str::from_utf8(c).unwrap_or(""))
        .collect()
}

/// The chart PNG as a file artifact.
pub fn chart_png<'a>(artifact: &'a str, tool_call: Option<&'a str>) -> File<'a> {
    File {
        artifact,
        name: "chart.png",
        description: "Q4 revenue by region (bar chart)",
        mime: "image/png",
        chunks: base64_chunks(CHART_PNG_BASE64, 48),
        encoding: "base64",
        total_size: CHART_PNG_BYTES,
        tool_call,
        pace_ms: 120,
    }
}

/// A sales dataset of `total` rows in batches of `batch` (schema and metadata on batch 0).
pub async fn sales_dataset(
    ctx: &mut Ctx,
    task: &str,
    artifact: &str,
    total: usize,
    batch: usize,
    tool_call: Option<&str>,
    pace_ms: u64,
) -> Result<(), Stop> {
    const REGIONS: [&str; 4] = ["north", "south", "east", "west"];
    let batches = total.div_ceil(batch.max(1));
    let mut row = 0usize;
    for b in 0..batches {
        let n = batch.min(total - row);
        let mut rows = Vec::with_capacity(n);
        for _ in 0..n {
            let cents = ctx.rng.range(50_000, 250_000);
            rows.push(json!({
                "date": format!("2025-{:02}-{:02}", 10 + row / 28, 1 + row % 28),
                "region": REGIONS[row % 4],
                "amount": cents as f64 / 100.0,
                "orders": ctx.rng.range(3, 60),
            }));
            row += 1;
        }
        let mut f = fields! {
            "artifactId": artifact, "rows": rows, "index": b, "complete": (b + 1 == batches),
        };
        if b == 0 {
            f.extend(fields! {
                "name": "q4-sales-data",
                "description": "Q4 sales by date and region",
                "schema": {
                    "type": "object",
                    "properties": {
                        "date": {"type": "string", "format": "date"},
                        "region": {"type": "string"},
                        "amount": {"type": "number"},
                        "orders": {"type": "integer"}
                    },
                    "required": ["date", "region", "amount"]
                },
            });
            let mut meta = json!({"totalRows": total, "batchSize": batch});
            if let (Some(call), Some(m)) = (tool_call, meta.as_object_mut()) {
                m.insert("toolCallId".into(), call.into());
            }
            f.push(("metadata", meta));
        }
        ctx.emit("dataset-write", task, f);
        if b + 1 < batches {
            ctx.pause_between(pace_ms * 3 / 4, pace_ms * 5 / 4).await?;
        }
    }
    Ok(())
}

/// A `task-created` for a subtask plus the parent's `subtask-created` before it.
pub fn spawn_subtask(ctx: &mut Ctx, parent: &str, sub: &str, agent: &str, prompt: &str) {
    ctx.emit(
        "subtask-created",
        parent,
        fields! {"subtaskId": sub, "agentId": agent, "prompt": prompt},
    );
    ctx.emit(
        "task-created",
        sub,
        fields! {
            "parentTaskId": parent, "initiator": "agent",
            "metadata": {"agentId": agent, "model": "gpt-4o-mini"},
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_text() {
        let text = "# Report — café ☕ and 🚀 rockets\n\nsome more text here";
        for n in 1..10 {
            let c = split_chunks(text, n);
            assert_eq!(c.concat(), text);
            assert!(c.iter().all(|s| !s.is_empty()));
        }
        let b = base64_chunks(CHART_PNG_BASE64, 48);
        assert_eq!(b.concat(), CHART_PNG_BASE64);
        assert!(b.iter().all(|c| c.len() % 4 == 0));
        assert!(b.len() >= 3);
    }
}
