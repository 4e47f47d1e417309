//! Vercel AI SDK UI message stream (`ai@7.0.173`): `POST /api/ai-sdk/chat?scenario=&seed=&speed=&faults=`
//! with the `DefaultChatTransport` body `{id, messages, trigger, messageId?}`, answered like
//! `createUIMessageStreamResponse` (`data: <JSON>\n\n` per chunk, `data: [DONE]\n\n` last, the
//! five headers of `UI_MESSAGE_STREAM_HEADERS`; see `tests/ai-sdk/WIRE.md`).
//!
//! A chat (`id`) is one scenario run: its first POST creates it (with the query's scenario,
//! seed, speed), later POSTs continue it. The run is one assistant message
//! (`msg-<rootTaskId>`, chunks by [`crate::dialects::ai_sdk`]); every POST answers with one
//! response:
//!
//! - The scenario until it ends (`finish` `stop`, or `error` + `finish` `error`, or `abort`),
//!   or until the script waits for the client: then the response ends with the waiting
//!   request's tool call — `confirm` with a `tool-approval-request`, or a client-side tool
//!   `authorize` / `ask_user` — and `finish {finishReason: "tool-calls"}`.
//! - The next POST must answer every such call in its `messages`: the tool part in
//!   `approval-responded` with `approval.approved` (true → approve, false → deny) or, for a
//!   client-side tool, in `output-available` with its `output` (`output-error`: the run is
//!   cancelled). Its response continues the **same** message (`start` with the same
//!   `messageId`).
//! - Once the scenario ended, a POST whose last message is a user message gets a short second
//!   turn (a new assistant message echoing the question).
//!
//! Responses outlive their connection: `GET /api/ai-sdk/chat/{chatId}/stream` answers 204
//! when no response of the chat is active, else replays the active one from its first chunk
//! and follows it live. A response is active from its POST until one connection delivered it
//! whole (through `data: [DONE]`).
//!
//! Errors are JSON `{"error": …}`: 400 malformed body or query, 404 unknown scenario, 409 a
//! response of the chat still being produced, tool calls left unanswered, or nothing to
//! answer; 413 body over 1 MiB. Faults: see [`stream`].

pub mod stream;

use crate::args::{conversation_query, conversation_status_fault, ConversationQuery, Query};
use crate::dialects::ai_sdk::{AiSdkEncoder, AskKind, Pending};
use crate::faults::Faults;
use crate::reply::{error, read_json, RespBody};
use crate::run::{lock, Run, RunSpec};
use crate::App;
use hyper::body::Incoming;
use hyper::header::{self, HeaderName, HeaderValue};
use hyper::{Request, Response, StatusCode};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use stream::Resp;

/// How many chats are kept; a new one evicts the oldest.
pub const MAX_CHATS: usize = 256;

/// One chat: its scenario run and where its translation stands.
pub struct Chat {
    /// The scenario run.
    pub run: Arc<Run>,
    pub(crate) enc: AiSdkEncoder,
    pub(crate) pos: u64,
    /// The tool calls the last response finished with (waiting for the client).
    pub(crate) pending: Vec<Pending>,
    pub(crate) ended: bool,
    pub(crate) turn: u64,
}

/// A chat and its active response.
pub struct Entry {
    run_id: String,
    chat: Arc<tokio::sync::Mutex<Chat>>,
    active: Mutex<Option<Arc<Resp>>>,
    posts: Mutex<u32>,
}

/// Every chat, by id (bounded by [`MAX_CHATS`]).
#[derive(Default)]
pub struct Chats {
    inner: Mutex<VecDeque<(String, Arc<Entry>)>>,
}

impl Chats {
    fn get(&self, id: &str) -> Option<Arc<Entry>> {
        lock(&self.inner)
            .iter()
            .find(|(k, _)| k == id)
            .map(|(_, e)| e.clone())
    }

    fn get_or_create(&self, id: &str, create: impl FnOnce() -> Chat) -> Arc<Entry> {
        let mut v = lock(&self.inner);
        if let Some((_, e)) = v.iter().find(|(k, _)| k == id) {
            return e.clone();
        }
        while v.len() >= MAX_CHATS {
            v.pop_front();
        }
        let chat = create();
        let e = Arc::new(Entry {
            run_id: chat.run.spec.id.clone(),
            chat: Arc::new(tokio::sync::Mutex::new(chat)),
            active: Mutex::new(None),
            posts: Mutex::new(0),
        });
        v.push_back((id.to_owned(), e.clone()));
        e
    }
}

/// A tool part of an assistant message in the request.
#[derive(Debug, Clone)]
pub struct ToolPart {
    /// `toolCallId`.
    pub call_id: String,
    /// `state`.
    pub state: String,
    /// `approval.approved`.
    pub approved: Option<bool>,
    /// `output`.
    pub output: Option<Value>,
}

/// The members of a DefaultChatTransport body this server reads.
#[derive(Debug, Clone)]
pub struct Body {
    /// `id`: the chat.
    pub id: String,
    /// `trigger`.
    pub trigger: String,
    /// The text of the last message when it is a user message.
    pub user_text: Option<String>,
    /// The tool parts of the assistant messages.
    pub tools: Vec<ToolPart>,
}

/// Checks a `DefaultChatTransport` body (`{id, messages, trigger, messageId?}`; other members
/// of `body` are allowed).
pub fn parse_body(v: &Value) -> Result<Body, String> {
    let o = v.as_object().ok_or("the body must be a JSON object")?;
    let id = match o.get("id") {
        Some(Value::String(s)) if !s.is_empty() && s.len() <= 256 => s.clone(),
        _ => return Err("id must be a non-empty string (at most 256 bytes)".into()),
    };
    let trigger = match o.get("trigger").and_then(Value::as_str) {
        Some(t @ ("submit-message" | "regenerate-message")) => t.to_owned(),
        _ => return Err("trigger must be \"submit-message\" or \"regenerate-message\"".into()),
    };
    match o.get("messageId") {
        None | Some(Value::Null) | Some(Value::String(_)) => {}
        Some(_) => return Err("messageId must be a string".into()),
    }
    let messages = o
        .get("messages")
        .and_then(Value::as_array)
        .ok_or("messages must be an array")?;
    let mut tools = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        if m.get("id").and_then(Value::as_str).is_none() {
            return Err(format!("messages[{i}].id must be a string"));
        }
        let role = m.get("role").and_then(Value::as_str);
        if !matches!(role, Some("system" | "user" | "assistant")) {
            return Err(format!(
                "messages[{i}].role must be \"system\", \"user\" or \"assistant\""
            ));
        }
        let parts = m
            .get("parts")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("messages[{i}].parts must be an array"))?;
        for (j, p) in parts.iter().enumerate() {
            let Some(t) = p.get("type").and_then(Value::as_str) else {
                return Err(format!("messages[{i}].parts[{j}].type must be a string"));
            };
            if role == Some("assistant") && (t.starts_with("tool-") || t == "dynamic-tool") {
                let (Some(call), Some(state)) = (
                    p.get("toolCallId").and_then(Value::as_str),
                    p.get("state").and_then(Value::as_str),
                ) else {
                    return Err(format!(
                        "messages[{i}].parts[{j}]: a tool part needs toolCallId and state"
                    ));
                };
                tools.push(ToolPart {
                    call_id: call.to_owned(),
                    state: state.to_owned(),
                    approved: p
                        .get("approval")
                        .and_then(|a| a.get("approved"))
                        .and_then(Value::as_bool),
                    output: p.get("output").cloned(),
                });
            }
        }
    }
    let user_text = messages.last().filter(|m| m["role"] == "user").map(|m| {
        m["parts"]
            .as_array()
            .map(|ps| {
                ps.iter()
                    .filter(|p| p["type"] == "text")
                    .filter_map(|p| p["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("")
            })
            .unwrap_or_default()
    });
    Ok(Body {
        id,
        trigger,
        user_text,
        tools,
    })
}

/// The faults that mean something on `/api/ai-sdk/chat`.
fn check_faults(f: &Faults) -> Result<(), String> {
    let kept = Faults {
        drop: f.drop,
        drip: f.drip,
        status: f.status,
        newline: f.newline,
        ..Faults::default()
    };
    if &kept == f {
        Ok(())
    } else {
        Err("on /api/ai-sdk/chat only drop, drip, status, crlf and cr apply".into())
    }
}

/// What the client answered for `p`: `Ok(Some(approved))` for an approval,
/// `Ok(None)` for a client tool's output (applied), `Err` when not answered.
enum Answered {
    Approval(bool),
    Output(Value),
    Failed,
}

fn answer_of(p: &Pending, tools: &[ToolPart]) -> Option<Answered> {
    let part = tools.iter().rev().find(|t| t.call_id == p.call_id)?;
    match p.kind {
        AskKind::Approval => match (part.state.as_str(), part.approved) {
            ("approval-responded" | "output-denied", Some(a)) => Some(Answered::Approval(a)),
            ("output-denied", None) => Some(Answered::Approval(false)),
            _ => None,
        },
        AskKind::ClientTool => match part.state.as_str() {
            "output-available" => {
                Some(Answered::Output(part.output.clone().unwrap_or(Value::Null)))
            }
            "output-error" => Some(Answered::Failed),
            _ => None,
        },
    }
}

/// The request asked to close the connection (`Connection: close`).
fn wants_close(h: &hyper::HeaderMap) -> bool {
    h.get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case("close")))
}

/// The headers of `UI_MESSAGE_STREAM_HEADERS` (`connection: keep-alive` left to hyper's
/// `close` when the client asked for it, not `keep-alive, close`), and `X-Run-Id`.
fn stream_response(body: RespBody, run_id: &str, close: bool) -> Response<RespBody> {
    let mut r = Response::new(body);
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if !close {
        h.insert(header::CONNECTION, HeaderValue::from_static("keep-alive"));
    }
    h.insert(
        HeaderName::from_static("x-vercel-ai-ui-message-stream"),
        HeaderValue::from_static("v1"),
    );
    h.insert(
        HeaderName::from_static("x-accel-buffering"),
        HeaderValue::from_static("no"),
    );
    if let Ok(v) = HeaderValue::from_str(run_id) {
        h.insert(HeaderName::from_static("x-run-id"), v);
    }
    r
}

/// `POST /api/ai-sdk/chat`.
pub async fn handle(app: &App, req: Request<Incoming>) -> Response<RespBody> {
    let close = wants_close(req.headers());
    let ConversationQuery {
        args,
        scenario,
        faults_str,
        faults,
        events,
    } = match conversation_query(req.uri().query(), check_faults) {
        Ok(c) => c,
        Err(r) => return *r,
    };
    let body = match read_json(req).await {
        Ok(Some(b)) => b,
        Ok(None) => {
            return error(
                StatusCode::BAD_REQUEST,
                "the body must be {id, messages, trigger, messageId?}",
            )
        }
        Err(r) => return r,
    };
    let input = match parse_body(&body) {
        Ok(i) => i,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("invalid chat request: {e}"),
            )
        }
    };
    if let Some(r) = conversation_status_fault(app, &faults, &format!("ai-sdk:{}", input.id)) {
        return r;
    }
    let seed = args.seed.unwrap_or(1);
    let speed = args.speed.unwrap_or(app.config.default_speed);
    let entry = app.ai_sdk.get_or_create(&input.id, || {
        let run = app.runs.get_or_create(RunSpec {
            id: String::new(),
            scenario,
            seed,
            speed,
            faults: faults_str.clone(),
            events,
            params_key: format!("ai-sdk|{}", input.id),
            deferred: false,
        });
        let info =
            json!({"runId": run.spec.id, "contextId": run.context_id, "scenario": scenario.id()});
        Chat {
            run,
            enc: AiSdkEncoder::new(info),
            pos: 0,
            pending: Vec::new(),
            ended: false,
            turn: 1,
        }
    });
    let Ok(mut chat) = entry.chat.clone().try_lock_owned() else {
        return error(
            StatusCode::CONFLICT,
            "a response of this chat is still being produced",
        );
    };
    let mode = if !chat.pending.is_empty() {
        let answers: Vec<Option<Answered>> = chat
            .pending
            .iter()
            .map(|p| answer_of(p, &input.tools))
            .collect();
        let missing: Vec<&str> = chat
            .pending
            .iter()
            .zip(&answers)
            .filter(|(_, a)| a.is_none())
            .map(|(p, _)| p.call_id.as_str())
            .collect();
        if !missing.is_empty() {
            return error(
                StatusCode::CONFLICT,
                format!(
                    "waiting for the answer to tool call(s) {}: send the tool part in approval-responded (confirm) or output-available (authorize, ask_user)",
                    missing.join(", ")
                ),
            );
        }
        let mut approvals = Vec::new();
        for (p, a) in std::mem::take(&mut chat.pending).into_iter().zip(answers) {
            let is_auth = p.key.starts_with("auth/");
            match a {
                Some(Answered::Approval(yes)) => {
                    let v = if yes { "approve" } else { "deny" };
                    chat.run.answer(&p.key, json!({"value": v}));
                    approvals.push((p.call_id.clone(), yes));
                }
                Some(Answered::Output(out)) => {
                    let value = match &out {
                        Value::Object(o) if o.contains_key("value") => o["value"].clone(),
                        v => v.clone(),
                    };
                    let data = out.is_object().then_some(&out);
                    let body = if is_auth {
                        crate::rpc::answer_body(&p.key, Value::Null, data)
                    } else {
                        crate::rpc::answer_body(&p.key, value, data)
                    };
                    chat.run.answer(&p.key, body);
                }
                _ => {
                    if !is_auth && p.options.iter().any(|o| o == "deny") {
                        chat.run.answer(&p.key, json!({"value": "deny"}));
                    } else if let Some(root) = chat.run.root_task() {
                        chat.run.request_cancel(&root);
                    }
                }
            }
        }
        stream::Mode::Continue(approvals)
    } else if chat.ended {
        match &input.user_text {
            Some(q) => stream::Mode::FollowUp(q.clone()),
            None => {
                return error(
                    StatusCode::CONFLICT,
                    "this chat's scenario run has ended: add a user message for another turn",
                )
            }
        }
    } else if chat.pos > 0 {
        return error(
            StatusCode::CONFLICT,
            "nothing to answer: the scenario is still running (resume with GET …/stream)",
        );
    } else {
        stream::Mode::Scenario
    };
    let run_id = chat.run.spec.id.clone();
    let first = {
        let mut p = lock(&entry.posts);
        *p += 1;
        *p == 1
    };
    let resp = Arc::new(Resp::default());
    *lock(&entry.active) = Some(resp.clone());
    stream::produce(chat, mode, resp.clone());
    let conn = stream::ConnFaults {
        drop: if first { faults.drop } else { None },
        drip: faults.drip,
        newline: faults.newline,
    };
    stream_response(stream::body(resp, conn), &run_id, close)
}

/// `GET /api/ai-sdk/chat/{chatId}/stream`: 204 when no response of the chat is active, else
/// the active response from its first chunk.
pub fn resume(app: &App, req: &Request<Incoming>, chat_id: &str) -> Response<RespBody> {
    let q = Query::parse(req.uri().query());
    let faults = match Faults::parse(q.get("faults").unwrap_or("")) {
        Ok(f) => f,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("faults: {e}")),
    };
    let no_content = || {
        let mut r = Response::new(crate::reply::full(hyper::body::Bytes::new()));
        *r.status_mut() = StatusCode::NO_CONTENT;
        r
    };
    let Some(entry) = app.ai_sdk.get(chat_id) else {
        return no_content();
    };
    let active = lock(&entry.active).clone();
    match active.filter(|r| !r.delivered()) {
        None => no_content(),
        Some(resp) => {
            let conn = stream::ConnFaults {
                drop: None,
                drip: faults.drip,
                newline: faults.newline,
            };
            stream_response(
                stream::body(resp, conn),
                &entry.run_id,
                wants_close(req.headers()),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies() {
        let ok = json!({"id": "c", "trigger": "submit-message", "messageId": "m", "messages": [
            {"id": "a", "role": "assistant", "parts": [{"type": "tool-confirm", "toolCallId": "call-i", "state": "approval-responded", "approval": {"id": "x", "approved": false}}]},
            {"id": "u", "role": "user", "parts": [{"type": "text", "text": "hi"}]}]});
        let b = parse_body(&ok).expect("valid");
        assert_eq!(b.user_text.as_deref(), Some("hi"));
        assert_eq!(b.tools[0].approved, Some(false));
        for bad in [
            json!([]),
            json!({"id": "c", "trigger": "submit-message"}),
            json!({"id": "", "trigger": "submit-message", "messages": []}),
            json!({"id": "c", "trigger": "go", "messages": []}),
            json!({"id": "c", "trigger": "submit-message", "messages": [{"id": "u", "role": "robot", "parts": []}]}),
            json!({"id": "c", "trigger": "submit-message", "messages": [{"id": "u", "role": "user"}]}),
            json!({"id": "c", "trigger": "submit-message", "messages": [{"id": "u", "role": "assistant", "parts": [{"type": "tool-x"}]}]}),
            json!({"id": "c", "trigger": "submit-message", "messageId": 3, "messages": []}),
        ] {
            assert!(parse_body(&bad).is_err(), "{bad} should be refused");
        }
        assert!(check_faults(&Faults::parse("drop=3,crlf").expect("ok")).is_ok());
        assert!(check_faults(&Faults::parse("dup=3").expect("ok")).is_err());
    }
}
