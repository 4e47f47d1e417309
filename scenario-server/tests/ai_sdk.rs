//! `POST /api/ai-sdk/chat`: every scenario as a Vercel AI SDK UI message stream. Framing and
//! headers exactly as `createUIMessageStreamResponse` writes them, the chunk order rules of the
//! official reducer (checked here in Rust), approvals and client-side tools continuing the same
//! message, the second turn, resume (204 / replay), faults, errors; and, when node and the
//! official `ai` package are installed, the official DefaultChatTransport + readUIMessageStream
//! and Chat driving whole conversations with every chunk checked by `uiMessageChunkSchema`
//! (`tests/ai_sdk_official.mjs`).

mod common;

use common::{get, open, post, request, server};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::time::Duration;

const HEADERS: [(&str, &str); 5] = [
    ("content-type", "text/event-stream"),
    ("cache-control", "no-cache"),
    ("connection", "keep-alive"),
    ("x-vercel-ai-ui-message-stream", "v1"),
    ("x-accel-buffering", "no"),
];

/// Splits a body into chunks; panics on anything `JsonToSseTransformStream` would not write.
/// `done`: the body must end with `data: [DONE]\n\n`.
fn frames(body: &[u8], done: bool) -> Vec<Value> {
    let text = std::str::from_utf8(body).expect("utf-8 body");
    assert!(
        text.is_empty() || text.ends_with("\n\n"),
        "the body ends with a whole frame"
    );
    let mut out = Vec::new();
    let mut saw_done = false;
    for f in text.split_terminator("\n\n") {
        assert!(!saw_done, "nothing after [DONE]");
        let json = f
            .strip_prefix("data: ")
            .unwrap_or_else(|| panic!("a frame is one data line: {f:?}"));
        assert!(
            !json.contains('\n') && !json.contains('\r'),
            "one line: {f:?}"
        );
        if json == "[DONE]" {
            saw_done = true;
            continue;
        }
        let v: Value = serde_json::from_str(json).expect("JSON chunk");
        assert!(v["type"].as_str().is_some_and(|t| !t.is_empty()), "{v}");
        out.push(v);
    }
    assert_eq!(saw_done, done, "data: [DONE] last");
    out
}

/// The order rules of the official reducer (WIRE.md §3, §4) and the chunk shapes of
/// uiMessageChunkSchema for the types this server writes. `continued`: the tool calls of the
/// message so far (a continuation). `complete`: the response must end with finish/abort.
/// Returns the tool call ids known after the response.
fn verify(chunks: &[Value], continued: &BTreeSet<String>, complete: bool) -> BTreeSet<String> {
    let ty = |e: &Value| e["type"].as_str().unwrap_or("").to_owned();
    assert_eq!(ty(&chunks[0]), "start", "first: {}", chunks[0]);
    assert!(chunks[0]["messageId"].is_string());
    let mut texts = BTreeSet::new();
    let mut reasoning = BTreeSet::new();
    let mut inputs = BTreeSet::new();
    let mut calls = continued.clone();
    let mut approvals = BTreeSet::new();
    let mut step = false;
    let n = chunks.len();
    let s = |e: &Value, k: &str| {
        e[k].as_str()
            .unwrap_or_else(|| panic!("{k} in {e}"))
            .to_owned()
    };
    for (i, e) in chunks.iter().enumerate().skip(1) {
        let t = ty(e);
        let last = i + 1 == n;
        match t.as_str() {
            "start" => panic!("start twice"),
            "start-step" => {
                assert!(!step, "start-step inside a step at {i}");
                step = true;
            }
            "finish-step" => {
                assert!(step, "finish-step without a step at {i}");
                assert!(
                    texts.is_empty() && reasoning.is_empty(),
                    "parts open at finish-step"
                );
                step = false;
            }
            "text-start" => {
                assert!(step, "text outside a step");
                assert!(texts.insert(s(e, "id")), "{e} twice");
            }
            "text-delta" => {
                assert!(texts.contains(&s(e, "id")), "delta before start: {e}");
                assert!(e["delta"].is_string());
            }
            "text-end" => assert!(texts.remove(&s(e, "id")), "end not open: {e}"),
            "reasoning-start" => {
                assert!(step, "reasoning outside a step");
                assert!(reasoning.insert(s(e, "id")), "{e}");
            }
            "reasoning-delta" => assert!(reasoning.contains(&s(e, "id")), "{e}"),
            "reasoning-end" => assert!(reasoning.remove(&s(e, "id")), "{e}"),
            "tool-input-start" => {
                assert!(step, "tool call outside a step");
                assert!(e["toolName"].is_string());
                let id = s(e, "toolCallId");
                assert!(!calls.contains(&id), "{e}: call id reused");
                assert!(inputs.insert(id), "{e}");
            }
            "tool-input-delta" => {
                assert!(inputs.contains(&s(e, "toolCallId")), "{e}");
                assert!(e["inputTextDelta"].is_string());
            }
            "tool-input-available" => {
                let id = s(e, "toolCallId");
                assert!(inputs.remove(&id), "available without start: {e}");
                assert!(e.get("input").is_some() && e["toolName"].is_string());
                calls.insert(id);
            }
            "tool-approval-request" => {
                assert!(calls.contains(&s(e, "toolCallId")), "{e}");
                approvals.insert(s(e, "approvalId"));
            }
            "tool-output-available" | "tool-output-error" | "tool-output-denied" => {
                assert!(
                    calls.contains(&s(e, "toolCallId")),
                    "output for an unknown call: {e}"
                );
                if t == "tool-output-available" {
                    assert!(e.get("output").is_some());
                }
                if t == "tool-output-error" {
                    assert!(e["errorText"].is_string());
                }
            }
            "file" => {
                assert!(e["mediaType"].is_string());
                assert!(s(e, "url").starts_with("data:"));
            }
            t if t.starts_with("data-") => {
                assert!(e.get("data").is_some(), "{e}");
                if t == "data-internal" {
                    assert_eq!(e["transient"], true);
                } else {
                    assert!(e["id"].is_string(), "{e}");
                }
            }
            "error" => assert!(e["errorText"].is_string()),
            "finish" => {
                assert!(last && complete, "finish ends the response: {e}");
                let r = s(e, "finishReason");
                assert!(["stop", "error", "tool-calls"].contains(&r.as_str()), "{e}");
                if r == "tool-calls" {
                    assert!(!approvals.is_empty() || !calls.is_empty());
                }
            }
            "abort" => assert!(last && complete, "abort ends the response: {e}"),
            other => panic!("unexpected chunk type {other}"),
        }
        if matches!(t.as_str(), "finish" | "abort") {
            assert!(texts.is_empty() && reasoning.is_empty() && inputs.is_empty());
            assert!(!step, "a step still open at {t}");
        }
    }
    if complete {
        assert!(matches!(ty(&chunks[n - 1]).as_str(), "finish" | "abort"));
    }
    calls
}

fn body(chat: &str, messages: Value, message_id: Option<&str>) -> String {
    let mut v = json!({"id": chat, "messages": messages, "trigger": "submit-message"});
    if let Some(m) = message_id {
        v["messageId"] = m.into();
    }
    v.to_string()
}

fn user(id: &str, text: &str) -> Value {
    json!({"id": id, "role": "user", "parts": [{"type": "text", "text": text}]})
}

/// The test client sends `Connection: close`: hyper answers `connection: close` (see
/// `headers_exact_on_a_keep_alive_connection` for `keep-alive`).
fn check_headers(c: &common::Conn) {
    for (k, v) in HEADERS {
        let v = if k == "connection" { "close" } else { v };
        assert_eq!(c.header(k), Some(v), "header {k}");
    }
}

#[tokio::test]
async fn headers_exact_on_a_keep_alive_connection() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = server().await;
    let b = body("c-headers", json!([]), None);
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let req = format!(
        "POST /api/ai-sdk/chat?speed=0 HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{b}",
        b.len()
    );
    s.write_all(req.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    while !raw.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = tokio::time::timeout(Duration::from_secs(10), s.read(&mut buf))
            .await
            .expect("head in time")
            .expect("read");
        assert!(n > 0, "closed before the head");
        raw.extend_from_slice(&buf[..n]);
    }
    let head = String::from_utf8_lossy(&raw).into_owned();
    let head = &head[..head.find("\r\n\r\n").expect("head")];
    let mut lines = head.split("\r\n");
    assert_eq!(lines.next(), Some("HTTP/1.1 200 OK"));
    let headers: Vec<(String, String)> = lines
        .map(|l| {
            let (k, v) = l.split_once(": ").expect("header line");
            (k.to_ascii_lowercase(), v.to_owned())
        })
        .collect();
    for (k, v) in HEADERS {
        let got: Vec<&str> = headers
            .iter()
            .filter(|(n, _)| n == k)
            .map(|(_, x)| x.as_str())
            .collect();
        assert_eq!(got, [v], "header {k}");
    }
    let names: BTreeSet<&str> = headers.iter().map(|(k, _)| k.as_str()).collect();
    let expected: BTreeSet<&str> = HEADERS
        .iter()
        .map(|(k, _)| *k)
        .chain([
            "x-run-id",
            "transfer-encoding",
            "date",
            "access-control-allow-origin",
            "access-control-allow-methods",
            "access-control-allow-headers",
            "access-control-expose-headers",
            "vary",
        ])
        .collect();
    assert_eq!(names, expected);
}

/// POSTs and returns the chunks (checked: 200, headers, framing, order).
async fn chat(
    addr: SocketAddr,
    query: &str,
    body: &str,
    continued: &BTreeSet<String>,
) -> Vec<Value> {
    let c = post(addr, &format!("/api/ai-sdk/chat?{query}"), body).await;
    assert_eq!(c.status, 200, "{}", c.text());
    check_headers(&c);
    assert!(c.ended, "the body ended properly");
    let chunks = frames(&c.body, true);
    verify(&chunks, continued, true);
    chunks
}

fn of<'a>(chunks: &'a [Value], t: &str) -> Vec<&'a Value> {
    chunks.iter().filter(|e| e["type"] == t).collect()
}

fn text_of(chunks: &[Value]) -> String {
    of(chunks, "text-delta")
        .iter()
        .filter_map(|e| e["delta"].as_str())
        .collect()
}

/// The assistant message's tool part as the client sends it back.
fn tool_part(tool: &str, call: &str, state: &str, extra: Value) -> Value {
    let mut p =
        json!({"type": format!("tool-{tool}"), "toolCallId": call, "state": state, "input": {}});
    if let (Some(o), Value::Object(x)) = (p.as_object_mut(), extra) {
        o.extend(x);
    }
    p
}

#[tokio::test]
async fn main_approval_client_tool_and_second_turn() {
    let addr = server().await;
    let q = "scenario=main&speed=0";
    let u1 = user("u1", "How did Q4 go?");
    let none = BTreeSet::new();
    let c1 = chat(addr, q, &body("c-main", json!([u1]), None), &none).await;
    let mid = c1[0]["messageId"].as_str().expect("id").to_owned();
    assert!(mid.starts_with("msg-task-"));
    assert_eq!(c1[0]["messageMetadata"]["scenario"], "main");
    for t in [
        "start-step",
        "reasoning-delta",
        "tool-input-delta",
        "tool-output-available",
        "data-subtask",
        "data-status",
        "data-request",
        "data-internal",
    ] {
        assert!(!of(&c1, t).is_empty(), "{t} in the first response");
    }
    // The search_database arguments in 3 deltas that concatenate to the JSON.
    let start = of(&c1, "tool-input-start")[0];
    assert_eq!(start["toolName"], "search_database");
    let tc = start["toolCallId"].as_str().expect("id");
    let args: String = of(&c1, "tool-input-delta")
        .iter()
        .filter(|e| e["toolCallId"] == tc)
        .filter_map(|e| e["inputTextDelta"].as_str())
        .collect();
    assert_eq!(
        of(&c1, "tool-input-delta")
            .iter()
            .filter(|e| e["toolCallId"] == tc)
            .count(),
        3
    );
    let parsed: Value = serde_json::from_str(&args).expect("args JSON");
    assert_eq!(parsed["table"], "sales_data");
    // Preliminary progress, then the result.
    let outs: Vec<&Value> = of(&c1, "tool-output-available")
        .into_iter()
        .filter(|e| e["toolCallId"] == tc)
        .collect();
    assert!(
        outs.len() > 1
            && outs[..outs.len() - 1]
                .iter()
                .all(|e| e["preliminary"] == true)
    );
    assert_eq!(outs.last().expect("o")["output"]["count"], 12480);
    // Sub-agents replaced by id; the nested one names its parent.
    let fx = of(&c1, "data-subtask")
        .into_iter()
        .rfind(|e| e["data"]["agentId"] == "fx-converter-v1")
        .expect("fx");
    assert_eq!(fx["data"]["status"], "completed");
    assert!(fx["data"]["text"].as_str().expect("t").contains("CHF"));
    // Ends on the approval.
    let n = c1.len();
    assert_eq!(
        c1[n - 1],
        json!({"type": "finish", "finishReason": "tool-calls"})
    );
    assert_eq!(c1[n - 2], json!({"type": "finish-step"}));
    let req = &c1[n - 3];
    assert_eq!(req["type"], "tool-approval-request");
    let call = req["toolCallId"].as_str().expect("call").to_owned();
    let avail = of(&c1, "tool-input-available")
        .into_iter()
        .find(|e| e["toolCallId"] == call.as_str())
        .expect("the confirm call");
    assert_eq!(avail["toolName"], "confirm");
    assert_eq!(
        avail["input"]["prompt"],
        "Send the report to finance@example.com?"
    );
    let calls: BTreeSet<String> = of(&c1, "tool-input-available")
        .iter()
        .filter_map(|e| e["toolCallId"].as_str().map(str::to_owned))
        .collect();

    // Not answering: 409.
    let c = post(
        addr,
        &format!("/api/ai-sdk/chat?{q}"),
        &body("c-main", json!([u1]), None),
    )
    .await;
    assert_eq!(c.status, 409, "{}", c.text());
    assert!(c.json()["error"].as_str().expect("e").contains(&call));

    // Approved: the same message continues with the tool output, then the email.
    let a = json!({"id": mid, "role": "assistant", "parts": [tool_part("confirm", &call, "approval-responded",
        json!({"approval": {"id": req["approvalId"], "approved": true}}))]});
    let c2 = chat(addr, q, &body("c-main", json!([u1, a]), Some(&mid)), &calls).await;
    assert_eq!(c2[0]["messageId"], mid.as_str());
    assert_eq!(c2[1]["type"], "start-step");
    assert_eq!(c2[2]["type"], "tool-output-available");
    assert_eq!(c2[2]["toolCallId"], call.as_str());
    assert!(of(&c2, "tool-input-start")
        .iter()
        .any(|e| e["toolName"] == "send_email"));
    let auth = of(&c2, "tool-input-available")
        .into_iter()
        .find(|e| e["toolName"] == "authorize")
        .expect("the authorize call");
    assert_eq!(auth["input"]["provider"], "github");
    let auth_call = auth["toolCallId"].as_str().expect("c").to_owned();
    assert_eq!(c2.last().expect("l")["finishReason"], "tool-calls");
    assert!(of(&c2, "tool-approval-request").is_empty());
    let mut calls2 = calls.clone();
    calls2.extend(
        of(&c2, "tool-input-available")
            .iter()
            .filter_map(|e| e["toolCallId"].as_str().map(str::to_owned)),
    );

    // The client-side tool's output answers the sign-in.
    let a = json!({"id": mid, "role": "assistant", "parts": [
        tool_part("confirm", &call, "output-available", json!({"output": {"approved": true}})),
        tool_part("authorize", &auth_call, "output-available", json!({"output": {"userId": "ada"}}))]});
    let c3 = chat(
        addr,
        q,
        &body("c-main", json!([u1, a.clone()]), Some(&mid)),
        &calls2,
    )
    .await;
    assert_eq!(c3[0]["messageId"], mid.as_str());
    assert_eq!(
        c3.last().expect("l"),
        &json!({"type": "finish", "finishReason": "stop"})
    );
    let text = text_of(&c3);
    assert!(text.starts_with("## Q4 sales summary"), "{text}");
    assert!(text.contains("A copy was sent to finance@example.com."));
    let done = of(&c3, "data-request")
        .into_iter()
        .rfind(|e| e["data"]["kind"] == "auth")
        .expect("auth request");
    assert_eq!(done["data"]["status"], "completed");
    assert_eq!(done["data"]["userId"], "ada");
    // Artifacts: the report as a data: URL file and its card; dataset rows; data versions.
    let file = of(&c3, "file")
        .into_iter()
        .find(|e| e["mediaType"] == "text/markdown")
        .expect("report.md");
    let b64 = file["url"]
        .as_str()
        .expect("u")
        .strip_prefix("data:text/markdown;base64,")
        .expect("data URL");
    let md = String::from_utf8(common::base64_decode(b64)).expect("utf-8");
    assert!(md.starts_with("# Q4 2025 sales report"), "{md}");
    let arts = of(&c3, "data-artifact");
    assert!(arts
        .iter()
        .any(|e| e["data"]["name"] == "report.md" && e["data"]["complete"] == true));
    let ds = arts
        .iter()
        .rfind(|e| e["data"]["kind"] == "dataset")
        .expect("dataset");
    assert_eq!(ds["data"]["rows"].as_array().expect("rows").len(), 25);

    // Ended: a POST without a new user message is refused; a question is a second turn.
    let c = post(
        addr,
        &format!("/api/ai-sdk/chat?{q}"),
        &body("c-main", json!([u1, a]), None),
    )
    .await;
    assert_eq!(c.status, 409);
    let c4 = chat(
        addr,
        q,
        &body("c-main", json!([u1, a, user("u2", "And Q1?")]), None),
        &none,
    )
    .await;
    assert_eq!(c4[0]["messageId"], format!("{mid}-turn2"));
    assert!(text_of(&c4).starts_with("Turn 2: you asked “And Q1?”"));
}

#[tokio::test]
async fn denied_approval_and_failed_client_tool() {
    let addr = server().await;
    let q = "scenario=main&speed=0";
    let u = user("u", "go");
    let c1 = chat(addr, q, &body("c-deny", json!([u]), None), &BTreeSet::new()).await;
    let mid = c1[0]["messageId"].as_str().expect("m").to_owned();
    let req = of(&c1, "tool-approval-request")[0].clone();
    let call = req["toolCallId"].as_str().expect("c").to_owned();
    let calls: BTreeSet<String> = [call.clone()].into();
    let a = json!({"id": mid, "role": "assistant", "parts": [tool_part("confirm", &call, "approval-responded",
        json!({"approval": {"id": req["approvalId"], "approved": false}}))]});
    let c2 = chat(addr, q, &body("c-deny", json!([u, a]), Some(&mid)), &calls).await;
    assert_eq!(
        c2[2],
        json!({"type": "tool-output-denied", "toolCallId": call})
    );
    assert!(of(&c2, "reasoning-delta").iter().any(|e| e["delta"]
        .as_str()
        .is_some_and(|d| d.starts_with("User declined"))));
    assert!(!of(&c2, "tool-input-start")
        .iter()
        .any(|e| e["toolName"] == "send_email"));
    let auth = of(&c2, "tool-input-available")
        .into_iter()
        .find(|e| e["toolName"] == "authorize")
        .expect("authorize")["toolCallId"]
        .as_str()
        .expect("c")
        .to_owned();
    let mut calls2 = calls.clone();
    calls2.insert(auth.clone());
    // The client tool failed: the run is cancelled, the message ends with abort.
    let a = json!({"id": mid, "role": "assistant", "parts": [tool_part("authorize", &auth, "output-error", json!({"errorText": "closed the popup"}))]});
    let c3 = chat(addr, q, &body("c-deny", json!([u, a]), Some(&mid)), &calls2).await;
    assert_eq!(c3.last().expect("l")["type"], "abort");
}

#[tokio::test]
async fn every_scenario_is_a_valid_stream() {
    let addr = server().await;
    for (scenario, end) in [
        ("quick", "stop"),
        ("failure", "error"),
        ("xss", "stop"),
        ("bulk&events=300", "stop"),
    ] {
        let c = chat(
            addr,
            &format!("scenario={scenario}&speed=0&seed=7"),
            &body(&format!("c-{scenario}"), json!([user("u", "go")]), None),
            &BTreeSet::new(),
        )
        .await;
        let fin = c.last().expect("l");
        assert_eq!(fin["finishReason"], end, "{scenario}");
        if end == "error" {
            let e = &c[c.len() - 2];
            assert_eq!(e["type"], "error");
            assert!(!e["errorText"].as_str().expect("t").is_empty());
        }
    }
    // quick: failed and canceled sub-agents in their data parts, in-band requests answered.
    let c = chat(
        addr,
        "scenario=quick&speed=0&seed=7",
        &body("c-quick-2", json!([]), None),
        &BTreeSet::new(),
    )
    .await;
    let statuses: BTreeSet<&str> = of(&c, "data-subtask")
        .iter()
        .filter_map(|e| e["data"]["status"].as_str())
        .collect();
    assert!(
        statuses.contains("failed") && statuses.contains("canceled"),
        "{statuses:?}"
    );
    assert!(of(&c, "data-request")
        .iter()
        .all(|e| e["data"]["status"] != "open"
            || c.iter()
                .any(|x| x["id"] == e["id"] && x["data"]["status"] != "open")));
    assert!(of(&c, "tool-approval-request").is_empty());
}

#[tokio::test]
async fn the_cancel_endpoint_aborts_the_message() {
    let addr = server().await;
    let b = body("c-cancel", json!([user("u", "reindex")]), None);
    let mut c = open(
        addr,
        "POST",
        "/api/ai-sdk/chat?scenario=cancel&speed=0",
        &[("Content-Type", "application/json")],
        Some(&b),
    )
    .await;
    assert_eq!(c.status, 200);
    let run_id = c.header("x-run-id").expect("X-Run-Id").to_owned();
    assert!(
        c.wait_for("reindex_warehouse", Duration::from_secs(10))
            .await
    );
    let text = c.text();
    let first = frames(
        &text.as_bytes()[..text.find("\n\n").expect("a frame") + 2],
        false,
    );
    let root = first[0]["messageMetadata"]["taskId"]
        .as_str()
        .expect("task")
        .to_owned();
    let r = post(
        addr,
        &format!("/api/contexts/ctx-{run_id}/tasks/{root}/cancel"),
        "",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let c = c.finish(10).await;
    let chunks = frames(&c.body, true);
    verify(&chunks, &BTreeSet::new(), true);
    assert_eq!(
        chunks.last().expect("l"),
        &json!({"type": "abort", "reason": "canceled"})
    );
}

#[tokio::test]
async fn resume_is_204_or_the_active_response_replayed() {
    let addr = server().await;
    // Unknown chat: 204.
    let c = get(addr, "/api/ai-sdk/chat/nope/stream").await;
    assert_eq!(c.status, 204);
    assert!(c.body.is_empty());
    // drop=K: K whole chunks, half a frame, cut; the response stays active.
    let q = "scenario=quick&speed=0&faults=drop=12";
    let b = body("c-drop", json!([user("u", "go")]), None);
    let c = post(addr, &format!("/api/ai-sdk/chat?{q}"), &b).await;
    assert_eq!(c.status, 200);
    check_headers(&c);
    assert!(!c.ended && c.eof, "cut without the terminating chunk");
    let text = c.text();
    let whole = &text[..text.rfind("\n\n").expect("frames") + 2];
    let cut = frames(whole.as_bytes(), false);
    assert_eq!(cut.len(), 12);
    assert!(
        text.len() > whole.len(),
        "half a frame after the last whole one"
    );
    // A POST with nothing to answer (no new user message): 409, the response stays active.
    let c = post(
        addr,
        &format!("/api/ai-sdk/chat?{q}"),
        &body("c-drop", json!([]), None),
    )
    .await;
    assert_eq!(c.status, 409, "{}", c.text());
    // The resume GET (with the api's query, as DefaultChatTransport builds it) replays it from
    // its first chunk, whole (drop applies to the first POST only).
    let c = get(addr, &format!("/api/ai-sdk/chat/c-drop/stream?{q}")).await;
    assert_eq!(c.status, 200);
    check_headers(&c);
    assert!(c.header("x-run-id").is_some_and(|r| !r.is_empty()));
    let all = frames(&c.body, true);
    verify(&all, &BTreeSet::new(), true);
    assert_eq!(&all[..12], &cut[..]);
    assert_eq!(all.last().expect("l")["finishReason"], "stop");
    // Delivered whole: nothing active any more.
    let c = get(addr, "/api/ai-sdk/chat/c-drop/stream").await;
    assert_eq!(c.status, 204);

    // A live response: a resume GET while it is produced gets it from the start, then live.
    let b = body("c-live", json!([user("u", "go")]), None);
    let mut p = open(
        addr,
        "POST",
        "/api/ai-sdk/chat?scenario=quick&speed=2",
        &[("Content-Type", "application/json")],
        Some(&b),
    )
    .await;
    assert!(p.wait_for("text-delta", Duration::from_secs(20)).await);
    let g = get(addr, "/api/ai-sdk/chat/c-live/stream").await;
    assert_eq!(g.status, 200);
    let p = p.finish(30).await;
    let a = frames(&p.body, true);
    let b2 = frames(&g.body, true);
    assert_eq!(a, b2, "the resumed body equals the POST's");
}

#[tokio::test]
async fn newline_faults() {
    let addr = server().await;
    for (fault, eol) in [("crlf", "\r\n"), ("cr", "\r")] {
        let c = post(
            addr,
            &format!("/api/ai-sdk/chat?scenario=quick&speed=0&faults={fault}"),
            &body(&format!("c-{fault}"), json!([]), None),
        )
        .await;
        let text = c.text();
        assert!(text.starts_with("data: {\"type\":\"start\""));
        assert!(text.ends_with(&format!("data: [DONE]{eol}{eol}")));
        if fault == "cr" {
            assert!(!text.contains('\n'));
        } else {
            assert!(!text.replace("\r\n", "").contains('\n'));
        }
        let lf = text.replace(eol, "\n");
        verify(&frames(lf.as_bytes(), true), &BTreeSet::new(), true);
    }
}

#[tokio::test]
async fn bad_requests_get_json_errors() {
    let addr = server().await;
    for b in [
        "{not json",
        "[]",
        "",
        r#"{"id":"c","trigger":"submit-message"}"#,
        r#"{"id":"","messages":[],"trigger":"submit-message"}"#,
        r#"{"id":"c","messages":[],"trigger":"go"}"#,
        r#"{"id":"c","messages":[{"id":"u","role":"robot","parts":[]}],"trigger":"submit-message"}"#,
        r#"{"id":"c","messages":[{"id":"u","role":"user"}],"trigger":"submit-message"}"#,
        r#"{"id":"c","messages":[{"id":"a","role":"assistant","parts":[{"type":"tool-x"}]}],"trigger":"submit-message"}"#,
        r#"{"id":"c","messages":[],"trigger":"submit-message","messageId":7}"#,
    ] {
        let c = post(addr, "/api/ai-sdk/chat", b).await;
        assert_eq!(c.status, 400, "{b}: {}", c.text());
        assert!(c.json()["error"].is_string());
    }
    let ok = body("c-bad", json!([]), None);
    for (q, status) in [
        ("faults=dup=2", 400),
        ("faults=nope", 400),
        ("scenario=nope", 404),
        ("speed=x", 400),
    ] {
        let c = post(addr, &format!("/api/ai-sdk/chat?{q}"), &ok).await;
        assert_eq!(c.status, status, "{q}");
        assert!(c.json()["error"].is_string());
    }
    let c = request(addr, "GET", "/api/ai-sdk/chat", &[], None).await;
    assert_eq!(c.status, 405);
    let c = request(addr, "POST", "/api/ai-sdk/chat/x/stream", &[], None).await;
    assert_eq!(c.status, 405);
    let c = request(
        addr,
        "OPTIONS",
        "/api/ai-sdk/chat",
        &[
            ("Origin", "http://x.test"),
            ("Access-Control-Request-Method", "POST"),
        ],
        None,
    )
    .await;
    assert_eq!(c.status, 204);
    assert_eq!(
        c.header("access-control-allow-origin"),
        Some("http://x.test")
    );
    assert!(c
        .header("access-control-allow-headers")
        .expect("h")
        .contains("Content-Type"));
    // status=CODE:N: the first POST of the chat answers CODE.
    let c = post(
        addr,
        "/api/ai-sdk/chat?speed=0&faults=status=503:1",
        &body("c-st", json!([]), None),
    )
    .await;
    assert_eq!(c.status, 503);
    let c = post(
        addr,
        "/api/ai-sdk/chat?speed=0&faults=status=503:1",
        &body("c-st", json!([]), None),
    )
    .await;
    assert_eq!(c.status, 200);
}

#[tokio::test]
async fn official_client_and_schema_accept_every_response() {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let modules = std::env::var_os("AI_SDK_NODE_MODULES")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| here.join("../tests/ai-sdk/node_modules"));
    if !modules.join("ai/dist/index.js").is_file() {
        // Under CI a missing install is a failure.
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "no ai package at {} (set AI_SDK_NODE_MODULES; `npm ci` in tests/ai-sdk)",
            modules.display()
        );
        eprintln!(
            "skipped: no ai package at {} (set AI_SDK_NODE_MODULES)",
            modules.display()
        );
        return;
    }
    let addr = server().await;
    let script = here.join("tests/ai_sdk_official.mjs");
    let child = tokio::task::spawn_blocking(move || {
        std::process::Command::new("node")
            .arg(script)
            .arg(format!("http://{addr}/api/ai-sdk/chat"))
            .env("AI_SDK_NODE_MODULES", &modules)
            .output()
    });
    let out = match tokio::time::timeout(Duration::from_secs(120), child).await {
        Ok(Ok(Ok(o))) => o,
        Ok(Ok(Err(e))) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "cannot run node: {e}"
            );
            eprintln!("skipped: cannot run node: {e}");
            return;
        }
        Ok(Err(e)) => panic!("{e}"),
        Err(_) => panic!("the node check did not finish in 120 s"),
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "node check failed:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("chunks valid by uiMessageChunkSchema"),
        "{stdout}"
    );
    eprintln!("{stdout}");
}
