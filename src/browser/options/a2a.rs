//! The A2A options of `AgentClient` and the agent card they may name.
//!
//! - `a2aVersion`: `"1.0"` (default) or `"0.3"`: the version requests are written in.
//! - `a2aBinding`: `"jsonrpc"` (default) or `"http+json"` (A2A v1.0 only).
//! - `agentCard`: the card's URL, read by `transport::a2a::resolve_card` before the first request; its
//!   interface (picked by [`crate::client::agent_card::pick`]) names the endpoint, binding and
//!   version.

#[cfg(feature = "a2a")]
use super::opt_string;
use crate::browser::error::js_error;
#[cfg(feature = "a2a")]
use crate::dialects::a2a::{request_v1::Binding, Version};
use wasm_bindgen::prelude::*;

/// The A2A options as read (empty in a build without the `a2a` feature).
pub struct A2aOptions {
    /// `a2aVersion`.
    #[cfg(feature = "a2a")]
    pub version: Version,
    /// `a2aBinding`.
    #[cfg(feature = "a2a")]
    pub binding: Binding,
    /// `agentCard`.
    #[cfg(feature = "a2a")]
    pub agent_card: Option<String>,
}

impl A2aOptions {
    /// The `agentCard` URL, when given.
    pub fn agent_card(&self) -> Option<&str> {
        #[cfg(feature = "a2a")]
        return self.agent_card.as_deref();
        #[cfg(not(feature = "a2a"))]
        None
    }
}

/// Refuses the A2A options in a build without the `a2a` feature (they would do nothing).
#[cfg(not(feature = "a2a"))]
pub fn read(o: &JsValue) -> Result<A2aOptions, JsValue> {
    for key in ["a2aVersion", "a2aBinding", "agentCard"] {
        if super::member(o, key).is_some() {
            return Err(js_error(
                "invalid-argument",
                &format!("options.{key} is for dialect a2a, which this build leaves out"),
            ));
        }
    }
    Ok(A2aOptions {})
}

/// Reads `a2aVersion`, `a2aBinding` and `agentCard`.
#[cfg(feature = "a2a")]
pub fn read(o: &JsValue) -> Result<A2aOptions, JsValue> {
    let version = match opt_string(o, "a2aVersion")?.as_deref() {
        None => Version::V10,
        Some(v) => match Version::parse(v) {
            Some(x) => x,
            None => {
                return Err(js_error(
                    "invalid-argument",
                    &format!(
                        "options.a2aVersion {}: use \"1.0\" or \"0.3\"",
                        crate::json::Quoted(v)
                    ),
                ))
            }
        },
    };
    let binding = match opt_string(o, "a2aBinding")?.as_deref() {
        None => Binding::JsonRpc,
        Some(b) => match Binding::parse(b) {
            Some(x) => x,
            None => {
                return Err(js_error(
                    "invalid-argument",
                    &format!(
                        "options.a2aBinding {}: use \"jsonrpc\" or \"http+json\"",
                        crate::json::Quoted(b)
                    ),
                ))
            }
        },
    };
    if version == Version::V03 && binding == Binding::HttpJson {
        return Err(js_error(
            "invalid-argument",
            "options.a2aBinding \"http+json\" needs a2aVersion \"1.0\" (A2A 0.3 is read over JSON-RPC)",
        ));
    }
    Ok(A2aOptions {
        version,
        binding,
        agent_card: opt_string(o, "agentCard")?,
    })
}
