//! Unit tests of the dialect layer: the steps one event becomes. Whole recordings, the session
//! integration and the response builders are tested in `tests/dialects.rs`.

use super::*;

fn decode(d: &mut DialectDecoder, data: &str) -> Output {
    let mut out = Output::default();
    assert_eq!(d.decode(data, "", 0, &mut out), Route::Translated, "{data}");
    out
}

fn events(out: &Output) -> Vec<crate::json::OwnedValue> {
    out.steps
        .iter()
        .filter_map(|s| {
            out.event_json(s).map(|j| {
                crate::json::parse(&j)
                    .map(|v| v.into_owned())
                    .unwrap_or_default()
            })
        })
        .collect()
}

fn kinds(out: &Output) -> Vec<String> {
    out.steps
        .iter()
        .map(|s| match s {
            Step::Event(_) | Step::MessageDelta(_) => out
                .event_json(s)
                .and_then(|j| crate::json::parse(&j).ok().map(|v| v.into_owned()))
                .and_then(|v| v.get("kind").and_then(Value::as_str).map(str::to_owned))
                .unwrap_or_default(),
            Step::ResetContent(t) => format!("reset-content {t}"),
            Step::ResetArtifact(a) => format!("reset-artifact {a}"),
            Step::ExpireInput(i) => format!("expire-input {i}"),
        })
        .collect()
}

#[test]
fn canonical_choice_never_parses() {
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::Canonical));
    let mut out = Output::default();
    assert_eq!(
        d.decode("{not even json", "", 0, &mut out),
        Route::Canonical
    );
    assert_eq!(d.dialect(), Some(Dialect::Canonical));
}

#[test]
fn auto_locks_on_the_first_telling_event_only() {
    let mut d = DialectDecoder::new(DialectChoice::Auto);
    let mut out = Output::default();
    // Not JSON, not an object, `internal:*`: left to the canonical decoder, nothing locked.
    for data in [
        "nope",
        "[1]",
        r#"{"kind":"internal:checkpoint","taskId":"t","iteration":1}"#,
    ] {
        assert_eq!(d.decode(data, "", 0, &mut out), Route::Canonical);
        assert_eq!(d.dialect(), None);
    }
    let out = decode(
        &mut d,
        r#"{"type":"session_started","session_id":"s","event_id":"e","timestamp":"2024-01-01T12:00:00Z","payload":{}}"#,
    );
    assert_eq!(d.dialect(), Some(Dialect::Unified));
    assert_eq!(kinds(&out), ["task-created", "task-status"]);
    // Canonical events stay welcome once a dialect is known.
    let mut out = Output::default();
    assert_eq!(
        d.decode(r#"{"kind":"internal:checkpoint","contextId":"s","taskId":"s","iteration":1,"timestamp":"2024-01-01T12:00:00Z"}"#, "", 1, &mut out),
        Route::Canonical
    );
}

const ART: &str = r#"{"kind":"artifact-update","taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[{"kind":"text","text":"T"}]},"append":APPEND,"lastChunk":LAST}"#;

fn art(append: bool, last: bool) -> String {
    ART.replace("APPEND", &append.to_string())
        .replace("LAST", &last.to_string())
}

#[test]
fn a2a_replacing_the_answer_resets_the_content() {
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::A2a));
    assert_eq!(
        kinds(&decode(&mut d, &art(false, false))),
        ["task-created", "content-delta"]
    );
    assert_eq!(kinds(&decode(&mut d, &art(true, false))), ["content-delta"]);
    let out = decode(&mut d, &art(false, true));
    assert_eq!(kinds(&out), ["reset-content t", "content-delta"]);
    assert_eq!(
        events(&out)[0].get("index").and_then(Value::as_f64),
        Some(0.0)
    );
    let out = decode(&mut d, &art(true, false));
    assert_eq!(
        out.diagnostics.first().map(|x| x.code),
        Some(DiagCode::ChunkAfterComplete)
    );
    assert!(out.steps.is_empty());
}

#[test]
fn a2a_mixed_parts_go_to_sibling_artifacts_and_files_close_with_the_task() {
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::A2a));
    let out = decode(
        &mut d,
        r#"{"kind":"artifact-update","taskId":"t","contextId":"c","artifact":{"artifactId":"r","name":"report","parts":[{"kind":"file","file":{"bytes":"QQ=="}},{"kind":"data","data":{"n":1}},{"kind":"text","text":"hi"}]}}"#,
    );
    let ev = events(&out);
    let ids: Vec<(&str, &str)> = ev
        .iter()
        .filter_map(|e| Some((e.get("kind")?.as_str()?, e.get("artifactId")?.as_str()?)))
        .collect();
    // The first text artifact of a task is its answer even when it rides along as a sibling.
    assert_eq!(ids, [("file-write", "r"), ("data-write", "r#data")]);
    assert_eq!(
        kinds(&out).last().map(String::as_str),
        Some("content-delta")
    );
    let out = decode(
        &mut d,
        r#"{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"completed"},"final":true}"#,
    );
    assert_eq!(kinds(&out), ["file-write", "task-status"]);
    assert_eq!(
        events(&out)[0].get("complete").and_then(Value::as_bool),
        Some(true)
    );
}

#[test]
fn a2a_wrapped_canonical_events_pass_through() {
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::A2a));
    let out = decode(
        &mut d,
        r#"{"jsonrpc":"2.0","id":1,"result":{"kind":"internal:llm-call","taskId":"t","iteration":1,"timestamp":"2025-10-30T10:00:00Z"}}"#,
    );
    assert_eq!(kinds(&out), ["internal:llm-call"]);
    assert!(out.diagnostics.is_empty());
}

#[test]
fn missing_timestamps_use_the_embedder_clock() {
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::A2a));
    d.set_now_ms(Some(1_762_425_000_123));
    let out = decode(&mut d, &art(false, false));
    assert_eq!(
        events(&out)[0].get("timestamp").and_then(Value::as_str),
        Some("2025-11-06T10:30:00.123Z")
    );
}

#[test]
fn acp_development_tool_metadata_under_the_extension_uri() {
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::Acp));
    let out = decode(
        &mut d,
        r#"{"event":"status_change","task_id":"t","timestamp":"2025-10-30T13:40:00Z","data":{"old_state":"working","new_state":"working","metadata":{"https://developers.google.com/gemini/a2a/extensions/development-tool/v1":{"kind":"TOOL_CALL_UPDATE","tool_call":{"tool_call_id":"tc","status":"executing","tool_name":"bash"}}}}}"#,
    );
    assert_eq!(kinds(&out), ["task-created", "task-status", "tool-start"]);
    let out = decode(
        &mut d,
        r#"{"event":"status_change","task_id":"t","timestamp":"2025-10-30T13:40:01Z","data":{"old_state":"working","new_state":"working","metadata":{"development-tool":{"kind":"tool_call_update","tool_call":{"tool_call_id":"tc","status":"cancelled","result":{"message":"User cancelled confirmation"}}}}}}"#,
    );
    // Same state: no status; the tool call ends.
    assert_eq!(kinds(&out), ["tool-complete"]);
    assert_eq!(
        events(&out)[0].get("error").and_then(Value::as_str),
        Some("User cancelled confirmation")
    );
}

#[test]
fn myagent_replays_and_heartbeats_produce_nothing() {
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::MyAgent));
    let frame = r#"{"session_id":"s","event":"agent.partial_answer","content":"x","seq":5}"#;
    let first = decode(&mut d, frame);
    assert_eq!((first.seq, first.duplicate), (Some(5), false));
    let again = decode(&mut d, frame);
    assert_eq!((again.seq, again.duplicate), (Some(5), true));
    assert!(again.steps.is_empty() && again.diagnostics.is_empty());
    let hb = decode(
        &mut d,
        r#"{"session_id":"s","event":"system.heartbeat","metadata":{"seq":1}}"#,
    );
    assert!(hb.steps.is_empty() && hb.seq.is_none());
    let m = d.myagent().expect("myagent");
    assert_eq!((m.heartbeats(), m.last_seq(), m.unacked()), (1, Some(5), 1));
}

#[test]
fn unknown_dialect_events_are_kept_whole() {
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::Acp));
    let out = decode(
        &mut d,
        r#"{"event":"quota_warning","task_id":"t","data":{"left":3}}"#,
    );
    let ev = events(&out);
    assert_eq!(
        ev[0].get("kind").and_then(Value::as_str),
        Some("acp:quota_warning")
    );
    assert_eq!(
        ev[0]
            .get("data")
            .and_then(|x| x.get("left"))
            .and_then(Value::as_f64),
        Some(3.0)
    );
}

#[test]
fn a2a_stream_task_is_the_task_of_the_request() {
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::A2a));
    let id = d
        .a2a()
        .expect("a2a")
        .register_request("message/stream", None);
    let wrap = |ev: &str| format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{ev}}}"#);
    decode(
        &mut d,
        &wrap(r#"{"kind":"task","id":"root","contextId":"c","status":{"state":"submitted"}}"#),
    );
    // Another task on the same stream (a sub-agent): the stream's task stays the first one.
    decode(
        &mut d,
        &wrap(r#"{"kind":"task","id":"sub","contextId":"c","status":{"state":"submitted"}}"#),
    );
    assert_eq!(d.a2a().expect("a2a").stream_task(), Some("root"));
    let ask = r#"{"kind":"status-update","taskId":"root","contextId":"c","final":true,"status":{"state":"input-required","message":{"kind":"message","role":"agent","messageId":"m","parts":[{"kind":"text","text":"ok?"}]}}}"#;
    decode(&mut d, &wrap(ask));
    let a = d.a2a().expect("a2a");
    assert!(a.awaits_answer("root"), "input-required and open");
    assert!(!a.awaits_answer("sub"));
    // Answered by the client: the task no longer waits (a drop now resumes the stream).
    let events = d.answered("root#input-1", "root", "c", false);
    assert_eq!(events.len(), 1, "input-received applied locally");
    assert!(!d.a2a().expect("a2a").awaits_answer("root"));
    // A resubscribe names its task: its responses are that task's stream.
    let rid = d
        .a2a()
        .expect("a2a")
        .register_request("tasks/resubscribe", Some("sub"));
    decode(
        &mut d,
        &format!(
            r#"{{"jsonrpc":"2.0","id":{rid},"result":{{"kind":"status-update","taskId":"sub","contextId":"c","final":false,"status":{{"state":"working"}}}}}}"#
        ),
    );
    assert_eq!(d.a2a().expect("a2a").stream_task(), Some("sub"));
}

#[test]
fn acp_dataset_artifact_becomes_a_dataset() {
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::Acp));
    let out = decode(
        &mut d,
        r#"{"event":"artifact","task_id":"t","timestamp":"2025-01-01T00:00:00Z","data":{"artifact_type":"dataset","artifact_name":"rows","rows":[{"a":1},{"a":2}],"schema":{"type":"object"}}}"#,
    );
    let evs = events(&out);
    let ds = evs
        .iter()
        .find(|e| e.get("kind").and_then(Value::as_str) == Some("dataset-write"))
        .expect("a dataset-write");
    assert_eq!(
        ds.get("rows").and_then(Value::as_array).map(<[_]>::len),
        Some(2)
    );
    assert_eq!(ds.get("complete").and_then(Value::as_bool), Some(true));
    assert!(ds.get("schema").is_some());
    assert_eq!(ds.get("name").and_then(Value::as_str), Some("rows"));
}

#[test]
fn myagent_keeps_its_session_across_a_new_system_connected() {
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::MyAgent));
    decode(
        &mut d,
        r#"{"session_id":"s1","connection_id":"c1","event":"system.connected","content":{}}"#,
    );
    assert_eq!(d.myagent().expect("myagent").session_id(), Some("s1"));
    // After a reconnect the server greets with a fresh session; the client resumes its own.
    decode(
        &mut d,
        r#"{"session_id":"s2","connection_id":"c2","event":"system.connected","content":{}}"#,
    );
    assert_eq!(d.myagent().expect("myagent").session_id(), Some("s1"));
    let body = respond::resume(&mut d).expect("reconnect").body;
    assert!(body.contains(r#""session_id":"s1""#), "{body}");
    // Another session's event does not move the client's session (issue 25: it is ignored
    // with a `session-mismatch` warning).
    decode(
        &mut d,
        r#"{"session_id":"s3","event":"agent.thinking","content":"hm","seq":1}"#,
    );
    assert_eq!(d.myagent().expect("myagent").session_id(), Some("s1"));
}

#[test]
fn rpc_error_message_reads_json_rpc_errors_only() {
    assert_eq!(
        respond::rpc_error_message(
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found"}}"#
        )
        .as_deref(),
        Some("json-rpc error -32001 TASK_NOT_FOUND: Task not found")
    );
    assert_eq!(
        respond::rpc_error_message(r#"{"jsonrpc":"2.0","id":1,"error":{}}"#).as_deref(),
        Some("json-rpc error ?: (no message)")
    );
    for ok in [
        r#"{"jsonrpc":"2.0","id":1,"result":{"taskId":"t","accepted":true}}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":null,"result":{}}"#,
        "not json",
        "[]",
    ] {
        assert_eq!(respond::rpc_error_message(ok), None, "{ok}");
    }
}

fn ids_of(out: &Output, kind: &str, field: &str) -> Vec<String> {
    events(out)
        .iter()
        .filter(|e| e.get("kind").and_then(Value::as_str) == Some(kind))
        .filter_map(|e| e.get(field).and_then(Value::as_str).map(str::to_owned))
        .collect()
}

#[test]
fn a2a_asks_again_after_the_client_answered() {
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::A2a));
    let ask = |prompt: &str| {
        format!(
            r#"{{"kind":"status-update","taskId":"t","contextId":"c","status":{{"state":"input-required","message":{{"role":"agent","messageId":"m","parts":[{{"kind":"text","text":"{prompt}"}}]}}}},"final":true}}"#
        )
    };
    let first = ids_of(
        &decode(&mut d, &ask("Which region?")),
        "input-required",
        "inputId",
    );
    assert_eq!(first, ["t#input-1"]);
    // Re-sent while it is open: the same request.
    let again = decode(&mut d, &ask("Which region?"));
    assert!(ids_of(&again, "input-required", "inputId").is_empty());
    // The client answers; the agent's next stream asks a follow-up question.
    assert_eq!(d.answered("t#input-1", "t", "c", false).len(), 1);
    let second = ids_of(
        &decode(&mut d, &ask("North or south?")),
        "input-required",
        "inputId",
    );
    assert_eq!(second, ["t#input-2"]);
}

#[test]
fn a2a_keeps_the_message_of_a_submitted_task() {
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::A2a));
    let out = decode(
        &mut d,
        r#"{"kind":"task","id":"t1","contextId":"c1","status":{"state":"submitted","message":{"role":"agent","messageId":"m0","parts":[{"kind":"text","text":"Queued behind 3 other jobs"}]}}}"#,
    );
    assert_eq!(kinds(&out), ["task-created", "a2a:status-update"]);
    let ev = events(&out).pop().unwrap_or_default();
    assert!(
        ev.to_json().contains("Queued behind 3 other jobs"),
        "{}",
        ev.to_json()
    );
    // Without a message, `submitted` is just the creation.
    let out = decode(
        &mut d,
        r#"{"kind":"task","id":"t2","contextId":"c1","status":{"state":"submitted"}}"#,
    );
    assert_eq!(kinds(&out), ["task-created"]);
}

#[test]
fn acp_retry_without_ids_continues_the_same_call() {
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::Acp));
    let ev = |status: &str, extra: &str| {
        format!(
            r#"{{"event":"tool_execution","task_id":"task_1","timestamp":"2024-01-15T10:30:00Z","data":{{"tool_id":"database_query","status":"{status}"{extra}}}}}"#
        )
    };
    let mut started = Vec::new();
    let mut completed = Vec::new();
    for data in [
        ev("started", r#","parameters":{"q":"x"}"#),
        ev("failed", r#","error":"timeout","will_retry":true"#),
        ev("started", r#","parameters":{"q":"x"}"#),
        ev("completed", r#","output":{"content":"ok"}"#),
        // A later call of the same tool, not a retry: a call of its own.
        ev("started", r#","parameters":{"q":"y"}"#),
        ev("started", r#","parameters":{"q":"z"}"#),
    ] {
        let out = decode(&mut d, &data);
        started.extend(ids_of(&out, "tool-start", "toolCallId"));
        completed.extend(ids_of(&out, "tool-complete", "toolCallId"));
    }
    assert_eq!(
        started,
        [
            "task_1#database_query-1",
            "task_1#database_query-2",
            "task_1#database_query-3"
        ]
    );
    assert_eq!(completed, ["task_1#database_query-1"]);
}

#[test]
fn decoders_track_a_bounded_number_of_tasks_and_calls() {
    // Ids that never finish: the decoders forget the oldest instead of growing (and stay
    // fast: amortised constant work per event).
    let mut a2a = DialectDecoder::new(DialectChoice::Fixed(Dialect::A2a));
    let mut myagent = DialectDecoder::new(DialectChoice::Fixed(Dialect::MyAgent));
    let mut out = Output::default();
    for i in 0..25_000u32 {
        let ev = format!(
            r#"{{"kind":"status-update","taskId":"t{i}","contextId":"c","status":{{"state":"working"}},"final":false}}"#
        );
        a2a.decode(&ev, "", 0, &mut out);
        let call = format!(
            r#"{{"session_id":"s","event":"agent.tool_call","content":{{"tool_name":"web"}},"metadata":{{"call_id":"c{i}"}}}}"#
        );
        myagent.decode(&call, "", 0, &mut out);
    }
    assert!(a2a.a2a().is_some_and(|a| a.tracked() <= 10_000));
    assert!(myagent.myagent().is_some_and(|m| m.tracked() <= 4_096));
    // A finished call is forgotten at once.
    let mut m = DialectDecoder::new(DialectChoice::Fixed(Dialect::MyAgent));
    for f in [
        r#"{"session_id":"s","event":"agent.tool_call","content":{"tool_name":"web"},"metadata":{"call_id":"c1"}}"#,
        r#"{"session_id":"s","event":"agent.tool_result","content":{"status":"success","result":"ok"},"metadata":{"call_id":"c1"}}"#,
    ] {
        m.decode(f, "", 0, &mut out);
    }
    assert_eq!(m.myagent().map(|m| m.tracked()), Some(0));
}
