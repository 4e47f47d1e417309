//! AG-UI 1.0 as the official packages write and read it (`tests/ag-ui/`, WIRE.md).
//!
//! `tests/recordings/ag-ui/<name>.sse` are the bytes `@ag-ui/encoder` 1.0.0 wrote for each
//! event list of `tests/ag-ui/streams/events.mjs`; `<name>.crlf.sse` / `<name>.cr.sse` the same
//! events framed with CRLF / CR. `<name>.official.json` is what the official `HttpAgent` 1.0.0
//! ended with for the LF bytes (`tests/ag-ui/official.mjs`). Each stream is its own test:
//! agentwire reads the bytes (after the streams its `after` chain names, on the same thread, as
//! the official client ran them) at several chunkings, and
//! - every message the official client ends with that the stream produced is in agentwire's
//!   state with the same role, text, tool calls (id, name, argument text), tool call id and
//!   activity, and agentwire invents none;
//! - the shared state equals the official `state`, and the open input requests are the
//!   official `pendingInterrupts`;
//! - a valid stream gives no error diagnostic; an invalid one gives the official client's error
//!   as an error diagnostic, and the valid part is applied;
//! - the CRLF and CR framings give exactly the LF state (the official client applies nothing).

#![cfg(not(target_arch = "wasm32"))]

use agentwire::dialects::{Dialect, DialectChoice};
use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::Limits;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recordings/ag-ui")
}

fn read_json(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn index() -> Value {
    read_json(&dir().join("index.json"))
}

/// The session after reading `name`'s chain and `name` in `framing` ("" / ".crlf" / ".cr").
fn replay(name: &str, framing: &str, chunk: usize) -> Session {
    let idx = index();
    let mut s = Session::with_dialect(
        SseConfig::default(),
        Limits::default(),
        DialectChoice::Fixed(Dialect::AgUi),
    );
    s.set_now_ms(Some(1_700_000_000_000));
    let mut chain: Vec<String> = idx[name]["after"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    chain.push(name.to_owned());
    for n in chain {
        // The client's RunAgentInput for this run, as the browser client records it.
        let input = std::fs::read_to_string(dir().join(format!("{n}.input.json"))).expect("input");
        let input = agentwire::json::parse(&input).expect("input json");
        let (decoder, _) = s.dialect_parts().expect("dialect");
        decoder.ag_ui().expect("ag-ui").set_run_input(&input);
        let bytes = std::fs::read(dir().join(format!("{n}{framing}.sse"))).expect("recording");
        s.begin_new_stream();
        for c in bytes.chunks(chunk.max(1)) {
            s.feed(c, &mut |_, _, _| {});
        }
        s.finish();
    }
    s
}

fn state(s: &Session) -> Value {
    serde_json::from_str(&s.store().state_json()).expect("state json")
}

/// The thread's messages in agentwire's state: every task's, in task order.
fn our_messages(st: &Value) -> Vec<Value> {
    st["tasks"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|t| t["messages"].as_array().cloned().unwrap_or_default())
        .collect()
}

/// A message reduced to what both sides must agree on.
fn essence(m: &Value, ours: bool) -> Value {
    let calls: Vec<Value> = m["toolCalls"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| json!([c["id"], c["function"]["name"], c["function"]["arguments"]]))
        .collect();
    let content = if m["role"] == "activity" {
        if ours {
            m["activity"].clone()
        } else {
            m["content"].clone()
        }
    } else if let Some(parts) = m["content"].as_array().filter(|_| !ours) {
        // Official array content: its text parts are agentwire's `content`.
        Value::String(parts.iter().filter_map(|p| p["text"].as_str()).collect())
    } else {
        m.get("content")
            .cloned()
            .unwrap_or(Value::String(String::new()))
    };
    json!({
        "role": m["role"],
        "content": content,
        "toolCalls": calls,
        "toolCallId": m.get("toolCallId").cloned().unwrap_or(Value::Null),
        "activityType": m.get("activityType").cloned().unwrap_or(Value::Null),
        "encryptedValue": m.get("encryptedValue").cloned().unwrap_or(Value::Null),
    })
}

/// Client-minted ids: the official `<uuid-N>` is agentwire's `thinking-N`.
fn our_id(official: &str) -> String {
    match official
        .strip_prefix("<uuid-")
        .and_then(|r| r.strip_suffix('>'))
    {
        Some(n) => format!("thinking-{n}"),
        None => official.to_owned(),
    }
}

fn check(name: &str) {
    let idx = index();
    let official = read_json(&dir().join(format!("{name}.official.json")));
    let input = read_json(&dir().join(format!("{name}.input.json")));
    let input_ids: Vec<&str> = input["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["id"].as_str())
        .collect();
    let lf = replay(name, "", 1 << 20);
    let st = state(&lf);
    let ours = our_messages(&st);
    let ours_by_id = |id: &str| ours.iter().find(|m| m["id"] == id);
    // Every official message the stream produced is there, the same.
    for m in official["messages"].as_array().into_iter().flatten() {
        let id = our_id(m["id"].as_str().unwrap_or_default());
        match ours_by_id(&id) {
            Some(o) => assert_eq!(essence(o, true), essence(m, false), "{name}: message {id}"),
            None => assert!(
                input_ids.contains(&id.as_str()),
                "{name}: message {id} missing; ours: {ours:#?}"
            ),
        }
    }
    // And nothing invented. (An invalid stream: the official client's error overtakes the
    // events still queued, so what it kept of the valid part is timing-dependent, WIRE.md §6.)
    let official_ids: Vec<String> = official["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| our_id(m["id"].as_str().unwrap_or_default()))
        .collect();
    for o in ours.iter().filter(|_| idx[name]["valid"] == true) {
        let id = o["id"].as_str().unwrap_or_default();
        assert!(
            official_ids.iter().any(|x| x == id),
            "{name}: message {id} is not in the official state"
        );
    }
    // Shared state of the thread's latest run (the official agent's `state` starts at `{}`).
    let last_root = st["tasks"]
        .as_array()
        .into_iter()
        .flatten()
        .rfind(|t| t.get("parentId").is_none());
    let shared = last_root
        .and_then(|t| t.get("sharedState").cloned())
        .unwrap_or(json!({}));
    assert_eq!(shared, official["state"], "{name}: shared state");
    // Pending interrupts = the open input requests.
    let open: Vec<Value> = st["tasks"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|t| t["inputs"].as_array().cloned().unwrap_or_default())
        .filter(|i| i["state"] == "open")
        .map(|i| i["id"].clone())
        .collect();
    let pending: Vec<Value> = official["pendingInterrupts"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|i| i["id"].clone())
        .collect();
    assert_eq!(open, pending, "{name}: pending interrupts");
    // Diagnostics: none of error severity for a valid stream; the official error for another.
    let errors: Vec<String> = lf
        .store()
        .diagnostics()
        .filter(|d| d.severity == agentwire::events::Severity::Error)
        .map(|d| d.message.clone())
        .collect();
    if idx[name]["valid"] == true {
        assert!(
            errors.is_empty(),
            "{name}: errors on a valid stream: {errors:?}"
        );
    } else {
        let want = official["error"]["message"].as_str().unwrap_or_default();
        let want = want.trim_end_matches('.');
        let zod = want.trim_start().starts_with('[');
        assert!(
            errors.iter().any(|e| zod || e.contains(want)),
            "{name}: the official error {want:?} is not among {errors:?}"
        );
    }
    // Same state whatever the chunking and the framing.
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
    lifecycle_steps = "lifecycle-steps",
    text_chunks = "text-chunks",
    tool_call_with_arguments_split_inside_a_surrogate_pair = "tool-call",
    tool_call_chunks = "tool-call-chunks",
    tool_calls_parallel = "tool-calls-parallel",
    reasoning = "reasoning",
    state_patches_with_escapes_move_copy_and_a_failed_test = "state",
    messages_snapshot = "messages-snapshot",
    activity = "activity",
    subagent = "subagent",
    custom_and_raw = "custom-raw",
    run_error = "run-error",
    run_error_first = "run-error-first",
    cancelled = "cancelled",
    interrupt = "interrupt",
    resume_after_interrupt = "resume",
    resume_cancelled = "resume-cancelled",
    two_turn_first = "two-turn-1",
    two_turn_second = "two-turn-2",
    multi_run = "multi-run",
    legacy_thinking = "legacy-thinking",
    unknown_material = "unknown-material",
    truncated = "truncated",
    invalid_content_before_start = "invalid-content-before-start",
    invalid_content_after_end = "invalid-content-after-end",
    invalid_event_after_finished = "invalid-event-after-finished",
    invalid_event_after_error = "invalid-event-after-error",
    invalid_first_event = "invalid-first-event",
    invalid_run_started_twice = "invalid-run-started-twice",
    invalid_finish_open_message = "invalid-finish-open-message",
    invalid_args_after_end = "invalid-args-after-end",
    invalid_step_not_started = "invalid-step-not-started",
    invalid_schema = "invalid-schema",
    invalid_interrupt_without_interrupts = "invalid-interrupt-without-interrupts",
}

/// A task's answer (`content`) is the text of its assistant messages, a blank line between two,
/// so UI code written for `content` shows an AG-UI run's answer.
#[test]
fn assistant_messages_are_the_task_answer() {
    for name in [
        "text-chunks",
        "tool-call",
        "reasoning",
        "multi-run",
        "messages-snapshot",
    ] {
        let st = state(&replay(name, "", 64));
        for t in st["tasks"].as_array().into_iter().flatten() {
            let texts: Vec<&str> = t["messages"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|m| m["role"] == "assistant")
                .filter_map(|m| m["content"].as_str())
                .filter(|c| !c.is_empty())
                .collect();
            assert_eq!(t["content"], texts.join("\n\n"), "{name}: task {}", t["id"]);
        }
    }
    let st = state(&replay("text-chunks", "", 64));
    assert!(st["tasks"][0]["content"]
        .as_str()
        .is_some_and(|c| c.contains("\n\n")));
}

/// Auto-detection recognises AG-UI from its first event: the same state as `dialect: "ag-ui"`.
#[test]
fn auto_detection_reads_ag_ui_from_its_first_event() {
    for name in ["text-basic", "tool-call", "state", "interrupt"] {
        let bytes = std::fs::read(dir().join(format!("{name}.sse"))).expect("recording");
        let mut auto =
            Session::with_dialect(SseConfig::default(), Limits::default(), DialectChoice::Auto);
        let mut fixed = Session::with_dialect(
            SseConfig::default(),
            Limits::default(),
            DialectChoice::Fixed(Dialect::AgUi),
        );
        for s in [&mut auto, &mut fixed] {
            s.set_now_ms(Some(1_700_000_000_000));
            s.feed(&bytes, &mut |_, _, _| {});
            s.finish();
        }
        assert_eq!(auto.dialect(), Some(Dialect::AgUi), "{name}");
        assert_eq!(state(&auto), state(&fixed), "{name}");
    }
}
