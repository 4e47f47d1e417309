//! The `endpoints` option: where `AgentClient` sends answers, auth results and cancels.

use super::{absent, get};
use crate::browser::error::js_error;
use crate::client::template::expand;
use crate::dialects::Dialect;
use wasm_bindgen::prelude::*;

/// Where answers go.
pub(crate) struct Endpoints {
    pub(crate) base: String,
    pub(crate) input: String,
    pub(crate) auth: String,
    pub(crate) cancel: String,
    /// JSON-RPC endpoint given as `endpoints.rpc` (else: A2A the stream URL, A2A-ACP
    /// `{base}/acp/rpc`).
    pub(crate) rpc: Option<String>,
}

/// The directory of `url` resolved against the page (`/api/stream?x` → `https://host/api`).
fn default_base(url: &str) -> String {
    let page = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("location"))
        .ok()
        .and_then(|l| js_sys::Reflect::get(&l, &JsValue::from_str("href")).ok())
        .and_then(|h| h.as_string());
    let resolved = match page {
        Some(p) => web_sys::Url::new_with_base(url, &p),
        None => web_sys::Url::new(url),
    };
    match resolved {
        Ok(u) => {
            let mut path = u.pathname();
            if let Some(i) = path.rfind('/') {
                path.truncate(i);
            }
            format!("{}{}", u.origin(), path)
        }
        Err(_) => String::new(),
    }
}

/// Reads `endpoints` (templates of the answer URLs; `base` defaults to the directory of `url`).
pub(crate) fn read_endpoints(o: &JsValue, url: &str) -> Result<Endpoints, JsValue> {
    let e = get(o, "endpoints");
    let s = |k: &str| -> Result<Option<String>, JsValue> {
        let v = get(&e, k);
        if absent(&v) {
            return Ok(None);
        }
        v.as_string().map(Some).ok_or_else(|| {
            js_error(
                "invalid-argument",
                &format!("options.endpoints.{k} must be a string"),
            )
        })
    };
    Ok(Endpoints {
        base: match s("base")? {
            Some(b) => b,
            None if url.is_empty() => String::new(),
            None => default_base(url),
        },
        input: s("input")?.unwrap_or_else(|| {
            "{base}/contexts/{contextId}/tasks/{taskId}/inputs/{inputId}".into()
        }),
        auth: s("auth")?
            .unwrap_or_else(|| "{base}/contexts/{contextId}/tasks/{taskId}/auth/{authId}".into()),
        cancel: s("cancel")?
            .unwrap_or_else(|| "{base}/contexts/{contextId}/tasks/{taskId}/cancel".into()),
        rpc: s("rpc")?,
    })
}

impl Endpoints {
    /// The JSON-RPC endpoint for `dialect` (A2A: the stream URL unless `endpoints.rpc` is given).
    pub(crate) fn rpc_url(&self, dialect: Dialect, stream_url: &str) -> Result<String, JsValue> {
        let tpl = match (&self.rpc, dialect) {
            (Some(t), _) => t.as_str(),
            (None, Dialect::A2a) => return Ok(stream_url.to_owned()),
            (None, _) => "{base}/acp/rpc",
        };
        expand(tpl, &self.base, &[]).map_err(|m| js_error("invalid-argument", &m))
    }
}
