//! The canonical decoder + validator on arbitrary event JSON.
//!
//! Input: 1 header byte selecting the SSE `event:` type (`message`, or one of the canonical
//! kinds, or a kind that exists nowhere), then the event's data (lossy UTF-8, as the SSE parser
//! delivers it).
//!
//! Invariants checked:
//! - no panic;
//! - an event is returned exactly when no error-severity diagnostic was reported;
//! - the `content-delta` fast path changes nothing: `decode_event` and `decode_event_general`
//!   give the same event and the same diagnostics;
//! - every diagnostic has a non-empty message, a path starting with `$` and a bounded `raw`;
//! - a known event written back as JSON decodes without errors, to an event written the same;
//! - the JSON parser accepts what its writer wrote for any value it parsed.
#![no_main]

use agentwire::events::{decode_event, decode_event_general, AgentEvent, EventContext, Severity, KINDS, MAX_RAW_BYTES};
use agentwire::json;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&h, rest)) = data.split_first() else {
        return;
    };
    let sse_type = match usize::from(h) {
        0 => "message",
        i if i <= KINDS.len() => KINDS[i - 1],
        _ => "message",
    };
    let text = String::from_utf8_lossy(rest);
    let cx = EventContext {
        sse_type,
        event_id: "7",
        position: 3,
    };
    let mut diags = Vec::new();
    let ev = decode_event(&text, &cx, &mut diags);
    let mut general_diags = Vec::new();
    let general = decode_event_general(&text, &cx, &mut general_diags);
    assert_eq!(ev, general, "fast path and general decoder differ");
    assert_eq!(diags, general_diags, "fast path and general decoder differ in diagnostics");
    let errors = diags.iter().any(|d| d.severity == Severity::Error);
    assert_eq!(
        ev.is_some(),
        !errors,
        "event returned iff no error: {diags:?}"
    );
    for d in &diags {
        assert!(!d.message.is_empty());
        assert!(d.path.starts_with('$'), "path {:?}", d.path);
        assert!(d.raw.as_ref().is_none_or(|r| r.len() <= MAX_RAW_BYTES + 16));
        assert_eq!(d.position, 3);
    }
    if let Some(ev) = &ev {
        if !matches!(ev, AgentEvent::Unknown(_)) {
            let mut out = String::new();
            ev.write_json(&mut out);
            let mut again = Vec::new();
            let cx2 = EventContext {
                sse_type: "message",
                ..cx
            };
            let back = decode_event(&out, &cx2, &mut again);
            assert!(
                !again.iter().any(|d| d.severity == Severity::Error),
                "written event does not decode: {out}\n{again:?}"
            );
            // Writing is a fixpoint after one round: the written event decodes to one that is
            // written the same. (Not `back == ev`: a number beyond f64 is infinite once parsed
            // and written `null`, as JSON.parse/JSON.stringify do; found by this target.)
            let mut rewritten = String::new();
            if let Some(b) = &back {
                b.write_json(&mut rewritten);
            }
            assert_eq!(rewritten, out, "write(decode(write(event))) differs");
        }
    }
    if let Ok(v) = json::parse(&text) {
        let written = v.to_json();
        let again = json::parse(&written).expect("writer output must parse");
        assert_eq!(again.to_json(), written, "json round trip is not stable");
    }
});
