//! The JSON number parser (src/json/number.rs) against the standard library's, bit for bit.
//!
//! agentwire parses numbers itself (the standard parser's tables cost ~10 KB of the shipped
//! wasm); `str::parse::<f64>` is correctly rounded, as `JSON.parse` is, so the two must agree on
//! every number the JSON grammar accepts.
//!
//! Input: text. When it parses as one JSON value and that value is a number, the result must
//! equal `text.trim().parse::<f64>()` (sign of zero and infinity included).
#![no_main]

use agentwire::json::{self, Value};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(Value::Number(got)) = json::parse(text) {
        let trimmed = text.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
        let want: f64 = trimmed
            .parse()
            .unwrap_or_else(|e| panic!("JSON accepted {trimmed:?} but std rejects it: {e}"));
        assert_eq!(
            got.to_bits(),
            want.to_bits(),
            "{trimmed:?}: agentwire {got:e}, std {want:e}"
        );
    }
});
