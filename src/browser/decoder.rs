//! `StreamDecoder`: bytes of an SSE stream → canonical events and diagnostics, no assembly.

use super::convert::from_json;
use super::error::{check_alive, js_error};
use super::options::store::read_options;
use crate::pipeline::{Item, StreamDecoder as CoreDecoder};
use wasm_bindgen::prelude::*;

/// Parses and validates an SSE byte stream into canonical events, without keeping state.
///
/// ```ts
/// const dec = new StreamDecoder();
/// for (const item of dec.feed(bytes)) if ("event" in item) console.log(item.event.kind);
/// ```
#[wasm_bindgen]
pub struct StreamDecoder {
    inner: CoreDecoder,
}

#[wasm_bindgen]
impl StreamDecoder {
    /// A decoder; `options.maxLineBytes` / `options.maxEventBytes` bound memory.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "AgentStoreOptions")] options: Option<
            JsValue,
        >,
    ) -> Result<StreamDecoder, JsValue> {
        check_alive()?;
        let o = read_options(&options.unwrap_or(JsValue::UNDEFINED))?;
        let mut inner = CoreDecoder::new(o.sse);
        if let Some(r) = o.redactor {
            inner.set_redactor(r);
        }
        Ok(StreamDecoder { inner })
    }

    /// Feeds the next bytes (a `Uint8Array`, an `ArrayBuffer` or `DataView`, or an array of byte
    /// values); returns the events and diagnostics they completed, in order.
    #[wasm_bindgen(unchecked_return_type = "Decoded[]")]
    pub fn feed(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer | DataView | number[]")]
        chunk: &[u8],
    ) -> Result<JsValue, JsValue> {
        check_alive()?;
        // A dialect event without a timestamp gets the time it was received.
        self.inner.set_now_ms(Some(js_sys::Date::now() as i64));
        let mut out = String::from("[");
        let mut first = true;
        self.inner.feed(chunk, &mut |item| {
            if !first {
                out.push(',');
            }
            first = false;
            match item {
                Item::Event(ev, meta) => {
                    out.push_str("{\"event\":");
                    ev.write_json(&mut out);
                    if !meta.event_id.is_empty() {
                        out.push_str(",\"id\":");
                        crate::json::write_str(&mut out, meta.event_id);
                    }
                }
                Item::Diagnostic(d) => {
                    out.push_str("{\"diagnostic\":");
                    d.write_json(&mut out);
                }
            }
            out.push('}');
        });
        out.push(']');
        from_json(&out)
    }

    /// End of stream: discards an unterminated event.
    pub fn finish(&mut self) {
        self.inner.parser().finish();
    }

    /// The SSE last event id.
    #[wasm_bindgen(getter, js_name = lastEventId)]
    pub fn last_event_id(&mut self) -> String {
        self.inner.parser().last_event_id().to_owned()
    }

    /// Sets the last event id (resume).
    #[wasm_bindgen(setter, js_name = lastEventId)]
    pub fn set_last_event_id(&mut self, id: &str) -> Result<(), JsValue> {
        if id.contains('\0') {
            return Err(js_error(
                "invalid-argument",
                "an event id cannot contain NULL",
            ));
        }
        self.inner.parser().set_last_event_id(id);
        Ok(())
    }
}
