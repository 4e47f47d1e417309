//! Seed 002 (A2A-ACP event system): every JSON example of the document, fed verbatim
//! (`tests/dialects/acp/examples/`, see its README), read without loss (issue 25, item 1), the
//! file artifact by reference (item 6). Where the document is ambiguous the choice is said here
//! and in `src/dialects/acp/`.

#![cfg(not(target_arch = "wasm32"))]

#[path = "seed_examples/mod.rs"]
mod seed;

use agentwire::dialects::Dialect;
use seed::{assert_nothing_lost, json, text, Fed, Run};
use serde_json::{json, Value};

const D: &str = "acp";

fn run() -> Run {
    Run::new(Dialect::Acp, false)
}

/// Feeds one example file verbatim into a fresh session.
fn fed(file: &str) -> (Value, Fed) {
    let t = text(D, file);
    let v = json(&t);
    let f = run().text(&t);
    (v, f)
}

/// A `status_change` `working → working` carrying development-tool metadata: the carrier of
/// the document's push example (and, by its "appears in TaskStatusUpdateEvent and push
/// notifications", of any `DevelopmentToolEvent`).
fn carried(dt: &Value) -> Value {
    json!({"event":"status_change","task_id":"task_123","timestamp":"2025-10-30T13:40:00Z",
        "data":{"old_state":"working","new_state":"working","metadata":{"development-tool":dt}}})
}

/// The same development-tool object as a push notification of its own kind (the document's
/// "New Event Types: `tool_call_update`, `thought`, `governance_event` via push configs").
fn pushed(dt: &Value) -> Value {
    let kind = dt["kind"].as_str().unwrap_or("tool_call_update");
    json!({"event":kind,"task_id":"task_123","timestamp":"2025-10-30T13:40:00Z","data":dt})
}

const WORKING: &str = r#"{"event":"status_change","task_id":"task_123","timestamp":"2024-01-15T10:29:59Z","data":{"old_state":"submitted","new_state":"working"}}"#;

#[test]
fn every_example_of_the_document_is_fed() {
    let files = seed::files(D);
    assert_eq!(
        files.len(),
        23,
        "the document has 23 JSON examples: {files:?}"
    );
}

#[test]
fn task_status_changes() {
    let (v, f) = fed("01-task-status-changes.json");
    assert_nothing_lost("status_change", &v, &f, &[]);
    let s = f.event("task-status");
    assert_eq!(s["status"], "completed");
    assert_eq!(s["message"], "Task completed successfully");
    assert_eq!(s["timestamp"], "2024-01-15T10:30:00Z");
    assert_eq!(s["metadata"]["acp"]["old_state"], "working");
    assert_eq!(f.task("task_123")["status"], "completed");
    assert!(f.diags.is_empty(), "{:?}", f.codes());
}

#[test]
fn task_messages() {
    let (v, f) = fed("02-task-messages.json");
    assert_nothing_lost("message", &v, &f, &[]);
    let d = f.event("content-delta");
    assert_eq!(d["delta"], "Analysis complete");
    assert_eq!(d["metadata"]["acp"]["message_role"], "assistant");
    assert_eq!(d["metadata"]["acp"]["message_type"], "agent_response");
    assert_eq!(f.task("task_123")["content"], "Analysis complete");
}

#[test]
fn input_required_events() {
    let (v, f) = fed("03-input-required-events.json");
    assert_nothing_lost("input_required", &v, &f, &[]);
    let r = f.event("input-required");
    assert_eq!(r["prompt"], "Please provide database credentials...");
    assert_eq!(r["inputType"], "selection");
    assert_eq!(r["options"][0]["id"], "approved");
    assert_eq!(r["options"][1]["name"], "Reject");
    assert_eq!(r["metadata"]["toolCall"]["path"], "config/secrets.env");
    let acp = &r["metadata"]["acp"];
    assert_eq!(acp["input_types"][0], "text/plain");
    assert_eq!(acp["detection_method"], "protocol_compliant");
    assert_eq!(
        acp["governor_summary"][0],
        "[security-diff-check] Needs attention: file touches secrets.env"
    );
    assert_eq!(
        acp["metadata"]["development-tool"]["tool_call"]["confirmation_request"]["details"]
            ["description"],
        "Write to secrets file?"
    );
    assert_eq!(f.task("task_123")["status"], "waiting-input");
    // The development-tool ToolCall (tc_001, pending) shows as a tool waiting for the answer.
    assert_eq!(f.tool("task_123", "tc_001")["state"], "running");
}

#[test]
fn governor_follow_up_events() {
    let (v, f) = fed("04-governor-follow-up-events.json");
    assert_nothing_lost("task_governor_followup", &v, &f, &[]);
    let t = f.event("thought-stream");
    assert_eq!(t["thoughtType"], "reflection");
    assert_eq!(
        t["content"],
        "Please include unit tests for the new API endpoint."
    );
    assert_eq!(t["metadata"]["acp"]["governor_id"], "code-reviewer");
    assert_eq!(t["metadata"]["acp"]["iteration"], 0);
}

#[test]
fn governor_feedback_required_events() {
    let (v, f) = fed("05-governor-feedback-required-events.json");
    assert_nothing_lost("task_feedback_required", &v, &f, &[]);
    let r = f.event("input-required");
    assert_eq!(r["inputType"], "confirmation");
    assert_eq!(r["prompt"], "Governor blocked final response");
    assert_eq!(
        r["metadata"]["acp"]["summary"][0],
        "[compliance-http] Reject: response references internal API keys"
    );
}

/// Issue 25 item 6: a file given by name and size, no bytes, is a file by reference: not
/// complete (0 of 1024 bytes arrived), marked `reference`, and its missing bytes are not
/// reported as a gap at the end of the stream (the bytes are not expected in the stream).
#[test]
fn artifact_events_announce_a_file_by_reference() {
    let (v, f) = fed("06-artifact-events.json");
    assert_nothing_lost("artifact", &v, &f, &[("artifact_size", &["totalSize"])]);
    let w = f.event("file-write");
    assert_eq!(w["name"], "report.pdf");
    assert_eq!(w["description"], "File created: report.pdf");
    assert_eq!(w["complete"], false, "no bytes arrived: {w}");
    assert_eq!(w["metadata"]["reference"], true);
    assert_eq!(w["metadata"]["totalSize"], 1024);
    let a = f.artifact("task_123#report.pdf");
    assert_eq!(a["type"], "file");
    assert_eq!(a["complete"], false, "{a}");
    assert_eq!(a["size"], 0);
    assert_eq!(a["totalSize"], 1024);
    let mut r = run();
    r.text(&text(D, "06-artifact-events.json"));
    r.s.finish();
    let st: Value = serde_json::from_str(&r.s.store().state_json()).expect("state");
    assert!(
        st["diagnostics"].as_array().is_none_or(Vec::is_empty),
        "a file by reference has no missing end: {st:#}"
    );
}

#[test]
fn tool_started_completed_failed() {
    let (v, f) = fed("07-tool-started.json");
    assert_nothing_lost("tool_execution started", &v, &f, &[]);
    let s = f.event("tool-start");
    assert_eq!(s["toolCallId"], "tc_001");
    assert_eq!(s["toolName"], "web_request");
    assert_eq!(s["arguments"]["url"], "https://api.example.com");
    assert_eq!(s["metadata"]["acp"]["execution_context"], "production");

    let (v, f) = fed("08-tool-completed.json");
    assert_nothing_lost("tool_execution completed", &v, &f, &[]);
    let c = f.event("tool-complete");
    assert_eq!(c["success"], true);
    assert_eq!(c["result"]["content"], "HTTP 200 OK");
    assert_eq!(c["metadata"]["duration"], 500.0);
    assert_eq!(c["metadata"]["cached"], false);
    assert_eq!(c["metadata"]["acp"]["return_code"], 0);
    assert_eq!(c["metadata"]["acp"]["output_length"], 512);

    let (v, f) = fed("09-tool-failed.json");
    assert_nothing_lost("tool_execution failed", &v, &f, &[]);
    // `will_retry: true`: the call goes on (a progress, not an end).
    let p = f.event("tool-progress");
    assert_eq!(p["toolCallId"], "tc_002");
    assert_eq!(
        p["message"],
        "attempt 2 failed: Connection timeout; retrying"
    );
    assert_eq!(p["metadata"]["acp"]["execution_time"], 5.2);
    assert_eq!(f.tool("task_123", "tc_002")["state"], "running");

    // In one session, in the document's order: started then completed is one call.
    let mut r = run();
    r.text(&text(D, "07-tool-started.json"));
    let f = r.text(&text(D, "08-tool-completed.json"));
    let t = f.tool("task_123", "tc_001");
    assert_eq!(t["state"], "succeeded");
    assert_eq!(t["name"], "web_request");
}

/// The extension-URI form: `model` and `user_tier` beside the kind are kept (issue 25). The
/// document elides the ToolCall (`"data": { ... }  // ToolCall, AgentThought, etc.`): the test
/// puts in its place the document's own id-less ToolCall of the push example.
#[test]
fn development_tool_event_metadata_types_keep_model_and_user_tier() {
    let t = text(D, "10-development-tool-event-metadata-types.json");
    let mut v = json(&t);
    let uri = agentwire::dialects::acp::DEV_TOOL_URI;
    v["metadata"][uri]["data"] =
        json!({"status":"succeeded","result":{"content":"Command output..."}});
    let carrier = json!({"event":"status_change","task_id":"task_123","timestamp":"2025-10-30T13:40:00Z",
        "data":{"old_state":"working","new_state":"working","metadata":v["metadata"].clone()}});
    let mut r = run();
    r.text(WORKING);
    let f = r.value(&carrier);
    assert_nothing_lost("extension URI metadata", &v, &f, &[]);
    let c = f.event("tool-complete");
    assert_eq!(c["metadata"]["acp"]["model"], "gemini-1.5-pro");
    assert_eq!(c["metadata"]["acp"]["user_tier"], "premium");
    assert_eq!(c["result"]["content"], "Command output...");
}

#[test]
fn tool_lifecycle_pending_executing_succeeded() {
    let files = [
        "11-tool-lifecycle-1-pending.json",
        "12-tool-lifecycle-2-executing.json",
        "13-tool-lifecycle-3-succeeded.json",
    ];
    // Each carried by a status_change (one session) and pushed as its own kind (another).
    for wrap in [carried as fn(&Value) -> Value, pushed] {
        let mut r = run();
        r.text(WORKING);
        let mut last = None;
        for file in files {
            let v = json(&text(D, file));
            let f = r.value(&wrap(&v));
            assert_nothing_lost(file, &v, &f, &[]);
            last = Some(f);
        }
        let f = last.expect("fed");
        let t = f.tool("task_123", "tc_001");
        assert_eq!(t["state"], "succeeded", "{t}");
        assert_eq!(t["name"], "database_query");
        assert_eq!(t["arguments"]["query"], "DELETE FROM users");
        assert_eq!(t["result"]["details"]["stdout"], "10 rows affected");
    }
    // The pending update's confirmation request and the executing update's live content.
    let mut r = run();
    r.text(WORKING);
    let f = r.value(&carried(&json(&text(D, files[0]))));
    let s = f.event("tool-start");
    assert_eq!(
        s["metadata"]["acp"]["confirmation_request"]["details"]["description"],
        "Dangerous SQL query detected"
    );
    let f = r.value(&carried(&json(&text(D, files[1]))));
    assert_eq!(
        f.event("tool-progress")["message"],
        "Connecting to database..."
    );
}

#[test]
fn tool_lifecycle_failed_and_cancelled() {
    for (file, err) in [
        ("14-tool-lifecycle-4-failed.json", "Connection refused"),
        (
            "15-tool-lifecycle-5-cancelled.json",
            "User cancelled confirmation",
        ),
    ] {
        let mut r = run();
        r.text(WORKING);
        r.value(&carried(&json(&text(
            D,
            "11-tool-lifecycle-1-pending.json",
        ))));
        let v = json(&text(D, file));
        let f = r.value(&carried(&v));
        assert_nothing_lost(file, &v, &f, &[]);
        let c = f.event("tool-complete");
        assert_eq!(c["success"], false);
        assert_eq!(c["error"], err);
        let t = f.tool("task_123", "tc_001");
        assert_ne!(t["state"], "succeeded");
        assert_ne!(t["state"], "running");
    }
}

#[test]
fn agent_thoughts() {
    let v = json(&text(D, "16-agent-thoughts.json"));
    for wrap in [carried as fn(&Value) -> Value, pushed] {
        let mut r = run();
        r.text(WORKING);
        let f = r.value(&wrap(&v));
        assert_nothing_lost("thought", &v, &f, &[]);
        let t = f.event("thought-stream");
        assert_eq!(
            t["content"],
            "Reviewing query for potential data loss before execution."
        );
        assert_eq!(t["metadata"]["acp"]["timestamp"], "2025-10-30T13:40:00Z");
    }
}

/// The confirmation flow: its metadata's ToolCall is elided (`{ ... }  // Full ToolCall
/// object`, read as `{}`); the `tool_call` beside it is the call (tc_001, pending).
#[test]
fn extension_confirmation_flow() {
    let t = text(D, "17-extension-1-confirmation-flow.json");
    let v = json(&t);
    let f = run().value(&v);
    assert_nothing_lost("confirmation flow", &v, &f, &[]);
    let r = f.event("input-required");
    assert_eq!(
        r["prompt"], "Execute shell command?",
        "the prompt is the confirmation's"
    );
    assert_eq!(r["options"][0]["id"], "approve");
    assert_eq!(r["options"][0]["name"], "Proceed");
    assert_eq!(f.tool("task_123", "tc_001")["state"], "running");
    assert_eq!(f.task("task_123")["status"], "waiting-input");
    // Only one tool: the elided metadata ToolCall is not a second call.
    assert_eq!(
        f.task("task_123")["tools"].as_array().map(Vec::len),
        Some(1)
    );
    // No timestamp in this example: the time received, not the epoch.
    assert_eq!(r["timestamp"], seed::RECEIVED);
}

#[test]
fn extension_governance_event() {
    let (v, f) = fed("18-extension-2-governance-event.json");
    assert_nothing_lost("governance event", &v, &f, &[]);
    let t = f.event("thought-stream");
    assert_eq!(t["content"], "Add unit tests for new endpoint");
    assert_eq!(
        t["metadata"]["acp"]["metadata"]["development-tool"]["data"]["final_decision"],
        "needs_attention"
    );
}

/// Issue 25: the push example (`working → working`, an id-less ToolCall) was dropped with no
/// event and no diagnostic; its result "Command output..." is now a tool's result.
#[test]
fn extension_push_payload_for_tool_update_is_not_dropped() {
    let (v, f) = fed("19-extension-3-push-payload-for-tool-update.json");
    assert_nothing_lost("push payload", &v, &f, &[]);
    let c = f.event("tool-complete");
    assert_eq!(c["toolCallId"], "task_123#update-1");
    assert_eq!(c["success"], true);
    assert_eq!(c["result"]["content"], "Command output...");
    assert_eq!(
        f.event("task-status")["metadata"]["acp"]["old_state"],
        "working"
    );
    assert!(
        f.codes().contains(&"missing-field/warning".to_owned()),
        "the missing tool_call_id is said: {:?}",
        f.codes()
    );
    assert_eq!(
        f.tool("task_123", "task_123#update-1")["state"],
        "succeeded"
    );

    // With the task working and a call running, the id-less update is about that call, and
    // the status_change that changed nothing is kept with it (`carrier`).
    let mut r = run();
    r.text(WORKING);
    r.text(&text(D, "07-tool-started.json"));
    let f = r.text(&text(D, "19-extension-3-push-payload-for-tool-update.json"));
    assert_nothing_lost("push payload, call running", &v, &f, &[]);
    assert_eq!(f.kinds(), vec!["tool-complete".to_owned()]);
    let c = f.event("tool-complete");
    assert_eq!(c["toolCallId"], "tc_001");
    assert_eq!(c["metadata"]["acp"]["carrier"]["old_state"], "working");
    assert_eq!(
        f.tool("task_123", "tc_001")["result"]["content"],
        "Command output..."
    );

    // The same payload as a `tool_call_update` push notification.
    let dt = v["data"]["metadata"]["development-tool"].clone();
    let f = run().value(&pushed(&dt));
    assert_nothing_lost("push tool_call_update", &dt, &f, &[]);
    assert_eq!(
        f.event("tool-complete")["result"]["content"],
        "Command output..."
    );
}

/// Issue 25: a `tool_call_confirmation` or a `state_change` carried the same way while no input
/// is open was dropped. Neither maps to a canonical event there (nothing to close; the document
/// gives no payload for `state_change`): they become unknown events carrying the notification.
#[test]
fn confirmation_and_state_change_with_no_input_open_are_kept() {
    for kind in ["tool_call_confirmation", "state_change"] {
        let dt = json!({"kind": kind, "data": {"tool_call_id": "tc_001", "note": "From input-required to working"}});
        for wrap in [carried as fn(&Value) -> Value, pushed] {
            let mut r = run();
            r.text(WORKING);
            let f = r.value(&wrap(&dt));
            assert_nothing_lost(kind, &dt, &f, &[]);
            // Carried: `acp:development-tool:<kind>`; pushed as an event kind the document
            // does not list for push (only tool_call_update, thought, governance_event): the
            // unknown event `acp:<kind>`. Either way the whole notification.
            let k = f.kinds();
            assert!(
                k == vec![format!("unknown:acp:development-tool:{kind}")]
                    || k == vec![format!("unknown:acp:{kind}")],
                "{kind}: {k:?}"
            );
        }
    }
    // With a request open, the confirmation answers it (as before).
    let mut r = run();
    r.text(&text(D, "03-input-required-events.json"));
    let f = r.value(&carried(
        &json!({"kind":"tool_call_confirmation","tool_call":{"tool_call_id":"tc_001"}}),
    ));
    assert_eq!(
        f.kinds(),
        vec!["input-received".to_owned(), "task-status".to_owned()]
    );
}

/// A subscription setting the client sends (`enabledEvents`), not an event: not applied, an
/// error names the missing `event`.
#[test]
fn push_configuration_is_not_an_event() {
    let (_, f) = fed("20-extension-3-push-configuration.json");
    assert!(f.events.is_empty());
    assert_eq!(f.codes(), vec!["missing-field/error".to_owned()]);
}

#[test]
fn authentication_and_audit_events() {
    for file in [
        "21-authentication-events.json",
        "22-authentication-events-repeated.json",
        "23-audit-events.json",
    ] {
        let (v, f) = fed(file);
        assert_nothing_lost(file, &v, &f, &[]);
        assert_eq!(f.events.len(), 1, "{file}");
        assert!(f.kinds()[0].starts_with("unknown:internal:acp:"), "{file}");
    }
    let (_, f) = fed("23-audit-events.json");
    assert_eq!(
        f.events[0]["data"]["data"]["details"]["requires_confirmation"],
        true
    );
}

/// Issue 25 item 2: the PENDING tool call with a `confirmation_request` (the document's
/// permission flow for a dangerous call) asks the user — an input request with the request's
/// options and description, answered like any A2A-ACP question
/// (`tasks/provideInputAndContinue` with the chosen option) — carried by a status change or
/// pushed as its own kind.
#[test]
fn pending_tool_call_with_a_confirmation_request_asks_the_user() {
    use agentwire::dialects::respond;
    let v = json(&text(D, "11-tool-lifecycle-1-pending.json"));
    for wrap in [carried as fn(&Value) -> Value, pushed] {
        let mut r = run();
        r.text(WORKING);
        let f = r.value(&wrap(&v));
        let asked = f.event("input-required");
        assert_eq!(asked["prompt"], "Dangerous SQL query detected", "{asked}");
        assert_eq!(asked["inputType"], "selection");
        assert_eq!(asked["options"][0]["id"], "approve");
        assert_eq!(asked["options"][0]["name"], "Allow");
        assert_eq!(asked["metadata"]["toolCall"]["tool_call_id"], "tc_001");
        assert_eq!(f.task("task_123")["status"], "waiting-input");
        let id = asked["inputId"].as_str().expect("input id").to_owned();
        let (dec, store) = r.s.dialect_parts().expect("dialect");
        let answer = agentwire::json::parse(r#""approve""#).expect("json");
        let out = respond::answer(dec, store, &id, &answer, None).expect("answer");
        assert!(
            out.body.contains("tasks/provideInputAndContinue"),
            "{}",
            out.body
        );
        assert!(
            out.body.contains(r#""permissionOptionId":"approve""#),
            "{}",
            out.body
        );
    }
}
