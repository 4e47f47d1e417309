//! The one place Rust values become JavaScript values: compact JSON text from the core's
//! writers, turned into objects by the engine's `JSON.parse` (fast, and no per-field calls
//! across the boundary).

use super::error::js_error;
use wasm_bindgen::prelude::*;

/// Parses JSON text produced by the core into a JS value.
pub fn from_json(text: &str) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(text).map_err(|_| js_error("internal", "agentwire produced invalid json"))
}

/// `JSON.stringify` of a JS value (manual sources that push objects).
pub fn to_json(v: &JsValue) -> Result<String, JsValue> {
    js_sys::JSON::stringify(v)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| js_error("invalid-argument", "value is not JSON-serialisable"))
}
