//! JSON Patch (src/json/patch.rs) on arbitrary documents and patches.
//!
//! Input: text (lossy UTF-8): the document, a NUL byte, the patch (no NUL: nothing to do). The
//! document is parsed with the default depth limit (as the client's state is), the patch with
//! two more levels (a patch array and an operation object around a value), so values that
//! would make the document too deep reach `apply`. Either part failing to parse ends the run.
//!
//! Invariants checked:
//! - no panic, whatever the input;
//! - a failed apply leaves the document exactly as it was (structurally, key order and repeated
//!   keys included), and its error names an operation of the patch (index < length), with a
//!   known code and a message naming that index;
//! - a successful apply followed by a failing operation (the same patch plus one invalid op) is
//!   undone exactly, too;
//! - a successful result stays within the depth limit: its JSON text parses again and writes
//!   back to the same text; the result is JSON-equal to itself.
#![no_main]

use agentwire::json::patch::{apply, values_equal, PatchError};
use agentwire::json::{self, Value, MAX_DEPTH};
use libfuzzer_sys::fuzz_target;

const CODES: [&str; 6] = [
    "invalid-patch",
    "invalid-pointer",
    "invalid-index",
    "path-not-found",
    "test-failed",
    "too-deep",
];

fn check_error(e: &PatchError, ops: usize) {
    assert!(CODES.contains(&e.code()), "unknown code {}", e.code());
    let message = e.to_string();
    match e.op() {
        Some(i) => {
            assert!(i < ops.max(1), "{message}: op index {i} of {ops} ops");
            assert!(message.contains(&format!("op {i}")), "{message}");
            assert!(e.member().is_some());
        }
        None => assert!(matches!(e, PatchError::NotAnArray), "{message}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Some((doc_text, patch_text)) = text.split_once('\0') else {
        return;
    };
    let (Ok(doc), Ok(patch)) = (
        json::parse(doc_text),
        json::parse_with_depth(patch_text, MAX_DEPTH + 2),
    ) else {
        return;
    };
    let ops = patch.as_array().map_or(0, <[Value]>::len);
    let original = doc.clone();
    let mut doc = doc;
    match apply(&mut doc, &patch) {
        Err(e) => {
            check_error(&e, ops);
            assert_eq!(doc, original, "{e}: the document changed");
        }
        Ok(()) => {
            let written = doc.to_json();
            let again = json::parse(&written)
                .unwrap_or_else(|e| panic!("the result does not parse again ({e}): {written}"));
            // Writing is a fixpoint (not `again == doc`: a number beyond f64, `1e999`, parses
            // to infinity and is written `null`, as `JSON.stringify` does).
            assert_eq!(again.to_json(), written);
            assert!(values_equal(&doc, &doc), "{written}");
            // The same changes, then a failure: all undone.
            let Value::Array(mut items) = patch else {
                unreachable!("apply accepted a patch that is not an array");
            };
            items.push(Value::Object(vec![("op".into(), Value::String("fail".into()))]));
            let mut doc = original.clone();
            let e = apply(&mut doc, &Value::Array(items)).expect_err("an invalid op must fail");
            check_error(&e, ops + 1);
            assert_eq!(doc, original, "{e}: the document changed");
        }
    }
});
