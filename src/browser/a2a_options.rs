//! The A2A options of `AgentClient` and the agent card they may name.
//!
//! - `a2aVersion`: `"1.0"` (default) or `"0.3"`: the version requests are written in.
//! - `a2aBinding`: `"jsonrpc"` (default) or `"http+json"` (A2A v1.0 only).
//! - `agentCard`: the card's URL, read by [`resolve_card`] before the first request; its
//!   interface (picked by [`crate::client::agent_card::pick`]) names the endpoint, binding and
//!   version.

use super::error::js_error;
#[cfg(feature = "a2a")]
use super::global::fetch_request;
#[cfg(feature = "a2a")]
use super::transport::Shared;
#[cfg(feature = "a2a")]
use crate::client::agent_card;
#[cfg(feature = "a2a")]
use crate::dialects::a2a::{request_v1::Binding, Version};
use wasm_bindgen::prelude::*;
#[cfg(feature = "a2a")]
use wasm_bindgen::JsCast;
#[cfg(feature = "a2a")]
use wasm_bindgen_futures::JsFuture;

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
        let v = js_sys::Reflect::get(o, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
        if !(v.is_undefined() || v.is_null()) {
            return Err(js_error(
                "invalid-argument",
                &format!("options.{key} is for dialect a2a, which this build leaves out"),
            ));
        }
    }
    Ok(A2aOptions {})
}

#[cfg(feature = "a2a")]
fn string(o: &JsValue, key: &str) -> Result<Option<String>, JsValue> {
    let v = js_sys::Reflect::get(o, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    v.as_string().map(Some).ok_or_else(|| {
        js_error(
            "invalid-argument",
            &format!("options.{key} must be a string"),
        )
    })
}

/// Reads `a2aVersion`, `a2aBinding` and `agentCard`.
#[cfg(feature = "a2a")]
pub fn read(o: &JsValue) -> Result<A2aOptions, JsValue> {
    let version = match string(o, "a2aVersion")?.as_deref() {
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
    let binding = match string(o, "a2aBinding")?.as_deref() {
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
        agent_card: string(o, "agentCard")?,
    })
}

#[cfg(feature = "a2a")]
/// Reads the agent card (once per client) and keeps the interface it names. `Err((code,
/// message))` when it cannot be read or offers nothing agentwire speaks.
pub async fn resolve_card(sh: &Shared) -> Result<(), (&'static str, String)> {
    let Some(card_url) = sh.opts.a2a.agent_card.clone() else {
        return Ok(());
    };
    if sh.card.borrow().is_some() {
        return Ok(());
    }
    let fail = |m: String| ("agent-card", m);
    let init = web_sys::RequestInit::new();
    init.set_method("GET");
    let headers = web_sys::Headers::new().map_err(|_| fail("no Headers".into()))?;
    let _ = headers.set("Accept", "application/json");
    for (k, v) in &sh.opts.headers {
        let _ = headers.set(k, v);
    }
    init.set_headers(&headers);
    if sh.opts.credentials.as_deref() == Some("include") {
        init.set_credentials(web_sys::RequestCredentials::Include);
    }
    let req = web_sys::Request::new_with_str_and_init(&card_url, &init).map_err(|_| {
        fail(format!(
            "bad agentCard URL {}",
            crate::json::Quoted(&card_url)
        ))
    })?;
    let resp = JsFuture::from(fetch_request(&req))
        .await
        .map_err(|_| fail(format!("could not read the agent card at {card_url}")))?;
    let resp: web_sys::Response = resp.unchecked_into();
    if !resp.ok() {
        return Err(fail(format!(
            "the agent card at {card_url} answered HTTP {}",
            resp.status()
        )));
    }
    let text = match resp.text() {
        Ok(p) => JsFuture::from(p).await.ok().and_then(|t| t.as_string()),
        Err(_) => None,
    }
    .ok_or_else(|| fail(format!("the agent card at {card_url} broke off")))?;
    let mut iface = agent_card::pick(&text, Some(sh.opts.a2a.binding))
        .map_err(|m| fail(format!("{card_url}: {m}")))?;
    // A relative interface URL is relative to the card, whose URL may be relative to the page
    // (or the worker's script) itself.
    let card_abs = page_url()
        .and_then(|base| web_sys::Url::new_with_base(&card_url, &base).ok())
        .map_or(card_url.clone(), |u| u.href());
    if let Ok(u) = web_sys::Url::new_with_base(&iface.url, &card_abs) {
        iface.url = u.href();
    }
    *sh.card.borrow_mut() = Some(iface);
    Ok(())
}

#[cfg(feature = "a2a")]
/// `location.href` of the page or worker, when it has one.
fn page_url() -> Option<String> {
    let location = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("location")).ok()?;
    js_sys::Reflect::get(&location, &JsValue::from_str("href"))
        .ok()?
        .as_string()
}
