//! The options of `AgentStore` and `StreamDecoder`: the limits (`maxLineBytes`, `maxTasks`,
//! ...), `redactKeys`, and `batch`.

use super::{absent, get, member, opt_usize};
use crate::browser::error::js_error;
use crate::events::Redactor;
use crate::sse::SseConfig;
use crate::state::Limits;
use wasm_bindgen::prelude::*;

/// Reads `options.batch` (`"none"` or `"frame"`).
pub(crate) fn read_batch(options: &JsValue) -> Result<bool, JsValue> {
    let v = get(options, "batch");
    match v.as_string().as_deref() {
        None if absent(&v) => Ok(false),
        Some("none") => Ok(false),
        Some("frame") => Ok(true),
        _ => Err(js_error(
            "invalid-argument",
            "options.batch must be \"none\" or \"frame\"",
        )),
    }
}

/// The options an `AgentStore` (and `StreamDecoder`) reads.
pub(crate) struct StoreOptions {
    /// `maxLineBytes`, `maxEventBytes`.
    pub sse: SseConfig,
    /// Every other limit.
    pub limits: Limits,
    /// `redactKeys`; `None`: the default list.
    pub redactor: Option<Redactor>,
}

/// Reads store options from a JS object (undefined → defaults).
pub(crate) fn read_options(options: &JsValue) -> Result<StoreOptions, JsValue> {
    let mut sse = SseConfig::default();
    let mut l = Limits::default();
    if absent(options) {
        return Ok(StoreOptions {
            sse,
            limits: l,
            redactor: None,
        });
    }
    if !options.is_object() {
        return Err(js_error("invalid-argument", "options must be an object"));
    }
    macro_rules! set {
        ($target:expr, $key:literal) => {
            if let Some(v) = opt_usize(options, $key)? {
                $target = v;
            }
        };
    }
    set!(sse.max_line_bytes, "maxLineBytes");
    set!(sse.max_event_bytes, "maxEventBytes");
    set!(l.max_tasks, "maxTasks");
    set!(l.max_content_bytes, "maxContentBytes");
    set!(l.max_artifacts, "maxArtifacts");
    set!(l.max_artifact_bytes, "maxArtifactBytes");
    set!(l.max_dataset_rows, "maxDatasetRows");
    set!(l.max_pending_chunks, "maxPendingChunks");
    set!(l.max_thoughts_per_task, "maxThoughtsPerTask");
    set!(l.max_history_per_task, "maxHistoryPerTask");
    set!(l.max_tools_per_task, "maxToolsPerTask");
    set!(l.max_requests_per_task, "maxRequestsPerTask");
    set!(l.max_messages_per_task, "maxMessagesPerTask");
    set!(l.max_diagnostics, "maxDiagnostics");
    set!(l.raw_log_events, "rawLogEvents");
    set!(l.dedupe_window, "dedupeWindow");
    Ok(StoreOptions {
        sse,
        limits: l,
        redactor: read_redactor(options)?,
    })
}

/// `options.redactKeys` (an array of strings), `None` when absent (the default list applies).
fn read_redactor(options: &JsValue) -> Result<Option<Redactor>, JsValue> {
    let Some(v) = member(options, "redactKeys") else {
        return Ok(None);
    };
    let bad = || {
        js_error(
            "invalid-argument",
            "options.redactKeys must be an array of strings",
        )
    };
    if !js_sys::Array::is_array(&v) {
        return Err(bad());
    }
    let names = js_sys::Array::from(&v)
        .iter()
        .map(|k| k.as_string().ok_or_else(bad))
        .collect::<Result<Vec<String>, JsValue>>()?;
    Ok(Some(Redactor::new(names)))
}
