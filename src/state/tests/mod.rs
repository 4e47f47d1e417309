//! Store behaviour, event by event (recorded-stream tests live in tests/recordings.rs).
//!
//! One file per topic: [`content`], [`tasks`], [`requests`], [`artifacts`], [`replay`], [`limits`], [`versions`].

use super::*;
use crate::events::{decode_event, AgentEvent, DiagCode, EventContext};

mod artifacts;
mod content;
mod limits;
mod replay;
mod requests;
mod tasks;
mod versions;

const TS: &str = "2025-11-06T10:30:00Z";

fn ev(json: &str) -> String {
    // Adds the envelope fields to a partial event.
    let t = json.trim();
    let body = t
        .strip_prefix('{')
        .and_then(|b| b.strip_suffix('}'))
        .unwrap_or(t);
    format!(r#"{{"contextId":"ctx","timestamp":"{TS}",{body}}}"#)
}

fn apply_all(store: &mut Store, events: &[String]) {
    for (i, e) in events.iter().enumerate() {
        let mut d = Vec::new();
        let cx = EventContext {
            sse_type: "message",
            event_id: "",
            position: i as u64,
        };
        let decoded: Option<AgentEvent<'_>> = decode_event(e, &cx, &mut d);
        assert!(d.is_empty(), "event {i} did not decode cleanly: {d:?}");
        let meta = EventMeta {
            event_id: "",
            position: i as u64,
            raw: e,
        };
        store.apply(&decoded.expect("decoded"), &meta);
    }
}

fn codes(store: &Store) -> Vec<DiagCode> {
    store.diagnostics().map(|d| d.code).collect()
}

fn evs(list: &[&str]) -> Vec<String> {
    list.iter().map(|e| ev(e)).collect()
}

/// The state JSON without what is not rendered: version and revision numbers, and the stats
/// counters at the end.
fn visible(s: &Store) -> String {
    let json = s.state_json();
    let mut out = String::new();
    let mut rest = json.split(",\"stats\":").next().unwrap_or_default();
    while let Some((at, len)) = ["\"version\":", "\"revision\":"]
        .iter()
        .filter_map(|k| rest.find(k).map(|at| (at, k.len())))
        .min()
    {
        out.push_str(&rest[..at]);
        rest = rest[at + len..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}
