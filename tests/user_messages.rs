//! The conversation is in the state: the user's own messages sit in `task.messages`
//! (`role: "user"`) beside the agent's, for every protocol that has them, once, and the
//! assistant text (`task.content`) is unchanged.

#![cfg(not(target_arch = "wasm32"))]

use agentwire::dialects::{respond, Dialect, DialectChoice};
use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::{Limits, Store};
use serde_json::Value;

fn session(choice: DialectChoice) -> Session {
    let mut s = Session::with_dialect(SseConfig::default(), Limits::default(), choice);
    s.set_now_ms(Some(1_700_000_000_000));
    s
}

fn feed_sse(s: &mut Session, events: &[&str]) {
    for e in events {
        s.feed(format!("data: {e}\n\n").as_bytes(), &mut |_, _, _| {});
    }
}

fn state(store: &Store) -> Value {
    serde_json::from_str(&store.state_json()).expect("state json")
}

/// `(role, id, content)` of task `task`'s messages.
fn messages(store: &Store, task: &str) -> Vec<(String, String, String)> {
    let st = state(store);
    let t = st["tasks"]
        .as_array()
        .and_then(|ts| ts.iter().find(|t| t["id"] == task))
        .unwrap_or_else(|| panic!("no task {task}: {st}"));
    t["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| {
            let s = |k: &str| m[k].as_str().unwrap_or_default().to_owned();
            (s("role"), s("id"), s("content"))
        })
        .collect()
}

fn content(store: &Store, task: &str) -> String {
    store.task(task).expect("task").content.clone()
}

fn user(id: &str, text: &str) -> (String, String, String) {
    ("user".into(), id.into(), text.into())
}

#[test]
fn a2a_send_message_puts_the_users_text_in_the_task_it_created() {
    let mut s = session(DialectChoice::Fixed(Dialect::A2a));
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    let out = respond::send_message(dec, "Book a table", Some("ctx"), Some("m-1")).expect("send");
    assert!(out.body.contains("Book a table"));
    feed_sse(
        &mut s,
        &[
            r#"{"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"task-1","contextId":"ctx","status":{"state":"working"}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"task-1","contextId":"ctx","status":{"state":"completed","message":{"kind":"message","messageId":"a-1","role":"agent","parts":[{"kind":"text","text":"Booked."}]}},"final":true}}"#,
        ],
    );
    assert_eq!(
        messages(s.store(), "task-1"),
        vec![user("m-1", "Book a table")]
    );
    assert_eq!(content(s.store(), "task-1"), "Booked.");
    // The next message goes to the next task, not the first one again.
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    respond::send_message(dec, "For two", Some("ctx"), Some("m-2")).expect("send");
    feed_sse(
        &mut s,
        &[
            r#"{"jsonrpc":"2.0","id":2,"result":{"kind":"task","id":"task-2","contextId":"ctx","status":{"state":"working"}}}"#,
        ],
    );
    assert_eq!(messages(s.store(), "task-1").len(), 1);
    assert_eq!(messages(s.store(), "task-2"), vec![user("m-2", "For two")]);
}

#[test]
fn a2a_bare_events_of_the_new_stream_get_the_message_too() {
    // A server answering message/stream with bare events (no JSON-RPC envelope).
    let mut s = session(DialectChoice::Fixed(Dialect::A2a));
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    respond::send_message(dec, "hi", None, Some("m-1")).expect("send");
    feed_sse(
        &mut s,
        &[r#"{"kind":"task","id":"t","contextId":"c","status":{"state":"working"}}"#],
    );
    assert_eq!(messages(s.store(), "t"), vec![user("m-1", "hi")]);
}

#[test]
fn a2a_answers_are_not_user_messages() {
    let mut s = session(DialectChoice::Fixed(Dialect::A2a));
    feed_sse(
        &mut s,
        &[
            r#"{"kind":"task","id":"t","contextId":"c","status":{"state":"input-required","message":{"kind":"message","messageId":"q","role":"agent","parts":[{"kind":"text","text":"Which one?"}]}}}"#,
        ],
    );
    let input = s.store().pending_inputs().next().expect("input").id.clone();
    let (dec, store) = s.dialect_parts().expect("dialect layer");
    respond::answer(
        dec,
        store,
        &input,
        &agentwire::json::parse("\"A\"").expect("json"),
        None,
    )
    .expect("answer");
    feed_sse(
        &mut s,
        &[r#"{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"working"}}"#],
    );
    assert!(messages(s.store(), "t").is_empty());
}

#[test]
fn myagent_user_message_is_the_turns_first_message() {
    let mut s = session(DialectChoice::Fixed(Dialect::MyAgent));
    let frames = |s: &mut Session, fs: &[&str]| {
        for f in fs {
            s.feed_frame(f, &mut |_, _, _| {});
        }
    };
    frames(
        &mut s,
        &[
            r#"{"session_id":"s1","step_id":"plan_001","event":"plan.start","content":{"question":"q"},"seq":1}"#,
            r#"{"session_id":"s1","event":"agent.final_answer","content":{"answer":"First answer","answer_type":"text"},"seq":2}"#,
        ],
    );
    // The first turn was not started by this client's message: no user message.
    assert!(messages(s.store(), "s1/turn-1").is_empty());
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    respond::send_message(dec, "Make it shorter", None, None).expect("user.message");
    frames(
        &mut s,
        &[
            r#"{"session_id":"s1","step_id":"plan_001","event":"plan.start","content":{"question":"q"},"seq":3}"#,
            r#"{"session_id":"s1","event":"agent.final_answer","content":{"answer":"Short","answer_type":"text"},"seq":4}"#,
        ],
    );
    assert_eq!(
        messages(s.store(), "s1/turn-2"),
        vec![user("s1/turn-2#user", "Make it shorter")]
    );
    assert_eq!(content(s.store(), "s1/turn-2"), "Short");
}

#[test]
fn protocol_000_the_posted_prompt_is_the_first_root_tasks_user_message() {
    let mut s = session(DialectChoice::Fixed(Dialect::Canonical));
    s.store_mut()
        .expect_user_message(None, "Summarise the report", Some("ctx"));
    feed_sse(
        &mut s,
        &[
            // Another conversation's task does not take it, nor does a sub-task.
            r#"{"kind":"task-created","contextId":"other","taskId":"x","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}"#,
            r#"{"kind":"task-created","contextId":"ctx","taskId":"t","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}"#,
            r#"{"kind":"task-created","contextId":"ctx","taskId":"sub","parentTaskId":"t","initiator":"agent","timestamp":"2025-11-06T10:30:01Z"}"#,
            r#"{"kind":"content-delta","contextId":"ctx","taskId":"t","delta":"Done.","index":0,"timestamp":"2025-11-06T10:30:02Z"}"#,
        ],
    );
    assert!(messages(s.store(), "x").is_empty());
    assert!(messages(s.store(), "sub").is_empty());
    assert_eq!(
        messages(s.store(), "t"),
        vec![user("t#user", "Summarise the report")]
    );
    assert_eq!(content(s.store(), "t"), "Done.");
    // Placed once: the next root task has none.
    feed_sse(
        &mut s,
        &[
            r#"{"kind":"task-created","contextId":"ctx","taskId":"t2","initiator":"user","timestamp":"2025-11-06T10:31:00Z"}"#,
        ],
    );
    assert!(messages(s.store(), "t2").is_empty());
}

#[test]
fn protocol_000_a_message_id_from_the_body_is_kept_and_an_echo_replaces_it() {
    let mut s = session(DialectChoice::Fixed(Dialect::Canonical));
    s.store_mut().expect_user_message(Some("u-1"), "hi", None);
    feed_sse(
        &mut s,
        &[
            r#"{"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}"#,
            r#"{"kind":"message-upsert","contextId":"c","taskId":"t","message":{"id":"u-1","role":"user","content":"hi!"},"timestamp":"2025-11-06T10:30:00Z"}"#,
        ],
    );
    assert_eq!(messages(s.store(), "t"), vec![user("u-1", "hi!")]);
}

#[test]
fn ag_ui_start_messages_and_the_servers_snapshot_echo_make_one_user_message() {
    let mut s = session(DialectChoice::Fixed(Dialect::AgUi));
    let input = agentwire::json::parse(
        r#"{"threadId":"th","runId":"r1","messages":[{"id":"u1","role":"user","content":"Hello"}],"state":{},"tools":[],"context":[],"forwardedProps":{}}"#,
    )
    .expect("input");
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    dec.ag_ui().expect("ag-ui").set_run_input(&input);
    feed_sse(
        &mut s,
        &[
            r#"{"type":"RUN_STARTED","threadId":"th","runId":"r1"}"#,
            r#"{"type":"TEXT_MESSAGE_START","messageId":"a1","role":"assistant"}"#,
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"a1","delta":"Hi there"}"#,
            r#"{"type":"TEXT_MESSAGE_END","messageId":"a1"}"#,
            r#"{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u1","role":"user","content":"Hello"},{"id":"a1","role":"assistant","content":"Hi there"}]}"#,
            r#"{"type":"RUN_FINISHED","threadId":"th","runId":"r1"}"#,
        ],
    );
    let ms = messages(s.store(), "r1");
    assert_eq!(
        ms,
        vec![
            user("u1", "Hello"),
            ("assistant".into(), "a1".into(), "Hi there".into())
        ]
    );
    assert_eq!(content(s.store(), "r1"), "Hi there");
}

#[test]
fn ai_sdk_the_posted_user_message_joins_the_response_once() {
    let mut s = session(DialectChoice::Fixed(Dialect::AiSdk));
    let body = agentwire::json::parse(
        r#"{"id":"chat","messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"Weather?"}]}],"trigger":"submit-message"}"#,
    )
    .expect("body");
    let (dec, _) = s.dialect_parts().expect("dialect layer");
    dec.ai_sdk().expect("ai-sdk").set_request(&body);
    feed_sse(
        &mut s,
        &[
            r#"{"type":"start","messageId":"a1"}"#,
            r#"{"type":"text-start","id":"x"}"#,
            r#"{"type":"text-delta","id":"x","delta":"Sunny"}"#,
            r#"{"type":"text-end","id":"x"}"#,
            r#"{"type":"finish"}"#,
        ],
    );
    let ms = messages(s.store(), "a1");
    assert_eq!(ms.first(), Some(&user("u1", "Weather?")));
    assert_eq!(ms.iter().filter(|m| m.0 == "user").count(), 1);
    assert_eq!(content(s.store(), "a1"), "Sunny");
}

#[test]
fn protocol_000_only_a_body_with_a_user_message_announces_one() {
    let mut st = Store::new(Limits::default());
    assert!(!st.expect_posted_message(r#"{"scenario":"main"}"#));
    assert!(!st.expect_posted_message(r#"{"message":{"role":"assistant","content":"x"}}"#));
    assert!(!st.expect_posted_message("not json"));
    assert!(st.expect_posted_message(
        r#"{"contextId":"ctx-123","message":{"role":"user","content":"Do something","messageId":"m9"}}"#
    ));
    let mut s = session(DialectChoice::Fixed(Dialect::Canonical));
    // The server may start a context of its own: the run's first root task takes it anyway.
    assert!(s.store_mut().expect_posted_message(
        r#"{"contextId":"ctx-123","message":{"role":"user","content":"Do something"}}"#,
    ));
    feed_sse(
        &mut s,
        &[
            r#"{"kind":"task-created","contextId":"ctx-server","taskId":"task-456","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}"#,
        ],
    );
    assert_eq!(
        messages(s.store(), "task-456"),
        vec![user("task-456#user", "Do something")]
    );
}
