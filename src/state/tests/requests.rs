//! Tools, input and auth requests: lifecycle, expiry on stream time, deadlines.

use super::*;

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
