//! Store behaviour, event by event (recorded-stream tests live in tests/recordings.rs).

use super::*;
use crate::events::{decode_event, AgentEvent, DiagCode, EventContext};

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

#[test]
fn assembles_content_in_index_order_with_duplicates_ignored() {
    let mut s = Store::new(Limits::default());
    let evs: Vec<String> = [
        r#"{"kind":"task-created","taskId":"t","initiator":"user"}"#,
        r#"{"kind":"content-delta","taskId":"t","delta":"Hel","index":0}"#,
        r#"{"kind":"content-delta","taskId":"t","delta":"wor","index":2}"#,
        r#"{"kind":"content-delta","taskId":"t","delta":"lo ","index":1}"#,
        r#"{"kind":"content-delta","taskId":"t","delta":"lo ","index":1}"#,
        r#"{"kind":"content-delta","taskId":"t","delta":"ld","index":3}"#,
        r#"{"kind":"content-complete","taskId":"t","content":"Hello world"}"#,
    ]
    .iter()
    .map(|e| ev(e))
    .collect();
    apply_all(&mut s, &evs);
    let t = s.task("t").expect("task");
    assert_eq!(t.content, "Hello world");
    assert!(t.content_complete);
    assert_eq!(s.duplicates_ignored(), 1);
    assert!(codes(&s).is_empty(), "{:?}", codes(&s));
}

#[test]
fn mismatch_with_content_complete_uses_the_server_text() {
    let mut s = Store::new(Limits::default());
    let evs: Vec<String> = [
        r#"{"kind":"content-delta","taskId":"t","delta":"Hi","index":0}"#,
        r#"{"kind":"content-complete","taskId":"t","content":"Hello"}"#,
    ]
    .iter()
    .map(|e| ev(e))
    .collect();
    apply_all(&mut s, &evs);
    assert_eq!(s.task("t").map(|t| t.content.as_str()), Some("Hello"));
    assert_eq!(codes(&s), vec![DiagCode::ContentMismatch]);
}

#[test]
fn subtree_in_either_announcement_order() {
    let mut s = Store::new(Limits::default());
    let evs: Vec<String> = [
        r#"{"kind":"task-created","taskId":"root","initiator":"user"}"#,
        r#"{"kind":"subtask-created","taskId":"root","subtaskId":"a","prompt":"do a"}"#,
        r#"{"kind":"task-created","taskId":"b","parentTaskId":"root","initiator":"agent"}"#,
        r#"{"kind":"subtask-created","taskId":"root","subtaskId":"b","prompt":"do b"}"#,
        r#"{"kind":"task-created","taskId":"a","parentTaskId":"root","initiator":"agent"}"#,
        r#"{"kind":"task-created","taskId":"a1","parentTaskId":"a","initiator":"agent"}"#,
    ]
    .iter()
    .map(|e| ev(e))
    .collect();
    apply_all(&mut s, &evs);
    assert_eq!(
        s.task("root").map(|t| t.children.clone()),
        Some(vec!["a".to_owned(), "b".to_owned()])
    );
    assert_eq!(
        s.task("b").and_then(|t| t.prompt.clone()).as_deref(),
        Some("do b")
    );
    assert!(s.is_in_subtree("a1", "root"));
    assert!(!s.is_in_subtree("b", "a"));
    assert_eq!(s.roots().count(), 1);
    assert!(codes(&s).is_empty());
}

#[test]
fn rules_between_events_become_diagnostics() {
    let mut s = Store::new(Limits::default());
    let evs: Vec<String> = [
        r#"{"kind":"tool-progress","taskId":"t","toolCallId":"x","progress":0.5}"#,
        r#"{"kind":"input-received","taskId":"t","inputId":"nope","providedBy":"user"}"#,
        r#"{"kind":"auth-completed","taskId":"t","authId":"nope","userId":"u"}"#,
        r#"{"kind":"task-status","taskId":"t","status":"completed"}"#,
        r#"{"kind":"content-delta","taskId":"t","delta":"late","index":0}"#,
        r#"{"kind":"task-status","taskId":"t","status":"working"}"#,
    ]
    .iter()
    .map(|e| ev(e))
    .collect();
    apply_all(&mut s, &evs);
    assert_eq!(
        codes(&s),
        vec![
            DiagCode::ToolNotStarted,
            DiagCode::InputNotOpen,
            DiagCode::AuthNotOpen,
            // The tool the progress announced was still running when the task completed.
            DiagCode::LeftOpen,
            DiagCode::TaskAlreadyTerminal,
            DiagCode::TaskAlreadyTerminal
        ]
    );
    let t = s.task("t").expect("task");
    assert_eq!(t.content, "");
    assert_eq!(t.status, Some(crate::events::TaskStatus::Completed));
    assert_eq!(
        t.tools.len(),
        1,
        "progress without start still shows the tool"
    );
}

#[test]
fn tools_inputs_and_auth_lifecycle() {
    let mut s = Store::new(Limits::default());
    let evs: Vec<String> = [
        r#"{"kind":"tool-start","taskId":"t","toolCallId":"c1","toolName":"search","arguments":{"q":"x"},"metadata":{"provider":"mcp"}}"#,
        r#"{"kind":"tool-progress","taskId":"t","toolCallId":"c1","progress":0.6,"message":"step 3","metadata":{"stepsCompleted":3,"stepsTotal":5}}"#,
        r#"{"kind":"tool-complete","taskId":"t","toolCallId":"c1","toolName":"search","success":true,"result":{"n":1},"metadata":{"duration":12}}"#,
        r#"{"kind":"input-required","taskId":"t","inputId":"i1","inputType":"tool-execution","prompt":"p"}"#,
        r#"{"kind":"input-required","taskId":"t","inputId":"i2","requireUser":true,"inputType":"confirmation","prompt":"ok?","options":["approve","deny"]}"#,
        r#"{"kind":"input-received","taskId":"t","inputId":"i1","providedBy":"agent","agentId":"coord"}"#,
        r#"{"kind":"auth-required","taskId":"t","authId":"a1","authType":"oauth2","prompt":"login","authUrl":"https://x.test/a"}"#,
        r#"{"kind":"auth-required","taskId":"t","authId":"a2","authType":"oauth2","prompt":"login","authUrl":"javascript:alert(1)"}"#,
    ]
    .iter()
    .map(|e| ev(e))
    .collect();
    // The unsafe URL is a decode-time warning; apply by hand to check the store's flag.
    for (i, e) in evs.iter().enumerate() {
        let mut d = Vec::new();
        let cx = EventContext {
            sse_type: "message",
            event_id: "",
            position: i as u64,
        };
        let decoded = decode_event(e, &cx, &mut d).expect("decoded");
        s.apply(
            &decoded,
            &EventMeta {
                event_id: "",
                position: i as u64,
                raw: e,
            },
        );
    }
    let t = s.task("t").expect("task");
    let tool = &t.tools[0];
    assert_eq!(
        (
            tool.state,
            tool.progress,
            tool.steps_completed,
            tool.steps_total
        ),
        (ToolState::Succeeded, 1.0, Some(3), Some(5))
    );
    assert_eq!(
        tool.result.as_ref().map(|r| r.0.as_str()),
        Some(r#"{"n":1}"#)
    );
    assert_eq!(
        s.input("i1").map(|i| (i.state, i.routing)),
        Some((RequestState::Answered, Routing::Coordinator))
    );
    assert_eq!(
        s.input("i2").map(|i| (i.state, i.routing)),
        Some((RequestState::Open, Routing::User))
    );
    assert_eq!(
        s.pending_inputs()
            .map(|i| i.id.as_str())
            .collect::<Vec<_>>(),
        vec!["i2"]
    );
    assert_eq!(s.auth("a1").map(|a| a.url_safe), Some(true));
    assert_eq!(s.auth("a2").map(|a| a.url_safe), Some(false));
}

#[test]
fn requests_expire_on_stream_time() {
    let mut s = Store::new(Limits::default());
    let req = r#"{"kind":"input-required","contextId":"c","taskId":"t","inputId":"i","inputType":"confirmation","prompt":"p","timestamp":"2025-11-06T10:00:00Z","metadata":{"timeout":60}}"#;
    let later = r#"{"kind":"internal:checkpoint","contextId":"c","taskId":"t","iteration":1,"timestamp":"2025-11-06T10:00:30Z"}"#;
    let much_later = r#"{"kind":"task-status","contextId":"c","taskId":"t","status":"working","timestamp":"2025-11-06T10:02:00Z"}"#;
    for e in [req, later] {
        let mut d = Vec::new();
        let decoded = decode_event(e, &EventContext::default(), &mut d).expect("decoded");
        s.apply(&decoded, &EventMeta::default());
    }
    assert_eq!(s.input("i").map(|i| i.state), Some(RequestState::Open));
    let mut d = Vec::new();
    let decoded = decode_event(much_later, &EventContext::default(), &mut d).expect("decoded");
    s.apply(&decoded, &EventMeta::default());
    assert_eq!(s.input("i").map(|i| i.state), Some(RequestState::Expired));
    assert_eq!(codes(&s), vec![DiagCode::RequestExpired]);
}

#[test]
fn artifacts_files_data_and_datasets() {
    let mut s = Store::new(Limits::default());
    let evs: Vec<String> = [
        r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"aGVs","index":0,"complete":false,"name":"x.bin","mimeType":"application/octet-stream","encoding":"base64"}"#,
        r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"bG8=","index":1,"complete":true}"#,
        r#"{"kind":"data-write","taskId":"t","artifactId":"d","data":{"v":2},"metadata":{"version":2}}"#,
        r#"{"kind":"data-write","taskId":"t","artifactId":"d","data":{"v":1},"metadata":{"version":1}}"#,
        r#"{"kind":"dataset-write","taskId":"t","artifactId":"s","rows":[{"a":1,"b":"x"}],"index":0,"complete":false,"schema":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"}}}}"#,
        r#"{"kind":"dataset-write","taskId":"t","artifactId":"s","rows":[{"a":2,"b":"y"},{"a":"bad","b":"z"}],"index":1,"complete":true}"#,
    ]
    .iter()
    .map(|e| ev(e))
    .collect();
    apply_all(&mut s, &evs);
    assert_eq!(s.artifact_bytes("f"), Some(&b"hello"[..]));
    let f = s.artifact("f").expect("file");
    assert_eq!((f.size, f.complete), (Some(5), Some(true)));
    assert_eq!(
        f.sha256.as_deref(),
        Some("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
    );
    let d = s.artifact("d").expect("data");
    assert_eq!(
        (d.version, d.data.as_ref().map(|r| r.0.as_str())),
        (Some(2.0), Some(r#"{"v":2}"#))
    );
    let ds = s.artifact("s").expect("dataset");
    assert_eq!((ds.row_count, ds.complete), (Some(3), Some(true)));
    assert_eq!(
        s.artifact_rows_json("s").as_deref(),
        Some(r#"[{"a":1,"b":"x"},{"a":2,"b":"y"},{"a":"bad","b":"z"}]"#)
    );
    assert_eq!(
        codes(&s),
        vec![DiagCode::VersionRegression, DiagCode::SchemaMismatch]
    );
    assert_eq!(s.task("t").map(|t| t.artifacts.len()), Some(3));
}

#[test]
fn a_gap_that_never_fills_is_reported_and_the_rest_shown() {
    let mut s = Store::new(Limits::default());
    let evs: Vec<String> = [
        r#"{"kind":"content-delta","taskId":"t","delta":"a","index":0}"#,
        r#"{"kind":"content-delta","taskId":"t","delta":"c","index":2}"#,
        r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"x","index":0,"complete":false}"#,
        r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"z","index":2,"complete":true}"#,
    ]
    .iter()
    .map(|e| ev(e))
    .collect();
    apply_all(&mut s, &evs);
    assert_eq!(s.task("t").map(|t| t.content.as_str()), Some("a"));
    s.finish();
    assert_eq!(s.task("t").map(|t| t.content.as_str()), Some("ac"));
    assert_eq!(s.artifact_bytes("f"), Some(&b"xz"[..]));
    assert_eq!(s.artifact("f").and_then(|f| f.complete), Some(false));
    assert_eq!(codes(&s), vec![DiagCode::ChunkGap, DiagCode::ChunkGap]);
}

#[test]
fn limits_produce_diagnostics_not_growth() {
    let limits = Limits {
        max_tasks: 2,
        max_content_bytes: 4,
        max_pending_chunks: 2,
        max_thoughts_per_task: 1,
        max_diagnostics: 3,
        ..Limits::default()
    };
    let mut s = Store::new(limits);
    let evs: Vec<String> = [
        r#"{"kind":"content-delta","taskId":"t","delta":"abc","index":0}"#,
        r#"{"kind":"content-delta","taskId":"t","delta":"def","index":1}"#,
        r#"{"kind":"content-delta","taskId":"u","delta":"x","index":5}"#,
        r#"{"kind":"content-delta","taskId":"u","delta":"y","index":6}"#,
        r#"{"kind":"content-delta","taskId":"u","delta":"z","index":7}"#,
        r#"{"kind":"task-created","taskId":"v","initiator":"user"}"#,
    ]
    .iter()
    .map(|e| ev(e))
    .collect();
    apply_all(&mut s, &evs);
    assert_eq!(s.task("t").map(|t| t.content.as_str()), Some("abc"));
    assert_eq!(
        s.task("u").map(|t| t.content.as_str()),
        Some("xyz"),
        "window overflow gives up the gap"
    );
    assert!(s.task("v").is_none());
    assert_eq!(
        codes(&s),
        vec![
            DiagCode::LimitExceeded,
            DiagCode::ChunkGap,
            DiagCode::LimitExceeded
        ]
    );
    assert_eq!(s.diagnostics_total(), 3);
}

#[test]
fn version_changes_only_with_visible_state() {
    let mut s = Store::new(Limits::default());
    let e = ev(r#"{"kind":"internal:checkpoint","taskId":"t","iteration":1}"#);
    let before = s.version();
    apply_all(&mut s, &[e]);
    assert_eq!(
        s.version(),
        before,
        "internal events change nothing visible"
    );
    apply_all(
        &mut s,
        &[ev(
            r#"{"kind":"content-delta","taskId":"t","delta":"a","index":0}"#,
        )],
    );
    let v1 = s.version();
    assert!(v1 > before);
    assert_eq!(s.task("t").map(|t| t.revision), Some(v1));
}

#[test]
fn replayed_sse_ids_are_recognised() {
    let mut s = Store::new(Limits::default());
    assert!(s.admit_event_id("1"));
    assert!(s.admit_event_id("2"));
    assert!(!s.admit_event_id("1"));
    assert!(s.admit_event_id(""));
    assert_eq!(s.duplicates_ignored(), 1);
}

fn evs(list: &[&str]) -> Vec<String> {
    list.iter().map(|e| ev(e)).collect()
}

#[test]
fn task_complete_after_failed_or_canceled_is_ignored() {
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"content-delta","taskId":"f","delta":"partial","index":0}"#,
            r#"{"kind":"task-status","taskId":"f","status":"failed"}"#,
            r#"{"kind":"task-complete","taskId":"f","content":"other","metadata":{"duration":5}}"#,
            r#"{"kind":"task-status","taskId":"c","status":"canceled"}"#,
            r#"{"kind":"task-complete","taskId":"c","content":"x"}"#,
            r#"{"kind":"task-status","taskId":"ok","status":"completed"}"#,
            r#"{"kind":"task-complete","taskId":"ok","content":"done","metadata":{"duration":7}}"#,
        ]),
    );
    let f = s.task("f").expect("f");
    assert_eq!(
        (f.content.as_str(), f.status, f.duration, f.content_complete),
        ("partial", Some(TaskStatus::Failed), None, false)
    );
    assert_eq!(s.task("c").map(|t| t.content.as_str()), Some(""));
    let ok = s.task("ok").expect("ok");
    assert_eq!((ok.content.as_str(), ok.duration), ("done", Some(7.0)));
    assert_eq!(
        codes(&s),
        vec![DiagCode::TaskAlreadyTerminal, DiagCode::TaskAlreadyTerminal]
    );
}

#[test]
fn a_conflicting_parent_creates_no_phantom_task() {
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"task-created","taskId":"root","initiator":"user"}"#,
            r#"{"kind":"subtask-created","taskId":"root","subtaskId":"a","prompt":"p"}"#,
            r#"{"kind":"task-created","taskId":"a","parentTaskId":"elsewhere","initiator":"agent"}"#,
        ]),
    );
    assert!(s.task("elsewhere").is_none());
    assert_eq!(s.tasks().count(), 2);
    assert_eq!(
        s.task("a").and_then(|t| t.parent_id.as_deref()),
        Some("root")
    );
    assert_eq!(codes(&s), vec![DiagCode::ParentConflict]);
}

#[test]
fn streaming_text_moves_the_clock_and_expiry_points_at_the_event() {
    let mut s = Store::new(Limits::default());
    let list = [
        r#"{"kind":"input-required","contextId":"c","taskId":"t","inputId":"i","inputType":"confirmation","prompt":"p","timestamp":"2025-11-06T10:00:00Z","metadata":{"timeout":10}}"#,
        r#"{"kind":"content-delta","contextId":"c","taskId":"t","delta":"a","index":0,"timestamp":"2025-11-06T10:00:05Z"}"#,
        r#"{"kind":"thought-stream","contextId":"c","taskId":"t","thoughtId":"x","thoughtType":"planning","verbosity":"brief","content":"c","index":0,"timestamp":"2025-11-06T10:00:09Z"}"#,
        r#"{"kind":"content-delta","contextId":"c","taskId":"t","delta":"b","index":1,"timestamp":"2025-11-06T10:00:10Z"}"#,
    ];
    for (i, e) in list.iter().enumerate() {
        let mut d = Vec::new();
        let decoded = decode_event(e, &EventContext::default(), &mut d).expect("decoded");
        let id = (i + 1).to_string();
        let meta = EventMeta {
            event_id: &id,
            position: i as u64,
            raw: e,
        };
        s.apply(&decoded, &meta);
        let expected = if i < 3 {
            RequestState::Open
        } else {
            RequestState::Expired
        };
        assert_eq!(s.input("i").map(|r| r.state), Some(expected), "after {i}");
    }
    let d: Vec<_> = s.diagnostics().collect();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, DiagCode::RequestExpired);
    assert_eq!((d[0].event_id.as_deref(), d[0].position), (Some("4"), 3));
    // Internal events are stream time too.
    let mut s = Store::new(Limits::default());
    let list = [
        r#"{"kind":"auth-required","contextId":"c","taskId":"t","authId":"a","authType":"oauth2","prompt":"p","timestamp":"2025-11-06T10:00:00Z","metadata":{"expiresIn":1}}"#,
        r#"{"kind":"internal:checkpoint","contextId":"c","taskId":"t","iteration":1,"timestamp":"2025-11-06T10:00:01Z"}"#,
    ];
    for e in list {
        let mut d = Vec::new();
        let decoded = decode_event(e, &EventContext::default(), &mut d).expect("decoded");
        s.apply(&decoded, &EventMeta::default());
    }
    assert_eq!(s.auth("a").map(|r| r.state), Some(RequestState::Expired));
}

#[test]
fn streamed_artifacts_say_complete_false_until_their_final_chunk() {
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"x","index":0,"complete":false}"#,
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","rows":[{"a":1}],"index":0,"complete":false}"#,
            r#"{"kind":"data-write","taskId":"t","artifactId":"r","data":{"a":1}}"#,
        ]),
    );
    assert_eq!(s.artifact("f").and_then(|a| a.complete), Some(false));
    assert_eq!(s.artifact("d").and_then(|a| a.complete), Some(false));
    assert_eq!(s.artifact("r").and_then(|a| a.complete), None);
    let json = s.state_json();
    assert_eq!(json.matches("\"complete\":false").count(), 2, "{json}");
}

#[test]
fn a_file_completed_with_a_gap_is_finalised_once() {
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"a","index":0,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"c","index":2,"complete":true}"#,
        ]),
    );
    s.finish();
    assert_eq!(s.artifact("f").and_then(|a| a.complete), Some(false));
    let (v, rev) = (s.version(), s.artifact("f").map(|a| a.revision));
    s.finish();
    assert_eq!(s.version(), v, "nothing changed: same version");
    assert_eq!(s.artifact("f").map(|a| a.revision), rev);
}

#[test]
fn an_ended_task_gives_up_its_artifact_gaps_and_reports_missing_ends() {
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"a","index":0,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"c","index":2,"complete":true}"#,
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","rows":[{"a":1}],"index":0,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"u","artifactId":"g","data":"x","index":0,"complete":false}"#,
            r#"{"kind":"task-status","taskId":"t","status":"completed"}"#,
            r#"{"kind":"task-complete","taskId":"t","artifacts":["f","d","g"]}"#,
        ]),
    );
    // Given up at completion, not at the end of the stream; reported once.
    assert_eq!(s.artifact_bytes("f"), Some(&b"ac"[..]));
    assert_eq!(codes(&s), vec![DiagCode::ChunkGap, DiagCode::ChunkGap]);
    // u's file belongs to a task that is still running: only the end of stream reports it.
    s.finish();
    assert_eq!(codes(&s).len(), 3);
    // A canceled task's truncated file is expected: no report.
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"a","index":0,"complete":false}"#,
            r#"{"kind":"task-status","taskId":"t","status":"canceled"}"#,
        ]),
    );
    s.finish();
    assert!(codes(&s).is_empty(), "{:?}", codes(&s));
}

#[test]
fn data_version_history_is_bounded() {
    let mut s = Store::new(Limits::default());
    let list: Vec<String> = (0..200)
        .map(|v| {
            ev(&format!(
                r#"{{"kind":"data-write","taskId":"t","artifactId":"r","data":{{"v":{v}}},"metadata":{{"version":{v}}}}}"#
            ))
        })
        .collect();
    apply_all(&mut s, &list);
    let a = s.artifact("r").expect("r");
    let versions = a.versions.as_ref().expect("versions");
    assert_eq!(versions.len(), super::artifacts::MAX_DATA_VERSIONS);
    assert_eq!(versions.last().and_then(|v| v.version), Some(199.0));
    assert_eq!(a.version, Some(199.0));
}

#[test]
fn a_subtask_announced_only_by_its_parent_has_a_creation_time() {
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[r#"{"kind":"subtask-created","taskId":"root","subtaskId":"a","prompt":"p"}"#]),
    );
    assert_eq!(s.task("a").and_then(|t| t.created_at.as_deref()), Some(TS));
}

#[test]
fn the_same_event_sent_twice_in_a_row_is_applied_once() {
    use crate::pipeline::Session;
    use crate::sse::SseConfig;
    let thought = |id: &str, n: u32| {
        format!(
            "{id}event: thought-stream\ndata: {{\"kind\":\"thought-stream\",\"contextId\":\"c\",\"taskId\":\"t\",\"thoughtId\":\"th{n}\",\"thoughtType\":\"planning\",\"verbosity\":\"brief\",\"content\":\"x\",\"index\":{n},\"timestamp\":\"{TS}\"}}\n\n"
        )
    };
    let mut stream = String::new();
    stream.push_str(&thought("id: 9\n", 0));
    stream.push_str(&thought("id: 9\n", 0)); // resent right after itself
    stream.push_str(&thought("", 1)); // no id field: inherits 9, but another event
    stream.push_str(&thought("", 2));
    let mut session = Session::new(SseConfig::default(), Limits::default());
    session.feed(stream.as_bytes(), &mut |_, _, _| {});
    let ids: Vec<&str> = session
        .store()
        .task("t")
        .map(|t| t.thoughts.iter().map(|x| x.id.as_str()).collect())
        .unwrap_or_default();
    assert_eq!(ids, vec!["th0", "th1", "th2"]);
    assert_eq!(session.store().duplicates_ignored(), 1);
}

#[test]
fn an_inclusive_resume_after_events_without_ids_applies_nothing_twice() {
    use crate::pipeline::Session;
    use crate::sse::SseConfig;
    let status = |msg: &str| {
        format!(
            "data: {{\"kind\":\"task-status\",\"contextId\":\"c\",\"taskId\":\"t\",\"status\":\"working\",\"message\":\"{msg}\",\"timestamp\":\"{TS}\"}}\n\n"
        )
    };
    let mut session = Session::new(SseConfig::default(), Limits::default());
    let mut applied = 0;
    // Event A has id 1; B and C carry none (they inherit "1").
    let first = format!("id: 1\n{}{}{}", status("A"), status("B"), status("C"));
    session.feed(first.as_bytes(), &mut |_, _, _| applied += 1);
    assert_eq!(applied, 3);
    // The connection drops; the server resumes after Last-Event-ID 1 inclusively: A again.
    session.parser().reset();
    let again = format!("id: 1\n{}id: 2\n{}", status("A"), status("D"));
    session.feed(again.as_bytes(), &mut |_, _, _| applied += 1);
    assert_eq!(applied, 4, "A not applied twice, D applied");
    assert_eq!(session.store().duplicates_ignored(), 1);
    let history: Vec<&str> = session
        .store()
        .task("t")
        .map(|t| {
            t.history
                .iter()
                .filter_map(|h| h.message.as_deref())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(history, ["A", "B", "C", "D"]);
}

#[test]
fn replay_offsets_stay_proportional_to_the_answer() {
    // Empty deltas and a gap of 2^53 indices: the offsets kept for replay checks stop growing
    // (nothing is allocated per skipped index) and replays stay recognised as duplicates.
    let limits = Limits {
        max_pending_chunks: 0,
        ..Limits::default()
    };
    let mut s = Store::new(limits);
    let mut evs: Vec<String> = (0..2_000)
        .map(|i| {
            ev(&format!(
                r#"{{"kind":"content-delta","taskId":"t","delta":"","index":{i}}}"#
            ))
        })
        .collect();
    evs.push(ev(
        r#"{"kind":"content-delta","taskId":"t","delta":"late","index":9007199254740990}"#,
    ));
    evs.push(ev(
        r#"{"kind":"content-delta","taskId":"t","delta":"","index":1023}"#,
    ));
    evs.push(ev(
        r#"{"kind":"content-delta","taskId":"t","delta":"x","index":5}"#,
    ));
    apply_all(&mut s, &evs);
    assert_eq!(s.task("t").map(|t| t.content.as_str()), Some("late"));
    assert!(s.usage().delta_offsets_over_content <= super::usage::DELTA_OFFSET_SLACK);
    assert!(codes(&s).contains(&DiagCode::ChunkGap));
    // The replays of indices 1023 and 5 are duplicates (index 5 with other text is a conflict).
    assert_eq!(s.duplicates_ignored(), 1);
    assert!(codes(&s).contains(&DiagCode::ChunkConflict));
}

#[test]
fn answered_requests_drop_their_deadline_and_open_ones_expire() {
    let mut s = Store::new(Limits::default());
    let evs: Vec<String> = [
        r#"{"kind":"input-required","taskId":"t","inputId":"a","inputType":"confirmation","prompt":"?","metadata":{"timeout":5}}"#,
        r#"{"kind":"input-required","taskId":"t","inputId":"b","inputType":"confirmation","prompt":"?","metadata":{"timeout":5}}"#,
        r#"{"kind":"input-received","taskId":"t","inputId":"a","providedBy":"user"}"#,
    ]
    .iter()
    .map(|e| ev(e))
    .collect();
    apply_all(&mut s, &evs);
    assert_eq!(s.usage().deadlines, 1);
    let now = crate::events::timestamp::to_epoch_ms(TS).expect("ts");
    let v = s.version();
    s.advance_clock(now + 4_000);
    assert_eq!(s.version(), v, "nothing expired yet");
    s.advance_clock(now + 5_000);
    assert_eq!(s.input("a").map(|r| r.state), Some(RequestState::Answered));
    assert_eq!(s.input("b").map(|r| r.state), Some(RequestState::Expired));
    assert_eq!(s.usage().deadlines, 0);
    assert_eq!(codes(&s), vec![DiagCode::RequestExpired]);
}

#[test]
fn answered_deadlines_do_not_pile_up_and_expiry_keeps_its_order() {
    let mut s = Store::new(Limits::default());
    // 500 requests answered before their deadline: the heap of deadlines is rebuilt as their
    // entries go stale, so it stays within twice the open requests (plus 64).
    let mut evs = Vec::new();
    for i in 0..500 {
        evs.push(ev(&format!(
            r#"{{"kind":"input-required","taskId":"t","inputId":"a{i}","inputType":"confirmation","prompt":"?","metadata":{{"timeout":5}}}}"#
        )));
        evs.push(ev(&format!(
            r#"{{"kind":"input-received","taskId":"t","inputId":"a{i}","providedBy":"user"}}"#
        )));
    }
    // Three open ones; the later-registered "z1" has the earlier deadline.
    for (id, timeout) in [("z3", 9), ("z1", 3), ("z2", 6)] {
        evs.push(ev(&format!(
            r#"{{"kind":"input-required","taskId":"t","inputId":"{id}","inputType":"confirmation","prompt":"?","metadata":{{"timeout":{timeout}}}}}"#
        )));
    }
    apply_all(&mut s, &evs);
    assert_eq!(s.usage().deadlines, 3);
    assert!(
        s.deadlines.len() <= 2 * 3 + 64,
        "{} heap entries",
        s.deadlines.len()
    );
    let now = crate::events::timestamp::to_epoch_ms(TS).expect("ts");
    s.advance_clock(now + 10_000);
    let expired: Vec<String> = s
        .diagnostics()
        .filter(|d| d.code == DiagCode::RequestExpired)
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(
        expired,
        [
            "input request z1 expired before it was answered",
            "input request z2 expired before it was answered",
            "input request z3 expired before it was answered",
        ]
    );
    assert_eq!(s.usage().deadlines, 0);
    assert!(s
        .input("a0")
        .is_some_and(|r| r.state == RequestState::Answered));
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

#[test]
fn a_chunk_held_past_the_final_one_is_dropped_when_the_final_one_arrives() {
    // Files: chunks 3, 2 (final), 0, 1. Chunk 3 comes after the end, as it would be had it
    // arrived after chunk 2.
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"D","index":3,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"C","index":2,"complete":true}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"A","index":0,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"B","index":1,"complete":false}"#,
        ]),
    );
    assert_eq!(s.artifact_bytes("f"), Some(&b"ABC"[..]));
    assert_eq!(s.artifact("f").and_then(|a| a.complete), Some(true));
    assert_eq!(codes(&s), vec![DiagCode::ChunkAfterComplete]);
    // The final chunk arriving in order drops what is held beyond it too.
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"A","index":0,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"C","index":2,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"B","index":1,"complete":true}"#,
        ]),
    );
    assert_eq!(s.artifact_bytes("f"), Some(&b"AB"[..]));
    assert_eq!(codes(&s), vec![DiagCode::ChunkAfterComplete]);
    // Datasets: batches 2, 1 (final), 0 hold two batches' rows, not three.
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","rows":[{"a":9}],"index":2,"complete":false}"#,
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","rows":[{"a":1}],"index":1,"complete":true}"#,
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","rows":[{"a":0}],"index":0,"complete":false}"#,
        ]),
    );
    assert_eq!(s.artifact("d").and_then(|a| a.row_count), Some(2));
    assert_eq!(codes(&s), vec![DiagCode::ChunkAfterComplete]);
}

#[test]
fn a_repeated_or_refused_chunk_0_does_not_change_the_artifact() {
    // A duplicate chunk 0 without `encoding` must not turn a base64 file into text.
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"aGVs","index":0,"complete":false,"name":"hello.bin","encoding":"base64","metadata":{"totalSize":5}}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"aGVs","index":0,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"bG8=","index":1,"complete":true}"#,
        ]),
    );
    assert_eq!(s.duplicates_ignored(), 1);
    assert_eq!(s.artifact_bytes("f"), Some(&b"hello"[..]));
    let a = s.artifact("f").expect("artifact");
    assert_eq!(
        (a.name.as_deref(), a.total_size),
        (Some("hello.bin"), Some(5))
    );
    // A chunk 0 refused after the file ended renames nothing.
    let before = (visible(&s), s.version());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"zzz","index":0,"complete":true,"name":"evil.html","mimeType":"text/html"}"#,
        ]),
    );
    assert_eq!(codes(&s), vec![DiagCode::ChunkAfterComplete]);
    let a = s.artifact("f").expect("artifact");
    assert_eq!(
        (a.name.as_deref(), a.mime_type.as_deref()),
        (Some("hello.bin"), None)
    );
    assert_eq!(s.artifact_bytes("f"), Some(&b"hello"[..]));
    // Only the diagnostic is new.
    assert_eq!(
        visible(&s).matches("evil").count(),
        1,
        "only in the diagnostic's raw event"
    );
    assert!(s.version() > before.1);
    // Datasets: a duplicate batch 0 keeps the name and totals of the first.
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","name":"rows","rows":[{"a":0}],"index":0,"complete":false,"metadata":{"totalRows":2}}"#,
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","name":"other","rows":[{"a":0}],"index":0,"complete":false,"metadata":{"totalRows":99}}"#,
        ]),
    );
    let d = s.artifact("d").expect("dataset");
    assert_eq!(
        (d.name.as_deref(), d.total_rows, d.row_count),
        (Some("rows"), Some(2), Some(1))
    );
}

#[test]
fn an_answer_cut_at_the_content_limit_stays_a_prefix() {
    let mut s = Store::new(Limits {
        max_content_bytes: 4,
        ..Limits::default()
    });
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"content-delta","taskId":"t","delta":"abc","index":0}"#,
            r#"{"kind":"content-delta","taskId":"t","delta":"de","index":1}"#,
            r#"{"kind":"content-delta","taskId":"t","delta":"f","index":2}"#,
        ]),
    );
    assert_eq!(s.task("t").map(|t| t.content.as_str()), Some("abc"));
    assert_eq!(codes(&s), vec![DiagCode::LimitExceeded]);
}

#[test]
fn the_version_stays_when_a_chunk_changes_nothing_visible() {
    let limits = Limits {
        max_content_bytes: 2,
        max_artifact_bytes: 2,
        max_dataset_rows: 1,
        ..Limits::default()
    };
    let mut s = Store::new(limits);
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"content-delta","taskId":"t","delta":"a","index":0}"#,
            r#"{"kind":"content-delta","taskId":"t","delta":"bc","index":1}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"abc","index":0,"complete":false}"#,
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","rows":[{"a":0},{"a":1}],"index":0,"complete":false}"#,
        ]),
    );
    let still = [
        // held (index 3 waits for 2), dropped over the content limit, an empty delta
        r#"{"kind":"content-delta","taskId":"t","delta":"x","index":3}"#,
        r#"{"kind":"content-delta","taskId":"t","delta":"d","index":2}"#,
        // dropped over the byte and row limits
        r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"d","index":1,"complete":false}"#,
        r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","rows":[{"a":2}],"index":1,"complete":false}"#,
    ];
    for e in still {
        let before = (visible(&s), s.version());
        apply_all(&mut s, &evs(&[e]));
        assert_eq!((visible(&s), s.version()), before, "{e}");
    }
    // A delta that creates its task is seen even when it is held.
    let v = s.version();
    apply_all(
        &mut s,
        &evs(&[r#"{"kind":"content-delta","taskId":"u","delta":"later","index":1}"#]),
    );
    assert!(s.version() > v);
    assert!(s.task("u").is_some_and(|t| t.revision == s.version()));
}

#[test]
fn task_complete_without_content_makes_the_answer_final() {
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"content-delta","taskId":"t","delta":"Hi","index":0}"#,
            r#"{"kind":"task-complete","taskId":"t"}"#,
            r#"{"kind":"content-delta","taskId":"u","delta":"Hi","index":0}"#,
            r#"{"kind":"task-status","taskId":"u","status":"completed"}"#,
        ]),
    );
    for id in ["t", "u"] {
        let t = s.task(id).expect("task");
        assert_eq!(
            (t.content.as_str(), t.content_complete),
            ("Hi", true),
            "{id}"
        );
    }
}

#[test]
fn a_task_that_ends_leaves_no_request_open() {
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"input-required","taskId":"t","inputId":"ask","inputType":"confirmation","prompt":"Send?","requireUser":true,"metadata":{"timeout":60}}"#,
            r#"{"kind":"auth-required","taskId":"t","authId":"gh","authType":"oauth2","prompt":"Sign in","authUrl":"https://example.com/auth"}"#,
            r#"{"kind":"input-required","taskId":"u","inputId":"other","inputType":"clarification","prompt":"Which?"}"#,
            r#"{"kind":"task-status","taskId":"t","status":"canceled"}"#,
        ]),
    );
    // t's requests can no longer be answered; u's still can. No diagnostic: a normal end.
    let open: Vec<&str> = s.pending_inputs().map(|r| r.id.as_str()).collect();
    assert_eq!(open, ["other"]);
    assert_eq!(s.pending_auths().count(), 0);
    assert_eq!(s.input("ask").map(|r| r.state), Some(RequestState::Expired));
    assert_eq!(s.auth("gh").map(|r| r.state), Some(RequestState::Expired));
    assert_eq!(s.usage().deadlines, 0, "the deadline went with the request");
    assert!(codes(&s).is_empty(), "{:?}", codes(&s));
    // task-complete closes them too.
    apply_all(&mut s, &evs(&[r#"{"kind":"task-complete","taskId":"u"}"#]));
    assert_eq!(s.pending_inputs().count(), 0);
}

#[test]
fn a_replay_after_the_end_counts_as_duplicates_not_errors() {
    // A server that resends a finished answer and its thoughts without SSE ids.
    let run = [
        r#"{"kind":"thought-stream","taskId":"t","thoughtId":"th-1","thoughtType":"planning","verbosity":"brief","content":"Plan","index":0}"#,
        r#"{"kind":"content-delta","taskId":"t","delta":"Hel","index":0}"#,
        r#"{"kind":"content-delta","taskId":"t","delta":"lo","index":1}"#,
        r#"{"kind":"content-complete","taskId":"t","content":"Hello"}"#,
    ];
    let mut s = Store::new(Limits::default());
    apply_all(&mut s, &evs(&run));
    let before = (visible(&s), s.version());
    apply_all(&mut s, &evs(&run[..3]));
    assert_eq!((visible(&s), s.version()), before);
    assert_eq!(s.duplicates_ignored(), 3);
    assert!(codes(&s).is_empty(), "{:?}", codes(&s));
    // A new index after the end, or a repeated one with other text, is still reported.
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"content-delta","taskId":"t","delta":"!","index":2}"#,
            r#"{"kind":"content-delta","taskId":"t","delta":"Jel","index":0}"#,
        ]),
    );
    assert_eq!(
        codes(&s),
        vec![DiagCode::ChunkAfterComplete, DiagCode::ChunkConflict]
    );
    // The same thought id in another task is another thought.
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"thought-stream","taskId":"u","thoughtId":"th-1","thoughtType":"planning","verbosity":"brief","content":"Other","index":0}"#,
        ]),
    );
    assert_eq!(s.task("u").map(|t| t.thoughts.len()), Some(1));
    assert_eq!(s.task("t").map(|t| t.thoughts.len()), Some(1));
}

#[test]
fn state_changes_count_everything_but_diagnostics() {
    // What the WebSocket transport counts as progress: a socket whose frames only became
    // diagnostics or internal events made none.
    let mut store = Store::new(Limits::default());
    apply_all(
        &mut store,
        &[ev(
            r#"{"kind":"task-created","taskId":"t","initiator":"user"}"#,
        )],
    );
    let after_task = store.state_changes();
    assert!(after_task > 0);
    let version = store.version();
    store.push_diagnostic(crate::events::Diagnostic::new(
        DiagCode::SseEventTooLarge,
        crate::events::Severity::Error,
        "a frame was dropped",
        "",
    ));
    assert!(store.version() > version, "the diagnostic is visible");
    assert_eq!(codes(&store), [DiagCode::SseEventTooLarge]);
    assert_eq!(
        store.state_changes(),
        after_task,
        "diagnostics are no progress"
    );
    apply_all(
        &mut store,
        &[ev(
            r#"{"kind":"internal:checkpoint","taskId":"t","iteration":1}"#,
        )],
    );
    assert_eq!(
        store.state_changes(),
        after_task,
        "internal events are no progress"
    );
    apply_all(
        &mut store,
        &[ev(
            r#"{"kind":"task-status","taskId":"t","status":"working"}"#,
        )],
    );
    assert!(store.state_changes() > after_task);
}
