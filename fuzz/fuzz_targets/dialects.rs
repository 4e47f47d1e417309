//! Every dialect decoder (a2a, acp, unified, myagent, ag-ui, ai-sdk, and auto-detection), through the whole
//! session: dialect decoder → canonical decoder → store, then the client's answers.
//!
//! Input: 1 header byte: its low 3 bits pick the dialect (a2a, acp, unified, myagent, ag-ui,
//! ai-sdk, auto; 7 is auto too), bit 3
//! the framing (clear: the rest is an SSE stream, fed in two chunks; set: one WebSocket text
//! frame per line); then the stream.
//!
//! Invariants checked: no panic (the `Session` and the stateless `StreamDecoder` both read the
//! input); the answers and messages built for open requests are valid JSON; the final state is
//! valid JSON.
#![no_main]

use agentwire::dialects::{respond, Dialect, DialectChoice};
use agentwire::events::AgentEvent;
use agentwire::json;
use agentwire::pipeline::{Session, StreamDecoder};
use agentwire::sse::SseConfig;
use agentwire::state::{EventMeta, Store};
use agentwire::state::{Limits, RequestState};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&h, rest)) = data.split_first() else {
        return;
    };
    let choice = match h & 7 {
        0 => DialectChoice::Fixed(Dialect::A2a),
        1 => DialectChoice::Fixed(Dialect::Acp),
        2 => DialectChoice::Fixed(Dialect::Unified),
        3 => DialectChoice::Fixed(Dialect::MyAgent),
        4 => DialectChoice::Fixed(Dialect::AgUi),
        5 => DialectChoice::Fixed(Dialect::AiSdk),
        _ => DialectChoice::Auto,
    };
    let frames = h & 0x08 != 0;
    let limits = Limits {
        max_tasks: 64,
        max_diagnostics: 64,
        raw_log_events: 8,
        ..Limits::default()
    };
    let mut session = Session::with_dialect(SseConfig::default(), limits, choice);
    let mut decoder = StreamDecoder::with_dialect(SseConfig::default(), choice);
    let mut applied = 0u64;
    let mut observe = |_: &AgentEvent<'_>, _: &EventMeta<'_>, _: &Store| applied += 1;
    if frames {
        for line in rest.split(|&b| b == b'\n') {
            let text = String::from_utf8_lossy(line);
            session.feed_frame(&text, &mut observe);
            decoder.feed_frame(&text, &mut |_| {});
        }
    } else {
        let (a, b) = rest.split_at(rest.len() / 2);
        for part in [a, b] {
            session.feed(part, &mut observe);
            decoder.feed(part, &mut |_| {});
        }
    }
    // Answer every open request in the dialect's own way, then record it as answered.
    let open: Vec<String> = session
        .store()
        .tasks()
        .flat_map(|t| {
            let inputs = t
                .inputs
                .iter()
                .filter(|i| i.state == RequestState::Open)
                .map(|i| i.id.clone());
            let auths = t
                .auths
                .iter()
                .filter(|a| a.state == RequestState::Open)
                .map(|a| a.id.clone());
            inputs.chain(auths).collect::<Vec<_>>()
        })
        .collect();
    for (n, id) in open.iter().take(8).enumerate() {
        let value = match n % 3 {
            0 => json::Value::Bool(true),
            1 => json::Value::String("yes".into()),
            _ => json::Value::Object(vec![(
                "optionId".into(),
                json::Value::String("allow".into()),
            )]),
        };
        if let Some((dec, store)) = session.dialect_parts() {
            if let Ok(out) = respond::answer(dec, store, id, &value, None) {
                assert!(
                    json::parse(&out.body).is_ok(),
                    "answer is not JSON: {}",
                    out.body
                );
            }
            if let Ok(out) = respond::send_message(dec, "hello", None, None) {
                assert!(
                    json::parse(&out.body).is_ok(),
                    "message is not JSON: {}",
                    out.body
                );
            }
        }
        session.mark_answered(id, &mut |_: &AgentEvent<'_>,
                                        _: &EventMeta<'_>,
                                        _: &Store| {});
    }
    session.finish();
    let state = session.store().state_json();
    assert!(json::parse(&state).is_ok(), "state is not JSON: {state}");
});
