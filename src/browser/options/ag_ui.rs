//! The AG-UI options of `AgentClient` (`agUi`): what the first `RunAgentInput` carries
//! (`threadId`, `runId`, `messages`, `tools`, `context`, `state`, `forwardedProps`), kept as
//! JSON texts. The driver ([`crate::browser::transport::ag_ui`]) writes the runs' inputs from them.

use super::{bad_member, dialect_object, member};
use wasm_bindgen::prelude::*;

/// The `agUi` option as read (JSON texts).
#[derive(Debug, Default, Clone)]
pub struct AgUiOptions {
    /// `agUi` was given.
    pub given: bool,
    /// `threadId`.
    pub thread_id: Option<String>,
    /// `runId`.
    pub run_id: Option<String>,
    /// `messages` (a JSON array).
    pub messages: Option<String>,
    /// `tools` (a JSON array).
    pub tools: Option<String>,
    /// `context` (a JSON array).
    pub context: Option<String>,
    /// `state` (JSON).
    pub state: Option<String>,
    /// `forwardedProps` (JSON).
    pub forwarded_props: Option<String>,
}

/// Reads `agUi` (refused in a build without the `ag-ui` feature).
pub fn read(o: &JsValue) -> Result<AgUiOptions, JsValue> {
    let Some(a) = dialect_object(o, "agUi", "ag-ui", cfg!(feature = "ag-ui"))? else {
        return Ok(AgUiOptions::default());
    };
    let string = |key: &str| -> Result<Option<String>, JsValue> {
        match member(&a, key) {
            None => Ok(None),
            Some(v) => match v.as_string() {
                Some(s) if !s.is_empty() => Ok(Some(s)),
                _ => Err(bad_member("agUi", key, "a non-empty string")),
            },
        }
    };
    let array = |key: &str| -> Result<Option<String>, JsValue> {
        match member(&a, key) {
            None => Ok(None),
            Some(v) if js_sys::Array::is_array(&v) => {
                crate::browser::convert::to_json(&v).map(Some)
            }
            Some(_) => Err(bad_member("agUi", key, "an array")),
        }
    };
    let json = |key: &str| -> Result<Option<String>, JsValue> {
        member(&a, key)
            .map(|v| crate::browser::convert::to_json(&v))
            .transpose()
    };
    let out = AgUiOptions {
        given: true,
        thread_id: string("threadId")?,
        run_id: string("runId")?,
        messages: array("messages")?,
        tools: array("tools")?,
        context: array("context")?,
        state: json("state")?,
        forwarded_props: json("forwardedProps")?,
    };
    #[cfg(feature = "ag-ui")]
    if let Some(m) = &out.messages {
        crate::dialects::ag_ui::input::array_items(m).map_err(|e| {
            bad_member(
                "agUi",
                "messages",
                &format!("an array of message objects ({e})"),
            )
        })?;
    }
    Ok(out)
}
