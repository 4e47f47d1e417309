//! Errors for JavaScript: `Error` objects with a stable `code` (never thrown strings).
//!
//! Codes: `invalid-argument`, `invalid-state`, `closed`, `connect-failed`, `internal` (after a
//! panic: see [`super::panic`]).

use wasm_bindgen::prelude::*;

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the panic hook ([`super::panic`]): every later call is refused.
static POISONED: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// The panic's message (quoted by every `internal` error).
    static MESSAGE: RefCell<String> = const { RefCell::new(String::new()) };
}

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

/// `true` once a panic happened.
#[inline]
pub fn poisoned() -> bool {
    POISONED.load(Ordering::Relaxed)
}

/// `Err` with the typed `internal` error once a panic happened (first thing every entry point does).
#[inline]
pub fn check_alive() -> Result<(), JsValue> {
    if poisoned() {
        Err(internal_error())
    } else {
        Ok(())
    }
}

pub(crate) fn message() -> String {
    MESSAGE.with(|m| m.try_borrow().map(|m| m.clone()).unwrap_or_default())
}

/// The `internal` error: what happened and what to do.
pub(crate) fn internal_error() -> JsValue {
    js_error(
        "internal",
        &format!(
            "agentwire stopped after an internal error and refuses further calls; reload the page (please report it: {})",
            message()
        ),
    )
}

/// Marks the module poisoned; `true` when it already was (the panic hook's first step).
pub(crate) fn poison() -> bool {
    POISONED.swap(true, Ordering::Relaxed)
}

/// Keeps the panic's message for the `internal` errors.
pub(crate) fn set_message(text: String) {
    MESSAGE.with(|m| {
        if let Ok(mut m) = m.try_borrow_mut() {
            *m = text;
        }
    });
}
