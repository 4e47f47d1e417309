//! The AI SDK options of `AgentClient` (`aiSdk`): the chat id, the chat's messages so far, the
//! extra body members and headers of every request, kept as JSON texts. The driver
//! ([`crate::browser::transport::ai_sdk`]) writes the requests from them.

use super::{bad_member, dialect_object, member, plain_object};
use wasm_bindgen::prelude::*;

/// The `aiSdk` option as read (JSON texts).
#[derive(Debug, Default, Clone)]
pub struct AiSdkOptions {
    /// `aiSdk` was given.
    pub given: bool,
    /// `chatId`.
    pub chat_id: Option<String>,
    /// `messages`: each message as a JSON object text.
    pub messages: Vec<String>,
    /// `body` (a JSON object).
    pub body: Option<String>,
    /// `headers`.
    pub headers: Vec<(String, String)>,
}

/// Reads `aiSdk` (refused in a build without the `ai-sdk` feature).
pub fn read(o: &JsValue) -> Result<AiSdkOptions, JsValue> {
    let Some(a) = dialect_object(o, "aiSdk", "ai-sdk", cfg!(feature = "ai-sdk"))? else {
        return Ok(AiSdkOptions::default());
    };
    let chat_id = match member(&a, "chatId") {
        None => None,
        Some(v) => match v.as_string() {
            Some(s) if !s.is_empty() && s != "." && s != ".." => Some(s),
            _ => {
                return Err(bad_member(
                    "aiSdk",
                    "chatId",
                    "a non-empty string (not . or ..)",
                ))
            }
        },
    };
    let mut messages = Vec::new();
    if let Some(v) = member(&a, "messages") {
        let arr: js_sys::Array = v
            .dyn_into()
            .map_err(|_| bad_member("aiSdk", "messages", "an array of UIMessage objects"))?;
        for m in arr.iter() {
            if !plain_object(&m) || member(&m, "id").and_then(|i| i.as_string()).is_none() {
                return Err(bad_member(
                    "aiSdk",
                    "messages",
                    "an array of UIMessage objects (each with a string id)",
                ));
            }
            messages.push(crate::browser::convert::to_json(&m)?);
        }
    }
    let body = match member(&a, "body") {
        None => None,
        Some(v) if plain_object(&v) => Some(crate::browser::convert::to_json(&v)?),
        Some(_) => return Err(bad_member("aiSdk", "body", "an object")),
    };
    let mut headers = Vec::new();
    if let Some(h) = member(&a, "headers") {
        if !plain_object(&h) {
            return Err(bad_member("aiSdk", "headers", "an object of strings"));
        }
        for key in js_sys::Object::keys(h.unchecked_ref::<js_sys::Object>()).iter() {
            let k = key.as_string().unwrap_or_default();
            let v = js_sys::Reflect::get(&h, &key)
                .ok()
                .and_then(|v| v.as_string())
                .ok_or_else(|| bad_member("aiSdk", "headers", "an object of strings"))?;
            headers.push((k, v));
        }
    }
    Ok(AiSdkOptions {
        given: true,
        chat_id,
        messages,
        body,
        headers,
    })
}
