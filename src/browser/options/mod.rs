//! The options of `AgentClient`, `AgentStore` and `StreamDecoder` as read from JavaScript
//! objects, with one set of readers (the same error messages everywhere).
//!
//! - [`stream`]: the connection (`url`, `transport`, `dialect`, `headers`, `reconnect`, ...).
//! - [`endpoints`]: where answers go (`endpoints`).
//! - [`store`]: the store's limits, `redactKeys` and `batch`.
//! - [`a2a`], [`ag_ui`], [`ai_sdk`]: the options of one dialect.

pub mod a2a;
pub mod ag_ui;
pub mod ai_sdk;
pub mod endpoints;
pub mod store;
pub mod stream;

use crate::browser::convert::to_json;
use crate::browser::error::js_error;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Member `key` of `o` (`undefined` when `o` is not an object).
pub(crate) fn get(o: &JsValue, key: &str) -> JsValue {
    if !o.is_object() {
        return JsValue::UNDEFINED;
    }
    js_sys::Reflect::get(o, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// `undefined` or `null`: the option is not given.
pub(crate) fn absent(v: &JsValue) -> bool {
    v.is_undefined() || v.is_null()
}

/// Member `key` of `o` as a string, when present.
pub(crate) fn opt_string(o: &JsValue, key: &str) -> Result<Option<String>, JsValue> {
    let v = get(o, key);
    if absent(&v) {
        return Ok(None);
    }
    v.as_string().map(Some).ok_or_else(|| {
        js_error(
            "invalid-argument",
            &format!("options.{key} must be a string"),
        )
    })
}

/// Member `key` of `o` as a number >= 0, when present (`what` names `o` in the error).
pub(crate) fn opt_number(o: &JsValue, key: &str, what: &str) -> Result<Option<f64>, JsValue> {
    let v = get(o, key);
    if absent(&v) {
        return Ok(None);
    }
    match v.as_f64() {
        Some(n) if n.is_finite() && n >= 0.0 => Ok(Some(n)),
        _ => Err(js_error(
            "invalid-argument",
            &format!("{what}.{key} must be a number >= 0"),
        )),
    }
}

/// Member `key` of `o` as a function, when present.
pub(crate) fn opt_function(o: &JsValue, key: &str) -> Result<Option<js_sys::Function>, JsValue> {
    let v = get(o, key);
    if absent(&v) {
        return Ok(None);
    }
    v.dyn_into::<js_sys::Function>().map(Some).map_err(|_| {
        js_error(
            "invalid-argument",
            &format!("options.{key} must be a function"),
        )
    })
}

/// Member `key` of `o` as JSON text, when present.
pub(crate) fn opt_json(o: &JsValue, key: &str) -> Result<Option<String>, JsValue> {
    let x = get(o, key);
    if absent(&x) {
        Ok(None)
    } else {
        to_json(&x).map(Some)
    }
}

/// Member `key` of `o` as a whole number >= 0, when present.
pub(crate) fn opt_usize(o: &JsValue, key: &str) -> Result<Option<usize>, JsValue> {
    let v = get(o, key);
    if absent(&v) {
        return Ok(None);
    }
    match v.as_f64() {
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_991.0 => {
            Ok(Some(n as usize))
        }
        _ => Err(js_error(
            "invalid-argument",
            &format!("options.{key} must be a whole number >= 0"),
        )),
    }
}

/// Member `key` of `o`, `None` when absent (`undefined` or `null`).
pub(crate) fn member(o: &JsValue, key: &str) -> Option<JsValue> {
    let v = get(o, key);
    (!absent(&v)).then_some(v)
}

/// An object that is not an array.
pub(crate) fn plain_object(v: &JsValue) -> bool {
    v.is_object() && !js_sys::Array::is_array(v)
}

/// `invalid-argument`: member `key` of `options.{option}` must be `what`.
pub(crate) fn bad_member(option: &str, key: &str, what: &str) -> JsValue {
    js_error(
        "invalid-argument",
        &format!("options.{option}.{key} must be {what}"),
    )
}

/// The object option `option` of one dialect (`dialect`, a cargo feature `enabled` or not):
/// `None` when absent; refused in a build without the dialect, and when not a plain object.
/// Always inlined: `enabled` is a `cfg!` constant, so a build without the dialect drops the
/// reader behind it (not inlined, the entries' wasm grew by 4 KB).
#[inline(always)]
pub(crate) fn dialect_object(
    o: &JsValue,
    option: &str,
    dialect: &str,
    enabled: bool,
) -> Result<Option<JsValue>, JsValue> {
    let Some(a) = member(o, option) else {
        return Ok(None);
    };
    if !enabled {
        return Err(js_error(
            "invalid-argument",
            &format!("options.{option} is for dialect {dialect}, which this build leaves out"),
        ));
    }
    if !plain_object(&a) {
        return Err(js_error(
            "invalid-argument",
            &format!("options.{option} must be an object"),
        ));
    }
    Ok(Some(a))
}
