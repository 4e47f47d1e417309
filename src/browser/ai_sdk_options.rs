//! The AI SDK options of `AgentClient` (`aiSdk`): the chat id, the chat's messages so far, the
//! extra body members and headers of every request, kept as JSON texts. The driver
//! ([`super::transport::ai_sdk`]) writes the requests from them.

use super::error::js_error;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_AI_SDK_OPTIONS: &str = r#"
/**
 * Vercel AI SDK UI message stream (`dialect: "ai-sdk"`, `ai` 7.x): the chat. `url` is the chat
 * endpoint (what `DefaultChatTransport`'s `api` is, e.g. `/api/chat`). Every request is a POST
 * written as `DefaultChatTransport` writes it: `content-type: application/json`, body
 * `{...body, id: chatId, messages, trigger: "submit-message", messageId?}` where `messages` are
 * every `UIMessage` of the chat (the user's, and the assistant's exactly as assembled); the
 * answer is read as the UI message stream. One assistant message is one task (task id = the
 * message id, context id = the chat id).
 *
 * - The first request: `aiSdk.messages`, or the `message` option (a text). With neither, the
 *   client resumes the chat's active response (`GET {url}/{chatId}/stream`; 204: nothing to
 *   resume, the connection ends `closed`).
 * - `sendMessage(text)`: the next POST with the new user message.
 * - `approve(id)` / `deny(id, reason?)` on an approval (`inputType: "confirmation"`, `inputId`
 *   = the approval id): the tool part becomes `approval-responded` at once; once every approval
 *   and client-side tool of the message has its answer, the next POST (`messageId` = that
 *   assistant message) continues the same message.
 * - `respond(toolCallId, output)` for a client-side tool (a tool part `input-available` the
 *   message waits for): the part becomes `output-available`, then the next POST as above.
 * - A response that breaks off resumes with `GET {url}/{chatId}/stream` (never by sending the
 *   message again); its replay from the first chunk applies nothing twice.
 * - `cancel(taskId)` (the official `stop()`): aborts the request; the message keeps what
 *   arrived, its task ends `canceled` ("aborted").
 *
 * ```ts
 * const client = new AgentClient({
 *   url: "/api/chat",
 *   aiSdk: { chatId: "chat-1", body: { model: "gpt-x" } },
 *   message: "What is the weather in Bern?",
 * });
 * client.on("input-required", (e) => client.approve(e.inputId)); // a tool approval
 * await client.sendMessage("And tomorrow?");
 * ```
 */
export interface AiSdkOptions {
    /** The chat id (`id` of every request; the context of every task). Default: a new UUID. */
    chatId?: string;
    /** The chat's `UIMessage`s so far (`{id, role, parts, metadata?}`), sent as given. */
    messages?: Record<string, unknown>[];
    /** Extra members of every request body (`DefaultChatTransport`'s `body`). */
    body?: Record<string, unknown>;
    /** Extra headers of every request (added to the `headers` option). */
    headers?: Record<string, string>;
}
"#;

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

fn member(o: &JsValue, key: &str) -> Option<JsValue> {
    let v = js_sys::Reflect::get(o, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
    (!(v.is_undefined() || v.is_null())).then_some(v)
}

fn bad(key: &str, what: &str) -> JsValue {
    js_error(
        "invalid-argument",
        &format!("options.aiSdk.{key} must be {what}"),
    )
}

fn plain_object(v: &JsValue) -> bool {
    v.is_object() && !js_sys::Array::is_array(v)
}

/// Reads `aiSdk` (refused in a build without the `ai-sdk` feature).
pub fn read(o: &JsValue) -> Result<AiSdkOptions, JsValue> {
    let Some(a) = member(o, "aiSdk") else {
        return Ok(AiSdkOptions::default());
    };
    if !cfg!(feature = "ai-sdk") {
        return Err(js_error(
            "invalid-argument",
            "options.aiSdk is for dialect ai-sdk, which this build leaves out",
        ));
    }
    if !plain_object(&a) {
        return Err(js_error(
            "invalid-argument",
            "options.aiSdk must be an object",
        ));
    }
    let chat_id = match member(&a, "chatId") {
        None => None,
        Some(v) => match v.as_string() {
            Some(s) if !s.is_empty() && s != "." && s != ".." => Some(s),
            _ => return Err(bad("chatId", "a non-empty string (not . or ..)")),
        },
    };
    let mut messages = Vec::new();
    if let Some(v) = member(&a, "messages") {
        let arr: js_sys::Array = v
            .dyn_into()
            .map_err(|_| bad("messages", "an array of UIMessage objects"))?;
        for m in arr.iter() {
            if !plain_object(&m) || member(&m, "id").and_then(|i| i.as_string()).is_none() {
                return Err(bad(
                    "messages",
                    "an array of UIMessage objects (each with a string id)",
                ));
            }
            messages.push(super::convert::to_json(&m)?);
        }
    }
    let body = match member(&a, "body") {
        None => None,
        Some(v) if plain_object(&v) => Some(super::convert::to_json(&v)?),
        Some(_) => return Err(bad("body", "an object")),
    };
    let mut headers = Vec::new();
    if let Some(h) = member(&a, "headers") {
        if !plain_object(&h) {
            return Err(bad("headers", "an object of strings"));
        }
        for key in js_sys::Object::keys(h.unchecked_ref::<js_sys::Object>()).iter() {
            let k = key.as_string().unwrap_or_default();
            let v = js_sys::Reflect::get(&h, &key)
                .ok()
                .and_then(|v| v.as_string())
                .ok_or_else(|| bad("headers", "an object of strings"))?;
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
