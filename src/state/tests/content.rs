//! The answer text: order, duplicates, gaps, the server's final text.

use super::*;

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
fn deltas_find_their_message_after_the_messages_move() {
    // `message_of` tries the message the last lookup found first (a hint checked by id): a
    // snapshot that reorders the messages, or one inserted before, must not send a delta to
    // whatever message sits at the old position now.
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"message-start","taskId":"t","messageId":"m0","role":"user"}"#,
            r#"{"kind":"message-start","taskId":"t","messageId":"m2","role":"assistant"}"#,
            r#"{"kind":"message-delta","taskId":"t","messageId":"m2","delta":"a"}"#,
            r#"{"kind":"messages-snapshot","taskId":"t","messages":[{"id":"m2","role":"assistant","content":"a"},{"id":"m1","role":"user","content":"hi"}]}"#,
            r#"{"kind":"message-delta","taskId":"t","messageId":"m2","delta":"b"}"#,
            r#"{"kind":"message-start","taskId":"t","messageId":"m3","role":"assistant"}"#,
            r#"{"kind":"message-delta","taskId":"t","messageId":"m3","delta":"x"}"#,
            r#"{"kind":"message-delta","taskId":"t","messageId":"m2","delta":"c"}"#,
            r#"{"kind":"message-delta","taskId":"t","messageId":"m3","delta":"y"}"#,
        ]),
    );
    let texts: Vec<(String, String)> = s
        .task("t")
        .map(|t| {
            t.messages
                .iter()
                .map(|m| (m.id.clone(), m.content.clone()))
                .collect()
        })
        .unwrap_or_default();
    let want = [("m2", "abc"), ("m1", "hi"), ("m3", "xy")];
    assert_eq!(
        texts,
        want.map(|(i, c)| (i.to_owned(), c.to_owned())).to_vec()
    );
}

#[test]
fn a_tool_result_inserted_before_a_streaming_message_and_activity_updates_keep_its_deltas_in_place()
{
    // The tool message goes after the assistant message holding its call, ahead of the message
    // still streaming; activity snapshots replace their message in place. Deltas after either
    // still reach the streaming message, and the answer goes on without a new separator.
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"message-upsert","taskId":"t","message":{"id":"a1","role":"assistant","content":"first","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}}"#,
            r#"{"kind":"message-upsert","taskId":"t","message":{"id":"act","role":"activity","activityType":"PLAN","content":{"step":1}}}"#,
            r#"{"kind":"message-start","taskId":"t","messageId":"a2","role":"assistant"}"#,
            r#"{"kind":"message-delta","taskId":"t","messageId":"a2","delta":"second"}"#,
            r#"{"kind":"message-upsert","taskId":"t","message":{"id":"r1","role":"tool","toolCallId":"c1","content":"result"}}"#,
            r#"{"kind":"message-delta","taskId":"t","messageId":"a2","delta":" more"}"#,
            r#"{"kind":"message-upsert","taskId":"t","message":{"id":"act","role":"activity","activityType":"PLAN","content":{"step":2}}}"#,
            r#"{"kind":"message-delta","taskId":"t","messageId":"a2","delta":"!"}"#,
        ]),
    );
    assert!(codes(&s).is_empty(), "{:?}", codes(&s));
    let t = s.task("t").expect("task");
    let texts: Vec<(&str, &str)> = t
        .messages
        .iter()
        .map(|m| (m.id.as_str(), m.content.as_str()))
        .collect();
    assert_eq!(
        texts,
        [
            ("a1", "first"),
            ("r1", "result"),
            ("act", ""),
            ("a2", "second more!")
        ]
    );
    assert_eq!(t.content, "first\n\nsecond more!");
    assert!(visible(&s).contains(r#""step":2"#));
}
