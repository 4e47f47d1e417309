use super::*;

fn cx() -> EventContext<'static> {
    EventContext {
        sse_type: "message",
        event_id: "",
        position: 0,
    }
}

fn decode(data: &str) -> (Option<AgentEvent<'_>>, Vec<Diagnostic>) {
    let mut d = Vec::new();
    let ev = decode_event(data, &cx(), &mut d);
    (ev, d)
}

#[test]
fn decodes_a_content_delta_borrowing_strings() {
    let data = r#"{"kind":"content-delta","contextId":"c","taskId":"t","delta":"Hello","index":0,"timestamp":"2025-11-06T10:30:30.123Z"}"#;
    let (ev, diags) = decode(data);
    assert!(diags.is_empty(), "{diags:?}");
    let Some(AgentEvent::ContentDelta(e)) = ev else {
        panic!("not a content-delta")
    };
    assert!(matches!(e.delta, std::borrow::Cow::Borrowed("Hello")));
    assert_eq!(e.index, 0);
}

#[test]
fn missing_required_field_rejects_with_path() {
    let (ev, diags) = decode(
        r#"{"kind":"tool-progress","contextId":"c","taskId":"t","toolCallId":"x","timestamp":"2025-11-06T10:30:00Z"}"#,
    );
    assert!(ev.is_none());
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code, DiagCode::MissingField);
    assert_eq!(diags[0].path, "$.progress");
    assert_eq!(diags[0].kind.as_deref(), Some("tool-progress"));
    assert_eq!(diags[0].task_id.as_deref(), Some("t"));
    assert!(diags[0]
        .raw
        .as_deref()
        .is_some_and(|r| r.contains("toolCallId")));
}

#[test]
fn optional_field_of_wrong_type_is_dropped_with_a_warning() {
    let (ev, diags) = decode(
        r#"{"kind":"task-status","contextId":"c","taskId":"t","status":"working","message":5,"timestamp":"2025-11-06T10:30:00Z"}"#,
    );
    let Some(AgentEvent::TaskStatusEvent(e)) = ev else {
        panic!("rejected")
    };
    assert_eq!(e.message, None);
    assert_eq!(diags.len(), 1);
    assert_eq!(
        (diags[0].code, diags[0].severity),
        (DiagCode::InvalidType, Severity::Warning)
    );
    assert_eq!(diags[0].path, "$.message");
}

#[test]
fn enum_and_range_violations() {
    let (ev, d) = decode(
        r#"{"kind":"task-status","contextId":"c","taskId":"t","status":"done","timestamp":"2025-11-06T10:30:00Z"}"#,
    );
    assert!(ev.is_none());
    assert_eq!(d[0].code, DiagCode::InvalidEnum);
    let (ev, d) = decode(
        r#"{"kind":"content-delta","contextId":"c","taskId":"t","delta":"x","index":-1,"timestamp":"2025-11-06T10:30:00Z"}"#,
    );
    assert!(ev.is_none());
    assert_eq!(
        (d[0].code, d[0].path.as_str()),
        (DiagCode::OutOfRange, "$.index")
    );
    let (ev, d) = decode(
        r#"{"kind":"content-delta","contextId":"c","taskId":"t","delta":"x","index":1.5,"timestamp":"2025-11-06T10:30:00Z"}"#,
    );
    assert!(ev.is_none());
    assert_eq!(d[0].code, DiagCode::OutOfRange);
    let (ev, d) = decode(
        r#"{"kind":"tool-progress","contextId":"c","taskId":"t","toolCallId":"x","progress":1.5,"timestamp":"2025-11-06T10:30:00Z"}"#,
    );
    assert!(ev.is_some());
    assert_eq!(
        (d[0].code, d[0].severity),
        (DiagCode::OutOfRange, Severity::Warning)
    );
    let (ev, d) = decode(
        r#"{"kind":"thought-stream","contextId":"c","taskId":"t","thoughtId":"th","thoughtType":"planning","verbosity":"brief","content":"x","index":0,"timestamp":"2025-11-06T10:30:00Z","metadata":{"confidence":2}}"#,
    );
    assert!(ev.is_some());
    assert_eq!(d[0].path, "$.metadata.confidence");
}

#[test]
fn bad_timestamp_is_a_warning() {
    let (ev, d) = decode(
        r#"{"kind":"internal:checkpoint","contextId":"c","taskId":"t","iteration":1,"timestamp":"yesterday"}"#,
    );
    assert!(ev.is_some());
    assert_eq!(d[0].code, DiagCode::InvalidTimestamp);
}

#[test]
fn unknown_kinds_are_kept_whole() {
    let data = r#"{"kind":"artifact-delta","contextId":"c","taskId":"t","x":[1,2]}"#;
    let (ev, d) = decode(data);
    assert!(d.is_empty());
    let Some(AgentEvent::Unknown(u)) = ev else {
        panic!()
    };
    assert_eq!(u.unknown_kind, "artifact-delta");
    assert_eq!(u.task_id.as_deref(), Some("t"));
    assert_eq!(u.data.to_json(), data);
}

#[test]
fn sse_event_type_must_match_kind_without_internal_prefix() {
    let data = r#"{"kind":"internal:llm-call","contextId":"c","taskId":"t","iteration":1,"timestamp":"2025-11-06T10:30:00Z"}"#;
    let mut d = Vec::new();
    let ok = EventContext {
        sse_type: "llm-call",
        event_id: "7",
        position: 3,
    };
    assert!(decode_event(data, &ok, &mut d).is_some() && d.is_empty());
    let bad = EventContext {
        sse_type: "task-status",
        event_id: "7",
        position: 3,
    };
    assert!(decode_event(data, &bad, &mut d).is_some());
    assert_eq!(d[0].code, DiagCode::KindMismatch);
    assert_eq!((d[0].event_id.as_deref(), d[0].position), (Some("7"), 3));
}

#[test]
fn metadata_only_on_first_chunk() {
    let (ev, d) = decode(
        r#"{"kind":"file-write","contextId":"c","taskId":"t","artifactId":"a","data":"x","index":2,"complete":false,"name":"late.md","timestamp":"2025-11-06T10:30:00Z"}"#,
    );
    assert!(ev.is_some());
    assert_eq!(
        (d[0].code, d[0].path.as_str()),
        (DiagCode::MetadataNotOnFirstChunk, "$.name")
    );
}

#[test]
fn round_trip_preserves_every_field_including_unknown_ones() {
    let data = r#"{"kind":"tool-start","contextId":"c","taskId":"t","toolCallId":"x","toolName":"search","arguments":{"q":"a\"b","n":[1,2.5]},"timestamp":"2025-11-06T10:30:00Z","metadata":{"provider":"mcp"},"future":{"a":null}}"#;
    let (ev, d) = decode(data);
    assert!(d.is_empty());
    let mut out = String::new();
    ev.expect("decoded").write_json(&mut out);
    assert_eq!(out, data);
}

#[test]
fn not_json_and_not_object() {
    let (ev, d) = decode("{\"kind\":");
    assert!(ev.is_none());
    assert_eq!(d[0].code, DiagCode::InvalidJson);
    let (ev, d) = decode("[1]");
    assert!(ev.is_none());
    assert_eq!(d[0].code, DiagCode::NotAnObject);
    let (ev, d) = decode("{\"kind\":3}");
    assert!(ev.is_none());
    assert_eq!(
        (d[0].code, d[0].path.as_str()),
        (DiagCode::InvalidType, "$.kind")
    );
}

#[test]
fn unsafe_auth_url_is_flagged() {
    let (ev, d) = decode(
        r#"{"kind":"auth-required","contextId":"c","taskId":"t","authId":"a","authType":"oauth2","prompt":"p","authUrl":"javascript:alert(1)","timestamp":"2025-11-06T10:30:00Z"}"#,
    );
    assert!(ev.is_some());
    assert_eq!(d[0].code, DiagCode::UnsafeUrl);
}

#[test]
fn a_required_field_of_the_wrong_type_is_not_also_reported_missing() {
    for (data, code, path) in [
        (
            r#"{"kind":"content-delta","contextId":"c","taskId":"t","delta":"x","index":"seven","timestamp":"2025-11-06T10:30:00Z"}"#,
            DiagCode::InvalidType,
            "$.index",
        ),
        (
            r#"{"kind":"task-status","contextId":"c","taskId":"t","status":"paused","timestamp":"2025-11-06T10:30:00Z"}"#,
            DiagCode::InvalidEnum,
            "$.status",
        ),
    ] {
        let (ev, d) = decode(data);
        assert!(ev.is_none());
        let got: Vec<_> = d.iter().map(|d| (d.code, d.path.as_str())).collect();
        assert_eq!(got, vec![(code, path)], "{data}");
    }
    let (_, d) = decode(
        r#"{"kind":"content-delta","contextId":"c","taskId":"t","index":1,"timestamp":"2025-11-06T10:30:00Z"}"#,
    );
    assert_eq!(d.len(), 1);
    assert_eq!(
        (d[0].code, d[0].path.as_str()),
        (DiagCode::MissingField, "$.delta")
    );
}

#[test]
fn the_content_delta_fast_path_agrees_with_the_general_path() {
    const OK: &str = r#"{"kind":"content-delta","contextId":"ctx-1","taskId":"task-1","delta":" cohort","index":12,"timestamp":"2025-11-06T10:30:00.565Z"}"#;
    // (data, whether the fast path must take it)
    let cases: Vec<(String, bool)> = vec![
        (OK.to_owned(), true),
        (OK.replace(" cohort", "héllo ✓ 世界"), true),
        (OK.replace(" cohort", ""), true),
        (OK.replace("ctx-1", ""), true),
        (OK.replace(":12,", ":0,"), true),
        (OK.replace(":12,", ":999999999999999,"), true),
        // Everything below is the general path's: escapes, other number forms, order, spacing,
        // extra or missing members, invalid values.
        (OK.replace(" cohort", r#"a\"b"#), false),
        (OK.replace(" cohort", r"line\nbreak"), false),
        (OK.replace(" cohort", "tab\there"), false),
        (OK.replace(":12,", ":012,"), false),
        (OK.replace(":12,", ":-1,"), false),
        (OK.replace(":12,", ":1.5,"), false),
        (OK.replace(":12,", ":12.0,"), false),
        (OK.replace(":12,", ":1e2,"), false),
        (OK.replace(":12,", ":9007199254740991,"), false),
        (OK.replace(":12,", ":9007199254740992,"), false),
        (OK.replace(":12,", r#":"12","#), false),
        (OK.replace(":12,", ":,"), false),
        (OK.replace(r#""delta":" cohort""#, r#""delta":null"#), false),
        (OK.replace("2025-11-06T10:30:00.565Z", "yesterday"), false),
        (OK.replace(r#"{"kind""#, r#"{ "kind""#), false),
        (OK.replace('}', r#","extra":1}"#), false),
        (OK.replace('}', r#","index":3}"#), false),
        (format!("{OK} "), false),
        (format!("{OK}x"), false),
        (OK.replace(r#""taskId":"task-1","#, ""), false),
        (
            OK.replace(
                r#""contextId":"ctx-1","taskId":"task-1""#,
                r#""taskId":"task-1","contextId":"ctx-1""#,
            ),
            false,
        ),
        (OK.replace("content-delta", "content-complete"), false),
        (OK[..OK.len() - 1].to_owned(), false),
        (OK[..40].to_owned(), false),
    ];
    let contexts = [
        ("message", true),
        ("content-delta", true),
        ("task-status", false),
    ];
    for (data, taken) in &cases {
        for (sse_type, type_ok) in contexts {
            let cx = EventContext {
                sse_type,
                event_id: "7",
                position: 3,
            };
            let fast = super::fast::content_delta(data, &cx);
            assert_eq!(
                fast.is_some(),
                *taken && type_ok,
                "fast path on {data} ({sse_type})"
            );
            let (mut d, mut diags) = (Vec::new(), Vec::new());
            let decoded = decode_event(data, &cx, &mut d);
            let general = decode_event_general(data, &cx, &mut diags);
            if let Some(fast) = fast {
                assert!(diags.is_empty(), "{data}: {diags:?}");
                assert_eq!(Some(fast), general, "{data}");
            }
            // decode_event gives the general path's answer, diagnostics included.
            assert_eq!(decoded, general, "{data}");
            assert_eq!(d, diags, "{data}");
        }
    }
}

#[test]
fn message_delta_decodes_the_same_on_every_path() {
    // As the AG-UI dialect writes TEXT_MESSAGE_CONTENT when a member needs escapes.
    const OK: &str = r#"{"kind":"message-delta","contextId":"thread-1","taskId":"run-1","messageId":"msg-1","delta":" cohort","timestamp":"2025-11-06T10:30:00.565Z"}"#;
    // (data, whether the fast path must take it)
    let cases: Vec<(String, bool)> = vec![
        (OK.to_owned(), true),
        (OK.replace(" cohort", "héllo ✓ 世界 😀"), true),
        (OK.replace(" cohort", ""), true),
        (OK.replace("thread-1", ""), true),
        (OK.replace("msg-1", ""), true),
        (OK.replace("run-1", ""), true),
        (OK.replace(" cohort", r#"a\"b"#), false),
        (OK.replace(" cohort", r"line\nbreak"), false),
        (OK.replace(" cohort", r"\ud83d"), false),
        (OK.replace(" cohort", "tab\there"), false),
        (OK.replace(r#""delta":" cohort""#, r#""delta":null"#), false),
        (OK.replace(r#""delta":" cohort""#, r#""delta":7"#), false),
        (OK.replace("2025-11-06T10:30:00.565Z", "yesterday"), false),
        (OK.replace(r#"{"kind""#, r#"{ "kind""#), false),
        (OK.replace('}', r#","extra":1}"#), false),
        (format!("{OK} "), false),
        (format!("{OK}x"), false),
        (OK.replace(r#""messageId":"msg-1","#, ""), false),
        (OK.replace("message-delta", "message-end"), false),
        (OK.replace("message-delta", "content-delta"), false),
        (OK[..OK.len() - 1].to_owned(), false),
        (OK[..40].to_owned(), false),
    ];
    let contexts = [
        ("message", true),
        ("message-delta", true),
        ("task-status", false),
    ];
    for (data, taken) in &cases {
        for (sse_type, type_ok) in contexts {
            let cx = EventContext {
                sse_type,
                event_id: "7",
                position: 3,
            };
            let (mut d, mut diags) = (Vec::new(), Vec::new());
            let decoded = decode_event(data, &cx, &mut d);
            let general = decode_event_general(data, &cx, &mut diags);
            // What the dialect would hand over as parts decodes cleanly.
            if *taken && type_ok {
                assert!(diags.is_empty() && general.is_some(), "{data}: {diags:?}");
            }
            assert_eq!(decoded, general, "{data}");
            assert_eq!(d, diags, "{data}");
        }
    }
}
