//! Partial JSON as the AI SDK reads it while a tool's input streams, and its metadata merge.
//! (Provisional: `parse_partial_json` parses complete text only; the faithful port of the
//! SDK's `fixJson` replaces it.)

use super::{OwnedValue, Value};

/// The value of `text`, or of its repaired prefix; `None` when neither parses.
pub fn parse_partial_json(text: &str) -> Option<OwnedValue> {
    super::parse(text).ok().map(Value::into_owned)
}

/// `overrides` merged into `base`: objects recursively, anything else replaced.
pub fn merge_objects(base: &Value<'_>, overrides: &Value<'_>) -> OwnedValue {
    match (base, overrides) {
        (Value::Object(b), Value::Object(o)) => {
            let mut out: Vec<(std::borrow::Cow<'static, str>, OwnedValue)> = b
                .iter()
                .map(|(k, v)| {
                    (
                        std::borrow::Cow::Owned(k.to_string()),
                        v.clone().into_owned(),
                    )
                })
                .collect();
            for (k, v) in o {
                match out.iter_mut().find(|(ok, _)| ok == k) {
                    Some(slot) => slot.1 = merge_objects(&slot.1.clone(), v),
                    None => out.push((
                        std::borrow::Cow::Owned(k.to_string()),
                        v.clone().into_owned(),
                    )),
                }
            }
            Value::Object(out)
        }
        (_, o) => o.clone().into_owned(),
    }
}
