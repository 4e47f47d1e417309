//! MyAgent against a hostile server (issue 25, item 7), where the core decides: frames of
//! another session, a session the server forgot, tool events out of order or lost.

#![cfg(not(target_arch = "wasm32"))]

use agentwire::dialects::{respond, Dialect, DialectChoice};
use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::Limits;

fn session() -> Session {
    Session::with_dialect(
        SseConfig::default(),
        Limits::default(),
        DialectChoice::Fixed(Dialect::MyAgent),
    )
}

fn feed(s: &mut Session, frames: &[&str]) {
    for f in frames {
        s.feed_frame(f, &mut |_, _, _| {});
    }
}

fn state(s: &Session) -> serde_json::Value {
    serde_json::from_str(&s.store().state_json()).expect("state json")
}

fn task(st: &serde_json::Value, id: &str) -> serde_json::Value {
    st["tasks"]
        .as_array()
        .and_then(|ts| ts.iter().find(|t| t["id"] == id))
        .unwrap_or_else(|| panic!("no task {id}: {st}"))
        .clone()
}

fn codes(st: &serde_json::Value) -> Vec<String> {
    st["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn frames_of_another_session_are_ignored_and_keep_their_own_seq_window() {
    let mut s = session();
    feed(
        &mut s,
        &[
            r#"{"session_id":"s1","event":"agent.session_created","content":{"session_id":"s1"}}"#,
            r#"{"session_id":"s1","event":"agent.thinking","content":"mine","seq":1}"#,
            // Another session's frames, with seq numbers this session is about to use.
            r#"{"session_id":"evil","event":"agent.tool_call","content":{"tool_name":"rm_rf","arguments":{}},"metadata":{"call_id":"x"},"seq":2}"#,
            r#"{"session_id":"evil","event":"agent.final_answer","content":{"answer":"not yours"},"seq":3}"#,
            r#"{"session_id":"evil","event":"agent.session_created","content":{"session_id":"evil"}}"#,
        ],
    );
    {
        let (dec, _) = s.dialect_parts().expect("dialect");
        let m = dec.myagent().expect("myagent");
        assert_eq!(m.session_id(), Some("s1"), "the client's session stays");
        assert_eq!(
            m.last_seq(),
            Some(1),
            "another session's seq is not counted"
        );
        let body = respond::resume(dec).expect("reconnect").body;
        assert!(body.contains(r#""session_id":"s1""#), "{body}");
        assert!(body.contains(r#""last_seq":1"#), "{body}");
    }
    feed(
        &mut s,
        &[
            // The user's real tool call and answer with the seq the other session used.
            r#"{"session_id":"s1","event":"agent.tool_call","content":{"tool_name":"search","arguments":{"q":"a"}},"metadata":{"call_id":"c1"},"seq":2}"#,
            r#"{"session_id":"s1","event":"agent.tool_result","content":{"status":"success","result":"ok"},"metadata":{"call_id":"c1"},"seq":3}"#,
            r#"{"session_id":"s1","event":"agent.final_answer","content":{"answer":"mine"},"seq":4}"#,
        ],
    );
    let st = state(&s);
    let turn = task(&st, "s1/turn-1");
    assert_eq!(turn["status"], "completed");
    assert!(turn.to_string().contains("mine"), "{turn}");
    let tasks = st["tasks"].to_string();
    assert!(!tasks.contains("rm_rf"), "another session's tool: {tasks}");
    assert!(!tasks.contains("not yours"), "{tasks}");
    let tools = turn["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 1, "{tools:?}");
    assert_eq!(tools[0]["name"], "search");
    let mismatch = codes(&st)
        .iter()
        .filter(|c| *c == "session-mismatch")
        .count();
    assert_eq!(mismatch, 3, "{:?}", codes(&st));
    assert!(!codes(&st).contains(&"duplicate-event".to_owned()));
    let (dec, _) = s.dialect_parts().expect("dialect");
    let m = dec.myagent().expect("myagent");
    assert_eq!(m.last_seq(), Some(4));
    // Once the turn ended, a new session the server announces is adopted with a window of its
    // own (its seq 1 is not a replay of s1's seq 1).
    feed(
        &mut s,
        &[
            r#"{"session_id":"s2","event":"agent.session_created","content":{"session_id":"s2"}}"#,
            r#"{"session_id":"s2","event":"agent.thinking","content":"new","seq":1}"#,
        ],
    );
    let (dec, _) = s.dialect_parts().expect("dialect");
    let m = dec.myagent().expect("myagent");
    assert_eq!(m.session_id(), Some("s2"));
    assert_eq!(m.last_seq(), Some(1));
    let st = state(&s);
    assert_eq!(task(&st, "s2/turn-2")["status"], "working");
}

#[test]
fn a_session_the_server_forgot_fails_the_turn_and_is_not_adopted() {
    let mut s = session();
    feed(
        &mut s,
        &[
            r#"{"session_id":"s1","event":"agent.session_created","content":{"session_id":"s1"}}"#,
            r#"{"session_id":"s1","event":"agent.tool_call","content":{"tool_name":"search","arguments":{}},"metadata":{"call_id":"c1"},"seq":1}"#,
            // A new connection: a fresh server session, then the reconnect goes out.
            r#"{"session_id":"fresh","connection_id":"c2","event":"system.connected","content":{}}"#,
        ],
    );
    {
        let (dec, _) = s.dialect_parts().expect("dialect");
        respond::resume(dec).expect("reconnect");
    }
    feed(
        &mut s,
        &[
            r#"{"session_id":"fresh","event":"system.error","content":"no session \"s1\"","metadata":{"error_code":"ERR_SESSION_NOT_FOUND","severity":"warning"}}"#,
            r#"{"session_id":"fresh","event":"agent.session_created","content":{"session_id":"fresh"}}"#,
            r#"{"session_id":"fresh","event":"agent.final_answer","content":{"answer":"someone else's"},"seq":1}"#,
        ],
    );
    let st = state(&s);
    let turn = task(&st, "s1/turn-1");
    assert_eq!(turn["status"], "failed", "{turn}");
    assert!(
        turn.to_string().contains("no longer knows session"),
        "the reason says why: {turn}"
    );
    for tool in turn["tools"].as_array().expect("tools") {
        assert_ne!(tool["state"], "running", "{tool}");
    }
    assert!(!turn.to_string().contains("someone else's"), "{turn}");
    let (dec, _) = s.dialect_parts().expect("dialect");
    let m = dec.myagent().expect("myagent");
    assert!(m.session_lost().is_some_and(|r| r.contains("s1")));
}

#[test]
fn a_tool_result_before_its_call_keeps_the_calls_name_and_arguments() {
    let mut s = session();
    feed(
        &mut s,
        &[
            r#"{"session_id":"s1","event":"agent.thinking","content":"go","seq":1}"#,
            r#"{"session_id":"s1","event":"agent.tool_result","content":{"status":"success","result":"42 rows"},"metadata":{"call_id":"c1","execution_time_ms":12},"seq":3}"#,
            r#"{"session_id":"s1","event":"agent.tool_call","content":{"tool_name":"sql","arguments":{"query":"select 1"}},"metadata":{"call_id":"c1"},"seq":2}"#,
        ],
    );
    let st = state(&s);
    let turn = task(&st, "s1/turn-1");
    let tools = turn["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 1, "{tools:?}");
    assert_eq!(tools[0]["name"], "sql", "{}", tools[0]);
    assert_eq!(tools[0]["arguments"]["query"], "select 1", "{}", tools[0]);
    assert_eq!(tools[0]["state"], "succeeded", "{}", tools[0]);
    assert_eq!(tools[0]["result"], "42 rows", "{}", tools[0]);
    // The turn that fails later does not take the finished call for a running one.
    feed(
        &mut s,
        &[
            r#"{"session_id":"s1","event":"error.execution","content":"boom","metadata":{"error_code":"E","recoverable":false},"seq":4}"#,
        ],
    );
    let st = state(&s);
    let turn = task(&st, "s1/turn-1");
    assert_eq!(turn["status"], "failed");
    assert_eq!(turn["tools"][0]["state"], "succeeded", "{turn}");
    assert!(
        !codes(&st).contains(&"tool-already-finished".to_owned()),
        "{:?}",
        codes(&st)
    );
}

#[test]
fn a_lost_tool_result_does_not_leave_the_tool_running_in_a_completed_turn() {
    let mut s = session();
    feed(
        &mut s,
        &[
            r#"{"session_id":"s1","event":"agent.tool_call","content":{"tool_name":"sql","arguments":{}},"metadata":{"call_id":"c1"},"seq":1}"#,
            // seq 2, the tool_result, never arrives.
            r#"{"session_id":"s1","event":"agent.final_answer","content":{"answer":"done"},"seq":3}"#,
        ],
    );
    let st = state(&s);
    let turn = task(&st, "s1/turn-1");
    assert_eq!(turn["status"], "completed");
    let tool = &turn["tools"][0];
    assert_eq!(tool["name"], "sql");
    assert_ne!(tool["state"], "running", "{tool}");
    assert_ne!(
        tool["state"], "succeeded",
        "nothing says it succeeded: {tool}"
    );
    let c = codes(&st);
    assert!(c.contains(&"left-open".to_owned()), "{c:?}");
    assert!(c.contains(&"sequence-gap".to_owned()), "{c:?}");
}

#[test]
fn an_oversized_final_answer_ends_the_turn_failed_saying_why() {
    use agentwire::dialects::myagent::oversized_stand_in;
    let mut s = session();
    feed(
        &mut s,
        &[
            r#"{"session_id":"s1","event":"agent.thinking","content":"go","seq":1}"#,
            r#"{"session_id":"s1","event":"agent.tool_call","content":{"tool_name":"sql","arguments":{}},"metadata":{"call_id":"c1"},"seq":2}"#,
        ],
    );
    // The answer frame as a server with sorted keys writes it: the huge member first.
    let big = format!(
        r#"{{"content":{{"answer":"{}"}},"event":"agent.final_answer","metadata":{{"total_tokens_used":9}},"seq":3,"session_id":"s1","timestamp":"2026-01-01T00:00:00Z"}}"#,
        "x".repeat(4096)
    );
    let (head, tail) = (&big[..300], &big[big.len() - 300..]);
    let limit = 1024;
    s.frame_too_large(big.len());
    let stand_in = oversized_stand_in(big.len(), limit, head, tail).expect("a final answer");
    feed(&mut s, &[&stand_in]);
    let st = state(&s);
    let turn = task(&st, "s1/turn-1");
    assert_eq!(turn["status"], "failed", "{turn}");
    assert!(
        turn.to_string().contains("larger than maxEventBytes"),
        "the reason: {turn}"
    );
    assert_ne!(turn["tools"][0]["state"], "running", "{turn}");
    let c = codes(&st);
    assert!(c.contains(&"frame-too-large".to_owned()), "{c:?}");
    assert!(!c.contains(&"sse-event-too-large".to_owned()), "{c:?}");
    // Its seq counts as received: a reconnect asks for what follows it.
    let (dec, _) = s.dialect_parts().expect("dialect");
    assert_eq!(dec.myagent().expect("myagent").last_seq(), Some(3));
    // Other oversized frames have no stand-in (the `frame-too-large` diagnostic says it).
    let partial = format!(
        r#"{{"content":"{}","event":"agent.partial_answer","seq":4,"session_id":"s1"}}"#,
        "x".repeat(4096)
    );
    assert_eq!(
        oversized_stand_in(
            partial.len(),
            limit,
            &partial[..300],
            &partial[partial.len() - 60..]
        ),
        None
    );
}
