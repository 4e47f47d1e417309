//! The `RunAgentInput` a client POSTs to start a run of a thread (`tests/ag-ui/WIRE.md` §2),
//! written exactly as the official `HttpAgent` writes it: key order `threadId, runId,
//! protocolVersion: "1.0", state, messages, tools, context, forwardedProps, resume?`, messages
//! without role `activity`. Wasm-free: the browser driver gives it the store and the options.

use crate::events::MessageRole;
use crate::json::{parse, write_str, Value, WriteJson};
use crate::state::messages::Message;
use crate::state::Store;

/// One entry of `resume`: the answer to an interrupt.
#[derive(Debug, Clone, PartialEq)]
pub struct ResumeEntry {
    /// The interrupt answered.
    pub interrupt_id: String,
    /// `false`: `status: "resolved"` with `payload`; `true`: `status: "cancelled"`.
    pub cancelled: bool,
    /// The answer as JSON text (`None`, or `null`: no `payload`, which may not be null).
    pub payload: Option<String>,
}

/// What a run's input is made of (JSON texts as given by the app or read from the store).
#[derive(Debug, Default)]
pub struct RunInput<'a> {
    /// The thread.
    pub thread_id: &'a str,
    /// The new run.
    pub run_id: &'a str,
    /// The starting state (JSON); `{}` when absent.
    pub state: Option<&'a str>,
    /// The messages, each one JSON object text, in order (activity messages are left out here).
    pub messages: &'a [String],
    /// `tools` (a JSON array); `[]` when absent.
    pub tools: Option<&'a str>,
    /// `context` (a JSON array); `[]` when absent.
    pub context: Option<&'a str>,
    /// `forwardedProps` (JSON); `{}` when absent.
    pub forwarded_props: Option<&'a str>,
    /// `resume`, written only when not empty.
    pub resume: &'a [ResumeEntry],
}

impl RunInput<'_> {
    /// The JSON body.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\"threadId\":");
        write_str(&mut out, self.thread_id);
        out.push_str(",\"runId\":");
        write_str(&mut out, self.run_id);
        out.push_str(",\"protocolVersion\":\"1.0\",\"state\":");
        out.push_str(self.state.unwrap_or("{}"));
        out.push_str(",\"messages\":[");
        let mut first = true;
        for m in self.messages {
            if is_activity(m) {
                continue;
            }
            if !first {
                out.push(',');
            }
            first = false;
            out.push_str(m);
        }
        out.push_str("],\"tools\":");
        out.push_str(self.tools.unwrap_or("[]"));
        out.push_str(",\"context\":");
        out.push_str(self.context.unwrap_or("[]"));
        out.push_str(",\"forwardedProps\":");
        out.push_str(self.forwarded_props.unwrap_or("{}"));
        if !self.resume.is_empty() {
            out.push_str(",\"resume\":[");
            for (i, r) in self.resume.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str("{\"interruptId\":");
                write_str(&mut out, &r.interrupt_id);
                out.push_str(if r.cancelled {
                    ",\"status\":\"cancelled\""
                } else {
                    ",\"status\":\"resolved\""
                });
                if let Some(p) = r.payload.as_deref().filter(|p| p.trim() != "null") {
                    out.push_str(",\"payload\":");
                    out.push_str(p);
                }
                out.push('}');
            }
            out.push(']');
        }
        out.push('}');
        out
    }
}

fn is_activity(message_json: &str) -> bool {
    parse(message_json)
        .ok()
        .and_then(|v| {
            v.get("role")
                .and_then(Value::as_str)
                .map(|r| r == "activity")
        })
        .unwrap_or(false)
}

/// The elements of a JSON array text, each written back as JSON (`Err` when it is not an
/// array of objects).
pub fn array_items(json: &str) -> Result<Vec<String>, String> {
    let v = parse(json).map_err(|e| e.to_string())?;
    let Value::Array(items) = v else {
        return Err("not an array".into());
    };
    items
        .iter()
        .map(|i| {
            if matches!(i, Value::Object(_)) {
                let mut s = String::new();
                i.write(&mut s);
                Ok(s)
            } else {
                Err("an element is not an object".into())
            }
        })
        .collect()
}

/// A message in AG-UI's shape (`parts`, `streaming` and activities' content left out; `None`
/// for activity messages, which HttpAgent never sends).
pub fn message_json(m: &Message) -> Option<String> {
    let mut out = String::from("{\"id\":");
    write_str(&mut out, &m.id);
    out.push_str(",\"role\":");
    m.role.write_json(&mut out);
    match m.role {
        MessageRole::Activity => return None,
        MessageRole::Assistant => {
            if !m.content.is_empty() || m.tool_calls.is_empty() {
                out.push_str(",\"content\":");
                write_str(&mut out, &m.content);
            }
            if !m.tool_calls.is_empty() {
                out.push_str(",\"toolCalls\":[");
                for (i, c) in m.tool_calls.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str("{\"id\":");
                    write_str(&mut out, &c.id);
                    out.push_str(",\"type\":\"function\",\"function\":{\"name\":");
                    write_str(&mut out, &c.function.name);
                    out.push_str(",\"arguments\":");
                    write_str(&mut out, &c.function.arguments);
                    out.push_str("}}");
                }
                out.push(']');
            }
        }
        MessageRole::Tool => {
            out.push_str(",\"content\":");
            write_str(&mut out, &m.content);
            out.push_str(",\"toolCallId\":");
            write_str(&mut out, m.tool_call_id.as_deref().unwrap_or_default());
            if let Some(e) = &m.error {
                out.push_str(",\"error\":");
                write_str(&mut out, e);
            }
        }
        _ => {
            out.push_str(",\"content\":");
            write_str(&mut out, &m.content);
        }
    }
    if let Some(n) = &m.name {
        if matches!(
            m.role,
            MessageRole::User
                | MessageRole::Assistant
                | MessageRole::System
                | MessageRole::Developer
        ) {
            out.push_str(",\"name\":");
            write_str(&mut out, n);
        }
    }
    if let Some(e) = &m.encrypted_value {
        out.push_str(",\"encryptedValue\":");
        write_str(&mut out, e);
    }
    out.push('}');
    Some(out)
}

/// What the thread's tasks in the store say: every message (tasks in store order, messages in
/// their order; no activities), and the latest task's `sharedState` (JSON), if any task has one.
pub fn thread_history(store: &Store, thread: &str) -> (Vec<String>, Option<String>) {
    // One message per id, as the official client keeps them: a message a later run reopened
    // (its text in that run's task) stays where it first appeared, with the later text and
    // every tool call.
    let mut merged: Vec<Message> = Vec::new();
    let mut state = None;
    for t in store.tasks().filter(|t| t.context_id == thread) {
        for m in &t.messages {
            match merged.iter_mut().find(|x| x.id == m.id) {
                Some(x) => {
                    if !m.content.is_empty() {
                        x.content = m.content.clone();
                    }
                    for c in &m.tool_calls {
                        if !x.tool_calls.iter().any(|y| y.id == c.id) {
                            x.tool_calls.push(c.clone());
                        }
                    }
                }
                None => merged.push(m.clone()),
            }
        }
        if let Some(s) = &t.shared_state {
            let mut j = String::new();
            s.write_json(&mut j);
            state = Some(j);
        }
    }
    (merged.iter().filter_map(message_json).collect(), state)
}

/// A user message `{id, role: "user", content}`.
pub fn user_message(id: &str, text: &str) -> String {
    let mut out = String::from("{\"id\":");
    write_str(&mut out, id);
    out.push_str(",\"role\":\"user\",\"content\":");
    write_str(&mut out, text);
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_input_key_order_and_resume() {
        let msgs = vec![
            user_message("u1", "hi \"there\""),
            r#"{"id":"a1","role":"activity","activityType":"x","content":{}}"#.to_owned(),
        ];
        let resume = [
            ResumeEntry {
                interrupt_id: "i1".into(),
                cancelled: false,
                payload: Some("\"approve\"".into()),
            },
            ResumeEntry {
                interrupt_id: "i2".into(),
                cancelled: true,
                payload: None,
            },
        ];
        let body = RunInput {
            thread_id: "t",
            run_id: "r",
            messages: &msgs,
            resume: &resume,
            ..Default::default()
        }
        .to_json();
        assert_eq!(
            body,
            r#"{"threadId":"t","runId":"r","protocolVersion":"1.0","state":{},"messages":[{"id":"u1","role":"user","content":"hi \"there\""}],"tools":[],"context":[],"forwardedProps":{},"resume":[{"interruptId":"i1","status":"resolved","payload":"approve"},{"interruptId":"i2","status":"cancelled"}]}"#
        );
        let plain = RunInput {
            thread_id: "t",
            run_id: "r",
            state: Some(r#"{"a":1}"#),
            ..Default::default()
        }
        .to_json();
        assert!(!plain.contains("resume"));
        assert!(plain.contains(r#""state":{"a":1}"#));
    }

    #[test]
    fn array_items_rejects_non_objects() {
        assert_eq!(array_items("[{\"a\":1}]").unwrap(), vec!["{\"a\":1}"]);
        assert!(array_items("[1]").is_err());
        assert!(array_items("{}").is_err());
    }
}
