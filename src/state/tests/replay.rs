//! Replays and resumes: events seen twice are applied once.

use super::*;

#[test]
fn replayed_sse_ids_are_recognised() {
    let mut s = Store::new(Limits::default());
    assert!(s.admit_event_id("1"));
    assert!(s.admit_event_id("2"));
    assert!(!s.admit_event_id("1"));
    assert!(s.admit_event_id(""));
    assert_eq!(s.duplicates_ignored(), 1);
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
fn stateless_events_are_told_by_variant_exactly_the_internal_and_unknown_kinds() {
    // `is_stateless` names the `internal:` variants one by one (no string comparison per
    // event): every kind must agree with its name, or a new internal kind would lose its
    // replay detection.
    let mut internal = 0;
    for kind in crate::events::KINDS {
        let json = ev(&format!(
            r#"{{"kind":"{kind}","taskId":"t","iteration":1,"state":{{}},"toolName":"x","toolCallId":"c","success":true,"reasoning":"r","stage":"pre-llm"}}"#
        ));
        let cx = EventContext {
            sse_type: "message",
            event_id: "",
            position: 0,
        };
        let Some(e) = decode_event(&json, &cx, &mut Vec::new()) else {
            continue;
        };
        if e.kind() != *kind {
            continue;
        }
        let is_internal = kind.starts_with("internal:");
        internal += usize::from(is_internal);
        assert_eq!(
            crate::state::replay::is_stateless(&e),
            is_internal,
            "{kind}"
        );
    }
    let expected = crate::events::KINDS
        .iter()
        .filter(|k| k.starts_with("internal:"))
        .count();
    assert_eq!(
        internal, expected,
        "every internal kind decoded and checked"
    );
    let unknown = ev(r#"{"kind":"internal:not-yet","taskId":"t"}"#);
    let cx = EventContext {
        sse_type: "message",
        event_id: "",
        position: 0,
    };
    let e = decode_event(&unknown, &cx, &mut Vec::new());
    assert!(e.is_some_and(|e| crate::state::replay::is_stateless(&e)));
}
