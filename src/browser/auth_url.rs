//! An auth request's URL as `authUrl()` returns it and `openAuth()` opens it, for `AgentClient`
//! and `WorkerClient` alike: only `https:`, or `http:` on localhost
//! ([`crate::events::url::is_safe_to_open`]).

use super::error::js_error;
use crate::events::url::is_safe_to_open;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// `url` (the request's `authUrl`; `None` when it has none) when it is safe to open;
/// `no-auth-url`, or `unsafe-url` with `authId`, otherwise.
pub(crate) fn checked(auth_id: &str, url: Option<String>) -> Result<String, JsValue> {
    let Some(url) = url else {
        return Err(js_error("no-auth-url", "this auth request has no authUrl"));
    };
    if !is_safe_to_open(&url) {
        let e = js_error(
            "unsafe-url",
            "refusing to open an auth URL that is not https: (or http: on localhost)",
        );
        js_sys::Reflect::set(&e, &"authId".into(), &auth_id.into())?;
        return Err(e);
    }
    Ok(url)
}

/// Opens `url` in a new tab (`open(url, "_blank", "noopener,noreferrer")`); `invalid-state`
/// where the global scope has no `open` (a Worker).
pub(crate) fn open_in_new_tab(url: &str) -> Result<(), JsValue> {
    let open = js_sys::Reflect::get(&js_sys::global(), &"open".into())?;
    let open: js_sys::Function = open
        .dyn_into()
        .map_err(|_| js_error("invalid-state", "window.open is not available here"))?;
    open.call3(
        &js_sys::global(),
        &url.into(),
        &"_blank".into(),
        &"noopener,noreferrer".into(),
    )?;
    Ok(())
}
