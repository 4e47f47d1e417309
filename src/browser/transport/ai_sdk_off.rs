//! The AI SDK driver of a build without the `ai-sdk` feature: no chat requests (the same
//! items as [`ai_sdk`](super), doing nothing or refusing).

use super::rpc::Call;
use super::Shared;
use crate::browser::error::js_error;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Nothing remembered.
#[derive(Default)]
pub struct Driver {
    _nothing: (),
}

/// Never the AI SDK in this build.
pub fn drives(_sh: &Shared) -> bool {
    false
}

/// Not reached (see [`drives`]): the fetch loop.
pub async fn run(sh: Rc<Shared>, first: Option<Call>) {
    super::fetch::run(sh, first).await
}

fn off() -> JsValue {
    js_error("invalid-state", "dialect ai-sdk is left out of this build")
}

/// No AI SDK chat in this build.
pub fn send_message(_sh: &Rc<Shared>, _text: &str) -> js_sys::Promise {
    js_sys::Promise::reject(&off())
}

/// No AI SDK chat in this build.
pub async fn answer(
    _sh: &Rc<Shared>,
    _id: &str,
    _value: &str,
    _denied: bool,
    _reason: Option<&str>,
) -> Result<(), JsValue> {
    Err(off())
}

/// No AI SDK chat in this build.
pub fn awaits_output(_sh: &Shared, _id: &str) -> bool {
    false
}

/// No AI SDK chat in this build.
pub async fn tool_output(_sh: &Rc<Shared>, _id: &str, _output: &str) -> Result<(), JsValue> {
    Err(off())
}

/// No AI SDK chat in this build.
pub fn stop(_sh: &Rc<Shared>, _task_id: &str) -> Result<(), JsValue> {
    Err(off())
}
