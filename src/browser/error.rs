//! Errors for JavaScript: `Error` objects with a stable `code` (never thrown strings).
//!
//! Codes: `invalid-argument`, `invalid-state`, `closed`, `connect-failed`, `internal`.

use std::sync::atomic::{AtomicBool, Ordering};
use wasm_bindgen::prelude::*;

static POISONED: AtomicBool = AtomicBool::new(false);

/// An `Error` whose `name` is `AgentwireError` and whose `code` is `code`.
pub fn js_error(code: &str, message: &str) -> JsValue {
    let e = js_sys::Error::new(message);
    e.set_name("AgentwireError");
    let _ = js_sys::Reflect::set(&e, &JsValue::from_str("code"), &JsValue::from_str(code));
    e.into()
}

/// Fails every call after a panic: the module's memory can no longer be trusted.
pub fn check_alive() -> Result<(), JsValue> {
    if POISONED.load(Ordering::Relaxed) {
        Err(js_error(
            "internal",
            "agentwire hit an internal error earlier and refuses further calls; reload the page",
        ))
    } else {
        Ok(())
    }
}

/// Reports a panic clearly (console.error with the message) and poisons the module.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        POISONED.store(true, Ordering::Relaxed);
        let msg = format!("agentwire internal error (please report): {info}");
        web_sys::console::error_1(&JsValue::from_str(&msg));
    }));
}
