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

fn feed_frames(s: &mut Session, frames: &[&str]) {
    for f in frames {
        s.feed_frame(f, &mut |_, _, _| {});
    }
}

/// A MyAgent turn with a plan of two tasks, the solver on the first, and a tool call running.
const MYAGENT_BUSY_TURN: &[&str] = &[
    r#"{"session_id":"s1","event":"agent.session_created","content":{"session_id":"s1"},"seq":1}"#,
    r#"{"session_id":"s1","step_id":"plan_1","event":"plan.start","content":{"question":"Summarise Q4"},"seq":2}"#,
    r#"{"session_id":"s1","step_id":"plan_1","event":"plan.completed","content":{"tasks":[{"id":"t1","title":"Fetch"},{"id":"t2","title":"Summarise"}]},"metadata":{"plan_summary":"two steps"},"seq":3}"#,
    r#"{"session_id":"s1","step_id":"solver_1","event":"solver.start","metadata":{"task_count":2},"seq":4}"#,
    r#"{"session_id":"s1","step_id":"solver_1","event":"solver.progress","content":{"current_task":"Fetch"},"metadata":{"progress_percent":10,"completed_steps":0,"total_steps":2,"current_step":1},"seq":5}"#,
    r#"{"session_id":"s1","event":"agent.tool_call","content":{"tool_name":"sql","arguments":{}},"metadata":{"call_id":"call_1"},"seq":6}"#,
];

/// Every task and tool of the state that is still working / running.
fn still_running(s: &Session) -> Vec<String> {
    let st = state(s);
    let mut left = Vec::new();
    for t in st["tasks"].as_array().expect("tasks") {
        let status = t["status"].as_str().unwrap_or("none");
        if !matches!(status, "completed" | "failed" | "canceled") {
            left.push(format!("task {} {status}", t["id"]));
        }
        for tool in t["tools"].as_array().into_iter().flatten() {
            if tool["state"] == "running" {
                left.push(format!("tool {}", tool["id"]));
            }
        }
    }
    left
}

#[test]
fn myagent_failed_turn_ends_its_plan_tasks_solver_and_tools() {
    let mut s = session(Dialect::MyAgent);
    feed_frames(&mut s, MYAGENT_BUSY_TURN);
    assert!(
        still_running(&s).len() >= 4,
        "the turn, a plan task, the solver and the tool run: {:?}",
        still_running(&s)
    );
    feed_frames(
        &mut s,
        &[
            r#"{"session_id":"s1","step_id":"solver_1","event":"error.execution","content":"Sandbox crashed","metadata":{"error_code":"ERR_EXECUTION_600","recoverable":false},"seq":7}"#,
        ],
    );
    assert_eq!(
        still_running(&s),
        Vec::<String>::new(),
        "left working after the turn failed"
    );
    let st = state(&s);
    let task = |id: &str| {
        st["tasks"]
            .as_array()
            .and_then(|ts| ts.iter().find(|t| t["id"] == id))
            .unwrap_or_else(|| panic!("no task {id}"))
            .clone()
    };
    assert_eq!(task("s1/turn-1")["status"], "failed");
    // The plan itself had completed; its tasks had not.
    assert_eq!(task("plan:plan_1")["status"], "completed");
    for t in ["plan:plan_1/t1", "plan:plan_1/t2"] {
        assert_eq!(task(t)["status"], "failed", "{t}");
    }
    let tools = task("s1/turn-1")["tools"].clone();
    for tool in tools.as_array().expect("tools") {
        assert_eq!(tool["state"], "failed", "{tool}");
    }
    // Nothing the store refused: each ending applied before the turn's own status.
    let diags: Vec<_> = st["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] != "agent-error")
        .collect();
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn myagent_session_end_cancels_a_running_plan_and_solver_after_user_cancel() {
    let mut s = session(Dialect::MyAgent);
    feed_frames(&mut s, &MYAGENT_BUSY_TURN[..2]); // the plan started, not completed
    feed_frames(
        &mut s,
        &[
            r#"{"session_id":"s1","step_id":"solver_1","event":"solver.start","metadata":{"task_count":2},"seq":3}"#,
        ],
    );
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    dec.myagent().expect("myagent").note_cancel();
    feed_frames(
        &mut s,
        &[
            r#"{"session_id":"s1","event":"agent.session_ended","content":{"session_id":"s1"},"seq":4}"#,
        ],
    );
    assert_eq!(
        still_running(&s),
        Vec::<String>::new(),
        "left working after the session ended"
    );
    let st = state(&s);
    let statuses: Vec<_> = st["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .map(|t| {
            format!(
                "{} {}",
                t["id"].as_str().unwrap_or(""),
                t["status"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(statuses, ["s1/turn-1 canceled", "plan:plan_1 canceled"]);
}

/// A task that ends leaves nothing going under it, in protocol 000 too: its running tools end
/// `canceled`, its working sub-tasks (down the tree) end `canceled`, each with a `left-open`
/// warning; a `tool-complete` the server sends after the end still applies.
#[test]
fn a_task_that_ends_ends_its_running_tools_and_sub_tasks() {
    let mut s = session(Dialect::Canonical);
    let ev = |kind: &str, task: &str, rest: &str| {
        format!(
            r#"{{"kind":"{kind}","contextId":"c","taskId":"{task}","timestamp":"2025-01-01T00:00:0{}Z"{rest}}}"#,
            rest.len() % 10
        )
    };
    let events = [
        ev("task-created", "root", r#","initiator":"user""#),
        ev("task-status", "root", r#","status":"working""#),
        ev(
            "task-created",
            "child",
            r#","parentTaskId":"root","initiator":"agent""#,
        ),
        ev(
            "task-created",
            "grandchild",
            r#","parentTaskId":"child","initiator":"agent""#,
        ),
        ev("task-status", "grandchild", r#","status":"working""#),
        ev(
            "tool-start",
            "root",
            r#","toolCallId":"a","toolName":"search","arguments":{}"#,
        ),
        ev(
            "tool-start",
            "grandchild",
            r#","toolCallId":"b","toolName":"fetch","arguments":{}"#,
        ),
        ev("task-complete", "root", r#","content":"done""#),
        ev(
            "tool-complete",
            "root",
            r#","toolCallId":"a","toolName":"search","success":true,"result":1"#,
        ),
    ];
    let refs: Vec<&str> = events.iter().map(String::as_str).collect();
    feed_sse(&mut s, &refs);
    let st = state(&s);
    let task = |id: &str| {
        st["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id)
            .cloned()
            .unwrap()
    };
    assert_eq!(task("root")["status"], "completed");
    assert_eq!(task("child")["status"], "canceled");
    assert_eq!(task("grandchild")["status"], "canceled");
    assert_eq!(task("grandchild")["tools"][0]["state"], "canceled");
    // The server's own completion, after the task's end, is the tool's last word.
    assert_eq!(task("root")["tools"][0]["state"], "succeeded");
    let left_open = st["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "left-open")
        .count();
    assert_eq!(left_open, 4, "{:#?}", st["diagnostics"]);
}
