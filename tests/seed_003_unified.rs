//! Seed 003 (Unified Agent Event Schema): every JSON example of the document, fed verbatim
//! (`tests/dialects/unified/examples/`, see its README), read without loss (issue 25, item 1),
//! and the order rules (item 9).
//!
//! The document contradicts itself: its "Root Event Structure" says every event has
//! `event_id`, `session_id`, `timestamp`, yet its 22 type examples are `{type, payload}` only.
//! Choice (also in `src/dialects/unified/mod.rs`): the examples are read as they are, with a
//! `missing-field` warning for `event_id` and `timestamp` (the time received is used); each is
//! also fed inside the root structure (the root example's members, an `event_id` of its own)
//! where the event id must be kept.

#![cfg(not(target_arch = "wasm32"))]

#[path = "seed_examples/mod.rs"]
mod seed;

use agentwire::dialects::Dialect;
use seed::{assert_nothing_lost, json, text, Fed, Run, RECEIVED};
use serde_json::{json, Value};

const D: &str = "unified";

/// The session id is the context and the root task's id.
const SESSION: &[(&str, &[&str])] = &[("session_id", &["contextId", "taskId"])];

fn run() -> Run {
    Run::new(Dialect::Unified, false)
}

/// The example inside the document's root structure, with an event id of its own and a time
/// of its own (the root example's, plus the example's number in seconds).
fn rooted(file: &str) -> Value {
    let root = json(&text(D, "01-root-event-structure.json"));
    let ex = json(&text(D, file));
    let mut v = root.clone();
    v["event_id"] = json!(format!("evt-{}", &file[..2]));
    v["timestamp"] = json!(format!("2024-01-01T12:00:{}Z", &file[..2]));
    v["session_id"] = json!("abc");
    v["type"] = ex["type"].clone();
    v["payload"] = ex["payload"].clone();
    v
}

/// The events that come before an example in a run (what it refers to).
fn context(file: &str) -> &'static [&'static str] {
    match file {
        "05-agent_message_delta.json" | "06-agent_message_end.json" => {
            &["02-session_started.json", "04-agent_message_start.json"]
        }
        "08-tool_call_delta.json" | "09-tool_call_result.json" => {
            &["02-session_started.json", "07-tool_call_started.json"]
        }
        "11-workflow_step_started.json"
        | "12-workflow_step_completed.json"
        | "13-workflow_transition.json"
        | "14-workflow_completed.json" => &["02-session_started.json", "10-workflow_started.json"],
        "20-retrieval_result.json" => &["02-session_started.json", "19-retrieval_started.json"],
        "22-automation_completed.json" => {
            &["02-session_started.json", "21-automation_triggered.json"]
        }
        "02-session_started.json" => &[],
        _ => &["02-session_started.json"],
    }
}

/// Feeds the example verbatim into a fresh session (after its context, verbatim too).
fn verbatim(file: &str) -> (Value, Fed) {
    let mut r = run();
    for c in context(file) {
        r.text(&text(D, c));
    }
    let t = text(D, file);
    (json(&t), r.text(&t))
}

/// Feeds the example in the root structure (after its context, rooted too).
fn in_root(file: &str) -> (Value, Fed) {
    let mut r = run();
    for c in context(file) {
        r.value(&rooted(c));
    }
    let v = rooted(file);
    let f = r.value(&v);
    (v, f)
}

#[test]
fn every_example_is_read_without_loss_verbatim_and_in_the_root_structure() {
    let files = seed::files(D);
    assert_eq!(files.len(), 23, "{files:?}");
    for file in files.iter().skip(1) {
        let (v, f) = verbatim(file);
        assert_nothing_lost(file, &v, &f, SESSION);
        // Read as written: the missing root members are warned about, nothing is refused.
        assert!(
            f.diags.iter().all(|d| d["severity"] == "warning"),
            "{file}: {:?}",
            f.codes()
        );
        let (v, f) = in_root(file);
        assert_nothing_lost(file, &v, &f, SESSION);
        // In the root structure nothing is missing (run_error reports the agent's error).
        let expected: Vec<String> = match file.as_str() {
            "16-run_error.json" => vec!["agent-error/warning".to_owned()],
            _ => vec![],
        };
        assert_eq!(f.codes(), expected, "{file}");
    }
}

/// Issue 25: `event_id` was kept for some types, not for `agent_message_start` / `_delta`,
/// `workflow_started` or debug thoughts. Every type keeps it now.
#[test]
fn every_event_type_keeps_its_event_id() {
    for file in seed::files(D).iter().skip(1) {
        let (_, f) = in_root(file);
        let id = format!("evt-{}", &file[..2]);
        let out = serde_json::to_string(&f.events).expect("json");
        assert!(
            out.contains(&format!("\"{id}\"")),
            "{file}: {id} in none of {out}"
        );
    }
}

#[test]
fn the_root_structure_example() {
    // `"type": "string"`, an empty payload: an unknown type, kept whole.
    let t = text(D, "01-root-event-structure.json");
    let v = json(&t);
    let f = run().text(&t);
    assert_nothing_lost("root", &v, &f, &[]);
    let u = f
        .events
        .iter()
        .find(|e| e["kind"] == "unknown")
        .expect("unknown event");
    assert_eq!(u["unknownKind"], "unified:string");
    assert_eq!(u["data"]["event_id"], "uuid");
    assert_eq!(f.task("string")["createdAt"], "2024-01-01T12:00:00Z");
}

#[test]
fn session_events() {
    let (_, f) = verbatim("02-session_started.json");
    assert_eq!(f.task("abc")["status"], "working");
    let c = f.event("task-created");
    assert_eq!(c["metadata"]["agentId"], "infrastructure_monitor");
    assert_eq!(
        c["metadata"]["unified"]["metadata"]["workflow"],
        "infra_monitoring"
    );
    // No timestamp in the example: the time received.
    assert_eq!(c["timestamp"], RECEIVED);
    let (_, f) = verbatim("03-session_ended.json");
    let s = f.event("task-status");
    assert_eq!(s["status"], "completed");
    assert_eq!(s["message"], "Infrastructure monitor finished health scan.");
    assert_eq!(s["metadata"]["reason"], "completed");
}

#[test]
fn agent_message_events() {
    let (_, f) = in_root("06-agent_message_end.json");
    let t = f.task("msg:m1");
    assert_eq!(t["status"], "completed");
    assert_eq!(t["content"], "Code review completed.");
    assert_eq!(t["parentId"], "abc");
    let (_, f) = in_root("04-agent_message_start.json");
    let s = f.event("task-status");
    assert_eq!(s["metadata"]["agentId"], "code_reviewer");
    assert_eq!(s["metadata"]["unified"]["eventId"], "evt-04");
    let (_, f) = in_root("05-agent_message_delta.json");
    let d = f.event("content-delta");
    assert_eq!(d["delta"], "Analyzing code...");
    assert_eq!(d["metadata"]["unified"]["eventId"], "evt-05");
}

#[test]
fn tool_events() {
    let (_, f) = in_root("09-tool_call_result.json");
    let t = f.tool("abc", "tc_001");
    assert_eq!(t["state"], "succeeded");
    assert_eq!(t["name"], "docker_list_containers");
    assert_eq!(t["arguments"]["status"], "running");
    assert_eq!(t["result"][0]["name"], "supabase-db");
    let (_, f) = in_root("08-tool_call_delta.json");
    assert_eq!(f.event("tool-progress")["message"], "checking Docker...");
}

#[test]
fn workflow_events() {
    let (_, f) = in_root("10-workflow_started.json");
    let s = f.event("task-status");
    assert_eq!(s["taskId"], "run:run_001");
    assert_eq!(s["metadata"]["unified"]["eventId"], "evt-10");
    let (_, f) = in_root("12-workflow_step_completed.json");
    let c = f.event("task-complete");
    assert_eq!(c["taskId"], "step:run_001/step_static_analysis");
    assert_eq!(c["metadata"]["unified"]["output"]["score"], 82);
    let (_, f) = in_root("13-workflow_transition.json");
    assert_eq!(
        f.event("task-status")["message"],
        "static_analysis → security_scan (static_analysis_complete)"
    );
    let (_, f) = in_root("14-workflow_completed.json");
    assert_eq!(f.task("run:run_001")["status"], "completed");
    assert_eq!(
        f.task("run:run_001")["content"],
        "Code review finished successfully."
    );
}

#[test]
fn debug_thought_is_an_internal_event_carrying_the_whole_event() {
    let (_, f) = in_root("15-agent_thought.json");
    let u = f
        .events
        .iter()
        .find(|e| e["kind"] == "unknown")
        .expect("unknown");
    assert_eq!(u["unknownKind"], "internal:unified:agent_thought");
    assert_eq!(u["data"]["event_id"], "evt-15");
    assert_eq!(
        u["data"]["payload"]["content"],
        "Evaluating code smell patterns..."
    );
}

#[test]
fn errors_retries_and_interrupts() {
    let (_, f) = in_root("16-run_error.json");
    assert_eq!(f.codes(), vec!["agent-error/warning".to_owned()]);
    let (_, f) = in_root("17-run_retry.json");
    assert_eq!(
        f.event("task-status")["message"],
        "retry 1 of 3: temporary network issue"
    );
    let (_, f) = in_root("18-run_interrupted.json");
    assert_eq!(f.task("abc")["status"], "canceled");
}

#[test]
fn retrieval_automation_and_metrics() {
    let (_, f) = in_root("20-retrieval_result.json");
    let t = &f.task("abc")["tools"][0];
    assert_eq!(t["name"], "retrieval");
    assert_eq!(
        t["arguments"]["query"],
        "how to fix postgres connection error"
    );
    assert_eq!(t["result"]["documents"][0]["score"], 0.92);
    assert_eq!(t["state"], "succeeded");
    let (_, f) = in_root("22-automation_completed.json");
    let t = &f.task("abc")["tools"][0];
    assert_eq!(t["name"], "SendSlackAlert");
    assert_eq!(t["arguments"]["trigger"], "disk_space_low");
    assert_eq!(t["result"], "Notification sent.");
    let (_, f) = in_root("23-metrics_update.json");
    let a = f.artifact("abc#metrics");
    assert_eq!(a["data"]["containers_running"], 5);
}

/// Order rule (issue 25 item 9): a start after its own end was dropped silently. It is an
/// `out-of-order` error (not applied: the message stays complete).
#[test]
fn a_message_start_after_its_end_is_refused_with_a_diagnostic() {
    let mut r = run();
    for f in [
        "02-session_started.json",
        "04-agent_message_start.json",
        "06-agent_message_end.json",
    ] {
        r.value(&rooted(f));
    }
    let mut again = rooted("04-agent_message_start.json");
    again["event_id"] = json!("evt-04-again");
    let f = r.value(&again);
    assert!(f.events.is_empty(), "{:?}", f.kinds());
    assert_eq!(f.codes(), vec!["out-of-order/error".to_owned()]);
    assert_eq!(f.task("msg:m1")["status"], "completed");
    // A start after the message's first delta (which opened it) is applied late, with a
    // warning: its agent and event id reach the message.
    let mut r = run();
    r.value(&rooted("02-session_started.json"));
    r.value(&rooted("05-agent_message_delta.json"));
    let f = r.value(&rooted("04-agent_message_start.json"));
    assert_eq!(f.codes(), vec!["out-of-order/warning".to_owned()]);
    assert_eq!(
        f.event("task-status")["metadata"]["agentId"],
        "code_reviewer"
    );
    // A workflow started again after it completed: refused too.
    let mut r = run();
    for f in [
        "02-session_started.json",
        "10-workflow_started.json",
        "14-workflow_completed.json",
    ] {
        r.value(&rooted(f));
    }
    let mut again = rooted("10-workflow_started.json");
    again["event_id"] = json!("evt-10-again");
    let f = r.value(&again);
    assert!(f.events.is_empty(), "{:?}", f.kinds());
    assert_eq!(f.codes(), vec!["out-of-order/error".to_owned()]);
    assert_eq!(f.task("run:run_001")["status"], "completed");
}

/// Order rule: a message started after `session_ended` opened a new working sub-task with no
/// diagnostic. Nothing is applied to an ended session but a new `session_started`.
#[test]
fn content_after_the_session_ended_is_refused_with_a_diagnostic() {
    let mut r = run();
    r.value(&rooted("02-session_started.json"));
    r.value(&rooted("03-session_ended.json"));
    let f = r.value(&rooted("04-agent_message_start.json"));
    assert!(f.events.is_empty(), "{:?}", f.kinds());
    assert_eq!(f.codes(), vec!["out-of-order/error".to_owned()]);
    let tasks = f.state["tasks"].as_array().expect("tasks");
    assert!(
        tasks.iter().all(|t| t["status"] != "working"),
        "nothing works in an ended session: {tasks:#?}"
    );
    // The document's own order (session_ended is its second example) shows the rule: fed in
    // document order, everything after session_ended is refused, each with a diagnostic.
    let mut r = run();
    let mut refused = 0;
    for file in seed::files(D).iter().skip(1) {
        let f = r.text(&text(D, file));
        if file.as_str() >= "04" {
            assert!(f.events.is_empty(), "{file}: {:?}", f.kinds());
            assert!(
                f.codes().contains(&"out-of-order/error".to_owned()),
                "{file}"
            );
            refused += 1;
        }
    }
    assert_eq!(refused, 20);
    // A second session_started does not reopen it (the session's task is terminal).
    let mut r = run();
    r.value(&rooted("02-session_started.json"));
    r.value(&rooted("03-session_ended.json"));
    let mut again = rooted("02-session_started.json");
    again["event_id"] = json!("evt-02-again");
    let f = r.value(&again);
    assert!(f.events.is_empty(), "{:?}", f.kinds());
    assert_eq!(f.codes(), vec!["out-of-order/error".to_owned()]);
    assert_eq!(f.task("abc")["status"], "completed");
}
