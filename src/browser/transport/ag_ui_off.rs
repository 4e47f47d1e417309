//! The AG-UI driver of a build without the `ag-ui` feature: no runs to open or answer (the
//! same items as [`ag_ui`](super), doing nothing or refusing).

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

/// Never AG-UI in this build.
pub fn drives(_sh: &Shared) -> bool {
    false
}

/// Not reached (see [`drives`]): the fetch loop.
pub async fn run(sh: Rc<Shared>, first: Option<Call>) {
    super::fetch::run(sh, first).await
}

/// No AG-UI runs in this build.
pub fn send_message(_sh: &Rc<Shared>, _text: &str) -> js_sys::Promise {
    js_sys::Promise::reject(&js_error(
        "invalid-state",
        "dialect ag-ui is left out of this build",
    ))
}

/// No AG-UI runs in this build.
pub async fn answer(
    _sh: &Rc<Shared>,
    _input_id: &str,
    _value: &str,
    _cancelled: bool,
) -> Result<(), JsValue> {
    Err(js_error(
        "invalid-state",
        "dialect ag-ui is left out of this build",
    ))
}
