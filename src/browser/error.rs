//! Errors for JavaScript: `Error` objects with a stable `code` (never thrown strings).
//!
//! Codes: `invalid-argument`, `invalid-state`, `closed`, `connect-failed`, `internal` (after a
//! panic: see [`super::panic`]).

use wasm_bindgen::prelude::*;

pub use super::panic::check_alive;

/// An `Error` whose `name` is `AgentwireError` and whose `code` is `code`.
pub fn js_error(code: &str, message: &str) -> JsValue {
    let e = js_sys::Error::new(message);
    e.set_name("AgentwireError");
    let _ = js_sys::Reflect::set(&e, &JsValue::from_str("code"), &JsValue::from_str(code));
    e.into()
}

/// `Err(invalid-argument)` unless `f` is a function (wasm-bindgen does not check a
/// `js_sys::Function` parameter: a handler that is not one was kept and threw at every event).
pub fn check_function(f: &JsValue, what: &str) -> Result<(), JsValue> {
    if f.is_function() {
        Ok(())
    } else {
        Err(js_error(
            "invalid-argument",
            &format!("{what} must be a function"),
        ))
    }
}
