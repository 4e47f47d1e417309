//! The request a chat client POSTs for the next response (`tests/ai-sdk/WIRE.md` §5), written
//! as the official `DefaultChatTransport` writes it: `{...body, id: chatId, messages, trigger,
//! messageId?}` (members of `body` first, these four replacing any of the same name in place),
//! `messages` being every `UIMessage` of the chat. Wasm-free: the browser driver gives it the
//! store and the options.

use crate::events::MessageRole;
use crate::json::{parse, write_str, Value, WriteJson};
use crate::state::Store;

/// A user message as the official chat writes one for `sendMessage({text})`.
pub fn user_message(id: &str, text: &str) -> String {
    let mut out = String::from("{\"id\":");
    write_str(&mut out, id);
    out.push_str(",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":");
    write_str(&mut out, text);
    out.push_str("}]}");
    out
}

/// The ids of the messages in `given` (JSON object texts).
fn ids(given: &[String]) -> Vec<String> {
    given
        .iter()
        .filter_map(|m| {
            parse(m)
                .ok()
                .and_then(|v| v.get("id").and_then(Value::as_str).map(str::to_owned))
        })
        .collect()
}

/// Every `UIMessage` of chat `chat`: the `given` messages first (the app's, kept as given:
/// their files and other parts stay), then the chat's messages in the store that are not among
/// them, in order — user messages `{id, role: "user", parts: [{type: "text", text}]}`,
/// assistant messages `{id, role: "assistant", parts, metadata?}` exactly as assembled.
pub fn chat_messages(store: &Store, chat: &str, given: &[String]) -> Vec<String> {
    let mut seen = ids(given);
    let mut out: Vec<String> = given.to_vec();
    for t in store.tasks().filter(|t| t.context_id == chat) {
        for m in &t.messages {
            if seen.contains(&m.id) {
                continue;
            }
            let text = match m.role {
                MessageRole::User => user_message(&m.id, &m.content),
                MessageRole::Assistant => {
                    let mut j = String::from("{\"id\":");
                    write_str(&mut j, &m.id);
                    j.push_str(",\"role\":\"assistant\",\"parts\":");
                    m.write_parts(&mut j);
                    if let Some(md) = &m.metadata {
                        j.push_str(",\"metadata\":");
                        md.write_json(&mut j);
                    }
                    j.push('}');
                    j
                }
                _ => continue,
            };
            seen.push(m.id.clone());
            out.push(text);
        }
    }
    out
}

/// The POST body: `extra`'s members (a JSON object, the `body` option), then `id`,
/// `messages`, `trigger`, `messageId` (omitted when `None`); a member of `extra` with one of
/// these names keeps its place and takes the new value, as JavaScript's object spread does.
pub fn request_body(
    extra: Option<&str>,
    chat: &str,
    messages: &[String],
    trigger: &str,
    message_id: Option<&str>,
) -> String {
    let write_own = |key: &str, out: &mut String| match key {
        "id" => write_str(out, chat),
        "messages" => {
            out.push('[');
            for (i, m) in messages.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(m);
            }
            out.push(']');
        }
        "trigger" => write_str(out, trigger),
        _ => write_str(out, message_id.unwrap_or_default()),
    };
    let own = ["id", "messages", "trigger", "messageId"];
    let present = |key: &str| key != "messageId" || message_id.is_some();
    let mut out = String::from("{");
    let mut written: Vec<&str> = Vec::new();
    let mut first = true;
    let mut sep = |out: &mut String| {
        if !std::mem::take(&mut first) {
            out.push(',');
        }
    };
    let extra = extra.and_then(|e| parse(e).ok());
    if let Some(Value::Object(members)) = &extra {
        for (k, v) in members {
            let k: &str = k;
            if let Some(o) = own.iter().find(|o| **o == k) {
                if written.contains(o) || !present(o) {
                    continue;
                }
                written.push(o);
                sep(&mut out);
                write_str(&mut out, o);
                out.push(':');
                write_own(o, &mut out);
            } else {
                sep(&mut out);
                write_str(&mut out, k);
                out.push(':');
                v.write(&mut out);
            }
        }
    }
    for o in own {
        if written.contains(&o) || !present(o) {
            continue;
        }
        sep(&mut out);
        write_str(&mut out, o);
        out.push(':');
        write_own(o, &mut out);
    }
    out.push('}');
    out
}

/// Where a chat's stream is resumed: `{api}/{encodeURIComponent(chatId)}/stream`, the path
/// appended before any `?query` or `#hash` of `api` (`http-chat-transport.ts`).
pub fn resume_url(api: &str, chat: &str) -> String {
    let cut = api.find(['?', '#']).unwrap_or(api.len());
    // split_at_checked: no panic path (core's slice_error_fail formats chars: ~4 KB gzip).
    let (path, rest) = api.split_at_checked(cut).unwrap_or((api, ""));
    let mut out = path.trim_end_matches('/').to_owned();
    out.push('/');
    for b in chat.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out.push_str("/stream");
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialects::{Dialect, DialectChoice};
    use crate::pipeline::Session;
    use crate::sse::SseConfig;
    use crate::state::Limits;

    #[test]
    fn the_body_is_written_as_the_default_chat_transport_writes_it() {
        let m = [user_message("u1", "Hi \"you\"")];
        assert_eq!(
            request_body(None, "c1", &m, "submit-message", None),
            r#"{"id":"c1","messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"Hi \"you\""}]}],"trigger":"submit-message"}"#
        );
        assert_eq!(
            request_body(
                Some(r#"{"model":"x","id":"old","n":1}"#),
                "c1",
                &[],
                "submit-message",
                Some("m1")
            ),
            r#"{"model":"x","id":"c1","n":1,"messages":[],"trigger":"submit-message","messageId":"m1"}"#
        );
        assert_eq!(
            request_body(Some(r#"{"messageId":"z"}"#), "c", &[], "t", None),
            r#"{"id":"c","messages":[],"trigger":"t"}"#
        );
    }

    #[test]
    fn the_resume_url_goes_before_the_query() {
        assert_eq!(resume_url("/api/chat", "c1"), "/api/chat/c1/stream");
        assert_eq!(
            resume_url("http://h/api/chat?x=1#f", "a b/é"),
            "http://h/api/chat/a%20b%2F%C3%A9/stream?x=1#f"
        );
    }

    #[test]
    fn the_chat_messages_are_the_store_s_ui_messages() {
        let mut s = Session::with_dialect(
            SseConfig::default(),
            Limits::default(),
            DialectChoice::Fixed(Dialect::AiSdk),
        );
        {
            let (dec, _) = s.dialect_parts().expect("dialect");
            let a = dec.ai_sdk().expect("ai-sdk");
            a.set_chat_id("c1");
            let body = request_body(
                None,
                "c1",
                &[user_message("u1", "Hello")],
                "submit-message",
                None,
            );
            a.set_request(&parse(&body).expect("json"));
        }
        let frames = [
            r#"{"type":"start","messageId":"m1","messageMetadata":{"turn":1}}"#,
            r#"{"type":"start-step"}"#,
            r#"{"type":"text-start","id":"t1"}"#,
            r#"{"type":"text-delta","id":"t1","delta":"Hi!"}"#,
            r#"{"type":"text-end","id":"t1"}"#,
            r#"{"type":"finish-step"}"#,
            r#"{"type":"finish"}"#,
            "[DONE]",
        ];
        let text: String = frames.iter().map(|c| format!("data: {c}\n\n")).collect();
        s.feed(text.as_bytes(), &mut |_, _, _| {});
        let given = [r#"{"id":"u0","role":"system","parts":[]}"#.to_owned()];
        let all = chat_messages(s.store(), "c1", &given);
        assert_eq!(
            all,
            vec![
                given[0].clone(),
                user_message("u1", "Hello"),
                r#"{"id":"m1","role":"assistant","parts":[{"type":"step-start"},{"type":"text","text":"Hi!","state":"done"}],"metadata":{"turn":1}}"#.to_owned(),
            ]
        );
        assert!(chat_messages(s.store(), "other", &[]).is_empty());
    }

    #[test]
    fn a_replayed_response_is_not_applied_twice() {
        let mut s = Session::with_dialect(
            SseConfig::default(),
            Limits::default(),
            DialectChoice::Fixed(Dialect::AiSdk),
        );
        let frames = [
            r#"{"type":"start","messageId":"m1"}"#,
            r#"{"type":"start-step"}"#,
            r#"{"type":"text-start","id":"t1"}"#,
            r#"{"type":"text-delta","id":"t1","delta":"one "}"#,
            r#"{"type":"source-url","sourceId":"s1","url":"https://a"}"#,
            r#"{"type":"tool-input-start","toolCallId":"c1","toolName":"w"}"#,
            r#"{"type":"text-delta","id":"t1","delta":"two "}"#,
            r#"{"type":"tool-input-available","toolCallId":"c1","toolName":"w","input":{}}"#,
            r#"{"type":"tool-output-available","toolCallId":"c1","output":1}"#,
            r#"{"type":"text-delta","id":"t1","delta":"three"}"#,
            r#"{"type":"text-end","id":"t1"}"#,
            r#"{"type":"finish"}"#,
            "[DONE]",
        ];
        let sse = |fs: &[&str]| -> String { fs.iter().map(|c| format!("data: {c}\n\n")).collect() };
        let mut whole = Session::with_dialect(
            SseConfig::default(),
            Limits::default(),
            DialectChoice::Fixed(Dialect::AiSdk),
        );
        whole.set_now_ms(Some(1));
        whole.feed(sse(&frames).as_bytes(), &mut |_, _, _| {});
        s.set_now_ms(Some(1));
        // The first response breaks off after 7 chunks; the resumed stream replays all of it.
        s.feed(sse(&frames[..7]).as_bytes(), &mut |_, _, _| {});
        s.begin_new_stream();
        {
            let (dec, _) = s.dialect_parts().expect("dialect");
            dec.ai_sdk().expect("ai-sdk").begin_replay();
        }
        s.feed(sse(&frames).as_bytes(), &mut |_, _, _| {});
        let strip = |st: String| -> String {
            // The diagnostics and positions differ (more chunks were read); the tasks not.
            let v = crate::json::parse(&st).expect("state");
            v.get("tasks")
                .map(crate::json::Value::to_json)
                .unwrap_or_default()
        };
        assert_eq!(
            strip(s.store().state_json()),
            strip(whole.store().state_json())
        );
        assert!(s
            .store()
            .state_json()
            .contains(r#""text":"one two three","state":"done""#));
    }

    #[test]
    fn stop_cancels_the_task_and_keeps_the_parts() {
        let mut s = Session::with_dialect(
            SseConfig::default(),
            Limits::default(),
            DialectChoice::Fixed(Dialect::AiSdk),
        );
        let frames = [
            r#"{"type":"start","messageId":"m1"}"#,
            r#"{"type":"text-start","id":"t1"}"#,
            r#"{"type":"text-delta","id":"t1","delta":"half"}"#,
        ];
        let text: String = frames.iter().map(|c| format!("data: {c}\n\n")).collect();
        s.feed(text.as_bytes(), &mut |_, _, _| {});
        let events = {
            let (dec, _) = s.dialect_parts().expect("dialect");
            dec.ai_sdk_local(|a, ts| a.stop(ts)).expect("ai-sdk")
        };
        assert_eq!(events.len(), 1);
        for e in &events {
            s.push_json(e, &mut |_, _, _| {});
        }
        let st = s.store().state_json();
        assert!(st.contains(r#""status":"canceled""#), "{st}");
        assert!(
            st.contains(r#"{"type":"text","text":"half","state":"streaming"}"#),
            "{st}"
        );
        let (dec, _) = s.dialect_parts().expect("dialect");
        assert!(dec
            .ai_sdk_local(|a, ts| a.stop(ts))
            .expect("ai-sdk")
            .is_empty());
    }
}
