//! JSON text kept as received, the leaf type of the state model (used by the task model and
//! the conversation messages alike).

use crate::json::WriteJson;

/// JSON text kept as received (arguments, results, schemas, records): parsed only when read.
#[derive(tsify::Tsify, Debug, Clone, PartialEq, Default)]
#[tsify(type = "unknown")]
pub struct RawJson(pub String);

impl WriteJson for RawJson {
    fn write_json(&self, out: &mut String) {
        if self.0.is_empty() {
            out.push_str("null");
        } else {
            out.push_str(&self.0);
        }
    }
}

impl RawJson {
    /// Serialises a parsed value.
    pub fn from_value(v: &crate::json::Value<'_>) -> Self {
        RawJson(v.to_json())
    }
}
