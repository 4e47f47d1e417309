//! Dialects (issue 6, pure-Rust part): recordings built from the seed documents' own examples,
//! decoded into canonical events and assembled, at several chunkings; auto-detection; malformed
//! dialect events as diagnostics; the messages a client sends, checked against the seeds'
//! examples; and a randomized no-panic run over mutated recordings.
//!
//! Layout: `tests/dialects/<dialect>/<name>.sse` (SSE) or `<name>.jsonl` (one WebSocket text
//! frame per line), next to `<name>.events.jsonl` (what `agentwire events --dialect <dialect>`
//! prints) and `<name>.state.json` (what `agentwire state --dialect <dialect>` prints). The
//! expectations were reviewed by hand against the seeds (see tests/dialects/README.md). Each
//! recording is its own test, named `<dialect>_<file>` (`dialect_recordings!` below, which
//! fails when a recording is missing from its list).
//!
//! Golden files (the convention of `tests/golden/mod.rs`): `<name>.events.jsonl` and
//! `<name>.state.json`; rewrite them after a reviewed change with
//! `UPDATE_GOLDEN=1 cargo test --test dialects`.

#![cfg(not(target_arch = "wasm32"))]

mod golden;

use agentwire::dialects::{detect, respond, Dialect, DialectChoice};
use agentwire::json::{parse, Value};
use agentwire::pipeline::{Item, Session, StreamDecoder};
use agentwire::sse::SseConfig;
use agentwire::state::{Limits, RequestState};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dialects")
}

struct Recording {
    dialect: Dialect,
    path: PathBuf,
    bytes: Vec<u8>,
}

impl Recording {
    fn frames(&self) -> bool {
        self.path.extension().is_some_and(|e| e == "jsonl")
            && !self.path.to_string_lossy().ends_with(".events.jsonl")
    }
    fn lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.bytes)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_owned)
            .collect()
    }
    fn stem(&self) -> String {
        let name = self.path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        name.rsplit_once('.').map_or(name, |(a, _)| a).to_owned()
    }
    fn sibling(&self, suffix: &str) -> PathBuf {
        self.path.with_file_name(format!("{}{suffix}", self.stem()))
    }
}

fn recordings() -> Vec<Recording> {
    let mut out = Vec::new();
    for d in [
        Dialect::A2a,
        Dialect::Acp,
        Dialect::Unified,
        Dialect::MyAgent,
    ] {
        let sub = dir().join(d.as_str());
        let mut files: Vec<PathBuf> = std::fs::read_dir(&sub)
            .unwrap_or_else(|_| panic!("{} missing", sub.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                let n = p.to_string_lossy();
                (n.ends_with(".sse") || n.ends_with(".jsonl")) && !n.ends_with(".events.jsonl")
            })
            .collect();
        files.sort();
        for path in files {
            let bytes = std::fs::read(&path).expect("read recording");
            out.push(Recording {
                dialect: d,
                path,
                bytes,
            });
        }
    }
    assert!(out.len() >= 12, "recordings missing");
    out
}

/// The assembled state at a given SSE chunk size (frames ignore it).
fn state(r: &Recording, choice: DialectChoice, chunk: usize) -> String {
    let mut s = session(choice);
    if r.frames() {
        for f in r.lines() {
            s.feed_frame(&f, &mut |_, _, _| {});
        }
    } else {
        for c in r.bytes.chunks(chunk.max(1)) {
            s.feed(c, &mut |_, _, _| {});
        }
    }
    s.finish();
    s.store().state_json()
}

/// The decoded events and diagnostics, one JSON line each (as the `events` CLI prints them).
fn events(r: &Recording, choice: DialectChoice, chunk: usize) -> Vec<String> {
    let mut d = StreamDecoder::with_dialect(SseConfig::default(), choice);
    d.set_now_ms(Some(RECEIVED_MS));
    let mut out = Vec::new();
    let mut on = |item: Item<'_>| {
        let mut line = String::new();
        match item {
            Item::Event(ev, _) => {
                line.push_str("{\"event\":");
                ev.write_json(&mut line);
            }
            Item::Diagnostic(diag) => {
                line.push_str("{\"diagnostic\":");
                diag.write_json(&mut line);
            }
        }
        line.push('}');
        out.push(line);
    };
    if r.frames() {
        for f in r.lines() {
            d.feed_frame(&f, &mut on);
        }
    } else {
        for c in r.bytes.chunks(chunk.max(1)) {
            d.feed(c, &mut on);
        }
    }
    out
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not json ({e}): {text}"))
}

/// The assembled state without the store's own bookkeeping (`version`, `revision`,
/// `createdAt`/`updatedAt`): what the dialect decided, not how the store counts changes.
/// A session reading `choice` with the default SSE settings and limits.
/// When the recordings are "received": the time an event without a timestamp gets.
const RECEIVED_MS: i64 = 1_700_000_000_000;

fn session(choice: DialectChoice) -> Session {
    let mut s = Session::with_dialect(SseConfig::default(), Limits::default(), choice);
    s.set_now_ms(Some(RECEIVED_MS));
    s
}

fn assembled(text: &str) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                for k in ["revision", "createdAt", "updatedAt"] {
                    m.remove(k);
                }
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v = json(text);
    if let Some(m) = v.as_object_mut() {
        m.remove("version");
    }
    for key in ["tasks", "artifacts"] {
        if let Some(x) = v.get_mut(key) {
            strip(x);
        }
    }
    v
}

/// Recording `rel` (`<dialect>/<file>`) decodes to its golden events and assembles to its golden
/// state at every chunking.
fn check_recording(rel: &str) {
    let update = golden::updating();
    let r = recordings()
        .into_iter()
        .find(|r| r.path.ends_with(rel))
        .unwrap_or_else(|| panic!("no recording {rel}"));
    let choice = DialectChoice::Fixed(r.dialect);
    let whole = r.bytes.len();
    let ev_path = r.sibling(".events.jsonl");
    let st_path = r.sibling(".state.json");
    if update {
        let mut text = events(&r, choice, whole).join("\n");
        text.push('\n');
        std::fs::write(&ev_path, text).expect("write events");
        let pretty =
            serde_json::to_string_pretty(&json(&state(&r, choice, whole))).expect("pretty");
        std::fs::write(&st_path, pretty + "\n").expect("write state");
        return;
    }
    let want_events: Vec<serde_json::Value> = std::fs::read_to_string(&ev_path)
        .unwrap_or_else(|_| panic!("{} has no expected events", r.path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(json)
        .collect();
    let want_state = assembled(
        &std::fs::read_to_string(&st_path)
            .unwrap_or_else(|_| panic!("{} has no expected state", r.path.display())),
    );
    for chunk in [1, 2, 7, 64, whole] {
        let got: Vec<serde_json::Value> =
            events(&r, choice, chunk).iter().map(|l| json(l)).collect();
        assert_eq!(
            got,
            want_events,
            "{} events at chunk {chunk}; {}",
            r.path.display(),
            golden::hint("dialects")
        );
        assert_eq!(
            assembled(&state(&r, choice, chunk)),
            want_state,
            "{} state at chunk {chunk}; {}",
            r.path.display(),
            golden::hint("dialects")
        );
    }
}

/// One test per dialect recording (run one alone: `cargo test --test dialects -- myagent_replay`),
/// and a test that fails when a recording has no test here.
macro_rules! dialect_recordings {
    ($($test:ident = $rel:literal,)*) => {
        $( #[test] fn $test() { check_recording($rel); } )*

        /// Every dialect recording has its test above.
        #[test]
        fn every_dialect_recording_is_tested() {
            let mut named: Vec<String> = vec![$($rel.to_owned()),*];
            named.sort_unstable();
            let mut found: Vec<String> = recordings()
                .iter()
                .map(|r| format!("{}/{}", r.dialect.as_str(), r.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()))
                .collect();
            found.sort_unstable();
            assert_eq!(named, found, "tests/dialects.rs must list every recording");
        }
    };
}

dialect_recordings! {
    a2a_input_auth_artifacts = "a2a/input-auth-artifacts.sse",
    a2a_malformed = "a2a/malformed.sse",
    a2a_message_and_rpc_error = "a2a/message-and-rpc-error.sse",
    a2a_seed_failed_bare = "a2a/seed-failed-bare.sse",
    a2a_seed_stream = "a2a/seed-stream.sse",
    acp_malformed = "acp/malformed.sse",
    acp_permission_flow = "acp/permission-flow.sse",
    acp_seed_events = "acp/seed-events.sse",
    unified_interrupted = "unified/interrupted.sse",
    unified_malformed = "unified/malformed.sse",
    unified_seed_events = "unified/seed-events.sse",
    myagent_errors = "myagent/errors.jsonl",
    myagent_malformed = "myagent/malformed.jsonl",
    myagent_replay = "myagent/replay.jsonl",
    myagent_seed_session = "myagent/seed-session.jsonl",
}

#[test]
fn auto_detection_finds_each_dialect_and_assembles_the_same_state() {
    for r in recordings() {
        if r.stem() == "malformed" {
            continue;
        }
        let mut s = session(DialectChoice::Auto);
        if r.frames() {
            for f in r.lines() {
                s.feed_frame(&f, &mut |_, _, _| {});
            }
        } else {
            s.feed(&r.bytes, &mut |_, _, _| {});
        }
        s.finish();
        assert_eq!(s.dialect(), Some(r.dialect), "{}", r.path.display());
        assert_eq!(
            json(&s.store().state_json()),
            json(&state(&r, DialectChoice::Fixed(r.dialect), r.bytes.len())),
            "{} auto vs fixed",
            r.path.display()
        );
    }
}

#[test]
fn auto_detection_leaves_canonical_streams_untouched() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recordings");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("recordings") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("sse") {
            continue;
        }
        let bytes = std::fs::read(&path).expect("read");
        let mut plain = Session::new(SseConfig::default(), Limits::default());
        plain.feed(&bytes, &mut |_, _, _| {});
        plain.finish();
        let mut auto = session(DialectChoice::Auto);
        auto.feed(&bytes, &mut |_, _, _| {});
        auto.finish();
        assert_eq!(
            plain.store().state_json(),
            auto.store().state_json(),
            "{}",
            path.display()
        );
        assert_eq!(
            auto.dialect(),
            Some(Dialect::Canonical),
            "{}",
            path.display()
        );
        // Settled on protocol 000: the dialect layer is gone (no per-event cost from here on).
        assert!(auto.dialect_parts().is_none(), "{}", path.display());
        assert!(!auto.set_now_ms(Some(0)), "{}", path.display());
        n += 1;
    }
    assert!(n >= 1);
}

#[test]
fn detect_tells_each_seed_shape_apart() {
    let cases = [
        (
            r#"{"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}"#,
            Some(Dialect::Canonical),
        ),
        (
            r#"{"kind":"status-update","taskId":"task-123","contextId":"ctx-456","status":{"state":"working"},"final":false}"#,
            Some(Dialect::A2a),
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"task-123","contextId":"ctx-456","status":{"state":"submitted"}}}"#,
            Some(Dialect::A2a),
        ),
        (
            r#"{"event":"status_change","task_id":"task_123","timestamp":"2024-01-15T10:30:00Z","data":{"old_state":"working","new_state":"completed"}}"#,
            Some(Dialect::Acp),
        ),
        (
            r#"{"event_id":"uuid","session_id":"string","timestamp":"2024-01-01T12:00:00Z","type":"string","payload":{}}"#,
            Some(Dialect::Unified),
        ),
        (
            r#"{"session_id":"sess_xyz789","step_id":"plan_001","event":"plan.start","content":{"question":"q"}}"#,
            Some(Dialect::MyAgent),
        ),
        (
            r#"{"kind":"internal:llm-call","taskId":"t","iteration":1,"timestamp":"2025-10-30T10:00:00Z"}"#,
            None,
        ),
        (r#"{"anything":"else"}"#, None),
    ];
    for (data, want) in cases {
        assert_eq!(detect(data), want, "{data}");
    }
    for name in ["auto", "canonical", "a2a", "acp", "unified", "myagent"] {
        let c = DialectChoice::parse(name).expect("known name");
        assert_eq!(c.as_str(), name);
    }
    assert_eq!(DialectChoice::parse("grpc"), None);
}

#[test]
fn an_undetectable_first_event_is_a_diagnostic_and_detection_continues() {
    let mut s = session(DialectChoice::Auto);
    s.feed_frame(r#"{"hello":"world"}"#, &mut |_, _, _| {});
    assert_eq!(s.dialect(), None);
    let codes: Vec<&str> = s.store().diagnostics().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["unknown-dialect"]);
    s.feed_frame(
        r#"{"session_id":"s","event":"agent.partial_answer","content":"hi"}"#,
        &mut |_, _, _| {},
    );
    assert_eq!(s.dialect(), Some(Dialect::MyAgent));
    assert_eq!(
        s.store().tasks().next().map(|t| t.content.as_str()),
        Some("hi")
    );
    // Another dialect's event on a detected stream is refused, not misread.
    s.feed_frame(
        r#"{"event":"status_change","task_id":"t","data":{"new_state":"working"}}"#,
        &mut |_, _, _| {},
    );
    assert!(s
        .store()
        .diagnostics()
        .any(|d| d.code.as_str() == "dialect-mismatch"));
}

/// Every malformed recording produces exactly these diagnostic codes (the recordings hold
/// one violation per line; see tests/dialects/README.md).
#[test]
fn malformed_dialect_events_become_diagnostics_with_stable_codes() {
    let want: &[(&str, &[&str])] = &[
        (
            "a2a/malformed.sse",
            &[
                "missing-field",
                "invalid-enum",
                "missing-field",
                "unknown-artifact",
                "chunk-after-complete",
                "invalid-enum",
                "missing-field",
                "missing-field",
                "missing-field",
                "rpc-invalid",
                "rpc-id-mismatch",
                "rpc-invalid",
                "rpc-invalid",
                "invalid-json",
                "dialect-mismatch",
            ],
        ),
        (
            "acp/malformed.sse",
            &[
                "missing-field",
                "missing-field",
                "invalid-type",
                "invalid-enum",
                "missing-field",
                "invalid-enum",
                "missing-field",
                "missing-field",
                "invalid-type",
                "tool-not-started",
                "invalid-enum",
                "missing-field",
            ],
        ),
        (
            "unified/malformed.sse",
            &[
                "missing-field",
                "missing-field",
                "missing-field",
                "missing-field",
                "missing-field",
                "missing-field",
                "missing-field",
                "invalid-type",
                "tool-not-started",
                "tool-not-started",
                "missing-field",
            ],
        ),
        (
            "myagent/malformed.jsonl",
            &[
                "missing-field",
                "invalid-type",
                "missing-field",
                "missing-field",
                "invalid-type",
                "missing-field",
                "missing-field",
                "invalid-type",
                "missing-field",
                "agent-error",
                "missing-field",
                "invalid-type",
                "invalid-enum",
                "invalid-type",
                "not-an-object",
                "invalid-json",
            ],
        ),
    ];
    for (file, codes) in want {
        let r = recordings()
            .into_iter()
            .find(|r| r.path.ends_with(file))
            .unwrap_or_else(|| panic!("{file} missing"));
        let mut s = session(DialectChoice::Fixed(r.dialect));
        if r.frames() {
            for f in r.lines() {
                s.feed_frame(&f, &mut |_, _, _| {});
            }
        } else {
            s.feed(&r.bytes, &mut |_, _, _| {});
        }
        let got: Vec<&str> = s.store().diagnostics().map(|d| d.code.as_str()).collect();
        assert_eq!(&got, codes, "{file}");
        for d in s.store().diagnostics() {
            assert!(d.raw.is_some(), "{file}: {d:?} has no raw data");
            assert!(d.path.starts_with('$'), "{file}: {d:?}");
        }
    }
}

fn v(text: &str) -> Value<'_> {
    parse(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn same_json(a: &str, b: &str) {
    assert_eq!(json(a), json(b), "\n got: {a}\nwant: {b}");
}

fn session_from(file: &str, choice: DialectChoice, upto: Option<usize>) -> Session {
    let r = recordings()
        .into_iter()
        .find(|r| r.path.ends_with(file))
        .unwrap_or_else(|| panic!("{file} missing"));
    let mut s = session(choice);
    if r.frames() {
        for f in r.lines().into_iter().take(upto.unwrap_or(usize::MAX)) {
            s.feed_frame(&f, &mut |_, _, _| {});
        }
    } else {
        let text = String::from_utf8_lossy(&r.bytes).to_string();
        let blocks: Vec<&str> = text.split_inclusive("\n\n").collect();
        for b in blocks.into_iter().take(upto.unwrap_or(usize::MAX)) {
            s.feed(b.as_bytes(), &mut |_, _, _| {});
        }
    }
    s
}

#[test]
fn myagent_messages_match_the_seed_examples() {
    use agentwire::dialects::myagent::request;
    same_json(
        &request::create_session(
            Some(&v(
                r#"{"project_name":"PowerPoint Generator","session_name":"generate_slides_oct18"}"#,
            )),
            Some(&v(
                r#"{"client_version":"1.0.0","client_id":"client_abc123"}"#,
            )),
        ),
        r#"{"event":"user.create_session","content":{"project_name":"PowerPoint Generator","session_name":"generate_slides_oct18"},"metadata":{"client_version":"1.0.0","client_id":"client_abc123"}}"#,
    );
    same_json(
        &request::message(
            "sess_xyz789",
            "Create a 5-slide presentation about AI trends",
            Some("2024-10-18T14:30:00Z"),
            Some(&v(
                r#"{"message_type":"query","priority":"normal","source":"web_ui"}"#,
            )),
        ),
        r#"{"session_id":"sess_xyz789","event":"user.message","timestamp":"2024-10-18T14:30:00Z","content":"Create a 5-slide presentation about AI trends","metadata":{"message_type":"query","priority":"normal","source":"web_ui"}}"#,
    );
    same_json(
        &request::response(
            "sess_xyz789",
            "confirm_001",
            &request::response_content(
                true,
                Some("Looks good, but change slide 2 color to blue"),
                None,
            ),
            Some(&v(r#"{"response_time_ms":3500,"user_action":"approve"}"#)),
        ),
        r#"{"session_id":"sess_xyz789","step_id":"confirm_001","event":"user.response","content":{"approved":true,"feedback":"Looks good, but change slide 2 color to blue"},"metadata":{"response_time_ms":3500,"user_action":"approve"}}"#,
    );
    same_json(
        &request::ack("sess_xyz789", 42, Some(10)),
        r#"{"session_id":"sess_xyz789","event":"user.ack","content":{"last_seq":42},"metadata":{"received_count":10}}"#,
    );
    same_json(
        &request::cancel("sess_xyz789", Some("User changed mind")),
        r#"{"session_id":"sess_xyz789","event":"user.cancel","content":{"reason":"User changed mind"}}"#,
    );
    same_json(
        &request::reconnect("sess_xyz789", Some(42)),
        r#"{"event":"user.reconnect","content":{"session_id":"sess_xyz789","last_seq":42}}"#,
    );
}

#[test]
fn a2a_requests_are_json_rpc_as_the_seed_server_reads_them() {
    use agentwire::dialects::a2a::request;
    let body = request::message_stream(
        1,
        &request::UserMessage {
            message_id: "m-1",
            text: Some("Test prompt"),
            context_id: Some("ctx-456"),
            ..Default::default()
        },
    );
    // Seed 001's server: `params.message.parts[0].text`, `params.message.contextId`, `req.body.id`.
    let b = json(&body);
    assert_eq!(b["jsonrpc"], "2.0");
    assert_eq!(b["id"], 1);
    assert_eq!(b["method"], "message/stream");
    assert_eq!(b["params"]["message"]["parts"][0]["text"], "Test prompt");
    assert_eq!(b["params"]["message"]["contextId"], "ctx-456");
    assert_eq!(b["params"]["message"]["role"], "user");
    assert_eq!(b["params"]["message"]["kind"], "message");
    assert_eq!(b["params"]["message"]["messageId"], "m-1");
    same_json(
        &request::resubscribe(2, "task-123"),
        r#"{"jsonrpc":"2.0","id":2,"method":"tasks/resubscribe","params":{"id":"task-123"}}"#,
    );
    same_json(
        &request::cancel(3, "task-123"),
        r#"{"jsonrpc":"2.0","id":3,"method":"tasks/cancel","params":{"id":"task-123"}}"#,
    );
    same_json(
        &request::answer_message(4, "m-2", "task-9", "ctx-9", &v(r#"{"choice":"Sakura"}"#)),
        r#"{"jsonrpc":"2.0","id":4,"method":"message/stream","params":{"message":{"kind":"message","role":"user","messageId":"m-2","parts":[{"kind":"data","data":{"choice":"Sakura"}}],"contextId":"ctx-9","taskId":"task-9"}}}"#,
    );
}

#[test]
fn acp_requests_follow_provide_input_and_continue() {
    use agentwire::dialects::acp::request;
    same_json(
        &request::provide_permission(7, "task_123", "approved"),
        r#"{"jsonrpc":"2.0","method":"tasks/provideInputAndContinue","id":7,"params":{"taskId":"task_123","permissionOptionId":"approved"}}"#,
    );
    same_json(
        &request::provide_input(
            8,
            "task_123",
            "input_msg_001",
            &v(r#""Here are the missing details...""#),
        ),
        r#"{"jsonrpc":"2.0","method":"tasks/provideInputAndContinue","id":8,"params":{"taskId":"task_123","input":{"role":"user","parts":[{"kind":"text","text":"Here are the missing details..."}],"messageId":"input_msg_001"}}}"#,
    );
    same_json(
        &request::cancel(9, "task_123"),
        r#"{"jsonrpc":"2.0","method":"tasks/cancel","id":9,"params":{"id":"task_123"}}"#,
    );
}

#[test]
fn a2a_answer_resume_and_cancel_in_a_live_session() {
    // Up to the input-required of tests/dialects/a2a/input-auth-artifacts.sse.
    let mut s = session_from("a2a/input-auth-artifacts.sse", DialectChoice::Auto, Some(3));
    let input = s
        .store()
        .pending_inputs()
        .next()
        .expect("open input")
        .id
        .clone();
    assert_eq!(input, "task-9#input-1");
    let (dec, store) = s.dialect_parts().expect("dialect layer");
    let out =
        respond::answer(dec, store, &input, &v(r#""Sakura""#), Some("answer-1")).expect("answer");
    assert_eq!(
        (out.method, out.transport, out.streams),
        ("message/stream", respond::Transport::HttpPost, true)
    );
    same_json(
        &out.body,
        r#"{"jsonrpc":"2.0","id":1,"method":"message/stream","params":{"message":{"kind":"message","role":"user","messageId":"answer-1","parts":[{"kind":"text","text":"Sakura"}],"contextId":"ctx-9","taskId":"task-9"}}}"#,
    );
    // The browser's way: take the events, push them like any event (handlers see them).
    assert!(
        s.set_now_ms(Some(1_700_000_000_000)),
        "a dialect layer wants the clock"
    );
    let closing = s.take_answered(&input);
    assert_eq!(closing.len(), 1, "{closing:?}");
    assert!(
        closing[0].contains(r#""kind":"input-received""#),
        "{}",
        closing[0]
    );
    // On the stream's timeline (its last timestamp), not the browser's clock: request expiry
    // is measured there, and a server's clock may differ from the browser's.
    assert!(
        !closing[0].contains("2023-11-14T22:13:20"),
        "not the wall clock: {}",
        closing[0]
    );
    assert!(
        closing[0].contains("2025-10-30T"),
        "stream time: {}",
        closing[0]
    );
    for e in &closing {
        s.push_json(e, &mut |_, _, _| {});
    }
    assert_eq!(
        s.store().input(&input).map(|i| i.state),
        Some(RequestState::Answered)
    );
    assert!(s.take_answered(&input).is_empty(), "closed once");
    assert!(!s.mark_answered(&input, &mut |_, _, _| {}), "answered once");
    // The server's stream for the answer carries id 1: it matches the request sent.
    s.feed(
        b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"status-update\",\"taskId\":\"task-9\",\"contextId\":\"ctx-9\",\"status\":{\"state\":\"working\",\"timestamp\":\"2025-10-30T11:00:10Z\"},\"final\":false}}\n\n",
        &mut |_, _, _| {},
    );
    assert_eq!(
        s.store().diagnostics().count(),
        0,
        "{:?}",
        s.store().diagnostics().collect::<Vec<_>>()
    );
    // No second input-received: the answer was recorded locally.
    assert_eq!(s.store().task("task-9").map(|t| t.inputs.len()), Some(1));
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    let resume = respond::resume(dec).expect("resubscribe");
    same_json(
        &resume.body,
        r#"{"jsonrpc":"2.0","id":2,"method":"tasks/resubscribe","params":{"id":"task-9"}}"#,
    );
    let cancel = respond::cancel(dec, "task-9", None).expect("cancel");
    same_json(
        &cancel.body,
        r#"{"jsonrpc":"2.0","id":3,"method":"tasks/cancel","params":{"id":"task-9"}}"#,
    );
    // A refused cancel is a diagnostic; it does not fail the task.
    s.push_json(
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32002,"message":"Task cannot be canceled"}}"#,
        &mut |_, _, _| {},
    );
    let d = s.store().diagnostics().last().expect("rpc error");
    assert_eq!(
        (d.code.as_str(), d.severity.as_str()),
        ("rpc-error", "error")
    );
    assert_eq!(
        s.store()
            .task("task-9")
            .and_then(|t| t.status)
            .map(|x| x.as_str()),
        Some("working")
    );
    // The cancel's result (a task snapshot) ends it; an unknown response id is flagged.
    s.push_json(r#"{"jsonrpc":"2.0","id":3,"result":{"kind":"task","id":"task-9","contextId":"ctx-9","status":{"state":"canceled","timestamp":"2025-10-30T11:00:12Z"}}}"#, &mut |_, _, _| {});
    assert_eq!(
        s.store()
            .task("task-9")
            .and_then(|t| t.status)
            .map(|x| x.as_str()),
        Some("canceled")
    );
    s.push_json(r#"{"jsonrpc":"2.0","id":99,"result":{"kind":"task","id":"task-9","contextId":"ctx-9","status":{"state":"canceled"}}}"#, &mut |_, _, _| {});
    assert_eq!(
        s.store().diagnostics().last().map(|d| d.code.as_str()),
        Some("rpc-id-mismatch")
    );
}

#[test]
fn a2a_resubscribe_snapshot_does_not_apply_twice() {
    let mut s = session_from(
        "a2a/input-auth-artifacts.sse",
        DialectChoice::Fixed(Dialect::A2a),
        Some(9),
    );
    let before = s.store().artifact_bytes("receipt").map(<[u8]>::to_vec);
    let version = s.store().artifact("booking").and_then(|a| a.version);
    // After tasks/resubscribe the server sends the task as it is: same artifacts, same state.
    s.push_json(
        r#"{"kind":"task","id":"task-9","contextId":"ctx-9","status":{"state":"working","timestamp":"2025-10-30T11:00:20Z"},"artifacts":[{"artifactId":"receipt","name":"receipt.pdf","parts":[{"kind":"file","file":{"name":"receipt.pdf","mimeType":"application/pdf","bytes":"JVBERi0x"}},{"kind":"file","file":{"bytes":"LjQK"}}]},{"artifactId":"booking","name":"booking","parts":[{"kind":"data","data":{"restaurant":"Sakura","seats":2,"time":"19:30"}}]}]}"#,
        &mut |_, _, _| {},
    );
    assert_eq!(
        s.store().artifact_bytes("receipt").map(<[u8]>::to_vec),
        before
    );
    assert_eq!(
        s.store().artifact("booking").and_then(|a| a.version),
        version
    );
    assert_eq!(
        s.store().diagnostics().count(),
        0,
        "{:?}",
        s.store().diagnostics().collect::<Vec<_>>()
    );
    let history = s.store().task("task-9").map(|t| t.history.len());
    // A changed artifact in a snapshot replaces the old one.
    s.push_json(
        r#"{"kind":"task","id":"task-9","contextId":"ctx-9","status":{"state":"working"},"artifacts":[{"artifactId":"receipt","parts":[{"kind":"file","file":{"bytes":"QUJD"}}]}]}"#,
        &mut |_, _, _| {},
    );
    assert_eq!(s.store().artifact_bytes("receipt"), Some(&b"ABC"[..]));
    assert_eq!(
        s.store().task("task-9").map(|t| t.history.len()),
        history,
        "same state: no new status"
    );
}

#[test]
fn acp_permission_answer_sends_the_option_id() {
    let mut s = session_from("acp/permission-flow.sse", DialectChoice::Auto, Some(3));
    let input = s
        .store()
        .pending_inputs()
        .next()
        .expect("open input")
        .id
        .clone();
    let (dec, store) = s.dialect_parts().expect("dialect layer");
    let err =
        respond::answer(dec, store, &input, &v(r#""maybe""#), None).expect_err("not an option");
    assert_eq!(err.code(), "invalid-value");
    assert!(err.to_string().contains("approved, abort"), "{err}");
    let out = respond::answer(dec, store, &input, &v(r#""approved""#), None).expect("answer");
    same_json(
        &out.body,
        r#"{"jsonrpc":"2.0","method":"tasks/provideInputAndContinue","id":1,"params":{"taskId":"task_9","permissionOptionId":"approved"}}"#,
    );
    assert!(s.mark_answered(&input, &mut |_, _, _| {}));
    assert_eq!(
        s.store().input(&input).map(|i| i.state),
        Some(RequestState::Answered)
    );
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    same_json(
        &respond::cancel(dec, "task_9", None).expect("cancel").body,
        r#"{"jsonrpc":"2.0","method":"tasks/cancel","id":2,"params":{"id":"task_9"}}"#,
    );
    assert_eq!(
        respond::resume(dec).map_err(|e| e.code()),
        Err("unsupported")
    );
}

#[test]
fn myagent_answer_ack_reconnect_and_replays() {
    // Up to agent.user_confirm (line 10) of the seed session.
    let mut s = session_from("myagent/seed-session.jsonl", DialectChoice::Auto, Some(10));
    assert_eq!(s.dialect(), Some(Dialect::MyAgent));
    let input = s
        .store()
        .pending_inputs()
        .next()
        .expect("confirmation")
        .id
        .clone();
    assert_eq!(input, "confirm_001");
    let (dec, store) = s.dialect_parts().expect("dialect layer");
    let out = respond::answer(dec, store, &input, &v("true"), None).expect("answer");
    assert_eq!(
        (out.method, out.transport),
        ("user.response", respond::Transport::WebSocket)
    );
    same_json(
        &out.body,
        r#"{"session_id":"sess_xyz789","step_id":"confirm_001","event":"user.response","content":{"approved":true}}"#,
    );
    let deny = respond::answer(dec, store, &input, &v(r#""deny""#), None).expect("deny");
    assert!(deny.body.contains(r#""approved":false"#), "{}", deny.body);
    // deny(id, reason): the reason is the response's feedback.
    let why = respond::answer_with_reason(dec, store, &input, &v("false"), None, Some("not now"))
        .expect("deny with a reason");
    assert!(
        why.body
            .contains(r#""content":{"approved":false,"feedback":"not now"}"#),
        "{}",
        why.body
    );
    assert!(s.mark_answered(&input, &mut |_, _, _| {}));
    let (dec, store) = s.dialect_parts().expect("dialect layer");
    assert_eq!(
        respond::answer(dec, store, &input, &v("true"), None).map_err(|e| e.code()),
        Err("not-open")
    );
    // user.ack batches: due after 9 sequenced events, then not again until more arrive.
    assert!(respond::ack(dec, 10).is_none());
    let ack = respond::ack(dec, 5).expect("ack due");
    same_json(
        &ack.body,
        r#"{"session_id":"sess_xyz789","event":"user.ack","content":{"last_seq":9},"metadata":{"received_count":9}}"#,
    );
    assert!(respond::ack(dec, 1).is_none());
    same_json(
        &respond::resume(dec).expect("reconnect").body,
        r#"{"event":"user.reconnect","content":{"session_id":"sess_xyz789","last_seq":9}}"#,
    );
    same_json(
        &respond::cancel(dec, "sess_xyz789/turn-1", Some("stop"))
            .expect("cancel")
            .body,
        r#"{"session_id":"sess_xyz789","event":"user.cancel","content":{"reason":"stop"}}"#,
    );
    // user.cancel names no task: it stops the running turn, so a plan step is refused.
    assert_eq!(
        respond::cancel(dec, "plan:plan_001/task_1", None).map_err(|e| e.code()),
        Err("not-cancelable")
    );
    same_json(
        &respond::send_message(dec, "Make it 6 slides", None, None)
            .expect("message")
            .body,
        r#"{"session_id":"sess_xyz789","event":"user.message","content":"Make it 6 slides"}"#,
    );
    // After user.reconnect the server replays from seq 8: nothing is applied twice.
    let lines = recordings()
        .into_iter()
        .find(|r| r.path.ends_with("myagent/seed-session.jsonl"))
        .expect("seed session")
        .lines();
    let applied = s.store().events_applied();
    let duplicates = s.store().duplicates_ignored();
    for f in lines.iter().skip(7).take(3) {
        s.feed_frame(f, &mut |_, _, _| {});
    }
    assert_eq!(s.store().events_applied(), applied);
    assert_eq!(s.store().duplicates_ignored(), duplicates + 3);
}

#[test]
fn myagent_step_ids_repeated_in_a_later_turn_or_session_still_work() {
    // Servers may number steps per turn (`confirm_001`, `plan_001` in every turn) and start a
    // new session with seq 1 again on the same connection.
    let mut s = session(DialectChoice::Fixed(Dialect::MyAgent));
    let turn = |seq0: u32, session: &str, answer: &str| {
        [
            format!(
                r#"{{"session_id":"{session}","step_id":"plan_001","event":"plan.start","content":{{"question":"q"}},"seq":{}}}"#,
                seq0
            ),
            format!(
                r#"{{"session_id":"{session}","step_id":"confirm_001","event":"agent.user_confirm","content":{{"message":"Publish?","confirmation_type":"approve"}},"seq":{}}}"#,
                seq0 + 1
            ),
            format!(
                r#"{{"session_id":"{session}","event":"agent.tool_call","content":{{"tool_name":"web"}},"metadata":{{"call_id":"call_1"}},"seq":{}}}"#,
                seq0 + 2
            ),
            format!(
                r#"{{"session_id":"{session}","event":"agent.tool_result","content":{{"status":"success","result":"ok"}},"metadata":{{"call_id":"call_1"}},"seq":{}}}"#,
                seq0 + 3
            ),
            format!(
                r#"{{"session_id":"{session}","event":"agent.final_answer","content":{{"answer":"{answer}"}},"seq":{}}}"#,
                seq0 + 4
            ),
        ]
    };
    let feed = |s: &mut Session, frames: &[String]| {
        for f in frames {
            s.feed_frame(f, &mut |_, _, _| {});
        }
    };
    let t1 = turn(1, "s1", "A1");
    feed(&mut s, &t1[..2]);
    let open: Vec<String> = s.store().pending_inputs().map(|r| r.id.clone()).collect();
    assert_eq!(open, ["confirm_001"]);
    assert!(s.mark_answered("confirm_001", &mut |_, _, _| {}));
    feed(&mut s, &t1[2..]);
    // Turn 2 repeats every step id: its own confirmation, answered with the raw step id.
    let t2 = turn(6, "s1", "A2");
    feed(&mut s, &t2[..2]);
    let open: Vec<String> = s.store().pending_inputs().map(|r| r.id.clone()).collect();
    assert_eq!(open, ["confirm_001#turn-2"]);
    let (dec, store) = s.dialect_parts().expect("dialect layer");
    let out = respond::answer(dec, store, &open[0], &v("true"), None).expect("answer");
    same_json(
        &out.body,
        r#"{"session_id":"s1","step_id":"confirm_001","event":"user.response","content":{"approved":true}}"#,
    );
    assert!(s.mark_answered(&open[0], &mut |_, _, _| {}));
    feed(&mut s, &t2[2..]);
    // A new session announced on the same connection numbers its events from 1 again:
    // applied, not taken for replays.
    feed(
        &mut s,
        &[r#"{"session_id":"s2","event":"agent.session_created","content":{"session_id":"s2"},"seq":1}"#.to_owned()],
    );
    feed(&mut s, &turn(2, "s2", "A3"));
    let state = json(&s.store().state_json());
    let tasks = state["tasks"].as_array().expect("tasks");
    let task = |id: &str| {
        tasks
            .iter()
            .find(|t| t["id"] == id)
            .unwrap_or_else(|| panic!("no task {id}: {state}"))
    };
    assert_eq!(task("s1/turn-1")["content"], "A1");
    assert_eq!(task("s1/turn-2")["content"], "A2");
    assert_eq!(task("s2/turn-3")["content"], "A3");
    for (t, plan) in [
        ("s1/turn-1", "plan:plan_001"),
        ("s1/turn-2", "plan:plan_001#turn-2"),
        ("s2/turn-3", "plan:plan_001#turn-3"),
    ] {
        assert_eq!(task(plan)["parentId"], t, "{plan}");
        let tools = task(t)["tools"].as_array().expect("tools");
        assert_eq!(tools.len(), 1, "{t}: {tools:?}");
        assert_eq!(tools[0]["state"], "succeeded", "{t}");
    }
    // Turn 3's confirmation was its own request (settled when the agent went on).
    let r = s
        .store()
        .input("confirm_001#turn-3")
        .expect("turn 3's confirmation");
    assert_eq!(
        (r.task_id.as_str(), r.state),
        ("s2/turn-3", RequestState::Answered)
    );
    let diags: Vec<String> = s.store().diagnostics().map(|d| d.message.clone()).collect();
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn myagent_a_fresh_session_racing_a_reconnect_is_not_taken_for_a_new_one() {
    // A new socket streams a fresh session of its own until the server reads the client's
    // user.reconnect: that must not restart the sequence numbers of the session resumed.
    let mut s = session(DialectChoice::Fixed(Dialect::MyAgent));
    let frame = |session: &str, seq: u32, event: &str, content: &str| {
        format!(r#"{{"session_id":"{session}","event":"{event}","content":{content},"seq":{seq}}}"#)
    };
    let thought = |session: &str, seq: u32| {
        frame(session, seq, "agent.thinking", &format!(r#""step {seq}""#))
    };
    for f in [
        frame("s1", 1, "agent.session_created", r#"{"session_id":"s1"}"#),
        thought("s1", 2),
        thought("s1", 3),
    ] {
        s.feed_frame(&f, &mut |_, _, _| {});
    }
    let applied = s.store().events_applied();
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    respond::resume(dec).expect("user.reconnect");
    for f in [
        frame("s9", 1, "agent.session_created", r#"{"session_id":"s9"}"#),
        thought("s1", 2),
        thought("s1", 3),
        thought("s1", 4),
    ] {
        s.feed_frame(&f, &mut |_, _, _| {});
    }
    // Only seq 4 of s1 is new (s9's announcement is a duplicate seq of the resumed session).
    assert_eq!(s.store().events_applied(), applied + 1);
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    assert_eq!(dec.myagent().and_then(|m| m.last_seq()), Some(4));
}

#[test]
fn acp_approve_and_deny_pick_the_requests_own_options() {
    use agentwire::client::answer::{check_answer, decision_value, RequestShape};
    let s = session_from("acp/permission-flow.sse", DialectChoice::Auto, Some(3));
    let input = s.store().pending_inputs().next().expect("open input");
    let schema = input
        .schema
        .as_ref()
        .map(|r| r.0.clone())
        .unwrap_or_default();
    let options = input
        .options
        .as_ref()
        .map(|r| r.0.clone())
        .unwrap_or_default();
    let shape = RequestShape {
        schema: &schema,
        options: &options,
    };
    for (yes, want) in [(true, r#""approved""#), (false, r#""abort""#)] {
        let value = decision_value(shape, yes);
        assert_eq!(value, want);
        assert!(
            check_answer(shape, &parse(&value).expect("json")).is_ok(),
            "{value}"
        );
    }
}

#[test]
fn canonical_and_unified_have_no_answer_message() {
    let mut s = session_from("unified/seed-events.sse", DialectChoice::Auto, None);
    let (dec, store) = s.dialect_parts().expect("dialect layer");
    assert_eq!(
        respond::answer(dec, store, "x", &v("1"), None).map_err(|e| e.code()),
        Err("unknown-request")
    );
    assert_eq!(
        respond::cancel(dec, "abc", None).map_err(|e| e.code()),
        Err("unsupported")
    );
    let mut plain = Session::new(SseConfig::default(), Limits::default());
    assert!(plain.dialect_parts().is_none());
    assert_eq!(plain.dialect(), Some(Dialect::Canonical));
}

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const TOKENS: &[&str] = &[
    "null",
    "0",
    "-1",
    "1e309",
    "\"\"",
    "[]",
    "{}",
    "true",
    "\"x\"",
    "{\"kind\":\"text\"}",
    "\"input-required\"",
    "\"auth-required\"",
    "\"completed\"",
    "\"append\"",
    "\"plan.start\"",
    "99999999999999999999",
    "\"\\u0000\"",
    "\"é\"",
];

#[test]
fn no_panic_on_mutated_dialect_streams_in_any_mode() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let recs = recordings();
    let choices = [
        DialectChoice::Auto,
        DialectChoice::Fixed(Dialect::A2a),
        DialectChoice::Fixed(Dialect::Acp),
        DialectChoice::Fixed(Dialect::Unified),
        DialectChoice::Fixed(Dialect::MyAgent),
    ];
    for round in 0..300 {
        let r = &recs[rng.below(recs.len())];
        let mut text = String::from_utf8_lossy(&r.bytes).to_string();
        for _ in 0..1 + rng.below(6) {
            let bytes = text.as_bytes();
            if bytes.is_empty() {
                break;
            }
            let at = rng.below(bytes.len());
            let at = (at..bytes.len())
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(0);
            let end = (at + rng.below(12)).min(text.len());
            let end = (end..=text.len())
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(text.len());
            match rng.below(4) {
                0 => text.replace_range(at..end, ""),
                1 => text.insert_str(at, TOKENS[rng.below(TOKENS.len())]),
                2 => text.replace_range(at..end, TOKENS[rng.below(TOKENS.len())]),
                _ => {
                    let dup = text.get(at..end).unwrap_or("").to_owned();
                    text.insert_str(at, &dup);
                }
            }
        }
        let choice = choices[round % choices.len()];
        let mut s = session(choice);
        let mut d = StreamDecoder::with_dialect(SseConfig::default(), choice);
        if r.frames() {
            for line in text.lines() {
                s.feed_frame(line, &mut |_, _, _| {});
                d.feed_frame(line, &mut |_| {});
            }
        } else {
            for c in text.as_bytes().chunks(1 + rng.below(40)) {
                s.feed(c, &mut |_, _, _| {});
                d.feed(c, &mut |_| {});
            }
        }
        s.finish();
        json(&s.store().state_json());
        if let Some((dec, store)) = s.dialect_parts() {
            let ids: Vec<String> = store.pending_inputs().map(|i| i.id.clone()).collect();
            for id in ids {
                let _ = respond::answer(dec, store, &id, &v("\"approve\""), None);
            }
            let _ = respond::resume(dec);
            let _ = respond::ack(dec, 1);
        }
    }
}

// ---- request and turn semantics: timeouts, session ends, lost answers, second turns ----

fn feed_frames(s: &mut Session, frames: &[&str]) {
    for f in frames {
        s.feed_frame(f, &mut |_, _, _| {});
    }
}

fn task_status(s: &Session, id: &str) -> serde_json::Value {
    let state = json(&s.store().state_json());
    state["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .find(|t| t["id"] == id)
        .unwrap_or_else(|| panic!("no task {id}: {state}"))["status"]
        .clone()
}

const CONFIRM_001: &str = r#"{"session_id":"s1","step_id":"confirm_001","event":"agent.user_confirm","content":{"message":"Send the email?","confirmation_type":"approve"},"metadata":{"critical":false},"seq":3}"#;

/// The turn failed and nobody answered `confirm_001`: it expired with the turn (as an open
/// request of a failed task does in protocol 000), it was not answered by the user.
fn turn_failed_and_confirmation_expired(s: &Session) {
    assert_eq!(task_status(s, "s1/turn-1"), "failed");
    let r = s.store().input("confirm_001").expect("confirmation");
    assert_eq!(
        r.state,
        RequestState::Expired,
        "nobody answered confirm_001"
    );
}

#[test]
fn myagent_server_timeout_of_a_confirmation_is_not_an_answer() {
    // The server's own confirmation timeout: the tool waiting for it fails, then the turn
    // fails. Nobody answered: like protocol 000 (task failed -> its open request expires),
    // the confirmation must expire with the turn, not be shown answered by the user.
    let mut s = session(DialectChoice::Fixed(Dialect::MyAgent));
    feed_frames(
        &mut s,
        &[
            r#"{"session_id":"s1","event":"agent.thinking","content":"Drafting the email","seq":1}"#,
            r#"{"session_id":"s1","event":"agent.tool_call","content":{"tool_name":"send_email","arguments":{}},"metadata":{"call_id":"call_1"},"seq":2}"#,
            CONFIRM_001,
            r#"{"session_id":"s1","event":"agent.tool_result","content":{"status":"failed","result":"confirmation timed out"},"metadata":{"call_id":"call_1"},"seq":4}"#,
            r#"{"session_id":"s1","step_id":"confirm_001","event":"error.execution","content":"confirmation timed out","metadata":{"error_code":"ERR_EXECUTION_600","error_type":"ConfirmationTimeout","recoverable":false},"seq":5}"#,
        ],
    );
    turn_failed_and_confirmation_expired(&s);
}

#[test]
fn myagent_retried_timeout_of_a_confirmation_is_not_an_answer() {
    // error.timeout on the confirmation's own step, with attempts left, then the last attempt.
    let mut s = session(DialectChoice::Fixed(Dialect::MyAgent));
    feed_frames(
        &mut s,
        &[
            r#"{"session_id":"s1","event":"agent.thinking","content":"Drafting","seq":1}"#,
            r#"{"session_id":"s1","event":"agent.thinking","content":"Asking","seq":2}"#,
            CONFIRM_001,
            r#"{"session_id":"s1","step_id":"confirm_001","event":"error.timeout","content":"no answer","metadata":{"error_code":"ERR_TIMEOUT_500","attempt":1,"max_attempts":2},"seq":4}"#,
            r#"{"session_id":"s1","step_id":"confirm_001","event":"error.timeout","content":"no answer","metadata":{"error_code":"ERR_TIMEOUT_500","attempt":2,"max_attempts":2},"seq":5}"#,
        ],
    );
    turn_failed_and_confirmation_expired(&s);
}

#[test]
fn myagent_cancel_acknowledged_by_session_ended_ends_the_turn() {
    let mut s = session(DialectChoice::Fixed(Dialect::MyAgent));
    feed_frames(
        &mut s,
        &[
            r#"{"session_id":"s1","event":"agent.session_created","content":{"session_id":"s1"},"seq":1}"#,
            r#"{"session_id":"s1","event":"agent.thinking","content":"Working","seq":2}"#,
        ],
    );
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    respond::cancel(dec, "s1/turn-1", Some("stop")).expect("user.cancel");
    dec.myagent().expect("myagent").note_cancel(); // what the glue does once it was sent
    feed_frames(
        &mut s,
        &[
            r#"{"session_id":"s1","event":"agent.session_ended","content":{"session_id":"s1"},"seq":3}"#,
        ],
    );
    assert_eq!(
        task_status(&s, "s1/turn-1"),
        "canceled",
        "the turn stays working forever"
    );
}

#[test]
fn myagent_answer_is_resent_when_only_an_in_flight_event_followed_it() {
    // The server asks two confirmations back to back; the user answers the first before the
    // second arrives (it was already in flight). The second confirmation does not prove the
    // server read the answer: when the socket dies, user.reconnect must send the answer again.
    let mut s = session(DialectChoice::Fixed(Dialect::MyAgent));
    feed_frames(
        &mut s,
        &[
            r#"{"session_id":"s1","event":"agent.thinking","content":"Preparing","seq":1}"#,
            r#"{"session_id":"s1","event":"agent.thinking","content":"Asking","seq":2}"#,
            CONFIRM_001,
        ],
    );
    let (dec, store) = s.dialect_parts().expect("dialect layer");
    let out = respond::answer(dec, store, "confirm_001", &v("true"), None).expect("answer");
    assert!(s.mark_answered("confirm_001", &mut |_, _, _| {}));
    feed_frames(
        &mut s,
        &[
            r#"{"session_id":"s1","step_id":"confirm_002","event":"agent.user_confirm","content":{"message":"Also notify finance?","confirmation_type":"approve"},"seq":4}"#,
        ],
    );
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    respond::resume(dec).expect("user.reconnect");
    let again = dec.myagent().expect("myagent").unconfirmed().to_vec();
    assert_eq!(again, vec![out.body], "the answer is never sent again");
}

#[test]
fn a2a_resume_of_a_second_turn_does_not_resubscribe_the_finished_first_task() {
    let mut s = session(DialectChoice::Fixed(Dialect::A2a));
    // Turn 1: message/stream, task-1 runs and completes.
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    let first = respond::send_message(dec, "first", Some("ctx"), None).expect("message");
    assert!(first.body.contains(r#""id":1"#), "{}", first.body);
    for e in [
        r#"{"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"task-1","contextId":"ctx","status":{"state":"working"}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"task-1","contextId":"ctx","status":{"state":"completed"},"final":true}}"#,
    ] {
        s.feed(format!("data: {e}\n\n").as_bytes(), &mut |_, _, _| {});
    }
    // Turn 2: sendMessage in the same context; its stream opens, then drops before any event.
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    respond::send_message(dec, "second", Some("ctx"), None).expect("message");
    let resume = respond::resume(dec);
    match resume {
        Ok(o) => assert!(
            !o.body.contains("task-1"),
            "the second turn's resume resubscribes the finished first task: {}",
            o.body
        ),
        Err(e) => assert_eq!(e.code(), "no-task"),
    }
}

#[test]
fn a2a_only_json_rpc_bodies_go_into_the_stream() {
    // The fetch loop's filter for a JSON body of a POST (the e2e test
    // a2a_plain_4xx_body_on_an_answer_adds_no_stray_diagnostic is the reproduction).
    assert!(!respond::is_rpc_response(r#"{"detail":"Bad Request"}"#));
    assert!(!respond::is_rpc_response(r#"{"error":"Bad Request"}"#));
    assert!(!respond::is_rpc_response("Bad Request"));
    assert!(respond::is_rpc_response(
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"no"}}"#
    ));
    assert!(respond::is_rpc_response(
        r#"{"id":2,"result":{"kind":"task"}}"#
    ));
}

#[test]
fn unified_session_end_leaves_no_step_or_run_working() {
    let mut s = session(DialectChoice::Fixed(Dialect::Unified));
    let text = [
        r#"{"event_id":"e1","session_id":"def","timestamp":"2024-01-01T12:00:00Z","type":"session_started","payload":{"agent":"a"}}"#,
        r#"{"event_id":"e2","session_id":"def","timestamp":"2024-01-01T12:00:01Z","type":"workflow_started","payload":{"workflow":"review","run_id":"run_1"}}"#,
        r#"{"event_id":"e3","session_id":"def","timestamp":"2024-01-01T12:00:02Z","type":"workflow_step_started","payload":{"run_id":"run_1","step_id":"scan","description":"Scanning"}}"#,
        r#"{"event_id":"e4","session_id":"def","timestamp":"2024-01-01T12:00:03Z","type":"session_ended","payload":{"reason":"error","summary":"crashed"}}"#,
    ]
    .iter()
    .map(|e| format!("data: {e}\n\n"))
    .collect::<String>();
    s.feed(text.as_bytes(), &mut |_, _, _| {});
    assert_eq!(task_status(&s, "def"), "failed");
    for t in ["run:run_1", "step:run_1/scan"] {
        let st = task_status(&s, t);
        assert!(
            st != "working",
            "{t} is still {st} after its session ended failed"
        );
    }
}

#[test]
fn a2a_second_message_stream_numbering_its_ids_from_0_is_not_a_replay() {
    // What the fetch loop does for sendMessage after a finished run (a new message/stream):
    // the server numbers the new stream's SSE ids from 0 again (the scenario server does).
    let frame = |id: u32, rpc: u32, ev: &str| {
        format!("id: {id}\ndata: {{\"jsonrpc\":\"2.0\",\"id\":{rpc},\"result\":{ev}}}\n\n")
    };
    let task = |t: &str, st: &str| {
        format!(r#"{{"kind":"task","id":"{t}","contextId":"ctx","status":{{"state":"{st}"}}}}"#)
    };
    let done = |t: &str| {
        format!(
            r#"{{"kind":"status-update","taskId":"{t}","contextId":"ctx","status":{{"state":"completed"}},"final":true}}"#
        )
    };
    let mut s = session(DialectChoice::Fixed(Dialect::A2a));
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    respond::send_message(dec, "first", Some("ctx"), None).expect("message");
    s.feed(
        format!(
            "{}{}",
            frame(0, 1, &task("t1", "working")),
            frame(1, 1, &done("t1"))
        )
        .as_bytes(),
        &mut |_, _, _| {},
    );
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    respond::send_message(dec, "second", Some("ctx"), None).expect("message");
    assert!(dec.a2a().expect("a2a").awaits_stream_task());
    s.begin_new_stream(); // the fix: what the fetch loop now does before a new task's stream
    s.feed(
        format!(
            "{}{}",
            frame(0, 2, &task("t2", "working")),
            frame(1, 2, &done("t2"))
        )
        .as_bytes(),
        &mut |_, _, _| {},
    );
    assert_eq!(task_status(&s, "t2"), "completed");
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    assert!(!dec.a2a().expect("a2a").awaits_stream_task());
}
