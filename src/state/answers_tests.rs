//! Answers in flight (`sending`) and the user/coordinator rule of `pending_inputs`.

use super::*;
use crate::events::{decode_event, EventContext};
use crate::state::{EventMeta, Limits, Routing};

fn apply(s: &mut Store, json: &str) {
    let mut d = Vec::new();
    let cx = EventContext {
        sse_type: "message",
        event_id: "",
        position: 0,
    };
    let e = decode_event(json, &cx, &mut d).expect("decoded");
    assert!(d.is_empty(), "{d:?}");
    s.apply(&e, &EventMeta::default());
}

const TASK: &str = r#"{"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"2025-11-06T10:00:00Z"}"#;

fn input(id: &str, require_user: bool) -> String {
    format!(
        r#"{{"kind":"input-required","contextId":"c","taskId":"t","inputId":"{id}","inputType":"confirmation","prompt":"ok?","requireUser":{require_user},"timestamp":"2025-11-06T10:00:01Z","metadata":{{"timeout":60}}}}"#
    )
}

fn received(id: &str) -> String {
    format!(
        r#"{{"kind":"input-received","contextId":"c","taskId":"t","inputId":"{id}","value":true,"providedBy":"user","timestamp":"2025-11-06T10:00:02Z"}}"#
    )
}

fn store_with(inputs: &[(&str, bool)]) -> Store {
    let mut s = Store::new(Limits::default());
    apply(&mut s, TASK);
    for (id, u) in inputs {
        apply(&mut s, &input(id, *u));
    }
    s
}

fn sending(s: &Store, id: &str) -> bool {
    s.input(id).expect("input").sending
}

fn pending(s: &Store) -> Vec<&str> {
    s.pending_inputs().map(|i| i.id.as_str()).collect()
}

#[test]
fn an_answer_is_sending_until_the_server_takes_it() {
    let mut s = store_with(&[("i", true)]);
    assert!(!sending(&s, "i"));
    let (v0, r0) = (s.version(), s.task("t").expect("t").revision);
    assert_eq!(s.begin_answer(RequestKind::Input, "i"), Ok(()));
    assert!(sending(&s, "i"));
    // The flip is a visible change: the task's revision and the version move.
    assert!(s.version() > v0);
    assert!(s.task("t").expect("t").revision > r0);
    // Still pending for the user (open), with sending set; a second answer is refused.
    assert_eq!(pending(&s), vec!["i"]);
    assert_eq!(
        s.begin_answer(RequestKind::Input, "i"),
        Err(AnswerRefusal::Sending)
    );
    apply(&mut s, &received("i"));
    let r = s.input("i").expect("input");
    assert_eq!((r.state, r.sending), (RequestState::Answered, false));
    assert!(pending(&s).is_empty());
    assert_eq!(
        s.begin_answer(RequestKind::Input, "i"),
        Err(AnswerRefusal::Answered)
    );
}

#[test]
fn a_failed_answer_is_open_again_and_may_be_retried() {
    let mut s = store_with(&[("i", true)]);
    s.begin_answer(RequestKind::Input, "i").expect("open");
    let v = s.version();
    s.answer_failed(RequestKind::Input, "i");
    assert!(s.version() > v, "clearing sending is a visible change");
    let r = s.input("i").expect("input");
    assert_eq!((r.state, r.sending), (RequestState::Open, false));
    assert_eq!(s.begin_answer(RequestKind::Input, "i"), Ok(()));
    // A failure reported for a request that is not sending changes nothing.
    s.answer_failed(RequestKind::Input, "i");
    let v = s.version();
    s.answer_failed(RequestKind::Input, "i");
    assert_eq!(s.version(), v);
}

#[test]
fn unknown_and_expired_requests_are_refused_and_expiry_clears_sending() {
    let mut s = store_with(&[("i", true), ("j", true)]);
    assert_eq!(
        s.begin_answer(RequestKind::Input, "nope"),
        Err(AnswerRefusal::Unknown)
    );
    assert_eq!(
        s.begin_answer(RequestKind::Auth, "i"),
        Err(AnswerRefusal::Unknown)
    );
    s.begin_answer(RequestKind::Input, "j").expect("open");
    // 60 s timeout from 10:00:01.
    s.advance_clock(1_762_423_300_000);
    for id in ["i", "j"] {
        let r = s.input(id).expect("input");
        assert_eq!((r.state, r.sending), (RequestState::Expired, false), "{id}");
    }
    assert_eq!(
        s.begin_answer(RequestKind::Input, "i"),
        Err(AnswerRefusal::Expired)
    );
}

#[test]
fn auth_requests_have_sending_too() {
    let mut s = Store::new(Limits::default());
    apply(&mut s, TASK);
    apply(
        &mut s,
        r#"{"kind":"auth-required","contextId":"c","taskId":"t","authId":"a","authType":"oauth2","prompt":"sign in","timestamp":"2025-11-06T10:00:01Z"}"#,
    );
    assert_eq!(s.begin_answer(RequestKind::Auth, "a"), Ok(()));
    assert!(s.auth("a").expect("auth").sending);
    apply(
        &mut s,
        r#"{"kind":"auth-completed","contextId":"c","taskId":"t","authId":"a","userId":"u","timestamp":"2025-11-06T10:00:02Z"}"#,
    );
    let a = s.auth("a").expect("auth");
    assert_eq!((a.state, a.sending), (RequestState::Answered, false));
}

#[test]
fn the_task_ending_clears_sending() {
    let mut s = store_with(&[("i", true)]);
    s.begin_answer(RequestKind::Input, "i").expect("open");
    apply(
        &mut s,
        r#"{"kind":"task-status","contextId":"c","taskId":"t","status":"failed","reason":"boom","timestamp":"2025-11-06T10:00:03Z"}"#,
    );
    let r = s.input("i").expect("input");
    assert_eq!((r.state, r.sending), (RequestState::Expired, false));
}

#[test]
fn coordinator_requests_are_for_the_user_only_without_a_coordinator_or_once_declined() {
    // No coordinator: every open request is the user's.
    let s = store_with(&[("sub", false), ("mine", true)]);
    assert_eq!(
        s.input("sub").map(|i| i.routing),
        Some(Routing::Coordinator)
    );
    assert_eq!(pending(&s), vec!["sub", "mine"]);

    // A coordinator configured before the stream: its request is never listed while it may
    // still answer it, from the event that made it on.
    let mut s = Store::new(Limits::default());
    s.set_coordinator(true);
    apply(&mut s, TASK);
    apply(&mut s, &input("sub", false));
    assert!(pending(&s).is_empty());
    apply(&mut s, &input("mine", true));
    assert_eq!(pending(&s), vec!["mine"]);
    // It declines: the request is the user's now (a visible change).
    let v = s.version();
    s.coordinator_declined("sub");
    assert!(s.version() > v);
    assert_eq!(pending(&s), vec!["sub", "mine"]);
    // Declining twice (or an unknown id) changes nothing.
    let v = s.version();
    s.coordinator_declined("sub");
    s.coordinator_declined("nope");
    assert_eq!(s.version(), v);
}

#[test]
fn a_coordinator_answer_is_never_listed_for_the_user() {
    let mut s = Store::new(Limits::default());
    s.set_coordinator(true);
    apply(&mut s, TASK);
    apply(&mut s, &input("sub", false));
    s.begin_answer(RequestKind::Input, "sub").expect("open");
    assert!(pending(&s).is_empty());
    apply(&mut s, &received("sub"));
    assert!(pending(&s).is_empty());
    assert_eq!(
        s.input("sub").map(|i| (i.state, i.sending)),
        Some((RequestState::Answered, false))
    );
}
