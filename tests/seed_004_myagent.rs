//! Seed 004 (MyAgent WebSocket payloads): every JSON example of the document, fed verbatim
//! (`tests/dialects/myagent/examples/`, see its README) as WebSocket frames, read without loss
//! (issue 25, item 1), and the plan order rule (item 9).
//!
//! Six examples are client → server messages (`user.*`): fed to the decoder (a server that
//! echoes them) they are unknown `myagent:user.*` events carrying the whole message; the
//! client's own builders (`dialects::myagent::request`) write the same JSON.

#![cfg(not(target_arch = "wasm32"))]

#[path = "seed_examples/mod.rs"]
mod seed;

use agentwire::dialects::myagent::request;
use agentwire::dialects::Dialect;
use seed::{assert_nothing_lost, json, text, Fed, Run, RECEIVED};
use serde_json::Value;

const D: &str = "myagent";

/// Fields kept under a canonical name: the session is the context, `planning_time_ms` the plan
/// task's `duration`, `llm_calls` its `iterations`.
const RENAMED: &[(&str, &[&str])] = &[
    ("session_id", &["contextId"]),
    ("planning_time_ms", &["duration"]),
    ("llm_calls", &["iterations"]),
];

fn run() -> Run {
    Run::new(Dialect::MyAgent, true)
}

fn fed(file: &str) -> (Value, Fed) {
    let t = text(D, file);
    (json(&t), run().text(&t))
}

fn parse(s: &str) -> agentwire::json::Value<'_> {
    agentwire::json::parse(s).expect("json")
}

#[test]
fn every_example_of_the_document_is_fed() {
    let files = seed::files(D);
    assert_eq!(files.len(), 10, "{files:?}");
    for file in &files {
        let (v, f) = fed(file);
        assert_nothing_lost(file, &v, &f, RENAMED);
    }
}

#[test]
fn user_events_are_what_the_client_sends() {
    let ex = |f: &str| json(&text(D, f));
    let sent = |s: String| serde_json::from_str::<Value>(&s).expect("json");
    let create = ex("01-user.create_session.json");
    assert_eq!(
        sent(request::create_session(
            Some(&parse(&create["content"].to_string())),
            Some(&parse(&create["metadata"].to_string())),
        )),
        create
    );
    let msg = ex("02-user.message.json");
    assert_eq!(
        sent(request::message(
            "sess_xyz789",
            "Create a 5-slide presentation about AI trends",
            Some("2024-10-18T14:30:00Z"),
            Some(&parse(&msg["metadata"].to_string())),
        )),
        msg
    );
    let resp = ex("03-user.response.json");
    assert_eq!(
        sent(request::response(
            "sess_xyz789",
            "confirm_001",
            &request::response_content(
                true,
                Some("Looks good, but change slide 2 color to blue"),
                None
            ),
            Some(&parse(&resp["metadata"].to_string())),
        )),
        resp
    );
    // user.ack: the client knows what it received, not the server's buffer: `buffer_size`
    // (optional in the document) is not sent.
    let mut ack = ex("04-user.ack.json");
    ack["metadata"]
        .as_object_mut()
        .expect("metadata")
        .remove("buffer_size");
    assert_eq!(sent(request::ack("sess_xyz789", 42, Some(10))), ack);
    assert_eq!(
        sent(request::cancel("sess_xyz789", Some("User changed mind"))),
        ex("05-user.cancel.json")
    );
    assert_eq!(
        sent(request::reconnect("sess_xyz789", Some(42))),
        ex("06-user.reconnect.json")
    );
    // Echoed by a server, each is an unknown event with the whole message.
    for file in &seed::files(D)[..6] {
        let (_, f) = fed(file);
        assert_eq!(f.events.len(), 1, "{file}");
        assert!(f.kinds()[0].starts_with("unknown:myagent:user."), "{file}");
    }
}

#[test]
fn plan_start() {
    let (_, f) = fed("07-plan.start.json");
    let plan = f.task("plan:plan_001");
    assert_eq!(plan["status"], "working");
    assert_eq!(plan["parentId"], "sess_xyz789/turn-1");
    let s = f
        .events
        .iter()
        .find(|e| e["kind"] == "task-status" && e["taskId"] == "plan:plan_001")
        .expect("plan status");
    assert_eq!(
        s["message"],
        "Create a 5-slide presentation about AI trends"
    );
    assert_eq!(s["metadata"]["model"], "gpt-4");
    let m = &s["metadata"]["myagent"];
    assert_eq!(m["plan_id"], "plan_abc123");
    assert_eq!(m["timeout_seconds"], 120);
    assert_eq!(
        m["content"]["context"],
        "Professional business presentation"
    );
    assert_eq!(s["timestamp"], "2024-10-18T14:30:05Z");
    assert!(f.diags.is_empty(), "{:?}", f.codes());
}

#[test]
fn plan_completed_after_plan_start() {
    let mut r = run();
    r.text(&text(D, "07-plan.start.json"));
    let t = text(D, "08-plan.completed.json");
    let f = r.text(&t);
    assert!(f.diags.is_empty(), "{:?}", f.codes());
    assert_nothing_lost("plan.completed", &json(&t), &f, RENAMED);
    let plan = f.task("plan:plan_001");
    assert_eq!(plan["status"], "completed");
    assert_eq!(
        plan["content"],
        "5-slide presentation with content generation and formatting"
    );
    let t1 = f.task("plan:plan_001/task_1");
    assert_eq!(t1["parentId"], "sess_xyz789/turn-1");
    let c = f
        .events
        .iter()
        .find(|e| e["kind"] == "subtask-created" && e["subtaskId"] == "plan:plan_001/task_2")
        .expect("task_2");
    assert_eq!(c["prompt"], "Generate content for slide 2");
    assert_eq!(
        c["metadata"]["myagent"]["description"],
        "Cover current AI trends"
    );
    let done = f.event("task-complete");
    assert_eq!(done["metadata"]["duration"], 5400.0);
    assert_eq!(done["metadata"]["iterations"], 2);
    assert_eq!(done["metadata"]["myagent"]["total_estimated_tokens"], 3200);
    assert_eq!(done["metadata"]["myagent"]["task_count"], 2);
}

/// Order rule (issue 25 item 9): `plan.completed` without `plan.start` gave no diagnostic. It
/// is an `out-of-order` warning, applied (the plan and its tasks are created then).
#[test]
fn plan_completed_without_plan_start_is_a_warning() {
    let (v, f) = fed("08-plan.completed.json");
    assert_nothing_lost("plan.completed alone", &v, &f, RENAMED);
    assert_eq!(f.codes(), vec!["out-of-order/warning".to_owned()]);
    assert_eq!(f.task("plan:plan_001")["status"], "completed");
    assert_eq!(
        f.task("plan:plan_001/task_1")["parentId"],
        "sess_xyz789/turn-1"
    );
}

#[test]
fn solver_progress() {
    let (_, f) = fed("09-solver.progress.json");
    let p = f.event("tool-progress");
    assert_eq!(p["toolName"].as_str().unwrap_or("solver"), "solver");
    assert_eq!(p["progress"], 0.4);
    assert_eq!(p["message"], "Generating slide 2 content");
    let m = &p["metadata"]["myagent"];
    assert_eq!(m["elapsed_time_ms"], 8500);
    assert_eq!(m["estimated_remaining_ms"], 12750);
    // No timestamp in the example: the time received, not the epoch.
    assert_eq!(p["timestamp"], RECEIVED);
}

#[test]
fn agent_tool_call() {
    let (_, f) = fed("10-agent.tool_call.json");
    let s = f.event("tool-start");
    assert_eq!(s["toolCallId"], "call_xyz123");
    assert_eq!(s["toolName"], "generate_text");
    assert_eq!(s["arguments"]["max_length"], 500);
    let m = &s["metadata"];
    let text = m.to_string();
    assert!(text.contains("Generate text content using LLM"), "{m}");
    assert!(text.contains("\"llm\""), "{m}");
    assert!(text.contains("3000"), "{m}");
    assert_eq!(s["timestamp"], RECEIVED);
    let t = f.tool("sess_xyz789/turn-1", "call_xyz123");
    assert_eq!(t["state"], "running");
}

/// Issue 25: `agent.partial_answer` lost `metadata.completion_percent` and `step_id` (the
/// document gives no example of it: built from its payload structure).
#[test]
fn partial_answer_keeps_its_step_and_completion_percent() {
    let mut r = run();
    let frame = r#"{"session_id":"sess_xyz789","step_id":"answer_001","event":"agent.partial_answer","timestamp":"2024-10-18T14:30:20Z","content":"Here is ","metadata":{"chunk_index":0,"completion_percent":40}}"#;
    let f = r.text(frame);
    assert_nothing_lost("partial_answer", &json(frame), &f, RENAMED);
    let d = f.event("content-delta");
    assert_eq!(d["metadata"]["myagent"]["stepId"], "answer_001");
    assert_eq!(d["metadata"]["myagent"]["completion_percent"], 40);
    assert_eq!(d["metadata"]["myagent"]["chunk_index"], 0);
}

/// The document's server examples in its order, one session: plan, solver, tool call.
#[test]
fn the_server_examples_in_document_order() {
    let mut r = run();
    let mut last = None;
    for file in &seed::files(D)[6..] {
        let f = r.text(&text(D, file));
        // The document gives no solver.start example: its solver.progress comes first.
        let expected: Vec<String> = match file.as_str() {
            "09-solver.progress.json" => vec!["out-of-order/warning".to_owned()],
            _ => vec![],
        };
        assert_eq!(f.codes(), expected, "{file}");
        last = Some(f);
    }
    let f = last.expect("fed");
    let turn = f.task("sess_xyz789/turn-1");
    assert_eq!(turn["status"], "working");
    let solver = f.tool("sess_xyz789/turn-1", "solver:solver_001");
    assert_eq!(solver["state"], "running");
    assert_eq!(solver["progress"], 0.4);
    // total_steps (5) is not the plan's 2 tasks: the plan tasks do not follow the solver.
    assert_eq!(f.task("plan:plan_001")["status"], "completed");
    assert_eq!(
        f.tool("sess_xyz789/turn-1", "call_xyz123")["state"],
        "running"
    );
}
