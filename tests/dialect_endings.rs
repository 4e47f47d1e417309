//! How dialect requests, turns and their parts end (issue 21, found against unfamiliar
//! servers): nothing is shown answered by the user when nobody answered, and nothing stays
//! `working` after the turn it belongs to ended.

#![cfg(not(target_arch = "wasm32"))]

use agentwire::dialects::{Dialect, DialectChoice};
use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::{Limits, RequestState};

fn session(d: Dialect) -> Session {
    Session::with_dialect(
        SseConfig::default(),
        Limits::default(),
        DialectChoice::Fixed(d),
    )
}

fn feed_sse(s: &mut Session, events: &[&str]) {
    let text: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
    s.feed(text.as_bytes(), &mut |_, _, _| {});
}

fn state(s: &Session) -> serde_json::Value {
    serde_json::from_str(&s.store().state_json()).expect("state json")
}

#[test]
fn acp_second_input_required_does_not_claim_the_user_answered_the_first() {
    let mut s = session(Dialect::Acp);
    let ask = |n: u32, prompt: &str| {
        format!(
            r#"{{"event":"input_required","task_id":"t1","timestamp":"2024-01-15T10:30:0{n}Z","data":{{"prompt":"{prompt}"}}}}"#
        )
    };
    let (first, second) = (ask(1, "Which region?"), ask(2, "Which quarter?"));
    feed_sse(
        &mut s,
        &[
            r#"{"event":"status_change","task_id":"t1","timestamp":"2024-01-15T10:30:00Z","data":{"new_state":"working"}}"#,
            &first,
            &second,
        ],
    );
    let a = s.store().input("t1#input-1").expect("first request");
    assert_ne!(
        (a.state, a.provided_by.map(|p| p.as_str())),
        (RequestState::Answered, Some("user")),
        "the first request is shown answered by the user, who never answered it"
    );
    assert_eq!(a.state, RequestState::Expired, "closed unanswered");
    let b = s.store().input("t1#input-2").expect("second request");
    assert_eq!(b.state, RequestState::Open);
    let st = state(&s);
    assert_eq!(st["tasks"][0]["status"], "waiting-input");
    let codes: Vec<_> = st["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert!(
        codes.is_empty(),
        "a server may move on to another question: {st}"
    );
    // The second one is answered the usual way: the task leaves input-required.
    feed_sse(
        &mut s,
        &[
            r#"{"event":"status_change","task_id":"t1","timestamp":"2024-01-15T10:30:05Z","data":{"new_state":"working"}}"#,
        ],
    );
    let b = s.store().input("t1#input-2").expect("second request");
    assert_eq!(b.state, RequestState::Answered);
    let a = s.store().input("t1#input-1").expect("first request");
    assert_eq!(a.state, RequestState::Expired, "still not answered");
}
