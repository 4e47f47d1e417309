//! The Vercel AI SDK's UI message stream as the official `ai` 7.x writes and reads it
//! (`tests/ai-sdk/`, WIRE.md).
//!
//! `tests/recordings/ai-sdk/<name>.sse` are the bytes the official writers served for each
//! stream of `tests/ai-sdk/streams.mjs` (`createUIMessageStream`, `streamText` over the package's
//! mock model); `.crlf.sse` / `.cr.sse` the same with CRLF / CR line ends. `<name>.official.json`
//! holds what the official `readUIMessageStream` (behind `DefaultChatTransport`'s parsing) ended
//! with. Each stream is its own test: agentwire reads the bytes (after the stream it continues,
//! with the client's approval answer, as the official chat did) at several chunkings, and
//! - the assistant message is the official `UIMessage`: same id, same `metadata`, and the same
//!   `parts`, member for member (text and reasoning state, tool states, inputs, outputs,
//!   approvals, sources, files, data parts replaced by id, step starts);
//! - a valid stream gives no error diagnostic; an invalid one gives one where the official client
//!   stopped, the parts it had built are there, and the stream goes on;
//! - CRLF and CR give the LF state (the official client loses the last event of a CR stream cut
//!   before its end; agentwire does not).

#![cfg(not(target_arch = "wasm32"))]

use agentwire::dialects::{Dialect, DialectChoice};
use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::Limits;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recordings/ai-sdk")
}

/// JSON text with lone surrogate escapes (what JavaScript writes for half an emoji) turned
/// into U+FFFD, which is what agentwire's parser makes of them (serde_json refuses them).
fn without_lone_surrogates(text: &str) -> String {
    let b = text.as_bytes();
    let hex = |i: usize| {
        text.get(i..i + 4)
            .and_then(|h| u32::from_str_radix(h, 16).ok())
    };
    let esc = |i: usize| b.get(i) == Some(&b'\\') && b.get(i + 1) == Some(&b'u');
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if esc(i) && (i == 0 || b[i - 1] != b'\\') {
            if let Some(v) = hex(i + 2) {
                let paired = (0xD800..0xDC00).contains(&v)
                    && esc(i + 6)
                    && hex(i + 8).is_some_and(|w| (0xDC00..0xE000).contains(&w));
                if paired {
                    out.push_str(&text[i..i + 12]);
                    i += 12;
                    continue;
                }
                if (0xD800..0xE000).contains(&v) {
                    out.push_str("\\ufffd");
                    i += 6;
                    continue;
                }
            }
        }
        let c = text[i..].chars().next().unwrap_or('\0');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

fn read_json(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let text = without_lone_surrogates(&text);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn index() -> Value {
    read_json(&dir().join("index.json"))
}

fn feed(s: &mut Session, name: &str, framing: &str, chunk: usize) {
    let bytes = std::fs::read(dir().join(format!("{name}{framing}.sse"))).expect("recording");
    s.begin_new_stream();
    for c in bytes.chunks(chunk.max(1)) {
        s.feed(c, &mut |_, _, _| {});
    }
    s.finish();
}

fn replay(name: &str, framing: &str, chunk: usize) -> Session {
    let idx = index();
    let mut s = Session::with_dialect(
        SseConfig::default(),
        Limits::default(),
        DialectChoice::Fixed(Dialect::AiSdk),
    );
    s.set_now_ms(Some(1_700_000_000_000));
    if let Some(from) = idx[name]["continues"]["from"].as_str() {
        feed(&mut s, from, framing, chunk);
        // The client answers the approval, as the official chat did before its next request.
        let a = &idx[name]["continues"]["approve"];
        let id = a["id"].as_str().expect("approval id");
        let (dec, _) = s.dialect_parts().expect("dialect");
        dec.ai_sdk().expect("ai-sdk").answer_approval(
            id,
            a["approved"].as_bool().unwrap_or(true),
            a["reason"].as_str(),
        );
        assert!(
            s.mark_answered(id, &mut |_, _, _| {}),
            "{name}: approval {id} open"
        );
    }
    feed(&mut s, name, framing, chunk);
    s
}

fn state(s: &Session) -> Value {
    serde_json::from_str(&s.store().state_json()).expect("state json")
}

/// The assistant message `id` as the SDK's `UIMessage`: `{id, role, metadata?, parts}`.
fn ui_message(st: &Value, id: &str) -> Option<Value> {
    let m = st["tasks"]
        .as_array()?
        .iter()
        .flat_map(|t| t["messages"].as_array().cloned().unwrap_or_default())
        .find(|m| m["id"] == id && m["role"] == "assistant")?;
    let mut out = json!({"id": m["id"], "role": m["role"], "parts": m["parts"]});
    if let Some(md) = m.get("metadata") {
        out["metadata"] = md.clone();
    }
    Some(out)
}

fn check(name: &str) {
    let idx = index();
    let official = read_json(&dir().join(format!("{name}.official.json")));
    let want = &official["reader"]["message"];
    let s = replay(name, "", 1 << 20);
    let st = state(&s);
    let errors: Vec<String> = s
        .store()
        .diagnostics()
        .filter(|d| d.severity == agentwire::events::Severity::Error)
        .map(|d| format!("{}: {}", d.code.as_str(), d.message))
        .collect();
    let id = want["id"].as_str().unwrap_or_default();
    let ours = ui_message(&st, id);
    if idx[name]["valid"] == true {
        assert!(
            errors.is_empty(),
            "{name}: errors on a valid stream: {errors:?}"
        );
        let mut want = want.clone();
        if want.get("metadata").is_some_and(Value::is_null) {
            want.as_object_mut().map(|o| o.remove("metadata"));
        }
        // `readUIMessageStream` yields no snapshot after a `start-step` (nor after `error`,
        // `finish-step`, `finish`): a step started last is in the official chat's message but
        // not in the reader's last yield. agentwire's message has it.
        let mut ours = ours.unwrap_or(Value::Null);
        let trailing_step = |m: &Value| {
            m["parts"]
                .as_array()
                .and_then(|p| p.last())
                .is_some_and(|p| p["type"] == "step-start")
        };
        let official_parts = want["parts"].as_array().map_or(0, Vec::len);
        while ours["parts"].as_array().map_or(0, Vec::len) > official_parts && trailing_step(&ours)
        {
            ours["parts"].as_array_mut().map(Vec::pop);
        }
        assert_eq!(ours, want, "{name}: the message");
    } else {
        // An unknown chunk type is a warning (forward compatibility: kept as an event).
        let unknown_type = s
            .store()
            .diagnostics()
            .any(|d| d.code.as_str() == "invalid-enum");
        assert!(
            !errors.is_empty() || unknown_type,
            "{name}: no diagnostic for an invalid stream"
        );
        // What the official client built before it stopped is there, in order.
        let have = ours.map(|m| m["parts"].clone()).unwrap_or(json!([]));
        let built = want["parts"].as_array().cloned().unwrap_or_default();
        let have = have.as_array().cloned().unwrap_or_default();
        assert!(have.len() >= built.len(), "{name}: {have:?} vs {built:?}");
        for (i, p) in built.iter().enumerate() {
            assert_eq!(&have[i]["type"], &p["type"], "{name}: part {i}");
        }
    }
    for chunk in [1, 7, 64] {
        assert_eq!(
            state(&replay(name, "", chunk)),
            st,
            "{name}: chunks of {chunk} bytes"
        );
    }
    for framing in [".crlf", ".cr"] {
        assert_eq!(state(&replay(name, framing, 64)), st, "{name}{framing}");
    }
}

macro_rules! streams {
    ($($test:ident = $name:literal,)*) => {
        $( #[test] fn $test() { check($name); } )*

        /// Every recorded stream has its test above.
        #[test]
        fn every_recorded_stream_is_tested() {
            let mut named = vec![$($name),*];
            named.sort_unstable();
            let idx = index();
            let mut recorded: Vec<&str> = idx.as_object().expect("index").keys().map(String::as_str).collect();
            recorded.sort_unstable();
            assert_eq!(named, recorded);
        }
    };
}

streams! {
    text_basic = "text-basic",
    text_two_parts = "text-two-parts",
    reasoning = "reasoning",
    metadata_merged_from_start_chunk_and_finish = "metadata",
    multi_step = "multi-step",
    reset_step = "reset-step",
    tool_input_split_inside_a_character_and_a_token = "tool-split-input",
    tool_input_error = "tool-input-error",
    tool_output_error = "tool-output-error",
    tools_parallel = "tools-parallel",
    tool_approval_request = "tool-approval",
    tool_approval_approved_continues_the_message = "tool-approval-approved",
    tool_approval_denied = "tool-approval-denied",
    tool_provider_executed = "tool-provider-executed",
    tool_dynamic_preliminary = "tool-dynamic-preliminary",
    sources_and_files = "sources-files",
    data_parts_replaced_by_type_and_id = "data-parts",
    steering_message = "steering-message",
    forward_compatible_members = "forward-compat",
    keepalive_comments = "keepalive",
    error_chunk_and_the_stream_goes_on = "error-chunk",
    execute_throws = "execute-throws",
    abort_chunk = "abort",
    cut_before_finish = "cut-before-finish",
    cut_mid_frame = "cut-mid-frame",
    invalid_delta_before_start = "invalid-delta-before-start",
    invalid_reasoning_end_without_start = "invalid-reasoning-end-without-start",
    invalid_tool_delta_unknown_call = "invalid-tool-delta-unknown-call",
    invalid_tool_output_unknown_call = "invalid-tool-output-unknown-call",
    invalid_unknown_type = "invalid-unknown-type",
    invalid_missing_member = "invalid-missing-member",
    invalid_malformed_json = "invalid-malformed-json",
    sse_fields = "sse-fields",
    streamtext_tool_steps = "streamtext-tool-steps",
    streamtext_approval_and_sources = "streamtext-approval-sources",
    streamtext_errors = "streamtext-errors",
}

/// Auto-detection recognises the UI message stream from its first chunk (and `[DONE]` is its
/// end, not a JSON error): the same state as `dialect: "ai-sdk"`.
#[test]
fn auto_detection_reads_the_ui_message_stream_from_its_first_chunk() {
    for name in [
        "text-basic",
        "tool-approval",
        "data-parts",
        "streamtext-tool-steps",
    ] {
        let bytes = std::fs::read(dir().join(format!("{name}.sse"))).expect("recording");
        let mut auto =
            Session::with_dialect(SseConfig::default(), Limits::default(), DialectChoice::Auto);
        auto.set_now_ms(Some(1_700_000_000_000));
        auto.feed(&bytes, &mut |_, _, _| {});
        auto.finish();
        assert_eq!(auto.dialect(), Some(Dialect::AiSdk), "{name}");
        assert_eq!(state(&auto), state(&replay(name, "", 1 << 20)), "{name}");
        assert_eq!(auto.store().diagnostics().count(), 0, "{name}");
    }
}

/// The response header `x-vercel-ai-ui-message-stream` names the protocol before its first chunk:
/// an undecided session takes it (what the fetch transport does with a response's headers); a
/// session whose dialect is known keeps it.
#[test]
fn the_response_header_names_the_ui_message_stream() {
    let header = |n: &str| (n == "x-vercel-ai-ui-message-stream").then(|| "v1".to_owned());
    let d = agentwire::dialects::detect_headers(header).expect("named");
    let mut s = Session::with_dialect(SseConfig::default(), Limits::default(), DialectChoice::Auto);
    assert!(s.adopt_dialect(d));
    assert_eq!(s.dialect(), Some(Dialect::AiSdk));
    let mut agui = Session::with_dialect(
        SseConfig::default(),
        Limits::default(),
        DialectChoice::Fixed(Dialect::AgUi),
    );
    assert!(!agui.adopt_dialect(d));
    assert_eq!(agui.dialect(), Some(Dialect::AgUi));
}
