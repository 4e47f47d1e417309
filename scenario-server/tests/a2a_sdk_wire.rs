//! The real wire of the official A2A JS SDK (`@a2a-js/sdk` 0.3.14, recorded from
//! tests/a2a-sdk/server.mjs by tests/a2a-sdk/record.sh into tests/data/) decoded by agentwire's
//! `a2a` decoder: what the client assembles, and which diagnostics it reports.
//!
//! - `a2a-sdk-interactive.sse`: three `message/stream` responses (the task streaming text, data
//!   and file artifacts up to `input-required`; the answer with the same taskId up to
//!   `auth-required`; the auth answer up to `completed`) and a `tasks/resubscribe` of the ended
//!   task (the SDK sends the whole `Task` snapshot again), all with JSON-RPC id 1.
//! - `a2a-sdk-fail.sse`: a task that fails (`metadata.error`).
//! - `a2a-sdk-cancel.sse`: a long job canceled through `tasks/cancel`
//!   (`a2a-sdk-cancel.json` is the cancel's answer, `a2a-sdk-cancel-unknown.json` the error).

use agentwire::dialects::{detect, Dialect, DialectChoice};
use agentwire::events::DiagCode;
use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::{Limits, RequestState, Store};
use std::path::Path;

fn data(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name),
    )
    .expect("recording")
}

fn decode(name: &str, choice: DialectChoice) -> Session {
    let mut s = Session::with_dialect(SseConfig::default(), Limits::default(), choice);
    for chunk in data(name).chunks(97) {
        s.feed(chunk, &mut |_, _, _| {});
    }
    s.finish();
    s
}

fn diags(s: &Store) -> Vec<String> {
    s.diagnostics()
        .map(|d| format!("{:?}: {}", d.code, d.message))
        .collect()
}

#[test]
fn sdk_interactive_stream_assembles_without_diagnostics() {
    for choice in [DialectChoice::Fixed(Dialect::A2a), DialectChoice::Auto] {
        let s = decode("a2a-sdk-interactive.sse", choice);
        let st = s.store();
        assert!(diags(st).is_empty(), "{choice:?}: {:?}", diags(st));
        assert_eq!(s.dialect(), Some(Dialect::A2a));
        let root = st.roots().next().expect("the task");
        assert_eq!(format!("{:?}", root.status), "Some(Completed)");
        assert_eq!(
            root.content,
            "Based on the analysis, sales increased 15%. The report was published."
        );
        // (`lastChunk: true` on the answer artifact leaves `content_complete` false in the
        // decoder today: reported, not asserted.)
        // The file artifact: two base64 chunks (append/lastChunk) → the exact bytes.
        let report = st.artifact("report").expect("report.md");
        assert_eq!(report.name.as_deref(), Some("report.md"));
        assert_eq!(report.mime_type.as_deref(), Some("text/markdown"));
        assert_eq!(
            st.artifact_bytes("report").expect("bytes"),
            "# Report\n\nRevenue grew **15%** — café ☕ sales led.\n".as_bytes()
        );
        // The data artifact: two versions, the last one wins.
        let summary = st.artifact("summary").expect("summary");
        assert_eq!(summary.versions.as_ref().map(Vec::len), Some(2));
        let d: serde_json::Value =
            serde_json::from_str(&summary.data.as_ref().expect("data").0).expect("json");
        assert_eq!(d["growth"], 0.152);
        // The input and auth requests, answered (the agent moved on).
        let input = root.inputs.first().expect("input-required");
        assert_eq!(input.prompt, "Publish the report?");
        assert_eq!(format!("{:?}", input.input_type), "Confirmation");
        assert_ne!(input.state, RequestState::Open);
        let auth = root.auths.first().expect("auth-required");
        assert_eq!(auth.provider.as_deref(), Some("github"));
        assert_ne!(auth.state, RequestState::Open);
    }
}

#[test]
fn sdk_failure_and_cancel() {
    let s = decode("a2a-sdk-fail.sse", DialectChoice::Fixed(Dialect::A2a));
    assert!(diags(s.store()).is_empty(), "{:?}", diags(s.store()));
    let root = s.store().roots().next().expect("task");
    assert_eq!(format!("{:?}", root.status), "Some(Failed)");
    let last = root.history.back().expect("history");
    assert_eq!(
        last.reason.as_deref(),
        Some("upstream timeout (asked to fail)")
    );

    let s = decode("a2a-sdk-cancel.sse", DialectChoice::Fixed(Dialect::A2a));
    assert!(diags(s.store()).is_empty(), "{:?}", diags(s.store()));
    let root = s.store().roots().next().expect("task");
    assert_eq!(format!("{:?}", root.status), "Some(Canceled)");

    // The one-shot answers: a Task, and a JSON-RPC error object.
    let cancel: serde_json::Value =
        serde_json::from_slice(&data("a2a-sdk-cancel.json")).expect("json");
    assert_eq!(cancel["result"]["kind"], "task");
    assert_eq!(cancel["result"]["status"]["state"], "canceled");
    let unknown: serde_json::Value =
        serde_json::from_slice(&data("a2a-sdk-cancel-unknown.json")).expect("json");
    assert_eq!(unknown["error"]["code"], -32001);
    // Fed to the decoder (as a client would that streams the answer): a diagnostic, no panic.
    let mut s = Session::with_dialect(
        SseConfig::default(),
        Limits::default(),
        DialectChoice::Fixed(Dialect::A2a),
    );
    s.push_json(
        std::str::from_utf8(&data("a2a-sdk-cancel-unknown.json")).expect("utf-8"),
        &mut |_, _, _| {},
    );
    let codes: Vec<DiagCode> = s.store().diagnostics().map(|d| d.code).collect();
    assert_eq!(codes, vec![DiagCode::RpcError]);
    assert_eq!(
        detect(std::str::from_utf8(&data("a2a-sdk-cancel.json")).expect("utf-8")),
        Some(Dialect::A2a)
    );
}
